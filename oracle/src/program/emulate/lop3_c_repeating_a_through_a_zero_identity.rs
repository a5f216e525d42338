//! 3702-N2 (corpus/known/fuzz-h200-3702-n2-lop3-merged-into-xor-reads-x.toml; `fuzz3702.rs`) in
//! its no-outer-xor form (3802's 3ca5ad75: `OP(a, lop3(a, b, c, L))` whose `c` repeats `a` reads
//! that `c` as 0) where `c` repeats `a` only once ptxas folds an identity with 0, `c = xor(0, a)`,
//! and (in a loop) the `lop3` reaches the OP over the loop's back edge: seed 5403's 6cd4a975
//! (corpus/findings/fuzz-h200-5403/trace/T54S.md, trace/6cd4a975/; variants in s54/ and s55/).
//!
//! The case: `mov.b32 r, 0; $L: xor.b32 r, r, x; lop3.b32 r, x, 0, r, 0xea; …; @p bra $L` (7
//! trips). 13.0.88 -O3 unrolls it; trip 1's `xor(0, x)` is x, so its `lop3` is `lop3(x, 0, x,
//! 0xea)`, and trip 2's `xor` of it is merged into `LOP3.LUT R0, R3, RZ, RZ, 0x1c` (= x, §9.7.8
//! gives x ^ x = 0); the other trips stay (`LOP3 0x1a` five times, the last `0xea`): the word the
//! GPU stored (byte 0 = 0, the spec 0xf0). 13.5 right. The same straight (s54/v10: `mov 0; xor;
//! lop3; xor` is `LOP3.LUT R7, R2, RZ, RZ, 0x1c`), with two or three trips unrolled (s54/v8, v3;
//! s55/e7, e8 loops of 2 and 3 trips: the first merge only), with the 0 the xor's second source
//! (s55/e1), an `or` or `add.u32` in place of the xor (e2, e3), the immediate 0 (e4), and with an
//! outer xor of a loaded y (e9: `LOP3.LUT R7, y, x, RZ, 0xc4` = x, the spec y; 3702-N2's outer-xor
//! merge, `fuzz3702.rs` `xor_of_lop3_chain`, which the same `repeats` reaches). Right: the
//! first r loaded (s54/v7, v11: 0 only at run time), a moved 5 (s55/e6: `LOP3 0x3c; LOP3 0x1a`).
//! A plain copy `mov r, x` (s55/e5) is the same listing and `same_value`'s already.
//!
//! Scope here: the `c` the `lop3` read was made, where it ran, by an unguarded `xor.b32`/`or.b32`/
//! `add.{u32,s32}` of a 0 ptxas folds (an immediate; or, as the first source, a value an unguarded
//! move of a constant made: the origin the `xor` recorded, so in a loop only the trip whose 0 came
//! from before the loop) and a register holding the `lop3`'s `a` ([`same_value`]). Left out: a
//! register 0 as the second source (e1, wrong): its producer is not recorded.
//!
//! Invariants: conditions on the recorded origins and the body; nothing changes here.

use super::fuzz3701::writes_folded_constant;
use super::lop3_merged_through_b64_packs::same_value;
use super::reg_of_glue;
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// Whether the `lop3` `lop` at body index `k`, whose value register `lop.dst` of thread `t`
/// still holds, read as its `c` a value made by an identity with a folded 0 of its `a`.
pub(super) fn c_repeats_a(m: &Machine<'_>, t: u32, lop: &Glue, k: usize) -> bool {
    let Some((_, o)) = m.producer(t, lop.dst).filter(|(_, o)| o.stmt == k) else { return false };
    let (Some(c), Some(a), Some(cr)) = (o.c_source.as_deref(), reg_of_glue(lop, 0), reg_of_glue(lop, 2)) else {
        return false;
    };
    let Some(Stmt::Glue { glue: id, guard: None }) = m.p.body.get(c.stmt) else { return false };
    let identity = matches!(
        (id.op, id.ty),
        (GlueOp::Xor | GlueOp::Or, GlueType::B32) | (GlueOp::Add, GlueType::U32 | GlueType::S32)
    );
    if !identity || id.dst != cr {
        return false;
    }
    let zero = |v: Option<&Expected>| v.is_some_and(|v| v.is_exact() && v.bits & 0xFFFF_FFFF == 0);
    // The folded 0: an immediate, or (the first source) a value an unguarded move of a constant
    // made where the identity ran.
    let folded = |z: usize| match id.src.get(z).copied().flatten() {
        Some(Src::Imm(v)) => v & 0xFFFF_FFFF == 0,
        Some(Src::Reg(_)) if z == 0 => {
            zero(c.a.as_ref())
                && c.a_stmt.is_some_and(|w| m.p.body.get(w).is_some_and(|s| writes_folded_constant(m, w, s, 3)))
        }
        _ => false,
    };
    (0..2).any(|z| folded(z) && reg_of_glue(id, 1 - z).is_some_and(|y| same_value(m, (c.stmt, y), (k, a))))
}

/// For the OP `x` at body index `op_at` whose `lop3` source was made after it (over a loop's back
/// edge) in thread `t`: the index of OP's `a` operand, the `lop3`'s register, body index and the
/// `lop3` (unguarded, its `a` OP's `a`, its `c` a [`c_repeats_a`]); what `fuzz3702::lop3_of_op`
/// finds in statement order otherwise.
pub(super) fn lop3_over_a_back_edge<'p>(
    m: &'p Machine<'_>,
    t: u32,
    x: &Glue,
    op_at: usize,
) -> Option<(usize, Reg, usize, &'p Glue)> {
    [(0, 1), (1, 0)].into_iter().find_map(|(ka, kl)| {
        let (a, l) = (reg_of_glue(x, ka)?, reg_of_glue(x, kl)?);
        let (Stmt::Glue { guard: None, glue: lop }, o) = m.producer(t, l)? else { return None };
        let k = o.stmt;
        let same_a = reg_of_glue(lop, 0).is_some_and(|la| same_value(m, (op_at, a), (k, la)));
        (k > op_at && lop.op == GlueOp::Lop3 && same_a && c_repeats_a(m, t, lop, k)).then_some((ka, l, k, lop))
    })
}
