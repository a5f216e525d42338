//! The unwritten-register finding ceff70d1 of the seed-3801 campaign
//! (corpus/findings/fuzz-h200-3801/, trace/T4D.md): ptxas drops a dead `ld.acquire.cta` in a
//! branch and the branch's `setp` with it, and keeps `@!P0 BRA` around a live load under the
//! predicate nothing writes. Its stored signature (reader `BRA`, role guard) is known by
//! `sass-cctl-under-unwritten-predicate`, the entry of that drop; the BRA's other roles and the
//! false alarm ae81f097 (an `UISETP` source) are not.

use std::path::{Path, PathBuf};

use runner::findings::{FindingClass, KnownSet, Signature};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The stored signature of the seed-3801 finding whose id starts with `id`.
fn stored_signature(id: &str) -> Signature {
    #[derive(serde::Deserialize)]
    struct Stored {
        id: String,
        signature: Signature,
    }
    let file = repo().join("corpus/findings/fuzz-h200-3801/findings-labelled-new.json");
    let findings: Vec<Stored> = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    findings.into_iter().find(|f| f.id.starts_with(id)).map(|f| f.signature).expect("the stored finding")
}

#[test]
fn a_bra_guarded_by_the_dropped_setps_predicate_is_the_cctl_entrys_reader() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let name = |s: &Signature| known.matches(s).map(|k| k.name.clone());
    assert_eq!(name(&stored_signature("ceff70d1")).as_deref(), Some("sass-cctl-under-unwritten-predicate"));
    assert_eq!(name(&stored_signature("ae81f097")), None);
    let sig = |form: &str, how: &str| Signature::new(FindingClass::UnwrittenRegister, form, "", ["ptxas -O3"], how);
    assert_eq!(name(&sig("BRA", "source")), None);
    assert_eq!(name(&sig("BRA.U", "guard")), None);
}
