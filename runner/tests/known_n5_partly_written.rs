//! Root cause N-5 (ptxas -O3 if-conversion loses the else-value, corpus/findings/fuzz-h200-3201/
//! README.md) named by its mechanism, not by ids: `corpus/known/sass-n5-ifconv-loses-else-value.toml`
//! is a pattern over the `partly-written` input class the SASS check gives a read whose
//! undefined bits an arm or a guarded write made (`runner/src/sass/dataflow/partly.rs`). The
//! check run again on every traced finding's ptxas 13.0.88 -O3 listing: each traced N-5 kernel
//! is named N-5 (readers no id ever listed included), and each kernel traced as another cause
//! keeps its name. The findings stored before the property (their signatures have no input
//! class) are still named by `stored_id`.

use std::path::{Path, PathBuf};

use runner::findings::{FindingClass, KnownSet, Signature};
use runner::fuzz::retriage::{label_listing, Label};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

const N5: &str = "sass-n5-ifconv-loses-else-value";

/// The check run again on `corpus/findings/CAMPAIGN/trace/PATH` (instruction lines alone: one
/// kernel around them), each flagged read named as triage names it.
fn label(known: &KnownSet, campaign: &str, path: &str) -> Label {
    let file = repo().join("corpus/findings").join(campaign).join("trace").join(path);
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let text = if text.contains(".section") {
        text
    } else {
        format!(".section .text.k,\"ax\",@progbits\n.other k,@\"STO_CUDA_ENTRY STV_DEFAULT\"\nk:\n{text}")
    };
    label_listing(&text, "ptxas -O3", known).unwrap()
}

/// Every traced N-5 finding's kernel (orig and reduced listings): every read named N-5. Before
/// the property, the readers marked `*` had a key no id listed (so the kernel was new).
const N5_KERNELS: [(&str, &str); 20] = [
    ("fuzz-h200-3601", "75b062aa6fb392b6/reduced47.130.O3.sass"), // * IADD3.X, STG.E.64 (T1)
    ("fuzz-h200-3601", "75b062aa6fb392b6/reduced.130.O3.sass"),   // STG.E (T1)
    ("fuzz-h200-3701", "1dbb01570a8ad70f/orig.130.O3.sass"),      // * LOP3.LUT → STG.E.U16.STRONG.SYS (TU2)
    ("fuzz-h200-3701", "83b27374ca2b5deb/orig.130.O3.sass"),      // * as 1dbb0157 (TU2)
    ("fuzz-h200-3701", "83b27374ca2b5deb/red.130.O3.sass"),       // * STG.E.U16 (TU2)
    ("fuzz-h200-3701", "79855bd62442948b/red.130.O3.sass"),       // * STG.E.U16 (TU2)
    ("fuzz-h200-3802", "387dd709/orig.130.O3.sass"),              // PRMT → STG.E.U8 (T5C)
    ("fuzz-h200-3802", "387dd709/reduced.130.O3.sass"),           // * STG.E.U8 (T5C)
    ("fuzz-h200-3903", "387dd709/orig.130.O3.sass"),              // (T6G)
    ("fuzz-h200-3903", "5a91f5fc/orig.130.O3.sass"),              // (T6G)
    ("fuzz-h200-3903", "5a91f5fc/reduced.130.O3.sass"),           // * STG.E.U16 (T6G)
    ("fuzz-h200-3903", "a1e00980/orig.130.O3.sass"),              // (T6G)
    ("fuzz-h200-4002", "83b27374/orig.130.O3.sass"),              // (T7C)
    ("fuzz-h200-4002", "b521bf7f/orig.130.O3.sass"),              // (T7C)
    ("fuzz-h200-4002", "b97eda93/orig.130.O3.sass"),              // (T7D)
    ("fuzz-h200-4003", "8d490639/orig.130.O3.sass"),              // * PRMT → STG.E.U16 (T7G)
    ("fuzz-h200-4003", "25ba51f3/reduced.130.O3.sass"),           // * LOP3.LUT → STG.E.U16 (T7G)
    ("fuzz-h200-4003", "9fc1b1dc/reduced.130.O3.sass"),           // * PRMT → STG.E.64 (T7G)
    ("fuzz-h200-4003", "f3e83ec2/orig.130.O3.sass"),              // * STG.E.U8, N-6's key (T7G)
    ("fuzz-h200-4003", "f3e83ec2/reduced.130.O3.sass"),           // * (T7G)
];

#[test]
fn every_traced_n5_kernel_is_named_n5() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    for (campaign, path) in N5_KERNELS {
        let l = label(&known, campaign, path);
        let all = matches!(&l, Label::Known(n) if n.iter().all(|n| n == N5));
        assert!(all, "{campaign} {path}: {l:?}");
    }
}

/// Kernels traced as other causes: their names, unchanged by the property.
#[test]
fn the_kernels_of_other_causes_keep_their_names() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let names = |l: Label| match l {
        Label::Known(n) => n,
        Label::New(sigs) => sigs.iter().map(|s| format!("NEW {}", s.form)).collect(),
        Label::Gone => vec!["gone".to_string()],
    };
    let cases: [(&str, &str, &[&str]); 14] = [
        ("fuzz-h200-3701", "5a4b88eb101f7b83/orig.130.O3.sass", &["sass-tf32-of-unwritten-half"]), // D
        ("fuzz-h200-3901", "9f78d433/orig.130.O3.sass", &["sass-tf32-of-unwritten-half"]),         // D
        ("fuzz-h200-3601", "f3e83ec295c2d2db/reduced.130.O3.sass", &["sass-n6-uprmt-of-unwritten-uniform"]), // N-6
        (
            "fuzz-h200-4003",
            "e6bab329/orig.130.O3.sass",
            &["sass-n6-uprmt-of-unwritten-uniform", "sass-n6-uprmt-of-unwritten-uniform"],
        ), // N-6
        ("fuzz-h200-3902", "f860a7e5/reduced.130.O3.sass", &["sass-shift-by-unwritten-register"]), // O
        ("fuzz-h200-3902", "11dec73a/orig.130.O3.sass", &["sass-nc-load-hoisted-above-its-guard"]),
        ("fuzz-h200-3901", "7ec10586/orig.130.O3.sass", &["sass-predicate-of-half-merge-with-unwritten-half"]),
        ("fuzz-h200-3901", "b54273e0/orig.130.O3.sass", &["sass-n5-fp8-unpack-of-arm-only-register"]),
        (
            "fuzz-h200-3801",
            "ceff70d1/orig.130.O3.sass",
            &["sass-cctl-under-unwritten-predicate", "sass-descriptor-never-written", "sass-descriptor-never-written"],
        ),
        // Two readers of one never-written predicate: one finding, keyed by the first
        // (`sass::key_reads`; two findings before).
        ("fuzz-h200-4001", "0a8e4978/orig.130.O3.sass", &["sass-cctl-under-unwritten-predicate"]),
        // The same for seed 4603's 607f088a (`@P0 LOP3.LUT` after `@P0 CCTL.IVALL`) and seed
        // 4503's 0ee96c9e (`@!P2 PRMT` after `@!P2 CCTL.IVALL`): each second reader was new.
        ("fuzz-h200-4603", "607f088a/orig.130.O3.sass", &["sass-cctl-under-unwritten-predicate"]),
        (
            "fuzz-h200-4503",
            "0ee96c9e/orig.130.O3.sass",
            &["sass-descriptor-never-written", "sass-cctl-under-unwritten-predicate"],
        ),
        // A descriptor built in a waterfall loop under !P1 (partly written, a descriptor's).
        ("fuzz-h200-3702", "31811a06/min.130.O3.sass", &["sass-descriptor-never-written"; 3]),
        // The check's former false alarm (a guard recomputed after it was clobbered): no longer
        // flagged since `dataflow/recompute.rs`, and never N-5.
        ("fuzz-h200-4003", "2c543d4e/orig.130.O3.sass", &["gone"]),
    ];
    for (campaign, path, expected) in cases {
        assert_eq!(names(label(&known, campaign, path)), expected, "{campaign} {path}");
    }
}

/// The N-5 findings stored before the property (no input class) are named by `stored_id`; a
/// read of the same key whose bits nothing writes (input class empty, so the same id) is named
/// so too, as before: the ids are the stored findings', not a pattern.
#[test]
fn the_stored_n5_findings_are_named_by_their_ids() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let sig = |form: &str, shape: &str, input: &str| {
        Signature::new(FindingClass::UnwrittenRegister, form, input, ["ptxas -O3"], "source").with_shape(shape)
    };
    let stored = sig("ST.E.64.STRONG.SYS", "PRMT → ST.E.64.STRONG.SYS", "");
    assert_eq!(stored.key(), "8d49063988c28a5f");
    assert_eq!(known.matches(&stored).map(|k| k.name.as_str()), Some(N5));
    // The same read signed now: another id, named by the pattern.
    let now = sig("ST.E.64.STRONG.SYS", "PRMT → ST.E.64.STRONG.SYS", "partly-written");
    assert_ne!(now.key(), stored.key());
    assert_eq!(known.matches(&now).map(|k| k.name.as_str()), Some(N5));
    // Any reader of partly-written bits, a source: N-5; not a guard, not unless partly written.
    assert_eq!(known.matches(&sig("STG.E.U8", "", "partly-written")).map(|k| k.name.as_str()), Some(N5));
    // 83b27374ca2b5deb/v4_add's read (the arm's `@!P0 IADD3 R9, R9, 0x1` of a never-written R9:
    // no bits of R9 are ever defined, so the property cannot see N-5 there).
    assert!(known.matches(&sig("STG.E.U16", "IADD3 → STG.E.U16", "")).is_none());
    let guard =
        Signature::new(FindingClass::UnwrittenRegister, "ISETP.EQ.AND", "partly-written", ["ptxas -O3"], "guard");
    assert!(known.matches(&guard).is_none());
}

#[test]
fn a_stored_id_goes_beside_a_pattern_only() {
    let f = Path::new("x.toml");
    let ok = "stored_id = [\"8d49063988c28a5f\"]\nreason = \"r\"\nevidence = \"e\"\n\
        [signature]\nclass = \"unwritten-register\"\nform = \"*\"\ninput_class = \"partly-written\"\n";
    let k = KnownSet::parse_file(f, ok).unwrap();
    assert_eq!(k.stored_ids, ["8d49063988c28a5f"]);
    let beside_id = "id = \"8d49063988c28a5f\"\nstored_id = [\"8d49063988c28a5f\"]\nreason = \"r\"\nevidence = \"e\"\n";
    let err = KnownSet::parse_file(f, beside_id).unwrap_err().to_string();
    assert!(err.contains("`stored_id` goes beside a `[signature]` table"), "{err}");
    let bad = ok.replace("8d49063988c28a5f", "not-a-key");
    assert!(KnownSet::parse_file(f, &bad).unwrap_err().to_string().contains("`stored_id` must be a signature key"));
}
