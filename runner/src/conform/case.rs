//! The case file of a conform finding: a one-instruction program — the form under test reading
//! its sources from the inputs and storing its destination — with the failing sweep inputs as
//! threads, in the case-file format `fuzz` writes (`oracle::program::text`), so that
//! `ptxdiff replay` runs it on every backend.
//!
//! Layout: each source register is loaded from its own input word (a 64-bit source from an
//! aligned pair), holding the sweep's value for the index masked to the slot's width; the
//! destination is stored in output word 0 (a 16-bit one twice, filling the word; a 64-bit one
//! in words 0 and 1; a `.b8` one, for the forms that need 8-bit registers, once, in byte 0).
//! Registers are of the classes `oracle::program::operand_class` gives. Thread `t` runs sweep
//! index `indices[t % indices.len()]` of 32 threads.
//!
//! Invariant: the text is built through the case parser and printed back, so a case that comes
//! out of [`case_text`] is one that `ptxdiff replay` reads.

use std::fmt::Write as _;

use generator::sweep::{sweep_inputs, Scheme};
use oracle::isa::{Form, OperandKind, Role, Target};
use oracle::program::text::{case, parse_case};
use oracle::program::{Inputs, Program, RegClass};
use oracle::semantics::operands::source_slots;

/// Threads of a conform case (one warp).
const THREADS: u32 = 32;

/// A register of `class` numbered `n`, as the program text names it.
fn reg(class: RegClass, n: u32) -> String {
    format!("%{}{n}", class.prefix())
}

/// The case of `form` on `target` for the sweep indices `indices` (at least one) of a sweep under
/// `scheme`: the program and its inputs, and the case text; or why the form has no case (a
/// source or destination the program model cannot hold in a register).
pub fn case_text(
    form: &Form,
    target: &Target,
    scheme: Scheme,
    indices: &[u64],
) -> Result<(Program, Inputs, String), String> {
    let first = *indices.first().ok_or("no inputs to put in the case")?;
    let mut next = [1u32; RegClass::ALL.len()];
    let mut fresh = |c: RegClass| {
        let k = RegClass::ALL.iter().position(|&x| x == c).unwrap_or(0);
        next[k] += 1;
        reg(c, next[k] - 1)
    };
    let class_of = |t| oracle::program::operand_class(form, t).filter(|c| *c != RegClass::Pred);
    // (register, class, input byte offset) per source, in source-slot order.
    let mut loads: Vec<(String, RegClass, u32)> = Vec::new();
    let mut offset = 0u32;
    let mut load = |c: RegClass, fresh: &mut dyn FnMut(RegClass) -> String| {
        let bytes = if c == RegClass::B64 { 8 } else { 4 };
        offset = offset.next_multiple_of(bytes);
        let r = fresh(c);
        loads.push((r.clone(), c, offset));
        offset += bytes;
        r
    };
    let mut operands = Vec::new();
    let mut dst: Option<(String, RegClass)> = None;
    for spec in form.operands() {
        let single = match spec.kind {
            OperandKind::Reg(t) | OperandKind::RegOrImm(t) => Some(t),
            OperandKind::RegOneOf(ts) => ts.first().copied(),
            _ => None,
        };
        match (spec.role, spec.kind, single) {
            (Role::Dst, _, Some(t)) if dst.is_none() => {
                let c = class_of(t).ok_or_else(|| format!("destination `{}` is not a data register", spec.name))?;
                let r = fresh(c);
                operands.push(r.clone());
                dst = Some((r, c));
            }
            (Role::Src, _, Some(t)) => {
                let c = class_of(t).ok_or_else(|| format!("source `{}` is not a data register", spec.name))?;
                operands.push(load(c, &mut fresh));
            }
            (Role::Src, OperandKind::Vector(t, n), _) => {
                let c = class_of(t).ok_or_else(|| format!("source `{}` is not a data register", spec.name))?;
                let regs: Vec<String> = (0..n).map(|_| load(c, &mut fresh)).collect();
                operands.push(format!("{{{}}}", regs.join(", ")));
            }
            _ => return Err(format!("operand `{}` cannot be written in a case program", spec.name)),
        }
    }
    let (dst, dst_class) = dst.ok_or("the form has no register destination")?;
    let slots = source_slots(form);
    if slots.len() != loads.len() {
        return Err(format!("{} source slots for {} source registers", slots.len(), loads.len()));
    }
    let words_in = offset.div_ceil(4).next_multiple_of(4).max(4);
    let outputs = if dst_class == RegClass::B64 { 2 } else { 1 };

    let mut body = String::new();
    for (r, c, off) in &loads {
        let at = if *off == 0 { "[%in]".to_string() } else { format!("[%in+{off}]") };
        let _ = writeln!(body, "ld.global.b{} {r}, {at};", c.bits());
    }
    let _ = writeln!(body, "{} {};", form.opcode(), operands.join(", "));
    match dst_class {
        RegClass::B16 => {
            let _ = writeln!(body, "st.global.b16 [%out], {dst};\nst.global.b16 [%out+2], {dst};");
        }
        c => {
            let _ = writeln!(body, "st.global.b{} [%out], {dst};", c.bits());
        }
    }
    let names: Vec<String> = slots.iter().map(|s| s.name.clone()).collect();
    let mut inputs = String::new();
    for t in 0..THREADS {
        let i = indices.get(t as usize % indices.len()).copied().unwrap_or(first);
        let mut words = vec![0u32; words_in as usize];
        for ((slot, (_, value)), (_, _, off)) in slots.iter().zip(sweep_inputs(scheme, &names, i)).zip(&loads) {
            let v = if slot.width >= 128 { value } else { value & ((1u128 << slot.width) - 1) };
            let w = (*off / 4) as usize;
            words[w] = v as u32;
            if slot.width > 32 {
                words[w + 1] = (v >> 32) as u32;
            }
        }
        let hex: Vec<String> = words.iter().map(|w| format!("{w:08x}")).collect();
        let _ = writeln!(inputs, "// t{t}: {}", hex.join(" "));
    }
    // The case-file format of `oracle::program::text` (header, body markers, inputs block).
    let text = format!(
        "// ptxdiff-program name=conform target={target}@{} threads={THREADS} inputs={words_in} outputs={outputs} shared=0\n// begin body\n{body}// end body\n// ptxdiff-inputs\n{inputs}",
        target.ptx
    );
    let (p, i) = parse_case(&text).map_err(|e| format!("the case does not parse: {e}"))?;
    let printed = case(&p, &i);
    Ok((p, i, printed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use oracle::program::interp;
    use oracle::semantics::Allowances;

    fn form(op: &str) -> Form {
        Form::parse_opcode(op).unwrap()
    }

    /// Every sweepable form of a target gets a case that parses, and the oracle runs it: the
    /// destination of thread `t` is what the form gives on the sweep's inputs.
    #[test]
    fn every_sweepable_form_has_a_runnable_case() {
        let target: Target = "sm_90a@8.7".parse().unwrap();
        let mut n = 0;
        for f in crate::conform::select_forms(&target, None) {
            let Ok(k) = generator::sweep::sweep_kernel(&f, &target) else { continue };
            let (p, i, text) = case_text(&f, &target, k.scheme, &[0x7F80_0001, 3, 0x3F80_0000])
                .unwrap_or_else(|e| panic!("{}: {e}", f.opcode()));
            assert_eq!(parse_case(&text).unwrap(), (p.clone(), i.clone()));
            interp::run(&p, &i, &Allowances::all()).unwrap_or_else(|e| panic!("{}: {e}\n{text}", f.opcode()));
            n += 1;
        }
        assert!(n > 300, "{n} forms");
    }

    /// The forms ptxas takes only with `.b8` registers get them (loaded and stored as bytes).
    #[test]
    fn byte_register_forms_use_b8_registers() {
        let target: Target = "sm_90".parse().unwrap();
        for (op, load, store) in [
            ("cvt.rn.bf16.u8", "ld.global.b8 %c", "st.global.b16"),
            ("cvt.rzi.s8.bf16", "ld.global.b16 %h", "st.global.b8 [%out], %c"),
        ] {
            let (p, i, text) =
                case_text(&form(op), &target, Scheme::Exhaustive { bits: 16 }, &[0x00ff, 0x4300]).unwrap();
            assert!(text.contains(load) && text.contains(store), "{op}:\n{text}");
            interp::run(&p, &i, &Allowances::all()).unwrap_or_else(|e| panic!("{op}: {e}\n{text}"));
        }
    }

    #[test]
    fn sources_are_the_sweep_inputs() {
        let target: Target = "sm_90".parse().unwrap();
        let f = form("cvt.rna.tf32.f32");
        let (p, i, _) = case_text(&f, &target, Scheme::Exhaustive { bits: 32 }, &[0x7F80_0001, 5]).unwrap();
        assert_eq!((p.threads(), p.inputs, p.outputs), (32, 4, 1));
        assert_eq!(i.thread(&p, 0), &[0x7F80_0001, 0, 0, 0]);
        assert_eq!(i.thread(&p, 1), &[5, 0, 0, 0]);
        assert_eq!(i.thread(&p, 2), &[0x7F80_0001, 0, 0, 0]);
    }
}
