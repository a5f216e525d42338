//! Exact number formats and the one rounding engine every conversion uses.
//!
//! A [`Format`] is declared once as data (exponent and mantissa widths, bias, sign, and how
//! infinities and NaNs are encoded). [`decode`] turns bits into an exact [`Value`] — a sign and
//! an integer significand times a power of two — and [`encode`] rounds an exact value into a
//! format under an explicit [`Rounding`] mode and [`Overflow`] policy. Integer results use
//! [`round_to_integer`]. [`parse_real`] reads decimal and hex-float text exactly, for one
//! rounding by [`encode`]. All arithmetic is integer arithmetic on significands: host floating
//! point never decides a rounding.

pub mod fast;
pub mod fast_int;
mod format;
pub mod kernel_ir;
mod real;
mod round;

pub use format::{Format, Specials, BF16, E2M1, E2M3, E3M2, E4M3, E5M2, F16, F32, F64, FORMATS, TF32, UE8M0};
pub use real::parse_real;
pub use round::{
    classify, decode, encode, round_to_integer, round_to_integral, Class, Encoded, Overflow, Rounding, Value,
};
