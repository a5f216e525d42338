//! Whole-or-nothing file writes: every report, finding and campaign-state file goes through
//! [`write_atomic`].
//!
//! Invariants:
//! - [`write_atomic`] writes to a temporary file in the destination's own directory (so the
//!   rename never crosses a file system), named `<file name>.<pid>.tmp`, flushes it to disk,
//!   then renames it over the destination and flushes the directory. A reader therefore sees
//!   the old contents or the new ones, never a prefix; a process killed mid-write leaves at most
//!   a stray `*.tmp` file, which readers ignore ([`is_temp`]).

use std::fs::File;
use std::io::Write as _;
use std::path::Path;

/// Extension of the temporary files [`write_atomic`] leaves behind when killed mid-write.
pub const TEMP_EXTENSION: &str = "tmp";

/// Writes `contents` to `path` atomically and durably (temporary file, `fsync`, rename,
/// `fsync` of the directory). The parent directory must exist.
pub fn write_atomic(path: &Path, contents: impl AsRef<[u8]>) -> std::io::Result<()> {
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
