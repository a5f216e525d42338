//! 3701-N-D: ptxas 13.0.88 and 13.5 -O3 (and the JIT) build a pack of an e4m3/e5m2 pair in
//! place in the register of the half packed beside it, while that half is still read
//! (`corpus/known/fuzz-h200-3701-nd-merge-c-in-place.toml`;
//! corpus/findings/fuzz-h200-3701/, c8681b22, trace/TC1.md; corpus/findings/fuzz-h200-3702/,
//! dc54c0ab, trace/T3A.md; corpus/findings/fuzz-h200-3801/, d03f820c and 536f1382,
//! trace/T4A.md, T4B.md; corpus/findings/fuzz-h200-3802/, d69964c3, f4025e70 and f33d36d7,
//! trace/T5C.md). Called from the `mov` hook of `emulate.rs` ([`isa`]) and from its
//! store hook ([`stored`]).
//!
//! Scope (the traces' variants): the pair `p` is `cvt.rn.satfinite.{e4m3x2,e5m2x2}.{f32,f16x2}`
//! of any sources (zeros: `F2FP…MERGE_C R7, RZ, RZ, R7` / `R7, RZ, R7`; a loaded word, d03f820c:
//! `F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C R7, R2, R2, R7`, its `v1_e4m3` the same), packed as
//! the low half of `mov.b32 r, {p, h}`, of the first word of `mov.b64 d, {p, h, …}`, or as the
//! first two elements of a 16-bit vector store `st.v2 [a], {p, h}` / `st.v4 [a], {p, h, …}`
//! (d03f820c; `.v4` and the `mov.b32` form of it compiled alike by 13.0.88 -O3), or at a later
//! even element with h the next (f33d36d7: `mov.b64 d, {h0, h0, p, h0}`, `F2FP…UNPACK_B_MERGE_C
//! R3, imm, R0; MOV R0, R3`; the first such element counts); `h` was written
//! by `xor.b16` (dc54c0ab: `LOP3.LUT R7, R2, 0x2`; d03f820c: `LOP3.LUT R7, R2, R7, RZ, 0x3c`),
//! is an element of a `ld.v4.s8` (c8681b22: `SGXT R7, R7, 0x8`) or a byte pack `mov.b16 h, {c,
//! c'}` (536f1382: `LOP3 0xff; PRMT R7, R2, 0x6540, R7`; 13.0.88 -O3 the same for `ld.u8` bytes
//! and two distinct bytes), is a `cvt.u8.s32` of a 32-bit register (f33d36d7: `LOP3.LUT R0, R2,
//! 0xff`) or a 16-bit shared load forwarded from a 16-bit shared store of a moved immediate
//! (d69964c3: `LOP3.LUT R2, R3, 0xffff`; the rule: `emulate/store_forwarded_load.rs`). Then h's
//! register holds the merged word, so a later read of h (a later element of the same `mov.b64`
//! pack or vector store included: 536f1382's `{p, h, h, z}`, `PRMT R3, RZ, 0x5410, R7` for `{p,
//! h, z, h}`; d69964c3's `st.shared.v4 {p, h2, h2, h1}`), or of r's high half through a
//! `mov.b32` unpack (`STG.E.U8 [+5], R7`), or of a half after the pair naming h in a `mov.b64`
//! unpack into halves of the `mov.b64` pack's result (f4025e70: `STG.E.U16 R7`), takes p. So does
//! a read of a register ptxas numbers as h, a glue result computed from the same sources the same
//! way (d03f820c: `xor.b16 h12` of a second unpack of
//! the word h9 was the xor of is `R7` too, [`duplicates`]). Right: h from a scalar `ld.s8` or a
//! 16-bit global load (`right_ld_s8_distinct_regs`, `a5_ld16`, `a6_e5m2_loaded`, d69964c3's
//! `v1_global_h2`, f33d36d7's `v6_ld16_pairfirst`: another register), a moved constant h
//! (d69964c3's `v2_const_h2`: rematerialized), h before the pair (f33d36d7's `v0_b32pack_right`),
//! a `cvt.rn.f16.f32` in place of the pair (`a3_f16`, d03f820c's `v2_f16_right`: no MERGE_C), -O0.
//!
//! Widened to the mechanism (session 40; corpus/findings/fuzz-h200-3902/, f7020e9e and 5e8d798d,
//! trace/T6E.md, T6D.md; corpus/findings/fuzz-h200-3903/, 062bc61c, trace/T6F.md): ptxas builds
//! the pair in h's register whenever h is the fresh result of one ALU instruction, so h may be
//! written by any 16-bit `add`/`sub`/`mul.lo`/`mul.hi`/`mad.lo`/`and`/`or`/`xor`/`not`/`shl`/`shr`/
//! `selp` of a non-constant register ([`computed_half`]), be any element of a `.v2`/`.v4` byte
//! load (`.u8` or `.s8`) or a narrowing `cvt.{u8,u16,s16}.{u32,s32}` (helper h6 compiled each
//! with 13.0.88 -O3 on f7020e9e's reduction: the same `MERGE_C R6, RZ, RZ, R6; PRMT R7, R6,
//! 0x5410, R6`). Right there (another register): `min`/`max`, `cnot`/`neg`/`abs` and
//! sign-extending `cvt.s8.s32` (through `PRMT 0x7710`), `cvt.u8.u16`, `cvt.u16.u64`, a 16-bit
//! vector load, a `mov` copy of a loaded byte.
//!
//! Seed 4103 (corpus/findings/fuzz-h200-4103/trace/T9y3.md): the byte load's elements may be
//! `.b8` (efcd1a77, 197cef57: `PRMT 0x7771` as for `.u8`), and a register written by an
//! unguarded `mov` pack of the same elements as h's (166f4fba: two `mov.b16 {c0, c0}` of one
//! unpack) is numbered as h, as identical glue is ([`duplicates`]).
//!
//! Seed 4202 (corpus/findings/fuzz-h200-4202/trace/T12b3.md, a36272a5; T12b4.md, bc46b617): h's
//! last writer may be guarded, if-converted into h's fresh register (`SEL R0, R0, 0x1, P0`,
//! `SEL R7, R7, R2, P0`, a predicated `VIADD`): a guarded `mov`/`cvt`/glue of a known value or a
//! guarded ALU form above (`emulate/merge_c_half_of_an_if_converted_write.rs`). A guarded `cvt` of a loaded value is
//! right.
//!
//! Seed 4302 (helper y2, session 43; `emulate/merge_c_half_of_u8_cvt_or_truncation.rs`): h may be a float-to-`u8`
//! `cvt` (trace/T14x2.md, df316674: `F2IP.U8.F32; LOP3 0xff`, a fresh ALU result), and the pack
//! destroys the 32-bit source r of a free truncation `cvt.{u16,s16}.{u32,s32} h, r` (h is r's
//! register's low half, trace/T14x1.md, 84d08552): a later read of r takes the pack's word {p, h}.
//!
//! Seed 4401 (corpus/findings/fuzz-h200-4401/trace/T15t1.md; helper v3, session 44;
//! `emulate/merge_c_guarded_pack_and_later_duplicate.rs`): the pack may be a guarded `mov.b64` of four halves (3fdf8ff2),
//! if-converted with the merge in place in every thread ([`skipped`] where the guard fails),
//! and a register written after the pack by h's expression (42bfc506) is numbered as h.
//! Seed 4801 (trace/T19v1.md, cdcda77b; helper x1, session 49;
//! `emulate/merge_c_guarded_word_pack_over_constant.rs`): so may a guarded `mov.b32` whose
//! destination holds a folded constant (`SEL R7, R0, RZ, !P0` of the merged R0).
//!
//! Seeds 4501 and 4503 (helper w1, session 45; trace/T16t3.md, T16t5.md;
//! `emulate/merge_c_relu_u8_of_64_guarded_over_constant.rs`): the pair may carry `.relu`
//! (b4024b2c), h may be `cvt.u8.{u64,s64}` (a3e35b85: `LOP3 0xff`), and h's guarded `cvt`/`mov`
//! writer may write a loaded value when h's old value is a folded constant (dd2be460: `SEL R7,
//! R0, RZ, !P0`); a guarded write over a loaded old value stays right.
//!
//! Seed 4601 (helper g2, session 47; trace/T17t1.md, f5d8ab7c;
//! `emulate/merge_c_pair_through_copies.rs`): the pair element may be an unguarded 16-bit copy
//! of the pair (ptxas coalesces it: the same in-place MERGE_C).
//! The low byte of a byte unpack of h before the pack, read after it, is the pair's
//! (trace/T17t2.md, cf023b23; `emulate/merge_c_low_byte_unpacked_before_pack.rs`), and so is the
//! low half of a widening `cvt` of a byte-converted h before the pack, read after it (seed 4703's
//! f788f578, trace/T18u4.md; `emulate/merge_c_widened_byte_half_read_after_pack.rs`).
//! So is an element of a `mov.b32` unpack of a 32-bit pack of h made before the pack, at h's
//! position (seed 4802's 568a8359, trace/T19v3.md; `emulate/merge_c_half_through_a_word_pack_made_before.rs`).
//! So is the second element of a forwarded `.v2` 16-bit load of the pack's word (seed 5101's
//! 75b5812a, trace/T22a.md; `emulate/merge_c_pack_word_read_by_a_forwarded_load.rs`), and an element
//! naming h of a 16-bit vector load forwarded from a 16-bit vector store that is the pack (seed
//! 6202's 061d23c8, corpus/findings/fuzz-h200-6201/trace/T62A.md; the same module).
//! h may be read after the join of a branch arm that rewrote it by a shared load: the threads
//! that skip the arm read the pair (seed 5401's 7865568d, trace/T54S.md;
//! `emulate/merge_c_half_reloaded_from_shared_in_a_later_arm.rs`).
//!
//! Invariants: the pack's word of the pair and h is the spec's (§9.7.9.4 `mov` packs the
//! halves as given, §9.7.9.11 `st` stores them); a register or a later element changes only when
//! the deviation is emulated and every statement named above is exactly of the form given
//! (unguarded, but for h's guarded writers of seed 4202 and seed 4401's guarded `mov.b64`);
//! otherwise the spec's values stand.

mod half_copied_from_a_computed_half;

use super::fuzz3602::unchanged_between;
use super::fuzz3701::folded_constant;
use super::fuzz3701::last_writer;
use super::fuzz3702_conversions::bare;
use super::merge_c_guarded_pack_and_later_duplicate;
use super::merge_c_guarded_word_pack_over_constant;
use super::merge_c_half_of_an_if_converted_write;
use super::merge_c_half_of_u8_cvt_or_truncation;
use super::merge_c_half_reloaded_from_shared_in_a_later_arm;
use super::merge_c_half_through_a_word_pack_made_before;
use super::merge_c_low_byte_unpacked_before_pack;
use super::merge_c_pair_through_copies;
use super::merge_c_relu_u8_of_64_guarded_over_constant;
use super::merge_c_widened_byte_half_read_after_pack;
use super::merge_c_zero_extended_byte_half;
use super::origin::value_readers;
use super::store_forwarded_load::{self, Forward};
use crate::isa::operand::Operand;
use crate::isa::types::{MemType, Space, VecWidth};
use crate::isa::{Cvt, CvtRnd, CvtType, Form, Instruction, Mov, MovShape, St};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// How many producers deep [`same_expression`] compares two values.
pub(super) const CSE_DEPTH: u32 = 4;

/// The destinations of a `mov` under 3701-N-D: a destroying pack also writes its `h` (and the
/// registers ptxas numbers as h) with the pair, and its later halves naming them are the pair;
/// the high half of a `mov.b32` unpack of its first word is the pair. `results` (the spec's)
/// extended or changed.
pub(super) fn isa(
    m: &mut Machine<'_>,
    t: u32,
    mv: &Mov,
    inst: &Instruction,
    mut results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    if !m.allow.emulates(d) {
        return results;
    }
    if inst.guard.is_none() && matches!(mv.shape, MovShape::Pack(_)) {
        // A later copy of h's expression (seed 4401's 42bfc506): `emulate/merge_c_guarded_pack_and_later_duplicate.rs`.
        results = merge_c_guarded_pack_and_later_duplicate::later_duplicate_pack(m, t, results);
        // A byte of a zero-extending byte cvt's source (seed 5703's 9af9a4d8): `emulate/merge_c_zero_extended_byte_half.rs`.
        results = merge_c_zero_extended_byte_half::byte_pack(m, t, mv, inst, results);
    }
    // A guarded pack is in scope only as an if-converted one ([`destroyed`], [`pack_items`]).
    if inst.guard.is_some() && !matches!(mv.shape, MovShape::Pack(_)) {
        return results;
    }
    match mv.shape {
        MovShape::Pack(_) => {
            let Some(Destroyed { items, at, p, merged, source, low_bytes }) = destroyed(m, t) else {
                return results;
            };
            let Ok(pair) = m.read(t, p) else { return results };
            if let Some((r, old, to)) = destroyed_source(m, t, source, &pair) {
                let to = m.fire(d, &old, to);
                results.push((r, to));
            }
            for (c, old, to) in merged_low_bytes(m, t, &low_bytes, &pair) {
                let to = m.fire(d, &old, to);
                results.push((c, to));
            }
            if let Some((_, word)) = results.first_mut() {
                for (k, item) in items.iter().enumerate().skip(at + 2) {
                    if item.is_some_and(|r| merged.contains(&r)) && !repeated_pair_word(&items, at, k) {
                        let from = word.clone();
                        let mut to = from.clone();
                        to.replace(16 * k as u32, pair.field(0, 16));
                        *word = m.fire(d, &from, to);
                    }
                }
            }
            for r in still_read(m, merged) {
                let Ok(old) = m.read(t, r) else { continue };
                let to = m.fire(d, &old, pair.clone());
                results.push((r, to));
            }
        }
        MovShape::Unpack(2) => {
            let (Some(Operand::Vector(items)), Some(src)) = (inst.operands.first(), inst.operands.get(1)) else {
                return results;
            };
            // An element of a `mov.b32` pack of h made before the pair's pack (seed 4802's 568a8359).
            for (x, p) in merge_c_half_through_a_word_pack_made_before::unpacked_after(m) {
                let (Ok(pair), Some((_, e))) = (m.read(t, p), results.iter_mut().find(|(r, _)| *r == x)) else {
                    continue;
                };
                let from = e.clone();
                *e = m.fire(d, &from, pair);
            }
            let Some(hi) = items.get(1).and_then(|o| m.reg_of(o).ok()) else { return results };
            let Some(pair) = m.reg_of(src).ok().and_then(|w| merged_word_pair(m, t, w)) else { return results };
            if let Some((_, e)) = results.iter_mut().find(|(r, _)| *r == hi) {
                let from = e.clone();
                *e = m.fire(d, &from, pair);
            }
        }
        MovShape::Unpack(4) => {
            let Some(Operand::Vector(halves)) = inst.operands.first() else { return results };
            let Some(d64) = inst.operands.get(1).and_then(|o| m.reg_of(o).ok()) else { return results };
            let Some((names_h, pair)) = merged_pack_of(m, t, d64) else { return results };
            for (j, half) in halves.iter().enumerate().skip(1) {
                let named_h = names_h.get(j).copied().unwrap_or(false);
                let Some(e) = m.reg_of(half).ok().and_then(|h| results.iter_mut().find(|(r, _)| *r == h)) else {
                    continue;
                };
                if named_h {
                    let from = e.1.clone();
                    e.1 = m.fire(d, &from, pair.field(0, 16));
                }
            }
        }
        _ => {}
    }
    results
}

/// Whether each of the pack's items names a register holding the merged word, and the pair, where the 64-bit `d` (read by a `mov.b64` unpack into halves at the
/// statement being run, f4025e70) is the unchanged result of a destroying `mov.b64` pack with the
/// pair first (a pair at element 2 is merged into a copy, f33d36d7: `MERGE_C R3, imm, R0`, and
/// no listing shows which register such an unpack reads) whose pair is unchanged since.
fn merged_pack_of(m: &Machine<'_>, t: u32, d: Reg) -> Option<(Vec<bool>, Expected)> {
    if d.class().bits() != 64 {
        return None;
    }
    let (pack, writer) = last_writer(m, m.stmt, d)?;
    if !matches!(writer, Stmt::Isa(Instruction { form: Form::Mov(mv), .. }) if mv.shape == MovShape::Pack(4)) {
        return None;
    }
    let (0, p, h) = destroying_pack(m, pack, false)? else { return None };
    let pair = m.read(t, p).ok().filter(|_| unchanged_between(m, p, pack, m.stmt))?;
    let mut merged = vec![h];
    merged.extend(duplicates(m, t, pack, h));
    let items: Vec<Option<Reg>> = pack_items(m, pack, false)?.iter().map(|o| m.reg_of(o).ok()).collect();
    let names_h = items
        .iter()
        .enumerate()
        .map(|(j, r)| r.is_some_and(|r| merged.contains(&r)) && !repeated_pair_word(&items, 0, j))
        .collect();
    Some((names_h, pair))
}

/// The values a 16-bit vector store `st` writes under 3701-N-D (`values`, the spec's, changed):
/// a destroying pack's later elements naming h (or a register ptxas numbers as h) are the pair;
/// h and those registers hold the pair after the store.
pub(super) fn stored(m: &mut Machine<'_>, t: u32, st: &St, mut values: Vec<Expected>) -> Vec<Expected> {
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    if !m.allow.emulates(d) || !matches!(st.ty, MemType::B16 | MemType::U16 | MemType::S16) {
        return values;
    }
    let Some(Destroyed { items, at, p, merged, source, low_bytes }) = destroyed(m, t) else { return values };
    let Ok(pair) = m.read(t, p) else { return values };
    if let Some((r, old, to)) = destroyed_source(m, t, source, &pair) {
        let to = m.fire(d, &old, to);
        // `r` is a virtual register (a cvt's source): the write cannot fail.
        let _ = m.write_keeping_origin(t, r, to);
    }
    for (c, old, to) in merged_low_bytes(m, t, &low_bytes, &pair) {
        let to = m.fire(d, &old, to);
        // `c` is a virtual register (an unpack's element): the write cannot fail.
        let _ = m.write_keeping_origin(t, c, to);
    }
    for (k, item) in items.iter().enumerate().skip(at + 2) {
        let names_h = item.is_some_and(|r| merged.contains(&r)) && !repeated_pair_word(&items, at, k);
        if let (true, Some(v)) = (names_h, values.get_mut(k)) {
            let from = v.clone();
            *v = m.fire(d, &from, pair.field(0, 16));
        }
    }
    for r in still_read(m, merged) {
        let Ok(old) = m.read(t, r) else { continue };
        let to = m.fire(d, &old, pair.clone());
        // `r` is a virtual register (a pack's element): the write cannot fail.
        if m.write_keeping_origin(t, r, to).is_err() {
            break;
        }
    }
    values
}

/// Under 3701-N-D, a pack whose guard is false in thread `t` (seed 4401's 3fdf8ff2, an
/// if-converted `mov.b64`, [`destroyed`]): the merge ran in h's register anyway, so h and the
/// registers ptxas numbers as h, still read, hold the pair (`merge_c_guarded_pack_and_later_duplicate`'s g1, g2: the
/// store of h reads the merged register in every thread); the pack's word is not written.
pub(super) fn skipped(m: &mut Machine<'_>, t: u32, inst: &Instruction) {
    let d = Deviation::MergeCInPlaceDestroysLiveHalf;
    let pack = matches!(&inst.form, Form::Mov(mv) if matches!(mv.shape, MovShape::Pack(_)));
    if !(m.allow.emulates(d) && pack && inst.guard.is_some()) {
        return;
    }
    let Some(Destroyed { p, merged, .. }) = destroyed(m, t) else { return };
    let Ok(pair) = m.read(t, p) else { return };
    for r in still_read(m, merged) {
        let Ok(old) = m.read(t, r) else { continue };
        let to = m.fire(d, &old, pair.clone());
        // `r` is a virtual register (a pack's element): the write cannot fail.
        if m.write_keeping_origin(t, r, to).is_err() {
            break;
        }
    }
}

/// h's destroyed 32-bit source `source` ([`Destroyed`]), its value before the pack and the
/// pack's word it holds after: the pair in its low half, its own low half (h) in its high half
/// (84d08552: `MERGE_C R0, RZ, RZ, R0` of r4's `R0`, §9.7.9.4 packs the pair low).
fn destroyed_source(
    m: &Machine<'_>,
    t: u32,
    source: Option<Reg>,
    pair: &Expected,
) -> Option<(Reg, Expected, Expected)> {
    let r = source?;
    let old = m.read(t, r).ok()?;
    let mut to = old.clone();
    to.replace(0, pair.field(0, 16));
    to.replace(16, old.field(0, 16));
    Some((r, old, to))
}

/// Each of the registers `low` (`Destroyed::low_bytes`) with its value in thread `t` and the
/// pair's low bits it takes, as many as given (seed 4601's cf023b23, 8:
/// `emulate/merge_c_low_byte_unpacked_before_pack.rs`; seed 4802's 568a8359, 16:
/// `emulate/merge_c_half_through_a_word_pack_made_before.rs`); 32 ([`PACK_WORD`]) for a widening
/// of h, whose low word takes the pack's whole word {pair, h} (seed 4703's f788f578 and 5702's
/// 2ca01739: `emulate/merge_c_widened_byte_half_read_after_pack.rs`).
fn merged_low_bytes(m: &Machine<'_>, t: u32, low: &[(Reg, u32)], pair: &Expected) -> Vec<(Reg, Expected, Expected)> {
    low.iter()
        .filter_map(|&(c, bits)| {
            let old = m.read(t, c).ok()?;
            let mut to = old.clone();
            if bits == PACK_WORD {
                to.replace(0, pair.field(0, 16));
                to.replace(16, old.field(0, 16));
            } else {
                to.replace(0, pair.field(0, bits));
            }
            Some((c, old, to))
        })
        .collect()
}

/// The `Destroyed::low_bytes` width of a register whose low word becomes the pack's word {pair,
/// h}: its low 16 bits (h's value) move to bits 16–31 and the pair takes bits 0–15, as the
/// `MERGE_C` it is read from holds them (seed 5702's 2ca01739: the stored word 0x00660000, h =
/// 0x66, the pair 0).
const PACK_WORD: u32 = 32;

/// Those of `regs` still read after the statement being run (an unread register's change
/// explains nothing).
fn still_read(m: &Machine<'_>, regs: Vec<Reg>) -> Vec<Reg> {
    regs.into_iter().filter(|&r| half_read_after(m, m.stmt, r)).collect()
}

/// Whether the value statement `k` wrote to h (or a register numbered as h) is read after it:
/// before its next unguarded write, or after the join of a branch arm that rewrote it by a
/// shared load (seed 5401's 7865568d: `emulate/merge_c_half_reloaded_from_shared_in_a_later_arm.rs`).
fn half_read_after(m: &Machine<'_>, k: usize, r: Reg) -> bool {
    value_readers(m, k, r) > 0 || merge_c_half_reloaded_from_shared_in_a_later_arm::read_past_a_shared_load_arm(m, k, r)
}

/// A destroying pack ([`destroyed`]): its elements' registers, the pair's element `at`, the
/// pair's register `p`, the registers holding the merged word after it (`merged`: its low half,
/// the pair; `source`: h's 32-bit source register, all of it), and the low bytes of h unpacked
/// before it and read after it, and the widenings of a byte-converted h made before it and read
/// after it (`low_bytes`: they take the pair's low 8 or 16 bits, or the pack's word, as given).
struct Destroyed {
    items: Vec<Option<Reg>>,
    at: usize,
    p: Reg,
    merged: Vec<Reg>,
    source: Option<Reg>,
    low_bytes: Vec<(Reg, u32)>,
}

/// For the statement being run in thread `t`, when it is a destroying pack ([`destroying_pack`])
/// whose h is still read (after it, or by a later element of it), or whose h is the free
/// truncation of a 32-bit register still read after it (seed 4302's 84d08552,
/// `merge_c_half_of_u8_cvt_or_truncation::truncated_source`): its elements' registers, the pair's element, the pair's
/// register, the registers that hold the pair after it (h and the registers ptxas numbers as h,
/// [`duplicates`]), and that 32-bit source (it holds the pack's word {pair, h} after it); or
/// whose h's low byte was unpacked before it and is read after it (seed 4601's cf023b23:
/// `emulate/merge_c_low_byte_unpacked_before_pack.rs`).
///
/// The pack may be seed 4401's guarded `mov.b64` (`merge_c_guarded_pack_and_later_duplicate::if_converted_pack`): ptxas
/// merges in place in every thread and selects the words, so h is destroyed whatever the
/// guard; no listing shows a guarded pack destroying a truncation's source (`source` is `None`).
fn destroyed(m: &Machine<'_>, t: u32) -> Option<Destroyed> {
    let k = m.stmt;
    let (at, p, h) = destroying_pack(m, k, true)?;
    let items: Vec<Option<Reg>> = pack_items(m, k, true)?.iter().map(|o| m.reg_of(o).ok()).collect();
    let mut merged = vec![h];
    merged.extend(duplicates(m, t, k, h));
    let later_item = items
        .iter()
        .enumerate()
        .skip(at + 2)
        .any(|(j, r)| r.is_some_and(|r| merged.contains(&r)) && !repeated_pair_word(&items, at, j));
    let read_after = merged.iter().any(|&r| half_read_after(m, k, r));
    let unguarded = matches!(&m.p.body[k], Stmt::Isa(Instruction { guard: None, .. }));
    let source = merge_c_half_of_u8_cvt_or_truncation::truncated_source(m, k, h)
        .filter(|&r| unguarded && value_readers(m, k, r) > 0);
    // A low byte of h unpacked before the pack and read after it (seed 4601's cf023b23).
    let mut low_bytes: Vec<(Reg, u32)> =
        merge_c_low_byte_unpacked_before_pack::low_bytes(m, k, &merged).into_iter().map(|c| (c, 8)).collect();
    // A widening `cvt` of a byte-converted h made before the pack, read after it (seed 4703's
    // f788f578).
    let widened = merge_c_widened_byte_half_read_after_pack::widened(m, k, &merged);
    low_bytes.extend(widened.into_iter().map(|w| (w, PACK_WORD)));
    // An unpack, made before the pack, of a `mov.b32` pack of h, read after it (seed 4802's
    // 568a8359).
    low_bytes.extend(
        merge_c_half_through_a_word_pack_made_before::unpacked_before(m, k, &merged).into_iter().map(|x| (x, 16)),
    );
    let destroys = later_item || read_after || source.is_some() || !low_bytes.is_empty();
    destroys.then_some(Destroyed { items, at, p, merged, source, low_bytes })
}

/// Whether element `k` of a destroying pack's elements `items` (the pair at `at`) is the high
/// half of a later word that repeats the pair's word {p, h} (element `k - 1` the pair's register,
/// element `k` naming h): ptxas reads that word from the merged register itself, which holds {p,
/// h} (`MERGE_C` moves C's low half to the high half), so the element is h, as the spec says.
/// Seed 6005's caa2b68c (corpus/findings/fuzz-h200-6005/trace/T60F.md, variants in
/// trace/caa2b68c/s60/): `shr.s16 h1, h0, 0xf; mov.b64 d2, {p, h1, p, h1}; sub.u64 d4, d0, d2` is
/// 13.0.88 = 13.5 -O3 `SHF.R.S32.HI R9; F2FP.SATFINITE.E5M2.F32.PACK_AB_MERGE_C R9, R10, R0, R9;
/// IADD3 RZ, P0, R4, -R9, RZ; IMAD.X R4, R5, 0x1, ~R9, P0` (both words R9: d4 the spec's, while
/// `st.s8 h1` stores the pair's byte); v2_h_not_stored (the pack alone) right. A word {h', h}
/// with another h' reads the pair (v1_word1_other_pair: `PRMT R3, R8, 0x5410, R9`).
pub(super) fn repeated_pair_word(items: &[Option<Reg>], at: usize, k: usize) -> bool {
    k % 2 == 1 && k > at + 1 && items.get(at).copied().flatten().is_some() && items.get(k - 1) == items.get(at)
}

/// The elements of the pack at body index `k`, unguarded: of a `mov.b32`/`mov.b64` packing
/// halves, or of a 16-bit `st.v2`/`st.v4`; with `if_converted`, also of a guarded `mov.b64`
/// ptxas if-converts (`merge_c_guarded_pack_and_later_duplicate::if_converted_pack`) or a guarded
/// `mov.b32` over a folded constant (`merge_c_guarded_word_pack_over_constant::if_converted_word_pack`).
fn pack_items<'m>(m: &'m Machine<'_>, k: usize, if_converted: bool) -> Option<&'m [Operand]> {
    let Stmt::Isa(Instruction { form, operands, guard, .. }) = &m.p.body[k] else {
        return None;
    };
    // Guarded: seed 4401's `mov.b64`, or a `mov.b32` over a folded constant (seed 4801's cdcda77b,
    // `emulate/merge_c_guarded_word_pack_over_constant.rs`), each if-converted with the pair
    // merged in place in every thread.
    let converted = |k| {
        merge_c_guarded_pack_and_later_duplicate::if_converted_pack(m, k)
            || merge_c_guarded_word_pack_over_constant::if_converted_word_pack(m, k)
    };
    if guard.is_some() && !(if_converted && converted(k)) {
        return None;
    }
    let vector = match form {
        Form::Mov(mv) => {
            let dst = operands.first().and_then(|o| m.reg_of(o).ok())?;
            let halves = matches!((mv.shape, dst.class().bits()), (MovShape::Pack(2), 32) | (MovShape::Pack(4), 64));
            operands.get(1).filter(|_| halves)
        }
        Form::St(st) => {
            let halves = matches!(st.ty, MemType::B16 | MemType::U16 | MemType::S16)
                && matches!(st.vec, Some(VecWidth::V2 | VecWidth::V4));
            operands.get(1).filter(|_| halves)
        }
        _ => None,
    };
    match vector {
        Some(Operand::Vector(items)) => Some(items),
        _ => None,
    }
}

/// The pair's element, the pair `p` and the half `h` of the pack at body index `k`, when it is
/// one 3701-N-D builds in place (module docs): the first even element `at` whose pair and next
/// half are in scope (`if_converted`: as [`pack_items`]).
pub(super) fn destroying_pack(m: &Machine<'_>, k: usize, if_converted: bool) -> Option<(usize, Reg, Reg)> {
    let items = pack_items(m, k, if_converted)?;
    (0..items.len().saturating_sub(1)).step_by(2).find_map(|at| {
        let (p, h) = (m.reg_of(&items[at]).ok()?, m.reg_of(&items[at + 1]).ok()?);
        pair_and_half(m, k, p, h).then_some((at, p, h))
    })
}

/// Whether `p` (a pair) and `h` (the half beside it) at body index `k` are of the forms
/// 3701-N-D builds in place (module docs).
fn pair_and_half(m: &Machine<'_>, k: usize, p: Reg, h: Reg) -> bool {
    if p == h || p.class().bits() != 16 {
        return false;
    }
    let Some(pair_writer) = last_writer(m, k, p) else { return false };
    let pair = match pair_writer {
        (_, Stmt::Isa(Instruction { form: Form::Cvt(cv), guard: None, .. })) if pair_cvt(cv) => true,
        // Or an unguarded copy of such a pair (seed 4601's f5d8ab7c,
        // `emulate/merge_c_pair_through_copies.rs`).
        (w, s) => merge_c_pair_through_copies::copied_pair(m, w, s),
    };
    let Some(half_writer) = last_writer(m, k, h) else { return false };
    let half = match half_writer {
        // Or of an I2F.F16 ptxas does not fold (seed 5701's c5e2088f, `half_copied_from_a_computed_half`).
        (w, Stmt::Glue { glue, guard: None }) => {
            computed_half(m, w, glue) || half_copied_from_a_computed_half::unfolded_int_to_f16_half(m, w, glue)
        }
        (_, Stmt::Isa(Instruction { form: Form::Ld(l), guard: None, .. })) if l.vec.is_none() => {
            forwarded_constant_half(m, half_writer.0)
        }
        // An element of a vector byte load, extracted by `PRMT R6, R2, 0x7771, RZ` / `SGXT`
        // (c8681b22: `.v4.s8`; corpus/findings/fuzz-h200-3902/, 5e8d798d, trace/T6D.md:
        // `.v4.u8`; helper h6, 13.0.88 -O3: `.v2.u8`, element 0 too; corpus/findings/
        // fuzz-h200-4103/trace/T9y3.md, efcd1a77 and 197cef57: `.v2.b8` and `.v4.b8`, `PRMT
        // 0x7771` as for `.u8`, any space and ordering). 16-bit vector loads are right
        // (`ld.v2.u16`, `ld.v4.s16`: another register), and so is a scalar `ld.b8`
        // (efcd1a77's `v2_scalar_b8`).
        (_, Stmt::Isa(Instruction { form: Form::Ld(l), guard: None, .. })) => {
            matches!(l.ty, MemType::S8 | MemType::U8 | MemType::B8)
                && matches!(l.vec, Some(VecWidth::V2 | VecWidth::V4))
        }
        // A narrowing `cvt.{u8,u16,s16}.{u32,s32} h, r` of a 32-bit register (f33d36d7:
        // `cvt.u8.s32`, `LOP3.LUT R0, R2, 0xff`; helper h6, 13.0.88 -O3: `cvt.u16.u32`,
        // `cvt.s16.s32`, `cvt.u8.u32`). Right: `cvt.s8.s32`, `cvt.s16.s8` (`PRMT 0x8880`, `PRMT
        // 0x7710` into another register), `cvt.u8.u16`, `cvt.u16.u64`. Or a float-to-`u8` cvt
        // (`F2IP.U8.F32; LOP3 0xff`, seed 4302's df316674, `emulate/merge_c_half_of_u8_cvt_or_truncation.rs`),
        // or an integer `cvt.sat.u8` (the clamp then `LOP3 0xff`, seed 6203's ef36a487, the same module).
        // Or a zero-extending byte `cvt.u8.{s8,u16,s16}` / `cvt.u16.u8` of a 16-bit value (seed
        // 5703's 9af9a4d8, `emulate/merge_c_zero_extended_byte_half.rs`).
        (w, Stmt::Isa(Instruction { form: Form::Cvt(c), guard: None, .. })) => {
            [CvtType::U8, CvtType::U16, CvtType::S16]
                .into_iter()
                .any(|to| [CvtType::U32, CvtType::S32].into_iter().any(|from| *c == bare(to, from, false)))
                || merge_c_half_of_u8_cvt_or_truncation::float_to_u8_half(c)
                || merge_c_half_of_u8_cvt_or_truncation::sat_u8_half(c)
                || merge_c_half_of_u8_cvt_or_truncation::f16_to_u8_half(m, k, c)
                || merge_c_relu_u8_of_64_guarded_over_constant::byte_of_64bit_half(c)
                || merge_c_zero_extended_byte_half::zero_extended_byte_half(m, w, c)
        }
        // A byte pack `mov.b16 h, {c, c'}` (536f1382), or a copy of a computed half (seed 5701's
        // c5e2088f, `half_copied_from_a_computed_half`).
        (w, s @ Stmt::Isa(Instruction { form: Form::Mov(mv), guard: None, .. })) => {
            (mv.shape == MovShape::Pack(2) && h.class().bits() == 16)
                || half_copied_from_a_computed_half::copied(m, w, s)
        }
        // A guarded write of h, if-converted into h's fresh register: seed 4202's a36272a5
        // and bc46b617 (`emulate/merge_c_half_of_an_if_converted_write.rs`).
        // Or a guarded `cvt`/`mov` of any value over a folded constant (seed 4503's dd2be460,
        // `emulate/merge_c_relu_u8_of_64_guarded_over_constant.rs`).
        (w, s) => {
            merge_c_half_of_an_if_converted_write::guarded_half(m, w, s)
                || merge_c_relu_u8_of_64_guarded_over_constant::guarded_over_constant(m, w, s, h)
        }
    };
    pair && half
}

/// Whether `cv` is a pair conversion 3701-N-D builds in place: `cvt.rn.satfinite.{e4m3x2,
/// e5m2x2}.{f32,f16x2}` (module docs), or with `.relu` (seed 4501's b4024b2c).
pub(super) fn pair_cvt(cv: &Cvt) -> bool {
    (matches!(cv.dtype, CvtType::E4m3x2 | CvtType::E5m2x2)
        && matches!(cv.atype, CvtType::F32 | CvtType::F16x2)
        && cv.rnd == Some(CvtRnd::Rn)
        && cv.satfinite
        && !cv.relu)
        || merge_c_relu_u8_of_64_guarded_over_constant::relu_pair(cv)
}

/// Whether glue `g` (at body index `w`) computes a half the way 3701-N-D builds the pair in
/// place of: one ALU instruction of a 16-bit type, `add`, `sub`, `mul.lo`, `mul.hi`, `mad.lo`,
/// `mad.hi`, `and`, `or`, `xor`, `not`, `shl`, `shr`, `selp` or `slct` (§9.7.1, §9.7.8,
/// §9.7.7.3-4; `mad.hi`, `slct`: seed 5901, [`alu_half`]), of at least one
/// register ptxas does not fold as a constant (a constant is rematerialized, d69964c3's
/// `v2_const_h2`). dc54c0ab, d03f820c: `xor.b16`; corpus/findings/fuzz-h200-3902/, f7020e9e,
/// trace/T6E.md and corpus/findings/fuzz-h200-3903/, 062bc61c, trace/T6F.md: `mul.lo.u16`
/// (`IMAD R6, R2, 0x4abf, RZ; F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R6, RZ, RZ, R6`); helper
/// h6 with 13.0.88 -O3 on f7020e9e's reduction: each of those operations the same listing.
/// Right (another register): `min`/`max` (`MERGE_C R8, RZ, RZ, R6`), `cnot`, `neg`, `abs`
/// (through `PRMT 0x7710`), a `mov` copy.
pub(super) fn computed_half(m: &Machine<'_>, w: usize, g: &Glue) -> bool {
    let variable = g.src.iter().flatten().any(|s| matches!(s, Src::Reg(r) if !folded_constant(m, w, *r, 3)));
    alu_half(g) && variable
}

/// Whether glue `g` is one of [`computed_half`]'s 16-bit ALU forms (whatever its sources).
/// Seed 5901 (session 59, helper ib; corpus/findings/fuzz-h200-5901/trace/T59B.md) adds `slct`
/// (da9494d5: `SEL R7, RZ, 0x815d, P0` as `selp`'s, §9.7.7.4) and `mad.hi` (897610fe: `IMAD R7,
/// R2, R2, RZ; LEA.HI R0, R7, R2, RZ, 0x10`, §9.7.1.4), each then merged over (13.0.88 = 13.5 -O3).
fn alu_half(g: &Glue) -> bool {
    use GlueOp::{Add, And, MadHi, MadLo, MulHi, MulLo, Not, Or, Selp, Shl, Shr, Slct, Sub, Xor};
    let sixteen = matches!(g.ty, GlueType::B16 | GlueType::U16 | GlueType::S16);
    sixteen
        && matches!(g.op, Add | Sub | MulLo | MulHi | MadLo | MadHi | And | Or | Xor | Not | Shl | Shr | Selp | Slct)
}

/// Whether the scalar load at body index `at` is a 16-bit shared load ptxas forwards
/// (`emulate/store_forwarded_load.rs`, the rule 3702-N5 shares) from a 16-bit shared store of a
/// moved immediate (d69964c3: `mov.b16 h1, 31744; st.shared.u16 [a], h1; ld.shared.b16 h2, [a]`
/// is `LOP3.LUT R2, R3, 0xffff`, a register of its own).
fn forwarded_constant_half(m: &Machine<'_>, at: usize) -> bool {
    let shared = |space: Option<Space>| matches!(space, Some(Space::Shared | Space::SharedCta));
    let Some(Stmt::Isa(Instruction { form: Form::Ld(l), .. })) = m.p.body.get(at) else { return false };
    let Some(Forward { store, value, bytes: 2 }) = store_forwarded_load::forwarded(m, at) else { return false };
    let moved_immediate = last_writer(m, store, value).is_some_and(|(_, w)| {
        matches!(w, Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. })
            if mv.shape == MovShape::Copy && matches!(operands.get(1), Some(Operand::Imm(_))))
    });
    l.vec.is_none() && shared(l.space) && moved_immediate
}

/// The registers other than `h` that ptxas numbers as `h` where body index `k` reads it (one
/// value, one register): each written last by unguarded glue or an unguarded `mov` pack
/// computing the same expression as h's producer ([`same_expression`]) and, in thread `t`,
/// holding h's value (corpus/findings/fuzz-h200-4103/trace/T9y3.md, 166f4fba: two `mov.b16 {c0,
/// c0}` byte packs of one unpack share `R7`, 13.0.88 and 13.5 -O3, as glue duplicates do;
/// `{c0, c1}` and `{c1, c0}` beside `{c0, c0}` are other registers).
fn duplicates(m: &Machine<'_>, t: u32, k: usize, h: Reg) -> Vec<Reg> {
    let value = m.read(t, h).ok().filter(Expected::is_exact);
    let mut out: Vec<Reg> = Vec::new();
    for (j, s) in m.p.body[..k].iter().enumerate() {
        let r = match s {
            Stmt::Glue { glue, guard: None } => glue.dst,
            Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. })
                if matches!(mv.shape, MovShape::Pack(_)) =>
            {
                let Some(r) = operands.first().and_then(|o| m.reg_of(o).ok()) else { continue };
                r
            }
            _ => continue,
        };
        let last = last_writer(m, k, r).map(|(w, _)| w) == Some(j);
        let same_value = value.as_ref().is_some_and(|v| m.read(t, r).ok().as_ref() == Some(v));
        if r != h && !out.contains(&r) && last && same_value && same_expression(m, (k, r), (k, h), CSE_DEPTH) {
            out.push(r);
        }
    }
    out
}

/// Whether register `a.1` where body index `a.0` reads it and `b.1` where `b.0` reads it hold
/// the same expression (ptxas's value numbering, at most `depth` producers deep): the same
/// register from the same writer, unguarded glue of one operation and type over the same
/// immediates and same-expression registers, or the same element of unguarded `mov` unpacks of
/// same-expression registers.
pub(super) fn same_expression(m: &Machine<'_>, a: (usize, Reg), b: (usize, Reg), depth: u32) -> bool {
    let (Some((wa, sa)), Some((wb, sb))) = (last_writer(m, a.0, a.1), last_writer(m, b.0, b.1)) else {
        return false;
    };
    if wa == wb && a.1 == b.1 {
        return true;
    }
    if depth == 0 {
        return false;
    }
    match (sa, sb) {
        (Stmt::Glue { glue: ga, guard: None }, Stmt::Glue { glue: gb, guard: None }) => {
            ga.op == gb.op
                && ga.ty == gb.ty
                && ga.src.iter().zip(&gb.src).all(|(x, y)| match (x, y) {
                    (Some(Src::Reg(x)), Some(Src::Reg(y))) => same_expression(m, (wa, *x), (wb, *y), depth - 1),
                    (x, y) => x == y,
                })
        }
        // Packs of one shape whose elements are the same expressions, in order (166f4fba).
        (
            Stmt::Isa(Instruction { form: Form::Mov(ma), operands: oa, guard: None, .. }),
            Stmt::Isa(Instruction { form: Form::Mov(mb), operands: ob, guard: None, .. }),
        ) if matches!(ma.shape, MovShape::Pack(_)) && ma.shape == mb.shape && ma.ty == mb.ty => {
            match (oa.get(1), ob.get(1)) {
                (Some(Operand::Vector(xa)), Some(Operand::Vector(xb))) => {
                    xa.len() == xb.len()
                        && xa.iter().zip(xb).all(|(x, y)| match (m.reg_of(x), m.reg_of(y)) {
                            (Ok(x), Ok(y)) => same_expression(m, (wa, x), (wb, y), depth - 1),
                            _ => x == y,
                        })
                }
                _ => false,
            }
        }
        (
            Stmt::Isa(Instruction { form: Form::Mov(ma), operands: oa, guard: None, .. }),
            Stmt::Isa(Instruction { form: Form::Mov(mb), operands: ob, guard: None, .. }),
        ) if matches!(ma.shape, MovShape::Unpack(_)) && ma.shape == mb.shape => {
            let element = |ops: &[Operand], r: Reg| match ops.first() {
                Some(Operand::Vector(items)) => items.iter().position(|o| m.reg_of(o).ok() == Some(r)),
                _ => None,
            };
            let source = |ops: &[Operand]| ops.get(1).and_then(|o| m.reg_of(o).ok());
            match (element(oa, a.1), element(ob, b.1), source(oa), source(ob)) {
                (Some(ea), Some(eb), Some(xa), Some(xb)) => {
                    ea == eb && same_expression(m, (wa, xa), (wb, xb), depth - 1)
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// The pair a destroying pack merged into the first word of its result, where `w` (read by a
/// `mov.b32` unpack at the statement being run) is that word: the pack's `mov.b32` result, or
/// the first word of `mov.b64 {w, _}, d` of its `mov.b64` result; read from the pair's register
/// (unwritten since the pack).
pub(super) fn merged_word_pair(m: &Machine<'_>, t: u32, w: Reg) -> Option<Expected> {
    if w.class().bits() != 32 {
        return None;
    }
    let (u, writer) = last_writer(m, m.stmt, w)?;
    let pack = match writer {
        Stmt::Isa(Instruction { form: Form::Mov(mv), .. }) if matches!(mv.shape, MovShape::Pack(_)) => u,
        Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. })
            if mv.shape == MovShape::Unpack(2) =>
        {
            let first = match operands.first() {
                Some(Operand::Vector(items)) => items.first().and_then(|o| m.reg_of(o).ok()),
                _ => None,
            };
            let d = operands
                .get(1)
                .and_then(|o| m.reg_of(o).ok())
                .filter(|d| first == Some(w) && d.class().bits() == 64)?;
            let (k, _) = last_writer(m, u, d)?;
            (unchanged_between(m, d, k, u)).then_some(k)?
        }
        _ => return None,
    };
    let (0, p, _) = destroying_pack(m, pack, false)? else { return None };
    let pair = m.read(t, p).ok().filter(|_| unchanged_between(m, p, pack, m.stmt))?;
    Some(pair)
}
