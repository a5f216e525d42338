//! From a program's results to findings: what went wrong (class, disagreeing backends, how),
//! the implicated instruction form, the class of its input and the shape of the disagreement
//! (the opcodes of the first wrong word's data path, [`oracle::program::slice::data_path`]) — the
//! parts of the signature that de-duplicate findings — and the packaging of a (minimized) case
//! as a [`Finding`] with its case file. Runs nothing: both the minimization stage
//! ([`super::minimize`]) and the campaign's triage ([`super::triage`]) use it.

use generator::minimize::Reduced;
use oracle::isa::{Family, Form};
use oracle::program::{interp, slice, text, Program, Stmt};
use oracle::semantics::Allowances;

use super::engine::{Failure, ProgramResult};
use crate::diff::program::{compare_result, ProgramEvidence};
use crate::diff::Outcome;
use crate::findings::classify::{gist, input_class};
use crate::findings::{versions, Finding, FindingClass, Signature};

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
}

impl Raw {
    /// What must stay the same while minimizing (and de-duplicates before minimizing).
    pub fn pre_signature(&self) -> String {
        format!("{}|{}|{}", self.class.name(), self.backends.join(","), self.how)
    }
}

/// The findings in one program's results.
pub fn raw_findings(p: &Program, r: &ProgramResult) -> Vec<Raw> {
    let mut out = Vec::new();
    for f in &r.failures {
        out.push(match f {
            Failure::Rejected { by, message } => Raw {
                class: FindingClass::AssemblerRejection,
                backends: vec![by.clone()],
                how: gist(message),
                message: Some(message.clone()),
                disagreement: None,
            },
            Failure::Crash { by, how, message } => Raw {
                class: FindingClass::Crash,
                backends: vec![by.clone()],
                how: how.clone(),
                message: Some(message.clone()),
                disagreement: None,
            },
        });
    }
    // A refused program or one no backend ran is not comparable: its failures above are all
    // there is to report.
    if let Outcome::Disagree(d) = compare_result(p.outputs, &r.expected, &r.observed) {
        out.push(Raw {
            class: if d.split { FindingClass::Compiler } else { FindingClass::HardwareSpec },
            backends: d.backends.clone(),
            how: d.how.clone(),
            message: None,
            disagreement: Some(d),
        });
    }
    out
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
    let imp = implicated(p);
    let form_name = imp.as_ref().map_or("program".to_string(), |(_, n)| n.clone());
    let shape = this.disagreement.as_ref().map(|d| slice::shape(p, d.first.1)).unwrap_or_default();
    let sig = Signature::new(this.class, form_name, "", this.backends.clone(), this.how.clone()).with_shape(shape);
    (sig, imp.map(|(k, _)| k))
}

/// What cheap triage checks first: the signature of `raw` in program `p` as it is, without
/// its input class ([`KnownSet::may_match`](crate::findings::KnownSet::may_match) decides
/// whether the input class is worth a run).
pub fn quick_signature(raw: &Raw, p: &Program) -> Signature {
    signature_without_input(raw, p).0
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

/// Names and packages one raw finding: signature (class, implicated form, input class,
/// backends, how, shape of the first wrong word), the finding, and its case file text. The final run's own finding of the same
/// pre-signature is preferred (its mismatches are the reduced program's); `raw` stands in when
/// the final run no longer shows it.
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
    f.mismatches = this.disagreement.as_ref().map(|d| d.mismatches.clone()).unwrap_or_default();
    f.message = this.message.clone().map(|m| m.chars().take(4000).collect());
    f.environment = env.to_vec();
    f.first_seen_s = at_s;
    f.reproduced = case.reduced.reproduced;
    let (observed, failed): (Vec<&str>, Vec<&str>) = (
        case.result.observed.iter().map(|o| o.backend.as_str()).collect(),
        case.result.failures.iter().map(Failure::by).collect(),
    );
    f.versions = versions::program_verdict(&this.backends, this.disagreement.is_some(), &observed, &failed, env);
    (f, text::case(mp, mi))
}
