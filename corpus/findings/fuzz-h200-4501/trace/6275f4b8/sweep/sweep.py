import subprocess, re, math, itertools, sys
head=open('../orig.ptx').read().split('// begin body\n')[0]
tail=open('../orig.ptx').read().split('// end body\n')[1]
P='/work/main/.tools/ptxas/13.0/ptxas'; ND='/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm'
bases={'u64':'\tld.global.u64 %d0, [%in];\n',
 'u8':'\tld.global.u8 %h0, [%in+1];\n\tcvt.u64.u16 %d0, %h0;\n',
 'u16':'\tld.global.u16 %h0, [%in+1];\n\tcvt.u64.u16 %d0, %h0;\n',
 'u32':'\tld.global.u32 %r0, [%in];\n\tcvt.u64.u32 %d0, %r0;\n',
 'u24':'\tld.global.u32 %r0, [%in];\n\tand.b32 %r0, %r0, 0xffffff;\n\tcvt.u64.u32 %d0, %r0;\n'}
end='''\tadd.cc.s64 %d1, %d0, -1465295879665467448;
\tmov.b64 {%h5, %h6, %h7, %h8}, %d1;
\tst.global.u16 [%out+4], %h8;\n'''
def kept(base, seq):
    b=bases[base]+''.join(f'\tshl.b64 %d0, %d0, {k};\n' for k in seq)+end
    open('x.ptx','w').write(head+'// begin body\n'+b+'// end body\n'+tail)
    subprocess.run([P,'-arch=sm_90','-O3','x.ptx','-o','x.cubin'],check=True)
    s=subprocess.run([ND,'-c','-ndf','x.cubin'],capture_output=True,text=True).stdout
    tot=0
    for m in re.finditer(r'IMAD(?:\.SHL)?\.U32 R\d+, R\d+(?:\.reuse)?, (-?0x[0-9a-f]+), RZ',s): tot+=int(math.log2(int(m.group(1),16)&0xffffffff))
    for m in re.finditer(r'LEA RZ, P0, R\d+, 0x[0-9a-f]+, 0x([0-9a-f]+)',s): tot+=int(m.group(1),16)
    for m in re.finditer(r'\bSHF\.L\.U32 R\d+, R\d+(?:\.reuse)?, 0x([0-9a-f]+), RZ',s): tot+=int(m.group(1),16)
    return tot
def rule(seq, start=0):
    run=start
    for i,k in enumerate(seq):
        run+=k
        if run>=32: return sum(seq[:i+1])
    return sum(seq)
for seq in eval(sys.argv[1]):
    row=[f'{base}:{kept(base,seq)}' for base in bases]
    print(seq, 'total',sum(seq),'rule',rule(seq), ' '.join(row), flush=True)
