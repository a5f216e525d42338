//! Named allowances: the places where the oracle accepts more than one result, each with its
//! evidence. Switching one off makes the oracle demand the single value named in its
//! `strict` text, so a user can ask "does the hardware also do the canonical thing?".

use std::collections::BTreeSet;
use std::fmt;

/// One allowance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Allowance {
    /// A float result of a NaN input whose bits the spec does not fix: any NaN of the format.
    NanPayload,
    /// `cvt.f32.bf16` of a NaN: "NaN input yields unspecified NaN".
    CvtF32Bf16Nan,
    /// FP6 sources with nonzero top bits: the spec only defines inputs "with 2 MSB bits 0".
    Fp6PaddingBits,
    /// Results of a program that broke a rule (a shuffle reading an inactive or non-member
    /// lane, a thread outside `membermask`, `cvta.to` of an address outside the window):
    /// anything. Not switchable.
    Undefined,
    /// Address values that depend on where the implementation places state-space windows
    /// (`cvta`, `isspacep`, `mapa`, `getctarank`, `mov d, avar`).
    AddressWindow,
    /// `cvt.ftz.f16.f32` on sm_90 rounds subnormal f32 inputs instead of flushing them
    /// (hardware deviates from §9.7.9.21; evidence in corpus/evidence/).
    CvtFtzF16Input,
}

impl Allowance {
    /// Every allowance.
    pub const ALL: [Allowance; 6] = [
        Allowance::NanPayload,
        Allowance::CvtF32Bf16Nan,
        Allowance::Fp6PaddingBits,
        Allowance::Undefined,
        Allowance::AddressWindow,
        Allowance::CvtFtzF16Input,
    ];

    /// The name the command line takes.
    pub fn name(self) -> &'static str {
        match self {
            Allowance::NanPayload => "nan-payload",
            Allowance::CvtF32Bf16Nan => "cvt-f32-bf16-nan",
            Allowance::Fp6PaddingBits => "fp6-padding-bits",
            Allowance::Undefined => "undefined",
            Allowance::AddressWindow => "address-window",
            Allowance::CvtFtzF16Input => "cvt-ftz-f16-input",
        }
    }

    /// The allowance called `name`.
    pub fn from_name(name: &str) -> Option<Allowance> {
        Self::ALL.into_iter().find(|a| a.name() == name)
    }

    /// What is allowed.
    pub fn description(self) -> &'static str {
        match self {
            Allowance::NanPayload => {
                "a conversion of a NaN to a float format without .relu may give any NaN of the destination format"
            }
            Allowance::CvtF32Bf16Nan => "cvt.f32.bf16 of a NaN may give any f32 NaN",
            Allowance::Fp6PaddingBits => {
                "cvt.f16x2.{e2m3x2,e3m2x2} of a byte whose two top bits are not zero may give anything in that half"
            }
            Allowance::Undefined => {
                "an instruction whose behaviour the spec leaves undefined for these operands (a shfl lane reading an inactive or non-member lane, a lane outside its own membermask, cvta.to/mapa/getctarank of an address outside the window) may give anything"
            }
            Allowance::AddressWindow => "an address value that depends on where the state-space windows lie may be anything",
            Allowance::CvtFtzF16Input => {
                "cvt.{rn,rz,rm,rp}.ftz{.sat}.f16.f32 of a subnormal f32 may give the rounded subnormal value (as without .ftz) instead of the flushed result"
            }
        }
    }

    /// Why: the spec text or recorded evidence.
    pub fn evidence(self) -> &'static str {
        match self {
            Allowance::NanPayload => {
                "§9.7.9.21 fixes NaN results only for .relu (canonical NaN) and .satfinite to FP6/FP4 (+MAX_NORM); \
                 it says nothing about payload or sign otherwise (an H100 gives 0x7FFF for every NaN in cvt.rn.f16.f32, \
                 ../shared/REFERENCES.md)"
            }
            Allowance::CvtF32Bf16Nan => "§9.7.9.21 Notes: \"For cvt.f32.bf16, NaN input yields unspecified NaN.\"",
            Allowance::Fp6PaddingBits => {
                "§9.7.9.21: \"Each 8-bit input value with 2 MSB bits 0 in operand a is converted to .f16\"; other inputs are undefined"
            }
            Allowance::Undefined => {
                "§9.7.9.6: \"results are undefined if a thread sources a register from an inactive thread or a thread that is not in membermask\"; \"the behavior of shfl.sync is undefined if the executing thread is not in the membermask\"; §9.7.9.20: \"the resulting address is undefined in cases where the generic address does not fall within the address window\""
            }
            Allowance::AddressWindow => {
                "§9.7.9.19/20/23/24 fix only relations (cvta round trips, isspacep of converted addresses, mapa/getctarank inverses), not where windows lie"
            }
            Allowance::CvtFtzF16Input => {
                "§9.7.9.21 says .ftz flushes single-precision subnormal inputs; an H200 (sm_90, driver 580.159.04, ptxas 13.0.88, -O0/-O3 and driver JIT alike) does not for .f16 results: corpus/evidence/cvt-ftz-f16-input.md"
            }
        }
    }

    /// What the oracle demands when the allowance is off.
    pub fn strict(self) -> &'static str {
        match self {
            Allowance::NanPayload | Allowance::CvtF32Bf16Nan => "the canonical NaN (sign 0, all ones)",
            Allowance::Fp6PaddingBits => "the conversion of the low 6 bits, ignoring the padding",
            Allowance::Undefined => "cannot be switched off: the behaviour is undefined",
            Allowance::AddressWindow => "the values of the oracle's address model (semantics::address::AddressModel)",
            Allowance::CvtFtzF16Input => "the spec's flush: a subnormal f32 input converts as ±0",
        }
    }

    /// The recorded hardware evidence under `corpus/`, for allowances that exist because
    /// hardware deviates from the spec text.
    pub fn evidence_file(self) -> Option<&'static str> {
        match self {
            Allowance::CvtFtzF16Input => Some("corpus/evidence/cvt-ftz-f16-input.md"),
            _ => None,
        }
    }

    /// Whether switching the allowance off means anything (undefined behaviour has no single
    /// value to demand).
    pub fn switchable(self) -> bool {
        self != Allowance::Undefined
    }
}

impl fmt::Display for Allowance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The set of allowances in force (all by default).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Allowances {
    off: BTreeSet<Allowance>,
}

impl Allowances {
    /// Every allowance on.
    pub fn all() -> Self {
        Self::default()
    }
    /// Every allowance off: the oracle demands one value everywhere.
    pub fn none() -> Self {
        Allowances { off: Allowance::ALL.into_iter().filter(|a| a.switchable()).collect() }
    }
    /// Switches `a` off; allowances that are not [switchable](Allowance::switchable) stay on.
    pub fn disable(&mut self, a: Allowance) {
        if a.switchable() {
            self.off.insert(a);
        }
    }
    /// Whether `a` is on.
    pub fn allows(&self, a: Allowance) -> bool {
        !self.off.contains(&a)
    }
}
