//! Tests of 3702-N2's `OP(y, lop3(y, x, x))` form (`lop3_of_its_a_with_b_repeating_c.rs`) with the
//! `lop3` reaching the 32-bit operation through a `mov.b64` pack and unpack or `mov` copies (seed
//! 5701's 6667a80e, corpus/findings/fuzz-h200-5702/trace/T57C.md, fuzz-h200-5701/
//! trace/6667a80e/s57/ with 13.0.88 and 13.5 -O3 listings).

use super::*;

use super::seed_4404_v1::{apply, lop3};

const D: Deviation = Deviation::Lop3MergedIntoXorReadsX;
/// The moved a (`mov.b32 r0, 3846450101`) and the stored case's loaded x (input word 32).
const K: u32 = 0xe544_2bb5;
const X: u32 = 0xce5b_19a3;
/// A loaded y (`v5`, input word 33) and a third input (`v6`, word 34).
const Y: u32 = 0x5098_6993;
const Z: u32 = 0x0f3c_5a66;

/// The variant `name` of 6667a80e on the stored case's inputs, words 33 and 34 set to [`Y`], [`Z`].
fn variant(name: &str) -> (Program, Inputs) {
    super::variant_of("5701", "6667a80e", name, &[(33, Y), (34, Z)])
}

/// Word 0 of every thread of `(p, i)`: `(spec, emulated)`, and the deviations that fired.
fn word0((p, i): &(Program, Inputs)) -> (Vec<(u64, u64)>, Vec<Deviation>) {
    let spec = run(p, i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(p, i, &Allowances::all().emulating(D)).unwrap();
    let words = spec.iter().zip(&out).map(|(s, e)| (s.field(0, 32).bits as u64, e.field(0, 32).bits as u64));
    (words.collect(), fired)
}

/// The stored case: `mov.b64 d0, {K, l}; mov.b64 {r7, r8}, d0; xor.b32 r9, r7, r8` with `l =
/// lop3(K, x, x, 0xeb)` is 13.0.88's `LOP3.LUT R7, x, K, RZ, 0x27` = K ^ L(K, x, 0) = 0x31a4e65c
/// (the GPU's word), where §9.7.8.6 gives K ^ L(K, x, x) = 0x3bbff65e.
#[test]
fn n2_6667a80e_the_stored_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("5701", "6667a80eb84bb644");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, D) {
        let want = if w == 0 { (0x3bbf_f65e, 0x31a4_e65c) } else { (s.bits, s.bits) };
        assert_eq!((s.bits, e.bits), want, "thread {t} word {w}");
    }
}

/// Wrong alike (13.0.88 -O3, one merged LOP3): l through the pack with y the register (`v2`),
/// swapped operands (`v3`), l the low word (`v4`), a loaded a (`v5`: `LOP3 y, RZ, x, 0x1d`), the pack
/// stored too (`v7`), `and` (`v8`: 0xc8, merged, the spec's word by chance), `mov.b32` copies (`v10`);
/// `v1` (no pack) was the form before.
#[test]
fn n2_6667a80e_a_lop3_through_a_pack_or_copies_reads_c_as_0() {
    let cases = [
        ("v1_no_pack", "xor", K),
        ("v2_y_direct", "xor", K),
        ("v3_swapped", "xor", K),
        ("v4_l_low_half", "xor", K),
        ("v5_loaded_y", "xor", Y),
        ("v7_pack_stored_too", "xor", K),
        ("v8_and", "and", K),
        ("v10_copy_not_pack", "xor", K),
    ];
    for (name, op, y) in cases {
        let (words, fired) = word0(&variant(&format!("s57/{name}")));
        let (spec, bug) = (apply(op, y, lop3(0xeb, y, X, X)), apply(op, y, lop3(0xeb, y, X, 0)));
        // `v8`'s K & L(K, x, 0) is the spec's word for 0xeb (a set: b = c = x and c = 0 agree).
        assert_eq!(fired, if spec == bug { vec![] } else { vec![D] }, "{name}");
        assert_eq!(spec == bug, name == "v8_and", "{name}");
        for w in words {
            assert_eq!(w, (u64::from(spec), u64::from(bug)), "{name}");
        }
    }
}

/// Right: three distinct inputs (`v6`: a right merge), y a constant other than a (`v9`).
#[test]
fn n2_6667a80e_leaves_three_inputs_and_another_constant_alone() {
    for name in ["v6_no_repeat", "v9_other_constant_y"] {
        let (p, i) = variant(&format!("s57/{name}"));
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
        assert_eq!((out, fired), (spec, Vec::new()), "{name}");
    }
}
