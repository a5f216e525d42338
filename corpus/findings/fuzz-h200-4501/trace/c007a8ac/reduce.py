import re,subprocess,sys
src=open('orig.ptx').read()
pre,rest=src.split('// begin body\n'); body,post=rest.split('// end body\n')
lines=[l for l in body.splitlines() if l.strip()]
P='/work/main/.tools/ptxas/13.0/ptxas'; ND='/root/.cache/ptxdiff/nvdisasm/nvidia/cu13/bin/nvdisasm'
def listing(ls):
    open('/tmp/t3/cr.ptx','w').write(pre+'// begin body\n'+'\n'.join(ls)+'\n// end body\n'+post)
    r=subprocess.run([P,'-arch=sm_90','-O3','/tmp/t3/cr.ptx','-o','/tmp/t3/cr.cubin'],capture_output=True)
    if r.returncode: return None
    return subprocess.run([ND,'-c','-ndf','/tmp/t3/cr.cubin'],capture_output=True,text=True).stdout
def form(ls):
    s=listing(ls)
    if s is None: return 'fail'
    ins=[re.sub(r'^\s*/\*[0-9a-f]+\*/\s*','',l).replace('.reuse','') for l in s.splitlines() if re.match(r'\s*/\*[0-9a-f]{4}\*/',l)]
    idx=[i for i,l in enumerate(ins) if 'STG.E.S8' in l and '+0x6]' in l]
    if not idx: return 'nostore'
    i=idx[0]; reg=ins[i].split(',')[-1].strip(' ;')
    while True:
        w=[j for j in range(i) if re.match(r'\S+ '+reg+r',',ins[j]) or re.match(r'@\S+ \S+ '+reg+',',ins[j])]
        if not w: return 'unwritten'
        j=w[-1]; l=ins[j]
        m=re.match(r'IMAD.MOV.U32 R\d+, RZ, RZ, (R\d+)',l) or re.match(r'MOV R\d+, (R\d+)',l)
        if m: reg=m.group(1); i=j; continue
        return l.split()[0]
if __name__=='__main__':
    want=form(lines); print('orig form',want)
    changed=True
    while changed:
        changed=False
        for k in range(len(lines)):
            if k>=len(lines): break
            if '[%out' in lines[k] and 's8' in lines[k]: continue
            t=lines[:k]+lines[k+1:]
            if form(t)==want:
                print('drop',lines[k].strip()); lines=t; changed=True; break
    print('\n'.join(lines))
    open('reduced_body.txt','w').write('\n'.join(lines)+'\n')
