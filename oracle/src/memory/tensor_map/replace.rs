//! `tensormap.replace` (§9.7.9.26) as the change of one field of a [`TensorMap`]
//! ([`TensorMap::replaced`]): the per-dimension fields by ordinal, the enumerated fields by their
//! row of Table 33 (`.elemtype` through `REPLACE_ELEMTYPES`, not the `CUtensorMapDataType`
//! codes).
//!
//! Invariant: the result is not validated (a map that breaks an encode rule is the caller's to
//! refuse); what is not modeled (`.swizzle_atomicity`, 96B swizzling, raising the rank) and an
//! ordinal or value outside its table are errors.

use super::{Interleave, OobFill, Swizzle, TensorDataType, TensorMap};
use crate::isa::TensormapField;

/// The `.elemtype` values of `tensormap.replace`, by `new_val` (§9.7.9.26 Table 33; they are
/// not the `CUtensorMapDataType` codes).
const REPLACE_ELEMTYPES: [TensorDataType; 16] = [
    TensorDataType::Uint8,
    TensorDataType::Uint16,
    TensorDataType::Uint32,
    TensorDataType::Int32,
    TensorDataType::Uint64,
    TensorDataType::Int64,
    TensorDataType::Float16,
    TensorDataType::Float32,
    TensorDataType::Float32Ftz,
    TensorDataType::Float64,
    TensorDataType::Bfloat16,
    TensorDataType::Tfloat32,
    TensorDataType::Tfloat32Ftz,
    TensorDataType::U4x16Align8B,
    TensorDataType::U4x16Align16B,
    TensorDataType::U6x16Align16B,
];

impl TensorMap {
    /// The map after `tensormap.replace` of `field` (§9.7.9.26): `ord` is the dimension of the
    /// per-dimension fields (`.global_stride` ordinal `i` is `globalStrides[i]`, the stride of
    /// dimension `i + 1`, as cuda.h numbers the array), `value` the new value (a model address
    /// for `.global_address`, rank − 1 for `.rank`, a Table 33 row for the enumerated fields).
    /// The result is not validated: a map that breaks an encode rule is the caller's to refuse.
    /// `.swizzle_atomicity` and `.rank` above the encoded rank (fields the encoder never set)
    /// are not modeled; an ordinal past the rank or a value outside its table is an error.
    pub fn replaced(&self, field: TensormapField, ord: Option<usize>, value: u64) -> Result<TensorMap, String> {
        use TensormapField as F;
        let mut m = self.clone();
        let rank = m.rank();
        let dim = |n: usize| match ord {
            Some(d) if d < n => Ok(d),
            _ => Err(format!("ordinal {ord:?} of `.{field}` is outside the map's {n} entries (rank {rank})")),
        };
        let narrow = |v: u64| u32::try_from(v).map_err(|_| format!("`.{field}` value {v} does not fit 32 bits"));
        let row = |n: usize| {
            usize::try_from(value)
                .ok()
                .filter(|&v| v < n)
                .ok_or_else(|| format!("`.{field}` value {value}: not a row of Table 33"))
        };
        match field {
            F::GlobalAddress => m.global_address = value,
            F::Rank => {
                let new = usize::try_from(value).unwrap_or(usize::MAX).saturating_add(1);
                if new > rank {
                    return Err(format!(
                        "raising the rank from {rank} to {new} (the encoder never set the new dimensions' fields)"
                    ));
                }
                m.dims.truncate(new);
                m.strides.truncate(new.saturating_sub(1));
                m.box_dims.truncate(new);
                m.element_strides.truncate(new);
            }
            F::BoxDim => {
                let d = dim(m.box_dims.len())?;
                m.box_dims[d] = narrow(value)?;
            }
            F::GlobalDim => {
                let d = dim(rank)?;
                m.dims[d] = u64::from(narrow(value)?);
            }
            F::GlobalStride => {
                let d = dim(m.strides.len())?;
                m.strides[d] = value;
            }
            F::ElementStride => {
                let d = dim(m.element_strides.len())?;
                m.element_strides[d] = narrow(value)?;
            }
            F::Elemtype => m.dtype = REPLACE_ELEMTYPES[row(REPLACE_ELEMTYPES.len())?],
            F::InterleaveLayout => m.interleave = [Interleave::None, Interleave::B16, Interleave::B32][row(3)?],
            F::SwizzleMode if value == 4 => {
                return Err("`.swizzle_mode` 4 (96B swizzling, sm_103a) is not modeled".into())
            }
            F::SwizzleMode => m.swizzle = [Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128][row(4)?],
            F::FillMode => m.oob_fill = [OobFill::None, OobFill::NanRequestZeroFma][row(2)?],
            F::SwizzleAtomicity => {
                return Err("`.swizzle_atomicity` (the 128B_ATOM swizzles of sm_100) is not modeled".into())
            }
        }
        Ok(m)
    }
}
