//! Root cause G's unpack form (`zero-extended-high-half-read-as-the-value`) widened after
//! session 43's traces (helper y3; corpus/findings/fuzz-h200-4302/trace/T14x3.md, 1b724026;
//! corpus/findings/fuzz-h200-4303/trace/T14x3.md, aeb796d5): the queries
//! [`fuzz3802::unpacked`](super::fuzz3802::unpacked) asks.
//!
//! - [`sign_extension_of_a_byte_in_place`]: a sign extension from 16 bits of a byte ptxas
//!   knows is zero-extended in its register (bit 15 known 0) is a no-op to ptxas, so the value
//!   stays in place as for a zero extension.
//! - [`words_of_a_pack`]: a `mov.b64` unpack of a `mov.b64 {w0, w1}` pack is, per 32-bit word,
//!   the 32-bit unpack of that word (the pack keeps w0 and w1 in their own registers).
//!
//! Invariants: queries only; they never change an origin or a value.

use super::fuzz3602::unchanged_between;
use super::fuzz3701::last_writer;
use super::j_branch_known_values;
use crate::isa::operand::Operand;
use crate::isa::types::MemType;
use crate::isa::{CvtType, Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// Whether the statement at body index `k` leaves a zero-extended byte in its register as it
/// was loaded: an unguarded scalar `ld.{u8,b8}` (§9.7.9.8: bit-size types zero-extend as
/// unsigned ones do), or an unguarded `cvt.u16.u8` (no `.sat`) of one (§9.7.9.21: a no-op on a
/// byte already zero-extended; compiled by helper y3 with 13.0.88 -O3: `ld.u8; cvt.u16.u8;
/// cvt.s64.s16; mov.b64 {_, h3, _, _}` is `LDG.E.U8 R3; STG.E.S8 R3`). A `cvt.u16.u8` of an
/// `ld.u16` (1b724026's `v8_cvt_u16_u8`: `LOP3 0xff; PRMT 0x7632`) and a `cvt.rni.u8.f32`
/// (y3: `F2IP.U8; LOP3 0xff; PRMT 0x7632`) are right: ptxas computes the mask and extracts.
fn byte_load_in_place(m: &Machine<'_>, k: usize, depth: usize) -> bool {
    match &m.p.body[k] {
        Stmt::Isa(Instruction { form: Form::Ld(l), guard: None, .. }) => {
            l.vec.is_none() && matches!(l.ty, MemType::U8 | MemType::B8)
        }
        Stmt::Isa(Instruction { form: Form::Cvt(c), operands, guard: None, .. }) => {
            let no_op = c.dtype == CvtType::U16 && c.atype == CvtType::U8 && !c.sat && c.rnd.is_none();
            let source = operands.get(1).and_then(|o| m.reg_of(o).ok());
            no_op
                && depth == 0
                && source.and_then(|x| last_writer(m, k, x)).is_some_and(|(j, _)| byte_load_in_place(m, j, depth + 1))
        }
        _ => false,
    }
}

/// G through a sign extension of a byte (corpus/findings/fuzz-h200-4302/trace/T14x3.md,
/// 1b724026, and `trace/1b724026/`): whether register `r` of thread `t` holds
/// `cvt.{s32,s64,u32,u64}.s16` (no `.sat`) of a zero-extended byte left in place
/// ([`byte_load_in_place`]). Bit 15 of the source is 0, so the sign extension (§9.7.9.21) is a
/// zero extension ptxas drops, and a `mov.b64`/`mov.b32` unpack with the low half unobserved
/// reads the high half as the value: `ld.global.u8; cvt.s64.s16; mov.b64 {_, h3, _, _}` is
/// `LDG.E.U8 R3; STG.E.S8 R3` (13.0.88 and 13.5 -O3, `reduced.ptx`), and so are `v1_hinted_load`,
/// `v5_s32_b32unpack` (`cvt.s32.s16`, `{_, h}`), `v6_ld_b8`, `v7_u64_s16`. Right: `v2_ld_u16`
/// (bit 15 may be set: `PRMT 0x9910`), `v3_cvt_s64_s8_of_u8` (bit 7 is extended: `PRMT
/// 0x8880`), `v8_cvt_u16_u8` (of an `ld.u16`). The unpack's own conditions (`v4_h0_read_too`
/// right) are the caller's.
pub(super) fn sign_extension_of_a_byte_in_place(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    let Some((Stmt::Isa(Instruction { form: Form::Cvt(c), operands, guard: None, .. }), o)) = m.producer(t, r) else {
        return false;
    };
    let widening = matches!(c.dtype, CvtType::U32 | CvtType::S32 | CvtType::U64 | CvtType::S64);
    let source = operands.get(1).and_then(|x| m.reg_of(x).ok());
    let byte = source.and_then(|x| last_writer(m, o.stmt, x)).is_some_and(|(k, _)| byte_load_in_place(m, k, 0));
    widening && c.atype == CvtType::S16 && !c.sat && c.rnd.is_none() && byte
}

/// G through a 64-bit pack (corpus/findings/fuzz-h200-4303/trace/T14x3.md, aeb796d5, and
/// `trace/aeb796d5/`): for the `mov.b64` unpack at body index `at` of register `d`, the body
/// index of the unguarded pack and its words `[w0, w1]`: the unguarded `mov.b64 d, {w0, w1}` (§9.7.9.4) that last wrote `d`, when d's
/// value is observed by this unpack alone (plain copies followed) and neither word is written
/// between the pack and the unpack (a word that is no register is `None`). ptxas keeps each
/// word in its own register, so the unpack's elements of word k are a 32-bit unpack of w_k:
/// `cvt.u32.u16 r1; mov.b64 d1, {0, r1}; mov.b64 {_, _, _, h14}, d1` is `LDG.E.U16 R3; STG.E.U8
/// R3` (13.0.88 and 13.5 -O3, `reduced.ptx`), and so are `v3_loaded_low` (a loaded low word) and
/// `v4_value_low_word` (`{r1, 0}`, h12 read). Right: `v2_h13_read_too`.
pub(super) fn words_of_a_pack(m: &Machine<'_>, at: usize, d: Reg) -> Option<(usize, [Option<Reg>; 2])> {
    let (k, s) = last_writer(m, at, d)?;
    let Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) = s else { return None };
    let Some(Operand::Vector(words)) = operands.get(1).filter(|_| mv.shape == MovShape::Pack(2)) else {
        return None;
    };
    if words.len() != 2 || !j_branch_known_values::observed_only_by(m, k, d, at) {
        return None;
    }
    let word = |i: usize| words.get(i).and_then(|o| m.reg_of(o).ok());
    let unchanged = (0..2).all(|i| word(i).is_none_or(|w| unchanged_between(m, w, k, at)));
    unchanged.then(|| (k, [word(0), word(1)]))
}

/// G through a truncation to 32 bits (seed 5802's 06f453ea, corpus/findings/fuzz-h200-5802/trace/
/// T58C.md and trace/06f453ea/s58/): whether register `r` of thread `t` holds a bare
/// `cvt.{u32,s32}.{u64,s64}` (§9.7.9.21: the low word) of a 64-bit register `kept` takes as a
/// zero extension ptxas keeps in place, read by that `cvt` alone (plain copies followed). The
/// low word stays where it was, so the unpack's high half is read as the value as for the
/// 64-bit register's own unpack: `ld.global.b8 h0; cvt.s64.s16 d0, h0; cvt.s32.u64 r2, d0;
/// mov.b32 {_, h1}, r2` is `LDG.E.U8 R3; STG.E.U16 R3` (13.0.88 and 13.5 -O3; spec 0), and so are
/// `cvt.u32.u64` (v7), `cvt.s32.s64` (v24), `ld.u16; cvt.u64.u16` (v21), an `ld.u8` into the
/// 64-bit register (v23). Right: d0 also stored (v20: `PRMT 0x7632`), `cvt.sat.s32.u64` (v25).
pub(super) fn truncation_of_a_kept_extension(m: &Machine<'_>, t: u32, r: Reg, kept: impl Fn(Reg) -> bool) -> bool {
    let Some((Stmt::Isa(Instruction { form: Form::Cvt(c), operands, guard: None, .. }), o)) = m.producer(t, r) else {
        return false;
    };
    let truncation = matches!(c.dtype, CvtType::U32 | CvtType::S32)
        && matches!(c.atype, CvtType::U64 | CvtType::S64)
        && !c.sat
        && c.rnd.is_none();
    let Some(wide) = operands.get(1).and_then(|x| m.reg_of(x).ok()).filter(|w| w.class().bits() == 64) else {
        return false;
    };
    // The 64-bit register still holds the value the cvt read, which nothing else observes.
    let unchanged = o.a_stmt.is_some() && m.producer(t, wide).map(|(_, w)| Some(w.stmt)) == Some(o.a_stmt);
    let only_here =
        last_writer(m, o.stmt, wide).is_some_and(|(k, _)| j_branch_known_values::observed_only_by(m, k, wide, o.stmt));
    truncation && unchanged && only_here && kept(wide)
}
