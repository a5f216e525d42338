//! # ptxdiff generator
//!
//! Turns the ISA model into PTX text: probe modules that use many forms at once (for validity
//! checks against ptxas), sweep kernels and their check kernels ([`sweep_check`]), and whole
//! test programs ([`program`]: the grammar-aware, swarm-configured generator), and memory programs
//! and conformance cases of the asynchronous copies ([`memory`]). No I/O, no GPU.
#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Module headers name the private functions and fields that hold their invariants (readable
// with `cargo doc --document-private-items`); ci/test checks every other link of the docs.
#![allow(rustdoc::private_intra_doc_links)]

mod define_config;
pub mod memory;
pub mod minimize;
pub mod mutate;
pub mod probe;
pub mod program;
pub mod sweep;
pub mod sweep_check;

pub use memory::cases as async_cases;
pub use memory::minimize as async_minimize;

/// The memory-program generator under its old path ([`memory::episodes`] and
/// [`memory::config`]).
pub mod async_programs {
    pub use crate::memory::{generate, generate_seeded, seeded_switches, supported, AsyncConfig};
}
