//! The emulation of 7ec10586's mechanism as a value (helper e1, session 42), called from the
//! glue hook of `emulate.rs` ([`glue`]): ptxas 13.0.88 and 13.5 -O3 test `xor.b16 m, lo, hi` of
//! the two halves of one `set` mask (0 or −1) as a 32-bit predicate over a half merge whose
//! upper half is stale or never written, and select x or ~x by it for `xor.b16 d, m, x`
//! (corpus/findings/fuzz-h200-3901/trace/T6C.md "7ec10586"; on the GPU as 1e6e819c,
//! fuzz-h200-4101/trace/T8x1.md, and 24d5ace8, fuzz-h200-4102/trace/T9y2.md).
//!
//! Where a register's value came from is read from the program's text: the last statement
//! before a reader that writes the register ([`mask_part`]), `mov` copies, packs and unpacks
//! followed back to a `set.<cmp>.{s32,u32}`. Branches are not followed (the last write in body
//! order is taken), as `emulate/high_half_of_max_s32_rejoined_after_an_arm.rs` does. Any pack some element of which holds
//! a part of the set's word carries that part on ([`MaskPart::Chunks`]), so its reader reads the
//! set: a half packed twice or beside another value (seed 4201's dc755789, e63ae4e6, 76cb49f0,
//! corpus/findings/fuzz-h200-4201/trace/T12a1.md, T12a2.md: `mov.b32 %r9, {%h8, %h8}` stored;
//! `v4_pack_hi_hi`, `v5_pack_with_other` the same).
//!
//! Invariants: [`glue`] changes only the result of an `xor.b16` one of whose sources holds the
//! value of an `xor.b16` of the low and the high half of one set's word, when some instruction
//! other than those two xors (and other than moves) reads that word or a half of it, and only
//! when its deviation is emulated; it then gives the spec's value or its 16-bit complement
//! (set-valued), never another value.

pub(super) mod or_halves;

use super::fuzz3602::writes;
use super::reg_of_glue;
use crate::isa::operand::{Operand, Role};
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, SetDst};
use crate::program::{Reg, Stmt};
use crate::semantics::{Allowance, Deviation, Expected};

/// How far [`mask_part`] follows moves back (the traced kernels need three: unpack, pack, set).
const MOVES_FOLLOWED: u32 = 8;

/// What a register holds of the word a `set` (at its body index) wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MaskPart {
    /// The whole 32-bit word of the set at this index.
    Word(usize),
    /// Half 0 (bits 0–15) or 1 (bits 16–31) of the word of the set at this index.
    Half(usize, u32),
    /// A 64-bit register whose low and high words are (`Some`) the word of the set at that index.
    Words([Option<usize>; 2]),
    /// A register of `len` 16-bit chunks (2 or 4), chunk k (from bit 16·k) being (`Some`) the half
    /// (0 or 1) of the word of the set at that index: a pack that is none of the above, such as a
    /// half packed twice or beside another value (`mov.b32 %r9, {%h8, %h8}`).
    Chunks { chunks: [Option<(usize, u32)>; 4], len: usize },
}

impl MaskPart {
    /// Whether it holds some of the word of the set at `k`.
    fn of(self, k: usize) -> bool {
        match self {
            MaskPart::Word(s) | MaskPart::Half(s, _) => s == k,
            MaskPart::Words(w) => w.contains(&Some(k)),
            MaskPart::Chunks { chunks, len } => chunks[..len].iter().any(|c| c.is_some_and(|(s, _)| s == k)),
        }
    }

    /// Its 16-bit chunks, low first: for each, the set (body index) and the half of its word.
    fn chunks(self) -> Vec<Option<(usize, u32)>> {
        match self {
            MaskPart::Word(s) => vec![Some((s, 0)), Some((s, 1))],
            MaskPart::Half(s, h) => vec![Some((s, h))],
            MaskPart::Words(ws) => ws.iter().flat_map(|w| [w.map(|s| (s, 0)), w.map(|s| (s, 1))]).collect(),
            MaskPart::Chunks { chunks, len } => chunks[..len].to_vec(),
        }
    }

    /// The part a register made of `chunks` (1, 2 or 4 of them) holds: the set's half or word,
    /// the 64-bit `Words` where each word is a set's word or none's, else `Chunks`; `None` where
    /// no chunk is a set's.
    fn of_chunks(chunks: &[Option<(usize, u32)>]) -> Option<MaskPart> {
        let word = |lo: Option<(usize, u32)>, hi: Option<(usize, u32)>| match (lo, hi) {
            (Some((s, 0)), Some((s2, 1))) if s == s2 => Some(Some(s)),
            (None, None) => Some(None),
            _ => None,
        };
        match chunks {
            _ if chunks.iter().all(Option::is_none) => None,
            [Some((s, h))] => Some(MaskPart::Half(*s, *h)),
            [lo, hi] if word(*lo, *hi).is_some_and(|w| w.is_some()) => word(*lo, *hi).flatten().map(MaskPart::Word),
            [a, b, c, e] if word(*a, *b).is_some() && word(*c, *e).is_some() => {
                Some(MaskPart::Words([word(*a, *b).flatten(), word(*c, *e).flatten()]))
            }
            [_, _] | [_, _, _, _] => {
                let mut all = [None; 4];
                all[..chunks.len()].copy_from_slice(chunks);
                Some(MaskPart::Chunks { chunks: all, len: chunks.len() })
            }
            _ => None,
        }
    }
}

/// `xor.b16 d, a, b` under 7ec10586's mechanism: `Some` (the spec's `result` or its 16-bit
/// complement, the deviation recorded as fired) where a source's value is the xor of the two
/// halves of one `set.<cmp>.{s32,u32}` word that another instruction reads too.
///
/// Evidence (ptxas 13.0.88 -O3; 13.5 the same listings): 1e6e819c's `reduced.ptx` (`set.ne.u32.s64
/// %r0; mov.b64 %d5, {%r0, %r0}; mov.b64 {%h2, %h3, %h4, %h5}, %d5; xor.b16 %h6, %h3, %h4; xor.b16
/// %h7, %h6, %h5; st.u8 %h7; st.u8 %h2`: `PRMT R0, R7, 0x7632, R0; LOP3.LUT P0, RZ, R0, R7, RZ,
/// 0x3c; @P0 LOP3.LUT R0, RZ, R0, RZ, 0x33`), `v4_set_s32`, `v6_st16`; 24d5ace8's `reduced.ptx`
/// (`mov.b64 %d5, {%r15, %r5}`, the set unpacked again by `mov.b32` and stored), `var/r1_v2b8`,
/// `v1_b32_unpack`, `v3_st16`, `v4_hi_stored_b16`; 7ec10586's `reduced` (an `add.u16` chain of
/// the halves), `v6_set32`, `v8_st16`; and this helper's variants (24d5ace8
/// `var/e1_variants.md`: `xor.b16 d, x, m`, the set's word stored whole as the other reader,
/// `set.lt.s32.s32`); the other reader a store of a pack `{lo, lo}`, `{hi, hi}` or `{lo, x}`
/// (dc755789 `reduced`, `v4_pack_hi_hi`, `v5_pack_with_other`; e63ae4e6, 76cb49f0). Right (not
/// emulated): `and.b16`
/// first (1e6e819c `v5_and`), one xor (`v3_one_xor`), a loaded word (`v2_loaded_word`,
/// 24d5ace8 `v2_loaded_not_set`), no other reader (dc755789 `v1_no_pack_store`, 1e6e819c
/// `v1_no_second_store`, 24d5ace8
/// `r3_no_other_reader`, 7ec10586 `v1_s32set`/`v3_st16`), the same half twice, `x ^ lo ^ hi`
/// in that order (a three-way `LOP3 0x96`), an `.f32` set. Seen wrong but not emulated (no GPU
/// word): `or.b16`/`and.b16` in place of the second xor (`SEL x, 0xffffffff, !P0`, `SEL x, RZ,
/// P0`) — emulated since session 50 by
/// [`or_and16_of_set_mask_halves_xor_as_predicate`](super::or_and16_of_set_mask_halves_xor_as_predicate).
pub(super) fn glue(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let d = Deviation::XorOfSetMaskHalvesTestedOverMergedHalf;
    if !m.allow.emulates(d) || g.op != GlueOp::Xor || g.ty != GlueType::B16 {
        return None;
    }
    if !result.is_exact() || !vals.iter().take(2).all(Expected::is_exact) {
        return None;
    }
    let halves_xor = (0..2).filter_map(|k| reg_of_glue(g, k)).find_map(|r| halves_xor_of(m, t, r))?;
    let (j, set) = halves_xor;
    if !read_elsewhere(m, set, j) {
        return None;
    }
    let v = result.bits & 0xFFFF;
    let to = Expected::exact(v, result.width).or_value(!v & 0xFFFF, Allowance::Undefined);
    Some(m.fire(d, result, to))
}

/// The body index of the `xor.b16` that made the value register `r` of thread `t` holds and
/// of the set whose word's two halves it xor-ed, when it is one.
pub(super) fn halves_xor_of(m: &Machine<'_>, t: u32, r: Reg) -> Option<(usize, usize)> {
    halves_op_of(m, t, r, GlueOp::Xor)
}

/// [`halves_xor_of`] for an `op.b16` (`xor.b16` there; `or.b16` for
/// [`or_halves`]) of the
/// low and the high half of one set's word.
pub(super) fn halves_op_of(m: &Machine<'_>, t: u32, r: Reg, op: GlueOp) -> Option<(usize, usize)> {
    let (Stmt::Glue { glue: x, .. }, o) = m.producer(t, r)? else { return None };
    if x.op != op || x.ty != GlueType::B16 {
        return None;
    }
    let j = o.stmt;
    let (a, b) = (reg_of_glue(x, 0)?, reg_of_glue(x, 1)?);
    match (mask_part(m, a, j, MOVES_FOLLOWED)?, mask_part(m, b, j, MOVES_FOLLOWED)?) {
        (MaskPart::Half(s, ha), MaskPart::Half(s2, hb)) if s == s2 && ha != hb => Some((j, s)),
        _ => None,
    }
}

/// The halves forms' value ([`or_halves::glue`] and the or/and form's,
/// [`or_and16_of_set_mask_halves_xor_as_predicate`](super::or_and16_of_set_mask_halves_xor_as_predicate)):
/// where source `k` of the 16-bit logic op `g` holds the halves op at body index `j` of the set at
/// `set`, and a statement other than that op, moves and the later readers of `g`'s destination
/// reads the set too, the spec's `result` or `g` with that source read as 0xffff (the stale upper
/// half of the merged register), the deviation recorded as fired; `None` elsewhere.
pub(super) fn stale_half_read_as_all_ones(
    m: &mut Machine<'_>,
    g: &Glue,
    (k, j, set): (usize, usize, usize),
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    let d = Deviation::XorOfSetMaskHalvesTestedOverMergedHalf;
    let dst = g.dst;
    let here = m.stmt;
    // A statement after this one reading d before d is written again (its own chain).
    let reads_d = |i: usize| {
        i > here && read_registers(&m.p.body[i]).contains(&dst) && !m.p.body[here + 1..i].iter().any(|s| writes(s, dst))
    };
    if !read_elsewhere_but(m, set, j, &reads_d) {
        return None;
    }
    let x = vals.get(1 - k)?.bits as u64 & 0xFFFF;
    let other = u128::from(g.eval([0xFFFF, x, 0, 0], false) & 0xFFFF);
    let to = Expected::exact(result.bits & 0xFFFF, result.width).or_value(other, Allowance::Undefined);
    Some(m.fire(d, result, to))
}

/// Whether a statement other than the halves' xor `j` and the one being run, and not a `mov`,
/// reads the word of the set at `set` or a part of it (directly or through moves and packs).
fn read_elsewhere(m: &Machine<'_>, set: usize, j: usize) -> bool {
    read_elsewhere_but(m, set, j, &|_| false)
}

/// [`read_elsewhere`] not counting the statements `skip` names (by body index).
pub(super) fn read_elsewhere_but(m: &Machine<'_>, set: usize, j: usize, skip: &dyn Fn(usize) -> bool) -> bool {
    let body = &m.p.body;
    (set + 1..body.len()).filter(|&i| i != j && i != m.stmt && !skip(i) && !is_move(&body[i])).any(|i| {
        read_registers(&body[i]).into_iter().any(|r| mask_part(m, r, i, MOVES_FOLLOWED).is_some_and(|p| p.of(set)))
    })
}

/// Whether `s` is a `mov` copy, pack or unpack (it moves the mask; ptxas drops it).
fn is_move(s: &Stmt) -> bool {
    matches!(s, Stmt::Isa(Instruction { form: Form::Mov(mv), .. })
        if matches!(mv.shape, MovShape::Copy | MovShape::Pack(_) | MovShape::Unpack(_)))
}

/// The registers statement `s` reads as sources (a glue source, an ISA source operand or a
/// vector element of one).
pub(super) fn read_registers(s: &Stmt) -> Vec<Reg> {
    match s {
        Stmt::Glue { glue, .. } => (0..glue.op.arity()).filter_map(|k| reg_of_glue(glue, k)).collect(),
        Stmt::Isa(i) => {
            let mut read = Vec::new();
            for (spec, o) in i.form.operands().iter().zip(&i.operands) {
                if spec.role == Role::Src {
                    let mut names = Vec::new();
                    crate::program::text::operand_regs(o, &mut names);
                    read.extend(names);
                }
            }
            read
        }
        Stmt::Bra { .. } | Stmt::Label(_) | Stmt::Bar => Vec::new(),
    }
}

/// What register `r` holds of a set's word at body index `at` (before it runs): its last writer
/// before `at` is an unguarded `set.<cmp>.{s32,u32}`, or a `mov` copy, pack or unpack of such
/// a value (followed back at most `depth` moves).
fn mask_part(m: &Machine<'_>, r: Reg, at: usize, depth: u32) -> Option<MaskPart> {
    let w = m.p.body[..at].iter().rposition(|s| writes(s, r))?;
    match &m.p.body[w] {
        Stmt::Glue { glue, guard: None }
            if glue.dst == r && matches!(glue.op, GlueOp::Set(_, SetDst::S32 | SetDst::U32)) =>
        {
            Some(MaskPart::Word(w))
        }
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) if depth > 0 => {
            moved_part(m, r, w, mv.shape, operands, depth - 1)
        }
        _ => None,
    }
}

/// What register `r` holds of a set's word after the `mov` at `w` (`shape`, `operands`) wrote it.
fn moved_part(
    m: &Machine<'_>,
    r: Reg,
    w: usize,
    shape: MovShape,
    operands: &[Operand],
    depth: u32,
) -> Option<MaskPart> {
    let part = |o: &Operand| m.reg_of(o).ok().and_then(|x| mask_part(m, x, w, depth));
    match (shape, operands) {
        (MovShape::Copy, [_, src]) => part(src).filter(|p| width_of(*p) == r.class().bits()),
        (MovShape::Unpack(n), [Operand::Vector(items), src]) => {
            let k = items.iter().position(|o| m.reg_of(o).ok() == Some(r))?;
            let chunks = part(src)?.chunks();
            let per = chunks.len() / n as usize;
            (per > 0 && per * 16 == r.class().bits() as usize)
                .then(|| MaskPart::of_chunks(chunks.get(k * per..(k + 1) * per)?))
                .flatten()
        }
        // Any pack of which some element is (a part of) a set's word: a half packed twice or
        // beside an unrelated value reads the set as a proper pack does (dc755789, e63ae4e6).
        (MovShape::Pack(_), [_, Operand::Vector(items)]) => {
            let mut chunks = Vec::new();
            for o in items {
                let bits = m.reg_of(o).ok().map_or(0, |x| x.class().bits() as usize);
                match part(o) {
                    Some(p) if width_of(p) as usize == bits => chunks.extend(p.chunks()),
                    _ => chunks.extend(std::iter::repeat_n(None, bits / 16)),
                }
            }
            (chunks.len() * 16 == r.class().bits() as usize).then(|| MaskPart::of_chunks(&chunks)).flatten()
        }
        _ => None,
    }
}

/// The width in bits of a register holding `p`.
fn width_of(p: MaskPart) -> u32 {
    match p {
        MaskPart::Word(_) => 32,
        MaskPart::Half(..) => 16,
        MaskPart::Words(_) => 64,
        MaskPart::Chunks { len, .. } => 16 * len as u32,
    }
}
