//! `cvt` (§9.7.9.21): every line of its syntax block — integer and float conversions with
//! integer (`.rni` …) or float (`.rn` …) rounding, `.ftz`, `.sat`, `.relu`, `.satfinite`,
//! packed `.f16x2`/`.bf16x2` results, `.tf32`, FP8/FP6/FP4 x2 and x4 packing, `.rs` stochastic
//! rounding with `rbits`, and `.ue8m0x2`.
//!
//! Legality rules come from the Integer Notes, Floating Point Notes and the lists of where
//! rounding, `.ftz`, `.sat`, `.relu` and `.satfinite` are allowed or mandatory; requirements
//! from the PTX ISA Notes and Target ISA Notes of §9.7.9.21.

use super::operand::{Operand, OperandKind, OperandSpec};
use super::qualifier::{opt, OpcodeWriter, Qualifier, TokenBag, FLAG};
use super::target::{Requirement, GATE_RS, GATE_SM100_110_120};
use super::types::RegType;
use super::{forbid, FormSpec, Illegal, ParseError};
use crate::qualifiers;

qualifiers! {
    /// Rounding modifiers of `cvt`: float (`.rn .rna .rz .rm .rp .rs`) and integer
    /// (`.rni .rzi .rmi .rpi`).
    pub enum CvtRnd {
        Rn = "rn", Rna = "rna", Rz = "rz", Rm = "rm", Rp = "rp", Rs = "rs",
        Rni = "rni", Rzi = "rzi", Rmi = "rmi", Rpi = "rpi",
    }

    /// Every `.dtype`/`.atype` spelling of the `cvt` syntax block.
    pub enum CvtType {
        U8 = "u8", U16 = "u16", U32 = "u32", U64 = "u64",
        S8 = "s8", S16 = "s16", S32 = "s32", S64 = "s64",
        Bf16 = "bf16", F16 = "f16", F32 = "f32", F64 = "f64",
        F16x2 = "f16x2", Bf16x2 = "bf16x2", Tf32 = "tf32",
        E4m3x2 = "e4m3x2", E5m2x2 = "e5m2x2", E2m1x2 = "e2m1x2", E2m3x2 = "e2m3x2", E3m2x2 = "e3m2x2",
        E4m3x4 = "e4m3x4", E5m2x4 = "e5m2x4", E2m1x4 = "e2m1x4", E2m3x4 = "e2m3x4", E3m2x4 = "e3m2x4",
        Ue8m0x2 = "ue8m0x2",
    }
}

impl CvtRnd {
    /// `.rni .rzi .rmi .rpi`.
    pub fn is_integer(self) -> bool {
        matches!(self, CvtRnd::Rni | CvtRnd::Rzi | CvtRnd::Rmi | CvtRnd::Rpi)
    }
    /// `.rn .rz .rm .rp` (the `.frnd` set).
    pub fn is_frnd(self) -> bool {
        matches!(self, CvtRnd::Rn | CvtRnd::Rz | CvtRnd::Rm | CvtRnd::Rp)
    }
}

impl CvtType {
    /// `.u8` … `.s64`.
    pub fn is_int(self) -> bool {
        use CvtType::*;
        matches!(self, U8 | U16 | U32 | U64 | S8 | S16 | S32 | S64)
    }
    /// `.s8` … `.s64`.
    pub fn is_signed_int(self) -> bool {
        use CvtType::*;
        matches!(self, S8 | S16 | S32 | S64)
    }
    /// `.bf16 .f16 .f32 .f64`.
    pub fn is_scalar_float(self) -> bool {
        use CvtType::*;
        matches!(self, Bf16 | F16 | F32 | F64)
    }
    /// The types of the first two syntax lines (`.dtype = .atype = {…}`).
    pub fn is_scalar(self) -> bool {
        self.is_int() || self.is_scalar_float()
    }
    /// `.e4m3x2 .e5m2x2`.
    pub fn is_f8x2(self) -> bool {
        matches!(self, CvtType::E4m3x2 | CvtType::E5m2x2)
    }
    /// `.e2m3x2 .e3m2x2`.
    pub fn is_f6x2(self) -> bool {
        matches!(self, CvtType::E2m3x2 | CvtType::E3m2x2)
    }
    /// `.e4m3x4 .e5m2x4 .e2m3x4 .e3m2x4 .e2m1x4`: the `.rs`-only x4 destinations.
    pub fn is_x4(self) -> bool {
        use CvtType::*;
        matches!(self, E4m3x4 | E5m2x4 | E2m1x4 | E2m3x4 | E3m2x4)
    }
    /// Width of the value in bits (scalar types), or of the packed register.
    pub fn bits(self) -> u32 {
        self.reg().bits()
    }
    /// The register type that holds an operand of this type (§9.7.9.21 Description:
    /// `.bf16` in `.b16`, packed types in `.b8`/`.b16`/`.b32`).
    pub fn reg(self) -> RegType {
        use CvtType::*;
        match self {
            U8 => RegType::U8,
            U16 => RegType::U16,
            U32 => RegType::U32,
            U64 => RegType::U64,
            S8 => RegType::S8,
            S16 => RegType::S16,
            S32 => RegType::S32,
            S64 => RegType::S64,
            F32 => RegType::F32,
            F64 => RegType::F64,
            Bf16 | F16 => RegType::B16,
            F16x2 | Bf16x2 | Tf32 | E4m3x4 | E5m2x4 | E2m3x4 | E3m2x4 => RegType::B32,
            E4m3x2 | E5m2x2 | E2m3x2 | E3m2x2 | E2m1x4 | Ue8m0x2 => RegType::B16,
            E2m1x2 => RegType::B8,
        }
    }
    /// Smallest and largest value of an integer type.
    fn int_range(self) -> (i128, i128) {
        let bits = self.bits();
        if self.is_signed_int() {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        }
    }
}

/// One `cvt` form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cvt {
    /// Rounding modifier.
    pub rnd: Option<CvtRnd>,
    /// `.ftz`.
    pub ftz: bool,
    /// `.sat`.
    pub sat: bool,
    /// `.relu`.
    pub relu: bool,
    /// `.satfinite`.
    pub satfinite: bool,
    /// Destination type.
    pub dtype: CvtType,
    /// Source type.
    pub atype: CvtType,
}

/// Which line of the syntax block a (dtype, atype) pair belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// `cvt{.irnd|.frnd}{.ftz}{.sat}.dtype.atype d, a` (and `.relu/.satfinite` f16/bf16 ← f32).
    Scalar,
    /// `.f16x2/.bf16x2 ← .f32`: `d, a, b` (`.rs`: `d, a, b, rbits`).
    PairFromF32,
    /// `.tf32 ← .f32`.
    Tf32,
    /// `.e4m3x2/.e5m2x2 ← .f32 (a, b)` or `← .f16x2 (a)`; FP6/FP4 x2 ← f32.
    NarrowPair,
    /// `.f16x2 ← .e4m3x2/.e5m2x2/.e2m1x2/.e2m3x2/.e3m2x2`.
    WidenToF16x2,
    /// x4 ← four `.f32` with `.rs`.
    Quad,
    /// `.ue8m0x2 ← .f32 (a, b)` or `← .bf16x2 (a)`.
    Ue8m0,
    /// `.bf16x2 ← .ue8m0x2`.
    FromUe8m0,
}

impl Cvt {
    fn shape(&self) -> Option<Shape> {
        use CvtType::*;
        let (d, a) = (self.dtype, self.atype);
        Some(match (d, a) {
            _ if d.is_scalar() && a.is_scalar() => Shape::Scalar,
            (F16x2 | Bf16x2, F32) => Shape::PairFromF32,
            (Tf32, F32) => Shape::Tf32,
            (E4m3x2 | E5m2x2, F32 | F16x2) => Shape::NarrowPair,
            (E2m1x2 | E2m3x2 | E3m2x2, F32) => Shape::NarrowPair,
            (F16x2, E4m3x2 | E5m2x2 | E2m1x2 | E2m3x2 | E3m2x2) => Shape::WidenToF16x2,
            (E4m3x4 | E5m2x4 | E2m1x4 | E2m3x4 | E3m2x4, F32) => Shape::Quad,
            (Ue8m0x2, F32 | Bf16x2) => Shape::Ue8m0,
            (Bf16x2, Ue8m0x2) => Shape::FromUe8m0,
            _ => return None,
        })
    }

    /// Whether the form takes two `.f32` sources `a`, `b` packed into one result.
    pub fn two_f32_sources(&self) -> bool {
        self.atype == CvtType::F32
            && matches!(
                self.dtype,
                CvtType::F16x2
                    | CvtType::Bf16x2
                    | CvtType::E4m3x2
                    | CvtType::E5m2x2
                    | CvtType::E2m1x2
                    | CvtType::E2m3x2
                    | CvtType::E3m2x2
                    | CvtType::Ue8m0x2
            )
    }

    fn check_scalar(&self) -> Result<Requirement, Illegal> {
        use CvtType::*;
        let (d, a) = (self.dtype, self.atype);
        let rnd = self.rnd;
        forbid(matches!(rnd, Some(CvtRnd::Rna)), "`.rna` is only defined for `cvt.rna.tf32.f32` (§9.7.9.21 syntax)")?;
        forbid(
            matches!(rnd, Some(CvtRnd::Rs)),
            "`.rs` is only defined for `.f16x2`/`.bf16x2`/x4 destinations (§9.7.9.21 syntax)",
        )?;
        let f32_involved = d == F32 || a == F32;
        forbid(
            self.ftz && !f32_involved,
            "`.ftz` needs `.dtype` or `.atype` to be `.f32` (§9.7.9.21 Floating Point Notes)",
        )?;
        let relu_form = (d == F16 || d == Bf16) && a == F32;
        forbid(
            (self.relu || self.satfinite) && !relu_form,
            "`.relu`/`.satfinite` on a scalar cvt need `.f16`/`.bf16` ← `.f32` (§9.7.9.21 syntax)",
        )?;
        if self.relu || self.satfinite {
            forbid(
                !matches!(rnd, Some(CvtRnd::Rn | CvtRnd::Rz)),
                "`.relu`/`.satfinite` forms take `.rn` or `.rz` (`.frnd2`, §9.7.9.21 syntax)",
            )?;
            forbid(self.ftz || self.sat, "`.relu`/`.satfinite` forms take no `.ftz`/`.sat` (§9.7.9.21 syntax)")?;
        }
        let mut req = Requirement::new(10, 1, 0);
        if d == F64 || a == F64 {
            req = req.sm(13);
        }
        match (d.is_int(), a.is_int()) {
            (true, true) => {
                forbid(rnd.is_some(), "integer-to-integer cvt takes no rounding modifier (§9.7.9.21 Integer Notes)")?;
                let (dlo, dhi) = d.int_range();
                let (alo, ahi) = a.int_range();
                let superset = dlo <= alo && dhi >= ahi;
                forbid(self.sat && superset, "`.sat` is illegal when the destination range contains the source range (§9.7.9.21 Saturation modifier)")?;
            }
            (true, false) => {
                forbid(
                    self.sat && a == Bf16,
                    "`.sat` is not accepted with a `.bf16` source (ptxas 13.5; §9.7.9.21 does not say)",
                )?;
                forbid(!rnd.is_some_and(CvtRnd::is_integer), "float-to-integer cvt needs an integer rounding modifier `.rni/.rzi/.rmi/.rpi` (§9.7.9.21 Integer Notes)")?;
            }
            (false, true) => {
                forbid(!rnd.is_some_and(CvtRnd::is_frnd), "integer-to-float cvt needs a float rounding modifier `.rn/.rz/.rm/.rp` (§9.7.9.21 Floating Point Notes)")?;
                forbid(
                    self.sat && d == Bf16,
                    "`.sat` applies to `.f16`, `.f32`, `.f64` results only (§9.7.9.21 Saturation modifier)",
                )?;
            }
            (false, false) => {
                forbid(
                    self.sat && d == Bf16,
                    "`.sat` applies to `.f16`, `.f32`, `.f64` results only (§9.7.9.21 Saturation modifier)",
                )?;
                forbid(
                    self.sat && a == Bf16,
                    "`.sat` is not accepted with a `.bf16` source (ptxas 13.5; §9.7.9.21 does not say)",
                )?;
                if d == a {
                    forbid(rnd.is_some_and(|r| !r.is_integer()), "same-type float cvt takes no float rounding; use `.rni/.rzi/.rmi/.rpi` to round to an integral value (§9.7.9.21 Floating Point Notes)")?;
                } else if a == Bf16 || (d == Bf16 && a == F16) {
                    // ptxas 13.5 accepts these with or without `.rn/.rz/.rm/.rp`, although
                    // §9.7.9.21 makes rounding illegal for exact widening and mandatory for the
                    // lossy `.f16` -> `.bf16`; the spec's own example `cvt.f64.bf16.rp` agrees.
                    forbid(rnd.is_some_and(|r| !r.is_frnd()), "conversions from `.bf16` (and `.f16` -> `.bf16`) take only `.rn/.rz/.rm/.rp` (§9.7.9.21; ptxas 13.5)")?;
                } else {
                    let narrowing = d.bits() < a.bits() || d.bits() == a.bits();
                    if narrowing {
                        forbid(
                            !rnd.is_some_and(CvtRnd::is_frnd),
                            "narrowing float cvt needs `.rn/.rz/.rm/.rp` (§9.7.9.21 Floating Point Notes)",
                        )?;
                    } else {
                        forbid(rnd.is_some(), "widening float cvt is exact and takes no rounding modifier (§9.7.9.21 Floating Point Notes)")?;
                    }
                }
            }
        }
        if self.relu {
            req = req.sm(80).ptx(7, 0);
        }
        if self.satfinite {
            req = req.sm(80).ptx(8, 1);
        }
        if d == Bf16 || a == Bf16 {
            req = match (d, a) {
                (Bf16, F32) => req.sm(80).ptx(7, 0),
                (F32, Bf16) if !self.ftz => req.sm(80).ptx(7, 1),
                _ => req.sm(90).ptx(7, 8),
            };
        }
        Ok(req)
    }

    fn check_packed(&self, shape: Shape) -> Result<Requirement, Illegal> {
        use CvtType::*;
        forbid(self.ftz, "`.ftz` applies to scalar `.f32` conversions only (§9.7.9.21 Floating Point Notes)")?;
        forbid(self.sat, "`.sat` applies to `.f16`, `.f32`, `.f64` results only (§9.7.9.21 Saturation modifier)")?;
        let rnd = self.rnd;
        let need = |ok: bool, what: &str| forbid(!ok, what);
        match shape {
            Shape::Scalar => unreachable!("scalar shapes are checked by check_scalar"),
            Shape::PairFromF32 => {
                if rnd == Some(CvtRnd::Rs) {
                    return Ok(Requirement::new(100, 8, 7).gate(GATE_RS));
                }
                need(
                    matches!(rnd, Some(CvtRnd::Rn | CvtRnd::Rz)),
                    "`.f16x2`/`.bf16x2` ← `.f32` takes `.rn`, `.rz` or `.rs` (§9.7.9.21 syntax)",
                )?;
                let req = Requirement::new(80, 7, 0);
                Ok(if self.satfinite { req.ptx(8, 1) } else { req })
            }
            Shape::Tf32 => match rnd {
                Some(CvtRnd::Rna) => {
                    forbid(self.relu, "`cvt.rna.tf32.f32` takes no `.relu` (§9.7.9.21 syntax)")?;
                    let req = Requirement::new(80, 7, 0);
                    Ok(if self.satfinite { req.ptx(8, 1) } else { req })
                }
                Some(CvtRnd::Rn | CvtRnd::Rz) => {
                    let req = Requirement::new(90, 7, 8);
                    Ok(if self.satfinite { req.sm(100).ptx(8, 6) } else { req })
                }
                _ => Illegal::err("`.tf32` ← `.f32` takes `.rna`, `.rn` or `.rz` (§9.7.9.21 syntax)"),
            },
            Shape::NarrowPair => {
                need(rnd == Some(CvtRnd::Rn), "FP8/FP6/FP4 x2 results take `.rn` (§9.7.9.21 syntax)")?;
                need(self.satfinite, "`.satfinite` is mandatory for FP8/FP6/FP4 destinations (§9.7.9.21)")?;
                if self.dtype.is_f8x2() {
                    Ok(Requirement::new(89, 7, 8).older_sm_ptx(90, 8, 1))
                } else {
                    Ok(Requirement::new(100, 8, 6).gate(GATE_SM100_110_120))
                }
            }
            Shape::WidenToF16x2 => {
                need(rnd == Some(CvtRnd::Rn), "`.f16x2` ← FP8/FP6/FP4 takes `.rn` (§9.7.9.21 syntax)")?;
                forbid(self.satfinite, "`.f16x2` ← FP8/FP6/FP4 takes no `.satfinite` (§9.7.9.21 syntax)")?;
                if self.atype.is_f8x2() {
                    Ok(Requirement::new(89, 7, 8).older_sm_ptx(90, 8, 1))
                } else {
                    Ok(Requirement::new(100, 8, 6).gate(GATE_SM100_110_120))
                }
            }
            Shape::Quad => {
                need(rnd == Some(CvtRnd::Rs), "x4 destinations take `.rs` (§9.7.9.21 syntax)")?;
                need(self.satfinite, "`.satfinite` is mandatory for FP8/FP6/FP4 destinations (§9.7.9.21)")?;
                Ok(Requirement::new(100, 8, 7).gate(GATE_RS))
            }
            Shape::Ue8m0 => {
                need(
                    matches!(rnd, Some(CvtRnd::Rz | CvtRnd::Rp)),
                    "`.ue8m0x2` results take `.rz` or `.rp` (`.frnd3`, §9.7.9.21 syntax)",
                )?;
                forbid(self.relu, "`.ue8m0x2` results take no `.relu` (§9.7.9.21 syntax)")?;
                let _ = (F32, Bf16x2);
                Ok(Requirement::new(100, 8, 6).gate(GATE_SM100_110_120))
            }
            Shape::FromUe8m0 => {
                need(rnd == Some(CvtRnd::Rn), "`.bf16x2` ← `.ue8m0x2` takes `.rn` (§9.7.9.21 syntax)")?;
                forbid(
                    self.relu || self.satfinite,
                    "`cvt.rn.bf16x2.ue8m0x2` takes no `.relu`/`.satfinite` (§9.7.9.21 syntax)",
                )?;
                Ok(Requirement::new(100, 8, 6).gate(GATE_SM100_110_120))
            }
        }
    }
}

impl FormSpec for Cvt {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for rnd in opt::<CvtRnd>() {
            for ftz in FLAG {
                for sat in FLAG {
                    for relu in FLAG {
                        for satfinite in FLAG {
                            for &dtype in CvtType::ALL {
                                for &atype in CvtType::ALL {
                                    out.push(Cvt { rnd, ftz, sat, relu, satfinite, dtype, atype });
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new()
            .lit("cvt")
            .opt(self.rnd)
            .flag(self.ftz, "ftz")
            .flag(self.sat, "sat")
            .flag(self.relu, "relu")
            .flag(self.satfinite, "satfinite")
            .q(self.dtype)
            .q(self.atype)
            .finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        Ok(Cvt {
            rnd: bag.take(),
            ftz: bag.flag("ftz"),
            sat: bag.flag("sat"),
            relu: bag.flag("relu"),
            satfinite: bag.flag("satfinite"),
            dtype: bag.require("destination type")?,
            atype: bag.require("source type")?,
        })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        let d = OperandSpec::dst("d", OperandKind::Reg(self.dtype.reg()));
        if self.dtype.is_x4() {
            return vec![
                d,
                OperandSpec::src("a, b, e, f", OperandKind::Vector(RegType::F32, 4)),
                OperandSpec::src("rbits", OperandKind::Reg(RegType::B32)),
            ];
        }
        let mut ops = vec![d, OperandSpec::src("a", OperandKind::Reg(self.atype.reg()))];
        if self.two_f32_sources() {
            ops.push(OperandSpec::src("b", OperandKind::Reg(RegType::F32)));
        }
        if self.rnd == Some(CvtRnd::Rs) {
            ops.push(OperandSpec::src("rbits", OperandKind::Reg(RegType::B32)));
        }
        ops
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        let shape = self.shape().ok_or_else(|| {
            Illegal(format!("no line of the §9.7.9.21 syntax converts .{} to .{}", self.atype, self.dtype))
        })?;
        match shape {
            Shape::Scalar => self.check_scalar(),
            s => {
                forbid(
                    self.rnd == Some(CvtRnd::Rs) && !matches!(s, Shape::PairFromF32 | Shape::Quad),
                    "`.rs` is only defined for `.f16x2`/`.bf16x2` and x4 destinations (§9.7.9.21 syntax)",
                )?;
                self.check_packed(s)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cvt(s: &str) -> Cvt {
        let mut bag = TokenBag::new(s).unwrap();
        let c = Cvt::parse(&mut bag, &[]).unwrap();
        bag.finish().unwrap();
        c
    }

    #[test]
    fn spec_examples_are_legal() {
        for s in [
            "cvt.rzi.s32.f64",
            "cvt.rni.f32.f32",
            "cvt.f32.f32",
            "cvt.rn.relu.f16.f32",
            "cvt.rz.f16x2.f32",
            "cvt.rn.relu.satfinite.f16x2.f32",
            "cvt.rn.bf16.f32",
            "cvt.rz.relu.satfinite.bf16.f32",
            "cvt.rna.satfinite.tf32.f32",
            "cvt.rn.relu.tf32.f32",
            "cvt.f64.bf16",
            "cvt.rz.bf16.f16",
            "cvt.rz.bf16.u64",
            "cvt.rpi.s8.bf16",
            "cvt.rpi.bf16.bf16",
            "cvt.rn.satfinite.e4m3x2.f32",
            "cvt.rn.relu.satfinite.e5m2x2.f16x2",
            "cvt.rn.f16x2.e4m3x2",
            "cvt.rn.relu.f16x2.e2m1x2",
            "cvt.rs.f16x2.f32",
            "cvt.rs.satfinite.e2m1x4.f32",
            "cvt.rz.satfinite.ue8m0x2.bf16x2",
            "cvt.rn.bf16x2.ue8m0x2",
        ] {
            let c = cvt(s);
            assert!(c.check().is_ok(), "{s}: {:?}", c.check());
        }
    }

    #[test]
    fn rules_reject_what_the_spec_forbids() {
        for s in [
            "cvt.rn.satfinite.e4m3x2.f16",  // no such line
            "cvt.rn.e4m3x2.f32",            // .satfinite mandatory
            "cvt.rzi.f32.s32",              // int rounding on int->float
            "cvt.f32.s32.ftz",              // needs rounding
            "cvt.rn.f64.f32",               // widening takes no rounding
            "cvt.rn.f32.f32",               // same type: integer rounding only
            "cvt.sat.u64.u32",              // range is a superset
            "cvt.ftz.f64.f16",              // ftz without f32
            "cvt.rs.f16.f32",               // .rs only on packed destinations
            "cvt.rn.satfinite.ue8m0x2.f32", // .rz/.rp only
        ] {
            assert!(cvt(s).check().is_err(), "{s} should be illegal");
        }
    }

    #[test]
    fn opcode_is_canonical() {
        assert_eq!(cvt("cvt.f64.bf16.rp").opcode(), "cvt.rp.f64.bf16");
        assert_eq!(cvt("cvt.satfinite.rn.relu.e4m3x2.f32").opcode(), "cvt.rn.relu.satfinite.e4m3x2.f32");
    }
}
