//! Check kernels: the GPU checks its own sweep results. After a sweep kernel
//! ([`crate::sweep::sweep_kernel`]) has written a chunk of results to device memory, the check
//! kernel of the same form recomputes the oracle's fast-kernel prediction for every index with
//! integer instructions only (the GPU twin, [`oracle::semantics::cvt_fast_ir`]), and reports
//! the indices where the results differ, plus the audit sample.
//!
//! The contract the host side is written against ([`CHECK_ENTRY`]):
//! - one thread per result, `j = ctaid.x × ntid.x + tid.x` (64-bit); threads with `j ≥ n`
//!   exit. `i = base + j` is the sweep index; the prediction's input is the low 32 bits of `i`
//!   (the exhaustive scheme).
//! - the result at `results + j × out_bytes` (little endian, as the sweep kernel stored it)
//!   differs from the prediction when any of its `8 × out_bytes` bits differ; then
//!   `k = atom.global.add.u32 [count], 1`, and if `k < cap`, `st.global.u32 [suspects + 4k], j`.
//! - audit: if `window ≠ 0`, `win = i / window` and
//!   `pick = win × window + mix64(win, seed) mod window` ([`crate::sweep::mix64`], from the one
//!   PTX text of it, [`crate::sweep::mix64_ptx`]); the thread with `i == pick` stores the
//!   result, zero-extended, at `audit + 8 × (win − base / window)`, whether or not it differs.
//!
//! Invariant: the prediction is the twin's, which the oracle's tests check equal to the fast
//! kernel's words (`SweepKernel::words`) on stratified inputs for every form this gives a
//! kernel for (a twin wrong elsewhere only costs time where the GPU is right, and shows in the
//! audit sample, judged by the full semantics, where the GPU is wrong too); the text assembles
//! with ptxas for every sm_90 form (`runner/tests/check_kernels.rs`).

use std::fmt::Write as _;

use oracle::isa::{Form, Target};
use oracle::num::fast::Portable;
use oracle::num::kernel_ir::Program;
use oracle::semantics::{cvt_fast, cvt_fast_ir, Allowances};

use crate::sweep::{mix64_ptx, sweep_kernel, Scheme, MIX_GOLDEN};

/// The check kernel's entry and parameters, exactly as the module text declares them.
pub const CHECK_ENTRY: &str = ".visible .entry check(.param .u64 results, .param .u64 base, .param .u64 n, \
     .param .u64 suspects, .param .u64 count, .param .u32 cap, .param .u64 audit, .param .u64 window, \
     .param .u64 seed)";

/// The instruction that sets the prediction's input `%x` (the sweep index's low 32 bits).
const INPUT_SET: &str = "cvt.u32.u64 %x, %i;";

/// A check kernel and the width of the results it reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckKernel {
    /// The PTX module (entry [`CHECK_ENTRY`]).
    pub ptx: String,
    /// Bytes per result (as the form's sweep kernel stores them).
    pub out_bytes: u32,
}

/// The check kernel of `form` on `target` under `allow`; `None` where the sweep is not
/// exhaustive or no fast kernel predicts it (`cvt_fast::select_sweep` gives none, or its words
/// do not fill the sweep's results).
pub fn check_kernel(form: &Form, target: &Target, allow: &Allowances) -> Option<CheckKernel> {
    let Form::Cvt(c) = form else { return None };
    let sweep = sweep_kernel(form, target).ok()?;
    if !matches!(sweep.scheme, Scheme::Exhaustive { .. }) {
        return None;
    }
    let spec = cvt_fast::sweep_spec(c, allow)?;
    if !cvt_fast::select_sweep(c, &Portable, allow)?.fits(sweep.out_bytes as usize) {
        return None;
    }
    let prediction = cvt_fast_ir::program(&spec);
    Some(CheckKernel { ptx: module(&prediction, target, sweep.out_bytes), out_bytes: sweep.out_bytes })
}

/// The module text around `prediction` (one output word, or low and high for 8-byte results).
fn module(prediction: &Program, target: &Target, out_bytes: u32) -> String {
    let mut k = String::new();
    let _ = writeln!(k, ".version {}\n.target {}\n.address_size 64", target.ptx, target.name());
    let _ = writeln!(k, "{CHECK_ENTRY}\n{{");
    let _ = writeln!(
        k,
        "  .reg .b64 %j, %n, %i, %z, %o, %v, %t, %actual, %pred, %window, %wm1, %win, %stream;\n  \
         .reg .b32 %rtid, %rntid, %rctaid, %x, %a32, %k, %cap, %j32, %sh;\n  \
         .reg .pred %done, %differ, %kept, %nowin, %pow2, %miss;"
    );
    // The thread's chunk offset `j` and sweep index `i`; the input is `i`'s low 32 bits.
    let _ = writeln!(k, "  mov.u32 %rtid, %tid.x;\n  mov.u32 %rntid, %ntid.x;\n  mov.u32 %rctaid, %ctaid.x;");
    let _ = writeln!(k, "  mul.wide.u32 %j, %rctaid, %rntid;\n  cvt.u64.u32 %z, %rtid;\n  add.u64 %j, %j, %z;");
    let _ = writeln!(k, "  ld.param.u64 %n, [n];\n  setp.ge.u64 %done, %j, %n;\n  @%done ret;");
    let _ = writeln!(k, "  ld.param.u64 %i, [base];\n  add.u64 %i, %i, %j;\n  {INPUT_SET}");
    // The prediction, from the input just set.
    k.push_str(&prediction.ptx("k", "%x"));
    // Compare with the stored result.
    let _ = writeln!(k, "  ld.param.u64 %o, [results];\n  mad.lo.u64 %o, %j, {out_bytes}, %o;");
    let outs = prediction.outputs();
    if out_bytes == 8 {
        let (lo, hi) = (Program::reg("k", outs[0]), Program::reg("k", outs[1]));
        let _ = writeln!(k, "  ld.global.u64 %actual, [%o];\n  mov.b64 %pred, {{{lo}, {hi}}};");
        let _ = writeln!(k, "  setp.ne.u64 %differ, %actual, %pred;");
    } else {
        let w = Program::reg("k", outs[0]);
        let _ = writeln!(k, "  ld.global.u{} %a32, [%o];", out_bytes * 8);
        let _ = writeln!(k, "  setp.ne.u32 %differ, %a32, {w};\n  cvt.u64.u32 %actual, %a32;");
    }
    // A difference: its offset joins the suspects while there is room.
    let _ = writeln!(k, "  @!%differ bra $Laudit;");
    let _ = writeln!(k, "  ld.param.u64 %o, [count];\n  atom.global.add.u32 %k, [%o], 1;");
    let _ = writeln!(k, "  ld.param.u32 %cap, [cap];\n  setp.lt.u32 %kept, %k, %cap;\n  @!%kept bra $Laudit;");
    let _ = writeln!(k, "  ld.param.u64 %o, [suspects];\n  mul.wide.u32 %z, %k, 4;\n  add.u64 %o, %o, %z;");
    let _ = writeln!(k, "  cvt.u32.u64 %j32, %j;\n  st.global.u32 [%o], %j32;");
    // The audit: the picked index of each window stores its result.
    let _ = writeln!(k, "$Laudit:");
    let _ = writeln!(k, "  ld.param.u64 %window, [window];\n  setp.eq.u64 %nowin, %window, 0;\n  @%nowin ret;");
    // Windows are powers of two in practice: then a shift and a mask replace the 64-bit
    // division and remainder (the branch is uniform: every thread has the same window).
    let _ = writeln!(k, "  sub.u64 %wm1, %window, 1;\n  and.b64 %t, %wm1, %window;\n  setp.eq.u64 %pow2, %t, 0;");
    let _ = writeln!(k, "  clz.b64 %sh, %window;\n  sub.u32 %sh, 63, %sh;");
    let _ = writeln!(k, "  @%pow2 shr.u64 %win, %i, %sh;\n  @!%pow2 div.u64 %win, %i, %window;");
    let _ = writeln!(k, "  ld.param.u64 %stream, [seed];\n  mul.lo.u64 %stream, %stream, 0x{MIX_GOLDEN:X};");
    mix64_ptx(&mut k, "%v", "%win", "%stream", "%t");
    let _ = writeln!(k, "  @%pow2 and.b64 %v, %v, %wm1;\n  @!%pow2 rem.u64 %v, %v, %window;");
    let _ = writeln!(k, "  mad.lo.u64 %v, %win, %window, %v;");
    let _ = writeln!(k, "  setp.ne.u64 %miss, %i, %v;\n  @%miss ret;");
    let _ = writeln!(k, "  ld.param.u64 %z, [base];\n  div.u64 %z, %z, %window;\n  sub.u64 %z, %win, %z;");
    let _ = writeln!(k, "  ld.param.u64 %o, [audit];\n  mad.lo.u64 %o, %z, 8, %o;\n  st.global.u64 [%o], %actual;");
    let _ = writeln!(k, "  ret;\n}}");
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use oracle::isa::{valid_forms, Family};
    use oracle::num::fast::stratified;

    fn sm90() -> Target {
        "sm_90a@8.7".parse().expect("a target")
    }

    #[test]
    fn the_kernel_declares_the_contracts_entry_and_shares_the_mix64_text() {
        let f = Form::parse_opcode("cvt.rn.f16.f32").expect("a form");
        let k = check_kernel(&f, &sm90(), &Allowances::all()).expect("a check kernel");
        assert_eq!(k.out_bytes, 2);
        assert!(k.ptx.contains(CHECK_ENTRY), "{}", k.ptx);
        for p in ["results", "base", "n", "suspects", "count", "audit", "window", "seed"] {
            assert!(
                CHECK_ENTRY.contains(&format!(".param .u64 {p},"))
                    || CHECK_ENTRY.contains(&format!(".param .u64 {p})")),
                "{p}"
            );
        }
        assert!(CHECK_ENTRY.contains(".param .u32 cap,"));
        // The prediction reads its input only after the frame has set it.
        let set = k.ptx.find(INPUT_SET).expect("the input is set");
        let read = k.ptx.find(", %x;").expect("the prediction reads the input");
        assert!(set < read, "the prediction runs before its input is set:\n{}", k.ptx);
        let mut mix = String::new();
        mix64_ptx(&mut mix, "%v", "%win", "%stream", "%t");
        assert!(k.ptx.contains(&mix), "the check kernel's mix64 is not the shared text");
        // The sweep kernels use the same text for their sampled inputs.
        let sampled = sweep_kernel(&Form::parse_opcode("cvt.rzi.s8.f64").expect("a form"), &sm90()).expect("a sweep");
        let mut mix = String::new();
        mix64_ptx(&mut mix, "%v", "%z", &MIX_GOLDEN.to_string(), "%o");
        assert!(sampled.ptx.contains(&mix), "the sweep kernel's mix64 is not the shared text");
    }

    #[test]
    fn kernels_exist_exactly_where_a_fast_kernel_predicts_an_exhaustive_sweep() {
        let t = sm90();
        let allow = Allowances::all();
        let mut with = 0;
        for (f, _) in valid_forms(&t, Some(Family::Cvt)) {
            let Form::Cvt(c) = &f else { continue };
            let exhaustive = sweep_kernel(&f, &t).is_ok_and(|s| matches!(s.scheme, Scheme::Exhaustive { .. }));
            let fast = cvt_fast::select_sweep(c, &Portable, &allow).is_some();
            let k = check_kernel(&f, &t, &allow);
            assert_eq!(k.is_some(), exhaustive && fast, "{}", f.opcode());
            if let Some(k) = k {
                with += 1;
                // The prediction fills exactly the result's bytes, so comparing the loaded
                // (zero-extended) bytes with it compares all of them and nothing else.
                let spec = cvt_fast::sweep_spec(c, &allow).expect("a spec");
                let prog = cvt_fast_ir::program(&spec);
                assert_eq!(prog.outputs().len(), if k.out_bytes == 8 { 2 } else { 1 }, "{}", f.opcode());
                if k.out_bytes < 4 {
                    for x in stratified(1 << 8) {
                        let w = prog.eval(x)[0];
                        assert_eq!(w >> (8 * k.out_bytes), 0, "{} on {x:#x}: {w:#x}", f.opcode());
                    }
                }
            }
        }
        assert!(with > 300, "{with} check kernels");
        let prmt = Form::parse_opcode("prmt.b32.f4e").expect("a form");
        assert!(check_kernel(&prmt, &t, &allow).is_none());
    }
}
