//! 3501-N3 carried past the first conversion of a `cnot` (helper w2, session 45; known entry
//! corpus/known/fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number.toml). Under the entry's
//! logic trigger ptxas keeps the `cnot` as a 0/1 select of its predicate (`ISETP.EQ.U32 P0, R,
//! RZ; SEL …, !P0`) and folds the conversions after it on the two arms as numbers, so:
//!
//! - a float-to-integer `cvt` of a `cnot` is again a 0/1 of the predicate, and a following
//!   `cvt` from a float type reads it as the number (seed 4501's db13d0ac,
//!   corpus/findings/fuzz-h200-4501/trace/T16t2.md: `cnot.b32; cvt.rmi.u8.f32; cvt.f32.f16` is
//!   `FSEL R7, RZ, 1, !P0`, 1.0f; [`float_to_integer_cvt_of_a_cnot`], OR-ed into
//!   `mul_chain_zero_word_and_predicate_zero_one::zero_one_statement`);
//! - a sign-extending integer widening (`cvt.{u32,s32,u64,s64}.s16`, `cvt.{u64,s64}.s32`) that is
//!   the only reader of the float `cvt` of a `cnot` gives the integer 0/1, not the extension of
//!   the float's bits (seed 4503's 59c56fd7, corpus/findings/fuzz-h200-4503/trace/T16t5.md:
//!   `cnot.b16; cvt.rni.bf16.bf16; cvt.u32.s16` is `SEL R9, RZ, 0x1, !P0`, §9.7.9.21 and the
//!   number model give bf16 0x3f80 extended; [`signed_widening_of_a_converted_cnot`]).
//!
//! What stays out (13.0.88 and 13.5 -O3 right, or the float's bits): a `selp 1, 0` in place of
//! the `cnot` (4501 `v6_selp10`: `F2I.U8.FLOOR.NTZ` of the bits; 4503 `v25`: `FRND.BF16`), a
//! zero-extending widening (`cvt.u32.u16`, 4503 `v14`: 0x3f80), a float result with another
//! reader (4503 `v18`: `PRMT R11, R9, 0x9910` of 0x3f80), a program without the trigger.
//! Variants: trace/db13d0ac/s45/ and trace/59c56fd7/s45/ of those seeds.
//!
//! Invariants: conditions on the program's statements and the machine's values only; nothing
//! here changes a value unless 3501-N3 is emulated.

use super::cnot_number_and_range_decided_sets::logic_op_reads_an_integer_set;
use super::fuzz3701::last_writer;
use super::one_in;
use super::origin::value_readers;
use crate::isa::{Cvt, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::GlueOp;
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// Whether statement `s` is a `cnot` (any width).
fn is_cnot(s: &Stmt) -> bool {
    matches!(s, Stmt::Glue { glue, .. } if glue.op == GlueOp::Cnot)
}

/// Whether the float-to-integer `cvt` at body index `k` reads a `cnot` result (its source's last
/// writer before `k`): a 0/1 ptxas makes from the `cnot`'s predicate (db13d0ac, `v4_rzi_u16`,
/// `v7_s32_then_f32`). Not a `selp 1, 0` (`v6_selp10`).
pub(super) fn float_to_integer_cvt_of_a_cnot(m: &Machine<'_>, k: usize) -> bool {
    match &m.p.body[k] {
        Stmt::Isa(Instruction { form: Form::Cvt(c), operands, .. })
            if c.dtype.is_int() && c.atype.is_scalar_float() =>
        {
            operands
                .get(1)
                .and_then(|o| m.reg_of(o).ok())
                .and_then(|r| last_writer(m, k, r))
                .is_some_and(|(_, s)| is_cnot(s))
        }
        _ => false,
    }
}

/// For 3501-N3: the value of integer `cvt` `c` (the current statement) of register `r` (value
/// `a`) where it sign-extends (`.s16` or `.s32` source, a wider destination) the result of a
/// float-to-float `cvt` of a `cnot`, in a program with the logic trigger, and is that result's
/// only reader: the number the float holds (1.0 → 1, 0 → 0) as an integer of `c`'s source
/// width. `None` elsewhere, and where the float is neither 0 nor the number 1 (its conversion
/// was not the number's).
pub(super) fn signed_widening_of_a_converted_cnot(
    m: &Machine<'_>,
    t: u32,
    c: &Cvt,
    r: Reg,
    a: &Expected,
) -> Option<Expected> {
    let widening =
        matches!(c.atype, CvtType::S16 | CvtType::S32) && c.dtype.is_int() && c.dtype.bits() > c.atype.bits();
    if !m.allow.emulates(Deviation::CnotOfSetCvtConvertedAsNumber) || !widening || c.sat || !a.is_exact() {
        return None;
    }
    // The widening of a float conversion of a `cnot`'s 0/1 (seed 4801's 90c88344 `v8`,
    // `emulate/converted_cnot_read_as_its_number.rs`).
    if c.atype == CvtType::S16 {
        if let Some(count) = super::converted_cnot_read_as_its_number::sign_extended_low_half(m, t, r) {
            return Some(Expected::exact(count, 16));
        }
    }
    let (Stmt::Isa(Instruction { form: Form::Cvt(c0), operands, .. }), o) = m.producer(t, r)? else { return None };
    let float = c0.atype.is_scalar_float() && c0.dtype.bits() == c.atype.bits();
    let one = one_in(c0.dtype)?;
    // The cvt writes `r` itself (no copy between) and reads a `cnot`'s value.
    let direct = operands.first().and_then(|x| m.reg_of(x).ok()) == Some(r);
    let of_cnot = o.a_stmt.is_some_and(|k| is_cnot(&m.p.body[k]));
    if !float || !direct || !of_cnot || value_readers(m, o.stmt, r) != 1 || !logic_op_reads_an_integer_set(m) {
        return None;
    }
    let bits = a.bits & ((1u128 << c.atype.bits()) - 1);
    match bits {
        0 => Some(Expected::exact(0, c.atype.bits())),
        b if b == one => Some(Expected::exact(1, c.atype.bits())),
        _ => None,
    }
}
