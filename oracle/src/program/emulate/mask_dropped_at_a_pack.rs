//! M at a `mov` pack (`emulate.rs`'s [`super::isa`] calls it for every `mov` pack): the low
//! halves an `and.b16` it concerns masked are packed unmasked (the `F16MaskDropped` deviation;
//! corpus/known's M entry and seed 3701's b714f9f1). Nothing changes without the deviation.

use super::origin::unmasked;
use crate::isa::operand::Operand;
use crate::isa::{Instruction, Mov, MovShape};
use crate::program::exec::Machine;
use crate::program::Reg;
use crate::semantics::{Deviation, Expected};

/// A `mov.b32 {a, b}` pack under the emulated deviations: M gives the low half unmasked where
/// an `and.b16` it concerns wrote `a` (ptxas 13.0.88 -O3: `PRMT R0, R0, 0x5410, RZ; PRMT R3,
/// R0, 0x5410, R6`, no `LOP3`; `b` keeps its mask, `PRMT R7, R7, 0x5410, R0` after the `LOP3`).
/// A `mov.b64 {a, b, c, d}` pack builds each 32-bit word the same way: `a` and `c`, the low
/// halves, are unmasked (corpus/findings/fuzz-h200-3701/, b714f9f1, trace/TC3.md: `c`, `PRMT
/// R13, R13, 0x5410, RZ; PRMT R9, R13, 0x5410, R0` with no `LOP3 0xc0`, 13.0.88 -O3).
pub(super) fn packed(
    m: &mut Machine<'_>,
    t: u32,
    mv: &Mov,
    inst: &Instruction,
    results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let [(dst, spec)] = results.as_slice() else { return results };
    let lows: &[usize] = match (mv.shape, dst.class().bits()) {
        (MovShape::Pack(2), 32) => &[0],
        (MovShape::Pack(4), 64) => &[0, 2],
        _ => return results,
    };
    let Some(Operand::Vector(items)) = inst.operands.get(1) else { return results };
    let (dst, from) = (*dst, spec.clone());
    let mut to = from.clone();
    for &k in lows {
        if let Some(v) = items.get(k).and_then(|o| unmasked(m, t, o)) {
            to.replace(16 * k as u32, v.field(0, 16));
        }
    }
    vec![(dst, m.fire(Deviation::F16MaskDropped, &from, to))]
}
