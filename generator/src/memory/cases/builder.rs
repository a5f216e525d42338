//! The builder of one conformance case: a memory program of one thread (or more, where a case
//! says so) in one CTA or each CTA of a cluster over named buffers, with the protocol steps every case shares — an mbarrier
//! initialised and fenced for the async proxy, one arrival with the exact expected transaction
//! bytes, the wait on phase 0, the bulk-group commit and wait, and a multicast's arming of
//! every CTA's mbarrier before the cluster barrier (§9.7.9.25.4.1) — and the byte patterns
//! that fill the buffers.
//!
//! Statements: every case's statements are typed ([`Stmt`], pushed with
//! [`Case::push`]/[`Case::isa`]/[`Case::glue`]) and printed by its one printer when the case
//! is finished ([`Case::finish`]).
//!
//! Invariant: every buffer a case reads back is named in `read`; [`pattern`] is a pure function
//! of its seed, so a byte copied from the wrong offset shows.

use std::collections::BTreeMap;

use oracle::isa::operand::Operand;
use oracle::isa::{AsyncProxySpace, Form, Guard, MovType, Target};
use oracle::memprog::{BufferSource, BufferSpace, Init, InputReg, MemSource, TensorMapSource};
use oracle::program::{Cmp, GlueOp, GlueType, RegClass};

use crate::memory::stmt::{self, at, forms, guard, imm, name, Stmt};

/// A case under construction.
pub(super) struct Case {
    pub(super) target: Target,
    /// CTAs of the cluster (1: one CTA).
    pub(super) cluster: u32,
    /// Threads of each CTA (1 unless a case says otherwise).
    pub(super) threads: u32,
    /// The typed statements, in program order.
    pub(super) stmts: Vec<Stmt>,
    pub(super) regs: BTreeMap<String, InputReg>,
    pub(super) buffers: Vec<BufferSource>,
    pub(super) tensor_maps: Vec<TensorMapSource>,
    pub(super) read: Vec<String>,
}

impl Case {
    pub(super) fn new(target: &Target) -> Case {
        Case {
            target: *target,
            cluster: 1,
            threads: 1,
            stmts: Vec::new(),
            regs: BTreeMap::new(),
            buffers: Vec::new(),
            tensor_maps: Vec::new(),
            read: Vec::new(),
        }
    }

    pub(super) fn global(&mut self, name: &str, bytes: Vec<u8>, read: bool) -> &mut Case {
        self.buffer(name, BufferSpace::Global, 256, Init::Hex(hex(&bytes)), read)
    }

    pub(super) fn shared(&mut self, name: &str, init: Init, align: u64, read: bool) -> &mut Case {
        self.buffer(name, BufferSpace::Shared, align, init, read)
    }

    pub(super) fn buffer(&mut self, name: &str, space: BufferSpace, align: u64, init: Init, read: bool) -> &mut Case {
        self.buffers.push(BufferSource { name: name.into(), space, init, align });
        if read {
            self.read.push(name.into());
        }
        self
    }

    /// A typed statement (printed by its one printer, [`Stmt`]'s `Display`, when the case is
    /// finished).
    pub(super) fn push(&mut self, s: Stmt) -> &mut Case {
        self.stmts.push(s);
        self
    }

    /// The unguarded instruction `form operands`.
    pub(super) fn isa(&mut self, form: Form, operands: Vec<Operand>) -> &mut Case {
        self.push(Stmt::isa(form, operands))
    }

    /// Glue `op.ty dst, src…`.
    pub(super) fn glue(&mut self, op: GlueOp, ty: GlueType, dst: &str, src: Vec<Operand>) -> &mut Case {
        self.push(Stmt::glue(op, ty, dst, src))
    }

    pub(super) fn reg(&mut self, name: &str, value: u64) -> &mut Case {
        self.regs.insert(name.into(), value.into());
        self
    }

    /// An input register declared with its class (where the class decides the meaning).
    pub(super) fn typed_reg(&mut self, name: &str, class: RegClass, value: u64) -> &mut Case {
        self.regs.insert(name.into(), InputReg::typed(class, value));
        self
    }

    /// An 8-byte mbarrier `bar` initialised for one arrival and fenced for the async proxy.
    pub(super) fn mbarrier(&mut self) -> &mut Case {
        self.shared("bar", Init::Fill { len: 8, byte: Some(0) }, 8, false)
            .isa(forms::mbarrier_init(), vec![at("bar", 0), imm(1)])
            .isa(forms::mbarrier_init_fence(), vec![])
            .isa(forms::proxy_fence(AsyncProxySpace::SharedCta), vec![])
    }

    /// A cluster of `ctas` CTAs, each arming its own `bar` for a multicast of `bytes` bytes
    /// that reaches the CTAs `mask` names (the others expect none, so their phase completes at
    /// their arrival), then the cluster barrier: every CTA's mbarrier is initialised and armed
    /// before CTA `issuer` issues the copy (§9.7.9.25.4.1: the mbarrier signal "is also
    /// multicast to the same CTA-relative offset as dstMem in the destination CTAs"). Returns
    /// the guard the issuing statement takes (`@lead`); the copy's `ctaMask` operand is `mask`.
    pub(super) fn multicast_arm(&mut self, ctas: u32, mask: u64, issuer: u32, bytes: u64) -> Guard {
        self.cluster = ctas;
        self.reg("mask", mask).reg("maskw", mask).reg("issuer", u64::from(issuer));
        self.isa(stmt::mov_special(MovType::U32), vec![name("rk"), name("%cluster_ctarank")])
            .glue(GlueOp::Shr, GlueType::B32, "mine", vec![name("maskw"), name("rk")])
            .glue(GlueOp::And, GlueType::B32, "mine", vec![name("mine"), imm(1)])
            .glue(GlueOp::MulLo, GlueType::U32, "tx", vec![name("mine"), imm(bytes)])
            .isa(forms::arrive_expect_tx(false), vec![name("st"), at("bar", 0), name("tx")])
            .push(Stmt::ClusterArrive)
            .push(Stmt::ClusterWait)
            .glue(GlueOp::Setp(Cmp::Eq), GlueType::U32, "lead", vec![name("rk"), name("issuer")]);
        guard("lead", false)
    }

    /// The one arrival with `bytes` of expected transactions, before the copy is issued.
    pub(super) fn expect_tx(&mut self, bytes: u64) -> &mut Case {
        self.isa(forms::arrive_expect_tx(false), vec![name("st"), at("bar", 0), imm(bytes)])
    }

    /// The wait for phase 0 of `bar` to complete.
    pub(super) fn wait_phase0(&mut self) -> &mut Case {
        self.wait_parity(0)
    }

    /// The wait for the phase of `bar` with parity `parity` (0 or 1) to complete; each parity
    /// has its own loop label.
    pub(super) fn wait_parity(&mut self, parity: u32) -> &mut Case {
        self.wait_on(parity, false)
    }

    /// [`Case::wait_parity`], acquiring at `.cluster` scope when `cluster` (another CTA's
    /// release), else at the default `.cta`.
    pub(super) fn wait_on(&mut self, parity: u32, cluster: bool) -> &mut Case {
        let label = if parity == 0 { "wait".to_string() } else { format!("wait{parity}") };
        self.push(Stmt::Label(label.clone()))
            .isa(forms::try_wait(cluster), vec![name("p"), at("bar", 0), imm(u64::from(parity))])
            .push(Stmt::Bra { guard: Some(guard("p", true)), label })
    }

    pub(super) fn bulk_wait(&mut self) -> &mut Case {
        self.isa(Form::CpAsyncBulkCommitGroup(oracle::isa::CpAsyncBulkCommitGroup), vec![])
            .isa(forms::bulk_wait(false), vec![imm(0)])
    }

    /// The memory program: the statements printed by their one printer.
    pub(super) fn finish(self) -> MemSource {
        let statements: Vec<String> = self.stmts.iter().map(ToString::to_string).collect();
        #[cfg(test)]
        built::record(&statements, self.stmts);
        MemSource {
            target: self.target,
            threads: self.threads,
            cluster: self.cluster,
            statements,
            regs: self.regs,
            buffers: self.buffers,
            tensor_maps: self.tensor_maps,
            read: self.read,
        }
    }
}

/// Bytes as hex pairs in address order.
pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `len` bytes that differ from every other case buffer's at most offsets: a splitmix64 stream
/// from `seed`, so a byte copied from the wrong offset shows.
pub fn pattern(len: usize, seed: u64) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5DEE_CE66_D1CE_4E5B;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        out.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out.truncate(len);
    out
}

/// The typed statements of the cases finished on this thread, by their printed text (tests
/// look a case's typed statements up by its `MemSource::statements`).
#[cfg(test)]
pub(super) mod built {
    use std::cell::RefCell;
    use std::collections::HashMap;

    use crate::memory::stmt::Stmt;

    thread_local! {
        static BUILT: RefCell<HashMap<Vec<String>, Vec<Stmt>>> = RefCell::new(HashMap::new());
    }

    pub(in crate::memory::cases) fn record(text: &[String], typed: Vec<Stmt>) {
        BUILT.with(|b| b.borrow_mut().insert(text.to_vec(), typed));
    }

    /// The typed statements printed as `text`, if a case finished on this thread printed it.
    pub(in crate::memory::cases) fn typed(text: &[String]) -> Option<Vec<Stmt>> {
        BUILT.with(|b| b.borrow().get(text).cloned())
    }

    /// Forgets every recorded case.
    pub(in crate::memory::cases) fn clear() {
        BUILT.with(|b| b.borrow_mut().clear());
    }
}
