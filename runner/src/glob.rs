//! Globs over names (`cvt.*.f16.f32`, `cuda:*`): `--forms` selects forms with them and
//! `corpus/known/` patterns match signatures with them. `*` matches any run of characters;
//! there are no other wildcards.

/// Whether `text` matches `glob` (`*` matches any run of characters).
pub fn glob_match(glob: &str, text: &str) -> bool {
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
}
