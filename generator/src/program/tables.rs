//! The forms a program may use on a target: for each family, the valid forms
//! (`oracle::isa::valid_forms`) whose operands the program's registers and memory can express,
//! each tagged with the qualifier knobs ([`feat`]) it uses, so that a swarm configuration
//! filters by a bit mask.
//!
//! (Forms that need 8-bit registers ([`needs_8bit_register`]: operands of type `.b8` in `cvt`
//! and `mov` (`cvt …e2m1x2`, `mov.b16 d, {a, b}`, `mov.b32` with four elements) and the 16
//! `cvt` forms between `.bf16` and `.u8`/`.s8`, where ptxas 13.5 rejects a `.b16` register,
//! "Arguments mismatch") are in, with `.b8` registers for those operands ([`operand_class`]);
//! every other 8-bit operand of a table form uses `.b16`, which ptxas takes. The byte loads
//! that feed a `.b8` register are the 1-byte entries of [`Tables::ld_global`], emitted with a
//! `.b8` destination by the builder.)
//!
//! Forms left out, and why:
//! - `.b128` operands (no `.b128` register class);
//! - `mov` of special registers and of symbol addresses (not values a program computes);
//! - loads and stores with `.mmio` (memory-mapped I/O semantics), `[a].unified`, or generic,
//!   `.local`, `.const`, `.param` addressing: inputs are read through `.global` addresses and
//!   shared slots through `.shared{::cta,::cluster}` ones only;
//! - `st` of `.v8` with 8- or 16-bit types: the model follows ptxas, which assembles them, but
//!   the same vectors crash ptxas 13.5 as loads (corpus/findings/ptxas-ld-v8-b16-segfault.md),
//!   so they are kept out of generated programs.
//!
//! Invariant: every entry is `valid_forms(target, family)`-valid; the table is a pure function
//! of the target (cached per target for the life of the process).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use oracle::isa::operand::OperandKind;
use oracle::isa::qualifier::Qualifier;
use oracle::isa::types::{MemType, RegType, Space, VecWidth};
use oracle::isa::{valid_forms, CvtRnd, CvtType, Family, Form, MovShape, Operand, Role, Target};
use oracle::program::{GlueOp, GlueType, RegClass};

/// Qualifier knobs a form uses (one bit each; see the `Config` fields of the same names).
pub mod feat {
    /// `.v2`/`.v4`/`.v8`.
    pub const VECTORS: u32 = 1 << 0;
    /// `.volatile`, `.relaxed`, `.acquire`, `.release`.
    pub const MEMORY_ORDERING: u32 = 1 << 1;
    /// `.cop`.
    pub const CACHE_OPERATORS: u32 = 1 << 2;
    /// `.L1::…`/`.L2::…` eviction priorities.
    pub const EVICTION_PRIORITY: u32 = 1 << 3;
    /// `.level::prefetch_size`.
    pub const PREFETCH_SIZE: u32 = 1 << 4;
    /// `.shared::cluster`.
    pub const SHARED_CLUSTER: u32 = 1 << 5;
    /// A rounding modifier other than `.rn`/`.rni`.
    pub const ROUNDING_MODES: u32 = 1 << 6;
    /// `.sat`.
    pub const SATURATE: u32 = 1 << 7;
    /// `.ftz`.
    pub const FTZ: u32 = 1 << 8;
    /// `.relu`.
    pub const RELU: u32 = 1 << 9;
    /// `.satfinite` where the form also exists without it.
    pub const SATFINITE: u32 = 1 << 10;
    /// `.rs`.
    pub const STOCHASTIC_ROUNDING: u32 = 1 << 11;
    /// FP8/FP6/FP4/UE8M0 types.
    pub const NARROW_FLOATS: u32 = 1 << 12;
    /// `.f16x2`/`.bf16x2`/`.tf32`.
    pub const PACKED_HALVES: u32 = 1 << 13;
    /// `.f64`.
    pub const F64: u32 = 1 << 14;
    /// Integer conversions.
    pub const INT_CONVERSIONS: u32 = 1 << 15;
    /// `prmt` modes.
    pub const PRMT_MODES: u32 = 1 << 16;
    /// `shfl.sync` with `d|p`.
    pub const SHFL_PREDICATE: u32 = 1 << 17;
    /// `.L2::cache_hint` on global loads and stores, with a `createpolicy` policy.
    pub const CACHE_HINT: u32 = 1 << 18;
}

/// A form and the knobs it uses.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The form.
    pub form: Form,
    /// Its [`feat`] bits.
    pub feat: u32,
}

/// A `cvt` form of [`Tables::cvt`] with just a destination and a source register, by its
/// types (what the fold chains convert with).
#[derive(Clone, Copy, Debug)]
pub struct PlainCvt {
    /// Index into [`Tables::cvt`]'s items.
    pub item: u32,
    /// `.dtype`.
    pub dtype: CvtType,
    /// `.atype`.
    pub atype: CvtType,
}

/// A load or store form and its access.
#[derive(Clone, Debug)]
pub struct Mem {
    /// The form.
    pub form: Form,
    /// Its [`feat`] bits.
    pub feat: u32,
    /// Element register type of the data operand.
    pub elem: RegType,
    /// Elements (1 for a scalar).
    pub n: u8,
    /// Bytes accessed.
    pub size: u32,
    /// The register class of each element.
    pub class: RegClass,
}

/// What a swarm filter or an operand constraint asks of a form: its knob bits and, for loads
/// and stores, its access shape (`mov` copies record the class of `d`, packs and unpacks their
/// element count in `n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    /// [`feat`] bits.
    pub feat: u32,
    /// Bytes accessed (0 outside loads and stores).
    pub size: u32,
    /// Elements of the data operand (memory), or of the vector (`mov` pack/unpack; 0 for a copy).
    pub n: u8,
    /// Register class of the data elements (memory) or of a `mov` copy's `d`.
    pub class: Option<RegClass>,
}

/// The members of a table that share a [`Key`] (indices into [`Table::items`]).
#[derive(Clone, Debug)]
pub struct Group {
    /// The shared key.
    pub key: Key,
    /// Indices of the members.
    pub members: Vec<u32>,
}

/// A family's forms, grouped by [`Key`] so that a per-program filter looks at a few dozen
/// groups instead of thousands of forms.
#[derive(Clone, Debug)]
pub struct Table<T> {
    /// The forms, in `valid_forms` order.
    pub items: Vec<T>,
    /// The groups, in key order.
    pub groups: Vec<Group>,
}

impl<T> Table<T> {
    fn new(items: Vec<T>, key: impl Fn(&T) -> Key) -> Self {
        let mut map: std::collections::BTreeMap<Key, Vec<u32>> = std::collections::BTreeMap::new();
        for (i, x) in items.iter().enumerate() {
            map.entry(key(x)).or_default().push(i as u32);
        }
        Table { items, groups: map.into_iter().map(|(key, members)| Group { key, members }).collect() }
    }

    /// Whether some group satisfies `ok`.
    pub fn any(&self, ok: impl Fn(&Key) -> bool) -> bool {
        self.groups.iter().any(|g| ok(&g.key))
    }
}

impl<T> std::ops::Deref for Table<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items
    }
}

impl<'a, T> IntoIterator for &'a Table<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

fn entry_key(e: &Entry) -> Key {
    let (n, class) = match &e.form {
        Form::Mov(m) => match m.shape {
            MovShape::Copy => (
                0,
                e.form.operands().first().and_then(|s| match s.kind {
                    OperandKind::Reg(t) => operand_class(&e.form, t),
                    _ => None,
                }),
            ),
            MovShape::Pack(k) | MovShape::Unpack(k) => (k, None),
            _ => (0, None),
        },
        _ => (0, None),
    };
    Key { feat: e.feat, size: 0, n, class }
}

fn mem_key(m: &Mem) -> Key {
    Key { feat: m.feat, size: m.size, n: m.n, class: Some(m.class) }
}

/// The mov forms the output epilogue converts with: pack/unpack of 2×b16 → b32, 2×b32 → b64,
/// 4×b16 → b64.
#[derive(Clone, Debug)]
pub struct MovForms {
    /// `mov.b32 d, {a, b}` (b16 elements).
    pub pack32_2: Form,
    /// `mov.b64 d, {a, b}` (b32 elements).
    pub pack64_2: Form,
    /// `mov.b64 d, {a, b, c, d}` (b16 elements).
    pub pack64_4: Form,
    /// `mov.b32 {d, e}, a`.
    pub unpack32_2: Form,
    /// `mov.b64 {d, e}, a`.
    pub unpack64_2: Form,
    /// `mov.b64 {d, e, f, g}, a`.
    pub unpack64_4: Form,
    /// `mov.b16 d, {a, b}` (b8 elements): a `.b8` register's value into a `.b16` one.
    pub pack16_2: Form,
}

/// Every usable form of a target.
#[derive(Clone, Debug)]
pub struct Tables {
    /// The target.
    pub target: Target,
    /// `cvt`.
    pub cvt: Table<Entry>,
    /// `cvt.pack`.
    pub cvt_pack: Table<Entry>,
    /// `prmt`.
    pub prmt: Table<Entry>,
    /// `shfl.sync`.
    pub shfl: Table<Entry>,
    /// `mov` (copies, packs, unpacks).
    pub mov: Table<Entry>,
    /// `ld.global`.
    pub ld_global: Table<Mem>,
    /// `ld.global.nc`.
    pub ld_nc: Table<Mem>,
    /// `ld.shared{,::cta,::cluster}`.
    pub ld_shared: Table<Mem>,
    /// `st.global`.
    pub st_global: Table<Mem>,
    /// `st.shared{,::cta,::cluster}`.
    pub st_shared: Table<Mem>,
    /// Glue (op, type) pairs the target takes.
    pub glue: Vec<(GlueOp, GlueType)>,
    /// The plain two-register forms of [`Tables::cvt`], in its order.
    pub cvt_plain: Vec<PlainCvt>,
    /// `prefetch.global` hints (§9.7.9.15) at the levels `.L1`, `.L2` and `.L2::evict_*`
    /// (the eviction priorities under [`feat::EVICTION_PRIORITY`]).
    pub prefetch: Table<Entry>,
    /// `createpolicy` forms that make the policy of a `.L2::cache_hint` access (§9.7.9.18).
    pub createpolicy: Table<Entry>,
    /// `applypriority.global` (§9.7.9.16, under [`feat::EVICTION_PRIORITY`]) and
    /// `discard.global` (§9.7.9.17): hints on a 128-byte line of the thread's inputs.
    pub line_hints: Table<Entry>,
    /// Conversions of the epilogue.
    pub movs: MovForms,
}

pub use oracle::program::{needs_8bit_register, operand_class};

fn expressible(form: &Form, memory: bool) -> bool {
    form.operands().iter().all(|s| match s.kind {
        OperandKind::Reg(t) | OperandKind::RegOrImm(t) | OperandKind::Vector(t, _) | OperandKind::RegWithPred(t) => {
            operand_class(form, t).is_some()
        }
        OperandKind::Addr(_) => memory,
        _ => false,
    })
}

fn is_narrow(t: CvtType) -> bool {
    use CvtType::*;
    matches!(t, E4m3x2 | E5m2x2 | E2m1x2 | E2m3x2 | E3m2x2 | E4m3x4 | E5m2x4 | E2m1x4 | E2m3x4 | E3m2x4 | Ue8m0x2)
}

fn cvt_feat(form: &Form) -> u32 {
    let Form::Cvt(c) = form else { return 0 };
    let mut f = 0;
    match c.rnd {
        Some(CvtRnd::Rs) => f |= feat::STOCHASTIC_ROUNDING,
        Some(CvtRnd::Rn | CvtRnd::Rni) | None => {}
        Some(_) => f |= feat::ROUNDING_MODES,
    }
    if c.sat {
        f |= feat::SATURATE;
    }
    if c.ftz {
        f |= feat::FTZ;
    }
    if c.relu {
        f |= feat::RELU;
    }
    if c.satfinite {
        let mut without = *c;
        without.satfinite = false;
        if Form::Cvt(without).check().is_ok() {
            f |= feat::SATFINITE;
        }
    }
    let types = [c.dtype, c.atype];
    if types.iter().any(|&t| is_narrow(t)) {
        f |= feat::NARROW_FLOATS;
    }
    if types.iter().any(|&t| matches!(t, CvtType::F16x2 | CvtType::Bf16x2 | CvtType::Tf32)) {
        f |= feat::PACKED_HALVES;
    }
    if types.contains(&CvtType::F64) {
        f |= feat::F64;
    }
    if types.iter().any(|t| t.is_int()) {
        f |= feat::INT_CONVERSIONS;
    }
    f
}

/// The qualifiers of a load or store that decide its swarm features.
struct MemQualifiers<'a> {
    vec: Option<VecWidth>,
    ordering: Option<&'a str>,
    cop: bool,
    evict: bool,
    prefetch: bool,
    space: Option<Space>,
    ty: MemType,
    cache_hint: bool,
}

fn mem_feat(q: MemQualifiers<'_>) -> u32 {
    let mut f = 0;
    if q.vec.is_some() {
        f |= feat::VECTORS;
    }
    if q.ordering.is_some_and(|s| s != "weak") {
        f |= feat::MEMORY_ORDERING;
    }
    if q.cop {
        f |= feat::CACHE_OPERATORS;
    }
    if q.evict {
        f |= feat::EVICTION_PRIORITY;
    }
    if q.prefetch {
        f |= feat::PREFETCH_SIZE;
    }
    if q.space == Some(Space::SharedCluster) {
        f |= feat::SHARED_CLUSTER;
    }
    if q.ty == MemType::F64 {
        f |= feat::F64;
    }
    if q.cache_hint {
        f |= feat::CACHE_HINT;
    }
    f
}

/// The data operand's element type and count.
fn access(form: &Form, data: usize) -> Option<(RegType, u8)> {
    match form.operands().get(data)?.kind {
        OperandKind::Reg(t) => Some((t, 1)),
        OperandKind::Vector(t, n) => Some((t, n)),
        _ => None,
    }
}

fn mem(form: Form, feat: u32, data: usize) -> Option<Mem> {
    let (elem, n) = access(&form, data)?;
    let class = RegClass::of(elem)?;
    let size = elem.bits() / 8 * u32::from(n);
    Some(Mem { form, feat, elem, n, size, class })
}

fn is_shared(space: Option<Space>) -> bool {
    matches!(space, Some(Space::Shared | Space::SharedCta | Space::SharedCluster))
}

fn mov_form(opcode: &str, pack: bool, n: usize) -> Form {
    let items = Operand::Vector((0..n).map(|i| Operand::Name(format!("%x{i}"))).collect());
    let scalar = Operand::Name("%y".into());
    let ops = if pack { [scalar, items] } else { [items, scalar] };
    Form::parse(opcode, &ops).expect("the epilogue's mov forms parse")
}

impl Tables {
    /// Builds the tables of `target` (use [`tables`] for the cached copy).
    pub fn build(target: &Target) -> Tables {
        let forms = |f: Family, memory: bool| -> Vec<Form> {
            valid_forms(target, Some(f)).into_iter().map(|(form, _)| form).filter(|x| expressible(x, memory)).collect()
        };
        let entries = |f: Family, feat: &dyn Fn(&Form) -> u32| -> Vec<Entry> {
            forms(f, false).into_iter().map(|form| Entry { feat: feat(&form), form }).collect()
        };
        let cvt = entries(Family::Cvt, &cvt_feat);
        let cvt_plain = cvt
            .iter()
            .enumerate()
            .filter_map(|(i, e)| {
                let Form::Cvt(c) = &e.form else { return None };
                let ops = e.form.operands();
                let regs = ops.len() == 2 && ops.iter().all(|s| matches!(s.kind, OperandKind::Reg(_)));
                regs.then_some(PlainCvt { item: i as u32, dtype: c.dtype, atype: c.atype })
            })
            .collect();
        let cvt_pack = entries(Family::CvtPack, &|_| 0);
        let prmt = entries(Family::Prmt, &|f| match f {
            Form::Prmt(p) if p.mode.is_some() => feat::PRMT_MODES,
            _ => 0,
        });
        let shfl = entries(Family::ShflSync, &|f| match f {
            Form::ShflSync(s) if s.pred_dst => feat::SHFL_PREDICATE,
            _ => 0,
        });
        let mov: Vec<Entry> = entries(Family::Mov, &|f| match f {
            Form::Mov(m) if m.ty.token() == "f64" => feat::F64,
            _ => 0,
        })
        .into_iter()
        .filter(|e| matches!(&e.form, Form::Mov(m) if matches!(m.shape, MovShape::Copy | MovShape::Pack(_) | MovShape::Unpack(_))))
        .collect();

        let (mut ld_global, mut ld_shared) = (Vec::new(), Vec::new());
        for form in forms(Family::Ld, true) {
            let Form::Ld(l) = &form else { continue };
            if l.mmio || l.unified || (l.cache_hint && l.space != Some(Space::Global)) {
                continue;
            }
            let f = mem_feat(MemQualifiers {
                vec: l.vec,
                ordering: l.sem.map(|s| s.token()),
                cop: l.cop.is_some(),
                evict: l.l1.is_some() || l.l2.is_some(),
                prefetch: l.prefetch.is_some(),
                space: l.space,
                ty: l.ty,
                cache_hint: l.cache_hint,
            });
            let space = l.space;
            if let Some(m) = mem(form, f, 0) {
                match space {
                    Some(Space::Global) => ld_global.push(m),
                    s if is_shared(s) => ld_shared.push(m),
                    _ => {}
                }
            }
        }
        let mut ld_nc = Vec::new();
        for form in forms(Family::LdGlobalNc, true) {
            let Form::LdGlobalNc(l) = &form else { continue };
            let f = mem_feat(MemQualifiers {
                vec: l.vec,
                ordering: None,
                cop: l.cop.is_some(),
                evict: l.l1.is_some() || l.l2.is_some(),
                prefetch: l.prefetch.is_some(),
                space: Some(Space::Global),
                ty: l.ty,
                cache_hint: l.cache_hint,
            });
            ld_nc.extend(mem(form, f, 0));
        }
        let (mut st_global, mut st_shared) = (Vec::new(), Vec::new());
        for form in forms(Family::St, true) {
            let Form::St(s) = &form else { continue };
            // `.v8` of 8/16-bit types: see the module documentation.
            let small_v8 = s.vec == Some(VecWidth::V8) && s.ty.bits() <= 16;
            if s.mmio || small_v8 || (s.cache_hint && s.space != Some(Space::Global)) {
                continue;
            }
            let f = mem_feat(MemQualifiers {
                vec: s.vec,
                ordering: s.sem.map(|x| x.token()),
                cop: s.cop.is_some(),
                evict: s.l1.is_some() || s.l2.is_some(),
                prefetch: false,
                space: s.space,
                ty: s.ty,
                cache_hint: s.cache_hint,
            });
            let space = s.space;
            if let Some(m) = mem(form, f, 1) {
                match space {
                    Some(Space::Global) => st_global.push(m),
                    s if is_shared(s) => st_shared.push(m),
                    _ => {}
                }
            }
        }
        // What the target takes (the packed 16x2 forms need sm_90 and PTX 8.0, §9.7.1).
        let glue = GlueOp::all()
            .into_iter()
            .flat_map(|op| GlueType::ALL.into_iter().map(move |ty| (op, ty)))
            .filter(|&(op, ty)| Glue::available(op, ty, target))
            .collect();
        let prefetch: Vec<Entry> = forms(Family::Prefetch, true)
            .into_iter()
            .filter_map(|form| {
                let Form::Prefetch(p) = &form else { return None };
                // The level is the opcode's last qualifier (`.L1`, `.L2`, `.L2::evict_*`,
                // `.tensormap`); the tensor-map prefetch needs a tensor map.
                let op = form.opcode();
                if p.space != Some(Space::Global) || op.ends_with(".tensormap") {
                    return None;
                }
                let feat = if op.contains("::evict_") { feat::EVICTION_PRIORITY } else { 0 };
                Some(Entry { form, feat })
            })
            .collect();
        // `applypriority` and `discard` (§9.7.9.16/17) through `.global` (the body's addresses
        // are global ones; generic addressing of them is the same line).
        let line_hints: Vec<Entry> = [Family::Applypriority, Family::Discard]
            .into_iter()
            .flat_map(|f| valid_forms(target, Some(f)))
            .filter_map(|(form, _)| match &form {
                Form::Applypriority(a) if a.global => Some(Entry { form, feat: feat::EVICTION_PRIORITY }),
                Form::Discard(d) if d.global => Some(Entry { form, feat: 0 }),
                _ => None,
            })
            .collect();
        // `createpolicy` (§9.7.9.18) for `.L2::cache_hint` operands: fractional policies and
        // `.global` range policies (addressed like the thread's inputs); not `.cvt`, whose
        // source is an access property of the CUDA APIs.
        let createpolicy: Vec<Entry> = forms(Family::Createpolicy, true)
            .into_iter()
            .filter(|form| match form {
                Form::Createpolicy(c) => match c.kind {
                    oracle::isa::PolicyKind::Fractional => true,
                    oracle::isa::PolicyKind::Range => c.global,
                    oracle::isa::PolicyKind::Cvt => false,
                },
                _ => false,
            })
            .map(|form| Entry { form, feat: feat::CACHE_HINT })
            .collect();
        if createpolicy.is_empty() {
            // No policy to give them: no hinted accesses.
            for t in [&mut ld_global, &mut ld_nc, &mut st_global] {
                t.retain(|m: &Mem| m.feat & feat::CACHE_HINT == 0);
            }
        }
        let movs = MovForms {
            pack32_2: mov_form("mov.b32", true, 2),
            pack64_2: mov_form("mov.b64", true, 2),
            pack64_4: mov_form("mov.b64", true, 4),
            unpack32_2: mov_form("mov.b32", false, 2),
            unpack64_2: mov_form("mov.b64", false, 2),
            unpack64_4: mov_form("mov.b64", false, 4),
            pack16_2: mov_form("mov.b16", true, 2),
        };
        Tables {
            target: *target,
            cvt: Table::new(cvt, entry_key),
            cvt_plain,
            cvt_pack: Table::new(cvt_pack, entry_key),
            prmt: Table::new(prmt, entry_key),
            shfl: Table::new(shfl, entry_key),
            mov: Table::new(mov, entry_key),
            ld_global: Table::new(ld_global, mem_key),
            ld_nc: Table::new(ld_nc, mem_key),
            ld_shared: Table::new(ld_shared, mem_key),
            st_global: Table::new(st_global, mem_key),
            st_shared: Table::new(st_shared, mem_key),
            prefetch: Table::new(prefetch, entry_key),
            createpolicy: Table::new(createpolicy, entry_key),
            line_hints: Table::new(line_hints, entry_key),
            glue,
            movs,
        }
    }
}

use oracle::program::Glue;

/// The tables of `target`, built once per process.
pub fn tables(target: &Target) -> Arc<Tables> {
    static CACHE: OnceLock<Mutex<HashMap<Target, Arc<Tables>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut map = cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    map.entry(*target).or_insert_with(|| Arc::new(Tables::build(target))).clone()
}

/// Whether the operand spec is written by the instruction (an address is always read, even
/// the `a` of `st`, whose role is `Dst`).
pub fn writes(kind: &OperandKind, role: Role) -> bool {
    role == Role::Dst && !matches!(kind, OperandKind::Addr(_))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_valid_and_cover_every_family() {
        for t in ["sm_90a@8.7", "sm_100a@8.8", "sm_80"] {
            let target: Target = t.parse().unwrap();
            let tb = tables(&target);
            for (name, list) in
                [("cvt", &tb.cvt), ("cvt.pack", &tb.cvt_pack), ("prmt", &tb.prmt), ("shfl", &tb.shfl), ("mov", &tb.mov)]
            {
                assert!(!list.is_empty(), "{t}: no {name}");
                assert!(list.iter().all(|e| e.form.is_valid(&target)), "{t}: {name}");
            }
            for (name, list) in [
                ("ld", &tb.ld_global),
                ("ld.nc", &tb.ld_nc),
                ("ld.shared", &tb.ld_shared),
                ("st", &tb.st_global),
                ("st.shared", &tb.st_shared),
            ] {
                assert!(!list.is_empty(), "{t}: no {name}");
                assert!(list.iter().all(|m| m.form.is_valid(&target) && m.size.is_power_of_two()), "{t}: {name}");
                // The plain scalar form of every register class exists with no knob.
                for class in [RegClass::B16, RegClass::B32, RegClass::B64] {
                    assert!(list.iter().any(|m| m.feat == 0 && m.n == 1 && m.class == class), "{t}: {name} {class:?}");
                }
            }
        }
        let blackwell = tables(&"sm_100a@8.8".parse().unwrap());
        assert!(blackwell.cvt.iter().any(|e| e.feat & feat::STOCHASTIC_ROUNDING != 0));
        assert!(blackwell.cvt.iter().any(|e| e.form.opcode() == "cvt.rs.satfinite.e2m1x4.f32"));
        assert!(blackwell.ld_global.iter().any(|m| m.size == 32));
        let names: Vec<String> = blackwell.prefetch.iter().map(|e| e.form.opcode()).collect();
        assert!(names.iter().any(|n| n == "prefetch.global.L2::evict_last"), "{names:?}");
        assert!(tables(&"sm_80".parse().unwrap())
            .prefetch
            .iter()
            .any(|e| e.feat == 0 && e.form.opcode() == "prefetch.global.L1"));
        // Forms with `.b8` register operands are in, those operands in `.b8` registers.
        let e2m1 = blackwell.cvt.iter().find(|e| e.form.opcode().contains("e2m1x2")).expect("cvt …e2m1x2");
        assert_eq!(operand_class(&e2m1.form, RegType::B8), Some(RegClass::B8));
        for op in ["cvt.rn.bf16.u8", "cvt.rzi.s8.bf16"] {
            let e = blackwell.cvt.iter().find(|e| e.form.opcode() == op).unwrap_or_else(|| panic!("{op}"));
            assert_eq!(operand_class(&e.form, RegType::U8), Some(RegClass::B8), "{op}");
            assert_eq!(operand_class(&e.form, RegType::S8), Some(RegClass::B8), "{op}");
        }
        let plain = blackwell.cvt.iter().find(|e| e.form.opcode() == "cvt.rzi.s8.f16").expect("cvt.rzi.s8.f16");
        assert_eq!(operand_class(&plain.form, RegType::S8), Some(RegClass::B16));
        assert!(blackwell.cvt.iter().any(|e| e.form.opcode() == "cvt.rzi.s8.f16"));
        // Global loads and stores with `.L2::cache_hint`, under their knob, and the policies.
        assert!(blackwell
            .ld_global
            .iter()
            .any(|m| m.form.opcode().contains("cache_hint") && m.feat & feat::CACHE_HINT != 0));
        assert!(blackwell
            .st_global
            .iter()
            .any(|m| m.form.opcode().contains("cache_hint") && m.feat & feat::CACHE_HINT != 0));
        assert!(blackwell.ld_nc.iter().any(|m| m.form.opcode().contains("cache_hint")));
        assert!(!blackwell.ld_shared.iter().any(|m| m.form.opcode().contains("cache_hint")));
        let policies: Vec<String> = blackwell.createpolicy.iter().map(|e| e.form.opcode()).collect();
        assert!(policies.iter().any(|o| o.starts_with("createpolicy.fractional")), "{policies:?}");
        assert!(policies.iter().any(|o| o.starts_with("createpolicy.range.global")), "{policies:?}");
        assert!(!policies.iter().any(|o| o.starts_with("createpolicy.cvt") || o.starts_with("createpolicy.range.L2")));
        assert!(!blackwell.st_global.iter().any(|m| m.form.opcode().contains(".v8.b16")));
    }
}
