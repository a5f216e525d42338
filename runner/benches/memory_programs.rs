//! What the CPU side of a memory campaign costs per program, stage by stage: generating a
//! seeded program (`fuzz --async`'s default configuration, sm_90), building it, and running it
//! on the memory oracle (`memrun::oracle_read`, the bytes every GPU backend is compared with).
//! 64 programs per iteration; figures go to docs/PERFORMANCE.md.

use criterion::{criterion_group, criterion_main, Criterion};
use generator::async_programs::{generate_seeded, AsyncConfig};
use oracle::isa::Target;
use oracle::semantics::Allowances;

const PROGRAMS: u64 = 64;

fn bench(c: &mut Criterion) {
    let target = Target::parse("sm_90").unwrap();
    let cfg = AsyncConfig::default();
    let allow = Allowances::default();
    let seed = |k: u64| k * 7919 + 13;
    let mut g = c.benchmark_group("64 memory programs");
    g.sample_size(10);
    g.bench_function("generate", |b| {
        b.iter(|| (0..PROGRAMS).map(|k| generate_seeded(seed(k), &cfg, &target)).collect::<Vec<_>>())
    });
    let sources: Vec<_> = (0..PROGRAMS).map(|k| generate_seeded(seed(k), &cfg, &target)).collect();
    g.bench_function("build", |b| b.iter(|| sources.iter().filter(|s| s.build().is_ok()).count()));
    let programs: Vec<_> = sources.iter().filter_map(|s| s.build().ok()).collect();
    g.bench_function("oracle", |b| {
        b.iter(|| programs.iter().filter(|p| runner::memrun::oracle_read(p, &allow).is_ok()).count())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
