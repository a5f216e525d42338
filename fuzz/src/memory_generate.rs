//! The `memory_generate` target: every memory program (asynchronous copies over named buffers)
//! the generator builds from arbitrary bytes is valid by construction — it builds, the memory
//! interpreter runs it without calling it undefined, a hang or unsupported, and it prints as a
//! PTX kernel.
//!
//! Input layout: byte 0 picks the target among [`TARGETS`]; the rest drives [`generate`] with
//! the default (swarm) [`AsyncConfig`] through `Unstructured` (an exhausted stream reads as
//! zeros, so generation must end on any input).

use arbitrary::Unstructured;
use generator::async_programs::{generate, AsyncConfig};
use oracle::isa::Target;
use oracle::memprog::{interp, ptx, MemSource};
use oracle::semantics::Allowances;

/// The targets the memory programs are generated for (sm_90 and later: mbarrier
/// transactions, bulk and tensor copies).
pub const TARGETS: [&str; 3] = ["sm_90", "sm_90a", "sm_100a"];

/// The program the bytes build.
pub fn build(data: &[u8]) -> MemSource {
    let (first, rest) = data.split_first().unwrap_or((&0, &[]));
    let target: Target = TARGETS[usize::from(*first) % TARGETS.len()].parse().expect("the targets parse");
    generate(&mut Unstructured::new(rest), &AsyncConfig::default(), &target)
}

/// The target's property for one input.
pub fn check(data: &[u8]) {
    let src = build(data);
    let text = src.statements.join("\n");
    let p = src.build().unwrap_or_else(|e| panic!("a generated memory program does not build: {e}\n{text}"));
    if let Err(e) = interp::run(&p, &Allowances::all()) {
        panic!("the memory interpreter rejects a generated program: {e}\n{text}");
    }
    if let Err(e) = ptx::module(&[&p]) {
        panic!("a generated memory program does not print: {e}\n{text}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    /// A few hundred byte strings of random lengths, the empty one and all-zero ones included
    /// (an exhausted stream: generation must still end).
    #[test]
    fn memory_generate_smoke() {
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
        check(&[]);
        check(&[0; 64]);
        check(&[0xff; 64]);
        for i in 0..200 {
            let n = rng.below(1500);
            let mut data = rng.bytes(n);
            if i % 5 == 0 {
                data.iter_mut().for_each(|b| *b &= 0x0F);
            }
            check(&data);
        }
    }
}
