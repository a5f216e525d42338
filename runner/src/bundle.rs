//! `ptxdiff bundle`: a folder a person can attach to a bug report as is, per stored
//! register-program finding (issue 29 item 6).
//!
//! A bundle holds `kernel.ptx` (the minimized case as a PTX module), `repro.cu` (a standalone
//! host program: it loads the driver with `dlopen`, so it needs neither CUDA headers nor a link
//! against `libcuda`, compiles with `nvcc` or any C++ compiler, runs the kernel on the case's
//! inputs — PTX through the driver JIT, or a cubin given as its argument — and prints each
//! word the finding names with the oracle's expectation; exit 1 when one differs), the SASS of
//! the kernel at `-O0` and `-O3` with the instructions only one level has marked (when ptxas
//! and nvdisasm are found; the README says why not otherwise), and `README.md` with the
//! signature, the exact GPU, driver and ptxas versions of the run, the ptxas version verdict and
//! the words that differ.
//!
//! Invariants: a bundle is written into a new folder named by the finding's id (a signature key
//! of hex digits, so no id can leave the folder) and never over an existing one; every file is
//! written atomically; a finding that is not a register program (a memory program's case is an
//! `eval` line) is refused with what to use instead.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use oracle::program::Program;

use crate::atomic_write::write_atomic;
use crate::findings::Finding;
use crate::ptxas::Ptxas;
use crate::sass::Checker;

/// Why a bundle could not be written.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    /// The finding's case is not a register program.
    #[error("finding {id}: {why}; a memory-program finding replays with `ptxdiff eval --backend B CASE`")]
    NotAProgram {
        /// The finding.
        id: String,
        /// What is wrong.
        why: String,
    },
    /// The finding's id is not a signature key (it names the folder).
    #[error("finding id `{0}` is not a signature key (16 hex digits)")]
    BadId(String),
    /// The folder exists already.
    #[error("{}: exists already; a bundle is written into a new folder (remove it to write it again)", .0.display())]
    Exists(PathBuf),
    /// Writing failed.
    #[error("writing {}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
}

/// What a bundle holds besides its files: notes on what could not be made.
#[derive(Clone, Debug)]
pub struct Bundle {
    /// The folder.
    pub dir: PathBuf,
    /// File names written, in order.
    pub files: Vec<String>,
    /// What is missing and why (no ptxas, no nvdisasm, a level ptxas rejects).
    pub notes: Vec<String>,
}

/// The finding's program: its case module must hold exactly one ptxdiff program.
fn program_of(f: &Finding) -> Result<Program, BundleError> {
    let not = |why: String| BundleError::NotAProgram { id: f.id.clone(), why };
    let mut ps =
        oracle::program::text::parse_module(&f.ptx).map_err(|e| not(format!("its PTX does not parse: {e}")))?;
    if ps.len() != 1 {
        return Err(not(format!("its PTX holds {} ptxdiff programs, not one", ps.len())));
    }
    let p = ps.remove(0);
    let words = p.threads() as usize * p.inputs as usize;
    if f.inputs.len() != words {
        return Err(not(format!("it has {} input words, its program reads {words}", f.inputs.len())));
    }
    Ok(p)
}

/// `0x0000ff00` → `Some(0xff00)`; a set (`any NaN (f32)`) → `None`.
fn exact_word(text: &str) -> Option<u32> {
    u32::from_str_radix(text.trim().strip_prefix("0x")?, 16).ok()
}

/// The standalone host program of `f` (see the module docs).
pub fn repro_source(f: &Finding, p: &Program) -> String {
    let mut s = String::new();
    let arch = p.target.name();
    let _ = writeln!(s, "// ptxdiff bundle {}: {}", f.id, f.title);
    let _ = writeln!(s, "//");
    let _ = writeln!(s, "// Build (no CUDA headers or libraries needed; the driver is loaded at run time):");
    let _ = writeln!(s, "//   nvcc -x c++ -o repro repro.cu -ldl        (or: g++ -x c++ -o repro repro.cu -ldl)");
    let _ = writeln!(s, "// Run:");
    let _ = writeln!(s, "//   ./repro                    the driver JIT compiles the PTX (ptxdiff's cuda:jit)");
    let _ =
        writeln!(s, "//   ptxas -arch={arch} -O3 kernel.ptx -o kernel.cubin && ./repro kernel.cubin   (cuda:ptxas-O3)");
    let _ = writeln!(s, "// It prints every word the finding names, with the oracle's expectation (the PTX ISA);");
    let _ = writeln!(s, "// exit 1 when a word differs from it, 0 when all agree, 2 when the GPU cannot run it.");
    s.push_str(
        r#"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st* CUcontext;
typedef struct CUmod_st* CUmodule;
typedef struct CUfunc_st* CUfunction;
typedef struct CUstream_st* CUstream;
typedef unsigned long long CUdeviceptr;

"#,
    );
    let _ = writeln!(s, "static const char kPtx[] = R\"PTXDIFF_PTX(\n{})PTXDIFF_PTX\";", f.ptx);
    let _ = writeln!(s, "static const char kKernel[] = \"{}\";", p.name);
    let _ = writeln!(
        s,
        "static const unsigned kThreads = {}, kInWords = {}, kOutWords = {};",
        p.threads(),
        p.inputs,
        p.outputs
    );
    let _ = write!(s, "static const uint32_t kInputs[] = {{");
    for (i, w) in f.inputs.iter().enumerate() {
        if i % 8 == 0 {
            s.push_str("\n   ");
        }
        let _ = write!(s, " 0x{w:08x}u,");
    }
    if f.inputs.is_empty() {
        s.push_str(" 0u");
    }
    s.push_str("\n};\n");
    s.push_str("struct Word { unsigned thread, word; int exact; uint32_t expected; const char* text; };\n");
    s.push_str("static const Word kWords[] = {\n");
    for m in &f.mismatches {
        let (exact, value) = exact_word(&m.expected).map_or((0, 0), |v| (1, v));
        let text = m.expected.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(s, "    {{{}, {}, {exact}, 0x{value:08x}u, \"{text}\"}},", m.thread, m.word);
    }
    if f.mismatches.is_empty() {
        s.push_str("    {0, 0, 0, 0u, \"(the finding names no word)\"},\n");
    }
    s.push_str("};\n");
    s.push_str(
        r#"
static void* driver;
static void* sym(const char* name) {
    void* f = dlsym(driver, name);
    if (!f) { fprintf(stderr, "libcuda.so.1 lacks %s\n", name); exit(2); }
    return f;
}
static void check(CUresult r, const char* what) {
    if (r == 0) return;
    const char* text = "unknown error";
    ((CUresult (*)(CUresult, const char**))sym("cuGetErrorString"))(r, &text);
    fprintf(stderr, "%s failed: %s (%d)\n", what, text, r);
    exit(2);
}

int main(int argc, char** argv) {
    driver = dlopen("libcuda.so.1", RTLD_NOW);
    if (!driver) { fprintf(stderr, "cannot load libcuda.so.1 (the NVIDIA driver): %s\n", dlerror()); return 2; }
    check(((CUresult (*)(unsigned))sym("cuInit"))(0), "cuInit");
    CUdevice dev;
    check(((CUresult (*)(CUdevice*, int))sym("cuDeviceGet"))(&dev, 0), "cuDeviceGet");
    char name[256] = {0};
    ((CUresult (*)(char*, int, CUdevice))sym("cuDeviceGetName"))(name, sizeof name, dev);
    int version = 0;
    ((CUresult (*)(int*))sym("cuDriverGetVersion"))(&version);
    CUcontext ctx;
    check(((CUresult (*)(CUcontext*, CUdevice))sym("cuDevicePrimaryCtxRetain"))(&ctx, dev), "cuDevicePrimaryCtxRetain");
    check(((CUresult (*)(CUcontext))sym("cuCtxSetCurrent"))(ctx), "cuCtxSetCurrent");
    std::string image(kPtx);
    const char* source = "the PTX (driver JIT)";
    if (argc > 1) {
        std::ifstream in(argv[1], std::ios::binary);
        if (!in) { fprintf(stderr, "cannot read %s\n", argv[1]); return 2; }
        image.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        source = argv[1];
    }
    printf("device: %s, driver API %d.%d; module: %s\n", name, version / 1000, version % 1000 / 10, source);
    CUmodule mod;
    check(((CUresult (*)(CUmodule*, const void*))sym("cuModuleLoadData"))(&mod, image.c_str()), "cuModuleLoadData");
    CUfunction fn;
    check(((CUresult (*)(CUfunction*, CUmodule, const char*))sym("cuModuleGetFunction"))(&fn, mod, kKernel),
          "cuModuleGetFunction");
    typedef CUresult (*Alloc)(CUdeviceptr*, size_t);
    typedef CUresult (*HtoD)(CUdeviceptr, const void*, size_t);
    typedef CUresult (*DtoH)(void*, CUdeviceptr, size_t);
    typedef CUresult (*Set)(CUdeviceptr, unsigned char, size_t);
    size_t in_bytes = sizeof(uint32_t) * kThreads * kInWords, out_bytes = sizeof(uint32_t) * kThreads * kOutWords;
    CUdeviceptr in_d = 0, out_d = 0;
    check(((Alloc)sym("cuMemAlloc_v2"))(&in_d, in_bytes ? in_bytes : 4), "cuMemAlloc (inputs)");
    check(((Alloc)sym("cuMemAlloc_v2"))(&out_d, out_bytes), "cuMemAlloc (outputs)");
    if (in_bytes) check(((HtoD)sym("cuMemcpyHtoD_v2"))(in_d, kInputs, in_bytes), "cuMemcpyHtoD");
    check(((Set)sym("cuMemsetD8_v2"))(out_d, 0, out_bytes), "cuMemsetD8");
    void* params[] = {&in_d, &out_d};
    typedef CUresult (*Launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                               CUstream, void**, void**);
    check(((Launch)sym("cuLaunchKernel"))(fn, 1, 1, 1, kThreads, 1, 1, 0, 0, params, 0), "cuLaunchKernel");
    check(((CUresult (*)(void))sym("cuCtxSynchronize"))(), "the kernel");
    std::vector<uint32_t> out(kThreads * kOutWords);
    check(((DtoH)sym("cuMemcpyDtoH_v2"))(out.data(), out_d, out_bytes), "cuMemcpyDtoH");
    int differ = 0;
    for (const Word& w : kWords) {
        uint32_t got = out[w.thread * kOutWords + w.word];
        if (w.exact) {
            bool bad = got != w.expected;
            differ += bad;
            printf("thread %u word %u: expected 0x%08x, got 0x%08x%s\n", w.thread, w.word, w.expected, got,
                   bad ? "  <-- differs" : "");
        } else {
            printf("thread %u word %u: expected %s, got 0x%08x (a set of values: check by hand)\n", w.thread,
                   w.word, w.text, got);
        }
    }
    printf("%d of %zu words differ from the PTX ISA\n", differ, sizeof kWords / sizeof kWords[0]);
    return differ ? 1 : 0;
}
"#,
    );
    s
}

/// The opcode (with modifiers) of a SASS listing line `/*0040*/ @P0 LDG.E R2, … ;`, if it is an
/// instruction.
fn sass_opcode(line: &str) -> Option<&str> {
    let rest = line.trim().strip_prefix("/*")?.split_once("*/")?.1.trim();
    let rest = match rest.strip_prefix('@') {
        Some(guarded) => guarded.split_once(char::is_whitespace)?.1.trim_start(),
        None => rest,
    };
    rest.split([' ', ';']).next().filter(|op| !op.is_empty())
}

/// `listing` with each instruction whose opcode the `other` listing lacks marked `<<`.
fn mark_differences(listing: &str, other: &str) -> String {
    let theirs: BTreeSet<&str> = other.lines().filter_map(sass_opcode).collect();
    let mut out = String::new();
    for line in listing.lines() {
        out.push_str(line);
        if sass_opcode(line).is_some_and(|op| !theirs.contains(op)) {
            out.push_str("    << only at this level");
        }
        out.push('\n');
    }
    out
}

/// The SASS of `p` at -O0 and -O3 (`Err`: why not).
fn listings(ptx: &str, arch: &str) -> Result<[String; 2], String> {
    let ptxas = Ptxas::find().map_err(|e| format!("no SASS: {e}"))?;
    let checker = Checker::find().map_err(|e| format!("no SASS: {e}"))?;
    let one = |opt| {
        checker
            .check_ptx(&ptxas, ptx, arch, opt)
            .map(|(listing, _)| {
                format!("// ptxas -O{opt}: {}; nvdisasm: {}\n{listing}", ptxas.version, checker.nvdisasm.version)
            })
            .map_err(|e| format!("no SASS at -O{opt}: {e}"))
    };
    Ok([one(0)?, one(3)?])
}

/// The README of the bundle.
fn readme(f: &Finding, p: &Program, notes: &[String]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# {}\n", f.title);
    let _ = writeln!(s, "Finding `{}` of ptxdiff (a differential tester of PTX against the PTX ISA).\n", f.id);
    let sig = &f.signature;
    let _ = writeln!(s, "- class: {}; form: `{}`; input class: {}", sig.class, sig.form, sig.input_class);
    let _ = writeln!(s, "- backends that disagree: {}; how: {}", sig.backends.join(", "), sig.how);
    let _ = writeln!(
        s,
        "- program: {} instructions after minimization ({} before), {} threads of one CTA, target {}",
        f.minimized_instructions,
        f.original_instructions,
        p.threads(),
        p.target
    );
    for (k, v) in &f.environment {
        let _ = writeln!(s, "- {k}: {v}");
    }
    if let Some(v) = &f.versions {
        let _ = writeln!(s, "- ptxas versions: {v}");
    }
    if let Some(m) = &f.message {
        let _ = writeln!(s, "- message: {m}");
    }
    let _ = writeln!(s, "\n## Words that differ\n");
    let _ = writeln!(s, "| thread | word | expected (PTX ISA) | got | decoded |\n| --- | --- | --- | --- | --- |");
    for m in &f.mismatches {
        let got: Vec<String> = m.actual.iter().map(|(b, v)| format!("{b}: {v}")).collect();
        let _ = writeln!(s, "| {} | {} | {} | {} | {} |", m.thread, m.word, m.expected, got.join(", "), m.decoded);
    }
    let _ = writeln!(s, "\n## Files\n");
    let _ = writeln!(s, "- `kernel.ptx`: the kernel (its inputs are in `repro.cu`).");
    let _ = writeln!(
        s,
        "- `repro.cu`: `nvcc -x c++ -o repro repro.cu -ldl && ./repro` runs it through the driver JIT; \
         `ptxas -arch={} -O3 kernel.ptx -o kernel.cubin && ./repro kernel.cubin` through ptxas. It prints each \
         word above with its expectation and exits 1 when one differs.",
        p.target.name()
    );
    if notes.is_empty() {
        let _ = writeln!(
            s,
            "- `sass-O0.txt`, `sass-O3.txt`: the SASS of both levels; `<<` marks an instruction only that level has."
        );
    }
    for n in notes {
        let _ = writeln!(s, "- {n}");
    }
    let _ = writeln!(s, "\nReplay with ptxdiff: `{}`", f.replay);
    s
}

/// Writes the bundle of `f` into `parent/<id>/` (see the module docs).
pub fn write_bundle(f: &Finding, parent: &Path) -> Result<Bundle, BundleError> {
    if f.id.len() != 16 || !f.id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(BundleError::BadId(f.id.clone()));
    }
    let p = program_of(f)?;
    let dir = parent.join(&f.id);
    if dir.exists() {
        return Err(BundleError::Exists(dir));
    }
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| BundleError::Io { path, source }
    };
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let mut files: Vec<(String, String)> =
        vec![("kernel.ptx".into(), f.ptx.clone()), ("repro.cu".into(), repro_source(f, &p))];
    let mut notes = Vec::new();
    match listings(&f.ptx, &p.target.name()) {
        Ok([o0, o3]) => {
            files.push(("sass-O0.txt".into(), mark_differences(&o0, &o3)));
            files.push(("sass-O3.txt".into(), mark_differences(&o3, &o0)));
        }
        Err(why) => notes.push(why),
    }
    files.push(("README.md".into(), readme(f, &p, &notes)));
    for (name, text) in &files {
        let path = dir.join(name);
        write_atomic(&path, text.as_bytes()).map_err(io(&path))?;
    }
    Ok(Bundle { dir, files: files.into_iter().map(|(n, _)| n).collect(), notes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opcodes_are_read_past_addresses_and_guards() {
        assert_eq!(
            sass_opcode("        /*0040*/                   @!P0 LDG.E.64 R2, desc[UR4][R2.64] ;"),
            Some("LDG.E.64")
        );
        assert_eq!(sass_opcode("/*0100*/ EXIT ;"), Some("EXIT"));
        assert_eq!(sass_opcode(".L_x_0:"), None);
        let marked = mark_differences("/*00*/ F2FP.BF16 R1, R2 ;\n/*10*/ EXIT ;\n", "/*00*/ EXIT ;\n");
        assert!(marked.lines().next().unwrap().ends_with("<< only at this level"), "{marked}");
        assert!(!marked.lines().nth(1).unwrap().contains("<<"), "{marked}");
    }

    #[test]
    fn exact_words_and_sets() {
        assert_eq!(exact_word("0x0000ff00"), Some(0xff00));
        assert_eq!(exact_word("any NaN (f32)"), None);
    }
}
