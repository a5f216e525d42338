//! Finding classes and signatures: what de-duplicates findings within a run and across runs.
//!
//! Invariants:
//! - A [`Signature`]'s [`key`](Signature::key) is a pure function of its fields, fixed forever:
//!   FNV-1a 64 of the canonical string [`Signature::canonical`], printed as 16 lower-case hex
//!   digits. It does not depend on the process, the platform, the Rust version or `HashMap`
//!   seeds, so keys written to disk by one run match keys computed by a later one. Changing
//!   the canonical form invalidates every stored key and every `id` in `corpus/known/`.
//! - The [`shape`](Signature::shape) (the root cause's producer → consumer opcode chain,
//!   [`oracle::program::slice::data_path`]) enters the canonical string only when it is not empty, so the
//!   keys of signatures without one (crashes, rejections, conform rows) are the keys they had
//!   before shapes existed.
//! - `backends` is sorted and free of duplicates whenever the signature is made through
//!   [`Signature::new`]; the key sorts a copy anyway, so a hand-built signature with the same
//!   backends in another order has the same key.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What kind of disagreement a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FindingClass {
    /// Compiled variants disagree with each other (ptxas -O0 vs -O3, or the driver JIT): a
    /// compiler bug whatever the spec says.
    Compiler,
    /// All compiled variants agree and the oracle differs: the hardware deviates from the spec
    /// (or the oracle is wrong).
    HardwareSpec,
    /// ptxas or the driver crashed, the GPU faulted or hung, or a tool reported an internal
    /// error.
    Crash,
    /// ptxas rejects a program the ISA model calls valid.
    AssemblerRejection,
    /// The oracle disagrees with itself: a fast kernel's prediction, confirmed by a backend,
    /// differs from the full semantics (the sweep audit). A bug of ptxdiff, not of the GPU.
    OracleDefect,
    /// The compiled kernel reads a register nothing wrote on some path ([`crate::sass`]): its
    /// result depends on what the register held. Found in the SASS without running it, so
    /// deterministic; the form is the SASS instruction that reads (`CCTL.IVALL`), `how` what
    /// the never-written registers are to it (`guard`, `descriptor`, `address`, `source`).
    UnwrittenRegister,
    /// A difference that did not show again when its program ran alone, and whose words changed
    /// between runs of it on its own backend (the campaign's batch and the runs alone): the
    /// result depends on something other than the program and its inputs (a register nothing
    /// wrote, say). Grouped apart, never a new compiler bug; the message lists the words seen.
    NonDeterministic,
}

impl FindingClass {
    /// Every class, in report order.
    pub const ALL: [FindingClass; 7] = [
        FindingClass::OracleDefect,
        FindingClass::Crash,
        FindingClass::Compiler,
        FindingClass::UnwrittenRegister,
        FindingClass::HardwareSpec,
        FindingClass::AssemblerRejection,
        FindingClass::NonDeterministic,
    ];

    /// The kebab-case name used in JSON, TOML and reports.
    pub fn name(self) -> &'static str {
        match self {
            FindingClass::Compiler => "compiler",
            FindingClass::HardwareSpec => "hardware-spec",
            FindingClass::Crash => "crash",
            FindingClass::AssemblerRejection => "assembler-rejection",
            FindingClass::OracleDefect => "oracle-defect",
            FindingClass::UnwrittenRegister => "unwritten-register",
            FindingClass::NonDeterministic => "non-deterministic",
        }
    }

    /// Parses a kebab-case name.
    pub fn from_name(name: &str) -> Option<FindingClass> {
        FindingClass::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl fmt::Display for FindingClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What makes two findings "the same bug" for de-duplication.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Signature {
    /// The class.
    pub class: FindingClass,
    /// The instruction form most implicated, as PTX writes it without operands
    /// (`cvt.rn.satfinite.e4m3x2.f32`), or `program` when no single form is.
    pub form: String,
    /// The class of the input that shows it: `nan`, `subnormal`, `max-norm`, `zero`, `normal`,
    /// `int-limit`, … (empty when not applicable).
    pub input_class: String,
    /// The disagreeing side(s), by backend name, sorted.
    pub backends: Vec<String>,
    /// How they disagree, briefly: `nan-payload`, `off-by-one-ulp`, `sign`,
    /// `CUDA_ERROR_ILLEGAL_ADDRESS`, `ptxas exit 139`.
    pub how: String,
    /// What the disagreement depends on: the opcodes of the backward slice of the first wrong
    /// output word, producer → consumer (`mov.b16 → cvt.f16.f16 → st.global.b8`); empty
    /// when there is no wrong word (crashes, rejections) or no program (conform rows).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub shape: String,
}

/// FNV-1a 64 offset basis.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a 64 prime.
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a 64 of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET, |h, &b| (h ^ u64::from(b)).wrapping_mul(FNV_PRIME))
}

impl Signature {
    /// A signature with `backends` sorted and de-duplicated.
    pub fn new(
        class: FindingClass,
        form: impl Into<String>,
        input_class: impl Into<String>,
        backends: impl IntoIterator<Item = impl Into<String>>,
        how: impl Into<String>,
    ) -> Signature {
        let mut backends: Vec<String> = backends.into_iter().map(Into::into).collect();
        backends.sort();
        backends.dedup();
        Signature {
            class,
            form: form.into(),
            input_class: input_class.into(),
            backends,
            how: how.into(),
            shape: String::new(),
        }
    }

    /// The same signature with this shape.
    pub fn with_shape(self, shape: impl Into<String>) -> Signature {
        Signature { shape: shape.into(), ..self }
    }

    /// The canonical string the key hashes: fields joined by the ASCII unit separator (0x1f),
    /// backends (sorted, de-duplicated) joined by `,`, prefixed by a format version `v1`; a
    /// non-empty shape is appended as one more field.
    pub fn canonical(&self) -> String {
        let mut backends: Vec<&str> = self.backends.iter().map(String::as_str).collect();
        backends.sort_unstable();
        backends.dedup();
        let mut c = format!(
            "v1\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{}",
            self.class.name(),
            self.form,
            self.input_class,
            backends.join(","),
            self.how
        );
        if !self.shape.is_empty() {
            c.push('\u{1f}');
            c.push_str(&self.shape);
        }
        c
    }

    /// The stable key: 16 lower-case hex digits of FNV-1a 64 of [`Signature::canonical`]. Also
    /// the finding's id and its file name under `findings/` and `cases/`.
    pub fn key(&self) -> String {
        format!("{:016x}", fnv1a64(self.canonical().as_bytes()))
    }
}

impl fmt::Display for Signature {
    /// `hardware-spec cvt.rna.tf32.f32 [nan] cuda:jit,cuda:ptxas-O3: nan-becomes-inf`, then
    /// ` (mov.b32 → cvt.rna.tf32.f32 → st.global.b32)` when there is a shape.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.class, self.form)?;
        if !self.input_class.is_empty() {
            write!(f, " [{}]", self.input_class)?;
        }
        write!(f, " {}", self.backends.join(","))?;
        if !self.how.is_empty() {
            write!(f, ": {}", self.how)?;
        }
        if !self.shape.is_empty() {
            write!(f, " ({})", self.shape)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig() -> Signature {
        Signature::new(
            FindingClass::HardwareSpec,
            "cvt.rna.tf32.f32",
            "nan",
            ["cuda:ptxas-O3", "cuda:jit", "cuda:ptxas-O0"],
            "nan-becomes-inf",
        )
    }

    #[test]
    fn fnv_matches_reference_vectors() {
        // Published FNV-1a 64 test vectors.
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn key_is_stable_across_runs_and_versions() {
        // Pinned: a change here orphans every stored finding and every `id` in corpus/known/.
        assert_eq!(sig().key(), "0ffcbb4af022f1bd");
        assert_eq!(sig().key(), sig().key());
        assert_eq!(sig().key().len(), 16);
    }

    #[test]
    fn backend_order_does_not_matter() {
        let mut s = sig();
        s.backends = vec!["cuda:ptxas-O0".into(), "cuda:jit".into(), "cuda:ptxas-O3".into(), "cuda:jit".into()];
        assert_eq!(s.key(), sig().key());
        assert_eq!(sig().backends, ["cuda:jit", "cuda:ptxas-O0", "cuda:ptxas-O3"]);
    }

    #[test]
    fn every_field_changes_the_key() {
        let base = sig().key();
        let mut variants = Vec::new();
        let mut s = sig();
        s.class = FindingClass::Compiler;
        variants.push(s);
        let mut s = sig();
        s.form = "cvt.rna.satfinite.tf32.f32".into();
        variants.push(s);
        let mut s = sig();
        s.input_class = "subnormal".into();
        variants.push(s);
        let mut s = sig();
        s.backends.pop();
        variants.push(s);
        let mut s = sig();
        s.how = "nan-payload".into();
        variants.push(s);
        variants.push(sig().with_shape("mov.b32 → cvt.rna.tf32.f32 → st.global.b32"));
        // Moving text across a field boundary must not collide either.
        let a = Signature::new(FindingClass::Crash, "ab", "c", ["x"], "");
        let b = Signature::new(FindingClass::Crash, "a", "bc", ["x"], "");
        assert_ne!(a.key(), b.key());
        for v in variants {
            assert_ne!(v.key(), base, "{v}");
        }
    }

    #[test]
    fn display_and_serde() {
        assert_eq!(
            sig().to_string(),
            "hardware-spec cvt.rna.tf32.f32 [nan] cuda:jit,cuda:ptxas-O0,cuda:ptxas-O3: nan-becomes-inf"
        );
        let json = serde_json::to_string(&sig()).unwrap();
        assert!(json.contains(r#""class":"hardware-spec""#), "{json}");
        assert_eq!(serde_json::from_str::<Signature>(&json).unwrap(), sig());
        // No shape: not written (stored findings of earlier builds read back the same).
        assert!(!json.contains("shape"), "{json}");
        let shaped = sig().with_shape("mov.b32 → cvt.rna.tf32.f32 → st.global.b32");
        assert!(shaped.to_string().ends_with("nan-becomes-inf (mov.b32 → cvt.rna.tf32.f32 → st.global.b32)"));
        let json = serde_json::to_string(&shaped).unwrap();
        assert_eq!(serde_json::from_str::<Signature>(&json).unwrap(), shaped);
        for c in FindingClass::ALL {
            assert_eq!(serde_json::to_string(&c).unwrap(), format!("\"{}\"", c.name()));
            assert_eq!(FindingClass::from_name(c.name()), Some(c));
        }
    }
}
