//! Tests of 3702-N3 with the arm's value pinned by the head's own compare
//! (`emulate/join_arm_pinned_by_the_branch_compare.rs`; seed 5803's b7cf5d00,
//! corpus/findings/fuzz-h200-5803/trace/T58B.md, variants in trace/b7cf5d00/s58/).

use super::*;

const D: Deviation = Deviation::JoinOfMinusOneAndOneF32Merged;

/// The stored case: only thread 90 runs the arm (`cvt.rpi.f32.f32 r0, tix` = 1.0f, its low half
/// 0x0000 stored); 13.0.88 -O3 and the JIT store the old −1's 0xffff in every thread.
#[test]
fn n3_b7cf5d00_the_stored_case_is_reproduced() {
    let (p, i) = stored_case("5803", "b7cf5d004211c9b7");
    for (t, w, s, e) in words_emulating(&p, &i, D) {
        if t == 90 && w == 0 {
            assert_eq!((s.bits, e.bits, e.is_exact()), (0, 0xffff, true), "thread {t} word {w}");
        } else {
            assert_eq!(e, s, "thread {t} word {w}");
        }
    }
}

/// A loaded r (word 0), `old` moved to r0, the head `setp` / `bra`, the arm `arm`, r0 stored.
fn pinned(old: &str, setp: &str, bra: &str, arm: &[&str]) -> Vec<String> {
    let mut l = vec!["ld.global.u32 %r5, [%in];".to_string(), format!("mov.b32 %r0, {old};"), setp.to_string()];
    l.push(format!("{bra} $L0;"));
    l.extend(arm.iter().map(|s| s.to_string()));
    l.extend(["$L0:".to_string(), "st.global.b32 [%out], %r0;".to_string()]);
    l
}

const NE: &str = "setp.ne.u32 %p0, %r5, 90;";
const CEIL: &str = "cvt.rpi.f32.f32 %r0, %r5;";

/// Wrong (13.0.88 -O3 `MOV R7, 0xffffffff` or the old 1.0f alone; s58): x1 (r loaded), x3
/// (`.s32`), x4 (`cvt.rn.f32.u32` of r == 1), x5 (a copy of r == 0x3f800000), x14
/// (1.0f over an arm moving r == −1), x13 (r rewritten from itself in the arm), K a moved
/// constant (either operand).
#[test]
fn n3_an_arm_value_of_the_register_its_head_pins_is_merged() {
    let ceil: &[&str] = &[CEIL];
    exact_case(&strs(&pinned("-1", NE, "@%p0 bra", ceil)), [90, 0, 0, 0], D, 0x3f80_0000, 0xffff_ffff);
    let s32 = "setp.ne.s32 %p0, %r5, 90;";
    exact_case(&strs(&pinned("-1", s32, "@%p0 bra", ceil)), [90, 0, 0, 0], D, 0x3f80_0000, 0xffff_ffff);
    let one = "setp.ne.u32 %p0, %r5, 1;";
    let cvt_rn: &[&str] = &["cvt.rn.f32.u32 %r0, %r5;"];
    exact_case(&strs(&pinned("-1", one, "@%p0 bra", cvt_rn)), [1, 0, 0, 0], D, 0x3f80_0000, 0xffff_ffff);
    let is_1f = "setp.ne.u32 %p0, %r5, 0x3f800000;";
    let copy: &[&str] = &["mov.b32 %r0, %r5;"];
    exact_case(&strs(&pinned("-1", is_1f, "@%p0 bra", copy)), [0x3f80_0000, 0, 0, 0], D, 0x3f80_0000, 0xffff_ffff);
    let is_m1 = "setp.ne.u32 %p0, %r5, -1;";
    exact_case(&strs(&pinned("0x3f800000", is_m1, "@%p0 bra", copy)), [u32::MAX, 0, 0, 0], D, 0xffff_ffff, 0x3f80_0000);
    let add_first: &[&str] = &["add.u32 %r5, %r5, 1;", CEIL];
    exact_case(&strs(&pinned("-1", NE, "@%p0 bra", add_first)), [90, 0, 0, 0], D, 0x3f80_0000, 0xffff_ffff);
    for setp in ["setp.ne.u32 %p0, %r5, %r6;", "setp.ne.u32 %p0, %r6, %r5;"] {
        let mut moved_k = pinned("-1", setp, "@%p0 bra", ceil);
        moved_k.insert(1, "mov.b32 %r6, 90;".to_string());
        exact_case(&strs(&moved_k), [90, 0, 0, 0], D, 0x3f80_0000, 0xffff_ffff);
    }
}

/// Right (13.0.88 -O3 keeps the compare; s58): x11 (`setp.eq; @!p bra`: `@!P0 FRND.CEIL`), x2
/// (`setp.eq; @p bra`: the arm where r != 90), x10 (a range compare), v10 (a guarded cvt, no
/// branch), another pair (w7: 0x40000000 over 1.0f), r loaded again in the arm, the arm not
/// taken.
#[test]
fn n3_a_head_that_pins_nothing_leaves_the_arm_alone() {
    let ceil: &[&str] = &[CEIL];
    untouched(&strs(&pinned("-1", "setp.eq.u32 %p0, %r5, 90;", "@!%p0 bra", ceil)), [90, 0, 0, 0], D);
    untouched(&strs(&pinned("-1", "setp.eq.u32 %p0, %r5, 90;", "@%p0 bra", ceil)), [91, 0, 0, 0], D);
    untouched(&strs(&pinned("-1", "setp.gt.u32 %p0, %r5, 90;", "@%p0 bra", ceil)), [1, 0, 0, 0], D);
    let guarded = [
        "ld.global.u32 %r5, [%in];",
        "mov.b32 %r0, -1;",
        NE,
        "@!%p0 cvt.rpi.f32.f32 %r0, %r5;",
        "st.global.b32 [%out], %r0;",
    ];
    untouched(&guarded, [90, 0, 0, 0], D);
    untouched(&strs(&pinned("0x40000000", NE, "@%p0 bra", ceil)), [90, 0, 0, 0], D);
    let reloaded: &[&str] = &["ld.global.u32 %r5, [%in];", CEIL];
    untouched(&strs(&pinned("-1", NE, "@%p0 bra", reloaded)), [90, 0, 0, 0], D);
    untouched(&strs(&pinned("-1", NE, "@%p0 bra", ceil)), [91, 0, 0, 0], D);
}
