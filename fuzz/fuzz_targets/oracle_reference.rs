//! cargo fuzz target: the oracle's cvt semantics agree with the rustc_apfloat reference
//! (`ptxdiff_fuzz::oracle_reference`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| ptxdiff_fuzz::oracle_reference::check(data));
