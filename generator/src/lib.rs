//! # ptxdiff generator
//!
//! Turns the ISA model into PTX text: probe modules that use many forms at once (for validity
//! checks against ptxas), sweep kernels and their check kernels ([`sweep_check`]), and whole
//! test programs ([`program`]: the grammar-aware, swarm-configured generator). No I/O, no GPU.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod async_cases;
pub mod async_minimize;
pub mod async_programs;
pub mod minimize;
pub mod probe;
pub mod program;
pub mod sweep;
pub mod sweep_check;
