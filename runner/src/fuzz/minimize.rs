//! The minimization stage of a campaign: reduces one case while a predicate holds, and
//! measures itself. It only minimizes — the campaign builds the predicate (what "still the same
//! finding" means, [`still_shows`]) and triage packages the result.
//!
//! Invariant: with minimization off, the case comes back unchanged and no predicate call is
//! made; with it on, the predicate holds for the returned case (the reducer keeps only
//! candidates it accepted, and the starting case when it rejects that one).

use std::time::Instant;

use generator::minimize::{minimize, Budget, Reduced};
use oracle::program::{Inputs, Program};

use super::engine::Engine;
use super::triage::raw_findings;

/// A case after the minimization stage, and the stage's cost.
#[derive(Clone, Debug)]
pub struct Minimized {
    /// The case (the starting one when minimization is off).
    pub reduced: Reduced,
    /// Wall seconds the stage took.
    pub seconds: f64,
}

/// Reduces `(program, inputs)` within `budget` while `still` holds; `None` leaves the case as it
/// is (minimization off).
pub fn stage(
    program: &Program,
    inputs: &Inputs,
    budget: Option<Budget>,
    still: impl FnMut(&Program, &Inputs) -> bool,
) -> Minimized {
    let start = Instant::now();
    let reduced = match budget {
        Some(b) => minimize(program, inputs, b, still),
        None => Reduced {
            program: program.clone(),
            inputs: inputs.clone(),
            before: program.instruction_count(),
            after: program.instruction_count(),
            calls: 0,
        },
    };
    Minimized { reduced, seconds: start.elapsed().as_secs_f64() }
}

/// The predicate "running this case on every backend still shows a finding of pre-signature
/// `pre`" (same class, same disagreeing backends, same kind of difference).
pub fn still_shows<'e>(engine: &'e mut Engine, pre: &'e str) -> impl FnMut(&Program, &Inputs) -> bool + 'e {
    move |cand, inputs| {
        let res = engine.run(std::slice::from_ref(cand), std::slice::from_ref(inputs), "min");
        raw_findings(cand, &res[0]).iter().any(|x| x.pre_signature() == pre)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oracle::program::text::parse_case;

    /// A four-instruction case, written as a case file.
    fn case() -> (Program, Inputs) {
        let inputs: String = (0..32).map(|t| format!("// t{t}: 00000001 00000000 00000000 00000000\n")).collect();
        parse_case(&format!(
            "// ptxdiff-program name=m target=sm_90@8.7 threads=32 inputs=4 outputs=1 shared=0\n// begin body\n\
             ld.global.b32 %r1, [%in];\nxor.b32 %r2, %r1, 7;\nadd.u32 %r3, %r2, %r1;\nst.global.b32 [%out], %r3;\n\
             // end body\n// ptxdiff-inputs\n{inputs}"
        ))
        .unwrap()
    }

    #[test]
    fn off_is_unchanged_and_calls_nothing() {
        let (p, i) = case();
        let m = stage(&p, &i, None, |_, _| panic!("no predicate call with minimization off"));
        assert_eq!((m.reduced.program, m.reduced.inputs, m.reduced.calls), (p, i, 0));
    }

    #[test]
    fn on_reduces_while_the_predicate_holds() {
        let (p, i) = case();
        // "Still shows": the program still has an `xor`.
        let has_xor =
            |c: &Program, _: &Inputs| c.body.iter().any(|s| oracle::program::text::stmt_line(s).contains("xor"));
        let m = stage(&p, &i, Some(Budget { calls: 500 }), has_xor);
        assert!(has_xor(&m.reduced.program, &m.reduced.inputs));
        assert!(m.reduced.after < p.instruction_count(), "{}", m.reduced.program.module_text());
        assert!(m.reduced.calls > 0 && m.seconds >= 0.0);
    }
}
