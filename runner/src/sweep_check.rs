//! The oracle side of a sweep: for every index of a range, the expected destination of the
//! form on the inputs [`generator::sweep`] derives from that index, compared with the bytes a
//! backend produced. Runs on all cores. Exhaustive sweeps of cvt forms that have a fast kernel
//! (`oracle::semantics::cvt_fast::select_sweep`, instantiated for AVX2 by
//! [`crate::avx2_kernels`]) predict the results with it first and fall back to the full
//! semantics where the backend differs (NaN sets, allowances, mismatches).
//!
//! Invariant: a wrong fast prediction costs time, never an unnoticed verdict. Where the backend
//! differs from the kernel the full semantics decides. Where they agree, a seeded sample of the
//! agreements (2^[`AUDIT_SAMPLES_LOG2`] per 2^32-input form, all of them for small sweeps) is
//! re-checked by the full semantics; a disagreement there — the kernel and the backend agreeing
//! on bits the semantics rejects — is an oracle defect: counted in [`Checked::oracle_defects`]
//! and as a mismatch, so the row fails with a message naming the kernel's form and the input.
//! A kernel wrong, together with the backend, on a fraction `p` of a form's inputs escapes the
//! audit with probability about `(1 − p)^(2^20)`.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use generator::sweep::{mix64, Scheme};
use oracle::isa::Form;
use oracle::num::fast::SliceFn;
use oracle::semantics::cvt::CvtInputs;
use oracle::semantics::cvt_fast::{self, SweepKernel};
use oracle::semantics::operands::source_slots;
use oracle::semantics::{cvt, cvt_pack, prmt, Allowance, Allowances, Expected};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::avx2_kernels;
use crate::failure::{BackendFailure, FailureKind};

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
    /// Results the oracle does not admit (oracle defects included).
    pub mismatches: u64,
    /// The first few of them.
    pub examples: Vec<Mismatch>,
    /// Results whose fast prediction agreed with the backend and that the full semantics
    /// re-checked (the audit sample).
    #[serde(default)]
    pub audited: u64,
    /// Audited results the full semantics rejects although the fast kernel predicted them:
    /// defects of the oracle's fast kernel (each also a mismatch).
    #[serde(default)]
    pub oracle_defects: u64,
    /// The first of them, as a message naming the kernel's form and the input.
    #[serde(default)]
    pub first_oracle_defect: Option<String>,
    /// Results admitted only thanks to an allowance (they differ from the oracle's canonical
    /// bits in a field the allowance frees), per allowance name: what a baseline compares to
    /// see a change of behaviour that no allowance-free check would show.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub allowance_uses: BTreeMap<String, u64>,
}

/// The most mismatch examples a row keeps.
pub const MAX_EXAMPLES: usize = 8;

impl Checked {
    /// Adds `part` (the check of a later range) to these figures, keeping at most
    /// [`MAX_EXAMPLES`] examples and the first oracle defect.
    pub fn absorb(&mut self, part: Checked) {
        self.checked += part.checked;
        self.mismatches += part.mismatches;
        self.audited += part.audited;
        self.oracle_defects += part.oracle_defects;
        if self.first_oracle_defect.is_none() {
            self.first_oracle_defect = part.first_oracle_defect;
        }
        let room = MAX_EXAMPLES.saturating_sub(self.examples.len());
        self.examples.extend(part.examples.into_iter().take(room));
        for (name, n) in part.allowance_uses {
            *self.allowance_uses.entry(name).or_default() += n;
        }
    }

    /// Why the row fails beyond its mismatches: an oracle defect.
    pub fn failure(&self) -> Option<BackendFailure> {
        self.first_oracle_defect.as_ref().map(|m| {
            BackendFailure::new(FailureKind::OracleDefect, format!("{m} ({} oracle defect(s))", self.oracle_defects))
        })
    }
}

/// The semantics of a form whose sweep results can be checked: one variant per family with a
/// sweep kernel, so a family added to the sweeps without its semantics here cannot compile
/// into a checker that expects nothing ([`Checker::new`] refuses any other form).
#[derive(Clone, Debug)]
enum Semantics {
    Cvt(oracle::isa::Cvt),
    CvtPack(oracle::isa::CvtPack),
    Prmt(oracle::isa::Prmt),
}

/// Checks sweep results of one form.
pub struct Checker {
    form: Form,
    semantics: Semantics,
    scheme: Scheme,
    names: Vec<String>,
    out_bytes: u32,
    allow: Allowances,
    fast: Option<SweepKernel>,
    /// One audited agreement per this many consecutive indices.
    audit_window: u64,
}

/// Results examined per parallel task.
const TASK: usize = 1 << 16;
/// Mismatches kept as examples.
const EXAMPLES: usize = 8;
/// Audited agreements per 2^32-input form: 2^20, one in 4096; smaller sweeps are audited in
/// proportion, but at least 8192 inputs, or all of them when fewer.
pub const AUDIT_SAMPLES_LOG2: u32 = 20;
/// The fewest audited inputs of a sweep (all of them below this).
const AUDIT_MIN: u64 = 1 << 13;
/// Seed of the audit sample (fixed: the same indices every run).
pub const AUDIT_SEED: u64 = 0xA0D1_7C0F_FEE5_EED5;

/// One audited index per window of this many, for a sweep of `2^bits` inputs.
fn audit_window(bits: u32) -> u64 {
    let n = 1u64 << bits.min(63);
    let samples = (n >> (32 - AUDIT_SAMPLES_LOG2)).max(n.min(AUDIT_MIN));
    (n / samples).max(1)
}

impl Checker {
    /// A checker for `form` swept under `scheme` with `out_bytes` per result; `Err` for a form
    /// of a family whose sweep semantics the checker does not know.
    pub fn new(form: &Form, scheme: Scheme, out_bytes: u32, allow: Allowances) -> Result<Checker, String> {
        let semantics = match form {
            Form::Cvt(c) => Semantics::Cvt(*c),
            Form::CvtPack(p) => Semantics::CvtPack(*p),
            Form::Prmt(p) => Semantics::Prmt(*p),
            other => {
                return Err(format!(
                    "the sweep checker has no semantics for `{}` (family {}): add them to sweep_check::Semantics",
                    other.opcode(),
                    other.family().name()
                ))
            }
        };
        let names = source_slots(form).into_iter().map(|s| s.name).collect();
        let (fast, audit_window) = match (form, scheme) {
            (Form::Cvt(c), Scheme::Exhaustive { bits }) => {
                (cvt_fast::select_sweep(c, &avx2_kernels::Dispatched, &allow), audit_window(bits))
            }
            _ => (None, 1),
        };
        Ok(Checker { form: form.clone(), semantics, scheme, names, out_bytes, allow, fast, audit_window })
    }

    /// Test switch: replaces the fast kernel's function with `kernel` (a deliberately wrong
    /// one), to prove the audit catches it.
    #[cfg(test)]
    fn sabotage(&mut self, kernel: SliceFn) {
        if let Some(f) = &mut self.fast {
            f.kernel = kernel;
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
        match &self.semantics {
            Semantics::Cvt(c) => {
                let w = |n: &str| {
                    let bits = if n == "a" { c.atype.reg().bits() } else { 32 };
                    mask(bits, self.value(n, i))
                };
                let x = CvtInputs { a: w("a"), b: w("b"), e: w("e"), f: w("f"), rbits: w("rbits") as u32 };
                cvt::eval(c, &x, &self.allow)
            }
            Semantics::CvtPack(p) => {
                cvt_pack::eval(p, self.value("a", i) as u32, self.value("b", i) as u32, self.value("c", i) as u32)
            }
            Semantics::Prmt(p) => Expected::exact(
                u128::from(prmt::eval(
                    p,
                    self.value("a", i) as u32,
                    self.value("b", i) as u32,
                    self.value("c", i) as u32,
                )),
                32,
            ),
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
        let tally = Tally::new(self);
        (0..n.div_ceil(TASK)).into_par_iter().for_each(|t| {
            let mut c = Counts::default();
            let lo = t * TASK;
            let hi = (lo + TASK).min(n);
            let bytes = &results[lo * self.out_bytes as usize..hi * self.out_bytes as usize];
            // Positions the fast kernel cannot vouch for (all of them without a fast kernel).
            let suspects: Vec<usize> = match self.fast {
                Some(f) => self.fast_suspects(f, base + lo as u64, bytes),
                None => (0..hi - lo).collect(),
            };
            for &k in &suspects {
                let j = lo + k;
                tally.judge(&mut c, base + j as u64, self.actual(results, j));
            }
            // The audit: the sampled indices of this task where kernel and backend agreed.
            for i in self.audit_picks(base + lo as u64, (hi - lo) as u64) {
                let j = (i - base) as usize;
                if suspects.binary_search(&(j - lo)).is_err() {
                    tally.audit(&mut c, i, self.actual(results, j));
                }
            }
            tally.add(&c);
        });
        tally.finish(n as u64)
    }

    /// The verdict of `n` results that were compared with the fast
    /// kernel elsewhere (on the GPU, by the check kernel of [`generator::sweep_check`]):
    /// `suspects` are the results that differ from the kernel's prediction (index, actual
    /// bits), `audit` the results at [`Checker::audit_picks`] (index, actual bits; those among
    /// the suspects are skipped). Equals [`Checker::check`] of the same results, which the
    /// tests prove; every other result agreed with the prediction.
    pub fn check_reported(&self, n: u64, suspects: &[(u64, u128)], audit: &[(u64, u128)]) -> Checked {
        let tally = Tally::new(self);
        suspects.par_chunks(TASK).for_each(|part| {
            let mut c = Counts::default();
            part.iter().for_each(|&(i, actual)| tally.judge(&mut c, i, actual));
            tally.add(&c);
        });
        let mut suspect_indices: Vec<u64> = suspects.iter().map(|s| s.0).collect();
        suspect_indices.par_sort_unstable();
        audit.par_chunks(TASK).for_each(|part| {
            let mut c = Counts::default();
            for &(i, actual) in part {
                if suspect_indices.binary_search(&i).is_err() {
                    tally.audit(&mut c, i, actual);
                }
            }
            tally.add(&c);
        });
        tally.finish(n)
    }

    /// The audited indices in `first..first + n`: one per window of [`Checker::audit_window`]
    /// indices, at `window × w + mix64(window, AUDIT_SEED) mod w` (empty without a fast
    /// kernel, where every result goes through the full semantics anyway).
    pub fn audit_picks(&self, first: u64, n: u64) -> impl Iterator<Item = u64> {
        let w = self.audit_window;
        let end = first + n;
        let windows = if self.fast.is_some() { first / w..end.div_ceil(w) } else { 0..0 };
        windows.map(move |window| window * w + mix64(window, AUDIT_SEED) % w).filter(move |&i| i >= first && i < end)
    }

    /// Indices per audited index ([`Checker::audit_picks`]).
    pub fn audit_window(&self) -> u64 {
        self.audit_window
    }

    /// The message of an oracle defect at index `i`.
    fn defect_message(&self, i: u64, e: &Expected, actual: u128) -> String {
        let m = self.mismatch(i, e, actual);
        let inputs: Vec<String> = m.inputs.iter().map(|(n, v)| format!("{n}={v}")).collect();
        format!(
            "oracle defect: fast kernel of {} disagrees with the full semantics at input {} (kernel and backend {}, semantics {})",
            self.form.opcode(),
            inputs.join(" "),
            m.actual,
            m.expected
        )
    }

    /// Offsets in `bytes` (results for exhaustive indices from `start`) where the backend
    /// differs from the fast kernel, ascending: only these need the full semantics (NaN sets,
    /// mismatches); the audit samples the others.
    fn fast_suspects(&self, f: SweepKernel, start: u64, bytes: &[u8]) -> Vec<usize> {
        self.suspects_by_block(f, bytes, Sources::From(start))
    }

    /// [`Self::fast_suspects`] for results `bytes` of the sources in `input`.
    #[cfg(test)]
    fn fast_suspects_of(&self, f: SweepKernel, input: &[u32], bytes: &[u8]) -> Vec<usize> {
        self.suspects_by_block(f, bytes, Sources::Listed(input))
    }

    /// Runs the kernel on blocks that stay in the L1 cache and compares each block with the
    /// results in one vectorizable pass; only blocks with a difference are scanned for its
    /// offsets. Compiled for AVX2 too, like the kernels ([`crate::avx2_kernels`]).
    fn suspects_by_block(&self, f: SweepKernel, bytes: &[u8], sources: Sources) -> Vec<usize> {
        let b = self.out_bytes as usize;
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                #[target_feature(enable = "avx2")]
                fn avx2(f: SweepKernel, b: usize, bytes: &[u8], sources: Sources) -> Vec<usize> {
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

/// The verdicts of one check as they accumulate, from all cores: shared by the CPU path
/// ([`Checker::check`]) and the GPU path ([`Checker::check_reported`]), so both judge a
/// result the same way. Counts gather per task ([`Counts`]) and join the shared totals once
/// per task, so that millions of judged results do not fight over one cache line; the
/// examples are the smallest indices whatever the order the tasks finish in.
struct Tally<'c> {
    checker: &'c Checker,
    mismatches: AtomicU64,
    audited: AtomicU64,
    defects: AtomicU64,
    examples: Mutex<Vec<Mismatch>>,
    first_defect: Mutex<Option<(u64, String)>>,
    /// Per [`Allowance::ALL`] entry: results admitted only thanks to it.
    uses: [AtomicU64; Allowance::ALL.len()],
}

/// One task's counts, added to the [`Tally`] when the task ends.
#[derive(Default)]
struct Counts {
    mismatches: u64,
    audited: u64,
    defects: u64,
    uses: [u64; Allowance::ALL.len()],
}

impl<'c> Tally<'c> {
    fn new(checker: &'c Checker) -> Tally<'c> {
        Tally {
            checker,
            mismatches: AtomicU64::new(0),
            audited: AtomicU64::new(0),
            defects: AtomicU64::new(0),
            examples: Mutex::new(Vec::new()),
            first_defect: Mutex::new(None),
            uses: std::array::from_fn(|_| AtomicU64::new(0)),
        }
    }

    /// Adds a task's counts.
    fn add(&self, c: &Counts) {
        self.mismatches.fetch_add(c.mismatches, Ordering::Relaxed);
        self.audited.fetch_add(c.audited, Ordering::Relaxed);
        self.defects.fetch_add(c.defects, Ordering::Relaxed);
        for (total, &n) in self.uses.iter().zip(&c.uses) {
            if n > 0 {
                total.fetch_add(n, Ordering::Relaxed);
            }
        }
    }

    /// A mismatch: counted, and kept as an example while it is among the smallest indices.
    fn report(&self, c: &mut Counts, i: u64, e: &Expected, actual: u128) {
        c.mismatches += 1;
        let mut ex = self.examples.lock().unwrap_or_else(|p| p.into_inner());
        if ex.len() < EXAMPLES {
            ex.push(self.checker.mismatch(i, e, actual));
        } else if let Some((at, largest)) =
            ex.iter().enumerate().max_by_key(|(_, m)| m.index).map(|(k, m)| (k, m.index))
        {
            if i < largest {
                ex[at] = self.checker.mismatch(i, e, actual);
            }
        }
    }

    /// A result the fast kernel does not vouch for (or every result without one): the full
    /// semantics decides, and an admitted result that differs from the canonical bits counts
    /// as a use of the allowances whose fields differ.
    fn judge(&self, c: &mut Counts, i: u64, actual: u128) {
        let e = self.checker.expected(i);
        if !e.matches(actual) {
            self.report(c, i, &e, actual);
            return;
        }
        let diff = actual ^ e.bits;
        if diff == 0 {
            return;
        }
        for f in &e.free {
            let mask = if f.width >= 128 { u128::MAX } else { (1u128 << f.width) - 1 };
            if (diff >> f.shift) & mask != 0 {
                if let Some(k) = Allowance::ALL.iter().position(|a| *a == f.allowance) {
                    c.uses[k] += 1;
                }
            }
        }
    }

    /// An audited agreement of kernel and backend: the full semantics must admit it, else the
    /// kernel is wrong where the backend is wrong too (an oracle defect).
    fn audit(&self, c: &mut Counts, i: u64, actual: u128) {
        c.audited += 1;
        let e = self.checker.expected(i);
        if !e.matches(actual) {
            c.defects += 1;
            self.report(c, i, &e, actual);
            let mut first = self.first_defect.lock().unwrap_or_else(|p| p.into_inner());
            if first.as_ref().is_none_or(|(at, _)| i < *at) {
                *first = Some((i, self.checker.defect_message(i, &e, actual)));
            }
        }
    }

    fn finish(self, checked: u64) -> Checked {
        let mut examples = self.examples.into_inner().unwrap_or_else(|p| p.into_inner());
        examples.sort_by_key(|m| m.index);
        let allowance_uses = Allowance::ALL
            .iter()
            .zip(&self.uses)
            .map(|(a, n)| (a.name().to_string(), n.load(Ordering::Relaxed)))
            .filter(|(_, n)| *n > 0)
            .collect();
        Checked {
            checked,
            mismatches: self.mismatches.into_inner(),
            examples,
            audited: self.audited.into_inner(),
            oracle_defects: self.defects.into_inner(),
            first_oracle_defect: self.first_defect.into_inner().unwrap_or_else(|p| p.into_inner()).map(|(_, m)| m),
            allowance_uses,
        }
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
fn blocks(f: SweepKernel, b: usize, bytes: &[u8], sources: Sources) -> Vec<usize> {
    let len = bytes.len() / b;
    let mut input = [0u32; BLOCK];
    let (mut want, mut want_hi) = ([0u32; BLOCK], [0u32; BLOCK]);
    let (mut got, mut got_hi) = ([0u32; BLOCK], [0u32; BLOCK]);
    let mut suspects = Vec::new();
    let fits = f.fits(b);
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
                f.place(want);
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

    #[test]
    fn a_form_without_sweep_semantics_is_refused() {
        let target = oracle::isa::Target::parse("sm_90").unwrap();
        let (mov, _) = oracle::isa::valid_forms(&target, Some(oracle::isa::Family::Mov)).into_iter().next().unwrap();
        let e = Checker::new(&mov, Scheme::Sampled, 4, Allowances::all()).err().unwrap();
        assert!(e.contains("no semantics") && e.contains("mov"), "{e}");
    }

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
                let checker = Checker::new(&form, k.scheme, k.out_bytes, Allowances::all()).unwrap();
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

    /// (index, actual bits) pairs.
    type Pairs = Vec<(u64, u128)>;

    /// What the GPU's check kernel reports for `results` (indices `base..`): the results that
    /// differ from the fast kernel's words, and the results at the audit picks.
    fn reported(checker: &Checker, base: u64, results: &[u8]) -> (u64, Pairs, Pairs) {
        let b = checker.out_bytes as usize;
        let n = (results.len() / b) as u64;
        let input: Vec<u32> = (base..base + n).map(|i| i as u32).collect();
        let words = checker.fast.expect("a fast kernel").words(&input);
        let mask = if b == 8 { u64::MAX } else { (1u64 << (8 * b)) - 1 };
        let suspects = (0..n as usize)
            .filter(|&j| u128::from(words[j] & mask) != checker.actual(results, j))
            .map(|j| (base + j as u64, checker.actual(results, j)))
            .collect();
        let audit = checker.audit_picks(base, n).map(|i| (i, checker.actual(results, (i - base) as usize))).collect();
        (n, suspects, audit)
    }

    /// The GPU path's verdict ([`Checker::check_reported`] on what the check kernel reports)
    /// equals the CPU path's ([`Checker::check`]) on the same results: right results, results
    /// with planted differences (a NaN payload the allowance admits, a wrong bit), and a fast
    /// kernel that is wrong together with the backend (the audit's oracle defects).
    #[test]
    fn the_gpu_path_reaches_the_cpu_path_verdict() {
        let target: oracle::isa::Target = "sm_90a@8.7".parse().unwrap();
        for (form, base) in
            [("cvt.rn.f16.f32", 0x7F7F_0000u64), ("cvt.f32.f32", 0x7F80_0000), ("cvt.rzi.s64.f32", 0x4F00_0000)]
        {
            let f = Form::parse_opcode(form).unwrap();
            let k = generator::sweep::sweep_kernel(&f, &target).unwrap();
            let b = k.out_bytes as usize;
            let mut checker = Checker::new(&f, k.scheme, k.out_bytes, Allowances::all()).unwrap();
            let n = 1u64 << 18;
            let input: Vec<u32> = (base..base + n).map(|i| i as u32).collect();
            let mut right: Vec<u8> =
                checker.fast.unwrap().words(&input).iter().flat_map(|w| w.to_le_bytes()[..b].to_vec()).collect();
            let same = |checker: &Checker, results: &[u8]| {
                let cpu = checker.check(base, results);
                let (n, suspects, audit) = reported(checker, base, results);
                let gpu = checker.check_reported(n, &suspects, &audit);
                assert_eq!(gpu, cpu, "{form}");
                cpu
            };
            let c = same(&checker, &right);
            assert_eq!((c.mismatches, c.oracle_defects), (0, 0), "{form}");
            assert!(c.audited > 0, "{form}");
            // Planted differences: a bit flipped in every 1000th result; where the result is a
            // NaN of the payload-preserving f32.f32 the allowance admits some of them.
            for j in (0..n as usize).step_by(1000) {
                right[j * b] ^= 1;
            }
            let c = same(&checker, &right);
            assert!(c.mismatches > 0 || !c.allowance_uses.is_empty(), "{form}: {c:?}");
            if form == "cvt.rn.f16.f32" {
                checker.sabotage(SliceFn::Narrow(wrong_f16_rn));
                let wrong: Vec<u8> =
                    checker.fast.unwrap().words(&input).iter().flat_map(|w| w.to_le_bytes()[..b].to_vec()).collect();
                let c = same(&checker, &wrong);
                assert!(c.oracle_defects > 0, "{c:?}");
            }
        }
    }

    /// Audit sample sizes: 2^20 per 2^32-input form, in proportion below, all of a small sweep.
    #[test]
    fn audit_sample_sizes() {
        assert_eq!(audit_window(32) * (1 << AUDIT_SAMPLES_LOG2), 1 << 32);
        assert_eq!(1u64 << 24 >> audit_window(24).trailing_zeros(), AUDIT_MIN);
        assert_eq!(audit_window(16), 8);
        assert_eq!(audit_window(13), 1);
        assert_eq!(audit_window(8), 1);
    }

    /// `cvt.rn.f16.f32`'s kernel, deliberately wrong (last bit flipped) on every eighth input.
    fn wrong_f16_rn(input: &[u32], output: &mut [u32]) {
        use oracle::num::fast::{mode, run, F32ToHalf};
        run::<F32ToHalf<5, 10, { mode::RN }, false, false, false, false>>(input, output);
        for (o, &x) in output.iter_mut().zip(input) {
            if x % 8 == 0 {
                *o ^= 1;
            }
        }
    }

    /// A fast kernel that is wrong where the "GPU" is wrong too (its results are the wrong
    /// kernel's) is caught by the audit as an oracle defect and fails the row; the same wrong
    /// kernel against right results only costs time; the right kernel gives no defect.
    #[test]
    fn the_audit_catches_a_wrong_kernel_the_backend_agrees_with() {
        let form = Form::parse_opcode("cvt.rn.f16.f32").unwrap();
        let target: oracle::isa::Target = "sm_90a@8.7".parse().unwrap();
        let k = generator::sweep::sweep_kernel(&form, &target).unwrap();
        let b = k.out_bytes as usize;
        let mut checker = Checker::new(&form, k.scheme, k.out_bytes, Allowances::all()).unwrap();
        let (base, n) = (0x3F00_0000u64, 1u64 << 20);
        let input: Vec<u32> = (base..base + n).map(|i| i as u32).collect();
        let bytes = |words: Vec<u64>| -> Vec<u8> { words.iter().flat_map(|w| w.to_le_bytes()[..b].to_vec()).collect() };
        let right = bytes(checker.fast.expect("cvt.rn.f16.f32 has a fast kernel").words(&input));
        let c = checker.check(base, &right);
        assert_eq!((c.mismatches, c.oracle_defects, c.failure()), (0, 0, None));
        assert_eq!(c.audited, n / audit_window(32), "every sampled agreement is audited");

        checker.sabotage(SliceFn::Narrow(wrong_f16_rn));
        let c = checker.check(base, &right);
        assert_eq!((c.mismatches, c.oracle_defects), (0, 0), "a kernel the backend contradicts costs time only");

        let wrong = bytes(checker.fast.unwrap().words(&input));
        let c = checker.check(base, &wrong);
        assert!(c.oracle_defects > 0, "{c:?}");
        assert_eq!(c.mismatches, c.oracle_defects, "only the audit sees these results");
        let why = c.failure().expect("the row fails");
        assert_eq!(why.kind, FailureKind::OracleDefect);
        let why = why.to_string();
        assert!(
            why.starts_with(
                "oracle defect: fast kernel of cvt.rn.f16.f32 disagrees with the full semantics at input a=0x"
            ),
            "{why}"
        );
        let at = c.examples[0].index;
        assert_eq!(at % 8, 0, "a sampled input the kernel gets wrong");
        assert!(why.contains(&format!("a={at:#x}")), "{why}");
    }
}
