import json
P = []
def G(tag, dtype, dims, strides, box, coords, kinds=("ld", "st"), **k):
    for kind in kinds:
        d = dict(tag=tag, kind=kind, dtype=dtype, dims=dims, strides=strides, box=box, coords=coords); d.update(k); P.append(d)
D4, S4 = [16, 6, 5, 3], [256, 1536, 7680]
for b in [[8, 3, 2, 2], [8, 2, 3, 2], [8, 1, 1, 3], [8, 3, 3, 1], [8, 2, 4, 2]]:
    G("r4 box%s" % b, "FLOAT16", D4, S4, b, [0, 1, 1, 1])
for c in [[0, 1, 4, 1], [0, 1, 5, 1], [0, 1, -1, 1], [0, 5, 1, 1], [0, 4, 1, 1], [0, 1, 1, 2], [4, 1, 1, 0]]:
    G("r4 c%s" % c, "FLOAT16", D4, S4, [8, 3, 2, 2], c, kinds=("ld",))
for e in [[1, 2, 1, 1], [1, 1, 2, 1], [1, 1, 1, 2], [2, 1, 1, 1]]:
    G("r4 estr%s" % e, "FLOAT16", D4, S4, [8, 3, 2, 2], [0, 1, 1, 1], estr=e)
D5, S5 = [16, 4, 3, 3, 2], [256, 1024, 3072, 9216]
for b in [[8, 2, 2, 3, 2], [8, 3, 1, 2, 2], [8, 1, 3, 1, 2], [8, 2, 3, 2, 1]]:
    G("r5 box%s" % b, "FLOAT16", D5, S5, b, [0, 1, 0, 0, 0])
for c in [[0, 1, 0, 3, 0], [0, 1, 0, -1, 0], [0, 1, 3, 0, 0], [0, 3, 0, 0, 0]]:
    G("r5 c%s" % c, "FLOAT16", D5, S5, [8, 2, 2, 3, 2], c, kinds=("ld",))
G("r4 i32", "FLOAT16", [16, 6, 5, 3], [512, 3072, 15360], [8, 3, 2, 2], [0, 1, 1, 1], swizzle="32B", inter="32B")
G("r5 i32", "FLOAT16", [16, 4, 3, 3, 2], [512, 2048, 6144, 18432], [8, 2, 2, 3, 2], [0, 1, 0, 0, 0], swizzle="32B", inter="32B")
for dt, b0, sw in [("FLOAT32", 4, "128B"), ("FLOAT32", 4, "64B"), ("FLOAT64", 2, "64B"), ("FLOAT64", 2, "32B"), ("UINT8", 16, "128B"), ("FLOAT16", 24, "128B"), ("FLOAT16", 12, "64B"), ("FLOAT16", 8, "128B")]:
    G("pad %s b0=%d sw%s" % (dt, b0, sw), dt, [32, 6, 4], [512, 3072], [b0, 3, 3], [0, 1, 1], swizzle=sw)
G("pad i32 f32 b0=4", "FLOAT32", [32, 6, 4], [1024, 6144], [4, 3, 3], [0, 1, 1], swizzle="32B", inter="32B")
G("pad i32 f16 b0=12", "FLOAT16", [32, 6, 4], [1024, 6144], [12, 3, 3], [0, 1, 1], swizzle="32B", inter="32B")
G("big b0=256", "FLOAT16", [256, 4, 2], [4096, 16384], [256, 1, 2], [0, 1, 0])
G("u16", "UINT16", [16, 6, 4], [256, 1536], [8, 3, 2], [0, 1, 1])
G("bf16 nan", "BFLOAT16", [16, 6, 4], [256, 1536], [8, 3, 2], [-2, 1, 1], kinds=("ld",), fill="NAN")
G("u32 nan", "UINT32", [16, 6, 4], [256, 1536], [4, 3, 2], [-2, 1, 1], kinds=("ld",), fill="NAN")
G("st y=5 box3", "FLOAT16", [16, 6, 4], [256, 1536], [8, 3, 2], [0, 5, 1], kinds=("st",))
G("st ctrl none neg", "FLOAT16", [16, 6, 4], [32, 192], [8, 3, 2], [0, 0, -1], kinds=("st",), inter="NONE")
# encode-only
for il in ["16B", "32B"]:
    for dt, es in [("UINT8", 1), ("FLOAT16", 2), ("FLOAT32", 4), ("FLOAT64", 8)]:
        for bb in [8, 16, 24, 32, 48, 64, 128, 256, 512, 1024, 2048]:
            b0 = bb // es
            if b0 < 1 or b0 > 256: continue
            for sw in (["NONE", "32B", "64B", "128B"] if il == "16B" else ["32B"]):
                G("enc %s %s b0=%d sw%s" % (il, dt, b0, sw), dt, [512, 6, 4], [16384, 98304], [b0, 3, 2], [0, 0, 0], kinds=("enc",), inter=il, swizzle=sw)
for il in ["16B", "32B"]:
    G("enc rank2 %s" % il, "FLOAT16", [16, 6], [256], [8, 3], [0, 0], kinds=("enc",), inter=il, swizzle="32B")
    G("enc stride16 %s" % il, "FLOAT16", [16, 6, 4], [16, 96], [8, 3, 2], [0, 0, 0], kinds=("enc",), inter=il, swizzle="32B")
    G("enc stride48 %s" % il, "FLOAT16", [16, 6, 4], [48, 288], [8, 3, 2], [0, 0, 0], kinds=("enc",), inter=il, swizzle="32B")
    G("enc estr0=8 %s" % il, "FLOAT16", [16, 6, 4], [256, 1536], [8, 3, 2], [0, 0, 0], kinds=("enc",), inter=il, swizzle="32B", estr=[8, 1, 1])
json.dump(P, open("p2.json", "w"))
print(len(P))
