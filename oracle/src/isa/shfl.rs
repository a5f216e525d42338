//! `shfl` (deprecated, §9.7.9.5) and `shfl.sync` (§9.7.9.6): exchange a 32-bit register
//! between the lanes of a warp.
//!
//! The optional destination predicate (`d|p`) is part of the form (`pred_dst`), decided by
//! the first operand. Sources `a`, `b`, `c` and `membermask` are registers or integer
//! immediates (ptxas 13.5 accepts immediates for each of them).
//!
//! `shfl` without `.sync` is removed for `sm_70` and later from PTX ISA 6.4, so it is valid on
//! none of the targets that ptxas 13.x supports at PTX ISA 9.0, but it is still modeled with
//! its requirement.

use super::operand::{Operand, OperandKind, OperandSpec};
use super::qualifier::{OpcodeWriter, Qualifier, TokenBag, FLAG};
use super::target::Requirement;
use super::types::RegType;
use super::{FormSpec, Illegal, ParseError};
use crate::qualifiers;

qualifiers! {
    /// `.mode` of `shfl` and `shfl.sync`.
    pub enum ShflMode { Up = "up", Down = "down", Bfly = "bfly", Idx = "idx" }
}

/// One `shfl` form (deprecated, §9.7.9.5): `shfl.mode.b32 d[|p], a, b, c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shfl {
    /// `.mode`.
    pub mode: ShflMode,
    /// Whether the destination carries the predicate `p` (`d|p`).
    pub pred_dst: bool,
}

/// One `shfl.sync` form (§9.7.9.6): `shfl.sync.mode.b32 d[|p], a, b, c, membermask`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShflSync {
    /// `.mode`.
    pub mode: ShflMode,
    /// Whether the destination carries the predicate `p` (`d|p`).
    pub pred_dst: bool,
}

fn candidates() -> Vec<(ShflMode, bool)> {
    let mut out = Vec::new();
    for &mode in ShflMode::ALL {
        for pred_dst in FLAG {
            out.push((mode, pred_dst));
        }
    }
    out
}

fn opcode(sync: bool, mode: ShflMode) -> String {
    OpcodeWriter::new().lit("shfl").flag(sync, "sync").q(mode).lit("b32").finish()
}

fn parse(bag: &mut TokenBag<'_>, operands: &[Operand]) -> Result<(ShflMode, bool), ParseError> {
    let mode = bag.require("mode")?;
    bag.expect("b32")?;
    let pred_dst = matches!(operands.first(), Some(Operand::WithPred(..)));
    Ok((mode, pred_dst))
}

fn operands(pred_dst: bool, sync: bool) -> Vec<OperandSpec> {
    let b32 = RegType::B32;
    let d = if pred_dst { OperandKind::RegWithPred(b32) } else { OperandKind::Reg(b32) };
    let mut ops = vec![
        OperandSpec::dst("d", d),
        OperandSpec::src("a", OperandKind::RegOrImm(b32)),
        OperandSpec::src("b", OperandKind::RegOrImm(b32)),
        OperandSpec::src("c", OperandKind::RegOrImm(b32)),
    ];
    if sync {
        ops.push(OperandSpec::src("membermask", OperandKind::RegOrImm(b32)));
    }
    ops
}

impl FormSpec for Shfl {
    fn candidates() -> Vec<Self> {
        candidates().into_iter().map(|(mode, pred_dst)| Shfl { mode, pred_dst }).collect()
    }

    fn opcode(&self) -> String {
        opcode(false, self.mode)
    }

    fn parse(bag: &mut TokenBag<'_>, operands: &[Operand]) -> Result<Self, ParseError> {
        let (mode, pred_dst) = parse(bag, operands)?;
        Ok(Shfl { mode, pred_dst })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        operands(self.pred_dst, false)
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        // §9.7.9.5 PTX/Target ISA Notes: sm_30, PTX 3.0; removed for sm_70+ from PTX 6.4.
        Ok(Requirement::new(30, 3, 0).removed(70, 6, 4))
    }
}

impl FormSpec for ShflSync {
    fn candidates() -> Vec<Self> {
        candidates().into_iter().map(|(mode, pred_dst)| ShflSync { mode, pred_dst }).collect()
    }

    fn opcode(&self) -> String {
        opcode(true, self.mode)
    }

    fn parse(bag: &mut TokenBag<'_>, operands: &[Operand]) -> Result<Self, ParseError> {
        bag.expect("sync")?;
        let (mode, pred_dst) = parse(bag, operands)?;
        Ok(ShflSync { mode, pred_dst })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        operands(self.pred_dst, true)
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        // §9.7.9.6 PTX/Target ISA Notes.
        Ok(Requirement::new(30, 6, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::test_util::form;
    use crate::isa::{Form, Target};

    #[test]
    fn spec_examples_are_legal() {
        let f = form("shfl.sync.up.b32 Ry|p, Rx, 0x1, 0x0, 0xffffffff;");
        assert_eq!(f, Form::ShflSync(ShflSync { mode: ShflMode::Up, pred_dst: true }));
        assert!(f.is_valid(&"sm_80".parse().unwrap()));
        let f = form("shfl.bfly.b32 Ry, Rx, 0x10, 0x1f;");
        assert_eq!(f, Form::Shfl(Shfl { mode: ShflMode::Bfly, pred_dst: false }));
        assert!(f.check().is_ok());
    }

    #[test]
    fn deprecated_shfl_is_removed_on_new_targets() {
        let f = Form::Shfl(Shfl { mode: ShflMode::Up, pred_dst: true });
        assert!(!f.is_valid(&"sm_80".parse().unwrap()));
        let old: Target = "sm_75@6.3".parse().unwrap();
        assert!(f.is_valid(&old));
    }

    #[test]
    fn opcode_is_canonical() {
        assert_eq!(form("shfl.b32.idx.sync %r, %a, 1, 2, 3;").opcode(), "shfl.sync.idx.b32");
    }
}
