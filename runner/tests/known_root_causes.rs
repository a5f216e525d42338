//! The shipped `corpus/known/` entries of root causes A–G (`corpus/findings/fuzz-h200/`):
//! every minimized case of that campaign, sliced at each output word it writes and signed as
//! its row of the README table says (class, form, input class, disagreeing backends, how),
//! matches the entry of its root cause and no entry of another cause, except where the
//! minimized program holds the ingredients of two causes (listed below with the words).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use oracle::program::{slice, text::parse_case};
use runner::findings::{FindingClass, KnownRule, KnownSet, Signature};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// One row of the README's findings table: the signature fields, the cause letter, the case.
struct Row {
    class: FindingClass,
    form: String,
    input: String,
    how: String,
    backends: Vec<String>,
    cause: char,
    case: String,
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(repo().join("corpus/findings/fuzz-h200/README.md")).unwrap();
    let mut out = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("| c")) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(cells.len(), 10, "{line}");
        out.push(Row {
            class: FindingClass::from_name(cells[1]).unwrap_or_else(|| panic!("class in {line}")),
            form: cells[2].trim_matches('`').to_string(),
            input: cells[3].to_string(),
            how: cells[4].to_string(),
            backends: cells[5].split(',').map(|b| b.trim().to_string()).collect(),
            cause: cells[8].chars().next().unwrap(),
            case: cells[9].trim_matches('`').to_string(),
        });
    }
    out
}

/// The cause letter of a known entry named `fuzz-h200-<letter>-…`.
fn cause_of(name: &str) -> Option<char> {
    let rest = name.strip_prefix("fuzz-h200-")?;
    rest.chars().next().filter(|c| rest[1..].starts_with('-') && c.is_ascii_lowercase()).map(|c| c.to_ascii_uppercase())
}

/// Cases whose minimized program shows a second cause too: (case, cause, why).
const BOTH: [(&str, char, &str); 2] = [
    ("c2-compiler-cvt.f16.f16-f0020f9f.case", 'B', "word 0 is an f32-amount shr.u64, word 1 the narrow store"),
    ("c1-compiler-add.u16-d90b9898.case", 'D', "the stored word goes through cvt.rn.f16x2.f32 → cvt.rn.tf32.f32"),
];

#[test]
fn every_case_of_a_to_g_matches_its_entry_and_no_other() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let letters: BTreeSet<char> = known.entries().iter().filter_map(|k| cause_of(&k.name)).collect();
    assert_eq!(letters, "ABCDEFG".chars().collect(), "one entry per root cause");
    let rows = rows();
    assert_eq!(rows.len(), 68, "the README lists 68 findings");
    let mut per_cause: BTreeMap<char, usize> = BTreeMap::new();
    for row in &rows {
        let path = repo().join("corpus/findings/fuzz-h200").join(&row.case);
        let (p, _) = parse_case(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let allowed: BTreeSet<char> = BOTH.iter().filter(|(f, _, _)| *f == row.case).map(|(_, c, _)| *c).collect();
        let mut causes = BTreeSet::new();
        for w in 0..p.outputs {
            let shape = slice::shape(&p, w);
            if shape.is_empty() {
                continue; // nothing writes this word: it cannot disagree
            }
            let sig = Signature::new(row.class, &row.form, &row.input, &row.backends, &row.how).with_shape(shape);
            let here: BTreeSet<char> = known
                .entries()
                .iter()
                .filter(|k| match &k.rule {
                    KnownRule::Pattern(pat) => pat.matches(&sig),
                    KnownRule::Id(id) => *id == sig.key(),
                })
                .filter_map(|k| cause_of(&k.name))
                .collect();
            assert!(
                here.len() <= 1 || here.iter().all(|c| *c == row.cause || allowed.contains(c)),
                "{}: word {w} ({}) matches several causes {here:?}",
                row.case,
                sig.shape
            );
            causes.extend(here);
        }
        assert!(causes.contains(&row.cause), "{}: cause {} not matched (matched {causes:?})", row.case, row.cause);
        let extra: BTreeSet<char> = causes.iter().copied().filter(|c| *c != row.cause).collect();
        assert_eq!(extra, allowed, "{}: other causes matched", row.case);
        *per_cause.entry(row.cause).or_default() += 1;
    }
    assert_eq!(per_cause, BTreeMap::from([('A', 47), ('B', 8), ('C', 4), ('D', 3), ('E', 3), ('F', 2), ('G', 1)]));
}
