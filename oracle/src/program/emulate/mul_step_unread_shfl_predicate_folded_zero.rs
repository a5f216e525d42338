//! Known root causes widened to their mechanism after seed 4303's traces (helper y4, session
//! 43): 3501-N2's multiply step by any multiplier with 1 ≤ k < 32 trailing zeros ([`mul_step`];
//! corpus/findings/fuzz-h200-4303/trace/T14x4.md, 02990ceb), and N-7's shuffle of a known
//! value whose predicate destination nothing reads ([`predicate_destination_unread`]; T14x4.md,
//! c24603c9), and O's minuend any value ptxas folds to 0 ([`folded_zero`]; T14x1.md, 87a7efec).
//!
//! Invariants: each is a condition on the program's statements and the values a machine
//! records; none changes a value by itself — the callers in `origin.rs` and `emulate.rs` do,
//! under their deviation.

use super::origin::reads_and_overwrites;
use super::{imm_of, known_at_compile_time, mad_step_of_its_own_addend, reg_of_glue};
use crate::isa::operand::Operand;
use crate::isa::Instruction;
use crate::program::exec::Machine;
use crate::program::glue::{Cmp, Glue, GlueOp, GlueType, Src};
use crate::program::{Reg, RegClass, Stmt};
use crate::semantics::Expected;

/// A `mul.lo` step of a 3501-N2 chain: the multiplier's trailing zero count `k` (what the
/// running amount adds), the index `x` of the multiplied operand and the multiplier itself
/// (what each kept step multiplies by).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct MulStep {
    pub(super) k: u64,
    pub(super) x: usize,
    pub(super) factor: u64,
}

/// For 3501-N2: `mul.lo.{u64,s64} d, x, c` (either order) whose c ptxas knows has k trailing
/// zeros, 1 ≤ k < 32, whatever its odd part and sign. ptxas 13.0.88 -O3 keeps such steps
/// (`IMAD.WIDE.U32 …, c`) until their k's reach 32 and drops the rest (T14x4.md, 02990ceb:
/// 8 × −2^26 keeps 2; `v5` −3·2^26 keeps 2 of 3; `v6`/`v7` −2^7, 3·2^7 keep 5 of 7; seed
/// 4102's 9fdf9221: 2^7 keeps 5 of 7). A `.s64` step is cut only in a chain of plain
/// multiplies (`v4_s64`, `v9_s64_0x80_x7`, `v10_s64_pos2p26` cut; seed 4102's `v6_mul_s64`,
/// an add of a constant after each step, and 7 × `mul.lo.s64 ·, 0x180; add 5` keep every
/// step): it does not extend a chain that went through an add. An odd multiplier (k = 0, 9fdf9221's
/// `v4_mul_0x81`) is no step.
pub(super) fn mul_step(m: &Machine<'_>, t: u32, g: &Glue, vals: &[Expected]) -> Option<MulStep> {
    if !matches!(g.ty, GlueType::U64 | GlueType::S64) {
        return None;
    }
    // `mad.lo d, x, c, x` is a step by c + 1 (seed 4402's 372615e8,
    // `emulate/mad_step_of_its_own_addend.rs`).
    let candidates = match g.op {
        GlueOp::MulLo => [(0usize, 1usize), (1, 0)]
            .into_iter()
            .filter_map(|(x, c)| Some((x, known_at_compile_time::known_source(m, t, g, vals, c)?)))
            .collect(),
        GlueOp::MadLo => mad_step_of_its_own_addend::mad_steps(m, t, g, vals),
        _ => Vec::new(),
    };
    candidates.into_iter().find_map(|(x, factor)| {
        let k = u64::from(factor.trailing_zeros());
        let r = reg_of_glue(g, x)?;
        let through_adds = || {
            let origin = m.origins.get(t as usize).and_then(|o| o.get(&r));
            origin.and_then(|o| o.shl_chain.as_ref()).is_some_and(|c| c.through_adds || c.constant != 0)
        };
        let signed_ok = g.ty != GlueType::S64 || !through_adds();
        ((1..32).contains(&k) && signed_ok).then_some(MulStep { k, x, factor })
    })
}

/// For N-7: whether the predicate destination of `shfl.sync d|p, …` `inst` is read by no
/// statement of the body (before or after it: a loop may carry it). ptxas drops such a
/// predicate and treats the shuffle of a value that is the same in every lane as that value
/// (T14x4.md, c24603c9: `shfl.sync.idx.b32 r|p, 0x7f7ffffe, …` as bfe.s32's start gives
/// 13.0.88 -O3 `MOV R7, 0xffffffff` as `v1_no_pred_dst` does; `v5_pred_used`, `@!p mov` reading
/// p, keeps the `SHFL` and is right).
pub(super) fn predicate_destination_unread(m: &Machine<'_>, inst: &Instruction) -> bool {
    let Some(Operand::WithPred(_, p)) = inst.operands.first() else { return false };
    let Some(p) = Reg::parse(p).filter(|r| matches!(r, Reg::Virt(RegClass::Pred, _))) else { return false };
    !m.p.body.iter().any(|s| reads_and_overwrites(s, p).0)
}

/// For O: whether the statement at body index `k` is integer glue ptxas folds to 0 whatever its
/// register source: unguarded `and` or `mul.lo` with an immediate 0 source (either order), or
/// `xor`/`sub` of one register with itself (§9.7.8.1, §9.7.1.3, §9.7.1.2). T14x1.md, 87a7efec:
/// `and.b32 r8, r0, 0; sub.u32 r10, r8, r0; shl.b16 h, 0xfc5a, r10` is 13.0.88 -O3's `LOP3.LUT
/// R0, R0, 0xffff; SHF.L.U32 R5, R5, R0` (R0 never written), as for a moved 0 (`v2`), an `and`
/// of another register (`v3`), `mul.lo.u32 x, 0` (`v4`) and `xor.b32 x, x` (`v8`); `and.b32 x,
/// 1` (`v5`) is right. Seed 5802's 59f49ca8 (corpus/findings/fuzz-h200-5802/trace/T58G.md,
/// trace/59f49ca8/s58/o*): `set.{lt,gt,ne}` of one register with itself, an integer compare with
/// any destination type (§9.7.7.1: 0, or 0.0f), is folded to 0 alike — `set.lt.f32.s32 r1, r0, r0; sub.u32 r1, r1,
/// r2; shr.u16 h4, h0, r1` is `LOP3.LUT R17, R1, 0xffff; SHF.R.U32.HI R0, RZ, R17, R0` (the stack
/// pointer R1), and so are `.gt` (`o2`), `.ne` (`o3`), a `.u32` source (`o4`), `.s32`/`.u32`
/// destinations (`o6`, `o10`, `o13`), and a `.f32` compare (`o5`, not a glue form here); `set.le`/`set.eq` (`o7`, `o9`: −1) and two registers (`o8`) are right.
pub(super) fn folded_zero(m: &Machine<'_>, k: usize) -> bool {
    let Some(Stmt::Glue { glue: g, guard: None }) = m.p.body.get(k) else { return false };
    let zero_source = (0..2).any(|i| imm_of(g, i) == Some(0));
    let same_register = matches!(g.src.first(), Some(Some(Src::Reg(_)))) && g.src.first() == g.src.get(1);
    match g.op {
        GlueOp::And | GlueOp::MulLo => zero_source,
        GlueOp::Xor | GlueOp::Sub | GlueOp::Set(Cmp::Lt | Cmp::Gt | Cmp::Ne, _) => same_register,
        _ => false,
    }
}
