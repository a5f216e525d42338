//! `ptxas-check` (`ptxas-check-13.0` for a `--ptxas` version): assembles, runs nothing. For
//! targets without hardware: every sweep kernel, and every fuzz batch, must assemble at each
//! optimization level the GPU backends offer ([`super::cuda::LEVELS`]); a rejection or a crash
//! of the assembler is a failure worth a finding. Its rows are named
//! `ptxas-check-O0`, `ptxas-check-13.0-O3`, ….

use std::time::Instant;

use crate::diff::{BackendFailure, FailureKind};
use generator::sweep::sweep_kernel;
use rayon::prelude::*;

use super::cuda::LEVELS;
use super::{
    label_suffix, Backend, BackendKind, Build, Context, Failed, Kind, Need, ProgramBatch, Role, SweepFailure,
    SweepResult, SweepSpec,
};
use crate::ptxas::Ptxas;

/// The start of every name of this kind.
pub const NAME: &str = "ptxas-check";

/// The backend's name for the ptxas labelled `label`.
pub fn name(label: Option<&str>) -> String {
    format!("{NAME}{}", label_suffix(label))
}

/// The registry's entry.
pub const KIND: Kind = Kind {
    kind: BackendKind::PtxasCheck,
    names: |ctx| ctx.ptxas_labels().iter().map(|l| name(l.as_deref())).collect(),
    build: |n, ctx: &Context| {
        let label = ctx.ptxas_labels().into_iter().find(|l| name(l.as_deref()) == n)?;
        Some(ctx.ptxas(label.as_deref()).map(|ptxas| Box::new(PtxasCheck { label, ptxas }) as Box<dyn Backend>))
    },
};

/// Assemble-only checking with one ptxas.
pub struct PtxasCheck {
    label: Option<String>,
    ptxas: Ptxas,
}

impl Backend for PtxasCheck {
    fn name(&self) -> String {
        name(self.label.as_deref())
    }

    fn kind(&self) -> BackendKind {
        BackendKind::PtxasCheck
    }

    fn needs(&self) -> Vec<Need> {
        vec![Need::Ptxas(self.label.clone())]
    }

    fn role(&self) -> Role {
        Role::CompileOnly
    }

    fn builds(&self) -> Vec<Build> {
        LEVELS.iter().map(|&opt| Build { label: self.label.clone(), ptxas: self.ptxas.clone(), opt }).collect()
    }

    fn environment(&self) -> Vec<(String, String)> {
        vec![(format!("ptxas{}", label_suffix(self.label.as_deref())), self.ptxas.version.clone())]
    }

    fn sweep(&mut self, specs: &[SweepSpec], tick: &(dyn Fn(u64) + Sync)) -> Vec<SweepResult> {
        let work: Vec<(&SweepSpec, u8)> = specs.iter().flat_map(|s| LEVELS.map(|opt| (s, opt))).collect();
        let row = |opt: u8| format!("ptxas-check{}-O{opt}", label_suffix(self.label.as_deref()));
        work.into_par_iter()
            .map(|(s, opt)| {
                let t = Instant::now();
                let failure = match sweep_kernel(&s.form, &s.target) {
                    Err(e) => Some(BackendFailure::new(FailureKind::Other, e.to_string())),
                    Ok(k) => match self.ptxas.assemble(&k.ptx, &s.target.name(), opt, None) {
                        Ok(a) if a.ok => None,
                        Ok(a) if a.crashed => {
                            Some(BackendFailure::new(FailureKind::Crash, format!("ptxas crashed: {}", a.output.trim())))
                        }
                        Ok(a) => {
                            Some(BackendFailure::new(FailureKind::Rejected, format!("ptxas: {}", a.output.trim())))
                        }
                        Err(e) => Some(BackendFailure::new(FailureKind::Environment, e.to_string())),
                    },
                };
                tick(1);
                SweepResult {
                    backend: row(opt),
                    form: s.form.opcode(),
                    outcome: match failure {
                        None => Ok(Default::default()),
                        Some(f) => Err(SweepFailure::Row(f)),
                    },
                    seconds: t.elapsed().as_secs_f64(),
                    device: None,
                    stages: None,
                }
            })
            .collect()
    }

    fn run_programs(&mut self, _batch: &ProgramBatch) -> Result<Vec<Vec<u32>>, Failed> {
        Err(Failed::Environment(format!("{} assembles only; it runs no programs", self.name())))
    }
}
