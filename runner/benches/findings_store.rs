//! What a campaign batch's known hits cost the finding store: 256 hits of one known entry over
//! 64 distinct signatures (the most a known entry keeps), each re-writing `findings.json` at
//! once, or counted and written by one `flush` (`FindingStore::defer_counts`, what campaigns
//! do). On the disk of the machine that runs it; figures go to docs/PERFORMANCE.md.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use runner::findings::store::{FindingStore, RunMeta};
use runner::findings::{Finding, FindingClass, KnownSet, Signature};

const HITS: usize = 256;

/// A finding the known entry `cvt-rna-tf32-nan` covers, with shape `k` of 64.
fn hit(k: usize) -> Finding {
    let mut sig =
        Signature::new(FindingClass::HardwareSpec, "cvt.rna.tf32.f32", "nan", ["cuda:ptxas-O3"], "nan-becomes-inf");
    sig.shape = format!("ld.global.u32 → mov.b32 → cvt.rna.tf32.f32 → st.global.b32 #{}", k % 64);
    Finding::new(sig, "")
}

fn bench(c: &mut Criterion) {
    let known = KnownSet::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/known")).unwrap();
    let mut g = c.benchmark_group("a batch's 256 known hits");
    g.sample_size(10);
    for deferred in [false, true] {
        let name = if deferred { "counted, one flush" } else { "each written at once" };
        g.bench_function(name, |b| {
            b.iter_batched(
                || {
                    let dir = tempfile::tempdir().unwrap();
                    let store =
                        FindingStore::create(&dir.path().join("run"), RunMeta::default(), known.clone()).unwrap();
                    (dir, store)
                },
                |(dir, mut store)| {
                    if deferred {
                        store.defer_counts();
                    }
                    for k in 0..HITS {
                        store.record(hit(k), "").unwrap();
                    }
                    store.flush().unwrap();
                    (dir, store)
                },
                BatchSize::PerIteration,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
