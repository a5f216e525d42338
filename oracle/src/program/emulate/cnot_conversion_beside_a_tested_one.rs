//! 3501-N3 (known entry corpus/known/fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number.toml)
//! for a conversion of a `cnot` BESIDE the one that is tested against zero (helper le, session 61;
//! seed 6102's 7586be16, corpus/findings/fuzz-h200-6102/trace/T61E.md, variants
//! trace/7586be16/s61/). Seed 4003's trigger
//! (`conversions_tested_against_zero::cnot_conversion_tested_against_zero`, ce007cb2) and its chain
//! form (`cnot_conversion_tested_down_a_chain`, 8fe9dbe7) take the tested `cvt` itself, or a `cvt`
//! reading its result; 7586be16 converts the same `cnot` twice: `cnot.b64 d0, d0; cvt.rni.u32.f64
//! r0, d0; cnot.b32 r4, r0; cvt.rmi.u16.f64 h0, d0` is `ISETP.EQ.U32(.EX) P0, x, RZ; SEL R0, RZ,
//! 0xffffffff, P0; SEL R6, RZ, 0x1, !P0` (ptxas 13.0.88 and 13.5 -O3): h0 = 1 where §9.7.9.21
//! floors the f64 bits 0x1 (4.9e−324) to 0.
//!
//! Mechanism: once the zero test makes ptxas hold the `cnot` as a 0/1 select of its predicate
//! ("cvt(cnot x) == 0 ⇔ cnot x == 0"), every `cvt` from a float type of that same `cnot` value
//! converts the number 0/1. Wrong alike (s61/): the two results stored apart (v3), the sibling
//! before the tested `cvt` (v10), a `setp.eq …, 0` + `selp` test (v5), a `cvt.rn.f32.f64` sibling
//! (v6: `FSEL R7, RZ, 1, !P0`), `cnot.b32` of a loaded f32 with a `cvt.rn.f16.f32` sibling (v8:
//! `SEL R7, RZ, 0x3c00`), `cnot.b16` of a loaded half with `cvt.f32.f16` (v11: `FSEL R9, RZ, 1`).
//! Right (the sibling's `F2I…FLOOR` of the bits): no test (`not.b32` in its place, v2), the test
//! dead (v4), the sibling alone (v9), `not.b64` for the `cnot` (v7).
//!
//! Invariants: a condition on the program's statements (last writers and later readers as
//! written); it changes no value by itself — the caller,
//! `cnot_number_and_range_decided_sets::cnot_converted_as_number`, computes the number's
//! conversion.

use super::cnot_conversion_tested_down_a_chain::{first_link, tested_down_the_chain, LINKS};
use super::fuzz3701::last_writer;
use crate::isa::{Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::GlueOp;
use crate::program::{Reg, Stmt};

/// Whether the current `cvt` (from a float type, reading register `r`) converts the value of an
/// unguarded `cnot` that another `cvt` of the body converts to an integer and tests against zero
/// (directly or down a chain of links: `cnot_conversion_tested_down_a_chain`): the same `cnot`
/// statement is the last writer of `r` before both.
pub(super) fn cnot_converted_beside_a_tested_conversion(m: &Machine<'_>, r: Reg) -> bool {
    let k = m.stmt;
    let Some(Stmt::Isa(Instruction { form: Form::Cvt(c), .. })) = m.p.body.get(k) else { return false };
    if !c.atype.is_scalar_float() {
        return false;
    }
    let Some((w, Stmt::Glue { glue, guard: None })) = last_writer(m, k, r) else { return false };
    if glue.op != GlueOp::Cnot {
        return false;
    }
    m.p.body.iter().enumerate().any(|(j, s)| {
        j != k
            && matches!(s, Stmt::Isa(Instruction { form: Form::Cvt(_), operands, .. })
                if operands.get(1).and_then(|o| m.reg_of(o).ok()) == Some(r))
            && last_writer(m, j, r).is_some_and(|(x, _)| x == w)
            && first_link(m, j, 0) == Some(j)
            && tested_down_the_chain(m, j, LINKS)
    })
}
