//! Helper a2 (trace only; a copy, not the repo): do the campaign's emulations reach seed 4201's
//! e63ae4e6/76cb49f0, ca25d7b2 and f3426d51 reductions?
use super::*;

fn xor_prog(pack: &str) -> Vec<String> {
    vec![
        "ld.global.u32 %r1, [%in];".into(),
        "set.lt.u32.u32 %r2, %r1, 1065353216;".into(),
        "ld.global.u16 %h6, [%in+8];".into(),
        "mov.b32 {%h8, %h9}, %r2;".into(),
        "xor.b16 %h10, %h8, %h9;".into(),
        "xor.b16 %h11, %h10, %h6;".into(),
        pack.into(),
        "st.global.u16 [%out], %h11;".into(),
        "st.global.b32 [%out+4], %r9;".into(),
    ]
}

#[test]
fn a2_report() {
    let d = Deviation::XorOfSetMaskHalvesTestedOverMergedHalf;
    for pack in ["mov.b32 %r9, {%h8, %h8};", "mov.b32 %r9, {%h9, %h9};", "mov.b32 %r9, {%h8, %h9};"] {
        let p = xor_prog(pack);
        let (s, e, fired) = both(&strs(&p), [0, 0, 0x7fff, 0], d);
        eprintln!("A2 xor {pack}: spec {s} emulated {e} fired {fired:?} admits 0x8000: {}", e.matches((s.bits & !0xFFFF) | 0x8000));
    }
    let l = ["mov.b32 %r2, 0;", "$L1:", "sub.u32 %r2, %r2, 0x80000000;", "setp.gt.u32 %p2, %r2, 0x7fffffff;", "@%p2 bra $L1;", "st.global.b32 [%out], %r2;"];
    let (s, e, fired) = both(&l, [0; 4], Deviation::UnsignedLoopExitTestCountedSigned);
    eprintln!("A2 loop K=0x7fffffff sub 2^31: spec {s} emulated {e} fired {fired:?}");
    let l = ["mov.b32 %r2, 5;", "$L1:", "sub.u32 %r2, %r2, 1;", "setp.gt.u32 %p2, %r2, 0xffffffff;", "@%p2 bra $L1;", "st.global.b32 [%out], %r2;"];
    let (s, e, fired) = both(&l, [0; 4], Deviation::UnsignedLoopExitTestCountedSigned);
    eprintln!("A2 loop control (T8 l1 form): spec {s} emulated {e} fired {fired:?}");
    let l = ["mov.f64 %d0, 0d6BC41CD2866DB70A;", "bfe.u64 %d1, %d0, 15, 49;", "cvt.s8.s64 %h1, %d1;", "cvt.u32.u16 %r4, %h1;", "st.global.b32 [%out], %r4;"];
    let (s, e, fired) = both(&l, [0; 4], Deviation::S8RoundTripThrough64SignExtends32);
    eprintln!("A2 bfe const cvt: spec {s} emulated {e} fired {fired:?}");
    let l = ["mov.b64 %d0, 0xdb;", "cvt.s64.s8 %d1, %d0;", "cvt.s8.s64 %h1, %d1;", "cvt.u32.u16 %r4, %h1;", "st.global.b32 [%out], %r4;"];
    let (s, e, fired) = both(&l, [0; 4], Deviation::S8RoundTripThrough64SignExtends32);
    eprintln!("A2 control cvt.s64.s8 round trip: spec {s} emulated {e} fired {fired:?}");
}
