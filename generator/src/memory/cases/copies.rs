//! The cases of the non-tensor copies: `cp.async` (§9.7.9.25.3.1: every cp-size × src-size
//! (immediate 0…cp-size; register 0, 1, cp-size − 1, cp-size) × ignore-src × offset pair, completed by `commit_group` + `wait_group 0` or `wait_all`),
//! `cp.async.bulk` (§9.7.9.25.4.1: each direction, sizes from [`bulk_sizes`], offsets at 16-byte
//! steps, multicast in the clusters of [`MULTICAST_CLUSTERS`], shared → a peer CTA's shared
//! memory) and `cp.async.bulk.prefetch` (memory unchanged).
//!
//! Invariant: a bulk copy's destination is read only after its completion (the mbarrier phase or
//! `wait_group 0`); after `wait_group.read 0` only the source is overwritten.

use oracle::isa::types::{AddrType, MemType, Space};
use oracle::isa::{
    AsyncProxySpace, BulkSpace, Completion, CpAsync, CpAsyncBulk, CpAsyncBulkPrefetch, CpAsyncCommitGroup, CpAsyncSrc,
    CpAsyncWaitAll, CpAsyncWaitGroup, Form, Instruction, Mapa, MovType, Target,
};
use oracle::memprog::{Init, MemSource};
use oracle::program::{Cmp, GlueOp, GlueType, RegClass};

use super::builder::{hex, pattern, Case};
use super::{policy_operand, sample, MULTICAST_CLUSTERS};
use crate::memory::stmt::{self, at, forms, guard, imm, name, Stmt};

pub(super) fn cp_async_cases(c: &CpAsync, opcode: &str, target: &Target) -> Vec<(String, MemSource)> {
    let size = c.cp_size.bytes() as u64;
    let variant = c.cache_hint || c.prefetch.is_some() || opcode.contains(".shared::cta.");
    // (source size or ignore flag, label)
    let reads: Vec<(Option<u64>, String)> = match c.src {
        CpAsyncSrc::Full => vec![(None, "full".into())],
        CpAsyncSrc::SrcSize => (0..=size).map(|n| (Some(n), format!("src-size {n}"))).collect(),
        // §9.7.9.25.3.1: a register src-size of 0, 1, cp-size − 1 and cp-size (larger is
        // undefined).
        CpAsyncSrc::SrcSizeReg => [0, 1, size - 1, size].map(|n| (Some(n), format!("src-size register {n}"))).to_vec(),
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
                let mut operands = vec![at("win", dof), at("src", so), imm(size)];
                match (c.src, extra) {
                    (CpAsyncSrc::SrcSize, Some(n)) => operands.push(imm(*n)),
                    (CpAsyncSrc::SrcSizeReg, Some(n)) => {
                        case.typed_reg("n", RegClass::B32, *n);
                        operands.push(name("n"));
                    }
                    (CpAsyncSrc::IgnoreSrc, Some(flag)) => {
                        case.reg("flag", *flag).glue(
                            GlueOp::Setp(Cmp::Ne),
                            GlueType::U32,
                            "q",
                            vec![name("flag"), imm(0)],
                        );
                        operands.push(name("q"));
                    }
                    _ => {}
                }
                operands.extend(policy_operand(&mut case, c.cache_hint));
                case.isa(Form::CpAsync(*c), operands);
                if seed.is_multiple_of(2) {
                    case.isa(Form::CpAsyncCommitGroup(CpAsyncCommitGroup), vec![])
                        .isa(Form::CpAsyncWaitGroup(CpAsyncWaitGroup), vec![imm(0)]);
                } else {
                    case.isa(Form::CpAsyncWaitAll(CpAsyncWaitAll), vec![]);
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
pub(super) fn multicast_bulk_cases(c: &CpAsyncBulk, target: &Target) -> Vec<(String, MemSource)> {
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
            let lead = case.multicast_arm(ctas, mask, issuer, size);
            let mut operands = vec![at("win", dof), at("src", so), imm(size), at("bar", 0), name("mask")];
            operands.extend(policy_operand(&mut case, c.cache_hint));
            let copy = Instruction { guard: Some(lead), form: Form::CpAsyncBulk(*c), operands };
            case.push(Stmt::Isa(copy)).wait_phase0();
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
pub(super) fn remote_bulk_cases(c: &CpAsyncBulk, target: &Target) -> Vec<(String, MemSource)> {
    let mut out = Vec::new();
    for (size, so, dof) in [(16u64, 0u64, 0u64), (64, 16, 48), (256, 0, 16), (2048, 32, 0)] {
        let seed = out.len() as u64 + 5000;
        let len = size + 64;
        let mut case = Case::new(target);
        case.cluster = 2;
        case.shared("src", Init::Hex(hex(&pattern(len as usize, seed))), 128, true)
            .shared("win", Init::Fill { len, byte: Some(0xA5) }, 128, true)
            .mbarrier()
            .isa(stmt::mov_special(MovType::U32), vec![name("rk"), name("%cluster_ctarank")])
            .glue(GlueOp::MulLo, GlueType::U32, "tx", vec![name("rk"), imm(size)])
            .isa(forms::arrive_expect_tx(false), vec![name("st"), at("bar", 0), name("tx")])
            .push(Stmt::ClusterArrive)
            .push(Stmt::ClusterWait)
            .glue(GlueOp::Setp(Cmp::Eq), GlueType::U32, "lead", vec![name("rk"), imm(0)]);
        let mapa = Form::Mapa(Mapa { shared_cluster: true, ty: AddrType::U32, var: true });
        case.isa(mapa.clone(), vec![name("rwin"), name("win"), imm(1)])
            .isa(mapa, vec![name("rbar"), name("bar"), imm(1)]);
        let mut operands = vec![at("rwin", dof), at("src", so), imm(size), at("rbar", 0)];
        operands.extend(policy_operand(&mut case, c.cache_hint));
        let copy = Instruction { guard: Some(guard("lead", false)), form: Form::CpAsyncBulk(*c), operands };
        case.push(Stmt::Isa(copy)).wait_phase0();
        out.push((format!("cluster 2, CTA 0 to CTA 1, size {size}, src +{so}, dst +{dof}"), case.finish()));
    }
    out
}

pub(super) fn bulk_cases(c: &CpAsyncBulk, target: &Target) -> Result<Vec<(String, MemSource)>, String> {
    if c.multicast {
        if c.cp_mask {
            return Err("not modelled by the case generator: .cp_mask".into());
        }
        return Ok(sample(multicast_bulk_cases(c, target), c.cache_hint));
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
            let pol_src = |case: &mut Case| policy_operand(case, c.cache_hint);
            let form = Form::CpAsyncBulk(*c);
            match (c.src, c.completion) {
                (BulkSpace::Global, Completion::Mbarrier) => {
                    case.global("src", pattern(len as usize, seed), true)
                        .shared("win", Init::Fill { len, byte: Some(0xA5) }, 128, true)
                        .mbarrier()
                        .expect_tx(size);
                    let mut operands = vec![at("win", dof), at("src", so), imm(size), at("bar", 0)];
                    operands.extend(pol_src(&mut case));
                    case.isa(form.clone(), operands).wait_phase0();
                }
                (_, Completion::Mbarrier) => {
                    case.shared("src", Init::Hex(hex(&pattern(len as usize, seed))), 128, true)
                        .shared("win", Init::Fill { len, byte: Some(0xA5) }, 128, true)
                        .mbarrier()
                        .expect_tx(size);
                    let mut operands = vec![at("win", dof), at("src", so), imm(size), at("bar", 0)];
                    operands.extend(pol_src(&mut case));
                    case.isa(form.clone(), operands).wait_phase0();
                }
                (_, Completion::BulkGroup) => {
                    case.shared("src", Init::Hex(hex(&pattern(len as usize, seed))), 128, true)
                        .global("dst", pattern(len as usize, seed + 7), true)
                        .isa(forms::proxy_fence(AsyncProxySpace::SharedCta), vec![]);
                    let mut operands = vec![at("dst", dof), at("src", so), imm(size)];
                    operands.extend(pol_src(&mut case));
                    case.isa(form.clone(), operands)
                        .isa(Form::CpAsyncBulkCommitGroup(oracle::isa::CpAsyncBulkCommitGroup), vec![]);
                    if seed.is_multiple_of(2) {
                        case.isa(forms::bulk_wait(false), vec![imm(0)]);
                    } else {
                        // Once the source is read it may be overwritten; the copy still
                        // writes the old bytes.
                        let st = stmt::st(Some(Space::Shared), None, MemType::U32);
                        case.isa(forms::bulk_wait(true), vec![imm(0)])
                            .reg("junk", 0x5A5A_5A5A)
                            .isa(st, vec![at("src", so), name("junk")])
                            .isa(forms::bulk_wait(false), vec![imm(0)]);
                    }
                }
            }
            out.push((label, case.finish()));
        }
    }
    if c.src == BulkSpace::SharedCta && c.dst == BulkSpace::SharedCluster {
        out.extend(remote_bulk_cases(c, target));
    }
    Ok(sample(out, c.cache_hint))
}

pub(super) fn prefetch_cases(c: &CpAsyncBulkPrefetch, target: &Target) -> Vec<(String, MemSource)> {
    let mut out = Vec::new();
    for (k, size) in [16u64, 48, 256, 4096, 8208].into_iter().enumerate() {
        let mut case = Case::new(target);
        let so = 16 * (k as u64 % 3);
        case.global("src", pattern((size + 64) as usize, 3000 + k as u64), true);
        let mut operands = vec![at("src", so), imm(size)];
        operands.extend(policy_operand(&mut case, c.cache_hint));
        case.isa(Form::CpAsyncBulkPrefetch(*c), operands);
        out.push((format!("size {size}, src +{so}: memory unchanged"), case.finish()));
    }
    sample(out, c.cache_hint)
}
