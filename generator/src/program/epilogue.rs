//! The output epilogue: after the body (every branch closed, so the CTA is converged), every
//! value not read yet is folded into the thread's output words and stored with `st.global`,
//! unguarded, so the outputs depend on as much of the dataflow as possible.
//!
//! The output bytes (4, 8 or 16 per thread) are split into aligned chunks, each stored by one
//! `st.global` form of that size (`.b16`, `.b32`, `.b64`, `.v2`, `.v4`, …; every size divides the
//! thread's output stride, so every access is aligned). Each element register of a chunk
//! receives a share of the unread values, converted to its class — `.b64` through
//! `mov.b64 {lo, hi}` / `{a, b, c, d}` unpacks, `.b16` through `mov.b32 d, {a, a}` packs,
//! `.b8` through `mov.b16 h, {c, c}` first, predicates through `selp` between a value and its
//! complement — and combined with `xor` (sometimes `add`), which keeps every single-bit
//! difference of every input visible. A store form with `.L2::cache_hint` gets its policy
//! from [`Builder::policy`] (cache policies are no values: never stored).
//!
//! Invariant: every output byte is stored exactly once, and only defined registers are read.

use arbitrary::Result;

use oracle::isa::{Form, Instruction, Operand};
use oracle::program::{Glue, GlueOp, GlueType, Reg, RegClass, Special, Src};

use super::builder::{addr, Builder};
use super::tables::{Key, Mem};

/// Probability (‰) that an output chunk stores registers of the class of a random unread value
/// (fewer conversions) rather than any class.
const NATIVE_PERMILLE: u32 = 750;

/// Probability (‰) that two values are combined with `add` instead of `xor`.
const ADD_PERMILLE: u32 = 250;

fn bit_type(c: RegClass) -> GlueType {
    match c {
        RegClass::B16 => GlueType::B16,
        RegClass::B64 => GlueType::B64,
        _ => GlueType::B32,
    }
}

fn uint_type(c: RegClass) -> GlueType {
    match c {
        RegClass::B16 => GlueType::U16,
        RegClass::B64 => GlueType::U64,
        _ => GlueType::U32,
    }
}

impl Builder<'_, '_> {
    /// Closes every open branch and stores the outputs (see the module documentation).
    pub fn epilogue(&mut self) -> Result<()> {
        while self.depth() > 0 {
            self.close_branch();
        }
        let tb = self.tb;
        let allow = self.allow(self.cfg.st);
        let bytes = 4 * self.shape.outputs;
        let values = self.unread_values();
        let classes: Vec<RegClass> = values.iter().map(|r| r.class()).collect();
        // Chunk sizes, weighted toward 4 and 8 bytes.
        const SIZES: [u32; 9] = [16, 8, 8, 4, 4, 4, 2, 2, 1];
        let mut chunks: Vec<(u32, &Mem)> = Vec::new();
        let mut off = 0;
        while off < bytes {
            let sizes: Vec<u32> = SIZES
                .iter()
                .copied()
                .filter(|&s| s <= bytes - off && off % s == 0 && tb.st_global.any(|k| allow(k.feat) && k.size == s))
                .collect();
            // A byte store always fits and is aligned.
            let size = if sizes.is_empty() { 1 } else { sizes[self.index(sizes.len())?] };
            // Prefer the class of a random unread value (so classes with more unread values
            // are stored as they are more often).
            let want = if classes.is_empty() { None } else { Some(classes[self.index(classes.len())?]) };
            let native = |k: &Key| want.is_some() && k.class == want;
            let prefer =
                tb.st_global.any(|k| allow(k.feat) && k.size == size && native(k)) && self.chance(NATIVE_PERMILLE)?;
            let picked = self.pick(&tb.st_global, |k| allow(k.feat) && k.size == size && (!prefer || native(k)))?;
            let m = match picked {
                Some(m) => m,
                None => tb
                    .st_global
                    .iter()
                    .find(|m| m.feat == 0 && m.n == 1 && m.size == size)
                    .expect("plain scalar stores of 1, 2, 4 and 8 bytes exist"),
            };
            chunks.push((off, m));
            off += m.size;
        }
        let slots: Vec<RegClass> =
            chunks.iter().flat_map(|(_, m)| std::iter::repeat_n(m.class, usize::from(m.n))).collect();
        let mut values = values;
        if values.is_empty() {
            // Nothing unread (a very short body): store the last registers written.
            for c in [RegClass::B32, RegClass::B64, RegClass::B16] {
                values.extend(self.defined(c).iter().rev().take(2).copied());
            }
        }
        if values.is_empty() {
            values.push(self.produce(RegClass::B32, super::values::Kind::Bits(32))?);
        }
        let mut share: Vec<Vec<Reg>> = vec![Vec::new(); slots.len()];
        for (i, v) in values.iter().enumerate() {
            share[i % slots.len()].push(*v);
        }
        let mut regs = Vec::with_capacity(slots.len());
        for (i, class) in slots.iter().enumerate() {
            if share[i].is_empty() {
                share[i].push(values[i % values.len()]);
            }
            let mut acc = None;
            for v in std::mem::take(&mut share[i]) {
                acc = Some(self.fold(acc, v, *class)?);
            }
            regs.push(acc.expect("every slot has a value"));
        }
        let mut k = 0;
        for (off, m) in chunks {
            let data = if m.n == 1 {
                Operand::Name(regs[k].to_string())
            } else {
                Operand::Vector(regs[k..k + usize::from(m.n)].iter().map(|r| Operand::Name(r.to_string())).collect())
            };
            k += usize::from(m.n);
            let mut operands = vec![addr(Special::Out, off), data];
            if m.form.operands().iter().any(|s| s.name == "cache-policy") {
                // The tables have no hinted store without `createpolicy` forms beside it.
                let policy = self.policy()?.expect("a target with .L2::cache_hint stores has createpolicy");
                operands.push(Operand::Name(policy.to_string()));
            }
            self.push_isa(Instruction { guard: None, form: m.form.clone(), operands });
        }
        Ok(())
    }

    fn mov(&mut self, form: &Form, operands: Vec<Operand>) {
        self.push_isa(Instruction { guard: None, form: form.clone(), operands });
    }

    /// `v` converted to registers of class `c` (see the module documentation).
    fn convert(&mut self, v: Reg, c: RegClass) -> Vec<Reg> {
        let name = |r: Reg| Operand::Name(r.to_string());
        let movs = self.tb.movs.clone();
        let unpack = |b: &mut Self, form: &Form, n: usize, ec: RegClass| -> Vec<Reg> {
            let parts: Vec<Reg> = (0..n).map(|_| b.new_reg(ec)).collect();
            b.mov(form, vec![Operand::Vector(parts.iter().map(|r| name(*r)).collect()), name(v)]);
            parts
        };
        let pack = |b: &mut Self, form: &Form, n: usize| -> Vec<Reg> {
            let d = b.new_reg(c);
            b.mov(form, vec![name(d), Operand::Vector(vec![name(v); n])]);
            vec![d]
        };
        match (v.class(), c) {
            (a, b) if a == b => vec![v],
            (RegClass::B8, _) => {
                let h = self.new_reg(RegClass::B16);
                self.mov(&movs.pack16_2, vec![name(h), Operand::Vector(vec![name(v); 2])]);
                self.convert(h, c)
            }
            (RegClass::B64, RegClass::B32) => unpack(self, &movs.unpack64_2, 2, RegClass::B32),
            (RegClass::B64, RegClass::B16) => unpack(self, &movs.unpack64_4, 4, RegClass::B16),
            (RegClass::B32, RegClass::B16) => unpack(self, &movs.unpack32_2, 2, RegClass::B16),
            (RegClass::B32, RegClass::B64) => pack(self, &movs.pack64_2, 2),
            (RegClass::B16, RegClass::B32) => pack(self, &movs.pack32_2, 2),
            (RegClass::B16, RegClass::B64) => pack(self, &movs.pack64_4, 4),
            _ => Vec::new(),
        }
    }

    /// Folds `v` into the accumulator `acc` of class `c`.
    fn fold(&mut self, acc: Option<Reg>, v: Reg, c: RegClass) -> Result<Reg> {
        if v.class() == RegClass::Pred {
            // acc' = p ? acc ^ K : acc, with K a random nonzero constant.
            let base = match acc {
                Some(a) => a,
                None => self.produce(c, super::values::Kind::Bits(c.bits()))?,
            };
            let k = (self.value(super::values::Kind::Bits(c.bits())) | 1) & low_mask(c.bits());
            let t = self.new_reg(c);
            let ty = bit_type(c);
            self.push_glue(
                None,
                Glue { op: GlueOp::Xor, ty, dst: t, src: [Some(Src::Reg(base)), Some(Src::Imm(k)), None, None] },
            );
            let d = self.new_reg(c);
            self.push_glue(
                None,
                Glue {
                    op: GlueOp::Selp,
                    ty,
                    dst: d,
                    src: [Some(Src::Reg(t)), Some(Src::Reg(base)), Some(Src::Reg(v)), None],
                },
            );
            return Ok(d);
        }
        let mut acc = acc;
        for p in self.convert(v, c) {
            acc = Some(match acc {
                None => p,
                Some(a) => {
                    let (op, ty) = if self.chance(ADD_PERMILLE)? {
                        (GlueOp::Add, uint_type(c))
                    } else {
                        (GlueOp::Xor, bit_type(c))
                    };
                    let d = self.new_reg(c);
                    self.push_glue(
                        None,
                        Glue { op, ty, dst: d, src: [Some(Src::Reg(a)), Some(Src::Reg(p)), None, None] },
                    );
                    d
                }
            });
        }
        Ok(acc.unwrap_or(v))
    }
}

fn low_mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}
