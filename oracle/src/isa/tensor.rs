//! PLACEHOLDER: replaced by the real family model.
use super::operand::{Operand, OperandSpec};
use super::qualifier::TokenBag;
use super::target::Requirement;
use super::{FormSpec, Illegal, ParseError};

/// placeholder
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CpAsyncBulkPrefetchTensor;
impl FormSpec for CpAsyncBulkPrefetchTensor {
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
pub struct CpAsyncBulkTensor;
impl FormSpec for CpAsyncBulkTensor {
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
pub struct CpReduceAsyncBulkTensor;
impl FormSpec for CpReduceAsyncBulkTensor {
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
pub struct TensormapReplace;
impl FormSpec for TensormapReplace {
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
