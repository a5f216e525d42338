//! The carry-flag hook of the register-program emulations ([`carry`]): what a `sub.cc`'s carry
//! out is under 3301-N2 (of an `abs.s64` result that is 0) and 3601-N1 (of a `mul.hi` result
//! fused into one `IMAD.HI`), and 3602-N3's carry out of `subc.cc` (`emulate/fuzz3602.rs`).
//! Like every hook it changes only the flag it is called for, and only where a deviation's
//! scope applies (see `emulate.rs`).

use super::carry_of_known_zero_shl_and_constant_set;
use super::fuzz3602;
use super::origin::{self, value_readers};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// The carry flag a glue instruction writes under the emulated deviations: `carry` (the spec's)
/// changed where 3301-N2 applies (`sub.cc` of a 64-bit `abs.s64` result that is 0 borrows) or
/// 3601-N1 (`sub.cc.{u32,s32}` of a `mul.hi.{u32,s32}` result, by a register holding 0, borrows:
/// ptxas fuses the two into one `IMAD.HI` whose addend −b · 2^32 does not carry for b = 0). The
/// mul.hi result may have other readers as long as each is an arithmetic/logic (glue)
/// instruction: ptxas duplicates the mul.hi and keeps the fusion (corpus/findings/
/// fuzz-h200-4003/, 139c0307 and 4019c7cf, trace/T7F.md: the `subc` reads it too;
/// `v_other_reader_add` wrong); a store among the readers keeps one `IMAD.HI` and a separate
/// borrow (`v_other_reader_store`, right).
pub(in crate::program) fn carry(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], carry: Expected) -> Expected {
    // 3602-N3's carry out of `subc.cc`: `emulate/fuzz3602.rs`.
    if let Some(v) = fuzz3602::carry(m, t, g, vals, &carry) {
        return v;
    }
    // c6d3ed97's carry of `sub.cc`/`add.cc` of a known-zero `shl.b32` and a constant, set:
    // `emulate/carry_of_known_zero_shl_and_constant_set.rs`.
    if let Some(v) = carry_of_known_zero_shl_and_constant_set::carry(m, t, g, vals, &carry) {
        return v;
    }
    let of_sole_mul_hi = match g.src.first().copied().flatten() {
        Some(Src::Reg(r)) => match m.producer(t, r) {
            Some((Stmt::Glue { glue, .. }, o))
                if glue.op == GlueOp::MulHi && matches!(glue.ty, GlueType::U32 | GlueType::S32) =>
            {
                value_readers(m, o.stmt, glue.dst) == 1 || only_glue_reads(m, o.stmt, glue.dst)
            }
            _ => false,
        },
        _ => false,
    };
    // The subtrahend a register or an immediate 0 (corpus/findings/fuzz-h200-3901/, dbb0f09c,
    // trace/T6A.md: `sub.cc.s32 r8, r0, 0` after `mul.hi.s32` is `IMAD.HI RZ, P0, R3, R3, R6`
    // with R6 = 0, 13.0.88 and 13.5 -O3; `.u32` the same): the fused `IMAD.HI`'s addend is 0.
    let register_zero = vals.get(1).is_some_and(|b| b.is_exact() && b.bits & 0xFFFF_FFFF == 0);
    if m.allow.emulates(Deviation::SubCcOfMulHiZeroBorrows)
        && g.op == GlueOp::SubCc
        && matches!(g.ty, GlueType::U32 | GlueType::S32)
        && of_sole_mul_hi
        && register_zero
    {
        let v = Expected::exact(1, carry.width);
        return m.fire(Deviation::SubCcOfMulHiZeroBorrows, &carry, v);
    }
    let of_abs_s64 = match g.src.get(1).copied().flatten() {
        Some(Src::Reg(r)) => matches!(
            m.producer(t, r),
            Some((Stmt::Glue { glue, .. }, _)) if glue.op == GlueOp::Abs && glue.ty == GlueType::S64
        ),
        _ => false,
    };
    let zero = vals.get(1).is_some_and(|b| b.is_exact() && b.bits & 0xFFFF_FFFF_FFFF_FFFF == 0);
    if m.allow.emulates(Deviation::SubCcOfAbsZeroBorrows)
        && g.op == GlueOp::SubCc
        && g.ty.bits() == 64
        && of_abs_s64
        && zero
    {
        let v = Expected::exact(1, carry.width);
        return m.fire(Deviation::SubCcOfAbsZeroBorrows, &carry, v);
    }
    carry
}

/// Whether every statement that reads `r`'s value written at body index `k` (until an unguarded
/// overwrite) is a glue (arithmetic/logic) instruction: no store, move or other ISA reader.
fn only_glue_reads(m: &Machine<'_>, k: usize, r: Reg) -> bool {
    for s in &m.p.body[k + 1..] {
        let (reads, overwrites) = origin::reads_and_overwrites(s, r);
        if reads && !matches!(s, Stmt::Glue { .. }) {
            return false;
        }
        if overwrites {
            break;
        }
    }
    true
}
