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
            };
            write!(f, " (bits {}..{}: {what} [{}])", fr.shift, fr.shift + fr.width, fr.allowance)?;
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
    }
}
