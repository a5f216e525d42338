//! Values: edge-case pools derived from the number formats (`oracle::num`), and the input words
//! of a program.
//!
//! A [`Kind`] says what a value feeds: the source format of a conversion together with its
//! destination ([`Dest`]), an integer headed for saturation, a `prmt` selector, a `shfl` lane or
//! clamp, a shift amount. [`draw`] returns, with the edge rate, a value from the kind's pool and
//! otherwise random bits (wasmtime's `biased_arbitrary_value`). The pools hold, for a float
//! source `f` converted to `d` (PTX ISA §9.7.9.21):
//! - `f`'s own specials: ±0, ±min/max subnormal, ±min normal, ±1, ±max finite, ±∞, the
//!   canonical NaN, quiet NaNs with payloads and signalling NaNs, halves `k + 0.5`;
//! - `d`'s boundaries written exactly in `f`: `d`'s min subnormal, max subnormal, min normal,
//!   1, max finite and a random finite value, each as is, as the exact tie with the next `d`
//!   value (the overflow threshold for max finite, half the min subnormal for 0), and the tie
//!   ± 1 ulp of `f`;
//! - for an integer destination, its limits ± ½ and ± 1;
//!
//! and for an integer source: 0, ±1, the type's limits ± 1, powers of two ± 1, the destination
//! integer's limits ± 1, and for a float destination the first integers it cannot represent
//! (`2^(p) + 1`, a tie) and its overflow threshold.
//!
//! Input words are generated after the program from [`Hint`]s that loads leave (the kind of the
//! first consumer of each loaded element), with a PRNG seeded from the byte stream: a quarter of
//! the hinted values are the same on every thread (uniform), the rest differ per thread.
//!
//! Invariant: every function here is total (no panics for any kind or format) and returns
//! values in the low `width` bits.

use oracle::num::{decode, encode, Format, Overflow, Rounding, Specials, Value};
use oracle::num::{BF16, E2M1, E2M3, E3M2, E4M3, E5M2, F16, F32, F64};
use oracle::program::Inputs;

use super::rng::{Rng, SplitMix64};

/// Where a value goes after the instruction that reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Dest {
    /// Nowhere in particular.
    None,
    /// Converted to this float format.
    Float(Format),
    /// Converted (with saturation) to this integer type.
    Int {
        /// Width.
        bits: u32,
        /// Signedness.
        signed: bool,
    },
}

/// What a value is for (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// Unstructured bits of this width (edge values pick a format of the width at random).
    Bits(u32),
    /// An integer.
    Int {
        /// Width.
        bits: u32,
        /// Signedness.
        signed: bool,
        /// Its destination.
        to: Dest,
    },
    /// One float (in `fmt.storage_bits` bits).
    Float {
        /// Format.
        fmt: Format,
        /// Its destination.
        to: Dest,
    },
    /// `lanes` floats of `fmt`, each in `lane_bits` bits (unused high bits zero), lane 0 lowest.
    Packed {
        /// Format of each lane.
        fmt: Format,
        /// Number of lanes.
        lanes: u32,
        /// Bits per lane.
        lane_bits: u32,
        /// Destination of each lane.
        to: Dest,
    },
    /// A `prmt` selector `c` (§9.7.9.7).
    Selector,
    /// A `shfl.sync` lane or lane offset `b` (§9.7.9.6).
    Lane,
    /// A `shfl.sync` clamp/segment mask `c` (§9.7.9.6).
    Clamp,
    /// A shift amount for a shift of this width (§9.7.8.7, §9.7.8.8).
    Shift(u32),
    /// A predicate (0 or 1).
    Pred,
}

impl Kind {
    /// Width of the value in bits.
    pub fn width(&self) -> u32 {
        match *self {
            Kind::Bits(w) | Kind::Int { bits: w, .. } => w,
            Kind::Float { fmt, .. } => fmt.storage_bits.max(fmt.bits()),
            Kind::Packed { lanes, lane_bits, .. } => lanes * lane_bits,
            Kind::Selector | Kind::Lane | Kind::Clamp | Kind::Shift(_) => 32,
            Kind::Pred => 1,
        }
    }

    /// The plain integer kind of a `bits`-wide operand.
    pub fn int(bits: u32, signed: bool) -> Kind {
        Kind::Int { bits, signed, to: Dest::None }
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// A value of `kind`: an edge value with probability `edge_permille`/1000, else random bits.
pub fn draw(r: &mut impl Rng, kind: Kind, edge_permille: u32) -> u64 {
    let v = if kind == Kind::Pred {
        r.below(2)
    } else if r.permille(edge_permille) {
        edge(r, kind)
    } else {
        random(r, kind)
    };
    v & mask(kind.width())
}

fn random(r: &mut impl Rng, kind: Kind) -> u64 {
    match kind {
        Kind::Packed { fmt, lanes, lane_bits, .. } => {
            (0..lanes).fold(0, |acc, i| acc | ((r.bits() & fmt.mask()) << (i * lane_bits)))
        }
        Kind::Lane => r.below(32),
        Kind::Shift(w) => r.below(u64::from(w) + 1),
        Kind::Pred => r.below(2),
        k => r.bits() & mask(k.width()),
    }
}

/// An edge value of `kind` (always from the pool).
pub fn edge(r: &mut impl Rng, kind: Kind) -> u64 {
    match kind {
        Kind::Bits(w) => {
            let as_kind = match w {
                8 => r.pick(&[Kind::int(8, false), float(E4M3), float(E5M2), packed(E2M1, 2, 4)]),
                16 => r.pick(&[
                    Kind::int(16, true),
                    float(F16),
                    float(BF16),
                    packed(E4M3, 2, 8),
                    packed(E5M2, 2, 8),
                    packed(E2M3, 2, 8),
                    packed(E3M2, 2, 8),
                    packed(E2M1, 4, 4),
                ]),
                32 => r.pick(&[
                    Kind::int(32, true),
                    float(F32),
                    packed(F16, 2, 16),
                    packed(BF16, 2, 16),
                    packed(E4M3, 4, 8),
                ]),
                64 => r.pick(&[Kind::int(64, true), float(F64), packed(F32, 2, 32)]),
                _ => return r.bits() & mask(w),
            };
            edge(r, as_kind)
        }
        Kind::Int { bits, signed, to } => int_edge(r, bits, signed, to),
        Kind::Float { fmt, to } => float_edge(r, &fmt, to),
        Kind::Packed { fmt, lanes, lane_bits, to } => (0..lanes).fold(0, |acc, i| {
            let lane = if r.permille(700) { float_edge(r, &fmt, to) } else { r.bits() } & fmt.mask();
            acc | (lane << (i * lane_bits))
        }),
        Kind::Selector => {
            if r.permille(400) {
                r.pick(&[0x3210, 0x7654, 0x0123, 0x4567, 0x8888, 0xFEDC, 0x5140, 0x1, 0x2, 0x3, 0x0])
            } else {
                // Random nibbles, each with its sign-replicate bit set half the time.
                let low = (0..4).fold(0u64, |acc, i| acc | ((r.below(8) | (r.below(2) << 3)) << (4 * i)));
                low | (r.bits() & 0xFFFF_0000 & if r.permille(300) { u64::MAX } else { 0 })
            }
        }
        Kind::Lane => r.pick(&[0, 1, 2, 15, 16, 31, 32, 33, 63, 0xFFFF_FFFF, 0x8000_0000]),
        Kind::Clamp => r.pick(&[0x1F, 0, 1, 0x10, 0x1E, 0x1C00, 0x181F, 0x1F1F, 0x1F00, 0xFFFF_FFFF, 0x0800]),
        Kind::Shift(w) => {
            let w = u64::from(w);
            r.pick(&[0, 1, w - 1, w, w + 1, 2 * w, 255, 256, 0xFFFF_FFFF, 0x8000_0000, 0x7FFF_FFFF])
        }
        Kind::Pred => r.below(2),
    }
}

/// A small fixed-capacity pool of candidates (no allocation per drawn value).
struct Pool {
    items: [u64; 24],
    n: usize,
}

impl Pool {
    fn new() -> Self {
        Pool { items: [0; 24], n: 0 }
    }
    fn push(&mut self, v: u64) {
        if self.n < self.items.len() {
            self.items[self.n] = v;
            self.n += 1;
        }
    }
    fn extend(&mut self, vs: impl IntoIterator<Item = u64>) {
        vs.into_iter().for_each(|v| self.push(v));
    }
    fn pick(&self, r: &mut impl Rng) -> u64 {
        self.items[r.below(self.n.max(1) as u64) as usize]
    }
}

fn float(fmt: Format) -> Kind {
    Kind::Float { fmt, to: Dest::None }
}

fn packed(fmt: Format, lanes: u32, lane_bits: u32) -> Kind {
    Kind::Packed { fmt, lanes, lane_bits, to: Dest::None }
}

/// `v` (a nonzero integer or half-integer `n / 2`) as an exact value.
fn halves(n: i128) -> Value {
    if n == 0 {
        return Value::Zero { neg: false };
    }
    let mag = n.unsigned_abs();
    match u64::try_from(mag) {
        Ok(sig) => Value::Finite { neg: n < 0, sig, exp: -1 },
        // Too wide for one significand: drop the half (|n| / 2 always fits).
        Err(_) => Value::from_int(n / 2),
    }
}

fn int_range(bits: u32, signed: bool) -> (i128, i128) {
    if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

fn int_edge(r: &mut impl Rng, bits: u32, signed: bool, to: Dest) -> u64 {
    let bits = bits.clamp(1, 64);
    let (lo, hi) = int_range(bits, signed);
    let v: i128 = match (to, r.below(2)) {
        (Dest::Int { bits: db, signed: ds }, 0) => {
            let (dlo, dhi) = int_range(db.clamp(1, 64), ds);
            r.pick(&[dlo, dlo - 1, dlo + 1, dhi, dhi + 1, dhi - 1, 0, -1, 1])
        }
        (Dest::Float(d), 0) => {
            // The first integers the destination cannot represent, scaled, and its overflow
            // threshold when that is an integer of this width.
            let p = 1i128 << (d.man_bits + 1);
            let span = bits.saturating_sub(d.man_bits + 2).max(1);
            let k = r.below(u64::from(span)) as u32;
            let thr = float_int_threshold(&d);
            let mut pool = [(p + 1) << k, (p + 3) << k, (p - 1) << k, p << k, (p + 2) << k, 0, 0, 0, 0];
            let mut n = 5;
            if let Some((max, t)) = thr {
                pool[5..].copy_from_slice(&[max, t, t - 1, t + 1]);
                n = 9;
            }
            let v = r.pick(&pool[..n]);
            if signed && r.below(2) == 1 {
                -v
            } else {
                v
            }
        }
        _ => {
            let k = r.below(u64::from(bits)) as u32;
            let p = 1i128 << k;
            r.pick(&[0, 1, -1, lo, hi, lo + 1, hi - 1, p, p - 1, -p, 2, 3])
        }
    };
    (v as u64) & mask(bits)
}

/// The largest finite value of `d` and the midpoint above it, when both are integers.
fn float_int_threshold(d: &Format) -> Option<(i128, i128)> {
    let as_int = |bits: u64| -> Option<i128> {
        match decode(d, bits) {
            Value::Finite { sig, exp, .. } if (0..64).contains(&exp) => i128::from(sig).checked_shl(exp as u32),
            _ => None,
        }
    };
    let max_bits = d.max_finite_bits();
    let max = as_int(max_bits)?;
    let prev = as_int(max_bits.checked_sub(1)?)?;
    let step = max - prev;
    (step % 2 == 0).then_some((max, max + step / 2))
}

/// The exact encoding in `f` of `d`'s encoding `x`, if `f` holds it exactly.
fn exact_in(f: &Format, d: &Format, x: u64) -> Option<u64> {
    let v = decode(d, x);
    if !matches!(v, Value::Finite { .. } | Value::Zero { .. }) {
        return None;
    }
    let e = encode(f, v, Rounding::NearestEven, Overflow::Ieee);
    (!e.inexact && !e.clamped).then_some(e.bits)
}

/// A magnitude (sign clear) from `f`'s own specials.
fn own_edge(r: &mut impl Rng, f: &Format) -> u64 {
    let m = f.man_bits;
    let man = mask(m);
    let top_exp = u64::from(f.max_exp_field());
    let one = (f.bias.max(0) as u64) << m;
    let max = f.max_finite_bits();
    let mut pool = Pool::new();
    pool.extend([0, 1 << m, (1 << m) | 1, one, one + 1, one.saturating_sub(1), max, max.saturating_sub(1)]);
    if m > 0 {
        pool.extend([1, man]);
        // A random binade with a tie pattern or an extreme mantissa.
        let e = 1 + r.below(top_exp.saturating_sub(1).max(1));
        let half: u64 = 1 << (m - 1);
        let pattern = r.pick(&[0, man, half, half + 1, half - 1]);
        pool.push((e << m) | pattern);
    }
    if let Some(inf) = f.inf_bits() {
        pool.push(inf);
    }
    if let Some(nan) = f.canonical_nan_bits() {
        pool.push(nan);
        if f.specials == Specials::Ieee && m >= 2 {
            let quiet = 1u64 << (m - 1);
            let payload = r.bits() & (quiet - 1);
            pool.push((top_exp << m) | quiet | payload);
            pool.push((top_exp << m) | (payload | 1));
        }
    }
    // Half-integers k + ½ (ties of `.rni`, `.rna`), exactly representable or not.
    let k = r.below(8) as i128;
    pool.push(encode(f, halves(2 * k + 1), Rounding::NearestEven, Overflow::Ieee).bits & !sign_bit(f));
    pool.pick(r) & f.mask()
}

fn sign_bit(f: &Format) -> u64 {
    if f.signed {
        1 << f.sign_shift()
    } else {
        0
    }
}

/// A magnitude in `f` at a boundary of `d` (see the module documentation), if `f` can write it.
fn dest_float_edge(r: &mut impl Rng, f: &Format, d: &Format) -> Option<u64> {
    let dm = d.man_bits;
    let dmax = d.max_finite_bits();
    let one = (d.bias.max(0) as u64) << dm;
    let random = r.below(dmax + 1);
    let anchor = r.pick(&[0, 1, mask(dm), 1 << dm, dmax, one, random]).min(dmax);
    let fa = exact_in(f, d, anchor)?;
    let variant = r.below(4);
    if variant == 0 {
        return Some(fa);
    }
    let fb = if anchor < dmax {
        exact_in(f, d, anchor + 1)?
    } else {
        let prev = exact_in(f, d, anchor.checked_sub(1)?)?;
        fa + (fa - prev)
    };
    if fb <= fa + 1 {
        // `f` is not wider than `d` here: no tie to write.
        return Some(fa);
    }
    let mid = fa + (fb - fa) / 2;
    Some(match variant {
        1 => mid,
        2 => mid - 1,
        _ => mid + 1,
    })
}

/// A float of `f` at an integer destination's limits ± ½ and ± 1 (full bits, sign included).
fn int_boundary_float(r: &mut impl Rng, f: &Format, bits: u32, signed: bool) -> u64 {
    let (lo, hi) = int_range(bits.clamp(1, 64), signed);
    let base = r.pick(&[lo, hi, 0, 1, -1, hi + 1, lo - 1]);
    let delta = r.pick(&[-2i128, -1, 0, 1, 2]);
    encode(f, halves(2 * base + delta), Rounding::NearestEven, Overflow::Ieee).bits
}

/// An edge value of float format `f` headed for `to` (full bits).
fn float_edge(r: &mut impl Rng, f: &Format, to: Dest) -> u64 {
    let choice = r.below(3);
    let sign = if f.signed && r.below(2) == 1 { sign_bit(f) } else { 0 };
    let bits = match to {
        Dest::Float(d) if choice < 2 && d != *f => dest_float_edge(r, f, &d).unwrap_or_else(|| own_edge(r, f)) | sign,
        Dest::Int { bits, signed } if choice < 2 => int_boundary_float(r, f, bits, signed),
        _ => own_edge(r, f) | sign,
    };
    bits & f.mask()
}

/// What a load left for the input generator: the byte offset (within a thread's words) and the
/// kind of the loaded element.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hint {
    /// Byte offset in the thread's input words.
    pub byte: u32,
    /// The element's kind (its width is a multiple of 8 bits).
    pub kind: Kind,
}

/// Probability (per mille) that a hinted value is the same on every thread: uniform values take
/// the paths where lanes agree (`shfl` of equal values, branches every lane takes).
const UNIFORM_PERMILLE: u32 = 250;

/// The input words of a program with `threads` threads of `words` words, from `seed` and the
/// loads' hints (later hints overwrite earlier ones where they overlap).
pub fn inputs(seed: u64, threads: u32, words: u32, hints: &[Hint], edge_permille: u32) -> Inputs {
    let mut r = SplitMix64::new(seed);
    let stride = 4 * words as usize;
    let mut bytes = vec![0u8; stride * threads as usize];
    for chunk in bytes.chunks_mut(4) {
        let w = draw(&mut r, Kind::Bits(32), edge_permille) as u32;
        chunk.copy_from_slice(&w.to_le_bytes());
    }
    for h in hints {
        let width = h.kind.width();
        let n = (width / 8) as usize;
        let at = h.byte as usize;
        if width % 8 != 0 || at + n > stride {
            continue;
        }
        let uniform = r.permille(UNIFORM_PERMILLE).then(|| draw(&mut r, h.kind, edge_permille));
        for t in 0..threads as usize {
            let v = uniform.unwrap_or_else(|| draw(&mut r, h.kind, edge_permille));
            let base = t * stride + at;
            bytes[base..base + n].copy_from_slice(&v.to_le_bytes()[..n]);
        }
    }
    Inputs(bytes.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use oracle::num::TF32;

    fn rng() -> SplitMix64 {
        SplitMix64::new(7)
    }

    #[test]
    fn values_fit_their_width() {
        let mut r = rng();
        let kinds = [
            Kind::Bits(8),
            Kind::Bits(16),
            Kind::Bits(32),
            Kind::Bits(64),
            Kind::int(8, true),
            Kind::Int { bits: 32, signed: true, to: Dest::Int { bits: 4, signed: false } },
            Kind::Int { bits: 64, signed: false, to: Dest::Float(F16) },
            Kind::Float { fmt: F32, to: Dest::Float(E2M1) },
            Kind::Float { fmt: F64, to: Dest::Int { bits: 64, signed: false } },
            Kind::Float { fmt: F32, to: Dest::Float(TF32) },
            Kind::Packed { fmt: E2M3, lanes: 2, lane_bits: 8, to: Dest::Float(F16) },
            Kind::Selector,
            Kind::Lane,
            Kind::Clamp,
            Kind::Shift(16),
            Kind::Pred,
        ];
        for k in kinds {
            for _ in 0..2000 {
                let v = draw(&mut r, k, 700);
                assert_eq!(v & !mask(k.width()), 0, "{k:?}: {v:#x}");
            }
        }
    }

    #[test]
    fn fp6_lanes_keep_their_padding_clear() {
        let mut r = rng();
        let k = Kind::Packed { fmt: E3M2, lanes: 2, lane_bits: 8, to: Dest::Float(F16) };
        for _ in 0..2000 {
            assert_eq!(draw(&mut r, k, 500) & 0xC0C0, 0);
        }
    }

    #[test]
    fn pools_hold_the_named_edges() {
        let mut r = rng();
        let mut seen = std::collections::HashSet::new();
        let k = Kind::Float { fmt: F32, to: Dest::Float(F16) };
        for _ in 0..50_000 {
            seen.insert(edge(&mut r, k));
        }
        // f16 max (65504), the f16 overflow tie (65520) and ±1 ulp of f32 around it, f16 min
        // subnormal (2^-24), half of it (2^-25), f32 NaN and infinity, -0.
        for v in [
            0x477F_E000u32,
            0x477F_F000,
            0x477F_EFFF,
            0x477F_F001,
            0x3380_0000,
            0x3300_0000,
            0x7FFF_FFFF,
            0x7F80_0000,
            0x8000_0000,
        ] {
            assert!(seen.contains(&u64::from(v)), "{v:#x} missing");
        }
        let k = Kind::Int { bits: 32, signed: true, to: Dest::Int { bits: 8, signed: true } };
        let ints: std::collections::HashSet<u64> = (0..5000).map(|_| edge(&mut r, k)).collect();
        for v in [127u64, 128, 0xFFFF_FF80, 0xFFFF_FF7F] {
            assert!(ints.contains(&v), "{v:#x} missing");
        }
        let k = Kind::Float { fmt: F32, to: Dest::Int { bits: 8, signed: false } };
        let f: std::collections::HashSet<u64> = (0..5000).map(|_| edge(&mut r, k)).collect();
        // 255.5 and 255.0 and -0.5.
        for v in [0x437F_8000u64, 0x437F_0000, 0xBF00_0000] {
            assert!(f.contains(&v), "{v:#x} missing");
        }
    }

    #[test]
    fn inputs_follow_hints_and_seed() {
        let hints = [Hint { byte: 2, kind: Kind::Float { fmt: F16, to: Dest::None } }];
        let a = inputs(1, 64, 8, &hints, 1000);
        assert_eq!(a, inputs(1, 64, 8, &hints, 1000));
        assert_ne!(a, inputs(2, 64, 8, &hints, 1000));
        assert_eq!(a.0.len(), 64 * 8);
    }
}
