//! `ptxdiff explain`: one instruction, evaluated for a person at a terminal.
//!
//! The instruction is an opcode or, where the operand list decides the shape (mov's pack and
//! unpack), a whole instruction with placeholder operands, read by `eval`'s parser
//! ([`crate::eval::resolve_form`]). Operands are given positionally in the spec's order (the
//! sources only: `a`, `b`, `e`, `f`, `rbits`, `c`), each as a decimal (`1.5`, `-inf`, `nan`,
//! `-3`), a hex float (`0x1.8p3`) or raw hex bits (`0x3fc00000`); decimals and hex floats are
//! read exactly and rounded once by the oracle's engine (`oracle::num::parse_real`). The output
//! shows every operand as hex bits and decoded value, each result lane with its class, the rule
//! that decided it — as `oracle::semantics::cvt::eval_explained` reports it, so it cannot
//! disagree with the result — and any allowance that makes the result a set. Nothing here
//! decides semantics.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use anyhow::{anyhow, bail, Context, Result};
use oracle::isa::{Cvt, CvtType, Form};
use oracle::num::{classify, decode, encode, parse_real, Class, Format, Overflow, Rounding, Value, F64};
use oracle::semantics::cvt::{self, format_of, CvtInputs, LaneRule};
use oracle::semantics::operands::{evaluate, is_warp_form, source_slots, Input, Output};
use oracle::semantics::{Allowances, Expected};

/// How a source slot's text is read.
#[derive(Clone, Copy)]
enum SlotType {
    Float(&'static Format),
    Int { bits: u32, signed: bool },
    Raw(u32),
}

fn slot_type(form: &Form, name: &str, width: u32) -> SlotType {
    if let Form::Cvt(c) = form {
        if matches!(name, "a" | "b" | "e" | "f") {
            let t = if matches!(name, "b" | "e" | "f") { CvtType::F32 } else { c.atype };
            if t.is_int() {
                return SlotType::Int { bits: t.bits(), signed: t.is_signed_int() };
            }
            if t.is_scalar_float() {
                if let Some(f) = format_of(t) {
                    return SlotType::Float(f);
                }
            }
        }
    }
    if let Form::CvtPack(_) = form {
        if matches!(name, "a" | "b") {
            return SlotType::Int { bits: 32, signed: true };
        }
    }
    SlotType::Raw(width)
}

/// Reads one operand value as bits of its slot.
fn parse_value(text: &str, ty: SlotType) -> Result<u128> {
    let t = text.trim();
    let raw = |w: u32| -> Result<u128> {
        let h = t
            .strip_prefix("0x")
            .or_else(|| t.strip_prefix("0X"))
            .ok_or_else(|| anyhow!("`{t}`: expected raw hex bits like 0x3c00"))?;
        let v = u128::from_str_radix(h, 16).map_err(|_| anyhow!("`{t}` is not hexadecimal"))?;
        if w < 128 && v >> w != 0 {
            bail!("`{t}` does not fit in {w} bits");
        }
        Ok(v)
    };
    match ty {
        SlotType::Raw(w) if !(t.starts_with("0x") || t.starts_with("0X")) => {
            let v: u128 =
                t.parse().map_err(|_| anyhow!("`{t}`: expected raw hex bits like 0x3c00 or an unsigned integer"))?;
            if w < 128 && v >> w != 0 {
                bail!("`{t}` does not fit in {w} bits");
            }
            Ok(v)
        }
        SlotType::Raw(w) => raw(w),
        SlotType::Int { bits, signed } => {
            if t.starts_with("0x") || t.starts_with("0X") {
                return raw(bits);
            }
            let v: i128 = t.parse().map_err(|_| anyhow!("`{t}` is not an integer"))?;
            let (lo, hi) =
                if signed { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) } else { (0, (1i128 << bits) - 1) };
            if v < lo || v > hi {
                bail!("`{t}` is out of range for a {bits}-bit {} integer", if signed { "signed" } else { "unsigned" });
            }
            Ok((v as u128) & ((1u128 << bits) - 1))
        }
        SlotType::Float(f) => {
            let lower = t.to_ascii_lowercase();
            let neg = lower.starts_with('-');
            let word = lower.trim_start_matches(['-', '+']);
            let sign = if neg { 1u128 << f.sign_shift() } else { 0 };
            if word == "inf" || word == "infinity" {
                return Ok(u128::from(f.inf_bits().ok_or_else(|| anyhow!("{} has no infinity", f.name))?) | sign);
            }
            if word == "nan" {
                return Ok(u128::from(f.canonical_nan_bits().ok_or_else(|| anyhow!("{} has no NaN", f.name))?) | sign);
            }
            if lower.starts_with("0x") && !lower.contains('p') {
                return raw(f.bits());
            }
            // Decimal or hex float: read exactly, rounded once by the oracle's engine.
            let v = parse_real(t)
                .ok_or_else(|| anyhow!("`{t}` is not a number (decimal, hex float like 0x1.8p3, or raw hex bits)"))?;
            Ok(u128::from(encode(f, v, Rounding::NearestEven, Overflow::Ieee).bits))
        }
    }
}

/// The decoded value of `bits` in `f`, as a person reads it, and its class
/// ([`oracle::num::classify`], with MAX_NORM named).
pub fn describe(f: &Format, bits: u64) -> (String, &'static str) {
    let v = decode(f, bits);
    let class = classify(f, bits);
    match v {
        Value::Nan { .. } => ("NaN".into(), "NaN"),
        Value::Inf { neg } => ((if neg { "-inf" } else { "+inf" }).into(), "infinity"),
        Value::Zero { neg } => ((if neg { "-0" } else { "+0" }).into(), "zero"),
        Value::Finite { .. } => {
            // Presentation only: every format here widens to f64 exactly.
            let x = f64::from_bits(encode(&F64, v, Rounding::NearestEven, Overflow::Ieee).bits);
            let mag = bits & !(if f.signed { 1u64 << f.sign_shift() } else { 0 });
            let class = match class {
                _ if mag == f.max_finite_bits() => "normal, MAX_NORM",
                Class::Subnormal => "subnormal",
                _ => "normal",
            };
            let text = if (1e-4..1e7).contains(&x.abs()) { format!("{x}") } else { format!("{x:e}") };
            (text, class)
        }
    }
}

fn hex(v: u128, width: u32) -> String {
    format!("0x{v:0w$x}", w = width.div_ceil(4) as usize)
}

/// Explains `instr` on `operand_texts`; returns the report text. Warp forms (`shfl.sync`)
/// take one value per operand for every lane, or a comma-separated list of 32; `active` is
/// the warp's active mask.
pub fn explain(instr: &str, operand_texts: &[String], active: Option<u32>, allow: &Allowances) -> Result<String> {
    let form = crate::eval::resolve_form(instr)?;
    let req = form.check().map_err(|e| anyhow!("`{instr}` is not a legal form: {e}"))?;
    let slots = source_slots(&form);
    if operand_texts.len() != slots.len() {
        let names: Vec<&str> = slots.iter().map(|s| s.name.as_str()).collect();
        bail!(
            "`{instr}` reads {} source operand(s) ({}), {} given",
            slots.len(),
            names.join(", "),
            operand_texts.len()
        );
    }
    let warp = is_warp_form(&form);
    let mut values = BTreeMap::new();
    let mut scalars = BTreeMap::new();
    let mut out = String::new();
    let _ = writeln!(out, "{}    (§{}; needs {req})", form.template(), form.family().section());
    for (slot, text) in slots.iter().zip(operand_texts) {
        let ty = slot_type(&form, &slot.name, slot.width);
        let parts: Vec<&str> = if warp { text.split(',').collect() } else { vec![text.as_str()] };
        if parts.len() != 1 && parts.len() != 32 {
            bail!(
                "operand `{}`: give one value for every lane or 32 comma-separated values, not {}",
                slot.name,
                parts.len()
            );
        }
        let vals: Vec<u128> = parts
            .iter()
            .map(|p| parse_value(p, ty))
            .collect::<Result<_>>()
            .with_context(|| format!("operand `{}`", slot.name))?;
        if let [v] = vals.as_slice() {
            let shown = match ty {
                SlotType::Float(f) => {
                    let (val, class) = describe(f, *v as u64);
                    format!("{:<6} {val:<14} ({class})", f.name)
                }
                SlotType::Int { bits, signed } => {
                    let x =
                        if signed && (v >> (bits - 1)) & 1 == 1 { *v as i128 - (1i128 << bits) } else { *v as i128 };
                    format!("{}{bits:<3}  {x}", if signed { "s" } else { "u" })
                }
                SlotType::Raw(w) => format!("b{w}"),
            };
            let _ = writeln!(out, "  {:<10} {:<20} {shown}", slot.name, hex(*v, slot.width));
            scalars.insert(slot.name.clone(), *v);
            values.insert(slot.name.clone(), Input::Scalar(*v));
        } else {
            let _ = writeln!(out, "  {:<10} (32 lanes) {}", slot.name, parts.join(","));
            values.insert(slot.name.clone(), Input::Lanes(vals));
        }
    }
    let results = evaluate(&form, &values, active, allow)?;
    if warp {
        explain_warp(&mut out, &form, &values, active, &results);
        return Ok(out);
    }
    for (name, o) in &results {
        match o {
            Output::Bits(e) => {
                let _ = writeln!(out, "  {:<10} {:<20} {}", name, hex(e.bits, e.width), set_note(e));
                if let Form::Cvt(c) = &form {
                    explain_cvt_lanes(&mut out, c, e, &scalars, allow);
                }
            }
            Output::Pred(p) => {
                let _ = writeln!(out, "  {:<10} {}", name, pred_text(*p));
            }
            Output::Lanes(_) => {}
        }
    }
    if let Some(note) = family_note(&form) {
        let _ = writeln!(out, "  rule: {note}");
    }
    Ok(out)
}

fn pred_text(p: Option<bool>) -> String {
    match p {
        Some(b) => b.to_string(),
        None => "unspecified (a set: true or false) [allowance address-window or undefined]".into(),
    }
}

/// The rule that decides a non-cvt result.
fn family_note(form: &Form) -> Option<&'static str> {
    Some(match form {
        Form::CvtPack(_) => "a and b saturate to .convertType and pack from the low bits (b lowest); c fills the rest (§9.7.9.22)",
        Form::Prmt(p) if p.mode.is_none() => {
            "each 4-bit selector of c picks a byte of {b, a}; selector bit 3 replicates the byte's sign (§9.7.9.7)"
        }
        Form::Prmt(_) => "c[1:0] picks a row of the mode's table (§9.7.9.7)",
        Form::Mov(_) => "copy, or pack/unpack with element x in the lowest bits (§9.7.9.3, §9.7.9.4)",
        Form::Cvta(_) | Form::Isspacep(_) | Form::Mapa(_) | Form::Getctarank(_) => {
            "the spec fixes only relations between address values (round trips, window membership); the value is the oracle's address model, one member of the set (§9.7.9.19-24) [allowance address-window]"
        }
        _ => return None,
    })
}

fn explain_warp(
    out: &mut String,
    form: &Form,
    values: &BTreeMap<String, Input>,
    active: Option<u32>,
    results: &[(String, Output)],
) {
    let mode = match form {
        Form::ShflSync(s) => s.mode,
        Form::Shfl(s) => s.mode,
        _ => return,
    };
    let lane_val = |name: &str, lane: usize| match values.get(name) {
        Some(Input::Scalar(v)) => *v,
        Some(Input::Lanes(v)) => v[lane],
        None => 0,
    };
    let active = active.unwrap_or(u32::MAX);
    let _ = writeln!(out, "  active     0x{active:08x}");
    let _ = writeln!(out, "  lane  src  d            p");
    for lane in 0..32usize {
        let (j, _) = oracle::semantics::shfl::source_lane(
            mode,
            lane as u32,
            lane_val("b", lane) as u32,
            lane_val("c", lane) as u32,
        );
        let get = |name: &str| {
            results.iter().find(|(n, _)| n == name).and_then(|(_, o)| match o {
                Output::Lanes(v) => v.get(lane).cloned(),
                _ => None,
            })
        };
        let d = match get("d") {
            Some(Output::Bits(e)) if e.is_exact() => hex(e.bits, 32),
            Some(Output::Bits(_)) => "unspecified".into(),
            _ => String::new(),
        };
        let p = match get("p") {
            Some(Output::Pred(Some(b))) => b.to_string(),
            Some(Output::Pred(None)) => "unspecified".into(),
            _ => "-".into(),
        };
        let _ = writeln!(out, "  {lane:>4}  {j:>3}  {d:<12} {p}");
    }
    let _ = writeln!(
        out,
        "  rule: j from b[4:0], clamp c[4:0] and segment mask c[12:8]; out of range reads its own a; reading an inactive or non-member lane is undefined (§9.7.9.6) [allowance undefined]"
    );
}

fn set_note(e: &Expected) -> String {
    if e.is_exact() {
        "(exact result)".into()
    } else {
        format!("(a set: {e})")
    }
}

/// One line per lane of a cvt result, with the rule [`cvt::eval_explained`] says decided it.
fn explain_cvt_lanes(out: &mut String, c: &Cvt, e: &Expected, values: &BTreeMap<String, u128>, allow: &Allowances) {
    let get = |n: &str| values.get(n).copied().unwrap_or(0);
    let x = CvtInputs {
        a: get("a") as u64,
        b: get("b") as u64,
        e: get("e") as u64,
        f: get("f") as u64,
        rbits: get("rbits") as u32,
    };
    // The same evaluation as `e`'s (same code path), with the rule of every lane.
    let explained = cvt::eval_explained(c, &x, allow);
    debug_assert_eq!(&explained.expected, e);
    for LaneRule { lane, rule } in explained.lanes {
        let source = &lane.source;
        let from = if source.shift == 0 && source.width >= slot_bits(c, source.slot.name()) {
            source.slot.name().to_string()
        } else {
            format!("{}[{}:{}]", source.slot.name(), source.shift + source.width - 1, source.shift)
        };
        let bits = ((e.bits >> lane.shift) as u64) & (u64::MAX >> (64 - lane.width.min(64)));
        let Some(f) = lane.format else {
            let w = lane.width;
            let v = e.bits as i128;
            let x = if c.dtype.is_signed_int() && (v >> (w - 1)) & 1 == 1 { v - (1i128 << w) } else { v };
            let _ = writeln!(out, "           = {x}   from {from}: {}", rule.text());
            continue;
        };
        let (val, class) = describe(f, bits);
        // In the operands' columns (name, bits, type, value), whatever the lane's width.
        let _ = writeln!(
            out,
            "  {:<10} {:<20} {:<6} {:<14} {:<18} from {from}: {}",
            format!("d[{}:{}]", lane.shift + lane.width - 1, lane.shift),
            hex(u128::from(bits), f.bits()),
            f.name,
            val,
            format!("({class})"),
            rule.text()
        );
    }
}

/// Bits of source operand `name` of `c`.
fn slot_bits(c: &Cvt, name: &str) -> u32 {
    if name == "a" {
        c.atype.bits()
    } else {
        CvtType::F32.bits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(instr: &str, operands: &[&str]) -> Result<String> {
        let ops: Vec<String> = operands.iter().map(|s| s.to_string()).collect();
        explain(instr, &ops, None, &Allowances::all())
    }

    /// Issue 12: explain accepts the whole-instruction spelling `eval` accepts.
    #[test]
    fn mov_pack_and_unpack_written_as_instructions() {
        let out = run("mov.b32 {d.x, d.y}, a", &["0x12345678"]).unwrap();
        assert!(out.contains("0x5678") && out.contains("0x1234"), "{out}");
        let out = run("mov.b32 d, {a.x, a.y}", &["0x5678", "0x1234"]).unwrap();
        assert!(out.contains("0x12345678"), "{out}");
        assert!(run("mov.b32 {d.x, d.y}, a", &[]).is_err(), "operand count is still checked");
    }

    /// Issue 12: a decimal operand is rounded once, exactly: 1 + 2^-11 + a hair is 0x3c01 in
    /// f16, not the 0x3c00 a detour through f64 gives.
    #[test]
    fn decimal_operands_round_once() {
        let out = run("cvt.f32.f16", &["1.000488281250000000001"]).unwrap();
        assert!(out.contains("0x3c01"), "{out}");
        let out = run("cvt.rn.f16.f32", &["0.1"]).unwrap();
        assert!(out.contains("0x3dcccccd"), "{out}");
    }

    /// 64-bit destinations show all their bits (a shift by the full width once masked them all).
    #[test]
    fn sixty_four_bit_results_are_shown_whole() {
        let out = run("cvt.f64.f32", &["1.5"]).unwrap();
        assert!(out.contains("0x3ff8000000000000"), "{out}");
        let out = run("cvt.rni.s64.f32", &["-3"]).unwrap();
        assert!(out.contains("-3"), "{out}");
    }

    /// The rule shown is the one the evaluation followed, lane by lane.
    #[test]
    fn rules_come_from_the_evaluation() {
        let out = run("cvt.rn.satfinite.e4m3x2.f32", &["448", "-inf"]).unwrap();
        assert!(out.contains("d[15:8]") && out.contains("from a: exact conversion"), "{out}");
        assert!(out.contains("d[7:0]") && out.contains("from b: .satfinite"), "{out}");
        let out = run("cvt.rn.f16x2.f32", &["nan", "1"]).unwrap();
        assert!(out.contains("[allowance nan-payload]"), "{out}");
        let out = run("cvt.rn.satfinite.e4m3x2.f16x2", &["0x3c00bc00"]).unwrap();
        assert!(out.contains("from a[31:16]") && out.contains("from a[15:0]"), "{out}");
        let out = run("cvt.rzi.s32.f32", &["2.5"]).unwrap();
        assert!(out.contains("= 2") && out.contains("rounded to an integral value toward zero"), "{out}");
        let out = run("cvt.rn.f16.f32", &["1e6"]).unwrap();
        assert!(out.contains("overflow"), "{out}");
    }

    /// Lane lines share the operands' columns, bit ranges are written one way (`[15:8]`), and
    /// with `--allow-off nan-payload` nothing cites the allowance that is off.
    #[test]
    fn lanes_align_one_bit_notation_and_no_allowance_that_is_off() {
        let out = run("cvt.rn.satfinite.e4m3x2.f32", &["0x7fc00001", "0x3f800000"]).unwrap();
        let col = |prefix: &str| {
            let l = out.lines().find(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("{prefix}: {out}"));
            l.find("0x").unwrap()
        };
        assert_eq!(col("  a "), col("  d[15:8] "), "{out}");
        assert_eq!(col("  d[15:8] "), col("  d[7:0] "), "{out}");
        let type_col = |prefix: &str| out.lines().find(|l| l.starts_with(prefix)).unwrap().find("e4m3").unwrap();
        assert_eq!(type_col("  d[15:8] "), type_col("  d[7:0] "), "{out}");
        let class_col = |prefix: &str| out.lines().find(|l| l.starts_with(prefix)).unwrap().find("(normal)").unwrap();
        assert_eq!(class_col("  b "), class_col("  d[7:0] "), "values and classes line up too: {out}");
        assert!(out.contains("bits [15:8]: any e4m3 NaN"), "{out}");
        assert!(!out.contains(".."), "one bit-range notation: {out}");
        let strict = Allowances::from_off(["nan-payload"]).unwrap();
        let ops = ["0x7fc00001".to_string(), "0x3f800000".to_string()];
        let out = explain("cvt.rn.satfinite.e4m3x2.f32", &ops, None, &strict).unwrap();
        assert!(!out.contains("nan-payload") && !out.contains("allowance"), "{out}");
        assert!(out.contains("from a: NaN input: the canonical NaN"), "{out}");
    }
}
