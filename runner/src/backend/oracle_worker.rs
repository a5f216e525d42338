//! `oracle-worker`: the oracle behind the worker process protocol (`ptxdiff worker
//! --oracle`), with its own identity on the wire ([`Executor::Oracle`]). A second opinion
//! that needs no GPU: CI exercises the supervisor (restarts, timeouts) with it, and the
//! planted-bug test compares it with a deliberately wrong in-process oracle. It honours the
//! run's allowances, which travel with every job. It runs in a [`Pool`] of `--workers` worker
//! processes (default: the command's `--workers` default, one where it has none), the same pool the GPU backends use, so CI tests how sweeps and
//! batches are spread and merged without a GPU.

use std::time::Duration;

use oracle::semantics::Allowances;

use super::pool::Pool;
use super::{Backend, BackendKind, Context, Failed, Kind, Need, ProgramBatch, Role, SweepResult, SweepSpec};
use crate::worker::Executor;

/// The backend's name.
pub const NAME: &str = "oracle-worker";

/// The registry's entry.
pub const KIND: Kind = Kind {
    kind: BackendKind::OracleWorker,
    names: |_| vec![NAME.to_string()],
    build: |name, ctx: &Context| {
        (name == NAME).then(|| {
            let workers = ctx.settings.workers.unwrap_or(1);
            let pool = ctx.exe().and_then(|exe| Pool::start_oracle(exe, workers))?;
            Ok(Box::new(OracleWorker { pool, allow: ctx.settings.allow.clone(), timeout: ctx.settings.sweep_timeout })
                as Box<dyn Backend>)
        })
    },
};

/// The oracle in worker processes.
pub struct OracleWorker {
    pool: Pool,
    allow: Allowances,
    timeout: Duration,
}

impl Backend for OracleWorker {
    fn name(&self) -> String {
        NAME.into()
    }

    fn kind(&self) -> BackendKind {
        BackendKind::OracleWorker
    }

    fn needs(&self) -> Vec<Need> {
        vec![Need::Worker]
    }

    fn role(&self) -> Role {
        Role::Runs
    }

    fn sweep(&mut self, specs: &[SweepSpec], tick: &(dyn Fn(u64) + Sync)) -> Vec<SweepResult> {
        self.pool.sweep_specs(NAME, &Executor::Oracle, &self.allow, self.timeout, specs, tick)
    }

    fn run_programs(&mut self, batch: &ProgramBatch) -> Result<Vec<Vec<u32>>, Failed> {
        // No builds: the batch carries no cubin, the worker's oracle reads the PTX.
        self.pool.run_batch(NAME, Executor::Oracle, &self.allow, batch)
    }
}
