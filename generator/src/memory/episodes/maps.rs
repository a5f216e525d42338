//! The tensor maps of a memory program: the load map over `tsrc` (tiled — interleaved a third
//! of the time with `interleave` — or im2col, §5.5.8), the coordinates of each tile, the
//! `tensormap.replace` steps that re-shape the map's object (§9.7.9.26; with
//! `shared_tensormap` half of them on a copy in shared memory, copied back by
//! `tensormap.cp_fenceproxy`, §9.7.13.16), and the store map
//! `smap` over `tdst` that write-backs go through.
//!
//! Invariants: every map validates for the target and its tile fits [`MAX_TILE`] bytes (the
//! window); tiled coordinates never hit the H100's inner-coordinate trap
//! ([`TensorMap::inner_coordinate_traps`]), im2col ones stay inside the pixel bounding box
//! ([`TensorMap::im2col_start_traps`]); no interleaved map spans more than one box position
//! along dimension rank − 2 ([`TensorMap::interleave_skips_box`]), before or after a replace.

use oracle::memory::tensor_map::{Interleave, L2Promotion, MapMode, OobFill, Swizzle, TensorDataType, TensorMap};
use oracle::memory::Region;
use oracle::memprog::{BufferSpace, Init};

use oracle::isa::operand::Operand;
use oracle::isa::types::{OrderSem, Scope};
use oracle::isa::{AsyncProxySpace, Form, Instruction, TensormapCpFenceproxy, TensormapSs};
use oracle::program::{Cmp, GlueOp, GlueType};

use super::{Gen, EDGE_PERMILLE, MAX_TILE};
use crate::memory::cases::replace::{replace_form, replace_target};
use crate::memory::stmt::{at, forms, guard, imm, name, Stmt};
use crate::program::rng::Rng;

/// `fence.proxy.tensormap::generic.<sem>.gpu` (§9.7.13.4): the release takes no operands, the
/// acquire `[object], size`.
fn tensormap_fence(sem: OrderSem) -> Form {
    forms::tensormap_fence(sem, Scope::Gpu)
}

impl<'r, R: Rng> Gen<'r, R> {
    /// A drawn unpacked element type and sm_90 swizzle, the element's bytes, and the most bytes
    /// a tile's inner dimension may take (a multiple of 16 within the swizzle span, at most
    /// 256 elements).
    pub(super) fn type_and_swizzle(&mut self) -> (TensorDataType, Swizzle, u64, u64) {
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
    pub(super) fn im2col_map(&mut self) -> bool {
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
    pub(super) fn tensor_map(&mut self) {
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
            if self.cfg.replace && self.ctas == 1 && replace_target(&self.target).is_some() {
                self.object = Some(map.clone());
            }
            self.map = Some(map);
            return;
        }
    }

    /// Coordinates of a tile of the map: each straddles an edge or lies inside, and the inner
    /// coordinate keeps the load off the H100's trap.
    pub(super) fn coords(&mut self, map: &TensorMap) -> Vec<i32> {
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
    pub(super) fn im2col_coords(&mut self, map: &TensorMap) -> (Vec<i32>, Vec<u16>) {
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

    /// The leader re-shapes the tensor-map object with one `tensormap.replace` (§9.7.9.26) that
    /// keeps it a map the driver encodes, reading only `tsrc` and fitting the window: a global
    /// dimension no larger than encoded, a box height of 1–8 or element stride of 1–3 along a
    /// dimension ≥ 1, a swizzle, or (float maps) a fill mode; then releases it to the tensormap
    /// proxy and acquires it for its own copies (§9.7.13.4). The phase's copy was waited for.
    pub(super) fn replace_step(&mut self) {
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
            // `[object], {ord,} value`.
            let operands = |object: &str| -> Vec<Operand> {
                std::iter::once(at(object, 0)).chain(ord.map(|o| imm(o as u64))).chain([imm(value)]).collect()
            };
            // A warp of fewer than 32 threads copies only its lanes' words of the object back
            // (corpus/findings/cp-fenceproxy-partial-warp.md): shared objects need a whole warp.
            if self.cfg.shared_tensormap && self.r.below(2) == 0 && self.threads >= 32 {
                let form = replace_form(field, Some(value), TensormapSs::SharedCta);
                self.shared_replace(Instruction { guard: None, form, operands: operands("tsh") });
            } else {
                let form = replace_form(field, Some(value), TensormapSs::Global);
                let operands = operands("tobj");
                self.leader(|g| {
                    g.isa(form, operands);
                    g.isa(tensormap_fence(OrderSem::Release), vec![]);
                    let bytes = oracle::memprog::TENSOR_MAP_BYTES as u64;
                    g.isa(tensormap_fence(OrderSem::Acquire), vec![at("tobj", 0), imm(bytes)]);
                });
            }
            self.map = Some(next);
            return;
        }
    }

    /// `replace` on a copy of the object in shared memory (`shared_tensormap`, §9.7.9.26
    /// `.shared::cta`): the leader copies `tobj` whole into `tsh` with `cp.async.bulk` on its
    /// own mbarrier `tbar` (after `fence.proxy.async.global`: earlier replacements and copies
    /// back are generic writes), waits, and runs `replace` there; after `bar.sync 0` the whole
    /// first warp (32 threads: the program has at least that many) copies it back with `tensormap.cp_fenceproxy` (`.sync.aligned`, the fused
    /// release, §9.7.13.16) and the leader acquires `tobj` for its copies (§9.7.13.4).
    fn shared_replace(&mut self, replace: Instruction) {
        let bytes = oracle::memprog::TENSOR_MAP_BYTES as u64;
        if !self.has("tsh") {
            self.buffer("tsh", BufferSpace::Shared, 128, Init::Fill { len: bytes, byte: None });
            self.buffer("tbar", BufferSpace::Shared, 8, Init::Fill { len: 8, byte: Some(0) });
            self.leader(|g| g.isa(forms::mbarrier_init(), vec![at("tbar", 0), imm(1)]));
            if self.threads > 32 {
                self.glue(GlueOp::Setp(Cmp::Lt), GlueType::U32, "warp0", vec![name("tid"), imm(32)]);
            }
        }
        let parity = self.object_copies & 1;
        self.object_copies += 1;
        self.leader(|g| {
            g.isa(forms::proxy_fence(AsyncProxySpace::Global), vec![]);
            g.isa(forms::arrive_expect_tx(true), vec![Operand::Sink, at("tbar", 0), imm(bytes)]);
            g.isa(forms::bulk_load(false), vec![at("tsh", 0), at("tobj", 0), imm(bytes), at("tbar", 0)]);
            g.wait_on("tbar", parity, false);
            g.emit(Stmt::Isa(replace));
        });
        self.emit(Stmt::Bar);
        let warp0 = (self.threads > 32).then(|| guard("warp0", false));
        let form = Form::TensormapCpFenceproxy(TensormapCpFenceproxy { scope: Some(Scope::Gpu) });
        let operands = vec![at("tobj", 0), at("tsh", 0), imm(bytes)];
        self.emit(Stmt::Isa(Instruction { guard: warp0, form, operands }));
        self.leader(|g| g.isa(tensormap_fence(OrderSem::Acquire), vec![at("tobj", 0), imm(bytes)]));
    }

    /// A tiled store map over a new global buffer `tdst`: rank 1 or 2, a type with tensor
    /// reductions (or a byte or half-word type), rows of 16–64 bytes, a tile of at most
    /// `stage_len` bytes, the last dimension one slice per CTA, each room for a tile; `None`
    /// when the stage is too small for any.
    pub(super) fn draw_store_map(&mut self, stage_len: u64) -> Option<TensorMap> {
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
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}
