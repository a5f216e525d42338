//! Tests of 3702-N5 at a sub-word load ptxas forwards from a store of the `prmt`'s low bytes
//! (session 51: seed 5102's 0081239e, corpus/findings/fuzz-h200-5102/trace/T22b.md, variants in
//! trace/0081239e/s51/; `emulate/prmt_narrowed_at_a_store_forwarded_load.rs`), and seed 5101's
//! 91d52a5c (corpus/findings/fuzz-h200-5101/trace/T22a.md, variants in trace/91d52a5c/s51/; the
//! forward by `emulate/store_forwarded_load.rs`).

use super::*;

const D: Deviation = Deviation::PrmtSignOfANarrowedReadsZero;

/// 0081239e's input word: `prmt … 0x195b` gives byte 0 = the sign of a's byte 3 (0xe8: 0xff),
/// byte 1 = b's byte 1 (0x9b).
const A: [u32; 4] = [0xe891_9b6e, 0, 0, 0];

/// The loaded word by `selector`, then `tail` (a store to `[%sh+18]`, a load, its value stored
/// at `[%out]`).
fn prmt_then(selector: &str, tail: &[&str]) -> Vec<String> {
    let mut lines = vec!["ld.global.b32 %r3, [%in];".to_string(), format!("prmt.b32 %r5, %r3, %r3, {selector};")];
    lines.extend(tail.iter().map(|l| l.to_string()));
    lines
}

/// [`exact_case`] with 8 shared words per thread (programs load from `%in` and `%sh` only, so
/// the round trip is through shared memory, as in the case).
fn shared_case(lines: &[String], spec: u64, bug: u64) {
    shared_case_on(A, lines, spec, bug);
}

/// [`shared_case`] on the input words `words`.
fn shared_case_on(words: [u32; 4], lines: &[String], spec: u64, bug: u64) {
    let (s, e, fired) = shared_both(words, lines, D);
    assert_eq!((s.bits as u64, s.is_exact()), (spec, true), "spec of {lines:?}");
    assert_eq!((e.bits as u64, e.is_exact()), (bug, true), "{D:?} of {lines:?}");
    assert_eq!(fired, vec![D]);
    for other in Deviation::ALL.into_iter().filter(|&o| o != D) {
        let (_, e, fired) = shared_both(words, lines, other);
        assert_eq!((e.bits as u64, fired.as_slice()), (spec, &[][..]), "{other:?} of {lines:?}");
    }
}

/// [`untouched`] with 8 shared words per thread.
fn shared_untouched(lines: &[String]) {
    shared_untouched_on(A, lines);
}

/// [`shared_untouched`] on the input words `words`.
fn shared_untouched_on(words: [u32; 4], lines: &[String]) {
    let (s, e, fired) = shared_both(words, lines, D);
    assert_eq!((e, fired), (s, Vec::new()), "{D:?} of {lines:?}");
}

/// [`both`] with 8 shared words per thread, on the input words `words`.
fn shared_both(words: [u32; 4], lines: &[String], d: Deviation) -> (Expected, Expected, Vec<Deviation>) {
    let p = Program { shared: 8, ..program(&strs(lines)) };
    let i = Inputs(words.to_vec());
    let spec = run(&p, &i, &Allowances::all()).unwrap().remove(0);
    let (mut out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    (spec, out.remove(0), fired)
}

/// Wrong (13.0.88 -O3 `PRMT Rd, RZ, 0xb, R2`: 0 where the spec loads 0xff): the round trip
/// through shared memory (`v1`; global memory, `v5`, is the same listing, but programs never
/// load from `%out`), 16 bits into 32 (`v3`: `PRMT R7, RZ, 0x5b, R2`, 0x9b00 for
/// 0x9bff), the word itself stored by `st.b8` and loaded by `ld.u8` (`v4`), the low half of an
/// unpack read after the load by `add.u16` (`v8`: 1 for 0x100). The stored byte keeps the whole
/// `PRMT` (word 1, stored from the register).
#[test]
fn n5_3702_a_forwarded_unsigned_load_reads_the_narrowed_bytes() {
    let trip = ["cvt.u16.u32 %h2, %r5;", "st.shared.b8 [%sh+18], %h2;", "ld.shared.b8 %h3, [%sh+18];"];
    let v1 =
        prmt_then("0x195b", &[trip[0], trip[1], trip[2], "st.global.u16 [%out], %h3;", "st.global.b8 [%out+4], %h2;"]);
    shared_case(&v1, 0xff_0000_00ff, 0xff_0000_0000);
    let v3 = prmt_then(
        "0x195b",
        &[
            "cvt.u16.u32 %h2, %r5;",
            "st.shared.b16 [%sh+18], %h2;",
            "ld.shared.u16 %r6, [%sh+18];",
            "st.global.u32 [%out], %r6;",
            "st.global.b16 [%out+4], %h2;",
        ],
    );
    shared_case(&v3, 0x9bff_0000_9bff, 0x9bff_0000_9b00);
    let v4 = prmt_then(
        "0x195b",
        &[
            "st.shared.b8 [%sh+18], %r5;",
            "ld.shared.u8 %r6, [%sh+18];",
            "st.global.u32 [%out], %r6;",
            "st.global.b8 [%out+4], %r5;",
        ],
    );
    shared_case(&v4, 0xff_0000_00ff, 0xff_0000_0000);
    let v8 = prmt_then(
        "0x195b",
        &[
            "mov.b32 {%h2, %h4}, %r5;",
            "st.shared.b8 [%sh+18], %h2;",
            "ld.shared.u8 %h3, [%sh+18];",
            "add.u16 %h5, %h3, 1;",
            "st.global.u16 [%out], %h5;",
            "st.global.b8 [%out+4], %h2;",
        ],
    );
    shared_case(&v8, 0xff_0000_0100, 0xff_0000_0001);
}

/// Right: a signed load (`v2`, `LDS.S8`), an index nibble in byte 0 (`v6`, selector 0x1953), a
/// load from another address (`v7`), the store alone (`v9`).
#[test]
fn n5_3702_leaves_signed_other_address_and_index_loads_alone() {
    let with = |selector: &str, load: &str| {
        prmt_then(
            selector,
            &[
                "cvt.u16.u32 %h2, %r5;",
                "st.shared.b8 [%sh+18], %h2;",
                load,
                "st.global.u16 [%out], %h3;",
                "st.global.b8 [%out+4], %h2;",
            ],
        )
    };
    shared_untouched(&with("0x195b", "ld.shared.s8 %h3, [%sh+18];"));
    shared_untouched(&with("0x1953", "ld.shared.b8 %h3, [%sh+18];"));
    shared_untouched(&with("0x195b", "ld.shared.b8 %h3, [%sh+20];"));
    let alone =
        prmt_then("0x195b", &["cvt.u16.u32 %h2, %r5;", "st.shared.b8 [%sh+18], %h2;", "st.global.u16 [%out], %h2;"]);
    shared_untouched(&alone);
}

/// 0081239e's campaign case (`st.shared.b8; ld.shared.b8`): word 1 is 0 (the spec's
/// 0x0000ff00) in every thread, word 0 the spec's.
#[test]
fn n5_3702_0081239e_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5102", "0081239e66bf1f7e");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 1 {
            assert_eq!((s.bits, e.bits), (0xff00, 0), "thread {t} word {w}");
        } else {
            assert_eq!(e, s, "thread {t} word {w}");
        }
    }
}

/// 91d52a5c's input word x = 0x2e9bd2de: `prmt.b32 r1, x, x, 0x988d` is 0xffffffff (every
/// nibble names a sign, §9.7.9.7); narrowed to 2 bytes with a = RZ, `PRMT R9, RZ, 0x8d, R2`:
/// 0x00ff.
const X: [u32; 4] = [0x2e9b_d2de, 0, 0, 0];

/// 91d52a5c's `prmt` and `cvt.u16.u32 h7`, then `tail`.
fn h7_then(tail: &[&str]) -> Vec<String> {
    let head =
        ["ld.global.b32 %r0, [%in];", "mov.b32 %r1, %r0;", "prmt.b32 %r1, %r1, %r1, 0x988d;", "cvt.u16.u32 %h7, %r1;"];
    head.iter().chain(tail).map(|l| l.to_string()).collect()
}

/// Wrong (13.0.88 -O3 `PRMT R9, RZ, 0x8d, R2`, 0x00ff for 0xffff): 91d52a5c's 16-bit round trip
/// with the store `.shared::cta` and the load `.shared` (one space, §9.7.9.8), `ld.shared.u16`
/// into 32 bits (`v3`); a global round trip (`v4`) is the same listing, but programs never
/// load from `%out` nor store to `%in`.
#[test]
fn n5_3702_91d52a5c_a_forwarded_16_bit_load_reads_the_narrowed_half() {
    let orig = h7_then(&[
        "st.shared::cta.b16 [%sh+10], %h7;",
        "ld.shared.b16 %h8, [%sh+10];",
        "st.global.u16 [%out+6], %h8;",
        "st.global.u16 [%out+4], %h7;",
    ]);
    shared_case_on(X, &orig, 0xffff_ffff_0000_0000, 0x00ff_ffff_0000_0000);
    let v3 =
        h7_then(&["st.shared::cta.b16 [%sh+10], %h7;", "ld.shared.u16 %r2, [%sh+10];", "st.global.u32 [%out+4], %r2;"]);
    shared_case_on(X, &v3, 0x0000_ffff_0000_0000, 0x0000_00ff_0000_0000);
}

/// Right: `ld.shared.s16` (`v2`, `LDS.S16`), an index nibble (`v5`, selector 0x9815), the half
/// stored directly (`v1`); and no forward (the shared rule, `emulate/store_forwarded_load.rs`)
/// past a `bar.sync`, another store, a branch's label or a rewrite of the stored register, nor
/// into a byte of the stored half or a load of 4 bytes over it.
#[test]
fn n5_3702_91d52a5c_loads_not_forwarded_are_left_alone() {
    let trip = |between: &[&str], load: &str| {
        let mut tail = vec!["st.shared::cta.b16 [%sh+10], %h7;"];
        tail.extend(between);
        tail.extend([load, "st.global.u16 [%out+6], %h8;"]);
        h7_then(&tail)
    };
    let ld = "ld.shared.b16 %h8, [%sh+10];";
    shared_untouched_on(X, &trip(&[], "ld.shared.s16 %h8, [%sh+10];"));
    shared_untouched_on(X, &trip(&["bar.sync 0;"], ld));
    shared_untouched_on(X, &trip(&["st.shared.b16 [%sh+12], %h7;"], ld));
    shared_untouched_on(X, &trip(&["$L0:"], ld));
    shared_untouched_on(X, &trip(&["mov.b16 %h7, 0;"], ld));
    shared_untouched_on(X, &trip(&[], "ld.shared.u8 %h8, [%sh+10];"));
    shared_untouched_on(X, &trip(&[], "ld.shared.b16 %h8, [%sh+12];"));
    let index = ["ld.global.b32 %r0, [%in];", "prmt.b32 %r1, %r0, %r0, 0x9815;", "cvt.u16.u32 %h7, %r1;"];
    let mut v5: Vec<String> = index.iter().map(|l| l.to_string()).collect();
    v5.extend(["st.shared::cta.b16 [%sh+10], %h7;", ld, "st.global.u16 [%out+6], %h8;"].map(String::from));
    shared_untouched_on(X, &v5);
    shared_untouched_on(X, &h7_then(&["st.global.u16 [%out+6], %h7;"]));
}

/// 91d52a5c's campaign case: word 1 is 0x00ff0000 (the spec's 0xffff0000) in every thread,
/// word 0 the spec's.
#[test]
fn n5_3702_91d52a5c_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5101", "91d52a5c10958ebd");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        if w == 1 {
            assert_eq!((s.bits, e.bits), (0xffff_0000, 0x00ff_0000), "thread {t} word {w}");
        } else {
            assert_eq!(e, s, "thread {t} word {w}");
        }
    }
}
