//! The integer glue set of test programs. Glue is not what ptxdiff tests; it makes values mix
//! between the instructions under test and gives the optimizer work. The set (PTX ISA 9.0
//! numbering):
//! - §9.7.1 integer arithmetic: `add sub mul.lo mul.hi mul.wide mad.lo mad.hi mad.wide min
//!   max abs neg` (§9.7.1.1–4, 9.7.1.10–13), `popc clz bfind brev bfe bfi` (§9.7.1.14–16,
//!   9.7.1.18–20); `add min max` also on packed `.u16x2`/`.s16x2` (sm_90, PTX 8.0);
//! - §9.7.2 extended precision: `add.cc addc{.cc} sub.cc subc{.cc}` through the carry flag
//!   `CC.CF` (§9.7.2.1–4);
//! - §9.7.7 comparison and selection: `set setp selp slct` (§9.7.7.1–4);
//! - §9.7.8 logic and shift: `and or xor not cnot lop3 shf shl shr` (§9.7.8.1–9).
//!
//! The semantics below follow the pseudo-code of those sections (the excerpts in
//! `shared/spec/` hold §9.7.9 only; these chapters are cited from the PTX ISA 9.0 manual).
//!
//! Invariant: every (op, type, operand shape) that [`Glue::is_valid`] accepts on a target
//! that [`Glue::available`] allows assembles with ptxas (a test in the runner checks it) and
//! [`Glue::eval`] is its exact result. An instruction that reads the carry flag reads the one
//! written by the instruction right before it ([`GlueOp::reads_carry`]; the program checker
//! enforces it, so no other instruction sits between them).

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use super::{Reg, RegClass};
use crate::isa::operand::{parse_operands, Imm, Operand};
use crate::isa::{ParseError, PtxVersion, Target};

/// The destination type of `set` (§9.7.7.1): an integer mask (all ones for true) or `1.0f`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetDst {
    /// `.u32`: `0xFFFFFFFF` or 0.
    U32,
    /// `.s32`: -1 or 0.
    S32,
    /// `.f32`: `1.0f` or `0.0f`.
    F32,
}

impl SetDst {
    /// All destination types.
    pub const ALL: [SetDst; 3] = [SetDst::U32, SetDst::S32, SetDst::F32];

    fn name(self) -> &'static str {
        match self {
            SetDst::U32 => "u32",
            SetDst::S32 => "s32",
            SetDst::F32 => "f32",
        }
    }
}

/// A glue opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GlueOp {
    /// `add` (wrapping; lane-wise for 16x2).
    Add,
    /// `sub` (wrapping).
    Sub,
    /// `mul.lo` (low half of the product).
    MulLo,
    /// `mul.hi` (high half of the double-width product, §9.7.1.3).
    MulHi,
    /// `mul.wide` (the double-width product, §9.7.1.3; 16- and 32-bit types).
    MulWide,
    /// `mad.lo` (`a·b + c`, low half, §9.7.1.4).
    MadLo,
    /// `mad.hi` (high half of `a·b`, plus `c`, §9.7.1.4).
    MadHi,
    /// `mad.wide` (double-width `a·b + c`, `c` double-width, §9.7.1.4).
    MadWide,
    /// `and`.
    And,
    /// `or`.
    Or,
    /// `xor`.
    Xor,
    /// `not`.
    Not,
    /// `cnot` (1 when the source is 0, else 0, §9.7.8.5).
    Cnot,
    /// `lop3.b32 d, a, b, c, immLut` (§9.7.8.6): the look-up table is source 3, an immediate.
    Lop3,
    /// `shf.{l,r}.{wrap,clamp}.b32 d, a, b, c` (§9.7.8.7): the funnel shift of `b:a`.
    Shf {
        /// `.l` (else `.r`).
        left: bool,
        /// `.wrap` (amount mod 32; else `.clamp`, amount at most 32).
        wrap: bool,
    },
    /// `shl` (amounts above the width give 0).
    Shl,
    /// `shr` (arithmetic for signed types; amounts above the width clamp).
    Shr,
    /// `min`.
    Min,
    /// `max`.
    Max,
    /// `abs` (wrapping: `abs(MIN) = MIN`).
    Abs,
    /// `neg` (wrapping).
    Neg,
    /// `popc` (set bits, a `.u32` result, §9.7.1.14).
    Popc,
    /// `clz` (leading zeros, a `.u32` result, §9.7.1.15).
    Clz,
    /// `bfind{.shiftamt}` (most significant non-sign bit, a `.u32` result, §9.7.1.16).
    Bfind {
        /// `.shiftamt`: the left shift that would normalize the value instead.
        shiftamt: bool,
    },
    /// `brev` (bit reversal, §9.7.1.18).
    Brev,
    /// `bfe d, a, pos, len` (bit field extract, §9.7.1.19).
    Bfe,
    /// `bfi f, a, b, pos, len` (bit field insert of `a` into `b`, §9.7.1.20).
    Bfi,
    /// `setp.cmp`.
    Setp(Cmp),
    /// `set.cmp.dtype` (§9.7.7.1).
    Set(Cmp, SetDst),
    /// `selp` (`d = c ? a : b`).
    Selp,
    /// `slct.dtype.s32` (`d = c >= 0 ? a : b`, §9.7.7.4).
    Slct,
    /// `add.cc` (writes the carry-out to `CC.CF`, §9.7.2.1).
    AddCc,
    /// `addc{.cc}` (adds `CC.CF`; `.cc` writes the carry-out, §9.7.2.2).
    Addc {
        /// `.cc`.
        cc: bool,
    },
    /// `sub.cc` (writes the borrow-out to `CC.CF`, §9.7.2.3).
    SubCc,
    /// `subc{.cc}` (`a - (b + CC.CF)`; `.cc` writes the borrow-out, §9.7.2.4).
    Subc {
        /// `.cc`.
        cc: bool,
    },
}

/// Comparison of `setp` and `set`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// `eq`.
    Eq,
    /// `ne`.
    Ne,
    /// `lt`.
    Lt,
    /// `le`.
    Le,
    /// `gt`.
    Gt,
    /// `ge`.
    Ge,
}

impl Cmp {
    /// All comparisons.
    pub const ALL: [Cmp; 6] = [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge];

    fn name(self) -> &'static str {
        match self {
            Cmp::Eq => "eq",
            Cmp::Ne => "ne",
            Cmp::Lt => "lt",
            Cmp::Le => "le",
            Cmp::Gt => "gt",
            Cmp::Ge => "ge",
        }
    }

    pub(crate) fn holds(self, ord: std::cmp::Ordering) -> bool {
        match self {
            Cmp::Eq => ord.is_eq(),
            Cmp::Ne => ord.is_ne(),
            Cmp::Lt => ord.is_lt(),
            Cmp::Le => ord.is_le(),
            Cmp::Gt => ord.is_gt(),
            Cmp::Ge => ord.is_ge(),
        }
    }
}

/// The glue opcodes before the issue-29 additions: what [`GlueOp::is_basic`] names.
const BASIC: [GlueOp; 14] = [
    GlueOp::Add,
    GlueOp::Sub,
    GlueOp::MulLo,
    GlueOp::And,
    GlueOp::Or,
    GlueOp::Xor,
    GlueOp::Not,
    GlueOp::Shl,
    GlueOp::Shr,
    GlueOp::Min,
    GlueOp::Max,
    GlueOp::Abs,
    GlueOp::Neg,
    GlueOp::Selp,
];

impl GlueOp {
    /// Every opcode.
    pub fn all() -> Vec<GlueOp> {
        let mut v = BASIC.to_vec();
        v.extend(Cmp::ALL.map(GlueOp::Setp));
        v.extend([GlueOp::MulHi, GlueOp::MulWide, GlueOp::MadLo, GlueOp::MadHi, GlueOp::MadWide]);
        v.extend([GlueOp::Cnot, GlueOp::Lop3]);
        for left in [true, false] {
            for wrap in [true, false] {
                v.push(GlueOp::Shf { left, wrap });
            }
        }
        v.extend([GlueOp::Popc, GlueOp::Clz, GlueOp::Bfind { shiftamt: false }, GlueOp::Bfind { shiftamt: true }]);
        v.extend([GlueOp::Brev, GlueOp::Bfe, GlueOp::Bfi]);
        for c in Cmp::ALL {
            v.extend(SetDst::ALL.map(|d| GlueOp::Set(c, d)));
        }
        v.push(GlueOp::Slct);
        v.extend([GlueOp::AddCc, GlueOp::Addc { cc: false }, GlueOp::Addc { cc: true }]);
        v.extend([GlueOp::SubCc, GlueOp::Subc { cc: false }, GlueOp::Subc { cc: true }]);
        v
    }

    /// Whether the opcode is of the basic glue set (`add sub mul.lo and or xor not shl shr
    /// min max abs neg selp setp`).
    pub fn is_basic(self) -> bool {
        BASIC.contains(&self) || matches!(self, GlueOp::Setp(_))
    }

    fn mnemonic(self) -> String {
        match self {
            GlueOp::Add => "add".into(),
            GlueOp::Sub => "sub".into(),
            GlueOp::MulLo => "mul.lo".into(),
            GlueOp::MulHi => "mul.hi".into(),
            GlueOp::MulWide => "mul.wide".into(),
            GlueOp::MadLo => "mad.lo".into(),
            GlueOp::MadHi => "mad.hi".into(),
            GlueOp::MadWide => "mad.wide".into(),
            GlueOp::And => "and".into(),
            GlueOp::Or => "or".into(),
            GlueOp::Xor => "xor".into(),
            GlueOp::Not => "not".into(),
            GlueOp::Cnot => "cnot".into(),
            GlueOp::Lop3 => "lop3".into(),
            GlueOp::Shf { left, wrap } => {
                format!("shf.{}.{}", if left { "l" } else { "r" }, if wrap { "wrap" } else { "clamp" })
            }
            GlueOp::Shl => "shl".into(),
            GlueOp::Shr => "shr".into(),
            GlueOp::Min => "min".into(),
            GlueOp::Max => "max".into(),
            GlueOp::Abs => "abs".into(),
            GlueOp::Neg => "neg".into(),
            GlueOp::Popc => "popc".into(),
            GlueOp::Clz => "clz".into(),
            GlueOp::Bfind { shiftamt } => if shiftamt { "bfind.shiftamt" } else { "bfind" }.into(),
            GlueOp::Brev => "brev".into(),
            GlueOp::Bfe => "bfe".into(),
            GlueOp::Bfi => "bfi".into(),
            GlueOp::Setp(c) => format!("setp.{}", c.name()),
            GlueOp::Set(c, d) => format!("set.{}.{}", c.name(), d.name()),
            GlueOp::Selp => "selp".into(),
            GlueOp::Slct => "slct".into(),
            GlueOp::AddCc => "add.cc".into(),
            GlueOp::Addc { cc } => if cc { "addc.cc" } else { "addc" }.into(),
            GlueOp::SubCc => "sub.cc".into(),
            GlueOp::Subc { cc } => if cc { "subc.cc" } else { "subc" }.into(),
        }
    }

    /// Number of source operands (`lop3`'s look-up table counts as its fourth).
    pub fn arity(self) -> usize {
        match self {
            GlueOp::Not
            | GlueOp::Abs
            | GlueOp::Neg
            | GlueOp::Cnot
            | GlueOp::Popc
            | GlueOp::Clz
            | GlueOp::Bfind { .. }
            | GlueOp::Brev => 1,
            GlueOp::Selp
            | GlueOp::Slct
            | GlueOp::MadLo
            | GlueOp::MadHi
            | GlueOp::MadWide
            | GlueOp::Shf { .. }
            | GlueOp::Bfe => 3,
            GlueOp::Bfi | GlueOp::Lop3 => 4,
            _ => 2,
        }
    }

    /// Whether the instruction reads the carry flag `CC.CF` (§9.7.2).
    pub fn reads_carry(self) -> bool {
        matches!(self, GlueOp::Addc { .. } | GlueOp::Subc { .. })
    }

    /// Whether the instruction writes the carry flag `CC.CF` (§9.7.2).
    pub fn writes_carry(self) -> bool {
        matches!(self, GlueOp::AddCc | GlueOp::SubCc | GlueOp::Addc { cc: true } | GlueOp::Subc { cc: true })
    }

    /// Whether `self` may read the carry flag that `prev` wrote: an `addc` continues an
    /// `add.cc`/`addc.cc` chain and a `subc` a `sub.cc`/`subc.cc` one. (PTX defines the flag
    /// as a carry after an add and a borrow after a subtract; chains that mix them are not
    /// generated.)
    pub fn continues_carry(self, prev: GlueOp) -> bool {
        match self {
            GlueOp::Addc { .. } => matches!(prev, GlueOp::AddCc | GlueOp::Addc { cc: true }),
            GlueOp::Subc { .. } => matches!(prev, GlueOp::SubCc | GlueOp::Subc { cc: true }),
            _ => false,
        }
    }
}

/// A glue operand type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GlueType {
    /// `.b16`.
    B16,
    /// `.b32`.
    B32,
    /// `.b64`.
    B64,
    /// `.u16`.
    U16,
    /// `.u32`.
    U32,
    /// `.u64`.
    U64,
    /// `.s16`.
    S16,
    /// `.s32`.
    S32,
    /// `.s64`.
    S64,
    /// `.u16x2`.
    U16x2,
    /// `.s16x2`.
    S16x2,
}

impl GlueType {
    /// All types.
    pub const ALL: [GlueType; 11] = [
        GlueType::B16,
        GlueType::B32,
        GlueType::B64,
        GlueType::U16,
        GlueType::U32,
        GlueType::U64,
        GlueType::S16,
        GlueType::S32,
        GlueType::S64,
        GlueType::U16x2,
        GlueType::S16x2,
    ];

    /// The type's name without the dot.
    pub fn name(self) -> &'static str {
        match self {
            GlueType::B16 => "b16",
            GlueType::B32 => "b32",
            GlueType::B64 => "b64",
            GlueType::U16 => "u16",
            GlueType::U32 => "u32",
            GlueType::U64 => "u64",
            GlueType::S16 => "s16",
            GlueType::S32 => "s32",
            GlueType::S64 => "s64",
            GlueType::U16x2 => "u16x2",
            GlueType::S16x2 => "s16x2",
        }
    }

    /// Width of a whole operand in bits.
    pub fn bits(self) -> u32 {
        match self {
            GlueType::B16 | GlueType::U16 | GlueType::S16 => 16,
            GlueType::B64 | GlueType::U64 | GlueType::S64 => 64,
            _ => 32,
        }
    }

    /// The register class that holds it.
    pub fn class(self) -> RegClass {
        match self.bits() {
            16 => RegClass::B16,
            32 => RegClass::B32,
            _ => RegClass::B64,
        }
    }

    /// Whether the type is signed (`.s16`, `.s32`, `.s64`, `.s16x2`).
    pub fn signed(self) -> bool {
        matches!(self, GlueType::S16 | GlueType::S32 | GlueType::S64 | GlueType::S16x2)
    }

    /// Whether the type is a packed pair of 16-bit halves (`.u16x2`, `.s16x2`).
    pub(crate) fn packed(self) -> bool {
        matches!(self, GlueType::U16x2 | GlueType::S16x2)
    }

    fn bit_type(self) -> bool {
        matches!(self, GlueType::B16 | GlueType::B32 | GlueType::B64)
    }

    /// An integer type of 16 or 32 bits (the `.wide` forms, §9.7.1.3–4).
    fn widens(self) -> bool {
        matches!(self, GlueType::U16 | GlueType::U32 | GlueType::S16 | GlueType::S32)
    }

    /// The class of twice the width (`.wide` results).
    fn wide_class(self) -> RegClass {
        if self.bits() == 16 {
            RegClass::B32
        } else {
            RegClass::B64
        }
    }
}

/// A source operand: a register or an integer immediate (its bits at the operand's width).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Src {
    /// A register.
    Reg(Reg),
    /// An immediate.
    Imm(u64),
}

/// One glue instruction: `op.type d, a{, b{, c{, e}}}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Glue {
    /// Opcode.
    pub op: GlueOp,
    /// Type.
    pub ty: GlueType,
    /// Destination (a predicate for `setp`).
    pub dst: Reg,
    /// Sources (`arity()` of them; the rest are unused and `None`).
    pub src: [Option<Src>; 4],
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

fn sext(v: u64, bits: u32) -> i64 {
    ((v << (64 - bits)) as i64) >> (64 - bits)
}

impl Glue {
    /// A glue instruction from its sources (at most four; the rest `None`).
    pub fn new(op: GlueOp, ty: GlueType, dst: Reg, src: &[Src]) -> Glue {
        let mut s = [None; 4];
        for (slot, v) in s.iter_mut().zip(src) {
            *slot = Some(*v);
        }
        Glue { op, ty, dst, src: s }
    }

    /// Whether the opcode takes this type (PTX ISA §9.7.1, §9.7.2, §9.7.7, §9.7.8; ptxas
    /// rejects `sub`, `abs`, `neg` and `setp` on 16x2).
    pub fn op_takes(op: GlueOp, ty: GlueType) -> bool {
        let int = !ty.bit_type() && !ty.packed();
        let wide_int = matches!(ty.bits(), 32 | 64) && int;
        match op {
            GlueOp::Add | GlueOp::Min | GlueOp::Max => !ty.bit_type(),
            GlueOp::Sub | GlueOp::MulLo | GlueOp::MulHi | GlueOp::MadLo | GlueOp::MadHi => int,
            GlueOp::MulWide | GlueOp::MadWide => ty.widens(),
            GlueOp::And | GlueOp::Or | GlueOp::Xor | GlueOp::Not | GlueOp::Shl | GlueOp::Selp | GlueOp::Cnot => {
                ty.bit_type()
            }
            GlueOp::Lop3 | GlueOp::Shf { .. } => ty == GlueType::B32,
            GlueOp::Popc | GlueOp::Clz | GlueOp::Brev | GlueOp::Bfi => matches!(ty, GlueType::B32 | GlueType::B64),
            GlueOp::Bfind { .. } | GlueOp::Bfe => wide_int,
            GlueOp::Shr => !ty.packed(),
            GlueOp::Abs | GlueOp::Neg => ty.signed() && !ty.packed(),
            GlueOp::Setp(_) | GlueOp::Set(..) => int,
            GlueOp::Slct => !ty.packed(),
            GlueOp::AddCc | GlueOp::Addc { .. } | GlueOp::SubCc | GlueOp::Subc { .. } => wide_int,
        }
    }

    /// Whether `op.ty` exists on `target`: the packed 16x2 forms need sm_90 and PTX 8.0
    /// (§9.7.1.1, 9.7.1.12–13), `lop3` sm_50 (§9.7.8.6), `shf` sm_32 (§9.7.8.7); the rest are
    /// older than any target ptxdiff knows.
    pub fn available(op: GlueOp, ty: GlueType, target: &Target) -> bool {
        if !Self::op_takes(op, ty) {
            return false;
        }
        if ty.packed() && (target.sm < 90 || target.ptx < PtxVersion::new(8, 0)) {
            return false;
        }
        match op {
            GlueOp::Lop3 => target.sm >= 50,
            GlueOp::Shf { .. } => target.sm >= 32,
            _ => true,
        }
    }

    /// The class operand `k` (0-based source index) must have.
    pub fn src_class(op: GlueOp, ty: GlueType, k: usize) -> RegClass {
        match (op, k) {
            (GlueOp::Shl | GlueOp::Shr, 1) | (GlueOp::Bfe, 1 | 2) | (GlueOp::Bfi, 2 | 3) | (GlueOp::Slct, 2) => {
                RegClass::B32
            }
            (GlueOp::Selp, 2) => RegClass::Pred,
            (GlueOp::MadWide, 2) => ty.wide_class(),
            _ => ty.class(),
        }
    }

    /// The destination's class.
    pub fn dst_class(op: GlueOp, ty: GlueType) -> RegClass {
        match op {
            GlueOp::Setp(_) => RegClass::Pred,
            GlueOp::Set(..) | GlueOp::Popc | GlueOp::Clz | GlueOp::Bfind { .. } => RegClass::B32,
            GlueOp::MulWide | GlueOp::MadWide => ty.wide_class(),
            _ => ty.class(),
        }
    }

    /// Whether source `k` may be an immediate: never the first source, packed operands or
    /// `selp`'s predicate; the second source of every binary op; the later sources of `mad`,
    /// `bfe`, `bfi`, `lop3`, `shf` and `slct` (the field positions, lengths and shift amounts
    /// optimizers fold); `lop3`'s table is always one ([`Glue::imm_required`]).
    pub fn imm_allowed(op: GlueOp, ty: GlueType, k: usize) -> bool {
        if k == 0 || ty.packed() || k >= op.arity() {
            return false;
        }
        match op {
            GlueOp::Selp => k == 1,
            GlueOp::MadLo | GlueOp::MadHi | GlueOp::MadWide | GlueOp::Bfe | GlueOp::Slct | GlueOp::Shf { .. } => true,
            GlueOp::Bfi | GlueOp::Lop3 => true,
            _ => k == 1,
        }
    }

    /// Whether source `k` must be an immediate (`lop3`'s look-up table, 8 bits).
    pub fn imm_required(op: GlueOp, k: usize) -> bool {
        op == GlueOp::Lop3 && k == 3
    }

    /// The largest immediate source `k` takes: 255 for `lop3`'s table and for the field
    /// position and length of `bfe`/`bfi` (ptxas 13 rejects larger ones, "expected to be in
    /// range [0..255]", though a register's value there is only read in its low byte,
    /// §9.7.1.19–20); else every value of the operand's width.
    pub fn imm_max(op: GlueOp, ty: GlueType, k: usize) -> u64 {
        match (op, k) {
            (GlueOp::Lop3, 3) | (GlueOp::Bfe, 1 | 2) | (GlueOp::Bfi, 2 | 3) => 0xFF,
            _ => mask(Self::src_class(op, ty, k).bits()),
        }
    }

    /// Whether an immediate at source `k` prints as a signed decimal.
    fn imm_signed(op: GlueOp, ty: GlueType, k: usize) -> bool {
        match (op, k) {
            (GlueOp::Slct, 2) => true,
            (GlueOp::Bfe, 1 | 2) | (GlueOp::Bfi, 2 | 3) | (GlueOp::Lop3, 3) => false,
            (GlueOp::MadWide, 2) => ty.signed(),
            _ => ty.signed() && Self::src_class(op, ty, k) == ty.class(),
        }
    }

    /// Whether this instruction is well formed: the op takes the type, the operand count and
    /// classes match, and immediates sit where they may.
    pub fn is_valid(&self) -> bool {
        if !Self::op_takes(self.op, self.ty) || self.dst.class() != Self::dst_class(self.op, self.ty) {
            return false;
        }
        if matches!(self.dst, Reg::Special(_)) {
            return false;
        }
        let n = self.op.arity();
        self.src.iter().enumerate().all(|(k, s)| match (k < n, s) {
            (true, Some(Src::Reg(_))) if Self::imm_required(self.op, k) => false,
            (true, Some(Src::Reg(r))) => r.class() == Self::src_class(self.op, self.ty, k),
            (true, Some(Src::Imm(v))) => {
                (Self::imm_required(self.op, k) || Self::imm_allowed(self.op, self.ty, k))
                    && *v <= Self::imm_max(self.op, self.ty, k)
            }
            (true, None) => false,
            (false, s) => s.is_none(),
        })
    }

    /// The opcode text of `op.ty` (`mul.lo.s32`, `set.lt.u32.s16`).
    pub fn opcode_of(op: GlueOp, ty: GlueType) -> String {
        format!("{}.{}", op.mnemonic(), ty.name())
    }

    /// The opcode text (`mul.lo.s32`; `slct.u16.s32` names its selector's type too).
    pub fn opcode(&self) -> String {
        match self.op {
            GlueOp::Slct => format!("{}.s32", Self::opcode_of(self.op, self.ty)),
            op => Self::opcode_of(op, self.ty),
        }
    }

    /// The result for source values `s` (bits at their widths; `selp`'s predicate is bit 0 of
    /// `s[2]`) and the carry flag `carry` (read by `addc`/`subc` only); `setp` gives 0 or 1.
    pub fn eval(&self, s: [u64; 4], carry: bool) -> u64 {
        let ty = self.ty;
        if ty.packed() {
            let lane = |v: u64, i: u32| (v >> (16 * i)) & 0xFFFF;
            let lane_ty = if ty.signed() { GlueType::S16 } else { GlueType::U16 };
            let mut out = 0;
            for i in 0..2 {
                let r = scalar(self.op, lane_ty, [lane(s[0], i), lane(s[1], i), s[2], s[3]], carry);
                out |= (r & 0xFFFF) << (16 * i);
            }
            return out;
        }
        scalar(self.op, ty, s, carry)
    }

    /// The carry flag after the instruction, for the instructions that write it
    /// ([`GlueOp::writes_carry`]): the carry out of the unsigned sum of an add, the borrow
    /// out of the unsigned difference of a subtract (§9.7.2).
    pub fn carry_out(&self, s: [u64; 4], carry: bool) -> Option<bool> {
        if !self.op.writes_carry() {
            return None;
        }
        let m = u128::from(mask(self.ty.bits()));
        let (a, b) = (u128::from(s[0]) & m, u128::from(s[1]) & m);
        let cin = u128::from(carry && self.op.reads_carry());
        Some(match self.op {
            GlueOp::AddCc | GlueOp::Addc { .. } => a + b + cin > m,
            _ => a < b + cin,
        })
    }
}

/// The result of `op` at the scalar type `ty` (see [`Glue::eval`]).
fn scalar(op: GlueOp, ty: GlueType, s: [u64; 4], carry: bool) -> u64 {
    let w = ty.bits();
    let m = mask(w);
    let (a, b, c) = (s[0] & m, s[1], s[2]);
    let (sa, sb) = (sext(a, w), sext(b & m, w));
    // The double-width product (§9.7.1.3): exact in 128 bits for every width.
    let product = || -> u128 {
        if ty.signed() {
            (i128::from(sa) * i128::from(sb)) as u128
        } else {
            u128::from(a) * u128::from(b & m)
        }
    };
    let r = match op {
        GlueOp::Add => a.wrapping_add(b),
        GlueOp::Sub => a.wrapping_sub(b),
        GlueOp::MulLo => a.wrapping_mul(b),
        GlueOp::MulHi => (product() >> w) as u64,
        GlueOp::MadLo => (product() as u64).wrapping_add(c),
        GlueOp::MadHi => ((product() >> w) as u64).wrapping_add(c),
        // The double width is at most 64 bits (16- and 32-bit types only).
        GlueOp::MulWide => return product() as u64 & mask(2 * w),
        GlueOp::MadWide => return (product() as u64).wrapping_add(c) & mask(2 * w),
        GlueOp::And => a & b,
        GlueOp::Or => a | b,
        GlueOp::Xor => a ^ b,
        GlueOp::Not => !a,
        GlueOp::Cnot => u64::from(a == 0),
        // §9.7.8.6: each result bit is the table's bit at index (a<<2 | b<<1 | c).
        GlueOp::Lop3 => (0..w).fold(0, |acc, i| {
            let idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1);
            acc | (((s[3] >> idx) & 1) << i)
        }),
        // §9.7.8.7: the 64-bit value b:a shifted, its high (.l) or low (.r) word kept.
        GlueOp::Shf { left, wrap } => {
            let n = if wrap { c & 31 } else { (c & 0xFFFF_FFFF).min(32) };
            let pair = (u128::from(b & m) << 32) | u128::from(a);
            if left {
                ((pair << n) >> 32) as u64
            } else {
                (pair >> n) as u64
            }
        }
        // §9.7.8.8: shift amounts greater than the register width clamp to the width.
        GlueOp::Shl => {
            let n = b & 0xFFFF_FFFF;
            if n >= u64::from(w) {
                0
            } else {
                a << n
            }
        }
        GlueOp::Shr => {
            let n = (b & 0xFFFF_FFFF).min(u64::from(w));
            if ty.signed() {
                if n >= u64::from(w) {
                    (sa >> 63) as u64
                } else {
                    (sa >> n) as u64
                }
            } else if n >= u64::from(w) {
                0
            } else {
                a >> n
            }
        }
        GlueOp::Min if ty.signed() => sa.min(sb) as u64,
        GlueOp::Min => a.min(b & m),
        GlueOp::Max if ty.signed() => sa.max(sb) as u64,
        GlueOp::Max => a.max(b & m),
        GlueOp::Abs => sa.wrapping_abs() as u64,
        GlueOp::Neg => sa.wrapping_neg() as u64,
        GlueOp::Popc => u64::from(a.count_ones()),
        GlueOp::Clz => u64::from(a.leading_zeros() - (64 - w)),
        // §9.7.1.16: a negative signed value is inverted first; no bit gives 0xFFFFFFFF.
        GlueOp::Bfind { shiftamt } => {
            let x = if ty.signed() && sa < 0 { !a & m } else { a };
            return if x == 0 {
                0xFFFF_FFFF
            } else {
                let msb = 63 - u64::from(x.leading_zeros());
                if shiftamt {
                    u64::from(w) - 1 - msb
                } else {
                    msb
                }
            };
        }
        GlueOp::Brev => a.reverse_bits() >> (64 - w),
        // §9.7.1.19: pos and len are the low bytes of b and c; bits past the msb (and all of
        // them when len is 0) are the sign bit of the field for signed types, else 0.
        GlueOp::Bfe => {
            let (pos, len) = (b & 0xFF, c & 0xFF);
            let msb = u64::from(w) - 1;
            let sbit = if !ty.signed() || len == 0 { 0 } else { (a >> (pos + len - 1).min(msb)) & 1 };
            (0..u64::from(w)).fold(0, |acc, i| {
                let bit = if i < len && pos + i <= msb { (a >> (pos + i)) & 1 } else { sbit };
                acc | (bit << i)
            })
        }
        // §9.7.1.20: a's low len bits replace b's bits from pos on, up to the msb.
        GlueOp::Bfi => {
            let (pos, len) = (c & 0xFF, s[3] & 0xFF);
            let msb = u64::from(w) - 1;
            let mut f = b & m;
            let mut i = 0;
            while i < len && pos + i <= msb {
                f = (f & !(1 << (pos + i))) | (((a >> i) & 1) << (pos + i));
                i += 1;
            }
            f
        }
        GlueOp::Setp(cmp) => {
            let ord = if ty.signed() { sa.cmp(&sb) } else { a.cmp(&(b & m)) };
            return u64::from(cmp.holds(ord));
        }
        GlueOp::Set(cmp, dst) => {
            let ord = if ty.signed() { sa.cmp(&sb) } else { a.cmp(&(b & m)) };
            return match (cmp.holds(ord), dst) {
                (false, _) => 0,
                (true, SetDst::F32) => 0x3F80_0000,
                (true, _) => 0xFFFF_FFFF,
            };
        }
        GlueOp::Selp => {
            if c & 1 == 1 {
                a
            } else {
                b
            }
        }
        GlueOp::Slct => {
            if sext(c & 0xFFFF_FFFF, 32) >= 0 {
                a
            } else {
                b
            }
        }
        GlueOp::AddCc => a.wrapping_add(b),
        GlueOp::Addc { .. } => a.wrapping_add(b).wrapping_add(u64::from(carry)),
        GlueOp::SubCc => a.wrapping_sub(b),
        GlueOp::Subc { .. } => a.wrapping_sub(b).wrapping_sub(u64::from(carry)),
    };
    r & m
}

fn imm_text(v: u64, bits: u32, signed: bool) -> String {
    if signed {
        sext(v, bits).to_string()
    } else {
        format!("{v:#x}")
    }
}

impl fmt::Display for Glue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.opcode(), self.dst)?;
        for (k, s) in self.src.iter().enumerate() {
            match s {
                Some(Src::Reg(r)) => write!(f, ", {r}")?,
                Some(Src::Imm(v)) => {
                    let bits = Self::src_class(self.op, self.ty, k).bits();
                    write!(f, ", {}", imm_text(*v, bits, Self::imm_signed(self.op, self.ty, k)))?
                }
                None => {}
            }
        }
        f.write_str(";")
    }
}

/// The opcode names glue instructions start with.
pub const MNEMONICS: [&str; 29] = [
    "add", "sub", "mul", "mad", "and", "or", "xor", "not", "cnot", "lop3", "shf", "shl", "shr", "min", "max", "abs",
    "neg", "popc", "clz", "bfind", "brev", "bfe", "bfi", "setp", "set", "selp", "slct", "addc", "subc",
];

/// Every glue opcode text and the (op, type) it names.
fn opcodes() -> &'static HashMap<String, (GlueOp, GlueType)> {
    static TABLE: OnceLock<HashMap<String, (GlueOp, GlueType)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = HashMap::new();
        for op in GlueOp::all() {
            for ty in GlueType::ALL.into_iter().filter(|&ty| Glue::op_takes(op, ty)) {
                let g = Glue { op, ty, dst: Reg::Virt(RegClass::B32, 0), src: [None; 4] };
                t.insert(g.opcode(), (op, ty));
            }
        }
        t
    })
}

impl Glue {
    /// The glue (op, type) an opcode text names (`mul.wide.s16`, `slct.b32.s32`), if any.
    pub fn lookup(opcode: &str) -> Option<(GlueOp, GlueType)> {
        opcodes().get(opcode).copied()
    }

    /// Parses `opcode operands` (without guard; a trailing `;` is allowed).
    pub fn parse(text: &str) -> Result<Glue, ParseError> {
        let err = |why: &str| ParseError::new(text, why.to_string());
        let s = text.trim();
        let s = s.strip_suffix(';').unwrap_or(s).trim_end();
        let (opcode, rest) = s.split_once(char::is_whitespace).ok_or_else(|| err("no operands"))?;
        let (op, ty) = Self::lookup(opcode).ok_or_else(|| err("not a glue opcode"))?;
        let operands = parse_operands(rest.trim()).map_err(|e| err(&e))?;
        if operands.len() != op.arity() + 1 {
            return Err(err(&format!("`{}` takes {} operands", op.mnemonic(), op.arity() + 1)));
        }
        let reg = |o: &Operand| match o {
            Operand::Name(n) => Reg::parse(n).ok_or_else(|| err(&format!("`{n}` is not a program register"))),
            _ => Err(err("expected a register")),
        };
        let dst = reg(&operands[0])?;
        let mut src = [None; 4];
        for (k, o) in operands[1..].iter().enumerate() {
            src[k] = Some(match o {
                Operand::Imm(Imm::Int(v)) => {
                    let bits = Glue::src_class(op, ty, k).bits();
                    if *v < -(1i128 << (bits - 1)) || *v >= 1i128 << bits {
                        return Err(err(&format!("immediate {v} does not fit in {bits} bits")));
                    }
                    Src::Imm((*v as u64) & mask(bits))
                }
                o => Src::Reg(reg(o)?),
            });
        }
        let g = Glue { op, ty, dst, src };
        if !g.is_valid() {
            return Err(err("operands do not fit the glue instruction"));
        }
        Ok(g)
    }
}

#[cfg(test)]
mod tests;
