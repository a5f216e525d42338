# 87cad7bf: x = 0x7ffffffe (thread 0 word 0). Spec: one trip (setp.gt.u32 i, 0xffffffff never true).
x=0x7ffffffe; M=0xffffffff
ge=lambda a,b: M if (a&M)>=(b&M) else 0          # set.ge.s32.u32: unsigned compare, -1/0
print('spec (1 trip)', hex(ge(x,16)))            # 0xffffffff
r=x
for k in range(16,-1,-2): r=ge(r,k)              # 3604-N3: 9 trips (16..0), 13.5 listing
print('13.5 (9 trips)', hex(r))                  # 0xffffffff (right by chance)
r=x
for k in range(16,1,-2): r=ge(r,k)               # 13.0: 8 trips, then N-8 on the 9th (set.ge.u32 s, 0 -> s == 0)
print('13.0 (N-8 at k=0)', hex(M if r==0 else 0))   # 0 = GPU
