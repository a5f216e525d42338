//! `ci/install-ptxas` (what `ci/test` runs first) reuses the ptxas and nvdisasm that `ptxdiff`
//! installed into the user's cache instead of installing second copies, looks for the cache
//! where `runner::paths::cache_dir` does (PTXDIFF_CACHE, XDG_CACHE_HOME, HOME), and installs
//! into that cache, not into `.tools/`, when it finds none. The script runs from a copy in a
//! temporary repository (no `.tools/`), with a `python3` that fails instead of downloading.

mod common;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// An executable shell script at `path`.
fn script(path: &Path, body: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A scratch repository with a copy of `ci/install-ptxas`, and a `bin/` whose `python3` fails.
struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    fn new() -> Sandbox {
        let dir = tempfile::tempdir().unwrap();
        let ci = dir.path().join("repo/ci");
        std::fs::create_dir_all(&ci).unwrap();
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ci/install-ptxas");
        std::fs::copy(src, ci.join("install-ptxas")).unwrap();
        script(&dir.path().join("bin/python3"), "echo 'python3: no network here (test)' >&2; exit 1");
        Sandbox { dir }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Runs the script with exactly `vars` (and a PATH of the sandbox's bin/ and the system's).
    fn run(&self, vars: &BTreeMap<&str, OsString>) -> Output {
        let path = format!("{}:/usr/bin:/bin", self.path("bin").display());
        Command::new("/bin/sh")
            .arg("-c")
            .arg("exec bash \"$0\"")
            .arg(self.path("repo/ci/install-ptxas"))
            .env_clear()
            .env("PATH", path)
            .envs(vars)
            .output()
            .unwrap()
    }
}

/// An installed tool inside a cache folder (`dir`: `nvcc`, `nvdisasm`), as the wheel lays it
/// out.
fn in_cache(cache: &Path, dir: &str, tool: &str) -> PathBuf {
    cache.join(dir).join("nvidia/cu13/bin").join(tool)
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// True when the system has a ptxas the sandbox's PATH would find first.
fn system_ptxas() -> bool {
    let tools = ["ptxas", "nvdisasm"];
    tools.iter().any(|t| ["/usr/bin", "/bin", "/usr/local/cuda/bin"].iter().any(|d| Path::new(d).join(t).exists()))
}

#[test]
fn the_ptxas_in_the_user_cache_is_reused_wherever_the_cache_is() {
    if system_ptxas() {
        common::skip("system ptxas", "a ptxas in /usr/bin or /usr/local/cuda is found before the cache");
        return;
    }
    let sb = Sandbox::new();
    let home = sb.path("home");
    let cases: [Vec<(&str, OsString)>; 3] = [
        vec![("HOME", home.clone().into())],
        vec![("HOME", home.clone().into()), ("XDG_CACHE_HOME", sb.path("xdg").into())],
        vec![("HOME", home.into()), ("XDG_CACHE_HOME", sb.path("xdg").into()), ("PTXDIFF_CACHE", sb.path("c").into())],
    ];
    for vars in cases {
        let vars: BTreeMap<&str, OsString> = vars.into_iter().collect();
        let cache = runner::paths::cache_dir_from(|k| vars.get(k).cloned()).unwrap();
        let (ptxas, nvdisasm) = (in_cache(&cache, "nvcc", "ptxas"), in_cache(&cache, "nvdisasm", "nvdisasm"));
        script(&ptxas, "echo 'Cuda compilation tools, release 13.5, V13.5.37'");
        script(&nvdisasm, "echo 'Cuda compilation tools, release 13.5, V13.5.37'");
        let out = sb.run(&vars);
        let t = text(&out);
        assert!(out.status.success(), "{vars:?}: {t}");
        let want = format!("ptxas: {} (cache)\nnvdisasm: {} (cache)", ptxas.display(), nvdisasm.display());
        assert_eq!(t.trim(), want, "{vars:?}");
        assert!(!sb.path("repo/.tools").exists(), "nothing installed into .tools/: {t}");
        std::fs::remove_file(&ptxas).unwrap();
        std::fs::remove_file(&nvdisasm).unwrap();
    }
}

#[test]
fn without_any_ptxas_it_installs_into_the_user_cache_not_tools() {
    if system_ptxas() {
        common::skip("system ptxas", "a ptxas in /usr/bin or /usr/local/cuda is found before the cache");
        return;
    }
    let sb = Sandbox::new();
    let vars: BTreeMap<&str, OsString> = [("HOME", sb.path("home").into_os_string())].into_iter().collect();
    let out = sb.run(&vars);
    let t = text(&out);
    assert!(!out.status.success(), "the sandbox's python3 fails: {t}");
    let dest = runner::paths::cache_dir_from(|k| vars.get(k).cloned()).unwrap().join("nvcc");
    assert!(t.contains(&format!("into {}\n", dest.display())), "{t}");
    assert!(t.contains("no network here"), "{t}");
    assert!(!sb.path("repo/.tools").exists(), "{t}");
    // Without any home, the repository's .tools/ is the one place.
    let out = sb.run(&BTreeMap::new());
    let t = text(&out);
    assert!(t.contains(&format!("into {}\n", sb.path("repo/.tools/nvcc").display())), "{t}");
}
