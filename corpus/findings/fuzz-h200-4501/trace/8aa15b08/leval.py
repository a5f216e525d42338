#!/usr/bin/env python3
# usage: leval.py LISTING 'spec_expr' ['model_expr'...]
# Runs the listing's LDG/MOV/LOP3/IADD3(no carry)/STG on random i0,i4,i8 (loads named by offset) and
# compares the stored word (STG.E: 32 bits; STG.E.64: lo | hi<<32) with each python expression.
import sys,re,random
M=0xffffffff
def L(a,b,c,t):
    r=0
    for k in range(32):
        idx=(((a>>k)&1)<<2)|(((b>>k)&1)<<1)|((c>>k)&1); r|=((t>>idx)&1)<<k
    return r
src=open(sys.argv[1]).read().splitlines()
def run(env):
    R={'RZ':0}
    def v(s):
        s=s.replace('.reuse','')
        if s in R: return R[s]
        try: return int(s,16)&M
        except ValueError: return 0
    for l in src:
        l=l.replace('.reuse','')
        m=re.search(r'LDG\.E\S* (R\d+), desc\[UR4\]\[R\d+\.64(?:\+0x([0-9a-f]+))?\]',l)
        if m: R[m.group(1)]=env['i%d'%int(m.group(2) or '0',16)]; continue
        m=re.search(r'LOP3\.LUT (R\d+), (\S+), (\S+), (\S+), (0x[0-9a-f]+)',l)
        if m: R[m.group(1)]=L(v(m.group(2)),v(m.group(3)),v(m.group(4)),int(m.group(5),16)); continue
        m=re.search(r'\bMOV (R\d+), (\S+) ;',l)
        if m and 'SR_' not in l: R[m.group(1)]=v(m.group(2)); continue
        m=re.search(r'STG\.E\.64 desc\[UR4\]\[R\d+\.64\S*\], R(\d+)',l)
        if m: n=int(m.group(1)); return R['R%d'%n] | (R['R%d'%(n+1)]<<32)
        m=re.search(r'STG\.E desc\[UR4\]\[R\d+\.64\S*\], (R\d+)',l)
        if m: return R[m.group(1)]
for e in sys.argv[2:]:
    ok=True
    for _ in range(300):
        env={'i0':random.getrandbits(32),'i4':random.getrandbits(32),'i8':random.getrandbits(32)}
        g=run(env); w=eval(e,{'L':L,**env})
        if g!=w: ok=False;break
    print(('MATCH   ' if ok else 'differs ')+e)
