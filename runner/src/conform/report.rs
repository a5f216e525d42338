//! Conformance reports: `report.json` (canonical), `summary.md` and `junit.xml` under
//! `reports/<run-id>/`, each written with [`write_atomic`] (temporary file, fsync, rename), so a
//! report on disk is always whole.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::check::Mismatch;
use crate::atomic::{write_atomic, xml_escape};

/// One (form, backend) row.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Row {
    /// Opcode.
    pub form: String,
    /// Backend name.
    pub backend: String,
    /// Inputs checked.
    pub checked: u64,
    /// Inputs whose result the oracle does not admit.
    pub mismatches: u64,
    /// First mismatches.
    pub examples: Vec<Mismatch>,
    /// A crash, hang, fault or assembler rejection, if any.
    pub failure: Option<String>,
    /// Wall seconds.
    pub seconds: f64,
}

/// A whole run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// Run id (directory name).
    pub run_id: String,
    /// Target.
    pub target: String,
    /// Device, driver and tool versions, or why the GPU was unavailable.
    pub environment: Vec<(String, String)>,
    /// Rows.
    pub rows: Vec<Row>,
    /// Total wall seconds.
    pub seconds: f64,
}

impl Report {
    /// Rows with mismatches or failures.
    pub fn failing(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(|r| r.mismatches > 0 || r.failure.is_some())
    }
}

/// Writes the three report files under `dir/run_id/`; returns that directory.
pub fn write(dir: &Path, report: &Report) -> std::io::Result<PathBuf> {
    let out = dir.join(&report.run_id);
    std::fs::create_dir_all(&out)?;
    write_atomic(&out.join("report.json"), serde_json::to_string_pretty(report)?)?;
    let mut md = String::new();
    let _ = writeln!(md, "# ptxdiff conform {} ({})\n", report.run_id, report.target);
    for (k, v) in &report.environment {
        let _ = writeln!(md, "- {k}: {v}");
    }
    let total: u64 = report.rows.iter().map(|r| r.checked).sum();
    let bad = report.failing().count();
    let _ =
        writeln!(md, "\n{} rows, {total} inputs checked, {bad} failing, {:.1} s\n", report.rows.len(), report.seconds);
    let _ =
        writeln!(md, "| form | backend | inputs | mismatches | first mismatch | seconds |\n|---|---|---|---|---|---|");
    for r in &report.rows {
        let first = match (&r.failure, r.examples.first()) {
            (Some(f), _) => f.replace('|', "\\|").replace('\n', " "),
            (None, Some(m)) => format!("{:?} → expected {} got {}", m.inputs, m.expected, m.actual).replace('|', "\\|"),
            _ => String::new(),
        };
        let _ = writeln!(
            md,
            "| `{}` | {} | {} | {} | {} | {:.2} |",
            r.form, r.backend, r.checked, r.mismatches, first, r.seconds
        );
    }
    write_atomic(&out.join("summary.md"), &md)?;
    let mut x = String::new();
    let _ = writeln!(x, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        x,
        r#"<testsuite name="ptxdiff conform {}" tests="{}" failures="{bad}" time="{:.3}">"#,
        xml_escape(&report.target),
        report.rows.len(),
        report.seconds
    );
    for r in &report.rows {
        let _ = write!(
            x,
            r#"  <testcase classname="{}" name="{}" time="{:.3}""#,
            xml_escape(&r.backend),
            xml_escape(&r.form),
            r.seconds
        );
        if r.mismatches > 0 || r.failure.is_some() {
            let msg = r.failure.clone().unwrap_or_else(|| format!("{} mismatches", r.mismatches));
            let detail: Vec<String> = r
                .examples
                .iter()
                .map(|m| format!("{:?}: expected {} got {}", m.inputs, m.expected, m.actual))
                .collect();
            let _ = writeln!(
                x,
                ">\n    <failure message=\"{}\">{}</failure>\n  </testcase>",
                xml_escape(&msg),
                xml_escape(&detail.join("\n"))
            );
        } else {
            let _ = writeln!(x, "/>");
        }
    }
    let _ = writeln!(x, "</testsuite>");
    write_atomic(&out.join("junit.xml"), &x)?;
    Ok(out)
}
