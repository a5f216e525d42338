# T9: model of a5368bf9's word 1 (bytes 4..7 of the output) per thread.
import json, struct, math
j = json.load(open('/work/notes/campaign36/c2/r3/findings/a5368bf91e122ddf.json'))
inp = j['inputs']; M = 0xffffffff; M64 = (1 << 64) - 1
mm = {m['thread']: m for m in j['mismatches']}
def f32b(b): return struct.unpack('<f', struct.pack('<I', b & M))[0]
def f64b(b): return struct.unpack('<d', struct.pack('<Q', b & M64))[0]
def tof32bits(x): return struct.unpack('<I', struct.pack('<f', x))[0]
def rn_f32(x):
    try: return struct.unpack('<f', struct.pack('<f', x))[0]
    except OverflowError: return math.copysign(math.inf, x)
def cvt_rn_sat_f32_f64(b):
    x = f64b(b)
    if math.isnan(x): return 0
    x = rn_f32(x)
    x = min(max(x, 0.0), 1.0)
    return tof32bits(x) if x != 0 else 0  # +0 (sat of -0 → +0)
def f2i_u64(b):
    x = f32b(b)
    if math.isnan(x) or x <= 0: return 0
    return min(int(x), M64)
def shr(v, n): return 0 if n >= 64 else v >> n
def bf16_rn_f64(b):
    x = f64b(b)
    if math.isnan(x): return None
    # round f64 to bf16 (nearest even) via exact arithmetic on the f32 path is double rounding; do it directly
    if math.isinf(x): return 0x7f80 if x > 0 else 0xff80
    s = 0x8000 if math.copysign(1, x) < 0 else 0; a = abs(x)
    if a == 0: return s
    # bf16: 8 bits precision, exp range like f32
    m, e = math.frexp(a)  # a = m*2^e, m in [0.5,1)
    E = e - 1  # a = 1.xxx * 2^E
    if E < -126: q = 2.0 ** (-133)  # subnormal quantum: 2^-126 * 2^-7
    else: q = 2.0 ** (E - 7)
    from fractions import Fraction
    fa = Fraction(a); fq = Fraction(q); n = fa / fq
    r = int(n); rem = n - r
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and r % 2): r += 1
    v = r * q
    if v >= 2.0 ** 128: return s | 0x7f80
    bits = struct.unpack('<I', struct.pack('<f', v))[0] >> 16
    return s | bits
out = {}
for t in range(128):
    w = inp[t*16:(t+1)*16]
    d1 = w[12] | (w[13] << 32); d2 = w[10] | (w[11] << 32)
    d3 = (d1 * d2) & M64
    r5 = cvt_rn_sat_f32_f64(d3)
    d5_spec = shr(d1, r5); d5_B = shr(d1, f2i_u64(r5) & M)
    def x4(d):
        h = [(d >> (16 * i)) & 0xffff for i in range(4)]
        return (h[0] ^ h[1] ^ h[2] ^ h[3]) & 0xff
    b4s, b4B = x4(d5_spec), x4(d5_B)
    h3 = bf16_rn_f64(d1)
    b7 = None if h3 is None else h3 & 0xff
    out[t] = (r5, b4s, b4B, b7, h3)
    if t in mm:
        e = int(mm[t]['expected'][:10], 16); g = int(mm[t]['actual']['cuda:jit'], 16)
        print(t, 'E=%08x G=%08x' % (e, g), 'd3=%016x r5=%08x b4 spec=%02x B=%02x  h3=%s' % (d3, r5, b4s, b4B, hex(h3) if h3 is not None else 'nan'),
              'd1=%016x' % d1)
# Verdict check: GPU byte 4 is the spec's (shift raw), not B's; GPU byte 7 is A's F2I.U8.F16 of h3
# (0x7f80/0xff80 read as f16 = NaN → 0).
ok = 0
for t in mm:
    e = int(mm[t]['expected'][:10], 16); g = int(mm[t]['actual']['cuda:jit'], 16)
    r5, b4s, b4B, b7, h3 = out[t]
    good = (g & 0xff) == b4s and b4s != b4B and (g >> 24) == 0 and (e >> 24) == b7 and (e & 0xffff) == (g & 0xffff)
    ok += good
print('stored words where GPU = spec byte 4 (B not applied), byte 7 = A:', ok, 'of', len(mm))
