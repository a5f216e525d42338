//! Tests of 7a05c905's emulation (`emulate/prmt_byte_narrowed_past_a_guarded_write_of_its_source.rs`):
//! `cvt.u16.s32` of a `prmt.b32` byte and a later `cvt.<int>.u8` of it, a guarded in-place write of
//! the byte's source x between, give the byte of x's new value (seed 5403's 7a05c905,
//! trace/T54S.md, trace/7a05c905/s54/ and s55/ with their 13.0.88 and 13.5 -O3 listings).

use super::*;

const D: Deviation = Deviation::PrmtByteNarrowedPastAGuardedWriteOfItsSource;

/// The variant `name` (`orig`, `s54/NAME`, `s55/NAME`) of 7a05c905 on the stored case's inputs,
/// patched ([`variant_of`]).
fn variant(name: &str, patch: &[(usize, u32)]) -> (Program, Inputs) {
    variant_of("5403", "7a05c905", name, patch)
}

/// How a variant stores the narrowed byte: word 0 = r0 (x after the write) + the byte, `twice`
/// as `{h3, h3}` (else once, a 32-bit cvt), the byte the spec's `spec_byte`; the GPU's is byte
/// `k` of r0 (x's present value), or its sign replicated (`sign`).
struct Stored {
    spec_byte: u64,
    k: u32,
    sign: bool,
    twice: bool,
}

impl Stored {
    /// The word the listing stores where the spec stores `s`.
    fn gpu(&self, s: u64) -> u64 {
        let times = if self.twice { 0x1_0001 } else { 1 };
        let r0 = s.wrapping_sub(self.spec_byte * times) & 0xFFFF_FFFF;
        let byte = (r0 >> (8 * self.k)) & 0xFF;
        let byte = if self.sign { 0xFF * (byte >> 7) } else { byte };
        (r0 + byte * times) & 0xFFFF_FFFF
    }
}

/// The case's byte: byte 3 of x = 0x432ecc15, stored twice.
const BYTE3: Stored = Stored { spec_byte: 0x43, k: 3, sign: false, twice: true };

/// Checks that emulating [`D`] alone fires on `(p, i)`, word 0 becomes `s.gpu` of the spec's and
/// every other word stays.
fn wrong(what: &str, (p, i): (Program, Inputs), s: &Stored) {
    let mut changed = 0;
    for (t, w, spec, e) in super::words_emulated_alone(&p, &i, D) {
        let spec = spec.bits as u64;
        let want = if w == 0 { s.gpu(spec) } else { spec };
        assert_eq!(e.bits as u64, want, "{what}: thread {t} word {w} (spec {spec:#x})");
        changed += usize::from(want != spec);
    }
    assert!(changed > 0, "{what}: no word differs from the spec");
}

/// Checks that emulating [`D`] on `(p, i)` leaves every word as the spec gives it, firing nothing.
fn right(what: &str, (p, i): (Program, Inputs)) {
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    assert_eq!((out, fired), (spec, Vec::new()), "{what}");
}

/// The stored case: every thread writes x (0x6a74fc6a > x); the spec's word 0 is 0x00432e43, the
/// GPU's 0x00002e00 (byte 3 of the new x, 0x00002e00, is 0).
#[test]
fn prmt_byte_7a05c905_the_stored_case_is_reproduced() {
    let (p, i) = super::stored_case("5403", "7a05c9050ed6a314");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 0 { (0x0043_2e43, 0x0000_2e00) } else { (0, 0) };
        assert_eq!((s.bits as u64, e.bits as u64), want, "thread {t} word {w}");
    }
}

/// x (word 53) whose `add.u32 1` carries into byte 3 (u2), and one the guard `0x6a74fc6a > x`
/// rejects (x6's `@!p`).
const X_CARRIES: (usize, u32) = (53, 0x43ff_ffff);
const X_ABOVE: (usize, u32) = (53, 0x7000_0000);

/// Wrong (13.0.88 -O3: `@!P0 <write> R0; PRMT R6, RZ, 0x7, R0`): the case's program, s54 u2 (`@p
/// add.u32 x, x, 1`: 0x44 read for 0x43); s55 x1 (`cvt.u16.u8`), x2 (`cvt.u32.u8`), x11
/// (`cvt.s32.u8`), x4 (`cvt.u16.u32` first), x12 (`cvt.s16.s32`), x5 (the byte from a), x10
/// (byte 1), x14 (byte 3's sign), x6 (`@!p`), x7 (an immediate selector), x13 (two guarded writes).
#[test]
fn prmt_byte_7a05c905_wrong_variants_read_the_new_byte() {
    for name in [
        "orig",
        "s55/x1_second_cvt_u16_u8",
        "s55/x4_first_cvt_u16_u32",
        "s55/x12_first_cvt_s16_s32",
        "s55/x5_byte_from_a",
        "s55/x7_selector_immediate",
        "s55/x13_guarded_write_two",
    ] {
        wrong(name, variant(name, &[]), &BYTE3);
    }
    wrong("u2", variant("s54/u2_guarded_add", &[X_CARRIES]), &BYTE3);
    let once = Stored { twice: false, ..BYTE3 };
    wrong("x2", variant("s55/x2_second_cvt_u32_u8", &[]), &once);
    wrong("x11", variant("s55/x11_second_cvt_s32_u8", &[]), &once);
    wrong("x10", variant("s55/x10_byte1", &[]), &Stored { spec_byte: 0xcc, k: 1, ..BYTE3 });
    // x14 (x8's sign of byte 3, the write `@p xor.b32 x, x, 0x80000000`): 0 by the spec, 0xff
    // read from the new x. (x8's own write, the case's prmt, makes byte 3 the sign of x's byte 3,
    // positive wherever the guard holds: no word differs.)
    let x14 = Stored { spec_byte: 0, sign: true, ..BYTE3 };
    wrong("x14", variant("s55/x14_sign_replicate_guarded_xor", &[]), &x14);
    wrong("x6", variant("s55/x6_guard_negated", &[X_ABOVE]), &Stored { spec_byte: 0x70, ..BYTE3 });
}

/// Right (13.0.88 and 13.5 -O3 extract the byte before the write): s54 u1 (unguarded), u5 (a
/// branch arm), u6, u8, u9 (one narrowing before), u4, u7 (no prmt), u10 (r1 whole), u3 (another
/// PTX register: out of scope); s55 x3 (`cvt.s16.s8`), x9 (a guarded `ld`); x6 with its guard
/// false (nothing written).
#[test]
fn prmt_byte_7a05c905_right_variants_are_untouched() {
    for name in [
        "s54/u1_unguarded",
        "s54/u5_branch_arm",
        "s54/u6_h0_stored_direct",
        "s54/u8_prmt_then_cvt_u8_u32",
        "s54/u9_and_ff_of_prmt",
        "s54/u4_shr_byte",
        "s54/u7_cvt_u16_of_x",
        "s54/u10_prmt_read_directly",
        "s54/u3_guarded_other_register",
        "s55/x3_second_cvt_s16_s8",
        "s55/x9_guarded_load",
        "s55/x6_guard_negated",
    ] {
        right(name, variant(name, &[X_CARRIES]));
    }
}
