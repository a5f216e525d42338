//! The walk's edges: an instruction's successors (the next one, a branch's label, a call's
//! subroutine and its return sites, every label for an indirect branch) and the way out of a
//! waterfall loop with what its body wrote under a guard (see the module docs of
//! [`super`], "Edges").

use crate::sass::parse::{Flow, Function, Reg};

/// The registers the instructions of the waterfall loop closed at `i` write under a guard
/// (its body: from the label `i` branches back to, up to `i`). Every lane has been served when
/// the loop is left, so each of them ran the body under the guard that served it — even where
/// ptxas writes that guard's predicate again before the branch back (`@!P1 IMAD.U32 R8, RZ, RZ,
/// UR4; PLOP3.LUT P1, PT, PT, PT, PT, 0x80, 0x0; @P0 BRA.U.ANY`, ptxas 13.0.88's loop around a
/// per-lane `createpolicy.range`), which drops what [`State::served`](super::State::served) would have kept.
pub(super) fn guarded_writes(f: &Function, i: usize) -> Vec<Reg> {
    let Flow::Branch(l) = &f.instrs[i].flow else { return Vec::new() };
    let Some(&start) = f.labels.get(l) else { return Vec::new() };
    f.instrs[start.min(i)..i]
        .iter()
        .filter(|ins| ins.guard.is_some())
        .flat_map(|ins| ins.defs.iter().copied())
        .collect()
}

/// The instruction after `i` if `i` closes a waterfall loop: a guarded `BRA.U.ANY` back to an
/// earlier label. ptxas builds such a loop around an instruction that needs a uniform operand
/// the lanes do not share (`R2UR P0, UR6, R8`): each turn serves the lanes of one value, under a
/// guard, and the loop runs until every lane has been served.
pub(super) fn waterfall_exit(f: &Function, i: usize) -> Option<usize> {
    let ins = &f.instrs[i];
    let back = matches!(&ins.flow, Flow::Branch(l) if f.labels.get(l).is_some_and(|&t| t <= i));
    (back && ins.guard.is_some() && ins.mnemonic == "BRA.U.ANY" && i + 1 < f.instrs.len()).then_some(i + 1)
}

/// The instructions a subroutine's `RET` goes back to: the one after each call to a label of
/// the listing.
pub(crate) fn return_sites(f: &Function) -> Vec<usize> {
    let n = f.instrs.len();
    f.instrs
        .iter()
        .enumerate()
        .filter(|(_, ins)| matches!(&ins.flow, Flow::Call(l) if f.labels.get(l).is_some_and(|&t| t < n)))
        .filter_map(|(i, _)| (i + 1 < n).then_some(i + 1))
        .collect()
}

/// The successors of instruction `i` and, for a call to a label outside the listing, whether
/// the state after it is "everything defined".
pub(crate) fn successors(f: &Function, i: usize, return_sites: &[usize]) -> (Vec<usize>, bool) {
    let ins = &f.instrs[i];
    let guarded = ins.guard.is_some();
    let next = || (i + 1 < f.instrs.len()).then_some(i + 1);
    let label = |l: &str| f.labels.get(l).copied().filter(|&t| t < f.instrs.len());
    let mut out: Vec<usize> = Vec::new();
    let mut havoc = false;
    match &ins.flow {
        Flow::Next => out.extend(next()),
        Flow::Branch(l) => {
            out.extend(label(l));
            if guarded || label(l).is_none() {
                out.extend(next());
            }
        }
        Flow::Call(l) => match label(l) {
            Some(t) => out.push(t),
            None => {
                out.extend(next());
                havoc = true;
            }
        },
        Flow::Return => {
            out.extend(return_sites.iter().copied());
            if guarded {
                out.extend(next());
            }
        }
        Flow::Exit => {
            if guarded {
                out.extend(next());
            }
        }
        Flow::Indirect => {
            out.extend(f.labels.values().copied().filter(|&t| t < f.instrs.len()));
            if guarded {
                out.extend(next());
            }
        }
        // A listed target missing from the listing makes it any label, as without a list.
        Flow::Targets(ls) if ls.iter().all(|l| label(l).is_some()) => {
            out.extend(ls.iter().filter_map(|l| label(l)));
            if guarded {
                out.extend(next());
            }
        }
        Flow::Targets(_) => {
            out.extend(f.labels.values().copied().filter(|&t| t < f.instrs.len()));
            if guarded {
                out.extend(next());
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    (out, havoc)
}
