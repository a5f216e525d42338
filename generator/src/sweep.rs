//! Sweep kernels: one PTX kernel per instruction form that evaluates the form on a range of
//! inputs derived from the thread's global index, and stores the destination for every index.
//!
//! Inputs are never uploaded: both the kernel and the checker derive them from the index with
//! [`sweep_inputs`] (the PTX text computes the same function), so an exhaustive 2^32 sweep moves
//! only results. A form whose source domain fits in 32 bits is swept exhaustively (`a` = the
//! index; a second `.f32` source `b` equals `a`, so each packed lane sees every value);
//! otherwise sources are mixed from the index by [`mix64`] (a SplitMix64 finalizer) and the
//! sweep samples.

use std::fmt::Write as _;

use oracle::isa::qualifier::Qualifier;
use oracle::isa::types::RegType;
use oracle::isa::{Form, OperandKind, Role, Target};

/// How a sweep derives its inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// `a` is the index; the domain has `2^bits` values.
    Exhaustive {
        /// Width of the domain.
        bits: u32,
    },
    /// Sources are mixed from the index.
    Sampled,
}

/// A sweep kernel and what it produces.
#[derive(Clone, Debug)]
pub struct SweepKernel {
    /// The PTX module (entry `sweep(.u64 out, .u64 base, .u64 n)`).
    pub ptx: String,
    /// Bytes per result.
    pub out_bytes: u32,
    /// The input scheme.
    pub scheme: Scheme,
}

/// SplitMix64's increment (the golden ratio): stream `k` starts at `k ×` this.
pub const MIX_GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;
/// SplitMix64's finalizer: its two multipliers and three shifts, in order.
const MIX_STEPS: [(u32, u64); 2] = [(30, 0xBF58_476D_1CE4_E5B9), (27, 0x94D0_49BB_1331_11EB)];
/// The finalizer's last shift.
const MIX_LAST_SHIFT: u32 = 31;

/// SplitMix64's finalizer: the sampled sweeps' input for index `i` and stream `k`.
pub fn mix64(i: u64, k: u64) -> u64 {
    let mut z = i.wrapping_add(k.wrapping_mul(MIX_GOLDEN)).wrapping_mul(MIX_GOLDEN);
    for (shift, mul) in MIX_STEPS {
        z = (z ^ (z >> shift)).wrapping_mul(mul);
    }
    z ^ (z >> MIX_LAST_SHIFT)
}

/// PTX that sets the `.b64` register `dst` to [`mix64`] of register `index` and stream `k`,
/// where the operand `stream` (an immediate or a register) holds `k ×` [`MIX_GOLDEN`]
/// (wrapping); `tmp` is a scratch `.b64` register. The one PTX text of [`mix64`]: the sweep
/// kernels and the check kernels ([`crate::sweep_check`]) both use it.
pub fn mix64_ptx(out: &mut String, dst: &str, index: &str, stream: &str, tmp: &str) {
    let _ = writeln!(out, "  add.u64 {dst}, {index}, {stream};\n  mul.lo.u64 {dst}, {dst}, 0x{MIX_GOLDEN:X};");
    for (shift, mul) in MIX_STEPS {
        let _ = writeln!(
            out,
            "  shr.u64 {tmp}, {dst}, {shift};\n  xor.b64 {dst}, {dst}, {tmp};\n  mul.lo.u64 {dst}, {dst}, 0x{mul:X};"
        );
    }
    let _ = writeln!(out, "  shr.u64 {tmp}, {dst}, {MIX_LAST_SHIFT};\n  xor.b64 {dst}, {dst}, {tmp};");
}

/// The named source values for index `i` under `scheme` (names as `source_slots` gives them).
pub fn sweep_inputs(scheme: Scheme, names: &[String], i: u64) -> Vec<(String, u128)> {
    names
        .iter()
        .enumerate()
        .map(|(k, n)| {
            let v = match scheme {
                Scheme::Exhaustive { .. } => i,
                Scheme::Sampled => mix64(i, k as u64 + 1),
            };
            (n.clone(), u128::from(v))
        })
        .collect()
}

/// Errors: forms that cannot be swept.
#[derive(Debug, thiserror::Error)]
#[error("`{0}` cannot be swept: {1}")]
pub struct SweepError(pub String, pub &'static str);

fn reg_of(k: &OperandKind) -> Option<RegType> {
    match *k {
        OperandKind::Reg(t) | OperandKind::RegOrImm(t) => Some(t),
        OperandKind::RegOneOf(ts) => Some(ts[0]),
        _ => None,
    }
}

/// Moves the low bits of 64-bit `%v` into register `dst` of type `t`.
fn load_bits(out: &mut String, dst: &str, t: RegType) {
    let w = t.bits();
    let _ = match w {
        64 => writeln!(out, "  mov.b64 {dst}, %v;"),
        32 => writeln!(out, "  cvt.u32.u64 %t32, %v;\n  mov.b32 {dst}, %t32;"),
        16 => writeln!(out, "  cvt.u16.u64 %t16, %v;\n  mov.b16 {dst}, %t16;"),
        8 => writeln!(out, "  cvt.u16.u64 %t16, %v;\n  cvt.u8.u16 {dst}, %t16;"),
        _ => Ok(()),
    };
}

/// Builds the sweep kernel for `form` on `target`.
pub fn sweep_kernel(form: &Form, target: &Target) -> Result<SweepKernel, SweepError> {
    let specs = form.operands();
    let mut srcs: Vec<(String, RegType)> = Vec::new();
    let mut dst: Option<RegType> = None;
    let mut operand_text = Vec::new();
    for s in &specs {
        match (s.role, s.kind) {
            (Role::Dst, k) => {
                let t = reg_of(&k).ok_or(SweepError(form.opcode(), "its destination is not a single register"))?;
                dst = Some(t);
                operand_text.push("%d".to_string());
            }
            (Role::Src, OperandKind::Vector(t, n)) => {
                let names: Vec<String> = (0..n).map(|j| format!("%s{}", srcs.len() + j as usize)).collect();
                for nm in &names {
                    srcs.push((nm.clone(), t));
                }
                operand_text.push(format!("{{{}}}", names.join(", ")));
            }
            (Role::Src, k) => {
                let t = reg_of(&k).ok_or(SweepError(form.opcode(), "a source is not a register"))?;
                let nm = format!("%s{}", srcs.len());
                srcs.push((nm.clone(), t));
                operand_text.push(nm);
            }
        }
    }
    let dst = dst.ok_or(SweepError(form.opcode(), "it has no destination"))?;
    // cvt sources up to 32 bits wide are swept exhaustively (two `.f32` sources share the
    // index, so each packed lane sees every value); everything else is sampled.
    let scheme = match form {
        Form::Cvt(c) if c.atype.reg().bits() <= 32 && srcs.iter().all(|(_, t)| t.bits() <= 32) => {
            Scheme::Exhaustive { bits: c.atype.reg().bits() }
        }
        _ => Scheme::Sampled,
    };
    let out_bytes = dst.bits().div_ceil(8);
    let mut k = String::new();
    let _ = writeln!(k, ".version {}\n.target {}\n.address_size 64", target.ptx, target.name());
    let _ = writeln!(k, ".visible .entry sweep(.param .u64 out, .param .u64 base, .param .u64 n)\n{{");
    let _ = writeln!(k, "  .reg .b64 %i, %n, %v, %z, %o, %base;\n  .reg .b32 %t32, %rtid, %rntid, %rctaid;\n  .reg .b16 %t16;\n  .reg .pred %done;");
    for (nm, t) in &srcs {
        let _ = writeln!(k, "  .reg .{} {nm};", t.token());
    }
    let _ = writeln!(k, "  .reg .{} %d;", dst.token());
    let _ = writeln!(k, "  mov.u32 %rtid, %tid.x;\n  mov.u32 %rntid, %ntid.x;\n  mov.u32 %rctaid, %ctaid.x;");
    let _ = writeln!(k, "  mul.wide.u32 %i, %rctaid, %rntid;\n  cvt.u64.u32 %z, %rtid;\n  add.u64 %i, %i, %z;");
    let _ = writeln!(k, "  ld.param.u64 %n, [n];\n  setp.ge.u64 %done, %i, %n;\n  @%done ret;");
    let _ = writeln!(k, "  ld.param.u64 %base, [base];\n  add.u64 %z, %i, %base;");
    for (idx, (nm, t)) in srcs.iter().enumerate() {
        match scheme {
            Scheme::Exhaustive { .. } => {
                let _ = writeln!(k, "  mov.b64 %v, %z;");
            }
            Scheme::Sampled => {
                // mix64(z, idx + 1).
                let stream = (idx as u64 + 1).wrapping_mul(MIX_GOLDEN);
                mix64_ptx(&mut k, "%v", "%z", &stream.to_string(), "%o");
            }
        }
        load_bits(&mut k, nm, *t);
    }
    let _ = writeln!(k, "  {} {};", form.opcode(), operand_text.join(", "));
    let _ = writeln!(k, "  ld.param.u64 %o, [out];\n  mad.lo.u64 %o, %i, {out_bytes}, %o;");
    let st = match out_bytes {
        1 => "st.global.b8",
        2 => "st.global.b16",
        4 => "st.global.b32",
        8 => "st.global.b64",
        _ => return Err(SweepError(form.opcode(), "its destination is wider than 64 bits")),
    };
    let _ = writeln!(k, "  {st} [%o], %d;\n  ret;\n}}");
    Ok(SweepKernel { ptx: k, out_bytes, scheme })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mix64_is_splitmix() {
        assert_eq!(mix64(0, 0), 0);
        assert_ne!(mix64(1, 1), mix64(1, 2));
    }

    #[test]
    fn kernels_for_cvt_prmt_and_cvt_pack() {
        let t: Target = "sm_90".parse().unwrap();
        for text in [
            "cvt.rn.f16.f32",
            "cvt.rn.satfinite.e4m3x2.f32",
            "cvt.rzi.s8.f64",
            "prmt.b32.f4e",
            "cvt.pack.sat.u8.s32.b32",
            "cvt.rn.f32.u8",
        ] {
            let f = Form::parse_opcode(text).unwrap();
            let k = sweep_kernel(&f, &t).unwrap();
            assert!(k.ptx.contains(text), "{}", k.ptx);
        }
        let k = sweep_kernel(&Form::parse_opcode("cvt.rn.f16.f32").unwrap(), &t).unwrap();
        assert_eq!((k.out_bytes, k.scheme), (2, Scheme::Exhaustive { bits: 32 }));
        let k = sweep_kernel(&Form::parse_opcode("cvt.rzi.s8.f64").unwrap(), &t).unwrap();
        assert_eq!(k.scheme, Scheme::Sampled);
    }
}
