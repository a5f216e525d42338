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

use oracle::isa::operand::Operand;
use oracle::isa::types::{AddrType, MemType, OrderSem, Scope, Space, VecWidth};
use oracle::isa::{
    valid_forms, CvtType, Cvta, Family, Form, Instruction, LdSem, Mapa, MbarrierOp, MovType, StSem, Target,
};
use oracle::memprog::{Init, MemSource};
use oracle::program::{Cmp, GlueOp, GlueType, RegClass};

use super::builder::{hex, pattern, Case};
use crate::memory::stmt::{self, at, forms, guard, imm, name, vector, Stmt};

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
                Form::Mbarrier(mb) if arrive_form(mb) => arrive_cases(mb, target),
                Form::St(st)
                    if ldst_form(st.space, st.sem.map(|s| s != StSem::Weak), st.scope, st.ty, st.vec)
                        && plain_st(st) =>
                {
                    ldst_cases(&form, Access::Window, true, st.ty, st.vec, target)
                }
                Form::Ld(l)
                    if ldst_form(l.space, l.sem.map(|s| s != LdSem::Weak), l.scope, l.ty, l.vec) && plain_ld(l) =>
                {
                    ldst_cases(&form, Access::Window, false, l.ty, l.vec, target)
                }
                Form::Mapa(m) if is_remote_form(&opcode) => GENERIC_ACCESSES
                    .iter()
                    .flat_map(|&(store, ty, lanes)| {
                        let vec = lanes_width(lanes);
                        let access_form = if store { stmt::st(None, vec, ty) } else { stmt::ld(None, vec, ty) };
                        let access_opcode = access_form.opcode();
                        // The generic address is a register (`gw`), whichever operand the row's
                        // form names.
                        let access = Access::Generic { mapa: Mapa { var: false, ..*m } };
                        ldst_cases(&access_form, access, store, ty, vec, target)
                            .into_iter()
                            .map(move |(label, src)| (format!("generic {access_opcode}, {label}"), src))
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
    case.isa(stmt::mov_special(MovType::U32), vec![name("rk"), name("%cluster_ctarank")])
        .isa(stmt::mov_special(MovType::U32), vec![name("tid"), name("%tid.x")])
        .glue(GlueOp::Add, GlueType::U32, "pr", vec![name("rk"), imm(1)])
        .glue(GlueOp::And, GlueType::B32, "pr", vec![name("pr"), imm(u64::from(ctas - 1))])
        .isa(window_mapa(), vec![name("rw"), name("win"), name("pr")]);
}

/// `mapa.shared::cluster.u32 d, var, rank`: a shared buffer's address in another CTA.
fn window_mapa() -> Form {
    Form::Mapa(Mapa { shared_cluster: true, ty: AddrType::U32, var: true })
}

/// `dst` := the global address of `buffer` + (rank × threads + tid) × `size`.
fn slot(case: &mut Case, dst: &str, buffer: &str, size: u64) {
    let threads = u64::from(case.threads);
    let (index, offset) = (format!("{dst}i"), format!("{dst}o"));
    case.glue(GlueOp::MulLo, GlueType::U32, &index, vec![name("rk"), imm(threads)])
        .glue(GlueOp::Add, GlueType::U32, &index, vec![name(&index), name("tid")])
        .glue(GlueOp::MulWide, GlueType::U32, &offset, vec![name(&index), imm(size)])
        .isa(stmt::mov_name(MovType::U64, buffer), vec![name(dst), name(buffer)])
        .glue(GlueOp::Add, GlueType::U64, dst, vec![name(dst), name(&offset)]);
}

/// The cluster barrier: `barrier.cluster.arrive` (release) then `wait` (acquire).
fn cluster_barrier(case: &mut Case) -> &mut Case {
    case.push(Stmt::ClusterArrive).push(Stmt::ClusterWait)
}

fn arrive_cases(mb: &oracle::isa::Mbarrier, target: &Target) -> Vec<(String, MemSource)> {
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
        let mut arrive = vec![Operand::Sink, at("rb", 0)];
        match (mb.op, mb.count) {
            (MbarrierOp::ArriveExpectTx | MbarrierOp::ArriveDropExpectTx, _) => arrive.push(imm(0)),
            (_, true) => arrive.push(imm(u64::from(count))),
            _ => {}
        }
        let init = Instruction {
            guard: Some(guard("lead", false)),
            form: forms::mbarrier_init(),
            operands: vec![at("bar", 0), imm(u64::from(threads * count))],
        };
        case.glue(GlueOp::Setp(Cmp::Eq), GlueType::U32, "lead", vec![name("tid"), imm(0)])
            .push(Stmt::Isa(init))
            .isa(forms::mbarrier_init_fence(), vec![]);
        cluster_barrier(&mut case)
            .isa(window_mapa(), vec![name("rb"), name("bar"), name("pr")])
            .glue(GlueOp::Shl, GlueType::B32, "o", vec![name("tid"), imm(2)])
            .glue(GlueOp::Add, GlueType::U32, "a", vec![name("rw"), name("o")])
            .glue(GlueOp::Shl, GlueType::B32, "v", vec![name("rk"), imm(8)])
            .glue(GlueOp::Or, GlueType::B32, "v", vec![name("v"), name("tid")])
            .glue(GlueOp::Xor, GlueType::B32, "v", vec![name("v"), name("x")])
            .isa(stmt::st(Some(Space::SharedCluster), None, MemType::U32), vec![at("a", 0), name("v")])
            .isa(Form::Mbarrier(*mb), arrive)
            .wait_on(0, orders);
        if !orders {
            cluster_barrier(&mut case);
        }
        case.isa(stmt::mov_name(MovType::U32, "win"), vec![name("own"), name("win")])
            .glue(GlueOp::Add, GlueType::U32, "own", vec![name("own"), name("o")])
            .isa(stmt::ld(Some(Space::Shared), None, MemType::U32), vec![name("y"), at("own", 0)]);
        slot(&mut case, "od", "out", 4);
        case.isa(stmt::st(Some(Space::Global), None, MemType::U32), vec![at("od", 0), name("y")]);
        let how = if orders { "release/acquire" } else { "cluster barrier" };
        let label = format!("cluster {ctas}, {threads} threads, count {count}, ordered by {how}");
        out.push((label, case.finish()));
    }
    out
}

/// How a remote `ld`/`st` case addresses the peer's `win`.
#[derive(Clone, Copy)]
enum Access {
    /// A `.shared::cluster` window address from `mapa.shared::cluster` (`rw`).
    Window,
    /// A generic address: `cvta.shared` of `win`, then this generic `mapa` form.
    Generic {
        /// The `mapa` form (of a register).
        mapa: Mapa,
    },
}

/// The `.v2`/`.v4` of `lanes` elements (none for one).
fn lanes_width(lanes: u32) -> Option<VecWidth> {
    match lanes {
        2 => Some(VecWidth::V2),
        4 => Some(VecWidth::V4),
        _ => None,
    }
}

/// The cases of the remote access `form` (an `ld`/`st` of `vec` elements of `ty`) through
/// `access`.
fn ldst_cases(
    form: &Form,
    access: Access,
    store: bool,
    ty: MemType,
    vec: Option<VecWidth>,
    target: &Target,
) -> Vec<(String, MemSource)> {
    let lanes = vec.map_or(1, |v| u32::from(v.len()));
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
        let vals = elements("v", lanes);
        slot(&mut case, "sa", "src", size);
        case.isa(stmt::ld(Some(Space::Global), vec, ty), vec![vals.clone(), at("sa", 0)]).glue(
            GlueOp::MulLo,
            GlueType::U32,
            "o",
            vec![name("tid"), imm(size)],
        );
        let address = |case: &mut Case| match access {
            Access::Window => {
                case.glue(GlueOp::Add, GlueType::U32, "a", vec![name("rw"), name("o")]);
            }
            Access::Generic { mapa } => {
                let cvta = Cvta { to: false, space: Space::Shared, size: AddrType::U64, var: true };
                case.isa(Form::Cvta(cvta), vec![name("gw"), name("win")])
                    .isa(Form::Mapa(mapa), vec![name("gp"), name("gw"), name("pr")])
                    .isa(stmt::cvt(CvtType::U64, CvtType::U32), vec![name("o64"), name("o")])
                    .glue(GlueOp::Add, GlueType::U64, "a", vec![name("gp"), name("o64")]);
            }
        };
        if store {
            address(&mut case);
            case.isa(form.clone(), vec![at("a", 0), vals]);
            cluster_barrier(&mut case);
        } else {
            let got = elements("w", lanes);
            case.isa(stmt::mov_name(MovType::U32, "win"), vec![name("own"), name("win")])
                .glue(GlueOp::Add, GlueType::U32, "own", vec![name("own"), name("o")])
                .isa(stmt::st(Some(Space::Shared), vec, ty), vec![at("own", 0), vals]);
            cluster_barrier(&mut case);
            address(&mut case);
            case.isa(form.clone(), vec![got.clone(), at("a", 0)]);
            slot(&mut case, "od", "out", size);
            case.isa(stmt::st(Some(Space::Global), vec, ty), vec![at("od", 0), got]);
        }
        out.push((format!("cluster {ctas}, {threads} threads"), case.finish()));
    }
    out
}

/// The register operand of `lanes` registers named `p0`, `p1`, … (the register itself for one,
/// else the brace vector).
fn elements(p: &str, lanes: u32) -> Operand {
    let names: Vec<String> = (0..lanes).map(|k| format!("{p}{k}")).collect();
    match lanes {
        1 => name(&names[0]),
        _ => vector(&names),
    }
}
