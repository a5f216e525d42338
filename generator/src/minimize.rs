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
    /// Most predicate calls.
    pub calls: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { calls: 2_000 }
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
    /// Predicate calls made.
    pub calls: usize,
    /// Whether the predicate held for the starting case (its first call); `None` where no
    /// reduction was asked for. When it did not hold, the case is returned unchanged.
    pub reproduced: Option<bool>,
    /// Candidates refused by the structural validator before the predicate saw them (each
    /// would have cost a predicate call: in a campaign, a run on every backend).
    pub refused: usize,
}

struct Reducer<'f, F: FnMut(&Program, &Inputs) -> bool> {
    p: Program,
    i: Inputs,
    pred: &'f mut F,
    calls: usize,
    budget: Budget,
    /// Candidates must pass [`check_program`] (the starting program does).
    checked: bool,
    refused: usize,
}

impl<F: FnMut(&Program, &Inputs) -> bool> Reducer<'_, F> {
    fn exhausted(&self) -> bool {
        self.calls >= self.budget.calls
    }

    /// Tries a candidate; keeps it when the predicate holds.
    fn try_accept(&mut self, p: Program, i: Inputs) -> bool {
        if self.exhausted() || (p == self.p && i == self.i) {
            return false;
        }
        if self.checked && check_program(&p).is_err() {
            self.refused += 1;
            return false;
        }
        self.calls += 1;
        if (self.pred)(&p, &i) {
            self.p = p;
            self.i = i;
            true
        } else {
            false
        }
    }

    fn try_program(&mut self, p: Program) -> bool {
        let i = self.i.clone();
        self.try_accept(p, i)
    }

    fn shrink_launch(&mut self) -> bool {
        if self.p.threads() <= 32 {
            return false;
        }
        let per = self.p.inputs as usize;
        for w in 0..(self.p.threads() / 32) as usize {
            let mut p = self.p.clone();
            p.launch.block = Dim3::x(32);
            let words = self.i.0[w * 32 * per..(w + 1) * 32 * per].to_vec();
            if self.try_accept(p, Inputs(words)) {
                return true;
            }
        }
        false
    }

    fn delete_statements(&mut self) -> bool {
        let mut changed = false;
        let mut chunk = (self.p.body.len() / 2).max(1);
        loop {
            let mut at = 0;
            while at < self.p.body.len() && !self.exhausted() {
                let end = (at + chunk).min(self.p.body.len());
                let mut p = self.p.clone();
                p.body.drain(at..end);
                drop_dangling_labels(&mut p);
                if self.try_program(p) {
                    changed = true;
                } else {
                    at = end;
                }
            }
            if chunk == 1 || self.exhausted() {
                break;
            }
            chunk /= 2;
        }
        changed
    }

    /// Replaces a definition by `mov` of the value the oracle computes for it, when every
    /// thread computes the same exact value (folds whole computations into one constant).
    fn fold_constants(&mut self) -> bool {
        let mut changed = false;
        let allow = Allowances::all();
        for k in 0..self.p.body.len() {
            let Some(dst) = single_destination(&self.p.body[k]) else { continue };
            if is_imm_mov(&self.p.body[k]) {
                continue;
            }
            let Ok(values) = interp::value_after(&self.p, &self.i, &allow, k, dst) else { continue };
            let first = match values.first() {
                Some(Some(e)) if e.is_exact() => e.bits,
                _ => continue,
            };
            if !values.iter().all(|v| v.as_ref().is_some_and(|e| e.is_exact() && e.bits == first)) {
                continue;
            }
            let mut p = self.p.clone();
            p.body[k] = mov(dst, &format!("{first:#x}"));
            changed |= self.try_program(p);
        }
        changed
    }

    fn zero_definitions(&mut self) -> bool {
        let mut changed = false;
        for k in 0..self.p.body.len() {
            let Some(dst) = single_destination(&self.p.body[k]) else { continue };
            if is_zero_mov(&self.p.body[k]) {
                continue;
            }
            let mut p = self.p.clone();
            p.body[k] = zero_mov(dst);
            changed |= self.try_program(p);
        }
        changed
    }

    /// Replaces an instruction by a `mov` of one of its register sources of the same class.
    fn pass_through(&mut self) -> bool {
        let mut changed = false;
        for k in 0..self.p.body.len() {
            let Some(dst) = single_destination(&self.p.body[k]) else { continue };
            if matches!(&self.p.body[k], Stmt::Isa(i) if matches!(i.form, oracle::isa::Form::Mov(_))) {
                continue;
            }
            for src in register_sources(&self.p.body[k]) {
                if src.class() != dst.class() || src == dst {
                    continue;
                }
                let mut p = self.p.clone();
                p.body[k] = mov(dst, &src.to_string());
                if self.try_program(p) {
                    changed = true;
                    break;
                }
            }
        }
        changed
    }

    /// Copy propagation: `mov d, s` is deleted and later reads of `d` read `s`.
    fn propagate_copies(&mut self) -> bool {
        let mut changed = false;
        let mut k = 0;
        while k < self.p.body.len() {
            let copy = match &self.p.body[k] {
                Stmt::Isa(i)
                    if i.guard.is_none()
                        && matches!(i.form, oracle::isa::Form::Mov(m) if m.shape == MovShape::Copy) =>
                {
                    match (single_destination(&self.p.body[k]), i.operands.get(1)) {
                        (Some(d), Some(Operand::Name(n))) => Reg::parse(n).map(|s| (d, s)),
                        _ => None,
                    }
                }
                _ => None,
            };
            if let Some((d, src)) = copy {
                let mut p = self.p.clone();
                p.body.remove(k);
                for st in &mut p.body[k..] {
                    rename_reads(st, d, src);
                }
                if self.try_program(p) {
                    changed = true;
                    continue;
                }
            }
            k += 1;
        }
        changed
    }

    fn drop_guards_and_qualifiers(&mut self) -> bool {
        let mut changed = false;
        for k in 0..self.p.body.len() {
            let mut p = self.p.clone();
            let had_guard = match &mut p.body[k] {
                Stmt::Isa(inst) => inst.guard.take().is_some(),
                Stmt::Glue { guard, .. } | Stmt::Bra { guard, .. } => guard.take().is_some(),
                _ => false,
            };
            if had_guard && matches!(p.body[k], Stmt::Isa(_) | Stmt::Glue { .. }) {
                changed |= self.try_program(p);
            }
            let Stmt::Isa(inst) = &self.p.body[k] else { continue };
            for shorter in fewer_qualifiers(inst, &self.p) {
                let mut p = self.p.clone();
                p.body[k] = Stmt::Isa(shorter);
                if self.try_program(p) {
                    changed = true;
                    break;
                }
            }
        }
        changed
    }

    fn immediate_sources(&mut self) -> bool {
        let mut changed = false;
        for k in 0..self.p.body.len() {
            let Stmt::Glue { glue, .. } = &self.p.body[k] else { continue };
            if !matches!(glue.src[1], Some(Src::Reg(_))) || !Glue::imm_allowed(glue.op, glue.ty, 1) {
                continue;
            }
            let mut p = self.p.clone();
            if let Stmt::Glue { glue, .. } = &mut p.body[k] {
                glue.src[1] = Some(Src::Imm(0));
            }
            changed |= self.try_program(p);
        }
        changed
    }

    fn simplify_inputs(&mut self) -> bool {
        let mut changed = false;
        let per = self.p.inputs as usize;
        if per == 0 {
            return false;
        }
        // The same inputs for every thread (each thread's in turn, first to last).
        for t in 0..self.p.threads() as usize {
            let row = self.i.0[t * per..(t + 1) * per].to_vec();
            let uniform = Inputs(row.iter().cycle().take(self.i.0.len()).copied().collect());
            if uniform == self.i {
                break;
            }
            if self.try_accept(self.p.clone(), uniform) {
                changed = true;
                break;
            }
        }
        for w in 0..per {
            let mut i = self.i.clone();
            for t in 0..self.p.threads() as usize {
                i.0[t * per + w] = 0;
            }
            changed |= self.try_accept(self.p.clone(), i);
        }
        changed
    }
}

/// Removes labels no branch targets.
fn drop_dangling_labels(p: &mut Program) {
    let targets: Vec<u32> =
        p.body.iter().filter_map(|s| if let Stmt::Bra { label, .. } = s { Some(*label) } else { None }).collect();
    p.body.retain(|s| !matches!(s, Stmt::Label(l) if !targets.contains(l)));
}

/// The one register a statement writes, if it writes exactly one register that a `mov` of a
/// constant can write instead (not a predicate, not `.b8`: PTX has no `mov.b8`).
fn single_destination(s: &Stmt) -> Option<Reg> {
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
fn register_sources(s: &Stmt) -> Vec<Reg> {
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
fn mov(dst: Reg, src: &str) -> Stmt {
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

/// The instruction with one qualifier fewer, each way that still parses and is valid.
fn fewer_qualifiers(inst: &Instruction, p: &Program) -> Vec<Instruction> {
    let opcode = inst.form.opcode();
    let parts: Vec<&str> = opcode.split('.').collect();
    let mut out = Vec::new();
    for k in 1..parts.len() {
        let shorter: Vec<&str> = parts.iter().enumerate().filter(|(j, _)| *j != k).map(|(_, s)| *s).collect();
        let mut text = String::new();
        if let Some(g) = &inst.guard {
            text.push_str(&format!("@{}{} ", if g.negated { "!" } else { "" }, g.pred));
        }
        text.push_str(&shorter.join("."));
        let ops: Vec<String> = inst.operands.iter().map(|o| o.to_string()).collect();
        if !ops.is_empty() {
            text.push(' ');
            text.push_str(&ops.join(", "));
        }
        if let Ok(i) = text.parse::<Instruction>() {
            if i.form.is_valid(&p.target) {
                out.push(i);
            }
        }
    }
    out
}

/// Reduces `(program, inputs)` while `pred` holds. The first call tries the starting case;
/// where `pred` does not hold for it, the case is returned unchanged with
/// `reproduced: Some(false)`.
pub fn minimize<F>(program: &Program, inputs: &Inputs, budget: Budget, mut pred: F) -> Reduced
where
    F: FnMut(&Program, &Inputs) -> bool,
{
    let before = program.instruction_count();
    let unchanged = |calls, reproduced| Reduced {
        program: program.clone(),
        inputs: inputs.clone(),
        before,
        after: before,
        calls,
        reproduced,
        refused: 0,
    };
    if budget.calls == 0 {
        return unchanged(0, None);
    }
    if !pred(program, inputs) {
        return unchanged(1, Some(false));
    }
    let checked = check_program(program).is_ok();
    let mut r =
        Reducer { p: program.clone(), i: inputs.clone(), pred: &mut pred, calls: 1, budget, checked, refused: 0 };
    loop {
        let mut changed = r.shrink_launch();
        changed |= r.delete_statements();
        changed |= r.pass_through();
        changed |= r.propagate_copies();
        changed |= r.fold_constants();
        changed |= r.zero_definitions();
        changed |= r.delete_statements();
        changed |= r.drop_guards_and_qualifiers();
        changed |= r.immediate_sources();
        changed |= r.simplify_inputs();
        if !changed || r.exhausted() {
            break;
        }
    }
    let after = r.p.instruction_count();
    Reduced { program: r.p, inputs: r.i, before, after, calls: r.calls, reproduced: Some(true), refused: r.refused }
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

    /// The predicate stands for a finding: the program still holds an `add` and a `cvt`, and
    /// thread 0's output is odd.
    #[test]
    fn reduces_to_the_instructions_the_predicate_needs() {
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
        let inputs = Inputs((0..64 * 4).map(|k| if k % 4 == 0 { 0x4040_0000 } else { k as u32 }).collect());
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

    #[test]
    fn a_failing_predicate_leaves_the_case_alone() {
        let p = program(&["mov.b32 %r0, 1;", "st.global.b32 [%out], %r0;"]);
        let inputs = Inputs(vec![0; 256]);
        let r = minimize(&p, &inputs, Budget { calls: 50 }, |_, _| false);
        assert_eq!((r.program, r.inputs, r.calls, r.reproduced), (p, inputs, 1, Some(false)));
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
