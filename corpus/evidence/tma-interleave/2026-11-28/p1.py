import json
P = []
def G(tag, dtype, dims, strides, box, coords, **k):
    for kind in ["ld", "st"]:
        d = dict(tag=tag, kind=kind, dtype=dtype, dims=dims, strides=strides, box=box, coords=coords); d.update(k); P.append(d)
D, ST = [16, 6, 4], [256, 1536]
G("ctrl none", "FLOAT16", [16, 6, 4], [32, 192], [8, 3, 2], [0, 1, 1], inter="NONE")
G("ctrl none x=8", "FLOAT16", [16, 6, 4], [32, 192], [8, 3, 2], [8, 1, 1], inter="NONE")
G("base", "FLOAT16", D, ST, [8, 3, 2], [0, 1, 1])
for b1 in [1, 2, 4, 6]: G("box1=%d" % b1, "FLOAT16", D, ST, [8, b1, 2], [0, 1, 1])
for b0 in [1, 2, 4, 16, 32]: G("box0=%d" % b0, "FLOAT16", [32, 6, 4], [512, 3072], [b0, 3, 2], [0, 1, 1])
for y in [0, 4, 5, 6, -1, -3]: G("y=%d" % y, "FLOAT16", D, ST, [8, 3, 2], [0, y, 1])
for x in [1, 4, 8, 12, 15, 16, -4, -8]: G("x=%d" % x, "FLOAT16", D, ST, [8, 3, 2], [x, 1, 1])
for d0 in [12, 9]:
    for x in [0, 4]: G("d0=%d x=%d" % (d0, x), "FLOAT16", [d0, 6, 4], ST, [8, 3, 2], [x, 1, 1])
for z in [3, 4, -1, -2]: G("z=%d" % z, "FLOAT16", D, ST, [8, 3, 2], [0, 1, z])
for e in [[2, 1, 1], [1, 2, 1], [1, 1, 2], [3, 1, 1], [4, 1, 1]]: G("estr=%s" % e, "FLOAT16", D, ST, [8, 3, 2], [0, 1, 1], estr=e)
for b0 in [8, 16, 32]: G("u8 box0=%d" % b0, "UINT8", D, ST, [b0, 3, 2], [0, 1, 1])
for b0 in [4, 8]: G("f32 box0=%d" % b0, "FLOAT32", D, ST, [b0, 3, 2], [0, 1, 1])
for b0 in [2, 4]: G("f64 box0=%d" % b0, "FLOAT64", D, ST, [b0, 3, 2], [0, 1, 1])
G("r4", "FLOAT16", [16, 6, 4, 3], [256, 1536, 6144], [8, 3, 2, 2], [0, 1, 1, 1])
G("r5", "FLOAT16", [8, 4, 3, 2, 2], [128, 512, 1536, 3072], [4, 2, 2, 2, 2], [0, 1, 1, 0, 1])
for b0, x in [(16, 0), (8, 0), (16, 4), (16, 8)]: G("i32 box0=%d x=%d" % (b0, x), "FLOAT16", [16, 6, 4], [512, 3072], [b0, 3, 2], [x, 1, 1], swizzle="32B", inter="32B")
G("i32 u8 box0=32", "UINT8", [32, 6, 4], [1024, 6144], [32, 3, 2], [0, 1, 1], swizzle="32B", inter="32B")
for sw in ["32B", "64B", "128B"]:
    for b0 in [2, 8, 16]: G("sw%s box0=%d" % (sw, b0), "FLOAT16", [16, 6, 4], [256, 1536], [b0, 3, 2], [0, 1, 1], swizzle=sw)
G("small stride", "FLOAT16", [8, 6, 4], [16, 96], [8, 3, 2], [0, 1, 1])
G("d1=1", "FLOAT16", [16, 1, 4], ST, [8, 1, 2], [0, 0, 1])
G("box 8,3,1", "FLOAT16", D, ST, [8, 3, 1], [0, 1, 1])
G("box 8,3,4", "FLOAT16", D, ST, [8, 3, 4], [0, 1, 0])
G("tall", "FLOAT16", [16, 64, 4], [256, 16384], [8, 16, 2], [0, 1, 1])
for x in [-4, 12]: G("nan f32 x=%d" % x, "FLOAT32", D, ST, [4, 3, 2], [x, 1, 1], fill="NAN")
json.dump(P, open("p1.json", "w"))
print(len(P))
