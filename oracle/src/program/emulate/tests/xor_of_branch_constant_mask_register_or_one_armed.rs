//! 3602-N1 widened by seed 6103's 407ea10a (corpus/findings/fuzz-h200-6103/trace/T61G.md,
//! variants trace/407ea10a/s61/; `emulate/fuzz3602/xor_of_branch_constant.rs`): the inverting
//! mask a register holding a moved 0xffffffff, the xor in a one-armed if, and d = v right where
//! the other path leaves v alone.

use super::*;

const D: Deviation = Deviation::XorOfBranchConstantDropsInversion;

/// The stored case: `mov r3, -1; setp.ne.s32 p, tix, 3; @!p bra L0; bra L1; L0: xor r3, tix, r3`
/// — thread 3 stores K = 3 (13.0.88 -O3 `@!P0 MOV R5, 0x3`, the GPU's word), the spec 0xfffffffc;
/// every other thread the spec's 0xffffffff.
#[test]
fn n1_3602_stored_407ea10a_mask_in_a_register_gives_the_constant() {
    let (p, i) = stored_case("6103", "407ea10ad36c8ff4");
    for (t, w, spec, emulated) in words_emulated_alone(&p, &i, D) {
        let want = if t == 3 { (0xFFFF_FFFC, 3) } else { (0xFFFF_FFFF, 0xFFFF_FFFF) };
        assert_eq!((spec.bits as u64, emulated.bits as u64), want, "thread {t} word {w}");
    }
}

/// The s61 variants (13.0.88 -O3 listings, README there): the wrong ones store K in the thread
/// where v = K (tid 3, or a loaded 5), the right ones are left alone.
#[test]
fn n1_3602_variants_of_407ea10a() {
    let wrong = [
        ("v02_imm_mask", 3),
        ("v03_other_init", 3),
        ("v04_swapped", 3),
        ("v06_one_armed", 3),
        ("v08_mov_after_setp", 3),
        ("v09_mov_in_arm", 3),
        ("v10_one_armed_loaded_other", 3),
        ("v12_loaded_v_const_other", 5),
        ("v13_loaded_v_loaded_other", 5),
        ("v18_one_armed_mask_reg_d_other", 3),
        ("v22_diamond_maskreg", 3),
        ("v23_diamond_d_eq_v_other_arm_writes_v", 5),
    ];
    for (name, k) in wrong {
        let (p, i) = variant_of("6103", "407ea10a", &format!("s61/{name}"), &[(0, 5)]);
        let words = words_emulated_alone(&p, &i, D);
        assert!(words.iter().any(|(_, w, s, e)| *w == 0 && e.bits == k && s.bits == !k & 0xFFFF_FFFF), "{name}");
    }
    // v19: `xor; add 1` in the arm gives K + 1 (`@!P0 MOV R5, 0x4`).
    let (p, i) = variant_of("6103", "407ea10a", "s61/v19_one_armed_then_add", &[]);
    assert!(words_emulated_alone(&p, &i, D).iter().any(|(t, _, _, e)| *t == 3 && e.bits == 4));
    let right = [
        "v05_mask_m2",
        "v07_loaded_mask",
        "v11_one_armed_d_eq_v",
        "v14_loaded_v_d_eq_v",
        "v15_empty_then_d_eq_v",
        "v16_empty_then_d_eq_v_maskreg",
        "v17_one_armed_eq",
        "v20_one_armed_b16",
        "v21_diamond_d_eq_v_other_arm_elsewhere",
    ];
    for name in right {
        let (p, i) = variant_of("6103", "407ea10a", &format!("s61/{name}"), &[(0, 5)]);
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        assert_eq!((out, fired), (spec, Vec::new()), "{name}");
    }
}

/// One thread: a one-armed if with d ≠ v (`v12`), and an empty-arm diamond with d = v (`v15`,
/// right: the emulation before session 61 fired on it).
#[test]
fn n1_3602_one_armed_if_needs_a_destination_other_than_v() {
    let one_armed = [
        "ld.global.u32 %r0, [%in];",
        "mov.b32 %r3, 7;",
        "setp.ne.u32 %p0, %r0, 5;",
        "@%p0 bra $L1;",
        "xor.b32 %r3, %r0, -1;",
        "$L1:",
        "st.global.u32 [%out], %r3;",
    ];
    exact_case(&one_armed, [5, 0, 0, 0], D, 0xFFFF_FFFA, 5);
    untouched(&one_armed, [6, 0, 0, 0], D);
    let empty_then_d_is_v = [
        "ld.global.u32 %r0, [%in];",
        "setp.ne.u32 %p0, %r0, 5;",
        "@!%p0 bra $L0;",
        "bra $L1;",
        "$L0:",
        "xor.b32 %r0, %r0, -1;",
        "$L1:",
        "st.global.u32 [%out], %r0;",
    ];
    untouched(&empty_then_d_is_v, [5, 0, 0, 0], D);
    // The mask a register holding a moved −1 (the case's form, one thread, v loaded).
    let mask_register = [
        "ld.global.u32 %r0, [%in];",
        "mov.b32 %r3, 4294967295;",
        "setp.ne.s32 %p0, %r0, 5;",
        "@!%p0 bra $L0;",
        "bra $L1;",
        "$L0:",
        "xor.b32 %r3, %r0, %r3;",
        "$L1:",
        "st.global.u32 [%out], %r3;",
    ];
    exact_case(&mask_register, [5, 0, 0, 0], D, 0xFFFF_FFFA, 5);
    let loaded_mask = mask_register.map(|l| if l.starts_with("mov") { "ld.global.u32 %r3, [%in+4];" } else { l });
    untouched(&loaded_mask, [5, 0xFFFF_FFFF, 0, 0], D);
}
