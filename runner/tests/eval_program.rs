//! `ptxdiff eval` program lines through the binary: memory programs over named buffers, their
//! final bytes, and the errors for undefined programs, hangs and bad names. Expected bytes are
//! computed by hand here, never by the oracle.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

/// Runs `ptxdiff eval` on these lines; one parsed answer per line.
fn eval(lines: &[Value]) -> Vec<Value> {
    eval_with(&[], lines)
}

/// `ptxdiff eval ARGS` on these lines.
fn eval_with(args: &[&str], lines: &[Value]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ptxdiff"))
        .arg("eval")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("ptxdiff runs");
    {
        let mut stdin = child.stdin.take().expect("stdin");
        for l in lines {
            writeln!(stdin, "{l}").expect("write a line");
        }
    }
    let out = child.wait_with_output().expect("ptxdiff finishes");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let answers: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    assert_eq!(answers.len(), lines.len(), "{text}");
    answers
}

fn one(line: Value) -> Value {
    eval(&[line]).remove(0)
}

/// Hex of `bytes`.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Bytes 0, 1, 2, … `n-1` (mod 256).
fn ramp(n: usize) -> Vec<u8> {
    (0..n).map(|i| i as u8).collect()
}

fn error_of(v: &Value) -> String {
    v["error"].as_str().unwrap_or_else(|| panic!("expected an error, got {v}")).to_string()
}

#[test]
fn cp_async_pipeline_with_two_groups_and_wait_group_1() {
    let src = ramp(32);
    let line = json!({
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
        "buffers": {
            "src": {"space": "global", "hex": hex(&src)},
            "win": {"space": "shared", "len": 32},
            "out": {"space": "global", "len": 8},
        },
        "read": ["out", "win"],
    });
    let v = one(line);
    assert_eq!(v["out"], json!("0c0d0e0f10111213"), "{v}");
    assert_eq!(v["win"], json!(hex(&src)));
    assert!(v.get("allowances").is_none(), "{v}");
}

#[test]
fn src_size_zero_fills_and_ignore_src_writes_zeros() {
    let src = ramp(16);
    let line = json!({
        "program": [
            "cp.async.ca.shared.global [win], [src], 8, 3;",
            "cp.async.ca.shared.global [win+8], [src+8], 4, 0;",
            "setp.ne.u32 p, flag, 0;",
            "cp.async.ca.shared.global [win+12], [src+12], 4, p;",
            "cp.async.wait_all;",
        ],
        "regs": {"flag": "0x1"},
        "buffers": {
            "src": {"space": "global", "hex": hex(&src)},
            "win": {"space": "shared", "len": 16, "fill": "a5"},
        },
        "read": ["win"],
    });
    // 3 bytes copied then 5 zeros; src-size 0: 4 zeros; ignore-src true: 4 zeros.
    assert_eq!(one(line)["win"], json!("0001020000000000".to_string() + "0000000000000000"));
    let line = json!({
        "program": [
            "setp.ne.u32 p, flag, 0;",
            "cp.async.ca.shared.global [win], [src], 4, p;",
            "cp.async.wait_all;",
        ],
        "regs": {"flag": "0x0"},
        "buffers": {"src": {"space": "global", "hex": "deadbeef"}, "win": {"space": "shared", "len": 4}},
        "read": ["win"],
    });
    assert_eq!(one(line)["win"], json!("deadbeef"), "ignore-src false copies");
}

/// Issue 27's line: a `cp.async` whose fourth operand is a 32-bit register is `src-size`
/// (§9.7.9.25.3.1): 3 bytes copied, then one zero — whatever else the register would be.
#[test]
fn a_register_src_size_copies_that_many_bytes_and_zero_fills() {
    let src: Vec<u8> = (0..256).map(|i| 0x11u8.wrapping_add(i as u8) | 1).collect();
    let line = |n: Value| {
        json!({
            "program": ["cp.async.ca.shared.global [win+16], [src+4], 4, n;", "cp.async.commit_group;", "cp.async.wait_group 0;"],
            "threads": 1,
            "regs": {"n": n},
            "buffers": {"src": {"space": "global", "hex": hex(&src)}, "win": {"space": "shared", "len": 64, "align": 128, "fill": "a5"}},
            "read": ["win"],
        })
    };
    let win = |copied: &[u8]| {
        let mut w = vec![0xa5u8; 64];
        w[16..20].copy_from_slice(&[0, 0, 0, 0]);
        w[16..16 + copied.len()].copy_from_slice(copied);
        json!(hex(&w))
    };
    let answers = eval(&[
        line(json!({"u32": "0x3"})),
        line(json!({"b32": "0x0"})),
        line(json!({"s32": "0x4"})),
        line(json!({"u32": "0x5"})),
        line(json!("0x3")),
        line(json!({"pred": "0x1"})),
        line(json!({"u64": "0x3"})),
        // The issue's line as written: 8 hex digits make the untyped register a 32-bit integer.
        line(json!("0x00000003")),
    ]);
    assert_eq!(answers[0]["win"], win(&src[4..7]), "src-size 3: three bytes and a zero");
    assert_eq!(answers[1]["win"], win(&[]), "src-size 0: four zeros");
    assert_eq!(answers[2]["win"], win(&src[4..8]), "src-size 4: the whole copy");
    assert!(error_of(&answers[3]).contains("src-size 5 exceeds cp-size 4"), "{}", answers[3]);
    let e = error_of(&answers[4]);
    assert!(e.contains("register `n`") && e.contains("give its type"), "untyped is ambiguous: {e}");
    assert_eq!(answers[5]["win"], win(&[]), "a predicate is ignore-src: true writes zeros");
    assert!(error_of(&answers[6]).contains("is .b64"), "{}", answers[6]);
    assert_eq!(answers[7]["win"], win(&src[4..7]), "\"0x00000003\": src-size 3");
    // A case file keeps the width: the line written back still has 8 digits.
    let source = runner::program_line::program_source(line(json!("0x00000003")).as_object().unwrap()).unwrap();
    assert_eq!(runner::program_line::program_line(&source)["regs"]["n"], json!("0x00000003"));
    // Written by the program, the register's class decides: `mov.u32` makes src-size,
    // `setp` makes ignore-src.
    let mut written = line(json!("0x2"));
    written["program"].as_array_mut().expect("a program").insert(0, json!("add.u32 n2, n, 0;"));
    written["program"][1] = json!("cp.async.ca.shared.global [win+16], [src+4], 4, n2;");
    let mut pred = written.clone();
    pred["program"][0] = json!("setp.ne.u32 n2, n, 0;");
    let answers = eval(&[written, pred]);
    assert_eq!(answers[0]["win"], win(&src[4..6]), "{}", answers[0]);
    assert_eq!(answers[1]["win"], win(&[]), "{}", answers[1]);
}

/// No source byte is read when src-size is 0 or ignore-src is true: a source register holding
/// no buffer address (0) is fine then, and an error when bytes are read.
#[test]
fn a_null_source_is_fine_when_nothing_is_read() {
    let line = |size: &str| {
        json!({
            "program": [format!("cp.async.ca.shared.global [win+16], [srcaddr], 16, {size};"), "cp.async.wait_all;"],
            "regs": {"srcaddr": {"u64": "0x0"}},
            "buffers": {"win": {"space": "shared", "len": 32, "align": 128, "fill": "a5"}},
            "read": ["win"],
        })
    };
    let answers = eval(&[line("0"), line("1")]);
    assert_eq!(answers[0]["win"], json!(format!("{}{}", "a5".repeat(16), "00".repeat(16))), "{}", answers[0]);
    assert!(error_of(&answers[1]).contains("does not hold a buffer address"), "{}", answers[1]);
}

/// `createpolicy` (fractional and range, §9.7.9.18) makes an opaque policy that
/// `.L2::cache_hint` copies take as a hint only: the copies land as without it, and the policy
/// stored is any value under `cache-policy`.
#[test]
fn createpolicy_feeds_cache_hinted_copies() {
    let src = ramp(32);
    let line = json!({
        "program": common::CREATEPOLICY_PROGRAM.iter().chain(&["st.global.u64 [out], pol;"]).collect::<Vec<_>>(),
        "buffers": {
            "src": {"space": "global", "hex": hex(&src)},
            "win": {"space": "shared", "len": 64, "align": 128, "fill": "a5"},
            "bar": {"space": "shared", "len": 8, "align": 8},
            "out": {"space": "global", "len": 8},
        },
        "read": ["win", "out"],
    });
    let mut win = src.clone();
    win.extend_from_slice(&src[4..8]);
    win.extend_from_slice(&[0xa5; 12]);
    win.extend_from_slice(&src[16..21]);
    win.extend_from_slice(&[0; 11]);
    let answer = one(line);
    assert_eq!(answer["win"], json!(hex(&win)), "{answer}");
    assert_eq!(answer["out"], json!("??".repeat(8)), "{answer}");
    assert_eq!(answer["allowances"]["out"], json!(["cache-policy"]), "{answer}");
}

/// What ptxas rejects is an error here too (issue 28): a label defined twice, a `mov` between
/// registers of different widths, and names a statement could not use.
#[test]
fn programs_ptxas_would_reject_are_errors() {
    let base = |program: Vec<&str>, buffer: &str| {
        json!({
            "program": program,
            "regs": {"w": {"u64": "0x5"}},
            "buffers": {buffer: {"space": "global", "len": 8}},
            "read": [buffer],
        })
    };
    let answers = eval(&[
        base(vec!["L:", "L:", "mov.u64 z, w;"], "out"),
        base(vec!["mov.u32 y, w;"], "out"),
        base(vec!["mov.u64 y, w;", "st.global.u64 [out], y;"], "out"),
        base(vec!["mov.u64 z, w;"], "win+16"),
        base(vec!["mov.u64 z, w;"], "%tid.x"),
    ]);
    assert!(error_of(&answers[0]).contains("label `L` is defined twice"), "{}", answers[0]);
    assert!(error_of(&answers[1]).contains("registers of different sizes"), "{}", answers[1]);
    assert_eq!(answers[2]["out"], json!("0500000000000000"), "equal widths move: {}", answers[2]);
    assert!(error_of(&answers[3]).contains("buffer `win+16`: not a name"), "{}", answers[3]);
    assert!(error_of(&answers[4]).contains("buffer `%tid.x`: not a name"), "{}", answers[4]);
}

#[test]
fn bulk_store_from_shared_waits_on_its_bulk_group() {
    let line = json!({
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
    });
    let v = one(line);
    assert_eq!(v["dst"], json!(format!("{}{}", "00000000010000000200000003000000", "ff".repeat(16))), "{v}");
}

#[test]
fn a_program_ending_with_copies_in_flight_reads_back_unknown() {
    let line = json!({
        "program": [
            "cp.async.cg.shared.global [win], [src], 16;",
            "cp.async.commit_group;",
        ],
        "buffers": {"src": {"space": "global", "hex": hex(&ramp(16))}, "win": {"space": "shared", "len": 20, "fill": "00"}},
        "read": ["win"],
    });
    let v = one(line);
    assert_eq!(v["win"], json!(format!("{}00000000", "??".repeat(16))), "{v}");
    assert_eq!(v["allowances"], json!({"win": ["undefined"]}));
}

#[test]
fn reading_too_early_is_undefined_with_its_section() {
    let line = json!({
        "program": [
            "cp.async.ca.shared.global [win], [src], 4;",
            "cp.async.commit_group;",
            "ld.shared.u32 a, [win];",
        ],
        "buffers": {"src": {"space": "global", "len": 4}, "win": {"space": "shared", "len": 4}},
        "read": ["win"],
    });
    let e = error_of(&one(line));
    assert!(e.contains("statement 2") && e.contains("undefined") && e.contains("§9.7.9.25.1"), "{e}");
    assert!(e.contains("generic read of `win` bytes 0..4"), "errors name the buffer: {e}");
    // Writing the source of a pending copy, and a cp.async.wait_group that leaves it pending.
    let line = json!({
        "program": [
            "cp.async.ca.shared.global [win], [src], 4;",
            "cp.async.commit_group;",
            "cp.async.wait_group 1;",
            "mov.b32 v, 7;", "st.global.u32 [src], v;",
        ],
        "buffers": {"src": {"space": "global", "len": 4}, "win": {"space": "shared", "len": 4}},
        "read": ["win"],
    });
    let e = error_of(&one(line));
    assert!(e.contains("statement 4") && e.contains("write of") && e.contains("§9.7.9.25.1"), "{e}");
}

#[test]
fn a_missing_proxy_fence_is_undefined() {
    let line = json!({
        "program": [
            "mov.b32 v, 5;", "st.shared.u32 [win], v;",
            "cp.async.bulk.global.shared::cta.bulk_group [dst], [win], 16;",
        ],
        "buffers": {"win": {"space": "shared", "len": 16}, "dst": {"space": "global", "len": 16}},
        "read": ["dst"],
    });
    let e = error_of(&one(line));
    assert!(e.contains("statement 2") && e.contains("fence.proxy.async") && e.contains("§9.7.9.25.2"), "{e}");
}

#[test]
fn bad_names_and_fields_are_errors() {
    let base = |program: Value, read: Value| {
        json!({
            "program": program,
            "buffers": {"g": {"space": "global", "len": 16}, "s": {"space": "shared", "len": 16}},
            "read": read,
        })
    };
    for (line, needle) in [
        (base(json!(["ld.global.u32 a, [nowhere];"]), json!(["g"])), "unknown name `nowhere`"),
        (base(json!(["st.global.u32 [g], x;"]), json!(["g"])), "unknown name `x`"),
        (base(json!([]), json!(["h"])), "unknown buffer `h`"),
        (base(json!(["ld.global.u32 a, [s];"]), json!(["g"])), "a shared buffer"),
        (base(json!(["ld.global.u32 a, [g+2];"]), json!(["g"])), "not 4-byte aligned"),
        (base(json!(["ld.global.u32 a, [g+16];"]), json!(["g"])), "outside"),
        (base(json!(["bra back;", "back:", "bra back;"]), json!(["g"])), "backward branch"),
        (base(json!(["cp.async.bulk.global.shared::cta.bulk_group [g], [s], 12;"]), json!(["g"])), "multiple of 16"),
        (json!({"program": [], "read": [], "bogus": 1}), "unknown field \"bogus\""),
        (json!({"program": [], "buffers": {"b": {"space": "local", "len": 4}}, "read": []}), "\"space\""),
        (json!({"program": [], "buffers": {"b": {"space": "global"}}, "read": []}), "needs \"hex\" or \"len\""),
        (json!({"program": [], "buffers": {"b": {"space": "global", "hex": "0g"}}, "read": []}), "bad hex"),
    ] {
        let e = error_of(&one(line.clone()));
        assert!(e.contains(needle), "{line} -> {e} (expected {needle})");
    }
}

#[test]
fn instruction_lines_still_work_next_to_program_lines() {
    let answers = eval(&[
        json!({"instr": "cvt.rn.f16.f32", "operands": {"a": "0x3f800000"}}),
        json!({"program": ["mov.b32 v, 0x01020304;", "st.global.u32 [g], v;"], "buffers": {"g": {"space": "global", "len": 4}}, "read": ["g"]}),
    ]);
    assert_eq!(answers[0], json!({"d": "0x3c00"}));
    assert_eq!(answers[1], json!({"g": "04030201"}));
}

/// A bulk copy global → shared completing on an mbarrier, with `sz` bytes expected.
fn bulk_load(expect: u32, size: u32) -> Value {
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
        "regs": {"tx": format!("{expect:#x}"), "sz": format!("{size:#x}")},
        "buffers": {
            "src": {"space": "global", "hex": hex(&ramp(64))},
            "win": {"space": "shared", "len": 64, "align": 128, "fill": "ee"},
            "bar": {"space": "shared", "len": 8, "align": 8},
            "out": {"space": "global", "len": 8},
        },
        "read": ["win", "out", "bar"],
    })
}

/// A label on the line of an instruction, as ptxas accepts (`wait: mbarrier.try_wait…;`), is
/// the label and the instruction: the same answer as on two lines; an error after it names
/// its line (0-based, as given).
#[test]
fn a_label_on_the_line_of_an_instruction_is_a_label() {
    let two_lines = bulk_load(32, 32);
    let mut one_line = two_lines.clone();
    let program = one_line["program"].as_array_mut().expect("a program");
    let at = program.iter().position(|s| s == "wait:").expect("the label");
    program.remove(at);
    program[at] = json!(format!("wait: {}", program[at].as_str().expect("text")));
    program.push(json!("ld.shared.u32 q, [win+64];"));
    let mut fixed = one_line.clone();
    fixed["program"].as_array_mut().expect("a program").pop();
    let answers = eval(&[two_lines, fixed, one_line]);
    assert_eq!(answers[0], answers[1], "{answers:?}");
    assert!(answers[0].get("error").is_none(), "{answers:?}");
    let e = error_of(&answers[2]);
    assert!(e.contains(": statement 8 `ld.shared"), "{e}");
}

#[test]
fn a_bulk_load_on_an_mbarrier_lands_before_the_wait_returns() {
    let v = one(bulk_load(32, 32));
    assert_eq!(v["win"], json!(format!("{}{}", hex(&ramp(32)), "ee".repeat(32))), "{v}");
    assert_eq!(v["out"], json!("0c0d0e0f08090a0b"), "{v}");
    // The live mbarrier object is opaque.
    assert_eq!(v["bar"], json!("??".repeat(8)));
    assert_eq!(v["allowances"], json!({"bar": ["undefined"]}));
}

#[test]
fn a_transaction_count_that_does_not_match_is_undefined_or_a_hang() {
    let e = error_of(&one(bulk_load(16, 32)));
    assert!(e.contains("statement 5") && e.contains("undefined") && e.contains("§9.7.13.15"), "{e}");
    let e = error_of(&one(bulk_load(48, 32)));
    assert!(e.contains("statement 5") && e.contains("hang") && e.contains("tx-count 16"), "{e}");
    // Nothing expected: the arrive completes the phase before the copy lands, and the read
    // after the wait races with it.
    let mut line = bulk_load(0, 32);
    line["program"][2] = json!("mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], tx;");
    let e = error_of(&one(line.clone()));
    assert!(e.contains("statement 7") && e.contains("pending") && e.contains("§9.7.9.25.1"), "{e}");
    // The copy issued first, then a plain arrive: the phase completes under the pending copy.
    line["program"][2] = line["program"][3].clone();
    line["program"][3] = json!("mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], tx;");
    let e = error_of(&one(line));
    assert!(e.contains("statement 3") && e.contains("still pending") && e.contains("§9.7.13.15"), "{e}");
}

#[test]
fn a_wait_that_never_completes_is_a_hang() {
    let line = json!({
        "program": [
            "mbarrier.init.shared::cta.b64 [bar], 2;",
            "mbarrier.arrive.shared::cta.b64 st, [bar];",
            "again:",
            "mbarrier.try_wait.shared::cta.b64 p, [bar], st;",
            "@!p bra again;",
        ],
        "buffers": {"bar": {"space": "shared", "len": 8, "align": 8}},
        "read": [],
    });
    let e = error_of(&one(line));
    assert!(e.contains("statement 3") && e.contains("hang") && e.contains("1 pending arrivals"), "{e}");
    // A try_wait outside the loop: its result depends on timing.
    let line = json!({
        "program": ["mbarrier.init.shared::cta.b64 [bar], 1;", "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;"],
        "buffers": {"bar": {"space": "shared", "len": 8, "align": 8}},
        "read": [],
    });
    assert!(error_of(&one(line)).contains("depends on timing"));
}

#[test]
fn cp_async_mbarrier_arrive_completes_the_threads_copies() {
    let line = json!({
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
    });
    assert_eq!(one(line)["out"], json!("11223344"));
}

/// A tensor load of the tile at `coords` of `tmap` into `win` on an mbarrier, then the wait.
fn tensor_program(dim: usize, tx: u32) -> Vec<String> {
    let coords: Vec<String> = (0..dim).map(|k| format!("c{k}")).collect();
    vec![
        "mbarrier.init.shared::cta.b64 [bar], 1;".into(),
        "fence.mbarrier_init.release.cluster;".into(),
        format!("mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], {tx};"),
        format!(
            "cp.async.bulk.tensor.{dim}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [win], [tmap, {{{}}}], [bar];",
            coords.join(", ")
        ),
        "L:".into(),
        "mbarrier.try_wait.shared::cta.b64 p, [bar], st;".into(),
        "@!p bra L;".into(),
    ]
}

#[test]
fn the_issue_example_fills_an_out_of_bounds_box_with_nan() {
    // The box starts at x = 40 = dims[0]: every element is out of bounds, so the 32 × 18
    // f16 tile (1152 bytes) is the NaN fill; the rest of the window keeps its a5.
    let line = json!({
        "program": tensor_program(2, 1152),
        "threads": 1,
        "regs": {"c0": "0x00000028", "c1": "0x00000002"},
        "buffers": {
            "src": {"space": "global", "hex": hex(&ramp(1600))},
            "win": {"space": "shared", "len": 2048, "align": 1024, "fill": "a5"},
            "bar": {"space": "shared", "len": 8, "align": 8},
        },
        "tensor_maps": {"tmap": {"global": "src", "dtype": "FLOAT16", "dims": [40, 20], "strides": [80], "box": [32, 18], "element_strides": [1, 1], "interleave": "NONE", "swizzle": "64B", "l2_promotion": "NONE", "oob_fill": "NAN_REQUEST_ZERO_FMA"}},
        "read": ["win"],
    });
    let v = one(line.clone());
    assert_eq!(v["win"], json!(format!("{}{}", "??".repeat(1152), "a5".repeat(2048 - 1152))), "{v}");
    assert_eq!(v["allowances"], json!({"win": ["tma-oob-nan-fill"]}));
    // Strictly, the fill the H100 writes: the bytes f7 7f repeated.
    let v = eval_with(&["--allow-off", "tma-oob-nan-fill"], &[line]).remove(0);
    assert_eq!(v["win"], json!(format!("{}{}", "f77f".repeat(576), "a5".repeat(2048 - 1152))), "{v}");
}

fn small_map(extra: Value) -> Value {
    let mut m = json!({"global": "src", "dtype": "UINT8", "dims": [20, 4], "strides": [32], "box": [16, 2], "element_strides": [1, 1]});
    for (k, v) in extra.as_object().unwrap() {
        m[k] = v.clone();
    }
    m
}

fn small_line(map: Value, c0: u32, c1: u32) -> Value {
    json!({
        "program": tensor_program(2, 32),
        "regs": {"c0": format!("{c0:#x}"), "c1": format!("{c1:#x}")},
        "buffers": {
            "src": {"space": "global", "hex": hex(&ramp(128))},
            "win": {"space": "shared", "len": 32, "align": 128, "fill": "a5"},
            "bar": {"space": "shared", "len": 8, "align": 8},
        },
        "tensor_maps": {"tmap": map},
        "read": ["win"],
    })
}

#[test]
fn a_tensor_load_straddling_two_edges_zero_fills() {
    // Rows y = 3 (in bounds) and y = 4 (past the end); x = 8…23 with x < 20 in bounds.
    let v = one(small_line(small_map(json!({})), 8, 3));
    let mut want: Vec<u8> = (3 * 32 + 8..3 * 32 + 20).map(|b| b as u8).collect();
    want.resize(32, 0);
    assert_eq!(v["win"], json!(hex(&want)), "{v}");
    // Negative coordinates: x = -4…11 (the first 4 out of bounds), y = -1 (out), 0 (in).
    let v = one(small_line(small_map(json!({})), (-4i32) as u32, (-1i32) as u32));
    let mut want = vec![0u8; 16 + 4];
    want.extend(0u8..12);
    assert_eq!(v["win"], json!(hex(&want)), "{v}");
}

#[test]
fn a_bad_tensor_map_is_rejected_with_its_encode_rule() {
    for (extra, needle) in [
        (json!({"strides": [24]}), "encode rule"),
        (json!({"swizzle": "128B_ATOM_32B"}), "encode rule"),
        (json!({"dtype": "FLOAT17"}), "\"dtype\" = \"FLOAT17\""),
        (json!({"global": "nowhere"}), "unknown buffer `nowhere`"),
    ] {
        let e = error_of(&one(small_line(small_map(extra.clone()), 0, 0)));
        assert!(e.contains(needle) && e.contains("tensor map `tmap`"), "{extra} -> {e}");
    }
    let mut line = small_line(small_map(json!({})), 0, 0);
    line["program"][3] = json!("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [win], [nomap, {c0, c1}], [bar];");
    assert!(error_of(&one(line)).contains("unknown name `nomap`"));
}

/// `cp.reduce.async.bulk` of four shared words into four global words with `op`.
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

#[test]
fn bulk_reductions_add_integers_and_round_floats() {
    let words = |w: [u32; 4]| -> String { w.iter().map(|x| hex(&x.to_le_bytes())).collect() };
    let v = one(bulk_reduce("add.u32", [1, 0xffff_ffff, 5, 7], [2, 1, 10, 0]));
    assert_eq!(v["g"], json!(words([3, 0, 15, 7])), "{v}");
    // 1 + 2 = 3; MAX + MAX overflows to +inf; 0.5 + 0.25 = 0.75; -0 + +0 = +0.
    let v = one(bulk_reduce(
        "add.f32",
        [0x3f80_0000, 0x7f7f_ffff, 0x3f00_0000, 0x8000_0000],
        [0x4000_0000, 0x7f7f_ffff, 0x3e80_0000, 0x0000_0000],
    ));
    assert_eq!(v["g"], json!(words([0x4040_0000, 0x7f80_0000, 0x3f40_0000, 0])), "{v}");
    // Without the proxy fence the reduction reads generic writes: undefined.
    let mut line = bulk_reduce("add.u32", [0; 4], [0; 4]);
    line["program"][5] = json!("mov.b32 e, 0;");
    let e = error_of(&one(line));
    assert!(e.contains("statement 6") && e.contains("§9.7.9.25.2"), "{e}");
}

#[test]
fn copied_values_flow_through_cvt_and_prmt() {
    let line = json!({
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
        // 1.0f, 2.0f.
        "buffers": {"src": {"space": "global", "hex": "0000803f00000040"}, "win": {"space": "shared", "len": 8}, "out": {"space": "global", "len": 8}},
        "read": ["out"],
    });
    // f16 1.0 = 0x3c00, 2.0 = 0x4000; prmt 0x5140 picks bytes x0, y0, x1, y1 = 00 00 00 00.
    let v = one(line.clone());
    assert_eq!(v["out"], json!("003c004000000000"), "{v}");
    let mut line = line;
    line["program"][6] = json!("prmt.b32 z, x, y, 0x7362;");
    // Bytes x2 = 0x80, y2 = 0x00, x3 = 0x3f, y3 = 0x40.
    assert_eq!(one(line)["out"], json!("003c004080003f40"));
}

#[test]
fn st_async_lands_on_its_mbarrier() {
    let line = json!({
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
    });
    let v = one(line);
    assert_eq!(v["out"], json!("0df0feca"), "{v}");
    assert_eq!(v["win"], json!("000000000df0feca"), "{v}");
}

#[test]
fn a_tensor_store_writes_only_in_bounds_elements() {
    let line = json!({
        "program": [
            "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [tmap, {c0, c1}], [win];",
            "cp.async.bulk.commit_group;",
            "cp.async.bulk.wait_group 0;",
        ],
        "regs": {"c0": "0x8", "c1": "0x2"},
        "buffers": {
            "src": {"space": "global", "len": 128, "fill": "ee"},
            "win": {"space": "shared", "hex": hex(&ramp(32)), "align": 128},
        },
        "tensor_maps": {"tmap": small_map(json!({}))},
        "read": ["src"],
    });
    // Rows y = 2 and 3, x = 8…23 of which 8…19 are in bounds; strictly (without the H100's
    // chunk tail, allowance tma-store-oob-chunk) nothing else is written.
    let v = eval_with(&["--allow-off", "tma-store-oob-chunk"], &[line]).remove(0);
    let mut want = vec![0xeeu8; 128];
    want[2 * 32 + 8..2 * 32 + 20].copy_from_slice(&ramp(12));
    want[3 * 32 + 8..3 * 32 + 20].copy_from_slice(&ramp(28)[16..28]);
    assert_eq!(v["src"], json!(hex(&want)), "{v}");
}

#[test]
fn bulk_copies_between_shared_windows_and_multicast_to_one_cta() {
    let line = json!({
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
    });
    let v = one(line);
    assert_eq!(v["b"], json!(format!("{}{}", hex(&ramp(16)), "ab".repeat(32))), "{v}");
}

#[test]
fn wait_group_read_frees_the_source_but_not_the_destination() {
    let line = |tail: &str| {
        json!({
            "program": [
                "cp.async.bulk.global.shared::cta.bulk_group [g], [s], 16;",
                "cp.async.bulk.commit_group;",
                "cp.async.bulk.wait_group.read 0;",
                "mov.b32 v, 9;",
                tail,
            ],
            "buffers": {"s": {"space": "shared", "hex": hex(&ramp(16))}, "g": {"space": "global", "len": 16}},
            "read": ["g"],
        })
    };
    // The source may be reused; the destination is still being written, so it reads back unknown.
    let v = one(line("st.shared.u32 [s], v;"));
    assert_eq!(v["g"], json!("??".repeat(16)), "{v}");
    let e = error_of(&one(line("ld.global.u32 x, [g];")));
    assert!(e.contains("statement 4") && e.contains("§9.7.9.25.1"), "{e}");
}

#[test]
fn a_tensor_store_past_dimension_0_may_write_the_rest_of_the_chunk() {
    // u8 map, dims[0] = 20, box 16 × 2 at x = 16: x 16…19 are in bounds; the H100 also writes
    // x 20…31, the rest of their 16-byte chunk (corpus/evidence/tma-tile-stores.md).
    let line = json!({
        "program": ["cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [tmap, {c0, c1}], [win];", "cp.async.bulk.commit_group;", "cp.async.bulk.wait_group 0;"],
        "regs": {"c0": "0x10", "c1": "0x0"},
        "buffers": {"src": {"space": "global", "len": 128, "fill": "ee"}, "win": {"space": "shared", "hex": hex(&(0x10u8..0x30).collect::<Vec<u8>>()), "align": 128}},
        "tensor_maps": {"tmap": {"global": "src", "dtype": "UINT8", "dims": [20, 4], "strides": [32], "box": [16, 2], "element_strides": [1, 1]}},
        "read": ["src"],
    });
    let row = |y: usize| {
        let t = 0x10 + 16 * y as u8;
        format!("{}{}{}", "ee".repeat(16), hex(&[t, t + 1, t + 2, t + 3]), "??".repeat(12))
    };
    let v = one(line.clone());
    assert_eq!(v["src"], json!(format!("{}{}{}", row(0), row(1), "ee".repeat(64))), "{v}");
    assert_eq!(v["allowances"], json!({"src": ["tma-store-oob-chunk"]}));
    let v = eval_with(&["--allow-off", "tma-store-oob-chunk"], &[line]).remove(0);
    assert!(!v["src"].as_str().unwrap().contains("??"), "{v}");
}

#[test]
fn a_tensor_store_at_a_negative_coordinate_is_undefined() {
    let line = json!({
        "program": ["cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [tmap, {c0, c1}], [win];", "cp.async.bulk.commit_group;", "cp.async.bulk.wait_group 0;"],
        "regs": {"c0": "0xfffffff0", "c1": "0x0"},
        "buffers": {"src": {"space": "global", "len": 128, "fill": "ee"}, "win": {"space": "shared", "len": 32, "fill": "00", "align": 128}},
        "tensor_maps": {"tmap": {"global": "src", "dtype": "UINT8", "dims": [20, 4], "strides": [32], "box": [16, 2], "element_strides": [1, 1]}},
        "read": ["src"],
    });
    let v = one(line);
    assert!(v["error"].as_str().unwrap().contains("§9.7.9.25.5.1"), "{v}");
}

/// An `.im2col_no_offs` store writes the column an im2col load without offsets reads: pixel p
/// of the column (channels innermost) to W = w0 + p of the image, every channel from c0; the
/// rest of the tensor keeps its bytes. This is how an H100 writes it where both pixel-box
/// corners are 0 (corpus/findings/tma-im2col-no-offs-corner-trap.md).
#[test]
fn an_im2col_no_offs_store_writes_the_column_an_im2col_load_reads() {
    let win: Vec<u8> = (0x40u8..0x50).collect();
    let line = json!({
        "program": ["fence.proxy.async.shared::cta;", "cp.async.bulk.tensor.3d.global.shared::cta.im2col_no_offs.bulk_group [tmap, {c0, c1, c2}], [win];", "cp.async.bulk.commit_group;", "cp.async.bulk.wait_group 0;"],
        "regs": {"c0": "0x0", "c1": "0x1", "c2": "0x1"},
        "buffers": {"dst": {"space": "global", "len": 160, "fill": "ee"}, "win": {"space": "shared", "hex": hex(&win), "align": 1024}},
        "tensor_maps": {"tmap": {"global": "dst", "mode": "im2col", "dtype": "UINT8", "dims": [4, 5, 2], "strides": [16, 80], "element_strides": [1, 1, 1], "lower_corner": [0], "upper_corner": [0], "channels_per_pixel": 4, "pixels_per_column": 4}},
        "read": ["dst"],
    });
    let v = one(line);
    // Image 1 starts at byte 80; pixels W = 1…4 at 16-byte pitch, 4 channels each.
    let mut want = vec![0xeeu8; 160];
    for p in 0..4 {
        let at = 80 + (1 + p) * 16;
        want[at..at + 4].copy_from_slice(&win[p * 4..p * 4 + 4]);
    }
    assert_eq!(v["dst"], json!(hex(&want)), "{v}");
}

/// The statements of a multicast in a cluster: every CTA arms its own `bar` for the bytes it
/// gets (`size` where `maskw` names it, else none), the cluster barrier, then CTA `issuer`
/// issues `copy`, and every CTA waits for its phase 0.
fn cluster_program(size: u64, copy: &str) -> Vec<String> {
    [
        "mbarrier.init.shared::cta.b64 [bar], 1;",
        "fence.mbarrier_init.release.cluster;",
        "mov.u32 rk, %cluster_ctarank;",
        "shr.b32 mine, maskw, rk;",
        "and.b32 mine, mine, 1;",
        &format!("mul.lo.u32 tx, mine, {size};"),
        "mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], tx;",
        "barrier.cluster.arrive;",
        "barrier.cluster.wait;",
        "setp.eq.u32 lead, rk, issuer;",
        copy,
        "wait:",
        "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;",
        "@!p bra wait;",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// A multicast reaches exactly the CTAs of `ctaMask`, at the same offset in each; a shared
/// buffer reads back as its CTAs' copies in rank order (§9.7.9.25.4.1).
#[test]
fn a_multicast_writes_the_ctas_its_mask_names() {
    let copy = "@lead cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [win+16], [src], 32, [bar], mask;";
    let line = |mask: u64, issuer: u64| {
        json!({
            "program": cluster_program(32, copy),
            "threads": 1,
            "cluster": 4,
            "regs": {"mask": format!("{mask:#x}"), "maskw": format!("{mask:#x}"), "issuer": format!("{issuer:#x}")},
            "buffers": {
                "src": {"space": "global", "hex": hex(&ramp(32))},
                "win": {"space": "shared", "len": 64, "align": 128, "fill": "a5"},
                "bar": {"space": "shared", "len": 8, "align": 8}
            },
            "read": ["win"]
        })
    };
    let window = |hit: bool| {
        let mut w = vec![0xa5u8; 64];
        if hit {
            w[16..48].copy_from_slice(&ramp(32));
        }
        hex(&w)
    };
    for (mask, issuer) in [(0b1111u64, 0u64), (0b0110, 0), (0b1000, 1)] {
        let want: String = (0..4).map(|c| window(mask >> c & 1 == 1)).collect();
        assert_eq!(one(line(mask, issuer)), json!({"win": want}), "ctaMask {mask:#b} from CTA {issuer}");
    }
    // A CTA the mask leaves out that still expects the bytes never completes its phase.
    let mut hang = line(0b0110, 0);
    hang["regs"]["maskw"] = json!("0x7");
    assert!(error_of(&one(hang)).contains("hang"));
    // A mask naming a CTA outside the cluster is undefined.
    let e = error_of(&one(line(0b10000, 0)));
    assert!(e.contains("undefined") && e.contains("§9.7.9.25.4.1"), "{e}");
}

/// `mapa` names another CTA's shared memory, which `.shared::cluster` destinations may write
/// and `.shared::cta` accesses may not (§9.7.9.23, §5.1.5).
#[test]
fn mapa_reaches_another_cta_only_through_shared_cluster() {
    let program = |last: &str| -> Vec<String> {
        let mut p: Vec<String> = [
            "mbarrier.init.shared::cta.b64 [bar], 1;",
            "fence.mbarrier_init.release.cluster;",
            "mov.u32 rk, %cluster_ctarank;",
            "mul.lo.u32 tx, rk, 4;",
            "mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], tx;",
            "barrier.cluster.arrive;",
            "barrier.cluster.wait;",
            "setp.eq.u32 lead, rk, 0;",
            "mapa.shared::cluster.u32 rwin, win, 1;",
            "mapa.shared::cluster.u32 rbar, bar, 1;",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        p.push(last.to_string());
        p.extend(["wait:", "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;", "@!p bra wait;"].map(String::from));
        p
    };
    let line = |last: &str| {
        json!({
            "program": program(last),
            "threads": 1,
            "cluster": 2,
            "regs": {"v": "0x11223344"},
            "buffers": {
                "win": {"space": "shared", "len": 8, "align": 16, "fill": "a5"},
                "bar": {"space": "shared", "len": 8, "align": 8}
            },
            "read": ["win"]
        })
    };
    let good = one(line("@lead st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [rwin+4], v, [rbar];"));
    assert_eq!(good, json!({"win": "a5a5a5a5a5a5a5a5a5a5a5a544332211"}));
    let e = error_of(&one(line("@lead st.shared::cta.u32 [rwin+4], v;")));
    assert!(e.contains("undefined") && e.contains("CTA 1"), "{e}");
    // The mbarrier must be in the destination's CTA.
    let e = error_of(&one(line("@lead st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [rwin+4], v, [bar];")));
    assert!(e.contains("same CTA"), "{e}");
    // Without the cluster barrier CTA 1's mbarrier init need not be visible to CTA 0 yet.
    let mut early = line("@lead st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [rwin+4], v, [rbar];");
    let kept: Vec<Value> = early["program"]
        .as_array()
        .expect("statements")
        .iter()
        .filter(|s| !s.as_str().unwrap_or_default().starts_with("barrier.cluster"))
        .cloned()
        .collect();
    early["program"] = Value::Array(kept);
    let e = error_of(&one(early));
    assert!(e.contains("undefined") && e.contains("no barrier.cluster.wait"), "{e}");
    let mut big = line("@lead st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [rwin+4], v, [rbar];");
    big["cluster"] = json!(9);
    assert!(error_of(&one(big)).contains("\"cluster\" must be an integer 1…8"));
}

/// `tensormap.replace` (§9.7.9.26) on a tensor-map object in global memory: each field as the
/// tile shows it (bytes by hand: row r of the ramp is 16r … 16r + 15), the fences §9.7.13.4
/// asks for, and a replaced map the driver would not encode.
#[test]
fn tensormap_replace_changes_what_the_object_loads() {
    let rows = |from: u8, n: usize, width: usize, stride: usize| -> String {
        (0..n)
            .flat_map(|r| (0..width).map(move |i| from as usize + r * stride + i))
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    let pad = |s: String| format!("{s}{}", "a5".repeat(64 - s.len() / 2));
    let r = "tensormap.replace.tile";
    let cases: Vec<(Vec<String>, u32, String)> = vec![
        (vec![], 32, pad(rows(16, 2, 16, 16))),
        // Box dimension 1 of 1 row.
        (vec![format!("{r}.box_dim.global.b1024.b32 [gmap], 1, 1;")], 16, pad(rows(16, 1, 16, 16))),
        // Three rows of the tensor: the box's second row is past the end, zero filled.
        (
            vec![format!("{r}.global_dim.global.b1024.b32 [gmap], 1, 2;")],
            32,
            pad(format!("{}{}", rows(16, 1, 16, 16), "00".repeat(16))),
        ),
        // Rows 32 bytes apart (globalStrides[0], the stride of dimension 1) and every second
        // row of the box (element stride 2 of dimension 1): one row, at byte 32.
        (
            vec![
                format!("{r}.global_stride.global.b1024.b64 [gmap], 0, 32;"),
                format!("{r}.element_stride.global.b1024.b32 [gmap], 1, 2;"),
            ],
            16,
            pad(rows(32, 1, 16, 16)),
        ),
        // Another tensor: the same box of src2.
        (
            vec!["mov.b64 a, src2;".into(), format!("{r}.global_address.global.b1024.b64 [gmap], a;")],
            32,
            pad(rows(0x90, 2, 16, 16)),
        ),
    ];
    let lines: Vec<Value> = cases
        .iter()
        .map(|(rep, tx, _)| common::replaced_line(&rep.iter().map(String::as_str).collect::<Vec<_>>(), true, *tx))
        .collect();
    for (out, (rep, _, want)) in eval(&lines).iter().zip(&cases) {
        assert_eq!(out["win"].as_str(), Some(want.as_str()), "{rep:?}: {out}");
    }
    // Without the fences the tensormap proxy may still see the old map.
    let e = error_of(&one(common::replaced_line(&[&format!("{r}.box_dim.global.b1024.b32 [gmap], 1, 1;")], false, 16)));
    assert!(e.contains("undefined") && e.contains("fence.proxy.tensormap") && e.contains("§9.7.13.4"), "{e}");
    // A box of 0 rows is no map the driver encodes.
    let e = error_of(&one(common::replaced_line(&[&format!("{r}.box_dim.global.b1024.b32 [gmap], 1, 0;")], true, 16)));
    assert!(e.contains("undefined") && e.contains("encode rule"), "{e}");
    // Only an object's first byte names it; a map's own buffer is no object.
    let e = error_of(&one(common::replaced_line(&[&format!("{r}.box_dim.global.b1024.b32 [src], 1, 1;")], true, 16)));
    assert!(e.contains("not the start of a tensor-map object"), "{e}");
    // A buffer's address is a value for `.global_address` only: as a stride it is unknown
    // here (an address, not a number).
    let e = error_of(&one(common::replaced_line(
        &["mov.b64 a, src2;", &format!("{r}.global_stride.global.b1024.b64 [gmap], 0, a;")],
        true,
        16,
    )));
    assert!(e.contains("holds an address"), "{e}");
    // An acquire before the release acquires nothing: the use is undefined; acquiring again
    // after the release makes it defined.
    let early = |again: bool| {
        let mut l = common::replaced_line(&[], false, 16);
        let mut program = vec![
            format!("{r}.box_dim.global.b1024.b32 [gmap], 1, 1;"),
            "fence.proxy.tensormap::generic.acquire.gpu [gmap], 128;".into(),
            "fence.proxy.tensormap::generic.release.gpu;".into(),
        ];
        if again {
            program.push("fence.proxy.tensormap::generic.acquire.gpu [gmap], 128;".into());
        }
        let rest: Vec<Value> = l["program"].as_array().unwrap().clone();
        program.extend(rest.iter().map(|v| v.as_str().unwrap().to_string()));
        l["program"] = json!(program);
        l
    };
    assert!(error_of(&one(early(false))).contains("§9.7.13.4"));
    assert_eq!(one(early(true))["win"].as_str().map(|w| &w[..32]), Some("101112131415161718191a1b1c1d1e1f"));
    // A store into the object is an error; so is an object that is also a tensor.
    let mut l = common::replaced_line(&["mov.b32 v, 7;", "st.global.u32 [gmap+4], v;"], true, 32);
    assert!(error_of(&one(l.clone())).contains("into a tensor-map object"));
    l["tensor_maps"]["tmap"]["object"] = json!("src");
    assert!(error_of(&one(l)).contains("no other map's object or tensor"));
}

/// Interleaved maps (corpus/evidence/tma-interleave.md, as an H100 does it): dimension 0
/// counts 16-byte units whatever the element type — boxDim[0] = 8 FLOAT16 elements is 8 units
/// of 16 bytes, coordinate c0 = 2 starts 32 bytes in, globalDim[0] = 4 units ends the row at
/// 64 bytes (the rest zero-filled) — and rows are packed. A store writes the in-bounds units
/// only. A bad map names its encode rule (boxDim[0] × 2 bytes = 8, not a multiple of 16).
#[test]
fn interleaved_maps_count_dimension_0_in_16_byte_units() {
    let src = ramp(3 * 128);
    let load = json!({
        "program": [
            "mbarrier.init.shared::cta.b64 [bar], 1;",
            "mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], 256;",
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [win], [tmap, {c0, c1, c2}], [bar];",
            "L:", "mbarrier.try_wait.shared::cta.b64 p, [bar], st;", "@!p bra L;"
        ],
        "regs": {"c0": "0x2", "c1": "0x1", "c2": "0x1"},
        "buffers": {"src": {"space": "global", "hex": hex(&src)}, "win": {"space": "shared", "len": 256, "align": 1024, "fill": "a5"}, "bar": {"space": "shared", "len": 8, "align": 8}},
        "tensor_maps": {"tmap": {"global": "src", "dtype": "FLOAT16", "dims": [4, 2, 3], "strides": [64, 128], "box": [8, 1, 2], "element_strides": [1, 1, 1], "interleave": "16B", "swizzle": "NONE", "l2_promotion": "NONE", "oob_fill": "NONE"}},
        "read": ["win"],
    });
    let v = one(load);
    // Row (c1 = 1, c2 = 1) starts at 64 + 128 = 192; units 2, 3 are in bounds, 4…9 zero.
    let mut want = Vec::new();
    for row in [192usize, 320] {
        want.extend_from_slice(&src[row + 32..row + 64]);
        want.extend(std::iter::repeat_n(0u8, 96));
    }
    assert_eq!(v["win"], json!(hex(&want)), "{v}");

    let win: Vec<u8> = (0..=255u8).collect();
    let store = json!({
        "program": ["fence.proxy.async.shared::cta;", "cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [tmap, {c0, c1, c2}], [win];", "cp.async.bulk.commit_group;", "cp.async.bulk.wait_group 0;"],
        "regs": {"c0": "0x2", "c1": "0x1", "c2": "0x1"},
        "buffers": {"dst": {"space": "global", "len": 384, "fill": "ee"}, "win": {"space": "shared", "hex": hex(&win), "align": 1024}},
        "tensor_maps": {"tmap": {"global": "dst", "dtype": "FLOAT16", "dims": [4, 2, 3], "strides": [64, 128], "box": [8, 1, 2], "element_strides": [1, 1, 1], "interleave": "16B", "swizzle": "NONE", "l2_promotion": "NONE", "oob_fill": "NONE"}},
        "read": ["dst"],
    });
    let v = one(store);
    let mut want = vec![0xeeu8; 384];
    want[224..256].copy_from_slice(&win[0..32]);
    want[352..384].copy_from_slice(&win[128..160]);
    assert_eq!(v["dst"], json!(hex(&want)), "{v}");

    let mut bad = load_line_with_box0(4);
    bad["tensor_maps"]["tmap"]["interleave"] = json!("16B");
    assert!(error_of(&one(bad)).contains("box-inner-bytes"));
}

/// A one-thread interleaved FLOAT16 load line whose box has `box0` elements along dimension 0.
fn load_line_with_box0(box0: u32) -> Value {
    json!({
        "program": [
            "mbarrier.init.shared::cta.b64 [bar], 1;",
            "mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], 64;",
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [win], [tmap, {c0, c0, c0}], [bar];",
            "L:", "mbarrier.try_wait.shared::cta.b64 p, [bar], st;", "@!p bra L;"
        ],
        "regs": {"c0": "0x0"},
        "buffers": {"src": {"space": "global", "len": 384, "fill": "11"}, "win": {"space": "shared", "len": 256, "align": 1024, "fill": "a5"}, "bar": {"space": "shared", "len": 8, "align": 8}},
        "tensor_maps": {"tmap": {"global": "src", "dtype": "FLOAT16", "dims": [4, 2, 3], "strides": [64, 128], "box": [box0, 1, 2], "element_strides": [1, 1, 1], "interleave": "NONE", "swizzle": "NONE", "l2_promotion": "NONE", "oob_fill": "NONE"}},
        "read": ["win"],
    })
}

/// 1,024 threads, each issuing `groups` 4-byte `cp.async` copies into its own words of `win`,
/// one group each, none waited for.
fn copies_in_flight(groups: usize) -> Value {
    let mut program = vec![
        "mov.u32 t, %tid.x;".to_string(),
        "shl.b32 o, t, 2;".into(),
        "mov.u32 w, win;".into(),
        "add.u32 w, w, o;".into(),
    ];
    for _ in 0..groups {
        program.push("cp.async.ca.shared.global [w], [src], 4;".into());
        program.push("cp.async.commit_group;".into());
        program.push("add.u32 w, w, 4096;".into());
    }
    json!({
        "program": program,
        "threads": 1024,
        "buffers": {"src": {"space": "global", "len": 4}, "win": {"space": "shared", "len": 4096 * groups.min(40)}},
        "read": ["src"],
    })
}

/// Issue 28: one line within the documented limits (a 1 GiB buffer; `cluster: 8` with a 1 GiB
/// shared buffer; 64 buffers of 1 GiB) aborted the whole co-process, and the good lines before
/// and after it got no answer; 1,024 threads × 200 `cp.async` groups ran for over 500 s. Now
/// each is an error for its own line, found before anything is allocated (or, for the copies
/// in flight, at the interpreter's bound), and the other lines are answered.
#[test]
fn lines_over_the_limits_are_errors_for_themselves_only() {
    let good = json!({
        "program": ["ld.global.u32 a, [src];", "st.global.u32 [dst], a;"],
        "buffers": {"src": {"space": "global", "hex": "01020304"}, "dst": {"space": "global", "len": 4}},
        "read": ["dst"],
    });
    let gib = 1u64 << 30;
    let big = |space: &str, len: u64, cluster: u32| {
        json!({
            "program": ["ld.global.u32 a, [src];", "st.global.u32 [dst], a;"],
            "cluster": cluster,
            "buffers": {"src": {"space": "global", "hex": "01020304"}, "dst": {"space": "global", "len": 4},
                        "big": {"space": space, "len": len}},
            "read": ["dst"],
        })
    };
    let mut many = json!({
        "program": ["ld.global.u32 a, [b0];", "st.global.u32 [b1], a;"],
        "buffers": {},
        "read": ["b1"],
    });
    for k in 0..64 {
        many["buffers"][format!("b{k}")] = json!({"space": "global", "len": 1 << 20});
    }
    let mut over = many.clone();
    over["buffers"]["b64"] = json!({"space": "global", "len": 1});
    let lines = [
        good.clone(),
        big("global", gib, 1),
        big("shared", gib, 8),
        big("shared", 228 * 1024, 1),
        many.clone(),
        over,
        copies_in_flight(200),
        copies_in_flight(40),
        good,
    ];
    let t = std::time::Instant::now();
    let v = eval(&lines);
    assert!(t.elapsed() < std::time::Duration::from_secs(120), "{:?}", t.elapsed());
    assert_eq!(v[0]["dst"], json!("01020304"), "{}", v[0]);
    assert!(error_of(&v[1]).contains("line 2: buffer `big`: \"len\" must be an integer ≤ 2^26"), "{}", v[1]);
    assert!(error_of(&v[2]).contains("line 3: buffer `big`"), "{}", v[2]);
    assert!(error_of(&v[3]).contains("line 4: ") && error_of(&v[3]).contains("at most 232448 (227 KiB)"), "{}", v[3]);
    assert_eq!(v[4]["b1"], json!("00".repeat(1 << 20)), "64 MiB in all is within the limit");
    assert!(error_of(&v[5]).contains("line 6: ") && error_of(&v[5]).contains("at most 67108864 (64 MiB)"), "{}", v[5]);
    assert!(
        error_of(&v[6]).contains("line 7: ") && error_of(&v[6]).contains("a program may run at most 131072"),
        "{}",
        v[6]
    );
    assert!(
        error_of(&v[7]).contains("line 8: ")
            && error_of(&v[7]).contains("more than 32768 asynchronous operations in flight"),
        "{}",
        v[7]
    );
    assert_eq!(v[8]["dst"], json!("01020304"), "{}", v[8]);
}

/// The statements of a remote exchange in a cluster of 2 with 2 threads per CTA: every thread
/// stores `0x10 + rank` into its word of the peer's `win` with `st.shared::cluster` (address
/// from `mapa`), then `arrive` on the peer's mbarrier (`rb`); every thread waits with `wait`
/// and thread 0 copies the first 8 bytes of its own `win` to its CTA's 8 bytes of `out`.
fn remote_exchange(arrive: &str, wait: &str) -> Value {
    let program: Vec<String> = [
        "mov.u32 rk, %cluster_ctarank;",
        "mov.u32 tid, %tid.x;",
        "setp.eq.u32 lead, tid, 0;",
        "@lead mbarrier.init.shared::cta.b64 [bar], 2;",
        "fence.mbarrier_init.release.cluster;",
        "barrier.cluster.arrive;",
        "barrier.cluster.wait;",
        "xor.b32 pr, rk, 1;",
        "mapa.shared::cluster.u32 rw, win, pr;",
        "mapa.shared::cluster.u32 rb, bar, pr;",
        "shl.b32 o, tid, 2;",
        "add.u32 a, rw, o;",
        "add.u32 v, rk, 0x10;",
        "st.shared::cluster.u32 [a], v;",
        arrive,
        &format!("w: mbarrier.try_wait.parity{wait}.shared::cta.b64 p, [bar], 0;"),
        "@!p bra w;",
        "ld.shared.v2.u32 {x, y}, [win];",
        "mul.wide.u32 oo, rk, 8;",
        "mov.u64 d, out;",
        "add.u64 d, d, oo;",
        "@lead st.global.v2.u32 [d], {x, y};",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    json!({
        "program": program,
        "threads": 2,
        "cluster": 2,
        "buffers": {
            "win": {"space": "shared", "len": 8, "align": 16, "fill": "a5"},
            "bar": {"space": "shared", "len": 8, "align": 8},
            "out": {"space": "global", "len": 16}
        },
        "read": ["out", "win"]
    })
}

/// A remote `mbarrier.arrive` with release at `.cluster` scope and a wait that acquires at
/// `.cluster` scope order the peer's `st.shared::cluster` before the load (PTX ISA 9.0 §8.7):
/// CTA 0 reads CTA 1's 0x11s, CTA 1 CTA 0's 0x10s. Without that ordering the same exchange
/// is a data race, an error naming §8.7.1.
#[test]
fn remote_stores_and_a_remote_arrive_order_the_cluster() {
    let arrive = "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [rb];";
    let good = one(remote_exchange(arrive, ".acquire.cluster"));
    assert_eq!(good, json!({"out": "11000000110000001000000010000000", "win": "11000000110000001000000010000000"}));
    for (arrive, wait) in [
        (arrive, ""),
        ("mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [rb];", ".acquire.cluster"),
        ("mbarrier.arrive.shared::cluster.b64 _, [rb];", ".acquire.cluster"),
    ] {
        let e = error_of(&one(remote_exchange(arrive, wait)));
        assert!(e.contains("undefined") && e.contains("§8.7.1") && e.contains("`win`"), "{arrive} {wait}: {e}");
    }
    // A remote load after the cluster barrier reads the peer's bytes; a .shared::cta access to
    // the peer's memory stays undefined.
    let mut line = remote_exchange(arrive, ".acquire.cluster");
    let program: Vec<Value> = [
        "mov.u32 rk, %cluster_ctarank;",
        "mov.u32 tid, %tid.x;",
        "shl.b32 o, tid, 2;",
        "mov.u32 own, win;",
        "add.u32 own, own, o;",
        "add.u32 v, rk, 0x20;",
        "st.shared.u32 [own], v;",
        "barrier.cluster.arrive;",
        "barrier.cluster.wait;",
        "xor.b32 pr, rk, 1;",
        "mapa.shared::cluster.u32 rw, win, pr;",
        "add.u32 a, rw, o;",
        "ld.shared::cluster.u32 x, [a];",
        "shl.b32 k, rk, 1;",
        "add.u32 k, k, tid;",
        "mul.wide.u32 kk, k, 4;",
        "mov.u64 d, out;",
        "add.u64 d, d, kk;",
        "st.global.u32 [d], x;",
    ]
    .iter()
    .map(|s| json!(s))
    .collect();
    line["program"] = Value::Array(program);
    let got = one(line.clone());
    assert_eq!(got["out"], json!("21000000210000002000000020000000"), "{got}");
    line["program"][12] = json!("ld.shared::cta.u32 x, [a];");
    let e = error_of(&one(line));
    assert!(e.contains("undefined") && e.contains("CTA 1"), "{e}");
}
