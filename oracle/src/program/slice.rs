//! Backward def-use slices of a [`Program`] and their shapes: which statements an output word
//! depends on, and the opcode sequence of those on its value path, producer → consumer
//! (`mov.b16 → cvt.f16.f16 → st.global.b8`), which root-cause signatures and `corpus/known/`
//! shape patterns are built on.
//!
//! The slice is static: the body is the same for every thread, so it depends only on the output
//! word, not on the thread that shows the disagreement (a per-thread slice would need the
//! values of guards and branches; the static one over-approximates it). It follows:
//! - registers: a statement is in the slice when it defines a register that a statement of the
//!   slice reads (sources, guard predicates, address bases written by the body);
//! - memory: the stores to `%out` that write a byte of the word; a load of `%sh`/`%shn`
//!   (one shared window: `%shn` reads the slot that the next thread stored through `%sh`)
//!   depends on the earlier shared stores that write one of its bytes, at the same offset;
//!   `%in` is never written, so loads of it are leaves. An address register the body computes
//!   from `%out`/`%sh`/`%shn` by unguarded moves and constant 64-bit adds addresses that
//!   region at the summed offset; any other register base addresses nothing the slicer knows;
//! - the carry flag (§9.7.2): an `addc`/`subc` in the slice depends on the instruction that
//!   wrote `CC.CF` before it;
//! - control: a statement between a guarded `bra` and its label depends on the branch's
//!   predicate (the `bra` itself is not part of the shape: it moves no data); a statement of a
//!   loop body (between the head's label and the backward `bra`) on the loop's predicate, and
//!   the body is walked until no trip adds to the slice (loop-carried values).
//!
//! The shape of a word is the opcodes of its *data path* ([`data_path`]), not of the whole
//! slice: the same walk, but the registers an address operand reads (`[%d1+4]`'s `%d1`, a
//! tensor reference) are not followed. So a shape holds the stores that write the word, the
//! producer chain of the stored values (data operands, through registers and through shared
//! memory), the predicates that guard or select them (guards, `selp`/`setp` operands, the
//! predicates of enclosing branches) and the loads on that chain; it holds no statement whose
//! only use is computing an address of a load or store ([`slice`](fn@slice) keeps those).
//!
//! Invariants:
//! - A definition kills earlier ones (of a register or memory byte) only when it certainly
//!   runs: unguarded and outside every forward branch's span and every loop body; otherwise
//!   the earlier definitions stay in the slice as well.
//! - The slice and the data path list body indices in program order, so a shape reads
//!   producer → consumer and ends with the last store of the word; labels, `bra` and
//!   `bar.sync` never appear in them (they define no data). The data path is a subset of the
//!   slice.
//! - Pure: nothing here runs the program.

use std::collections::BTreeSet;

use super::glue::{GlueOp, Src};
use super::text::operand_regs;
use super::{text, Program, Reg, Special, Stmt};
use crate::isa::{Family, Instruction, Operand, OperandKind, Role};

/// What joins the elements of a shape: producer → consumer.
pub const SHAPE_ARROW: &str = " → ";

/// A memory region as the slicer sees it: the thread's output slot, or the shared window
/// (`%sh` and `%shn` address the same slots).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Region {
    Out,
    Shared,
}

/// One byte of a region.
type Byte = (Region, i64);

/// What one statement reads and writes.
#[derive(Default)]
struct Effects {
    defs: Vec<Reg>,
    /// Registers read for their value: data operands and guard predicates.
    uses: Vec<Reg>,
    /// Registers read only to form an address (the base of `[a+off]`, a tensor reference).
    addr_uses: Vec<Reg>,
    mem_defs: Vec<Byte>,
    mem_uses: Vec<Byte>,
    guarded: bool,
    /// Writes the carry flag `CC.CF` (§9.7.2).
    carry_def: bool,
    /// Reads the carry flag.
    carry_use: bool,
}

/// The region a prologue base register addresses (`None`: `%in`, read-only, or not a
/// memory base).
fn region(base: Reg) -> Option<Region> {
    match base {
        Reg::Special(Special::Out) => Some(Region::Out),
        Reg::Special(Special::Sh | Special::ShNext) => Some(Region::Shared),
        _ => None,
    }
}

/// Bytes of data an operand slot moves: element bits × elements / 8.
fn data_bytes(kind: &OperandKind) -> Option<i64> {
    match *kind {
        OperandKind::Reg(t) | OperandKind::RegOrImm(t) => Some(i64::from(t.bits() / 8)),
        OperandKind::Vector(t, n) => Some(i64::from(t.bits() / 8 * u32::from(n))),
        _ => None,
    }
}

/// The registers a statement certainly or possibly writes (its destinations), without
/// looking at memory.
fn stmt_defs(s: &Stmt) -> Vec<Reg> {
    let mut out = Vec::new();
    match s {
        Stmt::Isa(i) => {
            let specs = i.form.operands();
            for (k, o) in i.operands.iter().enumerate() {
                if specs.get(k).is_some_and(|s| s.role == Role::Dst) && !matches!(o, Operand::Address { .. }) {
                    operand_regs(o, &mut out);
                }
            }
        }
        Stmt::Glue { glue, .. } => out.push(glue.dst),
        Stmt::Bra { .. } | Stmt::Label(_) | Stmt::Bar => {}
    }
    out
}

/// Where register `reg` points before statement `at`: a region's base plus a constant, when
/// the body computes it from `%out`/`%sh`/`%shn` by unguarded moves and constant 64-bit adds
/// outside every branch span (`mov.b64 %d1, %out; add.u64 %d2, %d1, 4`); `None` otherwise.
fn base_of(p: &Program, spans: &[Vec<Reg>], at: usize, reg: Reg) -> Option<(Region, i64)> {
    if let Reg::Special(_) = reg {
        return region(reg).map(|r| (r, 0));
    }
    let j = (0..at).rev().find(|&j| stmt_defs(&p.body[j]).contains(&reg))?;
    if !spans[j].is_empty() {
        return None;
    }
    match &p.body[j] {
        Stmt::Isa(i) if i.guard.is_none() && i.form.family() == Family::Mov && i.operands.len() == 2 => {
            match &i.operands[1] {
                Operand::Name(n) => base_of(p, spans, j, Reg::parse(n)?),
                _ => None,
            }
        }
        Stmt::Glue { guard: None, glue } if glue.op == GlueOp::Add && glue.ty.bits() == 64 => match glue.src {
            [Some(Src::Reg(r)), Some(Src::Imm(c)), _, _] | [Some(Src::Imm(c)), Some(Src::Reg(r)), _, _] => {
                base_of(p, spans, j, r).map(|(region, off)| (region, off.wrapping_add(c as i64)))
            }
            _ => None,
        },
        _ => None,
    }
}

/// The bytes `[base+offset]` covers for an access of `bytes` bytes by statement `at`.
fn access(p: &Program, spans: &[Vec<Reg>], at: usize, addr: &Operand, bytes: Option<i64>) -> Vec<Byte> {
    match (addr, bytes) {
        (Operand::Address { base: Some(b), offset, .. }, Some(n)) => {
            match Reg::parse(b).and_then(|b| base_of(p, spans, at, b)) {
                Some((r, start)) => (start + offset..start + offset + n).map(|x| (r, x)).collect(),
                None => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}

/// Reads and writes of an ISA instruction, by its operand roles; `ld`/`st` also touch memory.
fn isa_effects(p: &Program, spans: &[Vec<Reg>], at: usize, i: &Instruction) -> Effects {
    let mut e = Effects { guarded: i.guard.is_some(), ..Effects::default() };
    if let Some(g) = &i.guard {
        e.uses.extend(Reg::parse(&g.pred));
    }
    let specs = i.form.operands();
    for (k, o) in i.operands.iter().enumerate() {
        let spec = specs.get(k);
        match (spec.map(|s| s.role), o) {
            // An address is read even in a destination slot (`st`'s `[a]`).
            (_, Operand::Address { .. } | Operand::TensorRef { .. }) => operand_regs(o, &mut e.addr_uses),
            (Some(Role::Dst), _) => operand_regs(o, &mut e.defs),
            _ => operand_regs(o, &mut e.uses),
        }
    }
    let data = |k: usize| specs.get(k).and_then(|s| data_bytes(&s.kind));
    match i.form.family() {
        Family::St if i.operands.len() >= 2 => e.mem_defs = access(p, spans, at, &i.operands[0], data(1)),
        Family::Ld | Family::LdGlobalNc if i.operands.len() >= 2 => {
            e.mem_uses = access(p, spans, at, &i.operands[1], data(0))
        }
        _ => {}
    }
    e
}

/// Reads and writes of statement `at`.
fn effects(p: &Program, spans: &[Vec<Reg>], at: usize) -> Effects {
    let s = &p.body[at];
    match s {
        Stmt::Isa(i) => isa_effects(p, spans, at, i),
        Stmt::Glue { guard, glue } => {
            let mut uses: Vec<Reg> = text::stmt_regs(s).into_iter().filter(|r| *r != glue.dst).collect();
            // A glue instruction that reads its own destination (`add %r1, %r1, 1`) reads it.
            if glue.src.iter().any(|x| matches!(x, Some(super::Src::Reg(r)) if *r == glue.dst)) {
                uses.push(glue.dst);
            }
            Effects {
                defs: vec![glue.dst],
                uses,
                guarded: guard.is_some(),
                carry_def: glue.op.writes_carry(),
                carry_use: glue.op.reads_carry(),
                ..Effects::default()
            }
        }
        Stmt::Bra { .. } | Stmt::Label(_) | Stmt::Bar => Effects::default(),
    }
}

/// For each statement, the guard predicates of the forward branches whose span holds it
/// (between the `bra` and its label) and of the loops whose body holds it (between the loop
/// head's label and the backward `bra`: the trip count decides how often it runs).
fn branch_guards(p: &Program) -> Vec<Vec<Reg>> {
    let mut out = vec![Vec::new(); p.body.len()];
    for (j, s) in p.body.iter().enumerate() {
        let Stmt::Bra { guard, label } = s else { continue };
        // An unconditional branch skips its span for good: no predicate, but still not certain.
        let pred = guard.map_or(Reg::Special(Special::Tid), |g| Reg::Virt(super::RegClass::Pred, g.pred));
        if let Some(head) = loop_head(p, j) {
            for slot in out.iter_mut().take(j).skip(head + 1) {
                slot.push(pred);
            }
            continue;
        }
        let end = p.body.iter().skip(j + 1).position(|x| *x == Stmt::Label(*label)).map_or(p.body.len(), |k| j + 1 + k);
        for slot in out.iter_mut().take(end).skip(j + 1) {
            slot.push(pred);
        }
    }
    out
}

/// The body index of the label statement `bra` at `j` jumps back to, when it is a backward
/// branch (a loop's back edge).
fn loop_head(p: &Program, j: usize) -> Option<usize> {
    let Some(Stmt::Bra { label, .. }) = p.body.get(j) else { return None };
    p.body.iter().take(j).position(|x| *x == Stmt::Label(*label))
}

/// What a backward walk follows through the address operands of the statements it takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Addresses {
    /// The statements that compute an address are taken too (the whole slice).
    Follow,
    /// Only values: an address base is not followed (the data path).
    Skip,
}

/// The body indices, in program order, of the statements that output word `word` (of every
/// thread) depends on: the stores that write it and everything they depend on, including the
/// computation of the addresses they and the loads before them use.
pub fn slice(p: &Program, word: u32) -> Vec<usize> {
    walk(p, word, Addresses::Follow)
}

/// The body indices, in program order, of the statements on the value path of output word
/// `word`: [`slice`](fn@slice) without the statements that only compute addresses (see the module docs).
pub fn data_path(p: &Program, word: u32) -> Vec<usize> {
    walk(p, word, Addresses::Skip)
}

/// What the backward walk has collected: the registers and bytes still wanted, whether the
/// carry flag is, and the statements taken.
struct Wanted {
    regs: BTreeSet<Reg>,
    bytes: BTreeSet<Byte>,
    carry: bool,
    taken: BTreeSet<usize>,
}

impl Wanted {
    fn size(&self) -> usize {
        self.regs.len() + self.bytes.len() + usize::from(self.carry) + self.taken.len()
    }
}

/// The backward walk of [`slice`](fn@slice) and [`data_path`]. A loop body is walked again
/// until nothing new is wanted (a value written late in one trip is read early in the next);
/// its statements never kill (they are in the loop's span), so the walk only grows and ends.
fn walk(p: &Program, word: u32, addresses: Addresses) -> Vec<usize> {
    let spans = branch_guards(p);
    let first = i64::from(word) * 4;
    let mut w = Wanted {
        regs: BTreeSet::new(),
        bytes: (first..first + 4).map(|b| (Region::Out, b)).collect(),
        carry: false,
        taken: BTreeSet::new(),
    };
    let mut k = p.body.len();
    while k > 0 {
        k -= 1;
        match loop_head(p, k) {
            Some(head) => {
                loop {
                    let before = w.size();
                    for j in (head..=k).rev() {
                        visit(p, &spans, j, addresses, &mut w);
                    }
                    if w.size() == before {
                        break;
                    }
                }
                k = head;
            }
            None => visit(p, &spans, k, addresses, &mut w),
        }
    }
    w.taken.into_iter().collect()
}

/// One statement of the backward walk: taken when it defines something wanted.
fn visit(p: &Program, spans: &[Vec<Reg>], k: usize, addresses: Addresses, w: &mut Wanted) {
    let e = effects(p, spans, k);
    let relevant = e.defs.iter().any(|r| w.regs.contains(r))
        || e.mem_defs.iter().any(|b| w.bytes.contains(b))
        || (w.carry && e.carry_def);
    if !relevant {
        return;
    }
    w.taken.insert(k);
    if !e.guarded && spans[k].is_empty() {
        e.defs.iter().for_each(|r| {
            w.regs.remove(r);
        });
        e.mem_defs.iter().for_each(|b| {
            w.bytes.remove(b);
        });
        if e.carry_def {
            w.carry = false;
        }
    }
    w.carry |= e.carry_use;
    w.regs.extend(e.uses);
    if addresses == Addresses::Follow {
        w.regs.extend(e.addr_uses);
    }
    // The specials (`%tix`, `%in`, …) are set by the prologue, never by the body.
    w.regs.extend(spans[k].iter().filter(|r| matches!(r, Reg::Virt(..))));
    w.bytes.extend(e.mem_uses);
}

/// The opcode of each statement of `stmts`, in order (`cvt.rn.f16.f32`, `st.global.b8`,
/// `xor.b32`).
pub fn opcodes(p: &Program, stmts: &[usize]) -> Vec<String> {
    stmts
        .iter()
        .filter_map(|&k| match p.body.get(k)? {
            Stmt::Isa(i) => Some(i.form.opcode()),
            Stmt::Glue { glue, .. } => Some(glue.opcode()),
            Stmt::Bra { .. } | Stmt::Label(_) | Stmt::Bar => None,
        })
        .collect()
}

/// The shape of output word `word`: the opcodes of its [`data_path`] joined by
/// [`SHAPE_ARROW`] (empty when nothing in the body writes the word).
pub fn shape(p: &Program, word: u32) -> String {
    opcodes(p, &data_path(p, word)).join(SHAPE_ARROW)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::text::parse_case;

    /// A one-warp program with `outputs` output words and this body.
    fn program(outputs: u32, shared: u32, body: &str) -> Program {
        let inputs: String = (0..32)
            .map(|t| format!("// t{t}: 00000001 00000002 00000003 00000004 00000005 00000006 00000007 00000008\n"))
            .collect();
        parse_case(&format!(
            "// ptxdiff-program name=s target=sm_90@8.7 threads=32 inputs=8 outputs={outputs} shared={shared}\n// begin body\n{body}// end body\n// ptxdiff-inputs\n{inputs}"
        ))
        .unwrap()
        .0
    }

    #[test]
    fn registers_through_a_chain_and_not_the_unrelated() {
        let p = program(
            2,
            0,
            "ld.global.f32 %r0, [%in];\n\
             ld.global.b32 %r1, [%in+4];\n\
             cvt.rn.f16.f32 %h0, %r0;\n\
             xor.b32 %r2, %r1, 7;\n\
             st.global.b8 [%out+1], %h0;\n\
             st.global.b32 [%out+4], %r2;\n",
        );
        assert_eq!(slice(&p, 0), vec![0, 2, 4]);
        assert_eq!(shape(&p, 0), "ld.global.f32 → cvt.rn.f16.f32 → st.global.b8");
        assert_eq!(shape(&p, 1), "ld.global.b32 → xor.b32 → st.global.b32");
    }

    #[test]
    fn a_loop_body_is_walked_until_its_carried_values_are_in() {
        let p = program(
            1,
            0,
            "ld.global.b32 %r0, [%in];\n\
             ld.global.b32 %r1, [%in+4];\n\
             ld.global.b32 %r4, [%in+8];\n\
             mov.u32 %r2, 0;\n\
             $L0:\n\
             add.u32 %r3, %r0, 1;\n\
             xor.b32 %r0, %r1, 5;\n\
             mov.b32 %r1, %r4;\n\
             add.u32 %r4, %r4, %r2;\n\
             add.u32 %r2, %r2, 1;\n\
             setp.lt.u32 %p0, %r2, 3;\n\
             @%p0 bra $L0;\n\
             st.global.b32 [%out], %r3;\n",
        );
        // %r3 reads %r0 (before the loop, or the xor of the last trip), which reads %r1 (a
        // load, or the mov of the trip before), which reads %r4 (a load, or its own add of the
        // trip before) and the counter; the loop's predicate decides the trips (the `bra` moves
        // no data and is not listed).
        assert_eq!(slice(&p, 0), vec![0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 12]);
    }

    #[test]
    fn a_carry_chain_is_followed_through_the_flag() {
        let p = program(
            1,
            0,
            "ld.global.b32 %r0, [%in];\n\
             ld.global.b32 %r1, [%in+4];\n\
             add.cc.u32 %r2, %r0, %r1;\n\
             addc.u32 %r3, %r1, 0x0;\n\
             st.global.b32 [%out], %r3;\n",
        );
        // The low word's sum is dead, but its carry feeds the stored high word.
        assert_eq!(slice(&p, 0), vec![0, 1, 2, 3, 4]);
        assert_eq!(shape(&p, 0), "ld.global.b32 → ld.global.b32 → add.cc.u32 → addc.u32 → st.global.b32");
    }

    #[test]
    fn a_certain_redefinition_kills_and_a_guarded_one_does_not() {
        let p = program(
            1,
            0,
            "ld.global.b32 %r0, [%in];\n\
             mov.b32 %r1, %r0;\n\
             mov.b32 %r1, 5;\n\
             st.global.b32 [%out], %r1;\n",
        );
        assert_eq!(slice(&p, 0), vec![2, 3]);
        let p = program(
            1,
            0,
            "ld.global.b32 %r0, [%in];\n\
             setp.eq.u32 %p0, %r0, 1;\n\
             mov.b32 %r1, %r0;\n\
             @%p0 mov.b32 %r1, 5;\n\
             st.global.b32 [%out], %r1;\n",
        );
        // The guarded move and the one before it both reach the store; the guard reads %p0.
        assert_eq!(slice(&p, 0), vec![0, 1, 2, 3, 4]);
        // A later store of the same word kills the earlier one; a word nothing writes is empty.
        let p = program(2, 0, "mov.b32 %r1, 1;\nst.global.b32 [%out], %r1;\nst.global.b32 [%out], %r1;\n");
        assert_eq!(slice(&p, 0), vec![0, 2]);
        assert_eq!(shape(&p, 1), "");
    }

    #[test]
    fn memory_through_shared_and_partial_stores() {
        let p = program(
            2,
            8,
            "mov.b16 %h0, 7;\n\
             cvt.f16.f16 %h0, %h0;\n\
             st.shared.v2.s8 [%sh+28], {%h0, %h0};\n\
             mov.b32 %r9, 9;\n\
             st.shared.b32 [%sh], %r9;\n\
             ld.global.v4.b16 {%h2, %h3, %h4, %h1}, [%in+8];\n\
             bar.sync 0;\n\
             ld.shared.v2.u8 {%h7, %h8}, [%shn+28];\n\
             st.global.v2.b8 [%out+6], {%h8, %h1};\n\
             st.global.b8 [%out+1], %h2;\n",
        );
        assert_eq!(
            shape(&p, 1),
            "mov.b16 → cvt.f16.f16 → st.shared.v2.s8 → ld.global.v4.b16 → ld.shared.v2.u8 → st.global.v2.b8"
        );
        // Word 0 is written only at byte 1, by a byte store of a loaded register.
        assert_eq!(shape(&p, 0), "ld.global.v4.b16 → st.global.b8");
    }

    #[test]
    fn a_branch_span_adds_its_predicate_and_keeps_earlier_definitions() {
        let p = program(
            1,
            0,
            "ld.global.b32 %r0, [%in];\n\
             mov.b32 %r1, 3;\n\
             setp.lt.s32 %p1, %r0, 0;\n\
             @%p1 bra $L1;\n\
             add.u32 %r1, %r0, 1;\n\
             $L1:\n\
             st.global.b32 [%out], %r1;\n",
        );
        assert_eq!(shape(&p, 0), "ld.global.b32 → mov.b32 → setp.lt.s32 → add.u32 → st.global.b32");
    }

    #[test]
    fn address_arithmetic_is_in_the_slice_and_not_in_the_shape() {
        let p = program(
            2,
            0,
            "ld.global.f32 %r0, [%in];\n\
             mov.b64 %d1, %in;\n\
             add.u64 %d1, %d1, 8;\n\
             ld.global.b32 %r3, [%d1];\n\
             cvt.rn.f16.f32 %h0, %r0;\n\
             mov.b64 %d2, %out;\n\
             add.u64 %d3, %d2, 4;\n\
             st.global.b8 [%d3+1], %h0;\n\
             st.global.b32 [%out], %r3;\n",
        );
        // Word 1 is written at byte 5 through %d3 = %out + 4; its address arithmetic is in
        // the slice but not on the data path.
        assert_eq!(slice(&p, 1), vec![0, 4, 5, 6, 7]);
        assert_eq!(data_path(&p, 1), vec![0, 4, 7]);
        assert_eq!(shape(&p, 1), "ld.global.f32 → cvt.rn.f16.f32 → st.global.b8");
        // Word 0: the load's address arithmetic is left out of the shape too.
        assert_eq!(slice(&p, 0), vec![1, 2, 3, 8]);
        assert_eq!(shape(&p, 0), "ld.global.b32 → st.global.b32");
        // A guarded address computation is not followed: the store writes nothing known.
        let p = program(
            2,
            0,
            "mov.b16 %h0, 7;\n\
             setp.eq.u32 %p0, %tix, 0;\n\
             mov.b64 %d2, %out;\n\
             @%p0 add.u64 %d2, %d2, 4;\n\
             st.global.b8 [%d2+1], %h0;\n",
        );
        assert_eq!(shape(&p, 0), "");
        assert_eq!(shape(&p, 1), "");
    }
}
