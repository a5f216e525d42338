//! Words stored from undefined bits: a differing GPU word that a store the SASS check flags
//! wrote from a never-written register is part of that unwritten-register finding, not a
//! compiler finding of its own ([`super::take_undefined`]).

use super::*;
use crate::backend::cuda;
use crate::sass::{check_listing, fixtures};
use oracle::program::interp;
use oracle::program::text::parse_case;

const O0: &str = "cuda:ptxas-O0";
const O3: &str = "cuda:ptxas-O3";

/// A program storing a loaded word to output words 0 and 1 (8 bytes per thread).
fn program() -> (Program, Inputs) {
    let inputs: String = (0..32).map(|t| format!("// t{t}: 1234{t:04x}\n")).collect();
    parse_case(&format!(
        "// ptxdiff-program name=k target=sm_90@9.0 threads=32 inputs=4 outputs=2 shared=0\n// begin body\n\
         ld.global.u32 %r0, [%in];\nst.global.b32 [%out], %r0;\nst.global.b32 [%out+4], %r0;\n// end body\n\
         // ptxdiff-inputs\n{}",
        inputs.replace('\n', " 00000000 00000000 00000000\n")
    ))
    .unwrap()
}

/// The -O3 SASS of `k` as ptxas builds it (`%out = p_out + tid.x · 8` in R2:R3), with the word
/// at output offset 4 stored by `store` (`R9` never written).
fn listing(store: &str) -> String {
    fixtures::kernel(
        "k",
        &format!(
            "/*0000*/ LDC R1, c[0x0][0x28] ;\n/*0010*/ S2R R7, SR_TID.X ;\n/*0020*/ LDC.64 R4, c[0x0][0x210] ;\n\
             /*0030*/ ULDC.64 UR8, c[0x0][0x208] ;\n/*0040*/ IMAD.WIDE.U32 R4, R7, 0x10, R4 ;\n\
             /*0050*/ LDC.64 R2, c[0x0][0x218] ;\n/*0060*/ IMAD.WIDE.U32 R2, R7, 0x8, R2 ;\n\
             /*0070*/ LDG.E R0, desc[UR8][R4.64] ;\n/*0080*/ STG.E desc[UR8][R2.64], R0 ;\n\
             /*0090*/ {store} ;\n/*00a0*/ EXIT ;\n"
        ),
    )
}

/// The results of `p`: the oracle's words on `O0`, and on each backend of `wrong` the oracle's
/// words with `xor` applied to word `w` of every thread.
fn result(p: &Program, i: &Inputs, store: &str, wrong: &[(&str, u32, u32)]) -> ProgramResult {
    let expected = interp::run(p, i, &Allowances::all()).unwrap();
    let right: Vec<u32> = expected.iter().flat_map(|e| (0..2).map(move |w| e.field(32 * w, 32).bits as u32)).collect();
    let mut observed = vec![Observed { backend: O0.into(), words: right.clone() }];
    for &(backend, w, xor) in wrong {
        let at = match observed.iter().position(|o| o.backend == backend) {
            Some(at) => at,
            None => {
                observed.push(Observed { backend: backend.into(), words: right.clone() });
                observed.len() - 1
            }
        };
        for t in 0..32 {
            observed[at].words[t * 2 + w as usize] ^= xor;
        }
    }
    for b in [O3] {
        if !observed.iter().any(|o| o.backend == b) {
            observed.push(Observed { backend: b.into(), words: right.clone() });
        }
    }
    let text = listing(store);
    let reads = check_listing(&text).unwrap();
    ProgramResult {
        expected: Ok(expected),
        observed,
        failures: Vec::new(),
        sass: vec![SassCheck { by: "ptxas -O3".into(), reads, listing: text, witnessed: Default::default() }],
        emulated: Vec::new(),
    }
}

const FLAGGED: &str = "STG.E desc[UR8][R2.64+0x4], R9";

fn of_class(raws: &[Raw], class: FindingClass) -> Vec<&Raw> {
    raws.iter().filter(|r| r.class == class).collect()
}

#[test]
fn a_word_stored_from_undefined_bits_joins_the_unwritten_register_finding() {
    let (p, i) = program();
    // Nothing visible: the kernel's finding alone.
    let quiet = raw_findings(&p, &result(&p, &i, FLAGGED, &[]));
    assert_eq!(quiet.len(), 1, "{quiet:#?}");
    assert!(quiet[0].undefined_words.is_empty());
    // Word 1 (bytes 4..8) wrong on -O3: no compiler finding; the unwritten-register finding
    // carries the words, with the same pre-signature.
    let r = result(&p, &i, FLAGGED, &[(O3, 1, 0x00ff_0000)]);
    let raws = raw_findings(&p, &r);
    assert_eq!(raws.len(), 1, "{raws:#?}");
    let u = &raws[0];
    assert_eq!(u.class, FindingClass::UnwrittenRegister);
    assert_eq!(u.pre_signature(), quiet[0].pre_signature());
    assert!(!u.undefined_words.is_empty() && u.undefined_words.iter().all(|m| m.word == 1), "{u:#?}");
    let message = u.message.clone().unwrap_or_default();
    assert!(message.starts_with("ptxas -O3: k /*0090*/ STG.E desc[UR8][R2.64+0x4], R9  reads R9"), "{message}");
    let first = &u.undefined_words[0];
    let line = format!("on the GPU: thread 0 word 1 expected {} got", first.expected);
    let (before, _) = message.split_once("\nSASS of").unwrap();
    assert!(before.contains(&line) && before.contains(&format!("{O3} {}", first.actual[O3])), "{message}");
    // Packaged: the finding's mismatches are the words.
    let reduced = Reduced::unchanged(&p, &i);
    let case = Case { original: &p, reduced: &reduced, result: &r };
    let (f, _) = package(u, &case, &Allowances::all(), 0.0, &[]);
    assert!(!f.mismatches.is_empty() && f.mismatches.iter().all(|m| m.word == 1));
    assert_eq!(f.signature.class, FindingClass::UnwrittenRegister);
}

#[test]
fn a_second_wrong_word_from_defined_bits_stays_a_compiler_finding() {
    let (p, i) = program();
    let r = result(&p, &i, FLAGGED, &[(O3, 1, 0x00ff_0000), (O3, 0, 1)]);
    let raws = raw_findings(&p, &r);
    let compiler = of_class(&raws, FindingClass::Compiler);
    assert_eq!(compiler.len(), 1, "{raws:#?}");
    let d = compiler[0].disagreement.as_ref().unwrap();
    assert!(d.mismatches.iter().all(|m| m.word == 0), "{d:#?}");
    let unwritten = of_class(&raws, FindingClass::UnwrittenRegister);
    assert!(unwritten[0].undefined_words.iter().all(|m| m.word == 1));
    // A word whose differing bytes are partly outside the store's (byte 3 and byte 4) is not
    // explained either.
    let straddle = result(&p, &i, "STG.E.U8 desc[UR8][R2.64+0x4], R9", &[(O3, 1, 0x0000_0101)]);
    let raws = raw_findings(&p, &straddle);
    assert_eq!(of_class(&raws, FindingClass::Compiler).len(), 1, "{raws:#?}");
    let within = result(&p, &i, "STG.E.U8 desc[UR8][R2.64+0x4], R9", &[(O3, 1, 0x0000_0001)]);
    assert!(of_class(&raw_findings(&p, &within), FindingClass::Compiler).is_empty());
}

#[test]
fn a_store_not_to_the_output_pointer_leaves_the_word_unexplained() {
    let (p, i) = program();
    // R4:R5 is the thread's input pointer.
    let r = result(&p, &i, "STG.E desc[UR8][R4.64+0x4], R9", &[(O3, 1, 0x00ff_0000)]);
    let raws = raw_findings(&p, &r);
    let compiler = of_class(&raws, FindingClass::Compiler);
    assert_eq!(compiler.len(), 1, "{raws:#?}");
    assert!(of_class(&raws, FindingClass::UnwrittenRegister)[0].undefined_words.is_empty());
}

#[test]
fn a_jit_word_counts_only_where_the_o3_word_differs_too() {
    let (p, i) = program();
    let alone = result(&p, &i, FLAGGED, &[(cuda::JIT, 1, 0x00ff_0000)]);
    let raws = raw_findings(&p, &alone);
    let compiler = of_class(&raws, FindingClass::Compiler);
    assert_eq!(compiler.len(), 1, "{raws:#?}");
    assert_eq!(compiler[0].backends, [cuda::JIT]);
    let both = result(&p, &i, FLAGGED, &[(cuda::JIT, 1, 0x00ff_0000), (O3, 1, 0x0000_ff00)]);
    let raws = raw_findings(&p, &both);
    assert!(of_class(&raws, FindingClass::Compiler).is_empty(), "{raws:#?}");
    let u = &of_class(&raws, FindingClass::UnwrittenRegister)[0];
    assert!(u.undefined_words.iter().all(|m| m.actual[cuda::JIT] != m.actual[O0]), "{u:#?}");
}

#[test]
fn an_offline_backend_names_the_assembly_its_check_is_by() {
    assert_eq!(cuda::assembly_of(O3).as_deref(), Some("ptxas -O3"));
    assert_eq!(cuda::assembly_of(&cuda::ptxas_name(Some("13.0"), 3)).as_deref(), Some("ptxas-13.0 -O3"));
    assert_eq!(cuda::assembly_of(cuda::JIT), None);
    assert_eq!(cuda::assembly_of("cuda:ptxasX-O3"), None);
}

#[test]
fn retriage_labels_such_words_by_their_read_given_the_sass_check() {
    use crate::findings::{KnownSet, Signature};
    use crate::fuzz::retriage::{label_words, Label};
    let (p, i) = program();
    let r = result(&p, &i, FLAGGED, &[(O3, 1, 0x00ff_0000)]);
    let Outcome::Disagree(d) = compare_result(p.outputs, &r.expected, &r.observed) else { panic!("no difference") };
    let root = crate::paths::repo_root().expect("the repository");
    let known = KnownSet::load(&root.join("corpus/known")).unwrap();
    let stored = Signature::new(FindingClass::Compiler, "st.global.b32", "", [O3], "value");
    let label = |sass| label_words(&p, &i, &stored, &d.mismatches, &known, &Allowances::all(), sass).unwrap();
    // With the check: the words are the read's (an `STG.E` source read no entry names).
    let Label::New(with) = label(r.sass.clone()) else { panic!("not new") };
    assert_eq!(with.len(), 1, "{with:?}");
    assert_eq!(
        (with[0].class, with[0].form.as_str(), with[0].how.as_str()),
        (FindingClass::UnwrittenRegister, "STG.E", "source")
    );
    // Without it: a compiler finding.
    let Label::New(without) = label(Vec::new()) else { panic!("not new") };
    assert_eq!(without[0].class, FindingClass::Compiler, "{without:?}");
}
