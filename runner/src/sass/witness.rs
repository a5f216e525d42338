//! SASS witnesses: which of the `sass_witness` globs of `corpus/known/` entries
//! ([`crate::findings::Known::sass_witness`]) a kernel's listing has. A glob is matched against
//! each instruction's mnemonic with its modifiers as [`super::parse`] reads it
//! (`F2I.U8.F16.NTZ`, `F2IP.S8.F32.TRUNC.NTZ`; no guard, no operands), with [`crate::glob`]'s
//! syntax. The one place that decides whether a kernel has a witness: the engine's SASS check
//! of each -O3 module and the offline relabelling ([`crate::fuzz::retriage`]) both use it.

use std::collections::BTreeSet;

use super::parse::{parse_listing, Function, ParseError};
use crate::glob::glob_match;

/// The globs of `globs` that some instruction of `function` matches.
pub fn witnessed(function: &Function, globs: &[String]) -> BTreeSet<String> {
    globs.iter().filter(|g| function.instrs.iter().any(|i| glob_match(g, &i.mnemonic))).cloned().collect()
}

/// [`witnessed`] for kernel `kernel` of an `nvdisasm -c` listing (a kernel the listing lacks
/// has none).
pub fn witnessed_in_listing(listing: &str, kernel: &str, globs: &[String]) -> Result<BTreeSet<String>, ParseError> {
    if globs.is_empty() {
        return Ok(BTreeSet::new());
    }
    let functions = parse_listing(listing)?;
    Ok(functions.iter().find(|f| f.entry && f.name == kernel).map(|f| witnessed(f, globs)).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LISTING: &str = "\t.section\t.text.k,\"ax\",@progbits\n\t.sectionflags\t@\"SHF_BARRIERS=0\"\n\
        \t.sectioninfo\t@\"SHI_REGISTERS=8\"\n\t.align\t128\n.text.k:\n        .type           k,@function\n\
        \t.other\tk,@\"STO_CUDA_ENTRY STV_DEFAULT\"\nk:\n\
        /*0000*/ LDC R1, c[0x0][0x28] ;\n/*0010*/ F2I.U8.F16.TRUNC.NTZ R0, R0 ;\n/*0020*/ EXIT ;\n";

    #[test]
    fn a_glob_matches_the_mnemonic_with_its_modifiers() {
        let globs = vec!["F2I*.{U8,S8}.*".to_string(), "F2I.U32*".to_string()];
        let w = witnessed_in_listing(LISTING, "k", &globs).unwrap();
        assert_eq!(w, BTreeSet::from(["F2I*.{U8,S8}.*".to_string()]));
        assert!(witnessed_in_listing(LISTING, "other", &globs).unwrap().is_empty());
    }
}
