//! From a program's results to findings: what went wrong (class, disagreeing backends, how;
//! for a read of a never-written register in the SASS, [`FindingClass::UnwrittenRegister`],
//! the assemblies whose SASS has it, the SASS instruction and what it reads),
//! the implicated instruction form, the class of its input and the shape of the disagreement
//! (the opcodes of the first wrong word's data path, [`oracle::program::slice::data_path`]) — the
//! parts of the signature that de-duplicate findings — and the packaging of a (minimized) case
//! as a [`Finding`] with its case file. Where the oracle emulating known root causes ran
//! ([`ProgramResult::emulated`]), the differing words it gives and the others are two raw
//! findings (a word is explained only if an emulating run for that backend — the emulations
//! its entries admit there, all together or an isolation run, [`super::engine::emulate`] —
//! gives or admits it). Of the words left, a word an assembly's kernel stored from undefined
//! bits — its differing bytes all written by a store the SASS check flags, or that stores a value
//! derived from a flagged read, whose address is proved to be the thread's output
//! ([`crate::sass::stores`]) — belongs to that read's unwritten-register finding ([`Raw::undefined_words`], listed in its message; its
//! pre-signature unchanged), not to a compiler finding: for an offline-assembled backend by
//! its own assembly's check, for the JIT by the -O3 check where that backend's word differs
//! too. Every other word stays unexplained (a second bug in the same kernel is not hidden).
//! A kernel run that fails the same way (a hang, a CUDA error) on several backends is one crash
//! finding of them all, as backends with the same wrong words are one; a compiler's or worker's
//! crash is one per backend.
//! Runs nothing: both the minimization stage
//! ([`super::minimize`]) and the campaign's triage ([`super::triage`]) use it, through the
//! register programs' [`CaseKind`] ([`Register`]).

use generator::minimize::Reduced;
use oracle::isa::{Family, Form};
use oracle::program::{interp, slice, text, Inputs, Program, Stmt};
use oracle::semantics::{Allowances, Deviation, Expected};

use super::case::{CaseKind, Register};
use super::engine::SASS_LEVEL;
use super::engine::{Emulated, Failure, ProgramResult, SassCheck};
use crate::backend::cuda;
use crate::diff::program::{compare, compare_result, Observed, ProgramEvidence, WordMismatch};
use crate::diff::Outcome;
use crate::findings::classify::{gist, input_class};
use crate::findings::{versions, Finding, FindingClass, Signature};
use crate::sass::{parse, stores, Unwritten};

/// A finding before minimization and naming.
#[derive(Clone, Debug)]
pub struct Raw {
    /// FindingClass.
    pub class: FindingClass,
    /// Disagreeing side.
    pub backends: Vec<String>,
    /// How.
    pub how: String,
    /// Crash or rejection text.
    pub message: Option<String>,
    /// The word-level disagreement, for mismatches.
    pub disagreement: Option<ProgramEvidence>,
    /// The implicated form when the finding itself names it (the SASS instruction of an
    /// unwritten-register finding, `CCTL.IVALL`); otherwise it is read off the program.
    pub form: Option<String>,
    /// For words the oracle emulating known root causes gives exactly (or admits): the
    /// emulations that fired, in triage order; empty for every other finding.
    pub explained: Vec<Deviation>,
    /// The shape when the finding names it: an unwritten-register finding whose undefined bits
    /// an earlier instruction made ([`crate::sass::Unwritten::shape`], `UPRMT → STG.E.U8`);
    /// empty otherwise (a disagreement's shape is read off the program).
    pub shape: String,
    /// For an unwritten-register finding: the differing GPU words its store wrote from the
    /// undefined bits ([`crate::sass::stores`]; the first few), which are part of it, not a
    /// compiler finding. Not part of the pre-signature: a kernel with and without a visible
    /// wrong word is one finding.
    pub undefined_words: Vec<WordMismatch>,
    /// The input class when the finding names it: [`crate::sass::PARTLY_WRITTEN`] for an
    /// unwritten-register finding whose undefined bits were written on some path or under some
    /// guard ([`Unwritten::partly_written`]), [`crate::sass::NEVER_WRITTEN_CARRY`] for one
    /// reading only never-written carry-in predicates ([`Unwritten::carry_in`]); empty otherwise.
    pub input_class: &'static str,
}

impl Raw {
    /// What must stay the same while minimizing (and de-duplicates before minimizing): class,
    /// backends, how, the form when the finding names it, and the emulations that explain it.
    pub fn pre_signature(&self) -> String {
        let mut pre = format!("{}|{}|{}", self.class.name(), self.backends.join(","), self.how);
        if let Some(f) = &self.form {
            pre = format!("{pre}|{f}");
        }
        if !self.shape.is_empty() {
            pre = format!("{pre}|{}", self.shape);
        }
        if !self.input_class.is_empty() {
            pre = format!("{pre}|{}", self.input_class);
        }
        if !self.explained.is_empty() {
            let names: Vec<&str> = self.explained.iter().map(|d| d.name()).collect();
            pre = format!("{pre}|emulated:{}", names.join("+"));
        }
        pre
    }
}

/// The observed words split by what explains them: a copy of `observed` in which every word
/// some emulating run of its backend (`emulated`) admits but the oracle (`plain`) does not is
/// replaced by the oracle's word (what is left differs unexplained), and a copy in which every
/// other differing word is replaced (what is left is explained); and per run of `emulated`,
/// whether it explains some word: of the runs of a word's backend that admit it, the one in
/// which the fewest emulations fired (the first of those), so that a finding is named by the
/// emulations its words need, not by one that fired beside them.
/// A missing word, or a word of a backend no emulation applies to, is unexplained.
fn split_explained(
    outputs: u32,
    plain: &[Expected],
    emulated: &[Emulated],
    observed: &[Observed],
) -> (Vec<Observed>, Vec<Observed>, Vec<bool>) {
    let (mut unexplained, mut explained) = (observed.to_vec(), observed.to_vec());
    let mut explaining = vec![false; emulated.len()];
    let per = outputs as usize;
    for (k, o) in observed.iter().enumerate() {
        let runs: Vec<usize> = (0..emulated.len()).filter(|&r| emulated[r].backends.contains(&o.backend)).collect();
        for (t, e) in plain.iter().enumerate() {
            for w in 0..outputs {
                let i = t * per + w as usize;
                let spec = e.field(32 * w, 32);
                let Some(&a) = o.words.get(i) else { continue };
                if spec.matches(u128::from(a)) {
                    continue;
                }
                let admits = |r: &&usize| {
                    emulated[**r].expected.get(t).is_some_and(|x| x.field(32 * w, 32).matches(u128::from(a)))
                };
                let by = runs.iter().filter(admits).min_by_key(|&&r| emulated[r].fired.len());
                if let Some(&r) = by {
                    explaining[r] = true;
                }
                let copy = if by.is_some() { &mut unexplained } else { &mut explained };
                copy[k].words[i] = spec.bits as u32;
            }
        }
    }
    (unexplained, explained, explaining)
}

/// `d` (a comparison of copies of the results in which the words another finding takes were set
/// to the spec's, [`split_explained`], [`take_undefined`]) with each mismatch's `actual` the words
/// the backends really gave (`observed`): a word the emulations explain belongs to the other
/// finding, but it was never the spec's on the GPU (seed 4601's cf337f2a, 4602's c98ee331, 4603's
/// 1e161819: their stored new findings showed -O0 and the JIT giving the spec's word, and their
/// tracers could not find it in the -O0 listings; replayed alone, -O0 and the JIT give the word
/// A's or N-11's emulation explains).
fn words_seen(mut d: ProgramEvidence, outputs: u32, observed: &[Observed]) -> ProgramEvidence {
    let per = outputs as usize;
    for m in &mut d.mismatches {
        let i = m.thread as usize * per + m.word as usize;
        for o in observed {
            if let Some(a) = m.actual.get_mut(&o.backend) {
                *a = o.words.get(i).map_or("missing".into(), |w| format!("{w:#010x}"));
            }
        }
    }
    d
}

/// The emulations that fired, in triage order, in the runs of `emulated` that explain some word
/// (`explaining`) for any of `backends`.
fn fired_for(emulated: &[Emulated], explaining: &[bool], backends: &[String]) -> Vec<Deviation> {
    let runs: Vec<&Emulated> = emulated
        .iter()
        .zip(explaining)
        .filter(|(e, &x)| x && e.backends.iter().any(|b| backends.contains(b)))
        .map(|(e, _)| e)
        .collect();
    Deviation::ALL.into_iter().filter(|d| runs.iter().any(|e| e.fired.contains(d))).collect()
}

/// The raw finding of a disagreement's evidence `d`, explained by the emulations `explained`
/// (empty: unexplained).
fn disagreement(d: ProgramEvidence, explained: Vec<Deviation>) -> Raw {
    let message = (!explained.is_empty()).then(|| {
        let names: Vec<&str> = explained.iter().map(|d| d.name()).collect();
        format!(
            "the oracle emulating the known root cause {} gives every differing word of {}",
            names.join(" + "),
            d.backends.join(", ")
        )
    });
    Raw {
        class: if d.split { FindingClass::Compiler } else { FindingClass::HardwareSpec },
        backends: d.backends.clone(),
        how: d.how.clone(),
        message,
        disagreement: Some(d),
        form: None,
        explained,
        shape: String::new(),
        undefined_words: Vec::new(),
        input_class: "",
    }
}

/// The text of an unwritten-register finding (its reads are those `of` takes): each assembly's
/// flagged instruction, then the kernel's SASS with the flagged lines marked `>>`.
fn sass_message(checks: &[&SassCheck], of: impl Fn(&Unwritten) -> bool) -> String {
    let mut out = String::new();
    for c in checks {
        for u in c.reads.iter().filter(|u| of(u)) {
            let from = u.origin.as_ref().map(|o| format!(" (undefined bits from {} /*{:04x}*/)", o.mnemonic, o.offset));
            out.push_str(&format!("{}: {u}{}\n", c.by, from.unwrap_or_default()));
        }
    }
    if let Some(c) = checks.first() {
        let marked: Vec<u32> = c.reads.iter().filter(|u| of(u)).map(|u| u.offset).collect();
        out.push_str(&format!("\nSASS of {}:\n", c.by));
        for line in c.listing.lines().filter(|l| l.trim_start().starts_with("/*")) {
            let offset = line.trim_start().strip_prefix("/*").and_then(|r| r.split_once("*/")).map(|(o, _)| o.trim());
            let hit = offset.and_then(|o| u32::from_str_radix(o, 16).ok()).is_some_and(|o| marked.contains(&o));
            out.push_str(if hit { ">> " } else { "   " });
            out.push_str(line.trim());
            out.push('\n');
        }
    }
    out
}

/// The `unwritten-register` findings of one kernel's SASS checks: one per key (the SASS instruction
/// and what it reads), shape (where the undefined bits were made, if not by a never-written
/// register read there) and input class (whether those bits were written on some path,
/// [`Unwritten::input_class`]), with every assembly whose SASS has it.
pub fn sass_findings(sass: &[SassCheck]) -> Vec<Raw> {
    let mut keys: Vec<(String, String, &'static str, String, String)> = Vec::new();
    for u in sass.iter().flat_map(|c| &c.reads) {
        let k = (u.key(), u.shape(), u.input_class(), u.key_mnemonic().to_string(), u.key_roles());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    keys.into_iter()
        .map(|(key, shape, input_class, mnemonic, roles)| {
            let of = |u: &Unwritten| u.key() == key && u.shape() == shape && u.input_class() == input_class;
            let checks: Vec<&SassCheck> = sass.iter().filter(|c| c.reads.iter().any(of)).collect();
            Raw {
                class: FindingClass::UnwrittenRegister,
                backends: checks.iter().map(|c| c.by.clone()).collect(),
                how: roles,
                message: Some(sass_message(&checks, of)),
                disagreement: None,
                form: Some(mnemonic),
                explained: Vec::new(),
                shape,
                undefined_words: Vec::new(),
                input_class,
            }
        })
        .collect()
}

/// The raw crash finding of backend `by`: its `how` and its message.
fn crash_raw(by: &str, how: &str, message: &str) -> Raw {
    Raw {
        class: FindingClass::Crash,
        backends: vec![by.to_string()],
        how: how.to_string(),
        message: Some(message.to_string()),
        disagreement: None,
        form: None,
        explained: Vec::new(),
        shape: String::new(),
        undefined_words: Vec::new(),
        input_class: "",
    }
}

/// Whether a crash `how` is a failure of the kernel's run (a hang, or a CUDA error while it
/// ran) rather than of a compiler or worker: the backends that ran the program and failed so
/// are one finding, as backends that give the same wrong words are (seed 6201's p365_37 hung on
/// -O3 and on the JIT, one program compiled by one ptxas: two findings labelled new before).
fn is_run_failure(how: &str) -> bool {
    how == "hang" || how.starts_with("CUDA_ERROR_")
}

/// Adds the crash of backend `by` to `out`: to the raw crash finding of another backend whose
/// run failed the same way ([`is_run_failure`]; its message kept, another backend's differing one
/// added after it), else as a raw finding of its own ([`crash_raw`]).
fn add_crash(out: &mut Vec<Raw>, by: &str, how: &str, message: &str) {
    let same_run_failure = |x: &&mut Raw| x.class == FindingClass::Crash && x.how == how && is_run_failure(how);
    match out.iter_mut().find(same_run_failure) {
        Some(raw) => {
            raw.backends.push(by.to_string());
            if let Some(m) = raw.message.as_mut().filter(|m| m.as_str() != message) {
                m.push_str(&format!("\n{by}: {message}"));
            }
        }
        None => out.push(crash_raw(by, how, message)),
    }
}

/// The raw crash findings in one program's results: one per crashing backend, but one for all
/// the backends whose run of the kernel failed the same way ([`add_crash`]).
pub fn crash_raws(r: &ProgramResult) -> Vec<Raw> {
    let mut out = Vec::new();
    for f in &r.failures {
        if let Failure::Crash { by, how, message } = f {
            add_crash(&mut out, by, how, message);
        }
    }
    out
}

/// The findings in one program's results ([`Register`]'s [`CaseKind::raw_findings`]).
fn raw_findings(p: &Program, r: &ProgramResult) -> Vec<Raw> {
    let mut out = Vec::new();
    for f in &r.failures {
        match f {
            Failure::Rejected { by, message } => out.push(Raw {
                class: FindingClass::AssemblerRejection,
                backends: vec![by.clone()],
                how: gist(message),
                message: Some(message.clone()),
                disagreement: None,
                form: None,
                explained: Vec::new(),
                shape: String::new(),
                undefined_words: Vec::new(),
                input_class: "",
            }),
            Failure::Crash { by, how, message } => add_crash(&mut out, by, how, message),
        }
    }
    out.extend(sass_findings(&r.sass));
    // A refused program or one no backend ran is not comparable: its failures above are all
    // there is to report.
    // With the emulating oracle's words: the differing words it explains are one finding (known
    // if an entry of corpus/known/ names an emulation that fired), the others another.
    // Of the words left, those an assembly stored from the undefined bits its SASS check flags
    // join that unwritten-register finding.
    if let Outcome::Disagree(d) = compare_result(p.outputs, &r.expected, &r.observed) {
        match &r.expected {
            Ok(plain) => {
                let mut unexplained = r.observed.clone();
                if !r.emulated.is_empty() {
                    let (rest, explained, explaining) = split_explained(p.outputs, plain, &r.emulated, &r.observed);
                    if let Outcome::Disagree(x) = compare(p.outputs, plain, &explained) {
                        let fired = fired_for(&r.emulated, &explaining, &x.backends);
                        out.push(disagreement(words_seen(x, p.outputs, &r.observed), fired));
                    }
                    unexplained = rest;
                }
                for (k, words) in take_undefined(p, plain, &r.sass, &mut unexplained) {
                    let u = &r.sass[k.0].reads[k.1];
                    let of = |x: &Raw| {
                        x.class == FindingClass::UnwrittenRegister
                            && x.form.as_deref() == Some(u.key_mnemonic())
                            && x.how == u.key_roles()
                            && x.shape == u.shape()
                    };
                    if let (Some(raw), Outcome::Disagree(e)) =
                        (out.iter_mut().find(|x| of(x)), compare(p.outputs, plain, &words))
                    {
                        add_undefined_words(raw, words_seen(e, p.outputs, &r.observed).mismatches);
                    }
                }
                if let Outcome::Disagree(rest) = compare(p.outputs, plain, &unexplained) {
                    out.push(disagreement(words_seen(rest, p.outputs, &r.observed), Vec::new()));
                }
            }
            Err(_) => out.push(disagreement(d, Vec::new())),
        }
    }
    out
}

/// The differing words of `observed` (each backend's words, those no emulation explains) that
/// a store wrote from undefined bits (flagged by the SASS check, or storing a value derived from
/// a flagged read): every differing byte of the word lies
/// in bytes such a store writes ([`stores::undefined_output_bytes`]) — for an offline-assembled
/// backend, stores of its own assembly's check; for the JIT (no SASS of its own: the driver's
/// compiler, taken to be the found ptxas at [`SASS_LEVEL`]), that check's stores, and only where
/// that backend's word differs too. Each such word is replaced in `observed` by the oracle's;
/// the result is, per flagged read (index of its check in `sass`, of the read in the check), a
/// copy of `observed` in which only the words it explains differ.
fn take_undefined(
    p: &Program,
    plain: &[Expected],
    sass: &[SassCheck],
    observed: &mut [Observed],
) -> Vec<((usize, usize), Vec<Observed>)> {
    let Some(param) = stores::output_pointer(p.target.sm) else { return Vec::new() };
    let stride = p.output_stride();
    // Per check: each flagged store's bytes.
    let mapped: Vec<Vec<stores::UndefinedStore>> = sass
        .iter()
        .map(|c| {
            if c.reads.is_empty() {
                return Vec::new();
            }
            let functions = parse::parse_listing(&c.listing).unwrap_or_default();
            functions
                .iter()
                .find(|f| f.entry && f.name == p.name)
                .map(|f| stores::undefined_output_bytes(f, &c.reads, param, stride))
                .unwrap_or_default()
        })
        .collect();
    let partner = cuda::ptxas_name(None, SASS_LEVEL);
    let check_of = |backend: &str| -> Option<usize> {
        let by = if backend == cuda::JIT { cuda::assembly_of(&partner)? } else { cuda::assembly_of(backend)? };
        sass.iter().position(|c| c.by == by)
    };
    let spec_word = |t: usize, w: u32| plain[t].field(32 * w, 32);
    let differs = |o: &Observed, i: usize, t: usize, w: u32| {
        o.words.get(i).is_some_and(|&a| !spec_word(t, w).matches(u128::from(a)))
    };
    let partner_words: Option<Observed> = observed.iter().find(|o| o.backend == partner).cloned();
    let per = p.outputs as usize;
    let mut out: Vec<((usize, usize), Vec<Observed>)> = Vec::new();
    for k in 0..observed.len() {
        let Some(c) = check_of(&observed[k].backend) else { continue };
        let jit = observed[k].backend == cuda::JIT;
        for t in 0..plain.len() {
            for w in 0..p.outputs {
                let i = t * per + w as usize;
                if !differs(&observed[k], i, t, w) {
                    continue;
                }
                if jit && !partner_words.as_ref().is_some_and(|o| differs(o, i, t, w)) {
                    continue;
                }
                let spec = spec_word(t, w).bits as u32;
                let diff = observed[k].words[i] ^ spec;
                let bytes: Vec<u32> = (0..4).filter(|b| (diff >> (8 * b)) & 0xff != 0).map(|b| 4 * w + b).collect();
                let by: Vec<&stores::UndefinedStore> =
                    mapped[c].iter().filter(|s| bytes.iter().any(|b| s.bytes.contains(b))).collect();
                let covered = bytes.iter().all(|b| by.iter().any(|s| s.bytes.contains(b)));
                if bytes.is_empty() || !covered {
                    continue;
                }
                for s in by {
                    let key = (c, s.read);
                    let at = match out.iter().position(|(x, _)| *x == key) {
                        Some(at) => at,
                        None => {
                            out.push((key, reset(observed, plain, per)));
                            out.len() - 1
                        }
                    };
                    out[at].1[k].words[i] = observed[k].words[i];
                }
                observed[k].words[i] = spec;
            }
        }
    }
    out
}

/// A copy of `observed` with every word the oracle's exact bits.
fn reset(observed: &[Observed], plain: &[Expected], per: usize) -> Vec<Observed> {
    let spec: Vec<u32> =
        plain.iter().flat_map(|e| (0..per as u32).map(move |w| e.field(32 * w, 32).bits as u32)).collect();
    observed.iter().map(|o| Observed { backend: o.backend.clone(), words: spec.clone() }).collect()
}

/// Adds `words` (a flagged store's wrong GPU words) to the unwritten-register finding `raw`:
/// its [`Raw::undefined_words`] and the lines of its message before the listing.
fn add_undefined_words(raw: &mut Raw, words: Vec<WordMismatch>) {
    let lines: String = words
        .iter()
        .map(|m| {
            let got: Vec<String> = m.actual.iter().map(|(b, a)| format!("{b} {a}")).collect();
            format!("on the GPU: thread {} word {} expected {} got {}\n", m.thread, m.word, m.expected, got.join(", "))
        })
        .collect();
    if let Some(message) = &mut raw.message {
        let at = message.find("\nSASS of").unwrap_or(message.len());
        message.insert_str(at, &lines);
    }
    raw.undefined_words.extend(words);
}

/// The statement most implicated in a minimized program: the last instruction that is not a
/// plain load, store or move (the minimizer has removed what the difference does not need,
/// and a wrong value shows at the output through the instructions after the culprit, so the
/// last one left is most often the culprit; a heuristic, recorded in the signature).
fn implicated(p: &Program) -> Option<(usize, String)> {
    let plain = |f: &Form| matches!(f.family(), Family::Ld | Family::St | Family::LdGlobalNc | Family::Mov);
    p.body.iter().enumerate().rev().find_map(|(k, s)| match s {
        Stmt::Isa(i) if !plain(&i.form) => Some((k, i.form.opcode())),
        Stmt::Glue { glue, .. } => Some((k, glue.opcode())),
        _ => None,
    })
}

/// The signature of raw finding `this` of program `p` without its input class (which needs a
/// run of the oracle), and the body index of the implicated statement: class, implicated form,
/// backends, how, and the shape of the first wrong word.
fn signature_without_input(this: &Raw, p: &Program) -> (Signature, Option<usize>) {
    let imp = if this.form.is_some() { None } else { implicated(p) };
    let form_name = this.form.clone().or_else(|| imp.as_ref().map(|(_, n)| n.clone())).unwrap_or("program".into());
    let shape = this.disagreement.as_ref().map_or_else(|| this.shape.clone(), |d| slice::shape(p, d.first.1));
    // A finding the emulations explain carries the first one's input class (what its known
    // entry matches); triage tries the others (`with_emulation`).
    let input = this.explained.first().map_or(this.input_class, |d| d.input_class());
    let sig = Signature::new(this.class, form_name, input, this.backends.clone(), this.how.clone()).with_shape(shape);
    (sig, imp.map(|(k, _)| k))
}

impl CaseKind for Register {
    type Program = Program;
    type Case = (Program, Inputs);
    type Result = ProgramResult;
    type Raw = Raw;

    /// Failures, SASS reads of never-written registers, and word differences (split by what
    /// the emulating oracle in `result` explains); `allow` is not needed: the engine's oracle
    /// already applied it.
    fn raw_findings(p: &Program, result: &ProgramResult, _: &Allowances) -> Vec<Raw> {
        raw_findings(p, result)
    }

    fn pre_signature(raw: &Raw) -> String {
        raw.pre_signature()
    }

    /// What cheap triage checks first: the signature without its input class
    /// ([`KnownSet::may_match`](crate::findings::KnownSet::may_match) decides whether the input
    /// class is worth a run).
    fn quick_signature(raw: &Raw, p: &Program) -> Signature {
        signature_without_input(raw, p).0
    }

    fn describe(raw: &Raw) -> String {
        let form = raw.form.as_deref().map(|x| format!("{x} ")).unwrap_or_default();
        let mut lines = vec![format!("{} [{}] {form}{}", raw.class.name(), raw.backends.join(","), raw.how)];
        if let Some(m) = &raw.message {
            lines.push(format!("  {}", m.lines().take(5).collect::<Vec<_>>().join("\n  ")));
        }
        for m in raw.disagreement.iter().flat_map(|d| &d.mismatches).chain(&raw.undefined_words) {
            lines.push(format!("  thread {} word {}: expected {}; got {:?}", m.thread, m.word, m.expected, m.actual));
        }
        lines.join("\n")
    }

    fn write_case((p, i): &(Program, Inputs)) -> String {
        text::case(p, i)
    }

    fn read_case(text: &str) -> Result<(Program, Inputs), String> {
        text::parse_case(text).map_err(|e| e.to_string())
    }
}

/// `sig` of a finding explained by emulations, with the input class of emulation `d`.
pub fn with_emulation(sig: &Signature, d: Deviation) -> Signature {
    Signature { input_class: d.input_class().to_string(), ..sig.clone() }
}

/// Everything about one case that triage packages: the program as generated, the case after
/// the minimization stage (the same program when it did not run), and the results of running
/// that case once more on every backend.
pub struct Case<'a> {
    /// The program as generated.
    pub original: &'a Program,
    /// The (minimized) case.
    pub reduced: &'a Reduced,
    /// The results of the final run of `reduced`.
    pub result: &'a ProgramResult,
}

/// The backends a finding's version verdict counts wrong: its own, and for a disagreement every
/// backend any of whose words the oracle does not admit, whatever explains them — a backend
/// whose words another (known) finding of the program takes did not get the program right
/// (seed 5703's e9fc9a48 said "the JIT right" where the JIT gave root cause B's words).
fn wrong_at_all(this: &Raw, p: &Program, result: &ProgramResult) -> Vec<String> {
    let mut wrong = this.backends.clone();
    if this.disagreement.is_some() {
        if let Outcome::Disagree(d) = compare_result(p.outputs, &result.expected, &result.observed) {
            for b in d.backends {
                if !wrong.contains(&b) {
                    wrong.push(b);
                }
            }
        }
    }
    wrong
}

/// Names and packages one raw finding: signature (class, implicated form, input class,
/// backends, how, shape of the first wrong word), the finding, and its case file text. The final run's own finding of the same
/// pre-signature is preferred (its mismatches are the reduced program's); `raw` stands in when
/// the final run no longer shows it, which the minimization thread allows only for a case
/// packaged as it is (`reduced` the program as generated: `raw`'s words are its own).
pub fn package(
    raw: &Raw,
    case: &Case<'_>,
    allow: &Allowances,
    at_s: f64,
    env: &[(String, String)],
) -> (Finding, String) {
    let pre = raw.pre_signature();
    let (mp, mi) = (&case.reduced.program, &case.reduced.inputs);
    let this =
        raw_findings(mp, case.result).into_iter().find(|x| x.pre_signature() == pre).unwrap_or_else(|| raw.clone());
    let (mut sig, imp) = signature_without_input(&this, mp);
    sig.input_class = match (imp, &this.disagreement) {
        _ if !this.explained.is_empty() || !this.input_class.is_empty() => sig.input_class,
        (Some(k), Some(d)) => {
            let form = match &mp.body[k] {
                Stmt::Isa(inst) => Some(inst.form.clone()),
                _ => None,
            };
            interp::probe(mp, mi, allow, k, d.first.0)
                .ok()
                .and_then(|v| v.first().map(|(_, e)| input_class(form.as_ref(), e)))
                .unwrap_or_default()
        }
        _ => String::new(),
    };
    let mut f = Finding::new(sig, mp.module_text());
    f.original_instructions = case.original.instruction_count() as u32;
    f.minimized_instructions = mp.instruction_count() as u32;
    f.inputs = mi.0.clone();
    f.threads = mp.threads();
    f.mismatches = this.disagreement.as_ref().map_or_else(|| this.undefined_words.clone(), |d| d.mismatches.clone());
    f.message = this.message.clone().map(|m| m.chars().take(4000).collect());
    f.environment = env.to_vec();
    f.first_seen_s = at_s;
    f.reproduced = case.reduced.reproduced;
    let (observed, failed): (Vec<&str>, Vec<&str>) = (
        case.result.observed.iter().map(|o| o.backend.as_str()).collect(),
        case.result.failures.iter().map(Failure::by).collect(),
    );
    f.versions = if this.class == FindingClass::UnwrittenRegister {
        // Only the checked assemblies took part: those without the read got it right.
        let outcomes: Vec<(String, bool)> =
            case.result.sass.iter().map(|c| (c.by.clone(), !this.backends.contains(&c.by))).collect();
        versions::verdict(&outcomes, versions::found_release(env).as_deref())
    } else {
        versions::program_verdict(
            &wrong_at_all(&this, mp, case.result),
            this.disagreement.is_some(),
            &observed,
            &failed,
            env,
        )
    };
    (f, Register::write_case(&(mp.clone(), mi.clone())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::KnownSet;
    use crate::sass::{check_listing, fixtures};
    use oracle::program::text::parse_case;

    /// The createpolicy case (`corpus/findings/`) with the SASS check of its -O3 kernel `k` by
    /// `ptxas -O3` (the fixture listing) and of a clean `ptxas-12.8 -O3`.
    fn planted() -> (Program, oracle::program::Inputs, ProgramResult) {
        let (p, i) =
            parse_case(include_str!("../../../corpus/findings/createpolicy-dropped-store-policy.case")).unwrap();
        let listing = fixtures::kernel("k", fixtures::CREATEPOLICY_O3);
        let reads = check_listing(&listing).unwrap();
        let clean = SassCheck {
            by: "ptxas-12.8 -O3".into(),
            reads: Vec::new(),
            listing: String::new(),
            witnessed: Default::default(),
        };
        let flagged = SassCheck { by: "ptxas -O3".into(), reads, listing, witnessed: Default::default() };
        let result = ProgramResult {
            expected: Ok(Vec::new()),
            observed: Vec::new(),
            failures: Vec::new(),
            sass: vec![flagged, clean],
            emulated: Vec::new(),
        };
        (p, i, result)
    }

    /// Seed 6201's p365_37 hung on `cuda:ptxas-O3` and on `cuda:jit` and was stored as two
    /// findings labelled new: a kernel run that fails the same way on several backends is one
    /// finding (of them all), a compiler's crash stays one per backend (an optimizing ptxas's
    /// crash is known beside another level's, [`KnownSet::crash_known_beside`]).
    #[test]
    fn backends_whose_run_of_a_kernel_fails_alike_are_one_crash_finding() {
        let (p, _, mut result) = planted();
        result.sass.clear();
        let crash = |by: &str, how: &str, message: &str| Failure::Crash {
            by: by.into(),
            how: how.into(),
            message: message.into(),
        };
        let hang = "no result within 5 s: kernel `k` did not finish";
        result.failures = vec![
            crash("cuda:ptxas-O3", "hang", hang),
            crash("ptxas -O0", crate::ptxas::PTXAS_CRASH, "exit 139"),
            crash("cuda:ptxas-O0", "CUDA_ERROR_ILLEGAL_INSTRUCTION", "cuEventQuery: CUDA_ERROR_ILLEGAL_INSTRUCTION"),
            crash("cuda:jit", "hang", hang),
            crash("ptxas -O3", crate::ptxas::PTXAS_CRASH, "exit 139"),
            crash("cuda:jit-12.8", "CUDA_ERROR_ILLEGAL_INSTRUCTION", "cuLaunchKernel: CUDA_ERROR_ILLEGAL_INSTRUCTION"),
        ];
        let seen = |raws: Vec<Raw>| -> Vec<(String, String, String)> {
            raws.iter().map(|r| (r.backends.join(","), r.how.clone(), r.message.clone().unwrap_or_default())).collect()
        };
        let fault = "cuEventQuery: CUDA_ERROR_ILLEGAL_INSTRUCTION\ncuda:jit-12.8: cuLaunchKernel: CUDA_ERROR_ILLEGAL_INSTRUCTION";
        let expected = vec![
            ("cuda:ptxas-O3,cuda:jit".to_string(), "hang".to_string(), hang.to_string()),
            ("ptxas -O0".into(), crate::ptxas::PTXAS_CRASH.into(), "exit 139".into()),
            ("cuda:ptxas-O0,cuda:jit-12.8".into(), "CUDA_ERROR_ILLEGAL_INSTRUCTION".into(), fault.into()),
            ("ptxas -O3".into(), crate::ptxas::PTXAS_CRASH.into(), "exit 139".into()),
        ];
        assert_eq!(seen(raw_findings(&p, &result)), expected);
        assert_eq!(seen(crash_raws(&result)), expected);
        let hung = Register::quick_signature(&crash_raws(&result)[0], &p);
        assert_eq!(hung.backends, ["cuda:jit", "cuda:ptxas-O3"]);
    }

    #[test]
    fn a_read_of_a_never_written_register_is_a_finding_of_its_own_class() {
        let (p, i, result) = planted();
        let raws = raw_findings(&p, &result);
        assert_eq!(raws.len(), 1, "{raws:?}");
        let r = &raws[0];
        assert_eq!(
            (r.class, r.backends.as_slice(), r.how.as_str(), r.form.as_deref()),
            (FindingClass::UnwrittenRegister, &["ptxas -O3".to_string()][..], "descriptor", Some("STG.E"))
        );
        assert_eq!(r.pre_signature(), "unwritten-register|ptxas -O3|descriptor|STG.E");
        let reduced = Reduced::unchanged(&p, &i);
        let env = [("ptxas".to_string(), "Cuda compilation tools, release 13.5, V13.5.37".to_string())];
        let case = Case { original: &p, reduced: &reduced, result: &result };
        let (f, text) = package(r, &case, &Allowances::all(), 1.5, &env);
        assert_eq!(
            f.signature,
            Signature::new(FindingClass::UnwrittenRegister, "STG.E", "", ["ptxas -O3"], "descriptor")
        );
        let message = f.message.clone().unwrap_or_default();
        assert!(message.starts_with("ptxas -O3: k /*00f0*/ STG.E desc[UR6][R4.64], R2  reads UR6 UR7"), "{message}");
        assert!(
            message.contains(">> /*00f0*/ STG.E desc[UR6][R4.64], R2 ;")
                && message.contains("   /*00e0*/ CCTL.IVALL ;")
        );
        // Only the checked assemblies took part: the clean 12.8 is right.
        assert_eq!(f.versions.as_deref(), Some("right in 12.8, wrong in 13.5: regressed in 13.5"));
        assert!(f.mismatches.is_empty() && text.contains("// ptxdiff-inputs"));
    }

    /// A program with a known root cause (L: cvt.s64.u32 sign-extends, word 0) and another bug
    /// (xor computed as or, word 2), run by an -O3 that has both and a right -O0: one finding the emulating
    /// oracle explains, known by the entry naming L, and one it does not, new.
    #[test]
    fn a_known_emulation_and_another_bug_in_one_program_are_one_known_and_one_new_finding() {
        use crate::findings::{FindingStore, Recorded, RunMeta};
        use oracle::program::interp::{self, Plant, RunOptions};
        use oracle::semantics::Deviation;
        let inputs: String = (0..32).map(|t| format!("// t{t}: 8000{t:04x} 000000ff 0000000f 00000000\n")).collect();
        let (p, i) = parse_case(&format!(
            "// ptxdiff-program name=k target=sm_90@9.0 threads=32 inputs=4 outputs=4 shared=0\n// begin body\n\
             ld.global.u32 %r0, [%in];\nld.global.u32 %r1, [%in+4];\nld.global.u32 %r2, [%in+8];\n\
             cvt.s64.u32 %d0, %r0;\nshl.b64 %d1, %d0, 4;\nmov.b64 {{%r3, %r4}}, %d1;\nst.global.b32 [%out+4], %r4;\n\
             xor.b32 %r5, %r1, %r2;\nadd.u32 %r6, %r5, 1;\nst.global.b32 [%out+8], %r6;\n// end body\n// ptxdiff-inputs\n{inputs}"
        ))
        .unwrap();
        let allow = Allowances::all();
        let expected = interp::run(&p, &i, &allow).unwrap();
        // -O0 is right; -O3 has L and the xor bug.
        let buggy = allow.clone().emulating(Deviation::CvtS64U32SignExtends);
        let (out, _) =
            interp::run_with(&p, &i, &buggy, RunOptions { plant: Some(Plant::XorAsOr), ..Default::default() }).unwrap();
        let words_of = |out: &[Expected]| -> Vec<u32> {
            out.iter().flat_map(|e| (0..4).map(move |w| (e.bits >> (32 * w)) as u32)).collect()
        };
        let (words, right) = (words_of(&out), words_of(&expected));
        let (emulated, fired) = interp::run_emulating(&p, &i, &buggy).unwrap();
        assert_eq!(fired, vec![Deviation::CvtS64U32SignExtends]);
        let result = ProgramResult {
            expected: Ok(expected),
            observed: vec![
                Observed { backend: "cuda:ptxas-O0".into(), words: right },
                Observed { backend: "cuda:ptxas-O3".into(), words },
            ],
            failures: Vec::new(),
            sass: Vec::new(),
            emulated: vec![Emulated {
                backends: vec!["cuda:ptxas-O0".into(), "cuda:ptxas-O3".into()],
                expected: emulated,
                fired,
            }],
        };
        let raws = raw_findings(&p, &result);
        assert_eq!(raws.len(), 2, "{raws:#?}");
        let (known, new) = (&raws[0], &raws[1]);
        assert_eq!(known.explained, vec![Deviation::CvtS64U32SignExtends]);
        assert!(known.disagreement.as_ref().unwrap().mismatches.iter().all(|m| m.word == 1), "{known:#?}");
        assert!(new.explained.is_empty());
        assert!(new.disagreement.as_ref().unwrap().mismatches.iter().all(|m| m.word == 2), "{new:#?}");
        assert!(known.pre_signature().ends_with("|emulated:cvt-s64-u32-sign-extends"));
        // Recorded against corpus/known/: the one known by its emulation, the other new.
        let root = crate::paths::repo_root().expect("the repository");
        let dir = tempfile::tempdir().unwrap();
        let mut store =
            FindingStore::create(dir.path(), RunMeta::default(), KnownSet::load(&root.join("corpus/known")).unwrap())
                .unwrap();
        let reduced = Reduced::unchanged(&p, &i);
        let case = Case { original: &p, reduced: &reduced, result: &result };
        let (k, _) = package(known, &case, &allow, 0.0, &[]);
        assert_eq!(k.signature.input_class, "cvt-s64-u32-sign-extends");
        assert_eq!(store.record(k, "").unwrap(), Recorded::Known("fuzz-h100-l-cvt-s64-u32-sign-extends".into()));
        let (n, text) = package(new, &case, &allow, 0.0, &[]);
        assert_eq!(n.signature.form, "add.u32");
        assert_eq!(store.record(n, &text).unwrap(), Recorded::New);
        // An emulation run for -O0 only (its entries' backends) explains none of -O3's words.
        let only_o0 = Emulated { backends: vec!["cuda:ptxas-O0".into()], ..result.emulated[0].clone() };
        let scoped = ProgramResult { emulated: vec![only_o0], ..result.clone() };
        let raws = raw_findings(&p, &scoped);
        assert_eq!((raws.len(), raws[0].explained.len()), (1, 0), "{raws:#?}");
        // Without the emulating oracle's words both words are one finding, known by no entry.
        let plain = ProgramResult { emulated: Vec::new(), ..result.clone() };
        let raws = raw_findings(&p, &plain);
        assert_eq!((raws.len(), raws[0].explained.len()), (1, 0));
    }

    /// A word one backend gives as an emulation explains it and another gives otherwise: the
    /// new finding (the other backend's) shows what each backend really gave at that word, not
    /// the spec's word for the one whose word the known finding took ([`words_seen`]; seeds
    /// 4601-4603's cf337f2a, c98ee331, 1e161819 showed -O0 "giving" the spec).
    #[test]
    fn the_new_finding_shows_the_words_the_backends_gave() {
        use oracle::program::interp;
        use oracle::semantics::Deviation;
        let inputs: String = (0..32).map(|t| format!("// t{t}: 8000{t:04x} 00000000 00000000 00000000\n")).collect();
        let (p, i) = parse_case(&format!(
            "// ptxdiff-program name=k target=sm_90@9.0 threads=32 inputs=4 outputs=2 shared=0\n// begin body\n\
             ld.global.u32 %r0, [%in];\ncvt.s64.u32 %d0, %r0;\nshl.b64 %d1, %d0, 4;\nmov.b64 {{%r3, %r4}}, %d1;\n\
             st.global.b32 [%out+4], %r4;\n// end body\n// ptxdiff-inputs\n{inputs}"
        ))
        .unwrap();
        let allow = Allowances::all();
        let expected = interp::run(&p, &i, &allow).unwrap();
        let spec_words: Vec<u32> =
            expected.iter().flat_map(|e| (0..2).map(move |w| (e.bits >> (32 * w)) as u32)).collect();
        let l = allow.clone().emulating(Deviation::CvtS64U32SignExtends);
        let (emulated, fired) = interp::run_emulating(&p, &i, &l).unwrap();
        let words_of = |out: &[Expected]| -> Vec<u32> {
            out.iter().flat_map(|e| (0..2).map(move |w| (e.bits >> (32 * w)) as u32)).collect()
        };
        // -O0 has L (explained); -O3 another word there (unexplained).
        let with_l = words_of(&emulated);
        let other: Vec<u32> = with_l.iter().enumerate().map(|(k, w)| if k % 2 == 1 { w ^ 1 } else { *w }).collect();
        assert_ne!(with_l, words_of(&expected), "L changes word 1");
        let result = ProgramResult {
            expected: Ok(expected),
            observed: vec![
                Observed { backend: "cuda:ptxas-O0".into(), words: with_l.clone() },
                Observed { backend: "cuda:ptxas-O3".into(), words: other.clone() },
            ],
            failures: Vec::new(),
            sass: Vec::new(),
            emulated: vec![Emulated {
                backends: vec!["cuda:ptxas-O0".into(), "cuda:ptxas-O3".into()],
                expected: emulated,
                fired,
            }],
        };
        let raws = raw_findings(&p, &result);
        let new = raws.iter().find(|r| r.explained.is_empty()).expect("-O3's word is new");
        assert_eq!(new.backends, ["cuda:ptxas-O3"]);
        for m in &new.disagreement.as_ref().unwrap().mismatches {
            let at = (2 * m.thread + m.word) as usize;
            assert_eq!(m.actual["cuda:ptxas-O0"], format!("{:#010x}", with_l[at]), "{m:?}");
            assert_eq!(m.actual["cuda:ptxas-O3"], format!("{:#010x}", other[at]), "{m:?}");
        }
        // Its version verdict counts -O0 wrong too: -O0 gave L's words, not the spec's (seed
        // 5703's e9fc9a48 said "the JIT right" where the JIT gave B's). A backend that gave the
        // spec's words is right. (Before, -O0 counted right: "wrong in 13.0 -O3; JIT right".)
        let with_right = ProgramResult {
            observed: [result.observed.clone(), vec![Observed { backend: "cuda:jit".into(), words: spec_words }]]
                .concat(),
            ..result.clone()
        };
        let reduced = Reduced::unchanged(&p, &i);
        let case = Case { original: &p, reduced: &reduced, result: &with_right };
        let env = [("ptxas".to_string(), "Cuda compilation tools, release 13.0, V13.0.88".to_string())];
        let raws = raw_findings(&p, &with_right);
        let new = raws.iter().find(|r| r.explained.is_empty()).expect("-O3's word is new");
        assert_eq!(new.backends, ["cuda:ptxas-O3"]);
        let (f, _) = package(new, &case, &allow, 0.0, &env);
        assert_eq!(f.versions.as_deref(), Some("wrong in 13.0; JIT right"), "{f:#?}");
    }

    /// An emulation that fires where ptxas compiled right (here L, on a `cvt.s64.u32` the GPU
    /// converted by the spec) cannot spoil another's explanation (B's shift by an f32 amount,
    /// which the GPU did): the word both change is explained by B's isolation run; before the
    /// isolation runs the run of them all gave a third value and the finding was new.
    #[test]
    fn an_emulation_firing_where_ptxas_is_right_does_not_spoil_another() {
        use oracle::semantics::Deviation;
        let inputs: String = (0..32).map(|t| format!("// t{t}: 80000000 00000001 00000001 80000000\n")).collect();
        let (p, i) = parse_case(&format!(
            "// ptxdiff-program name=k target=sm_90@9.0 threads=32 inputs=4 outputs=2 shared=0\n// begin body\n\
             ld.global.u32 %r0, [%in];\ncvt.s64.u32 %d0, %r0;\nld.global.f32 %r1, [%in+4];\n\
             ld.global.b64 %d2, [%in+8];\nshr.b64 %d1, %d2, %r1;\nshl.b64 %d4, %d0, 4;\nadd.s64 %d3, %d4, %d1;\n\
             st.global.b64 [%out], %d3;\n// end body\n// ptxdiff-inputs\n{inputs}"
        ))
        .unwrap();
        let allow = Allowances::all();
        let words = |out: &[Expected]| -> Vec<u32> {
            out.iter().flat_map(|e| (0..2).map(move |w| (e.bits >> (32 * w)) as u32)).collect()
        };
        let spec = interp::run(&p, &i, &allow).unwrap();
        // The GPU has B only.
        let (gpu, fired) = interp::run_emulating(&p, &i, &allow.clone().emulating(Deviation::F32ShiftAmount)).unwrap();
        assert_eq!(fired, vec![Deviation::F32ShiftAmount]);
        let (both, fired) = interp::run_emulating(
            &p,
            &i,
            &allow.clone().emulating_all([Deviation::CvtS64U32SignExtends, Deviation::F32ShiftAmount]),
        )
        .unwrap();
        assert_eq!(fired.len(), 2, "{fired:?}");
        assert_ne!(words(&both)[1], words(&gpu)[1], "the run of both spoils the high word");
        let root = crate::paths::repo_root().expect("the repository");
        let known = KnownSet::load(&root.join("corpus/known")).unwrap();
        let o3 = "cuda:ptxas-O3";
        let emulated = super::super::engine::emulate(&p, &i, &allow, &known.emulation_scopes(), [o3], &[]).unwrap();
        assert!(emulated.len() > 1, "isolation runs: {}", emulated.len());
        let result = ProgramResult {
            expected: Ok(spec),
            observed: vec![Observed { backend: o3.into(), words: words(&gpu) }],
            failures: Vec::new(),
            sass: Vec::new(),
            emulated,
        };
        let raws = raw_findings(&p, &result);
        assert_eq!(raws.len(), 1, "{raws:#?}");
        assert_eq!(raws[0].explained, vec![Deviation::F32ShiftAmount], "{raws:#?}");
        // Only the run of them all: the high word is unexplained (what triage did before).
        let all_only = ProgramResult { emulated: result.emulated[..1].to_vec(), ..result.clone() };
        let raws = raw_findings(&p, &all_only);
        assert!(raws.iter().any(|r| r.explained.is_empty()), "{raws:#?}");
    }

    #[test]
    fn the_classes_of_reads_ptxas_is_known_for_are_known_and_others_are_not() {
        let root = crate::paths::repo_root().expect("the repository");
        let known = KnownSet::load(&root.join("corpus/known")).unwrap();
        let sig = |form: &str, how: &str| Signature::new(FindingClass::UnwrittenRegister, form, "", ["ptxas -O3"], how);
        let name = |s: Signature| known.matches(&s).map(|k| k.name.clone());
        assert_eq!(name(sig("STG.E", "descriptor")).as_deref(), Some("sass-descriptor-never-written"));
        assert_eq!(name(sig("LDG.E.EL.LTC256B.64", "descriptor")).as_deref(), Some("sass-descriptor-never-written"));
        assert_eq!(name(sig("CCTL.IVALL", "guard")).as_deref(), Some("sass-cctl-under-unwritten-predicate"));
        // The prefetches of the dropped arm (seed 4302's `CCTL.E.PF1`; seed 5802's 5934238d,
        // corpus/findings/fuzz-h200-5803/trace/T58F.md: `prefetch.global.L2` as `CCTL.E.PF2`, its
        // `.L2::evict_last` variant as `CCTL.E.PML2`).
        for form in ["CCTL.E.PF1", "CCTL.E.PF2", "CCTL.E.PML2"] {
            assert_eq!(name(sig(form, "guard")).as_deref(), Some("sass-cctl-under-unwritten-predicate"), "{form}");
        }
        assert_eq!(name(sig("F2FP.RELU.TF32.F32.PACK_B.RZ", "source")).as_deref(), Some("sass-tf32-of-unwritten-half"));
        // Another reader, or another role, is new — also the readers of N-5 and N-6 of
        // corpus/findings/fuzz-h200-3201/ (a store of a never-written register), which have no
        // entry: the reader alone would name every later store of an unwritten register.
        for (form, how) in [
            ("STG.E", "source"),
            ("STG.E.STRONG.SYS", "source"),
            ("STG.E.U16", "source"),
            ("CCTL.IVALL", "address"),
            ("CCTL.E.PF2", "address"),
            ("F2FP.BF16.F32.PACK_AB", "source"),
        ] {
            assert_eq!(name(sig(form, how)), None, "{form} {how}");
        }
    }
}

#[cfg(test)]
mod undefined_store_tests;
