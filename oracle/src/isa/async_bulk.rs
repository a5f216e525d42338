//! Bulk (non-tensor) asynchronous copies: `cp.async.bulk` (§9.7.9.25.4.1),
//! `cp.reduce.async.bulk` (§9.7.9.25.4.2), `cp.async.bulk.prefetch` (§9.7.9.25.4.3), and the
//! bulk async-group completion instructions `cp.async.bulk.commit_group` (§9.7.9.25.6.1) and
//! `cp.async.bulk.wait_group` (§9.7.9.25.6.2).
//!
//! The `.dst`/`.src` state spaces and the completion mechanism are enumerated freely
//! ([`BulkSpace`] × [`BulkSpace`] × [`Completion`]); `check()` admits only the directions the
//! syntax blocks list, each with its own completion mechanism. Optional operands (`ctaMask`,
//! `cache-policy`, `byteMask`, `[mbar]`) follow from the qualifiers (`.multicast::cluster`,
//! `.L2::cache_hint`, `.cp_mask`, `.mbarrier::complete_tx::bytes`), so they need no field.
//! The enums declared here are shared with the tensor copies (`tensor.rs`).

use super::async_group::single_form;
use super::operand::{AddrKind, Operand, OperandKind, OperandSpec};
use super::qualifier::{OpcodeWriter, Qualifier, TokenBag, FLAG};
use super::target::Requirement;
use super::types::{RegType, CACHE_HINT};
use super::{forbid, FormSpec, Illegal, ParseError};
use crate::qualifiers;

qualifiers! {
    /// The state spaces that bulk and tensor copies name as `.dst` and `.src`.
    pub enum BulkSpace {
        Global = "global", SharedCta = "shared::cta", SharedCluster = "shared::cluster",
    }

    /// `.completion_mechanism` (§9.7.9.25.1).
    pub enum Completion {
        Mbarrier = "mbarrier::complete_tx::bytes", BulkGroup = "bulk_group",
    }

    /// `.redOp` of the bulk and tensor reductions.
    pub enum RedOp {
        And = "and", Or = "or", Xor = "xor", Add = "add", Inc = "inc", Dec = "dec",
        Min = "min", Max = "max",
    }

    /// `.type` of `cp.reduce.async.bulk`.
    pub enum ReduceType {
        F16 = "f16", Bf16 = "bf16", B32 = "b32", U32 = "u32", S32 = "s32",
        B64 = "b64", U64 = "u64", S64 = "s64", F32 = "f32", F64 = "f64",
    }
}

impl BulkSpace {
    /// The address the probe harness supplies for an operand in this space.
    pub fn addr(self) -> AddrKind {
        match self {
            BulkSpace::Global => AddrKind::Global,
            BulkSpace::SharedCta => AddrKind::SharedCta,
            BulkSpace::SharedCluster => AddrKind::SharedCluster,
        }
    }
}

/// The spelling `.multicast::cluster`.
pub const MULTICAST: &str = "multicast::cluster";

/// The operand `[mbar]`: an mbarrier object in `.shared`.
pub const MBAR: OperandSpec = OperandSpec::src("mbar", OperandKind::Addr(AddrKind::Mbarrier));
/// The operand `ctaMask`: a 16-bit register.
pub const CTA_MASK: OperandSpec = OperandSpec::src("ctaMask", OperandKind::Reg(RegType::B16));
/// The operand `cache-policy`: a 64-bit register.
pub const CACHE_POLICY: OperandSpec = OperandSpec::src("cache-policy", OperandKind::Reg(RegType::B64));
/// The operand `size`: a 32-bit register or immediate.
const SIZE: OperandSpec = OperandSpec::src("size", OperandKind::RegOrImm(RegType::U32));

/// The leading operands of `cp.async.bulk` and `cp.reduce.async.bulk`: `[dstMem]`, `[srcMem]`,
/// `size`, and `[mbar]` with the mbarrier completion mechanism.
fn copy_operands(dst: BulkSpace, src: BulkSpace, completion: Completion) -> Vec<OperandSpec> {
    let mut ops = vec![
        OperandSpec::dst("dstMem", OperandKind::Addr(dst.addr())),
        OperandSpec::src("srcMem", OperandKind::Addr(src.addr())),
        SIZE,
    ];
    if completion == Completion::Mbarrier {
        ops.push(MBAR);
    }
    ops
}

/// One `cp.async.bulk` form (§9.7.9.25.4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CpAsyncBulk {
    /// `.dst`.
    pub dst: BulkSpace,
    /// `.src`.
    pub src: BulkSpace,
    /// `.completion_mechanism`.
    pub completion: Completion,
    /// `.multicast::cluster` (with the `ctaMask` operand).
    pub multicast: bool,
    /// `.L2::cache_hint` (with the `cache-policy` operand).
    pub cache_hint: bool,
    /// `.cp_mask` (with the `byteMask` operand).
    pub cp_mask: bool,
}

impl FormSpec for CpAsyncBulk {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for &dst in BulkSpace::ALL {
            for &src in BulkSpace::ALL {
                for &completion in Completion::ALL {
                    for multicast in FLAG {
                        for cache_hint in FLAG {
                            for cp_mask in FLAG {
                                out.push(CpAsyncBulk { dst, src, completion, multicast, cache_hint, cp_mask });
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
            .lit("bulk")
            .q(self.dst)
            .q(self.src)
            .q(self.completion)
            .flag(self.multicast, MULTICAST)
            .flag(self.cache_hint, CACHE_HINT)
            .flag(self.cp_mask, "cp_mask")
            .finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        bag.expect("async")?;
        bag.expect("bulk")?;
        Ok(CpAsyncBulk {
            dst: bag.require("destination state space")?,
            src: bag.require("source state space")?,
            completion: bag.require("completion mechanism")?,
            multicast: bag.flag(MULTICAST),
            cache_hint: bag.flag(CACHE_HINT),
            cp_mask: bag.flag("cp_mask"),
        })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        let mut ops = copy_operands(self.dst, self.src, self.completion);
        if self.multicast {
            ops.push(CTA_MASK);
        }
        if self.cache_hint {
            ops.push(CACHE_POLICY);
        }
        if self.cp_mask {
            ops.push(OperandSpec::src("byteMask", OperandKind::Reg(RegType::B16)));
        }
        ops
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        use BulkSpace::*;
        let need = match (self.dst, self.src) {
            (SharedCta, Global) | (SharedCluster, Global) | (SharedCluster, SharedCta) => Completion::Mbarrier,
            (Global, SharedCta) => Completion::BulkGroup,
            _ => {
                return Illegal::err(format!("no direction .{} ← .{} in the §9.7.9.25.4.1 syntax", self.dst, self.src))
            }
        };
        forbid(
            self.completion != need,
            "each direction has one completion mechanism: `.mbarrier::complete_tx::bytes` into shared memory, `.bulk_group` into `.global` (§9.7.9.25.4.1)",
        )?;
        forbid(
            self.multicast && (self.dst, self.src) != (SharedCluster, Global),
            "`.multicast::cluster` only copies `.global` → `.shared::cluster` (§9.7.9.25.4.1 syntax)",
        )?;
        // ptxas 13.5 rejects `.L2::cache_hint` on `.shared::cluster.shared::cta`, as the syntax
        // block says (the Description only asks for one `.global` side).
        forbid(
            self.cache_hint && (self.dst, self.src) == (SharedCluster, SharedCta),
            "`.L2::cache_hint` needs a `.global` side (§9.7.9.25.4.1 syntax)",
        )?;
        forbid(
            self.cp_mask && (self.dst, self.src) != (Global, SharedCta),
            "`.cp_mask` only exists for `.global` ← `.shared::cta` (§9.7.9.25.4.1 syntax)",
        )?;
        // `.multicast::cluster` is only "advised" for sm_90a/sm_100f/…: ptxas 13.5 accepts it
        // on plain sm_90 and sm_120a with an advisory warning, so it adds no gate.
        let mut req = Requirement::new(90, 8, 0);
        if self.dst == SharedCta {
            req = req.ptx(8, 6);
        }
        if self.cp_mask {
            req = req.sm(100).ptx(8, 6);
        }
        Ok(req)
    }
}

/// One `cp.reduce.async.bulk` form (§9.7.9.25.4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CpReduceAsyncBulk {
    /// `.dst`.
    pub dst: BulkSpace,
    /// `.src`.
    pub src: BulkSpace,
    /// `.completion_mechanism`.
    pub completion: Completion,
    /// `.L2::cache_hint` (with the `cache-policy` operand).
    pub cache_hint: bool,
    /// `.redOp`.
    pub redop: RedOp,
    /// `.noftz` (only `.add.noftz.f16`/`.bf16`).
    pub noftz: bool,
    /// `.type`.
    pub ty: ReduceType,
}

impl CpReduceAsyncBulk {
    /// The `.redOp`/`.type` table of §9.7.9.25.4.2, per destination.
    fn table_allows(dst: BulkSpace, op: RedOp, ty: ReduceType) -> bool {
        use ReduceType::*;
        let global = dst == BulkSpace::Global;
        match op {
            RedOp::Add if global => matches!(ty, U32 | S32 | U64 | F32 | F64 | F16 | Bf16),
            RedOp::Add => matches!(ty, U32 | S32 | U64),
            RedOp::Min | RedOp::Max if global => {
                matches!(ty, U32 | S32 | U64 | S64 | F16 | Bf16)
            }
            RedOp::Min | RedOp::Max => matches!(ty, U32 | S32),
            RedOp::Inc | RedOp::Dec => ty == U32,
            RedOp::And | RedOp::Or | RedOp::Xor if global => matches!(ty, B32 | B64),
            RedOp::And | RedOp::Or | RedOp::Xor => ty == B32,
        }
    }
}

/// Whether `.redOp` and `.type` form a pair of the §9.7.9.25.4.2 table for some destination
/// (the `.global` rows, which contain the `.shared::cluster` ones): the pairs an element
/// reduction (`semantics::reduce`) is defined for.
pub fn reduce_pair_allowed(op: RedOp, ty: ReduceType) -> bool {
    CpReduceAsyncBulk::table_allows(BulkSpace::Global, op, ty)
}

impl FormSpec for CpReduceAsyncBulk {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for &dst in BulkSpace::ALL {
            for &src in BulkSpace::ALL {
                for &completion in Completion::ALL {
                    for cache_hint in FLAG {
                        for &redop in RedOp::ALL {
                            for noftz in FLAG {
                                for &ty in ReduceType::ALL {
                                    out.push(CpReduceAsyncBulk { dst, src, completion, cache_hint, redop, noftz, ty });
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
            .lit("cp")
            .lit("reduce")
            .lit("async")
            .lit("bulk")
            .q(self.dst)
            .q(self.src)
            .q(self.completion)
            .flag(self.cache_hint, CACHE_HINT)
            .q(self.redop)
            .flag(self.noftz, "noftz")
            .q(self.ty)
            .finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        bag.expect("reduce")?;
        bag.expect("async")?;
        bag.expect("bulk")?;
        Ok(CpReduceAsyncBulk {
            dst: bag.require("destination state space")?,
            src: bag.require("source state space")?,
            completion: bag.require("completion mechanism")?,
            cache_hint: bag.flag(CACHE_HINT),
            redop: bag.require("reduction operation")?,
            noftz: bag.flag("noftz"),
            ty: bag.require("type")?,
        })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        let mut ops = copy_operands(self.dst, self.src, self.completion);
        if self.cache_hint {
            ops.push(CACHE_POLICY);
        }
        ops
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        use BulkSpace::*;
        // The completion table also lists `.shared::cluster` ← `.global` with an mbarrier, but
        // no syntax line spells it and ptxas 13.5 rejects it ("State space incorrect").
        let need = match (self.dst, self.src) {
            (SharedCluster, SharedCta) => Completion::Mbarrier,
            (Global, SharedCta) => Completion::BulkGroup,
            _ => {
                return Illegal::err(format!("no direction .{} ← .{} in the §9.7.9.25.4.2 syntax", self.dst, self.src))
            }
        };
        forbid(
            self.completion != need,
            "`.shared::cluster` destinations complete through the mbarrier, `.global` ones through `.bulk_group` (§9.7.9.25.4.2)",
        )?;
        forbid(
            self.cache_hint && self.dst != Global,
            "`.L2::cache_hint` needs a `.global` side (§9.7.9.25.4.2 syntax)",
        )?;
        forbid(
            !Self::table_allows(self.dst, self.redop, self.ty),
            "the `.redOp`/`.type` pair is not in the table of §9.7.9.25.4.2",
        )?;
        let half = matches!(self.ty, ReduceType::F16 | ReduceType::Bf16);
        let add_half = self.redop == RedOp::Add && half;
        forbid(self.noftz && !add_half, "`.noftz` only exists as `.add.noftz.f16`/`.bf16` (§9.7.9.25.4.2 syntax)")?;
        forbid(add_half && !self.noftz, "`.add.f16`/`.add.bf16` require `.noftz` (§9.7.9.25.4.2)")?;
        Ok(Requirement::new(90, 8, 0))
    }
}

/// One `cp.async.bulk.prefetch.L2.global` form (§9.7.9.25.4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CpAsyncBulkPrefetch {
    /// `.L2::cache_hint` (with the `cache-policy` operand).
    pub cache_hint: bool,
}

impl FormSpec for CpAsyncBulkPrefetch {
    fn candidates() -> Vec<Self> {
        FLAG.into_iter().map(|cache_hint| CpAsyncBulkPrefetch { cache_hint }).collect()
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new()
            .lit("cp")
            .lit("async")
            .lit("bulk")
            .lit("prefetch")
            .lit("L2")
            .lit("global")
            .flag(self.cache_hint, CACHE_HINT)
            .finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        for t in ["async", "bulk", "prefetch", "L2", "global"] {
            bag.expect(t)?;
        }
        Ok(CpAsyncBulkPrefetch { cache_hint: bag.flag(CACHE_HINT) })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        let mut ops = vec![OperandSpec::src("srcMem", OperandKind::Addr(AddrKind::Global)), SIZE];
        if self.cache_hint {
            ops.push(CACHE_POLICY);
        }
        ops
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        Ok(Requirement::new(90, 8, 0))
    }
}

/// `cp.async.bulk.commit_group` (§9.7.9.25.6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CpAsyncBulkCommitGroup;

single_form!(CpAsyncBulkCommitGroup, "cp.async.bulk.commit_group", vec![], Requirement::new(90, 8, 0));

/// `cp.async.bulk.wait_group{.read} N` (§9.7.9.25.6.2); `N` is an integer constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CpAsyncBulkWaitGroup {
    /// `.read`: wait only until the sources (and tensor-maps) have been read.
    pub read: bool,
}

impl FormSpec for CpAsyncBulkWaitGroup {
    fn candidates() -> Vec<Self> {
        FLAG.into_iter().map(|read| CpAsyncBulkWaitGroup { read }).collect()
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new().lit("cp").lit("async").lit("bulk").lit("wait_group").flag(self.read, "read").finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        for t in ["async", "bulk", "wait_group"] {
            bag.expect(t)?;
        }
        Ok(CpAsyncBulkWaitGroup { read: bag.flag("read") })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        vec![OperandSpec::src("N", OperandKind::Imm(1))]
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        Ok(Requirement::new(90, 8, 0))
    }
}

#[cfg(test)]
mod tests {
    use crate::isa::test_util::{assert_illegal, assert_legal, inst};

    #[test]
    fn spec_examples_are_legal() {
        assert_legal(&[
            "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [dstMem], [srcMem], size, [mbar];",
            "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes.L2::cache_hint [dstMem], [srcMem], size, [mbar], policy;",
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dstMem], [srcMem], size, [mbar];",
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [dstMem], [srcMem], size, [mbar], ctaMask;",
            "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [dstMem], [srcMem], size, [mbar];",
            "cp.async.bulk.global.shared::cta.bulk_group [dstMem], [srcMem], size;",
            "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.cp_mask [dstMem], [srcMem], size, policy, byteMask;",
            "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u64 [dstMem], [srcMem], size, [mbar];",
            "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.min.s32 [dstMem], [srcMem], size, [mbar];",
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.f16 [dstMem], [srcMem], size;",
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [dstMem], [srcMem], size;",
            "cp.async.bulk.prefetch.L2.global [srcMem], size;",
            "cp.async.bulk.prefetch.L2.global.L2::cache_hint [srcMem], size, policy;",
            "cp.async.bulk.commit_group;",
            "cp.async.bulk.wait_group.read 0;",
            "cp.async.bulk.wait_group 2;",
        ]);
    }

    #[test]
    fn rules_reject_what_the_spec_forbids() {
        assert_illegal(&[
            // cache hint on the shared → shared direction
            "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.L2::cache_hint [d], [s], 16, [mbar], pol;",
            // multicast into the executing CTA only
            "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes.multicast::cluster [d], [s], 16, [mbar], m;",
            // wrong completion mechanism
            "cp.async.bulk.global.shared::cta.mbarrier::complete_tx::bytes [d], [s], 16, [mbar];",
            // `.xor.s32` is not in the table (the spec's own example uses it)
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.xor.s32 [d], [s], 16, pol;",
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f16 [d], [s], 16;",
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.noftz.f16 [d], [s], 16;",
            "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.f32 [d], [s], 16, [mbar];",
        ]);
    }

    #[test]
    fn requirements_follow_the_notes() {
        let req = |s: &str| inst(s).form.check().unwrap();
        let r = req("cp.async.bulk.global.shared::cta.bulk_group.cp_mask [d], [s], 16, m;");
        assert_eq!((r.min_sm, r.min_ptx.to_string()), (100, "8.6".into()));
        let r = req("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [d], [s], 16, [mbar];");
        assert_eq!((r.min_sm, r.min_ptx.to_string()), (90, "8.6".into()));
        assert_eq!(inst("cp.async.bulk.wait_group.read 0;").form.opcode(), "cp.async.bulk.wait_group.read");
    }
}
