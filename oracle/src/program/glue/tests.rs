//! Tests of [`super`] (`program/glue.rs`).

use super::*;

fn r(s: &str) -> Reg {
    Reg::parse(s).unwrap()
}

/// The instruction `op.ty` with no operands (for evaluation only).
fn g(op: GlueOp, ty: GlueType) -> Glue {
    Glue { op, ty, dst: r("%r1"), src: [None; 4] }
}

/// SplitMix64 values, for property checks against a second formulation.
fn values(n: usize) -> Vec<u64> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let edges = [0, 1, 2, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF];
    let mut v: Vec<u64> = edges.iter().flat_map(|&e| [e, !e, e << 32 | e]).collect();
    while v.len() < n {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        v.push(z ^ (z >> 31));
    }
    v
}

#[test]
fn print_parse_round_trip() {
    let cases = [
        "add.s32 %r1, %r2, -5;",
        "mul.lo.u64 %d1, %d2, %d3;",
        "setp.lt.s16 %p1, %h2, -32768;",
        "selp.b16 %h1, %h2, %h3, %p0;",
        "shr.s64 %d1, %d2, %r3;",
        "shl.b32 %r1, %tix, 0x3;",
        "min.s16x2 %r1, %r2, %r3;",
        "not.b64 %d1, %d2;",
        "abs.s16 %h1, %h2;",
        "mul.hi.s64 %d1, %d2, -7;",
        "mul.wide.u16 %r1, %h2, %h3;",
        "mad.wide.s32 %d1, %r2, %r3, -1;",
        "mad.lo.u16 %h1, %h2, 0x3, %h4;",
        "lop3.b32 %r1, %r2, %r3, %r4, 0xe8;",
        "shf.r.clamp.b32 %r1, %r2, %r3, 0x20;",
        "bfe.s64 %d1, %d2, 0x8, %r3;",
        "bfi.b64 %d1, %d2, %d3, %r4, 0x10;",
        "bfind.shiftamt.u64 %r1, %d2;",
        "clz.b64 %r1, %d2;",
        "popc.b32 %r1, %r2;",
        "brev.b64 %d1, %d2;",
        "cnot.b16 %h1, %h2;",
        "set.ge.f32.s16 %r1, %h2, -1;",
        "slct.u16.s32 %h1, %h2, %h3, %r4;",
        "slct.b64.s32 %d1, %d2, %d3, -8;",
        "add.cc.u32 %r1, %r2, %r3;",
        "addc.cc.s64 %d1, %d2, -1;",
        "subc.u32 %r1, %r2, 0x1;",
        "sub.cc.s32 %r1, %r2, %r3;",
    ];
    for c in cases {
        let g = Glue::parse(c).unwrap_or_else(|e| panic!("{c}: {e}"));
        assert_eq!(g.to_string(), c);
    }
    for bad in [
        "sub.s16x2 %r1, %r2, %r3",
        "add.s32 %h1, %r2, %r3",
        "not.b32 %r1, 5",
        "add.s16 %h1, %h2, 70000",
        "lop3.b32 %r1, %r2, %r3, %r4, %r5",
        "lop3.b32 %r1, %r2, %r3, %r4, 0x100",
        "mul.wide.u64 %d1, %d2, %d3",
        "mul.wide.u32 %r1, %r2, %r3",
        "clz.b32 %h1, %r2",
        "bfe.b32 %r1, %r2, 1, 2",
        "bfe.u32 %r1, %r2, 256, 2",
        "bfi.b32 %r1, %r2, %r3, 1, 0x100",
        "slct.u32 %r1, %r2, %r3, %r4",
        "shf.l.b32 %r1, %r2, %r3, %r4",
        "addc.u16 %h1, %h2, %h3",
    ] {
        assert!(Glue::parse(bad).is_err(), "{bad}");
    }
    // Every (op, type) pair prints and parses back with register operands.
    let mut pairs = 0;
    for op in GlueOp::all() {
        for ty in GlueType::ALL.into_iter().filter(|&t| Glue::op_takes(op, t)) {
            let mut src = [None; 4];
            for (k, s) in src.iter_mut().enumerate().take(op.arity()) {
                *s = Some(if Glue::imm_required(op, k) {
                    Src::Imm(0x5A)
                } else {
                    Src::Reg(Reg::Virt(Glue::src_class(op, ty, k), k as u32))
                });
            }
            let glue = Glue { op, ty, dst: Reg::Virt(Glue::dst_class(op, ty), 9), src };
            assert!(glue.is_valid(), "{glue}");
            assert_eq!(Glue::parse(&glue.to_string()).ok(), Some(glue), "{glue}");
            pairs += 1;
        }
    }
    assert!(pairs > 150, "{pairs} pairs");
}

#[test]
fn semantics_edge_cases() {
    let e = |op, ty, a, b| g(op, ty).eval([a, b, 0, 0], false);
    assert_eq!(e(GlueOp::Abs, GlueType::S32, 0x8000_0000, 0), 0x8000_0000);
    assert_eq!(e(GlueOp::Shr, GlueType::S16, 0x8000, 40), 0xFFFF);
    assert_eq!(e(GlueOp::Shr, GlueType::U16, 0x8000, 40), 0);
    assert_eq!(e(GlueOp::Shl, GlueType::B32, 1, 32), 0);
    assert_eq!(e(GlueOp::Shl, GlueType::B32, 1, 31), 0x8000_0000);
    assert_eq!(e(GlueOp::Min, GlueType::S16x2, 0x8000_0001, 0x0001_8000), 0x8000_8000);
    assert_eq!(e(GlueOp::Max, GlueType::U16x2, 0x8000_0001, 0x0001_8000), 0x8000_8000);
    assert_eq!(e(GlueOp::Add, GlueType::U16x2, 0xFFFF_0001, 0x0001_FFFF), 0);
    assert_eq!(e(GlueOp::Setp(Cmp::Lt), GlueType::S64, u64::MAX, 0), 1);
    assert_eq!(e(GlueOp::Setp(Cmp::Lt), GlueType::U64, u64::MAX, 0), 0);
    assert_eq!(g(GlueOp::Selp, GlueType::B16).eval([1, 2, 0, 0], false), 2);
    assert_eq!(e(GlueOp::MulLo, GlueType::S16, 0x100, 0x100), 0);
}

/// Vectors computed by hand from the pseudo-code of §9.7.1, §9.7.7 and §9.7.8.
#[test]
fn new_glue_matches_hand_computed_vectors() {
    use GlueOp::*;
    use GlueType::*;
    let e = |op, ty, s: [u64; 4]| g(op, ty).eval(s, false);
    // mul.hi / mul.wide / mad (§9.7.1.3–4).
    assert_eq!(e(MulHi, U32, [0xFFFF_FFFF, 0xFFFF_FFFF, 0, 0]), 0xFFFF_FFFE);
    assert_eq!(e(MulHi, S32, [0xFFFF_FFFF, 0xFFFF_FFFF, 0, 0]), 0); // -1·-1 = 1
    assert_eq!(e(MulHi, S16, [0x8000, 0x8000, 0, 0]), 0x4000); // 2^30
    assert_eq!(e(MulHi, U64, [u64::MAX, 2, 0, 0]), 1);
    assert_eq!(e(MulHi, S64, [u64::MAX, 2, 0, 0]), u64::MAX); // -2 >> 64
    assert_eq!(e(MulWide, S16, [0xFFFE, 3, 0, 0]), 0xFFFF_FFFA); // -6
    assert_eq!(e(MulWide, U16, [0xFFFF, 0xFFFF, 0, 0]), 0xFFFE_0001);
    assert_eq!(e(MulWide, S32, [0x8000_0000, 0x8000_0000, 0, 0]), 1 << 62);
    assert_eq!(e(MadLo, U16, [0x100, 0x100, 5, 0]), 5);
    assert_eq!(e(MadHi, U32, [0xFFFF_FFFF, 0xFFFF_FFFF, 2, 0]), 0);
    assert_eq!(e(MadWide, S32, [0xFFFF_FFFF, 1, 0, 0]), u64::MAX);
    assert_eq!(e(MadWide, U16, [0xFFFF, 0xFFFF, 0xFFFF, 0]), 0xFFFF_0000);
    // cnot, popc, clz, brev, bfind (§9.7.8.5, §9.7.1.14–18).
    assert_eq!(e(Cnot, B16, [0, 0, 0, 0]), 1);
    assert_eq!(e(Cnot, B64, [1 << 63, 0, 0, 0]), 0);
    assert_eq!(e(Popc, B64, [u64::MAX, 0, 0, 0]), 64);
    assert_eq!(e(Popc, B32, [0xF0F0_0001, 0, 0, 0]), 9);
    assert_eq!(e(Clz, B32, [0, 0, 0, 0]), 32);
    assert_eq!(e(Clz, B64, [1, 0, 0, 0]), 63);
    assert_eq!(e(Clz, B32, [0x0001_0000, 0, 0, 0]), 15);
    assert_eq!(e(Brev, B32, [1, 0, 0, 0]), 0x8000_0000);
    assert_eq!(e(Brev, B64, [0x0000_0000_0000_00F1, 0, 0, 0]), 0x8F00_0000_0000_0000);
    let bfind = |sa| Bfind { shiftamt: sa };
    assert_eq!(e(bfind(false), U32, [0, 0, 0, 0]), 0xFFFF_FFFF);
    assert_eq!(e(bfind(false), U32, [0x0010_0000, 0, 0, 0]), 20);
    assert_eq!(e(bfind(true), U32, [0x0010_0000, 0, 0, 0]), 11);
    assert_eq!(e(bfind(false), S32, [0xFFFF_FFFF, 0, 0, 0]), 0xFFFF_FFFF);
    assert_eq!(e(bfind(false), S32, [0x8000_0000, 0, 0, 0]), 30);
    assert_eq!(e(bfind(true), S64, [0xFFFF_FFFF_FFFF_FFFE, 0, 0, 0]), 63);
    assert_eq!(e(bfind(false), U64, [1 << 40, 0, 0, 0]), 40);
    // bfe / bfi (§9.7.1.19–20).
    assert_eq!(e(Bfe, U32, [0x1234_5678, 4, 8, 0]), 0x67);
    assert_eq!(e(Bfe, S32, [0x0000_00F0, 4, 4, 0]), 0xFFFF_FFFF);
    assert_eq!(e(Bfe, S32, [0x0000_00F0, 4, 0, 0]), 0);
    assert_eq!(e(Bfe, S32, [0x8000_0000, 40, 3, 0]), 0xFFFF_FFFF); // past the msb: sign bit
    assert_eq!(e(Bfe, U32, [0x8000_0000, 28, 0x108, 0]), 0x8); // len's low byte: 8
    assert_eq!(e(Bfe, S64, [0x0000_0080_0000_0000, 32, 8, 0]), u64::MAX << 7);
    assert_eq!(e(Bfi, B32, [0xF, 0x1234_5678, 8, 4]), 0x1234_5F78);
    assert_eq!(e(Bfi, B32, [0xFFFF, 0, 30, 8]), 0xC000_0000);
    assert_eq!(e(Bfi, B64, [0xAB, u64::MAX, 60, 0]), u64::MAX);
    assert_eq!(e(Bfi, B32, [1, 0x10, 0x120, 1]), 0x10); // pos's low byte 0x20: past the msb
    assert_eq!(e(Bfi, B32, [1, 0x10, 0x101, 1]), 0x12); // pos's low byte 1
                                                        // lop3 (§9.7.8.6): the tables of a, b, c are 0xF0, 0xCC, 0xAA.
    let (a, b, c) = (0x1234_5678u64, 0x9ABC_DEF0, 0x0F0F_F0F0);
    assert_eq!(e(Lop3, B32, [a, b, c, 0xF0]), a);
    assert_eq!(e(Lop3, B32, [a, b, c, 0xCC]), b);
    assert_eq!(e(Lop3, B32, [a, b, c, 0xAA]), c);
    assert_eq!(e(Lop3, B32, [a, b, c, 0x96]), a ^ b ^ c);
    assert_eq!(e(Lop3, B32, [a, b, c, 0xE8]), (a & b) | (a & c) | (b & c));
    assert_eq!(e(Lop3, B32, [a, b, c, 0x80]), a & b & c);
    assert_eq!(e(Lop3, B32, [a, b, c, 0x01]), !(a | b | c) & 0xFFFF_FFFF);
    // shf (§9.7.8.7): b:a = 0x01234567:89ABCDEF.
    let shf = |left, wrap| Shf { left, wrap };
    let (lo, hi) = (0x89AB_CDEF, 0x0123_4567);
    assert_eq!(e(shf(true, true), B32, [lo, hi, 8, 0]), 0x2345_6789);
    assert_eq!(e(shf(false, true), B32, [lo, hi, 8, 0]), 0x6789_ABCD);
    assert_eq!(e(shf(true, true), B32, [lo, hi, 40, 0]), 0x2345_6789);
    assert_eq!(e(shf(true, false), B32, [lo, hi, 40, 0]), lo);
    assert_eq!(e(shf(false, false), B32, [lo, hi, 40, 0]), hi);
    assert_eq!(e(shf(false, false), B32, [lo, hi, 0, 0]), lo);
    assert_eq!(e(shf(true, false), B32, [lo, hi, 0, 0]), hi);
    // set / slct (§9.7.7.1, §9.7.7.4).
    assert_eq!(e(Set(Cmp::Lt, SetDst::F32), S32, [0xFFFF_FFFF, 0, 0, 0]), 0x3F80_0000);
    assert_eq!(e(Set(Cmp::Lt, SetDst::U32), U32, [0xFFFF_FFFF, 0, 0, 0]), 0);
    assert_eq!(e(Set(Cmp::Ne, SetDst::S32), U16, [1, 2, 0, 0]), 0xFFFF_FFFF);
    assert_eq!(e(Slct, B16, [1, 2, 0, 0]), 1);
    assert_eq!(e(Slct, S64, [1, 2, 0x8000_0000, 0]), 2);
    assert_eq!(e(Slct, U32, [1, 2, 0x7FFF_FFFF, 0]), 1);
}

/// `bfe` and `bfi` against a second formulation by masks and shifts; `mul.hi.u64` against
/// a product of 32-bit halves; carry chains against one wide add or subtract.
#[test]
fn new_glue_matches_second_formulations() {
    let vs = values(200);
    for (i, &a) in vs.iter().enumerate() {
        let x = vs[(i * 7 + 3) % vs.len()];
        for ty in [GlueType::U32, GlueType::S32, GlueType::U64, GlueType::S64] {
            let w = u64::from(ty.bits());
            let m = mask(ty.bits());
            for (pos, len) in [(0, 0), (0, 1), (3, 5), (w - 1, 1), (w - 4, 8), (w, 2), (7, w), (x & 0x1FF, a >> 56)] {
                let got = g(GlueOp::Bfe, ty).eval([a, pos, len, 0], false);
                let (p, l) = (pos & 0xFF, len & 0xFF);
                let real = if p >= w { 0 } else { l.min(w - p) };
                let field = if p >= w { 0 } else { ((a & m) >> p) & mask(real as u32) };
                let sign = ty.signed() && l > 0 && (a >> (p + l - 1).min(w - 1)) & 1 == 1;
                let want = if sign { field | (!mask(real as u32) & m) } else { field };
                assert_eq!(got, want, "bfe.{} {a:#x}, {pos}, {len}", ty.name());
                let bty = if w == 32 { GlueType::B32 } else { GlueType::B64 };
                let got = g(GlueOp::Bfi, bty).eval([a, x, pos, len], false);
                let field = if p >= w { 0 } else { mask(real as u32) << p };
                let want = ((x & m) & !field) | ((a << p.min(63)) & field);
                assert_eq!(got, want, "bfi.{} {a:#x}, {x:#x}, {pos}, {len}", bty.name());
            }
        }
        let (ah, al, xh, xl) = (a >> 32, a & 0xFFFF_FFFF, x >> 32, x & 0xFFFF_FFFF);
        let mid = ((al * xl) >> 32) + ((ah * xl) & 0xFFFF_FFFF) + ((al * xh) & 0xFFFF_FFFF);
        let hi = ah * xh + ((ah * xl) >> 32) + ((al * xh) >> 32) + (mid >> 32);
        assert_eq!(g(GlueOp::MulHi, GlueType::U64).eval([a, x, 0, 0], false), hi);
        // A 64-bit add and subtract as 32-bit carry chains (§9.7.2).
        let (lo_add, hi_add) = (g(GlueOp::AddCc, GlueType::U32), g(GlueOp::Addc { cc: false }, GlueType::U32));
        let cf = lo_add.carry_out([al, xl, 0, 0], false).unwrap();
        let sum = hi_add.eval([ah, xh, 0, 0], cf) << 32 | lo_add.eval([al, xl, 0, 0], false);
        assert_eq!(sum, a.wrapping_add(x));
        let (lo_sub, hi_sub) = (g(GlueOp::SubCc, GlueType::S32), g(GlueOp::Subc { cc: true }, GlueType::S32));
        let bf = lo_sub.carry_out([al, xl, 0, 0], false).unwrap();
        let diff = hi_sub.eval([ah, xh, 0, 0], bf) << 32 | lo_sub.eval([al, xl, 0, 0], false);
        assert_eq!(diff, a.wrapping_sub(x));
        assert_eq!(hi_sub.carry_out([ah, xh, 0, 0], bf), Some(a < x), "{a:#x} - {x:#x}");
        let top = g(GlueOp::Addc { cc: true }, GlueType::U64);
        assert_eq!(top.carry_out([a, x, 0, 0], true), Some(u128::from(a) + u128::from(x) + 1 > u128::from(u64::MAX)));
    }
    assert_eq!(g(GlueOp::Addc { cc: false }, GlueType::U32).carry_out([1, 2, 0, 0], true), None);
}
