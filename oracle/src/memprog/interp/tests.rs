//! The interpreter across the CTAs of a cluster: remote `mbarrier.arrive` and remote
//! `ld`/`st.shared::cluster` (addresses from `mapa.shared::cluster`), against bytes computed by
//! hand, and the data races [`crate::memory::Order`] calls undefined.

use std::collections::BTreeMap;

use crate::isa::Target;
use crate::memprog::{BufferSource, BufferSpace, Init, MemError, MemSource};
use crate::semantics::Allowances;

/// Two CTAs of two threads; `body` runs after every CTA's leader initialised its mbarrier
/// (`bar`, two arrivals) and the cluster barrier; registers `rk` (rank), `tid`, `lead`
/// (thread 0), `rw`/`rb` (the peer's `win`/`bar`) and `a` (the thread's word of the peer's
/// window) are set. `win` (16 bytes of `a5` per CTA), `bar` and `out` (8 bytes per CTA) come
/// back, in that order.
fn source(body: &[&str]) -> MemSource {
    let mut statements: Vec<String> = [
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
        "mul.wide.u32 oo, rk, 8;",
        "mov.u64 dst, out;",
        "add.u64 dst, dst, oo;",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    statements.extend(body.iter().map(|s| s.to_string()));
    MemSource {
        target: Target::parse("sm_90").unwrap(),
        threads: 2,
        cluster: 2,
        statements,
        regs: BTreeMap::new(),
        buffers: vec![
            BufferSource {
                name: "win".into(),
                space: BufferSpace::Shared,
                init: Init::Fill { len: 16, byte: Some(0xa5) },
                align: 16,
            },
            BufferSource {
                name: "bar".into(),
                space: BufferSpace::Shared,
                init: Init::Fill { len: 8, byte: None },
                align: 8,
            },
            BufferSource {
                name: "out".into(),
                space: BufferSpace::Global,
                init: Init::Fill { len: 16, byte: None },
                align: 16,
            },
        ],
        tensor_maps: Vec::new(),
        read: vec!["win".into(), "out".into()],
    }
}

fn run(body: &[&str]) -> Result<Vec<String>, crate::memprog::StmtError> {
    let p = source(body).build().unwrap();
    Ok(super::run(&p, &Allowances::all())?.iter().map(|r| r.to_hex()).collect())
}

/// The consumer's side: wait for phase 0 of its own mbarrier with `wait`'s qualifiers, then
/// the leader copies the first 8 bytes of its window to its slot of `out`.
fn consume(wait: &str) -> Vec<String> {
    vec![
        format!("w0: mbarrier.try_wait.parity{wait}.shared::cta.b64 p, [bar], 0;"),
        "@!p bra w0;".into(),
        "ld.shared.v2.u32 {x, y}, [win];".into(),
        "@lead st.global.v2.u32 [dst], {x, y};".into(),
    ]
}

fn with(produce: &[&str], wait: &str) -> Vec<String> {
    let mut body: Vec<String> = produce.iter().map(|s| s.to_string()).collect();
    body.extend(consume(wait));
    body
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Each thread stores `0x10 + rank` into its word of the peer's window, then arrives on the
/// peer's mbarrier (release, cluster scope); each CTA waits (acquire, cluster scope) and reads
/// what its peer wrote: CTA 0 gets 0x11s, CTA 1 0x10s.
#[test]
fn remote_stores_released_by_remote_arrives_are_read_after_the_wait() {
    let body = with(
        &[
            "add.u32 v, rk, 0x10;",
            "st.shared::cluster.u32 [a], v;",
            "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [rb];",
        ],
        ".acquire.cluster",
    );
    let out = run(&refs(&body)).unwrap();
    let a5 = "a5".repeat(8);
    assert_eq!(out[0], format!("1100000011000000{a5}1000000010000000{a5}"));
    assert_eq!(out[2], "11000000110000001000000010000000");
}

/// `mbarrier.arrive.expect_tx` and `arrive_drop` on another CTA's mbarrier count there too.
#[test]
fn remote_arrive_variants_count_on_the_peer_mbarrier() {
    for arrive in [
        "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [rb], 1;",
        "mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [rb], 0;",
        "mbarrier.arrive_drop.release.cluster.shared::cluster.b64 _, [rb];",
    ] {
        let body = with(&["add.u32 v, rk, 0x20;", "st.shared::cluster.u32 [a], v;", arrive], ".acquire.cluster");
        let out = run(&refs(&body)).unwrap_or_else(|e| panic!("{arrive}: {e}"));
        assert_eq!(out[2], "21000000210000002000000020000000", "{arrive}");
    }
}

/// A remote load after the cluster barrier reads what the peer stored before it.
#[test]
fn remote_loads_after_a_cluster_barrier_read_the_peers_window() {
    let out = run(&[
        "add.u32 v, tid, 0x30;",
        "shl.b32 lo, tid, 2;",
        "mov.u32 own, win;",
        "add.u32 own, own, lo;",
        "st.shared.u32 [own], v;",
        "barrier.cluster.arrive.release;",
        "barrier.cluster.wait.acquire;",
        "ld.shared::cluster.u32 x, [a];",
        "shl.b32 oo2, tid, 2;",
        "cvt.u64.u32 od, oo2;",
        "add.u64 d2, dst, od;",
        "st.global.u32 [d2], x;",
    ])
    .unwrap();
    assert_eq!(out[2], "30000000310000003000000031000000");
}

fn undefined(body: &[String]) -> String {
    match run(&refs(body)) {
        Err(e) => match &e.error {
            MemError::Undefined(m) => m.clone(),
            other => panic!("expected undefined, got {other:?}"),
        },
        Ok(out) => panic!("expected undefined, ran: {out:?}"),
    }
}

/// What does not order the peer's store before the read is a race: a `.relaxed` arrive, a
/// `.cta`-scope arrive or wait, no wait at all.
#[test]
fn unordered_remote_accesses_are_races() {
    let store = ["add.u32 v, rk, 0x10;", "st.shared::cluster.u32 [a], v;"];
    for (arrive, wait) in [
        ("mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [rb];", ".acquire.cluster"),
        ("mbarrier.arrive.release.cta.shared::cluster.b64 _, [rb];", ".acquire.cluster"),
        ("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [rb];", ".acquire.cta"),
        ("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [rb];", ""),
        ("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [rb];", ".relaxed.cluster"),
    ] {
        let body = with(&[store[0], store[1], arrive], wait);
        let m = undefined(&body);
        assert!(m.contains("`win` ") && m.contains("§8.7.1"), "{arrive} {wait}: {m}");
    }
    // No synchronisation at all: the peer's store and this CTA's load.
    let body: Vec<String> = [store[0], store[1], "ld.shared.u32 x, [win];"].iter().map(|s| s.to_string()).collect();
    assert!(undefined(&body).contains("races with the write by thread"));
    // A relaxed cluster barrier orders execution, not memory.
    let body: Vec<String> =
        [store[0], store[1], "barrier.cluster.arrive.relaxed;", "barrier.cluster.wait;", "ld.shared.u32 x, [win];"]
            .iter()
            .map(|s| s.to_string())
            .collect();
    undefined(&body);
    // Two CTAs writing the same global bytes.
    let body: Vec<String> = ["st.global.u32 [out], tid;".to_string()].to_vec();
    assert!(undefined(&body).contains("`out` bytes 0..4"));
}

/// Remote `mbarrier.arrive` needs the peer's `mbarrier.init` made visible by a cluster
/// barrier first; a `.shared::cta` access to another CTA's memory stays undefined.
#[test]
fn remote_rules_that_stay_undefined() {
    let mut s = source(&[]);
    s.statements.retain(|l| !l.starts_with("barrier.cluster"));
    s.statements.push("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [rb];".into());
    let e = super::run(&s.build().unwrap(), &Allowances::all()).unwrap_err();
    assert!(e.to_string().contains("no barrier.cluster.wait between"), "{e}");
    let body: Vec<String> = ["st.shared.u32 [a], tid;".to_string()].to_vec();
    assert!(undefined(&body).contains("only .shared::cluster accesses reach"));
}

/// Strong accesses of one location that nothing orders are not a race, but their outcome is
/// timing: not supported, never undefined.
#[test]
fn unordered_strong_accesses_are_not_supported() {
    // Both CTAs store into CTA 0's window.
    let e = run(&["mapa.shared::cluster.u32 r0, win, 0;", "st.relaxed.cluster.shared::cluster.u32 [r0], tid;"])
        .unwrap_err();
    assert!(matches!(e.error, MemError::Unsupported(_)) && e.to_string().contains("timing"), "{e}");
}

/// Generic addresses of another CTA's shared memory: `cvta.shared` then `mapa` without
/// `.shared::cluster` (§9.7.9.20, §9.7.9.23) give the generic address of the peer's copy; a
/// generic `st` through it lands there (CTA 0's window gets CTA 1's 0x41s), `getctarank` of it
/// is the peer, and `cvta.to.shared::cluster` turns it back into a window address.
#[test]
fn generic_addresses_reach_another_ctas_shared_memory() {
    let generic = [
        "cvta.shared.u64 gw, win;",
        "mapa.u64 gp, gw, pr;",
        "mul.wide.u32 o64, tid, 4;",
        "add.u64 ga, gp, o64;",
        "add.u32 v, rk, 0x40;",
    ];
    let finish = ["barrier.cluster.arrive;", "barrier.cluster.wait;", "ld.shared.v2.u32 {x, y}, [win];"];
    let with = |mid: &[&str], tail: &[&str]| -> Vec<String> {
        generic.iter().chain(mid).chain(&finish).chain(tail).map(|s| s.to_string()).collect()
    };
    let out = run(&refs(&with(&["st.u32 [ga], v;"], &["@lead st.global.v2.u32 [dst], {x, y};"]))).unwrap();
    assert_eq!(out[2], "41000000410000004000000040000000");
    let out = run(&refs(&with(
        &["cvta.to.shared::cluster.u64 wa, ga;", "st.shared::cluster.u32 [wa], v;", "getctarank.u64 pk, gp;"],
        &["add.u32 x, x, pk;", "@lead st.global.v2.u32 [dst], {x, y};"],
    )))
    .unwrap();
    // CTA 0's peer is 1, CTA 1's is 0: the first word gains the rank of the peer.
    assert_eq!(out[2], "42000000410000004000000040000000");
    // A window address in a generic access, a generic one in a .shared::cluster access, a
    // window address given to generic mapa, and cvta of the peer's memory as .shared::cta.
    let m = undefined(&with(&["st.u32 [a], v;"], &[]));
    assert!(m.contains("where the instruction takes a generic one"), "{m}");
    let m = undefined(&with(&["st.shared::cluster.u32 [ga], v;"], &[]));
    assert!(m.contains("holds a generic address"), "{m}");
    let m = undefined(&with(&["cvta.to.shared.u64 wa, ga;"], &[]));
    assert!(m.contains("only .shared::cluster"), "{m}");
    let e = run(&["mov.u64 w64, win;", "mapa.u64 gp, w64, pr;"]).unwrap_err();
    assert!(matches!(e.error, MemError::Unsupported(_)) && e.to_string().contains("cvta.shared first"), "{e}");
    // An mbarrier op with generic addressing takes a generic address of this CTA's mbarrier.
    let out = run(&[
        "cvta.shared.u64 gb, bar;",
        "mbarrier.arrive.b64 tok, [gb];",
        "w1: mbarrier.try_wait.parity.shared::cta.b64 q, [bar], 0;",
        "@!q bra w1;",
        "@lead st.global.u32 [dst], rk;",
    ]);
    assert_eq!(out.unwrap()[2], "00000000000000000100000000000000");
    // Generic accesses race like any other.
    let m = undefined(
        &generic
            .iter()
            .chain(&["st.u32 [ga], v;", "ld.shared.u32 x, [win];"])
            .map(|s| s.to_string())
            .collect::<Vec<_>>(),
    );
    assert!(m.contains("§8.7.1"), "{m}");
}
