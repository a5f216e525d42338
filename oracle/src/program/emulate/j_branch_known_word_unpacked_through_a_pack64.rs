//! J's branch-known value (`corpus/known/fuzz-h100-j-branch-constant-splat.toml`,
//! [`Deviation::BranchConstantHighHalfIsItsLowHalf`]) through a 64-bit pack: ptxas 13.0.88 -O3
//! (and the JIT; 13.5 right) rebuilds every 16-bit half of a word it knows from a branch,
//! `setp.ne.{u32,s32} p, v, K; @p bra L`, from K's low half, also where v is a word of
//! `mov.b64 d, {e0, e1}` (§9.7.9.4: e0 the low word) unpacked to 16-bit elements,
//! `mov.b64 {h0, h1, h2, h3}, d`: the element holding v's high half (h1 of e0, h3 of e1) is K's
//! low half, the spec's v >> 16.
//!
//! Evidence (seed 5102's 766f2aa7, corpus/findings/fuzz-h200-5102/trace/T22b.md, variants in
//! trace/766f2aa7/s51/): `mov.b64 d0, {tix, r2}; setp.ne.u32 p3, tix, 0x33; @p3 bra L1;
//! mov.b64 {h0, h3, h2, h1}, d0; L1: st.s16 h3` is `@!P0 PRMT R0, R4(=0x33), 0x7610, R0` (0x33,
//! the spec 0), the listing of J's `mov.b32 {lo, hi}, tix` (`v6_b32_unpack_reference`). Wrong
//! alike: h3 of `{0, tix}` (`v4_high_word`), a loaded other word (`v7`), the pack in the arm
//! (`v9`), the unpack before the branch with h3 read in the arm (`v10`, J's unpack ahead of the
//! branch, [`fall_through_fixed_ahead`]), d0 also stored whole (`v11`), `setp.ne.s32` (`v12`).
//! Right: h0 (`v2`: K's low half is the spec's), a 32-bit unpack of d0 (`v3`), `setp.eq; @!p
//! bra` (`v5`), d0 copied whole (`v8`) — none of which this changes.
//!
//! Invariants: an element changes only when J's branch deviation is emulated, the unpack's
//! source was last written by an unguarded 64-bit pack of 32-bit words, the element is a
//! high half that is read, its word is kept from the pack to the unpack and holds K (exact)
//! where a branch fixes it ([`branch_fixed`] or [`fall_through_fixed_ahead`]); the results are
//! returned as given otherwise.

use super::fuzz3602::fall_through_fixed_ahead;
use super::j_branch_known_values::branch_fixed;
use super::origin::value_readers;
use super::values::pack64_of;
use crate::isa::operand::Operand;
use crate::program::exec::Machine;
use crate::program::glue::GlueType;
use crate::program::Reg;
use crate::semantics::{Deviation, Expected};

/// The compares that fix a word (J's `.u32` and `.s32`: 766f2aa7 `v1_core`, `v12_s32_compare`).
const TYPES: [GlueType; 2] = [GlueType::U32, GlueType::S32];

/// The 16-bit elements of `mov.b64 {h0, h1, h2, h3}, w` being run (`items`, `results` the
/// spec's) under J's branch-known value: each read high-half element (h1, h3) of a word of the
/// pack that wrote `w` which a branch fixes to K is K's low half.
pub(super) fn unpacked(
    m: &mut Machine<'_>,
    t: u32,
    w: Reg,
    items: &[Operand],
    mut results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::BranchConstantHighHalfIsItsLowHalf;
    if !m.allow.emulates(d) || w.class().bits() != 64 || items.len() != 4 {
        return results;
    }
    let Some(words) = packed_words(m, t, w) else { return results };
    let mut splats = Vec::new();
    for k in [1, 3] {
        let Some(h) = items.get(k).and_then(|o| m.reg_of(o).ok()) else { continue };
        let Some(&(e, ref value)) = words.get(k / 2) else { continue };
        if value_readers(m, m.stmt, h) == 0 || !value.is_exact() {
            continue;
        }
        let known = branch_fixed(m, e, m.stmt, &TYPES).or_else(|| fall_through_fixed_ahead(m, e, h, &TYPES));
        if let Some(c) = known.filter(|&c| value.bits as u64 & 0xFFFF_FFFF == c) {
            splats.push((h, c & 0xFFFF));
        }
    }
    for (h, v) in splats {
        if let Some((_, e)) = results.iter_mut().find(|(r, _)| *r == h) {
            let from = e.clone();
            *e = m.fire(d, &from, Expected::exact(u128::from(v), from.width));
        }
    }
    results
}

/// The two 32-bit words (register, value now) of the unguarded `mov.b64 w, {e0, e1}` that last
/// wrote `w` in thread `t`, each kept from the pack to the statement being run.
fn packed_words(m: &Machine<'_>, t: u32, w: Reg) -> Option<Vec<(Reg, Expected)>> {
    let (_, _, words) = pack64_of(m, t, w)?;
    words.iter().map(|e| e.and_then(|e| m.read(t, e).ok().map(|v| (e, v)))).collect()
}
