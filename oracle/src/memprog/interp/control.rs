//! The control-flow rules of a memory program, checked before it runs: every branch goes
//! forward to a label of the program, except the branch of a wait loop
//! (`L: mbarrier.try_wait… p, [bar], …; @!p bra L;`), and every `test_wait`/`try_wait` is that
//! loop's wait.
//!
//! Invariant: a program that passes has no backward branch outside a wait loop, so the lockstep
//! interpreter ([`super::run`]) runs each statement once per thread, in order.

use crate::isa::operand::Operand;
use crate::isa::Form;
use crate::memprog::{MemError, MemProgram, Stmt, StmtError, StmtKind};

/// Checks the control flow: every branch goes forward to a label of the program.
pub(in crate::memprog) fn check_control_flow(p: &MemProgram) -> Result<(), StmtError> {
    const LOOP: &str = "the loop `L: mbarrier.try_wait… p, [bar], …; @!p bra L;`";
    for (i, s) in p.stmts.iter().enumerate() {
        let err = |m: String| StmtError { index: s.line, text: s.text.clone(), error: MemError::Parse(m) };
        if let StmtKind::Label(l) = &s.kind {
            if label_index(p, l) != Some(i) {
                return Err(err(format!("label `{l}` is defined twice (ptxas rejects a duplicate label)")));
            }
        }
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

pub(super) fn label_index(p: &MemProgram, l: &str) -> Option<usize> {
    p.stmts.iter().position(|s| matches!(&s.kind, StmtKind::Label(x) if x == l))
}
