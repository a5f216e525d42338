//! Fast kernels for `cvt` with an integer source or destination and a 32-bit source: f32 →
//! integer, integer → float and integer → integer (§9.7.9.21). Same contract as
//! [`super::fast`]: integer arithmetic only, no data-dependent branches (selects the compiler
//! turns into blends), one const-generic [`Kernel`] per family; each is proved against the full
//! semantics by [`crate::semantics::cvt_fast`]'s tests.
//!
//! Integer results are the destination's bits: a negative value of a narrow destination is
//! masked to its width (`cvt.rni.s8.f32` of −1 is `0xFF`), as [`crate::semantics::cvt`] gives
//! it.

use super::fast::{f64_halves, mode, round_up, sat_unit, sat_unit_f64, Kernel};

/// Bits of `(lo, hi)`, the range of a `BITS`-bit integer, as magnitudes: the largest positive
/// value and the magnitude of the most negative one (0 for unsigned types).
const fn limits(bits: u32, signed: bool) -> (u64, u64) {
    if signed {
        ((1u64 << (bits - 1)) - 1, 1u64 << (bits - 1))
    } else {
        (u64::MAX >> (64 - bits), 0)
    }
}

/// The sign, biased exponent and 24-bit significand (hidden bit included) of f32 bits, after
/// `.ftz` when `FTZ` (§9.7.9.21 Integer Notes: "subnormal inputs are flushed to
/// sign-preserving zero").
#[inline(always)]
fn parts<const FTZ: bool>(x: u32) -> (bool, u32, u32) {
    let x = if FTZ { super::fast::flush_f32(x) } else { x };
    let e = (x >> 23) & 0xFF;
    (x >> 31 == 1, e, (x & 0x7F_FFFF) | (u32::from(e != 0) << 23))
}

/// The integer magnitude of an f32 below 2^23 (`e < 150`), rounded under `MODE`: at most
/// 2^23, so it fits everywhere.
#[inline(always)]
fn fraction_rounded<const MODE: u8>(neg: bool, e: u32, m24: u32) -> u32 {
    // 150 − e fraction bits; from 25 on only a remainder below one half is left.
    let s = (150 - e.min(149)).min(25);
    let q = m24 >> s;
    q + u32::from(round_up::<MODE>(q & 1, m24 & ((1 << s) - 1), 1 << (s - 1), neg))
}

/// `cvt.{irnd}{.ftz}{.sat}.{s8,u8,s16,u16,s32,u32}.f32`: f32 rounded to an integer under
/// `MODE`, clamped to the `BITS`-bit range (§9.7.9.21 Saturation modifier: float-to-integer
/// conversions always clamp, so `.sat` changes nothing), NaN → 0 (Integer Notes).
pub struct F32ToInt<const BITS: u32, const SIGNED: bool, const MODE: u8, const FTZ: bool>;

impl<const BITS: u32, const SIGNED: bool, const MODE: u8, const FTZ: bool> Kernel
    for F32ToInt<BITS, SIGNED, MODE, FTZ>
{
    type Out = u32;
    #[inline(always)]
    fn eval(x: u32) -> u32 {
        let (hi, lo) = limits(BITS, SIGNED);
        let (hi, lo) = (hi as u32, lo as u32);
        let (neg, e, m24) = parts::<FTZ>(x);
        // 2^23 ≤ |x| < 2^32: exact, m24 << (e − 150) with e ≤ 158. From 2^32 (and ∞) on,
        // every ≤ 32-bit range clamps.
        let whole = m24 << e.saturating_sub(150).min(8);
        let mag = if e >= 150 { whole } else { fraction_rounded::<MODE>(neg, e, m24) };
        let huge = e >= 159;
        let v = if neg {
            (if huge { lo } else { mag.min(lo) }).wrapping_neg()
        } else if huge {
            hi
        } else {
            mag.min(hi)
        };
        let mask = (u64::MAX >> (64 - BITS)) as u32;
        if e == 255 && m24 != 1 << 23 {
            0
        } else {
            v & mask
        }
    }
}

/// `cvt.{irnd}{.ftz}{.sat}.{s64,u64}.f32`: as [`F32ToInt`] for 64-bit destinations, where NaN
/// gives `1 << 63` (§9.7.9.21 Integer Notes). Computed in 32-bit halves (see
/// [`super::fast::run_wide`]).
pub struct F32ToInt64<const SIGNED: bool, const MODE: u8, const FTZ: bool>;

impl<const SIGNED: bool, const MODE: u8, const FTZ: bool> Kernel for F32ToInt64<SIGNED, MODE, FTZ> {
    type Out = (u32, u32);
    #[inline(always)]
    fn eval(x: u32) -> (u32, u32) {
        let (neg, e, m24) = parts::<FTZ>(x);
        // 2^23 ≤ |x| < 2^64: exact, m24 << (e − 150) with e ≤ 190, in halves; from 2^64 on
        // (e ≥ 191, ∞ included) everything clamps.
        let left = e.saturating_sub(150).min(40);
        let lo = if left < 32 { m24 << (left & 31) } else { 0 };
        let hi = if left == 0 {
            0
        } else if left <= 32 {
            m24 >> ((32 - left) & 31)
        } else {
            m24 << ((left - 32) & 31)
        };
        let (hi, lo) = if e >= 150 { (hi, lo) } else { (0, fraction_rounded::<MODE>(neg, e, m24)) };
        let huge = e >= 191;
        // Positive: at most i64::MAX (u64::MAX, which no magnitude below 2^64 exceeds).
        let (phi, plo) = if huge || (SIGNED && hi >> 31 == 1) {
            if SIGNED {
                (0x7FFF_FFFF, u32::MAX)
            } else {
                (u32::MAX, u32::MAX)
            }
        } else {
            (hi, lo)
        };
        // Negative: at least i64::MIN (0 unsigned), then the two's complement of the halves.
        let (nhi, nlo) = if !SIGNED {
            (0, 0)
        } else if huge || hi > 0x8000_0000 || (hi == 0x8000_0000 && lo != 0) {
            (0x8000_0000, 0)
        } else {
            ((!hi).wrapping_add(u32::from(lo == 0)), lo.wrapping_neg())
        };
        let (hi, lo) = if neg { (nhi, nlo) } else { (phi, plo) };
        let (hi, lo) = if e == 255 && m24 != 1 << 23 { (0x8000_0000, 0) } else { (hi, lo) };
        (lo, hi)
    }
}

/// The sign and magnitude of a 32-bit integer source.
#[inline(always)]
fn int_parts<const SIGNED: bool>(x: u32) -> (bool, u32) {
    let neg = SIGNED && x >> 31 == 1;
    (neg, if neg { x.wrapping_neg() } else { x })
}

/// `cvt.{frnd}{.ftz}{.sat}.{f16,bf16,f32}.{s32,u32}` (§9.7.9.21): the integer rounded under
/// `MODE` to the format with `E` exponent and `M` mantissa bits (`M` < 31); overflow (f16 only)
/// goes to ±∞ or ±MAX_NORM by direction, as IEEE 754 says. Integers are never subnormal, so
/// `.ftz` changes nothing; `SAT` limits to [0, 1].
pub struct IntToFloat<const SIGNED: bool, const E: u32, const M: u32, const MODE: u8, const SAT: bool>;

impl<const SIGNED: bool, const E: u32, const M: u32, const MODE: u8, const SAT: bool> Kernel
    for IntToFloat<SIGNED, E, M, MODE, SAT>
{
    type Out = u32;
    #[inline(always)]
    fn eval(x: u32) -> u32 {
        let bias = (1u32 << (E - 1)) - 1;
        let sign = 1u32 << (E + M);
        let inf = ((1u32 << E) - 1) << M;
        let (neg, mag) = int_parts::<SIGNED>(x);
        let lz = mag.leading_zeros();
        // The leading one at bit 31; keep M + 1 bits (hidden bit included), round the rest.
        let norm = mag << (lz & 31);
        let sh = 31 - M;
        let kept = norm >> sh;
        let kept = kept + u32::from(round_up::<MODE>(kept & 1, norm & ((1 << sh) - 1), 1 << (sh - 1), neg));
        // 2^(31 − lz) × 1.f: the hidden bit adds one to the exponent field, a carry another.
        let r = ((31u32.wrapping_sub(lz).wrapping_add(bias).wrapping_sub(1)) << M).wrapping_add(kept);
        let to_inf = match MODE {
            mode::RZ => false,
            mode::RM => neg,
            mode::RP => !neg,
            _ => true,
        };
        let r = if r >= inf {
            if to_inf {
                inf
            } else {
                inf - 1
            }
        } else {
            r
        };
        let r = if mag == 0 { 0 } else { r | if neg { sign } else { 0 } };
        if SAT {
            sat_unit(r, false, sign, bias << M)
        } else {
            r
        }
    }
}

/// `cvt.{frnd}{.sat}.f64.{s32,u32}`: exact (53 significant bits hold any 32-bit integer);
/// `SAT` limits to [0, 1]. Computed in 32-bit halves (see [`super::fast::run_wide`]).
pub struct IntToF64<const SIGNED: bool, const SAT: bool>;

impl<const SIGNED: bool, const SAT: bool> Kernel for IntToF64<SIGNED, SAT> {
    type Out = (u32, u32);
    #[inline(always)]
    fn eval(x: u32) -> (u32, u32) {
        let (neg, mag) = int_parts::<SIGNED>(x);
        let lz = mag.leading_zeros();
        // 2^(31 − lz) × 1.f, biased by 1023.
        let (hi, lo) = f64_halves(neg, 1054u32.wrapping_sub(lz), mag << (lz & 31));
        let (hi, lo) = if mag == 0 { (0, 0) } else { (hi, lo) };
        let (hi, lo) = if SAT { sat_unit_f64(hi, lo, false) } else { (hi, lo) };
        (lo, hi)
    }
}

/// The value of a 32-bit integer source, `SAT`-clamped to the `BITS`-bit range of the
/// destination (§9.7.9.21 Saturation modifier), as two's complement bits.
#[inline(always)]
fn int_to_int<const SRC_SIGNED: bool, const BITS: u32, const SIGNED: bool, const SAT: bool>(x: u32) -> u64 {
    let v = if SRC_SIGNED { i64::from(x as i32) } else { i64::from(x) };
    let (hi, lo) = limits(BITS, SIGNED);
    // Every limit but u64's maximum fits an i64; a 32-bit source never exceeds it anyway.
    let (hi, lo) = (hi.min(i64::MAX as u64) as i64, (lo as i64).wrapping_neg());
    let v = if SAT { v.clamp(lo, hi) } else { v };
    v as u64
}

/// `cvt{.sat}.{s8,u8,s16,u16,s32,u32}.{s32,u32}`: the source, clamped to the destination's
/// range under `SAT`, truncated to `BITS` bits (§9.7.9.21 Integer Notes).
pub struct IntToInt<const SRC_SIGNED: bool, const BITS: u32, const SIGNED: bool, const SAT: bool>;

impl<const SRC_SIGNED: bool, const BITS: u32, const SIGNED: bool, const SAT: bool> Kernel
    for IntToInt<SRC_SIGNED, BITS, SIGNED, SAT>
{
    type Out = u32;
    #[inline(always)]
    fn eval(x: u32) -> u32 {
        (int_to_int::<SRC_SIGNED, BITS, SIGNED, SAT>(x) & (u64::MAX >> (64 - BITS))) as u32
    }
}

/// `cvt{.sat}.{s64,u64}.{s32,u32}`: sign- or zero-extension by the source type, clamped to the
/// destination's range under `SAT`.
pub struct IntToInt64<const SRC_SIGNED: bool, const SIGNED: bool, const SAT: bool>;

impl<const SRC_SIGNED: bool, const SIGNED: bool, const SAT: bool> Kernel for IntToInt64<SRC_SIGNED, SIGNED, SAT> {
    type Out = (u32, u32);
    #[inline(always)]
    fn eval(x: u32) -> (u32, u32) {
        let v = int_to_int::<SRC_SIGNED, 64, SIGNED, SAT>(x);
        (v as u32, (v >> 32) as u32)
    }
}
