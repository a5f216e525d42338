//! The `memory_line` target: arbitrary statement text in a memory program never panics the
//! statement parser, the register typer or the memory interpreter; every refusal is an error
//! whose message names the statement and says what is wrong.
//!
//! Input layout: byte 0 picks the thread count (1–4) and the target; byte 1 the value of the
//! input registers `n` (typed `.u32`) and `q` (typed `.pred`) and `x` (untyped); the rest is
//! UTF-8 (lossily) split into statements at newlines and `;`. The buffers are fixed: `src`
//! (global, 256 bytes), `win` (shared, 256 bytes, aligned to 128), `bar` (shared, 8 bytes),
//! `out` (global, 64 bytes), all read back — so statements written for the eval contract's
//! examples run as they are.

use std::collections::BTreeMap;

use oracle::isa::Target;
use oracle::memprog::{interp, BufferSource, BufferSpace, Init, InputReg, MemSource};
use oracle::program::RegClass;
use oracle::semantics::Allowances;

/// Statements per input at most (the interpreter's cost grows with them).
const MAX_STATEMENTS: usize = 64;

/// The program the bytes describe.
pub fn source(data: &[u8]) -> MemSource {
    let head = data.first().copied().unwrap_or(0);
    let value = u64::from(data.get(1).copied().unwrap_or(0));
    let text = String::from_utf8_lossy(data.get(2..).unwrap_or_default());
    let statements: Vec<String> = text
        .split(['\n', ';'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .take(MAX_STATEMENTS)
        .map(|s| format!("{s};"))
        .collect();
    let target = if head & 0x80 == 0 { "sm_90" } else { "sm_90a" };
    let buffer = |name: &str, space, len: u64, align| BufferSource {
        name: name.into(),
        space,
        init: Init::Fill { len, byte: Some(name.len() as u8 * 0x21) },
        align,
    };
    MemSource {
        target: Target::parse(target).expect("the target parses"),
        threads: 1 + u32::from(head & 3),
        cluster: 1,
        statements,
        regs: BTreeMap::from([
            ("n".to_string(), InputReg::typed(RegClass::B32, value)),
            ("q".to_string(), InputReg::typed(RegClass::Pred, value & 1)),
            ("x".to_string(), InputReg::from(value)),
        ]),
        buffers: vec![
            buffer("src", BufferSpace::Global, 256, 256),
            buffer("win", BufferSpace::Shared, 256, 128),
            buffer("bar", BufferSpace::Shared, 8, 8),
            buffer("out", BufferSpace::Global, 64, 256),
        ],
        tensor_maps: Vec::new(),
        read: ["src", "win", "out"].map(String::from).to_vec(),
    }
}

/// The target's property for one input: building and running either succeed or give an error
/// with a message (never a panic). Returns whether the program ran to its end.
pub fn check(data: &[u8]) -> bool {
    let src = source(data);
    match src.build() {
        Err(e) => {
            assert!(!e.to_string().trim().is_empty(), "an empty build error for {:?}", src.statements);
            false
        }
        Ok(p) => match interp::run(&p, &Allowances::all()) {
            Ok(_) => true,
            Err(e) => {
                assert!(e.to_string().starts_with("statement "), "a run error that names no statement: {e}");
                false
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    /// Statements the eval contract documents, then random splices of them and random bytes.
    const SEEDS: &[&str] = &[
        "cp.async.ca.shared.global [win+16], [src+4], 4, n",
        "cp.async.ca.shared.global [win], [src], 4, q",
        "cp.async.ca.shared.global [win], [src], 4, x",
        "cp.async.cg.shared.global [win+32], [src+16], 16, 3",
        "cp.async.commit_group",
        "cp.async.wait_group 0",
        "cp.async.wait_all",
        "mbarrier.init.shared::cta.b64 [bar], 1",
        "fence.mbarrier_init.release.cluster",
        "mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], 32",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [win], [src], 32, [bar]",
        "L: mbarrier.try_wait.shared::cta.b64 p, [bar], st",
        "@!p bra L",
        "createpolicy.fractional.L2::evict_first.b64 pol, 1.0",
        "cp.async.ca.shared.global.L2::cache_hint [win+48], [src], 4, pol",
        "ld.shared.u32 a, [win+16]",
        "st.global.u32 [out], a",
        "mov.u32 t, %tid.x",
        "add.u32 m, t, n",
        "setp.ne.u32 r, m, 0",
        "cvt.rn.f16.f32 h, a",
        "prmt.b32 b, a, m, 0x3210",
        "bar.sync 0",
    ];

    /// A program of the documented statements that runs (one thread, sm_90; every input
    /// register used, as an untyped one must be).
    const RUNS: &[&str] = &[
        "cp.async.ca.shared.global [win+16], [src+4], 4, n",
        "cp.async.commit_group",
        "cp.async.wait_group 0",
        "ld.shared.u32 a, [win+16]",
        "st.global.u32 [out], a",
        "mov.u32 t, %tid.x",
        "add.u32 m, t, n",
        "createpolicy.fractional.L2::evict_first.b64 pol, 1.0",
        "cp.async.ca.shared.global.L2::cache_hint [win+48], [src], 4, pol",
        "cp.async.wait_all",
        "prmt.b32 b, a, m, 0x3210",
        "st.global.u32 [out+4], b",
        "add.u32 y, x, 1",
    ];

    #[test]
    fn memory_line_smoke() {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        // Each documented statement alone, and the statements in order: a program that runs.
        for s in SEEDS {
            check(format!("\x01\x03{s}").as_bytes());
        }
        let whole = format!("\x00\x02{}", RUNS.join(";"));
        assert!(
            check(whole.as_bytes()),
            "the documented statements in order run: {:?}",
            source(whole.as_bytes()).statements
        );
        let mut ran = 0;
        for _ in 0..300 {
            // The running program with statements dropped, cut short, changed in a byte, or
            // another documented statement put in.
            let mut text = vec![rng.next() as u8 & 0x7c, rng.below(5) as u8];
            for s in RUNS {
                let s = match rng.below(40) {
                    0 => &s[..rng.below(s.len())],
                    1 => SEEDS[rng.below(SEEDS.len())],
                    2 => continue,
                    _ => s,
                };
                let mut b = s.as_bytes().to_vec();
                if rng.below(40) == 0 {
                    let at = rng.below(b.len().max(1)).min(b.len());
                    b.insert(at, rng.next() as u8);
                }
                text.extend(b);
                text.push(b';');
            }
            if rng.below(8) == 0 {
                let n = rng.below(64);
                text.extend(rng.bytes(n));
            }
            ran += usize::from(check(&text));
        }
        assert!(ran > 10, "only {ran} of 300 spliced programs ran to their end");
    }
}
