//! The mbarrier phases of a memory program (`bulk`, `tensor`): the leader arms the mbarrier for
//! exactly the bytes its copies write (`mbarrier.arrive.expect_tx`, or `mbarrier.expect_tx`
//! then `mbarrier.arrive` after the copies), issues `cp.async.bulk` loads or a
//! `cp.async.bulk.tensor` tile load completing on it, and the `try_wait.parity` loop waits for
//! the phase (parity 0, 1, 0, …) before the window is consumed.
//!
//! Invariant: no thread reads the window before its phase completes, and every thread has read
//! it (`bar.sync 0`) before a later phase loads it again. In a cluster a phase may instead be a
//! multicast, an exchange or a remote exchange (`cluster.rs`).

use oracle::memory::tensor_map::MapMode;

use super::Gen;
use crate::program::rng::Rng;

impl<'r, R: Rng> Gen<'r, R> {
    /// One phase of the mbarrier: a bulk or tensor load of exactly the bytes expected, the
    /// wait on the phase's parity, and the window consumed.
    pub(super) fn mbarrier_phase(&mut self) {
        let parity = self.phases & 1;
        self.phases += 1;
        let copies = self.cfg.bulk || self.cfg.tensor;
        let exchange = self.cfg.cluster && self.ctas > 1;
        if self.cfg.remote && self.ctas > 1 && (!(copies || exchange) || self.r.below(3) == 0) {
            self.remote_phase(parity);
            return;
        }
        if exchange && (!copies || self.r.below(3) == 0) {
            self.exchange_phase(parity);
            return;
        }
        let tensor = self.map.is_some() && (!self.cfg.bulk || self.r.below(2) == 1);
        // In a cluster, most phases load through a multicast: (ctaMask, issuing CTA).
        let multicast = (self.ctas > 1 && self.cfg.multicast && self.r.below(4) != 0).then(|| {
            let mask = 1 + self.r.below((1 << self.ctas) - 1);
            (mask, self.r.below(u64::from(self.ctas)), self.name("mk"))
        });
        let (mc, mask_operand) = match &multicast {
            Some((_, _, mk)) => (".multicast::cluster", format!(", {mk}")),
            None => ("", String::new()),
        };
        let (bytes, copies, read_len) = if tensor {
            if self.object.is_some() && self.r.below(2) == 0 {
                self.replace_step();
            }
            let map = self.map.clone().expect("checked above");
            let tmap = if self.object.is_some() { "tobj" } else { "tmap" };
            let (c, offsets) = match &map.mode {
                MapMode::Tiled => (self.coords(&map), Vec::new()),
                MapMode::Im2col { .. } => self.im2col_coords(&map),
            };
            let names: Vec<String> = (0..c.len()).map(|_| self.name("c")).collect();
            for (n, v) in names.iter().zip(&c) {
                self.regs.insert(n.clone(), u64::from(*v as u32).into());
            }
            let (mode, info) = if matches!(map.mode, MapMode::Im2col { .. }) {
                let os: Vec<String> = (0..offsets.len()).map(|_| self.name("o")).collect();
                for (n, &v) in os.iter().zip(&offsets) {
                    self.regs.insert(n.clone(), u64::from(v).into());
                }
                ("im2col", format!(", {{{}}}", os.join(", ")))
            } else {
                ("tile", String::new())
            };
            let stmt = format!(
                "cp.async.bulk.tensor.{}d.shared::cluster.global.{mode}.mbarrier::complete_tx::bytes{mc} [win], [{tmap}, {{{}}}], [bar]{info}{mask_operand};",
                map.rank(),
                names.join(", ")
            );
            (map.tile_bytes(), vec![stmt], map.tile_extent())
        } else {
            // One or two bulk copies at 16-byte boundaries.
            let n = 1 + self.r.below(2);
            let mut stmts = Vec::new();
            let mut total = 0;
            let mut at = 0;
            for _ in 0..n {
                let room = (self.win_len - at) / 16;
                if room == 0 {
                    break;
                }
                let size = 16 * (1 + self.r.below(room.min(self.src_len / 16)));
                let soff = 16 * self.r.below((self.src_len - size) / 16 + 1);
                stmts.push(format!(
                    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes{mc} [win+{at}], [src+{soff}], {size}, [bar]{mask_operand};"
                ));
                total += size;
                at += size;
            }
            (total, stmts, at)
        };
        if let Some((mask, issuer, mk)) = multicast {
            self.multicast_phase(mask, issuer, &mk, bytes, copies);
        } else {
            self.own_phase(bytes, copies);
        }
        self.wait_and_consume(parity, read_len);
    }

    /// The end of a phase: the wait for `parity` (every thread, or the leader then `bar.sync
    /// 0`), the first `read_len` bytes of the window consumed, and `bar.sync 0` (a later phase
    /// loads the window again: every thread is done reading it).
    pub(super) fn wait_and_consume(&mut self, parity: u32, read_len: u64) {
        let everyone = self.threads == 1 || self.r.below(2) == 0;
        if everyone {
            self.wait(parity);
        } else {
            self.leader(|g| g.wait(parity));
            self.emit("bar.sync 0;");
        }
        let pairs = (read_len / 8).max(1);
        let mask = self.piece_mask(pairs);
        let extra = 8 * self.r.below(pairs - mask);
        self.consume("win", 8, mask, extra);
        self.emit("bar.sync 0;");
    }

    /// The leader arms its own mbarrier for `bytes` and issues `copies` into its CTA's window:
    /// `arrive.expect_tx` first, or `expect_tx`, the copies, then `arrive`.
    pub(super) fn own_phase(&mut self, bytes: u64, copies: Vec<String>) {
        let split = self.r.below(3) == 0;
        self.leader(|g| {
            if split {
                g.emit(format!("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], {bytes};"));
            } else {
                let st = if g.r.below(2) == 0 { "_".to_string() } else { g.name("st") };
                g.emit(format!("mbarrier.arrive.expect_tx.shared::cta.b64 {st}, [bar], {bytes};"));
            }
            for s in copies {
                g.emit(s);
            }
            if split {
                g.emit("mbarrier.arrive.shared::cta.b64 _, [bar];");
            }
        });
    }

    /// The `try_wait.parity` loop on `bar` for `parity`.
    pub(super) fn wait(&mut self, parity: u32) {
        self.wait_with(parity, "");
    }

    /// The `try_wait.parity{sem}` loop on `bar` for `parity` (`sem`: `.acquire.cluster` where
    /// another CTA's release must be acquired, or empty: `.acquire.cta`, the default).
    pub(super) fn wait_with(&mut self, parity: u32, sem: &str) {
        self.wait_on("bar", parity, sem);
    }

    /// [`Gen::wait_with`] on the mbarrier `bar`.
    pub(super) fn wait_on(&mut self, bar: &str, parity: u32, sem: &str) {
        let ph = self.name("ph");
        let p = self.name("p");
        let l = self.name("W");
        self.emit(format!("mov.u32 {ph}, {parity};"));
        self.emit(format!("{l}:"));
        self.emit(format!("mbarrier.try_wait.parity{sem}.shared::cta.b64 {p}, [{bar}], {ph};"));
        self.emit(format!("@!{p} bra {l};"));
    }
}
