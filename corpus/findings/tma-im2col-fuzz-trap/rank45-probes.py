# im2col trap rule at ranks 4 and 5: writes NAME.jsonl (ptxdiff eval program lines) and NAME.tags (one
# line each: map, coordinates, the rule's prediction). Usage: python3 rank45-probes.py NAME
import json, random, sys
random.seed(7)
C = 16
lines, tags = [], []
def probe(dims, lo, up, coords, offs):
    rank = len(dims)
    n = 1
    for d in dims: n *= d
    src = bytes(random.randrange(256) for _ in range(2 * n)).hex()
    strides = []
    acc = 2 * dims[0]
    for d in dims[1:]:
        strides.append(acc); acc *= d
    names = [f"c{i}" for i in range(rank)]
    onames = [f"o{i}" for i in range(rank - 2)]
    regs = {nm: hex(c & 0xffffffff) for nm, c in zip(names, coords)}
    regs.update({nm: hex(o & 0xffff) for nm, o in zip(onames, offs)})
    prog = [
        "mbarrier.init.shared::cta.b64 [bar], 1;",
        f"mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], {2*C};",
        f"cp.async.bulk.tensor.{rank}d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [win], [tmap, {{{', '.join(names)}}}], [bar], {{{', '.join(onames)}}};",
        "mbarrier.arrive.shared::cta.b64 _, [bar];",
        "mov.u32 ph, 0;",
        "W:",
        "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], ph;",
        "@!p bra W;",
    ]
    line = {"program": prog, "threads": 1, "target": "sm_90", "regs": regs,
            "buffers": {"tsrc": {"space": "global", "align": 256, "hex": src},
                        "win": {"space": "shared", "len": 128, "align": 128, "fill": "7f"},
                        "bar": {"space": "shared", "len": 8, "align": 8, "fill": "00"}},
            "tensor_maps": {"tmap": {"global": "tsrc", "mode": "im2col", "dtype": "UINT16", "dims": dims, "strides": strides,
                                     "channels_per_pixel": C, "pixels_per_column": 1, "lower_corner": lo, "upper_corner": up,
                                     "element_strides": [1] * rank, "interleave": "NONE", "swizzle": "NONE",
                                     "l2_promotion": "NONE", "oob_fill": "NONE"}},
            "read": ["win"]}
    pred = any(c < l or c > dims[d + 1] + u - 1 for d, (c, l, u) in enumerate(zip(coords[1:-1], lo, up)))
    lines.append(json.dumps(line))
    tags.append(f"rank={rank} dims={dims} lo={lo} up={up} coords={coords} offs={offs} predicted={'trap' if pred else 'load'}")
for rank, dims in [(4, [C, 6, 5, 2]), (5, [C, 5, 4, 3, 2])]:
    sp = rank - 2
    for lo_v, up_v in [(-1, -2), (0, 0), (-2, 2), (1, 1)]:
        for d in range(sp):
            lo = [0] * sp; up = [0] * sp
            lo[d] = lo_v; up[d] = up_v
            W = dims[d + 1]
            for c in range(lo_v - 2, W + up_v + 2):
                coords = [0] + [0] * sp + [1]
                coords[d + 1] = c
                offs = [0] * sp
                if c % 3 == 0:
                    offs[d] = 1
                probe(dims, lo, up, coords, offs)
open(sys.argv[1] + ".jsonl", "w").write("\n".join(lines) + "\n")
open(sys.argv[1] + ".tags", "w").write("\n".join(tags) + "\n")
print(len(lines), "probes")
