//! Tests of the conformance cases: every sm_90 case protocol-correct on the oracle, the cases a
//! function of the target, every family covered, `tensormap.replace` on the arch-specific twin.

use super::*;
use oracle::isa::Target;
use oracle::semantics::Allowances;

fn sm90() -> Target {
    "sm_90".parse().unwrap()
}

/// Every case of sm_90 builds and runs on the oracle without a protocol error, and its
/// read buffers come back.
#[test]
fn every_sm90_case_is_protocol_correct() {
    let mut sweep = async_cases(&sm90(), &|_| true);
    for set in &DEVIATION_SETS {
        sweep.cases.extend((set.cases)(&sm90()));
    }
    let mut failures = Vec::new();
    for c in &sweep.cases {
        let p = match c.source.build() {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{} [{}]: build: {e}", c.form, c.label));
                continue;
            }
        };
        if let Err(e) = oracle::memprog::interp::run(&p, &Allowances::all()) {
            failures.push(format!("{} [{}]: run: {e}", c.form, c.label));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases fail:\n{}",
        failures.len(),
        sweep.cases.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}

/// The same target gives the same cases, in the same order.
#[test]
fn cases_are_a_function_of_the_target() {
    let target: Target = "sm_90".parse().unwrap();
    let keep = |op: &str| op.starts_with("cp.async.bulk.tensor.2d") || op.starts_with("cp.async.cg");
    let (a, b) = (async_cases(&target, &keep), async_cases(&target, &keep));
    assert!(!a.cases.is_empty());
    assert_eq!(a.cases, b.cases);
    assert_eq!(a.not_run, b.not_run);
}

/// `tensormap.replace` runs beside a target only where its arch-specific twin exists.
#[test]
fn replace_cases_take_the_arch_specific_twin_or_none() {
    let twin = |t: &str| replace_target(&t.parse().unwrap()).map(|t| t.name());
    assert_eq!(twin("sm_90").as_deref(), Some("sm_90a"));
    assert_eq!(twin("sm_90a").as_deref(), Some("sm_90a"));
    for t in ["sm_80", "sm_89"] {
        assert_eq!(twin(t), None, "{t}");
        assert!(async_cases(&t.parse().unwrap(), &|op| op.starts_with("tensormap")).cases.is_empty());
    }
}

/// The sm_90 sweep replaces every sm_90a field of a tensor-map object in global memory (both
/// spellings of the address) and in shared memory (`.shared::cta`: the 28 forms, one per field
/// and Table 33 value) and loads through it, the interleaved layouts included; every form has
/// cases. A shared case copies the object in, replaces it there, copies it back with
/// `tensormap.cp_fenceproxy` and acquires it before the load.
#[test]
fn tensormap_replace_cases_cover_every_sm90a_field_of_a_global_and_a_shared_object() {
    let sweep = async_cases(&"sm_90".parse().unwrap(), &|op| op.starts_with("tensormap.replace"));
    let forms: std::collections::BTreeSet<&str> = sweep.cases.iter().map(|c| c.form.as_str()).collect();
    for field in ["box_dim", "global_dim", "global_stride", "element_stride", "global_address", "rank", "elemtype"]
        .into_iter()
        .chain(["swizzle_mode", "fill_mode", "interleave_layout"])
    {
        for ss in [".global", "", ".shared::cta"] {
            let ty = if matches!(field, "global_address" | "global_stride") { "b64" } else { "b32" };
            let op = format!("tensormap.replace.tile.{field}{ss}.b1024.{ty}");
            assert!(forms.contains(op.as_str()), "no cases for {op}: {forms:?}");
        }
    }
    assert!(sweep.cases.iter().all(|c| c.source.target.name() == "sm_90a"));
    assert!(sweep.not_run.is_empty(), "{:?}", sweep.not_run);
    let rt: Target = "sm_90a".parse().unwrap();
    let shared_forms: Vec<_> = valid_forms(&rt, Some(Family::TensormapReplace))
        .into_iter()
        .filter(|(f, _)| matches!(f, Form::TensormapReplace(r) if r.ss == Some(oracle::isa::TensormapSs::SharedCta)))
        .collect();
    assert_eq!(shared_forms.len(), 28);
    let shared: Vec<&AsyncCase> = sweep.cases.iter().filter(|c| c.form.contains(".shared::cta.")).collect();
    let global = sweep.cases.iter().filter(|c| c.form.contains(".global.")).count();
    assert_eq!(shared.len(), global, "one shared case per global one");
    for c in &shared {
        let text = c.source.statements.join("\n");
        for step in ["[smap], [gmap], 128, [bar]", "[smap], ", "tensormap.cp_fenceproxy", "acquire.gpu [gmap], 128"] {
            assert!(text.contains(step), "{} [{}] lacks {step}:\n{text}", c.form, c.label);
        }
        assert!(
            !text.contains("b1024.b32 [gmap]") && !text.contains("b1024.b64 [gmap]"),
            "replaced in global memory:\n{text}"
        );
    }
    let interleaved = sweep.cases.iter().filter(|c| c.label.starts_with("interleave layout")).count();
    assert_eq!(interleaved, 2 * 3 * 2, "16B and 32B, three spellings, two places");
    // Every element type sm_90a has, each loaded at the origin and past dimension 1's end.
    for ss in ["global", "shared::cta"] {
        let form = format!("tensormap.replace.tile.elemtype.{ss}.b1024.b32");
        assert_eq!(sweep.cases.iter().filter(|c| c.form == form).count(), 13 * 2, "{form}");
    }
}

/// `tensormap.cp_fenceproxy` runs on sm_90 itself at each of its four scopes: the object into
/// itself and into a blank global buffer, two places each; the acquire takes the release's
/// scope.
#[test]
fn cp_fenceproxy_cases_run_at_every_scope_on_sm_90() {
    let sweep = async_cases(&sm90(), &|op| op.starts_with("tensormap.cp_fenceproxy"));
    assert!(sweep.not_run.is_empty(), "{:?}", sweep.not_run);
    for scope in ["cta", "cluster", "gpu", "sys"] {
        let form =
            format!("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.{scope}.sync.aligned");
        let cases: Vec<&AsyncCase> = sweep.cases.iter().filter(|c| c.form == form).collect();
        assert_eq!(cases.len(), 4, "{form}");
        for c in cases {
            assert_eq!(c.source.target.name(), "sm_90");
            let text = c.source.statements.join("\n");
            assert!(text.contains(&format!("fence.proxy.tensormap::generic.acquire.{scope} [")), "{text}");
        }
    }
}

/// Every family has cases; every sm_90 multicast form has cases in clusters of several
/// CTAs; the sweep stays a few thousand cases.
#[test]
fn every_family_has_cases_and_the_sweep_stays_small() {
    let target: Target = "sm_90".parse().unwrap();
    let sweep = async_cases(&target, &|_| true);
    for family in ASYNC_FAMILIES {
        let n = sweep.cases.iter().filter(|c| Family::classify(&c.form) == Some(family)).count();
        eprintln!("{}: {n} cases", family.name());
        assert!(n > 0, "{}", family.name());
    }
    let mut reasons: Vec<&str> = sweep.not_run.iter().map(|(_, r)| r.as_str()).collect();
    reasons.dedup();
    eprintln!("{} cases; not run: {} forms ({reasons:?})", sweep.cases.len(), sweep.not_run.len());
    let multicast: Vec<_> = sweep.cases.iter().filter(|c| c.form.to_string().contains("multicast")).collect();
    assert!(multicast.iter().any(|c| c.source.cluster == 4) && multicast.iter().all(|c| c.source.cluster > 1));
    assert!(
        !sweep.not_run.iter().any(|(f, r)| f.contains("multicast") && !r.contains("cp_mask")),
        "{:?}",
        sweep.not_run.iter().filter(|(f, _)| f.contains("multicast")).collect::<Vec<_>>()
    );
    assert!((1000..=6000).contains(&sweep.cases.len()), "{}", sweep.cases.len());
}

/// The remote forms: every remote arrive of sm_90 (not `.noComplete`) and the selected
/// `ld`/`st.shared::cluster` forms have cases in clusters, each runs on the oracle without a
/// race, and the peers' bytes land: CTA 1's window holds what CTA 0's threads stored.
#[test]
fn remote_forms_have_race_free_cluster_cases() {
    let sweep = async_cases(&sm90(), &|op| is_remote_form(op));
    let forms: std::collections::BTreeSet<&str> = sweep.cases.iter().map(|c| c.form.as_str()).collect();
    eprintln!("{} remote forms, {} cases", forms.len(), sweep.cases.len());
    for f in [
        "mbarrier.arrive.release.cluster.shared::cluster.b64",
        "mbarrier.arrive.shared::cluster.b64",
        "mbarrier.arrive.relaxed.cluster.shared::cluster.b64",
        "mbarrier.arrive_drop.expect_tx.release.cluster.shared::cluster.b64",
        "st.shared::cluster.u8",
        "st.shared::cluster.v4.b32",
        "st.release.cluster.shared::cluster.b32",
        "ld.shared::cluster.v2.f64",
        "ld.acquire.cluster.shared::cluster.v4.b32",
        "mapa.u64",
    ] {
        assert!(forms.contains(f), "{f} has no case");
    }
    assert!(!forms.iter().any(|f| f.contains("noComplete") || f.contains("b128") || f.contains("L2::")));
    assert!(sweep.cases.iter().all(|c| c.source.cluster > 1));
    let ordered = |s: &str| sweep.cases.iter().filter(|c| c.label.contains(s)).count();
    assert!(ordered("release/acquire") > 0 && ordered("cluster barrier") > 0);
    assert!(ordered("generic st.v4.b32") > 0 && ordered("generic ld.s8") > 0);
    assert!(!forms.contains("mapa.shared::cluster.u32"), "a window mapa has no row of its own");
    for c in &sweep.cases {
        let p = c.source.build().unwrap_or_else(|e| panic!("{} [{}]: {e}", c.form, c.label));
        let out = oracle::memprog::interp::run(&p, &Allowances::all())
            .unwrap_or_else(|e| panic!("{} [{}]: {e}", c.form, c.label));
        // Every byte of `win` this case's threads wrote is known.
        let win = p.buffers.iter().position(|b| b.name == "win").unwrap();
        assert!(!out[win].to_hex().contains('?'), "{} [{}]", c.form, c.label);
    }
    // A store case by hand: cluster 2, one thread; CTA 0 stores src[0..4] into CTA 1's window.
    let c =
        sweep.cases.iter().find(|c| c.form == "st.shared::cluster.b32" && c.label == "cluster 2, 1 threads").unwrap();
    let p = c.source.build().unwrap();
    let out = oracle::memprog::interp::run(&p, &Allowances::all()).unwrap();
    let src = pattern(8, 8000 + 16 * 4);
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    let a5 = "a5".repeat(16);
    assert_eq!(out[1].to_hex(), format!("{}{a5}{}{a5}", hex(&src[4..8]), hex(&src[0..4])));
}

/// Every case's statements are typed and printed by the one printer, and the oracle's parser
/// reads each back as the statement it was built as (parse ∘ print = id), for every case of
/// sm_90 (the dedicated sets too), sm_90a (`tensormap.replace` on global and shared objects)
/// and sm_100a; every family of form the cases write turns up.
#[test]
fn case_statements_parse_back_as_built() {
    use crate::memory::stmt::{assert_same, Stmt};
    use std::collections::BTreeSet;
    let mut families = BTreeSet::new();
    let mut checked = 0;
    for t in ["sm_90", "sm_90a", "sm_100a"] {
        let target: Target = t.parse().unwrap();
        builder::built::clear();
        let mut sweep = async_cases(&target, &|_| true);
        for set in &DEVIATION_SETS {
            sweep.cases.extend((set.cases)(&target));
        }
        for c in &sweep.cases {
            let typed = builder::built::typed(&c.source.statements)
                .unwrap_or_else(|| panic!("{t} {} [{}]: no typed statements", c.form, c.label));
            let p = c.source.build().unwrap_or_else(|e| panic!("{t} {} [{}]: {e}", c.form, c.label));
            assert_eq!(p.stmts.len(), typed.len(), "{t} {} [{}]", c.form, c.label);
            for (built, parsed) in typed.iter().zip(&p.stmts) {
                assert_same(built, parsed, &p.regs);
                if let Stmt::Isa(i) = built {
                    families.insert(i.form.family());
                }
            }
            checked += 1;
        }
    }
    eprintln!("{checked} cases parse back as built");
    use oracle::isa::Family as F;
    let want = [
        F::Mov,
        F::Ld,
        F::St,
        F::Createpolicy,
        F::Cvta,
        F::Cvt,
        F::Mapa,
        F::CpAsync,
        F::CpAsyncCommitGroup,
        F::CpAsyncWaitGroup,
        F::CpAsyncWaitAll,
        F::CpAsyncBulk,
        F::CpReduceAsyncBulk,
        F::CpAsyncBulkPrefetch,
        F::CpAsyncBulkTensor,
        F::CpReduceAsyncBulkTensor,
        F::CpAsyncBulkPrefetchTensor,
        F::CpAsyncBulkCommitGroup,
        F::CpAsyncBulkWaitGroup,
        F::TensormapReplace,
        F::TensormapCpFenceproxy,
        F::Fence,
        F::Mbarrier,
    ];
    let missing: Vec<_> = want.iter().filter(|f| !families.contains(f)).collect();
    assert!(missing.is_empty(), "never written: {missing:?}");
}
