"""Tiny model of ed2b1511's exits (seed 4103, ptxas 13.0.88 / 13.5 -O3 listing orig.130.O3.sass).
1) PTX loops $L0/$L1: i=0; do { i+=3 } while (i <u 0x18): evaluated over the trip values.
2) -O3 SASS control flow of the bfind.u64 diamond (0x00d0 BSSY B0 .. 0x03b0 BSYNC B0 .. 0x05a0 @P1 BRA .L_x_1):
   P1 = FLO.U32(hi(sext(r4))) != -1, i.e. r4 < 0 as s32; after the stores `@P1 BRA .L_x_1` (= the BSYNC at 0x03b0)
   re-enters the join: nothing in 0x03b0..0x05a0 writes P1, so a lane with P1 true never reaches EXIT."""
words=open('/work/notes/c41/r4103b/run-4103/cases/ed2b1511317c2ddb.case').read().split('// ptxdiff-inputs')[1].strip().splitlines()
def loop_trips(start=0, step=3, k=0x18):
    i=start; n=0
    while True:
        i=(i+step)&0xffffffff; n+=1
        if not (i < k): return n, i
        if n>1<<20: return None, i
print('PTX $L0/$L1 (add 3; setp.lt.u32 0x18): trips, final i =', loop_trips())
def flo(x): return x.bit_length()-1 if x else 0xffffffff
LIMIT=1000
hang=[]
for l in words:
    t,ws=l[3:].split(':'); w=[int(x,16) for x in ws.split()]
    r0=w[42]; r3=(2*r0)&0xffffffff
    r4=((r0<<r3)&0xffffffff) if r3<32 else 0          # shl.b32 (clamped amount)
    hi=0xffffffff if r4>>31 else 0                     # cvt.s64.s32 %d2, %r4
    spec=flo(hi)+32 if hi else flo(r4)                 # bfind.u64 per the spec
    # SASS model
    P1 = flo(hi)!=0xffffffff
    steps=0; pc='join'; stores=0
    while steps<LIMIT:
        steps+=1
        # 0x03a0 FLO.U32 R18,R0 (always, the lost arm) then 0x03b0 BSYNC .. stores .. 0x05a0 @P1 BRA .L_x_1
        R18=flo(r4); stores+=1
        if not P1: break
    ended = steps<LIMIT
    if not ended: hang.append(int(t.strip()[1:]))
    print(f'{t.strip():>4} r0={r0:08x} r4={r4:08x} bfind spec={spec:#x} SASS R18={R18:#x} P1={int(P1)} ',
          'EXIT' if ended else f'no EXIT after {LIMIT} passes ({stores} store rounds)')
print('lanes that never end:', hang)
