# 7a4fe276: the carry of the last add.cc (x + r1_7) vs the listing's LEA carry (2x + (6x-1)).
x = 0x7ffffffe; W = 2**32
r = W - 1
for _ in range(7): r = (x + r) % W
spec_carry = (x + r) >> 32                       # PTX: add.cc r1, x, r1 (8th)
print("spec r6 =", hex(x + spec_carry))          # 0x7ffffffe (oracle)
six = (6 * x - 1) % W                            # IADD3 chain: R9 = 6x-1
lea_carry = (((x << 1) % W) + six) >> 32         # LEA RZ, P0, R2, R9, 0x1
print("sass r6 =", hex(x + lea_carry))           # 0x7fffffff (GPU)
# reduced.ptx (2 adds from -1): LEA RZ, P0, R2, 0xffffffff, 0x1
print("reduced spec", hex(x + ((x + (x - 1) % W) >> 32)), "sass", hex(x + ((((x << 1) % W) + W - 1) >> 32)))
