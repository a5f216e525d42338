//! cargo fuzz target: generated programs are valid, round-trip through text and run on the
//! program oracle (`ptxdiff_fuzz::generate`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| ptxdiff_fuzz::generate::check(data));
