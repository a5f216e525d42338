//! # ptxdiff oracle
//!
//! The pure, deterministic core of ptxdiff: the typed model of every instruction form of the PTX
//! ISA chapter §9.7.9 (Data Movement and Conversion Instructions), with canonical printing,
//! parsing, and the per-form validity table (`isa`).
//!
//! Invariants: no I/O, no unsafe code, no global state. Everything here is a function of its
//! arguments, so the same call gives the same answer on every machine.
//!
//! # Cargo features
//!
//! - `reference` (on by default): the module [`reference`](mod@reference), an independent model of `cvt` on
//!   `rustc_apfloat` that the `reference_cvt` integration test and the `oracle_reference` fuzz
//!   target (`fuzz/`) check the oracle against. It is a library module rather than test code so
//!   that both can share it, and a feature so that dependents that do not need it can leave
//!   `rustc_apfloat` out (`default-features = false`). It is on by default because a package
//!   cannot enable its own feature for its tests (a dev-dependency on itself is a cycle):
//!   default-on keeps `cargo test -p ptxdiff-oracle` running the reference tests; with
//!   `--no-default-features` that test file compiles to nothing.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod isa;
pub mod memory;
pub mod memprog;
pub mod num;
pub mod program;
#[cfg(feature = "reference")]
pub mod reference;
pub mod semantics;
