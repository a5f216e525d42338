//! The integer glue set of test programs: `add sub mul.lo and or xor not shl shr min max abs
//! neg setp selp` on 16/32/64-bit types and `add min max` on packed `.u16x2`/`.s16x2`. Glue is
//! not what ptxdiff tests; it makes values mix between the instructions under test and gives
//! the optimizer work (PTX ISA §9.7.1 integer arithmetic, §9.7.8 logic and shift, §9.7.7
//! comparison and selection; the packed 16x2 forms need sm_90 and PTX 8.0).
//!
//! Invariant: every (op, type, operand shape) that [`Glue::is_valid`] accepts assembles with
//! ptxas (a test in the runner checks it) and [`Glue::eval`] is its exact result.

use std::fmt;

use super::{Reg, RegClass};
use crate::isa::operand::{parse_operands, Imm, Operand};
use crate::isa::ParseError;

/// A glue opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GlueOp {
    /// `add` (wrapping; lane-wise for 16x2).
    Add,
    /// `sub` (wrapping).
    Sub,
    /// `mul.lo` (low half of the product).
    MulLo,
    /// `and`.
    And,
    /// `or`.
    Or,
    /// `xor`.
    Xor,
    /// `not`.
    Not,
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
    /// `setp.cmp`.
    Setp(Cmp),
    /// `selp` (`d = c ? a : b`).
    Selp,
}

/// Comparison of `setp`.
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
}

impl GlueOp {
    /// Every opcode.
    pub fn all() -> Vec<GlueOp> {
        let mut v = vec![
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
        v.extend(Cmp::ALL.map(GlueOp::Setp));
        v
    }

    fn mnemonic(self) -> String {
        match self {
            GlueOp::Add => "add".into(),
            GlueOp::Sub => "sub".into(),
            GlueOp::MulLo => "mul.lo".into(),
            GlueOp::And => "and".into(),
            GlueOp::Or => "or".into(),
            GlueOp::Xor => "xor".into(),
            GlueOp::Not => "not".into(),
            GlueOp::Shl => "shl".into(),
            GlueOp::Shr => "shr".into(),
            GlueOp::Min => "min".into(),
            GlueOp::Max => "max".into(),
            GlueOp::Abs => "abs".into(),
            GlueOp::Neg => "neg".into(),
            GlueOp::Setp(c) => format!("setp.{}", c.name()),
            GlueOp::Selp => "selp".into(),
        }
    }

    /// Number of source operands.
    pub fn arity(self) -> usize {
        match self {
            GlueOp::Not | GlueOp::Abs | GlueOp::Neg => 1,
            GlueOp::Selp => 3,
            _ => 2,
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

    fn signed(self) -> bool {
        matches!(self, GlueType::S16 | GlueType::S32 | GlueType::S64 | GlueType::S16x2)
    }

    fn packed(self) -> bool {
        matches!(self, GlueType::U16x2 | GlueType::S16x2)
    }

    fn bit_type(self) -> bool {
        matches!(self, GlueType::B16 | GlueType::B32 | GlueType::B64)
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

/// One glue instruction: `op.type d, a{, b{, c}}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Glue {
    /// Opcode.
    pub op: GlueOp,
    /// Type.
    pub ty: GlueType,
    /// Destination (a predicate for `setp`).
    pub dst: Reg,
    /// Sources (`arity()` of them; the rest are unused and `None`).
    pub src: [Option<Src>; 3],
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
    /// Whether the opcode takes this type (PTX ISA §9.7.1, §9.7.7, §9.7.8; ptxas rejects `sub`,
    /// `abs`, `neg` and `setp` on 16x2).
    pub fn op_takes(op: GlueOp, ty: GlueType) -> bool {
        match op {
            GlueOp::Add | GlueOp::Min | GlueOp::Max => !ty.bit_type(),
            GlueOp::Sub | GlueOp::MulLo => !ty.bit_type() && !ty.packed(),
            GlueOp::And | GlueOp::Or | GlueOp::Xor | GlueOp::Not | GlueOp::Shl | GlueOp::Selp => ty.bit_type(),
            GlueOp::Shr => !ty.packed(),
            GlueOp::Abs | GlueOp::Neg => ty.signed() && !ty.packed(),
            GlueOp::Setp(_) => !ty.bit_type() && !ty.packed(),
        }
    }

    /// The class operand `k` (0-based source index) must have.
    pub fn src_class(op: GlueOp, ty: GlueType, k: usize) -> RegClass {
        match (op, k) {
            (GlueOp::Shl | GlueOp::Shr, 1) => RegClass::B32,
            (GlueOp::Selp, 2) => RegClass::Pred,
            _ => ty.class(),
        }
    }

    /// The destination's class.
    pub fn dst_class(op: GlueOp, ty: GlueType) -> RegClass {
        match op {
            GlueOp::Setp(_) => RegClass::Pred,
            _ => ty.class(),
        }
    }

    /// Whether source `k` may be an immediate (the first source never is; packed operands and
    /// `selp`'s predicate are registers).
    pub fn imm_allowed(op: GlueOp, ty: GlueType, k: usize) -> bool {
        k == 1 && !ty.packed() && op.arity() >= 2
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
            (true, Some(Src::Reg(r))) => r.class() == Self::src_class(self.op, self.ty, k),
            (true, Some(Src::Imm(v))) => {
                Self::imm_allowed(self.op, self.ty, k) && *v & !mask(Self::src_class(self.op, self.ty, k).bits()) == 0
            }
            (true, None) => false,
            (false, s) => s.is_none(),
        })
    }

    /// The opcode text (`mul.lo.s32`).
    pub fn opcode(&self) -> String {
        format!("{}.{}", self.op.mnemonic(), self.ty.name())
    }

    /// The result for source values `a`, `b` (bits at their widths) and predicate `c`; `setp`
    /// gives 0 or 1.
    pub fn eval(&self, a: u64, b: u64, c: bool) -> u64 {
        let ty = self.ty;
        if ty.packed() {
            let lane = |v: u64, i: u32| (v >> (16 * i)) & 0xFFFF;
            let mut out = 0;
            for i in 0..2 {
                let r =
                    scalar(self.op, if ty.signed() { GlueType::S16 } else { GlueType::U16 }, lane(a, i), lane(b, i), c);
                out |= (r & 0xFFFF) << (16 * i);
            }
            return out;
        }
        scalar(self.op, ty, a, b, c)
    }
}

fn scalar(op: GlueOp, ty: GlueType, a: u64, b: u64, c: bool) -> u64 {
    let w = ty.bits();
    let m = mask(w);
    let (a, b) = (a & m, b);
    let (sa, sb) = (sext(a, w), sext(b & m, w));
    let r = match op {
        GlueOp::Add => a.wrapping_add(b),
        GlueOp::Sub => a.wrapping_sub(b),
        GlueOp::MulLo => a.wrapping_mul(b),
        GlueOp::And => a & b,
        GlueOp::Or => a | b,
        GlueOp::Xor => a ^ b,
        GlueOp::Not => !a,
        // §9.7.8.7: shift amounts greater than the register width clamp to the width.
        GlueOp::Shl => {
            let s = b & 0xFFFF_FFFF;
            if s >= w as u64 {
                0
            } else {
                a << s
            }
        }
        GlueOp::Shr => {
            let s = (b & 0xFFFF_FFFF).min(w as u64);
            if ty.signed() {
                if s >= w as u64 {
                    (sa >> 63) as u64
                } else {
                    (sa >> s) as u64
                }
            } else if s >= w as u64 {
                0
            } else {
                a >> s
            }
        }
        GlueOp::Min if ty.signed() => sa.min(sb) as u64,
        GlueOp::Min => a.min(b & m),
        GlueOp::Max if ty.signed() => sa.max(sb) as u64,
        GlueOp::Max => a.max(b & m),
        GlueOp::Abs => sa.wrapping_abs() as u64,
        GlueOp::Neg => sa.wrapping_neg() as u64,
        GlueOp::Setp(cmp) => {
            let ord = if ty.signed() { sa.cmp(&sb) } else { a.cmp(&(b & m)) };
            let t = match cmp {
                Cmp::Eq => ord.is_eq(),
                Cmp::Ne => ord.is_ne(),
                Cmp::Lt => ord.is_lt(),
                Cmp::Le => ord.is_le(),
                Cmp::Gt => ord.is_gt(),
                Cmp::Ge => ord.is_ge(),
            };
            return t as u64;
        }
        GlueOp::Selp => {
            if c {
                a
            } else {
                b
            }
        }
    };
    r & m
}

fn imm_text(v: u64, class: RegClass, signed: bool) -> String {
    if signed {
        sext(v, class.bits()).to_string()
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
                    let class = Self::src_class(self.op, self.ty, k);
                    let signed = self.ty.signed() && class == self.ty.class();
                    write!(f, ", {}", imm_text(*v, class, signed))?
                }
                None => {}
            }
        }
        f.write_str(";")
    }
}

/// The opcode names glue instructions start with.
pub const MNEMONICS: [&str; 15] =
    ["add", "sub", "mul", "and", "or", "xor", "not", "shl", "shr", "min", "max", "abs", "neg", "setp", "selp"];

impl Glue {
    /// Parses `opcode operands` (without guard; a trailing `;` is allowed).
    pub fn parse(text: &str) -> Result<Glue, ParseError> {
        let err = |why: &str| ParseError::new(text, why.to_string());
        let s = text.trim();
        let s = s.strip_suffix(';').unwrap_or(s).trim_end();
        let (opcode, rest) = s.split_once(char::is_whitespace).ok_or_else(|| err("no operands"))?;
        let parts: Vec<&str> = opcode.split('.').collect();
        let (op, ty) = match parts.as_slice() {
            ["mul", "lo", t] => (GlueOp::MulLo, *t),
            ["setp", c, t] => {
                let cmp = Cmp::ALL.into_iter().find(|k| k.name() == *c).ok_or_else(|| err("unknown comparison"))?;
                (GlueOp::Setp(cmp), *t)
            }
            [m, t] => {
                let op = GlueOp::all()
                    .into_iter()
                    .find(|o| !matches!(o, GlueOp::MulLo | GlueOp::Setp(_)) && o.mnemonic() == *m)
                    .ok_or_else(|| err("not a glue opcode"))?;
                (op, *t)
            }
            _ => return Err(err("not a glue opcode")),
        };
        let ty = GlueType::ALL.into_iter().find(|t| t.name() == ty).ok_or_else(|| err("unknown glue type"))?;
        let operands = parse_operands(rest.trim()).map_err(|e| err(&e))?;
        if operands.len() != op.arity() + 1 {
            return Err(err(&format!("`{}` takes {} operands", op.mnemonic(), op.arity() + 1)));
        }
        let reg = |o: &Operand| match o {
            Operand::Name(n) => Reg::parse(n).ok_or_else(|| err(&format!("`{n}` is not a program register"))),
            _ => Err(err("expected a register")),
        };
        let dst = reg(&operands[0])?;
        let mut src = [None; 3];
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
mod tests {
    use super::*;

    fn r(s: &str) -> Reg {
        Reg::parse(s).unwrap()
    }

    #[test]
    fn print_parse_round_trip() {
        let cases = [
            "add.s32 %r1, %r2, -5;",
            "mul.lo.u64 %d1, %d2, %d3;",
            "setp.lt.s16 %p1, %h2, -32768;",
            "selp.b16 %h1, %h2, %h3, %p0;",
            "shr.s64 %d1, %d2, %r3;",
            "shl.b32 %r1, %tix, 0x3;",
            "min.s16x2 %r1, %r2, %r3;",
            "not.b64 %d1, %d2;",
            "abs.s16 %h1, %h2;",
        ];
        for c in cases {
            let g = Glue::parse(c).unwrap();
            assert_eq!(g.to_string(), c);
        }
        for bad in ["sub.s16x2 %r1, %r2, %r3", "add.s32 %h1, %r2, %r3", "not.b32 %r1, 5", "add.s16 %h1, %h2, 70000"] {
            assert!(Glue::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn semantics_edge_cases() {
        let g = |op, ty, dst: &str| Glue { op, ty, dst: r(dst), src: [None; 3] };
        assert_eq!(g(GlueOp::Abs, GlueType::S32, "%r1").eval(0x8000_0000, 0, false), 0x8000_0000);
        assert_eq!(g(GlueOp::Shr, GlueType::S16, "%h1").eval(0x8000, 40, false), 0xFFFF);
        assert_eq!(g(GlueOp::Shr, GlueType::U16, "%h1").eval(0x8000, 40, false), 0);
        assert_eq!(g(GlueOp::Shl, GlueType::B32, "%r1").eval(1, 32, false), 0);
        assert_eq!(g(GlueOp::Shl, GlueType::B32, "%r1").eval(1, 31, false), 0x8000_0000);
        assert_eq!(g(GlueOp::Min, GlueType::S16x2, "%r1").eval(0x8000_0001, 0x0001_8000, false), 0x8000_8000);
        assert_eq!(g(GlueOp::Max, GlueType::U16x2, "%r1").eval(0x8000_0001, 0x0001_8000, false), 0x8000_8000);
        assert_eq!(g(GlueOp::Add, GlueType::U16x2, "%r1").eval(0xFFFF_0001, 0x0001_FFFF, false), 0);
        assert_eq!(g(GlueOp::Setp(Cmp::Lt), GlueType::S64, "%p1").eval(u64::MAX, 0, false), 1);
        assert_eq!(g(GlueOp::Setp(Cmp::Lt), GlueType::U64, "%p1").eval(u64::MAX, 0, false), 0);
        assert_eq!(g(GlueOp::Selp, GlueType::B16, "%h1").eval(1, 2, false), 2);
        assert_eq!(g(GlueOp::MulLo, GlueType::S16, "%h1").eval(0x100, 0x100, false), 0);
    }
}
