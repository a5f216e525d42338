//! E and I at a `cvt.rzi` of a cvt between halves (`emulate.rs`'s [`super::isa`] asks it
//! first for such a pair): the two conversions folded into one (`Bf16ReadAsF16`,
//! `DirectedRoundingFoldedIntoInt`; corpus/known's E and I entries). Nothing changes without
//! the deviations.

use super::values::{convert, half};
use crate::isa::{Cvt, CvtRnd, Form};
use crate::program::exec::Machine;
use crate::semantics::{Deviation, Expected};

/// E and I: `cvt.rzi.<int>.{f16,bf16}` (`c`) of a cvt `c0` between f16 and bf16 (source value
/// `first_a`) is folded with it: the first cvt's source bits, read as the integer cvt's source
/// type, rounded in the first cvt's direction (to nearest without one; an integer rounding of
/// the first cvt rounds the same way, `F2I.BF16.CEIL` for `.rpi`). I where that direction is
/// toward +inf or -inf (.rp, .rm, .rpi, .rmi). The result at the integer cvt's own width.
pub(super) fn half_cvt_folded(
    m: &Machine<'_>,
    c: Cvt,
    c0: Cvt,
    first_a: Option<&Expected>,
) -> Option<(Deviation, Expected)> {
    let float_to_int = c.dtype.is_int() && half(c.atype) && c.rnd == Some(CvtRnd::Rzi);
    let directed = matches!(c0.rnd, Some(CvtRnd::Rp | CvtRnd::Rm | CvtRnd::Rpi | CvtRnd::Rmi));
    let d = if directed { Deviation::DirectedRoundingFoldedIntoInt } else { Deviation::Bf16ReadAsF16 };
    if !(m.allow.emulates(d) && float_to_int && half(c0.dtype) && half(c0.atype)) {
        return None;
    }
    let rnd = match c0.rnd {
        Some(CvtRnd::Rp | CvtRnd::Rpi) => CvtRnd::Rpi,
        Some(CvtRnd::Rm | CvtRnd::Rmi) => CvtRnd::Rmi,
        Some(CvtRnd::Rz | CvtRnd::Rzi) => CvtRnd::Rzi,
        _ => CvtRnd::Rni,
    };
    let folded = Form::Cvt(Cvt { rnd: Some(rnd), ..c });
    let v = first_a.filter(|x| x.is_exact()).and_then(|x| convert(m, &folded, x.bits & 0xFFFF))?;
    Some((d, v))
}
