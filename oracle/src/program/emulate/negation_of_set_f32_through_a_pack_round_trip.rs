//! Root cause 3602-N2 (corpus/known/fuzz-h200-3602-n2-neg-of-set-f32-halves-read-as-boolean.toml)
//! widened after seed 4703's a0f3d153 (corpus/findings/fuzz-h200-4703/trace/T18u4.md, variants in
//! trace/a0f3d153/): the `neg.s32` of a `set.<cmp>.f32.<type>` result whose value reached the
//! negation through a 64-bit `mov.b64 d, {e0, e1}` pack and `mov.b64 {a0, a1}, d` unpack.
//!
//! Mechanism: ptxas sees through the round trip (§9.7.9.4: the unpack's element k is the pack's
//! e_k) and negates the set as its boolean, as for N2's own form: `reduced.ptx` (`set.ne.f32.u32
//! r4; mov.b64 d0, {r1, r4}; mov.b64 {r2, r0}, d0; neg.s32 r5, r0; mov.b32 {h19, h20}, r5;
//! xor.b16`) is `STG.E.S8 [R2.64+0x5], RZ` (13.0.88 and 13.5 -O3), the listing of
//! `v1_no_round_trip_in_scope` (the neg of the set directly); `v3_pack_low_word` (the set as the
//! pack's low word) the same. The emulation's origins make the pack the producer of what the
//! unpack reads (`emulate/origin.rs`, `origin_of`), so [`negation_of_set_f32`](super::set_negation_sign_extension_saturation_queries::negation_of_set_f32)
//! asks this query when the negation's source was made by a pack.
//!
//! Scope: unguarded pack and unpack of two 32-bit words, the packed word not rewritten between
//! its set and the pack, the 64-bit register not rewritten between pack and unpack, the unpacked
//! register not rewritten between unpack and neg. Right and left out: an integer set
//! (`v5_int_set_right`), the negation stored whole (`v4_neg_stored_whole_right`; the reader is
//! N2's halves query, not this one).
//!
//! Invariants: a query only; it never changes an origin or a value.

use super::fuzz3602::writes;
use crate::isa::operand::Operand;
use crate::isa::{Form, Instruction, Mov, MovShape};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// The statement that wrote the packed word register `x` (read by the negation at body index
/// `neg_at`) holds, when x was written by an unguarded `mov.b64 {a0, a1}, d` unpack of a `d`
/// written by the unguarded `mov.b64 d, {e0, e1}` pack at body index `pack_at` (x = a_k, so the
/// word is e_k): the last writer of e_k before the pack. `None` when any link is not so.
pub(super) fn packed_word_producer(m: &Machine<'_>, x: Reg, neg_at: usize, pack_at: usize) -> Option<usize> {
    let last_writer = |r: Reg, before: usize| m.p.body[..before].iter().rposition(|s| writes(s, r));
    let two_words = |k: usize, shape: MovShape| match &m.p.body[k] {
        Stmt::Isa(Instruction { form: Form::Mov(Mov { shape: sh, .. }), operands, guard: None, .. })
            if *sh == shape =>
        {
            Some(operands)
        }
        _ => None,
    };
    let unpack_at = last_writer(x, neg_at).filter(|&k| k > pack_at)?;
    let unpack = two_words(unpack_at, MovShape::Unpack(2))?;
    let pack = two_words(pack_at, MovShape::Pack(2))?;
    let (Some(Operand::Vector(dst_words)), Some(src)) = (unpack.first(), unpack.get(1)) else { return None };
    let (Some(packed), Some(Operand::Vector(src_words))) = (pack.first(), pack.get(1)) else { return None };
    let d = m.reg_of(packed).ok().filter(|d| d.class().bits() == 64)?;
    // The unpack reads the pack's register, unwritten between.
    (m.reg_of(src).ok()? == d && last_writer(d, unpack_at) == Some(pack_at)).then_some(())?;
    let k = dst_words.iter().position(|o| m.reg_of(o).ok() == Some(x))?;
    let e = m.reg_of(src_words.get(k)?).ok().filter(|e| e.class().bits() == 32)?;
    last_writer(e, pack_at)
}
