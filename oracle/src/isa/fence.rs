//! The fences the asynchronous-copy protocol needs (PTX ISA §9.7.13.4, `membar`/`fence`): one
//! family, [`Fence`], for
//! - `fence{.sem}.scope` — the ordering fence ([`FenceKind::Order`]);
//! - `fence.proxy.async{.space}` and `fence.proxy.alias` — proxy fences ([`FenceKind::Proxy`]);
//! - `fence.mbarrier_init.release.cluster` ([`FenceKind::MbarrierInit`]);
//! - `fence.proxy.tensormap::generic.{release,acquire,acq_rel}.scope`
//!   ([`FenceKind::ProxyTensormap`]; the acquire form names the tensor map: `[addr], 128`);
//! - and, in its own family, [`TensormapCpFenceproxy`]: `tensormap.cp_fenceproxy`, the copy of a
//!   tensor-map object from `.shared::cta` to `.global` fused with a release tensormap-proxy
//!   fence (§9.7.13.16 of PTX ISA 9.0, not among the spec excerpts either: its syntax follows
//!   the CCCL wrapper `tensormap_cp_fenceproxy.h`, PTX ISA 8.3, `sm_90`).
//!
//! §9.7.13.4 is not among the spec excerpts this project was built from: the forms and their
//! requirements follow the CCCL wrappers (`cuda/__ptx/instructions/generated/fence*.h`, one
//! function per form with its PTX string, PTX ISA version and minimum target), and ptxas 13.5.37
//! is the authority on validity (`ptxdiff validity --family fence`). The `sync_restrict`,
//! `async::generic` and `fabric` proxy forms (PTX 8.6+) are not modelled, nor `membar`.
//!
//! Invariant: `candidates()` is every kind (with every async-proxy space) × optional `.sem` ×
//! optional `.scope` (`tensormap.cp_fenceproxy`: × optional `.scope`); `check()` admits the
//! combinations the wrappers list.

use super::operand::{AddrKind, Operand, OperandKind, OperandSpec};
use super::qualifier::{opt, OpcodeWriter, TokenBag};
use super::target::Requirement;
use super::types::{OrderSem, Scope};
use super::{forbid, FormSpec, Illegal, ParseError};
use crate::qualifiers;

qualifiers! {
    /// The state space of `fence.proxy.async` (none: all state spaces).
    pub enum AsyncProxySpace { Global = "global", SharedCta = "shared::cta", SharedCluster = "shared::cluster" }
}

/// Which proxy a `fence.proxy` orders the generic proxy against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProxyKind {
    /// `fence.proxy.async{.space}`: generic ↔ async proxy (bulk and tensor copies), for one
    /// state space or (`None`) all of them.
    Async(Option<AsyncProxySpace>),
    /// `fence.proxy.alias`: accesses to the same memory through different virtual addresses.
    Alias,
}

/// What a fence orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FenceKind {
    /// A proxy fence.
    Proxy(ProxyKind),
    /// `fence.mbarrier_init`: makes prior `mbarrier.init`s visible to the cluster and the async
    /// proxy.
    MbarrierInit,
    /// `fence.proxy.tensormap::generic`: orders generic writes of a tensor map against its use
    /// by the tensormap proxy.
    ProxyTensormap,
    /// `fence{.sem}.scope`: a memory-ordering fence.
    Order,
}

impl FenceKind {
    /// Every kind.
    pub fn all() -> Vec<FenceKind> {
        let mut v: Vec<FenceKind> = opt::<AsyncProxySpace>().map(|s| FenceKind::Proxy(ProxyKind::Async(s))).collect();
        v.extend([
            FenceKind::Proxy(ProxyKind::Alias),
            FenceKind::MbarrierInit,
            FenceKind::ProxyTensormap,
            FenceKind::Order,
        ]);
        v
    }
}

/// The spelling `.tensormap::generic`.
const TENSORMAP_GENERIC: &str = "tensormap::generic";

/// One `fence` form (§9.7.13.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fence {
    /// What the fence orders.
    pub kind: FenceKind,
    /// `.sem`.
    pub sem: Option<OrderSem>,
    /// `.scope`.
    pub scope: Option<Scope>,
}

impl FormSpec for Fence {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for kind in FenceKind::all() {
            for sem in opt::<OrderSem>() {
                for scope in opt::<Scope>() {
                    out.push(Fence { kind, sem, scope });
                }
            }
        }
        out
    }

    fn opcode(&self) -> String {
        let mut w = OpcodeWriter::new();
        w.lit("fence");
        match self.kind {
            FenceKind::Proxy(ProxyKind::Async(space)) => {
                w.lit("proxy").lit("async").opt(space);
            }
            FenceKind::Proxy(ProxyKind::Alias) => {
                w.lit("proxy").lit("alias");
            }
            FenceKind::MbarrierInit => {
                w.lit("mbarrier_init");
            }
            FenceKind::ProxyTensormap => {
                w.lit("proxy").lit(TENSORMAP_GENERIC);
            }
            FenceKind::Order => {}
        }
        w.opt(self.sem).opt(self.scope).finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        let kind = if bag.flag("proxy") {
            if bag.flag("async") {
                FenceKind::Proxy(ProxyKind::Async(bag.take()))
            } else if bag.flag("alias") {
                FenceKind::Proxy(ProxyKind::Alias)
            } else if bag.flag(TENSORMAP_GENERIC) {
                FenceKind::ProxyTensormap
            } else {
                return Err(ParseError::new(
                    bag.opcode(),
                    "missing the proxy kind (`.async`, `.alias` or `.tensormap::generic`)",
                ));
            }
        } else if bag.flag("mbarrier_init") {
            FenceKind::MbarrierInit
        } else {
            FenceKind::Order
        };
        Ok(Fence { kind, sem: bag.take(), scope: bag.take() })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        if self.kind == FenceKind::ProxyTensormap && self.sem == Some(OrderSem::Acquire) {
            vec![
                OperandSpec::src("addr", OperandKind::Addr(AddrKind::Generic)),
                OperandSpec::src("size", OperandKind::Imm(128)),
            ]
        } else {
            Vec::new()
        }
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        use OrderSem::*;
        match self.kind {
            FenceKind::Order => {
                forbid(self.scope.is_none(), "`fence{.sem}.scope` needs a `.scope` (§9.7.13.4)")?;
                forbid(self.sem == Some(Relaxed), "`fence` has no `.relaxed` (§9.7.13.4)")?;
                let mut req = Requirement::new(70, 6, 0);
                if self.scope == Some(Scope::Cluster) {
                    req = req.sm(90).ptx(7, 8);
                }
                if matches!(self.sem, Some(Acquire | Release)) {
                    req = req.sm(90).ptx(8, 6);
                }
                Ok(req)
            }
            FenceKind::Proxy(proxy) => {
                forbid(
                    self.sem.is_some() || self.scope.is_some(),
                    "`fence.proxy.async` and `fence.proxy.alias` take no `.sem` or `.scope` (§9.7.13.4)",
                )?;
                Ok(match proxy {
                    ProxyKind::Async(_) => Requirement::new(90, 8, 0),
                    ProxyKind::Alias => Requirement::new(70, 7, 5),
                })
            }
            FenceKind::MbarrierInit => {
                forbid(
                    self.sem != Some(Release) || self.scope != Some(Scope::Cluster),
                    "`fence.mbarrier_init` exists only as `.release.cluster` (§9.7.13.4)",
                )?;
                Ok(Requirement::new(90, 8, 0))
            }
            FenceKind::ProxyTensormap => {
                // The wrappers list `.release` (no operands) and `.acquire` (`[addr], 128`);
                // ptxas 13.5 also assembles `.acq_rel` (modelled without operands).
                forbid(
                    !matches!(self.sem, Some(Release | Acquire | AcqRel)) || self.scope.is_none(),
                    "`fence.proxy.tensormap::generic` needs `.release`, `.acquire` or `.acq_rel` and a `.scope` (§9.7.13.4; ptxas 13.5)",
                )?;
                Ok(Requirement::new(90, 8, 3))
            }
        }
    }
}

/// `tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned
/// [dst], [src], 128` (§9.7.13.16, PTX ISA 8.3, `sm_90`): copies the 128-byte tensor-map object
/// at `src` in the executing CTA's shared memory to `dst` in global memory and releases it to
/// the tensormap proxy at `.scope` (a consumer then acquires it with
/// `fence.proxy.tensormap::generic.acquire.scope [dst], 128`). Every thread of the warp
/// executes it together (`.sync.aligned`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TensormapCpFenceproxy {
    /// `.scope` of the release.
    pub scope: Option<Scope>,
}

/// The fixed tokens of `tensormap.cp_fenceproxy` after the mnemonic's first token, in order:
/// `.cp_qualifiers`, `.to_proxy::from_proxy` and `.release` (before the scope), `.sync.aligned`
/// (after it).
const CP_FENCEPROXY_HEAD: [&str; 5] = ["cp_fenceproxy", "global", "shared::cta", TENSORMAP_GENERIC, "release"];

impl FormSpec for TensormapCpFenceproxy {
    fn candidates() -> Vec<Self> {
        opt::<Scope>().map(|scope| TensormapCpFenceproxy { scope }).collect()
    }

    fn opcode(&self) -> String {
        let mut w = OpcodeWriter::new();
        w.lit("tensormap");
        for t in CP_FENCEPROXY_HEAD {
            w.lit(t);
        }
        w.opt(self.scope).lit("sync").lit("aligned").finish()
    }

    fn parse(bag: &mut TokenBag<'_>, operands: &[Operand]) -> Result<Self, ParseError> {
        if operands.get(2).is_some_and(|o| *o != Operand::Imm(super::operand::Imm::Int(128))) {
            return Err(ParseError::new(
                bag.opcode(),
                "`size` must be 128, the bytes of a tensor-map object (§9.7.13.16)",
            ));
        }
        for t in CP_FENCEPROXY_HEAD.into_iter().chain(["sync", "aligned"]) {
            bag.expect(t)?;
        }
        Ok(TensormapCpFenceproxy { scope: bag.take() })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        vec![
            OperandSpec::dst("dst", OperandKind::Addr(AddrKind::Global)),
            OperandSpec::src("src", OperandKind::Addr(AddrKind::SharedCta)),
            OperandSpec::src("size", OperandKind::Imm(128)),
        ]
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        forbid(self.scope.is_none(), "`tensormap.cp_fenceproxy` needs a `.scope` (§9.7.13.16)")?;
        Ok(Requirement::new(90, 8, 3))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::test_util::{assert_illegal, assert_legal, inst};
    use crate::isa::Form;

    #[test]
    fn protocol_fences_are_legal() {
        assert_legal(&[
            "fence.proxy.async;",
            "fence.proxy.async.shared::cta;",
            "fence.proxy.async.global;",
            "fence.proxy.async.shared::cluster;",
            "fence.proxy.alias;",
            "fence.mbarrier_init.release.cluster;",
            "fence.proxy.tensormap::generic.release.gpu;",
            "fence.proxy.tensormap::generic.acquire.cta [%rd1], 128;",
            "fence.sc.gpu;",
            "fence.acq_rel.cluster;",
            "fence.cta;",
        ]);
    }

    #[test]
    fn rules_reject_what_ptxas_rejects() {
        assert_illegal(&[
            "fence.proxy.async.release.gpu;",
            "fence.mbarrier_init.release.gpu;",
            "fence.mbarrier_init;",
            "fence.proxy.tensormap::generic.gpu;",
            "fence.sc;",
            "fence.relaxed.gpu;",
        ]);
    }

    #[test]
    fn kinds_parse_and_print() {
        let Form::Fence(f) = inst("fence.proxy.async.shared::cta;").form else { panic!() };
        assert_eq!(f.kind, FenceKind::Proxy(ProxyKind::Async(Some(AsyncProxySpace::SharedCta))));
        assert_eq!(inst("fence.cluster.sc;").form.opcode(), "fence.sc.cluster");
        assert!("fence.proxy.tensormap::generic.acquire.cta;".parse::<crate::isa::Instruction>().is_err());
        assert!("fence.proxy.bogus;".parse::<crate::isa::Instruction>().is_err());
        assert_eq!(Fence::candidates().len(), FenceKind::all().len() * 6 * 5);
    }

    /// `tensormap.cp_fenceproxy` (§9.7.13.16): the four scopes of the CCCL wrapper, PTX 8.3 on
    /// `sm_90`; any qualifier order parses to the canonical text; no scope, another proxy or
    /// another `.sem` is not the form.
    #[test]
    fn cp_fenceproxy_parses_prints_and_needs_sm_90() {
        use crate::isa::test_util::valid_on;
        let canon = "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned";
        let f = inst(&format!("{canon} [%rd1], [%r1], 128;")).form;
        assert_eq!(f, Form::TensormapCpFenceproxy(TensormapCpFenceproxy { scope: Some(Scope::Gpu) }));
        assert_eq!(f.opcode(), canon);
        let shuffled =
            "tensormap.cp_fenceproxy.shared::cta.global.sync.aligned.release.gpu.tensormap::generic [g], [s], 128;";
        assert_eq!(inst(shuffled).form, f);
        assert_legal(&[
            "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.cta.sync.aligned [g], [s], 128;",
            "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.cluster.sync.aligned [g], [s], 128;",
            "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.sys.sync.aligned [g], [s], 128;",
        ]);
        assert_illegal(&[
            "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.sync.aligned [g], [s], 128;",
        ]);
        for bad in [
            "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.acquire.gpu.sync.aligned [g], [s], 128;",
            "tensormap.cp_fenceproxy.global.shared::cta.release.gpu.sync.aligned [g], [s], 128;",
            "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.aligned [g], [s], 128;",
            "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [g], [s], 64;",
        ] {
            assert!(bad.parse::<crate::isa::Instruction>().is_err(), "{bad} parsed");
        }
        assert!(valid_on(shuffled, "sm_90") && !valid_on(shuffled, "sm_89"));
        assert!(valid_on(shuffled, "sm_90@8.3") && !valid_on(shuffled, "sm_90@8.2"));
        assert_eq!(TensormapCpFenceproxy::candidates().len(), 5);
    }
}
