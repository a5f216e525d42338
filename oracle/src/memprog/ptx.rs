//! The PTX printer of memory programs: several [`MemProgram`]s as one module, one
//! `.visible .entry mp{i}` per program, with what a launcher needs to run each entry
//! ([`MemKernel`]: the global buffers with their initial bytes, the parameters in signature
//! order, and where each read-back buffer comes back).
//!
//! Each entry is one cluster of [`MemProgram::cluster`] CTAs (`.reqnctapercluster N, 1, 1`,
//! launched as a grid of that one cluster: `st.async` and bulk copies into `.shared::cluster`
//! from `.shared::cta` trap on the H100 outside a cluster launch, even of one CTA,
//! corpus/evidence/cluster-launch.md) with one `.u64` parameter per global buffer (converted with `cvta.to.global` into a
//! register), one `.param .align 64 .b8 t{j}[128]` per tensor map (its generic address through
//! `mov` + `cvta.param`: ptxas takes no parameter symbol as a tensor-map operand), one
//! `.shared .align A .b8 s{k}[len]` per shared buffer (A its alignment, at least 1024 when the
//! program has a swizzled tensor map or a tensor-map object; past 48 KiB in all, the buffers lie in the module's
//! dynamic shared array from its first 1024-byte boundary on, their addresses in registers
//! `%s{k}`, and the kernel asks for that much dynamic shared memory), and — when a shared buffer has known
//! initial bytes or is read back — a *staging* global buffer (the last kernel buffer, its
//! parameter last among the pointers) that holds the shared buffers' initial bytes and
//! receives their final bytes (a slot per CTA, in rank order). The prologue sets the input
//! registers, copies the initial bytes into shared memory (all threads of every CTA, a byte
//! each in turn), makes them visible to the async proxy (`fence.proxy.async.shared::cta`),
//! copies each tensor map with an object buffer into it (thread 0 of CTA 0, 16 bytes at a
//! time from the parameter, then `fence.proxy.tensormap::generic.release.gpu`; after the
//! barrier every thread's `fence.proxy.tensormap::generic.acquire.gpu [object], 128`; the
//! object's register holds its global address, which is also its generic address on NVIDIA
//! GPUs, where `cvta.to.global` of a device pointer is the identity), and makes everything visible
//! to every thread (`bar.sync 0`, or with several CTAs `barrier.cluster.arrive`/`wait`); the
//! epilogue waits for every thread the same way and copies each CTA's shared buffers in
//! `read` to its slot of the staging buffer.
//!
//! Invariant: no text from a program's input reaches the module. Registers print as
//! `%p<i>`/`%h<i>`/`%r<i>`/`%d<i>` by their index in [`MemProgram::regs`] (the names glue
//! already prints), buffers and tensor maps as `%g<k>`/`s<k>`/`%t<j>` by index, labels as
//! `$L<n>` by order of appearance; the special registers are [`SPECIAL_REGS`], and scaffolding
//! registers (`%x…`) and labels (`$C…`) cannot collide with any of these.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use thiserror::Error;

use super::{BufferSpace, MemProgram, StmtKind, SPECIAL_REGS};
use crate::isa::operand::Operand;
use crate::isa::{Form, Instruction, Mov, MovShape, PtxVersion, Target};
use crate::memory::tensor_map::{Swizzle, TensorMap};
use crate::memory::Byte;
use crate::program::{Reg, RegClass};

/// The most static shared memory one entry may declare (ptxas refuses more: larger shared
/// memory is dynamic only). Programs with more shared bytes get them as dynamic shared memory.
pub const MAX_STATIC_SHARED: u64 = 48 * 1024;

/// The module's dynamic shared array (entries whose shared buffers exceed
/// [`MAX_STATIC_SHARED`] place them in it, from its first 1024-byte boundary on).
const DYNAMIC_SHARED: &str = "dsm";

/// The lowest PTX ISA version a module is printed at: the prologue's
/// `fence.proxy.async.shared::cta` needs 8.0 (§9.7.13.4).
const MIN_PTX: PtxVersion = PtxVersion::new(8, 0);

/// The PTX ISA version a module with tensor-map objects needs: the prologue's
/// `fence.proxy.tensormap::generic` came with 8.3 (§9.7.13.4).
const OBJECT_PTX: PtxVersion = PtxVersion::new(8, 3);

/// The span after which every swizzle pattern repeats (bytes, §5.5.8 tensor-map swizzle modes).
const SWIZZLE_REPEAT: u64 = 1024;

/// Alignment of each shared buffer's bytes inside the staging buffer.
const STAGING_ALIGN: u64 = 16;

/// A module of memory programs: its PTX and one kernel per program, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemModule {
    /// The module text.
    pub ptx: String,
    /// Entry `mp{i}` for program `i`.
    pub kernels: Vec<MemKernel>,
}

/// One entry of a [`MemModule`] and how to launch it (one CTA).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemKernel {
    /// The entry's name.
    pub entry: String,
    /// Threads of each CTA.
    pub threads: u32,
    /// CTAs of the one cluster (the grid is the cluster; the entry requires this size).
    pub cluster: u32,
    /// Dynamic shared memory, bytes.
    pub dynamic_shared: u32,
    /// Global buffers the launcher allocates (the program's global buffers with their init
    /// bytes, then the read-back buffer of the shared buffers).
    pub buffers: Vec<KernelBuffer>,
    /// The entry's parameters, in signature order.
    pub params: Vec<KernelParam>,
    /// Where each buffer of `MemProgram::read` comes back: (index into `buffers`, byte offset, len).
    pub readback: Vec<(usize, u64, u64)>,
}

/// A global buffer of a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelBuffer {
    /// Bytes.
    pub len: u64,
    /// Its base is a multiple of this.
    pub align: u64,
    /// Its `len` initial bytes (bytes the program leaves unknown are 0).
    pub init: Vec<u8>,
}

/// A parameter of a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelParam {
    /// A `.u64` global pointer: buffer base + offset.
    Pointer {
        /// Index into [`MemKernel::buffers`].
        buffer: usize,
        /// Bytes past the base.
        offset: u64,
    },
    /// A `.param .align 64 .b8 [128]` tensor map over buffer base + offset, encoded by the
    /// launcher (its `global_address` is the model's, not the launcher's).
    TensorMap {
        /// Index into [`MemKernel::buffers`].
        buffer: usize,
        /// Bytes past the base where the tensor starts.
        offset: u64,
        /// The encode arguments.
        map: TensorMap,
    },
}

/// Why programs cannot be printed.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("program {program}: {what}")]
pub struct PrintError {
    /// Index of the program.
    pub program: usize,
    /// What cannot be printed.
    pub what: String,
}

/// Prints several memory programs as ONE PTX module, entry `mp{i}` for program i.
pub fn module(programs: &[&MemProgram]) -> Result<MemModule, PrintError> {
    let target = module_target(programs)?;
    let mut ptx = format!(".version {}\n.target {}\n.address_size 64\n", target.ptx, target.name());
    let mut kernels = Vec::with_capacity(programs.len());
    let mut entries = String::new();
    for (i, p) in programs.iter().enumerate() {
        let (text, kernel) = entry(i, p).map_err(|what| PrintError { program: i, what })?;
        entries.push('\n');
        entries.push_str(&text);
        kernels.push(kernel);
    }
    if kernels.iter().any(|k| k.dynamic_shared > 0) {
        let _ = writeln!(ptx, "\n.extern .shared .align 16 .b8 {DYNAMIC_SHARED}[];");
    }
    ptx.push_str(&entries);
    Ok(MemModule { ptx, kernels })
}

/// The programs' one target, declaring the lowest PTX version every statement's form needs.
fn module_target(programs: &[&MemProgram]) -> Result<Target, PrintError> {
    let first = programs.first().map(|p| p.target).unwrap_or(Target::parse("sm_90").expect("a known target"));
    let mut ptx = MIN_PTX.max(first.min_ptx());
    for (i, p) in programs.iter().enumerate() {
        if p.target.name() != first.name() {
            return Err(PrintError {
                program: i,
                what: format!("target {} differs from the module's {}", p.target.name(), first.name()),
            });
        }
        if p.tensor_maps.iter().any(|m| m.object.is_some()) {
            ptx = ptx.max(OBJECT_PTX);
        }
        for s in &p.stmts {
            if let StmtKind::Isa(inst) = &s.kind {
                let req = inst.form.check().map_err(|e| PrintError {
                    program: i,
                    what: format!("`{}` is not a legal form: {e}", inst.form.opcode()),
                })?;
                ptx = ptx.max(req.min_ptx);
            }
        }
    }
    first.with_ptx(ptx).map_err(|e| PrintError { program: 0, what: e.to_string() })
}

/// How the names of one program print.
struct Names<'a> {
    p: &'a MemProgram,
    labels: BTreeMap<&'a str, usize>,
    /// Shared buffers live in dynamic shared memory, their addresses in registers `%s<k>`.
    dynamic: bool,
}

impl<'a> Names<'a> {
    fn new(p: &'a MemProgram, dynamic: bool) -> Self {
        let mut labels = BTreeMap::new();
        for s in &p.stmts {
            if let StmtKind::Label(l) = &s.kind {
                let n = labels.len();
                labels.entry(l.as_str()).or_insert(n);
            }
        }
        Names { p, labels, dynamic }
    }

    fn label(&self, l: &str) -> Result<String, String> {
        self.labels.get(l).map(|n| format!("$L{n}")).ok_or_else(|| "a branch to a label the program lacks".into())
    }

    fn reg(&self, name: &str) -> Option<String> {
        let i = self.p.regs.iter().position(|r| r.name == name)?;
        Some(Reg::Virt(self.p.regs[i].class, i as u32).to_string())
    }

    /// A name used as a value or address base: register, buffer or tensor map.
    fn name(&self, n: &str) -> Result<String, String> {
        if SPECIAL_REGS.contains(&n) {
            return Ok(n.to_string());
        }
        if let Some(k) = self.p.buffers.iter().position(|b| b.name == n) {
            return Ok(match self.p.buffers[k].space {
                BufferSpace::Global => format!("%g{k}"),
                BufferSpace::Shared if self.dynamic => format!("%s{k}"),
                BufferSpace::Shared => format!("s{k}"),
            });
        }
        if let Some(j) = self.p.tensor_maps.iter().position(|t| t.name == n) {
            return Ok(format!("%t{j}"));
        }
        self.reg(n).ok_or_else(|| format!("a name that is no register, buffer or tensor map (operand {})", quote(n)))
    }

    /// `o` with every name mapped; `pre` receives statements that compute operands a single
    /// PTX operand cannot name (a global buffer plus an offset as a value).
    fn operand(&self, o: &Operand, pre: &mut Vec<String>) -> Result<Operand, String> {
        Ok(match o {
            Operand::Name(n) => Operand::Name(self.name(n)?),
            Operand::NameOffset(n, off) => {
                let base = self.name(n)?;
                if base.starts_with('%') {
                    let tmp = format!("%xo{}", pre.len());
                    pre.push(format!("\tadd.s64 {tmp}, {base}, {off};"));
                    Operand::Name(tmp)
                } else {
                    Operand::NameOffset(base, *off)
                }
            }
            Operand::Imm(_) | Operand::Sink => o.clone(),
            Operand::Vector(items) => {
                Operand::Vector(items.iter().map(|x| self.operand(x, pre)).collect::<Result<_, _>>()?)
            }
            Operand::Address { base, offset, unified } => Operand::Address {
                base: base.as_deref().map(|b| self.name(b)).transpose()?,
                offset: *offset,
                unified: *unified,
            },
            Operand::TensorRef { map, coords } => Operand::TensorRef {
                map: Box::new(self.operand(map, pre)?),
                coords: coords.iter().map(|c| self.operand(c, pre)).collect::<Result<_, _>>()?,
            },
            Operand::WithPred(d, p) => Operand::WithPred(
                Box::new(self.operand(d, pre)?),
                self.reg(p).ok_or_else(|| format!("predicate {} is no register", quote(p)))?,
            ),
        })
    }

    /// `mov d, a` whose source is a register the form reads as a symbol (`mov.b32 d, a`
    /// parses as the address form when `a` is a name), or a buffer whose address a `.b64`
    /// register holds, and whose class differs from `d`'s:
    /// the model keeps `a`'s low bits (zero-extends into a wider `d`), which PTX says with a
    /// `cvt` (mov needs equal sizes).
    fn register_move(&self, inst: &Instruction) -> Option<String> {
        let Form::Mov(Mov { shape: MovShape::Symbol(_), .. }) = &inst.form else { return None };
        let [Operand::Name(d), Operand::Name(a)] = inst.operands.as_slice() else { return None };
        let class = |n: &str| match self.p.regs.iter().find(|r| r.name == n) {
            Some(r) => Some(r.class),
            // A buffer or map whose address a `.b64` register holds.
            None => self
                .name(n)
                .ok()
                .filter(|x| x.starts_with('%') && !SPECIAL_REGS.contains(&x.as_str()))
                .map(|_| RegClass::B64),
        };
        let (dc, ac) = (class(d)?, class(a)?);
        if dc == ac || dc == RegClass::Pred || ac == RegClass::Pred {
            return None;
        }
        Some(format!("cvt.u{}.u{} {}, {};", dc.bits(), ac.bits(), self.reg(d)?, self.name(a).ok()?))
    }

    fn guard(&self, g: &Option<crate::isa::Guard>) -> Result<String, String> {
        match g {
            None => Ok(String::new()),
            Some(g) => {
                let p = self.reg(&g.pred).ok_or_else(|| format!("guard {} is no register", quote(&g.pred)))?;
                Ok(format!("@{}{p} ", if g.negated { "!" } else { "" }))
            }
        }
    }
}

/// A name from the input as an error quotes it: at most 40 characters, debug-escaped.
fn quote(n: &str) -> String {
    format!("{:?}", n.chars().take(40).collect::<String>())
}

/// Where each shared buffer lives in the staging buffer: (buffer index, offset), and the
/// staging buffer's length.
fn staging_layout(p: &MemProgram) -> (Vec<(usize, u64)>, u64) {
    let mut at = 0u64;
    let mut layout = Vec::new();
    for (k, b) in p.buffers.iter().enumerate() {
        if b.space == BufferSpace::Shared {
            layout.push((k, at));
            at += (b.init.len() as u64 * u64::from(p.cluster.max(1))).next_multiple_of(STAGING_ALIGN);
        }
    }
    (layout, at)
}

/// Whether any byte of `p`'s buffer `k` is known before the program runs.
fn has_known_init(p: &MemProgram, k: usize) -> bool {
    p.buffers[k].init.bytes().iter().any(|b| matches!(b, Byte::Known(_)))
}

fn init_bytes(p: &MemProgram, k: usize) -> Vec<u8> {
    p.buffers[k].init.known_or(0)
}

/// A loop in which all threads copy `len` bytes between `[%xd9+global_off]` (the staging
/// buffer) and a shared buffer (its address `base`), a byte per thread per turn; `label`
/// names the loop. The loop is marked `.pragma "nounroll"` (PTX ISA, "Pragma Strings:
/// nounroll"): it is the harness, not the code under test, and unrolled at -O3 (by ptxas and
/// the driver JIT) these loops were two thirds of a memory module's compile time (48 fuzz
/// programs, ptxas 13.5 -O3: 1.78 s unrolled, 0.58 s not).
fn copy_loop(out: &mut String, label: &str, base: &str, global_off: u64, len: u64, threads: u32, to_shared: bool) {
    let _ = writeln!(out, "\tmov.u32 %xr0, %tid.x;");
    let _ = writeln!(out, "{label}:");
    let _ = writeln!(out, "\t.pragma \"nounroll\";");
    let _ = writeln!(out, "\tsetp.ge.u32 %xp0, %xr0, {len};");
    let _ = writeln!(out, "\t@%xp0 bra {label}_end;");
    let _ = writeln!(out, "\tcvt.u64.u32 %xd0, %xr0;");
    let _ = writeln!(out, "\tadd.s64 %xd1, %xd9, %xd0;");
    let _ = writeln!(out, "\tmov.u64 %xd2, {base};");
    let _ = writeln!(out, "\tadd.s64 %xd2, %xd2, %xd0;");
    if to_shared {
        let _ = writeln!(out, "\tld.global.u8 %xr1, [%xd1+{global_off}];");
        let _ = writeln!(out, "\tst.shared.u8 [%xd2], %xr1;");
    } else {
        let _ = writeln!(out, "\tld.shared.u8 %xr1, [%xd2];");
        let _ = writeln!(out, "\tst.global.u8 [%xd1+{global_off}], %xr1;");
    }
    let _ = writeln!(out, "\tadd.u32 %xr0, %xr0, {threads};");
    let _ = writeln!(out, "\tbra {label};");
    let _ = writeln!(out, "{label}_end:");
}

/// Entry `mp{i}` for `p`, and its kernel.
fn entry(i: usize, p: &MemProgram) -> Result<(String, MemKernel), String> {
    let globals: Vec<usize> = (0..p.buffers.len()).filter(|&k| p.buffers[k].space == BufferSpace::Global).collect();
    let (layout, staging_len) = staging_layout(p);
    // A tensor-map object may be given a swizzle by `tensormap.replace`: its program's shared
    // buffers start at multiples of 1024 bytes too.
    let swizzled = p.tensor_maps.iter().any(|m| m.map.swizzle != Swizzle::None || m.object.is_some());
    let shared_align =
        |k: usize| if swizzled { p.buffers[k].align.max(SWIZZLE_REPEAT) } else { p.buffers[k].align.max(1) };
    // The shared buffers laid out in order, each at its alignment.
    let shared_total = layout.iter().fold(0u64, |at, &(k, _)| {
        at.next_multiple_of(shared_align(k)).saturating_add((p.buffers[k].init.len() as u64).max(1))
    });
    let dynamic = shared_total > MAX_STATIC_SHARED;
    // Dynamic shared memory is 16-byte aligned: room to start at a 1024-byte boundary.
    let dynamic_shared = if dynamic { shared_total + SWIZZLE_REPEAT } else { 0 };
    // The shared buffers themselves fit (`MemSource::check_limits`); the room to align them
    // may not.
    let max_shared = p.target.max_shared_per_cta();
    if dynamic_shared > max_shared {
        return Err(format!(
            "{shared_total} bytes of shared buffers and {SWIZZLE_REPEAT} to align them exceed the {max_shared} bytes of shared memory of a CTA"
        ));
    }
    let names = Names::new(p, dynamic);
    let init_shared: Vec<(usize, u64)> = layout.iter().copied().filter(|&(k, _)| has_known_init(p, k)).collect();
    let read_shared: Vec<(usize, u64)> = layout.iter().copied().filter(|(k, _)| p.read.contains(k)).collect();
    let staging = !init_shared.is_empty() || !read_shared.is_empty();

    // Kernel buffers: the program's global buffers, then the staging buffer.
    let mut buffers: Vec<KernelBuffer> = globals
        .iter()
        .map(|&k| KernelBuffer {
            len: p.buffers[k].init.len() as u64,
            align: p.buffers[k].align,
            init: init_bytes(p, k),
        })
        .collect();
    let kernel_index = |k: usize| globals.iter().position(|&g| g == k);
    let staging_index = buffers.len();
    if staging {
        let mut init = vec![0u8; staging_len as usize];
        for &(k, at) in &layout {
            let bytes = init_bytes(p, k);
            init[at as usize..at as usize + bytes.len()].copy_from_slice(&bytes);
        }
        buffers.push(KernelBuffer { len: staging_len, align: STAGING_ALIGN, init });
    }
    let mut params = Vec::new();
    let mut sig = Vec::new();
    for (n, &k) in globals.iter().enumerate() {
        params.push(KernelParam::Pointer { buffer: n, offset: 0 });
        sig.push(format!("\t.param .u64 g{k}"));
    }
    if staging {
        params.push(KernelParam::Pointer { buffer: staging_index, offset: 0 });
        sig.push("\t.param .u64 gstage".to_string());
    }
    for (j, t) in p.tensor_maps.iter().enumerate() {
        let buffer = kernel_index(t.buffer).ok_or("a tensor map over a buffer that is not global")?;
        params.push(KernelParam::TensorMap { buffer, offset: t.global_offset, map: t.map.clone() });
        sig.push(format!("\t.param .align 64 .b8 t{j}[128]"));
    }
    let readback = p
        .read
        .iter()
        .map(|&k| {
            let len = p.buffers.get(k).ok_or("a read buffer the program lacks")?.init.len() as u64;
            match kernel_index(k) {
                Some(n) => Ok((n, 0, len)),
                None => {
                    let at = layout.iter().find(|&&(s, _)| s == k).map(|&(_, at)| at).ok_or("no staging place")?;
                    Ok((staging_index, at, len * u64::from(p.cluster.max(1))))
                }
            }
        })
        .collect::<Result<Vec<_>, &str>>()?;

    let mut t = String::new();
    // Every entry is a one-CTA cluster (`.reqnctapercluster 1, 1, 1`): on the H100 `st.async`
    // and `cp.async.bulk.shared::cluster.shared::cta` trap in a launch that is not a cluster
    // launch, and work in one of one CTA (corpus/evidence/cluster-launch.md).
    let ctas = p.cluster.max(1);
    let _ = writeln!(t, ".visible .entry mp{i}(\n{}\n)\n.reqnctapercluster {ctas}, 1, 1\n{{", sig.join(",\n"));
    let count = |c: RegClass| p.regs.iter().filter(|r| r.class == c).count();
    for c in RegClass::ALL {
        if count(c) > 0 {
            let _ = writeln!(t, "\t.reg {} %{}<{}>;", c.ptx_type(), c.prefix(), p.regs.len());
        }
    }
    let temps = p
        .stmts
        .iter()
        .map(|s| match &s.kind {
            StmtKind::Isa(inst) => count_name_offsets(&inst.operands),
            _ => 0,
        })
        .max()
        .unwrap_or(0);
    let _ = writeln!(t, "\t.reg .pred %xp<1>;\n\t.reg .b32 %xr<2>;\n\t.reg .b64 %xd<10>;");
    if temps > 0 {
        let _ = writeln!(t, "\t.reg .b64 %xo<{temps}>;");
    }
    if !globals.is_empty() {
        let _ = writeln!(t, "\t.reg .b64 %g<{}>;", p.buffers.len());
    }
    if !p.tensor_maps.is_empty() {
        let _ = writeln!(t, "\t.reg .b64 %t<{}>;", p.tensor_maps.len());
    }
    // The model lays a swizzled tile out as at a multiple of 1024 bytes (`TensorMap::tile`), and
    // the hardware swizzles by absolute address: with a swizzled map, every shared buffer
    // starts at such a multiple, so both see the same layout.
    if dynamic {
        let _ = writeln!(t, "\t.reg .b64 %s<{}>;", p.buffers.len());
        let _ = writeln!(t, "\tmov.u64 %xd3, {DYNAMIC_SHARED};\n\tadd.s64 %xd3, %xd3, {};", SWIZZLE_REPEAT - 1);
        let _ = writeln!(t, "\tand.b64 %xd3, %xd3, {};", !(SWIZZLE_REPEAT - 1) as i64);
        let mut at = 0u64;
        for &(k, _) in &layout {
            at = at.next_multiple_of(shared_align(k));
            let _ = writeln!(t, "\tadd.s64 %s{k}, %xd3, {at};");
            at += (p.buffers[k].init.len() as u64).max(1);
        }
    } else {
        for &(k, _) in &layout {
            let _ = writeln!(t, "\t.shared .align {} .b8 s{k}[{}];", shared_align(k), p.buffers[k].init.len().max(1));
        }
    }
    // Prologue.
    for &k in &globals {
        let _ = writeln!(t, "\tld.param.u64 %g{k}, [g{k}];\n\tcvta.to.global.u64 %g{k}, %g{k};");
    }
    if staging {
        let _ = writeln!(t, "\tld.param.u64 %xd9, [gstage];\n\tcvta.to.global.u64 %xd9, %xd9;");
    }
    for j in 0..p.tensor_maps.len() {
        let _ = writeln!(t, "\tmov.u64 %t{j}, t{j};\n\tcvta.param.u64 %t{j}, %t{j};");
    }
    for (&r, &v) in &p.inputs {
        let class = p.regs.get(r).ok_or("an input register the program lacks")?.class;
        let reg = Reg::Virt(class, r as u32);
        match class {
            RegClass::Pred => {
                let _ = writeln!(t, "\tsetp.ne.u32 {reg}, {}, 0;", u32::from(v != 0));
            }
            c => {
                let v = if c.bits() >= 64 { v } else { v & ((1u64 << c.bits()) - 1) };
                let _ = writeln!(t, "\tmov.b{} {reg}, {v:#x};", c.bits());
            }
        }
    }
    for &(k, at) in &init_shared {
        copy_loop(
            &mut t,
            &format!("$Cin{k}"),
            &names.name(&p.buffers[k].name)?,
            at,
            p.buffers[k].init.len() as u64,
            p.threads,
            true,
        );
    }
    if !init_shared.is_empty() {
        let _ = writeln!(t, "\tfence.proxy.async.shared::cta;");
    }
    // Tensor-map objects: thread 0 of CTA 0 copies each map's 128 bytes from its parameter to
    // its object buffer and releases them to the tensormap proxy; after the barrier every
    // thread acquires them (§9.7.13.4).
    let objects: Vec<(usize, usize)> =
        p.tensor_maps.iter().enumerate().filter_map(|(j, m)| m.object.map(|k| (j, k))).collect();
    if !objects.is_empty() {
        let _ = writeln!(t, "\tmov.u32 %xr0, %tid.x;");
        if ctas > 1 {
            let _ = writeln!(t, "\tmov.u32 %xr1, %cluster_ctarank;\n\tor.b32 %xr0, %xr0, %xr1;");
        }
        let _ = writeln!(t, "\tsetp.eq.u32 %xp0, %xr0, 0;");
        for &(j, k) in &objects {
            for at in (0..super::TENSOR_MAP_BYTES).step_by(16) {
                let _ = writeln!(t, "\t@%xp0 ld.param.v2.b64 {{%xd0, %xd1}}, [t{j}+{at}];");
                let _ = writeln!(t, "\t@%xp0 st.global.v2.b64 [%g{k}+{at}], {{%xd0, %xd1}};");
            }
        }
        let _ = writeln!(t, "\t@%xp0 fence.proxy.tensormap::generic.release.gpu;");
    }
    let _ = writeln!(t, "{}", whole_barrier(ctas));
    for &(_, k) in &objects {
        let _ = writeln!(t, "\tfence.proxy.tensormap::generic.acquire.gpu [%g{k}], 128;");
    }
    // Body.
    for (n, s) in p.stmts.iter().enumerate() {
        let _ = writeln!(t, "\t// statement {n}");
        let guard = names.guard(&s.guard)?;
        match &s.kind {
            StmtKind::Label(l) => {
                let _ = writeln!(t, "{}:", names.label(l)?);
            }
            StmtKind::Bra(l) => {
                let _ = writeln!(t, "\t{guard}bra {};", names.label(l)?);
            }
            StmtKind::Bar => {
                let _ = writeln!(t, "\tbar.sync 0;");
            }
            StmtKind::ClusterArrive { relaxed } => {
                let sem = if *relaxed { "relaxed" } else { "release" };
                let _ = writeln!(t, "\tbarrier.cluster.arrive.{sem}.aligned;");
            }
            StmtKind::ClusterWait => {
                let _ = writeln!(t, "\tbarrier.cluster.wait.acquire.aligned;");
            }
            StmtKind::Glue(g) => {
                let _ = writeln!(t, "\t{guard}{g}");
            }
            StmtKind::Isa(inst) => {
                if let Some(line) = names.register_move(inst) {
                    let _ = writeln!(t, "\t{guard}{line}");
                    continue;
                }
                let mut pre = Vec::new();
                let operands =
                    inst.operands.iter().map(|o| names.operand(o, &mut pre)).collect::<Result<Vec<_>, _>>()?;
                let printed = Instruction { guard: None, form: inst.form.clone(), operands };
                for line in pre {
                    let _ = writeln!(t, "{line}");
                }
                let _ = writeln!(t, "\t{guard}{printed}");
            }
        }
    }
    // Epilogue: every CTA's copy of a shared buffer goes to its slot (rank order).
    let _ = writeln!(t, "{}", whole_barrier(ctas));
    for &(k, at) in &read_shared {
        let len = p.buffers[k].init.len() as u64;
        if ctas > 1 {
            let _ = writeln!(t, "\tmov.u32 %xr0, %cluster_ctarank;\n\tmul.wide.u32 %xd4, %xr0, {len};");
            let _ = writeln!(t, "\tadd.s64 %xd9, %xd9, %xd4;");
        }
        copy_loop(&mut t, &format!("$Cout{k}"), &names.name(&p.buffers[k].name)?, at, len, p.threads, false);
        if ctas > 1 {
            let _ = writeln!(t, "\tsub.s64 %xd9, %xd9, %xd4;");
        }
    }
    let _ = writeln!(t, "\tret;\n}}");
    let kernel = MemKernel {
        entry: format!("mp{i}"),
        threads: p.threads,
        cluster: ctas,
        dynamic_shared: dynamic_shared as u32,
        buffers,
        params,
        readback,
    };
    Ok((t, kernel))
}

/// A barrier of every thread of the program: the CTA's (`bar.sync 0`), or with several CTAs
/// the cluster's (§9.7.13.3; the CTAs' shared memory must stay alive while another CTA may
/// write it, and the staging copies of CTA 0 must not overwrite what another CTA still reads).
fn whole_barrier(ctas: u32) -> &'static str {
    if ctas > 1 {
        "\tbarrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;"
    } else {
        "\tbar.sync 0;"
    }
}

/// How many `name+offset` operands an operand list holds (each may need a temporary).
fn count_name_offsets(ops: &[Operand]) -> usize {
    ops.iter()
        .map(|o| match o {
            Operand::NameOffset(..) => 1,
            Operand::Vector(v) => count_name_offsets(v),
            Operand::TensorRef { map, coords } => {
                count_name_offsets(std::slice::from_ref(map)) + count_name_offsets(coords)
            }
            Operand::WithPred(d, _) => count_name_offsets(std::slice::from_ref(d)),
            _ => 0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::memprog::{BufferSource, Init, MemSource};

    fn source(statements: &[&str], regs: &[(&str, u64)]) -> MemSource {
        let b = |name: &str, space, init, align| BufferSource { name: name.into(), space, init, align };
        MemSource {
            target: Target::parse("sm_90").unwrap(),
            threads: 4,
            cluster: 1,
            statements: statements.iter().map(|s| s.to_string()).collect(),
            regs: regs.iter().map(|(n, v)| (n.to_string(), (*v).into())).collect::<BTreeMap<_, _>>(),
            buffers: vec![
                b("ld", BufferSpace::Global, Init::Hex("0102030405060708".into()), 16),
                b("st", BufferSpace::Shared, Init::Fill { len: 8, byte: Some(0xa5) }, 16),
                b("bar", BufferSpace::Shared, Init::Fill { len: 8, byte: None }, 8),
                b("out", BufferSpace::Global, Init::Fill { len: 8, byte: None }, 256),
            ],
            tensor_maps: Vec::new(),
            read: vec!["st".into(), "out".into()],
        }
    }

    #[test]
    fn names_from_the_input_never_reach_the_module() {
        let src = source(
            &[
                "ld.global.u32 p, [ld+4];",
                "setp.eq.u32 q, p, weird_input;",
                "@q bra skip_it;",
                "st.shared.u32 [st+4], p;",
                "skip_it:",
                "ld.shared.u32 mov, [st];",
                "st.global.u32 [out], mov;",
            ],
            &[("weird_input", 0x05060708)],
        );
        let p = src.build().unwrap();
        let m = module(&[&p]).unwrap();
        for name in ["weird_input", "skip_it", "mov,", "[ld", "[st", "[out", " p,", " q,"] {
            assert!(!m.ptx.contains(name), "`{name}` leaked into\n{}", m.ptx);
        }
        assert!(m.ptx.starts_with(".version 8.0\n.target sm_90\n"), "{}", m.ptx);
        assert!(m.ptx.contains("mov.b32 %r1, 0x5060708;"), "{}", m.ptx);
        assert!(m.ptx.contains("ld.global.u32 %r0, [%g0+4];"), "{}", m.ptx);
        assert!(m.ptx.contains("@%p2 bra $L0;"), "{}", m.ptx);
        assert!(m.ptx.contains("st.shared.u32 [s1+4], %r0;"), "{}", m.ptx);
    }

    #[test]
    fn the_kernel_lists_buffers_params_and_readback() {
        let p = source(&["ld.shared.u32 x, [st];", "st.global.u32 [out+4], x;"], &[]).build().unwrap();
        let m = module(&[&p, &p]).unwrap();
        assert_eq!(m.kernels.len(), 2);
        assert!(m.ptx.contains(".visible .entry mp0(") && m.ptx.contains(".visible .entry mp1("));
        let k = &m.kernels[0];
        assert_eq!((k.entry.as_str(), k.threads, k.dynamic_shared), ("mp0", 4, 0));
        // The two global buffers, then the staging buffer of `st` (offset 0) and `bar` (16).
        assert_eq!(k.buffers.len(), 3);
        assert_eq!(k.buffers[0].init, vec![1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!((k.buffers[1].len, k.buffers[1].align), (8, 256));
        assert_eq!(k.buffers[2].len, 32);
        assert_eq!(&k.buffers[2].init[..8], &[0xa5; 8]);
        assert_eq!(
            k.params,
            vec![
                KernelParam::Pointer { buffer: 0, offset: 0 },
                KernelParam::Pointer { buffer: 1, offset: 0 },
                KernelParam::Pointer { buffer: 2, offset: 0 }
            ]
        );
        assert_eq!(k.readback, vec![(2, 0, 8), (1, 0, 8)]);
        // `st` has known bytes: copied in, fenced for the async proxy; `bar` has none.
        assert!(m.ptx.contains("$Cin1:") && !m.ptx.contains("$Cin2:"), "{}", m.ptx);
        assert!(m.ptx.contains("fence.proxy.async.shared::cta;"));
        assert!(m.ptx.contains("$Cout1:") && !m.ptx.contains("$Cout2:"));
        // The harness's loops are not unrolled (compile time).
        assert!(m.ptx.contains("$Cin1:\n\t.pragma \"nounroll\";\n"), "{}", m.ptx);
        assert!(m.ptx.contains("$Cout1:\n\t.pragma \"nounroll\";\n"), "{}", m.ptx);
    }

    #[test]
    fn shared_buffers_past_48_kib_are_dynamic_and_past_227_kib_an_error() {
        let mut src = source(&["ld.shared.u32 x, [st+4];", "mov.u32 w, st;", "st.global.u32 [out], x;"], &[]);
        src.buffers[1].init = Init::Fill { len: MAX_STATIC_SHARED, byte: Some(1) };
        let p = src.build().unwrap();
        let m = module(&[&p]).unwrap();
        // `st` (48 KiB) then `bar` (8 bytes at the next 8-byte boundary), plus room to align.
        assert_eq!(m.kernels[0].dynamic_shared as u64, MAX_STATIC_SHARED + 8 + 1024);
        assert!(m.ptx.contains(".extern .shared .align 16 .b8 dsm[];"), "{}", m.ptx);
        assert!(m.ptx.contains("add.s64 %s2, %xd3, 49152;"), "{}", m.ptx);
        assert!(m.ptx.contains("ld.shared.u32 %r0, [%s1+4];"), "{}", m.ptx);
        assert!(m.ptx.contains("cvt.u32.u64 %r1, %s1;"), "{}", m.ptx);
        assert!(!m.ptx.contains("\t.shared .align"), "{}", m.ptx);
        // Past the CTA's shared memory, the program itself is refused (MemSource::check_limits).
        let cta = src.target.max_shared_per_cta();
        src.buffers[1].init = Init::Fill { len: cta, byte: None };
        let e = src.build().unwrap_err();
        assert!(e.to_string().contains("a CTA of sm_90 may have at most 232448 (227 KiB)"), "{e}");
        // Within it, but not with the room the printer keeps to align the dynamic buffers.
        src.buffers[1].init = Init::Fill { len: cta - 512, byte: None };
        let p = src.build().unwrap();
        let e = module(&[&p]).unwrap_err();
        assert!(e.to_string().contains("shared memory of a CTA"), "{e}");
    }
}
