//! Fast kernels for the conversions exhaustive sweeps check, where the oracle must keep up with
//! the GPU.
//!
//! One const-generic kernel serves every IEEE-like destination: it is the same round-to-nearest
//! logic as [`super::encode`] (integer significands, no host floating point), written without
//! data-dependent branches so the compiler vectorizes it over slices. Each kernel is checked
//! against [`super::encode`] (the reference engine) in the tests, on stratified inputs in CI and
//! on all 2^32 inputs by an `--ignored` test.
//!
//! Per-form kernels implement [`Kernel`]: one conversion of 32 source bits to the destination's
//! bits, with the instruction's rules (`.ftz`, `.sat`, `.relu`, `.satfinite`) as const generic
//! parameters. This module has the float-source ones; [`super::fast_int`] has those with an
//! integer source or destination. [`crate::semantics::cvt_fast`] says which kernel computes
//! which `cvt` form and proves each against the full semantics.
//!
//! NaN inputs give the destination's canonical NaN; callers that need the set of admissible
//! NaNs test the input for NaN themselves.

/// One conversion from 32 source bits to a destination code, written without data-dependent
/// branches so that [`run`] and [`run_wide`] vectorize. Implementations are zero-sized types
/// whose const parameters are the form's qualifiers.
pub trait Kernel {
    /// The destination code: `u32` up to 32 bits; for 64-bit destinations `(low, high)`
    /// halves (the kernels compute in 32-bit lanes, see [`run_wide`]).
    type Out: Copy;
    /// The destination bits for source bits `x`.
    fn eval(x: u32) -> Self::Out;
}

/// [`Kernel::eval`] over a slice (`output` as long as `input`).
#[inline]
pub fn run<K: Kernel<Out = u32>>(input: &[u32], output: &mut [u32]) {
    for (o, &i) in output.iter_mut().zip(input) {
        *o = K::eval(i);
    }
}

/// [`Kernel::eval`] of a 64-bit kernel over a slice, the codes' low and high halves in two
/// slices: with 32-bit halves throughout, the compiler works on eight lanes at a time rather
/// than four.
#[inline]
pub fn run_wide<K: Kernel<Out = (u32, u32)>>(input: &[u32], lo: &mut [u32], hi: &mut [u32]) {
    for ((l, h), &i) in lo.iter_mut().zip(hi.iter_mut()).zip(input) {
        (*l, *h) = K::eval(i);
    }
}

/// A kernel instantiated as a slice function, by its destination width.
#[derive(Clone, Copy, Debug)]
pub enum SliceFn {
    /// Codes of up to 32 bits ([`run`]).
    Narrow(fn(&[u32], &mut [u32])),
    /// 64-bit codes as low and high halves ([`run_wide`]).
    Wide(fn(&[u32], &mut [u32], &mut [u32])),
}

impl SliceFn {
    /// Applies the kernel to `input`, widening the codes to `u64`.
    pub fn apply(&self, input: &[u32]) -> Vec<u64> {
        let mut lo = vec![0u32; input.len()];
        match self {
            SliceFn::Narrow(f) => {
                f(input, &mut lo);
                lo.into_iter().map(u64::from).collect()
            }
            SliceFn::Wide(f) => {
                let mut hi = vec![0u32; input.len()];
                f(input, &mut lo, &mut hi);
                lo.iter().zip(&hi).map(|(&l, &h)| u64::from(h) << 32 | u64::from(l)).collect()
            }
        }
    }
}

/// Turns a kernel type into a [`SliceFn`]: [`Portable`] here; the runner compiles the same
/// kernels a second time for AVX2.
pub trait Instantiate {
    /// A kernel with codes of up to 32 bits.
    fn narrow<K: Kernel<Out = u32>>(&self) -> SliceFn;
    /// A kernel with 64-bit codes.
    fn wide<K: Kernel<Out = (u32, u32)>>(&self) -> SliceFn;
}

/// [`run`] and [`run_wide`] as compiled for the baseline target.
#[derive(Clone, Copy, Debug, Default)]
pub struct Portable;

impl Instantiate for Portable {
    fn narrow<K: Kernel<Out = u32>>(&self) -> SliceFn {
        SliceFn::Narrow(run::<K>)
    }
    fn wide<K: Kernel<Out = (u32, u32)>>(&self) -> SliceFn {
        SliceFn::Wide(run_wide::<K>)
    }
}

/// Inputs that reach every rounding case of a 32-bit source: every sign and exponent (top nine
/// bits) × edge mantissas (each bit alone, ±1 around it, runs of ones below and above it, so
/// ties and ties ± 1 at every position), then `random` pseudo-random words. About 2^17 +
/// `random` inputs; read as integers they give every power of two ± 1 and the rounding ties of
/// every width.
pub fn stratified(random: usize) -> impl Iterator<Item = u32> {
    let edges = (0u32..512).flat_map(|se| {
        (0..23).flat_map(move |bit| {
            let t = 1u32 << bit;
            [t, t - 1, t + 1, (t << 1) - 1, 0x7F_FFFF ^ t, 0x7F_FFFF & !(t - 1)]
                .into_iter()
                .map(move |m| (se << 23) | (m & 0x7F_FFFF))
        })
    });
    let mut s = 0x2545_F491_4F6C_DD1Du64;
    let rand = (0..random).map(move |_| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 16) as u32
    });
    edges.chain(rand)
}

/// Rounding modes of the fast kernels (const-generic `MODE`).
pub mod mode {
    /// To nearest, ties to even.
    pub const RN: u8 = 0;
    /// Toward zero.
    pub const RZ: u8 = 1;
    /// Toward −∞.
    pub const RM: u8 = 2;
    /// Toward +∞.
    pub const RP: u8 = 3;
    /// To nearest, ties away from zero.
    pub const RNA: u8 = 4;

    /// The kernel mode of a rounding; `None` for stochastic rounding, which no kernel does.
    pub fn of(r: crate::num::Rounding) -> Option<u8> {
        use crate::num::Rounding;
        Some(match r {
            Rounding::NearestEven => RN,
            Rounding::TowardZero => RZ,
            Rounding::Down => RM,
            Rounding::Up => RP,
            Rounding::NearestAway => RNA,
            Rounding::Stochastic { .. } => return None,
        })
    }
}

/// Whether to add one unit after truncating: `lsb` is the kept part's lowest bit, `rem` the
/// discarded bits, `half` half a unit.
#[inline(always)]
pub(super) fn round_up<const MODE: u8>(lsb: u32, rem: u32, half: u32, neg: bool) -> bool {
    match MODE {
        mode::RN => rem > half || (rem == half && lsb == 1),
        mode::RNA => rem >= half,
        mode::RM => neg && rem != 0,
        mode::RP => !neg && rem != 0,
        _ => false,
    }
}

/// f32 bits → bits of an IEEE-like format with `E` exponent and `M` mantissa bits, rounded by
/// `MODE` ([`mode`]). `SAT`: overflow and ±∞ give ±MAX_NORM (`.satfinite`); otherwise IEEE
/// overflow (±∞ or ±MAX_NORM by direction). `FN`: the format has no infinity and its all-ones
/// code is NaN (E4M3), so it always saturates.
#[inline(always)]
pub fn f32_to_fmt<const E: u32, const M: u32, const SAT: bool, const FN: bool, const MODE: u8>(x: u32) -> u32 {
    let bias: i32 = (1 << (E - 1)) - 1;
    let neg = x >> 31 == 1;
    let sign = (x >> 31) << (E + M);
    let a = x & 0x7FFF_FFFF;
    let exp = (a >> 23) as i32;
    let top: u32 = (1 << E) - 1;
    let inf_bits: u32 = top << M;
    let max_bits: u32 = if FN { (top << M) | ((1 << M) - 2) } else { ((top - 1) << M) | ((1 << M) - 1) };
    let nan_bits: u32 = (top << M) | ((1 << M) - 1);
    let s = 23 - M;
    // Normal in the destination: rebias and round the low `s` bits.
    let rebased = a.wrapping_sub(((127 - bias) as u32) << 23);
    let kept = rebased >> s;
    let normal = kept + u32::from(round_up::<MODE>(kept & 1, rebased & ((1 << s) - 1), 1 << (s - 1), neg));
    // Subnormal in the destination: shift the full significand further right.
    let emin = 1 - bias;
    let m24 = (a & 0x7F_FFFF) | (u32::from(exp != 0) << 23);
    let extra = (emin - exp.max(1) + 127).clamp(0, 26) as u32;
    let s2 = (s + extra).min(25);
    let q = m24 >> s2;
    let sub = q + u32::from(round_up::<MODE>(q & 1, m24 & ((1u32 << s2) - 1), 1u32 << (s2 - 1), neg));
    let is_sub = exp - 127 < emin;
    let mut r = if is_sub { sub } else { normal };
    let saturating = FN || SAT;
    let to_inf = match MODE {
        mode::RZ => false,
        mode::RM => neg,
        mode::RP => !neg,
        _ => true,
    };
    let over = if saturating { r > max_bits } else { r >= inf_bits };
    let limit = if saturating || !to_inf { max_bits } else { inf_bits };
    r = if over { limit } else { r };
    r = if a == 0x7F80_0000 {
        if saturating {
            max_bits
        } else {
            inf_bits
        }
    } else {
        r
    };
    r = if a > 0x7F80_0000 { nan_bits } else { r };
    r | if a > 0x7F80_0000 { 0 } else { sign }
}

/// [`f32_to_fmt`] with round to nearest even.
#[inline(always)]
pub fn f32_to_rne<const E: u32, const M: u32, const SAT: bool, const FN: bool>(x: u32) -> u32 {
    f32_to_fmt::<E, M, SAT, FN, { mode::RN }>(x)
}

/// [`f32_to_fmt`] over a slice.
#[inline]
pub fn f32_to_fmt_slice<const E: u32, const M: u32, const SAT: bool, const FN: bool, const MODE: u8>(
    input: &[u32],
    output: &mut [u32],
) {
    for (o, &i) in output.iter_mut().zip(input) {
        *o = f32_to_fmt::<E, M, SAT, FN, MODE>(i);
    }
}

/// [`f32_to_fmt`] as a [`Kernel`]: one lane of the x2 destinations and `.tf32` from `.f32`
/// (`cvt_fast::select_sweep` lays the codes out).
pub struct F32ToFmt<const E: u32, const M: u32, const SAT: bool, const FN: bool, const MODE: u8>;

impl<const E: u32, const M: u32, const SAT: bool, const FN: bool, const MODE: u8> Kernel
    for F32ToFmt<E, M, SAT, FN, MODE>
{
    type Out = u32;
    #[inline(always)]
    fn eval(x: u32) -> u32 {
        f32_to_fmt::<E, M, SAT, FN, MODE>(x)
    }
}

/// `cvt.rn.f16.f32`.
#[inline]
pub fn f32_to_f16_rn(x: u32) -> u16 {
    f32_to_rne::<5, 10, false, false>(x) as u16
}

/// `cvt.rn.bf16.f32`.
#[inline]
pub fn f32_to_bf16_rn(x: u32) -> u16 {
    f32_to_rne::<8, 7, false, false>(x) as u16
}

/// `cvt.rn.satfinite` to one `.e4m3` lane.
#[inline]
pub fn f32_to_e4m3_rn_satfinite(x: u32) -> u8 {
    f32_to_rne::<4, 3, true, true>(x) as u8
}

/// `cvt.rn.satfinite` to one `.e5m2` lane.
#[inline]
pub fn f32_to_e5m2_rn_satfinite(x: u32) -> u8 {
    f32_to_rne::<5, 2, true, false>(x) as u8
}

/// `cvt.rna.tf32.f32`: round the low 13 bits to nearest, ties away from zero (the result keeps
/// f32's layout with the low 13 bits zero; overflow carries into ∞ by itself).
#[inline]
pub fn f32_to_tf32_rna(x: u32) -> u32 {
    let a = x & 0x7FFF_FFFF;
    let r = ((x.wrapping_add(0x1000)) & !0x1FFF) & 0x7FFF_FFFF;
    let r = if a >= 0x7F80_0000 {
        if a == 0x7F80_0000 {
            a
        } else {
            0x7FFF_E000
        }
    } else {
        r
    };
    r | ((x & 0x8000_0000) * u32::from(a <= 0x7F80_0000))
}

macro_rules! slice_kernel {
    ($(#[$m:meta])* $name:ident, $f:ident, $out:ty) => {
        $(#[$m])*
        #[inline]
        pub fn $name(input: &[u32], output: &mut [$out]) {
            for (o, &i) in output.iter_mut().zip(input) {
                *o = $f(i);
            }
        }
    };
}

slice_kernel!(
    /// [`f32_to_f16_rn`] over a slice.
    f32_to_f16_rn_slice, f32_to_f16_rn, u16);
slice_kernel!(
    /// [`f32_to_bf16_rn`] over a slice.
    f32_to_bf16_rn_slice, f32_to_bf16_rn, u16);
slice_kernel!(
    /// [`f32_to_tf32_rna`] over a slice.
    f32_to_tf32_rna_slice, f32_to_tf32_rna, u32);
slice_kernel!(
    /// [`f32_to_e4m3_rn_satfinite`] over a slice.
    f32_to_e4m3_rn_satfinite_slice, f32_to_e4m3_rn_satfinite, u8);
slice_kernel!(
    /// [`f32_to_e5m2_rn_satfinite`] over a slice.
    f32_to_e5m2_rn_satfinite_slice, f32_to_e5m2_rn_satfinite, u8);

/// `.ftz` on an `.f32` source (§9.7.9.21 Floating Point Notes, "Subnormal numbers"): a
/// subnormal input becomes the zero of its sign.
#[inline(always)]
pub fn flush_f32(x: u32) -> u32 {
    if x & 0x7F80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

/// `.sat` on a float destination (§9.7.9.21 Floating Point Notes, "Saturation modifier"):
/// code `r` limited to [+0.0, 1.0] — negative codes (−0 too) give +0, codes above `one` (1.0;
/// ∞ included) give `one` — and a NaN result (`nan`) gives +0. `sign` is the sign bit.
#[inline(always)]
pub(super) fn sat_unit<T>(r: T, nan: bool, sign: T, one: T) -> T
where
    T: Copy + Default + PartialEq + PartialOrd + std::ops::BitAnd<Output = T>,
{
    let zero = T::default();
    if nan || r & sign != zero {
        zero
    } else if r > one {
        one
    } else {
        r
    }
}

/// `cvt{.frnd}{.relu}{.satfinite}{.ftz}{.sat}.{f16,bf16}.f32` (§9.7.9.21): [`f32_to_fmt`] to
/// the format with `E` exponent and `M` mantissa bits under `MODE`, then the rules in the
/// order the semantics applies them. `FTZ` flushes subnormal inputs ([`flush_f32`]; results
/// of these destinations are never flushed, `.ftz` applying only to `.f32` results); `RELU`
/// turns negative results into +0 (NaN stays the canonical NaN, which is positive); `SAT`
/// limits to [0, 1] with NaN → +0.
pub struct F32ToHalf<
    const E: u32,
    const M: u32,
    const MODE: u8,
    const SATFINITE: bool,
    const RELU: bool,
    const FTZ: bool,
    const SAT: bool,
>;

impl<
        const E: u32,
        const M: u32,
        const MODE: u8,
        const SATFINITE: bool,
        const RELU: bool,
        const FTZ: bool,
        const SAT: bool,
    > Kernel for F32ToHalf<E, M, MODE, SATFINITE, RELU, FTZ, SAT>
{
    type Out = u32;
    #[inline(always)]
    fn eval(x: u32) -> u32 {
        let x = if FTZ { flush_f32(x) } else { x };
        let sign = 1u32 << (E + M);
        let r = f32_to_fmt::<E, M, SATFINITE, false, MODE>(x);
        let r = if RELU && r & sign != 0 { 0 } else { r };
        if SAT {
            let one = ((1u32 << (E - 1)) - 1) << M;
            sat_unit(r, x & 0x7FFF_FFFF > 0x7F80_0000, sign, one)
        } else {
            r
        }
    }
}

/// The f32 bits of an f16 (exact: every f16 is an f32; NaN payloads move to the top of the
/// f32 mantissa).
#[inline(always)]
pub fn f16_to_f32_bits(h: u32) -> u32 {
    let sign = (h & 0x8000) << 16;
    let e = (h >> 10) & 0x1F;
    let m = h & 0x3FF;
    let normal = sign | ((e + 112) << 23) | (m << 13);
    let special = sign | 0x7F80_0000 | (m << 13);
    // A subnormal m × 2^-24: shift the leading one up to bit 10 (m is nonzero).
    let shift = (m | 1).leading_zeros().saturating_sub(21);
    let sub = sign | ((113 - shift) << 23) | (((m << shift) & 0x3FF) << 13);
    match (e, m) {
        (0, 0) => sign,
        (0, _) => sub,
        (0x1F, _) => special,
        _ => normal,
    }
}

/// `cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2` (§9.7.9.21): each f16 lane is widened to
/// f32 (exact, so rounding once from f32 is rounding once from f16) and rounded by
/// [`f32_to_fmt`]; the upper lane gives the upper byte. `FN` as for [`f32_to_fmt`] (E4M3);
/// `RELU` turns negative lanes into +0 (NaN stays the canonical NaN, which is positive).
pub struct F16x2ToFp8x2<const E: u32, const M: u32, const FN: bool, const RELU: bool>;

impl<const E: u32, const M: u32, const FN: bool, const RELU: bool> Kernel for F16x2ToFp8x2<E, M, FN, RELU> {
    type Out = u32;
    #[inline(always)]
    fn eval(x: u32) -> u32 {
        let lane = |h: u32| {
            let r = f32_to_fmt::<E, M, true, FN, { mode::RN }>(f16_to_f32_bits(h));
            if RELU && r & (1 << (E + M)) != 0 {
                0
            } else {
                r
            }
        };
        (lane(x >> 16) << 8) | lane(x & 0xFFFF)
    }
}

/// Rounds the magnitude `a` of a finite or infinite f32 (bits without the sign; not NaN) to an
/// integral value under `MODE`, as f32 magnitude bits (§9.7.9.21 Integer Notes). `neg` is the
/// sign, which directed modes need. A zero result is `0` (the caller restores the sign).
#[inline(always)]
fn round_integral<const MODE: u8>(a: u32, neg: bool) -> u32 {
    let e = a >> 23;
    let m24 = (a & 0x7F_FFFF) | (u32::from(e != 0) << 23);
    // Fraction bits below the units place: 150 − e, at least 1 here; 25 or more leave nothing
    // but a remainder below one half.
    let s = (150 - e.min(149)).min(25);
    let q = m24 >> s;
    let r = q + u32::from(round_up::<MODE>(q & 1, m24 & ((1 << s) - 1), 1 << (s - 1), neg));
    // e ≥ 127: the result keeps the exponent, or carries into the next (the hidden bit is part
    // of `(e − 1) << 23`); e ≤ 126: |a| < 1, the result is 0 or 1.0.
    let big = (e.wrapping_sub(1) << 23).wrapping_add(r << s);
    let small = if r == 0 { 0 } else { 0x3F80_0000 };
    if e >= 150 {
        a
    } else if e >= 127 {
        big
    } else {
        small
    }
}

/// `cvt{.irnd}{.ftz}{.sat}.f32.f32` (§9.7.9.21): with `INTEGRAL`, round to an integral value
/// under `MODE` (a zero keeps the input's sign); without, the value as is. `FTZ` flushes
/// subnormal inputs (the results can then not be subnormal, so the result flush has nothing
/// left to do); `SAT` limits to [0, 1]. NaN gives the canonical NaN (`0x7FFFFFFF`), or +0
/// under `SAT`.
pub struct F32ToF32<const MODE: u8, const INTEGRAL: bool, const FTZ: bool, const SAT: bool>;

impl<const MODE: u8, const INTEGRAL: bool, const FTZ: bool, const SAT: bool> Kernel
    for F32ToF32<MODE, INTEGRAL, FTZ, SAT>
{
    type Out = u32;
    #[inline(always)]
    fn eval(x: u32) -> u32 {
        let x = if FTZ { flush_f32(x) } else { x };
        let sign = x & 0x8000_0000;
        let a = x & 0x7FFF_FFFF;
        let nan = a > 0x7F80_0000;
        let r = if INTEGRAL { sign | round_integral::<MODE>(a, sign != 0) } else { x };
        let r = if nan { 0x7FFF_FFFF } else { r };
        if SAT {
            sat_unit(r, nan, 0x8000_0000, 0x3F80_0000)
        } else {
            r
        }
    }
}

/// `.sat` on f64 bits held as two 32-bit halves ([`sat_unit`] without 64-bit lanes).
#[inline(always)]
pub(super) fn sat_unit_f64(hi: u32, lo: u32, nan: bool) -> (u32, u32) {
    if nan || hi >> 31 == 1 {
        (0, 0)
    } else if hi > 0x3FF0_0000 || (hi == 0x3FF0_0000 && lo != 0) {
        (0x3FF0_0000, 0)
    } else {
        (hi, lo)
    }
}

/// The f64 `2^exp × 1.f` with sign `neg`, from `norm`, a significand with its leading one at
/// bit 31, and the biased exponent `exp`: as (high, low) 32-bit halves, so that the kernels
/// vectorize over eight 32-bit lanes rather than four 64-bit ones.
#[inline(always)]
pub(super) fn f64_halves(neg: bool, exp: u32, norm: u32) -> (u32, u32) {
    let f = norm << 1;
    ((u32::from(neg) << 31) | (exp << 20) | (f >> 12), f << 20)
}

/// `cvt{.ftz}{.sat}.f64.f32` (§9.7.9.21): exact widening (f32 subnormals become f64 normals);
/// `FTZ` flushes subnormal inputs, `SAT` limits to [0, 1]. NaN gives the canonical f64 NaN, or
/// +0 under `SAT`.
pub struct F32ToF64<const FTZ: bool, const SAT: bool>;

impl<const FTZ: bool, const SAT: bool> Kernel for F32ToF64<FTZ, SAT> {
    type Out = (u32, u32);
    #[inline(always)]
    fn eval(x: u32) -> (u32, u32) {
        let x = if FTZ { flush_f32(x) } else { x };
        let neg = x >> 31 == 1;
        let a = x & 0x7FFF_FFFF;
        let e = a >> 23;
        let mant = a & 0x7F_FFFF;
        // Normal: rebias (1023 − 127) and widen the fraction; ∞ and NaN keep the top exponent.
        // Subnormal: mant × 2^−149 with its leading one shifted to bit 31 by `lz`.
        let lz = (mant | 1).leading_zeros();
        let (exp, norm) = if e != 0 { (e + 896, (a << 8) | 0x8000_0000) } else { (905 - lz, mant << lz) };
        let exp = if e == 255 { 2047 } else { exp };
        let (hi, lo) = f64_halves(neg, exp, norm);
        let (hi, lo) = if a == 0 { (u32::from(neg) << 31, 0) } else { (hi, lo) };
        let nan = a > 0x7F80_0000;
        let (hi, lo) = if nan { (0x7FFF_FFFF, 0xFFFF_FFFF) } else { (hi, lo) };
        let (hi, lo) = if SAT { sat_unit_f64(hi, lo, nan) } else { (hi, lo) };
        (lo, hi)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{decode, encode, Format, Overflow, Rounding, BF16, E4M3, E5M2, F16, F32, TF32};
    use super::*;

    #[test]
    fn f16_widening_is_exact() {
        for h in 0u32..=0xFFFF {
            let (v, w) = (decode(&F16, u64::from(h)), decode(&F32, u64::from(f16_to_f32_bits(h))));
            if v.is_nan() {
                assert!(w.is_nan() && v.is_negative() == w.is_negative(), "{h:#x}");
            } else {
                // Same value: significands are compared without trailing zero bits.
                let norm = |x: crate::num::Value| match x {
                    crate::num::Value::Finite { neg, sig, exp } => {
                        let tz = sig.trailing_zeros();
                        crate::num::Value::Finite { neg, sig: sig >> tz, exp: exp + tz as i32 }
                    }
                    other => other,
                };
                assert_eq!(norm(v), norm(w), "{h:#x}");
            }
        }
    }

    fn reference(f: &Format, x: u32, mode: Rounding, ov: Overflow) -> u32 {
        let v = decode(&F32, u64::from(x));
        encode(f, v, mode, ov).bits as u32
    }

    fn check(kernel: impl Fn(u32) -> u32, f: &Format, mode: Rounding, ov: Overflow, inputs: impl Iterator<Item = u32>) {
        for x in inputs {
            let want = reference(f, x, mode, ov);
            let got = kernel(x);
            let nan = decode(&F32, u64::from(x)).is_nan();
            if nan {
                assert!(decode(f, u64::from(got)).is_nan(), "{} {x:#010x}: {got:#x} is not NaN", f.name);
            } else {
                assert_eq!(got, want, "{} {x:#010x}", f.name);
            }
        }
    }

    fn tf32(x: u32) -> u32 {
        f32_to_tf32_rna(x) >> 13
    }

    #[test]
    fn fast_kernels_agree_with_the_engine_on_stratified_inputs() {
        let n = 1 << 22;
        check(|x| u32::from(f32_to_f16_rn(x)), &F16, Rounding::NearestEven, Overflow::Ieee, stratified(n));
        check(|x| u32::from(f32_to_bf16_rn(x)), &BF16, Rounding::NearestEven, Overflow::Ieee, stratified(n));
        check(
            |x| u32::from(f32_to_e4m3_rn_satfinite(x)),
            &E4M3,
            Rounding::NearestEven,
            Overflow::Saturate,
            stratified(n),
        );
        check(
            |x| u32::from(f32_to_e5m2_rn_satfinite(x)),
            &E5M2,
            Rounding::NearestEven,
            Overflow::Saturate,
            stratified(n),
        );
        check(tf32, &TF32, Rounding::NearestAway, Overflow::Ieee, stratified(n));
    }

    #[test]
    fn every_mode_agrees_with_the_engine_on_stratified_inputs() {
        use super::mode::*;
        let n = 1 << 18;
        let modes = [
            (RN, Rounding::NearestEven),
            (RZ, Rounding::TowardZero),
            (RM, Rounding::Down),
            (RP, Rounding::Up),
            (RNA, Rounding::NearestAway),
        ];
        macro_rules! all_modes {
            ($e:literal, $m:literal, $sat:literal, $fn_:literal, $fmt:expr, $ov:expr) => {
                for (k, mode) in modes {
                    let kernel = |x| match k {
                        RN => f32_to_fmt::<$e, $m, $sat, $fn_, RN>(x),
                        RZ => f32_to_fmt::<$e, $m, $sat, $fn_, RZ>(x),
                        RM => f32_to_fmt::<$e, $m, $sat, $fn_, RM>(x),
                        RP => f32_to_fmt::<$e, $m, $sat, $fn_, RP>(x),
                        _ => f32_to_fmt::<$e, $m, $sat, $fn_, RNA>(x),
                    };
                    check(kernel, $fmt, mode, $ov, stratified(n));
                }
            };
        }
        all_modes!(5, 10, false, false, &F16, Overflow::Ieee);
        all_modes!(5, 10, true, false, &F16, Overflow::Saturate);
        all_modes!(8, 7, false, false, &BF16, Overflow::Ieee);
        all_modes!(8, 7, true, false, &BF16, Overflow::Saturate);
        all_modes!(8, 10, false, false, &TF32, Overflow::Ieee);
        all_modes!(8, 10, true, false, &TF32, Overflow::Saturate);
        all_modes!(4, 3, true, true, &E4M3, Overflow::Saturate);
        all_modes!(5, 2, true, false, &E5M2, Overflow::Saturate);
    }

    /// All 2^32 inputs for every kernel (minutes in release: `cargo test --release -p
    /// ptxdiff-oracle -- --ignored exhaustive`).
    #[test]
    #[ignore]
    fn fast_kernels_agree_with_the_engine_exhaustively() {
        let all = || 0..=u32::MAX;
        check(|x| u32::from(f32_to_f16_rn(x)), &F16, Rounding::NearestEven, Overflow::Ieee, all());
        check(|x| u32::from(f32_to_bf16_rn(x)), &BF16, Rounding::NearestEven, Overflow::Ieee, all());
        check(|x| u32::from(f32_to_e4m3_rn_satfinite(x)), &E4M3, Rounding::NearestEven, Overflow::Saturate, all());
        check(|x| u32::from(f32_to_e5m2_rn_satfinite(x)), &E5M2, Rounding::NearestEven, Overflow::Saturate, all());
        check(tf32, &TF32, Rounding::NearestAway, Overflow::Ieee, all());
    }
}
