//! 3701-N-D widened by seed 4703's f788f578 (session 47, helper k3;
//! `corpus/known/fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half.toml`), called from
//! `destroyed` in `emulate/merge_c_in_place.rs`: a widening `cvt.{u32,s32,u64,s64}.{u16,s16} w,
//! h` of h BEFORE the pack, h a byte conversion `cvt.u8.<int>`, read after the pack, takes the
//! pair in its low half.
//!
//! Mechanism: h = `cvt.u8.u32` is `LOP3.LUT R7, R2, 0xff` (its register's bits 8–31 zero), so
//! ptxas makes the widening of h free (w's low word IS h's register) and reads it where w is
//! read, after the pack has merged the pair into that register.
//! corpus/findings/fuzz-h200-4703/trace/T18u4.md, f788f578: `cvt.u8.u32 h2, r0; cvt.s64.u16 d0,
//! h2; st.shared.v4.u16 {h1, h2, h2, h1}; cvt.u32.s64 r2, d0; mov.b32 {h9, h10}, r2; st.u16 h9`
//! is (13.0.88 and 13.5 -O3) `LOP3.LUT R7, R2, 0xff; F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C R2,
//! R2, R2, R7; IMAD.MOV.U32 R7, RZ, RZ, R2; STG.E.U16 [+0x6], R7` (the pair 0xfbfb, the spec
//! 0x0011); `v2_widen_after_pack` (already in scope as a read of h) the same listing;
//! `v3_cvt_u32_u16_before` (`cvt.u32.u16 r2, h2` stored whole: `MERGE_C R7, R2, R2, R7; MOV R7,
//! R7; STG.E [+0x4], R7`) and `s47/y1_cvt_s64_s16_sign_extending` (the byte's sign bit is 0)
//! alike.
//! Right: the 64-bit w read whole (`v4_cvt_s64_stored_whole`: d0 kept in R6:R7), h a free
//! truncation `cvt.u16.u32` (`s47/y2_cvt_u16_u32_half`: the widening is `LOP3.LUT R9, R6,
//! 0xffff` before the merge), h from `ld.u16` (`v5`, out of scope as a half), no pack (`v1`).
//!
//!
//! Session 57 (seed 5702's 2ca01739, helper h5; corpus/findings/fuzz-h200-5702/trace/T57E.md,
//! variants in trace/2ca01739/s57/): the widening may be from `.u8` (`cvt.{u32,s32,u64,s64}.u8`),
//! h may be an element of a `.v2`/`.v4` `.u8`/`.b8` load (`PRMT R5, R5, 0x7770, RZ`: bits 8–31
//! zero), and a 64-bit w may be read by a `mov.b64 {lo, hi}` unpack. `ld.shared.v2.b8 {h3, h0};
//! cvt.s64.u8 d5, h3; st.shared.v2.s16 [sh+16], {pair, h3}; mov.b64 {r9, r10}, d5; st.u32 r9` is
//! (13.0.88 = 13.5 -O3) `PRMT R5, R5, 0x7770, RZ; F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R5, RZ,
//! R5; IMAD.MOV.U32 R5, RZ, RZ, R5; STS [R0+0x10], R5; STG.E R5`: the GPU word 0x00660000 is the
//! pack's word {pair 0, h 0x66}, where the spec gives 0x66 — so w's low word is the whole word
//! MERGE_C leaves, h's value in bits 16–31 (`merge_c_in_place.rs` `PACK_WORD`; f788f578's stored
//! half is its low 16 bits, the pair, either way). Wrong alike: `cvt.u32.u8` (`w1`), `cvt.s32.u8`
//! (`w15`), r10 stored too (`w2`: r10 `RZ`, right; r9 wrong), `cvt.u32.s64` after the pack (`w5`),
//! `cvt.s64.u16` of the element (`w9`), `ld.global.v2.u8` (`w10`), f788f578's `cvt.u8.u32` h with
//! `cvt.s64.u8` (`w11`), a `mov.b32` pack (`w12`), `ld.shared.v4.b8` and `cvt.u64.u8` (`w14`).
//! Right: `cvt.s64.s8` (`w3`: `PRMT 0x8880` into another register), d5 stored whole (`w4`), a
//! scalar `ld.u8` h (`w6`), no pair (`w7`, `w8`), h first in the pack (`w13`).
//!
//!
//! Session 62 (seed 6201's d3a335ba, helper me; corpus/findings/fuzz-h200-6201/trace/T62E.md,
//! variants in trace/d3a335ba/s62/): the widening may come AFTER the pack ([`widened_after_pack`]):
//! it reads h's merged register whole, so w's low word is the pack's word {pair, h} (not the pair
//! zero-extended, as a 16-bit read of h after the pack is). `cvt.rni.u8.f16 h2, h1` (h1 a moved
//! 0x3f40); `mov.b32 r0, {pair, h2}; mov.b64 d0, {r0, r2}; cvt.u32.u8 r10, h2; mov.b64 {r13, r14},
//! d0; xor.b32 r20, r13, r10` is (13.0.88 = 13.5 -O3) `F2I.U8.F16.NTZ R0, 1.8125; LOP3.LUT R0, R0,
//! 0xff; F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C R0, RZ, RZ, R0; IMAD.MOV.U32 R0, RZ, RZ, R0;
//! LOP3.LUT R5, R0, R0, RZ, 0x3c` (0, spec 0x00020002). Wrong alike (w stored: `STG.E R5` of the
//! merged R5): `cvt.u32.u8` (`v1`), `cvt.u64.u8` and `cvt.s64.u16` (`v2`, `v16`: high word
//! `HFMA2.MMA R5, -RZ, RZ, 0, 0`), `cvt.u32.u16` (`v3`), `cvt.s32.u8` (`v13`), `cvt.s32.s16` (`v17`),
//! a loaded f16 (`v5`), h `cvt.u8.u32` (`v6`), e4m3x2 (`v9`), h an element of `ld.v2.u8` (`v15`),
//! `cvt.rni.u8.f32` (`v20`), a `mov.b64` pack (`v21`). Right (as emulated before): `cvt.s32.s8`
//! (`v4`: `PRMT R4, R0, 0x8880`, the pair's byte), `cvt.u16.u8` (`v11`, a 16-bit read: the pair),
//! h `add.u16` of a load (`v14`: `LOP3 0xffff`, the pair); right by the spec: no pack (`v8`), h first
//! (`v10`), a scalar `ld.u8` h (`v18`, rebuilt by `PRMT 0x7632`), the pack dead (`v19`: dropped, h
//! kept). Left out (wrong, no rule here): a
//! `st.v2.b16` pack (`v12`, no register holds the pack's word to read back), h `xor.b16` of a
//! `ld.u16` and an immediate (`v7`, ptxas knows its bits 16–31 are zero; not a byte conversion).
//!
//! Invariants: decides which registers change only (the pack, the widening and h's byte `cvt` or
//! load unguarded; h and w unwritten between the widening and the pack; a 64-bit w read after the
//! pack only by `cvt`s to 32 bits or fewer and `mov` unpacks); the value (w's low word the pack's
//! word {pair, h}, its high word as it was) is written by `merge_c_in_place.rs`. After the pack,
//! [`widened_after_pack`] changes only the widening's low word, to the pack's word read back from
//! the `mov` pack's destination, unwritten since (§9.7.9.4: the spec's word).

use super::fuzz3602::unchanged_between;
use super::fuzz3701::last_writer;
use super::merge_c_half_of_u8_cvt_or_truncation::{f16_to_u8_half, float_to_u8_half};
use super::merge_c_in_place::destroying_pack;
use super::origin::{reads_and_overwrites, value_readers};
use crate::isa::types::{MemType, VecWidth};
use crate::isa::{Cvt, CvtType, Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::{Reg, RegClass, Stmt};
use crate::semantics::{Deviation, Expected};

/// The destinations `w` of unguarded widening `cvt.{u32,s32,u64,s64}.{u16,s16} w, h` before the
/// unguarded pack at body index `k`, with `h` one of `merged` written by an unguarded
/// `cvt.u8.<int>`, `h` and `w` unwritten between the widening and the pack, and `w` read after
/// the pack (a 64-bit `w` only by narrowing `cvt`s) (module docs).
pub(super) fn widened(m: &Machine<'_>, k: usize, merged: &[Reg]) -> Vec<Reg> {
    if !matches!(m.p.body.get(k), Some(Stmt::Isa(Instruction { guard: None, .. }))) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (j, s) in m.p.body[..k].iter().enumerate() {
        let Stmt::Isa(Instruction { form: Form::Cvt(c), operands, guard: None, .. }) = s else { continue };
        let (Some(dst), Some(src)) = (operands.first(), operands.get(1)) else { continue };
        let (Ok(w), Ok(h)) = (m.reg_of(dst), m.reg_of(src)) else { continue };
        let in_scope = widening(*c)
            && h.class() == RegClass::B16
            && merged.contains(&h)
            && byte_cvt(m, j, h)
            && unchanged_between(m, h, j, k)
            && unchanged_between(m, w, j, k)
            && value_readers(m, k, w) > 0
            && (w.class().bits() == 32 || read_narrowed_only(m, k, w));
        if in_scope && !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// 3701-N-D at the widening `cvt` `inst` (`c`) being run in thread `t` (`results`, the spec's):
/// where its source h is a byte conversion ([`byte_cvt`], or a float-to-`u8` `cvt` of
/// `merge_c_half_of_u8_cvt_or_truncation.rs`) that an unguarded `mov` pack made since merged the
/// pair into, its low word is that pack's word {pair, h}, read from the pack's destination
/// unwritten since (module docs, session 62).
pub(super) fn widened_after_pack(
    m: &mut Machine<'_>,
    t: u32,
    c: Cvt,
    inst: &Instruction,
    mut results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    if !m.allow.emulates(d) || inst.guard.is_some() || !widening(c) {
        return results;
    }
    let Some(h) = inst.operands.get(1).and_then(|o| m.reg_of(o).ok()).filter(|h| h.class() == RegClass::B16) else {
        return results;
    };
    let Some(word) = merged_pack_word(m, t, h) else { return results };
    if let Some((_, e)) = results.first_mut() {
        let from = e.clone();
        let mut to = from.clone();
        to.replace(0, word);
        *e = m.fire(d, &from, to);
    }
    results
}

/// The pack's word {pair, h} (32 bits) in thread `t` where the 16-bit `h`, read by the statement
/// being run, was last written by a byte conversion and then merged into by the first unguarded
/// `mov` pack after that write that builds the pair beside it ([`destroying_pack`]), the pack's
/// destination read after it (a dead pack is dropped) and unwritten since.
fn merged_pack_word(m: &Machine<'_>, t: u32, h: Reg) -> Option<Expected> {
    let k = m.stmt;
    let (w, writer) = last_writer(m, k, h)?;
    let float_to_u8 = |pack| match writer {
        Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, .. }) => {
            float_to_u8_half(c) || f16_to_u8_half(m, pack, c)
        }
        _ => false,
    };
    let (pack, at) = (w + 1..k).find_map(|j| match destroying_pack(m, j, false) {
        Some((at, _, merged)) if merged == h => Some((j, at)),
        _ => None,
    })?;
    let Stmt::Isa(Instruction { form: Form::Mov(_), operands, .. }) = &m.p.body[pack] else { return None };
    let dst = operands.first().and_then(|o| m.reg_of(o).ok())?;
    let byte = byte_cvt(m, pack, h) || float_to_u8(pack);
    // A pack nothing reads is dropped, and h kept (`v19`: `LOP3.LUT R5, R0, 0x1234` of h's byte).
    let live = value_readers(m, pack, dst) > 0;
    let word = m.read(t, dst).ok()?.field(16 * at as u32, 32);
    (byte && live && unchanged_between(m, dst, pack, k)).then_some(word)
}

/// Whether `c` is a widening `cvt.{u32,s32,u64,s64}.{u8,u16,s16}` (no `.sat`): of a byte-converted
/// h, a free read of its whole register.
fn widening(c: Cvt) -> bool {
    matches!(c.atype, CvtType::U8 | CvtType::U16 | CvtType::S16)
        && matches!(c.dtype, CvtType::U32 | CvtType::S32 | CvtType::U64 | CvtType::S64)
        && !c.sat
}

/// Whether the last writer of `h` before body index `j` is an unguarded `cvt.u8.<int>` (a mask
/// by 0xff: its register's bits 8–31 are zero) or an unguarded `.v2`/`.v4` `.u8`/`.b8` load
/// (an element extracted by `PRMT 0x777x`, zero-extended: seed 5702's 2ca01739).
fn byte_cvt(m: &Machine<'_>, j: usize, h: Reg) -> bool {
    match last_writer(m, j, h) {
        Some((_, Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, .. }))) => {
            c.dtype == CvtType::U8 && c.atype.is_int() && !c.sat
        }
        Some((_, Stmt::Isa(Instruction { form: Form::Ld(l), guard: None, .. }))) => {
            matches!(l.ty, MemType::U8 | MemType::B8) && matches!(l.vec, Some(VecWidth::V2 | VecWidth::V4))
        }
        _ => false,
    }
}

/// Whether every statement after body index `k` reading the 64-bit `w` (until it is
/// overwritten) is an integer `cvt` to 32 bits or fewer (which reads w's low word) or a `mov`
/// unpack of it (its low word the merged register, its high word zero: seed 5702's 2ca01739, `w2`).
fn read_narrowed_only(m: &Machine<'_>, k: usize, w: Reg) -> bool {
    for s in &m.p.body[k + 1..] {
        let (reads, overwrites) = reads_and_overwrites(s, w);
        let narrowing = match s {
            Stmt::Isa(Instruction { form: Form::Cvt(c), .. }) => {
                c.atype.is_int() && c.dtype.is_int() && c.dtype.bits() <= 32
            }
            Stmt::Isa(Instruction { form: Form::Mov(mv), .. }) => matches!(mv.shape, MovShape::Unpack(_)),
            _ => false,
        };
        if reads && !narrowing {
            return false;
        }
        if overwrites {
            break;
        }
    }
    true
}
