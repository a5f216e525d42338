//! 3801-N3 (corpus/known/fuzz-h200-3801-n3-hadd2-sat-pair-reads-guarded-overwrite.toml) with a
//! guarded second conversion S: ptxas -O3 (13.0.88 and 13.5) still pairs the first `.sat`
//! conversion F (`cvt.sat.f16.f16 d, s`) with S in one `HADD2.SAT` of a `PRMT 0x5410` pack read
//! after the guarded in-place overwrite of s, and picks S's half by `SEL … P` for S's guard, where
//! d is selected after S: read by a `selp` (§9.7.8.10) or merged at the join of a forward branch
//! whose skipped arm writes d (if-converted: `@!P1 PRMT R6, RZ, 0x7610, R6`). The pair is
//! computed whether S's guard holds or not, so d is sat(s at S) either way (§9.7.9.21 saturates
//! the s F read). Called from `paired` in `emulate/hadd2_sat_pair_reads_guarded_overwrite.rs`
//! (S run) and from `emulate/skipped.rs` (S skipped), with that module's conditions on F, on the
//! writes of s between and on the block.
//!
//! Evidence (13.0.88 -O3 = 13.5 -O3; seed 4803's 4a65a6da, corpus/findings/fuzz-h200-4803/trace/
//! T19v2.md, variants in trace/4a65a6da/ and its s49/): wrong (`PRMT R6, R0, 0x5410, R3` after
//! `@!P0 F2F.F16.BF16 R0, RZ`, then `HADD2.SAT`) — the case (`@p0 cvt.rz.sat.f16.f32 h2, r4`,
//! then `@p1 bra L; mov.b16 h4, 0; L:`: word 2 = 0, the spec 0x08080808), s49
//! `w2_S_guarded_other_dst` (S into another register), `w5_S_guarded_selp_join` (`selp.b16 h4,
//! h4, 0, p1` for the branch), `w7_S_guarded_selp_other_dst` (the `selp` into another
//! register), `w8_S_guarded_d_stored_before_join` (d also stored before the branch). Right (F
//! saturated at once, `HADD2.SAT R7, R0.H0_H0` before the `F2F`): no select of d after S
//! (`v3_no_branch`, s49 `w3_S_guarded_other_dst_no_branch`) and a branch whose arm writes another
//! register (s49 `w6_S_guarded_branch_over_other`).
//!
//! Noticed, not changed: an unguarded S is right without a select of d in s49
//! `w4_S_unguarded_other_dst_no_branch` although `paired` admits it (04f2039a's unguarded
//! form is wrong without one): which of those ptxas pairs is not known.

use super::fuzz3602::{label_at, writes};
use super::hadd2_sat_pair_reads_guarded_overwrite::{first_of_pair, saturated_now, split_saturation, D};
use crate::isa::{Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, Src};
use crate::program::Stmt;
use crate::program::{Reg, RegClass};

/// Whether d, F's destination, is selected after the guarded S at body index `k` (module docs):
/// before any other write of it, a `selp` reads it or a forward `@p bra` skips an arm that
/// writes it; straight-line code and forward branches only.
pub(super) fn selected_after(m: &Machine<'_>, k: usize, d: Reg) -> bool {
    let body = &m.p.body;
    for (j, s) in body.iter().enumerate().skip(k + 1) {
        match s {
            Stmt::Glue { glue, .. } if glue.op == GlueOp::Selp && glue.src[..2].contains(&Some(Src::Reg(d))) => {
                return true;
            }
            Stmt::Bra { guard: Some(_), label } => {
                let Some(to) = label_at(m, *label).filter(|&to| to > j) else { return false };
                if body[j + 1..to].iter().any(|x| writes(x, d)) {
                    return true;
                }
            }
            Stmt::Bra { guard: None, .. } => return false,
            _ if writes(s, d) => return false,
            _ => {}
        }
    }
    false
}

/// S skipped by its guard (called from `emulate/skipped.rs`): the pair still writes d, F's
/// destination, with the saturation of s as it is here, where the scope holds.
pub(super) fn skipped(m: &mut Machine<'_>, t: u32, inst: &Instruction) {
    let Form::Cvt(c) = inst.form else { return };
    if !m.allow.emulates(D) || inst.guard.is_none() || !split_saturation(c) {
        return;
    }
    let Some((d, s)) = first_of_pair(m, m.stmt).filter(|&(d, _)| selected_after(m, m.stmt, d)) else { return };
    // S writing d itself is out of scope, as where S runs (`paired`): S's own write decides there.
    if d.class() == RegClass::Pred || inst.operands.first().and_then(|o| m.reg_of(o).ok()) == Some(d) {
        return;
    }
    let Some(to) = saturated_now(m, t, d, s) else { return };
    // d is a virtual register (a `cvt` destination): the write cannot fail.
    let _ = m.write_keeping_origin(t, d, to);
}
