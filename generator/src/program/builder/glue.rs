//! The builder's glue step: which glue ingredient (`glue_*` knob, [`GLUE_GROUPS`]) and which
//! (op, type) pair it emits, with drawn sources — the integer and bit-manipulation glue
//! between the data-movement instructions (§9.7.1–§9.7.2, §9.7.8), carry chains kept adjacent.
//!
//! A child of the builder: it uses the builder's register pool and byte stream directly, and
//! every decision comes from that stream, as in the rest of the builder.

use arbitrary::Result;
use oracle::program::{Glue, GlueOp, GlueType, PredGuard, Reg, Src};

use super::{ci, mask, Builder};
use crate::program::values::Kind;

/// Glue groups and their weights: the basic set (`None`) weighs as much as the four `glue_*`
/// ingredients together, so with every ingredient on half of the glue steps stay basic (the
/// mixing glue is for), and each ingredient gets an eighth.
const GLUE_GROUPS: [(Option<&str>, u32); 5] =
    [(None, 4), (Some("glue_mul"), 1), (Some("glue_bits"), 1), (Some("glue_select"), 1), (Some("glue_carry"), 1)];

/// `lop3` tables of functions real code computes (§9.7.8.6; a = 0xF0, b = 0xCC, c = 0xAA):
/// `a&b&c`, `a|b|c`, `a^b^c`, majority, `a?b:c`, `(a&b)|c`, `a&~b`, `a^b`, `~(a|b|c)`,
/// constants, and each input alone.
pub const NAMED_LUTS: [u8; 14] = [0x80, 0xFE, 0x96, 0xE8, 0xCA, 0xEA, 0x30, 0x3C, 0x01, 0x00, 0xFF, 0xF0, 0xCC, 0xAA];

/// The `glue_*` knob of an opcode (`None`: the basic glue set, always on).
pub fn glue_knob(op: GlueOp) -> Option<&'static str> {
    match op {
        GlueOp::MulHi | GlueOp::MulWide | GlueOp::MadLo | GlueOp::MadHi | GlueOp::MadWide => Some("glue_mul"),
        GlueOp::Bfe
        | GlueOp::Bfi
        | GlueOp::Lop3
        | GlueOp::Shf { .. }
        | GlueOp::Cnot
        | GlueOp::Popc
        | GlueOp::Clz
        | GlueOp::Bfind { .. }
        | GlueOp::Brev => Some("glue_bits"),
        GlueOp::Set(..) | GlueOp::Slct => Some("glue_select"),
        GlueOp::AddCc | GlueOp::Addc { .. } | GlueOp::SubCc | GlueOp::Subc { .. } => Some("glue_carry"),
        _ => None,
    }
}

/// What source `k` of glue `op.ty` is for: shift amounts, field positions and lengths get
/// the shift pool (§9.7.8.7–9, §9.7.1.19–20), `selp`'s predicate a predicate, `slct`'s
/// selector a signed 32-bit integer; everything else an integer of its operand's width.
pub fn glue_src_kind(op: GlueOp, ty: GlueType, k: usize) -> Kind {
    match (op, k) {
        (GlueOp::Shl | GlueOp::Shr, 1) | (GlueOp::Bfe, 1 | 2) | (GlueOp::Bfi, 2 | 3) | (GlueOp::Shf { .. }, 2) => {
            Kind::Shift(ty.bits())
        }
        (GlueOp::Selp, 2) => Kind::Pred,
        (GlueOp::Slct, 2) => Kind::int(32, true),
        _ => Kind::int(Glue::src_class(op, ty, k).bits(), ty.signed()),
    }
}

impl Builder<'_, '_> {
    /// Whether the glue ingredient `knob` ([`glue_knob`]; `None`, the basic set, always is)
    /// is on.
    fn glue_knob_on(&self, knob: Option<&str>) -> bool {
        let c = &self.cfg;
        match knob {
            None => true,
            Some("glue_mul") => c.glue_mul,
            Some("glue_bits") => c.glue_bits,
            Some("glue_select") => c.glue_select,
            Some("glue_carry") => c.glue_carry,
            Some(_) => false,
        }
    }

    /// Emits one glue step: a group (the basic set, or an enabled `glue_*` ingredient that
    /// the target has) by weight, then one of its (op, type) pairs uniformly; a carry chain
    /// for `glue_carry`.
    pub fn emit_glue(&mut self) -> Result<()> {
        let tb = self.tb;
        let groups: Vec<(Option<&'static str>, u32)> = GLUE_GROUPS
            .into_iter()
            .filter(|&(k, _)| self.glue_knob_on(k) && tb.glue.iter().any(|&(op, _)| glue_knob(op) == k))
            .collect();
        let total: u32 = groups.iter().map(|(_, w)| w).sum();
        let mut x = self.u.int_in_range(0..=total.max(1) - 1)?;
        let mut group = None;
        for (k, w) in groups {
            if x < w {
                group = k;
                break;
            }
            x -= w;
        }
        let pairs: Vec<(GlueOp, GlueType)> =
            tb.glue.iter().copied().filter(|&(op, _)| glue_knob(op) == group && !op.reads_carry()).collect();
        if pairs.is_empty() {
            return Ok(());
        }
        let (op, ty) = pairs[self.index(pairs.len())?];
        if op.writes_carry() {
            return self.emit_carry_chain(op, ty);
        }
        self.emit_glue_op(op, ty, true).map(|_| ())
    }

    /// A source of glue `op.ty` at index `k`: `lop3`'s table, an immediate with the
    /// immediate rate where one may stand, else a register ([`glue_src_kind`]).
    fn glue_src(&mut self, op: GlueOp, ty: GlueType, k: usize) -> Result<Src> {
        let class = Glue::src_class(op, ty, k);
        let kind = glue_src_kind(op, ty, k);
        Ok(if Glue::imm_required(op, k) {
            Src::Imm(self.lut()?)
        } else if Glue::imm_allowed(op, ty, k) && self.chance(self.imm_pm)? {
            Src::Imm(self.value(kind) & mask(class.bits()) & Glue::imm_max(op, ty, k))
        } else {
            Src::Reg(self.src_reg(class, kind)?)
        })
    }

    /// A `lop3` look-up table (§9.7.8.6): half the time one of [`NAMED_LUTS`], else any byte.
    pub fn lut(&mut self) -> Result<u64> {
        if self.u.arbitrary::<bool>()? {
            return Ok(u64::from(NAMED_LUTS[self.index(NAMED_LUTS.len())?]));
        }
        Ok(u64::from(self.u.arbitrary::<u8>()?))
    }

    /// Emits glue `op.ty` with drawn sources, guarded with the predication rate when `may_guard`;
    /// returns the destination (`None` when a guarded one had no register to write).
    pub fn emit_glue_op(&mut self, op: GlueOp, ty: GlueType, may_guard: bool) -> Result<Option<Reg>> {
        let mut src = [None; 4];
        for (k, slot) in src.iter_mut().enumerate().take(op.arity()) {
            *slot = Some(self.glue_src(op, ty, k)?);
        }
        let dclass = Glue::dst_class(op, ty);
        let guarded = may_guard && self.chance(self.pred_pm)? && !self.defined[ci(dclass)].is_empty();
        let guard = if guarded {
            let Reg::Virt(_, p) = self.guard_pred()? else { unreachable!("predicates are virtual") };
            Some(PredGuard { pred: p, negated: self.u.arbitrary::<bool>()? })
        } else {
            None
        };
        let Some(dst) = self.dst_reg(dclass, guarded, &[])? else { return Ok(None) };
        self.push_glue(guard, Glue { op, ty, dst, src });
        Ok(Some(dst))
    }

    /// A carry chain (§9.7.2): `first` (`add.cc` or `sub.cc`) and one to three `addc`/`subc`
    /// of the same kind (the last without `.cc` half the time), unguarded and adjacent — every
    /// source is drawn before the first link, so no fresh value lands between two links.
    fn emit_carry_chain(&mut self, first: GlueOp, ty: GlueType) -> Result<()> {
        let links = self.u.int_in_range(1u8..=3)?;
        let last_cc = self.u.arbitrary::<bool>()?;
        let mut ops = vec![first];
        for i in 0..links {
            let cc = i + 1 < links || last_cc;
            ops.push(if first == GlueOp::AddCc { GlueOp::Addc { cc } } else { GlueOp::Subc { cc } });
        }
        let mut srcs = Vec::new();
        for &op in &ops {
            srcs.push([Some(self.glue_src(op, ty, 0)?), Some(self.glue_src(op, ty, 1)?), None, None]);
        }
        for (op, src) in ops.into_iter().zip(srcs) {
            let Some(dst) = self.dst_reg(ty.class(), false, &[])? else { return Ok(()) };
            self.push_glue(None, Glue { op, ty, dst, src });
        }
        Ok(())
    }
}
