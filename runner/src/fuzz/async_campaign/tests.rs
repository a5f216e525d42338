//! Tests of [`super`] and [`crate::fuzz::memory_case`]: symptoms and signatures, the finding path with an idle "GPU", resume
//! after a rolled-back state, shards.

use super::*;
use crate::backend::BackendKind;
use crate::findings::{FindingClass, KnownSet};
use crate::fuzz::memory_case::{signature, symptom};
use crate::fuzz::MINIMIZE_PER_KIND;
use crate::program_line::program_line;
use oracle::semantics::Deviation;

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
    let hang = Symptom { class: FindingClass::Crash, how: "hang".into(), buffer: None, message: None, deviation: None };
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
    fn sweep(&mut self, _: &[crate::backend::SweepSpec], _: &(dyn Fn(u64) + Sync)) -> Vec<crate::backend::SweepResult> {
        Vec::new()
    }
    fn run_programs(&mut self, _: &crate::backend::ProgramBatch) -> Result<Vec<Vec<u32>>, crate::backend::Failed> {
        Err(crate::backend::Failed::Environment("memory jobs only".into()))
    }
    fn run_mem(
        &mut self,
        jobs: &[crate::backend::MemJob],
    ) -> Vec<Result<Vec<crate::worker::protocol::MemOutcome>, String>> {
        let idle = |l: &crate::backend::MemLaunch| {
            let buffers = l.read.iter().map(|&i| l.buffers[i].init.clone()).collect();
            crate::worker::protocol::MemOutcome::Done { buffers }
        };
        jobs.iter().map(|j| Ok(j.launches.iter().map(idle).collect())).collect()
    }
}

/// A memory case replayed: the idle "GPU" shows its bytes differ (described with the first
/// differing byte), and with no GPU backend nothing is compared.
#[test]
fn a_replayed_memory_case_shows_what_differs() {
    let s = src();
    let found = replay(&s, &mut idle(), &Allowances::all()).expect("replays");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        (found[0].symptom.how.as_str(), found[0].backends.as_slice()),
        ("bytes-differ", &["cuda:idle".to_string()][..])
    );
    let text = Memory::describe(&found[0]);
    assert!(text.starts_with("hardware-spec [cuda:idle] bytes-differ in `") && text.contains(" byte "), "{text}");
    assert!(replay(&s, &mut Vec::new(), &Allowances::all()).expect("replays").is_empty());
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
        minimize_seconds: std::time::Duration::from_secs(60),
        minimize_threads: 1,
        command: "test".into(),
        progress: false,
        resume: false,
        shard: None,
        adapt: false,
    }
}

/// The campaign's backends and the minimization thread's: one idle "GPU" each.
fn idle() -> Vec<Box<dyn Backend>> {
    vec![Box::new(Idle)]
}

#[test]
fn differences_are_minimized_and_stored_as_eval_lines() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let o = options(dir.path(), true);
    let run_dir = o.run_dir.clone();
    let s = run_with(&o, idle(), vec![idle()], None).expect("the campaign runs");
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

/// Without minimization (as for register programs) the first [`MINIMIZE_PER_KIND`]
/// occurrences of a kind are stored as generated and later ones counted under the first.
#[test]
fn without_minimization_a_kind_is_a_few_findings() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let o = options(dir.path(), false);
    let s = run_with(&o, idle(), vec![idle()], None).expect("the campaign runs");
    let doc = crate::findings::FindingsDoc::load(&o.run_dir).expect("findings.json");
    let raw: u64 = s.symptoms.values().sum();
    assert!(raw > u64::from(MINIMIZE_PER_KIND), "{s:?}");
    assert_eq!((s.minimized.0, s.triage.minimization_off), (0, u64::from(MINIMIZE_PER_KIND)), "{s:?}");
    assert!(s.new >= 1 && doc.findings.len() <= MINIMIZE_PER_KIND as usize, "{s:?}");
    assert_eq!(doc.findings.iter().map(|f| f.count).sum::<u64>(), raw);
    for f in &doc.findings {
        assert_eq!(f.minimized_instructions, f.original_instructions);
    }
}

/// The findings of a run with their case files: (signature key, count, case text), sorted.
fn findings_with_cases(run: &std::path::Path) -> Vec<(String, u64, String)> {
    let doc = crate::findings::FindingsDoc::load(run).expect("findings.json");
    let mut v: Vec<(String, u64, String)> = doc
        .findings
        .iter()
        .map(|f| {
            let case = std::fs::read_to_string(run.join("cases").join(format!("{}.case", f.id))).expect("its case");
            (f.signature.key(), f.count, case)
        })
        .collect();
    v.sort();
    v
}

/// Minimization off the critical path finds what minimizing inline finds: one session of three
/// batches (the minimization thread works while later batches run) against three sessions of
/// one batch each (every minimization done before the next batch starts, as inline), same seed:
/// the same findings, counts and minimized cases.
#[test]
fn background_minimization_finds_what_inline_minimization_finds() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let whole = AsyncOptions { max_programs: Some(24), ..options(&dir.path().join("a"), true) };
    let a = run_with(&whole, idle(), vec![idle()], None).expect("the campaign runs");
    assert!(a.minimized.0 >= 1 && a.triage.queued >= 1, "{a:?}");
    let parts = options(&dir.path().join("b"), true);
    run_with(&parts, idle(), vec![idle()], None).expect("session 1");
    for _ in 0..2 {
        run_with(&AsyncOptions { resume: true, ..parts.clone() }, idle(), vec![idle()], None).expect("a later session");
    }
    let (x, y) = (findings_with_cases(&whole.run_dir), findings_with_cases(&parts.run_dir));
    assert!(!x.is_empty());
    assert_eq!(x, y);
    let state = |o: &AsyncOptions| {
        let path = o.run_dir.join("campaign.json");
        State::parse(&std::fs::read_to_string(&path).expect("state"), &path).expect("parses")
    };
    let (sa, sb) = (state(&whole), state(&parts));
    assert_eq!((sa.programs, sa.triage.minimized), (sb.programs, sb.triage.minimized));
    assert_eq!(sa.kinds.keys().collect::<Vec<_>>(), sb.kinds.keys().collect::<Vec<_>>());
}

/// The findings of a run: (signature key, count), sorted.
fn findings_of(run: &std::path::Path) -> Vec<(String, u64)> {
    let doc = crate::findings::FindingsDoc::load(run).expect("findings.json");
    let mut v: Vec<(String, u64)> = doc.findings.iter().map(|f| (f.signature.key(), f.count)).collect();
    v.sort();
    v
}

/// A campaign killed at the worst moment (its findings of a batch on disk, its state not
/// yet counting that batch) and resumed finds everything the uninterrupted campaign finds;
/// the state counts every program once and the resumed session continues at the batch it
/// was killed in.
#[test]
fn a_resumed_campaign_loses_nothing() {
    for minimize in [false, true] {
        resumed_campaign_loses_nothing(minimize);
    }
}

fn resumed_campaign_loses_nothing(minimize: bool) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let whole = AsyncOptions { max_programs: Some(24), ..options(&dir.path().join("a"), minimize) };
    run_with(&whole, idle(), vec![idle()], None).expect("the campaign runs");
    let parts = options(&dir.path().join("b"), minimize);
    let state_path = parts.run_dir.join("campaign.json");
    run_with(&AsyncOptions { max_programs: Some(8), ..parts.clone() }, idle(), vec![idle()], None).expect("session 1");
    let after_first = std::fs::read_to_string(&state_path).expect("campaign.json");
    let resume = AsyncOptions { resume: true, max_programs: Some(8), ..parts.clone() };
    run_with(&resume, idle(), vec![idle()], None).expect("session 2");
    // Killed after batch 1's findings were stored, before its state was written.
    std::fs::write(&state_path, &after_first).expect("roll the state back");
    let s =
        run_with(&AsyncOptions { max_programs: Some(16), ..resume }, idle(), vec![idle()], None).expect("session 3");
    assert_eq!((s.programs, s.campaign_programs), (16, 24), "{s:?}");
    let state = State::parse(&std::fs::read_to_string(&state_path).expect("state"), &state_path).expect("parses");
    assert_eq!((state.next_batch, state.programs), (3, 24));
    let memory = state.memory.clone().expect("a memory campaign");
    assert_eq!(memory.config, AsyncConfig::default());
    let (a, b) = (findings_with_cases(&whole.run_dir), findings_with_cases(&parts.run_dir));
    assert!(!a.is_empty());
    assert_eq!(a, b, "minimize: {minimize}");
    // Resuming as a register campaign, or with another seed, is refused by name.
    let wrong = State { memory: None, ..state.clone() };
    std::fs::write(&state_path, serde_json::to_string(&wrong).expect("json")).expect("write");
    let e = run_with(&AsyncOptions { resume: true, ..parts.clone() }, idle(), vec![idle()], None)
        .expect_err("another kind");
    assert!(e.to_string().contains("fuzzes register programs"), "{e}");
}

/// Batch `b` of shard `i/N` is batch `b·N + i − 1` of the unsharded campaign, and the shards'
/// runs merge into one report.
#[test]
fn shards_run_the_campaigns_batches_and_merge() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let o = AsyncOptions { batch: 2, ..options(dir.path(), false) };
    let texts = |o: &AsyncOptions, b: u64| -> Vec<String> {
        (0..2).map(|k| program_line(&prepare(o, &o.config, b, k, false).source).to_string()).collect()
    };
    let whole: Vec<Vec<String>> = (0..6).map(|b| texts(&o, b)).collect();
    let mut runs = Vec::new();
    for i in 1..=3u32 {
        let shard = Some(crate::runs::shard::Shard { index: i, count: 3 });
        let s = AsyncOptions { shard, run_dir: dir.path().join(format!("shard{i}")), ..o.clone() };
        for b in 0..2u64 {
            assert_eq!(texts(&s, b), whole[(b * 3 + u64::from(i) - 1) as usize], "shard {i}/3 batch {b}");
        }
        run_with(&AsyncOptions { max_programs: Some(4), ..s.clone() }, idle(), vec![idle()], None)
            .expect("a shard runs");
        runs.push(s.run_dir);
    }
    let merged = dir.path().join("merged");
    let records: Vec<_> = runs.iter().map(|r| crate::runs::record::RunRecord::load(r).expect("a run record")).collect();
    crate::runs::merge::merge(&records, &merged, "test").expect("the shards merge");
    let total: u64 = findings_of(&merged).iter().map(|(_, n)| n).sum();
    let parts: u64 = runs.iter().flat_map(|r| findings_of(r)).map(|(_, n)| n).sum();
    assert_eq!(total, parts);
}

/// With `adapt`, the swarm weights of the memory generator's switches move with what the
/// programs found (every program here shows a difference on the idle "GPU": the first of a kind
/// is new, the rest duplicates), are kept in the campaign state, and a resumed campaign goes on
/// from them.
#[test]
fn the_adaptive_swarm_steers_the_memory_generators_switches() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let o = AsyncOptions { adapt: true, max_programs: Some(16), ..options(dir.path(), false) };
    let s = run_with(&o, idle(), vec![idle()], None).expect("the campaign runs");
    let sw = s.swarm.expect("the swarm counted switches");
    assert!(sw.stats.keys().all(|k| AsyncConfig::SWITCHES.contains(&k.as_str())), "{:?}", sw.stats.keys());
    assert!(sw.stats.values().map(|st| st.programs).max() > Some(0));
    let moved: Vec<(&String, &f64)> = sw.weights.iter().filter(|(_, w)| (**w - 0.5).abs() > 1e-9).collect();
    assert!(!moved.is_empty(), "no weight moved: {:?}", sw.weights);
    let path = o.run_dir.join("campaign.json");
    let state = State::parse(&std::fs::read_to_string(&path).expect("state"), &path).expect("parses");
    assert_eq!(state.swarm.as_ref().map(|s| &s.weights), Some(&sw.weights));
    let again =
        run_with(&AsyncOptions { resume: true, max_programs: Some(8), ..o.clone() }, idle(), vec![idle()], None)
            .expect("resumed");
    let later = again.swarm.expect("still adapting");
    assert_eq!(later.applied, Some(2));
    assert!(
        later.stats.values().map(|st| st.programs).sum::<u64>() > sw.stats.values().map(|st| st.programs).sum::<u64>()
    );
}

/// A minimization thread without its own instance of the backend that showed a finding accepts
/// no candidate (it could not check one): the case is stored as generated.
#[test]
fn without_the_backend_to_check_on_nothing_is_reduced() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let o = options(dir.path(), true);
    let s = run_with(&o, idle(), vec![Vec::new()], None).expect("the campaign runs");
    assert!(s.triage.queued >= 1, "{s:?}");
    let doc = crate::findings::FindingsDoc::load(&o.run_dir).expect("findings.json");
    assert!(!doc.findings.is_empty());
    for f in &doc.findings {
        assert_eq!(f.minimized_instructions, f.original_instructions, "{}", f.id);
    }
}

mod threads;
