//! `junit.xml`. A conform run (rows given): one `<testcase>` per row — passing when it agrees
//! or fails with known findings only (then marked: a `known` property and a `system-out` line
//! naming the `corpus/known/` entries), a `<failure>` with each new finding's details when it
//! fails with a new finding, an `<error>` when it failed without a finding (the environment
//! stopped it) — and one skipped `<testcase>` per backend or form that could not run (no GPU,
//! not modeled), with the reason. A fuzz campaign (no rows): one `<testcase>` per new finding,
//! failing, and one per known finding seen, skipped. CI systems then show new findings as
//! failures and what did not run as skips; the exit status follows the same rule.
//!
//! Invariants: the document is well-formed XML 1.0 whatever the findings contain (every text
//! and attribute goes through [`xml_escape`](super::escape::xml_escape), which also drops characters XML cannot carry);
//! `tests` counts every `<testcase>`, and `failures`, `errors` and `skipped` each equal the
//! number of elements of that kind.

use std::fmt::Write as _;

use super::escape::xml_escape as esc;
use super::rows::{RowStatus, RunRows};
use super::{header, inputs_text, mismatch_line, title, SHOWN_MISMATCHES};
use crate::findings::finding::Finding;
use crate::findings::store::FindingsDoc;

/// The details of a finding as a failure's text: signature, id, count, replay, mismatches,
/// inputs, message and PTX.
fn finding_body(f: &Finding) -> String {
    let s = &f.signature;
    let mut body = format!("{s}\nid: {}\noccurrences: {}\nreplay: {}\n", f.id, f.count, f.replay);
    for m in f.mismatches.iter().take(SHOWN_MISMATCHES) {
        body.push_str(&mismatch_line(m));
        body.push('\n');
    }
    let inputs = inputs_text(f);
    if !inputs.is_empty() {
        let _ = writeln!(body, "inputs:\n{inputs}");
    }
    if let Some(m) = &f.message {
        let _ = writeln!(body, "message:\n{m}");
    }
    let _ = write!(body, "ptx:\n{}", f.ptx);
    body
}

/// Renders the report (one test case per row when `rows` is given).
pub fn render(doc: &FindingsDoc, rows: Option<&RunRows>) -> String {
    let findings = doc.sorted_findings();
    let mut x = String::new();
    let _ = writeln!(x, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let (tests, failures, errors, skipped) = match rows {
        Some(r) => {
            (r.rows.len() + r.not_run.len(), r.count(RowStatus::New), r.count(RowStatus::Failed), r.not_run.len())
        }
        None => (findings.len() + doc.known.len(), findings.len(), 0, doc.known.len()),
    };
    let _ = writeln!(
        x,
        r#"<testsuite name="{}" tests="{tests}" failures="{failures}" errors="{errors}" skipped="{skipped}">"#,
        esc(&title(doc)),
    );
    let props = header(doc);
    if !props.is_empty() {
        let _ = writeln!(x, "  <properties>");
        for (k, v) in props {
            let _ = writeln!(x, r#"    <property name="{}" value="{}"/>"#, esc(&k), esc(&v));
        }
        let _ = writeln!(x, "  </properties>");
    }
    match rows {
        Some(rows) => render_rows(&mut x, doc, rows),
        None => render_findings(&mut x, doc),
    }
    let _ = writeln!(x, "</testsuite>");
    x
}

/// A conform run: a test case per row, a skipped one per backend or form not run.
fn render_rows(x: &mut String, doc: &FindingsDoc, rows: &RunRows) {
    for r in &rows.rows {
        let _ = write!(
            x,
            "  <testcase classname=\"{}\" name=\"{} {}\" time=\"{:.3}\"",
            esc(&r.family),
            esc(&r.form),
            esc(&r.backend),
            r.seconds.max(0.0)
        );
        match r.status {
            RowStatus::Agrees => {
                let _ = writeln!(x, "/>");
            }
            RowStatus::Known => {
                let names = r.known.join(", ");
                let _ = writeln!(
                    x,
                    ">\n    <properties>\n      <property name=\"known\" value=\"{n}\"/>\n    </properties>\n    <system-out>known finding ({n}), not a new failure: {}</system-out>\n  </testcase>",
                    esc(&r.verdict),
                    n = esc(&names),
                );
            }
            RowStatus::New => {
                let new: Vec<&Finding> =
                    r.new.iter().filter_map(|id| doc.findings.iter().find(|f| &f.id == id)).collect();
                let class = new.first().map_or("finding", |f| f.signature.class.name());
                let mut body: Vec<String> = new.iter().map(|f| finding_body(f)).collect();
                if !r.known.is_empty() {
                    body.push(format!("also known findings: {}", r.known.join(", ")));
                }
                let _ = writeln!(
                    x,
                    ">\n    <failure message=\"new finding {}: {}\" type=\"{}\">{}</failure>\n  </testcase>",
                    esc(&r.new.join(", ")),
                    esc(&r.verdict),
                    esc(class),
                    esc(&body.join("\n\n"))
                );
            }
            RowStatus::Failed => {
                let _ = writeln!(
                    x,
                    ">\n    <error message=\"{}\" type=\"environment\">the row could not run to the end; it says nothing about the form</error>\n  </testcase>",
                    esc(&r.verdict)
                );
            }
        }
    }
    for n in &rows.not_run {
        let _ = writeln!(
            x,
            "  <testcase classname=\"not run\" name=\"{}\">\n    <skipped message=\"not run: {}\"/>\n  </testcase>",
            esc(&n.what),
            esc(&n.why)
        );
    }
}

/// A fuzz campaign: a failing test case per new finding, a skipped one per known finding seen.
fn render_findings(x: &mut String, doc: &FindingsDoc) {
    for f in doc.sorted_findings() {
        let s = &f.signature;
        let _ = writeln!(
            x,
            "  <testcase classname=\"{}\" name=\"{} {}\">\n    <failure message=\"{}\" type=\"{}\">{}</failure>\n  </testcase>",
            esc(s.class.name()),
            esc(&f.id),
            esc(&s.form),
            esc(&f.title),
            esc(s.class.name()),
            esc(&finding_body(f))
        );
    }
    for k in &doc.known {
        let _ = writeln!(
            x,
            "  <testcase classname=\"known\" name=\"{}\">\n    <skipped message=\"known ({} occurrence(s)): {}\"/>\n  </testcase>",
            esc(&k.id),
            k.count,
            esc(&k.reason)
        );
    }
}
