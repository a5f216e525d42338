//! `summary.md`: the run's header (title, target, command, start and end dates, environment),
//! findings per class, for a conform run its rows — the (family, backend) totals and one line
//! per row with its inputs, verdict and finding, then what did not run — known findings seen,
//! then each finding with its reproducer command, first mismatches and PTX.
//!
//! Invariants: text in table cells and headings is escaped so it cannot break the table or be
//! read as Markdown or HTML ([`md_text`]); code goes in spans and fences longer than any run of
//! backticks inside it ([`code_span`], [`fence`]), so PTX with backticks or `<script>` stays
//! literal.

use std::fmt::Write as _;

use super::rows::{family_totals, RowStatus, RunRows};
use super::{actual_text, header, inputs_text, size_text, title, SHOWN_MISMATCHES};
use crate::findings::store::FindingsDoc;

/// Escapes Markdown and inline HTML metacharacters and folds newlines, for one table cell or
/// heading.
pub fn md_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#' | '&' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn longest_backtick_run(s: &str) -> usize {
    s.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// An inline code span that shows `s` literally (one line; `|` escaped for tables).
pub fn code_span(s: &str) -> String {
    let s = s.replace(['\n', '\r'], " ").replace('|', "\\|");
    if s.is_empty() {
        return String::new();
    }
    let ticks = "`".repeat(longest_backtick_run(&s) + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') { " " } else { "" };
    format!("{ticks}{pad}{s}{pad}{ticks}")
}

/// A fenced code block showing `s` literally.
pub fn fence(lang: &str, s: &str) -> String {
    let ticks = "`".repeat((longest_backtick_run(s) + 1).max(3));
    let nl = if s.ends_with('\n') { "" } else { "\n" };
    format!("{ticks}{lang}\n{s}{nl}{ticks}\n")
}

/// Renders the summary (with the rows of a conform run when given).
pub fn render(doc: &FindingsDoc, rows: Option<&RunRows>) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# {}\n", md_text(&title(doc)));
    for (k, v) in header(doc) {
        let v = if k == "command" || k == "target" { code_span(&v) } else { md_text(&v) };
        let _ = writeln!(md, "- {}: {v}", md_text(&k));
    }
    let _ = writeln!(
        md,
        "\n{} new finding(s) ({} occurrence(s)); {} known finding(s) seen ({} occurrence(s)).\n",
        doc.findings.len(),
        doc.occurrences(),
        doc.known.len(),
        doc.known_occurrences()
    );
    let _ = writeln!(md, "| class | findings | occurrences |\n| --- | --- | --- |");
    for (c, n, occ) in doc.by_class() {
        let _ = writeln!(md, "| {c} | {n} | {occ} |");
    }
    if let Some(rows) = rows {
        render_rows(&mut md, rows);
    }
    let findings = doc.sorted_findings();
    if !findings.is_empty() {
        let _ = writeln!(
            md,
            "\n## Findings\n\n| id | class | form | input | backends | how | shape | count | first mismatch |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
        );
        for f in &findings {
            let s = &f.signature;
            let first = f
                .mismatches
                .first()
                .map(|m| format!("expected {} got {}", code_span(&m.expected), code_span(&actual_text(m))))
                .or_else(|| f.message.as_ref().map(|m| md_text(&m.chars().take(120).collect::<String>())))
                .unwrap_or_default();
            let _ = writeln!(
                md,
                "| [{id}](#{id}) | {} | {} | {} | {} | {} | {} | {} | {first} |",
                s.class,
                code_span(&s.form),
                md_text(&s.input_class),
                md_text(&s.backends.join(", ")),
                md_text(&s.how),
                code_span(&s.shape),
                f.count,
                id = f.id,
            );
        }
    }
    if !doc.known.is_empty() {
        let _ = writeln!(
            md,
            "\n## Known findings seen\n\n| known | count | reason | evidence |\n| --- | --- | --- | --- |"
        );
        for k in &doc.known {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} |",
                md_text(&k.id),
                k.count,
                md_text(&k.reason),
                md_text(&k.evidence)
            );
        }
    }
    for f in &findings {
        let s = &f.signature;
        let _ = writeln!(md, "\n<a id=\"{}\"></a>\n### {}\n", f.id, md_text(&f.title));
        let _ = writeln!(md, "- id: `{}`, class: {}, count: {}", f.id, s.class, f.count);
        let _ = writeln!(md, "- signature: {}", code_span(&s.to_string()));
        let _ = writeln!(md, "- replay: {}", code_span(&f.replay));
        if let Some(v) = &f.versions {
            let _ = writeln!(md, "- ptxas versions: {}", md_text(v));
        }
        if let Some(src) = &f.source {
            let _ = writeln!(md, "- source: {}", md_text(&src.line()));
        }
        let size = size_text(f);
        if !size.is_empty() {
            let _ = writeln!(md, "- reproducer: {size}, {} thread(s)", f.threads);
        }
        for (k, v) in &f.environment {
            let _ = writeln!(md, "- {}: {}", md_text(k), md_text(v));
        }
        if !f.mismatches.is_empty() {
            let _ = writeln!(md, "\n| thread | word | expected | actual | decoded |\n| --- | --- | --- | --- | --- |");
            for m in f.mismatches.iter().take(SHOWN_MISMATCHES) {
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | {} | {} |",
                    m.thread,
                    m.word,
                    code_span(&m.expected),
                    code_span(&actual_text(m)),
                    md_text(&m.decoded)
                );
            }
            if f.mismatches.len() > SHOWN_MISMATCHES {
                let _ = writeln!(md, "\n… {} more in findings/{}.json", f.mismatches.len() - SHOWN_MISMATCHES, f.id);
            }
        }
        let inputs = inputs_text(f);
        if !inputs.is_empty() {
            let _ = write!(md, "\nInputs:\n\n{}", fence("", &inputs));
        }
        if let Some(m) = &f.message {
            let _ = write!(md, "\nMessage:\n\n{}", fence("", m));
        }
        if !f.ptx.is_empty() {
            let _ = write!(md, "\nPTX:\n\n{}", fence("ptx", &f.ptx));
        }
    }
    md
}

/// The rows of a conform run: totals per family and backend, every row, what did not run.
fn render_rows(md: &mut String, rows: &RunRows) {
    let _ = writeln!(
        md,
        "\n## Rows\n\n{} rows: {} agree, {} fail with known findings only, {} fail with a new finding, {} failed without a finding; {} backend(s) or form(s) not run.\n",
        rows.rows.len(),
        rows.count(RowStatus::Agrees),
        rows.count(RowStatus::Known),
        rows.count(RowStatus::New),
        rows.count(RowStatus::Failed),
        rows.not_run.len()
    );
    let _ = writeln!(
        md,
        "| family | backend | rows | inputs | agree | known | new | failed |\n| --- | --- | --- | --- | --- | --- | --- | --- |"
    );
    for t in family_totals(&rows.rows) {
        let family = if t.family.is_empty() { "**total**".to_string() } else { code_span(&t.family) };
        let _ = writeln!(
            md,
            "| {family} | {} | {} | {} | {} | {} | {} | {} |",
            md_text(&t.backend),
            t.rows,
            t.inputs,
            t.agree,
            t.known,
            t.new,
            t.failed
        );
    }
    let _ = writeln!(
        md,
        "\n| family | form | backend | inputs | verdict | finding |\n| --- | --- | --- | --- | --- | --- |"
    );
    for r in &rows.rows {
        // New findings link to their section below (ids are signature keys: hex digits).
        let mut finding = Vec::new();
        if !r.new.is_empty() {
            let links: Vec<String> = r.new.iter().map(|id| format!("[{0}](#{0})", md_text(id))).collect();
            finding.push(format!("new: {}", links.join(", ")));
        }
        if !r.known.is_empty() {
            finding.push(format!("known: {}", md_text(&r.known.join(", "))));
        }
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} |",
            code_span(&r.family),
            code_span(&r.form),
            md_text(&r.backend),
            r.inputs,
            md_text(&r.verdict),
            finding.join("; ")
        );
    }
    if !rows.not_run.is_empty() {
        let _ = writeln!(md, "\n### Not run\n\n| backend or form | why |\n| --- | --- |");
        for n in &rows.not_run {
            let _ = writeln!(md, "| {} | {} |", code_span(&n.what), md_text(&n.why));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_is_literal_and_cells_cannot_break_tables() {
        assert_eq!(code_span("a`b"), "``a`b``");
        assert_eq!(code_span("`x"), "`` `x ``");
        assert_eq!(code_span("a|b"), "`a\\|b`");
        assert_eq!(md_text("<script>|*x*\nnext"), "\\<script\\>\\|\\*x\\* next");
        let f = fence("ptx", "x ```` y");
        assert!(f.starts_with("`````ptx\n") && f.ends_with("\n`````\n"), "{f}");
    }

    #[test]
    fn the_version_verdict_is_one_escaped_line() {
        use crate::findings::store::RunMeta;
        use crate::findings::{Finding, FindingClass, Signature};
        let sig = Signature::new(FindingClass::Compiler, "cvt.rn.f16.f32", "normal", ["cuda:ptxas-13.0-O3"], "value");
        let mut f = Finding::new(sig, ".version 8.7");
        f.versions = Some("wrong in 13.0 -O3, right in 13.5: fixed in 13.5 <b>|*".into());
        let mut doc = FindingsDoc::new(RunMeta::default());
        doc.findings = vec![f.clone()];
        let md = render(&doc, None);
        let lines: Vec<&str> = md.lines().filter(|l| l.starts_with("- ptxas versions: ")).collect();
        assert_eq!(lines, ["- ptxas versions: wrong in 13.0 -O3, right in 13.5: fixed in 13.5 \\<b\\>\\|\\*"]);
        let html = super::super::html::render(&doc, None);
        assert!(
            html.contains(
                "<p class=\"versions\">ptxas versions: wrong in 13.0 -O3, right in 13.5: fixed in 13.5 &lt;b&gt;|*</p>"
            ),
            "{html}"
        );
        f.versions = None;
        doc.findings = vec![f];
        assert!(!render(&doc, None).contains("ptxas versions"), "no verdict, no line");
    }
}
