//! 3701-N-D widened by session 45's traces (helper w1;
//! `corpus/known/fuzz-h200-3701-nd-merge-c-in-place-destroys-live-half.toml`), called from
//! `pair_and_half` in `emulate/merge_c_in_place.rs`: three more forms of the pair and of the half
//! `h` whose register ptxas 13.0.88 and 13.5 -O3 build the e4m3x2/e5m2x2 pair in, in place.
//!
//! - [`relu_pair`]: the pair may carry `.relu` (§9.7.9.21: `cvt.rn{.relu}.satfinite`).
//!   corpus/findings/fuzz-h200-4501/trace/T16t3.md, b4024b2c: `cvt.rn.relu.satfinite.e4m3x2.f16x2
//!   h0, r0; mov.b64 d1, {h0, h3, h2, h3}` with h3 an element of `ld.shared.v2.s8` is
//!   `F2FP.SATFINITE.RELU.E4M3.F16.UNPACK_B_MERGE_C R8, R11, R8; …; PRMT R7, R3, 0x5410, R8`
//!   (element 3 the pair); its `reduced`, `v2_relu_e5m2`, `v3_relu_f32` (`PACK_AB_MERGE_C R7, R6,
//!   R0, R7`), `v5_pack_p_h_only`, `v7_relu_b32_pack_read_h` alike, and `v1_no_relu` the same
//!   listing without `RELU`. Right: a `.relu` conversion to `f16x2` (`v6_f16_relu_not_pair`:
//!   `F2FP.RELU.F16.F32.PACK_AB`, no MERGE_C), out of scope as any non-pair is.
//! - [`byte_of_64bit_half`]: h may be `cvt.u8.{u64,s64}` of a 64-bit register, which ptxas
//!   compiles as `LOP3.LUT R7, R2, 0xff` of the source's low word (a fresh one-instruction ALU
//!   result, as `cvt.u8.s32`). T16t3.md, a3e35b85: `cvt.u8.s64 h1, d0; mov.b32 r2, {pair, h1}`
//!   is `LOP3.LUT R7, R2, 0xff, RZ, 0xc0; F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R7, RZ, RZ, R7;
//!   …; STG.E.U16 [+0x6], R7` (r2's high half stored from the pair); `v2_cvt_u8_u64`,
//!   `v13_cvt_u8_s64_of_reg`, `v14_cvt_u8_s64_of_add` alike. Right (the pair built in another
//!   register, `MERGE_C R9, RZ, RZ, R7; PRMT R7, R9, 0x7632, R7`): `v3_cvt_u16_s64`,
//!   `v4_cvt_u16_u64`, `v5_cvt_s16_s64` and the sign-extending `v6_cvt_s8_s64`.
//! - [`guarded_over_constant`]: h's last writer may be a guarded `cvt` or `mov` copy of ANY
//!   value (a loaded one included) where h's value before it is a constant ptxas folds: the
//!   guarded write is if-converted into one `SEL` of the new value and the known old one into
//!   h's fresh register, and the pair is built there. corpus/findings/fuzz-h200-4503/trace/
//!   T16t5.md, dd2be460: `mov.b16 h1, 0; @!p0 cvt.rn.satfinite.e5m2x2.f16x2 h1, r0; mov.b32 r3,
//!   {h0, h1}` (r0 loaded) is `SEL R7, R0, RZ, !P0; F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R7,
//!   R2, R7; …; STG.E.U8 [+0x9], R7`; its `reduced`, `v3_guarded_f16_cvt`, `v4_old_moved_7`
//!   (`SEL R7, R0, 0x7, !P0`), `v6_guarded_mov_of_loaded` alike. Right: h's old value loaded
//!   (`v1_old_loaded_right`: a predicated reload `@P0 LDG.E.U16 R7`, the pair built in R9, as
//!   seed 4202's `v9_guarded_cvt_of_loaded`), the write unguarded (`v2_unguarded`).
//!   `merge_c_half_of_an_if_converted_write::guarded_half` keeps the guarded writers of a constant; this adds the
//!   writers of any value over a constant.
//!
//! Invariants: each decides scope only and names statements of exactly these forms; the value
//! the pack's readers take is computed by `merge_c_in_place.rs` (the pair, §9.7.9.4).

use super::fuzz3701::folded_constant;
use super::fuzz3702_conversions::bare;
use crate::isa::{Cvt, CvtRnd, CvtType, Form, Instruction, MovShape};
use crate::program::exec::Machine;
use crate::program::{Reg, Stmt};

/// How many producers deep h's old value is looked for as a folded constant (as
/// `merge_c_half_of_an_if_converted_write` looks for the guarded writer's).
const FOLD_DEPTH: u32 = 3;

/// Whether `c` is a pair conversion with `.relu`: `cvt.rn.relu.satfinite.{e4m3x2,e5m2x2}.{f32,
/// f16x2}` (module docs: built in place as without `.relu`).
pub(super) fn relu_pair(c: &Cvt) -> bool {
    matches!(c.dtype, CvtType::E4m3x2 | CvtType::E5m2x2)
        && matches!(c.atype, CvtType::F32 | CvtType::F16x2)
        && c.rnd == Some(CvtRnd::Rn)
        && c.satfinite
        && c.relu
}

/// Whether `c` is `cvt.u8.u64` or `cvt.u8.s64` (no modifier): `LOP3 0xff` into h's fresh
/// register (module docs).
pub(super) fn byte_of_64bit_half(c: &Cvt) -> bool {
    [CvtType::U64, CvtType::S64].into_iter().any(|from| *c == bare(CvtType::U8, from, false))
}

/// Whether `s` at body index `w`, the last writer of the 16-bit half `h`, is a guarded `cvt`
/// or `mov` copy into `h` whose old value of `h` (read at `w`) is a folded constant (module
/// docs). False for an unguarded `s`.
pub(super) fn guarded_over_constant(m: &Machine<'_>, w: usize, s: &Stmt, h: Reg) -> bool {
    let form = match s {
        Stmt::Isa(Instruction { form, guard: Some(_), .. }) => form,
        _ => return false,
    };
    let converts_or_copies = match form {
        Form::Cvt(_) => true,
        Form::Mov(mv) => mv.shape == MovShape::Copy,
        _ => false,
    };
    converts_or_copies && h.class().bits() == 16 && folded_constant(m, w, h, FOLD_DEPTH)
}
