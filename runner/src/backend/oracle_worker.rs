//! `oracle-worker`: the oracle behind the worker process protocol (`ptxdiff worker
//! --oracle`), with its own identity on the wire ([`Executor::Oracle`]). A second opinion
//! that needs no GPU: CI exercises the supervisor (restarts, timeouts) with it, and the
//! planted-bug test compares it with a deliberately wrong in-process oracle. It honours the
//! run's allowances, which travel with every job.

use std::time::{Duration, Instant};

use oracle::semantics::Allowances;

use super::{
    program_outcome, sweep_job, sweep_outcome, Backend, Context, Failed, Kind, Need, ProgramBatch, Role, SweepResult,
    SweepSpec, WorkerSlot,
};
use crate::conform::segments;
use crate::worker::{Executor, ProgramJob, WorkerKind};

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
        specs
            .iter()
            .filter_map(|s| {
                let k = generator::sweep::sweep_kernel(&s.form, &s.target).ok()?;
                let segs = segments(k.scheme, s.exhaustive, s.samples);
                let t = Instant::now();
                let job = sweep_job(self.slot.next_id(), s, segs.clone(), Executor::Oracle, &self.allow);
                let outcome = sweep_outcome(self.slot.sweep(&job, self.timeout));
                tick(segs.iter().map(|x| x.1).sum());
                Some(SweepResult {
                    backend: NAME.into(),
                    form: s.form.opcode(),
                    outcome,
                    seconds: t.elapsed().as_secs_f64(),
                })
            })
            .collect()
    }

    fn run_programs(&mut self, batch: &ProgramBatch) -> Result<Vec<Vec<u32>>, Failed> {
        let job = ProgramJob {
            id: self.slot.next_id(),
            executor: Executor::Oracle,
            ptx: batch.ptx.clone(),
            cubin: None,
            kernels: batch.kernels.clone(),
            allow: self.allow.clone(),
        };
        match self.slot.programs(&job, batch.timeout) {
            Ok(outcome) => program_outcome(NAME, outcome),
            Err(why) => Err(Failed::Environment(why)),
        }
    }
}
