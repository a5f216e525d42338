//! 3702-N2 widened by seed 6103's d08c2cc6 (corpus/findings/fuzz-h200-6103/trace/T61G.md,
//! variants trace/d08c2cc6/s61/; `emulate/lop3_merged_by_its_b_or_c/folded_c_swapped_into_b.rs`):
//! `OP(y, lop3(x, x, y, L))` with y a constant ptxas folds is merged as y OP L(x, 0, y) (the
//! `lop3`'s `b` read as 0), not e6f0c29f's y OP L(0, x, y) of a register y.

use super::seed_4404_v1::{apply, lop3};
use super::*;

const D: Deviation = Deviation::Lop3MergedIntoXorReadsX;
/// y, the case's moved constant.
const Y: u32 = 0xb133_e9df;
/// x, loaded (word 0).
const X: u32 = 0x4740_cc88;

/// The stored case: `bfind.s64` of a moved 0 (x = −1), `xor(y, lop3(x, x, y, 0xca))` is 13.0.88
/// -O3 `LOP3.LUT R5, R0, 0xb133e9df, RZ, 0x60` = x & y = 0xb133e9df (the GPU's word 3 of every
/// thread), §9.7.8.6 x & ~y = 0x4ecc1620.
#[test]
fn n2_stored_d08c2cc6_lop3_of_x_x_and_a_moved_y_reads_b_as_0() {
    let (p, i) = stored_case("6103", "d08c2cc6f0e75568");
    for (t, w, spec, emulated) in words_emulated_alone(&p, &i, D) {
        if w == 3 {
            assert_eq!((spec.bits, emulated.bits), (0x4ecc_1620, 0xb133_e9df), "thread {t}");
        } else {
            assert_eq!(spec, emulated, "thread {t} word {w}");
        }
    }
}

/// x loaded, y a moved constant (`v02`, `v08_lut_*`, `v10`, `v11`, `v12`, `v18`): every table and
/// op, either order, is y OP L(x, 0, y).
#[test]
fn n2_lop3_of_x_x_and_a_moved_y_reads_b_as_0_for_every_table_and_op() {
    for lut in [0xca, 0x96, 0xe8, 0x1e, 0x65, 0x3c, 0xac, 0x5a] {
        for op in ["xor", "and", "or"] {
            let (spec, bug) = (apply(op, Y, lop3(lut, X, X, Y)), apply(op, Y, lop3(lut, X, 0, Y)));
            let lop = format!("lop3.b32 %r9, %r8, %r8, %r0, {lut:#x};");
            for outer in [format!("{op}.b32 %r3, %r0, %r9;"), format!("{op}.b32 %r3, %r9, %r0;")] {
                let body = [
                    "ld.global.u32 %r8, [%in];",
                    "mov.b32 %r0, 0xb133e9df;",
                    &lop,
                    &outer,
                    "st.global.b32 [%out], %r3;",
                ];
                if spec == bug {
                    untouched(&body, [X, 0, 0, 0], D);
                } else {
                    exact_case(&body, [X, 0, 0, 0], D, u64::from(spec), u64::from(bug));
                }
            }
        }
    }
}

/// Right on 13.0.88 -O3 (two LOP3s): x a moved −1 (`v03`) or `bfind.u32` of a moved 0 (`v04`),
/// folded before the merge; y another constant than the `lop3`'s c (`v14`). A 64-bit `bfind` of a
/// constant is folded after it (`v06`: x = 8, merged).
#[test]
fn n2_lop3_of_a_folded_x_is_left_alone_but_a_64_bit_bfind_is_merged() {
    let tail = ["lop3.b32 %r9, %r8, %r8, %r0, 0xca;", "xor.b32 %r3, %r0, %r9;", "st.global.b32 [%out], %r3;"];
    let with = |x: [&'static str; 2]| [x[0], x[1], "mov.b32 %r0, 0xb133e9df;", tail[0], tail[1], tail[2]];
    untouched(&with(["mov.b32 %r7, 5;", "mov.b32 %r8, -1;"]), [0; 4], D);
    untouched(&with(["mov.b32 %r1, 0;", "bfind.u32 %r8, %r1;"]), [0; 4], D);
    let bfind64 = ["mov.b64 %d0, 256;", "mov.b32 %r0, 0xb133e9df;", "bfind.s64 %r8, %d0;", tail[0], tail[1], tail[2]];
    exact_case(&bfind64, [0; 4], D, u64::from(8 & !Y), u64::from(8 & Y));
    let other_y = [
        "ld.global.u32 %r8, [%in];",
        "mov.b32 %r0, 0xb133e9df;",
        "mov.b32 %r1, 0x1234;",
        "lop3.b32 %r9, %r8, %r8, %r0, 0xca;",
        "xor.b32 %r3, %r1, %r9;",
        "st.global.b32 [%out], %r3;",
    ];
    untouched(&other_y, [X, 0, 0, 0], D);
}

/// Right on 13.0.88 -O3: x a constant and y loaded, the repeated x read twice (`v21`: `and(y,
/// lop3(5, 5, y, 0x3c))` is `LOP3.LUT R7, y, 0x5, R9, 0x60` = 0, the spec's; `v20` a moved −1,
/// `v22` a 64-bit `bfind` of a constant) — e6f0c29f's a-read-as-0 binding wants x no constant.
#[test]
fn n2_lop3_of_a_constant_x_and_a_loaded_y_is_left_alone() {
    for (head, lut, op) in [
        (["mov.b32 %r8, 5;", "mov.b32 %r7, 5;"], 0x3c, "and"),
        (["mov.b32 %r8, -1;", "mov.b32 %r7, 5;"], 0xca, "xor"),
        (["mov.b64 %d0, 256;", "bfind.s64 %r8, %d0;"], 0x3c, "and"),
    ] {
        let lop = format!("lop3.b32 %r9, %r8, %r8, %r0, {lut:#x};");
        let outer = format!("{op}.b32 %r3, %r0, %r9;");
        let body = ["ld.global.u32 %r0, [%in];", head[0], head[1], &lop, &outer, "st.global.b32 [%out], %r3;"];
        untouched(&body, [Y, 0, 0, 0], D);
    }
}
