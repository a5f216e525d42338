//! `oracle`: the oracle in this process. For fuzz batches it is the reference every other
//! result is compared with (the campaign evaluates it while preparing a batch, so it is never
//! asked to run one); for conformance sweeps it checks the oracle's own expected results,
//! encoded as a backend would return them, over at most [`ORACLE_SAMPLES`] inputs per form
//! spread over the domain, which exercises the fast kernels against the full semantics.

use std::time::Instant;

use generator::sweep::sweep_kernel;
use oracle::semantics::Allowances;

use super::{
    segments, Backend, BackendKind, Context, Failed, Kind, Need, ProgramBatch, Role, SweepFailure, SweepResult,
    SweepSpec,
};
use crate::failure::{BackendFailure, FailureKind};
use crate::worker::{oracle_outputs, oracle_sweep};

/// The backend's name.
pub const NAME: &str = "oracle";

/// Inputs per form for conformance sweeps: enough to exercise every rule on every
/// sign/exponent slice (256 slices × 256 values), small enough that a whole run without a GPU
/// takes about a minute on two cores.
pub const ORACLE_SAMPLES: u64 = 1 << 16;

/// The registry's entry.
pub const KIND: Kind = Kind {
    kind: BackendKind::Oracle,
    names: |_| vec![NAME.to_string()],
    build: |name, ctx: &Context| {
        (name == NAME).then(|| Ok(Box::new(Oracle { allow: ctx.settings.allow.clone() }) as Box<dyn Backend>))
    },
};

/// The in-process oracle.
pub struct Oracle {
    allow: Allowances,
}

impl Backend for Oracle {
    fn name(&self) -> String {
        NAME.into()
    }

    fn kind(&self) -> BackendKind {
        BackendKind::Oracle
    }

    fn needs(&self) -> Vec<Need> {
        Vec::new()
    }

    fn role(&self) -> Role {
        Role::Reference
    }

    fn sweep(&mut self, specs: &[SweepSpec], tick: &(dyn Fn(u64) + Sync)) -> Vec<SweepResult> {
        let allow = &self.allow;
        specs
            .iter()
            .filter_map(|s| {
                let k = sweep_kernel(&s.form, &s.target).ok()?;
                let t = Instant::now();
                let segs = segments(k.scheme, false, s.samples.min(ORACLE_SAMPLES));
                let outcome = oracle_sweep(&s.form, &k, &segs, allow)
                    .map_err(|why| SweepFailure::Row(BackendFailure::new(FailureKind::Other, why)));
                tick(segs.iter().map(|x| x.1).sum());
                Some(SweepResult {
                    backend: NAME.into(),
                    form: s.form.opcode(),
                    outcome,
                    seconds: t.elapsed().as_secs_f64(),
                    device: None,
                    stages: None,
                })
            })
            .collect()
    }

    fn run_programs(&mut self, batch: &ProgramBatch) -> Result<Vec<Vec<u32>>, Failed> {
        oracle_outputs(&batch.ptx, &batch.kernels, &self.allow).map_err(Failed::Environment)
    }
}
