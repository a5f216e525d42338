//! 2b9b7b3e: an if arm's `cvt.sat.f64.f64` read only through its low word, beside another
//! `cvt.sat.f64.f64`, has that low word clamped by a zero test (ptxas 13.0.88 -O3 and the JIT;
//! 13.5 right), called from the ISA hook of `emulate.rs` at the arm's `cvt` ([`cvt`]).
//!
//! Mechanism (corpus/findings/fuzz-h200-5003/, 2b9b7b3e, trace/T21e.md; variants in
//! trace/2b9b7b3e/s50/ and s51/ with 13.0.88 and 13.5 -O3 listings): `.sat` limits a float
//! result to [0.0, 1.0] (§9.7.9.21); ptxas lowers it for `.f64` as x' = max(0, x), then
//! min(x', 1.0). For the arm's conversion it selects the min's low word by `@!P DSETP.EQ.AND P,
//! PT, RZ, x'` (`@!P SEL lo, x'.lo, RZ, P`): x'.lo where x' == ±0 (whose low word is 0) and 1.0's
//! low word 0 elsewhere — the low word is 0 for every x, where the spec keeps x'.lo for x' in
//! (0, 1) (the stored case: the subnormal 0x00000000_21b99355, byte 0x55 stored as 0x00). 13.5
//! keeps `DSETP.MIN.AND P, Q, x', 1` there.
//!
//! Scope, as the variants show it. Wrong: the `cvt.sat.f64.f64` in the arm of a forward branch
//! (`@p bra L; …; L:`, no other label or branch between), its result read only through its low
//! word — an unpack whose parts of the high word are unread (s50 v6, v8, v11; the stored case's
//! `mov.b64 {h0, h2, h3, _}`), or a truncating `cvt.u32.u64` (s51 w3) — with a live unguarded
//! `cvt.sat.f64.f64` outside the arm, before the branch (s50 v6, v8, v11) or after the join (s51
//! w1). Right (not emulated): one sat alone, guarded or not (s50 v1–v5, v7), the other's result
//! unread (s51 w6: dead, one sat left), the other a `cvt.sat.f32.f32` (w2), the other in the same
//! arm (w7), both unguarded (s50 v9), the arm's statements guarded instead of branched over (w5),
//! the arm's high word read too (s50 v10 whole, s51 w4 both unpacked words stored).
//!
//! Invariant: only the arm's `cvt`'s destination changes, only its low word, and only when the
//! deviation is emulated and the spec's result is exact.

use super::origin::{read_later, reads_and_overwrites};
use crate::isa::operand::Operand;
use crate::isa::{Cvt, CvtType, Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

const D: Deviation = Deviation::ArmSatF64LowWordClampedByZeroTest;

/// The arm's `cvt.sat.f64.f64` result (`spec`, the spec's) with its low word 0, where the
/// deviation applies to the statement being run; `None` elsewhere.
pub(super) fn cvt(
    m: &Machine<'_>,
    _t: u32,
    inst: &Instruction,
    c: Cvt,
    spec: &Expected,
) -> Option<(Deviation, Expected)> {
    if !m.allow.emulates(D) || !sat_f64(inst, &c) || inst.guard.is_some() || !spec.is_exact() {
        return None;
    }
    let dst = inst.operands.first().and_then(|o| m.reg_of(o).ok())?;
    let (b, j) = arm_of(m, m.stmt)?;
    let other = m.p.body.iter().enumerate().any(|(k, s)| {
        (k < b || k > j)
            && matches!(s, Stmt::Isa(i @ Instruction { form: Form::Cvt(c), guard: None, .. })
                if sat_f64(i, c) && i.operands.first().and_then(|o| m.reg_of(o).ok()).is_some_and(|r| read_later(m, k, r)))
    });
    if !other || !read_only_through_low_word(m, dst) {
        return None;
    }
    Some((D, Expected::exact(spec.bits & !0xFFFF_FFFF, spec.width)))
}

/// Whether `inst` is `cvt.sat.f64.f64`.
fn sat_f64(inst: &Instruction, c: &Cvt) -> bool {
    matches!(inst.form, Form::Cvt(_)) && c.sat && c.dtype == CvtType::F64 && c.atype == CvtType::F64
}

/// The arm statement `s` lies in: the body indices of the guarded forward branch `@p bra L`
/// that is the last label or branch before `s` and of the label `L` that is the first after it.
pub(super) fn arm_of(m: &Machine<'_>, s: usize) -> Option<(usize, usize)> {
    let flow = |k: &(usize, &Stmt)| matches!(k.1, Stmt::Label(_) | Stmt::Bra { .. });
    let (b, before) = m.p.body[..s].iter().enumerate().rev().find(flow)?;
    let (j, after) = m.p.body.iter().enumerate().skip(s + 1).find(flow)?;
    match (before, after) {
        (Stmt::Bra { guard: Some(_), label }, Stmt::Label(l)) if label == l => Some((b, j)),
        _ => None,
    }
}

/// Whether every statement after the one being run that reads `d` (until an unguarded
/// overwrite) reads its low word only, and one does: a `mov` unpack whose parts in the high word
/// are sinks or registers read nowhere after it, or an integer `cvt` to 32 bits or fewer of a
/// 64-bit integer type (a truncation).
fn read_only_through_low_word(m: &Machine<'_>, d: Reg) -> bool {
    let mut readers = 0;
    for (k, s) in m.p.body.iter().enumerate().skip(m.stmt + 1) {
        let (reads, overwrites) = reads_and_overwrites(s, d);
        if reads {
            let low = match s {
                Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) => match mv.shape {
                    MovShape::Unpack(n) => match operands.first() {
                        Some(Operand::Vector(parts)) => parts.iter().enumerate().all(|(p, o)| {
                            p * 64 / usize::from(n) < 32
                                || matches!(o, Operand::Sink)
                                || m.reg_of(o).is_ok_and(|r| !read_later(m, k, r))
                        }),
                        _ => false,
                    },
                    _ => false,
                },
                Stmt::Isa(Instruction { form: Form::Cvt(c), .. }) => {
                    c.dtype.is_int() && c.dtype.bits() <= 32 && c.atype.is_int() && c.atype.bits() == 64
                }
                _ => false,
            };
            if !low {
                return false;
            }
            readers += 1;
        }
        if overwrites {
            break;
        }
    }
    readers > 0
}
