//! 3301-N3 (`set-round-trip-through-float`) where the integer step of the round trip is A's
//! implicit conversion of an 8-bit store, not an explicit `cvt` (the store hook, [`super::stored`]).
//!
//! The mechanism (ptxas 13.0.88 -O3; 13.5 -O3 is right): `set.le.s32.u64 r1; cvt.rn.bf16.s32
//! h0, r1; st.global.b8 [out+1], h0` is `SEL R4, RZ, 0xffffffff, !P0; LOP3.LUT R9, R4, 0xff, RZ,
//! 0xc0; STG.E.U8`: the `I2F.BF16` and the `F2I.U8` that A puts before a byte store of a float
//! `cvt`'s register are folded as the round trip of a set, and the set's own low byte (0xff for
//! −1) is stored where §9.7.9.10 stores the float's low byte (bf16 −1.0 0xbf80: 0x80).
//! Evidence: seed 4501's aa2046a3 (corpus/findings/fuzz-h200-4501/trace/T16t1.md, trace/aa2046a3/
//! v3–v7: a `.u32` set source, `cvt.rn.f16.s32`, `set.u32` with `cvt.rn.bf16.u32`,
//! `cvt.rn.f32.s32`, `st.s8` `PRMT 0x7770`), seed 4601's cf337f2a (trace/T17t2.md: `set.le.s32.s64;
//! cvt.rn.f16.u32; st.u8`, v1 `.f16.s32`) and seed 4603's 1e161819 (trace/T17t5.md: `set.ne.u32.u64;
//! cvt.rm.bf16.s32; st.shared.s8`, the byte read back; v1 `st.global.s8`, v4 f16, v5 `st.u8`).
//! Session 46 (trace/aa2046a3/s46/): each byte of a `st.v2.b8` (x1: `SEL; LOP3 …0xff; PRMT
//! 0x7604; STG.E.U16`) and `cvt.rn.f64.s32` stored by `st.b8` (x2: `SEL; LOP3 …0xff; STG.E.U8`,
//! -O0 `I2F.F64; F2I.U8.F64.TRUNC`) are the same fold.
//!
//! What stays out (right in the listings): a 16-bit store (no A: `I2F.BF16; STG.E.U16`,
//! aa2046a3 v1, cf337f2a v2, 1e161819 v2), a loaded word in place of the set (plain A, `I2F;
//! F2I.U8.F16.TRUNC`: aa2046a3 v2, cf337f2a v3, 1e161819 v3) and a `selp.s32 -1, 0` mask
//! (aa2046a3 v8: converted, not folded), a `set.<cmp>.f32` as the float (s46/x3: `SEL …
//! 0x3f800000; F2FP.BF16.F32.PACK_AB; F2I.U8.F16.TRUNC`). Not emulated though wrong alike: a
//! 16-bit truncation `cvt.u16.u32` between the set and `cvt.rn.bf16.s16` (s46/x4, `SEL; LOP3
//! …0xff`): the float cvt's source is then not the set.
//!
//! Invariants: queries only; the byte is the set's word recorded as the float `cvt`'s source.

use super::values::is_integer_set;
use crate::isa::operand::Operand;
use crate::isa::CvtType;
use crate::program::exec::Machine;
use crate::semantics::Expected;

/// For the element `o` of an 8-bit store in thread `t`: where its register holds a
/// `cvt.{f16,bf16,f32,f64}.{s32,u32}` of a `set.<cmp>.{s32,u32}` result, the byte ptxas 13.0.88 -O3
/// stores (the set word's low byte); `None` otherwise.
pub(super) fn set_byte(m: &Machine<'_>, t: u32, o: &Operand) -> Option<Expected> {
    let (c0, origin) = m.cvt_producer(t, Some(o))?;
    let int_to_float = matches!(c0.atype, CvtType::S32 | CvtType::U32)
        && matches!(c0.dtype, CvtType::F16 | CvtType::Bf16 | CvtType::F32 | CvtType::F64);
    let of_set = origin.a_stmt.is_some_and(|k| is_integer_set(m, k));
    if !(int_to_float && of_set) {
        return None;
    }
    origin.a.as_ref().filter(|w| w.is_exact()).map(|w| w.field(0, 8))
}
