//! [`Expected`]: the result an instruction must produce — exact bits, with zero or more
//! bit fields that may take any value from a set.

use std::fmt;

use super::Allowance;
use crate::num::{decode, Format};

/// What a free field may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Constraint {
    /// Any NaN of the format.
    AnyNan(&'static Format),
    /// Anything.
    Any,
    /// The field's value in `bits`, or this other value (hardware and spec disagree).
    OrValue(u128),
    /// The field's value in `bits` less `j · step` (modulo the field) for some `j` in
    /// `0..=count`: a result whose last `count` equal steps the hardware may each have dropped
    /// (3801-N1's links of a `mad.hi` chain).
    LessSteps {
        /// The step each dropped link leaves out.
        step: u128,
        /// How many steps may be missing.
        count: u32,
    },
}

/// A bit field of the result that is not fixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Free {
    /// Lowest bit of the field.
    pub shift: u32,
    /// Width of the field.
    pub width: u32,
    /// What it may hold.
    pub constraint: Constraint,
    /// The allowance that grants the freedom.
    pub allowance: Allowance,
}

/// The expected value of one destination operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// The bits (free fields hold one admissible value, e.g. the canonical NaN).
    pub bits: u128,
    /// Width of the destination in bits.
    pub width: u32,
    /// Fields that may differ from `bits`.
    pub free: Vec<Free>,
}

fn field(v: u128, shift: u32, width: u32) -> u128 {
    (v >> shift) & if width >= 128 { u128::MAX } else { (1u128 << width) - 1 }
}

impl Expected {
    /// An exact result.
    pub fn exact(bits: u128, width: u32) -> Self {
        Expected { bits, width, free: Vec::new() }
    }

    /// Whether the result is a single value.
    pub fn is_exact(&self) -> bool {
        self.free.is_empty()
    }

    /// Places `inner` (a result of `inner.width` bits) at bit `shift` of this result.
    pub fn insert(&mut self, shift: u32, inner: Expected) {
        self.bits |= inner.bits << shift;
        self.free.extend(inner.free.into_iter().map(|f| Free { shift: f.shift + shift, ..f }));
    }

    /// The field of `width` bits at `shift`, as a result of its own. A free field that only
    /// partly overlaps the window becomes `Any` over the overlap (its constraint, such as "a
    /// NaN", says nothing about a part of the field).
    pub fn field(&self, shift: u32, width: u32) -> Expected {
        let (lo, hi) = (shift, shift + width);
        let free = self
            .free
            .iter()
            .filter_map(|f| {
                let (a, b) = (f.shift.max(lo), (f.shift + f.width).min(hi));
                (a < b).then(|| {
                    let whole = a == f.shift && b == f.shift + f.width;
                    let constraint = if whole { f.constraint } else { Constraint::Any };
                    Free { shift: a - lo, width: b - a, constraint, allowance: f.allowance }
                })
            })
            .collect();
        Expected { bits: field(self.bits, shift, width), width, free }
    }

    /// Overwrites bits `shift..shift + inner.width` with `inner`. Free fields that only partly
    /// lie under the overwritten window keep their other part, as `Any`.
    pub fn replace(&mut self, shift: u32, inner: Expected) {
        let (lo, hi) = (shift, shift + inner.width);
        let mut kept = Vec::new();
        for f in self.free.drain(..) {
            let (a, b) = (f.shift, f.shift + f.width);
            if b <= lo || a >= hi {
                kept.push(f);
                continue;
            }
            for (x, y) in [(a, lo.min(b)), (hi.max(a), b)] {
                if x < y {
                    kept.push(Free { shift: x, width: y - x, constraint: Constraint::Any, allowance: f.allowance });
                }
            }
        }
        self.free = kept;
        let m = field(u128::MAX, 0, inner.width) << shift;
        self.bits = (self.bits & !m) | ((inner.bits << shift) & m);
        self.free.extend(inner.free.into_iter().map(|f| Free { shift: f.shift + shift, ..f }));
    }

    /// This exact value, or also the whole-width value `other` under `allowance`.
    pub fn or_value(self, other: u128, allowance: Allowance) -> Expected {
        let width = self.width;
        let mut e = self;
        e.free.push(Free { shift: 0, width, constraint: Constraint::OrValue(other), allowance });
        e
    }

    /// Any value of `width` bits, under `allowance`.
    pub fn any(width: u32, allowance: Allowance) -> Expected {
        Expected { bits: 0, width, free: vec![Free { shift: 0, width, constraint: Constraint::Any, allowance }] }
    }

    /// Whether `actual` is an admissible result.
    pub fn matches(&self, actual: u128) -> bool {
        let mask = if self.width >= 128 { u128::MAX } else { (1u128 << self.width) - 1 };
        let mut fixed = mask;
        for f in &self.free {
            let fm = field(u128::MAX, 0, f.width) << f.shift;
            fixed &= !fm;
            let v = field(actual, f.shift, f.width);
            let ok = match f.constraint {
                Constraint::Any => true,
                Constraint::OrValue(alt) => v == alt || v == field(self.bits, f.shift, f.width),
                Constraint::AnyNan(fmt) => decode(fmt, v as u64).is_nan(),
                Constraint::LessSteps { step, count } => {
                    let mask = field(u128::MAX, 0, f.width);
                    let named = field(self.bits, f.shift, f.width);
                    (0..=u128::from(count)).any(|j| named.wrapping_sub(j.wrapping_mul(step)) & mask == v)
                }
            };
            if !ok {
                return false;
            }
        }
        (actual & fixed) == (self.bits & fixed)
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = self.width.div_ceil(4) as usize;
        write!(f, "0x{:0digits$x}", self.bits)?;
        for fr in &self.free {
            let what = match fr.constraint {
                Constraint::AnyNan(fmt) => format!("any {} NaN", fmt.name),
                Constraint::Any => "anything".to_string(),
                Constraint::OrValue(alt) => format!("or {alt:#x}"),
                Constraint::LessSteps { step, count } => format!("less up to {count} × {step:#x}"),
            };
            // Bit ranges as PTX writes them, high bit first: `[15:8]`.
            write!(f, " (bits [{}:{}]: {what} [{}])", fr.shift + fr.width - 1, fr.shift, fr.allowance)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::num::F16;

    #[test]
    fn free_fields_accept_their_sets_only() {
        let mut e = Expected::exact(0, 32);
        e.insert(0, Expected::exact(0x3C00, 16));
        e.insert(
            16,
            Expected {
                bits: 0x7FFF,
                width: 16,
                free: vec![Free {
                    shift: 0,
                    width: 16,
                    constraint: Constraint::AnyNan(&F16),
                    allowance: Allowance::NanPayload,
                }],
            },
        );
        assert!(e.matches(0x7FFF_3C00));
        assert!(e.matches(0xFE01_3C00), "any NaN, either sign");
        assert!(!e.matches(0x7C00_3C00), "infinity is not a NaN");
        assert!(!e.matches(0x7FFF_3C01), "the exact half must match");
        let hi = e.field(16, 16);
        assert_eq!(hi.free.len(), 1);
        assert!(hi.matches(0xFE01) && !hi.matches(0x7C00));
        let straddle = e.field(8, 16);
        assert_eq!(straddle.free[0].constraint, Constraint::Any);
        assert!(!straddle.matches(0x0000), "the exact low byte 0x3C must match");
        assert!(straddle.matches(0xAB3C));
        let mut f = e.clone();
        f.replace(8, Expected::exact(0x1234, 16));
        assert_eq!(f.free.len(), 1, "the NaN field's upper byte stays free");
        assert!(f.matches(0xAB12_3400) && !f.matches(0xAB12_3401));
        // Free bits are named as PTX names bit ranges, high bit first.
        assert_eq!(e.to_string(), "0x7fff3c00 (bits [31:16]: any f16 NaN [nan-payload])");
    }
}
