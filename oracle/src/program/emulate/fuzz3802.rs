//! The emulations of the root causes the H200 campaign of seed 3802 found
//! (corpus/findings/fuzz-h200-3802/; traces `trace/T5A.md` … `trace/T5C.md`), called from the
//! hooks of `emulate.rs` ([`pack`], [`cvt`], [`unpacked`]): 3802 T5A-1 (`cvt.pack.sat` of a
//! constant NaN's conversion and a constant `c`: no instruction emitted), 6e4d6e41 (the fp8 →
//! f16x2 unpack of a known-zero top half gets a non-zero immediate) and root cause G through a
//! `mov.b32` or `mov.b64` unpack (the high half of a zero-extended 16-bit value's low word read
//! as the value, e141eb0d; 4101's 350b849f; 4303's aeb796d5: a word of a `mov.b64` pack).
//!
//! Each looks at the producers the machine records ([`Origin`](super::Origin)) and, where the
//! element an unpack took matters, at the statements that last wrote the registers before the
//! one being run (the body branches only forward); a constant is an immediate or a register a
//! move of an immediate wrote (ptxas folds it).
//!
//! Invariants: each function changes a result only when its deviation is emulated and the
//! instruction and its producers are exactly the ones its trace shows wrong; it returns its
//! input (or `None`: the spec's result stands) otherwise.

use super::cnot_number_and_range_decided_sets::zero_extending;
use super::f2ip_of_constants_known_once_a_shuffle_folds::{converts_a_folded_shuffle, shuffled_c};
use super::fuzz3701::folded_constant;
use super::fuzz3701::last_writer;
use super::g_unpack_beside_a_folded_sign_test;
use super::j_branch_known_values;
use super::j_shuffled_constant_folded_beside_a_load;
use super::ptxas_constant_operands;
use super::{
    anything, byte_pack_with_c, g_unpack_through_sign_extension_or_pack64, imm_of, known_word_through_pack_or_logic64,
    mul_chain_zero_word_and_predicate_zero_one, nan_of, reg_of_glue, set_negation_sign_extension_saturation_queries,
};
use crate::isa::operand::Operand;
use crate::isa::types::MemType;
use crate::isa::{Cvt, CvtPack, CvtRnd, CvtType, Form, Instruction, Mov, MovShape};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, GlueType};
use crate::program::{Reg, Stmt};
use crate::semantics::{Deviation, Expected};

/// Whether operand `o` of the statement being run is a constant ptxas folds: an immediate, or
/// a register an unguarded move of an immediate last wrote.
fn constant_operand(m: &Machine<'_>, o: &Operand) -> bool {
    matches!(o, Operand::Imm(_)) || m.reg_of(o).is_ok_and(|r| folded_constant(m, m.stmt, r, 0))
}

/// Whether operand `o` of thread `t` holds `cvt.{rzi,rni}.{s32,u32}.f32` (§9.7.9.21) of a
/// constant NaN: the conversion's source a moved immediate, its value a NaN; or of any value a
/// `shfl.sync` of a constant wrote beside a load (seed 4901's 003cb04b,
/// [`converts_a_folded_shuffle`]).
fn of_constant_nan_cvt(m: &Machine<'_>, t: u32, o: &Operand) -> bool {
    let Some((c, origin)) = m.cvt_producer(t, Some(o)) else { return false };
    let float_to_int = matches!(c.dtype, CvtType::S32 | CvtType::U32)
        && c.atype == CvtType::F32
        && matches!(c.rnd, Some(CvtRnd::Rzi | CvtRnd::Rni))
        && !c.sat;
    // (The trace's immediate NaN operand, v7, is no `cvt` form the oracle parses.)
    let constant_source = match &m.p.body[origin.stmt] {
        Stmt::Isa(Instruction { operands, .. }) => {
            operands.get(1).and_then(|x| m.reg_of(x).ok()).is_some_and(|r| folded_constant(m, origin.stmt, r, 0))
        }
        _ => false,
    };
    let nan = constant_source && origin.a.as_ref().is_some_and(|a| nan_of(CvtType::F32, a));
    float_to_int && (nan || converts_a_folded_shuffle(m, origin.stmt))
}

/// 3802 T5A-1 (corpus/findings/fuzz-h200-3802/, f7406f82; trace/T5A.md, variants in
/// `trace/f7406f82/`): `cvt.pack.sat.{u8,s8}.s32.b32 d, a, a, c` (§9.7.9.22) with `a` written by
/// `cvt.{rzi,rni}.{s32,u32}.f32` of a constant NaN and `c` a constant whose low half is not 0
/// is dropped by ptxas 13.0.88 -O3 (no `F2IP`/`I2IP`: the store reads whatever `d`'s register
/// held, %tid.x in the stored kernel; 13.5 -O3 fails with C7907, the JIT crashes): `d` is any
/// value. Right: c's low half 0 (v5, w2), a register or loaded `c` (w5, v11), a loaded float
/// (v1), a non-NaN constant (v2, v8, v12), `a` ≠ `b` (v6). `results` (the spec's) changed.
/// The constants may also arrive through a `shfl.sync` ptxas folds beside a load (the source
/// of any value; `c` of any value: seed 4901's 003cb04b,
/// `emulate/f2ip_of_constants_known_once_a_shuffle_folds.rs`).
pub(super) fn pack(
    m: &mut Machine<'_>,
    t: u32,
    p: &CvtPack,
    inst: &Instruction,
    results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::PackOfNanCvtAndConstantDropped;
    let Some((dst, spec)) = byte_pack_with_c(m, d, p, &results) else { return results };
    let (dst, spec) = (&dst, &spec);
    let (Some(a), Some(b), Some(c)) = (inst.operands.get(1), inst.operands.get(2), inst.operands.get(3)) else {
        return results;
    };
    let same = matches!((m.reg_of(a), m.reg_of(b)), (Ok(x), Ok(y)) if x == y);
    let c_low_nonzero =
        constant_operand(m, c) && m.source(t, c, 32).is_ok_and(|v| v.is_exact() && v.bits & 0xFFFF != 0);
    if !same || !(c_low_nonzero || shuffled_c(m, c)) || !of_constant_nan_cvt(m, t, a) {
        return results;
    }
    let (dst, from) = (*dst, spec.clone());
    vec![(dst, m.fire(d, &from, anything(from.clone())))]
}

/// The unguarded `mov` unpack at body index `k` (`mov.b{32,64} {e0, …}, w`): its shape, the
/// register element `i` names (none for a sink) and the source register w.
fn unpack_at(m: &Machine<'_>, k: usize, i: usize) -> Option<(MovShape, Option<Reg>, Reg)> {
    let Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) = &m.p.body[k] else {
        return None;
    };
    let Some(Operand::Vector(items)) = operands.first().filter(|_| matches!(mv.shape, MovShape::Unpack(_))) else {
        return None;
    };
    let element = items.get(i).and_then(|o| m.reg_of(o).ok());
    Some((mv.shape, element, m.reg_of(operands.get(1)?).ok()?))
}

/// Whether the statement at body index `k` is an unguarded zero extension of a value that is
/// no constant ptxas folds, to 64 bits: `cvt.{u64,s64}.{u8,u16,u32}` (§9.7.9.21) (6e4d6e41 and
/// its variants `v10_u64u32`, `w2_u16`, `w7_tix`; a moved constant, `w1_const5` and `v4_cvt`, is
/// folded right).
pub(super) fn zero_extension_of_a_variable(m: &Machine<'_>, k: usize) -> bool {
    match &m.p.body[k] {
        Stmt::Isa(Instruction { form: Form::Cvt(c), operands, guard: None, .. }) => {
            matches!(c.dtype, CvtType::U64 | CvtType::S64)
                && matches!(c.atype, CvtType::U8 | CvtType::U16 | CvtType::U32)
                && operands.get(1).and_then(|o| m.reg_of(o).ok()).is_some_and(|r| !folded_constant(m, k, r, 3))
        }
        _ => false,
    }
}

/// Whether ptxas knows word `word` (0: bits 0..31, 1: bits 32..63) of the 64-bit value the
/// statement at body index `k` writes is 0, the statement's source values in thread `t` being
/// `a` and `b` (§9.7.8.1, §9.7.8.8, §9.7.9.21): the high word of a zero extension of a variable
/// ([`zero_extension_of_a_variable`]); either word of `and.b64` with a constant operand (an
/// immediate or a folded constant, either operand order) whose word is 0 (6e4d6e41's
/// `w3_and64`; corpus/findings/fuzz-h200-3901/, a2febec8, trace/T6A.md and trace/a2febec8/: a
/// moved or loaded x, masks 0x4000000000000 and 0xff00; session 40 helper h6 with ptxas 13.0.88
/// -O3: the immediate first, a moved mask register); the low word of `shl.b64 x, n` and the
/// high word of `shr.{b64,u64} x, n` for a constant n ≥ 32 (h6: n = 32, 40, 48, all
/// `UNPACK_B R5, 0x40`). Right (a word ptxas does not know is 0, or a 32-bit value): `shr.u64
/// x, 48`'s low word, `or` of a masked value, `and.b32`, `cvt.u32.u8` (v6_u32hi), `shr.u32`.
/// Also (seeds 4302/4303, `known_word_through_pack_or_logic64.rs`) a word whose high half ptxas knows, 0 or not:
/// a constant word of a `mov.b64 {lo, hi}` pack beside a variable one, and a word of a 64-bit
/// `or`/`xor`/`min`/`max` of constants or zero extensions.
fn known_zero_word(m: &Machine<'_>, k: usize, word: u32, a: Option<&Expected>, b: Option<&Expected>) -> bool {
    if word == 1 && zero_extension_of_a_variable(m, k) {
        return true;
    }
    // A known word of a `mov.b64 {lo, hi}` pack, or of `or`/`xor`/`min`/`max` of constants or
    // zero extensions (seeds 4302/4303's 3d132351 and 29c22ed5, `emulate/known_word_through_pack_or_logic64.rs`).
    if known_word_through_pack_or_logic64::known_word_of_a_pack(m, k, word)
        || known_word_through_pack_or_logic64::known_word_of_a_logical_or_min_max(m, k, word, a, b)
    {
        return true;
    }
    let Stmt::Glue { glue, guard: None } = &m.p.body[k] else { return false };
    let constant = |i: usize| {
        let value = [a, b][i].filter(|v| v.is_exact()).map(|v| v.bits as u64)?;
        let folded = imm_of(glue, i).is_some() || reg_of_glue(glue, i).is_some_and(|r| folded_constant(m, k, r, 3));
        folded.then_some(value)
    };
    let shift = || constant(1).filter(|&n| n >= 32).is_some();
    match (glue.op, glue.ty) {
        (GlueOp::And, GlueType::B64) => (0..2).any(|i| constant(i).is_some_and(|v| (v >> (32 * word)) as u32 == 0)),
        (GlueOp::Shl, GlueType::B64 | GlueType::U64 | GlueType::S64) => word == 0 && shift(),
        (GlueOp::Shr, GlueType::B64 | GlueType::U64) => word == 1 && shift(),
        _ => false,
    }
}

/// The body index of the 64-bit value whose bits 16..31 or 48..63 (the high half of a word)
/// register `h` holds where the statement being run reads it, when ptxas knows that word is 0
/// ([`known_zero_word`]), the value reaching h (in thread `t`) through unguarded `mov`s only:
/// element 1 or 3 of a `mov.b64` unpack into halves, or the high half of `mov.b32 {_, h}` of a
/// word of a `mov.b64 {lo, hi}` unpack (`v11_movb32`; a2febec8 h6: the low word too), of the
/// value or of `mov.b64` copies of it (h6: `shl.b64; mov.b64 d2, d1`, the same listing).
fn top_half_of_known_zero_word(m: &Machine<'_>, t: u32, h: Reg) -> Option<usize> {
    let (k, _) = last_writer(m, m.stmt, h)?;
    let element = |k: usize, n: usize, wide: u32| {
        (0..n).find_map(|i| match unpack_at(m, k, i)? {
            (MovShape::Unpack(c), Some(e), w) if usize::from(c) == n && e == h && w.class().bits() == wide => {
                Some((i, w))
            }
            _ => None,
        })
    };
    let (mut at, mut w, offset) = match element(k, 4, 64) {
        Some((i, w)) => (k, w, 16 * i as u32),
        None => {
            let (1, word) = element(k, 2, 32)? else { return None };
            let (k2, _) = last_writer(m, k, word)?;
            // A 32-bit word ptxas knows is 0 by known bits (seed 4102's c9b123b1,
            // `emulate/mul_chain_zero_word_and_predicate_zero_one.rs`), the value h's producer wrote.
            let same = m.producer(t, h).is_some_and(|(_, o)| o.stmt == k2);
            // Or a constant ptxas knows once it drops its shuffle after a `bar.sync` (seed 4403's
            // 4b87e2ad, `emulate/ptxas_constant_operands.rs`) or in a body that loads (seed 5603's
            // 5b4dc85d, `emulate/j_shuffled_constant_folded_beside_a_load.rs`).
            if same
                && (mul_chain_zero_word_and_predicate_zero_one::zero_by_known_bits32(m, k2)
                    || ptxas_constant_operands::shuffled_word_after_a_barrier(m, k, word)
                    || j_shuffled_constant_folded_beside_a_load::fp8_unpacked_word_of_a_folded_shuffle(m, k, word))
            {
                return Some(k2);
            }
            let j = (0..2).find(|&j| {
                unpack_at(m, k2, j)
                    .is_some_and(|(s, e, w)| s == MovShape::Unpack(2) && e == Some(word) && w.class().bits() == 64)
            })?;
            (k2, unpack_at(m, k2, j)?.2, 32 * j as u32 + 16)
        }
    };
    if offset % 32 != 16 {
        return None;
    }
    // Through `mov.b64` copies of the value.
    for _ in 0..4 {
        let (k, s) = last_writer(m, at, w)?;
        match s {
            Stmt::Isa(Instruction { form: Form::Mov(mv), operands, guard: None, .. }) if mv.shape == MovShape::Copy => {
                w = operands.get(1).and_then(|o| m.reg_of(o).ok())?;
                at = k;
            }
            _ => break,
        }
    }
    let (value, _) = last_writer(m, at, w)?;
    let origin = m.producer(t, h)?.1;
    // The value h holds in this thread is that statement's (no other write on its path).
    let known = origin.stmt == value && known_zero_word(m, value, offset / 32, origin.a.as_ref(), origin.b.as_ref());
    known.then_some(value)
}

/// 3802 6e4d6e41 (corpus/findings/fuzz-h200-3802/, 6e4d6e41; trace/T5C.md, variants in
/// `trace/6e4d6e41/`; corpus/findings/fuzz-h200-3901/, a2febec8, trace/T6A.md):
/// `cvt.rn.f16x2.{e5m2x2,e4m3x2} d, h` (§9.7.9.21) of the high half of a word of a 64-bit value
/// ptxas knows is 0 ([`top_half_of_known_zero_word`]), 0 by the spec, is emitted by ptxas
/// 13.0.88 and 13.5 -O3 (and the JIT) with a non-zero immediate source (`F2FP.F16.E5M2.UNPACK_B
/// R5, 0x20`, 0x40, 0x100 in the stored kernels): `d` is any value (set-valued: the immediate
/// follows no rule the variants show). The low half of a word (element 0 or 2: `v4_h6`,
/// a2febec8's `v3_h1`), a 32-bit unpack (`v6_u32hi`, `v9_shr`, a2febec8's `v6_and32`), a 64-bit
/// constant moved whole (a2febec8's `v1_noand`), a sign extension (`v3_s8`) and other readers of
/// h (`w4_f32`, `w6`) are right.
pub(super) fn cvt(
    m: &Machine<'_>,
    t: u32,
    inst: &Instruction,
    c: Cvt,
    spec: &Expected,
) -> Option<(Deviation, Expected)> {
    let d = Deviation::Fp8UnpackOfZeroExtendedTopHalfImmediate;
    let unpack_to_f16x2 = c.dtype == CvtType::F16x2
        && matches!(c.atype, CvtType::E5m2x2 | CvtType::E4m3x2)
        && c.rnd == Some(CvtRnd::Rn)
        && !c.relu;
    if !m.allow.emulates(d) || !unpack_to_f16x2 {
        return None;
    }
    let h = inst.operands.get(1).and_then(|o| m.reg_of(o).ok())?;
    top_half_of_known_zero_word(m, t, h)?;
    Some((d, anything(spec.clone())))
}

/// Whether register `r` of thread `t` holds a 16-bit value zero-extended to 32 bits in a way
/// ptxas reads as a no-op (the value stays in its register, whose low half is the value):
/// `cvt.{u32,s32}.u16` (§9.7.9.21: an unsigned source is zero-extended whatever the destination's
/// signedness; corpus/findings/fuzz-h200-3901/, fd7cf510, trace/T6C.md: `cvt.s32.u16` gives the
/// same 13.0.88 and 13.5 -O3 listing as `v1_u32dst`), `cvt.{u32,s32}.u8` of a value already a
/// byte ([`byte_ranged`]; corpus/findings/fuzz-h200-4001/, 7c009de1 and ef73cb67's
/// `v6_u8_halves_hi`, trace/T7A.md: `LDG.E.U8 R5; STG.E.U16 R5`; of a loaded `u16`, whose high
/// byte the cvt must clear, 13.0.88 -O3 keeps `LOP3 0xff; PRMT 0x7632`, right, as of fd7cf510's
/// f16), or a scalar `ld.{u8,b8,u16,b16}` into the 32-bit register (§9.7.9.8: `.b` types are
/// zero-extended as `.u` types are; seed 4102's 78ee4405, T9y2.md). The same into a 64-bit
/// register (seed 4101, corpus/findings/fuzz-h200-4101/trace/T8x.md, 350b849f and f1fe2a66:
/// `cvt.{s64,u64}.u16`, `cvt.u64.u8` of a byte, a scalar `ld.u16` into it; the value stays in the
/// low register, the high one is `RZ`). Also a sign extension ptxas takes as a no-op (a scalar
/// `ld.{s8,s16}`, or `cvt.{s32,s64}.{s8,s16}` of one: the value sign-extended in its register;
/// corpus/findings/fuzz-h200-4203/trace/T12c3.md, e0a4f736,
/// [`set_negation_sign_extension_saturation_queries::sign_extension_kept_in_place`]), and `cvt.*.s16` of a loaded byte, whose
/// bit 15 is 0 (4302's 1b724026, [`g_unpack_through_sign_extension_or_pack64::sign_extension_of_a_byte_in_place`]).
fn zero_extended_half(m: &Machine<'_>, t: u32, r: Reg) -> bool {
    // A sign extension ptxas takes as a no-op the same way (seed 4203's e0a4f736).
    let zero_extended = match m.producer(t, r) {
        Some((Stmt::Isa(Instruction { form: Form::Cvt(c), .. }), o)) => {
            let widening = matches!(c.dtype, CvtType::U32 | CvtType::S32 | CvtType::U64 | CvtType::S64) && !c.sat;
            widening && (c.atype == CvtType::U16 || (c.atype == CvtType::U8 && byte_ranged(m, o.a_stmt)))
        }
        Some((Stmt::Isa(Instruction { form: Form::Ld(l), .. }), _)) => zero_extending(l.ty) && l.vec.is_none(),
        _ => false,
    };
    zero_extended
        || set_negation_sign_extension_saturation_queries::sign_extension_kept_in_place(m, t, r)
        || g_unpack_through_sign_extension_or_pack64::sign_extension_of_a_byte_in_place(m, t, r)
        // The low word of such a 64-bit value (seed 5802's 06f453ea).
        || g_unpack_through_sign_extension_or_pack64::truncation_of_a_kept_extension(m, t, r, |w| {
            zero_extended_half(m, t, w)
        })
}

/// Whether the statement at body index `k` writes a value whose bits above the low byte are 0 by
/// construction: a scalar `ld.{u8,b8}` (§9.7.9.8: unsigned and bit-size types are zero-extended
/// alike; corpus/findings/fuzz-h200-4102/trace/T9y2.md, 78ee4405: `ld.global.b8` is `LDG.E.U8`
/// as `ld.u8` is, 13.0.88 and 13.5 -O3, its `v7_ld_b8_u32` the 32-bit form) or a `cvt` to `.u8`
/// (§9.7.9.21: the result zero-extended to the register; 7c009de1's `cvt.rni.u8.f16`, ef73cb67's
/// `cvt.rni.u8.f32`).
fn byte_ranged(m: &Machine<'_>, k: Option<usize>) -> bool {
    match k.and_then(|k| m.p.body.get(k)) {
        Some(Stmt::Isa(Instruction { form: Form::Cvt(c), .. })) => c.dtype == CvtType::U8,
        Some(Stmt::Isa(Instruction { form: Form::Ld(l), .. })) => {
            matches!(l.ty, MemType::U8 | MemType::B8) && l.vec.is_none()
        }
        _ => false,
    }
}

/// G through a `mov.b32` unpack (corpus/findings/fuzz-h200-3802/, e141eb0d, trace/T5B.md;
/// corpus/findings/fuzz-h200-3701/, a3598fb3, trace/TC4.md and its `var/`): `mov.b32 {lo, hi},
/// r` (§9.7.9.4) of a zero-extended 16-bit value r ([`zero_extended_half`]) whose `lo` is never
/// read gives `hi` = r's low half, the value itself (ptxas 13.0.88 and 13.5 -O3: `I2F.BF16.S64.RZ
/// R5, …; STG.E.U8 R5`, `LDG.E.U16 R3; STG.E.U16 R3`), where the spec's high half is 0. `lo` read
/// too (`var/s_ldb16_u32_st_h6_h5`), `shr.u32 r, 16` (v6), a `mov.b32 r, {h, 0}` pack (v9),
/// `and.b32 0xffff` (`var/v`) and a sign extension (`var/t`) are right.
///
/// The mechanism (session 40, corpus/findings/fuzz-h200-4001/trace/T7A.md, ef73cb67 and
/// 7c009de1): -O3 drops the `PRMT 0x7632` that brings r's high half down whenever no element of
/// the low half is observed (dead readers ignored) and r itself has no other live reader (plain
/// copies followed; `7c009de1/v5_store_whole_too`, r also stored whole, is right). A byte unpack
/// `mov.b32 {b0, b1, b2, b3}, r` reads b2, b3 as the value's bytes 0 and 1 (`PRMT R7, R4,
/// 0x7770, RZ` and `0x7771`, 13.0.88 and 13.5 -O3); b0 or b1 observed too is right
/// (`ef73cb67/v2_all_bytes_read`, `v7_b01_read_too`). The same of a 64-bit r (seed 4101,
/// corpus/findings/fuzz-h200-4101/trace/T8x.md, 350b849f and f1fe2a66): `mov.b64 {h0, h1, h2, h3},
/// r` with h0 unobserved reads h1 as the value (13.0.88 and 13.5 -O3 `LDG.E.U8 R5; STG.E.U16
/// R5`; `350b849f/v1_h1_only`, `v6_ld_u16_64`, `v8_u8_of_byte`); h2, h3 (the high register, `RZ`:
/// `v3_h2`) and the 32-bit halves `{lo, hi}` (`v4_b32_halves`) are right, and so are h0 read too
/// (`v2_low_read_too`), r stored whole too (`v5_stored_whole_too`) and a sign extension
/// (`v7_sext`, of an `ld.u16`). Seed 4303 (aeb796d5, `g_unpack_through_sign_extension_or_pack64`): a `mov.b64` unpack of
/// a `mov.b64 {w0, w1}` pack read by it alone is, per 32-bit word, the 32-bit unpack of w_k.
/// `results` (the spec's, one per register element) changed.
pub(super) fn unpacked(
    m: &mut Machine<'_>,
    t: u32,
    mv: &Mov,
    inst: &Instruction,
    mut results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let d = Deviation::ZeroExtendedHighHalfReadAsTheValue;
    let n = match mv.shape {
        MovShape::Unpack(n @ (2 | 4)) => usize::from(n),
        _ => return results,
    };
    if !m.allow.emulates(d) {
        return results;
    }
    let (Some(Operand::Vector(items)), Some(src)) = (inst.operands.first(), inst.operands.get(1)) else {
        return results;
    };
    let at = m.stmt;
    let Some(width) = m.reg_of(src).ok().map(|r| r.class().bits()).filter(|&w| w == 32 || w == 64) else {
        return results;
    };
    let bits = width / n as u32;
    // The elements of the low 32 bits, where the value and the half ptxas mistakes for it lie.
    let in_low_word = (32 / bits) as usize;
    if in_low_word < 2 {
        return results;
    }
    let element = |i: usize| items.get(i).and_then(|o| m.reg_of(o).ok());
    let Ok(src) = m.reg_of(src) else { return results };
    // Each value ptxas keeps in its own register, with the statement reading it and the
    // elements of its low 32 bits: the source itself, or the words of a `mov.b64` pack it is
    // (seed 4303's aeb796d5, [`g_unpack_through_sign_extension_or_pack64::words_of_a_pack`]).
    let mut kept: Vec<(Reg, usize, Vec<Option<Reg>>)> = Vec::new();
    if zero_extended_half(m, t, src) {
        kept.push((src, at, (0..in_low_word).map(element).collect()));
    } else if let Some((pack, words)) =
        g_unpack_through_sign_extension_or_pack64::words_of_a_pack(m, at, src).filter(|_| bits == 16)
    {
        for (k, w) in words.iter().enumerate() {
            if let Some(w) = w.filter(|w| w.class().bits() == 32 && zero_extended_half(m, t, *w)) {
                kept.push((w, pack, vec![element(2 * k), element(2 * k + 1)]));
            }
        }
    }
    let observed = |e: &Option<Reg>| e.is_some_and(|e| j_branch_known_values::observed(m, at, e));
    let mut fired: Vec<(Reg, Expected)> = Vec::new();
    for (r, reader, elements) in kept {
        let (low, high) = elements.split_at(elements.len() / 2);
        // r's value observed by its reader alone (plain copies between followed).
        // A sign test ptxas folds is no reader (seed 6002's e05edb4c, [`g_unpack_beside_a_folded_sign_test`]).
        let folded = |i: usize, x: Reg| g_unpack_beside_a_folded_sign_test::folded_sign_test(m, t, i, x);
        let only_here = last_writer(m, reader, r)
            .is_some_and(|(k, _)| j_branch_known_values::observed_only_by_except(m, k, r, reader, &folded));
        if !high.iter().any(observed) || low.iter().any(observed) || !only_here {
            continue;
        }
        let Some(value) = m.read(t, r).ok().filter(Expected::is_exact) else { continue };
        for (j, e) in high.iter().enumerate() {
            if let Some(e) = *e {
                fired.push((e, value.field(bits * j as u32, bits)));
            }
        }
    }
    for (e, v) in fired {
        if let Some((_, x)) = results.iter_mut().find(|(x, _)| *x == e) {
            let from = x.clone();
            *x = m.fire(d, &from, v);
        }
    }
    results
}
