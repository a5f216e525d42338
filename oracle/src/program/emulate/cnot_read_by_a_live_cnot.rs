//! 3501-N3 widened after seed 4401's a3fc1374 (helper h1, session 45;
//! corpus/findings/fuzz-h200-4401/trace/T15t1.md, trace/a3fc1374/, variants
//! trace/a3fc1374/s45/): the `cvt` from a float type reads the INNER `cnot` of a chain — a `cnot`
//! whose value a live `cnot` reads ([`cnot_read_by_a_live_cnot`]). Seed 4303's chain
//! (`emulate/cnot_chain_b16_or_b64.rs`) converts the outer one; ptxas holds both as selects of the one
//! predicate `x == 0`, so a conversion of either converts the arms as the numbers 0 and 1. The
//! caller, `cnot_number_and_range_decided_sets::cnot_converted_as_number`, computes the value.
//!
//! Mechanism (13.0.88 -O3, `ld.s16 x; cnot.b16 h2, x; cvt.bf16.f16 h3, h2; cnot.b16 h0, h2`,
//! both stored): `ISETP.EQ.U32.AND P0, PT, R2, RZ, PT; SEL R0, RZ, 0xffffffff, P0; SEL R7, RZ,
//! 0x3f80, !P0` — bf16 1.0 where §9.7.9.21 converts the bits 0x0001 (an f16 subnormal, bf16
//! 0x3380). What stays out (the bits converted, `IADD3 -R; PRMT 0x7710; F2F.BF16.F16`): no second
//! `cnot` (`v1`), the second `cnot` dead (`v2`), `not`/`xor 1`/a store as the other reader (`v3`,
//! `v8`, `v4`), a `not` as the inner one (`s45/c3`), and the pairs `cnot.b32` of `cnot.b32` (`v6`,
//! `s45/a7`) and `cnot.b32` of a narrowed `cnot.b64` (`s45/a5`). Also wrong on the GPU but left to
//! a later trace (not emulated here): a `selp 1, 0` read by a live `cnot` (`s45/c1`) and a `cnot`
//! tested by a live `setp.eq …, 0` (`s45/c2`; emulated since seed 4701's 024297c0:
//! `emulate/cnot_read_by_a_live_zero_setp.rs`).
//!
//! Invariants: a condition on the program's statements (the value's producer as the machine
//! recorded it, the statements around it as written); it changes no value by itself.

use super::cnot_chain_b16_or_b64::{cnot_through_links, link_operand, LINK};
use super::origin::{read_later, reads_and_overwrites};
use crate::isa::Instruction;
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType};
use crate::program::{Reg, Stmt};

/// Whether register `r` of thread `t` (the source of a `cvt` from a float type) holds, through
/// integer `cvt`s and `mov` copies, a `cnot` that a live `cnot` also reads (through integer
/// `cvt`s and copies): ptxas folds the pair to selects of one predicate and the `cvt` converts
/// the inner one's arms as the numbers 0 and 1. a3fc1374 (`cnot.b16` of a loaded s16,
/// `cvt.bf16.f16`, `cnot.b16` of it stored: `SEL R7, RZ, 0x3f80, !P0`); T15t1's `v5`
/// (`cvt.f32.f16`, `FSEL R7, RZ, 1, !P0`) and `v7` (the outer `cnot.b32` of `cvt.u32.u16`); s45,
/// 13.0.88 -O3: `a1` `.b64` pair and `cvt.rn.f32.f64` (`FSEL R7, RZ, 1`), `a2`/`a3` an inner
/// `.b32` under an outer `.b16`/`.b64` (`SEL R7, RZ, 0x3c00`), `a4`, `a6`, `a8` (`cvt.s32.s16`),
/// `b1` the `cvt` of a copy, `b2` of a `cvt.u32.u16` then `cvt.rn.f16.f32`, `b3` the outer of a
/// copy, `b4` the outer written before the `cvt`, `b5` the outer read by an `add`, `b6` three
/// `cnot`s (the `cvt` of the first). Right: the outer `.b32` over an inner `.b32` or `.b64`
/// ([`folded_pair`]) and the outer dead.
pub(super) fn cnot_read_by_a_live_cnot(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    let Some((_, o)) = m.producer(t, r) else { return false };
    let Some(k) = cnot_through_links(m, o.stmt, LINK) else { return false };
    match &m.p.body[k] {
        Stmt::Glue { glue, .. } => read_by_a_live_cnot(m, k, glue.dst, glue.ty, LINK),
        _ => false,
    }
}

/// Whether ptxas folds a `cnot` of type `inner` read by a `cnot` of type `outer` to one
/// predicate: every pair but an outer `.b32` over an inner `.b32` (T15t1's `v6`, s45's `a7`:
/// `ISETP.NE; SEL; IADD3 -R` apart, the bits converted) or `.b64` (`a5`: `F2F.F32.F64` of the
/// bits).
fn folded_pair(inner: GlueType, outer: GlueType) -> bool {
    matches!(outer, GlueType::B16 | GlueType::B64) || inner == GlueType::B16
}

/// Whether the value statement `k` wrote to register `r` (a `cnot` of type `inner`) is read,
/// before it is overwritten, by an unguarded `cnot` ([`folded_pair`]) whose result some later
/// statement reads, directly or through at most `depth` links (`cnot_chain_b16_or_b64::link_operand`).
fn read_by_a_live_cnot(m: &Machine<'_>, k: usize, r: Reg, inner: GlueType, depth: u32) -> bool {
    for (j, s) in m.p.body.iter().enumerate().skip(k + 1) {
        let (reads, overwrites) = reads_and_overwrites(s, r);
        if reads {
            let found = match s {
                Stmt::Glue { glue, guard: None } if glue.op == GlueOp::Cnot => {
                    folded_pair(inner, glue.ty) && read_later(m, j, glue.dst)
                }
                Stmt::Isa(Instruction { operands, .. }) if depth > 0 && link_operand(s).is_some() => operands
                    .first()
                    .and_then(|d| m.reg_of(d).ok())
                    .is_some_and(|d| read_by_a_live_cnot(m, j, d, inner, depth - 1)),
                _ => false,
            };
            if found {
                return true;
            }
        }
        if overwrites {
            break;
        }
    }
    false
}
