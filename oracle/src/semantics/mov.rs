//! Semantics of the value forms of `mov` (§9.7.9.3, §9.7.9.4): copy, pack of 2 or 4 elements
//! into a scalar (`d = a.x | a.y << w | …`, element `x` lowest), and unpack of a scalar into
//! elements (the inverse). Address-taking forms (`mov d, avar`, `fname`, `kernel`, special
//! registers) have values the spec does not fix; see [`super::address`].

/// Packs `elems` (each `width` bits, `x` first) into one value.
pub fn pack(elems: &[u128], width: u32) -> u128 {
    elems.iter().enumerate().fold(0, |d, (i, &e)| d | ((e & mask(width)) << (width * i as u32)))
}

/// Unpacks `n` elements of `width` bits from `a` (`x` first).
pub fn unpack(a: u128, n: u32, width: u32) -> Vec<u128> {
    (0..n).map(|i| (a >> (width * i)) & mask(width)).collect()
}

fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}
