//! Relations between predicates that hold on every path to an instruction, so that the def-use
//! walk ([`super::dataflow`]) can prove a guarded read covered by a write under another guard.
//!
//! ptxas relates predicates in a few ways the walk must see through: it sets a predicate to a
//! constant and overwrites it under a guard (`PLOP3.LUT P3, PT, PT, PT, PT, 0x8, 0x0` makes P3
//! false, then `@!P2 PLOP3.LUT P3, PT, P1, PT, PT, 0x80, 0x0` copies P1 on the lanes of !P2: P3
//! now implies !P2), and it chains comparisons (`ISETP.GT.AND P1, PT, R11, 0x19, !P0`: P1
//! implies !P0). A read `@P3 F2F R14` of a register written under `@!P2` is then covered.
//!
//! [`Relations`] holds literals (a predicate or its negation, written as a [`Guard`]) that are
//! true on every lane, and implications between literals (`P3 ⇒ !P2`: wherever P3 holds, P2
//! does not), stored with their contrapositives. Every stored fact is true on every path to the
//! point it describes, so a query that says "implied" is a proof; a missing fact only makes the
//! walk flag a read it could not prove written. [`Relations::after`] is the instruction's
//! effect: the facts about a predicate it writes are derived by enumerating the instruction's
//! truth table over its input predicates ([`PredFn`]: a `PLOP3` lookup table, a comparison
//! combined with a predicate, or an opaque value), keeping only the rows the facts already
//! known allow; then everything said about the old value is forgotten, but for the
//! refinements [`Relations::step`] returns (a new literal that implies an old one of the same
//! predicate: `ISETP.NE.AND P0, PT, R0, RZ, P0`), which the walk uses to keep what was written
//! under the old guard.

use super::parse::{File, Guard, Reg};

/// Predicate facts at one point of a kernel (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Relations {
    /// Literals true on every lane (sorted).
    holds: Vec<Guard>,
    /// Implications `a ⇒ b` between literals of different predicates, each with its
    /// contrapositive `!b ⇒ !a` (sorted).
    implies: Vec<(Guard, Guard)>,
}

/// One input of a predicate an instruction computes: `PT`, `!PT`, or a literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// A constant (`PT` is true, `!PT` false).
    Const(bool),
    /// A predicate, possibly negated.
    Lit(Guard),
}

/// How a combined comparison joins its comparison with its predicate operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Join {
    /// `.AND`.
    And,
    /// `.OR`.
    Or,
    /// `.XOR`.
    Xor,
}

impl Join {
    fn apply(self, x: bool, c: bool) -> bool {
        match self {
            Join::And => x && c,
            Join::Or => x || c,
            Join::Xor => x ^ c,
        }
    }
}

/// The value an instruction writes to a predicate where its guard holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PredFn {
    /// A three-input lookup table (`PLOP3.LUT`), indexed by `A·4 + B·2 + C`.
    Lut {
        /// The table.
        lut: u8,
        /// A, B and C.
        inputs: [Input; 3],
    },
    /// A comparison (a value the walk does not know) joined with a predicate (`ISETP.GT.AND
    /// P1, PT, R11, 0x19, !P0`).
    Compare {
        /// The join.
        join: Join,
        /// The predicate operand.
        with: Input,
    },
    /// A value the walk does not know (`R2UR P0, …`, a carry-out, a shuffle's validity).
    Opaque,
}

impl Relations {
    /// Whether `l` is true on every lane.
    pub fn holds(&self, l: Guard) -> bool {
        self.holds.binary_search(&l).is_ok()
    }

    /// The literals known true on every lane.
    pub fn holding(&self) -> &[Guard] {
        &self.holds
    }

    /// Whether `a` implies `b` wherever `a` holds (trivially when they are equal, `b` always
    /// holds or `a` never does).
    pub fn implies(&self, a: Guard, b: Guard) -> bool {
        a == b || self.holds(b) || self.holds(a.complement()) || self.implies.binary_search(&(a, b)).is_ok()
    }

    /// Whether `l` holds wherever every literal of `ctx` does (an empty `ctx`: everywhere).
    pub fn entails(&self, ctx: &[Guard], l: Guard) -> bool {
        self.holds(l) || ctx.iter().any(|&c| self.implies(c, l))
    }

    /// The value of `l` wherever every literal of `ctx` holds, if the facts fix it.
    pub fn value(&self, ctx: &[Guard], l: Guard) -> Option<bool> {
        if self.entails(ctx, l) {
            Some(true)
        } else if self.entails(ctx, l.complement()) {
            Some(false)
        } else {
            None
        }
    }

    /// Records that `l` is true on every lane, with everything it implies.
    pub fn assert_holds(&mut self, l: Guard) {
        let mut todo = vec![l];
        while let Some(l) = todo.pop() {
            if let Err(at) = self.holds.binary_search(&l) {
                self.holds.insert(at, l);
                todo.extend(self.implies.iter().filter(|(a, _)| *a == l).map(|&(_, b)| b));
            }
        }
    }

    /// Records `a ⇒ b` and what follows from it by transitivity and contraposition.
    pub fn add(&mut self, a: Guard, b: Guard) {
        if a.pred == b.pred {
            // `a ⇒ !a`: a never holds.
            if a != b {
                self.assert_holds(a.complement());
            }
            return;
        }
        let before: Vec<Guard> =
            std::iter::once(a).chain(self.implies.iter().filter(|(_, y)| *y == a).map(|&(x, _)| x)).collect();
        let after: Vec<Guard> =
            std::iter::once(b).chain(self.implies.iter().filter(|(x, _)| *x == b).map(|&(_, y)| y)).collect();
        let mut contradicted = Vec::new();
        for &x in &before {
            for &y in &after {
                if x.pred == y.pred {
                    if x != y {
                        contradicted.push(x.complement());
                    }
                    continue;
                }
                for pair in [(x, y), (y.complement(), x.complement())] {
                    if let Err(at) = self.implies.binary_search(&pair) {
                        self.implies.insert(at, pair);
                    }
                }
            }
        }
        for l in contradicted {
            self.assert_holds(l);
        }
        if before.iter().any(|&x| self.holds(x)) {
            for y in after {
                self.assert_holds(y);
            }
        }
    }

    /// The literals known to imply `l` (other than `l` itself).
    pub fn implying(&self, l: Guard) -> Vec<Guard> {
        self.implies.iter().filter(|(_, b)| *b == l).map(|&(a, _)| a).collect()
    }

    /// Forgets everything said about `p` (it is about to be written).
    pub fn forget(&mut self, p: Reg) {
        self.holds.retain(|l| l.pred != p);
        self.implies.retain(|(a, b)| a.pred != p && b.pred != p);
    }

    /// The facts true on both paths where two paths join.
    pub fn meet(&self, o: &Relations) -> Relations {
        let holds: Vec<Guard> = self.holds.iter().copied().filter(|&l| o.holds(l)).collect();
        let mut implies: Vec<(Guard, Guard)> = self
            .implies
            .iter()
            .chain(&o.implies)
            .copied()
            .filter(|&(a, b)| {
                self.implies(a, b) && o.implies(a, b) && !holds.contains(&b) && !holds.contains(&a.complement())
            })
            .collect();
        implies.sort_unstable();
        implies.dedup();
        Relations { holds, implies }
    }

    /// The facts after an instruction under `guard` that writes each predicate of `writes` with
    /// its value ([`PredFn`]) where the guard holds (elsewhere the predicate keeps its value).
    /// A uniform predicate written under a lane guard is only forgotten.
    pub fn after(&self, guard: Option<Guard>, writes: &[(Reg, PredFn)]) -> Relations {
        self.step(guard, writes).0
    }

    /// [`Relations::after`], with the refinements of the instruction: pairs `(new, old)` of
    /// literals of one predicate it writes where the new literal holds only on lanes where the
    /// old one held before the write (`ISETP.NE.AND P0, PT, R0, RZ, P0`: the new P0 implies the
    /// old P0), so what was defined under the old literal is defined under the new one.
    pub fn step(&self, guard: Option<Guard>, writes: &[(Reg, PredFn)]) -> (Relations, Vec<(Guard, Guard)>) {
        let lane_guard = guard.is_some_and(|g| g.pred.file == File::P);
        let written: Vec<Reg> = writes.iter().map(|w| w.0).collect();
        let mut facts: Vec<Fact> = Vec::new();
        for &(d, f) in writes {
            if lane_guard && d.file == File::Up {
                continue;
            }
            // A fact may name only `d` among the predicates written: the old value of another
            // one is gone after the instruction.
            let others = |l: Guard| l.pred != d && written.contains(&l.pred);
            facts.extend(self.derive(guard, d, f).into_iter().filter(|fact| match *fact {
                Fact::Holds(l) | Fact::Refines(l, _) => !others(l),
                Fact::Implies(a, b) => !others(a) && !others(b),
            }));
        }
        let mut next = self.clone();
        for &(d, _) in writes {
            next.forget(d);
        }
        let mut refinements = Vec::new();
        for fact in facts {
            match fact {
                Fact::Holds(l) => next.assert_holds(l),
                Fact::Implies(a, b) => next.add(a, b),
                Fact::Refines(new, old) => refinements.push((new, old)),
            }
        }
        (next, refinements)
    }

    /// What is known of predicate `d` after `@guard d := f`: enumerates the rows of the truth
    /// table over the predicates involved (the guard, `f`'s inputs, `d`'s old value) and an
    /// opaque value (a comparison's result; each destination has its own), keeps those the
    /// known facts allow, and reads off which literals the new value implies.
    fn derive(&self, guard: Option<Guard>, d: Reg, f: PredFn) -> Vec<Fact> {
        let mut atoms: Vec<Reg> = Vec::new();
        let mut note = |p: Reg| {
            if !atoms.contains(&p) {
                atoms.push(p);
            }
        };
        if let Some(g) = guard {
            note(g.pred);
        }
        // The old value of `d`: kept where the guard does not hold, and what the new value may
        // refine.
        note(d);
        let inputs: Vec<Input> = match f {
            PredFn::Lut { inputs, .. } => inputs.to_vec(),
            PredFn::Compare { with, .. } => vec![with],
            PredFn::Opaque => Vec::new(),
        };
        for i in &inputs {
            if let Input::Lit(l) = i {
                note(l.pred);
            }
        }
        let lit = |row: u32, l: Guard| -> bool {
            let at = atoms.iter().position(|&p| p == l.pred).expect("an atom");
            ((row >> at) & 1 == 1) != l.negated
        };
        let input = |row: u32, i: Input| match i {
            Input::Const(b) => b,
            Input::Lit(l) => lit(row, l),
        };
        // The opaque value is the bit above the atoms.
        let opaque_bit = atoms.len();
        let n_rows = 1u32 << (atoms.len() + 1);
        // A row is possible if no fact rules out the literals it makes true.
        let possible = |row: u32| {
            let trues: Vec<Guard> =
                atoms.iter().enumerate().map(|(i, &p)| Guard { pred: p, negated: (row >> i) & 1 == 0 }).collect();
            trues.iter().all(|&x| !self.holds(x.complement()))
                && trues.iter().all(|&x| trues.iter().all(|&y| x == y || !self.implies(x, y.complement())))
        };
        let value = |row: u32| -> bool {
            let x = (row >> opaque_bit) & 1 == 1;
            let new = match f {
                PredFn::Lut { lut, inputs } => {
                    let idx = (u32::from(input(row, inputs[0])) << 2)
                        | (u32::from(input(row, inputs[1])) << 1)
                        | u32::from(input(row, inputs[2]));
                    (lut >> idx) & 1 == 1
                }
                PredFn::Compare { join, with } => join.apply(x, input(row, with)),
                PredFn::Opaque => x,
            };
            match guard {
                Some(g) if !lit(row, g) => lit(row, Guard { pred: d, negated: false }),
                _ => new,
            }
        };
        let rows: Vec<(u32, bool)> = (0..n_rows).filter(|&r| possible(r)).map(|r| (r, value(r))).collect();
        let dl = Guard { pred: d, negated: false };
        let mut out = Vec::new();
        if rows.iter().all(|&(_, v)| v) {
            out.push(Fact::Holds(dl));
        } else if rows.iter().all(|&(_, v)| !v) {
            out.push(Fact::Holds(dl.complement()));
        }
        // Candidates: the literals of the other atoms, and what they imply.
        let mut candidates: Vec<Guard> = atoms
            .iter()
            .filter(|&&p| p != d)
            .flat_map(|&p| [Guard { pred: p, negated: false }, Guard { pred: p, negated: true }])
            .collect();
        for &(a, b) in &self.implies {
            if atoms.contains(&a.pred) && !atoms.contains(&b.pred) && b.pred != d && !candidates.contains(&b) {
                candidates.push(b);
            }
        }
        // A candidate's value in a row: exact for an atom, else what the row's literals imply.
        let eval = |row: u32, l: Guard| -> Option<bool> {
            if atoms.contains(&l.pred) {
                return Some(lit(row, l));
            }
            let trues = atoms.iter().enumerate().map(|(i, &p)| Guard { pred: p, negated: (row >> i) & 1 == 0 });
            let trues: Vec<Guard> = trues.collect();
            if trues.iter().any(|&x| self.implies(x, l)) {
                Some(true)
            } else if trues.iter().any(|&x| self.implies(x, l.complement())) {
                Some(false)
            } else {
                None
            }
        };
        for &c in &candidates {
            for (side, lhs) in [(true, dl), (false, dl.complement())] {
                let mut on_side = rows.iter().filter(|&&(_, v)| v == side).peekable();
                if on_side.peek().is_some() && on_side.all(|&(r, _)| eval(r, c) == Some(true)) {
                    out.push(Fact::Implies(lhs, c));
                }
            }
        }
        // Where a literal of the new value holds, did one of the old value hold?
        for (side, lhs) in [(true, dl), (false, dl.complement())] {
            for old in [dl, dl.complement()] {
                let mut on_side = rows.iter().filter(|&&(_, v)| v == side).peekable();
                if on_side.peek().is_some() && on_side.all(|&(r, _)| lit(r, old)) {
                    out.push(Fact::Refines(lhs, old));
                }
            }
        }
        out
    }
}

/// A fact [`Relations::derive`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fact {
    Holds(Guard),
    Implies(Guard, Guard),
    /// A literal of the written predicate's new value implies one of its old value.
    Refines(Guard, Guard),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(n: u16) -> Guard {
        Guard { pred: Reg { file: File::P, n }, negated: false }
    }

    fn np(n: u16) -> Guard {
        p(n).complement()
    }

    fn r(n: u16) -> Reg {
        p(n).pred
    }

    const FALSE: PredFn = PredFn::Lut { lut: 0x8, inputs: [Input::Const(true); 3] };

    #[test]
    fn a_constant_overwritten_under_a_guard_implies_the_guard() {
        // P3 := false; @!P2 P3 := P1 & PT & PT.
        let rel = Relations::default().after(None, &[(r(3), FALSE)]);
        assert!(rel.holds(np(3)));
        let copy = PredFn::Lut { lut: 0x80, inputs: [Input::Lit(p(1)), Input::Const(true), Input::Const(true)] };
        let rel = rel.after(Some(np(2)), &[(r(3), copy)]);
        assert!(rel.implies(p(3), np(2)) && rel.implies(p(3), p(1)), "{rel:?}");
        assert!(rel.implies(p(2), np(3)), "contrapositive");
        assert!(!rel.implies(np(2), p(3)) && !rel.holds(np(3)));
        // P0 := PT; @P1 P0 := P2: where P0 does not hold, P1 did.
        let rel =
            Relations::default().after(None, &[(r(0), PredFn::Lut { lut: 0x80, inputs: [Input::Const(true); 3] })]);
        let rel = rel.after(
            Some(p(1)),
            &[(r(0), PredFn::Lut { lut: 0xf0, inputs: [Input::Lit(p(2)), Input::Const(true), Input::Const(true)] })],
        );
        assert!(rel.implies(np(0), p(1)) && rel.implies(np(0), np(2)), "{rel:?}");
    }

    #[test]
    fn combined_comparisons_imply_or_are_implied_by_their_predicate() {
        let and = |with| PredFn::Compare { join: Join::And, with };
        let rel = Relations::default().after(None, &[(r(1), and(Input::Lit(np(0))))]);
        assert!(rel.implies(p(1), np(0)) && !rel.implies(np(1), p(0)));
        let or = PredFn::Compare { join: Join::Or, with: Input::Lit(p(0)) };
        let rel = Relations::default().after(None, &[(r(2), or)]);
        assert!(rel.implies(p(0), p(2)) && rel.implies(np(2), np(0)));
        let xor = PredFn::Compare { join: Join::Xor, with: Input::Lit(p(0)) };
        assert_eq!(Relations::default().after(None, &[(r(2), xor)]), Relations::default());
        // An opaque write says nothing; it forgets what was said of the old value.
        let rel = Relations::default().after(None, &[(r(1), and(Input::Lit(np(0))))]);
        assert_eq!(rel.after(None, &[(r(1), PredFn::Opaque)]), Relations::default());
    }

    #[test]
    fn facts_chain_and_paths_keep_only_what_both_know() {
        let mut a = Relations::default();
        a.add(p(1), p(2));
        a.add(p(2), np(3));
        assert!(a.implies(p(1), np(3)) && a.implies(p(3), np(1)));
        let mut b = Relations::default();
        b.add(p(1), np(3));
        let m = a.meet(&b);
        assert!(m.implies(p(1), np(3)) && !m.implies(p(1), p(2)));
        // A constant on one path makes an implication about it vacuous there.
        let mut c = Relations::default();
        c.assert_holds(np(1));
        assert!(a.meet(&c).implies(p(1), p(2)));
        assert!(!a.meet(&Relations::default()).implies(p(1), p(2)));
        // A literal implying its complement never holds.
        let mut d = Relations::default();
        d.add(p(4), np(4));
        assert!(d.holds(np(4)));
    }

    #[test]
    fn rows_the_facts_rule_out_are_not_counted() {
        // P2 := P1 & !P0 (a LUT over A=P1, B=P0): never true where P1 ⇒ P0 is known.
        let f = PredFn::Lut { lut: 0x30, inputs: [Input::Lit(p(1)), Input::Lit(p(0)), Input::Const(true)] };
        let mut rel = Relations::default();
        rel.add(p(1), p(0));
        assert!(rel.after(None, &[(r(2), f)]).holds(np(2)));
        let free = Relations::default().after(None, &[(r(2), f)]);
        assert!(!free.holds(np(2)) && free.implies(p(2), p(1)) && free.implies(p(2), np(0)), "{free:?}");
    }
}
