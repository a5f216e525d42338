//! cargo fuzz target: arbitrary text never panics the instruction or program parsers; what
//! parses round-trips through printing (`ptxdiff_fuzz::parse`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| ptxdiff_fuzz::parse::check(data));
