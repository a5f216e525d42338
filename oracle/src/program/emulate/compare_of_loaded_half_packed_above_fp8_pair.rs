//! ace805b3: ptxas 13.0.88 and 13.5 -O3 (and the JIT) lower `setp.<cmp>.{u16,s16} p, h, K` of a
//! half a scalar extending load wrote (`ld.{u8,u16,s8}` under `.u16`, `ld.{u8,s8,s16}` under
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
//! predicate. Called from the glue hook of `emulate.rs`.
//!
//! Evidence: corpus/findings/fuzz-h200-4501/ (ace805b3, trace/T16t2.md, trace/ace805b3/; 13.0.88
//! and 13.5 -O3 listings alike): wrong with an e5m2x2 or e4m3x2 pair (`reduced`, `v8_e4m3`), a
//! pair of a loaded f32 (`v3_pair_of_loaded`), `ld.u16` (`v9_ld_u16`), `lt 5` and `ne 0`
//! (`v10_lt5`, `v10b_ne0`), two `mov.b32` packs (`v12_b32_packs`), `ld.s8` with `setp.le.s16`
//! (`v13_s8_le_s16`: `ISETP.GT.AND`, signed over 32 bits); and (its `s48/`, 13.0.88 -O3) `gt 3`
//! (`w3_gt3`), `ld.u8` under `setp.le.s16` (`w2_u8_le_s16`), `ld.s16` under `.s16`
//! (`w7_s16_load`), `ld.s8` under `.u16` (`w5_s8_le_u16`: the pair built in h's register, h
//! rebuilt as `{h, h}`, wrong for `lt 5` of 3), h twice in the low word (`w4_h2_low_both`: `{h, h}`).
//!
//! Right, kept out: no pair (`v1_h3_loaded_u16`), the pair below another half
//! (`v11_pair_not_beside_h2`), the pair above h (`v14_pair_high`: no rebuild), an f16 half in
//! the pair's place (`v15_f16x2_not_fp8`: no MERGE_C), h not a word's low half
//! (`s48/w1_not_low_half`: rebuilt over the clean `LDG.U8` register), `ld.u16` under `.s16`
//! (`s48/w6_u16_le_s16`: `PRMT R0, R0, 0x9910, RZ` kept), a compare with a register, `ld.s16`
//! under `.u16`, `ld.b*`, a guarded load (no evidence). The register-allocation conditions
//! (`v2_h0_loaded`, `v4_unguarded_ld`, `v5_pack_stored`, `v6_selp_consts`: right) are not named:
//! the set admits the spec.
//!
//! Invariants: changes only the predicate of such a compare, only when the deviation is
//! emulated; the spec's predicate stays admitted.

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
/// stale upper half, the deviation recorded as fired) where it applies.
pub(super) fn glue(m: &mut Machine<'_>, t: u32, g: &Glue, result: &Expected) -> Option<Expected> {
    if !m.allow.emulates(D) || !result.is_exact() {
        return None;
    }
    let GlueOp::Setp(cmp) = g.op else { return None };
    let (Some(Src::Reg(h)), Some(Src::Imm(_))) = (g.src.first().copied().flatten(), g.src.get(1).copied().flatten())
    else {
        return None;
    };
    let seen: &Machine<'_> = m;
    let load = loaded_type(seen, t, h)?;
    let signed = match (g.ty, load) {
        (GlueType::U16, MemType::U8 | MemType::U16 | MemType::S8) => false,
        (GlueType::S16, MemType::U8 | MemType::S8 | MemType::S16) => true,
        _ => return None,
    };
    if !packed_above_fp8_pair(seen, t, h) {
        return None;
    }
    let v = if signed {
        Expected::any(1, Allowance::Undefined)
    } else {
        // h with a nonzero upper half is above every 16-bit K.
        let above = matches!(cmp, Cmp::Ne | Cmp::Gt | Cmp::Ge);
        if u128::from(above) == result.bits {
            return None;
        }
        result.clone().or_value(u128::from(above), Allowance::Undefined)
    };
    Some(m.fire(D, result, v))
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
/// since, has h directly above an e4m3x2/e5m2x2 pair (`{…, pair, h, …}`, the pair at an even
/// element) that a `cvt` from `.f32` pairs wrote, and some such pack has h as the low half of a
/// word (an even element).
fn packed_above_fp8_pair(m: &Machine<'_>, t: u32, h: Reg) -> bool {
    let packs: Vec<Vec<Option<Reg>>> =
        (0..m.stmt).filter_map(|k| half_pack(m, k).filter(|_| unchanged_between(m, h, k, m.stmt))).collect();
    let is_pair = |r: Option<Reg>| {
        r.is_some_and(|r| {
            matches!(m.producer(t, r), Some((Stmt::Isa(Instruction { form: Form::Cvt(c), .. }), _))
                if matches!(c.dtype, CvtType::E4m3x2 | CvtType::E5m2x2) && c.atype == CvtType::F32)
        })
    };
    let above_pair = packs.iter().any(|e| (1..e.len()).step_by(2).any(|i| e[i] == Some(h) && is_pair(e[i - 1])));
    let low_half = packs.iter().any(|e| e.iter().step_by(2).any(|&r| r == Some(h)));
    above_pair && low_half
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
