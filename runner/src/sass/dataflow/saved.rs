//! Predicates saved in a register and restored from it: ptxas keeps a guard across code that
//! needs its predicate for something else (`@P5 LD.E.64.STRONG.SM R18, …; P2R R16, PR, RZ,
//! 0x20; IADD3 R6, P5, P6, …; ISETP.NE.AND P5, PT, R16, RZ, PT; @P5 PRMT R5, R18, 0x7610, R5`,
//! ptxas 13.0.88 and 13.5 -O3, corpus/findings/fuzz-h200-3903/trace/T6G.md, findings 550d3ab7,
//! a1eecf57, fe60b08f): the restored P5 is the saved one, so `@P5` reads R18 only where the load
//! wrote it.
//!
//! The walk sees through this with one more kind of literal in [`super::Relations`]: a
//! [`Guard`] whose `pred` is an R register stands for "the register is not zero" ([`nonzero`]).
//! `P2R Rd, PR, RZ, 1<<n` writes bit n of Rd from Pn and clears the others, so Pn ⇔ (Rd ≠ 0);
//! `ISETP.NE.AND Pm, PT, Rd, RZ, PT` makes Pm ⇔ (Rd ≠ 0), the `.EQ` form Pm ⇔ (Rd = 0)
//! ([`equivalence`]). What was written under Pn moves to the literal `Rd ≠ 0` when Pn is
//! written again (as under any literal that implies a rewritten guard, [`super::rehome`]) and
//! counts under the restored predicate, which implies it. A write of Rd forgets what was known
//! of `Rd ≠ 0` (the walk treats Rd as a rewritten predicate too): a restore from a register
//! changed since the save, or from a register that saved another bit, proves nothing.

use super::super::parse::{File, Guard, Instr, Reg};

/// The literal "`r` is not zero" of an R register `r`.
pub(super) fn nonzero(r: Reg) -> Guard {
    Guard { pred: r, negated: false }
}

/// The two literals `ins` makes equivalent where it runs unguarded: `(Pn, Rd ≠ 0)` for `P2R
/// Rd, PR, RZ, 1<<n` (bit n of Rd is Pn, every other bit zero), `(Pm, Rd ≠ 0)` for `ISETP.NE[.U32].AND Pm, PT, Rd, RZ, PT` and `(Pm, Rd = 0)` for
/// the `.EQ` form (the comparison alone: its predicate operand is `PT`, its second
/// destination `PT`).
pub(super) fn equivalence(ins: &Instr) -> Option<(Guard, Guard)> {
    if ins.guard.is_some() {
        return None;
    }
    let o = &ins.operands;
    let text = |k: usize| o.get(k).map_or("", |x| x.text.trim());
    let r_reg = |k: usize| match o.get(k).map(|x| x.regs.as_slice()) {
        Some(&[r]) if r.file == File::R && !o[k].negated => Some(r),
        _ => None,
    };
    let mods: Vec<&str> = ins.modifiers().collect();
    match ins.opcode() {
        "P2R" if mods.is_empty() && o.len() == 4 && text(1) == "PR" && text(2) == "RZ" => {
            let mask = o[3].imm?;
            let n = mask.trailing_zeros();
            let pred = Reg { file: File::P, n: u16::try_from(n).ok()? };
            let rd = r_reg(0)?;
            (mask.is_power_of_two() && n < u32::from(File::P.tracked()))
                .then_some((Guard { pred, negated: false }, nonzero(rd)))
        }
        "ISETP" if ins.ndest == 2 && o.len() == 5 && text(1) == "PT" && text(3) == "RZ" && text(4) == "PT" => {
            let eq = match mods.as_slice() {
                ["NE", "AND"] | ["NE", "U32", "AND"] => false,
                ["EQ", "AND"] | ["EQ", "U32", "AND"] => true,
                _ => return None,
            };
            let p = o[0].as_guard().filter(|g| g.pred.file == File::P && !g.negated)?;
            let v = nonzero(r_reg(2)?);
            Some((p, if eq { v.complement() } else { v }))
        }
        _ => None,
    }
}
