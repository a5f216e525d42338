//! Prints the number of candidate forms (legal or not) and legal forms per family.
fn main() {
    for f in oracle::isa::Family::ALL {
        let c = f.candidates();
        let legal = c.iter().filter(|x| x.check().is_ok()).count();
        println!("{}\t{}\t{}", f.name(), c.len(), legal);
    }
}
