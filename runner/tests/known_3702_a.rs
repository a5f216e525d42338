//! The entries of seed 3702's root causes 3702-N1, N2 and N3 and H's crash ids
//! (corpus/findings/fuzz-h200-3702/: signatures and mismatching words in
//! `findings-labelled-new.json`, stored cases in `cases/`; traces `trace/T3B.md`,
//! `trace/T3C.md`): each of these findings, labelled again as triage labels it now, is known by
//! its entry. Only these findings are asserted (the other causes of the seed have their own
//! tests).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use oracle::program::text::parse_case;
use oracle::semantics::Allowances;
use runner::diff::program::WordMismatch;
use runner::findings::{FindingClass, KnownSet, Signature};
use runner::fuzz::retriage::{label_words, Label};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A finding as the campaign stored it (a bare list in `findings-labelled-new.json`).
#[derive(serde::Deserialize)]
struct Stored {
    id: String,
    signature: Signature,
    #[serde(default)]
    mismatches: Vec<WordMismatch>,
}

/// The findings of seed 3702 whose ids start with one of `prefixes`.
fn findings(prefixes: &[&str]) -> Vec<Stored> {
    let path = repo().join("corpus/findings/fuzz-h200-3702/findings-labelled-new.json");
    let all: Vec<Stored> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    all.into_iter().filter(|f| prefixes.iter().any(|p| f.id.starts_with(p))).collect()
}

/// Each word finding among `prefixes` labelled again from its stored case and words: the names
/// of the entries it is known by, `new` or `gone`.
fn word_labels(prefixes: &[&str]) -> BTreeMap<String, String> {
    let dir = repo().join("corpus/findings/fuzz-h200-3702");
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let mut labels = BTreeMap::new();
    for f in findings(prefixes).iter().filter(|f| !f.mismatches.is_empty()) {
        let text = std::fs::read_to_string(dir.join("cases").join(format!("{}.case", f.id))).unwrap();
        let (p, i) = parse_case(&text).unwrap();
        let label = label_words(&p, &i, &f.signature, &f.mismatches, &known, &Allowances::all()).unwrap();
        let short = match label {
            Label::Known(names) => names.join("+"),
            Label::New(_) => "new".to_string(),
            Label::Gone => "gone".to_string(),
        };
        labels.insert(f.id[..8].to_string(), short);
    }
    labels
}

/// 3702-N1 (e1ce1744), N2 (2a3b3599) and N3 (2a151aca, d357c575) are known by their entries'
/// emulations.
#[test]
fn the_seed_3702_n1_n2_and_n3_word_findings_are_labelled_by_their_entries() {
    let rows = [
        ("2a151aca", "fuzz-h200-3702-n3-join-of-minus-one-and-one-f32-merged"),
        ("2a3b3599", "fuzz-h200-3702-n2-lop3-merged-into-xor-reads-x"),
        ("d357c575", "fuzz-h200-3702-n3-join-of-minus-one-and-one-f32-merged"),
        ("e1ce1744", "fuzz-h200-3702-n1-setp-eq-of-min-max-reads-selection"),
    ];
    let expected: BTreeMap<String, String> = rows.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    assert_eq!(word_labels(&rows.map(|(id, _)| id)), expected);
}

/// The crash pair of seed 3702 (31811a06 at -O3, 718670c9 in the JIT: one program, T3C) is H by
/// its ids: a crash has no shape and no emulation.
#[test]
fn the_seed_3702_crash_pair_is_h() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let crashes = findings(&["31811a06", "718670c9"]);
    assert_eq!(crashes.len(), 2);
    for f in &crashes {
        assert_eq!(f.signature.class, FindingClass::Crash);
        let name = known.matches(&f.signature).map(|k| k.name.as_str());
        assert_eq!(name, Some("fuzz-h100-h-merged-load-stale-policy"), "{}", f.id);
    }
}
