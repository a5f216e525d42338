//! Optimizer-stressing chains: one step emits a short dense def-use chain whose values flow
//! producer → consumer through what compilers fold — known-bits and value-range reasoning,
//! sign/zero extension of sub-word values, comparisons folded into selects and predicates,
//! if-conversion and redundant conversions.
//!
//! Each ingredient is a swarm knob of [`Config`](super::Config) and a chain shape here:
//! - `fold_masks`: `and`/`or` with boundary masks and shifts by boundary amounts (0, 1, 8, 16,
//!   the width − 1, the width; PTX ISA §9.7.8.7–8: amounts past the width clamp), each link
//!   reading the previous link's result;
//! - `fold_selects`: `setp` against a boundary value, then `selp` on that predicate
//!   (§9.7.8.10) and an `@p`/`@!p`-guarded rewrite of the select's result;
//! - `fold_if_conversion`: a short forward branch on a data comparison around one or two
//!   instructions that rewrite a register defined before it (the shape if-conversion turns into
//!   predication);
//! - `fold_round_trips`: `cvt.a.b` then `cvt.b.a` of its result (§9.7.9.21): float round
//!   trips, and integer widening then narrowing;
//! - `fold_sub_words`: a 16-bit (or 8-bit in a `.b16` register) value through 16-bit
//!   arithmetic with a boundary constant, widened by `cvt` (zero or sign extension) and
//!   consumed by a 32-bit shift;
//! - `fold_two_paths`: one value reaching a consumer by two paths (`(v & m) op (v >> k)`; with
//!   `glue_bits` the second path may be a rotate `shf.*.wrap v, v, k` or a constant-field
//!   `bfe`);
//! - `fold_narrow_stores`: a 16-bit value (from a float `cvt` to `.f16`/`.bf16`, or 16-bit
//!   arithmetic) stored to the thread's shared slot with an 8- or 16-bit `st.shared` (§9.7.9.11:
//!   the low bits are stored), loaded back zero or sign extending, and added to the value it
//!   came from (the shape of root cause A of `corpus/findings/fuzz-h200/`). Top level only,
//!   and it needs the `shared` family (a disabled family never appears).
//! - `fold_known_bits`: a known-bits producer (a boundary mask or a shift by a constant, a
//!   `cvt` sign or zero extension from 8/16 bits, `prmt` with an immediate selector in any
//!   allowed mode, `bfe` of a constant field) feeding a known-bits consumer (a mask, an
//!   extension by `bfe` from bit 0 or `shl`+`shr`, `setp` against a boundary into `selp`,
//!   `selp`/`slct`, a narrow shared round trip, a `cvt` to any type);
//! - `fold_diamonds`: an if/else diamond (`@p bra ELSE`, then arm, `bra JOIN`, `ELSE:`, else
//!   arm, `JOIN:`) whose arms rewrite the same registers defined before it, then a consumer of
//!   the joined values: what ptxas turns into selects or predication;
//! - `fold_loops`: a counted loop at the top level, [`MAX_TRIPS`] trips at most, the same in
//!   every thread (counter from an immediate, stepped and compared with immediates, reserved
//!   from the register pool while the body is drawn), with a loop-carried accumulator.
//!
//! The conversion ingredients need the `cvt` family on (a disabled family never appears).
//! Constants come from the integer edge pools ([`values::edge`]): 0, ±1, the limits ± 1,
//! powers of two ± 1. Every link goes through [`Builder::push_glue`]/[`Builder::push_isa`], so
//! the register bookkeeping (defined, unread, guarded writes only to defined registers) is
//! the builder's; a chain never leaves a branch open, and a diamond's arms write only
//! registers defined before it (so the registers defined after its join are those before).

use arbitrary::Result;

use oracle::isa::operand::OperandKind;
use oracle::isa::{CvtType, Form, Instruction, Operand};
use oracle::program::{Cmp, Glue, GlueOp, GlueType, PredGuard, Reg, RegClass, Special, Src};

use super::builder::{addr, Builder, ShByte};
use super::tables::{operand_class, Mem, PlainCvt};
use super::values::{self, Kind};

/// One chain shape (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ingredient {
    /// `fold_masks`.
    Masks,
    /// `fold_selects`.
    Selects,
    /// `fold_if_conversion`.
    IfConversion,
    /// `fold_round_trips`.
    RoundTrips,
    /// `fold_sub_words`.
    SubWords,
    /// `fold_two_paths`.
    TwoPaths,
    /// `fold_narrow_stores`.
    NarrowStores,
    /// `fold_known_bits`.
    KnownBits,
    /// `fold_diamonds`.
    Diamonds,
    /// `fold_loops`.
    Loops,
}

/// A chain's integer width and signedness; each link takes the glue type its opcode needs at
/// that width (`.bN` for the logical ops, `.uN`/`.sN` for arithmetic and comparisons).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Width {
    bits: u32,
    signed: bool,
}

/// The widths the chains compute in.
const WIDTHS: [Width; 6] = [
    Width { bits: 16, signed: false },
    Width { bits: 16, signed: true },
    Width { bits: 32, signed: false },
    Width { bits: 32, signed: true },
    Width { bits: 64, signed: false },
    Width { bits: 64, signed: true },
];

impl Width {
    /// The glue type `op` takes at this width (`shr` keeps the signedness: arithmetic or
    /// logical).
    fn ty(self, op: GlueOp) -> GlueType {
        let logical = matches!(op, GlueOp::And | GlueOp::Or | GlueOp::Xor | GlueOp::Not | GlueOp::Shl | GlueOp::Selp);
        match (self.bits, logical, self.signed) {
            (16, true, _) => GlueType::B16,
            (32, true, _) => GlueType::B32,
            (_, true, _) => GlueType::B64,
            (16, false, false) => GlueType::U16,
            (16, false, true) => GlueType::S16,
            (32, false, false) => GlueType::U32,
            (32, false, true) => GlueType::S32,
            (_, false, false) => GlueType::U64,
            (_, false, true) => GlueType::S64,
        }
    }

    fn class(self) -> RegClass {
        self.ty(GlueOp::And).class()
    }

    fn kind(self) -> Kind {
        Kind::int(self.bits, self.signed)
    }
}

/// Shift amounts that sit on a boundary of some width (the clamping amounts included).
const SHIFTS: [u64; 9] = [0, 1, 7, 8, 15, 16, 31, 32, 63];

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The operand of a register.
fn reg_op(r: Reg) -> Operand {
    Operand::Name(r.to_string())
}

impl Builder<'_, '_> {
    /// The chain ingredients the configuration enables.
    fn ingredients(&self) -> Vec<Ingredient> {
        let c = &self.cfg;
        [
            (c.fold_masks, Ingredient::Masks),
            (c.fold_selects, Ingredient::Selects),
            (c.fold_if_conversion && (self.depth() as u32) < c.max_depth, Ingredient::IfConversion),
            (c.fold_round_trips && c.cvt, Ingredient::RoundTrips),
            (c.fold_sub_words && c.cvt, Ingredient::SubWords),
            (c.fold_two_paths, Ingredient::TwoPaths),
            (c.fold_narrow_stores && c.shared && self.shape.shared > 0 && self.depth() == 0, Ingredient::NarrowStores),
            (c.fold_known_bits, Ingredient::KnownBits),
            (c.fold_diamonds && (self.depth() as u32) < c.max_depth, Ingredient::Diamonds),
            (c.fold_loops && self.depth() == 0, Ingredient::Loops),
        ]
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, i)| i)
        .collect()
    }

    /// One optimizer-stressing chain (see the module documentation); `false` when no enabled
    /// ingredient could be emitted.
    pub fn step_fold(&mut self) -> Result<bool> {
        let ings = self.ingredients();
        if ings.is_empty() {
            return Ok(false);
        }
        match ings[self.index(ings.len())?] {
            Ingredient::Masks => self.fold_masks(),
            Ingredient::Selects => self.fold_selects(),
            Ingredient::IfConversion => self.fold_if_conversion(),
            Ingredient::RoundTrips => self.fold_round_trips(),
            Ingredient::SubWords => self.fold_sub_words(),
            Ingredient::TwoPaths => self.fold_two_paths(),
            Ingredient::NarrowStores => self.fold_narrow_stores(),
            Ingredient::KnownBits => self.fold_known_bits(),
            Ingredient::Diamonds => self.fold_diamonds(),
            Ingredient::Loops => self.fold_loops(),
        }
    }

    /// Whether the target takes glue `op.ty`.
    fn glue_ok(&self, op: GlueOp, ty: GlueType) -> bool {
        self.tb.glue.contains(&(op, ty))
    }

    /// A chain width at which the target takes every op in `ops`.
    fn chain_width(&mut self, ops: &[GlueOp]) -> Result<Option<Width>> {
        let ok: Vec<Width> = WIDTHS.into_iter().filter(|&w| ops.iter().all(|&op| self.glue_ok(op, w.ty(op)))).collect();
        if ok.is_empty() {
            return Ok(None);
        }
        Ok(Some(ok[self.index(ok.len())?]))
    }

    /// A boundary constant at width `w` (the integer edge pool), in its width.
    fn boundary(&mut self, w: Width) -> u64 {
        values::edge(self.u, w.kind()) & mask(w.bits)
    }

    /// A boundary mask: a low or high run of ones, a single bit, or a boundary constant.
    fn boundary_mask(&mut self, w: Width) -> Result<u64> {
        let k = self.u.int_in_range(0..=w.bits)?;
        let m = match self.u.int_in_range(0u8..=3)? {
            0 => mask(k),
            1 => !mask(k),
            2 => 1u64.checked_shl(k).unwrap_or(0),
            _ => self.boundary(w),
        };
        Ok(m & mask(w.bits))
    }

    /// A boundary shift amount.
    fn boundary_shift(&mut self) -> Result<u64> {
        Ok(SHIFTS[self.index(SHIFTS.len())?])
    }

    /// Emits `op d, a, b` at width `w` (`b` absent for unary ops) into a new register;
    /// returns `d`.
    fn link(&mut self, op: GlueOp, w: Width, a: Reg, b: Option<Src>) -> Reg {
        let ty = w.ty(op);
        let dst = self.new_reg(Glue::dst_class(op, ty));
        self.push_glue(None, Glue { op, ty, dst, src: [Some(Src::Reg(a)), b, None, None] });
        dst
    }

    /// The chain's first value: a source register of width `w`.
    fn chain_source(&mut self, w: Width) -> Result<Reg> {
        self.src_reg(w.class(), w.kind())
    }

    /// `and`/`or` with boundary masks and shifts by boundary amounts, 2–4 links.
    fn fold_masks(&mut self) -> Result<bool> {
        let ops = [GlueOp::And, GlueOp::Or, GlueOp::Shl, GlueOp::Shr];
        let Some(w) = self.chain_width(&ops)? else { return Ok(false) };
        let mut v = self.chain_source(w)?;
        for _ in 0..self.u.int_in_range(2u8..=4)? {
            let op = ops[self.index(ops.len())?];
            let b = match op {
                GlueOp::Shl | GlueOp::Shr => Src::Imm(self.boundary_shift()?),
                _ => Src::Imm(self.boundary_mask(w)?),
            };
            v = self.link(op, w, v, Some(b));
        }
        Ok(true)
    }

    /// `setp` of a value against a boundary, `selp` on it, and a guarded rewrite of the
    /// select's result under the same predicate.
    fn fold_selects(&mut self) -> Result<bool> {
        let Some(w) = self.chain_width(&[GlueOp::Setp(Cmp::Eq), GlueOp::Selp, GlueOp::And])? else {
            return Ok(false);
        };
        let v = self.chain_source(w)?;
        let cmp = Cmp::ALL[self.index(Cmp::ALL.len())?];
        let limit = self.boundary(w);
        let p = self.link(GlueOp::Setp(cmp), w, v, Some(Src::Imm(limit)));
        let other = Src::Imm(self.boundary(w));
        let d = self.new_reg(w.class());
        let select = Glue {
            op: GlueOp::Selp,
            ty: w.ty(GlueOp::Selp),
            dst: d,
            src: [Some(Src::Reg(v)), Some(other), Some(Src::Reg(p)), None],
        };
        self.push_glue(None, select);
        let Reg::Virt(_, pred) = p else { return Ok(true) };
        let guard = PredGuard { pred, negated: self.u.arbitrary::<bool>()? };
        let m = Src::Imm(self.boundary_mask(w)?);
        // `d` is defined (written just above, unguarded), so the guarded write may target it.
        let rewrite =
            Glue { op: GlueOp::And, ty: w.ty(GlueOp::And), dst: d, src: [Some(Src::Reg(v)), Some(m), None, None] };
        self.push_glue(Some(guard), rewrite);
        Ok(true)
    }

    /// `@p bra` on a data comparison around one or two rewrites of a register defined before.
    fn fold_if_conversion(&mut self) -> Result<bool> {
        let rewrites = [GlueOp::Add, GlueOp::And, GlueOp::Shl];
        let Some(w) = self.chain_width(&[GlueOp::Setp(Cmp::Eq), GlueOp::Add, GlueOp::And, GlueOp::Shl])? else {
            return Ok(false);
        };
        let v = self.chain_source(w)?;
        let cmp = Cmp::ALL[self.index(Cmp::ALL.len())?];
        let limit = self.boundary(w);
        let p = self.link(GlueOp::Setp(cmp), w, v, Some(Src::Imm(limit)));
        // The rewritten register: defined before the branch, so it stays defined after it.
        let outer = self.defined(w.class()).to_vec();
        if outer.is_empty() {
            return Ok(true);
        }
        let target = outer[self.index(outer.len())?];
        self.open_branch_on(p)?;
        for _ in 0..self.u.int_in_range(1u8..=2)? {
            let op = rewrites[self.index(rewrites.len())?];
            let b = if op == GlueOp::Shl { self.boundary_shift()? } else { self.boundary(w) };
            let glue = Glue { op, ty: w.ty(op), dst: target, src: [Some(Src::Reg(v)), Some(Src::Imm(b)), None, None] };
            self.push_glue(None, glue);
        }
        self.close_branch();
        Ok(true)
    }

    /// `cvt.a.b` then `cvt.b.a` of its result: a conversion and its inverse, both plain forms
    /// ([`Tables::cvt_plain`](super::tables::Tables::cvt_plain)) the configuration allows.
    fn fold_round_trips(&mut self) -> Result<bool> {
        let tb = self.tb;
        let allow = self.allow(true);
        let ok: Vec<PlainCvt> =
            tb.cvt_plain.iter().copied().filter(|p| allow(tb.cvt.items[p.item as usize].feat)).collect();
        let inverse = |p: &PlainCvt, q: &PlainCvt| q.dtype == p.atype && q.atype == p.dtype;
        let forward: Vec<PlainCvt> = ok.iter().copied().filter(|p| ok.iter().any(|q| inverse(p, q))).collect();
        if forward.is_empty() {
            return Ok(false);
        }
        let first = forward[self.index(forward.len())?];
        let back: Vec<PlainCvt> = ok.iter().copied().filter(|q| inverse(&first, q)).collect();
        let second = back[self.index(back.len())?];
        let Some(x) = self.emit_cvt(&tb.cvt.items[first.item as usize].form, None)? else { return Ok(false) };
        self.emit_cvt(&tb.cvt.items[second.item as usize].form, Some(x))?;
        Ok(true)
    }

    /// Emits a plain two-register `cvt` form reading `src` (or a fresh source of its type);
    /// returns the destination.
    fn emit_cvt(&mut self, form: &Form, src: Option<Reg>) -> Result<Option<Reg>> {
        let ops = form.operands();
        let (Some(OperandKind::Reg(dt)), Some(OperandKind::Reg(at)), Form::Cvt(c)) =
            (ops.first().map(|s| s.kind), ops.get(1).map(|s| s.kind), form)
        else {
            return Ok(None);
        };
        let (Some(dc), Some(ac)) = (operand_class(form, dt), operand_class(form, at)) else { return Ok(None) };
        let a = match src {
            Some(r) if r.class() == ac => r,
            _ => {
                let kind = if c.atype.is_int() {
                    Kind::int(c.atype.bits(), c.atype.is_signed_int())
                } else {
                    Kind::Bits(c.atype.bits())
                };
                self.src_reg(ac, kind)?
            }
        };
        let d = self.new_reg(dc);
        self.push_isa(Instruction { guard: None, form: form.clone(), operands: vec![reg_op(d), reg_op(a)] });
        Ok(Some(d))
    }

    /// A 16-bit value through 16-bit arithmetic with a boundary constant, widened by `cvt`
    /// (from its 16 or low 8 bits, zero or sign extending) and shifted as a 32-bit value.
    fn fold_sub_words(&mut self) -> Result<bool> {
        let w = Width { bits: 16, signed: self.u.arbitrary::<bool>()? };
        let op = [GlueOp::Add, GlueOp::And, GlueOp::Shl, GlueOp::Shr][self.index(4)?];
        let to = if self.u.arbitrary::<bool>()? { CvtType::S32 } else { CvtType::U32 };
        let wide_w = Width { bits: 32, signed: to == CvtType::S32 };
        if !self.glue_ok(op, w.ty(op)) || !self.glue_ok(GlueOp::Shr, wide_w.ty(GlueOp::Shr)) {
            return Ok(false);
        }
        let v = self.chain_source(w)?;
        let b = if matches!(op, GlueOp::Shl | GlueOp::Shr) { self.boundary_shift()? } else { self.boundary(w) };
        let narrow = self.link(op, w, v, Some(Src::Imm(b)));
        let from = [CvtType::U16, CvtType::S16, CvtType::U8, CvtType::S8][self.index(4)?];
        let Some(form) = self.plain_cvt(from, to)? else { return Ok(true) };
        let Some(wide) = self.emit_cvt(&form, Some(narrow))? else { return Ok(true) };
        let amount = self.boundary_shift()?;
        self.link(GlueOp::Shr, wide_w, wide, Some(Src::Imm(amount)));
        Ok(true)
    }

    /// `(v & m) op (v >> k)`: the same value reaching one consumer by two paths.
    fn fold_two_paths(&mut self) -> Result<bool> {
        let joins = [GlueOp::Add, GlueOp::Xor, GlueOp::Or, GlueOp::Sub];
        let join = joins[self.index(joins.len())?];
        let Some(w) = self.chain_width(&[GlueOp::And, GlueOp::Shr, GlueOp::Shl, join])? else { return Ok(false) };
        let v = self.chain_source(w)?;
        let m = Src::Imm(self.boundary_mask(w)?);
        let left = self.link(GlueOp::And, w, v, Some(m));
        let right = self.second_path(w, v)?;
        self.link(join, w, left, Some(Src::Reg(right)));
        Ok(true)
    }

    /// The second path of `fold_two_paths` from `v`: a shift by a boundary amount, or (half
    /// the time, where `glue_bits` is on) a rotate `shf.{l,r}.wrap v, v, k` at 32 bits or a
    /// `bfe` of a constant field at 32/64 bits.
    fn second_path(&mut self, w: Width, v: Reg) -> Result<Reg> {
        let rotate = GlueOp::Shf { left: self.u.arbitrary::<bool>()?, wrap: true };
        let bfe_ty = w.ty(GlueOp::Bfe);
        if self.cfg.glue_bits && self.u.arbitrary::<bool>()? {
            if w.bits == 32 && self.glue_ok(rotate, GlueType::B32) && self.u.arbitrary::<bool>()? {
                let k = Src::Imm(self.boundary_shift()?);
                let d = self.new_reg(RegClass::B32);
                self.push_glue(None, Glue::new(rotate, GlueType::B32, d, &[Src::Reg(v), Src::Reg(v), k]));
                return Ok(d);
            }
            if self.glue_ok(GlueOp::Bfe, bfe_ty) {
                let pos = Src::Imm(self.boundary_shift()? & 0xFF);
                let len = Src::Imm(self.boundary_shift()? & 0xFF);
                let d = self.new_reg(w.class());
                self.push_glue(None, Glue::new(GlueOp::Bfe, bfe_ty, d, &[Src::Reg(v), pos, len]));
                return Ok(d);
            }
        }
        let shift = if self.u.arbitrary::<bool>()? { GlueOp::Shr } else { GlueOp::Shl };
        let k = Src::Imm(self.boundary_shift()?);
        Ok(self.link(shift, w, v, Some(k)))
    }

    /// A 16-bit value stored narrow to the own shared slot, loaded back and added to itself
    /// (see the module documentation).
    fn fold_narrow_stores(&mut self) -> Result<bool> {
        let tb = self.tb;
        let allow = self.allow(true);
        if !self.can_store_narrow() {
            return Ok(false);
        }
        // The producer: a float conversion into 16 bits, or 16-bit arithmetic.
        let to_half: Vec<PlainCvt> = tb
            .cvt_plain
            .iter()
            .copied()
            .filter(|p| matches!(p.dtype, CvtType::F16 | CvtType::Bf16) && allow(tb.cvt.items[p.item as usize].feat))
            .collect();
        let w = Width { bits: 16, signed: self.u.arbitrary::<bool>()? };
        let v = if self.cfg.cvt && !to_half.is_empty() && self.u.arbitrary::<bool>()? {
            let p = to_half[self.index(to_half.len())?];
            match self.emit_cvt(&tb.cvt.items[p.item as usize].form, None)? {
                Some(v) => v,
                None => return Ok(true),
            }
        } else {
            let x = self.chain_source(w)?;
            let b = self.boundary(w);
            self.link(GlueOp::Add, w, x, Some(Src::Imm(b)))
        };
        self.narrow_store_round_trip(v, w)
    }

    /// Whether a narrow shared round trip can be emitted here: the `shared` family on, shared
    /// memory, the top level, and a store form of one `.b16`-register element of 1 or 2 bytes
    /// with free bytes whose load form exists.
    fn can_store_narrow(&self) -> bool {
        if !self.cfg.shared || self.shape.shared == 0 || self.depth() > 0 {
            return false;
        }
        let tb = self.tb;
        let allow = self.allow(true);
        let narrow = |m: &Mem| m.n == 1 && m.class == RegClass::B16 && matches!(m.size, 1 | 2) && allow(m.feat);
        tb.st_shared.iter().any(|st| {
            narrow(st)
                && !free_offsets(st.size, &self.shared).is_empty()
                && tb.ld_shared.iter().any(|m| narrow(m) && m.size == st.size)
        })
    }

    /// Stores the `.b16` value `v` to free bytes of the own shared slot with an 8- or 16-bit
    /// `st.shared` (§9.7.9.11), loads it back (zero or sign extending) and adds the value it
    /// came from at width `w`.
    fn narrow_store_round_trip(&mut self, v: Reg, w: Width) -> Result<bool> {
        let tb = self.tb;
        let allow = self.allow(true);
        let narrow = |m: &Mem| m.n == 1 && m.class == RegClass::B16 && matches!(m.size, 1 | 2) && allow(m.feat);
        let stores: Vec<&Mem> =
            tb.st_shared.iter().filter(|m| narrow(m) && !free_offsets(m.size, &self.shared).is_empty()).collect();
        if stores.is_empty() || self.depth() > 0 {
            return Ok(false);
        }
        let st = stores[self.index(stores.len())?];
        let loads: Vec<&Mem> = tb.ld_shared.iter().filter(|m| narrow(m) && m.size == st.size).collect();
        if loads.is_empty() {
            return Ok(false);
        }
        let ld = loads[self.index(loads.len())?];
        let offs = free_offsets(st.size, &self.shared);
        let off = offs[self.index(offs.len())?];
        let at = addr(Special::Sh, off);
        let (st_form, ld_form, size) = (st.form.clone(), ld.form.clone(), st.size);
        self.push_isa(Instruction { guard: None, form: st_form, operands: vec![at.clone(), reg_op(v)] });
        for b in off..off + size {
            self.shared[b as usize] = ShByte::Own;
        }
        let back = self.new_reg(RegClass::B16);
        self.push_isa(Instruction { guard: None, form: ld_form, operands: vec![reg_op(back), at] });
        self.link(GlueOp::Add, w, back, Some(Src::Reg(v)));
        Ok(true)
    }
}

/// Offsets of `size` aligned bytes of the own shared slot that were never stored.
fn free_offsets(size: u32, shared: &[ShByte]) -> Vec<u32> {
    (0..shared.len() as u32 / size)
        .map(|i| i * size)
        .filter(|&o| shared[o as usize..(o + size) as usize].iter().all(|&b| b == ShByte::Empty))
        .collect()
}

/// The most trips of a generated counted loop (`fold_loops`): short enough that a program of
/// 40 instructions stays cheap to interpret and that ptxas may unroll it whole.
pub const MAX_TRIPS: u32 = 8;

/// Probability (‰) that a loop's accumulator update reads the loop counter (an induction
/// variable feeding data) rather than a constant or another value.
const COUNTER_AS_DATA_PERMILLE: u32 = 300;

/// A known-bits producer's output: the register and the width it was computed at.
type Known = (Reg, Width);

impl Builder<'_, '_> {
    /// `fold_known_bits`: a known-bits producer feeding a known-bits consumer.
    fn fold_known_bits(&mut self) -> Result<bool> {
        let Some(v) = self.known_bits_producer()? else { return Ok(false) };
        self.known_bits_consumer(v)?;
        Ok(true)
    }

    /// A value some of whose bits the compiler knows: a boundary mask, a shift by a constant,
    /// `prmt` with an immediate selector (any mode the configuration allows; §9.7.9.7), `bfe`
    /// with a constant position and length (§9.7.1.19), or a `cvt` sign or zero extension of
    /// an 8- or 16-bit value (§9.7.9.21). `None` when no enabled producer fits.
    fn known_bits_producer(&mut self) -> Result<Option<Known>> {
        let c = &self.cfg;
        let producers: Vec<u8> = [(0u8, true), (1, true), (2, c.prmt), (3, c.glue_bits), (4, c.cvt)]
            .into_iter()
            .filter(|&(_, on)| on)
            .map(|(k, _)| k)
            .collect();
        match producers[self.index(producers.len())?] {
            0 | 1 => {
                let ops = [GlueOp::And, GlueOp::Or, GlueOp::Shl, GlueOp::Shr];
                let Some(w) = self.chain_width(&ops)? else { return Ok(None) };
                let x = self.chain_source(w)?;
                let (op, b) = if self.u.arbitrary::<bool>()? {
                    (if self.u.arbitrary::<bool>()? { GlueOp::And } else { GlueOp::Or }, self.boundary_mask(w)?)
                } else {
                    (if self.u.arbitrary::<bool>()? { GlueOp::Shl } else { GlueOp::Shr }, self.boundary_shift()?)
                };
                Ok(Some((self.link(op, w, x, Some(Src::Imm(b))), w)))
            }
            2 => {
                let tb = self.tb;
                let allow = self.allow(true);
                let Some(e) = self.pick(&tb.prmt, |k| allow(k.feat))? else { return Ok(None) };
                let form = e.form.clone();
                let sel = values::edge(self.u, Kind::Selector) & 0xFFFF;
                let fixed = [("c", Operand::Imm(oracle::isa::operand::Imm::Int(i128::from(sel))))];
                let kinds = |_: &str, _: usize| Kind::Bits(32);
                if !self.emit_form(&form, &fixed, &kinds, super::builder::GuardMode::Never, false)? {
                    return Ok(None);
                }
                let d = self.last_dst();
                Ok(d.map(|d| (d, Width { bits: 32, signed: false })))
            }
            3 => {
                let w = Width { bits: if self.u.arbitrary::<bool>()? { 32 } else { 64 }, signed: self.u.arbitrary()? };
                let ty = w.ty(GlueOp::Bfe);
                if !self.glue_ok(GlueOp::Bfe, ty) {
                    return Ok(None);
                }
                let x = self.chain_source(w)?;
                let pos = u64::from(self.u.int_in_range(0..=w.bits)?);
                const LENS: [u64; 6] = [0, 1, 7, 8, 16, 31];
                let len = if self.u.arbitrary::<bool>()? {
                    LENS[self.index(LENS.len())?]
                } else {
                    u64::from(w.bits) - pos.min(u64::from(w.bits))
                };
                let d = self.new_reg(w.class());
                self.push_glue(None, Glue::new(GlueOp::Bfe, ty, d, &[Src::Reg(x), Src::Imm(pos), Src::Imm(len)]));
                Ok(Some((d, w)))
            }
            _ => {
                let from = [CvtType::U16, CvtType::S16, CvtType::U8, CvtType::S8][self.index(4)?];
                let to = [CvtType::U32, CvtType::S32, CvtType::U64, CvtType::S64][self.index(4)?];
                let Some(form) = self.plain_cvt(from, to)? else { return Ok(None) };
                let Some(d) = self.emit_cvt(&form, None)? else { return Ok(None) };
                Ok(Some((d, Width { bits: to.bits(), signed: to.is_signed_int() })))
            }
        }
    }

    /// The destination register of the statement just emitted (its first operand).
    fn last_dst(&self) -> Option<Reg> {
        match self.body.last()? {
            oracle::program::Stmt::Isa(i) => match i.operands.first()? {
                Operand::Name(n) => Reg::parse(n),
                _ => None,
            },
            oracle::program::Stmt::Glue { glue, .. } => Some(glue.dst),
            _ => None,
        }
    }

    /// A plain `cvt.to.from` form the configuration allows, if any.
    fn plain_cvt(&mut self, from: CvtType, to: CvtType) -> Result<Option<Form>> {
        self.plain_cvt_where(|p| p.atype == from && p.dtype == to)
    }

    /// One of the plain `cvt` forms that `keep` takes and the configuration allows, drawn
    /// uniformly (one draw, none when there is no such form).
    fn plain_cvt_where(&mut self, keep: impl Fn(&PlainCvt) -> bool) -> Result<Option<Form>> {
        let tb = self.tb;
        let allow = self.allow(true);
        let ok: Vec<PlainCvt> =
            tb.cvt_plain.iter().copied().filter(|p| keep(p) && allow(tb.cvt.items[p.item as usize].feat)).collect();
        if ok.is_empty() {
            return Ok(None);
        }
        Ok(Some(tb.cvt.items[ok[self.index(ok.len())?].item as usize].form.clone()))
    }

    /// A consumer of the known-bits value `v`: a mask, a sign or zero extension of its low
    /// bits (`bfe` from bit 0, or `shl` then `shr` by the same constant), a comparison with a
    /// boundary feeding `selp`, a select (`selp`, or `slct` on it), a narrow shared store
    /// (through a `cvt` to 16 bits for wider values), or a conversion (`cvt` to any type).
    fn known_bits_consumer(&mut self, (v, w): Known) -> Result<()> {
        let c = &self.cfg;
        let narrow_ok = self.can_store_narrow() && (w.bits == 16 || c.cvt);
        let consumers: Vec<u8> = [(0u8, true), (1, true), (2, true), (3, true), (4, narrow_ok), (5, c.cvt)]
            .into_iter()
            .filter(|&(_, on)| on)
            .map(|(k, _)| k)
            .collect();
        match consumers[self.index(consumers.len())?] {
            0 => {
                let m = self.boundary_mask(w)?;
                self.link(GlueOp::And, w, v, Some(Src::Imm(m)));
            }
            1 => {
                const FIELDS: [u32; 3] = [8, 16, 32];
                let bits = FIELDS[self.index(FIELDS.len())?].min(w.bits);
                let signed = self.u.arbitrary::<bool>()?;
                let ext = Width { bits: w.bits, signed };
                let bfe_ty = ext.ty(GlueOp::Bfe);
                if self.cfg.glue_bits && self.glue_ok(GlueOp::Bfe, bfe_ty) && self.u.arbitrary::<bool>()? {
                    let d = self.new_reg(w.class());
                    let srcs = [Src::Reg(v), Src::Imm(0), Src::Imm(u64::from(bits))];
                    self.push_glue(None, Glue::new(GlueOp::Bfe, bfe_ty, d, &srcs));
                } else {
                    let k = u64::from(w.bits - bits);
                    let t = self.link(GlueOp::Shl, w, v, Some(Src::Imm(k)));
                    self.link(GlueOp::Shr, ext, t, Some(Src::Imm(k)));
                }
            }
            2 => {
                let cmp = Cmp::ALL[self.index(Cmp::ALL.len())?];
                let limit = self.boundary(w);
                let p = self.link(GlueOp::Setp(cmp), w, v, Some(Src::Imm(limit)));
                let other = self.boundary(w);
                let d = self.new_reg(w.class());
                let srcs = [Src::Reg(v), Src::Imm(other), Src::Reg(p)];
                self.push_glue(None, Glue::new(GlueOp::Selp, w.ty(GlueOp::Selp), d, &srcs));
            }
            3 => {
                let other = self.chain_source(w)?;
                let ty = w.ty(GlueOp::Slct);
                if self.cfg.glue_select
                    && w.bits == 32
                    && self.glue_ok(GlueOp::Slct, ty)
                    && self.u.arbitrary::<bool>()?
                {
                    // The known-bits value as slct's selector: its sign decides.
                    let d = self.new_reg(w.class());
                    self.push_glue(None, Glue::new(GlueOp::Slct, ty, d, &[Src::Reg(other), Src::Imm(0), Src::Reg(v)]));
                } else {
                    let p = self.guard_pred()?;
                    let d = self.new_reg(w.class());
                    let srcs = [Src::Reg(v), Src::Reg(other), Src::Reg(p)];
                    self.push_glue(None, Glue::new(GlueOp::Selp, w.ty(GlueOp::Selp), d, &srcs));
                }
            }
            4 => {
                let h = if w.bits == 16 {
                    v
                } else {
                    let from = if w.signed {
                        if w.bits == 32 {
                            CvtType::S32
                        } else {
                            CvtType::S64
                        }
                    } else if w.bits == 32 {
                        CvtType::U32
                    } else {
                        CvtType::U64
                    };
                    let to = if self.u.arbitrary::<bool>()? { CvtType::U16 } else { CvtType::S16 };
                    let Some(form) = self.plain_cvt(from, to)? else { return Ok(()) };
                    let Some(h) = self.emit_cvt(&form, Some(v))? else { return Ok(()) };
                    h
                };
                self.narrow_store_round_trip(h, Width { bits: 16, signed: w.signed })?;
            }
            _ => {
                let from = match (w.bits, w.signed) {
                    (16, false) => CvtType::U16,
                    (16, true) => CvtType::S16,
                    (32, false) => CvtType::U32,
                    (32, true) => CvtType::S32,
                    (_, false) => CvtType::U64,
                    (_, true) => CvtType::S64,
                };
                if let Some(form) = self.plain_cvt_where(|p| p.atype == from)? {
                    self.emit_cvt(&form, Some(v))?;
                }
            }
        }
        Ok(())
    }

    /// `fold_diamonds`: `setp p` on a data comparison, `@p bra ELSE`, a then arm rewriting one
    /// or two registers defined before, `bra JOIN`, `ELSE:` an else arm rewriting the same
    /// registers differently, `JOIN:` and a consumer of the joined values. The arms read only
    /// the compared value, the targets and constants, so every register defined after the join
    /// was defined before the branch (on both paths).
    fn fold_diamonds(&mut self) -> Result<bool> {
        const ARM_OPS: [GlueOp; 6] = [GlueOp::Add, GlueOp::Xor, GlueOp::And, GlueOp::Or, GlueOp::Shl, GlueOp::Sub];
        let Some(w) = self.chain_width(&[GlueOp::Setp(Cmp::Eq), GlueOp::Add, GlueOp::Xor, GlueOp::Sub])? else {
            return Ok(false);
        };
        if !ARM_OPS.iter().all(|&op| self.glue_ok(op, w.ty(op))) {
            return Ok(false);
        }
        let v = self.chain_source(w)?;
        let outer: Vec<Reg> = self.defined(w.class()).to_vec();
        let mut targets = vec![outer[self.index(outer.len())?]];
        if outer.len() > 1 && self.u.arbitrary::<bool>()? {
            let t = outer[self.index(outer.len())?];
            if t != targets[0] {
                targets.push(t);
            }
        }
        let cmp = Cmp::ALL[self.index(Cmp::ALL.len())?];
        let limit = self.boundary(w);
        let p = self.link(GlueOp::Setp(cmp), w, v, Some(Src::Imm(limit)));
        let saved = self.defined_snapshot();
        self.open_branch_on(p)?;
        self.diamond_arm(w, v, &targets, &ARM_OPS)?;
        let join = self.fresh_label();
        self.jump(None, join);
        self.close_branch();
        self.diamond_arm(w, v, &targets, &ARM_OPS)?;
        self.place_label(join);
        self.restore_defined(saved);
        let other = if targets.len() > 1 { targets[1] } else { v };
        let join_op = if self.u.arbitrary::<bool>()? { GlueOp::Add } else { GlueOp::Xor };
        self.link(join_op, w, targets[0], Some(Src::Reg(other)));
        Ok(true)
    }

    /// One arm of a diamond: each target rewritten by one or two ops on `v`, the target and
    /// constants.
    fn diamond_arm(&mut self, w: Width, v: Reg, targets: &[Reg], ops: &[GlueOp]) -> Result<()> {
        for &t in targets {
            for _ in 0..self.u.int_in_range(1u8..=2)? {
                let op = ops[self.index(ops.len())?];
                let a = if self.u.arbitrary::<bool>()? { v } else { t };
                let b = match op {
                    GlueOp::Shl => Src::Imm(self.boundary_shift()?),
                    _ if self.u.arbitrary::<bool>()? => Src::Reg(if a == v { t } else { v }),
                    _ => Src::Imm(self.boundary(w)),
                };
                self.push_glue(None, Glue::new(op, w.ty(op), t, &[Src::Reg(a), b]));
            }
        }
        Ok(())
    }

    /// `fold_loops`: a counted loop at the top level (see [`MAX_TRIPS`]): a counter from an
    /// immediate, the loop head, a loop-carried accumulator update (sometimes reading the
    /// counter), zero to two glue steps, the counter's step, and `setp` + `@p bra` back to the
    /// head. The counter is reserved while the body is drawn, so nothing else writes it; its
    /// start, step and bound are immediates, so every thread takes the same number of trips.
    fn fold_loops(&mut self) -> Result<bool> {
        const UPDATES: [GlueOp; 5] = [GlueOp::Add, GlueOp::Xor, GlueOp::MulLo, GlueOp::Or, GlueOp::Shl];
        if self.depth() > 0 {
            return Ok(false);
        }
        let Some(w) = self.chain_width(&UPDATES)? else { return Ok(false) };
        // The accumulator: a register the program wrote (never `%tix`, which a source may be).
        let outer = self.defined(w.class()).to_vec();
        let acc = if outer.is_empty() { self.produce(w.class(), w.kind())? } else { outer[self.index(outer.len())?] };
        let trips = self.u.int_in_range(1..=MAX_TRIPS)?;
        let step = self.u.int_in_range(1u32..=3)?;
        let down = self.u.arbitrary::<bool>()?;
        let (start, end) = if down { (trips * step, 0) } else { (0, trips * step) };
        let counter = self.new_reg(RegClass::B32);
        let init = format!("mov.u32 {counter}, {start};");
        let Ok(oracle::program::Stmt::Isa(mov)) = oracle::program::text::parse_stmt(0, &init) else {
            return Ok(false);
        };
        self.push_isa(mov);
        self.reserve(counter);
        let head = self.fresh_label();
        self.place_label(head);
        let op = UPDATES[self.index(UPDATES.len())?];
        let b = if op == GlueOp::Shl {
            if self.chance(COUNTER_AS_DATA_PERMILLE)? {
                Src::Reg(counter)
            } else {
                Src::Imm(self.boundary_shift()?)
            }
        } else if w.bits == 32 && self.chance(COUNTER_AS_DATA_PERMILLE)? {
            Src::Reg(counter)
        } else if self.u.arbitrary::<bool>()? {
            Src::Imm(self.boundary(w))
        } else {
            Src::Reg(self.chain_source(w)?)
        };
        self.push_glue(None, Glue::new(op, w.ty(op), acc, &[Src::Reg(acc), b]));
        for _ in 0..self.u.int_in_range(0u8..=2)? {
            self.emit_glue()?;
        }
        let (step_op, cmp) = if down {
            (GlueOp::Sub, if self.u.arbitrary::<bool>()? { Cmp::Gt } else { Cmp::Ne })
        } else {
            (GlueOp::Add, if self.u.arbitrary::<bool>()? { Cmp::Lt } else { Cmp::Ne })
        };
        let u32w = Width { bits: 32, signed: false };
        self.push_glue(None, Glue::new(step_op, GlueType::U32, counter, &[Src::Reg(counter), Src::Imm(step.into())]));
        let p = self.link(GlueOp::Setp(cmp), u32w, counter, Some(Src::Imm(end.into())));
        let Reg::Virt(_, pred) = p else { return Ok(true) };
        self.jump(Some(PredGuard { pred, negated: false }), head);
        Ok(true)
    }
}
