//! 6e4d6e41 (an fp8 → f16x2 unpack of the high half of a word whose bits ptxas knows gets a
//! bogus immediate) widened after seeds 4302 and 4303's traces (helper y1, session 43;
//! corpus/findings/fuzz-h200-4302/trace/T14x2.md, 3d132351 and 29c22ed5): the word's high half
//! known through a `mov.b64 {lo, hi}` pack of a constant word ([`known_word_of_a_pack`]) or
//! through a 64-bit `or`/`xor`/`min`/`max` of constants or zero-extended variables
//! ([`known_word_of_a_logical_or_min_max`]).
//!
//! Invariants: each is a condition on the program's statements (and the source values the
//! machine records for the statement); none changes a value by itself — `fuzz3802.rs`'s
//! `known_zero_word` does, under its deviation.

use super::fuzz3701::folded_constant;
use super::fuzz3701::last_writer;
use super::fuzz3802::zero_extension_of_a_variable;
use super::mul_chain_zero_word_and_predicate_zero_one::zero_by_known_bits32;
use super::{imm_of, reg_of_glue};
use crate::isa::operand::Operand;
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType};
use crate::program::Stmt;
use crate::semantics::Expected;

/// Whether the statement at body index `k` is an unguarded `mov.b64 d, {lo, hi}` pack
/// (§9.7.9.4) whose element `word` (0: lo, 1: hi) ptxas knows — an immediate, a folded
/// constant, or a 32-bit word 0 by known bits ([`zero_by_known_bits32`]) — while the other
/// element is no constant ptxas folds (the value as a whole no constant). 3d132351 (4302,
/// T14x2.md): `mov.b32 %r1, 0; mov.b64 %d1, {%r0, %r1}` with r0 an fp8 unpack, element 3 is
/// `UNPACK_B R5, 0x20` (13.0.88 and 13.5 -O3; `v2_lo_loaded`, `v5_e5m2_loaded`, `v8_e5m2_out`
/// alike). Helper y1 (13.0.88 -O3): an immediate 0 element, hi = 0x10 (0x20) and 0x10000 (0xe7,
/// a non-zero half too), lo = 0 or 0x10 read as element 1, `and.b32 x, 3` beside a moved 0, and
/// a copy then `mov.b64 {lo, hi}; mov.b32 {_, h}, hi` are all bogus immediates. Right: both
/// words constant (`v1_lo_moved0`, `v7_mov64_const`: RZ).
pub(super) fn known_word_of_a_pack(m: &Machine<'_>, k: usize, word: u32) -> bool {
    let Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) = &m.p.body[k] else {
        return false;
    };
    let Some(Operand::Vector(items)) = operands.get(1).filter(|_| mv.shape == MovShape::Pack(2)) else {
        return false;
    };
    // A `cvt` of a constant counts as none: 3d132351's lo, `cvt.rn.f16x2.e5m2x2` of a moved 0,
    // is emitted (`F2FP.F16.E5M2.UNPACK_B R0, RZ`, `v4_elem1`).
    let constant = |o: &Operand| match o {
        Operand::Imm(_) => true,
        _ => m.reg_of(o).is_ok_and(|r| {
            let cvt = matches!(last_writer(m, k, r), Some((_, Stmt::Isa(Instruction { form: Form::Cvt(_), .. }))));
            !cvt && folded_constant(m, k, r, 3)
        }),
    };
    let known = |o: &Operand| {
        constant(o)
            || m.reg_of(o).ok().and_then(|r| last_writer(m, k, r)).is_some_and(|(j, _)| zero_by_known_bits32(m, j))
    };
    let (Some(this), Some(other)) = (items.get(word as usize), items.get(1 - word as usize)) else { return false };
    items.len() == 2 && known(this) && !constant(other)
}

/// Whether the statement at body index `k` is an unguarded 64-bit `or`, `xor`, `min` or `max`
/// (§9.7.8.2, §9.7.8.4, §9.7.3.10, §9.7.3.11) whose word `word` ptxas knows, its sources' values
/// in the thread `a` and `b`: both sources constants ptxas folds (immediates or folded
/// registers), for the low word only when the result's high word is 0; or the high word, both
/// sources' high words 0 by a constant or a zero extension of a variable. 29c22ed5 (4303,
/// T14x2.md): `mov.b64 %d0, 0; min.u64 %d0, %d0, 0x2`, element 3 is `UNPACK_B R0, 0x40`
/// (13.0.88 and 13.5 -O3; `v3_max_const`, `v8_min_s64`, `v4_min_elem1`, `w_or_b64`,
/// `w_xor_b64` alike). Helper y1 (13.0.88 -O3): `or 1, 2` element 1 (immediate 5), `or
/// 0x100000000, 2` element 3, `xor 0x10000, 2` elements 1 and 3 (non-zero halves too), `max.s64
/// 7, -3`, `or 0x1234000000000000, 2` and `min.u64 0x300000000, 0x200000000` element 3
/// (immediates 2 and 0xe7), and `or`/`min.u64` of `cvt.u64.u32` of a load with 2 (element 3)
/// are bogus. Right: `or 0x100000000, 2` element 1 (the high word not 0: RZ), a loaded source
/// (`v2_min_loaded`, `v7_min_loaded_elem1`: `R0.H1`), a 32-bit `min` (`v6_min32`), and
/// `add`/`mul.lo`/`shl` of constants (folded: RZ); `and.b64` is `known_zero_word`'s own case.
pub(super) fn known_word_of_a_logical_or_min_max(
    m: &Machine<'_>,
    k: usize,
    word: u32,
    a: Option<&Expected>,
    b: Option<&Expected>,
) -> bool {
    let Stmt::Glue { glue: g, guard: None } = &m.p.body[k] else { return false };
    let logical = matches!(g.op, GlueOp::Or | GlueOp::Xor | GlueOp::Min | GlueOp::Max);
    if !logical || !matches!(g.ty, GlueType::B64 | GlueType::U64 | GlueType::S64) {
        return false;
    }
    let source = |i: usize| {
        let value = [a, b][i].filter(|v| v.is_exact()).map(|v| v.bits as u64)?;
        let folded = imm_of(g, i).is_some() || reg_of_glue(g, i).is_some_and(|r| folded_constant(m, k, r, 3));
        folded.then_some(value)
    };
    if let (Some(x), Some(y)) = (source(0), source(1)) {
        let result = g.eval([x, y, 0, 0], false);
        return word == 1 || result >> 32 == 0;
    }
    let high_word_zero = |i: usize| {
        source(i).is_some_and(|v| v >> 32 == 0)
            || reg_of_glue(g, i)
                .and_then(|r| last_writer(m, k, r))
                .is_some_and(|(j, _)| zero_extension_of_a_variable(m, j))
    };
    word == 1 && high_word_zero(0) && high_word_zero(1)
}
