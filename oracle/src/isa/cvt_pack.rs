//! `cvt.pack` (§9.7.9.22): convert two `.s32` values with saturation to a narrower integer
//! type and pack them, with (`.b32` and operand `c`, 8/4/2-bit results) or without
//! (`.u16`/`.s16` results) the operand that supplies the remaining bits.

use super::operand::{Operand, OperandKind, OperandSpec};
use super::qualifier::{OpcodeWriter, Qualifier, TokenBag, FLAG};
use super::target::Requirement;
use super::types::RegType;
use super::{forbid, FormSpec, Illegal, ParseError};
use crate::qualifiers;

qualifiers! {
    /// `.convertType` of `cvt.pack`.
    pub enum PackType {
        U16 = "u16", S16 = "s16", U8 = "u8", S8 = "s8", U4 = "u4", S4 = "s4", U2 = "u2", S2 = "s2",
    }
}

impl PackType {
    /// `.u16`/`.s16`: the types of the first syntax line (no `c`).
    pub fn is_16bit(self) -> bool {
        matches!(self, PackType::U16 | PackType::S16)
    }
    /// `.u4 .s4 .u2 .s2`: sub-byte types.
    pub fn is_sub_byte(self) -> bool {
        matches!(self, PackType::U4 | PackType::S4 | PackType::U2 | PackType::S2)
    }
}

/// One `cvt.pack` form: `cvt.pack.sat.convertType.s32{.b32} d, a, b{, c}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CvtPack {
    /// `.convertType`.
    pub convert: PackType,
    /// Whether the form has `.cType` = `.b32` and the operand `c`.
    pub with_c: bool,
}

impl FormSpec for CvtPack {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for &convert in PackType::ALL {
            for with_c in FLAG {
                out.push(CvtPack { convert, with_c });
            }
        }
        out
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new()
            .lit("cvt")
            .lit("pack")
            .lit("sat")
            .q(self.convert)
            .lit("s32")
            .flag(self.with_c, "b32")
            .finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        bag.expect("pack")?;
        bag.expect("sat")?;
        let convert = bag.require("convert type")?;
        bag.expect("s32")?;
        let with_c = bag.flag("b32");
        Ok(CvtPack { convert, with_c })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        let mut ops = vec![
            OperandSpec::dst("d", OperandKind::Reg(RegType::U32)),
            OperandSpec::src("a", OperandKind::RegOrImm(RegType::S32)),
            OperandSpec::src("b", OperandKind::RegOrImm(RegType::S32)),
        ];
        if self.with_c {
            ops.push(OperandSpec::src("c", OperandKind::RegOrImm(RegType::B32)));
        }
        ops
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        forbid(
            self.convert.is_16bit() && self.with_c,
            "`.u16`/`.s16` results take no `.cType`/`c` (§9.7.9.22 syntax)",
        )?;
        forbid(!self.convert.is_16bit() && !self.with_c, "8/4/2-bit results need `.b32` and `c` (§9.7.9.22 syntax)")?;
        // §9.7.9.22 PTX/Target ISA Notes.
        let req = Requirement::new(72, 6, 5);
        Ok(if self.convert.is_sub_byte() { req.sm(75) } else { req })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Form, Instruction};

    fn form(s: &str) -> CvtPack {
        match s.parse::<Instruction>().unwrap_or_else(|e| panic!("{s}: {e}")).form {
            Form::CvtPack(c) => c,
            f => panic!("{s}: {f:?}"),
        }
    }

    #[test]
    fn spec_examples_are_legal() {
        for s in [
            "cvt.pack.sat.s16.s32 %r1, %r2, %r3;",
            "cvt.pack.sat.u8.s32.b32 %r4, %r5, %r6, 0;",
            "cvt.pack.sat.u4.s32.b32 %r10, %r12, %r13, %r14;",
            "cvt.pack.sat.s2.s32.b32 %r15, %r16, %r17, %r18;",
        ] {
            assert!(form(s).check().is_ok(), "{s}");
        }
    }

    #[test]
    fn rules_reject_what_the_spec_forbids() {
        let bad = CvtPack { convert: PackType::U16, with_c: true };
        assert!(bad.check().is_err());
        let bad = CvtPack { convert: PackType::S8, with_c: false };
        assert!(bad.check().is_err());
        assert_eq!(form("cvt.pack.s32.b32.sat.u8 %r4, %r5, %r6, 0;").opcode(), "cvt.pack.sat.u8.s32.b32");
    }
}
