//! The grammar-aware program generator (in progress): configuration, randomness sources and
//! edge-case value pools.

pub mod config;
pub mod rng;
pub mod values;

pub use config::Config;
