//! Warp and CTA collectives of the program oracle: `shfl.sync` (§9.7.9.6), run for every warp
//! at once through the semantics' lane model, and `bar.sync`, which orders shared memory.
//!
//! Invariants: both run with the whole CTA converged and unguarded (the program invariants of
//! [`super`]); otherwise the result is undefined ([`InterpError::Undefined`]). A shuffle moves
//! its data exactly: a set-valued lane stays the same set in the lane that receives it; a
//! set-valued lane index, clamp or mask makes every destination any value.

use std::collections::BTreeMap;

use super::exec::{taint, Machine};
use super::interp::InterpError;
use crate::isa::operand::{Operand, Role};
use crate::isa::Instruction;
use crate::semantics::operands::{evaluate, Input, Output};
use crate::semantics::{Allowance, Expected};

impl Machine<'_> {
    /// `bar.sync 0` of the whole CTA.
    pub(super) fn barrier(&mut self) -> Result<(), InterpError> {
        self.converged("bar.sync")?;
        self.shared.barrier();
        Ok(())
    }

    /// `shfl.sync` for every warp: the data moves exactly (set-valued lanes stay sets).
    pub(super) fn shuffle(&mut self, inst: &Instruction) -> Result<(), InterpError> {
        self.converged("shfl.sync")?;
        if inst.guard.is_some() {
            return Err(self.unsupported("guarded shfl.sync (programs shuffle unguarded)"));
        }
        // The shuffle is its destinations' producer (B: a skipped `cvt.f32` after it merges into
        // the shuffled value, corpus/findings/fuzz-h200-3602/, 24bc5888), which may be a value
        // ptxas knows (N-7, 3501-N2).
        if self.emulating {
            self.origin_now = Some(super::emulate::shuffle_origin(self, inst));
        }
        // 3702-N7: a shuffle of a value chosen by a bfly predicate dropped.
        let dropped = self.emulating && super::emulate::shuffle_dropped(self, inst);
        let specs = inst.form.operands();
        for w in 0..self.threads / 32 {
            let mut values = BTreeMap::new();
            let mut data = Vec::new();
            let mut control_taint = None;
            for (spec, o) in specs.iter().zip(&inst.operands) {
                if spec.role != Role::Src {
                    continue;
                }
                let mut lanes = Vec::new();
                for l in 0..32 {
                    let v = self.source(32 * w + l, o, 32)?;
                    if spec.name == "a" {
                        data.push(v);
                        lanes.push(u128::from(l));
                    } else {
                        if !v.is_exact() {
                            control_taint.get_or_insert(taint(&v));
                        }
                        lanes.push(v.bits);
                    }
                }
                values.insert(spec.name.to_string(), Input::Lanes(lanes));
            }
            let out = match control_taint {
                None => evaluate(&inst.form, &values, Some(u32::MAX), self.allow)
                    .map_err(|e| self.unsupported(e.to_string()))?,
                Some(_) => Vec::new(),
            };
            let (d, p) = match &inst.operands[0] {
                Operand::WithPred(d, p) => (self.reg_of(d)?, Some(self.reg_of(&Operand::Name(p.clone()))?)),
                d => (self.reg_of(d)?, None),
            };
            for l in 0..32u32 {
                let t = 32 * w + l;
                let lane_out = |name: &str| match out.iter().find(|(n, _)| n == name) {
                    Some((_, Output::Lanes(v))) => v.get(l as usize).cloned(),
                    _ => None,
                };
                let dv = match (control_taint, lane_out("d")) {
                    (Some(a), _) => Expected::any(32, a),
                    // The "data" run used lane numbers as values: an exact result names the
                    // source lane, whose real (possibly set-valued) value moves.
                    (None, Some(Output::Bits(e))) if e.is_exact() => data[e.bits as usize].clone(),
                    (None, Some(Output::Bits(e))) => e,
                    _ => return Err(self.unsupported("shfl.sync gave no `d`")),
                };
                let dv = match data.get(l as usize) {
                    Some(own) if dropped => super::emulate::shuffle_keeps_own(self, &dv, own.clone()),
                    _ => dv,
                };
                self.write(t, d, dv)?;
                if let Some(p) = p {
                    let pv = match (control_taint, lane_out("p")) {
                        (Some(a), _) => Expected::any(1, a),
                        (None, Some(Output::Pred(Some(b)))) => Expected::exact(u128::from(b), 1),
                        (None, _) => Expected::any(1, Allowance::Undefined),
                    };
                    self.write(t, p, pv)?;
                }
            }
        }
        Ok(())
    }
}
