use oracle::program::interp::{run, run_emulating};
use oracle::program::text::parse_case;
use oracle::semantics::{Allowances, Deviation};
fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        let (p, i) = parse_case(&text).unwrap();
        let spec = run(&p, &i, &Allowances::all()).unwrap();
        let (emu, fired) = run_emulating(&p, &i, &Allowances::all().emulating_all(Deviation::ALL)).unwrap();
        println!("{path}: fired {:?}", fired);
        for (k, (s, e)) in spec.iter().zip(emu.iter()).enumerate().take(16) {
            if format!("{s:?}") != format!("{e:?}") || k < 4 { println!("  out[{k}] spec {s:?}\n          emu  {e:?}"); }
        }
    }
}
