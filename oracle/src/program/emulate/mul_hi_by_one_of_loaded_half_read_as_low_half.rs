//! 1a937110 at a half-precision `cvt` reader: ptxas 13.0.88 and 13.5 -O3 (and the JIT) fold
//! `mul.hi.{u16,s16} d, x, 1` (or `mad.hi d, x, 1, 0`) of a zero-extending scalar 8/16-bit load
//! x into x itself but lose the high half's selection, so a `cvt.{f16,f32,f64}.f16` reading d
//! converts x's low 16 bits, where §9.7.1.3 gives d = 0 (the high half of a product below 2^16)
//! (`corpus/known/fuzz-h200-4601-1a937110-mul-hi-by-one-of-loaded-half-read-as-low-half.toml`).
//! Called from the `cvt` rules of `emulate.rs` ([`isa`](super::isa)).
//!
//! Evidence (corpus/findings/fuzz-h200-4601/, 1a937110, trace/T17t1.md "1a937110", trace/1a937110/
//! and its `s46/`; 13.0.88 and 13.5 -O3 listings alike): `ld.global.b8 h0; mul.hi.u16 h0, h0, 1;
//! cvt.f16.f16 h2, h0` is `LDG.E.U8 R2; HADD2 R3, R2.H0_H0, -RZ.H0_H0` (the stored 0x009d009d),
//! where -O0 has `IMAD.U32 R0, R0, R2, RZ; SHF.R.U32.HI R0, RZ, 0x10, R0` and a factor 2 or 4
//! `SHF.L.U32 R0, R2, k; HADD2 R0.H1_H1` (right). Wrong alike: `ld.u16`, `ld.u8` (`s46/s1_ld_u8`),
//! `ld.b16` (`s46/s3_ld_b16`), another destination register, `mul.hi.s16` of a byte,
//! `mad.hi.{u16,s16}` with addend 0 (`v10_mad_hi`, `s46/s13_mad_hi_s16`, a moved 0:
//! `s46/s6_mad_hi_moved0`), a moved 1 (`v12_mov_one`), the 1 first (`v17_one_first`), the readers
//! `cvt.f32.f16` (`HADD2.F32 R7, -RZ, R2.H0_H0`) and `cvt.f64.f16` (`F2F.F64.F16 R6, R2`,
//! `s46/s7_cvt_f64_f16`), d also stored (`s46/s15_also_stored`: the stored half `RZ`, right,
//! the cvt still `R2.H0_H0`, wrong).
//!
//! Right (kept out): `mul.lo` (x is right there), factor 2 or 4, an integer reader (`STG RZ`),
//! `add.f16`/`neg.f16` readers (folded), `cvt.rzi.s32.f16` and `cvt.f32.bf16` (folded 0,
//! `s46/s8`, `s46/s9`), `mul.hi.u32`, an `ld.s8` source (`LOP3 0xffff; HADD2 R0.H1_H1`),
//! `mul.hi.s16` of an `ld.u16` (`PRMT 0x9910; HADD2 R0.H1_H1`, `s46/s2_s16_of_ld_u16`), x a
//! truncation or unpack of a loaded u32, `add.u16` of the load, the loaded value read elsewhere
//! too (`s46/s14_two_readers`, `s46/s16_load_also_read`: `HADD2 R3, R2.H1_H1`), `mad.hi` with
//! addend 5 (`s46/s12_mad_hi_c5`: `LEA.HI R0, R2, 0x5, RZ, 0x10`). Not emulated though wrong (no evidence of
//! how far it reaches): `cvt.ftz.f32.f16` (`s46/s10`: `HADD2.F32` without `.FTZ`), a `mov` copy of
//! the load between (`s46/s5_mov_copy`), a 1 known by its bits (`v15_ld_one`: `(ld | 1) & 1`).
//!
//! Widened (session 50, seed 5003's ccde7de9): the 1, the addend 0 and a guard may be values
//! ptxas knows only by folding (`emulate/mul_hi_by_one_known_at_compile_time.rs`).
//!
//! Invariants: changes only such a `cvt`'s result, only when the deviation is emulated.

use super::fuzz3701::{last_writer, reaches_on_every_path};
use super::origin::{ptxas_constant, value_readers};
use super::{convert, imm_of, mul_hi_by_one_known_at_compile_time, reg_of_glue};
use crate::isa::types::MemType;
use crate::isa::{Cvt, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::Stmt;
use crate::semantics::Expected;

/// `cvt.{f16,f32,f64}.f16 d, h` (`c`, no modifier) with h written by such a `mul.hi`/`mad.hi`:
/// the conversion of x's low 16 bits, where that differs from the spec's (`None` elsewhere).
pub(super) fn converted_low_half(
    m: &Machine<'_>,
    t: u32,
    inst: &Instruction,
    c: Cvt,
    spec: &Expected,
) -> Option<Expected> {
    let reader = c.atype == CvtType::F16
        && matches!(c.dtype, CvtType::F16 | CvtType::F32 | CvtType::F64)
        && c.rnd.is_none()
        && !c.ftz
        && !c.sat;
    if !reader {
        return None;
    }
    let h = m.reg_of(inst.operands.get(1)?).ok()?;
    let (Stmt::Glue { glue, guard }, o) = m.producer(t, h)? else { return None };
    let k = o.stmt;
    // A guard ptxas folds (seed 5003's ccde7de9): `emulate/mul_hi_by_one_known_at_compile_time.rs`.
    if !mul_hi_by_one_known_at_compile_time::known_guard(m, t, k, guard.as_ref()) {
        return None;
    }
    let vals = [o.a.as_ref(), o.b.as_ref()];
    let x = loaded_factor_of_one(m, t, k, glue, guard.is_some(), vals, m.read(t, h).ok().as_ref())?;
    let v = convert(m, &inst.form, x.bits & 0xFFFF).filter(Expected::is_exact)?;
    (v != *spec).then_some(v)
}

/// For `mul.hi.{u16,s16} d, a, b` or `mad.hi.{u16,s16} d, a, b, 0` at body index `k` (source
/// values `vals`, result `result` as read now in thread `t`) with one of a, b the constant 1
/// ptxas knows (an immediate, a `ptxas_constant` or a value known at compile time: seed 5003's
/// ccde7de9, [`mul_hi_by_one_known_at_compile_time::known_since`]) and
/// the other x the direct, sole-read result of an unguarded scalar `ld.{b8,u8}` (`.s16` too) or
/// `ld.{b16,u16}` (`.u16` only) reaching `k` on every path (`guarded`: the statement at `k` is
/// under a guard known true, which ends the load's value): x's value.
fn loaded_factor_of_one(
    m: &Machine<'_>,
    t: u32,
    k: usize,
    g: &Glue,
    guarded: bool,
    vals: [Option<&Expected>; 2],
    result: Option<&Expected>,
) -> Option<Expected> {
    if !matches!(g.op, GlueOp::MulHi | GlueOp::MadHi) || !matches!(g.ty, GlueType::U16 | GlueType::S16) {
        return None;
    }
    if g.op == GlueOp::MadHi && !zero_addend(m, t, k, g, result) {
        return None;
    }
    let one = |j: usize| match (imm_of(g, j), reg_of_glue(g, j)) {
        (Some(v), _) => v == 1,
        (None, Some(r)) => {
            (ptxas_constant(m, k, r).is_some() || mul_hi_by_one_known_at_compile_time::known_since(m, t, k, r))
                && vals[j].is_some_and(|v| v.is_exact() && v.bits & 0xFFFF == 1)
        }
        (None, None) => false,
    };
    let i = (0..2).find(|&i| one(1 - i))?;
    let r = reg_of_glue(g, i)?;
    let (ld, s) = last_writer(m, k, r)?;
    let Stmt::Isa(Instruction { form: Form::Ld(l), guard: None, .. }) = s else { return None };
    let zero_extending = match l.ty {
        MemType::B8 | MemType::U8 => true,
        MemType::B16 | MemType::U16 => g.ty == GlueType::U16,
        _ => false,
    };
    let sole = value_readers(m, ld, r) == 1
        || (guarded && mul_hi_by_one_known_at_compile_time::read_only_by_the_known_guarded(m, ld, k, r));
    let direct = l.vec.is_none() && reaches_on_every_path(m, ld, k) && sole;
    (zero_extending && direct).then(|| vals[i].cloned()).flatten().filter(Expected::is_exact)
}

/// Whether the addend of the `mad.hi` at body index `k` is 0: an immediate 0, or a constant
/// ptxas knows (a `ptxas_constant` or a value known at compile time in thread `t`) and the result
/// 0 (the high half of x·1 is 0, so the result is the addend).
fn zero_addend(m: &Machine<'_>, t: u32, k: usize, g: &Glue, result: Option<&Expected>) -> bool {
    match (imm_of(g, 2), reg_of_glue(g, 2)) {
        (Some(v), _) => v == 0,
        (None, Some(c)) => {
            (ptxas_constant(m, k, c).is_some() || mul_hi_by_one_known_at_compile_time::known_since(m, t, k, c))
                && result.is_some_and(|v| v.is_exact() && v.bits & 0xFFFF == 0)
        }
        (None, None) => false,
    }
}
