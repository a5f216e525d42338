//! Escaping of untrusted text (PTX, crash logs, backend messages) for the formats the
//! renderers write: the one place HTML and XML escaping lives.
//!
//! Invariants: [`xml_escape`] and [`html_escape`] output is safe both as element text and inside
//! a double- or single-quoted attribute; [`xml_escape`] also drops the characters XML 1.0
//! cannot carry at all (control characters other than tab, line feed and carriage return), so a
//! crash log full of NUL bytes still gives a well-formed document.

/// The markup characters every format escapes the same way; `None` for any other character.
fn markup(c: char) -> Option<&'static str> {
    match c {
        '&' => Some("&amp;"),
        '<' => Some("&lt;"),
        '>' => Some("&gt;"),
        '"' => Some("&quot;"),
        _ => None,
    }
}

/// Escapes `s`: markup characters by entity, `'` as `apos`, and every other character as
/// `other` says (`None`: dropped).
fn escape(s: &str, apos: &str, other: impl Fn(char) -> Option<char>) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match (markup(c), c) {
            (Some(entity), _) => out.push_str(entity),
            (None, '\'') => out.push_str(apos),
            (None, c) => out.extend(other(c)),
        }
    }
    out
}

/// Escapes text for XML element content and attribute values; drops characters XML 1.0
/// forbids.
pub fn xml_escape(s: &str) -> String {
    escape(s, "&apos;", |c| match c {
        '\t' | '\n' | '\r' => Some(c),
        c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => None,
        c => Some(c),
    })
}

/// Escapes text for HTML element content and attribute values (NUL becomes U+FFFD).
pub fn html_escape(s: &str) -> String {
    escape(s, "&#39;", |c| Some(if c == '\0' { '\u{fffd}' } else { c }))
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
