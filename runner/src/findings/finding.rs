//! One finding: a signature plus everything needed to see the bug again without ptxdiff's
//! generator (the minimized PTX module, its inputs, expected and actual words, the
//! environment, and a one-line replay command).
//!
//! Invariants:
//! - `id == signature.key()` for every finding the store holds (the store enforces it).
//! - The PTX is a whole module as text; nothing here depends on the generator's AST, so a
//!   finding stays readable after the generator changes.

use serde::{Deserialize, Serialize};

use super::signature::Signature;
pub use crate::diff::program::WordMismatch;

/// A de-duplicated, minimized finding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// `signature.key()`.
    pub id: String,
    /// What de-duplicates it.
    pub signature: Signature,
    /// One-line title.
    pub title: String,
    /// The minimized reproducer: a whole PTX module.
    pub ptx: String,
    /// Instructions in the program as generated.
    pub original_instructions: u32,
    /// Instructions in the minimized reproducer.
    pub minimized_instructions: u32,
    /// Per-thread input words, flattened (thread-major).
    pub inputs: Vec<u32>,
    /// Threads launched.
    pub threads: u32,
    /// The first few mismatching words.
    pub mismatches: Vec<WordMismatch>,
    /// Crash or rejection log excerpt.
    pub message: Option<String>,
    /// Device, driver, ptxas version, flags.
    pub environment: Vec<(String, String)>,
    /// One-line command that replays it (`ptxdiff replay reports/RUN/cases/ID.case`).
    pub replay: String,
    /// Occurrences in this run.
    pub count: u64,
    /// Seconds since the start of the run when it was first seen (a campaign's: over all its
    /// sessions).
    pub first_seen_s: f64,
    /// Which ptxas versions get it right and which wrong, in one line
    /// ([`super::versions::verdict`]); `None` where no ptxas took part or none is wrong.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versions: Option<String>,
    /// Whether the program showed the finding again when minimization ran it alone (`None`:
    /// not minimized). `Some(false)` marks a finding seen only inside its batch: it is stored
    /// as generated, and may depend on its neighbours or not be deterministic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproduced: Option<bool>,
    /// Where the program came from (fresh generation or a mutant of a corpus entry); `None`
    /// for findings of other commands and of builds before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
}

/// Where a campaign's program came from (issue 29 item 4): generated fresh, or a mutant of a
/// program of the campaign's coverage corpus ([`crate::fuzz::corpus`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Source {
    /// Generated fresh from its seed.
    Fresh {
        /// The swarm switches (families and knobs) that were on in it (every switch of the
        /// configuration without the swarm).
        switches: Vec<String>,
    },
    /// One edit of a corpus program.
    Mutation {
        /// The corpus entry mutated (its program's name as it was generated, `p12_34`).
        parent: String,
        /// The edit ([`generator::mutate::Mutant::what`]).
        mutation: String,
    },
}

impl Source {
    /// `fresh` or `mutation`.
    pub fn kind(&self) -> &'static str {
        match self {
            Source::Fresh { .. } => "fresh",
            Source::Mutation { .. } => "mutation",
        }
    }

    /// One line for a person: `fresh (switches: cvt, glue_bits)`, `mutation of p3_7: delete 4: …`.
    pub fn line(&self) -> String {
        match self {
            Source::Fresh { switches } => format!("fresh (switches: {})", switches.join(", ")),
            Source::Mutation { parent, mutation } => format!("mutation of {parent}: {mutation}"),
        }
    }
}

impl Finding {
    /// A finding with `id` set from the signature, the signature as title, one occurrence, and
    /// every other field empty; callers fill in the rest.
    pub fn new(signature: Signature, ptx: impl Into<String>) -> Finding {
        Finding {
            id: signature.key(),
            title: signature.to_string(),
            signature,
            ptx: ptx.into(),
            original_instructions: 0,
            minimized_instructions: 0,
            inputs: Vec::new(),
            threads: 0,
            mismatches: Vec::new(),
            message: None,
            environment: Vec::new(),
            replay: String::new(),
            count: 1,
            first_seen_s: 0.0,
            versions: None,
            reproduced: None,
            source: None,
        }
    }

    /// Words of input per thread (`inputs.len() / threads`, 0 when there are no threads).
    pub fn words_per_thread(&self) -> usize {
        if self.threads == 0 {
            0
        } else {
            self.inputs.len() / self.threads as usize
        }
    }

    /// The input words of one thread.
    pub fn thread_inputs(&self, thread: u32) -> &[u32] {
        let n = self.words_per_thread();
        let start = thread as usize * n;
        self.inputs.get(start..start + n).unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::super::signature::FindingClass;
    use super::*;

    #[test]
    fn new_sets_id_and_thread_inputs_slice() {
        let s = Signature::new(FindingClass::Compiler, "prmt.b32", "normal", ["cuda:ptxas-O3"], "bits");
        let mut f = Finding::new(s.clone(), ".version 8.7");
        assert_eq!(f.id, s.key());
        assert_eq!(f.count, 1);
        f.threads = 2;
        f.inputs = vec![1, 2, 3, 4, 5, 6];
        assert_eq!(f.words_per_thread(), 3);
        assert_eq!(f.thread_inputs(1), &[4, 5, 6]);
        assert_eq!(f.thread_inputs(2), &[] as &[u32]);
        let back: Finding = serde_json::from_str(&serde_json::to_string(&f).unwrap()).unwrap();
        assert_eq!(back, f);
    }
}
