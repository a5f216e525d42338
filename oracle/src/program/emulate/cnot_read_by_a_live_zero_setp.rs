//! 3501-N3 where the other reader of the converted `cnot` is a live `setp` of it against 0, not a
//! `cnot` (helper k2, session 47; seed 4701's 024297c0, corpus/findings/fuzz-h200-4701/trace/T18u1.md,
//! trace/024297c0/, variants trace/024297c0/s47/; known entry
//! corpus/known/fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number.toml). The sibling of
//! `emulate/cnot_read_by_a_live_cnot.rs`, whose module doc left this form (4401's s45/c2) for a trace.
//!
//! Mechanism (13.0.88 and 13.5 -O3): `ld.u16 x; cnot.b16 h0, x; setp.le.s16 p0, h0, 0; cvt.f64.bf16
//! d2, h0; selp.b16 h13, 17875, 0, p0` (h13 and d2 stored) is `ISETP.EQ.U32.AND P0, PT, R0, RZ, PT;
//! SEL R9, RZ, 0x45d3, P0; FSEL R7, RZ, 1.875, !P0`: ptxas holds the `cnot` as its predicate `x == 0`
//! for the compare and converts the `cvt`'s arms as the numbers 0 and 1 (f64 1.0, high word
//! 0x3ff00000), where §9.7.9.21 converts the bf16 bits 0x0001 (2^-133, 0x37a00000_00000000). Wrong
//! alike: `setp.eq.u16 …, 0` (`v3`), `setp.gt.s16 …, 0` (`v4`), `cvt.f32.f16` (`v6`: `FSEL R7, RZ, 1,
//! !P0`), s47's `w1_setp_ne_s16`, `w2_setp_zero_first` (`setp.ge.s16 p, 0, h0`). What stays out
//! (`F2F.F64.BF16` of the bits): no `setp` (`v1`), a dead one (`v2`: the `selp` not stored), a compare
//! with 1 (`v5`), a `selp 1, 0` in place of the `cnot` (`v7`), s47's `r1_setp_lt_u16` (`setp.lt.u16
//! h0, 0`, false for both values).
//!
//! Seed 5501's 0078d11a (helper t1, session 56; corpus/findings/fuzz-h200-5501/trace/T56A.md,
//! variants trace/0078d11a/s56/): the zero-tested `cnot` may be ANOTHER one than the converted
//! `cnot.b16` ([`cnot_converted_beside_a_zero_tested_cnot`]). `ld.u64 d0; cnot.b64 d1, d0; ld.b16
//! h0; cnot.b16 h1, h0; setp.le.u64 p0, d1, 0; @p0 cvt.pack…; cvt.bf16.bf16 h0, h1` is `ISETP.EQ.U32.AND
//! P1, PT, R0, RZ; SEL R4, RZ, 0x3f80, !P1` (13.0.88 and 13.5 -O3): bf16 1.0 where §9.7.9.21 keeps
//! the bits 0x0001. Wrong alike: `w3_setp_selp`, `w7_setp_ne`, `w9_other_cnot_b16` (the tested
//! cnot a `cnot.b16`), `w13_two_cvts`, `w14_cvt_bf16_f16`. Right (`HFMA2.BF16_V2` of the bits): no
//! setp (`w1`, `w2`), the setp dead (`w6`), `not.b64` tested (`w4`), the loaded word tested (`w5`),
//! a compare with 1 (`w8`), a tested `cnot.b32` (`w10`), `setp.lt.u64 d1, 0` / `setp.gt.u64 d1, 5`
//! (`w11`, `w12`: the same for 0 and 1).
//!
//! Invariants: a condition on the program's statements (the value's producer as the machine
//! recorded it, its readers as written); it changes no value by itself — the caller,
//! `cnot_number_and_range_decided_sets::cnot_converted_as_number`, computes the number's conversion.

use super::imm_of;
use super::j_branch_known_values::{observed, readers};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};

/// Whether register `r` of thread `t` (the source of a `cvt` from a float type) holds an unguarded
/// `cnot.b16` whose value a `setp` of it against an immediate 0 that tells 0 from 1
/// ([`tells_zero_from_one`]) also reads, that `setp`'s predicate observed (a reader of it not
/// dead): 024297c0 (`setp.le.s16`), `v3` (`setp.eq.u16`), `v4` (`setp.gt.s16`).
pub(super) fn cnot_read_by_a_live_zero_setp(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    converted_cnot_b16(m, t, r).is_some_and(|k| zero_tested(m, k, r))
}

/// Whether register `r` of thread `t` (the source of a `cvt` from a float type) holds an unguarded
/// `cnot.b16` in a program where ANOTHER unguarded `cnot.{b16,b64}` is [`zero_tested`] (seed
/// 5501's 0078d11a: `cnot.b64` with `setp.le.u64`/`setp.ne.u64`, `w9`'s `cnot.b16` with
/// `setp.eq.u16`; a tested `cnot.b32`, `w10`, is right).
pub(super) fn cnot_converted_beside_a_zero_tested_cnot(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    let Some(at) = converted_cnot_b16(m, t, r) else { return false };
    m.p.body.iter().enumerate().any(|(k, s)| match s {
        Stmt::Glue { glue, guard: None } if k != at && glue.op == GlueOp::Cnot => {
            matches!(glue.ty, GlueType::B16 | GlueType::B64) && zero_tested(m, k, glue.dst)
        }
        _ => false,
    })
}

/// The body index of the unguarded `cnot.b16` that wrote register `r` of thread `t` (the
/// machine's producer), if one did.
fn converted_cnot_b16(m: &Machine<'_>, t: u32, r: Reg) -> Option<usize> {
    let (_, o) = m.producer(t, r)?;
    let Stmt::Glue { glue: cnot, guard: None } = &m.p.body[o.stmt] else { return None };
    (cnot.op == GlueOp::Cnot && cnot.ty == GlueType::B16 && cnot.dst == r).then_some(o.stmt)
}

/// Whether the value statement `k` wrote to `x` is read by an unguarded `setp` of it against an
/// immediate 0 that tells 0 from 1 ([`tells_zero_from_one`]), that `setp`'s predicate observed.
fn zero_tested(m: &Machine<'_>, k: usize, x: Reg) -> bool {
    readers(m, k, x).into_iter().any(|j| match &m.p.body[j] {
        Stmt::Glue { glue, guard: None } => {
            matches!(glue.op, GlueOp::Setp(_)) && tells_zero_from_one(glue, x) && observed(m, j, glue.dst)
        }
        _ => false,
    })
}

/// Whether `setp` glue `g` compares register `r` with an immediate 0 (either side) and its
/// result differs between `r` = 0 and `r` = 1 (the `cnot`'s two values): `setp.le.s16 r, 0`,
/// `setp.ne.s16 r, 0` (s47's `w1`), `setp.ge.s16 0, r` (s47's `w2`); not `setp.lt.u16 r, 0`
/// (always false, s47's `r1`: `F2F.F64.BF16` of the bits, right).
fn tells_zero_from_one(g: &Glue, r: Reg) -> bool {
    let at = if g.src.first().copied().flatten() == Some(Src::Reg(r)) { 0 } else { 1 };
    if g.src.get(at).copied().flatten() != Some(Src::Reg(r)) || imm_of(g, 1 - at) != Some(0) {
        return false;
    }
    let with = |x: u64| {
        let mut srcs = [0u64; 4];
        srcs[at] = x;
        g.eval(srcs, false)
    };
    with(0) != with(1)
}
