//! Helper c4 (trace only; a copy of the campaign's source b3b983a, not the repo): which of the
//! campaign's emulations fire on seed 4203's reductions of 98d8219f, 00eb007a, 632bd7c5 and
//! 16cd6583, and what the spec says.
use super::*;

fn report(name: &str, lines: &[&str], words: [u32; 4], gpu: u64) {
    let (p, i) = (program(lines), Inputs(words.to_vec()));
    let spec = run(&p, &i, &Allowances::all()).unwrap().remove(0);
    let mut any = false;
    for d in Deviation::ALL {
        let (mut out, fired) = run_emulating(&p, &i, &Allowances::all().emulating(d)).unwrap();
        let e = out.remove(0);
        if !fired.is_empty() {
            any = true;
            eprintln!("C4 {name}: {d:?} fired {fired:?}: emulated {e} admits GPU {gpu:#x}: {}", e.matches(gpu as u128));
        }
    }
    eprintln!("C4 {name}: spec {spec} admits GPU {gpu:#x}: {}; any emulation fired: {any}", spec.matches(gpu as u128));
}

#[test]
fn c4_report() {
    // 98d8219f: setp.lt.u32 exit, counter from 0x80000000 counted up (GPU: 4097 trips, r0 = 0, r2 = 0x7efff).
    report("98d8219f reduced", &["mov.b32 %r0, 0x9f765b1d;", "mov.u32 %r2, 0x80000000;", "$L0:", "mul.lo.s32 %r0, %r0, %r2;",
        "add.u32 %r2, %r2, 0x7ffff;", "setp.lt.u32 %p2, %r2, 0x15;", "@%p2 bra $L0;", "st.global.u32 [%out], %r0;",
        "st.global.u32 [%out+4], %r2;"], [0; 4], 0x0007efff_00000000);
    report("98d8219f v5_small_step", &["mov.u32 %r2, 0xfffffff0;", "$L0:", "add.u32 %r2, %r2, 1;", "setp.lt.u32 %p2, %r2, 0x15;",
        "@%p2 bra $L0;", "st.global.u32 [%out], %r2;"], [0; 4], 0x15);
    // 00eb007a: setp.gt.u32 r1, 0x1f, r1 -= 0x7fffffff (GPU: 1 trip).
    report("00eb007a reduced", &["mov.b64 %d0, 878789253;", "mov.b32 %r1, 0;", "$L0:", "add.cc.u64 %d0, %d0, %d0;",
        "sub.u32 %r1, %r1, 0x7fffffff;", "setp.gt.u32 %p0, %r1, 0x1f;", "@%p0 bra $L0;", "st.global.u64 [%out], %d0;"],
        [0; 4], 0x68c2850a);
    report("00eb007a v1_counter_only", &["mov.b32 %r1, 0;", "$L0:", "sub.u32 %r1, %r1, 0x7fffffff;", "setp.gt.u32 %p0, %r1, 0x1f;",
        "@%p0 bra $L0;", "st.global.u32 [%out], %r1;"], [0; 4], 0x80000001);
    // 632bd7c5: mul.hi + add in a 6-trip loop (13.0.88: 3 links in the reduction, 4 in orig).
    let x: u64 = 0x7d56a259;
    let h = (x * x) >> 32;
    report("632bd7c5 reduced", &["ld.global.u32 %r0, [%in];", "mul.hi.u32 %r1, %r0, %r0;", "mov.u32 %r2, 0;", "$L0:",
        "add.s32 %r0, %r0, %r1;", "mov.b64 %d0, 0;", "add.u32 %r2, %r2, 0x3;", "setp.lt.u32 %p0, %r2, 0x12;", "@%p0 bra $L0;",
        "st.global.u32 [%out], %r0;"], [0x7d56a259, 0, 0, 0], (x + 3 * h) & 0xffff_ffff);
    // 16cd6583: set.gt.f32.u32 compared with 0, read by cvt.u8.u32 (GPU 1).
    report("16cd6583 reduced", &["ld.global.u32 %r0, [%in];", "mov.b32 %r1, 0;", "set.gt.f32.u32 %r0, %r0, 0x0;",
        "setp.eq.s32 %p0, %r1, %r0;", "cvt.u8.u32 %h3, %r0;", "@%p0 cvt.s16.u32 %h3, %r1;", "st.global.s16 [%out], %h3;"],
        [0xb7c82522, 0, 0, 0], 1);
    report("16cd6583 v8_setp_ne_imm0_u8", &["ld.global.u32 %r0, [%in];", "set.gt.f32.u32 %r0, %r0, 0x0;", "setp.ne.u32 %p0, %r0, 0;",
        "cvt.u8.u32 %h3, %r0;", "mov.b16 %h5, 7;", "mov.b16 %h6, 9;", "selp.b16 %h4, %h5, %h6, %p0;", "st.global.s16 [%out], %h3;", "st.global.s16 [%out+2], %h4;"],
        [0xb7c82522, 0, 0, 0], 0x0007_0001);
    // Control: 3604-N3's own l1 form fires.
    report("control 3604-N3 l1", &["mov.b32 %r8, 0;", "mov.u32 %r14, 5;", "$L0:", "add.s32 %r8, %r8, -1;", "sub.u32 %r14, %r14, 1;",
        "setp.gt.u32 %p1, %r14, 0xffffffff;", "@%p1 bra $L0;", "st.global.u32 [%out], %r8;"], [0; 4], 0xfffffffa);
}
