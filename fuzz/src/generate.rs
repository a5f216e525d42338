//! The `generate` target: every program the generator builds from arbitrary bytes is valid for
//! its target, survives printing and parsing unchanged, and runs on the program oracle.
//!
//! Input layout: byte 0 picks the target among [`FUZZ_TARGETS`]; the rest drives
//! [`generate`] with the default (swarm) [`Config`], so libFuzzer's mutations steer the
//! program's structure directly. For every program built:
//! - [`check_program`] accepts it and the inputs have `threads × inputs` words;
//! - `parse_module(&module(&[p])) == [p]` and `parse_case(&case(&p, &i)) == (p, i)`;
//! - [`interp::run`] gives one output of `32 × outputs` bits per thread, without error.

use arbitrary::Unstructured;
use generator::program::{check_program, generate, Config, FUZZ_TARGETS};
use oracle::isa::Target;
use oracle::program::text::{case, module, parse_case, parse_module};
use oracle::program::{interp, Inputs, Program};
use oracle::semantics::Allowances;

/// The program and inputs the bytes build (`None` where the generator gives up on them).
pub fn build(data: &[u8]) -> Option<(Program, Inputs)> {
    let (first, rest) = data.split_first().unwrap_or((&0, &[]));
    let target: Target =
        FUZZ_TARGETS[usize::from(*first) % FUZZ_TARGETS.len()].parse().expect("the fuzz targets parse");
    generate(&mut Unstructured::new(rest), &Config::default(), &target, "fuzz").ok()
}

/// The target's property for one input.
pub fn check(data: &[u8]) {
    let Some((p, inputs)) = build(data) else { return };
    let text = case(&p, &inputs);
    if let Err(e) = check_program(&p) {
        panic!("the generator built an invalid program: {e}\n{text}");
    }
    assert_eq!(inputs.0.len(), (p.threads() * p.inputs) as usize, "input words\n{text}");
    let printed = module(std::slice::from_ref(&p));
    match parse_module(&printed) {
        Ok(back) => assert!(back == [p.clone()], "the module parses to another program\n{printed}"),
        Err(e) => panic!("the module does not parse: {e}\n{printed}"),
    }
    match parse_case(&text) {
        Ok(back) => assert!(back == (p.clone(), inputs.clone()), "the case parses to another case\n{text}"),
        Err(e) => panic!("the case does not parse: {e}\n{text}"),
    }
    let out = interp::run(&p, &inputs, &Allowances::all())
        .unwrap_or_else(|e| panic!("the program oracle rejects a generated program: {e}\n{text}"));
    assert_eq!(out.len(), p.threads() as usize, "outputs per thread\n{text}");
    assert!(out.iter().all(|o| o.width == 32 * p.outputs), "output widths\n{text}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    /// A few hundred byte strings of random lengths (empty included), some of them low-entropy
    /// (every byte masked to its low nibble), which steer the generator into its first choices.
    #[test]
    fn generate_smoke() {
        let mut rng = Rng::new(0x5851_F42D_4C95_7F2D);
        let mut built = 0;
        for i in 0..300 {
            let n = rng.below(3000);
            let mut data = rng.bytes(n);
            if i % 5 == 0 {
                data.iter_mut().for_each(|b| *b &= 0x0F);
            }
            built += usize::from(build(&data).is_some());
            check(&data);
        }
        assert!(built > 250, "only {built} programs built");
    }
}
