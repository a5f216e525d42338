//! `oracle-worker`: the oracle behind the worker process protocol (`ptxdiff worker
//! --oracle`), with its own identity on the wire ([`Executor::Oracle`]). A second opinion
//! that needs no GPU: CI exercises the supervisor (restarts, timeouts) with it, and the
//! planted-bug test compares it with a deliberately wrong in-process oracle. It honours the
//! run's allowances, which travel with every job.

use std::time::Duration;

use oracle::semantics::Allowances;

use super::{Backend, Context, Failed, Kind, Need, ProgramBatch, Role, SweepResult, SweepSpec, WorkerSlot};
use crate::worker::{Executor, WorkerKind};

/// The backend's name.
pub const NAME: &str = "oracle-worker";

/// The registry's entry.
pub const KIND: Kind = Kind {
    names: |_| vec![NAME.to_string()],
    build: |name, ctx: &Context| {
        (name == NAME).then(|| {
            let slot = ctx.exe().and_then(|exe| WorkerSlot::start(exe, WorkerKind::Oracle))?;
            Ok(Box::new(OracleWorker { slot, allow: ctx.settings.allow.clone(), timeout: ctx.settings.sweep_timeout })
                as Box<dyn Backend>)
        })
    },
};

/// The oracle in a worker process.
pub struct OracleWorker {
    slot: WorkerSlot,
    allow: Allowances,
    timeout: Duration,
}

impl Backend for OracleWorker {
    fn name(&self) -> String {
        NAME.into()
    }

    fn needs(&self) -> Vec<Need> {
        vec![Need::Worker]
    }

    fn role(&self) -> Role {
        Role::Runs
    }

    fn sweep(&mut self, specs: &[SweepSpec], tick: &(dyn Fn(u64) + Sync)) -> Vec<SweepResult> {
        self.slot.sweep_specs(NAME, &Executor::Oracle, &self.allow, self.timeout, specs, tick)
    }

    fn run_programs(&mut self, batch: &ProgramBatch) -> Result<Vec<Vec<u32>>, Failed> {
        // No builds: the batch carries no cubin, the worker's oracle reads the PTX.
        self.slot.run_batch(NAME, Executor::Oracle, &self.allow, batch)
    }
}
