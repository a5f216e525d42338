//! Known hardware deviations from the spec: behaviours a GPU shows where the PTX ISA text says
//! otherwise. Each is an open finding with its evidence in `corpus/findings/`, not an
//! allowance: the oracle keeps the spec's reading, and nothing switches a deviation on for a
//! verdict. Triage asks the oracle to *emulate* one ([`crate::semantics::Allowances::emulating`])
//! to tell whether a difference is wholly explained by it; then the difference is that known
//! finding (its input class names it), not a new one.
//!
//! Invariant: emulating a deviation changes only the element operation its finding describes
//! (for [`Deviation::ReduceAddF32KeepsSubnormals`], the f32 `.add` of bulk reductions, which
//! tensor reductions share; [`Deviation::concerns`] names the forms the evidence covers).

/// A known hardware deviation from the spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Deviation {
    /// `cp.reduce.async.bulk{.tensor}` `.add.f32` keeps subnormal inputs and results (IEEE
    /// addition), where §9.7.9.25.4.2 says the implementation flushes them to sign-preserving
    /// zero (H100, driver 580.159.04: `corpus/findings/reduce-add-f32-subnormals.md`).
    ReduceAddF32KeepsSubnormals,
}

impl Deviation {
    /// Every deviation, in triage order.
    pub const ALL: [Deviation; 1] = [Deviation::ReduceAddF32KeepsSubnormals];

    /// The input class a finding it explains carries (what `corpus/known/` entries match).
    pub fn input_class(self) -> &'static str {
        match self {
            Deviation::ReduceAddF32KeepsSubnormals => "f32-subnormal-add",
        }
    }

    /// Whether the instruction with opcode `opcode` is one the deviation concerns: for
    /// [`Deviation::ReduceAddF32KeepsSubnormals`], `.add.f32` bulk reductions and the `.add`
    /// tensor reductions (whose opcode carries no type; the emulation changes only their f32
    /// elements). The evidence covers the non-tensor form, so the known entry matches only
    /// that; a tensor reduction the emulation explains is reported under its own form.
    pub fn concerns(self, opcode: &str) -> bool {
        match self {
            Deviation::ReduceAddF32KeepsSubnormals => {
                let tensor = opcode.starts_with("cp.reduce.async.bulk.tensor.");
                opcode.starts_with("cp.reduce.async.bulk.")
                    && opcode.contains(".add.")
                    && (tensor || opcode.ends_with(".f32"))
            }
        }
    }

    /// The finding's write-up, relative to the repository.
    pub fn evidence(self) -> &'static str {
        match self {
            Deviation::ReduceAddF32KeepsSubnormals => "corpus/findings/reduce-add-f32-subnormals.md",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deviations_name_their_class_forms_and_evidence() {
        let d = Deviation::ReduceAddF32KeepsSubnormals;
        assert_eq!(d.input_class(), "f32-subnormal-add");
        assert!(d.concerns("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32"));
        assert!(d.concerns("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group"));
        assert!(!d.concerns("cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group"));
        assert!(!d.concerns("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32"));
        assert!(!d.concerns("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.f32"));
        for d in Deviation::ALL {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(d.evidence());
            assert!(path.is_file(), "{}", path.display());
        }
    }
}
