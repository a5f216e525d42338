//! Named allowances: the places where the oracle accepts more than one result, each with its
//! evidence. Switching one off makes the oracle demand the single value named in its
//! `strict` text, so a user can ask "does the hardware also do the canonical thing?".

use std::collections::BTreeSet;
use std::fmt;

use super::deviation::Deviation;

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
    /// `cvt.ftz.f32.f64` of a value that rounds up to ±2^-126 but is tiny by IEEE 754's
    /// "after rounding" rule (rounded to 24 bits with an unbounded exponent it stays below
    /// 2^-126): sm_90 flushes it; §9.7.9.21 does not say when a result is subnormal
    /// (evidence in corpus/evidence/).
    CvtFtzIeeeTininess,
    /// A bulk reduction (`cp.reduce.async.bulk{.tensor}`) float `.add`/`.min`/`.max` whose result
    /// is a NaN: §9.7.9.25.4.2 does not say which NaN.
    ReduceNanPayload,
    /// Bulk reduction `.min`/`.max` of `+0` and `−0`: §9.7.9.25.4.2 does not say which zero.
    ReduceMinMaxZero,
    /// An out-of-bounds element of a tensor tile load under NAN_REQUEST_ZERO_FMA: any NaN
    /// (cuda.h promises "a special NaN constant"; the H100's bytes are in corpus/evidence/).
    TmaOobNanFill,
    /// A tensor tile store (`cp.async.bulk.tensor…global.shared::cta`) whose box passes the end
    /// of dimension 0: the H100 also writes the out-of-bounds elements that share the last
    /// 16-byte chunk with in-bounds ones (evidence in corpus/evidence/).
    TmaStoreOobChunk,
    /// The cache policy `createpolicy` writes: an opaque 64-bit value (§9.7.9.18) that only
    /// `.L2::cache_hint` operands read. Not switchable.
    CachePolicy,
    /// What a read of a line after `discard` gives: an unstable indeterminate value
    /// (§9.7.9.17). Not switchable.
    Discarded,
    /// `bfe`/`bfi` of a 64-bit type whose position or length (a register) is above 255:
    /// §9.7.1.19–20 restrict both to 0..255 and read their low byte, ptxas's 64-bit expansion
    /// uses the whole value.
    BitFieldWideOperand,
    /// `tensormap.cp_fenceproxy` executed by a warp of fewer than 32 threads (a CTA of fewer
    /// threads, or the last warp of one whose size is not a multiple of 32): ptxas lowers it as
    /// each lane copying its own 4 bytes, so only the present lanes' words of the object are
    /// copied, and a tensor copy through the destination may trap.
    CpFenceproxyWholeWarp,
}

impl Allowance {
    /// Every allowance.
    pub const ALL: [Allowance; 15] = [
        Allowance::NanPayload,
        Allowance::CvtF32Bf16Nan,
        Allowance::Fp6PaddingBits,
        Allowance::Undefined,
        Allowance::AddressWindow,
        Allowance::CvtFtzF16Input,
        Allowance::CvtFtzIeeeTininess,
        Allowance::ReduceNanPayload,
        Allowance::ReduceMinMaxZero,
        Allowance::TmaOobNanFill,
        Allowance::TmaStoreOobChunk,
        Allowance::CachePolicy,
        Allowance::Discarded,
        Allowance::BitFieldWideOperand,
        Allowance::CpFenceproxyWholeWarp,
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
            Allowance::CvtFtzIeeeTininess => "cvt-ftz-ieee-tininess",
            Allowance::ReduceNanPayload => "reduce-nan-payload",
            Allowance::ReduceMinMaxZero => "reduce-min-max-zero",
            Allowance::TmaOobNanFill => "tma-oob-nan-fill",
            Allowance::TmaStoreOobChunk => "tma-store-oob-chunk",
            Allowance::CachePolicy => "cache-policy",
            Allowance::Discarded => "discarded",
            Allowance::BitFieldWideOperand => "bit-field-wide-operand",
            Allowance::CpFenceproxyWholeWarp => "cp-fenceproxy-whole-warp",
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
            Allowance::CvtFtzIeeeTininess => {
                "cvt.{rn,rm,rp}.ftz{.sat}.f32.f64 of a value that rounds to ±2^-126 may give ±0 where, rounded to 24 bits with an unbounded exponent, it is below 2^-126 (IEEE 754 tininess after rounding)"
            }
            Allowance::ReduceNanPayload => {
                "a cp.reduce.async.bulk{.tensor} .add/.min/.max element whose result is a NaN may be any NaN of its type"
            }
            Allowance::ReduceMinMaxZero => {
                "cp.reduce.async.bulk{.tensor} .min/.max of +0 and -0 may give either zero"
            }
            Allowance::TmaOobNanFill => {
                "an out-of-bounds element of a NAN_REQUEST_ZERO_FMA tile (cp.async.bulk.tensor load) may be any NaN of the map's type"
            }
            Allowance::TmaStoreOobChunk => {
                "a tensor tile store or reduction may also write the out-of-bounds elements of dimension 0 that lie in the last 16-byte chunk holding in-bounds elements of their row"
            }
            Allowance::CachePolicy => "the cache policy createpolicy writes may be any 64-bit value",
            Allowance::Discarded => "a read of memory that discard wrote and nothing overwrote since may give any value",
            Allowance::BitFieldWideOperand => {
                "bfe.{u64,s64} or bfi.b64 whose position or length operand is above 255 may give anything"
            }
            Allowance::CpFenceproxyWholeWarp => {
                "tensormap.cp_fenceproxy executed by a warp of fewer than 32 threads is undefined (what it copies, and any tensor copy through its destination, may be anything, a trap included)"
            }
        }
    }

    /// Why: the spec text or recorded evidence.
    pub fn evidence(self) -> &'static str {
        match self {
            Allowance::NanPayload => {
                "§9.7.9.21 fixes NaN results only for .relu (canonical NaN) and .satfinite to FP6/FP4 (+MAX_NORM); \
                 it says nothing about payload or sign otherwise (an H100, sm_90, driver 580.159, gives 0x7FFF for every NaN \
                 input of cvt.rn.f16.f32: `ptxdiff conform --forms cvt.rn.f16.f32 --exhaustive --allow-off nan-payload` shows it)"
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
            Allowance::CvtFtzIeeeTininess => {
                "§9.7.9.21 says .ftz flushes subnormal f32 results to sign-preserving zero, not how a result is judged subnormal (IEEE 754 allows tininess before or after rounding); an H100 (sm_90, driver 580.159.04, ptxas 13.0.88 and 13.5.37 at -O0/-O3, and the driver JIT) flushes by IEEE's after-rounding rule: corpus/evidence/cvt-ftz-ieee-tininess.md"
            }
            Allowance::ReduceNanPayload => {
                "§9.7.9.25.4.2 says only that float .add rounds to nearest even and how subnormals are treated; it fixes no NaN result"
            }
            Allowance::ReduceMinMaxZero => {
                "§9.7.9.25.4.2 lists .min/.max for .f16/.bf16 without saying how +0 and -0 compare"
            }
            Allowance::TmaOobNanFill => {
                "cuda.h (cuTensorMapEncodeTiled) says only that NAN_REQUEST_ZERO_FMA fills out-of-bound elements with \"a special NaN constant\", §5.5.8 calls it \"OOB-NaN fill\"; an H100 (sm_90, driver 580.159.04) writes the bytes f7 7f repeated for every float type: corpus/evidence/tma-tile-loads.md"
            }
            Allowance::TmaStoreOobChunk => {
                "§9.7.9.25.5 does not say what a tile store does with elements past the end of dimension 0 (only that loads fill them); an H100 (sm_90, driver 580.159.04) writes (and reduces into) those in the row's last 16-byte chunk that holds in-bounds elements: corpus/evidence/tma-tile-stores.md"
            }
            Allowance::CachePolicy => {
                "§9.7.9.18: \"The createpolicy instruction creates a cache eviction policy for the specified cache level in an opaque 64-bit register\""
            }
            Allowance::Discarded => {
                "§9.7.9.17: discard \"behaves like a weak write of an unstable indeterminate value: reads of memory locations with unstable indeterminate values may return different bit patterns each time until the memory is overwritten\""
            }
            Allowance::BitFieldWideOperand => {
                "§9.7.1.19/20: b and c \"are restricted to the 8-bit value range 0..255\", and the pseudocode reads pos = b & 0xff, len = c & 0xff; \
                 ptxas 13.0.88 (-O0, -O3) and the JIT expand the 64-bit forms with the whole 32-bit value (SHF.L.U32 R11, 1, len; IADD3 -1; SHF.R.U64 a, pos), \
                 and an H200 (driver 580.159.04) gave other words for len = 0x08000000 and 0x80000000: corpus/findings/fuzz-h200-3201/README.md, row 12 \
                 (the 32-bit forms mask, as the pseudocode says)"
            }
            Allowance::CpFenceproxyWholeWarp => {
                "§9.7.13.16 has every thread of the warp execute it (.sync.aligned) and copies `size` bytes, without saying what a warp of fewer than 32 threads copies; \
                 ptxas 13.0.88 and 13.5 lower it as LDS R, [src + laneid*4]; ATOMG.E.EXCH [dst + laneid*4], R (one word per lane), \
                 and on an H200 (driver 580.159.04) a 1-thread CTA's copy into a fresh buffer made the tile load through it raise CUDA_ERROR_ILLEGAL_INSTRUCTION \
                 while a 32-thread warp's agreed with the oracle: corpus/findings/cp-fenceproxy-partial-warp.md"
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
            Allowance::CvtFtzIeeeTininess => "a result that rounds to ±2^-126 is normal and kept",
            Allowance::ReduceNanPayload => "the canonical NaN (sign 0, all ones)",
            Allowance::ReduceMinMaxZero => "IEEE 754-2019 minimum/maximum: -0 for .min, +0 for .max",
            Allowance::TmaOobNanFill => {
                "the H100's fill, the bytes f7 7f repeated (memory::tensor_map::NAN_FILL_PATTERN): 0x7ff7 (f16, bf16), 0x7ff77ff7 (f32, tf32), 0x7ff77ff77ff77ff7 (f64)"
            }
            Allowance::TmaStoreOobChunk => "only in-bounds elements are written or reduced: memory past the end of dimension 0 keeps its bytes",
            Allowance::CachePolicy => "cannot be switched off: the policy's encoding is opaque",
            Allowance::Discarded => "cannot be switched off: the spec fixes no value",
            Allowance::BitFieldWideOperand => "the pseudocode's reading: the low byte of the position and of the length",
            Allowance::CpFenceproxyWholeWarp => "the whole 128-byte object is copied, whatever the warp's size",
        }
    }

    /// The recorded hardware evidence under `corpus/`, for allowances that exist because
    /// hardware deviates from the spec text.
    pub fn evidence_file(self) -> Option<&'static str> {
        match self {
            Allowance::CvtFtzF16Input => Some("corpus/evidence/cvt-ftz-f16-input.md"),
            Allowance::CvtFtzIeeeTininess => Some("corpus/evidence/cvt-ftz-ieee-tininess.md"),
            Allowance::TmaOobNanFill => Some("corpus/evidence/tma-tile-loads.md"),
            Allowance::TmaStoreOobChunk => Some("corpus/evidence/tma-tile-stores.md"),
            Allowance::CpFenceproxyWholeWarp => Some("corpus/findings/cp-fenceproxy-partial-warp.md"),
            _ => None,
        }
    }

    /// Whether switching the allowance off means anything (undefined behaviour has no single
    /// value to demand).
    pub fn switchable(self) -> bool {
        !matches!(self, Allowance::Undefined | Allowance::CachePolicy | Allowance::Discarded)
    }
}

impl fmt::Display for Allowance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The set of allowances in force (all by default), and the known deviations (hardware or
/// compiler) the oracle emulates for triage (none by default; see [`Deviation`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Allowances {
    off: BTreeSet<Allowance>,
    emulated: BTreeSet<Deviation>,
}

impl Allowances {
    /// Every allowance on.
    pub fn all() -> Self {
        Self::default()
    }
    /// Every allowance off: the oracle demands one value everywhere.
    pub fn none() -> Self {
        Allowances { off: Allowance::ALL.into_iter().filter(|a| a.switchable()).collect(), emulated: BTreeSet::new() }
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
    /// These allowances with the oracle emulating the known deviation `d` instead of the
    /// spec's reading: for triage only (is a difference wholly `d`?), never for a verdict.
    pub fn emulating(mut self, d: Deviation) -> Self {
        self.emulated.insert(d);
        self
    }
    /// Whether the oracle emulates the deviation `d`.
    pub fn emulates(&self, d: Deviation) -> bool {
        self.emulated.contains(&d)
    }
    /// These allowances emulating every deviation of `ds` (see [`Allowances::emulating`]).
    pub fn emulating_all(self, ds: impl IntoIterator<Item = Deviation>) -> Self {
        ds.into_iter().fold(self, Allowances::emulating)
    }
    /// The deviations emulated, in triage order.
    pub fn emulated(&self) -> impl Iterator<Item = Deviation> + '_ {
        self.emulated.iter().copied()
    }

    /// Every allowance on except those `names` switch off (as the command line's `--allow-off`
    /// gives them; empty names are ignored). The one parser of allowance names: an unknown
    /// name, or one that cannot be switched off, is an error that says what is valid.
    pub fn from_off<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> Result<Self, AllowanceError> {
        let mut a = Allowances::all();
        for name in names {
            let name = name.as_ref().trim();
            if name.is_empty() {
                continue;
            }
            match Allowance::from_name(name) {
                Some(x) if x.switchable() => a.disable(x),
                Some(_) => return Err(AllowanceError::NotSwitchable(name.to_string())),
                None => return Err(AllowanceError::Unknown(name.to_string())),
            }
        }
        Ok(a)
    }

    /// The names of the allowances switched off, in a fixed order: what [`Allowances::from_off`]
    /// takes back (to carry the set across a process boundary).
    pub fn off_names(&self) -> Vec<&'static str> {
        self.off.iter().map(|a| a.name()).collect()
    }
}

/// The valid names of switchable allowances, comma-separated, for error messages.
fn switchable_names() -> String {
    Allowance::ALL.iter().filter(|a| a.switchable()).map(|a| a.name()).collect::<Vec<_>>().join(", ")
}

/// A bad `--allow-off` name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AllowanceError {
    /// No allowance has this name.
    #[error("unknown allowance `{0}`; valid names: {names} (see `ptxdiff allowances`)", names = switchable_names())]
    Unknown(String),
    /// The allowance covers undefined behaviour: no single value can be demanded.
    #[error("allowance `{0}` cannot be switched off: the behaviour it covers is undefined, so no single value can be demanded; valid names: {names}", names = switchable_names())]
    NotSwitchable(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_off_round_trips_and_rejects_bad_names() {
        let a = Allowances::from_off(["nan-payload", "", "cvt-ftz-f16-input"]).unwrap();
        assert!(!a.allows(Allowance::NanPayload) && !a.allows(Allowance::CvtFtzF16Input));
        assert!(a.allows(Allowance::AddressWindow));
        assert_eq!(Allowances::from_off(a.off_names()).unwrap(), a);
        let e = Allowances::from_off(["bogus"]).unwrap_err().to_string();
        assert!(e.contains("bogus") && e.contains("nan-payload") && e.contains("address-window"), "{e}");
        assert!(matches!(Allowances::from_off(["undefined"]), Err(AllowanceError::NotSwitchable(_))));
    }
}
