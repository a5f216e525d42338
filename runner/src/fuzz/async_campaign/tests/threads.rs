//! The memory campaign on several minimization threads (`--minimize-threads`): each gets
//! backends of its own, and the campaign stores what it stores with one thread.

use super::{idle, options, run_with};
use crate::findings::FindingsDoc;

/// Per finding id: its count, statements before and after minimization, and its case file.
fn stored(run: &std::path::Path) -> Vec<(String, u64, u32, u32, String)> {
    let doc = FindingsDoc::load(run).expect("findings.json");
    let mut out: Vec<_> = doc
        .findings
        .iter()
        .map(|f| {
            let case = std::fs::read_to_string(run.join("cases").join(format!("{}.case", f.id))).expect("case");
            (f.id.clone(), f.count, f.original_instructions, f.minimized_instructions, case)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn three_minimization_threads_store_what_one_stores() {
    let (one, three) = (tempfile::tempdir().expect("a directory"), tempfile::tempdir().expect("a directory"));
    let o1 = options(one.path(), true);
    let s1 = run_with(&o1, idle(), vec![idle()], None).expect("the campaign runs");
    let o3 = super::AsyncOptions { minimize_threads: 3, ..options(three.path(), true) };
    let s3 = run_with(&o3, idle(), vec![idle(), idle(), idle()], None).expect("the campaign runs");
    assert!(s1.minimized.0 >= 1 && s3.minimized == s1.minimized, "{s1:?}\n{s3:?}");
    let (a, b) = (stored(&o1.run_dir), stored(&o3.run_dir));
    assert!(!a.is_empty() && a.iter().any(|f| f.3 < f.2), "{a:?}");
    assert_eq!(a, b);
}
