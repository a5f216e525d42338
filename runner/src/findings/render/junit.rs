//! `junit.xml`: one `<testcase>` per new finding, failing, and one per known finding seen,
//! skipped; CI systems then show new findings as failures and known ones as skips.
//!
//! Invariants: the document is well-formed XML 1.0 whatever the findings contain (every text
//! and attribute goes through [`xml_escape`], which also drops characters XML cannot carry);
//! `tests = failures + skipped`, each equal to the number of elements of that kind.

use std::fmt::Write as _;

use super::escape::xml_escape as esc;
use super::{inputs_text, mismatch_line, SHOWN_MISMATCHES};
use crate::findings::store::FindingsDoc;

/// Renders the report.
pub fn render(doc: &FindingsDoc) -> String {
    let run = &doc.run;
    let findings = doc.sorted_findings();
    let mut x = String::new();
    let _ = writeln!(x, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        x,
        r#"<testsuite name="ptxdiff findings {}" tests="{}" failures="{}" errors="0" skipped="{}">"#,
        esc(&run.run_id),
        findings.len() + doc.known.len(),
        findings.len(),
        doc.known.len()
    );
    let props: Vec<(&str, &str)> = [("target", run.target.as_str()), ("command", run.command.as_str())]
        .into_iter()
        .chain(run.environment.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .chain(run.extra.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .filter(|(_, v)| !v.is_empty())
        .collect();
    if !props.is_empty() {
        let _ = writeln!(x, "  <properties>");
        for (k, v) in props {
            let _ = writeln!(x, r#"    <property name="{}" value="{}"/>"#, esc(k), esc(v));
        }
        let _ = writeln!(x, "  </properties>");
    }
    for f in &findings {
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
        let _ = writeln!(
            x,
            "  <testcase classname=\"{}\" name=\"{} {}\">\n    <failure message=\"{}\" type=\"{}\">{}</failure>\n  </testcase>",
            esc(s.class.name()),
            esc(&f.id),
            esc(&s.form),
            esc(&f.title),
            esc(s.class.name()),
            esc(&body)
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
    let _ = writeln!(x, "</testsuite>");
    x
}
