//! `ptxdiff eval`: the JSON Lines batch contract (docs/EVAL.md).
//!
//! One output line per input line, in order. Input `{"instr": "...", "operands": {"a": "0x…"}}`
//! with hex bit strings; output `{"d": "0x…"}`, a set object (`{"any_nan": "f16"}`,
//! `{"unspecified": true}`, or `{"bits": …, "free": […]}` when only part of a packed value is
//! free), or `{"error": "line N: …"}` for a line that cannot be evaluated (bad JSON, bad UTF-8,
//! a bad form or operand); evaluation always goes on. Lines that have arrived together are
//! evaluated in parallel (parsed forms cached per worker) and answered, and the output flushed,
//! before the next line is waited for, so another program can drive `eval` as a co-process.
//!
//! A program line (`{"program": […], …}`) is parsed into a [`oracle::memprog::MemSource`] ([`program_source`])
//! and run by the memory-program interpreter; `eval --backend NAME` ([`run_backend`]) runs the
//! program lines of its whole input on a backend instead (through [`crate::memrun::run_on`])
//! and answers with that backend's bytes.
//!
//! Limits (docs/EVAL.md), each checked before anything is allocated for it, and each an error
//! for its own line only: a line of at most [`MAX_LINE_BYTES`]; a program's limits
//! ([`oracle::memprog::MemSource::check_limits`]: 64 MiB of buffers, the target's shared memory
//! per CTA, statements × threads); and lines evaluated together hold at most
//! [`MAX_PROCESS_BYTES`] (input read ahead, and the buffers of the programs run at once).

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, Write};

use oracle::isa::Form;
use oracle::semantics::operands::{evaluate, Input, Output};
use oracle::semantics::{Allowances, Constraint, Expected};
use rayon::prelude::*;
use serde_json::{json, Map, Value};

use crate::program_line::{parse_hex, program_source, ALLOWANCES_KEY};

/// The most lines evaluated as one parallel batch (lines that are already waiting are batched;
/// a lone line is answered at once).
const CHUNK: usize = 64 * 1024;

/// The longest input line: a program line whose buffers reach the 64 MiB limit as hex is
/// 128 MiB. A longer line is read to its end without being kept, and answered with an error.
pub const MAX_LINE_BYTES: usize = 192 << 20;

/// The most bytes the lines being read ahead and evaluated at once may hold: their text, and
/// for program lines their buffers. Lines that would go past it wait for the ones before them.
pub const MAX_PROCESS_BYTES: u64 = 512 << 20;

/// The longest error message given back: errors may quote the input, which can be huge.
const MAX_ERROR_CHARS: usize = 240;

/// Renders a destination value as the contract's JSON: hex strings, set objects, `true`/`false`
/// for predicates, arrays of 32 for warp forms.
pub fn output_json(o: &Output) -> Value {
    match o {
        Output::Bits(e) => expected_json(e),
        Output::Pred(Some(p)) => json!(p),
        Output::Pred(None) => json!({ "unspecified": true }),
        Output::Lanes(v) => Value::Array(v.iter().map(output_json).collect()),
    }
}

/// Renders an expected value as the contract's JSON.
pub fn expected_json(e: &Expected) -> Value {
    let digits = e.width.div_ceil(4) as usize;
    let hex = |v: u128| Value::String(format!("0x{v:0digits$x}"));
    match e.free.as_slice() {
        [] => hex(e.bits),
        [f] if f.shift == 0 && f.width == e.width => match f.constraint {
            Constraint::AnyNan(fmt) => json!({ "any_nan": fmt.name }),
            Constraint::Any => json!({ "unspecified": true }),
            Constraint::OrValue(alt) => json!({ "one_of": [hex(e.bits), hex(alt)] }),
            Constraint::LessSteps { step, count } => json!({ "less_steps": { "step": hex(step), "count": count } }),
        },
        free => {
            let fields: Vec<Value> = free
                .iter()
                .map(|f| {
                    let mut m = Map::new();
                    m.insert("lsb".into(), json!(f.shift));
                    m.insert("width".into(), json!(f.width));
                    match f.constraint {
                        Constraint::AnyNan(fmt) => m.insert("any_nan".into(), json!(fmt.name)),
                        Constraint::Any => m.insert("unspecified".into(), json!(true)),
                        Constraint::OrValue(alt) => m.insert("or".into(), json!(format!("{alt:#x}"))),
                        Constraint::LessSteps { step, count } => {
                            m.insert("less_steps".into(), json!({ "step": format!("{step:#x}"), "count": count }))
                        }
                    };
                    m.insert("allowance".into(), json!(f.allowance.name()));
                    Value::Object(m)
                })
                .collect();
            json!({ "bits": hex(e.bits), "free": fields })
        }
    }
}

/// Evaluates one input line; never fails (errors become `{"error": …}`).
pub fn evaluate_line(line: &str, cache: &mut HashMap<String, Result<Form, String>>, allow: &Allowances) -> String {
    let result = (|| -> Result<Value, String> {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
        let obj = v.as_object().ok_or("each line must be a JSON object")?;
        if obj.contains_key("program") {
            return eval_program(obj, allow);
        }
        let instr = obj.get("instr").and_then(Value::as_str).ok_or("missing string field \"instr\"")?;
        let form =
            cache.entry(instr.to_string()).or_insert_with(|| resolve_form(instr).map_err(|e| e.to_string())).clone()?;
        let mut values = BTreeMap::new();
        if let Some(ops) = obj.get("operands") {
            let ops = ops.as_object().ok_or("\"operands\" must be an object of name: hex string (or array of 32)")?;
            for (k, v) in ops {
                let input = match v {
                    Value::Array(items) => {
                        Input::Lanes(items.iter().map(|x| parse_hex(k, x)).collect::<Result<_, _>>()?)
                    }
                    v => Input::Scalar(parse_hex(k, v)?),
                };
                values.insert(k.clone(), input);
            }
        }
        let form = match form {
            // mov's operand names say whether it packs: `a.x`, `a.y`, … are the elements.
            Form::Mov(m) if values.contains_key("a.x") => {
                let n = match values.keys().filter(|k| k.starts_with("a.")).count() {
                    2 => 2,
                    4 => 4,
                    n => return Err(format!("mov packs 2 or 4 elements (a.x, a.y[, a.z, a.w]); {n} given")),
                };
                Form::Mov(oracle::isa::Mov { shape: oracle::isa::MovShape::Pack(n), ..m })
            }
            f => f,
        };
        let active = match obj.get("active") {
            None => None,
            Some(v) => {
                let a = parse_hex("active", v)?;
                Some(u32::try_from(a).map_err(|_| "\"active\" must fit in 32 bits (one bit per lane)".to_string())?)
            }
        };
        let outs = evaluate(&form, &values, active, allow).map_err(|e| e.to_string())?;
        let mut m = Map::new();
        for (name, o) in outs {
            m.insert(name, output_json(&o));
        }
        Ok(Value::Object(m))
    })();
    match result {
        Ok(v) => v.to_string(),
        Err(e) => json!({ "error": shorten(&e) }).to_string(),
    }
}

/// A memory program line (docs/EVAL.md, program lines): runs the program and
/// gives the final hex of each `read` buffer, plus `"allowances"` naming, per buffer, the
/// allowances of its unknown (`??`) bytes when it has any.
fn eval_program(obj: &Map<String, Value>, allow: &Allowances) -> Result<Value, String> {
    let program = program_source(obj)?.build().map_err(|e| e.to_string())?;
    let regions = oracle::memprog::interp::run(&program, allow).map_err(|e| e.to_string())?;
    let mut out = Map::new();
    let mut allowances = Map::new();
    for &i in &program.read {
        let name = &program.buffers[i].name;
        out.insert(name.clone(), json!(regions[i].to_hex()));
        let a: Vec<&str> = regions[i].allowances().into_iter().map(|a| a.name()).collect();
        if !a.is_empty() {
            allowances.insert(name.clone(), json!(a));
        }
    }
    if !allowances.is_empty() {
        out.insert(ALLOWANCES_KEY.into(), Value::Object(allowances));
    }
    Ok(Value::Object(out))
}

/// `e` cut to [`MAX_ERROR_CHARS`] characters, saying how much was cut.
fn shorten(e: &str) -> String {
    match e.char_indices().nth(MAX_ERROR_CHARS) {
        None => e.to_string(),
        Some((at, _)) => format!("{}… ({} more bytes)", &e[..at], e.len() - at),
    }
}

/// One input line as read: its 1-based number and its text, or why it is not text.
type Line = (usize, Result<String, String>);

/// Evaluates one numbered line; errors name the line.
fn answer(line: &Line, cache: &mut HashMap<String, Result<Form, String>>, allow: &Allowances) -> String {
    let (n, text) = line;
    let out = match text {
        Ok(t) => evaluate_line(t, cache, allow),
        Err(e) => json!({ "error": e }).to_string(),
    };
    if out.starts_with(r#"{"error":"#) {
        let v: Value = serde_json::from_str(&out).unwrap_or(Value::Null);
        let msg = v["error"].as_str().unwrap_or_default();
        return json!({ "error": format!("line {n}: {msg}") }).to_string();
    }
    out
}

/// The form an `instr` names: an opcode (`cvt.rn.f16.f32`), or — for forms whose operand
/// list decides the shape, such as mov's unpack — a whole instruction with placeholder
/// operands (`mov.b32 {d.x, d.y}, a`).
pub fn resolve_form(instr: &str) -> Result<Form, oracle::isa::ParseError> {
    if instr.trim().contains(char::is_whitespace) {
        return instr.parse::<oracle::isa::Instruction>().map(|i| i.form);
    }
    Form::parse_opcode(instr)
}

/// Bytes of input read ahead and not yet answered, shared by the reading thread (which waits
/// while they are over [`MAX_PROCESS_BYTES`]) and the evaluating one.
#[derive(Default)]
struct InFlight {
    bytes: std::sync::Mutex<u64>,
    freed: std::sync::Condvar,
}

impl InFlight {
    /// Waits until `n` more bytes fit (or nothing is in flight), then counts them.
    fn take(&self, n: u64) {
        let mut b = self.bytes.lock().unwrap_or_else(|e| e.into_inner());
        while *b > 0 && b.saturating_add(n) > MAX_PROCESS_BYTES {
            b = self.freed.wait(b).unwrap_or_else(|e| e.into_inner());
        }
        *b = b.saturating_add(n);
    }

    /// Counts `n` bytes as answered.
    fn give(&self, n: u64) {
        let mut b = self.bytes.lock().unwrap_or_else(|e| e.into_inner());
        *b = b.saturating_sub(n);
        self.freed.notify_all();
    }
}

/// Reads one line of at most [`MAX_LINE_BYTES`] into `buf` (without its `\n`); a longer one is
/// read to its end and dropped. `Ok(None)` at the end of the input; `Ok(Some(false))` for a
/// line that was too long.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    use std::io::Read as _;
    buf.clear();
    let n = input.by_ref().take(MAX_LINE_BYTES as u64 + 1).read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        return Ok(Some(true));
    }
    if buf.len() <= MAX_LINE_BYTES {
        return Ok(Some(true)); // the last line, without a newline
    }
    buf.clear();
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(Some(false));
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                return Ok(Some(false));
            }
            None => {
                let all = chunk.len();
                input.consume(all);
            }
        }
    }
}

/// Reads `input` line by line on its own thread and sends each line (or the I/O error that
/// ended the input) to `tx`, keeping the bytes read ahead within [`MAX_PROCESS_BYTES`]
/// (`in_flight`). Bad UTF-8 and a line over [`MAX_LINE_BYTES`] are bad lines, not the end.
fn read_lines(mut input: impl BufRead, tx: std::sync::mpsc::Sender<std::io::Result<Line>>, in_flight: &InFlight) {
    let mut n = 0;
    let mut buf = Vec::new();
    loop {
        match read_line(&mut input, &mut buf) {
            Ok(None) => return,
            Ok(Some(fits)) => {
                n += 1;
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                let text = if fits {
                    String::from_utf8(std::mem::take(&mut buf))
                        .map_err(|e| format!("not UTF-8 (invalid byte at offset {})", e.utf8_error().valid_up_to()))
                } else {
                    Err(format!("longer than {} MiB, the longest line eval reads", MAX_LINE_BYTES >> 20))
                };
                in_flight.take(line_bytes(&text));
                if tx.send(Ok((n, text))).is_err() {
                    return;
                }
            }
            Err(e) => {
                let _ = tx.send(Err(e));
                return;
            }
        }
    }
}

/// The bytes a line read ahead is counted as.
fn line_bytes(text: &Result<String, String>) -> u64 {
    text.as_ref().map_or(0, |t| t.len() as u64)
}

/// The bytes the buffers of a program line will hold when it runs (0 for any other line, and
/// for one that is refused before anything is allocated).
fn program_bytes(text: &Result<String, String>) -> u64 {
    let Ok(t) = text else { return 0 };
    if !t.contains("\"program\"") {
        return 0;
    }
    let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(t) else { return 0 };
    match program_source(&obj) {
        Ok(src) if src.check_limits().is_ok() => src.buffer_bytes(),
        _ => 0,
    }
}

/// Streams `input` to `output`: every line that has arrived is evaluated (in parallel) and
/// answered, and the output flushed, before waiting for more. Returns the number of lines; an
/// I/O error ends the run after the lines before it were answered.
pub fn run<R: BufRead + Send>(input: R, mut output: impl Write, allow: &Allowances) -> std::io::Result<usize> {
    let (tx, rx) = std::sync::mpsc::channel();
    let in_flight = InFlight::default();
    std::thread::scope(|s| {
        let reading = &in_flight;
        s.spawn(move || read_lines(input, tx, reading));
        let mut total = 0;
        // Blocks for the first line of a batch, then takes whatever else is already waiting.
        while let Ok(first) = rx.recv() {
            let mut batch = vec![first];
            while batch.len() < CHUNK {
                match rx.try_recv() {
                    Ok(l) => batch.push(l),
                    Err(_) => break,
                }
            }
            let mut lines: Vec<Line> = Vec::with_capacity(batch.len());
            let mut failure = None;
            for l in batch {
                match l {
                    Ok(l) => lines.push(l),
                    Err(e) => {
                        failure = Some(e);
                        break;
                    }
                }
            }
            // Lines run together while their buffers fit in what is left of the budget.
            let read: u64 = lines.iter().map(|l| line_bytes(&l.1)).sum();
            let weights: Vec<u64> = lines.par_iter().map(|l| program_bytes(&l.1)).collect();
            let mut at = 0;
            while at < lines.len() {
                let mut end = at + 1;
                let mut sum = weights[at];
                while end < lines.len() && sum.saturating_add(read).saturating_add(weights[end]) <= MAX_PROCESS_BYTES {
                    sum += weights[end];
                    end += 1;
                }
                let outs: Vec<String> =
                    lines[at..end].par_iter().map_init(HashMap::new, |cache, l| answer(l, cache, allow)).collect();
                for o in &outs {
                    output.write_all(o.as_bytes())?;
                    output.write_all(b"\n")?;
                }
                at = end;
            }
            output.flush()?;
            in_flight.give(read);
            total += lines.len();
            if let Some(e) = failure {
                return Err(e);
            }
        }
        Ok(total)
    })
}

/// How long `eval --backend` waits for one batch of programs; past it the program running is
/// a hang.
pub const BACKEND_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);

/// One program line made ready for a backend, or its answer already.
enum Pending {
    Run(oracle::memprog::MemProgram),
    Answer(Value),
}

/// What a backend's result of one program line says, as the contract's JSON: the read
/// buffers' hex (every byte known), or an error naming the failure.
fn backend_answer(p: &oracle::memprog::MemProgram, r: crate::memrun::GpuResult) -> Value {
    use crate::backend::Failure;
    use crate::memrun::GpuResult;
    match r {
        GpuResult::Bytes(buffers) => {
            let mut out = Map::new();
            for (&k, bytes) in p.read.iter().zip(&buffers) {
                let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
                out.insert(p.buffers[k].name.clone(), json!(hex));
            }
            Value::Object(out)
        }
        GpuResult::Failed(Failure::Rejected { by, message }) => {
            json!({ "error": shorten(&format!("rejected by {by}: {message}")) })
        }
        GpuResult::Failed(Failure::Crash { by, how, message }) => {
            json!({ "error": shorten(&format!("{how} on {by}: {message}")) })
        }
        GpuResult::EncodeRejected { param, error } => {
            // Parameters: the pointers first, then the tensor maps in order.
            let printed = oracle::memprog::ptx::module(&[p]).ok();
            let pointers = printed.map_or(0, |m| {
                m.kernels[0]
                    .params
                    .iter()
                    .filter(|x| matches!(x, oracle::memprog::ptx::KernelParam::Pointer { .. }))
                    .count()
            });
            let name = param.checked_sub(pointers).and_then(|j| p.tensor_maps.get(j)).map_or("?", |t| &t.name);
            json!({ "error": format!("the driver refused tensor map `{name}`: {error}") })
        }
    }
}

/// `ptxdiff eval --backend NAME`: every program line of `input` runs on `backend` (all of
/// them as one module) and is answered with the backend's bytes of its `read` buffers, or
/// `{"error": "line N: …"}` (a line that is no program line, a program that cannot be built
/// or printed, a rejection, fault, hang or refused tensor map). Returns the number of lines.
pub fn run_backend(
    input: impl BufRead,
    mut output: impl Write,
    backend: &mut dyn crate::backend::Backend,
) -> std::io::Result<usize> {
    let mut pending = Vec::new();
    for (n, line) in input.split(b'\n').enumerate() {
        let line = line?;
        let text = String::from_utf8(line).map_err(|_| "not UTF-8".to_string());
        let p = text.and_then(|t| {
            let v: Value = serde_json::from_str(t.trim_end_matches('\r')).map_err(|e| format!("not JSON: {e}"))?;
            let obj = v.as_object().ok_or("each line must be a JSON object")?;
            if !obj.contains_key("program") {
                return Err(format!(
                    "eval --backend {} runs program lines only; evaluate instruction lines without --backend",
                    backend.name()
                ));
            }
            let p = program_source(obj)?.build().map_err(|e| e.to_string())?;
            oracle::memprog::ptx::module(&[&p]).map_err(|e| e.to_string())?;
            Ok(p)
        });
        pending.push(match p {
            Ok(p) => Pending::Run(p),
            Err(e) => Pending::Answer(json!({ "error": shorten(&format!("line {}: {e}", n + 1)) })),
        });
    }
    let programs: Vec<&oracle::memprog::MemProgram> = pending
        .iter()
        .filter_map(|p| match p {
            Pending::Run(p) => Some(p),
            Pending::Answer(_) => None,
        })
        .collect();
    let mut results = match crate::memrun::run_on(backend, &programs, BACKEND_TIMEOUT) {
        Ok(r) => r.into_iter().map(Ok).collect::<Vec<_>>(),
        Err(e) => vec![Err(e); programs.len()],
    }
    .into_iter();
    for (n, p) in pending.iter().enumerate() {
        let answer = match p {
            Pending::Answer(a) => a.clone(),
            Pending::Run(p) => match results.next() {
                Some(Ok(r)) => backend_answer(p, r),
                Some(Err(e)) => json!({ "error": shorten(&format!("backend {}: {e}", backend.name())) }),
                None => json!({ "error": "no result" }),
            },
        };
        let answer = match answer.get("error").and_then(Value::as_str) {
            Some(e) if !e.starts_with("line ") => json!({ "error": format!("line {}: {e}", n + 1) }),
            _ => answer,
        };
        writeln!(output, "{answer}")?;
    }
    output.flush()?;
    Ok(pending.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> String {
        evaluate_line(line, &mut HashMap::new(), &Allowances::all())
    }

    #[test]
    fn contract_example() {
        assert_eq!(
            one(r#"{"instr": "cvt.rn.satfinite.e4m3x2.f32", "operands": {"a": "0x43e00000", "b": "0xff800000"}}"#),
            r#"{"d":"0x7efe"}"#
        );
        assert_eq!(
            one(r#"{"instr": "cvt.rn.f16.f32", "operands": {"a": "0x7fc00000"}}"#),
            r#"{"d":{"any_nan":"f16"}}"#
        );
        assert_eq!(
            one(r#"{"instr": "cvt.rn.f16x2.f32", "operands": {"a": "0x7fc00000", "b": "0x3f800000"}}"#),
            r#"{"d":{"bits":"0x7fff3c00","free":[{"allowance":"nan-payload","any_nan":"f16","lsb":16,"width":16}]}}"#
        );
        assert_eq!(
            one(r#"{"instr": "cvt.pack.sat.s16.s32", "operands": {"a": "0x00011170", "b": "0xfffeee90"}}"#),
            r#"{"d":"0x7fff8000"}"#
        );
    }

    #[test]
    fn warp_and_register_forms() {
        let lanes: Vec<String> = (0..32).map(|i| format!("\"0x{:x}\"", 100 + i)).collect();
        let line = format!(
            r#"{{"instr": "shfl.sync.bfly.b32", "operands": {{"a": [{}], "b": "0x1", "c": "0x1f", "membermask": "0xffffffff"}}, "active": "0x7fffffff"}}"#,
            lanes.join(", ")
        );
        let v: Value = serde_json::from_str(&one(&line)).unwrap();
        let d = v["d"].as_array().unwrap();
        assert_eq!(d.len(), 32);
        assert_eq!(d[0], json!("0x00000065"), "lane 0 reads lane 1");
        assert_eq!(d[30], json!({ "unspecified": true }), "lane 30 reads inactive lane 31");
        assert_eq!(d[31], json!({ "unspecified": true }), "lane 31 is inactive");
        assert_eq!(
            one(r#"{"instr": "prmt.b32", "operands": {"a": "0x33221100", "b": "0x77665544", "c": "0x00003210"}}"#),
            r#"{"d":"0x33221100"}"#
        );
        assert_eq!(
            one(r#"{"instr": "prmt.b32.rc8", "operands": {"a": "0x33221100", "b": "0x77665544", "c": "0x2"}}"#),
            r#"{"d":"0x22222222"}"#
        );
        assert_eq!(
            one(r#"{"instr": "mov.b32", "operands": {"a.x": "0x1234", "a.y": "0xabcd"}}"#),
            r#"{"d":"0xabcd1234"}"#
        );
        assert_eq!(
            one(r#"{"instr": "mov.b32 {d.x, d.y}, a", "operands": {"a": "0xabcd1234"}}"#),
            r#"{"d.x":"0x1234","d.y":"0xabcd"}"#
        );
        assert_eq!(
            one(r#"{"instr": "cvta.to.global.u64", "operands": {"a": "0x1000"}}"#),
            r#"{"p":{"unspecified":true}}"#
        );
        assert_eq!(
            one(r#"{"instr": "isspacep.global", "operands": {"a": "0x1000"}}"#),
            r#"{"p":{"unspecified":true}}"#
        );
        let strict = evaluate_line(
            r#"{"instr": "isspacep.global", "operands": {"a": "0x1000"}}"#,
            &mut HashMap::new(),
            &Allowances::none(),
        );
        assert_eq!(strict, r#"{"p":true}"#);
    }

    const THIRTY_ONE_LANES: &str = r#"{"instr": "shfl.sync.up.b32", "operands": {"a": ["0x0","0x1","0x2","0x3","0x4","0x5","0x6","0x7","0x8","0x9","0xa","0xb","0xc","0xd","0xe","0xf","0x10","0x11","0x12","0x13","0x14","0x15","0x16","0x17","0x18","0x19","0x1a","0x1b","0x1c","0x1d","0x1e"], "b": "0x1", "c": "0x0", "membermask": "0xffffffff"}}"#;

    #[test]
    fn a_bad_line_is_answered_with_its_number_and_the_run_goes_on() {
        let mut input = Vec::new();
        input.extend_from_slice(b"{\"instr\": \"cvt.rn.f16.f32\", \"operands\": {\"a\": \"0x3f800000\"}}\n");
        input.extend_from_slice(b"{\"instr\": \"cvt.rn.f16.f32\xff\"}\n");
        input.extend_from_slice(format!("{{\"instr\": \"cvt.{}\"}}\r\n", "x".repeat(100_000)).as_bytes());
        input.extend_from_slice(b"{\"instr\": \"cvt.rn.f16.f32\", \"operands\": {\"a\": \"0x40000000\"}}");
        let mut out = Vec::new();
        assert_eq!(run(&input[..], &mut out, &Allowances::all()).unwrap(), 4);
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        assert_eq!(lines[0], r#"{"d":"0x3c00"}"#);
        assert!(lines[1].contains("line 2: not UTF-8"), "{}", lines[1]);
        assert!(lines[2].starts_with(r#"{"error":"line 3: "#) && lines[2].len() < 400, "{}", &lines[2][..100]);
        assert_eq!(lines[3], r#"{"d":"0x4000"}"#);
    }

    #[test]
    fn each_line_is_answered_before_the_next_is_read() {
        use std::io::{BufReader, Read};
        // A reader that hands out one line, then blocks until the answer to it has been seen.
        let (seen_tx, seen_rx) = std::sync::mpsc::channel::<()>();
        struct Gate {
            lines: Vec<&'static [u8]>,
            seen: std::sync::mpsc::Receiver<()>,
        }
        impl Read for Gate {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                if self.lines.is_empty() {
                    return Ok(0);
                }
                let l = self.lines.remove(0);
                if self.lines.is_empty() {
                    // The last line goes out only once the first was answered.
                    self.seen.recv_timeout(std::time::Duration::from_secs(20)).map_err(std::io::Error::other)?;
                }
                buf[..l.len()].copy_from_slice(l);
                Ok(l.len())
            }
        }
        struct Watch(Vec<u8>, Option<std::sync::mpsc::Sender<()>>);
        impl Write for Watch {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                if let Some(tx) = self.1.take() {
                    let _ = tx.send(());
                }
                Ok(())
            }
        }
        let gate = Gate {
            lines: vec![
                b"{\"instr\": \"cvt.rn.f16.f32\", \"operands\": {\"a\": \"0x3f800000\"}}\n",
                b"{\"instr\": \"cvt.rn.f16.f32\", \"operands\": {\"a\": \"0x40000000\"}}\n",
            ],
            seen: seen_rx,
        };
        let mut out = Watch(Vec::new(), Some(seen_tx));
        assert_eq!(run(BufReader::new(gate), &mut out, &Allowances::all()).unwrap(), 2);
        assert_eq!(String::from_utf8(out.0).unwrap(), "{\"d\":\"0x3c00\"}\n{\"d\":\"0x4000\"}\n");
    }

    #[test]
    fn a_pack_of_256_elements_is_an_error_not_a_crash() {
        let keys: Vec<String> = (0..256).map(|i| format!("\"a.{i}\": \"0x1\"")).collect();
        let line = format!(r#"{{"instr": "mov.b32", "operands": {{"a.x": "0x1", {}}}}}"#, keys.join(", "));
        let out = one(&line);
        assert!(out.contains("mov packs 2 or 4 elements"), "{out}");
    }

    #[test]
    fn bad_lines_give_errors() {
        for (line, needle) in [
            ("nonsense", "not JSON"),
            (r#"{"operands": {}}"#, "instr"),
            (r#"{"instr": "cvt.rn.f16.f33", "operands": {"a": "0x0"}}"#, "f33"),
            (r#"{"instr": "cvt.rn.f16.f32", "operands": {}}"#, "missing operand `a`"),
            (r#"{"instr": "cvt.rn.f16.f32", "operands": {"a": "0x1ffffffff"}}"#, "does not fit in 32 bits"),
            (r#"{"instr": "cvt.rn.f16.f32", "operands": {"a": "zz"}}"#, "must start with 0x"),
            (r#"{"instr": "cvt.rn.f16.f32", "operands": {"q": "0x1"}}"#, "unknown operand `q`"),
            (r#"{"instr": "cvt.rn.f32.f32", "operands": {"a": "0x1"}}"#, "not a legal form"),
            (r#"{"instr": "ld.global.u32", "operands": {}}"#, "no value semantics"),
            (
                r#"{"instr": "shfl.sync.idx.b32", "operands": {"a": ["0x1"], "b": "0x0", "c": "0x1f", "membermask": "0xffffffff"}}"#,
                "a warp has 32 lanes, 1 values given",
            ),
            (THIRTY_ONE_LANES, "a warp has 32 lanes, 31 values given"),
            (
                r#"{"instr": "shfl.sync.idx.b32", "operands": {"a": "0x1", "b": "0x0", "c": "0x1f", "membermask": "0xffffffff"}, "active": "0x1ffffffff"}"#,
                "must fit in 32 bits",
            ),
            (r#"{"instr": "mov.u32 %r1, %tid.x", "operands": {}}"#, "depends on the launch"),
            (r#"{"instr": "mov.b32", "operands": {"a.x": "0x1", "a.y": "0x2", "a.z": "0x3"}}"#, "3 given"),
            (r#"{"instr": "shfl.sync.wobble.b32", "operands": {}}"#, "wobble"),
            (r#"{"instr": "prmt.b32", "operands": {"a": ["0x1", "0x2"], "b": "0x0", "c": "0x0"}}"#, "per-thread form"),
        ] {
            let out = one(line);
            assert!(out.contains("\"error\"") && out.contains(needle), "{line} -> {out}");
        }
    }
}
