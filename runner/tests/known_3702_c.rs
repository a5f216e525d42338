//! Seed 3702's findings of known causes whose emulations did not reach them (helper scopesC:
//! corpus/findings/fuzz-h200-3702/, signatures and mismatching words in
//! `findings-labelled-new.json`, stored cases in `cases/`; traces `trace/T3A.md`, `trace/T3B.md`,
//! `trace/T3C.md`): each, labelled again as triage labels it now, is known by its entry. Only
//! these findings are asserted (the other findings of the seed have their own tests).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use oracle::program::text::parse_case;
use oracle::semantics::Allowances;
use runner::diff::program::WordMismatch;
use runner::findings::{KnownSet, Signature};
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

/// Each word finding of seed 3702 whose id starts with one of `prefixes`, labelled again from
/// its stored case and words: the names of the entries it is known by, `new` or `gone`.
fn word_labels(prefixes: &[&str]) -> BTreeMap<String, String> {
    let dir = repo().join("corpus/findings/fuzz-h200-3702");
    let all: Vec<Stored> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("findings-labelled-new.json")).unwrap()).unwrap();
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let mut labels = BTreeMap::new();
    for f in all.iter().filter(|f| prefixes.iter().any(|p| f.id.starts_with(p)) && !f.mismatches.is_empty()) {
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

/// 3701-N-D (dc54c0ab, T3A), I through `cvt.u16.u16` (1f3f107d, T3C), J's branch-known byte
/// (c388df98, T3B), A once B no longer over-fires (d479c2c6, T3C) and M after an e4m3x2 producer
/// (c77930ea, T3B) are known by their entries. 1f3f107d's differing word adds B's shift
/// (`shr.s64` by an f32 amount) to I's folded half: both emulations fire, and the label names
/// the first entry (without I's entry it is new).
#[test]
fn the_seed_3702_findings_of_widened_known_causes_are_labelled_by_their_entries() {
    let rows = [
        ("1f3f107d", "fuzz-h200-b-f32-shift-amount"),
        ("c388df98", "fuzz-h100-j-branch-constant-splat"),
        ("c77930ea", "fuzz-h100-m-f16-mask-dropped"),
        ("d479c2c6", "fuzz-h200-a-narrow-store-converts"),
        ("dc54c0ab", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"),
    ];
    let expected: BTreeMap<String, String> = rows.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    assert_eq!(word_labels(&rows.map(|(id, _)| id)), expected);
}
