//! The GPU twins of the fast kernels: for a [`SweepSpec`] (from
//! [`super::cvt_fast::sweep_spec`]), a [`Program`] that computes the sweep's destination
//! word(s) from the 32 source bits with integer instructions only, so that a check kernel on
//! the GPU predicts every result of the sweep next to the form under test.
//!
//! Each family builder mirrors its Rust kernel ([`crate::num::fast`], [`crate::num::fast_int`])
//! step by step, with the const parameters folded at build time and every data-dependent choice
//! a `selp`. Invariant, checked by the tests for every form [`super::cvt_fast::select_sweep`]
//! covers on `sm_90a` and `sm_100a` under all and no allowances: [`Program::eval`] of [`program`]
//! equals [`SweepKernel::words`] — low word, then the high word of 64-bit destinations. The
//! Rust kernels are proven against the full semantics by [`super::cvt_fast`]'s tests, so the twins
//! are as trustworthy as they are.

use crate::num::fast::mode;
use crate::num::kernel_ir::{Bin, Cmp, Program, P, V};

use super::cvt_fast::{KernelSpec, Layout, SweepSpec, TF32_NAN_CODE};

#[cfg(doc)]
use super::cvt_fast::SweepKernel;

/// The program computing the destination word(s) of a sweep of `s`: one output for results
/// of up to 32 bits, two (low, high) for 64-bit ones.
pub fn program(s: &SweepSpec) -> Program {
    let mut p = Program::new();
    let x = p.input();
    let words = kernel(&mut p, &s.kernel, x);
    let words = match words {
        Words::Narrow(w) => vec![place(&mut p, s, w)],
        Words::Wide(lo, hi) => vec![lo, hi],
    };
    p.set_outputs(&words);
    p
}

/// A kernel's code in the program.
enum Words {
    /// Up to 32 bits.
    Narrow(V),
    /// 64 bits: low, high.
    Wide(V, V),
}

/// [`super::cvt_fast::SweepKernel::place`] of one code: `.relu`, then the layout.
fn place(p: &mut Program, s: &SweepSpec, w: V) -> V {
    let w = match s.relu_sign {
        Some(sign) => relu(p, w, sign),
        None => w,
    };
    match s.layout {
        Layout::Plain => w,
        Layout::Tf32 { nan_word } => {
            let nan = p.setp_k(Cmp::Eq, w, TF32_NAN_CODE);
            let shifted = p.bin_k(Bin::Shl, w, 13);
            let nan_word = p.c(nan_word);
            p.sel(nan, nan_word, shifted)
        }
        Layout::Pair8 => {
            // (w & 0xFF) × 0x0101, as a shift and an or.
            let b = p.bin_k(Bin::And, w, 0xFF);
            let up = p.bin_k(Bin::Shl, b, 8);
            p.bin(Bin::Or, b, up)
        }
        Layout::Pair16 => {
            let up = p.bin_k(Bin::Shl, w, 16);
            p.bin(Bin::Or, w, up)
        }
    }
}

/// The code of kernel `k` on `x`.
fn kernel(p: &mut Program, k: &KernelSpec, x: V) -> Words {
    match *k {
        KernelSpec::F32ToHalf { e, m, mode, satfinite, relu, ftz, sat } => {
            Words::Narrow(f32_to_half(p, x, e, m, mode, satfinite, relu, ftz, sat))
        }
        KernelSpec::F32ToFmt { e, m, sat, fn_, mode } => Words::Narrow(f32_to_fmt(p, x, e, m, sat, fn_, mode)),
        KernelSpec::F16x2ToFp8x2 { e, m, fn_, relu } => Words::Narrow(f16x2_to_fp8x2(p, x, e, m, fn_, relu)),
        KernelSpec::F32ToF32 { mode, integral, ftz, sat } => Words::Narrow(f32_to_f32(p, x, mode, integral, ftz, sat)),
        KernelSpec::F32ToF64 { ftz, sat } => {
            let (lo, hi) = f32_to_f64(p, x, ftz, sat);
            Words::Wide(lo, hi)
        }
        KernelSpec::F32ToInt { bits, signed, mode, ftz } => Words::Narrow(f32_to_int(p, x, bits, signed, mode, ftz)),
        KernelSpec::F32ToInt64 { signed, mode, ftz } => {
            let (lo, hi) = f32_to_int64(p, x, signed, mode, ftz);
            Words::Wide(lo, hi)
        }
        KernelSpec::IntToFloat { signed, e, m, mode, sat } => {
            Words::Narrow(int_to_float(p, x, signed, e, m, mode, sat))
        }
        KernelSpec::IntToF64 { signed, sat } => {
            let (lo, hi) = int_to_f64(p, x, signed, sat);
            Words::Wide(lo, hi)
        }
        KernelSpec::IntToInt { src_signed, bits, signed, sat } => {
            Words::Narrow(int_to_int(p, x, src_signed, bits, signed, sat))
        }
        KernelSpec::IntToInt64 { src_signed, signed, sat } => {
            let (lo, hi) = int_to_int64(p, x, src_signed, signed, sat);
            Words::Wide(lo, hi)
        }
    }
}

/// `w`, or +0 where it has bit `sign` (`.relu`).
fn relu(p: &mut Program, w: V, sign: u32) -> V {
    let s = p.bin_k(Bin::And, w, sign);
    let negative = p.setp_k(Cmp::Ne, s, 0);
    let zero = p.c(0);
    p.sel(negative, zero, w)
}

/// `a + 1` where `q`, else `a`.
fn add_if(p: &mut Program, a: V, q: P) -> V {
    let one = p.sel_k(q, 1, 0);
    p.bin(Bin::Add, a, one)
}

/// Twin of `fast::round_up`: whether to add one unit after truncating.
fn round_up(p: &mut Program, mode: u8, lsb: V, rem: V, half: V, neg: P) -> P {
    match mode {
        mode::RN => {
            let above = p.setp(Cmp::GtU, rem, half);
            let tie = p.setp(Cmp::Eq, rem, half);
            let odd = p.setp_k(Cmp::Eq, lsb, 1);
            let tie_odd = p.pand(tie, odd);
            p.por(above, tie_odd)
        }
        mode::RNA => p.setp(Cmp::GeU, rem, half),
        mode::RM | mode::RP => {
            let inexact = p.setp_k(Cmp::Ne, rem, 0);
            let dir = if mode == mode::RM { neg } else { p.pnot(neg) };
            p.pand(dir, inexact)
        }
        _ => p.known(false),
    }
}

/// Twin of the `to_inf` choice: whether overflow goes to ∞ under `mode` for sign `neg`.
fn to_inf(p: &mut Program, mode: u8, neg: P) -> P {
    match mode {
        mode::RZ => p.known(false),
        mode::RM => neg,
        mode::RP => p.pnot(neg),
        _ => p.known(true),
    }
}

/// `(1 << s) - 1` and `1 << (s - 1)` for a shift `s` ≥ 1 held in the program.
fn rem_and_half(p: &mut Program, s: V) -> (V, V) {
    let one = p.c(1);
    let unit = p.bin(Bin::Shl, one, s);
    let mask = p.bin_k(Bin::Sub, unit, 1);
    let s1 = p.bin_k(Bin::Sub, s, 1);
    let half = p.bin(Bin::Shl, one, s1);
    (mask, half)
}

/// `x >> 31 == 1`: the sign of 32 source bits.
fn sign_of(p: &mut Program, x: V) -> P {
    let s = p.bin_k(Bin::Shr, x, 31);
    p.setp_k(Cmp::Eq, s, 1)
}

/// Twin of `fast::flush_f32` (`.ftz` on an `.f32` source).
fn flush_f32(p: &mut Program, x: V) -> V {
    let e = p.bin_k(Bin::And, x, 0x7F80_0000);
    let sub = p.setp_k(Cmp::Eq, e, 0);
    let zero = p.bin_k(Bin::And, x, 0x8000_0000);
    p.sel(sub, zero, x)
}

/// Twin of `fast::sat_unit` for 32-bit codes: `r` limited to [+0, `one`], NaN (`nan`) → +0.
fn sat_unit(p: &mut Program, r: V, nan: Option<P>, sign: u32, one: u32) -> V {
    let s = p.bin_k(Bin::And, r, sign);
    let negative = p.setp_k(Cmp::Ne, s, 0);
    let zero_it = match nan {
        Some(n) => p.por(n, negative),
        None => negative,
    };
    let above = p.setp_k(Cmp::GtU, r, one);
    let one = p.c(one);
    let r = p.sel(above, one, r);
    let zero = p.c(0);
    p.sel(zero_it, zero, r)
}

/// Twin of `fast::sat_unit_f64` on (high, low) halves.
fn sat_unit_f64(p: &mut Program, hi: V, lo: V, nan: Option<P>) -> (V, V) {
    let negative = sign_of(p, hi);
    let zero_it = match nan {
        Some(n) => p.por(n, negative),
        None => negative,
    };
    let above = p.setp_k(Cmp::GtU, hi, 0x3FF0_0000);
    let at_one = p.setp_k(Cmp::Eq, hi, 0x3FF0_0000);
    let low_set = p.setp_k(Cmp::Ne, lo, 0);
    let past_one = p.pand(at_one, low_set);
    let over = p.por(above, past_one);
    let one_hi = p.c(0x3FF0_0000);
    let zero = p.c(0);
    let hi = p.sel(over, one_hi, hi);
    let lo = p.sel(over, zero, lo);
    let hi = p.sel(zero_it, zero, hi);
    let lo = p.sel(zero_it, zero, lo);
    (hi, lo)
}

/// Twin of `fast::f64_halves`: the f64 with sign bit `sign` (0 or `1 << 31`), biased exponent
/// `exp` and significand `norm` (leading one at bit 31), as (high, low).
fn f64_halves(p: &mut Program, sign: V, exp: V, norm: V) -> (V, V) {
    let f = p.bin_k(Bin::Shl, norm, 1);
    let e = p.bin_k(Bin::Shl, exp, 20);
    let top = p.bin_k(Bin::Shr, f, 12);
    let hi = p.bin(Bin::Or, sign, e);
    let hi = p.bin(Bin::Or, hi, top);
    let lo = p.bin_k(Bin::Shl, f, 20);
    (hi, lo)
}

/// Twin of `fast::f32_to_fmt::<e, m, sat, fn_, mode>`.
fn f32_to_fmt(p: &mut Program, x: V, e: u32, m: u32, sat: bool, fn_: bool, mode: u8) -> V {
    let bias: i32 = (1 << (e - 1)) - 1;
    let neg = sign_of(p, x);
    let sign_bit = p.bin_k(Bin::Shr, x, 31);
    let sign = p.bin_k(Bin::Shl, sign_bit, e + m);
    let a = p.bin_k(Bin::And, x, 0x7FFF_FFFF);
    let exp = p.bin_k(Bin::Shr, a, 23);
    let top: u32 = (1 << e) - 1;
    let inf_bits: u32 = top << m;
    let max_bits: u32 = if fn_ { (top << m) | ((1 << m) - 2) } else { ((top - 1) << m) | ((1 << m) - 1) };
    let nan_bits: u32 = (top << m) | ((1 << m) - 1);
    let s = 23 - m;
    // Normal in the destination: rebias and round the low `s` bits.
    let rebased = p.bin_k(Bin::Sub, a, ((127 - bias) as u32) << 23);
    let kept = p.bin_k(Bin::Shr, rebased, s);
    let lsb = p.bin_k(Bin::And, kept, 1);
    let rem = p.bin_k(Bin::And, rebased, (1 << s) - 1);
    let half = p.c(1 << (s - 1));
    let up = round_up(p, mode, lsb, rem, half, neg);
    let normal = add_if(p, kept, up);
    // Subnormal in the destination: shift the full significand further right.
    let emin = 1 - bias;
    let frac = p.bin_k(Bin::And, a, 0x7F_FFFF);
    let has_exp = p.setp_k(Cmp::Ne, exp, 0);
    let hidden = p.sel_k(has_exp, 1 << 23, 0);
    let m24 = p.bin(Bin::Or, frac, hidden);
    // (emin − max(exp, 1) + 127).clamp(0, 26), in signed arithmetic.
    let exp1 = p.bin_k(Bin::MaxS, exp, 1);
    let base = p.c((emin + 127) as u32);
    let extra = p.bin(Bin::Sub, base, exp1);
    let extra = p.bin_k(Bin::MaxS, extra, 0);
    let extra = p.bin_k(Bin::MinS, extra, 26);
    let s2 = p.bin_k(Bin::Add, extra, s);
    let s2 = p.bin_k(Bin::MinU, s2, 25);
    let q = p.bin(Bin::Shr, m24, s2);
    let (mask2, half2) = rem_and_half(p, s2);
    let rem2 = p.bin(Bin::And, m24, mask2);
    let lsb2 = p.bin_k(Bin::And, q, 1);
    let up2 = round_up(p, mode, lsb2, rem2, half2, neg);
    let sub = add_if(p, q, up2);
    // exp − 127 < emin, with exp ≥ 0.
    let is_sub = p.setp_k(Cmp::LtS, exp, (emin + 127) as u32);
    let r = p.sel(is_sub, sub, normal);
    let saturating = fn_ || sat;
    let over = if saturating { p.setp_k(Cmp::GtU, r, max_bits) } else { p.setp_k(Cmp::GeU, r, inf_bits) };
    let limit = if saturating {
        p.c(max_bits)
    } else {
        let inf = to_inf(p, mode, neg);
        p.sel_k(inf, inf_bits, max_bits)
    };
    let r = p.sel(over, limit, r);
    let is_inf = p.setp_k(Cmp::Eq, a, 0x7F80_0000);
    let inf_code = p.c(if saturating { max_bits } else { inf_bits });
    let r = p.sel(is_inf, inf_code, r);
    let nan = p.setp_k(Cmp::GtU, a, 0x7F80_0000);
    let nan_code = p.c(nan_bits);
    let r = p.sel(nan, nan_code, r);
    let zero = p.c(0);
    let sign = p.sel(nan, zero, sign);
    p.bin(Bin::Or, r, sign)
}

/// Twin of `fast::F32ToHalf`.
#[allow(clippy::too_many_arguments)]
fn f32_to_half(
    p: &mut Program,
    x: V,
    e: u32,
    m: u32,
    mode: u8,
    satfinite: bool,
    relu_: bool,
    ftz: bool,
    sat: bool,
) -> V {
    let x = if ftz { flush_f32(p, x) } else { x };
    let sign = 1u32 << (e + m);
    let r = f32_to_fmt(p, x, e, m, satfinite, false, mode);
    let r = if relu_ { relu(p, r, sign) } else { r };
    if sat {
        let one = ((1u32 << (e - 1)) - 1) << m;
        let a = p.bin_k(Bin::And, x, 0x7FFF_FFFF);
        let nan = p.setp_k(Cmp::GtU, a, 0x7F80_0000);
        sat_unit(p, r, Some(nan), sign, one)
    } else {
        r
    }
}

/// Twin of `fast::f16_to_f32_bits`.
fn f16_to_f32_bits(p: &mut Program, h: V) -> V {
    let s16 = p.bin_k(Bin::And, h, 0x8000);
    let sign = p.bin_k(Bin::Shl, s16, 16);
    let e = p.bin_k(Bin::Shr, h, 10);
    let e = p.bin_k(Bin::And, e, 0x1F);
    let m = p.bin_k(Bin::And, h, 0x3FF);
    let m13 = p.bin_k(Bin::Shl, m, 13);
    let e112 = p.bin_k(Bin::Add, e, 112);
    let e112 = p.bin_k(Bin::Shl, e112, 23);
    let normal = p.bin(Bin::Or, sign, e112);
    let normal = p.bin(Bin::Or, normal, m13);
    let special = p.bin_k(Bin::Or, sign, 0x7F80_0000);
    let special = p.bin(Bin::Or, special, m13);
    // A subnormal m × 2^-24: shift the leading one up to bit 10 (`saturating_sub(21)`).
    let m1 = p.bin_k(Bin::Or, m, 1);
    let lz = p.clz(m1);
    let has = p.setp_k(Cmp::GeU, lz, 21);
    let lz21 = p.bin_k(Bin::Sub, lz, 21);
    let zero = p.c(0);
    let shift = p.sel(has, lz21, zero);
    let k113 = p.c(113);
    let se = p.bin(Bin::Sub, k113, shift);
    let se = p.bin_k(Bin::Shl, se, 23);
    let ms = p.bin(Bin::Shl, m, shift);
    let ms = p.bin_k(Bin::And, ms, 0x3FF);
    let ms = p.bin_k(Bin::Shl, ms, 13);
    let sub = p.bin(Bin::Or, sign, se);
    let sub = p.bin(Bin::Or, sub, ms);
    let e_top = p.setp_k(Cmp::Eq, e, 0x1F);
    let r = p.sel(e_top, special, normal);
    let m_zero = p.setp_k(Cmp::Eq, m, 0);
    let tiny = p.sel(m_zero, sign, sub);
    let e_zero = p.setp_k(Cmp::Eq, e, 0);
    p.sel(e_zero, tiny, r)
}

/// Twin of `fast::F16x2ToFp8x2`.
fn f16x2_to_fp8x2(p: &mut Program, x: V, e: u32, m: u32, fn_: bool, relu_: bool) -> V {
    let lane = |p: &mut Program, h: V| {
        let f = f16_to_f32_bits(p, h);
        let r = f32_to_fmt(p, f, e, m, true, fn_, mode::RN);
        if relu_ {
            relu(p, r, 1 << (e + m))
        } else {
            r
        }
    };
    let high = p.bin_k(Bin::Shr, x, 16);
    let high = lane(p, high);
    let low = p.bin_k(Bin::And, x, 0xFFFF);
    let low = lane(p, low);
    let high = p.bin_k(Bin::Shl, high, 8);
    p.bin(Bin::Or, high, low)
}

/// Twin of `fast::round_integral`: `a` (magnitude bits, not NaN) rounded to an integral value.
fn round_integral(p: &mut Program, a: V, neg: P, mode: u8) -> V {
    let e = p.bin_k(Bin::Shr, a, 23);
    let frac = p.bin_k(Bin::And, a, 0x7F_FFFF);
    let has_exp = p.setp_k(Cmp::Ne, e, 0);
    let hidden = p.sel_k(has_exp, 1 << 23, 0);
    let m24 = p.bin(Bin::Or, frac, hidden);
    let (q, s) = {
        let e149 = p.bin_k(Bin::MinU, e, 149);
        let k150 = p.c(150);
        let s = p.bin(Bin::Sub, k150, e149);
        let s = p.bin_k(Bin::MinU, s, 25);
        (p.bin(Bin::Shr, m24, s), s)
    };
    let (mask, half) = rem_and_half(p, s);
    let rem = p.bin(Bin::And, m24, mask);
    let lsb = p.bin_k(Bin::And, q, 1);
    let up = round_up(p, mode, lsb, rem, half, neg);
    let r = add_if(p, q, up);
    let e1 = p.bin_k(Bin::Sub, e, 1);
    let e1 = p.bin_k(Bin::Shl, e1, 23);
    let rs = p.bin(Bin::Shl, r, s);
    let big = p.bin(Bin::Add, e1, rs);
    let r_zero = p.setp_k(Cmp::Eq, r, 0);
    let small = p.sel_k(r_zero, 0, 0x3F80_0000);
    let ge127 = p.setp_k(Cmp::GeU, e, 127);
    let out = p.sel(ge127, big, small);
    let ge150 = p.setp_k(Cmp::GeU, e, 150);
    p.sel(ge150, a, out)
}

/// Twin of `fast::F32ToF32`.
fn f32_to_f32(p: &mut Program, x: V, mode: u8, integral: bool, ftz: bool, sat: bool) -> V {
    let x = if ftz { flush_f32(p, x) } else { x };
    let sign = p.bin_k(Bin::And, x, 0x8000_0000);
    let a = p.bin_k(Bin::And, x, 0x7FFF_FFFF);
    let nan = p.setp_k(Cmp::GtU, a, 0x7F80_0000);
    let r = if integral {
        let neg = p.setp_k(Cmp::Ne, sign, 0);
        let r = round_integral(p, a, neg, mode);
        p.bin(Bin::Or, sign, r)
    } else {
        x
    };
    let canon = p.c(0x7FFF_FFFF);
    let r = p.sel(nan, canon, r);
    if sat {
        sat_unit(p, r, Some(nan), 0x8000_0000, 0x3F80_0000)
    } else {
        r
    }
}

/// Twin of `fast::F32ToF64`: (low, high).
fn f32_to_f64(p: &mut Program, x: V, ftz: bool, sat: bool) -> (V, V) {
    let x = if ftz { flush_f32(p, x) } else { x };
    let sign = p.bin_k(Bin::And, x, 0x8000_0000);
    let a = p.bin_k(Bin::And, x, 0x7FFF_FFFF);
    let e = p.bin_k(Bin::Shr, a, 23);
    let mant = p.bin_k(Bin::And, a, 0x7F_FFFF);
    let m1 = p.bin_k(Bin::Or, mant, 1);
    let lz = p.clz(m1);
    let normal = p.setp_k(Cmp::Ne, e, 0);
    let exp_n = p.bin_k(Bin::Add, e, 896);
    let k905 = p.c(905);
    let exp_s = p.bin(Bin::Sub, k905, lz);
    let exp = p.sel(normal, exp_n, exp_s);
    let a8 = p.bin_k(Bin::Shl, a, 8);
    let norm_n = p.bin_k(Bin::Or, a8, 0x8000_0000);
    let norm_s = p.bin(Bin::Shl, mant, lz);
    let norm = p.sel(normal, norm_n, norm_s);
    let top = p.setp_k(Cmp::Eq, e, 255);
    let k2047 = p.c(2047);
    let exp = p.sel(top, k2047, exp);
    let (hi, lo) = f64_halves(p, sign, exp, norm);
    let zero_in = p.setp_k(Cmp::Eq, a, 0);
    let zero = p.c(0);
    let hi = p.sel(zero_in, sign, hi);
    let lo = p.sel(zero_in, zero, lo);
    let nan = p.setp_k(Cmp::GtU, a, 0x7F80_0000);
    let nan_hi = p.c(0x7FFF_FFFF);
    let nan_lo = p.c(0xFFFF_FFFF);
    let hi = p.sel(nan, nan_hi, hi);
    let lo = p.sel(nan, nan_lo, lo);
    let (hi, lo) = if sat { sat_unit_f64(p, hi, lo, Some(nan)) } else { (hi, lo) };
    (lo, hi)
}

/// Twin of `fast_int::parts`: sign, biased exponent, 24-bit significand.
fn parts(p: &mut Program, x: V, ftz: bool) -> (P, V, V) {
    let x = if ftz { flush_f32(p, x) } else { x };
    let e = p.bin_k(Bin::Shr, x, 23);
    let e = p.bin_k(Bin::And, e, 0xFF);
    let neg = sign_of(p, x);
    let frac = p.bin_k(Bin::And, x, 0x7F_FFFF);
    let has_exp = p.setp_k(Cmp::Ne, e, 0);
    let hidden = p.sel_k(has_exp, 1 << 23, 0);
    (neg, e, p.bin(Bin::Or, frac, hidden))
}

/// Twin of `fast_int::fraction_rounded`: the magnitude of an f32 below 2^23, rounded.
fn fraction_rounded(p: &mut Program, neg: P, e: V, m24: V, mode: u8) -> V {
    let e149 = p.bin_k(Bin::MinU, e, 149);
    let k150 = p.c(150);
    let s = p.bin(Bin::Sub, k150, e149);
    let s = p.bin_k(Bin::MinU, s, 25);
    let q = p.bin(Bin::Shr, m24, s);
    let (mask, half) = rem_and_half(p, s);
    let rem = p.bin(Bin::And, m24, mask);
    let lsb = p.bin_k(Bin::And, q, 1);
    let up = round_up(p, mode, lsb, rem, half, neg);
    add_if(p, q, up)
}

/// `e.saturating_sub(k)`.
fn saturating_sub(p: &mut Program, e: V, k: u32) -> V {
    let e = p.bin_k(Bin::MaxU, e, k);
    p.bin_k(Bin::Sub, e, k)
}

/// Whether the f32 parts are a NaN: `e == 255 && m24 != 1 << 23`.
fn is_nan(p: &mut Program, e: V, m24: V) -> P {
    let top = p.setp_k(Cmp::Eq, e, 255);
    let payload = p.setp_k(Cmp::Ne, m24, 1 << 23);
    p.pand(top, payload)
}

/// Twin of `fast_int::F32ToInt`.
fn f32_to_int(p: &mut Program, x: V, bits: u32, signed: bool, mode: u8, ftz: bool) -> V {
    let (hi, lo) = if signed { ((1u32 << (bits - 1)) - 1, 1u32 << (bits - 1)) } else { (u32::MAX >> (32 - bits), 0) };
    let (neg, e, m24) = parts(p, x, ftz);
    let left = saturating_sub(p, e, 150);
    let left = p.bin_k(Bin::MinU, left, 8);
    let whole = p.bin(Bin::Shl, m24, left);
    let exact = p.setp_k(Cmp::GeU, e, 150);
    let frac = fraction_rounded(p, neg, e, m24, mode);
    let mag = p.sel(exact, whole, frac);
    let huge = p.setp_k(Cmp::GeU, e, 159);
    let lo_k = p.c(lo);
    let hi_k = p.c(hi);
    let nmag = p.bin(Bin::MinU, mag, lo_k);
    let nmag = p.sel(huge, lo_k, nmag);
    let zero = p.c(0);
    let nv = p.bin(Bin::Sub, zero, nmag);
    let pmag = p.bin(Bin::MinU, mag, hi_k);
    let pv = p.sel(huge, hi_k, pmag);
    let v = p.sel(neg, nv, pv);
    let v = p.bin_k(Bin::And, v, u32::MAX >> (32 - bits));
    let nan = is_nan(p, e, m24);
    p.sel(nan, zero, v)
}

/// Twin of `fast_int::F32ToInt64`: (low, high).
fn f32_to_int64(p: &mut Program, x: V, signed: bool, mode: u8, ftz: bool) -> (V, V) {
    let (neg, e, m24) = parts(p, x, ftz);
    let left = saturating_sub(p, e, 150);
    let left = p.bin_k(Bin::MinU, left, 40);
    let zero = p.c(0);
    // lo = left < 32 ? m24 << (left & 31) : 0
    let l31 = p.bin_k(Bin::And, left, 31);
    let lo_sh = p.bin(Bin::Shl, m24, l31);
    let lt32 = p.setp_k(Cmp::LtU, left, 32);
    let lo = p.sel(lt32, lo_sh, zero);
    // hi = left == 0 ? 0 : left <= 32 ? m24 >> ((32 − left) & 31) : m24 << ((left − 32) & 31)
    let k32 = p.c(32);
    let r = p.bin(Bin::Sub, k32, left);
    let r = p.bin_k(Bin::And, r, 31);
    let down = p.bin(Bin::Shr, m24, r);
    let l = p.bin_k(Bin::Sub, left, 32);
    let l = p.bin_k(Bin::And, l, 31);
    let up = p.bin(Bin::Shl, m24, l);
    let le32 = p.setp_k(Cmp::LeU, left, 32);
    let hi = p.sel(le32, down, up);
    let l0 = p.setp_k(Cmp::Eq, left, 0);
    let hi = p.sel(l0, zero, hi);
    let exact = p.setp_k(Cmp::GeU, e, 150);
    let frac = fraction_rounded(p, neg, e, m24, mode);
    let hi = p.sel(exact, hi, zero);
    let lo = p.sel(exact, lo, frac);
    let huge = p.setp_k(Cmp::GeU, e, 191);
    let max = p.c(u32::MAX);
    // Positive: clamped at the destination's maximum.
    let (phi, plo) = {
        let clamp = if signed {
            let top = sign_of(p, hi);
            p.por(huge, top)
        } else {
            huge
        };
        let max_hi = p.c(if signed { 0x7FFF_FFFF } else { u32::MAX });
        (p.sel(clamp, max_hi, hi), p.sel(clamp, max, lo))
    };
    // Negative: at least i64::MIN (0 unsigned), then the two's complement of the halves.
    let (nhi, nlo) = if signed {
        let above = p.setp_k(Cmp::GtU, hi, 0x8000_0000);
        let at = p.setp_k(Cmp::Eq, hi, 0x8000_0000);
        let lo_set = p.setp_k(Cmp::Ne, lo, 0);
        let past = p.pand(at, lo_set);
        let clamp = p.por(huge, above);
        let clamp = p.por(clamp, past);
        let not_hi = p.not(hi);
        let lo_zero = p.setp_k(Cmp::Eq, lo, 0);
        let neg_hi = add_if(p, not_hi, lo_zero);
        let neg_lo = p.bin(Bin::Sub, zero, lo);
        let min_hi = p.c(0x8000_0000);
        (p.sel(clamp, min_hi, neg_hi), p.sel(clamp, zero, neg_lo))
    } else {
        (zero, zero)
    };
    let hi = p.sel(neg, nhi, phi);
    let lo = p.sel(neg, nlo, plo);
    let nan = is_nan(p, e, m24);
    let nan_hi = p.c(0x8000_0000);
    let hi = p.sel(nan, nan_hi, hi);
    let lo = p.sel(nan, zero, lo);
    (lo, hi)
}

/// Twin of `fast_int::int_parts`: the sign and magnitude of a 32-bit integer source.
fn int_parts(p: &mut Program, x: V, signed: bool) -> (P, V) {
    if signed {
        let neg = sign_of(p, x);
        let zero = p.c(0);
        let minus = p.bin(Bin::Sub, zero, x);
        (neg, p.sel(neg, minus, x))
    } else {
        (p.known(false), x)
    }
}

/// Twin of `fast_int::IntToFloat`.
fn int_to_float(p: &mut Program, x: V, signed: bool, e: u32, m: u32, mode: u8, sat: bool) -> V {
    let bias = (1u32 << (e - 1)) - 1;
    let sign = 1u32 << (e + m);
    let inf = ((1u32 << e) - 1) << m;
    let (neg, mag) = int_parts(p, x, signed);
    let lz = p.clz(mag);
    let lz31 = p.bin_k(Bin::And, lz, 31);
    let norm = p.bin(Bin::Shl, mag, lz31);
    let sh = 31 - m;
    let kept = p.bin_k(Bin::Shr, norm, sh);
    let lsb = p.bin_k(Bin::And, kept, 1);
    let rem = p.bin_k(Bin::And, norm, (1 << sh) - 1);
    let half = p.c(1 << (sh - 1));
    let up = round_up(p, mode, lsb, rem, half, neg);
    let kept = add_if(p, kept, up);
    // ((31 − lz + bias − 1) << m) + kept, wrapping.
    let k = p.c(31);
    let ex = p.bin(Bin::Sub, k, lz);
    let ex = p.bin_k(Bin::Add, ex, bias);
    let ex = p.bin_k(Bin::Sub, ex, 1);
    let ex = p.bin_k(Bin::Shl, ex, m);
    let r = p.bin(Bin::Add, ex, kept);
    let over = p.setp_k(Cmp::GeU, r, inf);
    let dir = to_inf(p, mode, neg);
    let limit = p.sel_k(dir, inf, inf - 1);
    let r = p.sel(over, limit, r);
    let sign_v = p.sel_k(neg, sign, 0);
    let r = p.bin(Bin::Or, r, sign_v);
    let zero_in = p.setp_k(Cmp::Eq, mag, 0);
    let zero = p.c(0);
    let r = p.sel(zero_in, zero, r);
    if sat {
        sat_unit(p, r, None, sign, bias << m)
    } else {
        r
    }
}

/// Twin of `fast_int::IntToF64`: (low, high).
fn int_to_f64(p: &mut Program, x: V, signed: bool, sat: bool) -> (V, V) {
    let (neg, mag) = int_parts(p, x, signed);
    let lz = p.clz(mag);
    let k = p.c(1054);
    let exp = p.bin(Bin::Sub, k, lz);
    let lz31 = p.bin_k(Bin::And, lz, 31);
    let norm = p.bin(Bin::Shl, mag, lz31);
    let sign = p.sel_k(neg, 0x8000_0000, 0);
    let (hi, lo) = f64_halves(p, sign, exp, norm);
    let zero_in = p.setp_k(Cmp::Eq, mag, 0);
    let zero = p.c(0);
    let hi = p.sel(zero_in, zero, hi);
    let lo = p.sel(zero_in, zero, lo);
    let (hi, lo) = if sat { sat_unit_f64(p, hi, lo, None) } else { (hi, lo) };
    (lo, hi)
}

/// Twin of `fast_int::IntToInt`: the source, clamped to the destination's range under `sat`
/// (in the 64-bit value domain of the Rust kernel), truncated to `bits` bits.
fn int_to_int(p: &mut Program, x: V, src_signed: bool, bits: u32, signed: bool, sat: bool) -> V {
    let v = if !sat {
        x
    } else if src_signed && signed {
        // Both bounds fit an i32.
        let v = p.bin_k(Bin::MaxS, x, (1u32 << (bits - 1)).wrapping_neg());
        p.bin_k(Bin::MinS, v, (1u32 << (bits - 1)) - 1)
    } else {
        // An unsigned source is never below a lower bound; a signed one below 0 clamps to 0
        // (an unsigned destination); then the upper bound, as unsigned.
        let v = if src_signed { p.bin_k(Bin::MaxS, x, 0) } else { x };
        let hi = if signed { (1u32 << (bits - 1)) - 1 } else { u32::MAX >> (32 - bits) };
        p.bin_k(Bin::MinU, v, hi)
    };
    p.bin_k(Bin::And, v, u32::MAX >> (32 - bits))
}

/// Twin of `fast_int::IntToInt64`: (low, high).
fn int_to_int64(p: &mut Program, x: V, src_signed: bool, signed: bool, sat: bool) -> (V, V) {
    let zero = p.c(0);
    if !src_signed {
        // Zero-extension: within every 64-bit range.
        return (x, zero);
    }
    if sat && !signed {
        // A negative source clamps to 0.
        let lo = p.bin_k(Bin::MaxS, x, 0);
        return (lo, zero);
    }
    // Sign extension.
    let neg = sign_of(p, x);
    let hi = p.sel_k(neg, u32::MAX, 0);
    (x, hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Family, Form, Target};
    use crate::num::fast::{stratified, Portable};
    use crate::num::kernel_ir::Program;
    use crate::semantics::cvt_fast::{select_sweep, sweep_spec};
    use crate::semantics::Allowances;

    /// Every legal cvt form on `target` that `sweep_spec` covers under `allow`.
    fn covered(target: &Target, allow: &Allowances) -> Vec<(crate::isa::Cvt, SweepSpec)> {
        crate::isa::valid_forms(target, Some(Family::Cvt))
            .into_iter()
            .filter_map(|(f, _)| match f {
                Form::Cvt(c) => sweep_spec(&c, allow).map(|s| (c, s)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn the_twins_equal_the_rust_kernels_on_stratified_inputs() {
        let inputs: Vec<u32> = stratified(1 << 12).collect();
        for t in ["sm_90a@8.7", "sm_100a"] {
            let target: Target = t.parse().expect("a target");
            for allow in [Allowances::all(), Allowances::none()] {
                let forms = covered(&target, &allow);
                assert!(forms.len() > 100, "{t}: only {} forms", forms.len());
                for (c, s) in forms {
                    let name = Form::Cvt(c).opcode();
                    let k = select_sweep(&c, &Portable, &allow).expect("a spec instantiates");
                    let prog = program(&s);
                    let wide = s.kernel.is_wide();
                    assert_eq!(prog.outputs().len(), if wide { 2 } else { 1 }, "{name}");
                    for (&x, &w) in inputs.iter().zip(&k.words(&inputs)) {
                        let got = prog.eval(x);
                        let got = got.iter().rev().fold(0u64, |acc, &h| acc << 32 | u64::from(h));
                        assert_eq!(got, w, "{t} {name} on {x:#010x}: twin {got:#x}, kernel {w:#x}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_printed_twins_compute_what_the_evaluator_computes() {
        let inputs: Vec<u32> = stratified(1 << 6).step_by(97).collect();
        let target: Target = "sm_90a@8.7".parse().expect("a target");
        // One form per kernel spec family and layout is enough for the printer.
        let mut seen = std::collections::HashSet::new();
        for (c, s) in covered(&target, &Allowances::none()) {
            let key = (std::mem::discriminant(&s.kernel), std::mem::discriminant(&s.layout), s.relu_sign.is_some());
            if !seen.insert(key) {
                continue;
            }
            let prog = program(&s);
            let text = prog.ptx("", "%in");
            for &x in &inputs {
                let regs = crate::num::kernel_ir::tests::run_text(&text, x);
                let printed: Vec<u32> = prog.outputs().iter().map(|&o| regs[&Program::reg("", o)]).collect();
                assert_eq!(printed, prog.eval(x), "{} on {x:#x}", Form::Cvt(c).opcode());
            }
        }
        assert!(seen.len() >= 11, "{} families", seen.len());
    }
}
