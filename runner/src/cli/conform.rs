//! `ptxdiff conform`: its arguments, the first-run ptxas installer, the run and its summary
//! (per-family totals, failing rows, what ran and what the verdict covers).

use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use oracle::semantics::Allowances;
use tabled::settings::Style;
use tabled::{Table, Tabled};

use super::parse_target;
use super::report::load_known;
use crate::findings::render::{family_totals, RowLine, RowStatus, RunRows};

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
    family: String,
    backend: String,
    rows: usize,
    inputs: u64,
    agree: usize,
    known: usize,
    new: usize,
    failed: usize,
}

/// The widest line the terminal summary prints for a known failing row.
const KNOWN_LINE_COLUMNS: usize = 120;

/// `ptxdiff conform`'s arguments.
#[derive(clap::Args)]
pub(super) struct ConformArgs {
    /// Target: `auto` (the GPU's own; sm_90 without a GPU) or a name such as `sm_90`.
    #[arg(long, default_value = "auto")]
    target: String,
    /// Only forms whose opcode matches this glob (`cvt.*.f16.f32`); `ptxdiff variants --forms
    /// --family cvt` lists them. A glob that matches nothing is an error.
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
    ptxas: crate::cli::fuzz::PtxasArgs,
    /// Do not install ptxas when none is found (also: PTXDIFF_NO_INSTALL=1). By default a run
    /// that finds no ptxas installs the pinned nvidia-cuda-nvcc wheel's ptxas into
    /// ~/.cache/ptxdiff/nvcc (needs python3 with pip and access to PyPI).
    #[arg(long)]
    no_install_ptxas: bool,
    /// GPUs and workers per GPU.
    #[command(flatten)]
    gpus: crate::cli::fuzz::DeviceArgs,
    /// Threads for the oracle (default: all cores; at least 1, at most 4 per core).
    #[arg(long, value_parser = crate::cli::fuzz::per_machine)]
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
    shard: Option<crate::runs::shard::Shard>,
    /// Compare with a stored run of the same forms (its run directory or rows.json): what
    /// changed is printed and written as changes.json/changes.md; the exit status is then 1
    /// only for new findings that the baseline lacks and corpus/known/ does not cover.
    #[arg(long)]
    baseline: Option<std::path::PathBuf>,
    /// Fail (exit 1) on known findings too: on any failing row, or with --baseline on any
    /// finding the baseline lacks, known or not.
    #[arg(long)]
    strict: bool,
    /// Leave out the asynchronous-copy rows (cp.async, cp.async.bulk{.tensor},
    /// cp.reduce.async.bulk{.tensor}, the prefetches: memory programs whose final bytes are
    /// compared with the oracle's; `--forms` selects them too, e.g. `'cp.async.bulk*'`).
    #[arg(long)]
    no_async: bool,
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
    if crate::backend::default_ptxas().is_ok() {
        return;
    }
    if no_install || install_disabled_by_env() {
        eprintln!("no ptxas found; not installing one (--no-install-ptxas / PTXDIFF_NO_INSTALL)");
        return;
    }
    let dest = crate::ptxas::cache_install_dir().map_or_else(|| "the cache".into(), |d| d.display().to_string());
    eprintln!(
        "no ptxas found: installing the pinned nvidia-cuda-nvcc wheel's ptxas into {dest} \
         (off: --no-install-ptxas or PTXDIFF_NO_INSTALL=1)"
    );
    match crate::ptxas::install() {
        Ok(p) => eprintln!("installed ptxas {} ({})", p.version, p.path.display()),
        Err(e) => eprintln!("{e}\ngoing on without ptxas"),
    }
}

/// `line` cut to `columns` characters (the last one `…` when cut).
fn clip(line: String, columns: usize) -> String {
    if line.chars().count() <= columns {
        return line;
    }
    let mut cut: String = line.chars().take(columns - 1).collect();
    cut.push('…');
    cut
}

/// `s` cut to `n` characters in the middle (`…`), keeping its start and its end: asynchronous
/// forms differ in their last qualifiers.
fn elide_middle(s: &str, n: usize) -> String {
    let chars: Vec<char> = s.chars().collect();
    if chars.len() <= n || n < 3 {
        return s.to_string();
    }
    let head = (n - 1) / 2;
    let tail = n - 1 - head;
    format!("{}…{}", chars[..head].iter().collect::<String>(), chars[chars.len() - tail..].iter().collect::<String>())
}

/// One line per known failing row, `form  backend  known: <id>`, columns aligned, each at most
/// [`KNOWN_LINE_COLUMNS`] wide: forms too long for the column are cut in the middle, the
/// backend and the known id never.
fn known_lines(rows: &RunRows) -> Vec<String> {
    let known: Vec<&RowLine> = rows.with(RowStatus::Known).collect();
    let ids = |r: &RowLine| if r.known.is_empty() { "(a corpus/known/ entry)".to_string() } else { r.known.join(", ") };
    let backend_w = known.iter().map(|r| r.backend.chars().count()).max().unwrap_or(0);
    let rest_w = known.iter().map(|r| 2 + backend_w + 2 + "known: ".len() + ids(r).chars().count()).max().unwrap_or(0);
    let most = known.iter().map(|r| r.form.chars().count()).max().unwrap_or(0);
    let form_w = most.min(KNOWN_LINE_COLUMNS.saturating_sub(2 + rest_w).max(16));
    known
        .iter()
        .map(|r| {
            let form = elide_middle(&r.form, form_w);
            clip(format!("  {form:form_w$}  {:backend_w$}  known: {}", r.backend, ids(r)), KNOWN_LINE_COLUMNS)
        })
        .collect()
}

/// The exit status of a run without a baseline: 1 when a row fails with a new finding or
/// without any finding (the machine stopped it), or — `strict` — fails at all; 0 when every
/// failing row fails with known findings only.
fn exit_status(rows: &RunRows, strict: bool) -> ExitCode {
    let new = rows.count(RowStatus::New) + rows.count(RowStatus::Failed);
    if new > 0 || (strict && rows.count(RowStatus::Known) > 0) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Prints the end of a conform run: totals per family and backend (they add up to the rows),
/// the known failing rows one line each, the new failures in full (every row with `verbose`),
/// totals, the report path, and what ran, what did not and what the verdict covers.
fn conform_summary(
    report: &crate::conform::Report,
    rows: &RunRows,
    verbose: bool,
    dir: &std::path::Path,
    rec: &crate::conform::Recording,
) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let table_row = |r: &crate::conform::Row| ConformRow {
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
    let families = family_totals(&rows.rows).into_iter().map(|t| FamilyRow {
        family: if t.family.is_empty() { "total".into() } else { t.family },
        backend: t.backend,
        rows: t.rows,
        inputs: t.inputs,
        agree: t.agree,
        known: t.known,
        new: t.new,
        failed: t.failed,
    });
    writeln!(out, "{}", Table::new(families).with(Style::modern()))?;
    let known = known_lines(rows);
    if !known.is_empty() {
        writeln!(out, "known failing rows ({}; corpus/known/ covers every finding of them):", known.len())?;
        for l in known {
            writeln!(out, "{l}")?;
        }
    }
    // The rows line up with the report's (run_rows keeps their order).
    let new: Vec<&crate::conform::Row> = report
        .rows
        .iter()
        .zip(&rows.rows)
        .filter(|(_, l)| matches!(l.status, RowStatus::New | RowStatus::Failed))
        .map(|(r, _)| r)
        .collect();
    if !new.is_empty() && !verbose {
        writeln!(out, "new failures:")?;
        writeln!(out, "{}", Table::new(new.iter().map(|r| table_row(r))).with(Style::modern()))?;
    }
    let inputs: u64 = report.rows.iter().map(|r| r.checked).sum();
    writeln!(
        out,
        "{} rows: {} agree, {} known, {} new, {} failed without a finding; {inputs} inputs checked, {:.1} s; \
         findings: {} new, {} known; report: {}",
        rows.rows.len(),
        rows.count(RowStatus::Agrees),
        rows.count(RowStatus::Known),
        rows.count(RowStatus::New),
        rows.count(RowStatus::Failed),
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
    let stages: Vec<&crate::backend::Stages> = report.rows.iter().filter_map(|r| r.stages.as_ref()).collect();
    if !stages.is_empty() {
        let sum = |f: fn(&crate::backend::Stages) -> f64| stages.iter().map(|s| f(s)).sum::<f64>();
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

/// Conform's default worker processes per device: [`crate::backend::pool::CONFORM_WORKERS`],
/// but no more than the forms a `--forms` glob selects (each worker costs a CUDA context; a
/// one-form run needs one).
fn conform_workers(target: Option<oracle::isa::Target>, forms: Option<&str>) -> usize {
    let most = crate::backend::pool::CONFORM_WORKERS;
    let Some(glob) = forms else { return most };
    let target = target.unwrap_or_else(|| "sm_90".parse().expect("sm_90 is a target"));
    let opcodes = |f| oracle::isa::valid_forms(&target, Some(f)).into_iter().map(|(f, _)| f.opcode());
    use oracle::isa::Family;
    let remote = [Family::Mbarrier, Family::Ld, Family::St];
    let async_forms = generator::async_cases::ASYNC_FAMILIES
        .into_iter()
        .flat_map(opcodes)
        .chain(remote.into_iter().flat_map(opcodes).filter(|op| generator::async_cases::is_remote_form(op)))
        .chain(generator::async_cases::OBJECT_FAMILIES.into_iter().flat_map(|f| {
            // `tensormap.replace` runs on the arch-specific twin (sm_90 → sm_90a).
            let twin = generator::async_cases::replace_target(&target).unwrap_or(target);
            oracle::isa::valid_forms(&twin, Some(f)).into_iter().map(|(f, _)| f.opcode())
        }))
        .filter(|op| crate::glob::glob_match(glob, op))
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    (crate::conform::select_forms(&target, Some(glob)).len() + async_forms).clamp(1, most)
}

pub(super) fn conform_cmd(a: ConformArgs) -> Result<ExitCode> {
    let target = if a.target == "auto" { None } else { Some(parse_target(&a.target)?) };
    let allow = Allowances::from_off(&a.allow_off)?;
    let sm_90: oracle::isa::Target = "sm_90".parse()?;
    // The default backends need ptxas; an explicit list only if it names a ptxas backend.
    if a.ptxas.ptxas.is_empty() && (a.backends.is_empty() || a.backends.iter().any(|b| b.contains("ptxas"))) {
        ensure_ptxas(a.no_install_ptxas);
    }
    let registry = crate::backend::Registry::new(crate::backend::Settings {
        // An `auto` target is known only once the GPU answers: the matrix is checked against
        // conform's fallback, sm_90.
        ptxas: a.ptxas.specs(target.as_ref().or(Some(&sm_90)))?,
        devices: a.gpus.devices(),
        workers: Some(a.gpus.workers.unwrap_or_else(|| conform_workers(target, a.forms.as_deref()))),
        allow: allow.clone(),
        sweep_timeout: std::time::Duration::from_secs(a.timeout),
    });
    let backends = crate::cli::fuzz::parse_backends(&a.backends);
    registry.check_names(&backends)?;
    let known = load_known(a.known.as_deref())?;
    if let Some(j) = a.jobs {
        rayon::ThreadPoolBuilder::new().num_threads(j).build_global().context("setting up the thread pool")?;
    }
    let reports = a.reports.unwrap_or_else(|| crate::paths::default_under_repo("PTXDIFF_REPORTS", "reports"));
    // Checked before the sweep, not after it: a run's report cannot go into a file.
    if reports.exists() && !reports.is_dir() {
        bail!("--reports {}: not a directory (give the folder the run's directory is made in)", reports.display());
    }
    if let Some(b) = &a.baseline {
        crate::runs::baseline::check_exists(b, crate::runs::record::RunKind::Conform)?;
    }
    let opts = crate::conform::Options {
        target,
        forms: a.forms,
        exhaustive: a.exhaustive,
        samples: a.samples,
        backends,
        cpu_check: a.cpu_check,
        allow_off: a.allow_off.clone(),
        shard: a.shard,
        no_async: a.no_async,
        mem_timeout: std::time::Duration::from_secs(a.timeout.min(crate::conform::async_rows::CASE_TIMEOUT_S)),
    };
    let run_id = format!(
        "conform-{}",
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
    );
    let mut report = crate::conform::run(&opts, &registry, &run_id)?;
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let known_now = if a.baseline.is_some() { Some(known.clone()) } else { None };
    let written = crate::conform::results::write_run(&reports, &mut report, &command, &allow, known)
        .with_context(|| format!("writing the run under {}", reports.display()))?;
    conform_summary(&report, &written.rows, a.verbose, &written.dir, &written.rec)?;
    if let (Some(b), Some(known)) = (&a.baseline, known_now) {
        let changes = crate::runs::baseline::check(b, &written.dir, &known)?;
        return Ok(crate::runs::baseline::exit_status(&changes, a.strict));
    }
    Ok(exit_status(&written.rows, a.strict))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::render::RowLine;

    fn known(form: &str, backend: &str, id: &str) -> RowLine {
        RowLine {
            family: "cvt".into(),
            form: form.into(),
            backend: backend.into(),
            inputs: 1,
            seconds: 0.0,
            verdict: "1 of 1 mismatching".into(),
            status: RowStatus::Known,
            new: vec![],
            known: vec![id.into()],
        }
    }

    /// A long asynchronous form is cut, the known id never; columns line up; exit 0 with only
    /// known findings, 1 with --strict or with a new one.
    #[test]
    fn known_rows_fit_in_120_columns_and_keep_their_id() {
        let long =
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster";
        let mut rows = RunRows {
            rows: vec![
                known("cvt.rna.tf32.f32", "cuda:ptxas-O3", "cvt-rna-tf32-nan"),
                known(long, "cuda:ptxas-O3", "tma-inner-coordinate-trap"),
            ],
            not_run: vec![],
        };
        let lines = known_lines(&rows);
        assert!(lines.iter().all(|l| l.chars().count() <= KNOWN_LINE_COLUMNS), "{lines:#?}");
        assert!(
            lines[0].starts_with("  cvt.rna.tf32.f32  ")
                && lines[0].ends_with("  cuda:ptxas-O3  known: cvt-rna-tf32-nan")
        );
        assert!(lines[1].starts_with("  cp.async.bulk.tensor.2d.shared::"), "{}", lines[1]);
        let cut = &lines[1];
        assert!(
            cut.contains('…') && cut.ends_with("multicast::cluster  cuda:ptxas-O3  known: tma-inner-coordinate-trap"),
            "{cut}"
        );
        let column = |l: &str| l[..l.find("cuda:").unwrap()].chars().count();
        assert_eq!(column(&lines[0]), column(&lines[1]), "{lines:#?}");
        assert_eq!(elide_middle("abcdefghij", 5), "ab…ij");
        assert_eq!(elide_middle("abc", 5), "abc");
        assert_eq!(exit_status(&rows, false), ExitCode::SUCCESS);
        assert_eq!(exit_status(&rows, true), ExitCode::FAILURE);
        rows.rows[0].status = RowStatus::Failed;
        assert_eq!(exit_status(&rows, false), ExitCode::FAILURE, "a row failed without a finding");
        rows.rows[0].status = RowStatus::New;
        assert_eq!(exit_status(&rows, false), ExitCode::FAILURE);
        rows.rows[0].status = RowStatus::Agrees;
        rows.rows[1].status = RowStatus::Agrees;
        assert_eq!(exit_status(&rows, true), ExitCode::SUCCESS);
    }
}
