//! Labels every finding of a stored run again, as triage would now (`runner::fuzz::retriage`):
//!
//!     cargo run -p ptxdiff --example retriage -- RUN_DIR [KNOWN_DIR] [--ptxas PTXAS]
//!
//! A word disagreement is run from `RUN_DIR/cases/ID.case` with its stored mismatching words;
//! with `--ptxas` (the campaign's ptxas version: the same SASS), its case is assembled at -O3
//! and its kernel's SASS checked (nvdisasm as `sass-check` finds it), so that a word a flagged
//! store wrote from undefined bits is labelled by that unwritten-register finding (without it,
//! as the run directory holds no SASS of a word finding, such words are unexplained) and that
//! an emulation whose known entry names a `sass_witness` explains -O3 words only where the
//! kernel has it (without `--ptxas` such emulations apply as in a campaign without a listing);
//! an `unwritten-register` finding is checked again on its kernel's -O3 listing, from its
//! bundle (`RUN_DIR/bundles/ID/sass-O3.txt`) where there is one, else from the listing in its
//! message (cut at 4,000 characters: such a finding is labelled from a partial kernel, and the
//! line says so; where the cut comes before the flagged instruction it is `undetermined`); a
//! crash or rejection is matched by its stored signature, and with `--ptxas` a crash no entry
//! names by key is also checked against the entries' crash mechanisms (`[crash_by_sass]`,
//! `runner::fuzz::known_crash`: its case's kernel checked at the crashing backend's level, -O3
//! standing in where an entry says so for the JIT; the line says `by its SASS`); an optimizing
//! ptxas's crash is also known beside another crash of the run with the same PTX (one program's
//! crashes in its batch) that an entry with `ptxas_crash_beside` matches (`KnownSet::
//! crash_known_beside`; the line says `beside its JIT crash`). Prints one line
//! per finding and the counts; writes nothing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use oracle::program::text::parse_case;
use oracle::program::Program;
use oracle::semantics::Allowances;
use runner::findings::store::FindingsDoc;
use runner::findings::{FindingClass, KnownSet};
use runner::fuzz::engine::SassCheck;
use runner::fuzz::known_crash::{program_crash_known_by_sass, CrashCheck};
use runner::fuzz::retriage::{label_listing, label_words, Label};
use runner::ptxas::Ptxas;
use runner::sass::witness::witnessed_in_listing;
use runner::sass::{function_listing, Checker};

fn main() -> Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let ptxas = match args.iter().position(|a| a == "--ptxas") {
        Some(k) if k + 1 < args.len() => {
            let path = args.remove(k + 1);
            args.remove(k);
            let ptxas = Ptxas::at(Path::new(&path)).with_context(|| format!("ptxas {path}"))?;
            Some((ptxas, Checker::find().context("nvdisasm for --ptxas")?))
        }
        Some(_) => bail!("--ptxas needs a path"),
        None => None,
    };
    let Some(run) = args.first().map(PathBuf::from) else {
        bail!("usage: retriage RUN_DIR [KNOWN_DIR] (RUN_DIR holds findings.json and cases/)");
    };
    let known_dir = args.get(1).map(PathBuf::from).unwrap_or_else(|| Path::new("corpus/known").to_path_buf());
    let known = KnownSet::load(&known_dir).with_context(|| format!("loading {}", known_dir.display()))?;
    let doc = FindingsDoc::load(&run).with_context(|| format!("loading the findings of {}", run.display()))?;
    let witnesses = known.emulation_scopes().sass_witnesses();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for f in &doc.findings {
        let sig = &f.signature;
        let (label, note) = match sig.class {
            FindingClass::UnwrittenRegister => {
                let bundle = run.join("bundles").join(&f.id).join("sass-O3.txt");
                let message = f.message.as_deref().unwrap_or("");
                let (listing, note) = match std::fs::read_to_string(&bundle) {
                    Ok(text) => (strip_marks(&text), ""),
                    Err(_) => (message_listing(message)?, " (partial listing from the message)"),
                };
                let flagged = message.lines().next().and_then(|l| l.split_once("/*")).map(|(_, r)| r);
                let offset = flagged.and_then(|r| r.split_once("*/")).map(|(o, _)| format!("/*{o}*/"));
                if offset.is_some_and(|o| !listing.contains(&o)) {
                    *counts.entry("undetermined".to_string()).or_default() += 1;
                    println!(
                        "{} {} {}: undetermined (the message's listing ends before it)",
                        f.id, sig.class, sig.form
                    );
                    continue;
                }
                let by = sig.backends.first().cloned().unwrap_or_else(|| "ptxas -O3".into());
                (label_listing(&listing, &by, &known).with_context(|| format!("finding {}", f.id))?, note)
            }
            FindingClass::Crash | FindingClass::AssemblerRejection => match known.matches(sig) {
                Some(k) => (Label::Known(vec![k.name.clone()]), ""),
                None => match known.crash_known_beside(sig, &crash_siblings(&doc, &f.ptx)) {
                    Some(k) => (Label::Known(vec![k.name.clone()]), " (beside its JIT crash)"),
                    None => match ptxas.as_ref().and_then(|(p, c)| crash_by_sass(&run, &f.id, sig, &known, p, c)) {
                        Some(name) => (Label::Known(vec![name]), " (by its SASS)"),
                        None => (Label::New(vec![sig.clone()]), ""),
                    },
                },
            },
            _ => {
                let path = run.join("cases").join(format!("{}.case", f.id));
                let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
                let (p, i) = parse_case(&text).with_context(|| format!("parsing {}", path.display()))?;
                let sass = match &ptxas {
                    Some((ptxas, checker)) => vec![sass_check(ptxas, checker, &p, &witnesses)?],
                    None => Vec::new(),
                };
                match label_words(&p, &i, sig, &f.mismatches, &known, &Allowances::all(), sass) {
                    Ok(label) => (label, ""),
                    // Stored by an older build with words its case does not hold (a reduced case
                    // whose final run no longer showed it): said, and the next finding labelled.
                    Err(e) => {
                        *counts.entry("undetermined".to_string()).or_default() += 1;
                        println!("{} {} {}: undetermined ({e:#})", f.id, sig.class, sig.form);
                        continue;
                    }
                }
            }
        };
        let short = match &label {
            Label::Known(names) => format!("known: {}", names.join(" + ")),
            Label::New(sigs) => {
                format!("NEW: {}", sigs.iter().map(ToString::to_string).collect::<Vec<_>>().join(" | "))
            }
            Label::Gone => "gone".to_string(),
        };
        let kind = match &label {
            Label::Known(_) => "known",
            Label::New(_) => "new",
            Label::Gone => "gone",
        };
        *counts.entry(kind.to_string()).or_default() += 1;
        println!("{} {} {}: {short}{note}", f.id, sig.class, sig.form);
    }
    println!("{} findings: {counts:?}", doc.findings.len());
    Ok(())
}

/// The signatures of the crash findings of `doc` whose program is `ptx` (one program's crashes
/// in its batch, as triage sees them).
fn crash_siblings(doc: &FindingsDoc, ptx: &str) -> Vec<runner::findings::Signature> {
    doc.findings
        .iter()
        .filter(|g| g.signature.class == FindingClass::Crash && g.ptx == ptx)
        .map(|g| g.signature.clone())
        .collect()
}

/// The SASS check of program `p`'s kernel assembled by `ptxas -O3`, as a campaign's engine
/// records it (the listing only when something is flagged; which of the `witnesses` globs the
/// kernel has).
fn sass_check(ptxas: &Ptxas, checker: &Checker, p: &Program, witnesses: &[String]) -> Result<SassCheck> {
    let (listing, reads) = checker
        .check_ptx(ptxas, &p.module_text(), &p.target.name(), 3)
        .with_context(|| format!("the SASS check of {}", p.name))?;
    let reads: Vec<_> = reads.into_iter().filter(|u| u.kernel == p.name).collect();
    let witnessed = witnessed_in_listing(&listing, &p.name, witnesses)
        .with_context(|| format!("the SASS witnesses of {}", p.name))?;
    let listing = if reads.is_empty() {
        String::new()
    } else {
        function_listing(&listing, &p.name).unwrap_or_default().to_string()
    };
    Ok(SassCheck { by: "ptxas -O3".into(), reads, listing, witnessed })
}

/// The known entry whose crash mechanism explains the crash `sig` of finding `id` of `run`
/// (its case's kernel checked by `ptxas` at the levels the entry names); `None` when none
/// does, or when the case is not a register program or the check cannot run (said on stderr).
fn crash_by_sass(
    run: &Path,
    id: &str,
    sig: &runner::findings::Signature,
    known: &KnownSet,
    ptxas: &Ptxas,
    checker: &Checker,
) -> Option<String> {
    if known.crash_levels(sig).is_empty() {
        return None;
    }
    let path = run.join("cases").join(format!("{id}.case"));
    let parsed = std::fs::read_to_string(&path).map_err(anyhow::Error::from).and_then(|t| Ok(parse_case(&t)?));
    let (p, _) = parsed.map_err(|e| eprintln!("{id}: no register case to check ({}): {e:#}", path.display())).ok()?;
    let check = CrashCheck { ptxas: ptxas.clone(), checker: checker.clone() };
    match program_crash_known_by_sass(known, sig, &p, &check) {
        Ok(k) => k.map(|k| k.name.clone()),
        Err(e) => {
            eprintln!("{id}: the SASS check of its case could not run: {e}");
            None
        }
    }
}

/// A bundle's listing without its `<< only at this level` marks.
fn strip_marks(text: &str) -> String {
    text.lines().map(|l| l.split("    <<").next().unwrap_or(l)).collect::<Vec<_>>().join("\n")
}

/// The kernel listing in an `unwritten-register` finding's message (`SASS of ptxas -O3:` and
/// the instruction lines, flagged ones marked `>>`), as an `nvdisasm -c` listing of the kernel
/// the message's first line names.
fn message_listing(message: &str) -> Result<String> {
    let first = message.lines().next().unwrap_or("");
    let Some(kernel) = first.split_once(": ").and_then(|(_, rest)| rest.split_whitespace().next()) else {
        bail!("no kernel named in the message's first line `{first}`");
    };
    let mut out = format!(
        ".section .text.{kernel},\"ax\",@progbits\n.other {kernel},@\"STO_CUDA_ENTRY STV_DEFAULT\"\n{kernel}:\n"
    );
    let body = message.split_once("SASS of").map_or("", |(_, b)| b);
    for line in body.lines().skip(1) {
        let l = line.trim_start_matches(">>").trim();
        if l.starts_with("/*") && l.ends_with(';') {
            out.push_str(l);
            out.push('\n');
        }
    }
    Ok(out)
}
