# GPU word of 81cc67f0 from the 13.0.88 -O3 listing (LEA chain cut after the shift by 3).
M=(1<<64)-1; K=0x8000000000000001   # sub 0x7fff...ffff == add K mod 2^64
x=0x63466f14                          # thread 0's d0 (inputs word 0, word 1 = 0)
d=x
for r in range(8,0,-1): d=((d<<r)-0x7fffffffffffffff)&M
print('spec   hi', hex(d>>32))        # 0xb466f140 (oracle, -O0)
d=x
for r in [8,7,6,5,4]: d=((d<<r)+K)&M  # LEA/LEA.HI.X pairs by 8..4
lo=(d<<3)&0xffffffff; c=(lo+0xe1c73c3)>>32   # LEA RZ, P0, R0, 0xe1c73c3, 0x3
print('SASS   hi', hex((((d<<3)>>32)+0x80000000+c)&0xffffffff))   # 0x468cde28 = GPU
d=x
for r in [8,7,6,5,4,3]: d=((d<<r)+K)&M
print('cut@33 hi', hex(d>>32))        # same: the shifts by 2 and 1 (and their subs) dropped
