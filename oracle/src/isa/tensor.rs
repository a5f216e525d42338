//! Tensor copies through a tensor-map: `cp.async.bulk.tensor` (§9.7.9.25.5.2),
//! `cp.reduce.async.bulk.tensor` (§9.7.9.25.5.3), `cp.async.bulk.prefetch.tensor`
//! (§9.7.9.25.5.4), and `tensormap.replace` (§9.7.9.26).
//!
//! Tensor copies enumerate `.dim` × `.dst` × `.src` × `.load_mode` × completion mechanism and
//! the optional qualifiers; `check()` admits the directions of the syntax blocks, the load
//! modes each direction allows, and the dimension rules (`.tile::gather4`/`.tile::scatter4`
//! are 2-D only; the im2col modes need at least 3-D). The operand shapes follow from the
//! qualifiers: the coordinate vector has `.dim` elements (5 for gather4/scatter4), `im2colInfo`
//! is present exactly for the im2col modes of loads and prefetches (ptxas 13.5 requires it)
//! with `dim - 2` elements for `.im2col` and 2 for `.im2col::w*`, `ctaMask` goes with
//! `.multicast::cluster` and `cache-policy` with `.L2::cache_hint`.
//!
//! `tensormap.replace` forms carry, for the `.field3` fields, the value of the `new_val`
//! immediate (0..=15, the rows of Table 33): which values are valid, and on which targets, is
//! part of the form.

use super::async_bulk::{BulkSpace, Completion, RedOp, CACHE_POLICY, CTA_MASK, MBAR, MULTICAST};
use super::operand::{AddrKind, Imm, Operand, OperandKind, OperandSpec, TensormapSpace};
use super::qualifier::{opt, OpcodeWriter, Qualifier, TokenBag, FLAG};
use super::target::{ArchGate, PtxVersion, Requirement, GATE_SM100_110, GATE_SM100_110_120, GATE_TENSORMAP};
use super::types::{RegType, CACHE_HINT};
use super::{forbid, FormSpec, Illegal, ParseError};
use crate::qualifiers;

qualifiers! {
    /// `.dim` of the tensor copies.
    pub enum TensorDim { D1 = "1d", D2 = "2d", D3 = "3d", D4 = "4d", D5 = "5d" }

    /// `.load_mode` of the tensor copies.
    pub enum LoadMode {
        Tile = "tile", Gather4 = "tile::gather4", Scatter4 = "tile::scatter4",
        Im2col = "im2col", Im2colW = "im2col::w", Im2colW128 = "im2col::w::128",
        Im2colNoOffs = "im2col_no_offs",
    }

    /// `.cta_group` of `cp.async.bulk.tensor`.
    pub enum CtaGroup { One = "cta_group::1", Two = "cta_group::2" }
}

impl TensorDim {
    /// The `.dim` of `rank` dimensions (1–5), if there is one.
    pub fn of_rank(rank: usize) -> Option<TensorDim> {
        [TensorDim::D1, TensorDim::D2, TensorDim::D3, TensorDim::D4, TensorDim::D5].get(rank.checked_sub(1)?).copied()
    }

    /// The number of dimensions.
    pub fn rank(self) -> u8 {
        match self {
            TensorDim::D1 => 1,
            TensorDim::D2 => 2,
            TensorDim::D3 => 3,
            TensorDim::D4 => 4,
            TensorDim::D5 => 5,
        }
    }
}

impl LoadMode {
    /// `.tile::gather4`, `.tile::scatter4`: four rows of a 2-D tensor, 5 coordinates.
    pub fn is_four_rows(self) -> bool {
        matches!(self, LoadMode::Gather4 | LoadMode::Scatter4)
    }
    /// `.im2col`, `.im2col::w`, `.im2col::w::128`, `.im2col_no_offs`.
    pub fn is_im2col(self) -> bool {
        matches!(self, LoadMode::Im2col | LoadMode::Im2colW | LoadMode::Im2colW128 | LoadMode::Im2colNoOffs)
    }
    /// The length of the `im2colInfo` vector the mode takes (`None` for non-im2col modes and
    /// `.im2col_no_offs`).
    fn im2col_info_len(self, dim: TensorDim) -> Option<u8> {
        match self {
            // ill-formed below 3-D; one element keeps the probe line well-formed
            LoadMode::Im2col => Some(dim.rank().saturating_sub(2).max(1)),
            LoadMode::Im2colW | LoadMode::Im2colW128 => Some(2),
            _ => None,
        }
    }
}

/// The number of `.s32` coordinates of the tensor reference.
fn coord_count(dim: TensorDim, mode: Option<LoadMode>) -> u8 {
    if mode.is_some_and(LoadMode::is_four_rows) {
        5
    } else {
        dim.rank()
    }
}

/// The tensor reference operand `[tensorMap, tensorCoords]`.
fn tensor_ref(dim: TensorDim, mode: Option<LoadMode>) -> OperandSpec {
    OperandSpec::src("tensorMap, tensorCoords", OperandKind::TensorRef(coord_count(dim, mode)))
}

/// The `im2colInfo` operand, if the mode takes one.
fn im2col_info(dim: TensorDim, mode: Option<LoadMode>) -> Option<OperandSpec> {
    let n = mode?.im2col_info_len(dim)?;
    Some(OperandSpec::src("im2colInfo", OperandKind::Vector(RegType::U16, n)))
}

/// The dimension rules shared by all tensor copies (§9.7.9.25.5.2 Description).
fn check_dims(dim: TensorDim, mode: Option<LoadMode>, section: &str) -> Result<(), Illegal> {
    let Some(mode) = mode else { return Ok(()) };
    forbid(
        mode.is_four_rows() && dim != TensorDim::D2,
        &format!(
            "`.tile::gather4`/`.tile::scatter4` work on a 2-dimensional tensor: `.dim` must be `.2d` (§{section})"
        ),
    )?;
    forbid(
        mode.is_im2col() && dim.rank() < 3,
        &format!("in the im2col modes the tensor has to be at least 3-dimensional (§{section})"),
    )
}

/// One `cp.async.bulk.tensor` form (§9.7.9.25.5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CpAsyncBulkTensor {
    /// `.dim`.
    pub dim: TensorDim,
    /// `.dst`.
    pub dst: BulkSpace,
    /// `.src`.
    pub src: BulkSpace,
    /// `.load_mode` (defaults to `.tile` when absent).
    pub load_mode: Option<LoadMode>,
    /// `.completion_mechanism`.
    pub completion: Completion,
    /// `.multicast::cluster` (with the `ctaMask` operand).
    pub multicast: bool,
    /// `.cta_group::1` / `.cta_group::2`.
    pub cta_group: Option<CtaGroup>,
    /// `.L2::cache_hint` (with the `cache-policy` operand).
    pub cache_hint: bool,
}

impl CpAsyncBulkTensor {
    /// Whether the form copies into shared memory (the destination is not `.global`).
    fn is_load(&self) -> bool {
        self.dst != BulkSpace::Global
    }
}

impl FormSpec for CpAsyncBulkTensor {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for &dim in TensorDim::ALL {
            for &dst in BulkSpace::ALL {
                for &src in BulkSpace::ALL {
                    for load_mode in opt::<LoadMode>() {
                        for &completion in Completion::ALL {
                            for multicast in FLAG {
                                for cta_group in opt::<CtaGroup>() {
                                    for cache_hint in FLAG {
                                        out.push(CpAsyncBulkTensor {
                                            dim,
                                            dst,
                                            src,
                                            load_mode,
                                            completion,
                                            multicast,
                                            cta_group,
                                            cache_hint,
                                        });
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new()
            .lit("cp")
            .lit("async")
            .lit("bulk")
            .lit("tensor")
            .q(self.dim)
            .q(self.dst)
            .q(self.src)
            .opt(self.load_mode)
            .q(self.completion)
            .flag(self.multicast, MULTICAST)
            .opt(self.cta_group)
            .flag(self.cache_hint, CACHE_HINT)
            .finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        for t in ["async", "bulk", "tensor"] {
            bag.expect(t)?;
        }
        Ok(CpAsyncBulkTensor {
            dim: bag.require("dimension")?,
            dst: bag.require("destination state space")?,
            src: bag.require("source state space")?,
            load_mode: bag.take(),
            completion: bag.require("completion mechanism")?,
            multicast: bag.flag(MULTICAST),
            cta_group: bag.take(),
            cache_hint: bag.flag(CACHE_HINT),
        })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        let mut ops = Vec::new();
        if self.is_load() {
            ops.push(OperandSpec::dst("dstMem", OperandKind::Addr(self.dst.addr())));
            ops.push(tensor_ref(self.dim, self.load_mode));
            if self.completion == Completion::Mbarrier {
                ops.push(MBAR);
            }
            ops.extend(im2col_info(self.dim, self.load_mode));
            if self.multicast {
                ops.push(CTA_MASK);
            }
        } else {
            ops.push(tensor_ref(self.dim, self.load_mode));
            ops.push(OperandSpec::src("srcMem", OperandKind::Addr(self.src.addr())));
        }
        if self.cache_hint {
            ops.push(CACHE_POLICY);
        }
        ops
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        use BulkSpace::*;
        use LoadMode::*;
        let load = match (self.dst, self.src) {
            (SharedCta | SharedCluster, Global) => true,
            (Global, SharedCta) => false,
            _ => {
                return Illegal::err(format!("no direction .{} ← .{} in the §9.7.9.25.5.2 syntax", self.dst, self.src))
            }
        };
        let need = if load { Completion::Mbarrier } else { Completion::BulkGroup };
        forbid(
            self.completion != need,
            "loads complete through the mbarrier, stores through `.bulk_group` (§9.7.9.25.5.2)",
        )?;
        if let Some(mode) = self.load_mode {
            let allowed = if load {
                matches!(mode, Tile | Gather4 | Im2col | Im2colW | Im2colW128)
            } else {
                matches!(mode, Tile | Scatter4 | Im2colNoOffs)
            };
            forbid(
                !allowed,
                "loads take `.tile .tile::gather4 .im2col .im2col::w .im2col::w::128`, stores `.tile .tile::scatter4 .im2col_no_offs` (§9.7.9.25.5.2 syntax)",
            )?;
        }
        check_dims(self.dim, self.load_mode, "9.7.9.25.5.2")?;
        forbid(
            self.multicast && self.dst != SharedCluster,
            "`.multicast::cluster` only copies into `.shared::cluster` (§9.7.9.25.5.2 syntax)",
        )?;
        forbid(
            self.cta_group.is_some() && !load,
            "`.cta_group` can only be specified with the mbarrier completion mechanism (§9.7.9.25.5.2)",
        )?;

        // `.multicast::cluster` is only "advised" for sm_90a/sm_100f/…: ptxas 13.5 accepts it
        // on plain sm_90 and sm_120a with an advisory warning, so it adds no gate.
        let mut req = Requirement::new(90, 8, 0);
        if self.dst == SharedCta {
            req = req.ptx(8, 6);
        }
        match self.load_mode {
            Some(Gather4 | Im2colW) => {
                req = req.ptx(8, 6);
                req = if self.dst == SharedCta {
                    req.sm(100)
                } else {
                    // §9.7.9.25.5.2 names sm_100a/sm_100f only; ptxas 13.5 also accepts
                    // sm_110a, so the gate is the scatter4 one.
                    req.gate(GATE_SM100_110)
                };
            }
            Some(Scatter4 | Im2colW128) => req = req.ptx(8, 6).gate(GATE_SM100_110),
            _ => {}
        }
        if self.cta_group.is_some() {
            req = req.ptx(8, 6).gate(GATE_SM100_110);
        }
        Ok(req)
    }
}

/// One `cp.reduce.async.bulk.tensor` form (§9.7.9.25.5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CpReduceAsyncBulkTensor {
    /// `.dim`.
    pub dim: TensorDim,
    /// `.dst`.
    pub dst: BulkSpace,
    /// `.src`.
    pub src: BulkSpace,
    /// `.redOp`.
    pub redop: RedOp,
    /// `.load_mode` (defaults to `.tile` when absent).
    pub load_mode: Option<LoadMode>,
    /// `.completion_mechanism`.
    pub completion: Completion,
    /// `.L2::cache_hint` (with the `cache-policy` operand).
    pub cache_hint: bool,
}

impl FormSpec for CpReduceAsyncBulkTensor {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for &dim in TensorDim::ALL {
            for &dst in BulkSpace::ALL {
                for &src in BulkSpace::ALL {
                    for &redop in RedOp::ALL {
                        for load_mode in opt::<LoadMode>() {
                            for &completion in Completion::ALL {
                                for cache_hint in FLAG {
                                    out.push(CpReduceAsyncBulkTensor {
                                        dim,
                                        dst,
                                        src,
                                        redop,
                                        load_mode,
                                        completion,
                                        cache_hint,
                                    });
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new()
            .lit("cp")
            .lit("reduce")
            .lit("async")
            .lit("bulk")
            .lit("tensor")
            .q(self.dim)
            .q(self.dst)
            .q(self.src)
            .q(self.redop)
            .opt(self.load_mode)
            .q(self.completion)
            .flag(self.cache_hint, CACHE_HINT)
            .finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        for t in ["reduce", "async", "bulk", "tensor"] {
            bag.expect(t)?;
        }
        Ok(CpReduceAsyncBulkTensor {
            dim: bag.require("dimension")?,
            dst: bag.require("destination state space")?,
            src: bag.require("source state space")?,
            redop: bag.require("reduction operation")?,
            load_mode: bag.take(),
            completion: bag.require("completion mechanism")?,
            cache_hint: bag.flag(CACHE_HINT),
        })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        let mut ops =
            vec![tensor_ref(self.dim, self.load_mode), OperandSpec::src("srcMem", OperandKind::Addr(self.src.addr()))];
        if self.completion == Completion::Mbarrier {
            ops.push(MBAR);
        }
        if self.cache_hint {
            ops.push(CACHE_POLICY);
        }
        ops
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        forbid(
            (self.dst, self.src) != (BulkSpace::Global, BulkSpace::SharedCta),
            "the only direction is `.global` ← `.shared::cta` (§9.7.9.25.5.3 syntax)",
        )?;
        forbid(
            self.completion != Completion::BulkGroup,
            "the completion mechanism is `.bulk_group` (§9.7.9.25.5.3 syntax)",
        )?;
        // The spec's example uses `.im2col`, but the syntax block lists only `.tile` and
        // `.im2col_no_offs`, and ptxas 13.5 rejects `.im2col` ("Illegal modifier").
        // ptxas 13.5 also accepts `.tile::scatter4` (2-D, 5 coordinates, where `.tile::scatter4`
        // of `cp.async.bulk.tensor` is accepted), although §9.7.9.25.5.3 does not list it.
        forbid(
            self.load_mode.is_some_and(|m| !matches!(m, LoadMode::Tile | LoadMode::Im2colNoOffs | LoadMode::Scatter4)),
            "`.load_mode` is `.tile` or `.im2col_no_offs` (§9.7.9.25.5.3 syntax; ptxas 13.5 adds `.tile::scatter4`)",
        )?;
        check_dims(self.dim, self.load_mode, "9.7.9.25.5.3")?;
        let req = Requirement::new(90, 8, 0);
        Ok(if self.load_mode == Some(LoadMode::Scatter4) { req.ptx(8, 6).gate(GATE_SM100_110) } else { req })
    }
}

/// One `cp.async.bulk.prefetch.tensor` form (§9.7.9.25.5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CpAsyncBulkPrefetchTensor {
    /// `.dim`.
    pub dim: TensorDim,
    /// `.load_mode` (defaults to `.tile` when absent).
    pub load_mode: Option<LoadMode>,
    /// `.L2::cache_hint` (with the `cache-policy` operand).
    pub cache_hint: bool,
}

impl FormSpec for CpAsyncBulkPrefetchTensor {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for &dim in TensorDim::ALL {
            for load_mode in opt::<LoadMode>() {
                for cache_hint in FLAG {
                    out.push(CpAsyncBulkPrefetchTensor { dim, load_mode, cache_hint });
                }
            }
        }
        out
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new()
            .lit("cp")
            .lit("async")
            .lit("bulk")
            .lit("prefetch")
            .lit("tensor")
            .q(self.dim)
            .lit("L2")
            .lit("global")
            .opt(self.load_mode)
            .flag(self.cache_hint, CACHE_HINT)
            .finish()
    }

    fn parse(bag: &mut TokenBag<'_>, _operands: &[Operand]) -> Result<Self, ParseError> {
        for t in ["async", "bulk", "prefetch", "tensor", "L2", "global"] {
            bag.expect(t)?;
        }
        Ok(CpAsyncBulkPrefetchTensor {
            dim: bag.require("dimension")?,
            load_mode: bag.take(),
            cache_hint: bag.flag(CACHE_HINT),
        })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        let mut ops = vec![tensor_ref(self.dim, self.load_mode)];
        ops.extend(im2col_info(self.dim, self.load_mode));
        if self.cache_hint {
            ops.push(CACHE_POLICY);
        }
        ops
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        use LoadMode::*;
        forbid(
            matches!(self.load_mode, Some(Scatter4 | Im2colNoOffs)),
            "`.load_mode` is one of `.tile .tile::gather4 .im2col .im2col::w .im2col::w::128` (§9.7.9.25.5.4 syntax)",
        )?;
        check_dims(self.dim, self.load_mode, "9.7.9.25.5.4")?;
        let req = Requirement::new(90, 8, 0);
        Ok(match self.load_mode {
            Some(Gather4 | Im2colW | Im2colW128) => req.ptx(8, 6).gate(GATE_SM100_110),
            _ => req,
        })
    }
}

qualifiers! {
    /// The fields of a tensor-map that `tensormap.replace` can replace (`.field1`, `.field2`,
    /// `.field3`).
    pub enum TensormapField {
        GlobalAddress = "global_address", Rank = "rank",
        BoxDim = "box_dim", GlobalDim = "global_dim", GlobalStride = "global_stride",
        ElementStride = "element_stride",
        Elemtype = "elemtype", InterleaveLayout = "interleave_layout",
        SwizzleMode = "swizzle_mode", SwizzleAtomicity = "swizzle_atomicity",
        FillMode = "fill_mode",
    }

    /// `.ss` of `tensormap.replace`.
    pub enum TensormapSs { Global = "global", SharedCta = "shared::cta" }

    /// `.type` of `tensormap.replace`.
    pub enum TensormapType { B32 = "b32", B64 = "b64" }
}

/// Which syntax line of §9.7.9.26 a field belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FieldKind {
    /// `.global_address`, `.rank`: `[addr], new_val`.
    Field1,
    /// `.box_dim` …: `[addr], ord, new_val`.
    Field2,
    /// `.elemtype` …: `[addr], new_val` with an immediate `new_val` from Table 33.
    Field3,
}

impl TensormapField {
    fn kind(self) -> FieldKind {
        use TensormapField::*;
        match self {
            GlobalAddress | Rank => FieldKind::Field1,
            BoxDim | GlobalDim | GlobalStride | ElementStride => FieldKind::Field2,
            Elemtype | InterleaveLayout | SwizzleMode | SwizzleAtomicity | FillMode => FieldKind::Field3,
        }
    }

    /// Whether the field is per dimension (`.field2`: the `ord` operand names the dimension).
    pub fn has_ord(self) -> bool {
        self.kind() == FieldKind::Field2
    }

    /// The largest valid `new_val` of a `.field3` field (Table 33).
    fn max_new_val(self) -> Option<u8> {
        use TensormapField::*;
        match self {
            Elemtype => Some(15),
            InterleaveLayout => Some(2),
            SwizzleMode => Some(4),
            SwizzleAtomicity => Some(3),
            FillMode => Some(1),
            _ => None,
        }
    }
}

/// The largest `new_val` a Table 33 row number can have.
const MAX_TABLE_ROW: u8 = 15;

/// `.swizzle_mode` value 4 (96B swizzling): `sm_103a` only (§9.7.9.26 Target ISA Notes).
pub const GATE_SM103A: ArchGate = ArchGate { specific: &[103], families: &[], family_ptx: PtxVersion::new(8, 8) };

/// One `tensormap.replace` form (§9.7.9.26).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TensormapReplace {
    /// The field replaced.
    pub field: TensormapField,
    /// `.ss`; generic addressing when absent.
    pub ss: Option<TensormapSs>,
    /// `.type` of `new_val`.
    pub ty: TensormapType,
    /// For `.field3` fields, the value of the immediate `new_val` (a row of Table 33);
    /// `None` for the other fields, whose `new_val` is a register.
    pub new_val: Option<u8>,
}

impl FormSpec for TensormapReplace {
    fn candidates() -> Vec<Self> {
        let mut out = Vec::new();
        for &field in TensormapField::ALL {
            let values: Vec<Option<u8>> = match field.kind() {
                FieldKind::Field3 => (0..=MAX_TABLE_ROW).map(Some).collect(),
                _ => vec![None],
            };
            for ss in opt::<TensormapSs>() {
                for &ty in TensormapType::ALL {
                    for &new_val in &values {
                        out.push(TensormapReplace { field, ss, ty, new_val });
                    }
                }
            }
        }
        out
    }

    fn opcode(&self) -> String {
        OpcodeWriter::new()
            .lit("tensormap")
            .lit("replace")
            .lit("tile")
            .q(self.field)
            .opt(self.ss)
            .lit("b1024")
            .q(self.ty)
            .finish()
    }

    fn parse(bag: &mut TokenBag<'_>, operands: &[Operand]) -> Result<Self, ParseError> {
        for t in ["replace", "tile", "b1024"] {
            bag.expect(t)?;
        }
        let field: TensormapField = bag.require("field")?;
        let ss = bag.take();
        let ty = bag.require("type")?;
        let new_val = if field.kind() == FieldKind::Field3 {
            match operands.last() {
                Some(Operand::Imm(Imm::Int(v))) if (0..=i128::from(MAX_TABLE_ROW)).contains(v) => u8::try_from(*v).ok(),
                _ => {
                    return Err(ParseError::new(
                        bag.opcode(),
                        format!(
                        "`new_val` of `.{field}` must be an immediate from 0 to {MAX_TABLE_ROW} (§9.7.9.26 Table 33)"
                    ),
                    ))
                }
            }
        } else {
            None
        };
        Ok(TensormapReplace { field, ss, ty, new_val })
    }

    fn operands(&self) -> Vec<OperandSpec> {
        let space = match self.ss {
            None => TensormapSpace::Generic,
            Some(TensormapSs::Global) => TensormapSpace::Global,
            Some(TensormapSs::SharedCta) => TensormapSpace::SharedCta,
        };
        let mut ops = vec![OperandSpec::dst("addr", OperandKind::Addr(AddrKind::TensormapSpace(space)))];
        if self.field.kind() == FieldKind::Field2 {
            ops.push(OperandSpec::src("ord", OperandKind::Imm(0)));
        }
        let new_val = match self.new_val {
            Some(v) => OperandKind::Imm(i64::from(v)),
            None => OperandKind::RegOrImm(match self.ty {
                TensormapType::B32 => RegType::B32,
                TensormapType::B64 => RegType::B64,
            }),
        };
        ops.push(OperandSpec::src("new_val", new_val));
        ops
    }

    fn check(&self) -> Result<Requirement, Illegal> {
        use TensormapField::*;
        let wide = matches!(self.field, GlobalAddress | GlobalStride);
        forbid(
            wide != (self.ty == TensormapType::B64),
            "`.type` is `.b64` for `.global_address`/`.global_stride` and `.b32` otherwise (§9.7.9.26)",
        )?;
        let mut req = Requirement::new(90, 8, 3).gate(GATE_TENSORMAP);
        if self.field == SwizzleAtomicity {
            req = req.ptx(8, 6).gate(GATE_SM100_110_120);
        }
        match (self.field.max_new_val(), self.new_val) {
            (None, None) => {}
            (Some(max), Some(v)) => {
                forbid(
                    v > max,
                    &format!("`new_val` {v} is an `x` entry of Table 33 for `.{}` (§9.7.9.26)", self.field),
                )?;
                if self.field == Elemtype && v >= 13 {
                    req = req.ptx(8, 7).gate(GATE_SM100_110_120);
                }
                if self.field == SwizzleMode && v == 4 {
                    req = req.ptx(8, 8).gate(GATE_SM103A);
                }
            }
            _ => {
                return Illegal::err("only the `.field3` fields take an immediate `new_val` from Table 33 (§9.7.9.26)")
            }
        }
        Ok(req)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::test_util::{assert_illegal, assert_legal, inst};
    use crate::isa::{Instruction, Target};

    #[test]
    fn a_dim_is_named_by_its_rank() {
        for rank in 1..=5 {
            assert_eq!(TensorDim::of_rank(rank).map(|d| usize::from(d.rank())), Some(rank));
        }
        assert_eq!(TensorDim::of_rank(0), None);
        assert_eq!(TensorDim::of_rank(6), None);
    }

    #[test]
    fn spec_examples_are_legal() {
        assert_legal(&[
            "cp.async.bulk.tensor.1d.shared::cta.global.mbarrier::complete_tx::bytes.tile [sMem0], [tensorMap0, {tc0}], [mbar0];",
            "cp.async.bulk.tensor.5d.shared::cta.global.im2col.mbarrier::complete_tx::bytes [sMem2], [tensorMap2, {tc0, tc1, tc2, tc3, tc4}], [mbar2], {i2cOffW, i2cOffH, i2cOffD};",
            "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [sMem1], [tensorMap1, {tc0, tc1}], [mbar2], ctaMask;",
            "cp.async.bulk.tensor.3d.im2col.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [sMem3], [tensorMap3, {tc0, tc1, tc2}], [mbar3], {i2cOffW}, policy;",
            "cp.async.bulk.tensor.1d.global.shared::cta.bulk_group [tensorMap3, {tc0}], [sMem3];",
            "cp.async.bulk.tensor.2d.tile::gather4.shared::cluster.global.mbarrier::complete_tx::bytes [sMem5], [tensorMap6, {x0, y0, y1, y2, y3}], [mbar5];",
            "cp.async.bulk.tensor.3d.im2col::w.shared::cluster.global.mbarrier::complete_tx::bytes [sMem4], [tensorMap5, {t0, t1, t2}], [mbar4], {im2colwHalo, im2colOff};",
            "cp.async.bulk.tensor.1d.shared::cluster.global.tile.cta_group::2.mbarrier::complete_tx::bytes [sMem6], [tensorMap7, {tc0}], [peerMbar];",
            "cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [tensorMap0, {tc0}], [sMem0];",
            "cp.reduce.async.bulk.tensor.2d.global.shared::cta.and.bulk_group.L2::cache_hint [tensorMap1, {tc0, tc1}], [sMem1], policy;",
            "cp.async.bulk.prefetch.tensor.1d.L2.global.tile [tensorMap0, {tc0}];",
            "cp.async.bulk.prefetch.tensor.2d.L2.global [tensorMap1, {tc0, tc1}];",
            "cp.async.bulk.prefetch.tensor.5d.L2.global.im2col [tensorMap2, {tc0, tc1, tc2, tc3, tc4}], {i2cOffW, i2cOffH, i2cOffD};",
            "cp.async.bulk.prefetch.tensor.3d.L2.global.im2col.L2::cache_hint [tensorMap3, {tc0, tc1, tc2}], {i2cOffW}, policy;",
            "cp.async.bulk.prefetch.tensor.2d.L2.global.tile::gather4 [tensorMap5, {col_idx, row_idx0, row_idx1, row_idx2, row_idx3}];",
            "cp.async.bulk.prefetch.tensor.4d.L2.global.im2col::w::128 [tensorMap4, {t0, t1, t2, t3}], {im2colwHalo, im2colOff};",
            "tensormap.replace.tile.global_address.shared::cta.b1024.b64 [sMem], new_val;",
            "tensormap.replace.tile.box_dim.global.b1024.b32 [gMem], 1, %r1;",
            "tensormap.replace.tile.elemtype.b1024.b32 [gMem], 15;",
        ]);
    }

    #[test]
    fn rules_reject_what_the_spec_and_ptxas_forbid() {
        assert_illegal(&[
            // im2col needs at least 3 dimensions
            "cp.async.bulk.tensor.2d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [s], [t, {a, b}], [mbar], {i};",
            // gather4 is 2-D only
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes [s], [t, {a, b, c, d, e}], [mbar];",
            // scatter4 is a store mode
            "cp.async.bulk.tensor.2d.shared::cta.global.tile::scatter4.mbarrier::complete_tx::bytes [s], [t, {a, b, c, d, e}], [mbar];",
            // cta_group only with the mbarrier
            "cp.async.bulk.tensor.1d.global.shared::cta.bulk_group.cta_group::1 [t, {a}], [s];",
            // reduce with .im2col (the spec example): ptxas rejects it
            "cp.reduce.async.bulk.tensor.3d.global.shared::cta.xor.im2col.bulk_group [t, {a, b, c}], [s];",
            "tensormap.replace.tile.interleave_layout.b1024.b32 [g], 3;",
            "tensormap.replace.tile.elemtype.b1024.b64 [g], 3;",
        ]);
        assert!("tensormap.replace.tile.elemtype.b1024.b32 [g], 16;".parse::<Instruction>().is_err());
    }

    #[test]
    fn gates_follow_the_notes_and_ptxas() {
        let t = |s: &str| s.parse::<Target>().unwrap();
        let valid = |s: &str, target: &str| inst(s).form.is_valid(&t(target));
        let g4_cta = "cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes [s], [t, {a, b, c, d, e}], [mbar];";
        let g4_cluster = "cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes [s], [t, {a, b, c, d, e}], [mbar];";
        assert!(valid(g4_cta, "sm_120a") && !valid(g4_cta, "sm_90a"));
        assert!(valid(g4_cluster, "sm_100a") && !valid(g4_cluster, "sm_120a"));
        let swz96 = "tensormap.replace.tile.swizzle_mode.b1024.b32 [g], 4;";
        assert!(valid(swz96, "sm_103a") && !valid(swz96, "sm_100a"));
        assert_eq!(TensormapReplace::candidates().len(), 6 * 3 * 2 + 5 * 16 * 3 * 2);
    }
}
