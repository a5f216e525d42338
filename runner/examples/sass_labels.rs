//! Names every read the SASS check flags in `nvdisasm -c` listings, as triage names its
//! `unwritten-register` finding, with and without the partly-written property
//! (`crate::sass::Unwritten::partly_written`): one line per flagged read, tab-separated,
//!
//!     FILE  OFFSET  KEY  SHAPE  partly|never  ID_BEFORE  NAME_BEFORE  ID_NOW  NAME_NOW
//!
//! where BEFORE is the signature without an input class matched against KNOWN_BEFORE (the
//! finding as a build without the property names it) and NOW the signature triage gives now
//! matched against KNOWN_NOW:
//!
//!     cargo run -p ptxdiff --example sass_labels -- KNOWN_BEFORE KNOWN_NOW LISTING…

use std::path::Path;

use anyhow::{bail, Context, Result};
use runner::findings::{FindingClass, KnownSet, Signature};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [before, now, listings @ ..] = args.as_slice() else {
        bail!("usage: sass_labels KNOWN_BEFORE KNOWN_NOW LISTING…");
    };
    let before = KnownSet::load(Path::new(before)).with_context(|| format!("loading {before}"))?;
    let now = KnownSet::load(Path::new(now)).with_context(|| format!("loading {now}"))?;
    let name = |k: &KnownSet, s: &Signature| k.matches(s).map_or("NEW".to_string(), |k| k.name.clone());
    for file in listings {
        let text = std::fs::read_to_string(file).with_context(|| format!("reading {file}"))?;
        // A trace's listing of instruction lines alone is one kernel.
        let text = if text.contains(".section") {
            text
        } else {
            format!(".section .text.k,\"ax\",@progbits\n.other k,@\"STO_CUDA_ENTRY STV_DEFAULT\"\nk:\n{text}")
        };
        let reads = runner::sass::check_listing(&text).with_context(|| format!("checking {file}"))?;
        for u in reads {
            let plain =
                Signature::new(FindingClass::UnwrittenRegister, &u.mnemonic, "", ["ptxas -O3"], u.roles.join("+"))
                    .with_shape(u.shape());
            let triaged = Signature { input_class: u.input_class().to_string(), ..plain.clone() };
            println!(
                "{file}\t{:04x}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                u.offset,
                u.key(),
                u.shape(),
                if u.partly_written { "partly" } else { "never" },
                plain.key(),
                name(&before, &plain),
                triaged.key(),
                name(&now, &triaged),
            );
        }
    }
    Ok(())
}
