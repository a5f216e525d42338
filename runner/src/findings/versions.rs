//! ptxas version verdicts: from one finding's per-backend outcomes, which ptxas versions (at
//! which optimization levels) agree with the oracle and which do not, told in one line —
//! "wrong in 13.0 -O3, right in 13.5: fixed in 13.5", "right in 12.8, wrong in 13.0: regressed
//! in 13.0", "wrong in every version (…)", "JIT only: …".
//!
//! A backend or assembly name says which ptxas it stands for ([`tool_of`]: `cuda:ptxas-13.0-O3`,
//! the assembly `ptxas-13.0 -O3`, `ptxas-check-13.0`, `cuda:jit`); the ptxas found without a
//! `--ptxas` label is named by its release, read from the run's environment line `ptxas`.
//! Versions are ordered numerically ([`crate::ptxas::compare_versions`]: 12.10 > 12.9).
//!
//! Invariants: a verdict speaks only of the backends that took part in the finding's run; with
//! no ptxas among them there is no verdict (`None`), and a finding every ptxas gets right and no
//! JIT gets wrong has none either.

use std::cmp::Ordering;

use crate::ptxas::{compare_versions, release};

/// What a backend or assembly name stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tool {
    /// An offline ptxas: its version label and the optimization level (`None`: the name does
    /// not say, as `ptxas-check-13.0`, which assembles at every level).
    Ptxas {
        /// The `--ptxas` label, or the found ptxas's release.
        version: String,
        /// `-O0`, `-O3`.
        level: Option<u8>,
    },
    /// The driver's JIT.
    Jit,
}

/// The ptxas (or JIT) that the backend or assembly `name` stands for; `found` names the ptxas
/// without a `--ptxas` label (its release; `found` when unknown). `None` for backends that are
/// neither (the oracle, the oracle worker).
pub fn tool_of(name: &str, found: Option<&str>) -> Option<Tool> {
    if name == crate::backend::cuda::JIT {
        return Some(Tool::Jit);
    }
    let rest = ["cuda:ptxas", crate::backend::ptxas_check::NAME, "ptxas"].iter().find_map(|p| name.strip_prefix(p))?;
    // What is left: [-LABEL][-On | ` -On`] (labels hold no `-` or space).
    let (label, level) = match rest.rfind(['-', ' ']).map(|i| (&rest[..i], &rest[i + 1..])) {
        Some((head, lvl)) if lvl.len() >= 2 && lvl.starts_with('O') && lvl[1..].bytes().all(|b| b.is_ascii_digit()) => {
            (head.trim_end(), lvl[1..].parse::<u8>().ok())
        }
        _ => (rest, None),
    };
    let version = match label.strip_prefix('-') {
        Some(l) if !l.is_empty() && !l.contains(['-', ' ']) => l.to_string(),
        None if label.is_empty() => found.unwrap_or("found").to_string(),
        _ => return None,
    };
    Some(Tool::Ptxas { version, level })
}

/// The release of the ptxas found without a label, from a run's environment lines (the
/// `ptxas` line: `Cuda compilation tools, release 13.5, V13.5.37`).
pub fn found_release(env: &[(String, String)]) -> Option<String> {
    env.iter().find(|(k, _)| k == "ptxas").and_then(|(_, v)| release(v))
}

/// The per-backend outcomes of one program's finding: `(name, right)` for every backend or
/// assembly that took part. `wrong` are the finding's own backends; for a disagreement
/// (`mismatch`) every other backend in `observed` agreed with the oracle; for a failure (a
/// rejection, a crash) every backend or assembly in `failed` failed too, and those in
/// `observed` ran it. An assembler failure (its backends are assemblies, `ptxas-13.0 -O3`)
/// also counts every ptxas of `env` as right at each level of [`crate::backend::cuda::LEVELS`]
/// where it did not fail: every default backend set assembles at all of them.
pub fn outcomes(
    wrong: &[String],
    mismatch: bool,
    observed: &[&str],
    failed: &[&str],
    env: &[(String, String)],
) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = Vec::new();
    let mut add = |name: &str, right: bool| {
        if !out.iter().any(|(n, _)| n == name) {
            out.push((name.to_string(), right));
        }
    };
    for w in wrong {
        add(w, false);
    }
    if !mismatch {
        for f in failed {
            add(f, false);
        }
    }
    for o in observed {
        add(o, true);
    }
    let assembler = !mismatch && !wrong.is_empty() && wrong.iter().all(|w| w.starts_with("ptxas"));
    if assembler {
        for (k, _) in env {
            let Some(suffix) = k.strip_prefix("ptxas") else { continue };
            if !suffix.is_empty() && !suffix.starts_with('-') {
                continue;
            }
            for opt in crate::backend::cuda::LEVELS {
                add(&format!("{k} -O{opt}"), true);
            }
        }
    }
    out
}

/// One version's outcomes: the levels it got wrong and right (`None`: a name without a level).
struct Version {
    version: String,
    wrong: Vec<Option<u8>>,
    right: Vec<Option<u8>>,
}

impl Version {
    fn is_wrong(&self) -> bool {
        !self.wrong.is_empty()
    }

    /// `13.0`, or `13.0 -O3` when it is wrong at some levels and right at others.
    fn wrong_text(&self) -> String {
        let levels: Vec<String> = self.wrong.iter().flatten().map(|l| format!("-O{l}")).collect();
        if self.right.is_empty() || levels.is_empty() {
            self.version.clone()
        } else {
            format!("{} {}", self.version, levels.join(" "))
        }
    }
}

/// The one-line verdict on `outcomes` (`(backend or assembly name, right)`, as [`outcomes`]
/// gives them); `found` names the unlabelled ptxas (see [`tool_of`]). `None` when no ptxas took
/// part, or when every ptxas was right and no JIT was wrong.
pub fn verdict(outcomes: &[(String, bool)], found: Option<&str>) -> Option<String> {
    let mut versions: Vec<Version> = Vec::new();
    let mut jit: Option<bool> = None;
    for (name, right) in outcomes {
        match tool_of(name, found) {
            Some(Tool::Jit) => jit = Some(jit.unwrap_or(true) && *right),
            Some(Tool::Ptxas { version, level }) => {
                let i = match versions.iter().position(|v| v.version == version) {
                    Some(i) => i,
                    None => {
                        versions.push(Version { version, wrong: Vec::new(), right: Vec::new() });
                        versions.len() - 1
                    }
                };
                let v = &mut versions[i];
                let side = if *right { &mut v.right } else { &mut v.wrong };
                if !side.contains(&level) {
                    side.push(level);
                    side.sort_unstable();
                }
            }
            None => {}
        }
    }
    if versions.is_empty() {
        return None;
    }
    versions.sort_by(|a, b| compare_versions(&a.version, &b.version));
    let (wrong, right): (Vec<&Version>, Vec<&Version>) = versions.iter().partition(|v| v.is_wrong());
    let list = |vs: &[&Version], f: fn(&Version) -> String| vs.iter().map(|v| f(v)).collect::<Vec<_>>().join(", ");
    let wrong_list = list(&wrong, Version::wrong_text);
    let right_list = list(&right, |v| v.version.clone());
    let jit_note = match jit {
        Some(true) => "; JIT right",
        Some(false) => "; JIT wrong",
        None => "",
    };
    let newest = |vs: &[&Version]| vs.last().map(|v| v.version.clone()).unwrap_or_default();
    let oldest = |vs: &[&Version]| vs.first().map(|v| v.version.clone()).unwrap_or_default();
    Some(if wrong.is_empty() {
        if jit != Some(false) {
            return None;
        }
        format!("JIT only: every ptxas right ({right_list})")
    } else if right.is_empty() {
        if versions.len() == 1 {
            format!("wrong in {wrong_list}{jit_note}")
        } else {
            format!("wrong in every version ({wrong_list}){jit_note}")
        }
    } else if compare_versions(&newest(&wrong), &oldest(&right)) == Ordering::Less {
        format!("wrong in {wrong_list}, right in {right_list}: fixed in {}{jit_note}", oldest(&right))
    } else if compare_versions(&newest(&right), &oldest(&wrong)) == Ordering::Less {
        format!("right in {right_list}, wrong in {wrong_list}: regressed in {}{jit_note}", oldest(&wrong))
    } else {
        format!("wrong in {wrong_list}, right in {right_list}: no single fix or regression{jit_note}")
    })
}

/// The verdict of one program's finding (see [`outcomes`] and [`verdict`]; the unlabelled
/// ptxas is named by the release in `env`).
pub fn program_verdict(
    wrong: &[String],
    mismatch: bool,
    observed: &[&str],
    failed: &[&str],
    env: &[(String, String)],
) -> Option<String> {
    verdict(&outcomes(wrong, mismatch, observed, failed, env), found_release(env).as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(pairs: &[(&str, bool)]) -> Option<String> {
        let o: Vec<(String, bool)> = pairs.iter().map(|(n, r)| (n.to_string(), *r)).collect();
        verdict(&o, Some("13.5"))
    }

    #[test]
    fn names_say_which_ptxas_and_level() {
        let p = |v: &str, l: Option<u8>| Some(Tool::Ptxas { version: v.into(), level: l });
        assert_eq!(tool_of("cuda:ptxas-13.0-O3", None), p("13.0", Some(3)));
        assert_eq!(tool_of("cuda:ptxas-O0", Some("13.5")), p("13.5", Some(0)));
        assert_eq!(tool_of("cuda:ptxas-O0", None), p("found", Some(0)));
        assert_eq!(tool_of("ptxas-12.8 -O3", None), p("12.8", Some(3)));
        assert_eq!(tool_of("ptxas -O0", Some("13.5")), p("13.5", Some(0)));
        assert_eq!(tool_of("ptxas-check-12.10", None), p("12.10", None));
        assert_eq!(tool_of("ptxas-check-13.0-O3", None), p("13.0", Some(3)));
        assert_eq!(tool_of("ptxas-check", Some("13.5")), p("13.5", None));
        assert_eq!(tool_of("cuda:jit", None), Some(Tool::Jit));
        assert_eq!(tool_of("oracle", None), None);
        assert_eq!(tool_of("oracle-worker", None), None);
        // The names the backends and assemblies are given read back as their ptxas.
        let names = crate::backend::cuda::ptxas_names(Some("12.9"));
        assert_eq!(tool_of(&names[1], None), p("12.9", Some(3)));
        assert_eq!(tool_of(&crate::backend::ptxas_check::name(Some("12.9")), None), p("12.9", None));
    }

    #[test]
    fn fixed_in_a_later_version() {
        assert_eq!(
            v(&[("cuda:ptxas-13.0-O3", false), ("cuda:ptxas-13.0-O0", true), ("cuda:ptxas-13.5-O3", true)]).as_deref(),
            Some("wrong in 13.0 -O3, right in 13.5: fixed in 13.5")
        );
    }

    #[test]
    fn regressed_in_a_later_version() {
        assert_eq!(
            v(&[
                ("cuda:ptxas-12.8-O3", true),
                ("cuda:ptxas-13.0-O3", false),
                ("cuda:ptxas-13.5-O3", false),
                ("cuda:jit", true)
            ])
            .as_deref(),
            Some("right in 12.8, wrong in 13.0, 13.5: regressed in 13.0; JIT right")
        );
    }

    #[test]
    fn wrong_in_every_version_and_jit_only() {
        assert_eq!(
            v(&[("cuda:ptxas-12.8-O0", false), ("cuda:ptxas-13.0-O0", false), ("cuda:jit", false)]).as_deref(),
            Some("wrong in every version (12.8, 13.0); JIT wrong")
        );
        assert_eq!(v(&[("cuda:ptxas-O3", false)]).as_deref(), Some("wrong in 13.5"));
        assert_eq!(
            v(&[("cuda:ptxas-12.8-O3", true), ("cuda:ptxas-13.0-O3", true), ("cuda:jit", false)]).as_deref(),
            Some("JIT only: every ptxas right (12.8, 13.0)")
        );
        assert_eq!(v(&[("cuda:ptxas-12.8-O3", true), ("cuda:jit", true)]), None, "nothing wrong: no verdict");
        assert_eq!(v(&[("cuda:jit", false), ("oracle-worker", false)]), None, "no ptxas: no verdict");
    }

    #[test]
    fn mixed_levels_and_mixed_versions() {
        assert_eq!(
            v(&[
                ("cuda:ptxas-12.8-O0", true),
                ("cuda:ptxas-12.8-O3", false),
                ("cuda:ptxas-13.0-O0", false),
                ("cuda:ptxas-13.0-O3", false),
                ("cuda:ptxas-13.5-O0", true)
            ])
            .as_deref(),
            Some("wrong in 12.8 -O3, 13.0, right in 13.5: fixed in 13.5")
        );
        assert_eq!(
            v(&[("cuda:ptxas-12.8-O3", false), ("cuda:ptxas-13.0-O3", true), ("cuda:ptxas-13.5-O3", false)]).as_deref(),
            Some("wrong in 12.8, 13.5, right in 13.0: no single fix or regression")
        );
    }

    #[test]
    fn versions_are_ordered_numerically() {
        assert_eq!(
            v(&[("cuda:ptxas-12.10-O3", true), ("cuda:ptxas-12.9-O3", false)]).as_deref(),
            Some("wrong in 12.9, right in 12.10: fixed in 12.10")
        );
    }

    #[test]
    fn an_assembler_rejection_counts_the_versions_that_assembled_it() {
        let env: Vec<(String, String)> = vec![
            ("ptxas-12.8".into(), "Cuda compilation tools, release 12.8, V12.8.93".into()),
            ("ptxas-13.0".into(), "Cuda compilation tools, release 13.0, V13.0.88".into()),
            ("device".into(), "NVIDIA H100".into()),
        ];
        let wrong = vec!["ptxas-13.0 -O3".to_string()];
        assert_eq!(
            program_verdict(&wrong, false, &[], &["ptxas-13.0 -O3", "ptxas-13.0 -O0"], &env).as_deref(),
            Some("right in 12.8, wrong in 13.0: regressed in 13.0")
        );
        let found = vec![("ptxas".to_string(), "Cuda compilation tools, release 13.5, V13.5.37".to_string())];
        assert_eq!(
            program_verdict(&["ptxas -O3".to_string()], false, &[], &["ptxas -O3"], &found).as_deref(),
            Some("wrong in 13.5 -O3")
        );
        // A mismatch speaks of the backends that ran it; failures elsewhere are other findings.
        assert_eq!(
            program_verdict(
                &["cuda:ptxas-13.0-O3".to_string()],
                true,
                &["cuda:ptxas-12.8-O3", "cuda:ptxas-13.0-O3"],
                &["ptxas-12.8 -O0"],
                &env
            )
            .as_deref(),
            Some("right in 12.8, wrong in 13.0: regressed in 13.0")
        );
    }
}
