//! The memory programs' cases (`fuzz --async`, `replay`, `minimize`): what one backend's result
//! shows against the oracle's read-back bytes ([`Symptom`]), a program's raw findings, their
//! kind and signature and case file ([`Memory`]'s [`CaseKind`], implemented here), a raw finding
//! as triage and the minimization threads take it ([`MemCase`], reduced by [`MemReducer`] with
//! [`generator::async_minimize`], which keeps every candidate protocol-correct while the same
//! symptom remains on the same backends), the GPU backends that run memory programs
//! ([`gpu_backends`]) and the replay of a case ([`replay`]).
//!
//! A raw finding is a byte difference, a fault or hang, an assembler rejection, or a tensor map
//! the driver refuses though the model accepts it. The signature is built from the
//! asynchronous statements that remain after minimization (the forms of the copies), the
//! tensor map's type and swizzle, and the symptom. A finding's case file is the case's
//! `ptxdiff eval` program line, its replay `ptxdiff eval --backend B CASE`.
//!
//! Invariants: byte differences that the oracle emulating a known hardware deviation
//! reproduces exactly name that deviation; byte differences that only some of the backends that
//! ran show are a compiler bug, whatever the oracle says; a candidate reduction is accepted only
//! on every backend that showed the finding, before the campaign's end.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::bail;
use generator::async_minimize;
use oracle::isa::{Family, Instruction};
use oracle::memory::Region;
use oracle::memprog::{MemProgram, MemSource};
use oracle::semantics::{Allowances, Deviation, DeviationScope};

use super::case::{CaseKind, Memory};
use super::engine::StageTime;
use super::minimize::{Case, Reduction};
use crate::backend::{Backend, BackendKind, Failure, Registry, Selection};
use crate::findings::{Finding, FindingClass, Signature, WordMismatch};
use crate::memrun::{compare, oracle_read, run_on, GpuResult};
use crate::program_line::{program_line, program_source};

/// Longest wait for one memory job on a GPU before it counts as a hang.
pub const JOB_TIMEOUT: Duration = Duration::from_secs(10);
/// What one backend did with one program, as a finding would describe it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symptom {
    /// The finding class.
    pub class: FindingClass,
    /// `bytes-differ`, `hang`, `CUDA_ERROR_…`, `encode-rejected CUDA_ERROR_…`, `rejected`.
    pub how: String,
    /// The first differing read-back buffer (byte differences).
    pub buffer: Option<String>,
    /// The log or message.
    pub message: Option<String>,
    /// The known hardware deviation that explains every differing byte (the oracle emulating
    /// it gives the GPU's bytes), if one does.
    pub deviation: Option<Deviation>,
}

/// One raw finding of a memory program ([`Memory`]'s [`CaseKind::Raw`]): the program and the
/// backends that show one symptom.
#[derive(Clone, Debug)]
pub struct Raw {
    /// The program as generated.
    pub source: MemSource,
    /// What the backends show.
    pub symptom: Symptom,
    /// The backends that show it.
    pub backends: Vec<String>,
    /// The first differing bytes (of the first backend).
    pub mismatches: Vec<WordMismatch>,
}

/// What running one memory program gave ([`Memory`]'s [`CaseKind::Result`]): the program
/// built, the oracle's read-back regions, and each GPU backend's result (in the campaign's
/// order of backends).
#[derive(Clone, Debug)]
pub struct MemResult {
    /// The program built from its source.
    pub program: MemProgram,
    /// The oracle's read-back regions.
    pub expected: Vec<Region>,
    /// Each GPU backend that ran it, with its result.
    pub observed: Vec<(String, GpuResult)>,
}

impl CaseKind for Memory {
    type Program = MemSource;
    type Case = MemSource;
    type Result = MemResult;
    type Raw = Raw;

    /// Each backend's symptom against the oracle's bytes ([`symptom`]; a byte difference the
    /// oracle emulating a known deviation under `allow` reproduces names it), grouped: one raw
    /// finding per symptom, with every backend that shows it; byte differences that only some
    /// of the backends that ran show are a compiler bug, whatever the oracle says.
    fn raw_findings(source: &MemSource, result: &MemResult, allow: &Allowances) -> Vec<Raw> {
        let found = result
            .observed
            .iter()
            .filter_map(|(name, r)| match symptom(&result.program, &result.expected, r, name, allow) {
                (Some(sym), m) => Some((name.clone(), sym, m)),
                (None, _) => None,
            })
            .collect();
        group(source, found, result.observed.len())
    }

    /// Class, backends, symptom and the known deviation that explains the bytes, if one does.
    fn pre_signature(r: &Raw) -> String {
        let deviation = r.symptom.deviation.map_or("", |d| d.input_class());
        format!("{}|{}|{}|{deviation}", r.symptom.class.name(), r.backends.join(","), r.symptom.how)
    }

    /// The whole signature ([`signature`]): a memory program's needs no run.
    fn quick_signature(raw: &Raw, source: &MemSource) -> Signature {
        signature(source, &raw.symptom, &raw.backends)
    }

    fn describe(raw: &Raw) -> String {
        let buffer = raw.symptom.buffer.as_deref().map(|b| format!(" in `{b}`")).unwrap_or_default();
        let sym = &raw.symptom;
        let mut lines = vec![format!("{} [{}] {}{buffer}", sym.class.name(), raw.backends.join(","), sym.how)];
        if let Some(m) = &sym.message {
            lines.push(format!("  {}", m.lines().take(5).collect::<Vec<_>>().join("\n  ")));
        }
        for m in &raw.mismatches {
            lines.push(format!("  {}: expected {}; got {:?}", m.decoded, m.expected, m.actual));
        }
        lines.join("\n")
    }

    fn write_case(source: &MemSource) -> String {
        format!("{}\n", program_line(source))
    }

    fn read_case(text: &str) -> Result<MemSource, String> {
        let line: serde_json::Map<String, serde_json::Value> = serde_json::from_str(text.trim())
            .map_err(|e| format!("not a `ptxdiff eval` program line (one JSON object): {e}"))?;
        program_source(&line)
    }
}

/// The symptom of `result` (of backend `backend`) against the oracle's `expected` read-back
/// bytes of `p` (under `allow`), if any; byte differences that the oracle emulating a known hardware deviation
/// reproduces exactly name that deviation.
pub(super) fn symptom(
    p: &MemProgram,
    expected: &[Region],
    result: &GpuResult,
    backend: &str,
    allow: &Allowances,
) -> (Option<Symptom>, Vec<WordMismatch>) {
    match result {
        GpuResult::Bytes(got) => {
            let refs: Vec<&Region> = expected.iter().collect();
            let diffs = compare(&refs, got);
            let Some(first) = diffs.first() else { return (None, Vec::new()) };
            let name = |k: usize| p.read.get(k).map_or_else(|| format!("#{k}"), |&b| p.buffers[b].name.clone());
            let mismatches = diffs
                .iter()
                .take(8)
                .map(|d| WordMismatch {
                    thread: 0,
                    word: d.offset as u32,
                    expected: format!("{:#04x}", d.expected),
                    actual: BTreeMap::from([(backend.to_string(), format!("{:#04x}", d.got))]),
                    decoded: format!("{} byte {}", name(d.buffer), d.offset),
                })
                .collect();
            let buffer = name(first.buffer);
            let message =
                format!("{} known bytes differ; the first in `{buffer}` at byte {}", diffs.len(), first.offset);
            let deviation = Deviation::of(DeviationScope::Memory).find(|&d| {
                oracle_read(p, &allow.clone().emulating(d))
                    .is_ok_and(|e| compare(&e.iter().collect::<Vec<_>>(), got).is_empty())
            });
            let message = match deviation {
                Some(d) => format!(
                    "{message}; the oracle emulating the known deviation `{}` ({}) gives the GPU's bytes",
                    d.input_class(),
                    d.evidence()
                ),
                None => message,
            };
            let s = Symptom {
                class: FindingClass::HardwareSpec,
                how: "bytes-differ".into(),
                buffer: Some(buffer),
                message: Some(message),
                deviation,
            };
            (Some(s), mismatches)
        }
        GpuResult::Failed(Failure::Crash { how, message, .. }) => (
            Some(Symptom {
                class: FindingClass::Crash,
                how: how.clone(),
                buffer: None,
                message: Some(message.clone()),
                deviation: None,
            }),
            Vec::new(),
        ),
        GpuResult::Failed(Failure::Rejected { message, .. }) => (
            Some(Symptom {
                class: FindingClass::AssemblerRejection,
                how: "rejected".into(),
                buffer: None,
                message: Some(message.clone()),
                deviation: None,
            }),
            Vec::new(),
        ),
        GpuResult::EncodeRejected { param, error } => (
            Some(Symptom {
                class: FindingClass::HardwareSpec,
                how: format!("encode-rejected {error}"),
                buffer: None,
                message: Some(format!("the driver refused tensor map parameter {param}: {error}")),
                deviation: None,
            }),
            Vec::new(),
        ),
    }
}

/// The signature of a (minimized) case: the forms of its asynchronous statements, the type
/// and swizzle of its tensor map, the backends and the symptom; the shape names the first
/// differing buffer and the value instructions (`cvt`, `prmt`) between the copy and it.
pub(super) fn signature(src: &MemSource, symptom: &Symptom, backends: &[String]) -> Signature {
    let mut forms = BTreeSet::new();
    let mut values = BTreeSet::new();
    for s in &src.statements {
        let body = match s.trim().strip_prefix('@') {
            Some(guarded) => guarded.split_once(char::is_whitespace).map_or("", |(_, b)| b),
            None => s.trim(),
        };
        let Ok(inst) = body.trim().parse::<Instruction>() else { continue };
        let f = inst.form.family();
        let asynchronous = matches!(
            f,
            Family::CpAsync
                | Family::CpAsyncBulk
                | Family::CpAsyncBulkTensor
                | Family::CpReduceAsyncBulk
                | Family::CpReduceAsyncBulkTensor
                | Family::CpAsyncBulkPrefetch
                | Family::CpAsyncBulkPrefetchTensor
        );
        if asynchronous && symptom.deviation.is_none_or(|d| d.concerns(&inst.form.opcode())) {
            forms.insert(inst.form.opcode());
        } else if matches!(f, Family::Cvt | Family::CvtPack | Family::Prmt) {
            values.insert(inst.form.opcode());
        }
    }
    let form = if forms.is_empty() { "program".to_string() } else { forms.into_iter().collect::<Vec<_>>().join(" + ") };
    let uses_map = src.statements.iter().any(|s| s.contains(".tensor"));
    let input_class = match (symptom.deviation, src.tensor_maps.first()) {
        (Some(d), _) => d.input_class().to_string(),
        (None, Some(m)) if uses_map => format!("{}/{}", m.map.dtype.name(), m.map.swizzle.name()),
        _ => String::new(),
    };
    let sig = Signature::new(symptom.class, form, input_class, backends.iter().cloned(), symptom.how.clone());
    match &symptom.buffer {
        Some(b) => {
            let mut shape = vec![b.clone()];
            shape.extend(values);
            sig.with_shape(shape.join(" ← "))
        }
        None => sig,
    }
}

/// The GPU backends of the campaign (or of a replay): those named (or the registry's
/// defaults) that run memory programs, built; the rest with why they cannot run. A named
/// backend that does not run memory programs, or is unavailable here, is an error.
pub fn gpu_backends(registry: &Registry, names: &[String]) -> anyhow::Result<Selection> {
    let oracle = crate::backend::oracle::NAME;
    let explicit = !names.is_empty();
    let names: Vec<String> = if explicit {
        if let Some(n) = names.iter().find(|n| *n != oracle && registry.kind_of(n) != Some(BackendKind::Gpu)) {
            bail!("backend `{n}` does not run memory programs (they run on the oracle and the cuda:* backends)");
        }
        names.iter().filter(|n| *n != oracle).cloned().collect()
    } else {
        registry.fuzz_defaults().into_iter().filter(|n| registry.kind_of(n) == Some(BackendKind::Gpu)).collect()
    };
    let sel = registry.build_all(&names)?;
    if explicit && !sel.unavailable.is_empty() {
        let why: Vec<String> = sel.unavailable.iter().map(|(n, w)| format!("{n}: {w}")).collect();
        bail!("requested backend(s) unavailable on this machine: {} (leave them out of --backends)", why.join("; "));
    }
    Ok(sel)
}

/// Runs memory case `source` on the oracle and on each of `gpus` (`ptxdiff replay` of a memory
/// case): its raw findings ([`Memory`]'s), none when every backend agrees with the oracle.
/// A program that does not build, or that the oracle refuses, is an error, as is a backend
/// that cannot run it (an environment error, not a finding).
pub fn replay(source: &MemSource, gpus: &mut [Box<dyn Backend>], allow: &Allowances) -> anyhow::Result<Vec<Raw>> {
    let program = source.build().map_err(|e| anyhow::anyhow!("the program does not build: {e}"))?;
    let expected = oracle_read(&program, allow).map_err(|e| anyhow::anyhow!("the oracle refuses this program: {e}"))?;
    let mut observed = Vec::with_capacity(gpus.len());
    for g in gpus.iter_mut() {
        let name = g.name();
        let r = run_on(g.as_mut(), &[&program], JOB_TIMEOUT).map_err(|e| anyhow::anyhow!("backend {name}: {e}"))?;
        let r = r.into_iter().next().ok_or_else(|| anyhow::anyhow!("backend {name} gave no result"))?;
        observed.push((name, r));
    }
    Ok(Memory::raw_findings(source, &MemResult { program, expected, observed }, allow))
}

/// Runs one case on one backend: the symptom it shows, if any.
pub(super) fn rerun(backend: &mut dyn Backend, src: &MemSource, allow: &Allowances) -> Option<Symptom> {
    let p = src.build().ok()?;
    let expected = oracle_read(&p, allow).ok()?;
    let r = run_on(backend, &[&p], JOB_TIMEOUT).ok()?.into_iter().next()?;
    symptom(&p, &expected, &r, &backend.name(), allow).0
}

/// The raw findings of one program (`source`) from what each backend showed (`found`: the
/// backend, its symptom and the differing bytes), `ran` GPU backends having run it: one per
/// symptom, with every backend that shows it; byte differences that only some of the backends
/// show are a compiler bug, whatever the oracle says.
pub(super) fn group(source: &MemSource, found: Vec<(String, Symptom, Vec<WordMismatch>)>, ran: usize) -> Vec<Raw> {
    let mut groups: Vec<Raw> = Vec::new();
    for (name, sym, m) in found {
        match groups
            .iter_mut()
            .find(|r| r.symptom.how == sym.how && r.symptom.class == sym.class && r.symptom.deviation == sym.deviation)
        {
            Some(r) => r.backends.push(name),
            None => groups.push(Raw { source: source.clone(), symptom: sym, backends: vec![name], mismatches: m }),
        }
    }
    for r in &mut groups {
        if r.symptom.class == FindingClass::HardwareSpec && r.backends.len() < ran && r.symptom.how == "bytes-differ" {
            r.symptom.class = FindingClass::Compiler;
        }
    }
    groups
}

/// A memory program's raw finding as triage and the minimization threads take it ([`Case`]).
#[derive(Clone, Debug)]
pub struct MemCase {
    /// The session's batch it was seen in.
    pub(super) batch: u64,
    /// The raw finding.
    pub(super) raw: Raw,
    /// Seconds since the campaign started when it was seen.
    pub(super) seen_at: f64,
    /// The store's folder of case files (the replay command names the case's).
    pub(super) cases: PathBuf,
}

/// A minimization thread's side of memory programs: GPU backends of its own, the
/// allowances, and the campaign's end (past it every candidate fails, so a reduction stops).
pub struct MemReducer {
    /// The thread's own GPU backends.
    pub(super) gpus: Vec<Box<dyn Backend>>,
    /// The allowances.
    pub(super) allow: Allowances,
    /// The campaign's end.
    pub(super) deadline: Instant,
}

impl MemCase {
    /// The case packaged with `source` (the generated program, or what minimization left of
    /// it): its signature from the statements that remain, its `ptxdiff eval` program line.
    fn package(&self, source: &MemSource, env: &[(String, String)]) -> (Finding, String) {
        let raw = &self.raw;
        let sig = Memory::quick_signature(raw, source);
        let ptx = source
            .build()
            .ok()
            .and_then(|p| oracle::memprog::ptx::module(&[&p]).ok())
            .map_or_else(String::new, |m| m.ptx);
        let mut f = Finding::new(sig, ptx);
        f.original_instructions = raw.source.statements.len() as u32;
        f.minimized_instructions = source.statements.len() as u32;
        f.threads = source.threads;
        f.message = raw.symptom.message.clone();
        f.environment = env.to_vec();
        f.first_seen_s = self.seen_at;
        f.mismatches = raw.mismatches.clone();
        f.replay = format!(
            "ptxdiff eval --backend {} {}",
            raw.backends[0],
            self.cases.join(format!("{}.case", f.id)).display()
        );
        (f, Memory::write_case(source))
    }
}

impl Case for MemCase {
    type Kind = Memory;
    type Runner = MemReducer;

    fn batch(&self) -> u64 {
        self.batch
    }

    fn raw(&self) -> &Raw {
        &self.raw
    }

    fn program(&self) -> &MemSource {
        &self.raw.source
    }

    fn package_as_is(&self, _: &Allowances, env: &[(String, String)]) -> (Finding, String) {
        self.package(&self.raw.source, env)
    }

    /// Reduces the program ([`async_minimize`], which keeps every candidate protocol-correct)
    /// while it shows the same symptom on the same backends (the same first differing buffer
    /// for byte differences).
    fn reduce(&self, r: &mut MemReducer, budget: generator::minimize::Budget, env: &[(String, String)]) -> Reduction {
        let raw = &self.raw;
        // The campaign's end, or this case's own bound (`--minimize-seconds`) if earlier.
        let deadline = budget.deadline_from(Instant::now()).map_or(r.deadline, |d| d.min(r.deadline));
        let allow = &r.allow;
        let gpus = &mut r.gpus;
        // Without its own instance of every backend that showed the finding the thread cannot
        // check a candidate: none is accepted.
        let present = raw.backends.iter().all(|b| gpus.iter().any(|g| &g.name() == b));
        let red = async_minimize::minimize(&raw.source, allow, budget.calls, |cand| {
            present
                && Instant::now() < deadline
                && gpus.iter_mut().filter(|g| raw.backends.contains(&g.name())).all(|g| {
                    rerun(g.as_mut(), cand, allow).is_some_and(|sym| {
                        sym.class == raw.symptom.class
                            && sym.how == raw.symptom.how
                            && sym.deviation == raw.symptom.deviation
                            && (sym.buffer == raw.symptom.buffer || raw.symptom.buffer.is_none())
                    })
                })
        });
        let (finding, case) = self.package(&red.source, env);
        let calls = red.calls as u64;
        Reduction { finding, case, calls, runs: calls, refused: 0, known_after_reduction: None }
    }
}

/// The stage lines of a backend's memory jobs inside its workers (summed over the workers, so
/// more than the session's wall where workers run side by side): the module loads (the JIT's
/// compile), the launches with their memory and read-back, and the restarts after faults.
pub fn worker_stages(backend: &str, m: &crate::backend::MemStages) -> Vec<(String, StageTime)> {
    let at = |wall_s| StageTime { wall_s, cpu_s: 0.0 };
    vec![
        (format!("workers: load modules for {backend}"), at(m.load_s)),
        (format!("workers: launch and read back for {backend}"), at(m.run_s)),
        (format!("workers: restarts for {backend}"), at(m.restart_s)),
    ]
}
