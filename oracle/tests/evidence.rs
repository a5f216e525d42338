//! Every allowance that exists because hardware deviates from the spec cites a recorded GPU
//! result under corpus/, with device, driver and ptxas versions and the inputs and outputs.

use oracle::semantics::Allowance;

#[test]
fn hardware_allowances_cite_recorded_evidence() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut cited = 0;
    for a in Allowance::ALL {
        let Some(file) = a.evidence_file() else { continue };
        cited += 1;
        let text = std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{}: {file}: {e}", a.name()));
        for needle in ["device", "driver", "ptxas", "| a |", a.name()] {
            assert!(text.contains(needle), "{file} lacks `{needle}`");
        }
        assert!(a.evidence().contains(file), "{}: the evidence text must name {file}", a.name());
    }
    assert!(cited >= 1);
}
