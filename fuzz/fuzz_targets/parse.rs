//! cargo fuzz target: arbitrary text never panics the parser; what parses round-trips.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        ptxdiff_fuzz::parse_round_trips(text);
    }
});
