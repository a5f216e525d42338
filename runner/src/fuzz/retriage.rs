//! A stored finding labelled again against `corpus/known/` as the campaign's triage would label
//! it now: for a word disagreement, its (minimized) case run by the oracle, plain and emulating
//! the emulations the known entries name (for each backend those its entries admit there,
//! [`super::engine::emulate`]), the backends' words rebuilt from the finding's
//! mismatches (each other word is the oracle's), then [`Register`]'s [`CaseKind::raw_findings`] splits
//! the explained words from the rest and each part is matched as triage matches it
//! ([`super::minimize::Case::known_by_emulation`] for the explained part, the stored signature
//! for the rest). Given the SASS check of the case's -O3 kernel (assembled again by the
//! campaign's ptxas: same version, same SASS), a word a flagged store wrote from undefined bits
//! is that unwritten-register finding's ([`super::package`]) and is labelled by it as triage
//! labels such a finding; without it such words are unexplained. The same check's
//! [`SassCheck::witnessed`] scopes the emulations whose entries name a `sass_witness` as in a
//! campaign ([`super::engine::emulate`]); without it they apply as before. For an `unwritten-register`
//! finding, its kernel's SASS listing checked again ([`crate::sass::check_listing`]) and each
//! read still flagged matched by its key.
//!
//! Invariants: runs no backend; a finding is known only if every part of it is (an
//! unexplained word left over makes it new, as in a campaign); nothing is written.

use oracle::program::{interp, Inputs, Program};
use oracle::semantics::Allowances;

use super::case::{CaseKind, Register};
use super::engine::{emulate, ProgramResult, SassCheck};
use super::package;
use crate::diff::program::{Observed, WordMismatch};
use crate::findings::{FindingClass, KnownSet, Signature};
use crate::sass::ParseError;

/// How a stored finding is labelled now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Label {
    /// Every part of it matches these known entries (in the order of its parts).
    Known(Vec<String>),
    /// Some part matches no entry: the signatures of the parts that do not.
    New(Vec<Signature>),
    /// Nothing of it is a finding any more (every word agrees with the oracle, or the SASS
    /// check no longer flags the kernel).
    Gone,
}

/// Why a stored finding could not be labelled again.
#[derive(Debug, thiserror::Error)]
pub enum RetriageError {
    /// The oracle refused the case.
    #[error("the oracle cannot run the case: {0}")]
    Oracle(#[from] interp::InterpError),
    /// A mismatch names a word outside the program's outputs or a word that is not hex.
    #[error("mismatch of thread {thread} word {word} ({backend}: `{actual}`): {why}")]
    Mismatch {
        /// The thread.
        thread: u32,
        /// The word.
        word: u32,
        /// The backend.
        backend: String,
        /// Its word as stored.
        actual: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// The SASS listing does not parse.
    #[error("the kernel's SASS listing: {0}")]
    Listing(#[from] ParseError),
}

/// Labels a stored word disagreement: program `p` on `inputs`, stored signature `stored` (its
/// input class stands in for the unexplained part's, which a campaign gets from a probe of the
/// oracle), and its `mismatches`; `sass`, the SASS checks of its kernel (empty: none), decides
/// which words a flagged store wrote from undefined bits: those parts are labelled by their
/// unwritten-register finding (the kernel's other flagged reads are findings of their own).
pub fn label_words(
    p: &Program,
    inputs: &Inputs,
    stored: &Signature,
    mismatches: &[WordMismatch],
    known: &KnownSet,
    allow: &Allowances,
    sass: Vec<SassCheck>,
) -> Result<Label, RetriageError> {
    let plain = interp::run(p, inputs, allow)?;
    let mut backends: Vec<&str> = Vec::new();
    for b in mismatches.iter().flat_map(|m| m.actual.keys()) {
        if !backends.contains(&b.as_str()) {
            backends.push(b);
        }
    }
    let emulated = emulate(p, inputs, allow, &known.emulation_scopes(), backends, &sass)?;
    let per = p.outputs as usize;
    let spec_words: Vec<u32> =
        plain.iter().flat_map(|e| (0..p.outputs).map(move |w| e.field(32 * w, 32).bits as u32)).collect();
    let mut observed: Vec<Observed> = Vec::new();
    for m in mismatches {
        for (backend, actual) in &m.actual {
            let bad = |why| RetriageError::Mismatch {
                thread: m.thread,
                word: m.word,
                backend: backend.clone(),
                actual: actual.clone(),
                why,
            };
            let i = m.thread as usize * per + m.word as usize;
            if m.word >= p.outputs || i >= spec_words.len() {
                return Err(bad("outside the program's outputs"));
            }
            let value = u32::from_str_radix(actual.trim_start_matches("0x"), 16).map_err(|_| bad("not a hex word"))?;
            let at = match observed.iter().position(|o| &o.backend == backend) {
                Some(k) => k,
                None => {
                    observed.push(Observed { backend: backend.clone(), words: spec_words.clone() });
                    observed.len() - 1
                }
            };
            observed[at].words[i] = value;
        }
    }
    let result = ProgramResult { expected: Ok(plain), observed, failures: Vec::new(), sass, emulated };
    let mut known_as = Vec::new();
    let mut new = Vec::new();
    for raw in Register::raw_findings(p, &result, allow) {
        if raw.class == FindingClass::UnwrittenRegister {
            if !raw.undefined_words.is_empty() {
                let sig = unwritten_signature(raw);
                match known.matches(&sig) {
                    Some(k) => known_as.push(k.name.clone()),
                    None => new.push(sig),
                }
            }
            continue;
        }
        let quick = Register::quick_signature(&raw, p);
        let by_emulation =
            raw.explained.iter().map(|&d| package::with_emulation(&quick, d)).find_map(|s| known.matches(&s));
        let sig = if raw.explained.is_empty() {
            Signature { input_class: stored.input_class.clone(), ..quick }
        } else {
            quick
        };
        match by_emulation.or_else(|| raw.explained.is_empty().then(|| known.matches(&sig)).flatten()) {
            Some(k) => known_as.push(k.name.clone()),
            None => new.push(sig),
        }
    }
    Ok(verdict(known_as, new))
}

/// Labels a stored `unwritten-register` finding whose kernel `listing` (an `nvdisasm -c`
/// listing) was assembled by `by` (`ptxas -O3`): the reads the check flags now, each matched by
/// its key as triage matches it (the signature such a finding has: reader, role, assembly, and
/// the origin → reader shape where an earlier instruction made the undefined bits).
pub fn label_listing(listing: &str, by: &str, known: &KnownSet) -> Result<Label, RetriageError> {
    let reads = crate::sass::check_listing(listing)?;
    let check = SassCheck { by: by.to_string(), reads, listing: listing.to_string(), witnessed: Default::default() };
    let mut known_as = Vec::new();
    let mut new = Vec::new();
    for raw in package::sass_findings(&[check]) {
        let sig = unwritten_signature(raw);
        match known.matches(&sig) {
            Some(k) => known_as.push(k.name.clone()),
            None => new.push(sig),
        }
    }
    Ok(verdict(known_as, new))
}

/// The signature an unwritten-register finding has: reader, role, assembly, and the origin →
/// reader shape where an earlier instruction made the undefined bits.
fn unwritten_signature(raw: package::Raw) -> Signature {
    let form = raw.form.clone().unwrap_or_default();
    Signature::new(FindingClass::UnwrittenRegister, form, raw.input_class, raw.backends, raw.how).with_shape(raw.shape)
}

fn verdict(known_as: Vec<String>, new: Vec<Signature>) -> Label {
    match (known_as.is_empty(), new.is_empty()) {
        (true, true) => Label::Gone,
        (_, false) => Label::New(new),
        (false, true) => Label::Known(known_as),
    }
}
