#!/usr/bin/env python3
# usage: lopeval.py X.130.O3.sass 'expr_spec' 'expr_model'  -- checks the listing's LOP3 chain on random inputs
# regs named by load offset: i0=[in], i4=[in+4], i8=[in+8]; expressions in python over i0,i4,i8, L(a,b,c,lut)
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
    for l in src:
        m=re.search(r'LDG\.E\S* (R\d+), desc\[UR4\]\[R\d+\.64(?:\+0x([0-9a-f]+))?\]',l)
        if m: R[m.group(1)]=env['i%d'%int(m.group(2) or '0',16)]; continue
        m=re.search(r'LOP3\.LUT (R\d+), (\S+), (\S+), (\S+), (0x[0-9a-f]+)',l)
        if m:
            v=lambda s: R[s] if s in R else int(s,16)
            R[m.group(1)]=L(v(m.group(2)),v(m.group(3)),v(m.group(4)),int(m.group(5),16)); last=m.group(1); continue
        m=re.search(r'STG\.E\S* desc\[UR4\]\[R\d+\.64\S*\], (R\d+)',l)
        if m: return R[m.group(1)]
for e in sys.argv[2:]:
    ok=True
    for _ in range(200):
        env={'i0':random.getrandbits(32),'i4':random.getrandbits(32),'i8':random.getrandbits(32)}
        g=run(env); w=eval(e,{'L':L,**env})&M
        if g!=w: ok=False;break
    print(('MATCH   ' if ok else 'differs ')+e)
