//! Conformance cases of the asynchronous-copy families (§9.7.9.25): for every form valid on a
//! target, a list of complete memory programs over named buffers (one CTA, or a cluster for
//! the multicast forms), each checked on the GPU and by the oracle byte for byte (`ptxdiff
//! conform`).
//!
//! The parameter space per family:
//! - `cp.async` (§9.7.9.25.3.1): every cp-size × every src-size 0…cp-size × ignore-src
//!   true/false × source and destination offsets at each alignment the size allows, completed
//!   by `commit_group` + `wait_group 0` or by `wait_all`;
//! - `cp.async.bulk` (§9.7.9.25.4.1): each direction (global → shared on an mbarrier with
//!   `expect_tx` of the exact bytes; shared → global on a bulk group, `wait_group 0` or
//!   `wait_group.read 0` followed by a write to the source; shared → the CTA's own
//!   `.shared::cluster`), sizes 16…256 in steps of 16 then powers of two up to 8 KiB and their
//!   16-byte neighbours, offsets at 16-byte steps;
//! - `cp.reduce.async.bulk` (§9.7.9.25.4.2): every pair of the type's edge values (±0,
//!   subnormals, ±inf, NaNs, max finite, rounding ties, overflow; integer bounds and wrap
//!   pairs), in 256-byte cases;
//! - the tensor forms (§9.7.9.25.5): tiled maps over data type × rank × swizzle × box shape ×
//!   element strides × OOB fill, interleaved maps of ranks 3–5 (16B under every swizzle, 32B;
//!   one box position along dimension rank − 2), at coordinates inside the tensor, straddling
//!   each edge and negative; loads (mbarrier), stores and reductions (bulk group), prefetches (memory
//!   unchanged); im2col loads; `.im2col_no_offs` stores and reductions over im2col maps (the
//!   column an im2col load without offsets reads, written back; measured on an H100);
//! - `.multicast::cluster` bulk and tensor loads in clusters of 2 and 4 CTAs
//!   ([`MULTICAST_CLUSTERS`]: every CTA, a part that leaves the issuer out, one CTA alone),
//!   every CTA arming its own mbarrier for the bytes it gets (none outside `ctaMask`) before a
//!   cluster barrier, then one CTA issuing; every CTA's window read back.
//!
//! Forms sharing a base form's behaviour (cache hints, L2 prefetch sizes, the `.shared::cta`
//! spelling of `cp.async`, the implicit `.tile` mode) get every [`VARIANT_STRIDE`]-th case of
//! it. Forms the memory programs do not model are listed in [`AsyncSweep::not_run`] with the
//! reason.
//!
//! Invariants: the cases are a pure function of the target (same cases, same order, every
//! run); every case is protocol-correct (mbarrier initialised and fenced before use, the
//! expected transaction bytes announced before the bytes land, waits on the right phase parity,
//! `fence.proxy.async` between generic writes and async-proxy reads), reads back every data
//! buffer it touches (not the mbarrier object, whose bytes are opaque), and fills every buffer
//! with a distinct byte pattern. The cases on which an H100 is known to deviate from the spec
//! are not in the sweep but in the [`DEVIATION_SETS`]: tile loads at an innermost coordinate
//! it traps on ([`TensorMap::inner_coordinate_traps`]), `.add.f32` edge pairs with a subnormal,
//! bitwise tensor reductions over INT64 maps, `.im2col_no_offs` stores and reductions over
//! im2col maps whose pixel bounding box corners are not 0.

use std::collections::BTreeMap;

use oracle::isa::{
    valid_forms, BulkSpace, Completion, CpAsync, CpAsyncBulk, CpAsyncBulkPrefetchTensor, CpAsyncBulkTensor, CpAsyncSrc,
    CpReduceAsyncBulk, CpReduceAsyncBulkTensor, Family, Form, LoadMode, RedOp, ReduceType, Target, TensormapField,
    TensormapReplace, TensormapSs, TensormapType,
};
use oracle::memory::tensor_map::{Interleave, L2Promotion, MapMode, OobFill, Swizzle, TensorDataType as D, TensorMap};
use oracle::memprog::{BufferSource, BufferSpace, Init, MemSource, TensorMapSource};

/// The asynchronous-copy families `conform` sweeps.
pub const ASYNC_FAMILIES: [Family; 7] = [
    Family::CpAsync,
    Family::CpAsyncBulk,
    Family::CpReduceAsyncBulk,
    Family::CpAsyncBulkPrefetch,
    Family::CpAsyncBulkTensor,
    Family::CpReduceAsyncBulkTensor,
    Family::CpAsyncBulkPrefetchTensor,
];

/// A variant form (cache hint, prefetch size, alternative spelling) runs every this-many-th
/// case of its base form.
pub const VARIANT_STRIDE: usize = 8;

/// A cache policy for the `.L2::cache_hint` operand: CUTLASS's `CacheHintSm90::EVICT_NORMAL`
/// (the 64-bit value `createpolicy` gives for evict-normal; the policy is only a hint).
pub const CACHE_POLICY: u64 = 0x1000_0000_0000_0000;

/// One conformance case: a memory program of one form.
#[derive(Clone, Debug, PartialEq)]
pub struct AsyncCase {
    /// The opcode of the form under test (the conform row it belongs to).
    pub form: String,
    /// What the case exercises (`cp-size 8, src-size 3, src +8, dst +0`).
    pub label: String,
    /// The program, as the memory evaluation contract describes it.
    pub source: MemSource,
}

/// The cases of a target.
#[derive(Clone, Debug, Default)]
pub struct AsyncSweep {
    /// Every case, grouped by form in the order of [`ASYNC_FAMILIES`] and
    /// [`valid_forms`].
    pub cases: Vec<AsyncCase>,
    /// Forms without cases, and why.
    pub not_run: Vec<(String, String)>,
}

/// The clusters multicast cases run in: (CTAs, ctaMask, issuing CTA) — every CTA, a part of
/// the cluster that leaves the issuer out, and one CTA alone.
pub const MULTICAST_CLUSTERS: [(u32, u64, u32); 5] =
    [(2, 0b11, 0), (2, 0b10, 0), (4, 0b1111, 3), (4, 0b0110, 0), (4, 0b1000, 1)];

/// The cases of every asynchronous-copy form valid on `target` whose opcode `keep` accepts.
pub fn async_cases(target: &Target, keep: &dyn Fn(&str) -> bool) -> AsyncSweep {
    let mut sweep = AsyncSweep::default();
    let mut seen: Vec<String> = Vec::new();
    for family in ASYNC_FAMILIES {
        for (form, _) in valid_forms(target, Some(family)) {
            let opcode = form.opcode();
            if !keep(&opcode) {
                continue;
            }
            let cases = match form_cases(&form, target) {
                Ok(c) => c,
                Err(why) => {
                    if !sweep.not_run.iter().any(|(f, _)| *f == opcode) {
                        sweep.not_run.push((opcode, why));
                    }
                    continue;
                }
            };
            if !seen.contains(&opcode) {
                seen.push(opcode.clone());
            }
            sweep.cases.extend(cases.into_iter().map(|(label, source)| AsyncCase {
                form: opcode.clone(),
                label,
                source,
            }));
        }
    }
    // `tensormap.replace` (sm_90a beside sm_90) on a tensor-map object, then a load through it.
    if let Some(rt) = replace_target(target) {
        for (form, _) in valid_forms(&rt, Some(Family::TensormapReplace)) {
            let Form::TensormapReplace(r) = &form else { continue };
            let opcode = form.opcode();
            if !keep(&opcode) {
                continue;
            }
            match replace_cases(r, &opcode, &rt) {
                Ok(cases) => {
                    if !seen.contains(&opcode) {
                        seen.push(opcode.clone());
                    }
                    sweep.cases.extend(cases.into_iter().map(|(label, source)| AsyncCase {
                        form: opcode.clone(),
                        label,
                        source,
                    }));
                }
                Err(why) => {
                    // A `.field3` form's value is not in its opcode: name it.
                    let key = r.new_val.map_or(opcode.clone(), |v| format!("{opcode} (new_val {v})"));
                    if !sweep.not_run.iter().any(|(f, _)| *f == key) {
                        sweep.not_run.push((key, why));
                    }
                }
            }
        }
    }
    // Cases of one opcode (several operand shapes) stay together, forms in first-seen order.
    let order = |c: &AsyncCase| seen.iter().position(|f| *f == c.form).unwrap_or(usize::MAX);
    sweep.cases.sort_by_key(order);
    sweep
}

/// A case under construction.
struct Case {
    target: Target,
    /// CTAs of the cluster (1: one CTA).
    cluster: u32,
    statements: Vec<String>,
    regs: BTreeMap<String, u64>,
    buffers: Vec<BufferSource>,
    tensor_maps: Vec<TensorMapSource>,
    read: Vec<String>,
}

impl Case {
    fn new(target: &Target) -> Case {
        Case {
            target: *target,
            cluster: 1,
            statements: Vec::new(),
            regs: BTreeMap::new(),
            buffers: Vec::new(),
            tensor_maps: Vec::new(),
            read: Vec::new(),
        }
    }

    fn global(&mut self, name: &str, bytes: Vec<u8>, read: bool) -> &mut Case {
        self.buffer(name, BufferSpace::Global, 256, Init::Hex(hex(&bytes)), read)
    }

    fn shared(&mut self, name: &str, init: Init, align: u64, read: bool) -> &mut Case {
        self.buffer(name, BufferSpace::Shared, align, init, read)
    }

    fn buffer(&mut self, name: &str, space: BufferSpace, align: u64, init: Init, read: bool) -> &mut Case {
        self.buffers.push(BufferSource { name: name.into(), space, init, align });
        if read {
            self.read.push(name.into());
        }
        self
    }

    fn stmt(&mut self, s: impl Into<String>) -> &mut Case {
        self.statements.push(s.into());
        self
    }

    fn reg(&mut self, name: &str, value: u64) -> &mut Case {
        self.regs.insert(name.into(), value);
        self
    }

    /// An 8-byte mbarrier `bar` initialised for one arrival and fenced for the async proxy.
    fn mbarrier(&mut self) -> &mut Case {
        self.shared("bar", Init::Fill { len: 8, byte: Some(0) }, 8, false)
            .stmt("mbarrier.init.shared::cta.b64 [bar], 1;")
            .stmt("fence.mbarrier_init.release.cluster;")
            .stmt("fence.proxy.async.shared::cta;")
    }

    /// A cluster of `ctas` CTAs, each arming its own `bar` for a multicast of `bytes` bytes
    /// that reaches the CTAs `mask` names (the others expect none, so their phase completes at
    /// their arrival), then the cluster barrier: every CTA's mbarrier is initialised and armed
    /// before CTA `issuer` issues the copy (§9.7.9.25.4.1: the mbarrier signal "is also
    /// multicast to the same CTA-relative offset as dstMem in the destination CTAs"). Returns
    /// the guard the issuing statement takes; the copy's `ctaMask` operand is `mask`.
    fn multicast_arm(&mut self, ctas: u32, mask: u64, issuer: u32, bytes: u64) -> String {
        self.cluster = ctas;
        self.reg("mask", mask).reg("maskw", mask).reg("issuer", u64::from(issuer));
        self.stmt("mov.u32 rk, %cluster_ctarank;")
            .stmt("shr.b32 mine, maskw, rk;")
            .stmt("and.b32 mine, mine, 1;")
            .stmt(format!("mul.lo.u32 tx, mine, {bytes};"))
            .stmt("mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], tx;")
            .stmt("barrier.cluster.arrive;")
            .stmt("barrier.cluster.wait;")
            .stmt("setp.eq.u32 lead, rk, issuer;");
        "@lead ".into()
    }

    /// The one arrival with `bytes` of expected transactions, before the copy is issued.
    fn expect_tx(&mut self, bytes: u64) -> &mut Case {
        self.stmt(format!("mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], {bytes};"))
    }

    /// The wait for phase 0 of `bar` to complete.
    fn wait_phase0(&mut self) -> &mut Case {
        self.stmt("wait:").stmt("mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0;").stmt("@!p bra wait;")
    }

    fn bulk_wait(&mut self) -> &mut Case {
        self.stmt("cp.async.bulk.commit_group;").stmt("cp.async.bulk.wait_group 0;")
    }

    fn finish(self) -> MemSource {
        MemSource {
            target: self.target,
            threads: 1,
            cluster: self.cluster,
            statements: self.statements,
            regs: self.regs,
            buffers: self.buffers,
            tensor_maps: self.tensor_maps,
            read: self.read,
        }
    }
}

/// Bytes as hex pairs in address order.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `len` bytes that differ from every other case buffer's at most offsets: a splitmix64 stream
/// from `seed`, so a byte copied from the wrong offset shows.
pub fn pattern(len: usize, seed: u64) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5DEE_CE66_D1CE_4E5B;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        out.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out.truncate(len);
    out
}

/// The cases of one form, with labels; `Err` names why it has none.
fn form_cases(form: &Form, target: &Target) -> Result<Vec<(String, MemSource)>, String> {
    let cases = match form {
        Form::CpAsync(c) => cp_async_cases(c, &form.opcode(), target),
        Form::CpAsyncBulk(c) => bulk_cases(c, &form.opcode(), target)?,
        Form::CpReduceAsyncBulk(c) => reduce_cases(c, &form.opcode(), target, &|a, b| !f32_subnormal_pair(c.ty, a, b)),
        Form::CpAsyncBulkPrefetch(c) => prefetch_cases(c.cache_hint, &form.opcode(), target),
        Form::CpAsyncBulkTensor(c) => tensor_copy_cases(c, &form.opcode(), target)?,
        Form::CpReduceAsyncBulkTensor(c) => {
            tensor_reduce_cases(c, &form.opcode(), target, &|m| !int64_bitwise(c.redop, m) && !im2col_corners(m))?
        }
        Form::CpAsyncBulkPrefetchTensor(c) => tensor_prefetch_cases(c, &form.opcode(), target)?,
        f => return Err(format!("`{}` is not an asynchronous copy", f.opcode())),
    };
    Ok(cases)
}

/// Every `VARIANT_STRIDE`-th of `cases` when `variant`, else all.
fn sample<T>(cases: Vec<T>, variant: bool) -> Vec<T> {
    if variant {
        cases.into_iter().step_by(VARIANT_STRIDE).collect()
    } else {
        cases
    }
}

/// The trailing cache-policy operand of a `.L2::cache_hint` form (an input register).
fn policy(case: &mut Case, cache_hint: bool) -> &'static str {
    if cache_hint {
        case.reg("pol", CACHE_POLICY);
        ", pol"
    } else {
        ""
    }
}

fn cp_async_cases(c: &CpAsync, opcode: &str, target: &Target) -> Vec<(String, MemSource)> {
    let size = c.cp_size.bytes() as u64;
    let variant = c.cache_hint || c.prefetch.is_some() || opcode.contains(".shared::cta.");
    // (source size or ignore flag, label)
    let reads: Vec<(Option<u64>, String)> = match c.src {
        CpAsyncSrc::Full => vec![(None, "full".into())],
        CpAsyncSrc::SrcSize => (0..=size).map(|n| (Some(n), format!("src-size {n}"))).collect(),
        CpAsyncSrc::IgnoreSrc => vec![(Some(0), "ignore-src false".into()), (Some(1), "ignore-src true".into())],
    };
    let src_offsets: Vec<u64> = (0..4).map(|k| k * size).collect();
    let dst_offsets: Vec<u64> = vec![0, size];
    let mut out = Vec::new();
    for (extra, what) in &reads {
        for (k, &so) in src_offsets.iter().enumerate() {
            for (j, &dof) in dst_offsets.iter().enumerate() {
                // Full copies take every offset pair; the others every other pair.
                if c.src != CpAsyncSrc::Full && (k + j) % 2 == 1 {
                    continue;
                }
                let seed = out.len() as u64;
                let mut case = Case::new(target);
                case.global("src", pattern(64, seed), true).shared(
                    "win",
                    Init::Fill { len: 48, byte: Some(0xA5) },
                    16,
                    true,
                );
                let operand = match (c.src, extra) {
                    (CpAsyncSrc::SrcSize, Some(n)) => format!(", {n}"),
                    (CpAsyncSrc::IgnoreSrc, Some(flag)) => {
                        case.reg("flag", *flag).stmt("setp.ne.u32 q, flag, 0;");
                        ", q".to_string()
                    }
                    _ => String::new(),
                };
                let pol = policy(&mut case, c.cache_hint);
                case.stmt(format!("{opcode} [win+{dof}], [src+{so}], {size}{operand}{pol};"));
                if seed.is_multiple_of(2) {
                    case.stmt("cp.async.commit_group;").stmt("cp.async.wait_group 0;");
                } else {
                    case.stmt("cp.async.wait_all;");
                }
                out.push((format!("cp-size {size}, {what}, src +{so}, dst +{dof}"), case.finish()));
            }
        }
    }
    sample(out, variant)
}

/// Bulk sizes: every multiple of 16 up to 256, then powers of two up to 8 KiB and their
/// 16-byte neighbours.
pub fn bulk_sizes() -> Vec<u64> {
    let mut sizes: Vec<u64> = (1..=16).map(|k| k * 16).collect();
    for p in [512u64, 1024, 2048, 4096, 8192] {
        sizes.extend([p - 16, p, p + 16]);
    }
    sizes
}

/// Multicast bulk copies (global → `.shared::cluster` of the CTAs `ctaMask` names) in the
/// clusters of [`MULTICAST_CLUSTERS`], over a few sizes and offsets.
fn multicast_bulk_cases(c: &CpAsyncBulk, opcode: &str, target: &Target) -> Vec<(String, MemSource)> {
    let mut out = Vec::new();
    for (k, &(ctas, mask, issuer)) in MULTICAST_CLUSTERS.iter().enumerate() {
        for (size, so, dof) in [(16u64, 0u64, 0u64), (48, 16, 32), (1024, 0, 16), (4096 + 16, 32, 0)] {
            // Large copies in the first cluster only.
            if k > 0 && size >= 1024 {
                continue;
            }
            let seed = out.len() as u64 + 3000;
            let len = size + 64;
            let mut case = Case::new(target);
            case.global("src", pattern(len as usize, seed), true)
                .shared("win", Init::Fill { len, byte: Some(0xA5) }, 128, true)
                .mbarrier();
            let guard = case.multicast_arm(ctas, mask, issuer, size);
            let pol = policy(&mut case, c.cache_hint);
            case.stmt(format!("{guard}{opcode} [win+{dof}], [src+{so}], {size}, [bar], mask{pol};")).wait_phase0();
            let label =
                format!("cluster {ctas}, ctaMask {mask:#06b} from CTA {issuer}, size {size}, src +{so}, dst +{dof}");
            out.push((label, case.finish()));
        }
    }
    out
}

/// Shared → shared copies into another CTA of a cluster of 2 (§9.7.9.25.4.1): CTA 0 copies
/// its `src` to CTA 1's `win` (addresses through `mapa.shared::cluster`), completing on CTA
/// 1's mbarrier, which CTA 1 armed for the bytes before the cluster barrier; CTA 0 arms its
/// own for none. Every CTA's buffers are read back.
fn remote_bulk_cases(c: &CpAsyncBulk, opcode: &str, target: &Target) -> Vec<(String, MemSource)> {
    let mut out = Vec::new();
    for (size, so, dof) in [(16u64, 0u64, 0u64), (64, 16, 48), (256, 0, 16), (2048, 32, 0)] {
        let seed = out.len() as u64 + 5000;
        let len = size + 64;
        let mut case = Case::new(target);
        case.cluster = 2;
        case.shared("src", Init::Hex(hex(&pattern(len as usize, seed))), 128, true)
            .shared("win", Init::Fill { len, byte: Some(0xA5) }, 128, true)
            .mbarrier()
            .stmt("mov.u32 rk, %cluster_ctarank;")
            .stmt(format!("mul.lo.u32 tx, rk, {size};"))
            .stmt("mbarrier.arrive.expect_tx.shared::cta.b64 st, [bar], tx;")
            .stmt("barrier.cluster.arrive;")
            .stmt("barrier.cluster.wait;")
            .stmt("setp.eq.u32 lead, rk, 0;")
            .stmt("mapa.shared::cluster.u32 rwin, win, 1;")
            .stmt("mapa.shared::cluster.u32 rbar, bar, 1;");
        let pol = policy(&mut case, c.cache_hint);
        case.stmt(format!("@lead {opcode} [rwin+{dof}], [src+{so}], {size}, [rbar]{pol};")).wait_phase0();
        out.push((format!("cluster 2, CTA 0 to CTA 1, size {size}, src +{so}, dst +{dof}"), case.finish()));
    }
    out
}

fn bulk_cases(c: &CpAsyncBulk, opcode: &str, target: &Target) -> Result<Vec<(String, MemSource)>, String> {
    if c.multicast {
        if c.cp_mask {
            return Err("not modelled by the case generator: .cp_mask".into());
        }
        return Ok(sample(multicast_bulk_cases(c, opcode, target), c.cache_hint));
    }
    if c.cp_mask {
        return Err("not modelled by the case generator: .cp_mask".into());
    }
    let mut out = Vec::new();
    let offsets: [(u64, u64); 3] = [(0, 0), (16, 0), (32, 48)];
    for size in bulk_sizes() {
        for (k, &(so, dof)) in offsets.iter().enumerate() {
            // Large sizes at one offset pair only.
            if size > 256 && k > 0 && !(size.is_power_of_two() && k == 1) {
                continue;
            }
            let seed = out.len() as u64 + 1000;
            let mut case = Case::new(target);
            let label = format!("size {size}, src +{so}, dst +{dof}");
            let len = size + 64;
            let pol_src = |case: &mut Case| policy(case, c.cache_hint);
            match (c.src, c.completion) {
                (BulkSpace::Global, Completion::Mbarrier) => {
                    case.global("src", pattern(len as usize, seed), true)
                        .shared("win", Init::Fill { len, byte: Some(0xA5) }, 128, true)
                        .mbarrier()
                        .expect_tx(size);
                    let pol = pol_src(&mut case);
                    case.stmt(format!("{opcode} [win+{dof}], [src+{so}], {size}, [bar]{pol};")).wait_phase0();
                }
                (_, Completion::Mbarrier) => {
                    case.shared("src", Init::Hex(hex(&pattern(len as usize, seed))), 128, true)
                        .shared("win", Init::Fill { len, byte: Some(0xA5) }, 128, true)
                        .mbarrier()
                        .expect_tx(size);
                    let pol = pol_src(&mut case);
                    case.stmt(format!("{opcode} [win+{dof}], [src+{so}], {size}, [bar]{pol};")).wait_phase0();
                }
                (_, Completion::BulkGroup) => {
                    case.shared("src", Init::Hex(hex(&pattern(len as usize, seed))), 128, true)
                        .global("dst", pattern(len as usize, seed + 7), true)
                        .stmt("fence.proxy.async.shared::cta;");
                    let pol = pol_src(&mut case);
                    case.stmt(format!("{opcode} [dst+{dof}], [src+{so}], {size}{pol};"))
                        .stmt("cp.async.bulk.commit_group;");
                    if seed.is_multiple_of(2) {
                        case.stmt("cp.async.bulk.wait_group 0;");
                    } else {
                        // Once the source is read it may be overwritten; the copy still
                        // writes the old bytes.
                        case.stmt("cp.async.bulk.wait_group.read 0;")
                            .reg("junk", 0x5A5A_5A5A)
                            .stmt(format!("st.shared.u32 [src+{so}], junk;"))
                            .stmt("cp.async.bulk.wait_group 0;");
                    }
                }
            }
            out.push((label, case.finish()));
        }
    }
    if c.src == BulkSpace::SharedCta && c.dst == BulkSpace::SharedCluster {
        out.extend(remote_bulk_cases(c, opcode, target));
    }
    Ok(sample(out, c.cache_hint))
}

/// Edge values of a reduction type (bit patterns).
pub fn edge_values(ty: ReduceType) -> Vec<u64> {
    match ty {
        ReduceType::F16 => vec![
            0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x3C01, 0x1400, 0x7BFF, 0xFBFF, 0x7C00,
            0xFC00, 0x7E00, 0x7C01,
        ],
        ReduceType::Bf16 => vec![
            0x0000, 0x8000, 0x0001, 0x8001, 0x007F, 0x0080, 0x3F80, 0xBF80, 0x3F81, 0x3B80, 0x7F7F, 0xFF7F, 0x7F80,
            0xFF80, 0x7FC0, 0x7F81,
        ],
        ReduceType::F32 => vec![
            0x0000_0000,
            0x8000_0000,
            0x0000_0001,
            0x8000_0001,
            0x007F_FFFF,
            0x0080_0000,
            0x3F80_0000,
            0xBF80_0000,
            0x3F80_0001,
            0x3380_0000,
            0x7F7F_FFFF,
            0xFF7F_FFFF,
            0x7F80_0000,
            0xFF80_0000,
            0x7FC0_0000,
            0x7F80_0001,
        ],
        ReduceType::F64 => vec![
            0,
            0x8000_0000_0000_0000,
            1,
            0x000F_FFFF_FFFF_FFFF,
            0x0010_0000_0000_0000,
            0x3FF0_0000_0000_0000,
            0xBFF0_0000_0000_0000,
            0x3FF0_0000_0000_0001,
            0x3CA0_0000_0000_0000,
            0x7FEF_FFFF_FFFF_FFFF,
            0x7FF0_0000_0000_0000,
            0xFFF0_0000_0000_0000,
            0x7FF8_0000_0000_0000,
            0x7FF0_0000_0000_0001,
        ],
        ReduceType::B32 | ReduceType::U32 | ReduceType::S32 => {
            vec![0, 1, 2, 3, 0x7FFF_FFFF, 0x8000_0000, 0x8000_0001, 0xFFFF_FFFE, 0xFFFF_FFFF, 0x1234_5678]
        }
        ReduceType::B64 | ReduceType::U64 | ReduceType::S64 => vec![
            0,
            1,
            2,
            0xFFFF_FFFF,
            0x1_0000_0000,
            0x7FFF_FFFF_FFFF_FFFF,
            0x8000_0000_0000_0000,
            0xFFFF_FFFF_FFFF_FFFE,
            0xFFFF_FFFF_FFFF_FFFF,
            0x0123_4567_89AB_CDEF,
        ],
    }
}

/// Bytes of one element of `ty`.
fn reduce_bytes(ty: ReduceType) -> usize {
    match ty {
        ReduceType::F16 | ReduceType::Bf16 => 2,
        ReduceType::B32 | ReduceType::U32 | ReduceType::S32 | ReduceType::F32 => 4,
        _ => 8,
    }
}

/// Every pair of edge values `keep` accepts as (destination, source) element arrays, padded
/// with zeros to a multiple of 16 bytes.
fn edge_pairs(ty: ReduceType, keep: &dyn Fn(u64, u64) -> bool) -> (Vec<u8>, Vec<u8>) {
    let v = edge_values(ty);
    let eb = reduce_bytes(ty);
    let (mut dst, mut src) = (Vec::new(), Vec::new());
    for a in &v {
        for b in v.iter().filter(|&&b| keep(*a, b)) {
            dst.extend_from_slice(&a.to_le_bytes()[..eb]);
            src.extend_from_slice(&b.to_le_bytes()[..eb]);
        }
    }
    let len = dst.len().next_multiple_of(16);
    dst.resize(len, 0);
    src.resize(len, 0);
    (dst, src)
}

/// Bytes of one reduction case at most.
const REDUCE_CHUNK: usize = 256;

/// Whether an f32 edge pair has a subnormal: the H100 keeps them where §9.7.9.25.4.2 says
/// `.add.f32` flushes ([`F32_SUBNORMAL_ADDS`]).
fn f32_subnormal_pair(ty: ReduceType, a: u64, b: u64) -> bool {
    let subnormal = |v: u64| v & 0x7F80_0000 == 0 && v & 0x007F_FFFF != 0;
    ty == ReduceType::F32 && (subnormal(a) || subnormal(b))
}

/// Whether `map` is an im2col map whose pixel bounding box has a corner other than 0: an
/// `.im2col_no_offs` store or reduction over one traps on an H100 ([`IM2COL_CORNER_TRAPS`];
/// loads over them work, and so do stores over the same map with both corners 0, swizzled or
/// not).
fn im2col_corners(map: &TensorMap) -> bool {
    matches!(&map.mode, MapMode::Im2col { lower_corner, upper_corner, .. }
        if lower_corner.iter().chain(upper_corner).any(|&c| c != 0))
}

/// `map` with its pixel bounding box corners at 0 (the `.im2col_no_offs` stores of the sweep).
fn with_zero_corners(map: TensorMap) -> TensorMap {
    let mode = match map.mode {
        MapMode::Im2col { lower_corner, upper_corner, channels_per_pixel, pixels_per_column } => MapMode::Im2col {
            lower_corner: vec![0; lower_corner.len()],
            upper_corner: vec![0; upper_corner.len()],
            channels_per_pixel,
            pixels_per_column,
        },
        m => m,
    };
    TensorMap { mode, ..map }
}

/// Whether a tensor reduction with `redop` over `map` is a bitwise one over an INT64 map, which
/// traps on an H100 ([`INT64_BITWISE_TRAPS`]).
pub(crate) fn int64_bitwise(redop: RedOp, map: &TensorMap) -> bool {
    matches!(redop, RedOp::And | RedOp::Or | RedOp::Xor) && map.dtype == D::Int64
}

fn reduce_cases(
    c: &CpReduceAsyncBulk,
    opcode: &str,
    target: &Target,
    keep: &dyn Fn(u64, u64) -> bool,
) -> Vec<(String, MemSource)> {
    let (dst_all, src_all) = edge_pairs(c.ty, keep);
    let mut out = Vec::new();
    for (k, (d, s)) in dst_all.chunks(REDUCE_CHUNK).zip(src_all.chunks(REDUCE_CHUNK)).enumerate() {
        let size = d.len() as u64;
        let at = k * REDUCE_CHUNK;
        let mut case = Case::new(target);
        case.shared("src", Init::Hex(hex(s)), 128, true);
        match c.completion {
            Completion::BulkGroup => {
                case.global("dst", d.to_vec(), true).stmt("fence.proxy.async.shared::cta;");
                let pol = policy(&mut case, c.cache_hint);
                case.stmt(format!("{opcode} [dst], [src], {size}{pol};")).bulk_wait();
            }
            Completion::Mbarrier => {
                case.shared("dst", Init::Hex(hex(d)), 128, true).mbarrier().expect_tx(size);
                let pol = policy(&mut case, c.cache_hint);
                case.stmt(format!("{opcode} [dst], [src], {size}, [bar]{pol};")).wait_phase0();
            }
        }
        out.push((format!("edge pairs, bytes {at}..{}", at as u64 + size), case.finish()));
    }
    sample(out, c.cache_hint)
}

fn prefetch_cases(cache_hint: bool, opcode: &str, target: &Target) -> Vec<(String, MemSource)> {
    let mut out = Vec::new();
    for (k, size) in [16u64, 48, 256, 4096, 8208].into_iter().enumerate() {
        let mut case = Case::new(target);
        let so = 16 * (k as u64 % 3);
        case.global("src", pattern((size + 64) as usize, 3000 + k as u64), true);
        let pol = policy(&mut case, cache_hint);
        case.stmt(format!("{opcode} [src+{so}], {size}{pol};"));
        out.push((format!("size {size}, src +{so}: memory unchanged"), case.finish()));
    }
    sample(out, cache_hint)
}

/// The element types tensor maps are swept over, with their element bytes.
const TILE_TYPES: [D; 9] =
    [D::Uint8, D::Uint16, D::Float16, D::Bfloat16, D::Float32, D::Tfloat32, D::Int32, D::Float64, D::Uint64];

/// A tiled map of `rank` over `dtype` whose inner box row is `inner_bytes`, without swizzle,
/// interleave or OOB fill, element strides 1; the tensor is a few elements larger than the
/// box in every dimension, rows padded by `row_pad` bytes. Callers set the other fields.
fn tiled_map(rank: usize, dtype: D, inner_bytes: u64, row_pad: u64) -> TensorMap {
    let eb = dtype.element_bytes().max(1);
    let box0 = (inner_bytes / eb).max(1) as u32;
    let mut box_dims = vec![box0];
    let mut dims = vec![u64::from(box0) * 2 + 3];
    for d in 1..rank {
        let b = if d == 1 { 3 } else { 2 };
        box_dims.push(b);
        dims.push(u64::from(b) + 2 + (d as u64 % 2));
    }
    let mut strides = Vec::new();
    let mut s = (dims[0] * eb).next_multiple_of(16) + row_pad;
    for &n in &dims[1..] {
        strides.push(s);
        s *= n;
    }
    TensorMap { dtype, dims, strides, box_dims, element_strides: vec![1; rank], ..blank_map() }
}

/// `map` with `swizzle`, `interleave`, element stride `estride` on dimensions ≥ 1 and `fill`.
fn with_layout(mut map: TensorMap, swizzle: Swizzle, interleave: Interleave, estride: u32, fill: OobFill) -> TensorMap {
    map.swizzle = swizzle;
    map.interleave = interleave;
    map.oob_fill = fill;
    for e in map.element_strides.iter_mut().skip(1) {
        *e = estride;
    }
    map
}

fn blank_map() -> TensorMap {
    TensorMap {
        mode: MapMode::Tiled,
        dtype: D::Uint8,
        global_address: 0,
        dims: vec![16],
        strides: vec![],
        box_dims: vec![16],
        element_strides: vec![1],
        interleave: Interleave::None,
        swizzle: Swizzle::None,
        l2_promotion: L2Promotion::None,
        oob_fill: OobFill::None,
    }
}

/// Bytes of the global tensor of `map` (its last dimension's stride × extent).
fn tensor_bytes(map: &TensorMap) -> u64 {
    let eb = map.element_bytes().max(1);
    match (map.strides.last(), map.dims.last()) {
        (Some(&s), Some(&n)) => s * n,
        _ => (map.dims[0] * eb).next_multiple_of(16),
    }
}

/// The tiled maps of `rank` valid on `target`: data type × swizzle × interleave × box shape ×
/// element strides × OOB fill, thinned so each rank has a few dozen.
fn tiled_maps(rank: usize, target: &Target, types: &[D]) -> Vec<TensorMap> {
    let mut maps = Vec::new();
    let mut k = 0usize;
    for (t, &dtype) in types.iter().enumerate() {
        for (z, swizzle) in [Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128].into_iter().enumerate() {
            // Thin the product: half the (type, swizzle) pairs per rank, the other half on
            // the next rank; each pair keeps one inner width, alternating.
            if (t + z + rank) % 2 == 1 {
                continue;
            }
            let span = swizzle.span().unwrap_or(32);
            for inner in [span, 16.max(span / 2)] {
                k += 1;
                if k.is_multiple_of(2) {
                    continue;
                }
                let fill = if dtype.is_float() && k % 4 == 1 { OobFill::NanRequestZeroFma } else { OobFill::None };
                let estride = if k.is_multiple_of(3) { 2 } else { 1 };
                let row_pad = if k.is_multiple_of(5) { 16 } else { 0 };
                let m = with_layout(tiled_map(rank, dtype, inner, row_pad), swizzle, Interleave::None, estride, fill);
                if m.validate(target).is_ok() {
                    maps.push(m);
                }
            }
        }
    }
    if rank >= 3 {
        maps.extend(interleaved_maps(rank, target, types));
    }
    maps
}

/// Interleaved maps of `rank` (≥ 3) valid on `target` (corpus/evidence/tma-interleave.md): the
/// 16B interleave under each swizzle and the 32B one under its 32B swizzle, over `types` in
/// turn, inner rows of 16 or 32 bytes of elements (`boxDim[0]` counts 16- or 32-byte units on
/// the GPU), an element stride on dimension 0 or on the others, the NaN fill on some float
/// maps. The box of dimension rank − 2 is one position: an H100 traverses no more
/// ([`TensorMap::interleave_skips_box`], the dedicated set [`INTERLEAVE_BOX_SKIP`]).
fn interleaved_maps(rank: usize, target: &Target, types: &[D]) -> Vec<TensorMap> {
    let layouts = [
        (Interleave::B16, Swizzle::None),
        (Interleave::B16, Swizzle::B32),
        (Interleave::B16, Swizzle::B64),
        (Interleave::B16, Swizzle::B128),
        (Interleave::B32, Swizzle::B32),
    ];
    let mut maps = Vec::new();
    for (k, (interleave, swizzle)) in layouts.into_iter().enumerate() {
        let dtype = types[(k + rank) % types.len()];
        let inner = 16 * (1 + (k + rank) as u64 % 2);
        let estride = if k % 4 == 0 { 2 } else { 1 };
        let mut m = interleaved_map(rank, dtype, interleave, inner, 32 * (k as u64 % 2), estride, 1);
        m.swizzle = swizzle;
        if k % 2 == 1 {
            m.element_strides[0] = 2;
        }
        if dtype.is_float() && k % 2 == 0 {
            m.oob_fill = OobFill::NanRequestZeroFma;
        }
        if m.validate(target).is_ok() && !m.interleave_skips_box() {
            maps.push(m);
        }
    }
    maps
}

/// An interleaved map (16B or 32B): `boxDim[0]` = `inner_bytes` / element size, in a tensor
/// three units wider; along dimension d ≥ 1 a box of 3 positions at element stride `estride`
/// (`rank2_positions` at stride 1 along dimension rank − 2, where an H100 walks only the
/// first) in a tensor one larger than the box; rows padded by `row_pad` bytes (a multiple of
/// 32). No swizzle, no fill: callers set them.
fn interleaved_map(
    rank: usize,
    dtype: D,
    interleave: Interleave,
    inner_bytes: u64,
    row_pad: u64,
    estride: u32,
    rank2_positions: u32,
) -> TensorMap {
    let unit = interleave.unit_bytes().unwrap_or(16);
    let box0 = (inner_bytes / dtype.element_bytes().max(1)).max(1) as u32;
    let mut box_dims = vec![box0];
    let mut dims = vec![u64::from(box0) + 3];
    let mut element_strides = vec![1];
    for d in 1..rank {
        let (b, e) = if d == rank - 2 { (rank2_positions, 1) } else { (3, estride) };
        box_dims.push(b);
        element_strides.push(e);
        dims.push(u64::from(b) + 1);
    }
    let mut strides = Vec::new();
    let mut s = (dims[0] * unit).next_multiple_of(32) + row_pad;
    for &n in &dims[1..] {
        strides.push(s);
        s *= n;
    }
    TensorMap { dtype, dims, strides, box_dims, element_strides, interleave, ..blank_map() }
}

/// Coordinate sets for `map`: inside, straddling the end and the start (negative) of the
/// innermost and the outermost dimension (and of dimension rank − 2 of an interleaved map);
/// the innermost coordinate stays a multiple of 16 bytes (an interleaved map counts it in
/// units of 16 or 32 bytes).
fn coordinate_sets(map: &TensorMap) -> Vec<(String, Vec<i32>)> {
    let rank = map.rank();
    let eb = map.element_bytes().max(1) as i32;
    let q = if map.interleave == Interleave::None { (16 / eb).max(1) } else { 1 };
    let inside: Vec<i32> = (0..rank).map(|d| if d == 0 { q } else { 1 }).collect();
    let mut sets = vec![("inside".to_string(), inside.clone())];
    sets.push(("origin".into(), vec![0; rank]));
    // The edges of the innermost and the outermost dimension.
    let mut edges = vec![0];
    if rank > 1 {
        edges.push(rank - 1);
    }
    if map.interleave != Interleave::None && rank >= 3 {
        edges.push(rank - 2);
    }
    for d in edges {
        let b = map.box_dims.get(d).copied().unwrap_or(1) as i32;
        let n = map.dims[d] as i32;
        let mut end = inside.clone();
        let mut neg = inside.clone();
        if d == 0 {
            end[0] = ((n - b / 2) / q) * q;
            neg[0] = -q.max((b / 2 / q) * q);
        } else {
            end[d] = n - b / 2;
            neg[d] = -(b / 2).max(1);
        }
        sets.push((format!("past the end of dim {d}"), end));
        sets.push((format!("before the start of dim {d}"), neg));
    }
    sets.push(("all negative".into(), (0..rank).map(|d| if d == 0 { -q } else { -1 }).collect()));
    sets.retain(|(_, c)| !map.inner_coordinate_traps(c));
    sets
}

/// The `{c0, …}` operand of `coords` as input registers `c0…`.
fn coords_operand(case: &mut Case, coords: &[i32]) -> String {
    let names: Vec<String> = (0..coords.len()).map(|d| format!("c{d}")).collect();
    for (n, &c) in names.iter().zip(coords) {
        case.reg(n, u64::from(c as u32));
    }
    format!("{{{}}}", names.join(", "))
}

/// A short description of a map.
fn map_label(m: &TensorMap) -> String {
    format!(
        "{} dims {:?} box {:?} estr {:?} {} swizzle {} interleave {} fill {}",
        m.dtype.name(),
        m.dims,
        m.box_dims,
        m.element_strides,
        match &m.mode {
            MapMode::Tiled => "tiled".to_string(),
            MapMode::Im2col { channels_per_pixel, pixels_per_column, .. } =>
                format!("im2col c{channels_per_pixel}×p{pixels_per_column}"),
        },
        m.swizzle.name(),
        m.interleave.name(),
        m.oob_fill.name()
    )
}

/// Shared-memory alignment of tile buffers: swizzle patterns follow the address, so 1024.
const TILE_ALIGN: u64 = 1024;

fn tensor_copy_cases(c: &CpAsyncBulkTensor, opcode: &str, target: &Target) -> Result<Vec<(String, MemSource)>, String> {
    if c.cta_group.is_some() {
        return Err("not modelled by the case generator: .cta_group".into());
    }
    if c.multicast {
        return multicast_tensor_cases(c, opcode, target);
    }
    let rank = usize::from(c.dim.rank());
    let load = c.dst != BulkSpace::Global;
    let mode = c.load_mode;
    // The `.shared::cta` destination (PTX 8.6) is the own-CTA case of `.shared::cluster`.
    let variant = c.cache_hint || mode.is_none() || c.dst == BulkSpace::SharedCta;
    let mut out = Vec::new();
    match mode.unwrap_or(LoadMode::Tile) {
        LoadMode::Tile => {
            for (m, map) in tiled_maps(rank, target, &TILE_TYPES).into_iter().enumerate() {
                for (where_, coords) in coordinate_sets(&map) {
                    // Stores keep to §9.7.9.25.5.1 (the oracle calls other stores undefined).
                    if !load && map.store_restriction(&coords).is_some() {
                        continue;
                    }
                    let seed = (m * 100 + out.len()) as u64;
                    let label = format!("{}; {where_} {coords:?}", map_label(&map));
                    let case = if load {
                        tensor_load(c.cache_hint, opcode, target, &map, &coords, &[], seed, None)
                    } else {
                        tensor_store(opcode, None, c.cache_hint, target, &map, &coords, seed)
                    };
                    out.push((label, case));
                }
            }
        }
        LoadMode::Im2col if load => {
            for (m, map) in im2col_maps(rank, target).into_iter().enumerate() {
                for (where_, coords, offsets) in im2col_coordinates(&map) {
                    let seed = (m * 100 + out.len()) as u64 + 50_000;
                    let label = format!("{}; {where_} {coords:?} offsets {offsets:?}", map_label(&map));
                    out.push((label, tensor_load(c.cache_hint, opcode, target, &map, &coords, &offsets, seed, None)));
                }
            }
        }
        LoadMode::Im2colNoOffs if !load => {
            let maps = im2col_maps(rank, target).into_iter().map(with_zero_corners).enumerate();
            out = im2col_stores(opcode, None, c.cache_hint, target, maps, &|m, n| (m * 100 + n) as u64 + 60_000);
        }
        m => return Err(format!("not modelled by the memory programs: tensor copies in .{m} mode")),
    }
    Ok(sample(out, variant))
}

/// Multicast tensor loads (tile and im2col) in the clusters of [`MULTICAST_CLUSTERS`]: the
/// first maps of the one-CTA sweep, each at its first and last coordinate sets (a box inside
/// the tensor and one straddling its far edges).
fn multicast_tensor_cases(
    c: &CpAsyncBulkTensor,
    opcode: &str,
    target: &Target,
) -> Result<Vec<(String, MemSource)>, String> {
    let rank = usize::from(c.dim.rank());
    let mut placed: Vec<(String, TensorMap, Vec<i32>, Vec<u16>)> = Vec::new();
    match c.load_mode.unwrap_or(LoadMode::Tile) {
        LoadMode::Tile => {
            for map in tiled_maps(rank, target, &TILE_TYPES).into_iter().take(3) {
                let sets = coordinate_sets(&map);
                for (where_, coords) in sets.first().into_iter().chain(sets.last()) {
                    placed.push((
                        format!("{}; {where_} {coords:?}", map_label(&map)),
                        map.clone(),
                        coords.clone(),
                        Vec::new(),
                    ));
                }
            }
        }
        LoadMode::Im2col => {
            for map in im2col_maps(rank, target).into_iter().take(2) {
                let sets = im2col_coordinates(&map);
                for (where_, coords, offsets) in sets.first().into_iter().chain(sets.last()) {
                    let label = format!("{}; {where_} {coords:?} offsets {offsets:?}", map_label(&map));
                    placed.push((label, map.clone(), coords.clone(), offsets.clone()));
                }
            }
        }
        m => return Err(format!("not modelled by the memory programs: tensor copies in .{m} mode")),
    }
    let mut out = Vec::new();
    for (k, (label, map, coords, offsets)) in placed.iter().enumerate() {
        for (j, &cluster) in MULTICAST_CLUSTERS.iter().enumerate() {
            // Every placement in the first two clusters, the rest on a stride.
            if j >= 2 && (k + j) % 3 != 0 {
                continue;
            }
            let seed = (k * 10 + j) as u64 + 70_000;
            let case = tensor_load(c.cache_hint, opcode, target, map, coords, offsets, seed, Some(cluster));
            let (ctas, mask, issuer) = cluster;
            out.push((format!("cluster {ctas}, ctaMask {mask:#06b} from CTA {issuer}; {label}"), case));
        }
    }
    let variant = c.cache_hint || c.load_mode.is_none();
    Ok(sample(out, variant))
}

/// A tensor load of the tile at `coords` into `win`, completing on an mbarrier; with
/// `multicast` (CTAs, ctaMask, issuer), a multicast in that cluster.
#[allow(clippy::too_many_arguments)]
fn tensor_load(
    cache_hint: bool,
    opcode: &str,
    target: &Target,
    map: &TensorMap,
    coords: &[i32],
    offsets: &[u16],
    seed: u64,
    multicast: Option<(u32, u64, u32)>,
) -> MemSource {
    let mut case = Case::new(target);
    case.global("src", pattern(tensor_bytes(map) as usize, seed), true).shared(
        "win",
        Init::Fill { len: map.tile_extent(), byte: Some(0xA5) },
        TILE_ALIGN,
        true,
    );
    case.tensor_maps.push(TensorMapSource {
        name: "tmap".into(),
        global: "src".into(),
        global_offset: 0,
        map: map.clone(),
        object: None,
    });
    case.mbarrier();
    let (guard, mask) = match multicast {
        Some((ctas, mask, issuer)) => (case.multicast_arm(ctas, mask, issuer, map.tile_bytes()), ", mask"),
        None => {
            case.expect_tx(map.tile_bytes());
            (String::new(), "")
        }
    };
    let c = coords_operand(&mut case, coords);
    let info = if offsets.is_empty() {
        String::new()
    } else {
        let names: Vec<String> = (0..offsets.len()).map(|k| format!("o{k}")).collect();
        for (n, &o) in names.iter().zip(offsets) {
            case.reg(n, u64::from(o));
        }
        format!(", {{{}}}", names.join(", "))
    };
    let pol = policy(&mut case, cache_hint);
    case.stmt(format!("{guard}{opcode} [win], [tmap, {c}], [bar]{info}{mask}{pol};")).wait_phase0();
    case.finish()
}

/// A tensor store (or, with `redop`, reduction) of `win` to the tile at `coords`, on a bulk
/// group; the tensor in `dst` is read back.
fn tensor_store(
    opcode: &str,
    redop: Option<RedOp>,
    cache_hint: bool,
    target: &Target,
    map: &TensorMap,
    coords: &[i32],
    seed: u64,
) -> MemSource {
    let mut case = Case::new(target);
    let len = tensor_bytes(map) as usize;
    let extent = map.tile_extent() as usize;
    let (global, shared) = match redop {
        None => (pattern(len, seed), pattern(extent, seed + 1)),
        Some(_) => (edge_elements(map.dtype, len, 0), edge_elements(map.dtype, extent, 3)),
    };
    case.global("dst", global, true).shared("win", Init::Hex(hex(&shared)), TILE_ALIGN, true);
    case.tensor_maps.push(TensorMapSource {
        name: "tmap".into(),
        global: "dst".into(),
        global_offset: 0,
        map: map.clone(),
        object: None,
    });
    case.stmt("fence.proxy.async.shared::cta;");
    let c = coords_operand(&mut case, coords);
    let pol = policy(&mut case, cache_hint);
    case.stmt(format!("{opcode} [tmap, {c}], [win]{pol};")).bulk_wait();
    case.finish()
}

/// `len` bytes of `dtype` elements cycling through the edge values of its reduction type,
/// starting at value `shift`.
fn edge_elements(dtype: D, len: usize, shift: usize) -> Vec<u8> {
    let ty = dtype.reduce_type(RedOp::Add).unwrap_or(ReduceType::U32);
    let v = edge_values(ty);
    let eb = reduce_bytes(ty);
    let mut out = Vec::with_capacity(len + eb);
    let mut k = shift;
    while out.len() < len {
        // Step by a number prime to the list length, so neighbours pair differently.
        out.extend_from_slice(&v[k % v.len()].to_le_bytes()[..eb]);
        k += 3;
    }
    out.truncate(len);
    out
}

/// The map element types a tensor reduction with `redop` is swept over (§9.7.9.25.5.3).
pub(crate) fn reduce_types(redop: RedOp) -> Vec<D> {
    match redop {
        RedOp::Add => vec![D::Float16, D::Bfloat16, D::Float32, D::Uint32, D::Int32, D::Uint64],
        RedOp::Min | RedOp::Max => vec![D::Float16, D::Bfloat16, D::Uint32, D::Int32, D::Uint64, D::Int64],
        RedOp::Inc | RedOp::Dec => vec![D::Uint32],
        RedOp::And | RedOp::Or | RedOp::Xor => vec![D::Uint32, D::Int32, D::Uint64, D::Int64],
    }
}

fn tensor_reduce_cases(
    c: &CpReduceAsyncBulkTensor,
    opcode: &str,
    target: &Target,
    keep: &dyn Fn(&TensorMap) -> bool,
) -> Result<Vec<(String, MemSource)>, String> {
    let rank = usize::from(c.dim.rank());
    let variant = c.cache_hint || c.load_mode.is_none();
    let mut out = Vec::new();
    match c.load_mode.unwrap_or(LoadMode::Tile) {
        LoadMode::Tile => {}
        LoadMode::Im2colNoOffs => {
            // `.add` over an f32 im2col map pairs edge values into subnormal sums, which an H100
            // keeps where §9.7.9.25.4.2 flushes them: the known deviation of
            // corpus/findings/reduce-add-f32-subnormals.md (seen here too, 2026-11-27), so f32
            // adds are left out of these rows.
            let types: Vec<D> =
                reduce_types(c.redop).into_iter().filter(|&t| !(c.redop == RedOp::Add && t == D::Float32)).collect();
            let maps = im2col_maps_of(rank, target, &types).into_iter().map(with_zero_corners);
            let seed = |m: usize, n: usize| (m * 100 + n) as u64 + 80_000;
            let kept = maps.enumerate().filter(|(_, m)| keep(m));
            let out = im2col_stores(opcode, Some(c.redop), c.cache_hint, target, kept, &seed);
            return Ok(sample(out, variant));
        }
        m => return Err(format!("not modelled by the memory programs: tensor reductions in .{m} mode")),
    }
    for (m, map) in tiled_maps(rank, target, &reduce_types(c.redop)).into_iter().enumerate().step_by(2) {
        if map.oob_fill != OobFill::None || !keep(&map) {
            continue;
        }
        // Two placements per map: inside and straddling the end of every dimension.
        let end: Vec<i32> = coordinate_sets(&map)
            .into_iter()
            .find(|(w, _)| w.starts_with("past the end of dim 0"))
            .map(|(_, c)| c)
            .unwrap_or_default();
        for (where_, coords) in [("inside", coordinate_sets(&map)[0].1.clone()), ("past the end", end)] {
            if coords.is_empty() || map.store_restriction(&coords).is_some() {
                continue;
            }
            let seed = (m * 100 + out.len()) as u64 + 70_000;
            let label = format!("{}; {where_} {coords:?}", map_label(&map));
            out.push((label, tensor_store(opcode, Some(c.redop), c.cache_hint, target, &map, &coords, seed)));
        }
    }
    Ok(sample(out, variant))
}

fn tensor_prefetch_cases(
    c: &CpAsyncBulkPrefetchTensor,
    opcode: &str,
    target: &Target,
) -> Result<Vec<(String, MemSource)>, String> {
    let rank = usize::from(c.dim.rank());
    let mode = c.load_mode.unwrap_or(LoadMode::Tile);
    let mut out = Vec::new();
    let maps: Vec<(TensorMap, Vec<Placement>)> = match mode {
        LoadMode::Tile => tiled_maps(rank, target, &[D::Float16, D::Uint8])
            .into_iter()
            .take(3)
            .map(|m| {
                let sets = coordinate_sets(&m).into_iter().take(3).map(|(w, c)| (w, c, Vec::new())).collect();
                (m, sets)
            })
            .collect(),
        LoadMode::Im2col => im2col_maps(rank, target)
            .into_iter()
            .map(|m| {
                let sets = im2col_coordinates(&m);
                (m, sets)
            })
            .collect(),
        m => return Err(format!("not modelled by the memory programs: tensor prefetches in .{m} mode")),
    };
    for (k, (map, sets)) in maps.into_iter().enumerate() {
        for (where_, coords, offsets) in sets {
            let mut case = Case::new(target);
            case.global("src", pattern(tensor_bytes(&map) as usize, 90_000 + k as u64), true);
            case.tensor_maps.push(TensorMapSource {
                name: "tmap".into(),
                global: "src".into(),
                global_offset: 0,
                map: map.clone(),
                object: None,
            });
            let co = coords_operand(&mut case, &coords);
            let info = if offsets.is_empty() {
                String::new()
            } else {
                let names: Vec<String> = (0..offsets.len()).map(|k| format!("o{k}")).collect();
                for (n, &o) in names.iter().zip(&offsets) {
                    case.reg(n, u64::from(o));
                }
                format!(", {{{}}}", names.join(", "))
            };
            let pol = policy(&mut case, c.cache_hint);
            case.stmt(format!("{opcode} [tmap, {co}]{info}{pol};"));
            out.push((format!("{}; {where_} {coords:?}: memory unchanged", map_label(&map)), case.finish()));
        }
    }
    Ok(sample(out, c.cache_hint))
}

/// Where a tile is taken: a description, the coordinates and the im2colInfo offsets.
type Placement = (String, Vec<i32>, Vec<u16>);

/// Im2col maps of `rank` (3…5): channels-innermost tensors `[C, W, (H, (D,)) N]` with corners
/// inside and outside the image.
fn im2col_maps(rank: usize, target: &Target) -> Vec<TensorMap> {
    let shapes = [
        (D::Float16, 16u32, 8u32, Swizzle::None, 0i32, 0i32),
        (D::Float32, 8, 16, Swizzle::B64, -1, 1),
        (D::Uint8, 32, 4, Swizzle::B32, -1, -1),
    ];
    im2col_maps_with(rank, target, &shapes)
}

/// Im2col maps of `rank` over each of `types` (for reductions): the shapes of [`im2col_maps`]
/// with each type in turn (channels so that a pixel is 32 bytes).
fn im2col_maps_of(rank: usize, target: &Target, types: &[D]) -> Vec<TensorMap> {
    let mut shapes = Vec::new();
    for (k, &dtype) in types.iter().enumerate() {
        let eb = dtype.element_bytes() as u32;
        let (swizzle, lower, upper) = [(Swizzle::None, 0, 0), (Swizzle::B64, -1, 1), (Swizzle::B32, -1, -1)][k % 3];
        shapes.push((dtype, 32 / eb, 8u32, swizzle, lower, upper));
    }
    im2col_maps_with(rank, target, &shapes).into_iter().map(|m| TensorMap { oob_fill: OobFill::None, ..m }).collect()
}

/// Im2col maps of `rank`, one per `(dtype, channels per pixel, pixels per column, swizzle,
/// lower corner, upper corner)`; the second gets the NaN out-of-bounds fill where it is a float
/// map (the driver refuses it on integer maps).
fn im2col_maps_with(rank: usize, target: &Target, shapes: &[(D, u32, u32, Swizzle, i32, i32)]) -> Vec<TensorMap> {
    let mut maps = Vec::new();
    for (k, &(dtype, channels, pixels, swizzle, lower, upper)) in shapes.iter().enumerate() {
        let spatial = rank - 2;
        let mut dims = vec![u64::from(channels) + 8];
        for d in 0..spatial {
            dims.push(5 + d as u64);
        }
        dims.push(2);
        let eb = dtype.element_bytes();
        let mut strides = Vec::new();
        let mut s = (dims[0] * eb).next_multiple_of(16);
        for &n in &dims[1..] {
            strides.push(s);
            s *= n;
        }
        let m = TensorMap {
            mode: MapMode::Im2col {
                lower_corner: vec![lower; spatial],
                upper_corner: vec![upper; spatial],
                channels_per_pixel: channels,
                pixels_per_column: pixels,
            },
            dtype,
            global_address: 0,
            dims,
            strides,
            box_dims: vec![],
            element_strides: vec![1; rank],
            interleave: Interleave::None,
            swizzle,
            l2_promotion: L2Promotion::None,
            oob_fill: if k == 1 && dtype.is_float() { OobFill::NanRequestZeroFma } else { OobFill::None },
        };
        if m.validate(target).is_ok() {
            maps.push(m);
        }
    }
    maps
}

/// Coordinates and im2colInfo offsets for an im2col map: at the image's start, in its middle
/// with offsets, and in the second image past the last row.
fn im2col_coordinates(map: &TensorMap) -> Vec<Placement> {
    let rank = map.rank();
    let spatial = rank - 2;
    let at = |c0: i32, s: i32, n: i32| {
        let mut v = vec![c0];
        v.extend(std::iter::repeat_n(s, spatial));
        v.push(n);
        v
    };
    vec![
        ("image start".to_string(), at(0, 0, 0), vec![0u16; spatial]),
        ("middle, offsets 1".to_string(), at(0, 1, 0), vec![1u16; spatial]),
        ("second image, near the end".to_string(), at(0, 3, 1), vec![0u16; spatial]),
    ]
}

/// `.im2col_no_offs` stores (`redop` `None`) or reductions of `opcode` over each of `maps`
/// (numbered) at [`im2col_store_coordinates`]; `seed(m, n)` seeds the bytes of the `n`-th case,
/// on map number `m`.
fn im2col_stores(
    opcode: &str,
    redop: Option<RedOp>,
    cache_hint: bool,
    target: &Target,
    maps: impl Iterator<Item = (usize, TensorMap)>,
    seed: &dyn Fn(usize, usize) -> u64,
) -> Vec<(String, MemSource)> {
    let mut out = Vec::new();
    for (m, map) in maps {
        for (where_, coords) in im2col_store_coordinates(&map) {
            let label = format!("{}; {where_} {coords:?}", map_label(&map));
            out.push((label, tensor_store(opcode, redop, cache_hint, target, &map, &coords, seed(m, out.len()))));
        }
    }
    out
}

/// Coordinates of `.im2col_no_offs` stores and reductions on an im2col map: at the image's
/// start, inside it, and in the second image (non-negative, §9.7.9.25.5.1).
fn im2col_store_coordinates(map: &TensorMap) -> Vec<(String, Vec<i32>)> {
    im2col_coordinates(map)
        .into_iter()
        .map(|(w, c, _)| (w.replace(", offsets 1", ""), c))
        .filter(|(_, c)| map.store_restriction(c).is_none())
        .collect()
}

/// A dedicated set of cases on which an H100 deviates from the PTX ISA: an open finding under
/// `corpus/findings/` with its known entry under `corpus/known/`. Its conform rows are
/// `<opcode> [<name>]` and its findings carry `input_class`, so that the known entry matches
/// these cases and nothing else; the main sweep leaves them out.
#[derive(Clone, Copy, Debug)]
pub struct DeviationSet {
    /// The row suffix's name (`inner-coordinate traps`).
    pub name: &'static str,
    /// The input class of its findings (the known entry's `input_class`).
    pub input_class: &'static str,
    /// Its cases on a target.
    pub cases: fn(&Target) -> Vec<AsyncCase>,
}

/// Tiled loads whose innermost coordinate × element size is not a multiple of 16 bytes trap
/// (corpus/findings/tma-inner-coordinate-trap.md).
pub const INNER_COORDINATE_TRAPS: DeviationSet = DeviationSet {
    name: "inner-coordinate traps",
    input_class: "inner-coordinate-not-16B",
    cases: inner_coordinate_trap_cases,
};

/// `cp.reduce.async.bulk .add.f32` keeps subnormal inputs and results, where §9.7.9.25.4.2 says
/// it flushes them (corpus/findings/reduce-add-f32-subnormals.md).
pub const F32_SUBNORMAL_ADDS: DeviationSet =
    DeviationSet { name: "f32 subnormal adds", input_class: "f32-subnormal-add", cases: f32_subnormal_add_cases };

/// Bitwise tensor reductions over an INT64 map trap (corpus/findings/tensor-reduce-int64-bitwise-trap.md).
pub const INT64_BITWISE_TRAPS: DeviationSet =
    DeviationSet { name: "int64 bitwise traps", input_class: "int64-bitwise-reduction", cases: int64_bitwise_cases };

/// `.im2col_no_offs` tensor stores and reductions over an im2col map with a pixel bounding box
/// corner other than 0 trap (corpus/findings/tma-im2col-no-offs-corner-trap.md).
pub const IM2COL_CORNER_TRAPS: DeviationSet = DeviationSet {
    name: "im2col_no_offs corner traps",
    input_class: "im2col-no-offs-corners",
    cases: im2col_corner_trap_cases,
};

/// `.im2col` tensor loads whose spatial coordinate lies outside the pixel bounding box trap
/// (corpus/findings/tma-im2col-fuzz-trap.md).
pub const IM2COL_START_TRAPS: DeviationSet = DeviationSet {
    name: "im2col start traps",
    input_class: "im2col-start-outside-box",
    cases: im2col_start_trap_cases,
};

/// Interleaved tensor stores and reductions whose box spans more than one position along
/// dimension rank − 2: an H100 writes only the first (corpus/findings/tma-interleave-box-skip.md).
pub const INTERLEAVE_BOX_SKIP: DeviationSet = DeviationSet {
    name: "interleave box skipped",
    input_class: "interleave-box-rank-2",
    cases: interleave_box_skip_cases,
};

/// Every dedicated set.
pub const DEVIATION_SETS: [DeviationSet; 6] = [
    INNER_COORDINATE_TRAPS,
    F32_SUBNORMAL_ADDS,
    INT64_BITWISE_TRAPS,
    IM2COL_CORNER_TRAPS,
    IM2COL_START_TRAPS,
    INTERLEAVE_BOX_SKIP,
];

/// The tensor stores into global memory and the tensor reductions whose redOp `redops` accepts,
/// in `mode` (no cache hint), of a rank `ranks` accepts, valid on `target`: (opcode, `None` for
/// a store or the redOp, rank).
pub(crate) fn tensor_write_forms(
    target: &Target,
    mode: LoadMode,
    ranks: &dyn Fn(usize) -> bool,
    redops: &dyn Fn(RedOp) -> bool,
) -> Vec<(String, Option<RedOp>, usize)> {
    valid_forms(target, None)
        .into_iter()
        .filter_map(|(form, _)| {
            let (redop, rank) = match &form {
                Form::CpAsyncBulkTensor(c)
                    if c.dst == BulkSpace::Global && c.load_mode == Some(mode) && !c.cache_hint =>
                {
                    (None, c.dim.rank())
                }
                Form::CpReduceAsyncBulkTensor(c) if c.load_mode == Some(mode) && redops(c.redop) && !c.cache_hint => {
                    (Some(c.redop), c.dim.rank())
                }
                _ => return None,
            };
            ranks(usize::from(rank)).then(|| (form.opcode(), redop, usize::from(rank)))
        })
        .collect()
}

/// The `.tile` tensor stores and `.add` reductions of ranks 3 and 4 (no cache hint) over
/// interleaved maps (16B and 32B, UINT32) whose box spans 2 or 3 positions along dimension
/// rank − 2, inside the tensor: the spec writes every position, an H100 the first only
/// ([`TensorMap::interleave_skips_box`], corpus/findings/tma-interleave-box-skip.md). Loads are
/// left out: the transaction bytes a load signals fall short of the tile's, so it would hang.
pub fn interleave_box_skip_cases(target: &Target) -> Vec<AsyncCase> {
    let mut out = Vec::new();
    for (opcode, redop, rank) in
        tensor_write_forms(target, LoadMode::Tile, &|r| matches!(r, 3 | 4), &|op| op == RedOp::Add)
    {
        for (k, (interleave, swizzle, positions)) in
            [(Interleave::B16, Swizzle::None, 2u32), (Interleave::B32, Swizzle::B32, 3)].into_iter().enumerate()
        {
            let mut map = interleaved_map(rank, D::Uint32, interleave, 16, 0, 1, positions);
            map.swizzle = swizzle;
            let coords: Vec<i32> = (0..rank).map(|d| i32::from(d > 0 && d != rank - 2)).collect();
            if !map.interleave_skips_box() || map.validate(target).is_err() || map.store_restriction(&coords).is_some()
            {
                continue;
            }
            let label = format!("{}; {positions} positions along dimension {}", map_label(&map), rank - 2);
            let seed = 96_000 + (rank * 10 + k) as u64 + 100 * u64::from(redop.is_some());
            out.push(AsyncCase {
                form: opcode.clone(),
                label,
                source: tensor_store(&opcode, redop, false, target, &map, &coords, seed),
            });
        }
    }
    out
}

/// The `.im2col` loads into `.shared::cluster` of ranks 3, 4 and 5 (no multicast, no cache
/// hint) over each im2col map of the sweep's shapes, with the first spatial coordinate one
/// below the pixel bounding box's lower corner and one past its end: the spec promises the
/// column, an H100 traps ([`TensorMap::im2col_start_traps`],
/// corpus/findings/tma-im2col-fuzz-trap.md).
pub fn im2col_start_trap_cases(target: &Target) -> Vec<AsyncCase> {
    let mut out = Vec::new();
    for (form, _) in valid_forms(target, Some(Family::CpAsyncBulkTensor)) {
        let Form::CpAsyncBulkTensor(c) = &form else { continue };
        if c.dst != BulkSpace::SharedCluster
            || c.load_mode != Some(LoadMode::Im2col)
            || c.multicast
            || c.cache_hint
            || c.cta_group.is_some()
        {
            continue;
        }
        let opcode = form.opcode();
        let rank = usize::from(c.dim.rank());
        for (m, map) in im2col_maps(rank, target).into_iter().enumerate() {
            let MapMode::Im2col { lower_corner, upper_corner, .. } = &map.mode else { continue };
            let (below, past) = (lower_corner[0] - 1, map.dims[1] as i32 + upper_corner[0]);
            for (k, w) in [below, past].into_iter().enumerate() {
                let mut coords = vec![0; rank];
                coords[1] = w;
                let offsets = vec![0u16; rank - 2];
                if !map.im2col_start_traps(&coords) || map.tile_at(0, &coords, &offsets).is_err() {
                    continue;
                }
                let label = format!("{}; w = {w} outside [{}, {}]", map_label(&map), lower_corner[0], past - 1);
                let seed = 97_000 + (rank * 100 + m * 10 + k) as u64;
                out.push(AsyncCase {
                    form: opcode.clone(),
                    label,
                    source: tensor_load(false, &opcode, target, &map, &coords, &offsets, seed, None),
                });
            }
        }
    }
    out
}

/// The 3-D `.im2col_no_offs` store and `.add` reduction (no cache hint) over each im2col map of
/// the sweep's shapes whose corners are not 0, at the sweep's store coordinates: the spec
/// promises the write, an H100 traps (corpus/findings/tma-im2col-no-offs-corner-trap.md).
pub fn im2col_corner_trap_cases(target: &Target) -> Vec<AsyncCase> {
    let mut out = Vec::new();
    for (opcode, redop, _) in tensor_write_forms(target, LoadMode::Im2colNoOffs, &|r| r == 3, &|op| op == RedOp::Add) {
        let maps = match redop {
            None => im2col_maps(3, target),
            Some(op) => im2col_maps_of(3, target, &reduce_types(op)),
        };
        let before = out.len();
        let seed = |m: usize, n: usize| 98_000 + (m * 10 + before + n) as u64;
        let trapping = maps.into_iter().enumerate().filter(|(_, m)| im2col_corners(m));
        let cases = im2col_stores(&opcode, redop, false, target, trapping, &seed);
        out.extend(cases.into_iter().map(|(label, source)| AsyncCase { form: opcode.clone(), label, source }));
    }
    out
}

/// The `cp.reduce.async.bulk .add.f32` edge pairs with a subnormal, for each such form.
pub fn f32_subnormal_add_cases(target: &Target) -> Vec<AsyncCase> {
    let mut out = Vec::new();
    for (form, _) in valid_forms(target, Some(Family::CpReduceAsyncBulk)) {
        let Form::CpReduceAsyncBulk(c) = &form else { continue };
        if c.ty != ReduceType::F32 || c.redop != RedOp::Add {
            continue;
        }
        let opcode = form.opcode();
        for (label, source) in reduce_cases(c, &opcode, target, &|a, b| f32_subnormal_pair(c.ty, a, b)) {
            out.push(AsyncCase { form: opcode.clone(), label, source });
        }
    }
    out
}

/// The bitwise tensor reductions over INT64 maps, for each `.and`/`.or`/`.xor` tensor form of
/// rank 1 and 2.
pub fn int64_bitwise_cases(target: &Target) -> Vec<AsyncCase> {
    let mut out = Vec::new();
    for (form, _) in valid_forms(target, Some(Family::CpReduceAsyncBulkTensor)) {
        let Form::CpReduceAsyncBulkTensor(c) = &form else { continue };
        if !matches!(c.redop, RedOp::And | RedOp::Or | RedOp::Xor) || c.dim.rank() > 2 {
            continue;
        }
        let opcode = form.opcode();
        let Ok(cases) = tensor_reduce_cases(c, &opcode, target, &|m| int64_bitwise(c.redop, m)) else { continue };
        out.extend(cases.into_iter().map(|(label, source)| AsyncCase { form: opcode.clone(), label, source }));
    }
    out
}

/// The small dedicated set of tiled loads whose innermost coordinate × element size is not a
/// multiple of 16 bytes: the spec promises the tile, an H100 traps
/// (corpus/findings/tma-inner-coordinate-trap.md). One form (the 2-D `.tile` load into
/// `.shared::cluster`, the form the H100 was measured with), four cases.
pub fn inner_coordinate_trap_cases(target: &Target) -> Vec<AsyncCase> {
    let Some(form) = valid_forms(target, Some(Family::CpAsyncBulkTensor)).into_iter().map(|(f, _)| f).find(|f| {
        matches!(f, Form::CpAsyncBulkTensor(c) if c.dim.rank() == 2 && c.dst == BulkSpace::SharedCluster
            && c.load_mode == Some(LoadMode::Tile) && !c.multicast && !c.cache_hint && c.cta_group.is_none())
    }) else {
        return Vec::new();
    };
    let opcode = form.opcode();
    let mut out = Vec::new();
    for (k, (dtype, c0)) in
        [(D::Float32, 1i32), (D::Float16, 4), (D::Float16, -3), (D::Uint8, 8)].into_iter().enumerate()
    {
        let map = tiled_map(2, dtype, 32, 0);
        let coords = vec![c0, 0];
        if !map.inner_coordinate_traps(&coords) || map.validate(target).is_err() {
            continue;
        }
        let label = format!("{}; inner coordinate {c0} × {} bytes", map_label(&map), map.element_bytes());
        out.push(AsyncCase {
            form: opcode.clone(),
            label,
            source: tensor_load(false, &opcode, target, &map, &coords, &[], 99_000 + k as u64, None),
        });
    }
    out
}

/// The arch-specific target `tensormap.replace` needs beside `target` (sm_90 → sm_90a, §9.7.9.26
/// Target ISA Notes), at the same PTX version or the lowest that knows it.
pub fn replace_target(target: &Target) -> Option<Target> {
    let t = Target::parse(&format!("sm_{}a", target.sm)).ok()?;
    t.with_ptx(target.ptx.max(t.min_ptx())).ok()
}

/// The map the `tensormap.replace` cases start from: UINT8, 64 × 6 × 2 bytes in rows of 64,
/// a 32 × 4 × 1 box (its copy lives in the object buffer `gmap`).
fn replace_base_map() -> TensorMap {
    TensorMap {
        dtype: D::Uint8,
        dims: vec![64, 6, 2],
        strides: vec![64, 512],
        box_dims: vec![32, 4, 1],
        element_strides: vec![1, 1, 1],
        ..blank_map()
    }
}

/// The replacements of one `tensormap.replace` form's cases: each a list of `(field, ord,
/// value)` that ends with the form's own (earlier ones keep the map one the driver encodes:
/// a wider element type shrinks dimension 0 and the box to the same bytes), and a label.
fn replace_plans(r: &TensormapReplace) -> Result<Vec<(String, ReplacePlan)>, String> {
    use ReplaceValue::{Bits, Buffer};
    use TensormapField as F;
    let one = |ord: Option<usize>, v: u64| vec![(r.field, ord, Bits(v))];
    let plans: Vec<(String, ReplacePlan)> = match r.field {
        F::BoxDim => vec![
            ("box dimension 0 of 16".into(), one(Some(0), 16)),
            ("box dimension 0 of 64".into(), one(Some(0), 64)),
            ("box dimension 1 of 1".into(), one(Some(1), 1)),
            ("box dimension 1 of 6, past the end".into(), one(Some(1), 6)),
            ("box dimension 2 of 2".into(), one(Some(2), 2)),
        ],
        F::GlobalDim => vec![
            ("dimension 0 of 40: the box straddles its end".into(), one(Some(0), 40)),
            ("dimension 1 of 3".into(), one(Some(1), 3)),
            ("dimension 2 of 1".into(), one(Some(2), 1)),
        ],
        F::GlobalStride => vec![
            ("rows 128 bytes apart".into(), one(Some(0), 128)),
            ("rows 16 bytes apart (overlapping)".into(), one(Some(0), 16)),
            ("planes 256 bytes apart".into(), one(Some(1), 256)),
        ],
        F::ElementStride => vec![
            ("every second row".into(), one(Some(1), 2)),
            ("every third row".into(), one(Some(1), 3)),
            ("element stride 2 of dimension 0 (ignored without interleave)".into(), one(Some(0), 2)),
        ],
        F::GlobalAddress => {
            vec![
                ("the second tensor".into(), vec![(F::GlobalAddress, None, Buffer("src2", 0))]),
                ("the second tensor 64 bytes in".into(), vec![(F::GlobalAddress, None, Buffer("src2", 64))]),
            ]
        }
        F::Rank => vec![("rank 2".into(), one(None, 1))],
        F::Elemtype => {
            let v = r.new_val.ok_or("an .elemtype form without its value")?;
            let dtype = replace_base_map().replaced(F::Elemtype, None, u64::from(v))?.dtype;
            if dtype.is_packed() {
                return Err(format!("packed element type {} (layout not modeled)", dtype.name()));
            }
            let eb = dtype.element_bytes();
            vec![(
                format!("element type {}", dtype.name()),
                vec![
                    (F::GlobalDim, Some(0), Bits(64 / eb)),
                    (F::BoxDim, Some(0), Bits(32 / eb)),
                    (F::Elemtype, None, Bits(u64::from(v))),
                ],
            )]
        }
        F::SwizzleMode => {
            let v = r.new_val.ok_or("a .swizzle_mode form without its value")?;
            vec![(format!("swizzle mode {v}"), one(None, u64::from(v)))]
        }
        F::FillMode => {
            let v = r.new_val.ok_or("a .fill_mode form without its value")?;
            // A NaN fill needs a float type: FLOAT16 first, rows past dimension 1's end.
            vec![(
                format!("fill mode {v} over FLOAT16, dimension 1 of 3"),
                vec![
                    (F::GlobalDim, Some(0), Bits(32)),
                    (F::BoxDim, Some(0), Bits(16)),
                    (F::Elemtype, None, Bits(6)),
                    (F::GlobalDim, Some(1), Bits(3)),
                    (F::FillMode, None, Bits(u64::from(v))),
                ],
            )]
        }
        F::InterleaveLayout => match r.new_val {
            Some(0) => vec![("no interleave".into(), one(None, 0))],
            // Dimension 0 then counts 16- or 32-byte units (corpus/evidence/tma-interleave.md):
            // a 64-byte row is 4 or 2 of them, a box of 16 reaches past it; one position along
            // dimension 1 (an H100 traverses no more of it); 32B needs the 32B swizzle.
            Some(v @ (1 | 2)) => {
                let mut plan = vec![
                    (F::GlobalDim, Some(0), Bits(if v == 1 { 4 } else { 2 })),
                    (F::BoxDim, Some(0), Bits(16)),
                    (F::BoxDim, Some(1), Bits(1)),
                ];
                if v == 2 {
                    plan.push((F::SwizzleMode, None, Bits(1)));
                }
                plan.push((F::InterleaveLayout, None, Bits(u64::from(v))));
                vec![(format!("interleave layout {v}, dimension 0 of 16 units"), plan)]
            }
            Some(v) => return Err(format!("interleave layout {v} is no Table 33 value")),
            None => return Err("a .interleave_layout form without its value".into()),
        },
        F::SwizzleAtomicity => return Err("`.swizzle_atomicity` (sm_100) is not modeled".into()),
    };
    Ok(plans)
}

/// The `.global` opcode that replaces `field` with `value` (the helper replacements of a plan).
fn field_opcode(field: TensormapField, value: ReplaceValue) -> String {
    let bits = match value {
        ReplaceValue::Bits(v) => Some(v),
        ReplaceValue::Buffer(..) => None,
    };
    replace_opcode(field, bits)
}

/// The `tensormap.replace.tile.<field>.global.b1024.<type>` opcode for `field`; `value` is the
/// Table 33 row of a `.field3` field (part of the form), ignored for the others.
pub(crate) fn replace_opcode(field: TensormapField, value: Option<u64>) -> String {
    use TensormapField as F;
    let ty = if matches!(field, F::GlobalAddress | F::GlobalStride) { TensormapType::B64 } else { TensormapType::B32 };
    let new_val = match field.has_ord() || matches!(field, F::GlobalAddress | F::Rank) {
        false => value.and_then(|v| u8::try_from(v).ok()),
        true => None,
    };
    Form::TensormapReplace(TensormapReplace { field, ss: Some(TensormapSs::Global), ty, new_val }).opcode()
}

/// The replacements of one case, in order: field, ordinal, value.
type ReplacePlan = Vec<(TensormapField, Option<usize>, ReplaceValue)>;

/// A `tensormap.replace` value: bits, or a global buffer's address plus an offset.
#[derive(Clone, Copy)]
enum ReplaceValue {
    Bits(u64),
    Buffer(&'static str, u64),
}

/// The cases of a `tensormap.replace` form (§9.7.9.26) on a tensor-map object in global
/// memory: each plan's replacements, the release and acquire fences (§9.7.13.4), then a tiled
/// load through the object at the origin and at a place that straddles the end of dimension 1;
/// its window and the object's tensor are compared byte for byte. The expected transaction
/// count comes from the replaced map ([`TensorMap::replaced`]); forms on `.shared::cta` objects
/// are not run.
fn replace_cases(r: &TensormapReplace, opcode: &str, target: &Target) -> Result<Vec<(String, MemSource)>, String> {
    if r.ss == Some(TensormapSs::SharedCta) {
        return Err("tensor-map objects in shared memory are not modeled".into());
    }
    let base = replace_base_map();
    let mut out = Vec::new();
    for (k, (label, plan)) in replace_plans(r)?.into_iter().enumerate() {
        let mut map = base.clone();
        let mut statements = Vec::new();
        for (n, &(field, ord, value)) in plan.iter().enumerate() {
            let op = if n + 1 == plan.len() { opcode.to_string() } else { field_opcode(field, value) };
            let (v, bits) = match value {
                ReplaceValue::Bits(b) => (b.to_string(), b),
                ReplaceValue::Buffer(name, off) => {
                    statements.push(format!("mov.b64 a{n}, {name};"));
                    statements.push(format!("add.s64 a{n}, a{n}, {off};"));
                    // The model address of `src2` (the second global buffer) plus the offset.
                    (format!("a{n}"), oracle::memprog::global_base(1, 256) + off)
                }
            };
            map = map.replaced(field, ord, bits)?;
            let ord = ord.map_or(String::new(), |o| format!("{o}, "));
            statements.push(format!("{op} [gmap], {ord}{v};"));
        }
        if map.validate(target).is_err() {
            return Err(format!("{label}: the replaced map breaks an encode rule"));
        }
        let rank = map.rank();
        let places: Vec<Vec<i32>> = vec![vec![0; rank], {
            let mut c = vec![0; rank];
            c[1.min(rank - 1)] = 3;
            c
        }];
        for (j, coords) in places.into_iter().enumerate() {
            let mut case = Case::new(target);
            let seed = 96_000 + (k * 10 + j) as u64;
            case.global("src", pattern(1024, seed), false)
                .global("src2", pattern(1024, seed + 1), false)
                .buffer("gmap", BufferSpace::Global, 128, Init::Fill { len: 128, byte: None }, false)
                .shared("win", Init::Fill { len: map.tile_extent(), byte: Some(0xA5) }, TILE_ALIGN, true);
            case.tensor_maps.push(TensorMapSource {
                name: "tmap".into(),
                global: "src".into(),
                global_offset: 0,
                map: base.clone(),
                object: Some("gmap".into()),
            });
            for s in &statements {
                case.stmt(s.clone());
            }
            case.stmt("fence.proxy.tensormap::generic.release.gpu;")
                .stmt("fence.proxy.tensormap::generic.acquire.gpu [gmap], 128;");
            case.mbarrier().expect_tx(map.tile_bytes());
            let c = coords_operand(&mut case, &coords);
            case.stmt(format!(
                "cp.async.bulk.tensor.{rank}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [win], [gmap, {c}], [bar];"
            ))
            .wait_phase0();
            out.push((format!("{label}; at {coords:?}"), case.finish()));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use oracle::semantics::Allowances;

    fn sm90() -> Target {
        "sm_90".parse().unwrap()
    }

    /// Every case of sm_90 builds and runs on the oracle without a protocol error, and its
    /// read buffers come back.
    #[test]
    fn every_sm90_case_is_protocol_correct() {
        let mut sweep = async_cases(&sm90(), &|_| true);
        for set in &DEVIATION_SETS {
            sweep.cases.extend((set.cases)(&sm90()));
        }
        let mut failures = Vec::new();
        for c in &sweep.cases {
            let p = match c.source.build() {
                Ok(p) => p,
                Err(e) => {
                    failures.push(format!("{} [{}]: build: {e}", c.form, c.label));
                    continue;
                }
            };
            if let Err(e) = oracle::memprog::interp::run(&p, &Allowances::all()) {
                failures.push(format!("{} [{}]: run: {e}", c.form, c.label));
            }
        }
        assert!(
            failures.is_empty(),
            "{} of {} cases fail:\n{}",
            failures.len(),
            sweep.cases.len(),
            failures[..failures.len().min(30)].join("\n")
        );
    }
}

#[cfg(test)]
mod deviation_sets {
    use super::*;

    /// Each dedicated set has cases on sm_90, and the main sweep has none of them: no f32 edge
    /// pair with a subnormal, no bitwise tensor reduction over an INT64 map, no tile load at a
    /// trapping innermost coordinate, no interleaved map whose box spans positions along
    /// dimension rank − 2, no `.im2col_no_offs` store or
    /// reduction over an im2col map with a corner other than 0.
    #[test]
    fn the_sets_hold_exactly_what_the_sweep_leaves_out() {
        let t: Target = "sm_90".parse().unwrap();
        for set in &DEVIATION_SETS {
            assert!(!(set.cases)(&t).is_empty(), "set `{}` has no cases", set.name);
        }
        let subnormals = f32_subnormal_add_cases(&t);
        assert!(subnormals.iter().all(|c| c.form.ends_with(".add.f32")));
        let (dst, src) = edge_pairs(ReduceType::F32, &|a, b| f32_subnormal_pair(ReduceType::F32, a, b));
        assert_eq!(dst.len(), src.len());
        assert!(dst.chunks(4).zip(src.chunks(4)).all(|(a, b)| {
            let w = |x: &[u8]| u64::from(u32::from_le_bytes(x.try_into().unwrap()));
            f32_subnormal_pair(ReduceType::F32, w(a), w(b)) || (w(a) == 0 && w(b) == 0)
        }));
        let sweep = async_cases(&t, &|_| true);
        let interleaved = |cases: &[AsyncCase], i: Interleave| {
            cases.iter().filter(|c| c.source.tensor_maps.iter().any(|m| m.map.interleave == i)).count()
        };
        let (b16, b32) = (interleaved(&sweep.cases, Interleave::B16), interleaved(&sweep.cases, Interleave::B32));
        eprintln!("{b16} cases over 16B-interleaved maps, {b32} over 32B ones");
        assert!(b16 >= 100 && b32 >= 30, "{b16} cases over 16B-interleaved maps, {b32} over 32B ones");
        let skipped = interleave_box_skip_cases(&t);
        assert!(skipped.iter().all(|c| c.source.tensor_maps.iter().all(|m| m.map.interleave_skips_box())));
        assert!(skipped.iter().any(|c| c.form.starts_with("cp.reduce")) && skipped.len() >= 8, "{}", skipped.len());
        for c in &sweep.cases {
            for m in &c.source.tensor_maps {
                assert!(!m.map.interleave_skips_box(), "{}: {}", c.form, c.label);
                let bitwise = [".and.", ".or.", ".xor."].iter().any(|op| c.form.contains(op));
                assert!(!(bitwise && m.map.dtype == D::Int64), "{}: {}", c.form, c.label);
                let no_offs = c.form.contains(".im2col_no_offs");
                assert!(!(no_offs && im2col_corners(&m.map)), "{}: {}", c.form, c.label);
            }
        }
        let corners = im2col_corner_trap_cases(&t);
        for c in &corners {
            assert!(c.form.contains(".im2col_no_offs"), "{}", c.form);
            for m in &c.source.tensor_maps {
                assert!(im2col_corners(&m.map), "{}: {}", c.form, c.label);
            }
        }
        let int64 = int64_bitwise_cases(&t);
        assert!(int64.iter().all(|c| c.source.tensor_maps.iter().all(|m| m.map.dtype == D::Int64)));
    }
}

#[cfg(test)]
mod coverage {
    /// The same target gives the same cases, in the same order.
    #[test]
    fn cases_are_a_function_of_the_target() {
        let target: Target = "sm_90".parse().unwrap();
        let keep = |op: &str| op.starts_with("cp.async.bulk.tensor.2d") || op.starts_with("cp.async.cg");
        let (a, b) = (async_cases(&target, &keep), async_cases(&target, &keep));
        assert!(!a.cases.is_empty());
        assert_eq!(a.cases, b.cases);
        assert_eq!(a.not_run, b.not_run);
    }

    use super::*;

    /// `tensormap.replace` runs beside a target only where its arch-specific twin exists.
    #[test]
    fn replace_cases_take_the_arch_specific_twin_or_none() {
        let twin = |t: &str| replace_target(&t.parse().unwrap()).map(|t| t.name());
        assert_eq!(twin("sm_90").as_deref(), Some("sm_90a"));
        assert_eq!(twin("sm_90a").as_deref(), Some("sm_90a"));
        for t in ["sm_80", "sm_89"] {
            assert_eq!(twin(t), None, "{t}");
            assert!(async_cases(&t.parse().unwrap(), &|op| op.starts_with("tensormap")).cases.is_empty());
        }
    }

    /// The sm_90 sweep replaces every sm_90a field of a global tensor-map object (both
    /// spellings of the address) and loads through it, the interleaved layouts included;
    /// objects in shared memory are listed as not run, with why.
    #[test]
    fn tensormap_replace_cases_cover_every_sm90a_field_of_a_global_object() {
        let sweep = async_cases(&"sm_90".parse().unwrap(), &|op| op.starts_with("tensormap.replace"));
        let forms: std::collections::BTreeSet<&str> = sweep.cases.iter().map(|c| c.form.as_str()).collect();
        for field in ["box_dim", "global_dim", "global_stride", "element_stride", "global_address", "rank", "elemtype"]
            .into_iter()
            .chain(["swizzle_mode", "fill_mode", "interleave_layout"])
        {
            for ss in [".global", ""] {
                let ty = if matches!(field, "global_address" | "global_stride") { "b64" } else { "b32" };
                let op = format!("tensormap.replace.tile.{field}{ss}.b1024.{ty}");
                assert!(forms.contains(op.as_str()), "no cases for {op}: {forms:?}");
            }
        }
        assert!(sweep.cases.iter().all(|c| c.source.target.name() == "sm_90a"));
        assert!(sweep.not_run.iter().any(|(f, why)| f.contains(".shared::cta.") && why.contains("shared memory")));
        assert!(sweep.not_run.iter().all(|(f, _)| f.contains(".shared::cta.")), "{:?}", sweep.not_run);
        let interleaved = sweep.cases.iter().filter(|c| c.label.starts_with("interleave layout")).count();
        assert_eq!(interleaved, 2 * 2 * 2, "16B and 32B, both spellings, two places");
        // Every element type sm_90a has, each loaded at the origin and past dimension 1's end.
        let elemtypes =
            sweep.cases.iter().filter(|c| c.form == "tensormap.replace.tile.elemtype.global.b1024.b32").count();
        assert_eq!(elemtypes, 13 * 2);
    }

    /// Every family has cases; every sm_90 multicast form has cases in clusters of several
    /// CTAs; the sweep stays a few thousand cases.
    #[test]
    fn every_family_has_cases_and_the_sweep_stays_small() {
        let target: Target = "sm_90".parse().unwrap();
        let sweep = async_cases(&target, &|_| true);
        for family in ASYNC_FAMILIES {
            let n = sweep.cases.iter().filter(|c| Family::classify(&c.form) == Some(family)).count();
            eprintln!("{}: {n} cases", family.name());
            assert!(n > 0, "{}", family.name());
        }
        let mut reasons: Vec<&str> = sweep.not_run.iter().map(|(_, r)| r.as_str()).collect();
        reasons.dedup();
        eprintln!("{} cases; not run: {} forms ({reasons:?})", sweep.cases.len(), sweep.not_run.len());
        let multicast: Vec<_> = sweep.cases.iter().filter(|c| c.form.to_string().contains("multicast")).collect();
        assert!(multicast.iter().any(|c| c.source.cluster == 4) && multicast.iter().all(|c| c.source.cluster > 1));
        assert!(
            !sweep.not_run.iter().any(|(f, r)| f.contains("multicast") && !r.contains("cp_mask")),
            "{:?}",
            sweep.not_run.iter().filter(|(f, _)| f.contains("multicast")).collect::<Vec<_>>()
        );
        assert!((1000..=6000).contains(&sweep.cases.len()), "{}", sweep.cases.len());
    }
}
