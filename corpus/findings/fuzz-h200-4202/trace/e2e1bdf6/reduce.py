import subprocess,sys,os
body=[l for l in open('body0.txt').read().split('\n') if l.strip()]
import defs
def test(b):
    if not defs.ok(b): return False
    open('t.body','w').write('\n'.join(b)+'\n')
    subprocess.run('../wrap.sh t.ptx < t.body',shell=True)
    r=subprocess.run('/tmp/nvcc130/nvidia/cu13/bin/ptxas -arch=sm_90 -O3 t.ptx -o t.cubin 2>/dev/null && /root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm -c t.cubin | grep -E "^\s+/\*[0-9a-f]{4}\*/" | sed -E "s@^\s+/\*([0-9a-f]+)\*/\s+@\\1 @; s@\s*/\*.*\$@@; s@ +;@;@" > t.sass && python3 check.py t.sass',shell=True,capture_output=True)
    return r.returncode==0
assert test(body)
changed=True
while changed:
    changed=False
    for i in range(len(body)-1,-1,-1):
        if '+11]' in body[i]: continue
        b=body[:i]+body[i+1:]
        if test(b): body=b; changed=True
open('body_min.txt','w').write('\n'.join(body)+'\n')
print('\n'.join(body))
