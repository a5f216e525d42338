//! The GPU worker's own small kernels, which never contain code under test and are compiled
//! by the driver's JIT: `gather` (the results at a list of offsets, widened to 8 bytes, so the
//! suspects a check kernel reports cross to the host without the whole chunk) and, for the
//! survival tests, `flip` (corrupts results in device memory like a faulty GPU would).
//!
//! Their parameter lists are the contracts of [`serve`](mod@super::serve)'s launches; the PTX is plain
//! `sm_50` code so that every device's JIT takes it.

/// The `gather(.u64 results, .u64 offsets, .u64 n, .u64 out)` kernel for results of
/// `out_bytes` bytes: thread `t < n` reads offset `offsets[t]` (a `.u32`) and stores the result
/// there, zero-extended, at `out + 8t`.
pub fn gather_kernel(out_bytes: u32) -> String {
    let ld = match out_bytes {
        1 => "ld.global.u8 %r, [%a];\n  cvt.u64.u32 %v, %r;",
        2 => "ld.global.u16 %h, [%a];\n  cvt.u64.u16 %v, %h;",
        4 => "ld.global.u32 %r, [%a];\n  cvt.u64.u32 %v, %r;",
        _ => "ld.global.u64 %v, [%a];",
    };
    format!(
        ".version 6.0\n.target sm_50\n.address_size 64\n\
         .visible .entry gather(.param .u64 results, .param .u64 offsets, .param .u64 n, .param .u64 out)\n{{\n  \
         .reg .b64 %t, %n, %a, %v, %o;\n  .reg .b32 %r, %c, %w, %x;\n  .reg .b16 %h;\n  .reg .pred %p;\n  \
         mov.u32 %c, %ctaid.x;\n  mov.u32 %w, %ntid.x;\n  mov.u32 %x, %tid.x;\n  \
         mul.wide.u32 %t, %c, %w;\n  cvt.u64.u32 %o, %x;\n  add.u64 %t, %t, %o;\n  \
         ld.param.u64 %n, [n];\n  setp.ge.u64 %p, %t, %n;\n  @%p ret;\n  \
         ld.param.u64 %a, [offsets];\n  mad.lo.u64 %a, %t, 4, %a;\n  ld.global.u32 %r, [%a];\n  \
         ld.param.u64 %a, [results];\n  cvt.u64.u32 %o, %r;\n  mad.lo.u64 %a, %o, {out_bytes}, %a;\n  {ld}\n  \
         ld.param.u64 %a, [out];\n  mad.lo.u64 %a, %t, 8, %a;\n  st.global.u64 [%a], %v;\n  ret;\n}}\n"
    )
}

/// The planted `flip(.u64 results, .u64 base, .u64 n, .u64 every, .u64 out_bytes)` kernel:
/// flips the lowest bit of the result of every sweep index `i` in `base..base + n` that is a
/// multiple of `every` (thread `t` takes the `t`-th such multiple), so the same results are
/// wrong however the sweep is cut into chunks.
#[cfg(feature = "test-hooks")]
pub const FLIP: &str = ".version 6.0\n.target sm_50\n.address_size 64\n\
     .visible .entry flip(.param .u64 results, .param .u64 base, .param .u64 n, .param .u64 every, \
     .param .u64 out_bytes)\n{\n  \
     .reg .b64 %t, %n, %a, %o, %e, %b;\n  .reg .b32 %c, %w, %x;\n  .reg .b16 %h;\n  .reg .pred %p;\n  \
     mov.u32 %c, %ctaid.x;\n  mov.u32 %w, %ntid.x;\n  mov.u32 %x, %tid.x;\n  \
     mul.wide.u32 %t, %c, %w;\n  cvt.u64.u32 %o, %x;\n  add.u64 %t, %t, %o;\n  \
     ld.param.u64 %e, [every];\n  ld.param.u64 %b, [base];\n  \
     add.u64 %o, %b, %e;\n  sub.u64 %o, %o, 1;\n  div.u64 %o, %o, %e;\n  add.u64 %t, %t, %o;\n  \
     mul.lo.u64 %t, %t, %e;\n  sub.u64 %t, %t, %b;\n  \
     ld.param.u64 %n, [n];\n  setp.ge.u64 %p, %t, %n;\n  @%p ret;\n  \
     ld.param.u64 %o, [out_bytes];\n  ld.param.u64 %a, [results];\n  mad.lo.u64 %a, %t, %o, %a;\n  \
     ld.global.u8 %h, [%a];\n  xor.b16 %h, %h, 1;\n  st.global.u8 [%a], %h;\n  ret;\n}\n";

#[cfg(test)]
mod tests {
    use super::*;

    /// Every gather variant and the planted flip assemble (ptxas, when one is installed).
    #[test]
    fn harness_kernels_assemble() {
        let Ok(ptxas) = crate::backend::default_ptxas() else {
            eprintln!("SKIPPED (no ptxas)");
            return;
        };
        let mut texts: Vec<String> = [1, 2, 4, 8].into_iter().map(gather_kernel).collect();
        #[cfg(feature = "test-hooks")]
        texts.push(FLIP.to_string());
        for ptx in texts {
            let asm = ptxas.assemble(&ptx, "sm_90", 3, None).expect("ptxas runs");
            assert!(asm.ok, "{}\n{ptx}", asm.output);
        }
    }
}
