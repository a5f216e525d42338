fn main() {
    let target: oracle::isa::Target = "sm_90".parse().unwrap();
    let cfg = generator::async_programs::AsyncConfig::default();
    let ps: Vec<oracle::memprog::MemProgram> = (0..256u64)
        .map(|k| generator::async_programs::generate_seeded(runner::fuzz::program_seed(7, 0, k), &cfg, &target))
        .map(|s| s.build().unwrap())
        .filter(|p| p.target.name() == "sm_90")
        .collect();
    let refs: Vec<&oracle::memprog::MemProgram> = ps.iter().collect();
    let m = oracle::memprog::ptx::module(&refs).unwrap();
    std::fs::write("/tmp/m.ptx", &m.ptx).unwrap();
    eprintln!("{} programs, {} bytes, {} lines", refs.len(), m.ptx.len(), m.ptx.lines().count());
}
