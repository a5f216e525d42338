//! Where undefined bits were made ([`State::origins`](super::State)), byte by byte: the
//! propagating instruction that read a never-written register into them (`UPRMT UR4, UR17,
//! 0x7610, UR4`: UR4's low half), carried along the def-use chain to the instruction flagged
//! for reading them. By byte, so that a register holding undefined bytes from two origins
//! passes on only the origin of the bytes that go on (`PRMT R9, R2, 0x7604, R9`: byte 1 from
//! R2, bytes 2-3 from the old R9; corpus/findings/fuzz-h200-3702/trace/TU3.md, finding
//! ec9c1ddc, where keeping the earliest origin per register named a PRMT whose bytes reach no
//! store instead of root cause N-6's UPRMT).

use super::{operand_ctx, slot, Bits, Guard, Mask, State};
use crate::sass::parse::{Instr, Reg};

/// The origin of each byte of a register (a predicate's one bit is byte 0).
pub(super) type ByteOrigins = [Option<usize>; 4];

/// The origins of the undefined bytes of registers (sorted by register; a register or byte
/// without undefined bits, or whose undefined bits no instruction made, has none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Origins(Vec<(Reg, ByteOrigins)>);

/// The bytes of `r` with a bit not in `defined` (bit i: byte i).
pub(super) fn undefined_bytes(r: Reg, defined: Mask) -> u8 {
    if slot(r).1 == 1 {
        u8::from(defined & 1 == 0)
    } else {
        (0..4).filter(|b| (defined >> (8 * b)) & 0xff != 0xff).fold(0, |m, b| m | 1 << b)
    }
}

impl Origins {
    /// The origins of `r`'s bytes.
    pub(super) fn bytes(&self, r: Reg) -> ByteOrigins {
        self.0.binary_search_by(|e| e.0.cmp(&r)).map_or([None; 4], |k| self.0[k].1)
    }

    /// The earliest origin of the bytes of `r` in `bytes` (bit i: byte i).
    pub(super) fn of(&self, r: Reg, bytes: u8) -> Option<usize> {
        let all = self.bytes(r);
        (0..4).filter(|b| bytes & (1 << b) != 0).filter_map(|b| all[b]).min()
    }

    /// Sets the origins of `r`'s bytes.
    pub(super) fn set(&mut self, r: Reg, per_byte: ByteOrigins) {
        let keep = per_byte.iter().any(Option::is_some);
        match (self.0.binary_search_by(|e| e.0.cmp(&r)), keep) {
            (Ok(k), true) => self.0[k].1 = per_byte,
            (Ok(k), false) => {
                self.0.remove(k);
            }
            (Err(k), true) => self.0.insert(k, (r, per_byte)),
            (Err(_), false) => {}
        }
    }

    /// Where two paths join: each byte's earlier origin.
    pub(super) fn meet(&self, o: &Origins) -> Origins {
        let mut out = self.clone();
        for &(r, theirs) in &o.0 {
            let mine = out.bytes(r);
            let both: ByteOrigins = std::array::from_fn(|b| mine[b].into_iter().chain(theirs[b]).min());
            out.set(r, both);
        }
        out
    }

    /// Drops the origins of the bytes `defined` has whole.
    pub(super) fn prune(&mut self, defined: &Bits) {
        for e in &mut self.0 {
            let undefined = undefined_bytes(e.0, defined.get(e.0));
            for (b, o) in e.1.iter_mut().enumerate() {
                if undefined & (1 << b) == 0 {
                    *o = None;
                }
            }
        }
        self.0.retain(|e| e.1.iter().any(Option::is_some));
    }
}

/// The origins of the undefined bytes that instruction `i`, `ins` (a propagating one), would
/// carry into its register result where `ctx` holds: of a byte a `PRMT`/`UPRMT` with an
/// immediate selector moves, that byte's; of any other result byte, the earliest of every
/// undefined source byte. A source byte never written has `i` itself as its origin.
pub(super) fn carried(s: &State, i: usize, ins: &Instr, ctx: &[Guard]) -> ByteOrigins {
    let first = ins.ndest.min(ins.operands.len());
    let per_operand: Vec<ByteOrigins> = ins.operands[first..]
        .iter()
        .enumerate()
        .map(|(k, o)| {
            let mut out: ByteOrigins = [None; 4];
            let Some(c) = operand_ctx(ins, first + k, ctx) else { return out };
            for &r in &o.regs {
                let undefined = undefined_bytes(r, s.known(r, &c));
                for (b, slot) in out.iter_mut().enumerate().filter(|(b, _)| undefined & (1 << b) != 0) {
                    let from = s.origins.of(r, 1 << b).unwrap_or(i);
                    *slot = Some(slot.map_or(from, |x| x.min(from)));
                }
            }
            out
        })
        .collect();
    let selector = ins.operands.get(first + 1).and_then(|o| o.imm);
    match (ins.mnemonic.as_str(), per_operand.as_slice(), selector) {
        ("PRMT" | "UPRMT", [a, _, b], Some(sel)) => std::array::from_fn(|j| {
            let n = ((sel >> (4 * j)) & 0x7) as usize;
            if n < 4 {
                a[n]
            } else {
                b[n - 4]
            }
        }),
        _ => [per_operand.iter().flatten().flatten().copied().min(); 4],
    }
}
