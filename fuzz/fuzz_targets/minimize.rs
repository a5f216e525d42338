//! cargo fuzz target: the minimizer keeps its predicate and never grows a program
//! (`ptxdiff_fuzz::minimize`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ptxdiff_fuzz::minimize::check(data);
});
