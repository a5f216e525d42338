//! A word ptxas knows through a 64-bit `mov` pack and unpack: 3701-C1N4 (`bfi.b32` with a
//! constant `len` of 32 or more folded with len mod 32) where `len` is a word of `mov.b64 {lo,
//! hi}, d` and `d` a `mov.b64 d, {x, y}` pack whose element at that word is a constant ptxas
//! folds (seed 4802's 1ddf67e8, corpus/findings/fuzz-h200-4802/trace/T19v4.md; variants
//! `trace/1ddf67e8/` and `trace/1ddf67e8/s49/`; helper x4, session 49).
//!
//! Mechanism (ptxas 13.0.88 -O3 and the JIT; 13.5 and -O0 right): constant propagation sees
//! through the pack and the unpack (§9.7.9.4 `mov`: an unpacked word is the packed element's
//! bits), so `mov.u32 r0, 0x9b0961c7; mov.b64 d0, {r0, r1}; mov.b64 {r5, r6}, d0; bfi.b32 r8,
//! a, b, 14, r5` is folded as for the moved `len` itself: `ULOP3.LUT UR4, URZ, 0x1fc000, UR4,
//! 0xe2` (199 mod 32 = 7 bits at 14) where §9.7.1.20 inserts up to the msb (0xffffc000).
//! Wrong alike (13.0.88 -O3, every one `LOP3.LUT R7, RZ, 0x1fc000, R2, 0xe2`): the case,
//! `v1_no_pack_unpack` (no pack: already the moved `len`), `v2_len_unpacked_loaded_b`,
//! `s49/w1_high_word_of_unpack` (the high word, the low element loaded), `s49/
//! w2_other_element_loaded` (the other element a load: element-wise), `s49/w3_unpack_of_moved_b64`
//! (a moved 64-bit immediate unpacked, [`folded_unpack`]), `s49/w4_copy_of_pack` (a `mov.b64`
//! copy of the pack between). Right: a loaded `len` packed and unpacked (`v3_len_loaded`:
//! `BMSK`), a guarded unpack over a moved 7 (`s49/w6_guarded_unpack`: `SEL; BMSK`); a `len` of 31
//! (`s49/w5_len_31_right`) is the spec's anyway.
//!
//! Invariants: a condition on the program's statements (the value is the register's own);
//! bounded by [`COPIES`] 64-bit copies and the folded-constant depth.

use super::fuzz3701::{folded_constant, last_writer, reaches_on_every_path};
use super::j_constant_unpacked_from_a_folded_b64::folded_unpack;
use crate::isa::operand::Operand;
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// How many unguarded `mov.b64` copies may stand between the pack and the unpack.
const COPIES: u32 = 3;

/// Whether 32-bit register `r`, read at body index `before`, was last written (on every path) by
/// an unguarded `mov.b64 {lo, hi}, d` whose `d` is a folded 64-bit constant ([`folded_unpack`])
/// or, through at most [`COPIES`] unguarded copies, an unguarded `mov.b64 d, {x, y}` pack whose
/// element at `r`'s word is an immediate or a [`folded_constant`]; each of them reaching the next
/// on every path.
pub(super) fn known_word_of_an_unpack(m: &Machine<'_>, before: usize, r: Reg) -> bool {
    if folded_unpack(m, before, r, 3) {
        return true;
    }
    let Some((k, Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }))) =
        last_writer(m, before, r)
    else {
        return false;
    };
    let (Some(Operand::Vector(dsts)), Some(src)) = (operands.first(), operands.get(1)) else { return false };
    let word = dsts.iter().position(|o| m.reg_of(o).ok() == Some(r));
    let (Some(word), Ok(mut d)) = (word, m.reg_of(src)) else { return false };
    if mv.shape != MovShape::Unpack(2) || r.class().bits() != 32 || !reaches_on_every_path(m, k, before) {
        return false;
    }
    let mut at = k;
    for _ in 0..=COPIES {
        let Some((j, Stmt::Isa(Instruction { form: Form::Mov(w), operands, guard: None, .. }))) = last_writer(m, at, d)
        else {
            return false;
        };
        // The pack or copy must reach its reader on every path (not stand in a skipped arm).
        if !reaches_on_every_path(m, j, at) {
            return false;
        }
        match (w.shape, operands.get(1)) {
            (MovShape::Pack(2), Some(Operand::Vector(items))) => {
                return match items.get(word) {
                    Some(Operand::Imm(_)) => true,
                    Some(o) => m.reg_of(o).is_ok_and(|x| folded_constant(m, j, x, 3)),
                    None => false,
                };
            }
            (MovShape::Copy, Some(o)) => match m.reg_of(o) {
                Ok(s) if s.class().bits() == 64 => (d, at) = (s, j),
                _ => return false,
            },
            _ => return false,
        }
    }
    false
}
