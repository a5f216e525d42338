//! Prints one seeded program as a case file (PTX plus its inputs), for people to read.
//!
//! `cargo run -p ptxdiff-generator --example program -- [SEED] [TARGET]`
//! (defaults: seed 1, `sm_90a@8.7`). The output assembles with `ptxas -arch=sm_90a` as is.

use generator::program::{check_program, generate_seeded, Config};
use oracle::isa::Target;

fn main() {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let target: Target = match args.next().unwrap_or_else(|| "sm_90a@8.7".into()).parse() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let (p, inputs) = generate_seeded(seed, &Config::default(), &target, &format!("seed_{seed}"));
    if let Err(e) = check_program(&p) {
        eprintln!("warning: the program fails its own check: {e}");
    }
    print!("{}", oracle::program::text::case(&p, &inputs));
}
