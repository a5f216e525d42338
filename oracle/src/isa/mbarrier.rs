//! The mbarrier instructions (PTX ISA §9.7.13.15): one family, [`Mbarrier`], for every
//! `mbarrier.*` form the asynchronous-copy protocol uses — `init`, `inval`, `arrive`,
//! `arrive.expect_tx`, `arrive.noComplete`, `arrive_drop` (and its `.expect_tx`/`.noComplete`
//! forms), `expect_tx`, `complete_tx`, `test_wait{.parity}`, `try_wait{.parity}` and
//! `pending_count`.
//!
//! §9.7.13.15 is not among the spec excerpts this project was built from. The forms and their
//! requirements follow the CCCL wrappers (`cuda/__ptx/instructions/generated/mbarrier_*.h`: one
//! function per form, with its PTX string, PTX ISA version and minimum target), and ptxas
//! 13.5.37 is the authority on validity: every rule below was checked against it
//! (`ptxdiff validity --family mbarrier`); where a rule only reflects what ptxas does, its
//! comment says so. The PTX 9.4 additions (`.phase_type`, `.layout`, `check_layout`,
//! `.multicast::cluster::32b`) are not modelled.
//!
//! A form fixes the operation ([`MbarrierOp`]), the optional `.sem`, `.scope` and state space,
//! and which operands are present: whether the arrive-on state is returned in a register or
//! discarded with `_` (the only choice of `.shared::cluster` arrives), whether the optional
//! `count` of `arrive`/`arrive_drop` and the optional `suspendTimeHint` of `try_wait` appear.
//!
//! Invariant: `candidates()` enumerates, per operation, exactly the slots that operation has
//! (the other fields stay at their defaults, so there are no duplicates); `check()` rejects the
//! combinations ptxas rejects and derives the requirement from the PTX versions and targets of
//! the CCCL wrappers.

use super::operand::{AddrKind, Operand, OperandKind, OperandSpec};
use super::qualifier::{OpcodeWriter, TokenBag, FLAG};
use super::target::Requirement;
use super::types::{OrderSem, RegType, Scope, Space};
use super::{forbid, FormSpec, Illegal, ParseError};

/// The operation of an `mbarrier` instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MbarrierOp {
    /// `mbarrier.init`: sets the expected arrival count of phase 0.
    Init,
    /// `mbarrier.inval`: ends the object's life.
    Inval,
    /// `mbarrier.arrive`.
    Arrive,
    /// `mbarrier.arrive.expect_tx`: `expect_tx` then `arrive`.
    ArriveExpectTx,
    /// `mbarrier.arrive.noComplete`: an arrive that must not complete the phase.
    ArriveNoComplete,
    /// `mbarrier.arrive_drop`: arrive and lower the expected count of later phases.
    ArriveDrop,
    /// `mbarrier.arrive_drop.expect_tx`.
    ArriveDropExpectTx,
    /// `mbarrier.arrive_drop.noComplete`.
    ArriveDropNoComplete,
    /// `mbarrier.expect_tx`: raises the transaction count.
    ExpectTx,
    /// `mbarrier.complete_tx`: lowers the transaction count.
    CompleteTx,
    /// `mbarrier.test_wait` on a state token.
    TestWait,
    /// `mbarrier.test_wait.parity` on a phase parity.
    TestWaitParity,
    /// `mbarrier.try_wait` on a state token (may suspend for a bounded time).
    TryWait,
    /// `mbarrier.try_wait.parity` on a phase parity.
    TryWaitParity,
    /// `mbarrier.pending_count`: the pending arrival count a state token holds.
    PendingCount,
}

impl MbarrierOp {
    /// Every operation.
    pub const ALL: [MbarrierOp; 15] = [
        MbarrierOp::Init,
        MbarrierOp::Inval,
        MbarrierOp::Arrive,
        MbarrierOp::ArriveExpectTx,
        MbarrierOp::ArriveNoComplete,
        MbarrierOp::ArriveDrop,
        MbarrierOp::ArriveDropExpectTx,
        MbarrierOp::ArriveDropNoComplete,
        MbarrierOp::ExpectTx,
        MbarrierOp::CompleteTx,
        MbarrierOp::TestWait,
        MbarrierOp::TestWaitParity,
        MbarrierOp::TryWait,
        MbarrierOp::TryWaitParity,
        MbarrierOp::PendingCount,
    ];

    /// The opcode tokens after `mbarrier`, before the qualifiers.
    pub fn tokens(self) -> &'static [&'static str] {
        use MbarrierOp::*;
        match self {
            Init => &["init"],
            Inval => &["inval"],
            Arrive => &["arrive"],
            ArriveExpectTx => &["arrive", "expect_tx"],
            ArriveNoComplete => &["arrive", "noComplete"],
            ArriveDrop => &["arrive_drop"],
            ArriveDropExpectTx => &["arrive_drop", "expect_tx"],
            ArriveDropNoComplete => &["arrive_drop", "noComplete"],
            ExpectTx => &["expect_tx"],
            CompleteTx => &["complete_tx"],
            TestWait => &["test_wait"],
            TestWaitParity => &["test_wait", "parity"],
            TryWait => &["try_wait"],
            TryWaitParity => &["try_wait", "parity"],
            PendingCount => &["pending_count"],
        }
    }

    /// An arrive-on operation: it returns a state token (or `_`) and counts an arrival.
    pub fn is_arrive(self) -> bool {
        use MbarrierOp::*;
        matches!(
            self,
            Arrive | ArriveExpectTx | ArriveNoComplete | ArriveDrop | ArriveDropExpectTx | ArriveDropNoComplete
        )
    }

    /// A wait: `test_wait` or `try_wait`, with or without `.parity`.
    pub fn is_wait(self) -> bool {
        matches!(
            self,
            MbarrierOp::TestWait | MbarrierOp::TestWaitParity | MbarrierOp::TryWait | MbarrierOp::TryWaitParity
        )
    }

    /// A `try_wait` form (the ones with the optional `suspendTimeHint`).
    pub fn is_try_wait(self) -> bool {
        matches!(self, MbarrierOp::TryWait | MbarrierOp::TryWaitParity)
    }

    /// An operation that changes the transaction count by a `txCount` operand.
    pub fn has_tx_count(self) -> bool {
        use MbarrierOp::*;
        matches!(self, ArriveExpectTx | ArriveDropExpectTx | ExpectTx | CompleteTx)
    }

    /// The `.noComplete` arrives, whose `count` is mandatory.
    pub fn is_no_complete(self) -> bool {
        matches!(self, MbarrierOp::ArriveNoComplete | MbarrierOp::ArriveDropNoComplete)
    }

    /// The operations whose `count` operand is optional.
    fn count_optional(self) -> bool {
        matches!(self, MbarrierOp::Arrive | MbarrierOp::ArriveDrop)
    }

    /// The `.sem` values the syntax lists for the operation.
    fn sems(self) -> &'static [OrderSem] {
        use MbarrierOp::*;
        match self {
            Init | Inval | PendingCount => &[],
            _ if self.is_arrive() => &[OrderSem::Release, OrderSem::Relaxed],
            ExpectTx | CompleteTx => &[OrderSem::Relaxed],
            _ => &[OrderSem::Acquire, OrderSem::Relaxed],
        }
    }

    /// The state spaces the syntax lists for the operation (besides none: generic addressing).
    fn spaces(self) -> &'static [Space] {
        use MbarrierOp::*;
        match self {
            PendingCount => &[],
            _ if self.is_arrive() || self.has_tx_count() => &[Space::Shared, Space::SharedCta, Space::SharedCluster],
            _ => &[Space::Shared, Space::SharedCta],
        }
    }
}

/// The scopes mbarrier operations take.
const MBARRIER_SCOPES: [Scope; 2] = [Scope::Cta, Scope::Cluster];

/// One `mbarrier` form (§9.7.13.15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mbarrier {
    /// The operation.
    pub op: MbarrierOp,
    /// `.sem`: `.release`/`.relaxed` on arrives, `.acquire`/`.relaxed` on waits, `.relaxed` on
    /// `expect_tx`/`complete_tx`.
    pub sem: Option<OrderSem>,
    /// `.scope`: `.cta` or `.cluster`.
    pub scope: Option<Scope>,
    /// The state space of `[addr]`: `.shared`, `.shared::cta`, `.shared::cluster`, or none
    /// (generic addressing).
    pub space: Option<Space>,
    /// Arrives: the `state` destination is the sink `_` rather than a `.b64` register.
    pub sink_state: bool,
    /// `arrive`/`arrive_drop`: the optional `count` operand is present (always `true` for the
    /// `.noComplete` forms, whose `count` is mandatory).
    pub count: bool,
    /// `try_wait`: the optional `suspendTimeHint` operand is present.
    pub suspend_hint: bool,
}

impl Mbarrier {
    /// The form of `op` with no optional qualifier or operand.
    pub fn base(op: MbarrierOp) -> Mbarrier {
        Mbarrier {
            op,
            sem: None,
            scope: None,
            space: None,
            sink_state: false,
            count: op.is_no_complete(),
            suspend_hint: false,
        }
    }

    /// The address operand `[addr]` for the form's space.
    fn addr_kind(&self) -> AddrKind {
        match self.space {
            Some(Space::Shared | Space::SharedCta) => AddrKind::Mbarrier,
            _ => AddrKind::MbarrierGeneric,
        }
    }
}

const U32_OPERAND: OperandKind = OperandKind::RegOrImm(RegType::U32);

impl FormSpec for Mbarrier {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for op in MbarrierOp::ALL {
            let sems: Vec<Option<OrderSem>> =
                std::iter::once(None).chain(op.sems().iter().copied().map(Some)).collect();
            let scopes: Vec<Option<Scope>> = if op.sems().is_empty() {
                vec![None]
            } else {
                std::iter::once(None).chain(MBARRIER_SCOPES.iter().copied().map(Some)).collect()
            };
            let spaces: Vec<Option<Space>> =
                std::iter::once(None).chain(op.spaces().iter().copied().map(Some)).collect();
            let sinks: &[bool] = if op.is_arrive() { &FLAG } else { &[false] };
            let counts: &[bool] = if op.count_optional() { &FLAG } else { &[op.is_no_complete()] };
            let hints: &[bool] = if op.is_try_wait() { &FLAG } else { &[false] };
            for &sem in &sems {
                for &scope in &scopes {
                    for &space in &spaces {
                        for &sink_state in sinks {
                            for &count in counts {
                                for &suspend_hint in hints {
                                    out.push(Mbarrier { op, sem, scope, space, sink_state, count, suspend_hint });
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
        let mut w = OpcodeWriter::new();
        w.lit("mbarrier");
        for t in self.op.tokens() {
            w.lit(t);
        }
        w.opt(self.sem).opt(self.scope).opt(self.space).lit("b64");
        w.finish()
    }

    fn parse(bag: &mut TokenBag<'_>, operands: &[Operand]) -> Result<Self, ParseError> {
        use MbarrierOp::*;
        let op = if bag.flag("arrive") {
            if bag.flag("expect_tx") {
                ArriveExpectTx
            } else if bag.flag("noComplete") {
                ArriveNoComplete
            } else {
                Arrive
            }
        } else if bag.flag("arrive_drop") {
            if bag.flag("expect_tx") {
                ArriveDropExpectTx
            } else if bag.flag("noComplete") {
                ArriveDropNoComplete
            } else {
                ArriveDrop
            }
        } else if bag.flag("test_wait") {
            if bag.flag("parity") {
                TestWaitParity
            } else {
                TestWait
            }
        } else if bag.flag("try_wait") {
            if bag.flag("parity") {
                TryWaitParity
            } else {
                TryWait
            }
        } else if bag.flag("init") {
            Init
        } else if bag.flag("inval") {
            Inval
        } else if bag.flag("expect_tx") {
            ExpectTx
        } else if bag.flag("complete_tx") {
            CompleteTx
        } else if bag.flag("pending_count") {
            PendingCount
        } else {
            return Err(ParseError::new(
                bag.opcode(),
                "missing the mbarrier operation (init, inval, arrive, arrive_drop, expect_tx, complete_tx, test_wait, try_wait, pending_count)",
            ));
        };
        let sem = bag.take();
        let scope = bag.take();
        let space = bag.take();
        bag.expect("b64")?;
        let mut form = Mbarrier { op, sem, scope, space, ..Mbarrier::base(op) };
        if op.is_arrive() {
            form.sink_state = matches!(operands.first(), Some(Operand::Sink));
        }
        if op.count_optional() {
            form.count = operands.len() == 3;
        }
        if op.is_try_wait() {
            form.suspend_hint = operands.len() == 4;
        }
        Ok(form)
    }

    fn operands(&self) -> Vec<OperandSpec> {
        use MbarrierOp::*;
        let addr = OperandSpec::src("addr", OperandKind::Addr(self.addr_kind()));
        let state_dst = if self.sink_state {
            OperandSpec::dst("state", OperandKind::Sink)
        } else {
            OperandSpec::dst("state", OperandKind::Reg(RegType::B64))
        };
        let mut ops = match self.op {
            Init => vec![addr, OperandSpec::src("count", U32_OPERAND)],
            Inval => vec![addr],
            ExpectTx | CompleteTx => vec![addr, OperandSpec::src("txCount", U32_OPERAND)],
            ArriveExpectTx | ArriveDropExpectTx => {
                vec![state_dst, addr, OperandSpec::src("txCount", U32_OPERAND)]
            }
            Arrive | ArriveNoComplete | ArriveDrop | ArriveDropNoComplete => {
                let mut v = vec![state_dst, addr];
                if self.count {
                    v.push(OperandSpec::src("count", U32_OPERAND));
                }
                v
            }
            TestWait | TryWait => vec![
                OperandSpec::dst("waitComplete", OperandKind::Pred),
                addr,
                OperandSpec::src("state", OperandKind::Reg(RegType::B64)),
            ],
            TestWaitParity | TryWaitParity => vec![
                OperandSpec::dst("waitComplete", OperandKind::Pred),
                addr,
                OperandSpec::src("phaseParity", U32_OPERAND),
            ],
            PendingCount => vec![
                OperandSpec::dst("pendingCount", OperandKind::Reg(RegType::U32)),
                OperandSpec::src("state", OperandKind::Reg(RegType::B64)),
            ],
        };
        if self.suspend_hint {
            ops.push(OperandSpec::src("suspendTimeHint", U32_OPERAND));
        }
        ops
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        use MbarrierOp::*;
        let op = self.op;
        if let Some(sem) = self.sem {
            forbid(!op.sems().contains(&sem), "this mbarrier operation does not take this `.sem` (§9.7.13.15)")?;
        }
        if let Some(scope) = self.scope {
            forbid(
                op.sems().is_empty() || !MBARRIER_SCOPES.contains(&scope),
                "mbarrier `.scope` is `.cta` or `.cluster`, on operations with a `.sem` (§9.7.13.15)",
            )?;
        }
        // ptxas 13.5: "Modifier '.release' requires scope", "Modifier '.cta' requires order".
        forbid(self.sem.is_some() != self.scope.is_some(), "mbarrier `.sem` and `.scope` go together (ptxas 13.5)")?;
        // ptxas 13.5: "Modifier '.relaxed' cannot be combined with modifier '.noComplete'".
        // ptxas 13.5: "Modifier '.cluster' (and '.shared::cluster') cannot be combined with
        // modifier '.noComplete'".
        forbid(
            op.is_no_complete()
                && (self.sem == Some(OrderSem::Relaxed)
                    || self.scope == Some(Scope::Cluster)
                    || self.space == Some(Space::SharedCluster)),
            "`.noComplete` arrives are `.release.cta` at most, on a CTA-local mbarrier (ptxas 13.5)",
        )?;
        if let Some(space) = self.space {
            forbid(
                !op.spaces().contains(&space),
                "this mbarrier operation does not take this state space (§9.7.13.15)",
            )?;
        }
        forbid(self.sink_state && !op.is_arrive(), "only arrives have a `state` destination")?;
        forbid(self.count && !(op.count_optional() || op.is_no_complete()), "no `count` operand here")?;
        forbid(op.is_no_complete() && !self.count, "`.noComplete` arrives take a mandatory `count` (§9.7.13.15)")?;
        forbid(self.suspend_hint && !op.is_try_wait(), "only `try_wait` takes `suspendTimeHint` (§9.7.13.15)")?;
        let cluster = self.space == Some(Space::SharedCluster);
        forbid(
            cluster && op.is_arrive() && !self.sink_state,
            "an arrive on a `.shared::cluster` mbarrier returns no state: the destination must be `_` (§9.7.13.15)",
        )?;

        // Base requirements (CCCL wrappers, PTX ISA/target of each form).
        let mut req = match op {
            Init | Inval | Arrive | ArriveNoComplete | ArriveDrop | ArriveDropNoComplete | TestWait | PendingCount => {
                Requirement::new(80, 7, 0)
            }
            TestWaitParity => Requirement::new(80, 7, 1),
            TryWait | TryWaitParity => Requirement::new(90, 7, 8),
            ArriveExpectTx | ArriveDropExpectTx | ExpectTx | CompleteTx => Requirement::new(90, 8, 0),
        };
        if self.count && op.count_optional() {
            // `mbarrier.arrive.shared::cta.b64 state, [addr], count` (PTX ISA 7.8, sm_90).
            req = req.sm(90).ptx(7, 8);
        }
        // ptxas 13.5 at PTX ISA 7.0: "Result discard mode is not allowed for instruction
        // 'mbarrier.arrive'"; from 7.1 on it assembles `_`, and `arrive_drop` takes it at 7.0.
        if self.sink_state && matches!(op, Arrive | ArriveNoComplete) {
            req = req.ptx(7, 1);
        }
        match self.space {
            Some(Space::SharedCta) => req = req.ptx(7, 8),
            Some(Space::SharedCluster) => req = req.sm(90).ptx(8, 0),
            _ => {}
        }
        if self.sem.is_some() || self.scope.is_some() {
            req = req.ptx(8, 0);
        }
        // `.relaxed` arrives and waits are PTX ISA 8.6; `expect_tx`/`complete_tx` only ever had
        // `.relaxed` (PTX ISA 8.0, as ptxas 13.5 agrees).
        if self.sem == Some(OrderSem::Relaxed) && !matches!(op, ExpectTx | CompleteTx) {
            req = req.sm(90).ptx(8, 6);
        }
        if self.scope == Some(Scope::Cluster) {
            req = req.sm(90);
        }
        Ok(req)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::test_util::{assert_illegal, assert_legal, inst};
    use crate::isa::Form;

    #[test]
    fn protocol_forms_are_legal() {
        assert_legal(&[
            "mbarrier.init.shared::cta.b64 [bar], 1;",
            "mbarrier.init.shared.b64 [bar], %r1;",
            "mbarrier.inval.shared::cta.b64 [bar];",
            "mbarrier.arrive.shared::cta.b64 %rd1, [bar];",
            "mbarrier.arrive.release.cta.shared::cta.b64 %rd1, [bar], 2;",
            "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%rd2];",
            "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 4096;",
            "mbarrier.arrive.noComplete.shared.b64 %rd1, [bar], 1;",
            "mbarrier.arrive_drop.shared.b64 %rd1, [bar];",
            "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 16;",
            "mbarrier.complete_tx.shared::cta.b64 [bar], 16;",
            "mbarrier.test_wait.shared::cta.b64 p, [bar], %rd1;",
            "mbarrier.test_wait.parity.acquire.cta.shared::cta.b64 p, [bar], 0;",
            "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], %r1;",
            "mbarrier.try_wait.shared::cta.b64 p, [bar], %rd1, 1000;",
            "mbarrier.pending_count.b64 %r1, %rd1;",
        ]);
    }

    #[test]
    fn rules_reject_what_ptxas_rejects() {
        assert_illegal(&[
            "mbarrier.arrive.shared::cluster.b64 %rd1, [%rd2];",
            "mbarrier.arrive.noComplete.release.cluster.shared.b64 %rd1, [bar], 1;",
            "mbarrier.arrive.noComplete.relaxed.cta.shared.b64 %rd1, [bar], 1;",
            "mbarrier.arrive.release.shared.b64 %rd1, [bar];",
            "mbarrier.init.release.cta.shared.b64 [bar], 1;",
            "mbarrier.test_wait.release.cta.shared.b64 p, [bar], %rd1;",
            "mbarrier.expect_tx.release.cta.shared.b64 [bar], 1;",
            "mbarrier.arrive.release.gpu.shared.b64 %rd1, [bar];",
            "mbarrier.init.global.b64 [bar], 1;",
        ]);
    }

    #[test]
    fn operands_decide_the_optional_slots() {
        let Form::Mbarrier(m) = inst("mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 1, 50;").form else {
            panic!()
        };
        assert!(m.suspend_hint && m.op == MbarrierOp::TryWaitParity);
        let Form::Mbarrier(m) = inst("mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 16;").form else { panic!() };
        assert!(m.sink_state && m.op == MbarrierOp::ArriveExpectTx);
        let Form::Mbarrier(m) = inst("mbarrier.arrive.shared.b64 %rd1, [bar], 3;").form else { panic!() };
        assert!(m.count && !m.sink_state);
        let r = m.check().unwrap();
        assert_eq!((r.min_sm, r.min_ptx.to_string()), (90, "7.8".into()));
        assert!("mbarrier.arrive.shared.b64 %rd1, [bar], 3, 4;".parse::<crate::isa::Instruction>().is_err());
        assert!("mbarrier.arrive.noComplete.shared.b64 %rd1, [bar];".parse::<crate::isa::Instruction>().is_err());
        assert!("mbarrier.arrive.shared [bar];".parse::<crate::isa::Instruction>().is_err());
    }
}
