import subprocess,sys,os,re
src=open(sys.argv[1]).read()
pre,rest=src.split('// begin body\n'); body,post=rest.split('// end body\n')
lines=body.strip('\n').split('\n')
PRE={'%in','%out','%sh','%shn','%tix','%t0','%t1'}
def wellformed(ls):
    defined=set(PRE)
    for l in ls:
        s=l.strip()
        if s.startswith('$'): continue
        s=re.sub(r'^@!?%p\d+\s+','',s).rstrip(';')
        parts=s.split(None,1)
        if len(parts)<2: continue
        op,args=parts
        regs=re.findall(r'%[a-z]+\d*',args)
        if op.startswith(('st.','prefetch','discard')):
            dst=[]; src=regs
        elif op.startswith('mov.b') and args.startswith('{'):
            dst=re.findall(r'%[a-z]+\d*',args.split('}')[0]); src=regs[len(dst):]
        else:
            dst=regs[:1]; src=regs[1:]
        for r in src:
            if r not in defined: return False
        defined.update(dst)
    return True
def ok(ls):
    if not wellformed(ls): return False
    t=pre+'// begin body\n'+'\n'.join(ls)+'\n// end body\n'+post
    open('/tmp/u1red.ptx','w').write(t)
    r=subprocess.run(['../ptxdiff','sass-check','--listing','/tmp/u1red.ptx'],capture_output=True,text=True)
    out=r.stdout+r.stderr
    return all(re.search(p,out) for p in sys.argv[2].split('&&'))
assert wellformed(lines), 'orig not wellformed'
assert ok(lines)
changed=True
while changed:
    changed=False
    i=len(lines)-1
    while i>=0:
        cand=lines[:i]+lines[i+1:]
        if ok(cand): lines=cand; changed=True
        i-=1
t=pre+'// begin body\n'+'\n'.join(lines)+'\n// end body\n'+post
open(sys.argv[3],'w').write(t); print('\n'.join(lines))
