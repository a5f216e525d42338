//! Semantics of `prmt` (§9.7.9.7): pick four bytes of the 8-byte value `{b, a}` by four 4-bit
//! selectors (generic form: bits 2:0 choose the byte, bit 3 replicates its sign bit), or by
//! the two low bits of `c` through a mode's table. Only `c[15:0]` (generic) or `c[1:0]`
//! (modes) matter.

use crate::isa::{Prmt, PrmtMode};

/// The source byte of each destination byte `d.b0..d.b3` for a mode and selector `c[1:0]`
/// (the table of §9.7.9.7, written as `[d.b0, d.b1, d.b2, d.b3]`).
pub fn mode_bytes(mode: PrmtMode, sel: u32) -> [u32; 4] {
    let rows: [[u32; 4]; 4] = match mode {
        PrmtMode::F4e => [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]],
        PrmtMode::B4e => [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]],
        PrmtMode::Rc8 => [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
        PrmtMode::Ecl => [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]],
        PrmtMode::Ecr => [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]],
        PrmtMode::Rc16 => [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]],
    };
    rows[(sel & 3) as usize]
}

/// Evaluates `prmt` on `a`, `b`, `c`.
pub fn eval(p: &Prmt, a: u32, b: u32, c: u32) -> u32 {
    let tmp = (u64::from(b) << 32) | u64::from(a);
    let byte = |i: u32| ((tmp >> (8 * i)) & 0xFF) as u32;
    let mut d = 0;
    for k in 0..4 {
        let v = match p.mode {
            None => {
                let ctl = (c >> (4 * k)) & 0xF;
                let v = byte(ctl & 7);
                if ctl & 8 != 0 {
                    // Replicate the byte's sign bit over all 8 bits.
                    if v & 0x80 != 0 {
                        0xFF
                    } else {
                        0
                    }
                } else {
                    v
                }
            }
            Some(mode) => byte(mode_bytes(mode, c)[k as usize]),
        };
        d |= v << (8 * k);
    }
    d
}
