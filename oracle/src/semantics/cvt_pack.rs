//! Semantics of `cvt.pack` (§9.7.9.22): two `.s32` values saturated to `.convertType` and
//! packed into the low bits of `d` (`b` lowest, then `a`); for 8/4/2-bit types the remaining
//! high bits of `d` come from the low bits of `c`.

use crate::isa::{CvtPack, PackType};

use super::Expected;

/// Bits of each packed value.
pub fn size(t: PackType) -> u32 {
    match t {
        PackType::U16 | PackType::S16 => 16,
        PackType::U8 | PackType::S8 => 8,
        PackType::U4 | PackType::S4 => 4,
        PackType::U2 | PackType::S2 => 2,
    }
}

/// Whether the packed values are signed.
pub fn signed(t: PackType) -> bool {
    matches!(t, PackType::S16 | PackType::S8 | PackType::S4 | PackType::S2)
}

/// Evaluates `cvt.pack` on 32-bit `a`, `b` (as `.s32`) and `c` (ignored without `.b32`).
pub fn eval(p: &CvtPack, a: u32, b: u32, c: u32) -> Expected {
    let n = size(p.convert);
    let (lo, hi) = if signed(p.convert) { (-(1i64 << (n - 1)), (1i64 << (n - 1)) - 1) } else { (0, (1i64 << n) - 1) };
    let mask = (1u64 << n) - 1;
    let sat = |x: u32| (i64::from(x as i32).clamp(lo, hi) as u64) & mask;
    let mut d = (sat(a) << n) | sat(b);
    if p.with_c && n < 16 {
        d |= u64::from(c) << (2 * n);
    }
    Expected::exact(u128::from(d as u32), 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_examples() {
        let s16 = CvtPack { convert: PackType::S16, with_c: false };
        assert_eq!(eval(&s16, 70000, (-70000i32) as u32, 0).bits, 0x7FFF_8000);
        let u8c = CvtPack { convert: PackType::U8, with_c: true };
        // %r7 = { %r5, %r6, %r8, %r9 } with c = previous result.
        assert_eq!(eval(&u8c, 300, (-5i32) as u32, 0x0000_1234).bits, 0x1234_FF00);
        let s2 = CvtPack { convert: PackType::S2, with_c: true };
        assert_eq!(eval(&s2, 5, (-5i32) as u32, 0xFFFF_FFFF).bits, 0xFFFF_FFF6);
    }
}
