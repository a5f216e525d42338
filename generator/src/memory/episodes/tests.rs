//! Tests of the memory-program generator: protocol-correct on thousands of seeds, every
//! promised family and edge generated, knobs obeyed, deterministic per seed.

use super::*;
use crate::memory::AsyncConfig;
use oracle::memory::tensor_map::{Interleave, MapMode};
use oracle::semantics::Allowances;

fn target() -> Target {
    "sm_90".parse().expect("sm_90 is a target")
}

/// The oracle's verdict on the program of `seed`: `Err` with the program when it does not
/// build or run.
fn check(seed: u64, cfg: &AsyncConfig) -> Result<(), String> {
    let src = generate_seeded(seed, cfg, &target());
    let show = || format!("seed {seed}:\n{}", src.statements.join("\n"));
    let p = src.build().map_err(|e| format!("{}\nbuild: {e}", show()))?;
    oracle::memprog::interp::run(&p, &Allowances::all()).map_err(|e| format!("{}\nrun: {e}", show()))?;
    if !crate::memory::minimize::protocol_correct(&src, &Allowances::all()) {
        return Err(format!("{}\na write of a read-back buffer is still pending at the end", show()));
    }
    oracle::memprog::ptx::module(&[&p]).map_err(|e| format!("{}\nprint: {e}", show()))?;
    Ok(())
}

/// Protocol-correct by construction: thousands of seeds build and run on the oracle with
/// no parse error, protocol error, undefined operation or hang, and print as PTX.
#[test]
fn thousands_of_seeds_are_protocol_correct() {
    let cfg = AsyncConfig::default();
    let bad: Vec<String> = (0..3000u64).filter_map(|s| check(s, &cfg).err()).collect();
    assert!(bad.is_empty(), "{} of 3000 programs fail; the first:\n{}", bad.len(), bad[0]);
}

/// Later targets (their own cvt, prmt and reduction forms) too.
#[test]
fn later_targets_are_protocol_correct_too() {
    let cfg = AsyncConfig::default();
    for t in ["sm_90a", "sm_100a"] {
        let target: Target = t.parse().expect("a target");
        let bad: Vec<String> = (0..300u64)
            .filter_map(|seed| {
                let src = generate_seeded(seed, &cfg, &target);
                match src.build() {
                    Err(e) => Some(format!("{t} seed {seed}: build: {e}")),
                    Ok(p) => oracle::memprog::interp::run(&p, &Allowances::all())
                        .err()
                        .map(|e| format!("{t} seed {seed}: {e}")),
                }
            })
            .collect();
        assert!(bad.is_empty(), "{} failures; the first: {}", bad.len(), bad[0]);
    }
}

/// Every kind of episode and edge the module documentation promises turns up.
#[test]
fn every_family_and_edge_is_generated() {
    let cfg = AsyncConfig { im2col: true, ..AsyncConfig::default() };
    // 800: one program in eight is a single CTA (`multicast`, `cluster` and `remote` all off),
    // where `tensormap.replace` runs.
    let programs: Vec<MemSource> = (0..800u64).map(|s| generate_seeded(s, &cfg, &target())).collect();
    let text: String = programs.iter().flat_map(|p| p.statements.iter()).map(|s| format!("{s}\n")).collect();
    for needle in [
        "cp.async.bulk.tensor.1d.",
        "cp.async.bulk.tensor.2d.",
        "cp.async.bulk.tensor.3d.",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes",
        "cp.async.bulk.global.shared::cta.bulk_group",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.bf16",
        "cp.async.cg.shared.global",
        "createpolicy.fractional.L2::evict_",
        "createpolicy.range.",
        "cp.async.cg.shared.global.L2::cache_hint",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint",
        ", 16, n",
        "cp.async.wait_group 1;",
        "cp.async.wait_group 2;",
        "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [cpbar];",
        "mbarrier.expect_tx",
        "mbarrier.arrive.expect_tx",
        "mbarrier.inval",
        "cvt.",
        "prmt.b32",
        "fence.proxy.async.shared::cta;",
        "mbarrier::complete_tx::bytes.multicast::cluster [win+",
        "global.tile.mbarrier::complete_tx::bytes.multicast::cluster [win], [tmap",
        "barrier.cluster.wait;",
        "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [win]",
        "cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes.multicast::cluster",
        ".global.b1024.b32 [tobj], ",
        "fence.proxy.tensormap::generic.acquire.gpu [tobj], 128;",
        "global.tile.mbarrier::complete_tx::bytes [win], [tobj, {",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [tsh], [tobj], 128, [tbar];",
        ".shared::cta.b1024.b32 [tsh], ",
        "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [tobj], [tsh], 128;",
        "mapa.shared::cluster.u32 rw",
        "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [a",
        "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [a",
        "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [a",
        "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [rw",
        "mapa.shared::cluster.u32 rw",
        "st.shared::cluster.v4.b32 [a",
        "st.shared::cluster.b32 [a",
        "ld.shared::cluster.v2.b32 {",
        "mapa.u64 gp",
        "cvta.shared.u64 gw",
        "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [rb",
        "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p",
        "cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [smap, {",
        "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [smap, {",
        "cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [smap, {",
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group [smap, {",
    ] {
        assert!(text.contains(needle), "no program has `{needle}`");
    }
    let exchanging = programs.iter().filter(|p| p.statements.iter().any(|s| s.starts_with("mapa."))).count();
    eprintln!("{exchanging} of {} programs exchange between CTAs", programs.len());
    for inter in [Interleave::B16, Interleave::B32] {
        let n = programs.iter().filter(|p| p.tensor_maps.iter().any(|m| m.map.interleave == inter)).count();
        eprintln!("{n} of {} programs over {} interleaved maps", programs.len(), inter.name());
        assert!(n >= 5, "{n} programs over {} interleaved maps", inter.name());
    }
    // Programs with a tensor-map object run on sm_90a; the others stay on sm_90.
    for p in &programs {
        let object = p.tensor_maps.iter().any(|m| m.object.is_some());
        assert_eq!(p.target.name(), if object { "sm_90a" } else { "sm_90" });
    }
    let clusters: std::collections::BTreeSet<u32> = programs.iter().map(|p| p.cluster).collect();
    assert_eq!(clusters, [1, 2, 4].into(), "one CTA and clusters of 2 and 4");
    let src_size_0 = |s: &String| s.starts_with("cp.async.c") && s.ends_with(", 0;");
    assert!(programs.iter().flat_map(|p| &p.statements).any(src_size_0), "no cp.async with src-size 0");
    let swizzles: std::collections::BTreeSet<&str> =
        programs.iter().flat_map(|p| &p.tensor_maps).map(|m| m.map.swizzle.name()).collect();
    assert_eq!(swizzles.len(), 4, "every sm_90 swizzle: {swizzles:?}");
    let fills: std::collections::BTreeSet<&str> =
        programs.iter().flat_map(|p| &p.tensor_maps).map(|m| m.map.oob_fill.name()).collect();
    assert_eq!(fills.len(), 2, "every out-of-bounds fill: {fills:?}");
    // Tiles straddling the low and the high edge of dimension 0.
    let coords = |p: &MemSource| -> Vec<(i64, i64, i64)> {
        let Some(m) = p.tensor_maps.first().filter(|m| matches!(m.map.mode, MapMode::Tiled)) else {
            return Vec::new();
        };
        p.regs
            .iter()
            .filter(|(n, _)| n.starts_with('c'))
            .map(|(_, v)| (v.value as u32 as i32 as i64, m.map.dims[0] as i64, i64::from(m.map.box_dims[0])))
            .collect()
    };
    let all: Vec<(i64, i64, i64)> = programs.iter().flat_map(coords).collect();
    assert!(all.iter().any(|&(c, _, _)| c < 0), "a negative coordinate");
    assert!(all.iter().any(|&(c, d, b)| c < d && c + b > d), "a tile past the end");
    let threads: std::collections::BTreeSet<u32> = programs.iter().map(|p| p.threads).collect();
    assert_eq!(threads.len(), 4, "{threads:?}");
}

#[test]
fn targets_without_the_async_forms_are_refused() {
    assert_eq!(supported(&target()), Ok(()));
    assert!(supported(&"sm_100a".parse().expect("a target")).is_ok());
    let e = supported(&"sm_80".parse().expect("a target")).expect_err("sm_80 has no mbarrier tx-count");
    assert!(e.contains("sm_80 lacks"), "{e}");
}

#[test]
fn a_seed_gives_the_same_program() {
    let cfg = AsyncConfig::default();
    for s in 0..20 {
        assert_eq!(generate_seeded(s, &cfg, &target()), generate_seeded(s, &cfg, &target()));
    }
    assert_ne!(generate_seeded(1, &cfg, &target()), generate_seeded(2, &cfg, &target()));
}

/// A knob that is off never shows up.
/// Tensor write-backs in a cluster stay in the writing CTA's slice of the store map's last
/// dimension (`mul.lo.u32 t, rk, slice; add.u32 sc, t, base;` with base + box ≤ slice =
/// dims / CTAs), so no two CTAs write the same `tdst` bytes, whichever write-backs overlap
/// in time (the lockstep oracle would not see such a race).
#[test]
fn cluster_write_backs_stay_in_their_ctas_slices() {
    let mut checked = 0;
    for seed in 0..1500u64 {
        let p = generate_seeded(seed, &AsyncConfig::default(), &target());
        let Some(smap) = p.tensor_maps.iter().find(|m| m.name == "smap") else { continue };
        if p.cluster < 2 {
            continue;
        }
        let last = smap.map.rank() - 1;
        let slice = smap.map.dims[last] / u64::from(p.cluster);
        assert_eq!(slice * u64::from(p.cluster), smap.map.dims[last], "seed {seed}");
        for w in p.statements.windows(2) {
            let (Some(m), Some(a)) = (w[0].strip_prefix("mul.lo.u32 "), w[1].strip_prefix("add.u32 sc")) else {
                continue;
            };
            let step: u64 = m.trim_end_matches(';').rsplit(", ").next().and_then(|v| v.parse().ok()).expect("a slice");
            let base: u64 = a.trim_end_matches(';').rsplit(", ").next().and_then(|v| v.parse().ok()).expect("a base");
            assert_eq!(step, slice, "seed {seed}: {}", w[0]);
            assert!(base + u64::from(smap.map.box_dims[last]) <= slice, "seed {seed}: {}", w[1]);
            checked += 1;
        }
    }
    assert!(checked >= 50, "{checked} write-backs checked");
}

#[test]
fn knobs_off_stay_off() {
    let cfg = AsyncConfig {
        tensor: false,
        reduce: false,
        convert: false,
        multicast: false,
        cluster: false,
        remote: false,
        ..AsyncConfig::default()
    };
    for s in 0..200 {
        let p = generate_seeded(s, &cfg, &target());
        let text = p.statements.join("\n");
        assert!(!text.contains(".tensor") && !text.contains("cp.reduce") && !text.contains("cvt.rn"), "{text}");
        assert!(p.cluster == 1 && !text.contains("multicast") && !text.contains("mapa"), "{text}");
        assert!(p.tensor_maps.is_empty());
    }
    // Clusters without multicast exchange through `mapa` only.
    let cfg = AsyncConfig { multicast: false, remote: false, swarm: false, ..AsyncConfig::default() };
    let mut exchanges = 0;
    for s in 0..50 {
        let text = generate_seeded(s, &cfg, &target()).statements.join("\n");
        assert!(!text.contains("multicast"), "{text}");
        exchanges += usize::from(text.contains("mapa.shared::cluster"));
    }
    assert!(exchanges >= 20, "{exchanges} of 50 programs exchange");
    let cfg = AsyncConfig { replace: false, ..AsyncConfig::default() };
    for s in 0..200 {
        let p = generate_seeded(s, &cfg, &target());
        assert!(!p.statements.join("\n").contains("tensormap") && p.target.name() == "sm_90");
    }
}

/// `remote` alone among the cluster knobs: clusters whose CTAs store into each other's `rwin`
/// with `st.shared::cluster` or generic `st` (through `cvta.shared` and generic `mapa`), arrive
/// on each other's mbarrier and load with `ld.shared::cluster` or generic `ld`; every program runs on the oracle (no race, no hang) and prints. The
/// ordering is what keeps them race-free: without the `.cluster` scope on the waits the oracle
/// calls the same programs undefined (a data race, PTX ISA 9.0 §8.7.1).
#[test]
fn remote_exchanges_are_race_free_and_need_their_ordering() {
    let cfg = AsyncConfig { multicast: false, cluster: false, swarm: false, ..AsyncConfig::default() };
    let (mut stores, mut loads, mut arrives, mut races, mut generic) = (0, 0, 0, 0, 0);
    for s in 0..150u64 {
        check(s, &cfg).unwrap_or_else(|e| panic!("{e}"));
        let src = generate_seeded(s, &cfg, &target());
        assert!(src.cluster > 1);
        let text = src.statements.join("\n");
        stores += usize::from(text.contains("st.shared::cluster."));
        loads += usize::from(text.contains("ld.shared::cluster."));
        generic += usize::from(text.contains("mapa.u64") && text.contains("cvta.shared.u64"));
        arrives += usize::from(text.contains("mbarrier.arrive.release.cluster.shared::cluster.b64 _"));
        if text.contains("try_wait.parity.acquire.cluster") {
            let mut weak = src.clone();
            for st in &mut weak.statements {
                *st = st.replace("try_wait.parity.acquire.cluster", "try_wait.parity");
            }
            let e = oracle::memprog::interp::run(&weak.build().unwrap(), &Allowances::all()).unwrap_err();
            assert!(e.to_string().contains("§8.7.1"), "seed {s}: {e}");
            races += 1;
        }
    }
    eprintln!("{stores} with remote stores, {loads} with remote loads, {arrives} with remote arrives, {generic} generic, {races} races");
    assert!(
        stores >= 40 && loads >= 20 && arrives >= 50 && races >= 50 && generic >= 25,
        "{stores} {loads} {arrives} {races} {generic}"
    );
    // Off, no program has them.
    let cfg = AsyncConfig { remote: false, ..AsyncConfig::default() };
    for s in 0..200 {
        let text = generate_seeded(s, &cfg, &target()).statements.join("\n");
        assert!(!text.contains("st.shared::cluster.") && !text.contains("rwin"), "{text}");
    }
}

/// `replace` with `shared_tensormap`: in one CTA, programs re-shape every field the re-shapes
/// draw, on the tensor-map object in global memory and on a copy in shared
/// memory and copy it back with `tensormap.cp_fenceproxy` (the whole first warp of a CTA of
/// at least 32 threads; a guard on the warp where the CTA has more), and every one runs on the oracle, defined, and prints.
/// Without the acquire after the copy back the oracle calls them undefined (§9.7.13.4); off,
/// no program has them.
#[test]
fn shared_tensor_map_objects_are_defined_and_need_their_acquire() {
    let cfg = AsyncConfig { multicast: false, cluster: false, remote: false, swarm: false, ..AsyncConfig::default() };
    let (mut shared, mut guarded, mut unacquired) = (0, 0, 0);
    let mut all = String::new();
    for s in 0..300u64 {
        check(s, &cfg).unwrap_or_else(|e| panic!("{e}"));
        let src = generate_seeded(s, &cfg, &target());
        let text = src.statements.join("\n");
        all.push_str(&text);
        if !text.contains("tensormap.cp_fenceproxy") {
            continue;
        }
        assert!(text.contains(".shared::cta.b1024.b32 [tsh], ") && src.target.name() == "sm_90a", "{text}");
        // A whole warp copies back (`cp-fenceproxy-whole-warp`: ptxas copies a word per lane).
        assert!(src.threads >= 32, "seed {s}: {} threads copy back", src.threads);
        shared += 1;
        guarded += usize::from(text.contains("@warp0 tensormap.cp_fenceproxy"));
        let mut weak = src.clone();
        let n = weak.statements.iter().position(|l| l.contains("tensormap.cp_fenceproxy")).expect("found above");
        if let Some(k) = weak.statements[n..].iter().position(|l| l.contains("acquire.gpu [tobj]")) {
            weak.statements.remove(n + k);
            if let Err(e) = oracle::memprog::interp::run(&weak.build().unwrap(), &Allowances::all()) {
                assert!(e.to_string().contains("§9.7.13.4"), "seed {s}: {e}");
                unacquired += 1;
            }
        }
    }
    // Every field a re-shape draws, on the object in global memory and on its shared copy.
    for field in ["global_dim", "box_dim", "element_stride", "swizzle_mode", "fill_mode"] {
        for at in [".global.b1024.b32 [tobj], ", ".shared::cta.b1024.b32 [tsh], "] {
            let needle = format!("tensormap.replace.tile.{field}{at}");
            assert!(all.contains(&needle), "no program has `{needle}`");
        }
    }
    eprintln!("{shared} of 300 programs copy the object through shared memory, {guarded} on a warp guard, {unacquired} undefined without the acquire");
    assert!(shared >= 25 && guarded >= 10 && unacquired >= 25, "{shared} {guarded} {unacquired}");
    let cfg = AsyncConfig { shared_tensormap: false, ..cfg };
    for s in 0..100 {
        let text = generate_seeded(s, &cfg, &target()).statements.join("\n");
        assert!(!text.contains("cp_fenceproxy") && !text.contains("tsh"), "{text}");
    }
}

/// A program whose statements × threads × CTAs would pass what memory programs may run
/// ([`oracle::memprog::MAX_THREAD_STATEMENTS`]) is drawn again with half the threads: seed
/// 16488 of the remote-only configuration (drawn with 128 threads × 4 CTAs, too much work;
/// redrawn with 64) builds.
#[test]
fn programs_stay_within_the_statement_limit() {
    let cfg = AsyncConfig { multicast: false, cluster: false, ..AsyncConfig::default() };
    let src = generate_seeded(16488, &cfg, &target());
    let work = src.statements.len() as u64 * u64::from(src.threads) * u64::from(src.cluster);
    assert!(work <= oracle::memprog::MAX_THREAD_STATEMENTS && src.threads < 128, "{work}, {} threads", src.threads);
    check(16488, &cfg).unwrap();
}

/// The statement text of a program is printed from its typed statements, and the oracle's
/// parser reads every one back as the statement it was built as (parse ∘ print = id over
/// every form, glue, label, branch and barrier the generator writes), on sm_90 and sm_100a,
/// with the knobs that bring `tensormap.cp_fenceproxy` too; every family of form the
/// generator writes turns up.
#[test]
fn statements_parse_back_as_built() {
    use std::collections::BTreeSet;
    let shared =
        AsyncConfig { multicast: false, cluster: false, remote: false, swarm: false, ..AsyncConfig::default() };
    let runs =
        [("sm_90", AsyncConfig::default(), 1500u64), ("sm_100a", AsyncConfig::default(), 300), ("sm_90", shared, 300)];
    let mut families = BTreeSet::new();
    for (t, cfg, seeds) in runs {
        let target: Target = t.parse().expect("a target");
        for seed in 0..seeds {
            let (src, typed) = generate_typed(&mut SplitMix64::new(seed), &cfg, &target);
            let printed: Vec<String> = typed.iter().map(ToString::to_string).collect();
            assert_eq!(src.statements, printed, "{t} seed {seed}: the text is the typed statements printed");
            let p = src.build().unwrap_or_else(|e| panic!("{t} seed {seed}: {e}"));
            assert_eq!(p.stmts.len(), typed.len(), "{t} seed {seed}");
            for (built, parsed) in typed.iter().zip(&p.stmts) {
                crate::memory::stmt::assert_same(built, parsed, &p.regs);
                if let Stmt::Isa(i) = built {
                    families.insert(i.form.family());
                }
            }
        }
    }
    use oracle::isa::Family as F;
    let want = [
        F::Mov,
        F::Ld,
        F::St,
        F::StAsync,
        F::Createpolicy,
        F::Cvta,
        F::Cvt,
        F::Prmt,
        F::Mapa,
        F::CpAsync,
        F::CpAsyncCommitGroup,
        F::CpAsyncWaitGroup,
        F::CpAsyncWaitAll,
        F::CpAsyncMbarrierArrive,
        F::CpAsyncBulk,
        F::CpReduceAsyncBulk,
        F::CpAsyncBulkTensor,
        F::CpReduceAsyncBulkTensor,
        F::CpAsyncBulkCommitGroup,
        F::CpAsyncBulkWaitGroup,
        F::TensormapReplace,
        F::Fence,
        F::Mbarrier,
        F::TensormapCpFenceproxy,
    ];
    let missing: Vec<_> = want.iter().filter(|f| !families.contains(f)).collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}
