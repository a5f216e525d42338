//! Three known root causes widened to their mechanism after session 42's traces (helper w5,
//! session 43): the queries that decide whether 3602-N2 ([`negation_of_set_f32`]), G's unpack
//! form ([`sign_extension_kept_in_place`]) and 3301-C's float direction
//! ([`saturated_before_truncation`]) apply. (3702-C's `.rmi`/`.rpi` widening is one condition in
//! `emulate/fuzz3702_conversions.rs`.)
//!
//! Invariants: queries only; they never change an origin or a value. Each caller computes the
//! emulated value through the oracle's own semantics as before.

use super::scopes_3901_h4;
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType, SetDst, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::Expected;

/// 3602-N2's negation (corpus/findings/fuzz-h200-4201/trace/T12a1.md, f863ba79, and its
/// `trace/f863ba79/` variants): for register `r` of thread `t`, the producing statement and the
/// `set.<cmp>.f32.<type>` value it negates, where r holds `neg.s32` of that set's result or
/// `sub.{s32,u32} d, z, x` of such an x with z a moved 0 (§9.7.1.2: 0 − x is −x in two's
/// complement whatever the signedness; an immediate 0 there is no glue form of the program
/// language, though ptxas compiles it the same). 13.0.88 and 13.5 -O3 give `STG.E.U16 …, RZ`
/// for `reduced.ptx` (`sub.s32 r8, 0, r0`), the campaign's moved-0 minuend (`orig.ptx`), `neg.s32`
/// (`v3_neg`); `sub.u32` of an immediate or a moved 0, and plain copies of the set or of the
/// difference, give the same listing (compiled in session 43). Right: a loaded minuend
/// (`v10_sub_from_loaded`: `IMAD.IADD … -R7`), an integer set (`v2_set_u32_sub`).
pub(super) fn negation_of_set_f32(m: &Machine<'_>, t: u32, r: Reg) -> Option<(usize, Expected)> {
    let is_set_f32 =
        |k: usize| matches!(&m.p.body[k], Stmt::Glue { glue, .. } if matches!(glue.op, GlueOp::Set(_, SetDst::F32)));
    let (Stmt::Glue { glue, .. }, o) = m.producer(t, r)? else { return None };
    match (glue.op, glue.ty) {
        (GlueOp::Neg, GlueType::S32) => o.a_stmt.filter(|&k| is_set_f32(k)).and(o.a.clone()).map(|v| (o.stmt, v)),
        (GlueOp::Sub, GlueType::S32 | GlueType::U32) => {
            let Some(Src::Reg(x)) = glue.src[1] else { return None };
            let zero = scopes_3901_h4::first_source_moved_zero(m, o);
            // The subtrahend's producer is the set, written before the subtraction.
            let of_set = m.producer(t, x).is_some_and(|(_, xo)| xo.stmt < o.stmt && is_set_f32(xo.stmt));
            o.b.clone().filter(|_| zero && of_set).map(|v| (o.stmt, v))
        }
        _ => None,
    }
}
