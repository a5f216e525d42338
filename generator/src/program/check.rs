//! A structural validator for programs: the invariants of `oracle::program` that make a
//! program's results defined, checked on the AST independently of how it was built.
//!
//! [`check_program`] walks the body once. Because branches only go forward, the registers
//! defined at a label are the intersection of those defined on the fall-through path and at
//! every branch to it; a register is readable where it is defined on every path. It checks:
//! - the launch shape (one CTA of a multiple of 32 threads, `Launch::check_one_cta`) and the
//!   memory layout (inputs a multiple of 4, outputs 1, 2 or 4, shared words a multiple of 4);
//! - labels unique, every branch to a label of the body, guards on defined predicates;
//!   a backward branch only as a counted loop's back edge: the CTA converged at its label and
//!   at the branch, guarded by a predicate with the same known value in every thread
//!   (computed from immediates by unguarded `mov` and glue), and ending within 1024 trips —
//!   the walk follows the loop trip by trip, so everything below holds on every trip;
//! - every register read (sources, guards, address bases) defined on every path; `%sh`/`%shn`
//!   only when the program has shared memory; special registers never written; a guarded
//!   instruction writes only defined registers; no register written twice by one instruction;
//! - every glue instruction well formed and available on the target (`Glue::available`), and
//!   an `addc`/`subc` right after the unguarded `add.cc`/`addc.cc` or `sub.cc`/`subc.cc`
//!   whose carry flag it reads (§9.7.2);
//! - every ISA instruction's form valid on the program's target (`Form::is_valid`), its
//!   operands of the form's shapes and register classes (`oracle::program::operand_class`: `.b8` for
//!   the 8-bit operands of forms that need 8-bit registers; any 8-bit operand may be `.b8`),
//!   and its text parsing back to it;
//! - `shfl.sync` and `bar.sync` unguarded and converged (no open forward branch spans them),
//!   `shfl.sync` with the full member mask (§9.7.9.6);
//! - memory: loads from `[%in+off]` (`.global`, `ld.global.nc`) and `[%sh+off]`/`[%shn+off]`
//!   (`.shared{,::cta,::cluster}`), stores to `[%out+off]` (`.global`) and `[%sh+off]`
//!   (`.shared…`, unguarded and converged); a `cache-policy` operand (`.L2::cache_hint`) only
//!   from a register an unguarded `createpolicy` wrote last on every path, and a register any
//!   `createpolicy` writes read by nothing else and written by nothing else (the policy is
//!   "an opaque 64-bit register", §9.7.9.18: a value computed from it is no value the spec gives,
//!   and ptxas drops a `createpolicy` only data reads need, leaving them a register nothing
//!   writes — seeds 4702, 5401, 5402's `unwritten-register` findings); no `.mmio`, no generic or
//!   other state spaces; offsets aligned to the access size, accesses inside the thread's
//!   words, and the access size dividing the per-thread stride (so every thread's access is
//!   aligned); each shared byte stored at most once, read from the own slot only after its
//!   store and from the neighbour's only after a `bar.sync` that follows it;
//! - `prefetch` hints (§9.7.9.15) and `createpolicy.range` (§9.7.9.18) only `.global`, of a
//!   word inside the thread's inputs or outputs; `applypriority` and `discard` (§9.7.9.16/17)
//!   only `.global`, of a 128-byte line of the thread's inputs that is 128-byte aligned in
//!   every thread (the launch contract aligns `p_in`); no `createpolicy.cvt`; no other
//!   instruction has an address operand.
//!
//! The validator does not require that every output byte is stored (an unstored word reads as
//! the zero the output buffer starts with, which is defined); the generator's own tests check
//! that.

use std::collections::{BTreeMap, BTreeSet};

use oracle::isa::operand::{Imm, OperandKind};
use oracle::isa::types::{RegType, Space};
use oracle::isa::{Family, Form, Instruction, Operand, Role};
use oracle::program::{Glue, GlueOp, PredGuard, Program, Reg, RegClass, Special, Src, Stmt, MAX_OUTPUTS, MAX_THREADS};

type Defs = BTreeSet<Reg>;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Sh {
    Empty,
    Own,
    Synced,
}

struct Walk<'p> {
    p: &'p Program,
    defs: Defs,
    /// The registers that hold a cache policy on every path here: their last write was an
    /// unguarded `createpolicy` (§9.7.9.18).
    policies: Defs,
    /// The registers any `createpolicy` of the program writes: cache policies, read only by
    /// `cache-policy` operands and written only by `createpolicy` (§9.7.9.18).
    policy_regs: Defs,
    /// Per label not yet reached: the registers defined, and those holding a policy, on every
    /// branch to it.
    pending: BTreeMap<u32, (Defs, Defs)>,
    shared: Vec<Sh>,
    /// The op of the statement just walked when it is an unguarded glue instruction that
    /// writes the carry flag (§9.7.2): what a next `addc`/`subc` may continue.
    carry: Option<GlueOp>,
    /// Registers that hold the same known value in every thread here: written last by an
    /// unguarded `mov` of an immediate or an unguarded glue instruction of such values and
    /// immediates (what a loop's counter and its predicate are). Cleared at a join.
    consts: BTreeMap<Reg, u64>,
    /// Labels reached with the CTA converged (where a loop may start).
    converged_labels: BTreeSet<u32>,
}

/// The most trips the checker follows one loop for: a backward branch still taken after this
/// many is refused (the generator's loops run at most `folds::MAX_TRIPS`).
const MAX_CHECKED_TRIPS: u32 = 1024;

fn intersect(a: &Defs, b: &Defs) -> Defs {
    a.intersection(b).copied().collect()
}

/// Where an address points.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Region {
    In,
    Out,
    Sh,
    ShNext,
}

impl Walk<'_> {
    fn converged(&self) -> bool {
        self.pending.is_empty()
    }

    fn special_ok(&self, s: Special) -> bool {
        match s {
            Special::Tid | Special::In | Special::Out => true,
            Special::Sh | Special::ShNext => self.p.shared > 0,
        }
    }

    fn need(&self, r: Reg, what: &str) -> Result<(), String> {
        match r {
            Reg::Special(s) if self.special_ok(s) => Ok(()),
            Reg::Special(s) => Err(format!("{what} reads %{} but the program has no shared memory", s.name())),
            Reg::Virt(..) if self.defs.contains(&r) => Ok(()),
            Reg::Virt(..) => Err(format!("{what} reads {r}, which is not written on every path here")),
        }
    }

    /// A read of `r` as a value (any operand but a `cache-policy` one): defined here and no
    /// cache policy.
    fn value(&self, r: Reg, what: &str) -> Result<(), String> {
        self.need(r, what)?;
        if self.policy_regs.contains(&r) {
            return Err(format!(
                "{what} reads {r}, a cache policy: the policy is opaque, read only by `.L2::cache_hint` operands (§9.7.9.18)"
            ));
        }
        Ok(())
    }

    /// A write of `r` by anything but a `createpolicy`: no cache policy's register.
    fn not_a_policy(&self, r: Reg) -> Result<(), String> {
        if self.policy_regs.contains(&r) {
            return Err(format!(
                "writes {r}, which a createpolicy writes: a policy register holds nothing else (§9.7.9.18)"
            ));
        }
        Ok(())
    }

    fn guard(&self, g: &Option<PredGuard>) -> Result<(), String> {
        match g {
            Some(g) => self.need(Reg::Virt(RegClass::Pred, g.pred), "the guard"),
            None => Ok(()),
        }
    }

    fn write(&mut self, r: Reg, guarded: bool) -> Result<(), String> {
        match r {
            Reg::Special(s) => Err(format!("writes the special register %{}", s.name())),
            Reg::Virt(..) if guarded && !self.defs.contains(&r) => {
                Err(format!("a guarded instruction writes {r}, which is not written before (a skipped write would leave it undefined)"))
            }
            Reg::Virt(..) => {
                self.defs.insert(r);
                self.policies.remove(&r);
                self.consts.remove(&r);
                Ok(())
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) -> Result<(), String> {
        match s {
            Stmt::Label(l) => {
                if let Some((d, pol)) = self.pending.remove(l) {
                    self.defs = intersect(&self.defs, &d);
                    self.policies = intersect(&self.policies, &pol);
                    self.consts.clear();
                }
                if self.converged() {
                    self.converged_labels.insert(*l);
                }
                Ok(())
            }
            Stmt::Bra { guard, label } => {
                self.guard(guard)?;
                let d = match self.pending.get(label) {
                    Some((prev, pol)) => (intersect(prev, &self.defs), intersect(pol, &self.policies)),
                    None => (self.defs.clone(), self.policies.clone()),
                };
                self.pending.insert(*label, d);
                Ok(())
            }
            Stmt::Bar => {
                if !self.converged() {
                    return Err("bar.sync under a divergent branch".into());
                }
                for b in &mut self.shared {
                    if *b == Sh::Own {
                        *b = Sh::Synced;
                    }
                }
                Ok(())
            }
            Stmt::Glue { guard, glue } => {
                if !glue.is_valid() {
                    return Err("the glue instruction is not well formed".into());
                }
                let t = &self.p.target;
                if !Glue::available(glue.op, glue.ty, t) {
                    return Err(format!("`{}` is not available on {t}@{} (§9.7.1, §9.7.8)", glue.opcode(), t.ptx));
                }
                if glue.op.reads_carry() && !self.carry.is_some_and(|prev| glue.op.continues_carry(prev)) {
                    return Err(format!(
                        "`{}` reads the carry flag, but the statement before it is no unguarded {} (§9.7.2)",
                        glue.opcode(),
                        if matches!(glue.op, GlueOp::Addc { .. }) {
                            "`add.cc`/`addc.cc`"
                        } else {
                            "`sub.cc`/`subc.cc`"
                        }
                    ));
                }
                self.guard(guard)?;
                for src in glue.src.iter().flatten() {
                    if let Src::Reg(r) = src {
                        self.value(*r, "a source")?;
                    }
                }
                self.not_a_policy(glue.dst)?;
                self.write(glue.dst, guard.is_some())
            }
            Stmt::Isa(i) => self.isa(i),
        }
    }

    /// A backward branch to `label` (a loop's back edge): allowed with the CTA converged here
    /// and at the label, on a guard whose predicate has the same known value in every thread
    /// ([`Walk::consts`]). Returns whether it jumps.
    fn back_edge(&self, guard: &Option<PredGuard>, label: u32) -> Result<bool, String> {
        if !self.converged() || !self.converged_labels.contains(&label) {
            return Err(format!(
                "a backward branch to $L{label} where a forward branch is still open (loops run converged)"
            ));
        }
        let Some(g) = guard else {
            return Err(format!("an unconditional backward branch to $L{label} never ends"));
        };
        let pred = Reg::Virt(RegClass::Pred, g.pred);
        self.need(pred, "the guard")?;
        match self.consts.get(&pred) {
            Some(v) => Ok((*v == 1) != g.negated),
            None => Err(format!(
                "a backward branch on {pred}, which is not the same known value in every thread (a loop must count with immediates)"
            )),
        }
    }

    /// The value `s` gives its destination when it is the same in every thread (read before
    /// `s` runs): an unguarded `mov` of an integer immediate, or unguarded glue on such values
    /// and immediates (no carry flag read).
    fn const_result(&self, s: &Stmt) -> Option<(Reg, u64)> {
        match s {
            Stmt::Glue { guard: None, glue } if !glue.op.reads_carry() => {
                let mut vals = [0u64; 4];
                for (k, src) in glue.src.iter().enumerate() {
                    vals[k] = match src {
                        None => 0,
                        Some(Src::Imm(v)) => *v,
                        Some(Src::Reg(r)) => *self.consts.get(r)?,
                    };
                }
                Some((glue.dst, glue.eval(vals, false)))
            }
            Stmt::Isa(i) if i.guard.is_none() && i.form.family() == Family::Mov => {
                let [Operand::Name(d), Operand::Imm(Imm::Int(v))] = i.operands.as_slice() else { return None };
                let r @ Reg::Virt(c, _) = Reg::parse(d)? else { return None };
                let m = if c.bits() >= 64 { u64::MAX } else { (1u64 << c.bits()) - 1 };
                Some((r, (*v as u64) & m))
            }
            _ => None,
        }
    }

    fn isa(&mut self, i: &Instruction) -> Result<(), String> {
        let p = self.p;
        let form = &i.form;
        if !form.is_valid(&p.target) {
            return Err(format!("`{}` is not valid on {}@{}", form.opcode(), p.target, p.target.ptx));
        }
        let specs = form.operands();
        oracle::isa::operand::check_operands(&form.opcode(), &specs, &i.operands).map_err(|e| e.to_string())?;
        match i.to_string().parse::<Instruction>() {
            Ok(back) if back == *i => {}
            Ok(_) => return Err("prints as text that parses to another instruction".into()),
            Err(e) => return Err(format!("prints as text that does not parse: {e}")),
        }
        let guarded = i.guard.is_some();
        if let Some(g) = &i.guard {
            match Reg::parse(&g.pred) {
                Some(r @ Reg::Virt(RegClass::Pred, _)) => self.need(r, "the guard")?,
                _ => return Err(format!("guard `{}` is not a predicate register", g.pred)),
            }
        }
        let family = form.family();
        let memory = matches!(family, Family::Ld | Family::LdGlobalNc | Family::St);
        if family == Family::ShflSync {
            if guarded || !self.converged() {
                return Err("shfl.sync must run unguarded with the CTA converged".into());
            }
            let mask = specs.iter().zip(&i.operands).find(|(s, _)| s.name == "membermask").map(|(_, o)| o);
            if !matches!(mask, Some(Operand::Imm(Imm::Int(-1 | 0xFFFF_FFFF)))) {
                return Err("shfl.sync must use the full member mask -1".into());
            }
        }
        // Register classes and reads.
        let mut written = Vec::new();
        let mut access = None;
        for (s, o) in specs.iter().zip(&i.operands) {
            let dst = s.role == Role::Dst && !matches!(s.kind, OperandKind::Addr(_));
            match (s.kind, o) {
                (OperandKind::Addr(_), Operand::Address { base: Some(b), offset, unified: false }) => {
                    let region = match Reg::parse(b) {
                        Some(Reg::Special(Special::In)) => Region::In,
                        Some(Reg::Special(Special::Out)) => Region::Out,
                        Some(Reg::Special(Special::Sh)) => Region::Sh,
                        Some(Reg::Special(Special::ShNext)) => Region::ShNext,
                        _ => return Err(format!("address base `{b}` is not %in, %out, %sh or %shn")),
                    };
                    if matches!(region, Region::Sh | Region::ShNext) && p.shared == 0 {
                        return Err("a shared access in a program without shared memory".into());
                    }
                    access = Some((region, *offset));
                }
                (OperandKind::Addr(_), _) => return Err(format!("address `{o}` is not [%reg+offset]")),
                (OperandKind::Reg(t) | OperandKind::RegOrImm(t), Operand::Name(n)) => {
                    let r = reg_of(form, n, t)?;
                    if dst {
                        written.push(r);
                    } else if s.name == "cache-policy" {
                        self.need(r, "the cache policy")?;
                    } else {
                        self.value(r, "a source")?;
                    }
                }
                (OperandKind::RegOrImm(t), Operand::Imm(imm)) if !dst => imm_fits(imm, t)?,
                (OperandKind::Imm(_), Operand::Imm(Imm::Int(_))) if !dst => {}
                (OperandKind::Vector(t, _), Operand::Vector(items)) => {
                    for item in items {
                        match item {
                            Operand::Name(n) => {
                                let r = reg_of(form, n, t)?;
                                if dst {
                                    written.push(r);
                                } else {
                                    self.value(r, "a source")?;
                                }
                            }
                            Operand::Sink if dst => {}
                            _ => return Err(format!("vector element `{item}` is not a register")),
                        }
                    }
                }
                (OperandKind::RegWithPred(t), Operand::WithPred(d, pr)) if dst => {
                    let Operand::Name(n) = &**d else { return Err("`d|p` without a register".into()) };
                    written.push(reg_of(form, n, t)?);
                    written.push(reg_of(form, pr, RegType::Pred)?);
                }
                _ => return Err(format!("operand `{}` = `{o}` has an unexpected shape", s.name)),
            }
        }
        let mut seen = BTreeSet::new();
        if let Some(r) = written.iter().find(|r| !seen.insert(**r)) {
            return Err(format!("{r} is written twice by one instruction"));
        }
        if let Some((_, o)) =
            specs.iter().zip(&i.operands).find(|(s, _)| s.name == "cache-policy" && s.role == Role::Src)
        {
            let held = matches!(o, Operand::Name(n) if Reg::parse(n).is_some_and(|r| self.policies.contains(&r)));
            if !held {
                return Err(format!(
                    "cache-policy `{o}` is not a register written by an unguarded createpolicy on every path"
                ));
            }
        }
        if memory {
            self.memory(form, &specs, access, guarded)?;
        } else if family == Family::Prefetch || family == Family::Createpolicy {
            self.hint(form, access)?;
        } else if family == Family::Applypriority || family == Family::Discard {
            self.line_hint(form, &i.operands, access)?;
        } else if access.is_some() {
            return Err("an address operand outside ld/st".into());
        }
        if family != Family::Createpolicy {
            written.iter().try_for_each(|r| self.not_a_policy(*r))?;
        }
        let policy = (family == Family::Createpolicy && !guarded).then(|| written.first().copied()).flatten();
        for r in written {
            self.write(r, guarded)?;
        }
        self.policies.extend(policy);
        Ok(())
    }

    /// A `prefetch.global` hint, or the range of a `createpolicy.range.global`: of a word of
    /// the thread's own inputs or outputs; a fractional `createpolicy` has no address, and
    /// `createpolicy.cvt` (an access property from the CUDA APIs) is not generated.
    fn hint(&self, form: &Form, access: Option<(Region, i64)>) -> Result<(), String> {
        let global = match form {
            Form::Prefetch(pf) => pf.space == Some(Space::Global),
            Form::Createpolicy(c) if c.kind == oracle::isa::PolicyKind::Cvt => {
                return Err("createpolicy.cvt takes an access property from the CUDA APIs: not generated".into())
            }
            Form::Createpolicy(_) if access.is_none() => return Ok(()),
            Form::Createpolicy(c) => c.global,
            _ => return Err("not a hint".into()),
        };
        let Some((region, offset)) = access else { return Err("a prefetch without an address".into()) };
        let bytes = match region {
            Region::In => 4 * self.p.inputs,
            Region::Out => 4 * self.p.outputs,
            _ => return Err(format!("`{}` may not address {region:?}", form.opcode())),
        };
        if !global || offset < 0 || offset >= i64::from(bytes) {
            return Err(format!("`{}` at offset {offset} is not a global word of {region:?}", form.opcode()));
        }
        Ok(())
    }

    /// `applypriority.global` or `discard.global` (§9.7.9.16/17): `size` 128 and `a` a 128-byte
    /// line inside the thread's inputs, aligned in every thread (the per-thread stride a whole
    /// number of lines).
    fn line_hint(&self, form: &Form, operands: &[Operand], access: Option<(Region, i64)>) -> Result<(), String> {
        const LINE: i64 = 128;
        let global = match form {
            Form::Applypriority(a) => a.global,
            Form::Discard(d) => d.global,
            _ => return Err("not applypriority or discard".into()),
        };
        let stride = 4 * i64::from(self.p.inputs);
        let op = form.opcode();
        match (access, operands.get(1)) {
            (_, Some(size)) if size != &Operand::Imm(Imm::Int(LINE.into())) => {
                Err(format!("`{op}` size {size}: only 128"))
            }
            (Some((Region::In, offset)), _)
                if global && offset >= 0 && offset % LINE == 0 && offset + LINE <= stride && stride % LINE == 0 =>
            {
                Ok(())
            }
            _ => Err(format!(
                "`{op}` needs a .global 128-byte line of %in aligned in every thread ({stride} input bytes per thread)"
            )),
        }
    }

    fn memory(
        &mut self,
        form: &Form,
        specs: &[oracle::isa::OperandSpec],
        access: Option<(Region, i64)>,
        guarded: bool,
    ) -> Result<(), String> {
        let p = self.p;
        let Some((region, offset)) = access else { return Err("a load or store without an address".into()) };
        let (space, load, data) = match form {
            Form::Ld(l) if !l.mmio => (l.space, true, 0),
            Form::LdGlobalNc(_) => (Some(Space::Global), true, 0),
            Form::St(s) if !s.mmio => (s.space, false, 1),
            _ => return Err("`.mmio` accesses are not generated".into()),
        };
        let shared = matches!(space, Some(Space::Shared | Space::SharedCta | Space::SharedCluster));
        let ok = match (region, load) {
            (Region::In, true) => space == Some(Space::Global),
            (Region::Out, false) => space == Some(Space::Global) && !matches!(form, Form::LdGlobalNc(_)),
            (Region::Sh, _) | (Region::ShNext, true) => shared,
            _ => false,
        };
        if !ok {
            return Err(format!("`{}` may not access {region:?}", form.opcode()));
        }
        let (elem, n) = match specs[data].kind {
            OperandKind::Reg(t) => (t, 1),
            OperandKind::Vector(t, n) => (t, u32::from(n)),
            _ => return Err("no data operand".into()),
        };
        let size = elem.bits() / 8 * n;
        let (bytes, stride_align) = match region {
            Region::In => (4 * p.inputs, 4 * p.inputs),
            Region::Out => (4 * p.outputs, 4 * p.outputs),
            // The shared buffer is 16-byte aligned and each slot a multiple of 16 bytes.
            Region::Sh | Region::ShNext => (4 * p.shared, 16),
        };
        if offset < 0 || offset as u64 + u64::from(size) > u64::from(bytes) {
            return Err(format!(
                "access of {size} bytes at offset {offset} is outside the {bytes} bytes of {region:?}"
            ));
        }
        let off = offset as u32;
        if size == 0 || !off.is_multiple_of(size) || !stride_align.is_multiple_of(size) {
            return Err(format!("access of {size} bytes at offset {off} is not aligned for every thread"));
        }
        if matches!(region, Region::Sh | Region::ShNext) {
            let bytes = &mut self.shared[off as usize..(off + size) as usize];
            if !load {
                if guarded || !self.pending.is_empty() {
                    return Err("a shared store must be unguarded with the CTA converged".into());
                }
                if bytes.iter().any(|&b| b != Sh::Empty) {
                    return Err(format!("shared bytes {off}..{} are stored twice", off + size));
                }
                bytes.iter_mut().for_each(|b| *b = Sh::Own);
            } else if region == Region::Sh && bytes.contains(&Sh::Empty) {
                return Err(format!("reads own shared bytes {off}..{} before they are stored", off + size));
            } else if region == Region::ShNext && bytes.iter().any(|&b| b != Sh::Synced) {
                return Err(format!(
                    "reads the neighbour's shared bytes {off}..{} without a bar.sync after their store",
                    off + size
                ));
            }
        }
        Ok(())
    }
}

/// The register `name` for an operand of type `t` of `form`: of the form's class for it
/// ([`oracle::program::operand_class`]), or `.b8` for any other 8-bit operand (which ptxas takes
/// in `.b8` and `.b16` registers alike).
fn reg_of(form: &Form, name: &str, t: RegType) -> Result<Reg, String> {
    let r = Reg::parse(name).ok_or_else(|| format!("`{name}` is not a program register"))?;
    let want = oracle::program::operand_class(form, t).ok_or_else(|| format!("no register class holds .{t}"))?;
    if r.class() != want && !(t.bits() == 8 && r.class() == RegClass::B8) {
        return Err(format!("{r} is not a {} register for a .{t} operand", want.ptx_type()));
    }
    Ok(r)
}

fn imm_fits(imm: &Imm, t: RegType) -> Result<(), String> {
    let bits = t.bits();
    // ptxas takes a float literal only for float and bit-size operands, and an integer literal
    // only for integer and bit-size ones ("Arguments mismatch", ptxas 13: `mov.f32 %r0, 7`,
    // `mov.u32 %r0, 0f3F800000`).
    let float = matches!(t, RegType::F16 | RegType::Bf16 | RegType::F32 | RegType::F64);
    let int = matches!(t, RegType::U8 | RegType::U16 | RegType::U32 | RegType::U64)
        || matches!(t, RegType::S8 | RegType::S16 | RegType::S32 | RegType::S64);
    match imm {
        Imm::Int(_) if float => return Err(format!("integer literal `{imm}` for a .{t} operand")),
        Imm::F32Bits(_) | Imm::F64Bits(_) | Imm::Float(_) if int => {
            return Err(format!("float literal `{imm}` for a .{t} operand"))
        }
        _ => {}
    }
    let ok = match imm {
        Imm::Int(v) => {
            let lo = -(1i128 << (bits.max(1) - 1));
            let hi = (1i128 << bits) - 1;
            (lo..=hi).contains(v)
        }
        Imm::F32Bits(_) => bits == 32,
        Imm::F64Bits(_) => bits == 64,
        Imm::Float(_) => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("immediate `{imm}` does not fit a .{t} operand"))
    }
}

/// The registers a `createpolicy` of `p` writes (guarded or not): cache policies, which hold
/// nothing else and are read by `cache-policy` operands alone (§9.7.9.18; the mutator keeps its
/// edits off them too).
pub fn policy_registers(p: &Program) -> BTreeSet<Reg> {
    p.body
        .iter()
        .filter_map(|s| match s {
            Stmt::Isa(i) if i.form.family() == Family::Createpolicy => match i.operands.first() {
                Some(Operand::Name(n)) => Reg::parse(n),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// Checks the structural invariants of `p` (see the module documentation); the error names the
/// first offending statement.
pub fn check_program(p: &Program) -> Result<(), String> {
    p.launch.check_one_cta().map_err(|why| format!("the launch has {why}"))?;
    let threads = p.threads();
    if threads == 0 || !threads.is_multiple_of(32) || threads > MAX_THREADS {
        return Err(format!("threads={threads} is not a multiple of 32 in 32..={MAX_THREADS}"));
    }
    if !p.inputs.is_multiple_of(4)
        || !p.shared.is_multiple_of(4)
        || ![1, 2, 4].contains(&p.outputs)
        || p.outputs > MAX_OUTPUTS
    {
        return Err(format!("bad memory layout: inputs={} outputs={} shared={}", p.inputs, p.outputs, p.shared));
    }
    let mut labels = BTreeMap::new();
    for (i, s) in p.body.iter().enumerate() {
        if let Stmt::Label(l) = s {
            if labels.insert(*l, i).is_some() {
                return Err(format!("label $L{l} is defined twice"));
            }
        }
    }
    for (i, s) in p.body.iter().enumerate() {
        if let Stmt::Bra { label, .. } = s {
            if !labels.contains_key(label) {
                return Err(format!("statement {i}: branch to $L{label}, which is not in the body"));
            }
        }
    }
    let mut w = Walk {
        p,
        defs: Defs::new(),
        policies: Defs::new(),
        policy_regs: policy_registers(p),
        pending: BTreeMap::new(),
        shared: vec![Sh::Empty; 4 * p.shared as usize],
        carry: None,
        consts: BTreeMap::new(),
        converged_labels: BTreeSet::new(),
    };
    // Walked in execution order: a taken back edge walks its loop's body again (so a value
    // carried around the loop, a second store to a shared byte, the counter, are all seen).
    let mut trips: BTreeMap<usize, u32> = BTreeMap::new();
    let mut i = 0;
    while i < p.body.len() {
        let s = &p.body[i];
        let at = |e: String| format!("statement {i} `{}`: {e}", stmt_text(s));
        if let Stmt::Bra { guard, label } = s {
            let head = labels[label];
            if head <= i {
                w.carry = None;
                if !w.back_edge(guard, *label).map_err(at)? {
                    i += 1;
                    continue;
                }
                let n = trips.entry(i).or_insert(0);
                *n += 1;
                if *n > MAX_CHECKED_TRIPS {
                    return Err(at(format!("the loop is still running after {MAX_CHECKED_TRIPS} trips")));
                }
                i = head;
                continue;
            }
        }
        let known = w.const_result(s);
        w.stmt(s).map_err(at)?;
        w.carry = match s {
            Stmt::Glue { guard: None, glue } if glue.op.writes_carry() => Some(glue.op),
            _ => None,
        };
        if let Some((r, v)) = known {
            w.consts.insert(r, v);
        }
        i += 1;
    }
    Ok(())
}

fn stmt_text(s: &Stmt) -> String {
    match s {
        Stmt::Isa(i) => i.to_string(),
        Stmt::Glue { guard, glue } => match guard {
            Some(g) => format!("{g} {glue}"),
            None => glue.to_string(),
        },
        Stmt::Bra { guard, label } => match guard {
            Some(g) => format!("{g} bra $L{label};"),
            None => format!("bra $L{label};"),
        },
        Stmt::Label(l) => format!("$L{l}:"),
        Stmt::Bar => "bar.sync 0;".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oracle::program::text::parse_stmt;
    use oracle::program::Launch;

    /// ptxas takes no integer literal for a float operand and no float literal for an integer
    /// one (mutants changed `mov.b32 %r0, 7` to `mov.f32 …` and were rejected); bit-size
    /// operands take both.
    #[test]
    fn a_literal_must_be_of_its_operands_kind() {
        let one = |line: &str| check_program(&prog(&[line, "st.global.b32 [%out], %r0;"], 0));
        let e = one("mov.f32 %r0, 7;").unwrap_err();
        assert!(e.contains("integer literal `7` for a .f32 operand"), "{e}");
        let e = one("mov.u32 %r0, 0f3F800000;").unwrap_err();
        assert!(e.contains("float literal `0f3F800000` for a .u32 operand"), "{e}");
        for ok in ["mov.b32 %r0, 0f3F800000;", "mov.b32 %r0, 7;", "mov.f32 %r0, 0f3F800000;", "mov.s32 %r0, -7;"] {
            assert_eq!(one(ok), Ok(()), "{ok}");
        }
    }

    fn prog(body: &[&str], shared: u32) -> Program {
        Program {
            name: "k".into(),
            target: "sm_90a@8.7".parse().unwrap(),
            launch: Launch::one_cta(64),
            inputs: 8,
            outputs: 2,
            shared,
            body: body.iter().enumerate().map(|(i, l)| parse_stmt(i + 1, l).unwrap()).collect(),
        }
    }

    #[test]
    fn accepts_counted_loops() {
        let p = prog(
            &[
                "ld.global.b32 %r0, [%in];",
                "mov.u32 %r1, 6;",
                "$L0:",
                "add.u32 %r0, %r0, %r1;",
                "ld.global.b32 %r3, [%in+4];",
                "sub.u32 %r1, %r1, 2;",
                "setp.ne.u32 %p0, %r1, 0;",
                "@%p0 bra $L0;",
                "add.u32 %r0, %r0, %r3;",
                "st.global.b32 [%out], %r0;",
            ],
            0,
        );
        check_program(&p).unwrap();
    }

    #[test]
    fn accepts_carry_chains() {
        let p = prog(
            &[
                "ld.global.b64 %d0, [%in];",
                "add.cc.u64 %d1, %d0, 5;",
                "addc.cc.u64 %d2, %d0, %d1;",
                "addc.u64 %d3, %d0, 0x0;",
                "sub.cc.s32 %r0, %tix, 2;",
                "subc.s32 %r1, %tix, -1;",
                "st.global.b64 [%out], %d3;",
            ],
            0,
        );
        check_program(&p).unwrap();
    }

    #[test]
    fn accepts_a_well_formed_program() {
        // A write inside the divergent region that nothing reads after its label.
        let mut body = oracle::program::text::EXAMPLE_BODY.to_vec();
        body.insert(6, "add.s32 %r9, %r1, 1;");
        let p = prog(&body, 4);
        check_program(&p).unwrap();
    }

    /// A policy made at the top level serves every later hinted access, across a branch that
    /// does not overwrite it (§9.7.9.18).
    #[test]
    fn accepts_cache_policies_from_createpolicy() {
        let body = [
            "createpolicy.range.global.L2::evict_last.L2::evict_first.b64 %d0, [%in+4], 16, 32;",
            "setp.lt.s32 %p0, %tix, 3;",
            "@%p0 bra $L0;",
            "createpolicy.fractional.L2::evict_first.b64 %d1, 0f3F000000;",
            "ld.global.nc.L2::cache_hint.b32 %r0, [%in], %d1;",
            "$L0:",
            "ld.global.L2::cache_hint.b32 %r1, [%in+8], %d0;",
            "st.global.L2::cache_hint.b32 [%out], %r1, %d0;",
        ];
        check_program(&prog(&body, 0)).unwrap();
    }

    /// A policy is opaque (§9.7.9.18): read as a value (by glue, a store, an unpack, a `mov`)
    /// or overwritten by anything but a `createpolicy`, the program is refused — seed 5401's
    /// mutant `min.s64 %d4, %d2, %d3` of a policy `%d3`, whose `createpolicy` ptxas -O3 drops.
    #[test]
    fn a_cache_policy_is_read_by_cache_hints_alone() {
        let policy = "createpolicy.fractional.L2::evict_first.b64 %d3, 0f3F000000;";
        let hinted = "ld.global.L2::cache_hint.b32 %r0, [%in], %d3;";
        check_program(&prog(&[policy, hinted, "st.global.b32 [%out], %r0;"], 0)).unwrap();
        for (line, says) in [
            ("min.s64 %d4, %d3, %d3;", "a cache policy"),
            ("xor.b64 %d4, %d3, 1;", "a cache policy"),
            ("st.global.b64 [%out], %d3;", "a cache policy"),
            ("mov.b64 {%r1, %r2}, %d3;", "a cache policy"),
            ("mov.b64 %d4, %d3;", "a cache policy"),
            ("add.s64 %d3, %d3, 0;", "a cache policy"),
            ("mov.b64 %d3, 0;", "which a createpolicy writes"),
        ] {
            let e = check_program(&prog(&[policy, hinted, line, "st.global.b32 [%out], %r0;"], 0)).unwrap_err();
            assert!(e.contains(says), "{line}: {e}");
        }
    }

    /// `applypriority`/`discard` take a 128-byte line of the inputs that is aligned in every
    /// thread: 8 words per thread put thread 1's line at `p_in + 32`.
    #[test]
    fn line_hints_need_a_line_aligned_in_every_thread() {
        let lines = ["applypriority.global.L2::evict_normal [%in+128], 128;", "discard.global.L2 [%in], 128;"];
        for line in lines {
            check_program(&Program { inputs: 64, ..prog(&[line], 0) }).unwrap();
            let short = check_program(&prog(&[line], 0)).unwrap_err();
            assert!(short.contains("128-byte line"), "{short}");
        }
        for line in [
            "discard.global.L2 [%in+64], 128;",
            "discard.global.L2 [%in+256], 128;",
            "discard.L2 [%in], 128;",
            "discard.global.L2 [%out], 128;",
            "applypriority.global.L2::evict_normal [%in], 64;",
        ] {
            assert!(check_program(&Program { inputs: 64, ..prog(&[line], 0) }).is_err(), "{line}");
        }
    }

    #[test]
    fn rejects_each_broken_invariant() {
        let cases: &[(&[&str], u32, &str)] = &[
            (&["add.s32 %r1, %r0, 1;"], 0, "%r0"),
            (
                &[
                    "ld.global.b32 %r0, [%in];",
                    "setp.lt.s32 %p0, %r0, 0;",
                    "@%p0 bra $L0;",
                    "mov.b32 %r1, %r0;",
                    "$L0:",
                    "st.global.b32 [%out], %r1;",
                ],
                0,
                "%r1",
            ),
            (&["setp.lt.s32 %p0, %tix, 3;", "@%p0 mov.b32 %r1, 5;"], 0, "guarded"),
            (&["$L0:", "bra $L0;"], 0, "backward"),
            // Loops: on a predicate that differs between threads, one that never ends, one
            // inside a forward branch, one that stores a shared byte twice.
            (
                &["mov.u32 %r1, 0;", "$L0:", "add.u32 %r1, %r1, 1;", "setp.lt.u32 %p0, %r1, %tix;", "@%p0 bra $L0;"],
                0,
                "same known value",
            ),
            (
                &["mov.u32 %r1, 0;", "$L0:", "add.u32 %r1, %r1, 0;", "setp.lt.u32 %p0, %r1, 3;", "@%p0 bra $L0;"],
                0,
                "1024 trips",
            ),
            (
                &[
                    "setp.lt.s32 %p1, %tix, 3;",
                    "@%p1 bra $L1;",
                    "mov.u32 %r1, 0;",
                    "$L0:",
                    "add.u32 %r1, %r1, 1;",
                    "setp.lt.u32 %p0, %r1, 3;",
                    "@%p0 bra $L0;",
                    "$L1:",
                ],
                0,
                "converged",
            ),
            (
                &[
                    "mov.u32 %r1, 0;",
                    "$L0:",
                    "st.shared.b32 [%sh], %r1;",
                    "add.u32 %r1, %r1, 1;",
                    "setp.lt.u32 %p0, %r1, 2;",
                    "@%p0 bra $L0;",
                ],
                4,
                "stored twice",
            ),
            (&["bra $L3;"], 0, "not in the body"),
            // A carry read with no flag, across a guard, a label, another instruction, or from
            // the other kind of chain.
            (&["addc.u32 %r0, %tix, 1;"], 0, "carry flag"),
            (
                &[
                    "setp.lt.s32 %p0, %tix, 3;",
                    "mov.b32 %r0, 1;",
                    "@%p0 add.cc.u32 %r0, %tix, 1;",
                    "addc.u32 %r1, %tix, 1;",
                ],
                0,
                "carry flag",
            ),
            (&["add.cc.u32 %r0, %tix, 1;", "$L0:", "addc.u32 %r1, %tix, 1;"], 0, "carry flag"),
            (&["add.cc.u32 %r0, %tix, 1;", "add.u32 %r2, %tix, 1;", "addc.u32 %r1, %tix, 1;"], 0, "carry flag"),
            (&["sub.cc.u32 %r0, %tix, 1;", "addc.u32 %r1, %tix, 1;"], 0, "carry flag"),
            (&["addc.u32 %r0, %tix, 1;", "addc.u32 %r1, %tix, 1;"], 0, "carry flag"),
            (&["$L0:", "$L0:"], 0, "twice"),
            (&["setp.lt.s32 %p0, %tix, 3;", "@%p0 bra $L0;", "bar.sync 0;", "$L0:"], 0, "divergent"),
            (
                &["setp.lt.s32 %p0, %tix, 3;", "@%p0 bra $L0;", "shfl.sync.idx.b32 %r0, %tix, 0, 31, -1;", "$L0:"],
                0,
                "converged",
            ),
            (&["shfl.sync.idx.b32 %r0, %tix, 0, 31, 3;"], 0, "member mask"),
            (&["ld.global.b32 %r0, [%in+2];"], 0, "aligned"),
            (&["ld.global.b32 %r0, [%in+32];"], 0, "outside"),
            (&["ld.global.v8.b32 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%in];"], 0, "valid on"),
            (&["ld.shared.b32 %r0, [%sh];"], 4, "before they are stored"),
            (&["st.shared.b32 [%sh], %tix;", "ld.shared.b32 %r0, [%shn];"], 4, "bar.sync"),
            (&["st.shared.b32 [%sh], %tix;", "st.shared.b16 [%sh+2], %h0;"], 4, "%h0"),
            (&["mov.b16 %h0, 1;", "st.shared.b32 [%sh], %tix;", "st.shared.b16 [%sh+2], %h0;"], 4, "stored twice"),
            (&["st.global.b32 [%in], %tix;"], 0, "may not access"),
            (&["ld.shared.b32 %r0, [%sh];"], 0, "without shared memory"),
            (&["mov.b32 %r0, %tix;", "cvt.rn.f16.f32 %r1, %r0;"], 0, "not a .b16 register"),
            (&["ld.global.b16 %h0, [%in];", "cvt.rn.bf16.u8 %h1, %h0;"], 0, "not a .b8 register"),
            (&["ld.global.L2::cache_hint.b32 %r0, [%in], %d0;"], 0, "%d0"),
            (&["ld.global.b64 %d0, [%in];", "ld.global.L2::cache_hint.b32 %r0, [%in], %d0;"], 0, "cache-policy"),
            // A policy overwritten (refused at the overwrite: a policy register holds nothing
            // else), made under a guard, or made on one path only.
            (
                &[
                    "createpolicy.fractional.L2::evict_last.b64 %d0;",
                    "ld.global.b64 %d0, [%in];",
                    "ld.global.L2::cache_hint.b32 %r0, [%in], %d0;",
                ],
                0,
                "which a createpolicy writes",
            ),
            (
                &[
                    "setp.lt.s32 %p0, %tix, 3;",
                    "createpolicy.fractional.L2::evict_last.b64 %d0;",
                    "@%p0 createpolicy.fractional.L2::evict_first.b64 %d0;",
                    "ld.global.L2::cache_hint.b32 %r0, [%in], %d0;",
                ],
                0,
                "cache-policy",
            ),
            (
                &[
                    "setp.lt.s32 %p0, %tix, 3;",
                    "createpolicy.fractional.L2::evict_last.b64 %d0;",
                    "@%p0 bra $L0;",
                    "ld.global.b64 %d0, [%in];",
                    "$L0:",
                    "st.global.L2::cache_hint.b32 [%out], %tix, %d0;",
                ],
                0,
                "which a createpolicy writes",
            ),
            (&["createpolicy.range.global.L2::evict_last.b64 %d0, [%out+64], 16, 32;"], 0, "not a global word"),
            (&["createpolicy.range.L2::evict_last.b64 %d0, [%in], 16, 32;"], 0, "not a global word"),
            (&["ld.global.v2.b32 {%r0, %r0}, [%in];"], 0, "written twice"),
            (&["ld.b32 %r0, [%in];"], 0, "may not access"),
        ];
        for (body, shared, needle) in cases {
            let e = check_program(&prog(body, *shared)).expect_err(&format!("{body:?} should be rejected"));
            assert!(e.contains(needle), "{body:?}: {e}");
        }
    }
}
