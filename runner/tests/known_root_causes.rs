//! The shipped `corpus/known/` entries of root causes A–G (`corpus/findings/fuzz-h200/`), H–J
//! (`corpus/findings/fuzz-h100/`) and K–P (`corpus/findings/fuzz-h100-b/`): every minimized case of those campaigns, sliced at each
//! output word it writes and signed as its row of the README table says (class, form, input
//! class, disagreeing backends, how), matches the entry of its root cause and no entry of
//! another cause, except where the minimized program holds the ingredients of two causes
//! (listed below with the words). Rows of cause `x` (a reduction the old minimizer made
//! invalid), `n` (did not show again when run alone) and `o` (the oracle's, now an allowance)
//! have no entry to match. And
//! the entries stay tight: a new bug next to a known cause's ingredients is not counted as
//! that cause, while an unminimized instance of it with unrelated statements and address
//! arithmetic still is. Every case of a cause whose entry names an emulation is changed by
//! it (the emulations, not the shapes, decide in a campaign).

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

fn rows(campaign: &str) -> Vec<Row> {
    let text = std::fs::read_to_string(repo().join("corpus/findings").join(campaign).join("README.md")).unwrap();
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

/// The cause letter of a known entry named `fuzz-h200-<letter>-…` or `fuzz-h100-<letter>-…`.
fn cause_of(name: &str) -> Option<char> {
    let rest = name.strip_prefix("fuzz-h200-").or_else(|| name.strip_prefix("fuzz-h100-"))?;
    rest.chars().next().filter(|c| rest[1..].starts_with('-') && c.is_ascii_lowercase()).map(|c| c.to_ascii_uppercase())
}

/// Cases whose minimized program shows a second cause too: (case, cause, why).
const BOTH: [(&str, char, &str); 2] = [
    ("c2-compiler-cvt.f16.f16-f0020f9f.case", 'B', "word 0 is an f32-amount shr.u64, word 1 the narrow store"),
    (
        "c2-compiler-add.u16-b9cd6df0.case",
        'C',
        "word 0 holds C's cvt.sat.s16.u64 → cvt.sat.f16.f16 before A's narrow vector store",
    ),
];

#[test]
fn every_case_of_a_to_g_matches_its_entry_and_no_other() {
    let per_cause = check_campaign("fuzz-h200", 68, &BOTH);
    assert_eq!(per_cause, BTreeMap::from([('A', 47), ('B', 8), ('C', 4), ('D', 3), ('E', 3), ('F', 2), ('G', 1)]));
}

#[test]
fn every_case_of_the_h100_campaigns_matches_its_entry_and_no_other() {
    let per_cause = check_campaign("fuzz-h100", 49, &[]);
    assert_eq!(
        per_cause,
        BTreeMap::from([
            ('A', 13),
            ('B', 4),
            ('C', 4),
            ('D', 1),
            ('F', 1),
            ('E', 1),
            ('H', 1),
            ('I', 3),
            ('J', 1),
            ('n', 12),
            ('o', 1),
            ('x', 7)
        ])
    );
}

#[test]
fn every_case_of_the_second_h100_round_matches_its_entry_and_no_other() {
    let per_cause = check_campaign("fuzz-h100-b", 56, &[]);
    assert_eq!(
        per_cause,
        BTreeMap::from([
            ('A', 12),
            ('B', 11),
            ('C', 1),
            ('D', 5),
            ('E', 2),
            ('F', 2),
            ('H', 2),
            ('J', 1),
            ('K', 3),
            ('L', 2),
            ('M', 1),
            ('N', 1),
            ('O', 1),
            ('P', 1),
            ('n', 11)
        ])
    );
}

#[test]
fn one_entry_per_root_cause() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let letters: Vec<char> = known.entries().iter().filter_map(|k| cause_of(&k.name)).collect();
    assert_eq!(
        letters.iter().copied().collect::<String>(),
        "HIJKLMNOPABCDEFG",
        "one entry per root cause, h100 then h200"
    );
}

/// Checks every row of `campaign`'s README table (see the module docs); returns the rows per
/// cause.
fn check_campaign(campaign: &str, expected_rows: usize, both: &[(&str, char, &str)]) -> BTreeMap<char, usize> {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let rows = rows(campaign);
    assert_eq!(rows.len(), expected_rows, "the {campaign} README lists {expected_rows} findings");
    let mut per_cause: BTreeMap<char, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for row in &rows {
        *per_cause.entry(row.cause).or_default() += 1;
        let path = repo().join("corpus/findings").join(campaign).join(&row.case);
        let (p, _) = parse_case(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if !row.cause.is_ascii_uppercase() {
            continue;
        }
        let allowed: BTreeSet<char> = both.iter().filter(|(f, _, _)| *f == row.case).map(|(_, c, _)| *c).collect();
        let mut causes = BTreeSet::new();
        let mut shapes = Vec::new();
        // A crash is signed without a shape (it has no wrong word); a difference by the shape of
        // each word's slice.
        let per_word: Vec<String> = if row.class == FindingClass::Crash {
            vec![String::new()]
        } else {
            (0..p.outputs).map(|w| slice::shape(&p, w)).filter(|s| !s.is_empty()).collect()
        };
        for (w, shape) in per_word.into_iter().enumerate() {
            let sig = Signature::new(row.class, &row.form, &row.input, &row.backends, &row.how);
            let sig = if shape.is_empty() { sig } else { sig.with_shape(shape) };
            let here: BTreeSet<char> = known
                .entries()
                .iter()
                .filter(|k| match &k.rule {
                    KnownRule::Pattern(pat) => pat.matches(&sig),
                    KnownRule::Ids(ids) => ids.contains(&sig.key()),
                })
                .filter_map(|k| cause_of(&k.name))
                .collect();
            if here.len() > 1 && !here.iter().all(|c| *c == row.cause || allowed.contains(c)) {
                failures.push(format!("{}: word {w} ({}) matches several causes {here:?}", row.case, sig.shape));
            }
            shapes.push(format!("word {w}: {} {:?}", sig.shape, here));
            causes.extend(here);
        }
        let extra: BTreeSet<char> = causes.iter().copied().filter(|c| *c != row.cause).collect();
        if !causes.contains(&row.cause) || extra != allowed {
            failures.push(format!(
                "{} (cause {}, {} {:?}): matched {causes:?}\n    {}",
                row.case,
                row.cause,
                row.class,
                row.backends,
                shapes.join("\n    ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    per_cause
}

/// The causes whose entries match `shape` as a compiler finding of every GPU backend.
fn causes_of(known: &KnownSet, shape: &str) -> BTreeSet<char> {
    causes_by(known, shape, &["cuda:jit", "cuda:ptxas-O0", "cuda:ptxas-O3"])
}

/// The causes whose entries match `shape` as a compiler finding of -O3 and the JIT.
fn o3_causes_of(known: &KnownSet, shape: &str) -> BTreeSet<char> {
    causes_by(known, shape, &["cuda:jit", "cuda:ptxas-O3"])
}

/// The causes whose entries match `shape` as a compiler finding of `backends`.
fn causes_by(known: &KnownSet, shape: &str, backends: &[&str]) -> BTreeSet<char> {
    let sig =
        Signature::new(FindingClass::Compiler, "add.u16", "int", backends.iter().copied(), "value").with_shape(shape);
    known
        .entries()
        .iter()
        .filter(|k| matches!(&k.rule, KnownRule::Pattern(p) if p.matches(&sig)))
        .filter_map(|k| cause_of(&k.name))
        .collect()
}

/// The H100 campaigns' shapes, with a new instruction before the store: no known cause.
#[test]
fn a_new_bug_after_an_h100_shape_is_not_that_cause() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    for (observed, cause) in [
        ("mov.b16 → cvt.bf16.f16 → st.shared.u8 → ld.shared.b8 → st.global.b16", 'A'),
        ("ld.global.s64 → cvt.sat.u32.s64 → cvt.sat.f32.f32 → mov.b32 → xor.b16 → st.global.b8", 'C'),
        ("cvt.rn.bf16x2.f32 → mov.b32 → cvt.rn.tf32.f32 → prmt.b32 → cvt.rn.bf16.f32 → st.global.u16", 'D'),
        ("ld.global.f32 → abs.s32 → cvt.rn.f32.u32 → mov.b32 → mov.b64 → mov.b64 → st.global.v4.f32", 'F'),
        ("mov.b16 → cvt.rp.bf16.f16 → cvt.rzi.u32.f16 → st.global.u32", 'I'),
        ("mov.b32 → setp.ne.u32 → add.s16x2 → st.global.u32", 'J'),
    ] {
        assert_eq!(o3_causes_of(&known, observed), BTreeSet::from([cause]), "{observed}");
        let (head, store) = observed.rsplit_once(" → ").unwrap();
        let added = format!("{head} → xor.b32 → {store}");
        assert_eq!(o3_causes_of(&known, &added), BTreeSet::new(), "{added}");
    }
    // The crash that the old minimizer made with a policy from `mov` is not H.
    let sig = Signature::new(
        FindingClass::Crash,
        "createpolicy.range.L2::evict_first.b64",
        "",
        ["cuda:ptxas-O3"],
        "CUDA_ERROR_ILLEGAL_INSTRUCTION",
    );
    assert!(known.matches(&sig).is_none());
}

#[test]
fn a_new_bug_next_to_a_known_cause_is_not_that_cause() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    // A miscompiled add.u16 between the float cvt and the narrow store: not A, whatever comes
    // before the cvt.
    for shape in [
        "ld.global.f32 → cvt.rn.f16.f32 → add.u16 → st.global.b8",
        "ld.global.f32 → cvt.rn.f16.f32 → add.u16 → add.u64 → st.global.b8",
        "cvt.rn.f16.f32 → add.u16 → st.global.b8",
    ] {
        assert_eq!(causes_of(&known, shape), BTreeSet::new(), "{shape}");
    }
    // Anchored at the store: A's ingredients early in the chain, a new instruction at its end.
    let shape = "mov.b32 → cvt.rn.f16.f32 → st.global.b8";
    assert_eq!(causes_of(&known, shape), BTreeSet::from(['A']));
    assert_eq!(causes_of(&known, &format!("{shape} → xor.b32 → st.global.b32")), BTreeSet::new());
    // B's shift followed by a new instruction before the store.
    assert_eq!(causes_of(&known, "ld.global.f32 → shr.b64 → mov.b64 → st.global.b32"), BTreeSet::from(['B']));
    assert_eq!(causes_of(&known, "ld.global.f32 → shr.b64 → add.u64 → st.global.b32"), BTreeSet::new());
}

#[test]
fn an_unminimized_instance_with_address_arithmetic_is_still_a() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let case = "c1-compiler-cvt.bf16.bf16-66dc1606.case";
    let text = std::fs::read_to_string(repo().join("corpus/findings/fuzz-h200").join(case)).unwrap();
    let minimized = "\tld.global.s32 %r0, [%in+36];\n\tcvt.rz.relu.f16.f32 %h0, %r0;\n\tcvt.bf16.bf16 %h2, %h0;\n\tst.global.s8 [%out+5], %h2;\n";
    assert!(text.contains(minimized), "{case} holds its minimized body");
    // The same bug before minimization: unrelated statements all around, the load and the
    // store through addresses the body computes, that arithmetic between the cvt and the store.
    let unminimized = "\tmov.b64 %d4, %in;\n\
                       \tadd.u64 %d5, %d4, 36;\n\
                       \tld.global.s32 %r0, [%d5];\n\
                       \tld.global.b32 %r7, [%in+4];\n\
                       \txor.b32 %r8, %r7, 255;\n\
                       \tcvt.rz.relu.f16.f32 %h0, %r0;\n\
                       \tmov.b64 %d6, %out;\n\
                       \tcvt.bf16.bf16 %h2, %h0;\n\
                       \tadd.u64 %d7, %d6, 4;\n\
                       \tst.global.b32 [%out], %r8;\n\
                       \tadd.u64 %d8, %d7, 1;\n\
                       \tst.global.s8 [%d8], %h2;\n";
    let (p, _) = parse_case(&text.replace(minimized, unminimized)).unwrap();
    assert_eq!(slice::shape(&p, 1), "ld.global.s32 → cvt.rz.relu.f16.f32 → cvt.bf16.bf16 → st.global.s8");
    // The whole slice holds the address arithmetic; its opcodes would not be A's shape.
    let whole = slice::opcodes(&p, &slice::slice(&p, 1)).join(slice::SHAPE_ARROW);
    assert!(whole.contains("cvt.bf16.bf16 → add.u64 → add.u64 → st.global.s8"), "{whole}");
    assert_eq!(causes_of(&known, &whole), BTreeSet::new(), "{whole}");
    assert_eq!(causes_of(&known, &slice::shape(&p, 1)), BTreeSet::from(['A']));
    assert_eq!(slice::shape(&p, 0), "ld.global.b32 → xor.b32 → st.global.b32");
    assert_eq!(causes_of(&known, &slice::shape(&p, 0)), BTreeSet::new());
}

/// The `o` row was the oracle's, not the GPU's: where §9.7.9.21 is silent (is a result that
/// rounds up to 2^-126 subnormal?) every backend flushed it, and the oracle now accepts that
/// under the allowance `cvt-ftz-ieee-tininess`. The H100's word for the minimized case
/// (thread 0, word 2: 0xfc00fc00, on ptxas 13.0 and 13.5 at -O0 and -O3 and the JIT) matches
/// with the allowance on, and not with it off.
#[test]
fn the_gpu_word_of_k_is_accepted_under_its_allowance() {
    use oracle::program::interp;
    use oracle::semantics::{Allowance, Allowances};
    let case = "c4101-hardware-spec-cvt.rn.f16.f32-3c0b90de.case";
    let text = std::fs::read_to_string(repo().join("corpus/findings/fuzz-h100").join(case)).unwrap();
    let (p, inputs) = parse_case(&text).unwrap();
    let word = |allow: &Allowances| interp::run(&p, &inputs, allow).unwrap()[0].field(64, 32);
    assert!(word(&Allowances::all()).matches(0xfc00_fc00), "{:?}", word(&Allowances::all()));
    let mut off = Allowances::all();
    off.disable(Allowance::CvtFtzIeeeTininess);
    assert!(!word(&off).matches(0xfc00_fc00), "{:?}", word(&off));
}

/// Cases of an emulated cause that its own emulation leaves alone, with the emulation that
/// does change them (`None`: no emulation; the case holds a cause without one).
const EMULATED_ELSEWHERE: [(&str, Option<&str>); 3] = [
    // Listed as A; its wrong word comes from cvt.rn.tf32.f32 of a cvt.rn.f16x2.f32 result.
    ("c1-compiler-add.u16-d90b9898.case", Some("tf32-of-packed-half")),
    // Listed as A and C (see BOTH); its narrow store's elements are glue and a move, C is not
    // emulated.
    ("c2-compiler-add.u16-b9cd6df0.case", None),
    // Listed as E; cvt.rm.bf16.f16 folded into cvt.rzi.s32.bf16 rounds toward -inf: I's fold.
    ("c1-compiler-xor.b16-a25b6497.case", Some("directed-rounding-folded-into-int")),
];

/// Every minimized case of a cause whose entry names an emulation: the oracle emulating it
/// changes the case's words (the emulation applies to every recorded instance of its cause;
/// the GPU's words themselves are not recorded with the cases), except the cases of
/// [`EMULATED_ELSEWHERE`], which the emulation named there changes.
#[test]
fn the_emulation_of_each_cause_applies_to_its_recorded_cases() {
    use oracle::program::interp;
    use oracle::semantics::{Allowances, Deviation};
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let changes = |p: &oracle::program::Program, i: &oracle::program::Inputs, ds: &[Deviation]| {
        let spec = interp::run(p, i, &Allowances::all()).unwrap();
        let (emulated, fired) =
            interp::run_emulating(p, i, &Allowances::all().emulating_all(ds.iter().copied())).unwrap();
        !fired.is_empty() && emulated != spec
    };
    let mut checked = 0;
    for campaign in ["fuzz-h200", "fuzz-h100", "fuzz-h100-b"] {
        for row in rows(campaign) {
            let Some(entry) = known.entries().iter().find(|k| cause_of(&k.name) == Some(row.cause)) else { continue };
            if entry.emulations.is_empty() || row.class == FindingClass::Crash {
                continue;
            }
            let path = repo().join("corpus/findings").join(campaign).join(&row.case);
            let (p, i) = parse_case(&std::fs::read_to_string(&path).unwrap()).unwrap();
            checked += 1;
            match EMULATED_ELSEWHERE.iter().find(|(c, _)| *c == row.case) {
                None => assert!(changes(&p, &i, &entry.emulations), "{campaign}/{}: {:?}", row.case, entry.emulations),
                Some((_, other)) => {
                    assert!(!changes(&p, &i, &entry.emulations), "{}: now its own", row.case);
                    let other: Vec<Deviation> = other.iter().filter_map(|n| Deviation::from_name(n)).collect();
                    assert_eq!(!other.is_empty() && changes(&p, &i, &other), !other.is_empty(), "{}", row.case);
                }
            }
        }
    }
    // 123 since G became an emulation (its 52c2912c, corpus/findings/fuzz-h200-3301/); 125
    // since J did (c4102 of fuzz-h100, c4105 of fuzz-h100-b).
    assert_eq!(checked, 125, "cases of emulated causes");
}

/// The word findings of the H200 campaign of seed 3201 (corpus/findings/fuzz-h200-3201/: each
/// finding's signature and mismatching words in `value-findings.json`, its minimized case in
/// `cases/`), labelled again as triage labels them now ([`runner::fuzz::retriage`]): each
/// one whose root cause has an entry is known by that entry, and no other finding is.
#[test]
fn the_seed_3201_word_findings_are_labelled_by_their_entries() {
    assert_eq!(labels_of("fuzz-h200-3201", "value-findings.json"), expected(&SEED_3201_LABELS));
}

/// Each word finding of `corpus/findings/CAMPAIGN/FILE` (its signature and mismatching words;
/// its minimized case in `cases/`) labelled again as triage labels it now
/// ([`runner::fuzz::retriage`]): the names of the entries it is known by, `new` or `gone`.
fn labels_of(campaign: &str, file: &str) -> BTreeMap<String, String> {
    use oracle::semantics::Allowances;
    use runner::diff::program::WordMismatch;
    use runner::fuzz::retriage::{label_words, Label};
    #[derive(serde::Deserialize)]
    struct Stored {
        id: String,
        signature: Signature,
        mismatches: Vec<WordMismatch>,
    }
    /// A campaign's file: `{"findings": [...]}`, or (fuzz-h200-3501) the bare list.
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
    for f in findings.iter().filter(|f| !f.mismatches.is_empty()) {
        let text = std::fs::read_to_string(dir.join("cases").join(format!("{}.case", f.id))).unwrap();
        let (p, i) = parse_case(&text).unwrap();
        let sass = traced_check(&dir.join("trace").join(&f.id[..8]), &text, &p.name, &known);
        // A finding whose stored words the case cannot be run against is undetermined (seed
        // 3702's f93796d5: its reduced case was stored with the words of the program as generated).
        let short = match label_words(&p, &i, &f.signature, &f.mismatches, &known, &Allowances::all(), sass) {
            Ok(Label::Known(names)) => names.join("+"),
            Ok(Label::New(_)) => "new".to_string(),
            Ok(Label::Gone) => "gone".to_string(),
            Err(_) => "undetermined".to_string(),
        };
        labels.insert(f.id[..8].to_string(), short);
    }
    labels
}

/// The SASS check the campaign had of a stored case's -O3 kernel, from the ptxas 13.0.88 -O3
/// listing its trace keeps (`trace/<id8>/orig.130.O3.sass`, whole or the kernel's lines, where the trace's `orig.case` or
/// `orig.ptx` is the stored case `case`): the `sass_witness` globs it has, so that an emulation
/// with a witness is scoped offline as the campaign scoped it (seed 4501's aa2046a3 and
/// b4024b2c, seed 4503's d2270cfc: A's "any byte" labelled their -O3 words known offline
/// although their listings have no `F2I`). Empty (scoped as without a listing) where the trace
/// has no listing of that case.
fn traced_check(trace: &Path, case: &str, kernel: &str, known: &KnownSet) -> Vec<runner::fuzz::engine::SassCheck> {
    let of_the_case = |file: &str| {
        std::fs::read_to_string(trace.join(file))
            .is_ok_and(|t| t == case || t.trim() == case.split("// ptxdiff-inputs").next().unwrap_or_default().trim())
    };
    let Ok(listing) = std::fs::read_to_string(trace.join("orig.130.O3.sass")) else { return Vec::new() };
    if !(of_the_case("orig.case") || of_the_case("orig.ptx")) {
        return Vec::new();
    }
    // Earlier traces kept the kernel's lines without nvdisasm's section header: the header is
    // put back, as the crate's own tests read those listings.
    let listing = if listing.contains("STO_CUDA_ENTRY") {
        listing
    } else {
        format!(".section .text.{kernel},\"ax\",@progbits\n.other {kernel},@\"STO_CUDA_ENTRY STV_DEFAULT\"\n{kernel}:\n{listing}")
    };
    let Ok(functions) = runner::sass::parse::parse_listing(&listing) else { return Vec::new() };
    let Some(f) = functions.iter().find(|f| f.entry && f.name == kernel) else { return Vec::new() };
    let witnessed = runner::sass::witnessed(f, &known.emulation_scopes().sass_witnesses());
    vec![runner::fuzz::engine::SassCheck {
        by: "ptxas -O3".into(),
        reads: Vec::new(),
        listing: String::new(),
        witnessed,
    }]
}

/// A campaign's stored findings file (`{"findings": [...]}`) read for each finding's id and signature.
fn stored_ids_and_signatures(path: &Path) -> StoredDoc {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A stored finding's id and signature ([`stored_ids_and_signatures`]).
#[derive(serde::Deserialize)]
struct Stored {
    id: String,
    signature: Signature,
}

/// A campaign's stored findings ([`stored_ids_and_signatures`]).
#[derive(serde::Deserialize)]
struct StoredDoc {
    findings: Vec<Stored>,
}

/// `rows` as the map [`labels_of`] gives.
fn expected(rows: &[(&str, &str)]) -> BTreeMap<String, String> {
    rows.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

/// Checks the labels of the word findings of `campaign` that one trace covers (`rows`); the
/// campaign's other findings are another trace's rows.
fn assert_traced_labels(campaign: &str, rows: &[(&str, &str)]) {
    let mut labels = labels_of(campaign, "findings-labelled-new.json");
    labels.retain(|id, _| rows.iter().any(|(mine, _)| mine == id));
    assert_eq!(labels, expected(rows));
}

/// What each word finding of the seed-3201 campaign is labelled now (its README's table row).
const SEED_3201_LABELS: [(&str, &str); 11] = [
    ("1990d180", "gone"), // row 12: bfi.b64 len > 255, allowance bit-field-wide-operand
    ("1f56d984", "fuzz-h200-f-negation-overflow"), // row 14
    ("243ce6a0", "fuzz-h100-m-f16-mask-dropped"), // row 10: probably M, not proven
    ("3c48e30d", "new"),  // row 9
    ("3c86afeb", "gone"), // row 12: allowance bit-field-wide-operand
    ("5690d5c8", "fuzz-h200-3201-n11-skipped-set-sign-extends"), // N-11
    ("b7673906", "fuzz-h200-3201-n7-bfe-s32-past-msb"), // N-7
    ("c32d9d48", "gone"), // row 12: allowance bit-field-wide-operand
    ("d44f4ae5", "fuzz-h200-3201-n7-bfe-s32-past-msb"), // N-7
    ("fdc114af", "fuzz-h200-3201-n7-bfe-s32-past-msb"), // N-7
    ("fe11eb1e", "fuzz-h200-3201-n8-unsigned-below-zero-of-set"), // N-8
];

/// The 15 word findings labelled new by the H200 campaign of seed 3301
/// (corpus/findings/fuzz-h200-3301/: signatures and first mismatching words in
/// `findings-labelled-new.json`, minimized cases in `cases/`), labelled again now: each is
/// known by the entry of the cause its README's second pass names (the 16th, 653ee0b0, is an
/// `unwritten-register` finding, N-6, with no entry).
#[test]
fn the_seed_3301_word_findings_are_labelled_by_their_entries() {
    assert_eq!(labels_of("fuzz-h200-3301", "findings-labelled-new.json"), expected(&SEED_3301_LABELS));
}

/// What each word finding of the seed-3301 campaign is labelled now (its README's second pass).
const SEED_3301_LABELS: [(&str, &str); 15] = [
    ("1297e441", "fuzz-h200-3201-n11-skipped-set-sign-extends"),
    ("17e80392", "fuzz-h200-3301-n3-set-round-trip-through-float"),
    ("3136432f", "fuzz-h200-3201-n11-skipped-set-sign-extends"),
    ("4cd5d2c9", "fuzz-h200-a-narrow-store-converts"), // B's words and A's, one part
    ("6c048846", "fuzz-h200-3201-n11-skipped-set-sign-extends"), // .f32 destination
    ("6ff72d02", "fuzz-h200-b-f32-shift-amount"),
    ("75b04c3b", "fuzz-h200-3301-c-float-sat-of-int-sat"),
    ("763c9409", "fuzz-h200-b-f32-shift-amount"), // an amount of 2^32 or more
    ("830832b4", "fuzz-h200-3201-n11-skipped-set-sign-extends"),
    ("8518bbff", "fuzz-h200-g-shr-s16-by-16"),
    ("a6d22081", "fuzz-h200-3301-n2-sub-cc-of-abs-zero-borrows"),
    ("a9e172f6", "fuzz-h200-3301-n1-shift16-immediate-low-half"),
    ("e6e88e27", "fuzz-h200-3301-n1-shift16-immediate-low-half"),
    ("e733b56f", "fuzz-h200-3201-n11-skipped-set-sign-extends"), // .f32 destination
    ("fa10cd83", "fuzz-h200-3201-n11-skipped-set-sign-extends"), // .f32 destination
];

/// The 8 word findings labelled new by the third run of seed 3301 (corpus/findings/fuzz-h200-3301/
/// README.md, "Third run": signatures and mismatching words in `findings-third-run.json`,
/// cases in `cases/`), labelled again now: each is known by an emulation that gives every
/// differing word; b1e246c6 is B at -O0 only because -O0's words are compared with the
/// emulations whose entries admit -O0 (3301-N2, -O3 and the JIT, also fires there and would
/// change them: its README row). The 9th, 653ee0b0, is the `unwritten-register` N-6.
#[test]
fn the_seed_3301_third_run_word_findings_are_labelled_by_their_entries() {
    assert_eq!(labels_of("fuzz-h200-3301", "findings-third-run.json"), expected(&SEED_3301_THIRD_RUN_LABELS));
}

/// What each word finding of the third run of seed 3301 is labelled now (its README's rows).
const SEED_3301_THIRD_RUN_LABELS: [(&str, &str); 8] = [
    ("0048b69b", "fuzz-h100-i-directed-rounding-folded-into-int"), // .rpi first cvt
    ("2f8d273e", "fuzz-h200-a-narrow-store-converts"),             // cvt skipped by its guard
    ("46a74d17", "fuzz-h200-b-f32-shift-amount"),                  // .tf32 amount, shr.s64
    ("4a9df7fd", "fuzz-h200-a-narrow-store-converts"),             // cvt skipped by its guard
    ("5702bd91", "fuzz-h200-f-negation-overflow"),                 // cvt.sat.u8.s32 of abs
    ("a4cd0d1f", "fuzz-h200-a-narrow-store-converts"),             // cvt skipped by its guard
    ("b1e246c6", "fuzz-h200-b-f32-shift-amount"),                  // B at -O0, beside 3301-N2
    ("f2f81bb3", "fuzz-h200-3301-n4-sat-cvt-of-byte-bfe-signed"),  // 3301-N4
];

/// The 11 word findings labelled new by the seed-3502 campaign (corpus/findings/fuzz-h200-3501/:
/// signatures and mismatching words in `findings-labelled-new.json`, cases in `cases/`),
/// labelled again now: each is known by the entry of the cause its README names (the 12th,
/// ab41e69a, is an `unwritten-register` finding: O, below).
#[test]
fn the_seed_3502_word_findings_are_labelled_by_their_entries() {
    assert_eq!(labels_of("fuzz-h200-3501", "findings-labelled-new.json"), expected(&SEED_3502_LABELS));
}

/// What each word finding of the seed-3502 campaign is labelled now (its README's table).
const SEED_3502_LABELS: [(&str, &str); 11] = [
    ("03565707", "fuzz-h200-3501-n1-slct-by-min-immediate-selects-a"),
    ("26d7842c", "fuzz-h200-a-narrow-store-converts"), // M no longer fires at a setp
    ("2bc4dfbb", "fuzz-h200-b-f32-shift-amount"),
    ("3a6d7b34", "fuzz-h200-3501-n2-shl-b64-chain-folded-into-lea"),
    ("55b1cdcc", "fuzz-h200-b-f32-shift-amount"),
    ("5fe30520", "fuzz-h200-f-negation-overflow"),
    ("a3b8be37", "fuzz-h200-f-negation-overflow"),
    ("ad84da1a", "fuzz-h200-3201-n11-skipped-set-sign-extends"),
    ("e0f84cd8", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"),
    ("ec8d0db0", "fuzz-h200-b-f32-shift-amount"),
    ("f94a1b7c", "fuzz-h200-3501-n2-shl-b64-chain-folded-into-lea"),
];

/// The word findings labelled new by the seed-3601 campaign (corpus/findings/fuzz-h200-3601/:
/// signatures and mismatching words in `findings-labelled-new.json`, cases in `cases/`),
/// labelled again now: each is known by the entry of the cause its trace names
/// (/work/notes/campaign36/trace/T2–T4), once that cause's emulation has the scope the
/// 13.0.88 and 13.5 listings show.
#[test]
fn the_seed_3601_word_findings_are_labelled_by_their_entries() {
    assert_eq!(labels_of("fuzz-h200-3601", "findings-labelled-new.json"), expected(&SEED_3601_LABELS));
}

/// What each word finding of the seed-3601 campaign is labelled now (the first entry whose
/// emulation gives every differing word; `new` where no emulation has the scope yet).
const SEED_3601_LABELS: [(&str, &str); 15] = [
    ("12ee3dcb", "fuzz-h200-b-f32-shift-amount"), // a .ftz f64→f32 amount is raw
    ("1a7764b0", "fuzz-h200-3501-n2-shl-b64-chain-folded-into-lea"), // cut at 35 of 49
    ("4919e679", "fuzz-h200-a-narrow-store-converts"), // B no longer fires past a guarded ld
    ("508957df", "fuzz-h200-d-tf32-of-packed-half"), // D through mov.f32 (A fires too; D alone explains)
    ("5eea61e2", "fuzz-h200-3301-n1-shift16-immediate-low-half"), // B not past ld/shfl
    ("6ac6a5e1", "fuzz-h200-3601-c-int-sat-of-nan-cvt"), // C, integer direction
    ("7a844563", "fuzz-h200-b-f32-shift-amount"), // not past bar.sync
    ("96e7a1b5", "fuzz-h200-b-f32-shift-amount"), // a skipped e4m3x2 cvt clears the typing
    ("c6597432", "fuzz-h200-3601-n1-sub-cc-of-mul-hi-zero-borrows"),
    ("c9db337a", "fuzz-h200-3601-n1-sub-cc-of-mul-hi-zero-borrows"),
    ("d603bf3c", "fuzz-h200-d-tf32-of-packed-half"), // D through mov.f32 (A fires too; D alone explains)
    ("d6c433ca", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // trace T2: cnot of a set-free source beside logic of a set (session 40)
    ("de45dd17", "fuzz-h200-3201-n11-skipped-set-sign-extends"),           // over an f32 NaN
    ("e2ff640a", "fuzz-h200-f-negation-overflow"),                         // cvt.sat.u16.s16 of abs.s16
    ("e9e8eb40", "fuzz-h200-3601-o-shift16-by-cnot-amount"),               // O by emulation
];

/// The crash of the seed-3601 campaign (corpus/findings/fuzz-h200-3601/, 5c073d59: -O0 never
/// loads the global descriptor, `R2UR UR4, R6` of registers never written) is K by its id: a
/// crash has no shape and no emulation.
#[test]
fn the_seed_3601_crash_is_k() {
    #[derive(serde::Deserialize)]
    struct Stored {
        id: String,
        signature: Signature,
    }
    let path = repo().join("corpus/findings/fuzz-h200-3601/findings-labelled-new.json");
    let findings: Vec<Stored> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let crash = findings.iter().find(|f| f.id.starts_with("5c073d59")).unwrap();
    assert_eq!(crash.signature.class, FindingClass::Crash);
    assert_eq!(known.matches(&crash.signature).map(|k| k.name.as_str()), Some("fuzz-h100-k-descriptor-never-loaded"));
}

/// The `unwritten-register` findings of the seed-3201 campaign (`sass-findings.json`: 65
/// signatures, each reader once): N-5's and N-6's entries match their own finding and no other
/// (the rest were false alarms of the check, rows 1–4); and the check run again on the stored
/// 13.0.88 listings (`sass/`) labels N-6's kernel known (by its origin → reader shape, which the
/// stored signatures predate) and finds nothing in rows 3 and 4's.
#[test]
fn the_seed_3201_sass_findings_are_labelled_by_their_entries() {
    use runner::fuzz::retriage::{label_listing, Label};
    let dir = repo().join("corpus/findings/fuzz-h200-3201");
    let doc = stored_ids_and_signatures(&dir.join("sass-findings.json"));
    assert_eq!(doc.findings.len(), 65);
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let matched: BTreeSet<(String, String)> = doc
        .findings
        .iter()
        .filter_map(|f| known.matches(&f.signature).map(|k| (f.id[..8].to_string(), k.name.clone())))
        .collect();
    // N-5 (036ff68f) and N-6 (bb88ad7c) have no entry (their readers, a store's source, would
    // name every later store of an unwritten register). The two matches are O's SASS entry on
    // the keys `SHF.L.U32 source` (ab41e69a) and `SHF.R.U32.HI source` (d9b7f6a9, the
    // `shr.b16` form of seed 3602), which this campaign raised as row 1's `bfind` false alarms
    // of the check (fixed since): the key alone cannot tell them apart.
    let o = |id: &str| (id.to_string(), "sass-shift-by-unwritten-register".to_string());
    assert_eq!(matched, BTreeSet::from([o("ab41e69a"), o("d9b7f6a9")]));
    let label = |name: &str| {
        let text = std::fs::read_to_string(dir.join("sass").join(name)).unwrap();
        label_listing(&text, "ptxas -O3", &known).unwrap()
    };
    // N-6's kernel: the store reads bits a UPRMT made from a never-written UR9 (origin → reader).
    assert_eq!(label("bb88ad7c-O3.sass"), Label::Known(vec!["sass-n6-uprmt-of-unwritten-uniform".to_string()]));
    for false_alarm in ["2d31cc89-O3.sass", "f3e83ec2-O3.sass", "77b0c630-O3.sass"] {
        assert_eq!(label(false_alarm), Label::Gone, "{false_alarm}");
    }
}

/// O's `unwritten-register` finding of the seed-3502 campaign (corpus/findings/fuzz-h200-3501/,
/// ab41e69a: `SHF.L.U32 R13, R13, R0` of a never-written R0): its stored signature, and the
/// check run again on its ptxas 13.0.88 -O3 listing (`sass/ab41e69a-O3.sass`), are O's.
#[test]
fn the_seed_3502_sass_finding_is_o() {
    use runner::fuzz::retriage::{label_listing, Label};
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let sig = Signature::new(FindingClass::UnwrittenRegister, "SHF.L.U32", "", ["ptxas -O3"], "source");
    assert_eq!(known.matches(&sig).map(|k| k.name.as_str()), Some("sass-shift-by-unwritten-register"));
    // O is an -O3 cause: the same read in an -O0 listing is not it.
    let o0 = Signature::new(FindingClass::UnwrittenRegister, "SHF.L.U32", "", ["ptxas -O0"], "source");
    assert!(known.matches(&o0).is_none());
    let dir = repo().join("corpus/findings/fuzz-h200-3501/sass");
    let text = std::fs::read_to_string(dir.join("ab41e69a-O3.sass")).unwrap();
    let label = label_listing(&text, "ptxas -O3", &known).unwrap();
    assert_eq!(label, Label::Known(vec!["sass-shift-by-unwritten-register".to_string()]));
}

/// The word findings labelled new by the seed-3602 and seed-3604 campaigns
/// (corpus/findings/fuzz-h200-3602/ and fuzz-h200-3604/: signatures and mismatching words in
/// `findings-labelled-new.json`, cases in `cases/`), labelled again now: each known cause whose
/// scope the traces (T5–T10) gave is known by its entry; the seven new root causes (3602-N1 …
/// N4, 3604-N1 … N3) are known by their own entries.
#[test]
fn the_seed_3602_and_3604_word_findings_are_labelled_by_their_entries() {
    let mut labels = labels_of("fuzz-h200-3602", "findings-labelled-new.json");
    labels.extend(labels_of("fuzz-h200-3604", "findings-labelled-new.json"));
    assert_eq!(labels, expected(&SEED_3602_3604_LABELS));
}

/// What each word finding of seeds 3602 and 3604 is labelled now (the README's table).
const SEED_3602_3604_LABELS: [(&str, &str); 22] = [
    ("0e92a0c9", "fuzz-h200-3201-n11-skipped-set-sign-extends"), // a NaN old value
    ("11a4e5a9", "fuzz-h200-b-f32-shift-amount"),                // L sign-extends only in shl.b64 by 1–31
    ("2034b61d", "fuzz-h200-3602-n2-neg-of-set-f32-halves-read-as-boolean"), // 3602-N2
    ("24bc5888", "fuzz-h200-b-f32-shift-amount"),                // a shfl.sync result merged by a skipped cvt.f32
    ("313ad4b7", "fuzz-h200-3604-n1-shr-s16-by-u32-cvt-converts-as-s16"), // 3604-N1
    ("4b388efe", "fuzz-h200-b-f32-shift-amount"),                // a mov.u32 copy ends the f32 typing
    ("5d06e0d1", "fuzz-h200-3201-n8-unsigned-below-zero-of-set"), // setp.gt.u32 0, s with a moved 0
    ("6bd62f60", "fuzz-h200-3604-n2-widened-set-f32-compared-with-zero"), // 3604-N2
    ("73350c55", "fuzz-h200-b-f32-shift-amount"),                // a guarded ld between
    ("9a12bc3b", "fuzz-h200-3601-c-int-sat-of-nan-cvt"),         // C, integer direction
    ("9ab5ce60", "fuzz-h200-b-f32-shift-amount"),                // a skipped mov.f32
    ("a5368bf9", "fuzz-h200-a-narrow-store-converts"),           // B stopped by a brev.b64 between
    ("a9cbbc89", "fuzz-h200-3501-n1-slct-by-min-immediate-selects-a"), // c a positive NaN selects b
    ("a9d3dbc0", "fuzz-h200-3602-n3-subc-of-branch-constant-adds-it"), // 3602-N3
    ("a9fb5bb8", "fuzz-h200-a-narrow-store-converts"),           // B stopped by a bra between
    ("abc7b2d8", "fuzz-h200-b-f32-shift-amount"),                // B stopped by a bra between
    ("c306162d", "fuzz-h200-3602-n4-s8-round-trip-through-64-sign-extends-32"), // 3602-N4
    ("c306b860", "fuzz-h200-3601-o-shift16-by-cnot-amount"),     // non-deterministic: O by emulation
    ("da27327e", "fuzz-h200-3604-n3-unsigned-loop-exit-test-counted-signed"), // 3604-N3
    ("dced936c", "fuzz-h200-3301-n3-set-round-trip-through-float"), // the set.f32 as the float step
    ("f4932ac3", "fuzz-h200-3602-n1-xor-of-branch-constant-drops-inversion"), // 3602-N1
    ("f89b9251", "fuzz-h200-a-narrow-store-converts"),           // B stopped by a bra between
];

/// The N-6 findings of seed 3602 (corpus/findings/fuzz-h200-3602/README.md: 2196d4b6, 77dcaea5,
/// a6b3bbf2, 3c8afc43, f3e83ec2), each store of another kind (`STG.E.U8`, `STG.E.U16`), are
/// labelled N-6 by the check run again on their ptxas 13.0.88 and 13.5.37 -O3 listings
/// (`trace/<id>/`: the reduced kernels; for 3c8afc43 the stored program, assembled by 13.5.37):
/// the undefined bits come from `UPRMT URa, URb, 0x7610, URa` with URb never written, whatever
/// store reads them. 25dcb4c4 (a guard refined in place) is no finding any more.
#[test]
fn the_seed_3602_n6_findings_are_labelled_by_their_origin() {
    use runner::fuzz::retriage::{label_listing, Label};
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let trace = repo().join("corpus/findings/fuzz-h200-3602/trace");
    // The trace listings hold the instruction lines only: one kernel around them.
    let label = |path: &str| {
        let text = std::fs::read_to_string(trace.join(path)).unwrap();
        let text = if text.contains(".section") {
            text
        } else {
            format!(".section .text.k,\"ax\",@progbits\n.other k,@\"STO_CUDA_ENTRY STV_DEFAULT\"\nk:\n{text}")
        };
        label_listing(&text, "ptxas -O3", &known).unwrap()
    };
    let n6 = Label::Known(vec!["sass-n6-uprmt-of-unwritten-uniform".to_string()]);
    for id in ["2196d4b63896e43a", "77dcaea509f185cf", "a6b3bbf28e58a686", "f3e83ec295c2d2db"] {
        for version in ["130", "135"] {
            let path = format!("{id}/reduced.{version}.O3.sass");
            assert_eq!(label(&path), n6, "{path}");
        }
    }
    // The stored program has two stores of the folded halves: two findings, both N-6.
    let orig = label("3c8afc43289c40b4/orig.135.O3.sass");
    assert!(
        matches!(&orig, Label::Known(names) if names.len() == 2 && names.iter().all(|n| Label::Known(vec![n.clone()]) == n6)),
        "{orig:?}"
    );
    for version in ["130", "135"] {
        assert_eq!(label(&format!("25dcb4c4871a17f3/reduced2.{version}.O3.sass")), Label::Gone);
    }
    // The reader alone is still no entry: a store of a never-written register read directly.
    let direct = Signature::new(FindingClass::UnwrittenRegister, "STG.E.U16", "", ["ptxas -O3"], "source");
    assert!(known.matches(&direct).is_none());
    // N-6 is -O3's: the same shape at -O0 is new.
    let o0 = Signature::new(FindingClass::UnwrittenRegister, "STG.E.U16", "", ["ptxas -O0"], "source")
        .with_shape("UPRMT → STG.E.U16");
    assert!(known.matches(&o0).is_none());
}

/// The word findings of the seed-3701 campaign (corpus/findings/fuzz-h200-3701/: signatures
/// and mismatching words in `findings-labelled-new.json`, the stored cases in `cases/`),
/// labelled again now: the findings of its new root causes with entries (3701-N-A, C1-N4, C3-2,
/// fc9c9c66, C3-3, C1-N3) are known by them.
#[test]
fn the_seed_3701_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-3701", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_3701_LABELS));
}

/// What each word finding of seed 3701 is labelled now: its new root causes by their entries;
/// the known causes whose emulations the traces found too narrow (TC1–TC4) still new.
const SEED_3701_LABELS: [(&str, &str); 46] = [
    ("12b23716", "fuzz-h200-3301-n3-set-round-trip-through-float"), // 3301-N3 through a mov unpack (TC1)
    ("1741048c", "new"), // new: an FP8x2 pack's own register never written (TC2)
    ("1a74feca", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("1d8039b3", "fuzz-h200-f-negation-overflow"), // F under a widening cvt.sat (TC1)
    ("1dadc489", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("212b09c9", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("21862007", "fuzz-h100-j-branch-constant-splat"), // J branch-known: an unpacked high half (TC1)
    ("2d12fb46", "fuzz-h200-3501-n2-shl-b64-chain-folded-into-lea"), // 3501-N2 by register amounts (TC2)
    ("2dfe7c1c", "fuzz-h200-3701-c1n2-cvt-of-set-f32-converts-1-beside-xor-of-set"), // 3701 C1-N2 (TC1)
    ("31e0340b", "fuzz-h200-3501-n2-shl-b64-chain-folded-into-lea"), // 3501-N2 through min.s64 d, d, d (TC4)
    ("32d233d8", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("333f245e", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("3b8517e9", "fuzz-h200-3201-n7-bfe-s32-past-msb"), // N-7 by known pos/len (TC2)
    ("3c5ab93b", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("3f9c3758", "fuzz-h200-3201-n11-skipped-set-sign-extends"), // J narrowed, read by N-11 in a loop (TC2); N-11 fires first
    ("434a41d1", "fuzz-h200-f-negation-overflow"),               // F into mad.hi.s16 (TC3)
    ("46818fad", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("4702b9c3", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("4cdc6561", "fuzz-h200-3601-c-int-sat-of-nan-cvt"),         // 3601-C of a .bf16 source (TC4)
    ("5087e596", "fuzz-h200-3701-c3n3-setp-eq-one-of-set-tests-the-set"), // 3701 C3-3
    ("59055f91", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("5a4b88eb", "fuzz-h200-d-tf32-of-packed-half"),             // D through cvt.f32.f32 (TC3)
    ("5d90f3ab", "fuzz-h200-3201-n7-bfe-s32-past-msb"),          // N-7 by a moved start (TC1)
    ("6b7f302e", "fuzz-h200-3701-c1n3-shr-s16-by-cnot-clamp-folded"), // 3701 C1-N3
    ("7e60049f", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("82207bfd", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("8aad1e14", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A, through cvt.u32.u32
    ("92386ade", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("9a5bc7e9", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("a3598fb3", "new"),                                         // G through a mov unpack (TC4)
    ("a5d8c0db", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("a862ac7a", "fuzz-h200-b-f32-shift-amount"),                // B through a skipped set.f32 (TC1), with N-11
    ("b714f9f1", "fuzz-h100-m-f16-mask-dropped"), // M with a register mask, through min.u16 and a b64 pack (TC3)
    ("c2bdc418", "fuzz-h200-3201-n11-skipped-set-sign-extends"), // N-11 over a two-valued old word (TC2)
    ("c78de146", "fuzz-h200-e-bf16-read-as-f16"), // E through cvt.u16.s16 (TC3); A fires too, on a dead st.b8
    ("c8681b22", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // C1-N1 = 3701-N-D (TC1)
    ("ca3fc161", "fuzz-h200-3701-c1n4-bfi-b32-constant-length-mod-32"), // 3701 C1-N4
    ("d46ed0dc", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("e3375831", "fuzz-h200-3501-n2-shl-b64-chain-folded-into-lea"), // 3501-N2 by register amounts (TC2)
    ("e50cc840", "new"),                          // 3701 C3-2 in a loop: its amounts are constants only to ptxas (TC3)
    ("e90e547c", "fuzz-h200-3601-c-int-sat-of-nan-cvt"), // 3601-C of a .bf16 source (TC1)
    ("eb5664f7", "fuzz-h200-d-tf32-of-packed-half"), // D via cvt.f32.f32; A fires too (TC4)
    ("f0faa6f5", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("f567f1b4", "fuzz-h100-j-branch-constant-splat"), // J narrowed: add.u16x2 read as cvt.pack's c (TC2)
    ("fb2f0eb8", "fuzz-h200-3602-n3-subc-of-branch-constant-adds-it"), // 3602-N3 on setp.ne.s32 (TC2)
    ("fc9c9c66", "fuzz-h200-3701-fc9c9c66-xor-of-set-and-cnot-gives-one-minus"), // 3701 fc9c9c66
];

/// The word findings of the seed-3702 campaign (corpus/findings/fuzz-h200-3702/: signatures and
/// mismatching words in `findings-labelled-new.json`, the stored cases in `cases/`; traces
/// `trace/T3A.md`, `T3B.md`, `T3C.md`), labelled again now: the new root causes of the seed by
/// their entries (3702-N1 … N6, C's `.s16` integer direction), the known causes the traces found
/// unreached by their widened emulations.
#[test]
fn the_seed_3702_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-3702", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_3702_LABELS));
}

/// What each word finding of seed 3702 is labelled now.
const SEED_3702_LABELS: [(&str, &str); 36] = [
    ("1dd3e6b5", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("1f3f107d", "fuzz-h200-b-f32-shift-amount"), // I through cvt.u16.u16, with B in the same word (T3C); B fires first
    ("272bc4c9", "fuzz-h200-3201-n7-bfe-s32-past-msb"), // N-7 by moved start and length (T3B); A fires too, on another word
    ("2a151aca", "fuzz-h200-3702-n3-join-of-minus-one-and-one-f32-merged"), // 3702-N3 (T3B)
    ("2a3b3599", "fuzz-h200-3702-n2-lop3-merged-into-xor-reads-x"), // 3702-N2 (T3B)
    ("2cda72ea", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("30858a36", "fuzz-h200-3702-n4-byte-of-vector-load-u32-cvt-converts-signed"), // 3702-N4 (T3A)
    ("331587aa", "fuzz-h200-b-f32-shift-amount"),       // B via N-11 (T3A)
    ("347991f6", "fuzz-h200-3301-n3-set-round-trip-through-float"), // 3301-N3 through a mov unpack (T3C)
    ("3662111d", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("3c1be158", "fuzz-h200-3702-n6-shift16-by-ftz-u32-cvt-flush-dropped"), // 3702-N6 (T3A)
    ("4cc48c59", "fuzz-h200-f-negation-overflow"),      // F into mul.wide.s16 (T3C)
    ("5b270697", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("5bf2de82", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // 3702-N5 (T3A)
    ("5ea00426", "fuzz-h200-b-f32-shift-amount"), // B (session 38: 3604-N3's emulation no longer runs its loop to the statement limit)
    ("60a5f07b", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("6472c795", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("95173b56", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("a45afa63", "fuzz-h200-3201-n11-skipped-set-sign-extends"), // N-11
    ("a4d7512d", "fuzz-h200-3702-n7-branch-on-bfly-predicate-taken-as-uniform"), // 3702-N7, by its id (T3C)
    ("a54ce95d", "fuzz-h200-3501-n2-shl-b64-chain-folded-into-lea"), // 3501-N2 by a loop counter (T3B)
    ("a6e3427b", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("a7d5ba17", "fuzz-h200-3701-na-pack-s8-of-u32-cvt-fused-signed"), // 3701-N-A
    ("b7fc90b6", "fuzz-h200-3201-n7-bfe-s32-past-msb"), // N-7 by moved start and length (T3A)
    ("b9d3a4f3", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // 3702-N5 (T3C)
    ("bdd21da7", "fuzz-h200-f-negation-overflow"), // F under a widening cvt.sat (T3A)
    ("c388df98", "fuzz-h100-j-branch-constant-splat"), // J's branch-known byte 2 (T3B)
    ("c77930ea", "fuzz-h100-m-f16-mask-dropped"), // M after an e4m3x2 producer (T3B)
    ("d266f159", "fuzz-h200-d-tf32-of-packed-half"), // D through cvt.f32.f32 (T3A)
    ("d357c575", "fuzz-h200-3702-n3-join-of-minus-one-and-one-f32-merged"), // 3702-N3 (T3C)
    ("d479c2c6", "fuzz-h200-a-narrow-store-converts"), // A, once B no longer over-fires (T3C)
    ("dc54c0ab", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // 3701-N-D (T3A)
    ("e1ce1744", "fuzz-h200-3702-n1-setp-eq-of-min-max-reads-selection"), // 3702-N1 (T3B)
    ("f25dd895", "fuzz-h200-3702-c-int-sat-s16-of-u32-cvt-folded-signed"), // C, float to .s16 (T3A)
    ("f93796d5", "undetermined"), // D (T3B); its reduced case was stored with the generated program's words
    ("fb152f72", "fuzz-h200-3201-n7-bfe-s32-past-msb"), // N-7 by a moved start (T3B)
];

/// The crash pair of seed 3702 (31811a06 at -O3, 718670c9 in the JIT: one program, T3C) is H by
/// its ids: a crash has no shape and no emulation.
#[test]
fn the_seed_3702_crash_pair_is_h() {
    #[derive(serde::Deserialize)]
    struct Stored {
        id: String,
        signature: Signature,
    }
    let path = repo().join("corpus/findings/fuzz-h200-3702/findings-labelled-new.json");
    let findings: Vec<Stored> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let crashes: Vec<&Stored> =
        findings.iter().filter(|f| ["31811a06", "718670c9"].iter().any(|p| f.id.starts_with(p))).collect();
    assert_eq!(crashes.len(), 2);
    for f in crashes {
        assert_eq!(f.signature.class, FindingClass::Crash);
        let name = known.matches(&f.signature).map(|k| k.name.as_str());
        assert_eq!(name, Some("fuzz-h100-h-merged-load-stale-policy"), "{}", f.id);
    }
}

/// The crash of the seed-3802 campaign (corpus/findings/fuzz-h200-3802/, b22ec791, trace/T5C.md:
/// -O0 never loads the global descriptor, `R2UR UR4, R8; R2UR UR5, R9` of registers never
/// written) is K by its id: a crash's signature carries no SASS, so no shape names it.
#[test]
fn the_seed_3802_crash_is_k() {
    #[derive(serde::Deserialize)]
    struct Stored {
        id: String,
        signature: Signature,
    }
    let path = repo().join("corpus/findings/fuzz-h200-3802/findings-labelled-new.json");
    let findings: Vec<Stored> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let crash = findings.iter().find(|f| f.id.starts_with("b22ec791")).unwrap();
    assert_eq!(crash.signature.class, FindingClass::Crash);
    assert_eq!(known.matches(&crash.signature).map(|k| k.name.as_str()), Some("fuzz-h100-k-descriptor-never-loaded"));
}

/// The JIT crash of the seed-4202 campaign (corpus/findings/fuzz-h200-4202/, e7479c86: the driver's
/// JIT compiler segfaults on 35a05e88's trigger, trace/e7479c86/gpu/) is named by its own entry's
/// id: a crash's signature carries no words and no SASS.
#[test]
fn the_seed_4202_jit_crash_is_named_by_its_id() {
    #[derive(serde::Deserialize)]
    struct Stored {
        id: String,
        signature: Signature,
    }
    let path = repo().join("corpus/findings/fuzz-h200-4202/findings-labelled-new.json");
    let findings: Vec<Stored> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let crash = findings.iter().find(|f| f.id.starts_with("e7479c86")).unwrap();
    assert_eq!(crash.signature.class, FindingClass::Crash);
    assert_eq!(
        known.matches(&crash.signature).map(|k| k.name.as_str()),
        Some("fuzz-h200-4202-e7479c86-jit-crash-on-addc-of-deleted-add-cc")
    );
}

/// The ptxas hang of seed 5003 (corpus/findings/fuzz-h200-5003/, trace/T21hang.md: 5a46d3da at
/// -O3, killed after 60 s, and fa2365d0, the same program in the JIT, "no result within 10 s") is
/// named by its entry's ids: a hang has no words, no shape and no listing. The other 31 crash
/// findings of that run (programs of the hanging module, each fine alone) are not this entry's,
/// but for aa407168: a crash's id is its signature's (class, form, backend, `how`), and seed
/// 5102's segfault of the same defect, which the entry names, has that signature (`selp.b16`,
/// ptxas -O3, "ptxas crash").
#[test]
fn the_seed_5003_ptxas_hang_is_named_by_its_ids() {
    let doc = stored_ids_and_signatures(&repo().join("corpus/findings/fuzz-h200-5003/findings-labelled-new.json"));
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let entry = "fuzz-h200-5003-5a46d3da-ptxas-loops-on-lop3-eq-zero-diamond-and-guarded-write";
    let crashes: Vec<&Stored> = doc.findings.iter().filter(|f| f.signature.class == FindingClass::Crash).collect();
    assert_eq!(crashes.len(), 33);
    for f in crashes {
        let name = known.matches(&f.signature).map(|k| k.name.as_str());
        let hang = ["5a46d3da", "fa2365d0", "aa407168"].iter().any(|p| f.id.starts_with(p));
        assert_eq!(name == Some(entry), hang, "{}", f.id);
    }
}

/// Seed 5102's crash pair (trace/T22b.md: aa407168, ptxas 13.0.88 -O3 segfaults; f22f9b0f, the
/// same PTX, the JIT's SIGSEGV at libnvidia-ptxjitcompiler.so.1+0x4909ce): the segfault form of
/// 5a46d3da's defect by the fault's callers under gdb, named by that entry's ids.
#[test]
fn the_seed_5102_crash_pair_is_the_segfault_form_of_the_ptxas_hang() {
    let doc = stored_ids_and_signatures(&repo().join("corpus/findings/fuzz-h200-5102/findings-labelled-new.json"));
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let entry = "fuzz-h200-5003-5a46d3da-ptxas-loops-on-lop3-eq-zero-diamond-and-guarded-write";
    let crashes: Vec<&Stored> = doc.findings.iter().filter(|f| f.signature.class == FindingClass::Crash).collect();
    let ids: Vec<&str> = crashes.iter().map(|f| &f.id[..8]).collect();
    assert_eq!(ids, ["aa407168", "f22f9b0f"]);
    for f in crashes {
        assert_eq!(known.matches(&f.signature).map(|k| k.name.as_str()), Some(entry), "{}", f.id);
    }
}

/// The driver JIT's segfault by its site (`runner/src/worker/crash_site.rs`): every stored JIT
/// crash, replayed alone on the H200 (corpus/findings/jit-crash-site/), faults in a libc call
/// from libnvidia-ptxjitcompiler.so.1+0x168f86b; a crash with that `how` on the JIT is known
/// whatever its program's form (seed 4702's 25ad2263 was new by its key), another site, a crash
/// without a site, or the site on another backend is not.
#[test]
fn a_jit_crash_at_the_known_site_is_known_by_it() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let site = "worker crash at SIGSEGV in libnvidia-ptxjitcompiler.so.1+0x168f86b";
    let crash = |form: &str, backend: &str, how: &str| Signature::new(FindingClass::Crash, form, "", [backend], how);
    for form in ["subc.cc.s32", "cvt.pack.sat.s8.s32.b32", "add.u32"] {
        assert_eq!(
            known.matches(&crash(form, "cuda:jit", site)).map(|k| k.name.as_str()),
            Some("jit-segv-at-ptxjitcompiler-168f86b"),
            "{form}"
        );
    }
    assert!(known.matches(&crash("subc.cc.s32", "cuda:jit", "worker crash")).is_none());
    let other = "worker crash at SIGSEGV in libnvidia-ptxjitcompiler.so.1+0x1000";
    assert!(known.matches(&crash("subc.cc.s32", "cuda:jit", other)).is_none());
    assert!(known.matches(&crash("subc.cc.s32", "cuda:ptxas-O3", site)).is_none());
}

/// Seed 4303's -O0 crash (cd64eb6b: the global descriptor never loaded, trace/T14x5.md) is K by
/// its id, and seed 4302's `@P0 CCTL.E.PF1` under a never-written predicate (9059cde8, T14x2.md)
/// is the CCTL entry's reader.
#[test]
fn the_session_43_crash_is_k_and_its_prefetch_read_is_the_cctl_entry() {
    #[derive(serde::Deserialize)]
    struct Stored {
        id: String,
        signature: Signature,
    }
    let load = |seed: &str| -> Vec<Stored> {
        let path = repo().join(format!("corpus/findings/fuzz-h200-{seed}/findings-labelled-new.json"));
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let name = |f: &Stored| known.matches(&f.signature).map(|k| k.name.clone());
    let crash = load("4303").into_iter().find(|f| f.id.starts_with("cd64eb6b")).unwrap();
    assert_eq!(crash.signature.class, FindingClass::Crash);
    assert_eq!(name(&crash).as_deref(), Some("fuzz-h100-k-descriptor-never-loaded"));
    let read = load("4302").into_iter().find(|f| f.id.starts_with("9059cde8")).unwrap();
    assert_eq!(read.signature.class, FindingClass::UnwrittenRegister);
    assert_eq!(name(&read).as_deref(), Some("sass-cctl-under-unwritten-predicate"));
}

/// The word findings of the seed-3801 campaign (corpus/findings/fuzz-h200-3801/: signatures and
/// mismatching words in `findings-labelled-new.json`, the stored cases in `cases/`; traces `trace/T4A.md` … `T4D.md`),
/// labelled again now.
#[test]
fn the_seed_3801_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-3801", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_3801_LABELS));
}

/// What each word finding of seed 3801 is labelled now.
const SEED_3801_LABELS: [(&str, &str); 37] = [
    ("04f2039a", "fuzz-h200-3801-n3-hadd2-sat-pair-reads-guarded-overwrite"), // NEW (closest: 3201 row 5 / 3701 TU2, a copy around an if-converted wri (T4A)
    ("06fd6dd5", "fuzz-h200-3801-n2-sub-of-shuffled-immediate-reversed-in-min-max"), // 3801-N2 (T4C)
    ("0b744aae", "fuzz-h200-3301-c-float-sat-of-int-sat"), // KNOWN 3301-C (float direction); the emulation does not look through m (T4B)
    ("12356f04", "fuzz-h200-3501-n1-slct-by-min-immediate-selects-a"), // KNOWN 3501-N1; the emulation needs c an immediate or moved one (T4B)
    ("1367dabe", "new"), // classed non-deterministic in the campaign (README); not traced
    ("14d15bd2", "fuzz-h200-3201-n7-bfe-s32-past-msb"), // KNOWN N-7 (bfe-s32-past-msb-all-ones) (T4C)
    ("2cbe4566", "fuzz-h200-3801-n1-mad-hi-chain-loses-links"), // 3801-N1, by shape (T4C)
    ("33969c1e", "fuzz-h200-3201-n7-bfe-s32-past-msb"), // KNOWN 3201-N7 (T4A)
    ("36330ec5", "fuzz-h200-3301-n3-set-round-trip-through-float"), // KNOWN 3301-N3 (set.f32 unpack form, 12b23716) (T4A)
    ("3a0d32f5", "fuzz-h200-3801-n1-mad-hi-chain-loses-links"), // NEW: drops links of an IMAD.HI accumulation chain (closest: 3601-N1) (T4B)
    ("4c7c818c", "new"), // classed non-deterministic in the campaign (README); not traced
    ("536f1382", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D (T4A)
    ("53f554e1", "fuzz-h100-j-branch-constant-splat"), // KNOWN J (narrowed); the emulation runs but keeps the wrong addend (T4B)
    ("6dd16205", "fuzz-h200-3801-n2-sub-of-shuffled-immediate-reversed-in-min-max"), // 3801-N2 (T4D)
    ("6ee35dab", "fuzz-h100-j-branch-constant-splat"), // KNOWN J (narrowed), .s16x2 (T4D)
    ("703b2dfd", "fuzz-h200-3201-n8-unsigned-below-zero-of-set"), // KNOWN 3201-N8 (T4A)
    ("7d41398c", "fuzz-h200-3601-o-shift16-by-cnot-amount"), // classed non-deterministic in the campaign (README); not traced; O since session 40 (h4): `cnot.b32` of a shuffle read by `cvt.sat.u16.u32`, a never-written register
    ("83e44a39", "fuzz-h200-3702-n2-lop3-merged-into-xor-reads-x"), // KNOWN 3702-N2 (middle or/and, repeated c) (T4D)
    ("85778452", "fuzz-h200-3201-n11-skipped-set-sign-extends"), // KNOWN N-11 (skipped-set-sign-extends), blocked by N-8 over-firing (T4C)
    ("87576d8b", "fuzz-h100-j-branch-constant-splat"), // KNOWN J (branch-known), unpack ahead of the branch (T4D)
    ("8edfd571", "fuzz-h200-3801-n4-half-beside-e4m3x2-pair-read-as-stack-pointer"), // NEW (closest 3701-N-D, O) (T4C)
    ("91beedbc", "fuzz-h200-3201-n8-unsigned-below-zero-of-set"), // KNOWN N-8 (.u32 set destination) (T4D)
    ("95fd860c", "new"), // KNOWN D (tf32-of-packed-half), likely; the clobber is a new effect (T4C)
    ("a280b42d", "fuzz-h200-3702-n3-join-of-minus-one-and-one-f32-merged"), // KNOWN 3702-N3 (T4A)
    ("a82b8b26", "fuzz-h100-j-branch-constant-splat"), // KNOWN J (narrowed): the wrong addend survives in the emulation (T4D)
    ("a97764ed", "fuzz-h200-g-shr-s16-by-16"),         // KNOWN G (shr-s16-by-16-reads-its-source) (T4C)
    ("b4269706", "fuzz-h200-3201-n11-skipped-set-sign-extends"), // KNOWN 3201-N11 (its set.f32 form). Labelled NEW because F's emulation  (T4A)
    ("b8a9995e", "fuzz-h200-3701-c3n2-shl-b64-of-product-by-64-dropped"), // KNOWN 3701-C3-2; the emulation needs mul.lo.s64 (T4B)
    ("bfd7f6c9", "fuzz-h200-3701-c1n4-bfi-b32-constant-length-mod-32"), // KNOWN 3701-C1N4 (bfi-constant-length-mod-32) (T4C)
    ("c18ff4fe", "fuzz-h200-3601-o-shift16-by-cnot-amount"), // KNOWN O (3601-O); the emulation needs .b16 (T4B)
    ("c34717b2", "fuzz-h100-j-branch-constant-splat"),       // KNOWN J (narrowed); the emulation needs .u16x2 (T4B)
    ("c3fdf7b6", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // KNOWN 3702-N5 (T4A)
    ("d03f820c", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D; the emulation needs a mov pack and an e4m3x2 of zero (T4B)
    ("e0c45d2b", "fuzz-h200-3201-n11-skipped-set-sign-extends"), // KNOWN N-11 (.u32 destination); the emulation misses it on the *secon (T4D)
    ("e4527e8a", "fuzz-h200-3601-o-shift16-by-cnot-amount"),     // KNOWN O (shr.u16) (T4D)
    ("eb9ca4a8", "fuzz-h200-3601-o-shift16-by-cnot-amount"),     // KNOWN O (3601-O) (T4A)
    ("f2611d02", "fuzz-h100-j-branch-constant-splat"), // KNOWN J (branch-constant-high-half-is-its-low-half) (T4C)
];

/// The word findings of the seed-3802 campaign (corpus/findings/fuzz-h200-3802/: signatures and
/// mismatching words in `findings-labelled-new.json`, the stored cases in `cases/`; traces `trace/T5A.md` … `T5C.md`),
/// labelled again now.
#[test]
fn the_seed_3802_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-3802", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_3802_LABELS));
}

/// What each word finding of seed 3802 is labelled now.
const SEED_3802_LABELS: [(&str, &str); 27] = [
    ("11115fa6", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // KNOWN 3702-N5, cvt.u8.u32 (T5B)
    ("1350d2f8", "fuzz-h200-d-tf32-of-packed-half"), // KNOWN D, the packed half through a folded shfl (T5B)
    ("2414f1e4", "fuzz-h200-3801-n1-mad-hi-chain-loses-links"), // 3801-N1: a 4-trip loop, 3 IMAD.HI (trace/2414f1e4, 13.0.88 -O3)
    ("25415eb1", "fuzz-h200-g-shr-s16-by-16"), // G of a NaN source (13.0.88 -O3 F2F.F64.BF16 of the load, session 39)
    ("3596d932", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // KNOWN 3702-N5, cvt.u8.u32 (T5C)
    ("3ba99472", "fuzz-h200-3702-n1-setp-eq-of-min-max-reads-selection"), // KNOWN 3702-N1, K a moved register, max.u16 (T5A)
    ("3ca5ad75", "fuzz-h200-3702-n2-lop3-merged-into-xor-reads-x"),       // KNOWN 3702-N2 without outer xor (T5B)
    ("484f5b79", "fuzz-h100-m-f16-mask-dropped"),                         // KNOWN M, cvt.rz.relu source (T5C)
    ("6e4d6e41", "fuzz-h200-3802-6e4d6e41-fp8-unpack-of-zero-extended-top-half-immediate"), // NEW: F2FP.F16.E5M2.UNPACK_B of a known-zero top half gets a non-zero immediate (T5C)
    ("6f011808", "fuzz-h200-3701-c3n3-setp-eq-one-of-set-tests-the-set"), // KNOWN 3701-C3-3, .u64 set source (T5A)
    ("7f08ae6d", "fuzz-h100-j-branch-constant-splat"), // KNOWN J branch-known, %tix as operand a (T5A)
    ("81cc67f0", "fuzz-h200-3501-n2-shl-b64-chain-folded-into-lea"), // KNOWN 3501-N2, a sub between the shifts (T5A)
    ("87cad7bf", "fuzz-h200-3201-n8-unsigned-below-zero-of-set"), // KNOWN 3604-N3 + N-8 (set.ge.s32.u32 against a loop counter 0; both fire, N-8 labels) (T5A)
    ("a8fb5d3f", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3, set.ge.f32.u32 (T5C)
    ("a9d53ab8", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // 3702-N5, and 0xffff (13.0.88 -O3 PRMT R7, RZ, 0x88, R2, session 39)
    ("aaf14dc6", "fuzz-h200-3601-o-shift16-by-cnot-amount"),              // O: shr.u16 (13.0.88: SHF by R0 unwritten)
    ("b77bce67", "fuzz-h100-j-branch-constant-splat"),                    // KNOWN J narrowed, one addend %tix (T5B)
    ("d00d91c5", "fuzz-h100-j-branch-constant-splat"),                    // J narrowed: K + 0 (13.0.88: VIADD RZ, 0x0)
    ("d69964c3", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D, ld.shared half, st.shared.v4 pack (T5C)
    ("e141eb0d", "fuzz-h200-g-shr-s16-by-16"), // KNOWN G through a mov unpack, no shift (T5B)
    ("e3912b9a", "fuzz-h200-3601-o-shift16-by-cnot-amount"), // O: shr.u16 (13.0.88: SHF by R0 unwritten)
    ("ee3b1f4d", "fuzz-h200-3301-n1-shift16-immediate-low-half"), // KNOWN 3301-N1, blocked by N-8 over-firing (T5B)
    ("f33d36d7", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D through a copy, non-zero pair (T5C)
    ("f4025e70", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D, e5m2x2 pair (T5C)
    ("f7406f82", "fuzz-h200-3802-t5a1-pack-of-nan-cvt-and-constant-dropped"), // NEW T5A-1: cvt.pack.sat of a constant NaN conversion and constant c dropped (T5A)
    ("fd2d1cc8", "fuzz-h100-j-branch-constant-splat"), // KNOWN J narrowed, .s16x2 read by cvt.s64.s32 (T5A)
    ("ff1a71c7", "fuzz-h100-j-branch-constant-splat"), // KNOWN J branch splat, min.u16x2 (T5B)
];

/// The JIT crash of seed 3802 (58dc4938: the program of the word finding f7406f82, T5A-1; T5A.md)
/// is T5A-1's crash entry by its id: a crash has no shape and no emulation.
#[test]
fn the_seed_3802_jit_crash_is_t5a1() {
    #[derive(serde::Deserialize)]
    struct Stored {
        id: String,
        signature: Signature,
    }
    let path = repo().join("corpus/findings/fuzz-h200-3802/findings-labelled-new.json");
    let findings: Vec<Stored> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let crash = findings.iter().find(|f| f.id.starts_with("58dc4938")).unwrap();
    assert_eq!(crash.signature.class, FindingClass::Crash);
    let name = known.matches(&crash.signature).map(|k| k.name.as_str());
    assert_eq!(name, Some("fuzz-h200-3802-t5a1-pack-of-nan-cvt-and-constant-jit-crash"));
}

/// The word findings of the seed-3901 campaign (session 39, build 91e2ce0; corpus/findings/fuzz-h200-3901/:
/// signatures and mismatching words in `findings-labelled-new.json`, the stored cases in `cases/`;
/// traces in `trace/`), labelled again now.
#[test]
fn the_seed_3901_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-3901", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_3901_LABELS));
}

/// What each word finding of seed 3901 is labelled now.
const SEED_3901_LABELS: [(&str, &str); 19] = [
    ("09c3068e", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3, in the form trace T2 (T6B)
    ("0e470a25", "fuzz-h200-3201-n8-unsigned-below-zero-of-set"),          // KNOWN 3201-N8 (T6C)
    ("0f02a559", "fuzz-h200-g-shr-s16-by-16"),                             // KNOWN G (T6B)
    ("1391020a", "fuzz-h200-3601-o-shift16-by-cnot-amount"),               // KNOWN O (T6A)
    ("17b9ea5e", "fuzz-h200-3601-o-shift16-by-cnot-amount"),               // KNOWN O (T6C)
    ("2a67c43e", "fuzz-h100-j-branch-constant-splat"),                     // KNOWN J (T6C)
    ("681ef45e", "fuzz-h200-3301-n3-set-round-trip-through-float"),        // KNOWN 3301-N3 (T6A)
    ("92812601", "fuzz-h200-3702-n3-join-of-minus-one-and-one-f32-merged"), // KNOWN 3702-N3 (T6A)
    ("9f78d433", "fuzz-h200-d-tf32-of-packed-half"),                       // KNOWN D (T6C)
    ("a1c204af", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN, 3501-N3's wrong value with 3701-C1N2's trigger (T6C)
    ("a2febec8", "fuzz-h200-3802-6e4d6e41-fp8-unpack-of-zero-extended-top-half-immediate"), // KNOWN 3802-6e4d6e41 (T6A)
    ("ae678c32", "fuzz-h100-j-branch-constant-splat"),                     // KNOWN J (T6A)
    ("afd53851", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"),  // KNOWN 3702-N5 (T6B)
    ("c1fd74f1", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"),  // KNOWN 3702-N5 (T6A)
    ("dbb0f09c", "fuzz-h200-3601-n1-sub-cc-of-mul-hi-zero-borrows"),       // KNOWN 3601-N1 (T6A)
    ("e685156a", "fuzz-h200-3702-n4-byte-of-vector-load-u32-cvt-converts-signed"), // KNOWN 3702-N4 (T6B)
    ("ec047aa1", "fuzz-h200-3702-n2-lop3-merged-into-xor-reads-x"),        // KNOWN 3702-N2 (T6B)
    ("f1997773", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"),  // KNOWN 3702-N5 (T6B)
    ("fd7cf510", "fuzz-h200-g-shr-s16-by-16"),                             // KNOWN G (T6C)
];

/// The word findings of the seed-3902 campaign (session 39, build 91e2ce0; corpus/findings/fuzz-h200-3902/:
/// signatures and mismatching words in `findings-labelled-new.json`, the stored cases in `cases/`;
/// traces in `trace/`), labelled again now.
#[test]
fn the_seed_3902_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-3902", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_3902_LABELS));
}

/// What each word finding of seed 3902 is labelled now.
const SEED_3902_LABELS: [(&str, &str); 17] = [
    ("05c914bf", "fuzz-h100-j-branch-constant-splat"), // KNOWN J (T6D)
    ("1ab3812a", "fuzz-h200-3702-n4-byte-of-vector-load-u32-cvt-converts-signed"), // KNOWN 3702-N4 (T6D)
    ("2bdcc7c7", "fuzz-h100-j-branch-constant-splat"), // KNOWN J, narrowed (T6E)
    ("5a4c85c6", "fuzz-h200-d-tf32-of-packed-half"),   // KNOWN D (T6E)
    ("5e8d798d", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D (T6D)
    ("60948fcb", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3's fold (T6D)
    ("75dac7ed", "fuzz-h100-j-branch-constant-splat"), // KNOWN J (T6D)
    ("9a95803a", "fuzz-h200-f-negation-overflow"),     // KNOWN F (T6E)
    ("a3caccc7", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // KNOWN 3702-N5 (T6E)
    ("bcabb8af", "fuzz-h200-f-negation-overflow"),     // KNOWN F (T6D)
    ("d605bf4d", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // KNOWN 3702-N5 (T6D)
    ("df546b5a", "fuzz-h200-3602-n2-neg-of-set-f32-halves-read-as-boolean"), // KNOWN 3602-N2's float −1.0: N2's xor.b16 of the halves beside an `st.s16` of a half (`FSEL R0, RZ, -1, !P0`; T6E, session 40: left new); emulated in session 62 (helper mc, T62C in corpus/findings/fuzz-h200-6201/trace/: `halves_in_logic_and_stored`)
    ("e99092f5", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"),    // KNOWN 3702-N5 (T6D)
    ("f7020e9e", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"),   // KNOWN 3701-N-D (T6E)
    ("f860a7e5", "fuzz-h200-3601-o-shift16-by-cnot-amount"),                 // KNOWN O (T6E)
    ("fa039778", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"),    // KNOWN 3702-N5 (T6D)
    ("fc25f5c6", "fuzz-h200-3902-fc25f5c6-bitwise-of-cnot-half-cvt-folded-as-number"), // NEW (T6E): its own entry
];

/// The word findings of the seed-3903 campaign (session 39, build 91e2ce0; corpus/findings/fuzz-h200-3903/:
/// signatures and mismatching words in `findings-labelled-new.json`, the stored cases in `cases/`;
/// traces in `trace/`), labelled again now.
#[test]
fn the_seed_3903_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-3903", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_3903_LABELS));
}

/// What each word finding of seed 3903 is labelled now.
const SEED_3903_LABELS: [(&str, &str); 15] = [
    ("062bc61c", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D (T6F)
    ("14a3a4b4", "fuzz-h200-f-negation-overflow"),                         // KNOWN F (T6G)
    ("1de51f3f", "fuzz-h200-3702-n3-join-of-minus-one-and-one-f32-merged"), // KNOWN 3702-N3 (T6G)
    ("34d36df1", "fuzz-h200-3801-n3-hadd2-sat-pair-reads-guarded-overwrite"), // KNOWN 3801-N3 (T6F)
    ("43d72870", "fuzz-h200-a-narrow-store-converts"),                     // KNOWN A (T6F; N-7 narrowed)
    ("4483ae72", "fuzz-h200-3903-4483ae72-add-of-cnot-funnel-shift-negated-in-lea-hi"), // NEW (T6F): its own entry
    ("60d48019", "fuzz-h200-3201-n7-bfe-s32-past-msb"),                    // KNOWN N-7 (T6F)
    ("7e601e7a", "fuzz-h200-3702-n3-join-of-minus-one-and-one-f32-merged"), // KNOWN 3702-N3 (T6F)
    ("972eb062", "fuzz-h200-3201-n7-bfe-s32-past-msb"),                    // KNOWN 3201-N7 (T6G)
    ("97412e12", "fuzz-h100-m-f16-mask-dropped"),                          // KNOWN M (T6F)
    ("b4cd7e34", "fuzz-h200-3702-n1-setp-eq-of-min-max-reads-selection"),  // KNOWN 3702-N1 (T6F)
    ("cb17a684", "fuzz-h100-j-branch-constant-splat"),                     // KNOWN J (T6F)
    ("dae791a1", "fuzz-h200-b-f32-shift-amount"),                          // KNOWN B (T6F; M narrowed)
    ("dd8d148c", "fuzz-h200-3301-n4-sat-cvt-of-byte-bfe-signed"),          // KNOWN 3301-N4 (T6G)
    ("debc8a69", "fuzz-h100-j-branch-constant-splat"),                     // KNOWN J (T6F)
];

/// Seeds 4001–4003 (session 40, build b8b3f84; corpus/findings/fuzz-h200-400N/): every word
/// finding the campaigns labelled new, labelled again now; each row's comment is its trace
/// verdict (trace/T7A–T7H.md).
#[test]
fn the_seed_4001_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4001", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4001_LABELS));
}

/// What each word finding of seed 4001 is labelled now.
const SEED_4001_LABELS: [(&str, &str); 6] = [
    ("15b21628", "new"), // KNOWN mechanism of sass-cctl-under-unwritten-predicate, a PRMT reader and a wrong word; no emulation (T7B)
    ("375479fd", "fuzz-h200-3201-n7-bfe-s32-past-msb"), // KNOWN N-7: a known `a` with a backward branch between still folds (T7A)
    ("423e94d2", "fuzz-h200-3201-n7-bfe-s32-past-msb"), // KNOWN N-7: start known from a branch fact (T7A)
    ("7c009de1", "fuzz-h200-g-shr-s16-by-16"),          // KNOWN G unpack: a byte unpack of cvt.u32.u8 (T7A)
    ("9e62a918", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // KNOWN 3702-N5: a mov.b16 byte unpack reader (T7B)
    ("ef73cb67", "fuzz-h200-g-shr-s16-by-16"), // KNOWN G unpack: a byte unpack (Unpack(4)) of cvt.s32.u16 (T7A)
];

/// Seed 4002's word findings (see seed 4001's test).
#[test]
fn the_seed_4002_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4002", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4002_LABELS));
}

/// What each word finding of seed 4002 is labelled now.
const SEED_4002_LABELS: [(&str, &str); 13] = [
    ("0aa7c9e7", "fuzz-h200-3602-n4-s8-round-trip-through-64-sign-extends-32"), // KNOWN 3602-N4: a mad.hi.u16 reader (T7E)
    ("12e77443", "fuzz-h200-3701-c1n2-cvt-of-set-f32-converts-1-beside-xor-of-set"), // KNOWN 3701-C1N2: a .u32 cvt and a .u16 set (T7C)
    ("38604c4d", "fuzz-h200-3201-n7-bfe-s32-past-msb"), // KNOWN N-7: a known `a` across bar.sync still folds (T7E)
    ("73c13b6f", "fuzz-h200-3702-n1-setp-eq-of-min-max-reads-selection"), // KNOWN 3702-N1: max with an immediate, K in another register (T7D)
    ("9ebbecf8", "fuzz-h100-l-cvt-s64-u32-sign-extends"),                 // KNOWN L: shl.b64 by 0 (T7D)
    ("a1b4d60b", "fuzz-h200-3301-n4-sat-cvt-of-byte-bfe-signed"), // KNOWN 3301-N4 through a sign-extended vector byte (T7E)
    ("a8402534", "fuzz-h200-3702-n4-byte-of-vector-load-u32-cvt-converts-signed"), // KNOWN 3702-N4: an .f64 destination (T7E)
    ("b521bf7f", "new"), // KNOWN 3201-N-5: non-deterministic, a read of a never-written R9 (T7C)
    ("cd70f198", "fuzz-h200-3602-n4-s8-round-trip-through-64-sign-extends-32"), // KNOWN 3602-N4: a cvt.s64.s16 first (T7D)
    ("d4a6b86d", "fuzz-h200-3301-n3-set-round-trip-through-float"), // KNOWN 3301-N3 truncation form, a set.ge.u32.s16 reader (T7C)
    ("d82eb12b", "fuzz-h200-3702-n3-join-of-minus-one-and-one-f32-merged"), // KNOWN 3702-N3: an arm with two writes, listed as not emulated (T7D)
    ("e31f01ee", "fuzz-h100-m-f16-mask-dropped"),                           // KNOWN M: a bf16 F2FP producer (T7C)
    ("fd433a02", "new"), // KNOWN 3801-N3: a path without cvt.bf16 (shape-only entry) (T7E)
];

/// Seed 4003's word findings (see seed 4001's test).
#[test]
fn the_seed_4003_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4003", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4003_LABELS));
}

/// What each word finding of seed 4003 is labelled now.
const SEED_4003_LABELS: [(&str, &str); 11] = [
    ("0c35d334", "fuzz-h200-4003-0c35d334-shl-b64-of-two-constant-select-masked"), // NEW: shl.b64 by an immediate >= 64 folded into the arms of a select of two constants as c << (k & 63) (T7F)
    ("139c0307", "fuzz-h200-3601-n1-sub-cc-of-mul-hi-zero-borrows"), // KNOWN 3601-N1: the mul.hi result has two readers (T7F)
    ("2fb09e8f", "fuzz-h200-3701-c1n2-cvt-of-set-f32-converts-1-beside-xor-of-set"), // KNOWN 3701-C1N2: a .s32 set, an xor.b64 of its cvt as trigger (T7H)
    ("4019c7cf", "fuzz-h200-3601-n1-sub-cc-of-mul-hi-zero-borrows"), // KNOWN 3601-N1: two readers, .u32 (T7F)
    ("5ddee562", "fuzz-h200-3501-n2-shl-b64-chain-folded-into-lea"), // KNOWN 3501-N2: the chain is the addend of a mad.wide of constants (T7F)
    ("a9e9f24e", "fuzz-h200-3201-n7-bfe-s32-past-msb"), // KNOWN 3201-N7: a known `a` across shfl.sync/bar.sync still folds (T7F)
    ("b9524b6f", "fuzz-h100-m-f16-mask-dropped"),       // KNOWN M: a cvt.u8.s16 mask of an f16 cvt (T7H)
    ("baacdaa3", "new"),                                // KNOWN 3201-N-5 as a value: no emulation (T7F)
    ("bb2b2b42", "fuzz-h200-3702-n4-byte-of-vector-load-u32-cvt-converts-signed"), // KNOWN 3702-N4 with a bfe.s32 0,16 producer (T7H)
    ("ce007cb2", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3 with a cnot.b64 trigger, no set (T7H)
    ("e6bab329", "new"), // KNOWN N-6 seen as a value (UPRMT of a never-written uniform) (T7H)
];

/// Seed 4101 (session 41, build d612b1d, session 40's tip; corpus/findings/fuzz-h200-4101/): the
/// eight word findings the campaign labelled new, labelled again now; each row's comment is its
/// trace verdict (trace/T8x1.md, T8x.md).
#[test]
fn the_seed_4101_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4101", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4101_LABELS));
}

/// What each word finding of seed 4101 is labelled now.
const SEED_4101_LABELS: [(&str, &str); 8] = [
    ("1e6e819c", "fuzz-h200-4101-1e6e819c-xor-of-set-mask-halves-tested-over-merged-half"), // KNOWN mechanism of sass-predicate-of-half-merge-with-unwritten-half (7ec10586) as a wrong word, its value emulation (T8x1; helper e1)
    ("26f4113b", "fuzz-h200-3201-n11-skipped-set-sign-extends"), // KNOWN N-11: the old word holds a packed bf16 NaN half (T8x)
    ("350b849f", "fuzz-h200-g-shr-s16-by-16"), // KNOWN G: a mov.b64 unpack of a 64-bit zero extension (T8x)
    ("6ab8329e", "fuzz-h200-3801-n1-mad-hi-chain-loses-links"), // KNOWN 3801-N1 written as mul.hi + add (shape-only entry) (T8x)
    ("97efc117", "fuzz-h200-3801-n4-half-beside-e4m3x2-pair-read-as-stack-pointer"), // KNOWN 3801-N4: another reader and consumer (shape-only entry) (T8x1)
    ("ac4a6049", "fuzz-h200-f-negation-overflow"), // KNOWN F: cvt.sat.u16.s32 of neg.s32 (T8x1)
    ("cd71a421", "fuzz-h200-f-negation-overflow"), // KNOWN F: cvt.sat.s8.s32 of neg.s32 (T8x1)
    ("f1fe2a66", "fuzz-h200-g-shr-s16-by-16"),     // KNOWN G: a mov.b64 unpack of a 64-bit zero extension (T8x)
];

/// Seed 4102 (session 41, final build 2cbdab3; corpus/findings/fuzz-h200-4102/): the word
/// findings the campaign labelled new, labelled again now; comments are the trace verdicts
/// (trace/T9y1.md, T9y2.md).
#[test]
fn the_seed_4102_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4102", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4102_LABELS));
}

/// What each word finding of seed 4102 is labelled now.
const SEED_4102_LABELS: [(&str, &str); 8] = [
    ("24d5ace8", "fuzz-h200-4101-1e6e819c-xor-of-set-mask-halves-tested-over-merged-half"), // KNOWN mechanism of 7ec10586 (a 32-bit predicate test of a merged half) with a live stale half, by its value emulation (T9y2; helper e1)
    ("6d0262f6", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3: a 0/1 from a float cvt of a set (T9y2)
    ("6d10fa02", "fuzz-h200-f-negation-overflow"), // KNOWN F: cvt.u32.u16 between abs.s16 and the f32 cvt (T9y2)
    ("78ee4405", "fuzz-h200-g-shr-s16-by-16"),     // KNOWN G: a ld.b8 byte (T9y2)
    ("7a4fe276", "fuzz-h200-4102-7a4fe276-add-cc-chain-carry-of-reassociated-lea"), // NEW: add.cc chain fused into LEA RZ, P0 (T9y1); its own entry, by id
    ("87db6a36", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3: an .f64 cnot source (T9y1)
    ("9fdf9221", "fuzz-h200-3501-n2-shl-b64-chain-folded-into-lea"), // KNOWN 3501-N2: mul.lo.u64 by 2^k steps (T9y1)
    ("c9b123b1", "fuzz-h200-3802-6e4d6e41-fp8-unpack-of-zero-extended-top-half-immediate"), // KNOWN 6e4d6e41: a 32-bit word 0 by known bits (T9y1)
];

/// Seed 4103 (session 41; the rerun on 54f1f7b, whose first findings are those of the run on
/// 2cbdab3 that stalled at 129 s; corpus/findings/fuzz-h200-4103/): the word findings labelled
/// new, labelled again now (trace/T9y3.md, T9y4.md, T10z2.md).
#[test]
fn the_seed_4103_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4103", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4103_LABELS));
}

/// What each word finding of seed 4103 is labelled now.
const SEED_4103_LABELS: [(&str, &str); 9] = [
    ("019cca90", "fuzz-h200-3701-c3n3-setp-eq-one-of-set-tests-the-set"), // KNOWN 3701-C3-3: a set.eq consumer (T9y4)
    ("01d0ba77", "fuzz-h200-3701-c3n2-shl-b64-of-product-by-64-dropped"), // KNOWN 3701-C3-2: a moved multiplier (T10z2)
    ("13a84319", "fuzz-h200-3701-c3n2-shl-b64-of-product-by-64-dropped"), // KNOWN 3701-C3-2: a moved multiplier (T9y4)
    ("166f4fba", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: identical byte packs share a register (T9y3)
    ("197cef57", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: a .v2.b8 element (T9y3)
    ("4ad93098", "fuzz-h100-m-f16-mask-dropped"), // KNOWN M: a .relu e5m2x2 producer (T10z2; emulated since session 42)
    ("bfed5396", "fuzz-h200-4103-bfed5396-joined-0x7fffffff-high-half-read-as-0xffff"), // NEW: its own entry, emulated (T9y4)
    ("c3105f61", "fuzz-h200-3602-n4-s8-round-trip-through-64-sign-extends-32"), // KNOWN 3602-N4: a cvt.s32.u16 reader (T9y3)
    ("efcd1a77", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: a .v2.b8 element (T9y3)
];

#[test]
fn the_seed_4201_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4201", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4201_LABELS));
}

/// What each word finding of seed 4201 (session 42's final build, b3b983a) is labelled now.
const SEED_4201_LABELS: [(&str, &str); 7] = [
    ("17b32162", "fuzz-h200-4201-17b32162-loop-carried-negation-of-max-s32-held-invariant"), // NEW: its own entry, by id (T12a1)
    // KNOWN 7ec10586: the set's other reader is a pack of one half twice (T12a2)
    ("76cb49f0", "fuzz-h200-4101-1e6e819c-xor-of-set-mask-halves-tested-over-merged-half"),
    ("ca25d7b2", "fuzz-h200-3604-n3-unsigned-loop-exit-test-counted-signed"), // KNOWN 3604-N3: exit constant below 2^31, step 2^31 (T12a2; widened session 43)
    ("dc755789", "fuzz-h200-4101-1e6e819c-xor-of-set-mask-halves-tested-over-merged-half"), // KNOWN 7ec10586: a pack of one half twice (T12a1)
    ("e63ae4e6", "fuzz-h200-4101-1e6e819c-xor-of-set-mask-halves-tested-over-merged-half"), // KNOWN 7ec10586: a pack of one half twice (T12a2)
    ("f3426d51", "fuzz-h200-3602-n4-s8-round-trip-through-64-sign-extends-32"), // KNOWN 3602-N4: a bfe.u64 of a constant as the producer (T12a2)
    ("f863ba79", "fuzz-h200-3602-n2-neg-of-set-f32-halves-read-as-boolean"), // KNOWN 3602-N2: sub.s32 from a moved 0 in place of neg.s32 (T12a1)
];

#[test]
fn the_seed_4202_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4202", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4202_LABELS));
}

/// What each word finding of seed 4202 (session 42's final build, b3b983a) is labelled now.
const SEED_4202_LABELS: [(&str, &str); 12] = [
    ("0320c7c9", "fuzz-h200-3702-n1-setp-eq-of-min-max-reads-selection"), // KNOWN 3702-N1: folding stopped by a label/loop (T12b2)
    ("03ee4476", "fuzz-h200-3602-n4-s8-round-trip-through-64-sign-extends-32"), // KNOWN 3602-N4: a 64-bit or of constants as the source (T12b3)
    ("06b614f9", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3: a cvt.f16.bf16 read by a cnot (T12b2)
    ("2b94552e", "fuzz-h200-3702-n3-join-of-minus-one-and-one-f32-merged"), // KNOWN 3702-N3: the old value a shfl of a moved constant (T12b4; widened session 44)
    ("2bf704ce", "fuzz-h200-3702-c-int-sat-s16-of-u32-cvt-folded-signed"),  // KNOWN 3702-C: .rmi/.rpi (T12b4)
    ("35a05e88", "fuzz-h200-4202-35a05e88-addc-of-deleted-add-cc-reads-stale-carry"), // NEW: its own entry, by id (T12b2)
    ("46739f91", "fuzz-h200-4102-7a4fe276-add-cc-chain-carry-of-reassociated-lea"), // KNOWN 7a4fe276: sub.cc form, id added (T12b3)
    ("a36272a5", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: a guarded cvt.f16.f16 writer (T12b3)
    ("bc46b617", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: a guarded writer (T12b4)
    ("d3e07975", "fuzz-h200-3201-n7-bfe-s32-past-msb"),                    // KNOWN N-7: a bfe.s64 boundary (T12b2)
    ("d438d526", "fuzz-h200-4202-d438d526-mul-lo-s64-by-max-s32-pair-folded-away"), // NEW: its own entry (T12b1); emulated since session 49 (emulate/multiplier_chain_folded_to_its_low_word.rs)
    ("e2e1bdf6", "new"), // KNOWN D: a new effect (a live neighbour half destroyed), not emulable (T12b3)
];

#[test]
fn the_seed_4203_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4203", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4203_LABELS));
}

/// 3501-N3's entry (seed 4203's rows name it through this, keeping their comments in column).
const N3_ID: &str = "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number";

/// What each word finding of seed 4203 (session 42's final build, b3b983a) is labelled now.
const SEED_4203_LABELS: [(&str, &str); 16] = [
    ("00eb007a", "fuzz-h200-3604-n3-unsigned-loop-exit-test-counted-signed"), // KNOWN 3604-N3: exit constant below 2^31 (T12c4; widened session 43)
    ("06aff9fd", "fuzz-h200-3701-c1n2-cvt-of-set-f32-converts-1-beside-xor-of-set"), // KNOWN 3701-C1N2 (+3604-N2's widening): cvt.u64 of a set.f32 rebuilt as 0/1 (T12c2)
    ("16cd6583", "fuzz-h200-3604-n2-widened-set-f32-compared-with-zero"), // KNOWN 3604-N2: a 32-bit compare with 0 and a byte reader (T12c4)
    ("1c2ac943", "fuzz-h200-4203-1c2ac943-chained-shr-s32-of-known-ones-folded-to-zero"), // NEW: its own entry (T12c3), by id until session 50, now by its emulation (emulate/chained_shr_s32_of_known_ones_folded_to_zero.rs)
    ("36b8e382", "fuzz-h200-3301-c-float-sat-of-int-sat"), // KNOWN 3301-C: a float saturation through a truncating cvt (T12c5)
    ("4b68821e", "fuzz-h200-4203-4b68821e-f2i-of-f16-bits-read-as-f32-fused-with-source"), // NEW: its own entry (T12c3), by id until session 51, then by emulate/f2i_of_half_bits_fused_with_float_source.rs
    ("632bd7c5", "fuzz-h200-3801-n1-mad-hi-chain-loses-links"), // KNOWN 3801-N1: a mov between the adds (T12c4; the entry emulated in session 48 (helper h3: emulate/mad_hi_links_dropped_as_repeats.rs))
    ("6a4d050b", "fuzz-h200-4203-6a4d050b-setp-one-of-f32-set-of-wide-source-tests-the-set"), // NEW: its own entry, emulated since session 45 (T12c2)
    ("6ec845c6", "fuzz-h200-3701-c1n2-cvt-of-set-f32-converts-1-beside-xor-of-set"), // KNOWN 3701-C1N2, as 06aff9fd (T12c2)
    ("70cc8774", "fuzz-h200-3602-n4-s8-round-trip-through-64-sign-extends-32"), // KNOWN 3602-N4: a setp.le.u16 reader (T12c5)
    ("7cb7444f", N3_ID), // KNOWN 3501-N3: no set, an and.b64 of the cnot (T12c5)
    ("7ea011df", N3_ID), // KNOWN 3501-N3: no set, an and.b64 of the value with itself (T12c3)
    ("98d8219f", "fuzz-h200-3604-n3-unsigned-loop-exit-test-counted-signed"), // KNOWN 3604-N3: lt/le counting up (T12c4; widened session 43)
    ("bc9d7881", "fuzz-h200-3201-n7-bfe-s32-past-msb"),                       // KNOWN N-7: a bfe.u64 boundary (T12c1)
    ("d6a9319f", "fuzz-h200-3701-c1n2-cvt-of-set-f32-converts-1-beside-xor-of-set"), // KNOWN 3701-C1N2, as 06aff9fd (T12c2)
    ("e0a4f736", "fuzz-h200-g-shr-s16-by-16"), // KNOWN G: a sign-extended byte (ld.s8, cvt.s64.s8) (T12c3)
];

#[test]
fn the_seed_4301_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4301", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4301_LABELS));
}

/// What each word finding of seed 4301 (session 43's final build, 182c5448) is labelled now.
const SEED_4301_LABELS: [(&str, &str); 3] = [
    ("3042780d", "new"), // KNOWN N-5: a lost else-value stored; N-5 has no value emulation (T14x1)
    ("87a7efec", "fuzz-h200-3601-o-shift16-by-cnot-amount"), // KNOWN O: the minuend `and.b32 r, x, 0` not a moved 0 (T14x1)
    ("d78a59b7", "fuzz-h200-b-f32-shift-amount"), // KNOWN B: a set.f32 amount rebuilt at the shift past a deleted loop (T14x1; b_set_f32_rebuilt_at_its_shifts)
];

#[test]
fn the_seed_4302_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4302", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4302_LABELS));
}

/// What each word finding of seed 4302 (session 43's final build, 182c5448) is labelled now.
const SEED_4302_LABELS: [(&str, &str); 5] = [
    ("1b724026", "fuzz-h200-g-shr-s16-by-16"), // KNOWN G: a cvt.s64.s16 of a zero-extended byte (T14x3)
    ("3d132351", "fuzz-h200-3802-6e4d6e41-fp8-unpack-of-zero-extended-top-half-immediate"), // KNOWN 6e4d6e41: the zero word through a mov.b64 pack (T14x2; widened session 43)
    ("84d08552", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: the destroyed reader is the half's 32-bit source (T14x1; widened session 43)
    ("c7c59b39", "fuzz-h200-3702-n2-lop3-merged-into-xor-reads-x"), // KNOWN 3702-N2: xor.b64 of packs, not .b32 (T14x3; widened session 44)
    ("df316674", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: a cvt.rni.u8.f32 writer of the half (T14x2)
];

#[test]
fn the_seed_4303_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4303", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4303_LABELS));
}

/// What each word finding of seed 4303 (session 43's final build, 182c5448) is labelled now.
const SEED_4303_LABELS: [(&str, &str); 8] = [
    ("02990ceb", "fuzz-h200-3501-n2-shl-b64-chain-folded-into-lea"), // KNOWN 3501-N2: a multiply chain by -2^26, not a power of two (T14x4)
    ("29c22ed5", "fuzz-h200-3802-6e4d6e41-fp8-unpack-of-zero-extended-top-half-immediate"), // KNOWN 6e4d6e41: the zero word a min.u64 of constants (T14x2; widened session 43)
    ("31481867", "fuzz-h200-3201-n11-skipped-set-sign-extends"), // KNOWN N-11: the old NaN widened from bf16 (T14x5; fixed session 43)
    ("42ff61b7", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3: a cnot of a cnot before the cvt (T14x5; widened session 44)
    ("67fafce8", "fuzz-h200-3701-c1n2-cvt-of-set-f32-converts-1-beside-xor-of-set"), // KNOWN 3701-C1N2 mechanism, its trigger widened: an if-converted test against 0 after another branch (T14x4; z4, session 44)
    ("a3737354", "fuzz-h200-3602-n4-s8-round-trip-through-64-sign-extends-32"), // cvt.s8.u8 of a learned constant (T14x3; z5)
    ("aeb796d5", "fuzz-h200-g-shr-s16-by-16"), // KNOWN G: the unpacked half in the high word of a mov.b64 pack (T14x3)
    ("c24603c9", "fuzz-h200-3201-n7-bfe-s32-past-msb"), // KNOWN N-7: the start from a shfl with an unread predicate destination (T14x4)
];

#[test]
fn the_seed_4401_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4401", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4401_LABELS));
}

/// What each word finding of seed 4401 (session 44's final build, 07e9e67d) is labelled now.
const SEED_4401_LABELS: [(&str, &str); 8] = [
    ("0c8cc6d5", "fuzz-h200-4401-0c8cc6d5-ftz-copies-drop-f2i-truncation"), // NEW, its own entry by id: two cvt.ftz.f32.f32 copies drop the F2I's .TRUNC (T15t1)
    ("3fdf8ff2", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: a guarded pack (T15t1; v3)
    ("42bfc506", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: the duplicate pack written after (T15t1; v3)
    ("55c9b583", "fuzz-h200-4401-0c8cc6d5-ftz-copies-drop-f2i-truncation"), // NEW, its own entry by id: as 0c8cc6d5 (T15t1)
    ("77454b6b", "fuzz-h200-3301-n3-set-round-trip-through-float"), // KNOWN 3301-N3: the set cut at the cvt's 8-bit width, not the register's (T15t1; fixed session 44)
    ("a3fc1374", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3: the inner cnot of a live cnot pair converted (T15t1; cnot_read_by_a_live_cnot)
    ("dbd161f7", "fuzz-h100-j-branch-constant-splat"), // KNOWN J: the half through a mov.b64 pack and a 4-way unpack (T15t1; j_narrowed_packed_add)
    ("e6f0c29f", "fuzz-h200-3702-n2-lop3-merged-into-xor-reads-x"), // KNOWN 3702-N2: the and's other operand is the lop3's c, not its a (T15t1; lop3_merged_by_its_b_or_c)
];

#[test]
fn the_seed_4402_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4402", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4402_LABELS));
}

/// What each word finding of seed 4402 (session 44's final build, 07e9e67d) is labelled now.
const SEED_4402_LABELS: [(&str, &str); 15] = [
    ("2bec5b10", "fuzz-h200-f-negation-overflow"), // KNOWN F: slct tests abs.s32 of -2^31 (T15t3; fixed session 45)
    ("372615e8", "fuzz-h200-3501-n2-shl-b64-chain-folded-into-lea"), // KNOWN 3501-N2: mad.lo.u64 d, d, c, d steps, dropped past the cut (T15t2; mad_step_of_its_own_addend)
    ("37cc5597", "fuzz-h200-3702-n2-lop3-merged-into-xor-reads-x"), // KNOWN 3702-N2: or of the lop3's b (T15t3; lop3_merged_by_its_b_or_c)
    ("3b6345e6", "new"), // KNOWN 3801-N4: shape-only, no setp/branch arm (T15t3)
    ("63707241", "fuzz-h200-b-f32-shift-amount"), // KNOWN B: a dead earlier load also writes the amount register (T15t2; fixed session 45)
    ("6e21e265", "fuzz-h200-3701-c1n4-bfi-b32-constant-length-mod-32"), // KNOWN 3701-C1N4: the length a shfl of a constant (T15t2; ptxas_constant_operands, session 45)
    ("70efd8ec", "new"), // KNOWN D: a new effect (the pack over a live half), not emulable (T15t2)
    ("a22d4fd5", "fuzz-h200-3701-fc9c9c66-xor-of-set-and-cnot-gives-one-minus"), // KNOWN 3701-fc9c9c66: the operand a sub.u32 from a moved 0 (T15t2; ptxas_constant_operands, session 45)
    ("ab08e584", "fuzz-h200-3702-n2-lop3-merged-into-xor-reads-x"), // KNOWN 3702-N2: c repeats b (T15t3; lop3_merged_by_its_b_or_c)
    ("b6005079", "fuzz-h200-3702-n2-lop3-merged-into-xor-reads-x"), // KNOWN 3702-N2: or of the lop3's b (T15t3; lop3_merged_by_its_b_or_c)
    ("ba4f6f03", "fuzz-h200-4402-ba4f6f03-sat-s8-of-cnot-clamps-negated-mask"), // NEW, its own entry, emulated since session 46: cvt.sat.s8/s16.u32 of cnot.b32 clamps the negation (T15t2; sat_s8_s16_of_cnot_clamps_negated_mask)
    ("c58b70c2", "fuzz-h200-4203-6a4d050b-setp-one-of-f32-set-of-wide-source-tests-the-set"), // KNOWN 6a4d050b: a set.f32.s64 source, now emulated (T15t3; setp_one_of_f32_set_of_wide_source)
    ("c825e5ab", "fuzz-h100-j-branch-constant-splat"), // KNOWN J: the half through mov.b64 packs (T15t3; j_narrowed_packed_add)
    ("c9984f49", "new"), // KNOWN N-5: the lost else-value's register holds a pointer, nothing flagged (T15t2)
    ("d1611e55", "fuzz-h200-3201-n11-skipped-set-sign-extends"), // KNOWN N-11: -O3 drops a cvt.f32.f32, the NaN's bits kept (T15t2; fixed session 45)
];

#[test]
fn the_seed_4403_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4403", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4403_LABELS));
}

/// What each word finding of seed 4403 (session 44's final build, 07e9e67d) is labelled now.
const SEED_4403_LABELS: [(&str, &str); 4] = [
    ("4b87e2ad", "fuzz-h200-3802-6e4d6e41-fp8-unpack-of-zero-extended-top-half-immediate"), // KNOWN 6e4d6e41: the known zero word a shfl of a moved 0 after a bar.sync (T15t5; ptxas_constant_operands, session 45)
    ("79a4bd47", "fuzz-h200-3702-n2-lop3-merged-into-xor-reads-x"), // KNOWN 3702-N2: or of the lop3's b, c repeating a (T15t4/T15t5; lop3_merged_by_its_b_or_c)
    ("d081b377", "fuzz-h200-3201-n11-skipped-set-sign-extends"), // KNOWN N-11: the old value a cvt.f32.f64 NaN (sign and payload kept), now emulated (T15t4)
    ("f08d10ed", "new"), // KNOWN D, a new effect: the tf32-read pack over a live half, not emulable (T15t5)
];

#[test]
fn the_seed_4501_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4501", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4501_LABELS));
}

/// What each word finding of seed 4501 (session 45's final build, 506994b3) is labelled now.
const SEED_4501_LABELS: [(&str, &str); 12] = [
    ("038a8b84", "fuzz-h200-3702-n3-join-of-minus-one-and-one-f32-merged"), // KNOWN 3702-N3: the arm the target of `@!p bra L2; bra L3` (T16t1; emulate/one_armed_if_by_branch_around_a_branch.rs)
    ("363490bb", "new"), // KNOWN D, its new effect: the tf32-read pack written over a live half (T16t2; as 4402's 70efd8ec)
    ("6275f4b8", "fuzz-h200-3501-n2-shl-b64-chain-folded-into-lea"), // KNOWN 3501-N2: a zero-extended base starts the count at the second shift (T16t1; helper x2: emulate/shl_chain_of_zero_extended_base.rs)
    ("8aa15b08", "fuzz-h200-3702-n2-lop3-merged-into-xor-reads-x"), // KNOWN 3702-N2: lop3(4, x, x) swapped by ptxas, c read as 0 (T16t3; lop3_of_its_a_with_b_repeating_c, session 46)
    ("a3e35b85", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: the half a cvt.u8.s64 (T16t3; helper w1: merge_c_relu_u8_of_64_guarded_over_constant.rs)
    ("aa2046a3", "fuzz-h200-3301-n3-set-round-trip-through-float"), // KNOWN 3301-N3 through A's store conversion (T16t1; helper w5: emulate/set_byte_through_float_cvt_at_byte_store.rs)
    ("ac502846", "fuzz-h200-b-f32-shift-amount"), // KNOWN B: a zero test of the set.f32 amount keeps the set as a predicate across a guarded load (T16t1; emulate/set_f32_zero_tested.rs)
    ("ace805b3", "fuzz-h200-4501-ace805b3-compare-of-half-tested-over-stale-upper-half"), // NEW (not sure: maybe one defect with 1e6e819c), its own entry by id (T16t2; the entry emulated after the campaign (helper h2: emulate/compare_of_loaded_half_packed_above_fp8_pair.rs))
    ("b4024b2c", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: a .relu pair (T16t3; helper w1); its traced -O3 listing has no F2I, so A's witness keeps A out
    ("c007a8ac", "new"), // KNOWN 3701-N-D, another value: the half read from a low half reused for another value (T16t3)
    ("cb86bb27", "fuzz-h200-3604-n3-unsigned-loop-exit-test-counted-signed"), // 2^26 + 1 signed trips of a shifted-out body (T16t2; session 46)
    ("db13d0ac", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3: the 0/1 carried through a second cvt of a cnot source (T16t2)
];

#[test]
fn the_seed_4502_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4502", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4502_LABELS));
}

/// What each word finding of seed 4502 (session 45's final build, 506994b3) is labelled now.
const SEED_4502_LABELS: [(&str, &str); 2] = [
    ("5b50d443", "fuzz-h200-3903-4483ae72-add-of-cnot-funnel-shift-negated-in-lea-hi"), // KNOWN 4483ae72: the funnel shift's high word the cnot itself (T16t4; emulate/cnot_funnel_rotate_in_lea_hi.rs)
    ("d288306a", "fuzz-h200-3702-n2-lop3-merged-into-xor-reads-x"), // KNOWN 3702-N2: a moved constant as the lop3's a, c (T16t4; lop3_of_one_folded_constant, session 46)
];

#[test]
fn the_seed_4503_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4503", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4503_LABELS));
}

/// What each word finding of seed 4503 (session 45's final build, 506994b3) is labelled now.
const SEED_4503_LABELS: [(&str, &str); 5] = [
    ("59c56fd7", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3: the number 1 carried through a sign-extending cvt.u32.s16 (T16t5)
    ("80274cbb", "fuzz-h200-4503-80274cbb-u32-round-trip-folded-into-last-conversion"), // NEW, its own entry, emulated since session 46: the u32 round trip folded into its last cvt (T16t5; u32_round_trip_folded_into_last_cvt)
    ("99b131f4", "fuzz-h100-l-cvt-s64-u32-sign-extends"), // KNOWN L: the shift amount a loop counter, unrolled (T16t5; helper x2: emulate/l_shift_by_an_amount_ptxas_knows.rs)
    ("d2270cfc", "fuzz-h200-3702-n6-shift16-by-ftz-u32-cvt-flush-dropped"), // KNOWN 3702-N6 through 3702-C's fused cvt, .ftz dropped (T16t5; helper x4: emulate/ftz_dropped_in_fused_sat16_cvt.rs); its traced -O3 listing has no F2I, so A's witness keeps A out, as in the campaign
    ("dd2be460", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: a guarded cvt of a loaded value over a moved 0 (T16t5; helper w1: merge_c_relu_u8_of_64_guarded_over_constant.rs)
];

#[test]
fn the_seed_4601_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4601", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4601_LABELS));
}

/// What each word finding of seed 4601 (session 46's final build, 02340a4c) is labelled now.
const SEED_4601_LABELS: [(&str, &str); 12] = [
    ("1a937110", "fuzz-h200-4601-1a937110-mul-hi-by-one-of-loaded-half-read-as-low-half"), // NEW: mul.hi.u16 by 1 of a loaded byte read as its low half by an f16 reader (T17t1; 13.0.88 and 13.5; its entry with an emulation after the campaign (helper z1: emulate/mul_hi_by_one_of_loaded_half_read_as_low_half.rs))
    ("35e392ba", "fuzz-h200-4201-17b32162-loop-carried-negation-of-max-s32-held-invariant"), // KNOWN 17b32162 (by id only): the negation of 0x7fffffff in a loop held invariant (T17t1; the entry emulated after the campaign (helper g3: emulate/loop_carried_negation_of_max_s32_held_invariant.rs))
    ("48a9855d", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // KNOWN 3702-N5: the constant b kept in a register by a second prmt, narrowed like a loaded value (T17t2; helper g1: emulate/prmt_constant_b_held_in_a_register.rs)
    ("5417329a", "fuzz-h200-4201-17b32162-loop-carried-negation-of-max-s32-held-invariant"), // KNOWN 17b32162 (by id only), no branch before the loop; 13.5 wrong too (T17t2; the entry emulated after the campaign (helper g3: emulate/loop_carried_negation_of_max_s32_held_invariant.rs))
    ("664e95be", "fuzz-h200-3602-n4-s8-round-trip-through-64-sign-extends-32"), // KNOWN 3602-N4: a mul.wide.u16 reader (the emulation takes mul.hi/mad.hi) (T17t1; helper g4: emulate/wide16_product_of_s8_round_trip.rs)
    ("746b5bde", "fuzz-h200-3702-n7-shuffle-of-bfly-predicate-choice-dropped"), // KNOWN 3702-N7 (by id only): the bfly predicate taken as uniform deletes a later shuffle (T17t1; fairly sure; helper g1: its emulated consequence, emulate/shuffle_of_a_value_selected_by_a_bfly_predicate.rs)
    ("b6ac6d50", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // KNOWN 3702-N5: a byte-unpack reader narrowed to its one live byte (T17t2; helper g1: emulate/low_byte_of_an_unpack_narrowed_alone.rs)
    ("caae8b2b", "fuzz-h100-n-cvt-u8-s8-of-f16-dropped"), // KNOWN N: the guarded cvt.u8.s8 dropped, its source an ld.s8 (the emulation wants an f16 producer) (T17t1; helper g2: emulate/cvt_u8_into_its_copy_under_their_compare.rs)
    ("cf023b23", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: c0 unpacked from h0 before the pack, taken from h0's register after the merge (T17t2; helper g2: emulate/merge_c_low_byte_unpacked_before_pack.rs)
    ("cf337f2a", "fuzz-h200-3301-n3-set-round-trip-through-float"), // KNOWN 3301-N3 through A's store conversion, as 4501's aa2046a3 (T17t2; set_byte_through_float_cvt_at_byte_store.rs)
    ("d1299fe9", "fuzz-h200-3501-n2-shl-b64-chain-folded-into-lea"), // KNOWN 3501-N2: the chain cut at 32 across an add.s64 d, d, d doubling step (T17t1; helper g4: emulate/shl_chain_through_doubling_add.rs)
    ("f5d8ab7c", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: the pair element a mov.u16 copy of the e4m3x2 cvt (T17t1; helper g2: emulate/merge_c_pair_through_copies.rs)
];

#[test]
fn the_seed_4602_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4602", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4602_LABELS));
}

/// What each word finding of seed 4602 (session 46's final build, 02340a4c) is labelled now.
const SEED_4602_LABELS: [(&str, &str); 11] = [
    ("15e3e364", "fuzz-h200-3701-c1n2-cvt-of-set-f32-converts-1-beside-xor-of-set"), // KNOWN 3701-C1N2: the set.f32 narrowed to a byte through cvt.s16.s32; cvt.s8.s16 (T17t3; helper y3: emulate/byte_of_set_f32_beside_logic_of_a_mask.rs)
    ("18173692", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3 (fairly sure): a live set.eq zero test; the set's bf16 1.0 converted as the number 1 (T17t3; helper y3: emulate/set_truth_through_a_float_cvt_zero_tested.rs)
    ("21c3de6f", "fuzz-h200-3801-n2-sub-of-shuffled-immediate-reversed-in-min-max"), // KNOWN 3801-N2: the shuffle reads a register set by mov.f32 of an immediate (T17t3; helper y1: emulate/shfl_of_a_register_ptxas_knows.rs)
    ("25d80a8d", "fuzz-h200-3801-n2-sub-of-shuffled-immediate-reversed-in-min-max"), // KNOWN 3801-N2: the shuffle reads a register set by mov.b32 of an immediate (T17t3; helper y1: emulate/shfl_of_a_register_ptxas_knows.rs)
    ("592cbe0b", "fuzz-h200-4602-592cbe0b-bfind-64-of-branch-fixed-value-folded-as-32-bit"), // NEW, its own entry by id: bfind.shiftamt.u64 of a branch-fixed value folded as a 32-bit bfind (T17t4; 13.0.88 only)
    ("8d93b13f", "fuzz-h200-4402-ba4f6f03-sat-s8-of-cnot-clamps-negated-mask"), // KNOWN ba4f6f03 (by id only): cvt.sat.s8 of a cnot clamps the negated mask (T17t4; the entry emulated after the campaign (helper y2: emulate/sat_s8_s16_of_cnot_clamps_negated_mask.rs))
    ("97d4bcf7", "new"), // KNOWN 3801-N4 (by shape only): a .relu.e5m2x2 pair, the half read as the stack pointer (T17t4)
    ("af46c5e9", "fuzz-h200-g-shr-s16-by-16"), // KNOWN G: seed 3801's a97764ed kernel with a negative source (T17t3; helper y3: emulate/shr16_of_a_sign_extending_load.rs)
    ("b9890c40", "fuzz-h200-3801-n3-hadd2-sat-pair-reads-guarded-overwrite"), // KNOWN 3801-N3 (fairly sure): the shared F2F result overwritten in place by a guarded load before the paired HADD2.SAT (T17t3; helper g2: emulate/sat_pair_over_a_guarded_cvt_sharing_its_conversion.rs)
    ("c98ee331", "fuzz-h200-3201-n11-skipped-set-sign-extends"), // KNOWN N-11: the skipped set's old value from FADD.SAT converted without the PRMT/IABS step (T17t4; helper g4: emulate/skipped_set_over_saturated_f32.rs)
    ("d5c92b86", "fuzz-h200-4503-80274cbb-u32-round-trip-folded-into-last-conversion"), // KNOWN 80274cbb (by id only): .rpi, .rn, .rmi folded into one F2I.U32.FLOOR (T17t4; the entry emulated after the campaign (helper y2: emulate/u32_round_trip_folded_into_last_cvt.rs))
];

#[test]
fn the_seed_4603_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4603", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4603_LABELS));
}

/// What each word finding of seed 4603 (session 46's final build, 02340a4c) is labelled now.
const SEED_4603_LABELS: [(&str, &str); 6] = [
    ("11183ca8", "fuzz-h200-3701-fc9c9c66-xor-of-set-and-cnot-gives-one-minus"), // KNOWN fc9c9c66: sub.cc.u32 from a folded 0 (the emulation takes sub) (T17t5; helper g4: emulate/sub_cc_from_folded_zero_held_negated.rs)
    ("1e161819", "fuzz-h200-3301-n3-set-round-trip-through-float"), // KNOWN 3301-N3 through A's store conversion, as 4501's aa2046a3 (T17t5; set_byte_through_float_cvt_at_byte_store.rs)
    ("24adc0f8", "fuzz-h200-3604-n3-unsigned-loop-exit-test-counted-signed"), // KNOWN 3604-N3: the counter stored after the loop (T17t5; helper g3: emulate/counter_of_a_signed_count_read_after_the_loop.rs)
    ("38cbad4d", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // KNOWN 3702-N5: the moved constant b kept in a register by a second prmt (T17t5; helper g1: emulate/prmt_constant_b_held_in_a_register.rs)
    ("ad3d4a1a", "fuzz-h200-3701-c3n2-shl-b64-of-product-by-64-dropped"), // KNOWN 3701-C3N2: a factor constant only through xor.b64 (T17t4; helper y1: emulate/product_factor_folded_after_the_product.rs)
    ("e55c2d82", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3: a chain of cnots run by a loop (T17t5; helper g3: emulate/cnot_of_itself_run_twice_by_a_loop.rs)
];

#[test]
fn the_seed_4701_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4701", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4701_LABELS));
}

/// What each word finding of seed 4701 (session 47's final build, dca4c0f2) is labelled now.
const SEED_4701_LABELS: [(&str, &str); 4] = [
    ("024297c0", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3: cvt.f64.bf16 of the cnot's 1 under a live setp.le.s16 of the cnot against 0 (T18u1; cnot_read_by_a_live_cnot.rs wants a cnot reader; helper k2: emulate/cnot_read_by_a_live_zero_setp.rs)
    ("119d98cf", "fuzz-h200-4701-119d98cf-zero-extension-of-converted-half-dropped-at-packed-min"), // NEW, its own entry by id: a cvt.u32.u16 of a converted half dropped, min.u16x2 reads the stale upper half (T18u1; 13.0.88 and 13.5 -O3; closest 4501-ace805b3; the entry emulated after the campaign (helper h2: emulate/packed_min_max_of_zero_extended_converted_half.rs))
    ("64ad9add", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3 (fairly sure): the cnot's 1 carried as 1.0 through cvt.bf16.f16 then cvt.f16.f16 under the logic trigger (T18u1; zero_one_statement takes only integer cvt producers; widened after the campaign (helper h1: emulate/cnot_number_through_a_float_cvt_chain.rs))
    ("72d92e64", "fuzz-h200-f-negation-overflow"), // KNOWN F: cvt.sat.u64.s32 of neg.s32 of -2^31 stores 0x80000000 (T18u1; F's neg.s32 rule wants a narrowing destination; helper k1: emulate/widening_sat_of_a_negation32_keeps_its_minimum.rs)
];

#[test]
fn the_seed_4702_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4702", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4702_LABELS));
}

/// What each word finding of seed 4702 (session 47's final build, dca4c0f2) is labelled now.
const SEED_4702_LABELS: [(&str, &str); 1] = [
    ("6b0fbb52", "new"), // KNOWN 3801-N4 (by shape only): the e4m3x2 pair built in place, converted to tf32 in its register, a later read takes the stack pointer (T18u2; stored unminimized)
];

/// Seed 4702's `unwritten-register` findings (no differing word, so no row above), named by the
/// SASS check run again on their traced ptxas 13.0.88 -O3 listings (`trace/<id8>/`), as triage
/// names them now; their stored signatures predate the check's `never-written-carry` input class.
/// dcfbdafd: `LEA.X R0, R0, 0xffffffff, 0x1, P0`, the carry's producer deleted (T18u2;
/// sass-carry-predicate-never-written.toml, 35a05e88's cause). The variants of its trace: the
/// fused consumers named, the kept producers flag nothing.
#[test]
fn the_seed_4702_sass_findings_are_labelled_by_their_entries() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let trace = repo().join("corpus/findings/fuzz-h200-4702/trace");
    let label = |path: &str| sass_label(&trace.join(path), &known);
    for (path, expected) in SEED_4702_SASS_LABELS {
        assert_eq!(label(path), expected, "{path}");
    }
    // The stored signature (input class empty) is the key of any never-written source of an
    // LEA.X, as seed 3201's 33d46efb is of an IMAD.X (a false alarm): unnamed.
    let stored = Signature::new(FindingClass::UnwrittenRegister, "LEA.X", "", ["ptxas -O3"], "source");
    assert!(known.matches(&stored).is_none());
}

/// What seed 4702's `unwritten-register` kernels (and their trace's variants) are labelled now.
const SEED_4702_SASS_LABELS: [(&str, &str); 10] = [
    ("dcfbdafd/orig.130.O3.sass", "sass-carry-predicate-never-written"), // KNOWN 35a05e88: LEA.X of a deleted borrow (T18u2; was new)
    ("dcfbdafd/reduced.130.O3.sass", "sass-carry-predicate-never-written"),
    ("25ad2263/v6_add_chain.130.O3.sass", "sass-carry-predicate-never-written"), // IMAD.U32.X … P0
    ("25ad2263/v10_mul_for_shl.130.O3.sass", "sass-carry-predicate-never-written"), // IMAD.X … P0
    ("dcfbdafd/s48/35a05e88_v8_carryin.130.O3.sass", "sass-carry-predicate-never-written"), // 35a05e88's own IMAD.X … P0
    ("25ad2263/v3_loaded_r0.130.O3.sass", "gone"),                                          // right: IADD3 RZ, P0 kept
    ("25ad2263/v7_no_dead_load.130.O3.sass", "gone"),
    ("dcfbdafd/s48/35a05e88_v3_unknown.130.O3.sass", "gone"),
    ("dcfbdafd/s48/v1_shr_hi.130.O3.sass", "gone"), // right: LEA.HI.X reads a written P0
    ("9d67dbc9/orig.130.O3.sass", "new STG.E.U16"), // KNOWN sass-descriptor-never-written's cause, read as data (T18u2): not named by a descriptor entry
];

#[test]
fn the_seed_4703_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4703", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4703_LABELS));
}

/// What each word finding of seed 4703 (session 47's final build, dca4c0f2) is labelled now.
const SEED_4703_LABELS: [(&str, &str); 10] = [
    ("08e15a19", "fuzz-h200-3201-n7-bfe-s32-past-msb"), // KNOWN 3201-N7: bfe.s32 start a cvt.s32.u64 of a moved immediate (T18u4; origin_of's Cvt arm never sets known_since; stored unminimized); emulate/known_through_integer_cvt.rs
    ("3b56ff65", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3: seed 4003's trigger, the chain's zero test after a copy and two more cvts (T18u5; stored unminimized; helper k2: emulate/cnot_conversion_tested_down_a_chain.rs)
    ("4b4a61c5", "fuzz-h100-j-branch-constant-splat"), // KNOWN J (fairly sure): a splat constant through shfl.sync folded (T18u4; j_packed_constant.rs counts only folded constants; helper h4: emulate/j_shuffled_constant_folded_beside_a_load.rs)
    ("7b1e7594", "fuzz-h200-3801-n1-mad-hi-chain-loses-links"), // KNOWN 3801-N1 (by shape only): a setp.gt.u16 between mad.hi.s32 and sub.u32 in the loop (T18u5; stored unminimized; the entry emulated after the campaign (helper h3: emulate/mad_hi_links_dropped_as_repeats.rs))
    ("8fe9dbe7", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3: as 3b56ff65 (T18u5; stored unminimized; helper k2: emulate/cnot_conversion_tested_down_a_chain.rs)
    ("a0f3d153", "fuzz-h200-3602-n2-neg-of-set-f32-halves-read-as-boolean"), // KNOWN 3602-N2: the neg's source through a mov.b64 pack and unpack (T18u4; stored unminimized; helper k1: emulate/negation_of_set_f32_through_a_pack_round_trip.rs)
    ("bd1942aa", "fuzz-h200-3201-n11-skipped-set-sign-extends"), // KNOWN N-11: a skipped set.ne.s32.s16 in a 2-trip loop; the emulation admits the sign extension only of an exact old half (T18u5; the oracle is right; stored unminimized); emulate/skipped_set_low_half_through_an_add.rs
    ("c807f7fa", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3: as 3b56ff65 (T18u5; stored unminimized; helper k2: emulate/cnot_conversion_tested_down_a_chain.rs)
    ("c80aa912", "fuzz-h200-4703-c80aa912-min-s32-of-max-u32-by-zero-folded-to-zero"), // NEW, its own entry by id: min.s32(max.u32(x, 0), 0) folded to 0 (T18u4; 13.0.88 -O3 only, 13.5 right)
    ("f788f578", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: d0 = cvt.s64.u16 of h2, made before the pack, read after (T18u4; merge_c_low_byte_unpacked_before_pack.rs takes byte unpacks); emulate/merge_c_widened_byte_half_read_after_pack.rs
];

#[test]
fn the_seed_4801_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4801", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4801_LABELS));
}

/// What each word finding of seed 4801 (session 48's final build, 482d392b) is labelled now.
const SEED_4801_LABELS: [(&str, &str); 9] = [
    ("06218710", "new"), // KNOWN ace805b3 (fairly sure): a setp of two registers over a half merged above an fp8 pair (T19v1; the emulation wants an immediate, a mov pack and h a word's low half)
    ("0a2a189e", "fuzz-h200-g-shr-s16-by-16"), // KNOWN G: shr.s16 by 16 read through shl.b16 by 0 (T19v2; producer_forms_of_o_f_g_m.rs identity16 lacks a shift by 0); helper w5: emulate/g_shift_amounts_ptxas_folds.rs
    ("65e28c38", "fuzz-h200-a-narrow-store-converts"), // KNOWN 3701-N-D: the guarded pack's pair read by cvt.bf16.bf16 (T19v1; cdcda77b's mutant); helper x1: emulate/merge_c_guarded_word_pack_over_constant.rs explains its word (emulate test), but then A (a byte store of the cvt.bf16.bf16, any byte) admits it first, as b4024b2c once
    ("6a674eeb", "fuzz-h200-3702-n2-lop3-merged-into-xor-reads-x"), // KNOWN 3702-N2: lop3(a,a,a,L) then three xors merged into one LOP3, c bound to the second outer xor's operand (T19v1; lop3_chain_merged_into_two_outer_xors.rs, s49)
    ("90c88344", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3 (fairly sure): the cnot's 0/1 read by mul.lo.s16 under the xor trigger (T19v1; no rule for a mul reader, the cvt's source .u64); helper x3: emulate/converted_cnot_read_as_its_number.rs
    ("b698901a", "fuzz-h200-3201-n8-unsigned-below-zero-of-set"), // KNOWN 3201-N8: set.gt.s32.u32 of a 0 made by mul.lo.s32 by 0 (T19v4; N-8's zero test wanted a moved or known 0); helper x3: emulate/zero_folded_from_a_zero_factor.rs
    ("bf035d4e", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: as cdcda77b, stored by st.s8 (T19v1; its mutant); helper x1: emulate/merge_c_guarded_word_pack_over_constant.rs
    ("cdcda77b", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: a guarded mov.b32 {pair, h4} over a moved 0, if-converted, the pair built in h4's register (T19v1); helper x1: emulate/merge_c_guarded_word_pack_over_constant.rs
    ("d41ca4e6", "fuzz-h200-3801-n1-mad-hi-chain-loses-links"), // KNOWN 3801-N1: the links' x and y moved inside the loop, hoisted by ptxas (T19v2; mad_hi_step's unchanged_since); helper w5: emulate/mad_hi_operand_rewritten_alike_each_trip.rs
];

#[test]
fn the_seed_4802_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4802", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4802_LABELS));
}

/// What each word finding of seed 4802 (session 48's final build, 482d392b) is labelled now.
const SEED_4802_LABELS: [(&str, &str); 12] = [
    ("13ad5714", "fuzz-h200-3604-n3-unsigned-loop-exit-test-counted-signed"), // KNOWN 3604-N3: a loop exit test gt.u32 i, 0 from start 4 (T19v2; exit_test rejected gt.u32 against 0); helper x2: emulate/unsigned_gt_zero_exit_counted_from_a_positive_start.rs
    ("1ddf67e8", "fuzz-h200-3701-c1n4-bfi-b32-constant-length-mod-32"), // KNOWN 3701-C1-N4: bfi's len through a mov.b64 pack and unpack (T19v4; word_of_an_unpack_known_from_its_pack.rs, s49)
    ("289df626", "fuzz-h200-4202-d438d526-mul-lo-s64-by-max-s32-pair-folded-away"), // KNOWN d438d526: x + ((x<<1)<<31) + 3 compiled as x + 3, the multiplier 1 + 2^32 folded to its low word (T19v4; s49 variants); emulate/multiplier_chain_folded_to_its_low_word.rs
    ("2f12064d", "fuzz-h200-3801-n1-mad-hi-chain-loses-links"), // KNOWN 3801-N1: as d41ca4e6, a mov of the constant inside the loop (T19v2; mad_hi_step's unchanged_since); helper w5: emulate/mad_hi_operand_rewritten_alike_each_trip.rs
    ("50a1f28c", "fuzz-h200-3701-c1n2-cvt-of-set-f32-converts-1-beside-xor-of-set"), // KNOWN 3701-C1-N2 (fairly sure): the byte of a set's 1.0f rebuilt as SEL 0x1 under a live setp.ne.u32 of a set.f32 word (T19v3; logic_of_a_predicate_mask); helper w2: emulate/set_f32_byte_beside_a_zero_tested_set_f32.rs
    ("568a8359", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: h15 from a mov.b32 pack made before the pair's pack, unpacked after (T19v3; destroyed's made-before forms); helper w3: emulate/merge_c_half_through_a_word_pack_made_before.rs
    ("59da91ec", "fuzz-h200-4802-59da91ec-fp8-pair-packed-in-an-arm-loses-its-own-value-after-the-join"), // NEW, its own entry: an fp8 pair converted and packed in an if arm, h0 read after the join keeps its old value (T19v3; 13.0.88 -O3, 13.5 right); by id until session 51, now by its emulation (emulate/fp8_pair_built_only_in_its_pack.rs)
    ("8a55bf3e", "fuzz-h100-j-branch-constant-splat"), // KNOWN J narrowed: the add's constant the low word of a mov.b64 unpack of a moved immediate (T19v3; writes_folded_constant; helper w4: emulate/j_constant_unpacked_from_a_folded_b64.rs)
    ("95e97556", "fuzz-h200-4501-ace805b3-compare-of-half-tested-over-stale-upper-half"), // KNOWN ace805b3: setp.gt.u16 of a moved 128 and h0 packed above an f16x2-converted pair (T19v3; the emulation wants an immediate second, a .f32 pair, h a low half); helper w1: emulate/compare_of_loaded_half_rebuilt_over_its_fp8_pair_word.rs
    ("cc897994", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3: a cnot chain's 0/1 through cvt.rz.bf16.s64 then cvt.rni.u8.f16 (T19v4; cnot_of_a_cnot looked through int cvts only); helper x3: emulate/converted_cnot_read_as_its_number.rs
    ("e66ac96d", "fuzz-h200-3701-c3n3-setp-eq-one-of-set-tests-the-set"), // KNOWN 3701-C3-3: set.eq.f32.u32 with the moved 1 first (T19v3; compare_with_one_tests_the_set wants the set first; helper w4: emulate/compare_with_one_first_tests_the_set.rs)
    ("f2bfc325", "fuzz-h200-4202-d438d526-mul-lo-s64-by-max-s32-pair-folded-away"), // KNOWN d438d526: six mul.lo.u64 by 0x7fffffff then sub 1 compiled as x - 1 (T19v4; s49 variants); emulate/multiplier_chain_folded_to_its_low_word.rs
];

#[test]
fn the_seed_4803_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4803", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4803_LABELS));
}

/// What each word finding of seed 4803 (session 48's final build, 482d392b) is labelled now.
const SEED_4803_LABELS: [(&str, &str); 9] = [
    ("34986b1e", "fuzz-h200-3701-c1n2-cvt-of-set-f32-converts-1-beside-xor-of-set"), // KNOWN 3701-C1-N2: a set.ge.f32 through cvt.rp.bf16.f32 then cvt.bf16.f16 folded as 1.0 beside the xor of a set (T19v5; set_f32_boolean_through_a_narrowing_float_cvt.rs, s49)
    ("4a65a6da", "fuzz-h200-3801-n3-hadd2-sat-pair-reads-guarded-overwrite"), // KNOWN 3801-N3: the second cvt guarded (@p cvt.rz.sat.f16.f32), h4 merged at a join after it (T19v2; paired returned on a guard); helper x2: emulate/hadd2_sat_pair_with_a_guarded_second_before_a_select.rs
    ("5ba766bb", "new"), // KNOWN 35a05e88 (fairly sure): the deleted add.cc's carry read as a live predicate by LEA.X (T19v4; by id; P0 written here, so not the carry-predicate entry; 98fa0894's family)
    ("78ee1655", "fuzz-h200-3801-n1-mad-hi-chain-loses-links"), // KNOWN 3801-N1: a 4-trip mad.hi loop with x rewritten by a mov of the same constant each trip (T19v5; mad_hi_step's unchanged_since); helper w5: emulate/mad_hi_operand_rewritten_alike_each_trip.rs
    ("7ef87864", "fuzz-h200-3604-n3-unsigned-loop-exit-test-counted-signed"), // KNOWN 3604-N3: a signed count past the bound with a shl.b64 body shifted out (T19v2; shifted_out took only 32-bit shifts); helper x2: emulate/b64_body_shifted_out_within_one_unrolled_pass.rs
    ("98fa0894", "new"), // KNOWN 35a05e88 (fairly sure): as 5ba766bb (T19v4; stored unminimized; one mutant family)
    ("df7cd5e3", "fuzz-h200-4803-df7cd5e3-negation-inside-fused-min-min-dropped"), // NEW, its own entry by id: min(x, min(x, -x)) fused into one VIMNMX3 that reads x for -x (T19v2; 13.0.88 -O3, 13.5 right); emulated since session 51 (emulate/negation_inside_fused_min_max_read_as_its_source.rs)
    ("eb1853bf", "fuzz-h200-4803-eb1853bf-neg-of-subc-into-addc-adds-the-borrow"), // NEW, its own entry by id: neg(subc) folded into an addc's IADD3.X that adds the borrow (T19v5; 13.0.88 and 13.5 -O3); emulated since session 51 (emulate/negated_carry_op_folded_keeps_its_carry_in_added.rs)
    ("f97ff996", "fuzz-h200-g-shr-s16-by-16"), // KNOWN G: shr.s16 by a register holding 16 (T19v5; the G rule wants Imm(16)); helper w5: emulate/g_shift_amounts_ptxas_folds.rs
];

#[test]
fn the_seed_4901_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-4901", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_4901_LABELS));
}

/// What each word finding of seed 4901 (session 49's build, ca167343) is labelled now.
const SEED_4901_LABELS: [(&str, &str); 4] = [
    ("003cb04b", "fuzz-h200-3802-t5a1-pack-of-nan-cvt-and-constant-dropped"), // KNOWN 3802 T5A-1: the fused F2IP of a shuffled constant (beside a dead load) dropped, tid.x stored; 13.5 ICE (T20; of_constant_nan_cvt wanted a moved NaN); helper x8: emulate/f2ip_of_constants_known_once_a_shuffle_folds.rs
    ("55b28c51", "fuzz-h200-3701-c1n2-cvt-of-set-f32-converts-1-beside-xor-of-set"), // KNOWN 3701-C1-N2: the byte of a set.f32 rebuilt as 1 beside a zero test of a register a branch arm writes (T20; byte_of_set_f32's triggers wanted a logic op or a zero-tested set.f32); helper x7: emulate/set_f32_boolean_beside_a_zero_test_split_into_an_arm.rs
    ("f9b030f8", "fuzz-h200-4203-6a4d050b-setp-one-of-f32-set-of-wide-source-tests-the-set"), // KNOWN 6a4d050b: setp.ne s, 1 of a set.f32.s64 folded, and the arm's copy of s reads 1 (T20; reached since session 61, helper lc: setp_one_of_f32_set_of_wide_source/arm_copy_reads_the_pinned_one.rs, seed 6101's 5636968d, the same form)
    ("fdd09fa7", "fuzz-h200-3301-n3-set-round-trip-through-float"), // KNOWN 3301-N3: set → cvt.rn.f16.s32 → cvt.s32.u16 → cvt.rni.u16.f32 folded to the set's word (T20; the rule wanted the float cvt as the last cvt's producer); helper x7: emulate/set_round_trip_through_a_zero_extended_half.rs
];

#[test]
fn the_seed_5001_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-5001", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_5001_LABELS));
}

/// What each word finding of seed 5001 (session 50's campaign build, 4032fee8) is labelled now.
const SEED_5001_LABELS: [(&str, &str); 10] = [
    ("3c82b3dd", "fuzz-h200-4803-df7cd5e3-negation-inside-fused-min-min-dropped"), // KNOWN df7cd5e3: −x a mul.wide.s16 by −1 in a loop of min.s32, by id (T21a); emulated since session 51 (emulate/negation_inside_fused_min_max_read_as_its_source.rs)
    ("3f1783f2", "fuzz-h200-3801-n2-sub-of-shuffled-immediate-reversed-in-min-max"), // KNOWN 3801-N2 against a loaded bound, by its emulation (T21a)
    ("43065759", "new"),                                                             // not traced yet
    ("63aaaadc", "fuzz-h200-5001-63aaaadc-sub-of-evaluated-max-s32-in-an-arm-added"), // NEW: sub of an evaluated 0x7fffffff in an arm added (13.0.88; T21a), by id until session 51, now by its emulation (emulate/negation_of_max_s32_evaluated_in_an_arm_dropped.rs; the id kept as stored_id)
    ("b1ed167e", "fuzz-h200-4802-59da91ec-fp8-pair-packed-in-an-arm-loses-its-own-value-after-the-join"), // KNOWN 59da91ec: the pair built only as the pack word (T21a); by id until session 51, now by its emulation's form B (set-valued: emulate/fp8_pair_built_only_in_its_pack.rs)
    ("b9401452", "fuzz-h200-4203-1c2ac943-chained-shr-s32-of-known-ones-folded-to-zero"), // KNOWN 1c2ac943: or.b32 0xc0000000; shr.s32 1; shr.s32 63 folded to 0 (T21b; the entry was by id); emulate/chained_shr_s32_of_known_ones_folded_to_zero.rs
    ("c4120841", "fuzz-h200-3301-n4-sat-cvt-of-byte-bfe-signed"), // KNOWN 3301-N4: shr.u16 by cvt.u32.s8 of a .v4.s8 element clamped signed, shifts by 0 (T21b; shift16_by_byte_bfe wanted a bfe.s32 amount); emulate/shift16_amount_of_a_sign_extended_element.rs
    ("c6d3ed97", "fuzz-h200-5001-c6d3ed97-carry-of-lea-of-known-zero-folded-set"), // NEW, its own entry: the carry of sub.cc of shl.b32 of a known-bits 0 folded to PT, subc one too high (T21b; 13.0.88 only), by id until session 51, now by its emulation (emulate/carry_of_known_zero_shl_and_constant_set.rs; the id kept as stored_id)
    ("d3cdbd0c", "fuzz-h200-4101-1e6e819c-xor-of-set-mask-halves-tested-over-merged-half"), // KNOWN 1e6e819c: the halves' xor tested over a stale half, read by or.b16 (T21b; the hook took xor.b16 only); emulate/or_and16_of_set_mask_halves_xor_as_predicate.rs
    ("e60617f3", "fuzz-h200-3801-n1-mad-hi-chain-loses-links"), // KNOWN 3801-N1: mul.hi + add.cc.u32 loop of 8, 5 IMAD.HI links (T21b; the rule took add, h unwritten in the loop); emulate/mad_hi_links_of_mul_hi_and_add_cc_in_a_loop.rs
];

/// Seed 5001's `unwritten-register` finding e3a1b383 (trace/T21a.md: `ISETP.NE.U32.XOR` reading a
/// predicate a `LOP3.LUT P0` took over a `PRMT R6, R7, 0x7632, R6` merge with a never-written
/// upper half): its stored signature, and the check run again on its 13.0.88 and 13.5 -O3
/// listings, are 7ec10586's SASS entry.
#[test]
fn the_seed_5001_sass_finding_is_the_predicate_of_a_half_merge() {
    use runner::fuzz::retriage::{label_listing, Label};
    let name = "sass-predicate-of-half-merge-with-unwritten-half";
    let dir = repo().join("corpus/findings/fuzz-h200-5001");
    let stored = stored_ids_and_signatures(&dir.join("findings-labelled-new.json")).findings;
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let e3a1 = stored.iter().find(|f| f.id.starts_with("e3a1b383")).unwrap();
    assert_eq!(known.matches(&e3a1.signature).map(|k| k.name.as_str()), Some(name));
    for version in ["130", "135"] {
        let text = std::fs::read_to_string(dir.join(format!("trace/e3a1b383/orig.{version}.O3.sass"))).unwrap();
        let text = if text.contains(".section") {
            text
        } else {
            format!(".section .text.k,\"ax\",@progbits\n.other k,@\"STO_CUDA_ENTRY STV_DEFAULT\"\nk:\n{text}")
        };
        let label = label_listing(&text, "ptxas -O3", &known).unwrap();
        assert_eq!(label, Label::Known(vec![name.to_string()]), "{version}");
    }
}

#[test]
fn the_seed_5002_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-5002", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_5002_LABELS));
}

/// What each word finding of seed 5002 (session 50's campaign build, 4032fee8) is labelled now.
const SEED_5002_LABELS: [(&str, &str); 8] = [
    ("051c9b8e", "fuzz-h200-3702-n2-lop3-merged-into-xor-reads-x"), // KNOWN 3702-N2: lop3(x, y, y) merged into xor(y, ·) = y ^ L(x, y, 0), x/y the halves of an unpacked cvt.rni.s64 (T21c; same_value did not take r8 as itself through the unpack of a non-pack); helper t3: same_value in emulate/lop3_merged_through_b64_packs.rs
    ("0ffca718", "fuzz-h200-3301-n4-sat-cvt-of-byte-bfe-signed"), // KNOWN 3301-N4: shl.b16 by cvt.u32.s16 of a .v2.s8 element clamped signed (PRMT 0x9991; SEL …, RZ): shifts by 0 (T21c; shift16_by_byte_bfe wanted a bfe.s32); helper t3: emulate/shift16_amount_of_a_sign_extended_field.rs
    ("11a06fef", "fuzz-h200-a-narrow-store-converts"), // labelled A (the first entry whose emulation gives every word: A's any-byte of the byte store; its -O3 listing has F2I.S16/U16, A's witness), already at the campaign build; the trace's verdict: KNOWN C1-N2 + A folded: st.b8 of cvt.rn.f16.s32 of a set.f32 beside the xor trigger is SEL 0x1 (T21c; A's witness F2I absent at -O3, C1-N2 gave 0x3c00's byte 0); helper t3: emulate/set_f32_boolean_converted_at_a_byte_store.rs
    ("3fdedd5c", "fuzz-h200-4803-eb1853bf-neg-of-subc-into-addc-adds-the-borrow"), // KNOWN eb1853bf mirrored: neg(addc) folded into the subc's IADD3.X adds the addc's carry-in (T21c; by id, s50/v1-v9); emulated since session 51 (emulate/negated_carry_op_folded_keeps_its_carry_in_added.rs)
    // KNOWN 3702-N1: setp.eq of max.u16 fused into VIMNMX's "first operand selected", K (h2 = 0) known only through a guarded and whose guard ptxas knows true (T21d; is_k wanted a moved/known K, glue_known rejects guarded glue); helper t4: emulate/min_max_operand_known_through_a_taken_guard.rs
    ("50f6d065", "fuzz-h200-3702-n1-setp-eq-of-min-max-reads-selection"),
    // KNOWN 3701-C1-N2: cvt.rn.bf16.u32 of a set.f32 converts the boolean 1 (bf16 1.0), the set.f32 testing an integer set against 0 in 3201-N8's order (T21d; fuzz3701::cvt had no such trigger); helper t4: emulate/set_f32_boolean_of_a_set_tested_against_zero.rs
    ("85d1dc7a", "fuzz-h200-3701-c1n2-cvt-of-set-f32-converts-1-beside-xor-of-set"),
    // KNOWN 3604-N3: the loop counted signed (1 trip), and p0 read after it is the unsigned test of the last counter (T21d; the emulation made p0 itself false); helper t4: emulate/exit_predicate_read_after_a_signed_count.rs
    ("91b8cb66", "fuzz-h200-3604-n3-unsigned-loop-exit-test-counted-signed"),
    // KNOWN F: set.le.f32.s32 0, abs(-2^31) folded true as abs >= 0 (T21d; F's signed_consumer is setp/shr only); helper t4: emulate/set_of_abs_against_zero_folded_non_negative.rs
    ("f46efbdc", "fuzz-h200-f-negation-overflow"),
];

#[test]
fn the_seed_5003_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-5003", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_5003_LABELS));
}

/// What each word finding of seed 5003 (session 50's campaign build, 4032fee8) is labelled now.
const SEED_5003_LABELS: [(&str, &str); 4] = [
    ("2b9b7b3e", "fuzz-h200-5003-2b9b7b3e-arm-sat-f64-low-word-clamped-by-zero-test"), // NEW, its own entry: an if arm's cvt.sat.f64.f64 read by its low word, beside an unguarded cvt.sat.f64.f64, clamps by `DSETP.EQ x, 0` (low word 0 for x in (0, 1)) (T21e; 13.0.88 -O3 and the JIT, 13.5 right); by id until session 51, now by its emulation (emulate/arm_sat_f64_low_word_clamped_by_zero_test.rs)
    ("841bf645", "fuzz-h200-3602-n4-s8-round-trip-through-64-sign-extends-32"), // KNOWN 3602-N4: cvt.s8.s32 of a shuffled constant folded beside a load kept as its 32-bit extension, cvt.u32.u16 reads 0xffffffbe (T21e; learned_constant_s8 wanted a 16-bit source); helper t5: emulate/s8_of_a_shuffled_constant_folded_beside_a_load.rs
    ("ccde7de9", "fuzz-h200-a-narrow-store-converts"), // labelled A (the first entry whose emulation gives every word: the differing word is a byte store's), already at the campaign build, though the campaign stored it unminimized as new (why the campaign's label differs from this retriage was not looked into; 11a06fef alike); the trace's verdict: KNOWN 4601-1a937110: mad.hi.u16 by a loop-carried `or.b16 1` of a folded 0 of a loaded half, under a folded guard, read as the half at cvt.f16.f16 (T21e; converted_low_half wanted an unguarded producer and an immediate or ptxas_constant 1); helper t5: emulate/mul_hi_by_one_known_at_compile_time.rs
    ("e7e92a13", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // KNOWN 3702-N5: the prmt narrowed at a cvt.s16.u8 reader, the sign of a's byte read from RZ (T21e; zero_extended_bytes_cvt had no cvt.*.u8); helper t5: cvt.{u16,s16,u32,s32,u64}.u8 added there
];

#[test]
fn the_seed_5101_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-5101", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_5101_LABELS));
}

/// What each word finding of seed 5101 (session 51's campaign build, d5c88422) is labelled now.
const SEED_5101_LABELS: [(&str, &str); 8] = [
    ("007db41c", "fuzz-h200-4203-4b68821e-f2i-of-f16-bits-read-as-f32-fused-with-source"), // KNOWN 4b68821e: cvt.rn.bf16.f32 → cvt.u32.u16 → cvt.rzi.s32.f32 fused into F2I.NTZ of x (T22a; the entry was by id); helper t4: emulate/f2i_of_half_bits_fused_with_float_source.rs
    ("204fad1e", "fuzz-h200-3702-n3-join-of-minus-one-and-one-f32-merged"), // KNOWN 3702-N3: the arm's −1 a subc of constants after a borrowing sub.cc, merged with the old 1.0f (T22a; writes_folded_constant took no carry reader); helper t4: emulate/carry_reader_of_constants_with_zero_carry_in.rs
    ("68155629", "new"), // KNOWN ace805b3: h1 above an e4m3x2 pair rebuilt by PRMT 0x7632 over R6 = the output pointer, shr.u16 reads 32 bits (T22a; the emulation takes setp readers and mov packs; the word is the pointer's)
    ("75b5812a", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: the pack beside a .v2.b8 element read back by a forwarded ld.shared.v2.u16 takes the pair (T22a; no load hook until session 54); helper E1: emulate/merge_c_pack_word_read_by_a_forwarded_load.rs over emulate/store_forwarded_load.rs
    ("9033ff50", "fuzz-h200-4203-4b68821e-f2i-of-f16-bits-read-as-f32-fused-with-source"), // KNOWN 4b68821e: cvt.rn.bf16.f32 → cvt.u32.u16 → cvt.rzi.s16.f32 fused into F2I.S16.NTZ of x (T22a; the entry was by id); helper t4: emulate/f2i_of_half_bits_fused_with_float_source.rs
    ("91d52a5c", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // KNOWN 3702-N5: the zero extension a 16-bit ld.shared forwarded from st.shared::cta.b16 of the prmt's cvt.u16 (T22a; session 51's load hook took .shared::cta and .shared for two spaces); helper E1: emulate/prmt_narrowed_at_a_store_forwarded_load.rs over emulate/store_forwarded_load.rs
    ("9fce4b0f", "fuzz-h200-5001-c6d3ed97-carry-of-lea-of-known-zero-folded-set"), // KNOWN c6d3ed97: sub.cc of shl.b32 (x & 0x80000000), 7 (a known-bits 0): carry-in PT (T22a); by its emulation since session 51 (emulate/carry_of_known_zero_shl_and_constant_set.rs, helper e3)
    ("a3a4847f", "fuzz-h200-4803-eb1853bf-neg-of-subc-into-addc-adds-the-borrow"), // KNOWN eb1853bf: neg(subc) into addc adds the borrow, IADD3.X … P1, P0 = 2 (T22a); by its emulation since session 51 (emulate/negated_carry_op_folded_keeps_its_carry_in_added.rs, helper e1)
];

#[test]
fn the_seed_5102_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-5102", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_5102_LABELS));
}

/// What each word finding of seed 5102 (session 51's campaign build, d5c88422) is labelled now.
const SEED_5102_LABELS: [(&str, &str); 3] = [
    ("0081239e", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // KNOWN 3702-N5: the zero extension an `st.shared.b8; ld.shared.b8` round trip ptxas forwards, `PRMT R9, RZ, 0xb, R2` (T22b; the N5 readers were glue, cvt and mov.b16 unpacks, no load); helper t5: emulate/prmt_narrowed_at_a_store_forwarded_load.rs
    ("6b978d8f", "new"), // KNOWN sass-cctl-under-unwritten-predicate: non-deterministic, `@!P0 BRA` with P0 never written (setp dropped) ran thread 5's arm in the batch (T22b; the SASS check flags it, non-deterministic words are not matched to it)
    ("766f2aa7", "fuzz-h100-j-branch-constant-splat"), // KNOWN J branch-known: h1 of `mov.b64 {h0, h1, …}` of a pack of the known word, `@!P0 PRMT R0, R4(=0x33), 0x7610, R0` (T22b; j_packed_constant::unpacked sent 64-bit unpacks only to the narrowed add); helper t5: emulate/j_branch_known_word_unpacked_through_a_pack64.rs
];

#[test]
fn the_seed_5103_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-5103", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_5103_LABELS));
}

/// What each word finding of seed 5103 (session 51's campaign build, d5c88422) is labelled now.
const SEED_5103_LABELS: [(&str, &str); 6] = [
    ("15219630", "fuzz-h200-3701-c1n2-cvt-of-set-f32-converts-1-beside-xor-of-set"), // KNOWN 3701-C1-N2: cvt.rn.f32.s32 of a set.f32 rebuilt as 1.0 (`ISETP.LE.XOR; FSEL R7, RZ, 1, !P0`) under a new trigger, an xor/and of the cvt and another set.f32 word (T22c; fuzz3701::cvt's triggers want an xor of an integer set); helper t6: emulate/set_f32_boolean_beside_a_logic_op_of_set_f32_words.rs
    ("5a40f4d8", "fuzz-h200-a-narrow-store-converts"), // KNOWN A: `@!p cvt.f16.f16` skipped in every thread, the old h0 (tid's half) converted at the byte store (`SEL; F2I.U8.F16.TRUNC.NTZ`, -O0 too; T22c; skipped.rs marks only a register with a recorded origin, h0 unpacked from %tix has none); helper t6: emulate/float_cvt_skipped_over_an_unrecorded_value.rs
    (
        "723c6c60",
        "fuzz-h200-5103-723c6c60-set-eq-of-xor-of-sets-against-a-shuffled-constant-tests-an-unwritten-register",
    ), // NEW, its own entry by id: set.eq of an xor of two integer sets against a shuffled 0, read by an xor, tests R1 (the stack pointer; `ISETP.EQ.U32 P0, PT, R1, RZ`), sets and loads deleted (T22c, s51 v11: R0 never written)
    ("a27dfeaf", "fuzz-h200-5103-d88aeb3a-b64-repack-in-an-arm-loads-the-new-low-word-over-the-old"), // NEW (d88aeb3a's entry, the same root cause): `mov.b64 d, {new, old_lo}` in a branch arm loads new over old_lo's register, then copies it up (`LDG.E.STRONG.GPU R4; MOV R5, R4`; T22c); by id until session 54, now by its emulation (emulate/b64_repack_in_an_arm_loads_new_word_over_old_low.rs)
    ("d88aeb3a", "fuzz-h200-5103-d88aeb3a-b64-repack-in-an-arm-loads-the-new-low-word-over-the-old"), // NEW, its own entry (a27dfeaf too): the same repack if-converted (`@P0 LDG.E.U8 R4; @P0 MOV R5, R4`): the high word is the new word, not the old low word (T22c); by id until session 54, now by its emulation (emulate/b64_repack_in_an_arm_loads_new_word_over_old_low.rs)
    ("de634528", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3 (e55c2d82): a loop's 6 `cnot.b64 x, x` then `cvt.s32.s64` and `cvt.rp.bf16.f32`: `SEL R0, RZ, 0x3f80, P0` (T22c; cnot_of_itself_run_twice wants the cnot as the float cvt source's producer, here an integer cvt); helper t6: emulate/cnot_loop_chain_read_through_integer_cvts.rs
];

#[test]
fn the_seed_5402_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-5402", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_5402_LABELS));
}

/// What each word finding of seed 5402 (session 54's campaign build, 48ef08f5) is labelled now
/// (trace/T54S.md; the two `unwritten-register` findings, dd1832d2 and 642465fa, have no words: a
/// mutant computing with a createpolicy's policy, which the checker now refuses).
const SEED_5402_LABELS: [(&str, &str); 4] = [
    ("24d122cc", "fuzz-h200-3702-n7-shuffle-of-bfly-predicate-choice-dropped"), // KNOWN 3702-N7: a shuffle of a value chosen by a bfly predicate dropped, the choice a guarded cvt of a moved 0 (T54S; chosen_by took a guarded mov or a selp); helper w5: a guarded cvt of a folded constant over one (shuffle_of_a_value_selected_by_a_bfly_predicate.rs)
    ("56fce4a0", "new"), // KNOWN 3604-N3: an unsigned loop exit counted signed, 69,273,667 trips run as 100 (T54S; past SIGNED_TRIPS_FOLDED only bodies that shift out are emulated)
    ("63f83d6e", "fuzz-h200-5402-63f83d6e-pack-high-half-read-from-its-half-after-a-guarded-write"), // NEW, its own entry: the high half of a MERGE_C {pair, h} pack read from h's register after a guarded in-place write of h (T54S); by id until session 55, now by its emulation (helper e2: emulate/pack_high_half_read_from_its_half_after_a_guarded_write.rs)
    ("8ad6cef7", "fuzz-h200-3702-n3-join-of-minus-one-and-one-f32-merged"), // KNOWN 3702-N3: −1 and 1.0f merged at a join, the −1 a subc over an unpack of a moved 0 (T54S; writes_folded_constant took immediates and copies); helper w5: emulate/join_arm_of_an_unpacked_constant.rs
];

#[test]
fn the_seed_5403_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-5403", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_5403_LABELS));
}

/// What each word finding of seed 5403 (session 54's campaign build, 48ef08f5) is labelled now
/// (trace/T54S.md).
const SEED_5403_LABELS: [(&str, &str); 7] = [
    ("5fd181c4", "fuzz-h200-3801-n2-sub-of-shuffled-immediate-reversed-in-min-max"), // KNOWN 3801-N2: sub of a shuffled immediate reversed in a fused min (`VIADDMNMX.U32`), the sub overwriting K's own register (T54S; the producer read was the sub); helper w4: fuzz3801.rs k_producer
    ("6cd4a975", "fuzz-h200-3702-n2-lop3-merged-into-xor-reads-x"), // KNOWN 3702-N2: xor(a, lop3(a, 0, a, 0xea)) merged across an unrolled loop's back edge (T54S; lop3_of_op looked for the writer in statement order); helper w1 (session 55): c repeating a through an xor of a folded 0, the lop3 over the back edge (lop3_c_repeating_a_through_a_zero_identity.rs, trace/6cd4a975/s55/)
    ("7a05c905", "fuzz-h200-5403-7a05c905-prmt-byte-narrowed-past-a-guarded-write-of-its-source"), // NEW, its own entry: two cvt narrowings of a prmt byte forwarded to a byte extract of the prmt's source placed after a guarded in-place write of it (T54S; kin of 3801-N3 and 63f83d6e); by id until session 55, now by its emulation (helper e2: emulate/prmt_byte_narrowed_past_a_guarded_write_of_its_source.rs)
    ("9121bc6c", "fuzz-h200-5103-d88aeb3a-b64-repack-in-an-arm-loads-the-new-low-word-over-the-old"), // KNOWN d88aeb3a: the repack mirrored, `mov.b64 d, {old_hi, new}` with new computed into old_hi's register, then copied down (T54S; the emulation took {new, lo} with a loaded new); helper w4: either orientation with a computed word that reads no word of d (trace/9121bc6c/s54b/)
    ("965cd327", "fuzz-h200-3801-n1-mad-hi-chain-loses-links"), // KNOWN 3801-N1: four guarded mad.hi.s32 links compile to 2 (T54S; the emulation took unguarded links); helper w3: emulate/mad_hi_links_under_one_guard.rs
    ("a4cbab31", "fuzz-h200-3801-n1-mad-hi-chain-loses-links"), // KNOWN 3801-N1: seven guarded mad.hi.u16 links compile to 3 (T54S; the emulation took unguarded .u32/.s32 links); helper w3: emulate/mad_hi_links_under_one_guard.rs
    ("b33158de", "fuzz-h200-5403-b33158de-min-max-s64-of-negated-abs-folded-against-a-negative-constant"), // NEW, its own entry: max.s64 of neg(abs.s64 x) against a negative constant folded to the constant (T54S); by id until session 57, now by its emulation (helper h1, fuzz-h200-5703/trace/T57A.md: emulate/negated_abs_s64_below_every_negative_constant.rs; the id kept as stored_id)
];

#[test]
fn the_seed_5501_word_findings_of_trace_a_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5501", &SEED_5501_LABELS_A);
}

/// What each word finding of seed 5501 (session 55's campaign build, d9f52fd9) that helper t1 traced
/// (session 56, trace/T56A.md) is labelled now.
const SEED_5501_LABELS_A: [(&str, &str); 3] = [
    ("0078d11a", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3: cvt.bf16.bf16 of a cnot.b16 converted as the number where a live zero setp tests another cnot (cnot.b64) (T56A; cnot_read_by_a_live_zero_setp wanted the setp on the converted cnot); helper t1: cnot_converted_beside_a_zero_tested_cnot (trace/0078d11a/s56/)
    ("7d87687a", "fuzz-h200-3602-n2-neg-of-set-f32-halves-read-as-boolean"), // KNOWN 3602-N2: neg.s32 of a set.f32 read as the boolean, whole, by not.b32 (T56A; neg_of_set_f32_halves wanted and/or/xor.b16 of halves); helper t1: fuzz3602.rs not_of_neg_of_set_f32 (trace/7d87687a/s56/)
    ("9baa273a", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: the e4m3x2 pair merged in place in the register of a cvt.rni.u8.f16 half, read by an xor.b16 (T56A; float_to_u8_half took .f32/.f64 sources); helper t1: merge_c_half_of_u8_cvt_or_truncation.rs f16_to_u8_half (trace/9baa273a/s56/)
];

#[test]
fn the_seed_5601_word_findings_of_trace_c_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5601", &SEED_5601_LABELS_C);
}

/// What each word finding of seed 5601 traced by helper t3 (session 56's campaign build, 75afd0a3;
/// trace/T56C.md) is labelled now; the other three are trace D's.
const SEED_5601_LABELS_C: [(&str, &str); 3] = [
    ("3f24325e", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // KNOWN 3702-N5: a prmt sign byte narrowed at a forwarded `.shared::cluster` byte load, b a moved constant a live fp8-pair cvt keeps in a register (T56C; forwardable took .shared/.shared::cta/.global, holds prmt and glue readers); helper t3: store_forwarded_load.rs, prmt_constant_b_held_in_a_register.rs
    ("958b8f4e", "fuzz-h200-4203-1c2ac943-chained-shr-s32-of-known-ones-folded-to-zero"), // KNOWN 1c2ac943: shr.s32 of known leading ones (n + a ≤ 4) taken as non-negative, its `or` with the sign bit made an add (`LEA.HI.SX32`; T56C; the emulation read a second shr.s32 only); helper t3: chained_shr_s32_of_known_ones_folded_to_zero.rs `or_with_the_sign_bit`
    ("d8a4dedd", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3: the float conversion of a cnot tested by `setp.gt.u16 …, 0` converts the number (`SEL R0, RZ, 0x3f80`; T56C; zero_tests took .eq/.ne); helper t3: cnot_number_under_float_zero_test_or_b64_logic.rs `ordered_zero_test`
];

#[test]
fn the_seed_5401_word_findings_are_labelled_by_their_entries() {
    let labels = labels_of("fuzz-h200-5401", "findings-labelled-new.json");
    assert_eq!(labels, expected(&SEED_5401_LABELS));
}

/// What each word finding of seed 5401 (session 54's campaign build, 48ef08f5) is labelled now
/// (trace/T54S.md; the `unwritten-register` finding 5388ed64 has no words: a mutant computing with a
/// createpolicy's policy, which the checker now refuses).
const SEED_5401_LABELS: [(&str, &str); 4] = [
    ("27046214", "fuzz-h200-3602-n4-s8-round-trip-through-64-sign-extends-32"), // KNOWN 3602-N4 by the shuffled-constant route: cvt.u16.s8 of cvt.s16.s32 of a folded shuffle compared as its 32-bit sign extension (T54S; s8_of_folded_shuffle wanted a cvt.s8.{s32,u32}); helper w6: 16-bit byte extensions of a 16-bit narrowing
    ("3ab5bc1e", "fuzz-h200-3903-4483ae72-add-of-cnot-funnel-shift-negated-in-lea-hi"), // KNOWN 3903-4483ae72: the funnel-shift add of a negated LEA.HI, c a `sub.u32 c, 0, x` (T54S; add_of_cnot_funnel_shift wanted a cnot.b32); helper w1 (session 55): a sub.{u32,cc.u32} of a folded 0 (cnot_funnel_rotate_in_lea_hi.rs, trace/3ab5bc1e/s55/)
    ("7865568d", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: the half packed beside an e4m3x2 pair in place, rewritten in a later arm, read by the threads that skip it (T54S; destroyed's value_readers stopped at the arm's write); helper w1 (session 55): an arm rewriting h by a shared load (merge_c_half_reloaded_from_shared_in_a_later_arm.rs, trace/7865568d/s55/)
    ("edd64ad1", "fuzz-h100-m-f16-mask-dropped"), // KNOWN M: the and.b16 of a cvt.rn.satfinite.bf16.f32 result dropped (T54S; clamped_f16 wanted an f16 cvt); helper w6: clamped .bf16 conversions (origin.rs)
];

#[test]
fn the_seed_5501_word_findings_of_trace_b_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5501", &SEED_5501_LABELS_B);
}

/// 4dd1a6c2 and 75848456 (trace/T56B.md) with their -O0 and -O3 words (the JIT's dropped, which
/// A's any-byte also admits): C1-N2 names them, through the `not.b32` trigger.
#[test]
fn the_seed_5501_o3_words_of_4dd1a6c2_and_75848456_are_c1n2() {
    use oracle::semantics::Allowances;
    use runner::diff::program::WordMismatch;
    use runner::fuzz::retriage::{label_words, Label};
    #[derive(serde::Deserialize)]
    struct Stored {
        id: String,
        signature: Signature,
        mismatches: Vec<WordMismatch>,
    }
    #[derive(serde::Deserialize)]
    struct Doc {
        findings: Vec<Stored>,
    }
    let dir = repo().join("corpus/findings/fuzz-h200-5501");
    let doc: Doc =
        serde_json::from_str(&std::fs::read_to_string(dir.join("findings-labelled-new.json")).unwrap()).unwrap();
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    for id8 in ["4dd1a6c2", "75848456"] {
        let f = doc.findings.iter().find(|f| f.id.starts_with(id8)).unwrap();
        let mut mismatches = f.mismatches.clone();
        for m in &mut mismatches {
            m.actual.retain(|b, _| b != "cuda:jit");
        }
        let text = std::fs::read_to_string(dir.join("cases").join(format!("{}.case", f.id))).unwrap();
        let (p, i) = parse_case(&text).unwrap();
        let sass = traced_check(&dir.join("trace").join(id8), &text, &p.name, &known);
        let label = label_words(&p, &i, &f.signature, &mismatches, &known, &Allowances::all(), sass).unwrap();
        let c1n2 = "fuzz-h200-3701-c1n2-cvt-of-set-f32-converts-1-beside-xor-of-set".to_string();
        assert_eq!(label, Label::Known(vec![c1n2]), "{id8}");
    }
}

/// What the word findings of seed 5501 traced by helper t2 (session 56's trace B, the campaign
/// build d9f52fd9) are labelled now (trace/T56B.md; the `unwritten-register` finding cc7f459c has
/// no words: root cause O's dropped `sub.u32 d, 0, x` read by `cvt.sat.u8.u32`).
const SEED_5501_LABELS_B: [(&str, &str); 3] = [
    ("4dd1a6c2", "fuzz-h200-a-narrow-store-converts"), // KNOWN 3701 C1-N2: cvt.rn.bf16.u32 of a set.f32 is `SEL 0x3f80` beside `not.b32` of an integer set (T56B; the trigger took xors of sets or their halves, the xor here reads the not's halves); helper t2: fuzz3701.rs not_reads_an_integer_set. C1-N2 explains the -O3 byte; the JIT's same byte (no SASS witness there) is admitted by A's any byte too, and A is named first
    ("75848456", "fuzz-h200-a-narrow-store-converts"), // KNOWN 3701 C1-N2: 4dd1a6c2's mutant, the same words and lines (T56B); helper t2: as 4dd1a6c2, named A as 4dd1a6c2
    ("cb677612", "fuzz-h200-5103-d88aeb3a-b64-repack-in-an-arm-loads-the-new-low-word-over-the-old"), // KNOWN d88aeb3a: lo truncated by cvt.u32.u64, relaxed loads, a tid test (T56B; in_scope wanted a mov.b64 unpack and a loaded test or acquire); helper t2: low_word_truncated, relaxed_load
];

/// Seed 5501's `unwritten-register` finding cc7f459c (trace/T56B.md): root cause O's dropped
/// `sub.u32 d, 0, x` read by `cvt.sat.u8.u32` (`LOP3.LUT R9, R9, 0xff, R0, 0x78` of a never-written
/// R0, then `STG.E.U16`), a real never-written read. The check flags it again on its 13.0.88 -O3
/// listing and on the 4-instruction u3's (`LOP3.LUT R5, R0, 0xff, RZ, 0xc0`), and the loaded
/// minuend's (u5) flags nothing; no entry names an `STG.E.U16` reader (O's SASS entry keys on the
/// shift readers, and O's toml says why no key can name its store readers alone), so it stays new.
#[test]
fn the_seed_5501_sass_finding_cc7f459c_is_a_real_unwritten_read() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let trace = repo().join("corpus/findings/fuzz-h200-5501/trace/cc7f459c");
    let label = |path: &str| sass_label(&trace.join(path), &known);
    assert_eq!(label("orig.130.O3.sass"), "new STG.E.U16");
    assert_eq!(label("s56/u3_sat_alone.130.O3.sass"), "new STG.E.U16");
    assert_eq!(label("s56/u5_loaded_minuend.130.O3.sass"), "gone");
    let stored = stored_ids_and_signatures(&repo().join("corpus/findings/fuzz-h200-5501/findings-labelled-new.json"));
    let cc7f = stored.findings.iter().find(|f| f.id.starts_with("cc7f459c")).unwrap();
    assert!(known.matches(&cc7f.signature).is_none());
}

#[test]
fn the_seed_5601_word_findings_of_helper_d_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5601", &SEED_5601_LABELS_D);
}

/// What each word finding of seed 5601 (session 56's campaign build, 75afd0a3) traced by
/// helper t4 is labelled now (trace/T56D.md).
const SEED_5601_LABELS_D: [(&str, &str); 3] = [
    ("46c959cd", "fuzz-h200-4203-4b68821e-f2i-of-f16-bits-read-as-f32-fused-with-source"), // KNOWN 4b68821e the other way round: cvt.ftz.f32.bf16 → cvt.s16.u32 → cvt.rzi.s64.f16 is one F2I of the half, then cvt.rpi.f64.f64 (T56D; the emulation took a last cvt from .f32 only); helper t4: fused_conversion_of_widened_half
    ("b97651e9", "fuzz-h200-4203-4b68821e-f2i-of-f16-bits-read-as-f32-fused-with-source"), // KNOWN 4b68821e the other way round, the same chain from cvt.rz.f16.s8 (T56D); helper t4: fused_conversion_of_widened_half
    ("f268c40e", "fuzz-h100-j-branch-constant-splat"), // KNOWN J narrowed: add.s16x2 of two constants read as one byte, the other half's byte read only by a dead mov.b16 pack (T56D; `dead` took copies, not packs); helper t4: j_branch_known_values.rs dead
];

#[test]
fn the_seed_5603_word_findings_of_trace_h_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5603", &SEED_5603_LABELS_H);
}

/// What each word finding of seed 5603 (session 56's campaign build, 75afd0a3) that helper t8 traced
/// (session 56, trace/T56H.md) is labelled now.
const SEED_5603_LABELS_H: [(&str, &str); 2] = [
    ("5b4dc85d", "fuzz-h200-3802-6e4d6e41-fp8-unpack-of-zero-extended-top-half-immediate"), // KNOWN 6e4d6e41: fp8 unpack of the high half of a shuffled constant ptxas folds because the body loads (T56H; top_half_of_known_zero_word took a shuffle only after a bar.sync); helper t8: j_shuffled_constant_folded_beside_a_load.rs fp8_unpacked_word_of_a_folded_shuffle (trace/5b4dc85d/s56/)
    ("d1b73357", "fuzz-h200-4703-c80aa912-min-s32-of-max-u32-by-zero-folded-to-zero"), // KNOWN c80aa912 mirrored: max.u32 by 0 of slct.b32.s32 0, x, x (a signed min by 0) folded to 0 (T56H; the emulation took min.s32 of max.u32 only); helper t8: min_s32_of_max_u32_by_zero_folded_to_zero.rs max_of_min_glue (trace/d1b73357/s56/)
];

#[test]
fn the_seed_5602_word_findings_of_trace_e_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5602", &SEED_5602_LABELS_E);
}

/// What each word finding of seed 5602 (session 56's campaign build, 75afd0a3) that helper t5 traced
/// (session 56, trace/T56E.md) is labelled now.
const SEED_5602_LABELS_E: [(&str, &str); 4] = [
    ("55232403", "new"), // KNOWN 3701-N-D, not reached: the pair merged into h8's sign-extended register, which a setp.ge.s16 tests over 32 bits ({pair, 0xffff}); the emulation's 16-bit pair compares as the spec's (T56E; left new)
    ("8cc265da", "new"), // KNOWN 3701-N-D, not reached: h3 destroyed by the in-place merge, then read from the register ptxas reuses for r0's high half, not as the pair (the pair's byte is the spec's 0; T56E; left new)
    ("ad8569dd", "fuzz-h100-n-cvt-u8-s8-of-f16-dropped"), // KNOWN N: a guarded cvt.u8.s8 in place under setp.eq.s16 of an ld.u16 and its copy, dropped (T56E; dropped wanted d != a and an ld.s8/ld.s16); helper t5: in_place_under_compare_with_copy, extension_differs (trace/ad8569dd/s56/)
    ("c3ac5e22", "fuzz-h200-3602-n4-s8-round-trip-through-64-sign-extends-32"), // KNOWN 3602-N4: cvt.sat.s8.s32 of a shl of a folded shuffle compared by setp.lt.u16 as its 32-bit extension (T56E; s8_of_folded_shuffle refused .sat and wanted the shuffle as the source); helper t5: shifted_folded_shuffle (trace/c3ac5e22/s56/)
];

#[test]
fn the_seed_5603_word_findings_of_trace_g_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5603", &SEED_5603_LABELS_G);
}

/// What the word findings of seed 5603 (session 56's campaign build, 75afd0a3) that helper t7 traced
/// (session 56's trace G, trace/T56G.md) are labelled now.
const SEED_5603_LABELS_G: [(&str, &str); 3] = [
    ("20120274", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // KNOWN 3702-N5: and.b16 0xffff of a cvt.u16.s32 truncation of a prmt narrowed, the sign of a's byte 1 read as 0 (T56G; zero_extended_bytes_glue took and.b32 only); helper t7: prmt_narrowed_per_zero_extending_reader/and_b16_of_a_truncation.rs (trace/20120274/s56/)
    ("a3d39eb1", "fuzz-h200-5603-a3d39eb1-top-quarter-of-0x7fff-word-before-a-joined-length-bfi-read-as-0xffff"), // NEW, its own entry by id: the 0x7fff top quarter of a moved 0x7fffffffffffffff, unpacked before a one-armed bfi.b64 of it whose length is a one-armed-if join, repacked as 0xffff (T56G; nearest bfed5396)
    ("c5084be2", "fuzz-h200-3701-c3n3-setp-eq-one-of-set-tests-the-set"), // KNOWN 3701-C3-3: set.ne s, s, i of the previous trip's set with i = 1 the counter of a loop ptxas unrolls whole (T56G; constant() took immediates and moved ones); helper t7: fuzz3701/compare_with_one_an_unrolled_counter.rs (trace/c5084be2/s56/)
];

#[test]
fn the_seed_5602_word_findings_of_trace_f_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5602", &SEED_5602_LABELS_F);
}

/// What the word findings of seed 5602 traced by helper t6 (session 56's trace F, the campaign
/// build 75afd0a3) are labelled now (trace/T56F.md; fd85a600 is the campaign's `unwritten-register`
/// finding, with words).
const SEED_5602_LABELS_F: [(&str, &str); 3] = [
    ("7b7273cd", "fuzz-h200-f-negation-overflow"), // KNOWN F: cvt.rn.f32.u64 of cvt.s64.s16 of abs.s16 is I2F.S16 (T56F; F's f32 rules wanted a .u16/.u32 source, a zero extension); helper t6: emulate/f_f32_of_sign_extended_abs.rs
    ("ac5c45b7", "fuzz-h200-3702-n7-branch-on-bfly-predicate-taken-as-uniform"), // KNOWN 3702-N7: a branch on a constant bfly's predicate, no BSSY before SHFL.IDX (T56F; the entry names its findings by id); helper t6: its id added
    ("fd85a600", "fuzz-h200-4701-119d98cf-zero-extension-of-converted-half-dropped-at-packed-min"), // KNOWN 119d98cf, a real never-written read: min.s16x2 of cvt.s32.s16 of an ld.s16 merged with its neighbour (T56F; dropped_extension wanted a cvt.u16 of an F2FP half); helper t6: sign_extension_of_merged_load
];

#[test]
fn the_seed_5701_word_findings_of_trace_d_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5701", &SEED_5701_LABELS_D);
}

/// What the word findings of seed 5701 (session 57's campaign build, 0b319658) that helper h4 traced
/// (session 57's trace D, corpus/findings/fuzz-h200-5701/trace/T57D.md) are labelled now.
const SEED_5701_LABELS_D: [(&str, &str); 2] = [
    ("c34a2582", "fuzz-h200-5701-c34a2582-pack-over-truncated-low-word-built-in-place-destroys-the-64-bit-source"), // NEW, its own entry by id: mov.b32 {h0, K} of cvt.u16.u32 of a 64-bit register's low word built in place in that low word (PRMT R2, R2, 0x7610, R0), which the shift and compare then read (T57D; nearest 3701-N-D's 84d08552)
    ("c5e2088f", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: h1 a mov.b16 copy of not.b16 of an I2F.F16 of a moved constant, the e4m3x2 pair merged in place in its register (T57D; pair_and_half took neither a copy of h nor an I2F.F16 of a constant as computed); helper h4: merge_c_in_place/half_copied_from_a_computed_half.rs (trace/c5e2088f/s57/)
];

#[test]
fn the_seed_5702_word_findings_of_trace_d_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5702", &SEED_5702_LABELS_D);
}

/// What the word finding of seed 5702 (session 57's campaign build, 0b319658) that helper h4 traced
/// (session 57's trace D, corpus/findings/fuzz-h200-5701/trace/T57D.md) is labelled now.
const SEED_5702_LABELS_D: [(&str, &str); 1] = [
    ("e9fc9a48", "fuzz-h200-b-f32-shift-amount"), // KNOWN B: a skipped cvt.rz.f32.s32 over mov.s32 r1, %tix makes the amount f32-typed (F2I.U64.TRUNC of tid's bits: shift by 0) (T57D; skipped_isa marked no origin for a copy of %tix); helper h4: skipped/f32_write_over_an_unrecorded_value.rs (trace/e9fc9a48/s57/)
];

#[test]
fn the_seed_5702_word_findings_of_trace_c_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5702", &SEED_5702_LABELS_C);
}

/// What the word findings of seed 5702 (session 57's campaign build, 0b319658) that helper h3 traced
/// (session 57's trace C, fuzz-h200-5702/trace/T57C.md) are labelled now.
const SEED_5702_LABELS_C: [(&str, &str); 2] = [
    ("03b451b4", "fuzz-h200-3701-c1n2-cvt-of-set-f32-converts-1-beside-xor-of-set"), // KNOWN C1-N2: cvt.f16.f16 of the set's cvt.s8.s32 byte (rebuilt as 1) converts the number 1.0h beside xor.b16 of an integer set's half (T57C; the narrowing-float-cvt form wanted a cvt.{f16,bf16}.f32 of the set); helper h3: set_f32_boolean_through_a_narrowing_float_cvt/of_a_rebuilt_byte.rs (trace/03b451b4/s57/)
    ("9d958b9f", "fuzz-h200-3701-c1n2-cvt-of-set-f32-converts-1-beside-xor-of-set"), // KNOWN C1-N2: cvt.u64.u16 of cvt.rn.f16.s64 of the set's cvt.rni.u64.f32 is the boolean 1 beside and.b64 d1, d1 (T57C; the 64-bit widening wanted a .{s32,u32} source written by the set itself and an integer-set trigger); helper h3: set_f32_widened_as_its_boolean/of_a_float_cvt_of_the_set.rs (trace/9d958b9f/s57/)
];

#[test]
fn the_seed_5701_word_findings_of_trace_c_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5701", &SEED_5701_LABELS_C);
}

/// What the word finding of seed 5701 (session 57's campaign build, 0b319658) that helper h3 traced
/// (session 57's trace C, fuzz-h200-5702/trace/T57C.md) is labelled now.
const SEED_5701_LABELS_C: [(&str, &str); 1] = [
    ("6667a80e", "fuzz-h200-3702-n2-lop3-merged-into-xor-reads-x"), // KNOWN 3702-N2: xor.b32 of the halves of mov.b64 {K, lop3(K, x, x, 0xeb)} merged as K ^ L(K, x, 0) (T57C; merged_half wanted the lop3 as the xor's source's last writer); helper h3: lop3_of_its_a_with_b_repeating_c.rs through through_copies (trace/6667a80e/s57/)
];

#[test]
fn the_seed_5702_word_findings_of_trace_b_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5702", &SEED_5702_LABELS_B);
}

/// What the word finding of seed 5702 (session 57's campaign build, 0b319658) that helper h2 traced
/// (session 57's trace B, corpus/findings/fuzz-h200-5702/trace/T57B.md) is labelled now.
const SEED_5702_LABELS_B: [(&str, &str); 1] = [
    ("f9ec76ad", "fuzz-h200-4203-1c2ac943-chained-shr-s32-of-known-ones-folded-to-zero"), // KNOWN 1c2ac943: and.b32 0x80000000 of shr.s32 y, (or.b32 x, 0xe0000000), 1 folded to 0, y ranged as shr.u32 (T57B; the emulation read shr/or only); helper h2: chained_shr_s32_of_known_ones_folded_to_zero/logical_shift_readers.rs::and_inside_the_known_ones (trace/f9ec76ad/s57/)
];

#[test]
fn the_seed_5703_word_findings_of_trace_b_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5703", &SEED_5703_LABELS_B);
}

/// What the word finding of seed 5703 (session 57's campaign build, 0b319658) that helper h2 traced
/// (session 57's trace B, corpus/findings/fuzz-h200-5702/trace/T57B.md) is labelled now.
const SEED_5703_LABELS_B: [(&str, &str); 1] = [
    ("5ff8f0a0", "fuzz-h200-4203-1c2ac943-chained-shr-s32-of-known-ones-folded-to-zero"), // KNOWN 1c2ac943: setp.ge.s32 y, 3 of shr.s32 y, (or.b32 x, 0xe6cbf576), 1 folded true from y's range as shr.u32 (T57B; the emulation read shr/or only); helper h2: chained_shr_s32_of_known_ones_folded_to_zero/logical_shift_readers.rs::compare_with_an_immediate (trace/5ff8f0a0/s57/)
];

#[test]
fn the_seed_5703_word_findings_of_trace_f_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5703", &SEED_5703_LABELS_F);
}

/// What the word findings of seed 5703 (session 57's campaign build, 0b319658) that helper h6 traced
/// (session 57's trace F, trace/T57F.md) are labelled now.
const SEED_5703_LABELS_F: [(&str, &str); 3] = [
    ("4163f94f", "fuzz-h100-j-branch-constant-splat"), // KNOWN J narrowed: add.s16x2 of two moved constants read through byte c4, c1's pack read only by a dead copy (T57F; dead looked one reader deep); helper h6: j_branch_known_values::dead transitive (trace/4163f94f/s57/)
    ("65b4e6cc", "fuzz-h200-4802-59da91ec-fp8-pair-packed-in-an-arm-loses-its-own-value-after-the-join"), // KNOWN 59da91ec form B: the pair's half read again in the tested 64-bit pack's high word {h0, h1, h0, h0} (T57F; form wanted h the pack's first element only and read after it); helper h6: fp8_pair_built_only_in_its_pack::in_high_word (trace/65b4e6cc/s57/)
    ("9af9a4d8", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: h a zero-extending cvt.u8.s8 of a 16-bit load, its source's byte c0 read as h by a later byte pack's element 1 (T57F; pair_and_half took no cvt.u8.s8); helper h6: emulate/merge_c_zero_extended_byte_half.rs (trace/9af9a4d8/s57/)
];

#[test]
fn the_seed_5702_word_findings_of_trace_e_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5702", &SEED_5702_LABELS_E);
}

/// What the word findings of seed 5702 (session 57's campaign build, 0b319658) that helper h5 traced
/// (session 57's trace E, trace/T57E.md) are labelled now.
const SEED_5702_LABELS_E: [(&str, &str); 3] = [
    ("2ca01739", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: cvt.s64.u8 of a .v2.b8 shared element before the {pair, h} pack, its low word read after it by a mov.b64 unpack: the pack's word (T57E; widened wanted a .u16/.s16 widening of a cvt.u8 h read by cvts only, and gave bits 16-31 zero); helper h5: merge_c_widened_byte_half_read_after_pack.rs, merge_c_in_place.rs PACK_WORD (trace/2ca01739/s57/)
    ("4b300431", "fuzz-h200-3201-n7-bfe-s32-past-msb"), // KNOWN 3201-N7: bfe.s32 past the msb of an a computed by add.cc.u32 of constants, not known to the local fold (T57E; known_locally took the add.cc as known); helper h5: n7_known_within_one_block/a_through_a_carry_writer.rs (trace/4b300431/s57/)
    ("c3be1a58", "fuzz-h200-3702-n7-shuffle-of-bfly-predicate-choice-dropped"), // KNOWN 3702-N7: a guarded prmt under a constant bfly's predicate of the bfly's own result, its later bfly dropped (T57E; chosen_by wanted a mov/cvt of constants or a selp); helper h5: shuffle_of_a_value_selected_by_a_bfly_predicate/uniform_choice.rs (trace/c3be1a58/s57/)
];

#[test]
fn the_seed_5703_word_findings_of_trace_a_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5703", &SEED_5703_LABELS_A);
}

/// What the word finding of seed 5703 (session 57's campaign build, 0b319658) that helper h1 traced
/// (session 57's trace A, trace/T57A.md) is labelled now.
const SEED_5703_LABELS_A: [(&str, &str); 1] = [
    ("9823257d", "fuzz-h200-f-negation-overflow"), // KNOWN F: min.s64 of abs.s64 of -2^63 and 0 folded to 0, f46efbdc's lt-by-zero test inside the 64-bit min (T57A; set_of_abs_against_zero_folded_non_negative::glue took set only); helper h1: min_glue there (trace/9823257d/s57/)
];

/// Seed 5802's `@P0 CCTL.E.PF2` under a predicate no instruction of the -O3 kernel writes (5934238d:
/// `prefetch.global.L2` beside a dead `ld.acquire.cluster` in a branch whose setp ptxas dropped;
/// corpus/findings/fuzz-h200-5803/trace/T58F.md, helper hf) is the CCTL entry's reader.
#[test]
fn the_session_58_prefetch_l2_read_is_the_cctl_entry() {
    let path = repo().join("corpus/findings/fuzz-h200-5802/findings-labelled-new.json");
    let doc = stored_ids_and_signatures(&path);
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let read = doc.findings.iter().find(|f| f.id.starts_with("5934238d")).unwrap();
    assert_eq!(read.signature.class, FindingClass::UnwrittenRegister);
    assert_eq!(read.signature.form, "CCTL.E.PF2");
    assert_eq!(known.matches(&read.signature).map(|k| k.name.as_str()), Some("sass-cctl-under-unwritten-predicate"));
}

#[test]
fn the_seed_5803_word_findings_of_trace_f_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5803", &SEED_5803_LABELS_F);
}

/// What the word findings of seed 5803 (session 58's campaign build, 3f35355a) that helper hf traced
/// (session 58's trace F, corpus/findings/fuzz-h200-5803/trace/T58F.md) are labelled now.
const SEED_5803_LABELS_F: [(&str, &str); 3] = [
    ("6699aa1a", "fuzz-h200-3602-n2-neg-of-set-f32-halves-read-as-boolean"), // KNOWN 3602-N2: the set.f32's word reaches neg.s32 through cvt.rz.f32.s32, xor.b16 of the halves 0 (T58F; negation_of_set_f32 wanted the set as the neg's producer); helper hf: emulate/negation_of_set_f32_through_an_int_to_float_cvt.rs (trace/6699aa1a/s58/)
    ("7aa63538", "new"), // KNOWN ace805b3 family (a byte packed above an fp8 pair rebuilt over a stale upper half), read by mul.hi.s16's 32-bit IMAD (T58F): not widened — the stale half is the allocator's, a set-valued multiply reader not written
    ("8f0047a8", "fuzz-h200-5803-8f0047a8-predicated-cs2r-stall-too-short-for-a-wide-imad"), // NEW root cause (T58F, s59/): the CS2R zeroing the loaded pair gets stall 4 before the wide IMAD that reads it (stall 6 before an IADD3, right on the GPU); by id
];

#[test]
fn the_seed_5801_word_findings_of_trace_e_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5801", &SEED_5801_LABELS_E);
}

/// What the word finding of seed 5801 (session 58's campaign build, 3f35355a) that helper he traced
/// (session 58's trace E, corpus/findings/fuzz-h200-5801/trace/T58E.md) is labelled now.
const SEED_5801_LABELS_E: [(&str, &str); 1] = [
    ("55941181", "fuzz-h200-4802-59da91ec-fp8-pair-packed-in-an-arm-loses-its-own-value-after-the-join"), // KNOWN 59da91ec form A through a byte unpack of the arm's two-f32 pair, packed at element 2 of a mov.b64, c0 read after the join keeps its load (T58E; form wanted .f16x2, the pack right after with h first, h itself read); helper he: fp8_pair_built_only_in_its_pack/copied_in_its_arm.rs (trace/55941181/s58/)
];

#[test]
fn the_seed_5802_word_findings_of_trace_e_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5802", &SEED_5802_LABELS_E);
}

/// What the word finding of seed 5802 (session 58's campaign build, 3f35355a) that helper he traced
/// (session 58's trace E, corpus/findings/fuzz-h200-5801/trace/T58E.md) is labelled now.
const SEED_5802_LABELS_E: [(&str, &str); 1] = [
    ("4267da28", "fuzz-h200-3602-n2-neg-of-set-f32-halves-read-as-boolean"), // KNOWN 3602-N2: the set.f32's negation a mul.lo.u32 by a moved -1 (in a loop), xor of its halves (T58E; negation_of_set_f32 took neg/sub only); helper he: negation_of_set_f32_as_a_product_by_minus_one.rs (trace/4267da28/s58/)
];

#[test]
fn the_seed_5803_word_findings_of_trace_e_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5803", &SEED_5803_LABELS_E);
}

/// What the word findings of seed 5803 (session 58's campaign build, 3f35355a) that helper he traced
/// (session 58's trace E, corpus/findings/fuzz-h200-5801/trace/T58E.md) are labelled now.
const SEED_5803_LABELS_E: [(&str, &str); 3] = [
    ("325cf998", "new"), // KNOWN 3501-N3 (cnot's 1 converted as bf16 1.0) under a trigger not emulated: bfind.s64 and a slct of it (T58E; trace/325cf998/s58/)
    ("3ced76e4", "new"), // KNOWN 3501-N3 (cnot's 1 converted as f16 1.0) under a trigger not emulated: a select of a guarded load's register (T58E; trace/3ced76e4/s58/)
    ("8704908d", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: h a sub.u16 of a moved constant and its cvt.bf16.bf16, which ptxas does not fold (T58E; computed_half took any cvt of a constant as folded); helper he: merge_c_in_place/half_copied_from_a_computed_half.rs unfolded_cvt (trace/8704908d/s58/)
];

#[test]
fn the_seed_5803_word_findings_of_trace_b_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5803", &SEED_5803_LABELS_B);
}

/// What the word findings of seed 5803 (session 58's campaign build, 3f35355a) that helper hb traced
/// (session 58's trace B, trace/T58B.md) are labelled now.
const SEED_5803_LABELS_B: [(&str, &str); 3] = [
    ("72b720bf", "fuzz-h200-3201-n11-skipped-set-sign-extends"), // KNOWN N-11, no false alarm: a skipped set.eq.f32.u64 over cvt.ftz.f32.bf16 of a NaN converts F2F.FTZ's canonical 0x7fffffff (T58B; bf16_widened took .ftz as the shift); helper hb: emulate/skipped/bf16_widened.rs (trace/72b720bf/s58/)
    ("b7cf5d00", "fuzz-h200-3702-n3-join-of-minus-one-and-one-f32-merged"), // KNOWN 3702-N3: the arm's cvt.rpi.f32.f32 of tix, pinned to 90 by the head's setp.ne/@p bra, folded to 1.0f over the old -1 (T58B; merged_at_join wanted a folded constant); helper hb: emulate/join_arm_pinned_by_the_branch_compare.rs (trace/b7cf5d00/s58/)
    ("fff2eec5", "fuzz-h200-3201-n11-skipped-set-sign-extends"), // KNOWN N-11, no false alarm: the same over a loaded bf16 NaN 0xffff, set.ne.f32.s64, run-time F2F.FTZ (T58B); helper hb: emulate/skipped/bf16_widened.rs (trace/fff2eec5/s58/)
];

#[test]
fn the_seed_5801_word_findings_of_trace_a_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5801", &SEED_5801_LABELS_A);
}

/// What the word findings of seed 5801 (session 58's campaign build, 3f35355a) that helper ha traced
/// (session 58's trace A, corpus/findings/fuzz-h200-5801/trace/T58A.md) are labelled now.
const SEED_5801_LABELS_A: [(&str, &str); 4] = [
    ("047b7594", "fuzz-h200-3602-n2-neg-of-set-f32-halves-read-as-boolean"), // KNOWN 3602-N2: neg.s32 of a set.f32 rebuilt as the float -1.0 (FSEL RZ, -1) beside a live xor.b32 with another set.f32 (T58A; N2 emulated only the halves' logic and not.b32); helper ha: emulate/fuzz3602/neg_of_set_f32_beside_logic_of_sets.rs (trace/d4409f00/s58/)
    ("1a243a8f", "fuzz-h200-3301-n3-set-round-trip-through-float"), // KNOWN 3301-N3: cvt.rni.s64.f16 of the HIGH half of a set.f32 word's mov.b32 unpack is the set's 1 (T58A; unpacked_set_f32_truth took the low half only); helper ha: cvt_producers_seen_through.rs either half (trace/1a243a8f/s58/)
    ("772de695", "fuzz-h200-3602-n2-neg-of-set-f32-halves-read-as-boolean"), // KNOWN 3602-N2: as 047b7594 (setp.le/selp swapped) (T58A); helper ha: neg_of_set_f32_beside_logic_of_sets.rs
    ("d4409f00", "fuzz-h200-3602-n2-neg-of-set-f32-halves-read-as-boolean"), // KNOWN 3602-N2: as 047b7594 (T58A); helper ha: neg_of_set_f32_beside_logic_of_sets.rs (trace/d4409f00/s58/ v1-v19)
];

#[test]
fn the_seed_5801_word_findings_of_trace_d_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5801", &SEED_5801_LABELS_D);
}

/// What the word findings of seed 5801 (session 58's campaign build, 3f35355a) that helper hd traced
/// (session 58's trace D, fuzz-h200-5801/trace/T58D.md) are labelled now.
const SEED_5801_LABELS_D: [(&str, &str); 3] = [
    ("c8c7cdc4", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // KNOWN 3702-N5: mul.hi.u16 of cvt.s16.s64 of cvt.s64.s32 of the prmt, narrowed as through cvt.s16.s32 (T58D; reaching_prmt took 32-bit links only); helper hd: prmt_narrowed_per_zero_extending_reader/through_64_bits.rs (trace/c8c7cdc4/s58/)
    ("ed1b0473", "fuzz-h100-j-branch-constant-splat"), // KNOWN J branch-known one size up: the high word of v fixed by setp.ne.u64 v, K read as K's low word (T58D; branch_fixed used with .u32/.s32 only); helper hd: j_packed_constant/b64_high_word.rs (trace/ed1b0473/s58/)
    ("917157f1", "fuzz-h200-3702-n7-shuffle-of-bfly-predicate-choice-dropped"), // KNOWN 3702-N7: the bfly's c a moved 0 in a body that loads, the choice a guarded cvt.pack, the later shfl.idx dropped (T58D; wanted an immediate c[4:0] != 0 and no cvt.pack); helper hd: shuffle_of_a_value_selected_by_a_bfly_predicate/clamp.rs, uniform_choice.rs (trace/917157f1/s58/)
];

#[test]
fn the_seed_5802_word_findings_of_trace_d_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5802", &SEED_5802_LABELS_D);
}

/// What the word finding of seed 5802 (session 58's campaign build, 3f35355a) that helper hd traced
/// (session 58's trace D, fuzz-h200-5801/trace/T58D.md) is labelled now.
const SEED_5802_LABELS_D: [(&str, &str); 1] = [
    ("2f7d1698", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // KNOWN 3702-N5: mul.lo.u16 of element 0 of a mov.b64 unpack of a pack {prmt, 0}, narrowed as through mov.b32 {lo, hi} (T58D; reaching_prmt took 32-bit unpacks only); helper hd: prmt_narrowed_per_zero_extending_reader/through_64_bits.rs (trace/2f7d1698/s58/)
];

#[test]
fn the_seed_5803_word_findings_of_trace_d_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5803", &SEED_5803_LABELS_D);
}

/// What the word finding of seed 5803 (session 58's campaign build, 3f35355a) that helper hd traced
/// (session 58's trace D, fuzz-h200-5801/trace/T58D.md) is labelled now.
const SEED_5803_LABELS_D: [(&str, &str); 1] = [
    ("92486375", "new"), // KNOWN 3801-N4 (the half beside an in-place e4m3x2 pair read as R1, the stack pointer's high half 0x00ff), not emulated by design (the entry: the value is the stack pointer's, the read the allocator's choice); trace/92486375/s58/
];

#[test]
fn the_seed_5802_word_findings_of_trace_g_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5802", &SEED_5802_LABELS_G);
}

/// What the word findings of seed 5802 (session 58's campaign build, 3f35355a) that helper hg traced
/// (session 58's trace G, corpus/findings/fuzz-h200-5802/trace/T58G.md) are labelled now.
const SEED_5802_LABELS_G: [(&str, &str); 2] = [
    ("21acc633", "fuzz-h200-4802-59da91ec-fp8-pair-packed-in-an-arm-loses-its-own-value-after-the-join"), // KNOWN 59da91ec form C: the .f32 pair packed right after as {h7, h6}, a later arm rewrites h7 itself, h7 read on the path skipping it reads a register written only in the arm (T58G; form took .f16x2 pairs in forms A/B only); helper hg: fp8_pair_built_only_in_its_pack::arm_rewrites_half (trace/21acc633/s58/)
    ("59f49ca8", "fuzz-h200-3601-o-shift16-by-cnot-amount"), // KNOWN O: shr.u16 by sub.u32 of set.lt.f32.s32 r0, r0 (a folded 0) and a loaded word: the stack pointer as the amount (T58G; folded_zero took and/mul.lo by 0, xor/sub of a register with itself only); helper hg: mul_step_unread_shfl_predicate_folded_zero::folded_zero (trace/59f49ca8/s58/)
];

#[test]
fn the_seed_5803_word_findings_of_trace_g_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5803", &SEED_5803_LABELS_G);
}

/// What the word findings of seed 5803 (session 58's campaign build, 3f35355a) that helper hg traced
/// (session 58's trace G, corpus/findings/fuzz-h200-5802/trace/T58G.md) are labelled now.
const SEED_5803_LABELS_G: [(&str, &str); 2] = [
    ("537ff11f", "fuzz-h200-3601-o-shift16-by-cnot-amount"), // KNOWN O: shr.u16 by sub.cc.u32 of set.gt.s32.s16 h2, h2 (a folded 0) and a loaded word: the stack pointer as the amount (T58G; as 59f49ca8); helper hg: folded_zero (trace/537ff11f/s58/)
    ("7f817a7a", "new"), // KNOWN N-6 as a value (sass-n6-uprmt-of-unwritten-uniform.toml): a duplicated uniform subc.cc.s64 chain beside a createpolicy pair, h33 split by UPRMT UR9, UR5, 0x7610 of the 0 subtrahend (T58G); not emulated: depends on ptxas's uniform register allocation (trace/7f817a7a/s58/)
];

#[test]
fn the_seed_5802_word_findings_of_trace_c_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5802", &SEED_5802_LABELS_C);
}

/// What the word findings of seed 5802 (session 58's campaign build, 3f35355a) that helper hc traced
/// (session 58's trace C, corpus/findings/fuzz-h200-5802/trace/T58C.md) are labelled now.
const SEED_5802_LABELS_C: [(&str, &str); 3] = [
    ("06f453ea", "fuzz-h200-g-shr-s16-by-16"), // KNOWN G: the unpacked high half of cvt.s32.u64 of cvt.s64.s16 of a loaded byte (T58C; zero_extended_half took no 64→32 truncation); helper hc: g_unpack_through_sign_extension_or_pack64::truncation_of_a_kept_extension (trace/06f453ea/s58/)
    ("b5cfdfb6", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // KNOWN 3702-N5: prmt 0x8888 widened by cvt.u64.u32, read by cvt.u8.s64 (T58C; reaching_prmt followed no 32/64-bit cvt); helper hc: prmt_narrowed_per_zero_extending_reader/wide_or_back.rs (trace/b5cfdfb6/s58/)
    ("ca6045ce", "fuzz-h200-3201-n7-bfe-s32-past-msb"), // KNOWN 3201-N7: a dead createpolicy.range between a moved 0 and the bfe is a block boundary (T58C; boundary knew no createpolicy); helper hc: n7_known_within_one_block::range_policy (trace/ca6045ce/s58/)
];

#[test]
fn the_seed_5801_word_findings_of_trace_c_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5801", &SEED_5801_LABELS_C);
}

/// What the word finding of seed 5801 (session 58's campaign build, 3f35355a) that helper hc traced
/// (session 58's trace C, corpus/findings/fuzz-h200-5802/trace/T58C.md) is labelled now.
const SEED_5801_LABELS_C: [(&str, &str); 1] = [
    ("c40dc95f", "fuzz-h200-b-f32-shift-amount"), // KNOWN 4401-0c8cc6d5 on B's amount: two cvt.ftz.f32.f32 copies folded into B's F2I drop .TRUNC at -O3 (F2I.FTZ.S64: 17.625 → 18; T58C: the entry had no emulation, by id); helper hc: emulate/ftz_copies_drop_f2i_truncation.rs; labelled B, the first entry its emulated words name (-O0 is B alone, -O3/JIT B with 0c8cc6d5) (trace/c40dc95f/s58/)
];

#[test]
fn the_seed_5803_word_findings_of_trace_c_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5803", &SEED_5803_LABELS_C);
}

/// What the word finding of seed 5803 (session 58's campaign build, 3f35355a) that helper hc traced
/// (session 58's trace C, corpus/findings/fuzz-h200-5802/trace/T58C.md) is labelled now.
const SEED_5803_LABELS_C: [(&str, &str); 1] = [
    ("674386b1", "fuzz-h200-3903-4483ae72-add-of-cnot-funnel-shift-negated-in-lea-hi"), // KNOWN 4483ae72: shf.l.clamp of {0xfdbd1c7:cnot(x)} added to x, LEA.HI with the constant high word (T58C; only 0 or the rotate's c were taken); helper hc: cnot_funnel_rotate_in_lea_hi::constant_high_word_amount (trace/674386b1/s58/)
];

#[test]
fn the_seed_5901_word_findings_of_trace_b_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5901", &SEED_5901_LABELS_B);
}

/// What the word findings of seed 5901 (session 59's campaign build, fddad6f2) that helper ib traced
/// (session 59's trace B, corpus/findings/fuzz-h200-5901/trace/T59B.md) are labelled now.
const SEED_5901_LABELS_B: [(&str, &str); 3] = [
    ("6879f321", "fuzz-h200-3801-n1-mad-hi-chain-loses-links"), // KNOWN 3801-N1: a loop of 4 mad.hi.u32 links whose y is reloaded each trip by a weak ld.global ptxas hoists, 2 IMAD.HI (T59B; loads in the loop were left out); helper ib: emulate/mad_hi_operand_reloaded_alike_each_trip.rs (trace/6879f321/s59/)
    ("897610fe", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: h a mad.hi.u16 (IMAD; LEA.HI into a fresh register) merged over by {pair, h}, cvt.f32.f16 of h reads the pair (T59B; alu_half had no mad.hi); helper ib: merge_c_in_place::alu_half (trace/897610fe/s59/)
    ("da9494d5", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: h a slct.u16.s32 (SEL as selp's) merged over by st.v4.b16 {pair, h, …}, a later st.u16 of h stores the pair (T59B; alu_half had no slct); helper ib: merge_c_in_place::alu_half (trace/da9494d5/s59/)
];

#[test]
fn the_seed_5902_word_findings_of_trace_d_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5902", &SEED_5902_LABELS_D);
}

/// What the word findings of seed 5902 (session 59's campaign build, fddad6f2) that helper id traced
/// (session 59's trace D, corpus/findings/fuzz-h200-5902/trace/T59D.md) are labelled now.
const SEED_5902_LABELS_D: [(&str, &str); 3] = [
    ("958e24a0", "fuzz-h200-f-negation-overflow"), // KNOWN F: neg.s16 of -32768 copied by cvt.s16.s16, widened by cvt.s32.s16 unwrapped (T59D; negated_type asked for the neg as the direct producer); helper id: f_negation16_through_a_16bit_cvt_copy (trace/958e24a0/s59/)
    ("ea4a3d40", "fuzz-h100-j-branch-constant-splat"), // KNOWN J one size up: popc.b64 of a setp.ne.u64; @p bra fall-through value folded from K's low word in both words (T59D; b64_high_word took only unpacks); helper id: j_packed_constant/b64_high_word.rs::bit_op (popc/clz/brev.b64) (trace/ea4a3d40/s59/)
    ("f1a84be0", "fuzz-h200-4202-d438d526-mul-lo-s64-by-max-s32-pair-folded-away"), // KNOWN d438d526: four mul.lo.u64 by 0x3fffffff (32-bit order 4) then add -1 folded to x - 1 (T59D; FACTORS held only +-0x7fffffff, order 2); helper id: multiplier_chain_folded_to_its_low_word::order (trace/f1a84be0/s59/)
];

#[test]
fn the_seed_5901_word_findings_of_trace_c_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-5901", &SEED_5901_LABELS_C);
}

/// What the word finding of seed 5901 (session 59's campaign build, fddad6f2) that helper ic traced
/// (session 59's trace C, corpus/findings/fuzz-h200-5901/trace/T59C.md) is labelled now. Its other
/// finding, 549ef6fc, is an `unwritten-register` one with no word (the test below).
const SEED_5901_LABELS_C: [(&str, &str); 1] = [
    ("8e473ac1", "fuzz-h200-4202-d438d526-mul-lo-s64-by-max-s32-pair-folded-away"), // KNOWN d438d526: shl.b64 31 then mul.lo.u64 3 read by sub.cc.u64 of an immediate, the multiplier 3·2^31 folded to its low word 2^31 (the borrow the exact product's) (T59C; the emulation took runs of ±0x7fffffff and shift sums only, the toml's "wrong but not claimed" form); helper ic: multiplier_chain_folded_to_its_low_word.rs Steps::Scaled (trace/8e473ac1/s59/)
];

/// Seed 5901's `unwritten-register` finding 549ef6fc (trace/T59C.md): root cause O's dropped
/// `cnot.b32` of a loaded word read by `cvt.sat.u8.u32` (`LOP3.LUT R5, R0, 0xff, RZ, 0xc0` of a
/// never-written R0, then `STG.E.S8`), a real never-written read. The check flags it again on its
/// 13.0.88 -O3 listing and on u5's (the cnot into another register); `cvt.u8.u32` (u2) and
/// `cvt.sat.u8.s32` (u4) flag nothing. No entry names an `STG.E.S8` reader of a `LOP3.LUT` (O's SASS
/// entry keys the shift readers; O's toml says why no key can name its store readers alone, as for
/// seed 5501's cc7f459c), so it stays new by signature; its value is O's by emulation.
#[test]
fn the_seed_5901_sass_finding_549ef6fc_is_a_real_unwritten_read() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let trace = repo().join("corpus/findings/fuzz-h200-5901/trace/549ef6fc");
    let label = |path: &str| sass_label(&trace.join(path), &known);
    assert_eq!(label("orig.130.O3.sass"), "new STG.E.S8");
    assert_eq!(label("s59/u5_cnot_new_reg.130.O3.sass"), "new STG.E.S8");
    assert_eq!(label("s59/u2_no_sat.130.O3.sass"), "gone");
    assert_eq!(label("s59/u4_sat_u8_s32.130.O3.sass"), "gone");
    let stored = stored_ids_and_signatures(&repo().join("corpus/findings/fuzz-h200-5901/findings-labelled-new.json"));
    let f = stored.findings.iter().find(|f| f.id.starts_with("549ef6fc")).unwrap();
    assert_eq!(f.signature.class, FindingClass::UnwrittenRegister);
    assert!(known.matches(&f.signature).is_none());
}

/// How triage labels the SASS listing at `path` as ptxas -O3's: the entries that name its
/// never-written reads (`+`-joined), `new` and the reading forms, or `gone` when it has none.
fn sass_label(path: &std::path::Path, known: &KnownSet) -> String {
    use runner::fuzz::retriage::{label_listing, Label};
    let text = std::fs::read_to_string(path).unwrap();
    match label_listing(&text, "ptxas -O3", known).unwrap() {
        Label::Known(names) => names.join("+"),
        Label::New(sigs) => format!("new {}", sigs.iter().map(|s| s.form.as_str()).collect::<Vec<_>>().join(" ")),
        Label::Gone => "gone".to_string(),
    }
}

/// Each crash finding of `corpus/findings/CAMPAIGN/findings-labelled-new.json` labelled as
/// triage labels it now: by an entry matching its signature, else (an optimizing ptxas's "ptxas
/// crash", which has no site) by the entry that knows it beside the same program's other crash
/// of the run ([`KnownSet::crash_known_beside`]: the stored crashes with the same PTX, as triage
/// sees one program's crashes in its batch), else `new`.
fn crash_labels_of(campaign: &str) -> BTreeMap<String, String> {
    #[derive(serde::Deserialize)]
    struct Crash {
        id: String,
        signature: Signature,
        ptx: String,
    }
    #[derive(serde::Deserialize)]
    struct Doc {
        findings: Vec<Crash>,
    }
    let path = repo().join("corpus/findings").join(campaign).join("findings-labelled-new.json");
    let doc: Doc = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let crashes: Vec<&Crash> = doc.findings.iter().filter(|f| f.signature.class == FindingClass::Crash).collect();
    let mut labels = BTreeMap::new();
    for f in &crashes {
        let siblings: Vec<Signature> = crashes.iter().filter(|g| g.ptx == f.ptx).map(|g| g.signature.clone()).collect();
        let name = known.matches(&f.signature).or_else(|| known.crash_known_beside(&f.signature, &siblings));
        labels.insert(f.id[..8].to_string(), name.map_or_else(|| "new".to_string(), |k| k.name.clone()));
    }
    labels
}

#[test]
fn the_seed_5901_crash_findings_of_trace_a_are_labelled_by_their_entries() {
    assert_eq!(crash_labels_of("fuzz-h200-5901"), expected(&SEED_5901_CRASH_LABELS_A));
}

/// What the crash findings of seed 5901 (session 59's campaign build, fddad6f2) that helper ia
/// traced (session 59's trace A, corpus/findings/fuzz-h200-5901/trace/T59A.md) are labelled now:
/// one program, the segfault form of the 5a46d3da ptxas entry (ptxas pc 0xa08540 as aa407168).
const SEED_5901_CRASH_LABELS_A: [(&str, &str); 2] = [
    ("77a8db09", "fuzz-h200-5003-5a46d3da-ptxas-loops-on-lop3-eq-zero-diamond-and-guarded-write"), // KNOWN 5a46d3da: the JIT's SIGSEGV at libnvidia-ptxjitcompiler.so.1+0x4909ce (f22f9b0f's site), now the entry's `[signature]` (T59A; the entry matched by id only)
    ("df9cef94", "fuzz-h200-5003-5a46d3da-ptxas-loops-on-lop3-eq-zero-diamond-and-guarded-write"), // KNOWN 5a46d3da: ptxas 13.0.88/13.5 -O3 SIGSEGV at pc 0xa08540 (aa407168's), known beside its program's JIT crash at the entry's site (`ptxas_crash_beside`, KnownSet::crash_known_beside) (trace/df9cef94/s59/)
];

#[test]
fn the_seed_6002_word_findings_of_trace_d_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6002", &SEED_6002_LABELS_D);
}

/// What the word finding of seed 6002 (session 60's campaign build, 8f446b8d) that helper jd traced
/// (session 60's trace D, corpus/findings/fuzz-h200-6002/trace/T60D.md) is labelled now. Seed 6001's
/// 54c61beb, traced with it, is an `unwritten-register` finding with no word (the test below).
const SEED_6002_LABELS_D: [(&str, &str); 1] = [
    ("e05edb4c", "fuzz-h200-g-shr-s16-by-16"), // KNOWN G (unpack): mov.b64 {h5, h0, h6, _} of cvt.u64.u16 of a loaded byte, h5 unread, d0 also read by setp.ge.s64 d0, 0 (T60D; only_here counted the sign test ptxas folds true and deletes); helper jd: g_unpack_beside_a_folded_sign_test.rs (trace/e05edb4c/s60/)
];

/// Seed 6001's `unwritten-register` finding 54c61beb (trace/T60D.md): 59da91ec's form B (an
/// e4m3x2 pair packed into `mov.b64 d0, {h3, h4, h2, h0}`, a `setp` of d0 branching around an arm
/// that rewrites d0, the pair read after the join) in its SASS form: ptxas 13.0.88 -O3 builds the
/// pair only merged into the pack's word (`PACK_AB_MERGE_C R10, RZ, RZ, RZ`) and the `sub.s16`
/// reading it takes R0, which nothing writes (`IADD3 R0, R7, R0, R4`, then `STG.E.U16.STRONG.GPU`);
/// a real never-written read. The check flags it again on the orig listing and on u1 (a plain
/// store), u6 (an xor reader), u11 (an `or.b64` arm); no arm (u3), no pair (u2), the pair not
/// packed (u4) and a loaded test (u7) flag nothing. No SASS entry names an `IADD3 → STG.E.U16*`
/// read (59da91ec is an emulation entry, decided by words; this finding has none), so it stays
/// new by signature, as seed 5501's cc7f459c and seed 5901's 549ef6fc do.
#[test]
fn the_seed_6001_sass_finding_54c61beb_is_a_real_unwritten_read() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let trace = repo().join("corpus/findings/fuzz-h200-6001/trace/54c61beb");
    let label = |path: &str| sass_label(&trace.join(path), &known);
    assert_eq!(label("orig.130.O3.sass"), "new STG.E.U16.STRONG.GPU");
    assert_eq!(label("s60/u1_plain_store.130.O3.sass"), "new STG.E.U16");
    assert_eq!(label("s60/u6_pair_read_by_xor_only.130.O3.sass"), "new STG.E.U16.STRONG.GPU");
    assert_eq!(label("s60/u11_arm_or.130.O3.sass"), "new STG.E.U16.STRONG.GPU");
    for right in ["u2_no_e4m3", "u3_no_arm", "u4_pair_not_packed", "u7_loaded_test"] {
        assert_eq!(label(&format!("s60/{right}.130.O3.sass")), "gone", "{right}");
    }
    assert_eq!(label("orig.135.O3.sass"), "gone");
    let stored = stored_ids_and_signatures(&repo().join("corpus/findings/fuzz-h200-6001/findings-labelled-new.json"));
    let f = stored.findings.iter().find(|f| f.id.starts_with("54c61beb")).unwrap();
    assert_eq!(f.signature.class, FindingClass::UnwrittenRegister);
    assert!(known.matches(&f.signature).is_none());
}

#[test]
fn the_seed_6001_word_finding_of_trace_a_is_labelled_by_its_entry() {
    assert_traced_labels("fuzz-h200-6001", &SEED_6001_LABELS_A);
}

/// What the word finding of seed 6001 (session 60's campaign build, 8f446b8d) that helper ja traced
/// (session 60's trace A, corpus/findings/fuzz-h200-6001/trace/T60A.md) is labelled now.
const SEED_6001_LABELS_A: [(&str, &str); 1] = [
    ("4ce75ab2", "fuzz-h200-3602-n3-subc-of-branch-constant-adds-it"), // KNOWN 3602-N3 on 64 bits: subc.cc.u64 on the fall-through of setp.ne.u64 d2, 1 adds K's words (T60A; branch_fixed_subtrahend took .u32/.s32 only); helper ja: fuzz3602.rs branch_fixed_subtrahend/carry, 64-bit (trace/4ce75ab2/s60/)
];

#[test]
fn the_seed_6002_word_finding_of_trace_a_is_labelled_by_its_entry() {
    assert_traced_labels("fuzz-h200-6002", &SEED_6002_LABELS_A);
}

/// What the word finding of seed 6002 (session 60's campaign build, 8f446b8d) that helper ja traced
/// (session 60's trace A, corpus/findings/fuzz-h200-6001/trace/T60A.md) is labelled now.
const SEED_6002_LABELS_A: [(&str, &str); 1] = [
    ("9abc666c", "fuzz-h200-3602-n3-subc-of-branch-constant-adds-it"), // KNOWN 3602-N3 through a copy: mov.b32 r0, tix in the arm of setp.ne.u32 tix, 4, then subc.cc.u32 r0, tix, r0 (T60A; the fact wanted the subtrahend itself compared); helper ja: branch_fixed_subtrahend through j_branch_known_values::branch_fixed_immediate (trace/9abc666c/s60/)
];

#[test]
fn the_seed_6002_word_findings_of_trace_c_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6002", &SEED_6002_LABELS_C);
}

/// What the word findings of seed 6002 (session 60's campaign build, 8f446b8d) that helper jc traced
/// (session 60's trace C, corpus/findings/fuzz-h200-6002/trace/T60C.md) are labelled now.
const SEED_6002_LABELS_C: [(&str, &str); 2] = [
    ("06791736", "fuzz-h200-3602-n2-neg-of-set-f32-halves-read-as-boolean"), // KNOWN 3602-N2's float -1.0: neg.s32 of a set.f32 read by xor.b32 beside an integer set (T60C; the rule wanted the SET in a logic op with another set.f32); helper jc: neg_of_set_f32_beside_logic_of_sets::in_logic_with_a_mask (trace/06791736/s60/)
    ("1b473611", "fuzz-h200-3501-n2-shl-b64-chain-folded-into-lea"), // KNOWN 3501-N2: 3 x mul.lo.s64 by -2^18 read by sub.s64 C - chain, C + x*F^2 (T60C; a sub read the chain only as its first source); helper jc: emulate/sub_of_s64_multiply_chain_from_a_constant.rs (trace/1b473611/s60/)
];

#[test]
fn the_seed_6001_word_findings_of_trace_b_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6001", &SEED_6001_LABELS_B);
}

/// What the word findings of seed 6001 (session 60's campaign build, 8f446b8d) that helper jb traced
/// (session 60's trace B, corpus/findings/fuzz-h200-6001/trace/T60B.md) are labelled now.
const SEED_6001_LABELS_B: [(&str, &str); 2] = [
    ("3e520b16", "fuzz-h200-5402-63f83d6e-pack-high-half-read-from-its-half-after-a-guarded-write"), // KNOWN 63f83d6e mirrored: the arm rewrites the {…, pair, h} word (`mov.b64 d0, 0`), h's register takes the unpacked element (`@!P0 PRMT R6, RZ, 0x7610, R6`) (T60B; the hook wanted h written in the arm); helper jb: pack_high_half_read_from_its_half_after_a_guarded_write/word_rewritten_in_an_arm.rs (trace/3e520b16/s60/)
    ("cb23dc6a", "new"), // KNOWN 3701-N-D, not reached: the pack built in place in h1's register (a cvt.bf16.f16 of a constant), h1 restored by `PRMT R0, R0, 0x7632, R0` with its high half left = h1, read by mul.wide.u16's 32-bit IMAD (T60B; no rule predicts the in-place pack in this frame, nor the 32-bit view; trace/cb23dc6a/s60/)
];

#[test]
fn the_seed_6005_word_finding_of_trace_e_is_labelled_by_its_entry() {
    assert_traced_labels("fuzz-h200-6005", &SEED_6005_LABELS_E);
}

/// What the word finding of seed 6005 (the session's final build, 4739f3c3) that helper ke traced
/// (session 60's trace E, corpus/findings/fuzz-h200-6005/trace/T60E.md) is labelled now.
const SEED_6005_LABELS_E: [(&str, &str); 1] = [
    ("08ac0734", "fuzz-h200-3602-n4-s8-round-trip-through-64-sign-extends-32"), // KNOWN 3602-N4: shr.b16 of the s8 round trip by a loaded amount 16, `SEL min(n, 0xffff); SHF.R.U32.HI` of the unmasked PRMT 0x8880 extension: 0xffff (T60E; the rule took amounts < 16 only); helper ke: fuzz3602.rs shr16_of_s8_round_trip, run-time amounts 16..31 (trace/08ac0734/s60/)
];

#[test]
fn the_seed_6005_word_finding_of_trace_f_is_labelled_by_its_entry() {
    assert_traced_labels("fuzz-h200-6005", &SEED_6005_LABELS_F);
}

/// What the word finding of seed 6005 (the session's final build, 4739f3c3) that helper kf traced
/// (session 60's trace F, corpus/findings/fuzz-h200-6005/trace/T60F.md) is labelled now.
const SEED_6005_LABELS_F: [(&str, &str); 1] = [
    ("caa2b68c", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: shr.s16 h1 merged over by mov.b64 {p, h1, p, h1}; the repeated word {p, h1} is read from the merged register, so element 3 stays h1 (T60F; the emulation took it as the pair); helper kf: merge_c_in_place.rs repeated_pair_word (trace/caa2b68c/s60/)
];

#[test]
fn the_seed_6102_word_finding_of_trace_e_is_labelled_by_its_entry() {
    assert_traced_labels("fuzz-h200-6102", &SEED_6102_LABELS_E);
}

/// What the word finding of seed 6102 (session 61's campaign build, 2e90cca6) that helper le traced
/// (session 61's trace E, corpus/findings/fuzz-h200-6102/trace/T61E.md) is labelled now.
const SEED_6102_LABELS_E: [(&str, &str); 1] = [
    ("7586be16", "fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number"), // KNOWN 3501-N3 (ce007cb2's trigger): cnot.b64 d0; cvt.rni.u32.f64 r0, d0 tested by cnot.b32 r4, r0, and a SIBLING cvt.rmi.u16.f64 h0, d0 of the same cnot folded to the number 1 (`SEL R6, RZ, 0x1, !P0`) (T61E; the trigger took the tested cvt and the cvts reading its result only); helper le: emulate/cnot_conversion_beside_a_tested_one.rs (trace/7586be16/s61/)
];

/// Seed 6102's `unwritten-register` finding 427d8456 (trace/T61E.md): ptxas 13.0.88 and 13.5 -O3 drop
/// the dead `ld.acquire.cluster.shared` of an arm and the `setp` of the arm's predicate p1, and keep
/// p1's readers under P0, which nothing writes: `@!P0 CCTL.IVALL` and the guard of the live `@!p1
/// ld.global.cg` in the next branch's arm, merged into its compare (`ISETP.NE.U32.OR P1, PT, R7,
/// 0x43, P0`). A real never-written read; the ISETP is the earlier read and keys the finding, named
/// by the CCTL cause's merged-guard entry (`ISETP.*.OR`, `source`); s61/w3 (the load unguarded: the
/// CCTL alone) is the CCTL entry's, w4 (`.cta`: the ISETP alone) the merged guard's; w1 (a relaxed
/// load) and w6 (no arm load) keep the setp.
#[test]
fn the_seed_6102_sass_finding_427d8456_is_the_cctl_drop_with_a_guard_merged_into_an_or() {
    const CCTL: &str = "sass-cctl-under-unwritten-predicate";
    const MERGED: &str = "sass-cctl-under-unwritten-predicate-merged-guard";
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let trace = repo().join("corpus/findings/fuzz-h200-6102/trace/427d8456");
    let label = |path: &str| sass_label(&trace.join(path), &known);
    assert_eq!(label("orig.130.O3.sass"), MERGED);
    assert_eq!(label("orig.135.O3.sass"), MERGED);
    assert_eq!(label("s61/w3_load_unguarded.130.O3.sass"), CCTL);
    assert_eq!(label("s61/w4_acquire_cta.130.O3.sass"), MERGED);
    for wrong in ["w5_guard_p1_true", "w7_tids_in_block"] {
        let l = label(&format!("s61/{wrong}.130.O3.sass"));
        assert!(l == CCTL || l == MERGED, "{wrong}: {l}");
    }
    for right in ["w1_relaxed_in_arm", "w6_no_arm_load"] {
        assert_eq!(label(&format!("s61/{right}.130.O3.sass")), "gone", "{right}");
    }
    let stored = stored_ids_and_signatures(&repo().join("corpus/findings/fuzz-h200-6102/findings-labelled-new.json"));
    let f = stored.findings.iter().find(|f| f.id.starts_with("427d8456")).unwrap();
    assert_eq!(f.signature.class, FindingClass::UnwrittenRegister);
    assert_eq!(known.matches(&f.signature).map(|k| k.name.as_str()), Some(MERGED));
    // A compare that ANDs (no merged guard) reading a never-written register stays new, and the
    // CCTL entry's other readers are still named as guards only.
    let sig = |form: &str, how: &str| Signature::new(FindingClass::UnwrittenRegister, form, "", ["ptxas -O3"], how);
    assert!(known.matches(&sig("ISETP.NE.U32.AND", "source")).is_none());
    assert!(known.matches(&sig("BRA", "source")).is_none());
}

#[test]
fn the_seed_6102_crash_finding_of_trace_e_is_labelled_by_its_entry() {
    assert_eq!(crash_labels_of("fuzz-h200-6102"), expected(&SEED_6102_CRASH_LABELS_E));
}

/// What the crash finding of seed 6102 (session 61's campaign build, 2e90cca6) that helper le traced
/// (session 61's trace E, corpus/findings/fuzz-h200-6102/trace/T61E.md) is labelled now.
const SEED_6102_CRASH_LABELS_E: [(&str, &str); 1] = [
    ("bc461d79", "fuzz-h100-p-o0-hinted-loads-crash"), // KNOWN P (cb849f3e's form), by id: -O0 never computes the policy d3, its dead first hinted load dropped, the arm's hinted ld.acquire.sys.v2.b64 takes desc[UR4] from R2:R3 = the output pointer's words (T61E; no GPU: the -O0 listings; not reproduced alone as the descriptor is the buffer address)
];

#[test]
fn the_seed_6102_word_findings_of_trace_d_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6102", &SEED_6102_LABELS_D);
}

/// What the word findings of seed 6102 (session 61's campaign build, 2e90cca6) that helper ld traced
/// (session 61's trace D, corpus/findings/fuzz-h200-6102/trace/T61D.md) are labelled now.
const SEED_6102_LABELS_D: [(&str, &str); 2] = [
    ("45b70e5a", "fuzz-h200-3201-n7-bfe-s32-past-msb"), // KNOWN N-7: bfe.s32 past the msb of a mul.wide.u16 product of constants, `MOV R0, 0xffff` (T61D; a_known_locally took the product as known); helper ld: n7_known_within_one_block/a_through_a_late_folded_producer.rs, also 64-bit shr (trace/45b70e5a/s61/)
    ("a1d7d823", "new"), // KNOWN B (the f32-loaded shl.b64 amount, -O0 and -O3) + c6d3ed97 widened, not reached: -O3's carry-in PT for a shl.b32 z known by known bits with a known one (0x8000 + 0), the flag (z ± K) != 0; z made by the case's loop of shl by the counter (T61D; trace/a1d7d823/s61/)
];

#[test]
fn the_seed_6101_word_findings_of_trace_a_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6101", &SEED_6101_LABELS_A);
}

/// What the word findings of seed 6101 (session 61's campaign build, 2e90cca6; its json rebuilt
/// from junit.xml) that helper la traced (session 61's trace A, corpus/findings/fuzz-h200-6101/trace/T61A.md)
/// are labelled now.
const SEED_6101_LABELS_A: [(&str, &str); 2] = [
    ("04f8f106", "fuzz-h200-3701-c1n2-cvt-of-set-f32-converts-1-beside-xor-of-set"), // KNOWN C1-N2's 64-bit widening (`SEL R9, RZ, 0x1, !P1`) triggered by xor.b16 of a cvt.s16.u32 of an integer set (T61A; the trigger wanted the set or a mov.b32 half of it); helper la: set_f32_widened_as_its_boolean/narrowed_mask.rs (trace/04f8f106/s61/)
    ("b48ec167", "new"), // unresolved: h40 (the high half of cvt.u64.u16's low word, 0) read from r10's high half after `LDG.E.64 R8` reused h0's register (`PRMT R8, R11, 0x7632, R8; PRMT R6, R8, 0x7632, R6`); G's zero-extended high half in play (u2), the read register allocation-dependent (T61A; trace/b48ec167/s61/)
];

#[test]
fn the_seed_6102_word_finding_of_trace_a_is_labelled_by_its_entry() {
    assert_traced_labels("fuzz-h200-6102", &SEED_6102_LABELS_A);
}

/// What the word finding of seed 6102 (session 61's campaign build, 2e90cca6) that helper la traced
/// (session 61's trace A, corpus/findings/fuzz-h200-6101/trace/T61A.md) is labelled now.
const SEED_6102_LABELS_A: [(&str, &str); 1] = [
    ("9e2ce1b2", "fuzz-h200-3701-c1n2-cvt-of-set-f32-converts-1-beside-xor-of-set"), // KNOWN C1-N2: cvt.u8.u64 of cvt.rn.f64.s32 of the set.f32 beside an xor of an integer set's halves is the boolean (`SEL R0, RZ, 0x1, !P0`; 9d958b9f's widening mirrored) (T61A; the rule took the 64-bit widening only); helper la: of_a_float_cvt_of_the_set.rs `narrowing` (trace/9e2ce1b2/s61/)
];

#[test]
fn the_seed_6101_word_finding_of_trace_b_is_labelled_by_its_entry() {
    assert_traced_labels("fuzz-h200-6101", &SEED_6101_LABELS_B);
}

/// What the word finding of seed 6101 (session 61's campaign build, 2e90cca6) that helper lb traced
/// (session 61's trace B, corpus/findings/fuzz-h200-6101/trace/T61B.md) is labelled now.
const SEED_6101_LABELS_B: [(&str, &str); 1] = [
    ("014173b6", "fuzz-h200-4101-1e6e819c-xor-of-set-mask-halves-tested-over-merged-half"), // KNOWN 1e6e819c: the set mask's halves or-ed (not xor-ed), then xor-ed: `LOP3.LUT P2 … 0xfc` over a stale PRMT half, `SEL ~x, x` (T61B; halves_xor_of took xor only); helper lb: xor16_of_set_mask_halves_as_predicate/or_halves.rs (trace/014173b6/s61/)
];

#[test]
fn the_seed_6102_word_finding_of_trace_b_is_labelled_by_its_entry() {
    assert_traced_labels("fuzz-h200-6102", &SEED_6102_LABELS_B);
}

/// What the word finding of seed 6102 (session 61's campaign build, 2e90cca6) that helper lb traced
/// (session 61's trace B, corpus/findings/fuzz-h200-6101/trace/T61B.md) is labelled now.
const SEED_6102_LABELS_B: [(&str, &str); 1] = [
    ("2f0c593b", "fuzz-h200-5103-d88aeb3a-b64-repack-in-an-arm-loads-the-new-low-word-over-the-old"), // KNOWN d88aeb3a, seed 5403's mirror {hi, new} with new a min.s32: `VIMNMX R11, R9, …; IMAD.MOV.U32 R10, RZ, RZ, R11` (T61B; computed_in_arm took add.u32/subc.u32 only); helper lb: b64_repack_in_an_arm_loads_new_word_over_old_low.rs computing_op (trace/2f0c593b/s61/)
];

#[test]
fn the_seed_6103_word_findings_of_trace_f_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6103", &SEED_6103_LABELS_F);
}

/// What the word findings of seed 6103 (session 61's campaign build, 2e90cca6) that helper lf traced
/// (session 61's trace F, corpus/findings/fuzz-h200-6103/trace/T61F.md) are labelled now.
const SEED_6103_LABELS_F: [(&str, &str); 2] = [
    ("0519b12d", "fuzz-h200-4803-eb1853bf-neg-of-subc-into-addc-adds-the-borrow"), // KNOWN eb1853bf at 64 bits: neg.s64 of addc.cc.s64 (the add.cc.s64 reassociated into it) folded into subc.s64's IADD3.X, the addc's carry-in added: + 2 (T61F; the rule took .u32/.s32 only); helper lf: negated_carry_op_folded_keeps_its_carry_in_added/wide.rs (trace/0519b12d/s61/)
    ("6b174171", "fuzz-h200-3702-n7-branch-on-bfly-predicate-taken-as-uniform"), // KNOWN 3702-N7: @!p0 bra on shfl.sync.bfly of a constant taken as uniform, no BSSY/WARPSYNC before a later shfl.sync.up: lane 15 reads lane 13 before it arrives (T61F; no emulation by design: the id added to the entry's `id` list; trace/6b174171/s61/)
];

#[test]
fn the_seed_6101_word_findings_of_trace_c_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6101", &SEED_6101_LABELS_C);
}

/// What the word findings of seed 6101 (session 61's campaign build, 2e90cca6) that helper lc traced
/// (session 61's trace C, corpus/findings/fuzz-h200-6101/trace/T61C.md) are labelled now.
const SEED_6101_LABELS_C: [(&str, &str); 2] = [
    ("5636968d", "fuzz-h200-4203-6a4d050b-setp-one-of-f32-set-of-wide-source-tests-the-set"), // KNOWN 6a4d050b: setp.ne.s32 s, 1 of set.ge.f32.s64 folded, and the arm it pins copies s as the 1 (`@!P0 PRMT R0, R6` with R6 = 1) (T61C; the fold was emulated, the copy read the word); helper lc: setp_one_of_f32_set_of_wide_source/arm_copy_reads_the_pinned_one.rs (trace/5636968d/s61/)
    ("dfda7034", "fuzz-h200-3604-n2-widened-set-f32-compared-with-zero"), // KNOWN 3604-N2: cvt.u64.u32 of a set.f32 whose word set.ne.s32.s32 0, s tests (live) is the rebuilt 1 (`SEL R9, RZ, 0x1, !P0`), read by cvt.pack.sat.u4 (T61C; the rule wanted a setp.u64 of the widened value or a byte reader); helper lc: set_f32_widened_as_its_boolean/beside_a_zero_test_of_its_word.rs (trace/dfda7034/s61/)
];

#[test]
fn the_seed_6103_word_findings_of_trace_g_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6103", &SEED_6103_LABELS_G);
}

/// What the word findings of seed 6103 (session 61's campaign build, 2e90cca6) that helper lg traced
/// (session 61's trace G, corpus/findings/fuzz-h200-6103/trace/T61G.md) are labelled now.
const SEED_6103_LABELS_G: [(&str, &str); 2] = [
    ("407ea10a", "fuzz-h200-3602-n1-xor-of-branch-constant-drops-inversion"), // KNOWN 3602-N1: the mask a moved -1 in a register (`mov r3, -1; …; xor r3, tix, r3`), an empty-arm diamond, `@!P0 MOV R5, 0x3` (T61G; the rule took an immediate mask only); helper lg: emulate/fuzz3602/xor_of_branch_constant.rs, one-armed ifs, d = v right where the other path keeps v (trace/407ea10a/s61/)
    ("d08c2cc6", "fuzz-h200-3702-n2-lop3-merged-into-xor-reads-x"), // KNOWN 3702-N2: xor(y, lop3(x, x, y, 0xca)) with y a moved constant, merged as y ^ L(x, 0, y) (`LOP3.LUT R5, R0, K, RZ, 0x60`) (T61G; the rule read a as 0, e6f0c29f's register-y binding); helper lg: lop3_merged_by_its_b_or_c/folded_c_swapped_into_b.rs (trace/d08c2cc6/s61/)
];

#[test]
fn the_seed_6201_word_findings_of_trace_d_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6201", &SEED_6201_LABELS_D);
}

/// What the word findings of seed 6201 (session 62's campaign build, abc66fe3) that helper md traced
/// (session 62's trace D, corpus/findings/fuzz-h200-6201/trace/T62D.md) are labelled now; its third
/// finding, 7ecef168, is an `unwritten-register` one with no word (the test below).
const SEED_6201_LABELS_D: [(&str, &str); 2] = [
    ("87c77fff", "new"), // KNOWN 3801-N4 (the half beside an in-place e5m2x2 pair read as R1, the stack pointer's high half: `PRMT R6, R1, 0x7632, R6`, byte 0xff, spec 0; 13.5 the same), not emulated by design (the entry: the value is the stack pointer's, the read the allocator's choice), as seed 5803's 92486375 (T62D; trace/87c77fff/s62/)
    ("b7f77768", "fuzz-h200-3702-n7-shuffle-of-bfly-predicate-choice-dropped"), // KNOWN 3702-N7: the choice a one-armed if `@!p0 bra L; mov.b32 r0, 0; L:` on the bfly's predicate, if-converted `@P0 PRMT R0, RZ, 0x7610, R0`, no SHFL.IDX (T62D; chosen_by took guarded writes and selp only); helper md: shuffle_of_a_value_selected_by_a_bfly_predicate/arm.rs (trace/b7f77768/s62/)
];

/// Seed 6201's `unwritten-register` finding 7ecef168 (trace/T62D.md): 59da91ec's form B (an fp8 pair
/// `cvt.rn.satfinite.e5m2x2.f16x2 h0` packed as the low half of `mov.b32 r1, {h0, h1}`, the pack read
/// in a branch arm) at a 32-bit pack: ptxas 13.0.88 -O3 builds the pair only in the pack's register
/// (`F2FP.SATFINITE.E5M2.F16.UNPACK_B_MERGE_C R5, RZ, RZ`) and the `setp.lt.s16` of h0 reads R0, which
/// nothing writes (`PRMT R0, R0, 0x9910, RZ; ISETP.GE.AND P0, PT, R0, RZ, PT`); 13.5 builds the pair
/// in R0 (clean). A real never-written read, latent here (the selp's two values are both 0). The
/// check flags it again on e4m3x2 (u3), a pair of two .f32 (u9), a loaded pair source (u10), a
/// loaded test (u7) and an arm writing another register from the pack (u13); clean: no arm (u1), no
/// pair (u2), the pair not packed (u4) or the pack's high half (u5), a guarded move (u11), a selp of
/// constants (u12). No SASS entry names an `ISETP.GE.AND` reader (59da91ec is an emulation entry,
/// decided by words), so it stays new by signature, as seed 6001's 54c61beb (the same form B) does.
#[test]
fn the_seed_6201_sass_finding_7ecef168_is_a_real_unwritten_read() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let trace = repo().join("corpus/findings/fuzz-h200-6201/trace/7ecef168");
    let label = |path: &str| sass_label(&trace.join(path), &known);
    assert_eq!(label("orig.130.O3.sass"), "new ISETP.GE.AND");
    for wrong in ["u3_e4m3x2", "u7_loaded_test", "u9_f32_pair", "u10_loaded_pair_source", "u13_arm_writes_other"] {
        assert_eq!(label(&format!("s62/{wrong}.130.O3.sass")), "new ISETP.GE.AND", "{wrong}");
    }
    for right in [
        "u1_no_arm",
        "u2_no_pair",
        "u4_pair_not_packed",
        "u5_pair_high_half",
        "u11_guarded_mov",
        "u12_selp_of_constants",
    ] {
        assert_eq!(label(&format!("s62/{right}.130.O3.sass")), "gone", "{right}");
    }
    assert_eq!(label("orig.135.O3.sass"), "gone");
    assert_eq!(label("orig.130.O0.sass"), "gone");
    let stored = stored_ids_and_signatures(&repo().join("corpus/findings/fuzz-h200-6201/findings-labelled-new.json"));
    let f = stored.findings.iter().find(|f| f.id.starts_with("7ecef168")).unwrap();
    assert_eq!(f.signature.class, FindingClass::UnwrittenRegister);
    assert!(known.matches(&f.signature).is_none());
}

#[test]
fn the_seed_6201_word_findings_of_trace_e_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6201", &SEED_6201_LABELS_E);
}

/// What the word finding of seed 6201 (session 62's campaign build, abc66fe3) that helper me traced
/// (session 62's trace E, corpus/findings/fuzz-h200-6201/trace/T62E.md) is labelled now.
const SEED_6201_LABELS_E: [(&str, &str); 1] = [
    ("d3a335ba", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: cvt.u32.u8 of h (cvt.rni.u8.f16) AFTER the pack read the merged register whole, {pair, h} (`MERGE_C R0, RZ, RZ, R0; LOP3.LUT R5, R0, R0, RZ, 0x3c`) (T62E; h after the pack was read as the pair zero-extended); helper me: merge_c_widened_byte_half_read_after_pack.rs::widened_after_pack (trace/d3a335ba/s62/)
];

#[test]
fn the_seed_6202_word_findings_of_trace_e_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6202", &SEED_6202_LABELS_E);
}

/// What the word finding of seed 6202 (session 62's campaign build, abc66fe3) that helper me traced
/// (session 62's trace E, corpus/findings/fuzz-h200-6201/trace/T62E.md) is labelled now.
const SEED_6202_LABELS_E: [(&str, &str); 1] = [
    ("6a0d8362", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // KNOWN 3702-N5: cvt.u64.u8 of cvt.u16.u64 of mov.b64 {prmt, prmt}, the PRMT narrowed (`PRMT R0, RZ, 0xb, R2`; 13.5 right) (T62E; the walk took a 64-bit pack only after an unpack); helper me: prmt_narrowed_per_zero_extending_reader.rs::reaching_prmt (trace/6a0d8362/s62/)
];

#[test]
fn the_seed_6203_word_findings_of_trace_e_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6203", &SEED_6203_LABELS_E);
}

/// What the word finding of seed 6203 (session 62's campaign build, abc66fe3) that helper me traced
/// (session 62's trace E, corpus/findings/fuzz-h200-6201/trace/T62E.md) is labelled now.
const SEED_6203_LABELS_E: [(&str, &str); 1] = [
    ("f783c3c1", "fuzz-h200-3604-n1-shr-s16-by-u32-cvt-converts-as-s16"), // KNOWN 3604-N1: shr.s16 by a mov.f32 copy of cvt.rni.u32.f32, fused `F2I.S16.NTZ R0, R0` (T62E; the producer taken was the mov.f32); helper me: fuzz3602.rs::shr_s16_by_u32_cvt via origin.rs::producer_through_f32_copies (trace/f783c3c1/s62/)
];

#[test]
fn the_seed_6201_word_findings_of_trace_b_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6201", &SEED_6201_LABELS_B);
}

/// What the word findings of seed 6201 (session 62's campaign build, abc66fe3) that helper mb traced
/// (session 62's trace B, corpus/findings/fuzz-h200-6201/trace/T62B.md) are labelled now.
const SEED_6201_LABELS_B: [(&str, &str); 2] = [
    ("28ffacaf", "fuzz-h200-3702-n5-prmt-sign-of-a-narrowed-reads-zero"), // KNOWN 3702-N5: the addend of mad.lo.u16 (0 · 0xaa7 + h1) zero-extends the low half of prmt 0xe885a3eb of a moved constant, narrowed `PRMT R7, RZ, 0xeb, R2` (T62B; the reader took mul/mad.u16 factors only); helper mb: prmt_narrowed_per_zero_extending_reader.rs zero_extended_bytes_glue (trace/28ffacaf/s62/)
    ("7ba41d93", "fuzz-h200-3801-n1-mad-hi-chain-loses-links"), // KNOWN 3801-N1: six `@!p mad.hi.s16` links in a loop, 2 `@P0 IMAD.HI R7, R11, 0x10000, R2|R4` (T62B; guarded links took .u16/.u32/.s32 only); helper mb: mad_hi_links_under_one_guard.rs link_typed_in_scope (trace/7ba41d93/s62/)
];

#[test]
fn the_seed_6202_word_finding_of_trace_b_is_labelled_by_its_entry() {
    assert_traced_labels("fuzz-h200-6202", &SEED_6202_LABELS_B);
}

/// What the word finding of seed 6202 (session 62's campaign build, abc66fe3) that helper mb traced
/// (session 62's trace B, corpus/findings/fuzz-h200-6201/trace/T62B.md) is labelled now.
const SEED_6202_LABELS_B: [(&str, &str); 1] = [
    ("1623a931", "fuzz-h200-4803-df7cd5e3-negation-inside-fused-min-min-dropped"), // KNOWN df7cd5e3: cnot.b16 (SEL mask negated) as the inner's b of a loop of min.u16 fused into `VIMNMX3.U16x2 R3, R6, R0, R6` that reads the mask 0xffff for 1 (T62B; the rule took neg/sub/mul.wide under signed min/max only); helper mb: negation_inside_fused_min_max_read_as_its_source.rs cnot arm (trace/1623a931/s62/)
];

#[test]
fn the_seed_6201_word_findings_of_trace_a_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6201", &SEED_6201_LABELS_A);
}

/// What the word findings of seed 6201 (session 62's campaign build, abc66fe3) that helper ma traced
/// (session 62's trace A, corpus/findings/fuzz-h200-6201/trace/T62A.md) are labelled now.
const SEED_6201_LABELS_A: [(&str, &str); 2] = [
    ("0f100ce6", "fuzz-h100-m-f16-mask-dropped"), // KNOWN M: and.b16 of an e4m3x2 pair (first source) and a loaded s16 mask, a v2.b16 store's low half, loses its LOP3 (`F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R0; PRMT R0, R0, 0x5410, RZ`, no load; 13.5 right) (T62A; M took immediate masks of fp8 pairs only); helper ma: skipped_integer_copy_and_f2fp_mask.rs `fp8_pair_masked_by_reg` (trace/0f100ce6/s62/)
    ("d2ca2b15", "fuzz-h100-m-f16-mask-dropped"), // KNOWN M: the same with an ld.u8 mask in a mov.b64 pack's first word (`PRMT R5, R0, 0x5410, RZ` of the unmasked pair) (T62A); helper ma: `fp8_pair_masked_by_reg` (trace/d2ca2b15/s62/)
];

#[test]
fn the_seed_6202_word_finding_of_trace_a_is_labelled_by_its_entry() {
    assert_traced_labels("fuzz-h200-6202", &SEED_6202_LABELS_A);
}

/// What the word finding of seed 6202 (session 62's campaign build, abc66fe3) that helper ma traced
/// (session 62's trace A, corpus/findings/fuzz-h200-6201/trace/T62A.md) is labelled now.
const SEED_6202_LABELS_A: [(&str, &str); 1] = [
    ("061d23c8", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: st.shared.v4.b16 {pair, h4, …} built in place in h4's R7, and the ld.shared.v4.s16 of it forwarded (no LDS): element 1 read from R7 (`IMAD.MOV.U32 R7, RZ, RZ, R10; PRMT R7, R7, 0x7604, RZ`; 13.5 the same) (T62A; no reader of h after the pack but the forwarded load); helper ma: store_forwarded_load.rs `forwarded_halves`, merge_c_pack_word_read_by_a_forwarded_load.rs `loaded_from_the_pack_store` (trace/061d23c8/s62/)
];

#[test]
fn the_seed_6203_word_finding_of_trace_a_is_labelled_by_its_entry() {
    assert_traced_labels("fuzz-h200-6203", &SEED_6203_LABELS_A);
}

/// What the word finding of seed 6203 (session 62's campaign build, abc66fe3) that helper ma traced
/// (session 62's trace A, corpus/findings/fuzz-h200-6201/trace/T62A.md) is labelled now.
const SEED_6203_LABELS_A: [(&str, &str); 1] = [
    ("ef36a487", "fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half"), // KNOWN 3701-N-D: h = cvt.sat.u8.u64 (`SEL; LOP3.LUT R0, R0, 0xff`, a fresh ALU result) merged over in place (`F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R0, RZ, R0; PRMT R3, R0, 0x5410, R0`; 13.0.88, 13.5 `VIMNMX` right) (T62A; the rule took cvt.u8.{u64,s64} without .sat); helper ma: merge_c_half_of_u8_cvt_or_truncation.rs `sat_u8_half` (trace/ef36a487/s62/)
];

#[test]
fn the_seed_6202_word_findings_of_trace_f_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6202", &SEED_6202_LABELS_F);
}

/// What the word findings of seed 6202 (session 62's campaign build, abc66fe3) that helper mf traced
/// (session 62's trace F, corpus/findings/fuzz-h200-6202/trace/T62F.md) are labelled now.
const SEED_6202_LABELS_F: [(&str, &str); 2] = [
    ("61e60b91", "fuzz-h200-f-negation-overflow"), // KNOWN F: abs.s16 of a -2^15 ptxas learns from known bits (or of and.b16 <ld.u8>, 0x8000) folded to 0xffff8000, read at 32 bits by mul.wide.u16 (`MOV R5, 0xc0000000`, 13.0.88 and 13.5) (T62F; F's 16-bit rules took a run-time abs only); helper mf: known_at_compile_time/f_abs16_of_a_learned_minimum.rs (trace/61e60b91/s62/)
    ("ca933fce", "fuzz-h200-3201-n7-bfe-s32-past-msb"), // KNOWN N-7: a guarded prefetch.global.L2 between mov.b32 a, 0 and bfe.s32 d, a, 0x3f, 0x10 ends the local fold's block (`HFMA2.MMA R0 = 0x00ff`) (T62F; the boundaries took guarded ld/st only); helper mf: n7_known_within_one_block.rs guarded_cache_op (trace/ca933fce/s62/)
];

#[test]
fn the_seed_6203_word_finding_of_trace_f_is_labelled_by_its_entry() {
    assert_traced_labels("fuzz-h200-6203", &SEED_6203_LABELS_F);
}

/// What the word finding of seed 6203 (session 62's campaign build, abc66fe3) that helper mf traced
/// (session 62's trace F, corpus/findings/fuzz-h200-6202/trace/T62F.md) is labelled now.
const SEED_6203_LABELS_F: [(&str, &str); 1] = [
    ("6b672a69", "fuzz-h200-3602-n4-s8-round-trip-through-64-sign-extends-32"), // KNOWN 3602-N4: cvt.s8.s64 of cvt.s64.s32 of cvt.s32.s8 is `PRMT 0x8880` unmasked, read by mad.wide.u16 (`IMAD R7, R2, R7`, 13.0.88; 13.5 `LOP3 0xffff`) (T62F; the 64-bit source took cvt.*.s8 or a cvt of ld.s8 only); helper mf: fuzz3602.rs sign_extended_byte_64 (trace/6b672a69/s62/)
];

#[test]
fn the_seed_6202_word_findings_of_trace_g_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6202", &SEED_6202_LABELS_G);
}

/// What the word finding of seed 6202 (session 62's campaign build, abc66fe3) that helper mg traced
/// (session 62's trace G, corpus/findings/fuzz-h200-6202/trace/T62G.md) is labelled now.
const SEED_6202_LABELS_G: [(&str, &str); 1] = [
    ("9980fb38", "fuzz-h200-4203-1c2ac943-chained-shr-s32-of-known-ones-folded-to-zero"), // KNOWN 1c2ac943 (y = shr.s32 of known ones ranged as shr.u32): `or.b32 y, 0x7fffffff` sets every unknown bit, folded to `MOV R4, 0x7fffffff` (T62G; the readers were and/setp/or-with-the-sign-bit); helper mg: logical_shift_readers.rs or_covering_the_unknown_bits (trace/9980fb38/s62/)
];

#[test]
fn the_seed_6203_word_findings_of_trace_g_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6203", &SEED_6203_LABELS_G);
}

/// What the word findings of seed 6203 (session 62's campaign build, abc66fe3) that helper mg traced
/// (session 62's trace G, corpus/findings/fuzz-h200-6202/trace/T62G.md) are labelled now.
const SEED_6203_LABELS_G: [(&str, &str); 2] = [
    ("7c4a3f02", "fuzz-h200-4103-bfed5396-joined-0x7fffffff-high-half-read-as-0xffff"), // KNOWN bfed5396: h0 = 0x7fff, the high half of a moved 64-bit constant's 0x7fffffff word unpacked in an arm that rewrites d1, packed as 0xffff (`@!P0 MOV R9, 0xffffffff`) (T62G; the rule took a mov.b32 unpack after the join); helper mg: high_half_of_max_s32_rejoined_after_an_arm/repacked_in_an_arm_rewriting_its_word.rs (trace/7c4a3f02/s62/)
    ("d64f0c9a", "new"), // KNOWN mechanism of sass-cctl-under-unwritten-predicate (ceff70d1's BRA reader): the arm's dead hinted ld.acquire.cta and setp p0 dropped, the later `@!%p0 bra` kept as `@!P0 BRA` with P0 never written (13.0.88 and 13.5 -O3; 13.5 also `@!P0 NOP` ×2): the words are what P0 held (T62G); no emulation (not reproducible by rule; 6b978d8f's precedent)
];

#[test]
fn the_seed_6201_crash_findings_of_trace_g_are_labelled_by_their_entry() {
    assert_eq!(crash_labels_of("fuzz-h200-6201"), expected(&SEED_6201_CRASH_LABELS_G));
}

/// What the crash findings of seed 6201 (session 62's campaign build, abc66fe3) that helper mg traced
/// (session 62's trace G, corpus/findings/fuzz-h200-6202/trace/T62G.md) are labelled now.
const SEED_6201_CRASH_LABELS_G: [(&str, &str); 2] = [
    ("4c0180a7", "fuzz-h200-4103-ed2b1511-o-hang-branch-moved-past-stores"), // KNOWN ed2b1511 by id: the JIT run of 96ee175f's program (T62G; the JIT's code unseen, -O3's listing stands in)
    ("96ee175f", "fuzz-h200-4103-ed2b1511-o-hang-branch-moved-past-stores"), // KNOWN ed2b1511 by id: bfind.u64's `@P1 BRA` moved behind its BSYNC (`@P1 BRA .L_x_2` back to `BSYNC B0`), lanes with a non-zero high word loop (13.0.88 and 13.5 -O3; -O0 right) (T62G; a hang has no [crash_by_sass]: ids only)
];

#[test]
fn the_seed_6202_crash_finding_of_trace_g_is_labelled_by_its_entry() {
    assert_eq!(crash_labels_of("fuzz-h200-6202"), expected(&SEED_6202_CRASH_LABELS_G));
}

/// What the crash finding of seed 6202 (session 62's campaign build, abc66fe3) that helper mg traced
/// (session 62's trace G, corpus/findings/fuzz-h200-6202/trace/T62G.md) is labelled now.
const SEED_6202_CRASH_LABELS_G: [(&str, &str); 1] = [
    ("72aa45cd", "fuzz-h100-p-o0-hinted-loads-crash"), // KNOWN P by id: -O0 never computes d0, the surviving hinted ld.relaxed.cluster…cache_hint takes desc[UR4] from R8:R9 = {0, the output address's low word} (T62G; written from a parameter, so no role of sass-descriptor-never-written names it; not reproduced alone as the descriptor is the buffer address)
];

#[test]
fn the_seed_6201_word_findings_of_trace_c_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6201", &SEED_6201_LABELS_C);
}

/// What the word finding of seed 6201 (session 62's campaign build, abc66fe3) that helper mc traced
/// (session 62's trace C, corpus/findings/fuzz-h200-6201/trace/T62C.md) is labelled now.
const SEED_6201_LABELS_C: [(&str, &str); 1] = [
    ("f08e3d72", "fuzz-h200-b-f32-shift-amount"), // KNOWN B: a set.f32 amount rebuilt at shl.b64 across a bra beside an xor of a set.eq.u32.u64 mask (`SEL R9, RZ, 0x1, !P1; SHF.L.U32`), the amount register's earlier value read by a setp before the set (T62C; the rule wanted every reader an amount); helper mc: set_f32_overwrites_earlier_writers.rs `reads_an_earlier_value` (trace/f08e3d72/s62/)
];

#[test]
fn the_seed_6202_word_findings_of_trace_c_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6202", &SEED_6202_LABELS_C);
}

/// What the word finding of seed 6202 (session 62's campaign build, abc66fe3) that helper mc traced
/// (session 62's trace C, corpus/findings/fuzz-h200-6201/trace/T62C.md) is labelled now.
const SEED_6202_LABELS_C: [(&str, &str); 1] = [
    ("358d47ca", "new"), // KNOWN 3801-N4 (by shape only): h3 beside an in-place e4m3x2 pair (`F2FP…MERGE_C R9, RZ, RZ, R0`) read as R1, the stack pointer's high half 0x00ff (`PRMT R0, R1, 0x7632, R0`), after a join; not emulated by the entry's design (T62C; trace/358d47ca/s62/)
];

#[test]
fn the_seed_6203_word_findings_of_trace_c_are_labelled_by_their_entries() {
    assert_traced_labels("fuzz-h200-6203", &SEED_6203_LABELS_C);
}

/// What the word finding of seed 6203 (session 62's campaign build, abc66fe3) that helper mc traced
/// (session 62's trace C, corpus/findings/fuzz-h200-6201/trace/T62C.md) is labelled now.
const SEED_6203_LABELS_C: [(&str, &str); 1] = [
    ("4b53cd6d", "fuzz-h200-3602-n2-neg-of-set-f32-halves-read-as-boolean"), // KNOWN 3602-N2's float −1.0 (`FSEL R7, RZ, -1, !P0`): N2's xor.b16 of the negation's halves beside a store of the negation (T62C; the float was emulated for logic of two sets or a mask only, and N2's boolean halves took the xor); helper mc: fuzz3602/neg_of_set_f32_beside_logic_of_sets.rs `halves_in_logic_and_stored` (trace/4b53cd6d/s62/)
];
