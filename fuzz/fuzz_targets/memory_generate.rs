//! cargo fuzz target: generated memory programs build, run on the memory interpreter and print (`ptxdiff_fuzz::memory_generate`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| ptxdiff_fuzz::memory_generate::check(data));
