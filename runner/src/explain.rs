//! `ptxdiff explain`: one instruction, evaluated for a person at a terminal.
//!
//! Operands are given positionally in the spec's order (the sources only: `a`, `b`, `e`, `f`,
//! `rbits`, `c`), each as a decimal (`1.5`, `-inf`, `nan`, `-3`), a hex float (`0x1.8p3`) or
//! raw hex bits (`0x3fc00000`). The output shows every operand as hex bits and decoded value,
//! each result lane with its class, the rule that decided it (with its section), and any
//! allowance that makes the result a set.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use anyhow::{anyhow, bail, Context, Result};
use oracle::isa::{Cvt, CvtRnd, CvtType, Form};
use oracle::num::{self, decode, encode, Format, Overflow, Rounding, Value, F64};
use oracle::semantics::cvt::format_of;
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

fn parse_hex_float(s: &str) -> Option<Value> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let body = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X"))?;
    let (mant, exp) = body.split_once(['p', 'P'])?;
    let exp: i32 = exp.parse().ok()?;
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let digits = format!("{int}{frac}");
    if digits.is_empty() || digits.len() > 15 {
        return None;
    }
    let sig = u64::from_str_radix(&digits, 16).ok()?;
    if sig == 0 {
        return Some(Value::Zero { neg });
    }
    Some(Value::Finite { neg, sig, exp: exp - 4 * frac.len() as i32 })
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
            if lower.contains('p') && lower.contains("0x") {
                let v = parse_hex_float(t).ok_or_else(|| anyhow!("`{t}` is not a hex float like 0x1.8p3"))?;
                return Ok(u128::from(encode(f, v, Rounding::NearestEven, Overflow::Ieee).bits));
            }
            if lower.starts_with("0x") {
                return raw(f.bits());
            }
            // Decimal: Rust's parsers round correctly to f32/f64; narrower formats go through
            // f64 and then the oracle's own round-to-nearest-even.
            if f.bits() == 32 && f.man_bits == 23 {
                let x: f32 = t.parse().map_err(|_| anyhow!("`{t}` is not a number"))?;
                return Ok(u128::from(x.to_bits()));
            }
            let x: f64 = t.parse().map_err(|_| anyhow!("`{t}` is not a number"))?;
            let v = decode(&F64, x.to_bits());
            Ok(u128::from(encode(f, v, Rounding::NearestEven, Overflow::Ieee).bits))
        }
    }
}

/// The decoded value of `bits` in `f`, as a person reads it, and its class.
pub fn describe(f: &Format, bits: u64) -> (String, &'static str) {
    let v = decode(f, bits);
    match v {
        Value::Nan { .. } => ("NaN".into(), "NaN"),
        Value::Inf { neg } => ((if neg { "-inf" } else { "+inf" }).into(), "infinity"),
        Value::Zero { neg } => ((if neg { "-0" } else { "+0" }).into(), "zero"),
        Value::Finite { .. } => {
            // Presentation only: every format here widens to f64 exactly.
            let x = f64::from_bits(encode(&F64, v, Rounding::NearestEven, Overflow::Ieee).bits);
            let mag = bits & !(if f.signed { 1u64 << f.sign_shift() } else { 0 });
            let e_field = (mag >> f.man_bits) & u64::from(f.max_exp_field());
            let class = if mag == f.max_finite_bits() {
                "normal, MAX_NORM"
            } else if e_field == 0 && f.man_bits > 0 {
                "subnormal"
            } else {
                "normal"
            };
            let text = if (1e-4..1e7).contains(&x.abs()) { format!("{x}") } else { format!("{x:e}") };
            (text, class)
        }
    }
}

/// Result lanes of a cvt destination: (lsb, format, the source slot it comes from).
fn cvt_lanes(c: &Cvt) -> Vec<(u32, &'static Format, &'static str)> {
    use CvtType::*;
    match c.dtype {
        F16x2 | Bf16x2 if c.atype == F32 => {
            let f = if c.dtype == F16x2 { &num::F16 } else { &num::BF16 };
            vec![(16, f, "a"), (0, f, "b")]
        }
        F16x2 => vec![(16, &num::F16, "a (high)"), (0, &num::F16, "a (low)")],
        Bf16x2 => vec![(16, &num::BF16, "a (high)"), (0, &num::BF16, "a (low)")],
        Tf32 => vec![(13, &num::TF32, "a")],
        E4m3x2 | E5m2x2 | E2m3x2 | E3m2x2 | E2m1x2 | Ue8m0x2 => {
            let f = format_of(c.dtype).expect("packed");
            let lane = if c.dtype == E2m1x2 { 4 } else { 8 };
            let (hi, lo) = if c.atype == F32 { ("a", "b") } else { ("a (high)", "a (low)") };
            vec![(lane, f, hi), (0, f, lo)]
        }
        E4m3x4 | E5m2x4 | E2m3x4 | E3m2x4 | E2m1x4 => {
            let f = format_of(c.dtype).expect("x4");
            let lane = if c.dtype == E2m1x4 { 4 } else { 8 };
            vec![(3 * lane, f, "a"), (2 * lane, f, "b"), (lane, f, "e"), (0, f, "f")]
        }
        t => format_of(t).map(|f| vec![(0, f, "a")]).unwrap_or_default(),
    }
}

fn source_lane(c: &Cvt, from: &str, values: &BTreeMap<String, u128>) -> Option<(Value, &'static Format)> {
    let (name, half) = match from.split_once(' ') {
        Some((n, h)) => (n, Some(h == "(high)")),
        None => (from, None),
    };
    let bits = *values.get(name)? as u64;
    let f: &'static Format = match (c.atype, half) {
        (CvtType::F16x2, _) => &num::F16,
        (CvtType::Bf16x2, _) => &num::BF16,
        (t, None) if matches!(name, "b" | "e" | "f") || t == CvtType::F32 => &num::F32,
        (t, _) => format_of(t)?,
    };
    let lane_bits = match (half, c.atype) {
        (Some(hi), CvtType::F16x2 | CvtType::Bf16x2) => {
            if hi {
                bits >> 16
            } else {
                bits & 0xFFFF
            }
        }
        (Some(hi), CvtType::E2m1x2) => {
            if hi {
                (bits >> 4) & 0xF
            } else {
                bits & 0xF
            }
        }
        (Some(hi), _) => {
            if hi {
                (bits >> 8) & 0xFF
            } else {
                bits & 0xFF
            }
        }
        (None, _) => bits,
    };
    Some((decode(f, lane_bits), f))
}

/// The rule of §9.7.9.21 that decided one lane.
fn rule(c: &Cvt, input: Value, in_fmt: &Format, out: &Format, out_bits: u64) -> String {
    let mode = match c.rnd {
        Some(r) => format!(".{r}"),
        None => "exact".into(),
    };
    let out_v = decode(out, out_bits);
    if input.is_nan() {
        return if c.sat {
            ".sat: NaN results become +0 (§9.7.9.21 Saturation modifier)".into()
        } else if c.relu {
            ".relu: NaN results become the canonical NaN (§9.7.9.21 Saturation modifier)".into()
        } else if !out.has_nan() {
            ".satfinite: NaN becomes +MAX_NORM for FP6/FP4 destinations (§9.7.9.21)".into()
        } else if c.atype == CvtType::Bf16 && c.dtype == CvtType::F32 {
            "NaN input yields unspecified NaN (§9.7.9.21 Notes) [allowance cvt-f32-bf16-nan]".into()
        } else {
            "NaN input: the NaN's bits are not fixed by §9.7.9.21 [allowance nan-payload]".into()
        };
    }
    if c.relu && input.is_negative() && !matches!(input, Value::Zero { .. }) {
        return ".relu: negative results become +0 (§9.7.9.21)".into();
    }
    if c.ftz && in_fmt.bits() == 32 && matches!(input, Value::Finite { sig, .. } if sig < (1 << 23)) {
        return ".ftz: subnormal f32 input flushed to sign-preserving zero (§9.7.9.21)".into();
    }
    let max = decode(out, out.max_finite_bits());
    let beyond = |v: Value| match (v.abs(), max) {
        (Value::Inf { .. }, _) => true,
        (Value::Finite { sig, exp, .. }, Value::Finite { sig: ms, exp: me, .. }) => {
            (sig as u128) << (exp - exp.min(me)).min(100) > (ms as u128) << (me - exp.min(me)).min(100)
        }
        _ => false,
    };
    if c.satfinite && beyond(input) {
        return ".satfinite: |x| > MAX_NORM becomes sign-preserved MAX_NORM (§9.7.9.21)".into();
    }
    if c.sat && (input.is_negative() || beyond(input)) {
        return ".sat: clamped to [0.0, 1.0] (§9.7.9.21 Saturation modifier)".into();
    }
    if matches!(out_v, Value::Inf { .. }) && !matches!(input, Value::Inf { .. }) {
        return format!("overflow: {mode} rounds past MAX_NORM to infinity (§9.7.9.21, IEEE 754)");
    }
    if c.rnd == Some(CvtRnd::Rs) {
        return ".rs: stochastic rounding by the carry of rbits + discarded bits (§9.7.9.21)".into();
    }
    let exact = encode(out, input, Rounding::TowardZero, Overflow::Ieee).bits
        == encode(out, input, Rounding::Up, Overflow::Ieee).bits;
    if exact {
        "exact conversion".into()
    } else {
        format!("rounded {mode} (§9.7.9.21 Floating Point Notes)")
    }
}

fn hex(v: u128, width: u32) -> String {
    format!("0x{v:0w$x}", w = width.div_ceil(4) as usize)
}

/// Explains `instr` on `operand_texts`; returns the report text. Warp forms (`shfl.sync`)
/// take one value per operand for every lane, or a comma-separated list of 32; `active` is
/// the warp's active mask.
pub fn explain(instr: &str, operand_texts: &[String], active: Option<u32>, allow: &Allowances) -> Result<String> {
    let form = Form::parse_opcode(instr)?;
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
                    format!("{:<6} {val} ({class})", f.name)
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
                    explain_cvt_lanes(&mut out, c, e, &scalars);
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

fn explain_cvt_lanes(out: &mut String, c: &Cvt, e: &Expected, values: &BTreeMap<String, u128>) {
    if c.dtype.is_int() {
        let w = c.dtype.bits();
        let v = e.bits as i128;
        let x = if c.dtype.is_signed_int() && (v >> (w - 1)) & 1 == 1 { v - (1i128 << w) } else { v };
        let why = if c.atype.is_int() {
            if c.sat {
                "int-to-int with .sat: clamped to the destination range (§9.7.9.21)"
            } else {
                "int-to-int: sign/zero-extended, then truncated to the destination width (§9.7.9.21)"
            }
        } else {
            "float-to-int: rounded, then clamped to the destination range; NaN gives 0 (or 1<<(n-1) from .f64 or to 64-bit) (§9.7.9.21 Integer Notes)"
        };
        let _ = writeln!(out, "           = {x}   {why}");
        return;
    }
    for (lsb, f, from) in cvt_lanes(c) {
        let w = f.bits();
        let bits = ((e.bits >> lsb) as u64) & ((1u64 << f.bits()) - 1);
        let (val, class) = describe(f, bits);
        let why = match source_lane(c, from, values) {
            Some((input, in_fmt)) => rule(c, input, in_fmt, f, bits),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "    d[{}:{}] {:<12} {:<6} {:<14} {:<18} from {from}: {why}",
            lsb + w - 1,
            lsb,
            hex(u128::from(bits), f.bits()),
            f.name,
            val,
            format!("({class})")
        );
    }
}
