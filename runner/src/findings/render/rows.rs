//! A conform run's rows as the reports show them ([`RunRows`]): one [`RowLine`] per (form,
//! backend) row with its family, inputs, verdict in words and [`RowStatus`] — agrees, fails
//! with known findings only, fails with a new finding, or failed without a finding (the machine
//! stopped it) — and what could not run at all ([`NotRun`]: a backend without its GPU, a form
//! the oracle does not model). The conform layer builds them from its rows and the run's
//! findings; `summary.md`, `index.html`, `junit.xml` and the terminal summary render them.
//!
//! Invariant: [`family_totals`] partitions the rows: every row is counted in exactly one
//! (family, backend) line and, there, in exactly one status column, so the lines add up to the
//! run's rows.

/// How a row stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowStatus {
    /// Every input's result is one the oracle admits.
    Agrees,
    /// It fails, and every finding it is part of is a known one (`corpus/known/`).
    Known,
    /// It fails with a finding that no known entry covers.
    New,
    /// It fails without a finding: the environment stopped it (a worker that could not be
    /// restarted, a full disk), so it says nothing about the form.
    Failed,
}

impl RowStatus {
    /// `agree`, `known`, `new` or `failed`.
    pub fn name(self) -> &'static str {
        match self {
            RowStatus::Agrees => "agree",
            RowStatus::Known => "known",
            RowStatus::New => "new",
            RowStatus::Failed => "failed",
        }
    }
}

/// One row as the reports show it.
#[derive(Clone, Debug, PartialEq)]
pub struct RowLine {
    /// Its family (`cvt`, `cp.async.bulk.tensor`, `tensormap.replace`, …).
    pub family: String,
    /// Opcode.
    pub form: String,
    /// Backend.
    pub backend: String,
    /// Inputs checked (asynchronous rows: cases).
    pub inputs: u64,
    /// Wall seconds.
    pub seconds: f64,
    /// The verdict in words: `agree`, `N of M mismatching`, or the failure's first line.
    pub verdict: String,
    /// How it stands.
    pub status: RowStatus,
    /// Ids of the new findings it is part of.
    pub new: Vec<String>,
    /// Names of the `corpus/known/` entries that cover its findings.
    pub known: Vec<String>,
}

/// Something a run could not run at all, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotRun {
    /// A backend (`cuda:ptxas-O3`) or a form.
    pub what: String,
    /// Why.
    pub why: String,
}

/// A conform run's rows and what it could not run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunRows {
    /// Every row, in the run's order.
    pub rows: Vec<RowLine>,
    /// Backends and forms that did not run.
    pub not_run: Vec<NotRun>,
}

impl RunRows {
    /// Rows of `status`.
    pub fn with(&self, status: RowStatus) -> impl Iterator<Item = &RowLine> {
        self.rows.iter().filter(move |r| r.status == status)
    }

    /// Rows of `status`, counted.
    pub fn count(&self, status: RowStatus) -> usize {
        self.with(status).count()
    }
}

/// The rows of one family on one backend, by status.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FamilyTotal {
    /// Family (empty: the total over every family).
    pub family: String,
    /// Backend (empty in the total).
    pub backend: String,
    /// Rows.
    pub rows: usize,
    /// Inputs (cases) checked.
    pub inputs: u64,
    /// Rows that agree.
    pub agree: usize,
    /// Rows failing with known findings only.
    pub known: usize,
    /// Rows failing with a new finding.
    pub new: usize,
    /// Rows failed without a finding.
    pub failed: usize,
}

impl FamilyTotal {
    fn add(&mut self, r: &RowLine) {
        self.rows += 1;
        self.inputs = self.inputs.saturating_add(r.inputs);
        match r.status {
            RowStatus::Agrees => self.agree += 1,
            RowStatus::Known => self.known += 1,
            RowStatus::New => self.new += 1,
            RowStatus::Failed => self.failed += 1,
        }
    }
}

/// One line per (family, backend) that has rows — families in the order they first appear,
/// each family's backends likewise — then the total (family and backend empty).
pub fn family_totals(rows: &[RowLine]) -> Vec<FamilyTotal> {
    let mut families: Vec<&str> = Vec::new();
    let mut backends: Vec<&str> = Vec::new();
    for r in rows {
        if !families.contains(&r.family.as_str()) {
            families.push(&r.family);
        }
        if !backends.contains(&r.backend.as_str()) {
            backends.push(&r.backend);
        }
    }
    let mut out = Vec::new();
    let mut total = FamilyTotal::default();
    for family in &families {
        for backend in &backends {
            let mut t =
                FamilyTotal { family: family.to_string(), backend: backend.to_string(), ..FamilyTotal::default() };
            for r in rows.iter().filter(|r| r.family == *family && r.backend == *backend) {
                t.add(r);
                total.add(r);
            }
            if t.rows > 0 {
                out.push(t);
            }
        }
    }
    out.push(total);
    out
}

/// What a row's finding column says: `new: ID, …`, `known: NAME, …`, both, or nothing.
pub fn findings_text(r: &RowLine) -> String {
    let mut parts = Vec::new();
    if !r.new.is_empty() {
        parts.push(format!("new: {}", r.new.join(", ")));
    }
    if !r.known.is_empty() {
        parts.push(format!("known: {}", r.known.join(", ")));
    }
    parts.join("; ")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A row of `status` (known: `cvt-rna-tf32-nan`; new: `abc`).
    pub(crate) fn line(family: &str, form: &str, backend: &str, status: RowStatus) -> RowLine {
        RowLine {
            family: family.into(),
            form: form.into(),
            backend: backend.into(),
            inputs: 10,
            seconds: 0.5,
            verdict: if status == RowStatus::Agrees { "agree".into() } else { "2 of 10 mismatching".into() },
            status,
            new: if status == RowStatus::New { vec!["abc".into()] } else { vec![] },
            known: if status == RowStatus::Known { vec!["cvt-rna-tf32-nan".into()] } else { vec![] },
        }
    }

    /// The run without a GPU: rows grouped by backend, and the tensormap.replace rows too.
    pub(crate) fn rows() -> RunRows {
        RunRows {
            rows: vec![
                line("cvt", "cvt.rn.f16.f32", "ptxas-check-O0", RowStatus::Agrees),
                line("prmt", "prmt.b32", "ptxas-check-O0", RowStatus::Failed),
                line("cvt", "cvt.rn.f16.f32", "oracle", RowStatus::Agrees),
                line("cvt", "cvt.rna.tf32.f32", "oracle", RowStatus::Known),
                line("prmt", "prmt.b32", "oracle", RowStatus::New),
                line("tensormap.replace", "tensormap.replace.tile.global_address", "oracle", RowStatus::Agrees),
            ],
            not_run: vec![NotRun { what: "cuda:ptxas-O3".into(), why: "GPU backend unavailable: no driver".into() }],
        }
    }

    #[test]
    fn family_totals_add_up_to_the_rows() {
        let r = rows();
        let t = family_totals(&r.rows);
        let key: Vec<(&str, &str, usize)> = t.iter().map(|t| (t.family.as_str(), t.backend.as_str(), t.rows)).collect();
        assert_eq!(
            key,
            [
                ("cvt", "ptxas-check-O0", 1),
                ("cvt", "oracle", 2),
                ("prmt", "ptxas-check-O0", 1),
                ("prmt", "oracle", 1),
                ("tensormap.replace", "oracle", 1),
                ("", "", 6)
            ]
        );
        let total = t.last().unwrap();
        assert_eq!((total.agree, total.known, total.new, total.failed, total.inputs), (3, 1, 1, 1, 60));
        let lines = &t[..t.len() - 1];
        assert_eq!(lines.iter().map(|l| l.rows).sum::<usize>(), r.rows.len());
        assert!(lines.iter().all(|l| l.agree + l.known + l.new + l.failed == l.rows));
        assert_eq!(findings_text(&r.rows[3]), "known: cvt-rna-tf32-nan");
        assert_eq!(findings_text(&r.rows[4]), "new: abc");
        assert_eq!(findings_text(&r.rows[0]), "");
    }
}
