//! The phases of a cluster of 2 or 4 CTAs: `.multicast::cluster` loads issued by one CTA into
//! the windows of the CTAs its `ctaMask` names (`multicast`), and exchanges where every CTA
//! writes the window of a peer through `mapa.shared::cluster` with `st.async` and/or
//! `cp.async.bulk.shared::cluster.shared::cta` (`cluster`; §9.7.9.12, §9.7.9.25.4.1), and
//! remote exchanges through generic `st`/`ld.shared::cluster` and a remote `mbarrier.arrive`
//! (`remote`; §9.7.9.8, §9.7.9.11, §9.7.13.15.13).
//!
//! Invariant: every CTA arms its own mbarrier for exactly the bytes it will receive (none
//! outside the mask) before `barrier.cluster.arrive`/`wait`, and no copy or store is issued
//! before that barrier; a remote exchange's generic accesses of another CTA's `rwin` are
//! ordered with that CTA's by `barrier.cluster` or by the mbarrier's release/acquire at
//! `.cluster` scope, never a data race (PTX ISA 9.0 §8.7.1).

use oracle::isa::operand::Operand;
use oracle::isa::types::{AddrType, MemType, Space, VecWidth};
use oracle::isa::{CvtType, Cvta, Form, Instruction, Mapa, MovType, StAsync};
use oracle::program::{Cmp, GlueOp, GlueType};

use super::{Gen, EDGE_PERMILLE};
use crate::memory::stmt::{self, at, forms, guard, imm, name, Stmt};
use crate::program::rng::Rng;
use crate::program::values::{draw, Kind};

impl<'r, R: Rng> Gen<'r, R> {
    /// Computes the `width / 4` words a thread stores into its peer (from `tid`, `rk` and drawn
    /// constants): the store's vector width (none, `.v2`, `.v4`; the type is `.b32`) and its
    /// value operand.
    fn store_values(&mut self, width: u64) -> (Option<VecWidth>, Operand) {
        let lanes = (width / 4) as usize;
        let vals: Vec<String> = (0..lanes).map(|_| self.name("v")).collect();
        for (k, v) in vals.iter().enumerate() {
            let c = u64::from(draw(self.r, Kind::Bits(32), EDGE_PERMILLE) as u32);
            match k {
                0 => self.glue(GlueOp::Xor, GlueType::B32, v, vec![name("tid"), imm(c)]),
                1 => self.glue(GlueOp::Add, GlueType::U32, v, vec![name("rk"), imm(c)]),
                _ => self.isa(stmt::mov_value(MovType::B32), vec![name(v), imm(c)]),
            }
        }
        match lanes {
            1 => (None, name(&vals[0])),
            2 => (Some(VecWidth::V2), stmt::vector(&vals)),
            _ => (Some(VecWidth::V4), stmt::vector(&vals)),
        }
    }

    /// `add.u32 pr, rk, shift` and `and.b32 pr, pr, CTAs − 1`: the rank of the peer `shift`
    /// CTAs on, in register `pr`.
    fn peer_rank(&mut self, pr: &str, shift: u64) {
        self.glue(GlueOp::Add, GlueType::U32, pr, vec![name("rk"), imm(shift)]);
        self.glue(GlueOp::And, GlueType::B32, pr, vec![name(pr), imm(u64::from(self.ctas) - 1)]);
    }

    /// `mapa.shared::cluster.u32 d, buf, pr`: the `.shared::cluster` address of `buf` in CTA `pr`.
    fn map_shared(&mut self, d: &str, buf: &str, pr: &str) {
        let form = Form::Mapa(Mapa { shared_cluster: true, ty: AddrType::U32, var: true });
        self.isa(form, vec![name(d), name(buf), name(pr)]);
    }

    /// An exchange phase (`cluster`): every CTA's leader arms its mbarrier for the bytes its
    /// peer will send, `barrier.cluster.arrive`/`wait` (every mbarrier armed, every window
    /// read), then every CTA writes the window of its peer `(rank + shift) mod CTAs` through
    /// `mapa.shared::cluster` addresses: each thread an `st.async` of 4, 8 or 16 bytes at its
    /// own offset and/or the leader a `cp.async.bulk.shared::cluster.shared::cta` copy of
    /// `xsrc` after them, both completing on the peer's mbarrier (§9.7.9.12, §9.7.9.25.4.1);
    /// then the wait on its own phase and the window consumed.
    pub(super) fn exchange_phase(&mut self, parity: u32) {
        let shift = 1 + self.r.below(u64::from(self.ctas) - 1);
        let (stores, bulk) = match self.r.below(3) {
            0 => (true, false),
            1 => (false, true),
            _ => (true, true),
        };
        let width = self.r.pick(&[4u64, 8, 16]);
        let stored = if stores { width * u64::from(self.threads) } else { 0 };
        // The copy lands after the stores, at a 16-byte boundary, when there is room.
        let pos = stored.next_multiple_of(16);
        let copy = (bulk && pos + 16 <= self.win_len).then(|| {
            let size = 16 * (1 + self.r.below((self.win_len - pos) / 16));
            let soff = 16 * self.r.below((self.win_len - size) / 16 + 1);
            (pos, size, soff)
        });
        let bytes = stored + copy.map_or(0, |(_, size, _)| size);
        self.leader(|g| g.isa(forms::arrive_expect_tx(true), vec![Operand::Sink, at("bar", 0), imm(bytes)]));
        self.cluster_barrier();
        let (pr, rw, rb) = (self.name("pr"), self.name("rw"), self.name("rb"));
        self.peer_rank(&pr, shift);
        self.map_shared(&rw, "win", &pr);
        self.map_shared(&rb, "bar", &pr);
        if stores {
            let (o, a) = (self.name("o"), self.name("a"));
            self.glue(GlueOp::MulLo, GlueType::U32, &o, vec![name("tid"), imm(width)]);
            self.glue(GlueOp::Add, GlueType::U32, &a, vec![name(&rw), name(&o)]);
            let (vec, operand) = self.store_values(width);
            let form = Form::StAsync(StAsync {
                mmio: false,
                sem: None,
                scope: None,
                space: Some(Space::SharedCluster),
                complete_tx: true,
                vec,
                ty: MemType::B32,
            });
            self.isa(form, vec![at(&a, 0), operand, at(&rb, 0)]);
        }
        if let Some((pos, size, soff)) = copy {
            let operands = vec![at(&rw, pos), at("xsrc", soff), imm(size), at(&rb, 0)];
            self.leader(|g| g.isa(forms::bulk_exchange(), operands));
        }
        self.wait_and_consume(parity, copy.map_or(stored, |(at, size, _)| at + size));
    }

    /// A multicast phase: every CTA's leader arms its own mbarrier for the bytes its CTA gets
    /// (`bytes` where `mask`, in register `mk`, names it; none elsewhere), the cluster barrier (every CTA has armed
    /// its mbarrier and finished reading its window), then the leader of CTA `issuer` issues
    /// `copies`, each landing in every CTA of `mask` at the same offset and signalling the
    /// mbarrier at the same offset there (§9.7.9.25.4.1).
    pub(super) fn multicast_phase(&mut self, mask: u64, issuer: u64, mk: &str, bytes: u64, copies: Vec<Instruction>) {
        let (m, mine, tx, iss) = (self.name("m"), self.name("mine"), self.name("tx"), self.name("iss"));
        // `mk` is the copies' 16-bit ctaMask operand; `m` the same bits as a 32-bit register.
        self.regs.insert(mk.to_string(), mask.into());
        self.regs.insert(m.clone(), mask.into());
        self.glue(GlueOp::Shr, GlueType::B32, &mine, vec![name(&m), name("rk")]);
        self.glue(GlueOp::And, GlueType::B32, &mine, vec![name(&mine), imm(1)]);
        self.glue(GlueOp::MulLo, GlueType::U32, &tx, vec![name(&mine), imm(bytes)]);
        self.leader(|g| g.isa(forms::arrive_expect_tx(true), vec![Operand::Sink, at("bar", 0), name(&tx)]));
        self.cluster_barrier();
        self.glue(GlueOp::Setp(Cmp::Eq), GlueType::U32, &iss, vec![name("rk"), imm(issuer)]);
        self.leader(|g| {
            for c in copies {
                g.emit(Stmt::Isa(Instruction { guard: Some(guard(&iss, false)), ..c }));
            }
        });
    }

    /// A remote exchange phase (`remote`): `barrier.cluster` (every CTA is done with the `rwin`
    /// of earlier phases), every thread stores 4, 8 or 16 bytes into its part of the `rwin` of
    /// its peer `(rank + a drawn shift) mod CTAs` with `st.shared::cluster` (address from
    /// `mapa.shared::cluster`) or, half the time, a generic `st` (address from `cvta.shared`
    /// and generic `mapa`), `bar.sync 0`, and the leader arrives on the peer's mbarrier with
    /// `mbarrier.arrive.release.cluster.shared::cluster`: the phase's one arrival, releasing
    /// every store of its CTA (§9.7.13.15.13); the wait acquires at `.cluster` scope and `rwin`
    /// is consumed. Half the time then `barrier.cluster` and every thread loads a pair of words
    /// of the peer's `rwin` (`ld.shared::cluster`, or generic `ld`) into its slot of `out`.
    pub(super) fn remote_phase(&mut self, parity: u32) {
        let shift = 1 + self.r.below(u64::from(self.ctas) - 1);
        let width = self.r.pick(&[4u64, 8, 16]);
        self.cluster_barrier();
        let (pr, rw, rb) = (self.name("pr"), self.name("rw"), self.name("rb"));
        self.peer_rank(&pr, shift);
        self.map_shared(&rw, "rwin", &pr);
        self.map_shared(&rb, "bar", &pr);
        // Half the phases address the peer's `rwin` generically: `cvta.shared`, then `mapa`
        // without `.shared::cluster` (§9.7.9.20, §9.7.9.23), and plain `st`/`ld`.
        let generic = self.r.below(2) == 0;
        let (o, a) = (self.name("o"), self.name("a"));
        self.glue(GlueOp::MulLo, GlueType::U32, &o, vec![name("tid"), imm(width)]);
        let (base, space) = if generic {
            let (gw, gp, o64) = (self.name("gw"), self.name("gp"), self.name("o"));
            let cvta = Form::Cvta(Cvta { to: false, space: Space::Shared, size: AddrType::U64, var: true });
            self.isa(cvta, vec![name(&gw), name("rwin")]);
            let mapa = Form::Mapa(Mapa { shared_cluster: false, ty: AddrType::U64, var: false });
            self.isa(mapa, vec![name(&gp), name(&gw), name(&pr)]);
            self.isa(stmt::cvt(CvtType::U64, CvtType::U32), vec![name(&o64), name(&o)]);
            self.glue(GlueOp::Add, GlueType::U64, &a, vec![name(&gp), name(&o64)]);
            (gp, None)
        } else {
            self.glue(GlueOp::Add, GlueType::U32, &a, vec![name(&rw), name(&o)]);
            (rw.clone(), Some(Space::SharedCluster))
        };
        let (vec, operand) = self.store_values(width);
        self.isa(stmt::st(space, vec, MemType::B32), vec![at(&a, 0), operand]);
        if self.threads > 1 {
            self.emit(Stmt::Bar);
        }
        self.leader(|g| g.isa(forms::arrive_remote(), vec![Operand::Sink, at(&rb, 0)]));
        if self.threads == 1 || self.r.below(2) == 0 {
            self.wait_with(parity, true);
        } else {
            self.leader(|g| g.wait_with(parity, true));
            self.emit(Stmt::Bar);
        }
        let pairs = (width * u64::from(self.threads) / 8).max(1);
        let mask = self.piece_mask(pairs);
        let extra = 8 * self.r.below(pairs - mask);
        self.consume("rwin", 8, mask, extra);
        self.emit(Stmt::Bar);
        if self.r.below(2) == 0 {
            self.cluster_barrier();
            let (m, mo, ra) = (self.name("m"), self.name("mo"), self.name("ra"));
            self.glue(GlueOp::And, GlueType::B32, &m, vec![name("tid"), imm(mask)]);
            self.glue(GlueOp::MulLo, GlueType::U32, &mo, vec![name(&m), imm(8)]);
            if generic {
                let mo64 = self.name("o");
                self.isa(stmt::cvt(CvtType::U64, CvtType::U32), vec![name(&mo64), name(&mo)]);
                self.glue(GlueOp::Add, GlueType::U64, &ra, vec![name(&base), name(&mo64)]);
            } else {
                self.glue(GlueOp::Add, GlueType::U32, &ra, vec![name(&base), name(&mo)]);
            }
            let (x, y) = (self.name("x"), self.name("y"));
            self.load_pair(space, &x, &y, at(&ra, extra));
            self.store_pair(&x, &y);
        }
    }
}
