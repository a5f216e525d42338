//! `multimem.ld_reduce`, `multimem.st` and `multimem.red` (§9.7.9.14): memory operations on
//! multimem addresses, integer and floating-point syntax blocks.
//!
//! The three families share one qualifier model: an optional semantics (`.weak`, `.relaxed`,
//! `.acquire`, `.release`), `.scope`, `.global`, the operation (`ld_reduce`, `red`), the
//! accumulation precision `.acc::f32`/`.acc::f16`, `.vec` and the type. Candidates are the
//! full cross product; `check` applies the semantics allowed per instruction, the `.vec`
//! table (type size × vector length of 32, 64 or 128 bits, no `.vec` with `.f64`, none with
//! integer types), the `.op`/type table and the `.acc_prec` table, then the PTX ISA and
//! Target ISA notes (FP8 types and `.acc::f16` behind [`GATE_MULTIMEM_FP8`]).
//!
//! These instructions are compile-only for ptxdiff: they are modeled and checked with ptxas
//! but never run.

use super::operand::{AddrKind, Operand, OperandKind, OperandSpec};
use super::qualifier::{opt, OpcodeWriter, Qualifier, TokenBag, FLAG};
use super::target::{Requirement, GATE_MULTIMEM_FP8};
use super::types::{RegType, Scope, VecWidth};
use super::{forbid, FormSpec, Illegal, ParseError};
use crate::qualifiers;

qualifiers! {
    /// `.ldsem`, `.stsem`, `.redsem` and the `.weak` of the second syntax lines.
    pub enum MmSem { Weak = "weak", Relaxed = "relaxed", Acquire = "acquire", Release = "release" }

    /// `.op` / `.redop`.
    pub enum MmOp { Min = "min", Max = "max", Add = "add", And = "and", Or = "or", Xor = "xor" }

    /// `.acc_prec`.
    pub enum AccPrec { F32 = "acc::f32", F16 = "acc::f16" }

    /// `.type` / `.redtype` of both syntax blocks.
    pub enum MmType {
        B32 = "b32", B64 = "b64", U32 = "u32", U64 = "u64", S32 = "s32", S64 = "s64",
        F16 = "f16", F16x2 = "f16x2", Bf16 = "bf16", Bf16x2 = "bf16x2", F32 = "f32", F64 = "f64",
        E5m2 = "e5m2", E5m2x2 = "e5m2x2", E5m2x4 = "e5m2x4",
        E4m3 = "e4m3", E4m3x2 = "e4m3x2", E4m3x4 = "e4m3x4",
    }
}

impl MmType {
    /// The integer syntax block's types.
    pub fn is_int(self) -> bool {
        use MmType::*;
        matches!(self, B32 | B64 | U32 | U64 | S32 | S64)
    }
    /// `.e5m2 … .e4m3x4`: the FP8 types.
    pub fn is_fp8(self) -> bool {
        use MmType::*;
        matches!(self, E5m2 | E5m2x2 | E5m2x4 | E4m3 | E4m3x2 | E4m3x4)
    }
    /// `.f16 .f16x2 .bf16 .bf16x2`.
    pub fn is_half(self) -> bool {
        use MmType::*;
        matches!(self, F16 | F16x2 | Bf16 | Bf16x2)
    }
    /// The register that holds one element (ptxas 13.5 wants `.b8` for an FP8 element,
    /// `.b16`/`.b32` for 16/32-bit packed types).
    pub fn reg(self) -> RegType {
        use MmType::*;
        match self {
            B32 => RegType::B32,
            B64 => RegType::B64,
            U32 => RegType::U32,
            U64 => RegType::U64,
            S32 => RegType::S32,
            S64 => RegType::S64,
            F32 => RegType::F32,
            F64 => RegType::F64,
            E5m2 | E4m3 => RegType::B8,
            F16 | Bf16 | E5m2x2 | E4m3x2 => RegType::B16,
            F16x2 | Bf16x2 | E5m2x4 | E4m3x4 => RegType::B32,
        }
    }
    /// Width in bits.
    pub fn bits(self) -> u32 {
        self.reg().bits()
    }
}

/// Which of the three instructions a check is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Inst {
    LdReduce,
    St,
    Red,
}

/// The qualifiers all three share, checked together.
#[derive(Clone, Copy, Debug)]
struct Common {
    inst: Inst,
    sem: Option<MmSem>,
    scope: Option<Scope>,
    op: Option<MmOp>,
    acc: Option<AccPrec>,
    vec: Option<VecWidth>,
    ty: MmType,
}

impl Common {
    fn check(&self) -> Result<Requirement, Illegal> {
        use MmType::*;
        let ty = self.ty;
        let sem_ok = match (self.inst, self.sem) {
            (_, None) => true,
            (Inst::LdReduce, Some(s)) => s != MmSem::Release,
            (Inst::St, Some(s)) => s != MmSem::Acquire,
            (Inst::Red, Some(s)) => matches!(s, MmSem::Relaxed | MmSem::Release),
        };
        forbid(!sem_ok, "semantics not allowed for this instruction (§9.7.9.14 .ldsem/.stsem/.redsem)")?;
        let strong = matches!(self.sem, Some(MmSem::Relaxed | MmSem::Acquire | MmSem::Release));
        // ptxas 13.5 requires `.scope` with `.relaxed`/`.acquire`/`.release` and rejects it
        // without them ("requires order"), although §9.7.9.14 makes `.scope` optional in
        // both cases (default `.sys` for `multimem.red`).
        forbid(
            self.scope.is_some() != strong,
            "`.scope` goes with `.relaxed`/`.acquire`/`.release` and only with them (§9.7.9.14; ptxas)",
        )?;
        forbid(self.inst == Inst::Red && ty.is_fp8(), "`multimem.red` has no FP8 types (§9.7.9.14 .redtype)")?;
        if ty.is_int() {
            // ptxas 13.5 accepts (and ignores) `.acc_prec` on `multimem.red`.
            forbid(
                self.vec.is_some() || (self.acc.is_some() && self.inst != Inst::Red),
                "integer types take no `.vec`/`.acc_prec` (§9.7.9.14 integer syntax)",
            )?;
        } else if let Some(v) = self.vec {
            forbid(ty == F64, "`.f64` cannot be used with `.vec` (§9.7.9.14)")?;
            let total = ty.bits() * u32::from(v.len());
            forbid(
                !matches!(total, 32 | 64 | 128),
                "type size × `.vec` must be 32, 64 or 128 bits (§9.7.9.14 .vec table)",
            )?;
        } else {
            forbid(ty.bits() < 32, "without `.vec` the type must be 32 or 64 bits (§9.7.9.14 .vec table)")?;
        }
        if let Some(op) = self.op {
            let ok = match op {
                MmOp::Add => !matches!(ty, B32 | B64 | S64),
                MmOp::And | MmOp::Or | MmOp::Xor => matches!(ty, B32 | B64),
                MmOp::Min | MmOp::Max => !matches!(ty, B32 | B64 | F32 | F64),
            };
            forbid(!ok, "`.op` and type do not match (§9.7.9.14 op/type table)")?;
            // ptxas 13.5 accepts `.min`/`.max` on `multimem.red` for `.f16`/`.bf16`/`.f16x2`/
            // `.bf16x2` with `.vec` (not without), although §9.7.9.14 has `.redop = { .add }`.
            forbid(
                self.inst == Inst::Red
                    && !ty.is_int()
                    && op != MmOp::Add
                    && !(ty.is_half() && self.vec.is_some()),
                "floating-point `multimem.red` takes `.add`, or `.min`/`.max` on vectors of half types (§9.7.9.14 .redop; ptxas)",
            )?;
            // ptxas 13.5 rejects `.acc_prec` with `.min`/`.max` on `multimem.ld_reduce`
            // ("illegal reduction operation"); §9.7.9.14 only says what it changes.
            forbid(
                self.inst == Inst::LdReduce && self.acc.is_some() && op != MmOp::Add,
                "`.acc_prec` goes with `.add` only (ptxas; §9.7.9.14 .acc_prec table)",
            )?;
        }
        if let (Some(acc), true) = (self.acc, self.inst != Inst::Red) {
            let ok = match acc {
                AccPrec::F32 => ty.is_half(),
                AccPrec::F16 => ty.is_fp8(),
            };
            forbid(!ok, "`.acc_prec` does not apply to this type (§9.7.9.14 .acc_prec table)")?;
        }
        // §9.7.9.14 PTX ISA and Target ISA Notes.
        let mut req = Requirement::new(90, 8, 1);
        // On `multimem.red`, ptxas 13.5 accepts either `.acc_prec` from PTX ISA 8.1 on every
        // sm_90+ target (it ignores `.acc_prec` there), so only `ld_reduce` pays for it.
        let acc = self.acc.filter(|_| self.inst != Inst::Red);
        match acc {
            Some(AccPrec::F32) => req = req.ptx(8, 2),
            Some(AccPrec::F16) => req = req.ptx(8, 6).gate(GATE_MULTIMEM_FP8),
            None => {}
        }
        if ty.is_fp8() {
            req = req.ptx(8, 6).gate(GATE_MULTIMEM_FP8);
        }
        Ok(req)
    }

    fn value(&self, name: &'static str, role_dst: bool) -> OperandSpec {
        let kind = match self.vec {
            Some(v) => OperandKind::Vector(self.ty.reg(), v.len()),
            None => OperandKind::Reg(self.ty.reg()),
        };
        if role_dst {
            OperandSpec::dst(name, kind)
        } else {
            OperandSpec::src(name, kind)
        }
    }
}

fn addr(global: bool) -> OperandSpec {
    OperandSpec::src("a", OperandKind::Addr(if global { AddrKind::Global } else { AddrKind::Generic }))
}

/// One `multimem.ld_reduce` form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MultimemLdReduce {
    /// `.ldsem` or `.weak`.
    pub sem: Option<MmSem>,
    /// `.scope`.
    pub scope: Option<Scope>,
    /// `.global` (`.ss`).
    pub global: bool,
    /// `.op`.
    pub op: MmOp,
    /// `.acc_prec`.
    pub acc: Option<AccPrec>,
    /// `.vec`.
    pub vec: Option<VecWidth>,
    /// `.type`.
    pub ty: MmType,
}

/// One `multimem.st` form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MultimemSt {
    /// `.stsem` or `.weak`.
    pub sem: Option<MmSem>,
    /// `.scope`.
    pub scope: Option<Scope>,
    /// `.global` (`.ss`).
    pub global: bool,
    /// `.vec`.
    pub vec: Option<VecWidth>,
    /// `.type`.
    pub ty: MmType,
}

/// One `multimem.red` form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MultimemRed {
    /// `.redsem`.
    pub sem: Option<MmSem>,
    /// `.scope`.
    pub scope: Option<Scope>,
    /// `.global` (`.ss`).
    pub global: bool,
    /// `.op` / `.redop`.
    pub op: MmOp,
    /// `.acc_prec`: not in the syntax of `multimem.red`, but ptxas 13.5 accepts (and
    /// ignores) it there.
    pub acc: Option<AccPrec>,
    /// `.vec`.
    pub vec: Option<VecWidth>,
    /// `.type` / `.redtype`.
    pub ty: MmType,
}

/// The qualifiers every instruction has: sem, scope, `.global`, `.vec`, type.
type Base = (Option<MmSem>, Option<Scope>, bool, Option<VecWidth>, MmType);

/// Every [`Base`] combination.
fn base_candidates() -> Vec<Base> {
    let mut out = Vec::new();
    for sem in opt::<MmSem>() {
        for scope in opt::<Scope>() {
            for global in FLAG {
                for vec in opt::<VecWidth>() {
                    for &ty in MmType::ALL {
                        out.push((sem, scope, global, vec, ty));
                    }
                }
            }
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn opcode(
    inst: &'static str,
    sem: Option<MmSem>,
    scope: Option<Scope>,
    global: bool,
    op: Option<MmOp>,
    acc: Option<AccPrec>,
    vec: Option<VecWidth>,
    ty: MmType,
) -> String {
    OpcodeWriter::new()
        .lit("multimem")
        .lit(inst)
        .opt(sem)
        .opt(scope)
        .flag(global, "global")
        .opt(op)
        .opt(acc)
        .opt(vec)
        .q(ty)
        .finish()
}

/// Reads `inst` (`ld_reduce` or `red`) and the qualifiers that `multimem.ld_reduce` and
/// `multimem.red` share.
fn parse_reduction(bag: &mut TokenBag<'_>, inst: &str) -> Result<MultimemLdReduce, ParseError> {
    bag.expect(inst)?;
    Ok(MultimemLdReduce {
        sem: bag.take(),
        scope: bag.take(),
        global: bag.flag("global"),
        op: bag.require("operation")?,
        acc: bag.take(),
        vec: bag.take(),
        ty: bag.require("type")?,
    })
}

impl FormSpec for MultimemLdReduce {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for (sem, scope, global, vec, ty) in base_candidates() {
            for &op in MmOp::ALL {
                for acc in opt::<AccPrec>() {
                    out.push(MultimemLdReduce { sem, scope, global, op, acc, vec, ty });
                }
            }
        }
        out
    }

    fn opcode(&self) -> String {
        opcode("ld_reduce", self.sem, self.scope, self.global, Some(self.op), self.acc, self.vec, self.ty)
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        parse_reduction(bag, "ld_reduce")
    }

    fn operands(&self) -> Vec<OperandSpec> {
        vec![self.common().value("d", true), addr(self.global)]
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        self.common().check()
    }
}

impl MultimemLdReduce {
    fn common(&self) -> Common {
        Common {
            inst: Inst::LdReduce,
            sem: self.sem,
            scope: self.scope,
            op: Some(self.op),
            acc: self.acc,
            vec: self.vec,
            ty: self.ty,
        }
    }
}

impl FormSpec for MultimemSt {
    fn candidates() -> Vec<Self> {
        base_candidates()
            .into_iter()
            .map(|(sem, scope, global, vec, ty)| MultimemSt { sem, scope, global, vec, ty })
            .collect()
    }

    fn opcode(&self) -> String {
        opcode("st", self.sem, self.scope, self.global, None, None, self.vec, self.ty)
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        bag.expect("st")?;
        Ok(MultimemSt {
            sem: bag.take(),
            scope: bag.take(),
            global: bag.flag("global"),
            vec: bag.take(),
            ty: bag.require("type")?,
        })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        vec![addr(self.global), self.common().value("b", false)]
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        self.common().check()
    }
}

impl MultimemSt {
    fn common(&self) -> Common {
        Common { inst: Inst::St, sem: self.sem, scope: self.scope, op: None, acc: None, vec: self.vec, ty: self.ty }
    }
}

impl FormSpec for MultimemRed {
    fn candidates() -> Vec<Self> {
        MultimemLdReduce::candidates().into_iter().map(MultimemRed::from_ld_reduce).collect()
    }

    fn opcode(&self) -> String {
        opcode("red", self.sem, self.scope, self.global, Some(self.op), self.acc, self.vec, self.ty)
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        parse_reduction(bag, "red").map(MultimemRed::from_ld_reduce)
    }

    fn operands(&self) -> Vec<OperandSpec> {
        vec![addr(self.global), self.common().value("b", false)]
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        self.common().check()
    }
}

impl MultimemRed {
    /// The `multimem.red` form with the qualifiers of `f` (the two instructions have the same
    /// slots).
    fn from_ld_reduce(f: MultimemLdReduce) -> Self {
        let MultimemLdReduce { sem, scope, global, op, acc, vec, ty } = f;
        MultimemRed { sem, scope, global, op, acc, vec, ty }
    }

    fn common(&self) -> Common {
        let MultimemRed { sem, scope, global, op, acc, vec, ty } = *self;
        Common { inst: Inst::Red, ..MultimemLdReduce { sem, scope, global, op, acc, vec, ty }.common() }
    }
}

#[cfg(test)]
mod tests {
    use crate::isa::test_util::{assert_illegal, form};
    use crate::isa::Target;

    #[test]
    fn spec_examples_are_legal() {
        let sm100a: Target = "sm_100a".parse().unwrap();
        for s in [
            "multimem.ld_reduce.and.b32 %v1, [%a1];",
            "multimem.ld_reduce.acquire.gpu.global.add.u32 %v2, [%a2];",
            "multimem.st.relaxed.gpu.b32 [%a3], %v3;",
            "multimem.st.release.cta.global.u32 [%a4], %v4;",
            "multimem.red.release.cta.global.add.v4.f32 [%a6], {%v6, %v7, %v8, %v9};",
            "multimem.ld_reduce.add.acc::f32.v2.f16x2 {%v10, %v11}, [%a7];",
            "multimem.ld_reduce.relaxed.cta.min.v2.e4m3x2 {%v12, %v13}, [%a8];",
            "multimem.ld_reduce.relaxed.cta.add.v4.e4m3 {%v14, %v15, %v16, %v17}, [%a9];",
            "multimem.ld_reduce.add.acc::f16.v4.e5m2 {%v18, %v19, %v20, %v21}, [%a10];",
        ] {
            let f = form(s);
            assert!(f.is_valid(&sm100a), "{s}: {:?}", f.check());
        }
    }

    #[test]
    fn rules_reject_what_the_spec_forbids() {
        assert_illegal(&[
            "multimem.ld_reduce.add.f16 %v, [%a];",          // 16 bits without .vec
            "multimem.ld_reduce.add.v2.f64 {%v, %w}, [%a];", // .f64 with .vec
            "multimem.ld_reduce.weak.gpu.add.u32 %v, [%a];", // .weak with scope
            "multimem.st.acquire.b32 [%a], %v;",
            "multimem.st.gpu.b32 [%a], %v;", // scope without semantics (ptxas)
            "multimem.red.relaxed.gpu.max.f64 [%a], %v;", // spec example; ptxas rejects
            "multimem.red.add.v4.e4m3 [%a], {%v, %w, %x, %y};", // no FP8 .redtype
            "multimem.ld_reduce.and.u32 %v, [%a];",
            "multimem.ld_reduce.add.acc::f16.v2.f16 {%v, %w}, [%a];",
        ]);
        let fp8 = form("multimem.ld_reduce.add.v4.e4m3 {%a, %b, %c, %d}, [%x];");
        assert!(!fp8.is_valid(&"sm_90a".parse().unwrap()));
        assert!(!fp8.is_valid(&"sm_100".parse().unwrap()));
        assert!(fp8.is_valid(&"sm_120a".parse().unwrap()));
    }

    #[test]
    fn opcode_is_canonical() {
        assert_eq!(
            form("multimem.ld_reduce.f16x2.v2.acc::f32.add.global.gpu.relaxed {%a, %b}, [%x];").opcode(),
            "multimem.ld_reduce.relaxed.gpu.global.add.acc::f32.v2.f16x2"
        );
    }
}
