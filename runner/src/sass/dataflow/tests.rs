//! Tests of [`super`] (`sass/dataflow.rs`).

use super::*;
use crate::sass::parse::parse_listing;

/// The flagged instructions of a one-kernel listing, as `offset: regs`.
pub(super) fn flagged(body: &str) -> Vec<String> {
    let text = format!(".section .text.k,\"ax\",@progbits\nk:\n{body}");
    let f = parse_listing(&text).unwrap();
    unwritten_reads(&f[0])
        .iter()
        .map(|u| {
            let regs: Vec<String> = u.regs.iter().map(Reg::to_string).collect();
            format!("{:04x}: {}", f[0].instrs[u.instr].offset, regs.join(" "))
        })
        .collect()
}

#[test]
fn the_createpolicy_store_reads_a_descriptor_never_written() {
    let sass = crate::sass::fixtures::CREATEPOLICY_O3;
    assert_eq!(flagged(sass), ["00f0: UR6 UR7"]);
    // The same kernel with the policy written (-O0 keeps the createpolicy) is clean.
    let fixed = sass.replace("/*00e0*/ CCTL.IVALL ;", "/*00e0*/ UMOV UR6, URZ ;\n/*00e8*/ UMOV UR7, 0x1 ;");
    assert_eq!(flagged(&fixed), Vec::<String>::new());
}

#[test]
fn a_read_on_one_path_only_is_flagged() {
    let sass = "/*0000*/ ISETP.NE.AND P0, PT, RZ, 0x1, PT ;\n/*0010*/ @P0 BRA `(.L_x_1) ;\n\
        /*0020*/ MOV R2, 0x1 ;\n.L_x_1:\n/*0030*/ FADD R3, R2, RZ ;\n/*0040*/ EXIT ;\n";
    assert_eq!(flagged(sass), ["0030: R2"]);
    // Written on both paths: clean.
    let both = sass.replace(".L_x_1:\n", "/*0028*/ BRA `(.L_x_2) ;\n.L_x_1:\n/*002c*/ MOV R2, 0x2 ;\n.L_x_2:\n");
    assert_eq!(flagged(&both), Vec::<String>::new());
}

#[test]
fn guarded_writes_cover_reads_under_the_same_or_both_guards() {
    let head = "/*0000*/ ISETP.NE.AND P0, PT, RZ, 0x1, PT ;\n/*0010*/ @P0 MOV R2, 0x1 ;\n";
    assert_eq!(flagged(&format!("{head}/*0020*/ @P0 FADD R3, R2, RZ ;\n")), Vec::<String>::new());
    assert_eq!(flagged(&format!("{head}/*0020*/ @!P0 FADD R3, R2, RZ ;\n")), ["0020: R2"]);
    assert_eq!(flagged(&format!("{head}/*0020*/ FADD R3, R2, RZ ;\n")), ["0020: R2"]);
    assert_eq!(
        flagged(&format!("{head}/*0018*/ @!P0 MOV R2, 0x2 ;\n/*0020*/ FADD R3, R2, RZ ;\n")),
        Vec::<String>::new()
    );
    // A whole write under another guard keeps what @P0 wrote; a SEL under P0 copies it.
    let other = format!("{head}/*0014*/ ISETP.NE.AND P1, PT, RZ, 0x2, PT ;\n/*0018*/ @P1 MOV R2, 0x2 ;\n");
    assert_eq!(flagged(&format!("{other}/*0020*/ @P0 FADD R3, R2, RZ ;\n")), Vec::<String>::new());
    let sel = |s: &str| flagged(&format!("{head}/*0020*/ {s} ;\n/*0030*/ STS [RZ], R3 ;\n"));
    assert_eq!(sel("SEL R3, R2, RZ, P0"), Vec::<String>::new());
    assert_eq!(sel("SEL R3, RZ, R2, P0"), ["0030: R3"]);
    // P0 written again: the guard no longer says where R2 was written.
    let again = format!("{head}/*0018*/ ISETP.NE.AND P0, PT, RZ, 0x2, PT ;\n/*0020*/ @P0 FADD R3, R2, RZ ;\n");
    assert_eq!(flagged(&again), ["0020: R2"]);
}

#[test]
fn calls_return_after_the_call_and_unknown_callees_write_everything() {
    let sass = "/*0000*/ MOV R20, 0x0 ;\n/*0010*/ CALL.REL.NOINC `($k$sub) ;\n/*0020*/ FADD R3, R4, RZ ;\n\
        /*0030*/ EXIT ;\n$k$sub:\n/*0040*/ MOV R4, 0x1 ;\n/*0050*/ RET.REL.NODEC R20 `(k) ;\n";
    assert_eq!(flagged(sass), Vec::<String>::new());
    let unwritten = sass.replace("MOV R4, 0x1", "MOV R5, 0x1");
    assert_eq!(flagged(&unwritten), ["0020: R4"]);
    let elsewhere = "/*0000*/ CALL.ABS.NOINC `(other) ;\n/*0010*/ FADD R3, R4, RZ ;\n/*0020*/ EXIT ;\n";
    assert_eq!(flagged(elsewhere), Vec::<String>::new());
}

#[test]
fn loops_reach_a_fixed_point_and_unreachable_code_is_not_checked() {
    let sass = "/*0000*/ MOV R2, RZ ;\n.L_x_0:\n/*0010*/ IADD3 R2, R2, 0x1, RZ ;\n\
        /*0020*/ ISETP.NE.AND P0, PT, R2, 0x4, PT ;\n/*0030*/ @P0 BRA `(.L_x_0) ;\n/*0040*/ EXIT ;\n\
        .L_x_1:\n/*0050*/ FADD R3, R9, RZ ;\n/*0060*/ BRA `(.L_x_1) ;\n";
    assert_eq!(flagged(sass), Vec::<String>::new());
}

#[test]
fn partial_writes_carry_undefined_bytes_to_the_reader_that_uses_them() {
    // ptxas's 16-bit insert into a register never written: its upper half is undefined.
    let head = "/*0000*/ MOV R10, 0x1234 ;\n/*0010*/ PRMT R8, R10, 0x7610, R8 ;\n";
    let read = |tail: &str| flagged(&format!("{head}{tail}"));
    assert_eq!(read("/*0020*/ STS.U16 [RZ], R8 ;\n"), Vec::<String>::new(), "the defined half stored");
    assert_eq!(read("/*0020*/ STS [RZ], R8 ;\n"), ["0020: R8"], "the whole register stored");
    assert_eq!(read("/*0020*/ F2FP.TF32.F32.PACK_B R2, R8 ;\n"), ["0020: R8"], "root cause D's reader");
    assert_eq!(read("/*0020*/ HADD2.F32 R2, -RZ, R8.H0_H0 ;\n"), Vec::<String>::new());
    assert_eq!(read("/*0020*/ HADD2.F32 R2, -RZ, R8.H1_H1 ;\n"), ["0020: R8"]);
    // Through a sum (upwards), a mask, a shift, a sign extension: defined where it must be.
    assert_eq!(read("/*0020*/ IADD3 R9, R8, 0x1, RZ ;\n/*0030*/ STS.U16 [RZ], R9 ;\n"), Vec::<String>::new());
    assert_eq!(read("/*0020*/ IADD3 R9, R8, 0x1, RZ ;\n/*0030*/ STS [RZ], R9 ;\n"), ["0030: R9"]);
    assert_eq!(
        read("/*0020*/ LOP3.LUT R9, R8, 0xffff, RZ, 0xc0, !PT ;\n/*0030*/ STS [RZ], R9 ;\n"),
        Vec::<String>::new()
    );
    assert_eq!(read("/*0020*/ LOP3.LUT R9, R8, 0xffff, RZ, 0xfc, !PT ;\n/*0030*/ STS [RZ], R9 ;\n"), ["0030: R9"]);
    assert_eq!(read("/*0020*/ SHF.L.U32 R9, R8, 0x10, RZ ;\n/*0030*/ STS [RZ], R9 ;\n"), Vec::<String>::new());
    assert_eq!(read("/*0020*/ SHF.R.U32.HI R9, RZ, 0x10, R8 ;\n/*0030*/ STS [RZ], R9 ;\n"), ["0030: R9"]);
    assert_eq!(read("/*0020*/ SGXT R9, R8, 0x10 ;\n/*0030*/ STS [RZ], R9 ;\n"), Vec::<String>::new());
    assert_eq!(read("/*0020*/ PRMT R9, R8, 0x5410, R8 ;\n/*0030*/ STS [RZ], R9 ;\n"), Vec::<String>::new());
}

#[test]
fn a_predicate_set_constant_then_overwritten_under_a_guard_implies_the_guard() {
    // ptxas -O3 (generated program p1000119): P3 := false; @!P2 P3 := P1; @P3 reads what
    // was written under @!P2.
    let head = "/*0000*/ S2R R5, SR_TID.X ;\n/*0008*/ ISETP.NE.AND P2, PT, R5, 0x3, PT ;\n\
        /*0010*/ ISETP.NE.AND P1, PT, R5, 0x4, PT ;\n/*0020*/ PLOP3.LUT P3, PT, PT, PT, PT, 0x8, 0x0 ;\n\
        /*0030*/ @!P2 FRND.F16 R14, -RZ ;\n/*0040*/ @!P2 PLOP3.LUT P3, PT, P1, PT, PT, 0x80, 0x0 ;\n\
        /*0050*/ @P3 F2F.BF16.F16 R14, R14 ;\n";
    assert_eq!(flagged(head), Vec::<String>::new());
    // Written under @P2 instead: P3 implies !P2, so the read is not covered.
    assert_eq!(flagged(&head.replace("@!P2 FRND", "@P2 FRND")), ["0050: R14"]);
    // Without the constant, P3's old value is unknown where P2 holds.
    let unknown = head.replace("PLOP3.LUT P3, PT, PT, PT, PT, 0x8, 0x0", "ISETP.NE.AND P3, PT, R5, 0x5, PT");
    assert_eq!(flagged(&unknown), ["0050: R14"]);
}

#[test]
fn combined_comparisons_relate_their_predicates_and_read_where_they_matter() {
    let head = "/*0000*/ S2R R11, SR_TID.X ;\n/*0010*/ ISETP.GT.U32.AND P0, PT, R11, 0x19, PT ;\n\
        /*0020*/ @!P0 MOV R12, 0x1 ;\n";
    // P1 := (R11 > 25) AND !P0: P1 implies !P0 (generated program p1000432).
    let and = format!("{head}/*0030*/ ISETP.GT.U32.AND P1, PT, R11, 0x19, !P0 ;\n/*0040*/ @P1 FADD R3, R12, RZ ;\n");
    assert_eq!(flagged(&and), Vec::<String>::new());
    assert_eq!(flagged(&and.replace(".AND P1", ".XOR P1")), ["0040: R12"]);
    // P2 := (R12 != R11) OR P0 reads R12 only where P0 does not hold (p1000382), and
    // !P2 implies !P0.
    let or = format!("{head}/*0030*/ ISETP.NE.U32.OR P2, PT, R12, R11, P0 ;\n/*0040*/ @!P2 FADD R3, R12, RZ ;\n");
    assert_eq!(flagged(&or), Vec::<String>::new());
    assert_eq!(
        flagged(&or.replace(".OR P2, PT, R12, R11, P0", ".OR P2, PT, R12, R11, !P0")),
        // R12 is defined where the comparison does not read it (!P0): its P2 is undefined where P0
        // holds, and the FADD reads both there ([`super::compare`]).
        ["0040: P2 R12"]
    );
}

#[test]
fn bytes_written_under_a_guard_flow_through_unguarded_instructions() {
    // Generated program p1000908: R3's upper half is written under @P0 only; an unguarded
    // PRMT keeps it there, and a PRMT under @P0 moves it into the half a 16-bit store reads.
    let sass = "/*0000*/ S2R R4, SR_TID.X ;\n/*0010*/ ISETP.GT.U32.AND P0, PT, R4, 0x15, PT ;\n\
        /*0020*/ @P0 MOV R3, R4 ;\n/*0030*/ PRMT R3, R4, 0x7632, R3 ;\n/*0040*/ MOV R9, 0x1 ;\n\
        /*0050*/ @P0 PRMT R9, R3, 0x7632, R9 ;\n/*0060*/ STS.U16 [RZ], R9 ;\n";
    assert_eq!(flagged(sass), Vec::<String>::new());
    assert_eq!(flagged(&sass.replace("@P0 PRMT R9", "@!P0 PRMT R9")), ["0060: R9"]);
}

#[test]
fn a_lookup_table_over_predicates_is_defined_where_it_ignores_the_undefined_one() {
    // The head of a waterfall loop (generated program p1000745): P6 := !P0 | P6 reads P6
    // before the loop writes it, but only where P0 holds, and there `@P0 R2UR P6` writes it.
    let sass = "/*0000*/ S2R R0, SR_TID.X ;\n/*0010*/ PLOP3.LUT P0, PT, PT, PT, PT, 0x80, 0x0 ;\n.L_x_4:\n\
        /*0020*/ PLOP3.LUT P6, PT, P6, P0, PT, 0xa2, 0x0 ;\n/*0030*/ @P0 R2UR P6, UR8, R0 ;\n\
        /*0040*/ @P0 PLOP3.LUT P0, PT, P6, PT, PT, 0x80, 0x0 ;\n/*0050*/ @P6 MOV R2, 0x1 ;\n\
        /*0060*/ @P0 BRA.U.ANY `(.L_x_4) ;\n/*0070*/ EXIT ;\n";
    assert_eq!(flagged(sass), Vec::<String>::new());
    // A table that depends on the never-written P6 everywhere leaves its result undefined:
    // the read is its guard's.
    let used = "/*0000*/ PLOP3.LUT P1, PT, P6, PT, PT, 0x80, 0x0 ;\n/*0010*/ @P1 MOV R2, 0x1 ;\n";
    assert_eq!(flagged(used), ["0010: P1"]);
}

#[test]
fn a_branch_tells_each_way_its_guard() {
    let sass = "/*0000*/ S2R R5, SR_TID.X ;\n/*0010*/ ISETP.NE.AND P0, PT, R5, 0x1, PT ;\n\
        /*0020*/ @P0 BRA `(.L_x_1) ;\n/*0030*/ MOV R2, 0x1 ;\n.L_x_1:\n/*0040*/ @!P0 FADD R3, R2, RZ ;\n\
        /*0050*/ EXIT ;\n";
    assert_eq!(flagged(sass), Vec::<String>::new());
    assert_eq!(flagged(&sass.replace("@!P0 FADD", "@P0 FADD")), ["0040: R2"]);
    // A waterfall's `BRA.U.ANY` branches when any lane's guard holds: no fact per lane.
    let any = sass.replace("@P0 BRA `", "@P0 BRA.U.ANY `");
    assert_eq!(flagged(&any), ["0040: R2"]);
}

#[test]
fn a_guarded_nop_reads_nothing_but_a_guarded_cache_invalidation_does() {
    // ptxas -O3 drops a dead ld.acquire inside a branch and leaves its cache invalidation
    // under the branch's predicate, which nothing writes any more.
    assert_eq!(flagged("/*0000*/ @!P0 NOP ;\n/*0010*/ @!P0 NOP ;\n"), Vec::<String>::new());
    assert_eq!(flagged("/*0000*/ @P0 NOP ;\n/*0010*/ @P0 CCTL.IVALL ;\n"), ["0010: P0"]);
}

#[test]
fn a_guard_rewritten_leaves_its_writes_to_the_literals_that_implied_it() {
    // Generated program p1009755: R0 written under P0; P1 := (R11 > 0xc000) | !P0, so !P1
    // implies P0; P0 is then rewritten (a waterfall's `PLOP3 … 0x80`), and R0 is read under
    // !P1.
    let sass = "/*0000*/ S2R R11, SR_TID.X ;\n/*0010*/ ISETP.GT.U32.AND P0, PT, R11, 0xc000, PT ;\n\
        /*0020*/ @P0 MOV R0, R11 ;\n/*0030*/ ISETP.GT.U32.OR P1, PT, R11, 0xc000, !P0 ;\n\
        /*0040*/ PLOP3.LUT P0, PT, PT, PT, PT, 0x80, 0x0 ;\n/*0050*/ @!P1 IMAD R12, R0, 0x100, R0 ;\n\
        /*0060*/ @!P1 STS [RZ], R12 ;\n";
    assert_eq!(flagged(sass), Vec::<String>::new());
    // With P1 := … | P0 instead, !P1 implies !P0: the product is undefined where stored.
    assert_eq!(flagged(&sass.replace("!P0 ;", "P0 ;")), ["0060: R12"]);
}

#[test]
fn a_guard_refined_in_place_keeps_what_the_old_guard_covered() {
    // Campaign fuzz-h200-3602, 25dcb4c4 (corpus/findings/fuzz-h200-3602/trace/25dcb4c4871a17f3/
    // reduced2.135.O3.sass, ptxas 13.5.37 -O3, its instructions up to the reads): R6 is loaded
    // under P0, then `ISETP.NE.AND P0, PT, R0, RZ, P0` makes the new P0 hold only where the
    // old one did, and the conversion under the new P0 reads R6 where it was loaded.
    let sass = "/*0000*/ LDC R1, c[0x0][0x28] ;\n/*0010*/ S2R R11, SR_TID.X ;\n\
        /*0020*/ LDC.64 R2, c[0x0][0x210] ;\n/*0030*/ ULDC.64 UR4, c[0x0][0x208] ;\n\
        /*0040*/ LDC.64 R4, c[0x0][0x218] ;\n/*0050*/ IMAD.WIDE.U32 R2, R11, 0x100, R2 ;\n\
        /*0060*/ LDG.E.64 R8, desc[UR4][R2.64+0x8] ;\n/*0070*/ ISETP.GT.U32.AND P0, PT, R11, 0x33, PT ;\n\
        /*0080*/ @P0 LDG.E R6, desc[UR4][R2.64+0x2c] ;\n/*0090*/ IMAD.WIDE.U32 R4, R11, 0x10, R4 ;\n\
        /*00a0*/ F2I.U32.BF16.NTZ R0, R8 ;\n/*00b0*/ PRMT R7, R9, 0x7610, R7 ;\n\
        /*00c0*/ ISETP.NE.AND P0, PT, R0, RZ, P0 ;\n/*0100*/ @P0 I2F.BF16 R7, R6 ;\n\
        /*0130*/ STG.E.S8 desc[UR4][R4.64+0xf], R7 ;\n/*0140*/ EXIT ;\n";
    assert_eq!(flagged(sass), Vec::<String>::new());
    // Planted: refined with the old value negated, with another predicate, or widened by
    // `.OR`, the new P0 also holds where nothing loaded R6.
    for planted in ["R0, RZ, !P0 ;", "R0, RZ, PT ;"] {
        assert_eq!(flagged(&sass.replace("R0, RZ, P0 ;", planted)), ["0100: R6"], "{planted}");
    }
    let other = sass.replace("R0, RZ, P0 ;", "R0, RZ, P1 ;");
    assert_eq!(flagged(&other), ["00c0: P1", "0100: R6"]);
    let widened = sass.replace("ISETP.NE.AND P0, PT, R0", "ISETP.NE.OR P0, PT, R0");
    assert_eq!(flagged(&widened), ["0100: R6"]);
    // Refined by `!P0 := …`: what was written under !P0 stays under the new !P0.
    let negated = sass
        .replace("@P0 LDG.E R6", "@!P0 LDG.E R6")
        .replace("ISETP.NE.AND P0, PT, R0, RZ, P0", "ISETP.EQ.OR P0, PT, R0, RZ, P0")
        .replace("@P0 I2F.BF16", "@!P0 I2F.BF16");
    assert_eq!(flagged(&negated), Vec::<String>::new());
}

#[test]
fn copies_to_uniform_registers_and_high_shift_adds_carry_definedness() {
    // ptxas -O3 moves a cache policy nothing wrote into the descriptor of a hinted load
    // (generated program p1001221): the load's descriptor is what is never written.
    let sass = "/*0000*/ S2R R4, SR_TID.X ;\n/*0010*/ R2UR UR8, R2 ;\n/*0020*/ R2UR UR9, R3 ;\n\
        /*0030*/ LDG.E.64 R6, desc[UR8][R4.64+0x8] ;\n";
    let sass = sass.replace("/*0000*/ S2R R4, SR_TID.X ;\n", "/*0000*/ S2R R4, SR_TID.X ;\n/*0008*/ MOV R5, RZ ;\n");
    assert_eq!(flagged(&sass), ["0030: UR8 UR9"]);
    // LEA.HI D, A, B, K: the low half of the sum depends on B's low half (p1008129).
    let lea = "/*0000*/ S2R R9, SR_TID.X ;\n/*0010*/ MOV R10, 0x1 ;\n/*0020*/ PRMT R10, R10, 0x7610, R12 ;\n\
        /*0030*/ LEA.HI.SX32 R7, R9, R10, 0x19 ;\n/*0040*/ STS.U16 [RZ], R7 ;\n";
    assert_eq!(flagged(lea), Vec::<String>::new());
    assert_eq!(flagged(&lea.replace("STS.U16", "STS")), ["0040: R7"]);
    assert_eq!(flagged(&lea.replace("S2R R9, SR_TID.X", "PRMT R9, R9, 0x7610, RZ")), ["0040: R7"]);
}

/// ptxas 13.0.88 -O3's `bfind.s64` (a campaign on the H200 flagged 49 kernels with it): the
/// result is written under @P0 and the branch under the same @P0 skips the other writes, so on
/// the taken edge the guarded write is a write. Reduced from finding 3c86… of seed 3201.
#[test]
fn a_write_under_the_guard_of_the_branch_taken_is_a_write_on_that_edge() {
    let sass = "/*00f0*/ FLO R10, R3 ;\n\
        /*0100*/ ISETP.NE.U32.AND P0, PT, R10, -0x1, PT ;\n\
        /*0110*/ @P0 VIADD R11, R10, 0x20 ;\n\
        /*0120*/ @P0 BRA `(.L_x_146) ;\n\
        /*0130*/ ISETP.GE.AND P0, PT, R3, RZ, PT ;\n\
        /*0150*/ @!P0 BRA `(.L_x_147) ;\n\
        /*0160*/ FLO.U32 R11, R2 ;\n\
        /*0170*/ BRA `(.L_x_146) ;\n\
        .L_x_147:\n\
        /*0180*/ FLO.U32 R11, ~R2 ;\n\
        .L_x_146:\n\
        /*01b0*/ ISETP.GT.U32.AND P0, PT, R2, 0x4b68624e, PT ;\n\
        /*0300*/ PRMT.ECR R11, R11, R0, R0 ;\n";
    let head = "/*0000*/ MOV R0, 0x1 ;\n/*0010*/ MOV R2, 0x2 ;\n/*0020*/ MOV R3, 0x3 ;\n";
    assert_eq!(flagged(&format!("{head}{sass}")), Vec::<String>::new());
    // Without the write under @P0 the taken path leaves R11 unwritten.
    let missing = sass.replace("/*0110*/ @P0 VIADD R11, R10, 0x20 ;\n", "");
    assert_eq!(flagged(&format!("{head}{missing}")), ["0300: R11"]);
    // A write under the other guard does not cover the taken edge.
    let other = sass.replace("@P0 VIADD", "@!P0 VIADD");
    assert_eq!(flagged(&format!("{head}{other}")), ["0300: R11"]);
}

/// ptxas 13.0.88 -O3's waterfall around a per-lane `createpolicy.range` (finding 3c8afc43 of the
/// H200 campaign, seed 3201): the copies out of the uniform registers are written under `!P1`,
/// P1 is written again before the branch back, and the loop is left once every lane has been
/// served, so R8 and R9 are written for every lane.
#[test]
fn what_a_waterfall_writes_under_a_guard_it_rewrites_is_written_at_its_exit() {
    let sass = "/*0000*/ S2R R4, SR_TID.X ;\n/*0008*/ MOV R5, RZ ;\n/*0010*/ MOV R7, RZ ;\n\
        /*0020*/ PLOP3.LUT P0, PT, PT, PT, PT, 0x80, 0x0 ;\n\
        .L_x_0:\n\
        /*02f0*/ PLOP3.LUT P1, PT, P1, P0, PT, 0xa2, 0x0 ;\n\
        /*0300*/ @P0 R2UR P1, UR6, R4 ;\n\
        /*0310*/ PLOP3.LUT P1, PT, P1, P0, PT, 0xa2, 0x0 ;\n\
        /*0320*/ @P0 R2UR.OR P1, UR7, R7 ;\n\
        /*0330*/ @P0 PLOP3.LUT P0, PT, P1, PT, PT, 0x80, 0x0 ;\n\
        /*03c0*/ UMOV UR4, URZ ;\n\
        /*03d0*/ @!P1 IMAD.U32 R8, RZ, RZ, UR4 ;\n\
        /*03e0*/ @!P1 IMAD.U32 R9, RZ, RZ, UR6 ;\n\
        /*03f0*/ PLOP3.LUT P1, PT, PT, PT, PT, 0x80, 0x0 ;\n\
        /*0400*/ @P0 BRA.U.ANY `(.L_x_0) ;\n\
        /*0420*/ R2UR UR4, R8 ;\n\
        /*0430*/ R2UR UR5, R9 ;\n\
        /*0440*/ STG.E desc[UR4][R4.64], R7 ;\n";
    assert_eq!(flagged(sass), Vec::<String>::new());
    // Without the guarded copy of R9 the descriptor's upper half is never written.
    let missing = sass.replace("/*03e0*/ @!P1 IMAD.U32 R9, RZ, RZ, UR6 ;\n", "");
    assert_eq!(flagged(&missing), ["0440: UR5"]);
}

/// Definedness is bit-granular (rows 3 and 4 of corpus/findings/fuzz-h200-3201/README.md): a
/// shift by a non-multiple of 8 bits, a mask and a shift back use only defined bits; a
/// multiply by −2^16 needs only the low half; a sign-replicating `PRMT` byte needs only that
/// byte's sign bit; `…PACK_AB_MERGE_C` reads only C's low half. Each planted variant that
/// does use an undefined bit is flagged.
#[test]
fn defined_bits_flow_through_shifts_masks_multiplies_and_merges() {
    // R2's upper half is never written.
    let head = "/*0000*/ S2R R3, SR_TID.X ;\n/*0010*/ PRMT R2, R3, 0x7610, R2 ;\n";
    let read = |tail: &str| flagged(&format!("{head}{tail}/*0100*/ STS [RZ], R9 ;\n"));
    let none = Vec::<String>::new();
    let shifted = |mask: &str| {
        read(&format!(
            "/*0020*/ IMAD.SHL.U32 R4, R2, 0x10, RZ ;\n/*0030*/ LOP3.LUT R4, R4, {mask}, RZ, 0xc0, !PT ;\n\
             /*0040*/ SHF.R.U32.HI R9, RZ, 0x10, R4 ;\n"
        ))
    };
    assert_eq!(shifted("0xffff0"), none, "(R2 << 4) & 0xffff0 >> 16 uses R2's bits 12..15 only");
    assert_eq!(shifted("0xfffff0"), ["0100: R9"], "bits 16..19 of R2 are not defined");
    let times = |k: &str| read(&format!("/*0020*/ IMAD R9, R2, {k}, R3 ;\n"));
    assert_eq!(times("-0x10000"), none);
    assert_eq!(times("0x30000"), none, "bit i of R2·3·2^16 depends on bits 0..=i−16");
    assert_eq!(times("-0x8000"), ["0100: R9"]);
    assert_eq!(times("0x3"), ["0100: R9"]);
    assert_eq!(read("/*0020*/ PRMT R9, R2, 0x8880, RZ ;\n"), none, "byte 0's sign, replicated");
    assert_eq!(read("/*0020*/ PRMT R9, R2, 0x8882, RZ ;\n"), ["0100: R9"], "byte 2's sign");
    let merge = |c: &str| read(&format!("/*0020*/ F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R9, R3, R3, {c} ;\n"));
    assert_eq!(merge("R2"), none, "C's low half becomes the upper half");
    // cvt.pack.sat.s8.s32.b32 takes the rest of d from c's low bits (§9.7.9.22).
    assert_eq!(read("/*0020*/ I2IP.S8.S32.SAT R9, R3, R3, R2 ;\n"), none);
    assert_eq!(read("/*0020*/ I2IP.U8.S32.SAT R9, R3, R3, R2 ;\n"), none);
    // With a half selector, the half it names (campaign seed 3's `…, R9.H1`).
    assert_eq!(read("/*0020*/ I2IP.U8.S32.SAT R9, R3, R3, R2.H1 ;\n"), ["0020: R2"]);
    assert_eq!(read("/*0020*/ PRMT R5, R3, 0x1076, R5 ;\n/*0030*/ I2IP.U8.S32.SAT R9, R3, R3, R5.H1 ;\n"), none);
    assert_eq!(
        read("/*0020*/ I2IP.S16.S32.SAT R9, R3, R3, R2 ;\n"),
        ["0020: R2"],
        "the 16-bit pack has no c in PTX: its fourth operand is read whole"
    );
    assert_eq!(
        flagged(&format!("{head}/*0020*/ PRMT R5, R3, 0x1076, R5 ;\n/*0030*/ F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R9, R3, R3, R5 ;\n")),
        ["0030: R5"],
        "C's low half not written"
    );
    assert_eq!(
        flagged(&format!("{head}/*0020*/ PRMT R5, R3, 0x1076, R5 ;\n/*0030*/ I2IP.U8.S32.SAT R9, R3, R3, R5 ;\n")),
        ["0030: R5"],
        "c's low half not written"
    );
}

/// The ptxas 13.0.88 -O3 listings of the three findings of the H200 campaign (seed 3201) that
/// the byte-granular check flagged falsely (corpus/findings/fuzz-h200-3201/sass/): clean now,
/// and flagged again where the planted change makes the program use an undefined bit.
#[test]
fn the_campaign_3201_false_alarms_are_clean_and_planted_reads_are_not() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/findings/fuzz-h200-3201/sass");
    let check = |name: &str, from: &str, to: &str| -> Vec<String> {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        assert!(text.contains(from), "{name}: {from}");
        let f = parse_listing(&text.replace(from, to)).unwrap();
        f.iter()
            .flat_map(|f| unwritten_reads(f).into_iter().map(|u| format!("{:04x}", f.instrs[u.instr].offset)))
            .collect()
    };
    let none = Vec::<String>::new();
    // 2d31cc89: (R9 << 4) & 0xffff0 >> 16, R9's upper half undefined where P0 holds.
    let mask = "LOP3.LUT R8, R8, 0xffff0, RZ, 0xe2, !PT";
    assert_eq!(check("2d31cc89-O3.sass", mask, mask), none);
    assert_eq!(check("2d31cc89-O3.sass", mask, "LOP3.LUT R8, R8, 0xfffff0, RZ, 0xe2, !PT"), ["06d0"]);
    // f3e83ec2: R23 · −0x10000, R23's upper half undefined.
    let mul = "IMAD R4, R23, -0x10000, R4";
    assert_eq!(check("f3e83ec2-O3.sass", mul, mul), none);
    assert_eq!(check("f3e83ec2-O3.sass", mul, "IMAD R4, R23, -0x1, R4"), ["0790"]);
    // 77b0c630: MERGE_C of R7, whose upper half only is undefined.
    let low = "PRMT R7, R10, 0x7610, R7";
    assert_eq!(check("77b0c630-O3.sass", low, low), none);
    assert_eq!(check("77b0c630-O3.sass", low, "PRMT R7, R10, 0x1076, R7"), ["0260"]);
}

/// The ptxas 13.0.88 -O3 listings (reduced) of the three false alarms of the H200 campaign of
/// seed 3601 (corpus/findings/fuzz-h200-3601/trace/T1.md): clean now, and flagged where a planted
/// change makes the read use an undefined bit.
const CAMPAIGN_3601_HEAD: &str = "/*0000*/ LDC R1, c[0x0][0x28] ;\n/*0010*/ S2R R9, SR_TID.X ;\n\
    /*0020*/ LDC.64 R2, c[0x0][0x210] ;\n/*0030*/ ULDC.64 UR4, c[0x0][0x208] ;\n\
    /*0040*/ LDC.64 R4, c[0x0][0x218] ;\n/*0050*/ IMAD.WIDE.U32 R2, R9, 0x40, R2 ;\n";

/// 6ac05b09: `cvt.f32.bf16` (a shift by 16) folded into an `add.cc.u32` whose sum is dead:
/// `LEA RZ, P0, R7, R8, 0x10` keeps only the carry, and R7's never-written upper half is
/// shifted out. The carry-out is defined by the bits of the sum that are defined.
#[test]
fn a_carry_only_add_needs_only_the_bits_that_reach_the_sum() {
    let sass = format!(
        "{CAMPAIGN_3601_HEAD}/*0060*/ LDG.E R0, desc[UR4][R2.64] ;\n/*0070*/ LDG.E.64 R8, desc[UR4][R2.64+0x8] ;\n\
         /*0080*/ F2FP.RELU.BF16.F32.MERGE_C.RZ R0, R0, RZ ;\n/*0090*/ PRMT R7, R0, 0x7610, R7 ;\n\
         /*00a0*/ LEA RZ, P0, R7, R8, 0x10 ;\n/*00b0*/ IMAD.X R9, RZ, RZ, R9, P0 ;\n\
         /*00c0*/ STG.E desc[UR4][R4.64], R9 ;\n/*00d0*/ EXIT ;\n"
    );
    let none = Vec::<String>::new();
    let lea = "LEA RZ, P0, R7, R8, 0x10";
    assert_eq!(flagged(&sass), none);
    assert_eq!(flagged(&sass.replace(lea, "LEA R10, P0, R7, R8, 0x10")), none, "the sum used too");
    // Shifted by 8, bits 16..23 of R7 reach the sum: its carry is not defined, and the
    // instruction that reads the carry is flagged.
    assert_eq!(flagged(&sass.replace(lea, "LEA RZ, P0, R7, R8, 0x8")), ["00b0: P0"]);
    assert_eq!(flagged(&sass.replace(lea, "LEA R10, P0, R7, R8, 0x8")), ["00b0: P0"]);
    // The same with an IADD3 kept for its carry, R7 shifted first (defined) or not (undefined).
    let shifted = "IMAD.SHL.U32 R7, R7, 0x10000, RZ ;\n/*00a8*/ IADD3 RZ, P0, R7, R8, RZ";
    assert_eq!(flagged(&sass.replace(lea, shifted)), none);
    assert_eq!(flagged(&sass.replace(lea, "IADD3 RZ, P0, R7, R8, RZ")), ["00b0: P0"]);
    // Uniform: `UIADD3 URZ, UP0, …` likewise, and a carry-in is still read whole.
    let uniform = "/*0000*/ S2UR UR4, SR_CTAID.X ;\n/*0010*/ UPRMT UR5, UR4, 0x7610, UR5 ;\n\
        /*0020*/ USHF.L.U32 UR6, UR5, 0x10, URZ ;\n/*0030*/ UIADD3 URZ, UP0, UR6, UR4, URZ ;\n\
        /*0040*/ UIADD3.X UR7, URZ, UR4, URZ, UP0, !UPT ;\n/*0050*/ STS [RZ], UR7 ;\n";
    assert_eq!(flagged(uniform), none);
    assert_eq!(flagged(&uniform.replace("UR6, UR4, URZ ;", "UR5, UR4, URZ ;")), ["0040: UP0"]);
    let carry_in = "/*0038*/ UIADD3.X URZ, UP1, UR6, UR4, URZ, UP2, !UPT ;\n";
    let with_carry_in = uniform.replace("/*0040*/", &format!("{carry_in}/*0040*/"));
    assert_eq!(flagged(&with_carry_in), ["0038: UP2"]);
}

/// 5814b646: `F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C D, B, C` (`cvt.rn.satfinite.e4m3x2.f16x2`
/// into a register that also holds another 16-bit value) makes D = {C[15:0], the pair of B}:
/// C's upper half is not read; B is read whole.
#[test]
fn an_unpack_merge_reads_only_the_low_half_of_c() {
    let sass = format!(
        "{CAMPAIGN_3601_HEAD}/*0060*/ LDG.E R0, desc[UR4][R2.64] ;\n/*0070*/ LDG.E R6, desc[UR4][R2.64+0x4] ;\n\
         /*0080*/ IMAD.WIDE.U32 R4, R9, 0x8, R4 ;\n/*0090*/ PRMT R7, R0, 0x7632, R7 ;\n\
         /*00a0*/ LOP3.LUT R7, R0, R7, RZ, 0x3c, !PT ;\n\
         /*00b0*/ F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R7, R6, R7 ;\n\
         /*00c0*/ STG.E desc[UR4][R4.64], R7 ;\n/*00d0*/ EXIT ;\n"
    );
    assert_eq!(flagged(&sass), Vec::<String>::new());
    // C's low half not written.
    assert_eq!(flagged(&sass.replace("PRMT R7, R0, 0x7632, R7", "PRMT R7, R0, 0x3276, R7")), ["00b0: R7"]);
    // B's upper half not written: B is read whole.
    let b = sass.replace("UNPACK_B_MERGE_C R7, R6, R7", "UNPACK_B_MERGE_C R6, R7, R6");
    assert_eq!(flagged(&b.replace("STG.E desc[UR4][R4.64], R7", "STG.E desc[UR4][R4.64], R6")), ["00b0: R7"]);
}

/// 607f088a: `max.s16` fused with the `setp.eq.s16` that compares its result,
/// `VIMNMX.S16x2 R0, P0, P0, R0, 0x177a, !PT`: with both outputs P0, P0 holds the low half's
/// comparison (GPU-checked), so R0's never-written upper half does not reach it. Two different
/// outputs (which half each holds is untested) still depend on both halves.
#[test]
fn a_paired_min_max_with_one_predicate_output_needs_only_the_low_half() {
    let sass = format!(
        "{CAMPAIGN_3601_HEAD}/*0060*/ LDG.E R7, desc[UR4][R2.64] ;\n/*0070*/ IMAD.WIDE.U32 R4, R9, 0x8, R4 ;\n\
         /*0080*/ STG.E desc[UR4][R4.64+0x4], R7 ;\n/*0090*/ LDG.E R9, desc[UR4][R2.64+0x4] ;\n\
         /*00a0*/ PRMT R0, R7, 0x7632, R0 ;\n/*00b0*/ VIMNMX.S16x2 R0, P0, P0, R0, 0x177a, !PT ;\n\
         /*00c0*/ @P0 LOP3.LUT R9, R9, 0x7fffffff, RZ, 0x3c, !PT ;\n/*00d0*/ STG.E desc[UR4][R4.64], R9 ;\n\
         /*00e0*/ EXIT ;\n"
    );
    let none = Vec::<String>::new();
    assert_eq!(flagged(&sass), none);
    assert_eq!(flagged(&sass.replace("VIMNMX.S16x2", "VIMNMX.U16x2")), none);
    // The low half not written: P0 is not defined.
    assert_eq!(flagged(&sass.replace("PRMT R0, R7, 0x7632, R0", "PRMT R0, R7, 0x3276, R0")), ["00c0: P0"]);
    // Two outputs: each depends on both halves.
    assert_eq!(flagged(&sass.replace("R0, P0, P0, R0", "R0, P0, P1, R0")), ["00c0: P0"]);
    // The result's upper half stays undefined.
    assert_eq!(flagged(&sass.replace("STG.E desc[UR4][R4.64], R9", "STG.E desc[UR4][R4.64], R0")), ["00d0: R0"]);
}

/// An indirect branch with nvdisasm's target list goes to those targets only (seed 3602's
/// d6253075 and 3f1a76e0: a jump table of two targets, each writing the register, and a later
/// loop label that skips the write was taken as a target too); without a list, to any label.
#[test]
fn a_jump_table_goes_to_its_listed_targets_only() {
    let table = "/*0000*/ MOV R10, 0x0 ;\n\
        /*0010*/ BRX R10 -0x20 (*\"BRANCH_TARGETS .L_x_5,.L_x_6\"*) ;\n\
        .L_x_5:\n/*0020*/ MOV R2, 0x1 ;\n/*0030*/ BRA `(.L_x_7) ;\n\
        .L_x_6:\n/*0040*/ MOV R2, 0x2 ;\n\
        .L_x_7:\n/*0050*/ FADD R3, R2, RZ ;\n/*0060*/ EXIT ;\n\
        .L_x_1:\n/*0070*/ BRA `(.L_x_7) ;\n";
    assert_eq!(flagged(table), Vec::<String>::new());
    // The same table without its list: any label, .L_x_1 among them, which skips both writes.
    let unlisted = table.replace(" (*\"BRANCH_TARGETS .L_x_5,.L_x_6\"*)", "");
    assert_eq!(flagged(&unlisted), ["0050: R2"]);
    // A listed target that skips the write is still a read of a never-written register.
    let skipping = table.replace(".L_x_5,.L_x_6", ".L_x_5,.L_x_7");
    assert_eq!(flagged(&skipping), ["0050: R2"]);
    // A guarded table also falls through to the next instruction (here: the write of .L_x_5).
    let guarded = table
        .replace("/*0010*/ BRX", "/*0010*/ @P0 BRX")
        .replace("/*0000*/ MOV R10, 0x0 ;\n", "/*0000*/ ISETP.NE.AND P0, PT, RZ, 0x1, PT ;\n/*0008*/ MOV R10, 0x0 ;\n");
    assert_eq!(flagged(&guarded), Vec::<String>::new());
}

#[test]
fn a_read_of_undefined_bits_names_the_instruction_that_made_them() {
    // Campaign fuzz-h200-3602, 77dcaea5 (trace/77dcaea509f185cf/reduced.135.O3.sass, ptxas
    // 13.5.37 -O3, root cause N-6): the UPRMT at 0x00b0 reads UR7, never written, into UR5's
    // low half; `IMAD.U32 R5, …, UR7` reads it too, but R5 is written again from UR5; the store
    // reads the undefined bits through the MOV and two LOP3s.
    let sass = "/*0000*/ LDC R1, c[0x0][0x28] ;\n/*0010*/ S2R R7, SR_TID.X ;\n/*0020*/ UMOV UR4, 0x70 ;\n\
        /*0030*/ LDC.64 R2, c[0x0][0x218] ;\n/*0040*/ USHF.R.U32 UR4, UR4, 0x4, URZ ;\n\
        /*0050*/ UMOV UR5, 0x150 ;\n/*0060*/ ULOP3.LUT UR5, UR5, 0xf, UR4, 0xf8, !UPT ;\n\
        /*0070*/ USHF.L.U32 UR5, UR5, 0x14, URZ ;\n/*0080*/ UMOV UR4, URZ ;\n\
        /*0090*/ ULOP3.LUT UR6, UR4, 0x6b7746b3, URZ, 0x3c, !UPT ;\n\
        /*00a0*/ ULOP3.LUT UR4, UR5, 0x66747faf, URZ, 0x3c, !UPT ;\n/*00b0*/ UPRMT UR5, UR7, 0x7610, UR5 ;\n\
        /*00c0*/ IMAD.U32 R5, RZ, RZ, UR7 ;\n/*00d0*/ IMAD.U32 R4, RZ, RZ, UR6 ;\n/*00e0*/ MOV R5, UR5 ;\n\
        /*00f0*/ UPRMT UR5, UR4, 0x7632, UR5 ;\n/*0100*/ LOP3.LUT R4, R4, UR4, R5, 0x96, !PT ;\n\
        /*0110*/ MOV R5, UR5 ;\n/*0120*/ ULDC.64 UR4, c[0x0][0x208] ;\n\
        /*0130*/ LOP3.LUT R5, R4, R5, RZ, 0x3c, !PT ;\n/*0140*/ IMAD.WIDE.U32 R2, R7, 0x10, R2 ;\n\
        /*0150*/ STG.E.U8 desc[UR4][R2.64+0x1], R5 ;\n/*0160*/ EXIT ;\n";
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
    assert_eq!(origins(sass), ["0150 from 00b0"]);
    // The store of the IMAD's copy instead: its bits came from the IMAD's read of UR7.
    let imad = sass.replace("/*00e0*/ MOV R5, UR5 ;\n", "");
    assert_eq!(origins(&imad), ["0150 from 00c0"]);
    // A never-written register read directly has no origin of its own.
    assert_eq!(origins("/*0000*/ STG.E.U8 desc[UR4][R2.64], R5 ;\n"), ["0000 from -"]);
    // Undefined on one path from one instruction, on the other from another: the earlier one.
    let join = "/*0000*/ S2R R0, SR_TID.X ;\n/*0010*/ ISETP.NE.AND P0, PT, R0, RZ, PT ;\n\
        /*0020*/ PRMT R5, R0, 0x7610, R8 ;\n/*0030*/ @P0 BRA `(.L_x_1) ;\n/*0040*/ PRMT R5, R0, 0x7610, R9 ;\n\
        .L_x_1:\n/*0050*/ STS [RZ], R5 ;\n";
    assert_eq!(origins(join), ["0050 from 0020"]);
}

#[test]
fn a_uniform_vote_writes_its_predicate_and_implies_its_source() {
    // Campaign fuzz-h200-3701, 8e54deac (corpus/findings/fuzz-h200-3701/trace/TU1.md, reduced,
    // ptxas 13.0.88 -O3): a 64-bit shift of a constant in a divergent branch is computed once
    // per warp under `@!UP0` after `VOTEU.ALL UP0, P0` and copied under `@!P0`; !P0 on a lane
    // makes UP0 false, so UR8/UR4 are written wherever they are read.
    let sass = "/*0000*/ LDC R1, c[0x0][0x28] ;\n/*0010*/ S2R R7, SR_TID.X ;\n\
        /*0020*/ LDC.64 R2, c[0x0][0x210] ;\n/*0030*/ ULDC.64 UR6, c[0x0][0x208] ;\n\
        /*0040*/ LDC.64 R4, c[0x0][0x218] ;\n/*0050*/ IMAD.WIDE.U32 R2, R7, 0x8, R2 ;\n\
        /*0060*/ LDG.E.64 R2, desc[UR6][R2.64] ;\n/*0070*/ UMOV UR4, 0xf0 ;\n\
        /*0080*/ IMAD.WIDE.U32 R4, R7, 0x8, R4 ;\n/*0090*/ USHF.R.U32 UR4, UR4, 0x4, URZ ;\n\
        /*00a0*/ UMOV UR5, 0x120 ;\n/*00b0*/ ULOP3.LUT UR5, UR5, 0xf, UR4, 0xf8, !UPT ;\n\
        /*00c0*/ USHF.L.U32 UR5, UR5, 0x14, URZ ;\n/*00d0*/ UMOV UR4, URZ ;\n\
        /*00e0*/ ISETP.GE.AND P0, PT, R3, RZ, PT ;\n/*00f0*/ VOTEU.ALL UP0, P0 ;\n\
        /*0100*/ @!UP0 USHF.R.S64 UR8, UR4, 0x1, UR5 ;\n/*0110*/ @!UP0 USHF.R.S32.HI UR4, URZ, 0x1, UR5 ;\n\
        /*0120*/ @!P0 MOV R2, UR8 ;\n/*0130*/ @!P0 MOV R3, UR4 ;\n\
        /*0140*/ STG.E.64 desc[UR6][R4.64], R2 ;\n/*0150*/ EXIT ;\n";
    assert_eq!(flagged(sass), Vec::<String>::new());
    // `VOTEU.ANY` holds wherever P0 does: under `@!UP0` nothing is known of P0, so the copy
    // under `@!P0` may copy what was never written (flagged where the store reads it).
    assert_eq!(flagged(&sass.replace("VOTEU.ALL", "VOTEU.ANY")), ["0140: R2"]);
    // Copied where the vote says nothing: flagged.
    assert_eq!(flagged(&sass.replace("@!P0 MOV R2, UR8", "@P0 MOV R2, UR8")), ["0140: R2"]);
    // `VOTEU.ANY UR9, UPT, PT` (a ballot) writes UR9 and reads PT.
    let ballot =
        sass.replace("/*0150*/ EXIT", "/*0148*/ VOTEU.ANY UR9, UPT, PT ;\n/*014c*/ UMOV UR10, UR9 ;\n/*0150*/ EXIT");
    assert_eq!(flagged(&ballot), Vec::<String>::new());
}

/// ae81f097 (corpus/findings/fuzz-h200-3801/trace/T4A.md; ptxas 13.0.88 and 13.5 -O3): an
/// if-converted diamond compares UR5, which only the `@!UP0` arm wrote, unguarded; its UP1 is
/// read only under `@!UP0`. No finding — but a read of UP1 where UP0 may hold is one, at the
/// reader, and a comparison of a register written under no guard is still flagged itself.
#[test]
fn a_comparison_of_a_value_one_arm_wrote_is_flagged_where_its_predicate_is_read_outside_the_arm() {
    let head = "/*0000*/ S2UR UR4, SR_CTAID.X ;\n/*0010*/ UISETP.GT.AND UP0, UPT, UR4, 0x200000, UPT ;\n\
        /*0020*/ @!UP0 UIADD3 UR5, UR4, -UR4, URZ ;\n/*0030*/ UISETP.LT.U32.AND UP1, UPT, UR5, 0x20, UPT ;\n";
    let sel = |s: &str| flagged(&format!("{head}/*0040*/ {s} ;\n/*0050*/ @UP0 UMOV UR5, URZ ;\n/*0060*/ EXIT ;\n"));
    assert_eq!(sel("@!UP0 USEL UR4, UR5, 0x20, !UP1"), Vec::<String>::new());
    assert_eq!(sel("USEL UR4, UR4, 0x20, !UP1"), ["0040: UP1"]);
    assert_eq!(sel("@UP0 USEL UR4, UR4, 0x20, !UP1"), ["0040: UP1"]);
    // UR6 written nowhere: the comparison itself reads it.
    let never = head.replace("UIADD3 UR5, UR4, -UR4, URZ", "UIADD3 UR5, UR6, -UR4, URZ");
    // (The add carries UR6's undefined bits into UR5: the comparison reads them on every path.)
    assert_eq!(flagged(&format!("{never}/*0040*/ @!UP0 USEL UR4, UR5, 0x20, !UP1 ;\n")), ["0030: UR5"]);
    let unguarded = "/*0000*/ UISETP.LT.U32.AND UP1, UPT, UR5, 0x20, UPT ;\n/*0010*/ USEL UR4, UR4, 0x20, !UP1 ;\n";
    assert_eq!(flagged(unguarded), ["0000: UR5"]);
}

/// Seed 4803's 818a0df7 (trace/T19v5.md): a factor ptxas holds in a register whose low half is
/// known zero (`IMAD.MOV.U32 R9, RZ, RZ, -0x10000`) makes the product of a half-merged R0 need
/// only R0's low half, as the same immediate factor does; the compare of the result reads no
/// undefined bit (it was flagged before). A factor with a low bit that may be set stays flagged.
#[test]
fn a_register_factor_with_known_low_zeros_needs_only_the_low_bits() {
    let sass = "/*0000*/ S2R R3, SR_TID.X ;\n/*0010*/ IMAD.MOV.U32 R9, RZ, RZ, -0x10000 ;\n\
        /*0020*/ PRMT R0, R3, 0x7632, R0 ;\n/*0030*/ IMAD R0, R0, R9, 0x3f ;\n\
        /*0040*/ ISETP.GT.U32.AND P0, PT, R0, 0xffff, PT ;\n/*0050*/ EXIT ;\n";
    assert_eq!(flagged(sass), Vec::<String>::new());
    let odd = sass.replace("-0x10000", "-0xffff");
    assert_eq!(flagged(&odd), ["0040: R0"]);
}
