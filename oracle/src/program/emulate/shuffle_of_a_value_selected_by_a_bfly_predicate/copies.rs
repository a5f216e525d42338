//! 3702-N7's dropped shuffle (corpus/known/fuzz-h200-3702-n7-shuffle-of-bfly-predicate-choice-dropped.toml)
//! of a copy of the chosen value (session 58, helper hd; seed 5801's 917157f1,
//! corpus/findings/fuzz-h200-5801/trace/T58D.md): `mov.b32 r1, r0; shfl.sync.idx.b32 r1, r1, …` of
//! the choice r0 is dropped as the shuffle of r0 itself is (13.0.88 = 13.5 -O3: no `SHFL.IDX` in the
//! case and in `s58/v20_no_copy`): ptxas folds the copy.
//!
//! Invariants: a pure question about the body; only unguarded register-to-register `mov` copies,
//! at most [`COPIES`] of them, each reaching the next read on every path.

use super::super::fuzz3602::writes;
use super::super::fuzz3701::reaches_on_every_path;
use crate::isa::operand::Operand;
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// How many copies back the chosen value is followed.
const COPIES: usize = 4;

/// The register and the body index of the writer that the value `a` holds, last written at body
/// index `j`, comes from once unguarded `mov` copies are followed back.
pub(super) fn through_copies(m: &Machine<'_>, mut j: usize, mut a: Reg) -> (usize, Reg) {
    for _ in 0..COPIES {
        let Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None }) = &m.p.body[j] else { break };
        let Some(src) = operands.get(1).filter(|o| !matches!(o, Operand::Imm(_))).and_then(|o| m.reg_of(o).ok()) else {
            break;
        };
        if mv.shape != MovShape::Copy || src.class() != a.class() {
            break;
        }
        let Some(k) = m.p.body[..j].iter().rposition(|s| writes(s, src)) else { break };
        if !reaches_on_every_path(m, k, j) {
            break;
        }
        (j, a) = (k, src);
    }
    (j, a)
}
