//! Tests of 3702-N7 at a later shuffle (session 47: seed 4601's 746b5bde,
//! corpus/findings/fuzz-h200-4601/trace/T17t1.md and trace/746b5bde/).

use super::*;

const D: Deviation = Deviation::ShuffleOfBflyPredicateChoiceDropped;

/// Word 0 of every thread of a one-warp program of `lines` (inputs: word 0 = the thread index),
/// by the spec and emulating [`D`], and the deviations that fired.
pub(super) fn lanes(lines: &[&str]) -> (Vec<u128>, Vec<u128>, Vec<Deviation>) {
    let p = Program { launch: Launch::one_cta(32), ..program(lines) };
    let i = Inputs((0..32).flat_map(|t| [t, 0, 0, 0]).collect());
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    let word0 = |v: &[Expected]| v.iter().map(|e| e.field(0, 32).bits).collect::<Vec<_>>();
    (word0(&spec), word0(&out), fired)
}

/// 746b5bde's program with the first shuffle `first` and the second `second` (of %r1).
fn chain(first: &'static str, choice: &'static str, second: &'static str) -> Vec<&'static str> {
    vec!["mov.b32 %r1, 0;", "ld.global.b32 %r5, [%in];", first, choice, second, "st.global.b32 [%out], %r4;"]
}

const FIRST: &str = "shfl.sync.bfly.b32 %r3|%p1, %r1, 2147483648, 1, -1;";
const CHOICE: &str = "@!%p1 mov.s32 %r1, -443429059;";
const SECOND: &str = "shfl.sync.bfly.b32 %r4, %r1, 14, 6175, -1;";
const K: u128 = 0xe591_cf3d;

/// Wrong (13.0.88 -O3 `SHFL.BFLY P0, RZ, RZ, R4, 0x1; SEL R0, RZ, 0xe591cf3d, P0`, no second
/// `SHFL`): lanes 14 and 15 keep their own K where the spec reads lanes 0 and 1 (0); the same
/// under `selp` (`v4_selp`) and a second `.idx` shuffle (`v5_second_idx`: lanes 0 and 1 keep 0).
#[test]
fn n7_3702_a_shuffle_of_a_value_chosen_by_a_bfly_predicate_keeps_each_lanes_own() {
    let (s, e, fired) = lanes(&chain(FIRST, CHOICE, SECOND));
    let own = |l: usize| if l <= 1 { 0 } else { K };
    for l in 0..32 {
        assert_eq!(s[l], if [0, 1, 14, 15].contains(&l) { 0 } else { K }, "spec lane {l}");
        assert_eq!(e[l], own(l), "lane {l}");
    }
    assert_eq!(fired, vec![D]);
    let selp = ["mov.b32 %r6, -443429059;", "selp.b32 %r1, %r1, %r6, %p1;"];
    let mut lines = chain(FIRST, selp[0], SECOND);
    lines.insert(4, selp[1]);
    let (_, e, fired) = lanes(&lines);
    assert_eq!((e[14], e[15], fired), (K, K, vec![D]));
    let (s, e, fired) = lanes(&chain(FIRST, CHOICE, "shfl.sync.idx.b32 %r4, %r1, 0, 31, -1;"));
    assert_eq!((s[5], e[5], e[0], fired), (0, K, 0, vec![D]));
    // `.up` (`s47/e1_second_up`: lane 14 reads lane 0) and a `mov.pred` copy (`s47/e2`).
    let (s, e, fired) = lanes(&chain(FIRST, CHOICE, "shfl.sync.up.b32 %r4, %r1, 14, 0, -1;"));
    assert_eq!((s[14], e[14], fired), (0, K, vec![D]));
    let mut lines = chain(FIRST, "@!%p0 mov.s32 %r1, -443429059;", SECOND);
    lines.insert(3, "mov.pred %p0, %p1;");
    let (_, e, fired) = lanes(&lines);
    assert_eq!((e[14], e[15], fired), (K, K, vec![D]));
}

/// Right (the second `SHFL` kept): the bfly of a loaded value (`v1_src_loaded`), `c[4:0]` = 0
/// (`v8_bfly_lane1`, `v10_b0_c0`: their bodies do not load; with a load the shuffle is dropped,
/// seed 5801's 917157f1 `s58/v26_746b5bde_v18_dead_load`, so the chain's load is removed there), the
/// `.up` predicate (`v2_up_pred`); and where the predicate is uniform the drop changes nothing
/// (`v12_b0_c31`).
#[test]
fn n7_3702_leaves_kept_and_valid_drops_alone() {
    for first in [
        "shfl.sync.bfly.b32 %r3|%p1, %r5, 2147483648, 1, -1;",
        "shfl.sync.bfly.b32 %r3|%p1, %r1, 1, 0, -1;",
        "shfl.sync.up.b32 %r3|%p1, %r1, 1, 0, -1;",
        "shfl.sync.bfly.b32 %r3|%p1, %r1, 0, 31, -1;",
    ] {
        let mut lines = chain(first, CHOICE, SECOND);
        if !first.contains("%r5") {
            lines.retain(|l| !l.starts_with("ld."));
        }
        let (s, e, fired) = lanes(&lines);
        assert_eq!((e, fired), (s, Vec::new()), "{first}");
    }
}

/// 746b5bde's campaign case: emulating 3702-N7's dropped shuffle gives the stored ptxas -O3 and
/// JIT words (threads 14 and 15: 0xcf3dcf3d, the spec's 0) and the spec's everywhere else.
#[test]
fn n7_3702_746b5bde_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4601", "746b5bde532e9185");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 0 && (t == 14 || t == 15) { 0xcf3d_cf3d } else { s.bits };
        assert_eq!((e.bits, e.is_exact()), (want, true), "thread {t} word {w}");
    }
}

/// Seed 5402's 24d122cc (corpus/findings/fuzz-h200-5402/trace/T54S.md, trace/24d122cc/): the
/// choice a guarded `cvt` of a moved 0 over a moved 172 (13.0.88 = 13.5 -O3 `SEL R5, RZ, 0xac,
/// !P0`, no `SHFL.UP`): the stored case gives the GPU's words (thread 23 0, thread 25 0xac).
#[test]
fn n7_3702_24d122cc_a_guarded_cvt_of_a_constant_is_a_choice_too() {
    let (p, i) = super::stored_case("5402", "24d122cc816b148b");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = match (t, w) {
            (23, 0) => 0,
            (25, 0) => 0xac,
            _ => s.bits,
        };
        assert_eq!((e.bits, e.is_exact()), (want, true), "thread {t} word {w}");
    }
    // `cvt.rn.f32.s32` (`s54/x5_w1`: `FSEL`) and a cvt of a moved π (`x5_w2`) are dropped too.
    let body = |r1: &'static str, cvt: &'static str| {
        vec![
            "mov.b32 %r0, 0;",
            r1,
            "shfl.sync.bfly.b32 %r0|%p0, %r0, 8, 30, -1;",
            "mov.b32 %r2, 172;",
            cvt,
            "shfl.sync.up.b32 %r4, %r2, 2, 4264649445, -1;",
            "st.global.b32 [%out], %r4;",
        ]
    };
    for (r1, cvt) in [
        ("mov.b32 %r1, 0;", "@!%p0 cvt.rn.f32.s32 %r2, %r1;"),
        ("mov.b32 %r1, 1078530011;", "@!%p0 cvt.rni.s32.f32 %r2, %r1;"),
    ] {
        let (s, e, fired) = lanes(&body(r1, cvt));
        assert_eq!((s[23], e[23], fired), (172, s[25], vec![D]), "{cvt}");
    }
}

/// Right (the `SHFL.UP` kept): a guarded cvt of a loaded value (`s54/v2_cvt_of_loaded`: `F2I.NTZ;
/// SEL; SHFL.UP`) and `c[4:0]` = 0 (`s54/v3_clamp_0`).
#[test]
fn n7_3702_24d122cc_variants_kept_stay_the_spec() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/findings/fuzz-h200-5402/cases/24d122cc816b148b.case");
    let case = std::fs::read_to_string(path).unwrap();
    let with = |from: &str, to: &str| {
        assert!(case.contains(from), "{from}");
        crate::program::text::parse_case(&case.replace(from, to)).unwrap()
    };
    for (q, i) in [with("mov.b32 %r1, 0;", "ld.global.f32 %r1, [%in+4];"), with("%r0, 8, 30, -1;", "%r0, 8, 0, -1;")] {
        let spec = run(&q, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&q, &i, &Allowances::all().emulating(D)).unwrap();
        assert_eq!((out, fired), (spec, Vec::new()));
    }
}
