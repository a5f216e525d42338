//! # ptxdiff oracle
//!
//! The pure, deterministic core of ptxdiff: the typed model of every instruction form of the PTX
//! ISA chapter §9.7.9 (Data Movement and Conversion Instructions), with canonical printing,
//! parsing, and the per-form validity table (`isa`).
//!
//! Invariants: no I/O, no unsafe code, no global state. Everything here is a function of its
//! arguments, so the same call gives the same answer on every machine.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod isa;
pub mod num;
pub mod program;
pub mod semantics;
