//! Tests of [`Unwritten::keyed_by`] (`key_reads`): later reads of the never-written registers an
//! earlier read of the kernel read are keyed by that read — the traced listings of seed 4603's
//! 607f088a and seed 4503's 0ee96c9e (ptxas 13.0.88 -O3: an arm if-converted under a predicate
//! nothing writes), then planted forms that keep their own keys.

use super::fixtures::kernel;
use super::{check_listing, Unwritten};

/// The flagged reads of the stored listing `corpus/findings/PATH` (whole, or instruction lines
/// alone: one kernel around them).
fn traced(path: &str) -> Vec<Unwritten> {
    let text = std::fs::read_to_string(format!("{}/../corpus/findings/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let text = if text.contains("STO_CUDA_ENTRY") { text } else { kernel("k", &text) };
    check_listing(&text).unwrap()
}

fn keys(reads: &[Unwritten]) -> Vec<(u32, String)> {
    reads.iter().map(|u| (u.offset, u.key())).collect()
}

#[test]
fn an_arm_under_a_never_written_predicate_is_one_finding() {
    // 607f088a: `@P0 CCTL.IVALL; @P0 LOP3.LUT R11, …` (the LOP3.LUT was a finding of its own, new).
    let reads = traced("fuzz-h200-4603/trace/607f088a/orig.130.O3.sass");
    assert_eq!(keys(&reads), [(0x110, "CCTL.IVALL guard".into()), (0x120, "CCTL.IVALL guard".into())]);
    assert_eq!(reads[1].mnemonic, "LOP3.LUT", "the read itself is kept as it is");
    assert_eq!(reads[1].keyed_by.as_ref().map(|k| k.offset), Some(0x110));
    // 0ee96c9e: the descriptor read keeps its key; the PRMT of the arm is keyed by the CCTL.
    let reads = traced("fuzz-h200-4503/trace/0ee96c9e/orig.130.O3.sass");
    assert_eq!(
        keys(&reads),
        [
            (0x40, "LDG.E.U16.STRONG.SM descriptor".into()),
            (0x90, "CCTL.IVALL guard".into()),
            (0x1e0, "CCTL.IVALL guard".into())
        ]
    );
}

#[test]
fn other_registers_and_propagated_bits_keep_their_own_keys() {
    // Two predicates never written: two findings.
    let two = "/*0000*/ @P0 MOV R2, 0x1 ;\n/*0010*/ @P1 MOV R3, 0x1 ;\n/*0020*/ EXIT ;\n";
    let reads = check_listing(&kernel("k", two)).unwrap();
    assert!(reads.iter().all(|u| u.keyed_by.is_none()), "{reads:?}");
    // The same predicate: the second read is keyed by the first.
    let same = "/*0000*/ @P0 MOV R2, 0x1 ;\n/*0010*/ @P0 MOV R3, 0x2 ;\n/*0020*/ EXIT ;\n";
    let reads = check_listing(&kernel("k", same)).unwrap();
    assert_eq!(reads.len(), 2, "{reads:?}");
    assert_eq!(keys(&reads)[1].1, reads[0].key());
}
