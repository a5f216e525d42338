//! `ptxdiff report`: re-render a findings run, `report diff` (what changed from a baseline)
//! and `report merge` (shards into one report).

use std::process::ExitCode;

use anyhow::{bail, Context, Result};

pub(super) fn report_cmd(dir: &std::path::Path) -> Result<ExitCode> {
    use crate::findings::{render, FindingsDoc};
    let doc = FindingsDoc::load(dir).with_context(|| format!("loading the findings run {}", dir.display()))?;
    // A conform run's reports have its rows too.
    let rows = match dir.join(crate::conform::results::ROWS_JSON).is_file() {
        true => crate::runs::record::RunRecord::load(dir)?.report.map(|r| r.run_rows(&doc)),
        false => None,
    };
    // Re-rendering writes the run's reports: not while a run is writing it.
    let _lock = crate::findings::store::RunLock::acquire(dir)?;
    let paths = render::write_all(dir, &doc, rows.as_ref())
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
pub(super) fn load_known(given: Option<&std::path::Path>) -> Result<crate::findings::KnownSet> {
    let dir = match given {
        Some(k) if !k.is_dir() => bail!("--known {}: no such directory (corpus/known/ of the repository)", k.display()),
        Some(k) => k.to_path_buf(),
        None => crate::paths::default_under_repo("PTXDIFF_KNOWN", "corpus/known"),
    };
    if !dir.is_dir() {
        return Ok(crate::findings::KnownSet::empty());
    }
    crate::findings::KnownSet::load(&dir).with_context(|| format!("loading known findings from {}", dir.display()))
}

/// `ptxdiff report diff RUN_A RUN_B`.
pub(super) fn report_diff(
    a: &std::path::Path,
    b: &std::path::Path,
    out: Option<&std::path::Path>,
    known: Option<&std::path::Path>,
    force: bool,
) -> Result<ExitCode> {
    use crate::runs::record::RunRecord;
    let known = load_known(known)?;
    let base = RunRecord::load(a)?;
    let run = RunRecord::load(b)?;
    let changes = crate::runs::compare::compare(&base, &run, &known)?;
    for line in changes.lines() {
        println!("{line}");
    }
    if let Some(out) = out {
        if std::fs::symlink_metadata(out).is_ok_and(|m| !m.is_dir()) {
            bail!("--out {}: is not a directory (give a directory for changes.json and changes.md)", out.display());
        }
        std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
        changes.write(out, force).with_context(|| format!("writing the changes into {}", out.display()))?;
        println!("wrote {}", out.join(crate::runs::compare::CHANGES_MD).display());
    }
    Ok(crate::runs::baseline::exit_status(&changes, false))
}

/// `ptxdiff report merge RUN… --out DIR`.
pub(super) fn report_merge(runs: &[std::path::PathBuf], out: &std::path::Path) -> Result<ExitCode> {
    let records = runs.iter().map(|r| crate::runs::record::RunRecord::load(r)).collect::<Result<Vec<_>, _>>()?;
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let m = crate::runs::merge::merge(&records, out, &command)?;
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
