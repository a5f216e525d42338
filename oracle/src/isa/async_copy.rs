//! The non-bulk asynchronous copy `cp.async` (§9.7.9.25.3.1) and its async-group completion
//! instructions `cp.async.commit_group` (§9.7.9.25.3.2), `cp.async.wait_group` and
//! `cp.async.wait_all` (§9.7.9.25.3.3), and its mbarrier completion
//! `cp.async.mbarrier.arrive{.noinc}` (§9.7.9.25.3.4).
//!
//! A `cp.async` form fixes the cache operator, the destination spelling (`.shared` or
//! `.shared::cta`), the optional `.L2::cache_hint` and `.L2::{64,128,256}B` hints, the value of
//! the `cp-size` immediate (4, 8 or 16: ptxas checks the value, so it is part of the form), and
//! which optional fourth operand is present: none, `src-size` as an immediate or in a 32-bit
//! register, or the predicate `ignore-src`. A register in that slot is `src-size` or
//! `ignore-src` by its declared type, which the operand syntax does not carry: [`parse`]
//! reads it as `ignore-src`, and a reader that knows the register's type (the memory
//! programs) settles it with [`CpAsync::with_src_register`]. The optional `cache-policy` goes
//! with `.L2::cache_hint` and needs no field of its own.
//!
//! [`parse`]: FormSpec::parse
//!
//! Invariant: `candidates()` is the full cross product of these slots; `check()` rejects `.cg`
//! with a `cp-size` other than 16 and derives the requirement from the PTX/Target ISA Notes.

use super::async_group::single_form;
use super::operand::{AddrKind, Imm, Operand, OperandKind, OperandSpec};
use super::qualifier::{opt, OpcodeWriter, Qualifier, TokenBag, FLAG};
use super::target::Requirement;
use super::types::{PrefetchSize, RegType, CACHE_HINT};
use super::{forbid, FormSpec, Illegal, ParseError};
use crate::qualifiers;

qualifiers! {
    /// The cache operator of `cp.async` (§9.7.9.25.3.1): `.ca` caches at all levels, `.cg` at
    /// L2 only.
    pub enum CpAsyncCacheOp { Ca = "ca", Cg = "cg" }

    /// The destination spelling of `cp.async`: `.shared{::cta}`.
    pub enum CpAsyncDst { Shared = "shared", SharedCta = "shared::cta" }
}

/// The `cp-size` immediate of `cp.async`: the number of bytes written to `dst`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CpSize {
    /// 4 bytes.
    B4,
    /// 8 bytes.
    B8,
    /// 16 bytes.
    B16,
}

impl CpSize {
    /// Every value, in increasing order.
    pub const ALL: [CpSize; 3] = [CpSize::B4, CpSize::B8, CpSize::B16];

    /// The size in bytes (the immediate as written).
    pub fn bytes(self) -> i64 {
        match self {
            CpSize::B4 => 4,
            CpSize::B8 => 8,
            CpSize::B16 => 16,
        }
    }

    /// The size whose immediate is `v`.
    pub fn from_bytes(v: i128) -> Option<CpSize> {
        CpSize::ALL.into_iter().find(|s| i128::from(s.bytes()) == v)
    }
}

/// The optional fourth operand of `cp.async`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CpAsyncSrc {
    /// Neither: `cp-size` bytes are copied.
    Full,
    /// `src-size` as an immediate: the number of bytes read from `src`.
    SrcSize,
    /// `src-size` in a 32-bit integer register (§9.7.9.25.3.1: "a 32-bit integer operand"),
    /// the predicated tile load of CUTLASS (`cp.async.cg.shared.global [d], [s], 16, n;`).
    SrcSizeReg,
    /// `ignore-src`: a predicate; when true, zeros are written.
    IgnoreSrc,
}

impl CpAsyncSrc {
    /// Every value.
    pub const ALL: [CpAsyncSrc; 4] =
        [CpAsyncSrc::Full, CpAsyncSrc::SrcSize, CpAsyncSrc::SrcSizeReg, CpAsyncSrc::IgnoreSrc];
}

/// One `cp.async` form (§9.7.9.25.3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CpAsync {
    /// `.ca` or `.cg`.
    pub cop: CpAsyncCacheOp,
    /// `.shared` or `.shared::cta`.
    pub dst: CpAsyncDst,
    /// `.L2::cache_hint` (with the `cache-policy` operand).
    pub cache_hint: bool,
    /// `.L2::64B`, `.L2::128B`, `.L2::256B`.
    pub prefetch: Option<PrefetchSize>,
    /// The value of the `cp-size` immediate.
    pub cp_size: CpSize,
    /// Which optional fourth operand is present.
    pub src: CpAsyncSrc,
}

impl FormSpec for CpAsync {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for &cop in CpAsyncCacheOp::ALL {
            for &dst in CpAsyncDst::ALL {
                for cache_hint in FLAG {
                    for prefetch in opt::<PrefetchSize>() {
                        for cp_size in CpSize::ALL {
                            for src in CpAsyncSrc::ALL {
                                out.push(CpAsync { cop, dst, cache_hint, prefetch, cp_size, src });
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
            .lit("cp")
            .lit("async")
            .q(self.cop)
            .q(self.dst)
            .lit("global")
            .flag(self.cache_hint, CACHE_HINT)
            .opt(self.prefetch)
            .finish()
    }

    fn parse(bag: &mut TokenBag<'_>, operands: &[Operand]) -> Result<Self, ParseError> {
        bag.expect("async")?;
        let cop = bag.require("cache operator")?;
        let dst = bag.require("destination state space")?;
        bag.expect("global")?;
        let cache_hint = bag.flag(CACHE_HINT);
        let prefetch = bag.take();
        let cp_size = match operands.get(2) {
            Some(Operand::Imm(Imm::Int(v))) => CpSize::from_bytes(*v).ok_or_else(|| {
                ParseError::new(bag.opcode(), format!("`cp-size` must be 4, 8 or 16, found {v} (§9.7.9.25.3.1)"))
            })?,
            _ => {
                return Err(ParseError::new(
                    bag.opcode(),
                    "the third operand `cp-size` must be the immediate 4, 8 or 16 (§9.7.9.25.3.1)",
                ))
            }
        };
        let base = 3 + usize::from(cache_hint);
        let src = if operands.len() == base + 1 {
            match &operands[3] {
                Operand::Imm(_) => CpAsyncSrc::SrcSize,
                // Untyped, a register reads as `ignore-src` (see the module docs).
                _ => CpAsyncSrc::IgnoreSrc,
            }
        } else {
            CpAsyncSrc::Full
        };
        Ok(CpAsync { cop, dst, cache_hint, prefetch, cp_size, src })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        let mut ops = vec![
            OperandSpec::dst("dst", OperandKind::Addr(AddrKind::SharedCta)),
            OperandSpec::src("src", OperandKind::Addr(AddrKind::Global)),
            OperandSpec::src("cp-size", OperandKind::Imm(self.cp_size.bytes())),
        ];
        match self.src {
            CpAsyncSrc::Full => {}
            CpAsyncSrc::SrcSize => ops.push(OperandSpec::src("src-size", OperandKind::Imm(self.cp_size.bytes() / 2))),
            CpAsyncSrc::SrcSizeReg => ops.push(OperandSpec::src("src-size", OperandKind::Reg(RegType::U32))),
            CpAsyncSrc::IgnoreSrc => ops.push(OperandSpec::src("ignore-src", OperandKind::Pred)),
        }
        if self.cache_hint {
            ops.push(OperandSpec::src("cache-policy", OperandKind::Reg(RegType::B64)));
        }
        ops
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        forbid(
            self.cop == CpAsyncCacheOp::Cg && self.cp_size != CpSize::B16,
            "`cp.async.cg` copies 16 bytes: `cp-size` must be 16 (§9.7.9.25.3.1 syntax)",
        )?;
        let mut req = Requirement::new(80, 7, 0);
        if self.cache_hint || self.prefetch.is_some() {
            req = req.ptx(7, 4);
        }
        if self.src == CpAsyncSrc::IgnoreSrc {
            req = req.ptx(7, 5);
        }
        // ptxas 13.5 accepts `.shared::cta` from PTX ISA 7.0 on (sm_80@7.0 assembles
        // `cp.async.ca.shared::cta.global`), although §9.7.9.25.3.1 introduces the `::cta`
        // sub-qualifier in PTX ISA 7.8; the model follows ptxas and adds no requirement.
        Ok(req)
    }
}

impl CpAsync {
    /// The form a register in the fourth operand slot makes, given whether the register is a
    /// predicate (`ignore-src`) or a 32-bit integer (`src-size`); a form without a register
    /// there is returned as it is (§9.7.9.25.3.1: the register's type decides).
    pub fn with_src_register(self, predicate: bool) -> CpAsync {
        let src = match self.src {
            CpAsyncSrc::IgnoreSrc | CpAsyncSrc::SrcSizeReg if predicate => CpAsyncSrc::IgnoreSrc,
            CpAsyncSrc::IgnoreSrc | CpAsyncSrc::SrcSizeReg => CpAsyncSrc::SrcSizeReg,
            other => other,
        };
        CpAsync { src, ..self }
    }
}

/// `cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr]` (§9.7.9.25.3.4): the mbarrier
/// at `addr` gets an arrive-on when all prior `cp.async` of the thread complete; without
/// `.noinc` the pending count is incremented first, so the arrive does not count toward the
/// phase's expected arrivals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CpAsyncMbarrierArrive {
    /// `.noinc`: no increment of the pending count before the arrive-on.
    pub noinc: bool,
    /// `.shared` or `.shared::cta`; `None` is a generic address.
    pub space: Option<CpAsyncDst>,
}

impl FormSpec for CpAsyncMbarrierArrive {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for noinc in FLAG {
            for space in opt::<CpAsyncDst>() {
                out.push(CpAsyncMbarrierArrive { noinc, space });
            }
        }
        out
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new()
            .lit("cp")
            .lit("async")
            .lit("mbarrier")
            .lit("arrive")
            .flag(self.noinc, "noinc")
            .opt(self.space)
            .lit("b64")
            .finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        for t in ["async", "mbarrier", "arrive"] {
            bag.expect(t)?;
        }
        let noinc = bag.flag("noinc");
        let space = bag.take();
        bag.expect("b64")?;
        Ok(CpAsyncMbarrierArrive { noinc, space })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        let kind = if self.space.is_some() { AddrKind::Mbarrier } else { AddrKind::MbarrierGeneric };
        vec![OperandSpec::src("addr", OperandKind::Addr(kind))]
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        let mut req = Requirement::new(80, 7, 0);
        if self.space == Some(CpAsyncDst::SharedCta) {
            req = req.ptx(7, 8);
        }
        Ok(req)
    }
}

/// `cp.async.commit_group` (§9.7.9.25.3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CpAsyncCommitGroup;

single_form!(CpAsyncCommitGroup, "cp.async.commit_group", vec![], Requirement::new(80, 7, 0));

/// `cp.async.wait_group N` (§9.7.9.25.3.3); `N` is an integer constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CpAsyncWaitGroup;

single_form!(
    CpAsyncWaitGroup,
    "cp.async.wait_group",
    vec![OperandSpec::src("N", OperandKind::Imm(1))],
    Requirement::new(80, 7, 0)
);

/// `cp.async.wait_all` (§9.7.9.25.3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CpAsyncWaitAll;

single_form!(CpAsyncWaitAll, "cp.async.wait_all", vec![], Requirement::new(80, 7, 0));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::test_util::{assert_legal, inst};
    use crate::isa::{Form, Instruction};

    #[test]
    fn spec_examples_are_legal() {
        assert_legal(&[
            "cp.async.ca.shared.global [shrd], [gbl+4], 4;",
            "cp.async.ca.shared::cta.global [%r0+8], [%r1], 8;",
            "cp.async.cg.shared.global [%r2], [%r3], 16;",
            "cp.async.cg.shared.global.L2::64B [%r2], [%r3], 16;",
            "cp.async.cg.shared.global.L2::128B [%r0+16], [%r1], 16;",
            "cp.async.ca.shared.global.L2::cache_hint [%r2], [%r1], 4, cache_policy;",
            "cp.async.ca.shared.global [shrd], [gbl], 4, p;",
            "cp.async.cg.shared.global.L2::cache_hint [%r0], [%r2], 16, q, cache_policy;",
            "cp.async.ca.shared.global [shrd], [gbl], 16, 8;",
            "cp.async.commit_group;",
            "cp.async.wait_group 1;",
            "cp.async.wait_all;",
            "cp.async.mbarrier.arrive.b64 [%rd1];",
            "cp.async.mbarrier.arrive.noinc.shared.b64 [mbar];",
            "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [mbar];",
        ]);
        match inst("cp.async.mbarrier.arrive.noinc.shared.b64 [mbar];").form {
            Form::CpAsyncMbarrierArrive(f) => assert!(f.noinc && f.space == Some(CpAsyncDst::Shared)),
            f => panic!("{f:?}"),
        }
        match inst("cp.async.ca.shared.global [shrd], [gbl], 4, p;").form {
            Form::CpAsync(f) => assert_eq!(f.src, CpAsyncSrc::IgnoreSrc),
            f => panic!("{f:?}"),
        }
        match inst("cp.async.ca.shared.global [shrd], [gbl], 8, 4;").form {
            Form::CpAsync(f) => assert_eq!(f.src, CpAsyncSrc::SrcSize),
            f => panic!("{f:?}"),
        }
    }

    #[test]
    fn rules_reject_what_the_spec_forbids() {
        let f = inst("cp.async.cg.shared.global [s], [g], 8;").form;
        assert!(f.check().is_err(), ".cg needs cp-size 16");
        assert!("cp.async.ca.shared.global [s], [g], 2;".parse::<Instruction>().is_err());
        assert!("cp.async.ca.shared::cluster.global [s], [g], 4;".parse::<Instruction>().is_err());
        assert!("cp.async.mbarrier.arrive.shared::cluster.b64 [m];".parse::<Instruction>().is_err());
        assert!("cp.async.mbarrier.arrive.shared [m];".parse::<Instruction>().is_err());
    }

    #[test]
    fn opcode_is_canonical_and_requirements_follow_the_notes() {
        let i = inst("cp.async.L2::128B.global.cg.L2::cache_hint.shared::cta [s], [g], 16, %rd1;");
        assert_eq!(i.form.opcode(), "cp.async.cg.shared::cta.global.L2::cache_hint.L2::128B");
        let req = i.form.check().unwrap();
        assert_eq!((req.min_sm, req.min_ptx.to_string()), (80, "7.4".into()));
        assert_eq!(CpAsync::candidates().len(), 384);
    }

    /// §9.7.9.25.3.1: a register in the fourth slot is `src-size` when it is a 32-bit integer
    /// and `ignore-src` when it is a predicate; untyped, it parses as `ignore-src`.
    #[test]
    fn the_type_of_a_register_decides_src_size_or_ignore_src() {
        let Form::CpAsync(f) = inst("cp.async.cg.shared.global [s], [g], 16, n;").form else { panic!() };
        assert_eq!(f.src, CpAsyncSrc::IgnoreSrc);
        let sized = f.with_src_register(false);
        assert_eq!(sized.src, CpAsyncSrc::SrcSizeReg);
        assert_eq!(sized.with_src_register(true).src, CpAsyncSrc::IgnoreSrc);
        let kinds: Vec<_> = Form::CpAsync(sized).operands().into_iter().map(|o| o.kind).collect();
        assert_eq!(kinds[3], OperandKind::Reg(RegType::U32));
        assert_eq!(sized.check().unwrap().min_ptx.to_string(), "7.0", "src-size is as old as cp.async");
        let Form::CpAsync(imm) = inst("cp.async.cg.shared.global [s], [g], 16, 3;").form else { panic!() };
        assert_eq!(imm.with_src_register(false), imm, "an immediate stays an immediate");
    }
}
