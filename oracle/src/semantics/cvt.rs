//! Semantics of `cvt` (§9.7.9.21) for every form the ISA model admits.
//!
//! Each conversion decodes the source exactly, applies the instruction's rules (`.ftz` input
//! flush, NaN rules, `.relu`, `.sat`, `.satfinite`), rounds once with the shared engine
//! ([`crate::num::encode`]) and packs the lanes as the Semantics block of §9.7.9.21 lays them out.
//! Results are [`Expected`] values: exact except where an [`Allowance`] grants freedom.
//!
//! This module is the one home of the facts every other part of the project asks about a
//! `cvt`: the element format, lane count and lane width of each type ([`element`]), where each
//! destination lane reads its source and random bits ([`lanes`]), which [`Rounding`] a
//! modifier means ([`rounding`]), and which rule decided each lane ([`eval_explained`], the
//! same code path as [`eval`], so an explanation cannot disagree with the result).

use crate::isa::qualifier::Qualifier;
use crate::isa::{Cvt, CvtRnd, CvtType};
use crate::num::{
    self, decode, encode, round_to_integer, round_to_integral, Class, Encoded, Format, Overflow, Rounding, Value, E2M1,
    E2M3, E3M2, E4M3, E5M2, TF32, UE8M0,
};

use super::{Allowance, Allowances, Constraint, Expected, Free};

/// The source operands of one `cvt`, as raw bits at their instruction-type widths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CvtInputs {
    /// `a`.
    pub a: u64,
    /// `b` (x2 forms from two `.f32`).
    pub b: u64,
    /// `e` (x4 forms).
    pub e: u64,
    /// `f` (x4 forms).
    pub f: u64,
    /// `rbits` (`.rs`).
    pub rbits: u32,
}

/// How the elements of a float `cvt` type sit in its register: `lanes` elements of `format`,
/// each `lane_bits` wide, element `k` (0 the lowest) at bit `lsb + k × lane_bits`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Element {
    /// The element's number format.
    pub format: &'static Format,
    /// Elements per register (1, 2 or 4).
    pub lanes: u32,
    /// Bits per element slot (at least the format's width: FP6 elements have two padding bits).
    pub lane_bits: u32,
    /// Lowest bit of element 0 (13 for `.tf32`, which keeps f32's layout with the low 13 bits
    /// zero; 0 otherwise).
    pub lsb: u32,
}

/// The elements of float type `t` (§9.7.9.21 Semantics); `None` for integer types.
#[inline]
pub fn element(t: CvtType) -> Option<Element> {
    ELEMENTS[t as usize]
}

/// [`element_of`] of every type, by discriminant (a table: [`eval`] asks on every call).
static ELEMENTS: [Option<Element>; <CvtType as Qualifier>::ALL.len()] = {
    let all = <CvtType as Qualifier>::ALL;
    let mut table = [None; <CvtType as Qualifier>::ALL.len()];
    let mut k = 0;
    while k < all.len() {
        table[all[k] as usize] = element_of(all[k]);
        k += 1;
    }
    table
};

/// The one mapping from a `cvt` type to its elements.
const fn element_of(t: CvtType) -> Option<Element> {
    use CvtType::*;
    const fn e(format: &'static Format, lanes: u32, lane_bits: u32) -> Element {
        Element { format, lanes, lane_bits, lsb: 0 }
    }
    Some(match t {
        F64 => e(&num::F64, 1, 64),
        F32 => e(&num::F32, 1, 32),
        F16 => e(&num::F16, 1, 16),
        Bf16 => e(&num::BF16, 1, 16),
        Tf32 => Element { format: &TF32, lanes: 1, lane_bits: 19, lsb: 13 },
        F16x2 => e(&num::F16, 2, 16),
        Bf16x2 => e(&num::BF16, 2, 16),
        E4m3x2 => e(&E4M3, 2, 8),
        E5m2x2 => e(&E5M2, 2, 8),
        E2m3x2 => e(&E2M3, 2, 8),
        E3m2x2 => e(&E3M2, 2, 8),
        E2m1x2 => e(&E2M1, 2, 4),
        Ue8m0x2 => e(&UE8M0, 2, 8),
        E4m3x4 => e(&E4M3, 4, 8),
        E5m2x4 => e(&E5M2, 4, 8),
        E2m3x4 => e(&E2M3, 4, 8),
        E3m2x4 => e(&E3M2, 4, 8),
        E2m1x4 => e(&E2M1, 4, 4),
        U8 | U16 | U32 | U64 | S8 | S16 | S32 | S64 => return None,
    })
}

/// The float format of a scalar or element type.
pub fn format_of(t: CvtType) -> Option<&'static Format> {
    element(t).map(|e| e.format)
}

/// The rounding a modifier names (§9.7.9.21 Rounding modifiers; the integer modifiers round
/// the same ways). No modifier: round to nearest even (the conversions without one are exact,
/// or round that way). `None` for `.rs`, whose rounding depends on each lane's random bits
/// ([`Lane::rbits`]).
pub fn rounding(r: Option<CvtRnd>) -> Option<Rounding> {
    Some(match r {
        Some(CvtRnd::Rn | CvtRnd::Rni) | None => Rounding::NearestEven,
        Some(CvtRnd::Rna) => Rounding::NearestAway,
        Some(CvtRnd::Rz | CvtRnd::Rzi) => Rounding::TowardZero,
        Some(CvtRnd::Rm | CvtRnd::Rmi) => Rounding::Down,
        Some(CvtRnd::Rp | CvtRnd::Rpi) => Rounding::Up,
        Some(CvtRnd::Rs) => return None,
    })
}

/// A source operand of `cvt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// `a`.
    A,
    /// `b`.
    B,
    /// `e`.
    E,
    /// `f`.
    F,
}

impl Slot {
    /// The operand's name.
    pub fn name(self) -> &'static str {
        match self {
            Slot::A => "a",
            Slot::B => "b",
            Slot::E => "e",
            Slot::F => "f",
        }
    }

    fn bits(self, x: &CvtInputs) -> u64 {
        match self {
            Slot::A => x.a,
            Slot::B => x.b,
            Slot::E => x.e,
            Slot::F => x.f,
        }
    }
}

/// Where a destination lane reads its source element: `width` bits at `shift` of `slot`, in
/// `format` (`None` for an integer source).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneSource {
    /// The operand.
    pub slot: Slot,
    /// Lowest bit of the element in the operand.
    pub shift: u32,
    /// Bits of the element's slot.
    pub width: u32,
    /// The element's format.
    pub format: Option<&'static Format>,
}

impl LaneSource {
    /// The element's bits in `x`.
    pub fn bits(&self, x: &CvtInputs) -> u64 {
        (self.slot.bits(x) >> self.shift) & mask(self.width)
    }
}

/// One lane of a `cvt` destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lane {
    /// Lowest bit of the lane in the destination.
    pub shift: u32,
    /// Bits of the lane.
    pub width: u32,
    /// The lane's format (`None` for an integer destination).
    pub format: Option<&'static Format>,
    /// Where its source element is.
    pub source: LaneSource,
    /// Under `.rs`: the lane's random bits are `width` bits at `shift` of `rbits`
    /// (`(shift, width)`; §9.7.9.21, Figure 40 for `.e2m1x4`).
    pub rbits: (u32, u32),
}

/// The lanes of form `c`'s destination, highest first. Sources: the lanes of a packed source
/// in the same positions, else one `.f32` operand per lane (`a` the highest, then `b`, `e`,
/// `f`), else `a` for a scalar.
pub fn lanes(c: &Cvt) -> impl Iterator<Item = Lane> {
    let c = *c;
    let (d, a) = (element(c.dtype), element(c.atype));
    (0..d.map_or(1, |d| d.lanes)).rev().map(move |k| lane(&c, d, a, k))
}

/// Under `.rs`, the random bits of the lane of destination type `d` whose source is `slot`:
/// `(shift, width)` in `rbits` (§9.7.9.21, Figure 40 for `.e2m1x4`).
#[inline(always)]
fn rbits_field(d: CvtType, slot: Slot) -> (u32, u32) {
    match (d, slot) {
        // f16x2/bf16x2: rbits[31:16] for a, rbits[15:0] for b; f16 uses 13 of them.
        (CvtType::F16x2, Slot::A) => (16, 13),
        (CvtType::F16x2, _) => (0, 13),
        (CvtType::Bf16x2, Slot::A) => (16, 16),
        (CvtType::Bf16x2, _) => (0, 16),
        // e2m1x4: the upper byte of each 16-bit half for a, b; the lower byte for e, f.
        (CvtType::E2m1x4, Slot::A) => (24, 8),
        (CvtType::E2m1x4, Slot::B) => (8, 8),
        (CvtType::E2m1x4, Slot::E) => (16, 8),
        (CvtType::E2m1x4, Slot::F) => (0, 8),
        // FP8/FP6 x4: the upper 16 bits for a and b, the lower 16 for e and f.
        (_, Slot::A | Slot::B) => (16, 16),
        (_, Slot::E | Slot::F) => (0, 16),
    }
}

/// Lane `k` (0 the lowest) of `c`, whose destination and source elements are `d` and `a`
/// (inlined into [`eval`], which then computes only the fields it uses).
#[inline(always)]
fn lane(c: &Cvt, d: Option<Element>, a: Option<Element>, k: u32) -> Lane {
    let n = d.map_or(1, |d| d.lanes);
    let (shift, width, format) = match d {
        Some(d) => (d.lsb + k * d.lane_bits, d.lane_bits, Some(d.format)),
        None => (0, c.dtype.bits(), None),
    };
    let source = match a {
        Some(a) if a.lanes == n => {
            LaneSource { slot: Slot::A, shift: a.lsb + k * a.lane_bits, width: a.lane_bits, format: Some(a.format) }
        }
        Some(a) => LaneSource {
            slot: [Slot::A, Slot::B, Slot::E, Slot::F][(n - 1 - k) as usize],
            shift: 0,
            width: a.lane_bits,
            format: Some(a.format),
        },
        None => LaneSource { slot: Slot::A, shift: 0, width: c.atype.bits(), format: None },
    };
    let rbits = rbits_field(c.dtype, source.slot);
    Lane { shift, width, format, source, rbits }
}

/// The rule of §9.7.9.21 that decided one lane of a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The value is representable: converted exactly.
    Exact,
    /// Rounded by this rounding into a float format (Floating Point Notes, `.rs`).
    Rounded(Rounding),
    /// Rounded to an integral value by an integer modifier (`.rni .rzi .rmi .rpi`; Integer
    /// Notes), into an integer or the same float type.
    Integral(Rounding),
    /// A finite value rounded past MAX_NORM: ±∞, or ±MAX_NORM where the direction or the
    /// format says so (IEEE 754 overflow).
    Overflow,
    /// `.satfinite`: |x| beyond MAX_NORM (∞ included) becomes the sign-preserved MAX_NORM.
    SatfiniteClamp,
    /// `.sat`: clamped to [0.0, 1.0].
    SatUnit,
    /// `.sat`: a NaN becomes +0.
    SatNan,
    /// `.relu`: a negative result becomes +0.
    Relu,
    /// `.relu`: a NaN becomes the canonical NaN.
    ReluNan,
    /// A NaN into a format without NaN (`.satfinite` to FP6/FP4): +MAX_NORM.
    NanToMaxNorm,
    /// A NaN into UE8M0: its only NaN, 0xFF.
    NanUe8m0,
    /// A NaN whose result bits the spec does not fix: any NaN under this allowance.
    NanInput(Allowance),
    /// The same NaN with that allowance switched off: exactly what the oracle then demands
    /// ([`Allowance::strict`]).
    NanStrict(Allowance),
    /// `.ftz`: a subnormal `.f32` input is flushed to the zero of its sign.
    FtzInput,
    /// `.ftz`: a subnormal `.f32` result is flushed to the zero of its sign.
    FtzResult,
    /// Integer to integer: sign- or zero-extended, then truncated to the destination width.
    IntTruncate,
    /// Clamped to the integer destination's range (`.sat` between integers; always from
    /// floats).
    IntClamp,
    /// A NaN to an integer: 0, or 1 << (n−1) from `.f64` or to a 64-bit destination.
    NanToInt,
}

impl Rule {
    /// The rule as a person reads it, with its section.
    pub fn text(self) -> String {
        match self {
            Rule::Exact => "exact conversion (§9.7.9.21)".into(),
            Rule::Rounded(Rounding::Stochastic { .. }) => {
                ".rs: stochastic rounding by the carry of rbits + discarded bits (§9.7.9.21)".into()
            }
            Rule::Rounded(r) => format!("rounded {} (§9.7.9.21 Floating Point Notes)", rounding_text(r)),
            Rule::Integral(r) => {
                format!("rounded to an integral value {} (§9.7.9.21 Integer Notes)", rounding_text(r))
            }
            Rule::Overflow => {
                "overflow: rounds past MAX_NORM to ±infinity or ±MAX_NORM by direction (§9.7.9.21, IEEE 754)".into()
            }
            Rule::SatfiniteClamp => {
                ".satfinite: |x| > MAX_NORM becomes sign-preserved MAX_NORM (§9.7.9.21 Saturation modifier)".into()
            }
            Rule::SatUnit => ".sat: clamped to [0.0, 1.0] (§9.7.9.21 Saturation modifier)".into(),
            Rule::SatNan => ".sat: NaN results become +0 (§9.7.9.21 Saturation modifier)".into(),
            Rule::Relu => ".relu: negative results become +0 (§9.7.9.21)".into(),
            Rule::ReluNan => ".relu: NaN results become the canonical NaN (§9.7.9.21)".into(),
            Rule::NanToMaxNorm => ".satfinite: NaN becomes +MAX_NORM for FP6/FP4 destinations (§9.7.9.21)".into(),
            Rule::NanUe8m0 => "NaN: UE8M0's only NaN, 0xff (§9.7.9.21)".into(),
            Rule::NanInput(Allowance::CvtF32Bf16Nan) => {
                "NaN input yields unspecified NaN (§9.7.9.21 Notes) [allowance cvt-f32-bf16-nan]".into()
            }
            Rule::NanInput(a) => {
                format!("NaN input: the NaN's bits are not fixed by §9.7.9.21 [allowance {}]", a.name())
            }
            Rule::NanStrict(a) => {
                format!("NaN input: {}, as demanded when the NaN's bits are not left free (§9.7.9.21)", a.strict())
            }
            Rule::FtzInput => ".ftz: subnormal f32 input flushed to sign-preserving zero (§9.7.9.21)".into(),
            Rule::FtzResult => ".ftz: subnormal f32 result flushed to sign-preserving zero (§9.7.9.21)".into(),
            Rule::IntTruncate => {
                "int-to-int: sign/zero-extended, then truncated to the destination width (§9.7.9.21)".into()
            }
            Rule::IntClamp => "clamped to the destination range (§9.7.9.21 Integer Notes, Saturation modifier)".into(),
            Rule::NanToInt => "NaN gives 0, or 1<<(n-1) from .f64 or to 64-bit (§9.7.9.21 Integer Notes)".into(),
        }
    }
}

fn rounding_text(r: Rounding) -> &'static str {
    match r {
        Rounding::NearestEven => "to nearest, ties to even",
        Rounding::NearestAway => "to nearest, ties away from zero",
        Rounding::TowardZero => "toward zero",
        Rounding::Down => "toward -infinity",
        Rounding::Up => "toward +infinity",
        Rounding::Stochastic { .. } => "stochastically",
    }
}

/// One lane of a result and the rule that decided it ([`eval_explained`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneRule {
    /// The lane.
    pub lane: Lane,
    /// The rule.
    pub rule: Rule,
}

/// A result with the rule of every lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explained {
    /// The result, equal to [`eval`]'s.
    pub expected: Expected,
    /// Every lane, highest first.
    pub lanes: Vec<LaneRule>,
}

/// Where [`eval_with`] puts the rules: nowhere for [`eval`] (compiled away), a list for
/// [`eval_explained`].
trait Record {
    /// Whether rules are kept (callers skip work that only explains).
    const ON: bool;
    fn lane(&mut self, lane: Lane, rule: Rule);
}

struct Ignore;

impl Record for Ignore {
    const ON: bool = false;
    #[inline(always)]
    fn lane(&mut self, _: Lane, _: Rule) {}
}

impl Record for Vec<LaneRule> {
    const ON: bool = true;
    fn lane(&mut self, lane: Lane, rule: Rule) {
        self.push(LaneRule { lane, rule });
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The integer an integer-typed operand holds (sign- or zero-extended).
fn int_value(t: CvtType, bits: u64) -> i128 {
    let w = t.bits();
    let v = bits & mask(w);
    if t.is_signed_int() && (v >> (w - 1)) & 1 == 1 {
        v as i128 - (1i128 << w)
    } else {
        v as i128
    }
}

fn int_range(t: CvtType) -> (i128, i128) {
    let w = t.bits();
    if t.is_signed_int() {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    }
}

/// The NaN a result takes when the spec leaves it free: any NaN under `allow`, else the
/// canonical NaN.
/// Any NaN of `fmt` under `allowance` (the canonical NaN when it is switched off).
pub(crate) fn free_nan(fmt: &'static Format, allowance: Allowance, allow: &Allowances) -> Expected {
    let bits = fmt.canonical_nan_bits().unwrap_or(0) as u128;
    let width = fmt.bits();
    if allow.allows(allowance) {
        Expected { bits, width, free: vec![Free { shift: 0, width, constraint: Constraint::AnyNan(fmt), allowance }] }
    } else {
        Expected::exact(bits, width)
    }
}

fn is_f32_subnormal(bits: u64) -> bool {
    num::classify(&num::F32, bits) == Class::Subnormal
}

/// Post-rounding rules shared by float destinations.
struct FloatRules {
    /// Whether the caller keeps the rules ([`Record::ON`]): the bits never depend on it.
    explain: bool,
    relu: bool,
    satfinite: bool,
    sat: bool,
    ftz_result: bool,
    mode: Rounding,
}

/// The rule an encoding followed, for a non-NaN value `v`.
#[inline]
fn encoding_rule(dst: &Format, v: Value, e: Encoded, rules: &FloatRules) -> Rule {
    if !e.inexact {
        return Rule::Exact;
    }
    let mag = e.bits & !(if dst.signed { 1u64 << dst.sign_shift() } else { 0 });
    if e.clamped && mag == dst.max_finite_bits() && !matches!(v, Value::Zero { .. }) {
        return if rules.satfinite { Rule::SatfiniteClamp } else { Rule::Overflow };
    }
    // Past MAX_NORM into ±∞, or into NaN for a format without infinity.
    if dst.inf_bits() == Some(mag) || dst.canonical_nan_bits() == Some(mag) {
        return Rule::Overflow;
    }
    Rule::Rounded(rules.mode)
}

/// Converts one value into a float format under `rules`, with the rule that decided it.
fn to_float(
    v: Value,
    dst: &'static Format,
    rules: &FloatRules,
    nan_allowance: Allowance,
    allow: &Allowances,
) -> (Expected, Rule) {
    let width = dst.bits();
    if v.is_nan() {
        if rules.sat {
            return (Expected::exact(0, width), Rule::SatNan);
        }
        if rules.relu {
            return match dst.canonical_nan_bits() {
                Some(b) => (Expected::exact(b as u128, width), Rule::ReluNan),
                None => (Expected::exact(dst.max_finite_bits() as u128, width), Rule::NanToMaxNorm),
            };
        }
        if !dst.has_nan() {
            // .satfinite to FP6/FP4: NaN becomes +MAX_NORM (§9.7.9.21 Saturation modifier).
            return (Expected::exact(dst.max_finite_bits() as u128, width), Rule::NanToMaxNorm);
        }
        let rule =
            if allow.allows(nan_allowance) { Rule::NanInput(nan_allowance) } else { Rule::NanStrict(nan_allowance) };
        return (free_nan(dst, nan_allowance, allow), rule);
    }
    let overflow = if rules.satfinite { Overflow::Saturate } else { Overflow::Ieee };
    let encoded = encode(dst, v, rules.mode, overflow);
    let mut rule = if rules.explain { encoding_rule(dst, v, encoded, rules) } else { Rule::Exact };
    let mut bits = encoded.bits;
    let sign = if dst.signed { 1u64 << dst.sign_shift() } else { 0 };
    let neg = dst.signed && bits & sign != 0;
    if rules.ftz_result && num::classify(dst, bits) == Class::Subnormal {
        rule = Rule::FtzResult;
        bits &= sign;
    }
    if rules.relu && neg {
        bits = 0;
        rule = Rule::Relu;
    }
    if rules.sat {
        let one = encode(dst, Value::Finite { neg: false, sig: 1, exp: 0 }, Rounding::NearestEven, Overflow::Ieee).bits;
        if neg {
            bits = 0;
            rule = Rule::SatUnit;
        } else if bits > one {
            bits = one;
            rule = Rule::SatUnit;
        }
    }
    (Expected::exact(bits as u128, width), rule)
}

/// The value of a float source element, flushing f32 subnormals under `.ftz`; whether it was
/// flushed.
fn float_source(fmt: &'static Format, bits: u64, ftz: bool) -> (Value, bool) {
    if ftz && fmt.bits() == 32 && fmt.man_bits == 23 && is_f32_subnormal(bits) {
        return (Value::Zero { neg: bits >> 31 == 1 }, true);
    }
    (decode(fmt, bits), false)
}

/// Whether a non-NaN value is an integer.
fn is_integral(v: Value) -> bool {
    match v {
        Value::Zero { .. } => true,
        Value::Finite { sig, exp, .. } => exp >= 0 || i64::from(sig.trailing_zeros()) >= -i64::from(exp),
        Value::Inf { .. } | Value::Nan { .. } => false,
    }
}

/// A flushed input explains an otherwise exact result.
fn after_flush(rule: Rule, flushed: bool) -> Rule {
    if flushed && rule == Rule::Exact {
        Rule::FtzInput
    } else {
        rule
    }
}

/// Evaluates `cvt` form `c` on `x`. The form must be legal (`c.check()` is `Ok`).
pub fn eval(c: &Cvt, x: &CvtInputs, allow: &Allowances) -> Expected {
    eval_with(c, x, allow, &mut Ignore)
}

/// [`eval`] with the rule that decided each lane: the same code path, so the rules are the
/// ones that produced the result.
pub fn eval_explained(c: &Cvt, x: &CvtInputs, allow: &Allowances) -> Explained {
    let mut lanes = Vec::new();
    let expected = eval_with(c, x, allow, &mut lanes);
    Explained { expected, lanes }
}

fn eval_with<R: Record>(c: &Cvt, x: &CvtInputs, allow: &Allowances, rec: &mut R) -> Expected {
    use CvtType::*;
    let (d, a) = (c.dtype, c.atype);
    if d.is_scalar() && a.is_scalar() {
        return eval_scalar(c, x, allow, rec);
    }
    let (dst_element, src_element) = (element(d), element(a));
    let dst = dst_element.expect("a packed destination is a float type");
    let mut rules = FloatRules {
        explain: R::ON,
        relu: c.relu,
        satfinite: c.satfinite,
        sat: c.sat,
        ftz_result: c.ftz && d == F32,
        mode: Rounding::NearestEven,
    };
    let mut out = Expected::exact(0, dst.lanes * dst.lane_bits + dst.lsb);
    let fixed_mode = rounding(c.rnd);
    let to_ue8m0 = d == Ue8m0x2;
    let padded_source = d == F16x2 && matches!(a, E4m3x2 | E5m2x2 | E2m1x2 | E2m3x2 | E3m2x2);
    for k in (0..dst.lanes).rev() {
        let lane = lane(c, dst_element, src_element, k);
        let fmt = lane.format.expect("float lane");
        let src = lane.source.bits(x);
        let src_fmt = lane.source.format.expect("float source");
        rules.mode = match fixed_mode {
            Some(m) => m,
            None => {
                let (shift, width) = rbits_field(d, lane.source.slot);
                Rounding::Stochastic { rbits: (x.rbits >> shift) & mask(width) as u32, width }
            }
        };
        let v = decode(src_fmt, src);
        let (e, rule) = if to_ue8m0 {
            // UE8M0 has a single NaN, 0xFF: no freedom; no `.relu`, `.sat` or `.ftz`.
            if v.is_nan() {
                (Expected::exact(0xFF, 8), Rule::NanUe8m0)
            } else {
                let overflow = if c.satfinite { Overflow::Saturate } else { Overflow::Ieee };
                let encoded = encode(&UE8M0, v, rules.mode, overflow);
                let rule = if R::ON { encoding_rule(&UE8M0, v, encoded, &rules) } else { Rule::Exact };
                (Expected::exact(u128::from(encoded.bits), 8), rule)
            }
        } else if padded_source {
            let (e, rule) = to_float(v, fmt, &rules, Allowance::NanPayload, allow);
            let pad = src & !mask(src_fmt.bits());
            if pad != 0 && allow.allows(Allowance::Fp6PaddingBits) {
                let free =
                    Free { shift: 0, width: 16, constraint: Constraint::Any, allowance: Allowance::Fp6PaddingBits };
                (Expected { bits: e.bits, width: 16, free: vec![free] }, rule)
            } else {
                (e, rule)
            }
        } else {
            to_float(v, fmt, &rules, Allowance::NanPayload, allow)
        };
        rec.lane(lane, rule);
        if d == Tf32 && !e.is_exact() {
            // A NaN: any f32 NaN, as the 13 low bits are not promised to be zero for NaNs.
            return free_nan(&num::F32, Allowance::NanPayload, allow);
        }
        out.insert(lane.shift, e);
    }
    out
}

fn eval_scalar<R: Record>(c: &Cvt, x: &CvtInputs, allow: &Allowances, rec: &mut R) -> Expected {
    use CvtType::*;
    let (d, a) = (c.dtype, c.atype);
    let a_bits = x.a;
    let width = d.bits();
    let mode = rounding(c.rnd).expect("scalar forms take no .rs");
    let mut record = |rule: Rule| {
        if R::ON {
            if let Some(lane) = lanes(c).next() {
                rec.lane(lane, rule);
            }
        }
    };
    let src_fmt = format_of(a);
    let (value, flushed) = match src_fmt {
        Some(fmt) => float_source(fmt, a_bits & mask(a.bits()), c.ftz),
        None => (Value::from_int(int_value(a, a_bits)), false),
    };
    if d.is_int() {
        let (lo, hi) = int_range(d);
        let (v, rule) = if a.is_int() {
            let v = int_value(a, a_bits);
            if c.sat && (v < lo || v > hi) {
                (v.clamp(lo, hi), Rule::IntClamp)
            } else {
                (v, if v < lo || v > hi { Rule::IntTruncate } else { Rule::Exact })
            }
        } else {
            match round_to_integer(value, mode) {
                Some(v) if v < lo || v > hi => (v.clamp(lo, hi), Rule::IntClamp),
                Some(v) if is_integral(value) => (v, after_flush(Rule::Exact, flushed)),
                Some(v) => (v, Rule::Integral(mode)),
                // NaN: 0, or 1 << (bits-1) when the source is .f64 or the destination 64-bit
                // (§9.7.9.21 Integer Notes).
                None if a == F64 || width == 64 => (1i128 << (width - 1), Rule::NanToInt),
                None => (0, Rule::NanToInt),
            }
        };
        record(rule);
        return Expected::exact((v as u128) & (mask(width) as u128), width);
    }
    let dst = format_of(d).expect("float destination");
    let nan_allowance = if d == F32 && a == Bf16 { Allowance::CvtF32Bf16Nan } else { Allowance::NanPayload };
    if d == a && c.rnd.is_some_and(CvtRnd::is_integer) {
        // Round to an integral value in the same format; zero keeps its sign.
        let rounded = round_to_integral(value, mode);
        let r = FloatRules {
            explain: R::ON,
            relu: false,
            satfinite: false,
            sat: c.sat,
            ftz_result: c.ftz && d == F32,
            mode,
        };
        let (e, rule) = to_float(rounded, dst, &r, nan_allowance, allow);
        let rule =
            if rule == Rule::Exact && rounded != value { Rule::Integral(mode) } else { after_flush(rule, flushed) };
        record(rule);
        return e;
    }
    let r = FloatRules {
        explain: R::ON,
        relu: c.relu,
        satfinite: c.satfinite,
        sat: c.sat,
        ftz_result: c.ftz && d == F32,
        mode,
    };
    let (flushed_e, rule) = to_float(value, dst, &r, nan_allowance, allow);
    record(after_flush(rule, flushed));
    // Hardware decides where the spec is silent (allowance `cvt-ftz-ieee-tininess`): sm_90
    // flushes an f64 that rounds up to ±2^-126 when, rounded to 24 bits with an unbounded
    // exponent, it stays below 2^-126 (IEEE 754 tininess after rounding).
    if c.ftz && d == F32 && a == F64 && allow.allows(Allowance::CvtFtzIeeeTininess) {
        let x = f64::from_bits(a_bits);
        if flushed_e.bits & 0x7FFF_FFFF == 0x0080_0000 && x.abs() < f64::from(f32::MIN_POSITIVE) {
            // Scaled by 2^127 into the normal range (exactly), only the precision rounds.
            let scaled = decode(&num::F64, (x * 2f64.powi(127)).to_bits());
            let unbounded = FloatRules { relu: false, satfinite: false, sat: false, ftz_result: false, ..r };
            let (e, _) = to_float(scaled, dst, &unbounded, nan_allowance, allow);
            if e.bits & 0x7FFF_FFFF < 0x4000_0000 {
                let zero = flushed_e.bits & 0x8000_0000;
                return flushed_e.or_value(zero, Allowance::CvtFtzIeeeTininess);
            }
        }
    }
    // Hardware deviation (allowance `cvt-ftz-f16-input`): sm_90 converts a subnormal f32
    // input of `cvt.ftz.f16.f32` as if `.ftz` were absent.
    if c.ftz && d == F16 && a == F32 && flushed && allow.allows(Allowance::CvtFtzF16Input) {
        let (kept, _) = to_float(decode(&num::F32, a_bits & 0xFFFF_FFFF), dst, &r, nan_allowance, allow);
        if kept.bits != flushed_e.bits {
            return flushed_e.or_value(kept.bits, Allowance::CvtFtzF16Input);
        }
    }
    flushed_e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Form, FormSpec};

    fn cvt(s: &str) -> Cvt {
        match Form::parse_opcode(s) {
            Ok(Form::Cvt(c)) if c.check().is_ok() => c,
            other => panic!("{s}: not a legal cvt form: {other:?}"),
        }
    }

    fn run(s: &str, a: u64, b: u64) -> Expected {
        eval(&cvt(s), &CvtInputs { a, b, ..Default::default() }, &Allowances::all())
    }

    /// An f64 just below 2^-126 that rounds to 2^-126 but, rounded to 24 bits with an unbounded
    /// exponent, stays below it: sm_90 flushes it to zero, which the allowance accepts; one
    /// that rounds to 2^-126 either way is kept (corpus/evidence/cvt-ftz-ieee-tininess.md).
    #[test]
    fn ftz_ieee_tininess_is_allowed() {
        let tiny = 0x380F_FFFF_E000_0000; // 2^-126 (1 - 2^-24)
        let e = run("cvt.rn.ftz.f32.f64", tiny, 0);
        assert_eq!(e.bits, 0x0080_0000, "rounds to the smallest normal");
        assert!(e.matches(0x0080_0000) && e.matches(0), "{e:?}");
        let neg = run("cvt.rn.ftz.f32.f64", tiny | 1 << 63, 0);
        assert!(neg.matches(0x8080_0000) && neg.matches(0x8000_0000) && !neg.matches(0), "{neg:?}");
        let mut off = Allowances::all();
        off.disable(Allowance::CvtFtzIeeeTininess);
        let strict = eval(&cvt("cvt.rn.ftz.f32.f64"), &CvtInputs { a: tiny, ..Default::default() }, &off);
        assert!(strict.matches(0x0080_0000) && !strict.matches(0), "{strict:?}");
        // Rounded to 24 bits these reach 2^-126: not tiny, kept (as the H100 keeps them).
        for kept in [0x380F_FFFF_FFFF_FFFF, 0x380F_FFFF_F000_0000] {
            assert!(!run("cvt.rn.ftz.f32.f64", kept, 0).matches(0), "{kept:#x}");
        }
        // .rp rounds 2^-126 (1 - 3 * 2^-25) up to 2^-126, but to 24 bits only to 2^-126 (1 - 2^-24).
        assert!(run("cvt.rp.ftz.f32.f64", 0x380F_FFFF_D000_0000, 0).matches(0));
        // Without .ftz nothing changes.
        assert!(!run("cvt.rn.f32.f64", tiny, 0).matches(0));
    }

    #[test]
    fn spec_rules_for_integers() {
        assert_eq!(run("cvt.rzi.s32.f32", 0x7FC0_0000, 0).bits, 0, "NaN -> 0");
        assert_eq!(run("cvt.rzi.s64.f32", 0x7FC0_0000, 0).bits, 1 << 63, "NaN -> MININT for 64-bit");
        assert_eq!(run("cvt.rzi.s32.f64", 0x7FF8_0000_0000_0000, 0).bits, 0x8000_0000, "NaN from f64");
        assert_eq!(run("cvt.rni.u8.f32", 0x4380_0000, 0).bits, 0xFF, "256 clamps to 255");
        assert_eq!(run("cvt.rni.s8.f32", 0xC380_0000, 0).bits, 0x80, "-256 clamps to -128");
        assert_eq!(run("cvt.u8.s32", 0xFFFF_FF01, 0).bits, 0x01, "truncation");
        assert_eq!(run("cvt.sat.u8.s32", 0xFFFF_FF01, 0).bits, 0x00, ".sat clamps");
        assert_eq!(run("cvt.s64.s8", 0x80, 0).bits, 0xFFFF_FFFF_FFFF_FF80, "sign extension");
    }

    #[test]
    fn spec_rules_for_floats() {
        assert_eq!(run("cvt.rn.f16.f32", 0x3F80_0000, 0).bits, 0x3C00);
        let nan = run("cvt.rn.f16.f32", 0x7F80_0001, 0);
        assert!(nan.matches(0x7FFF) && nan.matches(0xFE00) && !nan.matches(0x7C00));
        assert_eq!(run("cvt.rn.relu.f16.f32", 0x7F80_0001, 0).bits, 0x7FFF, "relu: canonical NaN");
        assert_eq!(run("cvt.rn.relu.f16.f32", 0xBF80_0000, 0).bits, 0, "relu clamps negatives");
        assert_eq!(run("cvt.rn.satfinite.f16.f32", 0x7F80_0000, 0).bits, 0x7BFF);
        assert_eq!(run("cvt.rn.sat.f16.f32", 0x4000_0000, 0).bits, 0x3C00, ".sat limits to 1.0");
        assert_eq!(run("cvt.ftz.f32.f32", 0x0000_0001, 0).bits, 0);
        assert_eq!(run("cvt.rni.f32.f32", 0xBE99_999A, 0).bits, 0x8000_0000, "-0.3 rounds to -0");
        assert_eq!(run("cvt.rz.f16x2.f32", 0x3F80_0000, 0x4000_0000).bits, 0x3C00_4000, "a goes high");
        assert_eq!(run("cvt.rn.satfinite.e4m3x2.f32", 0x43E0_0000, 0xFF80_0000).bits, 0x7EFE, "448 and -inf");
        assert_eq!(run("cvt.rn.f16x2.e4m3x2", 0x7E01, 0).bits, 0x5F00_1800, "448 and 2^-9");
        let f32bf16 = run("cvt.f32.bf16", 0x7FC1, 0);
        assert_eq!(f32bf16.free[0].allowance, Allowance::CvtF32Bf16Nan);
        assert_eq!(run("cvt.rn.satfinite.e2m1x2.f32", 0x7FC0_0000, 0xC2C8_0000).bits, 0x7F, "NaN -> +6, -100 -> -6");
        assert_eq!(
            run("cvt.rn.satfinite.e3m2x2.f32", 0x41E0_0000, 0x3E80_0000).bits,
            0x1F04,
            "28 and 0.25, top bits zero"
        );
        assert_eq!(
            run("cvt.rz.satfinite.ue8m0x2.f32", 0x7F80_0000, 0x3FC0_0000).bits,
            0xFE7F,
            "inf saturates; 1.5 -> 1"
        );
        assert_eq!(run("cvt.rp.ue8m0x2.f32", 0x7F80_0000, 0x3FC0_0000).bits, 0xFF80, "inf -> NaN; 1.5 -> 2");
        assert_eq!(run("cvt.rn.bf16x2.ue8m0x2", 0x7F00, 0).bits, 0x3F80_0040, "1.0 and 2^-127 (bf16 subnormal)");
        assert_eq!(run("cvt.rna.tf32.f32", 0x3F80_1000, 0).bits, 0x3F80_2000, "tie rounds away");
    }

    /// `.rs` with all-zero random bits truncates (no carry is possible), and with all-ones
    /// random bits rounds every inexact lane away from zero; lanes take their rbits from the
    /// layout of §9.7.9.21 (checked by giving one lane zeros and the other ones).
    #[test]
    fn stochastic_rounding_uses_the_rbits_layout() {
        let third = 0x3EAA_AAAB; // 1/3: inexact in every destination
        let neg_third = 0xBEAA_AAAB;
        let run_rs = |s: &str, a: u64, b: u64, e: u64, f: u64, rbits: u32| {
            eval(&cvt(s), &CvtInputs { a, b, e, f, rbits }, &Allowances::all()).bits
        };
        // f16x2: a uses rbits[28:16], b uses rbits[12:0].
        let rz = run("cvt.rz.f16x2.f32", third, neg_third).bits;
        assert_eq!(run_rs("cvt.rs.f16x2.f32", third, neg_third, 0, 0, 0), rz);
        let a_away = run_rs("cvt.rs.f16x2.f32", third, neg_third, 0, 0, 0x1FFF_0000);
        assert_eq!(a_away, rz + 0x0001_0000, "only a rounds away");
        let b_away = run_rs("cvt.rs.f16x2.f32", third, neg_third, 0, 0, 0x0000_1FFF);
        assert_eq!(b_away, rz + 1, "only b rounds away (magnitude + 1 ulp)");
        // bf16x2: 16 random bits per lane.
        let rz = run("cvt.rz.bf16x2.f32", third, third).bits;
        assert_eq!(run_rs("cvt.rs.bf16x2.f32", third, third, 0, 0, 0xFFFF_0000), rz + 0x0001_0000);
        // e4m3x4: a and b share rbits[31:16]; e and f share rbits[15:0].
        let base = run_rs("cvt.rs.satfinite.e4m3x4.f32", third, third, third, third, 0);
        let hi = run_rs("cvt.rs.satfinite.e4m3x4.f32", third, third, third, third, 0xFFFF_0000);
        assert_eq!(hi, base + 0x0101_0000);
        // e2m1x4: a ← rbits[31:24], b ← rbits[15:8], e ← rbits[23:16], f ← rbits[7:0].
        let base = run_rs("cvt.rs.satfinite.e2m1x4.f32", 0x3F40_0000, 0x3F40_0000, 0x3F40_0000, 0x3F40_0000, 0);
        let b_only =
            run_rs("cvt.rs.satfinite.e2m1x4.f32", 0x3F40_0000, 0x3F40_0000, 0x3F40_0000, 0x3F40_0000, 0x0000_FF00);
        assert_eq!(b_only, base + 0x0100, "0.75 -> 1.0 in lane b only");
    }

    /// Recorded on an H200 (corpus/evidence/cvt-ftz-f16-input.md): `cvt.rp.ftz.f16.f32` of the
    /// smallest positive f32 subnormal gives 0x0001, not the flushed 0x0000.
    #[test]
    fn cvt_ftz_f16_keeps_subnormal_inputs_on_hardware() {
        let e = run("cvt.rp.ftz.f16.f32", 0x0000_0001, 0);
        assert!(e.matches(0x0000) && e.matches(0x0001) && !e.matches(0x0002));
        let strict = eval(&cvt("cvt.rp.ftz.f16.f32"), &CvtInputs { a: 1, ..Default::default() }, &Allowances::none());
        assert!(strict.is_exact() && strict.bits == 0);
        assert!(run("cvt.rn.ftz.f16.f32", 0x0000_0001, 0).is_exact(), "no set where both readings agree");
    }

    #[test]
    fn allowances_can_be_switched_off() {
        let c = cvt("cvt.rn.f16.f32");
        let e = eval(&c, &CvtInputs { a: 0x7F80_0001, ..Default::default() }, &Allowances::none());
        assert!(e.is_exact());
        assert_eq!(e.bits, 0x7FFF);
    }

    fn rules(s: &str, a: u64, b: u64) -> Vec<Rule> {
        let x = CvtInputs { a, b, ..Default::default() };
        eval_explained(&cvt(s), &x, &Allowances::all()).lanes.iter().map(|l| l.rule).collect()
    }

    /// Each rule of §9.7.9.21 is named where it decides a lane.
    #[test]
    fn the_rule_that_decided_each_lane() {
        use Rule::*;
        assert_eq!(rules("cvt.rn.f16.f32", 0x3F80_0000, 0), [Exact]);
        assert_eq!(rules("cvt.rn.f16.f32", 0x3DCC_CCCD, 0), [Rounded(Rounding::NearestEven)]);
        assert_eq!(rules("cvt.rn.f16.f32", 0x4970_0000, 0), [Overflow], "1e6 rounds to +inf");
        assert_eq!(rules("cvt.rz.f16.f32", 0x4970_0000, 0), [Overflow], "toward zero: MAX_NORM");
        assert_eq!(rules("cvt.rn.satfinite.f16.f32", 0x7F80_0000, 0), [SatfiniteClamp]);
        assert_eq!(rules("cvt.rn.sat.f16.f32", 0x4000_0000, 0), [SatUnit]);
        assert_eq!(rules("cvt.rn.sat.f16.f32", 0x7FC0_0000, 0), [SatNan]);
        assert_eq!(rules("cvt.rn.relu.f16.f32", 0xBF80_0000, 0), [Relu]);
        assert_eq!(rules("cvt.rn.relu.f16.f32", 0x7FC0_0000, 0), [ReluNan]);
        assert_eq!(rules("cvt.rn.f16.f32", 0x7FC0_0000, 0), [NanInput(Allowance::NanPayload)]);
        assert_eq!(rules("cvt.f32.bf16", 0x7FC1, 0), [NanInput(Allowance::CvtF32Bf16Nan)]);
        // With the allowance off the NaN is exact, and the rule says so.
        let strict = Allowances::from_off(["nan-payload"]).unwrap();
        let x = CvtInputs { a: 0x7FC0_0001, ..Default::default() };
        let e = eval_explained(&cvt("cvt.rn.f16.f32"), &x, &strict);
        assert!(e.expected.is_exact());
        assert_eq!(e.lanes.iter().map(|l| l.rule).collect::<Vec<_>>(), [NanStrict(Allowance::NanPayload)]);
        assert!(!NanStrict(Allowance::NanPayload).text().contains("allowance"));
        assert_eq!(rules("cvt.ftz.f32.f32", 0x0000_0001, 0), [FtzInput]);
        assert_eq!(rules("cvt.rn.ftz.f32.f64", 0x3800_0000_0000_0000, 0), [FtzResult], "2^-127");
        assert_eq!(rules("cvt.rn.satfinite.e2m1x2.f32", 0x7FC0_0000, 0xC2C8_0000), [NanToMaxNorm, SatfiniteClamp]);
        assert_eq!(rules("cvt.rp.ue8m0x2.f32", 0x7FC0_0000, 0x3FC0_0000), [NanUe8m0, Rounded(Rounding::Up)]);
        assert_eq!(rules("cvt.rzi.s32.f32", 0x4020_0000, 0), [Integral(Rounding::TowardZero)]);
        assert_eq!(rules("cvt.rni.u8.f32", 0x4380_0000, 0), [IntClamp]);
        assert_eq!(rules("cvt.rzi.s32.f32", 0x7FC0_0000, 0), [NanToInt]);
        assert_eq!(rules("cvt.u8.s32", 0xFFFF_FF01, 0), [IntTruncate]);
        assert_eq!(rules("cvt.sat.u8.s32", 0xFFFF_FF01, 0), [IntClamp]);
        assert_eq!(rules("cvt.s64.s8", 0x80, 0), [Exact]);
        assert_eq!(rules("cvt.rni.f32.f32", 0xBE99_999A, 0), [Integral(Rounding::NearestEven)]);
    }

    /// `eval_explained` gives `eval`'s result and one rule per destination lane, for every legal
    /// form on stratified inputs.
    #[test]
    fn explained_results_are_eval_results() {
        use crate::isa::Family;
        let inputs: Vec<u32> = crate::num::fast::stratified(64).step_by(97).collect();
        for f in Family::Cvt.candidates().into_iter().filter(|f| f.check().is_ok()) {
            let Form::Cvt(c) = f else { continue };
            let lanes = element(c.dtype).map_or(1, |e| e.lanes) as usize;
            for &v in &inputs {
                let x = CvtInputs {
                    a: u64::from(v) | u64::from(v.rotate_left(9)) << 32,
                    b: u64::from(v.rotate_left(3)),
                    e: u64::from(!v),
                    f: u64::from(v ^ 0x8000_0000),
                    rbits: v.rotate_left(16),
                };
                let explained = eval_explained(&c, &x, &Allowances::all());
                assert_eq!(explained.expected, eval(&c, &x, &Allowances::all()));
                assert_eq!(explained.lanes.len(), lanes, "{}", Form::Cvt(c).opcode());
            }
        }
    }
}
