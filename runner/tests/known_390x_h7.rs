//! The `unwritten-register` findings and the -O0 crashes of seeds 3901–3903
//! (corpus/findings/fuzz-h200-390{1,2,3}/: signatures in `findings-labelled-new.json`, traces in
//! `trace/`) labelled by their entries: 11dec73a (a `.nc` load hoisted above its guard's write),
//! 7ec10586 (a predicate of a half merge with a never-written half), N-5's four (b54273e0 by its
//! fp8-unpack reader, 5a91f5fc, a1e00980 and 387dd709 by key) and K's two crashes (by key); the
//! three P2R false alarms of seed 3903 stay new until the check models the restore. Each stored
//! signature matches its entry, and the check run again on the traced 13.0.88 and 13.5 -O3
//! listings labels the kernel known.

mod common;

use common::{repo, stored};
use runner::findings::{FindingClass, KnownSet, Signature};
use runner::fuzz::retriage::{label_listing, Label};

/// What each non-word finding of seeds 3901–3903 is labelled by its stored signature now.
const LABELS: [(&str, &str, Option<&str>); 11] = [
    ("fuzz-h200-3901", "b54273e0", Some("sass-n5-fp8-unpack-of-arm-only-register")), // N-5 (T6A)
    ("fuzz-h200-3901", "84d3badc", Some("fuzz-h100-k-descriptor-never-loaded")),     // K (T6B)
    ("fuzz-h200-3901", "2724c920", Some("fuzz-h100-k-descriptor-never-loaded")),     // K (T6B)
    ("fuzz-h200-3901", "7ec10586", Some("sass-predicate-of-half-merge-with-unwritten-half")), // NEW, latent (T6C)
    ("fuzz-h200-3902", "11dec73a", Some("sass-nc-load-hoisted-above-its-guard")),    // NEW (T6E)
    ("fuzz-h200-3903", "5a91f5fc", Some("sass-n5-ifconv-loses-else-value")),         // N-5 (T6G)
    ("fuzz-h200-3903", "a1e00980", Some("sass-n5-ifconv-loses-else-value")),         // N-5 (T6G)
    ("fuzz-h200-3903", "387dd709", Some("sass-n5-ifconv-loses-else-value")),         // N-5 (T6G)
    ("fuzz-h200-3903", "550d3ab7", None), // false alarm of the check, P2R restore (T6G)
    ("fuzz-h200-3903", "a1eecf57", None), // false alarm of the check, P2R restore (T6G)
    ("fuzz-h200-3903", "fe60b08f", None), // false alarm of the check, P2R restore (T6G)
];

#[test]
fn the_seed_390x_sass_findings_and_crashes_are_labelled_by_their_entries() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let mut seen = 0;
    for campaign in ["fuzz-h200-3901", "fuzz-h200-3902", "fuzz-h200-3903"] {
        for (id, sig) in stored(campaign).into_iter().filter(|(_, s)| s.class != FindingClass::Compiler) {
            let row = LABELS.iter().find(|(c, i, _)| *c == campaign && id.starts_with(i));
            let (_, _, expected) = row.unwrap_or_else(|| panic!("{campaign} {id} has no row"));
            assert_eq!(known.matches(&sig).map(|k| k.name.as_str()), *expected, "{campaign} {id}");
            seen += 1;
        }
    }
    assert_eq!(seen, 11);
}

/// The SASS check run again on a traced listing (instruction lines only: one kernel around them).
fn label(campaign: &str, path: &str) -> Label {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let text = std::fs::read_to_string(repo().join("corpus/findings").join(campaign).join("trace").join(path)).unwrap();
    let text = if text.contains(".section") {
        text
    } else {
        format!(".section .text.k,\"ax\",@progbits\n.other k,@\"STO_CUDA_ENTRY STV_DEFAULT\"\nk:\n{text}")
    };
    label_listing(&text, "ptxas -O3", &known).unwrap()
}

fn known_as(name: &str) -> Label {
    Label::Known(vec![name.to_string()])
}

#[test]
fn the_seed_390x_sass_listings_are_labelled_by_their_entries() {
    let hoisted = known_as("sass-nc-load-hoisted-above-its-guard");
    for path in ["11dec73a/orig.130.O3.sass", "11dec73a/orig.135.O3.sass", "11dec73a/reduced.130.O3.sass"] {
        assert_eq!(label("fuzz-h200-3902", path), hoisted, "{path}");
    }
    // A plain load keeps its guard's write first (v1_plain_ld): nothing flagged.
    assert_eq!(label("fuzz-h200-3902", "11dec73a/v1_plain_ld.130.O3.sass"), Label::Gone);
    let merge = known_as("sass-predicate-of-half-merge-with-unwritten-half");
    for path in ["7ec10586/orig.130.O3.sass", "7ec10586/orig.135.O3.sass"] {
        assert_eq!(label("fuzz-h200-3901", path), merge, "{path}");
    }
    assert_eq!(
        label("fuzz-h200-3901", "b54273e0/orig.130.O3.sass"),
        known_as("sass-n5-fp8-unpack-of-arm-only-register")
    );
    // 13.5 builds the pair in the register the unpack reads: nothing flagged.
    assert_eq!(label("fuzz-h200-3901", "b54273e0/reduced.135.O3.sass"), Label::Gone);
    // 5a91f5fc's kernel: every read N-5's (its `LOP3.LUT → STG.E.U8` too, a key the entry names).
    for path in ["5a91f5fc/orig.130.O3.sass", "5a91f5fc/orig.135.O3.sass"] {
        let n5 = label("fuzz-h200-3903", path);
        let all_n5 = matches!(&n5, Label::Known(names) if names.iter().all(|n| n == "sass-n5-ifconv-loses-else-value"));
        assert!(all_n5, "{path}: {n5:?}");
    }
}

/// The keys stay narrow: a plain guarded `LDG.E`, a store's direct read (seed 3201's N-5,
/// 036ff68f) and an -O0 listing's reads are named by none of these entries.
#[test]
fn the_seed_390x_sass_entries_name_no_other_read() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let name = |form: &str, how: &str, by: &str, shape: &str| {
        let sig = Signature::new(FindingClass::UnwrittenRegister, form, "", [by], how).with_shape(shape.to_string());
        known.matches(&sig).map(|k| k.name.clone())
    };
    assert_eq!(name("LDG.E", "guard", "ptxas -O3", ""), None);
    assert_eq!(name("LDG.E.LTC128B.CONSTANT", "guard", "ptxas -O0", ""), None);
    assert_eq!(name("STG.E.STRONG.SYS", "source", "ptxas -O3", ""), None);
    assert_eq!(name("F2FP.F16.E4M3.UNPACK_B_MERGE_C", "source", "ptxas -O3", ""), None);
    assert_eq!(name("SEL", "source", "ptxas -O3", "LOP3.LUT → SEL"), None);
    assert_eq!(name("STG.E.U16", "source", "ptxas -O3", "PRMT → STG.E.U16"), None);
}
