//! N-7 (`bfe-s32-past-msb-all-ones`, corpus/known/fuzz-h200-3201-n7-bfe-s32-past-msb.toml) widened
//! by seed 5702's 4b300431 (session 57, helper h5; corpus/findings/fuzz-h200-5702/trace/T57E.md,
//! variants in trace/4b300431/s57/): an `a` ptxas computes from constants through a carry-writing
//! add or sub (`add.cc`, `sub.cc`, `addc.cc`, `subc.cc`, §9.7.2), or from such a result, is not
//! known when the local fold runs, so the `bfe.s32` of it with a start past the msb is −1.
//!
//! Evidence (13.0.88 -O3; 13.5 and -O0 right): `mov.b32 r1, 0; add.cc.u32 r3, r1, 0; mov.b32 r1,
//! 0xffffffff; bfe.s32 r5, r3, r1, r1` is `MOV R0, 0xff00` (the stored u16 {0, −1's byte}; §9.7.1.19
//! gives a's sign, 0). Alike: an add.cc of 5 and 3 (`v2`), `sub.cc.u32` (`v3`), `mad.lo.cc.u32`
//! (`v4`, not in the oracle's programs), the carry read by an `addc` (`v5`, which ptxas folds to
//! RZ), `add.cc.s32` (`v10`), `addc.cc.u32` (`v11`), the low word of `add.cc.u64` (`v12`), and an
//! `add.u32` of the add.cc result (`v7`). Right: the plain `add.u32` (`v1`, the whole bfe folded:
//! `STG.E.U16 … RZ`), a start below 32 (`v8`).
//!
//! Invariants: a pure question about the body (no value changes); the walk follows register
//! sources of glue, `mov` and `cvt` writers, at most [`DEPTH`] deep.

use super::super::fuzz3602::writes;
use crate::isa::operand::Role;
use crate::isa::{Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::Src;
use crate::program::{Reg, Stmt};

/// How many writers back the carry-writing add or sub is looked for.
const DEPTH: u32 = 4;

/// Whether the value `r` holds at body index `before` was computed, within [`DEPTH`] writers
/// back, by a glue statement writing the carry flag (`GlueOp::writes_carry`) or by a 16-bit
/// `mul.wide`/`mad.wide` or a 64-bit `shr` (seed 6102's 45b70e5a,
/// [`super::a_through_a_late_folded_producer`]), through glue, `mov` or `cvt` writers of its
/// register sources.
pub(in crate::program::emulate) fn through_a_carry_writer(m: &Machine<'_>, before: usize, r: Reg, depth: u32) -> bool {
    let Some((k, s)) = m.p.body[..before].iter().enumerate().rev().find(|(_, s)| writes(s, r)) else {
        return false;
    };
    let deeper = |x: Reg| depth > 0 && through_a_carry_writer(m, k, x, depth - 1);
    match s {
        Stmt::Glue { glue, .. } => {
            glue.op.writes_carry()
                || super::a_through_a_late_folded_producer::late_folded(glue)
                || glue.src.iter().flatten().any(|src| matches!(*src, Src::Reg(x) if deeper(x)))
        }
        Stmt::Isa(Instruction { form: form @ (Form::Mov(_) | Form::Cvt(_)), operands, .. }) => {
            let mut sources = Vec::new();
            for (spec, o) in form.operands().iter().zip(operands) {
                if spec.role == Role::Src {
                    crate::program::text::operand_regs(o, &mut sources);
                }
            }
            sources.into_iter().any(deeper)
        }
        _ => false,
    }
}

/// N-7's question of its `a` (`emulate.rs`): whether ptxas knows `a` (register `r`, thread `t`)
/// in the `bfe`'s block ([`super::known_locally`]) and did not compute it through a carry-writing
/// add or sub, a 16-bit widening multiply or a 64-bit `shr` ([`through_a_carry_writer`]).
pub(in crate::program::emulate) fn a_known_locally(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    super::known_locally(m, t, r) && !through_a_carry_writer(m, m.stmt, r, DEPTH)
}
