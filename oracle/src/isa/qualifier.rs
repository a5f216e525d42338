//! Qualifier enums and the token bag that instruction families parse from.
//!
//! An opcode such as `ld.global.relaxed.gpu.v4.u32` is split at `.` into tokens
//! (`ld`, `global`, `relaxed`, …). Each family describes its qualifiers as enums declared with
//! [`qualifiers!`](crate::qualifiers), prints them in the canonical order of its syntax block, and parses them from
//! a [`TokenBag`]: the bag hands out the first unused token that belongs to the requested enum,
//! so qualifier order in the input does not matter (ptxas accepts `cvt.f64.bf16.rp` as well as
//! `cvt.rp.f64.bf16`) except between two slots of the same enum (`cvt.dtype.atype`), which are
//! taken in order of appearance. Every token must be used exactly once.

use super::ParseError;

/// A qualifier enum: a closed set of tokens.
pub trait Qualifier: Copy + Eq + Sized + 'static {
    /// Every value, in declaration order.
    const ALL: &'static [Self];
    /// The token without its leading dot (`rn`, `shared::cta`).
    fn token(self) -> &'static str;
    /// The value whose token is `t`.
    fn from_token(t: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.token() == t)
    }
}

/// Declares qualifier enums: `qualifiers! { /// doc  pub enum Rnd { Rn = "rn", Rz = "rz" } }`.
#[macro_export]
macro_rules! qualifiers {
    ($(
        $(#[$meta:meta])*
        pub enum $name:ident { $( $(#[$vmeta:meta])* $variant:ident = $tok:literal ),+ $(,)? }
    )+) => {$(
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum $name { $( $(#[$vmeta])* #[doc = concat!("`.", $tok, "`")] $variant ),+ }

        impl $crate::isa::qualifier::Qualifier for $name {
            const ALL: &'static [Self] = &[$($name::$variant),+];
            fn token(self) -> &'static str {
                match self { $($name::$variant => $tok),+ }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($crate::isa::qualifier::Qualifier::token(*self))
            }
        }
    )+};
}

/// Iterates `None` followed by `Some(v)` for every value: the choices of an optional slot.
pub fn opt<Q: Qualifier>() -> impl Iterator<Item = Option<Q>> + Clone {
    std::iter::once(None).chain(Q::ALL.iter().copied().map(Some))
}

/// The two values of an optional flag qualifier.
pub const FLAG: [bool; 2] = [false, true];

/// The tokens of one opcode, each used at most once while a family parses it.
#[derive(Debug)]
pub struct TokenBag<'a> {
    opcode: &'a str,
    tokens: Vec<(&'a str, bool)>,
}

impl<'a> TokenBag<'a> {
    /// The tokens of `opcode` after its mnemonic (`cvt.rn.f16.f32` → `rn`, `f16`, `f32`).
    pub fn new(opcode: &'a str) -> Result<Self, ParseError> {
        let mut parts = opcode.split('.');
        parts.next();
        let mut tokens = Vec::new();
        for p in parts {
            if p.is_empty() {
                return Err(ParseError::new(opcode, "empty qualifier (two dots in a row or a trailing dot)"));
            }
            tokens.push((p, false));
        }
        Ok(TokenBag { opcode, tokens })
    }

    /// The opcode being parsed, for error messages.
    pub fn opcode(&self) -> &'a str {
        self.opcode
    }

    /// Whether an unused token equals `t` (does not use it).
    pub fn contains(&self, t: &str) -> bool {
        self.tokens.iter().any(|(s, used)| !used && *s == t)
    }

    /// Uses the first unused token that is a value of `Q`.
    pub fn take<Q: Qualifier>(&mut self) -> Option<Q> {
        for (s, used) in self.tokens.iter_mut() {
            if !*used {
                if let Some(q) = Q::from_token(s) {
                    *used = true;
                    return Some(q);
                }
            }
        }
        None
    }

    /// Like [`take`](Self::take), but the slot is mandatory; `what` names it in the error.
    pub fn require<Q: Qualifier>(&mut self, what: &str) -> Result<Q, ParseError> {
        self.take::<Q>().ok_or_else(|| {
            let choices: Vec<String> = Q::ALL.iter().map(|q| format!(".{}", q.token())).collect();
            let unknown: Vec<String> =
                self.tokens.iter().filter(|(_, used)| !used).map(|(s, _)| format!("`.{s}`")).collect();
            let found =
                if unknown.is_empty() { String::new() } else { format!("; not understood: {}", unknown.join(" ")) };
            ParseError::new(self.opcode, format!("missing {what} (one of {}){found}", choices.join(" ")))
        })
    }

    /// Uses the token `t` if present.
    pub fn flag(&mut self, t: &str) -> bool {
        for (s, used) in self.tokens.iter_mut() {
            if !*used && *s == t {
                *used = true;
                return true;
            }
        }
        false
    }

    /// Uses the token `t`, which must be present.
    pub fn expect(&mut self, t: &str) -> Result<(), ParseError> {
        if self.flag(t) {
            Ok(())
        } else {
            Err(ParseError::new(self.opcode, format!("missing `.{t}`")))
        }
    }

    /// Succeeds if every token was used; otherwise names the first unused one.
    pub fn finish(self) -> Result<(), ParseError> {
        let extra: Vec<String> = self.tokens.iter().filter(|(_, used)| !used).map(|(s, _)| format!(".{s}")).collect();
        if extra.is_empty() {
            Ok(())
        } else {
            Err(ParseError::new(
                self.opcode,
                format!("unexpected or repeated qualifier(s) {} for this instruction", extra.join(" ")),
            ))
        }
    }
}

/// Collects opcode tokens in canonical order and joins them with dots.
#[derive(Debug, Default)]
pub struct OpcodeWriter {
    tokens: Vec<&'static str>,
}

impl OpcodeWriter {
    /// An empty opcode.
    pub fn new() -> Self {
        Self::default()
    }
    /// Appends a fixed token.
    pub fn lit(&mut self, t: &'static str) -> &mut Self {
        self.tokens.push(t);
        self
    }
    /// Appends a qualifier value.
    pub fn q<Q: Qualifier>(&mut self, q: Q) -> &mut Self {
        self.tokens.push(q.token());
        self
    }
    /// Appends an optional qualifier value.
    pub fn opt<Q: Qualifier>(&mut self, q: Option<Q>) -> &mut Self {
        if let Some(q) = q {
            self.tokens.push(q.token());
        }
        self
    }
    /// Appends `t` if `on`.
    pub fn flag(&mut self, on: bool, t: &'static str) -> &mut Self {
        if on {
            self.tokens.push(t);
        }
        self
    }
    /// The opcode text.
    pub fn finish(&self) -> String {
        self.tokens.join(".")
    }
}
