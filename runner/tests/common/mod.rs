//! Helpers shared by the runner's integration tests (each test file says `mod common;`).
//!
//! A test that cannot run here (no GPU, no ptxas) calls [`skip`] and returns: it says so on
//! stderr and, under `ci/test`, in the skip log that `ci/test-summary` reads, so that the
//! suite's last line counts it as skipped, with the reason, and not as passed.

use std::io::Write as _;
use std::path::Path;

use runner::ptxas::Ptxas;

/// The environment variable naming the skip log (`ci/test` sets it): [`skip`] appends one line
/// `CRATE<TAB>TEST<TAB>REASON<TAB>DETAIL` per skipped test, `ci/test-summary` reads them.
#[allow(dead_code)] // used by some of the test files
pub const SKIP_LOG: &str = "PTXDIFF_SKIP_LOG";

/// The test calling this could not run here, for `reason` (short and fixed, e.g. `no GPU`,
/// `no ptxas`; the summary groups by it) and `detail` (what the machine said): a `SKIPPED`
/// line on stderr, and a line in the skip log when `PTXDIFF_SKIP_LOG` names one. The caller
/// returns right after. The test's name is its thread's, as the test harness names it.
#[allow(dead_code)] // used by some of the test files
pub fn skip(reason: &str, detail: &str) {
    eprintln!("SKIPPED ({reason}): {detail}");
    if let Some(log) = std::env::var_os(SKIP_LOG).filter(|v| !v.is_empty()) {
        let test = std::thread::current().name().unwrap_or("unnamed").to_string();
        record_skip(Path::new(&log), env!("CARGO_CRATE_NAME"), &test, reason, detail)
            .unwrap_or_else(|e| panic!("writing the skip log {}: {e}", Path::new(&log).display()));
    }
}

/// Appends one skip line to `log` (created if missing) in one write, so that tests running
/// side by side do not interleave their lines; tabs and newlines in the fields become spaces.
#[allow(dead_code)] // used by some of the test files
pub fn record_skip(log: &Path, krate: &str, test: &str, reason: &str, detail: &str) -> std::io::Result<()> {
    let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    let line = format!("{}\t{}\t{}\t{}\n", clean(krate), clean(test), clean(reason), clean(detail));
    std::fs::OpenOptions::new().create(true).append(true).open(log)?.write_all(line.as_bytes())
}

/// The ptxas found, or `None` after [`skip`] (`no ptxas`) when there is none — unless `CI` or
/// `PTXDIFF_REQUIRE_PTXAS` is set: then a missing ptxas fails the test, so CI cannot silently
/// skip what needs it.
#[allow(dead_code)] // used by some of the test files
pub fn ptxas_or_skip() -> Option<Ptxas> {
    match Ptxas::find() {
        Ok(p) => Some(p),
        Err(e) => {
            let required = std::env::var_os("CI").is_some() || std::env::var_os("PTXDIFF_REQUIRE_PTXAS").is_some();
            assert!(!required, "ptxas is required here: {e}");
            skip("no ptxas", &e.to_string());
            None
        }
    }
}

/// ptxas and the SASS checker (nvdisasm), or `None` after [`skip`] (`no ptxas`, `no
/// nvdisasm`) — a failure where the tools are required (`CI`, `PTXDIFF_REQUIRE_PTXAS`; ci/test
/// installs both).
#[allow(dead_code)] // used by some of the test files
pub fn sass_tools_or_skip() -> Option<(Ptxas, runner::sass::Checker)> {
    let ptxas = ptxas_or_skip()?;
    match runner::sass::Checker::find() {
        Ok(c) => Some((ptxas, c)),
        Err(e) => {
            let required = std::env::var_os("CI").is_some() || std::env::var_os("PTXDIFF_REQUIRE_PTXAS").is_some();
            assert!(!required, "nvdisasm is required here: {e}");
            skip("no nvdisasm", &e.to_string());
            None
        }
    }
}

/// A 2-D UINT8 map over a 16 × 4 ramp (row stride 16) whose copy lives in the global buffer
/// `gmap`; the program replaces fields (`replace`), fences if asked, and loads the box at
/// (0, 1) through the object into `win` (expecting `tx` bytes).
#[allow(dead_code)] // used by some of the test files
pub fn replaced_line(replace: &[&str], fences: bool, tx: u32) -> serde_json::Value {
    let hex = |from: u8| (0..64u8).map(|b| format!("{:02x}", from + b)).collect::<String>();
    let mut program: Vec<String> = replace.iter().map(|s| s.to_string()).collect();
    if fences {
        program.push("fence.proxy.tensormap::generic.release.gpu;".into());
        program.push("fence.proxy.tensormap::generic.acquire.gpu [gmap], 128;".into());
    }
    program.extend([
        "mbarrier.init.shared::cta.b64 [bar], 1;".to_string(),
        format!("mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], {tx};"),
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [win], [gmap, {c0, c1}], [bar];"
            .into(),
        "L:".into(),
        "mbarrier.try_wait.shared::cta.b64 p, [bar], st;".into(),
        "@!p bra L;".into(),
    ]);
    serde_json::json!({
        "program": program,
        "target": "sm_90a",
        "regs": {"c0": "0x0", "c1": "0x1"},
        "buffers": {
            "src": {"space": "global", "hex": hex(0)},
            "src2": {"space": "global", "hex": hex(0x80)},
            "gmap": {"space": "global", "len": 128, "align": 128},
            "win": {"space": "shared", "len": 64, "align": 128, "fill": "a5"},
            "bar": {"space": "shared", "len": 8, "align": 8},
        },
        "tensor_maps": {"tmap": {"global": "src", "object": "gmap", "dtype": "UINT8", "dims": [16, 4],
            "strides": [16], "box": [16, 2], "element_strides": [1, 1]}},
        "read": ["win"],
    })
}

/// A memory program over `src` (32 global bytes), `win` (64 shared bytes) and `bar`:
/// `createpolicy` (fractional, then range) feeding a hinted bulk load on an mbarrier and two
/// hinted `cp.async` (the second with src-size 5), then `cp.async.wait_all` — the copies land
/// as without the hints (§9.7.9.18: the policy is a hint only).
#[allow(dead_code)] // used by some of the test files
pub const CREATEPOLICY_PROGRAM: [&str; 11] = [
    "createpolicy.fractional.L2::evict_first.b64 pol, 1.0;",
    "mbarrier.init.shared::cta.b64 [bar], 1;",
    "fence.mbarrier_init.release.cluster;",
    "mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], 32;",
    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [win], [src], 32, [bar], pol;",
    "L: mbarrier.try_wait.shared::cta.b64 p, [bar], st;",
    "@!p bra L;",
    "cp.async.ca.shared.global.L2::cache_hint [win+32], [src+4], 4, pol;",
    "createpolicy.range.global.L2::evict_last.L2::evict_unchanged.b64 pol2, [src], 16, 32;",
    "cp.async.cg.shared.global.L2::cache_hint [win+48], [src+16], 16, 5, pol2;",
    "cp.async.wait_all;",
];

/// A generated program's case file `p.case` in `dir` (seed 9, sm_90, the default generator).
#[allow(dead_code)] // used by some of the test files
pub fn a_case(dir: &Path) -> std::path::PathBuf {
    let target: oracle::isa::Target = "sm_90".parse().unwrap();
    let (p, i) = generator::program::generate_seeded(9, &generator::program::Config::default(), &target, "p");
    let path = dir.join("p.case");
    std::fs::write(&path, oracle::program::text::case(&p, &i)).unwrap();
    path
}

/// Assembles `programs` as modules of at most 128 entries (conform's batch) for `arch`,
/// failing with ptxas's first lines for a batch it rejects.
#[allow(dead_code)] // used by some of the test files
pub fn assemble_all(ptxas: &Ptxas, programs: &[oracle::memprog::MemProgram], arch: &str) {
    let dir = tempfile::tempdir().unwrap();
    for (k, chunk) in programs.chunks(128).enumerate() {
        let refs: Vec<&oracle::memprog::MemProgram> = chunk.iter().collect();
        let m = oracle::memprog::ptx::module(&refs).unwrap();
        let asm = ptxas.assemble(&m.ptx, arch, 3, Some(&dir.path().join(format!("{k}.cubin")))).unwrap();
        assert!(asm.ok, "batch {k}: {}", asm.output.lines().take(20).collect::<Vec<_>>().join("\n"));
    }
}

/// The first 200 programs of campaign seed `seed` (batch 0) generated with `cfg` on sm_90 that
/// have a statement containing `needle`: at least `min` of them, each defined on the oracle
/// (never undefined or unsupported), built.
#[allow(dead_code)] // used by some of the test files
pub fn defined_generated_programs(
    cfg: &generator::async_programs::AsyncConfig,
    seed: u64,
    needle: &str,
    min: usize,
) -> Vec<oracle::memprog::MemProgram> {
    let target: oracle::isa::Target = "sm_90".parse().unwrap();
    let programs: Vec<oracle::memprog::MemProgram> = (0..200u64)
        .map(|s| generator::async_programs::generate_seeded(runner::fuzz::program_seed(seed, 0, s), cfg, &target))
        .filter(|src| src.statements.iter().any(|s| s.contains(needle)))
        .map(|src| src.build().unwrap())
        .collect();
    assert!(programs.len() >= min, "{} programs have `{needle}`", programs.len());
    for p in &programs {
        if let Err(e) = oracle::memprog::interp::run(p, &oracle::semantics::Allowances::all()) {
            panic!("undefined or unsupported: {e}\n{p}");
        }
    }
    programs
}

/// The repository's root (the runner crate's parent).
#[allow(dead_code)] // used by some of the test files
pub fn repo() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The stored signatures (id, signature) of `corpus/findings/CAMPAIGN/findings-labelled-new.json`.
#[allow(dead_code)] // used by some of the test files
pub fn stored(campaign: &str) -> Vec<(String, runner::findings::Signature)> {
    #[derive(serde::Deserialize)]
    struct Stored {
        id: String,
        signature: runner::findings::Signature,
    }
    let path = repo().join("corpus/findings").join(campaign).join("findings-labelled-new.json");
    let findings: Vec<Stored> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    findings.into_iter().map(|f| (f.id, f.signature)).collect()
}
