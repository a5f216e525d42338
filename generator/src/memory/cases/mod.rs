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
//! - the forms that reach another CTA's shared memory through `mapa.shared::cluster`
//!   addresses: remote `mbarrier.arrive{.expect_tx}`/`arrive_drop` and `ld`/`st` on
//!   `.shared::cluster`, in clusters of 2 and 4 CTAs, each ordered by mbarrier release/acquire
//!   at `.cluster` scope or by `barrier.cluster` (`remote.rs`);
//! - `tensormap.replace` (§9.7.9.26, sm_90a) of every field on a tensor-map object in global
//!   memory and on one in shared memory (`.shared::cta`: copied there whole, replaced, copied
//!   back by `tensormap.cp_fenceproxy`), and `tensormap.cp_fenceproxy` (§9.7.13.16) at each
//!   scope; each followed by a tiled load through the object (`replace.rs`).
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
//! it traps on ([`TensorMap::inner_coordinate_traps`](oracle::memory::tensor_map::TensorMap::inner_coordinate_traps)), `.add.f32` edge pairs with a subnormal,
//! bitwise tensor reductions over INT64 maps, `.im2col_no_offs` stores and reductions over
//! im2col maps whose pixel bounding box corners are not 0.
//!
//! One job per file: this file plans the sweep ([`async_cases`]: forms in family order, their
//! cases, the forms not run and why); `builder.rs` is the case builder (buffers, registers,
//! the mbarrier and multicast protocol steps, byte patterns); `copies.rs` the `cp.async`,
//! `cp.async.bulk` and bulk-prefetch cases; `reduce.rs` the `cp.reduce.async.bulk` edge pairs;
//! `tensor.rs` the tensor loads, stores, reductions and prefetches; `maps.rs` the tensor-map
//! catalogues and their coordinate sets; `deviations.rs` the [`DEVIATION_SETS`]; `replace.rs`
//! the `tensormap.replace` and `tensormap.cp_fenceproxy` cases; `remote.rs` the remote arrive and `ld`/`st` cases.

use oracle::isa::operand::{Imm, Operand};
use oracle::isa::{valid_forms, Createpolicy, Family, Form, PolicyKind, PolicyPriority, Target};
use oracle::memprog::MemSource;

use crate::memory::stmt::{at, imm, name};

mod builder;
mod copies;
pub(crate) mod deviations;
mod maps;
pub(crate) mod reduce;
mod remote;
pub(crate) mod replace;
pub(crate) mod tensor;
#[cfg(test)]
mod tests;

pub use builder::pattern;
pub use copies::bulk_sizes;
pub use deviations::{
    f32_subnormal_add_cases, im2col_corner_trap_cases, im2col_start_trap_cases, inner_coordinate_trap_cases,
    int64_bitwise_cases, interleave_box_skip_cases, DeviationSet, DEVIATION_SETS, F32_SUBNORMAL_ADDS,
    IM2COL_CORNER_TRAPS, IM2COL_START_TRAPS, INNER_COORDINATE_TRAPS, INT64_BITWISE_TRAPS, INTERLEAVE_BOX_SKIP,
};
pub use reduce::edge_values;
pub use remote::is_remote_form;
pub use replace::replace_target;

use builder::Case;
use copies::{bulk_cases, cp_async_cases, prefetch_cases};
use deviations::{f32_subnormal_pair, im2col_corners, int64_bitwise};
use reduce::reduce_cases;
use replace::{cp_fenceproxy_cases, replace_cases};
use tensor::{tensor_copy_cases, tensor_prefetch_cases, tensor_reduce_cases};

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

/// The families whose conform cases go through tensor-map objects (`replace.rs`).
pub const OBJECT_FAMILIES: [Family; 2] = [Family::TensormapReplace, Family::TensormapCpFenceproxy];

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
    // `tensormap.replace` (sm_90a beside sm_90) on a tensor-map object in global or shared
    // memory, then a load through it.
    if let Some(rt) = replace_target(target) {
        for (form, _) in valid_forms(&rt, Some(Family::TensormapReplace)) {
            let Form::TensormapReplace(r) = &form else { continue };
            let opcode = form.opcode();
            if !keep(&opcode) {
                continue;
            }
            match replace_cases(r, &rt) {
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
    // `tensormap.cp_fenceproxy`: a tensor-map object copied to shared memory and back.
    for (form, _) in valid_forms(target, Some(Family::TensormapCpFenceproxy)) {
        let Form::TensormapCpFenceproxy(c) = &form else { continue };
        let opcode = form.opcode();
        if !keep(&opcode) {
            continue;
        }
        match cp_fenceproxy_cases(c, target) {
            Ok(cases) => {
                seen.push(opcode.clone());
                sweep.cases.extend(cases.into_iter().map(|(label, source)| AsyncCase {
                    form: opcode.clone(),
                    label,
                    source,
                }));
            }
            Err(why) => sweep.not_run.push((opcode, why)),
        }
    }
    // The forms that reach another CTA's shared memory (remote arrives, ld/st.shared::cluster).
    for (opcode, cases) in remote::remote_cases(target, keep) {
        if !seen.contains(&opcode) {
            seen.push(opcode.clone());
        }
        sweep.cases.extend(cases.into_iter().map(|(label, source)| AsyncCase { form: opcode.clone(), label, source }));
    }
    // Cases of one opcode (several operand shapes) stay together, forms in first-seen order.
    let order = |c: &AsyncCase| seen.iter().position(|f| *f == c.form).unwrap_or(usize::MAX);
    sweep.cases.sort_by_key(order);
    sweep
}

/// The cases of one form, with labels; `Err` names why it has none.
fn form_cases(form: &Form, target: &Target) -> Result<Vec<(String, MemSource)>, String> {
    let cases = match form {
        Form::CpAsync(c) => cp_async_cases(c, &form.opcode(), target),
        Form::CpAsyncBulk(c) => bulk_cases(c, target)?,
        Form::CpReduceAsyncBulk(c) => reduce_cases(c, target, &|a, b| !f32_subnormal_pair(c.ty, a, b)),
        Form::CpAsyncBulkPrefetch(c) => prefetch_cases(c, target),
        Form::CpAsyncBulkTensor(c) => tensor_copy_cases(c, target)?,
        Form::CpReduceAsyncBulkTensor(c) => {
            tensor_reduce_cases(c, target, &|m| !int64_bitwise(c.redop, m) && !im2col_corners(m))?
        }
        Form::CpAsyncBulkPrefetchTensor(c) => tensor_prefetch_cases(c, target)?,
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

/// The trailing cache-policy operand of a `.L2::cache_hint` form (`pol`; none without a
/// hint): the policy in `pol`, made in one of three ways, chosen by the case's buffers (so the
/// cases of a form use all three): an input register holding [`CACHE_POLICY`],
/// `createpolicy.fractional` or `createpolicy.range.global` over the case's first global buffer
/// (§9.7.9.18; the policy is opaque and only a hint).
fn policy_operand(case: &mut Case, cache_hint: bool) -> Option<Operand> {
    if !cache_hint {
        return None;
    }
    let pick = format!("{:?}", case.buffers).bytes().fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
    let global = case.buffers.iter().find(|b| b.space == oracle::memprog::BufferSpace::Global).map(|b| b.name.clone());
    match (pick % 3, global) {
        (0, _) => {
            case.reg("pol", CACHE_POLICY);
        }
        (1, Some(g)) => {
            let range = Createpolicy {
                kind: PolicyKind::Range,
                global: true,
                primary: Some(PolicyPriority::Last),
                secondary: Some(PolicyPriority::Unchanged),
                fraction: false,
            };
            case.isa(Form::Createpolicy(range), vec![name("pol"), at(&g, 0), imm(16), imm(64)]);
        }
        _ => {
            let fractional = Createpolicy {
                kind: PolicyKind::Fractional,
                global: false,
                primary: Some(PolicyPriority::First),
                secondary: None,
                fraction: true,
            };
            case.isa(Form::Createpolicy(fractional), vec![name("pol"), Operand::Imm(Imm::Float(0.5))]);
        }
    }
    Some(name("pol"))
}
