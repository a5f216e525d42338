//! cvt.pack against a second model transcribed from the §9.7.9.22 Semantics block (bit by bit),
//! on every type, with and without `c`, over edge and random inputs.

use oracle::isa::{CvtPack, PackType};
use oracle::semantics::cvt_pack::eval;

// The loops transcribe the pseudocode's index loops on purpose.
#[allow(clippy::needless_range_loop)]
fn model(t: PackType, with_c: bool, a: i32, b: i32, c: u32) -> u32 {
    let (size, signed) = match t {
        PackType::U16 => (16, false),
        PackType::S16 => (16, true),
        PackType::U8 => (8, false),
        PackType::S8 => (8, true),
        PackType::U4 => (4, false),
        PackType::S4 => (4, true),
        PackType::U2 => (2, false),
        PackType::S2 => (2, true),
    };
    let (min, max): (i64, i64) =
        if signed { (-(1 << (size - 1)), (1 << (size - 1)) - 1) } else { (0, (1 << size) - 1) };
    let ta = i64::from(a).clamp(min, max) as u64;
    let tb = i64::from(b).clamp(min, max) as u64;
    let mut td = [false; 64];
    for (i, bit) in td.iter_mut().enumerate().take(size) {
        *bit = tb >> i & 1 == 1;
    }
    for i in size..2 * size {
        td[i] = ta >> (i - size) & 1 == 1;
    }
    let mut d = [false; 32];
    if size == 16 {
        d.copy_from_slice(&td[..32]);
    } else {
        d[..2 * size].copy_from_slice(&td[..2 * size]);
        for i in 2 * size..32 {
            d[i] = with_c && c >> (i - 2 * size) & 1 == 1;
        }
    }
    d.iter().enumerate().fold(0, |acc, (i, &bit)| acc | (u32::from(bit) << i))
}

#[test]
fn cvt_pack_matches_the_semantics_block() {
    let edges = [
        0i32,
        1,
        -1,
        2,
        -2,
        3,
        -3,
        7,
        8,
        -8,
        -9,
        15,
        16,
        127,
        128,
        -128,
        -129,
        255,
        256,
        32767,
        32768,
        -32768,
        -32769,
        65535,
        65536,
        i32::MAX,
        i32::MIN,
    ];
    let mut s = 0x1234_5678u64;
    let mut rnd = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 16) as u32
    };
    let mut cases = 0;
    for &t in <PackType as oracle::isa::qualifier::Qualifier>::ALL {
        for with_c in [false, true] {
            if t.is_16bit() && with_c {
                continue;
            }
            let p = CvtPack { convert: t, with_c };
            for &a in &edges {
                for &b in &edges {
                    for _ in 0..4 {
                        let c = rnd();
                        assert_eq!(
                            eval(&p, a as u32, b as u32, c).bits,
                            u128::from(model(t, with_c, a, b, c)),
                            "{t:?} a={a} b={b} c={c:#x}"
                        );
                        cases += 1;
                    }
                }
            }
            for _ in 0..100_000 {
                let (a, b, c) = (rnd() as i32 >> (rnd() % 31), rnd() as i32 >> (rnd() % 31), rnd());
                assert_eq!(eval(&p, a as u32, b as u32, c).bits, u128::from(model(t, with_c, a, b, c)));
                cases += 1;
            }
        }
    }
    assert!(cases > 1_000_000);
}
