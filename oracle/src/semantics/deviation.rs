//! Known deviations from the spec, each an *emulation* the oracle can switch on: a hardware
//! deviation (behaviour a GPU shows where the PTX ISA text says otherwise) or a compiler root
//! cause of `corpus/known/` (what ptxas makes of some instructions, stated as semantics). Each
//! is an open finding with its evidence in `corpus/findings/`, not an allowance: the oracle
//! keeps the spec's reading, and nothing switches a deviation on for a verdict. Triage asks the
//! oracle to *emulate* some ([`crate::semantics::Allowances::emulating`]) to tell whether a
//! difference is wholly explained by them: a difference is known only where the emulating
//! oracle admits every differing word (or byte); then it is that known finding, not a new one.
//! A `corpus/known/` entry names its emulation (`emulation = "NAME"`, [`Deviation::name`]).
//!
//! Invariants:
//! - Emulating a deviation changes only the operations its finding describes
//!   ([`Deviation::concerns`] for the memory-program one; for the register-program ones, the
//!   instructions that `program::emulate` names for each, reading where the register a
//!   consumer reads was written, moves looked through).
//! - An emulation is exact (the value the GPU gives) unless [`Deviation::set_valued`]: then the
//!   affected result is any value, or one of the values it names (the evidence shows no single
//!   value: it depends on the assembly, or on a register nothing wrote).
//! - The memory-program interpreter knows only [`Scope::Memory`] deviations, the register-program
//!   interpreter only [`Scope::Program`] ones.

/// Which interpreter a deviation changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Memory programs (`fuzz --async`, conform's async rows): `memprog::interp`.
    Memory,
    /// Register programs (`fuzz`): `program::interp`.
    Program,
}

/// A known deviation from the spec that the oracle can emulate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Deviation {
    /// `cp.reduce.async.bulk{.tensor}` `.add.f32` keeps subnormal inputs and results (IEEE
    /// addition), where §9.7.9.25.4.2 says the implementation flushes them to sign-preserving
    /// zero (H100, driver 580.159.04: `corpus/findings/reduce-add-f32-subnormals.md`).
    ReduceAddF32KeepsSubnormals,
    /// Root cause A: an 8-bit `st` (`.b8/.u8/.s8`, any space) of a register written by a `cvt`
    /// to a float type (`.f16 .bf16 .f32 .tf32 .f16x2 .bf16x2`, or a half of its result) stores
    /// a float-to-integer conversion (`F2I.U8.F16.TRUNC` at -O0, a rounding one at -O3) instead
    /// of the register's low byte (§9.7.9.10 Notes); a vector store with such an element
    /// converts every element. Set-valued: the conversion differs by level and version, so each
    /// byte is any value.
    NarrowStoreOfFloatCvt,
    /// Root cause B: a 64-bit `shl`/`shr` whose `.u32` amount register holds an f32-typed value
    /// (`ld.f32`, a `cvt` to `.f32`, `mov.f32`) shifts by the low word of `cvt.rzi.u64.f32` of
    /// it (ptxas emits `F2I.U64.TRUNC`: the bit pattern 1 shifts by 0, 1.44e17 by its low word
    /// 0; saturating, a NaN gives 2^63, §9.7.9.21), where §9.7.8.7 shifts by the amount's bits.
    /// Scope (ptxas 13.0.88 and 13.5, -O0 and -O3; corpus/findings/fuzz-h200-3601/ and
    /// fuzz-h200-3602/): the last copy's type counts (a `mov.u32`/`mov.b32`/`mov.s32` copy is
    /// raw, 4b388efe); a skipped `cvt` to `.f32` or `mov.f32` makes the old value f32-typed
    /// whatever wrote it, a `shfl.sync` included (9ab5ce60, 24bc5888), as does a skipped
    /// `set.<cmp>.f32` whose old value N-11 converts (fuzz-h200-3701, a862ac7a); no conversion across a
    /// label, `bra`, `bar.sync`, `shfl.sync`, guarded global/shared memory access or 64-bit
    /// bit-field instruction (`brev`/`bfe`/`bfi`/`bfind` at 64 bits, a5368bf9) between where the
    /// amount became f32-typed and the shift, nor of an amount a guarded load wrote (73350c55).
    F32ShiftAmount,
    /// Root cause D: `cvt.r*.tf32.f32` of a packed half value (a `cvt` to `.f16x2/.bf16x2`, a
    /// `mov` packing two halves, packed 16x2 glue): -O3 merges the halves with a `PRMT 0x7610`
    /// that takes the other half from a register nothing wrote. Set-valued: any result. A
    /// `mov.f32` copy or a `cvt.f32.f32` with no modifier between them is dropped (fuzz-h200-3601/
    /// d603bf3c; fuzz-h200-3701/ 5a4b88eb, eb5664f7).
    Tf32OfPackedHalf,
    /// Root cause E: `cvt.rzi.<int>.{f16,bf16}` of a register written by a `cvt` between `.f16`
    /// and `.bf16` without a directed rounding (`.rn`, `.rz`, `.rni`, `.rzi` or none;
    /// `.rp`/`.rm`/`.rpi`/`.rmi` are I): the two
    /// are folded into one conversion of the first `cvt`'s source bits, read as the integer
    /// `cvt`'s source type (a `.bf16` result read as `.f16`, and the reverse) and rounded as the
    /// first `cvt` rounds (to nearest without a modifier): bf16 0x7bff through `cvt.f16.bf16`
    /// converts as f16 65504, not as +inf. A `cvt.u16.s16` copy between the two is looked
    /// through (corpus/findings/fuzz-h200-3701/, c78de146: one `F2I.S64.F16`).
    Bf16ReadAsF16,
    /// Root cause F: -O3 assumes `abs`/`neg` (`.s16/.s32/.s64`) cannot overflow. Of a result that
    /// is the minimum (-2^(n-1), which `abs` and `neg` give back, §9.7.1.13/14): an unsigned
    /// int-to-float `cvt` converts it as signed (`I2F.S16`, exact); a signed `setp` or `shr`
    /// reading it is folded (set-valued: any result); a narrowing integer `cvt.sat` from
    /// `.s16`/`.s32` of an `abs` result saturates it as unsigned (`IABS; VIMNMX.U32 …, 0xff`:
    /// −2^31 gives 0xff, not 0; corpus/findings/fuzz-h200-3301/, third run, 5702bd91; ptxas
    /// 13.0.88 and 13.5 -O3, exact); `cvt.sat.{u32,u64}.s32` of `abs.s32` of −2^31 gives
    /// 0x80000000, not 0 (fuzz-h200-3701/, 1d8039b3); `mul.hi`/`mad.hi`/`mul.wide.s16` of an
    /// `abs.s16`/`neg.s16` result −2^15 multiply +2^15 at 32 bits (fuzz-h200-3701/, 434a41d1;
    /// 13.0.88 -O3), as does `mad.wide.s16`, adding `c` (fuzz-h200-3903/, 14a3a4b4); `sub.s16
    /// d, z, x` of a moved 0 z is such a negation (fuzz-h200-3902/, bcabb8af; session 40).
    /// `slct.<dtype>.s32` (dtype not `.s32`) of `abs.s32` of −2^31 selects `a` (fuzz-h200-4402/, 2bec5b10; 13.0.88 -O3; exact,
    /// `program/emulate/slct_of_abs_folded_non_negative.rs`).
    NegationOverflow,
    /// Root cause G: `cvt.*.{f16,bf16}` (a half source) of `shr.s16 d, a, 16` whose `a` has
    /// bit 15 clear converts `a` itself, where §9.7.8.7 gives `d` = 0 (a's sign). -O3 lowers
    /// the shift as `PRMT 0x9910` (sign extension) and the consumer reading the upper half
    /// (`.H1_H1`); when `a` is known non-negative (a zero-extended byte) the extension is
    /// dropped and the consumer reads the lower half, `a` (ptxas 13.0.88 and 13.5, -O3 and the
    /// JIT; corpus/findings/fuzz-h200-3301/, 8518bbff). Two values admitted: `a`'s conversion
    /// and the spec's (what ptxas knows of bit 15 decides; a loaded `.u16` is right).
    ShrS16By16ReadsSource,
    /// Root cause I: the fold of E where the first `cvt` rounds `.rp` or `.rpi` (`.rm`,
    /// `.rmi`): the integer conversion rounds toward +inf (-inf), so a tiny positive value
    /// converts to 1 (a tiny negative one to -1) instead of 0. The integer roundings from
    /// corpus/findings/fuzz-h200-3301/ (third run, 0048b69b: `cvt.rpi.f16.f16; cvt.rzi.s32.bf16`
    /// is `F2I.BF16.CEIL.NTZ` of the first source, ptxas 13.0.88 and 13.5 -O3; `.rzi` and
    /// `.rni` first cvts fold the same way, as E).
    DirectedRoundingFoldedIntoInt,
    /// Root cause L: `cvt.s64.u32` sign-extends (§9.7.9.21: an integer conversion extends by its
    /// source type, so zero-extends here) where `shl.b64 d, x, k` by an immediate 1 ≤ k < 32
    /// reads its result (`SHF.R.S32.HI R7, RZ, 32−k, R2` for the high word; ptxas 13.0.88 and
    /// 13.5 -O3, corpus/findings/fuzz-h200-3602/, 11a4e5a9): stored, moved, `or`/`xor`/`and`,
    /// `add`, `shr`, `mul.lo`, a register amount or k ≥ 32 zero-extend, as does a constant source.
    CvtS64U32SignExtends,
    /// Root cause M: `and.b16` with an immediate mask of a register written by
    /// `cvt.rz.f16.f32` is unmasked where it is the low half of a packed 32-bit value: the
    /// first element of a `.v2` 16-bit store or of `mov.b32 {a, b}` (ptxas 13.0.88 -O3 packs
    /// with `PRMT R0, R0, 0x5410, RZ; PRMT R3, R0, 0x5410, R6`, no `LOP3`). The mask stays
    /// where the result is stored alone, is the high half, or is read by `setp` (`LOP3.LUT R0,
    /// R0, 0x2, RZ, 0xc0`; corpus/findings/fuzz-h200-3501/, 26d7842c). Also `and.b16` of a
    /// `cvt.rn{.relu}.satfinite.f16.f32` result with a register mask, through `min.u16 x, x`,
    /// and the low half of either word of a `mov.b64` pack (corpus/findings/fuzz-h200-3701/,
    /// b714f9f1: `F2FP.SATFINITE…MERGE_C` with no `LOP3 0xc0`, 13.0.88 -O3). An immediate mask
    /// of `cvt.rn.f16.f32` or `cvt.rn.satfinite.{e4m3x2,e5m2x2}.{f16x2,f32}` too, kept through
    /// `sub.s16 x, (shl.b16 y, k ≥ 16)` (corpus/findings/fuzz-h200-3702/, c77930ea, trace/T3B.md),
    /// and of their `.relu` forms (corpus/findings/fuzz-h200-4103/, 4ad93098, trace/T10z2.md).
    F16MaskDropped,
    /// Root cause N: `cvt.u8.s8` of a register written by a `cvt` to `.f16` from `.f32` gives the
    /// register's 16 bits unchanged (the conversion is dropped).
    CvtU8S8OfF16Dropped,
    /// N-7 (ptxas 13.0 -O3 and the JIT; fixed in 13.5): `bfe.s32 d, a, pos, len` with constant
    /// `pos ≥ 32` and `len ≥ 1` (immediates, or values ptxas computes from immediates:
    /// fuzz-h200-3701/, 5d90f3ab and 3b8517e9; a `mov.f32` of a float immediate:
    /// fuzz-h200-3801/, 14d15bd2) gives −1, where §9.7.1.19 gives `a`'s sign bit replicated (0 for
    /// a non-negative `a`). A `mov.f32` copy of a known start, and a `set` whose comparison the
    /// value ranges of its sources decide, are known too (fuzz-h200-3903/, 60d48019, 972eb062).
    BfeS32PastMsbAllOnes,
    /// N-8 (ptxas 13.0 -O3 and the JIT; fixed in 13.5): `setp.lt.u32 p, s, 0` (never true,
    /// §9.7.7.2) of a register written by `set.<cmp>.s32.<type>` (−1 or 0, §9.7.7.1) gives
    /// `s ≠ 0`: the unsigned test is folded into the `set`'s own comparison. The same with the
    /// operands swapped, `setp.gt.u32 p, 0, s`, and the inclusive forms `setp.ge.u32 p, s, 0`
    /// and `setp.le.u32 p, 0, s` (always true) give `s = 0`; the 0 an immediate or a moved
    /// immediate (corpus/findings/fuzz-h200-3602/, 5d06e0d1), another value ptxas knows, or a
    /// `set.{ne,lt,gt}` of a register with itself (fuzz-h200-3901/, 0e470a25).
    UnsignedBelowZeroOfSet,
    /// N-11 (ptxas 13.0 and 13.5 at every level, and the JIT): a `set.<cmp>.s32.u16` whose guard
    /// is false still sign-extends its destination from 16 bits (`SEL R0, R2, R0, P0; PRMT R0,
    /// R0, 0x9910, RZ`: the merge with the old value comes before the extension), where an
    /// instruction whose guard is false does nothing (§9.7.7.1, §11.2). The same with a `.u32`
    /// destination or an `.s16` source (an H200 campaign, 1297e441 of
    /// corpus/findings/fuzz-h200-3301/): extended by sign or with zeros (set-valued). With an
    /// `.f32` destination (e733b56f, fa10cd83 of the same campaign) the old value is converted
    /// as the −1 would be: the f32 of |int32(old)| (`IABS; I2FP.F32.S32`), for a 16-bit source
    /// of |old's low half, sign-extended| read as an s16 (`I2F.S16`, 13.5's listing), which
    /// needs only those low 16 bits exact (corpus/findings/fuzz-h200-3701/, c2bdc418). An old
    /// value a plain `cvt.f32.f32` of a NaN wrote is that NaN's bits (-O3 drops the cvt) or the
    /// canonical 0x7fffffff (-O0's `FADD`), set-valued (fuzz-h200-4402/, d1611e55;
    /// `program/emulate/skipped_set_over_dropped_f32_copy.rs`).
    SkippedSetSignExtends,
    /// 3301-N1 (corpus/findings/fuzz-h200-3301/, e6e88e27 and a9e172f6; ptxas 13.0.88 and 13.5
    /// at every level, and the JIT): a 16-bit `shl`/`shr` with an immediate amount of 2^16 or
    /// more shifts by the amount's low 16 bits (`shr.b16 d, a, 0x80000000` is `SHF.R.U32.HI d,
    /// RZ, RZ, a`: by 0), where §9.7.8.7 clamps a `.u32` amount greater than 16 to 16. A
    /// register amount is clamped right (`VIMNMX.U32 …, 0xffff`).
    Shift16ImmediateLowHalf,
    /// 3301-N2 (corpus/findings/fuzz-h200-3301/, a6d22081; ptxas 13.0.88 and 13.5 -O3, and the
    /// JIT): `sub.cc.{s64,u64} d, a, b` with `b` written by `abs.s64` of 0 sets the borrow
    /// (CC.CF) that a following `subc` subtracts, where `a − 0` borrows nothing (§9.7.2.2). -O3
    /// selects −|x| from x and −x (`SEL`) and adds it (`IADD3 RZ, P0, a, −|x|`): the carry of
    /// `a + 0` is 0, i.e. a borrow. The difference itself is right.
    SubCcOfAbsZeroBorrows,
    /// 3301-N3 (corpus/findings/fuzz-h200-3301/, 17e80392; ptxas 13.0.88 and 13.5 -O3, and the
    /// JIT): an integer `cvt` (integer rounding) of a float `cvt` from `.s32`/`.u32` of a
    /// `set.<cmp>.{s32,u32}` result gives the set's word (−1 or 0) extended to 64 bits as the
    /// float cvt's source type reads it (sign from `.s32`, zero from `.u32`: fuzz-h200-3901/,
    /// 681ef45e), at the destination's width: the round trip is folded away (`SEL R, RZ, 0xffffffff, !P`
    /// stored), where §9.7.9.21 converts −1.0 to an unsigned type as 0, and a bf16 −1.0 read as
    /// `.f16` is −1.875. With the `set.<cmp>.f32` itself as the float step and an integer
    /// truncation `cvt.{s16,u16}.{s32,u32}` between, an integer `cvt` of a half source gives
    /// the set's |word|, 1 or 0 (corpus/findings/fuzz-h200-3602/, dced936c: `SEL; IABS; PRMT
    /// 0x7710`, where the low half of 1.0f is f16 +0); the same through the low half of a
    /// `mov.b32` unpack of the set's word (corpus/findings/fuzz-h200-3701/, 12b23716).
    SetRoundTripFolded,
    /// C's float direction (corpus/findings/fuzz-h200-3301/, 75b04c3b; ptxas 13.0.88 and 13.5
    /// -O3, and the JIT): a float-to-float `cvt.sat` (`cvt.sat.f32.f16`, `cvt.sat.f64.f16`) of a
    /// register written by an integer `cvt.sat` loses its saturation (`HADD2.F32` without the
    /// `FADD.SAT`, `F2F.F64.F16` without `.SAT`), where §9.7.9.21 clamps to [0.0, 1.0]; through
    /// a `mov.f32` copy too (fuzz-h200-3801/, 0b744aae: a NaN passes).
    FloatSatOfIntSatDropped,
    /// 3301-N4 (corpus/findings/fuzz-h200-3301/, third run, f2f81bb3; ptxas 13.0.88 and 13.5
    /// -O3, and the JIT): `cvt.sat.<int>.u32` of a register written by `bfe.s32 d, a, pos, len`
    /// whose immediate field is a whole byte or half at its own alignment (`len` 8 or 16, `pos`
    /// a multiple of `len`) saturates the source as an `.s32`: -O3 lowers the `bfe` as a
    /// sign-extending `PRMT` (0x8880, 0x9910, 0x9991) and clamps with signed comparisons
    /// (`ISETP.LT`/`ISETP.GT`, `SEL`; to `.s32` no clamp at all), where §9.7.9.21 reads the
    /// `.u32` source unsigned (a negative field is above every signed maximum: 0x7fff for
    /// `.s16`, 0xffff for `.u16`). Other fields (`SGXT`) are clamped right (`VIMNMX.U32`).
    /// The amount clamp of `shl.b16`/`shr.{b16,u16}` is the same (fuzz-h200-3903/, dd8d148c):
    /// a negative field shifts by 0, where §9.7.8.7 clears the value.
    SatCvtOfByteBfeSigned,
    /// Row 10 of corpus/findings/fuzz-h200-3201/README.md, M's mechanism (ptxas 13.0 -O3 and
    /// the JIT drop the mask of an `F2FP` result; fixed in 13.5): `cvt.u16.u8` of a register
    /// written by a `cvt` to `.e4m3x2` gives the register's 16 bits unchanged (the zero
    /// extension of the low byte, §9.7.9.21, is dropped).
    U8ExtensionOfE4m3x2Dropped,
    /// 3501-N1 (corpus/findings/fuzz-h200-3501/, 03565707; ptxas 13.0.88 -O3 and the JIT,
    /// fixed in 13.5): `slct.s32.s32 d, a, b, c` with the immediate `c` = −2^31 (0x80000000)
    /// selects `a` (the -O3 listing stores `a`: `STG … R3` of the loaded `a`, the folded
    /// constant of a moved one), where §9.7.7.2 selects `b` for a negative `c`. Other negative
    /// immediates (−1, −5) select `b`, as does a register `c`. Wider (corpus/findings/
    /// fuzz-h200-3602/, a9cbbc89, bisected): 13.0.88 tests a constant `c` (immediate or moved)
    /// of `slct.{s32,u32}.s32` as an f32, c ≥ 0.0: −2^31 is −0.0 (selects `a`) and the NaNs
    /// 0x7f800001–0x7fffffff select `b`, where the spec selects `a`; `slct.b32.s32` is right.
    /// A `c` ptxas folds from immediates counts as constant (fuzz-h200-3801/, 12356f04: `or.b32`
    /// of a moved 0 and 0x80000000).
    SlctS32ByMinImmediateSelectsA,
    /// 3501-N2 (corpus/findings/fuzz-h200-3501/, 3a6d7b34 and f94a1b7c; fuzz-h200-3601/,
    /// 1a7764b0; ptxas 13.0.88 -O3 and the JIT, 13.5 right by value): a chain of `shl.b64` by
    /// immediates below 32 (or amounts ptxas knows, a `min`/`max d, d, d` between shifts
    /// dropped; fuzz-h200-3701/, e3375831, 2d12fb46, 31e0340b), read as `a` (an `add`: either
    /// operand) by a 64-bit `add`/`sub` (`.cc` or not) of a nonzero constant `b` (an immediate,
    /// or a register a move of an immediate wrote or holding a value ptxas knows), gives
    /// `(x << S') ± b` with `x` the value the chain started from and S' the running amount at
    /// the first shift where it reaches 32, when shifts follow it: the listing fuses that
    /// shift into `LEA …, k` and drops the rest (`SHF.L.U32 R0, R2, 0x1f; …; LEA.HI.X R7, R0,
    /// 0x6ce7dff3, R9, 0x1f, P0`), where §9.7.8.5 shifts by the whole chain. The carry out
    /// is the whole chain's (right). A `mad.lo.{u64,s64} d, x, c, x` is a step by c + 1, and
    /// past the cut it is dropped with no add reading the chain (fuzz-h200-4402/, 372615e8;
    /// `emulate/mad_step_of_its_own_addend.rs`).
    ShlChainFoldedIntoLea,
    /// 3501-N3 (corpus/findings/fuzz-h200-3501/, e0f84cd8; ptxas 13.0.88 and 13.5 -O3, the
    /// JIT): a `cvt` from `.f32` of a `cnot.b32` result, whose source a `cvt.<irnd>.{u32,s32}.f32`
    /// of a `set.<cmp>.f32.{u16,s16}` result wrote, converts the cnot's 0/1 as the number (0.0
    /// or 1.0), not as the bits (`ISETP.NE.AND P0, PT, R0, 0x1; SEL R7, RZ, 0x1, P0` for an
    /// integer destination, `SEL R7, RZ, 0x3c00` for `.f16`, `FSEL R7, RZ, 1.875` for `.f64`),
    /// where §9.7.9.21 converts the f32 of the bits 1 (1.4e−45). A 32- or 64-bit `set` source,
    /// a loaded float, or `not` in place of `cnot` keep the conversion (`F2I`). A `cnot.{b16,b32}`
    /// of any register converted from `.f32`, `.f16` or `.bf16` is the same where the program
    /// has an `and`/`or`/`xor` of an integer set's result with another register
    /// (fuzz-h200-3901/, a1c204af, 09c3068e; fuzz-h200-3902/, 60948fcb). A float-to-integer
    /// `cvt` of a `set.<cmp>.f32` result whose word (or 0/1) a live `setp` tests against 0 is
    /// the same, the number carried through every following `cvt` with a float side
    /// (fuzz-h200-4201/, 6c26d195: `SEL R0, RZ, 0x3f80, !P0`; `emulate/set_truth_made_number_by_a_cvt.rs`).
    /// A `cnot` that a live `cnot` also reads is the same (fuzz-h200-4401/, a3fc1374;
    /// `emulate/cnot_read_by_a_live_cnot.rs`).
    CnotOfSetCvtConvertedAsNumber,
    /// 3601-N1 (corpus/findings/fuzz-h200-3601/, c6597432 and c9db337a; ptxas 13.0.88 and 13.5
    /// -O3, and the JIT): `sub.cc.{u32,s32} d, a, b` with `a` written by `mul.hi.{u32,s32}`
    /// that nothing else reads and `b` 0 (a register or an immediate) sets the borrow (CC.CF) that a
    /// following `subc`/`subc.cc` subtracts (an `addc` adds one less), where `a − 0` borrows
    /// nothing (§9.7.2.3). -O3 fuses the subtraction into the multiply's 64-bit addend
    /// (`IMAD.HI R10, P0, Rx, Ry, R6` with R7:R6 = −b · 2^32): for b = 0 the addend is 0 and its
    /// carry 0, i.e. a borrow. The difference itself is right. The same flaw as 3301-N2 (an
    /// added negation, `a + 0` does not carry) in another fold. An immediate 0 borrows too
    /// (fuzz-h200-3901/, dbb0f09c); `mad.hi`, `mul.lo` and `mul.hi.u64` are right.
    SubCcOfMulHiZeroBorrows,
    /// C's integer direction for a NaN (corpus/findings/fuzz-h200-3601/, 6ac6a5e1, and C's
    /// 949ad306; fuzz-h200-3701/, e90e547c and 4cdc6561 for `.bf16`; ptxas 13.0.88 and 13.5
    /// -O3, and the JIT): `cvt.sat.s32.s64` of a `cvt.*.s64.{f32,f16,bf16}` result, or
    /// `cvt.sat.u32.u64` of a `cvt.*.u64.{f32,f16,bf16}` one, whose
    /// float source is a NaN gives 0: the pair is folded into one `F2I{.F16}.NTZ` to 32 bits
    /// (NaN → 0), where §9.7.9.21 converts the NaN to 1 << 63 (`.s64`) or 0 (`.u64`… then
    /// saturated: 0x80000000 for `.s32`). Other values agree; an `.f64` source, a `.s16`
    /// destination and `cvt.sat.s32.u64` are not folded.
    IntSatOfNanCvtFolded,
    /// O on an H200 (corpus/findings/fuzz-h200-3601/, e9e8eb40, and fuzz-h200-3501/, ab41e69a;
    /// ptxas 13.0.88 -O3 and the JIT; 13.5 -O3 segfaults): `shl.b16`/`shr.b16` whose amount
    /// `cnot.b32` of a register wrote shifts by a register nothing wrote (`sub.u32 d, 0, x` too,
    /// which glue cannot express)
    /// (R0, or the stack pointer R1: `LOP3.LUT R7, R0, 0xffff, RZ, 0xc0, !PT; SHF.L.U32 R7, R0,
    /// R7, RZ`, the `cnot` gone): any value. `shr.u16` too, the same `SHF.R.U32.HI` listing
    /// (corpus/findings/fuzz-h200-3801/, eb9ca4a8, c18ff4fe, e4527e8a). `shr.s16`, 32- and 64-bit
    /// shifts, and the other producers (`not`, `neg.s32`, `sub.s32 d, 0, x`, `sub.u32 d, 5, x`,
    /// …) are right. Session 40 (corpus/findings/fuzz-h200-3901/, 1391020a and 17b9ea5e;
    /// fuzz-h200-3902/, f860a7e5): `cvt.sat.{u16,u8}.u32` of the cnot reads an unwritten
    /// register too, and `sub{.cc}.u32 d, z, x` of a moved 0 z is emulated as a producer.
    Shift16ByCnotAmountUnwritten,
    /// 3602-N1 (corpus/findings/fuzz-h200-3602/, f4932ac3; trace/T7.md T7-1; ptxas 13.0.88 -O3
    /// and the JIT, fixed in 13.5): in an if/else diamond (`@p bra ELSE; …; bra JOIN; ELSE: …;
    /// JOIN:`) on `p = setp.ne.{u32,s32,b32} v, K`, `xor.b32 d, v, 0xffffffff` in the arm run
    /// when v = K gives K (`SEL R7, R0, 0x9, !P0` with R0 = K): the branch-known value is
    /// propagated and the inversion lost, where §9.7.8.3 gives ~K. `not.b32`, other masks, a
    /// one-armed `if` and `setp.eq` are right.
    XorOfBranchConstantDropsInversion,
    /// 3602-N2 (corpus/findings/fuzz-h200-3602/, 2034b61d; trace/T7.md T7-2; ptxas 13.0.88 and
    /// 13.5 -O3, and the JIT): a 16-bit `and`/`or`/`xor.b16` of the two halves of `neg.s32` of a
    /// `set.<cmp>.f32.<type>` result reads the set as the integer 1/0: each half is 0xffff when
    /// the set is true (−1), 0 when false (`ISETP; SEL R7, RZ, 0xffffffff, !P0`; the xor of
    /// equal halves `STG … RZ`), where §9.7.7.1 makes the set 1.0f (0x3f800000) and its
    /// negation 0xc0800000.
    NegOfSetF32HalvesReadAsBoolean,
    /// 3602-N3 (corpus/findings/fuzz-h200-3602/, a9d3dbc0; trace/T8.md T8-1; ptxas 13.0.88 -O3
    /// and the JIT, fixed in 13.5): `subc.{u32,s32} d, a, b` reached only through the
    /// fall-through of `@p bra` with `p = setp.ne.{u32,s32,b32} b, K` (`.s32`, `.b32`:
    /// corpus/findings/fuzz-h200-3701/, fb2f0eb8) adds K where it should subtract it
    /// (`IADD3.X R7, R0, 0x19, RZ, P0`: a + K + carry, where §9.7.2.4 gives a + ~K + carry),
    /// i.e. the spec's word + 2K + 1; `subc.cc` borrows where that addition does not carry
    /// (trace `b7.ptx`: both of two chained `subc`s wrong). A `setp.eq` fact, an immediate or a
    /// moved K are right.
    SubcOfBranchConstantAddsIt,
    /// 3602-N4 (corpus/findings/fuzz-h200-3602/, c306162d; trace/T8.md T8-2; ptxas 13.0.88 -O3
    /// and the JIT, fixed in 13.5): a 16-bit register written by `cvt.s8.{s64,u64}` of a
    /// `cvt.{s64,u64}.s8` result holds the byte sign-extended to 32 bits for the readers of
    /// bits 16–31: `shr.{u16,b16}` by n < 16 shifts in ones (`PRMT 0x8880; SHF.R.U32.HI`, no
    /// 16-bit mask) and `cvt.{u32,u64}.u16` gives the sign extension, where §9.7.9.21 extends
    /// the `.s8` result to the register's 16 bits only.
    S8RoundTripThrough64SignExtends32,
    /// 3604-N1 (corpus/findings/fuzz-h200-3604/, 313ad4b7; fuzz-h200-3602/trace/T8.md T8-3;
    /// ptxas 13.0.88 and 13.5 -O3, and the JIT): `shr.s16 d, a, r` with `r` written by
    /// `cvt.<irnd>.u32.f32` of x fuses the conversion with the amount's clamp into a signed
    /// `F2I.S16`: when x rounded is ≤ −1 the amount is negative and the shift fills with a's
    /// sign, where §9.7.9.21 saturates the `.u32` conversion to 0 (a shift by 0).
    ShrS16ByU32CvtConvertsAsS16,
    /// 3604-N2 (corpus/findings/fuzz-h200-3604/, 6bd62f60; fuzz-h200-3602/trace/T8.md T8-4;
    /// ptxas 13.0.88 and 13.5 -O3, and the JIT): `cvt.u64.{s32,u32}` of a `set.<cmp>.f32.<type>`
    /// result that a `setp.*.u64` compares with 0 is rebuilt from the predicate as 0/1 (`SEL
    /// R6, RZ, 0x1, !P0`), where §9.7.7.1 makes the set 1.0f (0x3f800000).
    WidenedSetF32ComparedWithZeroIs0Or1,
    /// 3604-N3 (corpus/findings/fuzz-h200-3604/, da27327e; fuzz-h200-3602/trace/T8.md T8-5;
    /// ptxas 13.0.88 and 13.5 -O3, and the JIT): a counted loop's exit test `setp.{gt,ge}.u32
    /// p, i, K` (the back edge `@p bra` right after it) with an immediate K ≥ 2^31, i a counter
    /// set from an immediate before the loop and stepped by an immediate `add`/`sub` in it, is
    /// counted as `.s32` (`> −1`: six trips from 5, `MOV R7, 0xfffffffa`), where §9.7.7.2
    /// compares unsigned (never true: one trip). Past the folded bound with the counter read
    /// after the loop (fuzz-h200-4603/, 24adc0f8, trace/T17t5.md) the counter is a point of the
    /// signed count that ptxas's peel and unroll pick: set-valued, the bits from the step's lowest
    /// set bit up free (`program/emulate/counter_of_a_signed_count_read_after_the_loop.rs`).
    UnsignedLoopExitTestCountedSigned,
    /// 3701-N-A (corpus/findings/fuzz-h200-3701/, 212b09c9 and 16 more; trace/TC4.md "N-A",
    /// TC3.md C3-1, TC2.md; ptxas 13.0.88 and 13.5 -O3, and the JIT): `cvt.pack.sat.{s8,u8}.s32.b32
    /// d, a, b, c` with both `a` and `b` written by `cvt.{rni,rzi}{.sat}.u32.f32` (one or two
    /// of them, of one rounding; through a `cvt.u32.u32` too) is fused into one
    /// `F2IP.{S8,U8}.F32{.TRUNC}.NTZ` of the floats: each byte is the float rounded and
    /// saturated to the 8-bit type directly, where §9.7.9.21 clamps the `.u32` conversion to
    /// [0, 2^32 − 1] and §9.7.9.22 reads that word as `.s32` (x ≤ −1 packs 0, not −128; x ≥
    /// 2^31 packs −128 or 0, not 127 or 255). Right: `.rmi`/`.rpi`, `.s4`/`.s16`/`.u16` packs,
    /// `.f16`/`.f64` sources, one operand from another producer, a plain `cvt.sat.s8.s32`.
    PackOfU32CvtFusedSigned,
    /// 3701 C1-N4 (corpus/findings/fuzz-h200-3701/, ca3fc161; trace/TC1.md; ptxas 13.0.88 -O3
    /// and the JIT, fixed in 13.5): `bfi.b32 d, a, b, pos, len` with a constant `pos` (an
    /// immediate, or a moved one, float too: fuzz-h200-3801/, bfd7f6c9) and a
    /// constant `len` (an immediate or moved immediate) whose `len` (its low 8 bits, §9.7.1.20) is 32 or more
    /// inserts a field of `len mod 32` bits (130 → 2: `LOP3.LUT R7, R9, 0xc, R0, 0xe2`; 64 → no
    /// field), where §9.7.1.20 inserts up to the msb. A loaded `len` is right.
    BfiConstantLengthTakenMod32,
    /// 3701 C3-2 (corpus/findings/fuzz-h200-3701/, e50cc840; trace/TC3.md; ptxas 13.0.88 and
    /// 13.5 -O3, and the JIT): `shl.b64 d, p, k` by a constant k ≥ 64 (an immediate or moved
    /// immediate: 64, 65, 100, 128, 4096, 0xffffffff) of `p` written by `mul.lo.{s64,u64}` or
    /// `mad.lo.{s64,u64}` by immediates, or `mul.wide.{u32,s32}` by an immediate (fuzz-h200-3801/,
    /// b8a9995e: `.u64` the same listing), gives `p`
    /// unshifted (`IMAD.WIDE.U32 R6, R2, -0x1, RZ` stored), where §9.7.8.7 clamps the amount
    /// to 64 (0). Right: k = 40 or 63, a loaded source, `neg`/`add`, a multiply by a register,
    /// `shr`, the 16- and 32-bit forms.
    ShlB64OfProductByConstantDropped,
    /// 3701 fc9c9c66 (corpus/findings/fuzz-h200-3701/, fc9c9c66; trace/TC2.md; ptxas 13.0.88
    /// and 13.5 -O3, and the JIT): `xor.b32 d, s, c` of a `set.<cmp>.{s32,u32}.u32` result s and
    /// a `cnot.b32` result c gives 1 − c where s is true (−(~(−c)): `SEL R0, RZ, 0xffffffff,
    /// !P1; LOP3 ~R0; @P0 IMAD.MOV R7, RZ, RZ, -R6`), where §9.7.8.3 gives ~c. `and`/`or`, `not`
    /// of the cnot, a loaded or `selp` operand in place of either are right.
    XorOfSetAndCnotGivesOneMinus,
    /// 3701 C3-3 (corpus/findings/fuzz-h200-3701/, 5087e596; trace/TC3.md; ptxas 13.0.88 -O3
    /// and the JIT, fixed in 13.5): `setp.{eq,ne}.{u32,s32} p, s, 1` (the 1 an immediate or a
    /// moved immediate) of a `set.<cmp>.{s32,u32}.{s32,s64}` result s (−1 or 0, §9.7.7.1) is
    /// folded into the set's own comparison: eq gives s ≠ 0, ne gives s = 0 (`ISETP.EQ.U32 P0,
    /// R2, RZ; ISETP.EQ.AND.EX …`), where the spec's eq is never true. A compare with 2 or −1,
    /// `setp.gt.u32 s, 1` and an `.f32` set are right. Kin of N-8.
    SetpEqOneOfSetTestsTheSet,
    /// 6a4d050b (corpus/findings/fuzz-h200-4203/, trace/T12c2.md §B; corpus/findings/
    /// fuzz-h200-4402/, c58b70c2, trace/T15t3.md; ptxas 13.0.88 and 13.5 -O3, and the JIT):
    /// C3-3's fold where the set is `set.<cmp>.f32.{u64,s64}`: `setp.{eq,ne}.{u32,s32} p, s, 1`
    /// (or a `set.{eq,ne}` consumer) tests the set's own 64-bit comparison (`ISETP.LE.U32;
    /// ISETP.GT.OR.EX P0`), though the set writes 0x3f800000 or 0 (§9.7.7.1), never 1. A 32- or
    /// 16-bit source (`SEL -1; IABS; I2FP`), a compare with 2 or 0x3f800000 are right.
    SetpOneOfF32SetOfWideSourceTestsTheSet,
    /// 1a937110 (corpus/findings/fuzz-h200-4601/, trace/T17t1.md; ptxas 13.0.88 and 13.5 -O3, and
    /// the JIT): `mul.hi.{u16,s16} d, x, 1` (or `mad.hi d, x, 1, 0`; the 1 a constant ptxas knows)
    /// of x the direct, sole-read result of a zero-extending scalar `ld.{b8,u8}` (`ld.{b16,u16}`
    /// for `.u16`) read by `cvt.{f16,f32,f64}.f16` converts x's low 16 bits (`LDG.E.U8 R2; HADD2
    /// R3, R2.H0_H0, -RZ.H0_H0`), where §9.7.1.3 gives d = 0. A factor 2 or 4 (`SHF.L.U32; HADD2
    /// R0.H1_H1`), `mul.lo`, integer and `f16` arithmetic readers, an `ld.s8` or computed x, and
    /// the load read elsewhere too are right; -O0 right.
    MulHiByOneOfLoadedHalfReadAsLowHalf,
    /// 3701 C1-N3 (corpus/findings/fuzz-h200-3701/, 6b7f302e; trace/TC1.md; ptxas 13.0.88 and
    /// 13.5 -O3, and the JIT): `shr.s16 d, a, c` with `c` written by `cnot.b32` of a register
    /// folds the amount's clamp through the negation (`ISETP.GT.U32 P0, R0, 0x8000; SEL R0, R0,
    /// 0xffff8000, !P0` on −c): c = 1 fills d with a's sign, where §9.7.8.7 shifts by 1.
    /// (`sub.u32 c, 0, x` does the same for x > 0xffff8000; glue has no immediate minuend.)
    /// `neg.s32` of a set, `selp` 1/0, `shr.s32` and `shl.b32` are right; `.b16`/`.u16` are O.
    ShrS16ByCnotClampFolded,
    /// Root cause J, its branch-known form (corpus/findings/fuzz-h100/README.md, c4102;
    /// corpus/findings/fuzz-h200-3701/, 21862007, trace/TC1.md; ptxas 13.0.88 -O3 and the JIT,
    /// fixed in 13.5): in the fall-through of `@p bra` on `setp.ne.u32 p, v, K` (K an
    /// immediate; v = K there, unwritten since) a read of v's high half as a packed 16-bit half
    /// takes K's low half: the high half of `mov.b32 {lo, hi}, v` (`@!P0 PRMT R0, R4, 0x7610`
    /// with R4 = K, where §9.7.9.10 gives K's high half) and v as the second source of
    /// `add.s16x2` (the immediate 0x005e005e for K = 0x5e). The low half, `setp.eq` with
    /// `@!p bra` and `shr.u32 v, 16` are right. `setp.ne.s32` too, and byte 2 of a byte unpack
    /// `mov.b32 {b0, b1, b2, b3}, v` is K's byte 0 (corpus/findings/fuzz-h200-3702/, c388df98,
    /// trace/T3B.md; byte 1 stays right, byte 3 is not evidenced). `add.u16x2` as `add.s16x2`
    /// (corpus/findings/fuzz-h200-3801/, f2611d02, trace/T4C.md), and the high half of an unpack
    /// ahead of the branch that is read only in its fall-through (87576d8b, trace/T4D.md).
    BranchConstantHighHalfIsItsLowHalf,
    /// Root cause J, its narrowed form (corpus/findings/fuzz-h100-b/README.md, c4105;
    /// corpus/findings/fuzz-h200-3701/, f567f1b4, trace/TC2.md; ptxas 13.0.88 -O3 and the
    /// JIT, fixed in 13.5): `add.{u16x2,s16x2} d, K1, K2` of two constants (moved immediates)
    /// whose result is read once, as one half, is narrowed to that half with one addend dropped
    /// (`VIADD.16x2 R0, R0, 0x0`, 13.5 `0xc83b`): the half read is 0 where K1's half is 0, else
    /// K2's (corpus/findings/fuzz-h200-3801/, a82b8b26 and 53f554e1, trace/T4D.md and T4B.md:
    /// a zero constant is kept as RZ, else K2 in a register, and the immediate dropped; `.s16x2`:
    /// c34717b2, 6ee35dab). Halves read: the one
    /// half of `mov.b32 {lo, hi}, d` that is read, `cvt.u16.s32` (the low half) and the `c` of
    /// an 8-bit `cvt.pack` (its low half). Both halves read (`v/j1`, `v/j2`): right. Of a
    /// constant K and a register, read only by a skipped 16-bit-source set whose old word
    /// N-11 converts (the low half), K's half is dropped (fuzz-h200-3701, 3f9c3758: a loop
    /// unrolled with `VIADD.16x2 R, R, 0x0` per iteration, 13.5 `0x4eea`).
    AddU16x2OfConstantsNarrowedDropsOne,
    /// 3701 C1-N2 (corpus/findings/fuzz-h200-3701/, 2dfe7c1c; trace/TC1.md; ptxas 13.0.88 and
    /// 13.5 -O3, and the JIT): `cvt.rn.{f16,f32}.s32 d, s` of a `set.<cmp>.f32.u32` result s
    /// (1.0 or 0.0, §9.7.7.1) in a program where an `xor.{b16,b32}` reads a
    /// `set.<cmp>.u32.<type>` result (itself, or a half a `mov.b32` unpack took of it) is
    /// rebuilt from the set's predicate as the conversion of its |word| 1 (`SEL R7, RZ, 0x3c00,
    /// !P1`, `FSEL R9, RZ, 1, !P0`), where §9.7.9.21 converts 1065353216 (f16 +inf). Right
    /// without that xor, with `selp 0x3f800000, 0` in place of the set, an xor of the cvt's own
    /// result.
    CvtOfSetF32ConvertsOneBesideXorOfSet,
    /// 3702-N1 (corpus/findings/fuzz-h200-3702/, e1ce1744; trace/T3B.md; ptxas 13.0.88 -O3
    /// and the JIT, fixed in 13.5): `setp.eq.u16 p, h, K` of `h = max.s16 x, K` (or `min.s16`),
    /// K the same immediate in both, is fused into `VIMNMX.S16x2 R0, P0, P0, x, K` whose
    /// predicate is "x selected": p = x ≥ K for `max`, x ≤ K for `min`, where §9.7.7.2 gives
    /// x ≤ K (`max`), x ≥ K (`min`). A compare with x, `setp.ne` and a register K are right.
    SetpEqOfMinMaxReadsSelection,
    /// 3702-N3 (corpus/findings/fuzz-h200-3702/, 2a151aca and d357c575; trace/T3B.md,
    /// trace/T3C.md; ptxas 13.0.88 -O3 and the JIT; every 13.5 listing right): in a one-armed
    /// `if` (`@p bra L; arm; L:`), an arm's constant write (a moved immediate, or a `set` of
    /// constants or of a register with itself) of 0xffffffff or 0x3f800000 to a register holding
    /// the other from a constant write before the branch is dropped (`MOV R7, 0xffffffff; STG`,
    /// no compare): the register keeps its old value. Other constant pairs, a loaded operand, a
    /// guarded `mov` or `selp` (no branch) are right; an if/else diamond is wrong too (13.0
    /// stores the fall-through arm's value), not emulated.
    JoinOfMinusOneAndOneF32Merged,
    /// 3702-N2 (corpus/findings/fuzz-h200-3702/, 2a3b3599; trace/T3B.md; ptxas 13.0.88 -O3
    /// and the JIT, fixed in 13.5): `xor d, x, a ^ lop3(a, b, c, L)` is merged into one
    /// `LOP3.LUT d, x, a, …, L'` that binds the inner `lop3`'s redundant input to `x`: a constant
    /// 0 `c` with b = 0 (d = x ^ a ^ L(a, 0, x), the traced kernels), or a `b` repeating `a`
    /// (d = x ^ a ^ L(a, x, c), the stored case's words), where §9.7.8.6 gives
    /// x ^ a ^ L(a, b, c); a `xor.b64` of a pack `{r, r}` of the chain per half. No outer xor
    /// and a loaded `b` are right.
    Lop3MergedIntoXorReadsX,
    /// 3702-N4 (corpus/findings/fuzz-h200-3702/, 30858a36; trace/T3A.md; ptxas 13.0.88 and 13.5
    /// -O3, and the JIT): `cvt.<rnd>.{bf16,f16,f32}.u32 d, r` with `r` written by `cvt.s32.s8`
    /// of an element of `ld.*.v2.s8` is fused into `I2F.<dtype>.S8 R, Rx.B1`: the sign-extended
    /// byte is converted as signed (−79), where §9.7.9.21 converts the word as `.u32`
    /// (0xffffffb1). A scalar `ld.s8`, an `.s16` source, `cvt.u32.s8` and `.f64` are right.
    ByteOfVectorLoadU32CvtConvertsSigned,
    /// 3702-N5 (corpus/findings/fuzz-h200-3702/, 5bf2de82 and b9d3a4f3; trace/T3A.md, T3C.md;
    /// ptxas 13.0.88 -O3 and the JIT, fixed in 13.5): `cvt.u8.s32` (or `and.b32 0xff`) of
    /// `prmt.b32 r, a, b, c` (generic mode, a constant c whose byte-0 nibble is 8–B, b a
    /// register, r read by that alone) is narrowed to `PRMT R, RZ, c, b`: a is dropped and the byte is the sign of
    /// a byte of 0 (0x00), where §9.7.9.7 replicates the sign of a's byte (0xff for 0xd8).
    PrmtSignOfANarrowedReadsZero,
    /// 3702-N6 (corpus/findings/fuzz-h200-3702/, 3c1be158; trace/T3A.md; ptxas 13.0.88 and 13.5
    /// -O3, and the JIT): `shl.b16`/`shr.{b16,u16,s16} d, h, r` with `r` written by
    /// `cvt.<irnd>.ftz.u32.f32` of x fuses the conversion as `F2I.{U16,S16}.CEIL.NTZ` without
    /// `.FTZ`: `.rpi` of a positive subnormal shifts by 1, where §9.7.9.21 flushes it to +0
    /// (a shift by 0). Kin of 3604-N1 (the same fusion, another lost property).
    Shift16ByFtzU32CvtFlushDropped,
    /// Root cause C's float-to-int direction (corpus/findings/fuzz-h200-3702/, f25dd895;
    /// trace/T3A.md; ptxas 13.0.88 and 13.5 -O3, and the JIT): `cvt.sat.s16.u32 h, r` of
    /// `r = cvt.{rni,rzi}.u32.f32 x` is fused into one `F2I.S16.NTZ` of x: a negative x gives
    /// its saturated `.s16` (0x8000), where §9.7.9.21 clamps x to 0 first. `.s8`, `.u16`,
    /// `.s32`, an `.s32` intermediate and `.f16`/`.f64` sources are right.
    IntSatS16OfU32CvtFoldedSigned,
    /// 3701-N-D (corpus/findings/fuzz-h200-3701/, c8681b22, trace/TC1.md;
    /// corpus/findings/fuzz-h200-3702/, dc54c0ab, trace/T3A.md; ptxas 13.0.88 and 13.5 -O3, and
    /// the JIT): `mov.b32 r, {p, h}` (or the first word of a `mov.b64` pack, or the first two
    /// elements of a 16-bit `st.v2`/`st.v4`: fuzz-h200-3801/, d03f820c) of the pair p of
    /// `cvt.rn.satfinite.{e4m3x2,e5m2x2}.{f32,f16x2}` is built in place in h's register
    /// (`F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R7, RZ, RZ, R7`,
    /// `F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R7, RZ, R7`) while h, an `xor.b16` result,
    /// an element of an `ld.v4.s8` or a byte pack `mov.b16 h, {c, c'}` (fuzz-h200-3801/,
    /// 536f1382), is still read: a later read of h (a later half of the same pack, a glue result
    /// ptxas numbers as h, or r's high half through a `mov.b32` unpack) takes p. The pack's first
    /// word is right; h from a scalar or 16-bit load (another register) is right; -O0 is right.
    MergeCInPlaceDestroysLiveHalf,
    /// 3801-N2 (corpus/findings/fuzz-h200-3801/, 06fd6dd5 and 6dd16205; trace/T4C.md,
    /// trace/T4D.md; ptxas 13.0.88 and 13.5 -O3, and the JIT): `max`/`min` (`.u32`/`.s32`) against
    /// 0 of `sub K, x` with K written by `shfl.sync` of an immediate is fused into
    /// `VIADDMNMX R, x, −K, RZ`: it reads x − K where §9.7.1.2 gives K − x. Scope: a load before
    /// the `max`/`min` (6dd16205's forms without one keep K in a register and are right); K a
    /// `mov`, no `max`/`min`, a bound other than 0 and `add` are right.
    SubOfShuffledImmediateReversedInMinMax,
    /// 3802 T5A-1 (corpus/findings/fuzz-h200-3802/, f7406f82; trace/T5A.md; ptxas 13.0.88 -O3:
    /// the instruction is gone, 13.5.37 -O3: ICE C7907, the JIT: SIGSEGV, 58dc4938):
    /// `cvt.pack.sat.{u8,s8}.s32.b32 d, a, a, c` (§9.7.9.22) with `a` written by
    /// `cvt.{rzi,rni}.{s32,u32}.f32` of a constant NaN (an immediate or a moved immediate) and `c`
    /// a constant whose low half is not 0: no `F2IP` is emitted and `d`'s register keeps what it
    /// held (%tid.x in the stored kernel). Set-valued: any value. Right: c's low half 0, a
    /// register `c`, a loaded float, a non-NaN constant, `a` ≠ `b`; -O0 right.
    PackOfNanCvtAndConstantDropped,
    /// 3802 6e4d6e41 (corpus/findings/fuzz-h200-3802/, 6e4d6e41; trace/T5C.md; ptxas 13.0.88 and
    /// 13.5 -O3, and the JIT): `cvt.rn.f16x2.{e5m2x2,e4m3x2} d, h` (§9.7.9.21) of `h` = bits
    /// 48..63 of a 64-bit value whose high word is known 0 by a zero extension of a non-constant
    /// (`cvt.{u64,s64}.{u8,u16,u32}`, `and.b64 x, 0xffffffff`) and taken by a `mov.b64` unpack
    /// (element 3, or the high half of the high word) is emitted with a non-zero immediate
    /// source (`F2FP.F16.E5M2.UNPACK_B R5, 0x20`; 0x100 in the stored kernel), where the spec
    /// converts 0. Set-valued: the immediate follows no rule the traces found, so any value.
    /// Right: element 2, a constant source, `cvt.s64.s8`, a 32-bit `mov.b32` unpack, other readers.
    Fp8UnpackOfZeroExtendedTopHalfImmediate,
    /// Root cause G through a `mov.b32` unpack (corpus/findings/fuzz-h200-3802/, e141eb0d,
    /// trace/T5B.md; corpus/findings/fuzz-h200-3701/, a3598fb3, trace/TC4.md; ptxas 13.0.88 and
    /// 13.5 -O3, and the JIT): `mov.b32 {lo, hi}, r` (§9.7.9.4) of `r` = `cvt.{u32,s32}.u16 r, h`
    /// (both zero-extend; corpus/findings/fuzz-h200-3901/, fd7cf510) (or a 32-bit `ld.{u8,u16}` of r) with `lo` never read gives `hi` = h (r's low half: `I2F.BF16
    /// …; STG.E.U8 R5`, no extraction), where the spec's high half of the zero extension is 0.
    /// Right: `lo` read too, `shr.u32 r, 16` in place of the unpack, a `mov.b32 r, {h, 0}` pack,
    /// `and.b32 r, 0xffff` or a sign extension before the unpack; -O0 right.
    ZeroExtendedHighHalfReadAsTheValue,
    /// 4483ae72 (corpus/findings/fuzz-h200-3903/, trace/T6F.md; ptxas 13.0.88 -O3 and the JIT,
    /// fixed in 13.5): `add.{s32,u32} d, x, s` of `s = shf.l.{wrap,clamp}.b32 s, c, 0, n` (a
    /// constant amount of 1–31) of `c = cnot.b32` of a value ptxas does not know is fused into
    /// `LEA.HI d, -R0, x, RZ, n` with R0 = −c, which computes x − (R0 >> (32 − n)): c = 1 gives
    /// x − (2^n − 1), where §9.7.8.7 and §9.7.1.1 give x + 0.
    AddOfCnotFunnelShiftNegatedInLeaHi,
    /// fc25f5c6 (corpus/findings/fuzz-h200-3902/, trace/T6E.md; ptxas 13.0.88 and 13.5 -O3, and
    /// the JIT): an `and`/`or`/`xor.b16` whose sources are each y or an integer rounding
    /// (`cvt.{rni,rzi,rmi,rpi}`) of y, y a plain `cvt.{f16.f16,bf16.bf16}` of a `cnot`'s 0/1, is
    /// folded with y taken as the number (1 → 1.0, 0x3c00 or 0x3f80): the xor gives 0, where
    /// §9.7.9.21 keeps the bits 0x0001, whose ceiling is 1.0 (0x3c01).
    BitwiseOfCnotHalfCvtFoldedAsNumber,
    /// 0c35d334 (corpus/findings/fuzz-h200-4003/, trace/T7F.md; ptxas 13.0.88 and 13.5 -O3, and
    /// the JIT): `shl.b64 d, v, k` by a constant k ≥ 64 of a register v holding one of two
    /// constants a predicate chooses (a `selp` of two constants, or a guarded `mov`/`neg`/… of a
    /// constant over a constant) is folded into the arms of a `SEL` as `c << (k & 63)` (0x100
    /// gives c unshifted, 65 gives c << 1), where §9.7.8.7 clamps the amount (0). Right: a
    /// single constant, a loaded arm, `shr.u64`, `shl.b32`.
    ShlB64OfTwoConstantSelectMasked,
    /// bfed5396 (corpus/findings/fuzz-h200-4103/, trace/T9y4.md; ptxas 13.0.88 -O3 and the JIT,
    /// fixed in 13.5): a register holding 0x7fffffff (a moved immediate) whose one-armed if
    /// (`@p bra L; op r, r…; L:`) rewrites it to 0x7fffffff by an op ptxas evaluates
    /// (`cvt.sat.u32.s32`, `max.s32 r, r, 0`, `and.b32 r, r, 0x7fffffff`, …), split after the
    /// join by `mov.b32 {lo, hi}` with hi read only by 16-bit packs (`mov.b32 {…}`): hi is 0xffff
    /// (`MOV R7, 0xffffffff` for `{hi, hi}`), where §9.7.9.4 gives 0x7fff.
    JoinedMaxS32HighHalfReadAsAllOnes,
    /// 7ec10586 (corpus/findings/fuzz-h200-3901/, trace/T6C.md) on the GPU as 1e6e819c
    /// (corpus/findings/fuzz-h200-4101/, trace/T8x1.md) and 24d5ace8 (fuzz-h200-4102/,
    /// trace/T9y2.md); ptxas 13.0.88 and 13.5 -O3, and the JIT: `xor.b16 d, m, x` (either order)
    /// of `m = xor.b16 lo, hi`, the two halves of one `set.<cmp>.{s32,u32}` mask (0 or −1,
    /// §9.7.7.1; split by `mov.b32`/`mov.b64` unpacks, through packs), where some other
    /// instruction reads the mask too, is compiled as `P0 = (lo ^ hi) != 0` tested over a 32-bit
    /// `PRMT R, mask, 0x7632, R` merge whose upper half is stale or never written, then
    /// `SEL ~x, x, P0` (or `@P0 LOP3 ~`): d is x ^ m (the spec, §9.7.8.3) or its complement.
    /// Set-valued: the two. Right: the same half twice, `and.b16` first, one xor, `x ^ lo ^ hi`
    /// in that order, a loaded word or an `.f32` set, no other reader of the mask.
    XorOfSetMaskHalvesTestedOverMergedHalf,
    /// 3801-N3 (corpus/findings/fuzz-h200-3801/, 04f2039a, trace/T4A.md; fuzz-h200-3903/,
    /// 34d36df1; fuzz-h200-4201/, 33bf5631, trace/audit/T12k1.md; ptxas 13.0.88 and 13.5 -O3,
    /// and the JIT): a plain `cvt.sat.f16.f16 d, s` and the next `.sat` cvt to `.f16` whose
    /// saturation is a separate step (`cvt.{rni,rzi,rmi,rpi}.sat.f16.f16`, or a non-f16 source)
    /// are one `PRMT 0x5410; HADD2.SAT` placed at the second; a guarded write between them that
    /// ptxas predicates in place in s's register (a `cvt` without `.sat`, 16-bit integer ALU
    /// glue) is read by the pack: d is sat(s as it is at the second cvt), where §9.7.9.21
    /// saturates the s it read. Scope in `program/emulate/hadd2_sat_pair_reads_guarded_overwrite.rs`.
    SatCvtPairReadsGuardedOverwrite,
    /// 80274cbb (corpus/findings/fuzz-h200-4503/, 80274cbb, trace/T16t5.md; fuzz-h200-4602/,
    /// d5c92b86, trace/T17t4.md; ptxas 13.0.88 and 13.5 -O3, and the JIT): `cvt.<irnd>.u32.f32`
    /// of `cvt.<rnd>.f32.u32` of `cvt.<irnd'>.u32.f32 x` (unguarded, `mov` copies looked through)
    /// is one `F2I.U32.<irnd>` of x: the first integer rounding is lost (0.99999994 under `.rpi`
    /// then `.rmi` gives 0, where §9.7.9.21 gives 1). `.s32`, `.u64`, `.u16` steps, an
    /// `.f16`/`.f64` middle, an `.f64` source and a guarded step are right
    /// (`program/emulate/u32_round_trip_folded_into_last_cvt.rs`).
    U32RoundTripFoldedIntoLastConversion,
    /// 0c8cc6d5 (corpus/findings/fuzz-h200-4401/, 0c8cc6d5 and 55c9b583, trace/T15t1.md;
    /// fuzz-h200-5801/, c40dc95f, corpus/findings/fuzz-h200-5802/trace/T58C.md; ptxas 13.0.88 and
    /// 13.5 -O3, and the JIT): B's conversion of an f32 shift amount made by two consecutive bare
    /// `cvt.ftz.f32.f32` copies is `F2I.FTZ` without `.TRUNC`: it rounds to nearest (17.625 → 18),
    /// where -O0 truncates (`program/emulate/ftz_copies_drop_f2i_truncation.rs`).
    FtzCopiesDropF2iTruncation,
    /// ba4f6f03 (corpus/findings/fuzz-h200-4402/, ba4f6f03, trace/T15t2.md; fuzz-h200-4602/,
    /// 8d93b13f, trace/T17t4.md; ptxas 13.0.88 and 13.5 -O3, and the JIT): `cvt.sat.{s8,s16}.u32`
    /// of `cnot.b32` of a register clamps the negated 0/−1 mask with an unsigned test (`SEL R0,
    /// RZ, 0xffffffff, !P0; ISETP.GT.U32 P0, R0, 0x80; IMAD.MOV R0, -R0; SEL R0, R0, 0xffffff80,
    /// !P0`): cnot = 1 gives the type's minimum (−128, −32768), where §9.7.7.4 and §9.7.9.21 give
    /// 1 (`program/emulate/sat_s8_s16_of_cnot_clamps_negated_mask.rs`).
    SatS8S16OfCnotClampsNegatedMask,
    /// 17b32162 (corpus/findings/fuzz-h200-4201/, 17b32162, trace/T12a1.md; fuzz-h200-4601/,
    /// 35e392ba and 5417329a, trace/T17t1.md, T17t2.md; ptxas 13.0.88 -O3, 13.5 -O3 where the
    /// loop is not evaluated ahead, and the JIT): a loop-carried negation of 0x7fffffff
    /// (`xor.b32 r, r, 0xffffffff`, `neg.s32 r, r`, `mul.lo r, r, −1`) in a loop ptxas does not
    /// evaluate ahead is held loop-invariant: r stays 0x7fffffff (`MOV R7, 0x7fffffff; STG`),
    /// where an odd trip count gives 0x80000000 (§9.7.8.2)
    /// (`program/emulate/loop_carried_negation_of_max_s32_held_invariant.rs`).
    LoopCarriedNegationOfMaxS32HeldInvariant,
    /// 3702-N7 at a later shuffle (corpus/findings/fuzz-h200-4601/, 746b5bde, trace/T17t1.md;
    /// ptxas 13.0.88 and 13.5 -O3, and the JIT): the predicate of `shfl.sync.bfly` of a constant is
    /// taken as warp-uniform, so a value chosen by it among constants (`@!p mov r, K` over a
    /// constant, `selp`) is too, and a `shfl.sync` of it is dropped: each lane keeps
    /// its own value where §9.7.9.6 moves the source lane's
    /// (`program/emulate/shuffle_of_a_value_selected_by_a_bfly_predicate.rs`).
    ShuffleOfBflyPredicateChoiceDropped,
    /// 119d98cf (corpus/findings/fuzz-h200-4701/, 119d98cf, trace/T18u1.md, trace/119d98cf/ and
    /// its s48/; ptxas 13.0.88 and 13.5 -O3, and the JIT): `cvt.{u32,s32}.u16 r, h` of a half
    /// `cvt.{rn,rz}{.ftz}.{bf16,f16}.f32` wrote (`F2FP….PACK_AB R, RZ, x`) is dropped where a
    /// packed `min`/`max.{u16x2,s16x2}` reads r; the half may be merged over a stale upper half
    /// (`PRMT R0, R3, 0x7610, R0`) that the packed op then reads (§9.7.9.21 zero-extends).
    /// Set-valued: the result's upper half any value, as register allocation leaves it
    /// (`program/emulate/packed_min_max_of_zero_extended_converted_half.rs`).
    ZeroExtensionOfConvertedHalfDroppedAtPackedMinMax,
    /// ace805b3 (corpus/findings/fuzz-h200-4501/, ace805b3, trace/T16t2.md, trace/ace805b3/;
    /// ptxas 13.0.88 and 13.5 -O3, and the JIT): `setp.<cmp>.u16 p, h, K` of an `ld.{u8,u16}` half
    /// (`.s16` of `ld.s8`) packed directly above an e4m3x2/e5m2x2 pair and as a word's low half is
    /// a 32-bit `ISETP` of h's register, which the pack may leave with another half above h
    /// (`PRMT R0, R6, 0x7632, R0`). Set-valued: the spec's predicate or that of a nonzero upper
    /// half (`program/emulate/compare_of_loaded_half_packed_above_fp8_pair.rs`).
    CompareOfLoadedHalfAboveFp8PairOverStaleUpperHalf,
    /// 3801-N1 (corpus/findings/fuzz-h200-3801/, 3a0d32f5 and 2cbe4566, trace/T4B.md, T4C.md;
    /// fuzz-h200-3802/ 2414f1e4; fuzz-h200-4101/ 6ab8329e; fuzz-h200-4703/ 7b1e7594, trace/T18u5.md;
    /// ptxas 13.0.88 -O3 and the JIT, fixed in 13.5): a chain of links `acc = acc + hi(x·y)` —
    /// `mad.hi.{u32,s32} acc, x, y, acc`, or `add acc, acc, h` of one `mul.hi` h — is compiled
    /// into `IMAD.HI d, x, y, R` links that carry acc in the high word of the 64-bit addend pair
    /// R+1:R; ptxas drops a link identical to the one before it (it misses the pair's read of its
    /// own destination), and which links become identical follows its register allocation: the
    /// result is acc + k·hi(x·y) for some k from 1 to the chain's length, where §9.7.1.4 adds
    /// every link. Links under one guard the chain cannot change between them count too
    /// (`.u32`/`.s32`/`.u16`/`.s16`: fuzz-h200-5403/ a4cbab31, 965cd327; 6201's 7ba41d93;
    /// `program/emulate/mad_hi_links_under_one_guard.rs`). Set-valued
    /// (`program/emulate/mad_hi_links_dropped_as_repeats.rs`).
    MadHiChainLosesRepeatedLinks,
    /// c80aa912 (corpus/findings/fuzz-h200-4703/, c80aa912, trace/T18u4.md; ptxas 13.0.88 -O3
    /// and the JIT; 13.5 right): `min.{s32,s64} z, y, 0` of y = `max.{u32,u64} y, x, 0` (either
    /// order, 0 an immediate or a moved one, x a value ptxas does not know) is folded to 0
    /// (`STG … RZ`), y taken as signed non-negative, where §9.7.1.12/13 give x when its sign bit
    /// is set (`program/emulate/min_s32_of_max_u32_by_zero_folded_to_zero.rs`).
    MinS32OfMaxU32ByZeroFoldedToZero,
    /// 592cbe0b (corpus/findings/fuzz-h200-4602/, 592cbe0b, trace/T17t4.md; ptxas 13.0.88 -O3
    /// and the JIT; 13.5 right): `bfind{.shiftamt}.{u64,s64} d, x` reached only by the
    /// fall-through of `setp.ne p, x, K; @p bra` (K a constant ptxas knows) is folded as the
    /// bfind of K's low word moved to the high word, (K & 0xffffffff) << 32 (K = 1 `.shiftamt`:
    /// 31, where §9.7.1.16 gives 63)
    /// (`program/emulate/bfind_64_of_branch_fixed_value_folded_from_low_word.rs`).
    BfindOf64BranchFixedValueFoldedFromLowWord,
    /// d438d526 (corpus/findings/fuzz-h200-4202/, d438d526, trace/T12b1.md; fuzz-h200-4802/,
    /// f2bfc325 and 289df626, trace/T19v4.md; ptxas 13.0.88 -O3 and the JIT; 13.5 right): a
    /// 64-bit multiple of a base x whose multiplier ptxas composes from steps — a run of
    /// `mul.lo.{s64,u64}` by the same ±0x7fffffff, x + ((x << a) << b) with a + b ≥ 32, or (seed
    /// 5901's 8e473ac1, trace/T59C.md) x << k (1 ≤ k < 32) times constants F ≡ 1 mod 2^(32−k) —
    /// read by a 64-bit add/sub of a nonzero immediate is computed with the steps' multiplier
    /// folded to its low word: x ± c (a pair of multiplies, the shifted term), (x << k) ± c, where
    /// §9.7.1.3 / §9.7.1.7 keep the high word's terms
    /// (`program/emulate/multiplier_chain_folded_to_its_low_word.rs`).
    MultiplierChainFoldedToItsLowWord,
    /// 1c2ac943 (corpus/findings/fuzz-h200-4203/, 1c2ac943, trace/T12c3.md; fuzz-h200-5001/,
    /// b9401452, trace/T21b.md; ptxas 13.0.88 -O3 and the JIT; 13.5 right): `shr.s32 d, y, b` of
    /// y = `shr.s32 y, x, a` (immediates) of an x with n known leading ones (an `or.b32` with an
    /// immediate, less a `shl.b32`'s amount) is folded to 0 when a + b ≥ 32 and n + a ≤ 4, where
    /// §9.7.8.8 fills with the sign (−1); `or.b32 d, y, K` with K's sign bit set (its other bits
    /// known ones of y) is y + 2^31 (seed 5601's 958b8f4e); y ranged as `shr.u32 x, a`: an
    /// `and.b32 d, y, K` with K inside y's known ones is K less its top a bits (seed 5702's
    /// f9ec76ad), a `setp` of y and an immediate outside [ones(n) >> a, 0xffffffff >> a] decided
    /// by that range (seed 5703's 5ff8f0a0; trace T57B.md)
    /// (`program/emulate/chained_shr_s32_of_known_ones_folded_to_zero.rs`).
    ChainedShrS32OfKnownOnesFoldedToZero,
    /// 2b9b7b3e (corpus/findings/fuzz-h200-5003/, 2b9b7b3e, trace/T21e.md; ptxas 13.0.88 -O3 and
    /// the JIT; 13.5 right): a `cvt.sat.f64.f64` in the arm of a forward branch whose result is
    /// read only through its low word, beside a live unguarded `cvt.sat.f64.f64` outside the arm,
    /// has the low word of its clamp min(x', 1.0) selected by x' == 0 (`DSETP.EQ`): 0, where
    /// §9.7.9.21 keeps x' in (0, 1) and its low word
    /// (`program/emulate/arm_sat_f64_low_word_clamped_by_zero_test.rs`).
    ArmSatF64LowWordClampedByZeroTest,
    /// 59da91ec (corpus/findings/fuzz-h200-4802/, 59da91ec, trace/T19v3.md; fuzz-h200-5001/,
    /// b1ed167e, trace/T21a.md; ptxas 13.0.88 -O3 and the JIT; 13.5 right): an fp8 pair
    /// `cvt.rn.satfinite.{e4m3x2,e5m2x2}.f16x2 h` packed right after as the low half of a word
    /// is built only in the pack's word: in an arm (`@p bra L; cvt; pack; L:`, h written before),
    /// h's later reads keep its old value; before an arm that rewrites a 64-bit pack, they read a
    /// register nothing wrote (set-valued: any value), where §9.7.9.21 gives the pair
    /// (`program/emulate/fp8_pair_built_only_in_its_pack.rs`).
    Fp8PairBuiltOnlyInItsPack,
    /// 63aaaadc (corpus/findings/fuzz-h200-5001/, 63aaaadc, trace/T21a.md; ptxas 13.0.88 -O3 and
    /// the JIT; 13.5 right): in the arm of a one-armed `if`, `sub.{s32,u32} d, x, K` (or `neg.s32
    /// d, K`) of K = 0x7fffffff evaluated there (`xor`/`or`/`add` of a constant moved before the
    /// branch and an immediate) gives x + K (K), where §9.7.1.2 gives x − K (§9.7.1 `neg`: −K)
    /// (`program/emulate/negation_of_max_s32_evaluated_in_an_arm_dropped.rs`).
    NegationOfMaxS32EvaluatedInAnArmDropped,
    /// c6d3ed97 (corpus/findings/fuzz-h200-5001/, c6d3ed97, trace/T21b.md; ptxas 13.0.88 -O3 and
    /// the JIT; 13.5 right): the carry of `sub.cc.{s32,u32} d, z, K` (`add.cc`, z either side) of
    /// z = `shl.b32 y, n` that is 0 by known bits and a constant K ≠ 0 is the carry-in PT (no
    /// borrow; a carry), where §9.7.2.3 (0 − K borrows) and §9.7.2.1 (0 + K does not carry) give
    /// the opposite (`program/emulate/carry_of_known_zero_shl_and_constant_set.rs`).
    CarryOfKnownZeroShlAndConstantSet,
    /// df7cd5e3 (corpus/findings/fuzz-h200-4803/, df7cd5e3, trace/T19v2.md; fuzz-h200-5001/,
    /// 3c82b3dd, trace/T21a.md; ptxas 13.0.88 -O3 and the JIT; 13.5 right): two signed `min`
    /// (or `max`) of one type (`.s16`, `.s32`), the outer reading the inner's result, fused into
    /// one `VIMNMX3` that reads x where the inner's operand is −x (`neg`, `sub 0, x`, `mul.wide.s16
    /// x, -1`; under `.u16`/`.u32` a `cnot`'s mask: 6202's 1623a931): op(b, op(a, x)), §9.7.1 op(b,
    /// op(a, −x)) (`program/emulate/negation_inside_fused_min_max_read_as_its_source.rs`).
    NegationInsideFusedMinMaxReadAsItsSource,
    /// eb1853bf (corpus/findings/fuzz-h200-4803/, eb1853bf, trace/T19v5.md; fuzz-h200-5002/,
    /// 3fdedd5c, trace/T21c.md; ptxas 13.0.88 and 13.5 -O3 and the JIT): `neg.s32` of an
    /// `addc`/`subc` N read (alone) as the first operand of the next `addc`/`subc` is folded into
    /// its `IADD3.X`, N's carry-in added where §9.7.2 and the negation subtract it: the result is
    /// the spec's + 2·(N's SASS carry-in)
    /// (`program/emulate/negated_carry_op_folded_keeps_its_carry_in_added.rs`).
    NegatedCarryOpFoldedKeepsItsCarryInAdded,
    /// 4b68821e (corpus/findings/fuzz-h200-4203/, 4b68821e, trace/T12c3.md; fuzz-h200-5101/,
    /// 9033ff50 and 007db41c, trace/T22a.md; ptxas 13.0.88 and 13.5 -O3, and the JIT):
    /// `cvt.rzi.<int>.f32` of `cvt.{u32,s32}.u16` of `cvt.<rnd>.{f16,bf16}.f32 x` is one `F2I` of
    /// x rounding as the first cvt (`.rn`: nearest): x = 8.12e8 gives 0x7fff to `.s16`, where
    /// §9.7.9.21 converts the half's bits read as an f32 (a subnormal: 0); the other way round
    /// (fuzz-h200-5601/, b97651e9 and 46c959cd, trace/T56D.md), `cvt.rzi.<int>.{f16,bf16}` of
    /// `cvt.{s16,u16}.{u32,s32}` of `cvt{.ftz}.f32.f16 x` (or `cvt.ftz.f32.bf16`) is one `F2I` of
    /// x's bits to nearest, where the f32's low half is 0 for every bf16
    /// (`program/emulate/f2i_of_half_bits_fused_with_float_source.rs`).
    F2iOfHalfBitsFusedWithFloatSource,
    /// d88aeb3a (corpus/findings/fuzz-h200-5103/, d88aeb3a and a27dfeaf, trace/T22c.md; ptxas
    /// 13.0.88 and 13.5 -O3, and the JIT): a branch arm's 64-bit repack `mov.b64 {lo, hi}, d;
    /// <ld new>; mov.b64 d, {new, lo}`, beside a branch testing a loaded word or an acquire/relaxed load,
    /// loads new into lo's register and copies it up: the high word is new, where §9.7.9.4 gives
    /// the old low word lo; a new word computed in the arm from no word of d likewise, in either
    /// orientation (seed 5403's 9121bc6c: `{hi, new}`, the low word new)
    /// (`program/emulate/b64_repack_in_an_arm_loads_new_word_over_old_low.rs`).
    B64RepackInAnArmLoadsNewWordOverOldLow,
    /// 63f83d6e (corpus/findings/fuzz-h200-5402/, 63f83d6e, trace/T54S.md; ptxas 13.0.88 and 13.5
    /// -O3, and the JIT): `mov.b32 w, {p, h}` of an fp8 pair p (`F2FP…MERGE_C` into another
    /// register, w also read whole), h then written in a branch arm (if-converted in place in h's
    /// register), and w's high half unpacked after the join: the half is h's value after the arm,
    /// where §9.7.9.4 gives the packed h
    /// (`program/emulate/pack_high_half_read_from_its_half_after_a_guarded_write.rs`).
    PackHighHalfReadFromItsHalfAfterAGuardedWrite,
    /// 7a05c905 (corpus/findings/fuzz-h200-5403/, 7a05c905, trace/T54S.md; ptxas 13.0.88 and 13.5
    /// -O3, and the JIT): `cvt.{u16,s16}.{s32,u32}` of a `prmt.b32` byte and a later
    /// `cvt.<int>.u8` of it, a guarded write of the byte's source x between, are one byte extract
    /// of x placed at the second cvt: the byte of x's new value, where §9.7.9.7 gives the byte of
    /// x the prmt read
    /// (`program/emulate/prmt_byte_narrowed_past_a_guarded_write_of_its_source.rs`).
    PrmtByteNarrowedPastAGuardedWriteOfItsSource,
    /// b33158de (corpus/findings/fuzz-h200-5403/, b33158de, trace/T54S.md; ptxas 13.0.88 and 13.5
    /// -O3, and the JIT): −|x| (`neg.s64`/`sub.s64 0` of `abs.s64 x`) is taken as below every
    /// negative constant K: `max.s64` gives K, `min.s64` −|x|, a signed `setp`/`set` the truth of
    /// −|x| < K, where §9.7.1 gives 0 for x = 0
    /// (`program/emulate/negated_abs_s64_below_every_negative_constant.rs`).
    NegatedAbsS64BelowEveryNegativeConstant,
}

impl Deviation {
    /// Every deviation, in triage order.
    pub const ALL: [Deviation; 85] = [
        Deviation::ReduceAddF32KeepsSubnormals,
        Deviation::NarrowStoreOfFloatCvt,
        Deviation::F32ShiftAmount,
        Deviation::Tf32OfPackedHalf,
        Deviation::Bf16ReadAsF16,
        Deviation::NegationOverflow,
        Deviation::ShrS16By16ReadsSource,
        Deviation::DirectedRoundingFoldedIntoInt,
        Deviation::CvtS64U32SignExtends,
        Deviation::F16MaskDropped,
        Deviation::CvtU8S8OfF16Dropped,
        Deviation::BfeS32PastMsbAllOnes,
        Deviation::UnsignedBelowZeroOfSet,
        Deviation::SkippedSetSignExtends,
        Deviation::U8ExtensionOfE4m3x2Dropped,
        Deviation::Shift16ImmediateLowHalf,
        Deviation::SubCcOfAbsZeroBorrows,
        Deviation::SetRoundTripFolded,
        Deviation::FloatSatOfIntSatDropped,
        Deviation::SatCvtOfByteBfeSigned,
        Deviation::SlctS32ByMinImmediateSelectsA,
        Deviation::ShlChainFoldedIntoLea,
        Deviation::CnotOfSetCvtConvertedAsNumber,
        Deviation::SubCcOfMulHiZeroBorrows,
        Deviation::IntSatOfNanCvtFolded,
        Deviation::Shift16ByCnotAmountUnwritten,
        Deviation::XorOfBranchConstantDropsInversion,
        Deviation::NegOfSetF32HalvesReadAsBoolean,
        Deviation::SubcOfBranchConstantAddsIt,
        Deviation::S8RoundTripThrough64SignExtends32,
        Deviation::ShrS16ByU32CvtConvertsAsS16,
        Deviation::WidenedSetF32ComparedWithZeroIs0Or1,
        Deviation::UnsignedLoopExitTestCountedSigned,
        Deviation::PackOfU32CvtFusedSigned,
        Deviation::BfiConstantLengthTakenMod32,
        Deviation::ShlB64OfProductByConstantDropped,
        Deviation::XorOfSetAndCnotGivesOneMinus,
        Deviation::SetpEqOneOfSetTestsTheSet,
        Deviation::ShrS16ByCnotClampFolded,
        Deviation::BranchConstantHighHalfIsItsLowHalf,
        Deviation::AddU16x2OfConstantsNarrowedDropsOne,
        Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet,
        Deviation::SetpEqOfMinMaxReadsSelection,
        Deviation::JoinOfMinusOneAndOneF32Merged,
        Deviation::Lop3MergedIntoXorReadsX,
        Deviation::ByteOfVectorLoadU32CvtConvertsSigned,
        Deviation::PrmtSignOfANarrowedReadsZero,
        Deviation::Shift16ByFtzU32CvtFlushDropped,
        Deviation::IntSatS16OfU32CvtFoldedSigned,
        Deviation::MergeCInPlaceDestroysLiveHalf,
        Deviation::SubOfShuffledImmediateReversedInMinMax,
        Deviation::PackOfNanCvtAndConstantDropped,
        Deviation::Fp8UnpackOfZeroExtendedTopHalfImmediate,
        Deviation::ZeroExtendedHighHalfReadAsTheValue,
        Deviation::AddOfCnotFunnelShiftNegatedInLeaHi,
        Deviation::BitwiseOfCnotHalfCvtFoldedAsNumber,
        Deviation::ShlB64OfTwoConstantSelectMasked,
        Deviation::JoinedMaxS32HighHalfReadAsAllOnes,
        Deviation::XorOfSetMaskHalvesTestedOverMergedHalf,
        Deviation::SatCvtPairReadsGuardedOverwrite,
        Deviation::SetpOneOfF32SetOfWideSourceTestsTheSet,
        Deviation::MulHiByOneOfLoadedHalfReadAsLowHalf,
        Deviation::U32RoundTripFoldedIntoLastConversion,
        Deviation::FtzCopiesDropF2iTruncation,
        Deviation::SatS8S16OfCnotClampsNegatedMask,
        Deviation::LoopCarriedNegationOfMaxS32HeldInvariant,
        Deviation::ShuffleOfBflyPredicateChoiceDropped,
        Deviation::ZeroExtensionOfConvertedHalfDroppedAtPackedMinMax,
        Deviation::CompareOfLoadedHalfAboveFp8PairOverStaleUpperHalf,
        Deviation::MadHiChainLosesRepeatedLinks,
        Deviation::MinS32OfMaxU32ByZeroFoldedToZero,
        Deviation::BfindOf64BranchFixedValueFoldedFromLowWord,
        Deviation::MultiplierChainFoldedToItsLowWord,
        Deviation::ChainedShrS32OfKnownOnesFoldedToZero,
        Deviation::ArmSatF64LowWordClampedByZeroTest,
        Deviation::Fp8PairBuiltOnlyInItsPack,
        Deviation::NegationOfMaxS32EvaluatedInAnArmDropped,
        Deviation::CarryOfKnownZeroShlAndConstantSet,
        Deviation::NegationInsideFusedMinMaxReadAsItsSource,
        Deviation::NegatedCarryOpFoldedKeepsItsCarryInAdded,
        Deviation::F2iOfHalfBitsFusedWithFloatSource,
        Deviation::B64RepackInAnArmLoadsNewWordOverOldLow,
        Deviation::PackHighHalfReadFromItsHalfAfterAGuardedWrite,
        Deviation::PrmtByteNarrowedPastAGuardedWriteOfItsSource,
        Deviation::NegatedAbsS64BelowEveryNegativeConstant,
    ];

    /// The deviations of one interpreter, in triage order.
    pub fn of(scope: Scope) -> impl Iterator<Item = Deviation> {
        Self::ALL.into_iter().filter(move |d| d.scope() == scope)
    }

    /// The name a `corpus/known/` entry gives it (`emulation = "NAME"`).
    pub fn name(self) -> &'static str {
        match self {
            Deviation::ReduceAddF32KeepsSubnormals => "reduce-add-f32-keeps-subnormals",
            Deviation::NarrowStoreOfFloatCvt => "narrow-store-of-float-cvt",
            Deviation::F32ShiftAmount => "f32-shift-amount",
            Deviation::Tf32OfPackedHalf => "tf32-of-packed-half",
            Deviation::Bf16ReadAsF16 => "bf16-read-as-f16",
            Deviation::NegationOverflow => "negation-overflow",
            Deviation::ShrS16By16ReadsSource => "shr-s16-by-16-reads-its-source",
            Deviation::DirectedRoundingFoldedIntoInt => "directed-rounding-folded-into-int",
            Deviation::CvtS64U32SignExtends => "cvt-s64-u32-sign-extends",
            Deviation::F16MaskDropped => "f16-mask-dropped",
            Deviation::CvtU8S8OfF16Dropped => "cvt-u8-s8-of-f16-dropped",
            Deviation::BfeS32PastMsbAllOnes => "bfe-s32-past-msb-all-ones",
            Deviation::UnsignedBelowZeroOfSet => "unsigned-below-zero-of-set",
            Deviation::SkippedSetSignExtends => "skipped-set-sign-extends",
            Deviation::U8ExtensionOfE4m3x2Dropped => "u8-extension-of-e4m3x2-dropped",
            Deviation::Shift16ImmediateLowHalf => "shift16-immediate-low-half",
            Deviation::SubCcOfAbsZeroBorrows => "sub-cc-of-abs-zero-borrows",
            Deviation::SetRoundTripFolded => "set-round-trip-through-float-folded",
            Deviation::FloatSatOfIntSatDropped => "float-sat-of-int-sat-dropped",
            Deviation::SatCvtOfByteBfeSigned => "sat-cvt-of-byte-bfe-signed",
            Deviation::SlctS32ByMinImmediateSelectsA => "slct-s32-by-min-immediate-selects-a",
            Deviation::ShlChainFoldedIntoLea => "shl-b64-chain-folded-into-lea",
            Deviation::CnotOfSetCvtConvertedAsNumber => "cnot-of-set-cvt-converted-as-number",
            Deviation::SubCcOfMulHiZeroBorrows => "sub-cc-of-mul-hi-zero-borrows",
            Deviation::IntSatOfNanCvtFolded => "int-sat-of-nan-cvt-folded",
            Deviation::Shift16ByCnotAmountUnwritten => "shift16-by-cnot-amount-unwritten",
            Deviation::XorOfBranchConstantDropsInversion => "xor-of-branch-constant-drops-inversion",
            Deviation::NegOfSetF32HalvesReadAsBoolean => "neg-of-set-f32-halves-read-as-boolean",
            Deviation::SubcOfBranchConstantAddsIt => "subc-of-branch-constant-adds-it",
            Deviation::S8RoundTripThrough64SignExtends32 => "s8-round-trip-through-64-sign-extends-32",
            Deviation::ShrS16ByU32CvtConvertsAsS16 => "shr-s16-by-u32-cvt-converts-as-s16",
            Deviation::WidenedSetF32ComparedWithZeroIs0Or1 => "widened-set-f32-compared-with-zero-is-0-or-1",
            Deviation::UnsignedLoopExitTestCountedSigned => "unsigned-loop-exit-test-counted-signed",
            Deviation::PackOfU32CvtFusedSigned => "pack-s8-of-u32-cvt-fused-signed",
            Deviation::BfiConstantLengthTakenMod32 => "bfi-constant-length-mod-32",
            Deviation::ShlB64OfProductByConstantDropped => "shl-b64-of-product-by-64-dropped",
            Deviation::XorOfSetAndCnotGivesOneMinus => "xor-of-set-and-cnot-gives-one-minus",
            Deviation::SetpEqOneOfSetTestsTheSet => "setp-eq-one-of-set-tests-the-set",
            Deviation::ShrS16ByCnotClampFolded => "shr-s16-by-cnot-clamp-folded",
            Deviation::BranchConstantHighHalfIsItsLowHalf => "branch-constant-high-half-is-its-low-half",
            Deviation::AddU16x2OfConstantsNarrowedDropsOne => "add-u16x2-of-constants-narrowed-drops-one",
            Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet => "cvt-of-set-f32-converts-1-beside-xor-of-set",
            Deviation::SetpEqOfMinMaxReadsSelection => "setp-eq-of-min-max-reads-selection",
            Deviation::JoinOfMinusOneAndOneF32Merged => "join-of-minus-one-and-one-f32-merged",
            Deviation::Lop3MergedIntoXorReadsX => "lop3-merged-into-xor-reads-x",
            Deviation::ByteOfVectorLoadU32CvtConvertsSigned => "byte-of-vector-load-u32-cvt-converts-signed",
            Deviation::PrmtSignOfANarrowedReadsZero => "prmt-sign-of-a-narrowed-reads-zero",
            Deviation::Shift16ByFtzU32CvtFlushDropped => "shift16-by-ftz-u32-cvt-flush-dropped",
            Deviation::IntSatS16OfU32CvtFoldedSigned => "int-sat-s16-of-u32-cvt-folded-signed",
            Deviation::MergeCInPlaceDestroysLiveHalf => "merge-c-in-place-destroys-live-half",
            Deviation::SubOfShuffledImmediateReversedInMinMax => "sub-of-shuffled-immediate-reversed-in-min-max",
            Deviation::PackOfNanCvtAndConstantDropped => "pack-of-nan-cvt-and-constant-dropped",
            Deviation::Fp8UnpackOfZeroExtendedTopHalfImmediate => "fp8-unpack-of-zero-extended-top-half-immediate",
            Deviation::ZeroExtendedHighHalfReadAsTheValue => "zero-extended-high-half-read-as-the-value",
            Deviation::AddOfCnotFunnelShiftNegatedInLeaHi => "add-of-cnot-funnel-shift-negated-in-lea-hi",
            Deviation::BitwiseOfCnotHalfCvtFoldedAsNumber => "bitwise-of-cnot-half-cvt-folded-as-number",
            Deviation::ShlB64OfTwoConstantSelectMasked => "shl-b64-of-two-constant-select-masked",
            Deviation::JoinedMaxS32HighHalfReadAsAllOnes => "joined-0x7fffffff-high-half-read-as-0xffff",
            Deviation::XorOfSetMaskHalvesTestedOverMergedHalf => "xor-of-set-mask-halves-tested-over-merged-half",
            Deviation::SatCvtPairReadsGuardedOverwrite => "hadd2-sat-pair-reads-guarded-overwrite",
            Deviation::SetpOneOfF32SetOfWideSourceTestsTheSet => "setp-one-of-f32-set-of-wide-source-tests-the-set",
            Deviation::MulHiByOneOfLoadedHalfReadAsLowHalf => "mul-hi-by-one-of-loaded-half-read-as-low-half",
            Deviation::U32RoundTripFoldedIntoLastConversion => "u32-round-trip-folded-into-last-conversion",
            Deviation::FtzCopiesDropF2iTruncation => "ftz-copies-drop-f2i-truncation",
            Deviation::SatS8S16OfCnotClampsNegatedMask => "sat-s8-of-cnot-clamps-negated-mask",
            Deviation::LoopCarriedNegationOfMaxS32HeldInvariant => "loop-carried-negation-of-max-s32-held-invariant",
            Deviation::ShuffleOfBflyPredicateChoiceDropped => "shuffle-of-bfly-predicate-choice-dropped",
            Deviation::ZeroExtensionOfConvertedHalfDroppedAtPackedMinMax => {
                "zero-extension-of-converted-half-dropped-at-packed-min-max"
            }
            Deviation::CompareOfLoadedHalfAboveFp8PairOverStaleUpperHalf => {
                "compare-of-loaded-half-above-fp8-pair-over-stale-upper-half"
            }
            Deviation::MadHiChainLosesRepeatedLinks => "mad-hi-chain-loses-repeated-links",
            Deviation::MinS32OfMaxU32ByZeroFoldedToZero => "min-s32-of-max-u32-by-zero-folded-to-zero",
            Deviation::BfindOf64BranchFixedValueFoldedFromLowWord => {
                "bfind-64-of-branch-fixed-value-folded-from-low-word"
            }
            Deviation::MultiplierChainFoldedToItsLowWord => "multiplier-chain-folded-to-its-low-word",
            Deviation::ChainedShrS32OfKnownOnesFoldedToZero => "chained-shr-s32-of-known-ones-folded-to-zero",
            Deviation::ArmSatF64LowWordClampedByZeroTest => "arm-sat-f64-low-word-clamped-by-zero-test",
            Deviation::Fp8PairBuiltOnlyInItsPack => "fp8-pair-built-only-in-its-pack",
            Deviation::NegationOfMaxS32EvaluatedInAnArmDropped => "negation-of-max-s32-evaluated-in-an-arm-dropped",
            Deviation::CarryOfKnownZeroShlAndConstantSet => "carry-of-known-zero-shl-and-constant-set",
            Deviation::NegationInsideFusedMinMaxReadAsItsSource => "negation-inside-fused-min-max-read-as-its-source",
            Deviation::NegatedCarryOpFoldedKeepsItsCarryInAdded => "negated-carry-op-folded-keeps-its-carry-in-added",
            Deviation::F2iOfHalfBitsFusedWithFloatSource => "f2i-of-f16-bits-read-as-f32-fused-with-source",
            Deviation::B64RepackInAnArmLoadsNewWordOverOldLow => {
                "b64-repack-in-an-arm-loads-the-new-low-word-over-the-old"
            }
            Deviation::PackHighHalfReadFromItsHalfAfterAGuardedWrite => {
                "pack-high-half-read-from-its-half-after-a-guarded-write"
            }
            Deviation::PrmtByteNarrowedPastAGuardedWriteOfItsSource => {
                "prmt-byte-narrowed-past-a-guarded-write-of-its-source"
            }
            Deviation::NegatedAbsS64BelowEveryNegativeConstant => "negated-abs-s64-below-every-negative-constant",
        }
    }

    /// The deviation called `name`.
    pub fn from_name(name: &str) -> Option<Deviation> {
        Self::ALL.into_iter().find(|d| d.name() == name)
    }

    /// Which interpreter it changes.
    pub fn scope(self) -> Scope {
        match self {
            Deviation::ReduceAddF32KeepsSubnormals => Scope::Memory,
            _ => Scope::Program,
        }
    }

    /// Whether the emulation gives a set of values where the deviation applies: any value, or
    /// (for [`Deviation::XorOfSetMaskHalvesTestedOverMergedHalf`]) the spec's or its complement
    /// (see the module docs).
    pub fn set_valued(self) -> bool {
        matches!(
            self,
            Deviation::NarrowStoreOfFloatCvt
                | Deviation::Tf32OfPackedHalf
                | Deviation::NegationOverflow
                | Deviation::Shift16ByCnotAmountUnwritten
                | Deviation::PackOfNanCvtAndConstantDropped
                | Deviation::Fp8UnpackOfZeroExtendedTopHalfImmediate
                | Deviation::XorOfSetMaskHalvesTestedOverMergedHalf
                | Deviation::UnsignedLoopExitTestCountedSigned
                | Deviation::ZeroExtensionOfConvertedHalfDroppedAtPackedMinMax
                | Deviation::CompareOfLoadedHalfAboveFp8PairOverStaleUpperHalf
                | Deviation::MadHiChainLosesRepeatedLinks
                | Deviation::Fp8PairBuiltOnlyInItsPack
        )
    }

    /// The input class a finding it explains carries: for the memory-program deviation the class
    /// its `corpus/known/` entry matches (`f32-subnormal-add`), for the others its name.
    pub fn input_class(self) -> &'static str {
        match self {
            Deviation::ReduceAddF32KeepsSubnormals => "f32-subnormal-add",
            d => d.name(),
        }
    }

    /// Whether the instruction with opcode `opcode` is one the memory-program deviation
    /// concerns: for [`Deviation::ReduceAddF32KeepsSubnormals`], `.add.f32` bulk reductions and
    /// the `.add` tensor reductions (whose opcode carries no type; the emulation changes only
    /// their f32 elements). The evidence covers the non-tensor form, so the known entry matches
    /// only that; a tensor reduction the emulation explains is reported under its own form.
    /// Register-program deviations concern no memory-program opcode.
    pub fn concerns(self, opcode: &str) -> bool {
        match self {
            Deviation::ReduceAddF32KeepsSubnormals => {
                let tensor = opcode.starts_with("cp.reduce.async.bulk.tensor.");
                opcode.starts_with("cp.reduce.async.bulk.")
                    && opcode.contains(".add.")
                    && (tensor || opcode.ends_with(".f32"))
            }
            _ => false,
        }
    }
}

mod evidence;

#[cfg(test)]
mod tests;
