//! Whether the undefined bits a flagged read reads were written somewhere in the kernel under
//! a guard or in a branch arm, so that only the lanes the read's own path or guard lost lack
//! them — ptxas -O3's if-conversion that writes a value's register only in an arm (`@!P0 PRMT
//! R0, R3, 0x7632, R0`) and reads it on every lane, the copy of the old value into it never
//! made (root cause N-5 of corpus/findings/fuzz-h200-3201/README.md) — rather than never
//! written at all (a descriptor nothing loads, `UPRMT UR5, UR7, 0x7610, UR5` with UR7 never
//! written, the upper half of `PRMT R5, R7, 0x7610, R5` before a tf32 conversion).
//!
//! The view is the walk's own, read once more for a kernel that has a flagged read (nothing
//! is added to the walk): every register's bits that some reached state holds under a guard
//! ([`State::cond`](super::State)), before or after any instruction ([`guarded_anywhere`]).
//! Where the read is does not matter: in ptxas's if-conversions the arm's write often comes
//! after the read that lost the copy (`PRMT R7, RZ, 0x5410, R0; …; @P0 PRMT R0, RZ, 0x7610,
//! R0`, corpus/findings/fuzz-h200-4003/trace/8d490639/). Bits do not count that the reading
//! instruction writes itself, nor bits written under the very literal the read is guarded by
//! before it (that is the walk's loss, not the compiler's: a guard predicate recomputed after
//! it was clobbered, corpus/findings/fuzz-h200-4003/trace/T7G.md, 2c543d4e), while such bits
//! written after it do (`@!P0 HFMA2.BF16_V2 R6, …, R9.H0_H0; @!P0 PRMT R9, R6, …`: the arm
//! reads its value's register before the only write of it, corpus/findings/fuzz-h200-3701/
//! trace/TU2.md, 83b27374).
//!
//! A byte whose undefined bits an earlier instruction made ([`State::origins`](super::State))
//! counts where it is read or where that origin read it. Only R and UR registers' bits count
//! as written: a predicate counts only through an origin that made it of such bits (the carry
//! of `IADD3.X`, corpus/findings/fuzz-h200-3601/trace/T1.md, 75b062aa). Where the origin is
//! itself the arm's write of the lost register and computes from it (`@P0 LOP3.LUT R6, R7, R6,
//! RZ, 0xfc, !PT` for the arm's `or.b16 h1, h2, h1`; `@!P1 SEL R0, R0, RZ, P0`), no bit of it is
//! ever defined under a guard, yet the bytes it read of its own register count as written there
//! ([`computes_from_own_register`]: a guarded instruction, not under the reader's guard, whose
//! sources include the register it writes; corpus/findings/fuzz-h200-4203/trace/T12c1.md,
//! 22465283 and e459bfd2). Only through an origin, as those listings show: a read of the
//! register itself, or an unguarded merge into it (`PRMT R8, R3, 0x7610, R8`), does not count.
//! Guards are where the
//! walk itself loses facts, and a predicate written only under a guard is a compare chain's,
//! e.g. the `@!P0 ISETP.LE.U32.AND P3, …, P3` of corpus/findings/fuzz-h200-3902/trace/11dec73a/
//! v2_no_redefine, whose P3 an `LOP3.LUT` that ptxas dropped should have written: no
//! if-conversion's value.

use super::origins::undefined_bytes;
use super::{after, bits_of, operand_ctx, read_undefined_bytes, slot, whole, Ctx, Guard, Mask, State};
use crate::sass::parse::{Function, Instr, Reg};

/// A register's bits defined under a guard in some reached state of a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct GuardedBits {
    /// The instruction before which (`written == None`) or after which they are defined.
    at: usize,
    /// The instruction that wrote them, where the state after it is the one that has them
    /// (`None`: a state before an instruction, where a join can have made them from an arm).
    written: Option<usize>,
    reg: Reg,
    guard: Guard,
    mask: Mask,
}

/// Every register's bits that some reached state of `f` has defined under a guard: written in
/// an arm or by a guarded instruction somewhere in the kernel. `state` is the walk's state
/// before each instruction.
pub(super) fn guarded_anywhere(f: &Function, state: &[Option<State>]) -> Vec<GuardedBits> {
    let mut out: Vec<GuardedBits> = Vec::new();
    for (at, s) in state.iter().enumerate() {
        let Some(s) = s else { continue };
        let ins = &f.instrs[at];
        out.extend(s.cond.iter().map(|&(reg, guard, mask)| GuardedBits { at, written: None, reg, guard, mask }));
        let next = after(s, at, ins);
        out.extend(next.cond.iter().filter(|e| ins.defs.contains(&e.0)).map(|&(reg, guard, mask)| GuardedBits {
            at,
            written: Some(at),
            reg,
            guard,
            mask,
        }));
    }
    out
}

/// The bits of `r` that `guarded` ([`guarded_anywhere`]) has and instruction `i` may count:
/// not those `i` wrote itself (its own write is not the value it reads), nor those written
/// under `i`'s own guard at or before it.
fn guarded_bits(guarded: &[GuardedBits], r: Reg, i: usize, own_guard: Option<Guard>) -> Mask {
    guarded
        .iter()
        .filter(|e| e.reg == r && e.written != Some(i) && !(Some(e.guard) == own_guard && e.at <= i))
        .fold(0, |m, e| m | e.mask)
}

/// Whether every undefined byte that instruction `i` of `f` reads of `regs` (those it is
/// flagged for) was written under a guard or in an arm somewhere in the kernel (`guarded`,
/// [`guarded_anywhere`]; by another instruction, [`guarded_bits`]): there, or where the byte
/// has an origin, at that origin ([`origin_written`]; origins are per byte only through a
/// `PRMT`, an `LOP3` gives every byte of its result the earliest one, so that `@!P1 PRMT R7, RZ,
/// 0x7610, R7; LOP3.LUT R7, R7, R6, …; STG.E.U8 […], R7` names the `PRMT` that read R7's
/// never-written upper half while the byte stored is R7's low byte, written under !P1:
/// corpus/findings/fuzz-h200-3802/trace/387dd709/). `state` is the walk's state before each
/// instruction.
pub(super) fn written(f: &Function, state: &[Option<State>], guarded: &[GuardedBits], i: usize, regs: &[Reg]) -> bool {
    let Some(s) = &state[i] else { return false };
    let ins = &f.instrs[i];
    let ctx: Ctx = ins.guard.into_iter().collect();
    let mut any = false;
    for &r in regs {
        let bytes = read_undefined_bytes(s, ins, r);
        let undefined = !s.known(r, &ctx) & guarded_bits(guarded, r, i, ins.guard);
        for b in (0..4).filter(|b| bytes & (1 << b) != 0) {
            any = true;
            // A predicate counts only through its origin (a carry-out of undefined bits).
            let here = slot(r).1 == 32 && undefined & bits_of(1 << b) != 0;
            let origin = s.origins.of(r, 1 << b);
            if !here && !origin.is_some_and(|k| origin_written(f, state, guarded, k, ins.guard)) {
                return false;
            }
        }
    }
    any
}

/// Whether a never-written byte that origin `k` (a propagating instruction) read into its
/// result was written under a guard or in an arm somewhere (as [`written`] judges a byte
/// without an origin), or is a byte of the register `k` writes under a guard other than the
/// reader's (`reader_guard`), which `k` reads itself ([`computes_from_own_register`]): for a
/// `PRMT`/`UPRMT` with an immediate selector, one of the source bytes it moves; otherwise one of
/// its source bytes (one, not every: `LOP3.LUT R18, R0, 0xff, RZ, 0xc0, !PT` reads R0's upper
/// bytes, never written, only to clear them, and its low byte, written by an arm's `@!P0 PRMT R0,
/// R3, 0x7632, R0`: corpus/findings/fuzz-h200-3903/trace/387dd709/).
fn origin_written(
    f: &Function,
    state: &[Option<State>],
    guarded: &[GuardedBits],
    k: usize,
    reader_guard: Option<Guard>,
) -> bool {
    let Some(s) = &state[k] else { return false };
    let ins = &f.instrs[k];
    let ctx: Ctx = ins.guard.into_iter().collect();
    let first = ins.ndest.min(ins.operands.len());
    // Per source operand and byte: `Some(written somewhere)` for a byte undefined with no
    // earlier origin (of a pair, whether all its registers' such bytes were), `None` otherwise.
    let per_operand: Vec<[Option<bool>; 4]> = ins.operands[first..]
        .iter()
        .enumerate()
        .map(|(n, o)| {
            let mut out = [None; 4];
            let Some(c) = operand_ctx(ins, first + n, &ctx) else { return out };
            for &r in o.regs.iter().filter(|r| slot(**r).1 == 32) {
                let known = s.known(r, &c);
                let undefined = undefined_bytes(r, known);
                let own = if computes_from_own_register(ins, r, reader_guard) { whole(r) } else { 0 };
                let somewhere = !known & (guarded_bits(guarded, r, k, ins.guard) | own);
                for (b, slot) in out.iter_mut().enumerate() {
                    if undefined & (1 << b) == 0 || s.origins.of(r, 1 << b).is_some() {
                        continue;
                    }
                    *slot = Some(slot.unwrap_or(true) && somewhere & bits_of(1 << b) != 0);
                }
            }
            out
        })
        .collect();
    let selector = ins.operands.get(first + 1).and_then(|o| o.imm);
    let moved: Vec<Option<bool>> = match (ins.mnemonic.as_str(), per_operand.as_slice(), selector) {
        ("PRMT" | "UPRMT", [a, _, b], Some(sel)) => (0..4)
            .map(|j| {
                let n = ((sel >> (4 * j)) & 0x7) as usize;
                if n < 4 {
                    a[n]
                } else {
                    b[n - 4]
                }
            })
            .collect(),
        _ => per_operand.iter().flatten().copied().collect(),
    };
    moved.into_iter().flatten().any(|w| w)
}

/// Whether `ins` is a guarded write of `r` that reads `r` as a source, under a guard other than
/// `reader_guard` (the flagged read's): the arm's write of the register whose else-value the
/// if-conversion lost, computing from that lost value (`@P0 LOP3.LUT R6, R7, R6, RZ, 0xfc, !PT`
/// for the arm's `or.b16 h1, h2, h1`, corpus/findings/fuzz-h200-4203/trace/T12c1.md, 22465283;
/// `@!P1 SEL R0, R0, RZ, P0` for `@!p4 mov.u16 h0, h1`, e459bfd2). No bit of `r` is ever defined
/// under a guard there, yet the lanes that skip the guard are the ones that lost the value. On
/// the lanes of the reader's own guard it is the reader's own loss (the walk's, or a value
/// computed from a register nothing wrote on those lanes either), not an arm's.
fn computes_from_own_register(ins: &Instr, r: Reg, reader_guard: Option<Guard>) -> bool {
    let first = ins.ndest.min(ins.operands.len());
    ins.guard.is_some_and(|g| Some(g) != reader_guard)
        && ins.defs.contains(&r)
        && ins.operands[first..].iter().any(|o| o.regs.contains(&r))
}
