//! Single-core throughput of the conversions the conformance sweeps check, as the runner runs
//! them (AVX2 where the CPU has it). Figures go to docs/PERFORMANCE.md.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use runner::avx2_kernels;

const N: usize = 1 << 20;

fn bench(c: &mut Criterion) {
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let input: Vec<u32> = (0..N)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as u32
        })
        .collect();
    let (mut o16, mut o8, mut o32) = (vec![0u16; N], vec![0u8; N], vec![0u32; N]);
    let mut g = c.benchmark_group("cvt from f32, one core");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("f16 rn", |b| b.iter(|| avx2_kernels::f32_to_f16_rn(black_box(&input), &mut o16)));
    g.bench_function("bf16 rn", |b| b.iter(|| avx2_kernels::f32_to_bf16_rn(black_box(&input), &mut o16)));
    g.bench_function("tf32 rna", |b| b.iter(|| avx2_kernels::f32_to_tf32_rna(black_box(&input), &mut o32)));
    g.bench_function("e4m3 rn satfinite", |b| {
        b.iter(|| avx2_kernels::f32_to_e4m3_rn_satfinite(black_box(&input), &mut o8))
    });
    g.bench_function("e5m2 rn satfinite", |b| {
        b.iter(|| avx2_kernels::f32_to_e5m2_rn_satfinite(black_box(&input), &mut o8))
    });
    g.finish();

    // One kernel of each family `oracle::semantics::cvt_fast` selects, as sweeps run them.
    use oracle::num::fast::{mode, F32ToF32, F32ToF64, F32ToHalf};
    use oracle::num::fast_int::{F32ToInt, F32ToInt64, IntToF64, IntToFloat, IntToInt, IntToInt64};
    let mut hi = vec![0u32; N];
    let mut g = c.benchmark_group("cvt kernels, one core");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("cvt.rm.ftz.sat.f16.f32", |b| {
        b.iter(|| {
            avx2_kernels::run::<F32ToHalf<5, 10, { mode::RM }, false, false, true, true>>(black_box(&input), &mut o32)
        })
    });
    g.bench_function("cvt.rni.ftz.f32.f32", |b| {
        b.iter(|| avx2_kernels::run::<F32ToF32<{ mode::RN }, true, true, false>>(black_box(&input), &mut o32))
    });
    g.bench_function("cvt.sat.f64.f32", |b| {
        b.iter(|| avx2_kernels::run_wide::<F32ToF64<false, true>>(black_box(&input), &mut o32, &mut hi))
    });
    g.bench_function("cvt.rni.s32.f32", |b| {
        b.iter(|| avx2_kernels::run::<F32ToInt<32, true, { mode::RN }, false>>(black_box(&input), &mut o32))
    });
    g.bench_function("cvt.rmi.ftz.u8.f32", |b| {
        b.iter(|| avx2_kernels::run::<F32ToInt<8, false, { mode::RM }, true>>(black_box(&input), &mut o32))
    });
    g.bench_function("cvt.rzi.s64.f32", |b| {
        b.iter(|| avx2_kernels::run_wide::<F32ToInt64<true, { mode::RZ }, false>>(black_box(&input), &mut o32, &mut hi))
    });
    g.bench_function("cvt.rn.f32.s32", |b| {
        b.iter(|| avx2_kernels::run::<IntToFloat<true, 8, 23, { mode::RN }, false>>(black_box(&input), &mut o32))
    });
    g.bench_function("cvt.rp.sat.f16.u32", |b| {
        b.iter(|| avx2_kernels::run::<IntToFloat<false, 5, 10, { mode::RP }, true>>(black_box(&input), &mut o32))
    });
    g.bench_function("cvt.rn.f64.s32", |b| {
        b.iter(|| avx2_kernels::run_wide::<IntToF64<true, false>>(black_box(&input), &mut o32, &mut hi))
    });
    g.bench_function("cvt.sat.s16.u32", |b| {
        b.iter(|| avx2_kernels::run::<IntToInt<false, 16, true, true>>(black_box(&input), &mut o32))
    });
    g.bench_function("cvt.sat.u64.s32", |b| {
        b.iter(|| avx2_kernels::run_wide::<IntToInt64<true, false, true>>(black_box(&input), &mut o32, &mut hi))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
