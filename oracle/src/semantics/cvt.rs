//! Semantics of `cvt` (§9.7.9.21) for every form the ISA model admits.
//!
//! Each conversion decodes the source exactly, applies the instruction's rules (`.ftz` input
//! flush, NaN rules, `.relu`, `.sat`, `.satfinite`), rounds once with the shared engine
//! ([`crate::num::encode`]) and packs the lanes as the Semantics block of §9.7.9.21 lays them out.
//! Results are [`Expected`] values: exact except where an [`Allowance`] grants freedom.

use crate::isa::{Cvt, CvtRnd, CvtType};
use crate::num::{
    self, decode, encode, round_to_integer, round_to_integral, Format, Overflow, Rounding, Value, E2M1, E2M3, E3M2,
    E4M3, E5M2, TF32, UE8M0,
};

use super::{Allowance, Allowances, Constraint, Expected, Free};

/// The source operands of one `cvt`, as raw bits at their instruction-type widths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CvtInputs {
    /// `a`.
    pub a: u64,
    /// `b` (x2 forms from two `.f32`).
    pub b: u64,
    /// `e` (x4 forms).
    pub e: u64,
    /// `f` (x4 forms).
    pub f: u64,
    /// `rbits` (`.rs`).
    pub rbits: u32,
}

/// The float format of a scalar or element type.
pub fn format_of(t: CvtType) -> Option<&'static Format> {
    use CvtType::*;
    Some(match t {
        F64 => &num::F64,
        F32 => &num::F32,
        F16 | F16x2 => &num::F16,
        Bf16 | Bf16x2 => &num::BF16,
        Tf32 => &TF32,
        E4m3x2 | E4m3x4 => &E4M3,
        E5m2x2 | E5m2x4 => &E5M2,
        E2m3x2 | E2m3x4 => &E2M3,
        E3m2x2 | E3m2x4 => &E3M2,
        E2m1x2 | E2m1x4 => &E2M1,
        Ue8m0x2 => &UE8M0,
        _ => return None,
    })
}

fn rounding(r: Option<CvtRnd>) -> Rounding {
    match r {
        Some(CvtRnd::Rn | CvtRnd::Rni) | None => Rounding::NearestEven,
        Some(CvtRnd::Rna) => Rounding::NearestAway,
        Some(CvtRnd::Rz | CvtRnd::Rzi) => Rounding::TowardZero,
        Some(CvtRnd::Rm | CvtRnd::Rmi) => Rounding::Down,
        Some(CvtRnd::Rp | CvtRnd::Rpi) => Rounding::Up,
        // Replaced per lane by the caller, which knows the rbits layout.
        Some(CvtRnd::Rs) => Rounding::TowardZero,
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The integer an integer-typed operand holds (sign- or zero-extended).
fn int_value(t: CvtType, bits: u64) -> i128 {
    let w = t.bits();
    let v = bits & mask(w);
    if t.is_signed_int() && (v >> (w - 1)) & 1 == 1 {
        v as i128 - (1i128 << w)
    } else {
        v as i128
    }
}

fn int_range(t: CvtType) -> (i128, i128) {
    let w = t.bits();
    if t.is_signed_int() {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    }
}

/// The NaN a result takes when the spec leaves it free: any NaN under `allow`, else the
/// canonical NaN.
fn free_nan(fmt: &'static Format, allowance: Allowance, allow: &Allowances) -> Expected {
    let bits = fmt.canonical_nan_bits().unwrap_or(0) as u128;
    let width = fmt.bits();
    if allow.allows(allowance) {
        Expected { bits, width, free: vec![Free { shift: 0, width, constraint: Constraint::AnyNan(fmt), allowance }] }
    } else {
        Expected::exact(bits, width)
    }
}

fn is_f32_subnormal(bits: u64) -> bool {
    bits & 0x7F80_0000 == 0 && bits & 0x007F_FFFF != 0
}

/// Post-rounding rules shared by float destinations.
struct FloatRules {
    relu: bool,
    satfinite: bool,
    sat: bool,
    ftz_result: bool,
    mode: Rounding,
}

/// Converts one value into a float format under `rules`.
fn to_float(
    v: Value,
    dst: &'static Format,
    rules: &FloatRules,
    nan_allowance: Allowance,
    allow: &Allowances,
) -> Expected {
    let width = dst.bits();
    if v.is_nan() {
        if rules.sat {
            return Expected::exact(0, width);
        }
        if rules.relu {
            return match dst.canonical_nan_bits() {
                Some(b) => Expected::exact(b as u128, width),
                None => Expected::exact(dst.max_finite_bits() as u128, width),
            };
        }
        if !dst.has_nan() {
            // .satfinite to FP6/FP4: NaN becomes +MAX_NORM (§9.7.9.21 Saturation modifier).
            return Expected::exact(dst.max_finite_bits() as u128, width);
        }
        return free_nan(dst, nan_allowance, allow);
    }
    let overflow = if rules.satfinite { Overflow::Saturate } else { Overflow::Ieee };
    let mut bits = encode(dst, v, rules.mode, overflow).bits;
    let sign = if dst.signed { 1u64 << dst.sign_shift() } else { 0 };
    let neg = dst.signed && bits & sign != 0;
    let exp_field = (bits >> dst.man_bits) & u64::from(dst.max_exp_field());
    if rules.ftz_result && exp_field == 0 {
        bits &= sign;
    }
    if rules.relu && neg {
        bits = 0;
    }
    if rules.sat {
        let one = encode(dst, Value::Finite { neg: false, sig: 1, exp: 0 }, Rounding::NearestEven, Overflow::Ieee).bits;
        if neg {
            bits = 0;
        } else if bits > one {
            bits = one;
        }
    }
    Expected::exact(bits as u128, width)
}

/// The value of a float source element, flushing f32 subnormals under `.ftz`.
fn float_source(fmt: &'static Format, bits: u64, ftz: bool) -> Value {
    if ftz && fmt.bits() == 32 && fmt.man_bits == 23 && is_f32_subnormal(bits) {
        return Value::Zero { neg: bits >> 31 == 1 };
    }
    decode(fmt, bits)
}

/// Evaluates `cvt` form `c` on `x`. The form must be legal (`c.check()` is `Ok`).
pub fn eval(c: &Cvt, x: &CvtInputs, allow: &Allowances) -> Expected {
    use CvtType::*;
    let (d, a) = (c.dtype, c.atype);
    let rules =
        |mode| FloatRules { relu: c.relu, satfinite: c.satfinite, sat: c.sat, ftz_result: c.ftz && d == F32, mode };
    if d.is_scalar() && a.is_scalar() {
        return eval_scalar(c, x.a, allow);
    }
    let mode = rounding(c.rnd);
    let rs = c.rnd == Some(CvtRnd::Rs);
    let stochastic = |rbits: u32, width: u32| {
        if rs {
            Rounding::Stochastic { rbits, width }
        } else {
            mode
        }
    };
    match (d, a) {
        (F16x2 | Bf16x2, F32) => {
            let (dst, w) = if d == F16x2 { (&num::F16, 13) } else { (&num::BF16, 16) };
            let ra = (x.rbits >> 16) & 0xFFFF;
            let rb = x.rbits & 0xFFFF;
            let hi = to_float(decode(&num::F32, x.a), dst, &rules(stochastic(ra, w)), Allowance::NanPayload, allow);
            let lo = to_float(decode(&num::F32, x.b), dst, &rules(stochastic(rb, w)), Allowance::NanPayload, allow);
            pack(32, &[(16, hi), (0, lo)])
        }
        (Tf32, F32) => {
            let e = to_float(decode(&num::F32, x.a), &TF32, &rules(mode), Allowance::NanPayload, allow);
            // tf32 lives in the top 19 bits of a .b32 (f32 layout, low 13 bits zero).
            let mut out = Expected::exact(0, 32);
            out.insert(13, e);
            if !out.is_exact() {
                // A NaN: any f32 NaN, as the 13 low bits are not promised to be zero for NaNs.
                return free_nan(&num::F32, Allowance::NanPayload, allow);
            }
            out
        }
        (E4m3x2 | E5m2x2 | E2m1x2 | E2m3x2 | E3m2x2, F32) => {
            let dst = format_of(d).expect("packed FP8/FP6/FP4");
            let lane = (if d == E2m1x2 { 4 } else { 8 }) as u32;
            let hi = to_float(decode(&num::F32, x.a), dst, &rules(mode), Allowance::NanPayload, allow);
            let lo = to_float(decode(&num::F32, x.b), dst, &rules(mode), Allowance::NanPayload, allow);
            pack(2 * lane, &[(lane, hi), (0, lo)])
        }
        (E4m3x2 | E5m2x2, F16x2) => {
            let dst = format_of(d).expect("FP8");
            let hi = to_float(decode(&num::F16, x.a >> 16), dst, &rules(mode), Allowance::NanPayload, allow);
            let lo = to_float(decode(&num::F16, x.a), dst, &rules(mode), Allowance::NanPayload, allow);
            pack(16, &[(8, hi), (0, lo)])
        }
        (F16x2, E4m3x2 | E5m2x2 | E2m1x2 | E2m3x2 | E3m2x2) => {
            let src = format_of(a).expect("FP8/FP6/FP4");
            let lane: u32 = if a == E2m1x2 { 4 } else { 8 };
            let r = rules(mode);
            let half = |bits: u64| -> Expected {
                let pad = bits & mask(lane) & !mask(src.bits());
                let e = to_float(decode(src, bits), &num::F16, &r, Allowance::NanPayload, allow);
                if pad != 0 && allow.allows(Allowance::Fp6PaddingBits) {
                    return Expected {
                        bits: e.bits,
                        width: 16,
                        free: vec![Free {
                            shift: 0,
                            width: 16,
                            constraint: Constraint::Any,
                            allowance: Allowance::Fp6PaddingBits,
                        }],
                    };
                }
                e
            };
            pack(32, &[(16, half((x.a >> lane) & mask(lane))), (0, half(x.a & mask(lane)))])
        }
        (E4m3x4 | E5m2x4 | E2m3x4 | E3m2x4 | E2m1x4, F32) => {
            let dst = format_of(d).expect("x4");
            let (lane, w, r) = if d == E2m1x4 {
                // e2m1x4: the upper byte of each 16-bit half of rbits for a, b; the lower byte
                // of each half for e, f (§9.7.9.21, Figure 40).
                (4u32, 8, [(x.rbits >> 24) & 0xFF, (x.rbits >> 8) & 0xFF, (x.rbits >> 16) & 0xFF, x.rbits & 0xFF])
            } else {
                // FP8/FP6 x4: the upper 16 bits of rbits for a and b, the lower 16 for e and f.
                let (hi, lo) = ((x.rbits >> 16) & 0xFFFF, x.rbits & 0xFFFF);
                (8u32, 16, [hi, hi, lo, lo])
            };
            let srcs = [x.a, x.b, x.e, x.f];
            let lanes: Vec<(u32, Expected)> = (0..4)
                .map(|i| {
                    let v = decode(&num::F32, srcs[i]);
                    (lane * (3 - i as u32), to_float(v, dst, &rules(stochastic(r[i], w)), Allowance::NanPayload, allow))
                })
                .collect();
            pack(4 * lane, &lanes)
        }
        (Ue8m0x2, F32 | Bf16x2) => {
            let r = FloatRules { relu: false, satfinite: c.satfinite, sat: false, ftz_result: false, mode };
            let (va, vb) = if a == F32 {
                (decode(&num::F32, x.a), decode(&num::F32, x.b))
            } else {
                (decode(&num::BF16, x.a >> 16), decode(&num::BF16, x.a))
            };
            // UE8M0 has a single NaN, 0xFF: no freedom.
            let conv = |v: Value| Expected::exact(ue8m0(v, &r) as u128, 8);
            pack(16, &[(8, conv(va)), (0, conv(vb))])
        }
        (Bf16x2, Ue8m0x2) => {
            let r = rules(mode);
            let conv = |b: u64| to_float(decode(&UE8M0, b), &num::BF16, &r, Allowance::NanPayload, allow);
            pack(32, &[(16, conv((x.a >> 8) & 0xFF)), (0, conv(x.a & 0xFF))])
        }
        _ => unreachable!("cvt.{}.{} is not a legal form", d, a),
    }
}

fn ue8m0(v: Value, r: &FloatRules) -> u64 {
    if v.is_nan() {
        return 0xFF;
    }
    let overflow = if r.satfinite { Overflow::Saturate } else { Overflow::Ieee };
    encode(&UE8M0, v, r.mode, overflow).bits
}

fn pack(width: u32, lanes: &[(u32, Expected)]) -> Expected {
    let mut out = Expected::exact(0, width);
    for (shift, e) in lanes {
        out.insert(*shift, e.clone());
    }
    out
}

fn eval_scalar(c: &Cvt, a_bits: u64, allow: &Allowances) -> Expected {
    use CvtType::*;
    let (d, a) = (c.dtype, c.atype);
    let width = d.bits();
    let mode = rounding(c.rnd);
    let src_fmt = format_of(a);
    let value = match src_fmt {
        Some(fmt) => float_source(fmt, a_bits & mask(a.bits()), c.ftz),
        None => Value::from_int(int_value(a, a_bits)),
    };
    if d.is_int() {
        let (lo, hi) = int_range(d);
        let v = if a.is_int() {
            let v = int_value(a, a_bits);
            if c.sat {
                v.clamp(lo, hi)
            } else {
                v
            }
        } else {
            match round_to_integer(value, mode) {
                Some(v) => v.clamp(lo, hi),
                // NaN: 0, or 1 << (bits-1) when the source is .f64 or the destination 64-bit
                // (§9.7.9.21 Integer Notes).
                None if a == F64 || width == 64 => 1i128 << (width - 1),
                None => 0,
            }
        };
        return Expected::exact((v as u128) & (mask(width) as u128), width);
    }
    let dst = format_of(d).expect("float destination");
    let nan_allowance = if d == F32 && a == Bf16 { Allowance::CvtF32Bf16Nan } else { Allowance::NanPayload };
    if d == a && c.rnd.is_some_and(CvtRnd::is_integer) {
        // Round to an integral value in the same format; zero keeps its sign.
        let rounded = round_to_integral(value, mode);
        let r = FloatRules { relu: false, satfinite: false, sat: c.sat, ftz_result: c.ftz && d == F32, mode };
        return to_float(rounded, dst, &r, nan_allowance, allow);
    }
    let r = FloatRules { relu: c.relu, satfinite: c.satfinite, sat: c.sat, ftz_result: c.ftz && d == F32, mode };
    let flushed = to_float(value, dst, &r, nan_allowance, allow);
    // Hardware deviation (allowance `cvt-ftz-f16-input`): sm_90 converts a subnormal f32
    // input of `cvt.ftz.f16.f32` as if `.ftz` were absent.
    let subnormal_input = a == F32 && is_f32_subnormal(a_bits & 0xFFFF_FFFF);
    if c.ftz && d == F16 && subnormal_input && allow.allows(Allowance::CvtFtzF16Input) {
        let kept = to_float(float_source(&num::F32, a_bits & 0xFFFF_FFFF, false), dst, &r, nan_allowance, allow);
        if kept.bits != flushed.bits {
            return Expected {
                bits: flushed.bits,
                width: flushed.width,
                free: vec![Free {
                    shift: 0,
                    width: flushed.width,
                    constraint: Constraint::OrValue(kept.bits),
                    allowance: Allowance::CvtFtzF16Input,
                }],
            };
        }
    }
    flushed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Form, FormSpec};

    fn cvt(s: &str) -> Cvt {
        match Form::parse_opcode(s) {
            Ok(Form::Cvt(c)) if c.check().is_ok() => c,
            other => panic!("{s}: not a legal cvt form: {other:?}"),
        }
    }

    fn run(s: &str, a: u64, b: u64) -> Expected {
        eval(&cvt(s), &CvtInputs { a, b, ..Default::default() }, &Allowances::all())
    }

    #[test]
    fn spec_rules_for_integers() {
        assert_eq!(run("cvt.rzi.s32.f32", 0x7FC0_0000, 0).bits, 0, "NaN -> 0");
        assert_eq!(run("cvt.rzi.s64.f32", 0x7FC0_0000, 0).bits, 1 << 63, "NaN -> MININT for 64-bit");
        assert_eq!(run("cvt.rzi.s32.f64", 0x7FF8_0000_0000_0000, 0).bits, 0x8000_0000, "NaN from f64");
        assert_eq!(run("cvt.rni.u8.f32", 0x4380_0000, 0).bits, 0xFF, "256 clamps to 255");
        assert_eq!(run("cvt.rni.s8.f32", 0xC380_0000, 0).bits, 0x80, "-256 clamps to -128");
        assert_eq!(run("cvt.u8.s32", 0xFFFF_FF01, 0).bits, 0x01, "truncation");
        assert_eq!(run("cvt.sat.u8.s32", 0xFFFF_FF01, 0).bits, 0x00, ".sat clamps");
        assert_eq!(run("cvt.s64.s8", 0x80, 0).bits, 0xFFFF_FFFF_FFFF_FF80, "sign extension");
    }

    #[test]
    fn spec_rules_for_floats() {
        assert_eq!(run("cvt.rn.f16.f32", 0x3F80_0000, 0).bits, 0x3C00);
        let nan = run("cvt.rn.f16.f32", 0x7F80_0001, 0);
        assert!(nan.matches(0x7FFF) && nan.matches(0xFE00) && !nan.matches(0x7C00));
        assert_eq!(run("cvt.rn.relu.f16.f32", 0x7F80_0001, 0).bits, 0x7FFF, "relu: canonical NaN");
        assert_eq!(run("cvt.rn.relu.f16.f32", 0xBF80_0000, 0).bits, 0, "relu clamps negatives");
        assert_eq!(run("cvt.rn.satfinite.f16.f32", 0x7F80_0000, 0).bits, 0x7BFF);
        assert_eq!(run("cvt.rn.sat.f16.f32", 0x4000_0000, 0).bits, 0x3C00, ".sat limits to 1.0");
        assert_eq!(run("cvt.ftz.f32.f32", 0x0000_0001, 0).bits, 0);
        assert_eq!(run("cvt.rni.f32.f32", 0xBE99_999A, 0).bits, 0x8000_0000, "-0.3 rounds to -0");
        assert_eq!(run("cvt.rz.f16x2.f32", 0x3F80_0000, 0x4000_0000).bits, 0x3C00_4000, "a goes high");
        assert_eq!(run("cvt.rn.satfinite.e4m3x2.f32", 0x43E0_0000, 0xFF80_0000).bits, 0x7EFE, "448 and -inf");
        assert_eq!(run("cvt.rn.f16x2.e4m3x2", 0x7E01, 0).bits, 0x5F00_1800, "448 and 2^-9");
        let f32bf16 = run("cvt.f32.bf16", 0x7FC1, 0);
        assert_eq!(f32bf16.free[0].allowance, Allowance::CvtF32Bf16Nan);
        assert_eq!(run("cvt.rn.satfinite.e2m1x2.f32", 0x7FC0_0000, 0xC2C8_0000).bits, 0x7F, "NaN -> +6, -100 -> -6");
        assert_eq!(
            run("cvt.rn.satfinite.e3m2x2.f32", 0x41E0_0000, 0x3E80_0000).bits,
            0x1F04,
            "28 and 0.25, top bits zero"
        );
        assert_eq!(
            run("cvt.rz.satfinite.ue8m0x2.f32", 0x7F80_0000, 0x3FC0_0000).bits,
            0xFE7F,
            "inf saturates; 1.5 -> 1"
        );
        assert_eq!(run("cvt.rp.ue8m0x2.f32", 0x7F80_0000, 0x3FC0_0000).bits, 0xFF80, "inf -> NaN; 1.5 -> 2");
        assert_eq!(run("cvt.rn.bf16x2.ue8m0x2", 0x7F00, 0).bits, 0x3F80_0040, "1.0 and 2^-127 (bf16 subnormal)");
        assert_eq!(run("cvt.rna.tf32.f32", 0x3F80_1000, 0).bits, 0x3F80_2000, "tie rounds away");
    }

    /// `.rs` with all-zero random bits truncates (no carry is possible), and with all-ones
    /// random bits rounds every inexact lane away from zero; lanes take their rbits from the
    /// layout of §9.7.9.21 (checked by giving one lane zeros and the other ones).
    #[test]
    fn stochastic_rounding_uses_the_rbits_layout() {
        let third = 0x3EAA_AAAB; // 1/3: inexact in every destination
        let neg_third = 0xBEAA_AAAB;
        let run_rs = |s: &str, a: u64, b: u64, e: u64, f: u64, rbits: u32| {
            eval(&cvt(s), &CvtInputs { a, b, e, f, rbits }, &Allowances::all()).bits
        };
        // f16x2: a uses rbits[28:16], b uses rbits[12:0].
        let rz = run("cvt.rz.f16x2.f32", third, neg_third).bits;
        assert_eq!(run_rs("cvt.rs.f16x2.f32", third, neg_third, 0, 0, 0), rz);
        let a_away = run_rs("cvt.rs.f16x2.f32", third, neg_third, 0, 0, 0x1FFF_0000);
        assert_eq!(a_away, rz + 0x0001_0000, "only a rounds away");
        let b_away = run_rs("cvt.rs.f16x2.f32", third, neg_third, 0, 0, 0x0000_1FFF);
        assert_eq!(b_away, rz + 1, "only b rounds away (magnitude + 1 ulp)");
        // bf16x2: 16 random bits per lane.
        let rz = run("cvt.rz.bf16x2.f32", third, third).bits;
        assert_eq!(run_rs("cvt.rs.bf16x2.f32", third, third, 0, 0, 0xFFFF_0000), rz + 0x0001_0000);
        // e4m3x4: a and b share rbits[31:16]; e and f share rbits[15:0].
        let base = run_rs("cvt.rs.satfinite.e4m3x4.f32", third, third, third, third, 0);
        let hi = run_rs("cvt.rs.satfinite.e4m3x4.f32", third, third, third, third, 0xFFFF_0000);
        assert_eq!(hi, base + 0x0101_0000);
        // e2m1x4: a ← rbits[31:24], b ← rbits[15:8], e ← rbits[23:16], f ← rbits[7:0].
        let base = run_rs("cvt.rs.satfinite.e2m1x4.f32", 0x3F40_0000, 0x3F40_0000, 0x3F40_0000, 0x3F40_0000, 0);
        let b_only =
            run_rs("cvt.rs.satfinite.e2m1x4.f32", 0x3F40_0000, 0x3F40_0000, 0x3F40_0000, 0x3F40_0000, 0x0000_FF00);
        assert_eq!(b_only, base + 0x0100, "0.75 -> 1.0 in lane b only");
    }

    /// Recorded on an H200 (corpus/evidence/cvt-ftz-f16-input.md): `cvt.rp.ftz.f16.f32` of the
    /// smallest positive f32 subnormal gives 0x0001, not the flushed 0x0000.
    #[test]
    fn cvt_ftz_f16_keeps_subnormal_inputs_on_hardware() {
        let e = run("cvt.rp.ftz.f16.f32", 0x0000_0001, 0);
        assert!(e.matches(0x0000) && e.matches(0x0001) && !e.matches(0x0002));
        let strict = eval(&cvt("cvt.rp.ftz.f16.f32"), &CvtInputs { a: 1, ..Default::default() }, &Allowances::none());
        assert!(strict.is_exact() && strict.bits == 0);
        assert!(run("cvt.rn.ftz.f16.f32", 0x0000_0001, 0).is_exact(), "no set where both readings agree");
    }

    #[test]
    fn allowances_can_be_switched_off() {
        let c = cvt("cvt.rn.f16.f32");
        let e = eval(&c, &CvtInputs { a: 0x7F80_0001, ..Default::default() }, &Allowances::none());
        assert!(e.is_exact());
        assert_eq!(e.bits, 0x7FFF);
    }
}
