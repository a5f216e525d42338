//! prmt and shfl.sync against second, independently written models (transcribed from the
//! pseudocode of §9.7.9.7 and §9.7.9.6, not from the implementation), plus properties.

use oracle::isa::{Prmt, PrmtMode, ShflMode};
use oracle::semantics::prmt;
use oracle::semantics::shfl::{eval_warp, LaneIn};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
}

/// `ReadByte` of §9.7.9.7 written byte by byte from the text: bytes of `{b, a}` numbered 0..7
/// from a's low byte; the selector's msb replicates the byte's sign.
fn prmt_generic_model(a: u32, b: u32, c: u32) -> u32 {
    let bytes = [
        a as u8,
        (a >> 8) as u8,
        (a >> 16) as u8,
        (a >> 24) as u8,
        b as u8,
        (b >> 8) as u8,
        (b >> 16) as u8,
        (b >> 24) as u8,
    ];
    let mut out = [0u8; 4];
    for (k, o) in out.iter_mut().enumerate() {
        let sel = (c >> (4 * k)) & 0xF;
        let byte = bytes[(sel & 0x7) as usize];
        *o = if sel >= 8 {
            if (byte as i8) < 0 {
                0xFF
            } else {
                0x00
            }
        } else {
            byte
        };
    }
    u32::from_le_bytes(out)
}

/// The mode table of §9.7.9.7 as printed: rows of (d.b3, d.b2, d.b1, d.b0) per selector.
fn prmt_mode_model(mode: PrmtMode, a: u32, b: u32, c: u32) -> u32 {
    let table: [[u8; 4]; 4] = match mode {
        PrmtMode::F4e => [[3, 2, 1, 0], [4, 3, 2, 1], [5, 4, 3, 2], [6, 5, 4, 3]],
        PrmtMode::B4e => [[5, 6, 7, 0], [6, 7, 0, 1], [7, 0, 1, 2], [0, 1, 2, 3]],
        PrmtMode::Rc8 => [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
        PrmtMode::Ecl => [[3, 2, 1, 0], [3, 2, 1, 1], [3, 2, 2, 2], [3, 3, 3, 3]],
        PrmtMode::Ecr => [[0, 0, 0, 0], [1, 1, 1, 0], [2, 2, 1, 0], [3, 2, 1, 0]],
        PrmtMode::Rc16 => [[1, 0, 1, 0], [3, 2, 3, 2], [1, 0, 1, 0], [3, 2, 3, 2]],
    };
    let src = ((b as u64) << 32) | a as u64;
    let row = table[(c & 3) as usize];
    let pick = |i: u8| ((src >> (8 * i)) & 0xFF) as u32;
    (pick(row[0]) << 24) | (pick(row[1]) << 16) | (pick(row[2]) << 8) | pick(row[3])
}

#[test]
fn prmt_generic_form_over_every_selector() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let p = Prmt { mode: None };
    let mut cases = 0u64;
    for sel in 0..=0xFFFFu32 {
        for _ in 0..16 {
            let (a, b) = (rng.next(), rng.next());
            // Only c[15:0] matters: random upper bits must not change the result.
            let c = sel | (rng.next() << 16);
            assert_eq!(prmt::eval(&p, a, b, c), prmt_generic_model(a, b, sel), "a={a:#x} b={b:#x} c={c:#x}");
            cases += 1;
        }
    }
    assert_eq!(cases, 1 << 20);
}

#[test]
fn prmt_modes_over_every_selector() {
    let mut rng = Rng(0x0F0F_1234_5555_AAAA);
    for &mode in <PrmtMode as oracle::isa::qualifier::Qualifier>::ALL {
        let p = Prmt { mode: Some(mode) };
        for sel in 0..4u32 {
            for _ in 0..4096 {
                let (a, b) = (rng.next(), rng.next());
                let c = sel | (rng.next() & !3);
                assert_eq!(prmt::eval(&p, a, b, c), prmt_mode_model(mode, a, b, sel), "{mode:?} c={c:#x}");
            }
        }
    }
}

/// Source lane and in-range flag transcribed from the §9.7.9.6 Semantics block.
fn shfl_model(mode: ShflMode, lane: i64, b: u32, c: u32) -> (i64, bool) {
    let bval = (b & 31) as i64;
    let cval = (c & 31) as i64;
    let segmask = ((c >> 8) & 31) as i64;
    let max_lane = (lane & segmask) | (cval & !segmask);
    let min_lane = lane & segmask;
    let (j, pval) = match mode {
        ShflMode::Up => (lane - bval, lane - bval >= max_lane),
        ShflMode::Down => (lane + bval, lane + bval <= max_lane),
        ShflMode::Bfly => (lane ^ bval, (lane ^ bval) <= max_lane),
        ShflMode::Idx => (min_lane | (bval & !segmask), (min_lane | (bval & !segmask)) <= max_lane),
    };
    if pval {
        (j, true)
    } else {
        (lane, false)
    }
}

const MODES: [ShflMode; 4] = [ShflMode::Up, ShflMode::Down, ShflMode::Bfly, ShflMode::Idx];

#[test]
fn shfl_sync_matches_the_pseudocode_for_every_mode_b_and_segment_mask() {
    let mut rng = Rng(0xDEAD_BEEF_0123_4567);
    let mut cases = 0u64;
    let member_masks = [0xFFFF_FFFFu32, 0x0000_FFFF, 0xAAAA_AAAA, 0x8000_0001, 0x0F0F_0F0F];
    for mode in MODES {
        for b in 0..64u32 {
            for segmask in 0..32u32 {
                for clamp in [0u32, 7, 15, 31] {
                    let c = (segmask << 8) | clamp | (rng.next() & !0x1F1F);
                    for &mm in &member_masks {
                        let a: Vec<u32> = (0..32).map(|_| rng.next()).collect();
                        let lanes: [LaneIn; 32] = std::array::from_fn(|i| LaneIn { a: a[i], b, c, membermask: mm });
                        let out = eval_warp(mode, true, &lanes, mm);
                        for (lane, got) in out.iter().enumerate() {
                            cases += 1;
                            if mm >> lane & 1 == 0 {
                                assert_eq!(got.p, None, "inactive lanes produce nothing");
                                continue;
                            }
                            let (j, pval) = shfl_model(mode, lane as i64, b, c);
                            assert_eq!(out[lane].p, Some(pval), "{mode:?} lane {lane} b={b} c={c:#x}");
                            if mm >> j & 1 == 1 {
                                assert!(out[lane].d.is_exact());
                                assert_eq!(out[lane].d.bits, u128::from(a[j as usize]));
                            } else {
                                assert!(!out[lane].d.is_exact(), "reading a non-member lane is undefined");
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(cases > 1_000_000, "{cases}");
}

#[test]
fn shfl_properties() {
    let mut rng = Rng(42);
    let full = u32::MAX;
    let a: Vec<u32> = (0..32).map(|_| rng.next()).collect();
    let warp = |mode, b: &dyn Fn(usize) -> u32, c: u32, input: &[u32]| {
        let lanes: [LaneIn; 32] = std::array::from_fn(|i| LaneIn { a: input[i], b: b(i), c, membermask: full });
        eval_warp(mode, true, &lanes, full)
    };
    for bval in 0..32u32 {
        // bfly twice is the identity when in range (clamp 31, no segments).
        let once: Vec<u32> = warp(ShflMode::Bfly, &|_| bval, 0x1F, &a).iter().map(|o| o.d.bits as u32).collect();
        let twice: Vec<u32> = warp(ShflMode::Bfly, &|_| bval, 0x1F, &once).iter().map(|o| o.d.bits as u32).collect();
        assert_eq!(twice, a);
    }
    // idx with b = lane copies the lane's own value.
    let own = warp(ShflMode::Idx, &|i| i as u32, 0x1F, &a);
    assert!(own.iter().zip(&a).all(|(o, &x)| o.d.bits == u128::from(x) && o.p == Some(true)));
    // p false => own value.
    for mode in MODES {
        for bval in [1u32, 5, 31, 33, 63] {
            for (lane, o) in warp(mode, &|_| bval, 0x0, &a).iter().enumerate() {
                if o.p == Some(false) {
                    assert_eq!(o.d.bits, u128::from(a[lane]));
                }
            }
        }
    }
    // A lane outside its own membermask: everything undefined for it.
    let lanes: [LaneIn; 32] = std::array::from_fn(|i| LaneIn { a: a[i], b: 0, c: 0x1F, membermask: 0xFFFF_FFFE });
    let out = eval_warp(ShflMode::Idx, true, &lanes, full);
    assert_eq!(out[0].p, None);
    assert!(!out[0].d.is_exact());
    // The deprecated shfl ignores membermask but not inactive lanes.
    let lanes: [LaneIn; 32] = std::array::from_fn(|i| LaneIn { a: a[i], b: 1, c: 0x1F, membermask: 0 });
    let out = eval_warp(ShflMode::Down, false, &lanes, 0x0000_FFFF);
    assert!(out[3].d.is_exact() && out[15].p == Some(true) && !out[15].d.is_exact(), "lane 15 reads inactive lane 16");
}
