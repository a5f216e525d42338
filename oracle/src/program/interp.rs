//! The program oracle: runs a [`Program`] for every thread of its launch, warp by warp, with
//! the per-instruction semantics of [`crate::semantics`], and gives each thread's output words
//! as an [`Expected`] (exact bits, or a set where the spec leaves freedom).
//!
//! Execution walks the body once, statement by statement, for all threads together. Forward
//! branches are exact: a thread that takes `@p bra $L` waits at `$L` and rejoins there, so
//! divergence and reconvergence need no stack. Barriers and shuffles run with the whole CTA
//! converged (the program invariants of [`super`]); shared memory is per-thread words, and a
//! read of another thread's bytes must follow a `bar.sync` that follows their last store.
//!
//! Set-valued results flow on instead of being avoided:
//! - bit movement (`mov` copy/pack/unpack, `ld`/`st`, `shfl.sync`'s data, `selp` with a known
//!   predicate) carries free fields exactly, bit for bit;
//! - any other instruction with a set-valued source gives "any value" of its destination,
//!   under the allowance of that source (the spec does not say which member hardware picks);
//! - a branch or guard on a set-valued predicate makes the thread *uncertain* until the
//!   branch target: it runs every statement, and every register it writes becomes "any
//!   value" (a superset of both paths).
//!
//! Programs that break the invariants (a read of an unwritten register, an out-of-bounds or
//! misaligned access, a shuffle or barrier under divergence…) give [`InterpError`]: the
//! minimizer relies on this to reject reductions that stopped being meaningful.

use std::collections::{BTreeMap, HashMap};

use thiserror::Error;

use super::glue::{GlueOp, Src};
use super::{Inputs, PredGuard, Program, Reg, RegClass, Special, Stmt};
use crate::isa::operand::{Imm, Operand, OperandKind, Role};
use crate::isa::types::{RegType, Space};
use crate::isa::{Form, Instruction, MovShape};
use crate::num::{decode, encode, Overflow, Rounding, F32, F64};
use crate::semantics::operands::{evaluate, is_warp_form, source_slots, Input, Output};
use crate::semantics::{Allowance, Allowances, Expected};

/// Why a program could not be run by the oracle.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum InterpError {
    /// The program broke an invariant: its result is undefined.
    #[error("statement {stmt} `{text}`, thread {thread}: {reason}")]
    Undefined {
        /// Body index.
        stmt: usize,
        /// The statement.
        text: String,
        /// The thread.
        thread: u32,
        /// What went wrong.
        reason: String,
    },
    /// A statement the oracle cannot evaluate.
    #[error("statement {stmt} `{text}`: {reason}")]
    Unsupported {
        /// Body index.
        stmt: usize,
        /// The statement.
        text: String,
        /// Why.
        reason: String,
    },
    /// The inputs do not fit the program.
    #[error("{0}")]
    Shape(String),
}

/// What happened to one thread's control flow.
#[derive(Clone, Copy, Debug, Default)]
struct Flow {
    /// Waiting at this body index (a label) after a taken branch.
    waiting: Option<usize>,
    /// Uncertain (a branch on a set-valued predicate) until this body index, with the
    /// allowance that made the predicate set-valued.
    uncertain: Option<(usize, Allowance)>,
}

/// A deliberately wrong rule, for testing that campaigns find and minimize disagreements
/// (never used by the tool's real runs).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plant {
    /// `xor` computes `or`.
    XorAsOr,
}

/// Source values captured by a probe, by operand name.
pub type Probed = Vec<(String, Expected)>;

/// How to run a program.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunOptions {
    /// A planted bug (tests only).
    #[doc(hidden)]
    pub plant: Option<Plant>,
    /// Capture the source values of this statement (body index) in this thread.
    pub probe: Option<(usize, u32)>,
    /// Capture every thread's value of this register right after this statement.
    pub after: Option<(usize, Reg)>,
}

struct Machine<'a> {
    p: &'a Program,
    opts: RunOptions,
    probed: Vec<(String, Expected)>,
    captured: Vec<Option<Expected>>,
    allow: &'a Allowances,
    regs: Vec<HashMap<Reg, Expected>>,
    flow: Vec<Flow>,
    input: Vec<Vec<Expected>>,
    /// Shared words per thread; bytes never stored are any value.
    shared: Vec<Vec<Expected>>,
    /// The barrier epoch of each shared byte's last store.
    shared_epoch: Vec<Vec<Option<u32>>>,
    out: Vec<Vec<Expected>>,
    epoch: u32,
    stmt: usize,
}

fn mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1 << bits) - 1
    }
}

/// The allowance behind a set-valued result.
fn taint(e: &Expected) -> Allowance {
    e.free.first().map_or(Allowance::Undefined, |f| f.allowance)
}

/// `e` widened to `width` bits: sign-extended when `signed`, zero-extended otherwise (§6.4.4;
/// §9.7.9.8 and §9.7.9.21 Notes). A set-valued sign bit makes the new bits any value.
fn extend(e: Expected, width: u32, signed: bool) -> Expected {
    if e.width >= width {
        return e.field(0, width);
    }
    let mut out = Expected::exact(0, width);
    let w = e.width;
    let sign = e.field(w - 1, 1);
    if signed {
        if sign.is_exact() {
            if sign.bits == 1 {
                out.bits = mask(width) & !mask(w);
            }
        } else {
            out.replace(w, Expected::any(width - w, taint(&sign)));
        }
    }
    out.replace(0, e);
    out
}

fn imm_bits(i: &Imm, width: u32) -> Option<u128> {
    Some(match i {
        Imm::Int(v) => (*v as u128) & mask(width),
        Imm::F32Bits(b) => u128::from(*b),
        Imm::F64Bits(b) => u128::from(*b),
        Imm::Float(x) => match width {
            // A decimal literal is an f64 (PTX ISA §4.5.1), rounded to nearest for an f32
            // operand by the oracle's engine, not by the host.
            32 => u128::from(encode(&F32, decode(&F64, x.to_bits()), Rounding::NearestEven, Overflow::Ieee).bits),
            64 => u128::from(x.to_bits()),
            _ => return None,
        },
    })
}

fn is_signed(t: RegType) -> bool {
    matches!(t, RegType::S8 | RegType::S16 | RegType::S32 | RegType::S64)
}

/// Element type and count of a data operand kind.
fn data_shape(k: &OperandKind) -> Option<(RegType, u32)> {
    match *k {
        OperandKind::Reg(t) | OperandKind::RegOrImm(t) => Some((t, 1)),
        OperandKind::Vector(t, n) => Some((t, u32::from(n))),
        _ => None,
    }
}

fn names(spec_name: &str) -> Vec<String> {
    spec_name.split(',').map(|s| s.trim().to_string()).collect()
}

/// Operand `o` flattened to its elements (a vector gives its items).
fn elements(o: &Operand) -> Vec<&Operand> {
    match o {
        Operand::Vector(items) => items.iter().collect(),
        o => vec![o],
    }
}

impl<'a> Machine<'a> {
    fn text(&self) -> String {
        super::text::stmt_line(&self.p.body[self.stmt]).trim().to_string()
    }

    fn undefined(&self, thread: u32, reason: impl Into<String>) -> InterpError {
        InterpError::Undefined { stmt: self.stmt, text: self.text(), thread, reason: reason.into() }
    }

    fn unsupported(&self, reason: impl Into<String>) -> InterpError {
        InterpError::Unsupported { stmt: self.stmt, text: self.text(), reason: reason.into() }
    }

    fn active(&self, t: u32) -> bool {
        self.flow[t as usize].waiting.is_none()
    }

    fn uncertain(&self, t: u32) -> Option<Allowance> {
        self.flow[t as usize].uncertain.map(|(_, a)| a)
    }

    fn read(&self, t: u32, r: Reg) -> Result<Expected, InterpError> {
        match r {
            Reg::Special(Special::Tid) => return Ok(Expected::exact(u128::from(t), 32)),
            Reg::Special(_) => return Ok(Expected::any(64, Allowance::AddressWindow)),
            Reg::Virt(..) => {}
        }
        match self.regs[t as usize].get(&r) {
            Some(e) => Ok(e.clone()),
            None => match self.uncertain(t) {
                Some(a) => Ok(Expected::any(r.class().bits(), a)),
                None => Err(self.undefined(t, format!("reads {r} before any write"))),
            },
        }
    }

    fn write(&mut self, t: u32, r: Reg, e: Expected) -> Result<(), InterpError> {
        if matches!(r, Reg::Special(_)) {
            return Err(self.unsupported(format!("writes the prologue's register {r}")));
        }
        let width = r.class().bits();
        let e = match self.uncertain(t) {
            Some(a) => Expected::any(width, a),
            None if e.width == width => e,
            None => extend(e, width, false),
        };
        self.regs[t as usize].insert(r, e);
        Ok(())
    }

    /// A guard's value: `Some(true)` run, `Some(false)` skip, `None` unknown.
    fn guard(&self, t: u32, g: Option<PredGuard>) -> Result<(Option<bool>, Allowance), InterpError> {
        let Some(g) = g else { return Ok((Some(true), Allowance::Undefined)) };
        let v = self.read(t, Reg::Virt(RegClass::Pred, g.pred))?;
        if v.is_exact() {
            Ok((Some((v.bits == 1) != g.negated), Allowance::Undefined))
        } else {
            Ok((None, taint(&v)))
        }
    }

    fn reg_of(&self, o: &Operand) -> Result<Reg, InterpError> {
        match o {
            Operand::Name(n) => {
                Reg::parse(n).ok_or_else(|| self.unsupported(format!("`{n}` is not a program register")))
            }
            other => Err(self.unsupported(format!("`{other}` is not a register"))),
        }
    }

    /// The value of a source operand element at `width` bits.
    fn source(&self, t: u32, o: &Operand, width: u32) -> Result<Expected, InterpError> {
        match o {
            Operand::Imm(i) => imm_bits(i, width)
                .map(|b| Expected::exact(b, width))
                .ok_or_else(|| self.unsupported(format!("immediate `{i}` at {width} bits"))),
            o => {
                let e = self.read(t, self.reg_of(o)?)?;
                Ok(if e.width > width { e.field(0, width) } else { e })
            }
        }
    }

    fn run(&mut self) -> Result<(), InterpError> {
        let labels: HashMap<u32, usize> = self
            .p
            .body
            .iter()
            .enumerate()
            .filter_map(|(i, s)| if let Stmt::Label(l) = s { Some((*l, i)) } else { None })
            .collect();
        for i in 0..self.p.body.len() {
            self.stmt = i;
            let s = &self.p.body[i];
            match s {
                Stmt::Label(_) => {
                    for f in &mut self.flow {
                        if f.waiting == Some(i) {
                            f.waiting = None;
                        }
                        if f.uncertain.is_some_and(|(u, _)| u == i) {
                            f.uncertain = None;
                        }
                    }
                }
                Stmt::Bar => {
                    self.converged("bar.sync")?;
                    self.epoch += 1;
                }
                Stmt::Bra { guard, label } => {
                    let Some(&target) = labels.get(label) else {
                        return Err(self.unsupported(format!("no label $L{label}")));
                    };
                    if target <= i {
                        return Err(self.unsupported("backward branch (programs branch forward only)"));
                    }
                    for t in 0..self.p.threads {
                        if !self.active(t) {
                            continue;
                        }
                        if let Some((u, a)) = self.flow[t as usize].uncertain {
                            self.flow[t as usize].uncertain = Some((u.max(target), a));
                            continue;
                        }
                        match self.guard(t, *guard)? {
                            (Some(true), _) => self.flow[t as usize].waiting = Some(target),
                            (Some(false), _) => {}
                            (None, a) => self.flow[t as usize].uncertain = Some((target, a)),
                        }
                    }
                }
                Stmt::Glue { guard, glue } => {
                    let (guard, glue) = (*guard, *glue);
                    for t in 0..self.p.threads {
                        if self.active(t) {
                            self.glue(t, guard, &glue)?;
                        }
                    }
                }
                Stmt::Isa(inst) => {
                    let inst = inst.clone();
                    if is_warp_form(&inst.form) {
                        self.warp(&inst)?;
                    } else {
                        for t in 0..self.p.threads {
                            if self.active(t) {
                                self.isa(t, &inst)?;
                            }
                        }
                    }
                }
            }
            if let Some((k, r)) = self.opts.after {
                if k == i {
                    self.captured = self.regs.iter().map(|regs| regs.get(&r).cloned()).collect();
                }
            }
        }
        Ok(())
    }

    fn converged(&self, what: &str) -> Result<(), InterpError> {
        for t in 0..self.p.threads {
            let f = self.flow[t as usize];
            if f.waiting.is_some() || f.uncertain.is_some() {
                return Err(self.undefined(t, format!("{what} while the thread has diverged")));
            }
        }
        Ok(())
    }

    fn glue(&mut self, t: u32, guard: Option<PredGuard>, g: &super::Glue) -> Result<(), InterpError> {
        let (run, why) = self.guard(t, guard)?;
        if run == Some(false) {
            return Ok(());
        }
        let width = g.dst.class().bits();
        if run.is_none() {
            self.read(t, g.dst)?;
            return self.write(t, g.dst, Expected::any(width, why));
        }
        let mut vals = Vec::new();
        for (k, s) in g.src.iter().enumerate().take(g.op.arity()) {
            let w = super::Glue::src_class(g.op, g.ty, k).bits();
            vals.push(match s {
                Some(Src::Reg(r)) => self.read(t, *r)?,
                Some(Src::Imm(v)) => Expected::exact(u128::from(*v), w),
                None => return Err(self.unsupported("missing glue operand")),
            });
        }
        if self.opts.probe == Some((self.stmt, t)) {
            self.probed = vals.iter().enumerate().map(|(k, v)| (["a", "b", "c"][k].to_string(), v.clone())).collect();
        }
        let result = if vals.iter().all(Expected::is_exact) {
            let get = |k: usize| vals.get(k).map_or(0, |e| e.bits as u64);
            let planted = self.opts.plant == Some(Plant::XorAsOr) && g.op == GlueOp::Xor;
            let op = if planted { super::Glue { op: GlueOp::Or, ..*g } } else { *g };
            Expected::exact(u128::from(op.eval(get(0), get(1), get(2) == 1)), width)
        } else if g.op == GlueOp::Selp && vals[2].is_exact() {
            vals[if vals[2].bits == 1 { 0 } else { 1 }].clone()
        } else {
            let a = vals.iter().find(|e| !e.is_exact()).map_or(Allowance::Undefined, taint);
            Expected::any(width, a)
        };
        self.write(t, g.dst, result)
    }

    fn isa(&mut self, t: u32, inst: &Instruction) -> Result<(), InterpError> {
        let guard = match &inst.guard {
            None => None,
            Some(g) => match Reg::parse(&g.pred) {
                Some(Reg::Virt(RegClass::Pred, n)) => Some(PredGuard { pred: n, negated: g.negated }),
                _ => return Err(self.unsupported(format!("guard `{}` is not a predicate register", g.pred))),
            },
        };
        let (run, why) = self.guard(t, guard)?;
        if run == Some(false) {
            return Ok(());
        }
        let results = match &inst.form {
            Form::Ld(_) | Form::LdGlobalNc(_) => self.load(t, inst)?,
            Form::St(_) => return self.store(t, inst, run.is_none().then_some(why)),
            Form::Mov(m) if matches!(m.shape, MovShape::Copy | MovShape::Pack(_) | MovShape::Unpack(_)) => {
                self.mov(t, inst, m.shape)?
            }
            _ => self.evaluate(t, inst)?,
        };
        for (r, e) in results {
            if run.is_none() {
                self.read(t, r)?;
                self.write(t, r, Expected::any(r.class().bits(), why))?;
            } else {
                self.write(t, r, e)?;
            }
        }
        Ok(())
    }

    /// Destination registers and their values, for one thread, through the semantics.
    fn evaluate(&mut self, t: u32, inst: &Instruction) -> Result<Vec<(Reg, Expected)>, InterpError> {
        let specs = inst.form.operands();
        let widths: BTreeMap<String, u32> = source_slots(&inst.form).into_iter().map(|s| (s.name, s.width)).collect();
        let mut values = BTreeMap::new();
        let mut tainted = None;
        for (spec, o) in specs.iter().zip(&inst.operands) {
            if spec.role != Role::Src {
                continue;
            }
            let ns = names(spec.name);
            let es = elements(o);
            if ns.len() != es.len() {
                return Err(self.unsupported(format!("operand `{o}` does not match `{}`", spec.name)));
            }
            for (n, e) in ns.iter().zip(es) {
                let width =
                    *widths.get(n).ok_or_else(|| self.unsupported(format!("operand `{n}` has no value slot")))?;
                let v = self.source(t, e, width)?;
                if !v.is_exact() {
                    tainted.get_or_insert(taint(&v));
                }
                if self.opts.probe == Some((self.stmt, t)) {
                    self.probed.push((n.clone(), v.clone()));
                }
                values.insert(n.clone(), Input::Scalar(v.bits));
            }
        }
        let out = match tainted {
            None => evaluate(&inst.form, &values, None, self.allow).map_err(|e| self.unsupported(e.to_string()))?,
            Some(_) => Vec::new(),
        };
        let mut results = Vec::new();
        for (spec, o) in specs.iter().zip(&inst.operands) {
            if spec.role != Role::Dst {
                continue;
            }
            let (dst_ty, _) = data_shape(&spec.kind).unwrap_or((RegType::B32, 1));
            let targets: Vec<(String, Operand)> = match o {
                Operand::WithPred(d, p) => vec![("d".into(), (**d).clone()), ("p".into(), Operand::Name(p.clone()))],
                o => names(spec.name).into_iter().zip(elements(o).into_iter().cloned()).collect(),
            };
            for (n, target) in targets {
                if matches!(target, Operand::Sink) {
                    continue;
                }
                let r = match &target {
                    Operand::Name(name) => Reg::parse(name)
                        .ok_or_else(|| self.unsupported(format!("`{name}` is not a program register")))?,
                    other => return Err(self.unsupported(format!("destination `{other}`"))),
                };
                let width = r.class().bits();
                let value = match tainted {
                    Some(a) => Expected::any(width, a),
                    None => match out.iter().find(|(name, _)| *name == n).map(|(_, v)| v) {
                        Some(Output::Bits(e)) => extend(e.clone(), width, is_signed(dst_ty)),
                        Some(Output::Pred(Some(b))) => Expected::exact(u128::from(*b), 1),
                        Some(Output::Pred(None)) => Expected::any(1, Allowance::Undefined),
                        _ => return Err(self.unsupported(format!("the oracle gave no `{n}`"))),
                    },
                };
                results.push((r, value));
            }
        }
        Ok(results)
    }

    /// `mov` copy, pack and unpack: bit movement, set-valued fields carried exactly.
    fn mov(&self, t: u32, inst: &Instruction, shape: MovShape) -> Result<Vec<(Reg, Expected)>, InterpError> {
        let [d, a] = inst.operands.as_slice() else { return Err(self.unsupported("mov takes two operands")) };
        let specs = inst.form.operands();
        let total = data_shape(&specs[0].kind).map_or(32, |(t, n)| t.bits() * n);
        Ok(match shape {
            MovShape::Copy => vec![(self.reg_of(d)?, self.source(t, a, total)?)],
            MovShape::Pack(n) => {
                let ew = total / u32::from(n);
                let mut v = Expected::exact(0, total);
                for (k, e) in elements(a).into_iter().enumerate() {
                    v.replace(ew * k as u32, self.source(t, e, ew)?);
                }
                vec![(self.reg_of(d)?, v)]
            }
            MovShape::Unpack(n) => {
                let whole = self.source(t, a, total)?;
                let ew = total / u32::from(n);
                let mut out = Vec::new();
                for (k, e) in elements(d).into_iter().enumerate() {
                    if !matches!(e, Operand::Sink) {
                        out.push((self.reg_of(e)?, whole.field(ew * k as u32, ew)));
                    }
                }
                out
            }
            _ => return Err(self.unsupported("mov shape")),
        })
    }

    /// The memory region an address operand names, and its byte offset.
    fn address(&self, o: &Operand, form_space: Option<Space>) -> Result<(Special, i64), InterpError> {
        let Operand::Address { base: Some(b), offset, unified: false } = o else {
            return Err(self.unsupported(format!("address `{o}` (programs address [%in|%out|%sh|%shn+offset])")));
        };
        let Some(Reg::Special(sp)) = Reg::parse(b) else {
            return Err(self.unsupported(format!("address base `{b}` is not %in, %out, %sh or %shn")));
        };
        let ok = match sp {
            Special::In | Special::Out => form_space == Some(Space::Global),
            // A `.shared::cta` address is also a `.shared::cluster` address of the executing
            // CTA (§9.7.9.1 State spaces… the shared::cta window lies in shared::cluster's).
            Special::Sh | Special::ShNext => {
                matches!(form_space, Some(Space::Shared | Space::SharedCta | Space::SharedCluster))
            }
            Special::Tid => false,
        };
        if !ok {
            return Err(self.unsupported(format!("`{b}` used with state space {form_space:?}")));
        }
        Ok((sp, *offset))
    }

    fn check_access(&self, t: u32, offset: i64, bytes: u32, region: u32) -> Result<usize, InterpError> {
        if offset < 0 || offset as u64 + u64::from(bytes) > u64::from(region) {
            return Err(self.undefined(t, format!("access of {bytes} bytes at offset {offset} outside {region} bytes")));
        }
        if !(offset as u64).is_multiple_of(u64::from(bytes)) {
            return Err(self.undefined(t, format!("access of {bytes} bytes at offset {offset} is misaligned")));
        }
        Ok(offset as usize)
    }

    /// Reads `bits` (8, 16, 32 or 64) at byte `at` of 32-bit words.
    fn read_words(words: &[Expected], at: usize, bits: u32) -> Expected {
        if bits <= 32 {
            return words[at / 4].field(8 * (at % 4) as u32, bits);
        }
        let mut v = Expected::exact(0, bits);
        for k in 0..(bits / 32) as usize {
            v.replace(32 * k as u32, words[at / 4 + k].clone());
        }
        v
    }

    fn write_words(words: &mut [Expected], at: usize, value: Expected) {
        let bits = value.width;
        if bits <= 32 {
            words[at / 4].replace(8 * (at % 4) as u32, value);
            return;
        }
        for k in 0..(bits / 32) as usize {
            words[at / 4 + k] = value.field(32 * k as u32, 32);
        }
    }

    fn load(&self, t: u32, inst: &Instruction) -> Result<Vec<(Reg, Expected)>, InterpError> {
        let space = match &inst.form {
            Form::Ld(l) => l.space,
            _ => Some(Space::Global),
        };
        let specs = inst.form.operands();
        if inst.operands.len() != 2 {
            return Err(self.unsupported("loads with a cache-policy operand"));
        }
        let (ety, n) = data_shape(&specs[0].kind).ok_or_else(|| self.unsupported("load destination"))?;
        let (base, offset) = self.address(&inst.operands[1], space)?;
        let (eb, total) = (ety.bits(), ety.bits() * n / 8);
        if let Some(a) = self.uncertain(t) {
            return elements(&inst.operands[0])
                .into_iter()
                .filter(|d| !matches!(d, Operand::Sink))
                .map(|d| Ok((self.reg_of(d)?, Expected::any(32, a))))
                .collect();
        }
        let words: Vec<Expected> = match base {
            Special::In => {
                self.check_access(t, offset, total, self.p.input_stride())?;
                self.input[t as usize].clone()
            }
            Special::Sh | Special::ShNext => {
                self.check_access(t, offset, total, 4 * self.p.shared)?;
                let owner = if base == Special::Sh { t } else { (t + 1) % self.p.threads };
                let bytes = offset as usize..offset as usize + total as usize;
                if owner != t {
                    if let Some(b) =
                        bytes.clone().find(|&b| self.shared_epoch[owner as usize][b].is_some_and(|e| e >= self.epoch))
                    {
                        return Err(self.undefined(
                            t,
                            format!("reads thread {owner}'s shared byte {b} without a bar.sync after its store"),
                        ));
                    }
                }
                self.shared[owner as usize].clone()
            }
            Special::Out | Special::Tid => return Err(self.unsupported("programs do not load from %out")),
        };
        let mut out = Vec::new();
        for (k, d) in elements(&inst.operands[0]).into_iter().enumerate() {
            if matches!(d, Operand::Sink) {
                continue;
            }
            let r = self.reg_of(d)?;
            let v = Self::read_words(&words, offset as usize + k * (eb / 8) as usize, eb);
            out.push((r, extend(v, r.class().bits(), is_signed(ety))));
        }
        Ok(out)
    }

    fn store(&mut self, t: u32, inst: &Instruction, unknown_guard: Option<Allowance>) -> Result<(), InterpError> {
        let Form::St(st) = &inst.form else { return Err(self.unsupported("store form")) };
        let specs = inst.form.operands();
        if inst.operands.len() != 2 {
            return Err(self.unsupported("stores with a cache-policy operand"));
        }
        let (ety, _) = data_shape(&specs[1].kind).ok_or_else(|| self.unsupported("store source"))?;
        let (base, offset) = self.address(&inst.operands[0], st.space)?;
        let eb = ety.bits();
        let mut values = Vec::new();
        for e in elements(&inst.operands[1]) {
            values.push(self.source(t, e, eb)?);
        }
        let total = eb * values.len() as u32 / 8;
        let taint_all = unknown_guard.or(self.uncertain(t));
        match base {
            Special::Out => {
                self.check_access(t, offset, total, self.p.output_stride())?;
                for (k, v) in values.into_iter().enumerate() {
                    let at = offset as usize + k * (eb / 8) as usize;
                    let v = match taint_all {
                        Some(a) => Expected::any(eb, a),
                        None => v,
                    };
                    Self::write_words(&mut self.out[t as usize], at, v);
                }
            }
            Special::Sh => {
                if taint_all.is_some() || self.flow.iter().any(|f| f.waiting.is_some() || f.uncertain.is_some()) {
                    return Err(self.undefined(t, "shared stores must be unguarded and converged"));
                }
                self.check_access(t, offset, total, 4 * self.p.shared)?;
                let mut words = std::mem::take(&mut self.shared[t as usize]);
                for (k, v) in values.into_iter().enumerate() {
                    Self::write_words(&mut words, offset as usize + k * (eb / 8) as usize, v);
                }
                self.shared[t as usize] = words;
                let epoch = self.epoch;
                for b in offset as usize..offset as usize + total as usize {
                    self.shared_epoch[t as usize][b] = Some(epoch);
                }
            }
            _ => return Err(self.unsupported("programs store to %out or %sh only")),
        }
        Ok(())
    }

    /// `shfl.sync` for every warp: the data moves exactly (set-valued lanes stay sets).
    fn warp(&mut self, inst: &Instruction) -> Result<(), InterpError> {
        self.converged("shfl.sync")?;
        if inst.guard.is_some() {
            return Err(self.unsupported("guarded shfl.sync (programs shuffle unguarded)"));
        }
        let specs = inst.form.operands();
        for w in 0..self.p.threads / 32 {
            let mut values = BTreeMap::new();
            let mut data = Vec::new();
            let mut control_taint = None;
            for (spec, o) in specs.iter().zip(&inst.operands) {
                if spec.role != Role::Src {
                    continue;
                }
                let mut lanes = Vec::new();
                for l in 0..32 {
                    let v = self.source(32 * w + l, o, 32)?;
                    if spec.name == "a" {
                        data.push(v);
                        lanes.push(u128::from(l));
                    } else {
                        if !v.is_exact() {
                            control_taint.get_or_insert(taint(&v));
                        }
                        lanes.push(v.bits);
                    }
                }
                values.insert(spec.name.to_string(), Input::Lanes(lanes));
            }
            let out = match control_taint {
                None => evaluate(&inst.form, &values, Some(u32::MAX), self.allow)
                    .map_err(|e| self.unsupported(e.to_string()))?,
                Some(_) => Vec::new(),
            };
            let (d, p) = match &inst.operands[0] {
                Operand::WithPred(d, p) => (self.reg_of(d)?, Some(self.reg_of(&Operand::Name(p.clone()))?)),
                d => (self.reg_of(d)?, None),
            };
            for l in 0..32u32 {
                let t = 32 * w + l;
                let lane_out = |name: &str| match out.iter().find(|(n, _)| n == name) {
                    Some((_, Output::Lanes(v))) => v.get(l as usize).cloned(),
                    _ => None,
                };
                let dv = match (control_taint, lane_out("d")) {
                    (Some(a), _) => Expected::any(32, a),
                    // The "data" run used lane numbers as values: an exact result names the
                    // source lane, whose real (possibly set-valued) value moves.
                    (None, Some(Output::Bits(e))) if e.is_exact() => data[e.bits as usize].clone(),
                    (None, Some(Output::Bits(e))) => e,
                    _ => return Err(self.unsupported("shfl.sync gave no `d`")),
                };
                self.write(t, d, dv)?;
                if let Some(p) = p {
                    let pv = match (control_taint, lane_out("p")) {
                        (Some(a), _) => Expected::any(1, a),
                        (None, Some(Output::Pred(Some(b)))) => Expected::exact(u128::from(b), 1),
                        (None, _) => Expected::any(1, Allowance::Undefined),
                    };
                    self.write(t, p, pv)?;
                }
            }
        }
        Ok(())
    }
}

/// Runs `p` on `inputs`: each thread's output words as one [`Expected`] of `32 × outputs`
/// bits (word 0 in the low bits).
pub fn run(p: &Program, inputs: &Inputs, allow: &Allowances) -> Result<Vec<Expected>, InterpError> {
    run_with(p, inputs, allow, RunOptions::default()).map(|(out, _)| out)
}

/// The source values (by the spec's operand names) that statement `stmt` reads in `thread`
/// (empty if it does not run there).
pub fn probe(
    p: &Program,
    inputs: &Inputs,
    allow: &Allowances,
    stmt: usize,
    thread: u32,
) -> Result<Vec<(String, Expected)>, InterpError> {
    run_with(p, inputs, allow, RunOptions { probe: Some((stmt, thread)), ..RunOptions::default() }).map(|(_, v)| v)
}

/// A machine ready to run `p` on `inputs`.
fn machine<'a>(
    p: &'a Program,
    inputs: &Inputs,
    allow: &'a Allowances,
    opts: RunOptions,
) -> Result<Machine<'a>, InterpError> {
    let n = (p.threads * p.inputs) as usize;
    if inputs.0.len() != n {
        return Err(InterpError::Shape(format!(
            "{} input words given, the program reads {} ({} threads × {})",
            inputs.0.len(),
            n,
            p.threads,
            p.inputs
        )));
    }
    let threads = p.threads as usize;
    Ok(Machine {
        p,
        allow,
        regs: vec![HashMap::new(); threads],
        flow: vec![Flow::default(); threads],
        input: (0..p.threads)
            .map(|t| inputs.thread(p, t).iter().map(|&w| Expected::exact(u128::from(w), 32)).collect())
            .collect(),
        shared: vec![vec![Expected::any(32, Allowance::Undefined); p.shared as usize]; threads],
        shared_epoch: vec![vec![None; 4 * p.shared as usize]; threads],
        out: vec![vec![Expected::exact(0, 32); p.outputs as usize]; threads],
        epoch: 0,
        stmt: 0,
        opts,
        probed: Vec::new(),
        captured: Vec::new(),
    })
}

/// Every thread's value of `reg` right after statement `stmt` (`None`: not written yet).
pub fn value_after(
    p: &Program,
    inputs: &Inputs,
    allow: &Allowances,
    stmt: usize,
    reg: Reg,
) -> Result<Vec<Option<Expected>>, InterpError> {
    let opts = RunOptions { after: Some((stmt, reg)), ..RunOptions::default() };
    let threads = p.threads as usize;
    let mut m = machine(p, inputs, allow, opts)?;
    m.run()?;
    let mut v = std::mem::take(&mut m.captured);
    v.resize(threads, None);
    Ok(v)
}

/// [`run`] with options; also gives the probed source values.
pub fn run_with(
    p: &Program,
    inputs: &Inputs,
    allow: &Allowances,
    opts: RunOptions,
) -> Result<(Vec<Expected>, Probed), InterpError> {
    let mut m = machine(p, inputs, allow, opts)?;
    m.run()?;
    let probed = std::mem::take(&mut m.probed);
    let out = m
        .out
        .into_iter()
        .map(|words| {
            let mut e = Expected::exact(0, 32 * p.outputs);
            for (k, w) in words.into_iter().enumerate() {
                e.replace(32 * k as u32, w);
            }
            e
        })
        .collect();
    Ok((out, probed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::text::parse_stmt;

    fn program(threads: u32, shared: u32, lines: &[&str]) -> Program {
        Program {
            name: "k".into(),
            target: "sm_90a@8.7".parse().unwrap(),
            threads,
            inputs: 4,
            outputs: 2,
            shared,
            body: lines.iter().enumerate().map(|(i, l)| parse_stmt(i + 1, l).unwrap()).collect(),
        }
    }

    fn inputs(threads: u32, f: impl Fn(u32, u32) -> u32) -> Inputs {
        Inputs((0..threads * 4).map(|i| f(i / 4, i % 4)).collect())
    }

    fn exact(outs: &[Expected]) -> Vec<u64> {
        outs.iter()
            .map(|e| {
                assert!(e.is_exact(), "{e}");
                e.bits as u64
            })
            .collect()
    }

    #[test]
    fn dataflow_divergence_and_reconvergence() {
        let p = program(
            32,
            0,
            &[
                "ld.global.b32 %r0, [%in+4];",
                "and.b32 %r1, %tix, 1;",
                "setp.eq.u32 %p0, %r1, 1;",
                "mov.b32 %r2, 100;",
                "@%p0 bra $L0;",
                "add.s32 %r2, %r0, %r0;",
                "$L0:",
                "@!%p0 add.s32 %r2, %r2, 1;",
                "st.global.b32 [%out], %r2;",
                "st.global.b16 [%out+6], %r1;",
            ],
        );
        let out = exact(&run(&p, &inputs(32, |t, w| 10 * t + w), &Allowances::all()).unwrap());
        for (t, v) in out.iter().enumerate() {
            let t = t as u64;
            let lo = if t % 2 == 1 { 100 } else { 2 * (10 * t + 1) + 1 };
            assert_eq!(*v, lo | (t % 2) << 48, "thread {t}");
        }
    }

    #[test]
    fn shuffles_and_shared_memory_move_data_between_threads() {
        let p = program(
            64,
            4,
            &[
                "ld.global.v2.b32 {%r0, %r1}, [%in+8];",
                "shfl.sync.bfly.b32 %r2|%p0, %r0, 1, 31, -1;",
                "st.shared.b32 [%sh+4], %r1;",
                "bar.sync 0;",
                "ld.shared.b32 %r3, [%shn+4];",
                "st.global.v2.b32 [%out], {%r2, %r3};",
            ],
        );
        let out = exact(&run(&p, &inputs(64, |t, w| 1000 * t + w), &Allowances::all()).unwrap());
        for (t, v) in out.iter().enumerate() {
            let t = t as u64;
            assert_eq!(v & 0xFFFF_FFFF, 1000 * (t ^ 1) + 2, "shfl, thread {t}");
            assert_eq!(v >> 32, 1000 * ((t + 1) % 64) + 3, "shared, thread {t}");
        }
    }

    #[test]
    fn set_valued_results_flow_through_bit_movement() {
        // A NaN input: cvt gives "any f16 NaN"; the pack keeps the exact half exact.
        let p = program(
            32,
            0,
            &[
                "ld.global.b32 %r0, [%in];",
                "cvt.rn.f16.f32 %h0, %r0;",
                "mov.b32 %r1, {%h0, %h0};",
                "mov.b32 {%h1, %h2}, %r1;",
                "mov.b16 %h3, 0x3c00;",
                "mov.b32 %r2, {%h3, %h2};",
                "st.global.b32 [%out], %r2;",
            ],
        );
        let out = run(&p, &inputs(32, |_, _| 0x7FC0_0001), &Allowances::all()).unwrap();
        let e = &out[0];
        assert!(e.matches(0x7E00_3C00) && e.matches(0xFFFF_3C00));
        assert!(!e.matches(0x7C00_3C00), "infinity is not a NaN");
        assert!(!e.matches(0x7E00_3C01), "the exact half stays exact");
        assert!(!e.matches(0x7E00_3C00 | 1 << 32), "word 1 is untouched");
        // Without the allowance the NaN is exact.
        let strict = run(&p, &inputs(32, |_, _| 0x7FC0_0001), &Allowances::none()).unwrap();
        assert!(strict[0].is_exact());
    }

    #[test]
    fn a_branch_on_a_set_valued_predicate_makes_the_thread_uncertain() {
        let p = program(
            32,
            0,
            &[
                "ld.global.b32 %r0, [%in];",
                "cvt.rn.f16.f32 %h0, %r0;",
                "setp.eq.u16 %p0, %h0, 0x7e00;",
                "mov.b32 %r1, 7;",
                "mov.b32 %r2, 9;",
                "@%p0 bra $L0;",
                "mov.b32 %r1, 8;",
                "$L0:",
                "st.global.v2.b32 [%out], {%r1, %r2};",
            ],
        );
        let out = run(&p, &inputs(32, |t, _| if t == 3 { 0x7FC0_0001 } else { 0 }), &Allowances::all()).unwrap();
        assert_eq!(out[0].bits, 9 << 32 | 8);
        assert!(out[0].is_exact());
        assert!(out[3].matches(9 << 32 | 7) && out[3].matches(9 << 32 | 8) && !out[3].matches(10 << 32 | 8));
    }

    #[test]
    fn decimal_float_immediates_round_once_to_nearest() {
        // 0.1 is 0x3FB999999999999A as f64; to nearest f32 it is 0x3DCCCCCD.
        let p = program(32, 0, &["mov.f32 %r0, 0.1;", "st.global.b32 [%out], %r0;"]);
        let out = run(&p, &inputs(32, |_, _| 0), &Allowances::all()).unwrap();
        assert_eq!(out[0].bits, 0x3DCC_CCCD);
    }

    #[test]
    fn broken_invariants_are_errors() {
        let cases: [(&[&str], &str); 5] = [
            (&["add.s32 %r1, %r0, 1;"], "before any write"),
            (
                &["setp.eq.u32 %p0, %tix, 1;", "@%p0 bra $L0;", "shfl.sync.idx.b32 %r1, %tix, 0, 31, -1;", "$L0:"],
                "diverged",
            ),
            (&["st.shared.b32 [%sh], %tix;", "ld.shared.b32 %r0, [%shn];"], "without a bar.sync"),
            (&["ld.global.b32 %r0, [%in+16];"], "outside"),
            (&["ld.global.b64 %d0, [%in+4];"], "misaligned"),
        ];
        for (lines, why) in cases {
            let e = run(&program(32, 4, lines), &inputs(32, |_, _| 0), &Allowances::all()).unwrap_err();
            assert!(e.to_string().contains(why), "{e} (expected {why})");
        }
        let e = run(&program(32, 4, &["mov.b32 %r0, 1;"]), &Inputs(vec![0; 3]), &Allowances::all()).unwrap_err();
        assert!(matches!(e, InterpError::Shape(_)));
    }
}
