//! Memory programs printed as PTX and run on GPU backends (`oracle::memprog::ptx`,
//! `runner::memrun`, `ptxdiff eval --backend`). The programs are the eval contract's (the
//! valid program lines of `eval_program.rs` and the example), as eval lines.
//!
//! Without a GPU: every program prints to a module ptxas assembles for sm_90, alone and all
//! together; `program_line` writes back a line that builds the same program; `eval --backend`
//! refuses instruction lines and answers a backend that runs no memory jobs with its reason.
//! With a GPU: every program runs on `cuda:jit` and `cuda:ptxas-O3`, and every byte the oracle
//! knows must be the GPU's ([`runner::memrun::compare`]).

mod common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use oracle::memprog::ptx::module;
use oracle::memprog::MemProgram;
use oracle::semantics::Allowances;
use runner::backend::pool::Devices;
use runner::backend::{BackendError, Registry, Settings};
use runner::memrun::{compare, oracle_read, run_on, GpuResult};
use runner::program_line::program_line;
use serde_json::{json, Value};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn ramp(n: usize) -> Vec<u8> {
    (0..n).map(|i| i as u8).collect()
}

fn tensor_program(tx: u32) -> Vec<String> {
    vec![
        "mbarrier.init.shared::cta.b64 [bar], 1;".into(),
        "fence.mbarrier_init.release.cluster;".into(),
        format!("mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], {tx};"),
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [win], [tmap, {c0, c1}], [bar];"
            .into(),
        "L:".into(),
        "mbarrier.try_wait.shared::cta.b64 p, [bar], st;".into(),
        "@!p bra L;".into(),
    ]
}

fn small_map() -> Value {
    json!({"global": "src", "dtype": "UINT8", "dims": [20, 4], "strides": [32], "box": [16, 2], "element_strides": [1, 1]})
}

fn small_line(c0: i32, c1: i32) -> Value {
    json!({
        "program": tensor_program(32),
        "regs": {"c0": format!("{:#x}", c0 as u32), "c1": format!("{:#x}", c1 as u32)},
        "buffers": {
            "src": {"space": "global", "hex": hex(&ramp(128))},
            "win": {"space": "shared", "len": 32, "align": 128, "fill": "a5"},
            "bar": {"space": "shared", "len": 8, "align": 8},
        },
        "tensor_maps": {"tmap": small_map()},
        "read": ["win"],
    })
}

fn bulk_reduce(op: &str, dst: [u32; 4], src: [u32; 4]) -> Value {
    let words = |w: [u32; 4]| -> String { w.iter().map(|x| hex(&x.to_le_bytes())).collect() };
    json!({
        "program": [
            "mov.b32 a, s0;", "mov.b32 b, s1;", "mov.b32 c, s2;", "mov.b32 d, s3;",
            "st.shared.v4.u32 [sm], {a, b, c, d};",
            "fence.proxy.async.shared::cta;",
            format!("cp.reduce.async.bulk.global.shared::cta.bulk_group.{op} [g], [sm], 16;"),
            "cp.async.bulk.commit_group;",
            "cp.async.bulk.wait_group 0;",
        ],
        "regs": {"s0": format!("{:#x}", src[0]), "s1": format!("{:#x}", src[1]), "s2": format!("{:#x}", src[2]), "s3": format!("{:#x}", src[3])},
        "buffers": {"g": {"space": "global", "hex": words(dst)}, "sm": {"space": "shared", "len": 16}},
        "read": ["g"],
    })
}

/// A 64B-swizzled load of a 64 × 4 u8 box to `[win+at]`.
fn swizzled_load(at: u32) -> Value {
    json!({
        "program": [
            "mbarrier.init.shared::cta.b64 [bar], 1;",
            "mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], 256;",
            format!("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [win+{at}], [tmap, {{0, 0}}], [bar];"),
            "L:",
            "mbarrier.try_wait.shared::cta.b64 p, [bar], st;",
            "@!p bra L;",
        ],
        "buffers": {
            "src": {"space": "global", "hex": hex(&ramp(512))},
            "win": {"space": "shared", "len": 384, "align": 128, "fill": "a5"},
            "bar": {"space": "shared", "len": 8, "align": 8},
        },
        "tensor_maps": {"tmap": {"global": "src", "dtype": "UINT8", "dims": [64, 8], "strides": [64], "box": [64, 4], "element_strides": [1, 1], "swizzle": "64B"}},
        "read": ["win"],
    })
}

/// The eval contract's valid program lines.
fn lines() -> Vec<(&'static str, Value)> {
    vec![
        (
            "cp.async pipeline",
            json!({
                "program": [
                    "cp.async.ca.shared.global [win], [src], 16;",
                    "cp.async.commit_group;",
                    "cp.async.cg.shared.global [win+16], [src+16], 16;",
                    "cp.async.commit_group;",
                    "cp.async.wait_group 1;",
                    "ld.shared.u32 a, [win+12];",
                    "st.global.u32 [out], a;",
                    "cp.async.wait_group 0;",
                    "ld.shared.u32 b, [win+16];",
                    "st.global.u32 [out+4], b;",
                ],
                "buffers": {"src": {"space": "global", "hex": hex(&ramp(32))}, "win": {"space": "shared", "len": 32}, "out": {"space": "global", "len": 8}},
                "read": ["out", "win"],
            }),
        ),
        (
            "register src-size and a null source read by no byte",
            json!({
                "program": [
                    "cp.async.cg.shared.global [win], [src], 16, n;",
                    "mov.u32 t, %tid.x;",
                    "add.u32 m, t, 13;",
                    "cp.async.cg.shared.global [win+16], [src+16], 16, m;",
                    "cp.async.ca.shared.global [win+32], [nul], 8, 0;",
                    "setp.ne.u32 q, flag, 0;",
                    "cp.async.ca.shared.global [win+40], [nul], 8, q;",
                    "cp.async.commit_group;",
                    "cp.async.wait_group 0;",
                ],
                "regs": {"n": {"u32": "0xb"}, "nul": {"u64": "0x0"}, "flag": "0x1"},
                "buffers": {"src": {"space": "global", "hex": hex(&ramp(32))}, "win": {"space": "shared", "len": 48, "fill": "a5"}},
                "read": ["win"],
            }),
        ),
        (
            "createpolicy and cache-hinted copies",
            json!({
                "program": common::CREATEPOLICY_PROGRAM,
                "buffers": {"src": {"space": "global", "hex": hex(&ramp(32))}, "win": {"space": "shared", "len": 64, "align": 128, "fill": "a5"}, "bar": {"space": "shared", "len": 8, "align": 8}},
                "read": ["win"],
            }),
        ),
        (
            "src-size and ignore-src",
            json!({
                "program": [
                    "cp.async.ca.shared.global [win], [src], 8, 3;",
                    "cp.async.ca.shared.global [win+8], [src+8], 4, 0;",
                    "setp.ne.u32 p, flag, 0;",
                    "cp.async.ca.shared.global [win+12], [src+12], 4, p;",
                    "cp.async.wait_all;",
                ],
                "regs": {"flag": "0x1"},
                "buffers": {"src": {"space": "global", "hex": hex(&ramp(16))}, "win": {"space": "shared", "len": 16, "fill": "a5"}},
                "read": ["win"],
            }),
        ),
        (
            "bulk store on a bulk group",
            json!({
                "program": [
                    "mov.u32 t, %tid.x;",
                    "shl.b32 o, t, 2;",
                    "mov.u32 w, win;",
                    "add.u32 w, w, o;",
                    "st.shared.u32 [w], t;",
                    "fence.proxy.async.shared::cta;",
                    "bar.sync 0;",
                    "setp.eq.u32 p, t, 0;",
                    "@!p bra done;",
                    "cp.async.bulk.global.shared::cta.bulk_group [dst], [win], 16;",
                    "cp.async.bulk.commit_group;",
                    "cp.async.bulk.wait_group 0;",
                    "done:",
                ],
                "threads": 4,
                "buffers": {"win": {"space": "shared", "len": 16}, "dst": {"space": "global", "len": 32, "fill": "ff"}},
                "read": ["dst"],
            }),
        ),
        (
            "copies in flight at the end",
            json!({
                "program": ["cp.async.cg.shared.global [win], [src], 16;", "cp.async.commit_group;"],
                "buffers": {"src": {"space": "global", "hex": hex(&ramp(16))}, "win": {"space": "shared", "len": 20, "fill": "00"}},
                "read": ["win"],
            }),
        ),
        (
            "bulk load on an mbarrier",
            json!({
                "program": [
                    "mbarrier.init.shared::cta.b64 [bar], 1;",
                    "fence.mbarrier_init.release.cluster;",
                    "mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], tx;",
                    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [win], [src], sz, [bar];",
                    "wait:",
                    "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;",
                    "@!p bra wait;",
                    "ld.shared.v2.u32 {a, b}, [win+8];",
                    "st.global.v2.u32 [out], {b, a};",
                ],
                "regs": {"tx": "0x20", "sz": "0x20"},
                "buffers": {
                    "src": {"space": "global", "hex": hex(&ramp(64))},
                    "win": {"space": "shared", "len": 64, "align": 128, "fill": "ee"},
                    "bar": {"space": "shared", "len": 8, "align": 8},
                    "out": {"space": "global", "len": 8},
                },
                "read": ["win", "out", "bar"],
            }),
        ),
        (
            "cp.async.mbarrier.arrive",
            json!({
                "program": [
                    "mbarrier.init.shared::cta.b64 [bar], 1;",
                    "cp.async.ca.shared.global [win], [src], 4;",
                    "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [bar];",
                    "w:",
                    "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;",
                    "@!p bra w;",
                    "ld.shared.u32 a, [win];",
                    "st.global.u32 [out], a;",
                ],
                "buffers": {
                    "src": {"space": "global", "hex": "11223344"},
                    "win": {"space": "shared", "len": 4},
                    "bar": {"space": "shared", "len": 8, "align": 8},
                    "out": {"space": "global", "len": 4},
                },
                "read": ["out"],
            }),
        ),
        (
            "the issue's example",
            json!({
                "program": tensor_program(1152),
                "threads": 1,
                "regs": {"c0": "0x00000028", "c1": "0x00000002"},
                "buffers": {
                    "src": {"space": "global", "hex": hex(&ramp(1600))},
                    "win": {"space": "shared", "len": 2048, "align": 1024, "fill": "a5"},
                    "bar": {"space": "shared", "len": 8, "align": 8},
                },
                "tensor_maps": {"tmap": {"global": "src", "dtype": "FLOAT16", "dims": [40, 20], "strides": [80], "box": [32, 18], "element_strides": [1, 1], "interleave": "NONE", "swizzle": "64B", "l2_promotion": "NONE", "oob_fill": "NAN_REQUEST_ZERO_FMA"}},
                "read": ["win"],
            }),
        ),
        ("tensor load straddling two edges", small_line(16, 3)),
        ("tensor load at negative coordinates", small_line(-16, -1)),
        ("bulk reduction add.u32", bulk_reduce("add.u32", [1, 0xffff_ffff, 5, 7], [2, 1, 10, 0])),
        (
            "bulk reduction add.f32",
            bulk_reduce(
                "add.f32",
                [0x3f80_0000, 0x7f7f_ffff, 0x3f00_0000, 0x8000_0000],
                [0x4000_0000, 0x7f7f_ffff, 0x3e80_0000, 0x0000_0000],
            ),
        ),
        (
            "cvt and prmt on copied values",
            json!({
                "program": [
                    "cp.async.ca.shared.global [win], [src], 8;",
                    "cp.async.wait_all;",
                    "ld.shared.v2.b32 {x, y}, [win];",
                    "cvt.rn.f16.f32 hx, x;",
                    "cvt.rn.f16.f32 hy, y;",
                    "st.global.v2.b16 [out], {hx, hy};",
                    "prmt.b32 z, x, y, 0x5140;",
                    "st.global.b32 [out+4], z;",
                ],
                "buffers": {"src": {"space": "global", "hex": "0000803f00000040"}, "win": {"space": "shared", "len": 8}, "out": {"space": "global", "len": 8}},
                "read": ["out"],
            }),
        ),
        (
            "st.async on an mbarrier",
            json!({
                "program": [
                    "mbarrier.init.shared::cta.b64 [bar], 1;",
                    "mov.b32 v, 0xcafef00d;",
                    "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 4;",
                    "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [win+4], v, [bar];",
                    "W:",
                    "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;",
                    "@!p bra W;",
                    "ld.shared.u32 x, [win+4];",
                    "st.global.u32 [out], x;",
                ],
                "buffers": {"win": {"space": "shared", "len": 8, "fill": "00"}, "bar": {"space": "shared", "len": 8, "align": 8}, "out": {"space": "global", "len": 4}},
                "read": ["out", "win"],
            }),
        ),
        (
            "tensor store",
            json!({
                "program": [
                    "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [tmap, {c0, c1}], [win];",
                    "cp.async.bulk.commit_group;",
                    "cp.async.bulk.wait_group 0;",
                ],
                "regs": {"c0": "0x10", "c1": "0x2"},
                "buffers": {"src": {"space": "global", "len": 128, "fill": "ee"}, "win": {"space": "shared", "hex": hex(&ramp(32)), "align": 128}},
                "tensor_maps": {"tmap": small_map()},
                "read": ["src"],
            }),
        ),
        (
            "shared::cta to shared::cluster and multicast",
            json!({
                "program": [
                    "mbarrier.init.shared::cta.b64 [bar], 1;",
                    "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 48;",
                    "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [b], [a], 16, [bar];",
                    "mov.b16 m, 1;",
                    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [b+16], [g], 32, [bar], m;",
                    "W:",
                    "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;",
                    "@!p bra W;",
                ],
                "buffers": {
                    "a": {"space": "shared", "hex": hex(&ramp(16))},
                    "b": {"space": "shared", "len": 48},
                    "g": {"space": "global", "hex": "ab".repeat(32)},
                    "bar": {"space": "shared", "len": 8, "align": 8},
                },
                "read": ["b"],
            }),
        ),
        (
            "bulk load into dynamic shared memory (64 KiB)",
            json!({
                "program": [
                    "mov.u32 t, %tid.x;",
                    "setp.ne.u32 q, t, 0;",
                    "@q bra skip;",
                    "mbarrier.init.shared::cta.b64 [bar], 1;",
                    "mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], 64;",
                    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [win+65472], [src], 64, [bar];",
                    "wait:",
                    "mbarrier.try_wait.shared::cta.b64 p, [bar], st;",
                    "@!p bra wait;",
                    "ld.shared.u32 a, [win+65476];",
                    "st.global.u32 [out], a;",
                    "skip:",
                ],
                "threads": 128,
                "buffers": {
                    "src": {"space": "global", "hex": hex(&ramp(64))},
                    "win": {"space": "shared", "len": 65536, "align": 128, "fill": "5a"},
                    "bar": {"space": "shared", "len": 8, "align": 8},
                    "out": {"space": "global", "len": 4},
                },
                "read": ["out", "win"],
            }),
        ),
        ("64B-swizzled load at the window's start", swizzled_load(0)),
        ("64B-swizzled load 128 bytes into the window", swizzled_load(128)),
        (
            "a predicate input guards stores",
            json!({
                "program": ["@flag st.global.u32 [out], v;", "@!flag st.global.u32 [out+4], v;"],
                "regs": {"flag": "0x1", "v": "0x1234"},
                "buffers": {"out": {"space": "global", "len": 8}},
                "read": ["out"],
            }),
        ),
        (
            "wait_group.read",
            json!({
                "program": [
                    "cp.async.bulk.global.shared::cta.bulk_group [g], [s], 16;",
                    "cp.async.bulk.commit_group;",
                    "cp.async.bulk.wait_group.read 0;",
                    "mov.b32 v, 9;",
                    "st.shared.u32 [s], v;",
                ],
                "buffers": {"s": {"space": "shared", "hex": hex(&ramp(16))}, "g": {"space": "global", "len": 16}},
                "read": ["g"],
            }),
        ),
    ]
}

fn program(name: &str, line: &Value) -> MemProgram {
    let src = runner::program_line::program_source(line.as_object().expect("an object"))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    src.build().unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn programs() -> Vec<(&'static str, MemProgram)> {
    lines().into_iter().map(|(n, l)| (n, program(n, &l))).collect()
}

#[test]
fn every_program_prints_to_ptx_that_ptxas_assembles_for_sm_90() {
    let all = programs();
    for (name, p) in &all {
        oracle_read(p, &Allowances::all()).unwrap_or_else(|e| panic!("{name}: the oracle must run it: {e}"));
    }
    let Some(ptxas) = common::ptxas_or_skip() else { return };
    for (name, p) in &all {
        let m = module(&[p]).unwrap_or_else(|e| panic!("{name}: {e}"));
        let asm = ptxas.assemble(&m.ptx, "sm_90", 3, None).expect("ptxas runs");
        assert!(asm.ok, "{name}:\n{}\n{}", asm.output, m.ptx);
    }
    let refs: Vec<&MemProgram> = all.iter().map(|(_, p)| p).collect();
    let m = module(&refs).unwrap();
    assert_eq!(m.kernels.len(), refs.len());
    let asm = ptxas.assemble(&m.ptx, "sm_90", 0, None).expect("ptxas runs");
    assert!(asm.ok, "all programs as one module: {}", asm.output);
}

#[test]
fn a_swizzled_load_follows_the_shared_address_in_the_buffer() {
    // §5.5.8 (64B swizzle): the 16-byte chunk c of the row at shared address A lands at chunk
    // c ^ ((A >> 7) & 3); the printer starts `win` at a multiple of 1024 bytes.
    for at in [0usize, 128] {
        let p = program("swizzled load", &swizzled_load(at as u32));
        let win = &oracle_read(&p, &Allowances::all()).unwrap()[0];
        let mut want = vec![0xa5u8; 384];
        for r in 0..4 {
            let row = at + 64 * r;
            let x = (row >> 7) & 3;
            for c in 0..4 {
                for j in 0..16 {
                    want[row + 16 * (c ^ x) + j] = (64 * r + 16 * c + j) as u8;
                }
            }
        }
        assert_eq!(win.to_hex(), hex(&want), "at {at}");
    }
}

#[test]
fn names_that_are_ptx_keywords_print_safely() {
    let line = json!({
        "program": [
            "ld.global.u32 ld, [st];",
            "setp.ne.u32 p, ld, 0;",
            "@p add.u32 ld, ld, reg;",
            "mov.u32 ret, ld;",
            "st.shared.u32 [bra], ret;",
            "ld.shared.u32 entry, [bra];",
            "st.global.u32 [st+4], entry;",
        ],
        "regs": {"reg": "0x10"},
        "buffers": {"st": {"space": "global", "hex": "0100000000000000"}, "bra": {"space": "shared", "len": 4}},
        "read": ["st", "bra"],
    });
    let p = program("keywords", &line);
    let m = module(&[&p]).unwrap();
    for bad in ["[st", "[bra", " ld,", " ret,", " entry,", " reg;"] {
        assert!(!m.ptx.contains(bad), "`{bad}` printed:\n{}", m.ptx);
    }
    let Some(ptxas) = common::ptxas_or_skip() else { return };
    let asm = ptxas.assemble(&m.ptx, "sm_90", 3, None).expect("ptxas runs");
    assert!(asm.ok, "{}\n{}", asm.output, m.ptx);
}

#[test]
fn program_line_writes_back_a_line_that_builds_the_same_program() {
    for (name, line) in lines() {
        let src = runner::program_line::program_source(line.as_object().unwrap()).unwrap();
        let again = program_line(&src);
        let back =
            runner::program_line::program_source(again.as_object().unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back.build().unwrap(), src.build().unwrap(), "{name}: {again}");
    }
}

/// `ptxdiff eval --backend NAME` on `input`: the answers.
fn eval_backend(name: &str, input: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ptxdiff"))
        .args(["eval", "--backend", name])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ptxdiff runs");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("ptxdiff finishes");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn eval_backend_runs_program_lines_only() {
    let program = lines().remove(0).1;
    let input = format!("{program}\n{}\n", json!({"instr": "cvt.rn.f16.f32", "operands": {"a": "0x3f800000"}}));
    let (ok, out, err) = eval_backend("oracle", &input);
    assert!(ok, "{err}");
    let answers: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(answers.len(), 2, "{out}");
    let e0 = answers[0]["error"].as_str().unwrap_or_default();
    assert!(e0.starts_with("line 1: ") && e0.contains("does not run memory jobs"), "{out}");
    let e1 = answers[1]["error"].as_str().unwrap_or_default();
    assert!(e1.starts_with("line 2: ") && e1.contains("program lines only"), "{out}");
    let (ok, _, err) = eval_backend("no-such-backend", &input);
    assert!(!ok && err.contains("no-such-backend"), "{err}");
    // A case file: the same answers as from stdin; without --backend, the oracle's.
    let dir = tempfile::tempdir().unwrap();
    let case = dir.path().join("case.jsonl");
    std::fs::write(&case, &input).unwrap();
    let file = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_ptxdiff")).args(args).arg(&case).output().expect("ptxdiff runs");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(file(&["eval", "--backend", "oracle"]), out);
    let oracle: Vec<Value> = file(&["eval"]).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(oracle[0]["out"], json!("0c0d0e0f10111213"), "{oracle:?}");
    assert_eq!(oracle[1]["d"], json!("0x3c00"), "{oracle:?}");
}

fn registry() -> Registry {
    std::env::set_var("PTXDIFF_BIN", env!("CARGO_BIN_EXE_ptxdiff"));
    Registry::new(Settings {
        ptxas: Vec::new(),
        devices: Devices::default(),
        workers: Some(1),
        allow: Allowances::all(),
        sweep_timeout: Duration::from_secs(60),
    })
}

/// Runs `all` on `cuda:jit` and, with a ptxas, `cuda:ptxas-O3`, and compares every byte the
/// oracle knows: the programs that differ or fail, a line each with its backend; `None`
/// (SKIPPED) without a GPU.
fn gpu_differences(all: &[(String, MemProgram)]) -> Option<Vec<String>> {
    let registry = registry();
    let refs: Vec<&MemProgram> = all.iter().map(|(_, p)| p).collect();
    let expected: Vec<Vec<oracle::memory::Region>> = all
        .iter()
        .map(|(name, p)| {
            oracle_read(p, &Allowances::all()).unwrap_or_else(|e| panic!("{name}: the oracle must run it: {e}"))
        })
        .collect();
    let mut names = vec!["cuda:jit"];
    if common::ptxas_or_skip().is_some() {
        names.push("cuda:ptxas-O3");
    }
    let mut bad = Vec::new();
    for backend in names {
        let mut b = match registry.build(backend) {
            Ok(b) => b,
            Err(BackendError::Unavailable { why, .. }) => {
                common::skip("no GPU", &why);
                return None;
            }
            Err(e) => panic!("{e}"),
        };
        let results = run_on(b.as_mut(), &refs, Duration::from_secs(30)).expect("the backend runs");
        assert_eq!(results.len(), refs.len());
        for (((name, _), want), got) in all.iter().zip(&expected).zip(results) {
            match got {
                GpuResult::Bytes(bytes) => {
                    let want: Vec<&oracle::memory::Region> = want.iter().collect();
                    let diffs = compare(&want, &bytes);
                    if !diffs.is_empty() {
                        bad.push(format!("{backend} {name}: {} bytes differ, first {:?}", diffs.len(), diffs[0]));
                    }
                }
                other => bad.push(format!("{backend} {name}: {other:?}")),
            }
        }
    }
    Some(bad)
}

#[test]
fn every_program_runs_on_the_gpu_as_the_oracle_says() {
    let all: Vec<(String, MemProgram)> = programs().into_iter().map(|(n, p)| (n.to_string(), p)).collect();
    if let Some(bad) = gpu_differences(&all) {
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }
}

/// `tensormap.replace` programs (sm_90a, §9.7.9.26) over a tensor-map object: each replaced
/// field once (the fields the H100 was probed with, `eval --backend` on both compilers).
fn replace_programs() -> Vec<(String, MemProgram)> {
    let r = "tensormap.replace.tile";
    let cases: Vec<(Vec<String>, u32)> = vec![
        (vec![], 32),
        (vec![format!("{r}.box_dim.global.b1024.b32 [gmap], 1, 1;")], 16),
        (vec![format!("{r}.global_dim.global.b1024.b32 [gmap], 1, 2;")], 32),
        (
            vec![
                format!("{r}.global_stride.global.b1024.b64 [gmap], 0, 32;"),
                format!("{r}.element_stride.global.b1024.b32 [gmap], 1, 2;"),
            ],
            16,
        ),
        (
            vec![
                format!("{r}.elemtype.global.b1024.b32 [gmap], 1;"),
                format!("{r}.box_dim.global.b1024.b32 [gmap], 0, 8;"),
            ],
            32,
        ),
        (
            vec![
                format!("{r}.fill_mode.global.b1024.b32 [gmap], 1;"),
                format!("{r}.elemtype.global.b1024.b32 [gmap], 6;"),
                format!("{r}.box_dim.global.b1024.b32 [gmap], 0, 8;"),
                format!("{r}.global_dim.global.b1024.b32 [gmap], 1, 2;"),
            ],
            32,
        ),
        (vec![format!("{r}.swizzle_mode.global.b1024.b32 [gmap], 1;")], 32),
        (vec!["mov.b64 a, src2;".into(), format!("{r}.global_address.global.b1024.b64 [gmap], a;")], 32),
    ];
    cases
        .into_iter()
        .map(|(rep, tx)| {
            let name = format!("{rep:?}");
            let line = common::replaced_line(&rep.iter().map(String::as_str).collect::<Vec<_>>(), true, tx);
            let p = program(&name, &line);
            (name, p)
        })
        .collect()
}

#[test]
fn tensormap_replace_programs_print_for_sm_90a_and_run_as_the_oracle_says() {
    let all = replace_programs();
    let refs: Vec<&MemProgram> = all.iter().map(|(_, p)| p).collect();
    let m = module(&refs).unwrap();
    assert!(
        m.ptx.contains(".target sm_90a") && m.ptx.contains("fence.proxy.tensormap::generic.acquire.gpu"),
        "{}",
        m.ptx
    );
    if let Some(ptxas) = common::ptxas_or_skip() {
        let asm = ptxas.assemble(&m.ptx, "sm_90a", 3, None).expect("ptxas runs");
        assert!(asm.ok, "{}\n{}", asm.output, m.ptx);
    }
    if let Some(bad) = gpu_differences(&all) {
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }
}
