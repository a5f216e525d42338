//! Tests of 3602-N4 (`s8-round-trip-through-64-sign-extends-32`) as widened by helper z5
//! (`emulate/s8_round_trip_of_a_learned_constant.rs`): a byte sign extension of a 16-bit constant ptxas 13.0.88 -O3
//! learns from known bits or a value range (corpus/findings/fuzz-h200-4303/trace/T14x3.md,
//! a3737354; trace/a3737354/variants.md and the variants z5 compiled). Wrong listings give their
//! word; right ones are untouched. The loaded byte is input word 0's low byte.

use super::*;

const D: Deviation = Deviation::S8RoundTripThrough64SignExtends32;
const LOAD: &str = "ld.global.b8 %h0, [%in];";
const NEVER: &str = "setp.gt.u16 %p0, %h0, 0x1ff;";
const SHR4: [&str; 2] = ["shr.u16 %h2, %h0, 0x4;", "st.global.u16 [%out], %h2;"];

/// `head`, then `shr.u16 %h2, %h0, 4` stored as a u16: 0x80's extension gives 0x0ff8 by the
/// spec, 0xfff8 on 13.0.88 -O3 (`MOV R0, 0xfff8`).
fn shr4(head: &[&'static str]) -> Vec<&'static str> {
    head.iter().copied().chain(SHR4).collect()
}

/// 0x80 left in %h1 by a write a never-true guard folds away, converted by `cvt`.
fn guarded(cvt: &'static str) -> Vec<&'static str> {
    vec![LOAD, NEVER, "mov.b16 %h1, 0x80;", "@%p0 mov.b16 %h1, 0;", cvt]
}

/// a3737354's `orig.ptx`: 13.0.88 -O3 `I2F.U32.RM R5, 0xffff` (65535.0) for the spec's 255.0.
#[test]
fn z5_a3737354_a_constant_a_never_true_guard_leaves_is_sign_extended_at_32_bits() {
    let lines = [
        "ld.global.b8 %h0, [%in];",
        "setp.gt.u16 %p0, %h0, 0xffff;",
        "mov.b16 %h1, 65535;",
        "@%p0 and.b16 %h1, %h0, 0x0;",
        "cvt.s8.u8 %h0, %h1;",
        "shr.u16 %h2, %h0, 0x8;",
        "cvt.rm.f32.u16 %r3, %h2;",
        "st.global.f32 [%out], %r3;",
    ];
    exact_case(&lines, [0x42; 4], D, 0x437f_0000, 0x477f_ff00);
    // reduced.ptx: `@p mov.b16 h1, 0`, the u16 stored (`MOV R0, 0xffff`).
    let reduced = [
        "ld.global.b8 %h0, [%in];",
        "setp.gt.u16 %p0, %h0, 0xffff;",
        "mov.b16 %h1, 65535;",
        "@%p0 mov.b16 %h1, 0;",
        "cvt.s8.u8 %h0, %h1;",
        "shr.u16 %h2, %h0, 0x8;",
        "st.global.u16 [%out], %h2;",
    ];
    exact_case(&reduced, [0x42; 4], D, 0xff, 0xffff);
}

/// variants.md x3, x5, x7, x8 and w3 (`setp.eq.u16 h, 0x1ff`), and z5's `cvt.s8.s8`, an
/// `ld.u8`, a `setp.gt.u32` of an `ld.u8` into a 32-bit register, a `mov` copy before and after
/// the cvt: all `MOV R0, 0xfff8`.
#[test]
fn z5_every_byte_sign_extension_of_the_guarded_constant_is_wrong() {
    for cvt in ["cvt.s8.u8 %h0, %h1;", "cvt.s8.s8 %h0, %h1;", "cvt.s8.s16 %h0, %h1;", "cvt.s8.u16 %h0, %h1;"] {
        exact_case(&shr4(&guarded(cvt)), [0x42; 4], D, 0x0ff8, 0xfff8);
    }
    exact_case(&shr4(&guarded("cvt.s16.s8 %h0, %h1;")), [0x42; 4], D, 0x0ff8, 0xfff8);
    let eq =
        [LOAD, "setp.eq.u16 %p0, %h0, 0x1ff;", "mov.b16 %h1, 0x80;", "@%p0 mov.b16 %h1, 0;", "cvt.s8.u8 %h0, %h1;"];
    exact_case(&shr4(&eq), [0x42; 4], D, 0x0ff8, 0xfff8);
    let mut u8 = guarded("cvt.s8.u8 %h0, %h1;");
    u8[0] = "ld.global.u8 %h0, [%in];";
    exact_case(&shr4(&u8), [0x42; 4], D, 0x0ff8, 0xfff8);
    let wide =
        ["ld.global.u8 %r0, [%in];", "setp.gt.u32 %p0, %r0, 0x1ff;", "mov.b16 %h1, 0x80;", "@%p0 mov.b16 %h1, 0;"];
    exact_case(&shr4(&[&wide[..], &["cvt.s8.u8 %h0, %h1;"]].concat()), [0x42; 4], D, 0x0ff8, 0xfff8);
    let copy_before =
        [LOAD, NEVER, "mov.b16 %h1, 0x80;", "@%p0 mov.b16 %h1, 0;", "mov.b16 %h3, %h1;", "cvt.s8.u8 %h0, %h3;"];
    exact_case(&shr4(&copy_before), [0x42; 4], D, 0x0ff8, 0xfff8);
    let copy_after =
        [&guarded("cvt.s8.u8 %h0, %h1;")[..], &["mov.b16 %h3, %h0;", "shr.u16 %h2, %h3, 4;", SHR4[1]]].concat();
    exact_case(&copy_after, [0x42; 4], D, 0x0ff8, 0xfff8);
}

/// z5's always-true guard (`setp.lt.u16 h, 0x100`, `setp.ne.u16 h, 0x100`), `@!p` of a
/// never-true one, a `selp` by it (of constants, or of the byte and a constant) and a guarded
/// `add` of the byte: `MOV R0, 0xfff8` alike.
#[test]
fn z5_any_write_or_select_the_range_decides_is_wrong() {
    for setp in ["setp.lt.u16 %p0, %h0, 0x100;", "setp.ne.u16 %p0, %h0, 0x100;"] {
        let lines = [LOAD, setp, "mov.b16 %h1, 0;", "@%p0 mov.b16 %h1, 0x80;", "cvt.s8.u8 %h0, %h1;"];
        exact_case(&shr4(&lines), [0x42; 4], D, 0x0ff8, 0xfff8);
    }
    let negated = [LOAD, NEVER, "mov.b16 %h1, 0;", "@!%p0 mov.b16 %h1, 0x80;", "cvt.s8.u8 %h0, %h1;"];
    exact_case(&shr4(&negated), [0x42; 4], D, 0x0ff8, 0xfff8);
    for selp in ["selp.b16 %h1, %h5, 0x80, %p0;", "selp.b16 %h1, %h0, 0x80, %p0;"] {
        let lines = [LOAD, NEVER, "mov.b16 %h5, 0;", selp, "cvt.s8.u8 %h0, %h1;"];
        exact_case(&shr4(&lines), [0x42; 4], D, 0x0ff8, 0xfff8);
    }
    let add = [LOAD, NEVER, "mov.b16 %h1, 0x80;", "@%p0 add.u16 %h1, %h1, %h0;", "cvt.s8.u8 %h0, %h1;"];
    exact_case(&shr4(&add), [0x42; 4], D, 0x0ff8, 0xfff8);
}

/// z5's constants learned from known bits alone: `and.b16 <byte>, 0x100` or `shr.u16 <byte>,
/// 8`, then `or 0x80`; `and 0xff00; xor 0x90` (0xfff9 for 0x0ff9); a `set.gt.u32.u16` the range
/// decides through `cvt.u16.u32` and `or 0x80`.
#[test]
fn z5_a_constant_learned_from_known_bits_is_wrong_alike() {
    let and = [LOAD, "and.b16 %h1, %h0, 0x100;", "or.b16 %h1, %h1, 0x80;", "cvt.s8.u8 %h0, %h1;"];
    exact_case(&shr4(&and), [0x42; 4], D, 0x0ff8, 0xfff8);
    let shr = [LOAD, "shr.u16 %h1, %h0, 8;", "or.b16 %h1, %h1, 0x80;", "cvt.s8.u8 %h0, %h1;"];
    exact_case(&shr4(&shr), [0x42; 4], D, 0x0ff8, 0xfff8);
    let xor = [LOAD, "and.b16 %h1, %h0, 0xff00;", "xor.b16 %h1, %h1, 0x90;", "cvt.s8.u8 %h0, %h1;"];
    exact_case(&shr4(&xor), [0x42; 4], D, 0x0ff9, 0xfff9);
    let set = [
        LOAD,
        "set.gt.u32.u16 %r1, %h0, 0x1ff;",
        "cvt.u16.u32 %h1, %r1;",
        "or.b16 %h1, %h1, 0x80;",
        "cvt.s8.u8 %h0, %h1;",
    ];
    exact_case(&shr4(&set), [0x42; 4], D, 0x0ff8, 0xfff8);
}

/// The entry's other readers see the extension too: x4 and z5's `cvt.{u32,s32}.u16`
/// (`MOV R7, 0xffffff80`), a compare with 0xff90 (z5's `setp.gt.u16`: true, `ISETP` of the
/// extension; here as `set.gt.u32.u16`) and
/// `mul.hi.u16 · 0x8001` (`MOV R0, 0xffbf`, spec 0x7fc0).
#[test]
fn z5_the_entry_readers_of_the_learned_constant() {
    for cvt in ["cvt.u32.u16 %r4, %h0;", "cvt.s32.u16 %r4, %h0;"] {
        let lines = [&guarded("cvt.s8.u8 %h0, %h1;")[..], &[cvt, "st.global.u32 [%out], %r4;"]].concat();
        exact_case(&lines, [0x42; 4], D, 0xff80, 0xffff_ff80);
    }
    let set = ["set.gt.u32.u16 %r4, %h0, 0xff90;", "st.global.u32 [%out], %r4;"];
    exact_case(&[&guarded("cvt.s8.u8 %h0, %h1;")[..], &set].concat(), [0x42; 4], D, 0, 0xffff_ffff);
    let mulhi = ["mul.hi.u16 %h2, %h0, 0x8001;", "st.global.u16 [%out], %h2;"];
    exact_case(&[&guarded("cvt.s8.u8 %h0, %h1;")[..], &mulhi].concat(), [0x42; 4], D, 0x7fc0, 0xffbf);
}

/// Right on 13.0.88 -O3: x9's plain moved constant; a predicate of constants; constants folded
/// (`and`, `or`, `add`, `shr` of a moved value); identities of a load (`and 0` of an `ld.u16`,
/// `mul.lo 0`); a guarded write after the cvt; a predicate decided at run time (w4); a
/// `cvt.u64.u16` reader (`MOV R4, 0xff80` with a zero high word, z5's a8); no cvt (x2).
#[test]
fn z5_constants_ptxas_folds_plainly_or_values_it_must_compute_are_right() {
    let moved = ["mov.b16 %h1, 0x80;", "cvt.s8.u8 %h0, %h1;"];
    untouched(&shr4(&moved), [0x42; 4], D);
    let constant_guard = [
        "mov.b16 %h5, 3;",
        "setp.gt.u16 %p0, %h5, 7;",
        "mov.b16 %h1, 0x80;",
        "@%p0 mov.b16 %h1, 0;",
        "cvt.s8.u8 %h0, %h1;",
    ];
    untouched(&shr4(&constant_guard), [0x42; 4], D);
    for (mov, op) in [
        ("mov.b16 %h5, 0x180;", "and.b16 %h1, %h5, 0xff;"),
        ("mov.b16 %h5, 0x100;", "or.b16 %h1, %h5, 0x80;"),
        ("mov.b16 %h5, 0x40;", "add.u16 %h1, %h5, 0x40;"),
        ("mov.b16 %h5, 0x800;", "shr.u16 %h1, %h5, 4;"),
    ] {
        untouched(&shr4(&[mov, op, "cvt.s8.u8 %h0, %h1;"]), [0x42; 4], D);
    }
    let and_zero =
        ["ld.global.u16 %h0, [%in];", "and.b16 %h1, %h0, 0;", "or.b16 %h1, %h1, 0x80;", "cvt.s8.u8 %h0, %h1;"];
    untouched(&shr4(&and_zero), [0x42; 4], D);
    let mul_zero = [LOAD, "mul.lo.u16 %h1, %h0, 0;", "or.b16 %h1, %h1, 0x80;", "cvt.s8.u8 %h0, %h1;"];
    untouched(&shr4(&mul_zero), [0x42; 4], D);
    let after =
        [LOAD, NEVER, "mov.b16 %h1, 0x80;", "cvt.s8.u8 %h3, %h1;", "@%p0 mov.b16 %h3, 0;", "shr.u16 %h2, %h3, 4;"];
    untouched(&[&after[..], &[SHR4[1]]].concat(), [0x42; 4], D);
    let runtime =
        [LOAD, "setp.gt.u16 %p0, %h0, 7;", "mov.b16 %h1, 0x80;", "@%p0 mov.b16 %h1, 0;", "cvt.s8.u8 %h0, %h1;"];
    untouched(&shr4(&runtime), [0x02; 4], D);
    let u64 = [&guarded("cvt.s8.u8 %h0, %h1;")[..], &["cvt.u64.u16 %d0, %h0;", "st.global.u64 [%out], %d0;"]].concat();
    untouched(&u64, [0x42; 4], D);
    let no_cvt = [LOAD, NEVER, "mov.b16 %h1, 0x80;", "@%p0 mov.b16 %h1, 0;", "mov.b16 %h0, %h1;"];
    untouched(&shr4(&no_cvt), [0x42; 4], D);
}
