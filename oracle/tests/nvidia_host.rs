//! The cvt oracle against NVIDIA's host emulation of the FP8/FP6/FP4/UE8M0 conversions
//! (`cuda_fp8.hpp`, `cuda_fp6.hpp`, `cuda_fp4.hpp` of CUDA 13.5, compiled host-only by
//! `ci/install-nvidia-host-reference` into `.tools/nvidia-host-dump`). It is NVIDIA's software
//! model, not the hardware, but the best reference for forms no available GPU runs.
//!
//! Inputs: every f32 exponent and sign with edge mantissas plus 2^20 random f32s, through
//! `.rn.satfinite` to e4m3/e5m2/e2m3/e3m2/e2m1 and `.rz`/`.rp` (with and without `.satfinite`)
//! to ue8m0; and every code of each format back to f16 (bf16 for ue8m0).
//!
//! Where NVIDIA's host code and the PTX text disagree, the oracle follows the text. With the
//! CUDA 13.5.37 headers there is no such case on these inputs (NaN to FP6/FP4 gives +MAX_NORM
//! in both, as §9.7.9.21 `.satfinite` says), so every difference is a failure.
//!
//! Without the dump the test says so and passes, unless `CI` or
//! `PTXDIFF_REQUIRE_NVIDIA_HOST` is set.

use std::path::PathBuf;
use std::process::Command;

use oracle::isa::{Cvt, CvtRnd, CvtType};
use oracle::semantics::cvt::{eval, CvtInputs};
use oracle::semantics::Allowances;

fn dump_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PTXDIFF_NVIDIA_HOST_DUMP") {
        return Some(PathBuf::from(p));
    }
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.tools/nvidia-host-dump");
    p.is_file().then_some(p)
}

fn cvt(rnd: CvtRnd, satfinite: bool, dtype: CvtType, atype: CvtType) -> Cvt {
    Cvt { rnd: Some(rnd), ftz: false, sat: false, relu: false, satfinite, dtype, atype }
}

#[test]
fn oracle_agrees_with_nvidia_host_emulation() {
    let Some(path) = dump_path() else {
        let required = std::env::var_os("CI").is_some() || std::env::var_os("PTXDIFF_REQUIRE_NVIDIA_HOST").is_some();
        assert!(!required, "the NVIDIA host reference is required here: run ci/install-nvidia-host-reference");
        eprintln!("SKIPPED: no .tools/nvidia-host-dump (run ci/install-nvidia-host-reference)");
        return;
    };
    let out = Command::new(&path).output().expect("run the NVIDIA host dump");
    assert!(out.status.success(), "{} failed", path.display());
    let text = String::from_utf8(out.stdout).expect("ASCII output");
    let allow = Allowances::all();
    use CvtType::*;
    let narrow = [
        ("e4m3", cvt(CvtRnd::Rn, true, E4m3x2, F32), 8),
        ("e5m2", cvt(CvtRnd::Rn, true, E5m2x2, F32), 8),
        ("e2m3", cvt(CvtRnd::Rn, true, E2m3x2, F32), 8),
        ("e3m2", cvt(CvtRnd::Rn, true, E3m2x2, F32), 8),
        ("e2m1", cvt(CvtRnd::Rn, true, E2m1x2, F32), 4),
        ("ue8m0 rz", cvt(CvtRnd::Rz, false, Ue8m0x2, F32), 8),
        ("ue8m0 rz satfinite", cvt(CvtRnd::Rz, true, Ue8m0x2, F32), 8),
        ("ue8m0 rp", cvt(CvtRnd::Rp, false, Ue8m0x2, F32), 8),
        ("ue8m0 rp satfinite", cvt(CvtRnd::Rp, true, Ue8m0x2, F32), 8),
    ];
    let widen = [
        ("e4m3->f16", cvt(CvtRnd::Rn, false, F16x2, E4m3x2), 8, 0xFFu32),
        ("e5m2->f16", cvt(CvtRnd::Rn, false, F16x2, E5m2x2), 8, 0xFF),
        ("e2m3->f16", cvt(CvtRnd::Rn, false, F16x2, E2m3x2), 8, 0x3F),
        ("e3m2->f16", cvt(CvtRnd::Rn, false, F16x2, E3m2x2), 8, 0x3F),
        ("e2m1->f16", cvt(CvtRnd::Rn, false, F16x2, E2m1x2), 4, 0xF),
        ("ue8m0->bf16", cvt(CvtRnd::Rn, false, Bf16x2, Ue8m0x2), 8, 0xFF),
    ];
    let mut checked = 0u64;
    let mut failures = Vec::new();
    for line in text.lines() {
        let fields: Vec<u32> = line[2..].split(' ').map(|h| u32::from_str_radix(h, 16).expect("hex")).collect();
        if line.starts_with("F ") {
            let x = fields[0];
            for (k, (what, form, lane)) in narrow.iter().enumerate() {
                let nvidia = fields[k + 1];
                let e = eval(form, &CvtInputs { a: u64::from(x), b: u64::from(x), ..Default::default() }, &allow);
                let both = (u128::from(nvidia) << lane) | u128::from(nvidia);
                checked += 1;
                if !e.matches(both) && failures.len() < 20 {
                    failures.push(format!("{what} of f32 {x:#010x}: NVIDIA host {nvidia:#x}, oracle {e}"));
                }
            }
        } else if line.starts_with("D ") {
            let code = fields[0];
            for (k, (what, form, lane, mask)) in widen.iter().enumerate() {
                if code > *mask {
                    continue;
                }
                let nvidia = fields[k + 1];
                let a = (u64::from(code) << lane) | u64::from(code);
                let e = eval(form, &CvtInputs { a, ..Default::default() }, &allow);
                checked += 1;
                if !e.matches((u128::from(nvidia) << 16) | u128::from(nvidia)) && failures.len() < 20 {
                    failures.push(format!("{what} of {code:#x}: NVIDIA host {nvidia:#06x}, oracle {e}"));
                }
            }
        }
    }
    eprintln!("{checked} conversions compared with NVIDIA's host emulation");
    assert!(checked > 10_000_000 / 2, "only {checked} comparisons");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
