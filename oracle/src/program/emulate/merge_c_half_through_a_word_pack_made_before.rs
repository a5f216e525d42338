//! 3701-N-D widened by seed 4802's 568a8359 (session 48, helper w3;
//! `corpus/known/fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half.toml`), called from
//! `emulate/merge_c_in_place.rs` (`destroyed` and the `mov` unpack hook): an element of a
//! `mov.b32` unpack `{x0, x1}, r` of a 32-bit pack `mov.b32 r, {…, h, …}` made BEFORE the pack
//! that builds the pair in h's register, at h's position and read after that pack, takes the
//! pair.
//!
//! Mechanism: ptxas folds the round trip `mov.b32 r, {a, h}; mov.b32 {x0, x1}, r` to "x1 = h"
//! and reads x1 in h's register, after the pair's pack has merged the pair into it (§9.7.9.4:
//! the unpack gives back the halves as packed, so x1 is h). corpus/findings/fuzz-h200-4802/trace/
//! T19v3.md, 568a8359: `cvt.u8.s64 h1, d0; …; mov.b32 r2, {h2, h1}; st.shared.v2.b16 {h0, h1};
//! mov.b32 {h14, h15}, r2; st.global.u16 h15` is (13.0.88 and 13.5 -O3) `LOP3.LUT R7, R2, 0xff;
//! F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R7, RZ, R7; MOV R7, R7; STS [R0+0x10], R7;
//! STG.E.U16 [R4.64+0x2], R7` (the pair 0, the spec 0x72); `v1_h_low_half_of_early_pack`
//! (`{h1, h2}`, h14 stored) the identical listing. Helper w3, 13.0.88 -O3
//! (trace/568a8359/s48/): h an `xor.b16` of a loaded half (`s1_h_xor_half`), the other element
//! loaded (`s2_other_half_loaded`), the pair packed by `mov.b32 r1, {h0, h1}` stored whole
//! (`s3_mov_b32_pair_pack`), r2 also stored whole (`s4_r2_unpacked_and_stored_whole`: r2 is
//! `PRMT R3, RZ, 0x5410, R7` before the merge, right, but h15 is `IMAD.MOV.U32 R7, RZ, RZ, R9`
//! of the merged `R9`), and the unpack made before the pair's pack with h15 read after it
//! (`s5_unpack_before_pack_read_after`) the same wrong h15.
//! Right: the other element read (`s6_other_element_read_right`: `STG.E.U16 R7` of h2's own
//! load), r2 read whole only (`v3_r2_stored_whole`), h from `ld.u16` (`s7_h_ld_u16_right`, out
//! of scope as a half: `PRMT R7, R9, 0x7632, R7` recovers it), no pair pack
//! (`v2_no_pair_pack_right`).
//!
//! Invariants: decides which registers change only (the 32-bit pack and the unpack unguarded, of
//! 16-bit halves; r unwritten between them; h unwritten from the 32-bit pack to the unpack or,
//! for an unpack before the pair's pack, to that pack; the element unwritten from the unpack to
//! the pair's pack, and read after the later of the two); the value (the pair, its 16 bits) is
//! written by `merge_c_in_place.rs`.

use super::fuzz3602::unchanged_between;
use super::fuzz3701::last_writer;
use super::merge_c_in_place::destroying_pack;
use super::origin::value_readers;
use crate::isa::operand::Operand;
use crate::isa::{Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// For an unguarded `mov.b32 {x0, x1}, r` at body index `u` of a 32-bit `r`: the elements `x_i`
/// and the register `h` at position i of the unguarded `mov.b32 r, {…}` pack (of 16-bit
/// halves) that last wrote r, with the pack's index.
fn round_trip(m: &Machine<'_>, u: usize) -> Vec<(Reg, Reg, usize)> {
    let Some(Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. })) = m.p.body.get(u) else {
        return Vec::new();
    };
    let (Some(Operand::Vector(xs)), Some(Ok(r))) = (operands.first(), operands.get(1).map(|o| m.reg_of(o))) else {
        return Vec::new();
    };
    if mv.shape != MovShape::Unpack(2) || r.class().bits() != 32 {
        return Vec::new();
    }
    let Some((j, Stmt::Isa(Instruction { form: Form::Mov(pk), operands: po, guard: None, .. }))) = last_writer(m, u, r)
    else {
        return Vec::new();
    };
    let Some(Operand::Vector(hs)) = po.get(1).filter(|_| pk.shape == MovShape::Pack(2)) else { return Vec::new() };
    xs.iter()
        .zip(hs)
        .filter_map(|(x, h)| Some((m.reg_of(x).ok()?, m.reg_of(h).ok()?)))
        .filter(|(x, h)| x.class().bits() == 16 && h.class().bits() == 16)
        .map(|(x, h)| (x, h, j))
        .collect()
}

/// The elements `x` of unguarded unpacks BEFORE the pack at body index `k` that are, through a
/// `mov.b32` round trip ([`round_trip`]), one of `merged` (the registers the pack merges the
/// pair into): h unwritten from the 32-bit pack to `k`, x unwritten from the unpack to `k`, and
/// x read after `k` (`s5_unpack_before_pack_read_after`).
pub(super) fn unpacked_before(m: &Machine<'_>, k: usize, merged: &[Reg]) -> Vec<Reg> {
    if !matches!(m.p.body.get(k), Some(Stmt::Isa(Instruction { guard: None, .. }))) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for u in 0..k {
        for (x, h, j) in round_trip(m, u) {
            let in_scope = merged.contains(&h)
                && unchanged_between(m, h, j, k)
                && unchanged_between(m, x, u, k)
                && value_readers(m, k, x) > 0;
            if in_scope && !out.contains(&x) {
                out.push(x);
            }
        }
    }
    out
}

/// For the unpack being run (a `mov.b32 {x0, x1}, r`), the elements `x` that are, through a
/// `mov.b32` round trip ([`round_trip`]) made before an unguarded pack that builds the pair in
/// the register of `h` ([`destroying_pack`]), that h, with the pack's pair register: h unwritten
/// from the 32-bit pack to the unpack, the pair unwritten from its pack to the unpack, and x
/// read after the unpack (568a8359).
pub(super) fn unpacked_after(m: &Machine<'_>) -> Vec<(Reg, Reg)> {
    let u = m.stmt;
    let mut out = Vec::new();
    for (x, h, j) in round_trip(m, u) {
        let pair = (j + 1..u).find_map(|k| {
            let (_, p, hk) = destroying_pack(m, k, false)?;
            (hk == h && unchanged_between(m, p, k, u)).then_some(p)
        });
        if let Some(p) = pair.filter(|_| unchanged_between(m, h, j, u) && value_readers(m, u, x) > 0) {
            out.push((x, p));
        }
    }
    out
}
