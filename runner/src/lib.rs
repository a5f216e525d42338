//! # ptxdiff runner
//!
//! Everything that touches the outside world: the backends (the oracle, the oracle in the
//! worker process, `ptxas`, CUDA GPUs) behind one trait and registry ([`backend`]), the worker
//! process that isolates GPU work, the diff layer that compares backends with the oracle
//! ([`diff`]), findings and their reports, the corpus and the command line. The oracle and
//! generator crates stay pure.
#![warn(missing_docs)]
// Module headers name the private functions and fields that hold their invariants (readable
// with `cargo doc --document-private-items`); ci/test checks every other link of the docs.
#![allow(rustdoc::private_intra_doc_links)]

pub mod atomic_write;
pub mod avx2_kernels;
pub mod backend;
pub mod bundle;
pub mod cli;
pub mod conform;
pub mod diff;
pub mod eval;
pub mod explain;
pub mod failure;
pub mod findings;
pub mod fuzz;
pub mod glob;
pub mod gpu;
pub mod memrun;
pub mod paths;
pub mod program_line;
pub mod ptxas;
pub mod runs;
pub mod sass;
pub mod sweep_check;
pub mod validity;
pub mod worker;
