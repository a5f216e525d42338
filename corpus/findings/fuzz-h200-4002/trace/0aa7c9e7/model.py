# recompute word 2 of 0aa7c9e7 (byte at in+46 of word 11 = 0x80f38987 -> 0xf3)
b=0xf3; s8=b-256
h0=s8&0xffff                                  # spec: 16-bit register holds 0xfff3
print('spec   ', hex(((h0*0x8001>>16)+0x5ccd)&0xffff))        # 0xdcc7
r=(s8*0x8001)&0xffffffff                      # 13.0 -O3: PRMT 0x8880 (32-bit sext), no 0xffff mask
print('130 O3 ', hex(((r>>16)+0x5ccd)&0xffff))                 # 0x5cc6 -> word 0x5cc65cc6
