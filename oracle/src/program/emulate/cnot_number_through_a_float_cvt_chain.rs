//! 3501-N3 carried through a second float-to-float `cvt` (known entry
//! corpus/known/fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number.toml; seed 4701's
//! 64ad9add, corpus/findings/fuzz-h200-4701/trace/T18u1.md "64ad9add", trace/64ad9add/ and its
//! `s48/`). Under the entry's logic trigger ([`logic_op_reads_an_integer_set`]) ptxas keeps a
//! `cnot` as a 0/1 select of its predicate and folds a chain of two float-to-float `cvt`s of it
//! on the arms as the number: `cnot.b16 c, x; cvt.bf16.f16 b, c; cvt.f16.f16 h, b` is
//! `ISETP.EQ.U32.AND P1, PT, R8, RZ, PT; SEL R0, RZ, 0x3c00, !P1` (13.0.88 and 13.5 -O3), h =
//! f16 1.0 where §9.7.9.21 converts the bits 0x0001 to bf16 0x3380 and the plain `cvt.f16.f16`
//! keeps them. A plain `cvt.f16.f16` second converts the number 0 or 1 (f16 1.0), whatever
//! bits the first one left ([`cnot_number_and_range_decided_sets::cnot_converted_as_number`](super::cnot_number_and_range_decided_sets)
//! asks [`count_through_a_float_cvt`] first).
//!
//! Wrong alike (13.0.88 -O3): `reduced`, `v3_f16_f16_then_f32`, `v4_two_plain_f16`,
//! `v5_rn_bf16_f32_of_cnot_b32` (`cnot.b32; cvt.rn.bf16.f32; cvt.f16.f16`: `SEL R0, RZ, 0x3c00`),
//! `s48/x1_bf16_f16_then_f32_bf16` (`SEL R0, RZ, 0x3f80, !P1; IMAD.U32 R0, R0, 0x10000, RZ`:
//! 1.0f). Right, so out: no logic trigger (`v1_no_logic_op`, `s48/x2_bf16_f16_then_f16_f16_no_logic`:
//! `F2F.BF16.F16; HADD2`), a `selp 1, 0` in place of the `cnot` (`s48/x3_selp_then_chain`:
//! `F2F.BF16.F16 R8, R0; HADD2`), and any second `cvt` but a plain `cvt.f16.f16`: seed 3901's
//! 09c3068e (`cnot.b16; cvt.f16.f16; cvt.f32.bf16`, corpus/findings/fuzz-h200-3901/trace/T6B.md)
//! reads the first's f16 1.0 as bf16 bits (0x3c00 → 0x3c000000), the older scope's value, and
//! `s48/x1` (`cvt.f32.bf16` of a `cvt.bf16.f16`) gives 1.0f, which the older scope already gives.
//!
//! Invariants: conditions on the program's statements and the machine's recorded origins only;
//! nothing here changes a value by itself (the caller converts the count).

use super::cnot_number_and_range_decided_sets::logic_op_reads_an_integer_set;
use crate::isa::{Cvt, CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::GlueOp;
use crate::program::{Reg, Stmt};

/// For 3501-N3: the count (0 or 1) a plain `cvt.f16.f16` `c` of register `r` (thread `t`)
/// converts as the number, where `r` was written by a float-to-float `cvt` of a `cnot` in a
/// program with the logic trigger: the `cnot`'s value that first `cvt` read. `None` elsewhere.
pub(super) fn count_through_a_float_cvt(m: &Machine<'_>, t: u32, c: &Cvt, r: Reg) -> Option<u128> {
    let plain_f16 = c.dtype == CvtType::F16 && c.atype == CvtType::F16 && c.rnd.is_none() && !c.ftz && !c.sat;
    if !plain_f16 || c.relu || c.satfinite {
        return None;
    }
    let (Stmt::Isa(Instruction { form: Form::Cvt(c0), guard: None, .. }), o) = m.producer(t, r)? else {
        return None;
    };
    let of_cnot = o.a_stmt.is_some_and(|k| matches!(&m.p.body[k], Stmt::Glue { glue, .. } if glue.op == GlueOp::Cnot));
    if !c0.atype.is_scalar_float() || !c0.dtype.is_scalar_float() || !of_cnot {
        return None;
    }
    let count = o.a.as_ref().filter(|a| a.is_exact())?.bits & ((1u128 << c0.atype.bits()) - 1);
    (count <= 1 && logic_op_reads_an_integer_set(m)).then_some(count)
}
