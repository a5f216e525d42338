//! PLACEHOLDER: replaced by the real family model.
use super::operand::{Operand, OperandSpec};
use super::qualifier::TokenBag;
use super::target::Requirement;
use super::{FormSpec, Illegal, ParseError};

/// placeholder
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Prmt;
impl FormSpec for Prmt {
    fn candidates() -> Vec<Self> {
        vec![]
    }
    fn opcode(&self) -> String {
        String::new()
    }
    fn parse(bag: &mut TokenBag<'_>, _o: &[Operand]) -> Result<Self, ParseError> {
        Err(ParseError::new(bag.opcode(), "not yet modeled"))
    }
    fn operands(&self) -> Vec<OperandSpec> {
        vec![]
    }
    fn check(&self) -> Result<Requirement, Illegal> {
        Illegal::err("not yet modeled")
    }
}

/// placeholder
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PrmtMode;
impl FormSpec for PrmtMode {
    fn candidates() -> Vec<Self> {
        vec![]
    }
    fn opcode(&self) -> String {
        String::new()
    }
    fn parse(bag: &mut TokenBag<'_>, _o: &[Operand]) -> Result<Self, ParseError> {
        Err(ParseError::new(bag.opcode(), "not yet modeled"))
    }
    fn operands(&self) -> Vec<OperandSpec> {
        vec![]
    }
    fn check(&self) -> Result<Requirement, Illegal> {
        Illegal::err("not yet modeled")
    }
}
