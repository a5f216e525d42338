//! 3602-N4 (`s8-round-trip-through-64-sign-extends-32`) at a `mul.wide.u16`/`mad.wide.u16`
//! reader (seed 4601's 664e95be, corpus/findings/fuzz-h200-4601/trace/T17t1.md, variants in
//! trace/664e95be/ and its s47/), and the one fact both of 3602-N4's product readers use: the
//! 32-bit `IMAD` product of the byte's sign extension.
//!
//! The mechanism the listings show (ptxas 13.0.88 -O3): the round trip `cvt.u64.s8 d, h;
//! cvt.s8.u64 h2, d` is `PRMT R0, R0, 0x8880, RZ` (the byte sign-extended to 32 bits, no 16-bit
//! mask), and `mul.wide.u16 r, h2, h2` is `IMAD R0, R0, R0, RZ` of that register: the low 32 bits
//! of (−128)² = 0x4000 where §9.7.1.3 (mul) multiplies the 16-bit values, 0xff80 × 0xff80 = 0xff004000.
//! The other factor keeps its 16 bits (s47/s1: `ld.u16` factor, `IMAD R7, R6, R9, RZ`; s47/s3: the
//! immediate 3, `IMAD R7, R0, 0x3, RZ`); `mad.wide.u16` (§9.7.1.4) adds its 32-bit addend to the same product
//! (s47/s2: `IMAD R7, R9, R9, R6`); a folded-constant round trip is kept as its 32-bit extension
//! alike (s47/s4: `IMAD R7, R2, -0x75, RZ`). 13.5 -O3 inserts `LOP3.LUT R0, R0, 0xffff` (right).
//!
//! Out of scope (right in the listings): `mul.wide.s16` (s47/s5 and `v4_wide_s16_right`: the
//! 16-bit sign extension is the same value), a round trip through `.s32` (s47/s6: `LOP3 0xffff`),
//! an `ld.s8` factor without a round trip (`v3_wide_no_roundtrip_right`).
//!
//! Invariants: a rule changes a result only for a `.u16` multiply with a round-trip factor
//! ([`fuzz3602::s8_round_trip`]) and exact operands; `None` (the spec stands) otherwise.

use super::fuzz3602;
use super::reg_of_glue;
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, GlueType};
use crate::semantics::Expected;

/// The 32-bit product ptxas's `IMAD` forms for the `.u16` multiply `g` (operands `vals`) when a
/// factor is a 3602-N4 round trip: each round-trip factor is its byte sign-extended to 32 bits,
/// the other factor its 16 bits. `None` if no factor is a round trip or a factor is not exact.
pub(super) fn imad_product_of_s8_round_trip(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected]) -> Option<u32> {
    if g.ty != GlueType::U16 {
        return None;
    }
    let round_trip = |k: usize| reg_of_glue(g, k).is_some_and(|r| fuzz3602::s8_round_trip(m, t, r));
    if !round_trip(0) && !round_trip(1) {
        return None;
    }
    let factor = |k: usize| {
        let v = vals.get(k).filter(|v| v.is_exact()).map(|v| v.bits as u32 & 0xFFFF)?;
        Some(if round_trip(k) { v as u8 as i8 as i32 as u32 } else { v })
    };
    Some(factor(0)?.wrapping_mul(factor(1)?))
}

/// 3602-N4: `mul.wide.u16 d, a, b` and `mad.wide.u16 d, a, b, c` with a round trip as a factor
/// give the `IMAD` product of the extension (plus `c`'s 32 bits), modulo 2³².
pub(super) fn wide16_product_of_s8_round_trip(
    m: &Machine<'_>,
    t: u32,
    g: &Glue,
    vals: &[Expected],
    result: &Expected,
) -> Option<Expected> {
    if !matches!(g.op, GlueOp::MulWide | GlueOp::MadWide) {
        return None;
    }
    let product = imad_product_of_s8_round_trip(m, t, g, vals)?;
    let addend = match g.op {
        GlueOp::MadWide => vals.get(2).filter(|c| c.is_exact()).map(|c| c.bits as u32)?,
        _ => 0,
    };
    Some(Expected::exact(u128::from(product.wrapping_add(addend)), result.width))
}
