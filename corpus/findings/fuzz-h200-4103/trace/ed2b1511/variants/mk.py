import sys; sys.path.insert(0,'..'); import dd
pre=dd.pre; post=dd.post
V={}
V['reduced']='''	ld.global.u64 %d2, [%in];
	ld.global.u32 %r2, [%in+8];
	ld.global.u16 %h0, [%in+20];
	cnot.b32 %r5, %r2;
	bfind.u64 %r10, %d2;
	shr.b16 %h8, %h0, %r5;
	st.global.u32 [%out], %r10;
	st.global.u16 [%out+4], %h8;'''
R=V['reduced']
V['v1_amount_loaded']=R.replace('cnot.b32 %r5, %r2;','ld.global.u32 %r5, [%in+12];')
V['v2_not_amount']=R.replace('cnot.b32','not.b32')
V['v3_shift_before_bfind']='''	ld.global.u64 %d2, [%in];
	ld.global.u32 %r2, [%in+8];
	ld.global.u16 %h0, [%in+20];
	cnot.b32 %r5, %r2;
	shr.b16 %h8, %h0, %r5;
	bfind.u64 %r10, %d2;
	st.global.u32 [%out], %r10;
	st.global.u16 [%out+4], %h8;'''
V['v4_shr_b32']=R.replace('ld.global.u16 %h0','ld.global.u32 %r0').replace('shr.b16 %h8, %h0, %r5','shr.b32 %r1, %r0, %r5').replace('st.global.u16 [%out+4], %h8','st.global.u32 [%out+4], %r1')
V['v5_shl_b16']=R.replace('shr.b16','shl.b16')
V['v6_shr_u16']=R.replace('shr.b16','shr.u16')
V['v7_shr_s16']=R.replace('shr.b16','shr.s16')
V['v8_bfind_s64']=R.replace('bfind.u64','bfind.s64')
V['v9_bfind_u32']=R.replace('bfind.u64 %r10, %d2','bfind.u32 %r10, %r2')
V['v10_ptx_diamond']='''	ld.global.u32 %r0, [%in];
	ld.global.u32 %r2, [%in+8];
	ld.global.u16 %h0, [%in+20];
	cnot.b32 %r5, %r2;
	setp.eq.u32 %p0, %r0, 0;
	@%p0 bra $Lz;
	add.u32 %r10, %r0, 7;
	bra $Lj;
$Lz:
	mul.lo.u32 %r10, %r0, %r2;
$Lj:
	shr.b16 %h8, %h0, %r5;
	st.global.u32 [%out], %r10;
	st.global.u16 [%out+4], %h8;'''
V['v11_loop_like_orig']='''	ld.global.u64 %d2, [%in];
	ld.global.u32 %r2, [%in+8];
	ld.global.u16 %h0, [%in+20];
	cnot.b32 %r5, %r2;
	mov.u32 %r9, 0;
$L1:
	bfind.u64 %r10, %d2;
	shr.b16 %h8, %h0, %r5;
	add.u32 %r9, %r9, 0x3;
	setp.lt.u32 %p2, %r9, 0x18;
	@%p2 bra $L1;
	st.global.u32 [%out], %r10;
	st.global.u16 [%out+4], %h8;'''
V['v12_cnot_stored_too']=R+'\n\tst.global.u32 [%out+8], %r5;'
for n,b in V.items():
    open(n+'.ptx','w').write(pre+'// begin body\n'+b+'\n// end body\n'+post)
