//! The typed statements of generated memory programs: what the episodes and the conformance
//! cases write, before it becomes the text of
//! [`MemSource::statements`](oracle::memprog::MemSource) (the JSON contract).
//!
//! An ISA statement is an [`Instruction`] of the ISA model (its form a typed value of
//! `oracle::isa`, its operands [`Operand`]s, its guard the instruction's); integer glue is a
//! [`GlueOp`] × [`GlueType`] of the oracle's glue set over *named* registers (the oracle's
//! [`Glue`] numbers its registers, memory programs name them); labels, branches, `bar.sync 0`
//! and `barrier.cluster` are the control statements memory programs have
//! ([`StmtKind`](oracle::memprog::StmtKind)).
//!
//! Invariant: [`Stmt`]'s `Display` is the one printer of generated statements, built from the
//! oracle's printers ([`Instruction`]'s and [`Operand`]'s `Display`, [`Glue::opcode`]); what
//! it prints, [`oracle::memprog::parse`] reads back as the same statement (this module's
//! tests, the episodes' round-trip test over thousands of programs and the conformance cases'
//! over every case of sm_90, sm_90a and sm_100a check it).

use std::fmt;

use oracle::isa::operand::{Imm, Operand};
use oracle::isa::types::{MemType, Scope, Space, VecWidth};
use oracle::isa::{
    symbol_kind, BulkSpace, Completion, CpAsyncBulk, Cvt, CvtType, Fence, FenceKind, Form, Guard, Instruction, Ld,
    Mbarrier, MbarrierOp, Mov, MovShape, MovType, St,
};
use oracle::program::{Glue, GlueOp, GlueType, Reg};

/// One statement of a generated memory program.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// An ISA instruction (with its guard, if any).
    Isa(Instruction),
    /// Integer glue over named registers.
    Glue(NamedGlue),
    /// `name:`.
    Label(String),
    /// `bra L;` under an optional guard (`@!p bra L;`).
    Bra {
        /// `@p` / `@!p`.
        guard: Option<Guard>,
        /// The label.
        label: String,
    },
    /// `bar.sync 0;` (the whole CTA).
    Bar,
    /// `barrier.cluster.arrive;` (release semantics, §9.7.13.3).
    ClusterArrive,
    /// `barrier.cluster.wait;` (acquire semantics, §9.7.13.3).
    ClusterWait,
}

/// `op.ty dst, src…;` of the oracle's glue set, registers by name.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedGlue {
    /// Opcode.
    pub op: GlueOp,
    /// Type.
    pub ty: GlueType,
    /// The destination register.
    pub dst: String,
    /// The sources: register names ([`Operand::Name`]) or integers ([`Operand::Imm`]).
    pub src: Vec<Operand>,
}

impl Stmt {
    /// The unguarded instruction `form operands`.
    pub fn isa(form: Form, operands: Vec<Operand>) -> Stmt {
        Stmt::Isa(Instruction { guard: None, form, operands })
    }

    /// Glue `op.ty dst, src…`.
    pub fn glue(op: GlueOp, ty: GlueType, dst: &str, src: Vec<Operand>) -> Stmt {
        Stmt::Glue(NamedGlue { op, ty, dst: dst.to_string(), src })
    }
}

impl fmt::Display for Stmt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stmt::Isa(i) => write!(f, "{i}"),
            Stmt::Glue(g) => {
                // The oracle's opcode text of (op, type); the registers are the placeholder
                // its own opcode table uses (only the opcode is printed from it).
                let opcode = Glue::new(g.op, g.ty, Reg::Virt(g.ty.class(), 0), &[]).opcode();
                write!(f, "{opcode} {}", g.dst)?;
                for s in &g.src {
                    write!(f, ", {s}")?;
                }
                f.write_str(";")
            }
            Stmt::Label(l) => write!(f, "{l}:"),
            Stmt::Bra { guard, label } => {
                if let Some(g) = guard {
                    write!(f, "@{}{} ", if g.negated { "!" } else { "" }, g.pred)?;
                }
                write!(f, "bra {label};")
            }
            Stmt::Bar => f.write_str("bar.sync 0;"),
            Stmt::ClusterArrive => f.write_str("barrier.cluster.arrive;"),
            Stmt::ClusterWait => f.write_str("barrier.cluster.wait;"),
        }
    }
}

/// A register or buffer name.
pub fn name(n: &str) -> Operand {
    Operand::Name(n.to_string())
}

/// An integer immediate.
pub fn imm(v: u64) -> Operand {
    Operand::Imm(Imm::Int(i128::from(v)))
}

/// The address `[base+offset]` (`[base]` at offset 0).
pub fn at(base: &str, offset: u64) -> Operand {
    Operand::Address { base: Some(base.to_string()), offset: offset as i64, unified: false }
}

/// The brace vector `{a, b, …}` of registers.
pub fn vector<S: AsRef<str>>(names: &[S]) -> Operand {
    Operand::Vector(names.iter().map(|n| name(n.as_ref())).collect())
}

/// The tensor reference `[map, {c0, …}]`.
pub fn tensor_ref<S: AsRef<str>>(map: &str, coords: &[S]) -> Operand {
    Operand::TensorRef { map: Box::new(name(map)), coords: coords.iter().map(|c| name(c.as_ref())).collect() }
}

/// `@p` (or `@!p` when `negated`).
pub fn guard(pred: &str, negated: bool) -> Guard {
    Guard { negated, pred: pred.to_string() }
}

/// `mov.ty` of an immediate or a register (`mov.u32 ph, 0`).
pub fn mov_value(ty: MovType) -> Form {
    Form::Mov(Mov { ty, shape: MovShape::Copy })
}

/// `mov.ty d, sreg` of a special register (`mov.u32 tid, %tid.x`).
pub fn mov_special(ty: MovType) -> Form {
    Form::Mov(Mov { ty, shape: MovShape::SpecialReg })
}

/// `mov.ty d, a` of a named operand: a buffer's address, or a register (memory programs
/// read a name there as a symbol and check a register's width: `oracle::memprog`).
pub fn mov_name(ty: MovType, a: &str) -> Form {
    Form::Mov(Mov { ty, shape: MovShape::Symbol(symbol_kind(a)) })
}

/// `cvt.dtype.atype` without rounding or saturation (`cvt.u64.u32`).
pub fn cvt(dtype: CvtType, atype: CvtType) -> Form {
    Form::Cvt(Cvt { rnd: None, ftz: false, sat: false, relu: false, satfinite: false, dtype, atype })
}

/// `ld{.space}{.vec}.ty`.
pub fn ld(space: Option<Space>, vec: Option<VecWidth>, ty: MemType) -> Form {
    Form::Ld(Ld { vec, ..Ld::base(space, ty) })
}

/// `st{.space}{.vec}.ty`.
pub fn st(space: Option<Space>, vec: Option<VecWidth>, ty: MemType) -> Form {
    Form::St(St { vec, ..St::base(space, ty) })
}

/// The `mbarrier` form `op` on an object in `space`, without `.sem`/`.scope`, with a
/// destination state operand unless `sink` (then `_`).
pub fn mbarrier(op: MbarrierOp, space: Space, sink: bool) -> Mbarrier {
    Mbarrier { op, sem: None, scope: None, space: Some(space), sink_state: sink, count: false, suspend_hint: false }
}

/// `fence` of `kind` with `sem` and `scope`.
pub fn fence(kind: FenceKind, sem: Option<oracle::isa::types::OrderSem>, scope: Option<Scope>) -> Form {
    Form::Fence(Fence { kind, sem, scope })
}

/// `cp.async.bulk.dst.src.completion{.multicast::cluster}`.
pub fn bulk_copy(dst: BulkSpace, src: BulkSpace, completion: Completion, multicast: bool) -> Form {
    Form::CpAsyncBulk(CpAsyncBulk { dst, src, completion, multicast, cache_hint: false, cp_mask: false })
}

/// The forms of fixed shape memory programs write (the episodes, the cases' protocol steps),
/// built from the ISA model's types.
pub mod forms {
    use oracle::isa::types::{OrderSem, Scope, Space};
    use oracle::isa::{AsyncProxySpace, BulkSpace, Completion, ProxyKind};
    use oracle::isa::{
        CpAsyncBulkTensor, CpAsyncBulkWaitGroup, CpAsyncDst, CpAsyncMbarrierArrive, FenceKind, Form, LoadMode,
        Mbarrier, MbarrierOp, TensorDim,
    };

    use super::{bulk_copy, fence, mbarrier};

    /// `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes{.multicast::cluster}`.
    pub fn bulk_load(multicast: bool) -> Form {
        bulk_copy(BulkSpace::SharedCluster, BulkSpace::Global, Completion::Mbarrier, multicast)
    }

    /// `cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes` (into a peer CTA).
    pub fn bulk_exchange() -> Form {
        bulk_copy(BulkSpace::SharedCluster, BulkSpace::SharedCta, Completion::Mbarrier, false)
    }

    /// `cp.async.bulk.global.shared::cta.bulk_group`.
    pub fn bulk_store() -> Form {
        bulk_copy(BulkSpace::Global, BulkSpace::SharedCta, Completion::BulkGroup, false)
    }

    /// `fence.proxy.async.<space>`.
    pub fn proxy_fence(space: AsyncProxySpace) -> Form {
        fence(FenceKind::Proxy(ProxyKind::Async(Some(space))), None, None)
    }

    /// `fence.proxy.tensormap::generic.<sem>.<scope>` (§9.7.13.4): the release takes no
    /// operands, the acquire `[object], size`.
    pub fn tensormap_fence(sem: OrderSem, scope: Scope) -> Form {
        fence(FenceKind::ProxyTensormap, Some(sem), Some(scope))
    }

    /// `mbarrier.init.shared::cta.b64 [bar], count`.
    pub fn mbarrier_init() -> Form {
        Form::Mbarrier(mbarrier(MbarrierOp::Init, Space::SharedCta, false))
    }

    /// `fence.mbarrier_init.release.cluster`.
    pub fn mbarrier_init_fence() -> Form {
        fence(FenceKind::MbarrierInit, Some(OrderSem::Release), Some(Scope::Cluster))
    }

    /// `mbarrier.arrive.expect_tx.shared::cta.b64 st|_, [bar], tx`.
    pub fn arrive_expect_tx(sink: bool) -> Form {
        Form::Mbarrier(mbarrier(MbarrierOp::ArriveExpectTx, Space::SharedCta, sink))
    }

    /// `mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], tx`.
    pub fn expect_tx() -> Form {
        Form::Mbarrier(Mbarrier {
            sem: Some(OrderSem::Relaxed),
            scope: Some(Scope::Cta),
            ..mbarrier(MbarrierOp::ExpectTx, Space::SharedCta, false)
        })
    }

    /// `mbarrier.arrive.shared::cta.b64 _, [bar]`.
    pub fn arrive() -> Form {
        Form::Mbarrier(mbarrier(MbarrierOp::Arrive, Space::SharedCta, true))
    }

    /// `mbarrier.arrive.release.cluster.shared::cluster.b64 _, [bar]` (a peer's mbarrier).
    pub fn arrive_remote() -> Form {
        Form::Mbarrier(Mbarrier {
            sem: Some(OrderSem::Release),
            scope: Some(Scope::Cluster),
            ..mbarrier(MbarrierOp::Arrive, Space::SharedCluster, true)
        })
    }

    /// `mbarrier.try_wait.parity{.acquire.cluster}.shared::cta.b64 p, [bar], ph` (`cluster`:
    /// acquiring another CTA's release; else the default `.acquire.cta`).
    pub fn try_wait(cluster: bool) -> Form {
        let m = mbarrier(MbarrierOp::TryWaitParity, Space::SharedCta, false);
        Form::Mbarrier(match cluster {
            true => Mbarrier { sem: Some(OrderSem::Acquire), scope: Some(Scope::Cluster), ..m },
            false => m,
        })
    }

    /// `mbarrier.inval.shared::cta.b64 [bar]`.
    pub fn inval() -> Form {
        Form::Mbarrier(mbarrier(MbarrierOp::Inval, Space::SharedCta, false))
    }

    /// `cp.async.bulk.tensor.<rank>d.shared::cluster.global.<mode>.mbarrier::complete_tx::bytes{.multicast::cluster}`
    /// (`None` for a rank without a `.dim`).
    pub fn tensor_load(rank: usize, mode: LoadMode, multicast: bool) -> Option<Form> {
        Some(Form::CpAsyncBulkTensor(CpAsyncBulkTensor {
            dim: TensorDim::of_rank(rank)?,
            dst: BulkSpace::SharedCluster,
            src: BulkSpace::Global,
            load_mode: Some(mode),
            completion: Completion::Mbarrier,
            multicast,
            cta_group: None,
            cache_hint: false,
        }))
    }

    /// `cp.async.bulk.wait_group{.read} N`.
    pub fn bulk_wait(read: bool) -> Form {
        Form::CpAsyncBulkWaitGroup(CpAsyncBulkWaitGroup { read })
    }

    /// `cp.async.mbarrier.arrive.noinc.shared::cta.b64 [bar]`.
    pub fn cp_async_arrive_noinc() -> Form {
        Form::CpAsyncMbarrierArrive(CpAsyncMbarrierArrive { noinc: true, space: Some(CpAsyncDst::SharedCta) })
    }
}

/// Asserts that the parsed statement `parsed` is the typed statement `typed`.
#[cfg(test)]
pub(crate) fn assert_same(typed: &Stmt, parsed: &oracle::memprog::Stmt, regs: &[oracle::memprog::RegDecl]) {
    use oracle::memprog::StmtKind;
    use oracle::program::Src;
    let reg_name = |r: &Reg| match r {
        Reg::Virt(_, i) => regs[*i as usize].name.clone(),
        Reg::Special(s) => format!("{s:?}"),
    };
    match (typed, &parsed.kind) {
        (Stmt::Isa(i), StmtKind::Isa(p)) => {
            assert_eq!(parsed.guard, i.guard, "{typed}");
            assert_eq!((&p.form, &p.operands), (&i.form, &i.operands), "{typed}");
        }
        (Stmt::Glue(g), StmtKind::Glue(p)) => {
            assert_eq!((p.op, p.ty), (g.op, g.ty), "{typed}");
            assert_eq!(reg_name(&p.dst), g.dst, "{typed}");
            let src: Vec<Operand> = p
                .src
                .iter()
                .flatten()
                .map(|s| match s {
                    Src::Reg(r) => name(&reg_name(r)),
                    Src::Imm(v) => imm(*v),
                })
                .collect();
            assert_eq!(src, g.src, "{typed}");
        }
        (Stmt::Label(l), StmtKind::Label(p)) => assert_eq!(l, p),
        (Stmt::Bra { guard, label }, StmtKind::Bra(p)) => {
            assert_eq!((&parsed.guard, p), (guard, label), "{typed}");
        }
        (Stmt::Bar, StmtKind::Bar) | (Stmt::ClusterWait, StmtKind::ClusterWait) => {}
        (Stmt::ClusterArrive, StmtKind::ClusterArrive { relaxed: false }) => {}
        (t, p) => panic!("`{t}` parsed as {p:?}"),
    }
}

#[cfg(test)]
mod tests {
    use oracle::isa::AsyncProxySpace;
    use oracle::isa::ProxyKind;
    use oracle::isa::{CpAsyncBulkWaitGroup, Target};
    use oracle::memory::Region;
    use oracle::memprog::{parse, Buffer, BufferSpace, StmtKind};
    use oracle::program::{Cmp, Src};
    use std::collections::BTreeMap;

    use super::*;

    /// Every kind of statement prints as the text the oracle's parser reads back as it: the
    /// instruction itself, the glue with its registers, the label, branch and barriers.
    #[test]
    fn every_kind_prints_what_the_parser_reads_back() {
        let stmts = vec![
            Stmt::isa(mov_special(MovType::U32), vec![name("tid"), name("%tid.x")]),
            Stmt::glue(GlueOp::Setp(Cmp::Eq), GlueType::U32, "lead", vec![name("tid"), imm(0)]),
            Stmt::isa(mov_name(MovType::U64, "g"), vec![name("a"), name("g")]),
            Stmt::glue(GlueOp::Xor, GlueType::B32, "x", vec![name("tid"), imm(4_048_687_211)]),
            Stmt::isa(mov_value(MovType::U32), vec![name("ph"), imm(0)]),
            Stmt::Bra { guard: Some(guard("lead", true)), label: "L1".into() },
            Stmt::isa(Form::Mbarrier(mbarrier(MbarrierOp::Init, Space::SharedCta, false)), vec![at("s", 0), imm(1)]),
            Stmt::Label("L1".into()),
            Stmt::Bar,
            Stmt::isa(fence(FenceKind::Proxy(ProxyKind::Async(Some(AsyncProxySpace::SharedCta))), None, None), vec![]),
            Stmt::isa(st(Some(Space::Global), Some(VecWidth::V2), MemType::B32), vec![at("a", 8), vector(&["x", "x"])]),
            Stmt::isa(ld(Some(Space::Shared), Some(VecWidth::V2), MemType::B32), vec![vector(&["y", "z"]), at("s", 0)]),
            Stmt::isa(Form::CpAsyncBulkWaitGroup(CpAsyncBulkWaitGroup { read: true }), vec![imm(0)]),
            Stmt::ClusterArrive,
            Stmt::ClusterWait,
        ];
        let text: Vec<String> = stmts.iter().map(ToString::to_string).collect();
        assert_eq!(text[1], "setp.eq.u32 lead, tid, 0;");
        assert_eq!(text[5], "@!lead bra L1;");
        assert_eq!(text[10], "st.global.v2.b32 [a+8], {x, x};");
        let buffers = vec![
            Buffer { name: "g".into(), space: BufferSpace::Global, align: 256, init: Region::filled(16, 0) },
            Buffer { name: "s".into(), space: BufferSpace::Shared, align: 16, init: Region::unwritten(16) },
        ];
        let target = Target::parse("sm_90").unwrap();
        let p = parse(target, 2, buffers, Vec::new(), &BTreeMap::new(), &text, vec![0])
            .unwrap_or_else(|e| panic!("{e}\n{}", text.join("\n")));
        assert_eq!(p.stmts.len(), stmts.len());
        for (typed, parsed) in stmts.iter().zip(&p.stmts) {
            assert_same(typed, parsed, &p.regs);
        }
        // A glue source immediate keeps its bits.
        let StmtKind::Glue(g) = &p.stmts[3].kind else { panic!("{:?}", p.stmts[3]) };
        assert_eq!(g.src[1], Some(Src::Imm(4_048_687_211)));
    }
}
