//! Real-number text (`1.5`, `-2.5e-3`, `0x1.8p3`) read exactly, for one later rounding.
//!
//! [`parse_real`] gives a [`Value`] that [`super::encode`] rounds into any format exactly as it
//! would round the number the text denotes: the significand keeps at least 63 bits of the
//! number and folds every bit below them into its lowest bit ("sticky", round to odd). Every
//! format here has at most 53 significand bits and `.rs` looks at most 16 bits below the last
//! kept one, so no rounding decision changes. Decimal text is converted with exact integer
//! arithmetic, never through host floating point: a decimal rounded first to `f64` and then to
//! a narrower format can round twice to the wrong neighbour.

use super::round::Value;

/// Decimal exponents beyond this (after accounting for the digits) give a value far outside
/// every format: kept as a huge or tiny power of two, which rounds the same way.
const DECIMAL_EXP_LIMIT: i64 = 400;

/// A natural number as little-endian 64-bit limbs (no trailing zero limbs).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Nat(Vec<u64>);

impl Nat {
    fn zero() -> Nat {
        Nat(Vec::new())
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    fn trim(mut self) -> Nat {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        self
    }

    /// `self × m + a`.
    fn mul_add(self, m: u64, a: u64) -> Nat {
        let mut carry = u128::from(a);
        let mut out: Vec<u64> = self
            .0
            .iter()
            .map(|&l| {
                let t = u128::from(l) * u128::from(m) + carry;
                carry = t >> 64;
                t as u64
            })
            .collect();
        if carry != 0 {
            out.push(carry as u64);
        }
        Nat(out).trim()
    }

    fn bit_len(&self) -> u32 {
        match self.0.last() {
            None => 0,
            Some(&top) => 64 * (self.0.len() as u32 - 1) + (64 - top.leading_zeros()),
        }
    }

    fn bit(&self, i: u32) -> bool {
        self.0.get((i / 64) as usize).is_some_and(|l| (l >> (i % 64)) & 1 == 1)
    }

    /// Whether any bit below `i` is set.
    fn any_below(&self, i: u32) -> bool {
        let (limb, bit) = ((i / 64) as usize, i % 64);
        self.0.iter().take(limb.min(self.0.len())).any(|&l| l != 0)
            || (bit > 0 && self.0.get(limb).is_some_and(|&l| l & ((1u64 << bit) - 1) != 0))
    }

    fn shl(&self, s: u32) -> Nat {
        let (limbs, bits) = ((s / 64) as usize, s % 64);
        let mut out = vec![0u64; limbs];
        let mut carry = 0u64;
        for &l in &self.0 {
            out.push((l << bits) | carry);
            carry = if bits == 0 { 0 } else { l >> (64 - bits) };
        }
        out.push(carry);
        Nat(out).trim()
    }

    fn ge(&self, o: &Nat) -> bool {
        if self.0.len() != o.0.len() {
            return self.0.len() > o.0.len();
        }
        for (a, b) in self.0.iter().rev().zip(o.0.iter().rev()) {
            if a != b {
                return a > b;
            }
        }
        true
    }

    /// `self − o`, for `self ≥ o`.
    fn sub(&self, o: &Nat) -> Nat {
        let mut borrow = 0u64;
        let out = self
            .0
            .iter()
            .enumerate()
            .map(|(k, &a)| {
                let b = o.0.get(k).copied().unwrap_or(0);
                let (d, b1) = a.overflowing_sub(b);
                let (d, b2) = d.overflowing_sub(borrow);
                borrow = u64::from(b1 || b2);
                d
            })
            .collect();
        Nat(out).trim()
    }

    /// `(self / d, self % d ≠ 0)` for a quotient below 2^127.
    fn div_small_quotient(&self, d: &Nat) -> (u128, bool) {
        let mut rem = self.clone();
        let mut q = 0u128;
        let top = self.bit_len().saturating_sub(d.bit_len());
        for bit in (0..=top).rev() {
            let shifted = d.shl(bit);
            if rem.ge(&shifted) {
                rem = rem.sub(&shifted);
                q |= 1u128 << bit;
            }
        }
        (q, !rem.is_zero())
    }
}

/// `(−1)^neg × n × 2^exp` as a [`Value`] with a 63-bit significand plus sticky bit (see the
/// module header); `sticky` says whether `n` already dropped nonzero bits.
fn value_of(neg: bool, n: &Nat, exp: i64, sticky: bool) -> Value {
    let len = n.bit_len();
    if len == 0 {
        return Value::Zero { neg };
    }
    let (sig, exp) = if len <= 63 {
        let mut sig = 0u64;
        for i in 0..len {
            sig |= u64::from(n.bit(i)) << i;
        }
        ((sig << 1) | u64::from(sticky), exp - 1)
    } else {
        let drop = len - 63;
        let mut sig = 0u64;
        for i in 0..63 {
            sig |= u64::from(n.bit(drop + i)) << i;
        }
        ((sig << 1) | u64::from(sticky || n.any_below(drop)), exp + i64::from(drop) - 1)
    };
    Value::Finite { neg, sig, exp: exp.clamp(-100_000, 100_000) as i32 }
}

/// Reads a decimal (`1.5`, `-2.5e-3`, `.5`, `7`) or hexadecimal (`0x1.8p3`, `-0x1p-149`) real
/// number exactly (see the module header). `None` for anything else (names such as `inf` and
/// `nan` are the caller's).
pub fn parse_real(text: &str) -> Option<Value> {
    let t = text.trim();
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        let (mant, exp) = hex.split_once(['p', 'P'])?;
        let exp: i64 = exp.parse().ok()?;
        let (n, frac_digits) = digits(mant, 16)?;
        return Some(value_of(neg, &n, exp.checked_sub(4 * frac_digits)?, false));
    }
    let (mant, exp) = match body.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i64>().ok()?),
        None => (body, 0),
    };
    let (n, frac_digits) = digits(mant, 10)?;
    if n.is_zero() {
        return Some(Value::Zero { neg });
    }
    let e10 = exp.checked_sub(frac_digits)?;
    // About the number's decimal order of magnitude (n has about bit_len × log10(2) digits).
    let lead = e10 + i64::from(n.bit_len()) * 30_103 / 100_000 + 1;
    if lead > DECIMAL_EXP_LIMIT {
        return Some(Value::Finite { neg, sig: 1, exp: 4 * DECIMAL_EXP_LIMIT as i32 });
    }
    if lead < -DECIMAL_EXP_LIMIT {
        return Some(Value::Finite { neg, sig: 1, exp: -4 * DECIMAL_EXP_LIMIT as i32 });
    }
    if e10 >= 0 {
        let n = (0..e10).fold(n, |acc, _| acc.mul_add(10, 0));
        return Some(value_of(neg, &n, 0, false));
    }
    let d = (0..-e10).fold(Nat(vec![1]), |acc, _| acc.mul_add(10, 0));
    // n × 2^s / d with a quotient of at least 65 bits.
    let s = (d.bit_len() + 65).saturating_sub(n.bit_len());
    let (q, sticky) = n.shl(s).div_small_quotient(&d);
    let q = Nat(vec![q as u64, (q >> 64) as u64]).trim();
    Some(value_of(neg, &q, -i64::from(s), sticky))
}

/// The natural number of `text`'s digits in `radix` (one optional point), and how many digits
/// follow the point.
fn digits(text: &str, radix: u32) -> Option<(Nat, i64)> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut n = Nat::zero();
    for c in int.chars().chain(frac.chars()) {
        n = n.mul_add(u64::from(radix), u64::from(c.to_digit(radix)?));
    }
    Some((n, frac.len() as i64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::{encode, Overflow, Rounding, F16, F32, F64};

    fn rne(f: &crate::num::Format, s: &str) -> u64 {
        encode(f, parse_real(s).unwrap(), Rounding::NearestEven, Overflow::Ieee).bits
    }

    /// The f16 neighbours of 1 + 2^-11 are 0x3c00 and 0x3c01; a hair above the tie must round
    /// up, which a detour through f64 (where the hair is lost) gets wrong.
    #[test]
    fn decimal_text_rounds_once() {
        assert_eq!(rne(&F16, "1.000488281250000000001"), 0x3C01);
        assert_eq!(rne(&F16, "1.00048828125"), 0x3C00, "the tie itself goes to even");
        assert_eq!(rne(&F16, "1.000488281249999999999"), 0x3C00);
        assert_eq!(rne(&F32, "0.1"), 0x3DCC_CCCD);
        assert_eq!(rne(&F32, "-0x1.8p3"), 0xC140_0000);
        assert_eq!(rne(&F32, "1e-50"), 0);
        assert_eq!(rne(&F32, "1e50"), 0x7F80_0000);
        assert_eq!(rne(&F16, "65520"), 0x7C00, "the tie above MAX_NORM overflows");
        assert_eq!(rne(&F16, "65519.99"), 0x7BFF);
        assert!(matches!(parse_real("-0.0"), Some(Value::Zero { neg: true })));
        for bad in ["", ".", "1.2.3", "0x1.8", "abc", "1e", "0xp1"] {
            assert!(parse_real(bad).is_none(), "{bad:?}");
        }
    }

    /// Decimal text agrees with the host's correctly rounded parser on f64 and f32 for numbers
    /// of every size and length.
    #[test]
    fn decimal_text_agrees_with_correct_host_parsing() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for k in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let digits = 1 + (x % 25) as usize;
            let mant: String = format!("{:025}", x >> 3).chars().take(digits).collect();
            let exp = (x >> 40) as i64 % 700 - 350;
            let s = if k % 2 == 0 { format!("{mant}e{exp}") } else { format!("0.{mant}e{}", exp / 10) };
            let f64_bits = s.parse::<f64>().unwrap().to_bits();
            let f32_bits = u64::from(s.parse::<f32>().unwrap().to_bits());
            assert_eq!(rne(&F64, &s), f64_bits, "{s} as f64");
            assert_eq!(rne(&F32, &s), f32_bits, "{s} as f32");
        }
    }
}
