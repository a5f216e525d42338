//! Programs as PTX text, and back.
//!
//! A program prints as one `.entry` preceded by a header comment
//! (`// ptxdiff-program name=… target=sm_90a@8.7 threads=… inputs=… outputs=… shared=…`); its
//! body sits between `// begin body` and `// end body`, one statement per line, after a fixed
//! prologue that sets the special registers (the launch contract of [`super`]). A module is a
//! `.version`/`.target` header and any number of entries. A *case* is a module of one program
//! plus its inputs in a trailing comment block (`// ptxdiff-inputs`, one line per thread), so a
//! case file is PTX that `ptxas` assembles as it stands.
//!
//! The launch in the text: the `.entry` signature declares [`Launch::params`], the prologue
//! loads `%in`/`%out` from the parameters that pass [`Buffer::Inputs`]/[`Buffer::Outputs`],
//! and the header's `threads=` is [`Launch::threads`]. The header carries nothing else of the
//! launch, so a parsed program gets [`Launch::one_cta`]: a program with another launch (which
//! the interpreter and the generator's checker reject) does not round-trip.
//!
//! Invariant: `parse_module(&module(ps)) == ps` and `parse_case(&case(p, i)) == (p, i)` for
//! every program the generator builds (tested here and by the `generate` fuzz target).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use thiserror::Error;

use super::glue::{self, Glue};
use super::launch::MAX_SHARED_BYTES;
use super::launch::{Buffer, Launch, Param};
use super::{Inputs, PredGuard, Program, Reg, RegClass, Stmt, MAX_INPUTS, MAX_OUTPUTS, MAX_THREADS};
use crate::isa::operand::Operand;
use crate::isa::{Instruction, Target};

/// A program body with every kind of statement (loads, a cvt, a glue guard and a forward branch
/// with its label, a shuffle, a shared-memory round trip across a barrier, a pack, stores),
/// valid under the invariants of [`super`] for 64 threads with 4 input, 2 output and 4 shared
/// words: a fixture for tests and a seed for the fuzz targets.
pub const EXAMPLE_BODY: &[&str] = &[
    "ld.global.b32 %r0, [%in+4];",
    "ld.global.v2.b32 {%r1, %r2}, [%in+8];",
    "cvt.rn.f16.f32 %h0, %r0;",
    "setp.lt.s32 %p0, %r1, 0;",
    "@%p0 bra $L0;",
    "@!%p0 add.s32 %r1, %r1, -7;",
    "$L0:",
    "shfl.sync.bfly.b32 %r3, %r1, 1, 31, -1;",
    "st.shared.b32 [%sh], %r3;",
    "bar.sync 0;",
    "ld.shared.b32 %r4, [%shn];",
    "mov.b32 %r5, {%h0, %h0};",
    "st.global.b32 [%out], %r5;",
    "st.global.b32 [%out+4], %r4;",
];

/// A malformed program or case text.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("line {line}: {message}")]
pub struct TextError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, TextError> {
    Err(TextError { line, message: message.into() })
}

const HEADER: &str = "// ptxdiff-program";
const BEGIN: &str = "// begin body";
const END: &str = "// end body";
const INPUTS: &str = "// ptxdiff-inputs";

/// The registers an operand mentions (vector elements, `d|p`, address bases).
pub(crate) fn operand_regs(o: &Operand, out: &mut Vec<Reg>) {
    match o {
        Operand::Name(n) | Operand::NameOffset(n, _) => out.extend(Reg::parse(n)),
        Operand::Vector(items) => items.iter().for_each(|i| operand_regs(i, out)),
        Operand::Address { base: Some(b), .. } => out.extend(Reg::parse(b)),
        Operand::WithPred(d, p) => {
            operand_regs(d, out);
            out.extend(Reg::parse(p));
        }
        Operand::TensorRef { map, coords } => {
            operand_regs(map, out);
            coords.iter().for_each(|c| operand_regs(c, out));
        }
        _ => {}
    }
}

/// Every register a statement mentions (guards included).
pub fn stmt_regs(s: &Stmt) -> Vec<Reg> {
    let mut out = Vec::new();
    let guard = |g: &Option<PredGuard>, out: &mut Vec<Reg>| {
        if let Some(g) = g {
            out.push(Reg::Virt(RegClass::Pred, g.pred));
        }
    };
    match s {
        Stmt::Isa(i) => {
            if let Some(g) = &i.guard {
                out.extend(Reg::parse(&g.pred));
            }
            i.operands.iter().for_each(|o| operand_regs(o, &mut out));
        }
        Stmt::Glue { guard: g, glue } => {
            guard(g, &mut out);
            out.push(glue.dst);
            out.extend(glue.src.iter().filter_map(|s| match s {
                Some(glue::Src::Reg(r)) => Some(*r),
                _ => None,
            }));
        }
        Stmt::Bra { guard: g, .. } => guard(g, &mut out),
        Stmt::Label(_) | Stmt::Bar => {}
    }
    out
}

/// The statement's line in the body (labels unindented, the rest after a tab).
pub fn stmt_line(s: &Stmt) -> String {
    let g = |g: &Option<PredGuard>| g.map(|g| format!("{g} ")).unwrap_or_default();
    match s {
        Stmt::Isa(i) => format!("\t{i}"),
        Stmt::Glue { guard, glue } => format!("\t{}{glue}", g(guard)),
        Stmt::Bra { guard, label } => format!("\t{}bra $L{label};", g(guard)),
        Stmt::Label(l) => format!("$L{l}:"),
        Stmt::Bar => "\tbar.sync 0;".to_string(),
    }
}

/// The `.version`/`.target`/`.address_size` lines for `target`.
pub fn module_header(target: &Target) -> String {
    format!(".version {}\n.target {}\n.address_size 64\n", target.ptx, target.name())
}

impl Program {
    /// The entry's text (header comment, `.entry`, prologue, body).
    pub fn entry_text(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(
            t,
            "{HEADER} name={} target={}@{} threads={} inputs={} outputs={} shared={}",
            self.name,
            self.target,
            self.target.ptx,
            self.threads(),
            self.inputs,
            self.outputs,
            self.shared
        );
        let params: Vec<String> = self.launch.params.iter().map(Param::declaration).collect();
        let _ = writeln!(t, ".visible .entry {}({})\n{{", self.name, params.join(", "));
        let mut count: BTreeMap<RegClass, u32> = RegClass::ALL.iter().map(|&c| (c, 1)).collect();
        for s in &self.body {
            for r in stmt_regs(s) {
                if let Reg::Virt(c, n) = r {
                    let e = count.entry(c).or_insert(1);
                    *e = (*e).max(n + 1);
                }
            }
        }
        for (c, n) in &count {
            // `.b8` registers only where the program uses them (most programs do not).
            if *c == RegClass::B8 && *n == 1 && !self.body.iter().flat_map(stmt_regs).any(|r| r.class() == RegClass::B8)
            {
                continue;
            }
            let _ = writeln!(t, "\t.reg {} %{}<{n}>;", c.ptx_type(), c.prefix());
        }
        let _ = writeln!(t, "\t.reg .b32 %tix, %t1;\n\t.reg .b64 %in, %out, %sh, %shn, %t0;");
        let sbuf = format!("{}_sbuf", self.name);
        if self.shared > 0 {
            let _ = writeln!(t, "\t.shared .align 16 .b8 {sbuf}[{}];", 4 * self.shared * self.threads());
        }
        let _ = writeln!(t, "\tmov.u32 %tix, %tid.x;");
        for (reg, buffer, stride) in
            [("%in", Buffer::Inputs, self.input_stride()), ("%out", Buffer::Outputs, self.output_stride())]
        {
            let param = self.launch.param_of(buffer).map_or("", |p| p.name.as_str());
            let _ = writeln!(t, "\tld.param.u64 {reg}, [{param}];\n\tcvta.to.global.u64 {reg}, {reg};");
            let _ = writeln!(t, "\tmul.wide.u32 %t0, %tix, {stride};\n\tadd.s64 {reg}, {reg}, %t0;");
        }
        if self.shared > 0 {
            let stride = 4 * self.shared;
            let _ =
                writeln!(t, "\tmov.u64 %sh, {sbuf};\n\tmul.wide.u32 %t0, %tix, {stride};\n\tadd.s64 %sh, %sh, %t0;");
            let _ = writeln!(t, "\tadd.u32 %t1, %tix, 1;\n\trem.u32 %t1, %t1, {};", self.threads());
            let _ =
                writeln!(t, "\tmov.u64 %shn, {sbuf};\n\tmul.wide.u32 %t0, %t1, {stride};\n\tadd.s64 %shn, %shn, %t0;");
        }
        let _ = writeln!(t, "{BEGIN}");
        for s in &self.body {
            let _ = writeln!(t, "{}", stmt_line(s));
        }
        let _ = writeln!(t, "{END}\n\tret;\n}}");
        t
    }

    /// A module holding only this program.
    pub fn module_text(&self) -> String {
        module(std::slice::from_ref(self))
    }
}

/// A module of `programs` (all for the first program's target).
pub fn module(programs: &[Program]) -> String {
    let mut t = match programs.first() {
        Some(p) => module_header(&p.target),
        None => String::new(),
    };
    for p in programs {
        t.push('\n');
        t.push_str(&p.entry_text());
    }
    t
}

/// A case: the program's module followed by its inputs.
pub fn case(p: &Program, inputs: &Inputs) -> String {
    let mut t = p.module_text();
    let _ = writeln!(t, "\n{INPUTS}");
    for th in 0..p.threads() {
        let words: Vec<String> = inputs.thread(p, th).iter().map(|w| format!("{w:08x}")).collect();
        let _ = writeln!(t, "// t{th}: {}", words.join(" "));
    }
    t
}

/// The keys of the program header, as [`Program::text`] prints them.
const HEADER_KEYS: [&str; 6] = ["name", "target", "threads", "inputs", "outputs", "shared"];

fn header_fields(line: usize, text: &str) -> Result<Program, TextError> {
    let mut kv = BTreeMap::new();
    for item in text.split_whitespace() {
        let Some((k, v)) = item.split_once('=') else {
            return err(line, format!("`{item}` in the program header is not key=value"));
        };
        if !HEADER_KEYS.contains(&k) {
            return err(line, format!("unknown key `{k}` in the program header (it has {})", HEADER_KEYS.join(", ")));
        }
        if kv.insert(k, v).is_some() {
            return err(line, format!("`{k}` given twice in the program header"));
        }
    }
    let get = |k: &str| kv.get(k).copied().ok_or(TextError { line, message: format!("program header lacks `{k}=`") });
    let num = |k: &str| -> Result<u32, TextError> {
        get(k)?.parse().map_err(|_| TextError { line, message: format!("`{k}` is not a number") })
    };
    let name = get("name")?.to_string();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return err(line, format!("`{name}` is not a valid entry name"));
    }
    let target: Target = get("target")?.parse().map_err(|e| TextError { line, message: format!("{e}") })?;
    let p = Program {
        name,
        target,
        launch: Launch::one_cta(num("threads")?),
        inputs: num("inputs")?,
        outputs: num("outputs")?,
        shared: num("shared")?,
        body: Vec::new(),
    };
    let threads = p.threads();
    if threads == 0 || !threads.is_multiple_of(32) || threads > MAX_THREADS {
        return err(line, format!("threads={threads} is not a multiple of 32 in 32..={MAX_THREADS}"));
    }
    if !p.inputs.is_multiple_of(4) || p.inputs > MAX_INPUTS {
        return err(line, format!("inputs={} is not a multiple of 4 in 0..={MAX_INPUTS} (words per thread)", p.inputs));
    }
    if ![1, 2, 4].contains(&p.outputs) || p.outputs > MAX_OUTPUTS {
        return err(line, format!("outputs={} is not 1, 2 or 4", p.outputs));
    }
    if !p.shared.is_multiple_of(4) {
        return err(line, format!("shared={} is not a multiple of 4", p.shared));
    }
    let shared_bytes = 4 * u64::from(p.shared) * u64::from(threads);
    if shared_bytes > MAX_SHARED_BYTES {
        return err(
            line,
            format!(
                "shared={} words per thread × {threads} threads is {shared_bytes} bytes of shared memory; a CTA may have at most {MAX_SHARED_BYTES} bytes (227 KiB), so shared= may be at most {} here",
                p.shared,
                MAX_SHARED_BYTES / 4 / u64::from(threads) / 4 * 4
            ),
        );
    }
    Ok(p)
}

fn guard_of(line: usize, s: &str) -> Result<(Option<PredGuard>, &str), TextError> {
    let Some(rest) = s.strip_prefix('@') else { return Ok((None, s)) };
    let (g, rest) =
        rest.split_once(char::is_whitespace).ok_or(TextError { line, message: "guard without instruction".into() })?;
    let (negated, p) = match g.strip_prefix('!') {
        Some(p) => (true, p),
        None => (false, g),
    };
    match Reg::parse(p) {
        Some(Reg::Virt(RegClass::Pred, n)) => Ok((Some(PredGuard { pred: n, negated }), rest.trim_start())),
        _ => err(line, format!("guard `{g}` is not a predicate register %p<n>")),
    }
}

fn label_of(line: usize, s: &str) -> Result<u32, TextError> {
    s.strip_prefix("$L")
        .and_then(|n| n.parse().ok())
        .ok_or(TextError { line, message: format!("`{s}` is not a label $L<n>") })
}

/// Parses one body statement.
pub fn parse_stmt(line: usize, text: &str) -> Result<Stmt, TextError> {
    let s = text.trim();
    if let Some(l) = s.strip_suffix(':') {
        return Ok(Stmt::Label(label_of(line, l)?));
    }
    if s == "bar.sync 0;" || s == "bar.sync 0" {
        return Ok(Stmt::Bar);
    }
    let (guard, rest) = guard_of(line, s)?;
    if let Some(target) = rest.strip_prefix("bra ") {
        let target = target.trim().trim_end_matches(';').trim();
        return Ok(Stmt::Bra { guard, label: label_of(line, target)? });
    }
    let mnemonic = rest.split(['.', ' ', '\t']).next().unwrap_or("");
    if glue::MNEMONICS.contains(&mnemonic) {
        let glue = Glue::parse(rest).map_err(|e| TextError { line, message: e.to_string() })?;
        return Ok(Stmt::Glue { guard, glue });
    }
    let inst: Instruction =
        s.parse().map_err(|e: crate::isa::ParseError| TextError { line, message: e.to_string() })?;
    Ok(Stmt::Isa(inst))
}

/// Parses every program of a module.
pub fn parse_module(text: &str) -> Result<Vec<Program>, TextError> {
    let mut out = Vec::new();
    let mut current: Option<(Program, bool)> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if let Some(rest) = line.strip_prefix(HEADER) {
            if current.is_some() {
                return err(n, "a program header before the previous program's `// end body`");
            }
            current = Some((header_fields(n, rest)?, false));
            continue;
        }
        let Some((p, in_body)) = current.as_mut() else { continue };
        if line == BEGIN {
            *in_body = true;
        } else if line == END {
            if !*in_body {
                return err(n, "`// end body` without `// begin body`");
            }
            out.push(current.take().map(|(p, _)| p).expect("current is Some here"));
        } else if *in_body && !line.is_empty() && !line.starts_with("//") {
            p.body.push(parse_stmt(n, line)?);
        }
    }
    if current.is_some() {
        return err(text.lines().count(), "program without `// end body`");
    }
    Ok(out)
}

/// Parses a case: exactly one program and its inputs.
pub fn parse_case(text: &str) -> Result<(Program, Inputs), TextError> {
    let mut programs = parse_module(text)?;
    if programs.len() != 1 {
        return err(1, format!("a case holds one program, this text holds {}", programs.len()));
    }
    let p = programs.remove(0);
    check_frame(text, &p)?;
    let mut words = Vec::new();
    let mut seen = false;
    let mut next_thread = 0u32;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line == INPUTS {
            seen = true;
            continue;
        }
        if !seen || line.is_empty() {
            continue;
        }
        let Some(rest) = line.strip_prefix("// t") else {
            return err(i + 1, "expected `// t<thread>: <hex words>` in the inputs block");
        };
        let (t, ws) = rest.split_once(':').ok_or(TextError { line: i + 1, message: "missing `:`".into() })?;
        if t.parse::<u32>().ok() != Some(next_thread) {
            return err(i + 1, format!("expected inputs of thread {next_thread}"));
        }
        next_thread += 1;
        let row: Vec<&str> = ws.split_whitespace().collect();
        if row.len() != p.inputs as usize {
            return err(i + 1, format!("{} words given, the program reads {} per thread", row.len(), p.inputs));
        }
        for w in row {
            words.push(
                u32::from_str_radix(w, 16)
                    .map_err(|_| TextError { line: i + 1, message: format!("`{w}` is not hex") })?,
            );
        }
    }
    if !seen {
        return err(text.lines().count(), format!("no `{INPUTS}` block"));
    }
    if next_thread != p.threads() {
        return err(
            text.lines().count(),
            format!("inputs for {next_thread} threads, the program launches {}", p.threads()),
        );
    }
    Ok((p, Inputs(words)))
}

/// The lines of `text` outside the body and the inputs block that are not blank or comments,
/// with their 1-based line numbers; `.reg` declarations left out (they follow from the body).
fn frame_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut in_body = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line == BEGIN {
            in_body = true;
        } else if line == END {
            in_body = false;
        } else if line == INPUTS {
            break;
        } else if !in_body && !line.is_empty() && !line.starts_with("//") && !line.starts_with(".reg ") {
            out.push((i + 1, line));
        }
    }
    out
}

/// An error unless every line of the case's text outside the body (the module header, the
/// `.entry` line, the prologue and the epilogue) is, in order, a line ptxdiff prints there for
/// `p`. Lines may be left out (down to the short form: the program header, the body between
/// its markers and the inputs), since a case is run as ptxdiff prints it; but a line that is
/// not the printer's (a second `.entry`, a changed prologue, stray text) would be silently
/// ignored, so it is an error. Comments, blank lines and `.reg` declarations are free.
fn check_frame(text: &str, p: &Program) -> Result<(), TextError> {
    let got = frame_lines(text);
    if got.is_empty() {
        // The short form: nothing to check, and no module to print.
        return Ok(());
    }
    let printed = module(std::slice::from_ref(p));
    let want = frame_lines(&printed);
    let mut next = 0;
    for (n, line) in got {
        match want[next..].iter().position(|&(_, w)| w == line) {
            Some(k) => next += k + 1,
            None if want.iter().any(|&(_, w)| w == line) => {
                return err(n, format!("`{line}` is out of place (given twice, or out of order) in the case's frame"))
            }
            None => {
                return err(
                    n,
                    format!(
                        "`{line}` is not what ptxdiff prints for this program: outside `// begin body` … `// end body` \
                         a case holds only lines of the fixed frame (edit the body and the inputs, nothing else)"
                    ),
                )
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{Cmp, GlueOp, GlueType, Special, Src};

    pub(crate) fn sample() -> Program {
        let mut p = Program {
            name: "k0".into(),
            target: "sm_90a@8.7".parse().unwrap(),
            launch: Launch::one_cta(64),
            inputs: 4,
            outputs: 2,
            shared: 4,
            body: Vec::new(),
        };
        p.body = EXAMPLE_BODY.iter().enumerate().map(|(i, l)| parse_stmt(i + 1, l).unwrap()).collect();
        p
    }

    #[test]
    fn module_round_trips() {
        let p = sample();
        let mut q = p.clone();
        q.name = "k1".into();
        q.body.push(Stmt::Glue {
            guard: None,
            glue: Glue {
                op: GlueOp::Setp(Cmp::Ge),
                ty: GlueType::U64,
                dst: Reg::Virt(RegClass::Pred, 2),
                src: [Some(Src::Reg(Reg::Special(Special::In))), Some(Src::Imm(3)), None, None],
            },
        });
        let text = module(&[p.clone(), q.clone()]);
        assert_eq!(parse_module(&text).unwrap(), vec![p.clone(), q]);
        let inputs = Inputs((0..64 * 4).collect());
        assert_eq!(parse_case(&case(&p, &inputs)).unwrap(), (p, inputs));
    }

    #[test]
    fn errors_name_the_line() {
        let p = sample();
        let text = p.module_text().replace("cvt.rn.f16.f32", "cvt.rn.f17.f32");
        let e = parse_module(&text).unwrap_err();
        assert!(text.lines().nth(e.line - 1).unwrap().contains("f17"), "{e}");
        let case_text = case(&p, &Inputs(vec![0; 64 * 4]));
        let bad = case_text.replace("// t3: 00000000", "// t3: 0000zz00");
        assert!(parse_case(&bad).unwrap_err().message.contains("not hex"));
        let short = case_text.lines().filter(|l| !l.starts_with("// t63")).collect::<Vec<_>>().join("\n");
        assert!(parse_case(&short).unwrap_err().message.contains("63 threads"));
        assert!(parse_module(&text.replace("threads=64", "threads=48")).is_err());
    }

    /// Issue 28: text outside the body, a second `.entry` and unknown header keys were ignored.
    #[test]
    fn a_case_is_its_header_body_and_inputs_and_nothing_else() {
        let p = sample();
        let text = case(&p, &Inputs(vec![0; 64 * 4]));
        let error = |t: String| parse_case(&t).unwrap_err();
        let e = error(text.replace("threads=64", "threads=64 blocks=2"));
        assert!(e.message.contains("unknown key `blocks`"), "{e}");
        let e = error(text.replace("name=", "shared=4 name="));
        assert!(e.message.contains("twice"), "{e}");
        let e = error(text.replace("// ptxdiff-inputs", "mov.u32 %r0, 1;\n// ptxdiff-inputs"));
        assert!(e.message.contains("`mov.u32 %r0, 1;` is not what ptxdiff prints"), "{e}");
        let e = error(text.replace("// begin body", "junk here\n// begin body"));
        assert!(e.message.contains("`junk here` is not what ptxdiff prints"), "{e}");
        let entry = text.lines().find(|l| l.contains(".entry")).unwrap();
        let e = error(text.replace("// ptxdiff-inputs", &format!("{entry}\n{{\nret;\n}}\n// ptxdiff-inputs")));
        assert!(e.message.contains(".entry") && e.message.contains("out of place"), "{e}");
        // Comments, blank lines and `.reg` declarations are free; so is the short form without
        // the frame at all.
        let free = text.replace("// begin body", "// a note\n\n.reg .b32 %extra;\n// begin body");
        assert_eq!(parse_case(&free).unwrap().0, p);
        let short: String = text
            .lines()
            .filter(|l| {
                let l = l.trim();
                l.is_empty() || l.starts_with("//") || {
                    let body = text.split("// begin body").nth(1).unwrap().split("// end body").next().unwrap();
                    body.lines().any(|b| b.trim() == l)
                }
            })
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(parse_case(&short).unwrap().0, p);
    }

    #[test]
    fn header_sizes_are_bounded_by_the_hardware() {
        let p = sample();
        let text = case(&p, &Inputs(vec![0; 64 * 4]));
        let header = |from: &str, to: &str| {
            assert!(text.contains(from), "{from}");
            parse_case(&text.replace(from, to)).unwrap_err().message
        };
        for shared in ["shared=4000000000", "shared=100000000", "shared=912"] {
            let e = header("shared=4", shared);
            assert!(e.contains("at most 232448 bytes") && e.contains("shared= may be at most 908"), "{e}");
        }
        let e = header("inputs=4", "inputs=4000000000");
        assert!(e.contains("inputs=4000000000") && e.contains("0..=256"), "{e}");
        let e = header("threads=64", "threads=4096");
        assert!(e.contains("32..=1024"), "{e}");
        let e = header("outputs=2", "outputs=8");
        assert!(e.contains("outputs=8"), "{e}");
    }
}
