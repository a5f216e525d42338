//! The SASS check: does a compiled kernel read a register that nothing wrote on some path?
//! (issue 29 item 5). Such a kernel's result depends on what the register happened to hold —
//! a wrong word or a fault on the GPU that often does not show when the case is replayed alone —
//! so it is a finding of its own class, found without running anything.
//!
//! One job per file: [`disasm`] finds, installs and runs nvdisasm (bounded in time), [`parse`]
//! reads its listing into instructions with the registers each writes and reads, [`dataflow`]
//! walks each kernel's control-flow graph, [`preds`] keeps what the walk knows of the predicates
//! (constants and implications between them) so that a guarded read can be proved written. This file joins them: [`check_listing`] on SASS text,
//! [`Checker::check_cubin`] on a cubin, [`Checker::check_ptx`] on PTX assembled by ptxas first.
//! Only kernels (`.entry`) are checked: a device function's registers at entry are its
//! caller's. A finding is de-duplicated by [`Unwritten::key`]: the mnemonic of the instruction
//! that reads and what the never-written registers are to it (`STG.E descriptor`) — the first
//! instruction of the kernel to read them, where later ones read the same registers
//! ([`Unwritten::keyed_by`]: one never-written register, one finding) — and by its
//! [`Unwritten::shape`] where an earlier instruction made the undefined bits it reads (`UPRMT →
//! STG.E.U8`: the origin, which an entry can name whatever instruction reads). Whether the
//! undefined bits it reads were written under some guard or in an arm elsewhere in the kernel
//! ([`Unwritten::partly_written`], [`dataflow::UnwrittenRead::partly_written`]) becomes its
//! finding's input class [`PARTLY_WRITTEN`]: an entry names a mechanism (an if-conversion that
//! lost the else-value, root cause N-5) whatever reads. A read of nothing but an `.X`
//! instruction's carry-in predicates, which nothing writes ([`Unwritten::carry_in`]), has the
//! input class [`NEVER_WRITTEN_CARRY`]: the carry's producer deleted, its consumer kept.
//! [`coverage`] reads the same parsed listing for the opcode n-grams a campaign counts as
//! coverage ([`Checker::disassemble_parsed`]: one parse for both). [`stores`] maps a flagged
//! store (role `source` or `guard`), and a store of a value derived from any flagged read, to the
//! bytes of the thread's output it writes from undefined bits, where its address is proved to be
//! the thread's output pointer: a differing GPU word made of those bytes is that read's finding's, not a compiler finding of its own ([`crate::fuzz::package`]).
//! [`witness`] tells which `sass_witness` globs of the known entries a kernel has (the same parsed
//! listing): an emulation whose entry names one applies to a backend only where its kernel has it.

pub mod coverage;
pub mod dataflow;
pub mod disasm;
pub mod loaded_descriptors;
pub mod parse;
pub mod preds;
pub mod stores;
pub mod witness;

use std::path::Path;
use std::time::Duration;

use serde::Serialize;
use thiserror::Error;

use crate::ptxas::{Ptxas, PtxasError};
pub use disasm::{DisasmError, Nvdisasm};
pub use parse::ParseError;
pub use witness::witnessed;

/// One instruction of a kernel that reads registers never written on some path to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unwritten {
    /// The kernel.
    pub kernel: String,
    /// The instruction's offset in the kernel.
    pub offset: u32,
    /// The instruction as nvdisasm prints it (`STG.E desc[UR6][R4.64], R2`).
    pub instruction: String,
    /// Its mnemonic with modifiers (`STG.E`).
    pub mnemonic: String,
    /// The registers it reads that were not written (`UR6`, `UR7`).
    pub registers: Vec<String>,
    /// What those registers are to the instruction ([`ROLES`], in that order): `guard` (its
    /// `@P`), `descriptor` (`desc[UR6]`), `address` (other registers in brackets), `source`.
    pub roles: Vec<&'static str>,
    /// Where the undefined bits it reads were made, when an earlier instruction made them
    /// from a never-written register ([`dataflow::UnwrittenRead::origin`]): `UPRMT UR5, UR7,
    /// 0x7610, UR5` with UR7 never written, whatever store reads the result later.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin: Option<Origin>,
    /// Whether every undefined bit it reads (or its origin read) is written under some guard or
    /// in an arm elsewhere in the kernel, the read's own lanes lacking it
    /// ([`dataflow::UnwrittenRead::partly_written`]): `@!P0 PRMT R0, R3, 0x7632, R0` and R0
    /// read on every lane. False where nothing ever writes those bits.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub partly_written: bool,
    /// Whether it reads nothing but the carry-in predicates of an extended-precision (`.X`)
    /// instruction, themselves ([`Unwritten::origin`] none) and never written anywhere
    /// ([`Unwritten::partly_written`] false) — `LEA.X R0, R0, 0xffffffff, 0x1, P0` with no
    /// instruction writing P0: the carry's producer was deleted, the consumer kept
    /// ([`reads_only_carry_ins`]). For a read keyed by an earlier one ([`Unwritten::keyed_by`]),
    /// that read's. Its finding's input class is then [`NEVER_WRITTEN_CARRY`].
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub carry_in: bool,
    /// The earlier read of the kernel that read every never-written register this one reads,
    /// both reading them themselves ([`key_reads`]): the finding's key is that read's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyed_by: Option<KeyRead>,
}

/// The read that keys the finding of later reads of the same never-written registers
/// ([`Unwritten::keyed_by`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KeyRead {
    /// Its offset in the kernel.
    pub offset: u32,
    /// Its mnemonic with modifiers (`CCTL.IVALL`).
    pub mnemonic: String,
    /// What the never-written registers are to it ([`ROLES`]).
    pub roles: Vec<&'static str>,
}

/// The input class of an `unwritten-register` finding whose reads are [`Unwritten::partly_written`]
/// (an entry of `corpus/known/` matches it with `input_class = "partly-written"`); the others
/// have none, so that their ids are those they had before the property existed.
pub const PARTLY_WRITTEN: &str = "partly-written";

/// The input class of an `unwritten-register` finding whose read is a never-written carry-in
/// predicate ([`Unwritten::carry_in`]; an entry matches it with
/// `input_class = "never-written-carry"`).
pub const NEVER_WRITTEN_CARRY: &str = "never-written-carry";

/// The instruction that first read a never-written register on the way to a flagged read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Origin {
    /// Its offset in the kernel.
    pub offset: u32,
    /// Its mnemonic with modifiers (`UPRMT`).
    pub mnemonic: String,
}

/// What a register can be to the instruction that reads it, in the order [`Unwritten::roles`]
/// lists them.
pub const ROLES: [&str; 4] = ["guard", "descriptor", "address", "source"];

impl Unwritten {
    /// The de-duplication key of the finding: the mnemonic of the reading instruction and the
    /// roles of what it reads unwritten (`STG.E descriptor`) — of the first read of the same
    /// never-written registers where this one is a later one ([`Unwritten::keyed_by`]).
    pub fn key(&self) -> String {
        format!("{} {}", self.key_mnemonic(), self.key_roles())
    }

    /// The mnemonic of the read that keys the finding (its own or [`Unwritten::keyed_by`]'s):
    /// the finding's form.
    pub fn key_mnemonic(&self) -> &str {
        self.keyed_by.as_ref().map_or(&self.mnemonic, |k| &k.mnemonic)
    }

    /// The roles of the read that keys the finding, joined by `+`: the finding's `how`.
    pub fn key_roles(&self) -> String {
        self.keyed_by.as_ref().map_or(&self.roles, |k| &k.roles).join("+")
    }

    /// The def-use chain of the finding, origin → reader (`UPRMT → STG.E.U8`), when an earlier
    /// instruction made the undefined bits it reads ([`Unwritten::origin`]); empty otherwise.
    /// It is the finding's shape: a `corpus/known/` entry can name the origin whatever reads it.
    pub fn shape(&self) -> String {
        self.origin.as_ref().map(|o| format!("{} → {}", o.mnemonic, self.mnemonic)).unwrap_or_default()
    }

    /// The input class of its finding: [`PARTLY_WRITTEN`] where the undefined bits it reads
    /// were written on some path or under some guard, [`NEVER_WRITTEN_CARRY`] where it reads
    /// only carry-in predicates nothing writes ([`Unwritten::carry_in`]), empty otherwise.
    pub fn input_class(&self) -> &'static str {
        if self.partly_written {
            PARTLY_WRITTEN
        } else if self.carry_in {
            NEVER_WRITTEN_CARRY
        } else {
            ""
        }
    }
}

/// What register `r`, read by `ins`, is to it (one of [`ROLES`]).
fn role(ins: &parse::Instr, r: parse::Reg) -> &'static str {
    if ins.guard.is_some_and(|g| g.pred == r) {
        "guard"
    } else if ins.operands.iter().any(|o| o.descriptor.contains(&r)) {
        "descriptor"
    } else if ins.operands.iter().any(|o| o.inner.contains(&r)) {
        "address"
    } else {
        "source"
    }
}

/// Whether `regs`, read by `ins`, are all carry-in predicates: `ins` is an extended-precision
/// instruction (a `.X` modifier: `IADD3.X`, `LEA.X`, `LEA.HI.X`, `IMAD.X`, `IMAD.U32.X`, …, which
/// add the carry of an earlier `IADD3 …, P0, …`) and each register is a predicate it reads as
/// a source, not its guard (§9.7.1 `addc`/`subc`: the carry-in `CC.CF`). `ISETP…EX` and `SEL`,
/// which read a predicate as a condition, are not extended-precision adds.
fn reads_only_carry_ins(ins: &parse::Instr, regs: &[parse::Reg]) -> bool {
    ins.mnemonic.split('.').skip(1).any(|m| m == "X")
        && !regs.is_empty()
        && regs.iter().all(|&r| matches!(r.file, parse::File::P | parse::File::Up) && role(ins, r) == "source")
}

/// The listing of one function of an `nvdisasm -c` listing: from its `.section .text.NAME`
/// line up to the next section, or `None` when the listing has no such function.
pub fn function_listing<'a>(listing: &'a str, name: &str) -> Option<&'a str> {
    let mut start = None;
    let mut at = 0;
    for line in listing.split_inclusive('\n') {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix(".section") {
            if start.is_some() {
                return start.map(|s| &listing[s..at]);
            }
            let section = rest.trim().split(',').next().unwrap_or("").trim().trim_matches('"');
            if section.strip_prefix(".text.") == Some(name) {
                start = Some(at);
            }
        }
        at += line.len();
    }
    start.map(|s| &listing[s..])
}

impl std::fmt::Display for Unwritten {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} /*{:04x}*/ {}  reads {} never written on some path",
            self.kernel,
            self.offset,
            self.instruction,
            self.registers.join(" ")
        )
    }
}

/// Errors of the check: a tool missing or failing, or a listing the parser cannot read.
#[derive(Debug, Error)]
pub enum SassError {
    /// nvdisasm is missing or failed.
    #[error(transparent)]
    Disasm(#[from] DisasmError),
    /// ptxas is missing or could not be run.
    #[error(transparent)]
    Ptxas(#[from] PtxasError),
    /// ptxas rejected the PTX: there is no SASS to check.
    #[error("ptxas -O{opt} rejected the PTX, so there is no SASS to check:\n{output}")]
    Rejected {
        /// The optimization level.
        opt: u8,
        /// What ptxas said.
        output: String,
    },
    /// The listing has a line the parser cannot read.
    #[error("reading nvdisasm's listing: {0}")]
    Parse(#[from] ParseError),
    /// A temporary file could not be written.
    #[error("temporary file for the cubin: {0}")]
    Io(#[from] std::io::Error),
}

/// Every read of a never-written register in the kernels of an `nvdisasm -c` listing, kernel by
/// kernel in listing order, instructions in address order.
pub fn check_listing(text: &str) -> Result<Vec<Unwritten>, ParseError> {
    Ok(check_functions(&parse::parse_listing(text)?))
}

/// [`check_listing`] on an already parsed listing.
pub fn check_functions(functions: &[parse::Function]) -> Vec<Unwritten> {
    let mut out = Vec::new();
    for f in functions.iter().filter(|f| f.entry) {
        for u in dataflow::unwritten_reads(f) {
            let ins = &f.instrs[u.instr];
            let roles = ROLES.into_iter().filter(|&k| u.regs.iter().any(|&r| role(ins, r) == k)).collect();
            let origin = u
                .origin
                .filter(|&k| k != u.instr)
                .map(|k| Origin { offset: f.instrs[k].offset, mnemonic: f.instrs[k].mnemonic.clone() });
            out.push(Unwritten {
                kernel: f.name.clone(),
                offset: ins.offset,
                instruction: ins.text.clone(),
                mnemonic: ins.mnemonic.clone(),
                registers: u.regs.iter().map(ToString::to_string).collect(),
                roles,
                carry_in: origin.is_none() && !u.partly_written && reads_only_carry_ins(ins, &u.regs),
                origin,
                partly_written: u.partly_written,
                keyed_by: None,
            });
        }
    }
    key_reads(&mut out);
    out
}

/// One never-written register, one finding: a read of a kernel (no origin: it reads the
/// never-written registers itself) whose registers an earlier such read of that kernel read as
/// well, with the same input class, is keyed by the earliest of them ([`Unwritten::keyed_by`]).
/// ptxas's if-conversion of an arm under a predicate nothing writes (a dropped `setp`) guards
/// every instruction of the arm by it — `@P0 CCTL.IVALL; @P0 LOP3.LUT R11, …` (seed 4603's
/// 607f088a, corpus/findings/fuzz-h200-4603/trace/T17t5.md), `@!P2 CCTL.IVALL; @!P2 PRMT R4, …`
/// (seed 4503's 0ee96c9e) — and each reader was a finding of its own, keyed by whatever
/// instruction the arm held. A keyed read takes its key read's [`Unwritten::carry_in`] too (one
/// finding, one input class). `reads` is in kernel and address order.
fn key_reads(reads: &mut [Unwritten]) {
    for i in 0..reads.len() {
        if reads[i].origin.is_some() {
            continue;
        }
        let first = reads[..i].iter().find(|e| {
            e.kernel == reads[i].kernel
                && e.origin.is_none()
                && e.partly_written == reads[i].partly_written
                && reads[i].registers.iter().all(|r| e.registers.contains(r))
        });
        let keyed_by = first.map(|e| {
            let key = e.keyed_by.clone().unwrap_or_else(|| KeyRead {
                offset: e.offset,
                mnemonic: e.mnemonic.clone(),
                roles: e.roles.clone(),
            });
            (key, e.carry_in)
        });
        if let Some((key, carry_in)) = keyed_by {
            reads[i].keyed_by = Some(key);
            reads[i].carry_in = carry_in;
        }
    }
}

/// A module's listing as [`Checker::disassemble_parsed`] gives it.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// nvdisasm's listing.
    pub listing: String,
    /// Its functions.
    pub functions: Vec<parse::Function>,
    /// The wall time of the second nvdisasm run, where the first listing lacked a jump table's
    /// targets ([`disasm::lacks_branch_targets`]).
    pub again: Option<Duration>,
}

/// The tools of the check.
#[derive(Clone, Debug)]
pub struct Checker {
    /// The disassembler.
    pub nvdisasm: Nvdisasm,
    /// The time limit of each nvdisasm run.
    pub timeout: Duration,
}

impl Checker {
    /// A checker with the nvdisasm found ([`Nvdisasm::find`]) and the default time limit.
    pub fn find() -> Result<Checker, DisasmError> {
        Ok(Checker { nvdisasm: Nvdisasm::find()?, timeout: disasm::DEFAULT_TIMEOUT })
    }

    /// Disassembles `cubin` and checks every kernel in it: the listing and what it flags.
    pub fn check_cubin(&self, cubin: &Path) -> Result<(String, Vec<Unwritten>), SassError> {
        let listing = self.nvdisasm.disassemble(cubin, self.timeout)?;
        let found = check_listing(&listing)?;
        Ok((listing, found))
    }

    /// Disassembles `cubin` and parses the listing, for [`check_functions`] and
    /// [`coverage::kernels`] to share: the listing, its functions and the wall time of
    /// nvdisasm's second run where the listing was made again without `-ndf`
    /// ([`Nvdisasm::disassemble_measured`]).
    pub fn disassemble_parsed(&self, cubin: &Path) -> Result<Parsed, SassError> {
        let (listing, again) = self.nvdisasm.disassemble_measured(cubin, self.timeout)?;
        let functions = parse::parse_listing(&listing)?;
        Ok(Parsed { listing, functions, again })
    }

    /// Assembles `ptx` with `ptxas` for `arch` at `-O{opt}`, then [`Checker::check_cubin`].
    pub fn check_ptx(
        &self,
        ptxas: &Ptxas,
        ptx: &str,
        arch: &str,
        opt: u8,
    ) -> Result<(String, Vec<Unwritten>), SassError> {
        let dir = tempfile::tempdir()?;
        let cubin = dir.path().join("check.cubin");
        let asm = ptxas.assemble(ptx, arch, opt, Some(&cubin))?;
        if !asm.ok {
            return Err(SassError::Rejected { opt, output: asm.output.trim().to_string() });
        }
        self.check_cubin(&cubin)
    }
}

/// Listings for tests.
#[cfg(test)]
pub(crate) mod fixtures {
    /// The instructions of ptxas 13.5.37 -O3 of `corpus/findings/createpolicy-dropped-store-policy`:
    /// the hinted store at 0x00f0 reads its descriptor UR6:UR7, which nothing writes.
    pub const CREATEPOLICY_O3: &str = "/*0000*/ LDC R1, c[0x0][0x28] ;\n/*0010*/ S2R R9, SR_TID.X ;\n\
            /*0020*/ LDC.64 R2, c[0x0][0x210] ;\n/*0030*/ ULDC.64 UR4, c[0x0][0x208] ;\n\
            /*0040*/ LDC.64 R4, c[0x0][0x218] ;\n/*0050*/ IMAD.WIDE.U32 R2, R9, 0x20, R2 ;\n\
            /*0060*/ LDG.E.64 R2, desc[UR4][R2.64+0x18] ;\n/*0070*/ S2UR UR5, SR_CgaCtaId ;\n\
            /*0080*/ UMOV UR4, 0x400 ;\n/*0090*/ IMAD.WIDE.U32 R4, R9, 0x10, R4 ;\n\
            /*00a0*/ ULEA UR4, UR5, UR4, 0x18 ;\n/*00b0*/ LEA R7, R9, UR4, 0x4 ;\n\
            /*00c0*/ STS.64 [R7+0x8], R2 ;\n/*00d0*/ NOP ;\n/*00e0*/ CCTL.IVALL ;\n\
            /*00f0*/ STG.E desc[UR6][R4.64], R2 ;\n/*0100*/ EXIT ;\n.L_x_0:\n/*0110*/ BRA `(.L_x_0);\n";

    /// An `nvdisasm -c` listing of one kernel `name` with the instruction lines `body`.
    pub fn kernel(name: &str, body: &str) -> String {
        format!(
            ".section .text.{name},\"ax\",@progbits\n.other {name},@\"STO_CUDA_ENTRY STV_DEFAULT\"\n{name}:\n{body}"
        )
    }
}

#[cfg(test)]
mod carry_in_tests;
#[cfg(test)]
mod keyed_reads_tests;
#[cfg(test)]
mod partly_self_tests;
#[cfg(test)]
mod partly_written_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_kernels_are_checked_and_findings_name_their_instruction() {
        let kernel = ".section .text.k,\"ax\",@progbits\n.other k,@\"STO_CUDA_ENTRY STV_DEFAULT\"\nk:\n\
            /*0000*/ STG.E desc[UR6][R4.64], RZ ;\n/*0010*/ EXIT ;\n";
        let device = ".section .text.f,\"ax\",@progbits\n.other f,@\"STV_DEFAULT\"\nf:\n\
            /*0000*/ MOV R2, R4 ;\n/*0010*/ RET.REL.NODEC R20 `(f) ;\n";
        let found = check_listing(&format!("{kernel}{device}")).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        let u = &found[0];
        assert_eq!(
            (u.kernel.as_str(), u.key(), u.registers.join(" ")),
            ("k", "STG.E descriptor+address".into(), "UR6 UR7 R4 R5".into())
        );
        assert_eq!(
            u.to_string(),
            "k /*0000*/ STG.E desc[UR6][R4.64], RZ  reads UR6 UR7 R4 R5 never written on some path"
        );
        let guarded = ".section .text.k,\"ax\",@progbits\n.other k,@\"STO_CUDA_ENTRY STV_DEFAULT\"\nk:\n\
            /*0000*/ @P0 CCTL.IVALL ;\n/*0010*/ MOV R2, R3 ;\n/*0020*/ STS [RZ], R2 ;\n";
        let keys: Vec<String> = check_listing(guarded).unwrap().iter().map(Unwritten::key).collect();
        assert_eq!(keys, ["CCTL.IVALL guard", "STS source"]);
    }

    #[test]
    fn a_function_listing_runs_to_the_next_section() {
        let text = "\t.section\t.text.a,\"ax\",@progbits\na:\n/*0000*/ EXIT ;\n\
            \t.section\t.text.ab,\"ax\",@progbits\nab:\n/*0000*/ NOP ;\n";
        assert_eq!(function_listing(text, "a"), Some("\t.section\t.text.a,\"ax\",@progbits\na:\n/*0000*/ EXIT ;\n"));
        assert!(function_listing(text, "ab").is_some_and(|l| l.ends_with("NOP ;\n") && !l.contains("EXIT")));
        assert_eq!(function_listing(text, "b"), None);
    }
}
