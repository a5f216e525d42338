//! Proves the ISA model's validity table against the real assembler.
//!
//! Two checks per target:
//! - **accept**: every form the model calls valid is assembled, thousands per probe module;
//!   when ptxas rejects a module, the forms on its error lines are set aside and the rest is
//!   assembled again (bisecting when an error names no instruction line), so every rejected form
//!   is named exactly.
//! - **reject**: a sample of forms the model calls invalid for the target — illegal
//!   combinations, and legal forms whose requirement the target does not meet — stratified so
//!   that every distinct rule (every distinct reason text) of every family is exercised, plus
//!   valid forms written with a register narrower than its slot. Each must draw an error from
//!   ptxas; a probe that no batch error names is assembled alone to be sure.
//!
//! Batches run on `jobs` threads, each running its own ptxas processes.

use std::collections::BTreeMap;
use std::sync::Mutex;

use generator::probe::{probe_module, probe_module_with};
use oracle::isa::{Family, Form, OperandKind, OperandSpec, Target};
use serde::Serialize;

use crate::ptxas::{Ptxas, PtxasError};

/// What the model expected ptxas to do with a form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Expect {
    /// The model calls the form valid for the target.
    Accept,
    /// The model calls the form invalid for the target.
    Reject,
}

/// A form on which the model and ptxas disagree.
#[derive(Clone, Debug, Serialize)]
pub struct Disagreement {
    /// The target name.
    pub target: String,
    /// The probe instruction.
    pub instruction: String,
    /// What the model expected.
    pub expected: Expect,
    /// The model's reason (for rejects) or ptxas's message (for accepts that failed).
    pub detail: String,
}

/// Agreement figures for one target.
#[derive(Clone, Debug, Serialize)]
pub struct TargetReport {
    /// The target name.
    pub target: String,
    /// Valid forms assembled.
    pub valid_checked: usize,
    /// Of those, accepted by ptxas.
    pub valid_accepted: usize,
    /// Invalid forms tried.
    pub invalid_checked: usize,
    /// Of those, rejected by ptxas.
    pub invalid_rejected: usize,
    /// Every disagreement.
    pub disagreements: Vec<Disagreement>,
}

/// Forms per accept-probe module.
const ACCEPT_BATCH: usize = 1500;
/// Forms per reject-probe module.
const REJECT_BATCH: usize = 150;

/// Runs `work` over `items` on `jobs` threads and collects the results in order.
fn parallel<T: Sync, R: Send>(items: &[T], jobs: usize, work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = Mutex::new(0usize);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let i = {
                    let mut n = next.lock().unwrap_or_else(|e| e.into_inner());
                    let i = *n;
                    *n += 1;
                    i
                };
                if i >= items.len() {
                    break;
                }
                let r = work(&items[i]);
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
            });
        }
    });
    results.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter().flatten().collect()
}

fn instruction_of(target: &Target, form: &Form) -> String {
    let probe = probe_module(target, std::slice::from_ref(form));
    probe.text.lines().nth(probe.lines[0] - 1).unwrap_or_default().to_string()
}

/// Forms (by index into `forms`) that ptxas rejects, with its message.
fn rejected_in(
    ptxas: &Ptxas,
    target: &Target,
    forms: &[Form],
    idx: Vec<usize>,
) -> Result<Vec<(usize, String)>, PtxasError> {
    let mut rejected = Vec::new();
    let mut stack = vec![idx];
    while let Some(mut remaining) = stack.pop() {
        loop {
            if remaining.is_empty() {
                break;
            }
            let batch: Vec<Form> = remaining.iter().map(|&i| forms[i].clone()).collect();
            let probe = probe_module(target, &batch);
            let asm = ptxas.assemble(&probe.text, &target.name(), 0, None)?;
            if asm.ok {
                break;
            }
            let mut named: Vec<usize> = Vec::new();
            for line in asm.error_lines() {
                if let Some(k) = probe.form_at_line(line) {
                    named.push(k);
                    rejected.push((remaining[k], asm.error_at(line).unwrap_or("").to_string()));
                }
            }
            if named.is_empty() {
                if remaining.len() == 1 {
                    let msg = if asm.crashed { format!("ptxas crashed: {}", asm.output) } else { asm.output.clone() };
                    rejected.push((remaining[0], msg.trim().to_string()));
                    break;
                }
                let half = remaining.split_off(remaining.len() / 2);
                stack.push(half);
                continue;
            }
            named.sort_unstable();
            for k in named.into_iter().rev() {
                remaining.remove(k);
            }
        }
    }
    Ok(rejected)
}

/// Assembles every form in `forms` for `target`; returns the number accepted and a
/// disagreement for each rejected form.
pub fn check_accepts(
    ptxas: &Ptxas,
    target: &Target,
    forms: &[Form],
    jobs: usize,
) -> Result<(usize, Vec<Disagreement>), PtxasError> {
    let chunks: Vec<Vec<usize>> =
        (0..forms.len()).collect::<Vec<_>>().chunks(ACCEPT_BATCH).map(<[usize]>::to_vec).collect();
    let results = parallel(&chunks, jobs, |chunk| rejected_in(ptxas, target, forms, chunk.clone()));
    let mut dis = Vec::new();
    for r in results {
        for (i, msg) in r? {
            dis.push(Disagreement {
                target: target.name(),
                instruction: instruction_of(target, &forms[i]),
                expected: Expect::Accept,
                detail: msg,
            });
        }
    }
    Ok((forms.len() - dis.len(), dis))
}

/// One probe the model calls invalid: a form, the operand slots to write it with, and the
/// model's reason.
pub type RejectItem = (Form, Vec<OperandSpec>, String);

fn probe_text(target: &Target, item: &RejectItem) -> String {
    let probe = probe_module_with(target, std::slice::from_ref(&(item.0.clone(), item.1.clone())));
    probe.text.lines().nth(probe.lines[0] - 1).unwrap_or_default().to_string()
}

/// Assembles each item of `sample` for `target`; returns the number rejected and a
/// disagreement for each item ptxas accepts.
pub fn check_rejects(
    ptxas: &Ptxas,
    target: &Target,
    sample: &[RejectItem],
    jobs: usize,
) -> Result<(usize, Vec<Disagreement>), PtxasError> {
    let chunks: Vec<&[RejectItem]> = sample.chunks(REJECT_BATCH).collect();
    let results = parallel(&chunks, jobs, |chunk| -> Result<Vec<usize>, PtxasError> {
        let items: Vec<(Form, Vec<OperandSpec>)> = chunk.iter().map(|(f, s, _)| (f.clone(), s.clone())).collect();
        let probe = probe_module_with(target, &items);
        let asm = ptxas.assemble(&probe.text, &target.name(), 0, None)?;
        let named: Vec<usize> = asm.error_lines().into_iter().filter_map(|l| probe.form_at_line(l)).collect();
        let mut accepted = Vec::new();
        for (k, item) in items.iter().enumerate() {
            if named.contains(&k) {
                continue;
            }
            let alone = probe_module_with(target, std::slice::from_ref(item));
            if ptxas.assemble(&alone.text, &target.name(), 0, None)?.ok {
                accepted.push(k);
            }
        }
        Ok(accepted)
    });
    let mut dis = Vec::new();
    for (chunk, r) in chunks.iter().zip(results) {
        for k in r? {
            dis.push(Disagreement {
                target: target.name(),
                instruction: probe_text(target, &chunk[k]),
                expected: Expect::Reject,
                detail: chunk[k].2.clone(),
            });
        }
    }
    Ok((sample.len() - dis.len(), dis))
}

/// Valid forms written with one register operand narrower than its slot (`.b16` where
/// `.b32` is required): the model calls every such instruction invalid. Up to `per_family`
/// forms per family, spread over its valid forms.
pub fn narrow_register_sample(target: &Target, family: Option<Family>, per_family: usize) -> Vec<RejectItem> {
    let families: Vec<Family> = match family {
        Some(f) => vec![f],
        None => Family::ALL.to_vec(),
    };
    let mut out = Vec::new();
    for fam in families {
        let forms = oracle::isa::valid_forms(target, Some(fam));
        let mutated: Vec<RejectItem> = forms
            .iter()
            .filter_map(|(form, _)| {
                let mut specs = form.operands();
                let (i, narrower) = specs.iter().enumerate().find_map(|(i, s)| match s.kind {
                    OperandKind::Reg(t) => t.narrower().map(|n| (i, n)),
                    _ => None,
                })?;
                let was = specs[i].kind;
                specs[i].kind = OperandKind::Reg(narrower);
                let why = format!("operand `{}` is a .{narrower} register where {:?} is required (PTX ISA §6.4.4: only wider registers are accepted)", specs[i].name, was);
                Some((form.clone(), specs, why))
            })
            .collect();
        let stride = (mutated.len() / per_family.max(1)).max(1);
        out.extend(mutated.into_iter().step_by(stride).take(per_family));
    }
    out
}

/// A deterministic sample of forms that the model calls invalid for `target`: for each family,
/// up to `per_rule` forms for every distinct reason (an illegality rule, or an unmet
/// requirement), spread over the candidates by a fixed stride.
pub fn reject_sample(target: &Target, family: Option<Family>, per_rule: usize) -> Vec<RejectItem> {
    let families: Vec<Family> = match family {
        Some(f) => vec![f],
        None => Family::ALL.to_vec(),
    };
    let mut out = Vec::new();
    for fam in families {
        let mut by_reason: BTreeMap<String, Vec<Form>> = BTreeMap::new();
        for form in fam.candidates() {
            let reason = match form.check() {
                Err(illegal) => illegal.0,
                Ok(req) => match req.check(target) {
                    Ok(()) => continue,
                    Err(why) => format!("{why} ({req})"),
                },
            };
            by_reason.entry(reason).or_default().push(form);
        }
        for (reason, forms) in by_reason {
            let stride = (forms.len() / per_rule.max(1)).max(1);
            for f in forms.into_iter().step_by(stride).take(per_rule) {
                let specs = f.operands();
                out.push((f, specs, reason.clone()));
            }
        }
    }
    out
}

/// Runs both checks for each target.
pub fn check_targets(
    ptxas: &Ptxas,
    targets: &[Target],
    family: Option<Family>,
    per_rule: usize,
    jobs: usize,
) -> Result<Vec<TargetReport>, PtxasError> {
    let mut reports = Vec::new();
    for t in targets {
        let empty = probe_module(t, &[]);
        let asm = ptxas.assemble(&empty.text, &t.name(), 0, None)?;
        if !asm.ok {
            return Err(PtxasError::Harness { target: t.name(), output: asm.output });
        }
        let valid: Vec<Form> = oracle::isa::valid_forms(t, family).into_iter().map(|(f, _)| f).collect();
        let (accepted, mut dis) = check_accepts(ptxas, t, &valid, jobs)?;
        let mut sample = reject_sample(t, family, per_rule);
        sample.extend(narrow_register_sample(t, family, per_rule.max(1) * 4));
        let (rejected, dis2) = check_rejects(ptxas, t, &sample, jobs)?;
        dis.extend(dis2);
        reports.push(TargetReport {
            target: t.name(),
            valid_checked: valid.len(),
            valid_accepted: accepted,
            invalid_checked: sample.len(),
            invalid_rejected: rejected,
            disagreements: dis,
        });
    }
    Ok(reports)
}
