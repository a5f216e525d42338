//! y2 probe (trace of seed 4102): prints spec and emulated words; no assertions.
use super::*;

fn show(name: &str, lines: &[&str], words: [u32; 4], d: Deviation) {
    let (s, e, fired) = both(lines, words, d);
    eprintln!("PROBE {name}: spec={:#010x} exact={} emulated({d:?})={:#010x} exact={} fired={fired:?}", s.bits, s.is_exact(), e.bits, e.is_exact());
}

#[test]
fn y2_probe() {
    let g = Deviation::ZeroExtendedHighHalfReadAsTheValue;
    let w78 = [0x00af_0000, 0, 0, 0];
    show("78ee/reduced ld.b8", &["ld.global.b8 %h0, [%in+2];", "cvt.s64.u8 %d0, %h0;", "mov.b64 {_, %h0, %h3, %h4}, %d0;", "st.global.s8 [%out+1], %h0;"], w78, g);
    show("78ee/v1 ld.u8", &["ld.global.u8 %h0, [%in+2];", "cvt.s64.u8 %d0, %h0;", "mov.b64 {_, %h0, %h3, %h4}, %d0;", "st.global.s8 [%out+1], %h0;"], w78, g);
    show("78ee/v2 ld.b8 cvt.u64.u8", &["ld.global.b8 %h0, [%in+2];", "cvt.u64.u8 %d0, %h0;", "mov.b64 {_, %h0, %h3, %h4}, %d0;", "st.global.s8 [%out+1], %h0;"], w78, g);
    show("78ee/v3 ld.u8 cvt.u64.u8", &["ld.global.u8 %h0, [%in+2];", "cvt.u64.u8 %d0, %h0;", "mov.b64 {_, %h0, %h3, %h4}, %d0;", "st.global.s8 [%out+1], %h0;"], w78, g);
    show("78ee/v7 ld.b8 cvt.u32.u8 b32 unpack", &["ld.global.b8 %h0, [%in+2];", "cvt.u32.u8 %r0, %h0;", "mov.b32 {_, %h1}, %r0;", "st.global.b16 [%out+2], %h1;"], w78, g);
    show("78ee/v7u ld.u8 cvt.u32.u8 b32 unpack", &["ld.global.u8 %h0, [%in+2];", "cvt.u32.u8 %r0, %h0;", "mov.b32 {_, %h1}, %r0;", "st.global.b16 [%out+2], %h1;"], w78, g);
    let f = Deviation::NegationOverflow;
    let w6d = [0x8000_0000, 0, 0, 0];
    show("6d10/reduced", &["ld.global.s16 %h3, [%in+2];", "abs.s16 %h2, %h3;", "cvt.u32.u16 %r5, %h2;", "cvt.rn.sat.f32.s32 %r7, %r5;", "st.global.f32 [%out], %r7;"], w6d, f);
    show("6d10/v1_nosat", &["ld.global.s16 %h3, [%in+2];", "abs.s16 %h2, %h3;", "cvt.u32.u16 %r5, %h2;", "cvt.rn.f32.s32 %r7, %r5;", "st.global.f32 [%out], %r7;"], w6d, f);
    show("6d10/known cvt.rn.f32.u16 of abs", &["ld.global.s16 %h3, [%in+2];", "abs.s16 %h2, %h3;", "cvt.rn.f32.u16 %r7, %h2;", "st.global.f32 [%out], %r7;"], w6d, f);
    let n3 = Deviation::CnotOfSetCvtConvertedAsNumber;
    let trig = ["ld.global.s32 %r8, [%in+8];", "set.ge.s32.u32 %r9, %r8, 0x0;", "mov.b32 {%h5, %h6}, %r9;", "ld.global.b16 %h8, [%in+12];", "xor.b16 %h9, %h5, %h8;", "st.global.s16 [%out], %h9;"];
    let w62 = [0x0000_1000, 0, 0, 0];
    let chain = ["ld.global.b8 %h0, [%in+1];", "cvt.s64.s8 %d0, %h0;", "set.ne.f32.s64 %r4, %d0, 0;", "cvt.rmi.s16.f32 %h1, %r4;", "cvt.rmi.s8.bf16 %c1, %h1;", "mov.b16 %h13, {%c1, %c1};", "st.global.u16 [%out+2], %h13;"];
    let all: Vec<&str> = chain.iter().chain(trig.iter()).copied().collect();
    show("6d02/reduced", &all, w62, n3);
    let cnot = ["ld.global.b8 %h0, [%in+1];", "cnot.b16 %h1, %h0;", "cvt.rmi.s8.bf16 %c1, %h1;", "mov.b16 %h13, {%c1, %c1};", "st.global.u16 [%out+2], %h13;"];
    let allc: Vec<&str> = cnot.iter().chain(trig.iter()).copied().collect();
    show("6d02/cnot form (emulated scope)", &allc, [0, 0, 0, 0], n3);
    let red10 = ["ld.global.b8 %h0, [%in+1];", "set.ne.f32.s16 %r4, %h0, 0;", "cvt.rmi.s16.f32 %h1, %r4;", "cvt.rmi.s8.bf16 %c1, %h1;", "st.global.b8 [%out+2], %c1;", "ld.global.s32 %r8, [%in+8];", "set.ge.s32.u32 %r9, %r8, 0x0;", "ld.global.b32 %r10, [%in+12];", "xor.b32 %r11, %r9, %r10;", "st.global.b32 [%out+4], %r11;"];
    show("6d02/reduced10", &red10, w62, n3);
    for d in Deviation::ALL {
        let (s, e, fired) = both(&red10, w62, d);
        if !fired.is_empty() || e != s { eprintln!("PROBE 6d02/reduced10 fires {d:?}: {:#x}", e.bits); }
    }
    for d in Deviation::ALL {
        let (s, e, fired) = both(&all, w62, d);
        if !fired.is_empty() || e != s { eprintln!("PROBE 6d02 fires {d:?}: {:#x}", e.bits); }
        let l78 = ["ld.global.b8 %h0, [%in+2];", "cvt.s64.u8 %d0, %h0;", "mov.b64 {_, %h0, %h3, %h4}, %d0;", "st.global.s8 [%out+1], %h0;"];
        let (s, e, fired) = both(&l78, w78, d);
        if !fired.is_empty() || e != s { eprintln!("PROBE 78ee fires {d:?}: {:#x}", e.bits); }
        let l6d = ["ld.global.s16 %h3, [%in+2];", "abs.s16 %h2, %h3;", "cvt.u32.u16 %r5, %h2;", "cvt.rn.sat.f32.s32 %r7, %r5;", "st.global.f32 [%out], %r7;"];
        let (s, e, fired) = both(&l6d, w6d, d);
        if !fired.is_empty() || e != s { eprintln!("PROBE 6d10 fires {d:?}: {:#x}", e.bits); }
    }
}
