import sys,re
base=open(sys.argv[1]).read()
pre,rest=base.split('// begin body\n'); body,post=rest.split('// end body\n')
def mk(name, b):
    open(name+'.ptx','w').write(pre+'// begin body\n'+b+'// end body\n'+post)
V={
'v1':"""	ld.global.b64 %d1, [%in+32];
	add.cc.s64 %d2, %d1, %d1;
	addc.cc.s64 %d3, %d2, 0;
	neg.s64 %d3, %d3;
	mov.b64 %d5, 0;
	sub.cc.s64 %d6, %d5, 0;
	subc.s64 %d4, %d3, 0;
	st.global.u64 [%out], %d4;
""",
# C an addc
'v2':"""	ld.global.b64 %d1, [%in+32];
	add.cc.s64 %d2, %d1, %d1;
	addc.cc.s64 %d3, %d2, 0;
	neg.s64 %d3, %d3;
	mov.b64 %d5, 0;
	add.cc.s64 %d6, %d5, 0;
	addc.s64 %d4, %d3, 0;
	st.global.u64 [%out], %d4;
""",
# u64 types
'v3':"""	ld.global.b64 %d1, [%in+32];
	add.cc.u64 %d2, %d1, %d1;
	addc.cc.u64 %d3, %d2, 0;
	neg.s64 %d3, %d3;
	mov.b64 %d5, 0;
	sub.cc.u64 %d6, %d5, 0;
	subc.u64 %d4, %d3, 0;
	st.global.u64 [%out], %d4;
""",
# N's result also stored (N kept)
'v4':"""	ld.global.b64 %d1, [%in+32];
	add.cc.s64 %d2, %d1, %d1;
	addc.cc.s64 %d3, %d2, 0;
	st.global.u64 [%out+8], %d3;
	neg.s64 %d3, %d3;
	mov.b64 %d5, 0;
	sub.cc.s64 %d6, %d5, 0;
	subc.s64 %d4, %d3, 0;
	st.global.u64 [%out], %d4;
""",
# the negation the subc's subtrahend
'v5':"""	ld.global.b64 %d1, [%in+32];
	add.cc.s64 %d2, %d1, %d1;
	addc.cc.s64 %d3, %d2, 0;
	neg.s64 %d3, %d3;
	mov.b64 %d5, 0;
	sub.cc.s64 %d6, %d5, 0;
	subc.s64 %d4, %d1, %d3;
	st.global.u64 [%out], %d4;
""",
# sub.s64 of a moved 0 for the neg
'v6':"""	ld.global.b64 %d1, [%in+32];
	add.cc.s64 %d2, %d1, %d1;
	addc.cc.s64 %d3, %d2, 0;
	mov.b64 %d0, 0;
	sub.s64 %d3, %d0, %d3;
	mov.b64 %d5, 0;
	sub.cc.s64 %d6, %d5, 0;
	subc.s64 %d4, %d3, 0;
	st.global.u64 [%out], %d4;
""",
# N a subc
'v7':"""	ld.global.b64 %d1, [%in+32];
	sub.cc.s64 %d2, %d1, %d1;
	subc.cc.s64 %d3, %d1, 5;
	neg.s64 %d3, %d3;
	mov.b64 %d5, 0;
	sub.cc.s64 %d6, %d5, 0;
	subc.s64 %d4, %d3, 0;
	st.global.u64 [%out], %d4;
""",
# register operands in N and C
'v8':"""	ld.global.b64 %d1, [%in+32];
	ld.global.b64 %d0, [%in+40];
	add.cc.s64 %d2, %d1, %d1;
	addc.cc.s64 %d3, %d0, %d1;
	neg.s64 %d3, %d3;
	sub.cc.s64 %d6, %d0, %d1;
	subc.s64 %d4, %d3, %d0;
	st.global.u64 [%out], %d4;
""",
# plain sub after the neg (right expected)
'v9':"""	ld.global.b64 %d1, [%in+32];
	add.cc.s64 %d2, %d1, %d1;
	addc.cc.s64 %d3, %d2, 0;
	neg.s64 %d3, %d3;
	sub.s64 %d4, %d3, 7;
	st.global.u64 [%out], %d4;
""",
# b64 (not allowed for addc? PTX addc types: .u32 .s32 .u64 .s64)  -> mixed: N .s64, C .u64
'v10':"""	ld.global.b64 %d1, [%in+32];
	add.cc.s64 %d2, %d1, %d1;
	addc.cc.u64 %d3, %d2, 0;
	neg.s64 %d3, %d3;
	mov.b64 %d5, 0;
	sub.cc.u64 %d6, %d5, 0;
	subc.u64 %d4, %d3, 0;
	st.global.u64 [%out], %d4;
""",
# N without .cc
'v11':"""	ld.global.b64 %d1, [%in+32];
	add.cc.s64 %d2, %d1, %d1;
	addc.s64 %d3, %d2, 0;
	neg.s64 %d3, %d3;
	mov.b64 %d5, 0;
	sub.cc.s64 %d6, %d5, 0;
	subc.s64 %d4, %d3, 0;
	st.global.u64 [%out], %d4;
""",
}
for k,v in V.items(): mk(sys.argv[2]+'/'+k, v)
