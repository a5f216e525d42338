//! The signature fields read off the evidence, shared by every pipeline (fuzz programs and
//! conform sweeps): the class of the input that shows a difference, and the gist of an
//! assembler's rejection message.
//!
//! Invariant: both are pure functions of their arguments and part of every finding's key, so
//! changing either changes signatures (and orphans stored findings and `corpus/known/` ids).

use oracle::isa::Form;
use oracle::num::classify;
use oracle::semantics::cvt::format_of;
use oracle::semantics::Expected;

/// A rejection message reduced to its gist: no line numbers, no register or entry names.
pub fn gist(message: &str) -> String {
    let line = message.lines().find(|l| l.contains("error")).unwrap_or(message.lines().next().unwrap_or(""));
    let after = line.rsplit_once(": ").map_or(line, |(_, m)| m);
    let cleaned: String = after
        .split_whitespace()
        .filter(|w| !w.contains('%') && !w.starts_with("'p") && !w.chars().any(|c| c.is_ascii_digit()))
        .collect::<Vec<_>>()
        .join(" ");
    cleaned.chars().take(80).collect()
}

/// Every name [`input_class`] gives, and `""` (a finding without an input: a crash, a
/// rejection).
pub const INPUT_CLASSES: [&str; 11] = [
    "",
    "set",
    "zero",
    "subnormal",
    "normal",
    "inf",
    "nan",
    "int-limit",
    "int",
    crate::sass::PARTLY_WRITTEN,
    crate::sass::NEVER_WRITTEN_CARRY,
];

/// The class of a source value: by the cvt's source format (the oracle's one classification,
/// `oracle::num::classify`), else as an integer.
pub fn input_class(form: Option<&Form>, v: &Expected) -> String {
    if !v.is_exact() {
        return "set".into();
    }
    if let Some(Form::Cvt(c)) = form {
        if let Some(fmt) = format_of(c.atype) {
            return classify(fmt, v.bits as u64).name().into();
        }
    }
    let w = v.width.min(64);
    let m = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
    let b = v.bits as u64 & m;
    if b == 0 {
        "zero".into()
    } else if b == m || b == m >> 1 || b == (m >> 1) + 1 || b == 1 {
        "int-limit".into()
    } else {
        "int".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gists_drop_names_and_numbers() {
        let m = "ptxas /tmp/x.ptx, line 12; error   : Arguments mismatch for instruction 'mov' at %r12";
        assert_eq!(gist(m), "Arguments mismatch for instruction 'mov' at");
    }

    #[test]
    fn input_classes_are_listed() {
        let cvt: Form = Form::parse_opcode("cvt.rn.f16.f32").unwrap();
        for (form, bits) in
            [(Some(&cvt), 0x7FC0_0000u128), (Some(&cvt), 1), (Some(&cvt), 0x3F80_0000), (None, 5), (None, 1), (None, 0)]
        {
            assert!(INPUT_CLASSES.contains(&input_class(form, &Expected::exact(bits, 32)).as_str()));
        }
        let set = Expected::any(32, oracle::semantics::Allowance::Undefined);
        assert!(INPUT_CLASSES.contains(&input_class(None, &set).as_str()));
    }

    #[test]
    fn input_classes() {
        let cvt: Form = Form::parse_opcode("cvt.rn.f16.f32").unwrap();
        let c = |b: u128| input_class(Some(&cvt), &Expected::exact(b, 32));
        assert_eq!((c(0x7FC0_0000).as_str(), c(0xFF80_0000).as_str(), c(0x8000_0000).as_str()), ("nan", "inf", "zero"));
        assert_eq!((c(1).as_str(), c(0x3F80_0000).as_str()), ("subnormal", "normal"));
        assert_eq!(input_class(None, &Expected::exact(0x7FFF_FFFF, 32)), "int-limit");
        assert_eq!(input_class(None, &Expected::exact(12345, 32)), "int");
    }
}
