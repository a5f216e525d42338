//! The memory-program interpreter: every thread of every CTA of the cluster in lockstep,
//! statement by statement, over the program's buffers as [`Region`]s (one region per global
//! buffer, one per shared buffer and CTA), with every asynchronous operation taking effect
//! through [`Protocol`].
//!
//! - Registers hold known bits, unknown bits (with the allowance that made them so), or an
//!   address (a region and a byte offset: `mov r, name` then integer `add`/`sub`; a shared
//!   buffer's name is the executing CTA's copy, `mapa.shared::cluster` names another CTA's);
//!   any other arithmetic on an address is an error. `%tid.x` is the thread index in its CTA,
//!   `%cluster_ctarank` and `%ctaid.x` the CTA's rank (the grid is the one cluster),
//!   `%cluster_nctarank` and `%nctaid.x` the CTA count.
//! - Only `.shared::cluster` destinations (`st.async`, `cp.async.bulk` into shared memory, and
//!   their mbarriers, which must lie in the destination's CTA) may name another CTA's shared
//!   memory; every other shared access to another CTA's copy is undefined. A multicast copy
//!   (`ctaMask`) is one operation per destination CTA, each completing on the mbarrier at the
//!   same offset in its CTA (§9.7.9.25.4.1, §9.7.9.25.5.2).
//! - The CTAs run in lockstep, so the model does not see the ordering `barrier.cluster`
//!   provides; programs that need it (a multicast after every CTA armed its mbarrier) must
//!   still say it, for the hardware, and the generator always does.
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
//!   replacement racing a copy still in flight through the object is not detected.
//! - `cvt`, `cvt.pack` and `prmt` evaluate through [`crate::semantics::operands`]; a
//!   set-valued result is unknown under its allowance.
//! - A shared buffer is taken to start at a multiple of 1024 bytes (the PTX printer places
//!   them so beside swizzled maps and tensor-map objects), so a tensor copy's swizzle, which follows the absolute
//!   shared address, is decided by its offset in the buffer.
//! - At the end, bytes that operations still pending may write are unknown
//!   ([`Allowance::Undefined`]), and so are live mbarrier objects (opaque).
//!
//! Invariant: the interpreter never panics on a parsed program; everything it cannot model
//! or the spec leaves undefined is a [`StmtError`] naming the statement.

use super::{BufferSpace, MemError, MemProgram, Stmt, StmtError, StmtKind};
use crate::isa::operand::{Imm, Operand, OperandKind, Role};
use crate::isa::types::Space;
use crate::isa::{BulkSpace, Completion, CpAsyncSrc, Form, MovShape, RedOp, ReduceType};
use crate::memory::{AsyncOp, Byte, Protocol, Proxy, Region, Signal, Span, WaitOn};
use crate::program::glue::Src;
use crate::program::Reg;
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
}

/// `e` with the buffer names its protocol error refers to.
fn named(e: MemError, names: &[String]) -> MemError {
    match e {
        MemError::Protocol { error, .. } => MemError::Protocol { error, buffers: names.to_vec() },
        e => e,
    }
}

/// Checks the control flow: every branch goes forward to a label of the program.
pub(super) fn check_control_flow(p: &MemProgram) -> Result<(), StmtError> {
    const LOOP: &str = "the loop `L: mbarrier.try_wait… p, [bar], …; @!p bra L;`";
    for (i, s) in p.stmts.iter().enumerate() {
        let err = |m: String| StmtError { index: i, text: s.text.clone(), error: MemError::Parse(m) };
        if let StmtKind::Bra(l) = &s.kind {
            let target = label_index(p, l).ok_or_else(|| err(format!("no label `{l}`")))?;
            if target <= i && !is_wait_loop(p, i) {
                return Err(err(format!("a backward branch: memory programs only branch forward, except in {LOOP}")));
            }
        }
        if is_wait(s) && !is_wait_loop(p, i + 1) {
            return Err(err(format!("a test_wait/try_wait whose result depends on timing: waits must be {LOOP}")));
        }
    }
    Ok(())
}

/// Whether a statement is an `mbarrier.test_wait`/`try_wait`.
fn is_wait(s: &Stmt) -> bool {
    use crate::isa::MbarrierOp::*;
    matches!(&s.kind, StmtKind::Isa(inst) if matches!(&inst.form, Form::Mbarrier(m) if matches!(m.op, TestWait | TestWaitParity | TryWait | TryWaitParity)))
}

/// The predicate an unguarded `test_wait`/`try_wait` writes.
fn wait_pred(s: &Stmt) -> Option<&str> {
    let StmtKind::Isa(inst) = &s.kind else { return None };
    if s.guard.is_some() || !is_wait(s) {
        return None;
    }
    match inst.operands.first() {
        Some(Operand::Name(p)) => Some(p),
        _ => None,
    }
}

/// Whether statement `i` is `@!p bra L;` right after `L: mbarrier.try_wait… p, …;`.
fn is_wait_loop(p: &MemProgram, i: usize) -> bool {
    let (Some(bra), Some(wait), Some(label)) =
        (p.stmts.get(i), i.checked_sub(1).and_then(|k| p.stmts.get(k)), i.checked_sub(2).and_then(|k| p.stmts.get(k)))
    else {
        return false;
    };
    let (StmtKind::Bra(l), Some(g), StmtKind::Label(l2)) = (&bra.kind, &bra.guard, &label.kind) else { return false };
    l == l2 && g.negated && wait_pred(wait) == Some(g.pred.as_str())
}

fn label_index(p: &MemProgram, l: &str) -> Option<usize> {
    p.stmts.iter().position(|s| matches!(&s.kind, StmtKind::Label(x) if x == l))
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
    /// The tensor-map objects in global memory, by the region holding them.
    objects: std::collections::BTreeMap<usize, MapObject>,
}

/// A tensor-map object in global memory (§9.7.9.26): its fields as `tensormap.replace` left
/// them, and which threads' tensormap proxy may use them. `tensormap.replace` is a generic-proxy
/// write; a tensor copy reads the object through the tensormap proxy, so a thread may use a
/// replaced object only after a `fence.proxy.tensormap::generic.release` following the
/// replacement and its own `fence.proxy.tensormap::generic.acquire [object], 128` after that
/// (§9.7.13.4; the kernel prologue does both for the copy it starts with).
#[derive(Clone, Debug)]
struct MapObject {
    /// The tensor map it was copied from (index into [`MemProgram::tensor_maps`]).
    decl: usize,
    /// Its fields now.
    map: crate::memory::tensor_map::TensorMap,
    /// Threads whose replacement no release fence of theirs has followed yet.
    unreleased: std::collections::BTreeSet<u32>,
    /// Threads whose acquire fence followed the last replacement's release.
    acquired: std::collections::BTreeSet<u32>,
}

/// Runs `p` under the allowances `allow`: the final bytes of every buffer, in the order of
/// [`MemProgram::buffers`].
pub fn run(p: &MemProgram, allow: &Allowances) -> Result<Vec<Region>, StmtError> {
    let ctas = p.cluster.max(1);
    let threads = p.threads * ctas;
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
    let names: Vec<String> = (0..ctas)
        .flat_map(|c| {
            p.buffers.iter().map(move |b| if c == 0 { b.name.clone() } else { format!("{} of CTA {c}", b.name) })
        })
        .collect();
    for (i, s) in p.stmts.iter().enumerate() {
        let err = |error| StmtError { index: i, text: s.text.clone(), error: named(error, &names) };
        for w in waiting.iter_mut() {
            if *w == Some(i) {
                *w = None;
            }
        }
        match &s.kind {
            StmtKind::Label(_) => {}
            StmtKind::Bar | StmtKind::ClusterArrive | StmtKind::ClusterWait => {
                if waiting.iter().any(Option::is_some) {
                    return Err(err(MemError::Undefined(
                        "a barrier while threads are diverged (§9.7.13.1, §9.7.13.2: every thread must reach it)"
                            .into(),
                    )));
                }
                if !matches!(s.kind, StmtKind::ClusterArrive) {
                    m.protocol.barrier();
                }
                if matches!(s.kind, StmtKind::ClusterWait) {
                    m.cluster_waits += 1;
                }
            }
            _ => {
                for t in 0..threads {
                    if waiting[t as usize].is_some() || !m.guard(t, s).map_err(err)? {
                        continue;
                    }
                    if let StmtKind::Bra(l) = &s.kind {
                        // A wait loop's branch is never taken: the wait before it completed.
                        waiting[t as usize] = label_index(p, l).filter(|&l| l > i);
                        continue;
                    }
                    m.exec(t, s).map_err(err)?;
                }
            }
        }
    }
    let end =
        StmtError { index: p.stmts.len(), text: "(end of program)".into(), error: MemError::Parse(String::new()) };
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

impl Machine<'_> {
    /// The CTA thread `t` belongs to.
    fn cta(&self, t: u32) -> u32 {
        t / self.p.threads
    }

    /// The buffer a region is a copy of.
    fn buffer(&self, region: usize) -> &super::Buffer {
        &self.p.buffers[region % self.nbuf]
    }

    /// The region of `region`'s buffer in CTA `cta`.
    fn in_cta(&self, region: usize, cta: u32) -> usize {
        cta as usize * self.nbuf + region % self.nbuf
    }

    /// The region a buffer's name means in thread `t`: its own CTA's copy of a shared buffer.
    fn named_region(&self, t: u32, buffer: usize) -> usize {
        match self.p.buffers[buffer].space {
            BufferSpace::Global => buffer,
            BufferSpace::Shared => self.in_cta(buffer, self.cta(t)),
        }
    }

    fn guard(&self, t: u32, s: &Stmt) -> Result<bool, MemError> {
        let Some(g) = &s.guard else { return Ok(true) };
        let i = self.reg_index(&g.pred)?;
        match self.regs[t as usize][i] {
            Val::Bits(b) => Ok((b & 1 == 1) != g.negated),
            _ => Err(MemError::Unsupported(format!("a guard on predicate `{}`, whose value is unknown", g.pred))),
        }
    }

    fn reg_index(&self, name: &str) -> Result<usize, MemError> {
        self.p.regs.iter().position(|r| r.name == name).ok_or_else(|| MemError::UnknownName(name.to_string()))
    }

    fn buffer_index(&self, name: &str) -> Option<usize> {
        self.p.buffers.iter().position(|b| b.name == name)
    }

    fn set(&mut self, t: u32, name: &str, v: Val) -> Result<(), MemError> {
        let i = self.reg_index(name)?;
        let v = match v {
            Val::Bits(b) => Val::Bits(b & mask(self.p.regs[i].class.bits())),
            v => v,
        };
        self.regs[t as usize][i] = v;
        Ok(())
    }

    /// The value of a source operand.
    fn value(&self, t: u32, o: &Operand) -> Result<Val, MemError> {
        match o {
            Operand::Imm(Imm::Int(v)) => Ok(Val::Bits(*v as u64)),
            Operand::Imm(Imm::F32Bits(b)) => Ok(Val::Bits(u64::from(*b))),
            Operand::Imm(Imm::F64Bits(b)) => Ok(Val::Bits(*b)),
            Operand::Name(n) if n == "%tid.x" => Ok(Val::Bits(u64::from(t % self.p.threads))),
            Operand::Name(n) if n == "%cluster_ctarank" || n == "%ctaid.x" => Ok(Val::Bits(u64::from(self.cta(t)))),
            Operand::Name(n) if n == "%cluster_nctarank" || n == "%nctaid.x" => {
                Ok(Val::Bits(u64::from(self.p.cluster.max(1))))
            }
            Operand::Name(n) if n.starts_with('%') => {
                Err(MemError::Unsupported(format!("special register `{n}` (only {})", super::SPECIAL_REGS.join(", "))))
            }
            Operand::Name(n) => match self.buffer_index(n) {
                Some(buffer) => Ok(Val::Addr { buffer: self.named_region(t, buffer), offset: 0 }),
                None => Ok(self.regs[t as usize][self.reg_index(n)?]),
            },
            Operand::NameOffset(n, off) => match self.buffer_index(n) {
                Some(buffer) => Ok(Val::Addr { buffer: self.named_region(t, buffer), offset: *off }),
                None => Err(MemError::UnknownName(n.clone())),
            },
            o => Err(MemError::Unsupported(format!("operand `{o}`"))),
        }
    }

    /// A source operand's known bits.
    fn known(&self, t: u32, o: &Operand) -> Result<u64, MemError> {
        match self.value(t, o)? {
            Val::Bits(b) => Ok(b),
            Val::Addr { .. } => Err(MemError::Unsupported(format!("`{o}` holds an address where a number is needed"))),
            _ => Err(MemError::Unsupported(format!("`{o}` is unknown where its value decides what happens"))),
        }
    }

    /// The region and offset an address operand names, checked to lie in `space` and, if
    /// shared, in the executing CTA's shared memory.
    fn address(&self, t: u32, o: &Operand, space: Option<BufferSpace>) -> Result<(usize, i64), MemError> {
        let (region, at) = self.cluster_address(t, o, space)?;
        let cta = (region / self.nbuf) as u32;
        if self.buffer(region).space == BufferSpace::Shared && cta != self.cta(t) {
            return Err(MemError::Undefined(format!(
                "`{o}` is CTA {cta}'s shared memory, which only .shared::cluster accesses reach (§5.1.5: a .shared::cta address names the executing CTA's shared memory)"
            )));
        }
        Ok((region, at))
    }

    /// The region and offset an address operand names, checked to lie in `space`; a shared
    /// address may be another CTA's (a `.shared::cluster` access).
    fn cluster_address(&self, t: u32, o: &Operand, space: Option<BufferSpace>) -> Result<(usize, i64), MemError> {
        let Operand::Address { base: Some(base), offset, .. } = o else {
            return Err(MemError::Unsupported(format!(
                "address `{o}`: it must be [buffer+offset] or [register+offset]"
            )));
        };
        let (buffer, at) = match self.buffer_index(base) {
            Some(b) => (self.named_region(t, b), *offset),
            None => match self.regs[t as usize][self.reg_index(base)?] {
                Val::Addr { buffer, offset: o2 } => (buffer, o2 + offset),
                _ => return Err(MemError::Unsupported(format!("register `{base}` does not hold a buffer address"))),
            },
        };
        let b = self.buffer(buffer);
        if let Some(s) = space {
            if b.space != s {
                return Err(MemError::Undefined(format!(
                    "the address names `{}`, a {} buffer, where the instruction accesses .{} (§6.4: an address outside the state space)",
                    b.name,
                    b.space.name(),
                    s.name()
                )));
            }
        }
        Ok((buffer, at))
    }

    /// The span of `len` bytes at an address, inside its buffer and aligned to `align`.
    fn span(&self, buffer: usize, at: i64, len: u64, align: u64, rule: &str) -> Result<Span, MemError> {
        let b = self.buffer(buffer);
        if at < 0 || at as u64 + len > b.init.len() as u64 {
            return Err(MemError::Undefined(format!(
                "{len} bytes at offset {at} of `{}` ({} bytes) lie outside it",
                b.name,
                b.init.len()
            )));
        }
        if align > 1 {
            if !(at as u64).is_multiple_of(align) {
                return Err(MemError::Undefined(format!(
                    "offset {at} of `{}` is not {align}-byte aligned ({rule})",
                    b.name
                )));
            }
            if !b.align.is_multiple_of(align) {
                return Err(MemError::Unsupported(format!(
                    "`{}` is only {}-byte aligned, so an access needing {align}-byte alignment ({rule}) cannot be placed",
                    b.name, b.align
                )));
            }
        }
        Ok(Span { region: buffer, start: at as u64, len })
    }

    fn bytes_of(v: Val, n: usize) -> Vec<Byte> {
        match v {
            Val::Bits(b) => (0..n).map(|k| Byte::Known(if k < 8 { (b >> (8 * k)) as u8 } else { 0 })).collect(),
            Val::Unknown(a) => vec![Byte::Unknown(a); n],
            Val::Addr { .. } => vec![Byte::Unknown(Allowance::AddressWindow); n],
            Val::Unset => vec![Byte::Unknown(Allowance::Undefined); n],
        }
    }

    fn val_of(bytes: &[Byte], signed: bool, width: u32) -> Val {
        let mut v = 0u64;
        for (k, b) in bytes.iter().enumerate() {
            match b {
                Byte::Known(x) => v |= u64::from(*x) << (8 * k),
                Byte::Unknown(a) => return Val::Unknown(*a),
            }
        }
        let bits = 8 * bytes.len() as u32;
        if signed && bits < 64 && v >> (bits - 1) & 1 == 1 {
            v |= !mask(bits);
        }
        Val::Bits(v & mask(width))
    }

    /// `Err` for a write from byte `start` of `region` on when the region holds a tensor-map
    /// object there: its encoding is opaque, only `tensormap.replace` changes its fields.
    fn outside_objects(&self, region: usize, start: u64) -> Result<(), MemError> {
        if self.objects.contains_key(&region) && start < super::TENSOR_MAP_BYTES as u64 {
            return Err(MemError::Unsupported(
                "a write into a tensor-map object (its encoding is opaque; tensormap.replace changes its fields)"
                    .into(),
            ));
        }
        Ok(())
    }

    fn apply(&mut self, effects: Vec<Effect>) -> Result<(), MemError> {
        for e in effects {
            match e {
                Effect::Write { region, start, bytes } => {
                    self.outside_objects(region, start)?;
                    for (k, b) in bytes.into_iter().enumerate() {
                        if let Some(b) = b {
                            self.regions[region].write(start + k as u64, &[b])?;
                        }
                    }
                }
                Effect::Many(list) => self.apply(list)?,
                Effect::Reduce { region, start, op, ty, src } => {
                    self.outside_objects(region, start)?;
                    let eb = (crate::semantics::reduce::element_bits(ty) / 8) as usize;
                    for (k, s) in src.chunks(eb).enumerate() {
                        let at = start + (k * eb) as u64;
                        let d = self.regions[region].read(at, eb as u64)?.to_vec();
                        let out = match (Self::val_of(&d, false, 64), Self::val_of(s, false, 64)) {
                            (Val::Bits(a), Val::Bits(b)) => {
                                let e = crate::semantics::reduce::reduce_with(op, ty, a, b, self.allow)
                                    .map_err(|e| MemError::Parse(e.to_string()))?;
                                match e.free.first() {
                                    None => Val::Bits(e.bits as u64),
                                    Some(f) => Val::Unknown(f.allowance),
                                }
                            }
                            (Val::Unknown(a), _) | (_, Val::Unknown(a)) => Val::Unknown(a),
                            _ => Val::Unknown(Allowance::Undefined),
                        };
                        self.regions[region].write(at, &Self::bytes_of(out, eb))?;
                    }
                }
            }
        }
        Ok(())
    }

    fn exec(&mut self, t: u32, s: &Stmt) -> Result<(), MemError> {
        match &s.kind {
            StmtKind::Glue(g) => self.glue(t, g),
            StmtKind::Isa(inst) => {
                let req = inst.form.check().map_err(|e| MemError::Parse(format!("not a legal form: {}", e.0)))?;
                req.check(&self.p.target)
                    .map_err(|e| MemError::Parse(format!("not valid on {}: {e}", self.p.target.name())))?;
                self.isa(t, &inst.form, &inst.operands)
            }
            StmtKind::Label(_) | StmtKind::Bra(_) | StmtKind::Bar | StmtKind::ClusterArrive | StmtKind::ClusterWait => {
                Ok(())
            }
        }
    }

    fn glue(&mut self, t: u32, g: &crate::program::Glue) -> Result<(), MemError> {
        let name = |r: Reg| match r {
            Reg::Virt(_, i) => Ok(i as usize),
            Reg::Special(_) => Err(MemError::Unsupported("special registers in glue".into())),
        };
        let src = |k: usize| -> Result<Val, MemError> {
            match g.src[k] {
                None => Ok(Val::Bits(0)),
                Some(Src::Imm(v)) => Ok(Val::Bits(v)),
                Some(Src::Reg(r)) => Ok(self.regs[t as usize][name(r)?]),
            }
        };
        let (a, b, c) = (src(0)?, src(1)?, src(2)?);
        use crate::program::GlueOp;
        let out = match (g.op, a, b) {
            (GlueOp::Add, Val::Addr { buffer, offset }, Val::Bits(x))
            | (GlueOp::Add, Val::Bits(x), Val::Addr { buffer, offset }) => {
                Val::Addr { buffer, offset: offset.wrapping_add(x as i64) }
            }
            (GlueOp::Sub, Val::Addr { buffer, offset }, Val::Bits(x)) => {
                Val::Addr { buffer, offset: offset.wrapping_sub(x as i64) }
            }
            (_, Val::Addr { .. }, _) | (_, _, Val::Addr { .. }) => {
                return Err(MemError::Unsupported(
                    "arithmetic on an address other than adding or subtracting a number".into(),
                ))
            }
            (_, Val::Bits(x), Val::Bits(y)) => match c {
                Val::Bits(p) => Val::Bits(g.eval(x, y, p & 1 == 1)),
                Val::Unknown(al) => Val::Unknown(al),
                _ => return Err(MemError::Unsupported("selp on a predicate that is not a known value".into())),
            },
            (_, Val::Unknown(al), _) | (_, _, Val::Unknown(al)) => Val::Unknown(al),
            _ => return Err(MemError::Unsupported("a glue source never written".into())),
        };
        self.regs[t as usize][name(g.dst)?] = out;
        Ok(())
    }

    fn isa(&mut self, t: u32, form: &Form, ops: &[Operand]) -> Result<(), MemError> {
        let dst_name = |k: usize| match ops.get(k) {
            Some(Operand::Name(n)) => Ok(n.clone()),
            o => Err(MemError::Unsupported(format!("destination `{o:?}`"))),
        };
        let generic = |space: Option<Space>| match space {
            Some(Space::Global) => Ok(Some(BufferSpace::Global)),
            Some(Space::Shared | Space::SharedCta | Space::SharedCluster) => Ok(Some(BufferSpace::Shared)),
            None => Ok(None),
            Some(s) => Err(MemError::Unsupported(format!("the .{s} state space"))),
        };
        match form {
            Form::Mov(m) => match m.shape {
                MovShape::Copy | MovShape::Symbol(_) | MovShape::SpecialReg => {
                    let v = self.value(t, &ops[1])?;
                    self.set(t, &dst_name(0)?, v)
                }
                _ => Err(MemError::Unsupported("mov packing or unpacking".into())),
            },
            // §9.7.9.23: the address of the same variable in CTA `rank`'s shared memory.
            Form::Mapa(a) if a.shared_cluster => {
                let (region, offset) = self.shared_value(t, &ops[1])?;
                let rank = self.known(t, &ops[2])?;
                if rank >= u64::from(self.p.cluster.max(1)) {
                    return Err(MemError::Undefined(format!(
                        "mapa to CTA {rank} of a cluster of {} (§9.7.9.23)",
                        self.p.cluster.max(1)
                    )));
                }
                self.set(t, &dst_name(0)?, Val::Addr { buffer: self.in_cta(region, rank as u32), offset })
            }
            // §9.7.9.24: the rank of the CTA whose shared memory the address names.
            Form::Getctarank(g) if g.shared_cluster => {
                let (region, _) = self.shared_value(t, &ops[1])?;
                self.set(t, &dst_name(0)?, Val::Bits((region / self.nbuf) as u64))
            }
            Form::Ld(l) => {
                let space = generic(l.space)?;
                let (ty, n) = data_shape(form, Role::Dst)?;
                let eb = u64::from(ty.bits() / 8).max(1);
                let (buffer, at) = self.address(t, &ops[1], space)?;
                let span = self.span(buffer, at, eb * n, eb * n, "§9.7.9.8: naturally aligned")?;
                self.protocol.generic_read(t, span)?;
                let bytes = self.regions[buffer].read(span.start, span.len)?.to_vec();
                let dsts: Vec<&Operand> = elements(&ops[0]);
                let signed = matches!(
                    l.ty.reg(),
                    crate::isa::types::RegType::S8 | crate::isa::types::RegType::S16 | crate::isa::types::RegType::S32
                );
                for (k, d) in dsts.into_iter().enumerate() {
                    let Operand::Name(d) = d else { continue };
                    let width = self.p.regs[self.reg_index(d)?].class.bits();
                    let v = Self::val_of(&bytes[k * eb as usize..(k + 1) * eb as usize], signed, width);
                    self.set(t, d, v)?;
                }
                Ok(())
            }
            Form::St(st) => {
                let space = generic(st.space)?;
                let (ty, n) = data_shape(form, Role::Src)?;
                let eb = u64::from(ty.bits() / 8).max(1);
                let (buffer, at) = self.address(t, &ops[0], space)?;
                let span = self.span(buffer, at, eb * n, eb * n, "§9.7.9.11: naturally aligned")?;
                self.outside_objects(buffer, span.start)?;
                let mut bytes = Vec::new();
                for o in elements(&ops[1]) {
                    bytes.extend(Self::bytes_of(self.value(t, o)?, eb as usize));
                }
                self.protocol.generic_write(t, span)?;
                self.regions[buffer].write(span.start, &bytes)?;
                Ok(())
            }
            Form::CpAsync(c) => {
                let size = c.cp_size.bytes() as u64;
                let (db, doff) = self.address(t, &ops[0], Some(BufferSpace::Shared))?;
                let (sb, soff) = self.address(t, &ops[1], Some(BufferSpace::Global))?;
                let rule = "§9.7.9.25.3.1: aligned to cp-size";
                let dst = self.span(db, doff, size, size, rule)?;
                let read = match c.src {
                    CpAsyncSrc::Full => size,
                    CpAsyncSrc::SrcSize => {
                        let n = self.known(t, &ops[3])?;
                        if n > size {
                            return Err(MemError::Undefined(format!(
                                "src-size {n} exceeds cp-size {size} (§9.7.9.25.3.1)"
                            )));
                        }
                        n
                    }
                    CpAsyncSrc::IgnoreSrc => {
                        if self.known(t, &ops[3])? & 1 == 1 {
                            0
                        } else {
                            size
                        }
                    }
                };
                let src = self.span(sb, soff, size, size, rule)?;
                let src = Span { len: read, ..src };
                let mut bytes: Vec<Option<Byte>> =
                    self.regions[sb].read(src.start, read)?.iter().copied().map(Some).collect();
                bytes.resize(size as usize, Some(Byte::Known(0)));
                let reads = if read > 0 { vec![src] } else { vec![] };
                self.protocol.issue(AsyncOp {
                    thread: t,
                    proxy: Proxy::Generic,
                    reads,
                    writes: vec![dst],
                    reduction: false,
                    signal: Signal::CpAsyncGroup,
                    effect: Effect::Write { region: db, start: dst.start, bytes },
                })?;
                Ok(())
            }
            Form::CpAsyncCommitGroup(_) => {
                self.protocol.commit_group(t, false);
                Ok(())
            }
            Form::CpAsyncWaitGroup(_) => {
                let n = self.known(t, &ops[0])? as usize;
                let e = self.protocol.wait_group(t, false, n, false);
                self.apply(e)
            }
            Form::CpAsyncWaitAll(_) => {
                let e = self.protocol.wait_all(t);
                self.apply(e)
            }
            Form::CpAsyncBulkCommitGroup(_) => {
                self.protocol.commit_group(t, true);
                Ok(())
            }
            Form::CpAsyncBulkWaitGroup(w) => {
                let n = self.known(t, &ops[0])? as usize;
                let e = self.protocol.wait_group(t, true, n, w.read);
                self.apply(e)
            }
            Form::CpAsyncBulkPrefetch(_) => {
                let (b, off) = self.address(t, &ops[0], Some(BufferSpace::Global))?;
                let size = self.known(t, &ops[1])?;
                self.span(b, off, size, 16, "§9.7.9.25.4.3: 16-byte aligned")?;
                Ok(())
            }
            Form::CpAsyncBulk(c) => {
                let space = |s: BulkSpace| match s {
                    BulkSpace::Global => BufferSpace::Global,
                    _ => BufferSpace::Shared,
                };
                let rule = "§9.7.9.25.4.1: 16-byte aligned";
                let size = self.known(t, &ops[2])?;
                if size % 16 != 0 {
                    return Err(MemError::Undefined(format!("size {size} is not a multiple of 16 (§9.7.9.25.4.1)")));
                }
                let (db, doff) = if c.dst == BulkSpace::SharedCluster {
                    self.cluster_address(t, &ops[0], Some(space(c.dst)))?
                } else {
                    self.address(t, &ops[0], Some(space(c.dst)))?
                };
                let (sb, soff) = self.address(t, &ops[1], Some(space(c.src)))?;
                let dst = self.span(db, doff, size, 16, rule)?;
                let src = self.span(sb, soff, size, 16, rule)?;
                let mut extra = 3 + usize::from(c.completion == Completion::Mbarrier);
                let mut ctas = vec![(db / self.nbuf) as u32];
                if c.multicast {
                    ctas = self.cta_mask(t, &ops[extra])?;
                    extra += 1;
                }
                extra += usize::from(c.cache_hint);
                let byte_mask = if c.cp_mask { Some(self.known(t, &ops[extra])?) } else { None };
                let bytes: Vec<Option<Byte>> = self.regions[sb]
                    .read(src.start, size)?
                    .iter()
                    .enumerate()
                    .map(|(k, &b)| match byte_mask {
                        Some(m) if (m >> (k % 16)) & 1 == 0 => None,
                        _ => Some(b),
                    })
                    .collect();
                let bar = match c.completion {
                    Completion::BulkGroup => None,
                    Completion::Mbarrier => Some(self.dst_mbarrier(t, &ops[3], db)?),
                };
                // A multicast is one copy per destination CTA, each at the same offsets.
                for cta in ctas {
                    let region = self.in_cta(db, cta);
                    let signal = match bar {
                        None => Signal::BulkGroup,
                        Some(b) => {
                            let bar = Span { region: self.in_cta(b.region, cta), ..b };
                            self.remote_ready(t, bar)?;
                            Signal::Mbarrier { bar, bytes: size as i64 }
                        }
                    };
                    self.protocol.issue(AsyncOp {
                        thread: t,
                        proxy: Proxy::Async,
                        reads: vec![src],
                        writes: vec![Span { region, ..dst }],
                        reduction: false,
                        signal,
                        effect: Effect::Write { region, start: dst.start, bytes: bytes.clone() },
                    })?;
                }
                Ok(())
            }
            Form::Mbarrier(mb) => self.mbarrier(t, mb, ops),
            Form::CpAsyncBulkTensor(c) => self.tensor_copy(t, c, ops),
            Form::CpReduceAsyncBulkTensor(c) => self.tensor_reduce(t, c, ops),
            Form::CpReduceAsyncBulk(c) => {
                let size = self.known(t, &ops[2])?;
                if size % 16 != 0 {
                    return Err(MemError::Undefined(format!("size {size} is not a multiple of 16 (§9.7.9.25.4.2)")));
                }
                let rule = "§9.7.9.25.4.2: 16-byte aligned";
                let (db, doff) = self.address(
                    t,
                    &ops[0],
                    Some(if c.dst == BulkSpace::Global { BufferSpace::Global } else { BufferSpace::Shared }),
                )?;
                let (sb, soff) = self.address(t, &ops[1], Some(BufferSpace::Shared))?;
                let dst = self.span(db, doff, size, 16, rule)?;
                let src = self.span(sb, soff, size, 16, rule)?;
                let signal = match c.completion {
                    Completion::BulkGroup => Signal::BulkGroup,
                    Completion::Mbarrier => Signal::Mbarrier { bar: self.bar(t, &ops[3])?, bytes: size as i64 },
                };
                let bytes = self.regions[sb].read(src.start, size)?.to_vec();
                self.protocol.issue(AsyncOp {
                    thread: t,
                    proxy: Proxy::Async,
                    reads: vec![src],
                    writes: vec![dst],
                    reduction: true,
                    signal,
                    effect: Effect::Reduce { region: db, start: dst.start, op: c.redop, ty: c.ty, src: bytes },
                })?;
                Ok(())
            }
            Form::CpAsyncBulkPrefetchTensor(_) => {
                // No memory effect; the map and coordinates must still name a tile.
                self.tensor_ref(t, &ops[0]).map(|_| ())
            }
            Form::CpAsyncMbarrierArrive(a) => {
                let bar = self.bar(t, &ops[0])?;
                self.protocol.cp_async_arrive(t, bar, a.noinc)?;
                Ok(())
            }
            Form::Fence(f) => {
                use crate::isa::{AsyncProxySpace, FenceKind, ProxyKind};
                if let FenceKind::Proxy(ProxyKind::Async(space)) = f.kind {
                    let want = space.map(|s| match s {
                        AsyncProxySpace::Global => BufferSpace::Global,
                        _ => BufferSpace::Shared,
                    });
                    let regions: Vec<usize> =
                        (0..self.regions.len()).filter(|&r| want.is_none_or(|w| self.buffer(r).space == w)).collect();
                    self.protocol.fence_proxy_async(t, want.map(|_| regions.as_slice()));
                }
                if f.kind == FenceKind::ProxyTensormap {
                    self.fence_tensormap(t, f.sem, ops)?;
                }
                // Other fences order memory between threads and proxies the model does not
                // distinguish (lockstep threads, one CTA): no effect.
                Ok(())
            }
            Form::Cvt(_) | Form::CvtPack(_) | Form::Prmt(_) => self.value_instruction(t, form, ops),
            Form::TensormapReplace(r) => self.tensormap_replace(t, r, ops),
            Form::StAsync(st) => {
                if !st.complete_tx || ops.len() < 3 {
                    return Err(MemError::Unsupported("st.async without its [mbar] (the .release line)".into()));
                }
                let (ty, n) = data_shape(form, Role::Src)?;
                let eb = u64::from(ty.bits() / 8).max(1);
                let (buffer, at) = self.cluster_address(t, &ops[0], Some(BufferSpace::Shared))?;
                let dst = self.span(buffer, at, eb * n, eb * n, "§9.7.9.12: naturally aligned")?;
                let mut bytes = Vec::new();
                for o in elements(&ops[1]) {
                    bytes.extend(Self::bytes_of(self.value(t, o)?, eb as usize).into_iter().map(Some));
                }
                let bar = self.dst_mbarrier(t, &ops[2], buffer)?;
                self.remote_ready(t, bar)?;
                self.protocol.issue(AsyncOp {
                    thread: t,
                    proxy: Proxy::Generic,
                    reads: Vec::new(),
                    writes: vec![dst],
                    reduction: false,
                    signal: Signal::Mbarrier { bar, bytes: (eb * n) as i64 },
                    effect: Effect::Write { region: buffer, start: dst.start, bytes },
                })?;
                Ok(())
            }
            f => Err(MemError::Unsupported(format!("`{}` (§{})", f.opcode(), f.family().section()))),
        }
    }
}

impl Machine<'_> {
    /// The CTAs a multicast's `ctaMask` names, in rank order: at least one, each in the cluster
    /// (§9.7.9.25.4.1: "each bit position in the 16-bit ctaMask operand corresponds to the
    /// %ctaid of the destination CTA").
    fn cta_mask(&self, t: u32, o: &Operand) -> Result<Vec<u32>, MemError> {
        let mask = self.known(t, o)? & 0xffff;
        let ctas = self.p.cluster.max(1);
        if mask == 0 || mask >> ctas != 0 {
            return Err(MemError::Undefined(format!(
                "ctaMask {mask:#x} names no CTA or a CTA outside the cluster of {ctas} (§9.7.9.25.4.1)"
            )));
        }
        Ok((0..ctas).filter(|c| mask >> c & 1 == 1).collect())
    }

    /// The mbarrier of a `.shared::cluster` destination in region `dst`: an 8-byte object in
    /// the same CTA's shared memory (§9.7.9.12, §9.7.9.25.4.1).
    fn dst_mbarrier(&self, t: u32, o: &Operand, dst: usize) -> Result<Span, MemError> {
        let (b, off) = self.cluster_address(t, o, Some(BufferSpace::Shared))?;
        if b / self.nbuf != dst / self.nbuf {
            return Err(MemError::Undefined(format!(
                "the mbarrier `{o}` is in CTA {}, the destination in CTA {} (§9.7.9.25.4.1: they must be in the same CTA)",
                b / self.nbuf,
                dst / self.nbuf
            )));
        }
        self.span(b, off, 8, 8, "§9.7.13.15: an 8-byte aligned mbarrier object")
    }

    /// The region and offset of a shared address held by a value operand (a shared buffer's
    /// name or a register holding a shared address).
    fn shared_value(&self, t: u32, o: &Operand) -> Result<(usize, i64), MemError> {
        match self.value(t, o)? {
            Val::Addr { buffer, offset } if self.buffer(buffer).space == BufferSpace::Shared => Ok((buffer, offset)),
            _ => Err(MemError::Unsupported(format!("`{o}` does not hold a shared-memory address"))),
        }
    }

    /// That thread `t` may signal the mbarrier `bar` of another CTA: its initialisation was
    /// followed by a `barrier.cluster.wait` (the hardware CTAs do not run in lockstep: only a
    /// cluster barrier after `mbarrier.init` and `fence.mbarrier_init.release.cluster` makes the
    /// object initialised for another CTA's copies, §9.7.13.4 and §9.7.13.15.9).
    fn remote_ready(&self, t: u32, bar: Span) -> Result<(), MemError> {
        let cta = (bar.region / self.nbuf) as u32;
        if cta == self.cta(t) {
            return Ok(());
        }
        match self.init_epoch.get(&(bar.region, bar.start)) {
            Some(&e) if e < self.cluster_waits => Ok(()),
            _ => Err(MemError::Undefined(format!(
                "CTA {} signals the mbarrier of CTA {cta} with no barrier.cluster.wait between that mbarrier's init and this operation (§9.7.13.4, §9.7.13.15.9: the init must be made visible to the cluster first)",
                self.cta(t)
            ))),
        }
    }

    /// The 8-byte mbarrier object an address operand names.
    fn bar(&self, t: u32, o: &Operand) -> Result<Span, MemError> {
        let (b, off) = self.address(t, o, Some(BufferSpace::Shared))?;
        self.span(b, off, 8, 8, "§9.7.13.15: an 8-byte aligned mbarrier object")
    }

    /// The `mbarrier.*` instructions (§9.7.13.15).
    fn mbarrier(&mut self, t: u32, mb: &crate::isa::Mbarrier, ops: &[Operand]) -> Result<(), MemError> {
        use crate::isa::MbarrierOp::*;
        let addr_at = usize::from(!matches!(mb.op, Init | Inval | ExpectTx | CompleteTx));
        let bar = self.bar(t, &ops[addr_at])?;
        let set_state = |m: &mut Self, token: u64| match &ops[0] {
            Operand::Name(n) => m.set(t, n, Val::Bits(token)),
            _ => Ok(()),
        };
        match mb.op {
            Init => {
                let count = self.known(t, &ops[1])? as i64;
                self.protocol.mbarrier_init(t, bar, count)?;
                self.init_epoch.insert((bar.region, bar.start), self.cluster_waits);
            }
            Inval => self.protocol.mbarrier_inval(bar)?,
            ExpectTx => self.protocol.mbarrier_expect_tx(bar, self.known(t, &ops[1])? as i64)?,
            CompleteTx => self.protocol.mbarrier_complete_tx(bar, self.known(t, &ops[1])? as i64)?,
            Arrive | ArriveDrop | ArriveExpectTx | ArriveDropExpectTx => {
                let drop = matches!(mb.op, ArriveDrop | ArriveDropExpectTx);
                let (count, expect) = match mb.op {
                    ArriveExpectTx | ArriveDropExpectTx => (1, self.known(t, &ops[2])? as i64),
                    _ if mb.count => (self.known(t, &ops[2])? as i64, 0),
                    _ => (1, 0),
                };
                let token = self.protocol.mbarrier_arrive(bar, count, expect, drop)?;
                set_state(self, token)?;
            }
            TestWait | TryWait | TestWaitParity | TryWaitParity => {
                let on = match mb.op {
                    TestWaitParity | TryWaitParity => WaitOn::Parity(self.known(t, &ops[2])? & 1 == 1),
                    _ => WaitOn::Token(self.known(t, &ops[2])?),
                };
                let effects = self.protocol.mbarrier_wait(bar, on)?;
                self.apply(effects)?;
                if let Operand::Name(p) = &ops[0] {
                    self.set(t, p, Val::Bits(1))?;
                }
            }
            ArriveNoComplete | ArriveDropNoComplete | PendingCount => {
                return Err(MemError::Unsupported(format!("mbarrier.{:?} (§9.7.13.15)", mb.op)))
            }
        }
        Ok(())
    }
}

impl Machine<'_> {
    /// The tensor map and coordinates of a `[tensorMap, {c0, …}]` operand: a tensor map
    /// parameter, or a tensor-map object in global memory (a buffer name or a register holding
    /// its address) as `tensormap.replace` left it, which this thread's tensormap proxy must
    /// have acquired and which must still be a map the driver would encode.
    fn tensor_ref(&self, t: u32, o: &Operand) -> Result<(MapUse, Vec<i32>), MemError> {
        let Operand::TensorRef { map, coords } = o else {
            return Err(MemError::Unsupported(format!("tensor operand `{o}`")));
        };
        let name = match map.as_ref() {
            Operand::Name(n) => n,
            o => return Err(MemError::Unsupported(format!("tensor map operand `{o}`: name a tensor map"))),
        };
        let coords = coords.iter().map(|c| self.known(t, c).map(|v| v as u32 as i32)).collect::<Result<_, _>>()?;
        if let Some(d) = self.p.tensor_maps.iter().find(|m| &m.name == name) {
            return Ok((MapUse { name: d.name.clone(), map: d.map.clone(), buffer: d.buffer }, coords));
        }
        let Val::Addr { buffer: region, offset: 0 } = self.value(t, map)? else {
            return Err(MemError::Undefined(format!(
                "tensor map operand `{name}` is no tensor map and no tensor-map object"
            )));
        };
        let obj = self.objects.get(&region).ok_or_else(|| {
            MemError::Undefined(format!(
                "`{name}` is not a tensor-map object (a buffer a tensor map names as its \"object\")"
            ))
        })?;
        let label = format!("the tensor-map object of `{}`", self.p.tensor_maps[obj.decl].name);
        if !obj.acquired.contains(&t) {
            return Err(MemError::Undefined(format!(
                "§9.7.13.4: {label} is used after tensormap.replace without fence.proxy.tensormap::generic release, then this thread's acquire [object], 128"
            )));
        }
        obj.map
            .validate(&self.p.target)
            .map_err(|e| MemError::Undefined(format!("{label} after tensormap.replace: {e}")))?;
        let buffer = self.global_byte(obj.map.global_address).map(|(b, _)| b).ok_or_else(|| {
            MemError::Undefined(format!(
                "{label}: its global address {:#x} lies in no global buffer",
                obj.map.global_address
            ))
        })?;
        Ok((MapUse { name: label, map: obj.map.clone(), buffer }, coords))
    }

    /// `tensormap.replace` (§9.7.9.26) of a tensor-map object in global memory.
    fn tensormap_replace(&mut self, t: u32, r: &crate::isa::TensormapReplace, ops: &[Operand]) -> Result<(), MemError> {
        if r.ss == Some(crate::isa::TensormapSs::SharedCta) {
            return Err(MemError::Unsupported("tensor-map objects in shared memory".into()));
        }
        let (region, at) = self.address(t, &ops[0], Some(BufferSpace::Global))?;
        if at != 0 || !self.objects.contains_key(&region) {
            return Err(MemError::Undefined(format!(
                "`{}` is not the start of a tensor-map object (a buffer a tensor map names as its \"object\")",
                ops[0]
            )));
        }
        if self.objects.get(&region).is_some_and(|o| o.map.mode != crate::memory::tensor_map::MapMode::Tiled) {
            return Err(MemError::Undefined(
                "tensormap.replace.tile on an im2col tensor-map object (§9.7.9.26: .mode is the object's mode)".into(),
            ));
        }
        let ord = match r.field.has_ord() {
            true => Some(usize::try_from(self.known(t, &ops[1])?).unwrap_or(usize::MAX)),
            false => None,
        };
        let new_val = ops.last().ok_or_else(|| MemError::Unsupported("tensormap.replace without new_val".into()))?;
        let value = match self.value(t, new_val)? {
            Val::Addr { buffer, offset }
                if r.field == crate::isa::TensormapField::GlobalAddress
                    && self.buffer(buffer).space == BufferSpace::Global =>
            {
                super::global_base(buffer, self.buffer(buffer).align).wrapping_add_signed(offset)
            }
            _ => self.known(t, new_val)?,
        };
        let obj = self.objects.get_mut(&region).expect("checked above");
        obj.map = obj.map.replaced(r.field, ord, value).map_err(MemError::Unsupported)?;
        obj.unreleased.insert(t);
        obj.acquired.clear();
        Ok(())
    }

    /// `fence.proxy.tensormap::generic` (§9.7.13.4): `.release` makes this thread's
    /// replacements releasable, `.acquire [addr], 128` lets this thread's tensormap proxy use
    /// the object at `addr` once every replacement of it was released.
    fn fence_tensormap(
        &mut self,
        t: u32,
        sem: Option<crate::isa::types::OrderSem>,
        ops: &[Operand],
    ) -> Result<(), MemError> {
        use crate::isa::types::OrderSem;
        if matches!(sem, Some(OrderSem::Release | OrderSem::AcqRel)) {
            for obj in self.objects.values_mut() {
                obj.unreleased.remove(&t);
            }
        }
        if matches!(sem, Some(OrderSem::Acquire | OrderSem::AcqRel)) {
            let Some(addr) = ops.first() else { return Ok(()) };
            let (region, at) = self.address(t, addr, Some(BufferSpace::Global))?;
            let Some(obj) = self.objects.get_mut(&region).filter(|_| at == 0) else {
                return Err(MemError::Undefined(format!("`{addr}` is not the start of a tensor-map object")));
            };
            // An acquire before every replacement was released acquires nothing; a use without
            // a later acquire is undefined where it happens.
            if obj.unreleased.is_empty() {
                obj.acquired.insert(t);
            }
        }
        Ok(())
    }

    /// The global buffer byte at a model address, if it lies in a global buffer.
    fn global_byte(&self, addr: u64) -> Option<(usize, u64)> {
        self.p.buffers.iter().enumerate().find_map(|(k, b)| {
            let base = super::global_base(k, b.align);
            (b.space == BufferSpace::Global && addr >= base && addr - base < b.init.len() as u64)
                .then(|| (k, addr - base))
        })
    }

    /// `cp.async.bulk.tensor` loads and stores (§9.7.9.25.5.2) in tile and im2col modes.
    fn tensor_copy(&mut self, t: u32, c: &crate::isa::CpAsyncBulkTensor, ops: &[Operand]) -> Result<(), MemError> {
        use crate::isa::LoadMode;
        let mode = c.load_mode.unwrap_or(LoadMode::Tile);
        let load = c.dst != BulkSpace::Global;
        // A store in `.im2col_no_offs` mode writes the column an im2col load without offsets
        // reads (§9.7.9.25.5.2: "some dimensions of the source tensors are unrolled in a single
        // dimensional column"; the traversal is the load's, as an H100 writes it where it does
        // not trap: corpus/findings/tma-im2col-no-offs-corner-trap.md).
        let modelled = matches!(mode, LoadMode::Tile | LoadMode::Im2col) || (!load && mode == LoadMode::Im2colNoOffs);
        if !modelled || c.cta_group.is_some() {
            return Err(MemError::Unsupported(format!("tensor copies in .{mode} mode or with .cta_group")));
        }
        let (decl, coords) = self.tensor_ref(t, &ops[usize::from(load)])?;
        let map = &decl.map;
        check_map_mode(mode, map, &decl.name)?;
        let mut offsets = Vec::new();
        if load && mode == LoadMode::Im2col {
            let Some(Operand::Vector(items)) = ops.get(3) else {
                return Err(MemError::Unsupported("im2col without its im2colInfo vector".into()));
            };
            for o in items {
                offsets.push(self.known(t, o)? as u16);
            }
        }
        let tile_err =
            |e: crate::memory::tensor_map::TileError| MemError::Undefined(format!("tensor map `{}`: {e}", decl.name));
        // The swizzle follows the absolute shared address; a program's shared buffers start at
        // multiples of 1024 bytes (the PTX printer places them so beside swizzled maps), so the
        // offset in the buffer decides it.
        let (shared_buffer, shared_off) = if load {
            self.cluster_address(t, &ops[0], Some(BufferSpace::Shared))?
        } else {
            self.address(t, &ops[1], Some(BufferSpace::Shared))?
        };
        let at = u64::try_from(shared_off).unwrap_or(0);
        let elements = map.tile_at(at, &coords, &offsets).map_err(tile_err)?;
        let eb = map.tile_element_bytes();
        let mut global_spans = Vec::new();
        for e in &elements {
            if let Some(addr) = e.global {
                let (b, at) = self
                    .global_byte(addr)
                    .filter(|&(b, at)| b == decl.buffer && at + eb <= self.p.buffers[decl.buffer].init.len() as u64)
                    .ok_or_else(|| {
                        MemError::Undefined(format!(
                            "tensor map `{}` reaches global address {addr:#x}, outside buffer `{}`",
                            decl.name, self.p.buffers[decl.buffer].name
                        ))
                    })?;
                global_spans.push((e.smem_offset, Span { region: b, start: at, len: eb }));
            }
        }
        let size = map.tile_bytes();
        let rule = "§9.7.9.25.5.2: the shared-memory tile's alignment for this map";
        if load {
            let (db, doff) = (shared_buffer, shared_off);
            let dst = self.span(db, doff, size, map.smem_align(), rule)?;
            let global = |addr: u64| {
                let (b, at) = self.global_byte(addr)?;
                match self.regions[b].read(at, 1).ok()?[0] {
                    Byte::Known(v) => Some(v),
                    Byte::Unknown(_) => None,
                }
            };
            use crate::memory::tensor_map::LoadedByte;
            let bytes: Vec<Option<Byte>> = map
                .load_at(at, &coords, &offsets, &global)
                .map_err(tile_err)?
                .into_iter()
                .enumerate()
                .map(|(k, b)| {
                    Some(match b {
                        LoadedByte::Byte(Some(v)) => Byte::Known(v),
                        LoadedByte::Byte(None) => Byte::Unknown(Allowance::Undefined),
                        LoadedByte::Fill if self.allow.allows(Allowance::TmaOobNanFill) => {
                            Byte::Unknown(Allowance::TmaOobNanFill)
                        }
                        LoadedByte::Fill => Byte::Known(crate::memory::tensor_map::fill_byte(k as u64 % eb)),
                        LoadedByte::Unwritten => return None,
                    })
                })
                .collect();
            let bar = self.dst_mbarrier(t, &ops[2], db)?;
            let ctas = if c.multicast {
                self.cta_mask(t, &ops[ops.len() - 1 - usize::from(c.cache_hint)])?
            } else {
                vec![(db / self.nbuf) as u32]
            };
            // A multicast is one copy per destination CTA, each at the same offsets.
            for cta in ctas {
                let region = self.in_cta(db, cta);
                self.remote_ready(t, Span { region: self.in_cta(bar.region, cta), ..bar })?;
                self.protocol.issue(AsyncOp {
                    thread: t,
                    proxy: Proxy::Async,
                    reads: global_spans.iter().map(|(_, s)| *s).collect(),
                    writes: vec![Span { region, ..dst }],
                    reduction: false,
                    signal: Signal::Mbarrier {
                        bar: Span { region: self.in_cta(bar.region, cta), ..bar },
                        bytes: size as i64,
                    },
                    effect: Effect::Write { region, start: dst.start, bytes: bytes.clone() },
                })?;
            }
        } else {
            if let Some(why) = map.store_restriction(&coords) {
                return Err(MemError::Undefined(format!("{why} (tensor map `{}`)", decl.name)));
            }
            let (sb, soff) = (shared_buffer, shared_off);
            let src = self.span(sb, soff, size, map.smem_align(), rule)?;
            let mut effects = Vec::new();
            for (smem, g) in &global_spans {
                let bytes = self.regions[sb].read(src.start + smem, g.len)?.iter().copied().map(Some).collect();
                effects.push(Effect::Write { region: g.region, start: g.start, bytes });
            }
            if self.allow.allows(Allowance::TmaStoreOobChunk) {
                for (region, start, len) in self.store_chunk_tail(map, &coords, &elements, decl.buffer)? {
                    let bytes = vec![Some(Byte::Unknown(Allowance::TmaStoreOobChunk)); len as usize];
                    effects.push(Effect::Write { region, start, bytes });
                }
            }
            self.protocol.issue(AsyncOp {
                thread: t,
                proxy: Proxy::Async,
                reads: vec![src],
                writes: global_spans.iter().map(|(_, s)| *s).collect(),
                reduction: false,
                signal: Signal::BulkGroup,
                effect: Effect::Many(effects),
            })?;
        }
        Ok(())
    }
}

impl Machine<'_> {
    /// The global bytes a tile store writes beyond the end of dimension 0 on the H100 (allowance
    /// [`Allowance::TmaStoreOobChunk`]): in each row with in-bounds elements, the out-of-bounds
    /// elements of the box that share the 16-byte chunk (counted from the row's start) of the
    /// row's last in-bounds element. `(region, start, len)` spans inside the map's buffer.
    fn store_chunk_tail(
        &self,
        map: &crate::memory::tensor_map::TensorMap,
        coords: &[i32],
        elements: &[crate::memory::tensor_map::TileElement],
        buffer: usize,
    ) -> Result<Vec<(usize, u64, u64)>, MemError> {
        // Interleaved rows are whole 16-byte chunks: a store skips exactly the units out of bounds.
        let Some(&box0) = map.box_dims.first().filter(|_| map.interleave.unit_bytes().is_none()) else {
            return Ok(Vec::new());
        };
        let eb = map.element_bytes();
        let dim0 = map.dims[0];
        let row_end = (dim0 * eb).next_multiple_of(16);
        let box_end = (i64::from(coords[0]) + i64::from(box0)).max(0) as u64 * eb;
        let tail_end = row_end.min(box_end);
        let mut spans = Vec::new();
        for row in elements.chunks(box0 as usize) {
            // The row's last in-bounds element is x = dims[0] - 1 when the box reaches past it.
            let Some(last) = row.iter().filter_map(|e| e.global).max() else { continue };
            let x_last = i64::from(coords[0]) + row.iter().rposition(|e| e.global.is_some()).unwrap_or(0) as i64;
            if x_last as u64 + 1 != dim0 || tail_end <= dim0 * eb {
                continue;
            }
            let Some((region, at)) = self.global_byte(last + eb) else { continue };
            let len = tail_end - dim0 * eb;
            if region == buffer && at + len <= self.p.buffers[buffer].init.len() as u64 {
                spans.push((region, at, len));
            }
        }
        Ok(spans)
    }

    /// `cp.reduce.async.bulk.tensor` (§9.7.9.25.5.3) in tile and `.im2col_no_offs` modes: each
    /// in-bounds element of the tile (or im2col column, as a store writes it) reduced into
    /// global memory; the element type is the map's.
    fn tensor_reduce(
        &mut self,
        t: u32,
        c: &crate::isa::CpReduceAsyncBulkTensor,
        ops: &[Operand],
    ) -> Result<(), MemError> {
        use crate::isa::LoadMode;
        if c.load_mode.is_some_and(|m| !matches!(m, LoadMode::Tile | LoadMode::Im2colNoOffs)) {
            return Err(MemError::Unsupported("tensor reductions other than .tile and .im2col_no_offs".into()));
        }
        let (decl, coords) = self.tensor_ref(t, &ops[0])?;
        check_map_mode(c.load_mode.unwrap_or(LoadMode::Tile), &decl.map, &decl.name)?;
        let ty = decl
            .map
            .dtype
            .reduce_type(c.redop)
            .ok_or_else(|| MemError::Unsupported(format!("tensor reductions over {}", decl.map.dtype.name())))?;
        // The swizzle follows the shared address's offset in its buffer (as in `tensor_copy`).
        let (sb, soff) = self.address(t, &ops[1], Some(BufferSpace::Shared))?;
        let elements = decl
            .map
            .tile_at(u64::try_from(soff).unwrap_or(0), &coords, &[])
            .map_err(|e| MemError::Undefined(format!("tensor map `{}`: {e}", decl.name)))?;
        let eb = decl.map.tile_element_bytes();
        let size = decl.map.tile_bytes();
        let align = decl.map.smem_align();
        let src = self.span(sb, soff, size, align, "§9.7.9.25.5.3: the shared-memory tile's alignment for this map")?;
        let (mut effects, mut writes) = (Vec::new(), Vec::new());
        for e in &elements {
            let Some(addr) = e.global else { continue };
            let (b, at) = self
                .global_byte(addr)
                .filter(|&(b, at)| at + eb <= self.p.buffers[b].init.len() as u64)
                .ok_or_else(|| {
                    MemError::Undefined(format!(
                        "tensor map `{}` reaches global address {addr:#x}, outside its buffer",
                        decl.name
                    ))
                })?;
            let bytes = self.regions[sb].read(src.start + e.smem_offset, eb)?.to_vec();
            effects.push(Effect::Reduce { region: b, start: at, op: c.redop, ty, src: bytes });
            writes.push(Span { region: b, start: at, len: eb });
        }
        // The H100 reduces into the chunk tail past dimension 0 as a store writes it.
        if self.allow.allows(Allowance::TmaStoreOobChunk) {
            for (region, start, len) in self.store_chunk_tail(&decl.map, &coords, &elements, decl.buffer)? {
                let bytes = vec![Some(Byte::Unknown(Allowance::TmaStoreOobChunk)); len as usize];
                effects.push(Effect::Write { region, start, bytes });
            }
        }
        self.protocol.issue(AsyncOp {
            thread: t,
            proxy: Proxy::Async,
            reads: vec![src],
            writes,
            reduction: true,
            signal: Signal::BulkGroup,
            effect: Effect::Many(effects),
        })?;
        Ok(())
    }
}

impl Machine<'_> {
    /// A per-thread value instruction (`cvt`, `cvt.pack`, `prmt`) through
    /// [`crate::semantics::operands::evaluate`]: its scalar register operands by slot name; a
    /// set-valued result is unknown under the allowance of its first free field.
    fn value_instruction(&mut self, t: u32, form: &Form, ops: &[Operand]) -> Result<(), MemError> {
        use crate::semantics::operands::{evaluate, Input, Output};
        let specs = form.operands();
        let mut values = std::collections::BTreeMap::new();
        let mut unknown = None;
        for (o, spec) in ops.iter().zip(&specs) {
            if spec.role != Role::Src {
                continue;
            }
            if !matches!(spec.kind, OperandKind::Reg(_) | OperandKind::RegOrImm(_) | OperandKind::Pred) {
                return Err(MemError::Unsupported(format!("operand `{}` of `{}`", spec.name, form.opcode())));
            }
            match self.value(t, o)? {
                Val::Bits(b) => {
                    values.insert(spec.name.to_string(), Input::Scalar(u128::from(b)));
                }
                Val::Unknown(a) => {
                    unknown.get_or_insert(a);
                    values.insert(spec.name.to_string(), Input::Scalar(0));
                }
                _ => return Err(MemError::Unsupported(format!("an address as operand `{}`", spec.name))),
            }
        }
        let outs = evaluate(form, &values, None, self.allow).map_err(|e| MemError::Parse(e.to_string()))?;
        for (o, spec) in ops.iter().zip(&specs) {
            if spec.role != Role::Dst {
                continue;
            }
            let Operand::Name(reg) = o else {
                return Err(MemError::Unsupported(format!("destination `{o}` of `{}`", form.opcode())));
            };
            let out = outs.iter().find(|(n, _)| n == spec.name).map(|(_, v)| v);
            let v = match (unknown, out) {
                (Some(a), _) => Val::Unknown(a),
                (None, Some(Output::Bits(e))) => {
                    // A sub-word result fills its register as the program model's does:
                    // sign-extended for a signed type (§9.7.9.21 Notes, §6.4.4).
                    use crate::program::thread::{extend, is_signed};
                    let width = self.p.regs[self.reg_index(reg)?].class.bits();
                    let signed = matches!(spec.kind, OperandKind::Reg(t) | OperandKind::RegOrImm(t) if is_signed(t));
                    let e = extend(e.clone(), width, signed);
                    match e.free.first() {
                        None => Val::Bits(e.bits as u64),
                        Some(f) => Val::Unknown(f.allowance),
                    }
                }
                (None, Some(Output::Pred(Some(p)))) => Val::Bits(u64::from(*p)),
                _ => return Err(MemError::Unsupported(format!("the result `{}` of `{}`", spec.name, form.opcode()))),
            };
            self.set(t, reg, v)?;
        }
        Ok(())
    }
}

/// Element type and count of the data operand with `role` (`ld`'s destination, `st`'s source).
fn data_shape(form: &Form, role: Role) -> Result<(crate::isa::types::RegType, u64), MemError> {
    form.operands()
        .into_iter()
        .filter(|s| s.role == role)
        .find_map(|s| match s.kind {
            OperandKind::Reg(t) | OperandKind::RegOrImm(t) => Some((t, 1)),
            OperandKind::Vector(t, n) => Some((t, u64::from(n))),
            _ => None,
        })
        .ok_or_else(|| MemError::Unsupported(format!("the operands of `{}`", form.opcode())))
}

/// An operand's elements (a vector's items, or the operand).
fn elements(o: &Operand) -> Vec<&Operand> {
    match o {
        Operand::Vector(items) => items.iter().collect(),
        o => vec![o],
    }
}

/// A tensor copy or reduction in `mode` must use a map of that kind: the tile modes a tiled
/// map, the im2col modes an im2col map (§9.7.9.25.5.2; the two encoders of the tensor-map
/// section make different maps). Anything else is not modelled.
fn check_map_mode(
    mode: crate::isa::LoadMode,
    map: &crate::memory::tensor_map::TensorMap,
    name: &str,
) -> Result<(), MemError> {
    let im2col_map = matches!(map.mode, crate::memory::tensor_map::MapMode::Im2col { .. });
    if mode.is_im2col() == im2col_map {
        return Ok(());
    }
    let kind = if im2col_map { "an im2col" } else { "a tiled" };
    Err(MemError::Unsupported(format!("a .{mode} tensor copy or reduction over {kind} map (`{name}`)")))
}
