//! An optimizing ptxas's crash ("ptxas crash": no fault site) is known in triage by the same
//! program's JIT crash in its batch at the fault site an entry names with `ptxas_crash_beside`
//! (seed 5901's df9cef94 beside 77a8db09: corpus/findings/fuzz-h200-5901/trace/T59A.md).

use std::path::Path;

use oracle::program::text::parse_case;
use oracle::semantics::Allowances;

use super::Triage;
use crate::backend::Failure;
use crate::findings::{FindingClass, FindingStore, KnownSet, RunMeta};
use crate::fuzz::case::{CaseKind, Register};
use crate::fuzz::engine::Engine;
use crate::fuzz::minimize::{Job, Minimizer};

const ENTRY: &str = "fuzz-h200-5003-5a46d3da-ptxas-loops-on-lop3-eq-zero-diamond-and-guarded-write";
const SITE: &str = "worker crash at SIGSEGV in libnvidia-ptxjitcompiler.so.1+0x4909ce";

/// The raw ptxas -O3 crash of df9cef94's case, its batch's results from the oracle worker with
/// the crashes planted: ptxas -O3's, and the JIT's at `jit_how` (`None`: the JIT did not crash).
fn ptxas_crash_job(scratch: &Path, jit_how: Option<&str>) -> Job {
    use crate::backend::{pool::Devices, Registry, Settings};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/findings/fuzz-h200-5901/cases");
    let (p, i) = parse_case(&std::fs::read_to_string(root.join("df9cef94407f2657.case")).unwrap()).unwrap();
    let registry = Registry::new(Settings {
        ptxas: Vec::new(),
        devices: Devices::List(vec![0]),
        workers: Some(1),
        allow: Allowances::all(),
        sweep_timeout: std::time::Duration::from_secs(10),
    });
    let mut engine = Engine::new(&registry, &["oracle".to_string()], p.target, None, scratch.to_path_buf()).unwrap();
    let mut result = engine.run(std::slice::from_ref(&p), std::slice::from_ref(&i), "t").remove(0);
    result.failures.push(Failure::Crash {
        by: "ptxas -O3".into(),
        how: "ptxas crash".into(),
        message: "rc 139".into(),
    });
    if let Some(how) = jit_how {
        result.failures.push(Failure::Crash { by: "cuda:jit".into(), how: how.into(), message: String::new() });
    }
    let raws = Register::raw_findings(&p, &result, &engine.allow);
    let raw = raws.into_iter().find(|r| r.class == FindingClass::Crash && r.backends == ["ptxas -O3"]).unwrap();
    Job { batch: 0, raw, program: p, inputs: i, result, seen_at: 0.0, source: None }
}

/// Known beside the JIT's crash at the entry's site (and stored under the entry, never
/// minimized); new beside a JIT crash elsewhere or alone. Fails without `ptxas_crash_beside`
/// (the entry matched the ptxas crash by key only: df9cef94 was labelled new).
#[test]
fn a_ptxas_crash_beside_the_jit_crash_at_a_known_site_is_known() {
    let known = KnownSet::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/known")).unwrap();
    let other = "worker crash at SIGSEGV in libnvidia-ptxjitcompiler.so.1+0x1000";
    for (jit, is_known) in [(Some(SITE), true), (Some(other), false), (None, false)] {
        let dir = tempfile::tempdir().unwrap();
        let job = ptxas_crash_job(&dir.path().join("scratch"), jit);
        let mut store = FindingStore::create(&dir.path().join("run"), RunMeta::default(), known.clone()).unwrap();
        let mut tri = Triage::default();
        let none: Option<&Minimizer<Job>> = None;
        tri.raw(&mut store, none, job, &Allowances::all(), &[]).unwrap();
        let stored_known: Vec<&str> = store.doc().known.iter().map(|k| k.id.as_str()).collect();
        if is_known {
            assert_eq!((tri.known, tri.new, tri.counts.known_crash_beside), (1, 0, 1), "{jit:?}");
            assert_eq!(stored_known, [ENTRY]);
        } else {
            assert_eq!((tri.known, tri.new, tri.counts.known_crash_beside), (0, 1, 0), "{jit:?}");
            assert!(stored_known.is_empty(), "{jit:?}");
        }
    }
}
