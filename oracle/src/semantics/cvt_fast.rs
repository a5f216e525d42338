//! Which fast kernel ([`crate::num::fast`], [`crate::num::fast_int`]) computes a `cvt` form,
//! and how its codes become a sweep's destination words: one table, from a form's qualifiers
//! to a [`KernelSpec`] (the kernel's parameters as data: [`spec`], [`sweep_spec`]) and a
//! [`Layout`]; [`instantiate`] binds a spec to the const-generic kernel, used by the runner's
//! sweeps (through its AVX2 [`Instantiate`]) and by the tests here (through [`Portable`]), and
//! [`super::cvt_fast_ir`] builds the same spec's GPU twin.
//!
//! Invariant, checked by the tests against [`super::cvt::eval`] for every legal form the table
//! covers: the kernel's code, laid out by [`SweepKernel::place`], equals the `bits` of the
//! semantics' [`super::Expected`] on the form's source bits — the exact result, or the
//! canonical member where an allowance grants a set (a NaN's payload, `cvt-ftz-f16-input`).
//! Sweeps compare the kernel with the backend and re-check every difference with the full
//! semantics, so a set never needs the kernel; they also re-check a random sample of the
//! agreements, so a kernel that is wrong where the backend is wrong too is still caught.
//!
//! Covered by [`select`]: every scalar form (`.dtype` and `.atype` of the first two syntax
//! lines) whose source is 32 bits wide — `.f32`, `.s32` or `.u32` — and the kernel's input is
//! the source's bits; `cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2`. [`select_sweep`] adds
//! `.tf32` and the x2 destinations from two `.f32` sources, which exhaustive sweeps set equal
//! (`a = b`, so both lanes hold the same code). Not covered: 8- and 16-bit sources (2^16
//! inputs at most: the full semantics takes milliseconds) and 64-bit sources (sampled, not
//! swept).

use crate::isa::{Cvt, CvtRnd, CvtType};
use crate::num::fast::{mode, F16x2ToFp8x2, F32ToF32, F32ToF64, F32ToFmt, F32ToHalf, Instantiate, SliceFn};
use crate::num::fast_int::{F32ToInt, F32ToInt64, IntToF64, IntToFloat, IntToInt, IntToInt64};
use crate::num::{self, TF32};

use super::cvt::{element, rounding};
use super::{Allowance, Allowances};

#[cfg(doc)]
use crate::num::fast::Portable;

/// The kernel mode of a rounding modifier; `None` without one and for `.rs`.
fn kernel_mode(r: Option<CvtRnd>) -> Option<u8> {
    r?;
    rounding(r).and_then(mode::of)
}

/// How a sweep kernel's codes become the destination's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// The code as is (scalar destinations; `cvt.*.f16x2` FP8 pairs).
    Plain,
    /// `.tf32`: the 19-bit code in f32 layout, low 13 bits zero; a NaN code becomes this word
    /// (the canonical member the semantics names: [`TF32_NAN_WORD`] where any f32 NaN is
    /// allowed, else tf32's canonical NaN, [`TF32_RELU_NAN_WORD`]).
    Tf32 {
        /// The word of a NaN result.
        nan_word: u32,
    },
    /// An x2 destination of 8-bit lanes from two equal `.f32` sources: the code in both bytes.
    Pair8,
    /// An x2 destination of 16-bit lanes (`.f16x2`, `.bf16x2`) from two equal `.f32` sources.
    Pair16,
}

/// tf32's canonical NaN as a code.
pub(crate) const TF32_NAN_CODE: u32 = match TF32.canonical_nan_bits() {
    Some(b) => b as u32,
    None => 0,
};
/// The word a `.tf32` NaN result is shown as: the semantics leave it any f32 NaN (the low 13
/// bits are not promised to be zero for NaNs) and name f32's canonical NaN.
pub const TF32_NAN_WORD: u32 = match num::F32.canonical_nan_bits() {
    Some(b) => b as u32,
    None => 0,
};
/// The word of a `.tf32` NaN result where the NaN is fixed (`.relu`, or `nan-payload` off):
/// tf32's canonical NaN in f32 layout.
pub const TF32_RELU_NAN_WORD: u32 = TF32_NAN_CODE << 13;

/// A kernel for a sweep of one form: the kernel, and how its codes become destination words.
#[derive(Clone, Copy, Debug)]
pub struct SweepKernel {
    /// The kernel.
    pub kernel: SliceFn,
    /// How its codes are laid out.
    pub layout: Layout,
    /// `.relu` applied after the kernel: codes with this sign bit become +0 (NaN codes are
    /// positive and canonical).
    pub relu_sign: Option<u32>,
}

impl SweepKernel {
    /// Whether the words fill results of `out_bytes` bytes.
    pub fn fits(&self, out_bytes: usize) -> bool {
        matches!(
            (self.kernel, self.layout, out_bytes),
            (SliceFn::Wide(_), Layout::Plain, 8)
                | (SliceFn::Narrow(_), Layout::Plain, 1 | 2 | 4)
                | (SliceFn::Narrow(_), Layout::Tf32 { .. } | Layout::Pair16, 4)
                | (SliceFn::Narrow(_), Layout::Pair8, 2)
        )
    }

    /// Turns the codes of a narrow kernel into destination words, in place (inlined into the
    /// caller's loop, so it is compiled with the caller's target features).
    #[inline(always)]
    pub fn place(&self, words: &mut [u32]) {
        if let Some(sign) = self.relu_sign {
            for w in words.iter_mut() {
                *w = if *w & sign != 0 { 0 } else { *w };
            }
        }
        match self.layout {
            Layout::Plain => {}
            Layout::Tf32 { nan_word } => {
                for w in words.iter_mut() {
                    *w = if *w == TF32_NAN_CODE { nan_word } else { *w << 13 };
                }
            }
            Layout::Pair8 => words.iter_mut().for_each(|w| *w = (*w & 0xFF) * 0x0101),
            Layout::Pair16 => words.iter_mut().for_each(|w| *w |= *w << 16),
        }
    }

    /// The destination words for `input` (the kernel, then [`Self::place`]), as `u64`.
    pub fn words(&self, input: &[u32]) -> Vec<u64> {
        match self.kernel {
            SliceFn::Wide(_) => self.kernel.apply(input),
            SliceFn::Narrow(f) => {
                let mut w = vec![0u32; input.len()];
                f(input, &mut w);
                self.place(&mut w);
                w.into_iter().map(u64::from).collect()
            }
        }
    }
}

/// A fast kernel with its const parameters as runtime values: one variant per kernel family
/// of [`crate::num::fast`] and [`crate::num::fast_int`], named after it. [`spec`] and
/// [`sweep_spec`] map forms to specs (the one table from qualifiers to parameters);
/// [`instantiate`] turns a spec into the const-generic kernel, and
/// [`super::cvt_fast_ir`] into its GPU twin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelSpec {
    /// [`F32ToHalf`]`<e, m, mode, satfinite, relu, ftz, sat>`.
    F32ToHalf {
        /// Exponent bits.
        e: u32,
        /// Mantissa bits.
        m: u32,
        /// Rounding ([`mode`]).
        mode: u8,
        /// `.satfinite`.
        satfinite: bool,
        /// `.relu`.
        relu: bool,
        /// `.ftz`.
        ftz: bool,
        /// `.sat`.
        sat: bool,
    },
    /// [`F32ToFmt`]`<e, m, sat, fn_, mode>` (one lane of `.tf32` and the x2 destinations).
    F32ToFmt {
        /// Exponent bits.
        e: u32,
        /// Mantissa bits.
        m: u32,
        /// Saturating overflow (`.satfinite`).
        sat: bool,
        /// No infinity, all-ones NaN (E4M3).
        fn_: bool,
        /// Rounding ([`mode`]).
        mode: u8,
    },
    /// [`F16x2ToFp8x2`]`<e, m, fn_, relu>`.
    F16x2ToFp8x2 {
        /// Exponent bits.
        e: u32,
        /// Mantissa bits.
        m: u32,
        /// No infinity, all-ones NaN (E4M3).
        fn_: bool,
        /// `.relu`.
        relu: bool,
    },
    /// [`F32ToF32`]`<mode, integral, ftz, sat>`.
    F32ToF32 {
        /// Rounding ([`mode`]; [`mode::RN`] when not integral).
        mode: u8,
        /// Round to an integral value (`.irnd`).
        integral: bool,
        /// `.ftz`.
        ftz: bool,
        /// `.sat`.
        sat: bool,
    },
    /// [`F32ToF64`]`<ftz, sat>`.
    F32ToF64 {
        /// `.ftz`.
        ftz: bool,
        /// `.sat`.
        sat: bool,
    },
    /// [`F32ToInt`]`<bits, signed, mode, ftz>`.
    F32ToInt {
        /// Destination width (8, 16 or 32).
        bits: u32,
        /// Signed destination.
        signed: bool,
        /// Rounding ([`mode`]).
        mode: u8,
        /// `.ftz`.
        ftz: bool,
    },
    /// [`F32ToInt64`]`<signed, mode, ftz>`.
    F32ToInt64 {
        /// Signed destination.
        signed: bool,
        /// Rounding ([`mode`]).
        mode: u8,
        /// `.ftz`.
        ftz: bool,
    },
    /// [`IntToFloat`]`<signed, e, m, mode, sat>`.
    IntToFloat {
        /// Signed source.
        signed: bool,
        /// Exponent bits.
        e: u32,
        /// Mantissa bits.
        m: u32,
        /// Rounding ([`mode`]).
        mode: u8,
        /// `.sat`.
        sat: bool,
    },
    /// [`IntToF64`]`<signed, sat>`.
    IntToF64 {
        /// Signed source.
        signed: bool,
        /// `.sat`.
        sat: bool,
    },
    /// [`IntToInt`]`<src_signed, bits, signed, sat>`.
    IntToInt {
        /// Signed source.
        src_signed: bool,
        /// Destination width (8, 16 or 32).
        bits: u32,
        /// Signed destination.
        signed: bool,
        /// `.sat`.
        sat: bool,
    },
    /// [`IntToInt64`]`<src_signed, signed, sat>`.
    IntToInt64 {
        /// Signed source.
        src_signed: bool,
        /// Signed destination.
        signed: bool,
        /// `.sat`.
        sat: bool,
    },
}

impl KernelSpec {
    /// Whether the kernel's codes are 64 bits wide (`(low, high)` halves).
    pub fn is_wide(&self) -> bool {
        matches!(
            self,
            KernelSpec::F32ToF64 { .. }
                | KernelSpec::F32ToInt64 { .. }
                | KernelSpec::IntToF64 { .. }
                | KernelSpec::IntToInt64 { .. }
        )
    }
}

/// A kernel for a sweep of one form as data: the kernel's spec, and how its codes become
/// destination words ([`SweepKernel`] instantiated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SweepSpec {
    /// The kernel.
    pub kernel: KernelSpec,
    /// How its codes are laid out.
    pub layout: Layout,
    /// `.relu` applied after the kernel (see [`SweepKernel::relu_sign`]).
    pub relu_sign: Option<u32>,
}

/// The kernel of `c` for an exhaustive sweep under `allow`: [`select`]'s, laid out as is, or
/// one lane kernel for `.tf32` and the x2 destinations from `.f32` (whose sweeps set `a = b`).
/// Its words are the `bits` of [`super::cvt::eval`] under `allow`.
pub fn select_sweep(c: &Cvt, inst: &impl Instantiate, allow: &Allowances) -> Option<SweepKernel> {
    let s = sweep_spec(c, allow)?;
    Some(SweepKernel { kernel: instantiate(&s.kernel, inst)?, layout: s.layout, relu_sign: s.relu_sign })
}

/// [`select_sweep`] as data.
pub fn sweep_spec(c: &Cvt, allow: &Allowances) -> Option<SweepSpec> {
    if let Some(kernel) = spec(c) {
        return Some(SweepSpec { kernel, layout: Layout::Plain, relu_sign: None });
    }
    use CvtType::*;
    if c.atype != F32 || c.ftz || c.sat {
        return None;
    }
    let mode = kernel_mode(c.rnd)?;
    let layout = match c.dtype {
        Tf32 if c.relu || !allow.allows(Allowance::NanPayload) => Layout::Tf32 { nan_word: TF32_RELU_NAN_WORD },
        Tf32 => Layout::Tf32 { nan_word: TF32_NAN_WORD },
        E4m3x2 | E5m2x2 => Layout::Pair8,
        F16x2 | Bf16x2 => Layout::Pair16,
        _ => return None,
    };
    let sat = c.satfinite;
    let kernel = match c.dtype {
        F16x2 => KernelSpec::F32ToFmt { e: 5, m: 10, sat, fn_: false, mode },
        Bf16x2 => KernelSpec::F32ToFmt { e: 8, m: 7, sat, fn_: false, mode },
        Tf32 => KernelSpec::F32ToFmt { e: 8, m: 10, sat, fn_: false, mode },
        // FP8 lanes always saturate (`.satfinite` is required); E4M3 has no infinity.
        E4m3x2 => KernelSpec::F32ToFmt { e: 4, m: 3, sat: true, fn_: true, mode },
        _ => KernelSpec::F32ToFmt { e: 5, m: 2, sat: true, fn_: false, mode },
    };
    // The sign bit of the kernel's code: the top bit of the element's format.
    let sign = element(c.dtype).map(|e| 1u32 << e.format.sign_shift())?;
    Some(SweepSpec { kernel, layout, relu_sign: c.relu.then_some(sign) })
}

/// Binds a runtime rounding mode to the const `$M` for `$body`: the modes of the scalar
/// kernels (`.rna` has none).
macro_rules! with_mode {
    ($m:expr, $M:ident => $body:expr) => {
        match $m {
            mode::RN => {
                const $M: u8 = mode::RN;
                $body
            }
            mode::RZ => {
                const $M: u8 = mode::RZ;
                $body
            }
            mode::RM => {
                const $M: u8 = mode::RM;
                $body
            }
            mode::RP => {
                const $M: u8 = mode::RP;
                $body
            }
            _ => return None,
        }
    };
}

/// [`with_mode`] and `.rna` (the lane kernels of `.tf32` and the x2 destinations).
macro_rules! with_any_mode {
    ($m:expr, $M:ident => $body:expr) => {
        match $m {
            mode::RNA => {
                const $M: u8 = mode::RNA;
                $body
            }
            other => with_mode!(other, $M => $body),
        }
    };
}

/// Binds a runtime flag to the const `$B` for `$body`.
macro_rules! with_flag {
    ($b:expr, $B:ident => $body:expr) => {
        if $b {
            const $B: bool = true;
            $body
        } else {
            const $B: bool = false;
            $body
        }
    };
}

/// The kernel for `c`, instantiated by `inst`; `None` where no kernel computes the form (see
/// the module header).
pub fn select(c: &Cvt, inst: &impl Instantiate) -> Option<SliceFn> {
    instantiate(&spec(c)?, inst)
}

/// The const-generic kernel of `s`, instantiated by `inst`; `None` for parameters no form
/// has (those [`spec`] and [`sweep_spec`] never give).
pub fn instantiate(s: &KernelSpec, inst: &impl Instantiate) -> Option<SliceFn> {
    Some(match *s {
        KernelSpec::F32ToHalf { e, m, mode, satfinite, relu, ftz, sat } => {
            macro_rules! half {
                ($e:literal, $m:literal) => {
                    with_mode!(mode, M => match (satfinite, relu, ftz, sat) {
                        (false, false, false, false) => inst.narrow::<F32ToHalf<$e, $m, M, false, false, false, false>>(),
                        (true, false, false, false) => inst.narrow::<F32ToHalf<$e, $m, M, true, false, false, false>>(),
                        (false, true, false, false) => inst.narrow::<F32ToHalf<$e, $m, M, false, true, false, false>>(),
                        (true, true, false, false) => inst.narrow::<F32ToHalf<$e, $m, M, true, true, false, false>>(),
                        (false, false, true, false) => inst.narrow::<F32ToHalf<$e, $m, M, false, false, true, false>>(),
                        (false, false, false, true) => inst.narrow::<F32ToHalf<$e, $m, M, false, false, false, true>>(),
                        (false, false, true, true) => inst.narrow::<F32ToHalf<$e, $m, M, false, false, true, true>>(),
                        _ => return None,
                    })
                };
            }
            match (e, m) {
                (5, 10) => half!(5, 10),
                (8, 7) => half!(8, 7),
                _ => return None,
            }
        }
        KernelSpec::F32ToFmt { e, m, sat, fn_, mode } => {
            macro_rules! fmt {
                ($e:literal, $m:literal, $fn_:literal) => {
                    with_any_mode!(mode, M => with_flag!(sat, SAT => inst.narrow::<F32ToFmt<$e, $m, SAT, $fn_, M>>()))
                };
            }
            match (e, m, fn_) {
                (5, 10, false) => fmt!(5, 10, false),
                (8, 7, false) => fmt!(8, 7, false),
                (8, 10, false) => fmt!(8, 10, false),
                (4, 3, true) => fmt!(4, 3, true),
                (5, 2, false) => fmt!(5, 2, false),
                _ => return None,
            }
        }
        KernelSpec::F16x2ToFp8x2 { e, m, fn_, relu } => match (e, m, fn_, relu) {
            (4, 3, true, false) => inst.narrow::<F16x2ToFp8x2<4, 3, true, false>>(),
            (4, 3, true, true) => inst.narrow::<F16x2ToFp8x2<4, 3, true, true>>(),
            (5, 2, false, false) => inst.narrow::<F16x2ToFp8x2<5, 2, false, false>>(),
            (5, 2, false, true) => inst.narrow::<F16x2ToFp8x2<5, 2, false, true>>(),
            _ => return None,
        },
        KernelSpec::F32ToF32 { mode: mode::RN, integral: false, ftz, sat } => {
            with_flag!(ftz, FTZ => with_flag!(sat, SAT => inst.narrow::<F32ToF32<{ mode::RN }, false, FTZ, SAT>>()))
        }
        KernelSpec::F32ToF32 { integral: false, .. } => return None,
        KernelSpec::F32ToF32 { mode, ftz, sat, .. } => with_mode!(mode, M => with_flag!(ftz, FTZ =>
            with_flag!(sat, SAT => inst.narrow::<F32ToF32<M, true, FTZ, SAT>>()))),
        KernelSpec::F32ToF64 { ftz, sat } => {
            with_flag!(ftz, FTZ => with_flag!(sat, SAT => inst.wide::<F32ToF64<FTZ, SAT>>()))
        }
        KernelSpec::F32ToInt { bits, signed, mode, ftz } => with_mode!(mode, M => with_flag!(ftz, FTZ =>
        match (bits, signed) {
            (8, true) => inst.narrow::<F32ToInt<8, true, M, FTZ>>(),
            (8, false) => inst.narrow::<F32ToInt<8, false, M, FTZ>>(),
            (16, true) => inst.narrow::<F32ToInt<16, true, M, FTZ>>(),
            (16, false) => inst.narrow::<F32ToInt<16, false, M, FTZ>>(),
            (32, true) => inst.narrow::<F32ToInt<32, true, M, FTZ>>(),
            (32, false) => inst.narrow::<F32ToInt<32, false, M, FTZ>>(),
            _ => return None,
        })),
        KernelSpec::F32ToInt64 { signed, mode, ftz } => with_mode!(mode, M => with_flag!(ftz, FTZ =>
            with_flag!(signed, S => inst.wide::<F32ToInt64<S, M, FTZ>>()))),
        KernelSpec::IntToFloat { signed, e, m, mode, sat } => {
            with_mode!(mode, M => with_flag!(signed, SIGNED => with_flag!(sat, SAT => match (e, m) {
                (5, 10) => inst.narrow::<IntToFloat<SIGNED, 5, 10, M, SAT>>(),
                (8, 7) => inst.narrow::<IntToFloat<SIGNED, 8, 7, M, SAT>>(),
                (8, 23) => inst.narrow::<IntToFloat<SIGNED, 8, 23, M, SAT>>(),
                _ => return None,
            })))
        }
        KernelSpec::IntToF64 { signed, sat } => {
            with_flag!(signed, SIGNED => with_flag!(sat, SAT => inst.wide::<IntToF64<SIGNED, SAT>>()))
        }
        KernelSpec::IntToInt { src_signed, bits, signed, sat } => {
            with_flag!(src_signed, SRC => with_flag!(sat, SAT => match (bits, signed) {
                (8, true) => inst.narrow::<IntToInt<SRC, 8, true, SAT>>(),
                (8, false) => inst.narrow::<IntToInt<SRC, 8, false, SAT>>(),
                (16, true) => inst.narrow::<IntToInt<SRC, 16, true, SAT>>(),
                (16, false) => inst.narrow::<IntToInt<SRC, 16, false, SAT>>(),
                (32, true) => inst.narrow::<IntToInt<SRC, 32, true, SAT>>(),
                (32, false) => inst.narrow::<IntToInt<SRC, 32, false, SAT>>(),
                _ => return None,
            }))
        }
        KernelSpec::IntToInt64 { src_signed, signed, sat } => with_flag!(src_signed, SRC => with_flag!(signed, S =>
            with_flag!(sat, SAT => inst.wide::<IntToInt64<SRC, S, SAT>>()))),
    })
}

/// The kernel spec of `c`; `None` where no kernel computes the form (see the module header).
/// The one place a form's qualifiers become kernel parameters.
pub fn spec(c: &Cvt) -> Option<KernelSpec> {
    use CvtType::*;
    let (d, a) = (c.dtype, c.atype);
    if a == F16x2 && matches!(d, E4m3x2 | E5m2x2) && c.rnd == Some(CvtRnd::Rn) && c.satfinite {
        return Some(match d {
            E4m3x2 => KernelSpec::F16x2ToFp8x2 { e: 4, m: 3, fn_: true, relu: c.relu },
            _ => KernelSpec::F16x2ToFp8x2 { e: 5, m: 2, fn_: false, relu: c.relu },
        });
    }
    if !(d.is_scalar() && matches!(a, F32 | S32 | U32)) {
        return None;
    }
    // The scalar kernels round to nearest even, toward zero or toward ±∞; `.rna` and `.rs`
    // have none.
    let m = kernel_mode(c.rnd).filter(|&m| m != mode::RNA);
    let integral = c.rnd.is_some_and(CvtRnd::is_integer);
    let (bits, signed) = (d.bits(), d.is_signed_int());
    Some(match (a, d) {
        (F32, F16 | Bf16) => {
            let (e, mb) = if d == F16 { (5, 10) } else { (8, 7) };
            // `.relu`/`.satfinite` take no `.ftz`/`.sat` (§9.7.9.21 syntax).
            if (c.satfinite || c.relu) && (c.ftz || c.sat) {
                return None;
            }
            KernelSpec::F32ToHalf { e, m: mb, mode: m?, satfinite: c.satfinite, relu: c.relu, ftz: c.ftz, sat: c.sat }
        }
        (F32, F32) if c.rnd.is_none() => {
            KernelSpec::F32ToF32 { mode: mode::RN, integral: false, ftz: c.ftz, sat: c.sat }
        }
        (F32, F32) if integral => KernelSpec::F32ToF32 { mode: m?, integral: true, ftz: c.ftz, sat: c.sat },
        (F32, F64) if c.rnd.is_none() => KernelSpec::F32ToF64 { ftz: c.ftz, sat: c.sat },
        // `.sat` is redundant for float-to-integer conversions (§9.7.9.21 Saturation modifier).
        (F32, _) if d.is_int() && integral => match bits {
            8 | 16 | 32 => KernelSpec::F32ToInt { bits, signed, mode: m?, ftz: c.ftz },
            _ => KernelSpec::F32ToInt64 { signed, mode: m?, ftz: c.ftz },
        },
        // Integers are never subnormal, so `.ftz` (f32 results) changes nothing.
        (S32 | U32, F16 | Bf16 | F32) if !c.relu && !c.satfinite => {
            let (e, mb) = match d {
                F16 => (5, 10),
                Bf16 => (8, 7),
                _ => (8, 23),
            };
            KernelSpec::IntToFloat { signed: a == S32, e, m: mb, mode: m?, sat: c.sat }
        }
        (S32 | U32, F64) => KernelSpec::IntToF64 { signed: a == S32, sat: c.sat },
        (S32 | U32, _) if d.is_int() && c.rnd.is_none() => match bits {
            8 | 16 | 32 => KernelSpec::IntToInt { src_signed: a == S32, bits, signed, sat: c.sat },
            _ => KernelSpec::IntToInt64 { src_signed: a == S32, signed, sat: c.sat },
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Family, Form};
    use crate::num::fast::{stratified, Portable};
    use crate::semantics::cvt::{eval, CvtInputs};
    use crate::semantics::Allowances;

    /// Every legal cvt form the table covers.
    fn covered() -> Vec<(Cvt, SliceFn)> {
        Family::Cvt
            .candidates()
            .into_iter()
            .filter(|f| f.check().is_ok())
            .filter_map(|f| match f {
                Form::Cvt(c) => select(&c, &Portable).map(|k| (c, k)),
                _ => None,
            })
            .collect()
    }

    /// Compares `kernel` with the semantics (no allowances) of `c` on `inputs`.
    fn agree(c: &Cvt, kernel: SliceFn, inputs: &[u32]) {
        let got = kernel.apply(inputs);
        let none = Allowances::none();
        for (&x, &code) in inputs.iter().zip(&got) {
            let e = eval(c, &CvtInputs { a: u64::from(x), ..Default::default() }, &none);
            assert!(e.bits == u128::from(code), "{c:?} on {x:#010x}: kernel {code:#x}, semantics {:#x}", e.bits);
        }
    }

    #[test]
    fn the_table_covers_every_scalar_form_with_a_32_bit_source() {
        let all: Vec<Cvt> = Family::Cvt
            .candidates()
            .into_iter()
            .filter(|f| f.check().is_ok())
            .filter_map(|f| match f {
                Form::Cvt(c) => Some(c),
                _ => None,
            })
            .collect();
        let missing: Vec<String> = all
            .iter()
            .filter(|c| c.dtype.is_scalar() && matches!(c.atype, CvtType::F32 | CvtType::S32 | CvtType::U32))
            .filter(|c| select(c, &Portable).is_none())
            .map(|c| Form::Cvt(*c).opcode())
            .collect();
        assert!(missing.is_empty(), "no fast kernel for {missing:?}");
        eprintln!("{} forms with a fast kernel", covered().len());
    }

    /// Each kernel equals the full semantics on stratified inputs: every sign and exponent with
    /// the rounding edges of every bit position, plus random words.
    #[test]
    fn kernels_match_the_semantics_on_stratified_inputs() {
        let inputs: Vec<u32> = stratified(1 << 13).collect();
        for (c, k) in covered() {
            agree(&c, k, &inputs);
        }
    }

    /// The sweep kernels, laid out, equal the full semantics with `a = b` (how sweeps set the
    /// x2 forms' sources) on stratified inputs, for every legal form `select_sweep` covers
    /// beyond `select`.
    #[test]
    fn sweep_layouts_match_the_semantics() {
        let inputs: Vec<u32> = stratified(1 << 12).collect();
        for allow in [Allowances::all(), Allowances::none()] {
            let mut laid_out = 0;
            for f in Family::Cvt.candidates().into_iter().filter(|f| f.check().is_ok()) {
                let Form::Cvt(c) = f else { continue };
                let Some(k) = select_sweep(&c, &Portable, &allow) else { continue };
                if k.layout == Layout::Plain {
                    continue;
                }
                laid_out += 1;
                for (&x, &w) in inputs.iter().zip(&k.words(&inputs)) {
                    let (a, b) = (u64::from(x), u64::from(x));
                    let e = eval(&c, &CvtInputs { a, b, ..Default::default() }, &allow);
                    assert_eq!(e.bits, u128::from(w), "{} on {x:#010x}", Form::Cvt(c).opcode());
                }
            }
            assert!(laid_out >= 20, "{laid_out} laid-out forms");
        }
    }

    /// Representative forms of each kernel family over all 2^32 inputs, on every core (minutes:
    /// `cargo test --release -p ptxdiff-oracle -- --ignored exhaustive`).
    #[test]
    #[ignore]
    fn kernels_match_the_semantics_exhaustively() {
        let forms = [
            "cvt.rm.ftz.sat.f16.f32",
            "cvt.rp.ftz.bf16.f32",
            "cvt.rn.relu.satfinite.bf16.f32",
            "cvt.rmi.ftz.sat.f32.f32",
            "cvt.ftz.f32.f32",
            "cvt.sat.f64.f32",
            "cvt.rni.s32.f32",
            "cvt.rpi.ftz.u8.f32",
            "cvt.rmi.s64.f32",
            "cvt.rn.f16.s32",
            "cvt.rp.sat.f32.u32",
            "cvt.rz.f64.s32",
            "cvt.sat.s16.u32",
            "cvt.sat.u64.s32",
        ];
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
        for s in forms {
            let Ok(Form::Cvt(c)) = Form::parse_opcode(s) else { panic!("{s} is not a cvt form") };
            let k = select(&c, &Portable).unwrap_or_else(|| panic!("{s} has no kernel"));
            std::thread::scope(|scope| {
                for t in 0..threads {
                    scope.spawn(move || {
                        let per = (1u64 << 32) / threads + 1;
                        let (lo, hi) = (t * per, ((t + 1) * per).min(1 << 32));
                        let mut x = lo;
                        while x < hi {
                            let n = (hi - x).min(1 << 16);
                            let chunk: Vec<u32> = (x..x + n).map(|v| v as u32).collect();
                            agree(&c, k, &chunk);
                            x += n;
                        }
                    });
                }
            });
            eprintln!("{s}: all 2^32 inputs agree");
        }
    }
}
