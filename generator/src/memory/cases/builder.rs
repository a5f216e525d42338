//! The builder of one conformance case: a memory program of one thread (or more, where a case
//! says so) in one CTA or each CTA of a cluster over named buffers, with the protocol steps every case shares — an mbarrier
//! initialised and fenced for the async proxy, one arrival with the exact expected transaction
//! bytes, the wait on phase 0, the bulk-group commit and wait, and a multicast's arming of
//! every CTA's mbarrier before the cluster barrier (§9.7.9.25.4.1) — and the byte patterns
//! that fill the buffers.
//!
//! Invariant: every buffer a case reads back is named in `read`; [`pattern`] is a pure function
//! of its seed, so a byte copied from the wrong offset shows.

use std::collections::BTreeMap;

use oracle::isa::Target;
use oracle::memprog::{BufferSource, BufferSpace, Init, InputReg, MemSource, TensorMapSource};
use oracle::program::RegClass;

/// A case under construction.
pub(super) struct Case {
    pub(super) target: Target,
    /// CTAs of the cluster (1: one CTA).
    pub(super) cluster: u32,
    /// Threads of each CTA (1 unless a case says otherwise).
    pub(super) threads: u32,
    pub(super) statements: Vec<String>,
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
            statements: Vec::new(),
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

    pub(super) fn stmt(&mut self, s: impl Into<String>) -> &mut Case {
        self.statements.push(s.into());
        self
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
            .stmt("mbarrier.init.shared::cta.b64 [bar], 1;")
            .stmt("fence.mbarrier_init.release.cluster;")
            .stmt("fence.proxy.async.shared::cta;")
    }

    /// A cluster of `ctas` CTAs, each arming its own `bar` for a multicast of `bytes` bytes
    /// that reaches the CTAs `mask` names (the others expect none, so their phase completes at
    /// their arrival), then the cluster barrier: every CTA's mbarrier is initialised and armed
    /// before CTA `issuer` issues the copy (§9.7.9.25.4.1: the mbarrier signal "is also
    /// multicast to the same CTA-relative offset as dstMem in the destination CTAs"). Returns
    /// the guard the issuing statement takes; the copy's `ctaMask` operand is `mask`.
    pub(super) fn multicast_arm(&mut self, ctas: u32, mask: u64, issuer: u32, bytes: u64) -> String {
        self.cluster = ctas;
        self.reg("mask", mask).reg("maskw", mask).reg("issuer", u64::from(issuer));
        self.stmt("mov.u32 rk, %cluster_ctarank;")
            .stmt("shr.b32 mine, maskw, rk;")
            .stmt("and.b32 mine, mine, 1;")
            .stmt(format!("mul.lo.u32 tx, mine, {bytes};"))
            .stmt("mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], tx;")
            .stmt("barrier.cluster.arrive;")
            .stmt("barrier.cluster.wait;")
            .stmt("setp.eq.u32 lead, rk, issuer;");
        "@lead ".into()
    }

    /// The one arrival with `bytes` of expected transactions, before the copy is issued.
    pub(super) fn expect_tx(&mut self, bytes: u64) -> &mut Case {
        self.stmt(format!("mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], {bytes};"))
    }

    /// The wait for phase 0 of `bar` to complete.
    pub(super) fn wait_phase0(&mut self) -> &mut Case {
        self.wait_parity(0)
    }

    /// The wait for the phase of `bar` with parity `parity` (0 or 1) to complete; each parity
    /// has its own loop label.
    pub(super) fn wait_parity(&mut self, parity: u32) -> &mut Case {
        let label = if parity == 0 { "wait".to_string() } else { format!("wait{parity}") };
        self.stmt(format!("{label}:"))
            .stmt(format!("mbarrier.try_wait.parity.shared::cta.b64 p, [bar], {parity};"))
            .stmt(format!("@!p bra {label};"))
    }

    pub(super) fn bulk_wait(&mut self) -> &mut Case {
        self.stmt("cp.async.bulk.commit_group;").stmt("cp.async.bulk.wait_group 0;")
    }

    pub(super) fn finish(self) -> MemSource {
        MemSource {
            target: self.target,
            threads: self.threads,
            cluster: self.cluster,
            statements: self.statements,
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
