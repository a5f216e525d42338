//! The command line: every command's arguments (clap) and their dispatch ([`run`]). Thin: each
//! command parses and checks its arguments, calls library code and renders tables and JSON;
//! `main.rs` turns the result into an exit status. One file per group of commands:
//! [`conform`] (`conform`: arguments, the ptxas installer, the summary), [`fuzz`] (`fuzz`,
//! `replay`, `minimize`), [`report`] (`report`, `report diff`, `report merge`), [`sass`] (`sass-check`) and [`isa`]
//! (`variants`, `validity`); `explain`, `eval`, `allowances` and `worker` are dispatched here.

pub mod conform;
pub mod fuzz;
pub mod isa;
pub mod report;
pub mod sass;

use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use oracle::isa::{Family, Target};
use oracle::semantics::{Allowance, Allowances};

use conform::{conform_cmd, ConformArgs};
use isa::{validity_cmd, variants};
use report::{report_cmd, report_diff, report_merge};

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
    /// Count the instruction forms valid on a target, per family; `--forms` lists every one
    /// with its requirement.
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
        /// List every form (its template and requirement) before the counts.
        #[arg(long)]
        forms: bool,
        /// Only the per-family counts: the default (kept for scripts that ask for it).
        #[arg(long, conflicts_with = "forms")]
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
    Fuzz(fuzz::FuzzArgs),
    /// Run a case file on every backend and show what disagrees (exit 1 if anything does).
    /// Several register-program cases run as one batch (one module, in the order given).
    Replay {
        /// The case (`reports/<run>/cases/<id>.case`), or several register-program cases.
        #[arg(required = true, num_args = 1..)]
        case: Vec<std::path::PathBuf>,
        #[command(flatten)]
        backends: fuzz::BackendArgs,
    },
    /// Reduce a case while its first finding reproduces.
    Minimize {
        /// The case.
        case: std::path::PathBuf,
        /// Output (default: CASE with `.min.case`); an existing file only with --force.
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Overwrite the output file if it exists.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        backends: fuzz::BackendArgs,
        /// Most predicate runs.
        #[arg(long, default_value_t = 1000)]
        calls: usize,
    },
    /// Conformance sweeps: every form valid on the target of cvt, cvt.pack and prmt (swept over
    /// their inputs, exhaustively where they fit in 32 bits) and of the asynchronous copies
    /// (cp.async, cp.async.bulk{.tensor}, cp.reduce.async.bulk{.tensor}, the prefetches and
    /// tensormap.replace: generated cases whose final memory is compared byte for byte), run on
    /// the GPU backends and checked against the oracle. Without a GPU it says so first, then
    /// runs the ptxas-check and oracle backends. Reports: summary.md, index.html (a table of
    /// every row) and junit.xml (a test case per row) in the run's folder.
    ///
    /// Exit status: 0 when every row agrees or fails with known findings only (corpus/known/),
    /// 1 when a row fails with a new finding or without any finding, 2 on an error; --strict:
    /// 1 for known findings too. With --baseline: 0 unless the run has findings that the
    /// baseline lacks and corpus/known/ does not cover (--strict: known or not), then 1.
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
    /// Assemble a PTX file or case (or take a cubin), disassemble it with nvdisasm and print
    /// every SASS instruction that reads a register (general, uniform or predicate) never
    /// written on some path: a compiler bug found without running anything.
    ///
    /// Exit status: 0 when nothing is flagged, 1 when something is, 2 on an error.
    SassCheck(sass::SassArgs),
    /// Write a vendor-ready folder per stored register-program finding of a run: the kernel,
    /// a standalone repro.cu that prints the expected and actual words, the SASS at -O0 and -O3
    /// with the differing instructions marked, and a README with the exact versions.
    ///
    /// Bundles go to `RUN/bundles/<id>/` (or `--out DIR/<id>/`); an existing bundle is kept.
    Bundle {
        /// The run directory (the one holding findings.json).
        run: std::path::PathBuf,
        /// Finding ids (default: every register-program finding of the run).
        ids: Vec<String>,
        /// The folder the bundles go into (default: RUN/bundles).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
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
        /// Parallel ptxas processes (default: all cores; at most 4 per core).
        #[arg(long, value_parser = fuzz::per_machine)]
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
        /// Also write changes.json and changes.md into this directory (existing ones only with
        /// --force).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Overwrite changes.json and changes.md in --out.
        #[arg(long)]
        force: bool,
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

pub(crate) fn parse_family(name: Option<&str>) -> Result<Option<Family>> {
    let Some(name) = name else { return Ok(None) };
    match Family::from_name(name) {
        Some(f) => Ok(Some(f)),
        None => {
            let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
            bail!("unknown family `{name}`; valid families: {}", names.join(", "))
        }
    }
}

pub(crate) fn parse_target(s: &str) -> Result<Target> {
    Ok(s.trim().parse::<Target>()?)
}

/// Parses the command line and runs the command: its exit status, or the error `main` reports.
pub fn run() -> Result<ExitCode> {
    let cli = Cli::parse();
    crate::paths::check_environment().map_err(anyhow::Error::msg)?;
    match cli.command {
        Command::Variants { target, family, format, forms, counts: _ } => {
            variants(&target, family.as_deref(), format, forms)?;
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
            print!("{}", crate::explain::explain(&instr, &operands, active, &Allowances::from_off(&allow_off)?)?);
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
                None => crate::eval::run(input, stdout, &allow).context("reading the input or writing stdout")?,
                Some(name) => {
                    let registry = crate::backend::Registry::new(crate::backend::Settings {
                        ptxas: Vec::new(),
                        devices: Default::default(),
                        workers: Some(1),
                        allow,
                        sweep_timeout: crate::eval::BACKEND_TIMEOUT,
                    });
                    let mut b = registry.build(&name)?;
                    crate::eval::run_backend(input, stdout, b.as_mut())
                        .context("reading the input or writing stdout")?
                }
            };
            Ok(ExitCode::SUCCESS)
        }
        Command::Worker { device, oracle } => {
            crate::worker::serve(device, oracle).context("worker I/O")?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Conform(args) => conform_cmd(args),
        Command::SassCheck(args) => sass::sass_check(&args),
        Command::Bundle { run, ids, out } => bundle(&run, &ids, out.as_deref()),
        Command::Report { action: Some(ReportAction::Diff { run_a, run_b, out, known, force }), .. } => {
            report_diff(&run_a, &run_b, out.as_deref(), known.as_deref(), force)
        }
        Command::Report { action: Some(ReportAction::Merge { runs, out }), .. } => report_merge(&runs, &out),
        Command::Report { dir: Some(dir), action: None } => report_cmd(&dir),
        Command::Report { dir: None, action: None } => bail!("report: give a run directory, or `diff` or `merge`"),
        Command::Fuzz(mut args) => {
            args.command = std::env::args().collect::<Vec<_>>().join(" ");
            fuzz::fuzz_command(args)
        }
        Command::Replay { case, backends } => fuzz::replay_command(&case, &backends),
        Command::Minimize { case, out, force, backends, calls } => {
            fuzz::minimize_command(&case, out.as_deref(), force, &backends, calls)
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

/// `ptxdiff bundle RUN [ID…]`: writes each bundle (see [`crate::bundle`]); exit 1 when a
/// finding could not be bundled, 0 otherwise.
fn bundle(run: &std::path::Path, ids: &[String], out: Option<&std::path::Path>) -> Result<ExitCode> {
    let doc = crate::findings::FindingsDoc::load(run).with_context(|| format!("reading the run {}", run.display()))?;
    if let Some(missing) = ids.iter().find(|id| !doc.findings.iter().any(|f| &f.id == *id)) {
        bail!("{}: no finding `{missing}` (see its findings.json for the ids)", run.display());
    }
    let parent = out.map_or_else(|| run.join("bundles"), std::path::Path::to_path_buf);
    let mut failed = 0;
    for f in doc.findings.iter().filter(|f| ids.is_empty() || ids.contains(&f.id)) {
        match crate::bundle::write_bundle(f, &parent) {
            Ok(b) => {
                println!("{}: {}", b.dir.display(), b.files.join(", "));
                for n in &b.notes {
                    println!("  note: {n}");
                }
            }
            Err(e) => {
                failed += 1;
                eprintln!("{e}");
            }
        }
    }
    Ok(if failed > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}
