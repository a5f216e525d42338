//! Whole test programs: one CTA-sized kernel of many instructions with real dataflow, the
//! unit that `ptxdiff fuzz` generates, runs on every backend, minimizes and reports.
//!
//! A [`Program`] is a straight list of [`Stmt`]s over typed virtual registers: §9.7.9
//! instructions from the ISA model ([`Instruction`]), a small integer glue set ([`Glue`]),
//! forward branches with their labels, counted loops (a backward branch), and `bar.sync`; and the [`Launch`] that runs it. It
//! prints as one `.entry` of a module ([`text`]) and parses back from that text, so a case file
//! is plain PTX that `ptxas` takes as is; [`interp`] evaluates it for every thread of the
//! launch (`exec` control flow, `thread` per-thread statements, `warp` collectives,
//! memory in [`crate::memory`], the test hook in `plant`); [`mod@slice`] gives the statements an
//! output word depends on and their shape (what root-cause signatures are built on).
//!
//! The launch contract ([`Launch::one_cta`], fixed by the prologue that [`text`] prints):
//! - one CTA of [`Program::threads`] threads (a multiple of 32), kernel parameters `p_in` and
//!   `p_out` (global pointers to the [`Buffer::Inputs`] and [`Buffer::Outputs`] buffers, each
//!   128-byte aligned: `applypriority` and `discard` need a 128-byte-aligned line, §9.7.9.16/17);
//! - thread `t` reads its [`Program::inputs`] 32-bit words (a multiple of 4, so `%in` is
//!   16-byte aligned for vector loads) at `p_in + 4·inputs·t` through the
//!   base register `%in`, and writes its [`Program::outputs`] words (1, 2 or 4) at
//!   `p_out + 4·outputs·t` through `%out`; the output buffer starts zeroed;
//! - shared memory has [`Program::shared`] words per thread (0 or a multiple of 4); `%sh` addresses the thread's own
//!   slot and `%shn` the slot of thread `(t + 1) mod threads`;
//! - `%tix` holds the thread index (`.b32`).
//!
//! Invariants the generator keeps and [`interp`] relies on (a program that breaks them has
//! undefined results): branches go forward, except the back edge of a counted loop, which
//! every thread reaching it takes the same number of times (the loop runs converged); registers are written before they are read;
//! `shfl.sync` and `bar.sync` run with the whole CTA converged, unguarded; shared words are
//! stored by their own thread, unguarded and converged, and another thread's word is read
//! only after a `bar.sync` that follows the last store to it (bytes never stored read as any
//! value).

use std::fmt;

use crate::isa::operand::OperandKind;
use crate::isa::types::RegType;
use crate::isa::{CvtType, Form, Instruction, Target};

mod emulate;
mod exec;
pub mod glue;
pub mod interp;
pub mod launch;
mod plant;
mod reg_file;
pub mod slice;
pub mod text;
pub(crate) mod thread;
mod warp;

pub use glue::{Cmp, Glue, GlueOp, GlueType, Src};
pub use launch::{Buffer, Dim3, Launch, Param, ParamType, ParamValue};

/// The largest number of output words per thread.
pub const MAX_OUTPUTS: u32 = 4;
/// The largest CTA.
pub const MAX_THREADS: u32 = 1024;
/// The largest number of input words per thread (the generator's `MAX_INPUT_WORDS` is this
/// bound; 256 words × 1024 threads is 1 MiB of inputs, a size every backend handles at once).
pub const MAX_INPUTS: u32 = 256;

/// A register class: the bit-size register types a program declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegClass {
    /// `.pred` (`%p<n>`).
    Pred,
    /// `.b8` (`%c<n>`): for the forms whose 8-bit operands ptxas takes only in 8-bit registers
    /// (see [`RegClass::of`]).
    B8,
    /// `.b16` (`%h<n>`).
    B16,
    /// `.b32` (`%r<n>`).
    B32,
    /// `.b64` (`%d<n>`).
    B64,
}

impl RegClass {
    /// All classes.
    pub const ALL: [RegClass; 5] = [RegClass::Pred, RegClass::B8, RegClass::B16, RegClass::B32, RegClass::B64];

    /// Width in bits (1 for predicates).
    pub fn bits(self) -> u32 {
        match self {
            RegClass::Pred => 1,
            RegClass::B8 => 8,
            RegClass::B16 => 16,
            RegClass::B32 => 32,
            RegClass::B64 => 64,
        }
    }

    /// The register-name prefix.
    pub fn prefix(self) -> char {
        match self {
            RegClass::Pred => 'p',
            RegClass::B8 => 'c',
            RegClass::B16 => 'h',
            RegClass::B32 => 'r',
            RegClass::B64 => 'd',
        }
    }

    /// The PTX type of the declaration.
    pub fn ptx_type(self) -> &'static str {
        match self {
            RegClass::Pred => ".pred",
            RegClass::B8 => ".b8",
            RegClass::B16 => ".b16",
            RegClass::B32 => ".b32",
            RegClass::B64 => ".b64",
        }
    }

    /// The class whose registers hold an operand of type `t` (bit-size registers are
    /// compatible with every type of their size, §6.4.4); 8-bit types live in `.b16`, which
    /// ptxas takes for them except where a form needs `.b8` (a program then uses
    /// [`RegClass::B8`]; [`operand_class`] decides).
    pub fn of(t: RegType) -> Option<RegClass> {
        match t {
            RegType::Pred => Some(RegClass::Pred),
            RegType::B128 => None,
            _ => match t.bits() {
                8 | 16 => Some(RegClass::B16),
                32 => Some(RegClass::B32),
                64 => Some(RegClass::B64),
                _ => None,
            },
        }
    }
}

/// Whether `form` needs `.b8` registers for its 8-bit operands: operands of type `.b8` in `cvt`
/// and `mov` (`cvt …e2m1x2`, `mov.b16 d, {a, b}`, `mov.b32` with four elements) and the 16
/// `cvt` forms between `.bf16` and `.u8`/`.s8`, where ptxas 13.5 rejects a `.b16` register
/// ("Arguments mismatch"), though it takes one for every other 8-bit operand (found with
/// ptxas 13.5 on every form the program generator draws).
pub fn needs_8bit_register(form: &Form) -> bool {
    let b8 = || {
        form.operands().iter().any(|s| {
            matches!(
                s.kind,
                OperandKind::Reg(RegType::B8)
                    | OperandKind::RegOrImm(RegType::B8)
                    | OperandKind::Vector(RegType::B8, _)
            )
        })
    };
    match form {
        Form::Cvt(c) => {
            let byte = |t: CvtType| matches!(t, CvtType::U8 | CvtType::S8);
            b8() || (c.dtype == CvtType::Bf16 && byte(c.atype)) || (c.atype == CvtType::Bf16 && byte(c.dtype))
        }
        Form::Mov(_) => b8(),
        _ => false,
    }
}

/// The register class of an operand of type `t` of `form`: `.b8` for the 8-bit operands of a
/// form that [needs 8-bit registers](needs_8bit_register), else [`RegClass::of`]. The one
/// mapping from a form's operand to the class of its register (the program generator, its
/// checker, conform's case files, the tests).
pub fn operand_class(form: &Form, t: RegType) -> Option<RegClass> {
    if t.bits() == 8 && needs_8bit_register(form) {
        return Some(RegClass::B8);
    }
    RegClass::of(t)
}

/// A register of the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reg {
    /// A virtual register `%p3`, `%h3`, `%r3`, `%d3`.
    Virt(RegClass, u32),
    /// A register the prologue sets: `%tix`, `%in`, `%out`, `%sh`, `%shn`.
    Special(Special),
}

/// The registers the prologue sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Special {
    /// `%tix`: the thread index (`.b32`).
    Tid,
    /// `%in`: the thread's input words (`.b64`, global).
    In,
    /// `%out`: the thread's output words (`.b64`, global).
    Out,
    /// `%sh`: the thread's shared slot (`.b64`, shared window).
    Sh,
    /// `%shn`: the next thread's shared slot.
    ShNext,
}

impl Special {
    /// All special registers.
    pub const ALL: [Special; 5] = [Special::Tid, Special::In, Special::Out, Special::Sh, Special::ShNext];

    /// The register name without `%`.
    pub fn name(self) -> &'static str {
        match self {
            Special::Tid => "tix",
            Special::In => "in",
            Special::Out => "out",
            Special::Sh => "sh",
            Special::ShNext => "shn",
        }
    }
}

impl Reg {
    /// The register's class.
    pub fn class(self) -> RegClass {
        match self {
            Reg::Virt(c, _) => c,
            Reg::Special(Special::Tid) => RegClass::B32,
            Reg::Special(_) => RegClass::B64,
        }
    }

    /// Parses `%r3`, `%tid`… (the leading `%` is required).
    pub fn parse(s: &str) -> Option<Reg> {
        let body = s.strip_prefix('%')?;
        if let Some(sp) = Special::ALL.into_iter().find(|sp| sp.name() == body) {
            return Some(Reg::Special(sp));
        }
        let mut chars = body.chars();
        let class = match chars.next()? {
            'p' => RegClass::Pred,
            'c' => RegClass::B8,
            'h' => RegClass::B16,
            'r' => RegClass::B32,
            'd' => RegClass::B64,
            _ => return None,
        };
        let digits = chars.as_str();
        if digits.is_empty()
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || (digits.len() > 1 && digits.starts_with('0'))
        {
            return None;
        }
        Some(Reg::Virt(class, digits.parse().ok()?))
    }
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reg::Virt(c, n) => write!(f, "%{}{n}", c.prefix()),
            Reg::Special(s) => write!(f, "%{}", s.name()),
        }
    }
}

/// A predicate guard `@%p3` / `@!%p3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PredGuard {
    /// The predicate register index (`%p<n>`).
    pub pred: u32,
    /// `@!`.
    pub negated: bool,
}

impl fmt::Display for PredGuard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}%p{}", if self.negated { "!" } else { "" }, self.pred)
    }
}

/// One statement of a program body.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// A §9.7.9 instruction; its registers are named as [`Reg`] prints them.
    Isa(Instruction),
    /// An integer glue instruction.
    Glue {
        /// Guard.
        guard: Option<PredGuard>,
        /// The instruction.
        glue: Glue,
    },
    /// `@p bra $L<n>;` — a forward branch (unconditional without a guard).
    Bra {
        /// Guard.
        guard: Option<PredGuard>,
        /// Target label.
        label: u32,
    },
    /// `$L<n>:`.
    Label(u32),
    /// `bar.sync 0;`.
    Bar,
}

impl Stmt {
    /// Whether this statement counts as an instruction (labels do not).
    pub fn is_instruction(&self) -> bool {
        !matches!(self, Stmt::Label(_))
    }
}

/// A test program: one kernel, its launch and its memory layout.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// Entry name (an identifier).
    pub name: String,
    /// The target it is valid for.
    pub target: Target,
    /// How it is launched: today [`Launch::one_cta`] of a multiple of 32 threads, at most
    /// [`MAX_THREADS`].
    pub launch: Launch,
    /// Input words per thread.
    pub inputs: u32,
    /// Output words per thread (at most [`MAX_OUTPUTS`]).
    pub outputs: u32,
    /// Shared-memory words per thread.
    pub shared: u32,
    /// The body.
    pub body: Vec<Stmt>,
}

impl Program {
    /// Threads of the one CTA ([`Launch::threads`]).
    pub fn threads(&self) -> u32 {
        self.launch.threads()
    }

    /// Instructions in the body (labels excluded).
    pub fn instruction_count(&self) -> usize {
        self.body.iter().filter(|s| s.is_instruction()).count()
    }

    /// Bytes of input per thread.
    pub fn input_stride(&self) -> u32 {
        4 * self.inputs
    }

    /// Bytes of output per thread.
    pub fn output_stride(&self) -> u32 {
        4 * self.outputs
    }
}

/// The inputs of one run of a program: `threads × inputs` words, thread 0 first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inputs(pub Vec<u32>);

impl Inputs {
    /// Thread `t`'s words.
    pub fn thread(&self, p: &Program, t: u32) -> &[u32] {
        let n = p.inputs as usize;
        &self.0[t as usize * n..(t as usize + 1) * n]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_names_round_trip() {
        for r in ["%p0", "%h12", "%r3", "%d7", "%tix", "%in", "%out", "%sh", "%shn"] {
            assert_eq!(Reg::parse(r).map(|r| r.to_string()).as_deref(), Some(r));
        }
        for bad in ["r3", "%x1", "%r", "%r01", "%r1a", "%", "%tid"] {
            assert_eq!(Reg::parse(bad), None, "{bad}");
        }
    }
}
