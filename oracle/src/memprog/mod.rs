//! Memory programs: one CTA of threads running a short list of PTX statements over *named
//! buffers* in global and shared memory — the unit of the memory evaluation contract
//! (`ptxdiff eval` program lines) and of asynchronous-copy conformance.
//!
//! A [`MemProgram`] holds its statements as written (each [`Stmt`] keeps its text and its
//! parsed form, so the program stays printable), the threads, the input registers, the
//! buffers with their initial bytes, and the buffers to read back. [`parse`] turns statement
//! text into statements: ISA instructions through [`Instruction`]'s parser, integer glue
//! through [`Glue`]'s (names mapped to its register syntax), labels, guards `@p`/`@!p`, `bra`
//! and `bar.sync 0`. Registers are named freely and typed by their first use; buffer names
//! are addresses. [`interp`] runs the program.
//!
//! Invariants: every register a statement reads is an input register or written by an
//! earlier statement (in text order); every name in an address is a buffer or a register;
//! a register keeps the class of its first use; branches go forward, except the one wait
//! loop `L: mbarrier.try_wait… p, …; @!p bra L;`.

use std::collections::BTreeMap;
use std::fmt;

use thiserror::Error;

use crate::isa::operand::{parse_operands, Operand, OperandKind};
use crate::isa::{Guard, Instruction, Target};
use crate::memory::tensor_map::TensorMap;
use crate::memory::{ProtocolError, Region, RegionError};
use crate::program::glue::{Glue, GlueOp, GlueType, MNEMONICS};
use crate::program::{Reg, RegClass};

pub mod interp;
pub mod ptx;
mod source;

pub use source::{BufferSource, Init, InputReg, MemSource, TensorMapSource, MAX_PROGRAM_BYTES, MAX_THREAD_STATEMENTS};

/// The state space of a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferSpace {
    /// `.global`.
    Global,
    /// The CTA's `.shared` memory (`.shared::cta`, also addressed as `.shared::cluster` of
    /// the executing CTA).
    Shared,
}

impl BufferSpace {
    /// The name the contract uses (`"global"`, `"shared"`).
    pub fn name(self) -> &'static str {
        match self {
            BufferSpace::Global => "global",
            BufferSpace::Shared => "shared",
        }
    }
}

/// A named buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    /// Its name (an address operand in the statements).
    pub name: String,
    /// Global or shared.
    pub space: BufferSpace,
    /// Its base address is a multiple of this (a power of two).
    pub align: u64,
    /// Its bytes before the program runs.
    pub init: Region,
}

/// A tensor map over a global buffer (a `.param .align 64 .b8 [128]` kernel parameter on
/// the GPU, encoded by the driver).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorMapDecl {
    /// Its name (the map operand of tensor copies).
    pub name: String,
    /// The global buffer holding the tensor.
    pub buffer: usize,
    /// The tensor's byte offset in the buffer.
    pub global_offset: u64,
    /// The encode arguments; [`parse`] sets `global_address` to
    /// [`global_base`] of the buffer plus `global_offset`.
    pub map: TensorMap,
    /// The global buffer whose first [`TENSOR_MAP_BYTES`] bytes hold a copy of the encoded
    /// map before the statements run: a tensor-map object in global memory that
    /// `tensormap.replace` modifies and tensor copies may name instead of the map (§9.7.9.26).
    pub object: Option<usize>,
}

/// The size of a tensor-map object (§9.7.9.26 `.b1024`; cuda.h `CUtensorMap`).
pub const TENSOR_MAP_BYTES: usize = 128;

/// The alignment of a tensor-map object in global memory (cuda.h: `CUtensorMap` is 64-byte
/// aligned).
pub const TENSOR_MAP_ALIGN: u64 = 64;

/// The address the model gives global buffer `index` with alignment `align`: aligned to
/// exactly `align` (no more, so encode rules on the address see only what the buffer
/// guarantees), and buffers 4 GiB apart.
pub fn global_base(index: usize, align: u64) -> u64 {
    ((index as u64 + 1) << 32) + align.min(1 << 31)
}

/// A register the program names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegDecl {
    /// The name as written.
    pub name: String,
    /// Its class, from its first use.
    pub class: RegClass,
}

/// What a statement is.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `name:`.
    Label(String),
    /// `bra L` (under the statement's guard).
    Bra(String),
    /// `bar.sync 0` (or `barrier.sync 0`).
    Bar,
    /// `barrier.cluster.arrive{.release|.relaxed}{.aligned}` (§9.7.13.3): this thread's arrival
    /// at the cluster barrier, with release semantics unless `.relaxed`.
    ClusterArrive {
        /// `.relaxed`: the arrival releases nothing (§9.7.13.3).
        relaxed: bool,
    },
    /// `barrier.cluster.wait{.acquire}{.aligned}` (§9.7.13.3): waits until every thread of the
    /// cluster has arrived (always with acquire semantics).
    ClusterWait,
    /// Integer glue; its registers are `Reg::Virt(class, index into MemProgram::regs)`.
    Glue(Glue),
    /// An ISA instruction (its guard moved to [`Stmt::guard`]).
    Isa(Instruction),
}

/// One statement: its text and its parsed form.
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    /// The text as given (for an instruction after an inline label, the text after the label).
    pub text: String,
    /// The index of the statement line it came from: a label on the line of an instruction
    /// (`L: mbarrier.try_wait…;`, as ptxas accepts) is a statement of its own with the
    /// instruction's line.
    pub line: usize,
    /// `@p` / `@!p`.
    pub guard: Option<Guard>,
    /// The statement.
    pub kind: StmtKind,
}

/// A memory program.
#[derive(Clone, Debug, PartialEq)]
pub struct MemProgram {
    /// The target it is meant for.
    pub target: Target,
    /// Threads of each CTA (`%tid.x` is 0..threads).
    pub threads: u32,
    /// CTAs of the one cluster (`%cluster_ctarank` is 0..cluster; 1 unless
    /// [`MemProgram::in_cluster`] says otherwise). Every CTA runs the statements and has its
    /// own copy of every shared buffer; global buffers are one.
    pub cluster: u32,
    /// The buffers.
    pub buffers: Vec<Buffer>,
    /// Every register, in order of first use.
    pub regs: Vec<RegDecl>,
    /// Input registers: index into `regs` and value (the same in every thread).
    pub inputs: BTreeMap<usize, u64>,
    /// The tensor maps.
    pub tensor_maps: Vec<TensorMapDecl>,
    /// The statements.
    pub stmts: Vec<Stmt>,
    /// Buffers to read back (indices into `buffers`).
    pub read: Vec<usize>,
}

/// Why a memory program cannot be built or run.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum MemError {
    /// A statement cannot be parsed or typed.
    #[error("{0}")]
    Parse(String),
    /// A name that is not a buffer, a register or a tensor map.
    #[error("unknown name `{0}` (not a buffer, an input register, or a register written before)")]
    UnknownName(String),
    /// The program breaks the protocol of asynchronous copies (or hangs); `buffers` names the
    /// regions its spans refer to (set by the interpreter; empty: shown by index).
    #[error("{}", with_buffer_names(.error, .buffers))]
    Protocol {
        /// The violation.
        error: ProtocolError,
        /// Buffer names by region index.
        buffers: Vec<String>,
    },
    /// An access outside a buffer.
    #[error("{0}")]
    Region(#[from] RegionError),
    /// An operation whose result the spec leaves undefined (the text names the §).
    #[error("undefined: {0}")]
    Undefined(String),
    /// A form or operand shape memory programs do not model.
    #[error("not supported in memory programs: {0}")]
    Unsupported(String),
}

impl From<ProtocolError> for MemError {
    fn from(error: ProtocolError) -> Self {
        MemError::Protocol { error, buffers: Vec::new() }
    }
}

/// A protocol error's text with `region N` replaced by the buffer's name.
fn with_buffer_names(error: &ProtocolError, buffers: &[String]) -> String {
    let mut text = error.to_string();
    // Highest index first, so `region 1` does not rewrite part of `region 12`.
    for (k, name) in buffers.iter().enumerate().rev() {
        text = text.replace(&format!("region {k} "), &format!("`{name}` "));
    }
    text
}

/// A [`MemError`] at a statement.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("statement {index} `{}`: {error}", quote(text))]
pub struct StmtError {
    /// 0-based statement index.
    pub index: usize,
    /// The statement's text.
    pub text: String,
    /// What is wrong.
    pub error: MemError,
}

/// A statement's text as an error quotes it: at most 60 characters (errors are cut short
/// by the tools that show them; the § at the end must survive).
fn quote(text: &str) -> String {
    let t = text.trim();
    match t.char_indices().nth(60) {
        None => t.to_string(),
        Some((at, _)) => format!("{}…", &t[..at]),
    }
}

/// The registers a program names, built statement by statement.
#[derive(Default)]
struct Regs {
    decls: Vec<RegDecl>,
    /// Untyped input registers written as 32-bit hex literals (`InputReg::written_bits`).
    written32: std::collections::BTreeSet<String>,
}

impl Regs {
    fn find(&self, name: &str) -> Option<usize> {
        self.decls.iter().position(|d| d.name == name)
    }

    /// The register `name` of `class`, declared by this use if new.
    fn use_as(&mut self, name: &str, class: RegClass, write: bool, inputs: &[String]) -> Result<usize, MemError> {
        if let Some(i) = self.find(name) {
            let have = self.decls[i].class;
            if have != class {
                return Err(MemError::Parse(format!(
                    "register `{name}` is {} (its first use) but used here as {}",
                    have.ptx_type(),
                    class.ptx_type()
                )));
            }
            return Ok(i);
        }
        if !write && !inputs.iter().any(|n| n == name) {
            return Err(MemError::UnknownName(name.to_string()));
        }
        self.decls.push(RegDecl { name: name.to_string(), class });
        Ok(self.decls.len() - 1)
    }
}

/// Whether `name` can name a register (an identifier, not a special register).
fn is_reg_name(name: &str) -> bool {
    let mut c = name.chars();
    c.next().is_some_and(|f| f.is_ascii_alphabetic() || f == '_') && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

/// The register class an operand slot of `kind` holds (`None`: not a register slot).
fn slot_class(kind: &OperandKind) -> Option<RegClass> {
    match *kind {
        OperandKind::Reg(t) | OperandKind::RegOrImm(t) | OperandKind::Vector(t, _) | OperandKind::RegWithPred(t) => {
            RegClass::of(t)
        }
        OperandKind::RegOneOf(ts) => RegClass::of(ts[0]),
        OperandKind::Pred => Some(RegClass::Pred),
        _ => None,
    }
}

/// The glue opcode and type an opcode names.
fn glue_opcode(opcode: &str) -> Option<(GlueOp, GlueType)> {
    Glue::lookup(opcode)
}

/// Parses the statements of a program over `buffers` and `tensor_maps` with input registers
/// `inputs` (by name; a typed one is declared before the statements, an untyped one by its
/// first use); each tensor map must pass the driver's encode rules for `target`.
pub fn parse(
    target: Target,
    threads: u32,
    buffers: Vec<Buffer>,
    mut tensor_maps: Vec<TensorMapDecl>,
    inputs: &BTreeMap<String, InputReg>,
    statements: &[String],
    read: Vec<usize>,
) -> Result<MemProgram, StmtError> {
    let whole = |error| StmtError { index: 0, text: "(declarations)".into(), error };
    for t in &mut tensor_maps {
        let b = buffers.get(t.buffer).ok_or_else(|| whole(MemError::UnknownName(format!("buffer #{}", t.buffer))))?;
        if b.space != BufferSpace::Global {
            return Err(whole(MemError::Parse(format!("tensor map `{}`: buffer `{}` is not global", t.name, b.name))));
        }
        t.map.global_address = global_base(t.buffer, b.align) + t.global_offset;
        t.map.validate(&target).map_err(|e| whole(MemError::Parse(format!("tensor map `{}`: {e}", t.name))))?;
    }
    let input_names: Vec<String> = inputs.keys().cloned().collect();
    let mut regs = Regs::default();
    for (name, input) in inputs {
        if input.class.is_none() && input.written_bits == Some(32) {
            regs.written32.insert(name.clone());
        }
        if let Some(class) = input.class {
            if !is_reg_name(name) {
                return Err(whole(MemError::Parse(format!("input register `{name}`: not a register name"))));
            }
            regs.decls.push(RegDecl { name: name.clone(), class });
        }
    }
    let mut stmts = Vec::new();
    for (index, text) in statements.iter().enumerate() {
        let err = |error| StmtError { index, text: text.clone(), error };
        let (label, rest) = split_inline_label(text);
        if let Some(label) = label {
            stmts.push(parse_stmt(&label, index, &buffers, &tensor_maps, &mut regs, &input_names).map_err(err)?);
        }
        stmts.push(parse_stmt(rest, index, &buffers, &tensor_maps, &mut regs, &input_names).map_err(err)?);
    }
    for name in &input_names {
        if regs.find(name).is_none() {
            return Err(StmtError {
                index: statements.len(),
                text: String::new(),
                error: MemError::Parse(format!("input register `{name}` is never used, so its width is unknown")),
            });
        }
    }
    let inputs = inputs.iter().filter_map(|(n, v)| regs.find(n).map(|i| (i, v.value))).collect();
    let p = MemProgram { target, threads, cluster: 1, buffers, regs: regs.decls, inputs, tensor_maps, stmts, read };
    interp::check_control_flow(&p)?;
    Ok(p)
}

/// A label at the start of a line that also holds an instruction (`L: inst;`): the label as a
/// statement of its own (`L:`) and the rest; otherwise no label and the whole text. A line
/// that is only a label, or whose text before the first `:` is not a name (`[bar]`, `::`
/// qualifiers come later), is left whole.
fn split_inline_label(text: &str) -> (Option<String>, &str) {
    let t = text.trim_start();
    if let Some((name, rest)) = t.split_once(':') {
        let rest = rest.trim_start();
        if is_reg_name(name.trim())
            && !name.ends_with(char::is_whitespace)
            && !rest.is_empty()
            && !rest.starts_with(':')
        {
            return (Some(format!("{name}:")), rest);
        }
    }
    (None, text)
}

fn parse_stmt(
    text: &str,
    line: usize,
    buffers: &[Buffer],
    maps: &[TensorMapDecl],
    regs: &mut Regs,
    inputs: &[String],
) -> Result<Stmt, MemError> {
    let s = text.trim();
    let s = s.strip_suffix(';').unwrap_or(s).trim_end();
    let stmt = |guard, kind| Stmt { text: text.to_string(), line, guard, kind };
    if let Some(label) = s.strip_suffix(':') {
        if !is_reg_name(label.trim()) {
            return Err(MemError::Parse(format!("bad label `{label}`")));
        }
        return Ok(stmt(None, StmtKind::Label(label.trim().to_string())));
    }
    let (guard, body) = match s.strip_prefix('@') {
        Some(rest) => {
            let (g, body) =
                rest.split_once(char::is_whitespace).ok_or(MemError::Parse("guard without an instruction".into()))?;
            let (negated, pred) = match g.strip_prefix('!') {
                Some(p) => (true, p),
                None => (false, g),
            };
            regs.use_as(pred, RegClass::Pred, false, inputs)?;
            (Some(Guard { negated, pred: pred.to_string() }), body.trim())
        }
        None => (None, s),
    };
    let (opcode, rest) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
    let rest = rest.trim();
    if opcode == "bra" || opcode == "bra.uni" {
        if !is_reg_name(rest) {
            return Err(MemError::Parse(format!("bad branch target `{rest}`")));
        }
        return Ok(stmt(guard, StmtKind::Bra(rest.to_string())));
    }
    if opcode == "bar.sync" || opcode == "barrier.sync" || opcode == "barrier.sync.aligned" {
        if rest != "0" || guard.is_some() {
            return Err(MemError::Unsupported("only an unguarded `bar.sync 0` of the whole CTA".into()));
        }
        return Ok(stmt(None, StmtKind::Bar));
    }
    if let Some(quals) = opcode.strip_prefix("barrier.cluster.") {
        let (phase, allowed): (StmtKind, &[&str]) = match quals.split('.').next() {
            Some("arrive") => (
                StmtKind::ClusterArrive { relaxed: quals.split('.').any(|q| q == "relaxed") },
                &["release", "relaxed", "aligned"],
            ),
            Some("wait") => (StmtKind::ClusterWait, &["acquire", "aligned"]),
            _ => return Err(MemError::Parse(format!("`{opcode}`: barrier.cluster is .arrive or .wait (§9.7.13.3)"))),
        };
        if let Some(q) = quals.split('.').skip(1).find(|q| !allowed.contains(q)) {
            return Err(MemError::Parse(format!("`{opcode}`: .{q} is not a qualifier of it (§9.7.13.3)")));
        }
        if !rest.is_empty() || guard.is_some() {
            return Err(MemError::Unsupported("only an unguarded barrier.cluster without operands".into()));
        }
        return Ok(stmt(None, phase));
    }
    if MNEMONICS.contains(&opcode.split('.').next().unwrap_or_default()) {
        if let Some((op, ty)) = glue_opcode(opcode) {
            return Ok(stmt(guard, StmtKind::Glue(parse_glue(opcode, op, ty, rest, regs, inputs)?)));
        }
    }
    let mut inst: Instruction = body.parse().map_err(|e: crate::isa::ParseError| MemError::Parse(e.to_string()))?;
    settle_by_register_type(&mut inst, regs, inputs)?;
    type_operands(&inst, buffers, maps, regs, inputs)?;
    Ok(stmt(guard, StmtKind::Isa(inst)))
}

/// Glue with free register names: each name becomes `Reg::Virt(class, index)`, and the
/// glue parser checks the rest.
fn parse_glue(
    opcode: &str,
    op: GlueOp,
    ty: GlueType,
    rest: &str,
    regs: &mut Regs,
    inputs: &[String],
) -> Result<Glue, MemError> {
    let ops = parse_operands(rest).map_err(MemError::Parse)?;
    let mut texts = Vec::new();
    // Sources first: a register may be both read and written (`add x, x, 1`).
    let mut mapped = vec![String::new(); ops.len()];
    for (k, o) in ops.iter().enumerate().skip(1) {
        mapped[k] = match o {
            Operand::Name(n) if is_reg_name(n) => {
                let class = Glue::src_class(op, ty, k - 1);
                Reg::Virt(class, regs.use_as(n, class, false, inputs)? as u32).to_string()
            }
            Operand::Imm(i) => i.to_string(),
            o => return Err(MemError::Parse(format!("glue operand `{o}` must be a register or an integer"))),
        };
    }
    match ops.first() {
        Some(Operand::Name(n)) if is_reg_name(n) => {
            let class = Glue::dst_class(op, ty);
            mapped[0] = Reg::Virt(class, regs.use_as(n, class, true, inputs)? as u32).to_string();
        }
        _ => return Err(MemError::Parse("glue needs a destination register".into())),
    }
    texts.extend(mapped);
    Glue::parse(&format!("{opcode} {};", texts.join(", "))).map_err(|e| MemError::Parse(e.to_string()))
}

/// Settles the forms whose operand syntax leaves the meaning of a register to its type: the
/// fourth operand of `cp.async` is `src-size` for a 32-bit integer register and `ignore-src`
/// for a predicate (§9.7.9.25.3.1). The register must have a class already — written by an
/// earlier statement or a typed input register — or be an untyped input register written as a
/// 32-bit hex literal (8 digits: a 32-bit integer); any other untyped input register there is
/// ambiguous, an error naming it.
///
/// The audit of the other forms: every other slot's meaning follows from the opcode and the
/// slot's position (`OperandKind`), an immediate and a register there mean the same — except
/// `mov d, a`, whose form reads a name as a symbol: a register there must have `d`'s width
/// ([`check_register_move`]); and the source of `cvta`, `mapa` and `getctarank`, a variable or
/// a register by what the name is (§9.7.9.20, §9.7.9.23, §9.7.9.24).
fn settle_by_register_type(inst: &mut Instruction, regs: &Regs, inputs: &[String]) -> Result<(), MemError> {
    use crate::isa::{CpAsyncSrc, Form};
    if let Form::Mov(m) = &inst.form {
        return check_register_move(m, &inst.operands, regs);
    }
    // `cvta`, `mapa`, `getctarank`: the source is a variable or a register by what the name
    // is (the parser reads every name as a variable).
    let source_is_reg = matches!(inst.operands.get(1), Some(Operand::Name(n)) if regs.find(n).is_some());
    match &mut inst.form {
        Form::Cvta(c) if source_is_reg => c.var = false,
        Form::Mapa(m) if source_is_reg => m.var = false,
        Form::Getctarank(g) if source_is_reg => g.var = false,
        _ => {}
    }
    let Form::CpAsync(c) = inst.form else { return Ok(()) };
    if !matches!(c.src, CpAsyncSrc::IgnoreSrc | CpAsyncSrc::SrcSizeReg) {
        return Ok(());
    }
    let Some(Operand::Name(name)) = inst.operands.get(3) else { return Ok(()) };
    let class = match regs.find(name) {
        Some(i) => regs.decls[i].class,
        // Written as 8 hex digits: a 32-bit integer.
        None if regs.written32.contains(name) => RegClass::B32,
        None if inputs.iter().any(|n| n == name) => {
            return Err(MemError::Parse(format!(
                "register `{name}` in the fourth operand of cp.async is `src-size` if it is a 32-bit integer and `ignore-src` if it is a predicate (§9.7.9.25.3.1): give its type (\"regs\": {{\"{name}\": {{\"u32\": …}}}} or {{\"pred\": …}}), write it as 8 hex digits (\"0x00000003\") or write it before"
            )))
        }
        None => return Err(MemError::UnknownName(name.clone())),
    };
    let c = match class {
        RegClass::Pred => c.with_src_register(true),
        RegClass::B32 => c.with_src_register(false),
        other => {
            return Err(MemError::Parse(format!(
                "register `{name}` is {} but the fourth operand of cp.async is a 32-bit integer `src-size` or a predicate `ignore-src` (§9.7.9.25.3.1)",
                other.ptx_type()
            )))
        }
    };
    inst.form = Form::CpAsync(c);
    Ok(())
}

/// `mov d, a` with `a` a register (the form reads a name as a symbol, so its class is not the
/// slot's): `a` must have `d`'s width — ptxas rejects a `mov` between registers of different
/// sizes (§9.7.9.9: `d` and `a` have the instruction type). A buffer name is an address, and
/// moves into a register of either width as PTX allows for a variable's address.
fn check_register_move(m: &crate::isa::Mov, ops: &[Operand], regs: &Regs) -> Result<(), MemError> {
    let crate::isa::MovShape::Symbol(_) = m.shape else { return Ok(()) };
    let [_, Operand::Name(a)] = ops else { return Ok(()) };
    let Some(i) = regs.find(a) else { return Ok(()) };
    let have = regs.decls[i].class;
    match RegClass::of(m.ty.reg()) {
        Some(want) if want != have => Err(MemError::Parse(format!(
            "`mov.{}` from register `{a}`, which is {}: ptxas rejects a mov between registers of different sizes (§9.7.9.9; use cvt)",
            m.ty,
            have.ptx_type()
        ))),
        _ => Ok(()),
    }
}

/// Declares or checks every register an ISA instruction names.
fn type_operands(
    inst: &Instruction,
    buffers: &[Buffer],
    maps: &[TensorMapDecl],
    regs: &mut Regs,
    inputs: &[String],
) -> Result<(), MemError> {
    let specs = inst.form.operands();
    let is_buffer = |n: &str| buffers.iter().any(|b| b.name == n) || maps.iter().any(|m| m.name == n);
    // Sources before destinations, so `ld x, [x]` reads the old x.
    for pass_dst in [false, true] {
        for (o, spec) in inst.operands.iter().zip(&specs) {
            let dst = spec.role == crate::isa::operand::Role::Dst;
            if dst != pass_dst {
                continue;
            }
            let mut names: Vec<(String, Option<RegClass>)> = Vec::new();
            collect_names(o, slot_class(&spec.kind), &mut names);
            for (n, class) in names {
                if n.starts_with('%') {
                    continue;
                }
                if is_buffer(&n) {
                    continue;
                }
                match class {
                    Some(c) => {
                        regs.use_as(&n, c, dst, inputs)?;
                    }
                    None => {
                        // An address or symbol: a register already holding an address.
                        if regs.find(&n).is_none() {
                            if inputs.iter().any(|i| i == &n) {
                                regs.use_as(&n, RegClass::B64, false, inputs)?;
                            } else {
                                return Err(MemError::UnknownName(n));
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// The names an operand mentions, with the class of a register slot (`None` in addresses).
fn collect_names(o: &Operand, class: Option<RegClass>, out: &mut Vec<(String, Option<RegClass>)>) {
    match o {
        Operand::Name(n) => out.push((n.clone(), class)),
        Operand::NameOffset(n, _) => out.push((n.clone(), None)),
        Operand::Vector(items) => items.iter().for_each(|i| collect_names(i, class, out)),
        Operand::Address { base: Some(b), .. } => out.push((b.clone(), None)),
        Operand::TensorRef { map, coords } => {
            collect_names(map, None, out);
            coords.iter().for_each(|c| collect_names(c, Some(RegClass::B32), out));
        }
        Operand::WithPred(d, p) => {
            collect_names(d, class, out);
            out.push((p.clone(), Some(RegClass::Pred)));
        }
        Operand::Imm(_) | Operand::Sink | Operand::Address { base: None, .. } => {}
    }
}

/// The special registers memory programs read: `%tid.x`, and the CTA's rank and the CTA
/// count of the one cluster (the grid is the cluster).
pub const SPECIAL_REGS: [&str; 5] = ["%tid.x", "%cluster_ctarank", "%ctaid.x", "%cluster_nctarank", "%nctaid.x"];

/// The most CTAs a memory program's cluster may have: the portable cluster size (§9.7.13.3
/// and the CUDA programming guide: 8 CTAs without opting into non-portable sizes).
pub const MAX_CLUSTER: u32 = 8;

impl MemProgram {
    /// The program run by a cluster of `ctas` CTAs (1 ..= [`MAX_CLUSTER`]).
    pub fn in_cluster(mut self, ctas: u32) -> Result<MemProgram, MemError> {
        if !(1..=MAX_CLUSTER).contains(&ctas) {
            return Err(MemError::Parse(format!("cluster {ctas}: a cluster has 1 to {MAX_CLUSTER} CTAs")));
        }
        self.cluster = ctas;
        Ok(self)
    }
}

impl fmt::Display for MemProgram {
    /// The statements, one per line, as given.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in &self.stmts {
            writeln!(f, "{}", s.text.trim())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffers() -> Vec<Buffer> {
        vec![
            Buffer { name: "g".into(), space: BufferSpace::Global, align: 256, init: Region::filled(16, 0) },
            Buffer { name: "s".into(), space: BufferSpace::Shared, align: 16, init: Region::unwritten(16) },
        ]
    }

    fn program(stmts: &[&str], inputs: &[(&str, u64)]) -> Result<MemProgram, StmtError> {
        let inputs: BTreeMap<String, InputReg> = inputs.iter().map(|(n, v)| (n.to_string(), (*v).into())).collect();
        let stmts: Vec<String> = stmts.iter().map(|s| s.to_string()).collect();
        parse(Target::parse("sm_90").unwrap(), 1, buffers(), Vec::new(), &inputs, &stmts, vec![0])
    }

    #[test]
    fn registers_are_typed_by_their_first_use() {
        let p = program(
            &["add.u32 x, a, 1;", "setp.ne.u32 q, x, 0;", "@q st.global.u32 [g], x;", "mov.u64 r, g;", "done:"],
            &[("a", 5)],
        )
        .unwrap();
        let class = |n: &str| p.regs.iter().find(|r| r.name == n).map(|r| r.class);
        assert_eq!(class("a"), Some(RegClass::B32));
        assert_eq!(class("q"), Some(RegClass::Pred));
        assert_eq!(class("r"), Some(RegClass::B64));
        assert_eq!(p.inputs.values().copied().collect::<Vec<_>>(), vec![5]);
        let StmtKind::Glue(g) = &p.stmts[0].kind else { panic!("{:?}", p.stmts[0]) };
        assert_eq!(g.to_string(), "add.u32 %r1, %r0, 0x1;");
        assert_eq!(p.stmts[2].guard, Some(Guard { negated: false, pred: "q".into() }));
        assert_eq!(p.to_string().lines().next(), Some("add.u32 x, a, 1;"), "prints as given");
    }

    #[test]
    fn bad_statements_name_their_index() {
        let e = program(&["add.u32 x, a, 1;", "add.u64 y, x, 1;"], &[("a", 1)]).unwrap_err();
        assert_eq!(e.index, 1);
        assert!(e.to_string().contains("register `x` is .b32"), "{e}");
        let e = program(&["st.global.u32 [g], nope;"], &[]).unwrap_err();
        assert_eq!(e.error, MemError::UnknownName("nope".into()));
        let e = program(&["bra nowhere;"], &[]).unwrap_err();
        assert!(e.to_string().contains("no label `nowhere`"), "{e}");
        let e = program(&["mov.b32 x, 1;"], &[("unused", 1)]).unwrap_err();
        assert!(e.to_string().contains("never used"), "{e}");
        let long = format!("st.global.u32 [g], {};", "z".repeat(200));
        let e = program(&[&long], &[]).unwrap_err();
        assert!(e.to_string().contains("z…`: unknown name"), "{e}");
    }

    #[test]
    fn interp_runs_forward_branches_per_thread() {
        let stmts: Vec<String> = [
            "mov.u32 t, %tid.x;",
            "shl.b32 o, t, 2;",
            "mov.u64 r, g;",
            "setp.eq.u32 p, t, 1;",
            "@p bra skip;",
            "add.u64 r, r, 4;",
            "skip:",
            "st.global.u32 [r], t;",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let p = parse(Target::parse("sm_90").unwrap(), 2, buffers(), Vec::new(), &BTreeMap::new(), &stmts, vec![0])
            .unwrap();
        let out = interp::run(&p, &crate::semantics::Allowances::all()).unwrap();
        // Thread 0 stores 0 at g+4; thread 1 skips the add and stores 1 at g+0.
        assert_eq!(out[0].to_hex(), format!("0100000000000000{}", "00".repeat(8)));
    }

    /// A sub-word `cvt` result fills its 16-bit register sign-extended for a signed type and
    /// zero-extended otherwise, as in the program model (an H100 stores `80 ff` here; the
    /// oracle once said `80 00`: fuzz --async finding, 2026-11-25).
    #[test]
    fn sub_word_cvt_results_extend_to_their_register() {
        for (cvt, want) in
            [("cvt.sat.s8.s32 z, x;", "80ff"), ("cvt.sat.u8.s32 z, x;", "0000"), ("cvt.u8.u32 z, x;", "a500")]
        {
            let p = program(&[cvt, "st.global.b16 [g], z;"], &[("x", 0xa5a5_a5a5)]).unwrap();
            let out = interp::run(&p, &crate::semantics::Allowances::all()).unwrap();
            assert_eq!(&out[0].to_hex()[..4], want, "{cvt}");
        }
    }
}
