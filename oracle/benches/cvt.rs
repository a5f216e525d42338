//! Throughput of the cvt oracle: the fast kernels (single conversions over a slice), the
//! general engine, and the full semantics (`semantics::cvt::eval`) for comparison.
//! Results are recorded in docs/PERFORMANCE.md.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use oracle::isa::{Cvt, CvtRnd, CvtType};
use oracle::num::fast;
use oracle::num::{decode, encode, Overflow, Rounding, F16, F32};
use oracle::semantics::cvt::{eval, CvtInputs};
use oracle::semantics::Allowances;

const N: usize = 1 << 20;

fn inputs() -> Vec<u32> {
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    (0..N)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as u32
        })
        .collect()
}

fn kernels(c: &mut Criterion) {
    let input = inputs();
    let mut g = c.benchmark_group("f32 conversions (fast kernels)");
    g.throughput(Throughput::Elements(N as u64));
    let mut out16 = vec![0u16; N];
    let mut out8 = vec![0u8; N];
    let mut out32 = vec![0u32; N];
    g.bench_function("f32->f16 rn", |b| b.iter(|| fast::f32_to_f16_rn_slice(black_box(&input), &mut out16)));
    g.bench_function("f32->bf16 rn", |b| b.iter(|| fast::f32_to_bf16_rn_slice(black_box(&input), &mut out16)));
    g.bench_function("f32->tf32 rna", |b| b.iter(|| fast::f32_to_tf32_rna_slice(black_box(&input), &mut out32)));
    g.bench_function("f32->e4m3 rn satfinite", |b| {
        b.iter(|| fast::f32_to_e4m3_rn_satfinite_slice(black_box(&input), &mut out8))
    });
    g.bench_function("f32->e5m2 rn satfinite", |b| {
        b.iter(|| fast::f32_to_e5m2_rn_satfinite_slice(black_box(&input), &mut out8))
    });
    g.finish();

    let mut g = c.benchmark_group("f32 conversions (general engine and semantics)");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("engine f32->f16 rn", |b| {
        b.iter(|| {
            for (o, &x) in out16.iter_mut().zip(black_box(&input)) {
                *o = encode(&F16, decode(&F32, u64::from(x)), Rounding::NearestEven, Overflow::Ieee).bits as u16;
            }
        })
    });
    let cvt = Cvt {
        rnd: Some(CvtRnd::Rn),
        ftz: false,
        sat: false,
        relu: false,
        satfinite: false,
        dtype: CvtType::F16,
        atype: CvtType::F32,
    };
    let allow = Allowances::all();
    g.bench_function("semantics cvt.rn.f16.f32", |b| {
        b.iter(|| {
            for (o, &x) in out16.iter_mut().zip(black_box(&input)) {
                *o = eval(&cvt, &CvtInputs { a: u64::from(x), ..Default::default() }, &allow).bits as u16;
            }
        })
    });
    g.finish();
}

criterion_group!(benches, kernels);
criterion_main!(benches);
