//! J's branch-known value (`corpus/known/fuzz-h100-j-branch-constant-splat.toml`,
//! [`Deviation::BranchConstantHighHalfIsItsLowHalf`]) one size up (session 58, helper hd; seed
//! 5801's ed1b0473, corpus/findings/fuzz-h200-5801/trace/T58D.md, variants in trace/ed1b0473/s58/):
//! in the fall-through of `setp.ne.{u64,s64} p, v, K; @p bra L`, ptxas 13.0.88 -O3 (and the JIT;
//! 13.5 right) rebuilds the 64-bit v from K's low word alone, so v's high word reads as K's low
//! word where the spec (§9.7.9.4) gives K's high word — as the 32-bit J reads v's high half as K's
//! low half.
//!
//! Evidence (13.0.88 -O3): `ld.global.u64 d0 (= 1); mov.b32 r2, 0; setp.ne.u64 p1, d0, 1; @p1 bra
//! L0; mov.b64 {r0, r2}, d0; L0: mov.b32 {h21, h22}, r2; st.u16 h21` is `IMAD.MOV.U32 R6, RZ, RZ,
//! 0x1; … @!P0 PRMT R0, R6, 0x7610, R0` (1, the spec 0). Wrong alike: K = 0x500000001 (`v1`: 1, the
//! spec 5; 13.5 `0x5`), `setp.ne.s64` (`v3`), K = 0x12345678 (`v5`/`v6`: the high word's halves
//! 0x5678 and 0x1234, the spec 0), element 2 of `mov.b64 {h0, h1, h2, h3}, d0` (`v7`: 1). Right:
//! the low word (`v2`: K's low word is the spec's), `setp.eq; @!p bra` (`v4`: `@!P0 PRMT R0, R3`).
//!
//! Its bit-manipulation readers (session 59, helper id; seed 5902's ea4a3d40,
//! corpus/findings/fuzz-h200-5902/trace/T59D.md, variants in trace/ea4a3d40/s59/): ptxas folds
//! `popc.b64`, `clz.b64` and `brev.b64` of v in the fall-through from the same rebuilt value, K's low
//! word in both words (§9.7.13 gives them K's): `mov.b32 r2, 0; ld.global.b64 d0 (= 3); setp.ne.u64
//! p0, d0, 3; @p0 bra L0; popc.b64 r2, d0; L0: st.u32 r2` is `@!P0 MOV R7, 0x4` (popc(0x3_00000003),
//! the spec 2; 13.5 `0x2`); K = 0x500000001 (`v1`: 2, the spec 3), K = 0x12345678 (`v2`: 26, the
//! spec 13), K = 0x300000000 (`v9`: 0, the spec 2), `.s64` (`v3`), a `mov.b64` copy (`v8`),
//! `clz.b64` (`v6`: 30, the spec 62), `brev.b64` (`v10`: low word 0xc0000000, the spec 0). Right:
//! `setp.eq; @!p bra` (`v4`), the reader after the join (`v5`), `shr.u64 d0, 32` (`v11`: not folded
//! from the rebuilt value, left to the spec).
//!
//! Invariants: an element changes only when J's branch deviation is emulated, the unpacked
//! register is 64-bit, a `.u64`/`.s64` branch fixes it there ([`branch_fixed`]) and its value's low
//! word is K's; only the elements of the high word that are read change.

use super::super::j_branch_known_values::branch_fixed;
use super::super::origin::value_readers;
use super::super::reg_of_glue;
use crate::isa::operand::Operand;
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::Reg;
use crate::semantics::{Deviation, Expected};

/// The 64-bit compares that fix v (`v1_core` `.u64`, `v3_s64`).
const TYPES: [GlueType; 2] = [GlueType::U64, GlueType::S64];

/// The elements of `mov.b64 {e0, e1}, w` or `mov.b64 {h0, h1, h2, h3}, w` being run (`items`,
/// `results` the spec's) with `w` branch-known to K: the high word's elements read as K's low word's.
pub(super) fn unpacked(
    m: &mut Machine<'_>,
    t: u32,
    w: Reg,
    items: &[Operand],
    mut results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::BranchConstantHighHalfIsItsLowHalf;
    if !m.allow.emulates(d) || w.class().bits() != 64 || !matches!(items.len(), 2 | 4) {
        return results;
    }
    let Some(value) = m.read(t, w).ok().filter(Expected::is_exact) else { return results };
    let Some(k) = branch_fixed(m, w, m.stmt, &TYPES).filter(|&k| value.bits as u64 & 0xFFFF_FFFF == k) else {
        return results;
    };
    // The high word rebuilt from K's low word: its elements (one word, or two halves).
    let high: Vec<(usize, u64)> = if items.len() == 2 { vec![(1, k)] } else { vec![(2, k & 0xFFFF), (3, k >> 16)] };
    for (n, v) in high {
        let Some(h) = items.get(n).and_then(|o| m.reg_of(o).ok()) else { continue };
        if value_readers(m, m.stmt, h) == 0 {
            continue;
        }
        if let Some((_, e)) = results.iter_mut().find(|(r, _)| *r == h) {
            let from = e.clone();
            *e = m.fire(d, &from, Expected::exact(u128::from(v), from.width));
        }
    }
    results
}

/// `popc.b64`/`clz.b64`/`brev.b64 d, w` (source values `vals`, the spec's `result`) with `w`
/// branch-known to K (see the module docs): the instruction of K's low word in both words;
/// `None` (the spec stands) elsewhere.
pub(in super::super) fn bit_op(
    m: &Machine<'_>,
    _t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    if !matches!(g.op, GlueOp::Popc | GlueOp::Clz | GlueOp::Brev) || g.ty.bits() != 64 {
        return None;
    }
    let w = reg_of_glue(g, 0)?;
    let v = vals.first().filter(|v| v.is_exact())?.bits as u64;
    let k = branch_fixed(m, w, m.stmt, &TYPES).filter(|&k| v & 0xFFFF_FFFF == k)?;
    let splat = k | k << 32;
    (splat != v).then(|| Expected::exact(u128::from(g.eval([splat, 0, 0, 0], false)), result.width))
}
