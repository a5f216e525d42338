//! Tests of 3701-C3-2 with a factor made by 64-bit `and`/`or`/`xor` glue (seed 4603's ad3d4a1a,
//! session 46; corpus/findings/fuzz-h200-4603/trace/T17t4.md, variants in trace/ad3d4a1a/ and
//! its s46/; `emulate/product_factor_folded_after_the_product.rs`).

use super::*;

/// `d0` made by `factor` (after `mov.s64 d0, 0xf41bb6fa519b52f9`), `mul` into %d1, `shl.b64` by
/// 0x3ffff (clamped: 0, §9.7.8.7), the top half stored.
fn shifted_product(factor: &'static str, mul: &'static str) -> [&'static str; 6] {
    [
        "mov.s64 %d0, -856890117856734471;",
        factor,
        mul,
        "shl.b64 %d1, %d1, 0x3ffff;",
        "mov.b64 {%h5, %h6, %h7, %h8}, %d1;",
        "st.global.s16 [%out], %h8;",
    ]
}

/// ad3d4a1a (the case's body; 13.0.88 -O3 `SHF.L.U32 R0, R0, 0x4; PRMT R0, R0, 0x7632`): the
/// spec's 0, the GPU's bits 63:48 of d0 × 2^36 = 0x19b5; the same for `and.b64`/`or.b64`
/// (`s46/v8`, `s46/v9`) and a moved 2^36 (`s46/v15`). (The immediate first, `s46/v17`, is the
/// same listing; the oracle's glue takes no immediate first operand.)
#[test]
fn c3_2_3701_a_factor_made_by_64_bit_logic_is_dropped_like_a_register() {
    let d = Deviation::ShlB64OfProductByConstantDropped;
    let by_imm = "mul.lo.s64 %d1, %d0, 68719476736;";
    exact_case(&shifted_product("xor.b64 %d0, %d0, 0x3;", by_imm), [0; 4], d, 0, 0x19b5);
    exact_case(&shifted_product("and.b64 %d0, %d0, -2;", by_imm), [0; 4], d, 0, 0x19b5);
    exact_case(&shifted_product("or.b64 %d0, %d0, 0x2;", by_imm), [0; 4], d, 0, 0x19b5);
    let mut moved = shifted_product("xor.b64 %d0, %d0, 0x3;", "mul.lo.s64 %d1, %d0, %d2;").to_vec();
    moved.insert(2, "mov.s64 %d2, 68719476736;");
    exact_case(&moved, [0; 4], d, 0, 0x19b5);
}

/// Right (`STG.E.S16 …, RZ`): two xor-made factors (`s46/v12`), an xor-made factor beside a
/// loaded one (`s46/v16`: not a product by a constant), and factors ptxas folds before the
/// product: a plain move (`v1_mov_const_factor`), `add.s64` (`v5_add_folded_factor`),
/// `sub.s64` (`s46/v13`), `not.b64` (`s46/v10`), a widened `xor.b32` (`s46/v14`).
#[test]
fn c3_2_3701_a_product_folded_whole_or_by_no_constant_is_left_alone() {
    let d = Deviation::ShlB64OfProductByConstantDropped;
    let xor = "xor.b64 %d0, %d0, 0x3;";
    let by_d2 = "mul.lo.s64 %d1, %d0, %d2;";
    let mut two = shifted_product(xor, by_d2).to_vec();
    two.splice(2..2, ["mov.s64 %d2, 68719476739;", "xor.b64 %d2, %d2, 0x3;"]);
    untouched(&two, [0; 4], d);
    let mut loaded = shifted_product(xor, by_d2).to_vec();
    loaded.insert(2, "ld.global.s64 %d2, [%in];");
    untouched(&loaded, [1, 0, 0, 0], d);
    let by_imm = "mul.lo.s64 %d1, %d0, 68719476736;";
    for factor in
        ["mov.s64 %d0, -856890117856734470;", "add.s64 %d0, %d0, 3;", "sub.s64 %d0, %d0, -1;", "not.b64 %d0, %d0;"]
    {
        untouched(&shifted_product(factor, by_imm), [0; 4], d);
    }
    let mut widened = shifted_product("xor.b32 %r0, %r0, 3;", by_imm).to_vec();
    widened.splice(0..1, ["mov.b32 %r0, 1369133817;"]);
    widened.insert(2, "cvt.u64.u32 %d0, %r0;");
    untouched(&widened, [0; 4], d);
}

/// ad3d4a1a's campaign case (32 threads, all inputs 0): emulating C3-2 alone gives the stored
/// -O3/JIT word 0 (0x000019b5) in every thread and the spec's other words.
#[test]
fn c3_2_3701_ad3d4a1a_the_campaign_case_gives_the_stored_o3_words() {
    let d = Deviation::ShlB64OfProductByConstantDropped;
    let (p, i) = super::stored_case("4603", "ad3d4a1acf3893e3");
    for (t, w, s, e) in super::words_emulated_alone(&p, &i, d) {
        assert_eq!(e.bits, if w == 0 { 0x19b5 } else { s.bits }, "thread {t} word {w}");
    }
}
