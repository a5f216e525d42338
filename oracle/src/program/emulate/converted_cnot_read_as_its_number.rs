//! 3501-N3 past an integer-to-float conversion of a `cnot`'s 0/1 (helper x3, session 49; known
//! entry corpus/known/fuzz-h200-3501-n3-cnot-of-set-cvt-converted-as-number.toml).
//!
//! Mechanism: under the entry's triggers ptxas holds a `cnot`'s 0/1 as a select of its predicate
//! and folds the `cvt.<frnd>.{f16,bf16,f32}.<int>` of it on the two arms (right by itself: 1 →
//! 1.0, `SEL R0, RZ, 0x3f80`). But a reader that interprets that float's bits again reads the
//! NUMBER 0/1 in its own type, where §9.7.9.21 (and §9.7.1.3 for `mul`) read the bits:
//!
//! - a `cvt` from a float type of the conversion ([`whole_conversion`]): the number 1 in the
//!   reader's type (seed 4802's cc897994: `cvt.rz.bf16.s64` then `cvt.rni.u8.f16` is `SEL R0,
//!   RZ, 0x1`, the spec reads bf16 0x3f80 as f16 1.875 → 2; `cvt.f32.f16` is `FSEL R7, RZ, 1`);
//! - a reader that sign-extends the conversion's 16 bits ([`sign_extended_low_half`]): the
//!   integer 0/1 — `mul.lo`/`mul.hi`/`mul.wide`/`mad.lo` `.s16` (seed 4801's 90c88344:
//!   `mul.lo.s16 h0, h2, 130` of bf16 1.0 is `SEL R0, RZ, 0x1; IMAD R0, R0, 0x82`, 130 where
//!   the spec's is 130·0x3f80 mod 2^16 = 0x3f00), `shr.s16`, `set`/`setp` `.s16`, `cvt.s32.s16`
//!   (and the low half of an `.f32` conversion, whose number is 1 and bits 0).
//!
//! Scope (the two triggers the variants show): the conversion's source is a `cnot` (through
//! integer `cvt`s and copies) in a program with the logic trigger
//! ([`logic_op_reads_an_integer_set`]), or a `cnot` of a `cnot` ([`cnot_of_a_cnot`], the loop
//! form included). Right (left alone): a reader that zero-extends or only moves bits (`mul.lo.u16`,
//! `mul.hi.u16`, `cvt.u32.u16`, `and`/`or`/`shl`/`shr.u16`, `add`/`sub.s16`, `min`/`max.s16`
//! packed as `VIMNMX.S16x2`, the float stored), the high half of an `.f32` conversion (`PRMT
//! 0xbb32` of 0x3f80), a `selp 1, 0` in place of the `cnot`, one `cnot` without the logic
//! trigger. `neg.s16` (`sub.s16 0, x`) is wrong differently (bf16 −1.0, 0xbf80) and stays out.
//! Evidence: corpus/findings/fuzz-h200-4801/trace/90c88344/ (v1–v10, s49/) and
//! corpus/findings/fuzz-h200-4802/trace/cc897994/ (v1–v4, s49/), ptxas 13.0.88 and 13.5 -O3.
//!
//! Invariants: conditions on the program's statements and the machine's recorded producers and
//! values only; nothing here changes a value unless 3501-N3 is emulated.

use super::cnot_chain_b16_or_b64::{cnot_of_a_cnot, cnot_through_links, LINK};
use super::cnot_number_and_range_decided_sets::logic_op_reads_an_integer_set;
use super::{one_in, reg_of_glue};
use crate::isa::{CvtType, Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

const D: Deviation = Deviation::CnotOfSetCvtConvertedAsNumber;

/// For register `r` of thread `t`: the 0/1 and the bits of its conversion, where `r`'s producer
/// is an unguarded `cvt.{f16,bf16,f32}.<int>` of a `cnot`'s 0/1 in scope (module header), its
/// source still holding what the `cvt` read.
fn converted_zero_one(m: &Machine<'_>, t: u32, r: Reg) -> Option<(u128, u128, u32)> {
    if !m.allow.emulates(D) {
        return None;
    }
    let (Stmt::Isa(Instruction { form: Form::Cvt(c), operands, guard: None, .. }), o) = m.producer(t, r)? else {
        return None;
    };
    if !c.atype.is_int() || !matches!(c.dtype, CvtType::F16 | CvtType::Bf16 | CvtType::F32) {
        return None;
    }
    let mask = |bits: u32| if bits >= 128 { u128::MAX } else { (1u128 << bits) - 1 };
    let count = o.a.as_ref().filter(|a| a.is_exact())?.bits & mask(c.atype.bits());
    let source = operands.get(1).and_then(|x| m.reg_of(x).ok())?;
    let (_, so) = m.producer(t, source)?;
    let held = m.read(t, source).ok().is_some_and(|v| v.is_exact() && v.bits & mask(c.atype.bits()) == count);
    if count > 1 || Some(so.stmt) != o.a_stmt || !held {
        return None;
    }
    let logic = cnot_through_links(m, so.stmt, LINK).is_some() && logic_op_reads_an_integer_set(m);
    if !logic && !cnot_of_a_cnot(m, t, source) {
        return None;
    }
    let bits = if count == 0 { 0 } else { one_in(c.dtype)? };
    Some((count, bits, c.dtype.bits()))
}

/// The 0/1 register `r` of thread `t` holds where it holds the whole float conversion of a
/// `cnot`'s 0/1 in scope ([`converted_zero_one`]; a copy included): what a `cvt` from a float
/// type reading it converts as the number (cc897994; the caller,
/// `cnot_number_and_range_decided_sets::cnot_converted_as_number`, converts it).
pub(super) fn whole_conversion(m: &Machine<'_>, t: u32, r: Reg) -> Option<u128> {
    let (count, bits, width) = converted_zero_one(m, t, r)?;
    let v = m.read(t, r).ok().filter(Expected::is_exact)?;
    (r.class().bits() == width && v.bits & ((1u128 << width) - 1) == bits).then_some(count)
}

/// The 0/1 register `r` of thread `t` holds where it is 16 bits holding the low half of the
/// float conversion of a `cnot`'s 0/1 in scope ([`converted_zero_one`]): the whole `.f16`/`.bf16`
/// conversion or a copy, or the low half of an `.f32` one (the high half, `PRMT 0xbb32` of
/// 0x3f80, is right): what a reader sign-extending it reads (90c88344, `v7`, `v8`).
pub(super) fn sign_extended_low_half(m: &Machine<'_>, t: u32, r: Reg) -> Option<u128> {
    let (count, bits, _) = converted_zero_one(m, t, r)?;
    let v = m.read(t, r).ok().filter(Expected::is_exact)?;
    (r.class().bits() == 16 && v.bits & 0xffff == bits & 0xffff).then_some(count)
}

/// The glue hook: a `.s16` `mul.lo`/`mul.hi`/`mul.wide`/`mad.lo` (sources `a`, `b`), `shr.s16`
/// (its value) or `set`/`setp` `.s16` (both sources) reading such a low half computes with the
/// 0/1 in its place ([`sign_extended_low_half`]; 90c88344, s49 `mul_*`, `setp_*`, `shr_s16`).
pub(super) fn glue(m: &mut Machine<'_>, t: u32, g: &Glue, vals: &[Expected], result: &Expected) -> Option<Expected> {
    let sources = match g.op {
        GlueOp::MulLo | GlueOp::MulHi | GlueOp::MulWide | GlueOp::MadLo | GlueOp::Set(..) | GlueOp::Setp(_) => 2,
        GlueOp::Shr => 1,
        _ => 0,
    };
    if g.ty != GlueType::S16 || sources == 0 || vals.len() > 4 || !vals.iter().all(Expected::is_exact) {
        return None;
    }
    let mut s = [0u64; 4];
    vals.iter().enumerate().for_each(|(k, v)| s[k] = v.bits as u64);
    let mut read = false;
    for (k, slot) in s.iter_mut().enumerate().take(sources) {
        if let Some(count) = reg_of_glue(g, k).and_then(|r| sign_extended_low_half(m, t, r)) {
            *slot = count as u64;
            read = true;
        }
    }
    if !read {
        return None;
    }
    let v = Expected::exact(u128::from(g.eval(s, false)), result.width);
    Some(m.fire(D, result, v))
}
