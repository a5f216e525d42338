//! The `cp.reduce.async.bulk` cases (§9.7.9.25.4.2): every pair of the type's edge values (±0,
//! subnormals, ±inf, NaNs, max finite, rounding ties, overflow; integer bounds and wrap pairs)
//! in cases of at most 256 bytes, and the element types tensor reductions are swept over
//! (§9.7.9.25.5.3).
//!
//! Invariant: the pairs a caller's `keep` rejects are left out (the sweep leaves out the f32
//! subnormal adds of [`super::F32_SUBNORMAL_ADDS`], which hold exactly those).

use oracle::isa::{AsyncProxySpace, Completion, CpReduceAsyncBulk, Form, RedOp, ReduceType, Target};
use oracle::memory::tensor_map::TensorDataType as D;
use oracle::memprog::{Init, MemSource};

use super::builder::{hex, Case};
use super::{policy_operand, sample};
use crate::memory::stmt::{at, forms, imm};

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
pub(super) fn reduce_bytes(ty: ReduceType) -> usize {
    match ty {
        ReduceType::F16 | ReduceType::Bf16 => 2,
        ReduceType::B32 | ReduceType::U32 | ReduceType::S32 | ReduceType::F32 => 4,
        _ => 8,
    }
}

/// Every pair of edge values `keep` accepts as (destination, source) element arrays, padded
/// with zeros to a multiple of 16 bytes.
pub(super) fn edge_pairs(ty: ReduceType, keep: &dyn Fn(u64, u64) -> bool) -> (Vec<u8>, Vec<u8>) {
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
pub(super) const REDUCE_CHUNK: usize = 256;

pub(super) fn reduce_cases(
    c: &CpReduceAsyncBulk,
    target: &Target,
    keep: &dyn Fn(u64, u64) -> bool,
) -> Vec<(String, MemSource)> {
    let (dst_all, src_all) = edge_pairs(c.ty, keep);
    let mut out = Vec::new();
    for (k, (d, s)) in dst_all.chunks(REDUCE_CHUNK).zip(src_all.chunks(REDUCE_CHUNK)).enumerate() {
        let size = d.len() as u64;
        let first = k * REDUCE_CHUNK;
        let mut case = Case::new(target);
        case.shared("src", Init::Hex(hex(s)), 128, true);
        match c.completion {
            Completion::BulkGroup => {
                case.global("dst", d.to_vec(), true).isa(forms::proxy_fence(AsyncProxySpace::SharedCta), vec![]);
                let mut operands = vec![at("dst", 0), at("src", 0), imm(size)];
                operands.extend(policy_operand(&mut case, c.cache_hint));
                case.isa(Form::CpReduceAsyncBulk(*c), operands).bulk_wait();
            }
            Completion::Mbarrier => {
                case.shared("dst", Init::Hex(hex(d)), 128, true).mbarrier().expect_tx(size);
                let mut operands = vec![at("dst", 0), at("src", 0), imm(size), at("bar", 0)];
                operands.extend(policy_operand(&mut case, c.cache_hint));
                case.isa(Form::CpReduceAsyncBulk(*c), operands).wait_phase0();
            }
        }
        out.push((format!("edge pairs, bytes {first}..{}", first as u64 + size), case.finish()));
    }
    sample(out, c.cache_hint)
}

/// `len` bytes of `dtype` elements cycling through the edge values of its reduction type,
/// starting at value `shift`.
pub(super) fn edge_elements(dtype: D, len: usize, shift: usize) -> Vec<u8> {
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
