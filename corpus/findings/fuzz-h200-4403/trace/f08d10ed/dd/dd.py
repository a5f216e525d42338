#!/usr/bin/env python3
import subprocess,sys,re,os
src=open('../orig.ptx').read()
head,rest=src.split('// begin body\n'); body,tail=rest.split('// end body\n')
lines=body.splitlines()
P='/tmp/nvcc130/nvidia/cu13/bin/ptxas'; ND='/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm'
from defcheck import defined_ok, dce
def test(ls):
    if not defined_ok(ls): return False
    open('t.ptx','w').write(head+'// begin body\n'+'\n'.join(ls)+'\n// end body\n'+tail)
    if subprocess.run([P,'-arch=sm_90','-O3','t.ptx','-o','t.cubin'],capture_output=True).returncode: return False
    out=subprocess.run([ND,'-c','t.cubin'],capture_output=True,text=True).stdout
    s=[re.sub(r'\s*/\*.*?\*/','',l).strip() for l in out.splitlines() if re.match(r'\s+/\*[0-9a-f]{4}\*/',l)]
    open('t.sass','w').write('\n'.join('%04d %s'%(i,x) for i,x in enumerate(s) if x and not x.startswith('NOP'))+'\n')
    return subprocess.run(['python3','check2.py','t.sass',r'STG\S* desc\[UR\d\]\[R\d+\.64\],','PACK_AB'],capture_output=True).returncode==0
assert test(lines)
changed=True
while changed:
    changed=False
    for i in range(len(lines)-1,-1,-1):
        if 'st.global.s16' in lines[i]: continue
        c=dce(lines[:i]+lines[i+1:])
        if test(c): lines=c; changed=True; print('removed',i,len(lines),flush=True)
open('min.txt','w').write('\n'.join(lines)+'\n')
test(lines)
print('\n'.join(lines))
