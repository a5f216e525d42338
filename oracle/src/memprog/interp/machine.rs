//! The machine's per-thread state and memory, as the instruction families use them: CTAs and
//! regions (a shared buffer's name is the executing CTA's copy), guards, registers, operand
//! values (`%tid.x`, `%cluster_ctarank`, … and buffer names as addresses), address operands
//! checked against their state space and CTA (§5.1.5, §6.4), aligned in-bounds spans, the
//! bytes of a value, and the effects of completed asynchronous operations (writes, and
//! reductions computed at completion, §9.7.9.25.4.2).
//!
//! Invariant: a shared address of another CTA is accepted only where the caller asks for a
//! `.shared::cluster` address ([`Machine::cluster_address`]); a write into a tensor-map
//! object's bytes is an error ([`Machine::outside_objects`]); a race that
//! [`crate::memory::Order`] finds is an error naming the buffer ([`Machine::ordered`]).

use super::{mask, Effect, Machine, Val};
use crate::isa::operand::{Imm, Operand};
use crate::memory::{Byte, Span};
use crate::memprog::{BufferSpace, MemError, Stmt};
use crate::semantics::Allowance;

impl Machine<'_> {
    /// The CTA thread `t` belongs to.
    pub(super) fn cta(&self, t: u32) -> u32 {
        t / self.p.threads
    }

    /// The buffer a region is a copy of.
    pub(super) fn buffer(&self, region: usize) -> &crate::memprog::Buffer {
        &self.p.buffers[region % self.nbuf]
    }

    /// The region of `region`'s buffer in CTA `cta`.
    pub(super) fn in_cta(&self, region: usize, cta: u32) -> usize {
        cta as usize * self.nbuf + region % self.nbuf
    }

    /// The region a buffer's name means in thread `t`: its own CTA's copy of a shared buffer.
    fn named_region(&self, t: u32, buffer: usize) -> usize {
        match self.p.buffers[buffer].space {
            BufferSpace::Global => buffer,
            BufferSpace::Shared => self.in_cta(buffer, self.cta(t)),
        }
    }

    /// The address a buffer's name gives in thread `t`: a global buffer's is generic, a shared
    /// one's is in the shared window (§6.4; `cvta.shared` makes it generic).
    fn named_address(&self, t: u32, buffer: usize, offset: i64) -> Val {
        let generic = self.p.buffers[buffer].space == BufferSpace::Global;
        Val::Addr { buffer: self.named_region(t, buffer), offset, generic }
    }

    pub(super) fn guard(&self, t: u32, s: &Stmt) -> Result<bool, MemError> {
        let Some(g) = &s.guard else { return Ok(true) };
        let i = self.reg_index(&g.pred)?;
        match self.regs[t as usize][i] {
            Val::Bits(b) => Ok((b & 1 == 1) != g.negated),
            _ => Err(MemError::Unsupported(format!("a guard on predicate `{}`, whose value is unknown", g.pred))),
        }
    }

    pub(super) fn reg_index(&self, name: &str) -> Result<usize, MemError> {
        self.reg_at.get(name).copied().ok_or_else(|| MemError::UnknownName(name.to_string()))
    }

    pub(super) fn buffer_index(&self, name: &str) -> Option<usize> {
        self.p.buffers.iter().position(|b| b.name == name)
    }

    pub(super) fn set(&mut self, t: u32, name: &str, v: Val) -> Result<(), MemError> {
        let i = self.reg_index(name)?;
        let v = match v {
            Val::Bits(b) => Val::Bits(b & mask(self.p.regs[i].class.bits())),
            v => v,
        };
        self.regs[t as usize][i] = v;
        Ok(())
    }

    /// The value of a source operand.
    pub(super) fn value(&self, t: u32, o: &Operand) -> Result<Val, MemError> {
        match o {
            Operand::Imm(Imm::Int(v)) => Ok(Val::Bits(*v as u64)),
            Operand::Imm(Imm::F32Bits(b)) => Ok(Val::Bits(u64::from(*b))),
            Operand::Imm(Imm::F64Bits(b)) => Ok(Val::Bits(*b)),
            Operand::Name(n) if n == "%tid.x" => Ok(Val::Bits(u64::from(t % self.p.threads))),
            Operand::Name(n) if n == "%cluster_ctarank" || n == "%ctaid.x" => Ok(Val::Bits(u64::from(self.cta(t)))),
            Operand::Name(n) if n == "%cluster_nctarank" || n == "%nctaid.x" => {
                Ok(Val::Bits(u64::from(self.p.cluster.max(1))))
            }
            Operand::Name(n) if n.starts_with('%') => Err(MemError::Unsupported(format!(
                "special register `{n}` (only {})",
                crate::memprog::SPECIAL_REGS.join(", ")
            ))),
            Operand::Name(n) => match self.buffer_index(n) {
                Some(buffer) => Ok(self.named_address(t, buffer, 0)),
                None => Ok(self.regs[t as usize][self.reg_index(n)?]),
            },
            Operand::NameOffset(n, off) => match self.buffer_index(n) {
                Some(buffer) => Ok(self.named_address(t, buffer, *off)),
                None => Err(MemError::UnknownName(n.clone())),
            },
            o => Err(MemError::Unsupported(format!("operand `{o}`"))),
        }
    }

    /// A source operand's known bits.
    pub(super) fn known(&self, t: u32, o: &Operand) -> Result<u64, MemError> {
        match self.value(t, o)? {
            Val::Bits(b) => Ok(b),
            Val::Addr { .. } => Err(MemError::Unsupported(format!("`{o}` holds an address where a number is needed"))),
            _ => Err(MemError::Unsupported(format!("`{o}` is unknown where its value decides what happens"))),
        }
    }

    /// The region and offset an address operand names, checked to lie in `space` and, if
    /// shared, in the executing CTA's shared memory.
    pub(super) fn address(&self, t: u32, o: &Operand, space: Option<BufferSpace>) -> Result<(usize, i64), MemError> {
        let (region, at) = self.cluster_address(t, o, space)?;
        let cta = (region / self.nbuf) as u32;
        if self.buffer(region).space == BufferSpace::Shared && cta != self.cta(t) {
            return Err(MemError::Undefined(format!(
                "`{o}` is CTA {cta}'s shared memory, which only .shared::cluster accesses reach (§5.1.5: a .shared::cta address names the executing CTA's shared memory)"
            )));
        }
        Ok((region, at))
    }

    /// The region and offset an address operand names, checked to lie in `space`; a shared
    /// address may be another CTA's (a `.shared::cluster` access).
    pub(super) fn cluster_address(
        &self,
        t: u32,
        o: &Operand,
        space: Option<BufferSpace>,
    ) -> Result<(usize, i64), MemError> {
        let Operand::Address { base: Some(base), offset, .. } = o else {
            return Err(MemError::Unsupported(format!(
                "address `{o}`: it must be [buffer+offset] or [register+offset]"
            )));
        };
        let (buffer, at, generic) = match self.buffer_index(base) {
            Some(b) => (self.named_region(t, b), *offset, false),
            None => match self.regs[t as usize][self.reg_index(base)?] {
                Val::Addr { buffer, offset: o2, generic } => (buffer, o2 + offset, generic),
                _ => return Err(MemError::Unsupported(format!("register `{base}` does not hold a buffer address"))),
            },
        };
        let b = self.buffer(buffer);
        if b.space == BufferSpace::Shared {
            // §6.4: a state-space access takes a window address, a generic one a generic
            // address; another CTA's window address means nothing to a generic access.
            let remote = (buffer / self.nbuf) as u32 != self.cta(t);
            if generic && space.is_some() {
                return Err(MemError::Undefined(format!(
                    "`{o}` holds a generic address where the instruction takes a .shared one (§6.4; cvta.to.shared first)"
                )));
            }
            if !generic && space.is_none() && remote {
                return Err(MemError::Undefined(format!(
                    "`{o}` holds a .shared::cluster address of CTA {} where the instruction takes a generic one (§6.4, §9.7.9.23: cvta.shared, then mapa without .shared::cluster)",
                    buffer / self.nbuf
                )));
            }
        }
        if let Some(s) = space {
            if b.space != s {
                return Err(MemError::Undefined(format!(
                    "the address names `{}`, a {} buffer, where the instruction accesses .{} (§6.4: an address outside the state space)",
                    b.name,
                    b.space.name(),
                    s.name()
                )));
            }
        }
        Ok((buffer, at))
    }

    /// The span of `len` bytes at an address, inside its buffer and aligned to `align`.
    pub(super) fn span(&self, buffer: usize, at: i64, len: u64, align: u64, rule: &str) -> Result<Span, MemError> {
        let b = self.buffer(buffer);
        if at < 0 || at as u64 + len > b.init.len() as u64 {
            return Err(MemError::Undefined(format!(
                "{len} bytes at offset {at} of `{}` ({} bytes) lie outside it",
                b.name,
                b.init.len()
            )));
        }
        if align > 1 {
            if !(at as u64).is_multiple_of(align) {
                return Err(MemError::Undefined(format!(
                    "offset {at} of `{}` is not {align}-byte aligned ({rule})",
                    b.name
                )));
            }
            if !b.align.is_multiple_of(align) {
                return Err(MemError::Unsupported(format!(
                    "`{}` is only {}-byte aligned, so an access needing {align}-byte alignment ({rule}) cannot be placed",
                    b.name, b.align
                )));
            }
        }
        Ok(Span { region: buffer, start: at as u64, len })
    }

    pub(super) fn bytes_of(v: Val, n: usize) -> Vec<Byte> {
        match v {
            Val::Bits(b) => (0..n).map(|k| Byte::Known(if k < 8 { (b >> (8 * k)) as u8 } else { 0 })).collect(),
            Val::Unknown(a) => vec![Byte::Unknown(a); n],
            Val::Addr { .. } => vec![Byte::Unknown(Allowance::AddressWindow); n],
            Val::Unset => vec![Byte::Unknown(Allowance::Undefined); n],
        }
    }

    pub(super) fn val_of(bytes: &[Byte], signed: bool, width: u32) -> Val {
        let mut v = 0u64;
        for (k, b) in bytes.iter().enumerate() {
            match b {
                Byte::Known(x) => v |= u64::from(*x) << (8 * k),
                Byte::Unknown(a) => return Val::Unknown(*a),
            }
        }
        let bits = 8 * bytes.len() as u32;
        if signed && bits < 64 && v >> (bits - 1) & 1 == 1 {
            v |= !mask(bits);
        }
        Val::Bits(v & mask(width))
    }

    /// `Err` for a write from byte `start` of `region` on when the region holds a tensor-map
    /// object there: its encoding is opaque, only `tensormap.replace` changes its fields.
    pub(super) fn outside_objects(&self, region: usize, start: u64) -> Result<(), MemError> {
        if self.objects.contains_key(&region) && start < crate::memprog::TENSOR_MAP_BYTES as u64 {
            return Err(MemError::Unsupported(
                "a write into a tensor-map object (its encoding is opaque; tensormap.replace changes its fields)"
                    .into(),
            ));
        }
        Ok(())
    }

    pub(super) fn apply(&mut self, effects: Vec<Effect>) -> Result<(), MemError> {
        for e in effects {
            match e {
                Effect::Write { region, start, bytes } => {
                    self.outside_objects(region, start)?;
                    for (k, b) in bytes.into_iter().enumerate() {
                        if let Some(b) = b {
                            self.regions[region].write(start + k as u64, &[b])?;
                        }
                    }
                }
                Effect::Many(list) => self.apply(list)?,
                Effect::Object { region, object } => {
                    self.regions[region].forget(0, crate::memprog::TENSOR_MAP_BYTES as u64, Allowance::Undefined)?;
                    self.objects.insert(region, object);
                }
                Effect::Reduce { region, start, op, ty, src } => {
                    self.outside_objects(region, start)?;
                    let eb = (crate::semantics::reduce::element_bits(ty) / 8) as usize;
                    for (k, s) in src.chunks(eb).enumerate() {
                        let at = start + (k * eb) as u64;
                        let d = self.regions[region].read(at, eb as u64)?.to_vec();
                        let out = match (Self::val_of(&d, false, 64), Self::val_of(s, false, 64)) {
                            (Val::Bits(a), Val::Bits(b)) => {
                                let e = crate::semantics::reduce::reduce_with(op, ty, a, b, self.allow)
                                    .map_err(|e| MemError::Parse(e.to_string()))?;
                                match e.free.first() {
                                    None => Val::Bits(e.bits as u64),
                                    Some(f) => Val::Unknown(f.allowance),
                                }
                            }
                            (Val::Unknown(a), _) | (_, Val::Unknown(a)) => Val::Unknown(a),
                            _ => Val::Unknown(Allowance::Undefined),
                        };
                        self.regions[region].write(at, &Self::bytes_of(out, eb))?;
                    }
                }
            }
        }
        Ok(())
    }

    /// `r` as a [`MemError`]: a data race is undefined; an unordered pair of strong accesses
    /// is beyond the lockstep model. Regions are named as the program names its buffers.
    pub(super) fn ordered(&self, r: Result<(), crate::memory::OrderError>) -> Result<(), MemError> {
        use crate::memory::OrderError;
        let Err(e) = r else { return Ok(()) };
        let (OrderError::Race { span, .. } | OrderError::Timing { span, .. }) = &e;
        let name = self.names.get(span.region).map_or_else(|| format!("region {}", span.region), |n| format!("`{n}`"));
        let text = e.to_string().replacen(&format!("region {} ", span.region), &format!("{name} "), 1);
        Err(match e {
            OrderError::Race { .. } => MemError::Undefined(text),
            OrderError::Timing { .. } => MemError::Unsupported(text),
        })
    }

    /// The region and offset of a shared-window address held by a value operand (a shared
    /// buffer's name or a register holding such an address, not a generic one).
    pub(super) fn shared_value(&self, t: u32, o: &Operand) -> Result<(usize, i64), MemError> {
        match self.value(t, o)? {
            Val::Addr { buffer, offset, generic: false } if self.buffer(buffer).space == BufferSpace::Shared => {
                Ok((buffer, offset))
            }
            _ => Err(MemError::Unsupported(format!("`{o}` does not hold a shared-memory address"))),
        }
    }
}
