//! Semantics of `shfl.sync` (§9.7.9.6) and the deprecated `shfl` (§9.7.9.5) as warp-level
//! operations: all 32 lanes at once, with the set of active lanes.
//!
//! Each lane computes its source lane `j` from its own `b[4:0]`, clamp `c[4:0]` and segment
//! mask `c[12:8]` by the Semantics pseudocode; when `j` is out of range it reads its own `a`.
//! Results the spec leaves undefined are sets:
//! - a lane that reads `a` from a lane that is inactive, or (`shfl.sync`) outside `membermask`,
//!   gets an unspecified `d` (its `p` is still defined: it depends only on `b` and `c`);
//! - a lane that executes `shfl.sync` but is not in its own `membermask`, or whose
//!   `membermask` differs from another participating lane's, gets unspecified `d` and `p`
//!   ("the behavior of shfl.sync is undefined if the executing thread is not in the
//!   membermask"; all threads must use "the same membermask value");
//! - inactive lanes produce nothing (their results are unspecified: they do not execute).

use crate::isa::ShflMode;

use super::{Allowance, Constraint, Expected, Free};

/// One lane's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaneIn {
    /// `a`.
    pub a: u32,
    /// `b`.
    pub b: u32,
    /// `c`.
    pub c: u32,
    /// `membermask` (ignored by the deprecated `shfl`).
    pub membermask: u32,
}

/// One lane's results: `d` and the predicate `p` (`None`: unspecified).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneOut {
    /// `d`.
    pub d: Expected,
    /// `p`, or `None` when unspecified.
    pub p: Option<bool>,
}

fn unspecified32(a: Allowance) -> Expected {
    Expected { bits: 0, width: 32, free: vec![Free { shift: 0, width: 32, constraint: Constraint::Any, allowance: a }] }
}

/// Source lane and in-range flag for `lane` (§9.7.9.6 Semantics).
pub fn source_lane(mode: ShflMode, lane: u32, b: u32, c: u32) -> (u32, bool) {
    let bval = b & 0x1F;
    let cval = c & 0x1F;
    let segmask = (c >> 8) & 0x1F;
    let max_lane = (lane & segmask) | (cval & !segmask);
    let min_lane = lane & segmask;
    let (j, pval) = match mode {
        ShflMode::Up => {
            let j = lane as i32 - bval as i32;
            (j, j >= max_lane as i32)
        }
        ShflMode::Down => {
            let j = (lane + bval) as i32;
            (j, j <= max_lane as i32)
        }
        ShflMode::Bfly => {
            let j = (lane ^ bval) as i32;
            (j, j <= max_lane as i32)
        }
        ShflMode::Idx => {
            let j = (min_lane | (bval & !segmask)) as i32;
            (j, j <= max_lane as i32)
        }
    };
    if pval {
        (j as u32, true)
    } else {
        (lane, false)
    }
}

/// Evaluates a shuffle for the whole warp. `sync`: `shfl.sync` (uses `membermask`) rather than
/// the deprecated `shfl`. `active`: bit `i` set when lane `i` executes the instruction.
pub fn eval_warp(mode: ShflMode, sync: bool, lanes: &[LaneIn; 32], active: u32) -> Vec<LaneOut> {
    let is_active = |i: u32| active >> i & 1 == 1;
    // The membermask every participant must agree on: lanes whose own mask excludes them or
    // differs from another active lane's are undefined.
    let masks_agree = {
        let mut masks = (0..32).filter(|&i| is_active(i)).map(|i| lanes[i as usize].membermask);
        let first = masks.next();
        first.is_some_and(|m| masks.all(|x| x == m))
    };
    (0..32u32)
        .map(|lane| {
            let inp = lanes[lane as usize];
            if !is_active(lane) {
                return LaneOut { d: unspecified32(Allowance::Undefined), p: None };
            }
            if sync && (inp.membermask >> lane & 1 == 0 || !masks_agree) {
                return LaneOut { d: unspecified32(Allowance::Undefined), p: None };
            }
            let (j, pval) = source_lane(mode, lane, inp.b, inp.c);
            let source_ok = is_active(j) && (!sync || inp.membermask >> j & 1 == 1);
            let d = if source_ok {
                Expected::exact(u128::from(lanes[j as usize].a), 32)
            } else {
                unspecified32(Allowance::Undefined)
            };
            LaneOut { d, p: Some(pval) }
        })
        .collect()
}
