//! The `cp.async` pipelines of a memory program (`cp_async`, §9.7.9.25.3): every thread copies
//! its own chunk in 1–3 async-groups (cp-size 4/8/16, `.ca`/`.cg`, prefetch sizes, `src-size`
//! including 0 as an immediate or in a register, `ignore-src`), then either `cp.async.wait_group N` with groups in flight and
//! `cp.async.wait_all`, or completion through a second mbarrier
//! (`cp.async.mbarrier.arrive.noinc`, §9.7.9.25.3.4).
//!
//! Invariant: a thread reads only its own chunk, and only groups that have completed.

use oracle::isa::{valid_forms, CpAsyncSrc, Family, Form};
use oracle::memprog::{BufferSpace, Init};

use super::{Gen, EDGE_PERMILLE};
use crate::program::rng::Rng;

impl<'r, R: Rng> Gen<'r, R> {
    /// A `cp.async` pipeline: every thread copies its own chunk in several async-groups,
    /// waits with groups in flight, consumes what completed, then waits for all.
    pub(super) fn cp_async_pipeline(&mut self) {
        let groups = 1 + self.r.below(3);
        let chunk = 16 * groups;
        let need = chunk * u64::from(self.threads);
        let len = need.next_multiple_of(128);
        let fill = self.fill_byte();
        // Completion through an mbarrier (§9.7.9.25.3.4) instead of the groups: every
        // thread's arrive-on counts as one of the `threads` expected arrivals (`.noinc`).
        let through_mbarrier = self.r.below(3) == 0;
        if through_mbarrier {
            let threads = self.threads;
            self.buffer("cpbar", BufferSpace::Shared, 8, Init::Fill { len: 8, byte: Some(0) });
            self.leader(|g| {
                g.emit(format!("mbarrier.init.shared::cta.b64 [cpbar], {threads};"));
                g.emit("fence.mbarrier_init.release.cluster;");
            });
            self.emit("bar.sync 0;");
        }
        let name = "cpw";
        self.buffer(name, BufferSpace::Shared, 128, Init::Fill { len, byte: Some(fill) });
        let forms: Vec<oracle::isa::CpAsync> = valid_forms(&self.target, Some(Family::CpAsync))
            .into_iter()
            .filter_map(|(f, _)| match f {
                Form::CpAsync(c) if !c.cache_hint || self.policy.is_some() => Some(c),
                _ => None,
            })
            .collect();
        let d = self.thread_addr(name, chunk, None);
        // The source chunk of each thread (the first `src_len` bytes, wrapping by mask).
        let src_chunks = self.src_len / chunk;
        let smask = self.piece_mask(src_chunks);
        let s = self.thread_addr("src", chunk, Some(smask));
        let mut ignore = None;
        for gi in 0..groups {
            let mut at = 0;
            while at < 16 {
                let c = forms[self.r.below(forms.len() as u64) as usize];
                let size = c.cp_size.bytes() as u64;
                if at % size != 0 || at + size > 16 {
                    continue;
                }
                let off = gi * 16 + at;
                let op = Form::CpAsync(c).opcode();
                let tail = match c.src {
                    CpAsyncSrc::Full => String::new(),
                    CpAsyncSrc::SrcSize => {
                        let n = if self.r.permille(EDGE_PERMILLE) {
                            self.r.pick(&[0, size - 1, size])
                        } else {
                            self.r.below(size + 1)
                        };
                        format!(", {n}")
                    }
                    CpAsyncSrc::SrcSizeReg => {
                        // A 32-bit register (§9.7.9.25.3.1): an edge value for every thread,
                        // or one that differs between threads.
                        let n = self.name("n");
                        if self.r.permille(EDGE_PERMILLE) {
                            let v = self.r.pick(&[0, 1, size - 1, size]);
                            self.emit(format!("mov.u32 {n}, {v};"));
                        } else {
                            self.emit(format!("and.b32 {n}, tid, {};", size - 1));
                        }
                        format!(", {n}")
                    }
                    CpAsyncSrc::IgnoreSrc => {
                        let p = match ignore.clone() {
                            Some(p) => p,
                            None => {
                                let t = self.name("t");
                                let p = self.name("ig");
                                let k = 1 + self.r.below(3);
                                self.emit(format!("and.b32 {t}, tid, {k};"));
                                self.emit(format!("setp.ne.u32 {p}, {t}, 0;"));
                                ignore = Some(p.clone());
                                p
                            }
                        };
                        format!(", {p}")
                    }
                };
                let pol = match (&self.policy, c.cache_hint) {
                    (Some(p), true) => format!(", {p}"),
                    _ => String::new(),
                };
                self.emit(format!("{op} [{d}+{off}], [{s}+{off}], {size}{tail}{pol};"));
                at += size;
            }
            self.emit("cp.async.commit_group;");
        }
        if through_mbarrier {
            self.emit("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [cpbar];");
            let ph = self.name("ph");
            let p = self.name("p");
            let l = self.name("W");
            self.emit(format!("mov.u32 {ph}, 0;"));
            self.emit(format!("{l}:"));
            self.emit(format!("mbarrier.try_wait.parity.shared::cta.b64 {p}, [cpbar], {ph};"));
            self.emit(format!("@!{p} bra {l};"));
            for gi in 0..groups {
                let off = gi * 16 + 8 * self.r.below(2);
                self.consume_own(&d, off);
            }
            return;
        }
        let in_flight = self.r.below(groups);
        self.emit(format!("cp.async.wait_group {in_flight};"));
        for gi in 0..groups - in_flight {
            let off = gi * 16 + 8 * self.r.below(2);
            self.consume_own(&d, off);
        }
        self.emit("cp.async.wait_all;");
        for gi in groups - in_flight..groups {
            let off = gi * 16 + 8 * self.r.below(2);
            self.consume_own(&d, off);
        }
    }

    /// Each thread loads a word pair of its own `cp.async` chunk at `a + off` and stores it
    /// to its slot of `out` (no other thread's copies are read: no `bar.sync` is needed).
    pub(super) fn consume_own(&mut self, a: &str, off: u64) {
        let x = self.name("x");
        let y = self.name("y");
        self.emit(format!("ld.shared.v2.b32 {{{x}, {y}}}, [{a}+{off}];"));
        let (o, base) = self.out_slot();
        self.emit(format!("st.global.v2.b32 [{o}+{base}], {{{x}, {y}}};"));
    }
}
