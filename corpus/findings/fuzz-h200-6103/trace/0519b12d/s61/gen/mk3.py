import sys
base=open(sys.argv[1]).read()
pre,rest=base.split('// begin body\n'); body,post=rest.split('// end body\n')
def mk(name, b):
    open(name+'.ptx','w').write(pre+'// begin body\n'+b+'// end body\n'+post)
def chain(a='s64',n='s64',s='s64',c='s64',nop='addc',cop='subc',sop='sub',nb='%d0, %d1',cb='%d3, %d0',x=''):
    return f"""	ld.global.b64 %d1, [%in+32];
	ld.global.b64 %d0, [%in+40];
	add.cc.{a} %d2, %d1, %d1;
	{nop}.cc.{n} %d3, {nb};
	neg.s64 %d3, %d3;
{x}	{sop}.cc.{s} %d6, %d0, %d1;
	{cop}.{c} %d4, {cb};
	st.global.u64 [%out], %d4;
"""
V={
'v22':chain(a='u64'),
'v23':chain(nb='%d0, 0',cb='%d3, %d1'),
'v24':chain(cb='%d3, 5'),
'v25':chain(nb='%d0, 7',cb='%d3, 5'),
'v26':chain(nop='subc'),
'v27':chain(nop='subc',cop='addc',sop='add'),
'v28':chain(n='u64'),
'v29':chain(c='u64'),
'v30':chain(cop='addc',sop='add'),
'v31':chain(x='	mov.b64 %d5, %d3;\n',cb='%d5, %d0'),
}
for k,v in V.items(): mk(sys.argv[2]+'/'+k, v)
