import sys
base=open(sys.argv[1]).read()
pre,rest=base.split('// begin body\n'); body,post=rest.split('// end body\n')
def mk(name, b):
    open(name+'.ptx','w').write(pre+'// begin body\n'+b+'// end body\n'+post)
def chain(a,n,s,c,nop='addc',aop='add',sop='sub',cop='subc',nb='%d2, 0',cb='%d3, 0'):
    return f"""	ld.global.b64 %d1, [%in+32];
	{aop}.cc.{a} %d2, %d1, %d1;
	{nop}.cc.{n} %d3, {nb};
	neg.s64 %d3, %d3;
	mov.b64 %d5, 0;
	{sop}.cc.{s} %d6, %d5, 0;
	{cop}.{c} %d4, {cb};
	st.global.u64 [%out], %d4;
"""
V={
'v12':chain('s64','s64','u64','u64'),
'v13':chain('s64','u64','s64','s64'),
'v14':chain('u64','s64','s64','s64'),
'v15':chain('s64','s64','u64','s64'),
'v16':chain('s64','s64','s64','s64',aop='sub',nop='subc'),
'v17':chain('s64','s64','s64','s64',nop='subc'),
'v18':chain('s64','s64','s64','s64',aop='sub',nop='subc',nb='%d1, 5'),
'v19':chain('s64','s64','s64','s64',nb='%d1, 5'),
'v20':chain('s64','s64','s64','u64',sop='add',cop='addc'),
'v21':chain('s64','s64','s64','s64',nb='%d1, %d2'),
}
for k,v in V.items(): mk(sys.argv[2]+'/'+k, v)
