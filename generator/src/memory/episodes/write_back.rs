//! Consumption of a window and the write-backs of a memory program: each thread loads a word
//! pair, stores it to its `out` slot (with `convert` also a `cvt` and a `prmt` of it), then
//! with `bulk` or `reduce` stages its words in shared memory, fences them to the async proxy,
//! and the leader stores them back (`cp.async.bulk.global.shared::cta.bulk_group`), reduces
//! them (`cp.reduce.async.bulk`, §9.7.9.25.4.2) and/or, with `tensor`, stores or reduces them
//! through the store map (§9.7.9.25.5.1, §9.7.9.25.5.3).
//!
//! Invariants: no two pending bulk writes overlap (`wait_group 0` before the next ones), each
//! CTA writes only its own part of `dst`, `red` and `tdst`, and no tensor reduction is a
//! bitwise one over INT64 (an H100 traps).

use oracle::isa::operand::Operand;
use oracle::isa::types::{MemType, Space, VecWidth};
use oracle::isa::{
    valid_forms, AsyncProxySpace, BulkSpace, Completion, CpAsyncBulkCommitGroup, Family, Form, Instruction, RedOp, Role,
};
use oracle::memory::Region;
use oracle::memprog::{BufferSpace, Init};
use oracle::program::{GlueOp, GlueType, RegClass};

use super::{Gen, EDGE_PERMILLE};
use crate::memory::cases::deviations::int64_bitwise;
use crate::memory::cases::reduce::reduce_types;
use crate::memory::cases::tensor::tensor_write_forms;
use crate::memory::stmt::{self, at, forms, imm, name, tensor_ref, Stmt};
use crate::program::rng::Rng;
use crate::program::tables::tables;
use crate::program::values::{draw, Kind};

impl<'r, R: Rng> Gen<'r, R> {
    /// Each thread loads the word pair at `buf + (tid & mask) * stride + extra` and stores
    /// it (and, with `convert`, a `cvt` and a `prmt` of it) to its slot of `out`; then,
    /// with `bulk` or `reduce`, writes the values back through the staging buffer.
    pub(super) fn consume(&mut self, buf: &str, stride: u64, mask: u64, extra: u64) {
        let a = self.thread_addr(buf, stride, Some(mask));
        let x = self.name("x");
        let y = self.name("y");
        self.load_pair(Some(Space::Shared), &x, &y, at(&a, extra));
        let (o, base) = self.store_pair(&x, &y);
        let mut second = y.clone();
        if self.cfg.convert {
            if let Some((form, class)) = self.pick_cvt() {
                let z = self.name("z");
                self.isa(form, vec![name(&z), name(&x)]);
                let ty = match class {
                    RegClass::B16 => MemType::B16,
                    RegClass::B64 => MemType::B64,
                    _ => MemType::B32,
                };
                self.isa(stmt::st(Some(Space::Global), None, ty), vec![at(&o, base + 8), name(&z)]);
            }
            if let Some(form) = self.pick_prmt() {
                let w = self.name("w");
                let sel = draw(self.r, Kind::Bits(32), EDGE_PERMILLE) as u32 & 0xffff;
                self.isa(form, vec![name(&w), name(&x), name(&y), imm(u64::from(sel))]);
                self.isa(stmt::st(Some(Space::Global), None, MemType::B32), vec![at(&o, base + 16), name(&w)]);
                second = w;
            }
        }
        if self.cfg.bulk || self.cfg.reduce {
            self.write_back(&x, &second);
        }
    }

    /// A plain `cvt` from a 32-bit register: its form and the destination's class.
    pub(super) fn pick_cvt(&mut self) -> Option<(Form, RegClass)> {
        let tb = tables(&self.target);
        let ok: Vec<(Form, RegClass)> = tb
            .cvt_plain
            .iter()
            .filter_map(|c| {
                let form = &tb.cvt[c.item as usize].form;
                let specs = form.operands();
                let class = |role: Role| {
                    specs.iter().find(|s| s.role == role).and_then(|s| match s.kind {
                        oracle::isa::operand::OperandKind::Reg(t) => oracle::program::operand_class(form, t),
                        _ => None,
                    })
                };
                match (class(Role::Dst), class(Role::Src)) {
                    (Some(d), Some(RegClass::B32)) if d != RegClass::Pred => Some((form.clone(), d)),
                    _ => None,
                }
            })
            .collect();
        if ok.is_empty() {
            return None;
        }
        let k = self.r.below(ok.len() as u64) as usize;
        Some(ok[k].clone())
    }

    /// A `prmt` form of the target whose operands are `d, a, b, c`.
    pub(super) fn pick_prmt(&mut self) -> Option<Form> {
        let tb = tables(&self.target);
        let ok: Vec<Form> = tb.prmt.iter().filter(|e| e.form.operands().len() == 4).map(|e| e.form.clone()).collect();
        if ok.is_empty() {
            return None;
        }
        let k = self.r.below(ok.len() as u64) as usize;
        Some(ok[k].clone())
    }

    /// The threads' words `x`, `y` staged in shared memory, fenced to the async proxy, then
    /// stored back (`cp.async.bulk`) and/or reduced (`cp.reduce.async.bulk`) by the leader.
    pub(super) fn write_back(&mut self, x: &str, y: &str) {
        let stage_len = (u64::from(self.threads) * 8).next_multiple_of(16);
        if !self.has("stage") {
            let fill = self.fill_byte();
            self.buffer("stage", BufferSpace::Shared, 128, Init::Fill { len: stage_len, byte: Some(fill) });
        }
        let s = self.thread_addr("stage", 8, None);
        let st = stmt::st(Some(Space::Shared), Some(VecWidth::V2), MemType::B32);
        self.isa(st, vec![at(&s, 0), stmt::vector(&[x, y])]);
        self.isa(forms::proxy_fence(AsyncProxySpace::SharedCta), vec![]);
        self.emit(Stmt::Bar);
        let pending = std::mem::take(&mut self.bulk_pending);
        let store = self.cfg.bulk && (!self.cfg.reduce || self.r.below(2) == 0);
        let reduce = self.cfg.reduce && (!store || self.r.below(2) == 0);
        let size = 16 * (1 + self.r.below(stage_len / 16));
        let mut stmts = Vec::new();
        if self.cfg.tensor && self.r.below(2) == 0 {
            if let Some(stmt) = self.tensor_back(stage_len, store, reduce) {
                stmts.push(stmt);
            }
        }
        if store {
            let len = 4 * stage_len;
            if !self.has("dst") {
                let fill = self.fill_byte();
                let all = len * u64::from(self.ctas);
                self.buffer("dst", BufferSpace::Global, 128, Init::Fill { len: all, byte: Some(fill) });
            }
            let off = 16 * self.r.below((len - size) / 16 + 1);
            let dst = self.cta_part("dst", len);
            stmts.push(Instruction {
                guard: None,
                form: forms::bulk_store(),
                operands: vec![at(&dst, off), at("stage", 0), imm(size)],
            });
        }
        if reduce {
            let len = 2 * stage_len;
            if !self.has("red") {
                let bytes = self.words(len * u64::from(self.ctas));
                self.buffer("red", BufferSpace::Global, 128, Init::Hex(Region::from_bytes(&bytes).to_hex()));
            }
            let (form, policy) = self.pick_reduce();
            let off = 16 * self.r.below((len - size) / 16 + 1);
            let red = self.cta_part("red", len);
            let mut operands = vec![at(&red, off), at("stage", 0), imm(size)];
            operands.extend(policy);
            stmts.push(Instruction { guard: None, form, operands });
        }
        let read_only = self.r.below(2) == 0;
        self.leader(|g| {
            if pending {
                // No two pending bulk writes may overlap: the earlier ones complete first.
                g.isa(forms::bulk_wait(false), vec![imm(0)]);
            }
            for s in stmts {
                g.emit(Stmt::Isa(s));
            }
            g.isa(Form::CpAsyncBulkCommitGroup(CpAsyncBulkCommitGroup), vec![]);
            g.isa(forms::bulk_wait(read_only), vec![imm(0)]);
        });
        self.bulk_pending = read_only;
        // The staging buffer is written again later: the leader's copy has read it.
        self.emit(Stmt::Bar);
    }

    /// A tensor store (with `store`) or tensor reduction (with `reduce`) of `stage` through the
    /// store map `smap` (drawn on first use: rank 1 or 2, a tile no larger than `stage`, every
    /// CTA's tiles inside its own slice of the last dimension, coordinates inside the tensor as
    /// §9.7.9.25.5.1 asks of stores, dimension 0 at a 16-byte boundary); a reduction draws a
    /// redOp the map's type has (§9.7.9.25.5.3), never a bitwise one over INT64 (an H100 traps:
    /// corpus/findings/tensor-reduce-int64-bitwise-trap.md). `None` when no map fits.
    pub(super) fn tensor_back(&mut self, stage_len: u64, store: bool, reduce: bool) -> Option<Instruction> {
        let map = match self.store_map.clone() {
            Some(m) => m,
            None => {
                let m = self.draw_store_map(stage_len)?;
                self.store_map = Some(m.clone());
                m
            }
        };
        let rank = map.rank();
        let ops: Vec<RedOp> =
            [RedOp::Add, RedOp::Min, RedOp::Max, RedOp::Inc, RedOp::Dec, RedOp::And, RedOp::Or, RedOp::Xor]
                .into_iter()
                .filter(|&op| reduce_types(op).contains(&map.dtype) && !int64_bitwise(op, &map))
                .collect();
        let redop = if reduce && !ops.is_empty() && (!store || self.r.below(2) == 0) {
            Some(self.r.pick(&ops))
        } else if store {
            None
        } else {
            return None;
        };
        let (form, _, _) =
            tensor_write_forms(&self.target, oracle::isa::LoadMode::Tile, &|r| r == rank, &|op| Some(op) == redop)
                .into_iter()
                .find(|(_, op, _)| *op == redop)?;
        let eb = map.element_bytes().max(1);
        let q = (16 / eb).max(1);
        let names: Vec<String> = (0..rank).map(|_| self.name("sc")).collect();
        for (d, n) in names.iter().enumerate() {
            let b = u64::from(map.box_dims[d]);
            let last = d + 1 == rank;
            // Along the last dimension each CTA owns a slice of `dims / CTAs` (a multiple of q
            // along dimension 0): every write-back of a CTA stays in its slice, so no two CTAs
            // ever write the same bytes.
            let slice = if last { map.dims[d] / u64::from(self.ctas) } else { map.dims[d] };
            let mut base = self.r.below(slice.saturating_sub(b) + 1);
            if d == 0 {
                base = base / q * q;
            }
            if last && self.ctas > 1 {
                let t = self.name("t");
                self.glue(GlueOp::MulLo, GlueType::U32, &t, vec![name("rk"), imm(slice)]);
                self.glue(GlueOp::Add, GlueType::U32, n, vec![name(&t), imm(base)]);
            } else {
                self.regs.insert(n.clone(), base.into());
            }
        }
        Some(Instruction { guard: None, form, operands: vec![tensor_ref("smap", &names), at("stage", 0)] })
    }

    /// A `cp.reduce.async.bulk` form from shared::cta to global through a bulk group
    /// (every redOp × type the target allows; `.L2::cache_hint` with the program's policy) and
    /// its trailing cache-policy operand (none without a hint).
    pub(super) fn pick_reduce(&mut self) -> (Form, Option<Operand>) {
        let forms: Vec<(Form, Option<Operand>)> = valid_forms(&self.target, Some(Family::CpReduceAsyncBulk))
            .into_iter()
            .filter_map(|(f, _)| match &f {
                Form::CpReduceAsyncBulk(c)
                    if c.dst == BulkSpace::Global
                        && c.src == BulkSpace::SharedCta
                        && c.completion == Completion::BulkGroup
                        && (!c.cache_hint || self.policy.is_some()) =>
                {
                    let policy = if c.cache_hint { self.policy.as_deref().map(name) } else { None };
                    Some((f.clone(), policy))
                }
                _ => None,
            })
            .collect();
        let k = self.r.below(forms.len() as u64) as usize;
        forms[k].clone()
    }
}
