//! Decode → round → encode on exact values.
//!
//! Invariant: a [`Value::Finite`] is `(-1)^neg × sig × 2^exp` with `sig > 0`; rounding works on
//! the integer `sig` only, so every decision is exact (no host floating point).

use super::format::{Format, Specials};

/// An exactly decoded number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// ±0.
    Zero {
        /// Sign.
        neg: bool,
    },
    /// `(-1)^neg × sig × 2^exp`, `sig > 0`.
    Finite {
        /// Sign.
        neg: bool,
        /// Integer significand, nonzero.
        sig: u64,
        /// Power of two.
        exp: i32,
    },
    /// ±infinity.
    Inf {
        /// Sign.
        neg: bool,
    },
    /// A NaN with its sign and mantissa payload.
    Nan {
        /// Sign bit.
        neg: bool,
        /// Mantissa field.
        payload: u64,
    },
}

impl Value {
    /// The value of an integer.
    pub fn from_int(v: i128) -> Value {
        let neg = v < 0;
        let mag = v.unsigned_abs();
        if mag == 0 {
            return Value::Zero { neg: false };
        }
        // Integers handled here fit in 64 bits of magnitude (|i64::MIN| = 2^63).
        let shift = (128 - mag.leading_zeros()).saturating_sub(64);
        Value::Finite { neg, sig: (mag >> shift) as u64, exp: shift as i32 }
    }

    /// Whether the sign is negative (NaNs report their sign bit).
    pub fn is_negative(&self) -> bool {
        match *self {
            Value::Zero { neg } | Value::Finite { neg, .. } | Value::Inf { neg } | Value::Nan { neg, .. } => neg,
        }
    }

    /// Whether this is a NaN.
    pub fn is_nan(&self) -> bool {
        matches!(self, Value::Nan { .. })
    }

    /// The same value with the sign cleared.
    pub fn abs(self) -> Value {
        match self {
            Value::Zero { .. } => Value::Zero { neg: false },
            Value::Finite { sig, exp, .. } => Value::Finite { neg: false, sig, exp },
            Value::Inf { .. } => Value::Inf { neg: false },
            Value::Nan { payload, .. } => Value::Nan { neg: false, payload },
        }
    }
}

/// Rounding direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// To nearest, ties to even (`.rn`, `.rni`).
    NearestEven,
    /// To nearest, ties away from zero (`.rna`).
    NearestAway,
    /// Toward zero (`.rz`, `.rzi`).
    TowardZero,
    /// Toward −∞ (`.rm`, `.rmi`).
    Down,
    /// Toward +∞ (`.rp`, `.rpi`).
    Up,
    /// Stochastic (`.rs`, §9.7.9.21): away from zero iff adding `rbits` (its low `width` bits)
    /// to the top `width` discarded bits carries out.
    Stochastic {
        /// The random bits.
        rbits: u32,
        /// How many of them are used.
        width: u32,
    },
}

/// What happens when the rounded magnitude exceeds the largest finite number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overflow {
    /// IEEE 754: to ±∞ or to ±MAX_NORM by rounding direction; formats without ∞ give NaN,
    /// formats without NaN give ±MAX_NORM.
    Ieee,
    /// `.satfinite`: ±MAX_NORM (and ±∞ inputs too).
    Saturate,
}

/// The class of an encoded number: the one float classification of the project (results
/// shown to people, input classes of finding signatures, `.ftz`'s subnormal test).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// ±0.
    Zero,
    /// Subnormal.
    Subnormal,
    /// Normal.
    Normal,
    /// ±∞.
    Inf,
    /// NaN.
    Nan,
}

impl Class {
    /// The class's short name: `zero`, `subnormal`, `normal`, `inf`, `nan`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Zero => "zero",
            Class::Subnormal => "subnormal",
            Class::Normal => "normal",
            Class::Inf => "inf",
            Class::Nan => "nan",
        }
    }
}

/// The class of `bits` in format `f`. Subnormal: a nonzero finite value with a zero exponent
/// field, in a format with mantissa bits (UE8M0 has none, so its smallest value is normal).
pub fn classify(f: &Format, bits: u64) -> Class {
    match decode(f, bits) {
        Value::Zero { .. } => Class::Zero,
        Value::Inf { .. } => Class::Inf,
        Value::Nan { .. } => Class::Nan,
        Value::Finite { .. } if f.man_bits > 0 && (bits >> f.man_bits) & u64::from(f.max_exp_field()) == 0 => {
            Class::Subnormal
        }
        Value::Finite { .. } => Class::Normal,
    }
}

/// An encoded result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoded {
    /// The bits (in the low bits).
    pub bits: u64,
    /// The result was clamped to MAX_NORM (or the smallest UE8M0 value) because it did not fit.
    pub clamped: bool,
    /// The result differs from the exact input value.
    pub inexact: bool,
}

/// Decodes `bits` of format `f` exactly.
pub fn decode(f: &Format, bits: u64) -> Value {
    let bits = bits & f.mask();
    let m = f.man_bits;
    let neg = f.signed && (bits >> f.sign_shift()) & 1 == 1;
    let e = ((bits >> m) & u64::from(f.max_exp_field())) as u32;
    let frac = bits & ((1u64 << m) - 1);
    match f.specials {
        Specials::ExponentOnly => {
            if e == f.max_exp_field() {
                return Value::Nan { neg: false, payload: 0 };
            }
            return Value::Finite { neg: false, sig: 1, exp: e as i32 - f.bias };
        }
        Specials::Ieee if e == f.max_exp_field() => {
            return if frac == 0 { Value::Inf { neg } } else { Value::Nan { neg, payload: frac } };
        }
        Specials::NanOnlyAllOnes if e == f.max_exp_field() && frac == (1u64 << m) - 1 => {
            return Value::Nan { neg, payload: frac };
        }
        _ => {}
    }
    if e == 0 {
        if frac == 0 {
            Value::Zero { neg }
        } else {
            Value::Finite { neg, sig: frac, exp: f.emin() - m as i32 }
        }
    } else {
        Value::Finite { neg, sig: frac | (1u64 << m), exp: e as i32 - f.bias - m as i32 }
    }
}

/// Rounds `sig × 2^exp` to a multiple of `2^q`; returns the multiple `m` (result `m × 2^q`)
/// and whether anything was discarded.
fn round_sig(neg: bool, sig: u64, exp: i32, q: i32, mode: Rounding) -> (u128, bool) {
    if exp >= q {
        let sh = (exp - q) as u32;
        debug_assert!(sh < 64, "callers choose q near the leading bit");
        return ((sig as u128) << sh, false);
    }
    let s = (q - exp) as u32;
    let sig = sig as u128;
    let (m, rem) = if s >= 128 { (0, sig) } else { (sig >> s, sig & ((1u128 << s) - 1)) };
    if rem == 0 {
        return (m, false);
    }
    // `rem` compared with half of 2^s; for s >= 128, rem < 2^64 is always below half.
    let cmp_half = if s >= 128 { std::cmp::Ordering::Less } else { rem.cmp(&(1u128 << (s - 1))) };
    let up = match mode {
        Rounding::NearestEven => cmp_half.is_gt() || (cmp_half.is_eq() && m & 1 == 1),
        Rounding::NearestAway => !cmp_half.is_lt(),
        Rounding::TowardZero => false,
        Rounding::Down => neg,
        Rounding::Up => !neg,
        Rounding::Stochastic { rbits, width } => {
            let top = if s >= width {
                let sh = s - width;
                if sh >= 128 {
                    0
                } else {
                    rem >> sh
                }
            } else {
                rem << (width - s)
            };
            let r = u128::from(rbits) & ((1u128 << width) - 1);
            top + r >= (1u128 << width)
        }
    };
    (m + u128::from(up), true)
}

/// Rounds `v` to an integer under `mode` (`.rni/.rzi/.rmi/.rpi`). `None` for NaN; infinities
/// and magnitudes of 2^126 or more come back as ±2^126, which every integer range clamps.
pub fn round_to_integer(v: Value, mode: Rounding) -> Option<i128> {
    const HUGE: i128 = 1 << 126;
    match v {
        Value::Nan { .. } => None,
        Value::Zero { .. } => Some(0),
        Value::Inf { neg } => Some(if neg { -HUGE } else { HUGE }),
        Value::Finite { neg, sig, exp } => {
            let lead = exp + (63 - sig.leading_zeros() as i32);
            let mag = if lead >= 126 {
                HUGE
            } else if exp >= 0 {
                ((sig as u128) << exp) as i128
            } else {
                round_sig(neg, sig, exp, 0, mode).0 as i128
            };
            Some(if neg { -mag } else { mag })
        }
    }
}

/// Rounds `v` to an integral value, keeping it a [`Value`] (`.rni` etc. on a float
/// destination of the same type): values with no fraction bits are returned unchanged, a zero
/// result keeps the input's sign, NaN and infinities pass through.
pub fn round_to_integral(v: Value, mode: Rounding) -> Value {
    match v {
        Value::Finite { neg, sig, exp } if exp < 0 => {
            let (m, _) = round_sig(neg, sig, exp, 0, mode);
            if m == 0 {
                Value::Zero { neg }
            } else {
                // m <= sig + 1 < 2^64 + 1; a carry to 2^64 only happens when sig = 2^64 - 1.
                let shift = (128 - m.leading_zeros()).saturating_sub(64);
                Value::Finite { neg, sig: (m >> shift) as u64, exp: shift as i32 }
            }
        }
        other => other,
    }
}

/// Rounds `v` into format `f`. NaN inputs give the canonical NaN (callers apply instruction
/// rules for NaN first); formats without NaN give +MAX_NORM.
pub fn encode(f: &Format, v: Value, mode: Rounding, overflow: Overflow) -> Encoded {
    let sign_bit = |neg: bool| {
        if neg && f.signed {
            1u64 << f.sign_shift()
        } else {
            0
        }
    };
    let exact = |bits| Encoded { bits, clamped: false, inexact: false };
    let max = |neg: bool| Encoded { bits: f.max_finite_bits() | sign_bit(neg), clamped: true, inexact: true };
    let overflowed = |neg: bool| -> Encoded {
        match (overflow, f.specials) {
            (Overflow::Saturate, _) | (Overflow::Ieee, Specials::FiniteOnly) => max(neg),
            (Overflow::Ieee, Specials::Ieee) => {
                let to_inf = match mode {
                    Rounding::TowardZero => false,
                    Rounding::Down => neg,
                    Rounding::Up => !neg,
                    Rounding::NearestEven | Rounding::NearestAway | Rounding::Stochastic { .. } => true,
                };
                if to_inf {
                    Encoded { bits: f.inf_bits().unwrap_or(0) | sign_bit(neg), clamped: false, inexact: true }
                } else {
                    max(neg)
                }
            }
            (Overflow::Ieee, _) => {
                Encoded { bits: f.canonical_nan_bits().unwrap_or(0) | sign_bit(neg), clamped: false, inexact: true }
            }
        }
    };
    // Unsigned formats (UE8M0) take the magnitude, as NVIDIA's e8m0 conversions do
    // (cuda_fp8.hpp `__nv_cvt_bfloat16raw_to_e8m0` extracts the exponent of |x|).
    let v = if f.signed { v } else { v.abs() };
    match v {
        Value::Nan { .. } => match f.canonical_nan_bits() {
            Some(b) => exact(b),
            None => max(false),
        },
        Value::Inf { neg } => match (overflow, f.inf_bits()) {
            (Overflow::Ieee, Some(b)) => exact(b | sign_bit(neg)),
            _ => {
                let mut e = overflowed(neg);
                e.inexact = true;
                e
            }
        },
        Value::Zero { neg } => {
            if f.specials == Specials::ExponentOnly {
                Encoded { bits: 0, clamped: true, inexact: true }
            } else {
                exact(sign_bit(neg))
            }
        }
        Value::Finite { neg, sig, exp } => {
            let m_bits = f.man_bits as i32;
            let lead = exp + (63 - sig.leading_zeros() as i32);
            let mut q = lead.max(f.emin()) - m_bits;
            let (mut m, inexact) = round_sig(neg, sig, exp, q, mode);
            if m == 0 {
                return if f.specials == Specials::ExponentOnly {
                    Encoded { bits: 0, clamped: true, inexact: true }
                } else {
                    Encoded { bits: sign_bit(neg), clamped: false, inexact }
                };
            }
            if m >> (m_bits + 1) != 0 {
                m >>= 1;
                q += 1;
            }
            let hidden = 1u128 << m_bits;
            if m < hidden {
                // Subnormal: q is emin - man_bits and the exponent field is 0.
                return Encoded { bits: m as u64 | sign_bit(neg), clamped: false, inexact };
            }
            let e_field = q + m_bits + f.bias;
            let frac = (m - hidden) as u64;
            let top = f.max_exp_field() as i32;
            let too_big = match f.specials {
                Specials::Ieee => e_field >= top,
                Specials::NanOnlyAllOnes => e_field > top || (e_field == top && frac == (1u64 << m_bits) - 1),
                Specials::FiniteOnly => e_field > top,
                Specials::ExponentOnly => e_field >= top,
            };
            if too_big {
                return overflowed(neg);
            }
            Encoded { bits: ((e_field as u64) << m_bits) | frac | sign_bit(neg), clamped: false, inexact }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::format::*;
    use super::*;

    fn f32v(x: f32) -> Value {
        decode(&F32, u64::from(x.to_bits()))
    }

    #[test]
    fn f32_to_f16_basics() {
        let rn = |x: f32| encode(&F16, f32v(x), Rounding::NearestEven, Overflow::Ieee).bits;
        assert_eq!(rn(1.0), 0x3C00);
        assert_eq!(rn(-2.0), 0xC000);
        assert_eq!(rn(65504.0), 0x7BFF);
        assert_eq!(rn(65520.0), 0x7C00, "tie at the top rounds to even = infinity");
        assert_eq!(rn(65519.99), 0x7BFF);
        assert_eq!(rn(5.960_464_5e-8), 0x0001, "min subnormal");
        assert_eq!(rn(2.980_232_2e-8), 0x0000, "half of min subnormal ties to even zero");
        assert_eq!(rn(f32::INFINITY), 0x7C00);
        let rz = encode(&F16, f32v(1e6), Rounding::TowardZero, Overflow::Ieee);
        assert_eq!((rz.bits, rz.clamped), (0x7BFF, true));
        let sat = encode(&F16, f32v(f32::NEG_INFINITY), Rounding::NearestEven, Overflow::Saturate);
        assert_eq!(sat.bits, 0xFBFF);
    }

    #[test]
    fn fp8_and_fp4_saturate_and_round() {
        let e4 = |x: f32| encode(&E4M3, f32v(x), Rounding::NearestEven, Overflow::Saturate).bits;
        assert_eq!(e4(448.0), 0x7E);
        assert_eq!(e4(464.0), 0x7E, "464 is the tie between 448 and 480 (NaN slot): saturates");
        assert_eq!(e4(1e9), 0x7E);
        assert_eq!(e4(-1e9), 0xFE);
        assert_eq!(e4(0.001_953_125), 0x01, "2^-9 is the smallest subnormal");
        let e2m1 = |x: f32| encode(&E2M1, f32v(x), Rounding::NearestEven, Overflow::Saturate).bits;
        assert_eq!(e2m1(6.0), 0x7);
        assert_eq!(e2m1(5.0), 0x6, "5 ties between 4 and 6: even mantissa is 4");
        assert_eq!(e2m1(0.25), 0x0, "0.25 ties between 0 and 0.5: even is 0");
        assert_eq!(e2m1(0.75), 0x2, "0.75 ties between 0.5 and 1.0: even is 1.0");
        assert_eq!(e2m1(-100.0), 0xF);
    }

    #[test]
    fn decode_encode_round_trip_on_every_16_bit_pattern() {
        for f in [F16, BF16] {
            for b in 0..=0xFFFFu64 {
                let v = decode(&f, b);
                let back = encode(&f, v, Rounding::NearestEven, Overflow::Ieee);
                if v.is_nan() {
                    assert_eq!(back.bits, f.canonical_nan_bits().unwrap());
                } else {
                    assert_eq!(back.bits, b, "{} {b:#x}", f.name);
                    assert!(!back.inexact);
                }
            }
        }
    }

    #[test]
    fn integer_rounding() {
        let v = f32v(2.5);
        assert_eq!(round_to_integer(v, Rounding::NearestEven), Some(2));
        assert_eq!(round_to_integer(f32v(3.5), Rounding::NearestEven), Some(4));
        assert_eq!(round_to_integer(f32v(-2.5), Rounding::Down), Some(-3));
        assert_eq!(round_to_integer(f32v(-2.5), Rounding::TowardZero), Some(-2));
        assert_eq!(round_to_integer(f32v(2.1), Rounding::Up), Some(3));
        assert_eq!(round_to_integer(f32v(1e20), Rounding::NearestEven), Some(100_000_002_004_087_734_272));
        assert_eq!(round_to_integer(f32v(f32::NAN), Rounding::NearestEven), None);
        assert_eq!(round_to_integer(f32v(0.4), Rounding::NearestEven), Some(0));
    }

    #[test]
    fn stochastic_rounding_carries() {
        // 1 + 2^-11 in f32 -> f16: 13 discarded bits, top one set (half an ulp).
        let v = f32v(1.0 + 1.0 / 2048.0);
        let rs = |r| encode(&F16, v, Rounding::Stochastic { rbits: r, width: 13 }, Overflow::Ieee).bits;
        assert_eq!(rs(0), 0x3C00);
        assert_eq!(rs(0x0FFF), 0x3C00, "0x1000 + 0x0FFF does not carry");
        assert_eq!(rs(0x1000), 0x3C01, "0x1000 + 0x1000 carries");
    }
}
