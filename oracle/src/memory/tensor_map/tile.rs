//! The elements of a tile ([`TensorMap::tile_at`]), laid out as `layout.rs`'s header states:
//! the checks every tile computation starts with (a valid map of a modeled kind and of a size
//! shared memory holds; a 128-byte-aligned destination), the tiled traversal (element strides,
//! interleave units), the im2col column (§9.7.9.25.5.2 `.im2col`; its traversal is one
//! function, `im2col_pixels`, the assumption to correct from what the GPU does), and the
//! swizzle applied by absolute shared-memory address.
//!
//! Invariant: nothing here panics on any map or destination (an invalid one is a [`TileError`]);
//! for a valid, modeled map the tile's elements have distinct, element-aligned shared-memory
//! offsets inside `0..tile_extent()`, and their bytes number `tile_bytes()`.

use super::{
    swizzle_offset, tile_err, Interleave, MapMode, TensorMap, TileElement, TileError, MAX_TILE_BYTES, SMEM_TILE_ALIGN,
};

impl TensorMap {
    /// The checks every tile computation starts with: a valid map (device rules aside) of a
    /// modeled kind, of a size shared memory can hold.
    fn check_tileable(&self) -> Result<(), TileError> {
        if let Some(e) = self.encode_violations(None).into_iter().next() {
            return Err(tile_err("invalid-map", e.to_string()));
        }
        if self.dtype.is_packed() {
            return Err(tile_err("not-modeled", format!("layout of packed type {}", self.dtype.name())));
        }
        if self.swizzle.needs_sm100() {
            return Err(tile_err("not-modeled", format!("swizzle {}", self.swizzle.name())));
        }
        if self.interleave != Interleave::None && self.mode != MapMode::Tiled {
            return Err(tile_err("not-modeled", format!("im2col with interleave {}", self.interleave.name())));
        }
        let extent = self.tile_extent();
        if extent > MAX_TILE_BYTES {
            return Err(tile_err("too-large", format!("{extent} bytes > {MAX_TILE_BYTES} bytes of shared memory")));
        }
        Ok(())
    }

    /// The destination rules: 128-byte aligned (an H100 faults with
    /// CUDA_ERROR_MISALIGNED_ADDRESS otherwise), and the tile's extent inside the address space.
    fn check_destination(&self, dst: u64) -> Result<(), TileError> {
        if !dst.is_multiple_of(SMEM_TILE_ALIGN) {
            return Err(tile_err(
                "smem-align",
                format!(
                    "shared-memory destination {dst:#x} is not {SMEM_TILE_ALIGN}-byte aligned \
                     (an H100 faults: CUDA_ERROR_MISALIGNED_ADDRESS)"
                ),
            ));
        }
        if dst.checked_add(self.tile_extent()).is_none() {
            return Err(tile_err(
                "address-overflow",
                format!("a {}-byte tile at shared-memory address {dst:#x} lies past 2^64", self.tile_extent()),
            ));
        }
        Ok(())
    }

    /// [`Self::tile_at`] a destination at address 0 (the same tile as at any multiple of 1024).
    pub fn tile(&self, coords: &[i32], offsets: &[u16]) -> Result<Vec<TileElement>, TileError> {
        self.tile_at(0, coords, offsets)
    }

    /// The elements of the tile at `coords` (rank entries for tile mode; for im2col the
    /// coordinates of the `cp.async.bulk.tensor` operand plus `offsets` = im2colInfo), for a
    /// copy whose shared-memory destination is at address `dst` (the swizzle follows the
    /// absolute address); each `smem_offset` is relative to `dst`.
    pub fn tile_at(&self, dst: u64, coords: &[i32], offsets: &[u16]) -> Result<Vec<TileElement>, TileError> {
        self.check_tileable()?;
        self.check_destination(dst)?;
        if coords.len() != self.rank() {
            return Err(tile_err("coords", format!("{} coordinates for a rank-{} map", coords.len(), self.rank())));
        }
        let unswizzled = match &self.mode {
            MapMode::Tiled => {
                if !offsets.is_empty() {
                    return Err(tile_err("offsets", "im2col offsets given for a tiled map".into()));
                }
                self.tiled_elements(coords)?
            }
            MapMode::Im2col { lower_corner, upper_corner, channels_per_pixel, pixels_per_column } => self
                .im2col_elements(
                    coords,
                    offsets,
                    lower_corner,
                    upper_corner,
                    *channels_per_pixel,
                    *pixels_per_column,
                )?,
        };
        self.swizzle_tile(dst, unswizzled)
    }

    /// The global address of the element at tensor coordinates `x` (innermost first), `None`
    /// when a coordinate lies outside `0..globalDim`.
    fn global_of(&self, x: &[i64]) -> Result<Option<u64>, TileError> {
        let elem = u128::from(self.dim0_step_bytes());
        let mut address = u128::from(self.global_address);
        for (d, &x_d) in x.iter().enumerate() {
            if x_d < 0 || x_d as u64 >= self.dims[d] {
                return Ok(None);
            }
            let step = if d == 0 { elem } else { u128::from(self.strides[d - 1]) };
            address += x_d as u128 * step;
        }
        u64::try_from(address)
            .map(Some)
            .map_err(|_| tile_err("address-overflow", format!("element at coordinates {x:?} lies past 2^64")))
    }

    /// Tiled mode: the elements in layout order, offsets before swizzling (rows
    /// [`Self::row_pitch`] apart); an interleave unit is one element per 16 bytes.
    fn tiled_elements(&self, coords: &[i32]) -> Result<Vec<TileElement>, TileError> {
        let counts = self.box_counts();
        let elem = self.dim0_step_bytes();
        let part = self.tile_element_bytes();
        let pitch = self.row_pitch();
        let per_row = counts.first().copied().unwrap_or(1).max(1);
        let total: u64 = counts.iter().product();
        let mut out = Vec::with_capacity(usize::try_from(total).unwrap_or(0));
        let mut index = vec![0u64; counts.len()];
        let mut x = vec![0i64; counts.len()];
        for linear in 0..total {
            for (d, (x_d, &i)) in x.iter_mut().zip(&index).enumerate() {
                *x_d = i64::from(coords[d]) + (i * u64::from(self.traversal_stride(d))) as i64;
            }
            let smem_offset = linear / per_row * pitch + linear % per_row * elem;
            let global = self.global_of(&x)?;
            for k in (0..elem).step_by(part as usize) {
                let global = global
                    .map(|g| g.checked_add(k).ok_or_else(|| tile_err("address-overflow", format!("{g:#x} + {k}"))))
                    .transpose()?;
                out.push(TileElement { smem_offset: smem_offset + k, global });
            }
            for (i, &n) in index.iter_mut().zip(&counts) {
                *i += 1;
                if *i < n {
                    break;
                }
                *i = 0;
            }
        }
        Ok(out)
    }

    /// Im2col mode (§9.7.9.25.5.2 `.im2col`; the PTX ISA's tensor chapter draws it): dimension
    /// 0 is the channel C, dimensions 1…rank-2 the spatial W, H, D, dimension rank-1 the image
    /// N. The column holds `pixelsPerColumn` pixels of `channelsPerPixel` channels each, channel
    /// innermost. The model's traversal ([`Self::im2col_pixels`]) starts at the pixel of
    /// `coords`; each pixel's channels start at `coords[0]`; the element loaded for spatial
    /// position `p` is the tensor element at `p + offsets` (the im2col offsets, zero when
    /// `offsets` is empty as for `.im2col_no_offs`), out of bounds filled as in tiled mode.
    fn im2col_elements(
        &self,
        coords: &[i32],
        offsets: &[u16],
        lower: &[i32],
        upper: &[i32],
        channels: u32,
        pixels: u32,
    ) -> Result<Vec<TileElement>, TileError> {
        let spatial = self.rank() - 2;
        if !offsets.is_empty() && offsets.len() != spatial {
            return Err(tile_err(
                "offsets",
                format!("{} im2col offsets for a rank-{} map", offsets.len(), self.rank()),
            ));
        }
        let elem = self.element_bytes();
        let pitch = self.row_pitch();
        let mut out = Vec::with_capacity(pixels as usize * channels as usize);
        let mut x = vec![0i64; self.rank()];
        for (p, position) in self.im2col_pixels(coords, lower, upper, pixels).into_iter().enumerate() {
            for (d, x_d) in x.iter_mut().enumerate().skip(1) {
                let offset = if d <= spatial { offsets.get(d - 1).map_or(0, |&o| i64::from(o)) } else { 0 };
                *x_d = position[d - 1] + offset;
            }
            for k in 0..u64::from(channels) {
                x[0] = i64::from(coords[0]) + (k * u64::from(self.traversal_stride(0))) as i64;
                out.push(TileElement { smem_offset: p as u64 * pitch + k * elem, global: self.global_of(&x)? });
            }
        }
        Ok(out)
    }

    /// The model's im2col traversal: `pixels` positions `(w, h, d, n)` (dimensions 1…rank-1),
    /// the first at `coords[1..]`. Each step adds `elementStrides[1]` to W; past the bounding
    /// box's last W position (`globalDim + upper − 1`) W returns to the lower corner and H takes
    /// its step, and so on outwards; past the last D (or H, or W) the image N takes its step.
    /// The bounding box of each spatial dimension is `lower … globalDim − 1 + upper`.
    fn im2col_pixels(&self, coords: &[i32], lower: &[i32], upper: &[i32], pixels: u32) -> Vec<Vec<i64>> {
        let spatial = lower.len().min(upper.len()).min(self.rank().saturating_sub(2));
        let mut position: Vec<i64> = coords.iter().skip(1).map(|&c| i64::from(c)).collect();
        let mut out = Vec::with_capacity(pixels as usize);
        for _ in 0..pixels {
            out.push(position.clone());
            let mut d = 0;
            loop {
                let step = i64::from(self.traversal_stride(d + 1));
                let Some(p) = position.get_mut(d) else { break };
                *p += step;
                if d >= spatial {
                    break;
                }
                let last = self.dims[d + 1] as i64 - 1 + i64::from(upper[d]);
                if *p <= last {
                    break;
                }
                *p = i64::from(lower[d]);
                d += 1;
            }
        }
        out
    }

    /// Applies the swizzle, by absolute address, to offsets laid out from a destination at
    /// `dst` (128-byte aligned: [`Self::check_destination`]).
    fn swizzle_tile(&self, dst: u64, mut elements: Vec<TileElement>) -> Result<Vec<TileElement>, TileError> {
        for e in &mut elements {
            let moved = swizzle_offset(self.swizzle, dst + e.smem_offset)
                .ok_or_else(|| tile_err("not-modeled", format!("swizzle {}", self.swizzle.name())))?;
            // The swizzle keeps the byte in its span-sized block, which starts at or after the
            // span-aligned `dst`: no underflow.
            e.smem_offset = moved - dst;
        }
        Ok(elements)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::tensor_map::tests::{im2col_map, sm90, tiled};
    use crate::memory::tensor_map::{LoadedByte, Swizzle, TensorDataType};

    #[test]
    fn tile_fully_inside_2d_f16() {
        let map = tiled(TensorDataType::Float16, &[40, 20], &[80], &[8, 3]);
        let tile = map.tile(&[4, 5], &[]).expect("modeled");
        assert_eq!(tile.len(), 24);
        for (i, e) in tile.iter().enumerate() {
            let (x, y) = (4 + (i % 8) as u64, 5 + (i / 8) as u64);
            assert_eq!(e.smem_offset, 2 * i as u64);
            assert_eq!(e.global, Some(0x1000 + 2 * x + 80 * y));
        }
        let bytes = map.load(&[4, 5], &[], &|a| Some((a & 0xff) as u8)).expect("modeled");
        assert_eq!(bytes[0], LoadedByte::Byte(Some(((0x1000 + 8 + 400) & 0xff) as u8)));
        assert_eq!(bytes[17], LoadedByte::Byte(Some(((0x1000 + 8 + 480 + 1) & 0xff) as u8)));
        let unknown = map.load(&[4, 5], &[], &|_| None).expect("modeled");
        assert!(unknown.iter().all(|b| *b == LoadedByte::Byte(None)));
    }

    #[test]
    fn element_strides_step_coordinates_except_dim0_without_interleave() {
        let map = TensorMap { element_strides: vec![4, 2], ..tiled(TensorDataType::Uint32, &[16, 16], &[64], &[4, 5]) };
        assert_eq!(map.validate(&sm90()), Ok(()));
        assert_eq!(map.traversal_stride(0), 1, "dim 0 stride ignored with interleave NONE");
        assert_eq!(map.traversal_stride(1), 2);
        let tile = map.tile(&[1, 3], &[]).expect("modeled");
        assert_eq!(tile.len(), 4 * 3, "ceil(5 / 2) = 3 rows");
        assert_eq!(map.tile_bytes(), 48);
        let rows: Vec<u64> = tile.iter().step_by(4).map(|e| e.global.expect("inside")).collect();
        assert_eq!(rows, vec![0x1000 + 4 + 3 * 64, 0x1000 + 4 + 5 * 64, 0x1000 + 4 + 7 * 64]);
    }

    /// Interleaved tiles (corpus/evidence/tma-interleave.md): dimension 0 counts 16-byte units
    /// (coordinates, globalDim, boxDim and its element stride), rows are packed, the tile of
    /// the spec traverses every box dimension while the H100 skips dimension rank − 2.
    #[test]
    fn interleaved_tiles_count_dimension_0_in_units() {
        let inter = TensorMap {
            interleave: Interleave::B16,
            global_address: 0x1000,
            ..tiled(TensorDataType::Float16, &[16, 6, 4], &[256, 1536], &[8, 1, 2])
        };
        assert_eq!(inter.validate(&sm90()), Ok(()));
        assert!(!inter.interleave_skips_box());
        let tile = inter.tile(&[12, 1, 1], &[]).expect("modeled");
        assert_eq!((inter.tile_bytes(), tile.len()), (256, 16));
        let globals: Vec<Option<u64>> = tile.iter().map(|e| e.global).collect();
        let unit = |x: u64, z: u64| Some(0x1000 + x * 16 + 256 + z * 1536);
        assert_eq!(&globals[..8], &[unit(12, 1), unit(13, 1), unit(14, 1), unit(15, 1), None, None, None, None]);
        assert_eq!(globals[8], unit(12, 2));
        assert_eq!(tile[8].smem_offset, 128);
        // The element stride of dimension 0 applies, in units.
        let strided = TensorMap { element_strides: vec![3, 1, 1], ..inter.clone() };
        assert_eq!(strided.tile_bytes(), 96);
        assert_eq!(strided.tile(&[0, 1, 1], &[]).expect("modeled")[1].global, unit(3, 1));
        // A 32-byte unit is two 16-byte elements; a 128B swizzle moves chunks by address only.
        let wide =
            TensorMap { interleave: Interleave::B32, swizzle: Swizzle::B32, strides: vec![512, 3072], ..inter.clone() };
        let tile = wide.tile(&[0, 1, 1], &[]).expect("modeled");
        assert_eq!((wide.tile_bytes(), wide.tile_extent(), tile.len()), (512, 512, 32));
        assert_eq!((tile[8].smem_offset, tile[9].smem_offset), (144, 128));
        let packed = TensorMap { swizzle: Swizzle::B128, box_dims: vec![4, 1, 2], ..inter.clone() };
        assert_eq!((packed.row_pitch(), packed.tile_extent()), (64, 128));
        // The box along dimension rank − 2 is the H100's finding.
        assert!(TensorMap { box_dims: vec![8, 3, 2], ..inter.clone() }.interleave_skips_box());
        assert!(!TensorMap { box_dims: vec![8, 3, 2], element_strides: vec![1, 3, 1], ..inter.clone() }
            .interleave_skips_box());
        assert!(!TensorMap { interleave: Interleave::None, box_dims: vec![8, 3, 2], ..inter }.interleave_skips_box());
    }

    #[test]
    fn swizzled_tile_is_the_dense_tile_permuted() {
        let plain = tiled(TensorDataType::Float16, &[64, 64], &[128], &[64, 16]);
        let swizzled = TensorMap { swizzle: Swizzle::B128, ..plain.clone() };
        let a = plain.tile(&[0, 0], &[]).expect("modeled");
        let b = swizzled.tile(&[0, 0], &[]).expect("modeled");
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.global, y.global);
            assert_eq!(swizzle_offset(Swizzle::B128, y.smem_offset), Some(x.smem_offset));
        }
        assert_eq!(swizzled.smem_align(), 128);
        assert_eq!(plain.smem_align(), 128);
    }

    #[test]
    fn swizzled_rows_are_span_apart_and_the_pattern_follows_the_address() {
        // 11 rows of 16 bytes under the 32B swizzle: rows 32 bytes apart, half of each written.
        let map = TensorMap { swizzle: Swizzle::B32, ..tiled(TensorDataType::Uint8, &[16, 16], &[16], &[16, 11]) };
        assert_eq!((map.row_pitch(), map.tile_bytes(), map.tile_extent()), (32, 176, 352));
        let rows = |dst: u64| -> Vec<u64> {
            let tile = map.tile_at(dst, &[0, 0], &[]).expect("modeled");
            tile.iter().step_by(16).map(|e| e.smem_offset).collect()
        };
        // Address bit 7 flips chunk bit 4: rows 4..8 (bytes 128..256) land in the upper half.
        assert_eq!(rows(0), vec![0, 32, 64, 96, 144, 176, 208, 240, 256, 288, 320]);
        // At a destination 128 bytes further the flips come first.
        assert_eq!(rows(128), vec![16, 48, 80, 112, 128, 160, 192, 224, 272, 304, 336]);
        assert_eq!(rows(1024), rows(0));
        assert_eq!(map.tile_at(64, &[0, 0], &[]).map_err(|e| e.problem), Err("smem-align"));
        let bytes = map.load_at(128, &[0, 0], &[], &|_| Some(3)).expect("modeled");
        assert_eq!(bytes.len(), 352);
        assert_eq!(bytes[..16], [LoadedByte::Unwritten; 16]);
        assert_eq!(bytes[16..32], [LoadedByte::Byte(Some(3)); 16]);
        assert_eq!(bytes.iter().filter(|b| **b != LoadedByte::Unwritten).count(), 176);
    }

    #[test]
    fn tile_errors_name_the_problem() {
        let map = tiled(TensorDataType::Float16, &[40, 20], &[80], &[8, 3]);
        assert_eq!(map.tile(&[0], &[]).map_err(|e| e.problem), Err("coords"));
        assert_eq!(map.tile(&[0, 0], &[1]).map_err(|e| e.problem), Err("offsets"));
        assert_eq!(map.tile_at(16, &[0, 0], &[]).map_err(|e| e.problem), Err("smem-align"));
        assert_eq!(map.load_at(0x80, &[0, 0], &[], &|_| None).map(|b| b.len()), Ok(48));
        let tall = TensorMap { box_dims: vec![8, 16], ..map.clone() };
        assert_eq!(tall.tile_at(u64::MAX - 127, &[0, 0], &[]).map_err(|e| e.problem), Err("address-overflow"));
        let bad = TensorMap { element_strides: vec![0, 0], ..map.clone() };
        assert_eq!(bad.tile(&[0, 0], &[]).map_err(|e| e.problem), Err("invalid-map"));
        let huge = tiled(TensorDataType::Float64, &[256, 256, 256], &[2048, 1 << 20], &[32, 256, 256]);
        assert_eq!(huge.tile(&[0, 0, 0], &[]).map_err(|e| e.problem), Err("too-large"));
        assert_eq!(im2col_map().tile(&[0, 0, 0], &[0, 1]).map_err(|e| e.problem), Err("offsets"));
        let packed =
            TensorMap { swizzle: Swizzle::B128, ..tiled(TensorDataType::U4x16Align16B, &[256, 8], &[256], &[128, 4]) };
        assert_eq!(packed.tile(&[0, 0], &[]).map_err(|e| e.problem), Err("not-modeled"));
        assert_eq!(packed.element_bytes(), 16);
        assert_eq!(packed.tile_bytes(), 128 * 4, "128 values = 8 groups of 16 bytes per row");
        let absurd = tiled(TensorDataType::Float64, &[1; 9], &[16; 8], &[u32::MAX; 9]);
        assert_eq!(absurd.tile_bytes(), u64::MAX);
        assert_eq!(absurd.tile(&[0; 9], &[]).map_err(|e| e.problem), Err("invalid-map"));
        let far = TensorMap { global_address: u64::MAX - 15, ..map };
        assert_eq!(far.tile(&[1, 1], &[]).map_err(|e| e.problem), Err("address-overflow"));
    }

    #[test]
    fn im2col_column_walks_the_bounding_box() {
        // NWC f16: 8 channels, W = 16, 2 images; box W = -1 ..= 14 (16 positions).
        let map = im2col_map();
        assert_eq!(map.validate(&sm90()), Ok(()));
        assert_eq!(map.tile_bytes(), 16 * 8 * 2);
        let w_of = |e: &TileElement| e.global.map(|a| ((a - 0x1000) % 256 / 16) as i64);
        let n_of = |e: &TileElement| e.global.map(|a| ((a - 0x1000) / 256) as i64);
        let tile = map.tile(&[0, -1, 0], &[]).expect("modeled");
        assert_eq!(tile.len(), 16 * 8);
        assert!(tile[..8].iter().all(|e| e.global.is_none()), "pixel w = -1 is padding");
        for p in 1..16 {
            let pixel = &tile[8 * p..8 * p + 8];
            assert!(pixel.iter().all(|e| w_of(e) == Some(p as i64 - 1) && n_of(e) == Some(0)), "pixel {p}");
            let channels: Vec<u64> = pixel.iter().map(|e| (e.global.unwrap_or(0) - 0x1000) % 16 / 2).collect();
            assert_eq!(channels, (0..8).collect::<Vec<_>>());
        }
        // The im2col offset shifts every pixel: w = 0 ..= 15, all inside.
        let shifted = map.tile(&[0, -1, 0], &[1]).expect("modeled");
        assert!(shifted.iter().enumerate().all(|(i, e)| w_of(e) == Some((i / 8) as i64)));
        // 20 pixels from w = 11: 11 ..= 14 of image 0, then -1 ..= 14 of image 1.
        let long = TensorMap {
            mode: MapMode::Im2col {
                lower_corner: vec![-1],
                upper_corner: vec![-1],
                channels_per_pixel: 8,
                pixels_per_column: 20,
            },
            ..im2col_map()
        };
        let tile = long.tile(&[0, 11, 0], &[]).expect("modeled");
        let pixels: Vec<(Option<i64>, Option<i64>)> = tile.iter().step_by(8).map(|e| (w_of(e), n_of(e))).collect();
        let mut want: Vec<(Option<i64>, Option<i64>)> = (11..15).map(|w| (Some(w), Some(0))).collect();
        want.push((None, None));
        want.extend((0..15).map(|w| (Some(w), Some(1))));
        assert_eq!(pixels, want);
        let bytes = long.load(&[0, 11, 0], &[], &|_| Some(7)).expect("modeled");
        assert_eq!(bytes.len() as u64, long.tile_bytes());
        assert_eq!(bytes[4 * 16], LoadedByte::Byte(Some(0)), "the padding pixel is zero-filled");
    }

    #[test]
    fn im2col_traversal_wraps_w_into_h_with_element_strides() {
        // NHWC u8: 16 channels, W = 4, H = 3, 1 image; box W 0 ..= 3 stepping by 2, H 0 ..= 2.
        let map = TensorMap {
            mode: MapMode::Im2col {
                lower_corner: vec![0, 0],
                upper_corner: vec![0, 0],
                channels_per_pixel: 16,
                pixels_per_column: 6,
            },
            element_strides: vec![1, 2, 1, 1],
            swizzle: Swizzle::B32,
            ..tiled(TensorDataType::Uint8, &[16, 4, 3, 1], &[16, 64, 192], &[1, 1, 1, 1])
        };
        let map = TensorMap { box_dims: vec![], ..map };
        assert_eq!(map.validate(&sm90()), Ok(()));
        let tile = map.tile(&[0, 0, 0, 0], &[]).expect("modeled");
        let mut pixels: Vec<(u64, u64)> = Vec::new();
        for e in &tile {
            let a = e.global.expect("inside") - 0x1000;
            if a % 16 == 0 {
                pixels.push((e.smem_offset / 16, a / 16));
            }
        }
        pixels.sort_unstable();
        // (w, h) = (0,0) (2,0) (0,1) (2,1) (0,2) (2,2), at w + 4h; the 16-byte pixels sit 32
        // bytes apart (the 32B span), and the 32B swizzle moves those past byte 128 up 16.
        assert_eq!(pixels, vec![(0, 0), (2, 2), (4, 4), (6, 6), (9, 8), (11, 10)]);
        assert_eq!((map.tile_bytes(), map.tile_extent()), (96, 192));
    }
}
