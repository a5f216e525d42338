//! Mutant families in triage: a mutant whose family (parent, pre-signature, first differing word) was
//! triaged already is counted under the family's first finding — after its verdict when that
//! one is still with the minimizer — and never minimized or stored on its own.

use std::time::Instant;

use super::Triage;
use crate::findings::{FindingStore, KnownSet, RunMeta, Source};
use crate::fuzz::minimize::tests::oracle_minimizer;
use crate::fuzz::minimize::{Case, Job};

/// `job` as a mutant of corpus program `parent`.
fn mutant(job: &Job, parent: &str, edit: &str) -> Job {
    Job { source: Some(Source::Mutation { parent: parent.into(), mutation: edit.into() }), ..job.clone() }
}

#[test]
fn a_family_is_its_root_program_pre_signature_and_first_word() {
    let dir = tempfile::tempdir().unwrap();
    let (_m, job) = oracle_minimizer(dir.path(), Instant::now());
    assert_eq!(job.family_key(), None, "no source");
    let fresh = Job { source: Some(Source::Fresh { switches: Vec::new() }), ..job.clone() };
    assert_eq!(
        fresh.family_key(),
        mutant(&job, &job.program.name, "delete 2").family_key(),
        "a fresh program and its own mutants"
    );
    let (a, b, c) =
        (mutant(&job, "p3_1", "delete 2"), mutant(&job, "p3_1", "type 4"), mutant(&job, "p9_0", "delete 2"));
    assert_eq!(a.family_key(), b.family_key(), "another edit of the same parent");
    assert_ne!(a.family_key(), c.family_key(), "another parent");
    assert!(a.family_key().unwrap().starts_with(&format!("p3_1|{}", job.pre_signature())), "{:?}", a.family_key());
}

/// The second mutant of a family waits for the first (with the minimizer) and is recorded
/// under it; a mutant of another parent is queued as before. Fails without families: three
/// jobs queued, and the first two counted as two occurrences each taking a kind's slot.
#[test]
fn a_mutant_of_a_family_waits_for_its_first_and_counts_under_it() {
    let dir = tempfile::tempdir().unwrap();
    let (m, job) = oracle_minimizer(&dir.path().join("scratch"), Instant::now());
    let mut store = FindingStore::create(&dir.path().join("run"), RunMeta::default(), KnownSet::default()).unwrap();
    let allow = oracle::semantics::Allowances::all();
    let mut tri = Triage::default();
    for j in [mutant(&job, "p3_1", "delete 2"), mutant(&job, "p3_1", "type 4"), mutant(&job, "p9_0", "delete 2")] {
        tri.raw(&mut store, Some(&m), j, &allow, &[]).unwrap();
    }
    assert_eq!((tri.counts.queued, tri.counts.family_member), (2, 1));
    assert_eq!(store.doc().findings.len(), 0, "nothing recorded while the first is with the minimizer");
    let (done, _) = m.finish().unwrap();
    assert_eq!(done.len(), 2);
    for d in done {
        tri.done(&mut store, d).unwrap();
    }
    // One program, so one finding id: its count is every occurrence, the waiting one included.
    let counts: u64 = store.doc().findings.iter().map(|f| f.count).sum();
    assert_eq!((store.doc().findings.len(), counts), (1, 3));
    assert_eq!(tri.new, 1);
}

/// Without minimization the family's first is stored at once and a later member is recorded
/// under it straight away.
#[test]
fn without_minimization_a_member_is_recorded_under_the_stored_first() {
    let dir = tempfile::tempdir().unwrap();
    let (_m, job) = oracle_minimizer(&dir.path().join("scratch"), Instant::now());
    let mut store = FindingStore::create(&dir.path().join("run"), RunMeta::default(), KnownSet::default()).unwrap();
    let allow = oracle::semantics::Allowances::all();
    let mut tri = Triage::default();
    let none: Option<&crate::fuzz::minimize::Minimizer<Job>> = None;
    tri.raw(&mut store, none, mutant(&job, "p3_1", "delete 2"), &allow, &[]).unwrap();
    tri.raw(&mut store, none, mutant(&job, "p3_1", "type 4"), &allow, &[]).unwrap();
    assert_eq!((tri.counts.minimization_off, tri.counts.family_member), (1, 1));
    assert_eq!(store.doc().findings.len(), 1);
    assert_eq!(store.doc().findings[0].count, 2);
}
