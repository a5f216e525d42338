//! Reading nvdisasm's SASS listing (sm_90 and later): functions, labels and instructions, and
//! for each instruction the registers it writes and reads.
//!
//! An instruction line is `/*0010*/  @!P0 IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;`: an offset,
//! an optional guard, the opcode with its modifiers, and operands separated by commas at the top
//! level. Registers are the general `R0..R254`, the uniform `UR0..UR62`, the predicates `P0..P6`
//! and the uniform predicates `UP0..UP6`; `RZ`, `URZ`, `PT`, `UPT`, special registers (`SR_*`,
//! `SRZ`), constant-bank operands (`c[..][..]`, whose index registers are read) and immediates
//! are not tracked registers. Widths: an operand stands for 2 or 4 consecutive registers where
//! the operand says so (`R4.64`, `desc[UR4]` — a 64-bit descriptor, UR4:UR5) or the opcode does
//! ([`widths`]: `LDG.E.128 R4` writes R4..R7, `DADD` reads and writes pairs, `IMAD.WIDE` writes a
//! pair and reads its addend as one, `.E` generic and global addresses are 64-bit).
//!
//! Which operands are written ([`Instr::defs`]) is decided per opcode class ([`dest_count`]),
//! erring on the side of a write: a missed write could make a correct kernel look as if it read
//! a register never written (a false alarm), a missed read only hides a finding. The classes
//! were read off the SASS of generated kernels (ptxas 13.5.37, -O0 and -O3); unclear ones were
//! settled with nvdisasm's own life ranges (`nvdisasm -plr`: `R2UR.OR P0, UR7, R5` writes P0
//! without reading it).

use std::collections::BTreeMap;
use std::fmt;

use thiserror::Error;

/// A register file the check tracks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum File {
    /// General registers `R0..R254` (`RZ` is R255, never tracked).
    R,
    /// Uniform registers `UR0..UR62` (`URZ` is UR63).
    Ur,
    /// Predicates `P0..P6` (`PT` is P7).
    P,
    /// Uniform predicates `UP0..UP6` (`UPT` is UP7).
    Up,
}

impl File {
    /// How many registers of the file are tracked (the zero or true register left out).
    pub const fn tracked(self) -> u16 {
        match self {
            File::R => 255,
            File::Ur => 63,
            File::P | File::Up => 7,
        }
    }

    fn prefix(self) -> &'static str {
        match self {
            File::R => "R",
            File::Ur => "UR",
            File::P => "P",
            File::Up => "UP",
        }
    }
}

/// One tracked register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Reg {
    /// Its file.
    pub file: File,
    /// Its number (below [`File::tracked`]).
    pub n: u16,
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file.prefix(), self.n)
    }
}

/// A guard `@P0` / `@!UP1` on an instruction (never `@PT`: that is no guard).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Guard {
    /// The predicate.
    pub pred: Reg,
    /// `@!P`.
    pub negated: bool,
}

impl Guard {
    /// The guard that holds exactly when this one does not.
    pub fn complement(self) -> Guard {
        Guard { negated: !self.negated, ..self }
    }
}

impl fmt::Display for Guard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}{}", if self.negated { "!" } else { "" }, self.pred)
    }
}

/// How an instruction passes control on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// To the next instruction.
    Next,
    /// To a label (`BRA`), and to the next instruction when guarded.
    Branch(String),
    /// To a subroutine (`CALL.REL`), which returns to the next instruction.
    Call(String),
    /// Back to the caller (`RET`).
    Return,
    /// Nowhere (`EXIT`; a guarded one goes on to the next instruction).
    Exit,
    /// To a target in a register (`BRX`, `JMX`): any label of the function.
    Indirect,
    /// To a target in a register among the labels nvdisasm lists after it
    /// (`BRX R10 -0x2c0 (*"BRANCH_TARGETS .L_x_5,.L_x_6"*)`: a jump table), and to the next
    /// instruction when guarded.
    Targets(Vec<String>),
}

/// One SASS instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instr {
    /// Its offset in the function (the `/*0010*/` column).
    pub offset: u32,
    /// The instruction as printed, without the offset and the `;`.
    pub text: String,
    /// Its guard, if any.
    pub guard: Option<Guard>,
    /// The mnemonic with its modifiers (`STG.E.64`): the de-duplication key of a finding.
    pub mnemonic: String,
    /// Its operands in order; the first [`Instr::ndest`] are written.
    pub operands: Vec<Operand>,
    /// How many leading operands it writes ([`dest_count`]).
    pub ndest: usize,
    /// The registers it writes (on the lanes where its guard holds), in operand order.
    pub defs: Vec<Reg>,
    /// The registers it reads, each once: its guard, source operands, registers in brackets.
    pub uses: Vec<Reg>,
    /// How control goes on.
    pub flow: Flow,
}

/// One operand as the check reads it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Operand {
    /// As printed.
    pub text: String,
    /// Its own registers: one, or the 2 or 4 consecutive ones it stands for ([`widths`]);
    /// none for a zero register, an immediate, a memory or constant-bank operand.
    pub regs: Vec<Reg>,
    /// Registers inside its brackets (addresses, descriptors, constant-bank indices): read whole.
    pub inner: Vec<Reg>,
    /// Those of [`Operand::inner`] that are a memory descriptor (`desc[UR4]`: UR4 and UR5).
    pub descriptor: Vec<Reg>,
    /// Its value, if it is an integer immediate (`0x7632`, `-0xc`, `12`).
    pub imm: Option<u32>,
    /// Which bytes of a one-register source the instruction reads (bit `i`: byte `i`): a half
    /// (`.H0_H0`, `.H1`) or byte (`.B2`) selector, the data of a narrow store (`STG.E.U8`: byte
    /// 0), the source of a conversion from an 8- or 16-bit type (`I2F.S16`, `F2F.F32.F16`).
    pub bytes: u8,
    /// Written `!P0`.
    pub negated: bool,
    /// `RZ`, `URZ`, `PT` or `UPT`.
    pub zero: bool,
}

impl Operand {
    /// The predicate this operand names, as a guard (`!P1`), if it is one.
    pub fn as_guard(&self) -> Option<Guard> {
        match self.regs.as_slice() {
            [pred] if matches!(pred.file, File::P | File::Up) => Some(Guard { pred: *pred, negated: self.negated }),
            _ => None,
        }
    }
}

impl Instr {
    /// The opcode without modifiers (`STG`).
    pub fn opcode(&self) -> &str {
        self.mnemonic.split('.').next().unwrap_or("")
    }

    /// The modifiers (`["E", "64"]` of `STG.E.64`).
    pub fn modifiers(&self) -> impl Iterator<Item = &str> {
        self.mnemonic.split('.').skip(1)
    }
}

/// One function of the listing: a kernel (`.entry`) or a device function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// Its symbol.
    pub name: String,
    /// A kernel: the listing marks its symbol `STO_CUDA_ENTRY`.
    pub entry: bool,
    /// Its instructions in address order.
    pub instrs: Vec<Instr>,
    /// Each label's instruction index (a label at the end maps to `instrs.len()`).
    pub labels: BTreeMap<String, usize>,
}

/// A line of the listing the parser cannot read.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("SASS line {line}: {message}: `{text}`")]
pub struct ParseError {
    /// The 1-based line of the listing.
    pub line: usize,
    /// What is wrong.
    pub message: String,
    /// The line.
    pub text: String,
}

/// Reads every function of an `nvdisasm -c` listing. A function starts at its
/// `.section .text.NAME` line and is a kernel if an `.other NAME,@"STO_CUDA_ENTRY …"` line says
/// so; label lines (`NAME:`, `.L_x_3:`) name the next instruction.
pub fn parse_listing(text: &str) -> Result<Vec<Function>, ParseError> {
    let mut out: Vec<Function> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let err = |message: &str| ParseError { line: i + 1, message: message.into(), text: line.into() };
        if let Some(rest) = line.strip_prefix(".section") {
            let name = rest.trim().split(',').next().unwrap_or("").trim().trim_matches('"');
            if let Some(f) = name.strip_prefix(".text.") {
                out.push(Function { name: f.to_string(), entry: false, instrs: Vec::new(), labels: BTreeMap::new() });
            }
            continue;
        }
        let Some(f) = out.last_mut() else { continue };
        if let Some(rest) = line.strip_prefix(".other") {
            let sym = rest.trim().split(',').next().unwrap_or("").trim();
            if sym == f.name && rest.contains("STO_CUDA_ENTRY") {
                f.entry = true;
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("/*") {
            let (offset, body) = rest.split_once("*/").ok_or_else(|| err("an offset without `*/`"))?;
            let offset = u32::from_str_radix(offset.trim(), 16).map_err(|_| err("the offset is not hex"))?;
            let body = body.trim().trim_end_matches(';').trim();
            let ins = parse_instr(offset, body).map_err(|m| err(&m))?;
            f.instrs.push(ins);
        } else if let Some(label) = line.strip_suffix(':') {
            if !label.is_empty() && !label.contains(char::is_whitespace) {
                f.labels.insert(label.to_string(), f.instrs.len());
            }
        }
    }
    Ok(out)
}

/// Reads one instruction (`@!P0 IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28]`, without offset and `;`).
pub fn parse_instr(offset: u32, body: &str) -> Result<Instr, String> {
    let (guard, rest) = match body.strip_prefix('@') {
        Some(g) => {
            let (g, rest) = g.split_once(char::is_whitespace).ok_or("a guard without an instruction")?;
            let (negated, p) = match g.strip_prefix('!') {
                Some(p) => (true, p),
                None => (false, g),
            };
            let guard = match reg_token(p) {
                Some(Tok::Reg(pred)) if matches!(pred.file, File::P | File::Up) => Some(Guard { pred, negated }),
                Some(Tok::Zero) => None,
                _ => return Err(format!("`{g}` is no predicate guard")),
            };
            (guard, rest.trim())
        }
        None => (None, body),
    };
    let (mnemonic, ops) = match rest.split_once(char::is_whitespace) {
        Some((m, o)) => (m, o.trim()),
        None => (rest, ""),
    };
    if mnemonic.is_empty() || !mnemonic.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_') {
        return Err(format!("`{mnemonic}` is no mnemonic"));
    }
    let operands = split_operands(ops);
    let mut ins = Instr {
        offset,
        text: body.to_string(),
        guard,
        mnemonic: mnemonic.to_string(),
        operands: Vec::new(),
        ndest: 0,
        defs: Vec::new(),
        uses: Vec::new(),
        flow: Flow::Next,
    };
    ins.flow = flow(&ins, &operands);
    effects(&mut ins, &operands);
    Ok(ins)
}

/// Splits operands at commas outside brackets, parentheses and backquotes.
fn split_operands(ops: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in ops.char_indices() {
        match c {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(ops[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = ops[start..].trim();
    if !last.is_empty() {
        out.push(last);
    }
    out
}

/// A register-like token.
enum Tok {
    /// A tracked register.
    Reg(Reg),
    /// `RZ`, `URZ`, `PT`, `UPT`: constant, never tracked.
    Zero,
}

/// Reads a bare register name (`R12`, `UR4`, `P0`, `UP1`, `RZ`, `URZ`, `PT`, `UPT`).
fn reg_token(t: &str) -> Option<Tok> {
    match t {
        "RZ" | "URZ" | "PT" | "UPT" => return Some(Tok::Zero),
        _ => {}
    }
    let (file, digits) = if let Some(d) = t.strip_prefix("UR") {
        (File::Ur, d)
    } else if let Some(d) = t.strip_prefix("UP") {
        (File::Up, d)
    } else if let Some(d) = t.strip_prefix('R') {
        (File::R, d)
    } else if let Some(d) = t.strip_prefix('P') {
        (File::P, d)
    } else {
        return None;
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let n: u16 = digits.parse().ok()?;
    (n < file.tracked()).then_some(Tok::Reg(Reg { file, n }))
}

/// A register named in an operand, with the number of consecutive registers it stands for.
#[derive(Clone, Copy, Debug)]
struct Named {
    reg: Option<Reg>,
    /// Written by `.64` (2) or `.128` (4) on the operand itself; 1 otherwise.
    width: u16,
    /// The bytes a half or byte selector picks (`.H1` → 0b1100), if it has one.
    bytes: Option<u8>,
}

/// The registers an operand names: the operand's own register (`-R4.H0_H0`, `!P0`, `|R2|`,
/// `R4.64`) and, separately, those inside its brackets (addresses, descriptors, constant-bank
/// indices), which are always read, each with whether it is a descriptor.
fn operand_regs(op: &str) -> (Option<Named>, Vec<(Named, bool)>) {
    let mut inner = Vec::new();
    let mut outer = String::new();
    let mut depth = 0;
    let mut cur = String::new();
    let mut prefix_desc = false;
    for c in op.chars() {
        match c {
            '[' => {
                if depth == 0 {
                    // Only the bracket right after `desc` holds the descriptor.
                    prefix_desc = outer.ends_with("desc");
                    outer.push('#');
                }
                depth += 1;
                if depth == 1 {
                    cur.clear();
                }
            }
            ']' => {
                depth -= 1;
                if depth == 0 {
                    for t in cur.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_')) {
                        if let Some(n) = named(t) {
                            // A descriptor is 64 bits: `desc[UR4]` reads UR4:UR5.
                            let width = if prefix_desc { 2 } else { n.width };
                            inner.push((Named { width, ..n }, prefix_desc));
                        }
                    }
                    prefix_desc = false;
                }
            }
            _ if depth > 0 => cur.push(c),
            _ => outer.push(c),
        }
    }
    let own = outer
        .trim()
        .trim_start_matches(['-', '!', '~', '|', '+'])
        .trim_end_matches('|')
        .split_whitespace()
        .next()
        .and_then(named);
    (own, inner)
}

/// A token `R4`, `R4.64`, `R4.H1`, `UR6.reuse`, `P0` as a [`Named`] (a zero register gives
/// `reg: None`); anything else gives `None`.
fn named(t: &str) -> Option<Named> {
    let mut parts = t.split('.');
    let base = parts.next()?;
    let tok = reg_token(base)?;
    let (mut width, mut bytes) = (1, None);
    for p in parts {
        match p {
            "64" => width = 2,
            "128" => width = 4,
            "H0" | "H0_H0" => bytes = Some(0b0011),
            "H1" | "H1_H1" => bytes = Some(0b1100),
            "B0" => bytes = Some(0b0001),
            "B1" => bytes = Some(0b0010),
            "B2" => bytes = Some(0b0100),
            "B3" => bytes = Some(0b1000),
            _ => {}
        }
    }
    Some(Named {
        reg: match tok {
            Tok::Reg(r) => Some(r),
            Tok::Zero => None,
        },
        width,
        bytes,
    })
}

/// The control transfer of an instruction.
fn flow(ins: &Instr, operands: &[&str]) -> Flow {
    let label = || {
        operands.iter().find_map(|o| {
            let o = o.trim();
            o.strip_prefix("`(").and_then(|l| l.strip_suffix(')')).map(str::to_string)
        })
    };
    match ins.opcode() {
        "BRA" => label().map_or(Flow::Indirect, Flow::Branch),
        "BRX" | "JMX" => branch_targets(&ins.text).map_or(Flow::Indirect, Flow::Targets),
        "JMP" => label().map_or(Flow::Indirect, Flow::Branch),
        "CALL" => label().map_or(Flow::Next, Flow::Call),
        "RET" => Flow::Return,
        "EXIT" | "KILL" => Flow::Exit,
        _ => Flow::Next,
    }
}

/// The labels of nvdisasm's `(*"BRANCH_TARGETS .L_x_5,.L_x_6"*)` annotation of an indirect
/// branch, if it has one (none listed is no annotation).
fn branch_targets(text: &str) -> Option<Vec<String>> {
    let rest = text.split_once("BRANCH_TARGETS")?.1;
    let list = rest.split('"').next()?;
    let labels: Vec<String> = list.split(',').map(str::trim).filter(|l| !l.is_empty()).map(str::to_string).collect();
    (!labels.is_empty()).then_some(labels)
}

/// Opcodes that write nothing: stores, reductions, branches, barriers, fences, cache control.
const NO_DEST: &[&str] = &[
    "ST",
    "STG",
    "STS",
    "STL",
    "STSM",
    "RED",
    "REDG",
    "REDAS",
    "CCTL",
    "CCTLL",
    "CCTLT",
    "BAR",
    "BPT",
    "BRA",
    "BRX",
    "JMP",
    "JMX",
    "CALL",
    "RET",
    "EXIT",
    "KILL",
    "BSYNC",
    "BSSY",
    "BREAK",
    "BMOV",
    "WARPSYNC",
    "NOP",
    "MEMBAR",
    "ERRBAR",
    "CGAERRBAR",
    "ENDCOLLECTIVE",
    "FENCE",
    "DEPBAR",
    "YIELD",
    "ACQBULK",
    "SYNCS",
    "UCGABAR_ARV",
    "UCGABAR_WAIT",
    "CGABAR",
    "ELECT",
    "PREEXIT",
    "ACQSHMINIT",
    "UBLKCP",
    "UTMACCTL",
    "UTMALDG",
    "UTMASTG",
    "UTMAPF",
    "UTMAREDG",
    "UBLKRED",
    "UBLKPF",
    "LDGDEPBAR",
    "ARRIVES",
    "NANOSLEEP",
    "WARPGROUP",
];

/// How many leading operands an instruction writes ([`NO_DEST`]: none; compare-and-set and
/// shuffles: two, a predicate pair or a predicate and a register; otherwise the first, and
/// the predicates right after a register destination: carry-outs as in `IADD3 R0, P0, …`).
fn dest_count(ins: &Instr, operands: &[&str]) -> usize {
    let op = ins.opcode();
    if NO_DEST.contains(&op) || operands.is_empty() {
        return 0;
    }
    // `ELECT P0, URx, PT` writes both; VOTEU with a UR destination writes it.
    let pred = |o: &str| {
        matches!(operand_regs(o).0, Some(Named { reg: Some(Reg { file: File::P | File::Up, .. }), .. }))
            || matches!(o, "PT" | "UPT")
    };
    // `VOTEU.ALL UP0, P2` writes UP0; `VOTEU.ANY UR4, UPT, PT` writes UR4 and UPT (the last
    // operand is the source predicate; corpus/findings/fuzz-h200-3701/trace/TU1.md).
    if op == "VOTEU" {
        return if !pred(operands[0]) && operands.len() > 2 && pred(operands[1]) { 2 } else { 1 };
    }
    if op.ends_with("SETP") || matches!(op, "HSETP2" | "PLOP3" | "UPLOP3" | "VOTE" | "ELECT") {
        return 2.min(operands.len());
    }
    // `SHFL.BFLY P1, R17, …`, `ATOMG.E.ADD PT, R0, [..], R5`, `R2UR P1, UR7, R0`,
    // `LOP3.LUT P0, R2, …`: a predicate, then the register.
    if matches!(op, "SHFL" | "ATOM" | "ATOMG" | "ATOMS" | "R2UR" | "LOP3" | "ULOP3") && pred(operands[0]) {
        return 2.min(operands.len());
    }
    let mut n = 1;
    let first_is_reg = !pred(operands[0]);
    if first_is_reg {
        while n < operands.len() && pred(operands[n]) && !operands[n].starts_with('!') {
            n += 1;
        }
    }
    n
}

/// The type modifiers that make a conversion's operand 64 bits wide.
fn wide_type(m: &str) -> bool {
    matches!(m, "F64" | "S64" | "U64")
}

/// How many consecutive registers the destination and the register sources of `ins` stand for,
/// from its opcode (operands that say `.64`/`.128` themselves are read as they say):
/// (destination width, source widths by source position, data width of a store).
fn widths(ins: &Instr) -> (u16, Vec<u16>, u16) {
    let op = ins.opcode();
    let mods: Vec<&str> = ins.modifiers().collect();
    let vector = if mods.contains(&"128") {
        4
    } else if mods.contains(&"64") {
        2
    } else {
        1
    };
    match op {
        // Double precision: every register operand is a pair.
        "DADD" | "DMUL" | "DFMA" | "DMNMX" | "DSETP" | "DMMA" => (2, vec![2, 2, 2], 1),
        // Conversions: the type modifiers say which side is 64 bits. F2F.DST.SRC, F2I.DST?.SRC?
        // (an integer destination, 32 bits by default), I2F.DST?.SRC? (a float destination).
        "F2F" | "FRND" => {
            let types: Vec<&str> =
                mods.iter().copied().filter(|m| matches!(*m, "F16" | "BF16" | "F32" | "F64")).collect();
            let dst = types.first().copied().unwrap_or("F32");
            let src = types.get(1).copied().unwrap_or(dst);
            (if wide_type(dst) { 2 } else { 1 }, vec![if wide_type(src) { 2 } else { 1 }], 1)
        }
        "F2I" => {
            let dst = mods.iter().any(|m| matches!(*m, "S64" | "U64"));
            let src = mods.contains(&"F64");
            (if dst { 2 } else { 1 }, vec![if src { 2 } else { 1 }], 1)
        }
        "I2F" => {
            let dst = mods.contains(&"F64");
            let src = mods.iter().any(|m| matches!(*m, "S64" | "U64"));
            (if dst { 2 } else { 1 }, vec![if src { 2 } else { 1 }], 1)
        }
        // `IMAD.WIDE D, A, B, C` and its uniform `UIMAD.WIDE` (ptxas makes one of
        // `mad.hi.s64`/`mul.hi.u64` on constants): D and C are pairs.
        "IMAD" | "UIMAD" if mods.contains(&"WIDE") => (2, vec![1, 1, 2], 1),
        // CS2R writes 64 bits unless `.32`.
        "CS2R" => (if mods.contains(&"32") { 1 } else { 2 }, vec![], 1),
        // Loads and stores: the vector width is the data width.
        "LD" | "LDG" | "LDS" | "LDL" | "LDC" | "ULDC" | "LDSM" | "ATOM" | "ATOMG" | "ATOMS" | "LDGSTS" => {
            (vector, vec![], vector)
        }
        "ST" | "STG" | "STS" | "STL" | "RED" | "REDG" => (1, vec![], vector),
        // Other 64-bit forms of integer operations (`IADD.64`, `UMOV.64`): the destination a pair.
        _ => (vector, vec![], 1),
    }
}

/// Opcodes whose bracketed address is 64 bits wide when the `.E` modifier is present (generic
/// and global addressing without a descriptor).
fn wide_address(ins: &Instr) -> bool {
    matches!(ins.opcode(), "LD" | "ST" | "ATOM" | "RED" | "CCTL" | "LDG" | "STG" | "ATOMG" | "REDG")
        && ins.modifiers().any(|m| m == "E")
}

/// The bytes an instruction reads of its narrow data or source operand: byte 0 of an 8-bit
/// one, bytes 0-1 of a 16-bit one, all four otherwise.
fn narrow_bytes(ins: &Instr) -> u8 {
    let mods: Vec<&str> = ins.modifiers().collect();
    let has = |m: &[&str]| mods.iter().any(|x| m.contains(x));
    let by_int = || {
        if has(&["U8", "S8"]) {
            0b0001
        } else if has(&["U16", "S16"]) {
            0b0011
        } else {
            0b1111
        }
    };
    match ins.opcode() {
        "ST" | "STG" | "STS" | "STL" | "I2F" => by_int(),
        // The source type of F2F is the second float type; FRND and F2I have one.
        "F2F" => {
            let floats: Vec<&&str> = mods.iter().filter(|m| matches!(**m, "F16" | "BF16" | "F32" | "F64")).collect();
            if floats.get(1).is_some_and(|m| matches!(**m, "F16" | "BF16")) {
                0b0011
            } else {
                0b1111
            }
        }
        "F2I" | "FRND" if has(&["F16", "BF16"]) => 0b0011,
        // Two 8-bit floats unpacked from the low half.
        "F2FP" if has(&["UNPACK_B"]) => 0b0011,
        _ => 0b1111,
    }
}

/// Fills [`Instr::operands`], [`Instr::ndest`], [`Instr::defs`] and [`Instr::uses`].
fn effects(ins: &mut Instr, operands: &[&str]) {
    let ndest = dest_count(ins, operands);
    let (dst_w, src_w, data_w) = widths(ins);
    let store = matches!(ins.opcode(), "ST" | "STG" | "STS" | "STL" | "RED" | "REDG");
    let narrow = narrow_bytes(ins);
    let wide_addr = wide_address(ins);
    // A predicate is one register whatever the opcode's width (`DSETP.MIN.AND P1, P3, R10, …`).
    let span = |r: Reg, w: u16| {
        let w = if matches!(r.file, File::P | File::Up) { 1 } else { w };
        (r.n..(r.n + w).min(r.file.tracked())).map(move |n| Reg { n, ..r }).collect::<Vec<_>>()
    };
    let mut out = Vec::new();
    for (k, op) in operands.iter().enumerate() {
        let (own, inner) = operand_regs(op);
        let mut o = Operand {
            text: op.to_string(),
            imm: parse_imm(op),
            bytes: 0b1111,
            negated: op.starts_with('!'),
            zero: own.is_some_and(|n| n.reg.is_none()),
            ..Operand::default()
        };
        for (n, desc) in inner {
            let w = if wide_addr && n.width == 1 && n.reg.is_some_and(|r| r.file == File::R) { 2 } else { n.width };
            if let Some(r) = n.reg {
                o.inner.extend(span(r, w));
                if desc {
                    o.descriptor.extend(span(r, w));
                }
            }
        }
        if let Some(own) = own {
            let w = if k < ndest {
                if k == 0 {
                    own.width.max(dst_w)
                } else {
                    own.width
                }
            } else if store && k + 1 == operands.len() {
                own.width.max(data_w)
            } else {
                own.width.max(src_w.get(k - ndest).copied().unwrap_or(1))
            };
            if let Some(r) = own.reg {
                o.regs = span(r, w);
            }
            // The narrow source of a store is its data; of a conversion, its one source.
            let narrow_here = k >= ndest && (!store || k + 1 == operands.len());
            o.bytes = own.bytes.unwrap_or(if narrow_here { narrow } else { 0b1111 });
        }
        out.push(o);
    }
    // Two packs that fill D's upper half from C's low half read only bytes 0-1 of C:
    // `F2FP.<8-bit float>.F32.PACK_AB_MERGE_C D, A, B, C` (an 8-bit float pair in D's low half;
    // ptxas builds `mov.b32 %r, {%h_e5m2x2, %h}` with one; corpus/findings/fuzz-h200-3201/
    // README.md row 4) and `I2IP.{S8,U8}.S32.SAT D, A, B, C`, `cvt.pack.sat.{s8,u8}.s32.b32`
    // (§9.7.9.22: "remaining bits of d are copied from lower bits of c"; ptxas writes only C's low
    // half before one, `PRMT R3, R2, 0x7610, R3; I2IP.S8.S32.SAT R9, R2, R9, R3`). Likewise the
    // 2-source `F2FP.<8-bit float>.F16.UNPACK_B_MERGE_C D, B, C` of `cvt.*.{e4m3x2,e5m2x2}.f16x2`:
    // D = {C[15:0], the pair of B} (H200, ptxas 13.0.88 -O3: 0x12345678, 0x3c003c00 → 0x444c3838;
    // corpus/findings/fuzz-h200-3601/trace/T1.md, finding 5814b646).
    let merge_c = ins.opcode() == "F2FP" && ins.modifiers().any(|m| m == "PACK_AB_MERGE_C");
    let unpack_merge_c = ins.opcode() == "F2FP" && ins.modifiers().any(|m| m == "UNPACK_B_MERGE_C");
    let pack8 = ins.opcode() == "I2IP" && ins.modifiers().any(|m| matches!(m, "S8" | "U8"));
    if ((merge_c || pack8) && out.len() == ndest + 3) || (unpack_merge_c && out.len() == ndest + 2) {
        // A half selector (`R9.H1`) already says which bytes are read.
        if let Some(c) = out.last_mut().filter(|c| c.regs.len() == 1 && c.bytes == 0b1111) {
            c.bytes = 0b0011;
        }
    }
    let mut defs: Vec<Reg> = out.iter().take(ndest).flat_map(|o| o.regs.iter().copied()).collect();
    // `R2P PR, R0, MASK` writes the predicates of MASK.
    if ins.opcode() == "R2P" {
        if let Some(mask) = out.get(2).and_then(|m| m.imm) {
            defs.extend((0..7).filter(|i| mask & (1 << i) != 0).map(|n| Reg { file: File::P, n }));
        }
    }
    let mut uses: Vec<Reg> = ins.guard.map(|g| g.pred).into_iter().collect();
    for (k, o) in out.iter().enumerate() {
        let own = if k < ndest { &[][..] } else { &o.regs[..] };
        for &r in o.inner.iter().chain(own) {
            if !uses.contains(&r) {
                uses.push(r);
            }
        }
    }
    ins.operands = out;
    ins.ndest = ndest;
    ins.defs = defs;
    ins.uses = uses;
}

/// An integer immediate operand's value as 32 bits (`0x7632`, `-0xc`, `12`).
fn parse_imm(s: &str) -> Option<u32> {
    let s = s.trim();
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let v = parse_int(body)?;
    let v = u32::try_from(v).ok()?;
    Some(if neg { v.wrapping_neg() } else { v })
}

/// An integer immediate (`0x7f`, `12`).
fn parse_int(s: &str) -> Option<u64> {
    let s = s.trim();
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn regs(v: &[Reg]) -> Vec<String> {
        v.iter().map(Reg::to_string).collect()
    }

    fn used(i: &Instr) -> Vec<String> {
        regs(&i.uses)
    }

    fn ins(s: &str) -> Instr {
        parse_instr(0, s).unwrap()
    }

    #[test]
    fn destinations_and_sources_by_opcode_class() {
        let i = ins("@!P0 IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28]");
        assert_eq!(i.guard, Some(Guard { pred: Reg { file: File::P, n: 0 }, negated: true }));
        assert_eq!((regs(&i.defs), used(&i)), (vec!["R1".into()], vec!["P0".into()]));
        let i = ins("IADD3 R0, P0, R6, R0, RZ");
        assert_eq!((regs(&i.defs), used(&i)), (vec!["R0".into(), "P0".into()], vec!["R6".into(), "R0".into()]));
        let i = ins("IADD3.X R5, R7, R5, RZ, P0, !PT");
        assert_eq!((regs(&i.defs), used(&i)), (vec!["R5".into()], vec!["R7".into(), "R5".into(), "P0".into()]));
        let i = ins("ISETP.NE.AND.EX P0, PT, R5, R7, PT, P1");
        assert_eq!((regs(&i.defs), used(&i)), (vec!["P0".into()], vec!["R5".into(), "R7".into(), "P1".into()]));
        let i = ins("PLOP3.LUT P0, PT, P1, PT, PT, 0x80, 0x0");
        assert_eq!((regs(&i.defs), used(&i)), (vec!["P0".into()], vec!["P1".into()]));
        let i = ins("SHFL.BFLY P1, R17, R6, R18, R19");
        assert_eq!(regs(&i.defs), ["P1", "R17"]);
        assert_eq!(used(&i), ["R6", "R18", "R19"]);
        let i = ins("S2UR UR5, SR_CgaCtaId");
        assert_eq!((regs(&i.defs), used(&i)), (vec!["UR5".into()], vec![]));
        let i = ins("R2P PR, R3, 0x5");
        assert_eq!((regs(&i.defs), used(&i)), (vec!["P0".into(), "P2".into()], vec!["R3".into()]));
    }

    #[test]
    fn widths_come_from_the_operand_and_the_opcode() {
        // The createpolicy root cause: the descriptor is UR6:UR7, the address R4:R5.
        let i = ins("STG.E desc[UR6][R4.64], R2");
        assert!(i.defs.is_empty());
        assert_eq!(used(&i), ["UR6", "UR7", "R4", "R5", "R2"]);
        assert_eq!(regs(&i.operands[0].descriptor), ["UR6", "UR7"]);
        assert!(ins("LDS.U16 R2, [R3+0x8]").operands[1].descriptor.is_empty());
        let i = ins("LDG.E.128 R4, desc[UR4][R2.64+0x10]");
        assert_eq!(regs(&i.defs), ["R4", "R5", "R6", "R7"]);
        let i = ins("STS.128 [R2+0x10], R8");
        assert_eq!(used(&i), ["R2", "R8", "R9", "R10", "R11"]);
        let i = ins("STG.E.64 desc[UR4][R2.64], R6");
        assert_eq!(used(&i), ["UR4", "UR5", "R2", "R3", "R6", "R7"]);
        let i = ins("LD.E.64 R6, [R2]");
        assert_eq!((regs(&i.defs), used(&i)), (vec!["R6".into(), "R7".into()], vec!["R2".into(), "R3".into()]));
        let i = ins("LDS.U16 R2, [R3+0x8]");
        assert_eq!((regs(&i.defs), used(&i)), (vec!["R2".into()], vec!["R3".into()]));
        let i = ins("IMAD.WIDE.U32 R2, R9, 0x20, R4");
        assert_eq!(
            (regs(&i.defs), used(&i)),
            (vec!["R2".into(), "R3".into()], vec!["R9".into(), "R4".into(), "R5".into()])
        );
        let i = ins("UIMAD.WIDE.U32 UR4, UP0, URZ, 0x3004c647, UR6");
        assert_eq!(
            (regs(&i.defs), used(&i)),
            (vec!["UR4".into(), "UR5".into(), "UP0".into()], vec!["UR6".into(), "UR7".into()])
        );
        let i = ins("HSETP2.NE.AND P0, P1, R0.H0_H0, R1.H1_H1, PT");
        assert_eq!((regs(&i.defs), used(&i)), (vec!["P0".into(), "P1".into()], vec!["R0".into(), "R1".into()]));
        let i = ins("DSETP.MIN.AND P1, P3, R10, 1, PT");
        assert_eq!((regs(&i.defs), used(&i)), (vec!["P1".into(), "P3".into()], vec!["R10".into(), "R11".into()]));
        let i = ins("DADD R14, -RZ, R20");
        assert_eq!((regs(&i.defs), used(&i)), (vec!["R14".into(), "R15".into()], vec!["R20".into(), "R21".into()]));
        let i = ins("F2F.F64.F32 R4, R9");
        assert_eq!((regs(&i.defs), used(&i)), (vec!["R4".into(), "R5".into()], vec!["R9".into()]));
        let i = ins("F2I.S8.F64.TRUNC R2, R6");
        assert_eq!((regs(&i.defs), used(&i)), (vec!["R2".into()], vec!["R6".into(), "R7".into()]));
        let i = ins("I2F.F16.U64.RM R3, R4");
        assert_eq!((regs(&i.defs), used(&i)), (vec!["R3".into()], vec!["R4".into(), "R5".into()]));
        let i = ins("ULDC.64 UR4, c[0x0][0x208]");
        assert_eq!(regs(&i.defs), ["UR4", "UR5"]);
        let i = ins("LDC.64 R2, c[0x0][R2+0x210]");
        assert_eq!((regs(&i.defs), used(&i)), (vec!["R2".into(), "R3".into()], vec!["R2".into()]));
        let i = ins("CS2R R2, SRZ");
        assert_eq!(regs(&i.defs), ["R2", "R3"]);
        let i = ins("HFMA2.BF16_V2 R0, -RZ.H0_H0, RZ.H0_H0, R8.H1_H1");
        assert_eq!(used(&i), ["R8"]);
        let i = ins("FSETP.GEU.AND P1, PT, |R4|, +INF , PT");
        assert_eq!(used(&i), ["R4"]);
    }

    #[test]
    fn operands_keep_immediates_selectors_and_narrow_bytes() {
        let i = ins("PRMT R8, R10, 0x7632, R8");
        assert_eq!(i.operands[2].imm, Some(0x7632));
        assert_eq!(i.operands[1].regs, [Reg { file: File::R, n: 10 }]);
        assert_eq!(ins("UIADD3 UR4, UR6, -0xc, URZ").operands[2].imm, Some(0xc_u32.wrapping_neg()));
        let bytes = |s: &str, k: usize| ins(s).operands[k].bytes;
        assert_eq!(bytes("STG.E.U16 desc[UR4][R4.64], R9", 1), 0b0011);
        assert_eq!(bytes("STS.U8 [R3], R9", 1), 0b0001);
        assert_eq!(bytes("STG.E desc[UR4][R4.64], R9", 1), 0b1111);
        assert_eq!(bytes("I2F.S16 R2, R3", 1), 0b0011);
        assert_eq!(bytes("I2F.S16 R2, R3.H1", 1), 0b1100);
        assert_eq!(bytes("F2F.F32.BF16 R2, R3", 1), 0b0011);
        assert_eq!(bytes("F2F.BF16.F32 R2, R3", 1), 0b1111);
        assert_eq!(bytes("HADD2.F32 R2, -RZ, R3.H0_H0", 2), 0b0011);
        assert_eq!(bytes("LDG.E.U16 R2, desc[UR4][R4.64]", 0), 0b1111);
        // D = {C[15:0], the 8-bit float pair of B}: B whole, C's low half.
        let unpack = "F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R7, R6, R7";
        assert_eq!((bytes(unpack, 1), bytes(unpack, 2)), (0b1111, 0b0011));
        assert_eq!(bytes("F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R7, R6, R7.H1", 2), 0b1100);
        let i = ins("SEL R0, R1, R2, !P3");
        assert_eq!(i.operands[3].as_guard(), Some(Guard { pred: Reg { file: File::P, n: 3 }, negated: true }));
        let i = ins("@P1 R2UR.OR P0, UR7, R7");
        assert_eq!(regs(&i.defs), ["P0", "UR7"]);
        assert_eq!(used(&i), ["P1", "R7"]);
    }

    #[test]
    fn control_flow_and_listing() {
        let text = "\t.section\t.text.k,\"ax\",@progbits\n.other k,@\"STO_CUDA_ENTRY STV_DEFAULT\"\nk:\n.text.k:\n\
            /*0000*/  LDC R1, c[0x0][0x28] ;\n\
            /*0010*/  @P0 BRA `(.L_x_1) ;\n\
            /*0020*/  CALL.REL.NOINC `($k$__internal_0) ;\n\
            .L_x_1:\n\
            /*0030*/  EXIT ;\n\
            $k$__internal_0:\n\
            /*0040*/  RET.REL.NODEC R20 `(k) ;\n";
        let f = parse_listing(text).unwrap();
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].name.as_str(), f[0].entry), ("k", true));
        let flows: Vec<&Flow> = f[0].instrs.iter().map(|i| &i.flow).collect();
        assert_eq!(
            flows,
            [
                &Flow::Next,
                &Flow::Branch(".L_x_1".into()),
                &Flow::Call("$k$__internal_0".into()),
                &Flow::Exit,
                &Flow::Return
            ]
        );
        assert_eq!(f[0].labels[".L_x_1"], 3);
        assert_eq!(f[0].labels["$k$__internal_0"], 4);
        assert_eq!(f[0].instrs[2].mnemonic, "CALL.REL.NOINC");
        assert_eq!(f[0].instrs[4].uses.len(), 1, "RET reads its return address");
    }

    #[test]
    fn bad_lines_are_named() {
        let e = parse_listing(".section .text.k\n/*00x0*/ NOP ;\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.to_string().contains("offset"), "{e}");
        let e = parse_listing(".section .text.k\n/*0000*/ @Q0 NOP ;\n").unwrap_err();
        assert!(e.to_string().contains("predicate guard"), "{e}");
    }
}
