//! Globs over names (`cvt.*.f16.f32`, `cuda:*`, `st.*.{b,u,s}8`): `--forms` selects forms
//! with them and `corpus/known/` patterns match signatures and shapes with them.
//!
//! Syntax: `*` matches any run of characters; `{a,b,c}` matches any one of its comma-separated
//! alternatives (which may hold `*`; braces do not nest). Nothing else is special: a `{`
//! without its `}` is an ordinary character.

/// One state of the matching automaton a glob compiles to (Thompson's construction: one state
/// per character of the pattern, so matching is linear in the text for a given pattern, never
/// an expansion of the alternatives).
enum State {
    /// Consumes this character, then goes to the state given.
    Char(char, usize),
    /// `*`: consumes any character and stays, or moves on (without consuming) to the state given.
    Star(usize),
    /// `{a,b}`: moves on (without consuming) to any of these states.
    Split(Vec<usize>),
    /// The end of the pattern.
    Match,
}

/// A pattern element before compilation: a character, `*`, or a group of alternatives (each a
/// run of characters and stars; braces do not nest).
enum Elem {
    Char(char),
    Star,
    Group(Vec<Vec<Elem>>),
}

/// Splits `glob` into elements (see the module docs for the syntax).
fn parse(glob: &str) -> Vec<Elem> {
    let flat =
        |text: &str| -> Vec<Elem> { text.chars().map(|c| if c == '*' { Elem::Star } else { Elem::Char(c) }).collect() };
    let mut out = Vec::new();
    let mut rest = glob;
    while let Some(open) = rest.find('{') {
        let Some(len) = rest[open..].find('}') else { break };
        out.extend(flat(&rest[..open]));
        out.push(Elem::Group(rest[open + 1..open + len].split(',').map(flat).collect()));
        rest = &rest[open + len + 1..];
    }
    out.extend(flat(rest));
    out
}

/// Compiles `elems` so that they continue at state `next`; returns their first state.
fn compile(elems: &[Elem], next: usize, states: &mut Vec<State>) -> usize {
    let mut cont = next;
    for e in elems.iter().rev() {
        let state = match e {
            Elem::Char(c) => State::Char(*c, cont),
            Elem::Star => State::Star(cont),
            Elem::Group(alts) => State::Split(alts.iter().map(|a| compile(a, cont, states)).collect()),
        };
        states.push(state);
        cont = states.len() - 1;
    }
    cont
}

/// Adds state `s` and every state it reaches without consuming a character to `set` (and to
/// `list`, the states of the set in the order added). Iterative: a pattern of many stars or
/// groups cannot overflow the stack.
fn close(states: &[State], s: usize, set: &mut [bool], list: &mut Vec<usize>) {
    let mut todo = vec![s];
    while let Some(s) = todo.pop() {
        if std::mem::replace(&mut set[s], true) {
            continue;
        }
        list.push(s);
        match &states[s] {
            State::Star(next) => todo.push(*next),
            State::Split(alts) => todo.extend(alts.iter().copied()),
            State::Char(..) | State::Match => {}
        }
    }
}

/// Whether `text` matches `glob` (`*` matches any run of characters, `{a,b}` either
/// alternative). Time O(pattern × text) and memory O(pattern), however many groups the pattern
/// has: the alternatives are never expanded into patterns (2^32 of them for `{a,b}` × 32).
pub fn glob_match(glob: &str, text: &str) -> bool {
    let mut states = vec![State::Match];
    let start = compile(&parse(glob), 0, &mut states);
    let mut set = vec![false; states.len()];
    let mut list = Vec::new();
    close(&states, start, &mut set, &mut list);
    for c in text.chars() {
        let current = std::mem::take(&mut list);
        set.iter_mut().for_each(|b| *b = false);
        for s in current {
            match states[s] {
                State::Char(x, next) if x == c => close(&states, next, &mut set, &mut list),
                State::Star(_) => close(&states, s, &mut set, &mut list),
                _ => {}
            }
        }
        if list.is_empty() {
            return false;
        }
    }
    set[0]
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
        // A `}` alone, and a `{` inside a group, are ordinary characters.
        assert!(glob_match("a}{b,{c}", "a}{c") && glob_match("a}{b,{c}", "a}b"));
        assert!(glob_match("**a**", "xay") && !glob_match("a*", "") && glob_match("*", ""));
    }

    /// The probes of issue 28: 24 groups of `{c,x}` (2^24 patterns when expanded) and a
    /// 160-byte `{a,b}` × 32 pattern (2^32 patterns: 50 s and 7 GB, then an abort) match at
    /// once, since no alternative is ever expanded.
    #[test]
    fn many_groups_are_matched_without_expanding_them() {
        let pattern = "{c,x}".repeat(24);
        assert!(glob_match(&pattern, &"cx".repeat(12)));
        assert!(!glob_match(&pattern, &"c".repeat(23)));
        assert!(!glob_match(&pattern, &format!("{}y", "c".repeat(23))));
        let pattern = "{a,b}".repeat(32);
        assert_eq!(pattern.len(), 160);
        assert!(glob_match(&pattern, &"ab".repeat(16)) && !glob_match(&pattern, &"ab".repeat(17)));
        // Stars inside the groups too, and a pattern of 100,000 stars.
        assert!(glob_match(&"{*a,b*}".repeat(40), &"ba".repeat(40)));
        assert!(glob_match(&"*".repeat(100_000), "anything"));
    }
}
