//! The `CU_TENSOR_MAP_*` enumerations of cuda.h, each declared once through `cu_enum!`
//! (variants in cuda.h order, so `code()` is the enumerator's value; the enumerator suffix as
//! the name), with what the model reads off them: the bytes of an element and the layout of the
//! packed types ([`TensorDataType::element_bytes`]), interleave units
//! ([`Interleave::unit_bytes`]), swizzle spans ([`Swizzle::span`]), and the type a tensor
//! reduction over an element type reduces with ([`TensorDataType::reduce_type`],
//! §9.7.9.25.5.3).
//!
//! Invariant: `ALL` lists every enumerator in cuda.h order and `from_name(name())` gives the
//! enumerator back (the test `enum_names_codes_and_cuda_spellings`).

/// Generates one cuda.h enumeration: variants in cuda.h order (so `code()` is the enumerator's
/// value), with the enumerator suffix as the name.
macro_rules! cu_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident = $s:literal,)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$vm])* $v,)* }

        impl $name {
            /// Every enumerator, in cuda.h order.
            pub const ALL: &'static [Self] = &[$(Self::$v,)*];

            /// The enumerator's suffix as cuda.h spells it.
            pub fn name(self) -> &'static str {
                match self { $(Self::$v => $s,)* }
            }

            /// The enumerator whose cuda.h suffix is `name`.
            pub fn from_name(name: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|v| v.name() == name)
            }

            /// The enumerator's value in cuda.h.
            pub fn code(self) -> u32 {
                self as u32
            }
        }
    };
}

cu_enum! {
    /// `CU_TENSOR_MAP_DATA_TYPE_*`.
    TensorDataType {
        /// 1 byte.
        Uint8 = "UINT8",
        /// 2 bytes.
        Uint16 = "UINT16",
        /// 4 bytes.
        Uint32 = "UINT32",
        /// 4 bytes.
        Int32 = "INT32",
        /// 8 bytes.
        Uint64 = "UINT64",
        /// 8 bytes.
        Int64 = "INT64",
        /// 2 bytes.
        Float16 = "FLOAT16",
        /// 4 bytes.
        Float32 = "FLOAT32",
        /// 8 bytes.
        Float64 = "FLOAT64",
        /// 2 bytes.
        Bfloat16 = "BFLOAT16",
        /// 4 bytes.
        Float32Ftz = "FLOAT32_FTZ",
        /// 4 bytes.
        Tfloat32 = "TFLOAT32",
        /// 4 bytes.
        Tfloat32Ftz = "TFLOAT32_FTZ",
        /// 16 packed 4-bit values in 8 bytes, no gaps.
        U4x16Align8B = "16U4_ALIGN8B",
        /// 16 packed 4-bit values (8 bytes) per 16 bytes of shared memory.
        U4x16Align16B = "16U4_ALIGN16B",
        /// 16 packed 6-bit values (12 bytes) per 16 bytes of shared memory.
        U6x16Align16B = "16U6_ALIGN16B",
    }
}

cu_enum! {
    /// `CU_TENSOR_MAP_INTERLEAVE_*`.
    Interleave {
        /// No interleave.
        None = "NONE",
        /// NC/8HWC8-style: channel slices of 16 bytes.
        B16 = "16B",
        /// NC/16HWC16-style: channel slices of 32 bytes.
        B32 = "32B",
    }
}

impl Interleave {
    /// Bytes of one interleave unit (a C-vector: 16 or 32 bytes), which dimension 0 of an
    /// interleaved map counts in (corpus/evidence/tma-interleave.md); `None` without interleave.
    pub fn unit_bytes(self) -> Option<u64> {
        match self {
            Interleave::None => None,
            Interleave::B16 => Some(16),
            Interleave::B32 => Some(32),
        }
    }
}

cu_enum! {
    /// `CU_TENSOR_MAP_SWIZZLE_*`.
    Swizzle {
        /// No swizzle.
        None = "NONE",
        /// 16-byte chunks within a 32-byte span.
        B32 = "32B",
        /// 16-byte chunks within a 64-byte span.
        B64 = "64B",
        /// 16-byte chunks within a 128-byte span.
        B128 = "128B",
        /// 32-byte chunks within a 128-byte span (compute capability 10.0+).
        B128Atom32B = "128B_ATOM_32B",
        /// As `128B_ATOM_32B`, the 8-byte halves of each 16 bytes swapped every other row
        /// (compute capability 10.0+).
        B128Atom32BFlip8B = "128B_ATOM_32B_FLIP_8B",
        /// 64-byte chunks within a 128-byte span (compute capability 10.0+).
        B128Atom64B = "128B_ATOM_64B",
    }
}

cu_enum! {
    /// `CU_TENSOR_MAP_L2_PROMOTION_*`: a performance hint, no effect on the bytes.
    L2Promotion {
        /// No promotion.
        None = "NONE",
        /// 64-byte L2 requests.
        B64 = "L2_64B",
        /// 128-byte L2 requests.
        B128 = "L2_128B",
        /// 256-byte L2 requests.
        B256 = "L2_256B",
    }
}

cu_enum! {
    /// `CU_TENSOR_MAP_FLOAT_OOB_FILL_*`: what a load writes for out-of-bounds elements.
    OobFill {
        /// Zero.
        None = "NONE",
        /// A NaN that requests a zero result from FMA (an H100 writes the bytes `f7 7f` repeated:
        /// [`NAN_FILL_PATTERN`](super::NAN_FILL_PATTERN)).
        NanRequestZeroFma = "NAN_REQUEST_ZERO_FMA",
    }
}

/// How one group of 16 packed values sits in memory.
pub(super) struct Packed {
    /// Bytes the 16 values take in shared memory (gaps included).
    smem_bytes: u64,
    /// `globalDim[0]` must be a multiple of this.
    pub(super) dim0_multiple: u64,
}

impl TensorDataType {
    /// Bytes of one element (unpacked types), `None` for the packed types.
    pub(super) fn unpacked_bytes(self) -> Option<u64> {
        use TensorDataType::*;
        match self {
            Uint8 => Some(1),
            Uint16 | Float16 | Bfloat16 => Some(2),
            Uint32 | Int32 | Float32 | Float32Ftz | Tfloat32 | Tfloat32Ftz => Some(4),
            Uint64 | Int64 | Float64 => Some(8),
            U4x16Align8B | U4x16Align16B | U6x16Align16B => None,
        }
    }

    /// Bytes an element takes in shared memory: its size, or for a packed type one group of
    /// 16 values' shared-memory bytes.
    pub fn element_bytes(self) -> u64 {
        self.unpacked_bytes().or_else(|| self.packed().map(|p| p.smem_bytes)).unwrap_or(0)
    }

    /// The layout of a packed type's groups of 16 values.
    pub(super) fn packed(self) -> Option<Packed> {
        match self {
            TensorDataType::U4x16Align8B => Some(Packed { smem_bytes: 8, dim0_multiple: 2 }),
            TensorDataType::U4x16Align16B => Some(Packed { smem_bytes: 16, dim0_multiple: 128 }),
            TensorDataType::U6x16Align16B => Some(Packed { smem_bytes: 16, dim0_multiple: 128 }),
            _ => None,
        }
    }

    /// Whether the type is one of the packed 4/6-bit types.
    pub fn is_packed(self) -> bool {
        self.packed().is_some()
    }

    /// Whether the type is a floating-point type (the types NAN_REQUEST_ZERO_FMA may fill).
    pub fn is_float(self) -> bool {
        use TensorDataType::*;
        matches!(self, Float16 | Float32 | Float64 | Bfloat16 | Float32Ftz | Tfloat32 | Tfloat32Ftz)
    }

    /// Whether the type needs `*_ALIGN16B` alignments (32-byte address and strides).
    pub(super) fn align16b(self) -> bool {
        matches!(self, TensorDataType::U4x16Align16B | TensorDataType::U6x16Align16B)
    }

    /// Bytes that `n` values along dimension 0 take in shared memory (packed types: `n/16`
    /// groups, rounded up to a whole byte).
    pub(super) fn smem_bytes_of(self, n: u64) -> u64 {
        match (self.unpacked_bytes(), self.packed()) {
            (Some(b), _) => n.saturating_mul(b),
            (None, Some(p)) => n.saturating_mul(p.smem_bytes).div_ceil(16),
            (None, None) => 0,
        }
    }
}

impl Swizzle {
    /// The span in bytes within which chunks move (`None` for no swizzle).
    pub fn span(self) -> Option<u64> {
        match self {
            Swizzle::None => None,
            Swizzle::B32 => Some(32),
            Swizzle::B64 => Some(64),
            Swizzle::B128 | Swizzle::B128Atom32B | Swizzle::B128Atom32BFlip8B | Swizzle::B128Atom64B => Some(128),
        }
    }

    /// Bytes after which the pattern repeats: 8 rows of the span (`None` for no swizzle).
    pub fn repeat(self) -> Option<u64> {
        self.span().map(|s| 8 * s)
    }

    /// Whether the swizzle exists on devices of compute capability 10.0+ only.
    pub(super) fn needs_sm100(self) -> bool {
        matches!(self, Swizzle::B128Atom32B | Swizzle::B128Atom32BFlip8B | Swizzle::B128Atom64B)
    }
}

impl TensorDataType {
    /// The `.type` a tensor reduction (`cp.reduce.async.bulk.tensor`, §9.7.9.25.5.3) over
    /// elements of this type reduces with under `redop`: the bitwise operations on the `.b`
    /// types, the others on the signed/unsigned/float type of the element; `None` for element
    /// types no reduction takes.
    pub fn reduce_type(self, redop: crate::isa::RedOp) -> Option<crate::isa::ReduceType> {
        use crate::isa::{RedOp, ReduceType};
        use TensorDataType as D;
        let bitwise = matches!(redop, RedOp::And | RedOp::Or | RedOp::Xor);
        Some(match self {
            D::Uint32 | D::Int32 if bitwise => ReduceType::B32,
            D::Uint64 | D::Int64 if bitwise => ReduceType::B64,
            D::Uint32 => ReduceType::U32,
            D::Int32 => ReduceType::S32,
            D::Uint64 => ReduceType::U64,
            D::Int64 => ReduceType::S64,
            D::Float16 => ReduceType::F16,
            D::Bfloat16 => ReduceType::Bf16,
            D::Float32 => ReduceType::F32,
            D::Float64 => ReduceType::F64,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enum_names_codes_and_cuda_spellings() {
        fn check<T: Copy + PartialEq + std::fmt::Debug>(
            all: &[T],
            name: fn(T) -> &'static str,
            from: fn(&str) -> Option<T>,
            code: fn(T) -> u32,
        ) {
            for (i, &v) in all.iter().enumerate() {
                assert_eq!(code(v), i as u32, "{v:?}: cuda.h order");
                assert_eq!(from(name(v)), Some(v));
            }
            assert_eq!(from("NOT_AN_ENUMERATOR"), None);
        }
        check(TensorDataType::ALL, TensorDataType::name, TensorDataType::from_name, TensorDataType::code);
        check(Interleave::ALL, Interleave::name, Interleave::from_name, Interleave::code);
        check(Swizzle::ALL, Swizzle::name, Swizzle::from_name, Swizzle::code);
        check(L2Promotion::ALL, L2Promotion::name, L2Promotion::from_name, L2Promotion::code);
        check(OobFill::ALL, OobFill::name, OobFill::from_name, OobFill::code);
        assert_eq!(TensorDataType::ALL.len(), 16);
        assert_eq!(TensorDataType::from_name("16U4_ALIGN8B"), Some(TensorDataType::U4x16Align8B));
        assert_eq!(TensorDataType::U6x16Align16B.code(), 15);
        assert_eq!(Swizzle::from_name("128B_ATOM_32B_FLIP_8B").map(Swizzle::code), Some(5));
        assert_eq!(L2Promotion::from_name("L2_256B").map(L2Promotion::code), Some(3));
        assert_eq!(OobFill::from_name("NAN_REQUEST_ZERO_FMA").map(OobFill::code), Some(1));
        assert_eq!(Interleave::from_name("32B").map(Interleave::code), Some(2));
    }
}
