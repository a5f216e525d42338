//! Prints a module of N seeded programs (for timing ptxas by hand):
//! `cargo run --release -p ptxdiff-generator --example module -- 256 sm_90 > m.ptx`.
use generator::program::{generate_seeded, Config};
fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(256);
    let target = args.next().unwrap_or_else(|| "sm_90".into()).parse().expect("a target such as sm_90");
    let ps: Vec<_> = (0..n).map(|k| generate_seeded(k, &Config::default(), &target, &format!("p{k}")).0).collect();
    print!("{}", oracle::program::text::module(&ps));
}
