//! cargo fuzz target: raw bytes drive the program generator; every program passes the
//! structural validator and prints and parses back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ptxdiff_fuzz::generate_is_valid(data);
});
