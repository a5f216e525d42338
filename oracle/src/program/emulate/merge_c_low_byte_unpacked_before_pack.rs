//! 3701-N-D widened by session 47's traces (helper g2;
//! `corpus/known/fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half.toml`), called from
//! `destroyed` in `emulate/merge_c_in_place.rs`: the low byte `c0` of a byte unpack `mov.b16 {c0,
//! c1}, h` BEFORE the pack, read after it, takes the pair's low byte.
//!
//! Mechanism: ptxas treats the unpack's low byte as free (c0 is h's register's byte 0) and
//! extracts it where it is read, after the pack has merged the pair into h's register.
//! corpus/findings/fuzz-h200-4601/trace/T17t2.md, cf023b23: `@p0 or.b16 h0, h0, 0x6e00` (of a
//! moved 0); `mov.b16 {c0, c1}, h0`; the e5m2x2 pair h1; `mov.b64 d0, {h1, h2, h1, h0}`; `mov.b16
//! h8, {c0, c0}` after it is (13.0.88 and 13.5 -O3) `SEL R0, RZ, 0x6e00, !P0;
//! F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C R0, R5, R5, R0; IMAD.MOV.U32 R0, RZ, RZ, R0; LOP3.LUT
//! R5, R0, 0xff; PRMT R5, R0, 0x6540, R5` (c0 = the pair's 0x82); its `reduced` (`mov.b32 r15,
//! {h1, h0}`) alike, and `v1_unpack_after_pack` (already in scope as a later read of h) the same
//! listing. Helper g2, 13.0.88 -O3 (trace/cf023b23/s47/): h an `xor.b16` of a loaded half
//! (`x3_xor_half_loaded`: `LOP3.LUT R0, R2, 0x5a; MERGE_C R0, R7, R7, R0; …; LOP3.LUT R7, R0,
//! 0xff`), c0 stored as a byte (`x4_c0_stored_byte`: `STG.E.U8 [+0x4], R5` of the merged R5), c0
//! also read before the pack (`x2_c0_read_before_too`: the early read takes h's byte, `STG.E.U8
//! [+0x6], R5`, the later one the merged word's, `LOP3.LUT R0, R5, 0xff` of `R5 = R7`) alike.
//! Right: the HIGH byte c1 read after (`x1_c1_read_after`: `SHF.R.U32.HI R4, RZ, 0x8, R0` before
//! the merge, the pair built in R5), `cvt.u8.u16` of h before the pack (`x6_cvt_u8_of_h_before`:
//! `LOP3.LUT R5, R0, 0xff` of the intact R0), h from `ld.u16` (`x5_ld_u16_h_right`, out of scope
//! as a half: `PRMT R0, R7, 0x7632, R0` recovers it), no pack (`v2_no_pack_right`).
//!
//! Invariants: decides which registers change only (the pack unguarded; the unpack unguarded,
//! h and c0 unwritten between it and the pack); the value (the pair's low byte, §9.7.9.4 `mov`
//! unpacks the low byte first) is written by `merge_c_in_place.rs`.

use super::fuzz3602::unchanged_between;
use super::origin::value_readers;
use crate::isa::operand::Operand;
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::{Reg, RegClass, Stmt};

/// The low bytes `c0` of unguarded byte unpacks `mov.b16 {c0, c1}, h` before the unguarded
/// pack at body index `k`, with `h` one of `merged` (the registers the pack merges the pair
/// into), `h` and `c0` unwritten between the unpack and the pack, and `c0` read after the pack
/// (module docs).
pub(super) fn low_bytes(m: &Machine<'_>, k: usize, merged: &[Reg]) -> Vec<Reg> {
    if !matches!(m.p.body.get(k), Some(Stmt::Isa(Instruction { guard: None, .. }))) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (j, s) in m.p.body[..k].iter().enumerate() {
        let Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) = s else { continue };
        if mv.shape != MovShape::Unpack(2) {
            continue;
        }
        let (Some(Operand::Vector(items)), Some(src)) = (operands.first(), operands.get(1)) else { continue };
        let (Some(c0), Ok(h)) = (items.first().and_then(|o| m.reg_of(o).ok()), m.reg_of(src)) else { continue };
        let in_scope = c0.class() == RegClass::B8
            && h.class() == RegClass::B16
            && merged.contains(&h)
            && unchanged_between(m, h, j, k)
            && unchanged_between(m, c0, j, k)
            && value_readers(m, k, c0) > 0;
        if in_scope && !out.contains(&c0) {
            out.push(c0);
        }
    }
    out
}
