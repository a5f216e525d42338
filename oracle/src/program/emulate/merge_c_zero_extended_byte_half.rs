//! 3701-N-D widened by seed 5703's 9af9a4d8 (session 57, helper h6;
//! `corpus/known/fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half.toml`,
//! corpus/findings/fuzz-h200-5703/trace/T57F.md, variants in trace/9af9a4d8/s57/): h may be a
//! zero-extending byte `cvt` ([`zero_extended_byte_half`], asked by `merge_c_in_place.rs`'s
//! `pair_and_half`), and a later byte pack reads a byte of h's source as h ([`byte_pack`], called
//! from `merge_c_in_place::isa`).
//!
//! Mechanism (13.0.88 = 13.5 -O3): `cvt.u8.s8 h1, h0` of a 16-bit value that is no byte already is
//! `LOP3.LUT R7, R2, 0xff` into a fresh register, which the pair's pack `{pair, h1}` merges into in
//! place (`F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R7, RZ, R7`): h1 read after it is the pair
//! (s57 w1; w16 of an `xor.b16` of the load). ptxas also takes the zero extension of a byte `c`
//! of h1's source (the low byte of `mov.b16 {c, _}, u`, u the cvt's source through copies) to be
//! h1, so a byte pack `mov.b16 y, {x, c}` after the pair's pack is `PRMT R6, X, 0x6540, R7`: y's
//! byte 1 is the pair's low byte (the case: `{c0, c0}`, 0x002a where the spec gives 0x2a2a; w4
//! `{c1, c0}`). Wrong alike: `cvt.u8.u16` (w7), `cvt.u8.s16` (w12), `cvt.u16.u8` (w13), a `mov.b32`
//! pack (w9), e5m2x2 (w10), the unpack after the cvt (w18). Right: c at element 0 (w3: read from
//! the load), c widened alone (w2 `cvt.u32.u8`: its own `LOP3`), `cvt.s8.s8` (w6: `PRMT 0x8880`
//! elsewhere), `and.b16 0xff` (w14: two `LOP3`s), an f16 for the pair (w8), no pack (w11), h from
//! a byte load (w15: the cvt folded into `LDG.E.U8`, h recovered by `PRMT 0x7632`). Left out
//! (wrong): c of a second load of the same address (w17, the loads CSE'd).
//!
//! Invariants: queries and one byte of one pack's result; only when 3701-N-D is emulated and
//! every statement named is unguarded; the byte is the pair's low byte (§9.7.9.4 `mov` packs
//! element 1 as bits 8–15), read from the pair's register unchanged since its pack.

use super::fuzz3602::unchanged_between;
use super::fuzz3701::last_writer;
use super::fuzz3702_conversions::bare;
use super::merge_c_in_place::{computed_half, destroying_pack};
use crate::isa::operand::Operand;
use crate::isa::types::MemType;
use crate::isa::{Cvt, CvtType, Form, Instruction, Mov, MovShape};
use crate::program::exec::Machine;
use crate::program::{Reg, RegClass, Stmt};
use crate::semantics::{Deviation, Expected};

/// How many plain copies deep a source is followed to its producer (a bound, not a scope).
const COPIES: usize = 4;

/// Whether `c` (at body index `w`) is a zero-extending byte `cvt.u8.{s8,u16,s16}` /
/// `cvt.u16.u8` whose source, through plain copies, is a scalar 16-bit load or a computed 16-bit
/// half ([`computed_half`]): one `LOP3 … 0xff` into a fresh register (module docs; a byte load's
/// cvt is folded, w15).
pub(super) fn zero_extended_byte_half(m: &Machine<'_>, w: usize, c: &Cvt) -> bool {
    use CvtType::{S16, S8, U16, U8};
    let byte = [(U8, S8), (U8, U16), (U8, S16), (U16, U8)].into_iter().any(|(to, from)| *c == bare(to, from, false));
    byte && source(m, w).is_some_and(|(k, r)| sixteen_bit_value(m, k, r))
}

/// The byte pack being run (`results`, the spec's) under 3701-N-D: `mov.b16 y, {x, c}` with c the
/// low byte of an unpack of the source of a zero-extending byte `cvt` h ([`zero_extended_byte_half`])
/// that an earlier pair's pack merged into: y's byte 1 is the pair's low byte (module docs).
pub(super) fn byte_pack(
    m: &mut Machine<'_>,
    t: u32,
    mv: &Mov,
    inst: &Instruction,
    mut results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    if !m.allow.emulates(d) || inst.guard.is_some() || mv.shape != MovShape::Pack(2) {
        return results;
    }
    let Some(Operand::Vector(items)) = inst.operands.get(1) else { return results };
    let Some(c) = items.get(1).and_then(|o| m.reg_of(o).ok()).filter(|c| c.class() == RegClass::B8) else {
        return results;
    };
    let Some(pair) = merged_pair_of_byte(m, t, c) else { return results };
    let Some((_, word)) = results.first_mut().filter(|(y, _)| y.class().bits() == 16) else { return results };
    let from = word.clone();
    let mut to = from.clone();
    to.replace(8, pair.field(0, 8));
    *word = m.fire(d, &from, to);
    results
}

/// The pair (its value in thread `t`) whose pack merged it into a zero-extending byte cvt h whose
/// source's low byte the byte `c` is, where the statement being run reads `c`: c written last by
/// an unguarded `mov.b16 {c, _}, u` before a destroying pack whose h is such a cvt of a value of
/// u's producer; h and the pair unchanged from that pack to here.
fn merged_pair_of_byte(m: &Machine<'_>, t: u32, c: Reg) -> Option<Expected> {
    let here = m.stmt;
    let (j, unpack) = last_writer(m, here, c)?;
    let Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) = unpack else { return None };
    let Some(Operand::Vector(bytes)) = operands.first() else { return None };
    let low = bytes.first().and_then(|o| m.reg_of(o).ok()) == Some(c);
    let u = operands.get(1).and_then(|o| m.reg_of(o).ok())?;
    if mv.shape != MovShape::Unpack(2) || !low {
        return None;
    }
    let unpacked = root(m, j, u)?;
    (j + 1..here).find_map(|k| {
        let (_, p, h) = destroying_pack(m, k, false)?;
        let (w, cvt) = last_writer(m, k, h)?;
        let Stmt::Isa(Instruction { form: Form::Cvt(cv), guard: None, .. }) = cvt else { return None };
        let same = zero_extended_byte_half(m, w, cv) && source(m, w) == Some(unpacked);
        let kept = unchanged_between(m, h, k, here) && unchanged_between(m, p, k, here);
        (same && kept).then(|| m.read(t, p).ok()).flatten()
    })
}

/// The producer of the source of the `cvt` at body index `w`: its index and register, through
/// plain copies ([`root`]).
fn source(m: &Machine<'_>, w: usize) -> Option<(usize, Reg)> {
    let Stmt::Isa(Instruction { operands, .. }) = &m.p.body[w] else { return None };
    root(m, w, m.reg_of(operands.get(1)?).ok()?)
}

/// The statement that produced the value `r` holds where body index `at` reads it, and the
/// register it wrote, following unguarded `mov` copies of registers (at most [`COPIES`]).
fn root(m: &Machine<'_>, mut at: usize, mut r: Reg) -> Option<(usize, Reg)> {
    for _ in 0..=COPIES {
        let (w, s) = last_writer(m, at, r)?;
        match s {
            Stmt::Isa(Instruction {
                form: Form::Mov(Mov { shape: MovShape::Copy, .. }),
                operands,
                guard: None,
                ..
            }) => {
                let Some(from) = operands.get(1).filter(|o| !matches!(o, Operand::Imm(_))) else {
                    return Some((w, r));
                };
                (at, r) = (w, m.reg_of(from).ok()?);
            }
            _ => return Some((w, r)),
        }
    }
    None
}

/// Whether the statement at body index `k` writes `r` as a 16-bit value that is no byte already:
/// an unguarded scalar `ld.{b16,u16,s16}` (the case, w7, w12, w13) or computed 16-bit glue (w16).
fn sixteen_bit_value(m: &Machine<'_>, k: usize, r: Reg) -> bool {
    match &m.p.body[k] {
        Stmt::Isa(Instruction { form: Form::Ld(l), guard: None, .. }) => {
            l.vec.is_none() && matches!(l.ty, MemType::B16 | MemType::U16 | MemType::S16) && r.class().bits() == 16
        }
        Stmt::Glue { glue, guard: None } => computed_half(m, k, glue),
        _ => false,
    }
}
