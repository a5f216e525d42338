//! ace805b3: ptxas 13.0.88 and 13.5 -O3 (and the JIT) lower `setp.<cmp>.{u16,s16} p, h, K` (or
//! `p, K, h`) of a half a scalar extending load wrote (`ld.{u8,u16,s8}` under `.u16`, `ld.{u8,s8,s16}` under
//! `.s16`) to a 32-bit `ISETP`
//! of h's register, taking its upper half as the load's extension; where h is packed directly
//! above an e4m3x2/e5m2x2 pair (`mov.b64 d, {h, K', pair, h}`: the pair's `F2FP….PACK_AB_MERGE_C
//! R6, RZ, RZ, R0` takes h as its C) and as the low half of another pack word, that word may be
//! built in h's register (`PRMT R0, R0, 0x7610, R8`) and h rebuilt from the pair word over it
//! (`PRMT R0, R6, 0x7632, R0`), the upper half then holding the other half (0x3a5c): the compare
//! reads it (`ISETP.GT.U32 P1, PT, R0, RZ`), where §9.7.7.1 compares h's 16 bits
//! (`corpus/known/fuzz-h200-4501-ace805b3-compare-of-half-tested-over-stale-upper-half.toml`).
//! Which register the low word goes to is register allocation's, so the emulation is set-valued:
//! an unsigned compare admits the spec's predicate and that of a nonzero upper half (a value
//! above every 16-bit K: `eq`, `lt`, `le` false, `ne`, `gt`, `ge` true), a signed one either
//! predicate (h the second operand: `eq`, `gt`, `ge` false, `ne`, `lt`, `le` true). The pair
//! is a `cvt` from `.f32` pairs or from `.f16x2` (`F2FP….F16.UNPACK_B_MERGE_C`). Where this form
//! (h a word's low half, K an immediate) does not hold, the `{h, h}` form is asked
//! ([`compare_of_loaded_half_rebuilt_over_its_fp8_pair_word::applies`], seed 4802's 95e97556:
//! the pair word {pair, h} built in h's register, h rebuilt from its upper half as {h, h}, K any
//! operand). Called from the glue hook of `emulate.rs`.
//!
//! Evidence: corpus/findings/fuzz-h200-4501/ (ace805b3, trace/T16t2.md, trace/ace805b3/; 13.0.88
//! and 13.5 -O3 listings alike): wrong with an e5m2x2 or e4m3x2 pair (`reduced`, `v8_e4m3`), a
//! pair of a loaded f32 (`v3_pair_of_loaded`), `ld.u16` (`v9_ld_u16`), `lt 5` and `ne 0`
//! (`v10_lt5`, `v10b_ne0`), two `mov.b32` packs (`v12_b32_packs`), `ld.s8` with `setp.le.s16`
//! (`v13_s8_le_s16`: `ISETP.GT.AND`, signed over 32 bits); and (its `s48/`, 13.0.88 -O3) `gt 3`
//! (`w3_gt3`), `ld.u8` under `setp.le.s16` (`w2_u8_le_s16`), `ld.s16` under `.s16`
//! (`w7_s16_load`), `ld.s8` under `.u16` (`w5_s8_le_u16`: the pair built in h's register, h
//! rebuilt as `{h, h}`, wrong for `lt 5` of 3), h twice in the low word (`w4_h2_low_both`: `{h, h}`);
//! and (corpus/findings/fuzz-h200-4802/trace/95e97556/s48/, 13.0.88 -O3) the pair of an f16x2
//! (`ace805b3_x_f16x2_pair`), K first (`ace805b3_z_imm_first`; the oracle's glue takes no
//! immediate first, so only 95e97556's moved K exercises the swap).
//!
//! Right, kept out: no pair (`v1_h3_loaded_u16`), the pair below another half
//! (`v11_pair_not_beside_h2`), the pair above h (`v14_pair_high`: no rebuild), an f16 half in
//! the pair's place (`v15_f16x2_not_fp8`: no MERGE_C), h not a word's low half
//! (`s48/w1_not_low_half`: rebuilt over the clean `LDG.U8` register; out of this form, and the
//! `{h, h}` form changes nothing for its `le 0` — for a compare {h, h} decides otherwise it is
//! an allocation-right neighbour that form's set admits), `ld.u16` under `.s16`
//! (`s48/w6_u16_le_s16`: `PRMT R0, R0, 0x9910, RZ` kept), in this form a compare with a
//! register (95e97556's `s48/ace805b3_y_reg_k`: `le h2, h0` of a moved 0x3a5c, decided by the u8
//! range, `STG.E [R2.64], RZ`), `ld.s16` under `.u16`, `ld.b*`, a guarded load (no evidence). The register-allocation conditions
//! (`v2_h0_loaded`, `v4_unguarded_ld`, `v5_pack_stored`, `v6_selp_consts`: right) are not named:
//! the set admits the spec.
//!
//! Invariants: changes only the predicate of such a compare, only when the deviation is
//! emulated; the spec's predicate stays admitted.

use super::compare_of_loaded_half_rebuilt_over_its_fp8_pair_word;
use super::fuzz3602::unchanged_between;
use crate::isa::operand::Operand;
use crate::isa::types::MemType;
use crate::isa::{CvtType, Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, Glue, GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::{Allowance, Deviation, Expected};

/// The deviation this file emulates.
const D: Deviation = Deviation::CompareOfLoadedHalfAboveFp8PairOverStaleUpperHalf;

/// A glue instruction's result under ace805b3: `Some` (the spec's predicate or the one over a
/// stale upper half, the deviation recorded as fired) where it applies. `vals` are the sources'
/// values.
pub(super) fn glue(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    if !m.allow.emulates(D) || !result.is_exact() {
        return None;
    }
    let GlueOp::Setp(cmp) = g.op else { return None };
    let seen: &Machine<'_> = m;
    // The loaded half h in either operand (`setp.gt.u16 p, K, h` is `setp.lt.u16 p, h, K`: the
    // identical listing, 95e97556's `v1_setp_h_first_imm`; a loaded K, its `s48/c_k_loaded`).
    let v = (0..2).find_map(|at| stale_predicate(seen, t, g, cmp, vals, result, at))?;
    Some(m.fire(D, result, v))
}

/// The predicate set of the compare `g` (`cmp`) of thread `t` where its operand `at` is the
/// loaded half h in ace805b3's scope: the spec's `result` and h's over a nonzero upper half.
fn stale_predicate(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    cmp: Cmp,
    vals: &[Expected],
    result: &Expected,
    at: usize,
) -> Option<Expected> {
    let (Some(Src::Reg(h)), Some(other)) = (g.src.get(at).copied().flatten(), g.src.get(1 - at).copied().flatten())
    else {
        return None;
    };
    let load = loaded_type(m, t, h)?;
    let signed = match (g.ty, load) {
        (GlueType::U16, MemType::U8 | MemType::U16 | MemType::S8) => false,
        (GlueType::S16, MemType::U8 | MemType::S8 | MemType::S16) => true,
        _ => return None,
    };
    // The upper half another half of a pack (a compare with an immediate), or h itself.
    let another_half = matches!(other, Src::Imm(_)) && packed_above_fp8_pair(m, t, h);
    if !another_half && !compare_of_loaded_half_rebuilt_over_its_fp8_pair_word::applies(m, t, h, vals.get(at)) {
        return None;
    }
    if signed {
        return Some(Expected::any(1, Allowance::Undefined));
    }
    // h with a nonzero upper half is above every 16-bit K.
    let above =
        if at == 0 { matches!(cmp, Cmp::Ne | Cmp::Gt | Cmp::Ge) } else { matches!(cmp, Cmp::Ne | Cmp::Lt | Cmp::Le) };
    (u128::from(above) != result.bits).then(|| result.clone().or_value(u128::from(above), Allowance::Undefined))
}

/// The type of the unguarded scalar `ld` that wrote register `r` of thread `t` (moves looked
/// through), if one did.
fn loaded_type(m: &Machine<'_>, t: u32, r: Reg) -> Option<MemType> {
    match m.producer(t, r)? {
        (Stmt::Isa(Instruction { form: Form::Ld(l), guard: None, .. }), _) if l.vec.is_none() => Some(l.ty),
        _ => None,
    }
}

/// Whether some unguarded pack of 16-bit elements before the current statement, h unchanged
/// since, has h directly above an e4m3x2/e5m2x2 pair ([`above_fp8_pair`]), and some such pack
/// has h as the low half of a word (an even element).
fn packed_above_fp8_pair(m: &Machine<'_>, t: u32, h: Reg) -> bool {
    let packs = packs_of(m, h);
    let above_pair = packs.iter().any(|(_, e)| above_fp8_pair(m, t, e, h));
    let low_half = packs.iter().any(|(_, e)| e.iter().step_by(2).any(|&r| r == Some(h)));
    above_pair && low_half
}

/// The unguarded packs of 16-bit elements before the current statement, h unchanged since, as
/// (body index, element registers).
pub(super) fn packs_of(m: &Machine<'_>, h: Reg) -> Vec<(usize, Vec<Option<Reg>>)> {
    (0..m.stmt).filter_map(|k| half_pack(m, k).filter(|_| unchanged_between(m, h, k, m.stmt)).map(|e| (k, e))).collect()
}

/// Whether the pack elements `e` have h directly above an e4m3x2/e5m2x2 pair (`{…, pair, h, …}`,
/// the pair at an even element) that a `cvt` from `.f32` pairs or from `.f16x2` wrote (95e97556, and
/// ace805b3's form in its `s48/ace805b3_x_f16x2_pair`: `F2FP….F16.UNPACK_B_MERGE_C` as `….F32.PACK_AB_MERGE_C`).
pub(super) fn above_fp8_pair(m: &Machine<'_>, t: u32, e: &[Option<Reg>], h: Reg) -> bool {
    let is_pair = |r: Option<Reg>| {
        r.is_some_and(|r| {
            matches!(m.producer(t, r), Some((Stmt::Isa(Instruction { form: Form::Cvt(c), .. }), _))
                if matches!(c.dtype, CvtType::E4m3x2 | CvtType::E5m2x2) && matches!(c.atype, CvtType::F32 | CvtType::F16x2))
        })
    };
    (1..e.len()).step_by(2).any(|i| e[i] == Some(h) && is_pair(e[i - 1]))
}

/// The element registers of statement `k` when it is an unguarded `mov` pack of 16-bit elements
/// (`mov.b32 d, {a, b}`, `mov.b64 d, {a, b, c, e}`); `None` for an immediate element.
fn half_pack(m: &Machine<'_>, k: usize) -> Option<Vec<Option<Reg>>> {
    match m.p.body.get(k)? {
        Stmt::Isa(Instruction { form: Form::Mov(mv), guard: None, operands }) if matches!(mv.shape, MovShape::Pack(n) if mv.ty.bits() == 16 * u32::from(n)) => {
            match operands.get(1)? {
                Operand::Vector(items) => Some(items.iter().map(|o| m.reg_of(o).ok()).collect()),
                _ => None,
            }
        }
        _ => None,
    }
}
