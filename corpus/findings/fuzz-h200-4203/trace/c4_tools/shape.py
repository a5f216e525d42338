# Python port of runner/src/findings/known.rs shape_match + runner/src/glob.rs (brace alternation, *).
import re, sys, tomllib, json, glob as G
def g2re(g):
    out=''; i=0
    while i<len(g):
        c=g[i]
        if c=='{' and '}' in g[i:]:
            j=g.index('}',i); alts=g[i+1:j].split(','); out+='(?:'+'|'.join(re.escape(a).replace(r'\*','.*') for a in alts)+')'; i=j+1; continue
        out+= '.*' if c=='*' else re.escape(c); i+=1
    return re.compile(out+r'\Z', re.S)
def gm(g,t): return g2re(g).match(t) is not None
def shape_match(pat, shape):
    if not shape: return False
    els=[e.strip() for e in shape.split('→')]
    ends=[True]*(len(els)+1)
    for step in [s.strip() for s in pat.split('→')]:
        if step in ('…','...'):
            r=False; ne=[]
            for e in ends: r|=e; ne.append(r)
            ends=ne
        else:
            ends=[False]+[ends[j] and gm(step,e) for j,e in enumerate(els)]
    return ends[len(els)]
if __name__=='__main__':
    toml=sys.argv[1]; shape=sys.argv[2]
    d=tomllib.load(open(toml,'rb'))
    for p in d['signature'].get('shape',[]): print(shape_match(p,shape), p)
