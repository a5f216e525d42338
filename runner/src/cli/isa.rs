//! `ptxdiff variants` (the forms valid on a target and per-family counts) and `ptxdiff
//! validity` (the validity table proven against ptxas).

use std::collections::BTreeMap;

use anyhow::{Context, Result};
use oracle::isa::{Family, Target};
use tabled::settings::Style;
use tabled::{Table, Tabled};

use crate::validity;

use super::{parse_family, parse_target, Format};

#[derive(Tabled)]
struct CountRow {
    family: &'static str,
    section: String,
    forms: usize,
}

/// `ptxdiff variants`: the per-family counts of the forms valid on `target`, and with
/// `list_forms` every form first (the requirement, then the template: no line is padded to the
/// longest template).
pub(super) fn variants(target: &str, family: Option<&str>, format: Format, list_forms: bool) -> Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let target = parse_target(target)?;
    let family = parse_family(family)?;
    let forms = oracle::isa::valid_forms(&target, family);
    let mut counts: BTreeMap<Family, usize> = BTreeMap::new();
    for (f, _) in &forms {
        *counts.entry(f.family()).or_default() += 1;
    }
    match format {
        Format::Json => {
            let rows: Vec<serde_json::Value> = forms
                .iter()
                .map(|(f, req)| {
                    serde_json::json!({
                        "family": f.family().name(),
                        "opcode": f.opcode(),
                        "template": f.template(),
                        "requirement": req.to_string(),
                    })
                })
                .collect();
            let doc = serde_json::json!({
                "target": target.name(),
                "ptx": target.ptx.to_string(),
                "counts": counts.iter().map(|(f, n)| (f.name(), *n)).collect::<BTreeMap<_, _>>(),
                "forms": if list_forms { rows } else { Vec::new() },
            });
            writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
        }
        Format::Table => {
            if list_forms {
                let reqs: Vec<String> = forms.iter().map(|(_, req)| req.to_string()).collect();
                let width = reqs.iter().map(|r| r.chars().count()).max().unwrap_or(0);
                for ((f, _), req) in forms.iter().zip(&reqs) {
                    writeln!(out, "{req:width$}  {}", f.template())?;
                }
                writeln!(out)?;
            }
            let mut rows: Vec<CountRow> = Family::ALL
                .iter()
                .filter(|f| family.is_none_or(|only| only == **f))
                .map(|f| CountRow {
                    family: f.name(),
                    section: format!("§{}", f.section()),
                    forms: counts.get(f).copied().unwrap_or(0),
                })
                .collect();
            rows.push(CountRow { family: "total", section: String::new(), forms: forms.len() });
            writeln!(out, "Forms valid on {} (PTX ISA {}):", target.name(), target.ptx)?;
            writeln!(out, "{}", Table::new(rows).with(Style::modern()))?;
        }
    }
    out.flush()?;
    Ok(())
}

#[derive(Tabled)]
struct ValidityRow {
    target: String,
    #[tabled(rename = "valid forms")]
    valid: usize,
    #[tabled(rename = "assembled")]
    accepted: usize,
    #[tabled(rename = "invalid sample")]
    invalid: usize,
    #[tabled(rename = "rejected")]
    rejected: usize,
    agreement: String,
}

pub(super) fn validity_cmd(
    targets: &str,
    family: Option<&str>,
    per_rule: usize,
    jobs: Option<usize>,
    format: Format,
) -> Result<bool> {
    let family = parse_family(family)?;
    let targets: Vec<Target> = targets.split(',').map(parse_target).collect::<Result<_>>()?;
    let ptxas = crate::backend::default_ptxas().map_err(anyhow::Error::msg)?;
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    eprintln!("ptxas: {} ({})", ptxas.path.display(), ptxas.version);
    let start = std::time::Instant::now();
    let reports =
        validity::check_targets(&ptxas, &targets, family, per_rule, jobs).context("checking validity against ptxas")?;
    let all_agree = reports.iter().all(|r| r.disagreements.is_empty());
    match format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({ "ptxas": ptxas.version, "reports": reports }))?
        ),
        Format::Table => {
            for r in &reports {
                for d in &r.disagreements {
                    println!("DISAGREE {} expected {:?}: {}\n    {}", d.target, d.expected, d.instruction, d.detail);
                }
            }
            let rows: Vec<ValidityRow> = reports
                .iter()
                .map(|r| {
                    let total = r.valid_checked + r.invalid_checked;
                    let agreed = r.valid_accepted + r.invalid_rejected;
                    ValidityRow {
                        target: r.target.clone(),
                        valid: r.valid_checked,
                        accepted: r.valid_accepted,
                        invalid: r.invalid_checked,
                        rejected: r.invalid_rejected,
                        agreement: format!("{:.2}%", 100.0 * agreed as f64 / total.max(1) as f64),
                    }
                })
                .collect();
            println!("{}", Table::new(rows).with(Style::modern()));
            println!("ptxas {} ; {:.1} s", ptxas.version, start.elapsed().as_secs_f64());
        }
    }
    Ok(all_agree)
}
