//! `ptxdiff sass-check`: assemble a PTX file or case (or take a cubin), disassemble it and print
//! every instruction that reads a register never written on some path ([`crate::sass`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;

use crate::ptxas::Ptxas;
use crate::sass::Checker;

/// The arguments of `ptxdiff sass-check`.
#[derive(Args)]
pub struct SassArgs {
    /// A PTX module, a register case file (`reports/<run>/cases/<id>.case`) or a `.cubin`.
    pub file: PathBuf,
    /// Optimization levels to assemble at (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "3")]
    pub opt: Vec<u8>,
    /// Target architecture (default: the module's `.target`).
    #[arg(long)]
    pub arch: Option<String>,
    /// Also print the whole SASS listing of each level.
    #[arg(long)]
    pub listing: bool,
}

/// The `.target` of a PTX module (`sm_90a`).
fn module_target(ptx: &str) -> Option<String> {
    ptx.lines().find_map(|l| {
        l.trim().strip_prefix(".target").map(|t| t.trim().split([',', ' ']).next().unwrap_or("").to_string())
    })
}

/// Runs `sass-check`: exit 0 when nothing is flagged, 1 when something is, an error otherwise.
pub fn sass_check(a: &SassArgs) -> Result<ExitCode> {
    let checker = Checker::find().context("sass-check needs nvdisasm")?;
    let mut flagged = 0usize;
    let mut report = |label: &str, listing: &str, found: &[crate::sass::Unwritten]| {
        if a.listing {
            println!("{listing}");
        }
        for u in found {
            println!("{label}: {u}  [key {}]", u.key());
        }
        if found.is_empty() {
            println!("{label}: no read of a never-written register");
        }
        flagged += found.len();
    };
    if a.file.extension().is_some_and(|e| e == "cubin") {
        let (listing, found) = checker.check_cubin(&a.file)?;
        report(&a.file.display().to_string(), &listing, &found);
    } else {
        let ptx = std::fs::read_to_string(&a.file).with_context(|| format!("reading {}", a.file.display()))?;
        let Some(arch) = a.arch.clone().or_else(|| module_target(&ptx)) else {
            bail!("{}: no `.target` line; give --arch (e.g. sm_90a)", a.file.display())
        };
        let ptxas = Ptxas::find().context("sass-check assembles with ptxas")?;
        for &opt in &a.opt {
            if opt > 3 {
                bail!("--opt {opt}: ptxas takes 0 to 3");
            }
            let (listing, found) = checker
                .check_ptx(&ptxas, &ptx, &arch, opt)
                .with_context(|| format!("{} at -O{opt}", a.file.display()))?;
            report(&format!("{} -O{opt}", short(&a.file)), &listing, &found);
        }
        println!("ptxas: {}; nvdisasm: {}", ptxas.version, checker.nvdisasm.version);
    }
    Ok(if flagged > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

fn short(p: &Path) -> String {
    p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_is_read_from_the_module() {
        assert_eq!(module_target(".version 8.7\n.target sm_90a\n").as_deref(), Some("sm_90a"));
        assert_eq!(module_target(".target sm_90a, debug\n").as_deref(), Some("sm_90a"));
        assert_eq!(module_target(".version 8.7\n"), None);
    }
}
