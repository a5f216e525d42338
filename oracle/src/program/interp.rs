//! The program oracle's entry points: run a [`Program`] for every thread of its launch, with
//! the per-instruction semantics of [`crate::semantics`], and give each thread's output words
//! as an [`Expected`] (exact bits, or a set where the spec leaves freedom); or probe a
//! statement's sources, or capture a register after a statement.
//!
//! The work is split by concern: control flow in `exec`, per-thread statements in
//! `thread`, collectives in `warp`, memory in [`crate::memory`], the emulated compiler root
//! causes in `emulate` ([`run_emulating`]), the test hook in `plant`. A run starts from the initial images of the launch's buffers (the
//! inputs; the outputs zeroed) and ends with the final image of the output buffer.
//!
//! Programs that break the invariants of [`super`] (a read of an unwritten register, an
//! out-of-bounds or misaligned access, a shuffle or barrier under divergence…) give
//! [`InterpError`]: the minimizer relies on this to reject reductions that stopped being
//! meaningful.

use thiserror::Error;

use super::exec::Machine;
use super::{Inputs, Program, Reg};
use crate::semantics::{Allowances, Deviation, Expected};

pub use super::plant::Plant;

/// Why a program could not be run by the oracle.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum InterpError {
    /// The program broke an invariant: its result is undefined.
    #[error("statement {stmt} `{text}`, thread {thread}: {reason}")]
    Undefined {
        /// Body index.
        stmt: usize,
        /// The statement.
        text: String,
        /// The thread.
        thread: u32,
        /// What went wrong.
        reason: String,
    },
    /// A statement the oracle cannot evaluate.
    #[error("statement {stmt} `{text}`: {reason}")]
    Unsupported {
        /// Body index.
        stmt: usize,
        /// The statement.
        text: String,
        /// Why.
        reason: String,
    },
    /// The inputs or the launch do not fit what the oracle runs.
    #[error("{0}")]
    Shape(String),
}

/// Source values captured by a probe, by operand name.
pub type Probed = Vec<(String, Expected)>;

/// How to run a program.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunOptions {
    /// A planted bug (tests only).
    #[doc(hidden)]
    pub plant: Option<Plant>,
    /// Capture the source values of this statement (body index) in this thread.
    pub probe: Option<(usize, u32)>,
    /// Capture every thread's value of this register right after this statement.
    pub after: Option<(usize, Reg)>,
    /// The most statements the run executes (`None`: the oracle's own limit, 2^22).
    pub max_steps: Option<u64>,
}

/// The most statements an emulating run executes. An emulation that changes a loop's trip
/// count (3604-N3) makes the run longer than the program's own, by up to 32769 trips: 2^18
/// statements hold them for a loop of up to 8 statements (98d8219f's `v_step_0xffff`, 4). One
/// whose scope were wrong could make it run to the oracle's limit (2^22) on every triage
/// (seed 3702's 5ea00426 did, a minute a batch, in session 37); this limit is 16 times
/// shorter. Generated programs run at most a few thousand statements.
pub const EMULATION_MAX_STEPS: u64 = 1 << 18;

/// Runs `p` on `inputs`: each thread's output words as one [`Expected`] of `32 × outputs`
/// bits (word 0 in the low bits).
pub fn run(p: &Program, inputs: &Inputs, allow: &Allowances) -> Result<Vec<Expected>, InterpError> {
    run_with(p, inputs, allow, RunOptions::default()).map(|(out, _)| out)
}

/// The source values (by the spec's operand names) that statement `stmt` reads in `thread`
/// (empty if it does not run there).
pub fn probe(
    p: &Program,
    inputs: &Inputs,
    allow: &Allowances,
    stmt: usize,
    thread: u32,
) -> Result<Vec<(String, Expected)>, InterpError> {
    run_with(p, inputs, allow, RunOptions { probe: Some((stmt, thread)), ..RunOptions::default() }).map(|(_, v)| v)
}

/// Every thread's value of `reg` right after statement `stmt` (`None`: not written yet).
pub fn value_after(
    p: &Program,
    inputs: &Inputs,
    allow: &Allowances,
    stmt: usize,
    reg: Reg,
) -> Result<Vec<Option<Expected>>, InterpError> {
    let opts = RunOptions { after: Some((stmt, reg)), ..RunOptions::default() };
    let mut m = Machine::new(p, inputs, allow, opts)?;
    m.run()?;
    let mut v = std::mem::take(&mut m.captured);
    v.resize(m.threads as usize, None);
    Ok(v)
}

/// [`run`] under allowances that emulate known deviations
/// ([`Allowances::emulating`](crate::semantics::Allowances::emulating)): each thread's output
/// words and the emulated deviations that changed a value on the way (in triage order). The run
/// stops with an error past [`EMULATION_MAX_STEPS`] statements.
pub fn run_emulating(
    p: &Program,
    inputs: &Inputs,
    allow: &Allowances,
) -> Result<(Vec<Expected>, Vec<Deviation>), InterpError> {
    let opts = RunOptions { max_steps: Some(EMULATION_MAX_STEPS), ..RunOptions::default() };
    let mut m = Machine::new(p, inputs, allow, opts)?;
    m.run()?;
    let out = m.outputs()?;
    Ok((out, m.fired.iter().copied().collect()))
}

/// [`run`] with options; also gives the probed source values.
pub fn run_with(
    p: &Program,
    inputs: &Inputs,
    allow: &Allowances,
    opts: RunOptions,
) -> Result<(Vec<Expected>, Probed), InterpError> {
    let mut m = Machine::new(p, inputs, allow, opts)?;
    m.run()?;
    let out = m.outputs()?;
    Ok((out, std::mem::take(&mut m.probed)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::text::parse_stmt;
    use crate::program::{Dim3, Launch};

    fn program(threads: u32, shared: u32, lines: &[&str]) -> Program {
        Program {
            name: "k".into(),
            target: "sm_90a@8.7".parse().unwrap(),
            launch: Launch::one_cta(threads),
            inputs: 4,
            outputs: 2,
            shared,
            body: lines.iter().enumerate().map(|(i, l)| parse_stmt(i + 1, l).unwrap()).collect(),
        }
    }

    fn inputs(threads: u32, f: impl Fn(u32, u32) -> u32) -> Inputs {
        Inputs((0..threads * 4).map(|i| f(i / 4, i % 4)).collect())
    }

    fn exact(outs: &[Expected]) -> Vec<u64> {
        outs.iter()
            .map(|e| {
                assert!(e.is_exact(), "{e}");
                e.bits as u64
            })
            .collect()
    }

    #[test]
    fn dataflow_divergence_and_reconvergence() {
        let p = program(
            32,
            0,
            &[
                "ld.global.b32 %r0, [%in+4];",
                "and.b32 %r1, %tix, 1;",
                "setp.eq.u32 %p0, %r1, 1;",
                "mov.b32 %r2, 100;",
                "@%p0 bra $L0;",
                "add.s32 %r2, %r0, %r0;",
                "$L0:",
                "@!%p0 add.s32 %r2, %r2, 1;",
                "st.global.b32 [%out], %r2;",
                "st.global.b16 [%out+6], %r1;",
            ],
        );
        let out = exact(&run(&p, &inputs(32, |t, w| 10 * t + w), &Allowances::all()).unwrap());
        for (t, v) in out.iter().enumerate() {
            let t = t as u64;
            let lo = if t % 2 == 1 { 100 } else { 2 * (10 * t + 1) + 1 };
            assert_eq!(*v, lo | (t % 2) << 48, "thread {t}");
        }
    }

    /// A run under emulations stops at [`EMULATION_MAX_STEPS`]; a plain run of the same
    /// program (100,000 trips of a 4-statement loop) goes on to the oracle's own limit.
    #[test]
    fn an_emulating_run_stops_at_its_own_statement_limit() {
        let p = program(
            32,
            0,
            &[
                "mov.u32 %r1, 100000;",
                "$L0:",
                "sub.u32 %r1, %r1, 1;",
                "setp.ne.u32 %p0, %r1, 0;",
                "@%p0 bra $L0;",
                "st.global.b32 [%out], %r1;",
            ],
        );
        let i = inputs(32, |_, _| 0);
        let allow = Allowances::all();
        assert_eq!(exact(&run(&p, &i, &allow).unwrap())[0], 0);
        let e = run_emulating(&p, &i, &allow).unwrap_err();
        assert!(e.to_string().contains(&format!("more than {EMULATION_MAX_STEPS} statements")), "{e}");
    }

    #[test]
    fn prefetch_hints_change_no_value() {
        let lines = ["ld.global.b32 %r0, [%in+4];", "st.global.b32 [%out], %r0;", "st.global.b32 [%out+4], %tix;"];
        let mut hinted: Vec<&str> = vec!["prefetch.global.L2::evict_last [%in+4];", "prefetch.global.L1 [%out];"];
        hinted.extend(lines);
        let plain = program(32, 0, &lines);
        let hinted = program(32, 0, &hinted);
        let i = inputs(32, |t, w| 7 * t + w);
        let allow = Allowances::all();
        assert_eq!(exact(&run(&hinted, &i, &allow).unwrap()), exact(&run(&plain, &i, &allow).unwrap()));
    }

    /// `createpolicy`, `applypriority` and `.L2::cache_hint` loads and stores (§9.7.9.16,
    /// §9.7.9.18, §9.7.9.8/9): hints that change no value; the policy itself is opaque.
    #[test]
    fn cache_policies_and_priorities_change_no_value() {
        let lines = ["ld.global.b32 %r0, [%in+4];", "st.global.b32 [%out], %r0;", "st.global.b32 [%out+4], %tix;"];
        let hinted = [
            "createpolicy.fractional.L2::evict_last.b64 %d0, 0f3F000000;",
            "createpolicy.range.global.L2::evict_first.b64 %d1, [%in], 16, 32;",
            "ld.global.L2::cache_hint.b32 %r0, [%in+4], %d0;",
            "st.global.L2::cache_hint.b32 [%out], %r0, %d1;",
            "st.global.b32 [%out+4], %tix;",
        ];
        let (plain, hinted) = (program(32, 0, &lines), program(32, 0, &hinted));
        let i = inputs(32, |t, w| 7 * t + w);
        let allow = Allowances::all();
        assert_eq!(exact(&run(&hinted, &i, &allow).unwrap()), exact(&run(&plain, &i, &allow).unwrap()));
        // The policy is opaque: stored, it is any value under `cache-policy`.
        let leak = program(32, 0, &["createpolicy.fractional.L2::evict_last.b64 %d0;", "st.global.b64 [%out], %d0;"]);
        let out = run(&leak, &i, &allow).unwrap();
        assert!(out[0].free.iter().any(|f| f.allowance == crate::semantics::Allowance::CachePolicy), "{:?}", out[0]);
        // A policy register never written is an error, as any undefined source is.
        let unset = program(32, 0, &["ld.global.L2::cache_hint.b32 %r0, [%in], %d3;", "st.global.b32 [%out], %r0;"]);
        assert!(run(&unset, &i, &allow).is_err());
    }

    /// §9.7.1.19–20 restrict a bit field's position and length to 0..255: a 64-bit `bfe`/`bfi`
    /// with a larger one is any value under `bit-field-wide-operand` (ptxas uses the whole
    /// value, corpus/findings/fuzz-h200-3201/ row 12) and the pseudocode's low byte without it;
    /// the 32-bit forms and values in range are exact either way.
    #[test]
    fn wide_bit_field_operands_of_the_64_bit_forms_are_an_allowance() {
        use crate::semantics::Allowance;
        let i = inputs(32, |_, w| [0x0800_0000, 0x108, 0x8, 0][w as usize % 4]);
        let field = |op: &str| {
            program(
                32,
                0,
                &[
                    "ld.global.b32 %r0, [%in];",
                    "ld.global.b32 %r1, [%in+4];",
                    "ld.global.b32 %r2, [%in+8];",
                    "mov.b64 %d0, 0x73d7a7b0c0ffee12;",
                    op,
                    "st.global.b64 [%out], %d1;",
                ],
            )
        };
        let mut strict = Allowances::all();
        strict.disable(Allowance::BitFieldWideOperand);
        let any = |e: &Expected| e.free.iter().any(|f| f.allowance == Allowance::BitFieldWideOperand);
        for wide in ["bfe.u64 %d1, %d0, 0x0, %r0;", "bfe.s64 %d1, %d0, %r1, 0x8;", "bfi.b64 %d1, %d0, %d0, 0x0, %r0;"] {
            let out = run(&field(wide), &i, &Allowances::all()).unwrap();
            assert!(any(&out[0]), "{wide}: {}", out[0]);
            let out = run(&field(wide), &i, &strict).unwrap();
            assert!(out[0].is_exact(), "{wide} without the allowance: {}", out[0]);
        }
        // Without it, the low byte: len 0x08000000 reads as 0, pos 0x108 as 8 (0xee, sign-extended).
        assert_eq!(run(&field("bfe.u64 %d1, %d0, 0x0, %r0;"), &i, &strict).unwrap()[0].bits, 0);
        assert_eq!(run(&field("bfe.s64 %d1, %d0, %r1, 0x8;"), &i, &strict).unwrap()[0].bits, 0xFFFF_FFFF_FFFF_FFEE);
        for exact in ["bfe.u64 %d1, %d0, %r2, 0x8;", "bfi.b64 %d1, %d0, %d0, %r2, %r2;"] {
            assert!(run(&field(exact), &i, &Allowances::all()).unwrap()[0].is_exact(), "{exact}");
        }
        let narrow = program(
            32,
            0,
            &["ld.global.b32 %r1, [%in+4];", "bfe.u32 %r3, %r1, %r1, 0x8;", "st.global.b32 [%out], %r3;"],
        );
        let out = run(&narrow, &i, &Allowances::all()).unwrap();
        assert_eq!((out[0].is_exact(), out[0].bits & 0xFFFF_FFFF), (true, 0x1), "0x108 >> 8, 8 bits");
    }

    /// `applypriority` (§9.7.9.16) changes no value; `discard` (§9.7.9.17) makes its line any
    /// value until overwritten. Both need a 128-byte-aligned line inside the thread's inputs.
    #[test]
    fn line_hints_need_an_aligned_line_and_discard_forgets_it() {
        let with = |inputs: u32, lines: &[&str]| Program { inputs, ..program(32, 0, lines) };
        let i = Inputs((0..32 * 64).map(|w| 0x1000 + w).collect());
        let allow = Allowances::all();
        let reads =
            ["ld.global.b32 %r0, [%in+4];", "ld.global.b32 %r1, [%in+132];", "st.global.v2.b32 [%out], {%r0, %r1};"];
        let plain = run(&with(64, &reads), &i, &allow).unwrap();
        let hinted: Vec<&str> =
            ["applypriority.global.L2::evict_normal [%in+128], 128;"].into_iter().chain(reads).collect();
        assert_eq!(exact(&run(&with(64, &hinted), &i, &allow).unwrap()), exact(&plain));
        // Thread t's second line holds words 64t + 32 …: word 33 of thread 0 is 0x1021.
        assert_eq!(exact(&plain)[0], 0x1021 << 32 | 0x1001);
        let discarded: Vec<&str> = ["discard.global.L2 [%in+128], 128;"].into_iter().chain(reads).collect();
        let out = run(&with(64, &discarded), &i, &allow).unwrap();
        for (t, e) in out.iter().enumerate() {
            let word = |k: u32| (e.bits >> (32 * k)) as u32;
            assert_eq!(word(0), 0x1001 + 64 * t as u32, "the first line is kept: {e}");
            assert!(e.free.iter().any(|f| f.allowance == crate::semantics::Allowance::Discarded), "{e}");
        }
        // A discard under a guard no thread takes forgets nothing.
        let skipped: Vec<&str> = ["setp.ne.u32 %p0, %tix, %tix;", "@%p0 discard.global.L2 [%in+128], 128;"]
            .into_iter()
            .chain(reads)
            .collect();
        assert_eq!(exact(&run(&with(64, &skipped), &i, &allow).unwrap()), exact(&plain));
        // Misaligned: 16 words per thread put thread 1's line at p_in + 64; outside the
        // thread's words; a line of the outputs.
        for (inputs, line) in [
            (16, "applypriority.global.L2::evict_normal [%in], 128;"),
            (64, "discard.global.L2 [%in+192], 128;"),
            (64, "discard.global.L2 [%in+64], 128;"),
        ] {
            let i = Inputs((0..32 * inputs).collect());
            let err = run(&with(inputs, &[line, "st.global.b32 [%out], %tix;"]), &i, &allow).unwrap_err();
            assert!(matches!(err, InterpError::Undefined { .. }), "{line}: {err}");
        }
        assert!(run(&with(64, &["discard.global.L2 [%out], 128;"]), &i, &allow).is_err());
    }

    #[test]
    fn shuffles_and_shared_memory_move_data_between_threads() {
        let p = program(
            64,
            4,
            &[
                "ld.global.v2.b32 {%r0, %r1}, [%in+8];",
                "shfl.sync.bfly.b32 %r2|%p0, %r0, 1, 31, -1;",
                "st.shared.b32 [%sh+4], %r1;",
                "bar.sync 0;",
                "ld.shared.b32 %r3, [%shn+4];",
                "st.global.v2.b32 [%out], {%r2, %r3};",
            ],
        );
        let out = exact(&run(&p, &inputs(64, |t, w| 1000 * t + w), &Allowances::all()).unwrap());
        for (t, v) in out.iter().enumerate() {
            let t = t as u64;
            assert_eq!(v & 0xFFFF_FFFF, 1000 * (t ^ 1) + 2, "shfl, thread {t}");
            assert_eq!(v >> 32, 1000 * ((t + 1) % 64) + 3, "shared, thread {t}");
        }
    }

    #[test]
    fn set_valued_results_flow_through_bit_movement() {
        // A NaN input: cvt gives "any f16 NaN"; the pack keeps the exact half exact.
        let p = program(
            32,
            0,
            &[
                "ld.global.b32 %r0, [%in];",
                "cvt.rn.f16.f32 %h0, %r0;",
                "mov.b32 %r1, {%h0, %h0};",
                "mov.b32 {%h1, %h2}, %r1;",
                "mov.b16 %h3, 0x3c00;",
                "mov.b32 %r2, {%h3, %h2};",
                "st.global.b32 [%out], %r2;",
            ],
        );
        let out = run(&p, &inputs(32, |_, _| 0x7FC0_0001), &Allowances::all()).unwrap();
        let e = &out[0];
        assert!(e.matches(0x7E00_3C00) && e.matches(0xFFFF_3C00));
        assert!(!e.matches(0x7C00_3C00), "infinity is not a NaN");
        assert!(!e.matches(0x7E00_3C01), "the exact half stays exact");
        assert!(!e.matches(0x7E00_3C00 | 1 << 32), "word 1 is untouched");
        // Without the allowance the NaN is exact.
        let strict = run(&p, &inputs(32, |_, _| 0x7FC0_0001), &Allowances::none()).unwrap();
        assert!(strict[0].is_exact());
    }

    #[test]
    fn a_branch_on_a_set_valued_predicate_makes_the_thread_uncertain() {
        let p = program(
            32,
            0,
            &[
                "ld.global.b32 %r0, [%in];",
                "cvt.rn.f16.f32 %h0, %r0;",
                "setp.eq.u16 %p0, %h0, 0x7e00;",
                "mov.b32 %r1, 7;",
                "mov.b32 %r2, 9;",
                "@%p0 bra $L0;",
                "mov.b32 %r1, 8;",
                "$L0:",
                "st.global.v2.b32 [%out], {%r1, %r2};",
            ],
        );
        let out = run(&p, &inputs(32, |t, _| if t == 3 { 0x7FC0_0001 } else { 0 }), &Allowances::all()).unwrap();
        assert_eq!(out[0].bits, 9 << 32 | 8);
        assert!(out[0].is_exact());
        assert!(out[3].matches(9 << 32 | 7) && out[3].matches(9 << 32 | 8) && !out[3].matches(10 << 32 | 8));
    }

    #[test]
    fn decimal_float_immediates_round_once_to_nearest() {
        // 0.1 is 0x3FB999999999999A as f64; to nearest f32 it is 0x3DCCCCCD.
        let p = program(32, 0, &["mov.f32 %r0, 0.1;", "st.global.b32 [%out], %r0;"]);
        let out = run(&p, &inputs(32, |_, _| 0), &Allowances::all()).unwrap();
        assert_eq!(out[0].bits, 0x3DCC_CCCD);
    }

    /// A 64-bit add and subtract as 32-bit carry chains (§9.7.2) against the 64-bit result;
    /// a guard that skips `add.cc` leaves the flag of the instruction before.
    #[test]
    fn carry_chains_carry_per_thread() {
        let p = program(
            32,
            0,
            &[
                "ld.global.b32 %r0, [%in];",
                "ld.global.b32 %r1, [%in+4];",
                "ld.global.b32 %r2, [%in+8];",
                "ld.global.b32 %r3, [%in+12];",
                "add.cc.u32 %r4, %r0, %r2;",
                "addc.u32 %r5, %r1, %r3;",
                "sub.cc.u32 %r6, %r0, %r2;",
                "setp.eq.u32 %p0, %tix, 3;",
                "@%p0 sub.cc.u32 %r7, %r0, %r0;",
                "subc.u32 %r7, %r1, %r3;",
                "st.global.v2.b32 [%out], {%r5, %r7};",
            ],
        );
        let words = |t: u32, w: u32| match w {
            0 => 0xFFFF_FFF0u32.wrapping_add(t),
            1 => t,
            2 => 0x20 - t,
            _ => 7,
        };
        let out = exact(&run(&p, &inputs(32, words), &Allowances::all()).unwrap());
        for (t, v) in out.iter().enumerate() {
            let t = t as u32;
            let (a, b) = (
                u64::from(words(t, 1)) << 32 | u64::from(words(t, 0)),
                u64::from(words(t, 3)) << 32 | u64::from(words(t, 2)),
            );
            let sum_hi = (a.wrapping_add(b) >> 32) as u32;
            // Thread 3 borrows from its own `r0 - r0` (none); the others from `r0 - r2`.
            let diff_hi = if t == 3 { words(t, 1).wrapping_sub(words(t, 3)) } else { (a.wrapping_sub(b) >> 32) as u32 };
            assert_eq!(*v, u64::from(diff_hi) << 32 | u64::from(sum_hi), "thread {t}");
        }
    }

    /// A counted loop (a backward branch on a uniform counter) runs its trips; the
    /// accumulator is loop-carried; a loop whose threads disagree is refused.
    #[test]
    fn counted_loops_run_their_trips() {
        let p = program(
            64,
            0,
            &[
                "ld.global.b32 %r0, [%in];",
                "mov.u32 %r1, 0;",
                "$L0:",
                "mul.lo.u32 %r0, %r0, 3;",
                "add.u32 %r0, %r0, %r1;",
                "add.u32 %r1, %r1, 1;",
                "setp.lt.u32 %p0, %r1, 5;",
                "@%p0 bra $L0;",
                "st.global.v2.b32 [%out], {%r0, %r1};",
            ],
        );
        let out = exact(&run(&p, &inputs(64, |t, _| t), &Allowances::all()).unwrap());
        for (t, v) in out.iter().enumerate() {
            let mut acc = t as u32;
            for i in 0..5 {
                acc = acc.wrapping_mul(3).wrapping_add(i);
            }
            assert_eq!(*v, 5 << 32 | u64::from(acc), "thread {t}");
        }
        let split = program(
            32,
            0,
            &["mov.u32 %r1, 0;", "$L0:", "add.u32 %r1, %r1, 1;", "setp.lt.u32 %p0, %r1, %tix;", "@%p0 bra $L0;"],
        );
        let e = run(&split, &inputs(32, |_, _| 0), &Allowances::all()).unwrap_err();
        assert!(e.to_string().contains("splits the threads"), "{e}");
        let forever = program(32, 0, &["$L0:", "bra $L0;"]);
        let e = run(&forever, &inputs(32, |_, _| 0), &Allowances::all()).unwrap_err();
        assert!(e.to_string().contains("more than"), "{e}");
    }

    #[test]
    fn broken_invariants_are_errors() {
        let cases: [(&[&str], &str); 6] = [
            (&["add.s32 %r1, %r0, 1;"], "before any write"),
            (&["addc.u32 %r1, %tix, 1;"], "carry flag"),
            (
                &["setp.eq.u32 %p0, %tix, 1;", "@%p0 bra $L0;", "shfl.sync.idx.b32 %r1, %tix, 0, 31, -1;", "$L0:"],
                "diverged",
            ),
            (&["st.shared.b32 [%sh], %tix;", "ld.shared.b32 %r0, [%shn];"], "without a bar.sync"),
            (&["ld.global.b32 %r0, [%in+16];"], "outside"),
            (&["ld.global.b64 %d0, [%in+4];"], "misaligned"),
        ];
        for (lines, why) in cases {
            let e = run(&program(32, 4, lines), &inputs(32, |_, _| 0), &Allowances::all()).unwrap_err();
            assert!(e.to_string().contains(why), "{e} (expected {why})");
        }
        let e = run(&program(32, 4, &["mov.b32 %r0, 1;"]), &Inputs(vec![0; 3]), &Allowances::all()).unwrap_err();
        assert!(matches!(e, InterpError::Shape(_)));
    }

    #[test]
    fn the_launch_says_which_buffers_and_how_many_threads() {
        let lines = ["ld.global.b32 %r0, [%in+4];", "st.global.b32 [%out+4], %r0;"];
        let mut p = program(64, 0, &lines);
        // The buffers are found by what the parameters pass, not by their names or order.
        p.launch.params.reverse();
        p.launch.params[0].name = "dst".into();
        let out = exact(&run(&p, &inputs(64, |t, w| 10 * t + w), &Allowances::all()).unwrap());
        assert_eq!(out.len(), 64);
        assert!(out.iter().enumerate().all(|(t, v)| *v == (10 * t as u64 + 1) << 32), "{out:?}");
        let mut two = program(32, 0, &lines);
        two.launch.grid = Dim3::x(2);
        let e = run(&two, &inputs(32, |_, _| 0), &Allowances::all()).unwrap_err();
        assert!(matches!(&e, InterpError::Shape(m) if m.contains("grid of 2x1x1")), "{e}");
    }
}
