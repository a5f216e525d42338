//! Known findings: `corpus/known/*.toml`, one file per known bug, so that a run (fuzz or
//! conform) counts them instead of reporting them as new again.
//!
//! A file names the finding either by its exact signature key, or by a signature pattern:
//!
//! ```toml
//! reason = "cvt.rna.tf32.f32 turns NaNs with low payload bits into +inf / MAX_NORM"
//! evidence = "corpus/findings/cvt-rna-tf32-nan.md"
//! link = "https://…"                      # optional
//!
//! [signature]                             # or, instead of this table: id = "0ffcbb4af022f1bd"
//! class = "hardware-spec"                 # required; a class or a list of classes
//! form = "cvt.rna*.tf32.f32"              # glob, or a list of globs
//! shape = "cvt*.{f16,bf16}.* → st.*.{b,u,s}8"  # glob steps and `…`, or a list of patterns
//! input_class = "nan"                     # optional; glob or list
//! how = ["nan-becomes-inf", "nan-becomes-finite"]   # optional; glob or list
//! backends = ["cuda:*"]                   # optional; list of globs
//! ```
//!
//! A compiler root cause whose effect can be stated as semantics names its emulation beside its
//! `[signature]`: `emulation = "narrow-store-of-float-cvt"` (or a list), an
//! [`oracle::semantics::Deviation`] the program oracle implements once. Such an entry covers a
//! finding only when the oracle emulating it gives every differing word of the finding (triage
//! then gives the finding the deviation's input class, [`Deviation::input_class`]); its
//! pattern's `class` and `backends` still scope it, while its `form` and `shape` only document
//! the instances seen (they never decide). Beside an emulation, `sass_witness = ["F2I*.{U8,S8}.*"]`
//! (globs over SASS mnemonics with modifiers) scopes it further: where a backend's kernel listing
//! is at hand, the emulation applies to that backend only when the listing has a matching
//! instruction ([`Emulations::for_backend`], [`crate::sass::witness`]); without one, as before.
//!
//! A crash has no SASS in its signature; an entry may state the mechanism that explains its
//! crashes as data, `[crash_by_sass]` beside its `id`s (which then are history) or alone
//! ([`CrashBySass`], [`crate::findings::crash_by_sass`]): what the kernel's listing has and
//! lacks, the SASS check's kind of read, the crash's error and the level standing in for a
//! backend without a listing. Matching by
//! signature ([`KnownSet::matches`]) never runs it; the callers that can run ptxas do
//! (`crate::fuzz::known_crash`).
//!
//! A crash of the offline ptxas has no site in its `how` ("ptxas crash", which every ptxas
//! crash shares): `ptxas_crash_beside = true` beside a `[signature]` of crashes says that an
//! optimizing ptxas's crash of a program that, in the same run, also crashed a backend the way
//! the pattern names (the driver JIT at a fault site, which compiles with the same code) is this
//! entry's ([`KnownSet::crash_known_beside`]; triage sees both crashes in the program's results).
//! An entry states it only with evidence that ptxas crashes on its programs (one faulting pc).
//!
//! A pattern whose property a signature gained later (the SASS check's `partly-written` input
//! class of an `unwritten-register` finding, [`crate::sass::PARTLY_WRITTEN`]) cannot reach the
//! findings stored before; `stored_id = ["…", …]` beside its `[signature]` names those by key
//! (and the findings of its cause that no pattern states: a hang's, beside a fault site's).
//!
//! Invariants:
//! - Globs are [`crate::glob`]'s (`*` any run of characters, `{a,b}` alternatives); a list
//!   matches if any of its globs does. An omitted optional field matches anything; at least
//!   one of `form` and `shape` must be given, unless the entry names an `emulation`.
//! - A shape pattern is steps separated by `→`: a glob that must match one whole element of
//!   the signature's shape (`cvt.rn.f16.f32`), or the gap `…` (also written `...`) that
//!   matches any number (≥ 0) of elements. Consecutive steps match consecutive elements (a
//!   new instruction between the producer and the consumer is a new shape unless the pattern
//!   says `…` there). The match is anchored at the end — the last step matches the last
//!   element, the store of the wrong word — and not at the start: the first step may match
//!   any element. A signature without a shape matches no shape pattern.
//! - `backends` matches a signature when the signature names at least one backend and every
//!   backend it names matches one of the globs: the known bug is "some of these disagree", so a
//!   run with fewer backends still recognizes it.
//! - Loading is strict: an unknown key, a bad class, an empty glob, an empty shape step, a
//!   shape pattern of gaps only (it would match every shape), a malformed id, or a file with
//!   both or neither of `id` and `[signature]`, a `stored_id` beside an `id`, an unknown
//!   emulation name, an emulation beside an `id`, a `sass_witness` without an emulation, or a
//!   bad `[crash_by_sass]` is an error naming the file, line and column (an entry with a
//!   `[crash_by_sass]` may have neither `id` nor `[signature]`).
//!   Files are read in name order and [`KnownSet::matches`] returns the first match. Files
//!   not ending in `.toml` are ignored.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use oracle::program::slice::SHAPE_ARROW;
use oracle::semantics::{Deviation, DeviationScope};

use super::classify::INPUT_CLASSES;
use super::crash_by_sass::{CrashBySass, KernelCheck, RawCrashBySass};
use super::signature::{FindingClass, Signature};
use crate::glob::glob_match;

/// Why `corpus/known/` could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum KnownError {
    /// The directory could not be listed.
    #[error("cannot read the known-findings directory {}: {source}", dir.display())]
    Dir {
        /// The directory.
        dir: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A file could not be read.
    #[error("cannot read known finding {}: {source}", file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A file is not valid TOML or not a valid known finding.
    #[error("{}:{line}:{column}: {message}", file.display())]
    Invalid {
        /// The file.
        file: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column (in characters).
        column: usize,
        /// What is wrong.
        message: String,
    },
}

/// A signature pattern (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignaturePattern {
    /// The classes it covers (exactly).
    pub class: Vec<FindingClass>,
    /// Globs for the form, or `None` for any.
    pub form: Option<Vec<String>>,
    /// Shape patterns (`→`-separated glob steps), or `None` for any.
    pub shape: Option<Vec<String>>,
    /// Globs for the input class, or `None` for any.
    pub input_class: Option<Vec<String>>,
    /// Globs for `how`, or `None` for any.
    pub how: Option<Vec<String>>,
    /// Globs every disagreeing backend must match, or `None` for any.
    pub backends: Option<Vec<String>>,
}

fn any_glob(globs: &[String], text: &str) -> bool {
    globs.iter().any(|g| glob_match(g, text))
}

/// The separator of shape steps and shape elements, without its spaces.
fn arrow() -> &'static str {
    SHAPE_ARROW.trim()
}

/// Whether a shape-pattern step is the gap `…` (or `...`): any number of elements, none included.
fn is_gap(step: &str) -> bool {
    matches!(step, "…" | "...")
}

/// Whether the shape pattern `pattern` (`→`-separated steps) matches `shape`: consecutive glob
/// steps match consecutive elements, a gap step `…` any number of them, the last step the last
/// element, and the first step any element (see the module docs).
pub fn shape_match(pattern: &str, shape: &str) -> bool {
    if shape.is_empty() {
        return false;
    }
    let elements: Vec<&str> = shape.split(arrow()).map(str::trim).collect();
    // ends[j]: the steps so far match elements[k..j] for some k (unanchored at the start).
    let mut ends = vec![true; elements.len() + 1];
    for step in pattern.split(arrow()).map(str::trim) {
        ends = if is_gap(step) {
            let mut reached = false;
            ends.iter()
                .map(|&e| {
                    reached |= e;
                    reached
                })
                .collect()
        } else {
            std::iter::once(false)
                .chain(elements.iter().enumerate().map(|(j, e)| ends[j] && glob_match(step, e)))
                .collect()
        };
    }
    // Anchored at the end: the last step matched the last element.
    ends[elements.len()]
}

impl SignaturePattern {
    /// Whether the pattern matches `sig`.
    pub fn matches(&self, sig: &Signature) -> bool {
        self.input_class.as_ref().is_none_or(|g| any_glob(g, &sig.input_class)) && self.matches_but_input_class(sig)
    }

    /// Whether the pattern matches `sig` in every field but the input class.
    fn matches_but_input_class(&self, sig: &Signature) -> bool {
        self.class.contains(&sig.class)
            && self.form.as_ref().is_none_or(|g| any_glob(g, &sig.form))
            && self.shape.as_ref().is_none_or(|p| p.iter().any(|p| shape_match(p, &sig.shape)))
            && self.how.as_ref().is_none_or(|g| any_glob(g, &sig.how))
            && self
                .backends
                .as_ref()
                .is_none_or(|g| !sig.backends.is_empty() && sig.backends.iter().all(|b| any_glob(g, b)))
    }
}

/// How a known finding is recognized.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KnownRule {
    /// Exactly these signature keys (`id = "…"` or `id = ["…", …]`).
    Ids(Vec<String>),
    /// Any signature the pattern matches.
    Pattern(SignaturePattern),
}

/// One known finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Known {
    /// Its name: the file stem (`cvt-rna-tf32-nan`). Used as the known id in counts.
    pub name: String,
    /// The file it came from.
    pub file: PathBuf,
    /// How it is recognized.
    pub rule: KnownRule,
    /// Signature keys it names beside its pattern (`stored_id`): findings stored before the
    /// property its pattern tests was in their signature (an `unwritten-register` finding
    /// signed without its input class), which the pattern cannot reach; or findings of its cause
    /// the pattern does not state (a ptxas hang beside the JIT's fault site).
    pub stored_ids: Vec<String>,
    /// Why it is known (what the bug is, and why it is not reported again).
    pub reason: String,
    /// Evidence: a corpus file, an issue, a bug number, or plain text.
    pub evidence: String,
    /// An optional link (shown as text in reports, never fetched).
    pub link: Option<String>,
    /// The emulations that decide whether it covers a finding (see the module docs); empty: its
    /// rule decides.
    pub emulations: Vec<Deviation>,
    /// Globs over SASS mnemonics with modifiers (`F2I*.{U8,S8}.*`, `sass_witness`): where the
    /// engine has a backend's kernel listing, the entry's emulations apply to that backend only
    /// when some instruction of the listing matches one ([`Emulations::for_backend`]); empty:
    /// no witness needed.
    pub sass_witness: Vec<String>,
    /// What explains a crash of it (`[crash_by_sass]`, [`CrashBySass`]): where given, the
    /// mechanism decides a crash its `id`s do not name.
    pub crash_by_sass: Option<CrashBySass>,
    /// Whether an optimizing ptxas's crash ("ptxas crash") of a program whose other crash in the
    /// same run this entry's pattern matches is this entry's (`ptxas_crash_beside`,
    /// [`KnownSet::crash_known_beside`]).
    pub ptxas_crash_beside: bool,
}

impl Known {
    /// Whether this known finding covers `sig` (whose key is `key`).
    fn covers(&self, sig: &Signature, key: &str) -> bool {
        match &self.rule {
            _ if !self.emulations.is_empty() => self.covers_emulated(sig),
            KnownRule::Ids(ids) => ids.iter().any(|id| id == key),
            KnownRule::Pattern(p) => p.matches(sig) || self.stored_ids.iter().any(|id| id == key),
        }
    }

    /// Whether an entry with emulations covers `sig`: the input class names one of them, and the
    /// pattern's class and backends admit it.
    fn covers_emulated(&self, sig: &Signature) -> bool {
        let scoped = match &self.rule {
            KnownRule::Pattern(p) => {
                p.class.contains(&sig.class)
                    && p.backends
                        .as_ref()
                        .is_none_or(|g| !sig.backends.is_empty() && sig.backends.iter().all(|b| any_glob(g, b)))
            }
            KnownRule::Ids(_) => false,
        };
        scoped && self.emulations.iter().any(|d| d.input_class() == sig.input_class)
    }
}

/// The emulations of a known set, in triage order, each with the entries naming it: the
/// `backends` globs of each (`None`: every backend) and its `sass_witness` globs (empty: none).
/// An emulation applies to a backend when one of its entries admits that backend: a cause seen
/// only at -O3 does not explain -O0's words (nor change them where it meets another cause in
/// one program); and, where that entry names a SASS witness and the backend's kernel listing is
/// at hand, when the listing has the witness (a set-valued emulation explains only words the
/// compiled code can have produced by its mechanism).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Emulations(Vec<(Deviation, Vec<EmulationScope>)>);

/// Where one entry's emulation applies.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EmulationScope {
    /// The entry's `backends` globs (`None`: every backend).
    pub backends: Option<Vec<String>>,
    /// Its `sass_witness` globs (empty: none).
    pub sass_witness: Vec<String>,
}

impl Emulations {
    /// The emulations that apply to `backend` (`cuda:ptxas-O3`), in triage order. `witnessed`:
    /// where the backend's kernel listing is at hand, the `sass_witness` globs some instruction
    /// of it matches ([`crate::sass::witnessed`]); `None` (no listing: -O0, the JIT, no nvdisasm):
    /// witnesses are not asked for.
    pub fn for_backend(&self, backend: &str, witnessed: Option<&BTreeSet<String>>) -> Vec<Deviation> {
        let admits = |s: &EmulationScope| {
            s.backends.as_ref().is_none_or(|g| any_glob(g, backend))
                && (s.sass_witness.is_empty() || witnessed.is_none_or(|w| s.sass_witness.iter().any(|g| w.contains(g))))
        };
        self.0.iter().filter(|(_, scopes)| scopes.iter().any(admits)).map(|(d, _)| *d).collect()
    }

    /// Every `sass_witness` glob of the entries (what the SASS check looks for in each kernel).
    pub fn sass_witnesses(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for g in self.0.iter().flat_map(|(_, scopes)| scopes).flat_map(|s| &s.sass_witness) {
            if !out.contains(g) {
                out.push(g.clone());
            }
        }
        out
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// All known findings of a corpus.
#[derive(Clone, Debug, Default)]
pub struct KnownSet {
    entries: Vec<Known>,
}

/// One glob or a list of globs.
#[derive(Deserialize)]
#[serde(untagged)]
enum Globs {
    One(String),
    Many(Vec<String>),
}

impl Globs {
    fn into_vec(self) -> Vec<String> {
        match self {
            Globs::One(s) => vec![s],
            Globs::Many(v) => v,
        }
    }
}

/// One class or a list of classes.
#[derive(Deserialize)]
#[serde(untagged)]
enum Classes {
    One(FindingClass),
    Many(Vec<FindingClass>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPattern {
    class: Spanned<Classes>,
    form: Option<Spanned<Globs>>,
    shape: Option<Spanned<Globs>>,
    input_class: Option<Spanned<Globs>>,
    how: Option<Spanned<Globs>>,
    backends: Option<Spanned<Globs>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKnown {
    id: Option<Spanned<Globs>>,
    signature: Option<Spanned<RawPattern>>,
    stored_id: Option<Spanned<Globs>>,
    reason: Spanned<String>,
    evidence: Spanned<String>,
    link: Option<String>,
    emulation: Option<Spanned<Globs>>,
    sass_witness: Option<Spanned<Globs>>,
    crash_by_sass: Option<Spanned<RawCrashBySass>>,
    ptxas_crash_beside: Option<Spanned<bool>>,
}

/// 1-based line and column of byte `offset` in `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

impl KnownSet {
    /// An empty set (nothing is known).
    pub fn empty() -> KnownSet {
        KnownSet::default()
    }

    /// Loads every `*.toml` file of `dir`, in name order.
    pub fn load(dir: &Path) -> Result<KnownSet, KnownError> {
        let dir_err = |source| KnownError::Dir { dir: dir.to_path_buf(), source };
        let mut files = Vec::new();
        for e in std::fs::read_dir(dir).map_err(dir_err)? {
            let path = e.map_err(dir_err)?.path();
            if path.extension().is_some_and(|x| x == "toml") && path.is_file() {
                files.push(path);
            }
        }
        files.sort();
        let mut entries = Vec::with_capacity(files.len());
        for file in files {
            let text = crate::atomic_write::read_capped(&file)
                .map_err(|source| KnownError::Read { file: file.clone(), source })?;
            entries.push(Self::parse_file(&file, &text)?);
        }
        Ok(KnownSet { entries })
    }

    /// Parses the text of one known-finding file; `file` names it in errors and gives its name.
    pub fn parse_file(file: &Path, text: &str) -> Result<Known, KnownError> {
        let invalid = |span: Range<usize>, message: String| {
            let (line, column) = line_col(text, span.start);
            KnownError::Invalid { file: file.to_path_buf(), line, column, message }
        };
        let raw: RawKnown = toml::from_str(text).map_err(|e| {
            let message = if e.message().contains("untagged enum Classes") {
                let names: Vec<&str> = FindingClass::ALL.iter().map(|c| c.name()).collect();
                format!("`class` must be one of {} (or a list of them)", names.join(", "))
            } else {
                e.message().to_string()
            };
            invalid(e.span().unwrap_or(0..0), message)
        })?;
        let nonempty = |s: &Spanned<String>, what: &str| {
            if s.get_ref().trim().is_empty() {
                Err(invalid(s.span(), format!("`{what}` is empty")))
            } else {
                Ok(s.get_ref().clone())
            }
        };
        let reason = nonempty(&raw.reason, "reason")?;
        let evidence = nonempty(&raw.evidence, "evidence")?;
        let globs = |g: Spanned<Globs>, what: &str| {
            let span = g.span();
            let v = g.into_inner().into_vec();
            if v.is_empty() || v.iter().any(|s| s.is_empty()) {
                Err(invalid(span, format!("`{what}` needs non-empty globs")))
            } else {
                Ok(v)
            }
        };
        let keys = |id: Spanned<Globs>, what: &str| {
            let span = id.span();
            let ids = id.into_inner().into_vec();
            if ids.is_empty() {
                return Err(invalid(span, format!("`{what}` needs at least one signature key")));
            }
            if let Some(s) = ids
                .iter()
                .find(|s| s.len() != 16 || !s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
            {
                return Err(invalid(
                    span,
                    format!("`{what}` must be a signature key (16 lower-case hex digits) or a list of them, not `{s}`"),
                ));
            }
            Ok(ids)
        };
        let stored_ids = match raw.stored_id {
            Some(ids) if raw.signature.is_none() => {
                return Err(invalid(ids.span(), "`stored_id` goes beside a `[signature]` table, not an `id`".into()))
            }
            Some(ids) => keys(ids, "stored_id")?,
            None => Vec::new(),
        };
        let rule = match (raw.id, raw.signature) {
            (Some(id), None) => KnownRule::Ids(keys(id, "id")?),
            (None, Some(sig)) => {
                let span = sig.span();
                let p = sig.into_inner();
                let class_span = p.class.span();
                let class = match p.class.into_inner() {
                    Classes::One(c) => vec![c],
                    Classes::Many(v) => v,
                };
                if class.is_empty() {
                    return Err(invalid(class_span, "`class` needs at least one class".into()));
                }
                if p.form.is_none() && p.shape.is_none() && raw.emulation.is_none() {
                    return Err(invalid(
                        span,
                        "give `form` or `shape` (or both), or an `emulation`: nothing to match".into(),
                    ));
                }
                let shape = p.shape.map(|g| globs(g, "shape")).transpose()?;
                if let Some(bad) = shape.iter().flatten().find(|s| s.split(arrow()).any(|step| step.trim().is_empty()))
                {
                    return Err(invalid(span, format!("`shape` pattern `{bad}` has an empty step")));
                }
                if let Some(bad) = shape.iter().flatten().find(|s| s.split(arrow()).all(|step| is_gap(step.trim()))) {
                    return Err(invalid(span, format!("`shape` pattern `{bad}` is gaps only: it matches every shape")));
                }
                let form = p.form.map(|g| globs(g, "form")).transpose()?;
                // An entry must narrow by form or shape (or name an emulation, which decides):
                // one that matches every finding of its class would hide every new bug as known.
                let all_stars = |g: &String| g.chars().all(|c| c == '*');
                let narrows = |g: &Option<Spanned<Globs>>| {
                    g.as_ref().is_some_and(|g| match g.get_ref() {
                        Globs::One(s) => !all_stars(s),
                        Globs::Many(v) => !v.is_empty() && !v.iter().any(all_stars),
                    })
                };
                let form_narrows = form.as_ref().is_some_and(|f| !f.iter().any(all_stars));
                let shape_narrows = shape.as_ref().is_some_and(|s| {
                    !s.iter()
                        .any(|p| p.split(arrow()).map(str::trim).all(|step| is_gap(step) || all_stars(&step.into())))
                });
                let emulated = raw.emulation.is_some();
                if !emulated
                    && !form_narrows
                    && !shape_narrows
                    && ![&p.input_class, &p.how, &p.backends].into_iter().any(narrows)
                {
                    return Err(invalid(
                        span,
                        "this entry matches every finding of its class (its `form` and `shape` are only `*` or gaps, \
                         and nothing else narrows it): name the form or the shape of the bug"
                            .into(),
                    ));
                }
                KnownRule::Pattern(SignaturePattern {
                    class,
                    form,
                    shape,
                    input_class: p.input_class.map(|g| globs(g, "input_class")).transpose()?,
                    how: p.how.map(|g| globs(g, "how")).transpose()?,
                    backends: p.backends.map(|g| globs(g, "backends")).transpose()?,
                })
            }
            (Some(id), Some(_)) => {
                return Err(invalid(id.span(), "give either `id` or a `[signature]` table, not both".into()))
            }
            // The mechanism alone decides (its ids emptied): no key, no pattern.
            (None, None) if raw.crash_by_sass.is_some() => KnownRule::Ids(Vec::new()),
            (None, None) => {
                return Err(invalid(0..0, "missing `id` or a `[signature]` table: nothing to match".into()))
            }
        };
        let mut emulations = Vec::new();
        if let Some(e) = raw.emulation {
            let span = e.span();
            if matches!(rule, KnownRule::Ids(_)) {
                return Err(invalid(
                    span,
                    "an `emulation` needs a `[signature]` table (its class and backends), not an `id`".into(),
                ));
            }
            for name in e.into_inner().into_vec() {
                match Deviation::from_name(&name) {
                    Some(d) if d.scope() == DeviationScope::Program => emulations.push(d),
                    _ => {
                        let valid: Vec<&str> = Deviation::of(DeviationScope::Program).map(Deviation::name).collect();
                        return Err(invalid(
                            span,
                            format!("unknown emulation `{name}`; valid names: {}", valid.join(", ")),
                        ));
                    }
                }
            }
            if emulations.is_empty() {
                return Err(invalid(span, "`emulation` needs at least one name".into()));
            }
        }
        let sass_witness = match raw.sass_witness {
            Some(w) if emulations.is_empty() => {
                return Err(invalid(w.span(), "a `sass_witness` goes beside an `emulation`: it scopes one".into()))
            }
            Some(w) => globs(w, "sass_witness")?,
            None => Vec::new(),
        };
        let crash_by_sass = match raw.crash_by_sass {
            Some(c) => {
                let span = c.span();
                Some(c.into_inner().check().map_err(|m| invalid(span, m))?)
            }
            None => None,
        };
        let ptxas_crash_beside = match raw.ptxas_crash_beside {
            Some(b) if *b.get_ref() => match &rule {
                KnownRule::Pattern(p) if p.class.contains(&FindingClass::Crash) => true,
                _ => {
                    return Err(invalid(
                        b.span(),
                        "`ptxas_crash_beside` goes beside a `[signature]` of crashes: it names the other crash".into(),
                    ))
                }
            },
            _ => false,
        };
        let name = file.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        Ok(Known {
            name,
            file: file.to_path_buf(),
            rule,
            stored_ids,
            reason,
            evidence,
            link: raw.link,
            emulations,
            sass_witness,
            crash_by_sass,
            ptxas_crash_beside,
        })
    }

    /// The first known finding covering `sig`.
    pub fn matches(&self, sig: &Signature) -> Option<&Known> {
        let key = sig.key();
        self.entries.iter().find(|k| k.covers(sig, &key))
    }

    /// Whether some known finding could cover `sig` whatever its input class: a pattern that
    /// matches every other field, or an `id` entry holding the key of `sig` with one of the
    /// input classes triage gives ([`INPUT_CLASSES`]). Never false when [`KnownSet::matches`]
    /// would find one for `sig` with such an input class.
    pub fn may_match(&self, sig: &Signature) -> bool {
        self.entries.iter().any(|k| match &k.rule {
            _ if !k.emulations.is_empty() => k.covers_emulated(sig),
            KnownRule::Ids(ids) => INPUT_CLASSES.iter().any(|c| {
                let with = Signature { input_class: (*c).to_string(), ..sig.clone() };
                ids.contains(&with.key())
            }),
            KnownRule::Pattern(p) => {
                p.matches_but_input_class(sig)
                    || INPUT_CLASSES.iter().any(|c| {
                        let with = Signature { input_class: (*c).to_string(), ..sig.clone() };
                        k.stored_ids.contains(&with.key())
                    })
            }
        })
    }

    /// Every emulation some entry names with the backends it applies to: what triage runs the
    /// emulating oracle with, for each backend's words.
    pub fn emulation_scopes(&self) -> Emulations {
        Emulations(
            Deviation::ALL
                .into_iter()
                .filter_map(|d| {
                    let scopes: Vec<EmulationScope> = self
                        .entries
                        .iter()
                        .filter(|k| k.emulations.contains(&d))
                        .map(|k| EmulationScope {
                            backends: match &k.rule {
                                KnownRule::Pattern(p) => p.backends.clone(),
                                KnownRule::Ids(_) => None,
                            },
                            sass_witness: k.sass_witness.clone(),
                        })
                        .collect();
                    (!scopes.is_empty()).then_some((d, scopes))
                })
                .collect(),
        )
    }

    /// The known finding named `name`.
    pub fn get(&self, name: &str) -> Option<&Known> {
        self.entries.iter().find(|k| k.name == name)
    }

    /// Every known finding, in file name order.
    pub fn entries(&self) -> &[Known] {
        &self.entries
    }

    /// Number of known findings.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is known.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl KnownSet {
    /// The -O levels whose SASS checks would decide the crash `sig` by an entry's mechanism
    /// (the union over the entries whose `[crash_by_sass]` admits it); empty when none does or
    /// an entry names it by key already (no check is needed).
    pub fn crash_levels(&self, sig: &Signature) -> BTreeSet<u8> {
        if self.matches(sig).is_some() {
            return BTreeSet::new();
        }
        self.entries().iter().filter_map(|k| k.crash_by_sass.as_ref()?.levels(sig)).flatten().collect()
    }

    /// The first entry whose mechanism explains the crash `sig`, given `checked`: for each
    /// level of [`KnownSet::crash_levels`], what the SASS check of the program's kernel gave at
    /// it (a level missing: not checked, nothing explained there).
    pub fn crash_known_by_sass(&self, sig: &Signature, checked: &BTreeMap<u8, KernelCheck>) -> Option<&Known> {
        self.entries().iter().find(|k| {
            k.crash_by_sass.as_ref().is_some_and(|c| {
                c.levels(sig).is_some_and(|levels| levels.iter().all(|l| checked.get(l).is_some_and(|x| c.explains(x))))
            })
        })
    }
}

use crate::ptxas::PTXAS_CRASH;

impl KnownSet {
    /// The entry that knows the crash `sig` of an optimizing offline ptxas ("ptxas crash" by
    /// `ptxas -O1`…`-O3`) by another crash of the same program in the same run: the first
    /// entry with `ptxas_crash_beside` whose pattern matches one of `siblings` (the signatures
    /// of the program's other crash findings, on other backends). `None` for another finding,
    /// one an entry names itself ([`KnownSet::matches`]), or without such a sibling. -O0 is
    /// left out: the JIT compiles optimized code, and an unoptimized crash is another path.
    pub fn crash_known_beside(&self, sig: &Signature, siblings: &[Signature]) -> Option<&Known> {
        let optimizing = |b: &String| b.strip_prefix("ptxas -O").is_some_and(|level| !level.is_empty() && level != "0");
        if sig.class != FindingClass::Crash
            || sig.how != PTXAS_CRASH
            || sig.backends.is_empty()
            || !sig.backends.iter().all(optimizing)
            || self.matches(sig).is_some()
        {
            return None;
        }
        let other = |s: &&Signature| s.class == FindingClass::Crash && s.backends != sig.backends;
        self.entries.iter().find(|k| match &k.rule {
            KnownRule::Pattern(p) if k.ptxas_crash_beside => siblings.iter().filter(other).any(|s| p.matches(s)),
            _ => false,
        })
    }
}

#[cfg(test)]
mod tests;
