//! The `cp.async` pipelines of a memory program (`cp_async`, §9.7.9.25.3): every thread copies
//! its own chunk in 1–3 async-groups (cp-size 4/8/16, `.ca`/`.cg`, prefetch sizes, `src-size`
//! including 0 as an immediate or in a register, `ignore-src`), then either `cp.async.wait_group N` with groups in flight and
//! `cp.async.wait_all`, or completion through a second mbarrier
//! (`cp.async.mbarrier.arrive.noinc`, §9.7.9.25.3.4).
//!
//! Invariant: a thread reads only its own chunk, and only groups that have completed.

use oracle::isa::types::Space;
use oracle::isa::{
    valid_forms, CpAsyncCommitGroup, CpAsyncSrc, CpAsyncWaitAll, CpAsyncWaitGroup, Family, Form, MovType,
};
use oracle::memprog::{BufferSpace, Init};
use oracle::program::{Cmp, GlueOp, GlueType};

use super::{Gen, EDGE_PERMILLE};
use crate::memory::stmt::{self, at, forms, imm, name, Stmt};
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
                g.isa(forms::mbarrier_init(), vec![at("cpbar", 0), imm(u64::from(threads))]);
                g.isa(forms::mbarrier_init_fence(), vec![]);
            });
            self.emit(Stmt::Bar);
        }
        let window = "cpw";
        self.buffer(window, BufferSpace::Shared, 128, Init::Fill { len, byte: Some(fill) });
        let copies: Vec<oracle::isa::CpAsync> = valid_forms(&self.target, Some(Family::CpAsync))
            .into_iter()
            .filter_map(|(f, _)| match f {
                Form::CpAsync(c) if !c.cache_hint || self.policy.is_some() => Some(c),
                _ => None,
            })
            .collect();
        let d = self.thread_addr(window, chunk, None);
        // The source chunk of each thread (the first `src_len` bytes, wrapping by mask).
        let src_chunks = self.src_len / chunk;
        let smask = self.piece_mask(src_chunks);
        let s = self.thread_addr("src", chunk, Some(smask));
        let mut ignore = None;
        for gi in 0..groups {
            let mut pos = 0;
            while pos < 16 {
                let c = copies[self.r.below(copies.len() as u64) as usize];
                let size = c.cp_size.bytes() as u64;
                if pos % size != 0 || pos + size > 16 {
                    continue;
                }
                let off = gi * 16 + pos;
                let mut operands = vec![at(&d, off), at(&s, off), imm(size)];
                match c.src {
                    CpAsyncSrc::Full => {}
                    CpAsyncSrc::SrcSize => {
                        let n = if self.r.permille(EDGE_PERMILLE) {
                            self.r.pick(&[0, size - 1, size])
                        } else {
                            self.r.below(size + 1)
                        };
                        operands.push(imm(n));
                    }
                    CpAsyncSrc::SrcSizeReg => {
                        // A 32-bit register (§9.7.9.25.3.1): an edge value for every thread,
                        // or one that differs between threads.
                        let n = self.name("n");
                        if self.r.permille(EDGE_PERMILLE) {
                            let v = self.r.pick(&[0, 1, size - 1, size]);
                            self.isa(stmt::mov_value(MovType::U32), vec![name(&n), imm(v)]);
                        } else {
                            self.glue(GlueOp::And, GlueType::B32, &n, vec![name("tid"), imm(size - 1)]);
                        }
                        operands.push(name(&n));
                    }
                    CpAsyncSrc::IgnoreSrc => {
                        let p = match ignore.clone() {
                            Some(p) => p,
                            None => {
                                let t = self.name("t");
                                let p = self.name("ig");
                                let k = 1 + self.r.below(3);
                                self.glue(GlueOp::And, GlueType::B32, &t, vec![name("tid"), imm(k)]);
                                self.glue(GlueOp::Setp(Cmp::Ne), GlueType::U32, &p, vec![name(&t), imm(0)]);
                                ignore = Some(p.clone());
                                p
                            }
                        };
                        operands.push(name(&p));
                    }
                }
                if let (Some(p), true) = (&self.policy, c.cache_hint) {
                    operands.push(name(p));
                }
                self.isa(Form::CpAsync(c), operands);
                pos += size;
            }
            self.isa(Form::CpAsyncCommitGroup(CpAsyncCommitGroup), vec![]);
        }
        if through_mbarrier {
            self.isa(forms::cp_async_arrive_noinc(), vec![at("cpbar", 0)]);
            self.wait_on("cpbar", 0, false);
            for gi in 0..groups {
                let off = gi * 16 + 8 * self.r.below(2);
                self.consume_own(&d, off);
            }
            return;
        }
        let in_flight = self.r.below(groups);
        self.isa(Form::CpAsyncWaitGroup(CpAsyncWaitGroup), vec![imm(in_flight)]);
        for gi in 0..groups - in_flight {
            let off = gi * 16 + 8 * self.r.below(2);
            self.consume_own(&d, off);
        }
        self.isa(Form::CpAsyncWaitAll(CpAsyncWaitAll), vec![]);
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
        self.load_pair(Some(Space::Shared), &x, &y, at(a, off));
        self.store_pair(&x, &y);
    }
}
