//! The grammar-aware program generator (in progress): configuration, randomness sources,
//! edge-case value pools and the per-target form tables.

pub mod config;
pub mod rng;
pub mod tables;
pub mod values;

pub use config::Config;
