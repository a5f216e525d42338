#[test]
fn scan() {
    let dir = std::path::Path::new("/work/notes/campaign32/f/bundles");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path().join("sass-O3.txt");
        let Ok(t) = std::fs::read_to_string(&p) else { continue };
        let t: String = t.lines().map(|l| l.split("    <<").next().unwrap()).collect::<Vec<_>>().join("\n");
        n += 1;
        match runner::sass::check_listing(&t) {
            Ok(f) => {
                for u in f {
                    println!("{}: {}", p.display(), u)
                }
            }
            Err(e) => println!("{}: ERR {e}", p.display()),
        }
    }
    println!("{n} listings");
}
