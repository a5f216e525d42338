//! The memory-program interpreter: every thread of every CTA of the cluster in lockstep,
//! statement by statement, over the program's buffers as [`Region`]s (one region per global
//! buffer, one per shared buffer and CTA), with every asynchronous operation taking effect
//! through [`Protocol`].
//!
//! - Registers hold known bits, unknown bits (with the allowance that made them so), or an
//!   address (a region and a byte offset: `mov r, name` then integer `add`/`sub`; a shared
//!   buffer's name is the executing CTA's copy, `mapa.shared::cluster` names another CTA's),
//!   shared-window or generic (`cvta.shared`, generic `mapa`; a global buffer's is both);
//!   any other arithmetic on an address is an error. `%tid.x` is the thread index in its CTA,
//!   `%cluster_ctarank` and `%ctaid.x` the CTA's rank (the grid is the one cluster),
//!   `%cluster_nctarank` and `%nctaid.x` the CTA count.
//! - Only `.shared::cluster` accesses (`ld`/`st.shared::cluster`, `mbarrier.arrive` and
//!   friends on `.shared::cluster`, `st.async`, `cp.async.bulk` into shared memory, and their
//!   mbarriers, which must lie in the destination's CTA) may name another CTA's shared memory;
//!   every other shared access to another CTA's copy is undefined. A multicast copy
//!   (`ctaMask`) is one operation per destination CTA, each completing on the mbarrier at the
//!   same offset in its CTA (§9.7.9.25.4.1, §9.7.9.25.5.2).
//! - The CTAs run in lockstep, which orders everything; what the hardware orders between CTAs
//!   is tracked beside it ([`crate::memory::Order`]: `bar.sync`, `barrier.cluster` with
//!   release, and mbarrier release/acquire at `.cluster` scope), and two generic accesses of
//!   different CTAs, one a write, that it does not order are a data race: undefined (PTX ISA
//!   9.0 §8.7.1). Programs that need a barrier for an asynchronous operation (a multicast after
//!   every CTA armed its mbarrier) must still say it, for the hardware, and the generator
//!   always does.
//! - Threads diverge at forward branches (and guards) and reconverge at the branch's label;
//!   `bar.sync 0` needs every thread converged.
//! - Generic loads and stores check the protocol (pending operations, opaque mbarriers) and
//!   access the bytes at once; an asynchronous copy (`cp.async`, `cp.async.bulk{.tensor}`,
//!   `st.async`) reads its source when issued (a later write to it is undefined until the copy
//!   has read it) and writes its destination when its completion mechanism completes it; a
//!   bulk reduction computes `dst op src` ([`crate::semantics::reduce`]) at completion.
//! - Tensor copies lay tiles out through [`crate::memory::tensor_map`]; global buffers sit at
//!   the model addresses [`super::global_base`] gives them. A tensor map with an object buffer
//!   is also a tensor-map object there (opaque bytes, no other write may touch them):
//!   `tensormap.replace` changes its fields ([`crate::memory::tensor_map::TensorMap::replaced`],
//!   tile mode only), and a thread's tensor copy may name it only after a release fence
//!   followed the last replacement and the thread's own acquire followed that (§9.7.13.4). A
//!   `cp.async.bulk` of an object's 128 bytes to the start of a shared buffer makes that
//!   buffer (in each destination CTA) a tensor-map object in shared memory, which
//!   `tensormap.replace.*.shared::cta` changes and `tensormap.cp_fenceproxy` copies to the
//!   start of a global buffer and releases (§9.7.13.16); a tensor copy never names a shared
//!   object. A replacement racing a copy still in flight through the object is not detected.
//! - `cvt`, `cvt.pack` and `prmt` evaluate through [`crate::semantics::operands`]; a
//!   set-valued result is unknown under its allowance.
//! - A shared buffer is taken to start at a multiple of 1024 bytes (the PTX printer places
//!   them so beside swizzled maps and tensor-map objects), so a tensor copy's swizzle, which follows the absolute
//!   shared address, is decided by its offset in the buffer.
//! - At the end, bytes that operations still pending may write are unknown
//!   ([`Allowance::Undefined`]), and so are live mbarrier objects (opaque).
//!
//! Each file has one job: `control.rs` (the branch and wait-loop rules), `machine.rs`
//! (registers, operand values, addresses and spans, applying effects), `exec.rs` (statement
//! dispatch, one function per instruction family), `values.rs` (glue, `mov`, `cvta`, `mapa`,
//! `getctarank`, `ld`, `st`, `cvt`, `cvt.pack`, `prmt`), `cp_async.rs`, `bulk.rs` (bulk copies
//! and reductions, `st.async`), `mbarrier.rs`, `tensormap.rs` (tensor-map operands and objects,
//! `tensormap.replace`), `tensor.rs` (tensor copies and reductions) and `fence.rs`; this file
//! holds the machine's state and [`run`]; `tests.rs` the cluster tests (remote forms, races);
//! `object_tests.rs` the tests of tensor-map objects in shared memory.
//!
//! Invariant: the interpreter never panics on a parsed program; everything it cannot model
//! or the spec leaves undefined is a [`StmtError`] naming the statement.

mod bulk;
mod control;
mod cp_async;
mod exec;
mod fence;
mod machine;
mod mbarrier;
#[cfg(test)]
mod object_tests;
mod tensor;
mod tensormap;
#[cfg(test)]
mod tests;
mod values;

pub(super) use control::check_control_flow;

use super::{BufferSpace, MemError, MemProgram, StmtError, StmtKind};
use crate::isa::{RedOp, ReduceType};
use crate::memory::{Byte, Protocol, Region};
use crate::semantics::{Allowance, Allowances};

/// A register's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Val {
    /// Never written (typing keeps reads of it out).
    Unset,
    /// Known bits (at the register's width).
    Bits(u64),
    /// Any value, under this allowance.
    Unknown(Allowance),
    /// An address: a region (buffer `b` of CTA `c` is region `c × buffers + b`) and a byte
    /// offset from its base.
    Addr {
        /// Region index.
        buffer: usize,
        /// Offset.
        offset: i64,
        /// A generic address (§6.4: a global buffer's, or a shared one's after `cvta.shared`
        /// or generic `mapa`), not a shared-window one (a shared buffer's name, `mapa.shared::cluster`).
        generic: bool,
    },
}

/// The map a tensor operand names: a tensor map parameter, or a tensor-map object as it is now.
struct MapUse {
    /// What messages call it.
    name: String,
    /// Its fields.
    map: crate::memory::tensor_map::TensorMap,
    /// The global buffer its global address lies in.
    buffer: usize,
}

/// What a completed asynchronous operation does to memory.
#[derive(Clone, Debug)]
enum Effect {
    /// Writes `bytes` at `start` of region `region`; `None` bytes are left as they are.
    Write { region: usize, start: u64, bytes: Vec<Option<Byte>> },
    /// Several effects, in order.
    Many(Vec<Effect>),
    /// `dst = dst op src` element by element over `src.len()` bytes at `start` of `region`
    /// (§9.7.9.25.4.2), computed when the reduction completes.
    Reduce { region: usize, start: u64, op: RedOp, ty: ReduceType, src: Vec<Byte> },
    /// A whole tensor-map object copied to the start of `region` (a shared buffer): the region
    /// becomes that object, its 128 bytes opaque.
    Object { region: usize, object: MapObject },
}

/// `e` with the buffer names its protocol error refers to.
fn named(e: MemError, names: &[String]) -> MemError {
    match e {
        MemError::Protocol { error, .. } => MemError::Protocol { error, buffers: names.to_vec() },
        e => e,
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

struct Machine<'a> {
    p: &'a MemProgram,
    /// Buffers of the program (regions per CTA).
    nbuf: usize,
    allow: &'a Allowances,
    regions: Vec<Region>,
    regs: Vec<Vec<Val>>,
    protocol: Protocol<Effect>,
    /// `barrier.cluster.wait`s every thread has passed so far.
    cluster_waits: u64,
    /// Per mbarrier object (region, offset): the `cluster_waits` count when it was initialised.
    init_epoch: std::collections::BTreeMap<(usize, u64), u64>,
    /// The tensor-map objects in global and shared memory, by the region holding them (each
    /// at the region's start).
    objects: std::collections::BTreeMap<usize, MapObject>,
    /// Happens-before between the CTAs: which generic accesses race.
    order: crate::memory::Order,
    /// The statement running (the time [`crate::memory::Order`] counts in).
    step: u64,
    /// Region names as messages give them.
    names: Vec<String>,
    /// Each register's index in the program's list, by name (looked up by every operand).
    reg_at: std::collections::HashMap<&'a str, usize>,
}

/// A tensor-map object in global or shared memory (§9.7.9.26): its fields as
/// `tensormap.replace` left them, and which threads' tensormap proxy may use them (a shared
/// object is never used by a copy; it only goes back to global memory through
/// `tensormap.cp_fenceproxy`, §9.7.13.16). `tensormap.replace` is a generic-proxy
/// write; a tensor copy reads the object through the tensormap proxy, so a thread may use a
/// replaced object only after a `fence.proxy.tensormap::generic.release` following the
/// replacement and its own `fence.proxy.tensormap::generic.acquire [object], 128` after that
/// (§9.7.13.4; the kernel prologue does both for the copy it starts with).
#[derive(Clone, Debug)]
struct MapObject {
    /// The tensor map it was first copied from (index into [`MemProgram::tensor_maps`]).
    decl: usize,
    /// Its fields now.
    map: crate::memory::tensor_map::TensorMap,
    /// Threads whose replacement no release fence of theirs has followed yet.
    unreleased: std::collections::BTreeSet<u32>,
    /// Threads whose acquire fence followed the last replacement's release.
    acquired: std::collections::BTreeSet<u32>,
}

/// Threads of a warp (a CTA's threads `32 k …` go together).
const WARP: u32 = 32;

impl Machine<'_> {
    /// `Err` when `s` is a `.sync.aligned` instruction (`tensormap.cp_fenceproxy`,
    /// §9.7.13.16) that some but not all threads of a warp execute (diverged, or under a guard
    /// that differs between them): every thread of the warp must execute it together.
    fn warp_uniform(&self, s: &super::Stmt, waiting: &[Option<usize>]) -> Result<(), MemError> {
        let StmtKind::Isa(inst) = &s.kind else { return Ok(()) };
        if !matches!(inst.form, crate::isa::Form::TensormapCpFenceproxy(_)) {
            return Ok(());
        }
        let mut warps: std::collections::BTreeMap<(u32, u32), bool> = std::collections::BTreeMap::new();
        for t in 0..waiting.len() as u32 {
            let runs = waiting[t as usize].is_none() && self.guard(t, s)?;
            let warp = (self.cta(t), (t % self.p.threads) / WARP);
            if *warps.entry(warp).or_insert(runs) != runs {
                return Err(MemError::Undefined(format!(
                    "`{}` is .sync.aligned: every thread of a warp executes it together, but only some threads of warp {} of CTA {} do (§9.7.13.16)",
                    inst.form.opcode(),
                    warp.1,
                    warp.0
                )));
            }
        }
        Ok(())
    }
}

/// Runs `p` under the allowances `allow`: the final bytes of every buffer, in the order of
/// [`MemProgram::buffers`].
pub fn run(p: &MemProgram, allow: &Allowances) -> Result<Vec<Region>, StmtError> {
    let ctas = p.cluster.max(1);
    let threads = p.threads * ctas;
    let names: Vec<String> = (0..ctas)
        .flat_map(|c| {
            p.buffers.iter().map(move |b| if c == 0 { b.name.clone() } else { format!("{} of CTA {c}", b.name) })
        })
        .collect();
    let mut m = Machine {
        p,
        nbuf: p.buffers.len(),
        allow,
        regions: (0..ctas).flat_map(|_| p.buffers.iter().map(|b| b.init.clone())).collect(),
        regs: vec![vec![Val::Unset; p.regs.len()]; threads as usize],
        protocol: Protocol::new(),
        cluster_waits: 0,
        init_epoch: std::collections::BTreeMap::new(),
        objects: std::collections::BTreeMap::new(),
        order: crate::memory::Order::new(ctas, p.threads),
        step: 0,
        names: names.clone(),
        // The first of two registers of one name wins, as a search of the list would find it.
        reg_at: p.regs.iter().enumerate().rev().map(|(i, r)| (r.name.as_str(), i)).collect(),
    };
    // Each tensor-map object starts as a copy of its map, visible to every thread's tensormap
    // proxy; its bytes are opaque.
    for (j, d) in p.tensor_maps.iter().enumerate() {
        if let Some(k) = d.object {
            let opaque = m.regions[k].forget(0, super::TENSOR_MAP_BYTES as u64, Allowance::Undefined);
            opaque.map_err(|e| StmtError {
                index: 0,
                text: "(declarations)".into(),
                error: MemError::Parse(format!("tensor-map object of `{}`: {e}", d.name)),
            })?;
            let acquired = (0..threads).collect();
            let unreleased = Default::default();
            m.objects.insert(k, MapObject { decl: j, map: d.map.clone(), unreleased, acquired });
        }
    }
    for regs in &mut m.regs {
        for (&i, &v) in &p.inputs {
            regs[i] = Val::Bits(v & mask(p.regs[i].class.bits()));
        }
    }
    // A thread skipping forward waits for this statement index.
    let mut waiting: Vec<Option<usize>> = vec![None; threads as usize];
    for (i, s) in p.stmts.iter().enumerate() {
        m.step = i as u64;
        let err = |error| StmtError { index: s.line, text: s.text.clone(), error: named(error, &names) };
        for w in waiting.iter_mut() {
            if *w == Some(i) {
                *w = None;
            }
        }
        match &s.kind {
            StmtKind::Label(_) => {}
            StmtKind::Bar | StmtKind::ClusterArrive { .. } | StmtKind::ClusterWait => {
                if waiting.iter().any(Option::is_some) {
                    return Err(err(MemError::Undefined(
                        "a barrier while threads are diverged (§9.7.13.1, §9.7.13.3: every thread must reach it)"
                            .into(),
                    )));
                }
                match s.kind {
                    StmtKind::ClusterArrive { relaxed } => m.order.cluster_arrive(m.step, !relaxed),
                    StmtKind::ClusterWait => {
                        m.protocol.barrier();
                        m.order.cluster_wait();
                        m.cluster_waits += 1;
                    }
                    _ => {
                        m.protocol.barrier();
                        m.order.bar(m.step);
                    }
                }
            }
            _ => {
                m.warp_uniform(s, &waiting).map_err(err)?;
                for t in 0..threads {
                    if waiting[t as usize].is_some() || !m.guard(t, s).map_err(err)? {
                        continue;
                    }
                    if let StmtKind::Bra(l) = &s.kind {
                        // A wait loop's branch is never taken: the wait before it completed.
                        waiting[t as usize] = control::label_index(p, l).filter(|&l| l > i);
                        continue;
                    }
                    m.exec(t, s).map_err(err)?;
                }
            }
        }
    }
    let end = StmtError {
        index: p.stmts.last().map_or(0, |s| s.line + 1),
        text: "(end of program)".into(),
        error: MemError::Parse(String::new()),
    };
    for span in m.protocol.pending_writes().into_iter().chain(m.protocol.live_mbarriers()) {
        m.regions[span.region]
            .forget(span.start, span.len, Allowance::Undefined)
            .map_err(|e| StmtError { error: e.into(), ..end.clone() })?;
    }
    // A shared buffer's bytes are its CTAs' copies one after another, in rank order.
    let nbuf = m.nbuf;
    Ok((0..nbuf)
        .map(|b| match p.buffers[b].space {
            BufferSpace::Global => m.regions[b].clone(),
            BufferSpace::Shared => Region::concat((0..ctas as usize).map(|c| &m.regions[c * nbuf + b])),
        })
        .collect())
}
