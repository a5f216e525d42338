//! PLACEHOLDER: replaced by the real family model.
use super::operand::{Operand, OperandSpec};
use super::qualifier::TokenBag;
use super::target::Requirement;
use super::{FormSpec, Illegal, ParseError};

/// placeholder
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CpAsync;
impl FormSpec for CpAsync {
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
pub struct CpAsyncCommitGroup;
impl FormSpec for CpAsyncCommitGroup {
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
pub struct CpAsyncWaitAll;
impl FormSpec for CpAsyncWaitAll {
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
pub struct CpAsyncWaitGroup;
impl FormSpec for CpAsyncWaitGroup {
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
