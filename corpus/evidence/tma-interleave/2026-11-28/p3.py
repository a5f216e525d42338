import json
P = []
def G(tag, dtype, dims, strides, box, coords, kinds, **k):
    for kind in kinds:
        d = dict(tag=tag, kind=kind, dtype=dtype, dims=dims, strides=strides, box=box, coords=coords); d.update(k); P.append(d)
D, ST = [16, 6, 4], [256, 1536]
G("u32 add", "UINT32", D, ST, [4, 3, 2], [0, 1, 1], ["radd"])
G("u32 add x=12", "UINT32", D, ST, [8, 3, 2], [12, 1, 1], ["radd"])
G("u32 add estr2", "UINT32", D, ST, [8, 3, 2], [0, 1, 1], ["radd"], estr=[2, 1, 1])
G("s32 max", "INT32", D, ST, [4, 3, 2], [0, 1, 1], ["rmax"])
G("s32 max i32", "INT32", [16, 6, 4], [512, 3072], [8, 3, 2], [0, 1, 1], ["rmax"], inter="32B", swizzle="32B")
G("u32 add sw128", "UINT32", D, ST, [8, 3, 2], [0, 1, 1], ["radd"], swizzle="128B")
G("u32 add none", "UINT32", [16, 6, 4], [64, 384], [4, 3, 2], [0, 1, 1], ["radd"], inter="NONE")
for il, b in [("NONE", [8, 3, 2]), ("16B", [8, 3, 2]), ("16B", [8, 1, 2]), ("16B", [8, 3, 1]), ("32B", [8, 3, 2])]:
    G("desc %s %s" % (il, b), "FLOAT16", [16, 6, 4], [512, 3072], b, [0, 0, 0], ["enc"], inter=il, swizzle="32B" if il == "32B" else "NONE")
G("desc r4 16B", "FLOAT16", [16, 6, 5, 3], [512, 3072, 15360], [8, 3, 2, 2], [0, 0, 0, 0], ["enc"])
G("desc r4 none", "FLOAT16", [16, 6, 5, 3], [512, 3072, 15360], [8, 3, 2, 2], [0, 0, 0, 0], ["enc"], inter="NONE")
json.dump(P, open("p3.json", "w")); print(len(P))
