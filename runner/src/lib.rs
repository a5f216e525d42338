//! # ptxdiff runner
//!
//! Everything that touches the outside world: the `ptxas` assembler, (later) GPU backends,
//! reports, the corpus and the command line. The oracle and generator crates stay pure.
#![warn(missing_docs)]

pub mod atomic;
pub mod avx2_kernels;
pub mod conform;
pub mod eval;
pub mod explain;
pub mod findings;
pub mod fuzz;
pub mod gpu;
pub mod ptxas;
pub mod validity;
pub mod worker;
