//! The minimizer's predicate runs check no SASS, so they scope the emulations by the check of
//! the case's batch run ([`super::Engine::witnessed`]): an emulation whose `sass_witness` the
//! batch's -O3 listing lacks stays out of -O3 while the case is reduced. Seed 4501's aa2046a3
//! and b4024b2c: A's "any byte", kept out of their -O3 words by the listing in the campaign,
//! explained them in every predicate run (no listing, so admitted), and both were stored "not
//! shown again alone", unminimized.
//!
//! The case is the 4201 audit's 33bf5631 (A's emulation fires on it; its ptxas 13.0.88 -O3
//! listing has no `F2I`), run on a backend named as the -O3 assembly whose words are the
//! oracle's with A's deviation on (what a ptxas with root cause A would store).

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use oracle::program::text::parse_case;
use oracle::program::{interp, Inputs, Program};
use oracle::semantics::{Allowances, Deviation};

use super::{emulate, Engine, SassCheck};
use crate::backend::{Backend, BackendKind, Failed, ProgramBatch, Role};
use crate::findings::KnownSet;
use crate::fuzz::case::{CaseKind, Register};
use crate::fuzz::minimize::{Job, Minimizer, Reducer};
use generator::minimize::Budget;

const O3: &str = "cuda:ptxas-O3";

/// A's deviation (`narrow-store-of-float-cvt`).
fn a() -> Deviation {
    Deviation::from_name("narrow-store-of-float-cvt").expect("root cause A's emulation")
}

/// Runs every program as the oracle with A's deviation on, under the -O3 assembly's name.
struct CompilesWithA;

impl Backend for CompilesWithA {
    fn name(&self) -> String {
        O3.into()
    }
    fn kind(&self) -> BackendKind {
        BackendKind::Gpu
    }
    fn needs(&self) -> Vec<crate::backend::Need> {
        Vec::new()
    }
    fn role(&self) -> Role {
        Role::Runs
    }
    fn sweep(&mut self, _: &[crate::backend::SweepSpec], _: &(dyn Fn(u64) + Sync)) -> Vec<crate::backend::SweepResult> {
        Vec::new()
    }
    fn run_programs(&mut self, batch: &ProgramBatch) -> Result<Vec<Vec<u32>>, Failed> {
        let allow = Allowances::all().emulating_all([a()]);
        let programs =
            oracle::program::text::parse_module(&batch.ptx).map_err(|e| Failed::Environment(e.to_string()))?;
        let mut out = Vec::new();
        for k in &batch.kernels {
            let p = programs.iter().find(|p| p.name == k.name).expect("the batch's kernel");
            let e =
                interp::run(p, &Inputs(k.inputs.clone()), &allow).map_err(|e| Failed::Environment(e.to_string()))?;
            out.push(e.iter().flat_map(|x| (0..p.outputs).map(move |w| (x.bits >> (32 * w)) as u32)).collect());
        }
        Ok(out)
    }
}

/// A's entry alone (other emulations explain some of the case's words too).
fn known(dir: &std::path::Path) -> KnownSet {
    let root = crate::paths::repo_root().expect("the repository");
    let name = "fuzz-h200-a-narrow-store-converts.toml";
    std::fs::copy(root.join("corpus/known").join(name), dir.join(name)).unwrap();
    KnownSet::load(dir).unwrap()
}

fn case() -> (Program, Inputs) {
    let root = crate::paths::repo_root().expect("the repository");
    let path = root.join("corpus/findings/fuzz-h200-4201/known-cases/33bf5631bf87859f.case");
    parse_case(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn engine(scratch: &std::path::Path, known: &KnownSet) -> Engine {
    Engine {
        stages: Default::default(),
        target: "sm_90".parse().unwrap(),
        backends: vec![Box::new(CompilesWithA)],
        allow: Allowances::all(),
        plant: None,
        scratch: scratch.to_path_buf(),
        timeout: Duration::from_secs(120),
        typical: Default::default(),
        until: None,
        unavailable: Vec::new(),
        gpu_unavailable: None,
        sass: None,
        emulate: known.emulation_scopes(),
        witnessed: Default::default(),
    }
}

/// The batch run of the case as a campaign with the SASS check sees it: -O3's listing checked
/// (no read, no witness), so A stays out of -O3 and its words are one unexplained finding.
fn batch_job(engine: &mut Engine) -> Job {
    let (p, i) = case();
    let mut result = engine.run(std::slice::from_ref(&p), std::slice::from_ref(&i), "t").remove(0);
    let unchecked = Register::raw_findings(&p, &result, &engine.allow);
    assert!(
        unchecked.iter().all(|x| x.disagreement.is_none() || !x.explained.is_empty()),
        "without a listing A explains the words: {unchecked:#?}"
    );
    let check =
        SassCheck { by: "ptxas -O3".into(), reads: Vec::new(), listing: String::new(), witnessed: BTreeSet::new() };
    result.sass = vec![check];
    result.emulated = emulate(&p, &i, &engine.allow, &engine.emulate, [O3], &result.sass).unwrap();
    let raws = Register::raw_findings(&p, &result, &engine.allow);
    let raw = raws.into_iter().find(|x| x.disagreement.is_some() && x.explained.is_empty()).expect("new");
    Job { batch: 1, raw, program: p, inputs: i, result, seen_at: 0.0, source: None }
}

#[test]
fn a_witness_the_batch_listing_lacks_stays_out_of_the_reduction() {
    let (dir, entries) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let known = known(entries.path());
    let mut engine = engine(dir.path(), &known);
    let job = batch_job(&mut engine);
    let before = job.program.body.len();
    let allow = engine.allow.clone();
    let far = Instant::now() + Duration::from_secs(3600);
    let m = Minimizer::start(vec![Reducer::new(engine)], Budget::calls(400), 4, allow, Vec::new(), far);
    m.submit(Box::new(job)).unwrap();
    let (done, _) = m.finish().unwrap();
    assert_eq!(done.len(), 1);
    let f = &done[0].finding;
    assert!(done[0].minimized && f.reproduced != Some(false), "shown again alone and reduced: {f:#?}");
    assert!(f.minimized_instructions > 0 && (f.minimized_instructions as usize) < before, "{f:#?}");
    assert_ne!(f.signature.input_class, a().input_class(), "not A's: {f:#?}");
    assert!(done[0].known_after_reduction.is_none(), "still new after reducing on");
}

/// A stand-in check never replaces a run's own.
#[test]
fn a_runs_own_check_comes_before_the_stand_in() {
    let own = SassCheck {
        by: "ptxas -O3".into(),
        reads: Vec::new(),
        listing: String::new(),
        witnessed: BTreeSet::from(["F2I*".to_string()]),
    };
    let stand_in = std::collections::BTreeMap::from([
        ("ptxas -O3".to_string(), BTreeSet::new()),
        ("ptxas -O0".to_string(), BTreeSet::from(["x".to_string()])),
    ]);
    let checks = super::with_stand_ins(std::slice::from_ref(&own), &stand_in);
    assert_eq!(checks.len(), 2);
    assert_eq!(checks[0].witnessed, own.witnessed);
    assert_eq!((checks[1].by.as_str(), checks[1].witnessed.len()), ("ptxas -O0", 1));
    assert!(matches!(super::with_stand_ins(&[], &Default::default()), std::borrow::Cow::Borrowed(_)));
}
