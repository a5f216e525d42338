//! 3701-N-D widened by seed 4302's traces (helper y2, session 43; seed 6203's, helper ma, session 62;
//! `corpus/known/fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half.toml`), called from
//! `emulate/merge_c_in_place.rs`: more forms of the half `h` whose register ptxas builds
//! the e4m3x2/e5m2x2 pair in, in place.
//!
//! - [`float_to_u8_half`]: h written by a float-to-`u8` `cvt`, which ptxas compiles as the
//!   conversion then `LOP3.LUT R, R0, 0xff` (a fresh one-instruction ALU result, the entry's
//!   mechanism). corpus/findings/fuzz-h200-4302/trace/T14x2.md, df316674: `cvt.rni.u8.f32 h1, 0`
//!   is `F2IP.U8.F32.NTZ R0; LOP3.LUT R4, R0, 0xff; F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C R4,
//!   R7, R7, R4` (13.0.88 and 13.5 -O3); its `v10_rzi_u8` (`F2IP.U8.F32.TRUNC`), `v11_rni_u8_f64`
//!   (`F2I.U8.F64`) alike; helper y2, 13.0.88 -O3 on `v10_rzi_u8`: `.rni.sat`, `.rzi.sat` of f32
//!   and `.rzi`, `.rmi`, `.rpi` of f64 alike. Right there (the pair built in the dead register
//!   of its own source, h's `R7` kept): f32 `.rmi`, `.rpi` and `.ftz` (`F2I.U8.FLOOR`, `F2I.FTZ`
//!   rather than `F2IP`), `.u8.f16` (`v12_rni_u8_f16`), `.s8.f32` (`v9_rzi_s8`: `PRMT 0x8880`),
//!   `.s16.f32` and `.u16.f64` (`v3_rzi_s16`, `v7_loaded_f64_u16`: `F2I.S16`/`F2I.U16`, h
//!   recovered by `PRMT 0x7632`).
//! - [`f16_to_u8_half`]: the same form from `.f16` (seed 5501's 9baa273a, helper t1, session 56;
//!   corpus/findings/fuzz-h200-5501/trace/T56A.md, variants trace/9baa273a/s56/): `cvt.rni.u8.f16
//!   h3, h0; …; mov.b32 r2, {pair, h3}; …; xor.b16 h17, h14, h3` is `F2I.U8.F16.NTZ R0, RZ; LOP3.LUT
//!   R0, R0, 0xff; F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R0, imm, R0; …; LOP3.LUT R5, R5, R0, RZ,
//!   0x3c` (13.0.88 and 13.5 -O3): the xor reads the pair. Wrong alike: a loaded source (`v1`),
//!   every integer rounding (`v3` `.rzi`, `v11_rmi`, `v11_rpi`), `.sat` (`v13`), an e5m2x2 pair of
//!   f32 with h read again by a `mov.b32 {h, h}` (`v9`), df316674's `v12` frame with a `mov.b32` or
//!   `st.shared.v2` pack (s56/README.md, x1, x2: `MERGE_C R7, R0, R0, R7`). Right: `.s8.f16` (`v4`:
//!   `PRMT 0x8880`, h recovered by `PRMT 0x7632`) and, kept out, a `.v4` store `{p, h, h, z}` packing h
//!   twice (df316674's `v12_rni_u8_f16`, x3: the pair built in another register, `MERGE_C R8, R8, R8,
//!   R7`).
//! - [`sat_u8_half`]: h written by an integer `cvt.sat.u8.{s8,u16,s16,u32,s32,u64,s64}`, which
//!   ptxas 13.0.88 compiles as the clamp (`ISETP`/`SEL`, `I2I.U8.S32.SAT`) then `LOP3.LUT R, R, 0xff`
//!   (seed 6203's ef36a487, helper ma, session 62; corpus/findings/fuzz-h200-6201/trace/T62A.md,
//!   variants in corpus/findings/fuzz-h200-6203/trace/ef36a487/s62/): `cvt.sat.u8.u64 h0, d0; mov.b32
//!   r2, {pair, h0}; mov.b32 r26, {h0, h0}` is `SEL R0, R9, 0xff, !P0; LOP3.LUT R0, R0, 0xff;
//!   F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R0, RZ, R0; PRMT R3, R0, 0x5410, R0` (r26 the pair twice:
//!   0x00ff0000 stored for 0x01fe00ff). Wrong alike (13.0.88 -O3): `.s64` (x01), `.u32` (x03), e5m2x2
//!   (x08), `.s32` (x11: `I2I.U8.S32.SAT; LOP3 0xff`), `.s16` (x12), `.u16` (x16), `.s8` (x17), an
//!   `.f32` pair (x15). Right: `.sat.s8` (x04, x06: `PRMT 0x8880`), `.sat.u16`/`.sat.s16` (x05, x07:
//!   no `LOP3`), h before the pair (x10), an f16 (x09). ptxas 13.5 -O3 is right for every `.sat.u8`
//!   (`VIMNMX.U32 R0, R0, 0xff` into another register, h recovered by `PRMT 0x7632`): emulated as the
//!   13.0.88 campaign backend compiles it.
//! - [`truncated_source`]: h written by `cvt.{u16,s16}.{u32,s32} h, r`, which costs no
//!   instruction (h is the low half of r's register), so the pack built in h's register
//!   destroys r too: r then holds the pack's word {pair, h}. corpus/findings/fuzz-h200-4302/
//!   trace/T14x1.md, 84d08552: `ld.global.u32 r4; cvt.u16.u32 h0, r4; mov.b32 r15, {pair, h0};
//!   xor.b32 r21, r15, r4` is `LDG.E R0; F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C R0, RZ, RZ, R0;
//!   MOV R0, R0; LOP3.LUT R7, R0, R0, RZ, 0x3c` (13.0.88 and 13.5 -O3: 0 where the spec's is
//!   0xcc447d07); `v1_store_r4_separately` (r4 stored as 0x7d070000), `v7_cvt_s16_s32`,
//!   `v8_cvt_u16_s32`, `v10_e4m3` alike. Right: `cvt.u8.u32` (`v4_cvt_u8`: a `LOP3` into a fresh
//!   register, r4's kept), `cvt.u16.u64` (`v5_cvt_u16_u64_right`), an unpack `mov.b32 {h0, h2},
//!   r4` (`v9_mov_unpack`).
//!
//! Invariant: each only names statements of exactly these forms, unguarded; the value r takes
//! is computed by the caller from the spec's pair and h (§9.7.9.4: the pack's word).

use super::fuzz3602::{unchanged_between, writes};
use crate::isa::types::VecWidth;
use crate::isa::{Cvt, CvtRnd, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// Whether `c` is a float-to-`u8` conversion ptxas compiles as the conversion then `LOP3 0xff`
/// into h's fresh register (module docs): `.rni`/`.rzi` (any `.sat`, no `.ftz`) of `.f32`, or any
/// integer rounding (any `.sat`) of `.f64`.
pub(super) fn float_to_u8_half(c: &Cvt) -> bool {
    let rounding = match c.atype {
        CvtType::F32 => !c.ftz && matches!(c.rnd, Some(CvtRnd::Rni | CvtRnd::Rzi)),
        CvtType::F64 => matches!(c.rnd, Some(CvtRnd::Rni | CvtRnd::Rzi | CvtRnd::Rmi | CvtRnd::Rpi)),
        _ => false,
    };
    c.dtype == CvtType::U8 && rounding && !c.relu && !c.satfinite
}

/// Whether `c` is an integer `cvt.sat.u8` of a wider or signed type (module docs): the clamp then
/// `LOP3 0xff` into h's fresh register (ptxas 13.0.88 -O3).
pub(super) fn sat_u8_half(c: &Cvt) -> bool {
    use CvtType::{S16, S32, S64, S8, U16, U32, U64};
    c.dtype == CvtType::U8
        && matches!(c.atype, S8 | U16 | S16 | U32 | S32 | U64 | S64)
        && c.sat
        && c.rnd.is_none()
        && !c.ftz
        && !c.relu
        && !c.satfinite
}

/// Whether `c`, h's writer, is a float-to-`u8` conversion from `.f16` (any integer rounding, any
/// `.sat`) that ptxas compiles as `F2I.U8.F16` then `LOP3 0xff` into h's fresh register and merges
/// the pair in place there, the pack at body index `k` not a `.v4` store (module docs).
pub(super) fn f16_to_u8_half(m: &Machine<'_>, k: usize, c: &Cvt) -> bool {
    let v4_store =
        matches!(&m.p.body[k], Stmt::Isa(Instruction { form: Form::St(st), .. }) if st.vec == Some(VecWidth::V4));
    c.atype == CvtType::F16
        && c.dtype == CvtType::U8
        && matches!(c.rnd, Some(CvtRnd::Rni | CvtRnd::Rzi | CvtRnd::Rmi | CvtRnd::Rpi))
        && !c.relu
        && !c.satfinite
        && !v4_store
}

/// The 32-bit register `r` whose low half is `h` where body index `k` reads it: h's last writer
/// before `k` is an unguarded `cvt.{u16,s16}.{u32,s32} h, r` (no `.sat`, no rounding: a
/// truncation costing no instruction), and no statement after it up to `k` (the pack included)
/// writes `r`.
pub(super) fn truncated_source(m: &Machine<'_>, k: usize, h: Reg) -> Option<Reg> {
    let (w, writer) = m.p.body[..k].iter().enumerate().rev().find(|(_, s)| writes(s, h))?;
    let Stmt::Isa(Instruction { form: Form::Cvt(c), operands, guard: None, .. }) = writer else { return None };
    let free = matches!(c.dtype, CvtType::U16 | CvtType::S16)
        && matches!(c.atype, CvtType::U32 | CvtType::S32)
        && c.rnd.is_none()
        && !c.ftz
        && !c.sat
        && !c.relu
        && !c.satfinite;
    let r = operands.get(1).and_then(|o| m.reg_of(o).ok()).filter(|r| r.class().bits() == 32 && *r != h)?;
    (free && unchanged_between(m, r, w, k + 1)).then_some(r)
}
