//! Stores: `st` (§9.7.9.11), `st.async` (§9.7.9.12) and `st.bulk` (§9.7.9.13), with the
//! store cache operators of §9.7.9.1 and the eviction priorities of §9.7.9.2.
//!
//! As in `load.rs`, `st` enumerates the cross product of each syntax line separately (about
//! 470 000 candidates); `st.async` and `st.bulk` enumerate the cross product of all their
//! slots. `check()` applies the Description's restrictions and the PTX/Target ISA Notes and
//! follows ptxas 13.5 where the two disagree (each such rule says so).
//!
//! Invariants: `opcode()` prints qualifiers in the order of the syntax block; `parse()` reads
//! them in any order; `cache-policy` is present exactly when `.L2::cache_hint` is, and the
//! `[mbar]` operand of `st.async` exactly when the form is not a `.release` store.

use super::address::space_addr;
use super::memory::{check_access, data_kind, global_or_generic, Access, Ordering};
use super::operand::{AddrKind, Operand, OperandKind, OperandSpec};
use super::qualifier::{opt, OpcodeWriter, Qualifier, TokenBag, FLAG};
use super::target::Requirement;
use super::types::{L1Evict, L2Evict, MemType, RegType, Scope, Space, StCacheOp, VecWidth, CACHE_HINT};
use super::{forbid, FormSpec, Illegal, ParseError};
use crate::qualifiers;

qualifiers! {
    /// Memory-ordering qualifiers of `st` (§9.7.9.11): `.weak`, `.volatile`, `.relaxed`,
    /// `.release`; mutually exclusive, `.weak` is the default.
    pub enum StSem { Weak = "weak", Volatile = "volatile", Relaxed = "relaxed", Release = "release" }

    /// `.sem` of `st.async` (§9.7.9.12): `.weak` (shared::cluster with mbarrier) or
    /// `.release` (global).
    pub enum StAsyncSem { Weak = "weak", Release = "release" }
}

/// The `.completion_mechanism` of `st.async`.
const COMPLETE_TX: &str = "mbarrier::complete_tx::bytes";

/// One `st` form (§9.7.9.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct St {
    /// `.mmio` (only as `st.mmio.relaxed.sys{.global}.type`).
    pub mmio: bool,
    /// `.weak`, `.volatile`, `.relaxed`, `.release`.
    pub sem: Option<StSem>,
    /// `.scope` of `.relaxed`/`.release`.
    pub scope: Option<Scope>,
    /// `.ss`; `None` is generic addressing.
    pub space: Option<Space>,
    /// `.cop` (Table 31).
    pub cop: Option<StCacheOp>,
    /// `.level1::eviction_priority`.
    pub l1: Option<L1Evict>,
    /// `.level2::eviction_priority`.
    pub l2: Option<L2Evict>,
    /// `.L2::cache_hint` (with the `cache-policy` operand).
    pub cache_hint: bool,
    /// `.vec`.
    pub vec: Option<VecWidth>,
    /// `.type`.
    pub ty: MemType,
}

impl St {
    /// The plain weak form `st{.ss}.type` from which the syntax lines vary (and programs'
    /// plain stores are built).
    pub fn base(space: Option<Space>, ty: MemType) -> St {
        St {
            mmio: false,
            sem: None,
            scope: None,
            space,
            cop: None,
            l1: None,
            l2: None,
            cache_hint: false,
            vec: None,
            ty,
        }
    }
}

/// `.ss` of `st` (§9.7.9.11), and generic addressing.
const ST_SPACES: [Option<Space>; 8] = [
    None,
    Some(Space::Global),
    Some(Space::Local),
    Some(Space::Param),
    Some(Space::ParamFunc),
    Some(Space::Shared),
    Some(Space::SharedCta),
    Some(Space::SharedCluster),
];

impl FormSpec for St {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        let weak_sems = [None, Some(StSem::Weak)];
        for space in ST_SPACES {
            for &ty in MemType::ALL {
                for vec in opt::<VecWidth>() {
                    for cache_hint in FLAG {
                        let f = St { vec, cache_hint, ..St::base(space, ty) };
                        // Line 1: st{.weak}{.ss}{.cop}{.level::cache_hint}{.vec}.type
                        for sem in weak_sems {
                            for &cop in StCacheOp::ALL {
                                out.push(St { sem, cop: Some(cop), ..f });
                            }
                        }
                        // Lines 2, 4, 5: {.weak | .relaxed.scope | .release.scope} with
                        // eviction priorities.
                        let sems = weak_sems.into_iter().map(|s| (s, None)).chain(
                            [StSem::Relaxed, StSem::Release]
                                .into_iter()
                                .flat_map(|s| Scope::ALL.iter().map(move |&sc| (Some(s), Some(sc)))),
                        );
                        for (sem, scope) in sems {
                            for l1 in opt::<L1Evict>() {
                                for l2 in opt::<L2Evict>() {
                                    out.push(St { sem, scope, l1, l2, ..f });
                                }
                            }
                        }
                    }
                    // Line 3: st.volatile{.ss}{.vec}.type
                    out.push(St { sem: Some(StSem::Volatile), vec, ..St::base(space, ty) });
                }
            }
        }
        // Line 6: st.mmio.relaxed.sys{.global}.type
        for space in [None, Some(Space::Global)] {
            for &ty in MemType::ALL {
                out.push(St { mmio: true, sem: Some(StSem::Relaxed), scope: Some(Scope::Sys), ..St::base(space, ty) });
            }
        }
        out
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new()
            .lit("st")
            .flag(self.mmio, "mmio")
            .opt(self.sem)
            .opt(self.scope)
            .opt(self.space)
            .opt(self.cop)
            .opt(self.l1)
            .opt(self.l2)
            .flag(self.cache_hint, CACHE_HINT)
            .opt(self.vec)
            .q(self.ty)
            .finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        Ok(St {
            mmio: bag.flag("mmio"),
            sem: bag.take(),
            scope: bag.take(),
            space: bag.take(),
            cop: bag.take(),
            l1: bag.take(),
            l2: bag.take(),
            cache_hint: bag.flag(CACHE_HINT),
            vec: bag.take(),
            ty: bag.require("type")?,
        })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        // `st.param{::func}` writes a device-function parameter (or call argument): the
        // probe must place it in a `.func`.
        let a = match self.space {
            Some(Space::Param) => AddrKind::ParamFunc,
            s => space_addr(s),
        };
        let mut ops =
            vec![OperandSpec::dst("a", OperandKind::Addr(a)), OperandSpec::src("b", data_kind(self.vec, self.ty))];
        if self.cache_hint {
            ops.push(OperandSpec::src("cache-policy", OperandKind::Reg(RegType::B64)));
        }
        ops
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        forbid(matches!(self.space, Some(Space::Const)), "stores to const memory are illegal (§9.7.9.11)")?;
        forbid(
            matches!(self.space, Some(Space::ParamEntry)),
            "`st` has no `.param::entry` state space (§9.7.9.11 syntax)",
        )?;
        check_access(&self.access())
    }
}

impl St {
    /// The form as the rules shared with `ld` see it.
    fn access(&self) -> Access {
        Access {
            op: "st",
            section: "§9.7.9.11",
            strong: "`.relaxed`/`.release`",
            mmio: self.mmio,
            sem: self.sem.map(|s| match s {
                StSem::Weak => Ordering::Weak,
                StSem::Volatile => Ordering::Volatile,
                StSem::Relaxed => Ordering::Relaxed,
                StSem::Release => Ordering::AcquireRelease,
            }),
            scope: self.scope,
            space: self.space,
            cop: self.cop.is_some(),
            l1: self.l1.is_some(),
            l2: self.l2.is_some(),
            cache_hint: self.cache_hint,
            prefetch: None,
            unified: false,
            vec: self.vec,
            ty: self.ty,
            small_v8: true,
        }
    }
}

/// One `st.async` form (§9.7.9.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StAsync {
    /// `.mmio` (release line only).
    pub mmio: bool,
    /// `.weak` (default) or `.release`.
    pub sem: Option<StAsyncSem>,
    /// `.cluster` (weak line), `.gpu`/`.sys` (release line).
    pub scope: Option<Scope>,
    /// `.shared::cluster` (weak line), `.global` (release line), or generic addressing.
    pub space: Option<Space>,
    /// `.mbarrier::complete_tx::bytes`.
    pub complete_tx: bool,
    /// `.vec` (`.v2`, `.v4`).
    pub vec: Option<VecWidth>,
    /// `.type`.
    pub ty: MemType,
}

impl StAsync {
    /// The `.release` line, which has no `[mbar]` operand.
    fn is_release(&self) -> bool {
        self.sem == Some(StAsyncSem::Release)
    }
}

impl FormSpec for StAsync {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for mmio in FLAG {
            for sem in opt::<StAsyncSem>() {
                for scope in opt::<Scope>() {
                    for space in [None, Some(Space::SharedCluster), Some(Space::Global)] {
                        for complete_tx in FLAG {
                            for vec in [None, Some(VecWidth::V2), Some(VecWidth::V4)] {
                                for &ty in MemType::ALL {
                                    out.push(StAsync { mmio, sem, scope, space, complete_tx, vec, ty });
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
            .lit("st")
            .lit("async")
            .flag(self.mmio, "mmio")
            .opt(self.sem)
            .opt(self.scope)
            .opt(self.space)
            .flag(self.complete_tx, COMPLETE_TX)
            .opt(self.vec)
            .q(self.ty)
            .finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        bag.expect("async")?;
        Ok(StAsync {
            mmio: bag.flag("mmio"),
            sem: bag.take(),
            scope: bag.take(),
            space: bag.take(),
            complete_tx: bag.flag(COMPLETE_TX),
            vec: bag.take(),
            ty: bag.require("type")?,
        })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        let (a, mbar) = match self.space {
            Some(Space::SharedCluster) => (AddrKind::SharedCluster, AddrKind::Mbarrier),
            Some(Space::Shared | Space::SharedCta) => (AddrKind::SharedCta, AddrKind::Mbarrier),
            Some(Space::Global) => (AddrKind::Global, AddrKind::MbarrierGeneric),
            _ => (AddrKind::Generic, AddrKind::MbarrierGeneric),
        };
        let mut ops =
            vec![OperandSpec::dst("a", OperandKind::Addr(a)), OperandSpec::src("b", data_kind(self.vec, self.ty))];
        if !self.is_release() {
            ops.push(OperandSpec::src("mbar", OperandKind::Addr(mbar)));
        }
        ops
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        let f = self;
        if f.is_release() {
            forbid(
                !matches!(f.scope, Some(Scope::Gpu | Scope::Sys)),
                "`st.async.release` needs `.gpu` or `.sys` scope (§9.7.9.12 syntax)",
            )?;
            forbid(f.mmio && f.scope != Some(Scope::Sys), "`st.async.mmio` needs `.sys` scope (§9.7.9.12)")?;
            forbid(
                !global_or_generic(f.space),
                "`st.async.release` stores to `.global` or generic addresses (§9.7.9.12)",
            )?;
            forbid(f.complete_tx, "`st.async.release` takes no completion mechanism (§9.7.9.12)")?;
            forbid(f.vec.is_some(), "`st.async.release` takes no `.vec` (§9.7.9.12 syntax)")?;
            forbid(f.ty == MemType::B128, "`st.async.release` has no `.b128` type (§9.7.9.12 syntax)")?;
            Ok(Requirement::new(100, 8, 7))
        } else {
            forbid(
                f.mmio,
                "`.mmio` needs `.release` semantics (§9.7.9.12: `.mmio` must not be specified with `.weak`)",
            )?;
            // ptxas 13.5 also accepts `.shared` and `.shared::cta` destinations (with `[mbar]`,
            // with or without the completion mechanism, without `.scope`), although the
            // §9.7.9.12 `.ss` of the weak line is `.shared::cluster` only.
            let cta = matches!(f.space, Some(Space::Shared | Space::SharedCta));
            forbid(
                f.space.is_some_and(|s| s != Space::SharedCluster) && !cta,
                "weak `st.async` stores to `.shared::cluster` or generic addresses (§9.7.9.12)",
            )?;
            forbid(
                f.scope.is_some_and(|s| s != Scope::Cluster) || (cta && f.scope.is_some()),
                "weak `st.async` takes `.cluster` scope only, on `.shared::cluster` or generic addresses (§9.7.9.12 syntax)",
            )?;
            // ptxas 13.5: "Modifier '.weak' cannot be combined with modifier '.cluster'",
            // although the §9.7.9.12 syntax spells `st.async.weak.cluster`.
            forbid(
                f.sem == Some(StAsyncSem::Weak) && f.scope.is_some(),
                "ptxas rejects `.weak` together with `.cluster` on `st.async` (§9.7.9.12)",
            )?;
            // ptxas 13.5 requires the completion mechanism for `.shared::cluster` and generic
            // addresses, although §9.7.9.12 says it defaults to `.mbarrier::complete_tx::bytes`.
            forbid(
                !f.complete_tx && !cta,
                "ptxas requires `.mbarrier::complete_tx::bytes` on weak `st.async` to `.shared::cluster` or generic addresses (§9.7.9.12)",
            )?;
            forbid(
                f.ty.bits() < 32 || f.ty == MemType::B128,
                "weak `st.async` takes 32- and 64-bit types only (§9.7.9.12 syntax)",
            )?;
            forbid(f.vec == Some(VecWidth::V8), "`st.async` takes `.v2` or `.v4` only (§9.7.9.12 syntax)")?;
            forbid(
                f.vec == Some(VecWidth::V4) && f.ty.bits() == 64,
                "`st.async` vectors are at most 128 bits wide (§9.7.9.12)",
            )?;
            // ptxas 13.5 accepts `.weak` and `.cluster` on sm_90 with PTX ISA 8.1, although
            // §9.7.9.12 introduces `.scope` (and `.sem`) with PTX ISA 8.7 and sm_100.
            Ok(Requirement::new(90, 8, 1))
        }
    }
}

/// One `st.bulk` form (§9.7.9.13). The `size` operand may be a 64-bit or (from PTX ISA 9.0)
/// 32-bit register or an immediate; that width is operand-level: the form always lists it as
/// a `.b64` register-or-immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StBulk {
    /// `.weak`.
    pub weak: bool,
    /// `.shared::cta`, or generic addressing (`None`).
    pub space: Option<Space>,
}

impl FormSpec for StBulk {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for weak in FLAG {
            for space in [None, Some(Space::SharedCta)] {
                out.push(StBulk { weak, space });
            }
        }
        out
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new().lit("st").lit("bulk").flag(self.weak, "weak").opt(self.space).finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        bag.expect("bulk")?;
        Ok(StBulk { weak: bag.flag("weak"), space: bag.take() })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        vec![
            // ptxas 13.5 requires a register address ("Argument 1 of instruction 'st.bulk':
            // must be register"), also with `.shared::cta`: the probe's register address.
            OperandSpec::dst("a", OperandKind::Addr(AddrKind::Generic)),
            OperandSpec::src("size", OperandKind::RegOrImm(RegType::B64)),
            OperandSpec::src("initval", OperandKind::Imm(0)),
        ]
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        forbid(
            self.space.is_some_and(|s| s != Space::SharedCta),
            "`st.bulk` takes `.shared::cta` or generic addressing (§9.7.9.13 syntax)",
        )?;
        Ok(Requirement::new(100, 8, 6))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::test_util::{assert_illegal, form, valid_on};
    use crate::isa::Instruction;

    #[test]
    fn spec_examples_are_legal() {
        for s in [
            "st.global.f32 [a], b;",
            "st.local.b32 [q+4], a;",
            "st.global.v4.s32 [p], {q0, q1, q2, q3};",
            "st.local.b32 [q+-8], a;",
            "st.local.s32 [100], r7;",
            "st.b16 [fs], %r;",
            "st.global.relaxed.sys.u32 [gbl], %r0;",
            "st.shared.release.cta.u32 [sh], %r1;",
            "st.global.relaxed.cluster.u32 [gbl], %r2;",
            "st.shared::cta.release.cta.u32 [sh + 4], %r1;",
            "st.shared::cluster.u32 [sh + 8], %r1;",
            "st.global.mmio.relaxed.sys.u32 [gbl], %r1;",
            "st.global.L1::no_allocate.f32 [p], a;",
            "st.global.L2::cache_hint.b32 [a], b, policy;",
            "st.param::func.b64 [param1], %rp1;",
            "st.global.b128 [a], b;",
            "st.global.L2::evict_last.v8.f32 [addr], {%r0, _, %r2, %r3, %r4, %r5, %r6, %r7};",
            "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [addr], b, [mbar_addr];",
            "st.async.release.global.u32 [addr], b;",
            "st.bulk.weak.shared::cta [dst], n, 0;",
            "st.bulk [gdst], 4096, 0;",
        ] {
            let f = form(s);
            // `st.async.release.global.u32` has no scope: the syntax line needs one.
            if s.starts_with("st.async.release") {
                assert!(f.check().is_err(), "{s}");
                continue;
            }
            assert!(valid_on(s, "sm_100a"), "{s}: {:?}", f.check());
        }
        assert!(valid_on("st.async.release.gpu.global.u32 [addr], b;", "sm_100a"));
    }

    #[test]
    fn rules_reject_what_the_spec_and_ptxas_forbid() {
        assert_illegal(&[
            "st.const.u32 [a], b;",
            "st.param::entry.u32 [a], b;",
            "st.shared.L1::evict_last.u32 [a], b;",
            "st.local.L2::cache_hint.u32 [a], b, c;",
            "st.mmio.relaxed.gpu.u32 [a], b;",
            "st.release.u32 [a], b;",
            "st.volatile.local.u32 [a], b;",
            "st.release.gpu.wb.u32 [a], b;",
            "st.wb.L1::evict_last.u32 [a], b;",
            "st.global.L2::evict_last.v2.f32 [p], {a, b};",
            "st.v2.b128 [p], {a, b};",
            "st.v8.b64 [p], {a, b, c, d, e, f, g, h};",
            "st.async.weak.cluster.mbarrier::complete_tx::bytes.b32 [a], b, [m];",
            "st.async.shared::cluster.b32 [a], b, [m];",
            "st.async.gpu.mbarrier::complete_tx::bytes.b32 [a], b, [m];",
            "st.async.mmio.release.gpu.global.b32 [a], b;",
            "st.async.release.gpu.global.v2.b32 [a], {b, c};",
            "st.async.mbarrier::complete_tx::bytes.b8 [a], b, [m];",
            "st.async.mbarrier::complete_tx::bytes.v4.b64 [a], {b, c, d, e}, [m];",
            "st.bulk.shared::cluster [a], 64, 0;",
            "st.bulk.global [a], 64, 0;",
        ]);
    }

    #[test]
    fn requirements() {
        let s = "st.async.mbarrier::complete_tx::bytes.b32 [a], b, [m];";
        assert!(valid_on(s, "sm_90"));
        assert!(!valid_on(s, "sm_89"));
        let r = "st.async.mmio.release.sys.global.b32 [a], b;";
        assert!(valid_on(r, "sm_100a"));
        assert!(!valid_on(r, "sm_90a"));
        assert!(!valid_on("st.bulk [a], 64, 0;", "sm_90a"));
        // ptxas assembles stores of .v8 of 8/16-bit types everywhere.
        assert!(valid_on("st.shared.v8.b16 [p], {a, b, c, d, e, f, g, h};", "sm_80"));
        assert!(valid_on("st.async.shared::cta.b32 [a], b, [m];", "sm_90"));
    }

    #[test]
    fn opcode_is_canonical_and_operands_follow_the_form() {
        assert_eq!(form("st.global.mmio.relaxed.sys.u32 [a], b;").opcode(), "st.mmio.relaxed.sys.global.u32");
        assert_eq!(
            form("st.async.u32.mbarrier::complete_tx::bytes.shared::cluster [a], b, [m];").opcode(),
            "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32"
        );
        assert_eq!(form("st.bulk.shared::cta.weak [a], n, 0;").opcode(), "st.bulk.weak.shared::cta");
        assert!("st.async.release.gpu.u32 [a], b, [m];".parse::<Instruction>().is_err());
        assert_eq!(form("st.param.u32 [p], b;").operands()[0].kind, OperandKind::Addr(AddrKind::ParamFunc));
        let c = St::candidates();
        let set: std::collections::HashSet<_> = c.iter().collect();
        assert_eq!(set.len(), c.len());
        let a = StAsync::candidates();
        let set: std::collections::HashSet<_> = a.iter().collect();
        assert_eq!(set.len(), a.len());
    }
}
