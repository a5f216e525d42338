//! The tensor-map catalogues of the sweep: tiled maps per rank over data type × swizzle ×
//! box shape × element strides × OOB fill (thinned to a few dozen per rank), interleaved maps
//! of ranks 3–5 (corpus/evidence/tma-interleave.md), im2col maps of ranks 3–5 (§5.5.8), and the
//! coordinate sets each is loaded or stored at.
//!
//! Invariants: every catalogue map validates for the target; no tiled coordinate set traps
//! ([`TensorMap::inner_coordinate_traps`]); no interleaved map spans more than one box position
//! along dimension rank − 2 ([`TensorMap::interleave_skips_box`]).

use oracle::isa::Target;
use oracle::memory::tensor_map::{Interleave, L2Promotion, MapMode, OobFill, Swizzle, TensorDataType as D, TensorMap};

/// The element types tensor maps are swept over, with their element bytes.
pub(super) const TILE_TYPES: [D; 9] =
    [D::Uint8, D::Uint16, D::Float16, D::Bfloat16, D::Float32, D::Tfloat32, D::Int32, D::Float64, D::Uint64];

pub(super) fn blank_map() -> TensorMap {
    TensorMap {
        mode: MapMode::Tiled,
        dtype: D::Uint8,
        global_address: 0,
        dims: vec![16],
        strides: vec![],
        box_dims: vec![16],
        element_strides: vec![1],
        interleave: Interleave::None,
        swizzle: Swizzle::None,
        l2_promotion: L2Promotion::None,
        oob_fill: OobFill::None,
    }
}

/// A tiled map of `rank` over `dtype` whose inner box row is `inner_bytes`, without swizzle,
/// interleave or OOB fill, element strides 1; the tensor is a few elements larger than the
/// box in every dimension, rows padded by `row_pad` bytes. Callers set the other fields.
pub(super) fn tiled_map(rank: usize, dtype: D, inner_bytes: u64, row_pad: u64) -> TensorMap {
    let eb = dtype.element_bytes().max(1);
    let box0 = (inner_bytes / eb).max(1) as u32;
    let mut box_dims = vec![box0];
    let mut dims = vec![u64::from(box0) * 2 + 3];
    for d in 1..rank {
        let b = if d == 1 { 3 } else { 2 };
        box_dims.push(b);
        dims.push(u64::from(b) + 2 + (d as u64 % 2));
    }
    let mut strides = Vec::new();
    let mut s = (dims[0] * eb).next_multiple_of(16) + row_pad;
    for &n in &dims[1..] {
        strides.push(s);
        s *= n;
    }
    TensorMap { dtype, dims, strides, box_dims, element_strides: vec![1; rank], ..blank_map() }
}

/// `map` with `swizzle`, `interleave`, element stride `estride` on dimensions ≥ 1 and `fill`.
pub(super) fn with_layout(
    mut map: TensorMap,
    swizzle: Swizzle,
    interleave: Interleave,
    estride: u32,
    fill: OobFill,
) -> TensorMap {
    map.swizzle = swizzle;
    map.interleave = interleave;
    map.oob_fill = fill;
    for e in map.element_strides.iter_mut().skip(1) {
        *e = estride;
    }
    map
}

/// Bytes of the global tensor of `map` (its last dimension's stride × extent).
pub(super) fn tensor_bytes(map: &TensorMap) -> u64 {
    let eb = map.element_bytes().max(1);
    match (map.strides.last(), map.dims.last()) {
        (Some(&s), Some(&n)) => s * n,
        _ => (map.dims[0] * eb).next_multiple_of(16),
    }
}

/// The tiled maps of `rank` valid on `target`: data type × swizzle × interleave × box shape ×
/// element strides × OOB fill, thinned so each rank has a few dozen.
pub(super) fn tiled_maps(rank: usize, target: &Target, types: &[D]) -> Vec<TensorMap> {
    let mut maps = Vec::new();
    let mut k = 0usize;
    for (t, &dtype) in types.iter().enumerate() {
        for (z, swizzle) in [Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128].into_iter().enumerate() {
            // Thin the product: half the (type, swizzle) pairs per rank, the other half on
            // the next rank; each pair keeps one inner width, alternating.
            if (t + z + rank) % 2 == 1 {
                continue;
            }
            let span = swizzle.span().unwrap_or(32);
            for inner in [span, 16.max(span / 2)] {
                k += 1;
                if k.is_multiple_of(2) {
                    continue;
                }
                let fill = if dtype.is_float() && k % 4 == 1 { OobFill::NanRequestZeroFma } else { OobFill::None };
                let estride = if k.is_multiple_of(3) { 2 } else { 1 };
                let row_pad = if k.is_multiple_of(5) { 16 } else { 0 };
                let m = with_layout(tiled_map(rank, dtype, inner, row_pad), swizzle, Interleave::None, estride, fill);
                if m.validate(target).is_ok() {
                    maps.push(m);
                }
            }
        }
    }
    if rank >= 3 {
        maps.extend(interleaved_maps(rank, target, types));
    }
    maps
}

/// Interleaved maps of `rank` (≥ 3) valid on `target` (corpus/evidence/tma-interleave.md): the
/// 16B interleave under each swizzle and the 32B one under its 32B swizzle, over `types` in
/// turn, inner rows of 16 or 32 bytes of elements (`boxDim[0]` counts 16- or 32-byte units on
/// the GPU), an element stride on dimension 0 or on the others, the NaN fill on some float
/// maps. The box of dimension rank − 2 is one position: an H100 traverses no more
/// ([`TensorMap::interleave_skips_box`], the dedicated set [`INTERLEAVE_BOX_SKIP`](super::deviations::INTERLEAVE_BOX_SKIP)).
pub(super) fn interleaved_maps(rank: usize, target: &Target, types: &[D]) -> Vec<TensorMap> {
    let layouts = [
        (Interleave::B16, Swizzle::None),
        (Interleave::B16, Swizzle::B32),
        (Interleave::B16, Swizzle::B64),
        (Interleave::B16, Swizzle::B128),
        (Interleave::B32, Swizzle::B32),
    ];
    let mut maps = Vec::new();
    for (k, (interleave, swizzle)) in layouts.into_iter().enumerate() {
        let dtype = types[(k + rank) % types.len()];
        let inner = 16 * (1 + (k + rank) as u64 % 2);
        let estride = if k % 4 == 0 { 2 } else { 1 };
        let mut m = interleaved_map(rank, dtype, interleave, inner, 32 * (k as u64 % 2), estride, 1);
        m.swizzle = swizzle;
        if k % 2 == 1 {
            m.element_strides[0] = 2;
        }
        if dtype.is_float() && k % 2 == 0 {
            m.oob_fill = OobFill::NanRequestZeroFma;
        }
        if m.validate(target).is_ok() && !m.interleave_skips_box() {
            maps.push(m);
        }
    }
    maps
}

/// An interleaved map (16B or 32B): `boxDim[0]` = `inner_bytes` / element size, in a tensor
/// three units wider; along dimension d ≥ 1 a box of 3 positions at element stride `estride`
/// (`rank2_positions` at stride 1 along dimension rank − 2, where an H100 walks only the
/// first) in a tensor one larger than the box; rows padded by `row_pad` bytes (a multiple of
/// 32). No swizzle, no fill: callers set them.
pub(super) fn interleaved_map(
    rank: usize,
    dtype: D,
    interleave: Interleave,
    inner_bytes: u64,
    row_pad: u64,
    estride: u32,
    rank2_positions: u32,
) -> TensorMap {
    let unit = interleave.unit_bytes().unwrap_or(16);
    let box0 = (inner_bytes / dtype.element_bytes().max(1)).max(1) as u32;
    let mut box_dims = vec![box0];
    let mut dims = vec![u64::from(box0) + 3];
    let mut element_strides = vec![1];
    for d in 1..rank {
        let (b, e) = if d == rank - 2 { (rank2_positions, 1) } else { (3, estride) };
        box_dims.push(b);
        element_strides.push(e);
        dims.push(u64::from(b) + 1);
    }
    let mut strides = Vec::new();
    let mut s = (dims[0] * unit).next_multiple_of(32) + row_pad;
    for &n in &dims[1..] {
        strides.push(s);
        s *= n;
    }
    TensorMap { dtype, dims, strides, box_dims, element_strides, interleave, ..blank_map() }
}

/// Coordinate sets for `map`: inside, straddling the end and the start (negative) of the
/// innermost and the outermost dimension (and of dimension rank − 2 of an interleaved map);
/// the innermost coordinate stays a multiple of 16 bytes (an interleaved map counts it in
/// units of 16 or 32 bytes).
pub(super) fn coordinate_sets(map: &TensorMap) -> Vec<(String, Vec<i32>)> {
    let rank = map.rank();
    let eb = map.element_bytes().max(1) as i32;
    let q = if map.interleave == Interleave::None { (16 / eb).max(1) } else { 1 };
    let inside: Vec<i32> = (0..rank).map(|d| if d == 0 { q } else { 1 }).collect();
    let mut sets = vec![("inside".to_string(), inside.clone())];
    sets.push(("origin".into(), vec![0; rank]));
    // The edges of the innermost and the outermost dimension.
    let mut edges = vec![0];
    if rank > 1 {
        edges.push(rank - 1);
    }
    if map.interleave != Interleave::None && rank >= 3 {
        edges.push(rank - 2);
    }
    for d in edges {
        let b = map.box_dims.get(d).copied().unwrap_or(1) as i32;
        let n = map.dims[d] as i32;
        let mut end = inside.clone();
        let mut neg = inside.clone();
        if d == 0 {
            end[0] = ((n - b / 2) / q) * q;
            neg[0] = -q.max((b / 2 / q) * q);
        } else {
            end[d] = n - b / 2;
            neg[d] = -(b / 2).max(1);
        }
        sets.push((format!("past the end of dim {d}"), end));
        sets.push((format!("before the start of dim {d}"), neg));
    }
    sets.push(("all negative".into(), (0..rank).map(|d| if d == 0 { -q } else { -1 }).collect()));
    sets.retain(|(_, c)| !map.inner_coordinate_traps(c));
    sets
}

/// A short description of a map.
pub(super) fn map_label(m: &TensorMap) -> String {
    format!(
        "{} dims {:?} box {:?} estr {:?} {} swizzle {} interleave {} fill {}",
        m.dtype.name(),
        m.dims,
        m.box_dims,
        m.element_strides,
        match &m.mode {
            MapMode::Tiled => "tiled".to_string(),
            MapMode::Im2col { channels_per_pixel, pixels_per_column, .. } =>
                format!("im2col c{channels_per_pixel}×p{pixels_per_column}"),
        },
        m.swizzle.name(),
        m.interleave.name(),
        m.oob_fill.name()
    )
}

/// Where a tile is taken: a description, the coordinates and the im2colInfo offsets.
pub(super) type Placement = (String, Vec<i32>, Vec<u16>);

/// Im2col maps of `rank` (3…5): channels-innermost tensors `[C, W, (H, (D,)) N]` with corners
/// inside and outside the image.
pub(super) fn im2col_maps(rank: usize, target: &Target) -> Vec<TensorMap> {
    let shapes = [
        (D::Float16, 16u32, 8u32, Swizzle::None, 0i32, 0i32),
        (D::Float32, 8, 16, Swizzle::B64, -1, 1),
        (D::Uint8, 32, 4, Swizzle::B32, -1, -1),
    ];
    im2col_maps_with(rank, target, &shapes)
}

/// Im2col maps of `rank` over each of `types` (for reductions): the shapes of [`im2col_maps`]
/// with each type in turn (channels so that a pixel is 32 bytes).
pub(super) fn im2col_maps_of(rank: usize, target: &Target, types: &[D]) -> Vec<TensorMap> {
    let mut shapes = Vec::new();
    for (k, &dtype) in types.iter().enumerate() {
        let eb = dtype.element_bytes() as u32;
        let (swizzle, lower, upper) = [(Swizzle::None, 0, 0), (Swizzle::B64, -1, 1), (Swizzle::B32, -1, -1)][k % 3];
        shapes.push((dtype, 32 / eb, 8u32, swizzle, lower, upper));
    }
    im2col_maps_with(rank, target, &shapes).into_iter().map(|m| TensorMap { oob_fill: OobFill::None, ..m }).collect()
}

/// Im2col maps of `rank`, one per `(dtype, channels per pixel, pixels per column, swizzle,
/// lower corner, upper corner)`; the second gets the NaN out-of-bounds fill where it is a float
/// map (the driver refuses it on integer maps).
pub(super) fn im2col_maps_with(
    rank: usize,
    target: &Target,
    shapes: &[(D, u32, u32, Swizzle, i32, i32)],
) -> Vec<TensorMap> {
    let mut maps = Vec::new();
    for (k, &(dtype, channels, pixels, swizzle, lower, upper)) in shapes.iter().enumerate() {
        let spatial = rank - 2;
        let mut dims = vec![u64::from(channels) + 8];
        for d in 0..spatial {
            dims.push(5 + d as u64);
        }
        dims.push(2);
        let eb = dtype.element_bytes();
        let mut strides = Vec::new();
        let mut s = (dims[0] * eb).next_multiple_of(16);
        for &n in &dims[1..] {
            strides.push(s);
            s *= n;
        }
        let m = TensorMap {
            mode: MapMode::Im2col {
                lower_corner: vec![lower; spatial],
                upper_corner: vec![upper; spatial],
                channels_per_pixel: channels,
                pixels_per_column: pixels,
            },
            dtype,
            global_address: 0,
            dims,
            strides,
            box_dims: vec![],
            element_strides: vec![1; rank],
            interleave: Interleave::None,
            swizzle,
            l2_promotion: L2Promotion::None,
            oob_fill: if k == 1 && dtype.is_float() { OobFill::NanRequestZeroFma } else { OobFill::None },
        };
        if m.validate(target).is_ok() {
            maps.push(m);
        }
    }
    maps
}

/// Coordinates and im2colInfo offsets for an im2col map: at the image's start, in its middle
/// with offsets, and in the second image past the last row.
pub(super) fn im2col_coordinates(map: &TensorMap) -> Vec<Placement> {
    let rank = map.rank();
    let spatial = rank - 2;
    let at = |c0: i32, s: i32, n: i32| {
        let mut v = vec![c0];
        v.extend(std::iter::repeat_n(s, spatial));
        v.push(n);
        v
    };
    vec![
        ("image start".to_string(), at(0, 0, 0), vec![0u16; spatial]),
        ("middle, offsets 1".to_string(), at(0, 1, 0), vec![1u16; spatial]),
        ("second image, near the end".to_string(), at(0, 3, 1), vec![0u16; spatial]),
    ]
}

/// Coordinates of `.im2col_no_offs` stores and reductions on an im2col map: at the image's
/// start, inside it, and in the second image (non-negative, §9.7.9.25.5.1).
pub(super) fn im2col_store_coordinates(map: &TensorMap) -> Vec<(String, Vec<i32>)> {
    im2col_coordinates(map)
        .into_iter()
        .map(|(w, c, _)| (w.replace(", offsets 1", ""), c))
        .filter(|(_, c)| map.store_restriction(c).is_none())
        .collect()
}

/// `map` with its pixel bounding box corners at 0 (the `.im2col_no_offs` stores of the sweep).
pub(super) fn with_zero_corners(map: TensorMap) -> TensorMap {
    let mode = match map.mode {
        MapMode::Im2col { lower_corner, upper_corner, channels_per_pixel, pixels_per_column } => MapMode::Im2col {
            lower_corner: vec![0; lower_corner.len()],
            upper_corner: vec![0; upper_corner.len()],
            channels_per_pixel,
            pixels_per_column,
        },
        m => m,
    };
    TensorMap { mode, ..map }
}
