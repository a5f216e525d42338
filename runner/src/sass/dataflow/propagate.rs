//! How a propagating SASS instruction defines its destination's bits from its sources' defined
//! and known-zero bits (moves, logic, `PRMT`, `LOP3`, shifts, sums and products), for the
//! never-written-register walk of [`super`].

use super::super::parse::Instr;

/// Bits `0..=i` of each source defined → bit `i` of a sum or product defined.
pub(super) fn upward(bits: u32) -> u32 {
    // The lowest undefined bit and everything above it are undefined.
    let first_undefined = (!bits).trailing_zeros();
    if first_undefined >= 32 {
        u32::MAX
    } else {
        (1u32 << first_undefined).wrapping_sub(1)
    }
}

/// A source of a propagating instruction: its defined bits, the bits known to be zero and, for
/// an immediate, its value.
#[derive(Clone, Copy)]
pub(super) struct Val {
    pub(super) defined: u32,
    /// Known to be zero: an immediate's zero bits, those of a register in [`super::State::zeros`].
    pub(super) zeros: u32,
    pub(super) imm: Option<u32>,
}

/// How a propagating instruction defines its first destination register from its sources,
/// or `None` for an instruction that reads its sources (and is checked).
pub(super) fn propagate(ins: &Instr, src: &[Val]) -> Option<u32> {
    let mods: Vec<&str> = ins.modifiers().collect();
    let imm = |k: usize| src.get(k).and_then(|v| v.imm);
    let def = |k: usize| src.get(k).map_or(u32::MAX, |v| v.defined);
    // The second factor's trailing zeros (and whether it is a power of two or zero, where that
    // is known): an immediate's, or a defined register's low bits known to be zero.
    let factor_zeros = || match (imm(1), src.get(1)) {
        (Some(k), _) => Some((k.trailing_zeros(), k.is_power_of_two() || k == 0)),
        (None, Some(v)) if v.defined == u32::MAX && v.zeros.trailing_ones() > 0 => {
            Some((v.zeros.trailing_ones(), false))
        }
        _ => None,
    };
    match (ins.opcode(), mods.as_slice()) {
        // Copies, also into a uniform register (`R2UR UR8, R2`: a cache policy on its way to a
        // descriptor).
        ("MOV" | "UMOV" | "R2UR", []) if src.len() == 1 => Some(def(0)),
        // IMAD.MOV D, RZ, RZ, C (C may be negated: upwards, as a subtraction).
        ("IMAD", ["MOV"] | ["MOV", "U32"]) if src.len() == 3 => Some(upward(def(2))),
        // PRMT D, A, SEL, B: byte i of D is byte SEL[i] of B:A (bit 3: its sign, replicated).
        ("PRMT" | "UPRMT", []) if src.len() == 3 => Some(prmt_bits(imm(1)?, def(0), def(2))),
        // LOP3.LUT D, A, B, C, LUT, …: bit i of D is defined when, whatever the defined bits
        // of A, B and C are, it does not depend on their undefined bits.
        ("LOP3" | "ULOP3", ["LUT"]) if src.len() >= 4 => {
            let lut = imm(3)?;
            Some((0..32).filter(|&bit| lut_bit_defined(lut, &src[..3], bit)).fold(0, |m, b| m | 1 << b))
        }
        // Shifts by an immediate move the defined bits; zeros shifted in are defined, copies of
        // the sign bit are as defined as it is. SHF D, A, K, C: `.L.U32` shifts A, `.R.*.HI`
        // shifts C, the 64-bit forms shift the pair C:A.
        ("SHF" | "USHF", _) if imm(1).is_some() => {
            let k = imm(1)?;
            let wrap = mods.contains(&"W");
            let undefined = |k_max: u32| if wrap { k & (k_max - 1) } else { k.min(k_max) };
            let (a, c) = (u64::from(!def(0)), u64::from(!def(2)));
            let sign = |v: u64| if v & (1 << 31) != 0 { u64::MAX } else { 0 };
            let shl = |v: u64, k: u32| v.checked_shl(k).unwrap_or(0);
            let shr = |v: u64, k: u32| v.checked_shr(k).unwrap_or(0);
            let pair = (c << 32) | a;
            let out_undefined: u64 = match mods.iter().filter(|m| **m != "W").copied().collect::<Vec<_>>().as_slice() {
                ["L", "U32"] => shl(a, undefined(32)),
                ["R", "U32", "HI"] => shr(c, undefined(32)),
                ["R", "S32", "HI"] => shr(c, undefined(32)) | shl(sign(c), 32 - undefined(32)),
                ["R", "U64"] => shr(pair, undefined(64)),
                ["R", "S64"] => match undefined(64) {
                    0 => pair,
                    k => shr(pair, k) | shl(sign(c), 64 - k),
                },
                ["L", "U64", "HI"] => shr(shl(pair, undefined(64)), 32),
                _ => return None,
            };
            Some(!(out_undefined as u32))
        }
        // A left shift by a register amount: upwards, if the amount is defined.
        ("SHF" | "USHF", ["L", "U32"]) if def(1) == u32::MAX => Some(upward(def(0))),
        ("IMAD", ["SHL", "U32"]) if imm(1).is_some_and(u32::is_power_of_two) => {
            Some(!(!def(0) << imm(1)?.trailing_zeros()))
        }
        // SGXT D, A, N: the low N bits of A, sign-extended.
        ("SGXT", _) => {
            let n = imm(1)?.clamp(1, 32);
            let low = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
            Some(if def(0) & low == low { u32::MAX } else { 0 })
        }
        // Shift-and-add LEA D, A, B, K: (A << K) + B, upwards.
        // The high form LEA.HI D, A, B, [C,] K adds to B a value made of A's (and C's) high
        // bits: upwards from B when those are all defined.
        ("LEA" | "ULEA", m) if m.contains(&"HI") && src.len() >= 3 => {
            let others = src.iter().enumerate().filter(|&(k, _)| k != 1).all(|(_, v)| v.defined == u32::MAX);
            Some(if others { upward(def(1)) } else { 0 })
        }
        ("LEA" | "ULEA", m) if !m.contains(&"HI") && imm(2).is_some() => {
            Some(upward(!(!def(0) << (imm(2)? & 31)) & def(1)))
        }
        // Multiply-add by an immediate IMAD D, A, K, C with t = K's trailing zeros: bit i of A·K
        // depends on A's bits 0..=i−t only (it is A's bit i−t where K = 2^t; `IMAD R4, R23,
        // -0x10000, R4` needs only R23's low half), then + C upwards. The same for a defined
        // factor in a register whose t low bits are known zero (`IMAD.MOV.U32 R9, RZ, RZ,
        // -0x10000; IMAD R0, R0, R9, 0x3f`: seed 4803's 818a0df7, a false alarm before).
        ("IMAD", m) if !m.iter().any(|x| matches!(*x, "WIDE" | "HI")) && factor_zeros().is_some() => {
            let (t, power_of_two) = factor_zeros()?;
            let shifted = !(!def(0)).checked_shl(t).unwrap_or(0);
            let product = if power_of_two { shifted } else { upward(shifted) };
            Some(if imm(2) == Some(0) { product } else { upward(product & def(2)) })
        }
        // Paired 16-bit operations (`VIMNMX.U16x2`, `VIADD.16x2`): each half from the same halves.
        ("VIMNMX" | "VIADD" | "VIADDMNMX" | "VIMNMX3", m) if m.iter().any(|x| x.ends_with("16x2")) => {
            let all = src.iter().fold(u32::MAX, |a, v| a & v.defined);
            Some([0x0000_ffffu32, 0xffff_0000].iter().filter(|h| all & **h == **h).fold(0, |m, h| m | h))
        }
        // Adds, multiplies, shift-and-add: a low bit of the result depends on no higher bit.
        ("IADD3" | "UIADD3" | "VIADD" | "LEA" | "ULEA", m) if !m.contains(&"HI") => {
            Some(upward(src.iter().fold(u32::MAX, |a, v| a & v.defined)))
        }
        ("IMAD", m) if !m.iter().any(|x| matches!(*x, "WIDE" | "HI")) => {
            Some(upward(src.iter().fold(u32::MAX, |a, v| a & v.defined)))
        }
        _ => None,
    }
}

/// `PRMT D, A, SEL, B` of a property held bit by bit (defined, known zero): byte i of D has
/// that of byte `SEL[i]` of B:A, or with bit 3 of `SEL[i]` that of the byte's sign bit, replicated
/// (§9.7.9.7 prmt: a sign-replicated byte is defined, or zero, where the sign bit is).
pub(super) fn prmt_bits(sel: u32, a: u32, b: u32) -> u32 {
    let pair = (u64::from(b) << 32) | u64::from(a);
    let mut out = 0u32;
    for i in 0..4 {
        let n = (sel >> (4 * i)) & 0x7;
        let byte = (pair >> (8 * n)) as u32 & 0xff;
        let byte = match (sel & (0x8 << (4 * i)) != 0, byte & 0x80 != 0) {
            (false, _) => byte,
            (true, true) => 0xff,
            (true, false) => 0,
        };
        out |= byte << (8 * i);
    }
    out
}

/// Bit `bit` of each of `src` (A, B, C) as the table of a `LOP3.LUT` sees it: `Some(v)` a known
/// bit (an immediate's, or a bit known to be zero), `None` a bit of unknown value; and whether
/// it is undefined.
pub(super) fn lut_inputs(src: &[Val], bit: u32) -> Vec<(Option<u32>, bool)> {
    src.iter()
        .map(|v| match v.imm {
            Some(x) => (Some((x >> bit) & 1), false),
            None if v.zeros & (1 << bit) != 0 => (Some(0), false),
            None => (None, v.defined & (1 << bit) == 0),
        })
        .collect()
}

/// Whether bit `bit` of `LOP3.LUT` with table `lut` on `src` (A, B, C) is defined: for every
/// value of the inputs' defined bits (an immediate's bit and a bit known to be zero are known),
/// the table gives one result whatever the undefined bits are. The table is indexed by
/// `A·4 + B·2 + C`.
pub(super) fn lut_bit_defined(lut: u32, src: &[Val], bit: u32) -> bool {
    let class = lut_inputs(src, bit);
    let mut seen: [Option<u32>; 8] = [None; 8];
    for idx in 0..8u32 {
        let value = |k: usize| (idx >> (2 - k)) & 1;
        if (0..3).any(|k| class[k].0.is_some_and(|x| x != value(k))) {
            continue;
        }
        // The same defined bits, whatever the undefined ones: one key.
        let key = (0..3).filter(|&k| !class[k].1).fold(0, |m, k| m | value(k) << (2 - k)) as usize;
        let r = (lut >> idx) & 1;
        match seen[key] {
            Some(p) if p != r => return false,
            _ => seen[key] = Some(r),
        }
    }
    true
}
