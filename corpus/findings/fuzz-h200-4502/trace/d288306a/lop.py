M=0xffffffff
def L(a,b,c,t):
    r=0
    for i in range(32):
        idx=((a>>i&1)<<2)|((b>>i&1)<<1)|(c>>i&1)
        r|=((t>>idx)&1)<<i
    return r
ops={'xor':lambda a,b:a^b,'and':lambda a,b:a&b,'or':lambda a,b:a|b}
cases=[('reduced','xor',0x98,0x3f800000,0x54),('v2_lut65','xor',0x65,0x3f800000,0xa9),('v4_and','and',0x30,0x3f800000,0x0),
('v5_or','or',0x7e,0x3f800000,0xfe),('v7_small_imm','xor',0x98,0x1234,0x54),('v10_lut96','xor',0x96,0x3f800000,0x5a)]
print('variant op L  K | spec | 13.0 LOP3(K,K,RZ,L\') | y OP L(x,y,0) [4404 form] | a OP L(a,0,0) [ec047aa1]')
for n,op,t,K,t2 in cases:
    spec=ops[op](K,L(K,K,K,t)); gpu=L(K,K,0,t2); f44=ops[op](K,L(K,K,0,t)); fec=ops[op](K,L(K,0,0,t))
    print(f'{n:13} {op} {t:#04x} {K:#x} | {spec:#010x} | {gpu:#010x} | {f44:#010x} | {fec:#010x}')
# loaded variants: compare functions over random a
import random
for n,op,t,t2 in [('v1_loaded','xor',0x98,0x68),('v3_loaded_lut65','xor',0x65,0x95)]:
    ok44=okec=okspec=True
    for _ in range(200):
        a=random.getrandbits(32); gpu=L(a,0,0,t2)
        okspec&=gpu==ops[op](a,L(a,a,a,t)); ok44&=gpu==ops[op](a,L(a,a,0,t)); okec&=gpu==ops[op](a,L(a,0,0,t))
    print(n,'LOP3 R,a,RZ,RZ',hex(t2),'= spec?',okspec,' = a OP L(a,a,0)?',ok44,' = a OP L(a,0,0)?',okec)
