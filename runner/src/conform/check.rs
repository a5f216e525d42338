//! The oracle side of a sweep: for every index of a range, the expected destination of the
//! form on the inputs [`generator::sweep`] derives from that index, compared with the bytes a
//! backend produced. Runs on all cores; the hottest conversions go through the fast kernels of
//! [`crate::fastpath`] first and fall back to the full semantics only where they differ (NaN
//! sets, mismatches).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use generator::sweep::{mix64, Scheme};
use oracle::isa::{Cvt, CvtRnd, CvtType, Form};
use oracle::semantics::cvt::CvtInputs;
use oracle::semantics::operands::source_slots;
use oracle::semantics::{cvt, cvt_pack, prmt, Allowances, Expected};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::fastpath;

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

/// Which fast kernel a form can use.
#[derive(Clone, Copy, Debug)]
enum Fast {
    F16,
    Bf16,
    Tf32,
    E4m3x2,
    E5m2x2,
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
        let plain = |c: &Cvt, r, d, a| c.rnd == Some(r) && c.dtype == d && c.atype == a && !c.ftz && !c.sat && !c.relu;
        let fast = match form {
            Form::Cvt(c) if plain(c, CvtRnd::Rn, CvtType::F16, CvtType::F32) && !c.satfinite => Some(Fast::F16),
            Form::Cvt(c) if plain(c, CvtRnd::Rn, CvtType::Bf16, CvtType::F32) && !c.satfinite => Some(Fast::Bf16),
            Form::Cvt(c) if plain(c, CvtRnd::Rna, CvtType::Tf32, CvtType::F32) && !c.satfinite => Some(Fast::Tf32),
            Form::Cvt(c) if plain(c, CvtRnd::Rn, CvtType::E4m3x2, CvtType::F32) => Some(Fast::E4m3x2),
            Form::Cvt(c) if plain(c, CvtRnd::Rn, CvtType::E5m2x2, CvtType::F32) => Some(Fast::E5m2x2),
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
    fn fast_suspects(&self, f: Fast, start: u64, bytes: &[u8]) -> Vec<usize> {
        let len = bytes.len() / self.out_bytes as usize;
        let input: Vec<u32> = (0..len as u64).map(|k| (start + k) as u32).collect();
        let mut suspects = Vec::new();
        match f {
            Fast::F16 | Fast::Bf16 => {
                let mut out = vec![0u16; len];
                if matches!(f, Fast::F16) {
                    fastpath::f32_to_f16_rn(&input, &mut out);
                } else {
                    fastpath::f32_to_bf16_rn(&input, &mut out);
                }
                for (k, (w, chunk)) in out.iter().zip(bytes.chunks_exact(2)).enumerate() {
                    if w.to_le_bytes() != [chunk[0], chunk[1]] {
                        suspects.push(k);
                    }
                }
            }
            Fast::Tf32 => {
                let mut out = vec![0u32; len];
                fastpath::f32_to_tf32_rna(&input, &mut out);
                for (k, (w, chunk)) in out.iter().zip(bytes.chunks_exact(4)).enumerate() {
                    if w.to_le_bytes()[..] != chunk[..] {
                        suspects.push(k);
                    }
                }
            }
            Fast::E4m3x2 | Fast::E5m2x2 => {
                let mut out = vec![0u8; len];
                if matches!(f, Fast::E4m3x2) {
                    fastpath::f32_to_e4m3_rn_satfinite(&input, &mut out);
                } else {
                    fastpath::f32_to_e5m2_rn_satfinite(&input, &mut out);
                }
                // a = b = the index: both lanes hold the same conversion.
                for (k, (&x, chunk)) in out.iter().zip(bytes.chunks_exact(2)).enumerate() {
                    if chunk[0] != x || chunk[1] != x {
                        suspects.push(k);
                    }
                }
            }
        }
        suspects
    }
}
