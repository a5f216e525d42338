//! Root cause K's crashes known by their mechanism, not their keys
//! (`corpus/known/fuzz-h100-k-descriptor-never-loaded.toml`, `[crash_by_sass]`;
//! [`runner::findings::CrashBySass`], [`runner::fuzz::known_crash`]): with K's `id` list removed
//! (a temporary copy of `corpus/known/`), every stored K crash — the 12 keys the list names,
//! from their `.case` files under `corpus/findings/`, and 2baed4ed's 3-instruction reduction —
//! is labelled K because its kernel's listing at the crashing backend's level (-O3 for the JIT)
//! accesses memory through a descriptor and never loads c[0x0][0x208] — also seed 4402's
//! 9cd3e758, whose -O0 descriptor holds data (the SASS check flags no read); a crash of a kernel
//! that loads the descriptor, and a hang of a K kernel, stay new (a crash of a kernel that loads it
//! and reads a policy descriptor nothing wrote, or one holding loaded data, is the createpolicy
//! entry's, `sass-descriptor-never-written`). Needs ptxas and nvdisasm as the other SASS tests find them
//! (`common::sass_tools_or_skip`: without them the tests say so and pass, unless `CI` or
//! `PTXDIFF_REQUIRE_PTXAS` is set); the loading test needs neither.

mod common;

use std::path::{Path, PathBuf};

use oracle::program::text::parse_case;
use runner::findings::{FindingClass, KnownSet, Signature};
use runner::fuzz::known_crash::{crash_known_by_sass, program_crash_known_by_sass, CrashCheck};

const K: &str = "fuzz-h100-k-descriptor-never-loaded";
const ILLEGAL: &str = "CUDA_ERROR_ILLEGAL_INSTRUCTION";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The 12 crashes K's `id` list names: case file, signature form and backend, and key.
const K_CRASHES: [(&str, &str, &str, &str); 12] = [
    ("fuzz-h100-b/c4104-crash-selp.b16-51224bcf.case", "selp.b16", "cuda:ptxas-O3", "51224bcf8430789b"),
    ("fuzz-h100-b/c4104-crash-selp.b16-3ec159f0.case", "selp.b16", "cuda:jit", "3ec159f05c208ff7"),
    ("fuzz-h100-b/c4103-crash-selp.b32-a69c23b9.case", "selp.b32", "cuda:ptxas-O0", "a69c23b9f31833ba"),
    ("fuzz-h200-3601/cases/5c073d59e12bcc4e.case", "add.u32", "cuda:ptxas-O0", "5c073d59e12bcc4e"),
    ("fuzz-h200-3602/cases/04572e72797e1f5e.case", "xor.b64", "cuda:ptxas-O0", "04572e72797e1f5e"),
    ("fuzz-h200-3802/cases/b22ec7919f3064b7.case", "setp.gt.u64", "cuda:ptxas-O0", "b22ec7919f3064b7"),
    ("fuzz-h200-3901/cases/84d3badc9d92d10d.case", "or.b16", "cuda:ptxas-O0", "84d3badc9d92d10d"),
    ("fuzz-h200-3901/cases/2724c920e6442f4f.case", "min.s16x2", "cuda:ptxas-O0", "2724c920e6442f4f"),
    ("fuzz-h200-4001/cases/fb9b718041d5fc6d.case", "xor.b64", "cuda:ptxas-O3", "fb9b718041d5fc6d"),
    ("fuzz-h200-4001/cases/2baed4edf5e894e8.case", "setp.ge.s32", "cuda:jit", "2baed4edf5e894e8"),
    ("fuzz-h200-4203/cases/82e7bd321e09651d.case", "xor.b64", "cuda:jit", "82e7bd321e09651d"),
    ("fuzz-h200-4303/cases/cd64eb6b7eef6035.case", "max.s32", "cuda:ptxas-O0", "cd64eb6b7eef6035"),
];

fn crash(form: &str, backend: &str, how: &str) -> Signature {
    Signature::new(FindingClass::Crash, form, "", [backend], how)
}

/// `corpus/known/` copied with K's `id = [...]` list removed: only its mechanism can name K.
fn known_without_k_ids() -> (tempfile::TempDir, KnownSet) {
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(repo().join("corpus/known")).unwrap() {
        let path = e.unwrap().path();
        let mut text = std::fs::read_to_string(&path).unwrap();
        if path.file_stem().is_some_and(|s| s == K) {
            let start = text.find("\nid = [").expect("K names its crashes by an id list");
            let end = start + text[start..].find("\n]").expect("the list ends") + 2;
            text.replace_range(start..end, "");
            assert!(!text.contains("\"cd64eb6b7eef6035\""), "the ids are gone");
        }
        std::fs::write(dir.path().join(path.file_name().unwrap()), text).unwrap();
    }
    let known = KnownSet::load(dir.path()).unwrap();
    (dir, known)
}

fn tools() -> Option<CrashCheck> {
    common::sass_tools_or_skip().map(|(ptxas, checker)| CrashCheck { ptxas, checker })
}

/// K loads with its mechanism beside its ids, and loads with its ids removed.
#[test]
fn k_states_its_mechanism_and_loads_without_its_ids() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let k = known.get(K).unwrap().crash_by_sass.clone().expect("K names what explains its crashes");
    assert_eq!((k.present, k.error), (vec!["desc[UR".to_string()], vec![ILLEGAL.to_string()]));
    assert!(k.how.is_empty(), "the listing decides, not a flagged read");
    assert_eq!(k.stand_in.get("cuda:jit"), Some(&3), "the -O3 listing stands in for the JIT's");
    assert_eq!(k.absent, ["c[0x0][0x208]"], "K: the global descriptor is never loaded");
    let (_dir, emptied) = known_without_k_ids();
    for (_, form, backend, id) in K_CRASHES {
        let sig = crash(form, backend, ILLEGAL);
        assert_eq!(sig.key(), id, "{form} {backend}");
        assert_eq!(known.matches(&sig).map(|k| k.name.as_str()), Some(K), "by its id, as before: {id}");
        assert!(emptied.matches(&sig).is_none(), "no key names {id} any more");
        let level = if backend == "cuda:ptxas-O0" { 0 } else { 3 };
        assert_eq!(emptied.crash_levels(&sig), [level].into(), "{id}");
    }
}

/// Every stored K crash is K by its kernel's SASS at its backend's level, with no id naming it.
#[test]
fn stored_k_crashes_are_known_by_the_sass_check() {
    let Some(check) = tools() else { return };
    let (_dir, known) = known_without_k_ids();
    for (file, form, backend, id) in K_CRASHES {
        let path = repo().join("corpus/findings").join(file);
        let (p, _) = parse_case(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let sig = crash(form, backend, ILLEGAL);
        let by = program_crash_known_by_sass(&known, &sig, &p, &check).unwrap();
        assert_eq!(by.map(|k| k.name.as_str()), Some(K), "{id} ({backend}), ptxas {}", check.ptxas.version);
    }
    // Seed 4402's 9cd3e758 (-O0; corpus/findings/fuzz-h200-4402/trace/T15t3.md): the descriptor
    // is copied from registers holding data (`R2UR UR4, R6`), so no read is flagged; the kernel
    // never loads c[0x0][0x208].
    let path = repo().join("corpus/findings/fuzz-h200-4402/cases/9cd3e7583989557a.case");
    let (p, _) = parse_case(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let sig = crash("setp.le.s32", "cuda:ptxas-O0", ILLEGAL);
    let by = program_crash_known_by_sass(&known, &sig, &p, &check).unwrap();
    assert_eq!(by.map(|k| k.name.as_str()), Some(K), "9cd3e758 (-O0, a descriptor holding data)");
    // 2baed4ed reduced to 3 instructions (its -O3 kernel's only LDG reads UR4/UR5 never written).
    let ptx =
        std::fs::read_to_string(repo().join("corpus/findings/fuzz-h200-4001/trace/2baed4ed/reduced.ptx")).unwrap();
    let kernel = ptx.split(".entry").nth(1).and_then(|r| r.split(['(', ' ', '\n']).find(|w| !w.is_empty())).unwrap();
    let sig = crash("setp.ge.s32", "cuda:jit", ILLEGAL);
    let by = crash_known_by_sass(&known, &sig, &ptx, kernel, "sm_90", &check).unwrap();
    assert_eq!(by.map(|k| k.name.as_str()), Some(K), "2baed4ed reduced ({kernel})");
}

/// A crash of a kernel whose listing loads the descriptor at the crashing level is not K: a
/// clean kernel's stays new, and so does a crash of another error on a K kernel; one whose
/// hinted store reads a policy descriptor nothing wrote is the createpolicy entry's.
#[test]
fn a_crash_whose_kernel_loads_the_descriptor_is_not_k() {
    let Some(check) = tools() else { return };
    let (_dir, known) = known_without_k_ids();
    // cd64eb6b is K at -O0; its -O3 kernel loads c[0x0][0x208] (T14x5.md: -O3 right).
    let path = repo().join("corpus/findings/fuzz-h200-4303/cases/cd64eb6b7eef6035.case");
    let (p, _) = parse_case(&std::fs::read_to_string(path).unwrap()).unwrap();
    for backend in ["cuda:ptxas-O3", "cuda:jit"] {
        let sig = crash("max.s32", backend, ILLEGAL);
        assert!(program_crash_known_by_sass(&known, &sig, &p, &check).unwrap().is_none(), "{backend}");
    }
    // Both backends must be explained: -O0 is, -O3 is not.
    let both = Signature::new(FindingClass::Crash, "max.s32", "", ["cuda:ptxas-O0", "cuda:ptxas-O3"], ILLEGAL);
    assert!(program_crash_known_by_sass(&known, &both, &p, &check).unwrap().is_none());
    let hang = crash("max.s32", "cuda:ptxas-O0", "hang");
    assert!(program_crash_known_by_sass(&known, &hang, &p, &check).unwrap().is_none());
    // The createpolicy root cause (issue 29): its -O3 hinted store reads desc[UR6] nothing
    // wrote (`sass-check` flags it `descriptor`), but the kernel loads c[0x0][0x208]: not K,
    // the createpolicy entry's.
    let path = repo().join("corpus/findings/createpolicy-dropped-store-policy.case");
    let (p, _) = parse_case(&std::fs::read_to_string(path).unwrap()).unwrap();
    let (listing, reads) = check.checker.check_ptx(&check.ptxas, &p.module_text(), &p.target.name(), 3).unwrap();
    assert!(reads.iter().any(|u| u.roles == ["descriptor"]) && listing.contains("c[0x0][0x208]"), "{listing}");
    let sig = crash("st.global.L2::cache_hint.b32", "cuda:ptxas-O3", ILLEGAL);
    let by = program_crash_known_by_sass(&known, &sig, &p, &check).unwrap();
    assert_eq!(by.map(|k| k.name.as_str()), Some(CREATEPOLICY));
}

const CREATEPOLICY: &str = "sass-descriptor-never-written";

/// Seed 4601's createpolicy crashes (corpus/findings/fuzz-h200-4601/trace/T17t2.md): 13.0.88 -O3
/// dropped a `createpolicy` with the dead hinted load that read it, and the live hinted load's
/// descriptor UR4:UR5 holds `R2UR` copies of a product of loaded values — written, so the SASS
/// check flags nothing, and the kernel loads c[0x0][0x208], so it is not K. The createpolicy
/// entry's `[crash_by_sass]` names them by the loaded-data descriptor
/// (`runner/src/sass/loaded_descriptors.rs`); fails before it (both were labelled new).
#[test]
fn createpolicy_crashes_with_a_descriptor_of_data_are_the_createpolicy_entry() {
    let Some(check) = tools() else { return };
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    let cases = [
        ("16e60ff5521712fb", "createpolicy.fractional.L2::evict_first.b64", "cuda:ptxas-O3"),
        ("fc11509497985369", "createpolicy.fractional.L2::evict_last.b64", "cuda:jit"),
    ];
    for (id, form, backend) in cases {
        let path = repo().join(format!("corpus/findings/fuzz-h200-4601/cases/{id}.case"));
        let (p, _) = parse_case(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let sig = crash(form, backend, ILLEGAL);
        assert_eq!(sig.key(), id);
        assert!(known.matches(&sig).is_none(), "no id names {id}");
        let (listing, reads) = check.checker.check_ptx(&check.ptxas, &p.module_text(), &p.target.name(), 3).unwrap();
        assert!(reads.iter().all(|u| u.kernel != p.name), "{id}: the check flags nothing: {reads:?}");
        assert!(listing.contains("c[0x0][0x208]"), "{id}");
        let by = program_crash_known_by_sass(&known, &sig, &p, &check).unwrap();
        assert_eq!(by.map(|k| k.name.as_str()), Some(CREATEPOLICY), "{id} ({backend}), ptxas {}", check.ptxas.version);
        // At -O0 the policy is computed: a crash there stays new.
        let o0 = crash(form, "cuda:ptxas-O0", ILLEGAL);
        assert!(program_crash_known_by_sass(&known, &o0, &p, &check).unwrap().is_none(), "{id} at -O0");
    }
}

/// The campaign's triage records a minimized K crash (cd64eb6b's case) known under K with K's
/// ids removed when it has the crash check ([`runner::fuzz::triage::Triage::crash_check`]),
/// and as new without it; the occurrences of its kind that waited go with it.
#[test]
fn triage_records_a_minimized_k_crash_known() {
    use runner::findings::{Finding, FindingStore, Recorded, RunMeta};
    use runner::fuzz::engine::StageTime;
    use runner::fuzz::minimize::Done;
    use runner::fuzz::triage::Triage;
    let Some(check) = tools() else { return };
    let case =
        std::fs::read_to_string(repo().join("corpus/findings/fuzz-h200-4303/cases/cd64eb6b7eef6035.case")).unwrap();
    let done = || Done {
        batch: 0,
        pre: "crash|cuda:ptxas-O0|CUDA_ERROR_ILLEGAL_INSTRUCTION".into(),
        finding: Finding::new(crash("max.s32", "cuda:ptxas-O0", ILLEGAL), ""),
        case: case.clone(),
        minimized: true,
        calls: 1,
        runs: 1,
        refused: 0,
        time: StageTime::default(),
        reducer: 0,
        family: None,
        known_after_reduction: None,
    };
    for with_check in [true, false] {
        let (_known_dir, known) = known_without_k_ids();
        let run = tempfile::tempdir().unwrap();
        let mut store = FindingStore::create(run.path(), RunMeta::default(), known).unwrap();
        let mut tri = Triage::default();
        tri.crash_check = with_check.then(|| check.clone());
        tri.done(&mut store, done()).unwrap();
        let sig = crash("max.s32", "cuda:ptxas-O0", ILLEGAL);
        if with_check {
            assert_eq!((tri.known, tri.new, tri.counts.known_crash_by_sass), (1, 0, 1));
            assert_eq!(store.doc().known.iter().map(|k| (k.id.as_str(), k.count)).collect::<Vec<_>>(), [(K, 1)]);
            // A later copy of the same crash is K's without another check.
            tri.crash_check = None;
            tri.done(&mut store, done()).unwrap();
            assert_eq!((tri.known, tri.new), (2, 0));
        } else {
            assert_eq!((tri.known, tri.new, tri.counts.known_crash_by_sass), (0, 1, 0));
            assert_eq!(store.classify(&sig), Recorded::Duplicate);
        }
    }
}
