//! `prmt` (§9.7.9.7): permute bytes from a register pair, in the generic form (no mode) or
//! one of the specialized modes.
//!
//! Sources `a`, `b` and the selector `c` are `.b32` registers or immediates (ptxas 13.5
//! accepts immediates for each).

use super::operand::{Operand, OperandKind, OperandSpec};
use super::qualifier::{opt, OpcodeWriter, TokenBag};
use super::target::Requirement;
use super::types::RegType;
use super::{FormSpec, Illegal, ParseError};
use crate::qualifiers;

qualifiers! {
    /// `.mode` of `prmt`.
    pub enum PrmtMode {
        F4e = "f4e", B4e = "b4e", Rc8 = "rc8", Ecl = "ecl", Ecr = "ecr", Rc16 = "rc16",
    }
}

/// One `prmt` form: `prmt.b32{.mode} d, a, b, c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Prmt {
    /// `.mode`; `None` is the generic form.
    pub mode: Option<PrmtMode>,
}

impl FormSpec for Prmt {
    fn candidates() -> Vec<Self> {
        opt::<PrmtMode>().map(|mode| Prmt { mode }).collect()
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new().lit("prmt").lit("b32").opt(self.mode).finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        bag.expect("b32")?;
        Ok(Prmt { mode: bag.take() })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        let b32 = RegType::B32;
        vec![
            OperandSpec::dst("d", OperandKind::Reg(b32)),
            OperandSpec::src("a", OperandKind::RegOrImm(b32)),
            OperandSpec::src("b", OperandKind::RegOrImm(b32)),
            OperandSpec::src("c", OperandKind::RegOrImm(b32)),
        ]
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        // §9.7.9.7 PTX/Target ISA Notes.
        Ok(Requirement::new(20, 2, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Form, Instruction};

    #[test]
    fn spec_examples_are_legal_and_canonical() {
        for (s, mode) in [("prmt.b32 r1, r2, r3, r4;", None), ("prmt.f4e.b32 r1, r2, r3, r4;", Some(PrmtMode::F4e))] {
            let i: Instruction = s.parse().unwrap();
            assert_eq!(i.form, Form::Prmt(Prmt { mode }));
            assert!(i.form.check().is_ok());
        }
        assert_eq!(Prmt { mode: Some(PrmtMode::Rc16) }.opcode(), "prmt.b32.rc16");
        assert_eq!(Prmt::candidates().len(), 7);
    }
}
