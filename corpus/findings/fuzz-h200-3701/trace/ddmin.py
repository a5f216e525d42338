import subprocess,sys,os
# ddmin.py body.txt pattern ptxas [-O3]: greedy line removal keeping pattern in SASS
body=open(sys.argv[1]).read().splitlines(); pat=sys.argv[2]
P=sys.argv[3] if len(sys.argv)>3 else '/tmp/nvcc130/nvidia/cu13/bin/ptxas'
ND='/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm'
def test(lines):
    subprocess.run(['/work/tr-c1/wrap.sh','/tmp/dd.ptx'],input='\n'.join(lines)+'\n',text=True)
    r=subprocess.run([P,'-arch=sm_90','-O3','/tmp/dd.ptx','-o','/tmp/dd.cubin'],capture_output=True)
    if r.returncode: return False
    s=subprocess.run([ND,'-c','/tmp/dd.cubin'],capture_output=True,text=True).stdout
    import re
    return re.search(pat,s) is not None
assert test(body), 'orig does not show pattern'
changed=True
while changed:
    changed=False
    for i in range(len(body)-1,-1,-1):
        t=body[:i]+body[i+1:]
        if test(t): body=t; changed=True
print('\n'.join(body))
