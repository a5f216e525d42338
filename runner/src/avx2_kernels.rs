//! The oracle's fast conversion kernels, instantiated a second time for AVX2 and chosen at run
//! time: the runner decides nothing here. The oracle crate stays free of `unsafe` and of
//! CPU-specific code, and owns every kernel, which kernel computes which form and how its codes
//! are laid out (`oracle::semantics::cvt_fast`); this module only re-instantiates its
//! `#[inline]` kernels inside `#[target_feature]` functions, where the compiler can use 256-bit
//! variable shifts (the baseline x86-64 target has none, which halves the f16/FP8 kernels'
//! speed: see docs/PERFORMANCE.md). [`Dispatched`] is the [`Instantiate`] that
//! `cvt_fast::select_sweep` fills with these instances.
//!
//! Invariant: every function here computes exactly what the oracle's portable instance
//! computes (tested), on any CPU.

use oracle::num::fast::{Instantiate, Kernel, SliceFn};

macro_rules! dispatched {
    ($(#[$m:meta])* $name:ident => $kernel:ident, $out:ty) => {
        $(#[$m])*
        pub fn $name(input: &[u32], output: &mut [$out]) {
            #[cfg(target_arch = "x86_64")]
            {
                if std::arch::is_x86_feature_detected!("avx2") {
                    #[target_feature(enable = "avx2")]
                    fn avx2(input: &[u32], output: &mut [$out]) {
                        oracle::num::fast::$kernel(input, output)
                    }
                    // SAFETY: `avx2` only needs the AVX2 instructions, which the CPU has
                    // (checked just above); it touches nothing but its two slices.
                    unsafe { avx2(input, output) };
                    return;
                }
            }
            oracle::num::fast::$kernel(input, output)
        }
    };
}

dispatched!(
    /// `cvt.rn.f16.f32` over a slice.
    f32_to_f16_rn => f32_to_f16_rn_slice, u16);
dispatched!(
    /// `cvt.rn.bf16.f32` over a slice.
    f32_to_bf16_rn => f32_to_bf16_rn_slice, u16);
dispatched!(
    /// `cvt.rna.tf32.f32` over a slice.
    f32_to_tf32_rna => f32_to_tf32_rna_slice, u32);
dispatched!(
    /// `.e4m3` lanes of `cvt.rn.satfinite.e4m3x2.f32` over a slice.
    f32_to_e4m3_rn_satfinite => f32_to_e4m3_rn_satfinite_slice, u8);
dispatched!(
    /// `.e5m2` lanes of `cvt.rn.satfinite.e5m2x2.f32` over a slice.
    f32_to_e5m2_rn_satfinite => f32_to_e5m2_rn_satfinite_slice, u8);

/// Any 32-bit [`Kernel`] over a slice, AVX2 where the CPU has it.
pub fn run<K: Kernel<Out = u32>>(input: &[u32], output: &mut [u32]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            #[target_feature(enable = "avx2")]
            fn avx2<K: Kernel<Out = u32>>(input: &[u32], output: &mut [u32]) {
                oracle::num::fast::run::<K>(input, output)
            }
            // SAFETY: `avx2` only needs the AVX2 instructions, which the CPU has (checked
            // just above); it touches nothing but its two slices.
            unsafe { avx2::<K>(input, output) };
            return;
        }
    }
    oracle::num::fast::run::<K>(input, output)
}

/// Any 64-bit [`Kernel`] over a slice (codes as low and high halves), AVX2 where the CPU has
/// it.
pub fn run_wide<K: Kernel<Out = (u32, u32)>>(input: &[u32], lo: &mut [u32], hi: &mut [u32]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            #[target_feature(enable = "avx2")]
            fn avx2<K: Kernel<Out = (u32, u32)>>(input: &[u32], lo: &mut [u32], hi: &mut [u32]) {
                oracle::num::fast::run_wide::<K>(input, lo, hi)
            }
            // SAFETY: `avx2` only needs the AVX2 instructions, which the CPU has (checked
            // just above); it touches nothing but its three slices.
            unsafe { avx2::<K>(input, lo, hi) };
            return;
        }
    }
    oracle::num::fast::run_wide::<K>(input, lo, hi)
}

/// Instantiates kernels through [`run`] and [`run_wide`], for
/// [`oracle::semantics::cvt_fast::select_sweep`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Dispatched;

impl Instantiate for Dispatched {
    fn narrow<K: Kernel<Out = u32>>(&self) -> SliceFn {
        SliceFn::Narrow(run::<K>)
    }
    fn wide<K: Kernel<Out = (u32, u32)>>(&self) -> SliceFn {
        SliceFn::Wide(run_wide::<K>)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dispatched_kernels_match_the_portable_ones() {
        let input: Vec<u32> = (0..1u32 << 20).map(|i| i.wrapping_mul(0x9E37_79B9)).collect();
        let (mut a, mut b) = (vec![0u16; input.len()], vec![0u16; input.len()]);
        f32_to_f16_rn(&input, &mut a);
        oracle::num::fast::f32_to_f16_rn_slice(&input, &mut b);
        assert_eq!(a, b);
        f32_to_bf16_rn(&input, &mut a);
        oracle::num::fast::f32_to_bf16_rn_slice(&input, &mut b);
        assert_eq!(a, b);
        let (mut c, mut d) = (vec![0u8; input.len()], vec![0u8; input.len()]);
        f32_to_e4m3_rn_satfinite(&input, &mut c);
        oracle::num::fast::f32_to_e4m3_rn_satfinite_slice(&input, &mut d);
        assert_eq!(c, d);
        f32_to_e5m2_rn_satfinite(&input, &mut c);
        oracle::num::fast::f32_to_e5m2_rn_satfinite_slice(&input, &mut d);
        assert_eq!(c, d);
        let (mut e, mut f) = (vec![0u32; input.len()], vec![0u32; input.len()]);
        f32_to_tf32_rna(&input, &mut e);
        oracle::num::fast::f32_to_tf32_rna_slice(&input, &mut f);
        assert_eq!(e, f);
    }
}
