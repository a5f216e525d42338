//! Number formats as data (OCP Microscaling Formats (MX) v1.0, OCP 8-bit Floating Point (OFP8),
//! IEEE 754). Every field is a plain constant; nothing about a format lives in code elsewhere.

/// How a format encodes values outside the finite range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Specials {
    /// IEEE 754: the all-ones exponent holds ±infinity (zero mantissa) and NaNs.
    Ieee,
    /// OCP E4M3 ("fn"): no infinity; only `S.1111.111` is NaN, so the largest finite
    /// mantissa at the top exponent is `110`.
    NanOnlyAllOnes,
    /// FP6/FP4 (OCP MX): every encoding is a finite number.
    FiniteOnly,
    /// UE8M0 scale: unsigned, exponent only; `0xFF` is NaN, there is no zero.
    ExponentOnly,
}

/// A binary floating-point format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// Name as PTX spells it (`f16`, `e4m3`, `ue8m0`).
    pub name: &'static str,
    /// Exponent field width.
    pub exp_bits: u32,
    /// Stored mantissa (fraction) width.
    pub man_bits: u32,
    /// Exponent bias.
    pub bias: i32,
    /// Whether there is a sign bit.
    pub signed: bool,
    /// Encoding of specials.
    pub specials: Specials,
    /// Width of the encoding in bits (tf32 is 19 bits of information stored in 32).
    pub storage_bits: u32,
}

impl Format {
    /// Width of the information-carrying encoding (sign + exponent + mantissa).
    pub const fn bits(&self) -> u32 {
        self.signed as u32 + self.exp_bits + self.man_bits
    }
    /// Bit position of the sign.
    pub const fn sign_shift(&self) -> u32 {
        self.exp_bits + self.man_bits
    }
    /// The largest biased exponent field value.
    pub const fn max_exp_field(&self) -> u32 {
        (1 << self.exp_bits) - 1
    }
    /// Unbiased exponent of the smallest normal number.
    pub const fn emin(&self) -> i32 {
        match self.specials {
            Specials::ExponentOnly => -self.bias,
            _ => 1 - self.bias,
        }
    }
    /// Whether the format has infinities.
    pub const fn has_inf(&self) -> bool {
        matches!(self.specials, Specials::Ieee)
    }
    /// Whether the format has NaNs.
    pub const fn has_nan(&self) -> bool {
        !matches!(self.specials, Specials::FiniteOnly)
    }
    /// Bits of the largest finite magnitude (MAX_NORM), positive.
    pub const fn max_finite_bits(&self) -> u64 {
        let m = self.man_bits;
        match self.specials {
            Specials::Ieee => (((self.max_exp_field() - 1) as u64) << m) | ((1u64 << m) - 1),
            Specials::NanOnlyAllOnes => ((self.max_exp_field() as u64) << m) | ((1u64 << m) - 2),
            Specials::FiniteOnly => ((self.max_exp_field() as u64) << m) | ((1u64 << m) - 1),
            Specials::ExponentOnly => (self.max_exp_field() - 1) as u64,
        }
    }
    /// Bits of +infinity, if the format has it.
    pub const fn inf_bits(&self) -> Option<u64> {
        match self.specials {
            Specials::Ieee => Some((self.max_exp_field() as u64) << self.man_bits),
            _ => None,
        }
    }
    /// The canonical NaN in NVIDIA's sense: sign 0, exponent and mantissa all ones
    /// (`0x7FFF` for f16, `0x7FFFFFFF` for f32; observed on an H100 as the result of every NaN
    /// `cvt.rn.f16.f32`; PTX ISA §9.7.9.21 leaves a NaN result's bits open).
    pub const fn canonical_nan_bits(&self) -> Option<u64> {
        match self.specials {
            Specials::Ieee | Specials::NanOnlyAllOnes => {
                Some(((self.max_exp_field() as u64) << self.man_bits) | ((1u64 << self.man_bits) - 1))
            }
            Specials::FiniteOnly => None,
            Specials::ExponentOnly => Some(0xFF),
        }
    }
    /// Mask of the encoding bits.
    pub const fn mask(&self) -> u64 {
        if self.bits() == 64 {
            u64::MAX
        } else {
            (1u64 << self.bits()) - 1
        }
    }
}

const fn ieee(name: &'static str, exp_bits: u32, man_bits: u32, storage_bits: u32) -> Format {
    Format {
        name,
        exp_bits,
        man_bits,
        bias: (1 << (exp_bits - 1)) - 1,
        signed: true,
        specials: Specials::Ieee,
        storage_bits,
    }
}

/// IEEE binary64.
pub const F64: Format = ieee("f64", 11, 52, 64);
/// IEEE binary32.
pub const F32: Format = ieee("f32", 8, 23, 32);
/// TensorFloat-32: f32's range with a 10-bit mantissa, stored in the top 19 bits of 32
/// (§9.7.9.21: `.tf32` results are `.b32`; the low 13 bits are zero).
pub const TF32: Format = ieee("tf32", 8, 10, 32);
/// IEEE binary16.
pub const F16: Format = ieee("f16", 5, 10, 16);
/// bfloat16.
pub const BF16: Format = ieee("bf16", 8, 7, 16);
/// OCP FP8 E5M2 (IEEE-like: has infinities).
pub const E5M2: Format = ieee("e5m2", 5, 2, 8);
/// OCP FP8 E4M3 ("fn": no infinities, one NaN pattern per sign); max 448.
pub const E4M3: Format = Format {
    name: "e4m3",
    exp_bits: 4,
    man_bits: 3,
    bias: 7,
    signed: true,
    specials: Specials::NanOnlyAllOnes,
    storage_bits: 8,
};
/// OCP MX FP6 E2M3; max 7.5.
pub const E2M3: Format = Format {
    name: "e2m3",
    exp_bits: 2,
    man_bits: 3,
    bias: 1,
    signed: true,
    specials: Specials::FiniteOnly,
    storage_bits: 6,
};
/// OCP MX FP6 E3M2; max 28.
pub const E3M2: Format = Format {
    name: "e3m2",
    exp_bits: 3,
    man_bits: 2,
    bias: 3,
    signed: true,
    specials: Specials::FiniteOnly,
    storage_bits: 6,
};
/// OCP MX FP4 E2M1; max 6.
pub const E2M1: Format = Format {
    name: "e2m1",
    exp_bits: 2,
    man_bits: 1,
    bias: 1,
    signed: true,
    specials: Specials::FiniteOnly,
    storage_bits: 4,
};
/// OCP MX UE8M0 scale: 2^(e-127) for e in 0..=254, 0xFF NaN.
pub const UE8M0: Format = Format {
    name: "ue8m0",
    exp_bits: 8,
    man_bits: 0,
    bias: 127,
    signed: false,
    specials: Specials::ExponentOnly,
    storage_bits: 8,
};

/// Every format, for lookups by name.
pub const FORMATS: [Format; 11] = [F64, F32, TF32, F16, BF16, E5M2, E4M3, E2M3, E3M2, E2M1, UE8M0];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_the_reference_facts() {
        assert_eq!(F16.max_finite_bits(), 0x7BFF);
        assert_eq!(BF16.max_finite_bits(), 0x7F7F);
        assert_eq!(E4M3.max_finite_bits(), 0x7E);
        assert_eq!(E5M2.max_finite_bits(), 0x7B);
        assert_eq!(E2M3.max_finite_bits(), 0x1F);
        assert_eq!(E3M2.max_finite_bits(), 0x1F);
        assert_eq!(E2M1.max_finite_bits(), 0x7);
        assert_eq!(UE8M0.max_finite_bits(), 0xFE);
        assert_eq!(F16.canonical_nan_bits(), Some(0x7FFF));
        assert_eq!(E4M3.canonical_nan_bits(), Some(0x7F));
        assert_eq!(E5M2.inf_bits(), Some(0x7C));
        assert_eq!(E2M1.emin(), 0);
        assert_eq!(E3M2.emin(), -2);
        assert_eq!(UE8M0.emin(), -127);
    }
}
