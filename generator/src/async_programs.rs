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
//!   `xsrc` — completing on the peer's mbarrier;
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
//! arch-specific twin (sm_90a).
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

use std::collections::BTreeMap;

use oracle::isa::{valid_forms, CpAsyncSrc, Family, Form, Role, Target};
use oracle::isa::{BulkSpace, Completion, RedOp};
use oracle::memory::tensor_map::{Interleave, L2Promotion, MapMode, OobFill, Swizzle, TensorDataType, TensorMap};
use oracle::memory::Region;
use oracle::memprog::{BufferSource, BufferSpace, Init, MemSource, TensorMapSource};
use oracle::program::RegClass;
use serde::{Deserialize, Serialize};

use crate::program::rng::{Rng, SplitMix64};
use crate::program::tables::tables;
use crate::program::values::{draw, Kind};

/// Bytes of `out` each thread writes per consumed window (two loaded words, a `cvt` result
/// of up to 8 bytes, a `prmt` result).
const SLOT: u64 = 24;
/// Largest tile (its extent in shared memory) a generated tensor map has.
const MAX_TILE: u64 = 8 * 1024;
/// Alignment of the window tensor tiles land in (a multiple of every swizzle's repeat).
const WINDOW_ALIGN: u64 = 1024;
/// Probability (‰) that a value or coordinate is drawn from the edges.
const EDGE_PERMILLE: u32 = 400;

/// What programs to generate: the swarm knobs (each family of episodes on or off) and sizes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AsyncConfig {
    /// `cp.async` pipelines with several async-groups in flight.
    pub cp_async: bool,
    /// `cp.async.bulk` loads on the mbarrier and bulk stores back.
    pub bulk: bool,
    /// `cp.async.bulk.tensor` tile loads on the mbarrier, and tensor stores and reductions of
    /// the staging buffer back through a store map.
    pub tensor: bool,
    /// With `tensor`: the tensor map is an im2col map (rank 3–5) half the time, loaded in
    /// `.im2col` mode with drawn `im2colInfo` offsets (never at a start an H100 traps on,
    /// [`TensorMap::im2col_start_traps`]).
    pub im2col: bool,
    /// With `tensor`: a third of the tiled maps are interleaved (rank 3; 16B under any sm_90
    /// swizzle or 32B under the 32B one; dimension 0 in 16- or 32-byte units, one box
    /// position along dimension 1, where an H100 traverses no more:
    /// [`TensorMap::interleave_skips_box`]).
    pub interleave: bool,
    /// `cp.reduce.async.bulk` reductions of the staged values into global memory.
    pub reduce: bool,
    /// `cvt` and `prmt` on the loaded values.
    pub convert: bool,
    /// With `tensor`, in one CTA: a tiled map's copy is a tensor-map object in global memory
    /// (`tobj`) that tensor loads name, and half the phases first re-shape it with
    /// `tensormap.replace` (a smaller global dimension, another box height or element stride,
    /// another swizzle or fill), then the tensormap-proxy release and acquire fences; such
    /// programs run on the target's arch-specific twin (sm_90a, §9.7.9.26).
    pub replace: bool,
    /// A cluster of 2 or 4 CTAs: every CTA runs the program over its own shared memory and its
    /// own part of the global outputs, and mbarrier phases may load through
    /// `.multicast::cluster` copies issued by one CTA.
    pub multicast: bool,
    /// A cluster of 2 or 4 CTAs that write each other's shared memory: some mbarrier phases
    /// are exchanges, where every CTA fills the window of a peer CTA (through `mapa`) with
    /// `st.async` stores of each thread's values and/or a
    /// `cp.async.bulk.shared::cluster.shared::cta` copy, completing on the peer's mbarrier.
    pub cluster: bool,
    /// Most phases of the mbarrier per program (1 or more).
    pub phases: u32,
    /// CTA sizes to choose from.
    pub threads: Vec<u32>,
    /// Swarm testing: each program turns each knob off with probability 1/2 (keeping at least
    /// one kind of copy).
    pub swarm: bool,
}

impl Default for AsyncConfig {
    fn default() -> Self {
        AsyncConfig {
            cp_async: true,
            bulk: true,
            tensor: true,
            im2col: true,
            interleave: true,
            reduce: true,
            convert: true,
            replace: true,
            multicast: true,
            cluster: true,
            phases: 3,
            threads: vec![1, 32, 64, 128],
            swarm: true,
        }
    }
}

impl AsyncConfig {
    /// The knobs that are on, by name (for reports and signatures).
    pub fn switches_on(&self) -> Vec<&'static str> {
        [
            ("cp_async", self.cp_async),
            ("bulk", self.bulk),
            ("tensor", self.tensor),
            ("im2col", self.im2col),
            ("interleave", self.interleave),
            ("reduce", self.reduce),
            ("convert", self.convert),
            ("replace", self.replace),
            ("multicast", self.multicast),
            ("cluster", self.cluster),
        ]
        .into_iter()
        .filter_map(|(n, on)| on.then_some(n))
        .collect()
    }

    /// Whether some kind of copy is on.
    fn copies(&self) -> bool {
        self.cp_async || self.bulk || self.tensor || self.reduce
    }

    /// The configuration one program is generated with: under `swarm`, each knob kept with
    /// probability 1/2 (at least one kind of copy stays on); the phase count drawn in
    /// `1..=phases`; one thread count.
    fn draw(&self, r: &mut impl Rng) -> (AsyncConfig, u32, u32) {
        let mut c = self.clone();
        if self.swarm {
            loop {
                let mut k = c.clone();
                for (knob, on) in [
                    (&mut k.cp_async, self.cp_async),
                    (&mut k.bulk, self.bulk),
                    (&mut k.tensor, self.tensor),
                    (&mut k.im2col, self.im2col),
                    (&mut k.interleave, self.interleave),
                    (&mut k.reduce, self.reduce),
                    (&mut k.convert, self.convert),
                    (&mut k.multicast, self.multicast),
                    (&mut k.cluster, self.cluster),
                    (&mut k.replace, self.replace),
                ] {
                    *knob = on && r.below(2) == 1;
                }
                if k.copies() || !self.copies() {
                    c = k;
                    break;
                }
            }
        }
        c.phases = 1 + r.below(u64::from(self.phases.max(1))) as u32;
        let threads = if self.threads.is_empty() { 1 } else { r.pick(&self.threads).clamp(1, 1024) };
        let ctas = if c.multicast || c.cluster { r.pick(&[2, 4]) } else { 1 };
        (c, threads, ctas)
    }
}

/// The statements of fixed form the generator writes (one of each shape).
const FIXED_FORMS: [&str; 13] = [
    "mbarrier.init.shared::cta.b64 [bar], 1;",
    "fence.mbarrier_init.release.cluster;",
    "mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 16;",
    "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 16;",
    "mbarrier.arrive.shared::cta.b64 _, [bar];",
    "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], ph;",
    "mbarrier.inval.shared::cta.b64 [bar];",
    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [win], [src], 16, [bar];",
    "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [win], [tmap, {c}], [bar];",
    "cp.async.bulk.global.shared::cta.bulk_group [dst], [stage], 16;",
    "fence.proxy.async.shared::cta;",
    "cp.async.bulk.wait_group.read 0;",
    "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [bar];",
];

/// Whether `target` has every form the generator writes (sm_90 and later do): `Err` names
/// the first it lacks.
pub fn supported(target: &Target) -> Result<(), String> {
    for text in FIXED_FORMS {
        let inst: oracle::isa::Instruction = text.parse().map_err(|e| format!("`{text}`: {e}"))?;
        if !oracle::isa::is_valid(&inst.form, target) {
            return Err(format!("{target} lacks `{}`, which async programs use", inst.form.opcode()));
        }
    }
    Ok(())
}

/// The program of `seed` under `cfg` for `target` (SplitMix64 drives [`generate`]).
pub fn generate_seeded(seed: u64, cfg: &AsyncConfig, target: &Target) -> MemSource {
    generate(&mut SplitMix64::new(seed), cfg, target)
}

/// A protocol-correct asynchronous-copy program drawn from `r` (see the module
/// documentation).
pub fn generate(r: &mut impl Rng, cfg: &AsyncConfig, target: &Target) -> MemSource {
    let (cfg, threads, ctas) = cfg.draw(r);
    let mut g = Gen::new(r, *target, threads, cfg);
    g.ctas = ctas;
    g.program();
    g.finish()
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
    stmts: Vec<String>,
    regs: BTreeMap<String, u64>,
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
        }
    }

    fn emit(&mut self, s: impl Into<String>) {
        self.stmts.push(s.into());
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
        self.emit(format!("@!lead bra {l};"));
        body(self);
        self.emit(format!("{l}:"));
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
                self.emit(format!("and.b64 {m}, tid64, {mask};"));
                self.emit(format!("mul.lo.u64 {o}, {m}, {stride};"));
            }
            None => self.emit(format!("mul.lo.u64 {o}, tid64, {stride};")),
        }
        self.emit(format!("mov.u64 {a}, {buf};"));
        self.emit(format!("add.u64 {a}, {a}, {o};"));
        a
    }

    /// The mask for `threads` threads sharing `pieces` pieces (a power of two ≤ both).
    fn piece_mask(&self, pieces: u64) -> u64 {
        let n = u64::from(self.threads).min(pieces.max(1));
        (1u64 << (63 - n.leading_zeros())) - 1
    }

    fn program(&mut self) {
        self.emit("mov.u32 tid, %tid.x;");
        if self.threads > 1 {
            self.emit("setp.eq.u32 lead, tid, 0;");
            self.emit("cvt.u64.u32 tid64, tid;");
        }
        if self.ctas > 1 {
            self.emit("mov.u32 rk, %cluster_ctarank;");
            self.emit("cvt.u64.u32 rk64, rk;");
        }
        let exchange = self.cfg.cluster && self.ctas > 1;
        let loads = self.cfg.bulk || self.cfg.tensor || exchange;
        if self.cfg.tensor {
            self.tensor_map();
        }
        if loads || self.cfg.cp_async || self.cfg.reduce {
            self.src_len = 16 * (16 + self.r.below(64)).max(u64::from(self.threads) * 3);
            let bytes = self.words(self.src_len);
            self.buffer("src", BufferSpace::Global, 128, Init::Hex(Region::from_bytes(&bytes).to_hex()));
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
            self.buffer("bar", BufferSpace::Shared, 8, Init::Fill { len: 8, byte: Some(0) });
            self.leader(|g| {
                g.emit("mbarrier.init.shared::cta.b64 [bar], 1;");
                g.emit("fence.mbarrier_init.release.cluster;");
            });
            self.emit("bar.sync 0;");
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
                    self.emit(format!("mov.u32 {x}, tid;"));
                    let k = self.r.bits() as u32;
                    self.emit(format!("xor.b32 {y}, tid, {k};"));
                    self.write_back(&x, &y);
                }
            }
        }
        if self.bulk_pending {
            self.leader(|g| g.emit("cp.async.bulk.wait_group 0;"));
        }
        if loads && self.r.below(2) == 1 {
            self.emit("bar.sync 0;");
            self.leader(|g| g.emit("mbarrier.inval.shared::cta.b64 [bar];"));
        }
    }

    /// A drawn unpacked element type and sm_90 swizzle, the element's bytes, and the most bytes
    /// a tile's inner dimension may take (a multiple of 16 within the swizzle span, at most
    /// 256 elements).
    fn type_and_swizzle(&mut self) -> (TensorDataType, Swizzle, u64, u64) {
        let dtypes: Vec<TensorDataType> = TensorDataType::ALL.iter().copied().filter(|d| !d.is_packed()).collect();
        let dtype = self.r.pick(&dtypes);
        let swizzle = self.r.pick(&[Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128]);
        let eb = dtype.element_bytes();
        (dtype, swizzle, eb, swizzle.span().unwrap_or(256 * eb).min(256 * eb))
    }

    /// An im2col map over a new global buffer `tsrc` (§5.5.8, `cuTensorMapEncodeIm2col`):
    /// rank 3–5, an unpacked type, channels per pixel a multiple of 16 bytes within the
    /// swizzle span, 1–32 pixels per column, small spatial dimensions, bounding-box corners in
    /// −2…2; `false` when no drawn map is valid for the target.
    fn im2col_map(&mut self) -> bool {
        for _ in 0..64 {
            let (dtype, swizzle, eb, max_inner) = self.type_and_swizzle();
            let rank = 3 + self.r.below(3) as usize;
            let spatial = rank - 2;
            let channels = ((16 * (1 + self.r.below((max_inner / 16).max(1)))) / eb).max(1);
            let mut dims = vec![channels + 16 * self.r.below(2) / eb];
            for _ in 0..spatial {
                dims.push(2 + self.r.below(6));
            }
            dims.push(1 + self.r.below(2));
            let mut strides = Vec::new();
            let mut s = (dims[0] * eb).next_multiple_of(16) + 16 * self.r.below(2);
            for &n in &dims[1..] {
                strides.push(s);
                s *= n;
            }
            let corner = |r: &mut R| r.below(5) as i32 - 2;
            let lower: Vec<i32> = (0..spatial).map(|_| corner(self.r)).collect();
            let upper: Vec<i32> = (0..spatial).map(|_| corner(self.r)).collect();
            let oob = if dtype.is_float() && self.r.below(2) == 1 { OobFill::NanRequestZeroFma } else { OobFill::None };
            let map = TensorMap {
                mode: MapMode::Im2col {
                    lower_corner: lower,
                    upper_corner: upper,
                    channels_per_pixel: channels as u32,
                    pixels_per_column: 1 + self.r.below(32) as u32,
                },
                dtype,
                global_address: 0x1_0000_0000,
                dims,
                strides,
                box_dims: vec![],
                element_strides: vec![1; rank],
                interleave: Interleave::None,
                swizzle,
                l2_promotion: self.r.pick(L2Promotion::ALL),
                oob_fill: oob,
            };
            let len = s;
            if len > 64 * 1024 || map.validate(&self.target).is_err() || map.tile_extent() > MAX_TILE {
                continue;
            }
            let bytes = self.words(len);
            self.buffer("tsrc", BufferSpace::Global, 256, Init::Hex(Region::from_bytes(&bytes).to_hex()));
            self.map = Some(map);
            return true;
        }
        false
    }

    /// A tensor map over a new global buffer `tsrc`: a valid sm_90 tiled map of an unpacked
    /// type, rank 1–3, a tile of at most [`MAX_TILE`] bytes; with `interleave` a third of them
    /// interleaved (rank 3, dimension 0 in units of 16 or 32 bytes, one box position along
    /// dimension 1).
    fn tensor_map(&mut self) {
        if self.cfg.im2col && self.r.below(2) == 0 && self.im2col_map() {
            return;
        }
        let interleave = if self.cfg.interleave && self.r.below(3) == 0 {
            self.r.pick(&[Interleave::B16, Interleave::B16, Interleave::B32])
        } else {
            Interleave::None
        };
        for _ in 0..64 {
            let (dtype, mut swizzle, eb, mut max_inner) = self.type_and_swizzle();
            let mut rank = 1 + self.r.below(3) as usize;
            let unit = interleave.unit_bytes();
            if let Some(unit) = unit {
                // boxDim[0] · element size stays a multiple of 16 bytes (the driver's rule) and
                // the tile small: boxDim[0] counts units of 16 or 32 bytes.
                rank = 3;
                max_inner = 16 * (1 + u64::from(unit == 16 && eb >= 4));
                if interleave == Interleave::B32 {
                    swizzle = Swizzle::B32;
                }
            }
            let inner_bytes = 16 * (1 + self.r.below((max_inner / 16).max(1)));
            let box0 = (inner_bytes / eb).max(1);
            let mut dims = vec![box0 + self.r.below(2 * box0 + 4)];
            let mut boxes = vec![box0 as u32];
            // The element stride of dimension 0 applies to interleaved maps only.
            let mut es = vec![if unit.is_some() && self.r.permille(300) { 2 } else { 1u32 }];
            for d in 1..rank {
                let b = if unit.is_some() && d == rank - 2 { 1 } else { 1 + self.r.below(8) };
                dims.push((b + self.r.below(12)).max(1));
                boxes.push(b as u32);
                es.push(if self.r.permille(200) { 1 + self.r.below(3) as u32 } else { 1 });
            }
            let mut strides = Vec::new();
            let row = dims[0] * unit.unwrap_or(eb);
            // Strides are multiples of 16 bytes, 32 with interleave (cuda.h asks it of 32B).
            let step = if unit.is_some() { 32 } else { 16 };
            let mut s = row.next_multiple_of(step) + step * self.r.below(3);
            for &dim in &dims[1..] {
                strides.push(s);
                s = s * dim + step * self.r.below(2);
            }
            let len = if rank == 1 { row.next_multiple_of(16) } else { strides[rank - 2] * dims[rank - 1] };
            let oob = if dtype.is_float() && self.r.below(2) == 1 { OobFill::NanRequestZeroFma } else { OobFill::None };
            let l2 = self.r.pick(L2Promotion::ALL);
            let map = TensorMap {
                dims,
                strides,
                box_dims: boxes,
                element_strides: es,
                oob_fill: oob,
                l2_promotion: l2,
                global_address: 0x1_0000_0000,
                mode: MapMode::Tiled,
                dtype,
                interleave,
                swizzle,
            };
            if len > 64 * 1024
                || map.validate(&self.target).is_err()
                || map.tile_extent() > MAX_TILE
                || map.interleave_skips_box()
            {
                continue;
            }
            let bytes = self.words(len);
            self.buffer("tsrc", BufferSpace::Global, 256, Init::Hex(Region::from_bytes(&bytes).to_hex()));
            if self.cfg.replace && self.ctas == 1 && crate::async_cases::replace_target(&self.target).is_some() {
                self.object = Some(map.clone());
            }
            self.map = Some(map);
            return;
        }
    }

    /// Coordinates of a tile of the map: each straddles an edge or lies inside, and the inner
    /// coordinate keeps the load off the H100's trap.
    fn coords(&mut self, map: &TensorMap) -> Vec<i32> {
        let eb = map.element_bytes() as i64;
        // An interleaved map counts dimension 0 in whole units.
        let q = if map.interleave == Interleave::None { 16 / gcd(eb, 16) } else { 1 };
        loop {
            let mut c = Vec::new();
            for d in 0..map.rank() {
                let dim = map.dims[d] as i64;
                let bx = i64::from(map.box_dims[d]);
                let v = if self.r.permille(EDGE_PERMILLE) {
                    self.r.pick(&[-bx, -bx + 1, -1, 0, 1, dim - bx, dim - 1, dim, dim + 1])
                } else {
                    self.r.below((dim + 2 * bx + 2) as u64) as i64 - bx - 1
                };
                let v = if d == 0 { v.div_euclid(q) * q } else { v };
                c.push(v as i32);
            }
            if !map.inner_coordinate_traps(&c) {
                return c;
            }
        }
    }

    /// Coordinates (channel, spatial…, image) and `im2colInfo` offsets (one per spatial
    /// dimension) for an im2col load: the channel at a 16-byte boundary, spatial coordinates
    /// inside the pixel bounding box (its edges as often as its inside: outside it an H100
    /// traps, [`TensorMap::im2col_start_traps`]), every image; drawn until the model places
    /// the column (the first zeros otherwise).
    fn im2col_coords(&mut self, map: &TensorMap) -> (Vec<i32>, Vec<u16>) {
        let MapMode::Im2col { lower_corner, upper_corner, .. } = &map.mode else { return (Vec::new(), Vec::new()) };
        let rank = map.rank();
        let spatial = rank - 2;
        let q = (16 / map.element_bytes().max(1)).max(1);
        for _ in 0..64 {
            let mut c = vec![(q * self.r.below((map.dims[0] / q).max(1))) as i32];
            for d in 0..spatial {
                let (lo, hi) = (i64::from(lower_corner[d]), map.dims[d + 1] as i64 + i64::from(upper_corner[d]));
                let v = if self.r.permille(EDGE_PERMILLE) {
                    self.r.pick(&[lo, lo + 1, hi - 1, hi, -1, 0])
                } else {
                    lo + self.r.below((hi - lo + 1).max(1) as u64) as i64
                };
                c.push(v as i32);
            }
            c.push(self.r.below(map.dims[rank - 1]) as i32);
            let offsets: Vec<u16> = (0..spatial).map(|_| self.r.below(3) as u16).collect();
            if !map.im2col_start_traps(&c) && map.tile_at(0, &c, &offsets).is_ok() {
                return (c, offsets);
            }
        }
        (vec![0; rank], vec![0; spatial])
    }

    /// One phase of the mbarrier: a bulk or tensor load of exactly the bytes expected, the
    /// wait on the phase's parity, and the window consumed.
    fn mbarrier_phase(&mut self) {
        let parity = self.phases & 1;
        self.phases += 1;
        let copies = self.cfg.bulk || self.cfg.tensor;
        if self.cfg.cluster && self.ctas > 1 && (!copies || self.r.below(3) == 0) {
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
                self.regs.insert(n.clone(), u64::from(*v as u32));
            }
            let (mode, info) = if matches!(map.mode, MapMode::Im2col { .. }) {
                let os: Vec<String> = (0..offsets.len()).map(|_| self.name("o")).collect();
                for (n, &v) in os.iter().zip(&offsets) {
                    self.regs.insert(n.clone(), u64::from(v));
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
    fn wait_and_consume(&mut self, parity: u32, read_len: u64) {
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

    /// An exchange phase (`cluster`): every CTA's leader arms its mbarrier for the bytes its
    /// peer will send, `barrier.cluster.arrive`/`wait` (every mbarrier armed, every window
    /// read), then every CTA writes the window of its peer `(rank + shift) mod CTAs` through
    /// `mapa.shared::cluster` addresses: each thread an `st.async` of 4, 8 or 16 bytes at its
    /// own offset and/or the leader a `cp.async.bulk.shared::cluster.shared::cta` copy of
    /// `xsrc` after them, both completing on the peer's mbarrier (§9.7.9.12, §9.7.9.25.4.1);
    /// then the wait on its own phase and the window consumed.
    fn exchange_phase(&mut self, parity: u32) {
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
            let (shape, operand) = match lanes {
                1 => ("b32".to_string(), vals[0].clone()),
                n => (format!("v{n}.b32"), format!("{{{}}}", vals.join(", "))),
            };
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

    /// The leader re-shapes the tensor-map object with one `tensormap.replace` (§9.7.9.26) that
    /// keeps it a map the driver encodes, reading only `tsrc` and fitting the window: a global
    /// dimension no larger than encoded, a box height of 1–8 or element stride of 1–3 along a
    /// dimension ≥ 1, a swizzle, or (float maps) a fill mode; then releases it to the tensormap
    /// proxy and acquires it for its own copies (§9.7.13.4). The phase's copy was waited for.
    fn replace_step(&mut self) {
        use oracle::isa::TensormapField as F;
        let (Some(map), Some(encoded)) = (self.map.clone(), self.object.clone()) else { return };
        for _ in 0..16 {
            let rank = map.rank() as u64;
            let upper = 1 + self.r.below(rank.max(2) - 1) as usize;
            let (field, ord, value) = match self.r.below(5) {
                0 => {
                    let d = self.r.below(rank) as usize;
                    (F::GlobalDim, Some(d), 1 + self.r.below(encoded.dims[d]))
                }
                1 if rank > 1 => (F::BoxDim, Some(upper), 1 + self.r.below(8)),
                2 if rank > 1 => (F::ElementStride, Some(upper), 1 + self.r.below(3)),
                3 => (F::SwizzleMode, None, self.r.below(4)),
                4 if map.dtype.is_float() => (F::FillMode, None, self.r.below(2)),
                _ => continue,
            };
            let Ok(next) = map.replaced(field, ord, value) else { continue };
            if next.validate(&self.target).is_err() || next.tile_extent() > self.win_len || next.interleave_skips_box()
            {
                continue;
            }
            let op = crate::async_cases::replace_opcode(field, Some(value));
            let ord = ord.map_or(String::new(), |o| format!("{o}, "));
            self.leader(|g| {
                g.emit(format!("{op} [tobj], {ord}{value};"));
                g.emit("fence.proxy.tensormap::generic.release.gpu;");
                g.emit("fence.proxy.tensormap::generic.acquire.gpu [tobj], 128;");
            });
            self.map = Some(next);
            return;
        }
    }

    /// The leader arms its own mbarrier for `bytes` and issues `copies` into its CTA's window:
    /// `arrive.expect_tx` first, or `expect_tx`, the copies, then `arrive`.
    fn own_phase(&mut self, bytes: u64, copies: Vec<String>) {
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

    /// A multicast phase: every CTA's leader arms its own mbarrier for the bytes its CTA gets
    /// (`bytes` where `mask`, in register `mk`, names it; none elsewhere), the cluster barrier (every CTA has armed
    /// its mbarrier and finished reading its window), then the leader of CTA `issuer` issues
    /// `copies`, each landing in every CTA of `mask` at the same offset and signalling the
    /// mbarrier at the same offset there (§9.7.9.25.4.1).
    fn multicast_phase(&mut self, mask: u64, issuer: u64, mk: &str, bytes: u64, copies: Vec<String>) {
        let (m, mine, tx, iss) = (self.name("m"), self.name("mine"), self.name("tx"), self.name("iss"));
        // `mk` is the copies' 16-bit ctaMask operand; `m` the same bits as a 32-bit register.
        self.regs.insert(mk.to_string(), mask);
        self.regs.insert(m.clone(), mask);
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

    /// The `try_wait.parity` loop on `bar` for `parity`.
    fn wait(&mut self, parity: u32) {
        let ph = self.name("ph");
        let p = self.name("p");
        let l = self.name("W");
        self.emit(format!("mov.u32 {ph}, {parity};"));
        self.emit(format!("{l}:"));
        self.emit(format!("mbarrier.try_wait.parity.shared::cta.b64 {p}, [bar], {ph};"));
        self.emit(format!("@!{p} bra {l};"));
    }

    /// Each thread loads the word pair at `buf + (tid & mask) * stride + extra` and stores
    /// it (and, with `convert`, a `cvt` and a `prmt` of it) to its slot of `out`; then,
    /// with `bulk` or `reduce`, writes the values back through the staging buffer.
    fn consume(&mut self, buf: &str, stride: u64, mask: u64, extra: u64) {
        let a = self.thread_addr(buf, stride, Some(mask));
        let x = self.name("x");
        let y = self.name("y");
        self.emit(format!("ld.shared.v2.b32 {{{x}, {y}}}, [{a}+{extra}];"));
        let (o, base) = self.out_slot();
        self.emit(format!("st.global.v2.b32 [{o}+{base}], {{{x}, {y}}};"));
        let mut second = y.clone();
        if self.cfg.convert {
            if let Some((op, class)) = self.pick_cvt() {
                let z = self.name("z");
                self.emit(format!("{op} {z}, {x};"));
                let w = match class {
                    RegClass::B16 => 16,
                    RegClass::B64 => 64,
                    _ => 32,
                };
                self.emit(format!("st.global.b{w} [{o}+{}], {z};", base + 8));
            }
            if let Some(op) = self.pick_prmt() {
                let w = self.name("w");
                let sel = draw(self.r, Kind::Bits(32), EDGE_PERMILLE) as u32 & 0xffff;
                self.emit(format!("{op} {w}, {x}, {y}, {sel};"));
                self.emit(format!("st.global.b32 [{o}+{}], {w};", base + 16));
                second = w;
            }
        }
        if self.cfg.bulk || self.cfg.reduce {
            self.write_back(&x, &second);
        }
    }

    /// A plain `cvt` from a 32-bit register: its opcode and the destination's class.
    fn pick_cvt(&mut self) -> Option<(String, RegClass)> {
        let tb = tables(&self.target);
        let ok: Vec<(String, RegClass)> = tb
            .cvt_plain
            .iter()
            .filter_map(|c| {
                let form = &tb.cvt[c.item as usize].form;
                let specs = form.operands();
                let class = |role: Role| {
                    specs.iter().find(|s| s.role == role).and_then(|s| match s.kind {
                        oracle::isa::operand::OperandKind::Reg(t) => oracle::program::operand_class(form, t),
                        _ => None,
                    })
                };
                match (class(Role::Dst), class(Role::Src)) {
                    (Some(d), Some(RegClass::B32)) if d != RegClass::Pred => Some((form.opcode(), d)),
                    _ => None,
                }
            })
            .collect();
        if ok.is_empty() {
            return None;
        }
        let k = self.r.below(ok.len() as u64) as usize;
        Some(ok[k].clone())
    }

    /// A `prmt` opcode of the target whose operands are `d, a, b, c`.
    fn pick_prmt(&mut self) -> Option<String> {
        let tb = tables(&self.target);
        let ok: Vec<String> =
            tb.prmt.iter().filter(|e| e.form.operands().len() == 4).map(|e| e.form.opcode()).collect();
        if ok.is_empty() {
            return None;
        }
        let k = self.r.below(ok.len() as u64) as usize;
        Some(ok[k].clone())
    }

    /// The threads' words `x`, `y` staged in shared memory, fenced to the async proxy, then
    /// stored back (`cp.async.bulk`) and/or reduced (`cp.reduce.async.bulk`) by the leader.
    fn write_back(&mut self, x: &str, y: &str) {
        let stage_len = (u64::from(self.threads) * 8).next_multiple_of(16);
        if !self.has("stage") {
            let fill = self.fill_byte();
            self.buffer("stage", BufferSpace::Shared, 128, Init::Fill { len: stage_len, byte: Some(fill) });
        }
        let s = self.thread_addr("stage", 8, None);
        self.emit(format!("st.shared.v2.b32 [{s}], {{{x}, {y}}};"));
        self.emit("fence.proxy.async.shared::cta;");
        self.emit("bar.sync 0;");
        let pending = std::mem::take(&mut self.bulk_pending);
        let store = self.cfg.bulk && (!self.cfg.reduce || self.r.below(2) == 0);
        let reduce = self.cfg.reduce && (!store || self.r.below(2) == 0);
        let size = 16 * (1 + self.r.below(stage_len / 16));
        let mut stmts = Vec::new();
        if self.cfg.tensor && self.r.below(2) == 0 {
            if let Some(stmt) = self.tensor_back(stage_len, store, reduce) {
                stmts.push(stmt);
            }
        }
        if store {
            let len = 4 * stage_len;
            if !self.has("dst") {
                let fill = self.fill_byte();
                let all = len * u64::from(self.ctas);
                self.buffer("dst", BufferSpace::Global, 128, Init::Fill { len: all, byte: Some(fill) });
            }
            let off = 16 * self.r.below((len - size) / 16 + 1);
            let dst = self.cta_part("dst", len);
            stmts.push(format!("cp.async.bulk.global.shared::cta.bulk_group [{dst}+{off}], [stage], {size};"));
        }
        if reduce {
            let len = 2 * stage_len;
            if !self.has("red") {
                let bytes = self.words(len * u64::from(self.ctas));
                self.buffer("red", BufferSpace::Global, 128, Init::Hex(Region::from_bytes(&bytes).to_hex()));
            }
            let op = self.pick_reduce();
            let off = 16 * self.r.below((len - size) / 16 + 1);
            let red = self.cta_part("red", len);
            stmts.push(format!("{op} [{red}+{off}], [stage], {size};"));
        }
        let read_only = self.r.below(2) == 0;
        self.leader(|g| {
            if pending {
                // No two pending bulk writes may overlap: the earlier ones complete first.
                g.emit("cp.async.bulk.wait_group 0;");
            }
            for s in stmts {
                g.emit(s);
            }
            g.emit("cp.async.bulk.commit_group;");
            g.emit(if read_only { "cp.async.bulk.wait_group.read 0;" } else { "cp.async.bulk.wait_group 0;" });
        });
        self.bulk_pending = read_only;
        // The staging buffer is written again later: the leader's copy has read it.
        self.emit("bar.sync 0;");
    }

    /// A tensor store (with `store`) or tensor reduction (with `reduce`) of `stage` through the
    /// store map `smap` (drawn on first use: rank 1 or 2, a tile no larger than `stage`, every
    /// CTA's tiles inside its own slice of the last dimension, coordinates inside the tensor as
    /// §9.7.9.25.5.1 asks of stores, dimension 0 at a 16-byte boundary); a reduction draws a
    /// redOp the map's type has (§9.7.9.25.5.3), never a bitwise one over INT64 (an H100 traps:
    /// corpus/findings/tensor-reduce-int64-bitwise-trap.md). `None` when no map fits.
    fn tensor_back(&mut self, stage_len: u64, store: bool, reduce: bool) -> Option<String> {
        let map = match self.store_map.clone() {
            Some(m) => m,
            None => {
                let m = self.draw_store_map(stage_len)?;
                self.store_map = Some(m.clone());
                m
            }
        };
        let rank = map.rank();
        let ops: Vec<RedOp> =
            [RedOp::Add, RedOp::Min, RedOp::Max, RedOp::Inc, RedOp::Dec, RedOp::And, RedOp::Or, RedOp::Xor]
                .into_iter()
                .filter(|&op| {
                    crate::async_cases::reduce_types(op).contains(&map.dtype)
                        && !crate::async_cases::int64_bitwise(op, &map)
                })
                .collect();
        let redop = if reduce && !ops.is_empty() && (!store || self.r.below(2) == 0) {
            Some(self.r.pick(&ops))
        } else if store {
            None
        } else {
            return None;
        };
        let (opcode, _, _) =
            crate::async_cases::tensor_write_forms(&self.target, oracle::isa::LoadMode::Tile, &|r| r == rank, &|op| {
                Some(op) == redop
            })
            .into_iter()
            .find(|(_, op, _)| *op == redop)?;
        let eb = map.element_bytes().max(1);
        let q = (16 / eb).max(1);
        let names: Vec<String> = (0..rank).map(|_| self.name("sc")).collect();
        for (d, n) in names.iter().enumerate() {
            let b = u64::from(map.box_dims[d]);
            let last = d + 1 == rank;
            // Along the last dimension each CTA owns a slice of `dims / CTAs` (a multiple of q
            // along dimension 0): every write-back of a CTA stays in its slice, so no two CTAs
            // ever write the same bytes.
            let slice = if last { map.dims[d] / u64::from(self.ctas) } else { map.dims[d] };
            let mut base = self.r.below(slice.saturating_sub(b) + 1);
            if d == 0 {
                base = base / q * q;
            }
            if last && self.ctas > 1 {
                let t = self.name("t");
                self.emit(format!("mul.lo.u32 {t}, rk, {slice};"));
                self.emit(format!("add.u32 {n}, {t}, {base};"));
            } else {
                self.regs.insert(n.clone(), base);
            }
        }
        Some(format!("{opcode} [smap, {{{}}}], [stage];", names.join(", ")))
    }

    /// A tiled store map over a new global buffer `tdst`: rank 1 or 2, a type with tensor
    /// reductions (or a byte or half-word type), rows of 16–64 bytes, a tile of at most
    /// `stage_len` bytes, the last dimension one slice per CTA, each room for a tile; `None`
    /// when the stage is too small for any.
    fn draw_store_map(&mut self, stage_len: u64) -> Option<TensorMap> {
        use TensorDataType as D;
        for _ in 0..32 {
            let dtype = self.r.pick(&[
                D::Uint8,
                D::Uint16,
                D::Float16,
                D::Bfloat16,
                D::Float32,
                D::Uint32,
                D::Int32,
                D::Uint64,
                D::Int64,
            ]);
            let eb = dtype.element_bytes();
            let rank = 1 + self.r.below(2) as usize;
            let inner = 16 * (1 + self.r.below((stage_len / 16).clamp(1, 4)));
            let box0 = inner / eb;
            let rows = if rank == 2 { 1 + self.r.below((stage_len / inner).clamp(1, 4)) } else { 1 };
            let ctas = u64::from(self.ctas);
            // The last dimension is `ctas` slices, one per CTA (a multiple of 16 bytes along
            // dimension 0, so every slice starts at a 16-byte boundary).
            let q = (16 / eb).max(1);
            let (dims, boxes) = if rank == 1 {
                (vec![(box0 + q * self.r.below(box0 / q + 1)) * ctas], vec![box0 as u32])
            } else {
                (vec![box0 + self.r.below(box0 + 1), (rows + self.r.below(3)) * ctas], vec![box0 as u32, rows as u32])
            };
            let strides =
                if rank == 2 { vec![(dims[0] * eb).next_multiple_of(16) + 16 * self.r.below(2)] } else { Vec::new() };
            let len = match strides.first() {
                Some(&s) => s * dims[1],
                None => (dims[0] * eb).next_multiple_of(16),
            };
            let map = TensorMap {
                mode: MapMode::Tiled,
                dtype,
                global_address: 0x2_0000_0000,
                dims,
                strides,
                box_dims: boxes,
                element_strides: vec![1; rank],
                interleave: Interleave::None,
                swizzle: self.r.pick(&[Swizzle::None, Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128]),
                l2_promotion: L2Promotion::None,
                oob_fill: OobFill::None,
            };
            if map.validate(&self.target).is_err() || map.tile_extent() > stage_len {
                continue;
            }
            let bytes = self.words(len);
            self.buffer("tdst", BufferSpace::Global, 256, Init::Hex(Region::from_bytes(&bytes).to_hex()));
            return Some(map);
        }
        None
    }

    /// A `cp.reduce.async.bulk` opcode from shared::cta to global through a bulk group
    /// (every redOp × type the target allows).
    fn pick_reduce(&mut self) -> String {
        let forms: Vec<String> = valid_forms(&self.target, Some(Family::CpReduceAsyncBulk))
            .into_iter()
            .filter_map(|(f, _)| match &f {
                Form::CpReduceAsyncBulk(c)
                    if c.dst == BulkSpace::Global
                        && c.src == BulkSpace::SharedCta
                        && c.completion == Completion::BulkGroup
                        && !c.cache_hint =>
                {
                    Some(f.opcode())
                }
                _ => None,
            })
            .collect();
        let k = self.r.below(forms.len() as u64) as usize;
        forms[k].clone()
    }

    /// A `cp.async` pipeline: every thread copies its own chunk in several async-groups,
    /// waits with groups in flight, consumes what completed, then waits for all.
    fn cp_async_pipeline(&mut self) {
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
                Form::CpAsync(c) if !c.cache_hint => Some(c),
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
                self.emit(format!("{op} [{d}+{off}], [{s}+{off}], {size}{tail};"));
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
    fn consume_own(&mut self, a: &str, off: u64) {
        let x = self.name("x");
        let y = self.name("y");
        self.emit(format!("ld.shared.v2.b32 {{{x}, {y}}}, [{a}+{off}];"));
        let (o, base) = self.out_slot();
        self.emit(format!("st.global.v2.b32 [{o}+{base}], {{{x}, {y}}};"));
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
            self.emit(format!("mul.lo.u64 {g}, rk64, {};", self.threads));
            self.emit(format!("add.u64 {g}, {g}, tid64;"));
        } else {
            self.emit(format!("mov.u64 {g}, rk64;"));
        }
        self.emit(format!("mul.lo.u64 {o}, {g}, {SLOT};"));
        self.emit(format!("mov.u64 {a}, out;"));
        self.emit(format!("add.u64 {a}, {a}, {o};"));
        (a, base)
    }

    /// `buf` (a global buffer of `len` bytes per CTA) at this CTA's part: the name itself in
    /// one CTA, else a register holding `buf + rank × len`.
    fn cta_part(&mut self, buf: &str, len: u64) -> String {
        if self.ctas == 1 {
            return buf.to_string();
        }
        let (o, a) = (self.name("o"), self.name("a"));
        self.emit(format!("mul.lo.u64 {o}, rk64, {len};"));
        self.emit(format!("mov.u64 {a}, {buf};"));
        self.emit(format!("add.u64 {a}, {a}, {o};"));
        a
    }

    fn finish(mut self) -> MemSource {
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
            target = crate::async_cases::replace_target(&self.target).unwrap_or(target);
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
        MemSource {
            target,
            threads: self.threads,
            cluster: self.ctas,
            statements: self.stmts,
            regs: self.regs,
            buffers: self
                .bufs
                .into_iter()
                .map(|b| BufferSource { name: b.name.to_string(), space: b.space, init: b.init, align: b.align })
                .collect(),
            tensor_maps,
            read,
        }
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oracle::semantics::Allowances;

    fn target() -> Target {
        "sm_90".parse().expect("sm_90 is a target")
    }

    /// The oracle's verdict on the program of `seed`: `Err` with the program when it does not
    /// build or run.
    fn check(seed: u64, cfg: &AsyncConfig) -> Result<(), String> {
        let src = generate_seeded(seed, cfg, &target());
        let show = || format!("seed {seed}:\n{}", src.statements.join("\n"));
        let p = src.build().map_err(|e| format!("{}\nbuild: {e}", show()))?;
        oracle::memprog::interp::run(&p, &Allowances::all()).map_err(|e| format!("{}\nrun: {e}", show()))?;
        if !crate::async_minimize::protocol_correct(&src, &Allowances::all()) {
            return Err(format!("{}\na write of a read-back buffer is still pending at the end", show()));
        }
        oracle::memprog::ptx::module(&[&p]).map_err(|e| format!("{}\nprint: {e}", show()))?;
        Ok(())
    }

    /// Protocol-correct by construction: thousands of seeds build and run on the oracle with
    /// no parse error, protocol error, undefined operation or hang, and print as PTX.
    #[test]
    fn thousands_of_seeds_are_protocol_correct() {
        let cfg = AsyncConfig::default();
        let bad: Vec<String> = (0..3000u64).filter_map(|s| check(s, &cfg).err()).collect();
        assert!(bad.is_empty(), "{} of 3000 programs fail; the first:\n{}", bad.len(), bad[0]);
    }

    /// Later targets (their own cvt, prmt and reduction forms) too.
    #[test]
    fn later_targets_are_protocol_correct_too() {
        let cfg = AsyncConfig::default();
        for t in ["sm_90a", "sm_100a"] {
            let target: Target = t.parse().expect("a target");
            let bad: Vec<String> = (0..300u64)
                .filter_map(|seed| {
                    let src = generate_seeded(seed, &cfg, &target);
                    match src.build() {
                        Err(e) => Some(format!("{t} seed {seed}: build: {e}")),
                        Ok(p) => oracle::memprog::interp::run(&p, &Allowances::all())
                            .err()
                            .map(|e| format!("{t} seed {seed}: {e}")),
                    }
                })
                .collect();
            assert!(bad.is_empty(), "{} failures; the first: {}", bad.len(), bad[0]);
        }
    }

    /// Every kind of episode and edge the module documentation promises turns up.
    #[test]
    fn every_family_and_edge_is_generated() {
        let cfg = AsyncConfig { im2col: true, ..AsyncConfig::default() };
        let programs: Vec<MemSource> = (0..400u64).map(|s| generate_seeded(s, &cfg, &target())).collect();
        let text: String = programs.iter().flat_map(|p| p.statements.iter()).map(|s| format!("{s}\n")).collect();
        for needle in [
            "cp.async.bulk.tensor.1d.",
            "cp.async.bulk.tensor.2d.",
            "cp.async.bulk.tensor.3d.",
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes",
            "cp.async.bulk.global.shared::cta.bulk_group",
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32",
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.bf16",
            "cp.async.cg.shared.global",
            "cp.async.wait_group 1;",
            "cp.async.wait_group 2;",
            "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [cpbar];",
            "mbarrier.expect_tx",
            "mbarrier.arrive.expect_tx",
            "mbarrier.inval",
            "cvt.",
            "prmt.b32",
            "fence.proxy.async.shared::cta;",
            "mbarrier::complete_tx::bytes.multicast::cluster [win+",
            "global.tile.mbarrier::complete_tx::bytes.multicast::cluster [win], [tmap",
            "barrier.cluster.wait;",
            "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [win]",
            "cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes.multicast::cluster",
            "tensormap.replace.tile.global_dim.global.b1024.b32 [tobj], ",
            "tensormap.replace.tile.box_dim.global.b1024.b32 [tobj], ",
            "tensormap.replace.tile.element_stride.global.b1024.b32 [tobj], ",
            "tensormap.replace.tile.swizzle_mode.global.b1024.b32 [tobj], ",
            "tensormap.replace.tile.fill_mode.global.b1024.b32 [tobj], ",
            "fence.proxy.tensormap::generic.acquire.gpu [tobj], 128;",
            "global.tile.mbarrier::complete_tx::bytes [win], [tobj, {",
            "mapa.shared::cluster.u32 rw",
            "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [a",
            "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [a",
            "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [a",
            "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [rw",
            "cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [smap, {",
            "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [smap, {",
            "cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [smap, {",
            "cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group [smap, {",
        ] {
            assert!(text.contains(needle), "no program has `{needle}`");
        }
        let exchanging = programs.iter().filter(|p| p.statements.iter().any(|s| s.starts_with("mapa."))).count();
        eprintln!("{exchanging} of {} programs exchange between CTAs", programs.len());
        for inter in [Interleave::B16, Interleave::B32] {
            let n = programs.iter().filter(|p| p.tensor_maps.iter().any(|m| m.map.interleave == inter)).count();
            eprintln!("{n} of {} programs over {} interleaved maps", programs.len(), inter.name());
            assert!(n >= 5, "{n} programs over {} interleaved maps", inter.name());
        }
        // Programs with a tensor-map object run on sm_90a; the others stay on sm_90.
        for p in &programs {
            let object = p.tensor_maps.iter().any(|m| m.object.is_some());
            assert_eq!(p.target.name(), if object { "sm_90a" } else { "sm_90" });
        }
        let clusters: std::collections::BTreeSet<u32> = programs.iter().map(|p| p.cluster).collect();
        assert_eq!(clusters, [1, 2, 4].into(), "one CTA and clusters of 2 and 4");
        let src_size_0 = |s: &String| s.starts_with("cp.async.c") && s.ends_with(", 0;");
        assert!(programs.iter().flat_map(|p| &p.statements).any(src_size_0), "no cp.async with src-size 0");
        let swizzles: std::collections::BTreeSet<&str> =
            programs.iter().flat_map(|p| &p.tensor_maps).map(|m| m.map.swizzle.name()).collect();
        assert_eq!(swizzles.len(), 4, "every sm_90 swizzle: {swizzles:?}");
        let fills: std::collections::BTreeSet<&str> =
            programs.iter().flat_map(|p| &p.tensor_maps).map(|m| m.map.oob_fill.name()).collect();
        assert_eq!(fills.len(), 2, "every out-of-bounds fill: {fills:?}");
        // Tiles straddling the low and the high edge of dimension 0.
        let coords = |p: &MemSource| -> Vec<(i64, i64, i64)> {
            let Some(m) = p.tensor_maps.first().filter(|m| matches!(m.map.mode, MapMode::Tiled)) else {
                return Vec::new();
            };
            p.regs
                .iter()
                .filter(|(n, _)| n.starts_with('c'))
                .map(|(_, v)| (*v as u32 as i32 as i64, m.map.dims[0] as i64, i64::from(m.map.box_dims[0])))
                .collect()
        };
        let all: Vec<(i64, i64, i64)> = programs.iter().flat_map(coords).collect();
        assert!(all.iter().any(|&(c, _, _)| c < 0), "a negative coordinate");
        assert!(all.iter().any(|&(c, d, b)| c < d && c + b > d), "a tile past the end");
        let threads: std::collections::BTreeSet<u32> = programs.iter().map(|p| p.threads).collect();
        assert_eq!(threads.len(), 4, "{threads:?}");
    }

    #[test]
    fn targets_without_the_async_forms_are_refused() {
        assert_eq!(supported(&target()), Ok(()));
        assert!(supported(&"sm_100a".parse().expect("a target")).is_ok());
        let e = supported(&"sm_80".parse().expect("a target")).expect_err("sm_80 has no mbarrier tx-count");
        assert!(e.contains("sm_80 lacks"), "{e}");
    }

    #[test]
    fn a_seed_gives_the_same_program() {
        let cfg = AsyncConfig::default();
        for s in 0..20 {
            assert_eq!(generate_seeded(s, &cfg, &target()), generate_seeded(s, &cfg, &target()));
        }
        assert_ne!(generate_seeded(1, &cfg, &target()), generate_seeded(2, &cfg, &target()));
    }

    /// A knob that is off never shows up.
    /// Tensor write-backs in a cluster stay in the writing CTA's slice of the store map's last
    /// dimension (`mul.lo.u32 t, rk, slice; add.u32 sc, t, base;` with base + box ≤ slice =
    /// dims / CTAs), so no two CTAs write the same `tdst` bytes, whichever write-backs overlap
    /// in time (the lockstep oracle would not see such a race).
    #[test]
    fn cluster_write_backs_stay_in_their_ctas_slices() {
        let mut checked = 0;
        for seed in 0..1500u64 {
            let p = generate_seeded(seed, &AsyncConfig::default(), &target());
            let Some(smap) = p.tensor_maps.iter().find(|m| m.name == "smap") else { continue };
            if p.cluster < 2 {
                continue;
            }
            let last = smap.map.rank() - 1;
            let slice = smap.map.dims[last] / u64::from(p.cluster);
            assert_eq!(slice * u64::from(p.cluster), smap.map.dims[last], "seed {seed}");
            for w in p.statements.windows(2) {
                let (Some(m), Some(a)) = (w[0].strip_prefix("mul.lo.u32 "), w[1].strip_prefix("add.u32 sc")) else {
                    continue;
                };
                let step: u64 =
                    m.trim_end_matches(';').rsplit(", ").next().and_then(|v| v.parse().ok()).expect("a slice");
                let base: u64 =
                    a.trim_end_matches(';').rsplit(", ").next().and_then(|v| v.parse().ok()).expect("a base");
                assert_eq!(step, slice, "seed {seed}: {}", w[0]);
                assert!(base + u64::from(smap.map.box_dims[last]) <= slice, "seed {seed}: {}", w[1]);
                checked += 1;
            }
        }
        assert!(checked >= 50, "{checked} write-backs checked");
    }

    #[test]
    fn knobs_off_stay_off() {
        let cfg = AsyncConfig {
            tensor: false,
            reduce: false,
            convert: false,
            multicast: false,
            cluster: false,
            ..AsyncConfig::default()
        };
        for s in 0..200 {
            let p = generate_seeded(s, &cfg, &target());
            let text = p.statements.join("\n");
            assert!(!text.contains(".tensor") && !text.contains("cp.reduce") && !text.contains("cvt.rn"), "{text}");
            assert!(p.cluster == 1 && !text.contains("multicast") && !text.contains("mapa"), "{text}");
            assert!(p.tensor_maps.is_empty());
        }
        // Clusters without multicast exchange through `mapa` only.
        let cfg = AsyncConfig { multicast: false, swarm: false, ..AsyncConfig::default() };
        let mut exchanges = 0;
        for s in 0..50 {
            let text = generate_seeded(s, &cfg, &target()).statements.join("\n");
            assert!(!text.contains("multicast"), "{text}");
            exchanges += usize::from(text.contains("mapa.shared::cluster"));
        }
        assert!(exchanges >= 20, "{exchanges} of 50 programs exchange");
        let cfg = AsyncConfig { replace: false, ..AsyncConfig::default() };
        for s in 0..200 {
            let p = generate_seeded(s, &cfg, &target());
            assert!(!p.statements.join("\n").contains("tensormap") && p.target.name() == "sm_90");
        }
    }
}
