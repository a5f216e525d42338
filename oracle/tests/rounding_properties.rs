//! Properties of the rounding engine that hold for every format and mode: monotonicity,
//! `.rz` never increases magnitude, `.rm ≤ .rn ≤ .rp` (and `.rm ≤ x ≤ .rp`), exact
//! round-trips of every code, and `.rs` bracketed by truncation and rounding away.

use std::cmp::Ordering;

use oracle::num::{
    decode, encode, Format, Overflow, Rounding, Value, BF16, E2M1, E2M3, E3M2, E4M3, E5M2, F16, F32, F64, TF32,
};
use proptest::prelude::*;

/// Exact order of two non-NaN values (−0 = +0).
fn cmp_exact(a: Value, b: Value) -> Ordering {
    fn key(v: Value) -> (i8, bool, i32, u128) {
        match v {
            Value::Zero { .. } => (0, false, 0, 0),
            Value::Inf { neg } => (if neg { -1 } else { 1 }, neg, i32::MAX, 0),
            Value::Finite { neg, sig, exp } => {
                let lz = sig.leading_zeros();
                // Normalize the significand to bit 63 so equal leads compare by significand.
                (if neg { -1 } else { 1 }, neg, exp + 63 - lz as i32, u128::from(sig << lz))
            }
            Value::Nan { .. } => unreachable!("NaNs are unordered"),
        }
    }
    let (sa, na, la, ma) = key(a);
    let (sb, _, lb, mb) = key(b);
    if sa != sb {
        return sa.cmp(&sb);
    }
    if sa == 0 {
        return Ordering::Equal;
    }
    let mag = la.cmp(&lb).then(ma.cmp(&mb));
    if na {
        mag.reverse()
    } else {
        mag
    }
}

const FORMATS: [&Format; 8] = [&F16, &BF16, &TF32, &E4M3, &E5M2, &E2M3, &E3M2, &E2M1];
const MODES: [Rounding; 5] =
    [Rounding::NearestEven, Rounding::NearestAway, Rounding::TowardZero, Rounding::Down, Rounding::Up];

fn conv(f: &Format, x: u32, mode: Rounding, ov: Overflow) -> Value {
    decode(f, encode(f, decode(&F32, u64::from(x)), mode, ov).bits)
}

fn not_nan(x: u32) -> bool {
    x & 0x7FFF_FFFF <= 0x7F80_0000
}

fn overflows() -> impl Strategy<Value = Overflow> {
    prop_oneof![Just(Overflow::Ieee), Just(Overflow::Saturate)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, max_global_rejects: 1_000_000, ..ProptestConfig::default() })]

    #[test]
    fn monotone_in_the_input(x in any::<u32>(), y in any::<u32>(), fi in 0..FORMATS.len(), mi in 0..MODES.len(), ov in overflows()) {
        prop_assume!(not_nan(x) && not_nan(y));
        let (f, mode) = (FORMATS[fi], MODES[mi]);
        let (vx, vy) = (decode(&F32, u64::from(x)), decode(&F32, u64::from(y)));
        let (rx, ry) = (conv(f, x, mode, ov), conv(f, y, mode, ov));
        prop_assume!(!rx.is_nan() && !ry.is_nan());
        if cmp_exact(vx, vy) != Ordering::Greater {
            prop_assert_ne!(cmp_exact(rx, ry), Ordering::Greater, "{} {:?}: {:#x} <= {:#x}", f.name, mode, x, y);
        }
    }

    #[test]
    fn directed_modes_bracket_the_input(x in any::<u32>(), fi in 0..FORMATS.len(), ov in overflows()) {
        prop_assume!(not_nan(x));
        let f = FORMATS[fi];
        let v = decode(&F32, u64::from(x));
        let (rm, rn, rp, rz) = (
            conv(f, x, Rounding::Down, ov),
            conv(f, x, Rounding::NearestEven, ov),
            conv(f, x, Rounding::Up, ov),
            conv(f, x, Rounding::TowardZero, ov),
        );
        prop_assume!(!rm.is_nan() && !rp.is_nan() && !rn.is_nan());
        prop_assert_ne!(cmp_exact(rm, rn), Ordering::Greater, "rm <= rn for {} {:#x}", f.name, x);
        prop_assert_ne!(cmp_exact(rn, rp), Ordering::Greater, "rn <= rp for {} {:#x}", f.name, x);
        if ov == Overflow::Ieee && f.has_inf() {
            prop_assert_ne!(cmp_exact(rm, v), Ordering::Greater, "rm <= x for {} {:#x}", f.name, x);
            prop_assert_ne!(cmp_exact(v, rp), Ordering::Greater, "x <= rp for {} {:#x}", f.name, x);
        }
        prop_assert_ne!(cmp_exact(rz.abs(), v.abs()), Ordering::Greater, "|rz| <= |x| for {} {:#x}", f.name, x);
    }

    #[test]
    fn stochastic_rounding_lies_between_truncation_and_rounding_away(x in any::<u32>(), r in any::<u32>(), fi in 0..FORMATS.len()) {
        prop_assume!(not_nan(x));
        let f = FORMATS[fi];
        let width = 13;
        let away = if x >> 31 == 1 { Rounding::Down } else { Rounding::Up };
        let rs = conv(f, x, Rounding::Stochastic { rbits: r, width }, Overflow::Saturate);
        let rz = conv(f, x, Rounding::TowardZero, Overflow::Saturate);
        let ra = conv(f, x, away, Overflow::Saturate);
        prop_assert!(cmp_exact(rs, rz) == Ordering::Equal || cmp_exact(rs, ra) == Ordering::Equal);
        prop_assert_eq!(cmp_exact(conv(f, x, Rounding::Stochastic { rbits: 0, width }, Overflow::Saturate), rz), Ordering::Equal, "rbits = 0 truncates");
    }
}

#[test]
fn every_code_round_trips_exactly_in_every_mode() {
    for f in FORMATS.iter().copied().chain([&F32, &F64]) {
        let codes: Box<dyn Iterator<Item = u64>> = if f.bits() <= 16 {
            Box::new(0..(1u64 << f.bits()))
        } else {
            Box::new((0..1u64 << 16).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - f.bits())))
        };
        for code in codes {
            let v = decode(f, code);
            if v.is_nan() {
                continue;
            }
            for mode in MODES {
                let e = encode(f, v, mode, Overflow::Ieee);
                assert_eq!(e.bits, code, "{} {code:#x} {mode:?}", f.name);
                assert!(!e.inexact);
            }
        }
    }
}
