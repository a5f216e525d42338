//! Operands: their syntax (the [`Operand`] tree every instruction's operand list parses into)
//! and their shape per form ([`OperandSpec`]: the spec's operand name, what kind of operand it
//! is, and whether it is written).
//!
//! Syntax follows PTX ISA §4 (Syntax) and §6.4 (Operands): registers and symbols are
//! identifiers, immediates are decimal/hex/octal/binary integers or `0f`/`0d` hex floats or
//! decimal floats, vectors are `{a, b}` with `_` as a sink, addresses are `[base+offset]`
//! (optionally followed by `.unified`), tensor references are `[map, {c0, c1}]`, and a
//! destination may carry a predicate as `d|p`. Printing is canonical: parse∘print is the
//! identity on every value this module builds.

use std::fmt;

use super::types::RegType;
use super::ParseError;

/// An immediate operand.
#[derive(Clone, Debug, PartialEq)]
pub enum Imm {
    /// An integer literal (any radix on input; printed in decimal).
    Int(i128),
    /// A 32-bit float given by its bits: `0fXXXXXXXX`.
    F32Bits(u32),
    /// A 64-bit float given by its bits: `0dXXXXXXXXXXXXXXXX`.
    F64Bits(u64),
    /// A decimal floating-point literal such as `0.5`.
    Float(f64),
}

/// One operand as written.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// A register or symbol name (`%r1`, `gbuf`, `%tid.x`).
    Name(String),
    /// A symbol plus a byte offset (`A+20`).
    NameOffset(String, i64),
    /// An immediate.
    Imm(Imm),
    /// The sink `_`.
    Sink,
    /// A brace vector `{a, b, c, d}`.
    Vector(Vec<Operand>),
    /// A memory address `[base+offset]`; `base` is `None` for an absolute address `[240]`.
    Address {
        /// Register or symbol.
        base: Option<String>,
        /// Byte offset.
        offset: i64,
        /// Followed by `.unified` (§9.7.9.8 `ld`).
        unified: bool,
    },
    /// A tensor reference `[tensorMap, {c0, …}]` (§9.7.9.25.5).
    TensorRef {
        /// The tensor-map address operand.
        map: Box<Operand>,
        /// Coordinates.
        coords: Vec<Operand>,
    },
    /// A destination with its predicate: `d|p` (`shfl.sync`).
    WithPred(Box<Operand>, String),
}

/// What kind of operand a form's slot takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OperandKind {
    /// A register of this type.
    Reg(RegType),
    /// A register of this type or an immediate.
    RegOrImm(RegType),
    /// A register of any of these types (isspacep's `.u32` or `.u64` address); probes use
    /// the first.
    RegOneOf(&'static [RegType]),
    /// An integer immediate only; the value is the one the probe harness writes.
    Imm(i64),
    /// A brace vector of `n` registers of this type.
    Vector(RegType, u8),
    /// A destination register of this type with a predicate: `d|p`.
    RegWithPred(RegType),
    /// A memory address in this space.
    Addr(AddrKind),
    /// `[tensorMap, {c0..c(n-1)}]` with `n` `.s32` coordinates.
    TensorRef(u8),
    /// A predicate register.
    Pred,
    /// A variable or function name, possibly with an offset.
    Symbol(SymbolKind),
    /// A special register such as `%tid.x`.
    SpecialReg(RegType),
    /// The sink `_`: a destination the form discards (`mbarrier.arrive … _, [addr]`, whose
    /// `.shared::cluster` forms return no state).
    Sink,
}

/// Which address the probe harness must supply for an [`OperandKind::Addr`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddrKind {
    /// A generic address (64-bit register).
    Generic,
    /// An address in `.global`.
    Global,
    /// A `.global` or generic address written `[a].unified` (§9.7.9.8 `ld`).
    GlobalUnified,
    /// An address in the executing CTA's `.shared` window.
    SharedCta,
    /// An address in `.shared::cluster`.
    SharedCluster,
    /// An mbarrier object in `.shared` (`[mbar]`).
    Mbarrier,
    /// An mbarrier object in `.shared::cluster`, or a generic address of one.
    MbarrierGeneric,
    /// An address in `.local`.
    Local,
    /// An address in `.const`.
    Const,
    /// A kernel parameter (`.param::entry`, or `.param` read in an entry function).
    ParamEntry,
    /// A device-function parameter (`.param::func`); the probe places the instruction in a
    /// `.func`.
    ParamFunc,
    /// A tensor-map object (generic address, or `.const`/`.param` for `prefetch.tensormap`).
    Tensormap,
    /// An address of a tensor-map in `.global` or `.shared::cta` (`tensormap.replace`).
    TensormapSpace(TensormapSpace),
}

/// Where a `tensormap.replace` address points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TensormapSpace {
    /// No state space: generic addressing.
    Generic,
    /// `.global`.
    Global,
    /// `.shared::cta`.
    SharedCta,
}

/// Which symbol the probe harness must supply for an [`OperandKind::Symbol`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    /// A variable in `.global`.
    GlobalVar,
    /// A variable in `.shared`.
    SharedVar,
    /// A variable in `.const`.
    ConstVar,
    /// A variable in `.local`.
    LocalVar,
    /// A kernel parameter.
    ParamVar,
    /// A device function.
    Function,
    /// A kernel entry function.
    Kernel,
}

/// Whether an operand is read or written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Written by the instruction.
    Dst,
    /// Read by the instruction.
    Src,
}

/// One operand slot of a form: its name in the spec's syntax (`d`, `a`, `rbits`, …), its
/// kind and role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OperandSpec {
    /// The spec's name for it.
    pub name: &'static str,
    /// What kind of operand it is.
    pub kind: OperandKind,
    /// Read or written.
    pub role: Role,
}

impl OperandSpec {
    /// A destination.
    pub const fn dst(name: &'static str, kind: OperandKind) -> Self {
        OperandSpec { name, kind, role: Role::Dst }
    }
    /// A source.
    pub const fn src(name: &'static str, kind: OperandKind) -> Self {
        OperandSpec { name, kind, role: Role::Src }
    }
}

impl fmt::Display for Imm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Imm::Int(v) => write!(f, "{v}"),
            Imm::F32Bits(b) => write!(f, "0f{b:08X}"),
            Imm::F64Bits(b) => write!(f, "0d{b:016X}"),
            Imm::Float(x) => {
                let s = format!("{x:?}");
                f.write_str(&s)
            }
        }
    }
}

fn write_list(f: &mut fmt::Formatter<'_>, items: &[Operand]) -> fmt::Result {
    for (i, o) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{o}")?;
    }
    Ok(())
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Name(n) => f.write_str(n),
            Operand::NameOffset(n, off) => write!(f, "{n}+{off}"),
            Operand::Imm(i) => write!(f, "{i}"),
            Operand::Sink => f.write_str("_"),
            Operand::Vector(v) => {
                f.write_str("{")?;
                write_list(f, v)?;
                f.write_str("}")
            }
            Operand::Address { base, offset, unified } => {
                f.write_str("[")?;
                match (base, offset) {
                    (Some(b), 0) => f.write_str(b)?,
                    (Some(b), o) => write!(f, "{b}+{o}")?,
                    (None, o) => write!(f, "{o}")?,
                }
                f.write_str("]")?;
                if *unified {
                    f.write_str(".unified")?;
                }
                Ok(())
            }
            Operand::TensorRef { map, coords } => {
                write!(f, "[{map}, {{")?;
                write_list(f, coords)?;
                f.write_str("}]")
            }
            Operand::WithPred(d, p) => write!(f, "{d}|{p}"),
        }
    }
}

/// Splits `s` at top-level commas (not inside `{}` or `[]`).
fn split_top(s: &str) -> Result<Vec<&str>, String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth -= 1;
                if depth < 0 {
                    return Err(format!("unbalanced `{c}`"));
                }
            }
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err("unbalanced brackets".into());
    }
    let last = s[start..].trim();
    if !last.is_empty() || !out.is_empty() {
        out.push(last);
    }
    Ok(out)
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '%' || c == '$' => {}
        _ => return false,
    }
    // `.` appears inside special-register names such as `%tid.x`.
    chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.') && s != "_"
}

/// Parses an integer literal in PTX syntax (decimal, `0x` hex, `0b` binary, leading-`0`
/// octal, optional `-`, optional `U` suffix).
pub fn parse_int(s: &str) -> Option<i128> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let body = body.strip_suffix('U').unwrap_or(body);
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i128::from_str_radix(h, 16).ok()?
    } else if let Some(b) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
        i128::from_str_radix(b, 2).ok()?
    } else if body.len() > 1 && body.starts_with('0') {
        i128::from_str_radix(&body[1..], 8).ok()?
    } else if !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()) {
        body.parse().ok()?
    } else {
        return None;
    };
    Some(if neg { -v } else { v })
}

fn parse_imm(s: &str) -> Option<Imm> {
    if let Some(v) = parse_int(s) {
        return Some(Imm::Int(v));
    }
    if let Some(h) = s.strip_prefix("0f").or_else(|| s.strip_prefix("0F")) {
        if h.len() == 8 {
            return u32::from_str_radix(h, 16).ok().map(Imm::F32Bits);
        }
    }
    if let Some(h) = s.strip_prefix("0d").or_else(|| s.strip_prefix("0D")) {
        if h.len() == 16 {
            return u64::from_str_radix(h, 16).ok().map(Imm::F64Bits);
        }
    }
    let looks_float = s.contains('.') || s.contains('e') || s.contains('E');
    let first = s.trim_start_matches('-').chars().next();
    if looks_float && first.is_some_and(|c| c.is_ascii_digit() || c == '.') {
        return s.parse::<f64>().ok().filter(|x| x.is_finite()).map(Imm::Float);
    }
    None
}

/// `base+off`, `base-off`, `base+-off`, `base`, or an absolute `off`.
fn parse_address_body(s: &str) -> Result<(Option<String>, i64), String> {
    let s = s.trim();
    if let Some(v) = parse_int(s) {
        let off = i64::try_from(v).map_err(|_| format!("address `{s}` out of range"))?;
        return Ok((None, off));
    }
    let split = s.find(['+', '-']);
    let (base, off) = match split {
        Some(i) => {
            let base = s[..i].trim();
            let rest = s[i..].trim();
            let rest = rest.strip_prefix('+').map(str::trim).unwrap_or(rest);
            let v = parse_int(&rest.replace(' ', "")).ok_or_else(|| format!("bad address offset `{rest}`"))?;
            (base, i64::try_from(v).map_err(|_| format!("address offset `{rest}` out of range"))?)
        }
        None => (s, 0),
    };
    if !is_ident(base) {
        return Err(format!("bad address base `{base}`"));
    }
    Ok((Some(base.to_string()), off))
}

/// Parses one operand.
pub fn parse_operand(s: &str) -> Result<Operand, String> {
    let s = s.trim();
    if s.is_empty() {
        return Err("empty operand".into());
    }
    if s == "_" {
        return Ok(Operand::Sink);
    }
    if let Some(inner) = s.strip_prefix('{') {
        let inner = inner.strip_suffix('}').ok_or_else(|| format!("unterminated vector `{s}`"))?;
        let items = split_top(inner)?;
        if items.is_empty() {
            return Err("empty vector `{}`".into());
        }
        return Ok(Operand::Vector(items.into_iter().map(parse_operand).collect::<Result<_, _>>()?));
    }
    if let Some(inner) = s.strip_prefix('[') {
        let (inner, unified) = if let Some(i) = inner.strip_suffix("].unified") {
            (i, true)
        } else {
            (inner.strip_suffix(']').ok_or_else(|| format!("unterminated address `{s}`"))?, false)
        };
        let parts = split_top(inner)?;
        return match parts.as_slice() {
            [one] => {
                let (base, offset) = parse_address_body(one)?;
                Ok(Operand::Address { base, offset, unified })
            }
            [map, coords] if !unified => {
                let map = Box::new(parse_operand(map)?);
                match parse_operand(coords)? {
                    Operand::Vector(coords) => Ok(Operand::TensorRef { map, coords }),
                    _ => Err(format!("tensor coordinates must be a vector `{{…}}` in `{s}`")),
                }
            }
            _ => Err(format!("bad address `{s}`")),
        };
    }
    if let Some((d, p)) = s.split_once('|') {
        let (d, p) = (d.trim(), p.trim());
        if !is_ident(p) {
            return Err(format!("bad predicate `{p}` after `|`"));
        }
        return Ok(Operand::WithPred(Box::new(parse_operand(d)?), p.to_string()));
    }
    if let Some(imm) = parse_imm(s) {
        return Ok(Operand::Imm(imm));
    }
    if let Some(i) = s.find('+') {
        let (name, off) = (s[..i].trim(), s[i + 1..].trim());
        if is_ident(name) {
            if let Some(v) = parse_int(off) {
                let v = i64::try_from(v).map_err(|_| format!("offset `{off}` out of range"))?;
                return Ok(Operand::NameOffset(name.to_string(), v));
            }
        }
    }
    if is_ident(s) {
        return Ok(Operand::Name(s.to_string()));
    }
    Err(format!("cannot read operand `{s}`"))
}

/// Parses a comma-separated operand list.
pub fn parse_operands(s: &str) -> Result<Vec<Operand>, String> {
    split_top(s)?.into_iter().map(parse_operand).collect()
}

impl OperandKind {
    /// Whether `o` has the syntactic shape this kind needs.
    pub fn accepts(&self, o: &Operand) -> bool {
        let is_name = |o: &Operand| matches!(o, Operand::Name(_));
        match self {
            OperandKind::Reg(_) | OperandKind::RegOneOf(_) | OperandKind::Pred | OperandKind::SpecialReg(_) => {
                is_name(o)
            }
            OperandKind::RegOrImm(_) => is_name(o) || matches!(o, Operand::Imm(_)),
            OperandKind::Imm(_) => matches!(o, Operand::Imm(Imm::Int(_))),
            OperandKind::Vector(_, n) => match o {
                Operand::Vector(items) => {
                    items.len() == *n as usize
                        && items.iter().all(|i| matches!(i, Operand::Name(_) | Operand::Sink | Operand::Imm(_)))
                        && items.iter().any(|i| !matches!(i, Operand::Sink))
                }
                _ => false,
            },
            OperandKind::RegWithPred(_) => {
                matches!(o, Operand::WithPred(d, _) if is_name(d))
            }
            OperandKind::Addr(k) => {
                matches!(o, Operand::Address { unified, .. } if *unified == (*k == AddrKind::GlobalUnified))
            }
            OperandKind::TensorRef(n) => {
                matches!(o, Operand::TensorRef { coords, .. } if coords.len() == *n as usize)
            }
            OperandKind::Symbol(_) => matches!(o, Operand::Name(_) | Operand::NameOffset(..)),
            OperandKind::Sink => matches!(o, Operand::Sink),
        }
    }
}

impl RegType {
    /// A register type of the same kind and half the width (`.b32` → `.b16`, `.f32` → `.f16`),
    /// if there is one: such a register never fits a slot of this type, since PTX only relaxes
    /// type checking toward *wider* registers (PTX ISA §6.4.4, Tables 27 and 28).
    pub fn narrower(self) -> Option<RegType> {
        use RegType::*;
        Some(match self {
            B16 => B8,
            B32 => B16,
            B64 => B32,
            B128 => B64,
            U16 => U8,
            U32 => U16,
            U64 => U32,
            S16 => S8,
            S32 => S16,
            S64 => S32,
            F32 => F16,
            F64 => F32,
            _ => return None,
        })
    }
}

/// Checks that `operands` fit `specs` one by one; `opcode` names the instruction in errors.
pub fn check_operands(opcode: &str, specs: &[OperandSpec], operands: &[Operand]) -> Result<(), ParseError> {
    if specs.len() != operands.len() {
        let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
        return Err(ParseError::new(
            opcode,
            format!("expects {} operand(s) ({}), found {}", specs.len(), names.join(", "), operands.len()),
        ));
    }
    for (spec, o) in specs.iter().zip(operands) {
        if !spec.kind.accepts(o) {
            return Err(ParseError::new(
                opcode,
                format!("operand `{}` = `{o}` is not {}", spec.name, describe_kind(&spec.kind)),
            ));
        }
    }
    Ok(())
}

/// A short description of an operand kind, for error messages and `variants` listings.
pub fn describe_kind(k: &OperandKind) -> String {
    match k {
        OperandKind::Reg(t) => format!("a .{t} register"),
        OperandKind::RegOrImm(t) => format!("a .{t} register or immediate"),
        OperandKind::RegOneOf(ts) => {
            let names: Vec<String> = ts.iter().map(|t| format!(".{t}")).collect();
            format!("a {} register", names.join(" or "))
        }
        OperandKind::Imm(_) => "an integer immediate".into(),
        OperandKind::Vector(t, n) => format!("a vector of {n} .{t} registers"),
        OperandKind::RegWithPred(t) => format!("a .{t} register with a predicate (`d|p`)"),
        OperandKind::Addr(a) => format!("an address ({a:?})"),
        OperandKind::TensorRef(n) => format!("a tensor reference with {n} coordinates"),
        OperandKind::Pred => "a predicate register".into(),
        OperandKind::Symbol(s) => format!("a symbol ({s:?})"),
        OperandKind::SpecialReg(_) => "a special register".into(),
        OperandKind::Sink => "the sink `_`".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rt(s: &str) {
        let ops = parse_operands(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        let printed: Vec<String> = ops.iter().map(|o| o.to_string()).collect();
        let again = parse_operands(&printed.join(", ")).unwrap();
        assert_eq!(ops, again, "{s}");
    }

    #[test]
    fn operands_round_trip() {
        rt("%r1, %f2");
        rt("{%r1, _, %r3, %r4}, [%rd1+-8]");
        rt("[gbuf+16].unified, 0x1f, -3, 0f3F800000, 0d3FF0000000000000, 0.25");
        rt("[tmap, {%r1, %r2, %r3}], [mbar], {%rs1, %rs2}");
        rt("%r1|%p1, %r2, 1, 31, 0xffffffff");
        rt("A+20, [240]");
    }

    #[test]
    fn operand_syntax_errors_are_reported() {
        assert!(parse_operands("{%r1, %r2").is_err());
        assert!(parse_operands("[%r1").is_err());
        assert!(parse_operands("%r1,, %r2").is_err());
        assert!(parse_operands("1x2").is_err());
        assert!(parse_operands("[%rd1+zz]").is_err());
    }

    #[test]
    fn integers_in_every_radix() {
        assert_eq!(parse_int("0x10"), Some(16));
        assert_eq!(parse_int("010"), Some(8));
        assert_eq!(parse_int("0b101"), Some(5));
        assert_eq!(parse_int("-7"), Some(-7));
        assert_eq!(parse_int("12U"), Some(12));
        assert_eq!(parse_int("x"), None);
    }
}
