//! Protocol-correct asynchronous-copy programs: memory programs
//! ([`oracle::memprog::MemSource`]) that use async copies the way kernels do, for differential
//! fuzzing of the memory oracle against the GPU.
//!
//! A program is one CTA of 1–128 threads over named buffers, or with `multicast` or `cluster` a
//! cluster of 2 or 4 such CTAs, each running the program over its own shared memory and writing its own
//! part of every global output (`out` by the thread's index across the cluster, `dst` and
//! `red` by the CTA's rank). Thread 0 of a CTA (the *leader*: a block skipped by the others
//! with `@!lead bra`) issues every bulk and tensor copy; `bar.sync 0` orders the leader's work
//! with the other threads'. It is built from episodes, each chosen among the enabled
//! [`AsyncConfig`] knobs:
//! - **mbarrier phases** (`bulk`, `tensor`; `phases` of them on one mbarrier, parity 0, 1, 0,
//!   …): the leader sets the transaction count to exactly the bytes the copy writes
//!   (`mbarrier.arrive.expect_tx`, or `mbarrier.expect_tx` then `mbarrier.arrive` after the
//!   copy), issues a `cp.async.bulk` load or a `cp.async.bulk.tensor` tile load completing on
//!   the mbarrier, and the `try_wait.parity` loop waits for the phase — every thread, or the
//!   leader followed by `bar.sync 0`; the window is then consumed. In a cluster, three phases
//!   in four are a multicast (`multicast`): every CTA's leader arms its mbarrier for the bytes
//!   its CTA gets (none outside the drawn `ctaMask`), `barrier.cluster.arrive`/`wait`, then the
//!   leader of one drawn CTA issues the `.multicast::cluster` bulk or tensor copies. With
//!   `cluster`, some phases (every phase when neither `bulk` nor `tensor` is on) are
//!   exchanges: every CTA's leader arms its mbarrier for what its peer sends, the cluster
//!   barrier, then every CTA writes the window of its peer (rank + a drawn shift, mod the
//!   CTAs) through `mapa.shared::cluster` — each thread an `st.async` of 4, 8 or 16 bytes,
//!   and/or the leader a `cp.async.bulk.shared::cluster.shared::cta` copy of the never-written
//!   `xsrc` — completing on the peer's mbarrier. With `remote`, some phases are remote
//!   exchanges instead: after `barrier.cluster`, every thread stores 4, 8 or 16 bytes into its
//!   part of a peer's `rwin` with `st.shared::cluster` (a generic store), `bar.sync 0`, the
//!   leader arrives on the peer's mbarrier (`mbarrier.arrive.release.cluster.shared::cluster`,
//!   the phase's one arrival), the wait acquires at `.cluster` scope and `rwin` is consumed;
//!   half of them then load the peer's `rwin` with `ld.shared::cluster` after another cluster
//!   barrier;
//! - **`cp.async` pipelines** (`cp_async`): every thread copies its own chunk in 1–3
//!   async-groups (cp-size 4/8/16, `.ca`/`.cg`, prefetch sizes, `src-size` including 0,
//!   `ignore-src`), `cp.async.wait_group N` with groups still in flight, consumes the completed
//!   groups only, then `cp.async.wait_all` and the rest — or completes them all through a
//!   second mbarrier (`cp.async.mbarrier.arrive.noinc`, one expected arrival per thread, and
//!   the `try_wait.parity` loop);
//! - **consumption**: each thread loads a pair of words of the window (`ld.shared.v2.b32`),
//!   stores them to its slot of `out`, and with `convert` also a `cvt` of the first word (the
//!   target's plain `cvt` forms from a 32-bit register) and a `prmt` of both (the target's
//!   `prmt` forms);
//! - **bulk stores and reductions back** (`bulk`, `reduce`): the threads write their words to a
//!   shared staging buffer, each fences its writes to the async proxy
//!   (`fence.proxy.async.shared::cta`), `bar.sync 0`, and the leader issues
//!   `cp.async.bulk.global.shared::cta.bulk_group` and/or `cp.reduce.async.bulk` (every redOp ×
//!   type the target allows for a global destination), commits the bulk group and waits for it
//!   (`wait_group.read 0`, always `wait_group 0` before the end). With `tensor`, half the
//!   write-backs also store or reduce the staging buffer through a store map (`smap` over
//!   `tdst`: rank 1 or 2, every sm_90 swizzle, each CTA's tiles in its own slice of the last dimension,
//!   coordinates non-negative and the box inside the tensor as §9.7.9.25.5.1 asks): a
//!   `cp.async.bulk.tensor` store or a `cp.reduce.async.bulk.tensor` with a redOp the map's
//!   type has (never a bitwise one over INT64, which an H100 traps on).
//!
//! With `replace` (one CTA, a tiled map), the map's copy is a tensor-map object in global
//! memory (`tobj`) that the tensor loads name, and half the tensor phases first re-shape it
//! with one `tensormap.replace` (§9.7.9.26) into another map the driver would encode, then
//! `fence.proxy.tensormap::generic` release and acquire (§9.7.13.4); those programs target the
//! arch-specific twin (sm_90a). With `shared_tensormap` too, half of those re-shapes copy the
//! object into shared memory (`tsh`, `cp.async.bulk` on the leader's own mbarrier `tbar`),
//! replace it there (`.shared::cta`) and copy it back with `tensormap.cp_fenceproxy` (the whole
//! first warp, §9.7.13.16) before the leader's acquire.
//!
//! With `im2col`, half the tensor maps are im2col maps (rank 3–5, drawn channels per pixel,
//! pixels per column and bounding-box corners) loaded in `.im2col` mode with drawn
//! `im2colInfo` offsets, at coordinates the model places and inside the pixel bounding box (an
//! H100 traps outside it: [`TensorMap::im2col_start_traps`]).
//!
//! With `interleave`, a third of the tiled maps are interleaved (rank 3, 16B under any sm_90
//! swizzle or 32B under the 32B one; corpus/evidence/tma-interleave.md): dimension 0 counts
//! 16- or 32-byte units, its element stride applies, and the box has one position along
//! dimension 1.
//!
//! Edge cases are drawn on purpose: `src-size` 0 and cp-size − 1, tensor boxes straddling
//! every edge (negative and past-the-end coordinates, along every dimension), every sm_90
//! swizzle (none, 32B, 64B, 128B), every out-of-bounds fill of float maps, bulk sizes and
//! offsets at 16-byte boundaries.
//!
//! Targets: sm_90 and later ([`supported`] says which forms an older target lacks).
//!
//! Invariants (checked by this module's tests on thousands of seeds with the oracle): every
//! program builds ([`MemSource::build`]), the oracle runs it without a protocol error, an
//! undefined operation or a hang, and it is deterministic per seed. What is never generated:
//! the tiled loads an H100 traps on ([`TensorMap::inner_coordinate_traps`]), interleaved maps
//! with more than one box position along dimension rank − 2 ([`TensorMap::interleave_skips_box`]:
//! an H100 traverses only the first, and the load would never complete), `.im2col_no_offs`
//! stores, and the sm_100 swizzles and packed types. Tile destinations sit at offset 0 of a
//! 1024-byte-aligned window, so the swizzle pattern (a function of the absolute address) is
//! the same on every backend.
//!
//! One job per file: this file holds the builder [`Gen`] (buffers, names, the leader block,
//! per-thread addresses, the `out` slots), the episode order and the finished [`MemSource`];
//! `maps.rs` draws the program's tensor maps, coordinates and `tensormap.replace` steps;
//! `mbarrier.rs` the mbarrier phases; `cluster.rs` the multicast and exchange phases of a
//! cluster; `cp_async.rs` the `cp.async` pipelines; `write_back.rs` the consumption of a window
//! and the bulk and tensor stores and reductions back; the knobs are [`AsyncConfig`]
//! (`memory/config.rs`). The episodes build typed statements ([`crate::memory::stmt::Stmt`]:
//! ISA instructions as [`oracle::isa::Instruction`] values of the ISA model's forms, glue over
//! named registers, labels, branches and barriers); the statement text of the finished
//! [`MemSource`] (the memory-program contract) is printed from them by `Stmt`'s one printer, and
//! [`MemSource::build`] reads each back as the statement it was built as (checked by this
//! module's tests).

use std::collections::BTreeMap;

use oracle::isa::operand::{Imm, Operand};
use oracle::isa::types::{MemType, Space, VecWidth};
use oracle::isa::{CvtType, Form, LoadMode, MovType, Target};
use oracle::memory::tensor_map::TensorMap;
use oracle::memory::Region;
use oracle::memprog::{BufferSource, BufferSpace, Init, InputReg, MemSource, TensorMapSource};
use oracle::program::{Cmp, GlueOp, GlueType};

use super::cases::replace::replace_target;
use super::config::AsyncConfig;
use super::stmt::{self, at, forms, guard, imm, name, Stmt};
use crate::program::rng::{Rng, SplitMix64};
use crate::program::values::{draw, Kind};

mod cluster;
mod cp_async;
mod maps;
mod mbarrier;
#[cfg(test)]
mod tests;
mod write_back;

/// Bytes of `out` each thread writes per consumed window (two loaded words, a `cvt` result
/// of up to 8 bytes, a `prmt` result).
const SLOT: u64 = 24;

/// Largest tile (its extent in shared memory) a generated tensor map has.
const MAX_TILE: u64 = 8 * 1024;

/// Alignment of the window tensor tiles land in (a multiple of every swizzle's repeat).
const WINDOW_ALIGN: u64 = 1024;

/// Probability (‰) that a value or coordinate is drawn from the edges.
const EDGE_PERMILLE: u32 = 400;

/// The forms of fixed shape the generator writes (one of each; the forms drawn from the
/// target's valid forms need no check).
fn fixed_forms() -> Vec<Form> {
    use oracle::isa::types::MemType::B32;
    use oracle::isa::types::VecWidth::{V2, V4};
    use oracle::isa::AsyncProxySpace;
    vec![
        forms::arrive_remote(),
        forms::try_wait(true),
        stmt::st(Some(Space::SharedCluster), Some(V4), B32),
        stmt::ld(Some(Space::SharedCluster), Some(V2), B32),
        forms::mbarrier_init(),
        forms::mbarrier_init_fence(),
        forms::arrive_expect_tx(true),
        forms::expect_tx(),
        forms::arrive(),
        forms::try_wait(false),
        forms::inval(),
        forms::bulk_load(false),
        forms::tensor_load(1, LoadMode::Tile, false).expect("rank 1 has a form"),
        forms::bulk_store(),
        forms::proxy_fence(AsyncProxySpace::SharedCta),
        forms::bulk_wait(true),
        forms::cp_async_arrive_noinc(),
    ]
}

/// Whether `target` has every form the generator writes (sm_90 and later do): `Err` names
/// the first it lacks.
pub fn supported(target: &Target) -> Result<(), String> {
    for form in fixed_forms() {
        if !oracle::isa::is_valid(&form, target) {
            return Err(format!("{target} lacks `{}`, which async programs use", form.opcode()));
        }
    }
    Ok(())
}

/// The program of `seed` under `cfg` for `target` (SplitMix64 drives [`generate`]).
pub fn generate_seeded(seed: u64, cfg: &AsyncConfig, target: &Target) -> MemSource {
    generate(&mut SplitMix64::new(seed), cfg, target)
}

/// The switches program `seed` under `cfg` is generated with (its swarm draw, as
/// [`generate_seeded`] draws it), by name.
pub fn seeded_switches(seed: u64, cfg: &AsyncConfig) -> Vec<&'static str> {
    cfg.draw(&mut SplitMix64::new(seed)).0.switches_on()
}

/// A protocol-correct asynchronous-copy program drawn from `r` (see the module
/// documentation). One whose statements × threads × CTAs pass what a memory program may run
/// ([`oracle::memprog::MAX_THREAD_STATEMENTS`]) is drawn again, from where `r` is, with half
/// the threads (a program that fits is the one it always was).
pub fn generate(r: &mut impl Rng, cfg: &AsyncConfig, target: &Target) -> MemSource {
    generate_typed(r, cfg, target).0
}

/// [`generate`] with the typed statements its text was printed from (one per statement).
fn generate_typed(r: &mut impl Rng, cfg: &AsyncConfig, target: &Target) -> (MemSource, Vec<Stmt>) {
    let (cfg, mut threads, ctas) = cfg.draw(r);
    loop {
        let mut g = Gen::new(r, *target, threads, cfg.clone());
        g.ctas = ctas;
        g.program();
        let (src, stmts) = g.finish();
        let work = src.statements.len() as u64 * u64::from(threads) * u64::from(ctas);
        if work <= oracle::memprog::MAX_THREAD_STATEMENTS || threads == 1 {
            return (src, stmts);
        }
        threads = (threads / 2).max(1);
    }
}

/// A buffer while the program is built.
struct Buf {
    name: &'static str,
    space: BufferSpace,
    align: u64,
    init: Init,
}

/// The program under construction.
struct Gen<'r, R: Rng> {
    r: &'r mut R,
    target: Target,
    threads: u32,
    /// CTAs of the cluster (1 without `multicast`).
    ctas: u32,
    cfg: AsyncConfig,
    stmts: Vec<Stmt>,
    regs: BTreeMap<String, InputReg>,
    /// Fresh names drawn so far (registers and labels).
    fresh: u32,
    /// Buffers by name, in creation order.
    bufs: Vec<Buf>,
    /// The tensor map (over `tsrc`), if the program uses one, as the next copy sees it.
    map: Option<TensorMap>,
    /// The map as encoded, when it also lives in the tensor-map object `tobj` (`replace`).
    object: Option<TensorMap>,
    /// The map tensor stores and reductions write `stage` back through (`smap`, over `tdst`).
    store_map: Option<TensorMap>,
    /// Bytes of `win` (the window bulk and tensor loads land in).
    win_len: u64,
    /// `out` slots used so far (each `threads × SLOT` bytes).
    slots: u64,
    /// mbarrier phases used so far.
    phases: u32,
    /// Whether the leader has bulk async-groups that may still write.
    bulk_pending: bool,
    /// Whether `src` (global bytes) exists and how long it is.
    src_len: u64,
    /// The register holding the cache policy `.L2::cache_hint` forms take (`cache_hints`).
    policy: Option<String>,
    /// Copies of the tensor-map object into shared memory so far (`shared_tensormap`: the
    /// phases of `tbar`).
    object_copies: u32,
}

impl<'r, R: Rng> Gen<'r, R> {
    fn new(r: &'r mut R, target: Target, threads: u32, cfg: AsyncConfig) -> Self {
        Gen {
            r,
            target,
            threads,
            ctas: 1,
            cfg,
            stmts: Vec::new(),
            regs: BTreeMap::new(),
            fresh: 0,
            bufs: Vec::new(),
            map: None,
            object: None,
            store_map: None,
            win_len: 0,
            slots: 0,
            phases: 0,
            bulk_pending: false,
            src_len: 0,
            policy: None,
            object_copies: 0,
        }
    }

    fn emit(&mut self, s: Stmt) {
        self.stmts.push(s);
    }

    /// The unguarded instruction `form operands`.
    fn isa(&mut self, form: Form, operands: Vec<Operand>) {
        self.emit(Stmt::isa(form, operands));
    }

    /// Glue `op.ty dst, src…`.
    fn glue(&mut self, op: GlueOp, ty: GlueType, dst: &str, src: Vec<Operand>) {
        self.emit(Stmt::glue(op, ty, dst, src));
    }

    /// `barrier.cluster.arrive` then `barrier.cluster.wait`.
    fn cluster_barrier(&mut self) {
        self.emit(Stmt::ClusterArrive);
        self.emit(Stmt::ClusterWait);
    }

    /// `ld{.space}.v2.b32 {x, y}, addr`: a pair of words.
    fn load_pair(&mut self, space: Option<Space>, x: &str, y: &str, addr: Operand) {
        let form = stmt::ld(space, Some(VecWidth::V2), MemType::B32);
        self.isa(form, vec![stmt::vector(&[x, y]), addr]);
    }

    /// `st.global.v2.b32` of the pair `{x, y}` to this thread's next slot of `out`: the slot
    /// ([`Gen::out_slot`]).
    fn store_pair(&mut self, x: &str, y: &str) -> (String, u64) {
        let (o, base) = self.out_slot();
        let form = stmt::st(Some(Space::Global), Some(VecWidth::V2), MemType::B32);
        self.isa(form, vec![at(&o, base), stmt::vector(&[x, y])]);
        (o, base)
    }

    /// `mov.u64 a, buf` then `add.u64 a, a, o`: the address `buf + o` in a new register `a`.
    fn add_to_buffer(&mut self, a: &str, buf: &str, o: &str) {
        self.isa(stmt::mov_name(MovType::U64, buf), vec![name(a), name(buf)]);
        self.glue(GlueOp::Add, GlueType::U64, a, vec![name(a), name(o)]);
    }

    fn name(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    /// Random bytes for a global buffer, 32-bit words mixing edge values of every format.
    fn words(&mut self, len: u64) -> Vec<u8> {
        let mut out = Vec::with_capacity(len as usize + 4);
        while (out.len() as u64) < len {
            let w = draw(self.r, Kind::Bits(32), EDGE_PERMILLE) as u32;
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.truncate(len as usize);
        out
    }

    fn fill_byte(&mut self) -> u8 {
        self.r.pick(&[0x00, 0xa5, 0xff, 0x7f, 0x3c, 0x80])
    }

    fn buffer(&mut self, name: &'static str, space: BufferSpace, align: u64, init: Init) {
        self.bufs.push(Buf { name, space, align, init });
    }

    fn has(&self, name: &str) -> bool {
        self.bufs.iter().any(|b| b.name == name)
    }

    /// `@!lead bra L;` before the leader's statements and `L:` after (none with one thread).
    fn leader(&mut self, body: impl FnOnce(&mut Self)) {
        if self.threads == 1 {
            body(self);
            return;
        }
        let l = self.name("L");
        self.emit(Stmt::Bra { guard: Some(guard("lead", true)), label: l.clone() });
        body(self);
        self.emit(Stmt::Label(l));
    }

    /// A 64-bit register holding `buf` + `(tid & mask) * stride` (`mask` `None`: every
    /// thread its own piece): each thread's (or each group of threads') piece of a buffer.
    /// `mask` + 1 is a power of two.
    fn thread_addr(&mut self, buf: &str, stride: u64, mask: Option<u64>) -> String {
        if self.threads == 1 || mask == Some(0) {
            return buf.to_string();
        }
        let o = self.name("o");
        let a = self.name("a");
        match mask {
            Some(mask) => {
                let m = self.name("m");
                self.glue(GlueOp::And, GlueType::B64, &m, vec![name("tid64"), imm(mask)]);
                self.glue(GlueOp::MulLo, GlueType::U64, &o, vec![name(&m), imm(stride)]);
            }
            None => self.glue(GlueOp::MulLo, GlueType::U64, &o, vec![name("tid64"), imm(stride)]),
        }
        self.add_to_buffer(&a, buf, &o);
        a
    }

    /// The mask for `threads` threads sharing `pieces` pieces (a power of two ≤ both).
    fn piece_mask(&self, pieces: u64) -> u64 {
        let n = u64::from(self.threads).min(pieces.max(1));
        (1u64 << (63 - n.leading_zeros())) - 1
    }

    fn program(&mut self) {
        self.isa(stmt::mov_special(MovType::U32), vec![name("tid"), name("%tid.x")]);
        if self.threads > 1 {
            self.glue(GlueOp::Setp(Cmp::Eq), GlueType::U32, "lead", vec![name("tid"), imm(0)]);
            self.isa(stmt::cvt(CvtType::U64, CvtType::U32), vec![name("tid64"), name("tid")]);
        }
        if self.ctas > 1 {
            self.isa(stmt::mov_special(MovType::U32), vec![name("rk"), name("%cluster_ctarank")]);
            self.isa(stmt::cvt(CvtType::U64, CvtType::U32), vec![name("rk64"), name("rk")]);
        }
        let exchange = self.cfg.cluster && self.ctas > 1;
        let remote = self.cfg.remote && self.ctas > 1;
        let loads = self.cfg.bulk || self.cfg.tensor || exchange || remote;
        if self.cfg.tensor {
            self.tensor_map();
        }
        if loads || self.cfg.cp_async || self.cfg.reduce {
            self.src_len = 16 * (16 + self.r.below(64)).max(u64::from(self.threads) * 3);
            let bytes = self.words(self.src_len);
            self.buffer("src", BufferSpace::Global, 128, Init::Hex(Region::from_bytes(&bytes).to_hex()));
            if self.cfg.cache_hints {
                self.create_policy();
            }
        }
        if loads {
            let fill = self.fill_byte();
            let tile = self.map.as_ref().map_or(0, TensorMap::tile_extent);
            // An exchange has every thread store up to 16 bytes into its peer's window.
            let stores = if exchange { 16 * u64::from(self.threads) } else { 0 };
            self.win_len = tile.max(16 * (1 + self.r.below(32))).max(stores).next_multiple_of(128);
            self.buffer("win", BufferSpace::Shared, WINDOW_ALIGN, Init::Fill { len: self.win_len, byte: Some(fill) });
            if exchange {
                // What the bulk copies of an exchange send: never written, so never racing.
                let bytes = self.words(self.win_len);
                self.buffer("xsrc", BufferSpace::Shared, 128, Init::Hex(Region::from_bytes(&bytes).to_hex()));
            }
            if remote {
                // What remote exchanges store into (generic stores only, never a copy's target).
                let fill = self.fill_byte();
                let len = 16 * u64::from(self.threads);
                self.buffer("rwin", BufferSpace::Shared, 16, Init::Fill { len, byte: Some(fill) });
            }
            self.buffer("bar", BufferSpace::Shared, 8, Init::Fill { len: 8, byte: Some(0) });
            self.leader(|g| {
                g.isa(forms::mbarrier_init(), vec![at("bar", 0), imm(1)]);
                g.isa(forms::mbarrier_init_fence(), vec![]);
            });
            self.emit(Stmt::Bar);
        }
        let mut episodes: Vec<u8> = Vec::new();
        if loads {
            episodes.extend(std::iter::repeat_n(0, self.cfg.phases as usize));
        }
        if self.cfg.cp_async {
            episodes.push(1);
        }
        if self.cfg.reduce && !loads && !self.cfg.cp_async {
            episodes.push(2);
        }
        // A deterministic shuffle of the episodes.
        for i in (1..episodes.len()).rev() {
            let j = self.r.below(i as u64 + 1) as usize;
            episodes.swap(i, j);
        }
        for e in episodes {
            match e {
                0 => self.mbarrier_phase(),
                1 => self.cp_async_pipeline(),
                _ => {
                    let x = self.name("x");
                    let y = self.name("y");
                    self.isa(stmt::mov_name(MovType::U32, "tid"), vec![name(&x), name("tid")]);
                    let k = self.r.bits() as u32;
                    self.glue(GlueOp::Xor, GlueType::B32, &y, vec![name("tid"), imm(u64::from(k))]);
                    self.write_back(&x, &y);
                }
            }
        }
        if self.bulk_pending {
            self.leader(|g| g.isa(forms::bulk_wait(false), vec![imm(0)]));
        }
        if loads && self.r.below(2) == 1 {
            self.emit(Stmt::Bar);
            self.leader(|g| g.isa(forms::inval(), vec![at("bar", 0)]));
        }
    }

    /// `createpolicy` (§9.7.9.18) into `pol`, run by every thread: a fractional policy (with or
    /// without a fraction) or a range policy over `src`, of any priorities the target allows.
    fn create_policy(&mut self) {
        let forms: Vec<oracle::isa::Createpolicy> =
            oracle::isa::valid_forms(&self.target, Some(oracle::isa::Family::Createpolicy))
                .into_iter()
                .filter_map(|(f, _)| match f {
                    oracle::isa::Form::Createpolicy(c) if c.kind != oracle::isa::PolicyKind::Cvt => Some(c),
                    _ => None,
                })
                .collect();
        if forms.is_empty() {
            return;
        }
        let c = forms[self.r.below(forms.len() as u64) as usize];
        let mut operands = vec![name("pol")];
        match c.kind {
            oracle::isa::PolicyKind::Range => {
                let total = 16 * (1 + self.r.below(self.src_len / 16));
                let primary = 16 * self.r.below(total / 16 + 1);
                operands.extend([at("src", 0), imm(primary), imm(total)]);
            }
            _ if c.fraction => {
                let fractions = [Imm::Float(1.0), Imm::Float(0.5), Imm::Float(0.25), Imm::F32Bits(0x3E80_0000)];
                let k = self.r.below(fractions.len() as u64) as usize;
                operands.push(Operand::Imm(fractions[k].clone()));
            }
            _ => {}
        }
        self.isa(Form::Createpolicy(c), operands);
        self.policy = Some("pol".into());
    }

    /// The next slot of `out` for this thread: a register holding the thread's piece of `out`
    /// (its index across the cluster, so CTAs never write the same bytes) and the slot's byte
    /// offset.
    fn out_slot(&mut self) -> (String, u64) {
        let all = u64::from(self.threads) * u64::from(self.ctas);
        let base = self.slots * all * SLOT;
        self.slots += 1;
        if self.ctas == 1 {
            return (self.thread_addr("out", SLOT, None), base);
        }
        let (g, o, a) = (self.name("g"), self.name("o"), self.name("a"));
        if self.threads > 1 {
            self.glue(GlueOp::MulLo, GlueType::U64, &g, vec![name("rk64"), imm(u64::from(self.threads))]);
            self.glue(GlueOp::Add, GlueType::U64, &g, vec![name(&g), name("tid64")]);
        } else {
            self.isa(stmt::mov_name(MovType::U64, "rk64"), vec![name(&g), name("rk64")]);
        }
        self.glue(GlueOp::MulLo, GlueType::U64, &o, vec![name(&g), imm(SLOT)]);
        self.add_to_buffer(&a, "out", &o);
        (a, base)
    }

    /// `buf` (a global buffer of `len` bytes per CTA) at this CTA's part: the name itself in
    /// one CTA, else a register holding `buf + rank × len`.
    fn cta_part(&mut self, buf: &str, len: u64) -> String {
        if self.ctas == 1 {
            return buf.to_string();
        }
        let (o, a) = (self.name("o"), self.name("a"));
        self.glue(GlueOp::MulLo, GlueType::U64, &o, vec![name("rk64"), imm(len)]);
        self.add_to_buffer(&a, buf, &o);
        a
    }

    /// The finished program and the typed statements its text is printed from.
    fn finish(mut self) -> (MemSource, Vec<Stmt>) {
        if self.slots > 0 {
            let fill = self.fill_byte();
            let len = self.slots * u64::from(self.threads) * u64::from(self.ctas) * SLOT;
            self.buffer("out", BufferSpace::Global, 128, Init::Fill { len, byte: Some(fill) });
        }
        let read: Vec<String> = ["out", "win", "cpw", "stage", "dst", "red", "tdst"]
            .into_iter()
            .filter(|n| self.has(n))
            .map(str::to_string)
            .collect();
        let mut target = self.target;
        if self.object.is_some() {
            self.buffer("tobj", BufferSpace::Global, 128, Init::Fill { len: 128, byte: None });
            target = replace_target(&self.target).unwrap_or(target);
        }
        let mut tensor_maps = match (&self.object, &self.map) {
            (Some(encoded), _) => vec![TensorMapSource {
                name: "tmap".into(),
                global: "tsrc".into(),
                global_offset: 0,
                map: encoded.clone(),
                object: Some("tobj".into()),
            }],
            (None, Some(map)) => vec![TensorMapSource {
                name: "tmap".into(),
                global: "tsrc".into(),
                global_offset: 0,
                map: map.clone(),
                object: None,
            }],
            (None, None) => Vec::new(),
        };
        if let Some(map) = &self.store_map {
            tensor_maps.push(TensorMapSource {
                name: "smap".into(),
                global: "tdst".into(),
                global_offset: 0,
                map: map.clone(),
                object: None,
            });
        }
        let src = MemSource {
            target,
            threads: self.threads,
            cluster: self.ctas,
            statements: self.stmts.iter().map(ToString::to_string).collect(),
            regs: self.regs,
            buffers: self
                .bufs
                .into_iter()
                .map(|b| BufferSource { name: b.name.to_string(), space: b.space, init: b.init, align: b.align })
                .collect(),
            tensor_maps,
            read,
        };
        (src, self.stmts)
    }
}
