//! `ptxdiff conform`: conformance sweeps of every sweepable form (cvt, cvt.pack, prmt) valid on
//! a target, against the oracle.
//!
//! With a GPU: each (form, backend) runs as a [`Job`] in the worker process (crash isolated);
//! forms whose sources fit in 32 bits are swept over every input, the rest over `--samples`
//! mixed inputs. Without a GPU: the `ptxas-check` backend assembles every sweep kernel at -O0
//! and -O3 for the target, and the `oracle` backend evaluates every form on the sweep's
//! inputs (up to `--samples`) through the checker, fast kernels cross-checked against the full
//! semantics. The run says which backends were unavailable and why.

pub mod check;
pub mod report;

use std::time::{Duration, Instant};

use generator::sweep::{sweep_kernel, Scheme};
use indicatif::{ProgressBar, ProgressStyle};
use oracle::isa::{Family, Form, Target};
use oracle::semantics::Allowances;
use rayon::prelude::*;

use crate::ptxas::Ptxas;
use crate::worker::{GpuBackend, Job, Outcome, WorkerHandle};
use check::Checker;
use report::{Report, Row};

/// Options of one run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Target, or `None` for the GPU's own (sm_90 without a GPU).
    pub target: Option<Target>,
    /// Only opcodes matching this glob (`*` wildcards).
    pub forms: Option<String>,
    /// Sweep ≤32-bit domains completely (otherwise they are sampled too).
    pub exhaustive: bool,
    /// Inputs per sampled form.
    pub samples: u64,
    /// GPU backends to run.
    pub backends: Vec<GpuBackend>,
    /// Allowances switched off.
    pub allow_off: Vec<String>,
    /// Seconds before a job counts as hung.
    pub timeout: Duration,
}

/// One form of a run: the form, its number of inputs and its index ranges.
type Planned = (Form, u64, Vec<(u64, u64)>);

/// Families `conform` sweeps.
pub const FAMILIES: [Family; 3] = [Family::Cvt, Family::CvtPack, Family::Prmt];

/// Whether `text` matches `glob` (`*` matches any run of characters).
pub fn glob_match(glob: &str, text: &str) -> bool {
    let parts: Vec<&str> = glob.split('*').collect();
    if parts.len() == 1 {
        return glob == text;
    }
    let mut rest = text;
    for (k, p) in parts.iter().enumerate() {
        if k == 0 {
            match rest.strip_prefix(p) {
                Some(r) => rest = r,
                None => return false,
            }
        } else if k == parts.len() - 1 {
            return rest.ends_with(p);
        } else {
            match rest.find(p) {
                Some(i) => rest = &rest[i + p.len()..],
                None => return false,
            }
        }
    }
    true
}

/// The forms of a run, in a stable order.
pub fn select_forms(target: &Target, glob: Option<&str>) -> Vec<Form> {
    FAMILIES
        .iter()
        .flat_map(|f| oracle::isa::valid_forms(target, Some(*f)))
        .map(|(f, _)| f)
        .filter(|f| glob.is_none_or(|g| glob_match(g, &f.opcode())))
        .collect()
}

fn inputs_for(scheme: Scheme, o: &Options) -> u64 {
    segments(scheme, o).iter().map(|s| s.1).sum()
}

/// Slices of a sampled exhaustive-scheme domain: spread evenly so that every sign and
/// exponent range is sampled, not just the smallest indices.
const SPREAD: u64 = 256;

/// The index ranges a form's sweep covers.
pub fn segments(scheme: Scheme, o: &Options) -> Vec<(u64, u64)> {
    match scheme {
        Scheme::Exhaustive { bits } if o.exhaustive || (1u64 << bits) <= o.samples => vec![(0, 1u64 << bits)],
        Scheme::Exhaustive { bits } => {
            let domain = 1u64 << bits;
            let per = (o.samples / SPREAD).max(1);
            (0..SPREAD).map(|k| (k * (domain / SPREAD), per)).collect()
        }
        Scheme::Sampled => vec![(0, o.samples)],
    }
}

fn bar(total: u64) -> ProgressBar {
    let pb = ProgressBar::new(total);
    pb.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {human_pos}/{human_len} inputs  {per_sec}  ETA {eta}  {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    pb
}

/// Runs the sweeps; `run_id` names the report.
pub fn run(o: &Options, run_id: &str) -> Report {
    let start = Instant::now();
    let mut env = Vec::new();
    let worker = if o.backends.is_empty() { Err("no GPU backend selected".to_string()) } else { WorkerHandle::spawn() };
    let target = o.target.unwrap_or_else(|| {
        let sm = worker.as_ref().map_or(90, |w| w.sm);
        format!("sm_{sm}").parse().unwrap_or_else(|_| "sm_90".parse().expect("sm_90 is known"))
    });
    let forms = select_forms(&target, o.forms.as_deref());
    let mut rows = Vec::new();
    match worker {
        Ok(mut w) => {
            env.push(("device".into(), w.device.clone()));
            env.push(("driver".into(), format!("{}.{}", w.driver / 1000, (w.driver % 1000) / 10)));
            if let Ok(p) = Ptxas::find() {
                env.push(("ptxas".into(), p.version));
            }
            let plan: Vec<Planned> = forms
                .iter()
                .filter_map(|f| {
                    sweep_kernel(f, &target).ok().map(|k| (f.clone(), inputs_for(k.scheme, o), segments(k.scheme, o)))
                })
                .collect();
            let total: u64 = plan.iter().map(|(_, n, _)| n).sum::<u64>() * o.backends.len() as u64;
            let pb = bar(total);
            let mut id = 0;
            for (form, n, segs) in &plan {
                for &backend in &o.backends {
                    id += 1;
                    pb.set_message(format!("{} {}", backend.name(), form.opcode()));
                    let job = Job {
                        id,
                        form: form.opcode(),
                        target: format!("{}@{}", target.name(), target.ptx),
                        backend,
                        segments: segs.clone(),
                        allow_off: o.allow_off.clone(),
                        planted: None,
                    };
                    let t = Instant::now();
                    let outcome = w.run(&job, o.timeout);
                    let mut row = Row {
                        form: form.opcode(),
                        backend: backend.name().into(),
                        checked: 0,
                        mismatches: 0,
                        examples: Vec::new(),
                        failure: None,
                        seconds: 0.0,
                    };
                    let dead = match outcome {
                        Outcome::Done(d) => {
                            row.checked = d.result.checked;
                            row.mismatches = d.result.mismatches;
                            row.failure = d.result.failure();
                            row.examples = d.result.examples;
                            false
                        }
                        Outcome::Failed(m) => {
                            row.failure = Some(format!("rejected: {m}"));
                            false
                        }
                        Outcome::Fault(m) => {
                            row.failure = Some(format!("GPU fault: {m}"));
                            true
                        }
                        Outcome::Programs(_) => {
                            row.failure = Some("the worker answered a sweep with program results".into());
                            false
                        }
                        Outcome::Crashed(m) => {
                            row.failure = Some(format!("worker crashed: {m}"));
                            true
                        }
                        Outcome::Hung(t) => {
                            row.failure = Some(format!("hang: no result within {} s; worker killed", t.as_secs()));
                            true
                        }
                    };
                    row.seconds = t.elapsed().as_secs_f64();
                    rows.push(row);
                    pb.inc(*n);
                    if dead {
                        match WorkerHandle::spawn() {
                            Ok(nw) => w = nw,
                            Err(e) => {
                                env.push(("worker restart failed".into(), e));
                                pb.finish();
                                return Report {
                                    run_id: run_id.into(),
                                    target: target.name(),
                                    environment: env,
                                    rows,
                                    seconds: start.elapsed().as_secs_f64(),
                                };
                            }
                        }
                    }
                }
            }
            pb.finish_and_clear();
        }
        Err(why) => {
            env.push(("GPU backends".into(), why));
            rows.extend(ptxas_check(&target, &forms, &mut env));
            rows.extend(oracle_backend(&target, &forms, o));
        }
    }
    Report {
        run_id: run_id.into(),
        target: target.name(),
        environment: env,
        rows,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// `ptxas-check`: every sweep kernel must assemble at -O0 and -O3.
fn ptxas_check(target: &Target, forms: &[Form], env: &mut Vec<(String, String)>) -> Vec<Row> {
    let ptxas = match Ptxas::find() {
        Ok(p) => p,
        Err(e) => {
            env.push(("ptxas-check".into(), format!("unavailable: {e}")));
            return Vec::new();
        }
    };
    env.push(("ptxas".into(), ptxas.version.clone()));
    let pb = bar(forms.len() as u64 * 2);
    let work: Vec<(&Form, u8)> = forms.iter().flat_map(|f| [0u8, 3].map(|opt| (f, opt))).collect();
    let rows = work
        .into_par_iter()
        .map(|(f, opt)| {
            let t = Instant::now();
            let failure = match sweep_kernel(f, target) {
                Err(e) => Some(e.to_string()),
                Ok(k) => match ptxas.assemble(&k.ptx, &target.name(), opt, None) {
                    Ok(a) if a.ok => None,
                    Ok(a) if a.crashed => Some(format!("ptxas crashed: {}", a.output.trim())),
                    Ok(a) => Some(format!("ptxas rejected: {}", a.output.trim())),
                    Err(e) => Some(e.to_string()),
                },
            };
            pb.inc(1);
            Row {
                form: f.opcode(),
                backend: format!("ptxas-check-O{opt}"),
                checked: 0,
                mismatches: 0,
                examples: Vec::new(),
                failure,
                seconds: t.elapsed().as_secs_f64(),
            }
        })
        .collect();
    pb.finish_and_clear();
    rows
}

/// Inputs per form for the `oracle` backend when there is no GPU: enough to exercise every
/// rule on every sign/exponent slice (256 slices × 256 values), small enough that the whole
/// no-GPU run takes about a minute on two cores.
const ORACLE_SAMPLES: u64 = 1 << 16;

/// `oracle`: evaluates each form over its sweep inputs (at most [`ORACLE_SAMPLES`], spread
/// over the domain) by checking the oracle's own expected results, which exercises the fast
/// kernels against the full semantics.
fn oracle_backend(target: &Target, forms: &[Form], o: &Options) -> Vec<Row> {
    let mut allow = Allowances::all();
    for a in &o.allow_off {
        if let Some(a) = oracle::semantics::Allowance::from_name(a) {
            allow.disable(a);
        }
    }
    let o = &Options { samples: o.samples.min(ORACLE_SAMPLES), exhaustive: false, ..o.clone() };
    let pb = bar(forms.len() as u64);
    let rows = forms
        .iter()
        .filter_map(|f| {
            let k = sweep_kernel(f, target).ok()?;
            let checker = Checker::new(f, k.scheme, k.out_bytes, allow.clone());
            let t = Instant::now();
            // The oracle's own results, encoded as a backend would, must pass its own check
            // (this exercises the fast kernels against the full semantics).
            let mut c = check::Checked::default();
            for (first, count) in segments(k.scheme, o) {
                let count = count.min(o.samples);
                let mut bytes = Vec::with_capacity((count * u64::from(k.out_bytes)) as usize);
                for i in first..first + count {
                    bytes.extend_from_slice(&checker.expected(i).bits.to_le_bytes()[..k.out_bytes as usize]);
                }
                let part = checker.check(first, &bytes);
                c.checked += part.checked;
                c.mismatches += part.mismatches;
                c.absorb_audit(&part);
                c.examples.extend(part.examples);
            }
            pb.inc(1);
            Some(Row {
                form: f.opcode(),
                backend: "oracle".into(),
                checked: c.checked,
                mismatches: c.mismatches,
                failure: c.failure(),
                examples: c.examples,
                seconds: t.elapsed().as_secs_f64(),
            })
        })
        .collect();
    pb.finish_and_clear();
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_match("cvt.*.f16.f32", "cvt.rn.f16.f32"));
        assert!(glob_match("*e4m3*", "cvt.rn.satfinite.e4m3x2.f32"));
        assert!(!glob_match("cvt.rn.*", "cvt.rz.f16.f32"));
        assert!(glob_match("prmt.b32", "prmt.b32"));
    }
}
