//! `ptxdiff`: the command-line edge. Parses arguments, calls library code, renders tables and
//! JSON, and turns errors into one clear message and a non-zero exit status.

use std::collections::BTreeMap;
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use oracle::isa::{Family, PtxVersion, Target};
use oracle::semantics::{Allowance, Allowances};
use runner::validity;
use tabled::settings::Style;
use tabled::{Table, Tabled};

#[derive(Parser)]
#[command(
    name = "ptxdiff",
    version,
    about = "Differential conformance harness for PTX data-movement and conversion instructions"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Table,
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// List every instruction form valid on a target, with its requirement, and per-family counts.
    Variants {
        /// Target (`sm_90`, `sm_90a`, `sm_100f`; append `@8.7` for another PTX ISA version).
        #[arg(long, default_value = "sm_90")]
        target: String,
        /// Only this family (e.g. `cvt`, `ld.global.nc`, `cp.async.bulk.tensor`).
        #[arg(long)]
        family: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value = "table")]
        format: Format,
        /// Print only the per-family counts.
        #[arg(long)]
        counts: bool,
    },
    /// Evaluate one instruction on given operands and explain the result (cvt, cvt.pack, prmt,
    /// mov, shfl.sync, shfl, cvta, isspacep, mapa, getctarank).
    Explain {
        /// The instruction without operands, e.g. `cvt.rn.satfinite.e4m3x2.f32`.
        instr: String,
        /// Source operands in spec order: decimal (`1.5`, `-inf`, `nan`), hex float (`0x1.8p3`)
        /// or raw hex bits (`0x3fc00000`).
        #[arg(allow_hyphen_values = true)]
        operands: Vec<String>,
        /// Switch allowances off (comma-separated names; see `ptxdiff allowances`).
        #[arg(long, value_delimiter = ',')]
        allow_off: Vec<String>,
        /// Active lanes of the warp (warp forms such as shfl.sync), e.g. 0x0000ffff.
        #[arg(long)]
        active: Option<String>,
    },
    /// Batch evaluation: JSON Lines on stdin, one result line per input line on stdout
    /// (the contract in ARCHITECTURE.md, "Batch evaluation contract").
    Eval {
        /// Switch allowances off (comma-separated names; see `ptxdiff allowances`).
        #[arg(long, value_delimiter = ',')]
        allow_off: Vec<String>,
        /// Run the program lines on this backend (`cuda:jit`, `cuda:ptxas-O3`, …) instead of
        /// the oracle, answering with its bytes: the reproducer of an async-copy finding.
        #[arg(long)]
        backend: Option<String>,
        /// Read the lines from this file instead of stdin (`case.jsonl`).
        file: Option<std::path::PathBuf>,
    },
    /// List the named allowances (where the oracle accepts a set of results), with evidence.
    Allowances,
    /// Differential fuzzing: generate programs, run them on every backend, minimize and report
    /// every disagreement, crash and rejection (without a GPU: the oracle and ptxas-check).
    ///
    /// Exit status: 0 without new findings, 1 with new findings, 2 on an error. With
    /// --baseline: 1 only for findings that the baseline lacks and corpus/known/ does not cover.
    Fuzz(runner::fuzz::cli::FuzzArgs),
    /// Run a case file on every backend and show what disagrees (exit 1 if anything does).
    Replay {
        /// The case (`reports/<run>/cases/<id>.case`).
        case: std::path::PathBuf,
        #[command(flatten)]
        backends: runner::fuzz::cli::BackendArgs,
    },
    /// Reduce a case while its first finding reproduces.
    Minimize {
        /// The case.
        case: std::path::PathBuf,
        /// Output (default: CASE with `.min.case`).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        #[command(flatten)]
        backends: runner::fuzz::cli::BackendArgs,
        /// Most predicate runs.
        #[arg(long, default_value_t = 1000)]
        calls: usize,
    },
    /// Conformance sweeps: every cvt, cvt.pack and prmt form valid on the target, run on the GPU
    /// backends and checked against the oracle (exhaustive where the inputs fit in 32 bits).
    /// Without a GPU, runs the ptxas-check and oracle backends and says so.
    ///
    /// Exit status: 0 when every row agrees, 1 when a row fails, 2 on an error. With
    /// --baseline: 0 unless the run has findings that the baseline lacks and corpus/known/
    /// does not cover (then 1); 2 on an error.
    Conform(ConformArgs),
    /// Re-render a findings run's reports (summary.md, index.html, junit.xml) from its
    /// findings.json, completed by findings/*.json; `report diff` compares two runs, `report
    /// merge` joins shards into one report.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Report {
        /// The run directory (`reports/RUN`, the one holding findings.json).
        #[arg(required = true)]
        dir: Option<std::path::PathBuf>,
        #[command(subcommand)]
        action: Option<ReportAction>,
    },
    /// The worker process (started by the GPU and oracle-worker backends; reads jobs on stdin).
    #[command(hide = true)]
    Worker {
        /// CUDA device ordinal.
        #[arg(long, default_value_t = 0)]
        device: i32,
        /// Run jobs on the CPU oracle instead of a GPU (protocol tests).
        #[arg(long)]
        oracle: bool,
    },
    /// Check the validity table against ptxas: valid forms must assemble, a stratified sample of
    /// invalid forms must be rejected.
    Validity {
        /// Comma-separated targets.
        #[arg(long, default_value = "sm_80,sm_89,sm_90,sm_90a,sm_100a,sm_120a")]
        targets: String,
        /// Only this family.
        #[arg(long)]
        family: Option<String>,
        /// Invalid forms tried per distinct rule and family.
        #[arg(long, default_value_t = 10)]
        per_rule: usize,
        /// Parallel ptxas processes (default: all cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Output format.
        #[arg(long, value_enum, default_value = "table")]
        format: Format,
    },
}

/// `ptxdiff report diff|merge`.
#[derive(Subcommand)]
enum ReportAction {
    /// What changed from RUN_A (the baseline) to RUN_B: versions, rows newly failing or fixed,
    /// mismatch counts, allowance usage, rows in one run only, timing regressions (a row more
    /// than 3× and 2 s slower, the run more than 1.25× and 5 s), new and gone findings.
    ///
    /// Exit status: 0 unless RUN_B has findings that RUN_A lacks and corpus/known/ does not
    /// cover (then 1); 2 on an error.
    Diff {
        /// The baseline: a run directory, or its rows.json / findings.json.
        run_a: std::path::PathBuf,
        /// The run compared with it.
        run_b: std::path::PathBuf,
        /// Also write changes.json and changes.md into this directory.
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Known findings (default: PTXDIFF_KNOWN, else `corpus/known/` of the repository).
        #[arg(long)]
        known: Option<std::path::PathBuf>,
    },
    /// Join runs of one target and options (the shards of a run, `--shard i/N`) into one
    /// report: rows.json in the unsharded run's order, findings merged by signature (counts
    /// summed), summary.md, index.html, junit.xml.
    ///
    /// Exit status: 0 when merged, 1 when merged but shards are missing, 2 on an error (runs
    /// that do not belong together, a shard given twice, a non-empty --out).
    Merge {
        /// The runs (directories, or their rows.json / findings.json).
        #[arg(required = true)]
        runs: Vec<std::path::PathBuf>,
        /// The new run directory (missing or empty).
        #[arg(long)]
        out: std::path::PathBuf,
    },
}

fn parse_family(name: Option<&str>) -> Result<Option<Family>> {
    let Some(name) = name else { return Ok(None) };
    match Family::from_name(name) {
        Some(f) => Ok(Some(f)),
        None => {
            let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
            bail!("unknown family `{name}`; valid families: {}", names.join(", "))
        }
    }
}

fn parse_target(s: &str) -> Result<Target> {
    Ok(s.trim().parse::<Target>()?)
}

#[derive(Tabled)]
struct CountRow {
    family: &'static str,
    section: String,
    forms: usize,
}

fn variants(target: &str, family: Option<&str>, format: Format, counts_only: bool) -> Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let target = parse_target(target)?;
    let family = parse_family(family)?;
    let forms = oracle::isa::valid_forms(&target, family);
    let mut counts: BTreeMap<Family, usize> = BTreeMap::new();
    for (f, _) in &forms {
        *counts.entry(f.family()).or_default() += 1;
    }
    match format {
        Format::Json => {
            let rows: Vec<serde_json::Value> = forms
                .iter()
                .map(|(f, req)| {
                    serde_json::json!({
                        "family": f.family().name(),
                        "opcode": f.opcode(),
                        "template": f.template(),
                        "requirement": req.to_string(),
                    })
                })
                .collect();
            let doc = serde_json::json!({
                "target": target.name(),
                "ptx": target.ptx.to_string(),
                "counts": counts.iter().map(|(f, n)| (f.name(), *n)).collect::<BTreeMap<_, _>>(),
                "forms": if counts_only { Vec::new() } else { rows },
            });
            writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
        }
        Format::Table => {
            if !counts_only {
                let width = forms.iter().map(|(f, _)| f.template().len()).max().unwrap_or(0);
                for (f, req) in &forms {
                    writeln!(out, "{:width$}  {req}", f.template())?;
                }
                writeln!(out)?;
            }
            let mut rows: Vec<CountRow> = Family::ALL
                .iter()
                .filter(|f| family.is_none_or(|only| only == **f))
                .map(|f| CountRow {
                    family: f.name(),
                    section: format!("§{}", f.section()),
                    forms: counts.get(f).copied().unwrap_or(0),
                })
                .collect();
            rows.push(CountRow { family: "total", section: String::new(), forms: forms.len() });
            writeln!(out, "Forms valid on {} (PTX ISA {}):", target.name(), target.ptx)?;
            writeln!(out, "{}", Table::new(rows).with(Style::modern()))?;
        }
    }
    out.flush()?;
    Ok(())
}

#[derive(Tabled)]
struct ValidityRow {
    target: String,
    #[tabled(rename = "valid forms")]
    valid: usize,
    #[tabled(rename = "assembled")]
    accepted: usize,
    #[tabled(rename = "invalid sample")]
    invalid: usize,
    #[tabled(rename = "rejected")]
    rejected: usize,
    agreement: String,
}

fn validity_cmd(
    targets: &str,
    family: Option<&str>,
    per_rule: usize,
    jobs: Option<usize>,
    format: Format,
) -> Result<bool> {
    let family = parse_family(family)?;
    let targets: Vec<Target> = targets.split(',').map(parse_target).collect::<Result<_>>()?;
    let ptxas = runner::backend::default_ptxas().map_err(anyhow::Error::msg)?;
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    eprintln!("ptxas: {} ({})", ptxas.path.display(), ptxas.version);
    let start = std::time::Instant::now();
    let reports =
        validity::check_targets(&ptxas, &targets, family, per_rule, jobs).context("checking validity against ptxas")?;
    let all_agree = reports.iter().all(|r| r.disagreements.is_empty());
    match format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({ "ptxas": ptxas.version, "reports": reports }))?
        ),
        Format::Table => {
            for r in &reports {
                for d in &r.disagreements {
                    println!("DISAGREE {} expected {:?}: {}\n    {}", d.target, d.expected, d.instruction, d.detail);
                }
            }
            let rows: Vec<ValidityRow> = reports
                .iter()
                .map(|r| {
                    let total = r.valid_checked + r.invalid_checked;
                    let agreed = r.valid_accepted + r.invalid_rejected;
                    ValidityRow {
                        target: r.target.clone(),
                        valid: r.valid_checked,
                        accepted: r.valid_accepted,
                        invalid: r.invalid_checked,
                        rejected: r.invalid_rejected,
                        agreement: format!("{:.2}%", 100.0 * agreed as f64 / total.max(1) as f64),
                    }
                })
                .collect();
            println!("{}", Table::new(rows).with(Style::modern()));
            println!("ptxas {} ; {:.1} s", ptxas.version, start.elapsed().as_secs_f64());
        }
    }
    Ok(all_agree)
}

#[derive(Tabled)]
struct ConformRow {
    form: String,
    backend: String,
    inputs: u64,
    mismatches: u64,
    #[tabled(rename = "first mismatch / failure")]
    first: String,
    seconds: String,
}

#[derive(Tabled)]
struct FamilyRow {
    family: &'static str,
    rows: usize,
    inputs: u64,
    failing: usize,
}

fn positive(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// `ptxdiff conform`'s arguments.
#[derive(clap::Args)]
struct ConformArgs {
    /// Target: `auto` (the GPU's own; sm_90 without a GPU) or a name such as `sm_90`.
    #[arg(long, default_value = "auto")]
    target: String,
    /// Only forms whose opcode matches this glob (`cvt.*.f16.f32`); `ptxdiff variants --family
    /// cvt` lists them. A glob that matches nothing is an error.
    #[arg(long)]
    forms: Option<String>,
    /// Sweep every input of forms whose inputs fit in 32 bits, on the GPU backends. The oracle
    /// backend (the run without a GPU) still checks at most 65,536 inputs per form, and says so.
    #[arg(long)]
    exhaustive: bool,
    /// Inputs per form otherwise (at least 1).
    #[arg(long, default_value_t = 1 << 24, value_parser = clap::value_parser!(u64).range(1..))]
    samples: u64,
    /// Backends (comma-separated: cuda:ptxas-O0, cuda:ptxas-O3, cuda:jit, oracle,
    /// oracle-worker, ptxas-check; with --ptxas, cuda:ptxas-VERSION-O3 …); default:
    /// cuda:ptxas-O3 per ptxas, and without a GPU ptxas-check and oracle. A backend named here
    /// that cannot run on this machine is an error.
    #[arg(long, value_delimiter = ',')]
    backends: Vec<String>,
    /// ptxas binaries (`--ptxas`, `--ptxas-matrix`).
    #[command(flatten)]
    ptxas: runner::fuzz::cli::PtxasArgs,
    /// Do not install ptxas when none is found (also: PTXDIFF_NO_INSTALL=1). By default a run
    /// that finds no ptxas installs the pinned nvidia-cuda-nvcc wheel's ptxas into
    /// ~/.cache/ptxdiff/nvcc (needs python3 with pip and access to PyPI).
    #[arg(long)]
    no_install_ptxas: bool,
    /// GPUs and workers per GPU.
    #[command(flatten)]
    gpus: runner::fuzz::cli::DeviceArgs,
    /// Threads for the oracle (default: all cores; at least 1).
    #[arg(long, value_parser = positive)]
    jobs: Option<usize>,
    /// Seconds before a job counts as hung.
    #[arg(long, default_value_t = 300)]
    timeout: u64,
    /// Switch allowances off (comma-separated names).
    #[arg(long, value_delimiter = ',')]
    allow_off: Vec<String>,
    /// Where reports go: a new findings run directory `conform-<time>` is made in it (default:
    /// PTXDIFF_REPORTS, else `reports/` of the repository, whatever the working directory).
    #[arg(long)]
    reports: Option<std::path::PathBuf>,
    /// Known findings: mismatches they cover are counted, not reported (default: PTXDIFF_KNOWN,
    /// else `corpus/known/` of the repository). A path given here must exist.
    #[arg(long)]
    known: Option<std::path::PathBuf>,
    /// Print every row (form × backend), not just the per-family summary and the failing rows.
    #[arg(long, short)]
    verbose: bool,
    /// Copy every GPU result to the host and check it there, instead of letting the GPU compare
    /// its results with the oracle's integer kernels (the default for exhaustive cvt forms with
    /// a fast kernel; both give the same verdict, this path is slower)
    #[arg(long)]
    cpu_check: bool,
    /// Run only shard i of N of the forms (`2/3`; dealt round-robin in the run's form order:
    /// cvt, cvt.pack, prmt): N shards cover the run; `ptxdiff report merge` joins them.
    #[arg(long)]
    shard: Option<runner::runs::shard::Shard>,
    /// Compare with a stored run of the same forms (its run directory or rows.json): what
    /// changed is printed and written as changes.json/changes.md; the exit status is then 1
    /// only for new findings that the baseline lacks and corpus/known/ does not cover.
    #[arg(long)]
    baseline: Option<std::path::PathBuf>,
}

/// Whether the user turned the ptxas installation off (`PTXDIFF_NO_INSTALL` set to anything
/// but empty or `0`).
fn install_disabled_by_env() -> bool {
    std::env::var_os("PTXDIFF_NO_INSTALL").is_some_and(|v| !v.is_empty() && v != "0")
}

/// First run: when no ptxas is found and nothing turned it off, installs the pinned one into
/// the user's cache (one line on stderr says so); a failure says what to do and the run goes
/// on without ptxas.
fn ensure_ptxas(no_install: bool) {
    if runner::backend::default_ptxas().is_ok() {
        return;
    }
    if no_install || install_disabled_by_env() {
        eprintln!("no ptxas found; not installing one (--no-install-ptxas / PTXDIFF_NO_INSTALL)");
        return;
    }
    let dest = runner::ptxas::cache_install_dir().map_or_else(|| "the cache".into(), |d| d.display().to_string());
    eprintln!(
        "no ptxas found: installing the pinned nvidia-cuda-nvcc wheel's ptxas into {dest} \
         (off: --no-install-ptxas or PTXDIFF_NO_INSTALL=1)"
    );
    match runner::ptxas::install() {
        Ok(p) => eprintln!("installed ptxas {} ({})", p.version, p.path.display()),
        Err(e) => eprintln!("{e}\ngoing on without ptxas"),
    }
}

/// Prints the end of a conform run: per-family totals, failing rows in full (every row with
/// `verbose`), totals, the report path, and what ran, what did not and what the verdict covers.
fn conform_summary(
    report: &runner::conform::Report,
    verbose: bool,
    dir: &std::path::Path,
    rec: &runner::conform::Recording,
) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let table_row = |r: &runner::conform::Row| ConformRow {
        form: r.form.clone(),
        backend: r.backend.clone(),
        inputs: r.checked,
        mismatches: r.mismatches,
        first: match (&r.failure, r.examples.first()) {
            (Some(f), _) if verbose => f.to_string().chars().take(100).collect(),
            (Some(f), _) => f.to_string(),
            (None, Some(m)) => format!("{:?}: expected {} got {}", m.inputs, m.expected, m.actual),
            _ => String::new(),
        },
        seconds: format!("{:.2}", r.seconds),
    };
    if verbose {
        writeln!(out, "{}", Table::new(report.rows.iter().map(table_row)).with(Style::modern()))?;
    }
    let families: Vec<FamilyRow> = runner::conform::FAMILIES
        .iter()
        .map(|f| {
            let rows: Vec<_> = report.rows.iter().filter(|r| r.family() == f.name()).collect();
            FamilyRow {
                family: f.name(),
                rows: rows.len(),
                inputs: rows.iter().map(|r| r.checked).sum(),
                failing: rows.iter().filter(|r| r.failing()).count(),
            }
        })
        .collect();
    writeln!(out, "{}", Table::new(families).with(Style::modern()))?;
    let failing: Vec<_> = report.failing().collect();
    if !failing.is_empty() && !verbose {
        writeln!(out, "failing rows:")?;
        writeln!(out, "{}", Table::new(failing.iter().map(|r| table_row(r))).with(Style::modern()))?;
    }
    let inputs: u64 = report.rows.iter().map(|r| r.checked).sum();
    writeln!(
        out,
        "{} rows, {inputs} inputs checked, {} failing, {:.1} s; findings: {} new, {} known; report: {}",
        report.rows.len(),
        failing.len(),
        report.seconds,
        rec.new,
        rec.known,
        dir.display()
    )?;
    let env = |k: &str| report.environment.iter().find(|(x, _)| x == k).map(|(_, v)| v.as_str());
    let device = match env("device") {
        Some(d) if report.on_gpu => d.to_string(),
        _ => format!("no GPU ({})", env("GPU backends").unwrap_or("no GPU backend ran")),
    };
    let ptxas: Vec<String> = report
        .environment
        .iter()
        .filter(|(k, _)| k.starts_with("ptxas") && !k.starts_with("ptxas-check"))
        .map(|(k, v)| if k == "ptxas" { v.clone() } else { format!("{k}: {v}") })
        .collect();
    let stages: Vec<&runner::backend::Stages> = report.rows.iter().filter_map(|r| r.stages.as_ref()).collect();
    if !stages.is_empty() {
        let sum = |f: fn(&runner::backend::Stages) -> f64| stages.iter().map(|s| f(s)).sum::<f64>();
        writeln!(
            out,
            "worker stages (summed over rows and workers): compile {:.1} s, GPU {:.1} s, check {:.1} s; \
             {} of {} rows checked on the GPU",
            sum(|s| s.compile_s),
            sum(|s| s.gpu_s),
            sum(|s| s.check_s),
            stages.iter().filter(|s| s.gpu_checked).count(),
            stages.len()
        )?;
    }
    writeln!(out, "target: {}; device: {device}", report.target)?;
    writeln!(out, "ptxas: {}", if ptxas.is_empty() { "none".to_string() } else { ptxas.join(", ") })?;
    writeln!(out, "backends run: {}", report.ran.join(", "))?;
    if let Some(s) = report.options.shard {
        writeln!(out, "shard {s}: this run covers part of the forms; `ptxdiff report merge` joins the shards")?;
    }
    for (name, why) in &report.not_run {
        writeln!(out, "not run: {name} ({why})")?;
    }
    for note in &report.notes {
        writeln!(out, "note: {note}")?;
    }
    let assembled = report.ran.iter().any(|b| b.starts_with("ptxas-check"));
    let covers = if report.on_gpu {
        format!("{} on the GPU compared with the oracle over the inputs counted above", report.ran.join(", "))
    } else if assembled {
        "without a GPU this checks the oracle against itself and that every sweep kernel assembles; \
         it says nothing about hardware"
            .to_string()
    } else {
        "without a GPU and without ptxas this checks only the oracle against itself; it says nothing \
         about hardware or the assembler"
            .to_string()
    };
    writeln!(out, "the verdict covers: {covers}")?;
    out.flush()
}

/// Conform's default worker processes per device: [`runner::backend::pool::CONFORM_WORKERS`],
/// but no more than the forms a `--forms` glob selects (each worker costs a CUDA context; a
/// one-form run needs one).
fn conform_workers(target: Option<oracle::isa::Target>, forms: Option<&str>) -> usize {
    let most = runner::backend::pool::CONFORM_WORKERS;
    let Some(glob) = forms else { return most };
    let target = target.unwrap_or_else(|| "sm_90".parse().expect("sm_90 is a target"));
    runner::conform::select_forms(&target, Some(glob)).len().clamp(1, most)
}

fn conform_cmd(a: ConformArgs) -> Result<ExitCode> {
    let target = if a.target == "auto" { None } else { Some(parse_target(&a.target)?) };
    let allow = Allowances::from_off(&a.allow_off)?;
    let sm_90: oracle::isa::Target = "sm_90".parse()?;
    // The default backends need ptxas; an explicit list only if it names a ptxas backend.
    if a.ptxas.ptxas.is_empty() && (a.backends.is_empty() || a.backends.iter().any(|b| b.contains("ptxas"))) {
        ensure_ptxas(a.no_install_ptxas);
    }
    let registry = runner::backend::Registry::new(runner::backend::Settings {
        // An `auto` target is known only once the GPU answers: the matrix is checked against
        // conform's fallback, sm_90.
        ptxas: a.ptxas.specs(target.as_ref().or(Some(&sm_90)))?,
        devices: a.gpus.devices(),
        workers: Some(a.gpus.workers.unwrap_or_else(|| conform_workers(target, a.forms.as_deref()))),
        allow: allow.clone(),
        sweep_timeout: std::time::Duration::from_secs(a.timeout),
    });
    let backends = runner::fuzz::cli::parse_backends(&a.backends);
    registry.check_names(&backends)?;
    let known = load_known(a.known.as_deref())?;
    if let Some(j) = a.jobs {
        rayon::ThreadPoolBuilder::new().num_threads(j).build_global().context("setting up the thread pool")?;
    }
    let reports = a.reports.unwrap_or_else(|| runner::paths::default_under_repo("PTXDIFF_REPORTS", "reports"));
    if let Some(b) = &a.baseline {
        runner::runs::baseline::check_exists(b, runner::runs::record::RunKind::Conform)?;
    }
    let opts = runner::conform::Options {
        target,
        forms: a.forms,
        exhaustive: a.exhaustive,
        samples: a.samples,
        backends,
        cpu_check: a.cpu_check,
        allow_off: a.allow_off.clone(),
        shard: a.shard,
    };
    let run_id = format!(
        "conform-{}",
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
    );
    let mut report = runner::conform::run(&opts, &registry, &run_id)?;
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let known_now = if a.baseline.is_some() { Some(known.clone()) } else { None };
    let (dir, rec) = runner::conform::results::write_run(&reports, &mut report, &command, &allow, known)
        .with_context(|| format!("writing the run under {}", reports.display()))?;
    conform_summary(&report, a.verbose, &dir, &rec)?;
    if let (Some(b), Some(known)) = (&a.baseline, known_now) {
        let changes = runner::runs::baseline::check(b, &dir, &known)?;
        return Ok(runner::runs::baseline::exit_status(&changes));
    }
    Ok(if report.failing().next().is_none() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

fn report_cmd(dir: &std::path::Path) -> Result<ExitCode> {
    use runner::findings::{render, FindingsDoc};
    let doc = FindingsDoc::load(dir).with_context(|| format!("loading the findings run {}", dir.display()))?;
    let paths = render::write_all(dir, &doc)
        .with_context(|| format!("writing the reports into {} (is it writable?)", dir.display()))?;
    println!(
        "{} new finding(s) ({} occurrence(s)), {} known finding(s) seen ({} occurrence(s))",
        doc.findings.len(),
        doc.occurrences(),
        doc.known.len(),
        doc.known_occurrences()
    );
    for (class, n, occ) in doc.by_class() {
        if n > 0 {
            println!("  {class}: {n} ({occ} occurrence(s))");
        }
    }
    for p in paths {
        println!("wrote {}", p.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The known findings at `given`, else PTXDIFF_KNOWN or the repository's; none when that
/// folder does not exist (a path given must exist).
fn load_known(given: Option<&std::path::Path>) -> Result<runner::findings::KnownSet> {
    let dir = match given {
        Some(k) if !k.is_dir() => bail!("--known {}: no such directory (corpus/known/ of the repository)", k.display()),
        Some(k) => k.to_path_buf(),
        None => runner::paths::default_under_repo("PTXDIFF_KNOWN", "corpus/known"),
    };
    if !dir.is_dir() {
        return Ok(runner::findings::KnownSet::empty());
    }
    runner::findings::KnownSet::load(&dir).with_context(|| format!("loading known findings from {}", dir.display()))
}

/// `ptxdiff report diff RUN_A RUN_B`.
fn report_diff(
    a: &std::path::Path,
    b: &std::path::Path,
    out: Option<&std::path::Path>,
    known: Option<&std::path::Path>,
) -> Result<ExitCode> {
    use runner::runs::record::RunRecord;
    let known = load_known(known)?;
    let base = RunRecord::load(a)?;
    let run = RunRecord::load(b)?;
    let changes = runner::runs::compare::compare(&base, &run, &known)?;
    for line in changes.lines() {
        println!("{line}");
    }
    if let Some(out) = out {
        std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
        changes.write(out).with_context(|| format!("writing the changes into {}", out.display()))?;
        println!("wrote {}", out.join(runner::runs::compare::CHANGES_MD).display());
    }
    Ok(runner::runs::baseline::exit_status(&changes))
}

/// `ptxdiff report merge RUN… --out DIR`.
fn report_merge(runs: &[std::path::PathBuf], out: &std::path::Path) -> Result<ExitCode> {
    let records = runs.iter().map(|r| runner::runs::record::RunRecord::load(r)).collect::<Result<Vec<_>, _>>()?;
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let m = runner::runs::merge::merge(&records, out, &command)?;
    if let Some(r) = &m.report {
        println!("{} rows ({} failing) from {} runs", r.rows.len(), r.failing().count(), runs.len());
    }
    println!(
        "{} finding(s) ({} occurrence(s)), {} known finding(s) seen; report: {}",
        m.findings.findings.len(),
        m.findings.occurrences(),
        m.findings.known.len(),
        m.dir.display()
    );
    if m.missing.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    let missing: Vec<String> = m.missing.iter().map(ToString::to_string).collect();
    eprintln!("shards missing from the merge: {} (the report covers the others only)", missing.join(", "));
    Ok(ExitCode::FAILURE)
}

fn run() -> Result<ExitCode> {
    let cli = Cli::parse();
    match cli.command {
        Command::Variants { target, family, format, counts } => {
            variants(&target, family.as_deref(), format, counts)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Explain { instr, operands, mut allow_off, mut active } => {
            // Operands may start with '-' (`-inf`, `-3`), so clap hands every later word to
            // `operands`; options written after the operands are taken out here.
            let mut rest = Vec::new();
            let mut words = operands.into_iter();
            while let Some(w) = words.next() {
                let (flag, inline) = match w.split_once('=') {
                    Some((f, v)) => (f.to_string(), Some(v.to_string())),
                    None => (w.clone(), None),
                };
                match flag.as_str() {
                    "--active" | "--allow-off" => {
                        let v = inline.or_else(|| words.next()).with_context(|| format!("{flag} needs a value"))?;
                        if flag == "--active" {
                            active = Some(v);
                        } else {
                            allow_off.extend(v.split(',').map(str::to_string));
                        }
                    }
                    _ => rest.push(w),
                }
            }
            let operands = rest;
            let active = match active {
                None => None,
                Some(s) => {
                    let h = s.strip_prefix("0x").unwrap_or(&s);
                    Some(
                        u32::from_str_radix(h, 16)
                            .with_context(|| format!("--active {s}: expected a 32-bit hex mask"))?,
                    )
                }
            };
            print!("{}", runner::explain::explain(&instr, &operands, active, &Allowances::from_off(&allow_off)?)?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Eval { allow_off, backend, file } => {
            let allow = Allowances::from_off(&allow_off)?;
            let input: Box<dyn std::io::BufRead + Send> = match &file {
                Some(f) => Box::new(std::io::BufReader::new(
                    std::fs::File::open(f).with_context(|| format!("opening {}", f.display()))?,
                )),
                None => Box::new(std::io::BufReader::new(std::io::stdin())),
            };
            let stdout = std::io::BufWriter::new(std::io::stdout().lock());
            match backend {
                None => runner::eval::run(input, stdout, &allow).context("reading the input or writing stdout")?,
                Some(name) => {
                    let registry = runner::backend::Registry::new(runner::backend::Settings {
                        ptxas: Vec::new(),
                        devices: Default::default(),
                        workers: Some(1),
                        allow,
                        sweep_timeout: runner::eval::BACKEND_TIMEOUT,
                    });
                    let mut b = registry.build(&name)?;
                    runner::eval::run_backend(input, stdout, b.as_mut())
                        .context("reading the input or writing stdout")?
                }
            };
            Ok(ExitCode::SUCCESS)
        }
        Command::Worker { device, oracle } => {
            runner::worker::serve(device, oracle).context("worker I/O")?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Conform(args) => conform_cmd(args),
        Command::Report { action: Some(ReportAction::Diff { run_a, run_b, out, known }), .. } => {
            report_diff(&run_a, &run_b, out.as_deref(), known.as_deref())
        }
        Command::Report { action: Some(ReportAction::Merge { runs, out }), .. } => report_merge(&runs, &out),
        Command::Report { dir: Some(dir), action: None } => report_cmd(&dir),
        Command::Report { dir: None, action: None } => bail!("report: give a run directory, or `diff` or `merge`"),
        Command::Fuzz(mut args) => {
            args.command = std::env::args().collect::<Vec<_>>().join(" ");
            runner::fuzz::cli::fuzz_command(args)
        }
        Command::Replay { case, backends } => runner::fuzz::cli::replay_command(&case, &backends),
        Command::Minimize { case, out, backends, calls } => {
            runner::fuzz::cli::minimize_command(&case, out.as_deref(), &backends, calls)
        }
        Command::Allowances => {
            for a in Allowance::ALL {
                println!(
                    "{}\n  allows:   {}\n  when off: {}\n  evidence: {}\n",
                    a.name(),
                    a.description(),
                    a.strict(),
                    a.evidence()
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Validity { targets, family, per_rule, jobs, format } => {
            let ok = validity_cmd(&targets, family.as_deref(), per_rule, jobs, format)?;
            Ok(if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE })
        }
    }
}

fn main() -> ExitCode {
    let _ = PtxVersion::DEFAULT;
    match run() {
        Ok(code) => code,
        // `ptxdiff variants | head`: the reader is gone, which is not an error of ours.
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
