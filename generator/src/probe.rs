//! Probe modules: one PTX module that uses many instruction forms, one per line, with
//! well-typed operands, so that a single `ptxas` run says which forms the assembler accepts
//! for a target.
//!
//! Every operand kind of the ISA model ([`OperandKind`]) maps to a declared register, symbol
//! or immediate of the right type and state space: registers come from per-type pools
//! (`%f32_0`, `%b16_3`, …), memory operands point at module-scope buffers (`gbuf`, `sbuf`,
//! `cbuf`), a local buffer (`lbuf`), the kernel parameter `kparam`, or a `.param` variable
//! declared in the device function's body (`floc`). Forms whose operands only exist inside a device function
//! (`.param::func`) are placed in the `.func`, the rest in the `.entry`. The values are
//! meaningless: probes are assembled, never run.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use oracle::isa::operand::{AddrKind, OperandKind, TensormapSpace};
use oracle::isa::qualifier::Qualifier;
use oracle::isa::symbol_name;
use oracle::isa::types::RegType;
use oracle::isa::{Form, OperandSpec, Target};

/// Name of the probe kernel (the [`symbol_name`] of a kernel symbol).
pub const KERNEL: &str = "probe_kernel";
/// Name of the probe device function (the [`symbol_name`] of a function symbol).
pub const FUNCTION: &str = "probe_fn";
/// Registers declared per type; operand slot `i` of an instruction uses register `i`.
const POOL: usize = 12;

/// A probe module and where each form landed.
#[derive(Clone, Debug)]
pub struct Probe {
    /// The PTX text.
    pub text: String,
    /// `lines[i]` is the 1-based line number of the i-th form's instruction.
    pub lines: Vec<usize>,
}

impl Probe {
    /// The index of the form whose instruction is on `line`, if any.
    pub fn form_at_line(&self, line: usize) -> Option<usize> {
        self.lines.iter().position(|&l| l == line)
    }
}

fn reg(t: RegType, i: usize) -> String {
    format!("%{}_{}", t.token(), i % POOL)
}

/// The operand text for slot `i` of kind `k`.
fn operand_text(k: &OperandKind, i: usize, regs: &mut BTreeSet<RegType>) -> String {
    let mut r = |t: RegType, j: usize| {
        regs.insert(t);
        reg(t, j)
    };
    match *k {
        OperandKind::Reg(t) | OperandKind::RegOrImm(t) => r(t, i),
        OperandKind::RegOneOf(ts) => r(ts[0], i),
        OperandKind::Imm(v) => v.to_string(),
        OperandKind::Vector(t, n) => {
            let items: Vec<String> = (0..n as usize).map(|j| r(t, i + j)).collect();
            format!("{{{}}}", items.join(", "))
        }
        OperandKind::RegWithPred(t) => {
            let d = r(t, i);
            format!("{d}|{}", r(RegType::Pred, i))
        }
        OperandKind::Pred => r(RegType::Pred, i),
        OperandKind::SpecialReg(t) => match t.bits() {
            64 => "%globaltimer".into(),
            _ => "%tid.x".into(),
        },
        OperandKind::Addr(AddrKind::GlobalUnified) => {
            format!("[{}].unified", r(RegType::B64, POOL - 1))
        }
        OperandKind::Addr(a) => format!("[{}]", address_base(a, &mut r)),
        OperandKind::TensorRef(n) => {
            let coords: Vec<String> = (0..n as usize).map(|j| r(RegType::S32, i + j)).collect();
            format!("[{}, {{{}}}]", r(RegType::B64, POOL - 1), coords.join(", "))
        }
        OperandKind::Symbol(s) => symbol_name(s).into(),
        OperandKind::Sink => "_".into(),
    }
}

fn address_base(a: AddrKind, r: &mut impl FnMut(RegType, usize) -> String) -> String {
    match a {
        AddrKind::Generic
        | AddrKind::Global
        | AddrKind::GlobalUnified
        | AddrKind::MbarrierGeneric
        | AddrKind::Tensormap
        | AddrKind::TensormapSpace(TensormapSpace::Generic | TensormapSpace::Global) => r(RegType::B64, POOL - 1),
        AddrKind::SharedCta | AddrKind::SharedCluster | AddrKind::TensormapSpace(TensormapSpace::SharedCta) => {
            "sbuf".into()
        }
        AddrKind::Mbarrier => "mbar".into(),
        AddrKind::Local => "lbuf".into(),
        AddrKind::Const => "cbuf".into(),
        AddrKind::ParamEntry => "kparam".into(),
        // A `.param` declared in the function body: ptxas rejects stores to the function's
        // own input parameters ("Illegal to write to function input parameter") and accepts
        // both loads and stores here.
        AddrKind::ParamFunc => "floc".into(),
    }
}

/// The instruction text for `form` with probe operands; also reports whether it must live in
/// the device function.
pub fn instruction_text(form: &Form, regs: &mut BTreeSet<RegType>) -> (String, bool) {
    instruction_text_with(form, &form.operands(), regs)
}

/// Like [`instruction_text`], with operand slots that may differ from the form's own (to
/// probe operands the model rejects, such as a register narrower than its slot).
pub fn instruction_text_with(form: &Form, specs: &[OperandSpec], regs: &mut BTreeSet<RegType>) -> (String, bool) {
    let mut in_func = false;
    let mut ops = Vec::with_capacity(specs.len());
    let mut slot = 0;
    for s in specs {
        if s.kind == OperandKind::Addr(AddrKind::ParamFunc) {
            in_func = true;
        }
        ops.push(operand_text(&s.kind, slot, regs));
        slot += match s.kind {
            OperandKind::Vector(_, n) => n as usize,
            OperandKind::TensorRef(n) => n as usize,
            _ => 1,
        };
    }
    let text =
        if ops.is_empty() { format!("{};", form.opcode()) } else { format!("{} {};", form.opcode(), ops.join(", ")) };
    (text, in_func)
}

/// Builds one probe module for `target` containing every form in `forms`.
pub fn probe_module(target: &Target, forms: &[Form]) -> Probe {
    let items: Vec<(Form, Vec<OperandSpec>)> = forms.iter().map(|f| (f.clone(), f.operands())).collect();
    probe_module_with(target, &items)
}

/// Builds one probe module with explicit operand slots for each form.
pub fn probe_module_with(target: &Target, items: &[(Form, Vec<OperandSpec>)]) -> Probe {
    let forms = items;
    let mut regs = BTreeSet::new();
    regs.insert(RegType::B64);
    let mut kernel_lines = Vec::new();
    let mut func_lines = Vec::new();
    for (i, (f, specs)) in items.iter().enumerate() {
        let (text, in_func) = instruction_text_with(f, specs, &mut regs);
        if in_func {
            func_lines.push((i, text));
        } else {
            kernel_lines.push((i, text));
        }
    }
    let mut out = String::new();
    let mut lines = vec![0; forms.len()];
    let mut line_no = 0;
    let mut emit = |out: &mut String, s: &str| {
        out.push_str(s);
        out.push('\n');
        line_no += 1;
        line_no
    };
    emit(&mut out, &format!(".version {}", target.ptx));
    emit(&mut out, &format!(".target {}", target.name()));
    emit(&mut out, ".address_size 64");
    emit(&mut out, ".global .align 128 .b8 gbuf[4096];");
    emit(&mut out, ".const .align 128 .b8 cbuf[4096];");
    emit(&mut out, ".shared .align 128 .b8 sbuf[4096];");
    emit(&mut out, ".shared .align 8 .b64 mbar;");
    let mut decls = String::new();
    for t in &regs {
        let _ = write!(decls, ".reg .{} %{}_<{POOL}>; ", t.token(), t.token());
    }
    emit(&mut out, &format!(".func {FUNCTION}(.param .align 128 .b8 fparam[256])"));
    emit(&mut out, "{");
    emit(&mut out, &decls);
    emit(&mut out, ".local .align 128 .b8 lbuf[256];");
    emit(&mut out, ".param .align 128 .b8 floc[256];");
    for (i, text) in &func_lines {
        lines[*i] = emit(&mut out, text);
    }
    emit(&mut out, "ret;");
    emit(&mut out, "}");
    emit(&mut out, &format!(".visible .entry {KERNEL}(.param .align 128 .b8 kparam[256])"));
    emit(&mut out, "{");
    emit(&mut out, &decls);
    emit(&mut out, ".local .align 128 .b8 lbuf[256];");
    for (i, text) in &kernel_lines {
        lines[*i] = emit(&mut out, text);
    }
    emit(&mut out, "ret;");
    emit(&mut out, "}");
    Probe { text: out, lines }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oracle::isa::Instruction;

    #[test]
    fn probe_lines_parse_back_to_their_forms() {
        let target: Target = "sm_90a".parse().unwrap();
        let forms: Vec<Form> = oracle::isa::valid_forms(&target, None).into_iter().map(|(f, _)| f).collect();
        assert!(!forms.is_empty());
        let probe = probe_module(&target, &forms);
        let text_lines: Vec<&str> = probe.text.lines().collect();
        for (form, &line) in forms.iter().zip(&probe.lines) {
            let text = text_lines[line - 1];
            let mut parsed: Instruction = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            // The text does not carry the type of `cp.async`'s fourth operand: the pool
            // register's name does (§9.7.9.25.3.1: a predicate is ignore-src).
            if let (Form::CpAsync(c), Some(oracle::isa::operand::Operand::Name(r))) =
                (&parsed.form, parsed.operands.get(3))
            {
                parsed.form = Form::CpAsync(c.with_src_register(r.starts_with("%pred")));
            }
            assert_eq!(&parsed.form, form, "{text}");
            assert_eq!(parsed.to_string(), text);
        }
    }
}
