//! The on-disk store of one run's findings (a fuzz campaign or a conform sweep): `RUN/findings.json` (canonical: run metadata,
//! every finding, known-finding counts), `RUN/findings/<id>.json` (one per finding) and
//! `RUN/cases/<id>.case` (the caller's replayable case text).
//!
//! Invariants:
//! - Nothing is lost: [`FindingStore::record`] writes the case file, then the finding's own
//!   file, then `findings.json`, each atomically and durably ([`write_atomic`]), all before it
//!   returns. A process killed at any point leaves either the old state or a state that
//!   [`FindingsDoc::load`] completes: a per-finding file missing from `findings.json` (or with
//!   a higher count) is merged back in, and stray `*.tmp` files are ignored.
//! - One signature, one finding: a finding whose key is already stored only increments its
//!   `count` (every count saturates at `u64::MAX`, never wraps); a finding that a [`KnownSet`] entry covers is never stored as a finding, only
//!   counted under that entry's name. Known entries are checked first, so a run resumed with
//!   a newer `corpus/known/` stops adding to findings that have since become known.
//! - `id == signature.key()` for every stored finding; files are named by that key.
//! - One writer per run directory at a time: a run that writes one (a campaign, its resumption,
//!   a merge, a re-render) holds its [`RunLock`] (`flock` on `RUN/.ptxdiff.lock`, which names
//!   the holder's pid; released when the holder ends, `kill -9` included), and a second writer
//!   is an error naming the folder and that pid. Readers may run alongside.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::finding::Finding;
use super::known::KnownSet;
use super::signature::{FindingClass, Signature};
use crate::atomic_write::{is_temp, write_atomic};

/// Version of the `findings.json` layout this code writes and reads.
pub const FORMAT_VERSION: u32 = 1;
/// Mismatching words kept per finding (the first ones the caller gives).
pub const MAX_MISMATCHES: usize = 32;
/// Distinct signatures remembered per known entry (counts beyond go to the total only).
pub const MAX_KNOWN_SIGNATURES: usize = 64;
/// File name of the canonical document.
pub const FINDINGS_JSON: &str = "findings.json";
/// Directory of per-finding files.
pub const FINDINGS_DIR: &str = "findings";
/// Directory of case files.
pub const CASES_DIR: &str = "cases";
/// Directory of the cases of findings counted known only after reducing on
/// ([`FindingStore::keep_known_case`]).
pub const KNOWN_CASES_DIR: &str = "known-cases";

/// Why the store could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A file is not valid JSON of the expected shape.
    #[error(
        "{}:{line}:{column}: {message} (the file is corrupt: fix it, or move it away; findings.json is rebuilt from findings/*.json when missing)",
        path.display()
    )]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// A file parses but breaks an invariant (wrong id, newer format).
    #[error("{}: {message}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong and what to do.
        message: String,
    },
    /// The directory holds no run.
    #[error(
        "{} is not a findings run directory: it has neither findings.json nor findings/ (give the directory a `ptxdiff fuzz` or `ptxdiff conform` run wrote, e.g. reports/RUN)",
        dir.display()
    )]
    NotARun {
        /// The directory.
        dir: PathBuf,
    },
    /// `create` on a directory that already holds a run.
    #[error("{} already holds a findings run (findings.json exists): open it to resume, or choose a new directory", dir.display())]
    AlreadyExists {
        /// The directory.
        dir: PathBuf,
    },
    /// Another process holds the run directory's [`RunLock`].
    #[error(
        "{} is in use by another ptxdiff run ({}); two runs writing one folder would mix their findings: wait for it to finish, or give another directory",
        dir.display(),
        pid.map_or_else(|| "its pid not written yet".to_string(), |p| format!("process {p}"))
    )]
    Locked {
        /// The run directory.
        dir: PathBuf,
        /// The holder's pid, as it wrote it.
        pid: Option<u32>,
    },
    /// Serializing failed (not expected for these types).
    #[error("serializing findings: {0}")]
    Serialize(#[from] serde_json::Error),
}

/// Refuses `run_dir` or any of its sub-folders `subs` that is a symbolic link: a run
/// directory is written and cleaned up, and neither may reach through a link to files that
/// are not the run's.
pub fn refuse_links(run_dir: &Path, subs: &[&str]) -> Result<(), StoreError> {
    let all = std::iter::once(run_dir.to_path_buf()).chain(subs.iter().map(|s| run_dir.join(s)));
    for path in all {
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(StoreError::Invalid {
                path,
                message: "is a symbolic link; ptxdiff does not write or clean up through links in a run directory: give the real path, or replace the link with a folder".into(),
            });
        }
    }
    Ok(())
}

/// The lock file of a run directory ([`RunLock`]); the only file of an otherwise empty folder
/// that does not make it a run.
pub const LOCK_FILE: &str = ".ptxdiff.lock";

/// The exclusive right to write a run directory (see the module docs); released on drop.
#[derive(Debug)]
pub struct RunLock {
    _file: std::fs::File,
}

impl RunLock {
    /// Takes the lock of `run_dir` (which must exist) without waiting: [`StoreError::Locked`]
    /// when another process holds it. The lock file is opened without following a link.
    pub fn acquire(run_dir: &Path) -> Result<RunLock, StoreError> {
        use std::io::{Read as _, Seek as _, Write as _};
        use std::os::unix::fs::OpenOptionsExt as _;
        use std::os::unix::io::AsRawFd as _;
        let path = run_dir.join(LOCK_FILE);
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path)
            .map_err(io_err(&path))?;
        // A lock this process released may still be held for a moment by a child it is forking
        // (the child shares the lock until its exec closes the file): that holder is waited for.
        let mut tries = 0;
        loop {
            // SAFETY: flock only takes an advisory lock on the descriptor `file` owns.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
                break;
            }
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::WouldBlock {
                return Err(StoreError::Io { path, source: e });
            }
            let mut text = String::new();
            let _ = file.rewind().and_then(|()| file.read_to_string(&mut text));
            let pid: Option<u32> = text.trim().parse().ok();
            tries += 1;
            if pid != Some(std::process::id()) || tries > 100 {
                return Err(StoreError::Locked { dir: run_dir.to_path_buf(), pid });
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let write = |f: &mut std::fs::File| -> std::io::Result<()> {
            f.set_len(0)?;
            f.rewind()?;
            f.write_all(std::process::id().to_string().as_bytes())?;
            f.sync_all()
        };
        write(&mut file).map_err(io_err(&path))?;
        Ok(RunLock { _file: file })
    }
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io { path: path.to_path_buf(), source }
}

/// What the run says about itself.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunMeta {
    /// Run id (by default the run directory's name).
    pub run_id: String,
    /// The command that wrote the run (`conform`, `fuzz`, `merge`); empty in runs written
    /// before it was recorded.
    pub kind: String,
    /// Start time, seconds since the Unix epoch.
    pub started_unix_s: u64,
    /// End time, seconds since the Unix epoch (0: not recorded, e.g. a campaign still running).
    pub ended_unix_s: u64,
    /// The command line that started it.
    pub command: String,
    /// Target (`sm_90`).
    pub target: String,
    /// Device, driver, ptxas version, backends.
    pub environment: Vec<(String, String)>,
    /// Anything else worth showing (seed, programs run, seconds): free-form.
    pub extra: BTreeMap<String, String>,
}

/// Occurrences of one known finding in this run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct KnownHit {
    /// The known entry's name (its file stem in `corpus/known/`).
    pub id: String,
    /// Its reason.
    pub reason: String,
    /// Its evidence.
    pub evidence: String,
    /// Its link.
    pub link: Option<String>,
    /// Occurrences.
    pub count: u64,
    /// Occurrences per distinct signature (its `Display`), at most [`MAX_KNOWN_SIGNATURES`].
    pub signatures: BTreeMap<String, u64>,
}

/// The canonical document, `findings.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FindingsDoc {
    /// [`FORMAT_VERSION`] of the writer.
    pub format: u32,
    /// Run metadata.
    #[serde(default)]
    pub run: RunMeta,
    /// Every finding, in the order first seen.
    #[serde(default)]
    pub findings: Vec<Finding>,
    /// Known findings seen, in the order first seen.
    #[serde(default)]
    pub known: Vec<KnownHit>,
}

fn parse_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, StoreError> {
    let text = crate::atomic_write::read_capped(path).map_err(io_err(path))?;
    serde_json::from_str(&text).map_err(|e| StoreError::Corrupt {
        path: path.to_path_buf(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })
}

impl FindingsDoc {
    /// An empty document.
    pub fn new(run: RunMeta) -> FindingsDoc {
        FindingsDoc { format: FORMAT_VERSION, run, findings: Vec::new(), known: Vec::new() }
    }

    /// Loads a run directory without writing anything: `findings.json`, completed by every
    /// `findings/*.json` it lacks or that counts more (a write interrupted between the two).
    /// With no `findings.json` but a `findings/` directory, rebuilds from the latter (run
    /// metadata and known counts are then empty).
    pub fn load(run_dir: &Path) -> Result<FindingsDoc, StoreError> {
        Ok(Self::load_merged(run_dir)?.0)
    }

    /// [`FindingsDoc::load`], and whether the merge changed anything relative to
    /// `findings.json`.
    fn load_merged(run_dir: &Path) -> Result<(FindingsDoc, bool), StoreError> {
        let json = run_dir.join(FINDINGS_JSON);
        let per_finding = run_dir.join(FINDINGS_DIR);
        let (mut doc, mut changed) = if json.is_file() {
            let doc: FindingsDoc = parse_json(&json)?;
            if doc.format > FORMAT_VERSION {
                return Err(StoreError::Invalid {
                    path: json,
                    message: format!(
                        "format {} was written by a newer ptxdiff (this one reads format {FORMAT_VERSION}): use that version",
                        doc.format
                    ),
                });
            }
            (doc, false)
        } else if per_finding.is_dir() {
            let run_id = run_dir.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            (FindingsDoc::new(RunMeta { run_id, ..RunMeta::default() }), true)
        } else {
            return Err(StoreError::NotARun { dir: run_dir.to_path_buf() });
        };
        if per_finding.is_dir() {
            let mut files = Vec::new();
            for e in std::fs::read_dir(&per_finding).map_err(io_err(&per_finding))? {
                let path = e.map_err(io_err(&per_finding))?.path();
                if !is_temp(&path) && path.extension().is_some_and(|x| x == "json") {
                    files.push(path);
                }
            }
            files.sort();
            let mut extra = Vec::new();
            for path in files {
                let f: Finding = parse_json(&path)?;
                let key = f.signature.key();
                if f.id != key || path.file_stem().is_none_or(|s| s != key.as_str()) {
                    return Err(StoreError::Invalid {
                        path,
                        message: format!(
                            "id `{}` is not its signature's key `{key}` (or not its file name): the file was edited; restore it or remove it",
                            f.id
                        ),
                    });
                }
                match doc.findings.iter_mut().find(|x| x.id == f.id) {
                    Some(x) if f.count > x.count => {
                        *x = f;
                        changed = true;
                    }
                    Some(_) => {}
                    None => extra.push(f),
                }
            }
            extra.sort_by(|a, b| a.first_seen_s.total_cmp(&b.first_seen_s));
            changed |= !extra.is_empty();
            doc.findings.extend(extra);
        }
        Ok((doc, changed))
    }

    /// Occurrences of new (not known) findings (saturating at `u64::MAX`, never wrapping).
    pub fn occurrences(&self) -> u64 {
        self.findings.iter().fold(0, |n, f| n.saturating_add(f.count))
    }

    /// Occurrences of known findings (saturating at `u64::MAX`, never wrapping).
    pub fn known_occurrences(&self) -> u64 {
        self.known.iter().fold(0, |n, k| n.saturating_add(k.count))
    }

    /// Per class: (distinct findings, occurrences), for every class in [`FindingClass::ALL`] order.
    pub fn by_class(&self) -> Vec<(FindingClass, usize, u64)> {
        FindingClass::ALL
            .iter()
            .map(|&c| {
                let fs = self.findings.iter().filter(|f| f.signature.class == c);
                let (n, occ) = fs.fold((0, 0u64), |(n, o), f| (n + 1, o.saturating_add(f.count)));
                (c, n, occ)
            })
            .collect()
    }

    /// Findings in report order: by class ([`FindingClass::ALL`] order), then first seen.
    pub fn sorted_findings(&self) -> Vec<&Finding> {
        let mut v: Vec<&Finding> = self.findings.iter().collect();
        v.sort_by(|a, b| {
            let rank = |f: &Finding| FindingClass::ALL.iter().position(|&c| c == f.signature.class);
            rank(a).cmp(&rank(b)).then(a.first_seen_s.total_cmp(&b.first_seen_s))
        });
        v
    }
}

/// The counts of a store at one moment ([`FindingStore::checkpoint`]): what a campaign's
/// state records with each batch it counts, so that a resumed campaign can take back what the
/// batches it runs again had already recorded ([`FindingStore::rollback`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Checkpoint {
    /// Occurrences per stored finding id.
    pub findings: BTreeMap<String, u64>,
    /// Occurrences per known entry, and per signature of it.
    pub known: BTreeMap<String, (u64, BTreeMap<String, u64>)>,
}

/// What [`FindingStore::record`] did with a finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recorded {
    /// A new signature: stored, with its case file.
    New,
    /// Covered by the known entry of this name: counted there.
    Known(String),
    /// Already stored: its count went up.
    Duplicate,
}

/// The findings of one run directory, kept on disk as they are recorded.
#[derive(Debug)]
pub struct FindingStore {
    dir: PathBuf,
    doc: FindingsDoc,
    index: HashMap<String, usize>,
    known: KnownSet,
    /// Counts wait for [`FindingStore::flush`] ([`FindingStore::defer_counts`]).
    deferred: bool,
    /// Deferred counts not yet on disk: the stored findings whose count went up, and whether
    /// `findings.json` is behind.
    pending: std::collections::BTreeSet<usize>,
    doc_behind: bool,
}

impl FindingStore {
    /// Starts a new run in `run_dir` (created if missing) and writes an empty `findings.json`.
    /// An empty `meta.run_id` becomes the directory's name. Fails if the directory already
    /// holds a run.
    pub fn create(run_dir: &Path, mut meta: RunMeta, known: KnownSet) -> Result<FindingStore, StoreError> {
        if run_dir.join(FINDINGS_JSON).exists() {
            return Err(StoreError::AlreadyExists { dir: run_dir.to_path_buf() });
        }
        if meta.run_id.is_empty() {
            meta.run_id = run_dir.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        }
        let store = FindingStore {
            dir: run_dir.to_path_buf(),
            doc: FindingsDoc::new(meta),
            index: HashMap::new(),
            known,
            deferred: false,
            pending: Default::default(),
            doc_behind: false,
        };
        store.make_dirs()?;
        store.write_doc()?;
        Ok(store)
    }

    /// Resumes the run in `run_dir`: refuses a run directory whose folders are symbolic links
    /// ([`refuse_links`]), reloads it ([`FindingsDoc::load`]), removes stray temporary files
    /// of [`write_atomic`]'s own naming pattern (regular files only), and re-writes
    /// `findings.json` if per-finding files had to be merged in.
    pub fn open(run_dir: &Path, known: KnownSet) -> Result<FindingStore, StoreError> {
        refuse_links(run_dir, &[FINDINGS_DIR, CASES_DIR])?;
        let (doc, changed) = FindingsDoc::load_merged(run_dir)?;
        let index = doc.findings.iter().enumerate().map(|(i, f)| (f.id.clone(), i)).collect();
        let store = FindingStore {
            dir: run_dir.to_path_buf(),
            doc,
            index,
            known,
            deferred: false,
            pending: Default::default(),
            doc_behind: false,
        };
        store.make_dirs()?;
        for sub in [store.dir.clone(), store.dir.join(FINDINGS_DIR), store.dir.join(CASES_DIR)] {
            for e in std::fs::read_dir(&sub).map_err(io_err(&sub))?.flatten() {
                if is_temp(&e.path()) && e.file_type().is_ok_and(|t| t.is_file()) {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
        if changed {
            store.write_doc()?;
        }
        Ok(store)
    }

    fn make_dirs(&self) -> Result<(), StoreError> {
        for d in [self.dir.clone(), self.dir.join(FINDINGS_DIR), self.dir.join(CASES_DIR)] {
            std::fs::create_dir_all(&d).map_err(io_err(&d))?;
        }
        Ok(())
    }

    /// From now on a known hit's or a duplicate's count is written by [`FindingStore::flush`]
    /// (or with the next new finding), not at once: a campaign that records hundreds of known
    /// hits per batch flushes once per batch, before its checkpoint (each write of
    /// `findings.json` is atomic and synced, and the file grows with the known signatures).
    /// A new finding is always on disk before [`FindingStore::record`] returns.
    pub fn defer_counts(&mut self) {
        self.deferred = true;
    }

    /// Writes the deferred counts ([`FindingStore::defer_counts`]): each finding whose count
    /// went up, then `findings.json`.
    pub fn flush(&mut self) -> Result<(), StoreError> {
        for i in std::mem::take(&mut self.pending) {
            if let Some(f) = self.doc.findings.get(i) {
                self.write_finding(f)?;
            }
        }
        if std::mem::take(&mut self.doc_behind) {
            self.write_doc()?;
        }
        Ok(())
    }

    fn write_doc(&self) -> Result<(), StoreError> {
        let path = self.dir.join(FINDINGS_JSON);
        write_atomic(&path, serde_json::to_string_pretty(&self.doc)?).map_err(io_err(&path))
    }

    fn write_finding(&self, f: &Finding) -> Result<(), StoreError> {
        let path = self.finding_path(&f.id);
        write_atomic(&path, serde_json::to_string_pretty(f)?).map_err(io_err(&path))
    }

    /// The run directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The document as it is on disk.
    pub fn doc(&self) -> &FindingsDoc {
        &self.doc
    }

    /// The known set in use.
    pub fn known(&self) -> &KnownSet {
        &self.known
    }

    /// `RUN/findings/<id>.json`.
    pub fn finding_path(&self, id: &str) -> PathBuf {
        self.dir.join(FINDINGS_DIR).join(format!("{id}.json"))
    }

    /// `RUN/cases/<id>.case`.
    pub fn case_path(&self, id: &str) -> PathBuf {
        self.dir.join(CASES_DIR).join(format!("{id}.case"))
    }

    /// Keeps, for a person to check, the cases of a finding counted known only after the
    /// minimized case was reduced on (`fuzz`'s triage): `RUN/known-cases/<key>.case` (the case
    /// reduced on, which the entry's emulations explain; replayable) and
    /// `RUN/known-cases/<key>.minimized.case` (the minimized case, unexplained), each headed by
    /// a comment naming `entry`. `key` is the known finding's signature key (hex, so no name
    /// leaves the folder); written atomically; a later finding of the same key replaces them.
    pub fn keep_known_case(&self, entry: &str, key: &str, reduced_on: &str, minimized: &str) -> Result<(), StoreError> {
        let dir = self.dir.join(KNOWN_CASES_DIR);
        std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
        let header = |what: &str| format!("// ptxdiff: counted known ({entry}) after reduction; this is {what}\n");
        let safe: String = key.chars().filter(char::is_ascii_alphanumeric).collect();
        for (name, what, text) in [
            (format!("{safe}.case"), "the case reduced on, which the entry's emulations explain", reduced_on),
            (format!("{safe}.minimized.case"), "the minimized case they did not explain", minimized),
        ] {
            let path = dir.join(name);
            write_atomic(&path, format!("{}{text}", header(what))).map_err(io_err(&path))?;
        }
        Ok(())
    }

    /// What [`record`](Self::record) would do with a finding of this signature, without doing
    /// it: lets a campaign skip minimizing what is already known or stored.
    pub fn classify(&self, sig: &Signature) -> Recorded {
        if let Some(k) = self.known.matches(sig) {
            Recorded::Known(k.name.clone())
        } else if self.index.contains_key(&sig.key()) {
            Recorded::Duplicate
        } else {
            Recorded::New
        }
    }

    /// Records `finding` (`finding.count` occurrences, at least one) as covered by the known
    /// entry `name`, whatever its signature: the entry's count goes up (and its signature's)
    /// and `findings.json` is re-written (after [`FindingStore::defer_counts`], on the next
    /// flush). [`FindingStore::record`] does this for a signature an entry matches; a caller
    /// that decided the entry otherwise (a crash its mechanism explains,
    /// [`crate::findings::CrashBySass`]) calls it directly.
    pub fn record_known(&mut self, finding: &Finding, name: String) -> Result<Recorded, StoreError> {
        let n = finding.count.max(1);
        let sig = &finding.signature;
        let k = self.known.get(&name).cloned();
        let pos = match self.doc.known.iter().position(|h| h.id == name) {
            Some(p) => p,
            None => {
                let k = k.as_ref();
                self.doc.known.push(KnownHit {
                    id: name.clone(),
                    reason: k.map(|k| k.reason.clone()).unwrap_or_default(),
                    evidence: k.map(|k| k.evidence.clone()).unwrap_or_default(),
                    link: k.and_then(|k| k.link.clone()),
                    count: 0,
                    signatures: BTreeMap::new(),
                });
                self.doc.known.len() - 1
            }
        };
        let hit = &mut self.doc.known[pos];
        hit.count = hit.count.saturating_add(n);
        let text = sig.to_string();
        if hit.signatures.len() < MAX_KNOWN_SIGNATURES || hit.signatures.contains_key(&text) {
            let c = hit.signatures.entry(text).or_default();
            *c = c.saturating_add(n);
        }
        if self.deferred {
            self.doc_behind = true;
        } else {
            self.write_doc()?;
        }
        Ok(Recorded::Known(name))
    }

    /// Records one finding (`finding.count` occurrences, at least one). New: normalized (`id`
    /// from the signature; empty `title` and `replay` filled in; at most [`MAX_MISMATCHES`]
    /// mismatches; a non-finite `first_seen_s` becomes 0), then `cases/<id>.case` (the
    /// `case_text`), `findings/<id>.json` and `findings.json` are written. Duplicate: the
    /// stored count goes up and both JSON files are re-written. Known: the entry's count goes
    /// up and `findings.json` is re-written. Everything is on disk when this returns `Ok` —
    /// except, after [`FindingStore::defer_counts`], a known hit's or a duplicate's count,
    /// which is on disk after the next [`FindingStore::flush`] (or the next new finding).
    pub fn record(&mut self, mut finding: Finding, case_text: &str) -> Result<Recorded, StoreError> {
        let n = finding.count.max(1);
        let sig = &finding.signature;
        match self.classify(sig) {
            Recorded::Known(name) => self.record_known(&finding, name),
            Recorded::Duplicate => {
                let i = self.index[&sig.key()];
                let f = &mut self.doc.findings[i];
                f.count = f.count.saturating_add(n);
                if self.deferred {
                    self.pending.insert(i);
                    self.doc_behind = true;
                } else {
                    self.write_finding(&self.doc.findings[i])?;
                    self.write_doc()?;
                }
                Ok(Recorded::Duplicate)
            }
            Recorded::New => {
                let id = sig.key();
                finding.id = id.clone();
                finding.count = n;
                if finding.title.is_empty() {
                    finding.title = finding.signature.to_string();
                }
                if finding.replay.is_empty() {
                    finding.replay = format!("ptxdiff replay {}", self.case_path(&id).display());
                }
                if !finding.first_seen_s.is_finite() {
                    finding.first_seen_s = 0.0;
                }
                finding.mismatches.truncate(MAX_MISMATCHES);
                let case = self.case_path(&id);
                write_atomic(&case, case_text).map_err(io_err(&case))?;
                self.write_finding(&finding)?;
                self.index.insert(id, self.doc.findings.len());
                self.doc.findings.push(finding);
                self.write_doc()?;
                self.doc_behind = false;
                Ok(Recorded::New)
            }
        }
    }

    /// The counts as they are now.
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            findings: self.doc.findings.iter().map(|f| (f.id.clone(), f.count)).collect(),
            known: self.doc.known.iter().map(|k| (k.id.clone(), (k.count, k.signatures.clone()))).collect(),
        }
    }

    /// Goes back to the counts of checkpoint `c`: a finding it lacks is removed (its files
    /// too, which this store wrote), every other count set to the checkpoint's. Each file is
    /// written atomically; a process killed in between leaves a store that a second rollback
    /// to the same checkpoint finishes.
    pub fn rollback(&mut self, c: &Checkpoint) -> Result<(), StoreError> {
        // Deferred counts name findings by index: on disk first, then rolled back with the rest.
        self.flush()?;
        let before = self.doc.findings.len();
        let mut kept = Vec::with_capacity(before);
        for mut f in std::mem::take(&mut self.doc.findings) {
            match c.findings.get(&f.id) {
                Some(&n) => {
                    if f.count != n {
                        f.count = n;
                        self.write_finding(&f)?;
                    }
                    kept.push(f);
                }
                None => {
                    for path in [self.finding_path(&f.id), self.case_path(&f.id)] {
                        match std::fs::remove_file(&path) {
                            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io_err(&path)(e)),
                            _ => {}
                        }
                    }
                }
            }
        }
        self.doc.findings = kept;
        self.index = self.doc.findings.iter().enumerate().map(|(i, f)| (f.id.clone(), i)).collect();
        self.doc.known.retain_mut(|k| match c.known.get(&k.id) {
            Some((n, sigs)) => {
                k.count = *n;
                k.signatures = sigs.clone();
                true
            }
            None => false,
        });
        self.write_doc()
    }

    /// Changes the run metadata and re-writes `findings.json`.
    pub fn update_meta(&mut self, f: impl FnOnce(&mut RunMeta)) -> Result<(), StoreError> {
        f(&mut self.doc.run);
        self.write_doc()
    }
}

#[cfg(test)]
mod tests {
    use super::super::finding::WordMismatch;
    use super::*;

    fn sig(form: &str, how: &str) -> Signature {
        Signature::new(FindingClass::Compiler, form, "normal", ["cuda:ptxas-O3"], how)
    }

    fn finding(form: &str, how: &str, t: f64) -> Finding {
        let mut f = Finding::new(sig(form, how), format!(".version 8.7\n// {form}\n"));
        f.first_seen_s = t;
        f.threads = 1;
        f.inputs = vec![0x3f80_0000];
        f.mismatches = vec![WordMismatch {
            thread: 0,
            word: 0,
            expected: "0x3c00".into(),
            actual: [("cuda:ptxas-O3".to_string(), "0x3c01".to_string())].into(),
            decoded: "1.0 → 1.0009765625".into(),
        }];
        f
    }

    /// `findings.json` alone, without merging `findings/`.
    fn raw_doc(run: &Path) -> FindingsDoc {
        serde_json::from_str(&std::fs::read_to_string(run.join(FINDINGS_JSON)).unwrap()).unwrap()
    }

    fn known_tf32() -> KnownSet {
        KnownSet::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/known")).unwrap()
    }

    fn tf32_finding() -> Finding {
        Finding::new(
            Signature::new(FindingClass::HardwareSpec, "cvt.rna.tf32.f32", "nan", ["cuda:ptxas-O3"], "nan-becomes-inf"),
            "",
        )
    }

    #[test]
    fn round_trip_dedup_known_and_resume() {
        let tmp = tempfile::tempdir().unwrap();
        let run = tmp.path().join("run-1");
        let mut s =
            FindingStore::create(&run, RunMeta { target: "sm_90".into(), ..RunMeta::default() }, known_tf32()).unwrap();
        assert_eq!(s.doc().run.run_id, "run-1");
        assert!(run.join(FINDINGS_JSON).is_file());

        let a = finding("cvt.rn.f16.f32", "off-by-one-ulp", 1.5);
        assert_eq!(s.classify(&a.signature), Recorded::New);
        assert_eq!(s.record(a.clone(), "case a").unwrap(), Recorded::New);
        assert_eq!(s.classify(&a.signature), Recorded::Duplicate);
        assert_eq!(s.record(a.clone(), "case a again").unwrap(), Recorded::Duplicate);
        let mut a3 = a.clone();
        a3.count = 3;
        assert_eq!(s.record(a3, "").unwrap(), Recorded::Duplicate);
        assert_eq!(raw_doc(&run).findings[0].count, 5, "a duplicate re-writes findings.json");
        assert_eq!(s.record(finding("prmt.b32", "bits", 2.0), "case b").unwrap(), Recorded::New);
        assert_eq!(s.record(tf32_finding(), "tf32").unwrap(), Recorded::Known("cvt-rna-tf32-nan".into()));
        assert_eq!(s.record(tf32_finding(), "tf32").unwrap(), Recorded::Known("cvt-rna-tf32-nan".into()));
        assert_eq!(raw_doc(&run).known[0].count, 2, "a known hit re-writes findings.json");

        // On disk before record returned, without any flush or drop.
        let id = a.signature.key();
        assert_eq!(std::fs::read_to_string(s.case_path(&id)).unwrap(), "case a");
        let on_disk: Finding = serde_json::from_str(&std::fs::read_to_string(s.finding_path(&id)).unwrap()).unwrap();
        assert_eq!(on_disk.count, 5);
        assert_eq!(
            on_disk.replay,
            format!("ptxdiff replay {}", run.join("cases").join(format!("{id}.case")).display())
        );
        let doc = FindingsDoc::load(&run).unwrap();
        assert_eq!(&doc, s.doc());
        assert_eq!(&raw_doc(&run), s.doc(), "findings.json itself is current, not just findings/");
        assert_eq!(doc.findings.len(), 2);
        assert_eq!(doc.findings[0].count, 5);
        assert_eq!(doc.known.len(), 1);
        assert_eq!(doc.known[0].count, 2);
        assert!(doc.known[0].evidence.contains("cvt-rna-tf32-nan.md"));
        assert_eq!(doc.occurrences(), 6);
        assert_eq!(doc.known_occurrences(), 2);
        assert!(!run.join("cases").join(format!("{}.case", tf32_finding().id)).exists());
        drop(s);

        // Resume: everything reloads, counting goes on.
        let mut s = FindingStore::open(&run, known_tf32()).unwrap();
        assert_eq!(s.doc(), &doc);
        assert_eq!(s.record(a.clone(), "").unwrap(), Recorded::Duplicate);
        assert_eq!(s.record(tf32_finding(), "").unwrap(), Recorded::Known("cvt-rna-tf32-nan".into()));
        let doc = FindingsDoc::load(&run).unwrap();
        assert_eq!(raw_doc(&run), doc);
        assert_eq!(doc.findings[0].count, 6);
        assert_eq!(doc.known[0].count, 3);
        assert_eq!(doc.run.target, "sm_90");

        // A second create on the same directory refuses.
        assert!(matches!(
            FindingStore::create(&run, RunMeta::default(), KnownSet::empty()),
            Err(StoreError::AlreadyExists { .. })
        ));
    }

    /// With deferred counts a known hit and a duplicate wait for `flush` (or the next new
    /// finding), while a new finding is on disk at once; a rollback writes them first.
    #[test]
    fn deferred_counts_reach_the_disk_at_flush_and_new_findings_at_once() {
        let tmp = tempfile::tempdir().unwrap();
        let run = tmp.path().join("run");
        let mut s = FindingStore::create(&run, RunMeta::default(), known_tf32()).unwrap();
        s.defer_counts();
        let a = finding("cvt.rn.f16.f32", "off-by-one-ulp", 1.5);
        assert_eq!(s.record(a.clone(), "case a").unwrap(), Recorded::New);
        assert_eq!(raw_doc(&run).findings.len(), 1, "a new finding is written at once");
        let checkpoint = s.checkpoint();
        assert_eq!(s.record(a.clone(), "").unwrap(), Recorded::Duplicate);
        assert_eq!(s.record(tf32_finding(), "").unwrap(), Recorded::Known("cvt-rna-tf32-nan".into()));
        let on_disk = raw_doc(&run);
        assert_eq!((on_disk.findings[0].count, on_disk.known.len()), (1, 0), "counts wait for flush");
        s.flush().unwrap();
        assert_eq!(&raw_doc(&run), s.doc());
        let file: Finding =
            serde_json::from_str(&std::fs::read_to_string(s.finding_path(&a.signature.key())).unwrap()).unwrap();
        assert_eq!((file.count, raw_doc(&run).known[0].count), (2, 1));
        // A new finding writes findings.json with the pending known count in it.
        assert_eq!(s.record(tf32_finding(), "").unwrap(), Recorded::Known("cvt-rna-tf32-nan".into()));
        assert_eq!(s.record(finding("prmt.b32", "bits", 2.0), "b").unwrap(), Recorded::New);
        assert_eq!(raw_doc(&run).known[0].count, 2);
        // A rollback goes back to the checkpoint's counts on disk too.
        assert_eq!(s.record(a.clone(), "").unwrap(), Recorded::Duplicate);
        s.rollback(&checkpoint).unwrap();
        assert_eq!(&raw_doc(&run), s.doc());
        assert_eq!((s.doc().findings.len(), s.doc().findings[0].count, s.doc().known.len()), (1, 1, 0));
    }

    #[test]
    fn interrupted_writes_are_completed_or_ignored() {
        let tmp = tempfile::tempdir().unwrap();
        let run = tmp.path().join("run");
        let mut s = FindingStore::create(&run, RunMeta::default(), KnownSet::empty()).unwrap();
        s.record(finding("cvt.rn.f16.f32", "sign", 1.0), "a").unwrap();
        let before = std::fs::read_to_string(run.join(FINDINGS_JSON)).unwrap();
        s.record(finding("cvt.rz.f16.f32", "sign", 2.0), "b").unwrap();
        drop(s);
        // Killed after the per-finding file, before findings.json: the old findings.json
        // plus half-written temp files everywhere.
        std::fs::write(run.join(FINDINGS_JSON), &before).unwrap();
        std::fs::write(run.join("findings").join("0123456789abcdef.json.999.tmp"), "{\"id\": \"01").unwrap();
        std::fs::write(run.join("findings.json.999.tmp"), "{").unwrap();
        std::fs::write(run.join("cases").join("0123456789abcdef.case.999.tmp"), "").unwrap();
        let doc = FindingsDoc::load(&run).unwrap();
        assert_eq!(doc.findings.len(), 2, "the finding only in findings/ is merged back");
        assert_eq!(doc.findings[1].signature.form, "cvt.rz.f16.f32");
        let s = FindingStore::open(&run, KnownSet::empty()).unwrap();
        assert_eq!(s.doc().findings.len(), 2);
        // open re-wrote findings.json and removed the temp files.
        assert_eq!(FindingsDoc::load(&run).unwrap(), *s.doc());
        assert_ne!(std::fs::read_to_string(run.join(FINDINGS_JSON)).unwrap(), before);
        assert!(!run.join("findings.json.999.tmp").exists());
        assert!(!run.join("findings").join("0123456789abcdef.json.999.tmp").exists());

        // findings.json lost entirely: rebuilt from findings/.
        std::fs::remove_file(run.join(FINDINGS_JSON)).unwrap();
        assert_eq!(FindingsDoc::load(&run).unwrap().findings.len(), 2);
    }

    #[test]
    fn corrupt_and_missing_runs_are_clear_errors() {
        let tmp = tempfile::tempdir().unwrap();
        let e = FindingsDoc::load(tmp.path()).unwrap_err();
        assert!(matches!(e, StoreError::NotARun { .. }), "{e}");
        std::fs::write(tmp.path().join(FINDINGS_JSON), "{\n  \"format\": 1,\n  \"findings\": [,]\n}").unwrap();
        let e = FindingsDoc::load(tmp.path()).unwrap_err();
        let text = e.to_string();
        assert!(text.starts_with(&format!("{}:3:", tmp.path().join(FINDINGS_JSON).display())), "{text}");
        std::fs::write(tmp.path().join(FINDINGS_JSON), "{\"format\": 99}").unwrap();
        assert!(FindingsDoc::load(tmp.path()).unwrap_err().to_string().contains("newer ptxdiff"));
        // A per-finding file whose id does not match its signature.
        std::fs::write(tmp.path().join(FINDINGS_JSON), "{\"format\": 1}").unwrap();
        std::fs::create_dir(tmp.path().join(FINDINGS_DIR)).unwrap();
        let mut f = finding("x", "y", 0.0);
        f.id = "0000000000000000".into();
        std::fs::write(tmp.path().join(FINDINGS_DIR).join("0000000000000000.json"), serde_json::to_string(&f).unwrap())
            .unwrap();
        assert!(FindingsDoc::load(tmp.path()).unwrap_err().to_string().contains("not its signature's key"));
    }

    #[cfg(unix)]
    #[test]
    fn open_refuses_links_and_removes_only_its_own_temp_files() {
        let tmp = tempfile::tempdir().unwrap();
        let run = tmp.path().join("run");
        FindingStore::create(&run, RunMeta::default(), KnownSet::empty()).unwrap();
        std::fs::write(run.join("notes.tmp"), "mine").unwrap();
        std::fs::write(run.join("findings.json.77.tmp"), "{").unwrap();
        FindingStore::open(&run, KnownSet::empty()).unwrap();
        assert!(run.join("notes.tmp").is_file(), "a *.tmp ptxdiff did not name is left alone");
        assert!(!run.join("findings.json.77.tmp").exists());

        // cases/ linked elsewhere: refused, nothing there deleted or written.
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::fs::write(elsewhere.join("x.case.1.tmp"), "foreign").unwrap();
        std::fs::remove_dir_all(run.join(CASES_DIR)).unwrap();
        std::os::unix::fs::symlink(&elsewhere, run.join(CASES_DIR)).unwrap();
        let e = FindingStore::open(&run, KnownSet::empty()).unwrap_err().to_string();
        assert!(e.contains("cases") && e.contains("symbolic link"), "{e}");
        assert!(elsewhere.join("x.case.1.tmp").is_file());
        // The run directory itself a link: refused.
        let link = tmp.path().join("link");
        std::fs::remove_file(run.join(CASES_DIR)).unwrap();
        std::os::unix::fs::symlink(&run, &link).unwrap();
        let e = FindingStore::open(&link, KnownSet::empty()).unwrap_err().to_string();
        assert!(e.contains("symbolic link"), "{e}");
    }

    #[test]
    fn counts_saturate_never_wrap() {
        let tmp = tempfile::tempdir().unwrap();
        let mut s = FindingStore::create(tmp.path(), RunMeta::default(), known_tf32()).unwrap();
        let mut a = finding("cvt.rn.f16.f32", "sign", 1.0);
        a.count = u64::MAX;
        s.record(a.clone(), "").unwrap();
        s.record(a, "").unwrap();
        let mut b = finding("cvt.rz.f16.f32", "sign", 2.0);
        b.count = u64::MAX;
        s.record(b, "").unwrap();
        let mut k = tf32_finding();
        k.count = u64::MAX;
        s.record(k.clone(), "").unwrap();
        s.record(k, "").unwrap();
        let doc = s.doc();
        assert_eq!(doc.findings[0].count, u64::MAX);
        assert_eq!(doc.occurrences(), u64::MAX);
        assert_eq!(doc.known[0].count, u64::MAX);
        assert_eq!(doc.known_occurrences(), u64::MAX);
        assert!(doc.known[0].signatures.values().all(|&c| c == u64::MAX));
        assert!(doc.by_class().iter().any(|&(_, n, occ)| n == 2 && occ == u64::MAX));
    }

    #[test]
    fn record_normalizes() {
        let tmp = tempfile::tempdir().unwrap();
        let mut s = FindingStore::create(tmp.path(), RunMeta::default(), KnownSet::empty()).unwrap();
        let mut f = finding("cvt.rn.f16.f32", "sign", f64::NAN);
        f.id = "wrong".into();
        f.title.clear();
        f.count = 0;
        f.mismatches = vec![WordMismatch::default(); MAX_MISMATCHES + 5];
        s.record(f, "").unwrap();
        let g = &s.doc().findings[0];
        assert_eq!(g.id, g.signature.key());
        assert_eq!(g.title, g.signature.to_string());
        assert_eq!(g.count, 1);
        assert_eq!(g.first_seen_s, 0.0);
        assert_eq!(g.mismatches.len(), MAX_MISMATCHES);
        assert_eq!(&FindingsDoc::load(tmp.path()).unwrap(), s.doc());
    }
}
