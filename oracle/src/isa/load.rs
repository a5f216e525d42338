//! Loads: `ld` (§9.7.9.8), `ld.global.nc` (§9.7.9.9) and `ldu` (§9.7.9.10), with the cache
//! operators of §9.7.9.1 and the eviction priorities of §9.7.9.2.
//!
//! Each family is a struct of typed qualifier fields. `candidates()` enumerates the cross
//! product of every *syntax line* separately (the union of the lines' cross products, without
//! duplicates), so that `ld` stays near 1.4 million candidates rather than the 10⁸ of the
//! product of all slots; `check()` applies the Description's restrictions and the PTX/Target
//! ISA Notes, and follows ptxas 13.5 where the two disagree (each such rule says so).
//!
//! Invariants: `opcode()` prints qualifiers in the order of the syntax block
//! (`ld{.mmio}{.sem}{.scope}{.ss}{.cop}{.L1::…}{.L2::…}{.L2::cache_hint}{.L2::…B}{.vec}.type`);
//! `parse()` reads them in any order and decides the `.unified` field from the address
//! operand; the `cache-policy` operand is present exactly when `.L2::cache_hint` is.

use super::address::space_addr;
use super::memory::{check_access, check_caching, data_kind, global_or_generic, type_requirement, Access, Ordering};
use super::operand::{AddrKind, Operand, OperandKind, OperandSpec};
use super::qualifier::{opt, OpcodeWriter, Qualifier, TokenBag, FLAG};
use super::target::Requirement;
use super::types::{L1Evict, L2Evict, LdCacheOp, MemType, PrefetchSize, RegType, Scope, Space, VecWidth, CACHE_HINT};
use super::{forbid, FormSpec, Illegal, ParseError};
use crate::qualifiers;

qualifiers! {
    /// Memory-ordering qualifiers of `ld` (§9.7.9.8): `.weak`, `.volatile`, `.relaxed`,
    /// `.acquire`; mutually exclusive, `.weak` is the default.
    pub enum LdSem { Weak = "weak", Volatile = "volatile", Relaxed = "relaxed", Acquire = "acquire" }
}

/// One `ld` form (§9.7.9.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ld {
    /// `.mmio` (only as `ld.mmio.relaxed.sys{.global}.type`).
    pub mmio: bool,
    /// `.weak`, `.volatile`, `.relaxed`, `.acquire`.
    pub sem: Option<LdSem>,
    /// `.scope` of `.relaxed`/`.acquire`.
    pub scope: Option<Scope>,
    /// `.ss`; `None` is generic addressing.
    pub space: Option<Space>,
    /// `.cop` (Table 30).
    pub cop: Option<LdCacheOp>,
    /// `.level1::eviction_priority`.
    pub l1: Option<L1Evict>,
    /// `.level2::eviction_priority`.
    pub l2: Option<L2Evict>,
    /// `.L2::cache_hint` (with the `cache-policy` operand).
    pub cache_hint: bool,
    /// `.level::prefetch_size`.
    pub prefetch: Option<PrefetchSize>,
    /// `.vec`.
    pub vec: Option<VecWidth>,
    /// `.type`.
    pub ty: MemType,
    /// The address operand is written `[a].unified`.
    pub unified: bool,
}

impl Ld {
    /// The plain weak form `ld{.ss}.type` from which the syntax lines vary (and programs'
    /// plain loads are built).
    pub fn base(space: Option<Space>, ty: MemType) -> Ld {
        Ld {
            mmio: false,
            sem: None,
            scope: None,
            space,
            cop: None,
            l1: None,
            l2: None,
            cache_hint: false,
            prefetch: None,
            vec: None,
            ty,
            unified: false,
        }
    }
}

/// Every optional state space of `ld` (`.ss` of §9.7.9.8, and generic addressing).
fn ld_spaces() -> impl Iterator<Item = Option<Space>> + Clone {
    opt::<Space>()
}

impl FormSpec for Ld {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        let weak_sems = [None, Some(LdSem::Weak)];
        for space in ld_spaces() {
            for &ty in MemType::ALL {
                for vec in opt::<VecWidth>() {
                    for prefetch in opt::<PrefetchSize>() {
                        for cache_hint in FLAG {
                            let f = Ld { vec, prefetch, cache_hint, ..Ld::base(space, ty) };
                            // Line 1: ld{.weak}{.ss}{.cop}{.level::cache_hint}{.level::prefetch_size}{.vec}.type
                            for sem in weak_sems {
                                for &cop in LdCacheOp::ALL {
                                    out.push(Ld { sem, cop: Some(cop), ..f });
                                }
                            }
                            // Lines 2, 4, 5: {.weak | .relaxed.scope | .acquire.scope} with
                            // eviction priorities (line 2 without them is line 1 without .cop).
                            let sems = weak_sems.into_iter().map(|s| (s, None)).chain(
                                [LdSem::Relaxed, LdSem::Acquire]
                                    .into_iter()
                                    .flat_map(|s| Scope::ALL.iter().map(move |&sc| (Some(s), Some(sc)))),
                            );
                            for (sem, scope) in sems {
                                for l1 in opt::<L1Evict>() {
                                    for l2 in opt::<L2Evict>() {
                                        out.push(Ld { sem, scope, l1, l2, ..f });
                                    }
                                }
                            }
                        }
                        // Line 3: ld.volatile{.ss}{.level::prefetch_size}{.vec}.type
                        out.push(Ld { sem: Some(LdSem::Volatile), vec, prefetch, ..Ld::base(space, ty) });
                    }
                }
            }
        }
        // Line 6: ld.mmio.relaxed.sys{.global}.type
        for space in [None, Some(Space::Global)] {
            for &ty in MemType::ALL {
                out.push(Ld { mmio: true, sem: Some(LdSem::Relaxed), scope: Some(Scope::Sys), ..Ld::base(space, ty) });
            }
        }
        // `[a].unified` is an operand suffix on any line; it exists only for `.global` and
        // generic addresses, so only those candidates get a `.unified` twin (a parsed
        // `.unified` on another space is still ruled on by `check()`).
        let unified: Vec<Ld> = out
            .iter()
            .filter(|f| matches!(f.space, None | Some(Space::Global)))
            .map(|f| Ld { unified: true, ..*f })
            .collect();
        out.extend(unified);
        out
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new()
            .lit("ld")
            .flag(self.mmio, "mmio")
            .opt(self.sem)
            .opt(self.scope)
            .opt(self.space)
            .opt(self.cop)
            .opt(self.l1)
            .opt(self.l2)
            .flag(self.cache_hint, CACHE_HINT)
            .opt(self.prefetch)
            .opt(self.vec)
            .q(self.ty)
            .finish()
    }

    fn parse(bag: &mut TokenBag<'_>, operands: &[Operand]) -> Result<Self, ParseError> {
        Ok(Ld {
            mmio: bag.flag("mmio"),
            sem: bag.take(),
            scope: bag.take(),
            space: bag.take(),
            cop: bag.take(),
            l1: bag.take(),
            l2: bag.take(),
            cache_hint: bag.flag(CACHE_HINT),
            prefetch: bag.take(),
            vec: bag.take(),
            ty: bag.require("type")?,
            unified: matches!(operands.get(1), Some(Operand::Address { unified: true, .. })),
        })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        let mut ops = vec![
            OperandSpec::dst("d", data_kind(self.vec, self.ty)),
            OperandSpec::src(
                "a",
                OperandKind::Addr(if self.unified { AddrKind::GlobalUnified } else { space_addr(self.space) }),
            ),
        ];
        if self.cache_hint {
            ops.push(OperandSpec::src("cache-policy", OperandKind::Reg(RegType::B64)));
        }
        ops
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        check_access(&self.access())
    }
}

impl Ld {
    /// The form as the rules shared with `st` and `ld.global.nc` see it.
    fn access(&self) -> Access {
        Access {
            op: "ld",
            section: "§9.7.9.8",
            strong: "`.relaxed`/`.acquire`",
            mmio: self.mmio,
            sem: self.sem.map(|s| match s {
                LdSem::Weak => Ordering::Weak,
                LdSem::Volatile => Ordering::Volatile,
                LdSem::Relaxed => Ordering::Relaxed,
                LdSem::Acquire => Ordering::AcquireRelease,
            }),
            scope: self.scope,
            space: self.space,
            cop: self.cop.is_some(),
            l1: self.l1.is_some(),
            l2: self.l2.is_some(),
            cache_hint: self.cache_hint,
            prefetch: self.prefetch,
            unified: self.unified,
            vec: self.vec,
            ty: self.ty,
            small_v8: false,
        }
    }
}

/// One `ld.global.nc` form (§9.7.9.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LdGlobalNc {
    /// `.cop` (`.ca`, `.cg`, `.cs` in the syntax block).
    pub cop: Option<LdCacheOp>,
    /// `.level1::eviction_priority`.
    pub l1: Option<L1Evict>,
    /// `.level2::eviction_priority`.
    pub l2: Option<L2Evict>,
    /// `.L2::cache_hint` (with the `cache-policy` operand).
    pub cache_hint: bool,
    /// `.level::prefetch_size`.
    pub prefetch: Option<PrefetchSize>,
    /// `.vec`.
    pub vec: Option<VecWidth>,
    /// `.type`.
    pub ty: MemType,
}

impl FormSpec for LdGlobalNc {
    fn candidates() -> Vec<Self> {
        // The four syntax lines differ only in `.cop` versus eviction priorities and in the
        // optional `.vec`; the full cross product (46 080) is small enough to enumerate.
        let cops = [None, Some(LdCacheOp::Ca), Some(LdCacheOp::Cg), Some(LdCacheOp::Cs)];
        let mut out = Vec::new();
        for cop in cops {
            for l1 in opt::<L1Evict>() {
                for l2 in opt::<L2Evict>() {
                    for cache_hint in FLAG {
                        for prefetch in opt::<PrefetchSize>() {
                            for vec in opt::<VecWidth>() {
                                for &ty in MemType::ALL {
                                    out.push(LdGlobalNc { cop, l1, l2, cache_hint, prefetch, vec, ty });
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new()
            .lit("ld")
            .lit("global")
            .opt(self.cop)
            .lit("nc")
            .opt(self.l1)
            .opt(self.l2)
            .flag(self.cache_hint, CACHE_HINT)
            .opt(self.prefetch)
            .opt(self.vec)
            .q(self.ty)
            .finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        bag.expect("global")?;
        bag.expect("nc")?;
        Ok(LdGlobalNc {
            cop: bag.take(),
            l1: bag.take(),
            l2: bag.take(),
            cache_hint: bag.flag(CACHE_HINT),
            prefetch: bag.take(),
            vec: bag.take(),
            ty: bag.require("type")?,
        })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        let mut ops = vec![
            OperandSpec::dst("d", data_kind(self.vec, self.ty)),
            OperandSpec::src("a", OperandKind::Addr(AddrKind::Global)),
        ];
        if self.cache_hint {
            ops.push(OperandSpec::src("cache-policy", OperandKind::Reg(RegType::B64)));
        }
        ops
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        let f = self;
        let mut req = Requirement::new(32, 3, 1).and(&type_requirement(f.ty));
        forbid(
            matches!(f.cop, Some(LdCacheOp::Lu | LdCacheOp::Cv)),
            "`ld.global.nc` takes `.ca`, `.cg` or `.cs` only (§9.7.9.9 syntax)",
        )?;
        req = req.and(&check_caching(&Access {
            op: "ld",
            section: "§9.7.9.9",
            strong: "",
            mmio: false,
            sem: None,
            scope: None,
            space: Some(Space::Global),
            cop: f.cop.is_some(),
            l1: f.l1.is_some(),
            l2: f.l2.is_some(),
            cache_hint: f.cache_hint,
            prefetch: f.prefetch,
            unified: false,
            vec: f.vec,
            ty: f.ty,
            small_v8: false,
        })?);
        if f.prefetch.is_some() {
            req = req.sm(75).ptx(7, 4);
        }
        Ok(req)
    }
}

/// One `ldu` form (§9.7.9.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ldu {
    /// `.ss`: `.global` or generic addressing (`None`).
    pub space: Option<Space>,
    /// `.vec` (`.v2`, `.v4` in the syntax block).
    pub vec: Option<VecWidth>,
    /// `.type`.
    pub ty: MemType,
}

impl FormSpec for Ldu {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for space in [None, Some(Space::Global)] {
            for vec in [None, Some(VecWidth::V2), Some(VecWidth::V4)] {
                for &ty in MemType::ALL {
                    out.push(Ldu { space, vec, ty });
                }
            }
        }
        out
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new().lit("ldu").opt(self.space).opt(self.vec).q(self.ty).finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        Ok(Ldu { space: bag.take(), vec: bag.take(), ty: bag.require("type")? })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        vec![
            OperandSpec::dst("d", data_kind(self.vec, self.ty)),
            OperandSpec::src("a", OperandKind::Addr(space_addr(self.space))),
        ]
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        forbid(!global_or_generic(self.space), "`ldu` reads `.global` or generic addresses only (§9.7.9.10 syntax)")?;
        forbid(self.vec == Some(VecWidth::V8), "`ldu` takes `.v2` or `.v4` only (§9.7.9.10 syntax)")?;
        if let Some(v) = self.vec {
            forbid(u32::from(v.len()) * self.ty.bits() > 128, "`ldu` vectors are at most 128 bits wide (§9.7.9.10)")?;
        }
        let req = Requirement::new(20, 2, 0).and(&type_requirement(self.ty));
        Ok(req)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::test_util::{assert_illegal, form, valid_on};
    use crate::isa::{Form, Instruction};

    #[test]
    fn spec_examples_are_legal() {
        for s in [
            "ld.global.f32 d, [a];",
            "ld.shared.v4.b32 {q0, q1, q2, q3}, [p];",
            "ld.const.s32 d, [p+4];",
            "ld.local.b32 x, [p+-8];",
            "ld.local.b64 x, [240];",
            "ld.global.relaxed.gpu.u32 %r0, [gbl];",
            "ld.shared.acquire.gpu.u32 %r1, [sh];",
            "ld.global.relaxed.cluster.u32 %r2, [gbl];",
            "ld.shared::cta.acquire.gpu.u32 %r2, [sh + 4];",
            "ld.shared::cluster.u32 %r3, [sh + 8];",
            "ld.global.mmio.relaxed.sys.u32 %r3, [gbl];",
            "ld.global.f32 d, [ugbl].unified;",
            "ld.b32 %r0, [%r1].unified;",
            "ld.global.L1::evict_last.u32 d, [p];",
            "ld.global.L2::64B.b32 %r0, [gbl];",
            "ld.L2::128B.f64 %r1, [gbl];",
            "ld.global.L2::256B.f64 %r2, [gbl];",
            "ld.global.L2::cache_hint.b64 x, [p], policy;",
            "ld.param::entry.b32 %rp1, [kparam1];",
            "ld.global.b128 %r0, [gbl];",
            "ld.global.L2::evict_last.v8.f32 {%r0, _, %r2, %r3, %r4, %r5, %r6, %r7}, [addr];",
            "ld.global.L2::evict_last.L1::evict_last.v4.u64 {%r0, %r1, %r2, %r3}, [addr];",
            "ld.global.nc.f32 d, [a];",
            "ld.global.nc.L1::evict_last.u32 d, [a];",
            "ld.global.nc.L2::cache_hint.f32 d, [a], policy;",
            "ld.global.nc.L2::64B.b32 d, [a];",
            "ld.global.nc.L2::256B.f64 d, [a];",
            "ld.global.nc.b128 d, [a];",
            "ld.global.nc.L2::evict_first.v4.f64 {%r0, %r1, %r2, %r3}, [a];",
            "ldu.global.f32 d, [a];",
            "ldu.global.b32 d, [p+4];",
            "ldu.global.v4.f32 {q0, q1, q2, q3}, [p];",
            "ldu.global.b128 d, [a];",
        ] {
            assert!(valid_on(s, "sm_100a"), "{s}: {:?}", form(s).check());
        }
    }

    #[test]
    fn rules_reject_what_the_spec_and_ptxas_forbid() {
        assert_illegal(&[
            "ld.v2.b128 {a, b}, [p];",                         // > 128 bits
            "ld.shared.L1::evict_last.u32 d, [p];",            // eviction priority off .global
            "ld.shared.L2::cache_hint.u32 d, [p], c;",         // cache hint off .global
            "ld.local.L2::64B.u32 d, [p];",                    // prefetch off .global
            "ld.mmio.relaxed.gpu.u32 d, [p];",                 // .mmio needs .sys
            "ld.mmio.relaxed.sys.shared.u32 d, [p];",          // .mmio needs .global
            "ld.relaxed.u32 d, [p];",                          // scope missing
            "ld.weak.gpu.u32 d, [p];",                         // scope without .relaxed/.acquire
            "ld.volatile.local.u32 d, [p];",                   // volatile off .global/.shared
            "ld.relaxed.gpu.cg.u32 d, [p];",                   // cop with a strong qualifier
            "ld.ca.L1::evict_last.u32 d, [p];",                // cop with L1 priority
            "ld.volatile.L2::cache_hint.u32 d, [p], c;",       // ptxas: no hint with volatile
            "ld.global.L2::evict_last.v2.f32 {a, b}, [p];",    // L2 priority needs 256 bits
            "ld.shared.v8.f32 {a, b, c, d, e, f, g, h}, [p];", // 256 bits off .global
            "ld.shared.u32 d, [p].unified;",                   // .unified off .global
            "ld.global.lu.nc.u32 d, [a];",                     // nc takes ca/cg/cs
            "ld.global.ca.nc.L1::evict_last.u32 d, [a];",      // cop with L1 priority
            "ldu.shared.u32 d, [a];",                          // ldu is global only
            "ldu.global.v8.b8 {a, b, c, d, e, f, g, h}, [p];", // ldu has no .v8
            "ldu.global.v4.b64 {a, b, c, d}, [p];",            // > 128 bits
        ]);
    }

    #[test]
    fn ptxas_deviations_and_requirements() {
        // ptxas accepts cop with L2 priority, volatile with L2 priority and .unified before
        // sm_90; it crashes on loads of .v8 of 8/16-bit types, which stay illegal.
        assert!(form("ld.shared.v8.b16 {a, b, c, d, e, f, g, h}, [p];").check().is_err());
        assert!(valid_on("ld.global.cg.L2::evict_last.v4.f64 {a, b, c, d}, [p];", "sm_100a"));
        assert!(valid_on("ld.volatile.global.L2::evict_last.v4.f64 {a, b, c, d}, [p];", "sm_100a"));
        assert!(valid_on("ld.global.u32 d, [p].unified;", "sm_80"));
        // 256-bit accesses and L2 priorities need sm_100; .cluster needs sm_90.
        assert!(!valid_on("ld.global.v8.f32 {a, b, c, d, e, f, g, h}, [p];", "sm_90a"));
        assert!(!valid_on("ld.relaxed.cluster.u32 d, [p];", "sm_89"));
        assert!(valid_on("ld.relaxed.cluster.u32 d, [p];", "sm_90"));
        assert!(!valid_on("ld.shared::cluster.u32 d, [p];", "sm_89"));
    }

    #[test]
    fn opcode_is_canonical_and_operands_follow_the_form() {
        let f = form("ld.v4.L2::evict_last.f64.global.relaxed.gpu {a, b, c, d}, [p];");
        assert_eq!(f.opcode(), "ld.relaxed.gpu.global.L2::evict_last.v4.f64");
        assert_eq!(form("ld.global.mmio.relaxed.sys.u32 d, [p];").opcode(), "ld.mmio.relaxed.sys.global.u32");
        assert_eq!(form("ld.nc.global.L2::64B.ca.b32 d, [a];").opcode(), "ld.global.ca.nc.L2::64B.b32");
        let Form::Ld(ld) = form("ld.u32 d, [p].unified;") else { panic!("not ld") };
        assert!(ld.unified);
        assert!("ld.global.L2::cache_hint.u32 d, [p];".parse::<Instruction>().is_err());
        assert_eq!(form("ld.param::func.u32 d, [p];").operands()[1].kind, OperandKind::Addr(AddrKind::ParamFunc));
        assert_eq!(form("ld.param.u32 d, [p];").operands()[1].kind, OperandKind::Addr(AddrKind::ParamEntry));
    }

    #[test]
    fn candidates_are_unique() {
        let c = Ld::candidates();
        let set: std::collections::HashSet<_> = c.iter().collect();
        assert_eq!(set.len(), c.len());
        assert!(c.len() < 2_000_000);
        let n = LdGlobalNc::candidates();
        let set: std::collections::HashSet<_> = n.iter().collect();
        assert_eq!(set.len(), n.len());
    }
}
