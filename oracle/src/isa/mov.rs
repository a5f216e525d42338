//! `mov` (§9.7.9.3 and §9.7.9.4): copy a register or immediate, read a special register, take
//! the (non-generic) address of a variable in `.global`/`.shared`/`.const`/`.local`/`.param`,
//! of a device function or of a kernel, and pack/unpack vectors of 8/16/32/64-bit elements into
//! or out of `.b16`/`.b32`/`.b64`/`.b128` scalars.
//!
//! The operand list decides the form's [`MovShape`]; `parse` reads it from the operands:
//! a brace vector as destination unpacks, as source packs; a name starting with `%` is a
//! register unless it is a PTX special register (`%tid.x`, `%globaltimer`, …); an immediate is
//! a copy; any other name (optionally `+imm`) is a symbol. The instruction text alone does not
//! say where a symbol is declared, so `parse` recognizes the probe harness's symbol names
//! (`gbuf`, `sbuf`, `cbuf`, `lbuf`, `kparam`, `probe_fn`, `probe_kernel`) and takes any other
//! symbol for a `.global` variable; ptxas treats variables of every state space alike for
//! `mov` (checked with ptxas 13.5), so this choice never changes validity.
//!
//! Invariant: the element width of a pack/unpack is `type bits / n`; the form does not
//! record element register types (ptxas accepts any type of the element width, e.g. `.u32` or
//! `.f32` elements of `mov.b64 d, {a, b}`).

use super::operand::{Operand, OperandKind, OperandSpec, SymbolKind};
use super::qualifier::{OpcodeWriter, Qualifier, TokenBag};
use super::target::Requirement;
use super::types::RegType;
use super::{forbid, FormSpec, Illegal, ParseError};
use crate::qualifiers;

qualifiers! {
    /// `.type` of `mov` (§9.7.9.3), plus `.b128` of the pack/unpack form (§9.7.9.4).
    pub enum MovType {
        Pred = "pred",
        B16 = "b16", B32 = "b32", B64 = "b64", B128 = "b128",
        U16 = "u16", U32 = "u32", U64 = "u64",
        S16 = "s16", S32 = "s32", S64 = "s64",
        F32 = "f32", F64 = "f64",
    }
}

impl MovType {
    /// The register type of `d` (and of `a` for a copy).
    pub fn reg(self) -> RegType {
        use MovType::*;
        match self {
            Pred => RegType::Pred,
            B16 => RegType::B16,
            B32 => RegType::B32,
            B64 => RegType::B64,
            B128 => RegType::B128,
            U16 => RegType::U16,
            U32 => RegType::U32,
            U64 => RegType::U64,
            S16 => RegType::S16,
            S32 => RegType::S32,
            S64 => RegType::S64,
            F32 => RegType::F32,
            F64 => RegType::F64,
        }
    }

    /// Width in bits (1 for `.pred`).
    pub fn bits(self) -> u32 {
        self.reg().bits()
    }

    /// `.b16 .b32 .b64 .b128`: the types of the pack/unpack form (§9.7.9.4).
    pub fn is_bit_size(self) -> bool {
        matches!(self, MovType::B16 | MovType::B32 | MovType::B64 | MovType::B128)
    }
}

/// What `mov`'s operand list looks like (decided by the operands, not by the opcode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MovShape {
    /// `mov.type d, a`: `a` a register or an immediate (§9.7.9.3).
    Copy,
    /// `mov.type d, sreg`: a special register (§9.7.9.3).
    SpecialReg,
    /// `mov.type d, avar{+imm}` (address of a variable of the given space), `d, fname`
    /// ([`SymbolKind::Function`]) or `d, kernel` ([`SymbolKind::Kernel`]) (§9.7.9.3).
    Symbol(SymbolKind),
    /// `mov.type d, {a.x, …}`: pack `n` (2 or 4) elements into a scalar (§9.7.9.4).
    Pack(u8),
    /// `mov.type {d.x, …}, a`: unpack a scalar into `n` (2 or 4) elements (§9.7.9.4).
    Unpack(u8),
}

impl MovShape {
    /// Every shape, in a fixed order.
    pub const ALL: [MovShape; 13] = [
        MovShape::Copy,
        MovShape::SpecialReg,
        MovShape::Symbol(SymbolKind::GlobalVar),
        MovShape::Symbol(SymbolKind::SharedVar),
        MovShape::Symbol(SymbolKind::ConstVar),
        MovShape::Symbol(SymbolKind::LocalVar),
        MovShape::Symbol(SymbolKind::ParamVar),
        MovShape::Symbol(SymbolKind::Function),
        MovShape::Symbol(SymbolKind::Kernel),
        MovShape::Pack(2),
        MovShape::Pack(4),
        MovShape::Unpack(2),
        MovShape::Unpack(4),
    ];
}

/// One `mov` form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mov {
    /// `.type`.
    pub ty: MovType,
    /// The operand shape.
    pub shape: MovShape,
}

/// Base names of the PTX special registers (§10), without vector suffixes such as `.x`.
const SPECIAL_REGISTERS: &[&str] = &[
    "%tid",
    "%ntid",
    "%laneid",
    "%warpid",
    "%nwarpid",
    "%ctaid",
    "%nctaid",
    "%smid",
    "%nsmid",
    "%gridid",
    "%is_explicit_cluster",
    "%clusterid",
    "%nclusterid",
    "%cluster_ctaid",
    "%cluster_nctaid",
    "%cluster_ctarank",
    "%cluster_nctarank",
    "%lanemask_eq",
    "%lanemask_le",
    "%lanemask_lt",
    "%lanemask_ge",
    "%lanemask_gt",
    "%clock",
    "%clock_hi",
    "%clock64",
    "%globaltimer",
    "%globaltimer_lo",
    "%globaltimer_hi",
    "%total_smem_size",
    "%aggr_smem_size",
    "%dynamic_smem_size",
    "%current_graph_exec",
    "%reserved_smem_offset_begin",
    "%reserved_smem_offset_end",
    "%reserved_smem_offset_cap",
];

/// Whether `name` is a PTX special register (`%tid.x`, `%pm3`, `%envreg7`, …).
pub fn is_special_register(name: &str) -> bool {
    let base = name.split('.').next().unwrap_or(name);
    let numbered = |prefix: &str| {
        base.strip_prefix(prefix)
            .and_then(|n| n.strip_suffix("_64").or(Some(n)))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    SPECIAL_REGISTERS.contains(&base) || numbered("%pm") || numbered("%envreg") || numbered("%reserved_smem_offset_")
}

/// The conventional symbol name for each kind of symbol operand. Instruction text alone
/// cannot say whether a name is a variable or a function, so ptxdiff's modules (probes and
/// generated programs) declare their symbols under these names, and parsing maps them back.
pub fn symbol_name(kind: SymbolKind) -> &'static str {
    match kind {
        SymbolKind::GlobalVar => "gbuf",
        SymbolKind::SharedVar => "sbuf",
        SymbolKind::ConstVar => "cbuf",
        SymbolKind::LocalVar => "lbuf",
        SymbolKind::ParamVar => "kparam",
        SymbolKind::Function => "probe_fn",
        SymbolKind::Kernel => "probe_kernel",
    }
}

/// The kind of symbol `name` names under the [`symbol_name`] convention; any other name is
/// taken for a `.global` variable (see the module documentation).
pub fn symbol_kind(name: &str) -> SymbolKind {
    const KINDS: [SymbolKind; 7] = [
        SymbolKind::GlobalVar,
        SymbolKind::SharedVar,
        SymbolKind::ConstVar,
        SymbolKind::LocalVar,
        SymbolKind::ParamVar,
        SymbolKind::Function,
        SymbolKind::Kernel,
    ];
    if name == "mbar" {
        return SymbolKind::SharedVar;
    }
    KINDS.into_iter().find(|k| symbol_name(*k) == name).unwrap_or(SymbolKind::GlobalVar)
}

impl Mov {
    /// The register type of one pack/unpack element: `.b{bits/n}` (`.b8` where that width
    /// does not exist; such forms are illegal).
    fn element(&self, n: u8) -> RegType {
        match self.ty.bits() / u32::from(n) {
            16 => RegType::B16,
            32 => RegType::B32,
            64 => RegType::B64,
            _ => RegType::B8,
        }
    }
}

impl FormSpec for Mov {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for &ty in MovType::ALL {
            for shape in MovShape::ALL {
                out.push(Mov { ty, shape });
            }
        }
        out
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new().lit("mov").q(self.ty).finish()
    }

    fn parse(bag: &mut TokenBag<'_>, operands: &[Operand]) -> Result<Self, ParseError> {
        let ty = bag.require("type")?;
        let shape = match operands {
            [Operand::Vector(v), _] => MovShape::Unpack(vector_len(bag, v)?),
            [_, Operand::Vector(v)] => MovShape::Pack(vector_len(bag, v)?),
            [_, Operand::Name(n)] if is_special_register(n) => MovShape::SpecialReg,
            [_, Operand::Name(n)] if n.starts_with('%') => MovShape::Copy,
            [_, Operand::Name(n) | Operand::NameOffset(n, _)] => MovShape::Symbol(symbol_kind(n)),
            _ => MovShape::Copy,
        };
        Ok(Mov { ty, shape })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        let t = self.ty.reg();
        let d = OperandSpec::dst("d", OperandKind::Reg(t));
        match self.shape {
            MovShape::Copy => vec![d, OperandSpec::src("a", OperandKind::RegOrImm(t))],
            MovShape::SpecialReg => vec![d, OperandSpec::src("sreg", OperandKind::SpecialReg(t))],
            MovShape::Symbol(k) => {
                let name = match k {
                    SymbolKind::Function => "fname",
                    SymbolKind::Kernel => "kernel",
                    _ => "avar",
                };
                vec![d, OperandSpec::src(name, OperandKind::Symbol(k))]
            }
            MovShape::Pack(n) => vec![
                d,
                OperandSpec::src(
                    if n == 2 { "a.x, a.y" } else { "a.x, a.y, a.z, a.w" },
                    OperandKind::Vector(self.element(n), n),
                ),
            ],
            MovShape::Unpack(n) => vec![
                OperandSpec::dst(
                    if n == 2 { "d.x, d.y" } else { "d.x, d.y, d.z, d.w" },
                    OperandKind::Vector(self.element(n), n),
                ),
                OperandSpec::src("a", OperandKind::Reg(t)),
            ],
        }
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        use MovType::*;
        let ty = self.ty;
        let mut req = Requirement::new(0, 1, 0);
        if ty == F64 {
            // §9.7.9.3 Target ISA Notes: `mov.f64` requires sm_13.
            req = req.sm(13);
        }
        if ty == B128 {
            // §9.7.9.4 PTX/Target ISA Notes.
            req = req.sm(70).ptx(8, 3);
        }
        match self.shape {
            MovShape::Copy => {}
            MovShape::SpecialReg => {
                forbid(
                    matches!(ty, Pred | F32 | F64 | B128),
                    "a special register moves into an integer or bit-size register only \
                     (§9.7.9.3; ptxas: special register argument not allowed)",
                )?;
            }
            MovShape::Symbol(k) => match k {
                SymbolKind::Function | SymbolKind::Kernel => {
                    // ptxas 13.5 accepts every `.type` here, warning ("unexpected instruction
                    // types") for all but `.b32/.b64/.u32/.u64`, although §9.7.9.3 Notes say
                    // only `.u32`/`.u64` are allowed (signed types with a warning).
                    if k == SymbolKind::Kernel {
                        // §9.7.9.3 PTX/Target ISA Notes.
                        req = req.sm(35).ptx(3, 1);
                    }
                }
                _ => {
                    forbid(
                        matches!(ty, Pred | F32 | F64),
                        "the address of a variable goes into an integer or bit-size register \
                         (§9.7.9.3)",
                    )?;
                }
            },
            MovShape::Pack(n) | MovShape::Unpack(n) => {
                forbid(!ty.is_bit_size(), "pack/unpack needs `.b16`, `.b32`, `.b64` or `.b128` (§9.7.9.4 syntax)")?;
                let elem = ty.bits() / u32::from(n);
                forbid(
                    !matches!(elem, 8 | 16 | 32 | 64),
                    "pack/unpack elements are 8, 16, 32 or 64 bits wide (§9.7.9.4 semantics)",
                )?;
            }
        }
        Ok(req)
    }
}

fn vector_len(bag: &TokenBag<'_>, v: &[Operand]) -> Result<u8, ParseError> {
    match v.len() {
        2 => Ok(2),
        4 => Ok(4),
        n => Err(ParseError::new(bag.opcode(), format!("mov packs or unpacks 2 or 4 elements, not {n} (§9.7.9.4)"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::{Form, Instruction};

    fn mov(s: &str) -> Mov {
        match s.parse::<Instruction>().unwrap_or_else(|e| panic!("{s}: {e}")).form {
            Form::Mov(m) => m,
            f => panic!("{s}: parsed as {f:?}"),
        }
    }

    #[test]
    fn spec_examples_are_legal() {
        for (s, shape) in [
            ("mov.f32 %d, %a;", MovShape::Copy),
            ("mov.u16 %u, %v;", MovShape::Copy),
            ("mov.f32 %k, 0.1;", MovShape::Copy),
            ("mov.u32 %ptr, A;", MovShape::Symbol(SymbolKind::GlobalVar)),
            ("mov.u32 %ptr, A+20;", MovShape::Symbol(SymbolKind::GlobalVar)),
            ("mov.u64 %r, sbuf;", MovShape::Symbol(SymbolKind::SharedVar)),
            ("mov.u32 %addr, probe_fn;", MovShape::Symbol(SymbolKind::Function)),
            ("mov.u64 %kptr, probe_kernel;", MovShape::Symbol(SymbolKind::Kernel)),
            ("mov.u32 %r, %tid.x;", MovShape::SpecialReg),
            ("mov.b32 %r1, {a, b};", MovShape::Pack(2)),
            ("mov.b64 {lo, hi}, %x;", MovShape::Unpack(2)),
            ("mov.b32 %r1, {x, y, z, w};", MovShape::Pack(4)),
            ("mov.b32 {r, g, b, a}, %r1;", MovShape::Unpack(4)),
            ("mov.b64 {%r1, _}, %x;", MovShape::Unpack(2)),
            ("mov.b128 {%b1, %b2}, %y;", MovShape::Unpack(2)),
            ("mov.b128 %y, {%b1, %b2};", MovShape::Pack(2)),
        ] {
            let m = mov(s);
            assert_eq!(m.shape, shape, "{s}");
            assert!(m.check().is_ok(), "{s}: {:?}", m.check());
        }
    }

    #[test]
    fn rules_reject_what_the_spec_forbids() {
        for s in [
            "mov.u64 %d, {%a, %b};",         // pack needs a bit-size type
            "mov.b16 %d, {%a, %b, %c, %e};", // 4-bit elements
            "mov.pred %p, %tid.x;",
            "mov.f32 %f, gbuf;",
        ] {
            assert!(mov(s).check().is_err(), "{s} should be illegal");
        }
    }

    #[test]
    fn special_registers_are_recognized() {
        for s in ["%tid.x", "%globaltimer", "%pm3", "%pm0_64", "%envreg31", "%clock64"] {
            assert!(is_special_register(s), "{s}");
        }
        for s in ["%r1", "%tidx", "%pm", "%b32_0"] {
            assert!(!is_special_register(s), "{s}");
        }
    }

    #[test]
    fn opcode_is_canonical() {
        assert_eq!(mov("mov.b128 %y, {%b1, %b2};").opcode(), "mov.b128");
    }
}
