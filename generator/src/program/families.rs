//! One step of the body: close or open a forward branch, a glue instruction, or an
//! instruction of one of the families under test — `cvt` (§9.7.9.21), `cvt.pack` (§9.7.9.22),
//! `prmt` (§9.7.9.7), `shfl.sync` (§9.7.9.6), `mov` (§9.7.9.3–4), `ld.global` (§9.7.9.8),
//! `ld.global.nc` (§9.7.9.9), shared-memory round trips (`st.shared` §9.7.9.11,
//! `bar.sync`, `ld.shared`), `prefetch` hints (§9.7.9.15) and optimizer-stressing chains ([`super::folds`]).
//!
//! Each family says what its source values are for ([`Kind`]), so immediates and the input
//! words its loads read come from the right edge pools: a `cvt` source from the pool of its
//! source format aimed at its destination format, `cvt.pack` sources around the saturation
//! limits, `prmt` selectors, `shfl` lanes and clamps.
//!
//! Hazards are guarded here: `shfl.sync` and shared stores only at depth 0, unguarded, with the
//! full member mask (so every lane of every warp of the CTA takes part, §9.7.9.6); 32-byte
//! accesses only where the thread's input stride is a multiple of 32; shared bytes stored once
//! and read by the neighbour only after a `bar.sync` that follows the store.

use arbitrary::Result;

use oracle::isa::operand::{Imm, OperandKind};
use oracle::isa::qualifier::Qualifier;
use oracle::isa::{CvtType, Form, Operand};
use oracle::num::{F32, F64};
use oracle::program::Special;
use oracle::semantics::{cvt, cvt_pack};

use super::builder::{addr, mem_kind, Builder, GuardMode, KindFn, ShByte};
use super::tables::Key;
use super::values::{Dest, Kind};

/// Probability (‰) per step that the innermost open branch closes: regions average about
/// four steps.
const CLOSE_PERMILLE: u32 = 250;

/// Probability (‰) that a `prefetch` step is an `applypriority` or `discard` of a 128-byte
/// line instead, where the thread's inputs hold whole lines.
const LINE_HINT_PERMILLE: u32 = 400;

/// The line `applypriority` and `discard` act on (their only `size`, §9.7.9.16/17).
const LINE: u32 = 128;

/// Access sizes of shared loads and stores (256-bit accesses are global-only).
const SIZES: [u32; 5] = [1, 2, 4, 8, 16];

fn size_index(size: u32) -> Option<usize> {
    SIZES.iter().position(|&s| s == size)
}

/// Relative weights of the families under test, chosen so `cvt`, the family with by far the
/// most forms, gets the most steps, and `mov`, shared round trips and fold chains (several
/// shapes each) come next.
const WEIGHTS: [(Fam, u32); 10] = [
    (Fam::Cvt, 4),
    (Fam::CvtPack, 1),
    (Fam::Prmt, 1),
    (Fam::Shfl, 1),
    (Fam::Mov, 2),
    (Fam::Ld, 1),
    (Fam::LdNc, 1),
    (Fam::Shared, 2),
    (Fam::Prefetch, 1),
    (Fam::Fold, 2),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fam {
    Cvt,
    CvtPack,
    Prmt,
    Shfl,
    Mov,
    Ld,
    LdNc,
    Shared,
    Prefetch,
    Fold,
}

/// The destination of one element of a `cvt` result of type `t` (the oracle's
/// [`cvt::element`]).
fn cvt_dest(t: CvtType) -> Dest {
    match cvt::element(t) {
        Some(e) => Dest::Float(*e.format),
        None => Dest::Int { bits: t.bits(), signed: t.is_signed_int() },
    }
}

/// The kind of a `cvt` source of type `t` headed for `to` (elements from the oracle's
/// [`cvt::element`]).
fn cvt_src(t: CvtType, to: Dest) -> Kind {
    match cvt::element(t) {
        Some(e) if e.lanes == 1 && e.lsb == 0 => Kind::Float { fmt: *e.format, to },
        Some(e) if e.lanes > 1 => Kind::Packed { fmt: *e.format, lanes: e.lanes, lane_bits: e.lane_bits, to },
        None if t.is_int() => Kind::Int { bits: t.bits(), signed: t.is_signed_int(), to },
        _ => Kind::Bits(t.bits()),
    }
}

impl Builder<'_, '_> {
    /// One step of the body (see the module documentation).
    pub fn step(&mut self) -> Result<()> {
        if self.region_nonempty() && self.chance(CLOSE_PERMILLE)? {
            self.close_branch();
            return Ok(());
        }
        let div_pm = super::config::permille(self.cfg.divergence_rate);
        if (self.depth() as u32) < self.cfg.max_depth && self.chance(div_pm)? {
            return self.open_branch();
        }
        if self.chance(super::config::permille(self.cfg.glue_density))? {
            return self.emit_glue();
        }
        let c = &self.cfg;
        let on = |f: Fam| match f {
            Fam::Cvt => c.cvt,
            Fam::CvtPack => c.cvt_pack,
            Fam::Prmt => c.prmt,
            Fam::Shfl => c.shfl,
            Fam::Mov => c.mov,
            Fam::Ld => c.ld,
            Fam::LdNc => c.ld_nc,
            Fam::Shared => c.shared && self.shape.shared > 0,
            Fam::Prefetch => c.prefetch,
            Fam::Fold => c.folds,
        };
        let fams: Vec<(Fam, u32)> = WEIGHTS.iter().copied().filter(|&(f, _)| on(f)).collect();
        let total: u32 = fams.iter().map(|(_, w)| w).sum();
        if total == 0 {
            return self.emit_glue();
        }
        let mut x = self.u.int_in_range(0..=total - 1)?;
        let fam = fams
            .iter()
            .find(|(_, w)| {
                if x < *w {
                    true
                } else {
                    x -= w;
                    false
                }
            })
            .map_or(Fam::Cvt, |(f, _)| *f);
        let emitted = match fam {
            Fam::Cvt => self.step_cvt()?,
            Fam::CvtPack => self.step_simple(Fam::CvtPack)?,
            Fam::Prmt => self.step_simple(Fam::Prmt)?,
            Fam::Shfl => self.step_shfl()?,
            Fam::Mov => self.step_mov()?,
            Fam::Ld => self.step_ld(false)?,
            Fam::LdNc => self.step_ld(true)?,
            Fam::Shared => self.step_shared()?,
            Fam::Prefetch => self.step_prefetch()?,
            Fam::Fold => self.step_fold()?,
        };
        if !emitted {
            self.emit_glue()?;
        }
        Ok(())
    }

    fn step_cvt(&mut self) -> Result<bool> {
        let tb = self.tb;
        let allow = self.allow(true);
        let Some(e) = self.pick(&tb.cvt, |k| allow(k.feat))? else { return Ok(false) };
        let form = e.form.clone();
        let Form::Cvt(c) = &form else { return Ok(false) };
        let to = cvt_dest(c.dtype);
        let atype = c.atype;
        let kinds = move |name: &str, _: usize| match name {
            "a" => cvt_src(atype, to),
            "rbits" => Kind::Bits(32),
            // `b` and the x4 vector `a, b, e, f` are `.f32` sources.
            _ => Kind::Float { fmt: F32, to },
        };
        self.emit_form(&form, &[], &kinds, GuardMode::Maybe, false)
    }

    /// `cvt.pack` and `prmt`.
    fn step_simple(&mut self, fam: Fam) -> Result<bool> {
        let tb = self.tb;
        let allow = self.allow(true);
        let table = if fam == Fam::Prmt { &tb.prmt } else { &tb.cvt_pack };
        let Some(e) = self.pick(table, |k| allow(k.feat))? else { return Ok(false) };
        let form = e.form.clone();
        let kinds: Box<KindFn<'static>> = match &form {
            Form::CvtPack(p) => {
                let (bits, signed) = (cvt_pack::size(p.convert), cvt_pack::signed(p.convert));
                Box::new(move |name, _| match name {
                    "c" => Kind::Bits(32),
                    _ => Kind::Int { bits: 32, signed: true, to: Dest::Int { bits, signed } },
                })
            }
            _ => Box::new(|name, _| if name == "c" { Kind::Selector } else { Kind::Bits(32) }),
        };
        self.emit_form(&form, &[], &*kinds, GuardMode::Maybe, false)
    }

    /// `shfl.sync`: top level only, unguarded, `membermask` = -1 (all 32 lanes; the CTA is a
    /// whole number of warps, so every lane is active, §9.7.9.6).
    fn step_shfl(&mut self) -> Result<bool> {
        if self.depth() > 0 {
            return Ok(false);
        }
        let tb = self.tb;
        let allow = self.allow(true);
        let Some(e) = self.pick(&tb.shfl, |k| allow(k.feat))? else { return Ok(false) };
        let form = e.form.clone();
        let a = if self.u.arbitrary::<bool>()? { Kind::Float { fmt: F32, to: Dest::None } } else { Kind::Bits(32) };
        let kinds = move |name: &str, _: usize| match name {
            "b" => Kind::Lane,
            "c" => Kind::Clamp,
            _ => a,
        };
        let fixed = [("membermask", Operand::Imm(Imm::Int(-1)))];
        self.emit_form(&form, &fixed, &kinds, GuardMode::Never, false)
    }

    /// `mov`: copies (registers and immediates), packs and unpacks (with sinks, §9.7.9.4).
    fn step_mov(&mut self) -> Result<bool> {
        let tb = self.tb;
        let allow = self.allow(true);
        let Some(e) = self.pick(&tb.mov, |k| allow(k.feat))? else { return Ok(false) };
        let form = e.form.clone();
        let Form::Mov(m) = &form else { return Ok(false) };
        let copy_kind = match m.ty.token() {
            "f32" => Kind::Float { fmt: F32, to: Dest::None },
            "f64" => Kind::Float { fmt: F64, to: Dest::None },
            "pred" => Kind::Pred,
            "s16" => Kind::int(16, true),
            "s32" => Kind::int(32, true),
            "s64" => Kind::int(64, true),
            "u16" => Kind::int(16, false),
            "u32" => Kind::int(32, false),
            "u64" => Kind::int(64, false),
            _ => Kind::Bits(m.ty.reg().bits()),
        };
        let elem_bits = form
            .operands()
            .iter()
            .find_map(|s| match s.kind {
                OperandKind::Vector(t, _) => Some(t.bits()),
                _ => None,
            })
            .unwrap_or(32);
        let kinds = move |name: &str, _: usize| if name == "a" { copy_kind } else { Kind::Bits(elem_bits) };
        // A `.b16`/`.b32`/`.b64` copy draws edge values of a random format of its width.
        self.emit_form(&form, &[], &kinds, GuardMode::Maybe, true)
    }

    /// A load of the thread's inputs under test (`ld.global`, or `ld.global.nc` when `nc`):
    /// scalar or vector, at an offset aligned to the access size. 32-byte accesses (`.v8.b32`,
    /// `.v4.b64`) need the thread's stride to be a multiple of 32 (inputs a multiple of 8
    /// words, and the runner's buffer 32-byte aligned); sinks only there (§9.7.9.8).
    fn step_ld(&mut self, nc: bool) -> Result<bool> {
        let tb = self.tb;
        let stride = 4 * self.shape.inputs;
        let (table, on) = if nc { (&tb.ld_nc, self.cfg.ld_nc) } else { (&tb.ld_global, self.cfg.ld) };
        let allow = self.allow(on);
        let fits = |k: &Key| k.size > 0 && k.size <= stride && stride.is_multiple_of(k.size);
        let Some(m) = self.pick_shaped(table, |k| allow(k.feat) && fits(k))? else { return Ok(false) };
        let Some(off) = self.input_offset(m.size)? else { return Ok(false) };
        let (form, elem, n, size) = (m.form.clone(), m.elem, m.n, m.size);
        let mut fixed = vec![("a", addr(Special::In, off))];
        if form.operands().iter().any(|s| s.name == "cache-policy") {
            let Some(policy) = self.policy()? else { return Ok(false) };
            fixed.push(("cache-policy", Operand::Name(policy.to_string())));
        }
        self.note_input(off, elem, n, &[]);
        self.emit_form(&form, &fixed, &|_, _| Kind::Bits(32), GuardMode::Maybe, size == 32)
    }

    /// A `prefetch.global` hint (§9.7.9.15) of one of the thread's input or output words:
    /// no effect on any value.
    fn step_prefetch(&mut self) -> Result<bool> {
        let tb = self.tb;
        let lines = 4 * self.shape.inputs / LINE;
        if lines > 0 && !tb.line_hints.is_empty() && self.chance(LINE_HINT_PERMILLE)? {
            return self.step_line_hint(lines);
        }
        let allow = self.allow(true);
        let Some(e) = self.pick(&tb.prefetch, |k| allow(k.feat))? else { return Ok(false) };
        let form = e.form.clone();
        let (base, words) = if self.u.arbitrary::<bool>()? {
            (Special::In, self.shape.inputs)
        } else {
            (Special::Out, self.shape.outputs)
        };
        let off = 4 * self.u.int_in_range(0..=words.saturating_sub(1))?;
        let fixed = [("a", addr(base, off))];
        self.emit_form(&form, &fixed, &|_, _| Kind::Bits(32), GuardMode::Maybe, false)
    }

    /// `applypriority.global` or `discard.global` (§9.7.9.16/17) of one of the thread's
    /// `lines` 128-byte input lines (aligned by the launch contract). `discard` makes its line
    /// indeterminate: it never takes the first line, so loads keep words to read, and later
    /// loads avoid the line (guarded or not, it may be gone).
    fn step_line_hint(&mut self, lines: u32) -> Result<bool> {
        let tb = self.tb;
        let allow = self.allow(true);
        let Some(e) = self.pick(&tb.line_hints, |k| allow(k.feat))? else { return Ok(false) };
        let form = e.form.clone();
        let discard = matches!(form, Form::Discard(_));
        let first = u32::from(discard);
        if first >= lines {
            return Ok(false);
        }
        let off = LINE * self.u.int_in_range(first..=lines - 1)?;
        if discard {
            self.discarded[off as usize..(off + LINE) as usize].fill(true);
        }
        let fixed = [("a", addr(Special::In, off)), ("size", Operand::Imm(Imm::Int(LINE.into())))];
        self.emit_form(&form, &fixed, &|_, _| Kind::Bits(32), GuardMode::Maybe, false)
    }

    /// Offsets of the own shared slot where `size` aligned bytes all satisfy `ok`.
    fn shared_offsets(&self, size: u32, ok: impl Fn(ShByte) -> bool) -> Vec<u32> {
        let len = self.shared.len() as u32;
        (0..len / size.max(1))
            .map(|i| i * size)
            .filter(|&o| self.shared[o as usize..(o + size) as usize].iter().all(|&b| ok(b)))
            .collect()
    }

    /// For each access size 1, 2, 4, 8, 16: the offsets whose bytes satisfy `ok`.
    fn offsets_by_size(&self, ok: impl Fn(ShByte) -> bool + Copy) -> [Vec<u32>; 5] {
        SIZES.map(|size| self.shared_offsets(size, ok))
    }

    /// A shared-memory step: store to the own slot (top level), `bar.sync` (top level, when
    /// something was stored since the last one), load from the own slot (stored bytes) or from
    /// the neighbour's (bytes stored before a `bar.sync`).
    fn step_shared(&mut self) -> Result<bool> {
        let tb = self.tb;
        let top = self.depth() == 0;
        let allow = self.allow(true);
        let store_offs = self.offsets_by_size(|b| b == ShByte::Empty);
        let own_offs = self.offsets_by_size(|b| b != ShByte::Empty);
        let next_offs = self.offsets_by_size(|b| b == ShByte::Synced);
        let has = |offs: &[Vec<u32>; 5], k: &Key| size_index(k.size).is_some_and(|i| !offs[i].is_empty());
        let can_store = top && tb.st_shared.any(|k| allow(k.feat) && has(&store_offs, k));
        let can_bar = top && self.shared.contains(&ShByte::Own);
        let can_own = tb.ld_shared.any(|k| allow(k.feat) && has(&own_offs, k));
        let can_next = tb.ld_shared.any(|k| allow(k.feat) && has(&next_offs, k));
        // Weights: store 3, bar 2, own load 2, neighbour load 3.
        let options: Vec<(u8, u32)> = [(0u8, can_store, 3), (1, can_bar, 2), (2, can_own, 2), (3, can_next, 3)]
            .into_iter()
            .filter(|(_, ok, _)| *ok)
            .map(|(a, _, w)| (a, w))
            .collect();
        let total: u32 = options.iter().map(|(_, w)| w).sum();
        if total == 0 {
            return Ok(false);
        }
        let mut x = self.u.int_in_range(0..=total - 1)?;
        let mut action = options[0].0;
        for (a, w) in &options {
            if x < *w {
                action = *a;
                break;
            }
            x -= w;
        }
        let (table, offs, base) = match action {
            0 => (&tb.st_shared, &store_offs, Special::Sh),
            1 => {
                self.bar();
                return Ok(true);
            }
            2 => (&tb.ld_shared, &own_offs, Special::Sh),
            _ => (&tb.ld_shared, &next_offs, Special::ShNext),
        };
        let Some(m) = self.pick_shaped(table, |k| allow(k.feat) && has(offs, k))? else { return Ok(false) };
        let Some(list) = size_index(m.size).map(|i| &offs[i]) else { return Ok(false) };
        let off = list[self.index(list.len())?];
        let (form, size, elem) = (m.form.clone(), m.size, m.elem);
        let fixed = [("a", addr(base, off))];
        if action == 0 {
            let kind = mem_kind(elem);
            let done = self.emit_form(&form, &fixed, &|_, _| kind, GuardMode::Never, false)?;
            if done {
                for b in off..off + size {
                    self.shared[b as usize] = ShByte::Own;
                }
            }
            Ok(done)
        } else {
            self.emit_form(&form, &fixed, &|_, _| Kind::Bits(32), GuardMode::Maybe, false)
        }
    }
}
