//! The findings layer of a fuzz campaign: what a finding is ([`Finding`], [`Signature`],
//! [`Class`]) and which findings are already known (`corpus/known/`, [`KnownSet`]).
//!
//! Invariants: nothing here depends on the program generator — a program is PTX text plus
//! metadata — so stored findings stay readable when the generator changes.

pub mod finding;
pub mod known;
pub mod signature;

pub use finding::{Finding, WordMismatch};
pub use known::{Known, KnownError, KnownRule, KnownSet, SignaturePattern};
pub use signature::{Class, Signature};
