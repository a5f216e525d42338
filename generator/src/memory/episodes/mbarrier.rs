//! The mbarrier phases of a memory program (`bulk`, `tensor`): the leader arms the mbarrier for
//! exactly the bytes its copies write (`mbarrier.arrive.expect_tx`, or `mbarrier.expect_tx`
//! then `mbarrier.arrive` after the copies), issues `cp.async.bulk` loads or a
//! `cp.async.bulk.tensor` tile load completing on it, and the `try_wait.parity` loop waits for
//! the phase (parity 0, 1, 0, …) before the window is consumed.
//!
//! Invariant: no thread reads the window before its phase completes, and every thread has read
//! it (`bar.sync 0`) before a later phase loads it again. In a cluster a phase may instead be a
//! multicast, an exchange or a remote exchange (`cluster.rs`).

use oracle::isa::operand::Operand;
use oracle::isa::{Instruction, LoadMode, MovType};
use oracle::memory::tensor_map::MapMode;

use super::Gen;
use crate::memory::stmt::{self, at, forms, guard, imm, name, tensor_ref, vector, Stmt};
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
        // The copies' trailing `ctaMask` operand, if multicast.
        let mask_operand: Vec<Operand> = multicast.iter().map(|(_, _, mk)| name(mk)).collect();
        let mc = multicast.is_some();
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
            let mut operands = vec![at("win", 0), tensor_ref(tmap, &names), at("bar", 0)];
            let mode = if matches!(map.mode, MapMode::Im2col { .. }) {
                let os: Vec<String> = (0..offsets.len()).map(|_| self.name("o")).collect();
                for (n, &v) in os.iter().zip(&offsets) {
                    self.regs.insert(n.clone(), u64::from(v).into());
                }
                operands.push(vector(&os));
                LoadMode::Im2col
            } else {
                LoadMode::Tile
            };
            operands.extend(mask_operand);
            let form = forms::tensor_load(map.rank(), mode, mc).expect("a drawn map has rank 1 to 5");
            (map.tile_bytes(), vec![Instruction { guard: None, form, operands }], map.tile_extent())
        } else {
            // One or two bulk copies at 16-byte boundaries.
            let n = 1 + self.r.below(2);
            let mut stmts = Vec::new();
            let mut total = 0;
            let mut pos = 0;
            for _ in 0..n {
                let room = (self.win_len - pos) / 16;
                if room == 0 {
                    break;
                }
                let size = 16 * (1 + self.r.below(room.min(self.src_len / 16)));
                let soff = 16 * self.r.below((self.src_len - size) / 16 + 1);
                let mut operands = vec![at("win", pos), at("src", soff), imm(size), at("bar", 0)];
                operands.extend(mask_operand.iter().cloned());
                stmts.push(Instruction { guard: None, form: forms::bulk_load(mc), operands });
                total += size;
                pos += size;
            }
            (total, stmts, pos)
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
            self.emit(Stmt::Bar);
        }
        let pairs = (read_len / 8).max(1);
        let mask = self.piece_mask(pairs);
        let extra = 8 * self.r.below(pairs - mask);
        self.consume("win", 8, mask, extra);
        self.emit(Stmt::Bar);
    }

    /// The leader arms its own mbarrier for `bytes` and issues `copies` into its CTA's window:
    /// `arrive.expect_tx` first, or `expect_tx`, the copies, then `arrive`.
    pub(super) fn own_phase(&mut self, bytes: u64, copies: Vec<Instruction>) {
        let split = self.r.below(3) == 0;
        self.leader(|g| {
            if split {
                g.isa(forms::expect_tx(), vec![at("bar", 0), imm(bytes)]);
            } else {
                let sink = g.r.below(2) == 0;
                let state = if sink { Operand::Sink } else { name(&g.name("st")) };
                g.isa(forms::arrive_expect_tx(sink), vec![state, at("bar", 0), imm(bytes)]);
            }
            for c in copies {
                g.emit(Stmt::Isa(c));
            }
            if split {
                g.isa(forms::arrive(), vec![Operand::Sink, at("bar", 0)]);
            }
        });
    }

    /// The `try_wait.parity` loop on `bar` for `parity`.
    pub(super) fn wait(&mut self, parity: u32) {
        self.wait_with(parity, false);
    }

    /// The `try_wait.parity` loop on `bar` for `parity` (`cluster`: `.acquire.cluster`, where
    /// another CTA's release must be acquired; else `.acquire.cta`, the default).
    pub(super) fn wait_with(&mut self, parity: u32, cluster: bool) {
        self.wait_on("bar", parity, cluster);
    }

    /// [`Gen::wait_with`] on the mbarrier `bar`.
    pub(super) fn wait_on(&mut self, bar: &str, parity: u32, cluster: bool) {
        let ph = self.name("ph");
        let p = self.name("p");
        let l = self.name("W");
        self.isa(stmt::mov_value(MovType::U32), vec![name(&ph), imm(u64::from(parity))]);
        self.emit(Stmt::Label(l.clone()));
        self.isa(forms::try_wait(cluster), vec![name(&p), at(bar, 0), name(&ph)]);
        self.emit(Stmt::Bra { guard: Some(guard(&p, true)), label: l });
    }
}
