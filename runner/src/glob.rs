//! Globs over names (`cvt.*.f16.f32`, `cuda:*`, `st.*.{b,u,s}8`): `--forms` selects forms
//! with them and `corpus/known/` patterns match signatures and shapes with them.
//!
//! Syntax: `*` matches any run of characters; `{a,b,c}` matches any one of its comma-separated
//! alternatives (which may hold `*`; braces do not nest). Nothing else is special: a `{`
//! without its `}` is an ordinary character.

/// The alternatives of the first `{…}` group of `glob` expanded (recursively, so every group
/// is), or `glob` itself when it has none.
fn expand(glob: &str) -> Vec<String> {
    let Some(open) = glob.find('{') else { return vec![glob.to_string()] };
    let Some(len) = glob[open..].find('}') else { return vec![glob.to_string()] };
    let (head, group, tail) = (&glob[..open], &glob[open + 1..open + len], &glob[open + len + 1..]);
    let tails = expand(tail);
    group.split(',').flat_map(|alt| tails.iter().map(move |t| format!("{head}{alt}{t}"))).collect()
}

/// Whether `text` matches `glob` (`*` matches any run of characters, `{a,b}` either
/// alternative).
pub fn glob_match(glob: &str, text: &str) -> bool {
    expand(glob).iter().any(|g| star_match(g, text))
}

/// Whether `text` matches `glob`, where only `*` is special.
fn star_match(glob: &str, text: &str) -> bool {
    let parts: Vec<&str> = glob.split('*').collect();
    if parts.len() == 1 {
        return glob == text;
    }
    let mut rest = text;
    for (k, p) in parts.iter().enumerate() {
        if k == 0 {
            match rest.strip_prefix(p) {
                Some(r) => rest = r,
                None => return false,
            }
        } else if k == parts.len() - 1 {
            return rest.ends_with(p);
        } else {
            match rest.find(p) {
                Some(i) => rest = &rest[i + p.len()..],
                None => return false,
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_match("cvt.*.f16.f32", "cvt.rn.f16.f32"));
        assert!(glob_match("*e4m3*", "cvt.rn.satfinite.e4m3x2.f32"));
        assert!(!glob_match("cvt.rn.*", "cvt.rz.f16.f32"));
        assert!(glob_match("prmt.b32", "prmt.b32"));
    }

    #[test]
    fn alternatives() {
        for t in ["st.global.b8", "st.shared::cta.v2.s8", "st.relaxed.gpu.global.u8"] {
            assert!(glob_match("st.*.{b,u,s}8", t), "{t}");
        }
        assert!(!glob_match("st.*.{b,u,s}8", "st.global.b16"));
        // Two groups, and `*` inside an alternative.
        assert!(glob_match("{ld.*.f32,cvt*.f32.*} → shr.{b,u}64", "cvt.rn.f32.f64 → shr.u64"));
        assert!(!glob_match("{ld.*.f32,cvt*.f32.*} → shr.{b,u}64", "cvt.rn.f16.f32 → shr.u64"));
        // An unclosed brace is an ordinary character.
        assert!(glob_match("a{b", "a{b") && !glob_match("a{b", "ab"));
        assert!(glob_match("{,x}y", "y") && glob_match("{,x}y", "xy"));
    }
}
