//! Which fast kernel ([`crate::num::fast`], [`crate::num::fast_int`]) computes a `cvt` form,
//! and how its codes become a sweep's destination words: one table, from a form's qualifiers
//! to a kernel's const parameters and a [`Layout`], used by the runner's sweeps (through its
//! AVX2 [`Instantiate`]) and by the tests here (through [`Portable`]).
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
const TF32_NAN_CODE: u32 = match TF32.canonical_nan_bits() {
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

/// The kernel of `c` for an exhaustive sweep under `allow`: [`select`]'s, laid out as is, or
/// one lane kernel for `.tf32` and the x2 destinations from `.f32` (whose sweeps set `a = b`).
/// Its words are the `bits` of [`super::cvt::eval`] under `allow`.
pub fn select_sweep(c: &Cvt, inst: &impl Instantiate, allow: &Allowances) -> Option<SweepKernel> {
    if let Some(kernel) = select(c, inst) {
        return Some(SweepKernel { kernel, layout: Layout::Plain, relu_sign: None });
    }
    use CvtType::*;
    if c.atype != F32 || c.ftz || c.sat {
        return None;
    }
    let m = kernel_mode(c.rnd)?;
    let layout = match c.dtype {
        Tf32 if c.relu || !allow.allows(Allowance::NanPayload) => Layout::Tf32 { nan_word: TF32_RELU_NAN_WORD },
        Tf32 => Layout::Tf32 { nan_word: TF32_NAN_WORD },
        E4m3x2 | E5m2x2 => Layout::Pair8,
        F16x2 | Bf16x2 => Layout::Pair16,
        _ => return None,
    };
    let sat = c.satfinite;
    macro_rules! pick {
        ($e:literal, $m:literal, $sat:expr, $fn_:literal) => {
            match (m, $sat) {
                (mode::RN, false) => inst.narrow::<F32ToFmt<$e, $m, false, $fn_, { mode::RN }>>(),
                (mode::RZ, false) => inst.narrow::<F32ToFmt<$e, $m, false, $fn_, { mode::RZ }>>(),
                (mode::RM, false) => inst.narrow::<F32ToFmt<$e, $m, false, $fn_, { mode::RM }>>(),
                (mode::RP, false) => inst.narrow::<F32ToFmt<$e, $m, false, $fn_, { mode::RP }>>(),
                (mode::RNA, false) => inst.narrow::<F32ToFmt<$e, $m, false, $fn_, { mode::RNA }>>(),
                (mode::RN, true) => inst.narrow::<F32ToFmt<$e, $m, true, $fn_, { mode::RN }>>(),
                (mode::RZ, true) => inst.narrow::<F32ToFmt<$e, $m, true, $fn_, { mode::RZ }>>(),
                (mode::RM, true) => inst.narrow::<F32ToFmt<$e, $m, true, $fn_, { mode::RM }>>(),
                (mode::RP, true) => inst.narrow::<F32ToFmt<$e, $m, true, $fn_, { mode::RP }>>(),
                (mode::RNA, true) => inst.narrow::<F32ToFmt<$e, $m, true, $fn_, { mode::RNA }>>(),
                _ => return None,
            }
        };
    }
    let kernel = match c.dtype {
        F16x2 => pick!(5, 10, sat, false),
        Bf16x2 => pick!(8, 7, sat, false),
        Tf32 => pick!(8, 10, sat, false),
        // FP8 lanes always saturate (`.satfinite` is required); E4M3 has no infinity.
        E4m3x2 => pick!(4, 3, true, true),
        _ => pick!(5, 2, true, false),
    };
    // The sign bit of the kernel's code: the top bit of the element's format.
    let sign = element(c.dtype).map(|e| 1u32 << e.format.sign_shift())?;
    Some(SweepKernel { kernel, layout, relu_sign: c.relu.then_some(sign) })
}

/// Binds a runtime rounding mode to the const `$M` for `$body`.
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
    use CvtType::*;
    let (d, a) = (c.dtype, c.atype);
    if a == F16x2 && matches!(d, E4m3x2 | E5m2x2) && c.rnd == Some(CvtRnd::Rn) && c.satfinite {
        return Some(match (d, c.relu) {
            (E4m3x2, false) => inst.narrow::<F16x2ToFp8x2<4, 3, true, false>>(),
            (E4m3x2, true) => inst.narrow::<F16x2ToFp8x2<4, 3, true, true>>(),
            (_, false) => inst.narrow::<F16x2ToFp8x2<5, 2, false, false>>(),
            (_, true) => inst.narrow::<F16x2ToFp8x2<5, 2, false, true>>(),
        });
    }
    if !(d.is_scalar() && matches!(a, F32 | S32 | U32)) {
        return None;
    }
    let m = kernel_mode(c.rnd);
    let integral = c.rnd.is_some_and(CvtRnd::is_integer);
    let int_bits = |t: CvtType| (t.bits(), t.is_signed_int());
    Some(match (a, d) {
        (F32, F16 | Bf16) => {
            macro_rules! half {
                ($e:literal, $m:literal) => {
                    with_mode!(m?, M => match (c.satfinite, c.relu, c.ftz, c.sat) {
                        (false, false, false, false) => inst.narrow::<F32ToHalf<$e, $m, M, false, false, false, false>>(),
                        (true, false, false, false) => inst.narrow::<F32ToHalf<$e, $m, M, true, false, false, false>>(),
                        (false, true, false, false) => inst.narrow::<F32ToHalf<$e, $m, M, false, true, false, false>>(),
                        (true, true, false, false) => inst.narrow::<F32ToHalf<$e, $m, M, true, true, false, false>>(),
                        (false, false, true, false) => inst.narrow::<F32ToHalf<$e, $m, M, false, false, true, false>>(),
                        (false, false, false, true) => inst.narrow::<F32ToHalf<$e, $m, M, false, false, false, true>>(),
                        (false, false, true, true) => inst.narrow::<F32ToHalf<$e, $m, M, false, false, true, true>>(),
                        // `.relu`/`.satfinite` take no `.ftz`/`.sat` (§9.7.9.21 syntax).
                        _ => return None,
                    })
                };
            }
            if d == F16 {
                half!(5, 10)
            } else {
                half!(8, 7)
            }
        }
        (F32, F32) if c.rnd.is_none() => {
            with_flag!(c.ftz, FTZ => with_flag!(c.sat, SAT => inst.narrow::<F32ToF32<{ mode::RN }, false, FTZ, SAT>>()))
        }
        (F32, F32) if integral => with_mode!(m?, M => with_flag!(c.ftz, FTZ => with_flag!(c.sat, SAT =>
            inst.narrow::<F32ToF32<M, true, FTZ, SAT>>()))),
        (F32, F64) if c.rnd.is_none() => {
            with_flag!(c.ftz, FTZ => with_flag!(c.sat, SAT => inst.wide::<F32ToF64<FTZ, SAT>>()))
        }
        // `.sat` is redundant for float-to-integer conversions (§9.7.9.21 Saturation modifier).
        (F32, _) if d.is_int() && integral => with_mode!(m?, M => with_flag!(c.ftz, FTZ => match int_bits(d) {
            (8, true) => inst.narrow::<F32ToInt<8, true, M, FTZ>>(),
            (8, false) => inst.narrow::<F32ToInt<8, false, M, FTZ>>(),
            (16, true) => inst.narrow::<F32ToInt<16, true, M, FTZ>>(),
            (16, false) => inst.narrow::<F32ToInt<16, false, M, FTZ>>(),
            (32, true) => inst.narrow::<F32ToInt<32, true, M, FTZ>>(),
            (32, false) => inst.narrow::<F32ToInt<32, false, M, FTZ>>(),
            (_, true) => inst.wide::<F32ToInt64<true, M, FTZ>>(),
            (_, false) => inst.wide::<F32ToInt64<false, M, FTZ>>(),
        })),
        // Integers are never subnormal, so `.ftz` (f32 results) changes nothing.
        (S32 | U32, F16 | Bf16 | F32) if !c.relu && !c.satfinite => {
            with_mode!(m?, M => with_flag!(a == S32, SIGNED => with_flag!(c.sat, SAT => match d {
                F16 => inst.narrow::<IntToFloat<SIGNED, 5, 10, M, SAT>>(),
                Bf16 => inst.narrow::<IntToFloat<SIGNED, 8, 7, M, SAT>>(),
                _ => inst.narrow::<IntToFloat<SIGNED, 8, 23, M, SAT>>(),
            })))
        }
        (S32 | U32, F64) => {
            with_flag!(a == S32, SIGNED => with_flag!(c.sat, SAT => inst.wide::<IntToF64<SIGNED, SAT>>()))
        }
        (S32 | U32, _) if d.is_int() && c.rnd.is_none() => {
            with_flag!(a == S32, SRC => with_flag!(c.sat, SAT => match int_bits(d) {
                (8, true) => inst.narrow::<IntToInt<SRC, 8, true, SAT>>(),
                (8, false) => inst.narrow::<IntToInt<SRC, 8, false, SAT>>(),
                (16, true) => inst.narrow::<IntToInt<SRC, 16, true, SAT>>(),
                (16, false) => inst.narrow::<IntToInt<SRC, 16, false, SAT>>(),
                (32, true) => inst.narrow::<IntToInt<SRC, 32, true, SAT>>(),
                (32, false) => inst.narrow::<IntToInt<SRC, 32, false, SAT>>(),
                (_, true) => inst.wide::<IntToInt64<SRC, true, SAT>>(),
                (_, false) => inst.wide::<IntToInt64<SRC, false, SAT>>(),
            }))
        }
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
