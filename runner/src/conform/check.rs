//! The oracle side of a sweep: for every index of a range, the expected destination of the
//! form on the inputs [`generator::sweep`] derives from that index, compared with the bytes a
//! backend produced. Runs on all cores; the hottest conversions go through the fast kernels of
//! [`crate::fastpath`] first and fall back to the full semantics only where they differ (NaN
//! sets, mismatches).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use generator::sweep::{mix64, Scheme};
use oracle::isa::{CvtRnd, CvtType, Form};
use oracle::semantics::cvt::CvtInputs;
use oracle::semantics::operands::source_slots;
use oracle::semantics::{cvt, cvt_pack, prmt, Allowances, Expected};
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
    kernel: fastpath::SliceKernel,
    layout: Layout,
    /// `.relu`: codes with this sign bit become +0 (NaN codes are positive and canonical).
    relu_sign: Option<u32>,
}

/// How a fast kernel's code becomes the destination's bits.
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// The code as is (f16, bf16).
    Plain,
    /// tf32: the 19-bit code in f32 layout, low 13 bits zero.
    Tf32,
    /// An x2 destination whose two lanes come from the same input (`a = b`).
    Pair8,
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

impl Checker {
    /// A checker for `form` swept under `scheme` with `out_bytes` per result.
    pub fn new(form: &Form, scheme: Scheme, out_bytes: u32, allow: Allowances) -> Checker {
        let names = source_slots(form).into_iter().map(|s| s.name).collect();
        let fast = match form {
            Form::Cvt(c) if c.atype == CvtType::F32 && !c.ftz && !c.sat => {
                use oracle::num::fast::mode;
                let m = match c.rnd {
                    Some(CvtRnd::Rn) => Some(mode::RN),
                    Some(CvtRnd::Rz) => Some(mode::RZ),
                    Some(CvtRnd::Rm) => Some(mode::RM),
                    Some(CvtRnd::Rp) => Some(mode::RP),
                    Some(CvtRnd::Rna) => Some(mode::RNA),
                    _ => None,
                };
                let (dst, layout) = match c.dtype {
                    CvtType::F16 => (Some(FastDst::F16), Layout::Plain),
                    CvtType::Bf16 => (Some(FastDst::Bf16), Layout::Plain),
                    CvtType::Tf32 => (Some(FastDst::Tf32), Layout::Tf32),
                    CvtType::E4m3x2 => (Some(FastDst::E4m3), Layout::Pair8),
                    CvtType::E5m2x2 => (Some(FastDst::E5m2), Layout::Pair8),
                    _ => (None, Layout::Plain),
                };
                match (dst, m) {
                    (Some(d), Some(m)) => {
                        // The sign bit of the kernel's code: bit 15 (f16, bf16), 18 (tf32 code),
                        // 7 (FP8 lanes).
                        let sign = match d {
                            FastDst::F16 | FastDst::Bf16 => 1 << 15,
                            FastDst::Tf32 => 1 << 18,
                            FastDst::E4m3 | FastDst::E5m2 => 1 << 7,
                        };
                        let relu_sign = c.relu.then_some(sign);
                        fastpath::f32_kernel(d, m, c.satfinite).map(|kernel| Fast { kernel, layout, relu_sign })
                    }
                    _ => None,
                }
            }
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
        let b = self.out_bytes as usize;
        let len = bytes.len() / b;
        let input: Vec<u32> = (0..len as u64).map(|k| (start + k) as u32).collect();
        let mut out = vec![0u32; len];
        (f.kernel)(&input, &mut out);
        if let Some(sign) = f.relu_sign {
            for code in &mut out {
                if *code & sign != 0 {
                    *code = 0;
                }
            }
        }
        // One tight loop per layout, so the comparison costs about as much as the kernel.
        let mut suspects = Vec::new();
        let mut flag = |k: usize, differs: bool| {
            if differs {
                suspects.push(k);
            }
        };
        match (f.layout, b) {
            (Layout::Plain, 2) => {
                for (k, (&code, c)) in out.iter().zip(bytes.chunks_exact(2)).enumerate() {
                    flag(k, u32::from(u16::from_le_bytes([c[0], c[1]])) != code);
                }
            }
            (Layout::Tf32, 4) => {
                for (k, (&code, c)) in out.iter().zip(bytes.chunks_exact(4)).enumerate() {
                    flag(k, u32::from_le_bytes([c[0], c[1], c[2], c[3]]) != code << 13);
                }
            }
            (Layout::Pair8, 2) => {
                for (k, (&code, c)) in out.iter().zip(bytes.chunks_exact(2)).enumerate() {
                    flag(k, c[0] != code as u8 || c[1] != code as u8);
                }
            }
            // A layout that does not fit the result width: let the full semantics decide.
            _ => suspects.extend(0..len),
        }
        suspects
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast kernels predict exactly what the full semantics expects (so sweeps only fall
    /// back on real mismatches), for every form that has one, on a spread of the f32 domain.
    #[test]
    fn fast_predictions_match_the_semantics() {
        let target: oracle::isa::Target = "sm_100a".parse().unwrap();
        let mut with_fast = 0;
        for (form, _) in oracle::isa::valid_forms(&target, Some(oracle::isa::Family::Cvt)) {
            let Ok(k) = generator::sweep::sweep_kernel(&form, &target) else { continue };
            let checker = Checker::new(&form, k.scheme, k.out_bytes, Allowances::all());
            let Some(fast) = checker.fast else { continue };
            with_fast += 1;
            for slice in (0..256u64).map(|s| s << 24) {
                let start = slice + 0x5A5A;
                let bytes: Vec<u8> = (start..start + 512)
                    .flat_map(|i| checker.expected(i).bits.to_le_bytes()[..k.out_bytes as usize].to_vec())
                    .collect();
                let suspects = checker.fast_suspects(fast, start, &bytes);
                assert!(
                    suspects.is_empty(),
                    "{}: fast kernel differs at {:#x}",
                    form.opcode(),
                    start + suspects[0] as u64
                );
            }
        }
        eprintln!("{with_fast} forms with a fast kernel");
        assert!(with_fast >= 28, "{with_fast} forms with a fast kernel");
    }
}
