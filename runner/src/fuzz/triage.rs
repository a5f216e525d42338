//! From a program's results to findings: what went wrong (class, disagreeing backends, how),
//! the minimized reproducer, the implicated instruction form and the class of its input — the
//! parts of the signature that de-duplicate findings.

use std::path::Path;

use generator::minimize::{minimize, Budget};
use oracle::isa::{Family, Form};
use oracle::num::{decode, Value};
use oracle::program::{interp, text, Inputs, Program, Stmt};
use oracle::semantics::cvt::format_of;
use oracle::semantics::Expected;

use super::compare::{compare, Disagreement};
use super::engine::{Engine, Failure, ProgramResult};
use crate::findings::{Class, Finding, Signature};

/// A finding before minimization and naming.
#[derive(Clone, Debug)]
pub struct Raw {
    /// Class.
    pub class: Class,
    /// Disagreeing side.
    pub backends: Vec<String>,
    /// How.
    pub how: String,
    /// Crash or rejection text.
    pub message: Option<String>,
    /// The word-level disagreement, for mismatches.
    pub disagreement: Option<Disagreement>,
}

impl Raw {
    /// What must stay the same while minimizing (and de-duplicates before minimizing).
    pub fn pre_signature(&self) -> String {
        format!("{}|{}|{}", self.class.name(), self.backends.join(","), self.how)
    }
}

/// A rejection message reduced to its gist: no line numbers, no register or entry names.
fn gist(message: &str) -> String {
    let line = message.lines().find(|l| l.contains("error")).unwrap_or(message.lines().next().unwrap_or(""));
    let after = line.rsplit_once(": ").map_or(line, |(_, m)| m);
    let cleaned: String = after
        .split_whitespace()
        .filter(|w| !w.contains('%') && !w.starts_with("'p") && !w.chars().any(|c| c.is_ascii_digit()))
        .collect::<Vec<_>>()
        .join(" ");
    cleaned.chars().take(80).collect()
}

/// The findings in one program's results.
pub fn raw_findings(p: &Program, r: &ProgramResult) -> Vec<Raw> {
    let mut out = Vec::new();
    for f in &r.failures {
        out.push(match f {
            Failure::Rejected { by, message } => Raw {
                class: Class::AssemblerRejection,
                backends: vec![by.clone()],
                how: gist(message),
                message: Some(message.clone()),
                disagreement: None,
            },
            Failure::Crash { by, how, message } => Raw {
                class: Class::Crash,
                backends: vec![by.clone()],
                how: how.clone(),
                message: Some(message.clone()),
                disagreement: None,
            },
        });
    }
    if let Ok(expected) = &r.expected {
        if let Some(d) = compare(p.outputs, expected, &r.observed) {
            out.push(Raw {
                class: d.class,
                backends: d.backends.clone(),
                how: d.how.clone(),
                message: None,
                disagreement: Some(d),
            });
        }
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

/// The class of a source value: by the cvt's source format, else as an integer.
pub fn input_class(form: Option<&Form>, v: &Expected) -> String {
    if !v.is_exact() {
        return "set".into();
    }
    if let Some(Form::Cvt(c)) = form {
        if let Some(fmt) = format_of(c.atype) {
            return match decode(fmt, v.bits as u64) {
                Value::Nan { .. } => "nan",
                Value::Inf { .. } => "inf",
                Value::Zero { .. } => "zero",
                Value::Finite { .. } if (v.bits as u64 >> fmt.man_bits) & ((1 << fmt.exp_bits) - 1) == 0 => "subnormal",
                Value::Finite { .. } => "normal",
            }
            .into();
        }
    }
    let w = v.width.min(64);
    let m = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
    let b = v.bits as u64 & m;
    if b == 0 {
        "zero".into()
    } else if b == m || b == m >> 1 || b == (m >> 1) + 1 || b == 1 {
        "int-limit".into()
    } else {
        "int".into()
    }
}

/// Minimizes (when asked), names and packages one raw finding; gives the finding and its case
/// file text.
#[allow(clippy::too_many_arguments)]
pub fn finalize(
    engine: &mut Engine,
    raw: &Raw,
    p: &Program,
    i: &Inputs,
    do_minimize: bool,
    calls: usize,
    at_s: f64,
    env: &[(String, String)],
    run_dir: &Path,
) -> (Finding, String) {
    let pre = raw.pre_signature();
    let before = p.instruction_count();
    let (mp, mi) = if do_minimize {
        let r = minimize(p, i, Budget { calls }, |cand, inputs| {
            let res = engine.run(std::slice::from_ref(cand), std::slice::from_ref(inputs), "min");
            raw_findings(cand, &res[0]).iter().any(|x| x.pre_signature() == pre)
        });
        (r.program, r.inputs)
    } else {
        (p.clone(), i.clone())
    };
    // Re-run the reduced case for its own mismatches.
    let res = engine.run(std::slice::from_ref(&mp), std::slice::from_ref(&mi), "final");
    let this = raw_findings(&mp, &res[0]).into_iter().find(|x| x.pre_signature() == pre).unwrap_or_else(|| raw.clone());
    let imp = implicated(&mp);
    let form_name = imp.as_ref().map_or("program".to_string(), |(_, n)| n.clone());
    let input_class = match (&imp, &this.disagreement) {
        (Some((k, _)), Some(d)) => {
            let form = match &mp.body[*k] {
                Stmt::Isa(inst) => Some(inst.form.clone()),
                _ => None,
            };
            interp::probe(&mp, &mi, &engine.allow, *k, d.first.0)
                .ok()
                .and_then(|v| v.first().map(|(_, e)| input_class(form.as_ref(), e)))
                .unwrap_or_default()
        }
        _ => String::new(),
    };
    let sig = Signature::new(this.class, form_name, input_class, this.backends.clone(), this.how.clone());
    let mut f = Finding::new(sig, mp.module_text());
    f.original_instructions = before as u32;
    f.minimized_instructions = mp.instruction_count() as u32;
    f.inputs = mi.0.clone();
    f.threads = mp.threads();
    f.mismatches = this.disagreement.as_ref().map(|d| d.mismatches.clone()).unwrap_or_default();
    f.message = this.message.clone().map(|m| m.chars().take(4000).collect());
    f.environment = env.to_vec();
    f.replay = format!("ptxdiff replay {}", run_dir.join("cases").join(format!("{}.case", f.id)).display());
    f.first_seen_s = at_s;
    let case = text::case(&mp, &mi);
    (f, case)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gists_drop_names_and_numbers() {
        let m = "ptxas /tmp/x.ptx, line 12; error   : Arguments mismatch for instruction 'mov' at %r12";
        assert_eq!(gist(m), "Arguments mismatch for instruction 'mov' at");
    }

    #[test]
    fn input_classes() {
        let cvt: Form = Form::parse_opcode("cvt.rn.f16.f32").unwrap();
        let c = |b: u128| input_class(Some(&cvt), &Expected::exact(b, 32));
        assert_eq!((c(0x7FC0_0000).as_str(), c(0xFF80_0000).as_str(), c(0x8000_0000).as_str()), ("nan", "inf", "zero"));
        assert_eq!((c(1).as_str(), c(0x3F80_0000).as_str()), ("subnormal", "normal"));
        assert_eq!(input_class(None, &Expected::exact(0x7FFF_FFFF, 32)), "int-limit");
        assert_eq!(input_class(None, &Expected::exact(12345, 32)), "int");
    }
}
