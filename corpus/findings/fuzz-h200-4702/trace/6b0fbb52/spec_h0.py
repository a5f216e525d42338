# Spec value of h0' = cvt.rn.relu.satfinite.e5m2x2.f32(r1', r1'), r1' = cvt.rn.f16x2.e5m2x2(h0),
# h0 = cvt.rn.relu.satfinite.e4m3x2.f32(r0 = in word 1, r1 = in word 0), per thread, from orig.case's inputs;
# and what the same chain gives when h0 is replaced by a 16-bit value X (the GPU's read of R1's low half).
import struct, math, re, sys
def f32(u): return struct.unpack('<f', struct.pack('<I', u))[0]
def enc(v, ebits, mbits, bias, maxfin):   # round-to-nearest-even, relu, satfinite; returns byte
    if math.isnan(v): return 0x7f
    if v <= 0: return 0
    if v >= maxfin: return maxfin_code[(ebits,mbits)]
    best=None
    for code in range(0x80):
        d=dec(code,ebits,mbits,bias)
        if d is None or math.isinf(d): continue
        if best is None or abs(d-v)<abs(best[1]-v) or (abs(d-v)==abs(best[1]-v) and code%2==0): best=(code,d)
    return best[0]
def dec(code,ebits,mbits,bias):
    e=(code>>mbits)&((1<<ebits)-1); m=code&((1<<mbits)-1); s=-1 if code&0x80 else 1
    if ebits==4 and e==15 and m==7: return None          # e4m3 NaN
    if ebits==5 and e==31: return None if m else s*math.inf
    if e==0: return s*m*2.0**(1-bias-mbits)
    return s*(1+m/2**mbits)*2.0**(e-bias)
maxfin_code={(4,3):0x7e,(5,2):0x7b}
def e4m3(v): return enc(v,4,3,7,448.0)
def e5m2(v): return enc(v,5,2,15,57344.0)
def chain(h0):
    b1,b0=h0>>8,h0&0xff
    def f16(b):  # e5m2 byte -> f16 bits (exact; NaN -> canonical 0x7fff)
        e=(b>>2)&31; m=b&3
        return 0x7fff if (e==31 and m) else b<<8
    w=(f16(b1)<<16)|f16(b0)
    x=e5m2(f32(w)); return x*0x101
txt=open('orig.case').read()
rows={int(m.group(1)):[int(x,16) for x in m.group(2).split()] for m in re.finditer(r'// t(\d+): ([0-9a-f ]+)',txt)}
gpu=chain(int(sys.argv[1],16)) if len(sys.argv)>1 else None
n=0
for t in sorted(rows):
    r1,r0=rows[t][0],rows[t][1]
    h0=(e4m3(f32(r0))<<8)|e4m3(f32(r1)); s=chain(h0)
    if gpu is not None and s!=gpu: n+=1
    if t<10: print(f"t{t}: r0={r0:08x} r1={r1:08x} h0={h0:04x} spec h0'={s:04x}" + (f" gpu h0'={gpu:04x} diff={(gpu-s)&0xffff:04x}" if gpu is not None else ""))
if gpu is not None: print(f"threads whose spec h0' differs from the GPU's {gpu:04x}: {n} of {len(rows)}")

# Which threads can the campaign flag? Threads whose h0 holds an e5m2 NaN byte (0x7d-0x7f or 0xfd-0xff) get a
# NaN-payload set from cvt.rn.f16x2.e5m2x2 (allowance nan-payload), which the oracle may widen downstream.
if gpu is not None:
    flag=[]; nanb=[]
    for t in sorted(rows):
        r1,r0=rows[t][0],rows[t][1]
        h0=(e4m3(f32(r0))<<8)|e4m3(f32(r1)); s=chain(h0)
        has_nan=any(b&0x7f in (0x7d,0x7e,0x7f) for b in (h0>>8,h0&0xff))
        if has_nan: nanb.append(t)
        elif s!=gpu: flag.append(t)
    print("threads with an e5m2-NaN byte in h0:", len(nanb))
    print("threads without one whose spec h0' differs from the GPU's:", flag)
