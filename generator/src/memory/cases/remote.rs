//! Conformance cases of the forms that reach another CTA's shared memory in a cluster, with
//! addresses from `mapa.shared::cluster` (§9.7.9.23):
//! - remote arrives (`mbarrier.arrive{.expect_tx}`, `mbarrier.arrive_drop{.expect_tx}` on
//!   `.shared::cluster`, §9.7.13.15.13 and §9.7.13.15.14 of PTX ISA 9.0): every thread stores a
//!   word into the window of its peer CTA (`rank + 1` mod the CTAs) with
//!   `st.shared::cluster`, then arrives on the peer's mbarrier (initialised for every arrival
//!   after which its phase 0 completes, made visible by the cluster barrier); every thread waits
//!   for phase 0 of its own mbarrier, then copies its word of its own window to `out`. Where
//!   the arrive releases at `.cluster` scope the wait acquires at `.cluster` scope and that
//!   orders the peer's store before the load (PTX ISA 9.0 §8.7, §8.9.4); otherwise (`.relaxed`,
//!   or `.cta` scope, the default) a cluster barrier after the wait does.
//! - remote `ld`/`st` (`.shared::cluster`, §9.7.9.8, §9.7.9.11): every thread stores its
//!   element(s), loaded from `src`, into the peer's window (`st`) — or into its own window,
//!   then after the cluster barrier loads the peer's (`ld`) and stores what it read to `out`;
//!   `barrier.cluster.arrive` (release) / `wait` (acquire) orders the CTAs (§9.7.13.3). Forms:
//!   every type, scalar, `.v2` and `.v4`, without `.sem` (not `.b128`, which memory programs
//!   have no register for, nor `.v8`), and the strong ones at `.cluster` scope for `.b32` and `.v4.b32`; no cache
//!   operator, eviction priority, cache hint or prefetch size (they change no byte);
//! - generic remote `ld`/`st` (rows of the generic `mapa` forms, §9.7.9.23): the same cases
//!   through a generic address, `cvta.shared` of `win` (§9.7.9.20) then `mapa` to the peer.
//!
//! Invariant: every case is race-free by construction (the oracle's
//! [`oracle::memory::Order`] agrees: the tests run each), reads back every buffer it writes,
//! and is a pure function of the target.

use oracle::isa::types::{MemType, OrderSem, Scope, Space};
use oracle::isa::{valid_forms, Family, Form, LdSem, MbarrierOp, StSem, Target};
use oracle::memprog::{Init, MemSource};
use oracle::program::RegClass;

use super::builder::{hex, pattern, Case};

/// The clusters and threads per CTA a remote `ld`/`st` case runs with.
const LDST_SHAPES: [(u32, u32); 3] = [(2, 1), (2, 32), (4, 8)];

/// The (CTAs, threads per CTA, arrival count) of the remote-arrive cases; a count other than 1
/// only for the forms with a `count` operand.
const ARRIVE_SHAPES: [(u32, u32, u32); 5] = [(2, 1, 1), (2, 32, 1), (4, 4, 1), (2, 4, 3), (4, 2, 2)];

/// Whether an opcode is one of the forms this file makes cases of (its row is an asynchronous
/// row of `conform`).
pub fn is_remote_form(opcode: &str) -> bool {
    let cluster = opcode.split('.').any(|q| q == "shared::cluster");
    match Family::classify(opcode) {
        Some(Family::Mbarrier | Family::Ld | Family::St) => cluster,
        // Generic `mapa` of 64-bit (generic) addresses: its row holds the generic remote
        // `ld`/`st` cases.
        Some(Family::Mapa) => !cluster && opcode.ends_with(".u64"),
        _ => false,
    }
}

/// The generic remote accesses of the generic `mapa` row: (store, element type, lanes).
const GENERIC_ACCESSES: [(bool, MemType, u32); 8] = [
    (true, MemType::U8, 1),
    (true, MemType::B16, 1),
    (true, MemType::B32, 1),
    (true, MemType::B32, 4),
    (true, MemType::F64, 2),
    (false, MemType::S8, 1),
    (false, MemType::B64, 1),
    (false, MemType::B32, 2),
];

/// The remote forms valid on `target` that `keep` accepts, each with its cases (forms of one
/// opcode with different operands share the opcode's list).
pub(super) fn remote_cases(target: &Target, keep: &dyn Fn(&str) -> bool) -> Vec<(String, Vec<(String, MemSource)>)> {
    let mut out: Vec<(String, Vec<(String, MemSource)>)> = Vec::new();
    for family in [Family::Mbarrier, Family::St, Family::Ld, Family::Mapa] {
        for (form, _) in valid_forms(target, Some(family)) {
            let opcode = form.opcode();
            if !keep(&opcode) {
                continue;
            }
            let cases = match &form {
                Form::Mbarrier(mb) if arrive_form(mb) => arrive_cases(mb, &opcode, target),
                Form::St(st)
                    if ldst_form(st.space, st.sem.map(|s| s != StSem::Weak), st.scope, st.ty, st.vec)
                        && plain_st(st) =>
                {
                    ldst_cases(&opcode, Access::Window, true, st.ty, st.vec.map_or(1, |v| u32::from(v.len())), target)
                }
                Form::Ld(l)
                    if ldst_form(l.space, l.sem.map(|s| s != LdSem::Weak), l.scope, l.ty, l.vec) && plain_ld(l) =>
                {
                    ldst_cases(&opcode, Access::Window, false, l.ty, l.vec.map_or(1, |v| u32::from(v.len())), target)
                }
                Form::Mapa(_) if is_remote_form(&opcode) => GENERIC_ACCESSES
                    .iter()
                    .flat_map(|&(store, ty, lanes)| {
                        let op = if store { "st" } else { "ld" };
                        let shape = if lanes > 1 { format!("v{lanes}.{ty}") } else { ty.to_string() };
                        let access = Access::Generic { mapa: &opcode };
                        ldst_cases(&format!("{op}.{shape}"), access, store, ty, lanes, target)
                            .into_iter()
                            .map(move |(label, src)| (format!("generic {op}.{shape}, {label}"), src))
                    })
                    .collect(),
                _ => continue,
            };
            match out.iter_mut().find(|(o, _)| *o == opcode) {
                Some((_, list)) => list.extend(cases),
                None => out.push((opcode, cases)),
            }
        }
    }
    out
}

/// A remote arrive: `.shared::cluster` (the `.noComplete` arrives have no `.shared::cluster`
/// form).
fn arrive_form(mb: &oracle::isa::Mbarrier) -> bool {
    use MbarrierOp::*;
    mb.space == Some(Space::SharedCluster) && matches!(mb.op, Arrive | ArriveExpectTx | ArriveDrop | ArriveDropExpectTx)
}

/// A remote `ld`/`st` form of the sweep: `.shared::cluster`; no `.sem` (or `.weak`) with a
/// type memory programs hold in registers, scalar, `.v2` or `.v4`, or a strong one at `.cluster` scope over `.b32`
/// elements, scalar or `.v4`. `strong`: `Some(true)` for a `.sem` other than `.weak`.
fn ldst_form(
    space: Option<Space>,
    strong: Option<bool>,
    scope: Option<Scope>,
    ty: MemType,
    vec: Option<oracle::isa::types::VecWidth>,
) -> bool {
    use oracle::isa::types::VecWidth;
    if space != Some(Space::SharedCluster) || RegClass::of(ty.reg()).is_none() || vec == Some(VecWidth::V8) {
        return false;
    }
    match strong {
        Some(true) => scope == Some(Scope::Cluster) && ty == MemType::B32 && matches!(vec, None | Some(VecWidth::V4)),
        _ => true,
    }
}

fn plain_st(st: &oracle::isa::St) -> bool {
    !st.mmio && st.cop.is_none() && st.l1.is_none() && st.l2.is_none() && !st.cache_hint
}

fn plain_ld(l: &oracle::isa::Ld) -> bool {
    !l.mmio
        && l.cop.is_none()
        && l.l1.is_none()
        && l.l2.is_none()
        && !l.cache_hint
        && l.prefetch.is_none()
        && !l.unified
}

/// The statements every case starts with: `rk` the CTA's rank, `tid` the thread, `pr` the
/// peer's rank (`rk + 1` mod `ctas`, a power of two), `rw` the peer's `win`.
fn prelude(case: &mut Case) {
    let ctas = case.cluster;
    case.stmt("mov.u32 rk, %cluster_ctarank;")
        .stmt("mov.u32 tid, %tid.x;")
        .stmt("add.u32 pr, rk, 1;")
        .stmt(format!("and.b32 pr, pr, {};", ctas - 1))
        .stmt("mapa.shared::cluster.u32 rw, win, pr;");
}

/// `dst` := the global address of `buffer` + (rank × threads + tid) × `size`.
fn slot(case: &mut Case, dst: &str, buffer: &str, size: u64) {
    let threads = case.threads;
    case.stmt(format!("mul.lo.u32 {dst}i, rk, {threads};"))
        .stmt(format!("add.u32 {dst}i, {dst}i, tid;"))
        .stmt(format!("mul.wide.u32 {dst}o, {dst}i, {size};"))
        .stmt(format!("mov.u64 {dst}, {buffer};"))
        .stmt(format!("add.u64 {dst}, {dst}, {dst}o;"));
}

fn arrive_cases(mb: &oracle::isa::Mbarrier, opcode: &str, target: &Target) -> Vec<(String, MemSource)> {
    let orders = mb.sem != Some(OrderSem::Relaxed) && mb.scope == Some(Scope::Cluster);
    let mut out = Vec::new();
    for (k, &(ctas, threads, count)) in ARRIVE_SHAPES.iter().enumerate() {
        if count != 1 && !mb.count {
            continue;
        }
        let mut case = Case::new(target);
        case.cluster = ctas;
        case.threads = threads;
        let words = u64::from(threads) * 4;
        case.shared("win", Init::Fill { len: words + 16, byte: Some(0xA5) }, 16, true)
            .shared("bar", Init::Fill { len: 8, byte: Some(0) }, 8, false)
            .buffer(
                "out",
                oracle::memprog::BufferSpace::Global,
                256,
                Init::Hex(hex(&pattern((words * u64::from(ctas)) as usize, 7000 + k as u64))),
                true,
            )
            .reg("x", u64::from(u32::from_le_bytes([0x5c, 0x3a, 0x96, 0x0f]) ^ (k as u32)));
        prelude(&mut case);
        let operand = match (mb.op, mb.count) {
            (MbarrierOp::ArriveExpectTx | MbarrierOp::ArriveDropExpectTx, _) => ", 0".to_string(),
            (_, true) => format!(", {count}"),
            _ => String::new(),
        };
        let wait = if orders { ".acquire.cluster" } else { "" };
        case.stmt("setp.eq.u32 lead, tid, 0;")
            .stmt(format!("@lead mbarrier.init.shared::cta.b64 [bar], {};", threads * count))
            .stmt("fence.mbarrier_init.release.cluster;")
            .stmt("barrier.cluster.arrive;")
            .stmt("barrier.cluster.wait;")
            .stmt("mapa.shared::cluster.u32 rb, bar, pr;")
            .stmt("shl.b32 o, tid, 2;")
            .stmt("add.u32 a, rw, o;")
            .stmt("shl.b32 v, rk, 8;")
            .stmt("or.b32 v, v, tid;")
            .stmt("xor.b32 v, v, x;")
            .stmt("st.shared::cluster.u32 [a], v;")
            .stmt(format!("{opcode} _, [rb]{operand};"))
            .stmt(format!("wait: mbarrier.try_wait.parity{wait}.shared::cta.b64 p, [bar], 0;"))
            .stmt("@!p bra wait;");
        if !orders {
            case.stmt("barrier.cluster.arrive;").stmt("barrier.cluster.wait;");
        }
        case.stmt("mov.u32 own, win;").stmt("add.u32 own, own, o;").stmt("ld.shared.u32 y, [own];");
        slot(&mut case, "od", "out", 4);
        case.stmt("st.global.u32 [od], y;");
        let how = if orders { "release/acquire" } else { "cluster barrier" };
        let label = format!("cluster {ctas}, {threads} threads, count {count}, ordered by {how}");
        out.push((label, case.finish()));
    }
    out
}

/// How a remote `ld`/`st` case addresses the peer's `win`.
#[derive(Clone, Copy)]
enum Access<'a> {
    /// A `.shared::cluster` window address from `mapa.shared::cluster` (`rw`).
    Window,
    /// A generic address: `cvta.shared` of `win`, then this generic `mapa` form.
    Generic {
        /// The `mapa` opcode.
        mapa: &'a str,
    },
}

/// The cases of the remote access `opcode` (an `ld`/`st` of `lanes` elements of `ty`) through
/// `access`.
fn ldst_cases(
    opcode: &str,
    access: Access<'_>,
    store: bool,
    ty: MemType,
    lanes: u32,
    target: &Target,
) -> Vec<(String, MemSource)> {
    let eb = u64::from(ty.bits() / 8);
    let size = eb * u64::from(lanes);
    let mut out = Vec::new();
    for (k, &(ctas, threads)) in LDST_SHAPES.iter().enumerate() {
        let mut case = Case::new(target);
        case.cluster = ctas;
        case.threads = threads;
        let bytes = size * u64::from(threads);
        let seed = 8000 + k as u64 + 16 * size;
        case.global("src", pattern((bytes * u64::from(ctas)) as usize, seed), false).shared(
            "win",
            Init::Fill { len: bytes + 16, byte: Some(0xA5) },
            16,
            true,
        );
        if !store {
            case.global("out", pattern((bytes * u64::from(ctas)) as usize, seed + 1), true);
        }
        prelude(&mut case);
        let (v, vals) = elements("v", lanes);
        slot(&mut case, "sa", "src", size);
        case.stmt(format!("ld.global{v}.{ty} {vals}, [sa];")).stmt(format!("mul.lo.u32 o, tid, {size};"));
        let address = |case: &mut Case| match access {
            Access::Window => {
                case.stmt("add.u32 a, rw, o;");
            }
            Access::Generic { mapa } => {
                case.stmt("cvta.shared.u64 gw, win;")
                    .stmt(format!("{mapa} gp, gw, pr;"))
                    .stmt("cvt.u64.u32 o64, o;")
                    .stmt("add.u64 a, gp, o64;");
            }
        };
        if store {
            address(&mut case);
            case.stmt(format!("{opcode} [a], {vals};")).stmt("barrier.cluster.arrive;").stmt("barrier.cluster.wait;");
        } else {
            let (_, got) = elements("w", lanes);
            case.stmt("mov.u32 own, win;")
                .stmt("add.u32 own, own, o;")
                .stmt(format!("st.shared{v}.{ty} [own], {vals};"))
                .stmt("barrier.cluster.arrive;")
                .stmt("barrier.cluster.wait;");
            address(&mut case);
            case.stmt(format!("{opcode} {got}, [a];"));
            slot(&mut case, "od", "out", size);
            case.stmt(format!("st.global{v}.{ty} [od], {got};"));
        }
        out.push((format!("cluster {ctas}, {threads} threads"), case.finish()));
    }
    out
}

/// The vector suffix (`.v2`, `.v4`, or none) and the register operand of `lanes` registers
/// named `p0`, `p1`, ….
fn elements(p: &str, lanes: u32) -> (String, String) {
    let names: Vec<String> = (0..lanes).map(|k| format!("{p}{k}")).collect();
    match lanes {
        1 => (String::new(), names[0].clone()),
        n => (format!(".v{n}"), format!("{{{}}}", names.join(", "))),
    }
}
