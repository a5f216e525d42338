//! A small integer IR for the fast kernels' GPU twins: straight-line SSA over 32-bit values
//! and predicates, with an evaluator whose semantics are PTX's (§9.7.1 Integer Arithmetic
//! Instructions, §9.7.8 Logic and Shift Instructions, §9.7.7 Comparison and Selection
//! Instructions) and a printer that emits the same program as a PTX body.
//!
//! Invariant: [`Program::eval`] computes exactly what the text of [`Program::ptx`] computes on
//! the GPU — one PTX instruction per [`Op`], each evaluated as PTX defines it (wrapping
//! `add`/`sub`; `shl.b32`/`shr.u32` by 32 or more give 0; `clz.b32` of 0 is 32; `min`/`max`
//! and `setp` signed or unsigned as the op says). So a test of the evaluator is a test of the
//! emitted PTX's logic. Pure: no I/O.

use std::fmt::Write as _;

/// A 32-bit value of a [`Program`] (the index of the op that defines it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct V(u32);

/// A predicate of a [`Program`] (the index of the op that defines it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct P(u32);

/// A comparison of `setp` (§9.7.7.1): `U*` compare as unsigned, `S*` as signed integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// Equal.
    Eq,
    /// Not equal.
    Ne,
    /// Unsigned less than.
    LtU,
    /// Unsigned less or equal.
    LeU,
    /// Unsigned greater than.
    GtU,
    /// Unsigned greater or equal.
    GeU,
    /// Signed less than.
    LtS,
    /// Signed less or equal.
    LeS,
    /// Signed greater than.
    GtS,
    /// Signed greater or equal.
    GeS,
}

impl Cmp {
    /// The `setp` suffix, e.g. `lt.s32`.
    fn ptx(self) -> &'static str {
        match self {
            Cmp::Eq => "eq.u32",
            Cmp::Ne => "ne.u32",
            Cmp::LtU => "lt.u32",
            Cmp::LeU => "le.u32",
            Cmp::GtU => "gt.u32",
            Cmp::GeU => "ge.u32",
            Cmp::LtS => "lt.s32",
            Cmp::LeS => "le.s32",
            Cmp::GtS => "gt.s32",
            Cmp::GeS => "ge.s32",
        }
    }

    /// The comparison of `a` and `b`.
    fn eval(self, a: u32, b: u32) -> bool {
        let (sa, sb) = (a as i32, b as i32);
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::LtU => a < b,
            Cmp::LeU => a <= b,
            Cmp::GtU => a > b,
            Cmp::GeU => a >= b,
            Cmp::LtS => sa < sb,
            Cmp::LeS => sa <= sb,
            Cmp::GtS => sa > sb,
            Cmp::GeS => sa >= sb,
        }
    }
}

/// A binary operation on two 32-bit values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bin {
    /// `add.u32` (wrapping).
    Add,
    /// `sub.u32` (wrapping).
    Sub,
    /// `and.b32`.
    And,
    /// `or.b32`.
    Or,
    /// `xor.b32`.
    Xor,
    /// `shl.b32`: amounts of 32 or more give 0.
    Shl,
    /// `shr.u32` (logical): amounts of 32 or more give 0.
    Shr,
    /// `min.u32`.
    MinU,
    /// `max.u32`.
    MaxU,
    /// `min.s32`.
    MinS,
    /// `max.s32`.
    MaxS,
}

impl Bin {
    /// The PTX mnemonic.
    fn ptx(self) -> &'static str {
        match self {
            Bin::Add => "add.u32",
            Bin::Sub => "sub.u32",
            Bin::And => "and.b32",
            Bin::Or => "or.b32",
            Bin::Xor => "xor.b32",
            Bin::Shl => "shl.b32",
            Bin::Shr => "shr.u32",
            Bin::MinU => "min.u32",
            Bin::MaxU => "max.u32",
            Bin::MinS => "min.s32",
            Bin::MaxS => "max.s32",
        }
    }

    /// The operation as PTX defines it.
    fn eval(self, a: u32, b: u32) -> u32 {
        match self {
            Bin::Add => a.wrapping_add(b),
            Bin::Sub => a.wrapping_sub(b),
            Bin::And => a & b,
            Bin::Or => a | b,
            Bin::Xor => a ^ b,
            // §9.7.8.7/8: "Shift amounts greater than the register width N are clamped to N".
            Bin::Shl => a.checked_shl(b).unwrap_or(0),
            Bin::Shr => a.checked_shr(b).unwrap_or(0),
            Bin::MinU => a.min(b),
            Bin::MaxU => a.max(b),
            Bin::MinS => (a as i32).min(b as i32) as u32,
            Bin::MaxS => (a as i32).max(b as i32) as u32,
        }
    }
}

/// One instruction; the op at index `k` defines value or predicate `k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// The program's 32-bit input.
    Input,
    /// A constant (`mov.b32`).
    Const(u32),
    /// A binary operation.
    Bin(Bin, V, V),
    /// `not.b32`.
    Not(V),
    /// `clz.b32` (32 for 0).
    Clz(V),
    /// `setp`: a predicate.
    Setp(Cmp, V, V),
    /// `selp.b32 d, a, b, p`: `a` where `p`, else `b`.
    Selp(P, V, V),
    /// `and.pred`.
    PAnd(P, P),
    /// `or.pred`.
    POr(P, P),
    /// `not.pred`.
    PNot(P),
}

/// A straight-line program from one 32-bit input to one or two 32-bit outputs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    ops: Vec<Op>,
    outputs: Vec<V>,
}

impl Program {
    /// An empty program.
    pub fn new() -> Program {
        Program::default()
    }

    fn push(&mut self, op: Op) -> u32 {
        self.ops.push(op);
        (self.ops.len() - 1) as u32
    }

    /// The instructions, in order.
    pub fn ops(&self) -> &[Op] {
        &self.ops
    }

    /// The input value.
    pub fn input(&mut self) -> V {
        V(self.push(Op::Input))
    }

    /// A constant.
    pub fn c(&mut self, k: u32) -> V {
        V(self.push(Op::Const(k)))
    }

    /// A binary operation.
    pub fn bin(&mut self, op: Bin, a: V, b: V) -> V {
        V(self.push(Op::Bin(op, a, b)))
    }

    /// A binary operation with a constant right operand.
    pub fn bin_k(&mut self, op: Bin, a: V, k: u32) -> V {
        let k = self.c(k);
        self.bin(op, a, k)
    }

    /// `not.b32`.
    pub fn not(&mut self, a: V) -> V {
        V(self.push(Op::Not(a)))
    }

    /// `clz.b32`.
    pub fn clz(&mut self, a: V) -> V {
        V(self.push(Op::Clz(a)))
    }

    /// `setp`.
    pub fn setp(&mut self, cmp: Cmp, a: V, b: V) -> P {
        P(self.push(Op::Setp(cmp, a, b)))
    }

    /// `setp` against a constant.
    pub fn setp_k(&mut self, cmp: Cmp, a: V, k: u32) -> P {
        let k = self.c(k);
        self.setp(cmp, a, k)
    }

    /// A predicate of known value.
    pub fn known(&mut self, b: bool) -> P {
        let z = self.c(0);
        self.setp(if b { Cmp::Eq } else { Cmp::Ne }, z, z)
    }

    /// `selp`: `a` where `p`, else `b`.
    pub fn sel(&mut self, p: P, a: V, b: V) -> V {
        V(self.push(Op::Selp(p, a, b)))
    }

    /// `selp` between constants.
    pub fn sel_k(&mut self, p: P, a: u32, b: u32) -> V {
        let (a, b) = (self.c(a), self.c(b));
        self.sel(p, a, b)
    }

    /// `and.pred`.
    pub fn pand(&mut self, a: P, b: P) -> P {
        P(self.push(Op::PAnd(a, b)))
    }

    /// `or.pred`.
    pub fn por(&mut self, a: P, b: P) -> P {
        P(self.push(Op::POr(a, b)))
    }

    /// `not.pred`.
    pub fn pnot(&mut self, a: P) -> P {
        P(self.push(Op::PNot(a)))
    }

    /// Declares the program's outputs (one or two words).
    pub fn set_outputs(&mut self, outputs: &[V]) {
        self.outputs = outputs.to_vec();
    }

    /// The outputs.
    pub fn outputs(&self) -> &[V] {
        &self.outputs
    }

    /// Runs the program on `x` with PTX's semantics; returns the outputs.
    pub fn eval(&self, x: u32) -> Vec<u32> {
        let mut v = vec![0u32; self.ops.len()];
        for (k, op) in self.ops.iter().enumerate() {
            let r = |a: V| v[a.0 as usize];
            let p = |a: P| v[a.0 as usize] != 0;
            v[k] = match *op {
                Op::Input => x,
                Op::Const(c) => c,
                Op::Bin(b, a, c) => b.eval(r(a), r(c)),
                Op::Not(a) => !r(a),
                Op::Clz(a) => r(a).leading_zeros(),
                Op::Setp(cmp, a, b) => u32::from(cmp.eval(r(a), r(b))),
                Op::Selp(q, a, b) => {
                    if p(q) {
                        r(a)
                    } else {
                        r(b)
                    }
                }
                Op::PAnd(a, b) => u32::from(p(a) && p(b)),
                Op::POr(a, b) => u32::from(p(a) || p(b)),
                Op::PNot(a) => u32::from(!p(a)),
            };
        }
        self.outputs.iter().map(|o| v[o.0 as usize]).collect()
    }

    /// The name of value `v` in the printed PTX (`{prefix}r{index}`).
    pub fn reg(prefix: &str, v: V) -> String {
        format!("%{prefix}r{}", v.0)
    }

    /// The PTX text: the register declarations (`.reg .b32 %{prefix}r<N>;` and
    /// `.reg .pred %{prefix}p<N>;`), then one instruction per op; the input is read from the
    /// `.b32` register `input`. Outputs are named by [`Program::reg`].
    pub fn ptx(&self, prefix: &str, input: &str) -> String {
        let n = self.ops.len();
        let mut out = String::new();
        let _ = writeln!(out, "  .reg .b32 %{prefix}r<{n}>;\n  .reg .pred %{prefix}p<{n}>;");
        let r = |a: V| format!("%{prefix}r{}", a.0);
        let p = |a: P| format!("%{prefix}p{}", a.0);
        for (k, op) in self.ops.iter().enumerate() {
            let d = r(V(k as u32));
            let q = p(P(k as u32));
            let _ = match *op {
                Op::Input => writeln!(out, "  mov.b32 {d}, {input};"),
                Op::Const(c) => writeln!(out, "  mov.b32 {d}, {c};"),
                Op::Bin(b, a, c) => writeln!(out, "  {} {d}, {}, {};", b.ptx(), r(a), r(c)),
                Op::Not(a) => writeln!(out, "  not.b32 {d}, {};", r(a)),
                Op::Clz(a) => writeln!(out, "  clz.b32 {d}, {};", r(a)),
                Op::Setp(cmp, a, b) => writeln!(out, "  setp.{} {q}, {}, {};", cmp.ptx(), r(a), r(b)),
                Op::Selp(c, a, b) => writeln!(out, "  selp.b32 {d}, {}, {}, {};", r(a), r(b), p(c)),
                Op::PAnd(a, b) => writeln!(out, "  and.pred {q}, {}, {};", p(a), p(b)),
                Op::POr(a, b) => writeln!(out, "  or.pred {q}, {}, {};", p(a), p(b)),
                Op::PNot(a) => writeln!(out, "  not.pred {q}, {};", p(a)),
            };
        }
        out
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn one(build: impl FnOnce(&mut Program, V) -> V, x: u32) -> u32 {
        let mut p = Program::new();
        let i = p.input();
        let o = build(&mut p, i);
        p.set_outputs(&[o]);
        p.eval(x)[0]
    }

    #[test]
    fn shifts_of_32_or_more_give_zero() {
        for (amount, want_shl, want_shr) in
            [(0, 0x8000_0001, 0x8000_0001), (31, 0x8000_0000, 1), (32, 0, 0), (33, 0, 0), (u32::MAX, 0, 0)]
        {
            assert_eq!(one(|p, x| p.bin_k(Bin::Shl, x, amount), 0x8000_0001), want_shl, "shl {amount}");
            assert_eq!(one(|p, x| p.bin_k(Bin::Shr, x, amount), 0x8000_0001), want_shr, "shr {amount}");
        }
    }

    #[test]
    fn clz_of_zero_is_32() {
        assert_eq!(one(|p, x| p.clz(x), 0), 32);
        assert_eq!(one(|p, x| p.clz(x), 1), 31);
        assert_eq!(one(|p, x| p.clz(x), 0x8000_0000), 0);
    }

    #[test]
    fn add_and_sub_wrap() {
        assert_eq!(one(|p, x| p.bin_k(Bin::Add, x, 1), u32::MAX), 0);
        assert_eq!(one(|p, x| p.bin_k(Bin::Sub, x, 1), 0), u32::MAX);
    }

    #[test]
    fn signed_and_unsigned_compares_and_extrema_differ() {
        let sel = |cmp: Cmp, x: u32| {
            one(
                |p, x| {
                    let q = p.setp_k(cmp, x, 1);
                    p.sel_k(q, 1, 0)
                },
                x,
            )
        };
        // −1 is below 1 signed, above it unsigned.
        assert_eq!((sel(Cmp::LtS, u32::MAX), sel(Cmp::LtU, u32::MAX)), (1, 0));
        assert_eq!((sel(Cmp::GtS, u32::MAX), sel(Cmp::GtU, u32::MAX)), (0, 1));
        assert_eq!((sel(Cmp::LeS, 1), sel(Cmp::GeS, 1), sel(Cmp::LeU, 2), sel(Cmp::GeU, 0)), (1, 1, 0, 0));
        assert_eq!((sel(Cmp::Eq, 1), sel(Cmp::Ne, 1)), (1, 0));
        assert_eq!(one(|p, x| p.bin_k(Bin::MinS, x, 1), u32::MAX), u32::MAX);
        assert_eq!(one(|p, x| p.bin_k(Bin::MinU, x, 1), u32::MAX), 1);
        assert_eq!(one(|p, x| p.bin_k(Bin::MaxS, x, 1), u32::MAX), 1);
        assert_eq!(one(|p, x| p.bin_k(Bin::MaxU, x, 1), u32::MAX), u32::MAX);
    }

    #[test]
    fn known_predicates_and_predicate_logic() {
        let f = |x: u32| {
            one(
                |p, x| {
                    let t = p.known(true);
                    let f = p.known(false);
                    let odd = {
                        let b = p.bin_k(Bin::And, x, 1);
                        p.setp_k(Cmp::Ne, b, 0)
                    };
                    let a = p.pand(t, odd);
                    let o = p.por(f, a);
                    let n = p.pnot(o);
                    let hi = p.not(x);
                    p.sel(n, hi, x)
                },
                x,
            )
        };
        assert_eq!(f(3), 3);
        assert_eq!(f(2), !2);
    }

    /// An independent reading of the printed text: parses each line back into its mnemonic and
    /// operands and evaluates it by a table of its own, so a printer that names the wrong
    /// instruction, swaps operands or drops a line makes the results differ from
    /// [`Program::eval`].
    pub(crate) fn run_text(text: &str, input: u32) -> std::collections::HashMap<String, u32> {
        let mut regs: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
        regs.insert("%in".into(), input);
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with(".reg")) {
            let line = line.strip_suffix(';').expect("instructions end with ';'");
            let (mnemonic, rest) = line.split_once(' ').expect("an instruction has operands");
            let ops: Vec<&str> = rest.split(", ").collect();
            let val =
                |s: &str| regs.get(s).copied().unwrap_or_else(|| s.parse::<u32>().expect("a register or a number"));
            let (a, b) = (ops.get(1).map(|s| val(s)), ops.get(2).map(|s| val(s)));
            let (a0, b0) = (a.unwrap_or(0), b.unwrap_or(0));
            let s = |v: u32| v as i32;
            let r = match mnemonic {
                "mov.b32" => a0,
                "add.u32" => a0.wrapping_add(b0),
                "sub.u32" => a0.wrapping_sub(b0),
                "and.b32" | "and.pred" => a0 & b0,
                "or.b32" | "or.pred" => a0 | b0,
                "xor.b32" => a0 ^ b0,
                "not.b32" => !a0,
                "not.pred" => u32::from(a0 == 0),
                "shl.b32" => {
                    if b0 >= 32 {
                        0
                    } else {
                        a0 << b0
                    }
                }
                "shr.u32" => {
                    if b0 >= 32 {
                        0
                    } else {
                        a0 >> b0
                    }
                }
                "min.u32" => a0.min(b0),
                "max.u32" => a0.max(b0),
                "min.s32" => s(a0).min(s(b0)) as u32,
                "max.s32" => s(a0).max(s(b0)) as u32,
                "clz.b32" => a0.leading_zeros(),
                "selp.b32" => {
                    if val(ops[3]) != 0 {
                        a0
                    } else {
                        b0
                    }
                }
                m if m.starts_with("setp.") => u32::from(match &m[5..] {
                    "eq.u32" => a0 == b0,
                    "ne.u32" => a0 != b0,
                    "lt.u32" => a0 < b0,
                    "le.u32" => a0 <= b0,
                    "gt.u32" => a0 > b0,
                    "ge.u32" => a0 >= b0,
                    "lt.s32" => s(a0) < s(b0),
                    "le.s32" => s(a0) <= s(b0),
                    "gt.s32" => s(a0) > s(b0),
                    "ge.s32" => s(a0) >= s(b0),
                    other => panic!("unknown comparison {other}"),
                }),
                other => panic!("unknown instruction {other}"),
            };
            regs.insert(ops[0].to_string(), r);
        }
        regs
    }

    #[test]
    fn the_printed_text_computes_what_the_evaluator_computes() {
        // Every op kind, on inputs that reach their corners.
        let mut p = Program::new();
        let x = p.input();
        let k5 = p.c(5);
        let k40 = p.c(40);
        let mut outs = Vec::new();
        for b in [
            Bin::Add,
            Bin::Sub,
            Bin::And,
            Bin::Or,
            Bin::Xor,
            Bin::Shl,
            Bin::Shr,
            Bin::MinU,
            Bin::MaxU,
            Bin::MinS,
            Bin::MaxS,
        ] {
            outs.push(p.bin(b, x, k5));
            outs.push(p.bin(b, k40, x));
        }
        outs.push(p.not(x));
        outs.push(p.clz(x));
        for cmp in [Cmp::Eq, Cmp::Ne, Cmp::LtU, Cmp::LeU, Cmp::GtU, Cmp::GeU, Cmp::LtS, Cmp::LeS, Cmp::GtS, Cmp::GeS] {
            let q = p.setp(cmp, x, k5);
            let n = p.pnot(q);
            let t = p.known(true);
            let a = p.pand(n, t);
            let o = p.por(q, a);
            outs.push(p.sel(q, x, k40));
            outs.push(p.sel(a, k5, x));
            outs.push(p.sel(o, k5, k40));
        }
        p.set_outputs(&outs);
        let text = p.ptx("", "%in");
        for x in [0, 1, 4, 5, 6, 31, 32, 33, 40, 0x7FFF_FFFF, 0x8000_0000, u32::MAX - 4, u32::MAX] {
            let regs = run_text(&text, x);
            let printed: Vec<u32> = outs.iter().map(|&o| regs[&Program::reg("", o)]).collect();
            assert_eq!(printed, p.eval(x), "input {x:#x}");
        }
    }
}
