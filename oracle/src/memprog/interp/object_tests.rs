//! Tensor-map objects in shared memory (§9.7.9.26 `.shared::cta`, §9.7.13.16): a global object
//! copied whole into a shared buffer by `cp.async.bulk`, replaced there, copied back to a
//! global buffer and released by `tensormap.cp_fenceproxy`, acquired, then loaded through;
//! against bytes computed by hand, and each misuse an error that says what to do.

use std::collections::BTreeMap;

use crate::isa::Target;
use crate::memory::tensor_map::{Interleave, L2Promotion, MapMode, OobFill, Swizzle, TensorDataType, TensorMap};
use crate::memprog::{BufferSource, BufferSpace, Init, MemError, MemSource, StmtError, TensorMapSource};
use crate::semantics::{Allowance, Allowances};

/// The statements that copy the object `gmap` into `smap` on phase 0 of `bar`.
const COPY_IN: [&str; 7] = [
    "mbarrier.init.shared::cta.b64 [bar], 1;",
    "fence.mbarrier_init.release.cluster;",
    "mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], 128;",
    "fence.proxy.async.global;",
    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [smap], [gmap], 128, [bar];",
    "L0: mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;",
    "@!p bra L0;",
];

/// `cp_fenceproxy` of `smap` to `dst` at `.gpu` scope.
fn cp_fenceproxy(dst: &str) -> String {
    format!(
        "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [{dst}], [smap], 128;"
    )
}

/// The load of the box at (0, 1) through `map` into `win`, expecting `tx` bytes, on phase 1.
fn load_through(map: &str, tx: u32) -> Vec<String> {
    vec![
        format!("mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], {tx};"),
        format!("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [win], [{map}, {{c0, c1}}], [bar];"),
        "L1: mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 1;".into(),
        "@!p bra L1;".into(),
    ]
}

/// A program of `threads` threads on sm_90a over a 16 × 4 UINT8 ramp `src` (0x00…0x3f, rows of
/// 16), its map `tmap` (box 16 × 2) whose object is `gmap`, a blank 128-byte global buffer
/// `gout`, the shared buffers `smap` (128 bytes), `win` (64 bytes of a5) and `bar`; `c0 = 0`,
/// `c1 = 1` (where a load uses them). `win` comes back.
fn source(threads: u32, statements: Vec<String>) -> MemSource {
    let buffer = |name: &str, space, init, align| BufferSource { name: name.into(), space, init, align };
    let mut regs = BTreeMap::new();
    if statements.iter().any(|l| l.contains("{c0, c1}")) {
        regs.insert("c0".to_string(), 0u64.into());
        regs.insert("c1".to_string(), 1u64.into());
    }
    MemSource {
        target: Target::parse("sm_90a").unwrap(),
        threads,
        cluster: 1,
        statements,
        regs,
        buffers: vec![
            buffer("src", BufferSpace::Global, Init::Hex((0..64u8).map(|b| format!("{b:02x}")).collect()), 256),
            buffer("gmap", BufferSpace::Global, Init::Fill { len: 128, byte: None }, 128),
            buffer("gout", BufferSpace::Global, Init::Fill { len: 128, byte: None }, 128),
            buffer("smap", BufferSpace::Shared, Init::Fill { len: 128, byte: None }, 128),
            buffer("win", BufferSpace::Shared, Init::Fill { len: 64, byte: Some(0xa5) }, 128),
            buffer("bar", BufferSpace::Shared, Init::Fill { len: 8, byte: None }, 8),
        ],
        tensor_maps: vec![TensorMapSource {
            name: "tmap".into(),
            global: "src".into(),
            global_offset: 0,
            map: TensorMap {
                mode: MapMode::Tiled,
                dtype: TensorDataType::Uint8,
                global_address: 0,
                dims: vec![16, 4],
                strides: vec![16],
                box_dims: vec![16, 2],
                element_strides: vec![1, 1],
                interleave: Interleave::None,
                swizzle: Swizzle::None,
                l2_promotion: L2Promotion::None,
                oob_fill: OobFill::None,
            },
            object: Some("gmap".into()),
        }],
        read: vec!["win".into()],
    }
}

/// Runs the program with every allowance but `cp-fenceproxy-whole-warp` (the spec's reading:
/// the whole object is copied whatever the warp's size; these tests are about the model).
fn run(threads: u32, statements: Vec<String>) -> Result<String, StmtError> {
    let mut spec = Allowances::all();
    spec.disable(Allowance::CpFenceproxyWholeWarp);
    run_under(threads, statements, &spec)
}

fn run_under(threads: u32, statements: Vec<String>, allow: &Allowances) -> Result<String, StmtError> {
    let p = source(threads, statements).build().unwrap();
    Ok(super::run(&p, allow)?[4].to_hex())
}

/// The object copied into shared memory, `middle` run on it, copied back to `dst`, acquired,
/// then the box loaded through `dst` expecting `tx` bytes.
fn flow(middle: &[&str], dst: &str, tx: u32) -> Vec<String> {
    let mut s: Vec<String> = COPY_IN.iter().map(|s| s.to_string()).collect();
    s.extend(middle.iter().map(|s| s.to_string()));
    s.push(cp_fenceproxy(dst));
    s.push(format!("fence.proxy.tensormap::generic.acquire.gpu [{dst}], 128;"));
    s.extend(load_through(dst, tx));
    s
}

/// `n` bytes of the ramp from `from`, then a5 up to 64 bytes.
fn ramp(from: u8, n: u8) -> String {
    let mut s: String = (from..from + n).map(|b| format!("{b:02x}")).collect();
    s.push_str(&"a5".repeat(64 - usize::from(n)));
    s
}

fn error(r: Result<String, StmtError>) -> MemError {
    r.expect_err("an error").error
}

/// Without a replacement, the object copied back (to its own buffer or a blank one) loads
/// rows 1 and 2; a box height of 1 replaced in shared memory loads row 1 only, and the
/// replaced field is what the copy back carries, not what `gmap` holds.
#[test]
fn a_shared_object_replaced_and_copied_back_loads_as_replaced() {
    assert_eq!(run(1, flow(&[], "gmap", 32)).unwrap(), ramp(0x10, 32));
    assert_eq!(run(1, flow(&[], "gout", 32)).unwrap(), ramp(0x10, 32));
    let box1 = "tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [smap], 1, 1;";
    assert_eq!(run(1, flow(&[box1], "gout", 16)).unwrap(), ramp(0x10, 16));
    // `gmap` itself is unchanged: loading through it after the copy back to `gout` still
    // moves two rows.
    let mut s = flow(&[box1], "gout", 16);
    s.push("fence.proxy.tensormap::generic.acquire.gpu [gmap], 128;".into());
    s.extend(load_through("gmap", 32).into_iter().map(|l| l.replace("L1", "L2").replace("], 1;", "], 0;")));
    assert_eq!(run(1, s).unwrap(), ramp(0x10, 32));
}

/// The statements of a copy back to `gout` by every thread of the CTA, thread 0 doing the
/// rest, loading one row.
fn whole_warp_flow() -> Vec<String> {
    let mut s: Vec<String> = vec!["mov.u32 tid, %tid.x;".into(), "setp.eq.u32 lead, tid, 0;".into()];
    let lead = |l: &str| {
        if l.starts_with('L') || l.starts_with('@') || l.starts_with("fence") {
            l.to_string()
        } else {
            format!("@lead {l}")
        }
    };
    s.extend(COPY_IN.iter().map(|l| lead(l)));
    s.push(
        "tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [smap], 1, 1;".replace("tensormap", "@lead tensormap"),
    );
    s.push("bar.sync 0;".into());
    s.push(cp_fenceproxy("gout"));
    s.push("fence.proxy.tensormap::generic.acquire.gpu [gout], 128;".into());
    s.extend(load_through("gout", 16).iter().map(|l| lead(l)));
    s
}

/// Two threads of one warp execute `cp_fenceproxy` together; each acquires, then thread 0
/// loads.
#[test]
fn every_thread_of_the_warp_copies_back_together() {
    let mut s = whole_warp_flow();
    let out = run(2, s.clone());
    assert_eq!(out.unwrap(), ramp(0x10, 16));
    // Only thread 0 copying back breaks `.sync.aligned`.
    let n = s.iter().position(|l| l.starts_with("tensormap.cp_fenceproxy")).unwrap();
    s[n] = format!("@lead {}", s[n]);
    let e = error(run(2, s));
    assert!(matches!(&e, MemError::Undefined(m) if m.contains(".sync.aligned")), "{e}");
}

/// Under `cp-fenceproxy-whole-warp` (on by default) a warp of fewer than 32 threads copying
/// back is undefined (ptxas copies a word per lane; an H200 traps on the copy's use), naming
/// the allowance; a whole warp copies as the spec says, and so does the first warp of a CTA
/// of 40 threads, while its second (8 threads) would not.
#[test]
fn a_warp_of_fewer_than_32_threads_copying_back_is_undefined_under_its_allowance() {
    let all = Allowances::all();
    for threads in [1, 2, 31] {
        let e = run_under(threads, whole_warp_flow(), &all).expect_err("undefined").error;
        assert!(
            matches!(&e, MemError::Undefined(m) if m.contains("cp-fenceproxy-whole-warp") && m.contains(&format!("warp of {threads} threads"))),
            "{threads}: {e}"
        );
    }
    assert_eq!(run_under(32, whole_warp_flow(), &all).unwrap(), ramp(0x10, 16));
    let mut first_warp = whole_warp_flow();
    first_warp.insert(2, "setp.lt.u32 w0, tid, 32;".into());
    let n = first_warp.iter().position(|l| l.starts_with("tensormap.cp_fenceproxy")).unwrap();
    first_warp[n] = format!("@w0 {}", first_warp[n]);
    assert_eq!(run_under(40, first_warp.clone(), &all).unwrap(), ramp(0x10, 16));
    first_warp[n] = first_warp[n].replace("@w0 ", "");
    let e = run_under(40, first_warp, &all).expect_err("undefined").error;
    assert!(matches!(&e, MemError::Undefined(m) if m.contains("warp of 8 threads")), "{e}");
}

/// Each misuse is an error naming the rule: no acquire after the copy back, a shared object
/// as a copy's map, a write into it, a copy of part of an object, `cp_fenceproxy` from a buffer
/// that holds no object, an asynchronous copy of a replaced global object without
/// `fence.proxy.async`.
#[test]
fn misuses_of_shared_objects_are_errors_that_say_what_to_do() {
    let mut no_acquire = flow(&[], "gout", 32);
    no_acquire.retain(|l| !l.contains("acquire"));
    let e = error(run(1, no_acquire));
    assert!(matches!(&e, MemError::Undefined(m) if m.contains("§9.7.13.4")), "{e}");

    let mut shared_map: Vec<String> = COPY_IN.iter().map(|s| s.to_string()).collect();
    shared_map.extend(load_through("smap", 32));
    let e = error(run(1, shared_map));
    assert!(matches!(&e, MemError::Undefined(m) if m.contains("tensormap.cp_fenceproxy it to global memory")), "{e}");

    let e = error(run(1, flow(&["mov.u32 v, 7;", "st.shared.u32 [smap+4], v;"], "gout", 32)));
    assert!(matches!(&e, MemError::Unsupported(m) if m.contains("a write into a tensor-map object")), "{e}");

    let half: Vec<String> =
        COPY_IN.iter().map(|s| s.replace("[gmap], 128", "[gmap], 64").replace("], 128;", "], 64;")).collect();
    let e = error(run(1, half));
    assert!(matches!(&e, MemError::Unsupported(m) if m.contains("opaque") && m.contains("64 bytes")), "{e}");

    let e = error(run(1, vec![cp_fenceproxy("gout")]));
    assert!(matches!(&e, MemError::Undefined(m) if m.contains("not a tensor-map object in shared memory")), "{e}");

    let mut unfenced = vec!["tensormap.replace.tile.box_dim.global.b1024.b32 [gmap], 1, 1;".to_string()];
    unfenced.extend(COPY_IN.iter().filter(|l| !l.starts_with("fence.proxy.async")).map(|s| s.to_string()));
    let e = error(run(1, unfenced));
    assert!(e.to_string().contains("fence.proxy.async"), "{e}");
}
