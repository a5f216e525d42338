//! The typed model of every instruction form of PTX ISA §9.7.9 (Data Movement and Conversion
//! Instructions), plus the fences (§9.7.13.4), mbarrier operations (§9.7.13.15) and
//! `tensormap.cp_fenceproxy` (§9.7.13.16) that the asynchronous copies of §9.7.9.25 complete
//! through or need.
//!
//! A *form* is an opcode with all its qualifiers chosen plus, where the opcode alone does not
//! fix it, the shape of its operand list (`mov.b32 d, {a, b}` packs; `mov.b32 d, a` copies).
//! Each family (one per spec section) is a struct of typed qualifier fields implementing
//! [`FormSpec`]:
//! - `candidates()` enumerates every combination its syntax block can spell, legal or not;
//! - `check()` says whether a candidate is legal at all ([`Illegal`] with the rule and section)
//!   and, if so, what it needs of the target ([`Requirement`], from the PTX ISA and Target ISA
//!   Notes);
//! - `opcode()` prints the canonical text and `parse()` reads it back in any qualifier order;
//! - `operands()` names the operand slots as the spec does.
//!
//! [`Form`] is the sum of all families and [`Instruction`] a form with operands and an optional
//! guard predicate. Invariant (property-tested): for every form `f` and every instruction `i`
//! built from canonical parts, `parse(print(x)) == x`.
//!
//! Where ptxas (the reference assembler) and the spec text disagree on validity, the model
//! follows ptxas and the rule's comment says so, with the ptxas version.

pub mod operand;
pub mod qualifier;
pub mod target;
pub mod types;

mod address;
mod async_bulk;
mod async_copy;
mod async_group;
mod cache;
mod cvt;
mod cvt_pack;
mod fence;
mod load;
mod mbarrier;
mod memory;
mod mov;
mod multimem;
mod prmt;
mod shfl;
mod store;
mod tensor;

use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

use thiserror::Error;

pub use address::{Cvta, Getctarank, Isspacep, Mapa};
pub use async_bulk::{
    reduce_pair_allowed, CpAsyncBulk, CpAsyncBulkCommitGroup, CpAsyncBulkPrefetch, CpAsyncBulkWaitGroup,
    CpReduceAsyncBulk, RedOp, ReduceType,
};
pub use async_copy::{CpAsync, CpAsyncCommitGroup, CpAsyncMbarrierArrive, CpAsyncWaitAll, CpAsyncWaitGroup};
// The memory-program interpreter (`crate::memprog`) matches on these fields.
pub use async_bulk::{BulkSpace, Completion};
pub use async_copy::{CpAsyncDst, CpAsyncSrc};
pub use cache::{Applypriority, Createpolicy, Discard, PolicyKind, PolicyPriority, Prefetch, Prefetchu};
pub use cvt::{Cvt, CvtRnd, CvtType};
pub use cvt_pack::{CvtPack, PackType};
pub use fence::{AsyncProxySpace, Fence, FenceKind, ProxyKind, TensormapCpFenceproxy};
pub use load::{Ld, LdGlobalNc, LdSem, Ldu};
pub use mbarrier::{Mbarrier, MbarrierOp};
pub use mov::{symbol_kind, symbol_name, Mov, MovShape, MovType};
pub use multimem::{MultimemLdReduce, MultimemRed, MultimemSt};
pub use operand::{Operand, OperandKind, OperandSpec, Role};
pub use prmt::{Prmt, PrmtMode};
pub use shfl::{Shfl, ShflMode, ShflSync};
pub use store::{St, StAsync, StBulk, StSem};
pub use target::{ArchSuffix, PtxVersion, Requirement, Target, TargetError};
pub use tensor::{
    CpAsyncBulkPrefetchTensor, CpAsyncBulkTensor, CpReduceAsyncBulkTensor, TensormapField, TensormapReplace,
    TensormapSs, TensormapType,
};
pub use tensor::{LoadMode, TensorDim};

use qualifier::TokenBag;

/// Why an opcode of no family fails to parse.
const NOT_MODELLED: &str =
    "not an instruction of §9.7.9 (Data Movement and Conversion) or a fence/mbarrier/tensormap.cp_fenceproxy of §9.7.13";

/// A text that is not a valid instruction of the model.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[error("`{text}`: {reason}")]
pub struct ParseError {
    /// The text (opcode or instruction) that failed.
    pub text: String,
    /// Why.
    pub reason: String,
}

impl ParseError {
    /// An error about `text`.
    pub fn new(text: impl Into<String>, reason: impl Into<String>) -> Self {
        ParseError { text: text.into(), reason: reason.into() }
    }
}

/// Why a spellable combination of qualifiers is not a legal form on any target.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[error("{0}")]
pub struct Illegal(pub String);

impl Illegal {
    /// `Err(Illegal)` with the given rule text.
    pub fn err<T>(rule: impl Into<String>) -> Result<T, Illegal> {
        Err(Illegal(rule.into()))
    }
}

/// Returns `Err(Illegal(rule))` when `cond` holds.
pub fn forbid(cond: bool, rule: &str) -> Result<(), Illegal> {
    if cond {
        Illegal::err(rule)
    } else {
        Ok(())
    }
}

/// One instruction family: a typed set of forms.
pub trait FormSpec: Sized + Clone + PartialEq + Eq + Hash + fmt::Debug {
    /// Every combination of qualifiers (and operand shapes) the syntax block can spell,
    /// legal or not, without duplicates.
    fn candidates() -> Vec<Self>;
    /// The canonical opcode text.
    fn opcode(&self) -> String;
    /// Reads a form from its opcode tokens (after the mnemonic) and its operand list, which
    /// decides optional operands and operand shapes. Must use every token.
    fn parse(bag: &mut TokenBag<'_>, operands: &[Operand]) -> Result<Self, ParseError>;
    /// The operand slots, named as in the spec.
    fn operands(&self) -> Vec<OperandSpec>;
    /// Whether the form is legal, and if so what it needs of the target.
    fn check(&self) -> Result<Requirement, Illegal>;
}

macro_rules! forms {
    ($( $(#[$m:meta])* $variant:ident($ty:ty) = $name:literal, $section:literal; )+) => {
        /// An instruction family: one per spec section (or instruction of a shared section).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Family { $( $(#[$m])* #[doc = concat!("`", $name, "` (§", $section, ")")] $variant ),+ }

        impl Family {
            /// Every family, in spec order.
            pub const ALL: &'static [Family] = &[$(Family::$variant),+];

            /// The family's name as `--family` takes it (`cvt`, `ld.global.nc`, …).
            pub fn name(self) -> &'static str {
                match self { $(Family::$variant => $name),+ }
            }

            /// The spec section that defines it.
            pub fn section(self) -> &'static str {
                match self { $(Family::$variant => $section),+ }
            }

            /// Every candidate form of this family (legal or not).
            pub fn candidates(self) -> Vec<Form> {
                match self { $(Family::$variant => <$ty as FormSpec>::candidates().into_iter().map(Form::$variant).collect()),+ }
            }

            fn parse(self, bag: &mut TokenBag<'_>, operands: &[Operand]) -> Result<Form, ParseError> {
                match self { $(Family::$variant => <$ty as FormSpec>::parse(bag, operands).map(Form::$variant)),+ }
            }
        }

        /// A form of any family.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        #[allow(missing_docs)]
        pub enum Form { $( $variant($ty) ),+ }

        impl Form {
            /// The form's family.
            pub fn family(&self) -> Family {
                match self { $(Form::$variant(_) => Family::$variant),+ }
            }
            /// The canonical opcode text.
            pub fn opcode(&self) -> String {
                match self { $(Form::$variant(f) => f.opcode()),+ }
            }
            /// The operand slots.
            pub fn operands(&self) -> Vec<OperandSpec> {
                match self { $(Form::$variant(f) => f.operands()),+ }
            }
            /// Legality and requirement.
            pub fn check(&self) -> Result<Requirement, Illegal> {
                match self { $(Form::$variant(f) => f.check()),+ }
            }
        }
    };
}

forms! {
    Mov(Mov) = "mov", "9.7.9.3-4";
    Shfl(Shfl) = "shfl", "9.7.9.5";
    ShflSync(ShflSync) = "shfl.sync", "9.7.9.6";
    Prmt(Prmt) = "prmt", "9.7.9.7";
    Ld(Ld) = "ld", "9.7.9.8";
    LdGlobalNc(LdGlobalNc) = "ld.global.nc", "9.7.9.9";
    Ldu(Ldu) = "ldu", "9.7.9.10";
    St(St) = "st", "9.7.9.11";
    StAsync(StAsync) = "st.async", "9.7.9.12";
    StBulk(StBulk) = "st.bulk", "9.7.9.13";
    MultimemLdReduce(MultimemLdReduce) = "multimem.ld_reduce", "9.7.9.14";
    MultimemSt(MultimemSt) = "multimem.st", "9.7.9.14";
    MultimemRed(MultimemRed) = "multimem.red", "9.7.9.14";
    Prefetch(Prefetch) = "prefetch", "9.7.9.15";
    Prefetchu(Prefetchu) = "prefetchu", "9.7.9.15";
    Applypriority(Applypriority) = "applypriority", "9.7.9.16";
    Discard(Discard) = "discard", "9.7.9.17";
    Createpolicy(Createpolicy) = "createpolicy", "9.7.9.18";
    Isspacep(Isspacep) = "isspacep", "9.7.9.19";
    Cvta(Cvta) = "cvta", "9.7.9.20";
    Cvt(Cvt) = "cvt", "9.7.9.21";
    CvtPack(CvtPack) = "cvt.pack", "9.7.9.22";
    Mapa(Mapa) = "mapa", "9.7.9.23";
    Getctarank(Getctarank) = "getctarank", "9.7.9.24";
    CpAsync(CpAsync) = "cp.async", "9.7.9.25.3.1";
    CpAsyncCommitGroup(CpAsyncCommitGroup) = "cp.async.commit_group", "9.7.9.25.3.2";
    CpAsyncWaitGroup(CpAsyncWaitGroup) = "cp.async.wait_group", "9.7.9.25.3.3";
    CpAsyncWaitAll(CpAsyncWaitAll) = "cp.async.wait_all", "9.7.9.25.3.3";
    CpAsyncMbarrierArrive(CpAsyncMbarrierArrive) = "cp.async.mbarrier.arrive", "9.7.9.25.3.4";
    CpAsyncBulk(CpAsyncBulk) = "cp.async.bulk", "9.7.9.25.4.1";
    CpReduceAsyncBulk(CpReduceAsyncBulk) = "cp.reduce.async.bulk", "9.7.9.25.4.2";
    CpAsyncBulkPrefetch(CpAsyncBulkPrefetch) = "cp.async.bulk.prefetch", "9.7.9.25.4.3";
    CpAsyncBulkTensor(CpAsyncBulkTensor) = "cp.async.bulk.tensor", "9.7.9.25.5.2";
    CpReduceAsyncBulkTensor(CpReduceAsyncBulkTensor) = "cp.reduce.async.bulk.tensor", "9.7.9.25.5.3";
    CpAsyncBulkPrefetchTensor(CpAsyncBulkPrefetchTensor) = "cp.async.bulk.prefetch.tensor", "9.7.9.25.5.4";
    CpAsyncBulkCommitGroup(CpAsyncBulkCommitGroup) = "cp.async.bulk.commit_group", "9.7.9.25.6.1";
    CpAsyncBulkWaitGroup(CpAsyncBulkWaitGroup) = "cp.async.bulk.wait_group", "9.7.9.25.6.2";
    TensormapReplace(TensormapReplace) = "tensormap.replace", "9.7.9.26";
    Fence(Fence) = "fence", "9.7.13.4";
    Mbarrier(Mbarrier) = "mbarrier", "9.7.13.15";
    TensormapCpFenceproxy(TensormapCpFenceproxy) = "tensormap.cp_fenceproxy", "9.7.13.16";
}

impl Family {
    /// The family named `name` (as [`Family::name`] prints it).
    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.iter().copied().find(|f| f.name() == name)
    }

    /// The family an opcode belongs to, from its mnemonic and distinguishing tokens.
    pub fn classify(opcode: &str) -> Option<Family> {
        let toks: Vec<&str> = opcode.split('.').collect();
        let rest = &toks[1..];
        let has = |t: &str| rest.contains(&t);
        let starts = |p: &[&str]| rest.len() >= p.len() && rest[..p.len()] == *p;
        Some(match toks[0] {
            "mov" => Family::Mov,
            "shfl" if has("sync") => Family::ShflSync,
            "shfl" => Family::Shfl,
            "prmt" => Family::Prmt,
            "ld" if has("nc") => Family::LdGlobalNc,
            "ld" => Family::Ld,
            "ldu" => Family::Ldu,
            "st" if starts(&["async"]) => Family::StAsync,
            "st" if starts(&["bulk"]) => Family::StBulk,
            "st" => Family::St,
            "multimem" if starts(&["ld_reduce"]) => Family::MultimemLdReduce,
            "multimem" if starts(&["st"]) => Family::MultimemSt,
            "multimem" if starts(&["red"]) => Family::MultimemRed,
            "prefetch" => Family::Prefetch,
            "prefetchu" => Family::Prefetchu,
            "applypriority" => Family::Applypriority,
            "discard" => Family::Discard,
            "createpolicy" => Family::Createpolicy,
            "isspacep" => Family::Isspacep,
            "cvta" => Family::Cvta,
            "cvt" if starts(&["pack"]) => Family::CvtPack,
            "cvt" => Family::Cvt,
            "mapa" => Family::Mapa,
            "getctarank" => Family::Getctarank,
            "cp" if starts(&["async", "commit_group"]) => Family::CpAsyncCommitGroup,
            "cp" if starts(&["async", "wait_group"]) => Family::CpAsyncWaitGroup,
            "cp" if starts(&["async", "wait_all"]) => Family::CpAsyncWaitAll,
            "cp" if starts(&["async", "mbarrier", "arrive"]) => Family::CpAsyncMbarrierArrive,
            "cp" if starts(&["async", "bulk", "commit_group"]) => Family::CpAsyncBulkCommitGroup,
            "cp" if starts(&["async", "bulk", "wait_group"]) => Family::CpAsyncBulkWaitGroup,
            "cp" if starts(&["async", "bulk", "prefetch", "tensor"]) => Family::CpAsyncBulkPrefetchTensor,
            "cp" if starts(&["async", "bulk", "prefetch"]) => Family::CpAsyncBulkPrefetch,
            "cp" if starts(&["async", "bulk", "tensor"]) => Family::CpAsyncBulkTensor,
            "cp" if starts(&["async", "bulk"]) => Family::CpAsyncBulk,
            "cp" if starts(&["reduce", "async", "bulk", "tensor"]) => Family::CpReduceAsyncBulkTensor,
            "cp" if starts(&["reduce", "async", "bulk"]) => Family::CpReduceAsyncBulk,
            "cp" if starts(&["async"]) => Family::CpAsync,
            "tensormap" if starts(&["replace"]) => Family::TensormapReplace,
            "tensormap" if starts(&["cp_fenceproxy"]) => Family::TensormapCpFenceproxy,
            "fence" => Family::Fence,
            "mbarrier" => Family::Mbarrier,
            _ => return None,
        })
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Form {
    /// Parses an opcode with the operand list it is used with.
    pub fn parse(opcode: &str, operands: &[Operand]) -> Result<Form, ParseError> {
        let family = Family::classify(opcode).ok_or_else(|| ParseError::new(opcode, NOT_MODELLED))?;
        let mut bag = TokenBag::new(opcode)?;
        let form = family.parse(&mut bag, operands)?;
        bag.finish()?;
        operand::check_operands(opcode, &form.operands(), operands)?;
        Ok(form)
    }

    /// Parses an opcode alone, as `eval` names instructions. Families whose operand list
    /// decides the form (mov's shapes, `shfl.sync d|p`, …) get the shape an empty operand list
    /// implies; operand counts are not checked.
    pub fn parse_opcode(opcode: &str) -> Result<Form, ParseError> {
        let family = Family::classify(opcode).ok_or_else(|| ParseError::new(opcode, NOT_MODELLED))?;
        let mut bag = TokenBag::new(opcode)?;
        let form = family.parse(&mut bag, &[])?;
        bag.finish()?;
        Ok(form)
    }

    /// The opcode followed by the operand slots, e.g. `cvt.rn.f16x2.f32 d, a, b`.
    pub fn template(&self) -> String {
        let ops: Vec<String> = self.operands().iter().map(slot_template).collect();
        if ops.is_empty() {
            self.opcode()
        } else {
            format!("{} {}", self.opcode(), ops.join(", "))
        }
    }

    /// Whether the form is legal and `target` meets its requirement.
    pub fn is_valid(&self, target: &Target) -> bool {
        is_valid(self, target)
    }
}

fn slot_template(s: &OperandSpec) -> String {
    match s.kind {
        // Symbols print as the name of their kind (`gbuf`, `sbuf`, …), so that templates of
        // different kinds differ and each parses back to its own form.
        OperandKind::Symbol(k) => mov::symbol_name(k).to_string(),
        // An immediate that is part of the form (cp.async's `cp-size`) shows its value.
        OperandKind::Imm(v) => format!("{}={v}", s.name),
        OperandKind::Addr(operand::AddrKind::GlobalUnified) => format!("[{}].unified", s.name),
        OperandKind::Vector(_, n) if !s.name.contains(',') => format!("{{{}×{n}}}", s.name),
        OperandKind::Vector(..) => format!("{{{}}}", s.name),
        OperandKind::Addr(_) => format!("[{}]", s.name),
        OperandKind::TensorRef(n) => format!("[{}, {{c×{n}}}]", s.name),
        OperandKind::RegWithPred(_) => format!("{}|p", s.name),
        OperandKind::Sink => "_".into(),
        _ => s.name.to_string(),
    }
}

/// The single validity question: is `form` legal, and does `target` meet its requirement?
pub fn is_valid(form: &Form, target: &Target) -> bool {
    form.check().is_ok_and(|r| r.admits(target))
}

/// Every legal form of every family that `target` supports, with its requirement, in the
/// order of the families' candidates.
pub fn valid_forms(target: &Target, family: Option<Family>) -> Vec<(Form, Requirement)> {
    let families: Vec<Family> = match family {
        Some(f) => vec![f],
        None => Family::ALL.to_vec(),
    };
    families
        .into_iter()
        .flat_map(|f| legal_forms(f).iter().filter(|(_, req)| req.admits(target)).cloned().collect::<Vec<_>>())
        .collect()
}

/// The legal forms of `family` (whatever the target) with their requirements, in candidate
/// order: checked once per process, since generators ask for them for every program they draw
/// (the check of every candidate was most of `fuzz --async`'s generation time).
fn legal_forms(family: Family) -> std::sync::Arc<Vec<(Form, Requirement)>> {
    use std::collections::BTreeMap;
    use std::sync::{Arc, Mutex, OnceLock};
    type Legal = Arc<Vec<(Form, Requirement)>>;
    static LEGAL: OnceLock<Mutex<BTreeMap<Family, Legal>>> = OnceLock::new();
    let cache = LEGAL.get_or_init(|| Mutex::new(BTreeMap::new()));
    if let Some(forms) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&family) {
        return forms.clone();
    }
    // Checked outside the lock: two threads may both check a family once; the first to
    // finish is kept and both lists are equal.
    let forms: Vec<(Form, Requirement)> =
        family.candidates().into_iter().filter_map(|form| form.check().ok().map(|req| (form, req))).collect();
    cache.lock().unwrap_or_else(|e| e.into_inner()).entry(family).or_insert_with(|| Arc::new(forms)).clone()
}

/// An instruction guard: `@p` or `@!p`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Guard {
    /// `@!p` rather than `@p`.
    pub negated: bool,
    /// The predicate register.
    pub pred: String,
}

/// A form with its operands and an optional guard: one line of PTX.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    /// `@p` / `@!p`.
    pub guard: Option<Guard>,
    /// The form.
    pub form: Form,
    /// The operands, in order.
    pub operands: Vec<Operand>,
}

impl FromStr for Instruction {
    type Err = ParseError;
    /// Parses one instruction (`@!p cvt.rn.f16.f32 %h1, %f1;`; the `;` is optional).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let s = text.trim();
        let s = s.strip_suffix(';').unwrap_or(s).trim_end();
        let (guard, s) = match s.strip_prefix('@') {
            Some(rest) => {
                let (g, rest) = rest
                    .split_once(char::is_whitespace)
                    .ok_or_else(|| ParseError::new(text, "guard `@p` without an instruction"))?;
                let (negated, pred) = match g.strip_prefix('!') {
                    Some(p) => (true, p),
                    None => (false, g),
                };
                if pred.is_empty() {
                    return Err(ParseError::new(text, "empty guard predicate"));
                }
                (Some(Guard { negated, pred: pred.to_string() }), rest.trim_start())
            }
            None => (None, s),
        };
        if s.is_empty() {
            return Err(ParseError::new(text, "empty instruction"));
        }
        let (opcode, rest) = match s.split_once(char::is_whitespace) {
            Some((o, r)) => (o, r.trim()),
            None => (s, ""),
        };
        let operands = if rest.is_empty() {
            Vec::new()
        } else {
            operand::parse_operands(rest).map_err(|e| ParseError::new(text, e))?
        };
        let form = Form::parse(opcode, &operands)?;
        Ok(Instruction { guard, form, operands })
    }
}

impl fmt::Display for Instruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(g) = &self.guard {
            write!(f, "@{}{} ", if g.negated { "!" } else { "" }, g.pred)?;
        }
        f.write_str(&self.form.opcode())?;
        for (i, o) in self.operands.iter().enumerate() {
            f.write_str(if i == 0 { " " } else { ", " })?;
            write!(f, "{o}")?;
        }
        f.write_str(";")
    }
}

/// Helpers for the families' unit tests.
#[cfg(test)]
pub(crate) mod test_util {
    use super::{Form, Instruction, Target};

    /// The instruction `s`, which must parse.
    pub fn inst(s: &str) -> Instruction {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    /// The form of the instruction `s`, which must parse.
    pub fn form(s: &str) -> Form {
        inst(s).form
    }

    /// Whether the instruction `s` is valid on the target named `t`.
    pub fn valid_on(s: &str, t: &str) -> bool {
        form(s).is_valid(&t.parse::<Target>().unwrap())
    }

    /// Asserts that every instruction of `list` parses to a legal form.
    pub fn assert_legal(list: &[&str]) {
        for s in list {
            let f = form(s);
            assert!(f.check().is_ok(), "{s}: {:?}", f.check());
        }
    }

    /// Asserts that every instruction of `list` parses to an illegal form.
    pub fn assert_illegal(list: &[&str]) {
        for s in list {
            assert!(form(s).check().is_err(), "{s} should be illegal");
        }
    }
}
