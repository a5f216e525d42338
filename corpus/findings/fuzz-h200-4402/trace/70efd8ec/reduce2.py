import re,subprocess
exec(open('reduce_check.py').read().split("assert bad")[0])
def toks(s):
    s=s.strip()
    g=re.findall(r'^@!?(%\w+)',s); ins=re.sub(r'^@!?%\w+\s+','',s)
    if ins.startswith('st.'): return [], re.findall(r'%\w+',ins)+g
    ops=ins.split(None,1)[1]
    if ops.startswith('{'): dpart,spart=ops.split('}',1)
    else: dpart,spart=ops.split(',',1)
    d=re.findall(r'%\w+',dpart); src=re.findall(r'%\w+',spart)+g
    if g: src+=d
    return d,src
def defined_ok(ls):
    d={'%in','%out','%tix'}
    for l in ls:
        a,b=toks(l)
        if any(x not in d for x in b): return False
        d.update(a)
    return True
W={'%r':'b32','%h':'b16','%d':'b64','%c':'b8'}
off=[0]
def ldrep(l):
    a,_=toks(l); out=[]
    for x in a:
        k=re.match(r'%[a-z]+',x).group(0)
        if k not in W: return None
        off[0]=(off[0]+8)%200
        out.append('\tld.global.%s %s, [%%in+%d];'%(W[k],x,off[0]))
    return out
assert defined_ok(lines) and bad(lines)
ch=True
while ch:
    ch=False
    for i in range(len(lines)-1,-1,-1):
        if i>=len(lines): continue
        t=lines[:i]+lines[i+1:]
        if defined_ok(t) and bad(t): lines=t; ch=True; continue
        if lines[i].strip().startswith(('ld.','st.','createpolicy')): continue
        r=ldrep(lines[i])
        if r:
            t=lines[:i]+r+lines[i+1:]
            if defined_ok(t) and bad(t): lines=t; ch=True
print('\n'.join(lines))
open('reduced.body','w').write('\n'.join(lines)+'\n')
