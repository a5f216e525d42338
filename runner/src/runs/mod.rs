//! Runs over time and over machines: a finished run read back ([`record`]), what changed
//! between a baseline and a run ([`compare`]: `ptxdiff report diff`; [`baseline`]: the
//! `--baseline` of conform and fuzz, with its exit status), the split
//! of a run into shards ([`shard`]: `--shard i/N`), and the merge of shards into one report
//! ([`merge`]: `ptxdiff report merge`).
//!
//! Invariant: nothing here changes what a run checks or finds; it only reads, compares and
//! re-assembles what runs wrote.

pub mod baseline;
pub mod compare;
pub mod merge;
pub mod record;
pub mod shard;
