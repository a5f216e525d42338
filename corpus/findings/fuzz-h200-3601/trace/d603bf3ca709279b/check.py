# d603bf3c / 508957df: which threads execute `@%p1 mov.f32 %r1, %r1` between the bf16x2 cvt and
# cvt.rz.tf32.f32 (p1 true: the mov.f32 becomes %r1's producer and D's emulation no longer sees
# the packed cvt) — the stored (unexplained) mismatches should be exactly p1-true threads.
import json, re, sys
def s16(v): v &= 0xffff; return v - 65536 if v & 0x8000 else v
for fid in ['d603bf3ca709279b', '508957df803b2109']:
    j = json.load(open('/work/notes/campaign36/r1/findings/%s.json' % fid))
    inp = j['inputs']; stored = sorted(m['thread'] for m in j['mismatches'])
    changed = [int(x) for x in re.findall(r'thread (\d+) word 0', j['message'] or '')]
    p1true = []
    for t in range(j['threads']):
        w = inp[t*16:(t+1)*16]
        h0 = w[3] >> 16
        h1 = h0 | 0xf703
        h2 = (((h1 * 0xc89e) >> 16) + h1) & 0xffff
        r0 = w[7]; c = [(r0 >> (8*i)) & 0xff for i in range(4)]
        h3 = c[3] | (c[1] << 8)
        if s16(h3) < s16(h2): p1true.append(t)
    print(fid, 'stored', stored)
    print('   changed between runs (first 8 listed)', changed)
    print('   p1 true', p1true)
    print('   stored within p1-true:', all(t in p1true for t in stored), '; listed-changed with p1 false:', [t for t in changed if t not in p1true])
