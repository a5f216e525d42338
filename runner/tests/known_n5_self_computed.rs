//! Root cause N-5 where the arm's write of the lost register computes from that register
//! (corpus/findings/fuzz-h200-4203/trace/T12c1.md, "22465283 and e459bfd2"): the check run again
//! on the traced ptxas -O3 listings names every flagged read N-5 through the `partly-written`
//! input class (`runner/src/sass/dataflow/partly.rs`), where before it was a new
//! `unwritten-register` finding.

use std::path::{Path, PathBuf};

use runner::findings::KnownSet;
use runner::fuzz::retriage::{label_listing, Label};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

const N5: &str = "sass-n5-ifconv-loses-else-value";

/// Seed 4203's two findings (orig and reduced; e459bfd2's listing is the same on 13.5) and
/// 3701's 83b27374ca2b5deb/v4_add (`@!P0 IADD3 R9, R9, 0x1`), the entry's former "not seen".
const LISTINGS: [(&str, &str); 7] = [
    ("fuzz-h200-4203", "22465283/orig.130.O3.sass"),
    ("fuzz-h200-4203", "22465283/reduced.130.O3.sass"),
    ("fuzz-h200-4203", "e459bfd2/orig.130.O3.sass"),
    ("fuzz-h200-4203", "e459bfd2/orig.135.O3.sass"),
    ("fuzz-h200-4203", "e459bfd2/reduced.130.O3.sass"),
    ("fuzz-h200-3701", "83b27374ca2b5deb/v4_add.130.O3.sass"),
    ("fuzz-h200-3701", "83b27374ca2b5deb/v4_add.135.O3.sass"),
];

#[test]
fn the_arm_computing_from_the_lost_value_is_named_n5() {
    let known = KnownSet::load(&repo().join("corpus/known")).unwrap();
    for (campaign, path) in LISTINGS {
        let file = repo().join("corpus/findings").join(campaign).join("trace").join(path);
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let text = if text.contains(".section") {
            text
        } else {
            format!(".section .text.k,\"ax\",@progbits\n.other k,@\"STO_CUDA_ENTRY STV_DEFAULT\"\nk:\n{text}")
        };
        let label = label_listing(&text, "ptxas -O3", &known).unwrap();
        let all = matches!(&label, Label::Known(n) if !n.is_empty() && n.iter().all(|n| n == N5));
        assert!(all, "{campaign} {path}: {label:?}");
    }
}
