//! The SASS witness of a known entry's emulation (`sass_witness`, [`runner::sass::witness`]):
//! where the -O3 kernel's listing is at hand, root cause A's set-valued emulation
//! (`narrow-store-of-float-cvt`: every element of an 8-bit store is "any byte" once a float
//! `cvt` wrote one) explains that backend's words only when the listing has A's float-to-8-bit
//! conversion (`F2I*.{U8,S8}…`); without a listing it applies as before. End to end on the two
//! cases the 4201 audit found A swallowing (`corpus/findings/fuzz-h200-4201/trace/audit/T12k1.md`,
//! rows 33bf5631 and 6c26d195: no F2I in their ptxas 13.0.88 -O3 listings, which are in
//! `trace/audit/witness/`, with GPU words worked out from those listings as the audit did) and
//! on a case of A whose listing has the witness (seed 3301's 2f8d273e, its stored GPU words).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use oracle::program::text::parse_case;
use oracle::program::{interp, Inputs, Program};
use oracle::semantics::{Allowances, Deviation};
use runner::diff::program::WordMismatch;
use runner::findings::{FindingClass, KnownSet, Signature};
use runner::fuzz::engine::SassCheck;
use runner::fuzz::retriage::{label_words, Label};
use runner::sass::witness::witnessed_in_listing;

const A: &str = "fuzz-h200-a-narrow-store-converts";
const O3: &str = "cuda:ptxas-O3";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn witness_dir() -> PathBuf {
    repo().join("corpus/findings/fuzz-h200-4201/trace/audit/witness")
}

fn known() -> KnownSet {
    KnownSet::load(&repo().join("corpus/known")).unwrap()
}

fn case(path: &Path) -> (Program, Inputs) {
    parse_case(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The SASS check of `p`'s kernel as the engine records it for a clean kernel: no reads, no
/// listing kept, the witnessed globs of the known entries.
fn check(p: &Program, listing_file: &str, known: &KnownSet) -> SassCheck {
    let listing = std::fs::read_to_string(witness_dir().join(listing_file)).unwrap();
    let globs = known.emulation_scopes().sass_witnesses();
    let witnessed = witnessed_in_listing(&listing, &p.name, &globs).unwrap();
    SassCheck { by: "ptxas -O3".into(), reads: Vec::new(), listing: String::new(), witnessed }
}

/// Thread 0's word `word` on -O3: the oracle's word with byte `byte` set to `value` (the GPU
/// word the audit worked out from the listing).
fn o3_word(p: &Program, inputs: &Inputs, word: u32, byte: u32, value: u32) -> WordMismatch {
    let plain = interp::run(p, inputs, &Allowances::all()).unwrap();
    let spec = plain[0].field(32 * word, 32);
    assert!(spec.is_exact(), "the oracle's word is one value");
    let spec = spec.bits as u32;
    let gpu = (spec & !(0xff << (8 * byte))) | (value << (8 * byte));
    assert_ne!(gpu, spec, "the GPU word differs");
    WordMismatch {
        thread: 0,
        word,
        expected: format!("{spec:#010x}"),
        actual: BTreeMap::from([(O3.to_string(), format!("{gpu:#010x}"))]),
        decoded: String::new(),
    }
}

fn label(p: &Program, i: &Inputs, m: &[WordMismatch], known: &KnownSet, sass: Vec<SassCheck>) -> Label {
    let stored = Signature::new(FindingClass::Compiler, "cvt", "normal", vec![O3.to_string()], "value");
    label_words(p, i, &stored, m, known, &Allowances::all(), sass).unwrap()
}

#[test]
fn a_witness_is_a_mnemonic_glob_of_the_a_entry() {
    let known = known();
    let a = known.get(A).unwrap();
    assert!(!a.sass_witness.is_empty());
    let scopes = known.emulation_scopes();
    let none = BTreeSet::new();
    let has: BTreeSet<String> = a.sass_witness.iter().take(1).cloned().collect();
    let d = Deviation::NarrowStoreOfFloatCvt;
    assert!(scopes.for_backend(O3, None).contains(&d), "no listing: as before");
    assert!(scopes.for_backend("cuda:ptxas-O0", None).contains(&d));
    assert!(scopes.for_backend(O3, Some(&has)).contains(&d), "a listing with the witness");
    assert!(!scopes.for_backend(O3, Some(&none)).contains(&d), "a listing without it");
}

/// 33bf5631 (the case reduced on): -O3 pairs `cvt.sat.f16.f16` into `HADD2.SAT` after the
/// guarded `F2F.BF16.F16` overwrote its source (3801-N3's mechanism), so h29's byte (byte 3)
/// is sat(0) = 0x00 where the spec gives 0xff. No F2I in the listing.
#[test]
fn the_audits_33bf5631_is_not_a_once_its_listing_is_read() {
    let known = known();
    let (p, i) = case(&repo().join("corpus/findings/fuzz-h200-4201/known-cases/33bf5631bf87859f.case"));
    let m = [o3_word(&p, &i, 0, 3, 0x00)];
    assert_eq!(label(&p, &i, &m, &known, Vec::new()), Label::Known(vec![A.to_string()]), "before: A");
    let sass = vec![check(&p, "33bf5631bf87859f.O3.sass", &known)];
    assert!(sass[0].witnessed.is_empty());
    assert!(matches!(label(&p, &i, &m, &known, sass), Label::New(_)), "no F2I: not A");
}

/// 6c26d195 (the case reduced on): -O3 folds the set-derived 1 through `cvt.f16.bf16` as the
/// number 1.0 (`SEL R0, RZ, 0x3f80, !P0`), storing byte 0x80 at byte 2 where the spec gives
/// 0x00. No F2I in the listing.
#[test]
fn the_audits_6c26d195_is_not_a_once_its_listing_is_read() {
    let known = known();
    let (p, i) = case(&repo().join("corpus/findings/fuzz-h200-4201/known-cases/6c26d19555826614.case"));
    let m = [o3_word(&p, &i, 0, 2, 0x80)];
    assert_eq!(label(&p, &i, &m, &known, Vec::new()), Label::Known(vec![A.to_string()]), "before: A");
    let sass = vec![check(&p, "6c26d19555826614.O3.sass", &known)];
    assert!(sass[0].witnessed.is_empty());
    assert!(matches!(label(&p, &i, &m, &known, sass), Label::New(_)), "no F2I: not A");
}

/// Seed 3301's 2f8d273e (A, its stored words of the JIT, -O0 and -O3): its -O3 listing has
/// `F2I.U8.F16.TRUNC.NTZ`, so it stays A with the listing as without.
#[test]
fn a_case_of_a_whose_listing_has_the_witness_stays_a() {
    #[derive(serde::Deserialize)]
    struct Stored {
        id: String,
        mismatches: Vec<WordMismatch>,
    }
    #[derive(serde::Deserialize)]
    struct Doc {
        findings: Vec<Stored>,
    }
    let known = known();
    let dir = repo().join("corpus/findings/fuzz-h200-3301");
    let doc: Doc =
        serde_json::from_str(&std::fs::read_to_string(dir.join("findings-third-run.json")).unwrap()).unwrap();
    let f = doc.findings.iter().find(|f| f.id.starts_with("2f8d273e")).unwrap();
    let (p, i) = case(&dir.join("cases").join(format!("{}.case", f.id)));
    let sass = vec![check(&p, "3301-2f8d273efdd55ca5.O3.sass", &known)];
    assert!(!sass[0].witnessed.is_empty());
    let a = Label::Known(vec![A.to_string()]);
    assert_eq!(label(&p, &i, &f.mismatches, &known, Vec::new()), a);
    assert_eq!(label(&p, &i, &f.mismatches, &known, sass), a);
}

#[test]
fn a_witness_needs_an_emulation_beside_it() {
    let dir = std::env::temp_dir().join(format!("ptxdiff-witness-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let entry = "reason = \"r\"\nevidence = \"e\"\nsass_witness = [\"F2I*\"]\n[signature]\nclass = \"compiler\"\nform = \"cvt*\"\n";
    std::fs::write(dir.join("x.toml"), entry).unwrap();
    let err = KnownSet::load(&dir).unwrap_err().to_string();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(err.contains("sass_witness"), "{err}");
}
