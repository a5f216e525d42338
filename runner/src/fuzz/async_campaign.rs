//! `ptxdiff fuzz --async`: differential campaigns over protocol-correct asynchronous-copy
//! programs ([`generator::async_programs`]).
//!
//! Each batch of programs (seeded by `(seed, batch, index)` through [`super::program_seed`],
//! so every program is reproducible) is generated and run on the oracle on all cores, printed
//! as one module and run on each GPU backend that runs memory programs (`cuda:*`,
//! [`crate::memrun::run_on`]), and every program's read-back bytes are compared with the
//! oracle's ([`crate::memrun::compare`]). A raw finding is a byte difference, a fault or hang,
//! an assembler rejection, or a tensor map the driver refuses though the model accepts it.
//! The first [`MINIMIZE_PER_KIND`] new findings of a kind (class, backends, symptom) are
//! minimized ([`generator::async_minimize`], which keeps every candidate protocol-correct)
//! while the same symptom remains on the same backends (within the campaign's time), later
//! ones are counted under the first of them; a finding is stored in the [`FindingStore`] with
//! the case's `ptxdiff eval` program line as its case file and `ptxdiff eval --backend B CASE`
//! as its replay. The signature is built from the asynchronous statements that remain after
//! minimization (the forms of the copies), the tensor map's type and swizzle, and the symptom.
//!
//! Without a GPU (or with `--backends oracle`) the campaign runs the oracle only: every
//! program is still generated, built and run, so the count of programs the oracle calls
//! undefined is still checked, and the summary says that the GPU backends are unavailable.
//!
//! Invariants: a program the oracle refuses is counted as undefined (a generator bug: the
//! summary shows the first few) and never sent to a GPU; a finding is on disk (atomically,
//! through the store) before it is counted; the stage times cover generation, oracle, print,
//! GPU, compare and minimization.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use generator::async_minimize;
use generator::async_programs::{generate_seeded, AsyncConfig};
use oracle::isa::{Family, Instruction, Target};
use oracle::memory::Region;
use oracle::memprog::{MemProgram, MemSource};
use oracle::semantics::{Allowances, Deviation};

use super::engine::{add_stage, measure, StageTime};
use crate::backend::{Backend, BackendKind, Failure, Registry, Selection, Settings};
use crate::findings::{Finding, FindingClass, FindingStore, KnownSet, Recorded, RunMeta, Signature, WordMismatch};
use crate::memrun::{compare, oracle_read, run_on, GpuResult};
use crate::program_line::program_line;

/// Longest wait for one memory job on a GPU before it counts as a hang.
pub const JOB_TIMEOUT: Duration = Duration::from_secs(10);
/// New findings of one kind (class, backends, symptom) minimized per campaign; later ones are
/// stored as they are.
pub const MINIMIZE_PER_KIND: u32 = 3;
/// Programs the oracle refused whose errors the summary shows.
const SHOW_UNDEFINED: usize = 3;

/// Options of an async campaign.
#[derive(Clone, Debug)]
pub struct AsyncOptions {
    /// Stop after this long.
    pub time: Duration,
    /// Stop after this many programs.
    pub max_programs: Option<u64>,
    /// Campaign seed.
    pub seed: u64,
    /// Target.
    pub target: Target,
    /// Backend names given (empty: the GPU backends this machine has).
    pub backends: Vec<String>,
    /// Registry settings (ptxas, devices, workers, allowances).
    pub settings: Settings,
    /// Generator configuration.
    pub config: AsyncConfig,
    /// Run directory (new or empty).
    pub run_dir: PathBuf,
    /// Known findings directory.
    pub known_dir: PathBuf,
    /// Programs per batch (one module per batch and backend).
    pub batch: usize,
    /// Minimize new findings.
    pub minimize: bool,
    /// Predicate calls per minimization.
    pub minimize_calls: usize,
    /// The command line, for the report.
    pub command: String,
    /// Print a status line every few seconds.
    pub progress: bool,
}

/// What an async campaign did.
#[derive(Clone, Debug, Default)]
pub struct AsyncSummary {
    /// Programs generated and run on the oracle.
    pub programs: u64,
    /// Seconds the campaign ran.
    pub seconds: f64,
    /// Programs the oracle refused (must stay 0).
    pub undefined: u64,
    /// The first few of those refusals (program seed and error).
    pub undefined_examples: Vec<String>,
    /// Programs run on the GPU backends (each counted once per backend).
    pub gpu_runs: u64,
    /// Raw findings by symptom (`bytes-differ`, `hang`, a fault's name, `encode-rejected`,
    /// `rejected`).
    pub symptoms: BTreeMap<String, u64>,
    /// New findings stored.
    pub new: u64,
    /// Occurrences of stored findings.
    pub duplicates: u64,
    /// Occurrences of known findings.
    pub known: u64,
    /// Findings minimized and the predicate calls it took.
    pub minimized: (u64, u64),
    /// Why the GPU backends are unavailable (none: they ran).
    pub gpu_unavailable: Option<String>,
    /// The backends that ran programs (the oracle first).
    pub backends: Vec<String>,
    /// Wall and CPU seconds per stage.
    pub stages: BTreeMap<String, StageTime>,
}

/// What one backend did with one program, as a finding would describe it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Symptom {
    class: FindingClass,
    /// `bytes-differ`, `hang`, `CUDA_ERROR_…`, `encode-rejected CUDA_ERROR_…`, `rejected`.
    how: String,
    /// The first differing read-back buffer (byte differences).
    buffer: Option<String>,
    /// The log or message.
    message: Option<String>,
    /// The known hardware deviation that explains every differing byte (the oracle emulating
    /// it gives the GPU's bytes), if one does.
    deviation: Option<Deviation>,
}

/// One raw finding: a program and the backends that show one symptom.
#[derive(Clone, Debug)]
struct Raw {
    source: MemSource,
    symptom: Symptom,
    backends: Vec<String>,
    mismatches: Vec<WordMismatch>,
}

/// The symptom of `result` against the oracle's `expected` read-back bytes of `p` (under
/// `allow`), if any; byte differences that the oracle emulating a known hardware deviation
/// reproduces exactly name that deviation.
fn symptom(
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
            let deviation = Deviation::ALL.into_iter().find(|&d| {
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
fn signature(src: &MemSource, symptom: &Symptom, backends: &[String]) -> Signature {
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

/// The GPU backends of the campaign: those named (or the registry's defaults) that run memory
/// programs, built; the rest with why they cannot run.
fn gpu_backends(registry: &Registry, names: &[String]) -> anyhow::Result<Selection> {
    let oracle = crate::backend::oracle::NAME;
    let explicit = !names.is_empty();
    let names: Vec<String> = if explicit {
        if let Some(n) = names.iter().find(|n| *n != oracle && registry.kind_of(n) != Some(BackendKind::Gpu)) {
            bail!(
                "backend `{n}` does not run memory programs; `fuzz --async` takes the oracle and the cuda:* backends"
            );
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

/// A generated program and what the oracle made of it.
struct Prepared {
    source: MemSource,
    /// The program and its read-back regions, or the oracle's refusal.
    result: Result<(MemProgram, Vec<Region>), String>,
    generation: StageTime,
    oracle: StageTime,
}

/// Generates program `k` of batch `b` and runs it on the oracle.
fn prepare(o: &AsyncOptions, b: u64, k: u64) -> Prepared {
    let seed = super::program_seed(o.seed, b, k);
    let (source, generation) = measure(|| generate_seeded(seed, &o.config, &o.target));
    let (result, oracle) = measure(|| {
        let p = source.build().map_err(|e| format!("seed {seed}: {e}"))?;
        let r = oracle_read(&p, &o.settings.allow).map_err(|e| format!("seed {seed}: {e}"))?;
        Ok((p, r))
    });
    Prepared { source, result, generation, oracle }
}

/// Runs one case on one backend: the symptom it shows, if any.
fn rerun(backend: &mut dyn Backend, src: &MemSource, allow: &Allowances) -> Option<Symptom> {
    let p = src.build().ok()?;
    let expected = oracle_read(&p, allow).ok()?;
    let r = run_on(backend, &[&p], JOB_TIMEOUT).ok()?.into_iter().next()?;
    symptom(&p, &expected, &r, &backend.name(), allow).0
}

/// Runs an async campaign on the oracle and the GPU backends of `o`.
pub fn run(o: &AsyncOptions) -> anyhow::Result<AsyncSummary> {
    generator::async_programs::supported(&o.target).map_err(|e| anyhow::anyhow!("fuzz --async: {e}"))?;
    let registry = Registry::new(o.settings.clone());
    let sel = gpu_backends(&registry, &o.backends)?;
    let why = registry.context().gpu_unavailable().or_else(|| {
        (sel.backends.is_empty() && !sel.unavailable.is_empty())
            .then(|| sel.unavailable.iter().map(|(n, w)| format!("{n}: {w}")).collect::<Vec<_>>().join("; "))
    });
    run_with(o, sel.backends, why)
}

/// Runs an async campaign on the oracle and `gpus` (`gpu_unavailable`: why there are none).
pub fn run_with(
    o: &AsyncOptions,
    mut gpus: Vec<Box<dyn Backend>>,
    gpu_unavailable: Option<String>,
) -> anyhow::Result<AsyncSummary> {
    let known = if o.known_dir.is_dir() {
        KnownSet::load(&o.known_dir)
            .with_context(|| format!("loading known findings from {}", o.known_dir.display()))?
    } else {
        KnownSet::empty()
    };
    if o.run_dir.exists()
        && o.run_dir.read_dir().with_context(|| format!("reading {}", o.run_dir.display()))?.next().is_some()
    {
        bail!("{} is not empty: give --out a new or empty directory for the campaign", o.run_dir.display());
    }
    std::fs::create_dir_all(&o.run_dir).with_context(|| format!("creating {}", o.run_dir.display()))?;
    let mut s = AsyncSummary { gpu_unavailable, ..AsyncSummary::default() };
    s.backends =
        std::iter::once(crate::backend::oracle::NAME.to_string()).chain(gpus.iter().map(|b| b.name())).collect();
    let mut env = vec![("mode".to_string(), "async".to_string())];
    env.extend(crate::backend::environment(&gpus));
    if let Some(why) = &s.gpu_unavailable {
        env.push(("gpu".into(), format!("unavailable: {why}")));
    }
    env.push(("backends".into(), s.backends.join(",")));
    let meta = RunMeta {
        run_id: String::new(),
        started_unix_s: std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs()),
        command: o.command.clone(),
        target: o.target.to_string(),
        environment: env.clone(),
        extra: BTreeMap::from([("seed".to_string(), o.seed.to_string()), ("mode".to_string(), "async".to_string())]),
    };
    let mut store = FindingStore::create(&o.run_dir, meta, known)?;
    let start = Instant::now();
    let mut last_status = Instant::now();
    let mut minimized_kinds: BTreeMap<Kind, KindSeen> = BTreeMap::new();
    let done = |s: &AsyncSummary| start.elapsed() >= o.time || o.max_programs.is_some_and(|m| s.programs >= m);
    let mut b = 0u64;
    while !done(&s) {
        let n = match o.max_programs {
            Some(m) => (m - s.programs).min(o.batch as u64),
            None => o.batch as u64,
        };
        // Generation and the oracle, on all cores.
        let t = Instant::now();
        let prepared: Vec<_> = {
            use rayon::prelude::*;
            (0..n).into_par_iter().map(|k| prepare(o, b, k)).collect()
        };
        let wall = t.elapsed().as_secs_f64();
        let (gen_cpu, ora_cpu): (f64, f64) = prepared
            .iter()
            .map(|p| (p.generation.cpu_s, p.oracle.cpu_s))
            .fold((0.0, 0.0), |a, x| (a.0 + x.0, a.1 + x.1));
        let share = gen_cpu / (gen_cpu + ora_cpu).max(1e-12);
        add_stage(&mut s.stages, "generation", StageTime { wall_s: wall * share, cpu_s: gen_cpu });
        add_stage(&mut s.stages, "oracle", StageTime { wall_s: wall * (1.0 - share), cpu_s: ora_cpu });
        s.programs += n;
        let mut runnable: Vec<(MemSource, MemProgram, Vec<Region>)> = Vec::new();
        for prep in prepared {
            match prep.result {
                Ok((p, r)) => runnable.push((prep.source, p, r)),
                Err(e) => {
                    s.undefined += 1;
                    if s.undefined_examples.len() < SHOW_UNDEFINED {
                        eprintln!(
                            "warning: the oracle refused a generated async program ({e}); this is a generator bug"
                        );
                        s.undefined_examples.push(e);
                    }
                }
            }
        }
        if !gpus.is_empty() && !runnable.is_empty() {
            let programs: Vec<&MemProgram> = runnable.iter().map(|(_, p, _)| p).collect();
            let (printed, t) = measure(|| crate::memrun::print_all(&programs));
            add_stage(&mut s.stages, "print", t);
            if let Err(e) = printed {
                bail!("cannot print generated async programs as PTX ({e}): a ptxdiff bug");
            }
            let mut raws: Vec<Raw> = Vec::new();
            let mut per_program: Vec<Vec<(String, Symptom, Vec<WordMismatch>)>> = vec![Vec::new(); runnable.len()];
            for g in gpus.iter_mut() {
                let (results, t) = measure(|| run_on(g.as_mut(), &programs, JOB_TIMEOUT));
                add_stage(&mut s.stages, "GPU", t);
                let results = results.map_err(|e| anyhow::anyhow!("backend {}: {e}", g.name()))?;
                s.gpu_runs += results.len() as u64;
                let (_, t) = measure(|| {
                    for (k, r) in results.iter().enumerate() {
                        let (_, p, expected) = &runnable[k];
                        if let (Some(sym), m) = symptom(p, expected, r, &g.name(), &o.settings.allow) {
                            per_program[k].push((g.name(), sym, m));
                        }
                    }
                });
                add_stage(&mut s.stages, "compare", t);
            }
            // One raw finding per program and symptom, with every backend that shows it.
            for (k, found) in per_program.into_iter().enumerate() {
                let mut groups: Vec<Raw> = Vec::new();
                for (name, sym, m) in found {
                    match groups.iter_mut().find(|r| {
                        r.symptom.how == sym.how && r.symptom.class == sym.class && r.symptom.deviation == sym.deviation
                    }) {
                        Some(r) => r.backends.push(name),
                        None => groups.push(Raw {
                            source: runnable[k].0.clone(),
                            symptom: sym,
                            backends: vec![name],
                            mismatches: m,
                        }),
                    }
                }
                // Compiled variants that disagree with each other: a compiler bug, whatever
                // the oracle says.
                let ran = gpus.len();
                for r in &mut groups {
                    if r.symptom.class == FindingClass::HardwareSpec
                        && r.backends.len() < ran
                        && r.symptom.how == "bytes-differ"
                    {
                        r.symptom.class = FindingClass::Compiler;
                    }
                }
                raws.extend(groups);
            }
            for raw in raws {
                *s.symptoms.entry(raw.symptom.how.clone()).or_default() += 1;
                record(o, &mut s, &mut store, &mut gpus, &mut minimized_kinds, raw, start)?;
            }
        }
        b += 1;
        if o.progress && last_status.elapsed() >= Duration::from_secs(10) {
            eprintln!(
                "{:>6.0} s  {} async programs ({:.0}/s)  undefined {}  findings: {} new, {} dup, {} known",
                start.elapsed().as_secs_f64(),
                s.programs,
                s.programs as f64 / start.elapsed().as_secs_f64().max(1e-9),
                s.undefined,
                s.new,
                s.duplicates,
                s.known
            );
            last_status = Instant::now();
        }
    }
    s.seconds = start.elapsed().as_secs_f64();
    store.update_meta(|m| {
        m.extra.insert("programs".into(), s.programs.to_string());
        m.extra.insert("undefined".into(), s.undefined.to_string());
        m.extra.insert("duration (s)".into(), format!("{:.1}", s.seconds));
    })?;
    crate::findings::render::write_all(&o.run_dir, store.doc())?;
    Ok(s)
}

/// A kind of finding: class, backends, symptom, and the known deviation that explains it.
type Kind = (FindingClass, Vec<String>, String, Option<Deviation>);

/// What the campaign did with a kind so far: minimizations, and the signature of the first
/// finding of the kind that was minimized.
#[derive(Default)]
struct KindSeen {
    minimized: u32,
    first: Option<Signature>,
}

/// Minimizes and stores one raw finding; once [`MINIMIZE_PER_KIND`] findings of its kind were
/// minimized (without minimization: once one is stored), a further new one is counted under
/// the first of them instead (unminimized cases would each have a signature of their own).
fn record(
    o: &AsyncOptions,
    s: &mut AsyncSummary,
    store: &mut FindingStore,
    gpus: &mut [Box<dyn Backend>],
    kinds: &mut BTreeMap<Kind, KindSeen>,
    raw: Raw,
    start: Instant,
) -> anyhow::Result<()> {
    let kind = (raw.symptom.class, raw.backends.clone(), raw.symptom.how.clone(), raw.symptom.deviation);
    let seen = kinds.entry(kind).or_default();
    let before = raw.source.statements.len();
    let pre = signature(&raw.source, &raw.symptom, &raw.backends);
    let mut source = raw.source.clone();
    let new = store.classify(&pre) == Recorded::New;
    let enough = !o.minimize || seen.minimized >= MINIMIZE_PER_KIND;
    if let (true, Some(first)) = (new && enough, &seen.first) {
        match store.record(Finding::new(first.clone(), ""), "")? {
            Recorded::Known(_) => s.known += 1,
            _ => s.duplicates += 1,
        }
        return Ok(());
    }
    let minimizing = o.minimize && new && seen.minimized < MINIMIZE_PER_KIND;
    if minimizing {
        seen.minimized += 1;
        let (red, t) = measure(|| {
            let allow = &o.settings.allow;
            let deadline = start + o.time;
            async_minimize::minimize(&raw.source, allow, o.minimize_calls, |cand| {
                // Past the campaign's time every candidate fails, so the reduction stops.
                Instant::now() < deadline
                    && gpus.iter_mut().filter(|g| raw.backends.contains(&g.name())).all(|g| {
                        rerun(g.as_mut(), cand, allow).is_some_and(|sym| {
                            sym.class == raw.symptom.class
                                && sym.how == raw.symptom.how
                                && sym.deviation == raw.symptom.deviation
                                && (sym.buffer == raw.symptom.buffer || raw.symptom.buffer.is_none())
                        })
                    })
            })
        });
        add_stage(&mut s.stages, "minimize", t);
        s.minimized.0 += 1;
        s.minimized.1 += red.calls as u64;
        source = red.source;
    }
    let sig = signature(&source, &raw.symptom, &raw.backends);
    // A known signature never stands for its kind: new findings are not hidden under it.
    if (minimizing || !o.minimize) && seen.first.is_none() && !matches!(store.classify(&sig), Recorded::Known(_)) {
        seen.first = Some(sig.clone());
    }
    let ptx =
        source.build().ok().and_then(|p| oracle::memprog::ptx::module(&[&p]).ok()).map_or_else(String::new, |m| m.ptx);
    let mut f = Finding::new(sig, ptx);
    f.original_instructions = before as u32;
    f.minimized_instructions = source.statements.len() as u32;
    f.threads = source.threads;
    f.message = raw.symptom.message.clone();
    f.environment = store.doc().run.environment.clone();
    f.first_seen_s = start.elapsed().as_secs_f64();
    f.mismatches = raw.mismatches.clone();
    let id = f.id.clone();
    f.replay = format!("ptxdiff eval --backend {} {}", raw.backends[0], store.case_path(&id).display());
    let case = format!("{}\n", program_line(&source));
    match store.record(f, &case)? {
        Recorded::New => s.new += 1,
        Recorded::Duplicate => s.duplicates += 1,
        Recorded::Known(_) => s.known += 1,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src() -> MemSource {
        generate_seeded(3, &AsyncConfig::default(), &"sm_90".parse().expect("a target"))
    }

    #[test]
    fn signatures_name_the_copies_the_map_and_the_symptom() {
        let s = src();
        let sym = Symptom {
            class: FindingClass::HardwareSpec,
            how: "bytes-differ".into(),
            buffer: Some("win".into()),
            message: None,
            deviation: None,
        };
        let sig = signature(&s, &sym, &["cuda:jit".to_string()]);
        let copies: Vec<&String> = s.statements.iter().filter(|t| t.starts_with("cp.")).collect();
        assert!(!copies.is_empty());
        assert!(sig.form.contains("cp.async.bulk"), "{sig}");
        assert!(sig.shape.starts_with("win"), "{sig}");
        assert_eq!(sig.backends, vec!["cuda:jit".to_string()]);
        // Same copies and symptom: same key, whatever else the program does.
        let mut t = s.clone();
        t.statements.retain(|x| !x.starts_with("st.global"));
        assert_eq!(signature(&t, &sym, &["cuda:jit".to_string()]).key(), sig.key());
        let hang =
            Symptom { class: FindingClass::Crash, how: "hang".into(), buffer: None, message: None, deviation: None };
        assert_ne!(signature(&s, &hang, &["cuda:jit".to_string()]).key(), sig.key());
    }

    #[test]
    fn byte_differences_are_a_symptom_and_unknown_bytes_are_not() {
        let s = src();
        let p = s.build().expect("builds");
        let expected = oracle_read(&p, &Allowances::all()).expect("runs");
        let same = known_bytes(&expected);
        assert_eq!(symptom(&p, &expected, &GpuResult::Bytes(same.clone()), "cuda:jit", &Allowances::all()).0, None);
        // The first byte of the first read buffer that the oracle knows (unknown bytes read
        // back differently under two fills).
        let other: Vec<Vec<u8>> = expected.iter().map(|r| r.known_or(0xa5)).collect();
        let at = (0..same[0].len()).find(|&i| same[0][i] == other[0][i]).expect("a known byte");
        let mut wrong = same;
        wrong[0][at] ^= 1;
        let (sym, m) = symptom(&p, &expected, &GpuResult::Bytes(wrong), "cuda:jit", &Allowances::all());
        let sym = sym.expect("a difference");
        assert_eq!(sym.deviation, None);
        assert_eq!((sym.how.as_str(), sym.buffer.as_deref()), ("bytes-differ", Some(s.read[0].as_str())));
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].word as usize, at);
    }

    /// The known bytes of `regions` (unknown bytes as 0x5a).
    fn known_bytes(regions: &[Region]) -> Vec<Vec<u8>> {
        regions.iter().map(|r| r.known_or(0x5a)).collect()
    }

    /// The H100's `.add.f32` reduction (subnormals kept) is the known finding, in fuzz as in
    /// conform: the difference names the deviation, the signature carries its input class and
    /// only the reductions it concerns, and `corpus/known/` counts it as known.
    #[test]
    fn differences_a_known_deviation_explains_are_that_known_finding() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let case = std::fs::read_to_string(root.join("corpus/findings/reduce-add-f32-subnormals/edge-pairs.case"))
            .expect("the finding's case");
        let line: serde_json::Map<String, serde_json::Value> = serde_json::from_str(case.trim()).expect("JSON");
        let mut src = crate::program_line::program_source(&line).expect("a program line");
        // A bystander the deviation does not concern stays out of the signature's form.
        src.statements.insert(0, "cp.async.bulk.prefetch.L2.global [dst], 16;".into());
        let p = src.build().expect("builds");
        let spec = oracle_read(&p, &Allowances::all()).expect("runs");
        let hw = Allowances::all().emulating(Deviation::ReduceAddF32KeepsSubnormals);
        let h100 = known_bytes(&oracle_read(&p, &hw).expect("runs"));
        let (sym, _) = symptom(&p, &spec, &GpuResult::Bytes(h100.clone()), "cuda:jit", &Allowances::all());
        let sym = sym.expect("the H100 differs from the spec");
        assert_eq!(sym.deviation, Some(Deviation::ReduceAddF32KeepsSubnormals));
        let sig = signature(&src, &sym, &["cuda:jit".to_string()]);
        assert_eq!(sig.input_class, "f32-subnormal-add");
        assert_eq!(sig.form, "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32", "{sig}");
        let known = KnownSet::load(&root.join("corpus/known")).expect("corpus/known loads");
        assert!(known.matches(&sig).is_some(), "{sig}");
        // One more differing byte that the deviation does not explain: a new difference.
        let mut other = h100;
        let last = other[0].len() - 1;
        other[0][last] ^= 0x40;
        let (sym, _) = symptom(&p, &spec, &GpuResult::Bytes(other), "cuda:jit", &Allowances::all());
        assert_eq!(sym.expect("differs").deviation, None);
    }

    /// A "GPU" that launches nothing: every read-back buffer comes back as it started.
    struct Idle;

    impl Backend for Idle {
        fn name(&self) -> String {
            "cuda:idle".into()
        }
        fn kind(&self) -> BackendKind {
            BackendKind::Gpu
        }
        fn needs(&self) -> Vec<crate::backend::Need> {
            Vec::new()
        }
        fn role(&self) -> crate::backend::Role {
            crate::backend::Role::Runs
        }
        fn sweep(
            &mut self,
            _: &[crate::backend::SweepSpec],
            _: &(dyn Fn(u64) + Sync),
        ) -> Vec<crate::backend::SweepResult> {
            Vec::new()
        }
        fn run_programs(&mut self, _: &crate::backend::ProgramBatch) -> Result<Vec<Vec<u32>>, crate::backend::Failed> {
            Err(crate::backend::Failed::Environment("memory jobs only".into()))
        }
        fn run_mem(
            &mut self,
            specs: &[crate::backend::MemJob],
        ) -> Vec<Result<crate::worker::protocol::MemOutcome, String>> {
            specs
                .iter()
                .map(|s| {
                    let buffers = s.read.iter().map(|&i| s.buffers[i].init.clone()).collect();
                    Ok(crate::worker::protocol::MemOutcome::Done { buffers })
                })
                .collect()
        }
    }

    /// The whole finding path without a GPU: a backend whose bytes differ is found, the case
    /// minimized to a small protocol-correct program, stored with its eval line, which the
    /// oracle evaluates without an error.
    fn options(dir: &std::path::Path, minimize: bool) -> AsyncOptions {
        AsyncOptions {
            time: Duration::from_secs(60),
            max_programs: Some(8),
            seed: 5,
            target: "sm_90".parse().expect("a target"),
            backends: Vec::new(),
            settings: Settings {
                ptxas: Vec::new(),
                devices: crate::backend::pool::Devices::List(vec![0]),
                workers: None,
                allow: Allowances::all(),
                sweep_timeout: Duration::from_secs(1),
            },
            config: AsyncConfig::default(),
            run_dir: dir.join("run"),
            known_dir: dir.join("no-known"),
            batch: 8,
            minimize,
            minimize_calls: 300,
            command: "test".into(),
            progress: false,
        }
    }

    #[test]
    fn differences_are_minimized_and_stored_as_eval_lines() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let o = options(dir.path(), true);
        let run_dir = o.run_dir.clone();
        let s = run_with(&o, vec![Box::new(Idle)], None).expect("the campaign runs");
        assert_eq!((s.programs, s.undefined, s.gpu_runs), (8, 0, 8));
        assert!(s.new >= 1 && s.minimized.0 >= 1, "{s:?}");
        let raw: u64 = s.symptoms.values().sum();
        assert_eq!(s.new + s.duplicates + s.known, raw, "{s:?}");
        let doc = crate::findings::FindingsDoc::load(&run_dir).expect("findings.json");
        // One kind: the first three are minimized, later ones are counted under the first.
        assert!(doc.findings.len() <= MINIMIZE_PER_KIND as usize && raw > 3, "{s:?}");
        assert_eq!(doc.findings.iter().map(|f| f.count).sum::<u64>(), raw);
        for f in &doc.findings {
            assert_eq!(f.signature.how, "bytes-differ");
            assert_eq!(f.signature.backends, vec!["cuda:idle".to_string()]);
            assert!(f.replay.starts_with("ptxdiff eval --backend cuda:idle "), "{}", f.replay);
            assert!(f.ptx.contains(".entry mp0"), "{}", f.ptx);
            let case = std::fs::read_to_string(run_dir.join("cases").join(format!("{}.case", f.id))).expect("case");
            let answer = crate::eval::evaluate_line(case.trim(), &mut Default::default(), &Allowances::all());
            assert!(!answer.contains("\"error\""), "{case}\n→ {answer}");
        }
        let small = doc.findings.iter().map(|f| f.minimized_instructions).min().unwrap_or(u32::MAX);
        let big = doc.findings.iter().map(|f| f.original_instructions).max().unwrap_or(0);
        assert!(small * 4 < big, "minimized to {small} of {big} statements");
    }

    /// Without minimization one kind is one finding, however many programs show it.
    #[test]
    fn without_minimization_a_kind_is_one_finding() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let o = options(dir.path(), false);
        let s = run_with(&o, vec![Box::new(Idle)], None).expect("the campaign runs");
        let doc = crate::findings::FindingsDoc::load(&o.run_dir).expect("findings.json");
        assert_eq!((s.new, s.minimized.0, doc.findings.len()), (1, 0, 1), "{s:?}");
        assert_eq!(doc.findings[0].count, s.symptoms.values().sum::<u64>());
    }
}
