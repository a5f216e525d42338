//! The cvt oracle against an independent reference built on `rustc_apfloat` (soft-float,
//! LLVM's APFloat): every legal `cvt` form with 8- or 16-bit source lanes over its whole source
//! domain, and the forms with 32/64-bit sources over stratified edge cases plus random bits.
//!
//! The reference re-states the PTX rules of §9.7.9.21 (NaN results, `.ftz`, `.sat`, `.relu`,
//! `.satfinite`, packing) in its own code; only the IEEE rounding comes from apfloat. FP6/FP4
//! round through an apfloat format with the same precision and minimum exponent and a wide
//! exponent range, then saturate by hand; UE8M0 is checked with direct integer code.

use oracle::isa::{Cvt, CvtRnd, CvtType, Family, Form, FormSpec};
use oracle::semantics::cvt::{eval, CvtInputs};
use oracle::semantics::{Allowance, Allowances, Constraint, Expected};
use rustc_apfloat::ieee::{BFloat, Double, Float8E4M3FN, Float8E5M2, Half, IeeeFloat, Semantics, Single};
use rustc_apfloat::{Float, FloatConvert, Round};

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
enum Lane {
    Bits(u64),
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

/// The reference result of `c` on `x`, as (lane shift, lane width, lane) triples.
fn reference(c: &Cvt, x: &CvtInputs) -> Option<Vec<(u32, u32, Lane)>> {
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

fn compare(c: &Cvt, x: &CvtInputs, failures: &mut Vec<String>) -> bool {
    let Some(want) = reference(c, x) else {
        return false;
    };
    // The reference states the spec; allowances for hardware deviations from the spec are off.
    let mut allow = Allowances::all();
    allow.disable(Allowance::CvtFtzF16Input);
    let got = eval(c, x, &allow);
    for (shift, w, lane) in want {
        let (bits, nan_free) = lane_of(&got, shift, w);
        let ok = match lane {
            Lane::Bits(b) => bits == b && !got.free.iter().any(|f| f.shift == shift),
            Lane::AnyNan => nan_free,
        };
        if !ok && failures.len() < 20 {
            failures.push(format!(
                "{} a={:#x} b={:#x}: lane {shift}+{w}: reference {lane:?}, oracle {got}",
                Form::Cvt(*c).opcode(),
                x.a,
                x.b
            ));
        }
    }
    true
}

fn legal_cvts() -> Vec<Cvt> {
    Family::Cvt
        .candidates()
        .into_iter()
        .filter_map(|f| match f {
            Form::Cvt(c) if c.check().is_ok() && c.rnd != Some(CvtRnd::Rs) => Some(c),
            _ => None,
        })
        .collect()
}

fn source_bits(t: CvtType) -> u32 {
    use CvtType::*;
    match t {
        U8 | S8 | E2m1x2 => 8,
        U16 | S16 | F16 | Bf16 | E4m3x2 | E5m2x2 | E2m3x2 | E3m2x2 | Ue8m0x2 => 16,
        U32 | S32 | F32 | F16x2 | Bf16x2 => 32,
        _ => 64,
    }
}

#[test]
fn every_form_with_8_or_16_bit_sources_matches_the_reference_exhaustively() {
    let mut failures = Vec::new();
    let mut forms = 0;
    let mut cases = 0u64;
    for c in legal_cvts() {
        let two_sources = c.two_f32_sources();
        // Packed 16-bit lanes (f16x2, bf16x2 sources): every lane value, in both lanes at once.
        let per_lane_16 = matches!(c.atype, CvtType::F16x2 | CvtType::Bf16x2);
        if (source_bits(c.atype) > 16 && !per_lane_16) || two_sources {
            continue;
        }
        let n = if per_lane_16 { 1u64 << 16 } else { 1u64 << source_bits(c.atype) };
        let mut checked = false;
        for x in 0..n {
            let a = if per_lane_16 { (x << 16) | (x ^ 0x8001) } else { x };
            checked |= compare(&c, &CvtInputs { a, ..Default::default() }, &mut failures);
            cases += 1;
        }
        if checked {
            forms += 1;
        }
    }
    eprintln!("{forms} forms, {cases} inputs checked exhaustively");
    assert!(forms > 150, "only {forms} forms had a reference");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Inputs per form for 32- and 64-bit sources (issue target: at least 2^24). Set
/// `PTXDIFF_REFERENCE_INPUTS` to change it (e.g. lower for a quick local run).
fn inputs_per_form() -> u64 {
    std::env::var("PTXDIFF_REFERENCE_INPUTS").ok().and_then(|v| v.parse().ok()).unwrap_or(1 << 24)
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Edge cases of a float source with `exp_bits`/`man_bits`: every exponent and sign, with
/// mantissas that are exact ties, ties ± 1, all-ones and sticky patterns at every bit position
/// (so every destination precision meets its ties), plus zero mantissas (powers of two, ±0,
/// ±inf) and NaN payloads.
fn float_edges(exp_bits: u32, man_bits: u32) -> Vec<u64> {
    let mut v = Vec::new();
    let man_mask = (1u64 << man_bits) - 1;
    for sign in [0u64, 1] {
        for e in 0..(1u64 << exp_bits) {
            let base = (sign << (exp_bits + man_bits)) | (e << man_bits);
            v.push(base);
            for bit in 0..man_bits {
                let t = 1u64 << bit;
                for m in [t, t - 1, t + 1, (t << 1) - 1, man_mask ^ t, man_mask & !(t - 1), t | 1] {
                    v.push(base | (m & man_mask));
                }
            }
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// Edge cases of a 64-bit integer source: around every power of two, and the values halfway
/// between neighbours of every destination precision (f64 53, f32 24, f16 11, bf16 8 bits).
fn int64_edges() -> Vec<u64> {
    let mut v = vec![0, 1, u64::MAX, i64::MAX as u64, i64::MIN as u64];
    for p in 0..64u32 {
        let x = 1u64 << p;
        v.extend([x, x - 1, x + 1, x.wrapping_neg(), x.wrapping_neg().wrapping_sub(1)]);
        for prec in [53u32, 24, 11, 8] {
            if p > prec {
                let tie = x | (1u64 << (p - prec));
                v.extend([tie, tie - 1, tie + 1, tie.wrapping_neg()]);
            }
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// `n` inputs of width `bits`: the edges first, then pseudo-random bits.
struct Inputs {
    edges: Vec<u64>,
    mask: u64,
    n: u64,
}

impl Inputs {
    fn new(edges: Vec<u64>, bits: u32, n: u64) -> Self {
        Inputs { n: n.max(edges.len() as u64), edges, mask: if bits == 64 { u64::MAX } else { (1 << bits) - 1 } }
    }
    fn get(&self, i: u64) -> u64 {
        match self.edges.get(i as usize) {
            Some(&e) => e,
            None => splitmix(i) & self.mask,
        }
    }
}

/// Checks every form whose source is `bits` wide on `n` stratified inputs each, forms spread
/// over all cores.
fn check_wide_sources(bits: u32) -> (usize, u64, Vec<String>) {
    let forms: Vec<Cvt> = legal_cvts().into_iter().filter(|c| source_bits(c.atype) == bits).collect();
    let n = inputs_per_form();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    let checked_forms = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |t| t.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(c) = forms.get(k) else { break };
                let inputs = match c.atype {
                    CvtType::F64 => Inputs::new(float_edges(11, 52), 64, n),
                    CvtType::U64 | CvtType::S64 => Inputs::new(int64_edges(), 64, n),
                    CvtType::F32 => Inputs::new(float_edges(8, 23), 32, n),
                    // f16x2 / bf16x2 sources: edges of each half, paired with random halves.
                    CvtType::F16x2 => Inputs::new(
                        float_edges(5, 10).iter().map(|&h| h << 16 | (splitmix(h) & 0xFFFF)).collect(),
                        32,
                        n,
                    ),
                    CvtType::Bf16x2 => Inputs::new(
                        float_edges(8, 7).iter().map(|&h| h << 16 | (splitmix(h) & 0xFFFF)).collect(),
                        32,
                        n,
                    ),
                    _ => Inputs::new(Vec::new(), bits, n),
                };
                let mut local = Vec::new();
                let mut checked = false;
                for i in 0..inputs.n {
                    let a = inputs.get(i);
                    let b = inputs.get((i.wrapping_mul(7919).wrapping_add(13)) % inputs.n);
                    checked |= compare(c, &CvtInputs { a, b, ..Default::default() }, &mut local);
                    if local.len() >= 5 {
                        break;
                    }
                }
                if checked {
                    checked_forms.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                failures.lock().unwrap().extend(local);
            });
        }
    });
    (checked_forms.into_inner(), n, failures.into_inner().unwrap())
}

#[test]
fn forms_with_32_bit_sources_match_the_reference_on_stratified_inputs() {
    let (forms, n, failures) = check_wide_sources(32);
    eprintln!("{forms} forms with 32-bit sources x {n} stratified inputs");
    assert!(forms > 100, "only {forms} forms had a reference");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn forms_with_64_bit_sources_match_the_reference_on_stratified_inputs() {
    let (forms, n, failures) = check_wide_sources(64);
    eprintln!("{forms} forms with 64-bit sources x {n} stratified inputs");
    assert!(forms > 50, "only {forms} forms had a reference");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
