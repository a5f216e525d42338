//! The ptxas version matrix end to end without a GPU: `fuzz` with two `--ptxas` labels runs one
//! compile-only backend per version; `--ptxas-matrix` finds the releases under
//! `.tools/ptxas/<VERSION>/` of the repository root (here a temporary one, `PTXDIFF_ROOT`) and
//! makes each a backend of its own. Both labels point at the one installed ptxas.

mod common;

use std::path::Path;
use std::process::{Command, Output};

fn ptxdiff() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptxdiff"));
    c.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    c
}

fn text_of(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// A short campaign of `extra` options into `run`.
fn campaign(run: &Path, extra: &[&str]) -> Command {
    let mut c = ptxdiff();
    c.args(["fuzz", "--programs", "64", "--batch", "64", "--seed", "11", "--target", "sm_90"]).args(extra);
    c.arg("--known").arg(concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/known")).arg("--out").arg(run);
    c
}

/// The `backends:` line of a campaign's output.
fn backends_line(text: &str) -> &str {
    text.lines().find(|l| l.starts_with("backends: ")).unwrap_or("")
}

/// Each version of `labels` ran (compile-only without a GPU) and is named in the run's
/// environment.
fn assert_versions_ran(run: &Path, text: &str, labels: &[&str]) {
    let backends = backends_line(text);
    let md = std::fs::read_to_string(run.join("summary.md")).unwrap();
    for l in labels {
        let compile_only = format!("ptxas-check-{l}");
        let on_gpu = format!("cuda:ptxas-{l}-O3");
        assert!(backends.contains(&compile_only) || backends.contains(&on_gpu), "{l} missing:\n{text}");
        assert!(md.contains(&format!("- ptxas-{l}: ")), "ptxas-{l} not in the environment:\n{md}");
    }
}

#[test]
fn two_labels_of_one_ptxas_run_side_by_side() {
    let Some(ptxas) = common::ptxas_or_skip() else { return };
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let list = format!("12.8={p},13.0={p}", p = ptxas.path.display());
    let out = campaign(&run, &["--ptxas", &list]).output().unwrap();
    let text = text_of(&out);
    assert!(out.status.success(), "{text}");
    assert_versions_ran(&run, &text, &["12.8", "13.0"]);
    assert!(!backends_line(&text).contains("ptxas-check,"), "no unlabelled ptxas besides --ptxas: {text}");
}

#[test]
fn the_matrix_is_found_under_the_repository_root() {
    let Some(ptxas) = common::ptxas_or_skip() else { return };
    let root = tempfile::tempdir().unwrap();
    for v in ["12.8", "13.0"] {
        let d = root.path().join(".tools/ptxas").join(v);
        std::fs::create_dir_all(&d).unwrap();
        std::os::unix::fs::symlink(&ptxas.path, d.join("ptxas")).unwrap();
    }
    // Half-installed leftovers of the installer are not versions.
    std::fs::create_dir_all(root.path().join(".tools/ptxas/.install-13.5.abc")).unwrap();
    // A release too old for the target's PTX ISA version is left out, and says so.
    let old = root.path().join(".tools/ptxas/12.0");
    std::fs::create_dir_all(&old).unwrap();
    std::fs::write(
        old.join("ptxas"),
        "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'Cuda compilation tools, release 12.0, V12.0.76'; exit 0; fi\n\
         echo \"ptxas fatal   : Unsupported .version 9.0; current version is '8.0'\" >&2; exit 255\n",
    )
    .unwrap();
    std::fs::set_permissions(old.join("ptxas"), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let run = root.path().join("run");
    let out = campaign(&run, &["--ptxas-matrix"])
        .env("PTXDIFF_ROOT", root.path())
        // The ptxas found the usual way is the same file as both versions: it adds none.
        .env("PTXAS", &ptxas.path)
        .output()
        .unwrap();
    let text = text_of(&out);
    assert!(out.status.success(), "{text}");
    assert_versions_ran(&run, &text, &["12.8", "13.0"]);
    let md = std::fs::read_to_string(run.join("summary.md")).unwrap();
    assert!(!md.contains("- ptxas: ") && !md.contains("ptxas-12.0"), "only the matrix's versions:\n{md}");
    assert!(text.contains("ptxas 12.0 left out of the matrix") && text.contains("Unsupported .version"), "{text}");

    // Without any ptxas under the root, the matrix is the ptxas found, labelled by its release.
    let bare = tempfile::tempdir().unwrap();
    let run = bare.path().join("run");
    let out = campaign(&run, &["--ptxas-matrix"])
        .env("PTXDIFF_ROOT", bare.path())
        .env("PTXAS", &ptxas.path)
        .output()
        .unwrap();
    let text = text_of(&out);
    assert!(out.status.success(), "{text}");
    let release = ptxas.release().expect("the installed ptxas names its release");
    assert_versions_ran(&run, &text, &[&release]);
}
