//! Tests of [`super`] (`sass/dataflow.rs`) from the seed-3702 H200 campaign's findings
//! (corpus/findings/fuzz-h200-3702/trace/TU3.md): bits known to be zero ([`super::zeros`]), a
//! `LOP3.LUT` whose first destination is a predicate (two false alarms), and the origin of
//! undefined bits by byte ([`super::origins`]; a real read named by the wrong origin).

use super::tests::flagged;
use super::*;
use crate::sass::parse::parse_listing;

/// Finding e556a38c (ptxas 13.0.88 -O3, reduced): `LDG.E.U8` zero-extends (§9.7.9.8 ld), so
/// `R7 & R8` is zero above bit 7 whatever R7's never-written upper half holds, and the
/// comparison of all 32 bits reads defined bits only. A sign-extending load, a mask of bits the
/// load does not clear, or a load on some lanes only leaves R7's upper half visible: flagged.
#[test]
fn a_mask_by_a_zero_extended_load_hides_the_undefined_bits_it_clears() {
    let head = "/*0000*/ LDC.64 R2, c[0x0][0x210] ;\n/*0010*/ ULDC.64 UR4, c[0x0][0x208] ;\n\
        /*0020*/ S2R R6, SR_TID.X ;\n";
    let body = "/*0040*/ PRMT R7, R6, 0x7610, R7 ;\n/*0050*/ LOP3.LUT R9, R7, R8, RZ, 0xc0, !PT ;\n\
        /*0060*/ ISETP.NE.U32.AND P0, PT, R9, R8, PT ;\n/*0070*/ SEL R7, RZ, 0x7d11e125, !P0 ;\n\
        /*0080*/ STG.E desc[UR4][R2.64], R7 ;\n/*0090*/ EXIT ;\n";
    let with_load = |load: &str| flagged(&format!("{head}/*0030*/ {load} ;\n{body}"));
    let none = Vec::<String>::new();
    assert_eq!(with_load("LDG.E.EL.U8 R8, desc[UR4][R2.64+0x1b]"), none, "bits 8..31 of R8 are zero");
    assert_eq!(with_load("LDG.E.U16 R8, desc[UR4][R2.64+0x1a]"), none, "bits 16..31 of R8 are zero");
    assert_eq!(with_load("LDG.E.S8 R8, desc[UR4][R2.64+0x1b]"), ["0060: R9"], "sign-extended: maybe ones");
    assert_eq!(with_load("LDG.E R8, desc[UR4][R2.64+0x18]"), ["0060: R9"]);
    // The zeros go through a copy, a byte move and a shift, but not through an add.
    let through = |tail: &str| flagged(&format!("{head}/*0030*/ LDG.E.U8 R5, desc[UR4][R2.64+0x1b] ;\n{tail}{body}"));
    assert_eq!(through("/*0034*/ MOV R8, R5 ;\n"), none);
    assert_eq!(through("/*0034*/ PRMT R8, R5, 0x3210, RZ ;\n"), none);
    assert_eq!(through("/*0034*/ SHF.L.U32 R8, R5, 0x4, RZ ;\n"), none, "bits 12..31 zero, 0..3 too");
    assert_eq!(through("/*0034*/ SHF.L.U32 R8, R5, 0x9, RZ ;\n"), ["0060: R9"], "bits 16 and 17 from R5");
    assert_eq!(through("/*0034*/ IADD3 R8, R5, 0x1, RZ ;\n"), ["0060: R9"], "an add may carry out");
    // Loaded on the lanes of P1 only, over a register never written before: flagged.
    let guarded = format!(
        "{head}/*0028*/ ISETP.NE.AND P1, PT, R6, RZ, PT ;\n/*0030*/ @P1 LDG.E.U8 R8, desc[UR4][R2.64+0x1b] ;\n{body}"
    );
    assert_eq!(flagged(&guarded), ["0060: R9 R8"], "the mask carries R8's undefined bits, the comparison reads them");
    // Zero on every path where two paths join; on one path only: flagged.
    let join = |other: &str| {
        flagged(&format!(
            "{head}/*0028*/ ISETP.NE.AND P1, PT, R6, RZ, PT ;\n/*0030*/ LDG.E.U8 R8, desc[UR4][R2.64+0x1b] ;\n\
             /*0034*/ @P1 BRA `(.L_x_1) ;\n/*0038*/ {other} ;\n.L_x_1:\n{body}"
        ))
    };
    assert_eq!(join("LDG.E.U16 R8, desc[UR4][R2.64+0x1a]"), none);
    assert_eq!(join("LDG.E.S16 R8, desc[UR4][R2.64+0x1a]"), ["0060: R9"]);
}

/// Finding fa14810e (ptxas 13.0.88 -O3, reduced): `LOP3.LUT P0, R12, R0, 0xffff, RZ, 0xc0, !PT`
/// writes R12 = R0 & 0xffff and P0 = R12 ≠ 0; R0's upper half is never written (`PRMT R0, R3,
/// 0x7632, R0`) and the mask clears it, so R12 and P0 are defined. A mask that keeps a bit of
/// the upper half leaves both undefined, flagged where they are read.
#[test]
fn a_lookup_table_with_a_predicate_output_carries_definedness() {
    let sass = |mask: &str| {
        flagged(&format!(
            "/*0000*/ LDC.64 R10, c[0x0][0x210] ;\n/*0010*/ ULDC.64 UR4, c[0x0][0x208] ;\n\
             /*0020*/ LDG.E.64 R2, desc[UR4][R10.64] ;\n/*0030*/ PRMT R0, R3, 0x7632, R0 ;\n\
             /*0040*/ LOP3.LUT P0, R12, R0, {mask}, RZ, 0xc0, !PT ;\n/*0050*/ @P0 STG.E desc[UR4][R10.64], R12 ;\n\
             /*0060*/ EXIT ;\n"
        ))
    };
    assert_eq!(sass("0xffff"), Vec::<String>::new());
    assert_eq!(sass("0x1ffff"), ["0050: P0 R12"]);
    // With `PT` as the predicate output, or `RZ` as the register one.
    let pt = |dest: &str| {
        flagged(&format!(
            "/*0000*/ S2R R3, SR_TID.X ;\n/*0010*/ PRMT R0, R3, 0x7632, R0 ;\n\
             /*0020*/ LOP3.LUT {dest}, R0, 0xff, RZ, 0xc0, !PT ;\n/*0030*/ @P1 STS [RZ], R3 ;\n\
             /*0040*/ STS [RZ], R12 ;\n"
        ))
    };
    assert_eq!(pt("PT, R12"), ["0030: P1"]);
    assert_eq!(pt("P1, RZ"), ["0040: R12"]);
}

/// Finding ec9c1ddc (ptxas 13.0.88 -O3, root cause N-6, reduced): R9's upper bytes are undefined
/// from the PRMT at 0x0010 (R36 never written), its byte 1 from the UPRMT's never-written UR17;
/// the store reads R9's bytes 0-1 only (through `PRMT R13, R9, 0x5410, R3`), so the origin is
/// the UPRMT. Kept per register, the origin was the earlier PRMT.
#[test]
fn the_origin_of_undefined_bits_is_that_of_the_bytes_read() {
    let sass = "/*0000*/ S2R R3, SR_TID.X ;\n/*0010*/ PRMT R36, R3, 0x7632, R36 ;\n\
        /*0020*/ IADD3 R9, R36, R3, RZ ;\n/*0030*/ UMOV UR4, URZ ;\n/*0040*/ UPRMT UR4, UR17, 0x7610, UR4 ;\n\
        /*0050*/ MOV R2, UR4 ;\n/*0060*/ PRMT R9, R2, 0x7604, R9 ;\n/*0070*/ PRMT R13, R9, 0x5410, R3 ;\n\
        /*0080*/ STS [RZ], R13 ;\n/*0090*/ EXIT ;\n";
    let origins = |body: &str| -> Vec<String> {
        let text = format!(".section .text.k,\"ax\",@progbits\nk:\n{body}");
        let f = parse_listing(&text).unwrap();
        unwritten_reads(&f[0])
            .iter()
            .map(|u| {
                let from = u.origin.map_or("-".to_string(), |k| format!("{:04x}", f[0].instrs[k].offset));
                format!("{:04x} from {from}", f[0].instrs[u.instr].offset)
            })
            .collect()
    };
    assert_eq!(origins(sass), ["0080 from 0040"]);
    // Bytes 2-3 of R9 stored instead: the PRMT's.
    assert_eq!(origins(&sass.replace("0x5410, R3", "0x3210, R3")), ["0080 from 0010"]);
    // A narrow store reads byte 0 only: R13's byte 1 (the UPRMT's) is not read, byte 0 is.
    let narrow =
        sass.replace("PRMT R13, R9, 0x5410, R3", "PRMT R13, R9, 0x5401, R3").replace("STS [RZ]", "STS.U8 [RZ]");
    assert_eq!(origins(&narrow), ["0080 from 0040"]);
    assert_eq!(origins(&sass.replace("STS [RZ]", "STS.U8 [RZ]")), Vec::<String>::new());
}
