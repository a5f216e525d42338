//! The command-line edge of `ptxdiff fuzz`, `ptxdiff replay` and `ptxdiff minimize`: argument
//! parsing into [`crate::fuzz::Options`] (backend names, `--ptxas`, `--devices`/`--workers`
//! ([`DeviceArgs`], shared with `conform`) and `--allow-off`,
//! which is parsed by `Allowances::from_off` and so rejects unknown names), messages, exit
//! status. Nonsense is an error before anything runs: counts of 0, a missing `--known`, a
//! backend named in `--backends` that cannot run here (only the default list falls back, with
//! a notice), `--out`, `--seed` or `--config` that contradict the campaign `--resume`
//! continues, a bad `--shard` and a `--baseline` that is no run. With `--baseline` the exit
//! status is [`crate::runs::baseline::exit_status`]'s.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use generator::minimize::{minimize_batched, Budget};
use generator::program::Config;
use oracle::isa::Target;
use oracle::program::interp::Plant;
use oracle::semantics::Allowances;

use crate::backend::pool::Devices;
use crate::backend::{parse_ptxas_specs, PtxasSpec, Registry, Settings};
use crate::findings::KnownSet;
use crate::fuzz::case::{CaseKind, Memory, Register};
use crate::fuzz::engine::{require_available, Engine};
use crate::fuzz::Options;

/// Parses `90s`, `15m`, `1h`, `2h30m` or plain seconds.
pub fn parse_duration(s: &str) -> Result<Duration> {
    let s = s.trim();
    let seconds = |n: f64| {
        Duration::try_from_secs_f64(n).map_err(|_| {
            anyhow::anyhow!("`{s}` is not a duration: it must be a finite, non-negative number of seconds")
        })
    };
    if let Ok(n) = s.parse::<f64>() {
        return seconds(n);
    }
    let mut total = 0.0;
    let mut num = String::new();
    for c in s.chars() {
        if c.is_ascii_digit() || c == '.' {
            num.push(c);
            continue;
        }
        let n: f64 = num.parse().with_context(|| format!("`{s}` is not a duration (e.g. 90s, 15m, 1h)"))?;
        total += n * match c {
            's' => 1.0,
            'm' => 60.0,
            'h' => 3600.0,
            _ => bail!("`{s}` is not a duration (e.g. 90s, 15m, 1h)"),
        };
        num.clear();
    }
    if !num.is_empty() {
        bail!("`{s}` is not a duration (e.g. 90s, 15m, 1h)");
    }
    seconds(total)
}

/// Parses `--backends`: the names given (empty: the registry's defaults; with a GPU, the
/// oracle and the GPU backends, and `ptxas-check`; GPU backends are left out when no GPU is
/// found). Names are checked by the registry.
pub fn parse_backends(names: &[String]) -> Vec<String> {
    names.iter().map(|n| n.trim().to_string()).filter(|n| !n.is_empty()).collect()
}

/// Parses a count that must be at least 1 (`--jobs`, `--batch`, `--programs`).
fn positive(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("`{s}` is not a count: {e}")),
    }
}

/// A share of a batch (`--mutate-share`): a number from 0 to 1.
fn share(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        Ok(x) => Err(format!("{x} is not a share of a batch: give a number from 0 to 1 (0.25: a quarter mutants)")),
        Err(e) => Err(format!("`{s}` is not a number: {e}")),
    }
}

/// Threads or processes per core that `--workers` and `--jobs` may ask for: more only waste
/// memory and start-up time (and 100,000 threads fail to start).
pub const MAX_PER_CORE: usize = 4;

/// The most programs in a batch (`--batch`): 16 times the default, a module ptxas takes
/// minutes over at the longest programs; far more ran out of memory before the first program.
pub const MAX_BATCH: usize = 4096;

/// Parses a count of threads or processes (`--workers`, `--jobs`): at least 1, at most
/// [`MAX_PER_CORE`] per core of this machine (and at least 16).
pub fn per_machine(s: &str) -> Result<usize, String> {
    let n = positive(s)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let max = (MAX_PER_CORE * cores).max(16);
    if n > max {
        return Err(format!("{n} is too many: at most {max} on this machine ({MAX_PER_CORE} per core, {cores} cores)"));
    }
    Ok(n)
}

/// Parses `--batch`: 1 to [`MAX_BATCH`] programs.
fn batch_count(s: &str) -> Result<usize, String> {
    let n = positive(s)?;
    if n > MAX_BATCH {
        return Err(format!("{n} programs per batch is too many: at most {MAX_BATCH}"));
    }
    Ok(n)
}

/// Which GPUs a command uses and how many worker processes run on each: `--devices`,
/// `--workers` and the older `--device N` (hidden; one device).
#[derive(Clone, Debug, Default, clap::Args)]
pub struct DeviceArgs {
    /// GPUs to run on: `all` (every visible device) or device ordinals (`0,2`); default 0.
    #[arg(long, value_parser = Devices::parse, conflicts_with = "device")]
    pub devices: Option<Devices>,
    /// One CUDA device ordinal (the older spelling of `--devices N`).
    #[arg(long, hide = true)]
    pub device: Option<u16>,
    /// Worker processes per device (and of `oracle-worker`); default: 8 for `conform` (no more than its forms), 1 for
    /// `replay` and `minimize` (one program), for `fuzz` the cores divided by the devices; at most 4 per core.
    #[arg(long, value_parser = per_machine)]
    pub workers: Option<usize>,
}

impl DeviceArgs {
    /// The devices asked for (device 0 when neither `--devices` nor `--device` is given).
    pub fn devices(&self) -> Devices {
        match (&self.devices, self.device) {
            (Some(d), _) => d.clone(),
            (None, Some(d)) => Devices::List(vec![i32::from(d)]),
            (None, None) => Devices::default(),
        }
    }
}

/// The ptxas options every command that builds backends takes.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct PtxasArgs {
    /// ptxas binaries side by side, `VERSION=PATH` (comma-separated): each gives the backends
    /// `cuda:ptxas-VERSION-O0`, `cuda:ptxas-VERSION-O3` and `ptxas-check-VERSION`.
    #[arg(long, value_delimiter = ',')]
    pub ptxas: Vec<String>,
    /// The ptxas version matrix: every ptxas under `.tools/ptxas/<VERSION>/` (installed by
    /// `ci/install-ptxas-versions`) and the one found otherwise (labelled by its release) become
    /// `--ptxas` entries, as do those given with `--ptxas`.
    #[arg(long)]
    pub ptxas_matrix: bool,
}

impl PtxasArgs {
    /// The ptxas entries of the run ([`ptxas_specs`]) for `target`.
    pub fn specs(&self, target: Option<&Target>) -> Result<Vec<PtxasSpec>> {
        ptxas_specs(&self.ptxas, self.ptxas_matrix, target)
    }
}

/// Parses `--ptxas VERSION=PATH,…`; with `--ptxas-matrix` (`matrix`), adds every ptxas of the
/// version matrix ([`crate::backend::ptxas_matrix`]) and, given the run's `target`, leaves out
/// (saying so once, on stderr) the releases that cannot assemble for it at all
/// ([`crate::backend::supporting`]).
pub fn ptxas_specs(entries: &[String], matrix: bool, target: Option<&Target>) -> Result<Vec<PtxasSpec>> {
    let explicit = parse_ptxas_specs(entries).map_err(anyhow::Error::msg)?;
    // A ptxas the user names is checked now: a missing or broken one is an error, not a
    // backend that quietly cannot run.
    for s in &explicit {
        crate::ptxas::Ptxas::at(&s.path).with_context(|| format!("--ptxas {}={}", s.label, s.path.display()))?;
    }
    if !matrix {
        return Ok(explicit);
    }
    let all =
        crate::backend::ptxas_matrix(&explicit, crate::backend::matrix_dir().as_deref()).map_err(anyhow::Error::msg)?;
    let Some(target) = target else { return Ok(all) };
    let (kept, left_out) = crate::backend::supporting(all, target);
    for (label, why) in &left_out {
        eprintln!(
            "ptxas {label} left out of the matrix: it cannot assemble for {target} ({why}); \
             a target with an older PTX ISA version (--target {}@8.4) lets older releases take part",
            target.name()
        );
    }
    if kept.is_empty() {
        bail!("--ptxas-matrix: no ptxas of the matrix assembles for {target}");
    }
    Ok(kept)
}

/// The backend options `replay` and `minimize` take.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct BackendArgs {
    /// Backends (default: all that this machine has).
    #[arg(long, value_delimiter = ',')]
    pub backends: Vec<String>,
    /// Switch allowances off (comma-separated names; see `ptxdiff allowances`).
    #[arg(long, value_delimiter = ',')]
    pub allow_off: Vec<String>,
    /// ptxas binaries (`--ptxas`, `--ptxas-matrix`).
    #[command(flatten)]
    pub ptxas: PtxasArgs,
    /// GPUs and workers per GPU.
    #[command(flatten)]
    pub gpus: DeviceArgs,
}

/// Loads a generator configuration file (TOML).
pub fn load_config(path: Option<&Path>) -> Result<Config> {
    let Some(path) = path else { return Ok(Config::default()) };
    let text = crate::atomic_write::read_capped(path).with_context(|| format!("reading {}", path.display()))?;
    toml::from_str(&text).with_context(|| format!("{}: not a valid generator configuration", path.display()))
}

/// Everything `ptxdiff fuzz` takes (the clap arguments of the subcommand).
#[derive(Clone, Debug, clap::Args)]
pub struct FuzzArgs {
    /// How long to run (`90s`, `15m`, `1h`).
    #[arg(long, default_value = "60s")]
    pub time: String,
    /// Campaign seed (default: from the clock; printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Target (`sm_90`, `sm_90a`, `sm_100a@8.8`); `auto` is sm_90.
    #[arg(long, default_value = "auto")]
    pub target: String,
    /// Backends (comma-separated: oracle, cuda:ptxas-O0, cuda:ptxas-O3, cuda:jit, ptxas-check,
    /// oracle-worker; with --ptxas, cuda:ptxas-VERSION-O0 …); default: all that this machine
    /// has.
    #[arg(long, value_delimiter = ',')]
    pub backends: Vec<String>,
    /// ptxas binaries (`--ptxas`, `--ptxas-matrix`).
    #[command(flatten)]
    pub ptxas: PtxasArgs,
    /// GPUs and workers per GPU.
    #[command(flatten)]
    pub gpus: DeviceArgs,
    /// Threads preparing batches (default: all cores; at most 4 per core).
    #[arg(long, value_parser = per_machine)]
    pub jobs: Option<usize>,
    /// Niceness (0–19) of the ptxas and nvdisasm processes, which prepare batches ahead of the
    /// batch the GPU workers' JIT is compiling now: at 10 they leave the JIT the cores it needs
    /// (docs/PERFORMANCE.md, session 58); 0 runs them at ptxdiff's own priority.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(0..=19))]
    pub tools_nice: u8,
    /// Generator configuration (TOML; see `generator::program::Config`).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Run directory (default: `reports/fuzz-<time>`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue the campaign in this run directory.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Programs per module (at most 4096).
    #[arg(long, default_value_t = 256, value_parser = batch_count)]
    pub batch: usize,
    /// Stop after this many programs.
    #[arg(long, value_parser = positive)]
    pub programs: Option<usize>,
    /// Do not minimize new findings.
    #[arg(long)]
    pub no_minimize: bool,
    /// Adapt the swarm weights toward the families and knobs that find new signatures (see
    /// `fuzz::adapt`). Off by default: on an H100 the rule drove almost every weight to its
    /// floor within minutes, because known findings are everywhere (docs/PERFORMANCE.md).
    #[arg(long)]
    pub adapt: bool,
    /// The share of each batch made by mutating programs of the campaign's coverage corpus
    /// (programs whose -O3 SASS added a new opcode, pair, or many new triples; `fuzz::corpus`),
    /// 0 to 1. Default 0.25 for a new campaign (docs/FUZZING.md says why); a resumed campaign
    /// keeps its own.
    #[arg(long, value_parser = share)]
    pub mutate_share: Option<f64>,
    /// Most predicate calls per minimization, counted as a one-candidate-at-a-time reduction makes them (up to 16 candidates run together).
    #[arg(long, default_value_t = 400)]
    pub minimize_calls: usize,
    /// Most wall seconds one minimization takes (it keeps what it has then), so one slow case —
    /// a crash, whose every candidate costs a GPU worker restart — cannot hold up the findings
    /// queued behind it. A duration as `--time` takes it (`60s`, `2m`).
    #[arg(long, default_value = "60s")]
    pub minimize_time: String,
    /// Minimization threads, each with backends and worker processes of its own, taking new
    /// findings from one queue (default 3, `fuzz::MINIMIZE_THREADS` says why: one thread
    /// reduced 14 findings of a 540 s H200 campaign while 63 waited; the campaign leaves about
    /// two of the 16 cores free, and one predicate run is small). More threads minimize more
    /// findings and take more cores from the campaign.
    #[arg(long, default_value_t = crate::fuzz::MINIMIZE_THREADS, value_parser = positive)]
    pub minimize_threads: usize,
    /// Switch allowances off (comma-separated names).
    #[arg(long, value_delimiter = ',')]
    pub allow_off: Vec<String>,
    /// Known findings (suppressed as data; default: `corpus/known` when it exists).
    #[arg(long)]
    pub known: Option<PathBuf>,
    /// Run only shard i of N of the campaign's batches (`2/3`): the N shards of one seed run
    /// disjoint programs that together are the unsharded campaign's.
    #[arg(long)]
    pub shard: Option<crate::runs::shard::Shard>,
    /// Compare with a stored campaign (its run directory or findings.json): new and gone
    /// finding signatures are printed and written as changes.json/changes.md, and the exit
    /// status is 1 only for new findings that the baseline lacks and corpus/known/ does not
    /// cover.
    #[arg(long)]
    pub baseline: Option<PathBuf>,
    /// Fuzz asynchronous copies instead: protocol-correct memory programs (mbarrier phases with
    /// bulk and tensor loads, cp.async pipelines, bulk stores and reductions; see
    /// `generator::async_programs`) on the oracle and the cuda:* backends, compared byte for
    /// byte. `--config` then takes an `AsyncConfig` (TOML), `--adapt` steers its switches, and
    /// `--resume DIR` continues a campaign of either kind as it was started.
    #[arg(long = "async")]
    pub async_mode: bool,
    /// Plant a deliberately wrong oracle rule (tests of the campaign itself; only in builds
    /// with the `test-hooks` feature, which the runner's own tests turn on).
    #[cfg(feature = "test-hooks")]
    #[arg(long, hide = true)]
    pub plant_bug: Option<String>,
    /// The command line (filled in by the binary, for the report).
    #[arg(skip)]
    pub command: String,
}

/// The planted oracle bug `--plant-bug` asks for (`test-hooks` builds only).
#[cfg(feature = "test-hooks")]
fn planted(a: &FuzzArgs) -> Result<Option<Plant>> {
    match a.plant_bug.as_deref() {
        None => Ok(None),
        Some("xor-as-or") => Ok(Some(Plant::XorAsOr)),
        Some(other) => bail!("unknown planted bug `{other}` (known: xor-as-or)"),
    }
}

/// Without `test-hooks` no bug can be planted.
#[cfg(not(feature = "test-hooks"))]
fn planted(_: &FuzzArgs) -> Result<Option<Plant>> {
    Ok(None)
}

/// The known-findings directory of `--known` (default `corpus/known`).
fn known_dir(a: &FuzzArgs) -> Result<PathBuf> {
    match &a.known {
        Some(dir) if !dir.is_dir() => {
            bail!("--known {}: no such directory (give the folder of known findings, e.g. corpus/known)", dir.display())
        }
        Some(dir) => Ok(dir.clone()),
        None => Ok(crate::paths::default_under_repo("PTXDIFF_KNOWN", "corpus/known")),
    }
}

/// `ptxdiff fuzz --async` ([`crate::fuzz::async_campaign`]), or the resumption of a memory-program
/// campaign (`stored`).
fn async_fuzz_command(
    a: &FuzzArgs,
    target: Target,
    run_dir: PathBuf,
    seed: u64,
    stored: Option<crate::fuzz::State>,
) -> Result<ExitCode> {
    use crate::fuzz::async_campaign::{run, AsyncOptions};
    if planted(a)?.is_some() {
        bail!("--plant-bug does not apply to `fuzz --async`");
    }
    let given_config = match &a.config {
        None => None,
        Some(path) => {
            let text = crate::atomic_write::read_capped(path).with_context(|| format!("reading {}", path.display()))?;
            Some(toml::from_str(&text).with_context(|| {
                format!("{}: not a valid async generator configuration (AsyncConfig)", path.display())
            })?)
        }
    };
    let config = match (stored.as_ref().and_then(|s| s.memory.as_ref()), given_config) {
        (Some(m), Some(c)) if m.config != c => bail!(
            "--config differs from the generator configuration of the campaign in {} (stored in campaign.json); drop --config",
            run_dir.display()
        ),
        (Some(m), _) => m.config.clone(),
        (None, c) => c.unwrap_or_default(),
    };
    if let Some(b) = &a.baseline {
        crate::runs::baseline::check_exists(b, crate::runs::record::RunKind::Fuzz)?;
    }
    let allow = Allowances::from_off(&a.allow_off)?;
    let o = AsyncOptions {
        time: parse_duration(&a.time)?,
        max_programs: a.programs.map(|n| n as u64),
        seed,
        target,
        backends: parse_backends(&a.backends),
        settings: Settings {
            ptxas: a.ptxas.specs(Some(&target))?,
            devices: a.gpus.devices(),
            workers: a.gpus.workers,
            allow,
            sweep_timeout: Duration::from_secs(120),
        },
        config,
        run_dir: run_dir.clone(),
        known_dir: known_dir(a)?,
        batch: a.batch,
        minimize: !a.no_minimize,
        minimize_calls: a.minimize_calls,
        minimize_seconds: parse_duration(&a.minimize_time).context("--minimize-time")?,
        minimize_threads: a.minimize_threads,
        command: a.command.clone(),
        progress: true,
        resume: stored.is_some(),
        shard: a.shard,
        adapt: a.adapt,
    };
    println!("fuzz --async: seed {seed}, target {target}, run directory {}", run_dir.display());
    let s = run(&o)?;
    if let Some(why) = &s.gpu_unavailable {
        println!("{}", gpu_unavailable_line(why));
        println!("ran the oracle only: every program was generated, built and run on the oracle");
    }
    println!("backends: {}", s.backends.join(", "));
    println!(
        "{} async programs in {:.1} s ({:.0} programs/s); {} undefined by the oracle; {} GPU runs; hangs {}",
        s.programs,
        s.seconds,
        s.programs as f64 / s.seconds.max(1e-9),
        s.undefined,
        s.gpu_runs,
        s.symptoms.get("hang").copied().unwrap_or(0)
    );
    if !s.symptoms.is_empty() {
        let list: Vec<String> = s.symptoms.iter().map(|(k, v)| format!("{k} {v}")).collect();
        println!("raw findings: {}", list.join(", "));
    }
    println!(
        "findings: {} new, {} duplicates, {} known; {} minimized ({} predicate calls)",
        s.new, s.duplicates, s.known, s.minimized.0, s.minimized.1
    );
    if s.campaign_programs != s.programs {
        println!("campaign: {} async programs over all sessions", s.campaign_programs);
    }
    println!("report: {}", run_dir.join("index.html").display());
    if s.undefined > 0 {
        return Ok(ExitCode::FAILURE);
    }
    if let Some(b) = &a.baseline {
        let known = if o.known_dir.is_dir() { KnownSet::load(&o.known_dir)? } else { KnownSet::empty() };
        let changes = crate::runs::baseline::check(b, &run_dir, &known)?;
        return Ok(crate::runs::baseline::exit_status(&changes, false));
    }
    Ok(if s.new > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

/// The run directory of `ptxdiff fuzz` (`--resume DIR`, `--out DIR`, or a new folder under
/// `reports/`) and, when resuming, the campaign stored there, checked against the options that
/// it fixed (`--out`, `--seed`: given again, they must agree with it).
fn campaign_dir(a: &FuzzArgs) -> Result<(PathBuf, Option<crate::fuzz::State>)> {
    let Some(run_dir) = a.resume.clone() else {
        let dir = a.out.clone().unwrap_or_else(|| {
            let ts = crate::fuzz::now_unix_s();
            let name = if a.async_mode { format!("fuzz-async-{ts}") } else { format!("fuzz-{ts}") };
            crate::paths::default_under_repo("PTXDIFF_REPORTS", "reports").join(name)
        });
        return Ok((dir, None));
    };
    let path = run_dir.join("campaign.json");
    let text = crate::atomic_write::read_capped(&path)
        .with_context(|| format!("{}: no campaign to resume", run_dir.display()))?;
    let stored = crate::fuzz::State::parse(&text, &path)?;
    if let Some(out) = a.out.as_ref().filter(|o| *o != &run_dir) {
        bail!(
            "--out {} conflicts with --resume {}: a resumed campaign writes into its own directory; drop --out",
            out.display(),
            run_dir.display()
        );
    }
    if let Some(given) = a.seed.filter(|&s| s != stored.seed) {
        bail!(
            "--seed {given} conflicts with the campaign in {} (seed {}); drop --seed",
            run_dir.display(),
            stored.seed
        );
    }
    Ok((run_dir, Some(stored)))
}

/// `ptxdiff fuzz`.
pub fn fuzz_command(a: FuzzArgs) -> Result<ExitCode> {
    let target: Target = if a.target == "auto" { "sm_90".parse()? } else { a.target.parse()? };
    let (run_dir, stored) = campaign_dir(&a)?;
    let resume = stored.is_some();
    let seed = stored.as_ref().map_or_else(
        || {
            a.seed.unwrap_or_else(|| {
                std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
            })
        },
        |s| s.seed,
    );
    // A resumed campaign is of the kind of program it was started with.
    if a.async_mode || stored.as_ref().is_some_and(|s| s.memory.is_some()) {
        return async_fuzz_command(&a, target, run_dir, seed, stored);
    }
    let plant = planted(&a)?;
    if let Some(stored) = &stored {
        if a.config.is_some() && load_config(a.config.as_deref())? != stored.config {
            bail!(
                "--config differs from the generator configuration of the campaign in {} (stored in campaign.json); drop --config",
                run_dir.display()
            );
        }
    }
    let known_dir = known_dir(&a)?;
    crate::ptxas::set_tool_niceness(a.tools_nice);
    let o = Options {
        time: parse_duration(&a.time)?,
        max_programs: a.programs.map(|n| n as u64),
        seed,
        target,
        backends: parse_backends(&a.backends),
        ptxas: a.ptxas.specs(Some(&target))?,
        devices: a.gpus.devices(),
        workers: a.gpus.workers,
        jobs: a.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get())),
        config: load_config(a.config.as_deref())?,
        run_dir: run_dir.clone(),
        known_dir,
        resume,
        batch: a.batch,
        minimize: !a.no_minimize,
        minimize_calls: a.minimize_calls,
        minimize_seconds: parse_duration(&a.minimize_time).context("--minimize-time")?,
        minimize_threads: a.minimize_threads,
        allow: Allowances::from_off(&a.allow_off)?,
        plant,
        command: a.command.clone(),
        progress: true,
        shard: a.shard,
        adapt: a.adapt,
        mutate_share: a
            .mutate_share
            .or(stored.as_ref().map(|s| s.mutate_share))
            .unwrap_or(crate::fuzz::corpus::DEFAULT_SHARE),
    };
    if let Some(b) = &a.baseline {
        crate::runs::baseline::check_exists(b, crate::runs::record::RunKind::Fuzz)?;
    }
    println!("fuzz: seed {seed}, target {target}, run directory {}", run_dir.display());
    let s = crate::fuzz::run(&o)?;
    if let Some(why) = &s.gpu_unavailable {
        println!("{}", gpu_unavailable_line(why));
        println!("ran the oracle and ptxas-check only (assembler rejections and crashes are still findings)");
    }
    println!("backends: {}", s.backends.join(", "));
    if s.programs != s.state.programs {
        println!("campaign: {} programs in {:.1} s over all sessions", s.state.programs, s.state.seconds);
    }
    // This session's programs over this session's time.
    println!(
        "{} programs in {:.1} s ({:.0} programs/s); {} new findings, {} duplicates, {} known; {} stored",
        s.programs,
        s.seconds,
        s.programs as f64 / s.seconds.max(1e-9),
        s.new,
        s.duplicates,
        s.known,
        s.stored
    );
    if s.state.invalid > 0 {
        println!("warning: {} generated programs were refused by the oracle (generator bugs)", s.state.invalid);
    }
    println!("{}", sass_line(&s));
    if let Some(line) = coverage_line(&s) {
        println!("{line}");
    }
    println!("report: {}", run_dir.join("index.html").display());
    if let Some(b) = &a.baseline {
        let known = if o.known_dir.is_dir() { KnownSet::load(&o.known_dir)? } else { KnownSet::empty() };
        let changes = crate::runs::baseline::check(b, &run_dir, &known)?;
        return Ok(crate::runs::baseline::exit_status(&changes, false));
    }
    Ok(if s.new > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

/// The line saying why no GPU backend runs: the reason as the backends gave it (the GPU's own
/// message already starts `GPU backend unavailable:`), said once.
fn gpu_unavailable_line(why: &str) -> String {
    const SAID: &str = "GPU backend unavailable";
    if why.starts_with(SAID) {
        why.to_string()
    } else {
        format!("{SAID}: {why}")
    }
}

/// The campaign's SASS-check line: what this session checked and flagged, and the class's
/// stored findings (the rest of what it flagged is known or a duplicate).
fn sass_line(s: &crate::fuzz::Summary) -> String {
    if let Some(why) = &s.sass_unavailable {
        return format!("SASS check: off ({why})");
    }
    let c = &s.sass;
    if c.modules == 0 {
        return "SASS check: no -O3 module to check (no backend assembles at -O3)".into();
    }
    let failed =
        if c.failed > 0 { format!(", {} modules unreadable (see the warnings)", c.failed) } else { String::new() };
    format!(
        "SASS check: {} kernels in {} -O3 modules{failed}; unwritten-register: {} raw ({} stored findings of the class; the rest known or duplicates)",
        c.kernels, c.modules, c.flagged, s.unwritten_stored
    )
}

/// The campaign's SASS-coverage line (none without the SASS check): the n-grams so far, those
/// new this session, and how many kernels added some.
fn coverage_line(s: &crate::fuzz::Summary) -> Option<String> {
    let c = &s.state.coverage;
    (s.sass_unavailable.is_none() && !c.is_empty()).then(|| {
        format!(
            "SASS coverage: {} opcode n-grams (+{} this session); {} of {} -O3 kernels added new ones",
            c.total, s.coverage_new, c.novel_kernels, c.kernels
        )
    })
}

fn load_case(path: &Path) -> Result<(oracle::program::Program, oracle::program::Inputs)> {
    let text = crate::atomic_write::read_capped(path).with_context(|| format!("reading {}", path.display()))?;
    Register::read_case(&text)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("{}: not a ptxdiff case file", path.display()))
}

/// Says so when a case breaks an invariant of generated programs (`generator::program::check`):
/// its GPU results need not be defined, so a difference may be the case's fault, not a bug.
fn warn_if_invalid(case: &Path, p: &oracle::program::Program) {
    if let Err(why) = generator::program::check_program(p) {
        println!(
            "warning: {} is not a valid generated program ({why}); a difference may be the case's own fault",
            case.display()
        );
    }
}

/// An engine for one case, and the guard of its scratch folder (removed when the guard drops,
/// whichever way the command ends).
fn engine_for(p: &oracle::program::Program, a: &BackendArgs) -> Result<(Engine, tempfile::TempDir)> {
    let registry = Registry::new(Settings {
        ptxas: a.ptxas.specs(None)?,
        devices: a.gpus.devices(),
        // One program runs on one worker; more would only start idle processes.
        workers: Some(a.gpus.workers.unwrap_or(1)),
        allow: Allowances::from_off(&a.allow_off)?,
        sweep_timeout: Duration::from_secs(120),
    });
    let names = parse_backends(&a.backends);
    let explicit = !names.is_empty();
    let names = if explicit { names } else { registry.fuzz_defaults() };
    let scratch = tempfile::tempdir()?;
    let mut engine = Engine::new(&registry, &names, p.target, None, scratch.path().to_path_buf())?;
    require_available(explicit, &engine)?;
    // The known root causes emulated as in a campaign, so that a replay says which words they
    // explain and a minimization keeps what they leave unexplained (not reduce onto one).
    let known_dir = crate::paths::default_under_repo("PTXDIFF_KNOWN", "corpus/known");
    if known_dir.is_dir() {
        let known = KnownSet::load(&known_dir)
            .with_context(|| format!("loading known findings from {}", known_dir.display()))?;
        engine.emulate = known.emulation_scopes();
    }
    // The SASS check of the -O3 assembly, as in a campaign (reads of never-written registers).
    if engine.has_sass_level() {
        match crate::sass::Checker::find() {
            Ok(c) => engine.sass = Some(c),
            Err(e) => println!("SASS check off: {e}"),
        }
    }
    Ok((engine, scratch))
}

/// `ptxdiff replay CASE…`: runs a case of either kind (a register case, or a memory case: an
/// eval program line) on every backend and shows what disagrees; several register cases run
/// as one batch (one module, in the order given; distinct program names, one target), each
/// case's findings after its path.
pub fn replay_command(cases: &[std::path::PathBuf], backends: &BackendArgs) -> Result<ExitCode> {
    let Some(first) = cases.first() else { bail!("no case given") };
    let text = crate::atomic_write::read_capped(first).with_context(|| format!("reading {}", first.display()))?;
    if text.trim_start().starts_with('{') {
        if cases.len() > 1 {
            bail!("{}: a memory-program case replays alone", first.display());
        }
        return replay_memory(first, &text, backends);
    }
    let mut programs = Vec::with_capacity(cases.len());
    let mut inputs = Vec::with_capacity(cases.len());
    for case in cases {
        let (p, i) = load_case(case)?;
        warn_if_invalid(case, &p);
        if let Some(k) = programs.iter().position(|q: &oracle::program::Program| q.name == p.name) {
            bail!(
                "{} and {} both hold a program named `{}`: one batch needs distinct names",
                cases[k].display(),
                case.display(),
                p.name
            );
        }
        if let Some(q) = programs.first().filter(|q| q.target != p.target) {
            bail!(
                "{} is for {}, {} for {}: one batch has one target",
                cases[0].display(),
                q.target,
                case.display(),
                p.target
            );
        }
        programs.push(p);
        inputs.push(i);
    }
    let (mut engine, _scratch) = engine_for(&programs[0], backends)?;
    if let Some(why) = &engine.gpu_unavailable {
        println!("{}", gpu_unavailable_line(why));
    }
    let names = replay_names(engine.backend_names());
    let results = engine.run(&programs, &inputs, "replay");
    let mut status = ExitCode::SUCCESS;
    for ((case, p), r) in cases.iter().zip(&programs).zip(&results) {
        if let Err(e) = &r.expected {
            bail!("{}: the oracle refuses this program: {e}", case.display());
        }
        let found = Register::raw_findings(p, r, &engine.allow);
        if !found.is_empty() {
            status = ExitCode::FAILURE;
        }
        show_found::<Register>(case, &names, &found, cases.len() > 1);
    }
    Ok(status)
}

/// The backends a replay names, printed: the oracle (the reference, named once whether or not
/// it was asked for), then the others.
fn replay_names(backends: Vec<String>) -> Vec<String> {
    let mut names = vec![crate::backend::oracle::NAME.to_string()];
    names.extend(backends.into_iter().filter(|n| n != crate::backend::oracle::NAME));
    println!("backends: {}", names.join(", "));
    names
}

/// `ptxdiff replay` of a memory case: on the oracle and the GPU backends asked for (or this
/// machine's).
fn replay_memory(case: &Path, text: &str, a: &BackendArgs) -> Result<ExitCode> {
    let src = Memory::read_case(text)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("{}: not a ptxdiff case file", case.display()))?;
    let allow = Allowances::from_off(&a.allow_off)?;
    let registry = Registry::new(Settings {
        ptxas: a.ptxas.specs(None)?,
        devices: a.gpus.devices(),
        workers: Some(a.gpus.workers.unwrap_or(1)),
        allow: allow.clone(),
        sweep_timeout: Duration::from_secs(120),
    });
    let mut sel = crate::fuzz::async_campaign::gpu_backends(&registry, &parse_backends(&a.backends))?;
    if sel.backends.is_empty() {
        let why = registry
            .context()
            .gpu_unavailable()
            .unwrap_or_else(|| sel.unavailable.iter().map(|(n, w)| format!("{n}: {w}")).collect::<Vec<_>>().join("; "));
        if !why.is_empty() {
            println!("{}", gpu_unavailable_line(&why));
        }
    }
    let names = replay_names(sel.backends.iter().map(|b| b.name()).collect());
    let found = crate::fuzz::async_campaign::replay(&src, &mut sel.backends, &allow)?;
    Ok(show_found::<Memory>(case, &names, &found, false))
}

/// Prints what a replay found (each raw finding as its kind describes it, after the case's
/// path when `named`: one of several cases) and gives the exit status: 0 when nothing
/// disagrees, 1 otherwise.
fn show_found<K: CaseKind>(case: &Path, names: &[String], found: &[K::Raw], named: bool) -> ExitCode {
    if found.is_empty() {
        if names.len() == 1 {
            println!("{}: only the oracle ran, so nothing was compared (see the backends above)", case.display());
        } else {
            println!("{}: every backend agrees with the oracle", case.display());
        }
        return ExitCode::SUCCESS;
    }
    for f in found {
        if named {
            println!("{}: {}", case.display(), K::describe(f));
        } else {
            println!("{}", K::describe(f));
        }
    }
    ExitCode::FAILURE
}

/// `ptxdiff minimize CASE`: reduces a case while its first finding reproduces.
pub fn minimize_command(
    case: &Path,
    out: Option<&Path>,
    force: bool,
    backends: &BackendArgs,
    calls: usize,
) -> Result<ExitCode> {
    let out = out.map(Path::to_path_buf).unwrap_or_else(|| case.with_extension("min.case"));
    // Refused before the work, not after it.
    crate::atomic_write::check_output(&out, force)?;
    let (p, i) = load_case(case)?;
    warn_if_invalid(case, &p);
    let (mut engine, _scratch) = engine_for(&p, backends)?;
    let r = engine.run(std::slice::from_ref(&p), std::slice::from_ref(&i), "min");
    let Some(first) = Register::raw_findings(&p, &r[0], &engine.allow).into_iter().next() else {
        bail!("{}: no backend disagrees with the oracle; nothing to minimize", case.display());
    };
    let pre = Register::pre_signature(&first);
    if first.class != crate::findings::FindingClass::UnwrittenRegister {
        // Only an unwritten-register finding needs the SASS of every candidate.
        engine.sass = None;
    }
    println!("minimizing while `{pre}` reproduces");
    let batch = crate::fuzz::minimize::max_batch(first.class);
    let red =
        minimize_batched(&p, &i, Budget::calls(calls), batch, crate::fuzz::minimize::still_shows(&mut engine, &pre));
    if red.reproduced == Some(false) {
        bail!(
            "{}: `{pre}` did not show again on a second run; nothing written (is the case deterministic?)",
            case.display()
        );
    }
    crate::atomic_write::write_new(&out, Register::write_case(&(red.program.clone(), red.inputs.clone())), force)?;
    println!(
        "{} → {} instructions, {} threads, {} predicate calls made in {} runs of {} candidates ({} invalid candidates refused without a run): {}",
        red.before,
        red.after,
        red.program.threads(),
        red.calls,
        red.runs,
        red.shown,
        red.refused,
        out.display()
    );
    println!("replay: ptxdiff replay {}", out.display());
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("90s").unwrap(), Duration::from_secs(90));
        assert_eq!(parse_duration("15m").unwrap(), Duration::from_secs(900));
        assert_eq!(parse_duration("1h30m").unwrap(), Duration::from_secs(5400));
        assert_eq!(parse_duration("2.5").unwrap(), Duration::from_secs_f64(2.5));
        assert!(parse_duration("5x").is_err() && parse_duration("m").is_err() && parse_duration("10m5").is_err());
        for bad in ["inf", "-1", "NaN", "1e30", "-5s"] {
            assert!(parse_duration(bad).is_err(), "{bad} must be an error, not a panic");
        }
    }
}
