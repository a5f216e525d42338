//! 3702-N7's dropped shuffle (`shuffle-of-bfly-predicate-choice-dropped`,
//! corpus/known/fuzz-h200-3702-n7-shuffle-of-bfly-predicate-choice-dropped.toml) widened by seed
//! 5702's c3be1a58 (session 57, helper h5; corpus/findings/fuzz-h200-5702/trace/T57E.md, variants
//! in trace/c3be1a58/s57/): the value chosen by the bfly's predicate need not be a constant. ptxas
//! takes as warp-uniform every value it computes from constants and from the result of a
//! `shfl.sync` of a constant (the same in every lane, §9.7.9.6), so a write of such a value under
//! the predicate over such a value, or a `selp` by it of two such values, is uniform to it too.
//!
//! Evidence (13.0.88 = 13.5 -O3, no second `SHFL`; -O0 right): the stored case `shfl.sync.bfly.b32
//! r0|p0, 318380686, 25, 30, -1; @!p0 prmt.b32 r0, r0, r0, 0xa45794a5; shfl.sync.bfly.b32 r2|p1, r0,
//! 1, 871245147, -1` (`SHFL.BFLY P0, R4, R0, 0x19, 0x1e; @!P0 PRMT R4, R4, 0xa45794a5, R4`: lanes 6
//! and 7 keep their own words, the spec swaps them). Dropped alike: `@!p0 mov.b32 r0, K` over the
//! shuffle's result (`x1`), `@!p0 add`/`xor`/`mul.lo`/`shl`/`or`/`sub`/`min`/`not`/`bfe` of it and
//! immediates (`x3`, `x4`, `y_*`), a `cvt.u32.u16` of its unpacked half (`y_cvt_u32_u16`), a copy of
//! it over a moved 0 (`y_mov_b32_unpack_guarded`), a second `.idx` shuffle (`x7`), the prmt over a
//! moved constant or into another register over a moved 7 (`x8`, `x10`), a prmt with a moved `b`
//! (`x12`), `selp r0, r0, r5, p0` of the result and an unguarded prmt of it (`x9`). Kept (right):
//! the prmt's `b` a loaded word (`x2`), the first bfly of a loaded word (`x6`), its `c[4:0]` = 0
//! (`x5`), a guard not the bfly's predicate (`x11`).
//!
//! Invariants: a pure question about the body (the parent's `dropped` changes the result); a
//! value is uniform only through unguarded writers reaching the read on every path, at most
//! [`DEPTH`] writers back; loads, special registers and registers the body never writes are not.

use super::super::fuzz3602::writes;
use super::super::fuzz3701::reaches_on_every_path;
use super::super::origin::ptxas_constant;
use super::super::shfl_of_a_register_ptxas_knows::shuffles_a_constant;
use crate::isa::operand::{Operand, Role};
use crate::isa::{Form, Instruction};
use crate::program::exec::Machine;
use crate::program::glue::{GlueOp, Src};
use crate::program::{Reg, RegClass, Stmt};

/// How many writers back a uniform value is looked for.
pub(super) const DEPTH: u32 = 4;

/// The predicate by which the statement at body index `j` chooses register `a`'s value between
/// values ptxas takes as uniform ([`uniform`]): a guarded `mov`, `cvt`, `cvt.pack` (seed 5801's
/// 917157f1: `@!p0 cvt.pack.sat.u4.s32.b32 r0, r0, K1, K2` of the bfly's result, corpus/findings/
/// fuzz-h200-5801/trace/T58D.md), `prmt` or glue (no carry read) whose sources are uniform, over a uniform `a`; or an unguarded `selp a, x, y, p` of
/// uniform `x` and `y`.
pub(super) fn chosen_by(m: &Machine<'_>, j: usize, a: Reg) -> Option<Reg> {
    let source_uniform = |x: Reg| uniform(m, j, x, DEPTH);
    match &m.p.body[j] {
        Stmt::Isa(
            inst @ Instruction {
                form: Form::Mov(_) | Form::Cvt(_) | Form::CvtPack(_) | Form::Prmt(_),
                guard: Some(g),
                ..
            },
        ) => {
            let p = m.reg_of(&Operand::Name(g.pred.clone())).ok()?;
            (isa_sources(m, inst)?.into_iter().all(source_uniform) && source_uniform(a)).then_some(p)
        }
        Stmt::Glue { glue, guard: Some(g) } if !glue.op.reads_carry() => {
            let p = Reg::Virt(RegClass::Pred, g.pred);
            (glue_sources(&glue.src).into_iter().all(source_uniform) && source_uniform(a)).then_some(p)
        }
        Stmt::Glue { glue, guard: None } if glue.op == GlueOp::Selp => {
            let Some(Src::Reg(p)) = glue.src[2] else { return None };
            glue_sources(&glue.src[..2]).into_iter().all(source_uniform).then_some(p)
        }
        _ => None,
    }
}

/// Whether ptxas takes the value `r` holds at body index `before` as warp-uniform: a constant it
/// folds ([`ptxas_constant`]), the value of an unguarded `shfl.sync` of a constant
/// ([`shuffles_a_constant`]), or the result of an unguarded `mov`, `cvt`, `prmt` or glue (no carry
/// read) of such values and immediates; the writer reaching `before` on every path.
pub(super) fn uniform(m: &Machine<'_>, before: usize, r: Reg, depth: u32) -> bool {
    if r.class() == RegClass::Pred {
        return false;
    }
    if ptxas_constant(m, before, r).is_some() {
        return true;
    }
    let Some((k, s)) = m.p.body[..before].iter().enumerate().rev().find(|(_, s)| writes(s, r)) else {
        return false;
    };
    if !reaches_on_every_path(m, k, before) {
        return false;
    }
    let deeper = |x: Reg| depth > 0 && uniform(m, k, x, depth - 1);
    match s {
        Stmt::Isa(inst @ Instruction { form: Form::ShflSync(_), guard: None, .. }) => shuffles_a_constant(m, inst, k),
        Stmt::Isa(
            inst @ Instruction {
                form: Form::Mov(_) | Form::Cvt(_) | Form::CvtPack(_) | Form::Prmt(_), guard: None, ..
            },
        ) => isa_sources(m, inst).is_some_and(|v| v.into_iter().all(deeper)),
        Stmt::Glue { glue, guard: None } if !glue.op.reads_carry() => glue_sources(&glue.src).into_iter().all(deeper),
        _ => false,
    }
}

/// The registers `inst` reads; `None` when a source is neither an immediate nor registers (a
/// special register, an address).
fn isa_sources(m: &Machine<'_>, inst: &Instruction) -> Option<Vec<Reg>> {
    let mut regs = Vec::new();
    for (spec, o) in inst.form.operands().iter().zip(&inst.operands) {
        if spec.role != Role::Src {
            continue;
        }
        match o {
            Operand::Imm(_) => {}
            Operand::Vector(items) => {
                for i in items {
                    regs.push(m.reg_of(i).ok()?);
                }
            }
            o => regs.push(m.reg_of(o).ok()?),
        }
    }
    Some(regs)
}

/// The register sources among glue sources `src` (immediates are uniform).
fn glue_sources(src: &[Option<Src>]) -> Vec<Reg> {
    src.iter()
        .flatten()
        .filter_map(|s| match *s {
            Src::Reg(r) => Some(r),
            Src::Imm(_) => None,
        })
        .collect()
}
