import re
def defined_ok(lines):
    defined={'%in','%out','%tix'}
    for l in lines:
        s=l.strip()
        if not s or s.endswith(':') or s.startswith('//'): continue
        g=re.match(r'@!?(%p\d+)\s+',s)
        guarded=False
        if g:
            if g.group(1) not in defined: return False
            s=s[g.end():]; guarded=True
        if s.startswith('bra'): continue
        op,_,args=s.partition(' ')
        args=args.rstrip(';')
        if op.startswith('st.'):
            reads=re.findall(r'%\w+',args); writes=[]
        else:
            # first operand (possibly {..}) is destination
            m=re.match(r'\s*(\{[^}]*\}|[^,]+),(.*)',args)
            if not m: continue
            dst,srcs=m.group(1),m.group(2)
            if op.startswith('mov.b') and dst.startswith('{') : writes=re.findall(r'%\w+',dst); reads=re.findall(r'%\w+',srcs)
            else: writes=re.findall(r'%\w+',dst); reads=re.findall(r'%\w+',srcs)
        for r in reads:
            if r not in defined: return False
        if not guarded: defined.update(writes)
    return True

def rw(l):
    s=l.strip()
    if not s or s.endswith(':'): return [],[]
    reads=[]
    g=re.match(r'@!?(%p\d+)\s+',s)
    if g: reads.append(g.group(1)); s=s[g.end():]
    if s.startswith('bra'): return [],reads
    op,_,args=s.partition(' '); args=args.rstrip(';')
    if op.startswith('st.'): return [],reads+re.findall(r'%\w+',args)
    m=re.match(r'\s*(\{[^}]*\}|[^,]+),(.*)',args)
    if not m: return [],reads
    return re.findall(r'%\w+',m.group(1)), reads+re.findall(r'%\w+',m.group(2))

def dce(lines):
    while True:
        reads=set(r for l in lines for r in rw(l)[1])
        keep=[l for l in lines if not (rw(l)[0] and not (set(rw(l)[0])&reads))]
        if len(keep)==len(lines): return keep
        lines=keep
