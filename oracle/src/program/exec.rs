//! Control flow of the program oracle: the [`Machine`] that walks a program's body once,
//! statement by statement, for every thread of the launch together, and the state each thread
//! carries (registers, where it waits, whether it is uncertain).
//!
//! Forward branches are exact: a thread that takes `@p bra $L` waits at `$L` and rejoins there,
//! so divergence and reconvergence need no stack. A backward branch is the back edge of a
//! counted loop: every thread that runs it must take it or fall through together (the
//! generator's loops count with immediates), and the machine jumps back for all of them. A branch or guard on a set-valued predicate
//! makes the thread *uncertain* until the branch target: it runs every statement, and every
//! register it writes becomes "any value" under the predicate's allowance (a superset of both
//! paths). Per-thread statements are in [`super::thread`], warp and CTA collectives in
//! [`super::warp`], memory in [`crate::memory`].
//!
//! Invariants: the machine runs at most [`MAX_STEPS`] statements; it runs the launch of [`Launch::one_cta`](super::Launch::one_cta)'s
//! shape only (checked when it is made); a thread never runs a statement while it waits; a
//! register read before any write is an error unless the thread is uncertain.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::emulate::Origin;
use super::interp::{InterpError, Probed, RunOptions};
use super::launch::{Buffer, ParamValue};
use super::reg_file::RegFile;
use super::{Inputs, PredGuard, Program, Reg, RegClass, Special, Stmt};
use crate::isa::operand::Operand;
use crate::memory::{Image, Shared};
use crate::semantics::operands::is_warp_form;
use crate::semantics::{Allowance, Allowances, Deviation, DeviationScope, Expected};

/// What happened to one thread's control flow.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Flow {
    /// Waiting at this body index (a label) after a taken branch.
    pub(super) waiting: Option<usize>,
    /// Uncertain (a branch on a set-valued predicate) until this body index, with the
    /// allowance that made the predicate set-valued.
    pub(super) uncertain: Option<(usize, Allowance)>,
}

/// The state of one run: every thread's registers and control flow, and the launch's memory.
pub(super) struct Machine<'a> {
    /// The program.
    pub(super) p: &'a Program,
    /// Threads of the launch.
    pub(super) threads: u32,
    /// How to run (probes, captures, the test hook).
    pub(super) opts: RunOptions,
    /// The probed source values.
    pub(super) probed: Probed,
    /// Every thread's value of the captured register.
    pub(super) captured: Vec<Option<Expected>>,
    /// The allowances in force.
    pub(super) allow: &'a Allowances,
    /// Each thread's registers.
    pub(super) regs: Vec<RegFile<Expected>>,
    /// Each thread's control flow.
    pub(super) flow: Vec<Flow>,
    /// Each thread's carry flag `CC.CF` (§9.7.2), once an instruction wrote it.
    pub(super) carry: Vec<Option<Expected>>,
    /// The global buffers the launch's parameters point to.
    pub(super) global: BTreeMap<Buffer, Image>,
    /// The CTA's shared memory.
    pub(super) shared: Shared,
    /// The body index being run.
    pub(super) stmt: usize,
    /// Whether some register-program deviation is emulated ([`super::emulate`]): only then
    /// are origins recorded and the emulation hooks called.
    pub(super) emulating: bool,
    /// Each thread's origin of each register's value (while emulating).
    pub(super) origins: Vec<RegFile<Origin>>,
    /// The origin the current statement gives the registers it writes in the thread being run.
    pub(super) origin_now: Option<Origin>,
    /// The emulated deviations that changed a value.
    pub(super) fired: BTreeSet<Deviation>,
    /// The joins of forward branches passed so far (while emulating): a value ptxas knows is
    /// known only until the next one ([`super::emulate::forget_at_join`]).
    pub(super) joins: u64,
    /// The basic-block boundaries ptxas sees passed so far (while emulating): a value is known
    /// locally only in the block it was computed in ([`super::emulate::count_boundary`]).
    pub(super) blocks: u64,
}

/// The most statements one run executes (loops included): a thousand times a 4096-statement
/// body, far above what a generated program with its short counted loops runs; a program past
/// it is taken as one that does not terminate.
const MAX_STEPS: u64 = 1 << 22;

/// The allowance behind a set-valued result.
pub(super) fn taint(e: &Expected) -> Allowance {
    e.free.first().map_or(Allowance::Undefined, |f| f.allowance)
}

impl<'a> Machine<'a> {
    /// A machine ready to run `p` on `inputs`: the global buffers of the launch's parameters
    /// (the inputs, the zeroed outputs) and shared memory never stored.
    pub(super) fn new(
        p: &'a Program,
        inputs: &Inputs,
        allow: &'a Allowances,
        opts: RunOptions,
    ) -> Result<Machine<'a>, InterpError> {
        p.launch.check_one_cta().map_err(|why| InterpError::Shape(format!("the launch has {why}")))?;
        let threads = p.threads();
        let n = (threads * p.inputs) as usize;
        if inputs.0.len() != n {
            return Err(InterpError::Shape(format!(
                "{} input words given, the program reads {} ({} threads × {})",
                inputs.0.len(),
                n,
                threads,
                p.inputs
            )));
        }
        let global = p
            .launch
            .params
            .iter()
            .map(|param| match param.value {
                ParamValue::Global(b @ Buffer::Inputs) => (b, Image::from_words(&inputs.0)),
                ParamValue::Global(b @ Buffer::Outputs) => (b, Image::zeroed((threads * p.outputs) as usize)),
            })
            .collect();
        Ok(Machine {
            p,
            threads,
            allow,
            regs: vec![RegFile::new(); threads as usize],
            flow: vec![Flow::default(); threads as usize],
            carry: vec![None; threads as usize],
            global,
            shared: Shared::new((threads * p.shared) as usize),
            stmt: 0,
            emulating: allow.emulated().any(|d| d.scope() == DeviationScope::Program),
            origins: vec![RegFile::new(); threads as usize],
            origin_now: None,
            fired: BTreeSet::new(),
            joins: 0,
            blocks: 0,
            opts,
            probed: Vec::new(),
            captured: Vec::new(),
        })
    }

    fn text(&self) -> String {
        super::text::stmt_line(&self.p.body[self.stmt]).trim().to_string()
    }

    /// The program broke an invariant at the current statement in thread `thread`.
    pub(super) fn undefined(&self, thread: u32, reason: impl Into<String>) -> InterpError {
        InterpError::Undefined { stmt: self.stmt, text: self.text(), thread, reason: reason.into() }
    }

    /// The oracle cannot evaluate the current statement.
    pub(super) fn unsupported(&self, reason: impl Into<String>) -> InterpError {
        InterpError::Unsupported { stmt: self.stmt, text: self.text(), reason: reason.into() }
    }

    /// Whether thread `t` runs statements (it does not wait at a label).
    fn active(&self, t: u32) -> bool {
        self.flow[t as usize].waiting.is_none()
    }

    /// The allowance that made thread `t` uncertain, if it is.
    pub(super) fn uncertain(&self, t: u32) -> Option<Allowance> {
        self.flow[t as usize].uncertain.map(|(_, a)| a)
    }

    /// Register `r` of thread `t`.
    pub(super) fn read(&self, t: u32, r: Reg) -> Result<Expected, InterpError> {
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

    /// The carry flag of thread `t` (§9.7.2): an error before any instruction wrote it,
    /// unless the thread is uncertain.
    pub(super) fn carry(&self, t: u32) -> Result<Expected, InterpError> {
        match &self.carry[t as usize] {
            Some(e) => Ok(e.clone()),
            None => match self.uncertain(t) {
                Some(a) => Ok(Expected::any(1, a)),
                None => Err(self.undefined(t, "reads the carry flag CC.CF before any instruction wrote it")),
            },
        }
    }

    /// Sets the carry flag of thread `t` (any value while the thread is uncertain).
    pub(super) fn set_carry(&mut self, t: u32, e: Expected) {
        let e = match self.uncertain(t) {
            Some(a) => Expected::any(1, a),
            None => e,
        };
        self.carry[t as usize] = Some(e);
    }

    /// Writes register `r` of thread `t` (zero-extended to the register; any value while the
    /// thread is uncertain).
    pub(super) fn write(&mut self, t: u32, r: Reg, e: Expected) -> Result<(), InterpError> {
        if matches!(r, Reg::Special(_)) {
            return Err(self.unsupported(format!("writes the prologue's register {r}")));
        }
        let width = r.class().bits();
        let e = match self.uncertain(t) {
            Some(a) => Expected::any(width, a),
            None if e.width == width => e,
            None => super::thread::extend(e, width, false),
        };
        self.regs[t as usize].insert(r, e);
        if self.emulating {
            match &self.origin_now {
                Some(o) => self.origins[t as usize].insert(r, o.clone()),
                None => self.origins[t as usize].remove(&r),
            };
        }
        Ok(())
    }

    /// Writes `e` to `r` of thread `t` keeping the origin of the value it replaces (an emulation
    /// that changes a register a skipped instruction would have left alone).
    pub(super) fn write_keeping_origin(&mut self, t: u32, r: Reg, e: Expected) -> Result<(), InterpError> {
        let origin = self.origins.get(t as usize).and_then(|o| o.get(&r)).cloned();
        let now = std::mem::replace(&mut self.origin_now, origin);
        let out = self.write(t, r, e);
        self.origin_now = now;
        out
    }

    /// A guard's value: `Some(true)` run, `Some(false)` skip, `None` unknown (with the
    /// allowance that made it so).
    pub(super) fn guard(&self, t: u32, g: Option<PredGuard>) -> Result<(Option<bool>, Allowance), InterpError> {
        let Some(g) = g else { return Ok((Some(true), Allowance::Undefined)) };
        let v = self.read(t, Reg::Virt(RegClass::Pred, g.pred))?;
        if v.is_exact() {
            Ok((Some((v.bits == 1) != g.negated), Allowance::Undefined))
        } else {
            Ok((None, taint(&v)))
        }
    }

    /// The register an operand names.
    pub(super) fn reg_of(&self, o: &Operand) -> Result<Reg, InterpError> {
        match o {
            Operand::Name(n) => {
                Reg::parse(n).ok_or_else(|| self.unsupported(format!("`{n}` is not a program register")))
            }
            other => Err(self.unsupported(format!("`{other}` is not a register"))),
        }
    }

    /// Whether any thread waits at a label or is uncertain.
    pub(super) fn diverged(&self) -> bool {
        self.flow.iter().any(|f| f.waiting.is_some() || f.uncertain.is_some())
    }

    /// `Err` unless every thread is converged (needed by `what`).
    pub(super) fn converged(&self, what: &str) -> Result<(), InterpError> {
        for t in 0..self.threads {
            let f = self.flow[t as usize];
            if f.waiting.is_some() || f.uncertain.is_some() {
                return Err(self.undefined(t, format!("{what} while the thread has diverged")));
            }
        }
        Ok(())
    }

    /// Runs the whole body.
    pub(super) fn run(&mut self) -> Result<(), InterpError> {
        let labels: HashMap<u32, usize> = self
            .p
            .body
            .iter()
            .enumerate()
            .filter_map(|(i, s)| if let Stmt::Label(l) = s { Some((*l, i)) } else { None })
            .collect();
        let mut steps = 0u64;
        let max_steps = self.opts.max_steps.unwrap_or(MAX_STEPS);
        let mut next = 0;
        while next < self.p.body.len() {
            let i = next;
            next += 1;
            steps += 1;
            if steps > max_steps {
                return Err(self.unsupported(format!("the program runs more than {max_steps} statements")));
            }
            self.stmt = i;
            self.origin_now = None;
            if self.emulating {
                super::emulate::count_boundary(self, i);
                super::emulate::restore_exit_predicate_after_a_signed_count(self, i);
            }
            let s = &self.p.body[i];
            match s {
                Stmt::Label(_) => {
                    if self.emulating {
                        super::emulate::forget_at_join(self, i);
                    }
                    for f in &mut self.flow {
                        if f.waiting == Some(i) {
                            f.waiting = None;
                        }
                        if f.uncertain.is_some_and(|(u, _)| u == i) {
                            f.uncertain = None;
                        }
                    }
                }
                Stmt::Bar => self.barrier()?,
                Stmt::Bra { guard, label } => {
                    let Some(&target) = labels.get(label) else {
                        return Err(self.unsupported(format!("no label $L{label}")));
                    };
                    if target <= i {
                        if self.backward(*guard)? {
                            next = target;
                        }
                        continue;
                    }
                    for t in 0..self.threads {
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
                    for t in 0..self.threads {
                        if self.active(t) {
                            self.glue(t, guard, &glue)?;
                        }
                    }
                }
                Stmt::Isa(inst) => {
                    let inst = inst.clone();
                    if is_warp_form(&inst.form) {
                        self.shuffle(&inst)?;
                    } else {
                        for t in 0..self.threads {
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

    /// A backward branch (the back edge of a counted loop): whether every thread jumps. The
    /// threads that run it must agree, each on an exact guard; a loop whose threads would
    /// split, or that an uncertain thread reaches, is beyond this machine.
    fn backward(&self, guard: Option<PredGuard>) -> Result<bool, InterpError> {
        let mut taken = None;
        for t in (0..self.threads).filter(|&t| self.active(t)) {
            if self.uncertain(t).is_some() {
                return Err(self.unsupported("a backward branch in an uncertain thread"));
            }
            let (Some(jump), _) = self.guard(t, guard)? else {
                return Err(self.unsupported("a backward branch on a set-valued predicate"));
            };
            if taken.is_some_and(|j| j != jump) {
                return Err(self.unsupported("a backward branch that splits the threads (loops must be uniform)"));
            }
            taken = Some(jump);
        }
        Ok(taken.unwrap_or(false))
    }

    /// Each thread's output words as one [`Expected`] of `32 × outputs` bits (word 0 in the
    /// low bits), from the final image of the output buffer.
    pub(super) fn outputs(&self) -> Result<Vec<Expected>, InterpError> {
        let image = &self.global[&Buffer::Outputs];
        let stride = self.p.output_stride() as usize;
        (0..self.threads as usize)
            .map(|t| {
                let mut e = Expected::exact(0, 32 * self.p.outputs);
                for k in 0..self.p.outputs as usize {
                    let word = image.read(stride * t + 4 * k, 4).map_err(|m| InterpError::Shape(m.to_string()))?;
                    e.replace(32 * k as u32, word);
                }
                Ok(e)
            })
            .collect()
    }
}
