//! 3701-N-D (`merge_c_in_place.rs`; corpus/known/fuzz-h200-3701-nd-merge-c-in-place.toml) where
//! h, the half packed beside the e4m3x2/e5m2x2 pair, is rewritten after the pack only in a branch
//! arm by a shared-memory load and read after the arm's join: seed 5401's 7865568d
//! (corpus/findings/fuzz-h200-5401/trace/T54S.md, trace/7865568d/; variants in s54/ and s55/).
//!
//! The listing (ptxas 13.0.88 and 13.5 -O3, s54/s2_no_first_arm): `F2FP.SATFINITE.E4M3.F32.
//! PACK_AB_MERGE_C R3, R8, R8, R3` (the pack's word built in h's register R3), `PRMT R6, R3,
//! 0x7610, R6` (h's copy taken from the merged word's low half: the pair), `@!P1 LDS.U16 R6`
//! (the arm), `PRMT R3, R6, 0x5410, R6` (`mov.b32 r, {h, h}` after the join): the threads that
//! skip the arm read `{pair, pair}`, the GPU's words of the case (threads 0, 40, 45; the stored
//! case's `MERGE_C R2, …, R17; IMAD.MOV.U32 R17, RZ, RZ, R2; @!P0 LDS.U16 R17`). The same slip
//! with the arm's load `ld.acquire.cluster.shared::cta.u16` (the case, s54/s1, s2), `ld.shared.u16`
//! (s54/s4; s55/c6 at the pack's own address), `ld.volatile.shared.u16` (s55/c8), `ld.shared.u8`
//! (s55/c7), `ld.shared.v2.u16` (s55/c10), and with the pack a `st.global.v2.u16` (s55/c12).
//!
//! Scope: only an arm whose write of h is such a shared load. The other arms compiled are not one
//! rule: right with a weak `ld.global.u16` (s55/c1: h copied before the merge), `cvt.u16.u32` of a
//! register (c2), a moved immediate (c4), two arms the second a weak global load (c3), and
//! `ld.acquire.gpu.global.u16` (c15: the load made unguarded, another listing); wrong with
//! `ld.volatile`, `.relaxed.gpu` or `.nc` global loads (c13, c9, c14), `ld.global.u8` (c16), an
//! `add` of a global load (c17) and a `mov` unpack of a shared `b32` load (c11) — left out, as
//! the weak global `.u16` sits among them.
//!
//! Invariants: a condition on the body's statements (forward branches only, §9.7.12.1 `bra`);
//! nothing changes here; a read counts only after the label of the arm that rewrote h, and any
//! other unguarded write of h ends the search.

use super::fuzz3602::label_at;
use super::origin::reads_and_overwrites;
use crate::isa::types::Space;
use crate::isa::{Form, Instruction};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// Whether the value statement `k` wrote to register `r` is read after the join of a branch arm
/// (a guarded forward `bra` after `k` to a label after the write) that rewrote `r` only by a
/// shared-memory `ld` (unguarded in the arm): the threads that skip the arm still read it.
pub(super) fn read_past_a_shared_load_arm(m: &Machine<'_>, k: usize, r: Reg) -> bool {
    // The furthest label a guarded branch seen after `k` jumps to; the label of the arm whose
    // shared load rewrote `r`.
    let (mut arm_end, mut rewritten_until) = (None::<usize>, None::<usize>);
    for (j, s) in m.p.body.iter().enumerate().skip(k + 1) {
        let (reads, overwrites) = reads_and_overwrites(s, r);
        if reads && rewritten_until.is_some_and(|l| j > l) {
            return true;
        }
        if let Stmt::Bra { guard: Some(_), label } = s {
            if let Some(l) = label_at(m, *label).filter(|&l| l > j) {
                arm_end = Some(arm_end.map_or(l, |e| e.max(l)));
            }
        }
        if overwrites {
            match arm_end.filter(|&l| l > j) {
                Some(l) if shared_load(s) => rewritten_until = Some(rewritten_until.map_or(l, |u| u.max(l))),
                _ => return false,
            }
        }
    }
    false
}

/// Whether `s` is an `ld` from shared memory (`.shared` or `.shared::cta`, §9.7.9.8), any
/// qualifiers, type or vector width.
fn shared_load(s: &Stmt) -> bool {
    matches!(s, Stmt::Isa(Instruction { form: Form::Ld(ld), .. })
        if matches!(ld.space, Some(Space::Shared | Space::SharedCta)))
}
