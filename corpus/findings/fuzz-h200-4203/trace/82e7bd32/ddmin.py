import subprocess,sys,os
src=open('orig.ptx').read()
pre,rest=src.split('// begin body\n'); body,post=rest.split('// end body')
lines=[l for l in body.split('\n') if l.strip()]
env=dict(os.environ,PTXDIFF_ROOT='/work/main',PTXAS='/tmp/nvcc130/nvidia/cu13/bin/ptxas')
def ok(ls):
    open('/tmp/c1dd.ptx','w').write(pre+'// begin body\n'+'\n'.join(ls)+'\n// end body'+post)
    r=subprocess.run(['/work/notes/ptxdiff-42','sass-check','/tmp/c1dd.ptx','--opt','3'],env=env,capture_output=True,text=True)
    return 'descriptor' in r.stdout
assert ok(lines)
changed=True
while changed:
    changed=False
    i=0
    while i<len(lines):
        t=lines[:i]+lines[i+1:]
        if ok(t): lines=t; changed=True
        else: i+=1
open('ddmin.ptx','w').write(pre+'// begin body\n'+'\n'.join(lines)+'\n// end body'+post)
print('\n'.join(lines))
