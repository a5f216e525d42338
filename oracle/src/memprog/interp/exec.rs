//! Statement dispatch: a statement is glue or one PTX instruction, checked to be a legal form
//! valid on the program's target, then handed to the function of its instruction family
//! (`values.rs`, `cp_async.rs`, `bulk.rs`, `mbarrier.rs`, `tensor.rs`, `tensormap.rs`
//! (with `tensormap.cp_fenceproxy`), `fence.rs`).
//!
//! Invariant: a form no family models is [`MemError::Unsupported`] naming its opcode and PTX ISA
//! section ([`unsupported`]), never ignored.

use super::Machine;
use crate::isa::operand::Operand;
use crate::isa::Form;
use crate::memprog::{MemError, Stmt, StmtKind};

impl Machine<'_> {
    pub(super) fn exec(&mut self, t: u32, s: &Stmt) -> Result<(), MemError> {
        match &s.kind {
            StmtKind::Glue(g) => self.glue(t, g),
            StmtKind::Isa(inst) => {
                let req = inst.form.check().map_err(|e| MemError::Parse(format!("not a legal form: {}", e.0)))?;
                req.check(&self.p.target)
                    .map_err(|e| MemError::Parse(format!("not valid on {}: {e}", self.p.target.name())))?;
                self.isa(t, &inst.form, &inst.operands)
            }
            StmtKind::Label(_)
            | StmtKind::Bra(_)
            | StmtKind::Bar
            | StmtKind::ClusterArrive { .. }
            | StmtKind::ClusterWait => Ok(()),
        }
    }

    /// One instruction, by its family.
    fn isa(&mut self, t: u32, form: &Form, ops: &[Operand]) -> Result<(), MemError> {
        match form {
            Form::Mov(_)
            | Form::Mapa(_)
            | Form::Getctarank(_)
            | Form::Cvta(_)
            | Form::Ld(_)
            | Form::St(_)
            | Form::Createpolicy(_) => self.data_movement(t, form, ops),
            Form::Cvt(_) | Form::CvtPack(_) | Form::Prmt(_) => self.value_instruction(t, form, ops),
            Form::CpAsync(_)
            | Form::CpAsyncCommitGroup(_)
            | Form::CpAsyncWaitGroup(_)
            | Form::CpAsyncWaitAll(_)
            | Form::CpAsyncMbarrierArrive(_) => self.cp_async(t, form, ops),
            Form::CpAsyncBulk(_)
            | Form::CpReduceAsyncBulk(_)
            | Form::CpAsyncBulkPrefetch(_)
            | Form::CpAsyncBulkCommitGroup(_)
            | Form::CpAsyncBulkWaitGroup(_)
            | Form::StAsync(_) => self.bulk(t, form, ops),
            Form::Mbarrier(mb) => self.mbarrier(t, mb, ops),
            Form::CpAsyncBulkTensor(c) => self.tensor_copy(t, c, ops),
            Form::CpReduceAsyncBulkTensor(c) => self.tensor_reduce(t, c, ops),
            Form::CpAsyncBulkPrefetchTensor(_) => {
                // No memory effect; the map and coordinates must still name a tile.
                self.tensor_ref(t, &ops[0]).map(|_| ())
            }
            Form::Fence(f) => self.fence(t, f, ops),
            Form::TensormapReplace(r) => self.tensormap_replace(t, r, ops),
            Form::TensormapCpFenceproxy(_) => self.tensormap_cp_fenceproxy(t, ops),
            f => Err(unsupported(f)),
        }
    }
}

/// The error for a form no instruction family models: its opcode and PTX ISA section.
pub(super) fn unsupported(f: &Form) -> MemError {
    MemError::Unsupported(format!("`{}` (§{})", f.opcode(), f.family().section()))
}
