//! Tests of the known-findings entries: loading, matching, emulation scopes and crash rules.

use super::*;

fn tf32(form: &str, how: &str, backends: &[&str]) -> Signature {
    Signature::new(FindingClass::HardwareSpec, form, "nan", backends.iter().copied(), how)
}

fn corpus_known() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/known")
}

/// The f32 subnormal-add entry covers the bulk reduction and the tensor reduction over a
/// FLOAT32 map (whose opcode names no type), only with the input class the emulated
/// deviation gives; the interleave entry covers its dedicated set's stores and reductions.
#[test]
fn corpus_known_matches_the_async_deviation_sets() {
    let set = KnownSet::load(&corpus_known()).unwrap();
    let all = ["cuda:jit", "cuda:ptxas-O0", "cuda:ptxas-O3"];
    let sig = |form: &str, input: &str| {
        Signature::new(FindingClass::HardwareSpec, form, input, all.iter().copied(), "bytes-differ")
    };
    let named = |s: &Signature| set.matches(s).map(|k| k.name.clone());
    for form in [
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32",
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group",
        // A program with both reductions (fuzz --async, 2026-11-28, seed 31).
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 + cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group",
    ] {
        assert_eq!(named(&sig(form, "f32-subnormal-add")).as_deref(), Some("reduce-add-f32-subnormals"), "{form}");
        assert_eq!(named(&sig(form, "normal")), None, "{form}");
    }
    for form in [
        "cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group",
        "cp.reduce.async.bulk.tensor.4d.global.shared::cta.add.tile.bulk_group",
    ] {
        assert_eq!(named(&sig(form, "interleave-box-rank-2")).as_deref(), Some("tma-interleave-box-skip"), "{form}");
    }
}

#[test]
fn corpus_known_loads_and_matches_the_tf32_finding() {
    let set = KnownSet::load(&corpus_known()).unwrap();
    let k = set.get("cvt-rna-tf32-nan").expect("the tf32 NaN finding is known");
    assert!(k.evidence.contains("corpus/findings/cvt-rna-tf32-nan.md"));
    let all = ["cuda:jit", "cuda:ptxas-O0", "cuda:ptxas-O3"];
    for (form, how) in [("cvt.rna.tf32.f32", "nan-becomes-inf"), ("cvt.rna.satfinite.tf32.f32", "nan-becomes-finite")] {
        assert_eq!(set.matches(&tf32(form, how, &all)).map(|k| k.name.as_str()), Some("cvt-rna-tf32-nan"));
        // A run with one GPU backend still recognizes it.
        assert!(set.matches(&tf32(form, how, &["cuda:ptxas-O3"])).is_some());
    }
    // Not the same bug: another rounding, another class, another symptom, the oracle side.
    assert!(set.matches(&tf32("cvt.rn.tf32.f32", "nan-becomes-inf", &all)).is_none());
    assert!(set.matches(&tf32("cvt.rna.tf32.f32", "nan-payload", &all)).is_none());
    assert!(set.matches(&tf32("cvt.rna.tf32.f32", "nan-becomes-inf", &["cuda:jit", "oracle"])).is_none());
    let mut s = tf32("cvt.rna.tf32.f32", "nan-becomes-inf", &all);
    s.class = FindingClass::Compiler;
    assert!(set.matches(&s).is_none());
    let mut s = tf32("cvt.rna.tf32.f32", "nan-becomes-inf", &all);
    s.input_class = "normal".into();
    assert!(set.matches(&s).is_none());
}

/// An optimizing ptxas's crash ("ptxas crash": no site) of a program whose JIT crash in the
/// same run an entry with `ptxas_crash_beside` matches by its site is that entry's (seed
/// 5901's df9cef94 beside 77a8db09); not without the key, without such a sibling, beside
/// another site, at -O0, or for another `how`; the key needs a `[signature]` of crashes.
#[test]
fn a_ptxas_crash_beside_a_known_jit_crash_is_known_by_its_entry() {
    let site = "worker crash at SIGSEGV in libnvidia-ptxjitcompiler.so.1+0x4909ce";
    let entry = |beside: &str| {
        format!(
            "reason = \"r\"\nevidence = \"e\"\n{beside}[signature]\nclass = \"crash\"\nform = \"*\"\n\
             backends = [\"cuda:jit\"]\nhow = \"{site}\"\n"
        )
    };
    let set = |beside: &str| KnownSet {
        entries: vec![KnownSet::parse_file(Path::new("jit-site.toml"), &entry(beside)).unwrap()],
    };
    let crash = |backend: &str, how: &str| Signature::new(FindingClass::Crash, "setp.ne.u32", "", [backend], how);
    let ptxas = crash("ptxas -O3", PTXAS_CRASH);
    let jit = crash("cuda:jit", site);
    let known = set("ptxas_crash_beside = true\n");
    assert_eq!(known.matches(&jit).map(|k| k.name.as_str()), Some("jit-site"));
    assert!(known.matches(&ptxas).is_none(), "the ptxas crash has no site");
    let beside = |set: &KnownSet, sig: &Signature, siblings: &[Signature]| {
        set.crash_known_beside(sig, siblings).map(|k| k.name.clone())
    };
    assert_eq!(beside(&known, &ptxas, &[ptxas.clone(), jit.clone()]).as_deref(), Some("jit-site"));
    assert_eq!(beside(&known, &ptxas, std::slice::from_ref(&ptxas)), None, "no other crash");
    let elsewhere = crash("cuda:jit", "worker crash at SIGSEGV in libnvidia-ptxjitcompiler.so.1+0x1000");
    assert_eq!(beside(&known, &ptxas, &[elsewhere]), None, "another site");
    assert_eq!(beside(&known, &crash("ptxas -O0", PTXAS_CRASH), std::slice::from_ref(&jit)), None, "-O0");
    assert_eq!(beside(&known, &crash("ptxas -O3", "ptxas timeout"), std::slice::from_ref(&jit)), None, "a hang");
    assert_eq!(beside(&set(""), &ptxas, std::slice::from_ref(&jit)), None, "an entry without the key");
    assert_eq!(beside(&set("ptxas_crash_beside = false\n"), &ptxas, &[jit]), None);
    let (_, _, msg) =
        error_of("id = \"0123456789abcdef\"\nreason = \"r\"\nevidence = \"e\"\nptxas_crash_beside = true\n");
    assert!(msg.contains("ptxas_crash_beside"), "{msg}");
}

#[test]
fn globs_lists_and_ids() {
    let p = Path::new("x/pat.toml");
    let k = KnownSet::parse_file(
        p,
        "reason = \"r\"\nevidence = \"e\"\n[signature]\nclass = \"compiler\"\nform = [\"cvt.*.e4m3x2.f32\", \"prmt*\"]\n",
    )
    .unwrap();
    assert_eq!(k.name, "pat");
    let set = KnownSet { entries: vec![k] };
    let s = |form: &str| Signature::new(FindingClass::Compiler, form, "zero", ["cuda:ptxas-O0"], "sign");
    assert!(set.matches(&s("cvt.rn.satfinite.e4m3x2.f32")).is_some());
    assert!(set.matches(&s("prmt.b32.f4e")).is_some());
    assert!(set.matches(&s("cvt.rn.satfinite.e5m2x2.f32")).is_none());
    // No backends to check against a backends pattern: no match.
    let k = KnownSet::parse_file(
        p,
        "reason = \"r\"\nevidence = \"e\"\n[signature]\nclass = \"crash\"\nform = \"*\"\nbackends = [\"ptxas-*\"]\n",
    )
    .unwrap();
    let set = KnownSet { entries: vec![k] };
    let c = |b: &[&str]| Signature::new(FindingClass::Crash, "program", "", b.iter().copied(), "ptxas exit 139");
    assert!(set.matches(&c(&["ptxas-check"])).is_some());
    assert!(set.matches(&c(&[])).is_none());
    assert!(set.matches(&c(&["ptxas-check", "cuda:jit"])).is_none());

    let target = c(&["cuda:jit"]);
    let text = format!("id = \"{}\"\nreason = \"r\"\nevidence = \"e\"\n", target.key());
    let set = KnownSet { entries: vec![KnownSet::parse_file(Path::new("by-id.toml"), &text).unwrap()] };
    assert_eq!(set.matches(&target).unwrap().name, "by-id");
    assert!(set.matches(&c(&["cuda:ptxas-O0"])).is_none());

    // A list of keys covers each of them and nothing else.
    let other = c(&["cuda:ptxas-O3"]);
    let text = format!("id = [\"{}\", \"{}\"]\nreason = \"r\"\nevidence = \"e\"\n", target.key(), other.key());
    let set = KnownSet { entries: vec![KnownSet::parse_file(Path::new("by-ids.toml"), &text).unwrap()] };
    assert!(set.matches(&target).is_some() && set.matches(&other).is_some());
    assert!(set.matches(&c(&["cuda:ptxas-O0"])).is_none());
    for bad in ["id = []", "id = [\"0123\"]"] {
        let text = format!("{bad}\nreason = \"r\"\nevidence = \"e\"\n");
        let e = KnownSet::parse_file(Path::new("bad.toml"), &text).unwrap_err().to_string();
        assert!(e.contains("bad.toml") && e.contains("`id`"), "{e}");
    }
}

#[test]
fn shapes_match_adjacent_steps_anchored_at_the_end() {
    let a = "cvt*.{f16,bf16}.* → st.*.{b,u,s}8";
    // Unanchored at the start, adjacent steps, the last step on the last element.
    assert!(shape_match(a, "ld.global.f32 → cvt.rn.f16.f32 → st.global.b8"));
    assert!(shape_match(a, "cvt.rn.f16.f32 → st.global.u8"));
    assert!(shape_match("st.*.b8", "mov.b16 → cvt.rn.f16.f32 → st.global.b8"));
    // An instruction between the producer and the consumer is another shape: the miscompiled
    // `add.u16` of a new bug is not hidden behind the known narrow store.
    assert!(!shape_match(a, "ld.global.f32 → cvt.rn.f16.f32 → add.u16 → st.global.b8"));
    assert!(!shape_match(a, "ld.global.f32 → cvt.rn.f16.f32 → mov.b16 → st.global.u8"));
    // Anchored at the end: the steps matching earlier elements is not enough.
    assert!(!shape_match(a, "cvt.rn.f16.f32 → st.shared.b8 → ld.shared.b8 → add.u16 → st.global.b32"));
    assert!(!shape_match("cvt*", "mov.b16 → cvt.rn.f16.f32 → st.global.b8"));
    // `…` (or `...`) matches any number of elements, none included.
    for gap in ["…", "..."] {
        let p = format!("cvt*.{{f16,bf16}}.* → {gap} → st.*.v{{2,4}}.{{b,u,s}}8");
        assert!(shape_match(&p, "cvt.f16.f16 → st.global.v2.b8"), "{p}");
        assert!(shape_match(&p, "cvt.f16.f16 → mov.b64 → mov.b32 → st.global.v4.b8"), "{p}");
        assert!(!shape_match(&p, "cvt.f16.f16 → mov.b64 → st.global.b8"), "{p}");
        assert!(!shape_match(&p, "mov.b16 → st.global.v2.b8"), "{p}");
    }
    assert!(shape_match("… → st.*", "mov.b16 → st.global.b8"));
    assert!(shape_match("cvt* → …", "mov.b16 → cvt.f16.f16 → add.u16 → st.global.b8"));
    assert!(!shape_match("cvt* → …", "mov.b16 → st.global.b8"));
    assert!(shape_match("ld* → … → cvt* → … → st*", "ld.global.f32 → cvt.f16.f32 → st.global.b8"));
    assert!(!shape_match("ld* → … → cvt* → … → st*", "cvt.f16.f32 → ld.global.b16 → st.global.b8"));
    // Out of order, a missing step, a step that must match a whole element, no shape.
    assert!(!shape_match("st.*.b8 → cvt*", "mov.b16 → cvt.rn.f16.f32 → st.global.b8"));
    assert!(!shape_match("abs.s16 → cvt*", "mov.b16 → cvt.rn.f16.f32"));
    assert!(!shape_match("cvt", "cvt.rn.f16.f32"));
    assert!(!shape_match("*", ""));
    assert!(!shape_match("…", ""));
    let k = KnownSet::parse_file(
        Path::new("a.toml"),
        "reason = \"r\"\nevidence = \"e\"\n[signature]\nclass = [\"compiler\", \"hardware-spec\"]\nshape = \"cvt*f16.* → st.*.{b,u,s}8\"\nbackends = [\"cuda:*\"]\n",
    )
    .unwrap();
    let set = KnownSet { entries: vec![k] };
    let s = |class, shape: &str| Signature::new(class, "add.u16", "int", ["cuda:ptxas-O0"], "value").with_shape(shape);
    let a = "mov.b16 → cvt.f16.bf16 → st.global.s8";
    assert!(set.matches(&s(FindingClass::Compiler, a)).is_some());
    assert!(set.matches(&s(FindingClass::HardwareSpec, a)).is_some());
    assert!(set.matches(&s(FindingClass::Crash, a)).is_none());
    assert!(set.matches(&s(FindingClass::Compiler, "mov.b16 → cvt.f16.bf16 → st.global.s16")).is_none());
    assert!(set.matches(&s(FindingClass::Compiler, "")).is_none());
    // may_match leaves the input class out: the tf32 entry wants `nan`.
    let set = KnownSet::load(&corpus_known()).unwrap();
    let mut tf32 = tf32("cvt.rna.tf32.f32", "nan-becomes-inf", &["cuda:jit"]);
    tf32.input_class = "normal".into();
    assert!(set.matches(&tf32).is_none() && set.may_match(&tf32));
    tf32.how = "sign".into();
    assert!(!set.may_match(&tf32));
}

/// An entry naming an emulation covers a finding by its input class (the emulation's), within
/// its class and backends, whatever its form or shape; a bad name is an error that lists the
/// valid ones.
#[test]
fn an_emulation_entry_covers_by_the_emulation_not_the_shape() {
    let text = "reason = \"r\"\nevidence = \"e\"\nemulation = \"cvt-s64-u32-sign-extends\"\n\
                [signature]\nclass = [\"compiler\", \"hardware-spec\"]\nshape = \"cvt.s64.u32 → st.*\"\nbackends = [\"cuda:*\"]\n";
    let k = KnownSet::parse_file(Path::new("l.toml"), text).unwrap();
    assert_eq!(k.emulations, vec![Deviation::CvtS64U32SignExtends]);
    let set = KnownSet { entries: vec![k] };
    assert_eq!(set.emulation_scopes().for_backend("cuda:ptxas-O0", None), vec![Deviation::CvtS64U32SignExtends]);
    assert!(set.emulation_scopes().for_backend("ptxas-check", None).is_empty());
    let sig = |input: &str, shape: &str, b: &str| {
        Signature::new(FindingClass::Compiler, "shl.b64", input, [b], "value").with_shape(shape)
    };
    let by = "cvt-s64-u32-sign-extends";
    // Another chain: still covered; the documented shape without the emulation: not.
    assert!(set
        .matches(&sig(by, "ld.global.u32 → cvt.s64.u32 → shl.b64 → mov.b64 → st.global.b16", "cuda:jit"))
        .is_some());
    assert!(set.may_match(&sig(by, "", "cuda:ptxas-O3")));
    assert!(set.matches(&sig("int", "cvt.s64.u32 → st.global.b64", "cuda:jit")).is_none());
    // Out of its backends, or another class: not covered.
    assert!(set.matches(&sig(by, "", "oracle-worker")).is_none());
    let mut crash = sig(by, "", "cuda:jit");
    crash.class = FindingClass::Crash;
    assert!(set.matches(&crash).is_none());
    // Without form or shape an emulation entry is valid.
    let bare =
        "reason = \"r\"\nevidence = \"e\"\nemulation = [\"f16-mask-dropped\"]\n[signature]\nclass = \"compiler\"\n";
    assert!(KnownSet::parse_file(Path::new("m.toml"), bare).is_ok());
    let (line, _, msg) =
        error_of("reason = \"r\"\nevidence = \"e\"\nemulation = \"bogus\"\n[signature]\nclass = \"compiler\"\n");
    assert_eq!(line, 3, "{msg}");
    assert!(msg.contains("bogus") && msg.contains("narrow-store-of-float-cvt") && !msg.contains("reduce-add"), "{msg}");
    let (_, _, msg) =
        error_of("reason = \"r\"\nevidence = \"e\"\nemulation = \"f16-mask-dropped\"\nid = \"0123456789abcdef\"\n");
    assert!(msg.contains("`[signature]`"), "{msg}");
}

fn error_of(text: &str) -> (usize, usize, String) {
    match KnownSet::parse_file(Path::new("corpus/known/bad.toml"), text) {
        Err(KnownError::Invalid { file, line, column, message }) => {
            assert_eq!(file, Path::new("corpus/known/bad.toml"));
            (line, column, message)
        }
        other => panic!("expected an Invalid error, got {other:?}"),
    }
}

#[test]
fn corrupt_files_name_file_line_and_column() {
    // TOML syntax error on line 3.
    let (line, _, _) = error_of("reason = \"r\"\nevidence = \"e\"\nid = \"abc\n");
    assert_eq!(line, 3);
    // Unknown key on line 5 (a typo must not silently widen the pattern).
    let (line, _, msg) =
        error_of("reason = \"r\"\nevidence = \"e\"\n[signature]\nclass = \"crash\"\nfrom = \"cvt*\"\n");
    assert!(msg.contains("from"), "{msg}");
    assert!(line >= 3, "{line}");
    // Bad class on line 4.
    let (line, _, msg) =
        error_of("reason = \"r\"\nevidence = \"e\"\n[signature]\nclass = \"hardware\"\nform = \"cvt*\"\n");
    assert_eq!(line, 4, "{msg}");
    // Malformed id on line 2, column of the value.
    let (line, column, msg) = error_of("reason = \"r\"\nid = \"B7E1\"\nevidence = \"e\"\n");
    assert_eq!((line, column), (2, 6), "{msg}");
    // Empty glob on line 5.
    let (line, _, msg) = error_of("reason = \"r\"\nevidence = \"e\"\n[signature]\nclass = \"crash\"\nform = [\"\"]\n");
    assert_eq!(line, 5, "{msg}");
    // Both and neither.
    let (_, _, msg) = error_of(
        "id = \"0123456789abcdef\"\nreason = \"r\"\nevidence = \"e\"\n[signature]\nclass = \"crash\"\nform = \"x\"\n",
    );
    assert!(msg.contains("not both"), "{msg}");
    let (line, _, msg) = error_of("reason = \"r\"\nevidence = \"e\"\n");
    assert_eq!(line, 1);
    assert!(msg.contains("missing"), "{msg}");
    // Neither form nor shape; an empty shape step; an empty class list.
    let (_, _, msg) = error_of("reason = \"r\"\nevidence = \"e\"\n[signature]\nclass = \"crash\"\n");
    assert!(msg.contains("`form` or `shape`"), "{msg}");
    let (_, _, msg) =
        error_of("reason = \"r\"\nevidence = \"e\"\n[signature]\nclass = \"crash\"\nshape = \"a →  → b\"\n");
    assert!(msg.contains("empty step"), "{msg}");
    let (_, _, msg) =
        error_of("reason = \"r\"\nevidence = \"e\"\n[signature]\nclass = \"crash\"\nshape = [\"a\", \"… → ...\"]\n");
    assert!(msg.contains("gaps only"), "{msg}");
    let (line, _, msg) = error_of("reason = \"r\"\nevidence = \"e\"\n[signature]\nclass = []\nform = \"x\"\n");
    assert_eq!(line, 4, "{msg}");
    // Issue 28: an entry matching every finding of its class is refused (`form = "*"` hid
    // every finding), and an unknown class names the valid ones.
    for sig in [
        "form = \"*\"",
        "form = [\"cvt*\", \"**\"]",
        "shape = \"*\"",
        "form = \"*\"\nshape = \"… → *\"",
        "form = \"*\"\nbackends = \"*\"",
    ] {
        let (_, _, msg) =
            error_of(&format!("reason = \"r\"\nevidence = \"e\"\n[signature]\nclass = \"crash\"\n{sig}\n"));
        assert!(msg.contains("matches every finding"), "{sig}: {msg}");
    }
    let ok = "reason = \"r\"\nevidence = \"e\"\n[signature]\nclass = \"crash\"\nform = \"*\"\nshape = \"cvt*\"\n";
    assert!(KnownSet::parse_file(Path::new("k.toml"), ok).is_ok());
    let (_, _, msg) = error_of("reason = \"r\"\nevidence = \"e\"\n[signature]\nclass = \"cosmic-ray\"\nform = \"x\"\n");
    assert!(msg.contains("`class` must be one of") && msg.contains("assembler-rejection"), "{msg}");
    // Missing reason.
    let (_, _, msg) = error_of("evidence = \"e\"\nid = \"0123456789abcdef\"\n");
    assert!(msg.contains("reason"), "{msg}");
}

#[test]
fn load_reports_the_corrupt_file_by_path() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("README.md"), "not toml [").unwrap();
    std::fs::write(dir.path().join("a.toml"), "id = \"0123456789abcdef\"\nreason = \"r\"\nevidence = \"e\"\n").unwrap();
    std::fs::write(dir.path().join("b.toml"), "reason = \"r\"\n\nevidence = = \"e\"\n").unwrap();
    let err = KnownSet::load(dir.path()).unwrap_err();
    let text = err.to_string();
    assert!(text.starts_with(&format!("{}:3:", dir.path().join("b.toml").display())), "{text}");
    std::fs::remove_file(dir.path().join("b.toml")).unwrap();
    assert_eq!(KnownSet::load(dir.path()).unwrap().len(), 1);
    let err = KnownSet::load(&dir.path().join("missing")).unwrap_err();
    assert!(err.to_string().contains("missing"), "{err}");
}
