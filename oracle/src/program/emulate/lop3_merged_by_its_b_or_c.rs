//! 3702-N2 (a `lop3` merged into the operation that reads it) widened after seeds 4401–4403's
//! traces (corpus/findings/fuzz-h200-4402/trace/T15t3.md, the lop3 section, folder `lop3_t3/`:
//! 37cc5597, b6005079, ab08e584; seed 4401's e6f0c29f, T15t1.md; seed 4403's 79a4bd47; helper
//! v1, session 44): the operation's other operand is the `lop3`'s `b` or `c`, not its `a`
//! ([`op_of_lop3_of_its_b_or_c`]). `fuzz3702`'s `lop3_chain_with_no_outer_xor` keeps the form
//! whose other operand is the `lop3`'s `a`.
//!
//! Invariants: a condition on the program's statements (the value numbering of
//! `lop3_merged_through_b64_packs`'s [`same_value`]) and the values the machine holds; the emulated word is
//! the one `LOP3.LUT` ptxas 13.0.88 -O3 merges the two into, computed with the oracle's own
//! §9.7.8.6 `lop3`; `None` (the spec's result stands) where the form does not apply or the word
//! is the spec's.

mod folded_c_swapped_into_b;

use super::fuzz3602::writes;
use super::lop3_merged_through_b64_packs::same_value;
use super::origin::value_readers;
use super::{imm_of, reg_of_glue};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;
use folded_c_swapped_into_b::ZeroRead;

const WORD: u64 = 0xFFFF_FFFF;

/// 3702-N2 with the operation's other operand a `b` or `c` of the `lop3` (T15t3.md; ptxas
/// 13.0.88 -O3 and the JIT, 13.5 and -O0 right): `OP.b32 d, y, l` (either order; OP `xor`,
/// `and` or `or`) of `l = lop3.b32 a, b, c, L` whose inputs are two values, y one of them but
/// not `a` ([`same_value`]: a copy of y counts as y, `F1_ycopy`), is merged into one `LOP3.LUT
/// d, y, RZ, x, L'` whose RZ stands for one occurrence of the repeated register, read as 0
/// (every row of `lop3_t3/tab_results.txt`, tables 0x96, 0xe8, 0x1e, 0x65, 0xca under each OP):
/// - `lop3(x, y, x)` (`c` repeats the register `a`; 37cc5597, b6005079, 79a4bd47): d = y OP
///   L(x, y, 0) (`or(y, lop3(x, y, x, 0xe0))` is `LOP3.LUT R7, R0, RZ, R3, 0xf8` = y);
/// - `lop3(x, y, y)` (`c` repeats `b` = y; `a` a moved 0 or a loaded register, ab08e584,
///   `rab08_reg0`, `rab08_a_loaded`; an immediate 0, `rab08`, alike): d = y OP L(x, y, 0)
///   (`xor(lop3(0, y, y, 0xa), y)` is `LOP3.LUT R7, R2, RZ, RZ, 0xb4` = y where §9.7.8.6
///   gives 0);
/// - `lop3(x, x, y)` (`b` repeats the register `a`; e6f0c29f): d = y OP L(0, x, y)
///   (`and(y, lop3(x, x, y, 0x3c))` is y & x where §9.7.8.6 gives 0); with y a constant ptxas
///   folds (and x none), d = y OP L(x, 0, y); x a constant, right ([`folded_c_swapped_into_b`],
///   seed 6103's d08c2cc6).
///
/// Unlike the form whose y is `a`, a second reader of `l` does not keep two LOP3s in the first
/// and third forms (`F1_tworeaders`: merged, a second LOP3 for the store; session 44's
/// `s44v/F1_tworeaders_xor_0x65`, `F3_tworeaders_*` 0x3c/and, 0x96/or, 0x65/xor), but does in
/// the second (`s44v/F2_tworeaders_*`: 0x96/xor, 0xe8/and, 0x65/xor, 0xca/xor keep `LOP3.LUT
/// R9, y, l, RZ` — right), so there `l` must be read by OP alone (no copy between). An `or`
/// changes the value. Right (not emulated): three distinct inputs (`no_repeat`), y not an input (`y_outside`), a
/// repeated `x` that is an immediate (`F1_imm_x`: held in a register, not RZ; a glue `lop3`'s
/// `a` is a register, so only moved constants reach here, b6005079's, folded with the bug). `a`
/// is read at the `lop3`, a register unwritten from it to OP.
pub(super) fn op_of_lop3_of_its_b_or_c(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    if !matches!(g.op, GlueOp::Xor | GlueOp::And | GlueOp::Or)
        || g.ty != GlueType::B32
        || !vals.iter().take(2).all(Expected::is_exact)
    {
        return None;
    }
    [(0usize, 1usize), (1, 0)].into_iter().find_map(|(ky, kl)| {
        let (y, l) = (reg_of_glue(g, ky)?, reg_of_glue(g, kl)?);
        let (Stmt::Glue { glue: lop, guard: None }, o) = m.producer(t, l)? else { return None };
        if lop.op != GlueOp::Lop3 {
            return None;
        }
        let y_value = vals[ky].bits as u64 & WORD;
        let lone = lop.dst == l && value_readers(m, o.stmt, l) == 1;
        let [a, b, c] = merged_inputs(m, t, (lop, o.stmt, lone), y, y_value)?;
        let lut = imm_of(lop, 3)? & 0xFF;
        let merged = Glue { op: GlueOp::Lop3, ty: GlueType::B32, ..*g }.eval([a, b, c, lut], false);
        let d = Glue { op: g.op, ty: GlueType::B32, ..*g }.eval([y_value, merged & WORD, 0, 0], false);
        let word = Expected::exact(u128::from(d & WORD), result.width);
        (&word != result).then_some(word)
    })
}

/// The inputs ptxas 13.0.88 -O3 gives the merged `lop3` `lop` (body index `k`; `lone`: its
/// value read by the OP alone, no copy between) read by the OP at the machine's statement whose
/// other operand `y` holds `y_value`: the occurrence of the repeated register it reads as 0 (see
/// [`op_of_lop3_of_its_b_or_c`]), `None` outside the three forms.
fn merged_inputs(
    m: &Machine<'_>,
    t: u32,
    (lop, k, lone): (&Glue, usize, bool),
    y: Reg,
    y_value: u64,
) -> Option<[u64; 3]> {
    let at = m.stmt;
    let is_y = |j: usize| reg_of_glue(lop, j).is_some_and(|r| same_value(m, (k, r), (at, y)));
    let lop_a = reg_of_glue(lop, 0);
    let repeats_a = |j: usize| lop_a.zip(reg_of_glue(lop, j)).is_some_and(|(a, r)| same_value(m, (k, r), (k, a)));
    // `a`'s value: a register (a glue `lop3`'s `a` is one) unwritten from the `lop3` to OP.
    let a_value = || {
        let a = lop_a?;
        if m.p.body[k + 1..at].iter().any(|s| writes(s, a)) {
            return None;
        }
        Some(m.read(t, a).ok().filter(Expected::is_exact)?.bits as u64)
    };
    // y the `lop3`'s `a`: its `b`/`c` repeating `a` is `fuzz3702`'s no-outer-xor form, `c`
    // repeating `b` is `lop3_of_its_a_with_b_repeating_c.rs`'s (ptxas swaps `a` and `b`).
    if is_y(0) {
        return None;
    }
    match (is_y(1), is_y(2)) {
        (true, true) if lone => Some([a_value()? & WORD, y_value, 0]),
        (true, false) if repeats_a(2) => Some([a_value()? & WORD, y_value, 0]),
        // y a folded constant: ptxas swaps it into `b` first, so `b` is read as 0; x a constant
        // is read right (seed 6103's d08c2cc6, `folded_c_swapped_into_b.rs`).
        (false, true) if repeats_a(1) => match folded_c_swapped_into_b::zero_read(m, k, at, lop_a?, y)? {
            ZeroRead::A => Some([0, a_value()? & WORD, y_value]),
            ZeroRead::B => Some([a_value()? & WORD, 0, y_value]),
        },
        _ => None,
    }
}
