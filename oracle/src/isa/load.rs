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

/// The operand kind of the address of a load/store in `space` (`None`: generic addressing).
/// `.param`/`.param::entry` read kernel parameters (the probe puts the form in the entry);
/// `.param::func` addresses a device-function parameter (the probe puts it in a `.func`).
pub(super) fn addr_kind(space: Option<Space>) -> AddrKind {
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

/// The data operand (`d` of a load, `b` of a store): one register, or a brace vector of
/// `.vec` registers. A sink `_` inside the vector is operand-level, not a form field.
pub(super) fn data_kind(vec: Option<VecWidth>, ty: MemType) -> OperandKind {
    match vec {
        None => OperandKind::Reg(ty.reg()),
        Some(v) => OperandKind::Vector(ty.reg(), v.len()),
    }
}

/// Whether the access width of `.vec.type` is allowed at all and whether it is one of the
/// 256-bit forms (`.v8` of a 32-bit type, `.v4` of a 64-bit type) that need `.global` or
/// generic addressing, PTX ISA 8.8 and `sm_100` (§9.7.9.8, §9.7.9.9, §9.7.9.11).
///
/// `small_v8`: whether `.v8` of 8- and 16-bit types (64 and 128 bits) is accepted. ptxas 13.5
/// assembles such stores on every state space and target, although §9.7.9.11 lists `.v8` only
/// for 32-bit types; for loads it passes the parser but then crashes (SIGSEGV), so loads
/// treat them as illegal, as the spec does.
pub(super) fn vector_shape(vec: Option<VecWidth>, ty: MemType, small_v8: bool, rule: &str) -> Result<bool, Illegal> {
    let Some(v) = vec else { return Ok(false) };
    let bits = u32::from(v.len()) * ty.bits();
    if bits <= 128 && (v != VecWidth::V8 || small_v8) {
        return Ok(false);
    }
    let wide = (v == VecWidth::V8 && ty.is_32bit()) || (v == VecWidth::V4 && ty.is_64bit());
    forbid(!wide, rule)?;
    Ok(true)
}

/// The requirement of a `.type` alone (`.f64`: `sm_13`; `.b128`: `sm_70`, PTX ISA 8.3).
pub(super) fn type_requirement(ty: MemType) -> Requirement {
    match ty {
        MemType::F64 => Requirement::new(13, 1, 0),
        MemType::B128 => Requirement::new(70, 8, 3),
        _ => Requirement::new(10, 1, 0),
    }
}

/// The requirement of a state space (§9.7.9.8/§9.7.9.11 PTX and Target ISA Notes).
pub(super) fn space_requirement(space: Option<Space>) -> Requirement {
    match space {
        // Generic addressing: PTX ISA 2.0, sm_20.
        None => Requirement::new(20, 2, 0),
        Some(Space::SharedCta) => Requirement::new(30, 7, 8),
        Some(Space::SharedCluster) => Requirement::new(90, 7, 8),
        Some(Space::ParamEntry | Space::ParamFunc) => Requirement::new(10, 8, 3),
        Some(_) => Requirement::new(10, 1, 0),
    }
}

/// Whether `space` admits the strong qualifiers (`.volatile`, `.relaxed`, `.acquire`,
/// `.release`): `.global`, `.shared{::cta, ::cluster}` or generic addressing.
fn global_or_shared(space: Option<Space>) -> bool {
    space.is_none_or(|s| s == Space::Global || s.is_shared())
}

/// Whether `space` is `.global` or generic (where eviction priorities, prefetch sizes,
/// `.L2::cache_hint`, `.unified` and `.mmio` are allowed, §9.7.9.2 and §9.7.9.8).
pub(super) fn global_or_generic(space: Option<Space>) -> bool {
    matches!(space, None | Some(Space::Global))
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
    /// The plain weak form `ld{.ss}.type` from which the syntax lines vary.
    fn base(space: Option<Space>, ty: MemType) -> Ld {
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
                OperandKind::Addr(if self.unified { AddrKind::GlobalUnified } else { addr_kind(self.space) }),
            ),
        ];
        if self.cache_hint {
            ops.push(OperandSpec::src("cache-policy", OperandKind::Reg(RegType::B64)));
        }
        ops
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        check_ld(self)
    }
}

fn check_ld(f: &Ld) -> Result<Requirement, Illegal> {
    let strong = matches!(f.sem, Some(LdSem::Relaxed | LdSem::Acquire));
    forbid(
        strong != f.scope.is_some(),
        "`.scope` goes with `.relaxed`/`.acquire` and only with them (§9.7.9.8 syntax)",
    )?;
    let g = global_or_generic(f.space);
    let mut req = Requirement::new(10, 1, 0).and(&type_requirement(f.ty)).and(&space_requirement(f.space));
    if f.mmio {
        forbid(
            f.sem != Some(LdSem::Relaxed) || f.scope != Some(Scope::Sys),
            "`.mmio` needs `.relaxed.sys` (§9.7.9.8: only `.sys` scope is valid for `ld.mmio`)",
        )?;
        forbid(!g, "`.mmio` is allowed only with `.global` or generic addressing (§9.7.9.8)")?;
        forbid(
            f.cop.is_some()
                || f.l1.is_some()
                || f.l2.is_some()
                || f.cache_hint
                || f.prefetch.is_some()
                || f.vec.is_some(),
            "`ld.mmio.relaxed.sys{.global}.type` takes no other qualifiers (§9.7.9.8 syntax)",
        )?;
        req = req.sm(70).ptx(8, 2);
    }
    if let Some(sem) = f.sem {
        if sem != LdSem::Weak {
            forbid(
                !global_or_shared(f.space),
                "`.volatile`/`.relaxed`/`.acquire` need `.global`, `.shared` or generic addressing (§9.7.9.8)",
            )?;
            forbid(
                f.cop.is_some(),
                "cache operators are not permitted with `.volatile`/`.relaxed`/`.acquire` (§9.7.9.8)",
            )?;
        }
        if sem == LdSem::Volatile {
            // ptxas 13.5 accepts `.level2::eviction_priority` with `.volatile` (on the 256-bit
            // vectors it needs anyway), although the §9.7.9.8 `.volatile` line has none.
            forbid(
                f.l1.is_some() || f.cache_hint,
                "`ld.volatile` takes no `.level1::eviction_priority` or `.L2::cache_hint` (§9.7.9.8 syntax)",
            )?;
            req = req.ptx(1, 1);
        } else {
            req = req.sm(70).ptx(6, 0);
        }
    }
    if f.scope == Some(Scope::Cluster) {
        req = req.sm(90).ptx(7, 8);
    }
    if f.scope == Some(Scope::Sys) && f.ty == MemType::B128 {
        req = req.ptx(8, 4);
    }
    // ptxas 13.5 accepts `.cop` with `.level2::eviction_priority` (but not with
    // `.level1::eviction_priority`), although §9.7.9.8 puts `.cop` and eviction
    // priorities on different syntax lines.
    forbid(
        f.cop.is_some() && f.l1.is_some(),
        "`.cop` and `.level1::eviction_priority` are on different syntax lines (§9.7.9.8)",
    )?;
    if f.cop.is_some() {
        req = req.sm(20).ptx(2, 0);
    }
    forbid(
        (f.l1.is_some() || f.l2.is_some()) && !g,
        "eviction priorities need `.global` or generic addressing (§9.7.9.2)",
    )?;
    forbid(f.prefetch.is_some() && !g, "`.level::prefetch_size` needs `.global` or generic addressing (§9.7.9.8)")?;
    forbid(f.cache_hint && !g, "`.L2::cache_hint` needs `.global` or generic addressing (§9.7.9.8)")?;
    forbid(f.unified && !g, "`.unified` needs `.global` or generic addressing (§9.7.9.8)")?;
    let wide = vector_shape(
        f.vec,
        f.ty,
        false,
        "`.v8` takes 32-bit types only; 256-bit vectors are `.v8` of 32-bit and `.v4` of 64-bit types (§9.7.9.8)",
    )?;
    if wide {
        forbid(!g, "`.v8.b32`/`.v4.b64` need `.global` or generic addressing (§9.7.9.8)")?;
        req = req.sm(100).ptx(8, 8);
    }
    if f.l2.is_some() {
        forbid(
            !wide,
            "`.level2::eviction_priority` needs `.v8` of a 32-bit type or `.v4` of a 64-bit type (§9.7.9.8)",
        )?;
        req = req.sm(100).ptx(8, 8);
    }
    if f.l1.is_some() {
        req = req.sm(70).ptx(7, 4);
    }
    match f.prefetch {
        Some(PrefetchSize::B256) => req = req.sm(80).ptx(7, 4),
        Some(_) => req = req.sm(75).ptx(7, 4),
        None => {}
    }
    if f.cache_hint {
        req = req.sm(80).ptx(7, 4);
    }
    // ptxas 13.5 accepts `.unified` on every target and PTX ISA version it supports (sm_75,
    // PTX ISA 7.8 tried), although §9.7.9.8 asks for sm_90 and PTX ISA 8.0: no requirement.
    Ok(req)
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
        // ptxas 13.5 accepts `.cop` with `.level2::eviction_priority` (not with
        // `.level1::eviction_priority`), although §9.7.9.9 puts them on different lines.
        forbid(
            f.cop.is_some() && f.l1.is_some(),
            "`.cop` and `.level1::eviction_priority` are on different syntax lines (§9.7.9.9)",
        )?;
        let wide = vector_shape(
            f.vec,
            f.ty,
            false,
            "`.v8` takes 32-bit types only; 256-bit vectors are `.v8` of 32-bit and `.v4` of 64-bit types (§9.7.9.9)",
        )?;
        if wide {
            req = req.sm(100).ptx(8, 8);
        }
        if f.l2.is_some() {
            forbid(
                !wide,
                "`.level2::eviction_priority` needs `.v8` of a 32-bit type or `.v4` of a 64-bit type (§9.7.9.9)",
            )?;
            req = req.sm(100).ptx(8, 8);
        }
        if f.l1.is_some() {
            req = req.sm(70).ptx(7, 4);
        }
        if f.prefetch.is_some() {
            req = req.sm(75).ptx(7, 4);
        }
        if f.cache_hint {
            req = req.sm(80).ptx(7, 4);
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
            OperandSpec::src("a", OperandKind::Addr(addr_kind(self.space))),
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
    use crate::isa::{Form, Instruction, Target};

    fn form(s: &str) -> Form {
        s.parse::<Instruction>().unwrap_or_else(|e| panic!("{s}: {e}")).form
    }

    fn valid_on(s: &str, t: &str) -> bool {
        form(s).is_valid(&t.parse::<Target>().unwrap())
    }

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
        for s in [
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
        ] {
            assert!(form(s).check().is_err(), "{s} should be illegal");
        }
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
