# Recompute the stored words from the 13.0.88 -O3 listings vs the spec, every thread.
import json
d=json.load(open('/work/notes/c42/r4203/run-4203/findings.json'))
F={f['id'][:8]:f for f in d['findings']}
def words(id): return F[id]['inputs']
def mism(id): return {(m['thread']):(m['expected'],m['actual']['cuda:ptxas-O3']) for m in F[id]['mismatches']}
ONE=0x3f800000
def xorcase(id, cmp, K, half):  # half: 0 -> h0 (+16), 1 -> h1 (+18)
    w=words(id); out={}
    for t in range(32):
        word4=w[t*8+4]; h=(word4>>(16*half))&0xffff; pair=h|(h<<16)
        s = ONE if t!=0 else 0          # set.ne.f32.s32 r1, 0, tix
        g = 1 if t!=0 else 0            # SEL R0, RZ, 0x1, !P0 (13.0.88/13.5 -O3)
        spec=((0xffffffff if cmp(s,K) else 0)^pair)
        gpu=((0xffffffff if cmp(g,K) else 0)^pair)
        out[t]=(spec,gpu)
    return out
def sel(id):
    w=words(id); out={}
    for t in range(32):
        d1=w[t*8]|(w[t*8+1]<<32)
        s = ONE if 0<=d1 else 0         # set.le.f32.u64 r0, 0, d1
        spec = 0x3a2d5a95 if s!=1 else 0 # setp.ne.s32 p2, r0, 1; selp (xor.b32 of 0 with K)
        gpu = 0 if (0<=d1) else 0x3a2d5a95  # SEL R7, RZ, K, !P0, P0 = d1 <u 0: K only where the set is false
        out[t]=(spec,gpu)
    return out
cases={'d6a9319f':xorcase('d6a9319f',lambda a,b:a>=b,202906417,1),
       '06aff9fd':xorcase('06aff9fd',lambda a,b:a<=b,1038368228,0),
       '6ec845c6':xorcase('6ec845c6',lambda a,b:a<b,1038368228,0),
       '6a4d050b':sel('6a4d050b')}
for id,o in cases.items():
    mm=mism(id); diff={t:v for t,v in o.items() if v[0]!=v[1]}
    ok=all(int(mm[t][0],16)==diff[t][0] and int(mm[t][1],16)==diff[t][1] for t in mm)
    print(id,'model differs on',len(diff),'threads; stored mismatches',len(mm),'(first 8 listed) all reproduced:',ok, 'e.g.', {t:(hex(a),hex(b)) for t,(a,b) in list(diff.items())[:3]})
