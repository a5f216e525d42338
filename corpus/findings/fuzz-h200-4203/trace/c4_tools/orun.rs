use oracle::program::interp::{run, run_emulating};
use oracle::program::text::parse_case;
use oracle::semantics::{Allowances, Deviation};
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let threads: Vec<usize> = std::env::args().skip(2).map(|s| s.parse().unwrap()).collect();
    let (p, i) = parse_case(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (em, fired) = run_emulating(&p, &i, &Allowances::all().emulating_all(Deviation::ALL)).unwrap();
    println!("fired: {:?}", fired);
    for (t, (s, e)) in spec.iter().zip(em.iter()).enumerate() {
        if !threads.is_empty() && !threads.contains(&t) { continue; }
        println!("t{t}: spec {:#034x} exact={} | emulated {:#034x} exact={}", s.bits, s.is_exact(), e.bits, e.is_exact());
    }
}
