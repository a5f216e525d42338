import subprocess, re, sys, os
P130='/tmp/nvcc130/nvidia/cu13/bin/ptxas'; ND='/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm'
src=open(os.path.join(os.path.dirname(os.path.abspath(__file__)),'orig.ptx')).read()
pre,rest=src.split('// begin body\n'); body,post=rest.split('// end body\n')
lines=body.splitlines()
def sass(b, ptxas=P130, opt='3'):
    open('/tmp/z1dd.ptx','w').write(pre+'// begin body\n'+'\n'.join(b)+'\n// end body\n'+post)
    r=subprocess.run([ptxas,'-arch=sm_90','-O'+opt,'/tmp/z1dd.ptx','-o','/tmp/z1dd.cubin'],capture_output=True)
    if r.returncode: return None
    return subprocess.run([ND,'-c','/tmp/z1dd.cubin'],capture_output=True,text=True).stdout
def bad(s):
    if s is None: return False
    addr={}; cur=None; labels={}
    ins=[]
    pend=[]
    for l in s.splitlines():
        m=re.match(r'^(\.L_x_\d+):',l)
        if m: pend.append(m.group(1)); continue
        m=re.match(r'\s+/\*([0-9a-f]{4})\*/\s+(.*?);',l)
        if m:
            a=int(m.group(1),16)
            for p in pend: labels[p]=(a,m.group(2))
            pend=[]; ins.append((a,m.group(2)))
    for a,t in ins:
        m=re.match(r'@!?U?P\d BRA `\((\.L_x_\d+)\)',t)
        if m and m.group(1) in labels:
            ta,tt=labels[m.group(1)]
            if ta<a and tt.startswith('BSYNC'): return True
    return False
if __name__=='__main__':
    assert bad(sass(lines)), 'orig not bad'
    cur=lines[:]
    n=2
    while len(cur)>=2:
        chunk=max(1,len(cur)//n); removed=False
        for i in range(0,len(cur),chunk):
            cand=cur[:i]+cur[i+chunk:]
            if bad(sass(cand)):
                cur=cand; n=max(n-1,2); removed=True; break
        if not removed:
            if chunk==1: break
            n=min(len(cur),n*2)
    open('dd.body','w').write('\n'.join(cur)+'\n')
    print('\n'.join(cur)); print(len(cur))
