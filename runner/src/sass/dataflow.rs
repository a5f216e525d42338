//! The def-use walk over a kernel's control-flow graph: which instructions read a register, or
//! bits of one, that nothing wrote on some path from the kernel's entry.
//!
//! A forward must-analysis at bit granularity: at each instruction, the bits of R and UR
//! registers (and the predicates) that hold a defined value on every path from the entry
//! ([`State::defined`]), the bits defined only where a guard holds (`@P0 MOV R2, …` defines
//! R2 under P0, [`State::cond`]), and what is known of the predicates ([`State::rel`],
//! [`Relations`]: constants and implications, `P3 ⇒ !P2`). Nothing is defined at a kernel's
//! entry (the prologue itself loads the stack pointer R1 from the constant bank; special
//! registers come through `S2R`/`S2UR`/`CS2R`, which write their destination).
//!
//! A read is covered when the bits it reads are defined wherever it reads them: under its
//! guard, and a `SEL`'s source under its condition, a combined comparison's values only where
//! its predicate operand leaves the result open (`ISETP.NE.OR P0, PT, R13, R6, !P0` reads R13
//! where P0 holds). Bits written under a guard count where any literal the read holds under
//! implies that guard (`@P3 F2F R14` after `@!P2` wrote R14 and `P3 ⇒ !P2` is known). Every
//! value is described where its instruction's guard holds and, for the guards worth knowing
//! (those of what it reads and writes, its own and the complement), where each of them holds
//! too ([`after`]); writes under complementary guards together define a register. A guard is
//! read before the instruction writes: what an instruction writes under a guard on a predicate
//! it writes itself (`@!P1 IADD3 R0, P1, R2, UR6, RZ`, the carry-out into its own guard) is
//! written where the old P1 did not hold. A guard stops counting once its predicate is written
//! again, its bits going to the literals known to imply it that stay (`!UP0` where P1 was a
//! `PLOP3` copy of UP0: `@P1 MOV R0` after P1 is copied from UP0 again completes R0,
//! corpus/findings/fuzz-h200-4403/trace/T15t4.md, 6c3ac39e, [`rehome`]); they stay under the
//! guard where the new value refines the old (`ISETP.NE.AND P0, PT, R0, RZ, P0`: the new P0
//! holds only where the old one did, so what was written under the old P0 is written under the
//! new one, [`rehome`]), or where a comparison restores it from a register it was saved in
//! (`P2R R16, PR, RZ, 0x20; …; ISETP.NE.AND P5, PT, R16, RZ, PT`: the restored P5 is the saved
//! one, [`saved`]), or where the same comparison runs again on sources nothing wrote since
//! (`ISETP.GT.AND P0, PT, R11, 0x2a, PT` once more after a `SHFL` wrote P0: the new P0 is the
//! old one, [`recompute`]). Bits
//! are defined as values flow, the way memcheck tracks them, so that ptxas's partial writes
//! are no finding by themselves: a `PRMT` with an immediate selector, `MOV`, a bitwise `LOP3` (and `PLOP3` over predicates),
//! shifts by immediates, `SGXT` and `SEL` carry each bit's definedness from the bits it comes
//! from ([`propagate`](mod@propagate); `PRMT R8, R10, 0x7632, R8` with R8 never written leaves R8's upper half
//! undefined, and `(R8 << 4) & 0xffff0 >> 16` is defined), adds and multiplies carry it upwards
//! (a low bit of a sum depends on no higher bit; bit i of a product by an immediate 2^t·k on
//! none above i−t). Their predicate outputs (carry-outs) are defined where the whole result
//! is, also for an `RZ`/`URZ` destination (`LEA RZ, P0, R7, R8, 0x10`, an add kept for its
//! carry: R7's upper half is shifted out); one predicate named twice by `VIMNMX.{S,U}16x2 Rd,
//! Pa, Pa, …` where the low half is ([`outputs_defined`]). Every other instruction reads its
//! sources: if a byte it reads is not defined, the instruction is a finding, and its result
//! counts as defined (one finding, not a cascade) — except a comparison of values
//! defined only under a guard, whose predicates are defined under that guard and flagged where
//! they are read outside it ([`compare`]: ptxas's if-converted diamonds). Undefined bits that a propagating
//! instruction made from a never-written register carry that instruction as their origin
//! along the def-use chain ([`UnwrittenRead::origin`]: `UPRMT UR5, UR7, 0x7610, UR5`, whatever
//! store reads the result). Narrow reads read only their bytes (a 16-bit
//! store, an `.H0_H0` half, a conversion from f16, the C of an 8-bit float pair's
//! `F2FP.…PACK_AB_MERGE_C` or `F2FP.…UNPACK_B_MERGE_C` or of an 8-bit `I2IP` pack). A `NOP`
//! reads nothing, its guard included: it has no effect.
//!
//! For a kernel with a flagged read, [`partly`] reads the walk's states once more: a read is
//! [`UnwrittenRead::partly_written`] when every undefined bit it reads (or its origin read) is
//! defined under some guard somewhere in the kernel — written in an arm or by a guarded
//! instruction that the read's lanes skipped, as ptxas's if-conversion leaves a value's
//! register when it loses the else-copy (root cause N-5), or made by such a guarded write
//! computing from the lost register itself — rather than never written at all.
//! The walk itself does not change: the flagged reads are the same.
//!
//! Edges: the next instruction (unless an unguarded `BRA`, `EXIT` or `RET`), a branch's label
//! (where a guarded branch's guard holds, so what was written under that guard is written:
//! ptxas's `bfind.s64` writes its result under `@P0` and branches under `@P0` past the other
//! writes),
//! the way out of a waterfall loop (a guarded `BRA.U.ANY` back: every lane has been served, so
//! what the loop wrote under a guard counts as written — also where its body writes that guard's
//! predicate again before the branch back, [`waterfall_exit`], [`guarded_writes`]),
//! a call's subroutine (whose `RET` goes on after every call in the function), every label for an
//! indirect branch. A call to a label not in the listing is taken to define every register (the
//! check never guesses a finding). Past a plain `@P BRA` the branch's way has P and the other
//! way !P; past a guarded `EXIT` the lanes that go on lack its guard ([`edge_facts`]). Code no
//! path reaches is not checked.

use std::collections::BTreeSet;

use super::parse::{File, Flow, Function, Guard, Instr, Operand, Reg};
use super::preds::{Input, Join, PredFn, Relations};
use edges::{guarded_writes, successors, waterfall_exit};
use origins::Origins;
use propagate::{lut_bit_defined, propagate, Val};
use recompute::Recomputes;

/// Bits of the tracked registers (32 per R and UR register, 1 per predicate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bits([u64; WORDS]);

const UR_BASE: usize = 255 * 32;
const P_BASE: usize = UR_BASE + 63 * 32;
const UP_BASE: usize = P_BASE + 7;
const WORDS: usize = (UP_BASE + 7).div_ceil(64);

/// The first bit of `r` and its number of bits. A register's bits never straddle two words.
fn slot(r: Reg) -> (usize, usize) {
    match r.file {
        File::R => (32 * r.n as usize, 32),
        File::Ur => (UR_BASE + 32 * r.n as usize, 32),
        File::P => (P_BASE + r.n as usize, 1),
        File::Up => (UP_BASE + r.n as usize, 1),
    }
}

/// The mask of a whole register of `r`'s file (32 bits, or the one bit of a predicate).
fn whole(r: Reg) -> Mask {
    if slot(r).1 == 32 {
        Mask::MAX
    } else {
        1
    }
}

/// Which bits of a register are defined (bit `i`: bit `i` of the register; a predicate has bit
/// 0 only).
type Mask = u32;

impl Bits {
    fn none() -> Bits {
        Bits([0; WORDS])
    }
    fn all() -> Bits {
        Bits([u64::MAX; WORDS])
    }
    /// The defined bits of `r`.
    fn get(&self, r: Reg) -> Mask {
        let (at, _) = slot(r);
        ((self.0[at / 64] >> (at % 64)) as Mask) & whole(r)
    }
    fn put(&mut self, r: Reg, mask: Mask) {
        let (at, _) = slot(r);
        let field = u64::from(whole(r)) << (at % 64);
        let w = &mut self.0[at / 64];
        *w = (*w & !field) | ((u64::from(mask & whole(r)) << (at % 64)) & field);
    }
    fn and(&self, o: &Bits) -> Bits {
        let mut b = *self;
        b.0.iter_mut().zip(o.0).for_each(|(x, y)| *x &= y);
        b
    }
    /// The registers with a byte defined in one and not the other.
    fn differing(&self, o: &Bits) -> Vec<Reg> {
        let mut out: Vec<Reg> = Vec::new();
        for (w, (x, y)) in self.0.iter().zip(o.0).enumerate() {
            let mut d = x ^ y;
            while d != 0 {
                let bit = w * 64 + d.trailing_zeros() as usize;
                d &= d - 1;
                if let Some(r) = reg_at(bit) {
                    if out.last() != Some(&r) {
                        out.push(r);
                    }
                }
            }
        }
        out
    }
}

/// The register a bit of [`Bits`] belongs to.
fn reg_at(bit: usize) -> Option<Reg> {
    let (file, n) = if bit < UR_BASE {
        (File::R, bit / 32)
    } else if bit < P_BASE {
        (File::Ur, (bit - UR_BASE) / 32)
    } else if bit < UP_BASE {
        (File::P, bit - P_BASE)
    } else {
        (File::Up, bit - UP_BASE)
    };
    let n = u16::try_from(n).ok()?;
    (n < file.tracked()).then_some(Reg { file, n })
}

/// What is known to be defined before an instruction, on every path that reaches it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct State {
    /// Bits defined on every path, wherever the lane is.
    defined: Bits,
    /// Bits of R and UR registers known to be zero on every path, wherever the lane is (a
    /// subset of `defined`): the upper bits of a zero-extending load and what copies, masks,
    /// byte moves and shifts keep of them ([`zeros`]).
    zeros: Bits,
    /// Bits defined where a guard holds, beyond `defined`: `(R2, @P0, 0xffffffff)` after `@P0
    /// MOV R2, …` (sorted by register and guard).
    cond: Vec<(Reg, Guard, Mask)>,
    /// What is known of the predicates ([`Relations`]).
    rel: Relations,
    /// For each register byte whose undefined bits an instruction made from a never-written
    /// register it read without being flagged (a propagating one: `UPRMT UR5, UR7, 0x7610,
    /// UR5` with UR7 never written), that instruction's index: the origin of those bits,
    /// carried along the def-use chain ([`origins`]; at a join, the earlier instruction).
    origins: Origins,
    /// The comparisons whose sources nothing wrote since they ran, the predicates that hold
    /// their value and what was defined under those that were written again ([`recompute`]).
    recomputes: Recomputes,
}

/// Literals that hold wherever a read or a value happens (the instruction's guard, a select's
/// condition, the guard a value is wanted under).
type Ctx = Vec<Guard>;

impl State {
    fn entry() -> State {
        State {
            defined: Bits::none(),
            zeros: Bits::none(),
            cond: Vec::new(),
            rel: Relations::default(),
            origins: Origins::default(),
            recomputes: Recomputes::default(),
        }
    }

    fn everything() -> State {
        State { defined: Bits::all(), ..State::entry() }
    }

    /// The entries of `r` in [`State::cond`].
    fn entries(&self, r: Reg) -> &[(Reg, Guard, Mask)] {
        let lo = self.cond.partition_point(|e| e.0 < r);
        let hi = self.cond.partition_point(|e| e.0 <= r);
        &self.cond[lo..hi]
    }

    /// The bits of `r` defined wherever every literal of `ctx` holds: those defined everywhere,
    /// and those written under a guard that `ctx` implies (all of them where `ctx` never holds).
    fn known(&self, r: Reg, ctx: &[Guard]) -> Mask {
        if ctx.iter().any(|c| self.rel.holds(c.complement())) {
            return whole(r);
        }
        self.entries(r).iter().filter(|e| self.rel.entails(ctx, e.1)).fold(self.defined.get(r), |m, e| m | e.2)
    }

    /// The state on leaving a waterfall loop ([`waterfall_exit`]): every lane has been served,
    /// so what the loop wrote under a guard is written.
    fn served(&self) -> State {
        let mut s = self.clone();
        for (r, _, m) in std::mem::take(&mut s.cond) {
            s.defined.put(r, s.defined.get(r) | m);
        }
        s
    }

    /// Bits written under a guard that now holds everywhere (an edge's fact: past `@P0 BRA L`
    /// towards L, what `@P0` wrote is written) become defined.
    fn promote_holding(&mut self) {
        let (holding, rest): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.cond).into_iter().partition(|e| self.rel.holds(e.1));
        self.cond = rest;
        for (r, _, m) in holding {
            self.defined.put(r, self.defined.get(r) | m);
        }
    }

    /// These facts with `regs` written whole.
    fn with_written(mut self, regs: &[Reg]) -> State {
        for &r in regs {
            self.defined.put(r, whole(r));
            self.zeros.put(r, 0);
        }
        self.cond.retain(|e| e.2 & !self.defined.get(e.0) != 0);
        self
    }

    /// Replaces what is known of `d`: `un` defined everywhere, `conds` under their guards.
    fn put(&mut self, d: Reg, un: Mask, conds: &[(Guard, Mask)]) {
        self.defined.put(d, un);
        let lo = self.cond.partition_point(|e| e.0 < d);
        let hi = self.cond.partition_point(|e| e.0 <= d);
        let keep = conds.iter().filter(|(_, m)| m & !un != 0).map(|&(h, m)| (d, h, m));
        self.cond.splice(lo..hi, keep);
    }

    /// The state where two paths join: what each path covers, and the predicate facts both
    /// know. A literal that holds on one path makes its complement never hold there, so what the
    /// other path defines under the complement is defined under it at the join (`@P0 BRA L;
    /// MOV R2, …; L:` defines R2 under !P0).
    fn meet(&self, o: &State) -> State {
        let defined = self.defined.and(&o.defined);
        let zeros = self.zeros.and(&o.zeros);
        let rel = self.rel.meet(&o.rel);
        let mut keys: Vec<(Reg, Guard)> = self.cond.iter().chain(&o.cond).map(|e| (e.0, e.1)).collect();
        let differ = self.defined.differing(&o.defined);
        for x in self.rel.holding().iter().chain(o.rel.holding()) {
            keys.extend(differ.iter().map(|&r| (r, x.complement())));
        }
        keys.sort_unstable();
        keys.dedup();
        let cond = keys
            .into_iter()
            .map(|(r, h)| (r, h, self.known(r, &[h]) & o.known(r, &[h])))
            .filter(|&(r, _, m)| m & !defined.get(r) != 0)
            .collect();
        let mut origins = self.origins.meet(&o.origins);
        origins.prune(&defined);
        let recomputes = recompute::meet(self, o, &defined);
        State { defined, zeros, cond, rel, origins, recomputes }
    }
}

/// A register an instruction writes, with the bits it leaves defined.
type Def = (Reg, Mask);

/// An instruction that reads registers (or bits of them) nothing defined on some path from the
/// entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnwrittenRead {
    /// Its index in [`Function::instrs`].
    pub instr: usize,
    /// The registers, in operand order.
    pub regs: Vec<Reg>,
    /// The instruction that made the undefined bits it reads, reading a never-written register
    /// before it ([`State::origins`]; the earliest of several), or `None` when it reads a
    /// never-written register itself.
    pub origin: Option<usize>,
    /// Whether every undefined bit it reads (there, or where its origin read it) is defined
    /// under some guard somewhere in the kernel, by another instruction ([`partly::written`]):
    /// a value an arm or a guarded write made and the read's lanes lack (ptxas's
    /// if-conversion losing an else-value), not a register nothing ever writes.
    pub partly_written: bool,
}

/// The bits of a register's bytes (bit `i` of `bytes`: byte `i`, as [`Operand::bytes`] says what
/// an instruction reads; bit 0 alone is a predicate's one bit too).
fn bits_of(bytes: u8) -> Mask {
    (0..4).filter(|i| bytes & (1 << i) != 0).fold(0, |m, i| m | 0xff << (8 * i))
}

/// A predicate operand as an input of a predicate computation: `PT`/`!PT` or a literal.
fn pred_input(o: &Operand) -> Option<Input> {
    match o.text.trim().trim_start_matches('!') {
        "PT" | "UPT" => Some(Input::Const(!o.negated)),
        _ => o.as_guard().map(Input::Lit),
    }
}

/// A combined comparison (`ISETP.GT.AND P1, PT, R11, 0x19, !P0`, `FSETP`, `DSETP`, `HSETP2`,
/// `UISETP`; `.EX` forms read a previous comparison as operand 5): its join and predicate
/// operand (operand 4); a vote of the warp (`VOTEU.ALL`/`.ANY UPd, Ps`) as one joined with Ps.
fn compare_join(ins: &Instr) -> Option<(Join, Input)> {
    let op = ins.opcode();
    // `VOTEU.ALL UPd, Ps` holds only where Ps holds on every lane active at the vote (an AND of
    // an unknown value with Ps); `VOTEU.ANY UPd, Ps` holds wherever Ps does (an OR). ptxas
    // computes a divergent branch's uniform work under `@!UPd` and copies it under `@!Ps`
    // (corpus/findings/fuzz-h200-3701/trace/TU1.md, 13.0.88 and 13.5 -O3).
    if op == "VOTEU" && ins.ndest == 1 && ins.operands.len() == 2 {
        let join = ins.modifiers().find_map(|m| match m {
            "ALL" => Some(Join::And),
            "ANY" => Some(Join::Or),
            _ => None,
        })?;
        return Some((join, pred_input(&ins.operands[1])?));
    }
    let setp = (op.ends_with("SETP") && !op.ends_with("PSETP")) || op == "HSETP2";
    if !setp || ins.ndest != 2 || ins.operands.len() < 5 {
        return None;
    }
    let join = ins.modifiers().find_map(|m| match m {
        "AND" => Some(Join::And),
        "OR" => Some(Join::Or),
        "XOR" => Some(Join::Xor),
        _ => None,
    })?;
    Some((join, pred_input(&ins.operands[4])?))
}

/// `PLOP3.LUT Pd, Pq, A, B, C, LUT, LUT2` (and `UPLOP3`): the tables of Pd and Pq and the
/// inputs.
fn plop3(ins: &Instr) -> Option<([u8; 2], [Input; 3])> {
    if !matches!(ins.opcode(), "PLOP3" | "UPLOP3") || ins.modifiers().ne(["LUT"]) || ins.operands.len() < 7 {
        return None;
    }
    let o = &ins.operands;
    let inputs = [pred_input(&o[2])?, pred_input(&o[3])?, pred_input(&o[4])?];
    let table = |k: usize| o[k].imm.and_then(|v| u8::try_from(v).ok());
    Some(([table(5)?, table(6)?], inputs))
}

/// The literals that hold wherever operand `k` of `ins` is read, given that `ctx` holds there,
/// or `None` where its value never matters: a select reads its first source where its
/// condition holds and its second where it does not; a combined comparison reads the values
/// it compares only where its predicate operand leaves the result open (`.AND` with C: where C
/// holds; `.OR` with C: where it does not).
fn operand_ctx(ins: &Instr, k: usize, ctx: &[Guard]) -> Option<Ctx> {
    let mut c: Ctx = ctx.to_vec();
    if matches!(ins.opcode(), "SEL" | "FSEL" | "USEL") && ins.ndest == 1 {
        if let Some(p) = ins.operands.last().and_then(Operand::as_guard) {
            match k {
                1 => c.push(p),
                2 => c.push(p.complement()),
                _ => {}
            }
        }
    }
    if let Some((join, with)) = compare_join(ins).filter(|_| matches!(k, 2 | 3 | 5)) {
        match (join, with) {
            (Join::And, Input::Const(false)) | (Join::Or, Input::Const(true)) => return None,
            (Join::And, Input::Lit(l)) => c.push(l),
            (Join::Or, Input::Lit(l)) => c.push(l.complement()),
            _ => {}
        }
    }
    Some(c)
}

/// How `ins` uses its sources: `Some(true)` when it propagates their definedness into its
/// destinations and still reads its predicate sources (carry-ins, a select's condition),
/// `Some(false)` when it propagates predicates too (`PLOP3`), `None` when it reads every
/// source.
fn propagates(s: &State, ins: &Instr, ctx: &[Guard]) -> Option<bool> {
    if plop3(ins).is_some() {
        return Some(false);
    }
    values(s, ins, ctx).1.map(|_| true)
}

/// The sources of `ins` where `ctx` holds ([`Val`]s), and the defined bits of its first
/// destination if the instruction propagates definedness into one R or UR register (or into
/// `RZ`/`URZ`: the bits its result would have).
fn values(s: &State, ins: &Instr, ctx: &[Guard]) -> (Vec<Val>, Option<u32>) {
    let first = ins.ndest.min(ins.operands.len());
    let vals: Vec<Val> = ins.operands[first..]
        .iter()
        .enumerate()
        .map(|(k, o)| {
            let imm = if o.zero { Some(0) } else { o.imm };
            let (defined, zeros) = match (o.regs.as_slice(), operand_ctx(ins, first + k, ctx)) {
                ([r], Some(c)) if slot(*r).1 == 32 => (s.known(*r, &c), zeros::of_operand(s.zeros.get(*r), o, *r)),
                _ => (u32::MAX, imm.map_or(0, |v| !v)),
            };
            Val { defined, zeros, imm }
        })
        .collect();
    // One 32-bit R or UR register, or `RZ`/`URZ` where only the carry-outs are kept (`LEA RZ, P0,
    // R7, R8, 0x10`: ptxas's `add.cc.u32` whose sum is dead): the bits are what the result
    // would be, and [`outputs_defined`] makes the predicate outputs of them.
    let dest = ins.operands.get(register_dest(ins));
    let single_dest = ins.ndest >= 1
        && dest.is_some_and(|d| match d.regs.as_slice() {
            [r] => slot(*r).1 == 32,
            [] => matches!(d.text.trim(), "RZ" | "URZ"),
            _ => false,
        });
    let select = matches!(ins.opcode(), "SEL" | "FSEL" | "USEL");
    let propagated = match (single_dest.then(|| propagate(ins, &vals)).flatten(), select) {
        (None, true) if single_dest && vals.len() == 3 => Some(vals[0].defined & vals[1].defined),
        (p, _) => p,
    };
    (vals, propagated)
}

/// The registers `ins` writes with the bits it leaves defined where every literal of `ctx`
/// (its guard among them) holds, in [`Instr::defs`] order.
fn results(s: &State, ins: &Instr, ctx: &[Guard]) -> Vec<Def> {
    if let Some((tables, inputs)) = plop3(ins) {
        // Each result bit is defined where it does not depend on an undefined input.
        let vals: Vec<Val> = inputs
            .iter()
            .map(|i| match *i {
                Input::Const(b) => Val { defined: u32::MAX, zeros: 0, imm: Some(if b { u32::MAX } else { 0 }) },
                Input::Lit(l) => Val {
                    defined: if s.known(l.pred, ctx) != 0 { u32::MAX } else { 0 },
                    zeros: 0,
                    imm: s.rel.value(ctx, l).map(|v| if v { u32::MAX } else { 0 }),
                },
            })
            .collect();
        let mask = |k: usize| Mask::from(lut_bit_defined(u32::from(tables[k]), &vals, 0));
        return ins
            .defs
            .iter()
            .map(|&d| {
                let k = usize::from(ins.operands.get(1).is_some_and(|o| o.regs.contains(&d)));
                (d, mask(k))
            })
            .collect();
    }
    if compare::deferred(s, ins) {
        return compare::defs(s, ins, ctx);
    }
    let mut defs: Vec<Def> = ins.defs.iter().map(|&r| (r, whole(r))).collect();
    if let (_, Some(bits)) = values(s, ins, ctx) {
        // The register destination, if it is not `RZ`/`URZ`, and the predicate outputs.
        let register = ins.operands.get(register_dest(ins)).map_or(&[][..], |o| &o.regs[..]);
        let outputs = outputs_defined(ins, bits);
        for d in &mut defs {
            d.1 = if register.contains(&d.0) {
                bits
            } else if outputs {
                d.1
            } else {
                0
            };
        }
    }
    defs
}

/// The operand that receives `ins`'s register result: the first, or the second after a
/// predicate output (`LOP3.LUT P0, R12, R0, 0xffff, RZ, 0xc0, !PT`: R12 = R0 & 0xffff and P0
/// whether R12 is not zero; ptxas 13.0.88 -O3, corpus/findings/fuzz-h200-3702/trace/TU3.md,
/// finding fa14810e).
fn register_dest(ins: &Instr) -> usize {
    let first_pred =
        ins.operands.first().is_some_and(|o| o.as_guard().is_some() || matches!(o.text.trim(), "PT" | "UPT"));
    usize::from(matches!(ins.opcode(), "LOP3" | "ULOP3") && ins.ndest == 2 && first_pred)
}

/// Whether the predicate outputs of a propagating instruction are defined, given the bits
/// `bits` its result has defined. A carry-out depends on every bit of the result (of an `RZ`
/// destination too: `LEA RZ, P0, R7, R8, 0x10` needs R7's low half only, its upper half is
/// shifted out). `VIMNMX.{S,U}16x2 Rd, Pa, Pa, …` (`max.s16` fused with the `setp` that compares
/// its result), both outputs one predicate: it holds the low half's comparison (H200, ptxas
/// 13.0.88 -O3, `VIMNMX.S16x2` with an immediate: an upper half that compares the other way
/// changes nothing; corpus/findings/fuzz-h200-3601/trace/T1.md, finding 607f088a), so it
/// depends on the low half alone. Which half each of two different outputs holds is not known:
/// those depend on every bit.
fn outputs_defined(ins: &Instr, bits: u32) -> bool {
    let paired16 = ins.opcode() == "VIMNMX" && ins.modifiers().any(|m| m.ends_with("16x2"));
    let o = &ins.operands;
    let one_pred = ins.ndest == 3 && o.len() > 2 && o[1].regs == o[2].regs && o[1].as_guard().is_some();
    let needed = if paired16 && one_pred { 0x0000_ffff } else { u32::MAX };
    bits & needed == needed
}

/// The predicates `ins` writes with what it writes to each where its guard holds.
fn pred_writes(ins: &Instr) -> Vec<(Reg, PredFn)> {
    let lut = plop3(ins);
    let cmp = compare_join(ins);
    ins.defs
        .iter()
        .filter(|d| matches!(d.file, File::P | File::Up))
        .map(|&d| {
            let k = ins.operands.iter().take(ins.ndest).position(|o| o.regs.contains(&d));
            let f = match (k, lut, cmp) {
                (Some(k @ (0 | 1)), Some((tables, inputs)), _) => PredFn::Lut { lut: tables[k], inputs },
                (Some(0 | 1), _, Some((join, with))) => PredFn::Compare { join, with },
                _ => PredFn::Opaque,
            };
            (d, f)
        })
        .collect()
}

/// The registers `ins` reads that are not defined where it reads them (an instruction that
/// does nothing, `NOP`, reads nothing, not even its guard).
fn reads(s: &State, ins: &Instr) -> Vec<Reg> {
    let mut bad: Vec<Reg> = Vec::new();
    if ins.opcode() == "NOP" {
        return bad;
    }
    let mut flag = |r: Reg| {
        if !bad.contains(&r) {
            bad.push(r);
        }
    };
    let ctx: Ctx = ins.guard.into_iter().collect();
    if let Some(g) = ins.guard {
        if s.known(g.pred, &[]) == 0 {
            flag(g.pred);
        }
    }
    // Registers in brackets are read whole, always.
    for o in &ins.operands {
        for &r in &o.inner {
            if s.known(r, &ctx) != whole(r) {
                flag(r);
            }
        }
    }
    let first = ins.ndest.min(ins.operands.len());
    let propagating = propagates(s, ins, &ctx);
    let deferred = compare::deferred(s, ins);
    for (k, o) in ins.operands.iter().enumerate().skip(first) {
        let Some(c) = operand_ctx(ins, k, &ctx) else { continue };
        for &r in &o.regs {
            let pred = slot(r).1 == 1;
            let need = match propagating {
                Some(false) => continue,
                Some(true) if !pred => continue,
                _ if deferred && !pred => continue,
                _ if o.regs.len() == 1 => bits_of(o.bytes) & whole(r),
                _ => whole(r),
            };
            if s.known(r, &c) & need != need {
                flag(r);
            }
        }
    }
    bad
}

/// The bytes of `r` that `ins` reads and that are not defined where it reads them: a source
/// operand's [`Operand::bytes`] where it names `r` alone, else every byte.
fn read_undefined_bytes(s: &State, ins: &Instr, r: Reg) -> u8 {
    let ctx: Ctx = ins.guard.into_iter().collect();
    let first = ins.ndest.min(ins.operands.len());
    let narrow = ins.operands[first..].iter().filter(|o| o.regs == [r]).fold(0, |m, o| m | o.bytes);
    let whole_read = ins.guard.is_some_and(|g| g.pred == r)
        || ins.operands.iter().any(|o| o.inner.contains(&r))
        || ins.operands[first..].iter().any(|o| o.regs.len() > 1 && o.regs.contains(&r));
    let read = if whole_read || narrow == 0 { 0xf } else { narrow };
    origins::undefined_bytes(r, s.known(r, &ctx)) & read
}

/// The state after `ins`. Each register it writes is described where its guard holds and, for
/// each guard worth knowing (those of what it reads or writes, its predicate sources, its own
/// guard and the complement), where that guard holds too; on the other lanes the register keeps
/// what it had. A guard on a predicate it writes describes the old value; [`rehome`] moves what
/// holds under it to the literals that still say where the old value held.
fn after(s: &State, i: usize, ins: &Instr) -> State {
    let g = ins.guard;
    let base: Ctx = g.into_iter().collect();
    let here = results(s, ins, &base);
    // The predicates it writes, and the R registers: a literal `Rd ≠ 0` ([`saved`]) is written
    // with Rd.
    let written: Vec<Reg> = ins.defs.iter().copied().filter(|d| slot(*d).1 == 1 || d.file == File::R).collect();
    let mut hs: Vec<Guard> = Vec::new();
    for &r in ins.uses.iter().chain(&ins.defs) {
        hs.extend(s.entries(r).iter().map(|e| e.1));
        if slot(r).1 == 1 {
            hs.extend([Guard { pred: r, negated: false }, Guard { pred: r, negated: true }]);
        }
    }
    hs.extend(g.into_iter().flat_map(|g| [g, g.complement()]));
    // A guard on a predicate it writes is read before the write: what is described under it
    // (its own guard included, `@!P1 IADD3 R0, P1, …`) holds where its old value held, and
    // [`rehome`] moves it to the literals that say so afterwards.
    hs.sort_unstable();
    hs.dedup();
    let under: Vec<(Guard, Vec<Def>)> =
        hs.iter().map(|&h| (h, results(s, ins, &base.iter().copied().chain([h]).collect::<Ctx>()))).collect();
    // A uniform register written under a lane predicate is written when any lane's guard holds:
    // ptxas does that only in waterfall loops ([`waterfall_exit`]), which turn while one does.
    let lane_guard = g.is_some_and(|g| g.pred.file == File::P);
    let mut next = s.clone();
    for (i, &(d, m)) in here.iter().enumerate() {
        let warp = lane_guard && matches!(d.file, File::Ur | File::Up);
        let (un, conds): (Mask, Vec<(Guard, Mask)>) = match g {
            None => (m, under.iter().map(|(h, v)| (*h, v[i].1)).collect()),
            Some(_) if warp => (m, Vec::new()),
            Some(g) => {
                let conds = under
                    .iter()
                    .map(|(h, v)| {
                        let m_h = if s.rel.implies(*h, g) {
                            v[i].1
                        } else if s.rel.implies(*h, g.complement()) {
                            s.known(d, &[*h])
                        } else {
                            v[i].1 & s.known(d, &[*h])
                        };
                        (*h, m_h)
                    })
                    .collect();
                (m & s.known(d, &[g.complement()]), conds)
            }
        };
        next.put(d, un, &conds);
    }
    // Bits known to be zero: those the register result has where the instruction writes it, and
    // on the lanes its guard leaves alone those the old value had.
    let result_zeros = zeros::of_result(ins, &values(s, ins, &base).0);
    let register = ins.operands.get(register_dest(ins)).map_or(&[][..], |o| &o.regs[..]);
    for &(d, _) in &here {
        let z = if register == [d] { result_zeros } else { 0 };
        let z = if g.is_some() { z & s.zeros.get(d) } else { z };
        next.zeros.put(d, z & next.defined.get(d));
    }
    // Where a propagating instruction leaves bits undefined, they come from its sources: their
    // origin, or this instruction where it reads a never-written register. A guarded write keeps
    // the old value's origin on the other lanes.
    let carried = match propagates(s, ins, &base) {
        Some(_) => origins::carried(s, i, ins, &base),
        None => [None; 4],
    };
    for &(d, _) in &here {
        // A predicate output depends on every byte of the result.
        let to_d = if slot(d).1 == 1 { [carried.iter().flatten().copied().min(), None, None, None] } else { carried };
        let kept = if g.is_some() { s.origins.bytes(d) } else { [None; 4] };
        next.origins.set(d, std::array::from_fn(|b| to_d[b].into_iter().chain(kept[b]).min()));
    }
    let (mut rel, refinements) = s.rel.step(g, &pred_writes(ins));
    rehome(&mut next, &s.rel, &written, &refinements);
    for &d in ins.defs.iter().filter(|d| d.file == File::R) {
        rel.forget(d);
    }
    if let Some((p, v)) = saved::equivalence(ins) {
        rel.add(p, v);
        rel.add(v, p);
    }
    next.rel = rel;
    recompute::step(s, ins, &mut next);
    let defined = next.defined;
    next.origins.prune(&defined);
    next
}

/// Moves what is defined under a guard whose predicate `written` overwrites (also what the
/// instruction itself wrote under it, [`after`]: the guard's old value) to the literals
/// that imply the guard (`rel`, the facts before the write) and stay: where those hold, the old
/// guard held (R0 written under P0, `!P1 ⇒ P0` known, P0 rewritten: R0 stays defined under
/// !P1); a guard that held everywhere makes its bits defined. The new literals of a written
/// predicate that refine the old guard (`refinements`, pairs `(new, old)` from
/// [`Relations::step`]) keep its bits too: `@P0 LDG R6; ISETP.NE.AND P0, PT, R0, RZ, P0;
/// @P0 I2F R7, R6` reads R6 only on lanes that loaded it. Then drops the old guards.
fn rehome(s: &mut State, rel: &Relations, written: &[Reg], refinements: &[(Guard, Guard)]) {
    let stale: Vec<(Reg, Guard, Mask)> = s.cond.iter().copied().filter(|e| written.contains(&e.1.pred)).collect();
    s.cond.retain(|e| !written.contains(&e.1.pred));
    for (r, h, m) in stale {
        if rel.holds(h) {
            s.defined.put(r, s.defined.get(r) | m);
            continue;
        }
        let refining = refinements.iter().filter(|(_, old)| *old == h).map(|&(new, _)| new);
        for x in rel.implying(h).into_iter().filter(|x| !written.contains(&x.pred)).chain(refining) {
            let at = s.cond.partition_point(|e| (e.0, e.1) < (r, x));
            match s.cond.get_mut(at) {
                Some(e) if (e.0, e.1) == (r, x) => e.2 |= m,
                _ => s.cond.insert(at, (r, x, m)),
            }
        }
    }
    let defined = s.defined;
    s.cond.retain(|e| e.2 & !defined.get(e.0) != 0);
}

/// The facts an edge adds: past a plain `@P BRA` a lane that took it has P, one that went on
/// has !P; past a guarded `EXIT` the lanes that go on do not have its guard.
fn edge_facts(f: &Function, i: usize, t: usize, out: &State) -> Option<State> {
    let ins = &f.instrs[i];
    let g = ins.guard?;
    let holds = match &ins.flow {
        Flow::Branch(l) if ins.mnemonic == "BRA" => {
            let target = f.labels.get(l).copied()?;
            if target == i + 1 {
                return None;
            }
            if t == target {
                g
            } else {
                g.complement()
            }
        }
        Flow::Exit if t == i + 1 => g.complement(),
        _ => return None,
    };
    let mut s = out.clone();
    s.rel.assert_holds(holds);
    s.promote_holding();
    Some(s)
}

/// Most times one instruction's state may change before the walk stops refining it: far more
/// than a kernel needs (each change removes information, and there is little), it only bounds
/// the walk. A walk stopped early flags less, never more.
const MAX_VISITS: u32 = 1000;

/// Every instruction of `f` (entered at its first instruction with nothing defined) that reads
/// a register, or bits of one, not defined on some path to it, in address order.
pub fn unwritten_reads(f: &Function) -> Vec<UnwrittenRead> {
    let n = f.instrs.len();
    if n == 0 {
        return Vec::new();
    }
    let return_sites = edges::return_sites(f);
    let mut state: Vec<Option<State>> = vec![None; n];
    let mut visits = vec![0u32; n];
    state[0] = Some(State::entry());
    let mut work: BTreeSet<usize> = BTreeSet::from([0]);
    while let Some(i) = work.pop_first() {
        let Some(s) = &state[i] else { continue };
        let out = after(s, i, &f.instrs[i]);
        let (succ, havoc) = successors(f, i, &return_sites);
        let out = if havoc { State::everything() } else { out };
        let exit = waterfall_exit(f, i).map(|t| (t, out.served().with_written(&guarded_writes(f, i))));
        for t in succ {
            let out = match &exit {
                Some((next, served)) if *next == t => served.clone(),
                _ => edge_facts(f, i, t, &out).unwrap_or_else(|| out.clone()),
            };
            let merged = match &state[t] {
                None => out,
                Some(old) => old.meet(&out),
            };
            if state[t].as_ref() != Some(&merged) && visits[t] < MAX_VISITS {
                visits[t] += 1;
                state[t] = Some(merged);
                work.insert(t);
            }
        }
    }
    let mut found = Vec::new();
    for (i, ins) in f.instrs.iter().enumerate() {
        let Some(s) = &state[i] else { continue };
        let regs = reads(s, ins);
        if !regs.is_empty() {
            let origin = regs.iter().filter_map(|&r| s.origins.of(r, read_undefined_bytes(s, ins, r))).min();
            found.push(UnwrittenRead { instr: i, regs, origin, partly_written: false });
        }
    }
    if !found.is_empty() {
        let guarded = partly::guarded_anywhere(f, &state);
        for u in &mut found {
            u.partly_written = partly::written(f, &state, &guarded, u.instr, &u.regs);
        }
    }
    found
}

mod compare;
pub(crate) mod edges;
mod origins;
mod partly;
mod propagate;
mod recompute;
mod saved;
mod zeros;

#[cfg(test)]
mod guard_overwrite_tests;
#[cfg(test)]
mod p2r_tests;
#[cfg(test)]
mod recompute_tests;
#[cfg(test)]
mod seed3702_tests;
#[cfg(test)]
mod seed3802_tests;
#[cfg(test)]
mod tests;
