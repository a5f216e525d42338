//! 3801-N3 as a value (helper w3, session 43;
//! `corpus/known/fuzz-h200-3801-n3-hadd2-sat-pair-reads-guarded-overwrite.toml`), called from
//! the `cvt` hook of `emulate.rs` ([`super::isa`]): ptxas 13.0.88 and 13.5 -O3 (and the JIT)
//! compute two `.sat` f16 conversions with one packed `HADD2.SAT` of a `PRMT 0x5410` pack,
//! placed at the second of them. When the first is a plain `cvt.sat.f16.f16 d, s` (one
//! `HADD2.SAT` of s's register) and s's register is rewritten in place by a guarded write
//! between the two, the copy that would keep the old s is dropped: the pack reads s's register
//! after the write, so d is sat(s as it is at the second cvt), where §9.7.9.21 saturates the s
//! the first cvt read.
//!
//! Scope (corpus/findings/fuzz-h200-3801/, 04f2039a, trace/T4A.md and trace/04f2039a/;
//! corpus/findings/fuzz-h200-3903/, 34d36df1, trace/T6F.md; corpus/findings/fuzz-h200-4201/,
//! 33bf5631, trace/audit/T12k1.md; helper w3 compiled each variant below with 13.0.88 and 13.5
//! -O3 on 04f2039a's `reduced.ptx`, both versions alike):
//! - the first, F: an unguarded `cvt.sat.f16.f16 d, s` with no rounding modifier, s a register;
//!   no `.sat` f16-destination `cvt` before it (one before pairs with F, both ahead of the
//!   write: right), and d neither read nor written until the second (a store of d between:
//!   right);
//! - the second, S: the next `.sat` cvt to `.f16` after F, unguarded (a guarded S where d is
//!   selected after it: `emulate/hadd2_sat_pair_with_a_guarded_second_before_a_select.rs`), one whose saturation is
//!   a separate `HADD2.SAT` after its own conversion: an integer rounding of an f16
//!   (`cvt.{rni,rzi,rmi,rpi}.sat.f16.f16`, `FRND.F16`), or any source type but `.f16`
//!   (`cvt.{rn,rz,rm,rp}.sat.f16.{f32,f64}`, `cvt.{rn,rp}.sat.f16.{s32,u16}`: `F2F`/`I2F`).
//!   Right: a plain `cvt.sat.f16.f16` second (04f2039a `v3_no_rni`: the copy `MOV R9, R11` is
//!   kept), `add/sub/mul/fma.sat.f16` (their own `HADD2.SAT`), no second (`v1_no_second_sat`),
//!   S before the write;
//! - between F and S, at least one guarded write of s and no other write of it, each one
//!   that ptxas predicates in place in s's register: a `cvt` without `.sat` (`cvt.rn.bf16.f32`
//!   of a loaded or an immediate f32, `cvt.rn.f16.{f32,f64,s32}`, `cvt.{bf16.f16,f16.bf16}`,
//!   `cvt.rni.f16.f16`, `cvt.rzi.s16.f16`, `cvt.u16.{u32,u8}`: `@P0 F2F`/`@P0 I2F`/…) or 16-bit
//!   integer glue `add`/`sub`/`mul.lo`/`and`/`or`/`xor`/`not`/`shl`/`shr`/`selp` (`@P0 IADD3`,
//!   `@P0 LOP3`, …), guard either sense. Right (a `SEL` into another register, or another
//!   register): a guarded `mov.b16` of an immediate or of a loaded register, a guarded `ld`
//!   (04f2039a `v4_guarded_mov`), `add.f16`, `min.u16`, `cvt.sat.f16.f16`; an unguarded write
//!   (`v2_unguarded`). A guarded `mov.b16` of a loaded register became `@P0 LDG` in place
//!   (wrong) in one listing and a `SEL` in another: left out;
//! - no label, `bra` or `bar.sync` between F and S (one basic block; a `shfl.sync` between is
//!   in scope: 04f2039a's case has `shfl.sync.down` between, its `p` the in-range predicate).
//!
//! s may be any value (a `shr.u16`, a load, a `mov` copy of a `cvt`, an `add.u16`: wrong
//! alike). -O0 is right.
//!
//! Seed 4602 (helper g2, session 47; trace/T17t3.md, b9890c40): F may be `cvt.rn.sat.f16.f32`
//! sharing its conversion with a guarded write of a plain S's source
//! (`emulate/sat_pair_over_a_guarded_cvt_sharing_its_conversion.rs`).
//!
//! Invariants: changes only F's destination d, at S, and only when every condition above holds;
//! the value is the oracle's own `cvt.sat.f16.f16` (§9.7.9.21) of s's bits at S.

use super::fuzz3602::writes;
use super::hadd2_sat_pair_with_a_guarded_second_before_a_select;
use super::origin::reads_and_overwrites;
use super::sat_pair_over_a_guarded_cvt_sharing_its_conversion;
use super::values::{convert, cvt_form};
use crate::isa::operand::Operand;
use crate::isa::{Cvt, CvtRnd, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// The deviation emulated here.
pub(super) const D: Deviation = Deviation::SatCvtPairReadsGuardedOverwrite;

/// `results` (the spec's destinations of the `cvt` `inst`, S, being run) with F's destination
/// rewritten to the saturation of s's present value, where the module's scope holds.
pub(super) fn paired(
    m: &mut Machine<'_>,
    t: u32,
    inst: &Instruction,
    c: Cvt,
    mut results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    if !m.allow.emulates(D) {
        return results;
    }
    let first = split_saturation(c).then(|| first_of_pair(m, m.stmt)).flatten();
    let pair = if inst.guard.is_some() {
        // A guarded S pairs where d is selected after it
        // (`emulate/hadd2_sat_pair_with_a_guarded_second_before_a_select.rs`).
        first.filter(|&(d, _)| hadd2_sat_pair_with_a_guarded_second_before_a_select::selected_after(m, m.stmt, d))
    } else {
        // Or F's conversion shared with a guarded write of S's source (seed 4602's b9890c40,
        // `emulate/sat_pair_over_a_guarded_cvt_sharing_its_conversion.rs`).
        first.or_else(|| sat_pair_over_a_guarded_cvt_sharing_its_conversion::first_sharing(m, m.stmt, inst, c))
    };
    let Some((d, s)) = pair else { return results };
    if results.iter().any(|(r, _)| *r == d) {
        return results;
    }
    let Some(to) = saturated_now(m, t, d, s) else { return results };
    results.push((d, to));
    results
}

/// d's new value where the pair fires: the oracle's `cvt.sat.f16.f16` of s's present bits,
/// fired over d's old value; `None` where s is not exact.
pub(super) fn saturated_now(m: &mut Machine<'_>, t: u32, d: Reg, s: Reg) -> Option<Expected> {
    let (Ok(old), Ok(now)) = (m.read(t, d), m.read(t, s)) else { return None };
    let sat = now.is_exact().then(|| cvt_form("cvt.sat.f16.f16")).flatten()?;
    let v = convert(m, &sat, now.bits & 0xFFFF)?;
    Some(m.fire(D, &old, crate::program::thread::extend(v, d.class().bits(), false)))
}

/// Whether `c` is a `.sat` cvt to `.f16` whose saturation ptxas does as a separate `HADD2.SAT`
/// after its own conversion (S of the module docs): not the plain `cvt.sat.f16.f16`.
pub(super) fn split_saturation(c: Cvt) -> bool {
    let rounds_f16 = matches!(c.rnd, Some(CvtRnd::Rni | CvtRnd::Rzi | CvtRnd::Rmi | CvtRnd::Rpi));
    c.sat && c.dtype == CvtType::F16 && (c.atype != CvtType::F16 || rounds_f16)
}

/// Whether statement `stmt` is a `.sat` cvt to `.f16`.
pub(super) fn sat_f16_cvt(stmt: &Stmt) -> Option<(&Instruction, Cvt)> {
    match stmt {
        Stmt::Isa(i @ Instruction { form: Form::Cvt(c), .. }) if c.sat && c.dtype == CvtType::F16 => Some((i, *c)),
        _ => None,
    }
}

/// The register operand `k` of `i`.
pub(super) fn reg(i: &Instruction, k: usize) -> Option<Reg> {
    match i.operands.get(k) {
        Some(Operand::Name(n)) => Reg::parse(n),
        _ => None,
    }
}

/// F's destination d and source s for S at body index `k` (module docs), when F, the writes
/// of s between and the statements between fit the scope.
pub(super) fn first_of_pair(m: &Machine<'_>, k: usize) -> Option<(Reg, Reg)> {
    let body = &m.p.body;
    let f = (0..k).rev().find(|&j| sat_f16_cvt(&body[j]).is_some())?;
    let (fi, fc) = sat_f16_cvt(&body[f])?;
    let plain = fc.rnd.is_none() && fc.atype == CvtType::F16 && !fc.ftz && fi.guard.is_none();
    let unpaired_before = !body[..f].iter().any(|s| sat_f16_cvt(s).is_some());
    let between = &body[f + 1..k];
    let one_block = !between.iter().any(|s| matches!(s, Stmt::Label(_) | Stmt::Bra { .. } | Stmt::Bar));
    if !plain || !unpaired_before || !one_block {
        return None;
    }
    let (d, s) = (reg(fi, 0)?, reg(fi, 1)?);
    let d_untouched = between.iter().all(|st| !reads_and_overwrites(st, d).0 && !writes(st, d));
    let s_writes: Vec<&Stmt> = between.iter().filter(|st| writes(st, s)).collect();
    let in_place = !s_writes.is_empty() && s_writes.iter().all(|st| predicated_in_place(st));
    (d != s && d_untouched && in_place).then_some((d, s))
}

/// Whether `s` is a guarded write ptxas predicates in place in its destination's register
/// (module docs): a `cvt` without `.sat`, or 16-bit integer ALU glue.
fn predicated_in_place(s: &Stmt) -> bool {
    match s {
        Stmt::Isa(Instruction { guard: Some(_), form: Form::Cvt(c), .. }) => !c.sat,
        Stmt::Glue { guard: Some(_), glue } => {
            let alu = matches!(
                glue.op,
                GlueOp::Add
                    | GlueOp::Sub
                    | GlueOp::MulLo
                    | GlueOp::And
                    | GlueOp::Or
                    | GlueOp::Xor
                    | GlueOp::Not
                    | GlueOp::Shl
                    | GlueOp::Shr
                    | GlueOp::Selp
            );
            alu && matches!(glue.ty, GlueType::B16 | GlueType::U16 | GlueType::S16)
        }
        _ => false,
    }
}
