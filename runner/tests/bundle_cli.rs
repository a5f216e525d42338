//! `ptxdiff bundle` (issue 29 item 6) on the example fuzz run: every file of a bundle, a
//! `repro.cu` that a C++ compiler builds as is (and `nvcc` where one is installed) and that,
//! without a GPU, says it cannot load the driver (exit 2); the SASS of both levels with
//! instructions only one level has marked (with ptxas and nvdisasm); an existing bundle kept.

mod common;

use std::path::Path;
use std::process::Command;

fn ptxdiff() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptxdiff"));
    c.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    c
}

fn text(out: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

const RUN: &str = "reports/example-fuzz";
const ID: &str = "045d2babc94dc136";

#[test]
fn a_bundle_holds_the_kernel_a_repro_that_compiles_the_sass_and_the_versions() {
    let tmp = tempfile::tempdir().unwrap();
    let out = ptxdiff().args(["bundle", RUN, ID, "--out"]).arg(tmp.path()).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let dir = tmp.path().join(ID);
    for f in ["kernel.ptx", "repro.cu", "README.md"] {
        assert!(dir.join(f).is_file(), "{f}: {}", text(&out));
    }
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    for want in ["shr.u64", "V13.0.88", "NVIDIA H200", "| 0 | 0 | 0x00000000 |", "nvcc -x c++"] {
        assert!(readme.contains(want), "`{want}` missing:\n{readme}");
    }
    let repro = std::fs::read_to_string(dir.join("repro.cu")).unwrap();
    assert!(repro.contains("{0, 0, 1, 0x00000000u, \"0x00000000\"}"), "{repro}");
    if common::sass_tools_or_skip().is_some() {
        let o3 = std::fs::read_to_string(dir.join("sass-O3.txt")).unwrap();
        let o0 = std::fs::read_to_string(dir.join("sass-O0.txt")).unwrap();
        assert!(o3.contains("EXIT") && o0.contains("EXIT"), "{o3}");
        assert!(o0.contains("<< only at this level"), "-O0 keeps instructions -O3 folds away:\n{o0}");
    }
    compile_and_run(&dir);
    // A bundle is never written over.
    let again = ptxdiff().args(["bundle", RUN, ID, "--out"]).arg(tmp.path()).output().unwrap();
    assert_eq!(again.status.code(), Some(1), "{}", text(&again));
    assert!(text(&again).contains("exists already"), "{}", text(&again));
    let missing = ptxdiff().args(["bundle", RUN, "0123456789abcdef"]).output().unwrap();
    assert_eq!(missing.status.code(), Some(2), "{}", text(&missing));
    assert!(text(&missing).contains("no finding `0123456789abcdef`"), "{}", text(&missing));
}

/// Builds `repro.cu` with g++ and every nvcc found, and runs it: on this machine without a GPU
/// it must say that it cannot load the driver (exit 2); with one, it prints the words.
fn compile_and_run(dir: &Path) {
    let exe = dir.join("repro");
    let gxx =
        Command::new("g++").arg("-x").arg("c++").arg("-o").arg(&exe).arg(dir.join("repro.cu")).arg("-ldl").output();
    let Ok(gxx) = gxx else {
        common::skip("no g++", "repro.cu was not compiled");
        return;
    };
    assert!(gxx.status.success(), "g++: {}", text(&gxx));
    for nvcc in ["nvcc", "/usr/local/cuda/bin/nvcc"] {
        if let Ok(o) = Command::new(nvcc)
            .args(["-x", "c++", "-o"])
            .arg(dir.join("repro-nvcc"))
            .arg(dir.join("repro.cu"))
            .arg("-ldl")
            .output()
        {
            assert!(o.status.success(), "{nvcc}: {}", text(&o));
        }
    }
    let run = Command::new(&exe).output().unwrap();
    let gpu = Path::new("/dev/nvidia0").exists();
    if gpu {
        assert!(matches!(run.status.code(), Some(0 | 1)), "{}", text(&run));
        assert!(text(&run).contains("words differ from the PTX ISA"), "{}", text(&run));
    } else {
        assert_eq!(run.status.code(), Some(2), "{}", text(&run));
        assert!(text(&run).contains("cannot load libcuda.so.1"), "{}", text(&run));
    }
}
