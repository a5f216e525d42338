//! Per-thread statements of the program oracle: integer glue, the §9.7.9 instructions through
//! [`crate::semantics`], `mov`'s bit movement, and loads and stores through
//! [`crate::memory`], for one thread at a time.
//!
//! Set-valued results flow on instead of being avoided:
//! - bit movement (`mov` copy/pack/unpack, `ld`/`st`, `selp` with a known predicate) carries
//!   free fields exactly, bit for bit;
//! - any other instruction with a set-valued source gives "any value" of its destination,
//!   under the allowance of that source (the spec does not say which member hardware picks);
//! - a statement under an unknown guard (or in an uncertain thread) writes "any value".
//!
//! Invariants (the program invariants of [`super`]): `%in`/`%out` address the thread's own
//! words of the [`Buffer::Inputs`]/[`Buffer::Outputs`] buffers and `%sh`/`%shn` the thread's
//! own or the next thread's slot of shared memory, each access inside the slot and naturally
//! aligned; shared stores are unguarded and converged; another thread's shared bytes are read
//! only after a `bar.sync` that follows their last store. A program that breaks one gets
//! [`InterpError::Undefined`].

use std::collections::BTreeMap;

use super::exec::{taint, Machine};
use super::glue::{GlueOp, Src};
use super::interp::InterpError;
use super::launch::Buffer;
use super::{emulate, plant, PredGuard, Reg, RegClass, Special};
use crate::isa::operand::{Imm, Operand, OperandKind, Role};
use crate::isa::types::{RegType, Space};
use crate::isa::{Form, Instruction, MovShape};
use crate::memory::Image;
use crate::num::{decode, encode, Overflow, Rounding, F32, F64};
use crate::semantics::operands::{evaluate, source_slots, Input, Output};
use crate::semantics::{Allowance, Expected};

/// The bytes `applypriority` and `discard` act on: one 128-byte line (their only `size`).
const LINE: u64 = 128;

/// The low `bits` bits set.
fn mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1 << bits) - 1
    }
}

/// `e` widened to `width` bits: sign-extended when `signed`, zero-extended otherwise (§6.4.4;
/// §9.7.9.8 and §9.7.9.21 Notes). A set-valued sign bit makes the new bits any value.
pub(crate) fn extend(e: Expected, width: u32, signed: bool) -> Expected {
    if e.width >= width {
        return e.field(0, width);
    }
    let mut out = Expected::exact(0, width);
    let w = e.width;
    let sign = e.field(w - 1, 1);
    if signed {
        if sign.is_exact() {
            if sign.bits == 1 {
                out.bits = mask(width) & !mask(w);
            }
        } else {
            out.replace(w, Expected::any(width - w, taint(&sign)));
        }
    }
    out.replace(0, e);
    out
}

/// An immediate's bits at an operand of `width` bits.
fn imm_bits(i: &Imm, width: u32) -> Option<u128> {
    Some(match i {
        Imm::Int(v) => (*v as u128) & mask(width),
        Imm::F32Bits(b) => u128::from(*b),
        Imm::F64Bits(b) => u128::from(*b),
        Imm::Float(x) => match width {
            // A decimal literal is an f64 (PTX ISA §4.5.1), rounded to nearest for an f32
            // operand by the oracle's engine, not by the host.
            32 => u128::from(encode(&F32, decode(&F64, x.to_bits()), Rounding::NearestEven, Overflow::Ieee).bits),
            64 => u128::from(x.to_bits()),
            _ => return None,
        },
    })
}

/// Whether a load or store type sign-extends.
pub(crate) fn is_signed(t: RegType) -> bool {
    matches!(t, RegType::S8 | RegType::S16 | RegType::S32 | RegType::S64)
}

/// Element type and count of a data operand kind.
fn data_shape(k: &OperandKind) -> Option<(RegType, u32)> {
    match *k {
        OperandKind::Reg(t) | OperandKind::RegOrImm(t) => Some((t, 1)),
        OperandKind::Vector(t, n) => Some((t, u32::from(n))),
        _ => None,
    }
}

/// The element names of an operand spec (`"d, e"` names a vector's two elements).
fn names(spec_name: &str) -> Vec<String> {
    spec_name.split(',').map(|s| s.trim().to_string()).collect()
}

/// Operand `o` flattened to its elements (a vector gives its items).
pub(super) fn elements(o: &Operand) -> Vec<&Operand> {
    match o {
        Operand::Vector(items) => items.iter().collect(),
        o => vec![o],
    }
}

impl Machine<'_> {
    /// The value of a source operand element at `width` bits.
    pub(super) fn source(&self, t: u32, o: &Operand, width: u32) -> Result<Expected, InterpError> {
        match o {
            Operand::Imm(i) => imm_bits(i, width)
                .map(|b| Expected::exact(b, width))
                .ok_or_else(|| self.unsupported(format!("immediate `{i}` at {width} bits"))),
            o => {
                let e = self.read(t, self.reg_of(o)?)?;
                Ok(if e.width > width { e.field(0, width) } else { e })
            }
        }
    }

    /// A glue statement in thread `t`. `addc`/`subc` read the thread's carry flag and the
    /// `.cc` forms write it (§9.7.2); a skipped instruction leaves it as it was, one under an
    /// unknown guard makes it any value.
    pub(super) fn glue(&mut self, t: u32, guard: Option<PredGuard>, g: &super::Glue) -> Result<(), InterpError> {
        let (run, why) = self.guard(t, guard)?;
        if run == Some(false) {
            if self.emulating {
                if let Some(v) = emulate::skipped_glue(self, t, g) {
                    self.write_keeping_origin(t, g.dst, v)?;
                }
            }
            return Ok(());
        }
        let width = g.dst.class().bits();
        let carry_in = if g.op.reads_carry() { Some(self.carry(t)?) } else { None };
        if run.is_none() {
            self.read(t, g.dst)?;
            if g.op.writes_carry() {
                self.set_carry(t, Expected::any(1, why));
            }
            return self.write(t, g.dst, Expected::any(width, why));
        }
        let mut vals = Vec::new();
        for (k, s) in g.src.iter().enumerate().take(g.op.arity()) {
            let w = super::Glue::src_class(g.op, g.ty, k).bits();
            vals.push(match s {
                Some(Src::Reg(r)) => self.read(t, *r)?,
                Some(Src::Imm(v)) => Expected::exact(u128::from(*v), w),
                None => return Err(self.unsupported("missing glue operand")),
            });
        }
        if self.opts.probe == Some((self.stmt, t)) {
            self.probed =
                vals.iter().enumerate().map(|(k, v)| (["a", "b", "c", "d"][k].to_string(), v.clone())).collect();
        }
        // §9.7.1.19–20 restrict a bit field's position and length to 0..255; the 64-bit forms
        // of ptxas use the whole value (allowance `bit-field-wide-operand`).
        let field = match g.op {
            GlueOp::Bfe => Some(1..3),
            GlueOp::Bfi => Some(2..4),
            _ => None,
        };
        let wide_field = field
            .is_some_and(|k| g.ty.bits() == 64 && vals[k].iter().any(|v| v.is_exact() && v.bits & 0xFFFF_FFFF > 0xFF));
        if wide_field && self.allow.allows(Allowance::BitFieldWideOperand) {
            return self.write(t, g.dst, Expected::any(width, Allowance::BitFieldWideOperand));
        }
        let carry_exact = carry_in.as_ref().is_none_or(Expected::is_exact);
        let (mut result, mut carry_out) = if vals.iter().all(Expected::is_exact) && carry_exact {
            let get = |k: usize| vals.get(k).map_or(0, |e| e.bits as u64);
            let op = plant::glue(self.opts.plant, g);
            let s = [get(0), get(1), get(2), get(3)];
            let cin = carry_in.as_ref().is_some_and(|c| c.bits == 1);
            let cout = op.carry_out(s, cin).map(|c| Expected::exact(u128::from(c), 1));
            (Expected::exact(u128::from(op.eval(s, cin)), width), cout)
        } else if g.op == GlueOp::Selp && vals[2].is_exact() {
            (vals[if vals[2].bits == 1 { 0 } else { 1 }].clone(), None)
        } else {
            let a = vals.iter().chain(carry_in.iter()).find(|e| !e.is_exact()).map_or(Allowance::Undefined, taint);
            (Expected::any(width, a), g.op.writes_carry().then(|| Expected::any(1, a)))
        };
        if self.emulating {
            result = emulate::glue(self, t, g, &vals, result);
            carry_out = carry_out.map(|c| emulate::carry(self, t, g, &vals, c));
            self.origin_now = Some(emulate::glue_origin(self, t, g, &vals));
        }
        if let Some(c) = carry_out {
            self.set_carry(t, c);
        }
        self.write(t, g.dst, result)
    }

    /// A §9.7.9 instruction other than a collective in thread `t`.
    pub(super) fn isa(&mut self, t: u32, inst: &Instruction) -> Result<(), InterpError> {
        let guard = match &inst.guard {
            None => None,
            Some(g) => match Reg::parse(&g.pred) {
                Some(Reg::Virt(RegClass::Pred, n)) => Some(PredGuard { pred: n, negated: g.negated }),
                _ => return Err(self.unsupported(format!("guard `{}` is not a predicate register", g.pred))),
            },
        };
        let (run, why) = self.guard(t, guard)?;
        if run == Some(false) {
            if self.emulating {
                emulate::skipped_isa(self, t, inst);
            }
            return Ok(());
        }
        if self.emulating {
            self.origin_now = self.origin_of(t, inst);
        }
        let mut results = match &inst.form {
            Form::Ld(_) | Form::LdGlobalNc(_) => self.load(t, inst)?,
            Form::St(_) => return self.store(t, inst, run.is_none().then_some(why)),
            // Cache hints (§9.7.9.15): no effect on any value.
            Form::Prefetch(_) => return Ok(()),
            Form::Applypriority(_) => return self.line(t, inst).map(|_| ()),
            Form::Discard(_) => return self.discard(t, inst),
            Form::Createpolicy(_) => self.create_policy(t, inst)?,
            Form::Mov(m) if matches!(m.shape, MovShape::Copy | MovShape::Pack(_) | MovShape::Unpack(_)) => {
                self.mov(t, inst, m.shape)?
            }
            _ => self.evaluate(t, inst)?,
        };
        if self.emulating {
            results = emulate::isa(self, t, inst, results)?;
        }
        for (r, e) in results {
            if run.is_none() {
                self.read(t, r)?;
                self.write(t, r, Expected::any(r.class().bits(), why))?;
            } else {
                self.write(t, r, e)?;
            }
        }
        Ok(())
    }

    /// Destination registers and their values, for one thread, through the semantics.
    fn evaluate(&mut self, t: u32, inst: &Instruction) -> Result<Vec<(Reg, Expected)>, InterpError> {
        let specs = inst.form.operands();
        let widths: BTreeMap<String, u32> = source_slots(&inst.form).into_iter().map(|s| (s.name, s.width)).collect();
        let mut values = BTreeMap::new();
        let mut tainted = None;
        for (spec, o) in specs.iter().zip(&inst.operands) {
            if spec.role != Role::Src {
                continue;
            }
            let ns = names(spec.name);
            let es = elements(o);
            if ns.len() != es.len() {
                return Err(self.unsupported(format!("operand `{o}` does not match `{}`", spec.name)));
            }
            for (n, e) in ns.iter().zip(es) {
                let width =
                    *widths.get(n).ok_or_else(|| self.unsupported(format!("operand `{n}` has no value slot")))?;
                let v = self.source(t, e, width)?;
                if !v.is_exact() {
                    tainted.get_or_insert(taint(&v));
                }
                if self.opts.probe == Some((self.stmt, t)) {
                    self.probed.push((n.clone(), v.clone()));
                }
                values.insert(n.clone(), Input::Scalar(v.bits));
            }
        }
        let out = match tainted {
            None => evaluate(&inst.form, &values, None, self.allow).map_err(|e| self.unsupported(e.to_string()))?,
            Some(_) => Vec::new(),
        };
        let mut results = Vec::new();
        for (spec, o) in specs.iter().zip(&inst.operands) {
            if spec.role != Role::Dst {
                continue;
            }
            let (dst_ty, _) = data_shape(&spec.kind).unwrap_or((RegType::B32, 1));
            let targets: Vec<(String, Operand)> = match o {
                Operand::WithPred(d, p) => vec![("d".into(), (**d).clone()), ("p".into(), Operand::Name(p.clone()))],
                o => names(spec.name).into_iter().zip(elements(o).into_iter().cloned()).collect(),
            };
            for (n, target) in targets {
                if matches!(target, Operand::Sink) {
                    continue;
                }
                let r = match &target {
                    Operand::Name(name) => Reg::parse(name)
                        .ok_or_else(|| self.unsupported(format!("`{name}` is not a program register")))?,
                    other => return Err(self.unsupported(format!("destination `{other}`"))),
                };
                let width = r.class().bits();
                let value = match tainted {
                    Some(a) => Expected::any(width, a),
                    None => match out.iter().find(|(name, _)| *name == n).map(|(_, v)| v) {
                        Some(Output::Bits(e)) => extend(e.clone(), width, is_signed(dst_ty)),
                        Some(Output::Pred(Some(b))) => Expected::exact(u128::from(*b), 1),
                        Some(Output::Pred(None)) => Expected::any(1, Allowance::Undefined),
                        _ => return Err(self.unsupported(format!("the oracle gave no `{n}`"))),
                    },
                };
                results.push((r, value));
            }
        }
        Ok(results)
    }

    /// `mov` copy, pack and unpack: bit movement, set-valued fields carried exactly.
    fn mov(&self, t: u32, inst: &Instruction, shape: MovShape) -> Result<Vec<(Reg, Expected)>, InterpError> {
        let [d, a] = inst.operands.as_slice() else { return Err(self.unsupported("mov takes two operands")) };
        let specs = inst.form.operands();
        let total = data_shape(&specs[0].kind).map_or(32, |(t, n)| t.bits() * n);
        Ok(match shape {
            MovShape::Copy => vec![(self.reg_of(d)?, self.source(t, a, total)?)],
            MovShape::Pack(n) => {
                let ew = total / u32::from(n);
                let mut v = Expected::exact(0, total);
                for (k, e) in elements(a).into_iter().enumerate() {
                    v.replace(ew * k as u32, self.source(t, e, ew)?);
                }
                vec![(self.reg_of(d)?, v)]
            }
            MovShape::Unpack(n) => {
                let whole = self.source(t, a, total)?;
                let ew = total / u32::from(n);
                let mut out = Vec::new();
                for (k, e) in elements(d).into_iter().enumerate() {
                    if !matches!(e, Operand::Sink) {
                        out.push((self.reg_of(e)?, whole.field(ew * k as u32, ew)));
                    }
                }
                out
            }
            _ => return Err(self.unsupported("mov shape")),
        })
    }

    /// The memory region an address operand names, and its byte offset.
    fn address(&self, o: &Operand, form_space: Option<Space>) -> Result<(Special, i64), InterpError> {
        let Operand::Address { base: Some(b), offset, unified: false } = o else {
            return Err(self.unsupported(format!("address `{o}` (programs address [%in|%out|%sh|%shn+offset])")));
        };
        let Some(Reg::Special(sp)) = Reg::parse(b) else {
            return Err(self.unsupported(format!("address base `{b}` is not %in, %out, %sh or %shn")));
        };
        let ok = match sp {
            Special::In | Special::Out => form_space == Some(Space::Global),
            // A `.shared::cta` address is also a `.shared::cluster` address of the executing
            // CTA (§9.7.9.1 State spaces… the shared::cta window lies in shared::cluster's).
            Special::Sh | Special::ShNext => {
                matches!(form_space, Some(Space::Shared | Space::SharedCta | Space::SharedCluster))
            }
            Special::Tid => false,
        };
        if !ok {
            return Err(self.unsupported(format!("`{b}` used with state space {form_space:?}")));
        }
        Ok((sp, *offset))
    }

    /// `Err` unless an access of `bytes` bytes at `offset` lies inside a slot of `region`
    /// bytes and is aligned to its size; gives the offset.
    fn check_access(&self, t: u32, offset: i64, bytes: u32, region: u32) -> Result<usize, InterpError> {
        if offset < 0 || offset as u64 + u64::from(bytes) > u64::from(region) {
            return Err(self.undefined(t, format!("access of {bytes} bytes at offset {offset} outside {region} bytes")));
        }
        if !(offset as u64).is_multiple_of(u64::from(bytes)) {
            return Err(self.undefined(t, format!("access of {bytes} bytes at offset {offset} is misaligned")));
        }
        Ok(offset as usize)
    }

    /// The image and the first byte of the slot that `base` addresses in thread `t`, and the
    /// slot's size in bytes; `None` for a base that addresses no memory.
    fn slot(&self, t: u32, base: Special) -> Option<(&Image, usize, u32)> {
        let (input, output, shared) = (self.p.input_stride(), self.p.output_stride(), 4 * self.p.shared);
        match base {
            Special::In => Some((self.global.get(&Buffer::Inputs)?, (input * t) as usize, input)),
            Special::Out => Some((self.global.get(&Buffer::Outputs)?, (output * t) as usize, output)),
            Special::Sh => Some((self.shared.image(), (shared * t) as usize, shared)),
            Special::ShNext => Some((self.shared.image(), (shared * ((t + 1) % self.threads)) as usize, shared)),
            Special::Tid => None,
        }
    }

    /// The 128-byte line of the thread's inputs that `applypriority` (§9.7.9.16) or `discard`
    /// (§9.7.9.17) names: `.global`, `size` 128, and `a` "aligned to 128 bytes" (the launch
    /// contract puts `p_in` on a 128-byte boundary, so the address is aligned when the
    /// thread's offset into the buffer is). Gives the line's first byte in the inputs image.
    fn line(&self, t: u32, inst: &Instruction) -> Result<usize, InterpError> {
        let global = match &inst.form {
            Form::Applypriority(a) => a.global,
            Form::Discard(d) => d.global,
            _ => return Err(self.unsupported("not applypriority or discard")),
        };
        let (base, offset) = self.address(&inst.operands[0], global.then_some(Space::Global))?;
        if !matches!(inst.operands.get(1), Some(Operand::Imm(Imm::Int(128)))) {
            return Err(self.unsupported(format!("`{}` with a size other than 128", inst.form.opcode())));
        }
        if base != Special::In {
            return Err(self.unsupported(format!("`{}` of a line outside %in", inst.form.opcode())));
        }
        let (_, slot, size) = self.slot(t, base).ok_or_else(|| self.unsupported("no input buffer"))?;
        if offset < 0 || offset as u64 + LINE > u64::from(size) {
            return Err(
                self.undefined(t, format!("a 128-byte line at offset {offset} leaves the thread's {size} input bytes"))
            );
        }
        let at = slot + offset as usize;
        if !(at as u64).is_multiple_of(LINE) {
            return Err(
                self.undefined(t, format!("`{}` address p_in+{at} is not 128-byte aligned", inst.form.opcode()))
            );
        }
        Ok(at)
    }

    /// `discard.global.L2` (§9.7.9.17): "a weak write of an unstable indeterminate value" over
    /// the line, so every later read of it is any value ([`Allowance::Discarded`]), also where
    /// the guard or the thread's path is unknown (the bytes are either kept or discarded).
    fn discard(&mut self, t: u32, inst: &Instruction) -> Result<(), InterpError> {
        let at = self.line(t, inst)?;
        let written = match self.global.get_mut(&Buffer::Inputs) {
            Some(image) => (0..(LINE / 4) as usize)
                .try_for_each(|w| image.write(at + 4 * w, Expected::any(32, Allowance::Discarded))),
            None => return Err(self.unsupported("no input buffer")),
        };
        written.map_err(|m| self.undefined(t, m.to_string()))
    }

    /// `createpolicy` (§9.7.9.18): its sources are read, and the policy it writes is an opaque
    /// 64-bit value ([`Allowance::CachePolicy`]).
    fn create_policy(&self, t: u32, inst: &Instruction) -> Result<Vec<(Reg, Expected)>, InterpError> {
        let specs = inst.form.operands();
        let mut dst = None;
        for (spec, o) in specs.iter().zip(&inst.operands) {
            match (spec.role, o) {
                (Role::Dst, o) => dst = Some(self.reg_of(o)?),
                (_, Operand::Name(_)) => {
                    self.read(t, self.reg_of(o)?)?;
                }
                _ => {}
            }
        }
        let d = dst.ok_or_else(|| self.unsupported("createpolicy without a destination"))?;
        Ok(vec![(d, Expected::any(64, Allowance::CachePolicy))])
    }

    /// Reads the `cache-policy` operand of a load or store with `.L2::cache_hint` (the
    /// operand after the first `plain` ones), which must be defined and changes no value.
    fn read_policy(&self, t: u32, inst: &Instruction, plain: usize) -> Result<(), InterpError> {
        match &inst.operands[plain.min(inst.operands.len())..] {
            [] => Ok(()),
            [policy] => self.source(t, policy, 64).map(|_| ()),
            _ => Err(self.unsupported("a load or store with more than one operand after its data")),
        }
    }

    /// A load's destination registers and their values, for one thread.
    fn load(&self, t: u32, inst: &Instruction) -> Result<Vec<(Reg, Expected)>, InterpError> {
        let space = match &inst.form {
            Form::Ld(l) => l.space,
            _ => Some(Space::Global),
        };
        let specs = inst.form.operands();
        self.read_policy(t, inst, 2)?;
        let (ety, n) = data_shape(&specs[0].kind).ok_or_else(|| self.unsupported("load destination"))?;
        let (base, offset) = self.address(&inst.operands[1], space)?;
        let (eb, total) = (ety.bits(), ety.bits() * n / 8);
        if let Some(a) = self.uncertain(t) {
            return elements(&inst.operands[0])
                .into_iter()
                .filter(|d| !matches!(d, Operand::Sink))
                .map(|d| Ok((self.reg_of(d)?, Expected::any(32, a))))
                .collect();
        }
        if base == Special::Out {
            return Err(self.unsupported("programs do not load from %out"));
        }
        let (image, slot, size) =
            self.slot(t, base).ok_or_else(|| self.unsupported("programs do not load from %out"))?;
        let offset = self.check_access(t, offset, total, size)?;
        if base == Special::ShNext {
            let owner = (t + 1) % self.threads;
            if owner != t {
                if let Some(b) = self.shared.unordered(slot + offset, total as usize) {
                    return Err(self.undefined(
                        t,
                        format!("reads thread {owner}'s shared byte {} without a bar.sync after its store", b - slot),
                    ));
                }
            }
        }
        let mut out = Vec::new();
        for (k, d) in elements(&inst.operands[0]).into_iter().enumerate() {
            if matches!(d, Operand::Sink) {
                continue;
            }
            let r = self.reg_of(d)?;
            let at = slot + offset + k * (eb / 8) as usize;
            let v = image.read(at, (eb / 8) as usize).map_err(|m| self.undefined(t, m.to_string()))?;
            out.push((r, extend(v, r.class().bits(), is_signed(ety))));
        }
        Ok(out)
    }

    /// A store, for one thread; `unknown_guard` is the allowance behind a guard of unknown
    /// value (the stored bytes become any value).
    fn store(&mut self, t: u32, inst: &Instruction, unknown_guard: Option<Allowance>) -> Result<(), InterpError> {
        let Form::St(st) = &inst.form else { return Err(self.unsupported("store form")) };
        let specs = inst.form.operands();
        self.read_policy(t, inst, 2)?;
        let (ety, _) = data_shape(&specs[1].kind).ok_or_else(|| self.unsupported("store source"))?;
        let (base, offset) = self.address(&inst.operands[0], st.space)?;
        let eb = ety.bits();
        let mut values = Vec::new();
        let elems = elements(&inst.operands[1]);
        for e in &elems {
            values.push(self.source(t, e, eb)?);
        }
        if self.emulating {
            values = emulate::stored(self, t, st, &elems, values);
        }
        let total = eb * values.len() as u32 / 8;
        let taint_all = unknown_guard.or(self.uncertain(t));
        match base {
            Special::Out => {
                let (_, slot, size) = self.slot(t, base).ok_or_else(|| self.unsupported("no output buffer"))?;
                let offset = self.check_access(t, offset, total, size)?;
                for (k, v) in values.into_iter().enumerate() {
                    let at = slot + offset + k * (eb / 8) as usize;
                    let v = match taint_all {
                        Some(a) => Expected::any(eb, a),
                        None => v,
                    };
                    let written = match self.global.get_mut(&Buffer::Outputs) {
                        Some(image) => image.write(at, v),
                        None => return Err(self.unsupported("no output buffer")),
                    };
                    written.map_err(|m| self.undefined(t, m.to_string()))?;
                }
            }
            Special::Sh => {
                if taint_all.is_some() || self.diverged() {
                    return Err(self.undefined(t, "shared stores must be unguarded and converged"));
                }
                let (_, slot, size) = self.slot(t, base).ok_or_else(|| self.unsupported("no shared memory"))?;
                let offset = self.check_access(t, offset, total, size)?;
                for (k, v) in values.into_iter().enumerate() {
                    let at = slot + offset + k * (eb / 8) as usize;
                    self.shared.store(at, v).map_err(|m| self.undefined(t, m.to_string()))?;
                }
            }
            _ => return Err(self.unsupported("programs store to %out or %sh only")),
        }
        Ok(())
    }
}
