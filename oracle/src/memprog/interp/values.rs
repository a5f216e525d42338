//! The per-thread instructions that take effect at once: glue (integer arithmetic, `selp`,
//! `add`/`sub` on an address), `mov`, `cvta` between shared-window and generic addresses
//! (§9.7.9.20), `mapa` and `getctarank` with `.shared::cluster` (window addresses) or without
//! (generic ones) (§9.7.9.23, §9.7.9.24), `ld` and `st` (naturally aligned, §9.7.9.8,
//! §9.7.9.11; checked against pending asynchronous operations and, between CTAs, for data
//! races), `createpolicy` (§9.7.9.18: an opaque
//! policy, any 64-bit value under `cache-policy`, as in register programs; the copies that
//! take it as `cache-policy` treat it as a hint only), and `cvt`, `cvt.pack` and `prmt` through
//! [`crate::semantics::operands`] (a set-valued result is unknown under its allowance).
//!
//! Invariant: any arithmetic on an address other than adding or subtracting a number is an
//! error, as is `selp` on a predicate that is not known.

use super::exec::unsupported;
use super::{Machine, Val};
use crate::isa::operand::{Operand, OperandKind, Role};
use crate::isa::types::{Scope, Space};
use crate::isa::{Form, LdSem, MovShape, StSem};
use crate::memprog::{BufferSpace, MemError};
use crate::program::glue::Src;
use crate::program::Reg;

impl Machine<'_> {
    pub(super) fn glue(&mut self, t: u32, g: &crate::program::Glue) -> Result<(), MemError> {
        let name = |r: Reg| match r {
            Reg::Virt(_, i) => Ok(i as usize),
            Reg::Special(_) => Err(MemError::Unsupported("special registers in glue".into())),
        };
        let src = |k: usize| -> Result<Val, MemError> {
            match g.src[k] {
                None => Ok(Val::Bits(0)),
                Some(Src::Imm(v)) => Ok(Val::Bits(v)),
                Some(Src::Reg(r)) => Ok(self.regs[t as usize][name(r)?]),
            }
        };
        use crate::program::GlueOp;
        if g.op.reads_carry() || g.op.writes_carry() {
            return Err(MemError::Unsupported("carry-chain glue (`add.cc`, `addc`, `sub.cc`, `subc`)".into()));
        }
        let (a, b, c, d) = (src(0)?, src(1)?, src(2)?, src(3)?);
        let out = match (g.op, a, b) {
            (GlueOp::Add, Val::Addr { buffer, offset, generic }, Val::Bits(x))
            | (GlueOp::Add, Val::Bits(x), Val::Addr { buffer, offset, generic }) => {
                Val::Addr { buffer, offset: offset.wrapping_add(x as i64), generic }
            }
            (GlueOp::Sub, Val::Addr { buffer, offset, generic }, Val::Bits(x)) => {
                Val::Addr { buffer, offset: offset.wrapping_sub(x as i64), generic }
            }
            (_, Val::Addr { .. }, _) | (_, _, Val::Addr { .. }) => {
                return Err(MemError::Unsupported(
                    "arithmetic on an address other than adding or subtracting a number".into(),
                ))
            }
            (_, Val::Bits(x), Val::Bits(y)) => match (c, d) {
                (Val::Bits(z), Val::Bits(e)) => Val::Bits(g.eval([x, y, z, e], false)),
                (Val::Unknown(al), _) | (_, Val::Unknown(al)) => Val::Unknown(al),
                _ => {
                    return Err(MemError::Unsupported("a third or fourth glue source that is not a known value".into()))
                }
            },
            (_, Val::Unknown(al), _) | (_, _, Val::Unknown(al)) => Val::Unknown(al),
            _ => return Err(MemError::Unsupported("a glue source never written".into())),
        };
        self.regs[t as usize][name(g.dst)?] = out;
        Ok(())
    }

    /// `mov`, `mapa`, `getctarank` (§9.7.9.23, §9.7.9.24), `ld`, `st` and `createpolicy`
    /// (§9.7.9.18): a register or the executing thread's memory, at once.
    pub(super) fn data_movement(&mut self, t: u32, form: &Form, ops: &[Operand]) -> Result<(), MemError> {
        let dst_name = |k: usize| match ops.get(k) {
            Some(Operand::Name(n)) => Ok(n.clone()),
            o => Err(MemError::Unsupported(format!("destination `{o:?}`"))),
        };
        let generic = |space: Option<Space>| match space {
            Some(Space::Global) => Ok(Some(BufferSpace::Global)),
            Some(Space::Shared | Space::SharedCta | Space::SharedCluster) => Ok(Some(BufferSpace::Shared)),
            None => Ok(None),
            Some(s) => Err(MemError::Unsupported(format!("the .{s} state space"))),
        };
        match form {
            Form::Mov(m) => match m.shape {
                MovShape::Copy | MovShape::Symbol(_) | MovShape::SpecialReg => {
                    let v = self.value(t, &ops[1])?;
                    self.set(t, &dst_name(0)?, v)
                }
                _ => Err(MemError::Unsupported("mov packing or unpacking".into())),
            },
            // §9.7.9.23: the same location in CTA `rank`'s shared memory — a `.shared::cluster`
            // window address, or without `.shared::cluster` a generic one.
            Form::Mapa(a) => {
                let generic = !a.shared_cluster;
                let (region, offset) =
                    if generic { self.generic_shared(t, &ops[1], "mapa")? } else { self.shared_value(t, &ops[1])? };
                let rank = self.known(t, &ops[2])?;
                if rank >= u64::from(self.p.cluster.max(1)) {
                    return Err(MemError::Undefined(format!(
                        "mapa to CTA {rank} of a cluster of {} (§9.7.9.23)",
                        self.p.cluster.max(1)
                    )));
                }
                let buffer = self.in_cta(region, rank as u32);
                self.set(t, &dst_name(0)?, Val::Addr { buffer, offset, generic })
            }
            // §9.7.9.20: a shared-window address to generic and back; global ones are both.
            Form::Cvta(c) => {
                let v = self.value(t, &ops[1])?;
                let out = match (c.space, v) {
                    (Space::Global, Val::Addr { buffer, .. }) if self.buffer(buffer).space == BufferSpace::Global => v,
                    (
                        Space::Shared | Space::SharedCta | Space::SharedCluster,
                        Val::Addr { buffer, offset, generic },
                    ) if self.buffer(buffer).space == BufferSpace::Shared && generic == c.to => {
                        let remote = (buffer / self.nbuf) as u32 != self.cta(t);
                        if remote && c.space != Space::SharedCluster {
                            return Err(MemError::Undefined(format!(
                                "cvta of CTA {}'s shared memory as .{} (§9.7.9.20: only .shared::cluster holds another CTA's)",
                                buffer / self.nbuf,
                                c.space
                            )));
                        }
                        Val::Addr { buffer, offset, generic: !c.to }
                    }
                    _ => {
                        let want = if c.to { "a generic address" } else { "an address" };
                        return Err(MemError::Unsupported(format!(
                            "`{}` needs {want} of a .{} buffer in `{}`",
                            form.opcode(),
                            c.space,
                            ops[1]
                        )));
                    }
                };
                self.set(t, &dst_name(0)?, out)
            }
            // §9.7.9.24: the rank of the CTA whose shared memory the address names.
            Form::Getctarank(g) => {
                let (region, _) = match g.shared_cluster {
                    true => self.shared_value(t, &ops[1])?,
                    false => self.generic_shared(t, &ops[1], "getctarank")?,
                };
                self.set(t, &dst_name(0)?, Val::Bits((region / self.nbuf) as u64))
            }
            Form::Ld(l) => {
                let space = generic(l.space)?;
                let (ty, n) = data_shape(form, Role::Dst)?;
                let eb = u64::from(ty.bits() / 8).max(1);
                let (buffer, at) = self.access_address(t, &ops[1], l.space, space)?;
                let span = self.span(buffer, at, eb * n, eb * n, "§9.7.9.8: naturally aligned")?;
                self.protocol.generic_read(t, span)?;
                let strong = strong(l.sem.map(|s| s == LdSem::Volatile), l.scope);
                let r = self.order.read(t, self.step, span, strong);
                self.ordered(r)?;
                let bytes = self.regions[buffer].read(span.start, span.len)?.to_vec();
                let dsts: Vec<&Operand> = elements(&ops[0]);
                let signed = matches!(
                    l.ty.reg(),
                    crate::isa::types::RegType::S8 | crate::isa::types::RegType::S16 | crate::isa::types::RegType::S32
                );
                for (k, d) in dsts.into_iter().enumerate() {
                    let Operand::Name(d) = d else { continue };
                    let width = self.p.regs[self.reg_index(d)?].class.bits();
                    let v = Self::val_of(&bytes[k * eb as usize..(k + 1) * eb as usize], signed, width);
                    self.set(t, d, v)?;
                }
                Ok(())
            }
            Form::St(st) => {
                let space = generic(st.space)?;
                let (ty, n) = data_shape(form, Role::Src)?;
                let eb = u64::from(ty.bits() / 8).max(1);
                let (buffer, at) = self.access_address(t, &ops[0], st.space, space)?;
                let span = self.span(buffer, at, eb * n, eb * n, "§9.7.9.11: naturally aligned")?;
                self.outside_objects(buffer, span.start)?;
                let mut bytes = Vec::new();
                for o in elements(&ops[1]) {
                    bytes.extend(Self::bytes_of(self.value(t, o)?, eb as usize));
                }
                self.protocol.generic_write(t, span)?;
                let strong = strong(st.sem.map(|s| s == StSem::Volatile), st.scope);
                let r = self.order.write(t, self.step, span, strong);
                self.ordered(r)?;
                self.regions[buffer].write(span.start, &bytes)?;
                Ok(())
            }
            // §9.7.9.18: the sources are read (a register must hold a value, the range's
            // address a global one); the policy is opaque.
            Form::Createpolicy(_) => {
                for o in &ops[1..] {
                    match o {
                        Operand::Address { .. } => {
                            self.address(t, o, Some(BufferSpace::Global))?;
                        }
                        Operand::Imm(_) => {}
                        o => {
                            if let Val::Unset = self.value(t, o)? {
                                return Err(MemError::Unsupported(format!("createpolicy reads `{o}`, never written")));
                            }
                        }
                    }
                }
                self.set(t, &dst_name(0)?, Val::Unknown(crate::semantics::Allowance::CachePolicy))
            }
            f => Err(unsupported(f)),
        }
    }
}

impl Machine<'_> {
    /// The region and offset of an `ld`/`st` address with state space `ss` (`space`: the
    /// buffer space it must name): a `.shared::cluster` access may reach another CTA's shared
    /// memory (an address from `mapa.shared::cluster`), and so may a generic one (a generic
    /// address from `mapa`, §9.7.9.8, §9.7.9.11, §9.7.9.23); `.shared{::cta}` only the
    /// executing CTA's.
    fn access_address(
        &self,
        t: u32,
        o: &Operand,
        ss: Option<Space>,
        space: Option<BufferSpace>,
    ) -> Result<(usize, i64), MemError> {
        if ss == Some(Space::SharedCluster) || ss.is_none() {
            self.cluster_address(t, o, space)
        } else {
            self.address(t, o, space)
        }
    }

    /// A per-thread value instruction (`cvt`, `cvt.pack`, `prmt`) through
    /// [`crate::semantics::operands::evaluate`]: its scalar register operands by slot name; a
    /// set-valued result is unknown under the allowance of its first free field.
    pub(super) fn value_instruction(&mut self, t: u32, form: &Form, ops: &[Operand]) -> Result<(), MemError> {
        use crate::semantics::operands::{evaluate, Input, Output};
        let specs = form.operands();
        let mut values = std::collections::BTreeMap::new();
        let mut unknown = None;
        for (o, spec) in ops.iter().zip(&specs) {
            if spec.role != Role::Src {
                continue;
            }
            if !matches!(spec.kind, OperandKind::Reg(_) | OperandKind::RegOrImm(_) | OperandKind::Pred) {
                return Err(MemError::Unsupported(format!("operand `{}` of `{}`", spec.name, form.opcode())));
            }
            match self.value(t, o)? {
                Val::Bits(b) => {
                    values.insert(spec.name.to_string(), Input::Scalar(u128::from(b)));
                }
                Val::Unknown(a) => {
                    unknown.get_or_insert(a);
                    values.insert(spec.name.to_string(), Input::Scalar(0));
                }
                _ => return Err(MemError::Unsupported(format!("an address as operand `{}`", spec.name))),
            }
        }
        let outs = evaluate(form, &values, None, self.allow).map_err(|e| MemError::Parse(e.to_string()))?;
        for (o, spec) in ops.iter().zip(&specs) {
            if spec.role != Role::Dst {
                continue;
            }
            let Operand::Name(reg) = o else {
                return Err(MemError::Unsupported(format!("destination `{o}` of `{}`", form.opcode())));
            };
            let out = outs.iter().find(|(n, _)| n == spec.name).map(|(_, v)| v);
            let v = match (unknown, out) {
                (Some(a), _) => Val::Unknown(a),
                (None, Some(Output::Bits(e))) => {
                    // A sub-word result fills its register as the program model's does:
                    // sign-extended for a signed type (§9.7.9.21 Notes, §6.4.4).
                    use crate::program::thread::{extend, is_signed};
                    let width = self.p.regs[self.reg_index(reg)?].class.bits();
                    let signed = matches!(spec.kind, OperandKind::Reg(t) | OperandKind::RegOrImm(t) if is_signed(t));
                    let e = extend(e.clone(), width, signed);
                    match e.free.first() {
                        None => Val::Bits(e.bits as u64),
                        Some(f) => Val::Unknown(f.allowance),
                    }
                }
                (None, Some(Output::Pred(Some(p)))) => Val::Bits(u64::from(*p)),
                _ => return Err(MemError::Unsupported(format!("the result `{}` of `{}`", spec.name, form.opcode()))),
            };
            self.set(t, reg, v)?;
        }
        Ok(())
    }
}

impl Machine<'_> {
    /// The region and offset of a generic address of shared memory held by a value operand
    /// (the source of generic `mapa`/`getctarank`, §9.7.9.23, §9.7.9.24).
    fn generic_shared(&self, t: u32, o: &Operand, what: &str) -> Result<(usize, i64), MemError> {
        match self.value(t, o)? {
            Val::Addr { buffer, offset, generic: true } if self.buffer(buffer).space == BufferSpace::Shared => {
                Ok((buffer, offset))
            }
            _ => Err(MemError::Unsupported(format!(
                "`{o}` holds no generic address of shared memory, which {what} without .shared::cluster takes (cvta.shared first; §9.7.9.23)"
            ))),
        }
    }
}

/// Whether an `ld`/`st` is strong with a scope holding every thread of the cluster (§8.7 of
/// PTX ISA 9.0): `.relaxed`/`.acquire`/`.release` at `.cluster` or wider, or `.volatile`
/// (counted as strong, so a pair of them is never called a race). `volatile`: the `.sem` is
/// `.volatile` (`None`: no `.sem`, a weak access; `Some(false)`: another `.sem`).
fn strong(volatile: Option<bool>, scope: Option<Scope>) -> bool {
    match volatile {
        Some(true) => true,
        Some(false) => matches!(scope, Some(Scope::Cluster | Scope::Gpu | Scope::Sys)),
        None => false,
    }
}

/// Element type and count of the data operand with `role` (`ld`'s destination, `st`'s source).
pub(super) fn data_shape(form: &Form, role: Role) -> Result<(crate::isa::types::RegType, u64), MemError> {
    form.operands()
        .into_iter()
        .filter(|s| s.role == role)
        .find_map(|s| match s.kind {
            OperandKind::Reg(t) | OperandKind::RegOrImm(t) => Some((t, 1)),
            OperandKind::Vector(t, n) => Some((t, u64::from(n))),
            _ => None,
        })
        .ok_or_else(|| MemError::Unsupported(format!("the operands of `{}`", form.opcode())))
}

/// An operand's elements (a vector's items, or the operand).
pub(super) fn elements(o: &Operand) -> Vec<&Operand> {
    match o {
        Operand::Vector(items) => items.iter().collect(),
        o => vec![o],
    }
}
