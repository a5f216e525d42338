//! The program builder: the typed register pool, the stack of open forward branches, the
//! input and shared-memory bookkeeping, and the one routine that turns a form into a
//! well-typed instruction ([`Builder::emit_form`]).
//!
//! Invariants kept here (those of `oracle::program`, made operational):
//! - `defined` holds exactly the registers every thread reaching the current point has
//!   written; a source is always taken from it (or produced on the spot by an unguarded load,
//!   `mov` of an immediate or `setp`, which then joins it);
//! - a guarded instruction writes only registers already in `defined`, so a skipped write
//!   leaves a defined value;
//! - opening a forward branch saves `defined`; closing it (its label) restores the saved set,
//!   so registers first written inside the region are never read after it;
//! - `depth() == 0` means every thread of the CTA is here together: only then are
//!   `shfl.sync`, `bar.sync` and shared stores emitted, unguarded.
//!
//! Decisions come from the [`Unstructured`] byte stream only, and nothing iterates a hash
//! container, so the same bytes give the same program on every machine.

use std::collections::BTreeSet;

use arbitrary::{Result, Unstructured};

use oracle::isa::operand::{Imm, OperandKind};
use oracle::isa::types::RegType;
use oracle::isa::{Form, Guard, Instruction, Operand};
use oracle::program::{Cmp, Glue, GlueOp, GlueType, PredGuard, Reg, RegClass, Special, Src, Stmt};

use super::config::{permille, Config};
use super::tables::{feat, operand_class, writes, Key, Table, Tables};
use super::values::{draw, Hint, Kind};

mod glue;

/// Probability (‰) that a source is `%tix` where a `.b32` register is wanted, so lanes differ
/// even where inputs happen to agree.
const TID_PERMILLE: u32 = 40;
/// Probability (‰) that a source is a fresh value (load or immediate) although registers of
/// its class exist; keeps new inputs flowing into long programs.
const FRESH_VALUE_PERMILLE: u32 = 150;
/// Probability (‰) that a source is taken among the values not read yet (rather than any
/// defined register): long dependency chains, few dead values.
const UNREAD_FIRST_PERMILLE: u32 = 600;
/// Probability (‰) that an unguarded destination is a new register, at top level and inside a
/// divergent region (where writing an outer register lets the result survive the label).
const NEW_DST_TOP_PERMILLE: u32 = 600;
const NEW_DST_REGION_PERMILLE: u32 = 300;
/// Probability (‰) that an element of a vector destination is the sink `_` where sinks are
/// allowed (at least one element stays a register).
const SINK_PERMILLE: u32 = 250;
/// Probability (‰) that a load reads input bytes no load read before (so each input word
/// carries the edge value its first consumer wants), when there are such bytes.
const UNUSED_INPUT_PERMILLE: u32 = 800;
/// Probability (‰) that a fresh value for an operand narrower than its register (an 8-bit
/// source in `.b16`) is loaded with exactly its width.
const EXACT_WIDTH_PERMILLE: u32 = 800;
/// Probability (‰) that a `setp` made for a guard compares `%tix` rather than data.
const TID_SETP_PERMILLE: u32 = 200;
/// Least probability (‰) that a data `setp` compares with an immediate (thresholds are what
/// real code compares with).
const SETP_IMM_PERMILLE: u32 = 300;
/// Probability (‰) that a guard reuses a defined predicate rather than computing a new one.
const REUSE_PRED_PERMILLE: u32 = 700;
/// Least probability (‰) that a `shfl.sync` lane or clamp operand is an immediate, as in
/// real code.
const SHFL_IMM_PERMILLE: u32 = 700;
/// Probability (‰) that a branch predicate compares `%tix` (so lanes of one warp diverge)
/// rather than data.
const TID_BRANCH_PERMILLE: u32 = 500;

/// Index of a register class in per-class arrays.
pub fn ci(c: RegClass) -> usize {
    match c {
        RegClass::Pred => 0,
        RegClass::B16 => 1,
        RegClass::B32 => 2,
        RegClass::B64 => 3,
        RegClass::B8 => 4,
    }
}

/// Register classes, the length of per-class arrays.
pub const CLASSES: usize = RegClass::ALL.len();

/// The program's launch shape.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// CTA size.
    pub threads: u32,
    /// Input words per thread.
    pub inputs: u32,
    /// Output words per thread.
    pub outputs: u32,
    /// Shared words per thread.
    pub shared: u32,
}

/// State of one shared byte of the thread's slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ShByte {
    /// Not stored.
    Empty,
    /// Stored by every thread, no `bar.sync` since.
    Own,
    /// Stored, and a `bar.sync` followed: the neighbour may read it.
    Synced,
}

struct Scope {
    label: u32,
    /// Instructions emitted when the branch opened.
    opened_at: u32,
    defined: [Vec<Reg>; CLASSES],
}

/// What each source value of a form is for: `kinds(slot name, element index)`.
pub type KindFn<'a> = dyn Fn(&str, usize) -> Kind + 'a;

/// How an instruction may be guarded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GuardMode {
    /// Never (converged-only instructions, output stores).
    Never,
    /// With the predication rate.
    Maybe,
}

/// The builder (see the module documentation).
pub struct Builder<'u, 'a> {
    pub(crate) u: &'u mut Unstructured<'a>,
    pub(crate) cfg: Config,
    pub(crate) tb: &'u Tables,
    pub(crate) shape: Shape,
    pub(crate) imm_pm: u32,
    pub(crate) edge_pm: u32,
    pub(crate) pred_pm: u32,
    /// Knob bits disabled by the configuration.
    pub(crate) disabled: u32,
    pub(crate) body: Vec<Stmt>,
    /// Instructions emitted so far.
    pub(crate) count: u32,
    next: [u32; CLASSES],
    defined: [Vec<Reg>; CLASSES],
    unread: BTreeSet<Reg>,
    scopes: Vec<Scope>,
    next_label: u32,
    input_used: Vec<bool>,
    /// Input bytes a `discard` (§9.7.9.17) may have made indeterminate: no later load reads
    /// them (it would read any value, which tests nothing).
    pub(crate) discarded: Vec<bool>,
    pub(crate) hints: Vec<Hint>,
    pub(crate) shared: Vec<ShByte>,
    /// Registers a top-level `createpolicy` wrote and nothing has overwritten since: cache
    /// policies any later `.L2::cache_hint` access may use.
    policies: Vec<Reg>,
}

/// Sign-extends the low `bits` of `v`.
pub fn sext(v: u64, bits: u32) -> i128 {
    let bits = bits.clamp(1, 64);
    i128::from(((v << (64 - bits)) as i64) >> (64 - bits))
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The immediate that writes `v` for an operand of type `t`.
pub fn imm_for(t: RegType, v: u64) -> Imm {
    match t {
        RegType::F32 => Imm::F32Bits(v as u32),
        RegType::F64 => Imm::F64Bits(v),
        RegType::Pred => Imm::Int(i128::from(v & 1)),
        RegType::S8 | RegType::S16 | RegType::S32 | RegType::S64 => Imm::Int(sext(v, t.bits())),
        _ => Imm::Int(i128::from(v & mask(t.bits()))),
    }
}

/// The kind of a memory element of type `t`.
pub fn mem_kind(t: RegType) -> Kind {
    use oracle::num::{F32, F64};
    match t {
        RegType::F32 => Kind::Float { fmt: F32, to: super::values::Dest::None },
        RegType::F64 => Kind::Float { fmt: F64, to: super::values::Dest::None },
        RegType::U8 | RegType::U16 | RegType::U32 | RegType::U64 => Kind::int(t.bits(), false),
        RegType::S8 | RegType::S16 | RegType::S32 | RegType::S64 => Kind::int(t.bits(), true),
        _ => Kind::Bits(t.bits()),
    }
}

fn reg_op(r: Reg) -> Operand {
    Operand::Name(r.to_string())
}

/// An address operand `[base+off]`.
pub fn addr(base: Special, off: u32) -> Operand {
    Operand::Address { base: Some(format!("%{}", base.name())), offset: i64::from(off), unified: false }
}

impl<'u, 'a> Builder<'u, 'a> {
    /// A builder for one program.
    pub fn new(u: &'u mut Unstructured<'a>, cfg: Config, tb: &'u Tables, shape: Shape) -> Self {
        let knobs = [
            (cfg.vectors, feat::VECTORS),
            (cfg.memory_ordering, feat::MEMORY_ORDERING),
            (cfg.cache_operators, feat::CACHE_OPERATORS),
            (cfg.eviction_priority, feat::EVICTION_PRIORITY),
            (cfg.prefetch_size, feat::PREFETCH_SIZE),
            (cfg.shared_cluster, feat::SHARED_CLUSTER),
            (cfg.rounding_modes, feat::ROUNDING_MODES),
            (cfg.saturate, feat::SATURATE),
            (cfg.ftz, feat::FTZ),
            (cfg.relu, feat::RELU),
            (cfg.satfinite, feat::SATFINITE),
            (cfg.stochastic_rounding, feat::STOCHASTIC_ROUNDING),
            (cfg.narrow_floats, feat::NARROW_FLOATS),
            (cfg.packed_halves, feat::PACKED_HALVES),
            (cfg.f64, feat::F64),
            (cfg.int_conversions, feat::INT_CONVERSIONS),
            (cfg.prmt_modes, feat::PRMT_MODES),
            (cfg.shfl_predicate, feat::SHFL_PREDICATE),
            (cfg.cache_hint, feat::CACHE_HINT),
        ];
        let disabled = knobs.iter().filter(|(on, _)| !on).fold(0, |acc, (_, bit)| acc | bit);
        Builder {
            u,
            imm_pm: permille(cfg.immediate_rate),
            edge_pm: permille(cfg.edge_rate),
            pred_pm: permille(cfg.predication_rate),
            cfg,
            tb,
            shape,
            disabled,
            body: Vec::new(),
            count: 0,
            next: [0; CLASSES],
            defined: Default::default(),
            unread: BTreeSet::new(),
            scopes: Vec::new(),
            next_label: 0,
            input_used: vec![false; 4 * shape.inputs as usize],
            discarded: vec![false; 4 * shape.inputs as usize],
            hints: Vec::new(),
            shared: vec![ShByte::Empty; 4 * shape.shared as usize],
            policies: Vec::new(),
        }
    }

    // ----- randomness -----

    /// `true` with probability `pm`/1000.
    pub fn chance(&mut self, pm: u32) -> Result<bool> {
        Ok(self.u.int_in_range(0..=999u32)? < pm)
    }

    /// An index below `n` (`n > 0`).
    pub fn index(&mut self, n: usize) -> Result<usize> {
        self.u.choose_index(n)
    }

    /// A value of `kind` from the edge pool or random bits.
    pub fn value(&mut self, kind: Kind) -> u64 {
        draw(self.u, kind, self.edge_pm)
    }

    /// The knob filter of a family: enabled knobs when the family is on, only knob-free forms
    /// when it is off (loads and stores the program needs anyway).
    pub fn allow(&self, family_on: bool) -> impl Fn(u32) -> bool + Copy + 'static {
        let disabled = self.disabled;
        move |f| if family_on { f & disabled == 0 } else { f == 0 }
    }

    /// A form of `table` whose group satisfies `ok`, uniformly over the matching forms.
    pub fn pick<'t, T>(&mut self, table: &'t Table<T>, ok: impl Fn(&Key) -> bool) -> Result<Option<&'t T>> {
        let total: usize = table.groups.iter().filter(|g| ok(&g.key)).map(|g| g.members.len()).sum();
        if total == 0 {
            return Ok(None);
        }
        let mut x = self.index(total)?;
        for g in table.groups.iter().filter(|g| ok(&g.key)) {
            if x < g.members.len() {
                return Ok(Some(&table.items[g.members[x] as usize]));
            }
            x -= g.members.len();
        }
        Ok(None)
    }

    /// A form of `table` whose group satisfies `ok`: first an access shape (size, elements,
    /// class) uniformly among those present, then a form of that shape. Without this the
    /// qualifier combinations of the 256-bit shapes (eviction priorities, prefetch sizes) would
    /// outnumber the scalar and short-vector forms.
    pub fn pick_shaped<'t, T>(&mut self, table: &'t Table<T>, ok: impl Fn(&Key) -> bool) -> Result<Option<&'t T>> {
        let mut shapes: Vec<(u32, u8, Option<RegClass>)> =
            table.groups.iter().filter(|g| ok(&g.key)).map(|g| (g.key.size, g.key.n, g.key.class)).collect();
        shapes.sort_unstable();
        shapes.dedup();
        if shapes.is_empty() {
            return Ok(None);
        }
        let s = shapes[self.index(shapes.len())?];
        self.pick(table, |k| ok(k) && (k.size, k.n, k.class) == s)
    }

    // ----- registers -----

    /// Nesting depth of open forward branches.
    pub fn depth(&self) -> usize {
        self.scopes.len()
    }

    /// Whether the innermost open branch has skipped over at least one instruction yet.
    pub fn region_nonempty(&self) -> bool {
        self.scopes.last().is_some_and(|s| self.count > s.opened_at + 1)
    }

    /// The defined registers of a class.
    pub fn defined(&self, c: RegClass) -> &[Reg] {
        &self.defined[ci(c)]
    }

    fn is_defined(&self, r: Reg) -> bool {
        match r {
            Reg::Virt(c, _) => self.defined[ci(c)].contains(&r),
            Reg::Special(_) => true,
        }
    }

    /// A register never used before.
    pub fn new_reg(&mut self, c: RegClass) -> Reg {
        let n = self.next[ci(c)];
        self.next[ci(c)] += 1;
        Reg::Virt(c, n)
    }

    /// Records a read.
    pub fn read(&mut self, r: Reg) {
        self.unread.remove(&r);
    }

    /// Records a write (a guarded write must target a defined register).
    pub fn write(&mut self, r: Reg, guarded: bool) {
        debug_assert!(!guarded || self.is_defined(r), "guarded write to undefined {r}");
        if let Reg::Virt(c, _) = r {
            if !self.is_defined(r) {
                self.defined[ci(c)].push(r);
            }
            self.unread.insert(r);
        }
    }

    /// Registers written and not read since, top-level first in class order (`.b64`, `.b32`,
    /// `.b16`, `.b8`, `.pred`), oldest first.
    pub fn unread_values(&self) -> Vec<Reg> {
        [RegClass::B64, RegClass::B32, RegClass::B16, RegClass::B8, RegClass::Pred]
            .into_iter()
            .flat_map(|c| self.defined[ci(c)].iter().copied())
            .filter(|r| self.unread.contains(r))
            .collect()
    }

    /// A source register of class `c` for a value of `kind`: `%tix` sometimes, an unread or any
    /// defined register, or a fresh value.
    pub fn src_reg(&mut self, c: RegClass, kind: Kind) -> Result<Reg> {
        if c == RegClass::B32 && self.chance(TID_PERMILLE)? {
            return Ok(Reg::Special(Special::Tid));
        }
        let n = self.defined[ci(c)].len();
        if n == 0 || self.chance(FRESH_VALUE_PERMILLE)? {
            return self.produce(c, kind);
        }
        let unread: Vec<Reg> = self.defined[ci(c)].iter().copied().filter(|r| self.unread.contains(r)).collect();
        if !unread.is_empty() && self.chance(UNREAD_FIRST_PERMILLE)? {
            let i = self.index(unread.len())?;
            // Counted as read now, so the next source of the same instruction takes another.
            self.read(unread[i]);
            return Ok(unread[i]);
        }
        let i = self.index(n)?;
        Ok(self.defined[ci(c)][i])
    }

    /// A destination of class `c`, not in `avoid`: an existing defined register when
    /// `guarded` (`None` if there is none), else new or existing.
    pub fn dst_reg(&mut self, c: RegClass, guarded: bool, avoid: &[Reg]) -> Result<Option<Reg>> {
        let pool: Vec<Reg> = self.defined[ci(c)].iter().copied().filter(|r| !avoid.contains(r)).collect();
        if guarded {
            if pool.is_empty() {
                return Ok(None);
            }
            let i = self.index(pool.len())?;
            return Ok(Some(pool[i]));
        }
        let new_pm = if self.depth() == 0 { NEW_DST_TOP_PERMILLE } else { NEW_DST_REGION_PERMILLE };
        if pool.is_empty() || self.chance(new_pm)? {
            return Ok(Some(self.new_reg(c)));
        }
        // Prefer overwriting a value that was already read.
        let read: Vec<Reg> = pool.iter().copied().filter(|r| !self.unread.contains(r)).collect();
        let from = if read.is_empty() { &pool } else { &read };
        let i = self.index(from.len())?;
        Ok(Some(from[i]))
    }

    // ----- fresh values -----

    /// A new register of class `c` holding a fresh value of `kind`: a predicate from `setp`, an
    /// immediate through `mov`, or a load of the thread's inputs.
    pub fn produce(&mut self, c: RegClass, kind: Kind) -> Result<Reg> {
        if c == RegClass::Pred {
            return self.produce_pred(false);
        }
        if self.chance(self.imm_pm)? {
            if let Some(r) = self.produce_imm(c, kind)? {
                return Ok(r);
            }
        }
        self.produce_load(c, kind)
    }

    fn produce_imm(&mut self, c: RegClass, kind: Kind) -> Result<Option<Reg>> {
        let tb = self.tb;
        let allow = self.allow(true);
        let Some(e) = self.pick(&tb.mov, |k| allow(k.feat) && k.n == 0 && k.class == Some(c))? else {
            return Ok(None);
        };
        let form = e.form.clone();
        let OperandKind::Reg(t) = form.operands()[0].kind else { return Ok(None) };
        // A narrower kind (an 8-bit integer in a `.b16` register) keeps its pool; the high
        // bits stay zero.
        let kind = if kind.width() <= t.bits() && kind != Kind::Pred { kind } else { mem_kind(t) };
        let v = self.value(kind);
        let d = self.new_reg(c);
        self.push_isa(Instruction { guard: None, form, operands: vec![reg_op(d), Operand::Imm(imm_for(t, v))] });
        self.write(d, false);
        Ok(Some(d))
    }

    /// An aligned input offset for an access of `size` bytes (preferring bytes no load read
    /// yet), if the access fits the thread's words and its alignment divides the stride.
    pub fn input_offset(&mut self, size: u32) -> Result<Option<u32>> {
        let total = 4 * self.shape.inputs;
        if size == 0 || size > total || !total.is_multiple_of(size) {
            return Ok(None);
        }
        let bytes = |o: u32| o as usize..(o + size) as usize;
        let kept: Vec<u32> =
            (0..total / size).map(|i| i * size).filter(|&o| !self.discarded[bytes(o)].iter().any(|&b| b)).collect();
        let unused: Vec<u32> =
            kept.iter().copied().filter(|&o| !self.input_used[bytes(o)].iter().any(|&b| b)).collect();
        let off = if !unused.is_empty() && self.chance(UNUSED_INPUT_PERMILLE)? {
            unused[self.index(unused.len())?]
        } else if kept.is_empty() {
            return Ok(None);
        } else {
            kept[self.index(kept.len())?]
        };
        Ok(Some(off))
    }

    /// Marks input bytes read and leaves hints for the input generator.
    pub fn note_input(&mut self, off: u32, elem: RegType, n: u8, kinds: &[Kind]) {
        let eb = elem.bits() / 8;
        for j in 0..u32::from(n) {
            let at = off + j * eb;
            for b in at..at + eb {
                self.input_used[b as usize] = true;
            }
            let kind = kinds.get(j as usize).copied().unwrap_or_else(|| mem_kind(elem));
            self.hints.push(Hint { byte: at, kind });
        }
    }

    fn produce_load(&mut self, c: RegClass, kind: Kind) -> Result<Reg> {
        let tb = self.tb;
        let allow = self.allow(self.cfg.ld);
        // A load of exactly the consumer's width (`.u8` for an 8-bit source in a `.b16`
        // register) most of the time, so the hint applies to the bits the consumer reads.
        // A `.b8` register takes a byte load (`ld.global.u8 %c0, [a]`, the tables' 1-byte
        // `.b16` entries with an 8-bit destination).
        let byte = c == RegClass::B8;
        let exact = byte || (kind.width() < c.bits() && self.chance(EXACT_WIDTH_PERMILLE)?);
        let width_ok = move |size: u32| if byte { size == 1 } else { !exact || size * 8 == kind.width() };
        let (dst, c) = (c, if byte { RegClass::B16 } else { c });
        // (Loads with a cache policy are the `ld` family's.)
        let plain = |k: &Key| k.feat & feat::CACHE_HINT == 0;
        let m = match self
            .pick(&tb.ld_global, |k| allow(k.feat) && plain(k) && k.n == 1 && k.class == Some(c) && width_ok(k.size))?
        {
            Some(m) => m,
            // Plain scalar loads of every class and width exist in the model's tables.
            None => tb
                .ld_global
                .iter()
                .find(|m| m.n == 1 && m.class == c && m.feat == 0 && width_ok(m.size))
                .or_else(|| tb.ld_global.iter().find(|m| m.n == 1 && m.class == c && m.feat == 0))
                .expect("plain scalar loads exist"),
        };
        let off = self.input_offset(m.size)?.unwrap_or(0);
        let hint = if kind.width() == m.elem.bits() { kind } else { mem_kind(m.elem) };
        self.note_input(off, m.elem, 1, &[hint]);
        let d = self.new_reg(dst);
        self.push_isa(Instruction {
            guard: None,
            form: m.form.clone(),
            operands: vec![reg_op(d), addr(Special::In, off)],
        });
        self.write(d, false);
        Ok(d)
    }

    /// A new predicate from `setp`: on `%tix` against a thread count (`tid`, or by chance) so
    /// lanes split, or on data.
    pub fn produce_pred(&mut self, tid: bool) -> Result<Reg> {
        let cmp = Cmp::ALL[self.index(Cmp::ALL.len())?];
        let (ty, a, b) = if tid || self.chance(TID_SETP_PERMILLE)? {
            let ty = if self.u.arbitrary::<bool>()? { GlueType::U32 } else { GlueType::S32 };
            let k = self.u.int_in_range(0..=self.shape.threads)?;
            (ty, Src::Reg(Reg::Special(Special::Tid)), Src::Imm(u64::from(k)))
        } else {
            const TYPES: [GlueType; 6] =
                [GlueType::U16, GlueType::U32, GlueType::U64, GlueType::S16, GlueType::S32, GlueType::S64];
            let ty = TYPES[self.index(TYPES.len())?];
            let kind = Kind::int(ty.bits(), matches!(ty, GlueType::S16 | GlueType::S32 | GlueType::S64));
            let a = self.src_reg(ty.class(), kind)?;
            let b = if self.chance(self.imm_pm.max(SETP_IMM_PERMILLE))? {
                Src::Imm(self.value(kind) & mask(ty.bits()))
            } else {
                Src::Reg(self.src_reg(ty.class(), kind)?)
            };
            (ty, Src::Reg(a), b)
        };
        let d = self.new_reg(RegClass::Pred);
        let glue = Glue { op: GlueOp::Setp(cmp), ty, dst: d, src: [Some(a), Some(b), None, None] };
        self.push_glue(None, glue);
        Ok(d)
    }

    /// A predicate for a guard: a defined one, or a new one.
    pub fn guard_pred(&mut self) -> Result<Reg> {
        let n = self.defined[0].len();
        if n > 0 && self.chance(REUSE_PRED_PERMILLE)? {
            let i = self.index(n)?;
            return Ok(self.defined[0][i]);
        }
        self.produce_pred(false)
    }

    // ----- emission -----

    /// Appends an ISA instruction and records its reads and writes.
    pub fn push_isa(&mut self, inst: Instruction) {
        let guarded = inst.guard.is_some();
        if let Some(g) = &inst.guard {
            if let Some(r) = Reg::parse(&g.pred) {
                self.read(r);
            }
        }
        let specs = inst.form.operands();
        let mut written = Vec::new();
        for (s, o) in specs.iter().zip(&inst.operands) {
            let mut regs = Vec::new();
            collect_regs(o, &mut regs);
            if writes(&s.kind, s.role) {
                written.extend(regs);
            } else {
                regs.into_iter().for_each(|r| self.read(r));
            }
        }
        self.policies.retain(|p| !written.contains(p));
        for r in written {
            self.write(r, guarded);
        }
        self.body.push(Stmt::Isa(inst));
        self.count += 1;
    }

    /// A cache policy for a `.L2::cache_hint` access here (§9.7.9.18): a live top-level one
    /// half the time, else a new unguarded `createpolicy` (fractional, or a `.global` range over
    /// the thread's inputs) into a register kept out of the value pool; `None` when the target
    /// has no `createpolicy` form.
    pub fn policy(&mut self) -> Result<Option<Reg>> {
        if !self.policies.is_empty() && self.u.arbitrary::<bool>()? {
            let k = self.index(self.policies.len())?;
            return Ok(Some(self.policies[k]));
        }
        let tb = self.tb;
        let Some(e) = self.pick(&tb.createpolicy, |_| true)? else { return Ok(None) };
        let form = e.form.clone();
        let d = self.new_reg(RegClass::B64);
        const SIZES: [u64; 4] = [16, 128, 4096, 1 << 20];
        let primary = SIZES[self.index(SIZES.len())?];
        let mut operands = Vec::new();
        for s in form.operands() {
            operands.push(match s.name {
                "cache-policy" => reg_op(d),
                "a" => {
                    let words = self.shape.inputs.max(1);
                    addr(Special::In, 4 * self.u.int_in_range(0..=words - 1)?)
                }
                // The total is at least the primary size (§9.7.9.18).
                "primary-size" => Operand::Imm(imm_for(RegType::B32, primary)),
                "total-size" => Operand::Imm(imm_for(RegType::B32, 2 * primary)),
                "fraction" => {
                    // In (0, 1] (§9.7.9.18): 1.0, 0.5, 0.25, 0.75.
                    const FRACTIONS: [u32; 4] = [0x3F80_0000, 0x3F00_0000, 0x3E80_0000, 0x3F40_0000];
                    Operand::Imm(imm_for(RegType::F32, u64::from(FRACTIONS[self.index(FRACTIONS.len())?])))
                }
                _ => return Ok(None),
            });
        }
        self.push_isa(Instruction { guard: None, form, operands });
        // The policy is opaque: no instruction reads it as data, none overwrites it, and the
        // epilogue does not store it (it is no value of the pool).
        self.defined[ci(RegClass::B64)].retain(|r| *r != d);
        self.unread.remove(&d);
        if self.depth() == 0 {
            self.policies.push(d);
        }
        Ok(Some(d))
    }

    /// Appends a glue instruction and records its reads and writes.
    pub fn push_glue(&mut self, guard: Option<PredGuard>, glue: Glue) {
        debug_assert!(glue.is_valid(), "{glue}");
        if let Some(g) = guard {
            self.read(Reg::Virt(RegClass::Pred, g.pred));
        }
        for s in glue.src.iter().flatten() {
            if let Src::Reg(r) = s {
                self.read(*r);
            }
        }
        self.policies.retain(|p| *p != glue.dst);
        self.write(glue.dst, guard.is_some());
        self.body.push(Stmt::Glue { guard, glue });
        self.count += 1;
    }

    /// Emits `form` with operands drawn for it. `fixed` supplies operands by slot name
    /// (addresses, `membermask`); `kinds(slot, element)` says what each source value is for;
    /// `sinks` allows `_` in vector destinations. Returns whether an instruction was emitted
    /// (a guard is dropped when the destinations cannot be existing registers).
    pub fn emit_form(
        &mut self,
        form: &Form,
        fixed: &[(&str, Operand)],
        kinds: &KindFn<'_>,
        mode: GuardMode,
        sinks: bool,
    ) -> Result<bool> {
        let specs = form.operands();
        let mut guarded = mode == GuardMode::Maybe && self.chance(self.pred_pm)?;
        if guarded {
            // Every destination must be an existing register.
            let mut need = [0usize; CLASSES];
            for s in specs.iter().filter(|s| writes(&s.kind, s.role)) {
                match s.kind {
                    OperandKind::Reg(t) => need[ci(operand_class(form, t).unwrap_or(RegClass::B32))] += 1,
                    OperandKind::Vector(t, n) => {
                        need[ci(operand_class(form, t).unwrap_or(RegClass::B32))] += usize::from(n)
                    }
                    OperandKind::RegWithPred(_) => {
                        need[ci(RegClass::B32)] += 1;
                        need[0] += 1;
                    }
                    _ => {}
                }
            }
            guarded = (0..CLASSES).all(|c| self.defined[c].len() >= need[c]);
        }
        let mut ops: Vec<Option<Operand>> = vec![None; specs.len()];
        for (i, s) in specs.iter().enumerate() {
            if let Some((_, o)) = fixed.iter().find(|(n, _)| *n == s.name) {
                ops[i] = Some(o.clone());
                continue;
            }
            if writes(&s.kind, s.role) {
                continue;
            }
            ops[i] = Some(match s.kind {
                OperandKind::Reg(t) => {
                    let Some(c) = operand_class(form, t) else { return Ok(false) };
                    reg_op(self.src_reg(c, kinds(s.name, 0))?)
                }
                OperandKind::RegOrImm(t) => {
                    let Some(c) = operand_class(form, t) else { return Ok(false) };
                    let kind = kinds(s.name, 0);
                    let imm_pm = if matches!(kind, Kind::Lane | Kind::Clamp) {
                        self.imm_pm.max(SHFL_IMM_PERMILLE)
                    } else {
                        self.imm_pm
                    };
                    if self.chance(imm_pm)? {
                        let v = self.value(kind);
                        Operand::Imm(imm_for(t, v))
                    } else {
                        reg_op(self.src_reg(c, kind)?)
                    }
                }
                OperandKind::Vector(t, n) => {
                    let Some(c) = operand_class(form, t) else { return Ok(false) };
                    let mut items = Vec::new();
                    for j in 0..usize::from(n) {
                        items.push(reg_op(self.src_reg(c, kinds(s.name, j))?));
                    }
                    Operand::Vector(items)
                }
                _ => return Ok(false),
            });
        }
        let guard = if guarded {
            let p = self.guard_pred()?;
            Some(Guard { negated: self.u.arbitrary::<bool>()?, pred: p.to_string() })
        } else {
            None
        };
        let mut taken: Vec<Reg> = Vec::new();
        for (i, s) in specs.iter().enumerate() {
            if ops[i].is_some() || !writes(&s.kind, s.role) {
                continue;
            }
            ops[i] = Some(match s.kind {
                OperandKind::Reg(t) => {
                    let Some(c) = operand_class(form, t) else { return Ok(false) };
                    let Some(d) = self.dst_reg(c, guarded, &taken)? else { return Ok(false) };
                    taken.push(d);
                    reg_op(d)
                }
                OperandKind::Vector(t, n) => {
                    let Some(c) = operand_class(form, t) else { return Ok(false) };
                    let mut items = Vec::new();
                    for _ in 0..n {
                        let Some(d) = self.dst_reg(c, guarded, &taken)? else { return Ok(false) };
                        taken.push(d);
                        items.push(reg_op(d));
                    }
                    if sinks && self.cfg.sinks {
                        let keep = self.index(items.len())?;
                        for (j, item) in items.iter_mut().enumerate() {
                            if j != keep && self.chance(SINK_PERMILLE)? {
                                *item = Operand::Sink;
                            }
                        }
                    }
                    Operand::Vector(items)
                }
                OperandKind::RegWithPred(_) => {
                    let Some(d) = self.dst_reg(RegClass::B32, guarded, &taken)? else { return Ok(false) };
                    let Some(p) = self.dst_reg(RegClass::Pred, guarded, &taken)? else { return Ok(false) };
                    taken.extend([d, p]);
                    Operand::WithPred(Box::new(reg_op(d)), p.to_string())
                }
                _ => return Ok(false),
            });
        }
        let Some(operands) = ops.into_iter().collect::<Option<Vec<Operand>>>() else { return Ok(false) };
        self.push_isa(Instruction { guard, form: form.clone(), operands });
        Ok(true)
    }

    // ----- control flow and barriers -----

    /// Opens a forward branch `@p bra $Ln` (a predicate on `%tix` half the time).
    pub fn open_branch(&mut self) -> Result<()> {
        let p = if self.chance(TID_BRANCH_PERMILLE)? { self.produce_pred(true)? } else { self.guard_pred()? };
        self.open_branch_on(p)
    }

    /// Opens a forward branch `@p bra $Ln` / `@!p bra $Ln` on the defined predicate `p`.
    pub fn open_branch_on(&mut self, p: Reg) -> Result<()> {
        let Reg::Virt(_, pred) = p else { unreachable!("predicates are virtual") };
        let negated = self.u.arbitrary::<bool>()?;
        let label = self.next_label;
        self.next_label += 1;
        self.read(p);
        self.body.push(Stmt::Bra { guard: Some(PredGuard { pred, negated }), label });
        self.count += 1;
        self.scopes.push(Scope { label, opened_at: self.count, defined: self.defined.clone() });
        Ok(())
    }

    /// Closes the innermost open branch with its label.
    pub fn close_branch(&mut self) {
        let Some(scope) = self.scopes.pop() else { return };
        self.body.push(Stmt::Label(scope.label));
        self.defined = scope.defined;
        let defined = &self.defined;
        self.unread.retain(|r| match r {
            Reg::Virt(c, _) => defined[ci(*c)].contains(r),
            Reg::Special(_) => false,
        });
    }

    /// A label never used before.
    pub fn fresh_label(&mut self) -> u32 {
        self.next_label += 1;
        self.next_label - 1
    }

    /// Places label `label` (a join or a loop head; forward branches use
    /// [`Builder::close_branch`]).
    pub fn place_label(&mut self, label: u32) {
        self.body.push(Stmt::Label(label));
    }

    /// Emits `bra $L<label>` (unguarded) or `@p bra $L<label>`.
    pub fn jump(&mut self, guard: Option<PredGuard>, label: u32) {
        if let Some(g) = guard {
            self.read(Reg::Virt(RegClass::Pred, g.pred));
        }
        self.body.push(Stmt::Bra { guard, label });
        self.count += 1;
    }

    /// The defined registers of every class, to restore after a construct whose paths define
    /// different registers ([`Builder::restore_defined`]).
    pub fn defined_snapshot(&self) -> [Vec<Reg>; CLASSES] {
        self.defined.clone()
    }

    /// Makes `defined` the registers defined at a join: `saved` (those defined before the
    /// construct, which every path keeps); values not read yet stay unread only if defined.
    pub fn restore_defined(&mut self, saved: [Vec<Reg>; CLASSES]) {
        self.defined = saved;
        let defined = &self.defined;
        self.unread.retain(|r| match r {
            Reg::Virt(c, _) => defined[ci(*c)].contains(r),
            Reg::Special(_) => false,
        });
    }

    /// Takes `r` out of the pool of registers sources and destinations are drawn from (a
    /// loop counter no other instruction may overwrite); writing it puts it back.
    pub fn reserve(&mut self, r: Reg) {
        if let Reg::Virt(c, _) = r {
            self.defined[ci(c)].retain(|x| *x != r);
            self.unread.remove(&r);
        }
    }

    /// Emits `bar.sync 0` (top level only): every stored shared byte becomes readable by the
    /// neighbour.
    pub fn bar(&mut self) {
        debug_assert_eq!(self.depth(), 0);
        self.body.push(Stmt::Bar);
        self.count += 1;
        for b in &mut self.shared {
            if *b == ShByte::Own {
                *b = ShByte::Synced;
            }
        }
    }
}

/// The registers an operand names.
pub fn collect_regs(o: &Operand, out: &mut Vec<Reg>) {
    match o {
        Operand::Name(n) => out.extend(Reg::parse(n)),
        Operand::Vector(items) => items.iter().for_each(|i| collect_regs(i, out)),
        Operand::Address { base: Some(b), .. } => out.extend(Reg::parse(b)),
        Operand::WithPred(d, p) => {
            collect_regs(d, out);
            out.extend(Reg::parse(p));
        }
        _ => {}
    }
}
