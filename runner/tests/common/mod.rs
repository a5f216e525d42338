//! Helpers shared by the runner's integration tests (each test file says `mod common;`).

use runner::ptxas::Ptxas;

/// The ptxas found, or `None` with a `SKIPPED` line when there is none — unless `CI` or
/// `PTXDIFF_REQUIRE_PTXAS` is set: then a missing ptxas fails the test, so CI cannot silently
/// skip what needs it.
pub fn ptxas_or_skip() -> Option<Ptxas> {
    match Ptxas::find() {
        Ok(p) => Some(p),
        Err(e) => {
            let required = std::env::var_os("CI").is_some() || std::env::var_os("PTXDIFF_REQUIRE_PTXAS").is_some();
            assert!(!required, "ptxas is required here: {e}");
            eprintln!("SKIPPED: {e}");
            None
        }
    }
}
