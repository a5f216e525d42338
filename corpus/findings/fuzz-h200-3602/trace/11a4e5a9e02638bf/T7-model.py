# T7: model of 11a4e5a9's body per thread: the spec, and variants (B; others), vs the stored GPU words.
import struct, math, json, sys
d = json.load(open('/work/notes/campaign36/c2/r3/findings/11a4e5a9e02638bf.json'))
inp = d['inputs']; M = 0xffffffff
def f16(h): return struct.unpack('<e', struct.pack('<H', h))[0]
def f32(w): return struct.unpack('<f', struct.pack('<I', w))[0]
def tof16(x):  # round to nearest even f16 bits (python's 'e' pack rounds RNE; overflow -> inf)
    try: return struct.unpack('<H', struct.pack('<e', x))[0]
    except OverflowError: return 0x7c00 if x > 0 else 0xfc00
def tof32(x): return struct.unpack('<I', struct.pack('<f', x))[0]
def rne(x): return round(x)  # python round is half-even
def cvt_int(x, lo, hi, nanv, mode=rne):
    if math.isnan(x): return nanv
    if math.isinf(x): return hi if x > 0 else lo
    v = mode(x); return max(lo, min(hi, v))
def model(t, B=False, variant=None):
    w = inp[t*16:(t+1)*16]
    r0 = w[0]; h0 = w[13] & 0xffff; h3 = w[12] & 0xffff; h5 = w[2] & 0xff
    d1 = cvt_int(f16(h0), -2**63, 2**63-1, -2**63) & (2**64-1)
    h1 = (h0 << 7) & 0xffff
    amt = r0
    if B:
        x = f32(r0)
        a = cvt_int(x, 0, 2**64-1, 2**63, mode=math.trunc)  # F2I.U64.TRUNC
        amt = a & M
    d2 = (d1 << amt) & (2**64-1) if amt < 64 else 0
    r1 = cvt_int(f16(h1), 0, M, 0)
    r2 = tof32(float(r1 - (1 << 32) if r1 >= 2**31 else r1))
    r3 = r1
    p = d2 > 0xfffffff
    d3 = d2 if p else d2 & 0xffffff
    lo7 = r0 | 0x407fffff; hi7 = 0
    d6 = cvt_int(f16(h3), 0, 2**64-1, 2**63) & (2**64-1)
    r4 = (tof16(f32(r2)) << 16) | tof16(f32(r3))
    if variant == 'packsub':  # r3 (an integer's bits) flushed?  placeholder
        r4 = (tof16(f32(r2)) << 16)
    h6 = 0 if h5 == 0 else 0x3c00
    r7 = (d3 & M) ^ (d3 >> 32); r10 = r7 ^ (d6 & M); r11 = (r10 + (d6 >> 32)) & M
    r14 = r11 ^ lo7; r15 = r14 ^ hi7
    r17 = (r15 + r4) & M
    r21 = r17 ^ (h6 | h6 << 16)
    return r21, dict(r0=hex(r0), h0=hex(h0), d1=hex(d1), amt=amt, d2=hex(d2), d3=hex(d3), h1=hex(h1), r1=r1, r4=hex(r4), d6=hex(d6), h3=hex(h3))
for m in d['mismatches']:
    t = m['thread']; s, info = model(t); b, infob = model(t, B=True)
    print(t, 'exp', m['expected'], 'spec %08x' % s, 'B %08x' % b, 'gpuO3', m['actual']['cuda:ptxas-O3'], 'xor %08x' % (int(m['actual']['cuda:ptxas-O3'],16) ^ b), info, 'Bamt', infob['amt'], infob['d2'])
print('all threads, B vs spec differ:', [t for t in range(32) if model(t)[0] != model(t, B=True)[0]])
# Which threads have r0 >= 2^31, and where does spec+B differ from spec (B visible)?
big = [t for t in range(32) if inp[t*16] >= 2**31]
print('r0 >= 2^31:', big)
# spec + B + L's emulation (cvt.s64.u32 sign-extended: %r13 = 0xffffffff where r0 >= 2^31): the word is ~ of spec+B
for t in big[:8]:
    b, _ = model(t, B=True); print(t, 'B+L %08x' % (b ^ 0xffffffff), 'B %08x' % b)
