//! The one findings path of every run (a `fuzz` campaign, a `conform` sweep): what a finding
//! is ([`Finding`], [`Signature`], [`FindingClass`], the fields read off the evidence in
//! [`classify`]), which findings are already known (`corpus/known/`, [`KnownSet`]), the
//! on-disk store that de-duplicates and never loses one ([`FindingStore`]), and the reports
//! rendered from it (`summary.md`, `index.html`, `junit.xml`, [`render`]), and the one-line
//! ptxas version verdict a finding carries ([`versions`]).
//!
//! Invariants: nothing here depends on the program generator — a program is PTX text plus
//! metadata — so stored findings stay readable when the generator changes; `findings.json` is
//! canonical and every other file is derived from it (or, for `findings/*.json`, merged into it).

pub mod classify;
pub mod crash_by_sass;
pub mod finding;
pub mod known;
pub mod render;
pub mod signature;
pub mod store;
pub mod versions;

pub use crash_by_sass::CrashBySass;
pub use finding::{Finding, Source, WordMismatch};
pub use known::{EmulationScope, Emulations, Known, KnownError, KnownRule, KnownSet, SignaturePattern};
pub use signature::{FindingClass, Signature};
pub use store::{FindingStore, FindingsDoc, KnownHit, Recorded, RunMeta, StoreError};
