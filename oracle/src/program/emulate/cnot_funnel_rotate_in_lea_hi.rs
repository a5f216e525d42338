//! 4483ae72 (corpus/known/fuzz-h200-3903-4483ae72-add-of-cnot-funnel-shift-negated-in-lea-hi.toml)
//! where the funnel's high word is the `cnot` register itself, a rotate of the cnot's 0/1: seed
//! 4502's 5b50d443 (corpus/findings/fuzz-h200-4502/trace/T16t4.md, trace/5b50d443/; variants
//! there and in trace/5b50d443/s46/); and where the negated word is a `sub.u32 c, 0, x` in place
//! of the cnot: seed 5401's 3ab5bc1e (corpus/findings/fuzz-h200-5401/trace/T54S.md,
//! trace/3ab5bc1e/; variants in s54/ and s55/).
//!
//! The mechanism the listings show (ptxas 13.0.88 -O3; 13.5 right with `SHF.L.W.U32.HI; IADD3`):
//! `add(x, shf.{l,r}.{wrap,clamp}.b32 s, c, c, n)` (§9.7.1.1, §9.7.8.7) of `c = cnot.b32`
//! (§9.7.8.5) is fused, as with a high word 0, into `LEA.HI d, -R0, x, Rhi, n'` with R0 = −c
//! (`SEL R0, RZ, 0xffffffff, !P0`) and Rhi = c (`IADD3 R6, -R0, RZ, RZ`), n' = n for `shf.l`
//! and 32 − n for `shf.r` (`LEA.HI R7, -R0, R7, R6, 0x19` for `shf.r … 7`, v6 and s46/w1). The
//! GPU's word of the case (c = 1, n = 7: 0x330d320e for x = 0x330d330d) is x − ((Rhi << n') |
//! (R0 >> (32 − n'))), the entry's x − (R0 >> (32 − n)) with the high word shifted in; the spec
//! gives x + 0x80. Seen compiled so: n = 7, 31 (s46/w2), `.clamp` (v3), `.wrap` 39 (s46/w6),
//! `shf.r` (v6, s46/w1). Right: the cnot as the high word of another low word (v5, s46/w5: no
//! negated operand), `selp 1, 0` in place of the cnot (v7), `.clamp` by 32 (s46/w7, `IADD3`).
//! Left out (compiled to the same `LEA.HI` but their GPU value not observed, and wrong at c = 0
//! too if the formula held): a loaded high word (v2) or another cnot's (s46/w4); a `mov` copy of
//! c as the high word (s46/w3) is the same listing but needs the copy followed, so it stays out.
//!
//! The sub ([`of_sub_from_folded_zero`]): `sub.u32 c, z, x` with z a folded 0 and x a value
//! ptxas does not know is held as R0 = x (`IADD3 R9, -R2, RZ, RZ` for c) and fused the same:
//! 3ab5bc1e's `LEA.HI R6, -R2, R9, RZ, 0x10` gives x' − (x >> 16), the GPU's 0xc2622bbe for x =
//! 0x3d9d96a5, x' = c = 0xc262695b (the spec c + (c >> 16) = 0xc2632bbd). 13.0.88 -O3, the same
//! negated `LEA.HI`: a moved 0 (the case, s54/w3), n = 8 (s54/w2), 31 (s55/a9), the immediate 0
//! (s55/a3), an `add.u32` of a moved 3 and −3 (s55/b5), `sub.cc.u32` (s55/b1), another loaded
//! addend (s55/a1), `.clamp` with `add.u32` swapped (s55/a5), a `mov` copy of c shifted (s55/b4);
//! a rotate of c, `shf.l` (s55/a4) and `shf.r` (s55/a8), is `LEA.HI R7, -R2, R7, R7, 0x10`,
//! 5b50d443's form (Rhi = c = −R0), so it takes that case's observed formula. Right (no negated
//! `LEA.HI` operand): `sub.s32` from 0 (s55/a2, a7), `neg.s32` (s54/w1, w4, w7, w5), a shuffled 0
//! (s55/b2), a loaded minuend (s55/b3), a moved 5 (s55/a6); the same sources as fc9c9c66's
//! [`sub_from_folded_zero`].
//!
//! Invariants: [`rotate_amount`] is `Some` only for a funnel of one register with itself and an
//! effective amount 1–31; [`of_sub_from_folded_zero`] changes nothing; the word is computed where
//! 4483ae72's is (`emulate/fuzz3901.rs`).

use super::ptxas_constant_operands::sub_from_folded_zero;
use super::reg_of_glue;
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp};

/// For `shf` (a `shf.{l,r}.{wrap,clamp}.b32` whose effective amount is `n`) funnelling one
/// register with itself (a rotate), the amount `n'` of the `LEA.HI` ptxas fuses it into: `n` for
/// `shf.l`, 32 − `n` for `shf.r`; `None` for another funnel or an amount outside 1–31.
pub(super) fn rotate_amount(shf: &Glue, n: u64) -> Option<u32> {
    let GlueOp::Shf { left, .. } = shf.op else { return None };
    let one_register = reg_of_glue(shf, 0).is_some_and(|lo| reg_of_glue(shf, 1) == Some(lo));
    if !one_register || !(1..32).contains(&n) {
        return None;
    }
    let n = n as u32;
    Some(if left { n } else { 32 - n })
}

/// For a funnel `shf.{l,r}` of `{K:c}` (`left` for `shf.l`) with the constant high word `K`
/// (an immediate or a moved immediate) and effective amount `n`, the `LEA.HI` amount `n'` and K:
/// seed 5803's 674386b1 (corpus/findings/fuzz-h200-5803/trace/674386b1/, T58C.md in
/// fuzz-h200-5802/trace/): `add.u32 d, x, (shf.l.clamp.b32 s, c, 0xfdbd1c7, 8)` is 13.0.88 -O3
/// `LEA.HI R7, -R7, R2, 0xfdbd1c7, 0x8`, the GPU's 0x242e3801 for x = 0, c = 1: x − ((K << n') |
/// (R0 >> (32 − n'))), the rotate's word with K for the high register (spec 0xdbd1c700). The same
/// listing (s58/): `.wrap`, n = 16 and 31, K = 5 or moved, `add.s32`, the operands swapped,
/// another addend, and `shf.r` of `{K:c}` with n' = 32 − n (`LEA.HI … 0x18` for 8). K = 0 is
/// 4483ae72's own form (`RZ`), for `shf.l` only (`shf.r` of `{0:c}` folds right); n' outside 1–31
/// is no `LEA.HI` (`.clamp` by 32: `IADD3`).
pub(super) fn constant_high_word_amount(left: bool, n: u64, k: u64) -> Option<(u32, u32)> {
    let k = (k & 0xFFFF_FFFF) as u32;
    if !(1..32).contains(&n) || (!left && k == 0) {
        return None;
    }
    let n = n as u32;
    Some((if left { n } else { 32 - n }, k))
}

/// Whether the funnel `shf`'s low word `c` (its value made at body index `a`) is, in thread `t`,
/// `sub.{u32,cc.u32} c, z, x` (§9.7.1.2) of a folded 0 `z` and an `x` ptxas does not know
/// ([`sub_from_folded_zero`]), which ptxas holds as the negated x as it holds a cnot: seed 5401's
/// 3ab5bc1e. The register must still hold the sub's value where the `add` reads the funnel.
pub(super) fn of_sub_from_folded_zero(m: &Machine<'_>, t: u32, shf: &Glue, a: usize) -> bool {
    let Some(c) = reg_of_glue(shf, 0) else { return false };
    let unchanged = m.producer(t, c).is_some_and(|(_, o)| o.stmt == a);
    unchanged && sub_from_folded_zero(m, t, c)
}
