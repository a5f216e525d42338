//! Comparing one program's outputs: every backend's words against the oracle's expectation
//! (exact bits or a set), and the backends against each other. The [`Outcome`] says which
//! side disagrees and how ([`ProgramEvidence`]), which is what a finding's signature is made
//! of; a program the oracle refused, or that no backend ran, is not comparable.

use std::collections::BTreeMap;

use oracle::num::{classify, decode, Class, Value, F16, F32};
use oracle::semantics::{Constraint, Expected};

use super::{NotComparable, Outcome};
use serde::{Deserialize, Serialize};

/// One output word that differs between the oracle and some backend.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WordMismatch {
    /// Thread index.
    pub thread: u32,
    /// Output word index within the thread's outputs.
    pub word: u32,
    /// The oracle's expectation rendered: `0x7fc00000`, or a set such as `any NaN (f32)`.
    pub expected: String,
    /// Each backend's actual word, as hex.
    pub actual: BTreeMap<String, String>,
    /// Human decoding of expected vs actual (`NaN → +inf`); may be empty.
    #[serde(default)]
    pub decoded: String,
}

/// What one backend produced for one program: `threads × outputs` words, thread 0 first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observed {
    /// Backend name.
    pub backend: String,
    /// The words.
    pub words: Vec<u32>,
}

/// The evidence of a program's disagreement between the oracle and some backends.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramEvidence {
    /// Whether the backends' words differ from each other (the compiled variants disagree: a
    /// compiler finding), rather than all agreeing with each other but not with the oracle
    /// (hardware or the spec); the findings layer names the class.
    pub split: bool,
    /// The backends whose words the oracle does not admit.
    pub backends: Vec<String>,
    /// How the first wrong word differs (`nan-becomes-inf`, `sign`, `off-by-one`, `value`…).
    pub how: String,
    /// The first wrong words.
    pub mismatches: Vec<WordMismatch>,
    /// Thread and word of the first wrong word.
    pub first: (u32, u32),
}

/// Words of `e` (a thread's output) at word `w`.
fn word(e: &Expected, w: u32) -> Expected {
    e.field(32 * w, 32)
}

/// How `actual` differs from `expected` (a 32-bit word).
pub fn how(expected: &Expected, actual: u32) -> String {
    how_bits(expected, u128::from(actual))
}

/// How `actual` differs from `expected`, a result of `expected.width` bits: a NaN that became
/// something else, a flipped sign, off by one unit in the last place, or another value. Results
/// up to 32 bits are read as a word (with the sign and last place of either 16-bit half).
pub fn how_bits(expected: &Expected, actual: u128) -> String {
    for f in &expected.free {
        if let Constraint::AnyNan(fmt) = f.constraint {
            let v = (actual >> f.shift) & ((1u128 << f.width) - 1);
            match classify(fmt, v as u64) {
                Class::Nan => {}
                Class::Inf => return "nan-becomes-inf".into(),
                Class::Zero => return "nan-becomes-zero".into(),
                Class::Subnormal | Class::Normal => return "nan-becomes-finite".into(),
            }
        }
    }
    if expected.width > 32 {
        let (e, diff) = (expected.bits, expected.bits ^ actual);
        return if diff == 1 << (expected.width - 1) {
            "sign".into()
        } else if e.abs_diff(actual) == 1 {
            "off-by-one".into()
        } else {
            "value".into()
        };
    }
    let (e, actual) = (expected.bits as u32, actual as u32);
    let diff = e ^ actual;
    if diff == 0x8000_0000 || diff == 0x8000 || diff == 0x8000_8000 {
        "sign".into()
    } else if e.abs_diff(actual) == 1 || (e & 0xFFFF).abs_diff(actual & 0xFFFF) == 1 && diff >> 16 == 0 {
        "off-by-one".into()
    } else {
        "value".into()
    }
}

/// A decoded value as text (`1.5e0`, `-inf`, `nan`, `-0`).
fn value_text(v: Value) -> String {
    match v {
        Value::Zero { neg } => (if neg { "-0" } else { "0" }).into(),
        Value::Inf { neg } => (if neg { "-inf" } else { "inf" }).into(),
        Value::Nan { .. } => "nan".into(),
        Value::Finite { neg, sig, exp } => {
            let x = sig as f64 * 2f64.powi(exp);
            format!("{}{x:e}", if neg { "-" } else { "" })
        }
    }
}

/// A human reading of a word as f32 and as two f16 halves.
pub fn decoded(expected: &Expected, actual: u32) -> String {
    let f32_of = |b: u32| value_text(decode(&F32, u64::from(b)));
    let f16s = |b: u32| {
        format!("{},{}", value_text(decode(&F16, u64::from(b & 0xFFFF))), value_text(decode(&F16, u64::from(b >> 16))))
    };
    format!(
        "f32 {} → {}; f16 pair {} → {}",
        f32_of(expected.bits as u32),
        f32_of(actual),
        f16s(expected.bits as u32),
        f16s(actual)
    )
}

/// Compares the observed outputs of a program with the oracle's result: its expected
/// per-thread outputs, or why it refused the program.
pub fn compare_result<E: std::fmt::Display>(
    outputs: u32,
    expected: &Result<Vec<Expected>, E>,
    observed: &[Observed],
) -> Outcome<ProgramEvidence> {
    match expected {
        Ok(e) => compare(outputs, e, observed),
        Err(why) => Outcome::NotComparable(NotComparable::OracleRefused(why.to_string())),
    }
}

/// Compares the observed outputs of a program with its expected per-thread outputs.
pub fn compare(outputs: u32, expected: &[Expected], observed: &[Observed]) -> Outcome<ProgramEvidence> {
    if observed.is_empty() {
        return Outcome::NotComparable(NotComparable::NoResults);
    }
    let per = outputs as usize;
    let mut bad: Vec<&Observed> = Vec::new();
    let mut first: Option<(u32, u32)> = None;
    for o in observed {
        let mut wrong = false;
        for (t, e) in expected.iter().enumerate() {
            let Some(ws) = o.words.get(t * per..(t + 1) * per) else {
                wrong = true;
                first.get_or_insert((t as u32, 0));
                break;
            };
            let bits = ws.iter().enumerate().fold(0u128, |acc, (k, w)| acc | u128::from(*w) << (32 * k));
            if !e.matches(bits) {
                wrong = true;
                let w = (0..outputs).find(|&w| !word(e, w).matches(u128::from(ws[w as usize]))).unwrap_or(0);
                let here = (t as u32, w);
                if first.is_none_or(|f| here < f) {
                    first = Some(here);
                }
                break;
            }
        }
        if wrong {
            bad.push(o);
        }
    }
    let Some((t, w)) = first else { return Outcome::Agree };
    if bad.is_empty() {
        return Outcome::Agree;
    }
    let distinct: std::collections::BTreeSet<&Vec<u32>> = observed.iter().map(|o| &o.words).collect();
    let split = distinct.len() > 1;
    let e = word(&expected[t as usize], w);
    let at = t as usize * per + w as usize;
    let actual_first = bad[0].words.get(at).copied().unwrap_or(0);
    let mut mismatches = Vec::new();
    'threads: for (tt, ex) in expected.iter().enumerate() {
        for ww in 0..outputs {
            let ew = word(ex, ww);
            let i = tt * per + ww as usize;
            let wrong: BTreeMap<String, String> = observed
                .iter()
                .filter(|o| o.words.get(i).is_none_or(|a| !ew.matches(u128::from(*a))))
                .map(|o| (o.backend.clone(), o.words.get(i).map_or("missing".into(), |a| format!("{a:#010x}"))))
                .collect();
            if wrong.is_empty() {
                continue;
            }
            let actual: BTreeMap<String, String> = observed
                .iter()
                .map(|o| (o.backend.clone(), o.words.get(i).map_or("missing".into(), |a| format!("{a:#010x}"))))
                .collect();
            let a0 = bad[0].words.get(i).copied().unwrap_or(0);
            mismatches.push(WordMismatch {
                thread: tt as u32,
                word: ww,
                expected: ew.to_string(),
                actual,
                decoded: decoded(&ew, a0),
            });
            if mismatches.len() >= 8 {
                break 'threads;
            }
        }
    }
    Outcome::Disagree(ProgramEvidence {
        split,
        backends: bad.iter().map(|o| o.backend.clone()).collect(),
        how: how(&e, actual_first),
        mismatches,
        first: (t, w),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use oracle::semantics::{Allowance, Free};

    fn obs(b: &str, words: &[u32]) -> Observed {
        Observed { backend: b.into(), words: words.to_vec() }
    }

    #[test]
    fn classes_and_hows() {
        let exp = vec![Expected::exact(5, 32), Expected::exact(7, 32)];
        let disagree = |o: Outcome<ProgramEvidence>| match o {
            Outcome::Disagree(d) => d,
            other => panic!("{other:?}"),
        };
        assert_eq!(compare(1, &exp, &[obs("a", &[5, 7]), obs("b", &[5, 7])]), Outcome::Agree);
        let d = disagree(compare(1, &exp, &[obs("a", &[5, 6]), obs("b", &[5, 6])]));
        assert_eq!((d.split, d.how.as_str(), d.first), (false, "off-by-one", (1, 0)));
        assert_eq!(d.backends, vec!["a", "b"]);
        let d = disagree(compare(1, &exp, &[obs("a", &[5, 7]), obs("b", &[5, 0x8000_0007])]));
        assert_eq!((d.split, d.how.as_str()), (true, "sign"));
        assert_eq!(d.backends, vec!["b"]);
        let nan = Expected {
            bits: 0x7FC0_0000,
            width: 32,
            free: vec![Free {
                shift: 0,
                width: 32,
                constraint: Constraint::AnyNan(&F32),
                allowance: Allowance::NanPayload,
            }],
        };
        let exp = vec![nan];
        // Different NaNs from two backends: both admitted, no finding.
        assert_eq!(compare(1, &exp, &[obs("a", &[0x7FC0_0000]), obs("b", &[0xFFC0_0001])]), Outcome::Agree);
        let d = disagree(compare(1, &exp, &[obs("a", &[0x7F80_0000])]));
        assert_eq!(d.how, "nan-becomes-inf");
    }

    /// A failed backend or a refused program is not a disagreement, whatever was expected.
    #[test]
    fn nothing_to_compare_is_not_comparable() {
        let exp = vec![Expected::exact(5, 32)];
        assert_eq!(compare(1, &exp, &[]), Outcome::NotComparable(NotComparable::NoResults));
        let refused: Result<Vec<Expected>, String> = Err("reads past its inputs".into());
        assert_eq!(
            compare_result(1, &refused, &[obs("a", &[6])]),
            Outcome::NotComparable(NotComparable::OracleRefused("reads past its inputs".into()))
        );
        // The same words with an oracle result: a disagreement.
        assert!(compare_result(1, &Ok::<_, String>(exp), &[obs("a", &[6])]).disagreement().is_some());
    }
}
