//! Planted compiler bugs of the oracle worker (`test-hooks` builds only), for the campaign's
//! tests of triage without a GPU: the environment variable [`ENV`] of the `ptxdiff` process
//! (its workers inherit it) lists, comma-separated, what the worker's oracle does wrong:
//! - the name of a register-program emulation ([`Deviation::name`]): the worker's oracle
//!   emulates it, as a compiler with that known root cause would compile the program (a
//!   set-valued emulation gives the one value it names);
//! - `xor-as-or`: `xor` computes `or` ([`Plant::XorAsOr`]), a bug no emulation explains;
//! - `mul-hi-as-lo`: `mul.hi` computes `mul.lo` ([`Plant::MulHiAsLo`]), one that programs
//!   generated without the `glue_mul` group reach only as mutants;
//! - `flaky`: in a job of two kernels or more, word 0 of thread 0 of the first kernel is XORed
//!   with a count of the jobs this worker ran (so it changes from run to run), and a kernel run
//!   alone is right: what a register nothing wrote gives in a campaign's batch.
//!
//! Invariant: without [`ENV`] (every real run, and every build without `test-hooks`) the
//! oracle worker is the oracle.

use std::sync::atomic::{AtomicU32, Ordering};

use oracle::program::interp::{self, InterpError, Plant, RunOptions};
use oracle::program::{Inputs, Program};
use oracle::semantics::{Allowances, Deviation, DeviationScope, Expected};

/// The environment variable that plants bugs.
pub const ENV: &str = "PTXDIFF_PLANT_WORKER";

/// Jobs run by this worker with `flaky` planted.
static FLAKY_JOBS: AtomicU32 = AtomicU32::new(0);

/// What [`ENV`] plants.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WorkerPlant {
    /// Emulations the worker's oracle applies.
    pub emulate: Vec<Deviation>,
    /// A wrong glue rule.
    pub plant: Option<Plant>,
    /// Whether words of batches change from run to run.
    pub flaky: bool,
}

impl WorkerPlant {
    /// Parses a list as [`ENV`] gives it.
    pub fn parse(text: &str) -> Result<WorkerPlant, String> {
        let mut w = WorkerPlant::default();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match item {
                "xor-as-or" => w.plant = Some(Plant::XorAsOr),
                "mul-hi-as-lo" => w.plant = Some(Plant::MulHiAsLo),
                "flaky" => w.flaky = true,
                name => match Deviation::from_name(name).filter(|d| d.scope() == DeviationScope::Program) {
                    Some(d) => w.emulate.push(d),
                    None => {
                        return Err(format!(
                            "{ENV}: unknown planted bug `{name}` (xor-as-or, mul-hi-as-lo, flaky, or an emulation)"
                        ))
                    }
                },
            }
        }
        Ok(w)
    }

    /// What [`ENV`] plants in this process (`None` when it is not set).
    pub fn from_env() -> Result<Option<WorkerPlant>, String> {
        std::env::var(ENV).ok().map(|v| WorkerPlant::parse(&v)).transpose()
    }

    /// The outputs of one kernel with the planted emulations and glue rule.
    pub fn run(&self, p: &Program, inputs: &Inputs, allow: &Allowances) -> Result<Vec<Expected>, InterpError> {
        let allow = allow.clone().emulating_all(self.emulate.iter().copied());
        let opts = RunOptions { plant: self.plant, ..RunOptions::default() };
        interp::run_with(p, inputs, &allow, opts).map(|(o, _)| o)
    }

    /// Makes the outputs of a job (one word list per kernel) flaky when planted: in a job of two
    /// kernels or more, word 0 of the first kernel changes with every job.
    pub fn perturb(&self, outputs: &mut [Vec<u32>]) {
        if self.flaky && outputs.len() > 1 {
            let n = FLAKY_JOBS.fetch_add(1, Ordering::Relaxed);
            if let Some(w) = outputs.first_mut().and_then(|k| k.first_mut()) {
                *w ^= 0x100 + n;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plants_parse_and_refuse_unknown_names() {
        let w = WorkerPlant::parse("cvt-s64-u32-sign-extends, xor-as-or,flaky").unwrap();
        assert_eq!(w.emulate, vec![Deviation::CvtS64U32SignExtends]);
        assert_eq!((w.plant, w.flaky), (Some(Plant::XorAsOr), true));
        let e = WorkerPlant::parse("reduce-add-f32-keeps-subnormals").unwrap_err();
        assert!(e.contains(ENV) && e.contains("reduce-add-f32-keeps-subnormals"), "{e}");
        assert!(WorkerPlant::parse("bogus").is_err());
        assert_eq!(WorkerPlant::parse("").unwrap(), WorkerPlant::default());
    }
}
