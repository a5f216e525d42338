import sys,subprocess,re
base=open('base.ptx').read()
A='''	setp.ne.s32 %p0, %r0, -1;
	@%p0 bra $L0;
	mov.b32 %r0, 0;
	$L0:
'''
B='''	setp.ge.u64 %p2, %d1, 0;
	@%p2 bra $L2;
	mov.b64 %d1, 0;
	$L2:
'''
assert A in base and B in base
V={
 'base':(A,B),
 'a_ne0_32':(A.replace('-1','0'),B),
 'a_eq0_32_b_ne5':(A.replace('ne.s32 %p0, %r0, -1','eq.s32 %p0, %r0, 0'),B.replace('ge.u64 %p2, %d1, 0','ne.u64 %p2, %d1, 5')),
 'a_ne0_32_b_ge5':(A.replace('-1','0'),B.replace('%d1, 0;\n\t@','%d1, 5;\n\t@')),
 'b_ge5':(A,B.replace('%d1, 0;\n\t@','%d1, 5;\n\t@')),
 'b_lt_s64_0':(A,B.replace('ge.u64','lt.s64')),
 'b_ne_u64_0_mov7':(A,B.replace('ge.u64','ne.u64').replace('mov.b64 %d1, 0','mov.b64 %d1, 7')),
 'b_ne_u64_0':(A,B.replace('ge.u64','ne.u64')),
 'b_ne_u64_0_alone':('',B.replace('ge.u64','ne.u64')),
 'a_only_ne0_32':(A.replace('-1','0'),''),
 'three_32m1':(A+A.replace('$L0','$L5').replace('%p0','%p1'),''),
 'a_b32_ne0_on_lo':(A, B.replace('setp.ge.u64 %p2, %d1, 0','cvt.u32.u64 %r3, %d1;\n\tsetp.ne.s32 %p2, %r3, 0')),
 'b_ne_u32_0':(A, B.replace('setp.ge.u64 %p2, %d1, 0','cvt.u32.u64 %r3, %d1;\n\tsetp.ne.u32 %p2, %r3, 0')),
 'b_ge_u32_0':(A, B.replace('setp.ge.u64 %p2, %d1, 0','cvt.u32.u64 %r3, %d1;\n\tsetp.ge.u32 %p2, %r3, 0')),
 'b_ne_u64_0_a_after':('',B.replace('ge.u64','ne.u64')),
 'b_gt_u64_0':(A,B.replace('ge.u64','gt.u64')),
 'b_ne_u16_0':(A, B.replace('setp.ge.u64 %p2, %d1, 0','cvt.u16.u64 %h7, %d1;\n\tsetp.ne.u16 %p2, %h7, 0')),
}

SETCVT='\tset.lt.f32.u16 %r1, %h1, 198;\n\tcvt.rn.bf16.s32 %h4, %r1;\n\tst.global.u16 [%out+2], %h4;\n'
assert SETCVT in base
def mk(order):
    # order: list of chunks replacing A..B region
    t=base.replace(A,'').replace(SETCVT,'').replace(B,'')
    return t.replace('\tst.global.u64 [%out+8], %d1;', ''.join(order)+'\tst.global.u64 [%out+8], %d1;')
W={
 'b_a_cvt': [B,A,SETCVT],
 'b_cvt_a': [B,SETCVT,A],
 'cvt_b_a': [SETCVT,B,A],
 'cvt_a_b': [SETCVT,A,B],
 'a_cvt_b': [A,SETCVT,B],
 'set_a_b_cvt': ['\tset.lt.f32.u16 %r1, %h1, 198;\n',A,B,'\tcvt.rn.bf16.s32 %h4, %r1;\n\tst.global.u16 [%out+2], %h4;\n'],
 'b_store_arm': [A,SETCVT,B.replace('mov.b64 %d1, 0;','st.global.u32 [%out+12], %r0;')],
 'b_arm_other': [A,SETCVT,B.replace('mov.b64 %d1, 0;','mov.b32 %r0, 5;')],
 'b_reg0': [A,SETCVT,'\tmov.b64 %d2, 0;\n'+B.replace('%d1, 0;\n\t@','%d1, %d2;\n\t@')],
 'selp64_two32': [A,A.replace('$L0','$L5').replace('%p0','%p1').replace('%r0','%r2'),SETCVT,'\tsetp.ne.u64 %p2, %d1, 0;\n\tselp.b64 %d1, %d1, 0, %p2;\n'],
 'b_ifelse': [A,SETCVT,'\tsetp.ne.u64 %p2, %d1, 0;\n\t@%p2 bra $L2;\n\tmov.b64 %d1, 0;\n\tbra $L3;\n$L2:\n\tmov.b64 %d1, 9;\n$L3:\n'],
 'b_ne_in_A_arm_only': [A,SETCVT],
 'two_b_no_a_cvt_between': [B,SETCVT,B.replace('%p2','%p3').replace('$L2','$L6').replace('%d1','%d2')],
}

LD2='\tld.global.u64 %d2, [%in+112];\n'
ST2='\tst.global.u64 [%out+16], %d2;\n'
B2=B.replace('%p2','%p3').replace('$L2','$L6').replace('%d1','%d2')
W.update({
 'b5d2_then_b': [LD2,B2.replace('%d2, 0;\n\t@','%d2, 5;\n\t@'),SETCVT,B,ST2],
 'a_b_a2': [A,SETCVT,B,A.replace('$L0','$L5').replace('%p0','%p1').replace('%r0','%r2'),'\tst.global.u32 [%out+12], %r2;\n'],
 'b_cmp_d1_arm_d2': [LD2,A,SETCVT,B.replace('mov.b64 %d1, 0','mov.b64 %d2, 0'),ST2],
 'aguard_b': ['\tsetp.ne.s32 %p0, %r0, -1;\n\t@!%p0 mov.b32 %r0, 0;\n',SETCVT,B],
 'b_d2_then_b_d1': [LD2,B2,SETCVT,B,ST2],
 'a_b_b2': [LD2,A,SETCVT,B,B2,ST2],
 'b_b2': [LD2,SETCVT,B,B2,ST2],
 'a_b2_ge5_b': [LD2,A,B2.replace('%d2, 0;\n\t@','%d2, 5;\n\t@'),SETCVT,B,ST2],
 'a_nonstored_arm': [A.replace('mov.b32 %r0, 0;','mov.b32 %r3, 0;'),SETCVT,B],
})

ABIG=A.replace('mov.b32 %r0, 0;','mov.b32 %r0, 0;\n\tadd.s32 %r0, %r0, %r0;\n\tmul.lo.s32 %r0, %r0, 3;\n\tld.global.s32 %r0, [%in+8];')
W.update({
 'abig_b': [ABIG,SETCVT,B],
 'a_b_revops': [A,SETCVT,B.replace('%d1, 0;\n\t@','0, %d1;\n\t@').replace('ge.u64','le.u64')],
 'a_b_notbra': [A,SETCVT,B.replace('ge.u64','lt.s64').replace('@%p2','@!%p2')],
 'a_b_armreg': [LD2,A,SETCVT,B.replace('mov.b64 %d1, 0','mov.b64 %d1, %d2')],
 'a_b_setp_early': ['\tsetp.ne.u64 %p2, %d1, 0;\n',A,SETCVT,B.replace('\tsetp.ge.u64 %p2, %d1, 0;\n','')],
 'a_b_cvtu64': [A,SETCVT.replace('cvt.rn.bf16.s32 %h4','cvt.u64.s32 %d3').replace('st.global.u16 [%out+2], %h4','st.global.u64 [%out+16], %d3'),B],
 'a_b_cvtf32u32': [A,SETCVT.replace('cvt.rn.bf16.s32 %h4','cvt.rn.f32.u32 %r5').replace('st.global.u16 [%out+2], %h4','st.global.u32 [%out+12], %r5'),B],
 'a_b_setf32f32': [A,SETCVT.replace('set.lt.f32.u16 %r1, %h1, 198','cvt.rn.f32.u16 %r6, %h1;\n\tset.lt.f32.f32 %r1, %r6, 0f3F000000'),B],
 'a_b_cvtu32': [A,SETCVT.replace('cvt.rn.bf16.s32 %h4','cvt.rzi.u32.f32 %r5').replace('st.global.u16 [%out+2], %h4','st.global.u32 [%out+12], %r5'),B],
 'loop_a_b': [A,SETCVT,B.replace('ge.u64','ne.u64')],
})

A2=A.replace('$L0','$L5').replace('%p0','%p1').replace('%r0','%r2')
W.update({
 'a_a2ne0_32': ['\tld.global.s32 %r2, [%in+16];\n',A,SETCVT,A2.replace('-1','0'),'\tst.global.u32 [%out+12], %r2;\n'],
 'a_a2ge0_s32': ['\tld.global.s32 %r2, [%in+16];\n',A,SETCVT,A2.replace('ne.s32 %p1, %r2, -1','ge.s32 %p1, %r2, 0'),'\tst.global.u32 [%out+12], %r2;\n'],
 'a_h_ne0_16': ['\tld.global.b16 %h2, [%in+16];\n',A,SETCVT,'\tsetp.ne.u16 %p1, %h2, 0;\n\t@%p1 bra $L5;\n\tmov.b16 %h2, 0;\n$L5:\n\tst.global.u16 [%out+12], %h2;\n'],
 'a_b_nomov_other_write': [A,SETCVT,B.replace('mov.b64 %d1, 0','add.s64 %d1, %d1, 1')],
 'a_b_f64': ['\tld.global.f64 %fd, [%in+16];\n',A,SETCVT,'\tsetp.ne.f64 %p2, %fd, 0d0000000000000000;\n\t@%p2 bra $L2;\n\tmov.f64 %fd, 0d0000000000000000;\n$L2:\n\tst.global.f64 [%out+8], %fd;\n'],
})

W.update({
 'a_a2m1_32': ['\tld.global.s32 %r2, [%in+16];\n',A,SETCVT,A2,'\tst.global.u32 [%out+12], %r2;\n'],
 'a_a2ne5_32': ['\tld.global.s32 %r2, [%in+16];\n',A,SETCVT,A2.replace('-1','5'),'\tst.global.u32 [%out+12], %r2;\n'],
 'a_f32': ['\tld.global.f32 %f, [%in+16];\n',A,SETCVT,'\tsetp.gt.f32 %p2, %f, 0f00000000;\n\t@%p2 bra $L2;\n\tmov.f32 %f, 0f3F800000;\n$L2:\n\tst.global.f32 [%out+12], %f;\n'],
 'a_b_two_arm': [LD2,A,SETCVT,B.replace('mov.b64 %d1, 0;','mov.b64 %d1, 0;\n\tmov.b64 %d2, 3;'),ST2],
 'a_b_u32': ['\tld.global.u32 %r2, [%in+16];\n',A,SETCVT,A2.replace('ne.s32 %p1, %r2, -1','gt.u32 %p1, %r2, 0'),'\tst.global.u32 [%out+12], %r2;\n'],
})

which=sys.argv[1:] or list(V)+list(W)
for n in which:
    if n in W: t=mk(W[n])
    else:
      a,b=V[n]
      t=base.replace(A,a).replace(B,b)
    if n=='b_ne_u64_0_a_after':
        t=t.replace('\tst.global.u64 [%out+8], %d1;','\tst.global.u64 [%out+8], %d1;\n'+A)
    open(n+'.ptx','w').write(t)
    r=subprocess.run(f'/tmp/nvcc130/nvidia/cu13/bin/ptxas -arch=sm_90 -O3 {n}.ptx -o {n}.cubin && /root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm -c {n}.cubin > {n}.sass',shell=True,capture_output=True,text=True)
    if r.returncode: print(n,'ERR',r.stderr[:300]); continue
    s=open(n+'.sass').read()
    m=re.findall(r'(?:SEL|FSEL) R\d+, RZ, (0x[0-9a-f]+|1),',s)
    print(f'{n:24s}', re.findall(r'(?:SEL|FSEL) R\d+, RZ, [^;]*',s), 'WRONG' if '0x3f80' in m else ('right' if 'I2F.BF16' in s else '?'), m)
