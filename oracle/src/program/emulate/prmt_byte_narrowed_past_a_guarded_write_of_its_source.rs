//! 7a05c905 (helper e2, session 55;
//! `corpus/known/fuzz-h200-5403-7a05c905-prmt-byte-narrowed-past-a-guarded-write-of-its-source.toml`),
//! called from the `cvt` hook of `emulate.rs` ([`super::isa`]) at the second narrowing
//! ([`cvt`]): ptxas 13.0.88 and 13.5 -O3 (and the JIT) forward `cvt.{u16,s16}.{s32,u32} h0, r1`
//! of `prmt.b32 r1, a, b, c` and a later zero-extending `cvt.<int>.u8 h3, h0` to one byte extract
//! of the prmt source x the byte comes from (`PRMT R6, RZ, 0x7, R0`; from a `PRMT R6, R0, 0x7773,
//! RZ`), placed at the second cvt — after a guarded write of x between the two, predicated in
//! place in x's register (`@!P0 PRMT R0, R7, 0x6a74fc6a, R0`, `@!P0 VIADD R0, R0, 0x1`): h3 is the
//! byte of x as it is at the second cvt, where §9.7.9.7 (`prmt`) and §9.7.9.21 (`cvt`) give the
//! byte of r1, made from x before the write.
//!
//! Evidence (corpus/findings/fuzz-h200-5403/, 7a05c905, trace/T54S.md; trace/7a05c905/ with its
//! s54/ and s55/ variants (13.0.88 and 13.5 -O3 listings, alike; READMEs there)).
//! Wrong: the case (`cvt.u16.s32` of `prmt.b32 r1, %tix, x, c`, c 0xf176efe7 moved into r1's
//! register, then `@p prmt.b32 x, r1, x, r2`, then `cvt.s16.u8`), s54 u2 (the write `@p add.u32
//! x, x, 1`); s55 x1 (`cvt.u16.u8` second), x2 (`cvt.u32.u8`), x11 (`cvt.s32.u8`), x4
//! (`cvt.u16.u32` first), x12 (`cvt.s16.s32`), x5 (the byte from a: nibble 3), x10 (byte 1 of b:
//! nibble 5), x8 (the sign of byte 3 of b, nibble 0xf: `PRMT R6, RZ, 0xf, R0`), x6 (`@!p`), x7 (c
//! an immediate), x13 (two guarded writes: the byte of x after both). Right: s54 u1 (the write
//! unguarded: x kept in another register), u5 (the write in a real branch arm), u6, u8, u9 (one
//! narrowing, or the narrowed value read, before the write), u4, u7 (no prmt), u10 (r1 read
//! whole); s55 x3 (`cvt.s16.s8` second: sign-extended, `PRMT 0x8880` before the write), x9 (the
//! write a guarded `ld`: a branch, the extract before it). s54 u3 (a guarded write of another PTX
//! register allocated to x's) is register allocation's and stays out.
//!
//! Scope (the wrong forms): the statement run is an unguarded `cvt.{u16,s16,u32,s32}.u8 h3, h0`;
//! h0 last written by an unguarded `cvt.{u16,s16}.{s32,u32} h0, r1`, r1 before that by an
//! unguarded generic `prmt.b32 r1, a, b, c` with c a constant
//! ([`constant_selector`]) whose byte-0 nibble names a byte (or its sign) of the register x = a
//! (nibble & 7 < 4) or b, x ≠ r1; x unwritten between the prmt and the first cvt; between the
//! first cvt and the second at least one write of x and each a guarded glue or `prmt`; no label,
//! branch or barrier from the prmt to the second cvt.
//!
//! Invariants: changes only the second cvt's destination, to the cvt (§9.7.9.21) of the byte
//! §9.7.9.7 selects from x's present value, only when the deviation is emulated and the scope
//! holds.

use super::convert;
use super::fuzz3602::writes;
use super::fuzz3702_conversions::{bare, constant_selector};
use crate::isa::{Cvt, CvtType, Form, Instruction, Prmt};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

const D: Deviation = Deviation::PrmtByteNarrowedPastAGuardedWriteOfItsSource;

/// The second cvt `inst` (`c`) being run, spec `spec`: the cvt of the byte of x's present value,
/// where the module's scope holds; `None` elsewhere.
pub(super) fn cvt(
    m: &Machine<'_>,
    t: u32,
    inst: &Instruction,
    c: Cvt,
    spec: &Expected,
) -> Option<(Deviation, Expected)> {
    let second = matches!(c.dtype, CvtType::U16 | CvtType::S16 | CvtType::U32 | CvtType::S32)
        && c == bare(c.dtype, CvtType::U8, false);
    if !m.allow.emulates(D) || inst.guard.is_some() || !second {
        return None;
    }
    let (x, nibble) = source_byte(m, t, m.stmt, reg(m, inst, 1)?)?;
    let now = m.read(t, x).ok().filter(Expected::is_exact)?.bits as u32;
    let byte = (now >> (8 * (nibble & 3))) & 0xFF;
    // §9.7.9.7: a nibble with its msb set replicates the byte's sign.
    let byte = if nibble & 8 == 0 { byte } else { 0xFF * (byte >> 7) };
    let v = convert(m, &inst.form, u128::from(byte))?;
    Some((D, crate::program::thread::extend(v, spec.width, c.dtype.is_signed_int())))
}

/// The register operand `k` of `i`.
fn reg(m: &Machine<'_>, i: &Instruction, k: usize) -> Option<Reg> {
    m.reg_of(i.operands.get(k)?).ok()
}

/// x and the byte-0 nibble of the prmt whose byte the second cvt at body index `k` (reading
/// `h0`) narrows, where the statements between fit the module's scope.
fn source_byte(m: &Machine<'_>, t: u32, k: usize, h0: Reg) -> Option<(Reg, u32)> {
    let body = &m.p.body;
    let last = |before: usize, r: Reg| body[..before].iter().rposition(|s| writes(s, r));
    let c1 = last(k, h0)?;
    let Stmt::Isa(first @ Instruction { form: Form::Cvt(fc), guard: None, .. }) = &body[c1] else { return None };
    let truncation = matches!(fc.dtype, CvtType::U16 | CvtType::S16)
        && matches!(fc.atype, CvtType::U32 | CvtType::S32)
        && *fc == bare(fc.dtype, fc.atype, false);
    let r1 = reg(m, first, 1)?;
    let q = last(c1, r1)?;
    let Stmt::Isa(p @ Instruction { form: Form::Prmt(Prmt { mode: None }), guard: None, .. }) = &body[q] else {
        return None;
    };
    let nibble = constant_selector(m, t, p, q)? & 0xF;
    let x = reg(m, p, if nibble & 7 < 4 { 1 } else { 2 })?;
    let one_block = !body[q..k].iter().any(|s| matches!(s, Stmt::Label(_) | Stmt::Bra { .. } | Stmt::Bar));
    let kept = !body[q + 1..=c1].iter().any(|s| writes(s, x));
    let x_writes: Vec<&Stmt> = body[c1 + 1..k].iter().filter(|s| writes(s, x)).collect();
    let guarded_in_place = !x_writes.is_empty()
        && x_writes.iter().all(|s| match s {
            Stmt::Glue { guard, .. } => guard.is_some(),
            Stmt::Isa(Instruction { form: Form::Prmt(_), guard, .. }) => guard.is_some(),
            _ => false,
        });
    (truncation && x != r1 && one_block && kept && guarded_in_place).then_some((x, nibble))
}
