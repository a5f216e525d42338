#!/usr/bin/env python3
"""Interleaved-TMA probe harness (corpus/evidence/tma-interleave.md): raw PTX through libcuda (ctypes),
tensor maps encoded by cuTensorMapEncodeTiled. Usage: tma.py PROBES.json START OUT.jsonl (run.sh restarts it
after a fault). Loads wait 3 ms, then count the 1-byte complete_tx steps that complete the mbarrier phase:
the transaction bytes the load signalled are 32768 - steps."""
import ctypes as C, json, sys, struct, os
cu = C.CDLL("libcuda.so.1")
def ck(rc, what):
    if rc != 0: raise RuntimeError("%s: CUresult %d" % (what, rc))
RANKS = [1, 2, 3, 4, 5]
def ptx():
    out = [".version 8.0", ".target sm_90", ".address_size 64", ".shared .align 1024 .b8 smem[33792];"]
    for r in RANKS:
        cs = ", ".join("%%r%d" % (10 + i) for i in range(r))
        cparams = ", ".join(".param .u32 c%d" % i for i in range(5))
        for kind in ["ld", "st", "radd", "rmax"]:
            out.append(".visible .entry %s%d(.param .align 64 .b8 tmap[128], .param .u64 out, .param .u32 tx, %s)" % (kind, r, cparams))
            out.append("{")
            out.append(".reg .b32 %r<40>; .reg .b64 %rd<40>; .reg .pred %p<8>;")
            out.append("mov.u32 %r1, smem; add.u32 %r2, %r1, 1024;")
            out.append("ld.param.u64 %rd30, [out]; cvta.to.global.u64 %rd30, %rd30;")
            out.append("mov.u64 %rd31, tmap; cvta.param.u64 %rd31, %rd31;")
            out.append("ld.param.u32 %r5, [tx];")
            for i in range(5): out.append("ld.param.u32 %%r%d, [c%d];" % (10 + i, i))
            fill = "0xa5a5a5a5" if kind == "ld" else None
            out.append("mov.u32 %r3, 0;")
            out.append("FILL:")
            out.append("add.u32 %r4, %r2, %r3;")
            if kind == "ld": out.append("st.shared.u32 [%r4], 0xa5a5a5a5;")
            else: out.append("shr.u32 %r6, %r3, 2; add.u32 %r6, %r6, 0x10000; st.shared.u32 [%r4], %r6;")
            out.append("add.u32 %r3, %r3, 4; setp.lt.u32 %p1, %r3, 32768; @%p1 bra FILL;")
            if kind == "ld":
                out.append("mbarrier.init.shared::cta.b64 [%r1], 1;")
                out.append("fence.mbarrier_init.release.cluster; fence.proxy.async.shared::cta;")
                out.append("mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [%r1], %r5;")
                out.append("ld.shared.b64 %rd2, [%r1];")
                out.append("cp.async.bulk.tensor.%dd.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%%r2], [%%rd31, {%s}], [%%r1];" % (r, cs))
                # spin 3 ms on globaltimer
                out.append("mov.u64 %rd3, %globaltimer; add.u64 %rd4, %rd3, 3000000;")
                out.append("SPIN: mov.u64 %rd5, %globaltimer; setp.lt.u64 %p2, %rd5, %rd4; @%p2 bra SPIN;")
                out.append("ld.shared.b64 %rd6, [%r1];")
                out.append("mbarrier.test_wait.parity.shared::cta.b64 %p3, [%r1], 0;")
                out.append("selp.u32 %r7, 1, 0, %p3;")
                # count 1-byte complete_tx steps until the phase completes (at most 40000)
                out.append("mov.u32 %r8, 0; @%p3 bra COUNTED;")
                out.append("STEP: mbarrier.complete_tx.shared::cta.b64 [%r1], 1; add.u32 %r8, %r8, 1;")
                out.append("mbarrier.test_wait.parity.shared::cta.b64 %p4, [%r1], 0;")
                out.append("setp.lt.u32 %p5, %r8, 40000; @%p4 bra COUNTED; @%p5 bra STEP;")
                out.append("mov.u32 %r8, 0xffffffff;")
                out.append("COUNTED:")
                out.append("st.global.u64 [%rd30], %rd2; st.global.u64 [%rd30+8], %rd6; st.global.u32 [%rd30+16], %r7; st.global.u32 [%rd30+20], %r8;")
                out.append("mov.u32 %r3, 0;")
                out.append("COPY: add.u32 %r4, %r2, %r3; ld.shared.u32 %r9, [%r4]; cvt.u64.u32 %rd7, %r3; add.u64 %rd8, %rd30, %rd7; st.global.u32 [%rd8+64], %r9;")
                out.append("add.u32 %r3, %r3, 4; setp.lt.u32 %p1, %r3, 32768; @%p1 bra COPY;")
            elif kind == "st":
                out.append("fence.proxy.async.shared::cta;")
                out.append("cp.async.bulk.tensor.%dd.global.shared::cta.tile.bulk_group [%%rd31, {%s}], [%%r2];" % (r, cs))
                out.append("cp.async.bulk.commit_group; cp.async.bulk.wait_group 0;")
            else:
                out.append("fence.proxy.async.shared::cta;")
                out.append("cp.reduce.async.bulk.tensor.%dd.global.shared::cta.%s.tile.bulk_group [%%rd31, {%s}], [%%r2];" % (r, kind[1:], cs))
                out.append("cp.async.bulk.commit_group; cp.async.bulk.wait_group 0;")
            out.append("ret;")
            out.append("}")
    return "\n".join(out) + "\n"
DT = {"UINT8": (0, 1), "UINT16": (1, 2), "UINT32": (2, 4), "INT32": (3, 4), "UINT64": (4, 8), "INT64": (5, 8), "FLOAT16": (6, 2),
      "FLOAT32": (7, 4), "FLOAT64": (8, 8), "BFLOAT16": (9, 2)}
IL = {"NONE": 0, "16B": 1, "32B": 2}
SW = {"NONE": 0, "32B": 1, "64B": 2, "128B": 3}
FILLM = {"NONE": 0, "NAN": 1}
GOFF = 65536
GLEN = 1 << 20
def main():
    probes = json.load(open(sys.argv[1])); start = int(sys.argv[2]); outp = open(sys.argv[3], "a")
    ck(cu.cuInit(0), "init"); dev = C.c_int(); ck(cu.cuDeviceGet(C.byref(dev), 0), "dev")
    ctx = C.c_void_p(); ck(cu.cuDevicePrimaryCtxRetain(C.byref(ctx), dev), "ctx"); ck(cu.cuCtxSetCurrent(ctx), "cur")
    src = ptx().encode() + b"\0"
    mod = C.c_void_p(); ck(cu.cuModuleLoadData(C.byref(mod), src), "module")
    fns = {}
    for r in RANKS:
        for k in ["ld", "st", "radd", "rmax"]:
            f = C.c_void_p(); ck(cu.cuModuleGetFunction(C.byref(f), mod, ("%s%d" % (k, r)).encode()), "fn"); fns[(k, r)] = f
    g = C.c_uint64(); ck(cu.cuMemAlloc_v2(C.byref(g), GLEN), "alloc")
    o = C.c_uint64(); ck(cu.cuMemAlloc_v2(C.byref(o), 64 + 32768), "alloc")
    init_ld = b"".join(struct.pack("<I", i) for i in range(GLEN // 4))
    zero = bytes(GLEN)
    for idx in range(start, len(probes)):
        p = probes[idx]
        rec = {"i": idx, "tag": p["tag"], "kind": p["kind"]}
        r = len(p["dims"])
        code, es = DT[p["dtype"]]
        ck(cu.cuMemcpyHtoD_v2(g, zero if p["kind"] == "st" else init_ld, GLEN), "h2d")
        tm = (C.c_uint8 * 192)(); addr = C.addressof(tm); addr64 = (addr + 63) // 64 * 64
        dims = (C.c_uint64 * r)(*p["dims"]); strides = (C.c_uint64 * max(1, r - 1))(*(p["strides"] or [0]))
        box = (C.c_uint32 * r)(*p["box"]); es_ = (C.c_uint32 * r)(*p.get("estr", [1] * r))
        rc = cu.cuTensorMapEncodeTiled(C.c_void_p(addr64), code, r, C.c_void_p(g.value + GOFF), dims, strides, box, es_,
                                       IL[p.get("inter", "16B")], SW[p.get("swizzle", "NONE")], 0, FILLM[p.get("fill", "NONE")])
        if rc == 0: rec["desc"] = bytes((C.c_uint8 * 128).from_address(addr64)).hex()
        if rc != 0 or p["kind"] == "enc":
            rec["encode"] = rc; outp.write(json.dumps(rec) + "\n"); outp.flush(); continue
        tmb = (C.c_uint8 * 128).from_address(addr64)
        rec["desc"] = bytes(tmb).hex()
        outv = C.c_uint64(o.value); txv = C.c_uint32(p.get("tx", 1 << 15))
        cs = [C.c_uint32(c & 0xffffffff) for c in (p["coords"] + [0] * 5)[:5]]
        args = [C.cast(C.pointer(tmb), C.c_void_p), C.cast(C.pointer(outv), C.c_void_p), C.cast(C.pointer(txv), C.c_void_p)] + [C.cast(C.pointer(c), C.c_void_p) for c in cs]
        argv = (C.c_void_p * len(args))(*args)
        rc = cu.cuLaunchKernel(fns[(p["kind"], r)], 1, 1, 1, 1, 1, 1, 0, None, argv, None)
        if rc == 0: rc = cu.cuCtxSynchronize()
        if rc != 0:
            rec["fault"] = rc; outp.write(json.dumps(rec) + "\n"); outp.flush(); sys.exit(3)
        if p["kind"] == "ld":
            buf = (C.c_uint8 * (64 + 32768))(); ck(cu.cuMemcpyDtoH_v2(buf, o, 64 + 32768), "d2h"); b = bytes(buf)
            before, after, done, steps = struct.unpack_from("<QQII", b, 0)
            rec.update(before="%016x" % before, after="%016x" % after, done=done, steps=steps)
            w = b[64:]
            last = max((i for i in range(0, 32768, 16) if w[i:i+16] != b"\xa5" * 16), default=-16)
            chunks = []
            for i in range(0, last + 16, 16):
                c = w[i:i+16]
                if c == b"\xa5" * 16: chunks.append("."); continue
                if c == bytes(16): chunks.append("0"); continue
                ws = struct.unpack("<4I", c)
                if all(ws[k] == ws[0] + k for k in range(4)): chunks.append(str(ws[0] * 4 - GOFF)); continue
                chunks.append(c.hex())
            rec["win"] = chunks
        else:
            buf = (C.c_uint8 * GLEN)(); ck(cu.cuMemcpyDtoH_v2(buf, g, GLEN), "d2h"); b = bytes(buf)
            runs = []
            for off in range(0, GLEN, 4):
                wv = int.from_bytes(b[off:off+4], "little")
                if p["kind"] != "st":
                    base = off // 4
                    if wv == base: continue
                    wv = (wv - base) & 0xffffffff if p["kind"] == "radd" else wv
                if wv == 0: continue
                s = (wv - 0x10000) * 4; gg = off - GOFF
                if runs and runs[-1][0] + runs[-1][2] == gg and runs[-1][1] + runs[-1][2] == s: runs[-1][2] += 4
                else: runs.append([gg, s, 4])
            rec["runs"] = ["g%d+%d<-s%d" % (a, n, s) for a, s, n in runs]
            rec["bytes"] = sum(x[2] for x in runs)
        outp.write(json.dumps(rec) + "\n"); outp.flush()
main()
