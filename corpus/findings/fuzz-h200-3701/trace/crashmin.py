import subprocess,sys
body=open(sys.argv[1]).read().splitlines()
P=sys.argv[2]
def test(lines):
    subprocess.run(['/work/tr-c1/wrap.sh','/tmp/cm.ptx'],input='\n'.join(lines)+'\n',text=True)
    r=subprocess.run([P,'-arch=sm_90','-O3','/tmp/cm.ptx','-o','/tmp/cm.cubin'],capture_output=True)
    return r.returncode==-11 or r.returncode==139
print('orig crashes:',test(body))
changed=True
while changed:
    changed=False
    for i in range(len(body)-1,-1,-1):
        t=body[:i]+body[i+1:]
        if test(t): body=t; changed=True
print('\n'.join(body))
