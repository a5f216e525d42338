//! 119d98cf's emulation (`emulate/packed_min_max_of_zero_extended_converted_half.rs`) widened to
//! seed 5602's fd85a600 (corpus/findings/fuzz-h200-5602/trace/T56F.md, trace/fd85a600/s56/): a
//! packed `min.s16x2` of `cvt.s32.s16` of a loaded s16 whose load ptxas merges with the other
//! half's (`LDG.E; PRMT R0, R11, 0x7632, R0`) reads an upper half nothing wrote. The stored case
//! and its variants on the stored inputs (h0 = word 0's high half; 0x954d in thread 0).

use super::*;

const D: Deviation = Deviation::ZeroExtensionOfConvertedHalfDroppedAtPackedMinMax;

/// The stored case: word 1 (`st.v2.u8 [out+4], {h34, 0}`, h34 the min's upper half) admits the
/// spec's and the GPU's 0 in every thread where they differ (h0 < 0: 0xff, the json's threads 0,
/// 1, 5, 6, 8–11 among them); the other words stay the spec's, exact.
#[test]
fn n_5602_fd85a600_the_stored_case_admits_the_never_written_upper_half() {
    let (p, i) = stored_case("5602", "fd85a600d645319f");
    let words = words_emulating(&p, &i, D);
    let mut negative = Vec::new();
    for (t, w, s, e) in words {
        assert!(s.is_exact(), "thread {t} word {w}");
        if w == 1 {
            assert!(e.matches(s.bits) && e.matches(0), "thread {t}: {e}");
            if s.bits == 0xff {
                negative.push(t);
            }
        } else {
            assert_eq!(e, s, "thread {t} word {w}");
        }
    }
    for t in [0, 1, 5, 6, 8, 9, 10, 11] {
        assert!(negative.contains(&t), "thread {t}");
    }
}

/// Word 1 of thread 0 of variant `name`: the spec's and emulating [`D`] (with what fired).
fn thread0_word1(name: &str) -> (Expected, Expected, Vec<Deviation>) {
    let (p, i) = variant_of("5602", "fd85a600", &format!("s56/{name}"), &[]);
    let spec = run(&p, &i, &Allowances::all()).unwrap().remove(0);
    let (mut out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(D)).unwrap();
    (spec.field(32, 32), out.remove(0).field(32, 32), fired)
}

/// Merged loads: g3 (no f16 cvt; ptxas stores the min's lower half's byte for the upper's, 0x4d)
/// and f4 (the reduction, h34 stored whole; ptxas kept the loads apart, right) are admitted with
/// the spec's 0xff, 0xffff.
/// Not merged, left alone: g4 (the other load not adjacent: `LDG.E.S16` keeps the sign bits), f1
/// (a lone load: G's slip, not this one), g2 (`cvt.u32.u16`: the zero extension kept).
#[test]
fn n_5602_fd85a600_only_a_merged_neighbour_load_frees_the_upper_half() {
    for (name, spec) in [("g3_no_f16_cvt", 0xff), ("f4_merged_and_f16", 0xffff)] {
        let (s, e, fired) = thread0_word1(name);
        assert_eq!((s.bits, s.is_exact()), (spec, true), "{name}");
        assert!(e.matches(0xff) && e.matches(0x4d) && e.matches(0), "{name}: {e}");
        assert_eq!(fired, vec![D], "{name}");
    }
    for name in ["g4_unmerged_load", "f1_min_alone", "g2_cvt_u32_u16"] {
        let (s, e, fired) = thread0_word1(name);
        assert_eq!((e, fired), (s, Vec::new()), "{name}");
    }
}
