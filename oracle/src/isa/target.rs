//! Compilation targets (`sm_XX`, `sm_XXa`, `sm_XXf`) and PTX ISA versions, and the
//! [`Requirement`] each instruction form places on them.
//!
//! A requirement is the conjunction of what a form's "PTX ISA Notes" and "Target ISA Notes"
//! say: a minimum PTX ISA version, a minimum `sm_XX`, and zero or more *architecture gates*
//! ("supported on sm_100a, sm_120a, and sm_100f or higher in the same family"). Each gate is
//! a disjunction over arch-specific (`a`) targets and family-specific (`f`) families.
//!
//! Family rules (PTX ISA §5 "Target ISA"): a target `sm_XYa` or `sm_XYf` satisfies
//! "`sm_XZf` or higher in the same family" when both have the same major architecture
//! (the same `sm / 10`) and `XY >= XZ`. An `a` target has every feature of the `f` target with
//! the same number. A plain `sm_XY` target satisfies no gate.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// A PTX ISA version such as 9.0 (ordered by major, then minor).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PtxVersion {
    /// Major version (the `9` in `9.0`).
    pub major: u8,
    /// Minor version (the `0` in `9.0`).
    pub minor: u8,
}

impl PtxVersion {
    /// `PtxVersion::new(8, 6)` is PTX ISA 8.6.
    pub const fn new(major: u8, minor: u8) -> Self {
        PtxVersion { major, minor }
    }
    /// The version ptxdiff emits unless told otherwise: the newest version that both the CUDA
    /// 13.0 driver JIT and the ptxas shipped with CUDA 13.x accept.
    pub const DEFAULT: PtxVersion = PtxVersion::new(9, 0);
    /// The oldest version any requirement can name.
    pub const MIN: PtxVersion = PtxVersion::new(1, 0);
    /// The newest version the ISA model is written from (the PTX ISA 9.0 text in the spec):
    /// a later version may add forms or change rules the model does not know, so a target
    /// naming one is refused rather than tested against an older model.
    pub const NEWEST_MODELED: PtxVersion = PtxVersion::new(9, 0);
}

impl fmt::Display for PtxVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl FromStr for PtxVersion {
    type Err = TargetError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || TargetError::BadPtxVersion(s.to_string());
        let (maj, min) = s.split_once('.').ok_or_else(bad)?;
        let major: u8 = maj.parse().map_err(|_| bad())?;
        let minor: u8 = min.parse().map_err(|_| bad())?;
        if minor > 9 {
            return Err(bad());
        }
        Ok(PtxVersion { major, minor })
    }
}

/// The suffix of a target name: none, arch-specific `a`, or family-specific `f`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ArchSuffix {
    /// `sm_90`: portable to later architectures.
    None,
    /// `sm_90a`: arch-specific features of exactly this architecture.
    A,
    /// `sm_100f`: family-specific features shared by later members of the family.
    F,
}

/// A compilation target: `.target sm_XX[a|f]` plus the `.version` of the module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    /// The architecture number (`90` for `sm_90`).
    pub sm: u16,
    /// `a`, `f` or none.
    pub suffix: ArchSuffix,
    /// The PTX ISA version the module declares.
    pub ptx: PtxVersion,
}

/// One row of the table of architectures ptxdiff knows: which suffixes exist and the first
/// PTX ISA version that can target each (from the PTX ISA "Target ISA" release table).
struct KnownSm {
    sm: u16,
    plain: Option<PtxVersion>,
    arch: Option<PtxVersion>,
    family: Option<PtxVersion>,
}

const fn known(sm: u16, plain: Option<(u8, u8)>, arch: Option<(u8, u8)>, family: Option<(u8, u8)>) -> KnownSm {
    const fn v(x: Option<(u8, u8)>) -> Option<PtxVersion> {
        match x {
            Some((a, b)) => Some(PtxVersion::new(a, b)),
            None => None,
        }
    }
    KnownSm { sm, plain: v(plain), arch: v(arch), family: v(family) }
}

/// Architectures ptxdiff accepts as targets. ptxas 13.x no longer accepts targets below sm_75.
const KNOWN_SMS: &[KnownSm] = &[
    known(75, Some((6, 3)), None, None),
    known(80, Some((7, 0)), None, None),
    known(86, Some((7, 1)), None, None),
    known(87, Some((7, 4)), None, None),
    known(88, Some((9, 0)), None, None),
    known(89, Some((7, 8)), None, None),
    known(90, Some((7, 8)), Some((8, 0)), None),
    known(100, Some((8, 6)), Some((8, 6)), Some((8, 8))),
    known(103, Some((8, 8)), Some((8, 8)), Some((8, 8))),
    known(110, Some((9, 0)), Some((9, 0)), Some((9, 0))),
    known(120, Some((8, 7)), Some((8, 7)), Some((8, 8))),
    known(121, Some((8, 8)), Some((8, 8)), Some((8, 8))),
];

/// Errors from parsing or validating a target.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TargetError {
    /// The text is not a known target name.
    #[error("unknown target `{0}`; valid targets: {valid}", valid = Target::valid_names().join(", "))]
    Unknown(String),
    /// The text is not a PTX ISA version like `9.0`.
    #[error("`{0}` is not a PTX ISA version (expected MAJOR.MINOR, e.g. 9.0)")]
    BadPtxVersion(String),
    /// The PTX version is too old for the architecture.
    #[error("target {target} needs PTX ISA {needed} or later, but {given} was given")]
    PtxTooOld {
        /// Target name.
        target: String,
        /// The first version that supports the target.
        needed: PtxVersion,
        /// The version requested.
        given: PtxVersion,
    },
    /// The PTX version is newer than the ISA model.
    #[error(
        "PTX ISA {given} is newer than the ISA model ptxdiff checks against ({newest}, the spec it \
         was written from); give a version up to {newest}, e.g. `sm_90@{newest}`"
    )]
    PtxTooNew {
        /// The version requested.
        given: PtxVersion,
        /// [`PtxVersion::NEWEST_MODELED`].
        newest: PtxVersion,
    },
}

impl Target {
    /// A target with the default PTX version ([`PtxVersion::DEFAULT`]).
    pub fn parse(name: &str) -> Result<Target, TargetError> {
        name.parse()
    }

    /// The same target declaring another PTX version; errors if the architecture is newer than
    /// that version.
    pub fn with_ptx(self, ptx: PtxVersion) -> Result<Target, TargetError> {
        let needed = self.min_ptx();
        if ptx < needed {
            return Err(TargetError::PtxTooOld { target: self.name(), needed, given: ptx });
        }
        if ptx > PtxVersion::NEWEST_MODELED {
            return Err(TargetError::PtxTooNew { given: ptx, newest: PtxVersion::NEWEST_MODELED });
        }
        Ok(Target { ptx, ..self })
    }

    fn row(&self) -> &'static KnownSm {
        KNOWN_SMS.iter().find(|k| k.sm == self.sm).expect("targets are only built from KNOWN_SMS")
    }

    /// The first PTX ISA version that can name this target.
    pub fn min_ptx(&self) -> PtxVersion {
        let row = self.row();
        match self.suffix {
            ArchSuffix::None => row.plain,
            ArchSuffix::A => row.arch,
            ArchSuffix::F => row.family,
        }
        .expect("targets are only built with suffixes their row allows")
    }

    /// `sm_90a`, `sm_100f`, `sm_80`.
    pub fn name(&self) -> String {
        let suffix = match self.suffix {
            ArchSuffix::None => "",
            ArchSuffix::A => "a",
            ArchSuffix::F => "f",
        };
        format!("sm_{}{}", self.sm, suffix)
    }

    /// Every target name ptxdiff accepts, in order.
    pub fn valid_names() -> Vec<String> {
        Self::all(PtxVersion::DEFAULT).iter().map(Target::name).collect()
    }

    /// Every known target at the given PTX version (targets newer than it are left out).
    pub fn all(ptx: PtxVersion) -> Vec<Target> {
        let mut out = Vec::new();
        for row in KNOWN_SMS {
            for (suffix, min) in [(ArchSuffix::None, row.plain), (ArchSuffix::A, row.arch), (ArchSuffix::F, row.family)]
            {
                if let Some(min) = min {
                    if min <= ptx {
                        out.push(Target { sm: row.sm, suffix, ptx });
                    }
                }
            }
        }
        out
    }

    /// The most shared memory one CTA may have on this architecture, in bytes (the opt-in
    /// maximum per block of the CUDA C++ Programming Guide's table of compute capabilities:
    /// 227 KiB on sm_90 and sm_100, 163 KiB on sm_80 and sm_87, 99 KiB on sm_86, sm_89 and
    /// sm_120, 64 KiB on sm_75; 99 KiB for an architecture not in that table).
    pub fn max_shared_per_cta(&self) -> u64 {
        let kib = match self.sm {
            75 => 64,
            80 | 87 => 163,
            90 | 100 | 103 | 110 => 227,
            _ => 99,
        };
        kib * 1024
    }

    /// The major architecture (`10` for sm_100 and sm_103): the unit of "the same family".
    pub fn family_major(&self) -> u16 {
        self.sm / 10
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for Target {
    type Err = TargetError;
    /// Parses `sm_90`, `sm_90a`, `sm_100f`, optionally followed by `@` and a PTX version
    /// (`sm_90a@8.0`); without one, [`PtxVersion::DEFAULT`] is used.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (name, ptx) = match s.split_once('@') {
            Some((n, v)) => (n, Some(v.parse::<PtxVersion>()?)),
            None => (s, None),
        };
        let unknown = || TargetError::Unknown(s.to_string());
        let rest = name.strip_prefix("sm_").ok_or_else(unknown)?;
        let (digits, suffix) = match rest.strip_suffix('a') {
            Some(d) => (d, ArchSuffix::A),
            None => match rest.strip_suffix('f') {
                Some(d) => (d, ArchSuffix::F),
                None => (rest, ArchSuffix::None),
            },
        };
        let sm: u16 = digits.parse().map_err(|_| unknown())?;
        let row = KNOWN_SMS.iter().find(|k| k.sm == sm).ok_or_else(unknown)?;
        let exists = match suffix {
            ArchSuffix::None => row.plain.is_some(),
            ArchSuffix::A => row.arch.is_some(),
            ArchSuffix::F => row.family.is_some(),
        };
        if !exists {
            return Err(unknown());
        }
        let t = Target { sm, suffix, ptx: PtxVersion::DEFAULT };
        let ptx = ptx.unwrap_or_else(|| PtxVersion::DEFAULT.max(t.min_ptx()));
        t.with_ptx(ptx)
    }
}

/// "Supported on the following architectures": a disjunction of arch-specific targets and
/// family-specific families, as Target ISA Notes list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArchGate {
    /// `sm_XXa` targets that have the feature.
    pub specific: &'static [u16],
    /// `sm_XXf` families: the feature exists on `sm_XXf` "or higher in the same family".
    pub families: &'static [u16],
    /// The PTX version from which the family-specific targets have it (8.8 throughout the
    /// current spec).
    pub family_ptx: PtxVersion,
}

impl ArchGate {
    /// Whether `t` has the gated feature.
    pub fn admits(&self, t: &Target) -> bool {
        let specific = t.suffix == ArchSuffix::A && self.specific.contains(&t.sm);
        let family = t.suffix != ArchSuffix::None
            && t.ptx >= self.family_ptx
            && self.families.iter().any(|&base| base / 10 == t.family_major() && t.sm >= base);
        specific || family
    }
}

impl fmt::Display for ArchGate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = self.specific.iter().map(|sm| format!("sm_{sm}a")).collect();
        parts.extend(self.families.iter().map(|sm| format!("sm_{sm}f+")));
        f.write_str(&parts.join("|"))
    }
}

/// The gate shared by most Blackwell-only conversion and tensor-map features: `sm_100a`,
/// `sm_110a` (formerly `sm_101a`), `sm_120a`, and the `sm_100f`/`sm_110f`/`sm_120f` families
/// from PTX ISA 8.8 (e.g. §9.7.9.21 cvt Target ISA Notes for `.e2m1x2`).
pub const GATE_SM100_110_120: ArchGate =
    ArchGate { specific: &[100, 110, 120], families: &[100, 110, 120], family_ptx: PtxVersion::new(8, 8) };

/// `sm_100a`, `sm_110a` and the `sm_100f`/`sm_110f` families (tensor-copy modes such as
/// `.tile::scatter4`, §9.7.9.25.5.2; multimem FP8 types, §9.7.9.14).
pub const GATE_SM100_110: ArchGate =
    ArchGate { specific: &[100, 110], families: &[100, 110], family_ptx: PtxVersion::new(8, 8) };

/// `sm_100a`, `sm_110a`, `sm_120a`, `sm_121a` and the `sm_100f`/`sm_110f` families
/// (multimem FP8 types and `.acc::f16`, §9.7.9.14).
pub const GATE_MULTIMEM_FP8: ArchGate =
    ArchGate { specific: &[100, 110, 120, 121], families: &[100, 110], family_ptx: PtxVersion::new(8, 8) };

/// `.rs` stochastic rounding: `sm_100a` and `sm_103a` only (§9.7.9.21 Target ISA Notes).
pub const GATE_RS: ArchGate = ArchGate { specific: &[100, 103], families: &[], family_ptx: PtxVersion::new(8, 8) };

/// `tensormap.replace`: `sm_90a`, `sm_100a`, `sm_110a`, `sm_120a`, and the
/// `sm_100f`/`sm_110f`/`sm_120f` families (§9.7.9.26).
pub const GATE_TENSORMAP: ArchGate =
    ArchGate { specific: &[90, 100, 110, 120], families: &[100, 110, 120], family_ptx: PtxVersion::new(8, 8) };

/// What a form needs of its target: all of the fields must hold.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Requirement {
    /// Minimum architecture number (`sm_XX` or higher).
    pub min_sm: u16,
    /// Minimum PTX ISA version.
    pub min_ptx: PtxVersion,
    /// On targets below `.0`, the form needs PTX ISA `.1` instead of `min_ptx` (for features
    /// that reached an older architecture in a later PTX release, e.g. FP8 `cvt` on sm_89).
    pub older_sm_ptx: Option<(u16, PtxVersion)>,
    /// Architecture gates; each must admit the target.
    pub gates: Vec<ArchGate>,
    /// The form was removed for targets at or above `.0` from PTX ISA `.1` on
    /// (the deprecated `shfl`, §9.7.9.5).
    pub removed: Option<(u16, PtxVersion)>,
}

impl Default for Requirement {
    fn default() -> Self {
        Requirement { min_sm: 0, min_ptx: PtxVersion::MIN, older_sm_ptx: None, gates: Vec::new(), removed: None }
    }
}

impl Requirement {
    /// Needs `sm_XX` or higher and PTX ISA `major.minor`.
    pub fn new(sm: u16, major: u8, minor: u8) -> Self {
        Requirement { min_sm: sm, min_ptx: PtxVersion::new(major, minor), ..Default::default() }
    }

    /// Adds a minimum architecture (keeps the higher).
    pub fn sm(mut self, sm: u16) -> Self {
        self.min_sm = self.min_sm.max(sm);
        self
    }

    /// Adds a minimum PTX version (keeps the higher).
    pub fn ptx(mut self, major: u8, minor: u8) -> Self {
        self.min_ptx = self.min_ptx.max(PtxVersion::new(major, minor));
        self
    }

    /// Adds an architecture gate.
    pub fn gate(mut self, gate: ArchGate) -> Self {
        if !self.gates.contains(&gate) {
            self.gates.push(gate);
        }
        self
    }

    /// Adds the condition that targets below `sm` need PTX `major.minor`.
    pub fn older_sm_ptx(mut self, sm: u16, major: u8, minor: u8) -> Self {
        self.older_sm_ptx = Some((sm, PtxVersion::new(major, minor)));
        self
    }

    /// Marks the form removed on `sm_XX` and later from PTX `major.minor`.
    pub fn removed(mut self, sm: u16, major: u8, minor: u8) -> Self {
        self.removed = Some((sm, PtxVersion::new(major, minor)));
        self
    }

    /// Conjunction of two requirements.
    pub fn and(mut self, other: &Requirement) -> Self {
        self.min_sm = self.min_sm.max(other.min_sm);
        self.min_ptx = self.min_ptx.max(other.min_ptx);
        if other.older_sm_ptx.is_some() {
            self.older_sm_ptx = other.older_sm_ptx;
        }
        for g in &other.gates {
            self = self.gate(*g);
        }
        if other.removed.is_some() {
            self.removed = other.removed;
        }
        self
    }

    /// `Ok(())` if `t` meets the requirement, else the first unmet condition, in words.
    pub fn check(&self, t: &Target) -> Result<(), String> {
        match self.first_unmet(t) {
            None => Ok(()),
            Some(Unmet::Sm(sm)) => Err(format!("needs sm_{sm} or higher")),
            Some(Unmet::Ptx(ptx)) => Err(format!("needs PTX ISA {ptx} or later")),
            Some(Unmet::OlderSmPtx(below, ptx)) => {
                Err(format!("needs PTX ISA {ptx} or later on targets below sm_{below}"))
            }
            Some(Unmet::Gate(g)) => Err(format!("supported only on {g}")),
            Some(Unmet::Removed(sm, ptx)) => Err(format!("removed for sm_{sm} and later from PTX ISA {ptx}")),
        }
    }

    /// Whether `t` meets the requirement (no words made: generators ask this of every
    /// candidate form of every program they draw).
    pub fn admits(&self, t: &Target) -> bool {
        self.first_unmet(t).is_none()
    }

    /// The first condition `t` does not meet, in [`Requirement::check`]'s order.
    fn first_unmet(&self, t: &Target) -> Option<Unmet> {
        if t.sm < self.min_sm {
            return Some(Unmet::Sm(self.min_sm));
        }
        if t.ptx < self.min_ptx {
            return Some(Unmet::Ptx(self.min_ptx));
        }
        if let Some((below, ptx)) = self.older_sm_ptx {
            if t.sm < below && t.ptx < ptx {
                return Some(Unmet::OlderSmPtx(below, ptx));
            }
        }
        if let Some(g) = self.gates.iter().find(|g| !g.admits(t)) {
            return Some(Unmet::Gate(*g));
        }
        match self.removed {
            Some((sm, ptx)) if t.sm >= sm && t.ptx >= ptx => Some(Unmet::Removed(sm, ptx)),
            _ => None,
        }
    }
}

/// A condition of a [`Requirement`] a target does not meet.
enum Unmet {
    Sm(u16),
    Ptx(PtxVersion),
    OlderSmPtx(u16, PtxVersion),
    Gate(ArchGate),
    Removed(u16, PtxVersion),
}

impl fmt::Display for Requirement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = vec![];
        if self.min_sm > 0 {
            parts.push(format!("sm_{}+", self.min_sm));
        }
        for g in &self.gates {
            parts.push(g.to_string());
        }
        parts.push(format!("PTX {}", self.min_ptx));
        if let Some((sm, ptx)) = self.older_sm_ptx {
            parts.push(format!("PTX {ptx} below sm_{sm}"));
        }
        if let Some((sm, ptx)) = self.removed {
            parts.push(format!("removed on sm_{sm}+ from PTX {ptx}"));
        }
        f.write_str(&parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_versions() {
        let t: Target = "sm_90a".parse().unwrap();
        assert_eq!((t.sm, t.suffix, t.ptx), (90, ArchSuffix::A, PtxVersion::DEFAULT));
        let t: Target = "sm_100f@8.8".parse().unwrap();
        assert_eq!((t.sm, t.suffix, t.ptx), (100, ArchSuffix::F, PtxVersion::new(8, 8)));
        assert_eq!(t.to_string(), "sm_100f");
        assert!(matches!("sm_80a".parse::<Target>(), Err(TargetError::Unknown(_))));
        assert!(matches!("sm_91".parse::<Target>(), Err(TargetError::Unknown(_))));
        assert!(matches!("sm_100a@8.5".parse::<Target>(), Err(TargetError::PtxTooOld { .. })));
        assert!(matches!("sm_90@nine".parse::<Target>(), Err(TargetError::BadPtxVersion(_))));
        // A version the model was not written from is refused, naming the newest it knows.
        let e = "sm_90@99.9".parse::<Target>().unwrap_err();
        assert!(matches!(e, TargetError::PtxTooNew { .. }), "{e:?}");
        assert!(e.to_string().contains("9.0"), "{e}");
        assert!("sm_90@9.1".parse::<Target>().is_err());
        assert!("sm_90@9.0".parse::<Target>().is_ok());
        let err = "gfx90a".parse::<Target>().unwrap_err().to_string();
        assert!(err.contains("sm_90a") && err.contains("sm_120a"), "{err}");
    }

    #[test]
    fn family_gates_follow_the_family_rules() {
        let t = |s: &str| s.parse::<Target>().unwrap();
        assert!(GATE_SM100_110_120.admits(&t("sm_100a")));
        assert!(GATE_SM100_110_120.admits(&t("sm_103a")), "sm_103a has sm_100f features");
        assert!(GATE_SM100_110_120.admits(&t("sm_103f")));
        assert!(GATE_SM100_110_120.admits(&t("sm_121a")));
        assert!(!GATE_SM100_110_120.admits(&t("sm_100")), "plain targets have no gated features");
        assert!(!GATE_SM100_110_120.admits(&t("sm_90a")));
        assert!(GATE_RS.admits(&t("sm_103a")));
        assert!(!GATE_RS.admits(&t("sm_120a")));
        assert!(!GATE_RS.admits(&t("sm_100f")), ".rs needs the arch-specific target");
        assert!(GATE_TENSORMAP.admits(&t("sm_90a")));
        assert!(!GATE_TENSORMAP.admits(&t("sm_90")));
    }

    #[test]
    fn requirements_combine_and_explain() {
        let r = Requirement::new(89, 7, 8).older_sm_ptx(90, 8, 1);
        assert!(r.admits(&"sm_90@7.8".parse().unwrap()));
        assert!(r.check(&"sm_89@7.8".parse().unwrap()).unwrap_err().contains("8.1"));
        assert!(r.admits(&"sm_89@8.1".parse().unwrap()));
        let shfl = Requirement::new(30, 3, 0).removed(70, 6, 4);
        assert!(!shfl.admits(&"sm_80".parse().unwrap()));
        let both = Requirement::new(80, 7, 0).and(&Requirement::new(90, 8, 6).gate(GATE_RS));
        assert_eq!(both.min_sm, 90);
        assert_eq!(both.to_string(), "sm_90+, sm_100a|sm_103a, PTX 8.6");
    }
}
