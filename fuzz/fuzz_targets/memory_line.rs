//! cargo fuzz target: arbitrary statement text never panics the memory-program parser or interpreter (`ptxdiff_fuzz::memory_line`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    ptxdiff_fuzz::memory_line::check(data);
});
