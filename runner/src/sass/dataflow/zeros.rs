//! Bits known to be zero ([`State::zeros`](super::State)): a zero-extending load's upper bits
//! and what copies, masks, byte moves, shifts and selects keep of them. A `LOP3.LUT` that masks
//! with such a register gives zeros there whatever its other sources hold, defined or not
//! (`LDG.E.U8 R8; LOP3.LUT R9, R7, R8, RZ, 0xc0` with R7's upper half never written: R9's upper
//! bits are zero; corpus/findings/fuzz-h200-3702/trace/TU3.md, finding e556a38c).

use super::propagate::{lut_inputs, prmt_bits, Val};
use crate::sass::parse::{Instr, Operand, Reg};

/// The known-zero bits of operand `o`, which names register `r` whose known-zero bits are
/// `reg_zeros`: those, when the operand is the register itself (a negated, complemented or
/// half-selected operand is another value: none).
pub(super) fn of_operand(reg_zeros: u32, o: &Operand, r: Reg) -> u32 {
    let plain = o.text.trim().trim_end_matches(".reuse");
    if plain == r.to_string() {
        reg_zeros
    } else {
        0
    }
}

/// The bits of the register result of `ins` known to be zero, given its sources `src` (their
/// known-zero bits in [`Val::zeros`]); 0 for an instruction not modelled.
pub(super) fn of_result(ins: &Instr, src: &[Val]) -> u32 {
    let mods: Vec<&str> = ins.modifiers().collect();
    let imm = |k: usize| src.get(k).and_then(|v| v.imm);
    let zeros = |k: usize| src.get(k).map_or(0, |v| v.zeros);
    match (ins.opcode(), mods.as_slice()) {
        // An 8- or 16-bit unsigned load zero-extends to the register (§9.7.9.8 ld: "zero-extended
        // to the destination register width for unsigned and bit-size types"; ptxas's
        // `ld.global.u8` is `LDG.E.U8`).
        ("LD" | "LDG" | "LDS" | "LDL" | "LDC" | "ULDC", m) if m.contains(&"U8") => 0xffff_ff00,
        ("LD" | "LDG" | "LDS" | "LDL" | "LDC" | "ULDC", m) if m.contains(&"U16") => 0xffff_0000,
        ("MOV" | "UMOV" | "R2UR", []) if src.len() == 1 => zeros(0),
        // IMAD.MOV D, RZ, RZ, K: the immediate's zeros.
        ("IMAD", ["MOV"] | ["MOV", "U32"]) if src.len() == 3 => imm(2).map_or(0, |k| !k),
        ("PRMT" | "UPRMT", []) if src.len() == 3 => imm(1).map_or(0, |sel| prmt_bits(sel, zeros(0), zeros(2))),
        ("SEL" | "USEL", []) if src.len() == 3 => zeros(0) & zeros(1),
        // Bit i is zero where every value of the known bits gives 0 (§9.7.8.6 lop3).
        ("LOP3" | "ULOP3", ["LUT"]) if src.len() >= 4 => {
            let Some(lut) = imm(3) else { return 0 };
            (0..32).filter(|&bit| lut_bit_zero(lut, &src[..3], bit)).fold(0, |m, b| m | 1 << b)
        }
        // Shifts by an immediate shift zeros in (§9.7.8.8 shl, §9.7.8.9 shr, §9.7.8.7 shf):
        // `SHF.L.U32 D, A, K, RZ` and `SHF.R.U32.HI D, RZ, K, C`.
        ("SHF" | "USHF", ["L", "U32"]) => match imm(1) {
            Some(k) if k < 32 => (zeros(0) << k) | ((1u32 << k) - 1),
            _ => 0,
        },
        ("SHF" | "USHF", ["R", "U32", "HI"]) => match imm(1) {
            Some(k) if k < 32 => (zeros(2) >> k) | !(u32::MAX >> k),
            _ => 0,
        },
        ("IMAD", ["SHL", "U32"]) => match imm(1) {
            Some(k) if k.is_power_of_two() => {
                let t = k.trailing_zeros();
                (zeros(0) << t) | ((1u32 << t) - 1)
            }
            _ => 0,
        },
        _ => 0,
    }
}

/// Whether bit `bit` of `LOP3.LUT` with table `lut` on `src` (A, B, C) is zero: the table gives
/// 0 for every value of the inputs that their known bits allow.
fn lut_bit_zero(lut: u32, src: &[Val], bit: u32) -> bool {
    let class = lut_inputs(src, bit);
    (0..8u32).all(|idx| {
        let value = |k: usize| (idx >> (2 - k)) & 1;
        (0..3).any(|k| class[k].0.is_some_and(|x| x != value(k))) || (lut >> idx) & 1 == 0
    })
}
