//! Evaluation by operand name, for `ptxdiff eval` and `ptxdiff explain`: the source operands
//! of a form are looked up by the spec's names (`a`, `b`, `c`, `e`, `f`, `rbits`,
//! `membermask`, `a.x`…) and the destinations come back under theirs (`d`, `p`, `d.x`…).
//! Warp-level forms (`shfl.sync`, `shfl`) take 32 values per per-lane operand and the set of
//! active lanes, and give 32 results per destination.

use std::collections::BTreeMap;

use thiserror::Error;

use crate::isa::types::Space;
use crate::isa::{Form, MovShape, OperandKind, OperandSpec, Role};

use super::address::{AddressModel, Window};
use super::shfl::{eval_warp, LaneIn};
use super::{cvt, cvt_pack, mov, prmt, Allowance, Allowances, Constraint, Expected, Free};

/// Why a form could not be evaluated.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum EvalError {
    /// The oracle has no semantics for this form's values.
    #[error("`{0}`: {1}")]
    Unsupported(String, &'static str),
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
    /// A per-lane operand without exactly 32 values, or lanes given to a scalar form.
    #[error("operand `{0}`: {1}")]
    Lanes(String, String),
}

/// A source value: one value, or one per lane of a warp.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// The same value for every lane (or the only value of a scalar form).
    Scalar(u128),
    /// 32 values, lane 0 first.
    Lanes(Vec<u128>),
}

/// A destination value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// Bits (exact or a set).
    Bits(Expected),
    /// A predicate (`None`: unspecified).
    Pred(Option<bool>),
    /// One output per lane.
    Lanes(Vec<Output>),
}

/// A source operand as `eval` names it, with its width in bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceSlot {
    /// Name (`a`, `b`, `e`, `f`, `rbits`, `c`, `membermask`, `a.x`…).
    pub name: String,
    /// Width of its bits.
    pub width: u32,
}

fn reg_bits(k: &OperandKind) -> Option<(u32, u8)> {
    match k {
        OperandKind::Reg(t) | OperandKind::RegOrImm(t) => Some((t.bits(), 1)),
        OperandKind::RegOneOf(ts) => Some((ts[0].bits(), 1)),
        OperandKind::Vector(t, n) => Some((t.bits(), *n)),
        _ => None,
    }
}

fn slots(form: &Form, role: Role) -> Vec<SourceSlot> {
    let mut out = Vec::new();
    for s in form.operands().iter().filter(|s| s.role == role) {
        let (width, n) = match (reg_bits(&s.kind), s.kind) {
            (Some(w), _) => w,
            (None, OperandKind::Pred | OperandKind::RegWithPred(_)) => (1, 1),
            _ => continue,
        };
        let names: Vec<&str> = s.name.split(',').map(str::trim).collect();
        if n > 1 && names.len() == n as usize {
            out.extend(names.into_iter().map(|name| SourceSlot { name: name.to_string(), width }));
        } else {
            out.push(SourceSlot { name: s.name.to_string(), width });
        }
    }
    out
}

/// The source operands of `form` by name, in order (vectors such as `{a, b, e, f}` give one
/// slot per element).
pub fn source_slots(form: &Form) -> Vec<SourceSlot> {
    slots(form, Role::Src)
}

/// The destination operand specs of `form`.
pub fn destinations(form: &Form) -> Vec<OperandSpec> {
    form.operands().into_iter().filter(|s| s.role == Role::Dst).collect()
}

/// Whether `form` is evaluated for a whole warp.
pub fn is_warp_form(form: &Form) -> bool {
    matches!(form, Form::ShflSync(_) | Form::Shfl(_))
}

fn address_set(model_value: Option<u128>, width: u32, allow: &Allowances) -> Expected {
    let (bits, allowance) = match model_value {
        Some(v) if !allow.allows(Allowance::AddressWindow) => return Expected::exact(v, width),
        Some(v) => (v, Allowance::AddressWindow),
        None => (0, Allowance::Undefined),
    };
    Expected { bits, width, free: vec![Free { shift: 0, width, constraint: Constraint::Any, allowance }] }
}

fn window(space: Space) -> Window {
    match space {
        Space::Global => Window::Global,
        Space::Shared | Space::SharedCta => Window::SharedCta,
        Space::SharedCluster => Window::SharedCluster,
        Space::Local => Window::Local,
        Space::Const => Window::Const,
        Space::Param | Space::ParamEntry | Space::ParamFunc => Window::Param,
    }
}

/// Evaluates `form` on named inputs; `active` is the warp's active mask (warp forms only;
/// default all 32 lanes). Returns each destination by name.
pub fn evaluate(
    form: &Form,
    values: &BTreeMap<String, Input>,
    active: Option<u32>,
    allow: &Allowances,
) -> Result<Vec<(String, Output)>, EvalError> {
    form.check().map_err(|e| EvalError::Illegal(form.opcode(), e.0))?;
    let slots = source_slots(form);
    let names = || slots.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(", ");
    for k in values.keys() {
        if !slots.iter().any(|s| &s.name == k) {
            return Err(EvalError::Unknown(k.clone(), names()));
        }
    }
    let warp = is_warp_form(form);
    let lanes_of = |name: &str| -> Result<Vec<u128>, EvalError> {
        let slot = slots.iter().find(|s| s.name == name);
        let Some(slot) = slot else {
            return Ok(vec![0; 32]);
        };
        let vals = match values.get(name) {
            None => return Err(EvalError::Missing(name.to_string(), names())),
            Some(Input::Scalar(v)) => vec![*v; if warp { 32 } else { 1 }],
            Some(Input::Lanes(v)) if !warp => {
                return Err(EvalError::Lanes(
                    name.to_string(),
                    format!("{} values given to a per-thread form", v.len()),
                ))
            }
            Some(Input::Lanes(v)) if v.len() != 32 => {
                return Err(EvalError::Lanes(
                    name.to_string(),
                    format!("a warp has 32 lanes, {} values given", v.len()),
                ))
            }
            Some(Input::Lanes(v)) => v.clone(),
        };
        for &v in &vals {
            if slot.width < 128 && v >> slot.width != 0 {
                return Err(EvalError::TooWide { name: name.to_string(), value: v, width: slot.width });
            }
        }
        Ok(vals)
    };
    let get = |name: &str| -> Result<u128, EvalError> { Ok(lanes_of(name)?[0]) };
    let d_name = destinations(form).first().map_or("d".to_string(), |s| s.name.to_string());
    let one = |e: Expected| Ok(vec![(d_name.clone(), Output::Bits(e))]);
    match form {
        Form::Cvt(c) => {
            let x = cvt::CvtInputs {
                a: get("a")? as u64,
                b: get("b")? as u64,
                e: get("e")? as u64,
                f: get("f")? as u64,
                rbits: get("rbits")? as u32,
            };
            one(cvt::eval(c, &x, allow))
        }
        Form::CvtPack(p) => one(cvt_pack::eval(p, get("a")? as u32, get("b")? as u32, get("c")? as u32)),
        Form::Prmt(p) => {
            one(Expected::exact(u128::from(prmt::eval(p, get("a")? as u32, get("b")? as u32, get("c")? as u32)), 32))
        }
        Form::Mov(m) => {
            let width = m.ty.reg().bits();
            match m.shape {
                MovShape::Copy => one(Expected::exact(get("a")?, width)),
                MovShape::Pack(n) => {
                    let elems: Vec<u128> = slots.iter().map(|s| get(&s.name)).collect::<Result<_, _>>()?;
                    one(Expected::exact(mov::pack(&elems, width / u32::from(n)), width))
                }
                MovShape::Unpack(n) => {
                    let ew = width / u32::from(n);
                    let parts = mov::unpack(get("a")?, u32::from(n), ew);
                    let dst = slots_dst(form);
                    Ok(dst.into_iter().zip(parts).map(|(s, v)| (s.name, Output::Bits(Expected::exact(v, ew)))).collect())
                }
                MovShape::Symbol(kind) => {
                    let v = AddressModel::default().symbol_address(kind, 0) as u128;
                    let v = if width < 128 { v & ((1u128 << width) - 1) } else { v };
                    one(address_set(Some(v), width, allow))
                }
                MovShape::SpecialReg => Err(EvalError::Unsupported(
                    form.opcode(),
                    "the value of a special register depends on the launch (thread, CTA, clock)",
                )),
            }
        }
        Form::Cvta(c) => {
            let model = AddressModel::default();
            if c.var {
                return Err(EvalError::Unsupported(form.opcode(), "the address of a variable depends on the program"));
            }
            let a = get("a")? as u64;
            let w = window(c.space);
            let v = if c.to { model.from_generic(w, a) } else { model.to_generic(w, a) };
            one(address_set(v.map(u128::from), c.size.reg().bits(), allow))
        }
        Form::Isspacep(i) => {
            let model = AddressModel::default();
            let v = model.isspacep(window(i.space), get("a")? as u64);
            let p = if allow.allows(Allowance::AddressWindow) { None } else { Some(v) };
            Ok(vec![(d_name, Output::Pred(p))])
        }
        Form::Mapa(m) => {
            let model = AddressModel::default();
            if m.var {
                return Err(EvalError::Unsupported(form.opcode(), "the address of a variable depends on the program"));
            }
            let (a, r) = (get("a")? as u64, get("b")? as u32);
            let v = if m.shared_cluster { model.mapa_cluster(a, r) } else { model.mapa_generic(a, r) };
            one(address_set(v.map(u128::from), m.ty.reg().bits(), allow))
        }
        Form::Getctarank(g) => {
            let model = AddressModel::default();
            if g.var {
                return Err(EvalError::Unsupported(form.opcode(), "the address of a variable depends on the program"));
            }
            let a = get("a")? as u64;
            let v = if g.shared_cluster { model.getctarank_cluster(a) } else { model.getctarank_generic(a) };
            one(address_set(v.map(u128::from), 32, allow))
        }
        Form::ShflSync(_) | Form::Shfl(_) => {
            let (mode, sync, pred) = match form {
                Form::ShflSync(s) => (s.mode, true, s.pred_dst),
                Form::Shfl(s) => (s.mode, false, s.pred_dst),
                _ => unreachable!(),
            };
            let (a, b, c) = (lanes_of("a")?, lanes_of("b")?, lanes_of("c")?);
            let mm = if sync { lanes_of("membermask")? } else { vec![u128::from(u32::MAX); 32] };
            let lanes: [LaneIn; 32] = std::array::from_fn(|i| LaneIn {
                a: a[i] as u32,
                b: b[i] as u32,
                c: c[i] as u32,
                membermask: mm[i] as u32,
            });
            let out = eval_warp(mode, sync, &lanes, active.unwrap_or(u32::MAX));
            let mut result = vec![("d".to_string(), Output::Lanes(out.iter().map(|o| Output::Bits(o.d.clone())).collect()))];
            if pred {
                result.push(("p".to_string(), Output::Lanes(out.iter().map(|o| Output::Pred(o.p)).collect())));
            }
            Ok(result)
        }
        _ => Err(EvalError::Unsupported(
            form.opcode(),
            "no value semantics yet (the oracle evaluates cvt, cvt.pack, prmt, mov, shfl, shfl.sync, cvta, isspacep, mapa, getctarank)",
        )),
    }
}

fn slots_dst(form: &Form) -> Vec<SourceSlot> {
    slots(form, Role::Dst)
}
