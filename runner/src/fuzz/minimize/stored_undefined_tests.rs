//! A minimized word difference whose kernel stores its words from a never-written register
//! ([`super::stored_undefined`]): seed 4301's 3042780d, stored as a compiler finding because
//! the program as generated flagged nothing (ptxas 13.0.88 -O3 read the skipped guarded load's
//! else value from a register holding another variable: `corpus/findings/fuzz-h200-4301/trace/
//! 3042780d/generated.*`), and its minimized case was never checked (the reducer checks SASS
//! only for unwritten-register findings). On the minimized case's real -O3 listing the word
//! belongs to the `STG.E.U8` source read, known N-5.

use super::*;
use crate::backend::cuda;
use crate::diff::program::Observed;
use crate::fuzz::engine::SassCheck;
use crate::sass::{check_listing, fixtures};
use oracle::program::interp;
use oracle::program::text::parse_case;

const O0: &str = "cuda:ptxas-O0";
const O3: &str = "cuda:ptxas-O3";

fn trace(file: &str) -> String {
    let root = crate::paths::repo_root().expect("the repository");
    std::fs::read_to_string(root.join("corpus/findings/fuzz-h200-4301/trace/3042780d").join(file)).unwrap()
}

/// The stored case's final run: word 1 of every thread 0 on the JIT and -O3 (the campaign's
/// words; the oracle's 0x00008000 on -O0), with the SASS check of `listing` (a trace file:
/// ptxas 13.0.88 -O3, `nvdisasm -c -ndf`) as the kernel `p191_16`'s.
fn final_run(listing: &str) -> (Program, ProgramResult) {
    let (p, i) = parse_case(&trace("orig.case")).unwrap();
    let expected = interp::run(&p, &i, &Allowances::all()).unwrap();
    let right: Vec<u32> = expected.iter().flat_map(|e| (0..2).map(move |w| e.field(32 * w, 32).bits as u32)).collect();
    assert!(right.chunks(2).all(|w| w[1] == 0x0000_8000), "{right:x?}");
    let mut wrong = right.clone();
    for t in 0..p.threads() as usize {
        wrong[2 * t + 1] = 0;
    }
    let observed = vec![
        Observed { backend: O0.into(), words: right },
        Observed { backend: O3.into(), words: wrong.clone() },
        Observed { backend: cuda::JIT.into(), words: wrong },
    ];
    let body: String = trace(listing).lines().map(|l| format!("{l} ;\n")).collect();
    let text = fixtures::kernel(&p.name, &body);
    let reads = check_listing(&text).unwrap();
    let sass = vec![SassCheck { by: "ptxas -O3".into(), reads, listing: text, witnessed: Default::default() }];
    (p, ProgramResult { expected: Ok(expected), observed, failures: Vec::new(), sass, emulated: Vec::new() })
}

/// The pre-signature the campaign minimized by: the compiler finding of the run unchecked.
fn minimized_pre(p: &Program, r: &ProgramResult) -> String {
    let unchecked = ProgramResult { sass: Vec::new(), ..r.clone() };
    let raws = Register::raw_findings(p, &unchecked, &Allowances::all());
    let compiler: Vec<&Raw> = raws.iter().filter(|x| x.class == FindingClass::Compiler).collect();
    assert_eq!(compiler.len(), 1, "{raws:#?}");
    compiler[0].pre_signature()
}

#[test]
fn seed_4301_3042780d_minimized_is_the_n5_stored_read() {
    let (p, r) = final_run("orig.130.O3.sass");
    let pre = minimized_pre(&p, &r);
    assert!(pre.starts_with("compiler|") && pre.ends_with("|sign"), "{pre}");
    let allow = Allowances::all();
    let x = stored_undefined(&p, &r, &pre, &allow).expect("the words are the STG.E.U8 read's");
    assert_eq!(
        (x.class, x.form.as_deref(), x.how.as_str()),
        (FindingClass::UnwrittenRegister, Some("STG.E.U8"), "source")
    );
    assert_eq!(x.undefined_words.len(), 8, "{x:#?}");
    assert!(x
        .undefined_words
        .iter()
        .all(|m| m.word == 1 && m.actual[O3] == "0x00000000" && m.actual[cuda::JIT] == "0x00000000"));
    // Packaged as the minimization thread packages it: the signature an entry matches.
    let reduced = Reduced::unchanged(&p, &parse_case(&trace("orig.case")).unwrap().1);
    let case = package::Case { original: &p, reduced: &reduced, result: &r };
    let (f, _) = package::package(&x, &case, &allow, 0.0, &[]);
    let root = crate::paths::repo_root().expect("the repository");
    let known = KnownSet::load(&root.join("corpus/known")).unwrap();
    assert_eq!(known.matches(&f.signature).map(|k| k.name.as_str()), Some("sass-n5-ifconv-loses-else-value"));
}

#[test]
fn the_generated_kernel_flags_nothing_so_its_words_stay_a_compiler_finding() {
    // The listing of the program as generated (batch 191, program 16 of seed 4301): the else
    // value's register R4 is written on every path (another variable's `PRMT`), nothing is
    // flagged, and the campaign's batch triage had no read to give the word to.
    let body: String = trace("generated.130.O3.sass").lines().map(|l| format!("{l} ;\n")).collect();
    assert!(check_listing(&fixtures::kernel("p191_16", &body)).unwrap().is_empty());
    let (p, mut r) = final_run("orig.130.O3.sass");
    let pre = minimized_pre(&p, &r);
    let allow = Allowances::all();
    r.sass[0].reads.clear();
    assert!(stored_undefined(&p, &r, &pre, &allow).is_none());
}

#[test]
fn a_word_not_stored_from_the_read_keeps_the_finding() {
    // Word 0 wrong too (bytes no flagged store writes): the compiler finding still shows.
    let (p, mut r) = final_run("orig.130.O3.sass");
    for o in r.observed.iter_mut().filter(|o| o.backend != O0) {
        o.words[0] ^= 1;
    }
    let pre = minimized_pre(&p, &r);
    assert!(stored_undefined(&p, &r, &pre, &Allowances::all()).is_none());
}
