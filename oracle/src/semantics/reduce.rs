//! The element operation of the bulk reductions `cp.reduce.async.bulk` (§9.7.9.25.4.2) and
//! `cp.reduce.async.bulk.tensor` (§9.7.9.25.5.3): `dst = dst op src` for one element.
//!
//! - The `.redOp`/`.type` pairs are those of the §9.7.9.25.4.2 table (the `.global` rows, which
//!   contain the `.shared::cluster` ones), read from the ISA model's own table
//!   ([`crate::isa::reduce_pair_allowed`]); any other pair is a [`ReduceError`].
//! - Integer `.add` wraps; `.min`/`.max` compare as the type's signedness says; `.inc`/`.dec` are
//!   those of `atom` (§9.7.13.5): `inc` gives `(dst >= src) ? 0 : dst + 1`, `dec` gives
//!   `(dst == 0 || dst > src) ? src : dst - 1` — "a result in the range [0..x] where x is the
//!   value at the source state space" (§9.7.9.25.4.2).
//! - Float `.add` "rounds to the nearest even": the exact sum is formed on integer significands
//!   (a sticky bit stands for an operand far below the other's last bit, which cannot change a
//!   round-to-nearest result) and rounded once by the one rounding engine, [`crate::num::encode`].
//!   `.add.f32` "flushes subnormal inputs and results to sign-preserving zero" (the result is
//!   flushed when its rounded value is subnormal); `.add.noftz.f16`/`.bf16` keep subnormals, and
//!   so does `.f64`.
//! - Float `.min`/`.max` (f16, bf16): §9.7.9.25.4.2 is silent on NaNs and on the sign of zero.
//!   The model follows `min`/`max` (IEEE 754 minNum/maxNum): a NaN operand gives the other
//!   operand; two NaNs give a NaN. `min`/`max` of `+0` and `−0` may give either zero (allowance
//!   [`Allowance::ReduceMinMaxZero`]).
//! - A NaN result may be any NaN of the type (allowance [`Allowance::ReduceNanPayload`]; off, the
//!   canonical NaN).
//!
//! Invariant: every result is exact or a set whose freedom names its allowance; nothing here
//! rounds except `encode`.

use thiserror::Error;

use super::cvt::free_nan;
use super::{Allowance, Allowances, Deviation, Expected};
use crate::isa::{reduce_pair_allowed, RedOp, ReduceType};
use crate::num::{self, decode, encode, Class, Format, Overflow, Rounding, Value};

/// A `.redOp`/`.type` pair that §9.7.9.25.4.2 does not allow.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("`.{op}.{ty}` is not a `.redOp`/`.type` pair of cp.reduce.async.bulk (§9.7.9.25.4.2 table)")]
pub struct ReduceError {
    /// The operation.
    pub op: RedOp,
    /// The element type.
    pub ty: ReduceType,
}

/// The width of an element of `ty` in bits.
pub fn element_bits(ty: ReduceType) -> u32 {
    use ReduceType::*;
    match ty {
        F16 | Bf16 => 16,
        B32 | U32 | S32 | F32 => 32,
        B64 | U64 | S64 | F64 => 64,
    }
}

/// The float format of `ty`, if it is a float type.
fn float_format(ty: ReduceType) -> Option<&'static Format> {
    match ty {
        ReduceType::F16 => Some(&num::F16),
        ReduceType::Bf16 => Some(&num::BF16),
        ReduceType::F32 => Some(&num::F32),
        ReduceType::F64 => Some(&num::F64),
        _ => None,
    }
}

/// One element of `cp.reduce.async.bulk{.tensor}` (§9.7.9.25.4.2): `dst op src` for `.redOp`
/// and `.type`; floats through the one rounding engine (`crate::num`), add rounded to nearest
/// even; `noftz` as the form says (f16/bf16 `.noftz`), f32 add flushing subnormals as the spec
/// says. Values are the element's bits (low `ty` bits); every allowance is on.
pub fn reduce(op: RedOp, ty: ReduceType, dst: u64, src: u64) -> Result<Expected, ReduceError> {
    reduce_with(op, ty, dst, src, &Allowances::all())
}

/// [`reduce`] under the allowances `allow` (an allowance switched off makes its set the one
/// strict value).
pub fn reduce_with(op: RedOp, ty: ReduceType, dst: u64, src: u64, allow: &Allowances) -> Result<Expected, ReduceError> {
    if !reduce_pair_allowed(op, ty) {
        return Err(ReduceError { op, ty });
    }
    let width = element_bits(ty);
    let mask = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
    let (a, b) = (dst & mask, src & mask);
    if let Some(fmt) = float_format(ty) {
        return Ok(match op {
            RedOp::Add => {
                let ftz = ty == ReduceType::F32 && !allow.emulates(Deviation::ReduceAddF32KeepsSubnormals);
                float_add(fmt, a, b, ftz, allow)
            }
            _ => float_min_max(fmt, op == RedOp::Min, a, b, allow),
        });
    }
    let signed = matches!(ty, ReduceType::S32 | ReduceType::S64);
    let sext = |v: u64| -> i64 {
        let sh = 64 - width;
        ((v << sh) as i64) >> sh
    };
    let bits = match op {
        RedOp::And => a & b,
        RedOp::Or => a | b,
        RedOp::Xor => a ^ b,
        RedOp::Add => a.wrapping_add(b) & mask,
        RedOp::Inc => {
            if a >= b {
                0
            } else {
                a + 1
            }
        }
        RedOp::Dec => {
            if a == 0 || a > b {
                b
            } else {
                a - 1
            }
        }
        RedOp::Min | RedOp::Max => {
            let a_less = if signed { sext(a) < sext(b) } else { a < b };
            let take_a = a_less == (op == RedOp::Min);
            if take_a {
                a
            } else {
                b
            }
        }
    };
    Ok(Expected::exact(u128::from(bits), width))
}

/// `a` with an f32 subnormal flushed to the zero of its sign when `ftz`.
fn flushed(fmt: &Format, bits: u64, ftz: bool) -> u64 {
    if ftz && num::classify(fmt, bits) == Class::Subnormal {
        bits & (1u64 << fmt.sign_shift())
    } else {
        bits
    }
}

/// `.add` of two float elements.
fn float_add(fmt: &'static Format, a: u64, b: u64, ftz: bool, allow: &Allowances) -> Expected {
    let width = fmt.bits();
    let (x, y) = (decode(fmt, flushed(fmt, a, ftz)), decode(fmt, flushed(fmt, b, ftz)));
    let sum = match (x, y) {
        (Value::Nan { .. }, _) | (_, Value::Nan { .. }) => None,
        (Value::Inf { neg: p }, Value::Inf { neg: q }) if p != q => None,
        (Value::Inf { neg }, _) | (_, Value::Inf { neg }) => Some(Value::Inf { neg }),
        // Round to nearest: x + (−x) is +0, and −0 + −0 is −0 (IEEE 754 §6.3).
        (Value::Zero { neg: p }, Value::Zero { neg: q }) => Some(Value::Zero { neg: p && q }),
        (Value::Zero { .. }, v) | (v, Value::Zero { .. }) => Some(v),
        (Value::Finite { neg: p, sig: s, exp: e }, Value::Finite { neg: q, sig: t, exp: f }) => {
            Some(exact_sum((p, s, e), (q, t, f)))
        }
    };
    let Some(sum) = sum else { return free_nan(fmt, Allowance::ReduceNanPayload, allow) };
    let bits = encode(fmt, sum, Rounding::NearestEven, Overflow::Ieee).bits;
    Expected::exact(u128::from(flushed(fmt, bits, ftz)), width)
}

/// The exact sum of two nonzero finite values `(neg, sig, exp)` with significands below 2^54,
/// as a [`Value`] whose significand fits 64 bits. Where the exact significand is wider, the
/// bits below the top 63 are replaced by a sticky bit; where one operand lies entirely more
/// than 64 bits below the other's last bit, it becomes a sticky bit three places below that
/// last bit. Neither changes a round-to-nearest result at any precision of the formats here
/// (at most 53 bits), since the rounding point stays at least two bits above the sticky bit.
fn exact_sum(x: (bool, u64, i32), y: (bool, u64, i32)) -> Value {
    let (hi, lo) = if x.2 >= y.2 { (x, y) } else { (y, x) };
    let d = (hi.2 - lo.2) as u32;
    let (big, small, exp) = if d <= 64 {
        ((u128::from(hi.1)) << d, u128::from(lo.1), lo.2)
    } else {
        (u128::from(hi.1) << 3, 1u128, hi.2 - 3)
    };
    let (mag, neg) = if hi.0 == lo.0 {
        (big + small, hi.0)
    } else if big >= small {
        (big - small, hi.0)
    } else {
        (small - big, lo.0)
    };
    if mag == 0 {
        return Value::Zero { neg: false };
    }
    let width = 128 - mag.leading_zeros();
    if width <= 64 {
        return Value::Finite { neg, sig: mag as u64, exp };
    }
    let sh = width - 63;
    let sticky = u128::from(mag & ((1u128 << sh) - 1) != 0);
    Value::Finite { neg, sig: ((mag >> sh) | sticky) as u64, exp: exp + sh as i32 }
}

/// `.min`/`.max` of two float elements (f16, bf16).
fn float_min_max(fmt: &'static Format, min: bool, a: u64, b: u64, allow: &Allowances) -> Expected {
    let width = fmt.bits();
    let (x, y) = (decode(fmt, a), decode(fmt, b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => return free_nan(fmt, Allowance::ReduceNanPayload, allow),
        (true, false) => return Expected::exact(u128::from(b), width),
        (false, true) => return Expected::exact(u128::from(a), width),
        (false, false) => {}
    }
    if let (Value::Zero { neg: p }, Value::Zero { neg: q }) = (x, y) {
        if p != q {
            // IEEE 754-2019 minimum/maximum: −0 < +0. The other zero under the allowance.
            let neg_zero = 1u64 << fmt.sign_shift();
            let (strict, other) = if min { (neg_zero, 0) } else { (0, neg_zero) };
            let e = Expected::exact(u128::from(strict), width);
            if allow.allows(Allowance::ReduceMinMaxZero) {
                return e.or_value(u128::from(other), Allowance::ReduceMinMaxZero);
            }
            return e;
        }
        return Expected::exact(u128::from(a), width);
    }
    // Non-NaN values of an IEEE format order like their sign-magnitude bit patterns.
    let sign = 1u64 << fmt.sign_shift();
    let key = |v: u64| -> i64 {
        let mag = (v & !sign) as i64;
        if v & sign != 0 {
            -mag
        } else {
            mag
        }
    };
    let take_a = if min { key(a) <= key(b) } else { key(a) >= key(b) };
    Expected::exact(u128::from(if take_a { a } else { b }), width)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::qualifier::Qualifier;

    /// A deterministic generator for sampled inputs.
    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        *seed ^ (*seed >> 29)
    }

    fn exact(op: RedOp, ty: ReduceType, a: u64, b: u64) -> u64 {
        let e = reduce(op, ty, a, b).unwrap_or_else(|e| panic!("{e}"));
        assert!(e.is_exact(), "{op}.{ty} {a:#x} {b:#x}: {e}");
        e.bits as u64
    }

    const EDGES32: [u64; 10] =
        [0, 1, 2, 0x7FFF_FFFE, 0x7FFF_FFFF, 0x8000_0000, 0x8000_0001, 0xFFFF_FFFE, 0xFFFF_FFFF, 0x1234_5678];
    const EDGES64: [u64; 9] = [
        0,
        1,
        0x7FFF_FFFF_FFFF_FFFF,
        0x8000_0000_0000_0000,
        0xFFFF_FFFF_FFFF_FFFF,
        0xFFFF_FFFF,
        0x1_0000_0000,
        0xFFFF_FFFF_FFFF_FFFE,
        0x0123_4567_89AB_CDEF,
    ];

    #[test]
    fn pairs_follow_the_table() {
        assert_eq!(reduce(RedOp::Inc, ReduceType::F32, 0, 0), Err(ReduceError { op: RedOp::Inc, ty: ReduceType::F32 }));
        assert!(reduce(RedOp::Xor, ReduceType::S32, 0, 0).is_err(), "not in the table");
        assert!(reduce(RedOp::Add, ReduceType::S64, 0, 0).is_err(), "no .add.s64");
        assert!(reduce(RedOp::Min, ReduceType::F32, 0, 0).is_err(), "no float min but f16/bf16");
        let mut allowed = 0;
        for &op in RedOp::ALL {
            for &ty in ReduceType::ALL {
                allowed += usize::from(reduce(op, ty, 0, 0).is_ok());
            }
        }
        // .add ×7, .min/.max ×6 each, .inc/.dec ×1 each, .and/.or/.xor ×2 each.
        assert_eq!(allowed, 7 + 12 + 2 + 6);
        assert!(reduce(RedOp::And, ReduceType::B64, 0, 0).unwrap().width == 64);
    }

    #[test]
    fn integer_ops_at_wrap_edges() {
        for &a in &EDGES32 {
            for &b in &EDGES32 {
                let (x, y) = (a as u32, b as u32);
                assert_eq!(exact(RedOp::Add, ReduceType::U32, a, b), u64::from(x.wrapping_add(y)));
                assert_eq!(
                    exact(RedOp::Add, ReduceType::S32, a, b),
                    u64::from((x as i32).wrapping_add(y as i32) as u32)
                );
                assert_eq!(exact(RedOp::Min, ReduceType::U32, a, b), u64::from(x.min(y)));
                assert_eq!(exact(RedOp::Max, ReduceType::U32, a, b), u64::from(x.max(y)));
                assert_eq!(exact(RedOp::Min, ReduceType::S32, a, b), u64::from((x as i32).min(y as i32) as u32));
                assert_eq!(exact(RedOp::Max, ReduceType::S32, a, b), u64::from((x as i32).max(y as i32) as u32));
                assert_eq!(exact(RedOp::And, ReduceType::B32, a, b), u64::from(x & y));
                assert_eq!(exact(RedOp::Or, ReduceType::B32, a, b), u64::from(x | y));
                assert_eq!(exact(RedOp::Xor, ReduceType::B32, a, b), u64::from(x ^ y));
                // Bits above the element are ignored.
                assert_eq!(
                    exact(RedOp::Add, ReduceType::U32, a | 0xAB << 40, b | 1 << 63),
                    u64::from(x.wrapping_add(y))
                );
            }
        }
        for &a in &EDGES64 {
            for &b in &EDGES64 {
                assert_eq!(exact(RedOp::Add, ReduceType::U64, a, b), a.wrapping_add(b));
                assert_eq!(exact(RedOp::Min, ReduceType::U64, a, b), a.min(b));
                assert_eq!(exact(RedOp::Max, ReduceType::U64, a, b), a.max(b));
                assert_eq!(exact(RedOp::Min, ReduceType::S64, a, b), (a as i64).min(b as i64) as u64);
                assert_eq!(exact(RedOp::Max, ReduceType::S64, a, b), (a as i64).max(b as i64) as u64);
                assert_eq!(exact(RedOp::And, ReduceType::B64, a, b), a & b);
                assert_eq!(exact(RedOp::Or, ReduceType::B64, a, b), a | b);
                assert_eq!(exact(RedOp::Xor, ReduceType::B64, a, b), a ^ b);
            }
        }
    }

    #[test]
    fn inc_and_dec_stay_in_zero_to_src() {
        // The atom definitions (§9.7.13.5), by cases.
        assert_eq!(exact(RedOp::Inc, ReduceType::U32, 5, 10), 6);
        assert_eq!(exact(RedOp::Inc, ReduceType::U32, 10, 10), 0, "wraps to 0 at the bound");
        assert_eq!(exact(RedOp::Inc, ReduceType::U32, 11, 10), 0, "above the bound");
        assert_eq!(exact(RedOp::Inc, ReduceType::U32, 0, 0), 0);
        assert_eq!(exact(RedOp::Inc, ReduceType::U32, 0xFFFF_FFFE, 0xFFFF_FFFF), 0xFFFF_FFFF);
        assert_eq!(exact(RedOp::Inc, ReduceType::U32, 0xFFFF_FFFF, 0xFFFF_FFFF), 0);
        assert_eq!(exact(RedOp::Dec, ReduceType::U32, 5, 10), 4);
        assert_eq!(exact(RedOp::Dec, ReduceType::U32, 0, 10), 10, "0 wraps to the bound");
        assert_eq!(exact(RedOp::Dec, ReduceType::U32, 11, 10), 10, "above the bound");
        assert_eq!(exact(RedOp::Dec, ReduceType::U32, 10, 10), 9);
        assert_eq!(exact(RedOp::Dec, ReduceType::U32, 0, 0), 0);
        assert_eq!(exact(RedOp::Dec, ReduceType::U32, 0xFFFF_FFFF, 0xFFFF_FFFF), 0xFFFF_FFFE);
        // "A result in the range [0..x] where x is the value at the source" (§9.7.9.25.4.2).
        for &a in &EDGES32 {
            for &b in &EDGES32 {
                assert!(exact(RedOp::Inc, ReduceType::U32, a, b) <= b);
                assert!(exact(RedOp::Dec, ReduceType::U32, a, b) <= b);
            }
        }
    }

    /// Edge values of f32: zeros, subnormals, normals at the boundaries, max, infinities, NaNs.
    const F32_EDGES: [u32; 18] = [
        0x0000_0000,
        0x8000_0000,
        0x0000_0001,
        0x8000_0001,
        0x007F_FFFF,
        0x807F_FFFF,
        0x0080_0000,
        0x8080_0000,
        0x0080_0001,
        0x3F80_0000,
        0xBF80_0000,
        0x3380_0000, // 2^-24: half an ulp of 1.0
        0x7F7F_FFFF,
        0xFF7F_FFFF,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0xFF80_0001,
    ];

    fn check_f32(a: u32, b: u32) {
        let flush = |x: f32| if x.is_subnormal() { 0.0f32.copysign(x) } else { x };
        let want = flush(flush(f32::from_bits(a)) + flush(f32::from_bits(b)));
        let got = reduce(RedOp::Add, ReduceType::F32, u64::from(a), u64::from(b)).unwrap();
        if want.is_nan() {
            assert!(
                !got.is_exact() && got.matches(0x7FFF_FFFF) && got.matches(u128::from(want.to_bits())),
                "{a:#x}+{b:#x}"
            );
            assert!(!got.matches(0x7F80_0000));
        } else {
            assert_eq!(got, Expected::exact(u128::from(want.to_bits()), 32), "{a:#x} + {b:#x}");
        }
    }

    #[test]
    fn f32_add_rounds_to_nearest_even_and_flushes_subnormals() {
        for &a in &F32_EDGES {
            for &b in &F32_EDGES {
                check_f32(a, b);
            }
        }
        // Ties: 1 + 2^-24 is the tie between 1 and 1 + 2^-23 (even: 1); 1 + 3·2^-24 rounds up.
        assert_eq!(exact(RedOp::Add, ReduceType::F32, 0x3F80_0000, 0x3380_0000), 0x3F80_0000);
        assert_eq!(exact(RedOp::Add, ReduceType::F32, 0x3F80_0001, 0x3380_0000), 0x3F80_0002);
        // Overflow to infinity; x + (−x) = +0; −0 + −0 = −0.
        assert_eq!(exact(RedOp::Add, ReduceType::F32, 0x7F7F_FFFF, 0x7F7F_FFFF), 0x7F80_0000);
        assert_eq!(exact(RedOp::Add, ReduceType::F32, 0x3F80_0000, 0xBF80_0000), 0);
        assert_eq!(exact(RedOp::Add, ReduceType::F32, 0x8000_0000, 0x8000_0000), 0x8000_0000);
        // Subnormal sum of two normals is flushed to the zero of its sign.
        assert_eq!(exact(RedOp::Add, ReduceType::F32, 0x0080_0001, 0x8080_0000), 0);
        assert_eq!(exact(RedOp::Add, ReduceType::F32, 0x8080_0001, 0x0080_0000), 0x8000_0000);
        let mut seed = 7;
        for _ in 0..200_000 {
            let (a, b) = (lcg(&mut seed) as u32, lcg(&mut seed) as u32);
            // Bring exponents close together half of the time so that cancellation happens.
            let b = if a & 1 == 0 { (a & 0xFF80_0000) ^ (b & 0x807F_FFFF) } else { b };
            check_f32(a, b);
        }
    }

    #[test]
    fn emulating_the_h100_keeps_f32_subnormals_and_changes_nothing_else() {
        let hw = Allowances::all().emulating(Deviation::ReduceAddF32KeepsSubnormals);
        let add = |a: u32, b: u32, allow: &Allowances| {
            reduce_with(RedOp::Add, ReduceType::F32, u64::from(a), u64::from(b), allow).unwrap().bits as u32
        };
        // corpus/findings/reduce-add-f32-subnormals.md: the H100's answers.
        for (a, s, h100, spec) in [
            (0x0000_0001, 0x0000_0001, 0x0000_0002, 0x0000_0000),
            (0x0000_0001, 0x007f_ffff, 0x0080_0000, 0x0000_0000),
            (0x8000_0001, 0x0080_0000, 0x007f_ffff, 0x0080_0000),
            (0x3f80_0000, 0x3f80_0000, 0x4000_0000, 0x4000_0000),
        ] {
            assert_eq!(add(a, s, &hw), h100, "{a:08x} + {s:08x}");
            assert_eq!(add(a, s, &Allowances::all()), spec, "{a:08x} + {s:08x}");
        }
        let f64_sub = reduce_with(RedOp::Add, ReduceType::F64, 1, 1, &hw).unwrap().bits;
        assert_eq!(f64_sub, 2);
    }

    #[test]
    fn f64_add_keeps_subnormals() {
        let check = |a: u64, b: u64| {
            let want = f64::from_bits(a) + f64::from_bits(b);
            let got = reduce(RedOp::Add, ReduceType::F64, a, b).unwrap();
            if want.is_nan() {
                assert!(got.matches(0x7FFF_FFFF_FFFF_FFFF) && got.matches(u128::from(want.to_bits())));
            } else {
                assert_eq!(got, Expected::exact(u128::from(want.to_bits()), 64), "{a:#x} + {b:#x}");
            }
        };
        let edges = [
            0u64,
            1 << 63,
            1,
            (1 << 63) | 1,
            0x000F_FFFF_FFFF_FFFF,
            0x0010_0000_0000_0000,
            0x3FF0_0000_0000_0000,
            0xBFF0_0000_0000_0000,
            0x3CA0_0000_0000_0000, // 2^-53: the tie of 1.0
            0x7FEF_FFFF_FFFF_FFFF,
            0x7FF0_0000_0000_0000,
            0xFFF0_0000_0000_0000,
            0x7FF8_0000_0000_0000,
        ];
        for &a in &edges {
            for &b in &edges {
                check(a, b);
            }
        }
        assert_eq!(exact(RedOp::Add, ReduceType::F64, 1, 1), 2, "subnormals add exactly");
        let mut seed = 11;
        for _ in 0..200_000 {
            let (a, b) = (lcg(&mut seed), lcg(&mut seed));
            let b = if a & 1 == 0 { (a & 0xFFF0_0000_0000_0000) ^ (b & 0x800F_FFFF_FFFF_FFFF) } else { b };
            check(a, b);
        }
    }

    #[cfg(feature = "reference")]
    mod apfloat {
        use super::super::*;
        use rustc_apfloat::ieee::{BFloat, Half};
        use rustc_apfloat::{Float, Round};

        /// A stratified set of `b`: sign × exponent fields (all of them for f16, every eighth
        /// plus the extremes for bf16), each with a few mantissas.
        fn bs(man_bits: u32) -> Vec<u64> {
            let top = 1u64 << (16 - man_bits);
            let step = top / 64;
            let mut his: Vec<u64> = (0..top).step_by(step as usize).collect();
            his.extend([1, top / 2 - 1, top / 2 + 1, top - 1]);
            let m = (1u64 << man_bits) - 1;
            let mut v = Vec::new();
            for hi in his {
                for lo in [0, 1, m / 2, m / 2 + 1, m] {
                    v.push((hi << man_bits) | lo);
                }
            }
            v
        }

        fn check_half<F: Float>(ty: ReduceType, man_bits: u32) {
            let bs = bs(man_bits);
            for a in 0..=0xFFFFu64 {
                for &b in &bs {
                    let (x, y) = (F::from_bits(u128::from(a)), F::from_bits(u128::from(b)));
                    let sum = x.add_r(y, Round::NearestTiesToEven).value;
                    let got = reduce(RedOp::Add, ty, a, b).unwrap();
                    if sum.is_nan() {
                        assert!(!got.is_exact() && got.matches(sum.to_bits()), "{ty} {a:#x} + {b:#x}");
                    } else {
                        assert_eq!(got, Expected::exact(sum.to_bits(), 16), "{ty} {a:#x} + {b:#x}");
                    }
                    for (op, want) in [(RedOp::Min, x.min(y)), (RedOp::Max, x.max(y))] {
                        let got = reduce(op, ty, a, b).unwrap();
                        assert!(got.matches(want.to_bits()), "{ty} {op} {a:#x} {b:#x}: {got}");
                        if !(want.is_nan() || x.is_zero() && y.is_zero()) {
                            assert!(got.is_exact(), "{ty} {op} {a:#x} {b:#x}");
                        }
                        // Strict: IEEE 754-2019 minimum/maximum on zeros.
                        let strict = reduce_with(op, ty, a, b, &Allowances::none()).unwrap();
                        if x.is_zero() && y.is_zero() {
                            let ieee = if op == RedOp::Min { x.minimum(y) } else { x.maximum(y) };
                            assert_eq!(strict, Expected::exact(ieee.to_bits(), 16));
                        }
                    }
                }
            }
        }

        #[test]
        fn f16_add_min_max_agree_with_apfloat() {
            check_half::<Half>(ReduceType::F16, 10);
        }

        #[test]
        fn bf16_add_min_max_agree_with_apfloat() {
            check_half::<BFloat>(ReduceType::Bf16, 7);
        }
    }

    #[test]
    fn min_max_nan_and_zero_rules() {
        let f16 = ReduceType::F16;
        // A NaN operand gives the other operand; two NaNs give any NaN.
        assert_eq!(exact(RedOp::Min, f16, 0x7E00, 0x3C00), 0x3C00);
        assert_eq!(exact(RedOp::Max, f16, 0xBC00, 0xFC01), 0xBC00);
        let both = reduce(RedOp::Max, f16, 0x7E00, 0xFE01).unwrap();
        assert!(both.matches(0x7FFF) && both.matches(0xFE01) && !both.matches(0x7C00));
        assert_eq!(
            reduce_with(RedOp::Max, f16, 0x7E00, 0xFE01, &Allowances::none()).unwrap(),
            Expected::exact(0x7FFF, 16)
        );
        // ±0: either zero under the allowance.
        let z = reduce(RedOp::Min, f16, 0x0000, 0x8000).unwrap();
        assert!(z.matches(0x8000) && z.matches(0x0000) && !z.matches(0x0001));
        assert_eq!(z.free[0].allowance, Allowance::ReduceMinMaxZero);
        assert_eq!(reduce_with(RedOp::Max, ReduceType::Bf16, 0x8000, 0, &Allowances::none()).unwrap().bits, 0);
        // Infinities and subnormals order as values.
        assert_eq!(exact(RedOp::Min, f16, 0xFC00, 0x8001), 0xFC00);
        assert_eq!(exact(RedOp::Max, f16, 0x0001, 0x8001), 0x0001);
        assert_eq!(exact(RedOp::Max, ReduceType::Bf16, 0xFF80, 0x7F7F), 0x7F7F);
    }

    #[test]
    fn f16_bf16_add_keeps_subnormals_and_overflows_to_inf() {
        assert_eq!(exact(RedOp::Add, ReduceType::F16, 0x0001, 0x0001), 0x0002);
        assert_eq!(exact(RedOp::Add, ReduceType::F16, 0x7BFF, 0x7BFF), 0x7C00);
        assert_eq!(exact(RedOp::Add, ReduceType::F16, 0x3C00, 0x1000), 0x3C00, "1 + 2^-11 ties to even 1");
        assert_eq!(exact(RedOp::Add, ReduceType::Bf16, 0x0001, 0x8002), 0x8001);
        assert_eq!(exact(RedOp::Add, ReduceType::Bf16, 0x7F7F, 0x7F7F), 0x7F80);
        let inf_minus_inf = reduce(RedOp::Add, ReduceType::F16, 0x7C00, 0xFC00).unwrap();
        assert!(inf_minus_inf.matches(0x7FFF) && inf_minus_inf.free[0].allowance == Allowance::ReduceNanPayload);
    }

    #[test]
    fn exact_sum_keeps_far_operands_as_sticky() {
        let one = 0x3FF0_0000_0000_0000u64;
        let tiny = 0x1370_0000_0000_0000u64; // 2^-200: far below 1's last bit
        assert_eq!(exact(RedOp::Add, ReduceType::F64, one, tiny), one);
        assert_eq!(exact(RedOp::Add, ReduceType::F64, one, tiny | 1 << 63), one, "1 − 2^-200 rounds to 1");
        // (1 + 2^-52) + 2^-53 is a tie between odd and even: to even, 1 + 2^-51. One more tiny
        // amount on either side of the tie decides it; the host agrees with the sticky bit.
        let above_one = 0x3FF0_0000_0000_0001u64;
        let half_ulp = 0x3CA0_0000_0000_0000u64; // 2^-53
        assert_eq!(exact(RedOp::Add, ReduceType::F64, above_one, half_ulp), 0x3FF0_0000_0000_0002);
        let just_below_half = f64::from_bits(half_ulp) * (1.0 - f64::EPSILON);
        let host = f64::from_bits(above_one) + just_below_half;
        assert_eq!(exact(RedOp::Add, ReduceType::F64, above_one, just_below_half.to_bits()), host.to_bits());
        assert_eq!(host.to_bits(), above_one, "below the tie rounds down");
        // A subnormal far below a normal: the normal, whatever the sign.
        assert_eq!(exact(RedOp::Add, ReduceType::F64, one, 1 | 1 << 63), one);
    }
}
