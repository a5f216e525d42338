//! Cache-control instructions: `prefetch` and `prefetchu` (§9.7.9.15), `applypriority`
//! (§9.7.9.16), `discard` (§9.7.9.17) and `createpolicy` (§9.7.9.18).
//!
//! `prefetch` enumerates every state space of [`Space`] against every level (`.L1`, `.L2`,
//! the `.L2::evict_*` priorities and `.tensormap`) and `check` keeps the combinations of its
//! three syntax lines. `createpolicy` enumerates its three syntax lines; the fractional form's
//! optional `fraction` operand is the field `fraction`, decided by the operand count.

use super::address::space_addr;
use super::operand::{AddrKind, Operand, OperandKind, OperandSpec};
use super::qualifier::{opt, OpcodeWriter, Qualifier, TokenBag, FLAG};
use super::target::Requirement;
use super::types::{L2Evict, RegType, Space};
use super::{forbid, FormSpec, Illegal, ParseError};
use crate::qualifiers;

qualifiers! {
    /// The level slot of `prefetch`: `.level`, `.level::eviction_priority` or `.tensormap`.
    pub enum PrefetchLevel {
        L1 = "L1", L2 = "L2",
        L2EvictLast = "L2::evict_last", L2EvictNormal = "L2::evict_normal",
        Tensormap = "tensormap",
    }

    /// The kind of cache policy `createpolicy` builds.
    pub enum PolicyKind { Range = "range", Fractional = "fractional", Cvt = "cvt" }

    /// `.level::primary_priority` / `.level::secondary_priority` of `createpolicy`.
    pub enum PolicyPriority {
        Last = "L2::evict_last", Normal = "L2::evict_normal",
        First = "L2::evict_first", Unchanged = "L2::evict_unchanged",
    }
}

/// One `prefetch` form (§9.7.9.15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Prefetch {
    /// `.space` / `.tensormap_space`; `None` is generic addressing.
    pub space: Option<Space>,
    /// `.level`, `.level::eviction_priority` or `.tensormap`.
    pub level: PrefetchLevel,
}

impl FormSpec for Prefetch {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for space in opt::<Space>() {
            for &level in PrefetchLevel::ALL {
                out.push(Prefetch { space, level });
            }
        }
        out
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new().lit("prefetch").opt(self.space).q(self.level).finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        Ok(Prefetch { space: bag.take(), level: bag.require("level")? })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        let kind = match (self.level, self.space) {
            (PrefetchLevel::Tensormap, None) => AddrKind::Tensormap,
            (_, space) => space_addr(space),
        };
        vec![OperandSpec::src("a", OperandKind::Addr(kind))]
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        use PrefetchLevel::*;
        let space = self.space;
        match self.level {
            L1 | L2 => {
                forbid(
                    !matches!(space, None | Some(Space::Global | Space::Local)),
                    "`prefetch.level` takes `.global`, `.local` or no space (§9.7.9.15 syntax)",
                )?;
                Ok(Requirement::new(20, 2, 0))
            }
            L2EvictLast | L2EvictNormal => {
                // ptxas 13.5 also accepts the generic form (no space), although the
                // §9.7.9.15 syntax line spells `prefetch.global.level::eviction_priority`.
                forbid(
                    !matches!(space, None | Some(Space::Global)),
                    "`.level::eviction_priority` takes `.global` or no space (§9.7.9.15 syntax; ptxas)",
                )?;
                Ok(Requirement::new(80, 7, 4))
            }
            Tensormap => {
                forbid(
                    !matches!(space, None | Some(Space::Const | Space::Param)),
                    "`prefetch.tensormap` takes `.const`, `.param` or no space (§9.7.9.15 syntax)",
                )?;
                Ok(Requirement::new(90, 8, 0))
            }
        }
    }
}

/// The single `prefetchu` form: `prefetchu.L1 [a]` (§9.7.9.15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Prefetchu;

impl FormSpec for Prefetchu {
    fn candidates() -> Vec<Self> {
        vec![Prefetchu]
    }

    fn opcode(&self) -> String {
        "prefetchu.L1".to_string()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        bag.expect("L1")?;
        Ok(Prefetchu)
    }

    fn operands(&self) -> Vec<OperandSpec> {
        vec![OperandSpec::src("a", OperandKind::Addr(AddrKind::Generic))]
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        Ok(Requirement::new(20, 2, 0))
    }
}

/// One `applypriority` form: `applypriority{.global}.level::eviction_priority [a], size`
/// (§9.7.9.16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Applypriority {
    /// `.global` (otherwise generic addressing).
    pub global: bool,
    /// `.level::eviction_priority`; the syntax allows `.L2::evict_normal` only.
    pub priority: L2Evict,
}

impl FormSpec for Applypriority {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for global in FLAG {
            for &priority in L2Evict::ALL {
                out.push(Applypriority { global, priority });
            }
        }
        out
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new().lit("applypriority").flag(self.global, "global").q(self.priority).finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        Ok(Applypriority { global: bag.flag("global"), priority: bag.require("eviction priority")? })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        vec![
            OperandSpec::src("a", OperandKind::Addr(global_addr(self.global))),
            OperandSpec::src("size", OperandKind::Imm(128)),
        ]
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        forbid(self.priority != L2Evict::Normal, "`applypriority` takes `.L2::evict_normal` only (§9.7.9.16 syntax)")?;
        Ok(Requirement::new(80, 7, 4))
    }
}

/// The single-level `discard` form: `discard{.global}.L2 [a], size` (§9.7.9.17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Discard {
    /// `.global` (otherwise generic addressing).
    pub global: bool,
}

impl FormSpec for Discard {
    fn candidates() -> Vec<Self> {
        FLAG.iter().map(|&global| Discard { global }).collect()
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new().lit("discard").flag(self.global, "global").lit("L2").finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        let global = bag.flag("global");
        bag.expect("L2")?;
        Ok(Discard { global })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        vec![
            OperandSpec::src("a", OperandKind::Addr(global_addr(self.global))),
            OperandSpec::src("size", OperandKind::Imm(128)),
        ]
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        Ok(Requirement::new(80, 7, 4))
    }
}

fn global_addr(global: bool) -> AddrKind {
    if global {
        AddrKind::Global
    } else {
        AddrKind::Generic
    }
}

/// One `createpolicy` form (§9.7.9.18).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Createpolicy {
    /// `.range`, `.fractional` or `.cvt`.
    pub kind: PolicyKind,
    /// `.global` (range policies only; otherwise generic addressing).
    pub global: bool,
    /// `.level::primary_priority` (range and fractional policies).
    pub primary: Option<PolicyPriority>,
    /// `.level::secondary_priority`.
    pub secondary: Option<PolicyPriority>,
    /// The fractional policy's optional `fraction` operand is present.
    pub fraction: bool,
}

impl FormSpec for Createpolicy {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for &primary in PolicyPriority::ALL {
            for secondary in opt::<PolicyPriority>() {
                for global in FLAG {
                    out.push(Createpolicy {
                        kind: PolicyKind::Range,
                        global,
                        primary: Some(primary),
                        secondary,
                        fraction: false,
                    });
                }
                for fraction in FLAG {
                    out.push(Createpolicy {
                        kind: PolicyKind::Fractional,
                        global: false,
                        primary: Some(primary),
                        secondary,
                        fraction,
                    });
                }
            }
        }
        out.push(Createpolicy {
            kind: PolicyKind::Cvt,
            global: false,
            primary: None,
            secondary: None,
            fraction: false,
        });
        out
    }

    fn opcode(&self) -> String {
        let mut w = OpcodeWriter::new();
        w.lit("createpolicy").q(self.kind).flag(self.global, "global").opt(self.primary).opt(self.secondary);
        if self.kind == PolicyKind::Cvt {
            w.lit("L2");
        }
        w.lit("b64").finish()
    }

    fn parse(bag: &mut TokenBag<'_>, operands: &[Operand]) -> Result<Self, ParseError> {
        let kind = bag.require("policy kind")?;
        if kind == PolicyKind::Cvt {
            bag.expect("L2")?;
        }
        let global = bag.flag("global");
        let primary = bag.take();
        let secondary = bag.take();
        bag.expect("b64")?;
        Ok(Createpolicy {
            kind,
            global,
            primary,
            secondary,
            fraction: kind == PolicyKind::Fractional && operands.len() == 2,
        })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        let policy = OperandSpec::dst("cache-policy", OperandKind::Reg(RegType::B64));
        match self.kind {
            PolicyKind::Range => vec![
                policy,
                OperandSpec::src("a", OperandKind::Addr(global_addr(self.global))),
                OperandSpec::src("primary-size", OperandKind::RegOrImm(RegType::B32)),
                OperandSpec::src("total-size", OperandKind::RegOrImm(RegType::B32)),
            ],
            PolicyKind::Fractional if self.fraction => {
                vec![policy, OperandSpec::src("fraction", OperandKind::RegOrImm(RegType::F32))]
            }
            PolicyKind::Fractional => vec![policy],
            PolicyKind::Cvt => vec![policy, OperandSpec::src("access-property", OperandKind::Reg(RegType::B64))],
        }
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        use PolicyPriority::*;
        match self.kind {
            PolicyKind::Cvt => forbid(
                self.global || self.primary.is_some() || self.secondary.is_some() || self.fraction,
                "`createpolicy.cvt.L2.b64` takes no other qualifier (§9.7.9.18 syntax)",
            )?,
            kind => {
                forbid(
                    self.primary.is_none(),
                    "range and fractional policies need `.level::primary_priority` (§9.7.9.18 syntax)",
                )?;
                forbid(
                    !matches!(self.secondary, None | Some(First | Unchanged)),
                    "`.level::secondary_priority` is `.L2::evict_first` or `.L2::evict_unchanged` (§9.7.9.18 syntax)",
                )?;
                forbid(
                    kind == PolicyKind::Fractional && self.global,
                    "fractional policies take no state space (§9.7.9.18 syntax)",
                )?;
                forbid(
                    kind == PolicyKind::Range && self.fraction,
                    "range policies take no `fraction` (§9.7.9.18 syntax)",
                )?;
            }
        }
        Ok(Requirement::new(80, 7, 4))
    }
}

#[cfg(test)]
mod tests {
    use crate::isa::test_util::{assert_illegal, assert_legal, form};
    use crate::isa::Form;

    #[test]
    fn spec_examples_are_legal() {
        assert_legal(&[
            "prefetch.global.L1 [%ptr];",
            "prefetch.global.L2::evict_last [%ptr];",
            "prefetchu.L1 [%addr];",
            "prefetch.const.tensormap [%ptr];",
            "applypriority.global.L2::evict_normal [%ptr], 128;",
            "discard.global.L2 [%ptr], 128;",
            "createpolicy.fractional.L2::evict_last.b64 %policy, 1.0;",
            "createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %policy, 0.5;",
            "createpolicy.range.L2::evict_last.L2::evict_first.b64 %policy, [%ptr], 0x100000, 0x200000;",
            "createpolicy.cvt.L2.b64 %policy, %access_prop;",
            "createpolicy.fractional.L2::evict_first.b64 %policy;",
        ]);
    }

    #[test]
    fn rules_reject_what_the_spec_forbids() {
        assert_illegal(&[
            "prefetch.local.L2::evict_last [%ptr];",
            "prefetch.global.tensormap [%ptr];",
            "applypriority.global.L2::evict_last [%ptr], 128;",
            "createpolicy.fractional.L2::evict_last.L2::evict_last.b64 %policy;",
        ]);
    }

    #[test]
    fn createpolicy_shapes_and_printing() {
        let f = form("createpolicy.fractional.L2::evict_last.b64 %policy, 1.0;");
        assert!(matches!(f, Form::Createpolicy(c) if c.fraction));
        assert_eq!(
            form("createpolicy.b64.L2::evict_first.L2::evict_last.range [%p], 1, 2;".replace(" [", " %x, [").as_str())
                .opcode(),
            "createpolicy.range.L2::evict_first.L2::evict_last.b64"
        );
    }
}
