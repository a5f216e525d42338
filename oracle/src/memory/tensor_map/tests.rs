//! Tests across the files of the tensor-map model: the fixtures the files' tests share, the
//! property tests of tiles and loads over random valid maps, and the replay of the H100
//! measurements (corpus/evidence/tma-tile-loads/: every recorded shared-memory window rebuilt
//! from the model, byte for byte).

use super::*;
use crate::isa::Target;
use proptest::prelude::*;

pub(super) fn target(name: &str) -> Target {
    name.parse().expect("a known target")
}

pub(super) fn sm90() -> Target {
    target("sm_90")
}

/// A tiled map with no interleave, swizzle, promotion or fill, at a 1 KiB-aligned address.
pub(super) fn tiled(dtype: TensorDataType, dims: &[u64], strides: &[u64], box_dims: &[u32]) -> TensorMap {
    TensorMap {
        mode: MapMode::Tiled,
        dtype,
        global_address: 0x1000,
        dims: dims.to_vec(),
        strides: strides.to_vec(),
        box_dims: box_dims.to_vec(),
        element_strides: vec![1; dims.len()],
        interleave: Interleave::None,
        swizzle: Swizzle::None,
        l2_promotion: L2Promotion::None,
        oob_fill: OobFill::None,
    }
}

/// The issue's eval example: f16 40 × 20, box 32 × 18, 64B swizzle, NaN fill.
pub(super) fn issue_example() -> TensorMap {
    TensorMap {
        swizzle: Swizzle::B64,
        oob_fill: OobFill::NanRequestZeroFma,
        ..tiled(TensorDataType::Float16, &[40, 20], &[80], &[32, 18])
    }
}

pub(super) fn im2col_map() -> TensorMap {
    TensorMap {
        mode: MapMode::Im2col {
            lower_corner: vec![-1],
            upper_corner: vec![-1],
            channels_per_pixel: 8,
            pixels_per_column: 16,
        },
        box_dims: vec![],
        ..tiled(TensorDataType::Float16, &[8, 16, 2], &[16, 256], &[1, 1, 1])
    }
}

/// A map built from random numbers, valid by construction for most draws.
fn random_map(rank: usize, r: &[u32; 24]) -> TensorMap {
    use TensorDataType::*;
    let unpacked = [
        Uint8,
        Uint16,
        Uint32,
        Int32,
        Uint64,
        Int64,
        Float16,
        Float32,
        Float64,
        Bfloat16,
        Float32Ftz,
        Tfloat32,
        Tfloat32Ftz,
    ];
    let dtype = unpacked[r[0] as usize % unpacked.len()];
    let elem = dtype.unpacked_bytes().unwrap_or(1);
    let interleave = if rank >= 3 {
        [Interleave::None, Interleave::None, Interleave::B16, Interleave::B32][r[1] as usize % 4]
    } else {
        Interleave::None
    };
    let swizzle = if interleave == Interleave::B32 {
        Swizzle::B32
    } else {
        [Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128][r[2] as usize % 4]
    };
    let box0 = match interleave {
        Interleave::None => {
            let chunks = swizzle.span().map_or(8, |s| s / 16);
            (1 + u64::from(r[3]) % chunks) * 16 / elem
        }
        _ => (1 + u64::from(r[3]) % 4) * 16 / elem,
    };
    let dims: Vec<u64> = (0..rank).map(|d| 1 + u64::from(r[4 + d]) % if d == 0 { 80 } else { 12 }).collect();
    let mut strides = Vec::new();
    let mut extent = dims[0] * interleave.unit_bytes().unwrap_or(elem);
    for &n in dims.iter().skip(1).take(rank.saturating_sub(1)) {
        let stride = extent.div_ceil(32) * 32 + 32 * u64::from(r[10] % 2);
        strides.push(stride);
        extent = stride * n;
    }
    let box_dims: Vec<u32> = (0..rank).map(|d| if d == 0 { box0 as u32 } else { 1 + r[14 + d] % 6 }).collect();
    let element_strides: Vec<u32> = (0..rank).map(|d| 1 + r[19 + d.min(4)] % 3).collect();
    let mode = if rank >= 3 && r[13].is_multiple_of(3) {
        let corner = |v: u32| -> Vec<i32> { (0..rank - 2).map(|i| ((v >> (2 * i)) % 3) as i32).collect() };
        MapMode::Im2col {
            lower_corner: corner(r[14]).into_iter().map(|c| -c).collect(),
            upper_corner: corner(r[15]),
            channels_per_pixel: box0 as u32,
            pixels_per_column: 1 + r[16] % 64,
        }
    } else {
        MapMode::Tiled
    };
    let box_dims = if mode == MapMode::Tiled { box_dims } else { Vec::new() };
    TensorMap {
        mode,
        dtype,
        global_address: 0x10000 + 32 * u64::from(r[9] % 64),
        dims,
        strides,
        box_dims,
        element_strides,
        interleave,
        swizzle,
        l2_promotion: L2Promotion::ALL[r[11] as usize % 4],
        oob_fill: if dtype.is_float() && r[12] % 2 == 1 { OobFill::NanRequestZeroFma } else { OobFill::None },
    }
}

proptest! {
#[test]
fn tile_elements_are_distinct_inside_the_extent_and_written_once(
    rank in 1usize..=5,
    r in any::<[u32; 24]>(),
    coords in proptest::collection::vec(-12i32..90, 5),
    block in 0u64..64,
) {
    let map = random_map(rank, &r);
    prop_assert_eq!(map.validate(&sm90()), Ok(()), "{:?}", map);
    let dst = block * SMEM_TILE_ALIGN;
    match map.tile_at(dst, &coords[..rank], &[]) {
        Ok(tile) => {
            let elem = map.tile_element_bytes();
            prop_assert_eq!(tile.len() as u64 * elem, map.tile_bytes());
            prop_assert!(map.tile_bytes() <= map.tile_extent());
            let mut covered = vec![false; map.tile_extent() as usize];
            for e in &tile {
                prop_assert_eq!(e.smem_offset % elem, 0);
                prop_assert!(e.smem_offset + elem <= map.tile_extent());
                for b in e.smem_offset..e.smem_offset + elem {
                    prop_assert!(!std::mem::replace(&mut covered[b as usize], true), "byte {} twice", b);
                }
            }
            if map.swizzle == Swizzle::None {
                prop_assert!(covered.iter().all(|&c| c), "unswizzled tiles are dense");
            }
            let loaded = map.load_at(dst, &coords[..rank], &[], &|_| Some(1)).expect("same tile");
            prop_assert_eq!(loaded.len() as u64, map.tile_extent());
            for (b, c) in loaded.iter().zip(&covered) {
                prop_assert_eq!(*b == LoadedByte::Unwritten, !c);
            }
        }
        Err(e) if map.interleave != Interleave::None && map.mode != MapMode::Tiled => {
            prop_assert_eq!(e.problem, "not-modeled", "{}", e)
        }
        Err(e) => prop_assert_eq!(e.problem, "too-large", "{}", e),
    }
}    }

#[test]
fn most_random_maps_are_modeled() {
    // The property above skips oversized tiles: make sure they are the exception, so that
    // it checks something.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as u32
    };
    let (mut modeled, mut im2col, mut interleaved, mut unmodeled) = (0, 0, 0, 0);
    for i in 0..500 {
        let rank = 1 + i % 5;
        let r: [u32; 24] = std::array::from_fn(|_| next());
        let map = random_map(rank, &r);
        assert_eq!(map.validate(&sm90()), Ok(()), "{map:?}");
        if map.interleave != Interleave::None && map.mode != MapMode::Tiled {
            unmodeled += 1;
            continue;
        }
        let coords: Vec<i32> = (0..rank).map(|_| (next() % 100) as i32 - 12).collect();
        if map.tile(&coords, &[]).is_ok() {
            modeled += 1;
            im2col += usize::from(matches!(map.mode, MapMode::Im2col { .. }));
            interleaved += usize::from(map.interleave != Interleave::None);
        }
    }
    assert!(
        modeled >= (500 - unmodeled) * 9 / 10,
        "{modeled} of {} maps other than interleaved im2col modeled",
        500 - unmodeled
    );
    assert!(interleaved >= 50, "{interleaved} interleaved maps modeled");
    assert!(im2col >= 30, "{im2col} im2col maps modeled");
}

/// The H100 measurements: corpus/evidence/tma-tile-loads/, written by `tma.py` there.
mod h100 {
    use super::*;
    use serde_json::Value;

    fn evidence_dir() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/evidence/tma-tile-loads")
    }

    /// One recorded case (the keys `tma.py` writes).
    pub(super) struct Case {
        pub(super) name: String,
        pub(super) map: TensorMap,
        pub(super) coords: Vec<i32>,
        pub(super) dst: u64,
        /// The CUresult of cuTensorMapEncodeTiled.
        pub(super) encode: u64,
        /// The CUresults of the launch and of the synchronize, when encoded.
        pub(super) launch: Option<[u64; 2]>,
        /// The `expect_tx` byte count the probe used (`esz · Π ceil(box / es)`).
        pub(super) expect_tx: Option<u64>,
        /// The whole 16 KiB shared-memory window after the load.
        pub(super) smem: Option<Vec<u8>>,
        /// The tensor's bytes in global memory, as `tma.py` filled them.
        pub(super) global: Vec<u8>,
    }

    fn numbers(v: &Value, key: &str) -> Vec<i64> {
        v[key].as_array().unwrap_or_else(|| panic!("{key}: an array")).iter().filter_map(Value::as_i64).collect()
    }

    fn number(v: &Value, key: &str) -> u64 {
        v[key].as_u64().unwrap_or_else(|| panic!("{key}: a number"))
    }

    fn hex(text: &str) -> Vec<u8> {
        (0..text.len() / 2).map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16).expect("hex")).collect()
    }

    /// `TV` of `tma.py`: the f32 bits the TFLOAT32 cases start with, and the names of the
    /// cases that load them (`data=TD`).
    pub(super) fn tf32_inputs() -> (Vec<u32>, Vec<String>) {
        let script = std::fs::read_to_string(evidence_dir().join("tma.py")).expect("tma.py");
        let line = script.lines().find(|l| l.starts_with("TV = [")).expect("TV in tma.py");
        let values = line[6..line.len() - 1]
            .split(',')
            .map(|v| u32::from_str_radix(v.trim().trim_start_matches("0x"), 16).expect("hex"))
            .collect();
        let names = script
            .lines()
            .filter(|l| l.contains("data=TD"))
            .filter_map(|l| l.split('"').nth(1).map(String::from))
            .collect();
        (values, names)
    }

    /// The global tensor of `tma.py`'s `run`: element `i` holds `i` (truncated to the
    /// element), over `strides[-1] · dims[-1]` bytes, the TFLOAT32 inputs first where asked.
    fn global_bytes(name: &str, elem: usize, dims: &[u64], strides: &[u64]) -> Vec<u8> {
        let total = match (strides.last(), dims.last()) {
            (Some(s), Some(d)) => (s * d) as usize,
            _ => dims[0] as usize * elem,
        };
        let mut host = vec![0u8; total];
        for (i, chunk) in host.chunks_exact_mut(elem).enumerate() {
            chunk.copy_from_slice(&(i as u64).to_le_bytes()[..elem]);
        }
        let (values, names) = tf32_inputs();
        if names.iter().any(|n| n == name) {
            for (chunk, v) in host.chunks_exact_mut(4).zip(values) {
                chunk.copy_from_slice(&v.to_le_bytes());
            }
        }
        host
    }

    pub(super) fn cases() -> Vec<Case> {
        let mut out = Vec::new();
        for round in ["round1.jsonl", "round2.jsonl", "round3.jsonl"] {
            let text = std::fs::read_to_string(evidence_dir().join(round)).expect(round);
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                let parsed: Value = serde_json::from_str(line).expect("a JSON line");
                let records = match parsed {
                    Value::Array(a) => a,
                    other => vec![other],
                };
                for v in records {
                    out.push(case(&v));
                }
            }
        }
        out
    }

    fn case(v: &Value) -> Case {
        let name = v["name"].as_str().expect("name").to_string();
        let code = |key| u32::try_from(number(v, key)).expect("a cuda.h code");
        let dtype = TensorDataType::ALL[code("dtype") as usize];
        let unsigned = |key| numbers(v, key).into_iter().map(|n| n as u64).collect::<Vec<_>>();
        let (dims, strides) = (unsigned("dims"), unsigned("strides"));
        let elem = dtype.unpacked_bytes().expect("unpacked") as usize;
        let map = TensorMap {
            mode: MapMode::Tiled,
            dtype,
            global_address: 0x10000,
            box_dims: numbers(v, "box").into_iter().map(|n| n as u32).collect(),
            element_strides: numbers(v, "es").into_iter().map(|n| n as u32).collect(),
            interleave: Interleave::ALL[code("inter") as usize],
            swizzle: Swizzle::ALL[code("swz") as usize],
            l2_promotion: L2Promotion::None,
            oob_fill: OobFill::ALL[code("oob") as usize],
            dims: dims.clone(),
            strides: strides.clone(),
        };
        Case {
            global: global_bytes(&name, elem, &dims, &strides),
            name,
            map,
            coords: numbers(v, "coords").into_iter().map(|n| n as i32).collect(),
            dst: number(v, "dstoff"),
            encode: number(v, "encode"),
            launch: v["launch"].as_array().map(|l| [l[0].as_u64().expect("rc"), l[1].as_u64().expect("rc")]),
            expect_tx: v["tile_bytes"].as_u64(),
            smem: v["smem"].as_str().map(hex),
        }
    }

    /// The window the probe copied out, rebuilt from the model: 0xa5 everywhere, then what
    /// `load_at` writes at the destination (the NaN fill as the H100 writes it).
    fn rebuilt_window(c: &Case) -> Vec<u8> {
        let base = c.map.global_address;
        let global = |a: u64| a.checked_sub(base).and_then(|i| c.global.get(i as usize)).copied();
        let loaded = c.map.load_at(c.dst, &c.coords, &[], &global).unwrap_or_else(|e| panic!("{}: {e}", c.name));
        let elem = c.map.element_bytes();
        let mut window = vec![0xa5u8; 16384];
        for (i, b) in loaded.iter().enumerate() {
            let at = c.dst as usize + i;
            match b {
                LoadedByte::Byte(Some(v)) => window[at] = *v,
                LoadedByte::Byte(None) => panic!("{}: byte {i} unknown", c.name),
                LoadedByte::Fill => window[at] = fill_byte(i as u64 % elem),
                LoadedByte::Unwritten => {}
            }
        }
        window
    }

    /// Every recorded case the model covers: encode rejections name their rule, faults are
    /// the inner-coordinate rule or a misaligned destination, and every load's whole
    /// window is rebuilt byte for byte (swizzles at window offsets 0, 128 and 1024,
    /// half and quarter rows, NaN and zero fill, element strides, TFLOAT32 rounding).
    #[test]
    fn h100_measurements_replay() {
        let (mut rejected, mut inner_traps, mut misaligned, mut replayed) = (0, 0, 0, 0);
        for c in cases() {
            if c.encode != 0 {
                assert_eq!(c.encode, 1, "{}: CUDA_ERROR_INVALID_VALUE", c.name);
                let rule = c.map.validate(&sm90()).map_err(|e| e.rule);
                let want = match c.name.as_str() {
                    "u16-nan" => "oob-fill-float",
                    "stride-72" => "stride-multiple-of-16",
                    "box-inner-8B" => "box-inner-bytes",
                    other => panic!("{other}: an encode rejection the test does not know"),
                };
                assert_eq!(rule, Err(want), "{}", c.name);
                rejected += 1;
                continue;
            }
            assert_eq!(c.map.validate(&sm90()), Ok(()), "{}", c.name);
            match c.launch {
                Some([0, 715]) => {
                    assert!(c.map.inner_coordinate_traps(&c.coords), "{}: CUDA_ERROR_ILLEGAL_INSTRUCTION", c.name);
                    assert!(c.map.tile_at(c.dst, &c.coords, &[]).is_ok(), "{}: the spec's tile exists", c.name);
                    inner_traps += 1;
                }
                Some([0, 716]) => {
                    assert!(!c.map.inner_coordinate_traps(&c.coords), "{}", c.name);
                    let err = c.map.tile_at(c.dst, &c.coords, &[]).map_err(|e| e.problem);
                    assert_eq!(err, Err("smem-align"), "{}: CUDA_ERROR_MISALIGNED_ADDRESS", c.name);
                    misaligned += 1;
                }
                Some([0, 0]) => {
                    assert!(!c.map.inner_coordinate_traps(&c.coords), "{}", c.name);
                    let smem = c.smem.as_ref().expect("a loaded window");
                    let rebuilt = rebuilt_window(&c);
                    assert_eq!(rebuilt.len(), smem.len(), "{}", c.name);
                    if let Some(i) = rebuilt.iter().zip(smem).position(|(m, h)| m != h) {
                        panic!(
                            "{}: window byte {i} (destination + {}): model {:02x}, H100 {:02x}",
                            c.name,
                            i as i64 - c.dst as i64,
                            rebuilt[i],
                            smem[i]
                        );
                    }
                    if c.map.element_strides[0] == 1 {
                        assert_eq!(Some(c.map.tile_bytes()), c.expect_tx, "{}: transaction bytes", c.name);
                    }
                    replayed += 1;
                }
                other => panic!("{}: launch {other:?} the test does not know", c.name),
            }
        }
        assert_eq!((rejected, inner_traps, misaligned, replayed), (3, 15, 1, 39));
    }

    /// Element strides along dimension 0 are ignored without interleave: the H100 wrote
    /// `boxDim[0]` contiguous elements per row even though the probe's expect_tx counted
    /// `ceil(boxDim[0] / es[0])`.
    #[test]
    fn dim0_element_stride_is_ignored_on_the_h100() {
        let strided: Vec<Case> =
            cases().into_iter().filter(|c| c.launch == Some([0, 0]) && c.map.element_strides[0] > 1).collect();
        assert_eq!(strided.len(), 2);
        for c in strided {
            let rows: u64 = c.map.box_dims[1].div_ceil(c.map.element_strides[1]).into();
            assert_eq!(c.map.tile_bytes(), u64::from(c.map.box_dims[0]) * c.map.element_bytes() * rows, "{}", c.name);
            assert!(Some(c.map.tile_bytes()) > c.expect_tx, "{}", c.name);
        }
    }

    /// Every input of the TFLOAT32 table, converted as the H100 did (round3 `tf32-round`
    /// and `tf32ftz`: the first 16 elements of the window).
    #[test]
    fn tfloat32_loads_round_as_measured() {
        let (inputs, _) = tf32_inputs();
        assert_eq!(inputs.len(), 16);
        for name in ["tf32-round", "tf32ftz"] {
            let c = cases().into_iter().find(|c| c.name == name).expect(name);
            let smem = c.smem.expect("loaded");
            for (i, &a) in inputs.iter().enumerate() {
                let d = u32::from_le_bytes(smem[4 * i..4 * i + 4].try_into().expect("4 bytes"));
                assert_eq!(tfloat32_on_load(a), d, "{name}: {a:#010x}");
            }
        }
        // FLOAT32_FTZ copies the same inputs unchanged (subnormals not flushed).
        let c = cases().into_iter().find(|c| c.name == "f32ftz-sub").expect("f32ftz-sub");
        assert_eq!(c.smem.expect("loaded")[..64], c.global[..64]);
        // The facts' table, spelled out.
        for (a, d) in [
            (0x3f80_1000, 0x3f80_0000),
            (0x3f80_3000, 0x3f80_4000),
            (0x7f7f_ffff, 0x7f80_0000),
            (0x0000_1fff, 0x0000_2000),
            (0x007f_f000, 0x0080_0000),
            (0x8000_1000, 0x8000_0000),
            (0x7f80_0001, 0x7fff_e000),
            (0x7fc0_0001, 0x7fff_e000),
            (0xff80_0000, 0xff80_0000),
        ] {
            assert_eq!(tfloat32_on_load(a), d, "{a:#010x}");
        }
    }
}
