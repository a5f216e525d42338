//! 3801-N1 (corpus/known/fuzz-h200-3801-n1-mad-hi-chain-loses-links.toml) when the loop of a
//! `mad.hi` chain reloads x or y every trip by a load ptxas hoists out of it: one unguarded weak
//! `ld` (§9.7.9.8; `.weak` or no `.sem`, global or generic, any cache operator) or `ld.global.nc`
//! (§9.7.9.9) of an address whose registers the loop never writes, before the link on every path,
//! in a loop that writes no memory but shared memory. Every trip then reads the same word, ptxas
//! loads it once, the `IMAD.HI` text repeats and links are dropped as in
//! [`mad_hi_links_dropped_as_repeats`](super::mad_hi_links_dropped_as_repeats), whose `mad_hi_step`
//! ORs this in for x and y (acc stays as strict as it was), beside
//! [`mad_hi_operand_rewritten_alike_each_trip`](super::mad_hi_operand_rewritten_alike_each_trip).
//!
//! Evidence (seed 5901's 6879f321, session 59, helper ib; corpus/findings/fuzz-h200-5901/trace/T59B.md,
//! variants in trace/6879f321/s59/): `ld.global.u32 r4, [in+20]; mad.hi.u32 r0, tix, r4, r0` in a
//! loop of 4 is 13.0.88 -O3 one `LDG.E R0, [R2.64+0x14]` and 2 `IMAD.HI.U32 R7, R9, R0, R6` (13.5: 4).
//! Wrong alike (hoisted, fewer links): the load before the loop (v1), 8 trips (v4: 4 of 8), `.nc`
//! (v5), `.cv` (v11), `.cg` (v12), generic (v13), a `st.shared` in the loop (v7), `mad.hi.s32` (v10).
//! Right (one LDG per trip, every link): `.volatile` (v2), `.relaxed.gpu` (v6), `.acquire.gpu` (v9),
//! a `st.global` in the loop (v3: it may alias the word).
//!
//! Out (the spec stands): a guarded load, a load of `.relaxed`/`.acquire`/`.volatile`/`.mmio`
//! or of another space than global or generic, an address register the loop writes, two
//! writers of the operand in the loop, a loop with a `bar` or with any store or memory operation
//! other than a shared `st`.

use super::fuzz3602::writes;
use super::fuzz3701::reaches_on_every_path;
use crate::isa::operand::Operand;
use crate::isa::types::Space;
use crate::isa::LdSem;
use crate::isa::{Form, Instruction};
use crate::program::exec::Machine;
use crate::program::text::operand_regs;
use crate::program::{Reg, Stmt};

/// Whether the loop whose body spans body indices `head..bra` (the running link inside it)
/// writes `r` only by one hoistable load (module docs) before the running link on every path,
/// and writes no memory but shared memory: each trip's link reads the same word.
pub(super) fn reloaded_alike(m: &Machine<'_>, r: Reg, head: usize, bra: usize) -> bool {
    let Some(body) = m.p.body.get(head..bra) else {
        return false;
    };
    let mut writers = body.iter().enumerate().filter(|(_, s)| writes(s, r));
    let (Some((first, load)), None) = (writers.next(), writers.next()) else {
        return false;
    };
    let Stmt::Isa(i @ Instruction { guard: None, .. }) = load else {
        return false;
    };
    let mut address = Vec::new();
    i.operands.iter().filter(|o| matches!(o, Operand::Address { .. })).for_each(|o| operand_regs(o, &mut address));
    let kept_address = address.iter().all(|a| !body.iter().any(|s| writes(s, *a)));
    hoistable(&i.form)
        && kept_address
        && body.iter().all(writes_no_global_memory)
        && reaches_on_every_path(m, head + first, m.stmt)
}

/// Whether `form` is a load ptxas hoists out of a loop that does not store to its memory: a
/// weak global or generic `ld` (any cache operator) or `ld.global.nc`.
fn hoistable(form: &Form) -> bool {
    match form {
        Form::Ld(l) => {
            !l.mmio && matches!(l.sem, None | Some(LdSem::Weak)) && matches!(l.space, None | Some(Space::Global))
        }
        Form::LdGlobalNc(_) => true,
        _ => false,
    }
}

/// Whether statement `s` leaves global memory alone as ptxas sees it: no barrier and no memory
/// operation but a load, a `prefetch` or a store to shared memory (`.shared`, `.shared::cta`).
fn writes_no_global_memory(s: &Stmt) -> bool {
    match s {
        Stmt::Glue { .. } | Stmt::Label(_) | Stmt::Bra { .. } => true,
        Stmt::Bar => false,
        Stmt::Isa(i) => match &i.form {
            Form::St(st) => !st.mmio && matches!(st.space, Some(Space::Shared | Space::SharedCta)),
            f => reads_only(f) || !touches_memory(f),
        },
    }
}

/// Whether `f` is a load or prefetch (it reads memory at most).
fn reads_only(f: &Form) -> bool {
    matches!(f, Form::Ld(_) | Form::LdGlobalNc(_) | Form::Ldu(_) | Form::Prefetch(_) | Form::Prefetchu(_))
}

/// Whether `f` may touch memory or order it: every form but the register-only ones (`mov`,
/// `shfl`, `prmt`, `cvt`, `cvt.pack`, `cvta`, `isspacep`, `mapa`, `getctarank`, `createpolicy`).
fn touches_memory(f: &Form) -> bool {
    !matches!(
        f,
        Form::Mov(_)
            | Form::Shfl(_)
            | Form::ShflSync(_)
            | Form::Prmt(_)
            | Form::Cvt(_)
            | Form::CvtPack(_)
            | Form::Cvta(_)
            | Form::Isspacep(_)
            | Form::Mapa(_)
            | Form::Getctarank(_)
            | Form::Createpolicy(_)
    )
}
