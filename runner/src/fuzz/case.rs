//! The kinds of case the runner fuzzes, behind one interface ([`CaseKind`]): register programs
//! ([`Register`]: words in, words out; implemented in [`super::package`]) and memory programs
//! ([`Memory`]: buffers in, bytes out; implemented in [`super::memory_case`]).
//!
//! Each kind says here, once, the steps that turn a program's results into findings and a
//! finding into a file: the raw findings of one program's results (each a symptom — what
//! differs, crashed or was rejected — with the backends that show it), a raw finding's kind
//! (its pre-signature: what minimization keeps and triage de-duplicates by), its signature as
//! it stands (what triage checks against `corpus/known/` before minimizing), a line that
//! describes it to a person, and how a case is written to its case file and read back. The
//! campaigns (`fuzz`, `fuzz --async`), the minimization threads ([`super::minimize::Case`]),
//! triage ([`super::triage`]), `replay`, `minimize` and retriage call these, never a kind's own
//! functions. Generating, running on the oracle and on the backends stay each kind's own
//! machinery (register programs: [`super::engine::Engine`]; memory programs:
//! [`crate::memrun`]), as do the reducers.
//!
//! Invariants: a case file read ([`CaseKind::read_case`]) and written again
//! ([`CaseKind::write_case`]) is the same text (a register case reads back as the case
//! written; a memory case's line lists its buffers in an order of its own); the pre-signature
//! of a raw finding depends only on the raw finding.

use oracle::semantics::Allowances;

use crate::findings::Signature;

/// One kind of case (see the module docs). Implemented by marker types ([`Register`],
/// [`Memory`]); every method is an associated function of the kind.
pub trait CaseKind {
    /// The program raw findings are read off.
    type Program;
    /// What a case file holds: the program with its inputs.
    type Case;
    /// What running one program gave: the oracle's answer and each backend's.
    type Result;
    /// One raw finding: a symptom and the backends that show it.
    type Raw;

    /// The raw findings in `result`, the results of `program`: one per symptom, with every
    /// backend that shows it (`allow`: the allowances of unknown bits, where the kind needs
    /// them to tell a difference).
    fn raw_findings(program: &Self::Program, result: &Self::Result, allow: &Allowances) -> Vec<Self::Raw>;

    /// What must stay the same while minimizing, and de-duplicates before minimizing: class,
    /// backends, symptom, and what the kind adds (the form a finding names, the emulations or
    /// known deviation that explain it).
    fn pre_signature(raw: &Self::Raw) -> String;

    /// The signature of `raw` in `program` as it stands, without running anything (a register
    /// program's input class needs a run of the oracle and is left empty).
    fn quick_signature(raw: &Self::Raw, program: &Self::Program) -> Signature;

    /// What a person reads of `raw` (`ptxdiff replay`): a line with class, backends and
    /// symptom, then indented lines with the first lines of its message and what differs.
    fn describe(raw: &Self::Raw) -> String;

    /// The text of `case`'s case file.
    fn write_case(case: &Self::Case) -> String;

    /// The case in case-file text `text`; `Err` says why it is not one.
    fn read_case(text: &str) -> Result<Self::Case, String>;
}

/// Register programs: a [`oracle::program::Program`] with its
/// [`oracle::program::Inputs`], run by [`super::engine::Engine`]; the case file is the PTX module
/// with a `// ptxdiff-program` header ([`oracle::program::text`]).
#[derive(Clone, Copy, Debug)]
pub struct Register;

/// Memory programs: an [`oracle::memprog::MemSource`], run by [`crate::memrun`]; the case file
/// is its `ptxdiff eval` program line ([`crate::program_line`]).
#[derive(Clone, Copy, Debug)]
pub struct Memory;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::FindingClass;
    use crate::fuzz::memory_case::MemResult;
    use crate::memrun::{oracle_read, GpuResult};

    /// A case file of either kind reads back as the case written (a memory case: one that
    /// writes the same line); text of the other kind is an error that says so.
    #[test]
    fn a_case_file_of_either_kind_reads_back_as_written() {
        let target: oracle::isa::Target = "sm_90".parse().unwrap();
        for seed in 0..8 {
            let case = generator::program::generate_seeded(seed, &Default::default(), &target, "p");
            assert_eq!(Register::read_case(&Register::write_case(&case)).as_ref(), Ok(&case), "register seed {seed}");
            let src = generator::async_programs::generate_seeded(seed, &Default::default(), &target);
            let text = Memory::write_case(&src);
            assert!(text.ends_with('\n') && text.lines().count() == 1, "{text}");
            // The line names buffers in its own order: what reads back writes the same line.
            let read = Memory::read_case(&text).unwrap_or_else(|e| panic!("memory seed {seed}: {e}"));
            assert_eq!(Memory::write_case(&read), text, "memory seed {seed}");
            assert_eq!(read.statements, src.statements);
            assert!(Register::read_case(&text).is_err());
            assert!(Memory::read_case(&Register::write_case(&case)).unwrap_err().contains("program line"));
        }
    }

    /// A memory program's raw findings: one per symptom with every backend that shows it; bytes
    /// that differ on some of the backends that ran only are a compiler finding, on all of them a
    /// hardware-spec one; the kind and the description name class, backends and symptom.
    #[test]
    fn a_memory_programs_raw_findings_group_the_backends_by_symptom() {
        let src = generator::async_programs::generate_seeded(3, &Default::default(), &"sm_90".parse().unwrap());
        let allow = Allowances::all();
        let program = src.build().unwrap();
        let expected = oracle_read(&program, &allow).unwrap();
        let right: Vec<Vec<u8>> = expected.iter().map(|r| r.known_or(0x5a)).collect();
        let other: Vec<Vec<u8>> = expected.iter().map(|r| r.known_or(0xa5)).collect();
        let at = (0..right[0].len()).find(|&i| right[0][i] == other[0][i]).expect("a known byte");
        let mut wrong = right.clone();
        wrong[0][at] ^= 1;
        let result = |observed: Vec<(&str, &Vec<Vec<u8>>)>| MemResult {
            program: program.clone(),
            expected: expected.clone(),
            observed: observed.into_iter().map(|(n, b)| (n.to_string(), GpuResult::Bytes(b.clone()))).collect(),
        };
        let some = Memory::raw_findings(&src, &result(vec![("cuda:a", &wrong), ("cuda:b", &right)]), &allow);
        assert_eq!(some.len(), 1);
        assert_eq!(
            (some[0].symptom.class, some[0].backends.as_slice()),
            (FindingClass::Compiler, &["cuda:a".into()][..])
        );
        let all = Memory::raw_findings(&src, &result(vec![("cuda:a", &wrong), ("cuda:b", &wrong)]), &allow);
        assert_eq!(all.len(), 1);
        assert_eq!(Memory::pre_signature(&all[0]), "hardware-spec|cuda:a,cuda:b|bytes-differ|");
        let buffer = &src.read[0];
        let text = Memory::describe(&all[0]);
        let first = text.lines().next().unwrap_or_default();
        assert_eq!(first, format!("hardware-spec [cuda:a,cuda:b] bytes-differ in `{buffer}`"), "{text}");
        assert!(text.contains(&format!("  {buffer} byte {at}: expected ")), "{text}");
        assert_eq!(Memory::quick_signature(&all[0], &src).backends, vec!["cuda:a", "cuda:b"]);
        assert!(Memory::raw_findings(&src, &result(vec![("cuda:a", &right)]), &allow).is_empty());
    }
}
