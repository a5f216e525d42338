//! Root cause G (`shr-s16-by-16-reads-its-source`) of a NEGATIVE source: the shift by 16 of a
//! value a scalar sign-extending load left in its register (seed 4602's af46c5e9,
//! corpus/findings/fuzz-h200-4602/trace/T17t3.md, variants in trace/af46c5e9/ and its s46/).
//!
//! The mechanism the listings show (ptxas 13.0.88 -O3, 13.5 the same): `ld.global.s16 h0;
//! shr.s16 h1, h0, 16; cvt.f16.bf16 h5, h1` is `LDG.E.S16 R2; F2F.F16.BF16 R7, R2`. The load
//! sign-extends into the 32-bit register, so the shift (§9.7.8.8: the sign fill, 0 or 0xffff) is
//! that register's high half (`R2.H1`, which the listing reads where the shift is also stored,
//! `v3_stored_shift`); the cvt drops the `.H1` selector and converts the unshifted source,
//! whatever its sign (ptxas cannot know the sign of a load): bf16 0xc7b9 → f16 −inf 0xfc00 where
//! the spec gives an f16 NaN. Wrong alike: `ld.global.nc.s16` (s46/v6), `ld.s8` into the 16-bit
//! register (s46/v8), an `or.b16 0` between (s46/v10, through G's identity glue), and
//! `cvt.rzi.f16.f16` (`v5`, `FRND.F16.TRUNC R7, R2`). Right (the extension computed, `PRMT
//! 0x9910` read `.H1`): `ld.u16` (`v1`), `ld.b16` (s46/v11), the half of an `ld.s32` unpack
//! (s46/v9), an `or.b16 0x8000` of the load (s46/v12), a shift by 15 (`v2`).
//!
//! Invariants: a query only; G's value stays the cvt of the source, admitted beside the spec's
//! (emulate.rs), and a non-negative source is G's old scope whatever its producer.

use crate::isa::types::MemType;
use crate::isa::{Form, Instruction};
use crate::program::exec::Machine;
use crate::program::Stmt;

use super::origin::Origin;

/// Whether `shift`, the origin of a `shr.s16 … 16` result, read a value an unguarded scalar
/// sign-extending load (`ld.s16`, `ld.s8`, or their `ld.global.nc` forms) wrote: then a half cvt
/// of the shift converts the loaded value for either sign.
pub(super) fn shifted_signed_load(m: &Machine<'_>, shift: &Origin) -> bool {
    let signed = |ty: MemType| matches!(ty, MemType::S16 | MemType::S8);
    match shift.a_stmt.and_then(|k| m.p.body.get(k)) {
        Some(Stmt::Isa(Instruction { form: Form::Ld(l), guard: None, .. })) => l.vec.is_none() && signed(l.ty),
        Some(Stmt::Isa(Instruction { form: Form::LdGlobalNc(l), guard: None, .. })) => l.vec.is_none() && signed(l.ty),
        _ => false,
    }
}
