import re
def ok(body):
    defined={'%in','%out','%tix'}
    for l in body:
        l=l.strip().rstrip(';')
        if l.startswith('@'):
            g,l=l.split(None,1); 
            if g.lstrip('@!') not in defined: return False
        op,rest=l.split(None,1) if ' ' in l or '\t' in l else (l,'')
        ops=[o.strip() for o in re.split(r',(?![^{]*})',rest)]
        if op.startswith('st.'):
            dst=[]; src=ops
        else:
            dst=re.findall(r'%\w+',ops[0]); src=ops[1:]
        for s in src:
            for r in re.findall(r'%\w+',s):
                if r not in defined: return False
        if l.startswith('@'): pass
        defined.update(dst)
    return True
