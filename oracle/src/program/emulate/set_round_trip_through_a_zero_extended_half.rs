//! 3301-N3 (`SetRoundTripFolded`: an integer cvt of a float cvt of a `set.{s32,u32}` result is
//! the set's word) where the float step is a half and its bits reach the last cvt through the
//! integer zero extension `cvt.{s32,u32}.u16`, read there as an f32. Seed 4901's fdd09fa7
//! (corpus/findings/fuzz-h200-4901/trace/T20.md; variants in trace/fdd09fa7/v/ with a README).
//!
//! The mechanism the listings show (ptxas 13.0.88 -O3; 13.5 the same): `set.eq.u32.u32 r1, tid,
//! 0; cvt.rn.f16.s32 h0, r1; cvt.s32.u16 r0, h0; cvt.rni.u16.f32 h0, r0` is `ISETP.EQ.U32 P0;
//! SEL R0, RZ, 0xffffffff, !P0; LOP3.LUT R0, R0, 0xffff` — no `I2F`, no `F2I`: the set's word cut
//! at the last cvt's type, where §9.7.9.21 converts −1 to f16 −1.0 (0xbc00), zero-extends it to
//! 0x0000bc00 and reads that as the f32 denormal 6.7e−41, which rounds to 0. Wrong alike: `.s16`
//! (v2: 0xffff), `.s32` (v6: −1), `.u8` (v23: 0x00ff) last cvts, a set of a load (v16), the
//! `.bf16` float step (v18), `cvt.u32.u16` with an `.s64` last cvt (v22: `SHF.R.S32.HI 0x1f`, the
//! word sign-extended as the float step's `.s32` source reads it — as the 3301-N3 rule in
//! `emulate.rs` extends it). Right (`I2F.F16 …; F2I` of the bits): a loaded, moved or `selp` −1
//! (v1, v5, v3, v7, v8–v12), `cnot` or `and 1` sources (v20, v21), a real `cvt.f32.f16` between
//! (v4: `HADD2.F32; F2I.U16`), no integer cvt last (v13–v15). Wrong but not emulated: the
//! `set.f32` as the first step (v17, 3301-N3's set.f32 form with a float destination between).
//!
//! Invariants: only when `SetRoundTripFolded` is emulated, the last cvt has an integer rounding,
//! an integer destination and an `.f32` source, its source was last written by an unguarded plain
//! `cvt.{s32,u32}.u16` of a half an unguarded float-rounding `cvt.{f16,bf16}.{s32,u32}` wrote,
//! whose source an unguarded integer `set` last wrote (straight-line: no label or branch between
//! the set and the half cvt). The value is at the last cvt's own width; the caller extends it.

use super::fuzz3602::writes;
use super::values;
use crate::isa::{Cvt, CvtRnd, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::Stmt;
use crate::semantics::{Deviation, Expected};

/// Whether `c` has no rounding, `.sat`, `.relu`, `.satfinite` or `.ftz`.
fn plain(c: &Cvt) -> bool {
    c.rnd.is_none() && !c.sat && !c.relu && !c.satfinite && !c.ftz
}

/// The set's word, cut at `c`'s type, for `cvt.<irnd>.<int>.<float> d, r` (`inst`) of `r =
/// cvt.{s32,u32}.u16 h` of `h = cvt.<frnd>.{f16,bf16}.{s32,u32} s` of a `set.<cmp>.{s32,u32}`
/// word s; `None` elsewhere.
pub(super) fn folded(m: &Machine<'_>, t: u32, inst: &Instruction, c: Cvt) -> Option<(Deviation, Expected)> {
    let d = Deviation::SetRoundTripFolded;
    let last = c.dtype.is_int() && c.rnd.is_some_and(CvtRnd::is_integer) && c.atype == CvtType::F32;
    if !m.allow.emulates(d) || !last {
        return None;
    }
    let (cz, oz) = m.cvt_producer(t, inst.operands.get(1))?;
    let widening = matches!(cz.dtype, CvtType::S32 | CvtType::U32) && cz.atype == CvtType::U16 && plain(&cz);
    let Stmt::Isa(Instruction { guard: None, .. }) = &m.p.body[oz.stmt] else { return None };
    if !widening {
        return None;
    }
    let k = oz.a_stmt?;
    let Stmt::Isa(Instruction { guard: None, form: Form::Cvt(ch), operands, .. }) = &m.p.body[k] else { return None };
    let half = matches!(ch.dtype, CvtType::F16 | CvtType::Bf16)
        && matches!(ch.atype, CvtType::S32 | CvtType::U32)
        && ch.rnd.is_some_and(CvtRnd::is_frnd)
        && !ch.sat
        && !ch.relu
        && !ch.satfinite
        && !ch.ftz;
    if !half {
        return None;
    }
    let s = operands.get(1).and_then(|o| m.reg_of(o).ok())?;
    let (set_at, _) = m.p.body[..k].iter().enumerate().rev().find(|(_, x)| writes(x, s))?;
    let straight = !m.p.body[set_at + 1..k].iter().any(|x| matches!(x, Stmt::Bra { .. } | Stmt::Label(_)));
    let unguarded = matches!(m.p.body[set_at], Stmt::Glue { guard: None, .. });
    if !straight || !unguarded || !values::is_integer_set(m, set_at) {
        return None;
    }
    let w = oz.a_a.as_ref().filter(|w| w.is_exact())?;
    let word = super::super::thread::extend(w.field(0, 32), 64, ch.atype.is_signed_int());
    Some((d, word.field(0, c.dtype.bits())))
}
