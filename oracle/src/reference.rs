//! An independent reference model of `cvt` built on `rustc_apfloat` (soft-float, LLVM's
//! APFloat), to check [`crate::semantics::cvt`] against (the `reference_cvt` integration test and
//! the `oracle_reference` fuzz target). Compiled only with the `reference` cargo feature (on by
//! default; see the crate docs).
//!
//! The reference re-states the PTX rules of §9.7.9.21 (NaN results, `.ftz`, `.sat`, `.relu`,
//! `.satfinite`, packing) in its own code; only the IEEE rounding comes from apfloat. FP6/FP4
//! round through an apfloat format with the same precision and minimum exponent and a wide
//! exponent range, then saturate by hand; UE8M0 is checked with direct integer code.
//!
//! Coverage: every legal form ([`forms`]) except `.rs` and the x4 destinations; [`covers`] says
//! which. Results are per lane, exact bits or "any NaN", and [`compare`] checks the oracle's
//! set-valued result against them with the hardware-deviation allowances that are not the
//! spec's ([`Allowance::CvtFtzF16Input`], [`Allowance::CvtFtzIeeeTininess`]) switched off.
//! Invariant: nothing here calls into the oracle's number code ([`crate::num`]); it shares
//! only the instruction model.

use rustc_apfloat::ieee::{BFloat, Double, Float8E4M3FN, Float8E5M2, Half, IeeeFloat, Semantics, Single};
use rustc_apfloat::{Float, FloatConvert, Round};

use crate::isa::{Cvt, CvtRnd, CvtType, Family, Form, FormSpec};
use crate::semantics::cvt::{eval, CvtInputs};
use crate::semantics::{Allowance, Allowances, Constraint, Expected};

struct Tf32S;
impl Semantics for Tf32S {
    const BITS: usize = 19;
    const EXP_BITS: usize = 8;
}
type Tf32F = IeeeFloat<Tf32S>;

/// A format with an FP6/FP4 element's precision and minimum exponent but a wide exponent
/// range, so apfloat rounds exactly as the element would before saturation.
macro_rules! wide {
    ($name:ident, $prec:expr, $min_exp:expr) => {
        struct $name;
        impl Semantics for $name {
            const BITS: usize = 1 + 10 + ($prec - 1);
            const EXP_BITS: usize = 10;
            const MIN_EXP: i32 = $min_exp;
        }
    };
}
wide!(E2m1WideS, 2, 0);
wide!(E2m3WideS, 4, 0);
wide!(E3m2WideS, 3, -2);

/// One lane of a reference result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lane {
    /// Exactly these bits.
    Bits(u64),
    /// Any NaN of the lane's format (the spec leaves the payload open).
    AnyNan,
}

fn round_of(r: Option<CvtRnd>) -> Round {
    match r {
        Some(CvtRnd::Rn | CvtRnd::Rni) | None => Round::NearestTiesToEven,
        Some(CvtRnd::Rna) => Round::NearestTiesToAway,
        Some(CvtRnd::Rz | CvtRnd::Rzi) => Round::TowardZero,
        Some(CvtRnd::Rm | CvtRnd::Rmi) => Round::TowardNegative,
        Some(CvtRnd::Rp | CvtRnd::Rpi) => Round::TowardPositive,
        Some(CvtRnd::Rs) => unreachable!("no apfloat reference for .rs"),
    }
}

/// An apfloat value of any of the source formats, widened to f64-or-wider exactly
/// (every source format used here is exactly representable in `Double`, except f64 itself).
fn src_double(t: CvtType, bits: u64, ftz: bool) -> Double {
    let mut lost = false;
    match t {
        CvtType::F64 => Double::from_bits(bits as u128),
        CvtType::F32 => {
            let x = Single::from_bits((bits & 0xFFFF_FFFF) as u128);
            let x = if ftz && x.is_denormal() {
                if x.is_negative() {
                    -Single::ZERO
                } else {
                    Single::ZERO
                }
            } else {
                x
            };
            x.convert_r(Round::NearestTiesToEven, &mut lost).value
        }
        CvtType::F16 => Half::from_bits((bits & 0xFFFF) as u128).convert_r(Round::NearestTiesToEven, &mut lost).value,
        CvtType::Bf16 => {
            BFloat::from_bits((bits & 0xFFFF) as u128).convert_r(Round::NearestTiesToEven, &mut lost).value
        }
        _ => unreachable!(),
    }
}

fn int_bits(t: CvtType) -> u32 {
    use CvtType::*;
    match t {
        U8 | S8 => 8,
        U16 | S16 => 16,
        U32 | S32 => 32,
        U64 | S64 => 64,
        _ => unreachable!(),
    }
}

fn signed(t: CvtType) -> bool {
    matches!(t, CvtType::S8 | CvtType::S16 | CvtType::S32 | CvtType::S64)
}

fn src_int(t: CvtType, bits: u64) -> i128 {
    let w = int_bits(t);
    let v = if w == 64 { bits } else { bits & ((1 << w) - 1) };
    if signed(t) && (v >> (w - 1)) & 1 == 1 {
        v as i128 - (1i128 << w)
    } else {
        v as i128
    }
}

/// Rounds `x` into destination float type `d` with apfloat (IEEE overflow), returns bits.
fn to_dst(x: Double, d: CvtType, round: Round) -> u64 {
    let mut lost = false;
    match d {
        CvtType::F64 => x.to_bits() as u64,
        CvtType::F32 => FloatConvert::<Single>::convert_r(x, round, &mut lost).value.to_bits() as u64,
        CvtType::F16 => FloatConvert::<Half>::convert_r(x, round, &mut lost).value.to_bits() as u64,
        CvtType::Bf16 => FloatConvert::<BFloat>::convert_r(x, round, &mut lost).value.to_bits() as u64,
        _ => unreachable!(),
    }
}

fn max_bits(d: CvtType) -> u64 {
    match d {
        CvtType::F16 => 0x7BFF,
        CvtType::Bf16 => 0x7F7F,
        CvtType::F32 => 0x7F7F_FFFF,
        CvtType::F64 => 0x7FEF_FFFF_FFFF_FFFF,
        _ => unreachable!(),
    }
}

fn width(d: CvtType) -> u32 {
    match d {
        CvtType::F16 | CvtType::Bf16 => 16,
        CvtType::F32 => 32,
        CvtType::F64 => 64,
        t => int_bits(t),
    }
}

fn dst_is_nan(d: CvtType, b: u64) -> bool {
    match d {
        CvtType::F16 => Half::from_bits(b as u128).is_nan(),
        CvtType::Bf16 => BFloat::from_bits(b as u128).is_nan(),
        CvtType::F32 => Single::from_bits(b as u128).is_nan(),
        CvtType::F64 => Double::from_bits(b as u128).is_nan(),
        _ => false,
    }
}

fn canonical_nan(d: CvtType) -> u64 {
    match d {
        CvtType::F16 | CvtType::Bf16 => 0x7FFF,
        CvtType::F32 => 0x7FFF_FFFF,
        CvtType::F64 => 0x7FFF_FFFF_FFFF_FFFF,
        _ => unreachable!(),
    }
}

/// Scalar cvt (both types among u8..s64, f16, bf16, f32, f64).
fn reference_scalar(c: &Cvt, a: u64) -> Lane {
    let (d, t) = (c.dtype, c.atype);
    let round = round_of(c.rnd);
    let is_float = |t: CvtType| matches!(t, CvtType::F16 | CvtType::Bf16 | CvtType::F32 | CvtType::F64);
    if !is_float(d) {
        let w = int_bits(d);
        let (lo, hi) = if signed(d) { (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1) } else { (0, (1i128 << w) - 1) };
        let mask = if w == 64 { u64::MAX } else { (1 << w) - 1 };
        if !is_float(t) {
            let v = src_int(t, a);
            let v = if c.sat { v.clamp(lo, hi) } else { v };
            return Lane::Bits(v as u64 & mask);
        }
        let x = src_double(t, a, c.ftz);
        if x.is_nan() {
            return Lane::Bits(if t == CvtType::F64 || w == 64 { 1u64 << (w - 1) } else { 0 });
        }
        let mut exact = false;
        let v = if x.is_infinite() {
            if x.is_negative() {
                lo
            } else {
                hi
            }
        } else {
            // 200 bits hold every f64 integer; clamp afterwards.
            let r = x.round_to_integral(round).value;
            r.to_i128_r(127, Round::TowardZero, &mut exact).value
        };
        return Lane::Bits(v.clamp(lo, hi) as u64 & mask);
    }
    let x = if is_float(t) {
        src_double(t, a, c.ftz)
    } else if t == CvtType::U64 || t == CvtType::S64 {
        // A 64-bit integer is not exact in f64: round it straight into the destination.
        let v = src_int(t, a);
        let r = match d {
            CvtType::F64 => Double::from_i128_r(v, round).value.to_bits() as u64,
            CvtType::F32 => Single::from_i128_r(v, round).value.to_bits() as u64,
            CvtType::F16 => Half::from_i128_r(v, round).value.to_bits() as u64,
            CvtType::Bf16 => BFloat::from_i128_r(v, round).value.to_bits() as u64,
            _ => unreachable!(),
        };
        return finish(c, r);
    } else {
        Double::from_i128(src_int(t, a)).value
    };
    if x.is_nan() {
        if c.sat {
            return Lane::Bits(0);
        }
        if c.relu {
            return Lane::Bits(canonical_nan(d));
        }
        return Lane::AnyNan;
    }
    let bits = if d == t && c.rnd.is_some_and(|r| matches!(r, CvtRnd::Rni | CvtRnd::Rzi | CvtRnd::Rmi | CvtRnd::Rpi)) {
        to_dst(x.round_to_integral(round).value, d, Round::NearestTiesToEven)
    } else if c.satfinite && x.is_infinite() {
        max_bits(d) | if x.is_negative() { 1 << (width(d) - 1) } else { 0 }
    } else {
        let b = to_dst(x, d, round);
        let inf = (max_bits(d) + 1) & !(1 << (width(d) - 1));
        if c.satfinite && (b & !(1 << (width(d) - 1))) == inf {
            max_bits(d) | (b & (1 << (width(d) - 1)))
        } else {
            b
        }
    };
    finish(c, bits)
}

/// `.ftz` result flush, `.relu`, `.sat` on a float result.
fn finish(c: &Cvt, mut b: u64) -> Lane {
    let d = c.dtype;
    let w = width(d);
    let sign = 1u64 << (w - 1);
    if c.ftz && d == CvtType::F32 && b & 0x7F80_0000 == 0 {
        b &= sign;
    }
    if c.relu && b & sign != 0 {
        b = 0;
    }
    if c.sat {
        let one = match d {
            CvtType::F16 => 0x3C00,
            CvtType::F32 => 0x3F80_0000,
            CvtType::F64 => 0x3FF0_0000_0000_0000,
            _ => unreachable!(),
        };
        if b & sign != 0 {
            b = 0;
        } else if b > one {
            b = one;
        }
    }
    let _ = dst_is_nan(d, b);
    Lane::Bits(b)
}

/// FP8/FP6/FP4 element of an x2 destination: `.rn.satfinite{.relu}` from a Double.
fn reference_narrow(x: Double, d: CvtType, relu: bool) -> Lane {
    let mut lost = false;
    let rne = Round::NearestTiesToEven;
    let neg = x.is_negative();
    let (max, nan_bits): (u64, Option<u64>) = match d {
        CvtType::E4m3x2 => (0x7E, Some(0x7F)),
        CvtType::E5m2x2 => (0x7B, Some(0x7F)),
        CvtType::E2m1x2 => (0x7, None),
        CvtType::E2m3x2 | CvtType::E3m2x2 => (0x1F, None),
        _ => unreachable!(),
    };
    let sign_shift = match d {
        CvtType::E4m3x2 | CvtType::E5m2x2 => 7,
        CvtType::E2m1x2 => 3,
        _ => 5,
    };
    if x.is_nan() {
        return match nan_bits {
            Some(b) if relu => Lane::Bits(b),
            Some(_) => Lane::AnyNan,
            None => Lane::Bits(max),
        };
    }
    let sat = |mag_bits: u64| if mag_bits > max { max } else { mag_bits };
    let mag = match d {
        CvtType::E4m3x2 => {
            let y: Float8E4M3FN = x.abs().convert_r(rne, &mut lost).value;
            if y.is_nan() || x.is_infinite() {
                max
            } else {
                sat(y.to_bits() as u64 & 0x7F)
            }
        }
        CvtType::E5m2x2 => {
            let y: Float8E5M2 = x.abs().convert_r(rne, &mut lost).value;
            if y.is_infinite() {
                max
            } else {
                sat(y.to_bits() as u64 & 0x7F)
            }
        }
        CvtType::E2m1x2 => narrow_by_table::<E2m1WideS>(x.abs(), 1, 1, max),
        CvtType::E2m3x2 => narrow_by_table::<E2m3WideS>(x.abs(), 3, 1, max),
        CvtType::E3m2x2 => narrow_by_table::<E3m2WideS>(x.abs(), 2, 3, max),
        _ => unreachable!(),
    };
    if relu && neg {
        return Lane::Bits(0);
    }
    Lane::Bits(mag | if neg { 1 << sign_shift } else { 0 })
}

/// Rounds |x| in a wide-exponent apfloat format with the element's precision, saturates at
/// the largest code, and finds the code with that value by decoding every code.
fn narrow_by_table<S: Semantics>(x: Double, man: u32, bias: i32, max: u64) -> u64 {
    let mut lost = false;
    if x.is_infinite() {
        return max;
    }
    let y: IeeeFloat<S> = x.convert_r(Round::NearestTiesToEven, &mut lost).value;
    let code_value = |code: u64| -> Double {
        let e = (code >> man) as i32;
        let m = code & ((1 << man) - 1);
        let (sig, exp) = if e == 0 { (m, 1 - bias - man as i32) } else { (m | (1 << man), e - bias - man as i32) };
        Double::from_u128(sig as u128).value.scalbn(exp)
    };
    let y_d: Double = y.convert_r(Round::NearestTiesToEven, &mut lost).value;
    if y_d > code_value(max) || y.is_infinite() {
        return max;
    }
    (0..=max).find(|&c| code_value(c) == y_d).expect("a rounded value is a code")
}

/// The reference result of `c` on `x`, as (lane shift, lane width, lane) triples, or `None`
/// where the reference does not cover the form (whatever the inputs: see [`covers`]).
pub fn reference(c: &Cvt, x: &CvtInputs) -> Option<Vec<(u32, u32, Lane)>> {
    use CvtType::*;
    let (d, t) = (c.dtype, c.atype);
    let scalar = |t: CvtType| matches!(t, U8 | U16 | U32 | U64 | S8 | S16 | S32 | S64 | F16 | Bf16 | F32 | F64);
    if scalar(d) && scalar(t) {
        return Some(vec![(0, width(d), reference_scalar(c, x.a))]);
    }
    let lane16 = |v: Double, dd: CvtType| {
        let c2 = Cvt { dtype: dd, atype: F64, ftz: false, sat: false, ..*c };
        reference_scalar(&c2, v.to_bits() as u64)
    };
    match (d, t) {
        (F16x2 | Bf16x2, F32) if c.rnd != Some(CvtRnd::Rs) => {
            let e = if d == F16x2 { F16 } else { Bf16 };
            let conv = |bits: u64| {
                let c2 = Cvt { dtype: e, atype: F32, ..*c };
                reference_scalar(&c2, bits)
            };
            Some(vec![(16, 16, conv(x.a)), (0, 16, conv(x.b))])
        }
        (E4m3x2 | E5m2x2 | E2m1x2 | E2m3x2 | E3m2x2, F32) => {
            let lw = if d == E2m1x2 { 4 } else { 8 };
            let f = |b: u64| reference_narrow(src_double(F32, b, false), d, c.relu);
            Some(vec![(lw, lw, f(x.a)), (0, lw, f(x.b))])
        }
        (E4m3x2 | E5m2x2, F16x2) => {
            let f = |b: u64| reference_narrow(src_double(F16, b, false), d, c.relu);
            Some(vec![(8, 8, f(x.a >> 16)), (0, 8, f(x.a & 0xFFFF))])
        }
        (F16x2, E4m3x2 | E5m2x2) => {
            let f = |b: u64| {
                let mut lost = false;
                let v: Double = if t == E4m3x2 {
                    Float8E4M3FN::from_bits(b as u128).convert_r(Round::NearestTiesToEven, &mut lost).value
                } else {
                    Float8E5M2::from_bits(b as u128).convert_r(Round::NearestTiesToEven, &mut lost).value
                };
                lane16(v, F16)
            };
            Some(vec![(16, 16, f((x.a >> 8) & 0xFF)), (0, 16, f(x.a & 0xFF))])
        }
        (Tf32, F32) => {
            let mut lost = false;
            let v = Single::from_bits(x.a as u128 & 0xFFFF_FFFF);
            if v.is_nan() {
                return Some(vec![(0, 32, if c.relu { Lane::Bits(0x7FFF_E000) } else { Lane::AnyNan })]);
            }
            let r: Tf32F = v.convert_r(round_of(c.rnd), &mut lost).value;
            let mut b = (r.to_bits() as u64) << 13;
            if c.satfinite && (b & 0x7FFF_FFFF) == 0x7F80_0000 {
                b = (b & 0x8000_0000) | 0x7F7F_E000;
            }
            if c.relu && b >> 31 == 1 {
                b = 0;
            }
            Some(vec![(0, 32, Lane::Bits(b))])
        }
        (Ue8m0x2, F32 | Bf16x2) => {
            let f = |b: u64| -> u64 {
                // Direct integer code on the f32 bits (bf16 widened by a shift).
                let abs = b & 0x7FFF_FFFF;
                if abs > 0x7F80_0000 {
                    return 0xFF;
                }
                if abs == 0x7F80_0000 {
                    return if c.satfinite { 0xFE } else { 0xFF };
                }
                let e = abs >> 23;
                let m = abs & 0x7F_FFFF;
                let (mut r, inexact) = if e == 0 { (0, m != 0 && m != 0x40_0000) } else { (e, m != 0) };
                if e == 0 && m > 0x40_0000 && c.rnd == Some(CvtRnd::Rp) {
                    r = 1;
                } else if c.rnd == Some(CvtRnd::Rp) && inexact && e != 0 {
                    r += 1;
                }
                if r == 0xFF && c.satfinite {
                    0xFE
                } else {
                    r
                }
            };
            let (a, b) = if t == F32 { (x.a, x.b) } else { ((x.a >> 16) << 16, (x.a & 0xFFFF) << 16) };
            Some(vec![(8, 8, Lane::Bits(f(a & 0xFFFF_FFFF))), (0, 8, Lane::Bits(f(b & 0xFFFF_FFFF)))])
        }
        (Bf16x2, Ue8m0x2) => {
            let f = |b: u64| {
                if b == 0xFF {
                    Lane::AnyNan
                } else if b == 0 {
                    Lane::Bits(0x0040)
                } else {
                    Lane::Bits(b << 7)
                }
            };
            Some(vec![(16, 16, f((x.a >> 8) & 0xFF)), (0, 16, f(x.a & 0xFF))])
        }
        _ => None,
    }
}

fn lane_of(e: &Expected, shift: u32, w: u32) -> (u64, bool) {
    let bits = ((e.bits >> shift) as u64) & if w == 64 { u64::MAX } else { (1 << w) - 1 };
    let nan_free = e
        .free
        .iter()
        .any(|f| f.shift == shift && f.width >= w.min(f.width) && matches!(f.constraint, Constraint::AnyNan(_)))
        || (w == 32 && e.free.iter().any(|f| f.shift == 0 && f.width == 32));
    (bits, nan_free)
}

/// Whether the reference covers form `c` (it then gives a result for every input).
pub fn covers(c: &Cvt) -> bool {
    reference(c, &CvtInputs::default()).is_some()
}

/// Checks the oracle ([`eval`]) against the reference on one input: `None` where the reference
/// does not cover the form, otherwise one line per disagreeing lane (empty when they agree).
///
/// A lane the reference gives as exact bits must be exact in the oracle too (no free field at
/// that lane) and equal; a lane the reference gives as "any NaN" must be an any-NaN set in the
/// oracle. The reference states the spec, so the allowances for hardware deviations from the
/// spec ([`Allowance::CvtFtzF16Input`], [`Allowance::CvtFtzIeeeTininess`]) are off.
pub fn compare(c: &Cvt, x: &CvtInputs) -> Option<Vec<String>> {
    let want = reference(c, x)?;
    let mut failures = Vec::new();
    // The reference states the spec; allowances for hardware deviations from the spec are off.
    let mut allow = Allowances::all();
    allow.disable(Allowance::CvtFtzF16Input);
    allow.disable(Allowance::CvtFtzIeeeTininess);
    let got = eval(c, x, &allow);
    for (shift, w, lane) in want {
        let (bits, nan_free) = lane_of(&got, shift, w);
        let ok = match lane {
            Lane::Bits(b) => bits == b && !got.free.iter().any(|f| f.shift == shift),
            Lane::AnyNan => nan_free,
        };
        if !ok {
            failures.push(format!(
                "{} a={:#x} b={:#x}: lane {shift}+{w}: reference {lane:?}, oracle {got}",
                Form::Cvt(*c).opcode(),
                x.a,
                x.b
            ));
        }
    }
    Some(failures)
}

/// Every legal `cvt` form except `.rs` (stochastic rounding has no apfloat reference), in
/// candidate order. [`covers`] picks the ones the reference models.
pub fn forms() -> Vec<Cvt> {
    Family::Cvt
        .candidates()
        .into_iter()
        .filter_map(|f| match f {
            Form::Cvt(c) if c.check().is_ok() && c.rnd != Some(CvtRnd::Rs) => Some(c),
            _ => None,
        })
        .collect()
}

/// The significant source bits of an instruction type (the input domain of operand `a`).
pub fn source_bits(t: CvtType) -> u32 {
    use CvtType::*;
    match t {
        U8 | S8 | E2m1x2 => 8,
        U16 | S16 | F16 | Bf16 | E4m3x2 | E5m2x2 | E2m3x2 | E3m2x2 | Ue8m0x2 => 16,
        U32 | S32 | F32 | F16x2 | Bf16x2 => 32,
        _ => 64,
    }
}
