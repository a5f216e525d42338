//! Fast kernels for the hottest conversions (f32 → f16, bf16, tf32, e4m3, e5m2), for
//! exhaustive sweeps where the oracle must keep up with the GPU.
//!
//! One const-generic kernel serves every IEEE-like destination: it is the same round-to-nearest
//! logic as [`super::encode`] (integer significands, no host floating point), written without
//! data-dependent branches so the compiler vectorizes it over slices. Each kernel is checked
//! against [`super::encode`] (the reference engine) in the tests, on stratified inputs in CI and
//! on all 2^32 inputs by an `--ignored` test.
//!
//! NaN inputs give the destination's canonical NaN; callers that need the set of admissible
//! NaNs test the input for NaN themselves.

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
}

/// Whether to add one unit after truncating: `lsb` is the kept part's lowest bit, `rem` the
/// discarded bits, `half` half a unit.
#[inline(always)]
fn round_up<const MODE: u8>(lsb: u32, rem: u32, half: u32, neg: bool) -> bool {
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

#[cfg(test)]
mod tests {
    use super::super::{decode, encode, Format, Overflow, Rounding, BF16, E4M3, E5M2, F16, F32, TF32};
    use super::*;

    fn reference(f: &Format, x: u32, mode: Rounding, ov: Overflow) -> u32 {
        let v = decode(&F32, u64::from(x));
        encode(f, v, mode, ov).bits as u32
    }

    /// Every exponent × edge mantissas (ties and ties ± 1 at every bit) × both signs, plus
    /// pseudo-random bits: about 2^17 + `random` inputs.
    pub(crate) fn stratified(random: usize) -> impl Iterator<Item = u32> {
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
