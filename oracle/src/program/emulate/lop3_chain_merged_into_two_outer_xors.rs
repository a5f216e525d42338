//! 3702-N2 (a `lop3` merged into a following `xor` chain reads the chain's other operand as its
//! redundant input) through a SECOND outer `xor` (seed 4801's 6a674eeb,
//! corpus/findings/fuzz-h200-4801/trace/T19v1.md; variants `trace/6a674eeb/` v1–v3 and
//! `trace/6a674eeb/s49/`; helper x4, session 49).
//!
//! Mechanism (ptxas 13.0.88 -O3 and the JIT; 13.5 and -O0 right): `l = lop3(a, a, a, L); r = a OP
//! l; s = xor(r, x); d = xor(s, y)` (OP `xor`, `and` or `or`, any operand order). The first merge
//! (ec047aa1's binding, [`lop3_chain`]) is one `LOP3.LUT s, x, RZ, a` whose table binds the
//! `lop3`'s `b` to x and its `c` to the RZ slot; the second `xor` then takes that RZ slot, and
//! the `lop3`'s `c` is bound to y with it: one `LOP3.LUT d, y, x, a` = y ^ x ^ (a OP L(a, x, y)),
//! where §9.7.8.6 (`lop3`) and §9.7.8.3 (`xor`) give y ^ x ^ (a OP L(a, a, a)). The stored case
//! (0x55, y a moved 0x7c007c00) is `LOP3.LUT R7, x, 0x7c007c00, a, 0xa5` = ~(x ^ a).
//! Evidence (13.0.88 -O3): `v1_lut0x96`, `0xe8`, `0x1e`, `0xca` and the case (0x55), whose five
//! tables fit only that binding (`tab_results.txt`); `v3_loaded_outer` (a loaded y); `s49/
//! v3_all_a_and_middle` (`and`: 0x94), `s49/v6_y_first_or_middle` (`or`, operands swapped: 0xd6).
//! What stays out (right: the second `xor` is a LOP3 of its own that reads the first merge's
//! word, which [`lop3_chain`]'s rule already gives): `s` read by another instruction too
//! (`s49/v5_second_reader`), a `lop3` whose `b` or `c` is not `a` (`s49/v1_b_repeats_c_zero`
//! `lop3(a, a, 0)`, `s49/v2_zero_b_zero_c` `lop3(a, 0, 0)`, `s49/v4_zero_b_c_repeats` `lop3(a, 0,
//! a)`: each `LOP3.LUT s, x, a, RZ, 0xd4` then `LOP3 … 0x3c`), and a `lop3` of one constant
//! ptxas folds (`lop3_of_one_folded_constant.rs`, another binding).
//!
//! Invariants: fires only on an unguarded 32-bit `xor` whose operand's producer is such a chain
//! read by it alone; computes the word from the recorded source values; `None` otherwise.

use super::fuzz3702::{lop3_chain, lop3_of_op, merged_chain, FreedInput};
use super::lop3_merged_through_b64_packs::same_value;
use super::lop3_of_one_folded_constant::lop3_of_one_folded_constant;
use super::origin::value_readers;
use super::reg_of_glue;
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::Stmt;
use crate::semantics::Expected;

/// `xor.b32 d, s, y` (either order) with `s = xor.b32 r, x` (either order, read by this `xor`
/// alone) and `r` a [`lop3_chain`] whose `lop3` reads `a` in all three inputs (not one folded
/// constant): y ^ x ^ (a OP L(a, x, y)).
pub(super) fn xor_of_xor_of_thrice_a_lop3_chain(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    if g.op != GlueOp::Xor || g.ty != GlueType::B32 || !vals.iter().take(2).all(Expected::is_exact) {
        return None;
    }
    let at = m.stmt;
    [(0usize, 1usize), (1, 0)].into_iter().find_map(|(ks, ky)| {
        let s = reg_of_glue(g, ks)?;
        let y = vals[ky].bits as u64 & 0xFFFF_FFFF;
        let (Stmt::Glue { guard: None, glue: xs }, os) = m.producer(t, s)? else { return None };
        if xs.op != GlueOp::Xor || xs.ty != GlueType::B32 || value_readers(m, os.stmt, s) != 1 {
            return None;
        }
        [(0usize, 1usize), (1, 0)].into_iter().find_map(|(kr, kx)| {
            let r = reg_of_glue(xs, kr)?;
            let x = if kx == 0 { os.a.as_ref() } else { os.b.as_ref() };
            let x = x.filter(|v| v.is_exact())?.bits as u64 & 0xFFFF_FFFF;
            let (Stmt::Glue { glue: op, .. }, or) = m.producer(t, r)? else { return None };
            let (_, _, k, lop) = lop3_of_op(m, op, or.stmt)?;
            let a = reg_of_glue(lop, 0)?;
            let repeats = |j: usize| reg_of_glue(lop, j).is_some_and(|v| same_value(m, (k, v), (k, a)));
            if !(repeats(1) && repeats(2)) || lop3_of_one_folded_constant(m, lop, k) {
                return None;
            }
            let (a_value, op, _, lut) = lop3_chain(m, t, r, at)?;
            let word = y ^ merged_chain(g, x, (a_value, op, FreedInput::B(y), lut));
            Some(Expected::exact(u128::from(word), result.width))
        })
    })
}
