//! `index.html`: one self-contained page (inline CSS, a few lines of inline JS, no external
//! assets or links that load anything): the run's header (title, start and end dates,
//! environment), counts per class, for a conform run its rows (totals per family and backend,
//! one line per row with its verdict and finding, what did not run), a table of findings with
//! expected and actual values decoded, class filters, and each finding's PTX, inputs and log in
//! collapsible `<details><pre>`.
//!
//! Invariants: every piece of text from the document goes through [`html_escape`](super::escape::html_escape) (element
//! text and attribute values alike), including run metadata and known-finding links, which
//! are shown as text and never turned into `href`s; the only `<script>` element is the fixed
//! filter code, which reads no document data; ids and classes used in attributes are escaped
//! too.

use std::fmt::Write as _;

use super::escape::html_escape as esc;
use super::rows::{family_totals, findings_text, RunRows};
use super::{header, inputs_text, size_text, title, SHOWN_MISMATCHES};
use crate::findings::signature::FindingClass;
use crate::findings::store::FindingsDoc;

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}\
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}\
th{background:#f3f3f3}code,pre{font:12px/1.35 ui-monospace,monospace}pre{background:#f7f7f7;padding:.6em;overflow:auto;max-height:40em}\
.crash{color:#a00}.compiler{color:#a50}.hardware-spec{color:#05a}.assembler-rejection{color:#607}\
section.finding{border-top:1px solid #ddd;margin-top:1.5em}#filters label{margin-right:1em}\
tr.new td{color:#a00}tr.failed td{color:#a50}tr.known td{color:#666}";

/// Hides rows and sections whose `data-class` is unchecked. Reads only the checkboxes.
const SCRIPT: &str =
    "document.querySelectorAll('#filters input').forEach(function(cb){cb.addEventListener('change',function(){\
var on={};document.querySelectorAll('#filters input').forEach(function(c){on[c.value]=c.checked;});\
document.querySelectorAll('[data-class]').forEach(function(e){e.hidden=!on[e.getAttribute('data-class')];});});});";

fn details(out: &mut String, summary: &str, body: &str, open: bool) {
    let _ = writeln!(
        out,
        "<details{}><summary>{}</summary><pre>{}</pre></details>",
        if open { " open" } else { "" },
        esc(summary),
        esc(body)
    );
}

/// Renders the page (with the rows of a conform run when given).
pub fn render(doc: &FindingsDoc, rows: Option<&RunRows>) -> String {
    let mut h = String::new();
    let title = esc(&title(doc));
    let _ = writeln!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>"
    );
    let _ = writeln!(h, "<h1>{title}</h1>");
    let _ = writeln!(h, "<table id=\"run\">");
    for (k, v) in header(doc) {
        let _ = writeln!(h, "<tr><th>{}</th><td>{}</td></tr>", esc(&k), esc(&v));
    }
    let _ = writeln!(h, "</table>");
    let _ = writeln!(
        h,
        "<p>{} new finding(s), {} occurrence(s); {} known finding(s) seen, {} occurrence(s).</p>",
        doc.findings.len(),
        doc.occurrences(),
        doc.known.len(),
        doc.known_occurrences()
    );
    let _ = writeln!(h, "<div id=\"filters\">Show:");
    for (c, n, occ) in doc.by_class() {
        let _ = writeln!(
            h,
            "<label class=\"{c}\"><input type=\"checkbox\" value=\"{c}\" checked> {c} ({n} finding(s), {occ} occurrence(s))</label>"
        );
    }
    let _ = writeln!(h, "</div>");

    if let Some(rows) = rows {
        render_rows(&mut h, rows);
    }
    let findings = doc.sorted_findings();
    let _ = writeln!(
        h,
        "<table id=\"findings\">\n<thead><tr><th>id</th><th>class</th><th>form</th><th>input</th><th>backends</th><th>how</th><th>shape</th><th>count</th><th>expected</th><th>actual</th><th>decoded</th></tr></thead>\n<tbody>"
    );
    for f in &findings {
        let s = &f.signature;
        let m = f.mismatches.first();
        let (expected, actual, decoded) = match m {
            Some(m) => (
                m.expected.clone(),
                m.actual.iter().map(|(b, v)| format!("{b}: {v}")).collect::<Vec<_>>().join("\n"),
                m.decoded.clone(),
            ),
            None => {
                (String::new(), String::new(), f.message.as_deref().unwrap_or("").lines().next().unwrap_or("").into())
            }
        };
        let _ = writeln!(
            h,
            "<tr data-class=\"{c}\"><td><a href=\"#f-{id}\"><code>{id}</code></a></td><td class=\"{c}\">{c}</td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td><td><code>{}</code></td><td><pre>{}</pre></td><td>{}</td></tr>",
            esc(&s.form),
            esc(&s.input_class),
            esc(&s.backends.join(", ")),
            esc(&s.how),
            esc(&s.shape),
            f.count,
            esc(&expected),
            esc(&actual),
            esc(&decoded),
            c = esc(s.class.name()),
            id = esc(&f.id),
        );
    }
    let _ = writeln!(h, "</tbody>\n</table>");

    if !doc.known.is_empty() {
        let _ = writeln!(
            h,
            "<h2>Known findings seen</h2>\n<table id=\"known\">\n<tr><th>known</th><th>count</th><th>reason</th><th>evidence</th><th>signatures</th></tr>"
        );
        for k in &doc.known {
            let mut evidence = esc(&k.evidence);
            if let Some(l) = &k.link {
                let _ = write!(evidence, "<br><code>{}</code>", esc(l));
            }
            let sigs: Vec<String> = k.signatures.iter().map(|(s, n)| format!("{n}× {s}")).collect();
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{evidence}</td><td><pre>{}</pre></td></tr>",
                esc(&k.id),
                k.count,
                esc(&k.reason),
                esc(&sigs.join("\n"))
            );
        }
        let _ = writeln!(h, "</table>");
    }

    for f in &findings {
        let s = &f.signature;
        let _ = writeln!(
            h,
            "<section class=\"finding\" id=\"f-{}\" data-class=\"{}\">\n<h2 class=\"{1}\">{}</h2>",
            esc(&f.id),
            esc(s.class.name()),
            esc(&f.title)
        );
        let _ = writeln!(
            h,
            "<p><code>{}</code> · {} · count {} · first seen at {:.1} s</p>\n<p>signature: <code>{}</code></p>\n<p>replay: <code>{}</code></p>",
            esc(&f.id),
            esc(s.class.name()),
            f.count,
            f.first_seen_s,
            esc(&s.to_string()),
            esc(&f.replay)
        );
        if let Some(v) = &f.versions {
            let _ = writeln!(h, "<p class=\"versions\">ptxas versions: {}</p>", esc(v));
        }
        if let Some(src) = &f.source {
            let _ = writeln!(h, "<p class=\"source\">source: {}</p>", esc(&src.line()));
        }
        let size = size_text(f);
        if !size.is_empty() {
            let _ = writeln!(h, "<p>reproducer: {}, {} thread(s)</p>", esc(&size), f.threads);
        }
        if !f.environment.is_empty() {
            let _ = writeln!(h, "<table class=\"env\">");
            for (k, v) in &f.environment {
                let _ = writeln!(h, "<tr><th>{}</th><td>{}</td></tr>", esc(k), esc(v));
            }
            let _ = writeln!(h, "</table>");
        }
        if !f.mismatches.is_empty() {
            let _ = writeln!(
                h,
                "<table class=\"mismatches\"><tr><th>thread</th><th>word</th><th>expected</th><th>actual</th><th>decoded</th></tr>"
            );
            for m in f.mismatches.iter().take(SHOWN_MISMATCHES) {
                let actual: Vec<String> = m.actual.iter().map(|(b, v)| format!("{b}: {v}")).collect();
                let _ = writeln!(
                    h,
                    "<tr><td>{}</td><td>{}</td><td><code>{}</code></td><td><pre>{}</pre></td><td>{}</td></tr>",
                    m.thread,
                    m.word,
                    esc(&m.expected),
                    esc(&actual.join("\n")),
                    esc(&m.decoded)
                );
            }
            let _ = writeln!(h, "</table>");
            if f.mismatches.len() > SHOWN_MISMATCHES {
                let _ = writeln!(
                    h,
                    "<p>… {} more in findings/{}.json</p>",
                    f.mismatches.len() - SHOWN_MISMATCHES,
                    esc(&f.id)
                );
            }
        }
        if let Some(m) = &f.message {
            details(&mut h, "message", m, true);
        }
        let inputs = inputs_text(f);
        if !inputs.is_empty() {
            details(&mut h, "inputs", &inputs, false);
        }
        let ptx_title = if size.is_empty() { "PTX".to_string() } else { format!("PTX ({size})") };
        if !f.ptx.is_empty() {
            details(&mut h, &ptx_title, &f.ptx, false);
        }
        let _ = writeln!(h, "</section>");
    }
    debug_assert!(FindingClass::ALL.iter().all(|c| esc(c.name()) == c.name()));
    let _ = writeln!(h, "<script>{SCRIPT}</script>\n</body>\n</html>");
    h
}

/// The rows of a conform run: totals per family and backend, every row (its status as the
/// row's class), what did not run.
fn render_rows(h: &mut String, rows: &RunRows) {
    let _ = writeln!(
        h,
        "<h2>Rows</h2>\n<table id=\"families\">\n<tr><th>family</th><th>backend</th><th>rows</th><th>inputs</th><th>agree</th><th>known</th><th>new</th><th>failed</th></tr>"
    );
    for t in family_totals(&rows.rows) {
        let family =
            if t.family.is_empty() { "<b>total</b>".to_string() } else { format!("<code>{}</code>", esc(&t.family)) };
        let _ = writeln!(
            h,
            "<tr><td>{family}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&t.backend),
            t.rows,
            t.inputs,
            t.agree,
            t.known,
            t.new,
            t.failed
        );
    }
    let _ = writeln!(
        h,
        "</table>\n<table id=\"rows\">\n<thead><tr><th>family</th><th>form</th><th>backend</th><th>inputs</th><th>verdict</th><th>finding</th></tr></thead>\n<tbody>"
    );
    for r in &rows.rows {
        let _ = writeln!(
            h,
            "<tr class=\"{}\"><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            r.status.name(),
            esc(&r.family),
            esc(&r.form),
            esc(&r.backend),
            r.inputs,
            esc(&r.verdict),
            esc(&findings_text(r))
        );
    }
    let _ = writeln!(h, "</tbody>\n</table>");
    if !rows.not_run.is_empty() {
        let _ = writeln!(h, "<h3>Not run</h3>\n<table id=\"not-run\">\n<tr><th>backend or form</th><th>why</th></tr>");
        for n in &rows.not_run {
            let _ = writeln!(h, "<tr><td><code>{}</code></td><td>{}</td></tr>", esc(&n.what), esc(&n.why));
        }
        let _ = writeln!(h, "</table>");
    }
}
