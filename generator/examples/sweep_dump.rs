fn main() {
    let t: oracle::isa::Target = "sm_90".parse().unwrap();
    let fams = [oracle::isa::Family::Cvt, oracle::isa::Family::CvtPack, oracle::isa::Family::Prmt];
    let dir = std::path::Path::new("/tmp/sweeps");
    std::fs::create_dir_all(dir).unwrap();
    let mut n = 0;
    for f in fams {
        for (form, _) in oracle::isa::valid_forms(&t, Some(f)) {
            let k = generator::sweep::sweep_kernel(&form, &t).unwrap();
            std::fs::write(dir.join(format!("k{n}.ptx")), k.ptx).unwrap();
            n += 1;
        }
    }
    println!("{n}");
}
