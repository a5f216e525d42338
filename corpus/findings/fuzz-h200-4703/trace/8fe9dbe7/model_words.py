import json,re,sys
run='/work/notes/c47/r4703/x/run'
def inputs(id, t):
    for l in open(f'{run}/cases/{id}.case'):
        if l.startswith(f'// t{t}:'):
            return [int(x,16) for x in l.split()[2:]]
def byte(ws, off):
    return (ws[off//4] >> (8*(off%4))) & 0xff
def half(ws, off):
    return (ws[off//4] >> (8*(off%4))) & 0xffff
cfg={'8fe9dbe74d258451':(0x65c5,0x571f,0x3f80),'3b56ff651c452924':(0xf,0x2,0x3f80),'c807f7fa221f6dc1':(0x65c5,0x571f,0x3c00)}
d=json.load(open(f'{run}/findings.json'))
for f in d['findings']:
    if f['id'] not in cfg: continue
    thr,K,one=cfg[f['id']]
    ok=True
    for m in f['mismatches']:
        t=m['thread']; ws=inputs(f['id'],t)
        s8=byte(ws,58); c=1 if s8==0 else 0
        r3=ws[8]; lo,hi=r3&0xffff,r3>>16
        p1 = half(ws,0) >= thr
        exp=int(m['expected'].split()[0],16); free=' ' in m['expected']; got=int(m['actual']['cuda:ptxas-O3'],16)
        def word(num):
            cc = c if num else 0
            h16 = 1-cc
            b0=((h16^lo)+hi)&0xff
            h27 = 0x3ff0 if cc else 0
            b1 = h27 & 0xff if True else 0
            b1 = (h27>>0)&0xff
            b1 = ((h27)&0xffff)
            b1 = b1 & 0xff
            h6 = one if cc else 0
            h38 = h6 ^ K if p1 else h6
            b2=h38&0xff
            return b0 | (b1<<8) | (b2<<16) | (exp & 0xff000000)
        # h27 low byte: 0x3ff0 -> 0xf0
        print(f['id'][:8], t, 'c=%d p1=%d'%(c,p1), 'spec %08x model-spec %08x | gpu %08x model-gpu %08x'%(exp, word(False), got, word(True)), 'OK' if (exp&0xffffff,got&0xffffff)==(word(False)&0xffffff,word(True)&0xffffff) else 'DIFF', 'byte3 free' if free else '')
