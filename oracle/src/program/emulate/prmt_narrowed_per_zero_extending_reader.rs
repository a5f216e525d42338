//! 3702-N5 (`prmt-sign-of-a-narrowed-reads-zero`) widened to its mechanism (session 40, seeds
//! 3901 and 3902): ptxas 13.0.88 -O3 folds a zero extension of the low bytes of a `prmt.b32`
//! result into a copy of the `PRMT` narrowed to those bytes ([`narrowed_prmt`]: a dropped, a
//! byte naming the sign of a byte of a reads RZ's, 0). The fold is made per reader: each
//! zero-extending reader gets its own narrowed copy while every other reader (a store of the
//! word, an `add.u16` of its low half) keeps the whole `PRMT`; dead readers do not matter.
//!
//! Evidence (13.0.88 -O3; 13.5 keeps the `PRMT` and a `LOP3 0xffff`): c1fd74f1 (3901
//! trace/T6A.md: `cvt.s16.u32` read by `setp.ge.u16`), f1997773 (T6B.md: `cvt.u16.u32` read by
//! `setp.gt.u16`), afd53851 (T6B.md: `and 0xff` beside a dead `mov.b32`), a3caccc7 (3902
//! trace/T6E.md: `setp.eq.u16` of the low half of a `mov.b32` unpack), d605bf4d (T6D.md: `cnot.b16`
//! of that half), e99092f5 (T6D.md: `mul.{lo,hi}.u16` of it), fa039778 (T6D.md: `cvt.u8.s32`
//! beside a dead `cvt.rni.u16.f32`); and variants of d605bf4d compiled in session 40 (prmt
//! 0x959b): narrowed under `setp.{lt,ne}.{u16,b16}`, `set.lt.u32.u16`, `cnot.b16`,
//! `shr.{u16,b16}`, `mul.{lo,hi,wide}.u16`, `mad.{lo,hi}.u16` (the factors; `mad.lo.u16`'s addend
//! too: seed 6201's 28ffacaf), `cvt.{u32,s32,u64}.u16`,
//! `cvt.u8.{u16,s16}` and `cvt.{u16,s16,u32,s32,u64}.u8` (one byte; seed 5003's e7e92a13),
//! through `mov.b16` copies, `cvt.{u16,s16}.{u32,s32}` and beside a live store of the word or of
//! the half (a second, whole `PRMT`); kept whole under stores of the half,
//! `add`/`sub`/`xor`/`shl`/`min`/`max`/`and.b16` (`LOP3` of the whole `PRMT`; but `and.b16` 0xffff
//! or 0xff of a `cvt` truncation is narrowed: seed 5603's 20120274, [`and_b16_of_a_truncation`]),
//! signed readers
//! (`setp.*.s16`, `mul.lo.s16`, `shr.s16`, `cvt.s32.s16`: a sign extension `PRMT 0x9910`),
//! `cvt.rn.f32.u16` (`I2F.U16`), `cvt.sat.u16.u32`, the high half and byte unpacks of the word;
//! a `mov.b16 {c0, c1}` byte unpack of the narrowed half is narrowed (4001's 9e62a918, T7B.md).
//! Through 64 bits too (session 58): bare `cvt`s between 32 and 64 bits read by `cvt.u8.{u64,s64}`
//! or an `and.b64` mask (5802's b5cfdfb6, [`wide_or_back`]), a `cvt.{u16,s16}.{u64,s64}` of a
//! widening (5801's c8c7cdc4) and a 16-bit element of a `mov.b64` unpack of a `mov.b64` pack
//! (5802's 2f7d1698, [`through_64_bits`]), and the low word of such a pack truncated or read
//! itself (6202's 6a0d8362).
//!
//! Invariants: a reader's value changes only where one of its register sources is, through
//! plain copies, the low half of a 32- or 64-bit unpack, one `cvt` truncation to 16 bits, bare
//! `cvt`s between 32 and 64 bits or a `mov.b64` pack (and unpack) ([`reaching_prmt`]), the
//! result of a `prmt.b32` that is still its register's producer in this thread, and the reader
//! zero-extends the low bytes of that source ([`zero_extended_bytes`]); the value is the
//! reader's own semantics of the narrowed bytes.

use super::convert;
use super::fuzz3602::writes;
use super::fuzz3702_conversions::{bare, narrowed_prmt};
use super::imm_of;
use super::low_byte_of_an_unpack_narrowed_alone;
use crate::isa::operand::Operand;
use crate::isa::{Cvt, CvtType, Form, Instruction, Mov, MovShape, Prmt};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

mod and_b16_of_a_truncation;
mod through_64_bits;
mod wide_or_back;

/// The most copies, unpacks and truncations followed back from a reader to the `prmt`.
const MAX_LINKS: usize = 8;

/// 3702-N5 at a glue reader: `g`'s result (spec `result`, sources `vals`) with each register
/// source it zero-extends that a narrowed `prmt` reaches read as the narrowed bytes
/// (§9.7.9.7 for the `prmt`, the reader's own section for the rest).
pub(super) fn narrowed_prmt_glue_reader(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    let mut s = [0u64; 4];
    let mut narrowed_any = false;
    for (j, slot) in s.iter_mut().enumerate() {
        let val = vals.get(j);
        *slot = val.map_or(0, |v| v.bits as u64);
        // `and.b16` 0xffff/0xff of a 16-bit truncation too (seed 5603's 20120274).
        let bytes = zero_extended_bytes_glue(g, j).or_else(|| and_b16_of_a_truncation::bytes(m, t, g, vals, j));
        let (Some(Src::Reg(h)), Some(bytes)) = (g.src.get(j).copied().flatten(), bytes) else {
            continue;
        };
        let Some(word) = val.filter(|v| v.is_exact()) else { continue };
        if let Some(narrowed) = narrowed_source(m, t, h, bytes, word.bits as u32) {
            *slot = u64::from(narrowed);
            narrowed_any = true;
        }
    }
    if !narrowed_any || !vals.iter().all(Expected::is_exact) {
        return None;
    }
    let emulated = Expected::exact(u128::from(g.eval(s, false)), result.width);
    (&emulated != result).then_some(emulated)
}

/// 3702-N5 at a `cvt` reader (source value `a`): the conversion of the narrowed bytes where
/// the `cvt` zero-extends its source's low bytes (§9.7.9.21).
pub(super) fn narrowed_prmt_cvt_reader(
    m: &Machine<'_>,
    t: u32,
    inst: &Instruction,
    c: Cvt,
    a: &Expected,
) -> Option<Expected> {
    let bytes = zero_extended_bytes_cvt(c)?;
    if !a.is_exact() {
        return None;
    }
    let h = m.reg_of(inst.operands.get(1)?).ok()?;
    let narrowed = narrowed_source(m, t, h, bytes, a.bits as u32)?;
    convert(m, &inst.form, u128::from(narrowed)).filter(Expected::is_exact)
}

/// 3702-N5 at a byte unpack of a 16-bit register, `mov.b16 {c0, c1}, h` (§9.7.9.4): each byte
/// read as the narrowed `prmt`'s, h reached as for any reader ([`reaching_prmt`]; corpus/findings/
/// fuzz-h200-4001/, 9e62a918, trace/T7B.md: h the low half of a `mov.b32` unpack of the `prmt`,
/// 13.0.88 -O3 `PRMT R0, RZ, 0xaa, R4; SHF.R.U32.HI R0, RZ, 0x8, R0`, c1 and c0 (`v4_c1_low_byte`)
/// both narrowed; 13.5 right). A byte unpack of the word, `mov.b32 {c0, c1, c2, c3}` (`v1`), keeps
/// the whole `PRMT` (right) and is left alone. Where byte 1 names a byte of a by index, c0 alone
/// is narrowed (`emulate/low_byte_of_an_unpack_narrowed_alone.rs`, 4601's b6ac6d50). `results`
/// (the spec's, one per element) changed.
pub(super) fn narrowed_prmt_unpack_reader(
    m: &mut Machine<'_>,
    t: u32,
    mv: &Mov,
    inst: &Instruction,
    mut results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::PrmtSignOfANarrowedReadsZero;
    if !m.allow.emulates(d) || mv.shape != MovShape::Unpack(2) {
        return results;
    }
    let (Some(Operand::Vector(items)), Some(src)) = (inst.operands.first(), inst.operands.get(1)) else {
        return results;
    };
    let elements: Vec<Option<Reg>> = items.iter().map(|o| m.reg_of(o).ok()).collect();
    let Some(h) = m.reg_of(src).ok().filter(|h| h.class().bits() == 16) else { return results };
    let Some(word) = m.read(t, h).ok().filter(Expected::is_exact) else { return results };
    // Both bytes narrowed together, or c0 alone (`emulate/low_byte_of_an_unpack_narrowed_alone.rs`).
    let w = word.bits as u32;
    let Some((narrowed, narrowed_elements)) = narrowed_source(m, t, h, 2, w).map(|n| (n, 2)).or_else(|| {
        low_byte_of_an_unpack_narrowed_alone::low_byte_narrowed_alone(m, t, h, elements.first().copied().flatten(), w)
            .map(|n| (n, 1))
    }) else {
        return results;
    };
    for (i, e) in elements.iter().enumerate().take(narrowed_elements) {
        let Some((_, x)) = results.iter_mut().find(|(x, _)| Some(*x) == *e) else { continue };
        let from = x.clone();
        *x = m.fire(d, &from, Expected::exact(u128::from((narrowed >> (8 * i)) & 0xFF), from.width));
    }
    results
}

/// How many low bytes of source `j` glue `g` zero-extends (ptxas materializes `& 0xff…` that
/// the `PRMT` swallows): `and.b32` with 0xff, 0xffff or 0xffffff (1, 2, 3: 3702 trace `v5_and_ff`;
/// 3801's c3fdf7b6, trace/T4A.md, `PRMT R6, RZ, 0x96, R2` and `0x965`; a mask of byte 1 alone,
/// 0xff00, keeps the whole `PRMT` and its `LOP3`); the unsigned and
/// bit-typed 16-bit compares `setp`/`set` (`.u16`, `.b16`), `cnot.b16`, the shifted value of
/// `shr.{u16,b16}`, the factors of `mul`/`mad` `.u16` and the addend of `mad.lo.u16` (2: seed
/// 6201's 28ffacaf, corpus/findings/fuzz-h200-6201/trace/T62B.md, `mad.lo.u16 h5, 0, 0xaa7, h1`
/// of a moved 0 or, `s62/v2_addend_loaded_factor`, a loaded factor: `PRMT R7, RZ, 0xeb, R2`; the
/// addend of `mad.hi.u16`, `s62/v6`, is `LEA.HI` of the whole `PRMT`, and of `mad.lo.s16`, `v5`/`v8`,
/// `PRMT 0x9910`: right). Signed 16-bit readers sign-extend instead, and `add`, `sub`, logic ops,
/// `shl`, `min`/`max` read the whole `PRMT`.
fn zero_extended_bytes_glue(g: &Glue, j: usize) -> Option<u32> {
    let factor = matches!(
        g.op,
        GlueOp::MulLo | GlueOp::MulHi | GlueOp::MulWide | GlueOp::MadLo | GlueOp::MadHi | GlueOp::MadWide
    );
    match (g.op, g.ty) {
        (GlueOp::And, GlueType::B32) if j < 2 => match imm_of(g, 1 - j)? & 0xFFFF_FFFF {
            0xff => Some(1),
            0xffff => Some(2),
            0xff_ffff => Some(3),
            _ => None,
        },
        // `and.b64` of a widened `prmt` the same (seed 5802's b5cfdfb6 `v5_and_b64_ff`).
        (GlueOp::And, GlueType::B64) if j < 2 => wide_or_back::low_bytes_mask(imm_of(g, 1 - j)?),
        (GlueOp::Setp(_) | GlueOp::Set(..), GlueType::U16 | GlueType::B16) if j < 2 => Some(2),
        (GlueOp::Cnot, GlueType::B16) | (GlueOp::Shr, GlueType::U16 | GlueType::B16) if j == 0 => Some(2),
        (_, GlueType::U16) if factor && j < 2 => Some(2),
        (GlueOp::MadLo, GlueType::U16) if j == 2 => Some(2),
        _ => None,
    }
}

/// How many low bytes of its source a bare integer `cvt` zero-extends: `cvt.u8.{u16,s16,u32,s32}`
/// (1; 3702's 5bf2de82 and b9d3a4f3 `.s32`, 3802's 11115fa6 and 3596d932 `.u32`, `PRMT R7, RZ,
/// 0xb, R4`; `.{u16,s16}` session 40), `cvt.{u16,s16,u32,s32,u64}.u8` (1; §9.7.9.21 zero-extends
/// a `.u8` source whatever the destination: seed 5003's e7e92a13, corpus/findings/fuzz-h200-5003/
/// trace/T21e.md, `cvt.u16.u32; cvt.s16.u8` read by `setp.ge.s16`, 13.0.88 -O3 `PRMT R0, RZ, 0x9,
/// R2`; its `s50/` variants: every such destination, after the truncation or of the word itself)
/// and `cvt.{u32,s32,u64,s64}.u16` (2); `cvt.u8.{u64,s64}` (1) of a widened `prmt` (seed 5802's
/// b5cfdfb6, [`wide_or_back`]). `cvt.*.s8` (`s50/v_cvt_{s16,u16,s32}_s8_*`: the whole
/// `PRMT` and `0x8880`), a signed 16-bit or saturating source and a float destination are right.
fn zero_extended_bytes_cvt(c: Cvt) -> Option<u32> {
    let to_u8 = [CvtType::U16, CvtType::S16, CvtType::U32, CvtType::S32, CvtType::U64, CvtType::S64]
        .map(|a| bare(CvtType::U8, a, false));
    let of_u8 =
        [CvtType::U16, CvtType::S16, CvtType::U32, CvtType::S32, CvtType::U64].map(|d| bare(d, CvtType::U8, false));
    let of_u16 = [CvtType::U32, CvtType::S32, CvtType::U64, CvtType::S64].map(|d| bare(d, CvtType::U16, false));
    if to_u8.contains(&c) || of_u8.contains(&c) {
        Some(1)
    } else if of_u16.contains(&c) {
        Some(2)
    } else {
        None
    }
}

/// The low `bytes` bytes the reader being run sees in its source register `h` of thread `t`
/// (holding `word`) where a narrowed `prmt` reaches it ([`reaching_prmt`]), at most as many
/// bytes as the links between keep.
pub(super) fn narrowed_source(m: &Machine<'_>, t: u32, h: Reg, bytes: u32, word: u32) -> Option<u32> {
    let (r, kept) = reaching_prmt(m, t, h)?;
    narrowed_prmt(m, t, r, bytes.min(kept), word)
}

/// The `prmt.b32` destination register whose value reaches register `h` of the statement being
/// run, and how many low bytes of it the links keep: followed back through the unguarded
/// writers before it — `mov` copies, the low half of a `mov.b32 {lo, hi}` unpack (2 bytes), one
/// bare truncation to 16 bits, `cvt.{u16,s16}.{u32,s32}` or `cvt.{u16,s16}.{u64,s64}` (2 bytes;
/// [`through_64_bits::is_truncation_from_64`]), bare `cvt`s between 32 and 64 bits
/// ([`wide_or_back::keeps_the_word`], 4 bytes), a low-half element of a `mov.b64` unpack of a
/// `mov.b64 d, {e0, e1}` pack ([`through_64_bits`], 2 bytes; no `cvt` with it), or e0 of such a
/// pack read as `d` (by the reader or a truncation; no `cvt` before the pack) — to a `prmt.b32`
/// that is still that register's producer in thread `t` and, as the machine recorded, the
/// producer of `h`'s value (through each `cvt` link's, or the pack's).
fn reaching_prmt(m: &Machine<'_>, t: u32, h: Reg) -> Option<(Reg, u32)> {
    // The `cvt` links passed, latest first: each one's body index and the register it read.
    let (mut at, mut reg, mut kept, mut cvts) = (m.stmt, h, 4, Vec::<(usize, Reg)>::new());
    // A `mov.b64` unpack taken: the word (0 or 1) its element lies in, until its pack is met;
    // then the pack's body index.
    let (mut want_word, mut pack) = (None::<usize>, None::<usize>);
    for _ in 0..MAX_LINKS {
        let k = m.p.body.get(..at)?.iter().rposition(|s| writes(s, reg))?;
        let Stmt::Isa(i @ Instruction { guard: None, .. }) = &m.p.body[k] else { return None };
        let source = || m.reg_of(i.operands.get(1)?).ok();
        let unpacking = want_word.is_some() || pack.is_some();
        match &i.form {
            Form::Prmt(Prmt { mode: None }) if want_word.is_none() => {
                let produced = |r: Reg| m.producer(t, r).map(|(_, o)| (o.stmt, o.a_stmt));
                // Each link's result still holds what that link made of the next one's (h the first).
                let mut of_h = produced(reg).is_some_and(|(s, _)| s == k);
                let mut read = h;
                for (n, &(c, source)) in cvts.iter().enumerate() {
                    let next = cvts.get(n + 1).map_or(pack.unwrap_or(k), |&(c, _)| c);
                    of_h &= produced(read) == Some((c, Some(next)));
                    read = source;
                }
                if cvts.is_empty() {
                    of_h &= produced(h).is_some_and(|(s, _)| s == pack.unwrap_or(k));
                }
                return of_h.then_some((reg, kept));
            }
            // 3702-N5 through a 64-bit pack and unpack (seed 5802's 2f7d1698, `through_64_bits.rs`).
            Form::Mov(mv) if mv.shape == MovShape::Unpack(4) && !unpacking && cvts.is_empty() => {
                let (word, d) = through_64_bits::low_half_element(m, i, reg)?;
                (reg, kept, want_word) = (d, kept.min(2), Some(word));
            }
            Form::Mov(mv) if mv.shape == MovShape::Pack(2) && want_word.is_some() => {
                reg = through_64_bits::packed_word(m, i, want_word?)?;
                (pack, want_word) = (Some(k), None);
            }
            // The low word of a `mov.b64 d, {e0, e1}` pack read by a truncation or a byte reader of
            // `d` (seed 6202's 6a0d8362, `through_64_bits.rs`).
            Form::Mov(mv) if mv.shape == MovShape::Pack(2) && !unpacking && reg.class().bits() == 64 => {
                reg = through_64_bits::packed_word(m, i, 0)?;
                pack = Some(k);
            }
            Form::Mov(mv) if mv.shape == MovShape::Copy => reg = source()?,
            Form::Mov(mv) if mv.shape == MovShape::Unpack(2) => {
                let Some(Operand::Vector(items)) = i.operands.first() else { return None };
                let element = |n: usize| items.get(n).and_then(|o| m.reg_of(o).ok());
                if element(0) != Some(reg) || element(1) == Some(reg) {
                    return None;
                }
                (reg, kept) = (source()?, kept.min(2));
            }
            // One truncation to 16 bits, of a word or (seed 5801's c8c7cdc4: `cvt.s64.s32 d0, r1;
            // cvt.s16.s64 h3, d0`) of a 64-bit register.
            Form::Cvt(c)
                if !unpacking && is_link_truncation(*c) && !cvts.iter().any(|&(j, _)| truncates_to_16(m, j)) =>
            {
                (reg, kept) = (source()?, kept.min(2));
                cvts.push((k, reg));
            }
            // A 64-bit widening or a truncation back to 32 bits keeps the low 4 bytes (seed
            // 5802's b5cfdfb6: `cvt.u64.u32` of the prmt read by `cvt.u8.s64`).
            Form::Cvt(c) if !unpacking && wide_or_back::keeps_the_word(*c) => {
                reg = source()?;
                cvts.push((k, reg));
            }
            _ => return None,
        }
        at = k;
    }
    None
}

/// Whether the statement at body index `j` is a truncation to 16 bits ([`is_link_truncation`]).
fn truncates_to_16(m: &Machine<'_>, j: usize) -> bool {
    matches!(&m.p.body[j], Stmt::Isa(Instruction { form: Form::Cvt(c), .. }) if is_link_truncation(*c))
}

/// Whether `c` is a truncation link to 16 bits: [`is_truncation_to_16`] or a bare
/// `cvt.{u16,s16}.{u64,s64}` ([`through_64_bits::is_truncation_from_64`]).
fn is_link_truncation(c: Cvt) -> bool {
    is_truncation_to_16(c) || through_64_bits::is_truncation_from_64(c)
}

/// Whether `c` is a bare `cvt.{u16,s16}.{u32,s32}` (the register's low half, §9.7.9.21).
fn is_truncation_to_16(c: Cvt) -> bool {
    [CvtType::U16, CvtType::S16].iter().any(|&d| [CvtType::U32, CvtType::S32].iter().any(|&a| c == bare(d, a, false)))
}
