//! Reports rendered from a [`FindingsDoc`] and, for a conform run, its rows ([`RunRows`]):
//! `summary.md`, a self-contained `index.html`, and `junit.xml`, written next to
//! `findings.json`. Each opens with the run's header: `ptxdiff KIND: RUN` and the start and end
//! as UTC dates ([`utc_time`]).
//!
//! Invariants: rendering is a pure function of the document and the rows (same input, same
//! bytes); each file is written atomically; every piece of text taken from a finding or a row
//! is escaped for the format it lands in, because PTX, crash logs and backend messages are
//! untrusted text.

pub mod escape;
pub mod html;
pub mod junit;
pub mod markdown;
pub mod rows;

pub use rows::{family_totals, FamilyTotal, NotRun, RowLine, RowStatus, RunRows};

use std::path::{Path, PathBuf};

use super::finding::{Finding, WordMismatch};
use super::store::FindingsDoc;
use crate::atomic_write::write_atomic;

/// File name of the Markdown summary.
pub const SUMMARY_MD: &str = "summary.md";
/// File name of the HTML report.
pub const INDEX_HTML: &str = "index.html";
/// File name of the JUnit report.
pub const JUNIT_XML: &str = "junit.xml";
/// Mismatching words shown per finding in the summaries.
pub const SHOWN_MISMATCHES: usize = 8;

/// Renders the three reports into `dir` (with the per-row tables when `rows` is given: a
/// conform run); returns their paths (summary, html, junit).
pub fn write_all(dir: &Path, doc: &FindingsDoc, rows: Option<&RunRows>) -> std::io::Result<[PathBuf; 3]> {
    let paths = [dir.join(SUMMARY_MD), dir.join(INDEX_HTML), dir.join(JUNIT_XML)];
    write_atomic(&paths[0], markdown::render(doc, rows))?;
    write_atomic(&paths[1], html::render(doc, rows))?;
    write_atomic(&paths[2], junit::render(doc, rows))?;
    Ok(paths)
}

/// `2026-11-28 13:20:59 UTC` for seconds since the Unix epoch (the proleptic Gregorian
/// calendar, days from the epoch by Howard Hinnant's `civil_from_days`).
pub fn utc_time(unix_s: u64) -> String {
    let days = (unix_s / 86_400) as i64;
    let secs = unix_s % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC", secs / 3600, secs / 60 % 60, secs % 60)
}

/// The report's title: `ptxdiff conform: RUN` (`ptxdiff findings: RUN` for a run that does not
/// say which command wrote it).
pub(crate) fn title(doc: &FindingsDoc) -> String {
    let kind = if doc.run.kind.is_empty() { "findings" } else { doc.run.kind.as_str() };
    format!("ptxdiff {kind}: {}", doc.run.run_id)
}

/// The run's header entries: target, command, start and end as UTC dates (with the run's
/// length), then its environment and extra entries; empty values left out.
pub(crate) fn header(doc: &FindingsDoc) -> Vec<(String, String)> {
    let run = &doc.run;
    let when = |t: u64| if t == 0 { String::new() } else { utc_time(t) };
    let ended = match (run.started_unix_s, run.ended_unix_s) {
        (_, 0) => String::new(),
        (s, e) if s > 0 && e >= s => format!("{} ({} s after the start)", utc_time(e), e - s),
        (_, e) => utc_time(e),
    };
    [
        ("target".to_string(), run.target.clone()),
        ("command".to_string(), run.command.clone()),
        ("started".to_string(), when(run.started_unix_s)),
        ("ended".to_string(), ended),
    ]
    .into_iter()
    .chain(run.environment.iter().cloned())
    .chain(run.extra.iter().map(|(k, v)| (k.clone(), v.clone())))
    .filter(|(_, v)| !v.is_empty())
    .collect()
}

/// `backend=0x… backend=0x…`, in backend order.
pub(crate) fn actual_text(m: &WordMismatch) -> String {
    m.actual.iter().map(|(b, v)| format!("{b}={v}")).collect::<Vec<_>>().join(" ")
}

/// One line per mismatch: `thread T word W: expected E, got b=0x…[; decoded]`.
pub(crate) fn mismatch_line(m: &WordMismatch) -> String {
    let mut s = format!("thread {} word {}: expected {}, got {}", m.thread, m.word, m.expected, actual_text(m));
    if !m.decoded.is_empty() {
        s.push_str(" (");
        s.push_str(&m.decoded);
        s.push(')');
    }
    s
}

/// The first input words of the mismatching threads, or of the first threads.
pub(crate) fn inputs_text(f: &Finding) -> String {
    let n = f.words_per_thread();
    if n == 0 {
        return String::new();
    }
    let mut threads: Vec<u32> = f.mismatches.iter().map(|m| m.thread).collect();
    if threads.is_empty() {
        threads = (0..f.threads.min(4)).collect();
    }
    threads.dedup();
    threads
        .iter()
        .take(SHOWN_MISMATCHES)
        .map(|&t| {
            let words: Vec<String> = f.thread_inputs(t).iter().map(|w| format!("0x{w:08x}")).collect();
            format!("thread {t}: {}", words.join(" "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `N (from M)` instructions, or empty when unknown; says so when the program did not show the
/// finding again when run alone.
pub(crate) fn size_text(f: &Finding) -> String {
    let size = match (f.minimized_instructions, f.original_instructions) {
        (0, 0) => String::new(),
        (m, 0) => format!("{m} instructions"),
        (m, o) => format!("{m} instructions (from {o})"),
    };
    if f.reproduced == Some(false) {
        format!("{size}, as generated: did not show again when run alone")
    } else {
        size
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::finding::WordMismatch;
    use crate::findings::signature::{FindingClass, Signature};
    use crate::findings::store::{KnownHit, RunMeta};

    /// PTX and logs full of markup, entities, quotes and control characters.
    const EVIL: &str = "</pre><script>alert(\"x\" & 'y')</script>\u{0}\u{1b}]]> `a` | <!-- & &amp; \"q\"";

    fn doc() -> FindingsDoc {
        let mut hostile = Finding::new(
            Signature::new(FindingClass::Crash, "program", "", ["ptxas-check"], "ptxas exit 139 <\"&'>"),
            format!(".version 8.7\n.target sm_90\n// {EVIL}\n"),
        );
        hostile.title = format!("ptxas crashes {EVIL}");
        hostile.message = Some(format!("Segmentation fault {EVIL}"));
        hostile.environment = vec![("ptxas".into(), format!("13.0 {EVIL}"))];
        hostile.first_seen_s = 3.0;
        let mut plain = Finding::new(
            Signature::new(FindingClass::Compiler, "cvt.rn.f16.f32", "subnormal", ["cuda:ptxas-O0"], "off-by-one-ulp"),
            ".version 8.7\n.target sm_90\ncvt.rn.f16.f32 %h, %f;\n",
        );
        plain.count = 7;
        plain.threads = 2;
        plain.inputs = vec![0x0000_0001, 0x3380_0000];
        plain.original_instructions = 40;
        plain.minimized_instructions = 1;
        plain.mismatches = vec![WordMismatch {
            thread: 1,
            word: 0,
            expected: "0x0001".into(),
            actual: [("cuda:ptxas-O0".to_string(), "0x0000".to_string())].into(),
            decoded: "5.96e-8 → +0".into(),
        }];
        plain.replay = "ptxdiff replay reports/run/cases/x.case".into();
        let mut d = FindingsDoc::new(RunMeta {
            run_id: format!("run {EVIL}"),
            target: "sm_90".into(),
            command: format!("ptxdiff fuzz --seed '{EVIL}'"),
            environment: vec![("device".into(), "NVIDIA H200".into())],
            ..RunMeta::default()
        });
        d.findings = vec![hostile, plain];
        d.known = vec![KnownHit {
            id: "cvt-rna-tf32-nan".into(),
            reason: format!("tf32 {EVIL}"),
            evidence: "corpus/findings/cvt-rna-tf32-nan.md".into(),
            link: Some("javascript:alert(1)".into()),
            count: 12,
            signatures: [(format!("sig {EVIL}"), 12)].into(),
        }];
        d
    }

    #[test]
    fn a_finding_that_did_not_show_again_alone_says_so() {
        let mut f = doc().findings.remove(1);
        assert_eq!(size_text(&f), "1 instructions (from 40)");
        f.reproduced = Some(true);
        assert_eq!(size_text(&f), "1 instructions (from 40)");
        (f.reproduced, f.minimized_instructions) = (Some(false), 40);
        assert_eq!(size_text(&f), "40 instructions (from 40), as generated: did not show again when run alone");
        let mut d = doc();
        d.findings[1] = f;
        assert!(markdown::render(&d, None).contains(
            "- reproducer: 40 instructions (from 40), as generated: did not show again when run alone, 2 thread(s)"
        ));
    }

    #[test]
    fn html_escapes_everything_and_is_self_contained() {
        let h = html::render(&doc(), None);
        // The only script element is ours; no raw markup from the findings survives.
        assert_eq!(h.matches("<script").count(), 1, "{h}");
        assert_eq!(h.matches("</script>").count(), 1);
        assert!(!h.contains("alert(\""), "unescaped quote");
        assert!(!h.contains("<!--"));
        assert!(!h.contains('\u{0}'));
        assert!(h.contains("&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;"));
        assert!(h.contains("&amp;amp;"), "entities in the input are shown literally");
        // Every <pre> is closed by us, not by the PTX's "</pre>".
        assert_eq!(h.matches("<pre>").count(), h.matches("</pre>").count());
        // Self-contained: nothing loads from elsewhere; the known link is text, not an href.
        for bad in ["src=", "<link", "http://", "https://", "@import", "href=\"javascript", "href=\"http"] {
            assert!(!h.contains(bad), "{bad}");
        }
        assert!(h.contains("javascript:alert(1)</code>"));
        // Filters, decoded values, collapsible PTX.
        for c in FindingClass::ALL {
            assert!(h.contains(&format!("<input type=\"checkbox\" value=\"{c}\" checked>")));
        }
        assert!(h.contains("data-class=\"compiler\"") && h.contains("data-class=\"crash\""));
        assert!(h.contains("5.96e-8 → +0") && h.contains("cuda:ptxas-O0: 0x0000"));
        assert!(h.contains("<details><summary>PTX (1 instructions (from 40))</summary><pre>.version 8.7"));
        assert!(h.contains("cvt.rn.f16.f32 %h, %f;"));
    }

    #[test]
    fn junit_is_well_formed_with_failures_and_skips() {
        let x = junit::render(&doc(), None);
        let parsed = roxmltree::Document::parse(&x).unwrap_or_else(|e| panic!("{e}\n{x}"));
        let suite = parsed.root_element();
        assert_eq!(suite.tag_name().name(), "testsuite");
        assert_eq!(suite.attribute("tests"), Some("3"));
        assert_eq!(suite.attribute("failures"), Some("2"));
        assert_eq!(suite.attribute("skipped"), Some("1"));
        assert!(suite.attribute("name").unwrap().contains("<script>alert(\"x\" & 'y')"));
        let cases: Vec<_> = suite.children().filter(|n| n.has_tag_name("testcase")).collect();
        assert_eq!(cases.len(), 3);
        let failures: Vec<_> = cases.iter().filter_map(|c| c.children().find(|n| n.has_tag_name("failure"))).collect();
        assert_eq!(failures.len(), 2);
        let crash = failures.iter().find(|f| f.attribute("type") == Some("crash")).unwrap();
        assert!(crash.attribute("message").unwrap().contains("</pre><script>"));
        assert!(crash.text().unwrap().contains("// </pre><script>alert"), "PTX round-trips as text");
        let compiler = failures.iter().find(|f| f.attribute("type") == Some("compiler")).unwrap();
        assert!(compiler.text().unwrap().contains("thread 1 word 0: expected 0x0001, got cuda:ptxas-O0=0x0000"));
        let skipped: Vec<_> = cases.iter().filter(|c| c.children().any(|n| n.has_tag_name("skipped"))).collect();
        assert_eq!(skipped.len(), 1);
        assert_eq!(skipped[0].attribute("name"), Some("cvt-rna-tf32-nan"));
    }

    /// `line` without its Markdown code spans (a run of n backticks up to the next run of n; a
    /// backslash-escaped character opens nothing).
    fn strip_code_spans(line: &str) -> String {
        let b = line.as_bytes();
        let (mut out, mut i) = (String::new(), 0);
        while i < b.len() {
            if b[i] == b'\\' && i + 1 < b.len() && b[i + 1].is_ascii_punctuation() {
                out.push_str(&line[i..i + 2]);
                i += 2;
            } else if b[i] == b'`' {
                let n = b[i..].iter().take_while(|&&c| c == b'`').count();
                let mut j = i + n;
                let close = loop {
                    if j >= b.len() {
                        break None;
                    }
                    if b[j] == b'`' {
                        let m = b[j..].iter().take_while(|&&c| c == b'`').count();
                        if m == n {
                            break Some(j + m);
                        }
                        j += m;
                    } else {
                        j += 1;
                    }
                };
                match close {
                    Some(end) => i = end,
                    None => {
                        out.push_str(&line[i..]);
                        break;
                    }
                }
            } else {
                let c = line[i..].chars().next().unwrap();
                out.push(c);
                i += c.len_utf8();
            }
        }
        out
    }

    #[test]
    fn markdown_lists_findings_and_keeps_code_literal() {
        let md = markdown::render(&doc(), None);
        assert!(md.contains("| crash | 1 | 1 |") && md.contains("| compiler | 1 | 7 |"), "{md}");
        assert!(md.contains("- replay: `ptxdiff replay reports/run/cases/x.case`"));
        assert!(md.contains("| 1 | 0 | `0x0001` | `cuda:ptxas-O0=0x0000` | 5.96e-8 → +0 |"));
        assert!(md.contains("```ptx\n.version 8.7\n.target sm_90\ncvt.rn.f16.f32 %h, %f;\n```\n"));
        assert!(md.contains("| cvt-rna-tf32-nan | 12 |"));
        // Outside code spans and fences, markup is escaped; tables keep their column count.
        let mut fenced = false;
        for line in md.lines() {
            if line.starts_with("```") {
                fenced = !fenced;
            } else if !fenced && !line.starts_with("<a id=\"") {
                let prose = strip_code_spans(line);
                let raw_lt = prose.match_indices('<').any(|(i, _)| !prose[..i].ends_with('\\'));
                assert!(!raw_lt, "unescaped `<` outside code: {line}");
            }
        }
        assert!(!fenced);
        assert!(md.contains("### ptxas crashes \\</pre\\>\\<script\\>alert"), "{md}");
        for line in md.lines().filter(|l| l.starts_with("| [")) {
            let pipes = line.match_indices('|').filter(|(i, _)| !line[..*i].ends_with('\\')).count();
            assert_eq!(pipes, 10, "9 columns: {line}");
        }
    }

    #[test]
    fn write_all_writes_three_files() {
        let dir = tempfile::tempdir().unwrap();
        let paths = write_all(dir.path(), &doc(), None).unwrap();
        for p in &paths {
            assert!(std::fs::metadata(p).unwrap().len() > 100, "{}", p.display());
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3, "no temp files left");
    }

    /// A conform run's document: its header with start and end, and the new finding `abc`.
    fn conform_doc() -> FindingsDoc {
        let mut d = doc();
        d.run.kind = "conform".into();
        d.run.run_id = "conform-1795872000".into();
        (d.run.started_unix_s, d.run.ended_unix_s) = (1_795_872_000, 1_795_872_059);
        d.findings[1].id = "abc".into();
        d
    }

    #[test]
    fn utc_dates_are_the_calendars() {
        assert_eq!(utc_time(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_time(1_795_872_059), "2026-11-28 13:20:59 UTC");
        assert_eq!(utc_time(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(utc_time(4_107_456_000), "2100-02-28 00:00:00 UTC");
        assert_eq!(utc_time(253_402_300_799), "9999-12-31 23:59:59 UTC");
    }

    /// The header names the command and gives start and end as dates, not a raw number.
    #[test]
    fn a_conform_report_is_titled_and_dated() {
        let d = conform_doc();
        let md = markdown::render(&d, Some(&rows::tests::rows()));
        assert!(md.starts_with("# ptxdiff conform: conform-1795872000\n"), "{md}");
        assert!(md.contains("- started: 2026-11-28 13:20:00 UTC\n"), "{md}");
        assert!(md.contains("- ended: 2026-11-28 13:20:59 UTC (59 s after the start)\n"), "{md}");
        assert!(!md.contains("unix"), "{md}");
        let h = html::render(&d, Some(&rows::tests::rows()));
        assert!(h.contains("<title>ptxdiff conform: conform-1795872000</title>"), "{h}");
        assert!(h.contains("<tr><th>started</th><td>2026-11-28 13:20:00 UTC</td></tr>"), "{h}");
        // A run that does not say what wrote it keeps the old title.
        assert!(markdown::render(&doc(), None).starts_with("# ptxdiff findings: run"));
    }

    /// Every row is in the table, the totals per family and backend add up, known and new
    /// findings are named, and what did not run is listed.
    #[test]
    fn markdown_and_html_have_a_row_table() {
        let (d, rows) = (conform_doc(), rows::tests::rows());
        let md = markdown::render(&d, Some(&rows));
        assert!(md.contains("6 rows: 3 agree, 1 fail with known findings only, 1 fail with a new finding, 1 failed without a finding; 1 backend(s) or form(s) not run."), "{md}");
        assert!(md.contains("| `tensormap.replace` | oracle | 1 | 10 | 1 | 0 | 0 | 0 |"), "{md}");
        assert!(md.contains("| **total** |  | 6 | 60 | 3 | 1 | 1 | 1 |"), "{md}");
        assert!(
            md.contains("| `cvt` | `cvt.rna.tf32.f32` | oracle | 10 | 2 of 10 mismatching | known: cvt-rna-tf32-nan |"),
            "{md}"
        );
        assert!(md.contains("| `prmt` | `prmt.b32` | oracle | 10 | 2 of 10 mismatching | new: [abc](#abc) |"), "{md}");
        assert!(md.contains("| `cuda:ptxas-O3` | GPU backend unavailable: no driver |"), "{md}");
        let row_lines = md.lines().filter(|l| l.starts_with("| `") && l.matches(" | ").count() == 5).count();
        assert_eq!(row_lines, rows.rows.len(), "{md}");
        let h = html::render(&d, Some(&rows));
        assert_eq!(h.matches("<tr class=\"").count(), rows.rows.len());
        assert!(h.contains("<tr class=\"known\"><td>cvt</td><td><code>cvt.rna.tf32.f32</code></td><td>oracle</td><td>10</td><td>2 of 10 mismatching</td><td>known: cvt-rna-tf32-nan</td></tr>"), "{h}");
        assert!(h.contains("<td><code>cuda:ptxas-O3</code></td><td>GPU backend unavailable: no driver</td>"));
    }

    /// JUnit: one test case per row (failure for the new finding, error for the row the machine
    /// stopped, the known one passing but marked), one skipped case per backend not run.
    #[test]
    fn junit_has_a_testcase_per_row() {
        let (d, rows) = (conform_doc(), rows::tests::rows());
        let x = junit::render(&d, Some(&rows));
        let parsed = roxmltree::Document::parse(&x).unwrap_or_else(|e| panic!("{e}\n{x}"));
        let suite = parsed.root_element();
        assert_eq!(suite.attribute("name"), Some("ptxdiff conform: conform-1795872000"));
        let attr = |k| suite.attribute(k).unwrap().parse::<usize>().unwrap();
        assert_eq!((attr("tests"), attr("failures"), attr("errors"), attr("skipped")), (7, 1, 1, 1));
        let cases: Vec<_> = suite.children().filter(|n| n.has_tag_name("testcase")).collect();
        assert_eq!(cases.len(), 7);
        let count = |tag: &str| cases.iter().filter(|c| c.children().any(|n| n.has_tag_name(tag))).count();
        assert_eq!((count("failure"), count("error"), count("skipped")), (1, 1, 1));
        let case = |name: &str| *cases.iter().find(|c| c.attribute("name") == Some(name)).unwrap();
        let new = case("prmt.b32 oracle").children().find(|n| n.has_tag_name("failure")).unwrap();
        assert_eq!(new.attribute("message"), Some("new finding abc: 2 of 10 mismatching"));
        assert!(new.text().unwrap().contains("thread 1 word 0: expected 0x0001"), "the finding's details");
        let known = case("cvt.rna.tf32.f32 oracle");
        assert!(!known.children().any(|n| n.has_tag_name("failure")));
        let prop = known.descendants().find(|n| n.has_tag_name("property")).unwrap();
        assert_eq!((prop.attribute("name"), prop.attribute("value")), (Some("known"), Some("cvt-rna-tf32-nan")));
        let out = known.children().find(|n| n.has_tag_name("system-out")).unwrap();
        assert!(out.text().unwrap().starts_with("known finding (cvt-rna-tf32-nan)"));
        assert_eq!(
            case("tensormap.replace.tile.global_address oracle").attribute("classname"),
            Some("tensormap.replace")
        );
        let skipped = case("cuda:ptxas-O3").children().find(|n| n.has_tag_name("skipped")).unwrap();
        assert_eq!(skipped.attribute("message"), Some("not run: GPU backend unavailable: no driver"));
        let props: Vec<_> = suite
            .children()
            .find(|n| n.has_tag_name("properties"))
            .unwrap()
            .children()
            .filter(|n| n.is_element())
            .collect();
        assert!(
            props
                .iter()
                .any(|p| p.attribute("name") == Some("started")
                    && p.attribute("value") == Some("2026-11-28 13:20:00 UTC"))
        );
    }
}
