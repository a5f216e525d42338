//! The SASS check on real kernels (issue 29 item 5): ptxas assembles, nvdisasm disassembles,
//! `runner::sass` flags reads of registers never written. A planted read (the createpolicy root
//! cause, corpus/findings/) is flagged at -O3 and not at -O0; generated programs raise no alarm
//! at -O0. Without ptxas or nvdisasm the tests say so and pass, unless `CI` or
//! `PTXDIFF_REQUIRE_PTXAS` is set (as in ci/test, which installs both).
//!
//! `generated_programs_at_scale` (ignored; `SASS_PROGRAMS=10000 cargo test -p ptxdiff --test
//! sass_check -- --ignored --nocapture`) checks many programs at -O0 and -O3 and prints what it
//! flags and what the check cost (docs/PERFORMANCE.md). `SASS_OPT=3` checks one level only;
//! `SASS_DUMP=DIR` writes each flagged kernel's PTX and SASS to DIR for analysis.

mod common;

use std::time::Instant;

use generator::program::{generate_seeded, Config};
use oracle::program::text::{self, parse_case};
use runner::findings::{FindingClass, KnownSet, Signature};
use runner::ptxas::Ptxas;
use runner::sass::{check_listing, function_listing, Checker, Unwritten};

/// ptxas and the checker, or `None` after `common::skip` (a failure where tools are required).
fn tools() -> Option<(Ptxas, Checker)> {
    common::sass_tools_or_skip()
}

/// The minimized case of each class of read ptxas is known for (corpus/findings/sass-unwritten/)
/// and the createpolicy case: clean at -O0, flagged at -O3 with the reader and role its
/// write-up names, and counted as known by that class's entry in `corpus/known/`.
#[test]
fn each_known_class_has_a_case_flagged_at_o3_only_and_known() {
    let Some((ptxas, checker)) = tools() else { return };
    let root = runner::paths::repo_root().expect("the repository");
    let known = KnownSet::load(&root.join("corpus/known")).unwrap();
    let cases = [
        ("corpus/findings/sass-unwritten/cctl-under-unwritten-predicate.case", "CCTL.IVALL", "guard"),
        ("corpus/findings/sass-unwritten/descriptor-never-loaded.case", "LDG.E.NA.64", "descriptor"),
        ("corpus/findings/sass-unwritten/tf32-of-unwritten-half.case", "F2FP.TF32.F32.PACK_B", "source"),
        ("corpus/findings/createpolicy-dropped-store-policy.case", "STG.E", "descriptor"),
    ];
    for (file, reader, role) in cases {
        let (p, _) = parse_case(&std::fs::read_to_string(root.join(file)).unwrap()).unwrap();
        let ptx = p.module_text();
        let arch = p.target.name();
        let (_, o0) = checker.check_ptx(&ptxas, &ptx, &arch, 0).unwrap();
        assert_eq!(o0, Vec::<Unwritten>::new(), "{file} at -O0");
        let (listing, o3) = checker.check_ptx(&ptxas, &ptx, &arch, 3).unwrap();
        let keys: Vec<String> = o3.iter().map(Unwritten::key).collect();
        assert_eq!(keys, [format!("{reader} {role}")], "{file} at -O3 ({}):\n{listing}", ptxas.version);
        let sig = Signature::new(FindingClass::UnwrittenRegister, reader, "", ["ptxas -O3"], role);
        assert!(known.matches(&sig).is_some(), "{file}: no corpus/known entry covers {sig}");
    }
}

#[test]
fn the_createpolicy_root_cause_is_flagged_at_o3_only() {
    let Some((ptxas, checker)) = tools() else { return };
    let root = runner::paths::repo_root().expect("the repository");
    let ptx = std::fs::read_to_string(root.join("corpus/findings/createpolicy-dropped-store-policy.ptx")).unwrap();
    let (_, o0) = checker.check_ptx(&ptxas, &ptx, "sm_90a", 0).unwrap();
    assert_eq!(o0, Vec::<Unwritten>::new(), "-O0 computes the policy");
    let (listing, o3) = checker.check_ptx(&ptxas, &ptx, "sm_90a", 3).unwrap();
    let flagged: Vec<(String, String)> = o3.iter().map(|u| (u.key(), u.registers.join(" "))).collect();
    assert_eq!(flagged, [("STG.E descriptor".into(), "UR6 UR7".into())], "{}\n{listing}", ptxas.version);
}

/// Seed 4703's six unwritten-register findings were false alarms (trace/T18u3.md): ptxas -O3
/// makes a jump table of the generated prologue's branches (`BRX R6 -0xe0`), and `nvdisasm
/// -ndf` leaves out its targets, so the check took every label as one and a path skipped a
/// `bfind.s64` diamond's writes. The listing is made again with the targets
/// (`sass::disasm::lacks_branch_targets`): the reduced case, and the stored cases, flag nothing.
#[test]
fn a_jump_table_is_followed_to_its_targets_only() {
    let Some((ptxas, checker)) = tools() else { return };
    let root = runner::paths::repo_root().expect("the repository");
    let dir = root.join("corpus/findings/fuzz-h200-4703");
    let reduced = std::fs::read_to_string(dir.join("trace/e70412f7/reduced.ptx")).unwrap();
    let (listing, o3) = checker.check_ptx(&ptxas, &reduced, "sm_90", 3).unwrap();
    assert!(listing.contains("BRANCH_TARGETS"), "{listing}");
    assert_eq!(o3, Vec::<Unwritten>::new(), "{listing}");
    for id in ["e70412f7", "40b8d262", "034df910", "6d35da70", "21d20d9a", "6a942800"] {
        let name = std::fs::read_dir(dir.join("cases"))
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with(id)))
            .unwrap();
        let (p, _) = parse_case(&std::fs::read_to_string(&name).unwrap()).unwrap();
        let (_, o3) = checker.check_ptx(&ptxas, &p.module_text(), &p.target.name(), 3).unwrap();
        assert_eq!(o3, Vec::<Unwritten>::new(), "{id}");
    }
}

/// `n` generated programs (seeds from `first`) as modules of `per` programs.
fn modules(first: u64, n: u64, per: u64) -> Vec<String> {
    let cfg = Config::default();
    let target = "sm_90".parse().unwrap();
    (first..first + n)
        .collect::<Vec<u64>>()
        .chunks(per as usize)
        .map(|seeds| {
            let ps: Vec<_> = seeds.iter().map(|&s| generate_seeded(s, &cfg, &target, &format!("p{s}")).0).collect();
            text::module(&ps)
        })
        .collect()
}

/// The PTX of one program of a module: from its `// ptxdiff-program name=NAME` line to the next.
fn program_ptx<'a>(module: &'a str, name: &str) -> &'a str {
    let head = format!("// ptxdiff-program name={name} ");
    let Some(start) = module.find(&head) else { return "" };
    let rest = &module[start + head.len()..];
    let end = rest.find("// ptxdiff-program ").map_or(module.len(), |e| start + head.len() + e);
    &module[start..end]
}

/// What checking `modules` at `opt` flagged, the kernels checked, and the CPU seconds spent in
/// nvdisasm plus the check (not ptxas); with `dump`, each flagged kernel's PTX and SASS are
/// written there.
fn check_modules(
    ptxas: &Ptxas,
    checker: &Checker,
    modules: &[String],
    opt: u8,
    dump: Option<&std::path::Path>,
) -> (Vec<Unwritten>, usize, f64) {
    let dir = tempfile::tempdir().unwrap();
    let (mut found, mut kernels, mut cpu) = (Vec::new(), 0, 0.0);
    for (k, m) in modules.iter().enumerate() {
        let cubin = dir.path().join(format!("m{k}.cubin"));
        let asm = ptxas.assemble(m, "sm_90", opt, Some(&cubin)).unwrap();
        if !asm.ok {
            // A rejection or an assembler crash is another finding's business; its module has no SASS.
            eprintln!("module {k} at -O{opt} not assembled: {}", asm.output.lines().next().unwrap_or(""));
            continue;
        }
        let before = cpu_seconds();
        let listing = checker.nvdisasm.disassemble(&cubin, checker.timeout).unwrap();
        let mut f = check_listing(&listing).unwrap();
        cpu += cpu_seconds() - before;
        kernels += listing.matches("STO_CUDA_ENTRY").count();
        if let Some(dir) = dump {
            for u in &f {
                let stem = dir.join(format!("O{opt}-{}", u.kernel));
                std::fs::write(stem.with_extension("ptx"), program_ptx(m, &u.kernel)).unwrap();
                let sass = format!("// {u}\n{}", function_listing(&listing, &u.kernel).unwrap_or(""));
                std::fs::write(stem.with_extension("sass"), sass).unwrap();
            }
        }
        found.append(&mut f);
    }
    (found, kernels, cpu)
}

/// This process's and its finished children's CPU time (user + system), in seconds.
fn cpu_seconds() -> f64 {
    let get = |who| {
        // SAFETY: getrusage writes one plain struct it is given.
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::getrusage(who, &mut u) };
        let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 * 1e-6;
        t(u.ru_utime) + t(u.ru_stime)
    };
    get(libc::RUSAGE_SELF) + get(libc::RUSAGE_CHILDREN)
}

#[test]
fn generated_programs_raise_no_alarm_at_o0() {
    let Some((ptxas, checker)) = tools() else { return };
    let ms = modules(0, 200, 50);
    let (found, kernels, _) = check_modules(&ptxas, &checker, &ms, 0, None);
    assert!(kernels >= 190, "only {kernels} of 200 kernels checked");
    let lines: Vec<String> = found.iter().map(ToString::to_string).collect();
    assert!(found.is_empty(), "false alarms at -O0 on generated programs:\n{}", lines.join("\n"));
}

#[test]
#[ignore = "minutes: many programs through ptxas and nvdisasm (SASS_PROGRAMS, default 10000)"]
fn generated_programs_at_scale() {
    let Some((ptxas, checker)) = tools() else { return };
    let n: u64 = std::env::var("SASS_PROGRAMS").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000);
    let first: u64 = std::env::var("SASS_FIRST_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    let levels: Vec<u8> = match std::env::var("SASS_OPT").ok().and_then(|v| v.parse().ok()) {
        Some(opt) => vec![opt],
        None => vec![0, 3],
    };
    let dump = std::env::var_os("SASS_DUMP").map(std::path::PathBuf::from);
    if let Some(d) = &dump {
        std::fs::create_dir_all(d).unwrap();
    }
    let ms = modules(first, n, 250);
    let mut o0 = Vec::new();
    for opt in levels {
        let start = Instant::now();
        let (found, kernels, cpu) = check_modules(&ptxas, &checker, &ms, opt, dump.as_deref());
        let mut by_key = std::collections::BTreeMap::<String, usize>::new();
        for u in &found {
            *by_key.entry(u.key()).or_default() += 1;
            println!("-O{opt} {u}");
        }
        let flagged_kernels: std::collections::BTreeSet<&str> = found.iter().map(|u| u.kernel.as_str()).collect();
        println!(
            "-O{opt}: {kernels} kernels, {} flagged ({} instructions; by key {by_key:?}); nvdisasm + check {:.1} CPU-ms per program; wall {:.0} s",
            flagged_kernels.len(),
            found.len(),
            1000.0 * cpu / kernels.max(1) as f64,
            start.elapsed().as_secs_f64()
        );
        if opt == 0 {
            o0 = found;
        }
    }
    // A flag that a known root cause covers is a real read of a never-written register (K
    // reads a descriptor nothing wrote at -O0 too, e.g. seed 1,003,446), not a false alarm.
    let root = runner::paths::repo_root().expect("the repository");
    let known = KnownSet::load(&root.join("corpus/known")).unwrap();
    let unexplained: Vec<String> = o0
        .iter()
        .filter(|u| {
            let sig =
                Signature::new(FindingClass::UnwrittenRegister, &u.mnemonic, "", ["ptxas -O0"], u.roles.join("+"));
            known.matches(&sig).is_none()
        })
        .map(ToString::to_string)
        .collect();
    assert!(unexplained.is_empty(), "false alarms at -O0:\n{}", unexplained.join("\n"));
}
