//! The test hook of the program oracle: a deliberately wrong rule that a run can be told to
//! use ([`RunOptions::plant`](super::interp::RunOptions::plant)), so that tests of a campaign
//! can check that it finds, minimizes and reports a disagreement (`ptxdiff fuzz --plant-bug`, in builds with the runner's `test-hooks` feature).
//!
//! Invariant: without a plant (the default, and every real run) nothing here changes a result;
//! this module is the only place that knows what a plant does.

use super::glue::{Glue, GlueOp};

/// A deliberately wrong rule (never used by the tool's real runs).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plant {
    /// `xor` computes `or`.
    XorAsOr,
    /// `mul.hi` computes `mul.lo`: a bug only in an instruction the generator builds when its
    /// `glue_mul` group is on (tests of mutants, which reach it by replacing other glue).
    MulHiAsLo,
}

/// The glue instruction the oracle evaluates in place of `g` under `plant`.
pub(super) fn glue(plant: Option<Plant>, g: &Glue) -> Glue {
    match plant {
        Some(Plant::XorAsOr) if g.op == GlueOp::Xor => Glue { op: GlueOp::Or, ..*g },
        Some(Plant::MulHiAsLo) if g.op == GlueOp::MulHi => Glue { op: GlueOp::MulLo, ..*g },
        _ => *g,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_planted_run_changes_xor() {
        let g = Glue::parse("xor.b32 %r1, %r2, %r3;").unwrap();
        assert_eq!(glue(None, &g), g);
        assert_eq!(glue(Some(Plant::XorAsOr), &g).op, GlueOp::Or);
        let and = Glue::parse("and.b32 %r1, %r2, %r3;").unwrap();
        assert_eq!(glue(Some(Plant::XorAsOr), &and), and);
        let hi = Glue::parse("mul.hi.u32 %r1, %r2, %r3;").unwrap();
        assert_eq!(glue(Some(Plant::MulHiAsLo), &hi).op, GlueOp::MulLo);
        assert_eq!(glue(Some(Plant::XorAsOr), &hi), hi);
    }
}
