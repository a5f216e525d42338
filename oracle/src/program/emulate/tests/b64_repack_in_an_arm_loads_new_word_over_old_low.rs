//! Tests of d88aeb3a's emulation (`emulate/b64_repack_in_an_arm_loads_new_word_over_old_low.rs`):
//! a branch arm's `mov.b64 d, {new, lo}` (lo d's old low word, new loaded in the arm) beside a
//! test of a loaded word or an acquire load gets new as its high word (seed 5103's d88aeb3a and
//! a27dfeaf, trace/T22c.md, trace/{d88aeb3a,a27dfeaf}/s51/ with 13.0.88 and 13.5 -O3 listings).

use super::*;

const D: Deviation = Deviation::B64RepackInAnArmLoadsNewWordOverOldLow;

/// The variant `name` (`s51/NAME`, `s54/NAME`) of finding `id8` of seed 5103 ([`variant_of`]).
fn variant(id8: &str, name: &str, patch: &[(usize, u32)]) -> (Program, Inputs) {
    super::variant_of("5103", id8, name, patch)
}

/// Checks that emulating [`D`] on `(p, i)` fires and gives, in every thread `arm` says runs the
/// arm, `gpu(word, spec)` (the listing's word), and the spec's word elsewhere.
fn wrong(what: &str, (p, i): (Program, Inputs), arm: impl Fn(usize) -> bool, gpu: impl Fn(u32, u64) -> u64) {
    let mut changed = 0;
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if arm(t) { gpu(w, s.bits as u64) } else { s.bits as u64 };
        assert_eq!(e.bits as u64, want, "{what}: thread {t} word {w} (spec {:#x})", s.bits);
        changed += usize::from(want != s.bits as u64);
    }
    assert!(changed > 0, "{what}: no word differs from the spec");
}

/// Checks that emulating [`D`] on `(p, i)` leaves every word as the spec gives it, firing nothing.
fn right(what: &str, (p, i): (Program, Inputs)) {
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    assert_eq!((out, fired), (spec, Vec::new()), "{what}");
}

/// d88aeb3a: threads 1–31 run the arm (tid ≠ word 14 = 0); word 0 is h8, the high word's high
/// half: 0 on the GPU (the new word, a zero-extended byte), 0xd672 by the spec. a27dfeaf: threads
/// 2–31 (tid > 1); word 1 is h8: 0 on the GPU (the new word 0), 0xff3f by the spec.
#[test]
fn b64_repack_d88aeb3a_the_stored_cases_are_reproduced() {
    let (p, i) = super::stored_case("5103", "d88aeb3af40acb01");
    let gpu = |w: u32, s: u64| {
        if w == 0 {
            assert_eq!(s, 0xd672);
            0
        } else {
            s
        }
    };
    wrong("d88aeb3a", (p, i), |t| t >= 1, gpu);
    let (p, i) = super::stored_case("5103", "a27dfeaf52c566fb");
    let gpu = |w: u32, s: u64| {
        if w == 1 {
            assert_eq!(s, 0xff3f);
            0
        } else {
            s
        }
    };
    wrong("a27dfeaf", (p, i), |t| t >= 2, gpu);
}

/// The new word's input for d88aeb3a's variants (word 2, `[in+8]`): the byte 0x78, the word
/// 0x12345678; for a27dfeaf's (word 3, `[in+12]`): 0xa5a5c3c3.
const D88_NEW: (usize, u32) = (2, 0x1234_5678);
const A27_NEW: (usize, u32) = (3, 0xa5a5_c3c3);

/// Wrong (13.0.88 and 13.5 -O3: `@P0 LDG R6/R4, [+0x8]; @P0 MOV R7/R5, R6/R4`, the high word the
/// new word): d88aeb3a's s51 v1 (test register renamed: h8 of the byte 0), v3 (`ld.u32`: h8 =
/// 0x1234), v5 (d0 stored whole: `STG.E.64 R6` of {0x78, 0x78}), v7 (the high word as a b32:
/// `STG.E R7` of 0x78); the stored program with the new byte nonzero.
#[test]
fn b64_repack_d88aeb3a_wrong_variants_get_the_new_word_high() {
    let arm = |t: usize| t >= 1;
    wrong("d88 orig 0x78", variant("d88aeb3a", "orig", &[D88_NEW]), arm, |w, s| if w == 0 { 0 } else { s });
    wrong(
        "d88 v1",
        variant("d88aeb3a", "s51/v1_test_register_renamed", &[D88_NEW]),
        arm,
        |w, s| {
            if w == 0 {
                0
            } else {
                s
            }
        },
    );
    wrong(
        "d88 v3",
        variant("d88aeb3a", "s51/v3_word_load_in_arm", &[D88_NEW]),
        arm,
        |w, s| {
            if w == 0 {
                0x1234
            } else {
                s
            }
        },
    );
    wrong("d88 v5", variant("d88aeb3a", "s51/v5_d0_stored_whole", &[D88_NEW]), arm, |w, s| {
        assert_eq!(s, [0x78, 0xd672_ac69][w as usize]);
        0x78
    });
    wrong("d88 v7", variant("d88aeb3a", "s51/v7_high_word_read_as_b32", &[D88_NEW]), arm, |w, s| {
        if w == 0 {
            assert_eq!(s, 0xd672_ac69);
            0x78
        } else {
            s
        }
    });
}

/// Wrong (kept branch, `LDG.E.STRONG.GPU R4, [+0xc]` or `LDG.E R4`; `MOV R5, R4`; `PRMT R5, R5,
/// 0x7632`): a27dfeaf's stored program and s51 v5 (only the arm's load acquire), v6 (only d1's
/// load acquire), the new word 0xa5a5c3c3: word 1 (h8) is 0xa5a5 where the spec gives 0xff3f.
#[test]
fn b64_repack_a27dfeaf_wrong_variants_get_the_new_word_high() {
    let arm = |t: usize| t >= 2;
    let gpu = |w: u32, s: u64| {
        if w == 1 {
            assert_eq!(s, 0xff3f);
            0xa5a5
        } else {
            s
        }
    };
    wrong("a27 orig", variant("a27dfeaf", "orig", &[A27_NEW]), arm, gpu);
    wrong("a27 v5", variant("a27dfeaf", "s51/v5_arm_load_acquire_only", &[A27_NEW]), arm, gpu);
    wrong("a27 v6", variant("a27dfeaf", "s51/v6_first_load_acquire_only", &[A27_NEW]), arm, gpu);
}

/// Right (13.0.88 and 13.5 -O3 load the new word into a fresh register and copy first, or fold):
/// d88aeb3a's s51 v2 (a test of tid alone), v4 (a computed new word), v6 (selp, no arm);
/// a27dfeaf's s51 v1 (no branch), v2 (plain loads, tid test), v3 (d1 stored whole), v4 (`{r0,
/// r2}`), v7 (d88aeb3a's byte load, plain), v8 (`ld.volatile`); d88aeb3a's s54 w1, w2 (the arm
/// as guarded statements). The stored programs on the same inputs fire (the control).
#[test]
fn b64_repack_right_variants_are_left_alone() {
    for name in ["v2_test_of_tid_only", "v4_new_word_an_add", "v6_selp_for_branch"] {
        right(name, variant("d88aeb3a", &format!("s51/{name}"), &[D88_NEW]));
    }
    // s54 (13.0.88 and 13.5 -O3 `SEL`s, right): the arm as `@!p0` statements, h8 or d0 stored.
    for name in ["w1_arm_guarded", "w2_arm_guarded_d0_stored_whole"] {
        right(name, variant("d88aeb3a", &format!("s54/{name}"), &[D88_NEW]));
    }
    for name in [
        "v1_plain_no_branch",
        "v2_arm_plain_loads",
        "v3_arm_d1_stored_whole",
        "v4_arm_no_swap_r0_r2",
        "v7_arm_byte_load_zero_extended",
        "v8_arm_volatile_load",
    ] {
        right(name, variant("a27dfeaf", &format!("s51/{name}"), &[A27_NEW]));
    }
    for (id8, new) in [("d88aeb3a", D88_NEW), ("a27dfeaf", A27_NEW)] {
        let (p, i) = variant(id8, "orig", &[new]);
        let (_, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        assert_eq!(fired, vec![D], "{id8}");
    }
}

/// One thread: d0 loaded, `setp.ne.u32 p0, r9, 0` of a loaded r9 (word 3) skipping the arm when
/// word 3 is 0; the arm `arm`, then d0's high word stored.
fn one(arm: &[&str]) -> Vec<String> {
    let mut l: Vec<String> = vec!["ld.global.u64 %d0, [%in];".into(), "ld.global.u32 %r9, [%in+12];".into()];
    l.extend(["setp.ne.u32 %p0, %r9, 0;".into(), "@%p0 bra $L0;".into()]);
    l.extend(arm.iter().map(|s| s.to_string()));
    l.extend(["$L0:".into(), "mov.b64 {%r4, %r5}, %d0;".into(), "st.global.u32 [%out], %r5;".into()]);
    l
}

/// The module's scope at its edges (one thread, `d0` = 0x11111111_22222222, the new word
/// 0x33333333): the evidenced form fires (high word 0x33333333, spec 0x22222222), and so do an
/// `ld.relaxed` or `ld.acquire` new word with no loaded test; a guarded repack, the old high word
/// repacked (`{new, hi}`), and lo rewritten in the arm after its unpack are left alone.
#[test]
fn b64_repack_scope_edges() {
    let words = [0x2222_2222, 0x1111_1111, 0x3333_3333, 0];
    let form = ["mov.b64 {%r0, %r1}, %d0;", "ld.global.u32 %r2, [%in+8];", "mov.b64 %d0, {%r2, %r0};"];
    exact_case(&strs(&one(&form)), words, D, 0x2222_2222, 0x3333_3333);
    let guarded = ["mov.b64 {%r0, %r1}, %d0;", "ld.global.u32 %r2, [%in+8];", "@%p0 mov.b64 %d0, {%r2, %r0};"];
    untouched(&strs(&one(&guarded)), words, D);
    let hi = ["mov.b64 {%r0, %r1}, %d0;", "ld.global.u32 %r2, [%in+8];", "mov.b64 %d0, {%r2, %r1};"];
    untouched(&strs(&one(&hi)), words, D);
    let moved = ["mov.b64 {%r0, %r1}, %d0;", "ld.global.u32 %r2, [%in+8];", "add.u32 %r0, %r0, 1;"];
    let moved: Vec<&str> = moved.into_iter().chain(["mov.b64 %d0, {%r2, %r0};"]).collect();
    untouched(&strs(&one(&moved)), words, D);
    // The test of tid alone, the new word `ld.relaxed`: a trigger since seed 5501 (cb677612's
    // s56/v3, v7: `LDG.E.STRONG.GPU R4; MOV R5, R4`, 13.0.88 and 13.5 -O3), as an acquire.
    let relaxed = [
        "ld.global.u64 %d0, [%in];",
        "setp.ne.u32 %p0, %tix, 0;",
        "@%p0 bra $L0;",
        "mov.b64 {%r0, %r1}, %d0;",
        "ld.relaxed.gpu.global.u32 %r2, [%in+8];",
        "mov.b64 %d0, {%r2, %r0};",
        "$L0:",
        "mov.b64 {%r4, %r5}, %d0;",
        "st.global.u32 [%out], %r5;",
    ];
    exact_case(&relaxed, words, D, 0x2222_2222, 0x3333_3333);
    let acquire: Vec<&str> = relaxed
        .iter()
        .map(|s| if s.contains("relaxed") { "ld.acquire.gpu.global.u32 %r2, [%in+8];" } else { s })
        .collect();
    exact_case(&acquire, words, D, 0x2222_2222, 0x3333_3333);
}

/// Seed 5403's 9121bc6c inputs for its variants: d0 = [in+8] (word 2 its low word, patched to
/// 0x12345678 so that the entry orientation's old low word differs from a new 0; word 3 its high
/// word 0x559aaa0c), the new word's load [in+4] (word 1) patched to 0x10; the byte splat
/// 0x00550055 (d0's top byte) is XORed into the stored word 0.
const W91: [(usize, u32); 2] = [(1, 0x10), (2, 0x1234_5678)];

/// Checks 9121bc6c's variant `name` (`s54/…`, `s54b/…`): threads `arm` run the arm and store
/// `gpu ^ 0x00550055` where the spec stores `spec ^ 0x00550055`.
fn wrong_9121(name: &str, arm: impl Fn(usize) -> bool, spec: u64, gpu: u64) {
    let (p, i) = variant_of("5403", "9121bc6c", name, &W91);
    wrong(name, (p, i), arm, |_, s| {
        assert_eq!(s, spec ^ 0x0055_0055, "{name}: spec");
        gpu ^ 0x0055_0055
    });
}

/// Seed 5403's 9121bc6c (corpus/findings/fuzz-h200-5403/trace/T54S.md): the mirror `mov.b64 d0,
/// {hi, new}` with new a `subc.u32` of constants (0): 13.0.88 and 13.5 -O3 `@P1 IMAD.X R5; @P1
/// MOV R4, R5`, the low word 0 where the spec gives the old high word 0x559aaa0c: the stored
/// word 0 is 0x00550055 (spec 0x55cfaa59) in every thread.
#[test]
fn b64_repack_9121bc6c_the_stored_case_is_reproduced() {
    let (p, i) = super::stored_case("5403", "9121bc6c6f511c3d");
    wrong(
        "9121bc6c",
        (p, i),
        |_| true,
        |_, s| {
            assert_eq!(s, 0x55cf_aa59);
            0x0055_0055
        },
    );
}

/// Wrong, a new word computed in the arm from no word of d (13.0.88 and 13.5 -O3: computed into
/// the moving word's register, then copied over the other): s54 w2 (the entry orientation, the
/// `subc`), w3 (mirror, `add.u32` of an arm load), w5 (mirror, `subc`, a test of two loaded
/// words), w6 (entry, `add.u32` of an arm load); s54b x1/x2 (entry/mirror `subc` under a test of
/// tid: thread 0 skips the arm), x6/x7 (entry/mirror `add.u32` of a load before the branch), x10
/// (mirror, `add.u32 new, %tid.x, 5`).
#[test]
fn b64_repack_9121bc6c_computed_new_words_are_moved_over_in_both_orientations() {
    let (hi, lo) = (0x559a_aa0c, 0x1234_5678);
    wrong_9121("s54/w2_entry_orientation_subc_new", |_| true, lo, 0);
    wrong_9121("s54/w3_mirror_add_new", |_| true, hi, 0x11);
    wrong_9121("s54/w5_loaded_test", |_| true, hi, 0);
    wrong_9121("s54/w6_entry_orientation_add_new", |_| true, lo, 0x11);
    wrong_9121("s54b/x1_entry_subc_tid_test", |t| t >= 1, lo, 0);
    wrong_9121("s54b/x2_mirror_subc_tid_test", |t| t >= 1, hi, 0);
    wrong_9121("s54b/x6_entry_add_of_load_before_branch", |_| true, lo, 0x11);
    wrong_9121("s54b/x7_mirror_add_of_load_before_branch", |_| true, hi, 0x11);
    let (p, i) = variant_of("5403", "9121bc6c", "s54b/x10_mirror_add_of_tid", &W91);
    for (t, _, s, e) in super::words_emulated_alone(&p, &i, D) {
        assert_eq!((s.bits as u64, e.bits as u64), (hi ^ 0x0055_0055, (t as u64 + 5) ^ 0x0055_0055), "x10 {t}");
    }
}

/// Right (13.0.88 and 13.5 -O3 copy first, or fold): 9121bc6c's s54 w1 (mirror, a loaded new
/// word under the constant test), w4 (no branch); s54b x3/x4/x9 (new computed from a word of d:
/// a fresh register, as 5103's v4), x5 (mirror, a loaded new word beside a loaded test: the load
/// hoisted), x8 (a moved immediate).
#[test]
fn b64_repack_9121bc6c_right_variants_are_left_alone() {
    for name in [
        "s54/w1_mirror_loaded_new",
        "s54/w4_mirror_no_branch",
        "s54b/x3_entry_add_of_d_high",
        "s54b/x4_mirror_add_of_d_low",
        "s54b/x5_mirror_loaded_new_loaded_test",
        "s54b/x8_entry_moved_immediate",
        "s54b/x9_entry_add_of_moving_low",
    ] {
        right(name, variant_of("5403", "9121bc6c", name, &W91));
    }
}

/// Seed 5501's cb677612 (corpus/findings/fuzz-h200-5501/trace/T56B.md): threads 19–31 run the
/// arm (tid > 0x12); word 0 holds d3's bits 48..55 at byte 2: 0x6f on the GPU (the new word
/// 0xfa6f7e3d's), 0 by the spec (the old low word 0, truncated by `cvt.u32.u64`).
#[test]
fn b64_repack_cb677612_the_stored_case_is_reproduced() {
    let (p, i) = super::stored_case("5501", "cb6776125d9398c0");
    wrong("cb677612", (p, i), |t| t >= 19, cb67_gpu);
}

/// cb677612's word 0 on the GPU where the arm ran (the spec's 0 with byte 2 the new word's 0x6f).
fn cb67_gpu(w: u32, s: u64) -> u64 {
    if w == 0 {
        assert_eq!(s, 0);
        0x006f_0000
    } else {
        s
    }
}

/// cb677612's s56 variants (trace/cb677612/s56/README.md; 13.0.88 and 13.5 -O3 identical). Wrong
/// (the new word loaded over lo, then copied up): v1 (the entry's unpack for the `cvt`), v3 (only
/// the arm's load relaxed), v4 (only d's, through the `mov.b64` copy), v5 (no copy), v7
/// (`.relaxed.cta`), v8 (acquire loads), v9 (plain loads, a test of a loaded word, 0: threads 1–31).
/// Right (if-converted, the new word in a fresh register): v2 (plain loads, the tid test), v6 (a
/// volatile arm load).
#[test]
fn b64_repack_cb677612_relaxed_loads_and_a_truncated_low_word() {
    let v = |name: &str| super::variant_of("5501", "cb677612", &format!("s56/{name}"), &[]);
    for name in [
        "v1_unpack_for_cvt",
        "v3_arm_load_relaxed_only",
        "v4_d_load_relaxed_only",
        "v5_no_copy_d2",
        "v7_arm_load_relaxed_cta",
        "v8_acquire_loads",
    ] {
        wrong(name, v(name), |t| t >= 19, cb67_gpu);
    }
    wrong("v9_loaded_test", v("v9_loaded_test"), |t| t >= 1, cb67_gpu);
    for name in ["v2_plain_loads", "v6_arm_load_volatile"] {
        right(name, v(name));
    }
}

/// Seed 6102's 2f0c593b (corpus/findings/fuzz-h200-6101/trace/T61B.md, trace in
/// corpus/findings/fuzz-h200-6102/trace/2f0c593b/): the mirror `mov.b64 d3, {r9, r12}` with r12 a
/// `min.s32` of a word loaded before the branch; threads 0–18 run the arm. 13.0.88 and 13.5 -O3
/// `VIMNMX R11, R9, -0x50dad988, PT; IMAD.MOV.U32 R10, RZ, RZ, R11`: byte 1 (h23, d3's low byte)
/// is min's 0x78 where the spec's is the old high word's 0.
#[test]
fn b64_repack_2f0c593b_the_stored_case_is_reproduced() {
    let (p, i) = super::stored_case("6102", "2f0c593bf0ecf27b");
    wrong(
        "2f0c593b",
        (p, i),
        |t| t < 19,
        |_, s| {
            assert_eq!(s, 0x0027_0000);
            0x0027_7800
        },
    );
}

/// Seed 6102's 2f0c593b variants (trace/2f0c593b/s61/, 13.0.88 and 13.5 -O3): with r2 (word 20)
/// 0x1234, every 32-bit op of no word of d3 is computed into d3's high register and copied down,
/// byte 1 its low byte — min.u32, max.s32, and, or, xor, sub, mul.lo, add.u32, a min of two
/// registers (wrong); new from d3's own high word (c_min_of_hi) and a moved immediate (c_mov_imm)
/// are right.
#[test]
fn b64_repack_2f0c593b_computed_ops_of_other_words_are_moved_over() {
    let r2: u32 = 0x1234;
    let patch = [(20, r2)];
    for (name, new) in [
        ("c_min_u32", r2.min(1_356_519_816)),
        ("c_max_s32", (r2 as i32).max(-1_356_519_816) as u32),
        ("c_and_b32", r2 & 0x7fff_1234),
        ("c_or_b32", r2 | 0x1234_5678),
        ("c_xor_b32", r2 ^ 0x1234_5678),
        ("c_sub_s32", r2.wrapping_sub(7)),
        ("c_mul_lo", r2.wrapping_mul(3)),
        ("c_add_u32", r2.wrapping_add(7)),
        ("c_min_regs", (r2 as i32).min(774_366_774) as u32),
    ] {
        let (p, i) = variant_of("6102", "2f0c593b", &format!("s61/{name}"), &patch);
        let byte = u64::from(new & 0xff) << 8;
        wrong(name, (p, i), |t| t < 19, |_, s| (s & !0xff00) | byte);
    }
    for name in ["s61/c_min_of_hi", "s61/c_mov_imm"] {
        right(name, variant_of("6102", "2f0c593b", name, &patch));
    }
}
