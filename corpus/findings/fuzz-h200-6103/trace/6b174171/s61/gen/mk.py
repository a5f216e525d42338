import sys
base=open(sys.argv[1]).read()
pre,rest=base.split('// begin body\n'); body,post=rest.split('// end body\n')
def mk(name, b):
    open(name+'.ptx','w').write(pre+'// begin body\n'+b+'// end body\n'+post)
def v(src='2356470783', cond='@!%p0 bra $L0;', sh='shfl.sync.up.b32 %r6, %r1, 2, %r5, -1;', x=''):
    return f"""	mov.b32 %r1, 0;
{x}	shfl.sync.bfly.b32 %r0|%p0, {src}, 16, 30, -1;
	{cond}
	ld.global.f32 %r1, [%in+32];
$L0:
	mov.b32 %r5, 0;
	{sh}
	mov.b64 %d6, {{%r6, %r6}};
	st.global.u64 [%out], %d6;
"""
V={
'a1':v(src='%r2',x='	ld.global.b32 %r2, [%in+36];\n'),  # bfly of a loaded word
'a2':v(src='%tix'),
'a3':v(cond='setp.eq.u32 %p0, %tix, 15;\n\t@%p0 bra $L0;'),
'a4':v(sh='shfl.sync.down.b32 %r6, %r1, 2, 31, -1;'),
'a5':v(sh='shfl.sync.idx.b32 %r6, %r1, 13, 31, -1;'),
'a6':v(sh='shfl.sync.bfly.b32 %r6, %r1, 2, 31, -1;'),
'a7':v(sh='shfl.sync.up.b32 %r6, %r1, 2, 0, -1;'),
}
for k,b in V.items(): mk(sys.argv[2]+'/'+k, b)
