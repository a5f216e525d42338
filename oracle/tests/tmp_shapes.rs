#[test]
fn print_shapes() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/findings/fuzz-h200");
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "case"))
        .collect();
    names.sort();
    for n in names {
        let (p, _) = oracle::program::text::parse_case(&std::fs::read_to_string(&n).unwrap()).unwrap();
        for w in 0..p.outputs {
            println!("{} w{}: {}", n.file_name().unwrap().to_string_lossy(), w, oracle::program::slice::shape(&p, w));
        }
    }
}
