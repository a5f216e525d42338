//! Address-space instructions: `isspacep` (§9.7.9.19), `cvta` (§9.7.9.20), `mapa`
//! (§9.7.9.23) and `getctarank` (§9.7.9.24).
//!
//! Where a source may be a register or a variable (`var`, `var+imm`), the form records which
//! (`var`), and `parse` decides it from the operand: a name that starts with `%` is a
//! register, any other name (or `name+imm`) a variable. A variable source is a
//! [`OperandKind::Symbol`] of the state space the opcode names (`.shared::cluster` variables
//! are `.shared` variables of the CTA).

use super::operand::{AddrKind, Operand, OperandKind, OperandSpec, SymbolKind};
use super::qualifier::{OpcodeWriter, Qualifier, TokenBag, FLAG};
use super::target::Requirement;
use super::types::{AddrType, RegType, Space};
use super::{forbid, FormSpec, Illegal, ParseError};

/// Whether operand `o` is a variable (a symbol, possibly `+imm`) rather than a register.
fn is_var(o: Option<&Operand>) -> bool {
    match o {
        Some(Operand::NameOffset(..)) => true,
        Some(Operand::Name(n)) => !n.starts_with('%'),
        _ => false,
    }
}

/// The symbol kind of a variable declared in `space`.
fn var_kind(space: Space) -> SymbolKind {
    match space {
        Space::Const => SymbolKind::ConstVar,
        Space::Global => SymbolKind::GlobalVar,
        Space::Local => SymbolKind::LocalVar,
        Space::Param | Space::ParamEntry | Space::ParamFunc => SymbolKind::ParamVar,
        Space::Shared | Space::SharedCta | Space::SharedCluster => SymbolKind::SharedVar,
    }
}

/// The requirement of naming `space` in `isspacep`/`cvta` (§9.7.9.19, §9.7.9.20 PTX/Target
/// ISA Notes), or why it cannot be named.
fn space_requirement(space: Space, section: &str) -> Result<Requirement, Illegal> {
    let req = Requirement::new(20, 2, 0);
    Ok(match space {
        Space::Global | Space::Local | Space::Shared => req,
        Space::Const => req.ptx(3, 1),
        Space::Param => req.sm(70).ptx(7, 7),
        Space::ParamEntry => req.sm(70).ptx(8, 3),
        Space::SharedCta => req.sm(30).ptx(7, 8),
        Space::SharedCluster => req.sm(90).ptx(7, 8),
        Space::ParamFunc => {
            return Illegal::err(format!(
                "`.param::func` is not one of the spaces of §{section} (`.param{{::entry}}` only)"
            ))
        }
    })
}

/// One `isspacep` form: `isspacep.space p, a` (§9.7.9.19).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Isspacep {
    /// `.space`.
    pub space: Space,
}

impl FormSpec for Isspacep {
    fn candidates() -> Vec<Self> {
        Space::ALL.iter().map(|&space| Isspacep { space }).collect()
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new().lit("isspacep").q(self.space).finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        Ok(Isspacep { space: bag.require("state space")? })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        vec![
            OperandSpec::dst("p", OperandKind::Pred),
            // "the source address operand must be of type .u32 or .u64" (§9.7.9.19).
            OperandSpec::src("a", OperandKind::RegOneOf(&[RegType::U64, RegType::U32])),
        ]
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        space_requirement(self.space, "9.7.9.19")
    }
}

/// One `cvta` form (§9.7.9.20): `cvta.space.size p, a|var{+imm}` (to generic) or
/// `cvta.to.space.size p, a` (from generic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cvta {
    /// `.to`: convert a generic address into `space`.
    pub to: bool,
    /// `.space`.
    pub space: Space,
    /// `.size`.
    pub size: AddrType,
    /// The source is a variable (`var` or `var+imm`) rather than a register.
    pub var: bool,
}

impl FormSpec for Cvta {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for to in FLAG {
            for &space in Space::ALL {
                for &size in AddrType::ALL {
                    for var in FLAG {
                        out.push(Cvta { to, space, size, var });
                    }
                }
            }
        }
        out
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new().lit("cvta").flag(self.to, "to").q(self.space).q(self.size).finish()
    }

    fn parse(bag: &mut TokenBag<'_>, operands: &[Operand]) -> Result<Self, ParseError> {
        Ok(Cvta {
            to: bag.flag("to"),
            space: bag.require("state space")?,
            size: bag.require("size")?,
            var: is_var(operands.get(1)),
        })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        let r = self.size.reg();
        let a = if self.var {
            OperandSpec::src("var", OperandKind::Symbol(var_kind(self.space)))
        } else {
            OperandSpec::src("a", OperandKind::Reg(r))
        };
        vec![OperandSpec::dst("p", OperandKind::Reg(r)), a]
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        forbid(
            self.to && self.var,
            "`cvta.to` converts a register holding a generic address, not a variable (§9.7.9.20 syntax)",
        )?;
        // ptxas 13.5 rejects every `.u32` `cvta` in a 64-bit module with a fatal error
        // ("32-Bit ABI … is not supported" / "32-Bit compilation is no longer supported"),
        // although §9.7.9.20 lists `.size = { .u32, .u64 }`: 32-bit sizes belong to
        // `.address_size 32`, which ptxas 13.x no longer compiles.
        forbid(
            self.size == AddrType::U32,
            "`.u32` `cvta` needs 32-bit addressing, which ptxas 13.x no longer supports (§9.7.9.20: source and destination have the address size)",
        )?;
        space_requirement(self.space, "9.7.9.20")
    }
}

/// One `mapa` form (§9.7.9.23): `mapa{.shared::cluster}.type d, a|sh{+imm}, b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mapa {
    /// `.shared::cluster` (otherwise generic addresses).
    pub shared_cluster: bool,
    /// `.type`.
    pub ty: AddrType,
    /// The source is a shared variable (`sh` or `sh+imm`) rather than a register.
    pub var: bool,
}

/// One `getctarank` form (§9.7.9.24): `getctarank{.shared::cluster}.type d, a|var{+imm}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Getctarank {
    /// `.shared::cluster` (otherwise a generic address).
    pub shared_cluster: bool,
    /// `.type`.
    pub ty: AddrType,
    /// The source is a shared variable (`var` or `var+imm`) rather than a register.
    pub var: bool,
}

fn cluster_candidates() -> Vec<(bool, AddrType, bool)> {
    let mut out = Vec::new();
    for shared_cluster in FLAG {
        for &ty in AddrType::ALL {
            for var in FLAG {
                out.push((shared_cluster, ty, var));
            }
        }
    }
    out
}

fn cluster_opcode(mnemonic: &'static str, shared_cluster: bool, ty: AddrType) -> String {
    OpcodeWriter::new().lit(mnemonic).flag(shared_cluster, "shared::cluster").q(ty).finish()
}

fn cluster_source(var: bool, ty: AddrType, name: &'static str) -> OperandSpec {
    if var {
        OperandSpec::src(name, OperandKind::Symbol(SymbolKind::SharedVar))
    } else {
        OperandSpec::src("a", OperandKind::Reg(ty.reg()))
    }
}

fn cluster_check() -> Result<Requirement, Illegal> {
    // ptxas 13.5 accepts a variable source without `.shared::cluster` (the variable's generic
    // address), although the syntax blocks of §9.7.9.23 and §9.7.9.24 only list variables
    // with `.shared::cluster`.
    // §9.7.9.23/§9.7.9.24 PTX/Target ISA Notes.
    Ok(Requirement::new(90, 7, 8))
}

impl FormSpec for Mapa {
    fn candidates() -> Vec<Self> {
        cluster_candidates().into_iter().map(|(shared_cluster, ty, var)| Mapa { shared_cluster, ty, var }).collect()
    }

    fn opcode(&self) -> String {
        cluster_opcode("mapa", self.shared_cluster, self.ty)
    }

    fn parse(bag: &mut TokenBag<'_>, operands: &[Operand]) -> Result<Self, ParseError> {
        Ok(Mapa { shared_cluster: bag.flag("shared::cluster"), ty: bag.require("type")?, var: is_var(operands.get(1)) })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        vec![
            OperandSpec::dst("d", OperandKind::Reg(self.ty.reg())),
            cluster_source(self.var, self.ty, "sh"),
            OperandSpec::src("b", OperandKind::RegOrImm(RegType::U32)),
        ]
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        cluster_check()
    }
}

impl FormSpec for Getctarank {
    fn candidates() -> Vec<Self> {
        cluster_candidates()
            .into_iter()
            .map(|(shared_cluster, ty, var)| Getctarank { shared_cluster, ty, var })
            .collect()
    }

    fn opcode(&self) -> String {
        cluster_opcode("getctarank", self.shared_cluster, self.ty)
    }

    fn parse(bag: &mut TokenBag<'_>, operands: &[Operand]) -> Result<Self, ParseError> {
        Ok(Getctarank {
            shared_cluster: bag.flag("shared::cluster"),
            ty: bag.require("type")?,
            var: is_var(operands.get(1)),
        })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        vec![OperandSpec::dst("d", OperandKind::Reg(RegType::U32)), cluster_source(self.var, self.ty, "var")]
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        cluster_check()
    }
}

/// The address kind a probe supplies for an operand in `space` (`None`: generic), e.g. the
/// address of a load/store. `.param`/`.param::entry` read kernel parameters (the probe puts the
/// form in the entry); `.param::func` addresses a device-function parameter (the probe puts it
/// in a `.func`).
pub(crate) fn space_addr(space: Option<Space>) -> AddrKind {
    match space {
        None => AddrKind::Generic,
        Some(Space::Global) => AddrKind::Global,
        Some(Space::Local) => AddrKind::Local,
        Some(Space::Const) => AddrKind::Const,
        Some(Space::Param | Space::ParamEntry) => AddrKind::ParamEntry,
        Some(Space::ParamFunc) => AddrKind::ParamFunc,
        Some(Space::Shared | Space::SharedCta) => AddrKind::SharedCta,
        Some(Space::SharedCluster) => AddrKind::SharedCluster,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::test_util::{assert_legal, form};
    use crate::isa::Form;

    #[test]
    fn spec_examples_are_legal() {
        assert_legal(&[
            "isspacep.const %iscnst, %cptr;",
            "isspacep.global %isglbl, %gptr;",
            "isspacep.param::entry %isparam, %pptr;",
            "isspacep.shared::cluster %ishrdany, %sptr;",
            "cvta.const.u64 %ptr, cvar;",
            "cvta.local.u64 %ptr, %lptr;",
            "cvta.shared::cta.u64 %p, As+4;",
            "cvta.to.global.u64 %p, %gptr;",
            "cvta.param.u64 %ptr, pvar;",
            "cvta.to.param::entry.u64 %epptr, %ptr;",
            "mapa.shared::cluster.u64 %d1, %reg1, %cta;",
            "mapa.shared::cluster.u32 %d2, sh, 3;",
            "mapa.u64 %d3, %reg2, %cta;",
            "getctarank.shared::cluster.u32 %d1, %addr;",
            "getctarank.shared::cluster.u64 %d2, sh+4;",
            "getctarank.u64 %d3, %src;",
        ]);
        assert_eq!(
            form("cvta.shared::cta.u64 %p, As+4;"),
            Form::Cvta(Cvta { to: false, space: Space::SharedCta, size: AddrType::U64, var: true })
        );
    }

    #[test]
    fn rules_reject_what_the_spec_forbids() {
        for s in ["cvta.to.global.u64 %p, gvar;", "cvta.global.u32 %p, %a;", "isspacep.param::func %p, %a;"] {
            assert!(form(s).check().is_err(), "{s}");
        }
        assert_eq!(form("cvta.u64.global.to %p, %a;").opcode(), "cvta.to.global.u64");
    }
}
