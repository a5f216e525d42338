//! The oracle side of a sweep: for every index of a range, the expected destination of the
//! form on the inputs [`generator::sweep`] derives from that index, compared with the bytes a
//! backend produced. Runs on all cores. Exhaustive sweeps of cvt forms that have a fast kernel
//! (every scalar form with a 32-bit source, from `oracle::semantics::cvt_fast`, and the `.tf32`
//! and x2 forms from `.f32`) predict the results with it first, compiled for AVX2 by
//! [`crate::fastpath`], and fall back to the full semantics only where the backend differs
//! (NaN sets, allowances, mismatches).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use generator::sweep::{mix64, Scheme};
use oracle::isa::{Cvt, CvtRnd, CvtType, Form};
use oracle::num::fast::SliceFn;
use oracle::semantics::cvt::CvtInputs;
use oracle::semantics::operands::source_slots;
use oracle::semantics::{cvt, cvt_fast, cvt_pack, prmt, Allowances, Expected};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::fastpath::{self, FastDst};

/// One result the oracle does not admit.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Mismatch {
    /// Sweep index.
    pub index: u64,
    /// Source operands (name, hex bits).
    pub inputs: Vec<(String, String)>,
    /// What the oracle admits.
    pub expected: String,
    /// What the backend produced (hex).
    pub actual: String,
}

/// The outcome of checking one range.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Checked {
    /// Results compared.
    pub checked: u64,
    /// Results the oracle does not admit.
    pub mismatches: u64,
    /// The first few of them.
    pub examples: Vec<Mismatch>,
}

/// A fast kernel a form can use, and how its result is laid out in the destination.
#[derive(Clone, Copy)]
struct Fast {
    kernel: SliceFn,
    layout: Layout,
    /// `.relu`: codes with this sign bit become +0 (NaN codes are positive and canonical).
    relu_sign: Option<u32>,
}

/// How a fast kernel's code becomes the destination's bits.
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// The code as is (scalar destinations).
    Plain,
    /// tf32: the 19-bit code in f32 layout, low 13 bits zero.
    Tf32,
    /// An x2 destination of 8-bit lanes from two `.f32` sources that are equal (`a = b`).
    Pair8,
    /// An x2 destination of 16-bit lanes (`.f16x2`, `.bf16x2`) from two equal `.f32` sources.
    Pair16,
}

/// Checks sweep results of one form.
pub struct Checker {
    form: Form,
    scheme: Scheme,
    names: Vec<String>,
    out_bytes: u32,
    allow: Allowances,
    fast: Option<Fast>,
}

/// Results examined per parallel task.
const TASK: usize = 1 << 16;
/// Mismatches kept as examples.
const EXAMPLES: usize = 8;

/// The fast kernel of a form from `.f32` whose destination is not one scalar code: `.tf32`,
/// and x2 destinations from two `.f32` sources (which a sweep sets equal, so both lanes hold
/// the same code). Scalar destinations come from [`cvt_fast::select`].
fn packed_fast(c: &Cvt) -> Option<Fast> {
    use oracle::num::fast::mode;
    if c.atype != CvtType::F32 || c.ftz || c.sat {
        return None;
    }
    let m = match c.rnd? {
        CvtRnd::Rn => mode::RN,
        CvtRnd::Rz => mode::RZ,
        CvtRnd::Rm => mode::RM,
        CvtRnd::Rp => mode::RP,
        CvtRnd::Rna => mode::RNA,
        _ => return None,
    };
    let (dst, layout) = match c.dtype {
        CvtType::Tf32 => (FastDst::Tf32, Layout::Tf32),
        CvtType::E4m3x2 => (FastDst::E4m3, Layout::Pair8),
        CvtType::E5m2x2 => (FastDst::E5m2, Layout::Pair8),
        CvtType::F16x2 => (FastDst::F16, Layout::Pair16),
        CvtType::Bf16x2 => (FastDst::Bf16, Layout::Pair16),
        _ => return None,
    };
    // The sign bit of the kernel's code: bit 15 (f16, bf16), 18 (tf32 code), 7 (FP8 lanes).
    let sign = match dst {
        FastDst::F16 | FastDst::Bf16 => 1 << 15,
        FastDst::Tf32 => 1 << 18,
        FastDst::E4m3 | FastDst::E5m2 => 1 << 7,
    };
    let relu_sign = c.relu.then_some(sign);
    fastpath::f32_kernel(dst, m, c.satfinite).map(|k| Fast { kernel: SliceFn::Narrow(k), layout, relu_sign })
}

impl Checker {
    /// A checker for `form` swept under `scheme` with `out_bytes` per result.
    pub fn new(form: &Form, scheme: Scheme, out_bytes: u32, allow: Allowances) -> Checker {
        let names = source_slots(form).into_iter().map(|s| s.name).collect();
        let fast = match form {
            Form::Cvt(c) => match cvt_fast::select(c, &fastpath::Dispatched) {
                Some(kernel) => Some(Fast { kernel, layout: Layout::Plain, relu_sign: None }),
                None => packed_fast(c),
            },
            _ => None,
        };
        Checker {
            form: form.clone(),
            scheme,
            names,
            out_bytes,
            allow,
            fast: fast.filter(|_| matches!(scheme, Scheme::Exhaustive { .. })),
        }
    }

    /// Whether checks go through a fast kernel first (exhaustive sweeps of forms that have one).
    pub fn has_fast(&self) -> bool {
        self.fast.is_some()
    }

    /// Source operand `k` for sweep index `i`.
    fn src(&self, i: u64, k: usize) -> u64 {
        match self.scheme {
            Scheme::Exhaustive { .. } => i,
            Scheme::Sampled => mix64(i, k as u64 + 1),
        }
    }

    fn value(&self, name: &str, i: u64) -> u64 {
        self.names.iter().position(|n| n == name).map_or(0, |k| self.src(i, k))
    }

    /// The expected destination for sweep index `i`.
    pub fn expected(&self, i: u64) -> Expected {
        let mask = |bits: u32, v: u64| if bits >= 64 { v } else { v & ((1u64 << bits) - 1) };
        match &self.form {
            Form::Cvt(c) => {
                let w = |n: &str| {
                    let bits = if n == "a" { c.atype.reg().bits() } else { 32 };
                    mask(bits, self.value(n, i))
                };
                let x = CvtInputs { a: w("a"), b: w("b"), e: w("e"), f: w("f"), rbits: w("rbits") as u32 };
                cvt::eval(c, &x, &self.allow)
            }
            Form::CvtPack(p) => {
                cvt_pack::eval(p, self.value("a", i) as u32, self.value("b", i) as u32, self.value("c", i) as u32)
            }
            Form::Prmt(p) => Expected::exact(
                u128::from(prmt::eval(
                    p,
                    self.value("a", i) as u32,
                    self.value("b", i) as u32,
                    self.value("c", i) as u32,
                )),
                32,
            ),
            _ => Expected::exact(0, 0),
        }
    }

    fn actual(&self, results: &[u8], j: usize) -> u128 {
        let b = self.out_bytes as usize;
        results[j * b..(j + 1) * b].iter().rev().fold(0u128, |acc, &x| (acc << 8) | u128::from(x))
    }

    fn mismatch(&self, i: u64, e: &Expected, actual: u128) -> Mismatch {
        let inputs =
            self.names.iter().enumerate().map(|(k, n)| (n.clone(), format!("{:#x}", self.src(i, k)))).collect();
        let digits = (self.out_bytes * 2) as usize;
        Mismatch { index: i, inputs, expected: e.to_string(), actual: format!("0x{actual:0digits$x}") }
    }

    /// Compares `results` (little-endian, `out_bytes` each) for indices `base..`.
    pub fn check(&self, base: u64, results: &[u8]) -> Checked {
        let n = results.len() / self.out_bytes as usize;
        let count = AtomicU64::new(0);
        let examples = Mutex::new(Vec::new());
        let b = self.out_bytes as usize;
        (0..n.div_ceil(TASK)).into_par_iter().for_each(|t| {
            let lo = t * TASK;
            let hi = (lo + TASK).min(n);
            let bytes = &results[lo * b..hi * b];
            // Positions the fast kernel cannot vouch for (all of them without a fast kernel).
            let suspects: Vec<usize> = match self.fast {
                Some(f) => self.fast_suspects(f, base + lo as u64, bytes),
                None => (0..hi - lo).collect(),
            };
            for k in suspects {
                let j = lo + k;
                let i = base + j as u64;
                let actual = self.actual(results, j);
                let e = self.expected(i);
                if !e.matches(actual) {
                    count.fetch_add(1, Ordering::Relaxed);
                    let mut ex = examples.lock().unwrap_or_else(|p| p.into_inner());
                    if ex.len() < EXAMPLES {
                        ex.push(self.mismatch(i, &e, actual));
                    }
                }
            }
        });
        let mut examples = examples.into_inner().unwrap_or_else(|p| p.into_inner());
        examples.sort_by_key(|m| m.index);
        Checked { checked: n as u64, mismatches: count.into_inner(), examples }
    }

    /// Offsets in `bytes` (results for exhaustive indices from `start`) where the backend
    /// differs from the fast kernel: only these need the full semantics (NaN sets, mismatches).
    /// A wrong fast prediction costs time, never correctness.
    fn fast_suspects(&self, f: Fast, start: u64, bytes: &[u8]) -> Vec<usize> {
        self.suspects_by_block(f, bytes, Sources::From(start))
    }

    /// [`Self::fast_suspects`] for results `bytes` of the sources in `input`.
    #[cfg(test)]
    fn fast_suspects_of(&self, f: Fast, input: &[u32], bytes: &[u8]) -> Vec<usize> {
        self.suspects_by_block(f, bytes, Sources::Listed(input))
    }

    /// Runs the kernel on blocks that stay in the L1 cache and compares each block with the
    /// results in one vectorizable pass; only blocks with a difference are scanned for its
    /// offsets. Compiled for AVX2 too, like the kernels ([`crate::fastpath`]).
    fn suspects_by_block(&self, f: Fast, bytes: &[u8], sources: Sources) -> Vec<usize> {
        let b = self.out_bytes as usize;
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                #[target_feature(enable = "avx2")]
                fn avx2(f: Fast, b: usize, bytes: &[u8], sources: Sources) -> Vec<usize> {
                    blocks(f, b, bytes, sources)
                }
                // SAFETY: `avx2` only needs the AVX2 instructions, which the CPU has (checked
                // just above); it reads `bytes` and `sources` and calls the kernel.
                return unsafe { avx2(f, b, bytes, sources) };
            }
        }
        blocks(f, b, bytes, sources)
    }
}

/// The sources of the results a fast kernel checks.
#[derive(Clone, Copy)]
enum Sources<'a> {
    /// Consecutive exhaustive indices from this one.
    From(u64),
    /// These (tests).
    #[cfg_attr(not(test), allow(dead_code))]
    Listed(&'a [u32]),
}

/// Sources and codes per block of [`Checker::suspects_by_block`]: small enough to stay in the
/// L1 cache with the results, large enough that the per-block calls cost nothing.
const BLOCK: usize = 1024;
/// Sources per kernel call within a block.
const SLICE: usize = 128;
/// Cache lines of the next block's results to prefetch before each kernel call: all of them
/// (up to 8 bytes × [`BLOCK`]) over the block's calls.
const PREFETCH: usize = BLOCK * 8 / 64 / (BLOCK / SLICE);

/// Asks the memory system for `bytes` ahead of their use (a hint; nothing on other targets).
#[inline(always)]
fn prefetch(bytes: &[u8]) {
    #[cfg(target_arch = "x86_64")]
    for line in bytes.chunks(64) {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch is a hint that never faults; the address is inside `bytes`.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(line.as_ptr().cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = bytes;
}

/// [`Checker::suspects_by_block`] for results of `b` bytes. Each block goes through simple
/// loops over arrays of 32-bit words, which the compiler vectorizes: the kernel's codes become
/// the words the destination should hold (`want`, and `want_hi` for 64-bit results), the
/// results are read into words alike (`got`, `got_hi`), and one pass says whether any differ.
#[inline(always)]
fn blocks(f: Fast, b: usize, bytes: &[u8], sources: Sources) -> Vec<usize> {
    let len = bytes.len() / b;
    let mut input = [0u32; BLOCK];
    let (mut want, mut want_hi) = ([0u32; BLOCK], [0u32; BLOCK]);
    let (mut got, mut got_hi) = ([0u32; BLOCK], [0u32; BLOCK]);
    let mut suspects = Vec::new();
    let fits = matches!(
        (f.kernel, f.layout, b),
        (SliceFn::Wide(_), Layout::Plain, 8)
            | (SliceFn::Narrow(_), Layout::Plain, 1 | 2 | 4)
            | (SliceFn::Narrow(_), Layout::Tf32 | Layout::Pair16, 4)
            | (SliceFn::Narrow(_), Layout::Pair8, 2)
    );
    if !fits {
        // A layout that does not fit the result width: the full semantics decides.
        return (0..len).collect();
    }
    for o in (0..len).step_by(BLOCK) {
        let n = BLOCK.min(len - o);
        let (input, want, want_hi, got, got_hi) =
            (&mut input[..n], &mut want[..n], &mut want_hi[..n], &mut got[..n], &mut got_hi[..n]);
        match sources {
            Sources::From(start) => {
                let first = (start + o as u64) as u32;
                input.iter_mut().enumerate().for_each(|(j, x)| *x = first.wrapping_add(j as u32));
            }
            Sources::Listed(all) => input.copy_from_slice(&all[o..o + n]),
        }
        let results = &bytes[o * b..(o + n) * b];
        // The kernel runs on slices of the block, each after asking for a slice of the next
        // block's results: memory fetches them while the kernel computes, instead of the
        // comparison waiting for them (prefetches issued all at once stall too).
        let next = &bytes[((o + n) * b).min(bytes.len())..((o + n + BLOCK) * b).min(bytes.len())];
        let ahead = |part: usize| {
            let lo = (part * PREFETCH * 64).min(next.len());
            prefetch(&next[lo..(lo + PREFETCH * 64).min(next.len())]);
        };
        match f.kernel {
            SliceFn::Wide(kernel) => {
                for (part, ((i, w), h)) in
                    input.chunks(SLICE).zip(want.chunks_mut(SLICE)).zip(want_hi.chunks_mut(SLICE)).enumerate()
                {
                    ahead(part);
                    kernel(i, w, h);
                }
                for ((g, h), r) in got.iter_mut().zip(got_hi.iter_mut()).zip(results.chunks_exact(8)) {
                    *g = u32::from_le_bytes([r[0], r[1], r[2], r[3]]);
                    *h = u32::from_le_bytes([r[4], r[5], r[6], r[7]]);
                }
            }
            SliceFn::Narrow(kernel) => {
                for (part, (i, w)) in input.chunks(SLICE).zip(want.chunks_mut(SLICE)).enumerate() {
                    ahead(part);
                    kernel(i, w);
                }
                if let Some(sign) = f.relu_sign {
                    for w in want.iter_mut() {
                        *w = if *w & sign != 0 { 0 } else { *w };
                    }
                }
                match f.layout {
                    Layout::Plain => {}
                    Layout::Tf32 => {
                        // A NaN result is any f32 NaN, canonically 0x7FFFFFFF (its low 13 bits
                        // are not promised to be zero); under `.relu` it is tf32's canonical NaN.
                        let nan = if f.relu_sign.is_some() { 0x7FFF_E000 } else { 0x7FFF_FFFF };
                        for w in want.iter_mut() {
                            *w = if *w == 0x3_FFFF { nan } else { *w << 13 };
                        }
                    }
                    Layout::Pair8 => want.iter_mut().for_each(|w| *w = (*w & 0xFF) * 0x0101),
                    Layout::Pair16 => want.iter_mut().for_each(|w| *w |= *w << 16),
                }
                match b {
                    1 => got.iter_mut().zip(results).for_each(|(g, &r)| *g = u32::from(r)),
                    2 => got
                        .iter_mut()
                        .zip(results.chunks_exact(2))
                        .for_each(|(g, r)| *g = u32::from(u16::from_le_bytes([r[0], r[1]]))),
                    _ => got
                        .iter_mut()
                        .zip(results.chunks_exact(4))
                        .for_each(|(g, r)| *g = u32::from_le_bytes([r[0], r[1], r[2], r[3]])),
                }
            }
        }
        let diff = |k: usize| (want[k] ^ got[k]) | (want_hi[k] ^ got_hi[k]);
        let any = want
            .iter()
            .zip(got.iter())
            .zip(want_hi.iter().zip(got_hi.iter()))
            .fold(0, |acc, ((w, g), (wh, gh))| acc | (w ^ g) | (wh ^ gh));
        if any != 0 {
            suspects.extend((0..n).filter(|&k| diff(k) != 0).map(|k| o + k));
        }
    }
    suspects
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast kernels predict exactly what the full semantics expects (so sweeps only fall
    /// back on real mismatches), for every form that has one on sm_90a (PTX 8.7) and sm_100a,
    /// on stratified sources (every sign and exponent with the rounding edges of every bit
    /// position, plus random words).
    #[test]
    fn fast_predictions_match_the_semantics() {
        let inputs: Vec<u32> = oracle::num::fast::stratified(1 << 12).collect();
        let mut seen = std::collections::HashSet::new();
        for target in ["sm_90a@8.7", "sm_100a"] {
            let target: oracle::isa::Target = target.parse().unwrap();
            let mut with_fast = 0;
            for (form, _) in oracle::isa::valid_forms(&target, Some(oracle::isa::Family::Cvt)) {
                let Ok(k) = generator::sweep::sweep_kernel(&form, &target) else { continue };
                let checker = Checker::new(&form, k.scheme, k.out_bytes, Allowances::all());
                let Some(fast) = checker.fast else { continue };
                with_fast += 1;
                if !seen.insert(form.opcode()) {
                    continue;
                }
                let bytes: Vec<u8> = inputs
                    .iter()
                    .flat_map(|&x| checker.expected(u64::from(x)).bits.to_le_bytes()[..k.out_bytes as usize].to_vec())
                    .collect();
                let suspects = checker.fast_suspects_of(fast, &inputs, &bytes);
                assert!(suspects.is_empty(), "{}: fast kernel differs at {:#x}", form.opcode(), inputs[suspects[0]]);
                // A result off by one bit, anywhere in a result and in any block, is a suspect.
                let b = k.out_bytes as usize;
                let wrong = [0, 1, BLOCK - 1, BLOCK + 7, 5 * BLOCK + 100, inputs.len() - 1];
                let mut bad = bytes.clone();
                for (j, &w) in wrong.iter().enumerate() {
                    bad[w * b + j % b] ^= 1 << (j % 8);
                }
                assert_eq!(checker.fast_suspects_of(fast, &inputs, &bad), wrong, "{}", form.opcode());
            }
            eprintln!("{}: {with_fast} forms with a fast kernel", target.name());
            assert!(with_fast >= 300, "{}: {with_fast} forms with a fast kernel", target.name());
        }
    }
}
