//! A known entry's crash mechanism as data (`[crash_by_sass]`): a crash has no SASS in its
//! signature, so an entry naming its crashes by key (root cause K:
//! `corpus/known/fuzz-h100-k-descriptor-never-loaded.toml`) came back under a new key every
//! campaign. Beside its `id`s (kept as history) such an entry states what explains a crash:
//!
//! ```toml
//! [crash_by_sass]
//! class = "unwritten-register"             # the SASS check's finding class (the only one)
//! present = "desc[UR"                      # optional: text the kernel's listing has
//! absent = "c[0x0][0x208]"                 # optional: text the kernel's listing never has
//! error = "CUDA_ERROR_ILLEGAL_INSTRUCTION" # globs over the crash's `how`
//! stand_in = { "cuda:jit" = 3 }            # backends without a listing: the -O level standing in
//! # how = "descriptor"                     # optional: globs over the roles of a read the check flags
//! ```
//!
//! A crash finding of every backend of which has a listing level — an offline-assembled
//! backend of the campaign's ptxas (`cuda:ptxas-O0`: its own level,
//! [`crate::backend::cuda::ptxas_build_of`]) or one named in `stand_in` — is covered when, at
//! each of those levels, every condition the table gives holds for the program's kernel: its
//! listing has one of the `present` texts and none of the `absent` ones, and (`how`) the SASS
//! check ([`crate::sass::Checker`]) flags a read whose roles (`descriptor`,
//! `descriptor+address`: what an unwritten-register finding's `how` is) match — or, role
//! `descriptor-of-loaded-data`, an access whose descriptor holds bits loaded from memory
//! ([`crate::sass::loaded_descriptors`]: written, so the check cannot flag it). K states the
//! listing alone: a global access through a descriptor (`desc[UR`) in a kernel that never loads
//! the global descriptor `c[0x0][0x208]` — whether the registers copied into the descriptor were
//! never written (which the check flags) or hold data (seed 4402's 9cd3e758 at -O0, which it
//! cannot); the createpolicy root cause (`sass-descriptor-never-written.toml`), whose hinted
//! accesses read a descriptor nothing wrote or one made of data, loads `c[0x0][0x208]`
//! (`present`) and names both reads (`how`). Running the check is the caller's (one ptxas and one
//! nvdisasm run per level: `crate::fuzz::known_crash`); here are the data and the decision.
//!
//! Invariants: a backend of a labelled ptxas (`cuda:ptxas-13.0-O3`) or one neither assembled
//! offline nor in `stand_in` has no level, and a crash it is part of is not decided here (its
//! entry's ids still decide); a crash of another error (a hang, a worker crash) never is.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use super::signature::{FindingClass, Signature};
use crate::glob::glob_match;

/// What explains a crash of a known entry (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrashBySass {
    /// Globs over the roles of a read the SASS check flags (`descriptor`) or of an access whose
    /// descriptor holds loaded data (`descriptor-of-loaded-data`); empty: no such condition.
    pub how: Vec<String>,
    /// Globs over the crash's error (its signature's `how`).
    pub error: Vec<String>,
    /// Backends without a listing of their own, and the -O level whose listing stands in.
    pub stand_in: BTreeMap<String, u8>,
    /// Texts the kernel's listing must not have (`c[0x0][0x208]`); empty: no such condition.
    pub absent: Vec<String>,
    /// Texts of which the kernel's listing must have one (`desc[UR`); empty: no such condition.
    pub present: Vec<String>,
}

/// What the SASS check of a crash's kernel gave at one level.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelCheck {
    /// The roles of every read it flags in the kernel (`descriptor`), and
    /// `descriptor-of-loaded-data` where an access's descriptor holds loaded data.
    pub roles: Vec<String>,
    /// The kernel's listing (`nvdisasm -c`, [`crate::sass::function_listing`]).
    pub listing: String,
}

/// The `[crash_by_sass]` table as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCrashBySass {
    class: FindingClass,
    how: Option<OneOrMany>,
    error: OneOrMany,
    #[serde(default)]
    stand_in: BTreeMap<String, u8>,
    absent: Option<OneOrMany>,
    present: Option<OneOrMany>,
}

/// One glob or a list of globs.
#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn into_vec(self) -> Vec<String> {
        match self {
            OneOrMany::One(s) => vec![s],
            OneOrMany::Many(v) => v,
        }
    }
}

impl RawCrashBySass {
    /// The table checked: the class is the SASS check's, every glob is non-empty, a stand-in
    /// level is one the offline backends offer. The error says what is wrong.
    pub(super) fn check(self) -> Result<CrashBySass, String> {
        if self.class != FindingClass::UnwrittenRegister {
            return Err(format!(
                "`crash_by_sass.class` must be `{}`: the SASS check's finding class",
                FindingClass::UnwrittenRegister.name()
            ));
        }
        let globs = |g: OneOrMany, what: &str| {
            let v = g.into_vec();
            if v.is_empty() || v.iter().any(|s| s.trim().is_empty()) {
                Err(format!("`crash_by_sass.{what}` needs non-empty globs"))
            } else {
                Ok(v)
            }
        };
        let levels = crate::backend::cuda::LEVELS;
        if let Some((b, l)) = self.stand_in.iter().find(|(_, l)| !levels.contains(l)) {
            return Err(format!("`crash_by_sass.stand_in`: {b} = {l} is not a level of {levels:?}"));
        }
        let optional = |g: Option<OneOrMany>, what: &str| g.map_or(Ok(Vec::new()), |g| globs(g, what));
        let (how, present) = (optional(self.how, "how")?, optional(self.present, "present")?);
        if how.is_empty() && present.is_empty() {
            return Err("`crash_by_sass` needs `how` (a flagged read) or `present` (a listing's text), or both".into());
        }
        Ok(CrashBySass {
            how,
            error: globs(self.error, "error")?,
            stand_in: self.stand_in,
            absent: optional(self.absent, "absent")?,
            present,
        })
    }
}

impl CrashBySass {
    /// The -O levels whose listings decide the crash `sig` (each backend's own, or its
    /// stand-in's), or `None` when it is not a crash of an `error` this names or some backend
    /// has no level (see the module docs).
    pub fn levels(&self, sig: &Signature) -> Option<BTreeSet<u8>> {
        if sig.class != FindingClass::Crash
            || sig.backends.is_empty()
            || !self.error.iter().any(|g| glob_match(g, &sig.how))
        {
            return None;
        }
        sig.backends
            .iter()
            .map(|b| match crate::backend::cuda::ptxas_build_of(b) {
                Some(("", level)) => Some(level),
                Some(_) => None,
                None => self.stand_in.get(b).copied(),
            })
            .collect()
    }

    /// Whether the check of a crash's kernel at one level explains the crash: every condition
    /// given holds — a read it flags has roles `how` names, the listing has one of the
    /// `present` texts and none of the `absent` ones.
    pub fn explains(&self, check: &KernelCheck) -> bool {
        let has = |t: &String| check.listing.contains(t.as_str());
        (self.how.is_empty() || check.roles.iter().any(|r| self.how.iter().any(|g| glob_match(g, r))))
            && (self.present.is_empty() || self.present.iter().any(has))
            && !self.absent.iter().any(has)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k() -> CrashBySass {
        CrashBySass {
            how: vec!["descriptor".into()],
            error: vec!["CUDA_ERROR_ILLEGAL_INSTRUCTION".into()],
            stand_in: [("cuda:jit".to_string(), 3)].into(),
            absent: vec!["c[0x0][0x208]".into()],
            present: Vec::new(),
        }
    }

    fn crash(backends: &[&str], how: &str) -> Signature {
        Signature::new(FindingClass::Crash, "max.s32", "", backends.iter().copied(), how)
    }

    #[test]
    fn each_backend_is_decided_at_its_level_or_its_stand_in() {
        let ill = "CUDA_ERROR_ILLEGAL_INSTRUCTION";
        assert_eq!(k().levels(&crash(&["cuda:ptxas-O0"], ill)), Some([0].into()));
        assert_eq!(k().levels(&crash(&["cuda:jit", "cuda:ptxas-O3"], ill)), Some([3].into()));
        assert_eq!(k().levels(&crash(&["cuda:jit", "cuda:ptxas-O0"], ill)), Some([0, 3].into()));
        // Another error, a labelled ptxas, a backend without a level, no backend: undecided.
        assert_eq!(k().levels(&crash(&["cuda:ptxas-O0"], "hang")), None);
        assert_eq!(k().levels(&crash(&["cuda:ptxas-13.0-O0"], ill)), None);
        assert_eq!(k().levels(&crash(&["cuda:ptxas-O0", "oracle-worker"], ill)), None);
        assert_eq!(k().levels(&crash(&[], ill)), None);
        let mut s = crash(&["cuda:ptxas-O0"], ill);
        s.class = FindingClass::Compiler;
        assert_eq!(k().levels(&s), None);
        let check = |roles: &[&str], listing: &str| KernelCheck {
            roles: roles.iter().map(|r| r.to_string()).collect(),
            listing: listing.into(),
        };
        let ldg = "/*0040*/ LDG.E R4, desc[UR4][R2.64] ;";
        assert!(k().explains(&check(&["descriptor"], ldg)));
        assert!(!k().explains(&check(&["descriptor+address"], ldg)) && !k().explains(&check(&["source"], ldg)));
        // A kernel that loads the global descriptor is not K's, whatever else reads undefined bits.
        assert!(!k().explains(&check(&["descriptor"], "ULDC.64 UR4, c[0x0][0x208] ;\n/*0040*/ LDG.E …")));
        // By the listing alone (`present`, no `how`): a descriptor access, none loaded — whether
        // or not the check flags a read (9cd3e758's -O0 descriptor holds data).
        let listing_only = CrashBySass { how: Vec::new(), present: vec!["desc[UR".into()], ..k() };
        assert!(listing_only.explains(&check(&[], ldg)) && listing_only.explains(&check(&["descriptor"], ldg)));
        assert!(!listing_only.explains(&check(&[], "/*0040*/ LDS R4, [R2] ;")), "no global access");
        assert!(
            !listing_only.explains(&check(&[], "ULDC.64 UR4, c[0x0][0x208] ;\n/*0040*/ LDG.E R4, desc[UR4][R2.64] ;"))
        );
    }
}
