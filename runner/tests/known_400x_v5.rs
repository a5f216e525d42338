//! The `unwritten-register` findings and the crashes of seeds 4001–4003
//! (corpus/findings/fuzz-h200-400{1,2,3}/: signatures in `findings-labelled-new.json`, traces in
//! `trace/`) labelled by their entries: 0a8e4978 (a dead volatile load kept under the dropped
//! setp's predicate, sass-cctl-under-unwritten-predicate's third reader), N-5's five
//! (83b27374, b97eda93, 8d490639, 25ba51f3, 9fc1b1dc, by key) and K's two crashes (fb9b7180,
//! 2baed4ed, by key); f3e83ec2 (an N-5 read whose key seeds 3601/3602 named N-6) and the false
//! alarm 2c543d4e (T7G) stay new. Each stored signature matches its entry, and the check run
//! again on the traced 13.0.88 -O3 listings labels the kernel known.

mod common;

use common::{repo, stored};
use runner::findings::{FindingClass, KnownSet, Signature};
use runner::fuzz::retriage::{label_listing, Label};

/// What each unwritten-register finding and crash of seeds 4001–4003 is labelled by its stored
/// signature now.
const LABELS: [(&str, &str, Option<&str>); 10] = [
    ("fuzz-h200-4001", "0a8e4978", Some("sass-cctl-under-unwritten-predicate")), // volatile LDG guard (T7A)
    ("fuzz-h200-4001", "fb9b7180", Some("fuzz-h100-k-descriptor-never-loaded")), // K, -O3 crash (T7B)
    ("fuzz-h200-4001", "2baed4ed", Some("fuzz-h100-k-descriptor-never-loaded")), // K, JIT crash (T7B)
    ("fuzz-h200-4002", "83b27374", Some("sass-n5-ifconv-loses-else-value")),     // N-5, HFMA2.BF16_V2 (T7C)
    ("fuzz-h200-4002", "b97eda93", Some("sass-n5-ifconv-loses-else-value")),     // N-5, PRMT → STG.E (T7D)
    ("fuzz-h200-4003", "8d490639", Some("sass-n5-ifconv-loses-else-value")),     // N-5 (T7G)
    ("fuzz-h200-4003", "25ba51f3", Some("sass-n5-ifconv-loses-else-value")),     // N-5 (T7G)
    ("fuzz-h200-4003", "9fc1b1dc", Some("sass-n5-ifconv-loses-else-value")),     // N-5 (T7G)
    ("fuzz-h200-4003", "f3e83ec2", None), // N-5, but its key is N-6's of seeds 3601/3602 (T7G)
    ("fuzz-h200-4003", "2c543d4e", None), // false alarm of the check, SHFL clobber + recompute (T7G)
];

#[test]
fn the_seed_400x_sass_findings_and_crashes_are_labelled_by_their_entries() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let mut seen = 0;
    for campaign in ["fuzz-h200-4001", "fuzz-h200-4002", "fuzz-h200-4003"] {
        let sass_or_crash = |s: &Signature| matches!(s.class, FindingClass::UnwrittenRegister | FindingClass::Crash);
        for (id, sig) in stored(campaign).into_iter().filter(|(_, s)| sass_or_crash(s)) {
            let row = LABELS.iter().find(|(c, i, _)| *c == campaign && id.starts_with(i));
            let (_, _, expected) = row.unwrap_or_else(|| panic!("{campaign} {id} has no row"));
            assert_eq!(known.matches(&sig).map(|k| k.name.as_str()), *expected, "{campaign} {id}");
            seen += 1;
        }
    }
    assert_eq!(seen, 10);
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

#[test]
fn the_seed_400x_sass_listings_are_labelled_by_their_entries() {
    // 0a8e4978: the two CCTL.IVALL keys and the volatile LDG's guard, one entry.
    for path in ["0a8e4978/orig.130.O3.sass", "0a8e4978/orig.135.O3.sass"] {
        let l = label("fuzz-h200-4001", path);
        let all = matches!(&l, Label::Known(n) if n.iter().all(|n| n == "sass-cctl-under-unwritten-predicate"));
        assert!(all, "{path}: {l:?}");
    }
    // N-5's kernels: every read N-5's. (8d490639's kernel also flags `PRMT → STG.E.U16`, the final
    // store's read of the same register, a key no stored finding has: left out of the id list.)
    for (campaign, path) in [
        ("fuzz-h200-4002", "b97eda93/orig.130.O3.sass"),
        ("fuzz-h200-4003", "25ba51f3/orig.130.O3.sass"),
        ("fuzz-h200-4003", "9fc1b1dc/orig.130.O3.sass"),
    ] {
        let l = label(campaign, path);
        let all = matches!(&l, Label::Known(n) if n.iter().all(|n| n == "sass-n5-ifconv-loses-else-value"));
        assert!(all, "{path}: {l:?}");
    }
}

/// The keys stay narrow: a plain or `.nc` load's guard, an -O0 listing's volatile load, and the
/// N-5 readers with another shape are named by none of these entries.
#[test]
fn the_seed_400x_sass_entries_name_no_other_read() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let name = |form: &str, how: &str, by: &str, shape: &str| {
        let sig = Signature::new(FindingClass::UnwrittenRegister, form, "", [by], how).with_shape(shape.to_string());
        known.matches(&sig).map(|k| k.name.clone())
    };
    assert_eq!(name("LDG.E", "guard", "ptxas -O3", ""), None);
    assert_eq!(name("LDG.E.LTC256B.STRONG.SYS", "source", "ptxas -O3", ""), None);
    assert_eq!(name("HFMA2.BF16_V2", "source", "ptxas -O3", "PRMT → HFMA2.BF16_V2"), None);
    assert_eq!(name("STG.E.U16.STRONG.SM", "source", "ptxas -O3", "PRMT → STG.E.U16.STRONG.SM"), None);
}
