//! Qualifier enums shared by several instruction families: register types, state spaces,
//! scopes, cache operators and hints (§9.7.9.1, §9.7.9.2), vector widths.

use crate::qualifiers;

qualifiers! {
    /// The type of a register operand as the harness declares it (`.reg .f32 %x`).
    pub enum RegType {
        Pred = "pred",
        B8 = "b8", B16 = "b16", B32 = "b32", B64 = "b64", B128 = "b128",
        U8 = "u8", U16 = "u16", U32 = "u32", U64 = "u64",
        S8 = "s8", S16 = "s16", S32 = "s32", S64 = "s64",
        F16 = "f16", F16x2 = "f16x2", Bf16 = "bf16", Bf16x2 = "bf16x2", F32 = "f32", F64 = "f64",
    }

    /// State spaces as they appear in opcodes (`.global`, `.shared::cta`, …). Each family
    /// accepts the subset its syntax block lists and rejects the rest in its `check`.
    pub enum Space {
        Const = "const", Global = "global", Local = "local",
        Param = "param", ParamEntry = "param::entry", ParamFunc = "param::func",
        Shared = "shared", SharedCta = "shared::cta", SharedCluster = "shared::cluster",
    }

    /// Memory-model scopes (`.scope`).
    pub enum Scope { Cta = "cta", Cluster = "cluster", Gpu = "gpu", Sys = "sys" }

    /// The memory-ordering `.sem` of fences (§9.7.13.4) and mbarrier operations (§9.7.13.15);
    /// each family admits the subset its syntax lists.
    pub enum OrderSem {
        Sc = "sc", AcqRel = "acq_rel", Acquire = "acquire", Release = "release", Relaxed = "relaxed",
    }

    /// Load cache operators (§9.7.9.1, Table 30).
    pub enum LdCacheOp { Ca = "ca", Cg = "cg", Cs = "cs", Lu = "lu", Cv = "cv" }

    /// Store cache operators (§9.7.9.1, Table 31).
    pub enum StCacheOp { Wb = "wb", Cg = "cg", Cs = "cs", Wt = "wt" }

    /// `.level1::eviction_priority` (§9.7.9.2).
    pub enum L1Evict {
        Normal = "L1::evict_normal", Unchanged = "L1::evict_unchanged", First = "L1::evict_first",
        Last = "L1::evict_last", NoAllocate = "L1::no_allocate",
    }

    /// `.level2::eviction_priority` of `ld`/`st` (§9.7.9.8).
    pub enum L2Evict { Normal = "L2::evict_normal", First = "L2::evict_first", Last = "L2::evict_last" }

    /// `.level::prefetch_size`.
    pub enum PrefetchSize { B64 = "L2::64B", B128 = "L2::128B", B256 = "L2::256B" }

    /// `.vec` of `ld`/`st` and friends.
    pub enum VecWidth { V2 = "v2", V4 = "v4", V8 = "v8" }

    /// The `.type` of `ld`, `ld.global.nc`, `ldu`, `st`.
    pub enum MemType {
        B8 = "b8", B16 = "b16", B32 = "b32", B64 = "b64", B128 = "b128",
        U8 = "u8", U16 = "u16", U32 = "u32", U64 = "u64",
        S8 = "s8", S16 = "s16", S32 = "s32", S64 = "s64",
        F32 = "f32", F64 = "f64",
    }

    /// Address sizes of `cvta`, `mapa`, `getctarank`, `isspacep` operands.
    pub enum AddrType { U32 = "u32", U64 = "u64" }
}

/// The spelling `.L2::cache_hint`.
pub const CACHE_HINT: &str = "L2::cache_hint";

impl RegType {
    /// Width in bits (1 for predicates).
    pub fn bits(self) -> u32 {
        use RegType::*;
        match self {
            Pred => 1,
            B8 | U8 | S8 => 8,
            B16 | U16 | S16 | F16 | Bf16 => 16,
            B32 | U32 | S32 | F32 | F16x2 | Bf16x2 => 32,
            B64 | U64 | S64 | F64 => 64,
            B128 => 128,
        }
    }
}

impl MemType {
    /// Width in bits.
    pub fn bits(self) -> u32 {
        self.reg().bits()
    }
    /// The register type that holds one element.
    pub fn reg(self) -> RegType {
        use MemType::*;
        match self {
            B8 => RegType::B8,
            B16 => RegType::B16,
            B32 => RegType::B32,
            B64 => RegType::B64,
            B128 => RegType::B128,
            U8 => RegType::U8,
            U16 => RegType::U16,
            U32 => RegType::U32,
            U64 => RegType::U64,
            S8 => RegType::S8,
            S16 => RegType::S16,
            S32 => RegType::S32,
            S64 => RegType::S64,
            F32 => RegType::F32,
            F64 => RegType::F64,
        }
    }
    /// `.b32`, `.s32`, `.u32`, `.f32`: the types `.v8` accepts.
    pub fn is_32bit(self) -> bool {
        self.bits() == 32
    }
    /// `.b64`, `.s64`, `.u64`, `.f64`: the types `.v4` accepts only for global addresses.
    pub fn is_64bit(self) -> bool {
        self.bits() == 64
    }
}

// A vector width is never empty: `is_empty` would be meaningless.
#[allow(clippy::len_without_is_empty)]
impl VecWidth {
    /// Number of elements.
    pub fn len(self) -> u8 {
        match self {
            VecWidth::V2 => 2,
            VecWidth::V4 => 4,
            VecWidth::V8 => 8,
        }
    }
}

impl AddrType {
    /// The register type of an address of this size.
    pub fn reg(self) -> RegType {
        match self {
            AddrType::U32 => RegType::U32,
            AddrType::U64 => RegType::U64,
        }
    }
}

impl Space {
    /// `.shared`, `.shared::cta`, `.shared::cluster`.
    pub fn is_shared(self) -> bool {
        matches!(self, Space::Shared | Space::SharedCta | Space::SharedCluster)
    }
    /// `.param`, `.param::entry`, `.param::func`.
    pub fn is_param(self) -> bool {
        matches!(self, Space::Param | Space::ParamEntry | Space::ParamFunc)
    }
}
