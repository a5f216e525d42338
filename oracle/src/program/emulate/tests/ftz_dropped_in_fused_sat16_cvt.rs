//! Tests of 3702-N6 at a fused saturating 16-bit `cvt` reader (seed 4503's d2270cfc, session 46;
//! corpus/findings/fuzz-h200-4503/trace/T16t5.md, variants in trace/d2270cfc/ and its s46/).

use super::*;

/// `ld` of word 0, the `.f32` conversion `first` into %r1, the reader `second` into %h0 (or
/// %r2), and a 16-bit store of it.
fn chain(first: &'static str, second: &'static str) -> [&'static str; 4] {
    let store = if second.contains("%r2") { "st.global.b32 [%out], %r2;" } else { "st.global.b16 [%out], %h0;" };
    ["ld.global.u32 %r0, [%in];", first, second, store]
}

const POSITIVE_SUBNORMAL: [u32; 4] = [0x0000_0001, 0, 0, 0];
const NEGATIVE_SUBNORMAL: [u32; 4] = [0x807f_ffff, 0, 0, 0];

/// d2270cfc's `reduced.ptx` (13.0.88 -O3 `F2I.S16.CEIL.NTZ R7, R2`, no `.FTZ`): `.rpi` of a
/// positive subnormal is 1, the spec's flush gives 0; the same for `v3_sat_u16`
/// (`F2I.U16.CEIL.NTZ`), `v5_s32_mid`, `s46/v12` (a 32-bit destination) and, with C's lost
/// clamp, `v2_rmi_ftz` (`F2I.S16.FLOOR.NTZ`: −1 of a negative subnormal).
#[test]
fn n6_3702_a_fused_sat16_reader_of_an_ftz_cvt_does_not_flush() {
    let d = Deviation::Shift16ByFtzU32CvtFlushDropped;
    let rpi_u32 = "cvt.rpi.ftz.u32.f32 %r1, %r0;";
    exact_case(&chain(rpi_u32, "cvt.sat.s16.u32 %h0, %r1;"), POSITIVE_SUBNORMAL, d, 0, 1);
    exact_case(&chain(rpi_u32, "cvt.sat.s16.u32 %h0, %r1;"), [0x0056_f51a, 0, 0, 0], d, 0, 1);
    exact_case(&chain(rpi_u32, "cvt.sat.u16.u32 %h0, %r1;"), POSITIVE_SUBNORMAL, d, 0, 1);
    exact_case(&chain(rpi_u32, "cvt.sat.u16.u32 %r2, %r1;"), POSITIVE_SUBNORMAL, d, 0, 1);
    let rpi_s32 = "cvt.rpi.ftz.s32.f32 %r1, %r0;";
    exact_case(&chain(rpi_s32, "cvt.sat.s16.s32 %h0, %r1;"), POSITIVE_SUBNORMAL, d, 0, 1);
    let rmi_u32 = "cvt.rmi.ftz.u32.f32 %r1, %r0;";
    exact_case(&chain(rmi_u32, "cvt.sat.s16.u32 %h0, %r1;"), NEGATIVE_SUBNORMAL, d, 0, 0xffff);
}

/// Right (the `.FTZ` kept, or the flush changes nothing): no `.sat` (`v6_no_sat_u16_u32`,
/// `s46/v11`), an 8-bit reader (`v4_sat_s8`, `s46/v10`), no `.ftz` on the producer, a normal
/// float, and `.rzi` of a subnormal (0 either way, `s46/v8`).
#[test]
fn n6_3702_leaves_unfused_or_unflushed_readers_alone() {
    let d = Deviation::Shift16ByFtzU32CvtFlushDropped;
    let rpi_u32 = "cvt.rpi.ftz.u32.f32 %r1, %r0;";
    untouched(&chain(rpi_u32, "cvt.u16.u32 %h0, %r1;"), POSITIVE_SUBNORMAL, d);
    untouched(&chain(rpi_u32, "cvt.s16.u32 %h0, %r1;"), POSITIVE_SUBNORMAL, d);
    untouched(&chain(rpi_u32, "cvt.sat.s8.u32 %h0, %r1;"), POSITIVE_SUBNORMAL, d);
    untouched(&chain("cvt.rpi.ftz.s32.f32 %r1, %r0;", "cvt.sat.s8.s32 %h0, %r1;"), POSITIVE_SUBNORMAL, d);
    untouched(&chain("cvt.rpi.u32.f32 %r1, %r0;", "cvt.sat.s16.u32 %h0, %r1;"), POSITIVE_SUBNORMAL, d);
    untouched(&chain(rpi_u32, "cvt.sat.s16.u32 %h0, %r1;"), [0x3fc0_0000, 0, 0, 0], d);
    untouched(&chain("cvt.rzi.ftz.s32.f32 %r1, %r0;", "cvt.sat.u16.s32 %h0, %r1;"), POSITIVE_SUBNORMAL, d);
    // The `.u32` result read alone (`v1_cvt_stored_right`).
    untouched(&["ld.global.u32 %r0, [%in];", rpi_u32, "st.global.b32 [%out], %r1;"], POSITIVE_SUBNORMAL, d);
}

/// d2270cfc's campaign case (128 threads, 46 statements): emulating 3702-N6 alone gives the
/// stored ptxas -O3 words of threads 15 and 63 (each 16-bit half of the sum moved by ±1, h2 = 1
/// xored in) and the spec's words everywhere else.
#[test]
fn n6_3702_d2270cfc_the_campaign_case_gives_the_stored_o3_words() {
    let (p, i) = super::stored_case("4503", "d2270cfc32c509a3");
    let d = Deviation::Shift16ByFtzU32CvtFlushDropped;
    let spec = run(&p, &i, &Allowances::all()).unwrap();
    let (out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
    assert_eq!(fired, vec![d]);
    let stored = [((15, 0), 0x5540_a8fc), ((15, 1), 0x51d5_ff67), ((63, 0), 0xf749_8679), ((63, 1), 0x65ff_a21d)];
    for (t, (s, e)) in spec.iter().zip(&out).enumerate() {
        for w in 0..p.outputs {
            let (s, e) = (s.field(32 * w, 32), e.field(32 * w, 32));
            assert!(e.is_exact(), "thread {t} word {w}");
            let want = stored.iter().find(|(at, _)| *at == (t, w)).map_or(s.bits, |&(_, v)| v);
            assert_eq!(e.bits, want, "thread {t} word {w}");
        }
    }
}
