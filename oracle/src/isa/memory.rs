//! The validity rules that `ld` (§9.7.9.8), `ld.global.nc` (§9.7.9.9) and `st` (§9.7.9.11)
//! share: memory-ordering qualifiers with `.scope`, `.mmio`, cache operators, the eviction
//! priorities of §9.7.9.2, `.L2::cache_hint`, `.level::prefetch_size`, `.unified`, and the
//! `.vec`/`.type` width rules, plus the operand and requirement helpers of the three families
//! (their address operands take [`space_addr`](super::address::space_addr)).
//!
//! The families keep their own typed structs and qualifier enums; each describes one form to
//! the shared rules as an [`Access`], which carries the section and the mnemonic that go into
//! the rule texts, so every rule cites the section of the instruction it rules on.

use std::fmt;

use super::operand::OperandKind;
use super::target::Requirement;
use super::types::{MemType, PrefetchSize, Scope, Space, VecWidth};
use super::{forbid, Illegal};

/// `forbid` with a rule text that is only formatted when the rule is broken.
fn forbid_fmt(cond: bool, rule: fmt::Arguments<'_>) -> Result<(), Illegal> {
    if cond {
        Illegal::err(rule.to_string())
    } else {
        Ok(())
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
/// generic addressing, PTX ISA 8.8 and `sm_100` (§9.7.9.8, §9.7.9.9, §9.7.9.11). `section`
/// is the section of the instruction, for the rule text.
///
/// `small_v8`: whether `.v8` of 8- and 16-bit types (64 and 128 bits) is accepted. ptxas 13.5
/// assembles such stores on every state space and target, although §9.7.9.11 lists `.v8` only
/// for 32-bit types; for loads it passes the parser but then crashes (SIGSEGV), so loads
/// treat them as illegal, as the spec does.
fn vector_shape(vec: Option<VecWidth>, ty: MemType, small_v8: bool, section: &str) -> Result<bool, Illegal> {
    let Some(v) = vec else { return Ok(false) };
    let bits = u32::from(v.len()) * ty.bits();
    if bits <= 128 && (v != VecWidth::V8 || small_v8) {
        return Ok(false);
    }
    let wide = (v == VecWidth::V8 && ty.is_32bit()) || (v == VecWidth::V4 && ty.is_64bit());
    if small_v8 {
        forbid_fmt(
            !wide,
            format_args!(
                "vectors wider than 128 bits are only `.v8` of 32-bit types and `.v4` of 64-bit types ({section})"
            ),
        )?;
    } else {
        forbid_fmt(
            !wide,
            format_args!(
                "`.v8` takes 32-bit types only; 256-bit vectors are `.v8` of 32-bit and `.v4` of 64-bit types ({section})"
            ),
        )?;
    }
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
fn space_requirement(space: Option<Space>) -> Requirement {
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

/// A memory-ordering qualifier of `ld` (`LdSem`) or `st` (`StSem`), as the shared rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ordering {
    /// `.weak`.
    Weak,
    /// `.volatile`.
    Volatile,
    /// `.relaxed`.
    Relaxed,
    /// `.acquire` (`ld`) or `.release` (`st`).
    AcquireRelease,
}

/// One `ld`, `ld.global.nc` or `st` form, as the shared rules see it.
pub(super) struct Access {
    /// The mnemonic in rule texts: `ld` or `st`.
    pub op: &'static str,
    /// The section of the instruction in rule texts, e.g. `§9.7.9.8`.
    pub section: &'static str,
    /// The strong qualifiers in rule texts: `` `.relaxed`/`.acquire` `` or `` `.relaxed`/`.release` ``.
    pub strong: &'static str,
    /// `.mmio`.
    pub mmio: bool,
    /// `.sem`.
    pub sem: Option<Ordering>,
    /// `.scope`.
    pub scope: Option<Scope>,
    /// `.ss`; `None` is generic addressing.
    pub space: Option<Space>,
    /// A `.cop` is present.
    pub cop: bool,
    /// A `.level1::eviction_priority` is present.
    pub l1: bool,
    /// A `.level2::eviction_priority` is present.
    pub l2: bool,
    /// `.L2::cache_hint`.
    pub cache_hint: bool,
    /// `.level::prefetch_size` (loads only).
    pub prefetch: Option<PrefetchSize>,
    /// `[a].unified` (`ld` only).
    pub unified: bool,
    /// `.vec`.
    pub vec: Option<VecWidth>,
    /// `.type`.
    pub ty: MemType,
    /// Whether `.v8` of 8- and 16-bit types is accepted (stores; see [`vector_shape`]).
    pub small_v8: bool,
}

/// The rules of `ld` (§9.7.9.8) and `st` (§9.7.9.11): the memory-ordering qualifiers and
/// `.mmio`, then [`check_caching`], then the `.level::prefetch_size` requirement.
pub(super) fn check_access(a: &Access) -> Result<Requirement, Illegal> {
    let (op, sec, strong) = (a.op, a.section, a.strong);
    let strong_sem = matches!(a.sem, Some(Ordering::Relaxed | Ordering::AcquireRelease));
    forbid_fmt(
        strong_sem != a.scope.is_some(),
        format_args!("`.scope` goes with {strong} and only with them ({sec} syntax)"),
    )?;
    let g = global_or_generic(a.space);
    let mut req = Requirement::new(10, 1, 0).and(&type_requirement(a.ty)).and(&space_requirement(a.space));
    if a.mmio {
        forbid_fmt(
            a.sem != Some(Ordering::Relaxed) || a.scope != Some(Scope::Sys),
            format_args!("`.mmio` needs `.relaxed.sys` ({sec}: only `.sys` scope is valid for `{op}.mmio`)"),
        )?;
        forbid_fmt(!g, format_args!("`.mmio` is allowed only with `.global` or generic addressing ({sec})"))?;
        forbid_fmt(
            a.cop || a.l1 || a.l2 || a.cache_hint || a.prefetch.is_some() || a.vec.is_some(),
            format_args!("`{op}.mmio.relaxed.sys{{.global}}.type` takes no other qualifiers ({sec} syntax)"),
        )?;
        req = req.sm(70).ptx(8, 2);
    }
    if let Some(sem) = a.sem {
        if sem != Ordering::Weak {
            forbid_fmt(
                !global_or_shared(a.space),
                format_args!("`.volatile`/{strong} need `.global`, `.shared` or generic addressing ({sec})"),
            )?;
            forbid_fmt(a.cop, format_args!("cache operators are not permitted with `.volatile`/{strong} ({sec})"))?;
        }
        if sem == Ordering::Volatile {
            // ptxas 13.5 accepts `.level2::eviction_priority` with `.volatile` (on the 256-bit
            // vectors it needs anyway), although the `.volatile` lines of §9.7.9.8 (`ld`) and
            // §9.7.9.11 (`st`) have none.
            forbid_fmt(
                a.l1 || a.cache_hint,
                format_args!(
                    "`{op}.volatile` takes no `.level1::eviction_priority` or `.L2::cache_hint` ({sec} syntax)"
                ),
            )?;
            req = req.ptx(1, 1);
        } else {
            req = req.sm(70).ptx(6, 0);
        }
    }
    if a.scope == Some(Scope::Cluster) {
        req = req.sm(90).ptx(7, 8);
    }
    if a.scope == Some(Scope::Sys) && a.ty == MemType::B128 {
        req = req.ptx(8, 4);
    }
    req = req.and(&check_caching(a)?);
    match a.prefetch {
        Some(PrefetchSize::B256) => req = req.sm(80).ptx(7, 4),
        Some(_) => req = req.sm(75).ptx(7, 4),
        None => {}
    }
    // ptxas 13.5 accepts `.unified` on every target and PTX ISA version it supports (sm_75,
    // PTX ISA 7.8 tried), although §9.7.9.8 asks for sm_90 and PTX ISA 8.0: no requirement.
    Ok(req)
}

/// The rules of `ld` (§9.7.9.8), `ld.global.nc` (§9.7.9.9) and `st` (§9.7.9.11) for `.cop`,
/// the eviction priorities, `.level::prefetch_size`, `.L2::cache_hint`, `.unified` and the
/// vector width. The requirement of `.level::prefetch_size` is left to the caller.
pub(super) fn check_caching(a: &Access) -> Result<Requirement, Illegal> {
    let sec = a.section;
    let g = global_or_generic(a.space);
    let mut req = Requirement::new(10, 1, 0);
    // ptxas 13.5 accepts `.cop` with `.level2::eviction_priority` (but not with
    // `.level1::eviction_priority`), although §9.7.9.8, §9.7.9.9 and §9.7.9.11 put `.cop`
    // and eviction priorities on different syntax lines.
    forbid_fmt(
        a.cop && a.l1,
        format_args!("`.cop` and `.level1::eviction_priority` are on different syntax lines ({sec})"),
    )?;
    if a.cop {
        req = req.sm(20).ptx(2, 0);
    }
    forbid((a.l1 || a.l2) && !g, "eviction priorities need `.global` or generic addressing (§9.7.9.2)")?;
    forbid_fmt(
        a.prefetch.is_some() && !g,
        format_args!("`.level::prefetch_size` needs `.global` or generic addressing ({sec})"),
    )?;
    forbid_fmt(a.cache_hint && !g, format_args!("`.L2::cache_hint` needs `.global` or generic addressing ({sec})"))?;
    forbid_fmt(a.unified && !g, format_args!("`.unified` needs `.global` or generic addressing ({sec})"))?;
    let wide = vector_shape(a.vec, a.ty, a.small_v8, sec)?;
    if wide {
        forbid_fmt(!g, format_args!("`.v8.b32`/`.v4.b64` need `.global` or generic addressing ({sec})"))?;
        req = req.sm(100).ptx(8, 8);
    }
    if a.l2 {
        forbid_fmt(
            !wide,
            format_args!("`.level2::eviction_priority` needs `.v8` of a 32-bit type or `.v4` of a 64-bit type ({sec})"),
        )?;
        req = req.sm(100).ptx(8, 8);
    }
    if a.l1 {
        req = req.sm(70).ptx(7, 4);
    }
    if a.cache_hint {
        req = req.sm(80).ptx(7, 4);
    }
    Ok(req)
}
