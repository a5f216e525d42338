//! Assembling a batch of programs as one module with `ptxas`, and attributing what goes wrong
//! to single programs: an error line falls inside one program's entry; a crash of the
//! assembler (a signal, or an "internal error") and a run past the module's time limit
//! ([`crate::ptxas::timeout_for`]) are narrowed down by assembling the programs one at a time,
//! in parallel, each under the shorter limit of a program alone
//! ([`crate::ptxas::alone_timeout_for`]).
//!
//! Invariant: a program is a crash only if it crashes or hangs ptxas alone (or is the module's
//! only program); the others of its module are assembled again without it. Only a module that
//! fails although each of its programs assembles alone makes all of them crashes, with a
//! message that says so. Until session 50 a
//! timed-out module made every one of its programs a crash: seed 5003's one ptxas -O3 hang
//! (5a46d3da) gave 33 crash findings labelled new, 31 of them programs that assemble alone.

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
    /// Programs that crash or hang ptxas.
    pub crashed: Vec<Crashed>,
}

/// A program that crashed ptxas or ran past its time limit.
#[derive(Debug, Clone)]
pub struct Crashed {
    /// Its index into the given programs.
    pub index: usize,
    /// What ptxas printed (and ptxdiff's line saying it was killed at the limit).
    pub output: String,
    /// Whether ptxas ran past the limit (a hang) rather than crashing.
    pub timed_out: bool,
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
        if live.len() == 1 && asm.timed_out {
            result.crashed.push(Crashed { index: live[0], output: asm.output.trim().to_string(), timed_out: true });
            return Ok(result);
        }
        if asm.timed_out || asm.crashed || crash_text(&asm.output) || asm.error_lines().is_empty() {
            let (keep, crashed, rejected) = narrow_down(ptxas, programs, &live, arch, opt, stop)?;
            if keep.len() == live.len() {
                // Each program assembles alone: the module as a whole is what ptxas cannot take
                // (assembling it again would fail the same way), so its programs share the crash.
                let why = format!(
                    "{}\nptxdiff: each of the module's {} programs assembles alone",
                    asm.output.trim(),
                    live.len()
                );
                let timed_out = asm.timed_out;
                result.crashed.extend(live.iter().map(|&index| Crashed { index, output: why.clone(), timed_out }));
                return Ok(result);
            }
            result.crashed.extend(crashed);
            result.rejected.extend(rejected);
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

/// The programs `live` (indices into `programs`), each assembled alone under
/// [`crate::ptxas::alone_timeout_for`], in parallel: those ptxas accepts (to be assembled
/// again as a module), those that crash or hang it, with its output, and those it rejects,
/// with its message. An error once `stop` is set (the batch is abandoned).
#[allow(clippy::type_complexity)]
fn narrow_down(
    ptxas: &Ptxas,
    programs: &[Program],
    live: &[usize],
    arch: &str,
    opt: u8,
    stop: Option<&AtomicBool>,
) -> std::io::Result<(Vec<usize>, Vec<Crashed>, Vec<(usize, String)>)> {
    use crate::ptxas::PtxasError;
    let verdicts: Vec<(usize, Result<crate::ptxas::Assembly, PtxasError>)> = live
        .par_iter()
        .map(|&i| {
            let m = programs[i].module_text();
            let run = crate::ptxas::alone_timeout_for(&m)
                .and_then(|limit| ptxas.assemble_within(&m, arch, opt, None, limit, stop));
            (i, run)
        })
        .collect();
    let (mut keep, mut crashed, mut rejected) = (Vec::new(), Vec::new(), Vec::new());
    for (i, v) in verdicts {
        match v {
            Err(PtxasError::Cancelled) => return Err(std::io::Error::other(PtxasError::Cancelled)),
            Err(e) => crashed.push(Crashed {
                index: i,
                output: format!("ptxas could not be run on this program alone: {e}"),
                timed_out: false,
            }),
            Ok(a) if a.crashed || crash_text(&a.output) => {
                crashed.push(Crashed { index: i, output: a.output.trim().to_string(), timed_out: a.timed_out })
            }
            Ok(a) if a.ok => keep.push(i),
            Ok(a) => rejected.push((i, a.output.trim().to_string())),
        }
    }
    Ok((keep, crashed, rejected))
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt as _;
    use std::time::{Duration, Instant};

    use super::*;

    /// A stand-in ptxas that answers `--version`, runs `when_marked` on a module holding the
    /// text `MARK` and otherwise writes a cubin. Its arguments are `-arch=… -O3 SRC -o OUT`.
    fn stand_in(dir: &Path, when_marked: &str) -> Ptxas {
        let path = dir.join("ptxas");
        let script = format!(
            "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'Cuda compilation tools, release 13.0, V13.0.88'; exit 0; fi\n\
             if grep -q MARK \"$3\"; then {when_marked}; fi\necho cubin > \"$5\"\n"
        );
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        Ptxas::at(&path).unwrap()
    }

    fn programs(marked: &[usize]) -> Vec<Program> {
        let target = oracle::isa::Target::parse("sm_90").unwrap();
        (0..6)
            .map(|i| {
                let name = if marked.contains(&i) { format!("p{i}_MARK") } else { format!("p{i}") };
                generator::program::generate_seeded(i as u64, &Default::default(), &target, &name).0
            })
            .collect()
    }

    /// Seed 5003 (session 50): one program that hangs ptxas -O3 made all 256 of its module's
    /// programs crashes. Now only the program that hangs alone is; the rest is assembled.
    /// (`PTXDIFF_PTXAS_TIMEOUT` is read by every run: the test sets nothing and stays within the
    /// defaults, a module limit of 20 s and 10 s for a program alone.)
    #[test]
    fn a_hang_is_narrowed_to_the_program_that_hangs_alone() {
        if std::env::var_os("PTXDIFF_PTXAS_TIMEOUT").is_some() {
            eprintln!("skipped: PTXDIFF_PTXAS_TIMEOUT is set, the limits this test waits out are not the defaults");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let ptxas = stand_in(dir.path(), "sleep 1000");
        let ps = programs(&[2]);
        let which: Vec<usize> = (0..ps.len()).collect();
        let t = Instant::now();
        let a = assemble(&ptxas, &ps, &which, "sm_90", 3, dir.path(), "t", None).unwrap();
        assert_eq!(a.accepted, vec![0, 1, 3, 4, 5]);
        assert!(a.cubin.is_some() && a.rejected.is_empty());
        assert_eq!(a.crashed.iter().map(|c| (c.index, c.timed_out)).collect::<Vec<_>>(), vec![(2, true)]);
        assert!(a.crashed[0].output.contains("did not finish within 10."), "{}", a.crashed[0].output);
        // The module's limit, then the program's alone (in parallel with the others').
        assert!(t.elapsed() < crate::ptxas::BASE_TIMEOUT + Duration::from_secs(25), "{:?}", t.elapsed());
    }

    /// A crash (a signal) is narrowed the same way; a module that fails although each program
    /// assembles alone makes every program a crash that says so, after one narrowing (not four).
    #[test]
    fn a_crash_is_narrowed_and_a_module_only_failure_is_said_as_such() {
        let dir = tempfile::tempdir().unwrap();
        let ptxas = stand_in(dir.path(), "kill -SEGV $$");
        let ps = programs(&[1, 4]);
        let which: Vec<usize> = (0..ps.len()).collect();
        let a = assemble(&ptxas, &ps, &which, "sm_90", 3, dir.path(), "c", None).unwrap();
        assert_eq!(a.accepted, vec![0, 2, 3, 5]);
        assert_eq!(a.crashed.iter().map(|c| (c.index, c.timed_out)).collect::<Vec<_>>(), vec![(1, false), (4, false)]);
        assert!(a.crashed[0].output.contains("signal 11"), "{}", a.crashed[0].output);

        // Only a module of two programs or more fails: wc counts the entries.
        let dir2 = tempfile::tempdir().unwrap();
        let path = dir2.path().join("ptxas");
        let script = "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'Cuda compilation tools, release 13.0, V13.0.88'; exit 0; fi\n\
                      if [ \"$(grep -c '^// ptxdiff-program' \"$3\")\" -gt 1 ]; then kill -SEGV $$; fi\necho cubin > \"$5\"\n";
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        let module_only = Ptxas::at(&path).unwrap();
        let ps = programs(&[]);
        let a = assemble(&module_only, &ps, &which, "sm_90", 3, dir2.path(), "m", None).unwrap();
        assert!(a.cubin.is_none() && a.accepted.is_empty());
        assert_eq!(a.crashed.len(), ps.len());
        assert!(
            a.crashed[0].output.contains("each of the module's 6 programs assembles alone"),
            "{}",
            a.crashed[0].output
        );
    }
}
