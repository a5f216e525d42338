//! Small facts about values, types and glue operands that the emulation hooks share
//! (`emulate.rs` and its scope files): a set-valued "anything", the float and half `cvt` types,
//! the number 1 in each float type, a `cvt` form's result through the oracle's own semantics, a
//! glue source as a register or an immediate, whether a statement is an integer `set`, whether a
//! value is a NaN, the 64-bit pack that last wrote a register. No
//! deviation is decided here.

use super::fuzz3602::writes;
use crate::isa::operand::Operand;
use crate::isa::{CvtPack, CvtType, Form, Instruction, Mov, MovShape, PackType};
use crate::num::F32;
use crate::program::exec::Machine;
use crate::program::glue::{Glue, GlueOp, SetDst, Src};
use crate::program::{Reg, Stmt};
use crate::semantics::operands::{evaluate, Input, Output};
use crate::semantics::{Allowance, Constraint, Deviation, Expected, Free};

/// `e` as a set-valued result: any value, `e`'s bits the one it names.
pub(super) fn anything(e: Expected) -> Expected {
    let width = e.width;
    Expected {
        bits: e.bits,
        width,
        free: vec![Free { shift: 0, width, constraint: Constraint::Any, allowance: Allowance::Undefined }],
    }
}

/// Whether a `cvt` writes a float type (what an 8-bit store of its register converts, A).
pub(super) fn float_dtype(t: CvtType) -> bool {
    matches!(t, CvtType::F16 | CvtType::Bf16 | CvtType::F32 | CvtType::Tf32 | CvtType::F16x2 | CvtType::Bf16x2)
}

/// The bits of the number 1 in float type `t` (`.f16`, `.bf16`, `.f32`, `.f64`), `None` for other
/// types: what ptxas converts in place of a 0/1's bits (3501-N3 and its widenings).
pub(super) fn one_in(t: CvtType) -> Option<u128> {
    match t {
        CvtType::F16 => Some(0x3c00),
        CvtType::Bf16 => Some(0x3f80),
        CvtType::F32 => Some(u128::from(1.0f32.to_bits())),
        CvtType::F64 => Some(u128::from(1.0f64.to_bits())),
        _ => None,
    }
}

/// Whether `t` is `.f16` or `.bf16`.
pub(super) fn half(t: CvtType) -> bool {
    matches!(t, CvtType::F16 | CvtType::Bf16)
}

/// The signed integer type of the width of `t` (an unsigned one).
pub(super) fn signed_of(t: CvtType) -> Option<CvtType> {
    Some(match t {
        CvtType::U8 => CvtType::S8,
        CvtType::U16 => CvtType::S16,
        CvtType::U32 => CvtType::S32,
        CvtType::U64 => CvtType::S64,
        _ => return None,
    })
}

/// The result `d` of `form` on source `a` (through the oracle's own semantics), if exact.
pub(super) fn convert(m: &Machine<'_>, form: &Form, a: u128) -> Option<Expected> {
    let values = [("a".to_string(), Input::Scalar(a))].into_iter().collect();
    let out = evaluate(form, &values, None, m.allow).ok()?;
    out.into_iter().find(|(n, _)| n == "d").and_then(|(_, o)| match o {
        Output::Bits(e) => Some(e),
        _ => None,
    })
}

/// The `cvt` form named by `opcode` (a form the oracle models).
pub(super) fn cvt_form(opcode: &str) -> Option<Form> {
    Form::parse_opcode(opcode).ok()
}

/// The register source `k` of `g`, if it is one.
pub(super) fn reg_of_glue(g: &Glue, k: usize) -> Option<Reg> {
    match g.src.get(k).copied().flatten() {
        Some(Src::Reg(r)) => Some(r),
        _ => None,
    }
}

/// The immediate source `k` of `g`, if it is one.
pub(super) fn imm_of(g: &Glue, k: usize) -> Option<u64> {
    match g.src.get(k).copied().flatten() {
        Some(Src::Imm(v)) => Some(v),
        _ => None,
    }
}

/// Whether `v` is the minimum of a signed type of `width` bits.
pub(super) fn is_min(v: &Expected, width: u32) -> bool {
    v.is_exact() && width > 0 && width <= 64 && v.bits & ((1u128 << width) - 1) == 1u128 << (width - 1)
}

/// Whether statement `k` of the program is a `set.<cmp>.{s32,u32}` (its word −1 or 0), the
/// producer 3301-N3's round trip starts from.
pub(super) fn is_integer_set(m: &Machine<'_>, k: usize) -> bool {
    matches!(m.p.body.get(k), Some(Stmt::Glue { glue, .. }) if matches!(glue.op, GlueOp::Set(_, SetDst::S32 | SetDst::U32)))
}

/// Whether `e` is a 32-bit value that may be any f32 NaN and nothing else.
pub(super) fn any_f32_nan(e: &Expected) -> bool {
    e.width == 32
        && matches!(e.free.as_slice(), [Free { shift: 0, width: 32, constraint: Constraint::AnyNan(f), .. }] if f.name == F32.name)
}

/// Whether `x` (a `cvt` source of type `t`, `.f32`, `.f16` or `.bf16`) is a NaN: exactly, or
/// any f32 NaN.
pub(super) fn nan_of(t: CvtType, x: &Expected) -> bool {
    let (exp, man) = match t {
        CvtType::F32 => (0x7f80_0000u128, 0x007f_ffffu128),
        CvtType::F16 => (0x7c00, 0x03ff),
        CvtType::Bf16 => (0x7f80, 0x007f),
        _ => return false,
    };
    (x.is_exact() && x.bits & exp == exp && x.bits & man != 0) || (t == CvtType::F32 && any_f32_nan(x))
}

/// The unguarded `mov.b64 w, {e0, e1}` (§9.7.9.4) that last wrote `w` in thread `t`, before the
/// statement being run: its body index, its destination, and each word's register where that is
/// a 32-bit register unwritten since the pack (`None` where it is not).
pub(super) fn pack64_of(m: &Machine<'_>, t: u32, w: Reg) -> Option<(usize, Reg, [Option<Reg>; 2])> {
    let (pack, o) = m.producer(t, w)?;
    let Stmt::Isa(Instruction { form: Form::Mov(Mov { shape: MovShape::Pack(2), .. }), operands, guard: None, .. }) =
        pack
    else {
        return None;
    };
    let (pack_at, at) = (o.stmt, m.stmt);
    let (Some(dst), Some(Operand::Vector(words))) = (operands.first(), operands.get(1)) else { return None };
    if pack_at >= at {
        return None;
    }
    let kept = |k: usize| {
        let e = m.reg_of(words.get(k)?).ok().filter(|e| e.class().bits() == 32)?;
        (!m.p.body[pack_at + 1..at].iter().any(|s| writes(s, e))).then_some(e)
    };
    Some((pack_at, m.reg_of(dst).ok()?, [kept(0), kept(1)]))
}

/// The one destination of a byte `cvt.pack` with `c` (`cvt.pack.sat.{u8,s8}.s32.b32 d, a, b, c`,
/// §9.7.9.22) and its spec value, when `d` is emulated: the form the `cvt.pack` emulations
/// (3701-N-A, 3802 T5A-1, J's narrowed `c`) apply to; `None` otherwise.
pub(super) fn byte_pack_with_c(
    m: &Machine<'_>,
    d: Deviation,
    p: &CvtPack,
    results: &[(Reg, Expected)],
) -> Option<(Reg, Expected)> {
    let byte = matches!(p.convert, PackType::U8 | PackType::S8);
    match results {
        [(dst, spec)] if m.allow.emulates(d) && byte && p.with_c => Some((*dst, spec.clone())),
        _ => None,
    }
}
