//! A campaign's run directory: whether a campaign may use it (new and empty, or a campaign to
//! resume; never through symbolic links), its lock, the campaign state (`campaign.json`) and the
//! finding store, opened as a new campaign or a resumed one. Shared by both kinds of campaign
//! (`fuzz`, `fuzz --async`).

use anyhow::{bail, Context};

use super::{State, SCRATCH, STATE};
use crate::atomic_write::write_atomic;
use crate::findings::{FindingStore, KnownSet, RunMeta};

/// Checks that a campaign may use `dir`: a new campaign needs a missing or empty directory
/// (ptxdiff would otherwise overwrite or delete files it did not create); a resumed one needs
/// a campaign there. Neither may be, or have its folders be, symbolic links.
fn check_run_dir(dir: &std::path::Path, resume: bool) -> anyhow::Result<()> {
    use crate::findings::store::{refuse_links, CASES_DIR, FINDINGS_DIR, LOCK_FILE};
    refuse_links(dir, &[FINDINGS_DIR, CASES_DIR, SCRATCH])?;
    let Ok(meta) = std::fs::metadata(dir) else { return Ok(()) };
    if !meta.is_dir() {
        bail!("{} is not a directory: give a new or empty directory for the campaign", dir.display());
    }
    let has_campaign = dir.join(STATE).is_file();
    let mut entries = dir.read_dir().with_context(|| format!("reading {}", dir.display()))?;
    if resume || entries.all(|e| e.is_ok_and(|e| e.file_name() == LOCK_FILE)) {
        return Ok(());
    }
    if has_campaign {
        bail!(
            "{} already holds a campaign: `ptxdiff fuzz --resume {}` continues it; give `--out` a new or empty directory to start another",
            dir.display(),
            dir.display()
        );
    }
    bail!(
        "{} is not empty and holds no campaign; ptxdiff writes its reports there and would overwrite or delete files it did not create: give `--out` a new or empty directory (`--resume DIR` continues a campaign)",
        dir.display()
    );
}

/// Checks `dir` for a campaign ([`check_run_dir`]), creates it if missing, takes its lock
/// (a second campaign on the folder is an error naming the holder's pid) and checks it again
/// under the lock (another campaign may have started there in between).
pub fn lock_run_dir(dir: &std::path::Path, resume: bool) -> anyhow::Result<crate::findings::store::RunLock> {
    // A folder a run has locked before: the lock first, so that a run in progress is named as
    // such; elsewhere the check first, so that no lock file is left in a folder that is refused.
    if !dir.join(crate::findings::store::LOCK_FILE).is_file() {
        check_run_dir(dir, resume)?;
    }
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let lock = crate::findings::store::RunLock::acquire(dir)?;
    check_run_dir(dir, resume)?;
    Ok(lock)
}

/// The campaign state at `path`: with `resume`, the stored one, which must have `fresh`'s
/// seed, target, shard and kind of program (an error names the difference); otherwise
/// `fresh`, on disk before the first batch so that a campaign killed in that batch resumes
/// (from batch 0) like one killed later.
pub fn open_state(path: &std::path::Path, resume: bool, fresh: State) -> anyhow::Result<State> {
    if !resume {
        write_atomic(path, &serde_json::to_string_pretty(&fresh)?)?;
        return Ok(fresh);
    }
    let text = crate::atomic_write::read_capped(path)
        .with_context(|| format!("{}: no campaign to resume here (start one without --resume)", path.display()))?;
    let s = State::parse(&text, path)?;
    if s.seed != fresh.seed || s.target != fresh.target {
        bail!("{}: the campaign used seed {} and target {}; resume with those", path.display(), s.seed, s.target);
    }
    if s.shard != fresh.shard {
        let name =
            |s: Option<crate::runs::shard::Shard>| s.map_or_else(|| "no --shard".into(), |s| format!("--shard {s}"));
        bail!("{}: the campaign ran with {}; resume with that", path.display(), name(s.shard));
    }
    if s.memory.is_some() != fresh.memory.is_some() {
        let kind = |m: bool| if m { "memory programs (`fuzz --async`)" } else { "register programs" };
        bail!(
            "{}: the campaign fuzzes {}, not {}; resume it as it was started",
            path.display(),
            kind(s.memory.is_some()),
            kind(fresh.memory.is_some())
        );
    }
    Ok(s)
}

/// The finding store of a campaign in `run_dir`: the stored one when resuming a campaign that
/// has one, otherwise a new one with the run's `meta`; known hits' and duplicates' counts are
/// written once per batch ([`FindingStore::defer_counts`]), new findings at once.
pub fn open_store(
    resume: bool,
    run_dir: &std::path::Path,
    known: KnownSet,
    meta: impl FnOnce() -> RunMeta,
) -> anyhow::Result<FindingStore> {
    let mut store = if resume && run_dir.join(crate::findings::store::FINDINGS_JSON).exists() {
        FindingStore::open(run_dir, known)?
    } else {
        FindingStore::create(run_dir, meta(), known)?
    };
    // A campaign records hundreds of known hits per batch: their counts are written once per
    // batch (`FindingStore::flush`), before its checkpoint; new findings at once.
    store.defer_counts();
    Ok(store)
}
