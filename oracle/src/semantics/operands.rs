//! Evaluation by operand name, for `ptxdiff eval` and `ptxdiff explain`: the source operands
//! of a form are looked up by the spec's names (`a`, `b`, `e`, `f`, `rbits`, `c`) and the
//! destinations come back under theirs (`d`).

use std::collections::BTreeMap;

use thiserror::Error;

use crate::isa::{Form, OperandKind, OperandSpec, Role};

use super::{cvt, cvt_pack, Allowances, Expected};

/// Why a form could not be evaluated.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum EvalError {
    /// The oracle has no semantics for this family yet.
    #[error("the oracle has no semantics for `{0}` yet (cvt and cvt.pack are modeled)")]
    Unsupported(String),
    /// The form is not legal.
    #[error("`{0}` is not a legal form: {1}")]
    Illegal(String, String),
    /// A source operand is missing.
    #[error("missing operand `{0}` (this form reads {1})")]
    Missing(String, String),
    /// An operand that the form does not have.
    #[error("unknown operand `{0}` (this form reads {1})")]
    Unknown(String, String),
    /// A value wider than its operand.
    #[error("operand `{name}` = {value:#x} does not fit in {width} bits")]
    TooWide {
        /// Operand name.
        name: String,
        /// The value.
        value: u128,
        /// Its width.
        width: u32,
    },
}

/// A source operand as `eval` names it, with its width in bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceSlot {
    /// Name (`a`, `b`, `e`, `f`, `rbits`, `c`).
    pub name: String,
    /// Width of its bits.
    pub width: u32,
}

fn reg_bits(k: &OperandKind) -> Option<(u32, u8)> {
    match k {
        OperandKind::Reg(t) | OperandKind::RegOrImm(t) => Some((t.bits(), 1)),
        OperandKind::Vector(t, n) => Some((t.bits(), *n)),
        _ => None,
    }
}

/// The source operands of `form` by name, in order (vectors such as `{a, b, e, f}` give one
/// slot per element).
pub fn source_slots(form: &Form) -> Vec<SourceSlot> {
    let mut out = Vec::new();
    for s in form.operands().iter().filter(|s| s.role == Role::Src) {
        if let Some((width, n)) = reg_bits(&s.kind) {
            let names: Vec<&str> = s.name.split(',').map(str::trim).collect();
            if n > 1 && names.len() == n as usize {
                out.extend(names.into_iter().map(|name| SourceSlot {
                    name: name.to_string(),
                    width,
                }));
            } else {
                out.push(SourceSlot {
                    name: s.name.to_string(),
                    width,
                });
            }
        }
    }
    out
}

/// The destination operand specs of `form`.
pub fn destinations(form: &Form) -> Vec<OperandSpec> {
    form.operands()
        .into_iter()
        .filter(|s| s.role == Role::Dst)
        .collect()
}

/// Evaluates `form` on named source values; returns each destination by name.
pub fn evaluate(
    form: &Form,
    values: &BTreeMap<String, u128>,
    allow: &Allowances,
) -> Result<Vec<(String, Expected)>, EvalError> {
    if !matches!(form, Form::Cvt(_) | Form::CvtPack(_)) {
        return Err(EvalError::Unsupported(form.opcode()));
    }
    form.check()
        .map_err(|e| EvalError::Illegal(form.opcode(), e.0))?;
    let slots = source_slots(form);
    let names = || {
        slots
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    for k in values.keys() {
        if !slots.iter().any(|s| &s.name == k) {
            return Err(EvalError::Unknown(k.clone(), names()));
        }
    }
    let get = |name: &str| -> Result<u128, EvalError> {
        let slot = slots.iter().find(|s| s.name == name);
        match (slot, values.get(name)) {
            (None, _) => Ok(0),
            (Some(_), None) => Err(EvalError::Missing(name.to_string(), names())),
            (Some(s), Some(&v)) => {
                if s.width < 128 && v >> s.width != 0 {
                    Err(EvalError::TooWide {
                        name: name.to_string(),
                        value: v,
                        width: s.width,
                    })
                } else {
                    Ok(v)
                }
            }
        }
    };
    let result = match form {
        Form::Cvt(c) => {
            let x = cvt::CvtInputs {
                a: get("a")? as u64,
                b: get("b")? as u64,
                e: get("e")? as u64,
                f: get("f")? as u64,
                rbits: get("rbits")? as u32,
            };
            cvt::eval(c, &x, allow)
        }
        Form::CvtPack(p) => cvt_pack::eval(p, get("a")? as u32, get("b")? as u32, get("c")? as u32),
        _ => unreachable!("checked above"),
    };
    let d = destinations(form)
        .into_iter()
        .next()
        .map_or("d", |s| s.name);
    Ok(vec![(d.to_string(), result)])
}
