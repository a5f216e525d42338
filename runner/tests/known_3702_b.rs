//! The `corpus/known/` entries of seed 3702's conversion root causes (3702-N4, N5, N6 and root
//! cause C's `cvt.sat.s16.u32` of a `.u32` float conversion; corpus/findings/fuzz-h200-3702/,
//! traces `trace/T3A.md` and `trace/T3C.md`): each stored word finding of those causes is
//! labelled known by its entry, its every differing word reproduced by the entry's emulation.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use oracle::program::text::parse_case;
use runner::findings::{KnownSet, Signature};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The label retriage gives each stored word finding of `campaign` (its `file`) whose id starts
/// with one of `ids`: the entry names joined by `+`, `new` or `gone` (as
/// `known_root_causes.rs::labels_of`, restricted to `ids`).
fn labels_of(campaign: &str, file: &str, ids: &[&str]) -> BTreeMap<String, String> {
    use oracle::semantics::Allowances;
    use runner::diff::program::WordMismatch;
    use runner::fuzz::retriage::{label_words, Label};
    #[derive(serde::Deserialize)]
    struct Stored {
        id: String,
        signature: Signature,
        mismatches: Vec<WordMismatch>,
    }
    /// A campaign's file: `{"findings": [...]}`, or (fuzz-h200-3702) the bare list.
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Doc {
        Wrapped { findings: Vec<Stored> },
        Bare(Vec<Stored>),
    }
    let dir = repo().join("corpus/findings").join(campaign);
    let doc: Doc = serde_json::from_str(&std::fs::read_to_string(dir.join(file)).unwrap()).unwrap();
    let (Doc::Wrapped { findings } | Doc::Bare(findings)) = doc;
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let mut labels = BTreeMap::new();
    let wanted = |id: &str| ids.iter().any(|p| id.starts_with(p));
    for f in findings.iter().filter(|f| !f.mismatches.is_empty() && wanted(&f.id)) {
        let (p, i) =
            parse_case(&std::fs::read_to_string(dir.join("cases").join(format!("{}.case", f.id))).unwrap()).unwrap();
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

/// The findings of seed 3702's conversion causes and the entry that labels each.
const SEED_3702_CONVERSION_LABELS: [(&str, &str); 5] = [
    ("30858a36", "fuzz-h200-3702-n4-byte-of-vector-load-u32-cvt-converts-signed"), // 3702-N4 (T3A)
    ("3c1be158", "fuzz-h200-3702-n6-shift16-by-ftz-u32-cvt-flush-dropped"),        // 3702-N6 (T3A)
    ("5bf2de82", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"),          // 3702-N5 (T3A)
    ("b9d3a4f3", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"),          // 3702-N5 (T3C-3)
    ("f25dd895", "fuzz-h200-3702-c-int-sat-s16-of-u32-cvt-folded-signed"),         // C, float to int (T3A)
];

#[test]
fn the_seed_3702_conversion_findings_are_labelled_by_their_entries() {
    let ids: Vec<&str> = SEED_3702_CONVERSION_LABELS.iter().map(|(id, _)| *id).collect();
    let labels = labels_of("fuzz-h200-3702", "findings-labelled-new.json", &ids);
    let expected: BTreeMap<String, String> =
        SEED_3702_CONVERSION_LABELS.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    assert_eq!(labels, expected);
}
