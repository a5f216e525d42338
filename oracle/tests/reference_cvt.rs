//! The cvt oracle against the independent reference of [`oracle::reference`] (built on
//! `rustc_apfloat`): every legal `cvt` form with 8- or 16-bit source lanes over its whole source
//! domain, and the forms with 32/64-bit sources over stratified edge cases plus random bits.
//!
//! Needs the oracle's `reference` feature, which is on by default, so `cargo test -p
//! ptxdiff-oracle` runs these; with `--no-default-features` this file compiles to nothing.
#![cfg(feature = "reference")]

use oracle::isa::{Cvt, CvtType};
use oracle::reference::{self, source_bits};
use oracle::semantics::cvt::CvtInputs;

/// Compares one input, keeping at most 20 failure lines in `failures`; false where the
/// reference does not cover the form.
fn compare(c: &Cvt, x: &CvtInputs, failures: &mut Vec<String>) -> bool {
    let Some(lines) = reference::compare(c, x) else {
        return false;
    };
    let room = 20usize.saturating_sub(failures.len());
    failures.extend(lines.into_iter().take(room));
    true
}

#[test]
fn every_form_with_8_or_16_bit_sources_matches_the_reference_exhaustively() {
    let mut failures = Vec::new();
    let mut forms = 0;
    let mut cases = 0u64;
    for c in reference::forms() {
        let two_sources = c.two_f32_sources();
        // Packed 16-bit lanes (f16x2, bf16x2 sources): every lane value, in both lanes at once.
        let per_lane_16 = matches!(c.atype, CvtType::F16x2 | CvtType::Bf16x2);
        if (source_bits(c.atype) > 16 && !per_lane_16) || two_sources {
            continue;
        }
        let n = if per_lane_16 { 1u64 << 16 } else { 1u64 << source_bits(c.atype) };
        let mut checked = false;
        for x in 0..n {
            let a = if per_lane_16 { (x << 16) | (x ^ 0x8001) } else { x };
            checked |= compare(&c, &CvtInputs { a, ..Default::default() }, &mut failures);
            cases += 1;
        }
        if checked {
            forms += 1;
        }
    }
    eprintln!("{forms} forms, {cases} inputs checked exhaustively");
    assert!(forms > 150, "only {forms} forms had a reference");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Inputs per form for 32- and 64-bit sources in the default run: every stratified edge case
/// (for an f64 source that alone is about 1.5M inputs) and random bits up to 2^18 in all.
const DEFAULT_INPUTS: u64 = 1 << 18;

/// Inputs per form in the full run (`cargo test --release -p ptxdiff-oracle --test
/// reference_cvt -- --ignored`): 2^24, the figure the oracle was first proven with.
const FULL_INPUTS: u64 = 1 << 24;

/// Inputs per form: `default`, or `PTXDIFF_REFERENCE_INPUTS` when set.
fn inputs_per_form(default: u64) -> u64 {
    std::env::var("PTXDIFF_REFERENCE_INPUTS").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Edge cases of a float source with `exp_bits`/`man_bits`: every exponent and sign, with
/// mantissas that are exact ties, ties ± 1, all-ones and sticky patterns at every bit position
/// (so every destination precision meets its ties), plus zero mantissas (powers of two, ±0,
/// ±inf) and NaN payloads.
fn float_edges(exp_bits: u32, man_bits: u32) -> Vec<u64> {
    let mut v = Vec::new();
    let man_mask = (1u64 << man_bits) - 1;
    for sign in [0u64, 1] {
        for e in 0..(1u64 << exp_bits) {
            let base = (sign << (exp_bits + man_bits)) | (e << man_bits);
            v.push(base);
            for bit in 0..man_bits {
                let t = 1u64 << bit;
                for m in [t, t - 1, t + 1, (t << 1) - 1, man_mask ^ t, man_mask & !(t - 1), t | 1] {
                    v.push(base | (m & man_mask));
                }
            }
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// Edge cases of a 64-bit integer source: around every power of two, and the values halfway
/// between neighbours of every destination precision (f64 53, f32 24, f16 11, bf16 8 bits).
fn int64_edges() -> Vec<u64> {
    let mut v = vec![0, 1, u64::MAX, i64::MAX as u64, i64::MIN as u64];
    for p in 0..64u32 {
        let x = 1u64 << p;
        v.extend([x, x - 1, x + 1, x.wrapping_neg(), x.wrapping_neg().wrapping_sub(1)]);
        for prec in [53u32, 24, 11, 8] {
            if p > prec {
                let tie = x | (1u64 << (p - prec));
                v.extend([tie, tie - 1, tie + 1, tie.wrapping_neg()]);
            }
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// `n` inputs of width `bits`: the edges first, then pseudo-random bits.
struct Inputs {
    edges: Vec<u64>,
    mask: u64,
    n: u64,
}

impl Inputs {
    fn new(edges: Vec<u64>, bits: u32, n: u64) -> Self {
        Inputs { n: n.max(edges.len() as u64), edges, mask: if bits == 64 { u64::MAX } else { (1 << bits) - 1 } }
    }
    fn get(&self, i: u64) -> u64 {
        match self.edges.get(i as usize) {
            Some(&e) => e,
            None => splitmix(i) & self.mask,
        }
    }
}

/// Checks every form whose source is `bits` wide on `n` stratified inputs each, forms spread
/// over all cores.
fn check_wide_sources(bits: u32, n: u64) -> (usize, u64, Vec<String>) {
    let forms: Vec<Cvt> = reference::forms().into_iter().filter(|c| source_bits(c.atype) == bits).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    let checked_forms = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |t| t.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(c) = forms.get(k) else { break };
                let inputs = match c.atype {
                    CvtType::F64 => Inputs::new(float_edges(11, 52), 64, n),
                    CvtType::U64 | CvtType::S64 => Inputs::new(int64_edges(), 64, n),
                    CvtType::F32 => Inputs::new(float_edges(8, 23), 32, n),
                    // f16x2 / bf16x2 sources: edges of each half, paired with random halves.
                    CvtType::F16x2 => Inputs::new(
                        float_edges(5, 10).iter().map(|&h| h << 16 | (splitmix(h) & 0xFFFF)).collect(),
                        32,
                        n,
                    ),
                    CvtType::Bf16x2 => Inputs::new(
                        float_edges(8, 7).iter().map(|&h| h << 16 | (splitmix(h) & 0xFFFF)).collect(),
                        32,
                        n,
                    ),
                    _ => Inputs::new(Vec::new(), bits, n),
                };
                let mut local = Vec::new();
                let mut checked = false;
                for i in 0..inputs.n {
                    let a = inputs.get(i);
                    let b = inputs.get((i.wrapping_mul(7919).wrapping_add(13)) % inputs.n);
                    checked |= compare(c, &CvtInputs { a, b, ..Default::default() }, &mut local);
                    if local.len() >= 5 {
                        break;
                    }
                }
                if checked {
                    checked_forms.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                failures.lock().unwrap().extend(local);
            });
        }
    });
    (checked_forms.into_inner(), n, failures.into_inner().unwrap())
}

/// Checks the forms with `bits`-wide sources on `n` stratified inputs each.
fn check_and_report(bits: u32, n: u64, min_forms: usize) {
    let (forms, n, failures) = check_wide_sources(bits, n);
    eprintln!("{forms} forms with {bits}-bit sources x {n} stratified inputs");
    assert!(forms > min_forms, "only {forms} forms had a reference");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn forms_with_32_bit_sources_match_the_reference_on_stratified_inputs() {
    check_and_report(32, inputs_per_form(DEFAULT_INPUTS), 100);
}

#[test]
fn forms_with_64_bit_sources_match_the_reference_on_stratified_inputs() {
    check_and_report(64, inputs_per_form(DEFAULT_INPUTS), 50);
}

#[test]
#[ignore = "full run: 2^24 inputs per form, about 6.5 minutes on 2 cores in release mode"]
fn forms_with_32_bit_sources_match_the_reference_on_2_24_inputs() {
    check_and_report(32, inputs_per_form(FULL_INPUTS), 100);
}

#[test]
#[ignore = "full run: 2^24 inputs per form"]
fn forms_with_64_bit_sources_match_the_reference_on_2_24_inputs() {
    check_and_report(64, inputs_per_form(FULL_INPUTS), 50);
}
