//! cargo fuzz target: tensor-map encode rules, loads and tensormap.replace never panic (`ptxdiff_fuzz::tensor_map`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| ptxdiff_fuzz::tensor_map::check(data));
