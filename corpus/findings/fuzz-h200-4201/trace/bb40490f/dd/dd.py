import subprocess, re, sys, os
P130='/tmp/nvcc130/nvidia/cu13/bin/ptxas'; ND='/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm'
src=open('orig.ptx').read()
pre,rest=src.split('// begin body\n'); body,post=rest.split('// end body\n')
lines=[l for l in body.split('\n') if l.strip()]
def bad(ls):
    t=pre+'\n'.join(ls)+'\n'+post
    open('/tmp/a1dd.ptx','w').write(t)
    r=subprocess.run([P130,'-arch=sm_90','-O0','/tmp/a1dd.ptx','-o','/tmp/a1dd.cubin'],capture_output=True)
    if r.returncode: return False
    s=subprocess.run([ND,'-c','/tmp/a1dd.cubin'],capture_output=True,text=True).stdout
    hinted=any('cache_hint' in l and l.strip().startswith('ld') and 'acquire' not in l for l in ls)
    cp=any(l.strip().startswith('createpolicy') for l in ls)
    return hinted and cp and ('CREATEPOLICY' not in s and 'UMOV' not in s and 'F2I' not in s)
assert bad(lines)
changed=True
while changed:
    changed=False
    for i in range(len(lines)):
        t=lines[:i]+lines[i+1:]
        if bad(t):
            lines=t; changed=True; break
print('\n'.join(lines))
