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
//! caller's. A finding is de-duplicated by [`Unwritten::key`], the mnemonic of the instruction
//! that reads (`STG.E`).

pub mod dataflow;
pub mod disasm;
pub mod parse;
pub mod preds;

use std::path::Path;
use std::time::Duration;

use serde::Serialize;
use thiserror::Error;

use crate::ptxas::{Ptxas, PtxasError};
pub use disasm::{DisasmError, Nvdisasm};
pub use parse::ParseError;

/// One instruction of a kernel that reads registers never written on some path to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unwritten {
    /// The kernel.
    pub kernel: String,
    /// The instruction's offset in the kernel.
    pub offset: u32,
    /// The instruction as nvdisasm prints it (`STG.E desc[UR6][R4.64], R2`).
    pub instruction: String,
    /// Its mnemonic with modifiers (`STG.E`): the de-duplication key.
    pub mnemonic: String,
    /// The registers it reads that were not written (`UR6`, `UR7`).
    pub registers: Vec<String>,
}

impl Unwritten {
    /// The de-duplication key of the finding: the mnemonic of the reading instruction.
    pub fn key(&self) -> &str {
        &self.mnemonic
    }
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
    let mut out = Vec::new();
    for f in parse::parse_listing(text)?.iter().filter(|f| f.entry) {
        for u in dataflow::unwritten_reads(f) {
            let ins = &f.instrs[u.instr];
            out.push(Unwritten {
                kernel: f.name.clone(),
                offset: ins.offset,
                instruction: ins.text.clone(),
                mnemonic: ins.mnemonic.clone(),
                registers: u.regs.iter().map(ToString::to_string).collect(),
            });
        }
    }
    Ok(out)
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
        assert_eq!((u.kernel.as_str(), u.key(), u.registers.join(" ")), ("k", "STG.E", "UR6 UR7 R4 R5".into()));
        assert_eq!(
            u.to_string(),
            "k /*0000*/ STG.E desc[UR6][R4.64], RZ  reads UR6 UR7 R4 R5 never written on some path"
        );
    }
}
