//! 3801-N3 widened by session 47's traces (helper g2;
//! `corpus/known/fuzz-h200-3801-n3-hadd2-sat-pair-reads-guarded-overwrite.toml`), called from
//! `paired` in `emulate/hadd2_sat_pair_reads_guarded_overwrite.rs`: the pair's first conversion F may be `cvt.rn.sat.f16.f32
//! d, x` whose unsaturated value ptxas shares (CSE) with a guarded `cvt.rn.f16.f32 s, x` of the
//! same source, where s is the source of a plain second `cvt.sat.f16.f16` S.
//!
//! Mechanism: ptxas computes f16(x) once, in s's register (s's value where the guarded write
//! runs), predicates s's other value into that register in place (a guarded load), and pairs F's
//! deferred saturation with S's in one `HADD2.SAT` after the overwrite, so d = sat(s as it is at
//! S). corpus/findings/fuzz-h200-4602/trace/T17t3.md, b9890c40: `ld.global.u16 h1; …;
//! cvt.rn.sat.f16.f32 h2, r0; @!p0 cvt.rn.f16.f32 h1, r0; cvt.sat.f16.f16 h0, h1` is (13.0.88 and
//! 13.5 -O3) `F2FP.F16.F32.PACK_AB R0, RZ, R0; @!P0 LDG.E.U16 R0, [+0x4e]; HADD2.SAT R0,
//! R0.H0_H0, -RZ.H0_H0; STG.E.S16 [+0x8], R0` (h2 = sat(0x7608) = 0x3c00, the spec's 0); its
//! `reduced` and `v6_guard_p` (`@p0`) alike. Right: the guarded cvt of another f32
//! (`v1_else_other_f32`: `@P0 F2F.F16.F32 R7, R6; PRMT R0, R0, 0x5410, R7`), of another rounding
//! (`v8_guarded_rz`), no S (`v2_no_second_sat`), the cvt unguarded (`v3_unguarded`), F after S
//! (`v4_first_after`); helper g2, 13.0.88 -O3 (trace/b9890c40/s47/): F's source rewritten before
//! the guarded cvt (`z1_source_rewritten_between`: `@P0 F2F.F16.F32 R7, R6; PRMT R0, R0, 0x5410,
//! R7`), while `z2_reduced_again_s47` (`st.b16` stores) is wrong as `reduced`. Not emulated (wrong, other forms): F split as `cvt.rn.f16.f32 h3, r0;
//! cvt.sat.f16.f16 h2, h3` (`v5_split_first`), an integer-rounding S (`v7_second_rni`), a `selp`
//! in place of the guarded write (`v9_selp`).
//!
//! Invariants: decides scope only (F's destination and S's source); the value, the oracle's
//! `cvt.sat.f16.f16` of s at S (§9.7.9.21), is written by `hadd2_sat_pair_reads_guarded_overwrite::paired`.

use super::fuzz3602::{unchanged_between, writes};
use super::hadd2_sat_pair_reads_guarded_overwrite::{reg, sat_f16_cvt};
use super::origin::reads_and_overwrites;
use crate::isa::{Cvt, CvtRnd, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// F's destination d and S's source s, for the unguarded S `inst` (`c`) at body index `k`,
/// when the module's scope holds.
pub(super) fn first_sharing(m: &Machine<'_>, k: usize, inst: &Instruction, c: Cvt) -> Option<(Reg, Reg)> {
    let body = &m.p.body;
    let plain_s = c.sat && c.dtype == CvtType::F16 && c.atype == CvtType::F16 && c.rnd.is_none() && !c.ftz;
    let s = reg(inst, 1)?;
    let f = (0..k).rev().find(|&j| sat_f16_cvt(&body[j]).is_some())?;
    let (fi, fc) = sat_f16_cvt(&body[f])?;
    let rn_f32 = |c: &Cvt| c.rnd == Some(CvtRnd::Rn) && c.atype == CvtType::F32 && c.dtype == CvtType::F16 && !c.ftz;
    let first = rn_f32(&fc) && !fc.relu && !fc.satfinite && fi.guard.is_none();
    let unpaired_before = !body[..f].iter().any(|st| sat_f16_cvt(st).is_some());
    let between = &body[f + 1..k];
    let one_block = !between.iter().any(|st| matches!(st, Stmt::Label(_) | Stmt::Bra { .. } | Stmt::Bar));
    let (d, x) = (reg(fi, 0)?, reg(fi, 1)?);
    let d_untouched = between.iter().all(|st| !reads_and_overwrites(st, d).0 && !writes(st, d));
    let s_writes: Vec<usize> = (f + 1..k).filter(|&j| writes(&body[j], s)).collect();
    let shared = !s_writes.is_empty()
        && s_writes.iter().all(|&j| match &body[j] {
            Stmt::Isa(w @ Instruction { form: Form::Cvt(wc), guard: Some(_), .. }) => {
                rn_f32(wc) && !wc.sat && reg(w, 1) == Some(x) && unchanged_between(m, x, f, j)
            }
            _ => false,
        });
    let scoped = plain_s && first && unpaired_before && one_block && d_untouched && shared && d != s;
    scoped.then_some((d, s))
}
