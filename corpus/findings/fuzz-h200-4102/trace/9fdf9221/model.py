# 9fdf9221: spec vs the 13.0.88 -O3 listing (orig.130.O3.sass), thread 0 input x0 = 1488859938.
M = 2**64; K = 0xdf8df50e23dc7128; x0 = 1488859938
xs = [x0]
for _ in range(7): xs.append((xs[-1] * 128 + K) % M)
print("spec  x7 =", hex(xs[7]), "word1", hex(xs[7] >> 32))           # 0x9eba70f7 (oracle)
# listing: 5 IMAD.WIDE steps (x5), then IADD3 R2,P0,RZ,R2,RZ ; IADD3.X R3, R3, -0x6f57d6c0, R7
x5 = xs[5]
gpu = (x5 + ((-0x6f57d6c0 % 2**32) << 32)) % M
print("sass  =", hex(gpu), "word1", hex(gpu >> 32))                 # 0xfe680a07 (GPU)
# rule: (x0 << cut) + chain(0), cut = first multiple of 7 >= 32 = 35
c = 0
for _ in range(7): c = (c * 128 + K) % M
print("rule  =", hex(((x0 << 35) + c) % M))
