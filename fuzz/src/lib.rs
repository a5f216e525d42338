//! Library code behind the cargo-fuzz targets, so that the same checks run as smoke tests under
//! `cargo test` without libFuzzer.
//!
//! Targets:
//! - `parse`: arbitrary text never panics the instruction parser, and whatever parses prints
//!   canonically and parses back to the same instruction (print∘parse is the identity).
//! - `generate`: raw bytes drive `generator::program::generate`; every program passes
//!   `check_program` and its case text parses back to it (`generator::program::fuzz_one`).

use oracle::isa::Instruction;

/// The `parse` target's property for one input.
pub fn parse_round_trips(text: &str) {
    if let Ok(i) = text.parse::<Instruction>() {
        let printed = i.to_string();
        let again: Instruction =
            printed.parse().unwrap_or_else(|e| panic!("`{printed}` (from `{text}`) does not parse: {e}"));
        assert_eq!(again, i, "`{text}` -> `{printed}`");
        assert_eq!(again.to_string(), printed);
    }
}

/// The `generate` target's property for one input.
pub fn generate_is_valid(data: &[u8]) {
    if let Err(e) = generator::program::fuzz_one(data) {
        panic!("{e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A few hundred byte strings: random, sparse, and all-equal.
    #[test]
    fn generate_smoke() {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..300usize {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let len = (s % 1024) as usize;
            let data: Vec<u8> = (0..len)
                .map(|k| match i % 3 {
                    0 => (s.rotate_left(k as u32 % 64) >> 3) as u8,
                    1 => (k % 5) as u8,
                    _ => 0xFF,
                })
                .collect();
            generate_is_valid(&data);
        }
    }

    const SEEDS: &[&str] = &[
        "cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2;",
        "@!%p1 ld.global.relaxed.gpu.v4.u32 {%r1, %r2, _, %r4}, [%rd1+-16];",
        "shfl.sync.bfly.b32 %r1|%p2, %r3, 0x1f, 31, 0xffffffff;",
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [sbuf], [%rd1, {%r1, %r2}], [mbar];",
        "mov.b64 {%r1, %r2}, %rd3;",
        "prmt.b32.f4e %r1, %r2, %r3, %r4;",
        "ld.global.f32 %f1, [%rd1].unified;",
        "cvta.to.global.u64 %rd1, %rd2;",
    ];

    /// A few hundred mutated inputs: byte flips, truncations and splices of valid seeds.
    #[test]
    fn parse_smoke() {
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut parsed = 0;
        for i in 0..600 {
            let seed = SEEDS[i % SEEDS.len()].as_bytes();
            let mut bytes = seed.to_vec();
            match next() % 4 {
                0 => {
                    let k = (next() as usize) % bytes.len();
                    bytes[k] = (next() % 128) as u8;
                }
                1 => bytes.truncate((next() as usize) % bytes.len()),
                2 => {
                    let other = SEEDS[(next() as usize) % SEEDS.len()].as_bytes();
                    let k = (next() as usize) % bytes.len().min(other.len());
                    bytes.splice(k.., other[k..].iter().copied());
                }
                _ => {}
            }
            if let Ok(text) = std::str::from_utf8(&bytes) {
                if text.parse::<Instruction>().is_ok() {
                    parsed += 1;
                }
                parse_round_trips(text);
            }
        }
        assert!(parsed > 100, "only {parsed} inputs parsed");
    }
}
