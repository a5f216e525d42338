//! The test-case reducer: shrinks a program and its inputs while a caller's predicate (the
//! finding's signature still reproduces) keeps holding.
//!
//! Reductions, tried greedily in rounds until a round changes nothing or the budget of
//! predicate calls is spent (each accepted step keeps the predicate true, so the result
//! satisfies it whenever the starting case did):
//! 1. shrink the launch to one warp (trying each warp's inputs) — later steps are cheaper;
//! 2. delete statements (chunks first, then one at a time), labels with no branch left;
//! 3. replace an instruction by a `mov` of one of its sources into its destination, of the
//!    constant the oracle computes for it (when all threads agree), or of zero (cuts dataflow
//!    without leaving unwritten registers);
//! 4. drop guards, and drop qualifiers one at a time (the shorter opcode must still parse and
//!    be valid on the target);
//! 5. replace register sources of glue by immediates;
//! 6. move inputs toward simple values: every thread the same as the first thread, then
//!    zero words.
//!
//! Each pass is a function from the current case and a cursor to its next candidate, so
//! [`minimize_batched`] can show the predicate several candidates at once (a campaign runs them
//! as one module: one ptxas process per level, one JIT load) and keep the first that holds; it
//! then goes on from where that candidate's pass would have, so the result is the one
//! [`minimize`] (one candidate a call) reaches with the same deterministic predicate.
//!
//! The predicate decides what "still the same finding" means. The starting case is tried
//! first: where the predicate does not hold for it (a finding that does not show again when
//! its program runs alone) nothing is reduced, and [`Reduced::reproduced`] says so. Where the
//! starting program passes the structural validator ([`check_program`]), every candidate must
//! pass it too before the predicate sees it: a reduction may not buy a difference by breaking
//! an invariant the oracle does not watch (e.g. a `.L2::cache_hint` policy that no
//! `createpolicy` made, §9.7.9.18 — a GPU may fault on it). Other invalid candidates are
//! rejected by the predicate (the program oracle reports broken invariants).

use oracle::isa::operand::{Imm, Operand};
use oracle::isa::{Instruction, MovShape};
use oracle::program::{interp, Dim3, Glue, Inputs, Program, Reg, RegClass, Src, Stmt};
use oracle::semantics::Allowances;

use crate::program::check_program;

/// Limits of a reduction.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Most predicate calls of a one-candidate-at-a-time reduction (a batched one runs the same
    /// candidates plus, per accepting run, those laid out after the accepted one).
    pub calls: usize,
    /// No predicate run starts after this instant (a campaign's end): the reduction keeps what
    /// it has. `None`: the calls alone bound it, and the result is a function of the case.
    pub until: Option<std::time::Instant>,
    /// Most wall time one reduction takes from its start (a campaign's bound per case, so one
    /// slow case — a crash whose every candidate restarts a GPU worker — cannot hold up the
    /// cases queued behind it): no predicate run starts after it, as with `until`. `None`: no
    /// such bound.
    pub seconds: Option<std::time::Duration>,
}

impl Budget {
    /// At most `calls` predicate calls, whatever the time.
    pub fn calls(calls: usize) -> Budget {
        Budget { calls, until: None, seconds: None }
    }

    /// The instant no predicate run of a reduction started at `start` may start after: the
    /// earlier of `until` and `start` + `seconds` (`None` when neither is set).
    pub fn deadline_from(&self, start: std::time::Instant) -> Option<std::time::Instant> {
        let own = self.seconds.map(|s| start + s);
        match (self.until, own) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::calls(2_000)
    }
}

/// What the reduction did.
#[derive(Clone, Debug, PartialEq)]
pub struct Reduced {
    /// The reduced program.
    pub program: Program,
    /// Its inputs.
    pub inputs: Inputs,
    /// Instructions before.
    pub before: usize,
    /// Instructions after.
    pub after: usize,
    /// Predicate calls a one-candidate-at-a-time reduction makes to reach this case (the
    /// starting case included): the budget counts these, so batching never changes the result.
    pub calls: usize,
    /// Predicate runs: calls of the predicate, each over a batch of one or more candidates.
    pub runs: usize,
    /// Candidates shown to the predicate over all runs: `calls` plus those laid out after an
    /// accepted candidate of their batch (wasted).
    pub shown: usize,
    /// Whether the predicate held for the starting case (its first call); `None` where no
    /// reduction was asked for. When it did not hold, the case is returned unchanged.
    pub reproduced: Option<bool>,
    /// Candidates refused by the structural validator before the predicate saw them (each
    /// would have cost a predicate call: in a campaign, a run on every backend).
    pub refused: usize,
}

impl Reduced {
    /// The case as it is: no reduction asked for.
    pub fn unchanged(program: &Program, inputs: &Inputs) -> Reduced {
        let n = program.instruction_count();
        Reduced {
            program: program.clone(),
            inputs: inputs.clone(),
            before: n,
            after: n,
            calls: 0,
            runs: 0,
            shown: 0,
            reproduced: None,
            refused: 0,
        }
    }
}

/// Where a pass stands: its next candidate (the meaning of the two counters is the pass's).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Cursor(usize, usize);

/// One step of a pass over the current case.
enum Step {
    /// The pass has no more candidates.
    Done,
    /// No candidate here; go on at the cursor.
    Skip(Cursor),
    /// A candidate; the pass goes on at `on_fail` if it is refused, at `on_accept` (or ends,
    /// `None`) once it becomes the current case.
    Try { p: Program, i: Inputs, on_fail: Cursor, on_accept: Option<Cursor> },
}

/// The current case; every pass is a function from it and a cursor to the next [`Step`], so a
/// pass's candidates can be laid out ahead and shown to the predicate several at a time.
struct Current {
    p: Program,
    i: Inputs,
}

type Pass = fn(&Current, Cursor) -> Step;

impl Current {
    fn try_program(&self, p: Program, on_fail: Cursor, on_accept: Option<Cursor>) -> Step {
        Step::Try { p, i: self.i.clone(), on_fail, on_accept }
    }

    /// Shrinks the launch to one warp, each warp's inputs in turn (once per round).
    fn shrink_launch(&self, at: Cursor) -> Step {
        let w = at.0;
        if self.p.threads() <= 32 || w >= (self.p.threads() / 32) as usize {
            return Step::Done;
        }
        let per = self.p.inputs as usize;
        let mut p = self.p.clone();
        p.launch.block = Dim3::x(32);
        let words = self.i.0[w * 32 * per..(w + 1) * 32 * per].to_vec();
        Step::Try { p, i: Inputs(words), on_fail: Cursor(w + 1, 0), on_accept: None }
    }

    /// Deletes chunks of statements, halving the chunk size down to one (`Cursor(size, at)`;
    /// size 0: half the body).
    fn delete_statements(&self, at: Cursor) -> Step {
        let len = self.p.body.len();
        let chunk = if at.0 == 0 { (len / 2).max(1) } else { at.0 };
        let start = at.1;
        if start >= len {
            return if chunk == 1 { Step::Done } else { Step::Skip(Cursor(chunk / 2, 0)) };
        }
        let end = (start + chunk).min(len);
        let mut p = self.p.clone();
        p.body.drain(start..end);
        drop_dangling_labels(&mut p);
        self.try_program(p, Cursor(chunk, end), Some(Cursor(chunk, start)))
    }

    /// Replaces a definition by `mov` of the value the oracle computes for it, when every
    /// thread computes the same exact value (folds whole computations into one constant).
    fn fold_constants(&self, at: Cursor) -> Step {
        let k = at.0;
        let Some(s) = self.p.body.get(k) else { return Step::Done };
        let next = Cursor(k + 1, 0);
        let Some(dst) = single_destination(s).filter(|_| !is_imm_mov(s)) else { return Step::Skip(next) };
        let allow = Allowances::all();
        let Ok(values) = interp::value_after(&self.p, &self.i, &allow, k, dst) else { return Step::Skip(next) };
        let first = match values.first() {
            Some(Some(e)) if e.is_exact() => e.bits,
            _ => return Step::Skip(next),
        };
        if !values.iter().all(|v| v.as_ref().is_some_and(|e| e.is_exact() && e.bits == first)) {
            return Step::Skip(next);
        }
        let mut p = self.p.clone();
        p.body[k] = mov(dst, &format!("{first:#x}"));
        self.try_program(p, next, Some(next))
    }

    fn zero_definitions(&self, at: Cursor) -> Step {
        let k = at.0;
        let Some(s) = self.p.body.get(k) else { return Step::Done };
        let next = Cursor(k + 1, 0);
        let Some(dst) = single_destination(s).filter(|_| !is_zero_mov(s)) else { return Step::Skip(next) };
        let mut p = self.p.clone();
        p.body[k] = zero_mov(dst);
        self.try_program(p, next, Some(next))
    }

    /// Replaces an instruction by a `mov` of one of its register sources of the same class
    /// (`Cursor(statement, source)`).
    fn pass_through(&self, at: Cursor) -> Step {
        let (k, j) = (at.0, at.1);
        let Some(s) = self.p.body.get(k) else { return Step::Done };
        let next = Cursor(k + 1, 0);
        let Some(dst) = single_destination(s) else { return Step::Skip(next) };
        if matches!(s, Stmt::Isa(i) if matches!(i.form, oracle::isa::Form::Mov(_))) {
            return Step::Skip(next);
        }
        let Some(&src) = register_sources(s).get(j) else { return Step::Skip(next) };
        if src.class() != dst.class() || src == dst {
            return Step::Skip(Cursor(k, j + 1));
        }
        let mut p = self.p.clone();
        p.body[k] = mov(dst, &src.to_string());
        self.try_program(p, Cursor(k, j + 1), Some(next))
    }

    /// Copy propagation: `mov d, s` is deleted and later reads of `d` read `s`.
    fn propagate_copies(&self, at: Cursor) -> Step {
        let k = at.0;
        let Some(s) = self.p.body.get(k) else { return Step::Done };
        let copy = match s {
            Stmt::Isa(i)
                if i.guard.is_none() && matches!(i.form, oracle::isa::Form::Mov(m) if m.shape == MovShape::Copy) =>
            {
                match (single_destination(s), i.operands.get(1)) {
                    (Some(d), Some(Operand::Name(n))) => Reg::parse(n).map(|s| (d, s)),
                    _ => None,
                }
            }
            _ => None,
        };
        let Some((d, src)) = copy else { return Step::Skip(Cursor(k + 1, 0)) };
        let mut p = self.p.clone();
        p.body.remove(k);
        for st in &mut p.body[k..] {
            rename_reads(st, d, src);
        }
        self.try_program(p, Cursor(k + 1, 0), Some(Cursor(k, 0)))
    }

    /// Drops a statement's guard (`Cursor(k, 0)`), then one of its qualifiers (`Cursor(k, 1 + q)`).
    fn drop_guards_and_qualifiers(&self, at: Cursor) -> Step {
        let (k, j) = (at.0, at.1);
        let Some(s) = self.p.body.get(k) else { return Step::Done };
        let next = Cursor(k + 1, 0);
        if j == 0 {
            let mut p = self.p.clone();
            let had_guard = match &mut p.body[k] {
                Stmt::Isa(inst) => inst.guard.take().is_some(),
                Stmt::Glue { guard, .. } => guard.take().is_some(),
                _ => false,
            };
            return if had_guard {
                self.try_program(p, Cursor(k, 1), Some(Cursor(k, 1)))
            } else {
                Step::Skip(Cursor(k, 1))
            };
        }
        let Stmt::Isa(inst) = s else { return Step::Skip(next) };
        let Some(shorter) = fewer_qualifiers(inst, &self.p).into_iter().nth(j - 1) else { return Step::Skip(next) };
        let mut p = self.p.clone();
        p.body[k] = Stmt::Isa(shorter);
        self.try_program(p, Cursor(k, j + 1), Some(next))
    }

    fn immediate_sources(&self, at: Cursor) -> Step {
        let k = at.0;
        let Some(s) = self.p.body.get(k) else { return Step::Done };
        let next = Cursor(k + 1, 0);
        let Stmt::Glue { glue, .. } = s else { return Step::Skip(next) };
        if !matches!(glue.src[1], Some(Src::Reg(_))) || !Glue::imm_allowed(glue.op, glue.ty, 1) {
            return Step::Skip(next);
        }
        let mut p = self.p.clone();
        if let Stmt::Glue { glue, .. } = &mut p.body[k] {
            glue.src[1] = Some(Src::Imm(0));
        }
        self.try_program(p, next, Some(next))
    }

    /// Moves inputs toward simple values: every thread the same as thread `t`
    /// (`Cursor(0, t)`, until one is accepted), then input word `w` zero in every thread
    /// (`Cursor(1, w)`).
    fn simplify_inputs(&self, at: Cursor) -> Step {
        let per = self.p.inputs as usize;
        let threads = self.p.threads() as usize;
        match at {
            _ if per == 0 => Step::Done,
            Cursor(0, t) if t >= threads => Step::Skip(Cursor(1, 0)),
            Cursor(0, t) => {
                let row = self.i.0[t * per..(t + 1) * per].to_vec();
                let uniform = Inputs(row.iter().cycle().take(self.i.0.len()).copied().collect());
                if uniform == self.i {
                    return Step::Skip(Cursor(1, 0));
                }
                Step::Try { p: self.p.clone(), i: uniform, on_fail: Cursor(0, t + 1), on_accept: Some(Cursor(1, 0)) }
            }
            Cursor(_, w) if w >= per => Step::Done,
            Cursor(_, w) => {
                let mut i = self.i.clone();
                for t in 0..threads {
                    i.0[t * per + w] = 0;
                }
                Step::Try { p: self.p.clone(), i, on_fail: Cursor(1, w + 1), on_accept: Some(Cursor(1, w + 1)) }
            }
        }
    }
}

/// The passes of one round, in order (`delete_statements` twice: once more after the
/// rewrites have cut dataflow).
const ROUND: [Pass; 10] = [
    Current::shrink_launch,
    Current::delete_statements,
    Current::pass_through,
    Current::propagate_copies,
    Current::fold_constants,
    Current::zero_definitions,
    Current::delete_statements,
    Current::drop_guards_and_qualifiers,
    Current::immediate_sources,
    Current::simplify_inputs,
];

struct Reducer<'f, F: FnMut(&[(Program, Inputs)]) -> Option<usize>> {
    cur: Current,
    pred: &'f mut F,
    calls: usize,
    runs: usize,
    shown: usize,
    budget: Budget,
    /// Candidates must pass [`check_program`] (the starting program does).
    checked: bool,
    refused: usize,
    /// Most candidates per predicate run.
    max_batch: usize,
    /// Candidates of the next run: doubles (up to `max_batch`) after a run where none held,
    /// halves after one where one did, so runs stay long where candidates keep failing (late
    /// rounds) and few candidates are wasted where they keep being accepted (early ones).
    batch: usize,
}

impl<F: FnMut(&[(Program, Inputs)]) -> Option<usize>> Reducer<'_, F> {
    fn exhausted(&self) -> bool {
        self.calls >= self.budget.calls || self.budget.until.is_some_and(|t| std::time::Instant::now() >= t)
    }

    /// Runs one round: every pass of [`ROUND`] in turn, each to its end. Lays out the next
    /// candidates against the current case (on into the following passes when a pass has no
    /// more), shows them to the predicate together and keeps the first that holds (in round
    /// order), then lays out again from where that candidate's pass goes on. The result is the
    /// one a candidate-at-a-time round reaches; the candidates after an accepted one are wasted
    /// runs of single kernels.
    fn run_round(&mut self) -> bool {
        let after_pass = |k: usize| (k + 1 < ROUND.len()).then(|| (k + 1, Cursor::default()));
        let mut at = Some((0, Cursor::default()));
        let mut changed = false;
        while let Some(start) = at.filter(|_| !self.exhausted()) {
            let mut batch: Vec<(Program, Inputs)> = Vec::new();
            let mut resume: Vec<Option<(usize, Cursor)>> = Vec::new();
            // Refusals laid out before each candidate, and in all: the count a one-at-a-time
            // round makes is those before the accepted candidate.
            let (mut refused_before, mut refused) = (Vec::new(), 0);
            let mut next = Some(start);
            let room = self.batch.min(self.budget.calls - self.calls);
            while let Some((k, c)) = next.filter(|_| batch.len() < room) {
                next = match ROUND[k](&self.cur, c) {
                    Step::Done => after_pass(k),
                    Step::Skip(c) => Some((k, c)),
                    Step::Try { p, i, on_fail, on_accept } => {
                        if p == self.cur.p && i == self.cur.i {
                            // Nothing to gain: as if refused.
                        } else if self.checked && check_program(&p).is_err() {
                            refused += 1;
                        } else {
                            refused_before.push(refused);
                            batch.push((p, i));
                            resume.push(on_accept.map_or_else(|| after_pass(k), |c| Some((k, c))));
                        }
                        Some((k, on_fail))
                    }
                };
            }
            if batch.is_empty() {
                self.refused += refused;
                break;
            }
            self.runs += 1;
            self.shown += batch.len();
            match (self.pred)(&batch).filter(|&j| j < batch.len()) {
                Some(j) => {
                    self.calls += j + 1;
                    self.refused += refused_before[j];
                    self.batch = (self.batch / 2).max(1);
                    let (p, i) = batch.swap_remove(j);
                    self.cur = Current { p, i };
                    changed = true;
                    at = resume[j];
                }
                None => {
                    self.calls += batch.len();
                    self.refused += refused;
                    self.batch = (self.batch * 2).min(self.max_batch);
                    at = next;
                }
            }
        }
        changed
    }
}

/// Removes labels no branch targets.
pub(crate) fn drop_dangling_labels(p: &mut Program) {
    let targets: Vec<u32> =
        p.body.iter().filter_map(|s| if let Stmt::Bra { label, .. } = s { Some(*label) } else { None }).collect();
    p.body.retain(|s| !matches!(s, Stmt::Label(l) if !targets.contains(l)));
}

/// The one register a statement writes, if it writes exactly one register that a `mov` of a
/// constant can write instead (not a predicate, not `.b8`: PTX has no `mov.b8`).
pub(crate) fn single_destination(s: &Stmt) -> Option<Reg> {
    match s {
        Stmt::Glue { glue, .. } if glue.dst.class() != RegClass::Pred => Some(glue.dst),
        Stmt::Isa(inst) => {
            let specs = inst.form.operands();
            let dsts: Vec<&Operand> = specs
                .iter()
                .zip(&inst.operands)
                .filter(|(s, _)| s.role == oracle::isa::operand::Role::Dst)
                .map(|(_, o)| o)
                .collect();
            match dsts.as_slice() {
                [Operand::Name(n)] => Reg::parse(n).filter(|r| !matches!(r.class(), RegClass::Pred | RegClass::B8)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The registers a statement reads (guard excluded).
pub(crate) fn register_sources(s: &Stmt) -> Vec<Reg> {
    match s {
        Stmt::Glue { glue, .. } => glue
            .src
            .iter()
            .filter_map(|x| match x {
                Some(Src::Reg(r)) => Some(*r),
                _ => None,
            })
            .collect(),
        Stmt::Isa(inst) => inst
            .form
            .operands()
            .iter()
            .zip(&inst.operands)
            .filter(|(s, _)| s.role == oracle::isa::operand::Role::Src)
            .filter_map(|(_, o)| match o {
                Operand::Name(n) => Reg::parse(n),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Makes `s` read `to` wherever it reads `from` (writes are left alone).
fn rename_reads(s: &mut Stmt, from: Reg, to: Reg) {
    match s {
        Stmt::Glue { glue, .. } => {
            for x in glue.src.iter_mut() {
                if *x == Some(Src::Reg(from)) {
                    *x = Some(Src::Reg(to));
                }
            }
        }
        Stmt::Isa(inst) => {
            let specs = inst.form.operands();
            let (old, new) = (from.to_string(), to.to_string());
            for (spec, o) in specs.iter().zip(inst.operands.iter_mut()) {
                if spec.role != oracle::isa::operand::Role::Src {
                    continue;
                }
                match o {
                    Operand::Name(n) if *n == old => *n = new.clone(),
                    Operand::Vector(items) => {
                        for it in items {
                            if matches!(it, Operand::Name(n) if *n == old) {
                                *it = Operand::Name(new.clone());
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
}

/// `mov.bW dst, src;` (a register or an immediate).
pub(crate) fn mov(dst: Reg, src: &str) -> Stmt {
    let text = format!("mov.b{} {dst}, {src};", dst.class().bits());
    Stmt::Isa(text.parse::<Instruction>().expect("a bit-size mov parses"))
}

fn zero_mov(dst: Reg) -> Stmt {
    mov(dst, "0")
}

fn is_zero_mov(s: &Stmt) -> bool {
    matches!(s, Stmt::Isa(i) if matches!(i.form, oracle::isa::Form::Mov(m) if m.shape == MovShape::Copy)
        && matches!(i.operands.get(1), Some(Operand::Imm(Imm::Int(0)))))
}

fn is_imm_mov(s: &Stmt) -> bool {
    matches!(s, Stmt::Isa(i) if matches!(i.form, oracle::isa::Form::Mov(m) if m.shape == MovShape::Copy)
        && matches!(i.operands.get(1), Some(Operand::Imm(_))))
}

/// The instruction with one qualifier fewer, each way that still parses and is valid; without
/// `.L2::cache_hint` the access loses its `cache-policy` operand too (§9.7.9.8), so a policy
/// the reduced case no longer needs can go.
fn fewer_qualifiers(inst: &Instruction, p: &Program) -> Vec<Instruction> {
    let opcode = inst.form.opcode();
    let parts: Vec<&str> = opcode.split('.').collect();
    let mut out = Vec::new();
    for k in 1..parts.len() {
        let shorter: Vec<&str> = parts.iter().enumerate().filter(|(j, _)| *j != k).map(|(_, s)| *s).collect();
        let unhinted = parts[k] == "L2::cache_hint";
        if let Some(i) = requalified(inst, &shorter, unhinted, p) {
            out.push(i);
        }
    }
    out
}

/// `inst` with the opcode `parts` (joined by `.`), its guard and operands kept (less the
/// `cache-policy` operand with `drop_policy`), when that parses and is valid on `p`'s target.
/// The one way the minimizer and the mutator ([`crate::mutate`]) rewrite an opcode.
pub(crate) fn requalified(inst: &Instruction, parts: &[&str], drop_policy: bool, p: &Program) -> Option<Instruction> {
    let policy = inst.form.operands().iter().position(|s| s.name == "cache-policy");
    let mut text = String::new();
    if let Some(g) = &inst.guard {
        text.push_str(&format!("@{}{} ", if g.negated { "!" } else { "" }, g.pred));
    }
    text.push_str(&parts.join("."));
    let ops: Vec<String> = inst
        .operands
        .iter()
        .enumerate()
        .filter(|(j, _)| !(drop_policy && Some(*j) == policy))
        .map(|(_, o)| o.to_string())
        .collect();
    if !ops.is_empty() {
        text.push(' ');
        text.push_str(&ops.join(", "));
    }
    text.parse::<Instruction>().ok().filter(|i| i.form.is_valid(&p.target))
}

/// Reduces `(program, inputs)` while `pred` holds, one candidate per predicate call. The first
/// call tries the starting case; where `pred` does not hold for it, the case is returned
/// unchanged with `reproduced: Some(false)`.
pub fn minimize<F>(program: &Program, inputs: &Inputs, budget: Budget, mut pred: F) -> Reduced
where
    F: FnMut(&Program, &Inputs) -> bool,
{
    minimize_batched(program, inputs, budget, 1, |cands| cands.iter().position(|(p, i)| pred(p, i)))
}

/// Reduces `(program, inputs)` showing the predicate up to `max_batch` candidates at a time:
/// `pred` gives the index of the first candidate (in order) for which the finding still shows,
/// or `None`. A caller whose every run has a fixed cost (process start-up, a module load) pays
/// it once per batch; the reduction is the one [`minimize`] reaches with the same predicate.
/// The first run is the starting case alone.
pub fn minimize_batched<F>(program: &Program, inputs: &Inputs, budget: Budget, max_batch: usize, mut pred: F) -> Reduced
where
    F: FnMut(&[(Program, Inputs)]) -> Option<usize>,
{
    if budget.calls == 0 {
        return Reduced::unchanged(program, inputs);
    }
    if pred(&[(program.clone(), inputs.clone())]) != Some(0) {
        return Reduced { calls: 1, runs: 1, shown: 1, reproduced: Some(false), ..Reduced::unchanged(program, inputs) };
    }
    let budget = Budget { until: budget.deadline_from(std::time::Instant::now()), seconds: None, ..budget };
    let mut r = Reducer {
        cur: Current { p: program.clone(), i: inputs.clone() },
        pred: &mut pred,
        calls: 1,
        runs: 1,
        shown: 1,
        budget,
        checked: check_program(program).is_ok(),
        refused: 0,
        max_batch: max_batch.max(1),
        batch: 1,
    };
    loop {
        let changed = r.run_round();
        if !changed || r.exhausted() {
            break;
        }
    }
    Reduced {
        before: program.instruction_count(),
        after: r.cur.p.instruction_count(),
        program: r.cur.p,
        inputs: r.cur.i,
        calls: r.calls,
        runs: r.runs,
        shown: r.shown,
        reproduced: Some(true),
        refused: r.refused,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oracle::program::text::parse_stmt;
    use oracle::program::{GlueOp, Launch};
    use oracle::semantics::Allowances;

    fn program(lines: &[&str]) -> Program {
        Program {
            name: "k".into(),
            target: "sm_90a@8.7".parse().unwrap(),
            launch: Launch::one_cta(64),
            inputs: 4,
            outputs: 1,
            shared: 0,
            body: lines.iter().enumerate().map(|(i, l)| parse_stmt(i + 1, l).unwrap()).collect(),
        }
    }

    /// Eleven statements around a `cvt` and an `add`, with a branch, over two warps; thread 0's
    /// output is odd.
    fn branchy_case() -> (Program, Inputs) {
        let p = program(&[
            "ld.global.v4.b32 {%r0, %r1, %r2, %r3}, [%in];",
            "xor.b32 %r4, %r1, %r2;",
            "setp.lt.s32 %p0, %r4, 0;",
            "@%p0 bra $L0;",
            "mul.lo.s32 %r5, %r3, 3;",
            "$L0:",
            "cvt.rzi.s32.f32 %r6, %r0;",
            "add.s32 %r7, %r6, %r1;",
            "shl.b32 %r8, %r7, 1;",
            "or.b32 %r9, %r8, %r4;",
            "st.global.b32 [%out], %r9;",
        ]);
        (p, Inputs((0..64 * 4).map(|k| if k % 4 == 0 { 0x4040_0000 } else { k as u32 }).collect()))
    }

    /// The predicate stands for a finding: the program still holds an `add` and a `cvt`, and
    /// thread 0's output is odd.
    #[test]
    fn reduces_to_the_instructions_the_predicate_needs() {
        let (p, inputs) = branchy_case();
        let allow = Allowances::all();
        let pred = |p: &Program, i: &Inputs| {
            p.body.iter().any(|s| matches!(s, Stmt::Glue { glue, .. } if glue.op == GlueOp::Add))
                && p.body.iter().any(|s| matches!(s, Stmt::Isa(i) if i.form.opcode().starts_with("cvt")))
                && interp::run(p, i, &allow).is_ok_and(|o| o[0].bits & 1 == 1)
        };
        assert!(pred(&p, &inputs));
        let r = minimize(&p, &inputs, Budget::default(), pred);
        assert!(pred(&r.program, &r.inputs), "the result satisfies the predicate");
        assert_eq!(r.program.threads(), 32);
        assert!(r.after < r.before && r.after <= 5, "{} → {}:\n{}", r.before, r.after, r.program.entry_text());
        assert!(!r.program.body.iter().any(|s| matches!(s, Stmt::Bra { .. })), "the branch is irrelevant");
    }

    /// A reduction whose `until` has passed stops before its next predicate run and keeps the
    /// case it has (a campaign's end); without `until` the same reduction goes on.
    #[test]
    fn a_reduction_stops_at_its_until() {
        let (p, inputs) = branchy_case();
        let mut runs = 0;
        let past = Budget { calls: 2_000, until: Some(std::time::Instant::now()), seconds: None };
        let r = minimize(&p, &inputs, past, |_, _| {
            runs += 1;
            true
        });
        assert_eq!((runs, r.after), (1, r.before), "only the starting case was checked");
        let r = minimize(&p, &inputs, Budget::default(), |_, _| true);
        assert!(r.after < r.before);
    }

    /// A reduction stops `seconds` after it started, keeping the case it has (a campaign's
    /// bound per case); `until` and `seconds` together stop it at the earlier.
    #[test]
    fn a_reduction_stops_after_its_seconds() {
        let (p, inputs) = branchy_case();
        let mut runs = 0;
        let none = Budget { seconds: Some(std::time::Duration::ZERO), ..Budget::default() };
        let r = minimize(&p, &inputs, none, |_, _| {
            runs += 1;
            true
        });
        assert_eq!((runs, r.after), (1, r.before), "only the starting case was checked");
        let now = std::time::Instant::now();
        let later = now + std::time::Duration::from_secs(60);
        let both = Budget { until: Some(later), seconds: Some(std::time::Duration::from_secs(5)), ..Budget::default() };
        assert_eq!(both.deadline_from(now), Some(now + std::time::Duration::from_secs(5)));
        let until_first = Budget { until: Some(now), ..both };
        assert_eq!(until_first.deadline_from(now), Some(now));
        assert_eq!(Budget::default().deadline_from(now), None);
    }

    /// Showing the predicate several candidates a run reaches the same case as one at a time
    /// (every candidate before the accepted one was refused against the same current case),
    /// in fewer runs.
    #[test]
    fn batches_reach_the_case_one_at_a_time_reaches() {
        let (p, inputs) = branchy_case();
        let allow = Allowances::all();
        let pred = |p: &Program, i: &Inputs| {
            p.body.iter().any(|s| oracle::program::text::stmt_line(s).contains("cvt"))
                && interp::run(p, i, &allow).is_ok_and(|o| o[0].bits & 1 == 1)
        };
        let one = minimize(&p, &inputs, Budget::default(), pred);
        let mut sizes = Vec::new();
        let batched = minimize_batched(&p, &inputs, Budget::default(), 8, |cands| {
            sizes.push(cands.len());
            cands.iter().position(|(c, i)| pred(c, i))
        });
        assert_eq!((&batched.program, &batched.inputs), (&one.program, &one.inputs));
        assert_eq!((batched.after, batched.refused, batched.calls), (one.after, one.refused, one.calls));
        assert_eq!((one.runs, one.shown), (one.calls, one.calls), "one candidate a run");
        assert_eq!(batched.runs, sizes.len());
        assert_eq!(batched.shown, sizes.iter().sum::<usize>());
        assert!(batched.shown > batched.calls, "some candidates after an accepted one were run");
        assert!(sizes.iter().all(|&n| (1..=8).contains(&n)) && sizes.iter().any(|&n| n > 1), "{sizes:?}");
        assert!(batched.runs < one.runs, "{} runs batched, {} one at a time", batched.runs, one.runs);
    }

    #[test]
    fn a_failing_predicate_leaves_the_case_alone() {
        let p = program(&["mov.b32 %r0, 1;", "st.global.b32 [%out], %r0;"]);
        let inputs = Inputs(vec![0; 256]);
        let r = minimize(&p, &inputs, Budget::calls(50), |_, _| false);
        assert_eq!((r.program, r.inputs, r.calls, r.runs, r.reproduced), (p, inputs, 1, 1, Some(false)));
    }

    /// A hinted load whose hint the finding does not need loses `.L2::cache_hint` with its
    /// policy operand, and then its `createpolicy`.
    #[test]
    fn a_hint_the_finding_does_not_need_goes_with_its_policy() {
        let p = program(&[
            "createpolicy.fractional.L2::evict_last.b64 %d0;",
            "ld.global.L2::cache_hint.b32 %r0, [%in], %d0;",
            "xor.b32 %r1, %r0, 5;",
            "st.global.b32 [%out], %r1;",
        ]);
        let has_xor = |c: &Program, _: &Inputs| {
            c.body.iter().any(|s| oracle::program::text::stmt_line(s).trim_start().starts_with("xor"))
        };
        let r = minimize(&p, &Inputs(vec![7; 256]), Budget::default(), has_xor);
        let text = r.program.entry_text();
        assert_eq!(check_program(&r.program), Ok(()), "{text}");
        assert!(!text.contains("cache_hint") && !text.contains("createpolicy"), "{text}");
    }

    /// A candidate that breaks a structural invariant is never shown to the predicate: here
    /// replacing the `createpolicy` by a `mov` of zero (a policy no `createpolicy` made) would
    /// keep the predicate true, but the reduced case still takes its policy from `createpolicy`.
    #[test]
    fn candidates_keep_the_programs_invariants() {
        let p = program(&[
            "createpolicy.fractional.L2::evict_last.b64 %d0;",
            "ld.global.L2::cache_hint.b32 %r0, [%in], %d0;",
            "st.global.b32 [%out], %r0;",
        ]);
        assert_eq!(check_program(&p), Ok(()));
        let inputs = Inputs(vec![7; 256]);
        let has_hinted_load = |c: &Program, _: &Inputs| {
            c.body.iter().any(|s| oracle::program::text::stmt_line(s).contains("L2::cache_hint"))
        };
        let r = minimize(&p, &inputs, Budget::default(), has_hinted_load);
        assert_eq!(r.reproduced, Some(true));
        assert!(r.refused > 0, "the mov-of-zero candidate for the createpolicy was refused");
        assert_eq!(check_program(&r.program), Ok(()), "{}", r.program.entry_text());
        assert!(
            r.program.body.iter().any(|s| oracle::program::text::stmt_line(s).contains("createpolicy")),
            "{}",
            r.program.entry_text()
        );
        assert!(r.after < r.before, "the store still goes: {}", r.program.entry_text());
    }
}
