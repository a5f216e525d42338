import sys,re,subprocess
o,C,a,cmp,K=sys.argv[1:6]
ver = sys.argv[6] if len(sys.argv)>6 else "13.0"
src=open(o).read()
body=f"\tld.acquire.cta.global.f32 %r0, [%in+12];\n\tor.b32 %r0, %r0, {C};\n\tshr.s32 %r5, %r0, {a};\n\tsetp.{cmp}.s32 %p4, %r5, {K};\n\tselp.b32 %r6, %r5, 0xffffffff, %p4;\n\tmov.b64 %d3, {{%r6, %r6}};\n\tst.global.b64 [%out], %d3;\n"
src=re.sub(r"(// begin body\n).*?(// end body)",lambda m:m.group(1)+body+m.group(2),src,flags=re.S)
open("p.ptx","w").write(src)
subprocess.run([f".tools/ptxas/{ver}/ptxas","-arch=sm_90","-O3","p.ptx","-o","p.cubin"],check=True)
s=subprocess.run(["nvdisasm","-c","-ndf","p.cubin"],capture_output=True,text=True).stdout
r = "kept" if ("ISETP" in s or "VIMNMX" in s) else ("y" if "SHF" in s else "-1")
print(C,a,cmp,K,r)
