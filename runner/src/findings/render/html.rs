//! `index.html`: one self-contained page (inline CSS, a few lines of inline JS, no external
//! assets or links that load anything): run metadata, counts per class, a table of findings
//! with expected and actual values decoded, class filters, and each finding's PTX, inputs and
//! log in collapsible `<details><pre>`.
//!
//! Invariants: every piece of text from the document goes through [`html_escape`] (element
//! text and attribute values alike), including run metadata and known-finding links, which
//! are shown as text and never turned into `href`s; the only `<script>` element is the fixed
//! filter code, which reads no document data; ids and classes used in attributes are escaped
//! too.

use std::fmt::Write as _;

use super::escape::html_escape as esc;
use super::{inputs_text, size_text, SHOWN_MISMATCHES};
use crate::findings::signature::FindingClass;
use crate::findings::store::FindingsDoc;

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}\
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}\
th{background:#f3f3f3}code,pre{font:12px/1.35 ui-monospace,monospace}pre{background:#f7f7f7;padding:.6em;overflow:auto;max-height:40em}\
.crash{color:#a00}.compiler{color:#a50}.hardware-spec{color:#05a}.assembler-rejection{color:#607}\
section.finding{border-top:1px solid #ddd;margin-top:1.5em}#filters label{margin-right:1em}";

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

/// Renders the page.
pub fn render(doc: &FindingsDoc) -> String {
    let run = &doc.run;
    let mut h = String::new();
    let _ = writeln!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>ptxdiff findings: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>",
        esc(&run.run_id)
    );
    let _ = writeln!(h, "<h1>ptxdiff findings: {}</h1>", esc(&run.run_id));
    let _ = writeln!(h, "<table id=\"run\">");
    let started = if run.started_unix_s == 0 { String::new() } else { run.started_unix_s.to_string() };
    let fixed = [("target", run.target.as_str()), ("command", run.command.as_str()), ("started (unix s)", &started)];
    let env = run.environment.iter().map(|(k, v)| (k.as_str(), v.as_str()));
    let extra = run.extra.iter().map(|(k, v)| (k.as_str(), v.as_str()));
    for (k, v) in fixed.into_iter().chain(env).chain(extra).filter(|(_, v)| !v.is_empty()) {
        let _ = writeln!(h, "<tr><th>{}</th><td>{}</td></tr>", esc(k), esc(v));
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
