//! Memory programs: the asynchronous-copy side of the generator (§9.7.9.25, §9.7.9.26), whose
//! programs are [`oracle::memprog::MemSource`]s over named buffers rather than register programs.
//!
//! - [`config`]: [`AsyncConfig`], the swarm knobs, each declared once;
//! - [`episodes`]: protocol-correct random programs built from episodes (mbarrier phases,
//!   cluster multicasts and exchanges, `cp.async` pipelines, write-backs), for `fuzz --async`;
//! - [`cases`]: the conformance cases of every async-copy form of a target (`ptxdiff conform`),
//!   with the tensor-map catalogues, the dedicated deviation sets and the `tensormap.replace`
//!   cases;
//! - [`minimize`]: the reducer of memory programs, which keeps every candidate
//!   protocol-correct;
//! - [`stmt`]: the typed statements the episodes write ([`stmt::Stmt`]: ISA instructions,
//!   glue, labels, branches, barriers) and their one printer.
//!
//! Invariant: everything here is a pure function of its inputs (target, seed, configuration):
//! the same seed gives the same program and the same target the same cases, byte for byte.
//! The old paths `generator::async_programs`, `generator::async_cases` and
//! `generator::async_minimize` name the same items.

pub mod cases;
pub mod config;
pub mod episodes;
pub mod minimize;
pub mod stmt;

pub use config::AsyncConfig;
pub use episodes::{generate, generate_seeded, seeded_switches, supported};
