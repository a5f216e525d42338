//! 3702-N2 (a `lop3` merged into the operation that reads it) where the operation's other
//! operand y is the `lop3`'s `a` and its `b` and `c` are one other value x: `OP(y, lop3(y, x, x,
//! L))` (seed 4501's 8aa15b08, corpus/findings/fuzz-h200-4501/trace/T16t3.md, variants
//! `trace/8aa15b08/var/`, `var/tab/`; helper x1, session 46).
//!
//! Mechanism (ptxas 13.0.88 -O3 and the JIT; 13.5 and -O0 right): ptxas writes `lop3(y, x, x,
//! L)` with `a` and `b` swapped, `LOP3 x, y, x, L'` (every listing: `LOP3.LUT R0, R2, 0x4, R2,
//! 0x26` for `lop3(4, x, x, 0x1a)`), so y is that LOP3's `b` and its `c` repeats its `a`: 37cc5597's
//! `lop3(x, y, x)` (`lop3_merged_by_its_b_or_c.rs`), whose merge reads `c` as 0. In PTX terms d = y OP L(y,
//! x, 0) where §9.7.8.6 gives y OP L(y, x, x): `xor(lop3(4, x, x, 0x1a), 4)` is `LOP3.LUT R7, x,
//! 0x4, RZ, 0xea` = x & 4 (`leval_results.txt`: 300 random x fit c read as 0, not the spec, not
//! b read as 0). Evidence (13.0.88 -O3): `reduced` (y an immediate equal to the moved `a`),
//! `v1_b32_reg_y` (y the register `a`), the 18 rows of `var/tab/` (a loaded `a`, tables 0x1a,
//! 0x1e, 0x65, 0x96, 0xca, 0xe8 under `xor`, `and`, `or`: one `LOP3.LUT d, a, RZ, x, L'` each);
//! `v4_two_readers` (the `lop3` stored too: merged anyway). Through a `xor.b64` of `mov.b64`
//! packs ptxas merges each 32-bit half whose y is `a` (the case: `K64 ^ {l, l}` with K64's high
//! word the moved `a`, low word another constant; `v2_pack_aa`: both halves; `v3_pack_ab_loaded`,
//! `{z, a} ^ {l, l}`: the high half merged though `l` faces two values). Session 46 (`trace/
//! 8aa15b08/s46/`, 13.0.88 -O3): y another register moved the same constant is `a`
//! (`w2_moved_y_same_constant`: `LOP3.LUT R7, x, 0x4, RZ, 0xea`); `{4, 5} ^ {l, l}` merges the
//! low half only (`w3_pack_4_5`); `and.b64` alike (`w4_and_b64_case_const`: `LOP3.LUT R7, x,
//! 0x4, RZ, 0x4` = 4 & L(4, x, 0)); the pack of `l` stored too (`w6_pack_read_twice`,
//! `w7_pack_stored_then_overwritten`: merged).
//! Right there: y an immediate other than `a`'s constant (`w1_imm_y_other_constant`: `LOP3 0x26`
//! then `LOP3 … 0x5, RZ, 0x3c`).
//! Right (left alone): three distinct inputs (`v5_no_repeat`: a correct three-input merge), y
//! not an input (`v6_y_outside`, and the case's low half: two LOP3s).
//! Seed 5701's 6667a80e (corpus/findings/fuzz-h200-5702/trace/T57C.md, fuzz-h200-5701/trace/6667a80e/s57/;
//! helper h3, session 57): the `lop3` may reach the 32-bit operation through `mov` copies or a
//! `mov.b64` pack and unpack (`mov.b64 d0, {K, l}; mov.b64 {r7, r8}, d0; xor.b32 r9, r7, r8` is
//! `LOP3.LUT R7, x, K, RZ, 0x27` = K ^ L(K, x, 0), as `v1_no_pack`); wrong alike: l the low word
//! (`v4`), operands swapped (`v3`), y the register (`v2`), a loaded a (`v5`: `LOP3 y, RZ, x, 0x1d`),
//! `and` (`v8`: 0xc8), the pack stored too (`v7`), `mov.b32` copies (`v10`); right: three inputs
//! (`v6`), y another constant (`v9`).
//!
//! Invariants: a condition on the program's statements (value numbering, [`same_value`]; folded
//! constants, [`ptxas_constant`]) and the values the machine holds; the word is computed with the
//! oracle's §9.7.8.6 `lop3`; `None` (the spec's result stands) where the form does not apply or
//! the word is the spec's.

use super::fuzz3602::writes;
use super::fuzz3701::last_writer;
use super::lop3_merged_through_b64_packs::{pack_of, per_half, same_value, through_copies};
use super::origin::{ptxas_constant, PtxasConstant};
use super::{imm_of, reg_of_glue};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

const WORD: u64 = 0xFFFF_FFFF;

/// 3702-N2 with y the `lop3`'s `a` and its `c` repeating its `b` (see the module docs): `OP.b32
/// d, y, l` or `OP.b64 d, Y, P` (either order; OP `xor`, `and` or `or`) of `l = lop3.b32 y, x,
/// x, L`, `P` a `mov.b64` pack of such `lop3`s and `Y` a pack or a constant ptxas
/// folds, each 32-bit half merged as one `LOP3.LUT d, x, y, RZ` whose RZ is the repeated `x`'s
/// second occurrence: d = y OP L(y, x, 0). y is the `lop3`'s `a` as ptxas numbers values
/// ([`same_value`]), or both are one folded constant ([`PtxasConstant::Folded`], the case's
/// moved 4 and the 64-bit immediate's high word).
pub(super) fn op_of_lop3_of_its_a_with_b_repeating_c(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    if !matches!(g.op, GlueOp::Xor | GlueOp::And | GlueOp::Or)
        || !matches!(g.ty, GlueType::B32 | GlueType::B64)
        || !vals.iter().take(2).all(Expected::is_exact)
    {
        return None;
    }
    let at = m.stmt;
    [(0usize, 1usize), (1, 0)].into_iter().find_map(|(ky, kl)| {
        let l = reg_of_glue(g, kl)?;
        let y_bits = vals[ky].bits as u64;
        let y_reg = reg_of_glue(g, ky);
        let y_constant = imm_of(g, ky).is_some() || y_reg.is_some_and(|r| folded(m, at, r));
        if g.ty == GlueType::B32 {
            let y = Y { at_reg: y_reg.map(|r| (at, r)), constant: y_constant, value: y_bits & WORD };
            let word = Expected::exact(u128::from(merged_half(m, t, g.op, (at, l), y)?), result.width);
            return (&word != result).then_some(word);
        }
        // 64 bits: one merge per half of the pack of `lop3`s (T16t3: `K64 ^ {l, l}`).
        // The pack may be read again (`s46/w6_pack_read_twice`: the high half merged anyway).
        let (pl, l_items) = pack_of(m, (at, l), false)?;
        let y_items = y_reg.and_then(|r| pack_of(m, (at, r), false));
        per_half(result, |k| {
            let lk = l_items.get(k).copied()??;
            let at_reg = y_items.as_ref().and_then(|(py, items)| Some((*py, items.get(k).copied()??)));
            let y = Y { at_reg, constant: y_constant, value: (y_bits >> (32 * k)) & WORD };
            merged_half(m, t, g.op, (pl, lk), y)
        })
    })
}

/// The operation's other operand (a 32-bit half of it): the register and the body index that
/// reads it (`None` for an immediate or a half of a 64-bit constant), whether it is a constant
/// ptxas folds, and its value.
#[derive(Clone, Copy)]
struct Y {
    at_reg: Option<(usize, Reg)>,
    constant: bool,
    value: u64,
}

/// Whether register `r` read at body index `at` holds a constant ptxas folds.
fn folded(m: &Machine<'_>, at: usize, r: Reg) -> bool {
    ptxas_constant(m, at, r) == Some(PtxasConstant::Folded)
}

/// The 32-bit word ptxas 13.0.88 -O3 merges `OP(y, l)` into, `l` read at body index `at_l`
/// written by `lop3.b32 a, x, x, L` with y `a` (see [`op_of_lop3_of_its_a_with_b_repeating_c`]):
/// y OP L(y, x, 0); `None` outside that form. `a` and `x` are read at the operation, unwritten
/// from the `lop3` to it.
fn merged_half(m: &Machine<'_>, t: u32, op: GlueOp, at_l: (usize, Reg), y: Y) -> Option<u64> {
    // Through `mov` copies and a `mov.b64` unpack of a pack (seed 5701's 6667a80e, T57C.md:
    // `mov.b64 d0, {K, l}; mov.b64 {y, l'}, d0; xor.b32 d, y, l'` merged as `xor d, K, l`).
    let (at_l, l) = through_copies(m, at_l, false).unwrap_or(at_l);
    let (j, Stmt::Glue { glue: lop, guard: None }) = last_writer(m, at_l, l)? else { return None };
    let (a, x) = (reg_of_glue(lop, 0)?, reg_of_glue(lop, 1)?);
    let x_repeated = reg_of_glue(lop, 2).is_some_and(|c| same_value(m, (j, c), (j, x)));
    if lop.op != GlueOp::Lop3 || !x_repeated || same_value(m, (j, x), (j, a)) {
        return None;
    }
    let upto = m.stmt;
    let value = |r: Reg| {
        if m.p.body[j + 1..upto].iter().any(|s| writes(s, r)) {
            return None;
        }
        Some(m.read(t, r).ok().filter(Expected::is_exact)?.bits as u64 & WORD)
    };
    let y_constant = y.constant || y.at_reg.is_some_and(|(p, r)| folded(m, p, r));
    let y_is_a = y.at_reg.is_some_and(|yr| same_value(m, yr, (j, a)))
        || (y_constant && folded(m, j, a) && value(a) == Some(y.value));
    if !y_is_a {
        return None;
    }
    let lut = imm_of(lop, 3)? & 0xFF;
    let merged = Glue { op: GlueOp::Lop3, ty: GlueType::B32, ..*lop }.eval([y.value, value(x)?, 0, lut], false);
    Some(Glue { op, ty: GlueType::B32, ..*lop }.eval([y.value, merged & WORD, 0, 0], false) & WORD)
}
