//! The emulations of four conversion root causes the H200 campaign of seed 3702 found
//! (corpus/findings/fuzz-h200-3702/; traces `trace/T3A.md`, `trace/T3C.md`), called from the
//! hooks of `emulate.rs` ([`cvt`], [`glue`]): 3702-N4 (a byte of a `ld.v2.s8` converted as
//! signed by a `.u32` int-to-float `cvt`), 3702-N5 (`prmt` narrowed to a sign-replicated byte of
//! operand a, a dropped; its readers in `emulate/prmt_narrowed_per_zero_extending_reader.rs`), 3702-N6 (a 16-bit shift by
//! a `cvt.<irnd>.ftz.u32.f32` result, the flush dropped) and root cause C's float-to-int
//! direction (`cvt.sat.s16.u32` of a `cvt.<irnd>.u32.f32` result fused signed).
//!
//! Each looks at the producers the machine records ([`Origin`](super::Origin)) and computes the
//! emulated value through the oracle's own semantics ([`convert`], [`evaluate`]).
//!
//! Invariants: each function changes a result only when its deviation is emulated and the
//! instruction and its producers are exactly the ones its trace shows wrong; it returns `None`
//! (the spec's result stands) otherwise.

use super::convert;
use super::fuzz3602::writes;
use super::fuzz3701::reaches_on_every_path;
use super::origin::moved_immediate;
use super::prmt_constant_b_held_in_a_register::{constant_b_held_in_a_register, selector_overwritten_by_its_prmt};
use super::{
    cnot_number_and_range_decided_sets, ftz_dropped_in_fused_sat16_cvt, prmt_narrowed_per_zero_extending_reader,
    reg_of_glue, GlueRule,
};
use crate::isa::operand::Operand;
use crate::isa::types::{MemType, VecWidth};
use crate::isa::{Cvt, CvtRnd, CvtType, Form, Instruction, MovShape, Prmt};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::{Reg, Stmt};
use crate::semantics::operands::{evaluate, Input, Output};
use crate::semantics::{Deviation, Expected};

/// A glue instruction's result under the glue deviations of this file: `Some` (the emulated
/// result, the deviation recorded as fired) where 3702-N6 or 3702-N5 (a zero-extending glue
/// reader of a narrowed `prmt`) applies.
pub(super) fn glue(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let rules: &[(Deviation, GlueRule)] = &[
        (Deviation::Shift16ByFtzU32CvtFlushDropped, shift16_by_ftz_u32_cvt),
        // 3702-N5 at any zero-extending reader: `emulate/prmt_narrowed_per_zero_extending_reader.rs`.
        (Deviation::PrmtSignOfANarrowedReadsZero, prmt_narrowed_per_zero_extending_reader::narrowed_prmt_glue_reader),
    ];
    super::first_glue_rule(m, t, g, vals, result, rules)
}

/// A `cvt`'s result under the conversion deviations of this file (`a` its source value):
/// 3702-N4, 3702-N5, 3702-N6 (a fused saturating 16-bit reader) or C's `cvt.sat.s16.u32` of a
/// `.u32` float conversion. The value is the
/// destination's full width.
pub(super) fn cvt(m: &Machine<'_>, t: u32, inst: &Instruction, c: Cvt, a: &Expected) -> Option<(Deviation, Expected)> {
    let rules: [(Deviation, CvtRule); 4] = [
        (Deviation::ByteOfVectorLoadU32CvtConvertsSigned, byte_of_vector_load_converted_signed),
        (Deviation::PrmtSignOfANarrowedReadsZero, prmt_narrowed_per_zero_extending_reader::narrowed_prmt_cvt_reader),
        // 3702-N6 at a fused saturating 16-bit reader (before C's fold, whose value it contains):
        // `emulate/ftz_dropped_in_fused_sat16_cvt.rs`.
        (Deviation::Shift16ByFtzU32CvtFlushDropped, ftz_dropped_in_fused_sat16_cvt::sat16_of_ftz_cvt_fused),
        (Deviation::IntSatS16OfU32CvtFoldedSigned, sat_s16_of_u32_cvt_folded),
    ];
    rules.iter().filter(|(d, _)| m.allow.emulates(*d)).find_map(|(d, rule)| rule(m, t, inst, c, a).map(|v| (*d, v)))
}

/// The integer `cvt{.sat}.dtype.atype` with no other modifier.
pub(super) fn bare(dtype: CvtType, atype: CvtType, sat: bool) -> Cvt {
    Cvt { rnd: None, ftz: false, sat, relu: false, satfinite: false, dtype, atype }
}

/// One `cvt` rule: the emulated destination where it applies (`None` elsewhere).
type CvtRule = fn(&Machine<'_>, u32, &Instruction, Cvt, &Expected) -> Option<Expected>;

/// 3702-N4 (30858a36): `cvt.<rnd>.<float>.u32 d, r` with r holding a sign-extended field
/// ptxas knows ([`sign_extended_field`]: an element of `ld.*.v2.s8`/`.v4.s8`, or a byte- or
/// half-aligned `bfe.s32`) converts the field as the signed `.s32` (`I2F.BF16.S8.RP R0, R2.B1`,
/// `I2F.S16`: the extension folded into the conversion's source type), where §9.7.9.21
/// converts the word as unsigned (0xffffffb1 is 4294967217, not −79); `.sat` and the rounding
/// apply to the signed value. Every float destination: `.f64` too (corpus/findings/
/// fuzz-h200-4002/, a8402534, trace/T7E.md: `I2F.F64.S8`, with or without `.sat`, `.rz`; T3A's
/// right `.f64` was a scalar `ld.s8`); an aligned `bfe.s32` of a loaded word
/// (corpus/findings/fuzz-h200-4003/, bb2b2b42, trace/T7H.md: fields (0,8), (8,8), (0,16),
/// (16,16), `.f64`, `.f16`, 13.0.88 and 13.5 -O3). A scalar `ld.s8`/`ld.s16`, a `.v2.s16` load,
/// a field not byte- or half-aligned (`SGXT`), a zero extension (`cvt.u32.u16`) in the chain
/// are right. Not emulated: a `.u64` source (`cvt.u64.u32` between: wrong from a `bfe`,
/// bb2b2b42 v9, right from a vector byte, a8402534 v5).
/// Seeds 3901 and 3902 (corpus/findings/fuzz-h200-3901/, e685156a, trace/T6B.md, and
/// fuzz-h200-3902/, 1ab3812a, trace/T6D.md: `cvt.u32.s16` of the element, `v2_s32_s16`,
/// `v3_u32_s8` give the same `I2F.S8 R7, R2.B1`, 13.0.88 and 13.5 -O3); any chain that keeps the
/// sign extension gives it too (session 40, 13.0.88 -O3: a `mov.b16` copy between, `cvt.s16.s8`
/// then `cvt.u32.s16`, `cvt.s32.s8` then `cvt.u32.s32`, `cvt.u32.s8` then `cvt.u32.u32`, a
/// `.v4.s8` element, a `.v2.s8` loaded into 32-bit registers read directly or through
/// `cvt.u32.s32`).
fn byte_of_vector_load_converted_signed(
    m: &Machine<'_>,
    _: u32,
    inst: &Instruction,
    c: Cvt,
    a: &Expected,
) -> Option<Expected> {
    let float = matches!(c.dtype, CvtType::Bf16 | CvtType::F16 | CvtType::F32 | CvtType::F64);
    if c.atype != CvtType::U32 || !float || !a.is_exact() {
        return None;
    }
    let source = m.reg_of(inst.operands.get(1)?).ok()?;
    if !sign_extended_field(m, m.stmt, source, 4) {
        return None;
    }
    let signed = Form::Cvt(Cvt { atype: CvtType::S32, ..c });
    convert(m, &signed, a.bits & 0xFFFF_FFFF).filter(Expected::is_exact)
}

/// Whether register `r`, read at body index `at`, holds a sign-extended field ptxas knows to be
/// one: an element of an unguarded `ld.*.v2.s8` or `ld.*.v4.s8` (§9.7.9.8: each element
/// sign-extended to its register), an unguarded byte- or half-aligned `bfe.s32`
/// ([`cnot_number_and_range_decided_sets::aligned_field_bfe`], §9.7.1.19), or an unguarded `mov` copy or integer
/// `cvt` that keeps the extension ([`keeps_sign_extension`]) of such a value, at most `depth`
/// copies or conversions deep; each writer the last before its reader and run on every path to
/// it. ptxas treats a `.u32` use of such a register as signed: 3702-N4's int-to-float `cvt`
/// and 3301-N4's saturating `cvt` (`emulate.rs`).
pub(super) fn sign_extended_field(m: &Machine<'_>, at: usize, r: Reg, depth: u32) -> bool {
    let Some((k, s)) = m.p.body[..at].iter().enumerate().rev().find(|(_, s)| writes(s, r)) else {
        return false;
    };
    if let Stmt::Glue { glue, guard: None } = s {
        return cnot_number_and_range_decided_sets::aligned_field_bfe(glue) && reaches_on_every_path(m, k, at);
    }
    let Stmt::Isa(Instruction { form, operands, guard: None, .. }) = s else { return false };
    let deeper = || {
        depth > 0
            && operands.get(1).and_then(|o| m.reg_of(o).ok()).is_some_and(|x| sign_extended_field(m, k, x, depth - 1))
    };
    let vector_s8 =
        |vec: Option<VecWidth>, ty: MemType| matches!(vec, Some(VecWidth::V2 | VecWidth::V4)) && ty == MemType::S8;
    reaches_on_every_path(m, k, at)
        && match form {
            Form::Ld(l) => vector_s8(l.vec, l.ty),
            Form::LdGlobalNc(l) => vector_s8(l.vec, l.ty),
            Form::Mov(mv) => mv.shape == MovShape::Copy && deeper(),
            Form::Cvt(c) => keeps_sign_extension(*c) && deeper(),
            _ => false,
        }
}

/// Whether integer `cvt` `c` keeps a sign-extended byte its source holds: no modifier, a 16- or
/// 32-bit destination, and a signed source type (`.s8`, `.s16`, `.s32`: §9.7.9.21 sign-extends)
/// or an unsigned one as wide as the destination (a copy). `cvt.u32.u16` zero-extends the 16
/// bits (right).
fn keeps_sign_extension(c: Cvt) -> bool {
    use CvtType::{S16, S32, S8, U16, U32};
    let kept = match c.atype {
        S8 | S16 | S32 => matches!(c.dtype, S16 | U16 | S32 | U32),
        U16 => matches!(c.dtype, S16 | U16),
        U32 => matches!(c.dtype, S32 | U32),
        _ => false,
    };
    kept && c == bare(c.dtype, c.atype, false)
}

/// 3702-N5: the low `bytes` bytes of the word ptxas 13.0.88 -O3 computes for register `r` of
/// thread `t` (holding `word`, the spec's `prmt` result) for a reader that zero-extends only
/// those bytes (`emulate/prmt_narrowed_per_zero_extending_reader.rs` says which; other readers, live or dead, do not
/// matter: ptxas narrows a copy of the `PRMT` per such reader, session 40): `r`
/// written by `prmt.b32 r, a, b, c` (the generic mode) with a
/// constant selector c whose nibbles of the bytes read name no byte of a (none 0–3) but the sign
/// of one (some 8–B; §9.7.9.7: the sign of byte `c & 3` of a, replicated) and b a register that
/// is no constant, or a constant ptxas keeps in a register (session 47), is narrowed to
/// `PRMT R, RZ, c, b`: a is dropped, so each byte naming the sign
/// of a byte of a is the sign of a byte of 0 (0x00); the bytes naming b's bytes keep their value
/// (c3fdf7b6: b = a, the same loaded register, `PRMT R6, RZ, 0x96, R2`). A selector naming b's
/// sign (0xC, v2), an index nibble of a (0x2; 0x3591 under `and 0xffff`, session 39), a constant
/// b ptxas puts in the `PRMT`'s immediate slot and the whole word read are right.
pub(super) fn narrowed_prmt(m: &Machine<'_>, t: u32, r: Reg, bytes: u32, word: u32) -> Option<u32> {
    let (Stmt::Isa(p), origin) = m.producer(t, r)? else { return None };
    let k = origin.stmt;
    let Form::Prmt(form @ Prmt { mode: None }) = p.form else { return None };
    if p.operands.first().and_then(|o| m.reg_of(o).ok()) != Some(r) {
        return None;
    }
    let register = |o: &Operand| m.reg_of(o).ok();
    // b: a register holding no constant (a constant b is folded right, trace v8), or a constant
    // ptxas keeps in a register (`emulate/prmt_constant_b_held_in_a_register.rs`).
    let b = register(p.operands.get(2)?)?;
    if moved_immediate(m, t, b) && !constant_b_held_in_a_register(m, t, k, b) {
        return None;
    }
    let sel = constant_selector(m, t, p, k)?;
    let nibble = |i: u32| (sel >> (4 * i)) & 0xF;
    let signs_of_a = |i: u32| (0x8..=0xB).contains(&nibble(i));
    if (0..bytes).any(|i| nibble(i) <= 3) || !(0..bytes).any(signs_of_a) {
        return None;
    }
    // The `prmt` of a = 0 (RZ) and b = 0 gives the bytes naming a's sign (the narrowed ones).
    let inputs = [("a", 0u128), ("b", 0), ("c", u128::from(sel))];
    let values = inputs.into_iter().map(|(n, v)| (n.to_string(), Input::Scalar(v))).collect();
    let out = evaluate(&Form::Prmt(form), &values, None, m.allow).ok()?;
    let of_zero = out.into_iter().find_map(|(n, o)| match o {
        Output::Bits(e) if n == "d" && e.is_exact() => Some(e.bits as u32),
        _ => None,
    })?;
    Some((0..bytes).fold(0, |acc, i| {
        let from = if signs_of_a(i) { of_zero } else { word };
        acc | (from & (0xFF << (8 * i)))
    }))
}

/// The selector c of the `prmt.b32 r, a, b, c` `p` at body index `k` (thread `t`) when it is a
/// constant: an immediate, or a register a move of an immediate wrote before the prmt (the
/// `prmt`'s own destination r: the move's immediate, `emulate/prmt_constant_b_held_in_a_register.rs`).
pub(super) fn constant_selector(m: &Machine<'_>, t: u32, p: &Instruction, k: usize) -> Option<u32> {
    let r = m.reg_of(p.operands.first()?).ok()?;
    let selector = match p.operands.get(3)? {
        o @ Operand::Imm(_) => o,
        o => match m.reg_of(o).ok()? {
            x if x == r => selector_overwritten_by_its_prmt(m, k, x)?,
            x if moved_immediate(m, t, x) && m.producer(t, x).is_some_and(|(_, ox)| ox.stmt < k) => o,
            _ => return None,
        },
    };
    Some(m.source(t, selector, 32).ok().filter(Expected::is_exact)?.bits as u32)
}

/// Root cause C, float-to-int direction (f25dd895; ptxas 13.0.88 and 13.5 -O3): `cvt.sat.s16.u32
/// h, r` with r written by `cvt.<irnd>.u32.f32 r, x` is fused into one `F2I.S16` of x: the
/// `.u32` lower clamp is lost, so h is `cvt.<irnd>.sat.s16.f32` of x (−1.0e18 gives 0x8000,
/// −159.95 under `.rmi` its own 0xff60), where §9.7.9.21 clamps x to 0 first (h = 0). Every
/// integer rounding (session 43: corpus/findings/fuzz-h200-4202/trace/T12b4.md, 2bf704ce, `.rmi`
/// `F2I.S16.FLOOR.NTZ`, its `var/v1_rpi` `F2I.S16.CEIL.NTZ`; `.rni`, `.rzi` before).
/// `.s8`/`.u16`/`.s32` destinations (`v4_rmi_u16dst`, `v6_rmi_s8dst`), an `.s32` intermediate
/// (`v3_rmi_s32mid`) and `.f16`/`.f64` sources are right. (`.ftz` is dropped by the fold too,
/// `v5_rmi_ftz`: 3702-N6's mechanism, emulated before this rule in
/// `emulate/ftz_dropped_in_fused_sat16_cvt.rs`; here c0's `.ftz` is kept.)
fn sat_s16_of_u32_cvt_folded(m: &Machine<'_>, t: u32, inst: &Instruction, c: Cvt, _: &Expected) -> Option<Expected> {
    let saturating = bare(CvtType::S16, CvtType::U32, true);
    if c != saturating {
        return None;
    }
    let (c0, origin) = m.cvt_producer(t, inst.operands.get(1))?;
    if c0.dtype != CvtType::U32 || c0.atype != CvtType::F32 || !c0.rnd.is_some_and(CvtRnd::is_integer) {
        return None;
    }
    let x = origin.a.as_ref().filter(|x| x.is_exact())?;
    let fused = Form::Cvt(Cvt { dtype: CvtType::S16, sat: true, ..c0 });
    convert(m, &fused, x.bits & 0xFFFF_FFFF).filter(Expected::is_exact)
}

/// 3702-N6 (3c1be158; ptxas 13.0.88 and 13.5 -O3): `shl.b16`, `shr.{b16,u16,s16} d, h, r` with r
/// written by `cvt.<irnd>.ftz.u32.f32 r, x` fuses the conversion into the amount as
/// `F2I.{U16,S16}.CEIL.NTZ` without `.FTZ`: a subnormal x is not flushed (§9.7.9.21: `.ftz`
/// flushes subnormal inputs to sign-preserving zero), so `.rpi` of a positive subnormal shifts
/// by 1, not 0. The amount here is the `.u32` conversion without `.ftz` (a negative subnormal
/// still saturates to 0: its signed reading under `shr.s16` was not seen). Its saturating 16-bit
/// `cvt` readers: `emulate/ftz_dropped_in_fused_sat16_cvt.rs`.
fn shift16_by_ftz_u32_cvt(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let shift16 = match g.op {
        GlueOp::Shl => g.ty == GlueType::B16,
        GlueOp::Shr => matches!(g.ty, GlueType::B16 | GlueType::U16 | GlueType::S16),
        _ => false,
    };
    if !shift16 {
        return None;
    }
    let (c0, x) = match m.producer(t, reg_of_glue(g, 1)?)? {
        (Stmt::Isa(Instruction { form: Form::Cvt(c0), .. }), o) if ftz_integer_cvt_of_f32(*c0, &[CvtType::U32]) => {
            (*c0, o.a.clone()?)
        }
        _ => return None,
    };
    let (h, amount) = (vals.first()?, vals.get(1)?);
    if !(h.is_exact() && amount.is_exact() && x.is_exact()) {
        return None;
    }
    let unflushed = Form::Cvt(Cvt { ftz: false, ..c0 });
    let fused = convert(m, &unflushed, x.bits & 0xFFFF_FFFF).filter(Expected::is_exact)?;
    let by = fused.bits as u64 & 0xFFFF_FFFF;
    if by == amount.bits as u64 & 0xFFFF_FFFF {
        return None;
    }
    Some(Expected::exact(u128::from(g.eval([h.bits as u64, by, 0, 0], false)), result.width))
}

/// Whether `c0` is 3702-N6's producer `cvt.<irnd>.ftz.<dtype>.f32` with dtype one of `dtypes`.
pub(super) fn ftz_integer_cvt_of_f32(c0: Cvt, dtypes: &[CvtType]) -> bool {
    c0.ftz && dtypes.contains(&c0.dtype) && c0.atype == CvtType::F32 && c0.rnd.is_some_and(CvtRnd::is_integer)
}
