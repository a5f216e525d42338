//! The files ptxdiff writes and reads: whole-or-nothing writes (every report, finding,
//! campaign-state and output file goes through [`write_atomic`], a path the user names for a new
//! file through [`write_new`]) and reads of bounded size ([`read_capped`]).
//!
//! Invariants:
//! - A destination is a regular file or absent: [`write_atomic`] refuses a symbolic link, a
//!   directory, a FIFO, a device node or a socket ([`WriteError::NotAFile`]), so no write ever
//!   replaces one (`--out /dev/null` as root would have replaced `/dev/null`); [`write_new`]
//!   also refuses an existing file unless it is told to overwrite it (`--force`).
//! - A file read as input (a case, a configuration, a run's JSON) is read to at most
//!   [`MAX_INPUT_BYTES`]: `replay /dev/urandom` is an error at once, not a read without end.
//! - [`write_atomic`] writes to a temporary file in the destination's own directory (so the
//!   rename never crosses a file system), named `<file name>.<pid>.tmp`, flushes it to disk,
//!   then renames it over the destination and flushes the directory. A reader therefore sees
//!   the old contents or the new ones, never a prefix; a process killed mid-write leaves at most
//!   a stray `*.tmp` file, which readers ignore ([`is_temp`]).

use std::fs::File;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};

/// Extension of the temporary files [`write_atomic`] leaves behind when killed mid-write.
pub const TEMP_EXTENSION: &str = "tmp";

/// The most bytes [`read_capped`] reads: far more than any case, configuration or run file
/// ptxdiff writes (a findings.json of thousands of findings is a few MiB).
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// Why an output path was refused.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The destination exists and is no regular file.
    #[error("{}: is {what}; ptxdiff writes only regular files, and would replace it: give the path of a new file", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is (`a symbolic link`, `a directory`, `a FIFO`, `a device node`, `a socket`).
        what: &'static str,
    },
    /// The destination is an existing file and overwriting was not asked for.
    #[error("{}: already exists; give --force to overwrite it, or another path", path.display())]
    Exists {
        /// The path.
        path: PathBuf,
    },
    /// Writing failed.
    #[error("writing {}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
}

impl From<WriteError> for std::io::Error {
    fn from(e: WriteError) -> std::io::Error {
        match e {
            WriteError::Io { source, .. } => source,
            WriteError::NotAFile { .. } => std::io::Error::new(std::io::ErrorKind::InvalidInput, e),
            WriteError::Exists { .. } => std::io::Error::new(std::io::ErrorKind::AlreadyExists, e),
        }
    }
}

/// Checks that `path` may be written: absent, or a regular file (and then only if
/// `overwrite`). [`write_new`] checks this itself; a caller writing several files checks them
/// all first, so that none is written when one is refused.
pub fn check_output(path: &Path, overwrite: bool) -> Result<(), WriteError> {
    use std::os::unix::fs::FileTypeExt as _;
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(source) => return Err(WriteError::Io { path: path.to_path_buf(), source }),
    };
    let t = meta.file_type();
    let what = if t.is_symlink() {
        "a symbolic link"
    } else if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_block_device() || t.is_char_device() {
        "a device node"
    } else if t.is_socket() {
        "a socket"
    } else if !overwrite {
        return Err(WriteError::Exists { path: path.to_path_buf() });
    } else {
        return Ok(());
    };
    Err(WriteError::NotAFile { path: path.to_path_buf(), what })
}

/// Writes `contents` to the path a user named for a new file: refused when `path` exists,
/// unless `overwrite` (`--force`) and it is a regular file; then as [`write_atomic`].
pub fn write_new(path: &Path, contents: impl AsRef<[u8]>, overwrite: bool) -> Result<(), WriteError> {
    check_output(path, overwrite)?;
    write_atomic(path, contents).map_err(|source| WriteError::Io { path: path.to_path_buf(), source })
}

/// Reads the file at `path` as text, refusing one larger than [`MAX_INPUT_BYTES`] after
/// reading no more than that (a device or FIFO that never ends included). Errors do not name
/// the path: the caller does.
pub fn read_capped(path: &Path) -> std::io::Result<String> {
    let mut bytes = Vec::new();
    File::open(path)?.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("larger than {} MiB, which no ptxdiff input is", MAX_INPUT_BYTES >> 20),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to()),
        )
    })
}

/// Writes `contents` to `path` atomically and durably (temporary file, `fsync`, rename,
/// `fsync` of the directory). The parent directory must exist, and `path` must be a regular
/// file or absent (see the module docs).
pub fn write_atomic(path: &Path, contents: impl AsRef<[u8]>) -> std::io::Result<()> {
    check_output(path, true)?;
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "path has no file name"))?;
    let mut tmp_name = name.to_os_string();
    tmp_name.push(format!(".{}.{TEMP_EXTENSION}", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(contents.as_ref())?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
        return result;
    }
    // The rename is durable only once the directory entry is; not every platform lets a
    // directory be opened and synced, and the data itself is already safe, so this is best
    // effort.
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// Whether `path` is named like a temporary file of an interrupted [`write_atomic`]:
/// `<file name>.<pid>.tmp`, with a non-empty file name and a decimal pid. Only such files may
/// be cleaned up; any other `*.tmp` is someone else's.
pub fn is_temp(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else { return false };
    let Some(rest) = name.strip_suffix(TEMP_EXTENSION).and_then(|r| r.strip_suffix('.')) else { return false };
    let Some((stem, pid)) = rest.rsplit_once('.') else { return false };
    !stem.is_empty() && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_atomic_replaces_whole_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.json");
        write_atomic(&p, "first").unwrap();
        write_atomic(&p, "second, longer").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "second, longer");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("a.json")]);
    }

    #[test]
    fn write_atomic_into_missing_directory_fails_cleanly() {
        let dir = tempfile::tempdir().unwrap();
        assert!(write_atomic(&dir.path().join("missing/a.json"), "x").is_err());
    }

    /// Issue 28: `minimize --out X` replaced a FIFO, a device node or a symbolic link X with a
    /// regular file and reported success; `minimize CASE` overwrote `CASE.min.case`.
    #[test]
    fn only_regular_files_are_written_and_new_ones_only_with_force() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
        let target = dir.path().join("target.txt");
        std::fs::write(&target, "keep").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let mut cases = vec![(link.clone(), "a symbolic link"), (dir.path().to_path_buf(), "a directory")];
        cases.push((PathBuf::from("/dev/null"), "a device node"));
        if made {
            cases.push((fifo.clone(), "a FIFO"));
        }
        for (path, what) in &cases {
            for force in [false, true] {
                let e = write_new(path, "x", force).unwrap_err().to_string();
                assert!(e.contains(what) && e.contains(&path.display().to_string()), "{e}");
            }
            let e = write_atomic(path, "x").unwrap_err().to_string();
            assert!(e.contains(what), "{e}");
        }
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
        if made {
            use std::os::unix::fs::FileTypeExt as _;
            assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO stays");
        }
        // An existing file: only with force.
        let e = write_new(&target, "new", false).unwrap_err();
        assert!(matches!(e, WriteError::Exists { .. }) && e.to_string().contains("--force"), "{e}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
        write_new(&target, "new", true).unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        write_new(&dir.path().join("fresh"), "x", false).unwrap();
    }

    #[test]
    fn reads_stop_at_the_cap() {
        let t = std::time::Instant::now();
        let e = read_capped(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(e.contains("larger than 64 MiB"), "{e}");
        assert!(t.elapsed() < std::time::Duration::from_secs(60));
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("bad");
        std::fs::write(&p, b"ok\xff").unwrap();
        assert!(read_capped(&p).unwrap_err().to_string().contains("not UTF-8 text (invalid byte at offset 2)"));
        std::fs::write(&p, "fine").unwrap();
        assert_eq!(read_capped(&p).unwrap(), "fine");
    }

    #[test]
    fn temp_names_are_recognized() {
        assert!(is_temp(Path::new("findings/abc.json.123.tmp")));
        assert!(!is_temp(Path::new("findings/abc.json")));
        // Not of write_atomic's pattern: someone else's.
        for other in ["notes.tmp", "a.b.tmp", ".123.tmp", "a.12x.tmp", "a..tmp", "a.123.tmp.bak"] {
            assert!(!is_temp(Path::new(other)), "{other}");
        }
    }
}
