//! The `minimize` target: the reducer keeps the predicate it is given, never grows a program,
//! and leaves something the oracle can run and the case format can carry.
//!
//! Input layout: byte 0 picks the target (as in [`crate::generate`]); byte 1 picks an
//! instruction family among those in the program (in [`Family::ALL`] order); bytes 2..4 pick an
//! output bit `k` of thread 0 (little endian, modulo `32 × outputs`); the rest drives the
//! generator. The predicate stands for a finding: "the program still holds an instruction of
//! family F, and thread 0's output bit k is exactly its original value" (so it holds on the
//! original whenever that bit is exact). When it holds, [`minimize`] must return a case that
//! satisfies it, with no more instructions than the original, that the oracle runs and that
//! prints and parses back to itself.

use generator::minimize::{minimize, Budget};
use oracle::isa::Family;
use oracle::program::text::{case, parse_case};
use oracle::program::{interp, Inputs, Program, Stmt};
use oracle::semantics::{Allowances, Expected};

/// Predicate calls per reduction: small, so the target stays fast; what the target checks
/// holds at any budget.
pub const CALLS: usize = 200;

/// Bytes before the generator's (target, family, output bit).
const HEAD: usize = 4;

/// The families of the program's §9.7.9 instructions, in [`Family::ALL`] order.
fn families(p: &Program) -> Vec<Family> {
    Family::ALL
        .iter()
        .copied()
        .filter(|&f| p.body.iter().any(|s| matches!(s, Stmt::Isa(i) if i.form.family() == f)))
        .collect()
}

/// Bit `k` of `e` where it is exact.
fn exact_bit(e: &Expected, k: u32) -> Option<bool> {
    let f = (k < e.width).then(|| e.field(k, 1))?;
    f.is_exact().then_some(f.bits == 1)
}

/// The target's property for one input. Gives the instruction counts before and after where
/// the predicate held and a reduction ran.
pub fn check(data: &[u8]) -> Option<(usize, usize)> {
    let mut head = [0u8; HEAD];
    let n = data.len().min(HEAD);
    head[..n].copy_from_slice(&data[..n]);
    let mut gen_bytes = vec![head[0]];
    gen_bytes.extend_from_slice(&data[n..]);
    let (p, inputs) = crate::generate::build(&gen_bytes)?;
    let allow = Allowances::all();
    let out = interp::run(&p, &inputs, &allow).ok()?;
    let fams = families(&p);
    let family = (!fams.is_empty()).then(|| fams[usize::from(head[1]) % fams.len()]);
    let k = u32::from(u16::from_le_bytes([head[2], head[3]])) % (32 * p.outputs);
    let bit = exact_bit(&out[0], k)?;
    let pred = |q: &Program, i: &Inputs| {
        family.is_none_or(|f| families(q).contains(&f))
            && interp::run(q, i, &allow).is_ok_and(|o| o.first().and_then(|e| exact_bit(e, k)) == Some(bit))
    };
    assert!(pred(&p, &inputs), "the predicate is deterministic");
    let r = minimize(&p, &inputs, Budget::calls(CALLS), pred);
    let what = format!("family {family:?}, thread 0 bit {k} = {bit}");
    let text = case(&r.program, &r.inputs);
    assert!(pred(&r.program, &r.inputs), "the reduced case lost the predicate ({what})\n{text}");
    assert!(
        r.program.instruction_count() <= p.instruction_count(),
        "the reduced case grew: {} -> {} instructions\n{text}",
        p.instruction_count(),
        r.program.instruction_count()
    );
    assert_eq!((r.before, r.after), (p.instruction_count(), r.program.instruction_count()));
    if generator::program::check_program(&p).is_ok() {
        if let Err(e) = generator::program::check_program(&r.program) {
            panic!("the reduced case of a valid program is invalid: {e}\n{text}");
        }
    }
    if let Err(e) = interp::run(&r.program, &r.inputs, &allow) {
        panic!("the oracle rejects the reduced case: {e}\n{text}");
    }
    match parse_case(&text) {
        Ok(back) => assert!(back == (r.program, r.inputs), "the reduced case parses to another case\n{text}"),
        Err(e) => panic!("the reduced case does not parse: {e}\n{text}"),
    }
    Some((r.before, r.after))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    /// A few hundred generated programs, each reduced under its predicate.
    #[test]
    fn minimize_smoke() {
        let mut rng = Rng::new(0xA076_1D64_78BD_642F);
        let (mut reduced, mut before, mut after) = (0, 0, 0);
        for _ in 0..200 {
            let n = rng.below(1500);
            if let Some((b, a)) = check(&rng.bytes(n)) {
                reduced += 1;
                before += b;
                after += a;
            }
        }
        assert!(reduced > 100, "only {reduced} reductions ran");
        assert!(after * 2 < before, "reductions kept {after} of {before} instructions");
    }

    #[test]
    fn exact_bits_only() {
        let e = Expected::exact(0b10, 32);
        assert_eq!((exact_bit(&e, 0), exact_bit(&e, 1), exact_bit(&e, 32)), (Some(false), Some(true), None));
        let any = Expected::any(32, oracle::semantics::Allowance::CvtFtzF16Input);
        assert_eq!(exact_bit(&any, 3), None);
    }
}
