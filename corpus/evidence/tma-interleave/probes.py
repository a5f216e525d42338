import json, struct, sys
G = 1 << 18
def words(n_words, base=0):
    return b''.join(struct.pack('<I', base + i) for i in range(n_words)).hex()
SRC_HEX = None
def src_hex():
    global SRC_HEX
    if SRC_HEX is None:
        SRC_HEX = words((2 * G) // 4)
    return SRC_HEX
def reg(v): return "0x%08x" % (v & 0xffffffff)
ES = {"FLOAT16": 2, "FLOAT32": 4, "UINT8": 1}
def load_line(dtype, dims, strides, box, coords, swizzle="NONE", inter="16B", estr=None):
    r = len(dims)
    estr = estr or [1] * r
    cs = ", ".join("c%d" % i for i in range(r))
    tx = ES[dtype]
    for b in box: tx *= b
    prog = ["mbarrier.init.shared::cta.b64 [bar], 1;", "fence.mbarrier_init.release.cluster;",
            "fence.proxy.async.shared::cta;",
            "mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], %d;" % tx,
            "cp.async.bulk.tensor.%dd.shared::cluster.global.tile.mbarrier::complete_tx::bytes [win], [tmap, {%s}], [bar];" % (r, cs),
            "wait:", "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;", "@!p bra wait;"]
    return {"program": prog, "threads": 1, "target": "sm_90",
            "regs": {"c%d" % i: reg(c) for i, c in enumerate(coords)},
            "buffers": {"src": {"space": "global", "hex": src_hex(), "align": 256},
                        "win": {"space": "shared", "len": 4096, "align": 1024, "fill": "a5"},
                        "bar": {"space": "shared", "len": 8, "align": 8}},
            "tensor_maps": {"tmap": {"global": "src", "global_offset": G, "dtype": dtype, "dims": dims, "strides": strides,
                                     "box": box, "element_strides": estr, "interleave": inter, "swizzle": swizzle,
                                     "l2_promotion": "NONE", "oob_fill": "NONE"}},
            "read": ["win"]}
def store_line(dtype, dims, strides, box, coords, swizzle="NONE", inter="16B"):
    r = len(dims)
    cs = ", ".join("c%d" % i for i in range(r))
    prog = ["fence.proxy.async.shared::cta;",
            "cp.async.bulk.tensor.%dd.global.shared::cta.tile.bulk_group [tmap, {%s}], [win];" % (r, cs),
            "cp.async.bulk.commit_group;", "cp.async.bulk.wait_group 0;"]
    return {"program": prog, "threads": 1, "target": "sm_90",
            "regs": {"c%d" % i: reg(c) for i, c in enumerate(coords)},
            "buffers": {"dst": {"space": "global", "len": 16384, "fill": "00", "align": 256},
                        "win": {"space": "shared", "hex": words(1024, 0x10000), "align": 1024}},
            "tensor_maps": {"tmap": {"global": "dst", "global_offset": 4096, "dtype": dtype, "dims": dims, "strides": strides,
                                     "box": box, "element_strides": [1] * r, "interleave": inter, "swizzle": swizzle,
                                     "l2_promotion": "NONE", "oob_fill": "NONE"}},
            "read": ["dst"]}
lines = []
def add(tag, d): lines.append((tag, d))
for d0, pitch in [(8, 16), (16, 32), (19, 48)]:
    for x in [0, 8, 16]:
        add("L f16 i16 d0=%d x=%d" % (d0, x), load_line("FLOAT16", [d0, 6, 4], [pitch, pitch * 6], [8, 3, 2], [x, 1, 1]))
add("L f16 i16 d0=19 x=4", load_line("FLOAT16", [19, 6, 4], [48, 288], [8, 3, 2], [4, 1, 1]))
add("L f16 i16 d0=8 pitch64 x=0", load_line("FLOAT16", [8, 6, 4], [64, 384], [8, 3, 2], [0, 1, 1]))
add("L f16 i16 d0=8 box4 x=0", load_line("FLOAT16", [8, 6, 4], [16, 96], [4, 3, 2], [0, 1, 1]))
add("L f16 i16 d0=8 x=-8", load_line("FLOAT16", [8, 6, 4], [16, 96], [8, 3, 2], [-8, 1, 1]))
for sw in ["NONE", "64B"]:
    for x in [0, 4, -4]:
        add("L f32 i16 sw%s x=%d" % (sw, x), load_line("FLOAT32", [11, 6, 4], [48, 288], [4, 3, 2], [x, 1, 1], swizzle=sw))
for d0, pitch in [(19, 64), (16, 32)]:
    for x in [0, 16]:
        add("L f16 i32 d0=%d x=%d" % (d0, x), load_line("FLOAT16", [d0, 6, 4], [pitch, pitch * 6], [16, 3, 2], [x, 1, 1], swizzle="32B", inter="32B"))
for x in [0, 8]:
    add("L4 f16 i16 d0=19 x=%d" % x, load_line("FLOAT16", [19, 6, 4, 5], [48, 288, 1152], [8, 3, 2, 2], [x, 1, 1, 1]))
add("S f32 i16 sw64 origin", store_line("FLOAT32", [11, 6, 4], [48, 288], [4, 3, 2], [0, 0, 0], swizzle="64B"))
add("S f32 i16 swNONE origin", store_line("FLOAT32", [11, 6, 4], [48, 288], [4, 3, 2], [0, 0, 0]))
add("S f32 i16 swNONE x4", store_line("FLOAT32", [11, 6, 4], [48, 288], [4, 3, 2], [4, 1, 1]))
add("S f16 i16 d0=16 x0", store_line("FLOAT16", [16, 6, 4], [32, 192], [8, 3, 2], [0, 1, 1]))
add("S f16 i16 d0=16 x8", store_line("FLOAT16", [16, 6, 4], [32, 192], [8, 3, 2], [8, 1, 1]))
add("S f16 i16 d0=8 x0", store_line("FLOAT16", [8, 6, 4], [16, 96], [8, 3, 2], [0, 1, 1]))
which = sys.argv[1]
with open(which + ".tags", "w") as t, open(which + ".jsonl", "w") as f:
    for tag, d in lines:
        t.write(tag + "\n"); f.write(json.dumps(d) + "\n")
