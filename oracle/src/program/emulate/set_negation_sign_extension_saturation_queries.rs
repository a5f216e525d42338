//! Three known root causes widened to their mechanism after session 42's traces (helper w5,
//! session 43): the queries that decide whether 3602-N2 ([`negation_of_set_f32`]), G's unpack
//! form ([`sign_extension_kept_in_place`]) and 3301-C's float direction
//! ([`saturated_before_truncation`]) apply. (3702-C's `.rmi`/`.rpi` widening is one condition in
//! `emulate/fuzz3702_conversions.rs`.)
//!
//! Invariants: queries only; they never change an origin or a value. Each caller computes the
//! emulated value through the oracle's own semantics as before.

use super::fuzz3702_conversions::bare;
use super::negation_of_set_f32_as_a_product_by_minus_one;
use super::negation_of_set_f32_through_a_pack_round_trip::packed_word_producer;
use super::negation_of_set_f32_through_an_int_to_float_cvt::set_under_the_cvt;
use super::producer_forms_of_o_f_g_m;
use crate::isa::types::MemType;
use crate::isa::{CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType, SetDst, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// 3602-N2's negation (corpus/findings/fuzz-h200-4201/trace/T12a1.md, f863ba79, and its
/// `trace/f863ba79/` variants): for register `r` of thread `t`, the producing statement and the
/// `set.<cmp>.f32.<type>` value it negates, where r holds `neg.s32` of that set's result or
/// `sub.{s32,u32} d, z, x` of such an x with z a moved 0 (§9.7.1.2: 0 − x is −x in two's
/// complement whatever the signedness; an immediate 0 there is no glue form of the program
/// language, though ptxas compiles it the same). 13.0.88 and 13.5 -O3 give `STG.E.U16 …, RZ`
/// for `reduced.ptx` (`sub.s32 r8, 0, r0`), the campaign's moved-0 minuend (`orig.ptx`), `neg.s32`
/// (`v3_neg`); `sub.u32` of an immediate or a moved 0, and plain copies of the set or of the
/// difference, give the same listing (compiled in session 43). Right: a loaded minuend
/// (`v10_sub_from_loaded`: `IMAD.IADD … -R7`), an integer set (`v2_set_u32_sub`).
pub(super) fn negation_of_set_f32(m: &Machine<'_>, t: u32, r: Reg) -> Option<(usize, Expected)> {
    let is_set_f32 =
        |k: usize| matches!(&m.p.body[k], Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::F32)));
    let (Stmt::Glue { glue, .. }, o) = m.producer(t, r)? else { return None };
    match (glue.op, glue.ty) {
        (GlueOp::Neg, GlueType::S32) => {
            // Through a 64-bit pack and unpack of the set's word (seed 4703's a0f3d153,
            // `emulate/negation_of_set_f32_through_a_pack_round_trip.rs`).
            let through_pack = |k: usize| match glue.src[0] {
                Some(Src::Reg(x)) => packed_word_producer(m, x, o.stmt, k).is_some_and(is_set_f32),
                _ => false,
            };
            let direct = o.a_stmt.filter(|&k| is_set_f32(k) || through_pack(k)).and(o.a.clone());
            // Through an int-to-float cvt of the set's word (seed 5803's 6699aa1a,
            // `emulate/negation_of_set_f32_through_an_int_to_float_cvt.rs`): the set's value.
            let through_cvt = || match glue.src[0] {
                Some(Src::Reg(x)) => o.a_stmt.and_then(|k| set_under_the_cvt(m, t, x, o.stmt, k)),
                _ => None,
            };
            direct.or_else(through_cvt).map(|v| (o.stmt, v))
        }
        (GlueOp::Sub, GlueType::S32 | GlueType::U32) => {
            let Some(Src::Reg(x)) = glue.src[1] else { return None };
            let zero = producer_forms_of_o_f_g_m::first_source_moved_zero(m, o);
            // The subtrahend's producer is the set, written before the subtraction.
            let of_set = m.producer(t, x).is_some_and(|(_, xo)| xo.stmt < o.stmt && is_set_f32(xo.stmt));
            if zero && !of_set {
                // The subtrahend an int-to-float cvt of the set (6699aa1a's `v13_sub_of_moved_zero`).
                let cvt_at = m.producer(t, x).map(|(_, xo)| xo.stmt)?;
                return set_under_the_cvt(m, t, x, o.stmt, cvt_at).map(|v| (o.stmt, v));
            }
            o.b.clone().filter(|_| zero && of_set).map(|v| (o.stmt, v))
        }
        // `mul.lo` by a known −1 (seed 5802's 4267da28,
        // `emulate/negation_of_set_f32_as_a_product_by_minus_one.rs`).
        (GlueOp::MulLo, GlueType::S32 | GlueType::U32) => {
            negation_of_set_f32_as_a_product_by_minus_one::set_times_minus_one(m, t, glue, o).map(|v| (o.stmt, v))
        }
        _ => None,
    }
}

/// G's unpack form for a sign extension ptxas takes as a no-op (corpus/findings/fuzz-h200-4203/
/// trace/T12c3.md, e0a4f736, and `trace/e0a4f736/`): whether register `r` of thread `t` holds a
/// scalar `ld.{s8,s16}` (sign-extended into the register, §9.7.9.8) or `cvt.{s32,s64,u32,u64}.
/// {s8,s16}` of such a load whose value the load already sign-extended (§9.7.9.21: a signed
/// source is sign-extended whatever the destination's signedness). The value stays in its
/// register, sign-extended (`LDG.E.S8 R2`), so a `mov.b64`/`mov.b32` unpack with the low half
/// unobserved reads the high half as the low (`PRMT R3, R2, 0x5410, R2`, 13.0.88 and 13.5 -O3).
/// Wrong: `reduced.ptx` (`ld.s8; cvt.s64.s8`), `v3_s16` (`ld.s16; cvt.s64.s16`),
/// `v4_s32_b32unpack` (`cvt.s32.s8`, `{lo, hi}`), `v5_ld_s8_32` and `v6_ld_s8_64` (the load
/// alone), `v8_s64_s16_of_s8` (`cvt.s64.s16` of an `ld.s8`); a byte unpack `{b0, b1, b2, b3}`
/// of an `ld.{s8,s16}` into a 32-bit register, b0 and b1 unread, reads b2, b3 as the value's
/// bytes 0 and 1 (`LDG.E.S8 R2; PRMT R7, R2, 0x7770, RZ; PRMT R9, R2, 0x7771, RZ`, 13.0.88 -O3,
/// compiled in session 43), as for a zero extension. Right: `v1_ld_u8` (`ld.u8; cvt.s64.s8`,
/// an extension ptxas must compute: `PRMT 0x8880`); `cvt.*.s8` of an `ld.s16` must extend bit 7
/// likewise (§9.7.9.21; not compiled), so it is left out. The unpack's own conditions (low half unread, no other reader of r:
/// `v2_low_read_too`, `v7_h3` right) are [`unpacked`](super::fuzz3802::unpacked)'s.
pub(super) fn sign_extension_kept_in_place(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    let signed_load = |s: &Stmt, at_most: u32| match s {
        Stmt::Isa(Instruction { form: Form::Ld(l), .. }) => {
            l.vec.is_none() && matches!(l.ty, MemType::S8 | MemType::S16) && l.ty.bits() <= at_most
        }
        _ => false,
    };
    match m.producer(t, r) {
        Some((s, _)) if signed_load(s, 16) => true,
        Some((Stmt::Isa(Instruction { form: Form::Cvt(c), .. }), o)) => {
            let widening = matches!(c.dtype, CvtType::U32 | CvtType::S32 | CvtType::U64 | CvtType::S64) && !c.sat;
            let from = match c.atype {
                CvtType::S8 => 8,
                CvtType::S16 => 16,
                _ => return false,
            };
            widening && o.a_stmt.is_some_and(|k| signed_load(&m.p.body[k], from))
        }
        _ => false,
    }
}

/// 3301-C's float direction through a truncation (corpus/findings/fuzz-h200-4203/trace/T12c5.md,
/// 36b8e382, and `trace/36b8e382/`): whether the 16-bit register `r` of thread `t`, read by a
/// float `cvt.sat`, holds `cvt.{u16,s16}.{u32,s32}` (a truncation, §9.7.9.21) of a 32-bit
/// `cvt.sat` result, float or integer. ptxas's fact "this register is saturated" survives the
/// truncation and the reader's `.sat` is dropped: `cvt.sat.f32.f32; cvt.u16.u32;
/// cvt.sat.f32.f16` is `FADD.SAT R0, RZ, R2; HADD2.F32 R7, -RZ, R0.H0_H0` (13.0.88 and 13.5 -O3),
/// and so are `v2_f64dst` (`F2F.F64.F16`), `v6_f16_sat_then_sat` (`HADD2` without `.SAT`),
/// `v10_intsat_then_trunc` (`cvt.sat.u32.s32`) and `v11_f32sat_then_s16_trunc` (`cvt.s16.s32`).
/// Right: no first saturation (`v1`), a `mov.b32` unpack or `and.b32 0xffff` in place of the
/// truncating cvt (`v3`, `v4`, `v9`), a 64-bit saturation truncated from `.u64` (`v13`), and an
/// f16 saturation widened then truncated (`v14`: the cvt before the truncation is not the sat).
pub(super) fn saturated_before_truncation(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    let Some((Stmt::Isa(Instruction { form: Form::Cvt(c), .. }), o)) = m.producer(t, r) else { return false };
    let truncation = matches!(c.dtype, CvtType::U16 | CvtType::S16)
        && matches!(c.atype, CvtType::U32 | CvtType::S32)
        && *c == bare(c.dtype, c.atype, false);
    let saturated32 = |k: usize| {
        matches!(&m.p.body[k], Stmt::Isa(Instruction { form: Form::Cvt(s), .. })
            if s.sat && matches!(s.dtype, CvtType::F32 | CvtType::U32 | CvtType::S32))
    };
    truncation && o.a_stmt.is_some_and(saturated32)
}
