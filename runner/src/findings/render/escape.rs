//! Escaping of untrusted text (PTX, crash logs, backend messages) for the formats the
//! renderers write: the one place HTML and XML escaping lives.
//!
//! Invariants: [`xml_escape`] and [`html_escape`] output is safe both as element text and inside
//! a double- or single-quoted attribute; [`xml_escape`] also drops the characters XML 1.0
//! cannot carry at all (control characters other than tab, line feed and carriage return), so a
//! crash log full of NUL bytes still gives a well-formed document.

/// Escapes text for XML element content and attribute values; drops characters XML 1.0
/// forbids.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
    out
}

/// Escapes text for HTML element content and attribute values.
pub fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\0' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(xml_escape("a<b>&\"'\u{0}\u{1b}\tz"), "a&lt;b&gt;&amp;&quot;&apos;\tz");
        assert_eq!(
            html_escape("<script>alert('x&y')</script>"),
            "&lt;script&gt;alert(&#39;x&amp;y&#39;)&lt;/script&gt;"
        );
    }
}
