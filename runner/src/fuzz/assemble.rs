//! Assembling a batch of programs as one module with `ptxas`, and attributing what goes wrong
//! to single programs: an error line falls inside one program's entry; a crash of the
//! assembler (a signal, or an "internal error") is narrowed down by assembling the programs
//! one at a time. A ptxas that ran past its time limit ([`crate::ptxas::timeout_for`]) is a
//! crash of every program of the module (narrowing it down would wait out the limit once per
//! program).

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use oracle::program::{text, Program};
use rayon::prelude::*;

use crate::ptxas::Ptxas;

/// What happened to one batch at one optimization level.
#[derive(Debug, Default)]
pub struct Assembled {
    /// The cubin of the accepted programs (`None` when nothing was accepted).
    pub cubin: Option<PathBuf>,
    /// Indices (into the given programs) of the programs in the cubin.
    pub accepted: Vec<usize>,
    /// Programs ptxas rejected, with its message.
    pub rejected: Vec<(usize, String)>,
    /// Programs that crash ptxas, with its output.
    pub crashed: Vec<(usize, String)>,
}

/// The 1-based line each program's entry starts on in [`text::module`]'s output, and the
/// module.
pub fn module_with_lines(programs: &[&Program]) -> (String, Vec<usize>) {
    let owned: Vec<Program> = programs.iter().map(|p| (*p).clone()).collect();
    let module = text::module(&owned);
    let mut starts = Vec::new();
    for (i, line) in module.lines().enumerate() {
        if line.starts_with("// ptxdiff-program ") {
            starts.push(i + 1);
        }
    }
    (module, starts)
}

fn crash_text(out: &str) -> bool {
    let l = out.to_ascii_lowercase();
    l.contains("internal error") || l.contains("segmentation") || l.contains("core dumped") || l.contains("assertion")
}

/// Assembles `programs` (indices `which`) at `-O{opt}` for `arch`, writing the cubin under
/// `dir`. Rejected or crashing programs are left out and the rest re-assembled. Once `stop`
/// is set, the ptxas running is killed and the result is an error (the batch is abandoned).
#[allow(clippy::too_many_arguments)]
pub fn assemble(
    ptxas: &Ptxas,
    programs: &[Program],
    which: &[usize],
    arch: &str,
    opt: u8,
    dir: &Path,
    tag: &str,
    stop: Option<&AtomicBool>,
) -> std::io::Result<Assembled> {
    let mut result = Assembled::default();
    let mut live: Vec<usize> = which.to_vec();
    for round in 0..4 {
        if live.is_empty() {
            return Ok(result);
        }
        let refs: Vec<&Program> = live.iter().map(|&i| &programs[i]).collect();
        let (module, starts) = module_with_lines(&refs);
        let cubin = dir.join(format!("{tag}-O{opt}-{round}.cubin"));
        let limit = crate::ptxas::timeout_for(&module).map_err(std::io::Error::other)?;
        let asm =
            ptxas.assemble_within(&module, arch, opt, Some(&cubin), limit, stop).map_err(std::io::Error::other)?;
        if asm.ok {
            result.cubin = Some(cubin);
            result.accepted = live;
            return Ok(result);
        }
        if asm.timed_out {
            // Narrowing down would run the hung ptxas again once per program: the module's
            // programs share the crash.
            let why = asm.output.trim().to_string();
            result.crashed.extend(live.iter().map(|&i| (i, why.clone())));
            return Ok(result);
        }
        if asm.crashed || crash_text(&asm.output) || asm.error_lines().is_empty() {
            // Narrow down one program at a time.
            let verdicts: Vec<(usize, Option<(bool, String)>)> = live
                .par_iter()
                .map(|&i| {
                    let m = programs[i].module_text();
                    let run = |limit| ptxas.assemble_within(&m, arch, opt, None, limit, stop).ok();
                    let v = crate::ptxas::timeout_for(&m).ok().and_then(run).map(|a| {
                        let crashed = a.crashed || crash_text(&a.output);
                        (a.ok && !crashed, if crashed { format!("CRASH {}", a.output) } else { a.output })
                    });
                    (i, v)
                })
                .collect();
            let mut keep = Vec::new();
            for (i, v) in verdicts {
                match v {
                    Some((true, _)) => keep.push(i),
                    Some((false, out)) if out.starts_with("CRASH ") => {
                        result.crashed.push((i, out.trim_start_matches("CRASH ").trim().to_string()))
                    }
                    Some((false, out)) => result.rejected.push((i, out.trim().to_string())),
                    None => result.crashed.push((i, "ptxas could not be run".into())),
                }
            }
            live = keep;
            continue;
        }
        let mut bad = Vec::new();
        for line in asm.error_lines() {
            let k = starts.partition_point(|&s| s <= line);
            if k == 0 {
                continue;
            }
            let idx = live[k - 1];
            if !bad.iter().any(|(i, _)| *i == idx) {
                bad.push((idx, format!("line {}: {}", line + 1 - starts[k - 1], asm.error_at(line).unwrap_or(""))));
            }
        }
        if bad.is_empty() {
            result.rejected.extend(live.iter().map(|&i| (i, asm.output.trim().to_string())));
            return Ok(result);
        }
        live.retain(|i| !bad.iter().any(|(b, _)| b == i));
        result.rejected.extend(bad);
    }
    Ok(result)
}
