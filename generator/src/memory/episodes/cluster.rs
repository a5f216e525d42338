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

use super::{Gen, EDGE_PERMILLE};
use crate::program::rng::Rng;
use crate::program::values::{draw, Kind};

impl<'r, R: Rng> Gen<'r, R> {
    /// Computes the `width / 4` words a thread stores into its peer (from `tid`, `rk` and drawn
    /// constants): the store's type suffix (`b32`, `v2.b32`, `v4.b32`) and its value operand.
    fn store_values(&mut self, width: u64) -> (String, String) {
        let lanes = (width / 4) as usize;
        let vals: Vec<String> = (0..lanes).map(|_| self.name("v")).collect();
        for (k, v) in vals.iter().enumerate() {
            let c = draw(self.r, Kind::Bits(32), EDGE_PERMILLE) as u32;
            match k {
                0 => self.emit(format!("xor.b32 {v}, tid, {c};")),
                1 => self.emit(format!("add.u32 {v}, rk, {c};")),
                _ => self.emit(format!("mov.b32 {v}, {c};")),
            }
        }
        match lanes {
            1 => ("b32".to_string(), vals[0].clone()),
            n => (format!("v{n}.b32"), format!("{{{}}}", vals.join(", "))),
        }
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
        let at = stored.next_multiple_of(16);
        let copy = (bulk && at + 16 <= self.win_len).then(|| {
            let size = 16 * (1 + self.r.below((self.win_len - at) / 16));
            let soff = 16 * self.r.below((self.win_len - size) / 16 + 1);
            (at, size, soff)
        });
        let bytes = stored + copy.map_or(0, |(_, size, _)| size);
        self.leader(|g| g.emit(format!("mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], {bytes};")));
        self.emit("barrier.cluster.arrive;");
        self.emit("barrier.cluster.wait;");
        let (pr, rw, rb) = (self.name("pr"), self.name("rw"), self.name("rb"));
        self.emit(format!("add.u32 {pr}, rk, {shift};"));
        self.emit(format!("and.b32 {pr}, {pr}, {};", self.ctas - 1));
        self.emit(format!("mapa.shared::cluster.u32 {rw}, win, {pr};"));
        self.emit(format!("mapa.shared::cluster.u32 {rb}, bar, {pr};"));
        if stores {
            let (o, a) = (self.name("o"), self.name("a"));
            self.emit(format!("mul.lo.u32 {o}, tid, {width};"));
            self.emit(format!("add.u32 {a}, {rw}, {o};"));
            let (shape, operand) = self.store_values(width);
            self.emit(format!(
                "st.async.shared::cluster.mbarrier::complete_tx::bytes.{shape} [{a}], {operand}, [{rb}];"
            ));
        }
        if let Some((at, size, soff)) = copy {
            self.leader(|g| {
                g.emit(format!(
                    "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [{rw}+{at}], [xsrc+{soff}], {size}, [{rb}];"
                ))
            });
        }
        self.wait_and_consume(parity, copy.map_or(stored, |(at, size, _)| at + size));
    }

    /// A multicast phase: every CTA's leader arms its own mbarrier for the bytes its CTA gets
    /// (`bytes` where `mask`, in register `mk`, names it; none elsewhere), the cluster barrier (every CTA has armed
    /// its mbarrier and finished reading its window), then the leader of CTA `issuer` issues
    /// `copies`, each landing in every CTA of `mask` at the same offset and signalling the
    /// mbarrier at the same offset there (§9.7.9.25.4.1).
    pub(super) fn multicast_phase(&mut self, mask: u64, issuer: u64, mk: &str, bytes: u64, copies: Vec<String>) {
        let (m, mine, tx, iss) = (self.name("m"), self.name("mine"), self.name("tx"), self.name("iss"));
        // `mk` is the copies' 16-bit ctaMask operand; `m` the same bits as a 32-bit register.
        self.regs.insert(mk.to_string(), mask.into());
        self.regs.insert(m.clone(), mask.into());
        self.emit(format!("shr.b32 {mine}, {m}, rk;"));
        self.emit(format!("and.b32 {mine}, {mine}, 1;"));
        self.emit(format!("mul.lo.u32 {tx}, {mine}, {bytes};"));
        self.leader(|g| g.emit(format!("mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], {tx};")));
        self.emit("barrier.cluster.arrive;");
        self.emit("barrier.cluster.wait;");
        self.emit(format!("setp.eq.u32 {iss}, rk, {issuer};"));
        self.leader(|g| {
            for c in copies {
                g.emit(format!("@{iss} {c}"));
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
        self.emit("barrier.cluster.arrive;");
        self.emit("barrier.cluster.wait;");
        let (pr, rw, rb) = (self.name("pr"), self.name("rw"), self.name("rb"));
        self.emit(format!("add.u32 {pr}, rk, {shift};"));
        self.emit(format!("and.b32 {pr}, {pr}, {};", self.ctas - 1));
        self.emit(format!("mapa.shared::cluster.u32 {rw}, rwin, {pr};"));
        self.emit(format!("mapa.shared::cluster.u32 {rb}, bar, {pr};"));
        // Half the phases address the peer's `rwin` generically: `cvta.shared`, then `mapa`
        // without `.shared::cluster` (§9.7.9.20, §9.7.9.23), and plain `st`/`ld`.
        let generic = self.r.below(2) == 0;
        let (o, a) = (self.name("o"), self.name("a"));
        self.emit(format!("mul.lo.u32 {o}, tid, {width};"));
        let (base, space) = if generic {
            let (gw, gp, o64) = (self.name("gw"), self.name("gp"), self.name("o"));
            self.emit(format!("cvta.shared.u64 {gw}, rwin;"));
            self.emit(format!("mapa.u64 {gp}, {gw}, {pr};"));
            self.emit(format!("cvt.u64.u32 {o64}, {o};"));
            self.emit(format!("add.u64 {a}, {gp}, {o64};"));
            (gp, "")
        } else {
            self.emit(format!("add.u32 {a}, {rw}, {o};"));
            (rw.clone(), ".shared::cluster")
        };
        let (shape, operand) = self.store_values(width);
        self.emit(format!("st{space}.{shape} [{a}], {operand};"));
        if self.threads > 1 {
            self.emit("bar.sync 0;");
        }
        self.leader(|g| g.emit(format!("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [{rb}];")));
        if self.threads == 1 || self.r.below(2) == 0 {
            self.wait_with(parity, ".acquire.cluster");
        } else {
            self.leader(|g| g.wait_with(parity, ".acquire.cluster"));
            self.emit("bar.sync 0;");
        }
        let pairs = (width * u64::from(self.threads) / 8).max(1);
        let mask = self.piece_mask(pairs);
        let extra = 8 * self.r.below(pairs - mask);
        self.consume("rwin", 8, mask, extra);
        self.emit("bar.sync 0;");
        if self.r.below(2) == 0 {
            self.emit("barrier.cluster.arrive;");
            self.emit("barrier.cluster.wait;");
            let (m, mo, ra) = (self.name("m"), self.name("mo"), self.name("ra"));
            self.emit(format!("and.b32 {m}, tid, {mask};"));
            self.emit(format!("mul.lo.u32 {mo}, {m}, 8;"));
            if generic {
                let mo64 = self.name("o");
                self.emit(format!("cvt.u64.u32 {mo64}, {mo};"));
                self.emit(format!("add.u64 {ra}, {base}, {mo64};"));
            } else {
                self.emit(format!("add.u32 {ra}, {base}, {mo};"));
            }
            let (x, y) = (self.name("x"), self.name("y"));
            self.emit(format!("ld{space}.v2.b32 {{{x}, {y}}}, [{ra}+{extra}];"));
            let (slot, base) = self.out_slot();
            self.emit(format!("st.global.v2.b32 [{slot}+{base}], {{{x}, {y}}};"));
        }
    }
}
