//! `ptxdiff eval`: the JSON Lines batch contract of ../shared/ARCHITECTURE.md.
//!
//! One output line per input line, in order. Input `{"instr": "...", "operands": {"a": "0x…"}}`
//! with hex bit strings; output `{"d": "0x…"}`, a set object (`{"any_nan": "f16"}`,
//! `{"unspecified": true}`, or `{"bits": …, "free": […]}` when only part of a packed value is
//! free), or `{"error": "…"}` for a line that cannot be evaluated. Lines are evaluated in
//! parallel; parsed forms are cached per worker.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, Write};

use oracle::isa::Form;
use oracle::semantics::operands::{evaluate, Input, Output};
use oracle::semantics::{Allowances, Constraint, Expected};
use rayon::prelude::*;
use serde_json::{json, Map, Value};

/// Lines per parallel chunk.
const CHUNK: usize = 64 * 1024;

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
                    };
                    m.insert("allowance".into(), json!(f.allowance.name()));
                    Value::Object(m)
                })
                .collect();
            json!({ "bits": hex(e.bits), "free": fields })
        }
    }
}

fn parse_hex(name: &str, v: &Value) -> Result<u128, String> {
    let s = v.as_str().ok_or_else(|| format!("operand `{name}` must be a hex string like \"0x3f800000\""))?;
    let digits = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .ok_or_else(|| format!("operand `{name}` = \"{s}\" must start with 0x"))?;
    if digits.is_empty() || digits.len() > 32 {
        return Err(format!("operand `{name}` = \"{s}\" is not a hex value of at most 128 bits"));
    }
    u128::from_str_radix(digits, 16).map_err(|_| format!("operand `{name}` = \"{s}\" is not hexadecimal"))
}

/// Evaluates one input line; never fails (errors become `{"error": …}`).
pub fn eval_line(line: &str, cache: &mut HashMap<String, Result<Form, String>>, allow: &Allowances) -> String {
    let result = (|| -> Result<Value, String> {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
        let obj = v.as_object().ok_or("each line must be a JSON object")?;
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
                let n = values.keys().filter(|k| k.starts_with("a.")).count() as u8;
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
        Err(e) => json!({ "error": e }).to_string(),
    }
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

/// Streams `input` to `output`; returns the number of lines.
pub fn run(input: impl BufRead, mut output: impl Write, allow: &Allowances) -> std::io::Result<usize> {
    let mut lines = input.lines();
    let mut total = 0;
    loop {
        let chunk: Vec<String> = lines.by_ref().take(CHUNK).collect::<Result<_, _>>()?;
        if chunk.is_empty() {
            break;
        }
        let outs: Vec<String> =
            chunk.par_iter().map_init(HashMap::new, |cache, l| eval_line(l, cache, allow)).collect();
        for o in &outs {
            output.write_all(o.as_bytes())?;
            output.write_all(b"\n")?;
        }
        total += chunk.len();
    }
    output.flush()?;
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> String {
        eval_line(line, &mut HashMap::new(), &Allowances::all())
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
        let strict = eval_line(
            r#"{"instr": "isspacep.global", "operands": {"a": "0x1000"}}"#,
            &mut HashMap::new(),
            &Allowances::none(),
        );
        assert_eq!(strict, r#"{"p":true}"#);
    }

    const THIRTY_ONE_LANES: &str = r#"{"instr": "shfl.sync.up.b32", "operands": {"a": ["0x0","0x1","0x2","0x3","0x4","0x5","0x6","0x7","0x8","0x9","0xa","0xb","0xc","0xd","0xe","0xf","0x10","0x11","0x12","0x13","0x14","0x15","0x16","0x17","0x18","0x19","0x1a","0x1b","0x1c","0x1d","0x1e"], "b": "0x1", "c": "0x0", "membermask": "0xffffffff"}}"#;

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
            (r#"{"instr": "shfl.sync.wobble.b32", "operands": {}}"#, "wobble"),
            (r#"{"instr": "prmt.b32", "operands": {"a": ["0x1", "0x2"], "b": "0x0", "c": "0x0"}}"#, "per-thread form"),
        ] {
            let out = one(line);
            assert!(out.contains("\"error\"") && out.contains(needle), "{line} -> {out}");
        }
    }
}
