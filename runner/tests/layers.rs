//! The runner's import graph: no cycles, and every module imports only downward.
//!
//! Reads every `runner/src/**/*.rs` file, collects the runner modules it imports (`use` trees
//! with nested braces, `crate::`, `super::`, `self::` and child-module paths, inline
//! `crate::a::b::f()` paths; in `main.rs` the `runner::` paths), leaving out comments, string
//! literals and `#[cfg(test)]` items, and builds the file-level graph. A path is resolved to the
//! deepest file that exists along it, then through that file's `pub use` re-exports. Edges
//! between a directory module (`x/mod.rs`, or `x.rs` beside a folder `x/`) and its direct
//! children are ignored: a directory module and its files are one module. The test fails
//! naming the files of every cycle, and every import that goes up the layer table [`LAYERS`].

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, from the commands down to the leaf utilities: a file may import files of its own
/// layer or of a layer below (a larger rank). The first matching prefix of a file's path
/// (relative to `runner/src`) gives its rank.
const LAYERS: &[(&str, usize)] = &[
    // Commands: argument parsing and the thin main.
    ("main.rs", 0),
    ("cli/", 0),
    // Campaigns, conformance runs, runs over time, the single-shot commands.
    ("conform/", 1),
    ("fuzz/", 1),
    ("runs/", 1),
    ("eval.rs", 1),
    ("explain.rs", 1),
    ("bundle.rs", 1),
    ("validity.rs", 1),
    // Findings: signatures, known findings, the store, renderers, tool versions.
    ("findings/", 2),
    // Comparison with the oracle: programs, sweeps, memory programs and their eval lines.
    ("diff/", 3),
    ("memrun.rs", 3),
    ("program_line.rs", 3),
    // Backends, their jobs, the ptxas matrix and the worker slots.
    ("backend/", 4),
    // The worker process and its protocol.
    ("worker/", 5),
    // Leaf utilities.
    ("sweep_check.rs", 6),
    ("avx2_kernels.rs", 6),
    ("failure.rs", 6),
    ("gpu.rs", 6),
    ("ptxas.rs", 6),
    // The SASS check: nvdisasm, its listing, the def-use walk (uses ptxas.rs).
    ("sass/", 6),
    ("paths.rs", 6),
    ("atomic_write.rs", 6),
    ("glob.rs", 6),
];

// ---------------------------------------------------------------------------------------------
// Lexing: comments and literals out, tokens in.

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
}

/// Rust source without comments, with string and char literals emptied.
fn strip(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < c.len() {
        let at = |k: usize| c.get(k).copied().unwrap_or('\0');
        if c[i] == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if (c[i] == 'r' || (c[i] == 'b' && at(i + 1) == 'r'))
            && !(i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_'))
            && {
                let mut k = if c[i] == 'b' { i + 2 } else { i + 1 };
                while at(k) == '#' {
                    k += 1;
                }
                at(k) == '"'
            }
        {
            let mut k = if c[i] == 'b' { i + 2 } else { i + 1 };
            let mut hashes = 0;
            while at(k) == '#' {
                hashes += 1;
                k += 1;
            }
            k += 1;
            loop {
                if k >= c.len() {
                    break;
                }
                if c[k] == '"' && (1..=hashes).all(|h| at(k + h) == '#') {
                    k += 1 + hashes;
                    break;
                }
                k += 1;
            }
            out.push_str("\"\"");
            i = k;
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c[i] == '\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if at(i + 1) == '\\' {
                let mut k = i + 2;
                while k < c.len() && c[k] != '\'' {
                    k += 1;
                }
                i = k + 1;
                out.push_str("' '");
            } else if at(i + 2) == '\'' {
                i += 3;
                out.push_str("' '");
            } else {
                out.push('\'');
                i += 1;
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn tokens(src: &str) -> Vec<Tok> {
    let c: Vec<char> = strip(src).chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if c[i].is_alphabetic() || c[i] == '_' {
            let s = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(Tok::Ident(c[s..i].iter().collect()));
        } else if c[i].is_ascii_digit() {
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
        } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
            out.push(Tok::Path);
            i += 2;
        } else {
            if !c[i].is_whitespace() {
                out.push(Tok::Punct(c[i]));
            }
            i += 1;
        }
    }
    out
}

fn is_ident(t: Option<&Tok>, s: &str) -> bool {
    matches!(t, Some(Tok::Ident(x)) if x == s)
}

/// The index just after the item starting at `i`: up to a `;` outside brackets, or the end of
/// the first `{…}` block at depth 0.
fn skip_item(t: &[Tok], mut i: usize) -> usize {
    let mut depth = 0i32;
    while i < t.len() {
        match &t[i] {
            Tok::Punct('(' | '[') => depth += 1,
            Tok::Punct(')' | ']') => depth -= 1,
            Tok::Punct(';') if depth == 0 => return i + 1,
            Tok::Punct('{') if depth == 0 => {
                let mut d = 0;
                while i < t.len() {
                    match t[i] {
                        Tok::Punct('{') => d += 1,
                        Tok::Punct('}') => {
                            d -= 1;
                            if d == 0 {
                                return i + 1;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                return i;
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// The tokens without `#[cfg(test)]` items (and `#[cfg(any(test, …))]` ones).
fn without_test_items(t: Vec<Tok>) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        if t[i] == Tok::Punct('#') && t.get(i + 1) == Some(&Tok::Punct('[')) && is_ident(t.get(i + 2), "cfg") {
            // The attribute's tokens.
            let mut k = i + 2;
            let mut depth = 1;
            let mut test = false;
            while k < t.len() && depth > 0 {
                match &t[k] {
                    Tok::Punct('[') => depth += 1,
                    Tok::Punct(']') => depth -= 1,
                    Tok::Ident(x) if x == "test" => test = true,
                    _ => {}
                }
                k += 1;
            }
            if test && !is_ident(t.get(i + 3), "not") {
                // Further attributes, then the item.
                while t.get(k) == Some(&Tok::Punct('#')) && t.get(k + 1) == Some(&Tok::Punct('[')) {
                    let mut d = 0;
                    while k < t.len() {
                        match t[k] {
                            Tok::Punct('[') => d += 1,
                            Tok::Punct(']') => {
                                d -= 1;
                                if d == 0 {
                                    k += 1;
                                    break;
                                }
                            }
                            _ => {}
                        }
                        k += 1;
                    }
                }
                i = skip_item(&t, k);
                continue;
            }
        }
        out.push(t[i].clone());
        i += 1;
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Paths.

/// One path as written: whether it started with `::` and its segments.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Written {
    global: bool,
    segs: Vec<String>,
}

/// Parses the use tree at `t[i..]` under `prefix`, pushing every full path; returns the index
/// after the tree.
fn use_tree(t: &[Tok], mut i: usize, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
    let mut segs = prefix.to_vec();
    loop {
        match t.get(i) {
            Some(Tok::Ident(s)) if s == "as" => {
                i += 2;
                out.push(segs);
                return i;
            }
            Some(Tok::Ident(s)) => {
                if s != "self" || segs.is_empty() {
                    segs.push(s.clone());
                }
                i += 1;
            }
            Some(Tok::Path) => i += 1,
            Some(Tok::Punct('*')) => {
                out.push(segs);
                return i + 1;
            }
            Some(Tok::Punct('{')) => {
                i += 1;
                while i < t.len() && t[i] != Tok::Punct('}') {
                    i = use_tree(t, i, &segs, out);
                    if t.get(i) == Some(&Tok::Punct(',')) {
                        i += 1;
                    }
                }
                return i + 1;
            }
            _ => {
                out.push(segs);
                return i;
            }
        }
    }
}

/// What one file says: the paths it uses (`use` trees and inline paths), its child modules and
/// its public re-exports (name → path).
#[derive(Debug, Default)]
struct FileSyntax {
    paths: Vec<Written>,
    children: BTreeSet<String>,
    reexports: BTreeMap<String, Written>,
}

fn syntax(src: &str, roots: &[&str]) -> FileSyntax {
    let t = without_test_items(tokens(src));
    let mut f = FileSyntax::default();
    let mut i = 0;
    while i < t.len() {
        if is_ident(t.get(i), "mod") {
            if let (Some(Tok::Ident(name)), Some(Tok::Punct(';'))) = (t.get(i + 1), t.get(i + 2)) {
                f.children.insert(name.clone());
            }
        }
        if is_ident(t.get(i), "use") {
            let public = i > 0
                && (is_ident(t.get(i - 1), "pub")
                    || (t.get(i - 1) == Some(&Tok::Punct(')')) && i >= 4 && is_ident(t.get(i - 4), "pub")));
            let mut k = i + 1;
            let global = t.get(k) == Some(&Tok::Path);
            if global {
                k += 1;
            }
            let mut paths = Vec::new();
            let end = use_tree(&t, k, &[], &mut paths);
            for segs in paths {
                if public && !global {
                    // The name it is exported as: the last segment (or the alias).
                    if let Some(last) = segs.last() {
                        f.reexports.insert(last.clone(), Written { global, segs: segs.clone() });
                    }
                }
                f.paths.push(Written { global, segs });
            }
            i = end;
            continue;
        }
        // An inline path: `crate::…`, `super::…`, `self::…` (or a root of `roots`).
        if let Some(Tok::Ident(s)) = t.get(i) {
            let starts_path = t.get(i + 1) == Some(&Tok::Path) && (i == 0 || t[i - 1] != Tok::Path);
            if starts_path && (s == "crate" || s == "super" || s == "self" || roots.contains(&s.as_str())) {
                let mut segs = vec![s.clone()];
                let mut k = i + 1;
                while t.get(k) == Some(&Tok::Path) {
                    match t.get(k + 1) {
                        Some(Tok::Ident(n)) => {
                            segs.push(n.clone());
                            k += 2;
                        }
                        _ => break,
                    }
                }
                f.paths.push(Written { global: false, segs });
                i = k;
                continue;
            }
        }
        i += 1;
    }
    f
}

// ---------------------------------------------------------------------------------------------
// The graph.

/// A source file: its path relative to `runner/src`, its module path and what it says.
struct Source {
    rel: String,
    module: Vec<String>,
    syntax: FileSyntax,
    /// `main.rs` (the binary): `runner::` is the library's root.
    bin: bool,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn module_of(rel: &str) -> Vec<String> {
    let mut segs: Vec<String> = rel.trim_end_matches(".rs").split('/').map(String::from).collect();
    if segs.last().is_some_and(|s| s == "mod" || s == "lib" || s == "main") {
        segs.pop();
    }
    segs
}

struct Crate {
    files: Vec<Source>,
    by_module: BTreeMap<Vec<String>, usize>,
}

impl Crate {
    fn load(src: &Path) -> Crate {
        let mut paths = Vec::new();
        rust_files(src, &mut paths);
        paths.sort();
        let mut files = Vec::new();
        for p in paths {
            let rel = p.strip_prefix(src).unwrap().to_string_lossy().replace('\\', "/");
            let text = std::fs::read_to_string(&p).unwrap();
            let bin = rel == "main.rs";
            let syntax = syntax(&text, if bin { &["runner"] } else { &[] });
            files.push(Source { module: module_of(&rel), rel, syntax, bin });
        }
        let by_module = files.iter().enumerate().filter(|(_, f)| !f.bin).map(|(i, f)| (f.module.clone(), i)).collect();
        Crate { files, by_module }
    }

    /// The absolute module path a path written in file `from` names, if it is the runner's.
    fn absolute(&self, from: usize, w: &Written) -> Option<Vec<String>> {
        let f = &self.files[from];
        if w.global {
            return None;
        }
        let first = w.segs.first()?;
        let mut base: Vec<String>;
        let mut rest = &w.segs[..];
        if f.bin {
            if first != "runner" {
                return None;
            }
            return Some(w.segs[1..].to_vec());
        }
        match first.as_str() {
            "crate" => {
                base = Vec::new();
                rest = &rest[1..];
            }
            "self" => {
                base = f.module.clone();
                rest = &rest[1..];
            }
            "super" => {
                base = f.module.clone();
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop()?;
                    rest = &rest[1..];
                }
            }
            name if f.syntax.children.contains(name) => base = f.module.clone(),
            _ => return None,
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// The file an absolute path lands in: the deepest existing module along it, then through
    /// that module's re-exports.
    fn resolve(&self, path: &[String], depth: usize) -> Option<usize> {
        let mut best = None;
        let mut used = 0;
        for n in 1..=path.len() {
            if let Some(&i) = self.by_module.get(&path[..n]) {
                best = Some(i);
                used = n;
            } else {
                break;
            }
        }
        let file = best?;
        if used < path.len() && depth < 4 {
            if let Some(w) = self.files[file].syntax.reexports.get(&path[used]) {
                if let Some(mut target) = self.absolute(file, w) {
                    target.extend(path[used + 1..].iter().cloned());
                    if let Some(t) = self.resolve(&target, depth + 1) {
                        return Some(t);
                    }
                }
            }
        }
        Some(file)
    }

    /// Whether `a` and `b` are a directory module (`x/mod.rs`, or `x.rs` beside a folder `x/`:
    /// Rust's two layouts of one module) and one of its direct children.
    fn parent_child(&self, a: usize, b: usize) -> bool {
        let (fa, fb) = (&self.files[a], &self.files[b]);
        let dir = |f: &Source| f.rel.ends_with("/mod.rs") || (!f.bin && !f.module.is_empty());
        let child_of =
            |p: &Source, c: &Source| dir(p) && c.module.len() == p.module.len() + 1 && c.module.starts_with(&p.module);
        child_of(fa, fb) || child_of(fb, fa)
    }

    /// File → files it imports (by relative path).
    fn graph(&self) -> BTreeMap<String, BTreeSet<String>> {
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (i, f) in self.files.iter().enumerate() {
            if f.rel == "lib.rs" {
                continue;
            }
            let edges = g.entry(f.rel.clone()).or_default();
            for w in &f.syntax.paths {
                let Some(abs) = self.absolute(i, w) else { continue };
                let Some(j) = self.resolve(&abs, 0) else { continue };
                if j == i || self.files[j].rel == "lib.rs" || self.parent_child(i, j) {
                    continue;
                }
                edges.insert(self.files[j].rel.clone());
            }
        }
        g
    }
}

/// The strongly connected components of more than one node (Tarjan), each as one cycle through
/// its nodes where one is found by a walk inside the component (else the component's nodes).
fn cycles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        t.index.insert(v, t.next);
        t.low.insert(v, t.next);
        t.next += 1;
        t.stack.push(v);
        t.on.insert(v);
        let g = t.g;
        for w in g.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !t.index.contains_key(w) {
                visit(t, w);
                let l = t.low[v].min(t.low[w]);
                t.low.insert(v, l);
            } else if t.on.contains(w) {
                let l = t.low[v].min(t.index[w]);
                t.low.insert(v, l);
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = t.stack.pop().unwrap();
                t.on.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    let mut out = t.out;
    out.sort();
    out
}

fn rank(rel: &str) -> Option<usize> {
    LAYERS.iter().find(|(p, _)| if p.ends_with('/') { rel.starts_with(p) } else { rel == *p }).map(|&(_, r)| r)
}

/// The graph of `runner/src` (or of the sources under `$LAYERS_SRC`, to check another tree).
fn runner_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = std::env::var_os("LAYERS_SRC")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    Crate::load(&src).graph()
}

#[test]
fn no_import_cycles() {
    let g = runner_graph();
    assert!(g.contains_key("backend/mod.rs") && g.contains_key("main.rs"), "the runner's sources were not read");
    let found = cycles(&g);
    let text: Vec<String> = found
        .iter()
        .map(|c| {
            let inner: BTreeSet<&String> = c.iter().collect();
            let edges: Vec<String> = c
                .iter()
                .flat_map(|a| g[a].iter().filter(|b| inner.contains(b)).map(move |b| format!("    {a} → {b}")))
                .collect();
            format!("  cycle of {} files: {}\n{}", c.len(), c.join(", "), edges.join("\n"))
        })
        .collect();
    assert!(found.is_empty(), "runner modules import each other in a circle:\n{}", text.join("\n"));
}

#[test]
fn imports_go_down_the_layers() {
    let g = runner_graph();
    let mut problems = Vec::new();
    for (a, targets) in &g {
        let Some(ra) = rank(a) else {
            problems.push(format!("{a} is in no layer: add it to LAYERS in runner/tests/layers.rs"));
            continue;
        };
        for b in targets {
            let Some(rb) = rank(b) else { continue };
            if rb < ra {
                problems.push(format!("{a} (layer {ra}) imports {b} (layer {rb}, above it)"));
            }
        }
    }
    assert!(problems.is_empty(), "layer order broken:\n  {}", problems.join("\n  "));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(edges: &[(&str, &str)]) -> BTreeMap<String, BTreeSet<String>> {
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g.entry(b.to_string()).or_default();
        }
        g
    }

    #[test]
    fn cycle_finder_finds_cycles() {
        let g = graph(&[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e"), ("e", "d"), ("f", "a")]);
        assert_eq!(cycles(&g), vec![vec!["a", "b", "c"], vec!["d", "e"]]);
        let dag = graph(&[("a", "b"), ("b", "c"), ("a", "c")]);
        assert!(cycles(&dag).is_empty());
    }

    #[test]
    fn paths_are_collected() {
        let src = r#"
            //! Docs naming crate::docs::x.
            use crate::a::{b::{self, C}, d::E as F};
            use super::g::H;
            use ::oracle::x;
            use child::Y;
            mod child;
            pub use child::Z;
            fn f() { let s = "crate::strings::no"; crate::inline::call(); /* crate::c::no */ }
            #[cfg(test)]
            mod tests { use crate::testonly::X; }
        "#;
        let f = syntax(src, &[]);
        let got: Vec<String> = f.paths.iter().map(|w| w.segs.join("::")).collect();
        assert_eq!(
            got,
            [
                "crate::a::b",
                "crate::a::b::C",
                "crate::a::d::E",
                "super::g::H",
                "oracle::x",
                "child::Y",
                "child::Z",
                "crate::inline::call"
            ]
        );
        assert!(f.paths[4].global);
        assert!(f.children.contains("child") && f.reexports.contains_key("Z"));
    }
}
