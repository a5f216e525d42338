import re,subprocess,sys
src=open('orig.ptx').read()
pre,rest=src.split('// begin body\n'); body,post=rest.split('// end body\n')
lines=[l for l in body.split('\n') if l.strip()]
P='/tmp/nvcc130/nvidia/cu13/bin/ptxas'; ND='/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm'
def bad(ls):
    open('/tmp/t2r.ptx','w').write(pre+'// begin body\n'+'\n'.join(ls)+'\n// end body\n'+post)
    if subprocess.run([P,'-arch=sm_90','-O3','/tmp/t2r.ptx','-o','/tmp/t2r.cubin'],capture_output=True).returncode: return False
    s=subprocess.run([ND,'-c','/tmp/t2r.cubin'],capture_output=True,text=True).stdout
    ins=[re.sub(r'/\*[0-9a-f]+\*/','',l).strip() for l in s.split('\n') if re.search(r'/\*[0-9a-f]{4}\*/',l)]
    m=[re.search(r'LDG\.E\.CONSTANT (R\d+),',i) for i in ins]
    for k,x in enumerate(m):
        if not x: continue
        r=x.group(1)
        # later write of r by F2FP, then later read r with 0x7632
        w=[j for j in range(k+1,len(ins)) if re.match(r'F2FP\S* '+r+',',ins[j])]
        if w and any(re.search(r'PRMT R\d+, '+r+', 0x7632',ins[j]) for j in range(w[0]+1,len(ins))): return True
    return False
assert bad(lines), 'orig not bad'
ch=True
while ch:
    ch=False
    for i in range(len(lines)-1,-1,-1):
        if lines[i].lstrip().startswith('st.'): 
            pass
        t=lines[:i]+lines[i+1:]
        if bad(t): lines=t; ch=True
print('\n'.join(lines))
open('reduced_auto.body','w').write('\n'.join(lines)+'\n')
