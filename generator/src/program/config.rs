//! The program generator's configuration: which instruction families and qualifier knobs are
//! enabled, how long programs are, and the rates of glue, immediates, divergence, predication
//! and edge values.
//!
//! One flat struct, TOML-loadable (`#[serde(default, deny_unknown_fields)]`: a file names only
//! what it changes, and a misspelt key is an error). Every field documents its default.
//!
//! Swarm testing (Groce et al., "Swarm Testing", ISSTA 2012; wasm-smith's `Config`):
//! [`Config::swarm`] draws, per program, a configuration *within the bounds* of this one — a
//! random subset of the enabled families and knobs, a random length range and random rates no
//! larger than the configured ones. It may only turn things off or down, never on or up, so a
//! configuration that disables a family is obeyed by every swarm draw. Families and knobs are
//! also addressable by name ([`FAMILIES`], [`KNOBS`], [`Config::switches_mut`]); the
//! probability a draw keeps one on is ½ unless [`Config::swarm_weights`] names it (adaptive
//! campaigns set those weights).
//!
//! Invariant: [`Config::sanitized`] is idempotent and everything the generator reads from a
//! configuration goes through it, so any deserialized value (negative rates, empty choice lists,
//! `min_len > max_len`) still yields valid programs.

use std::collections::BTreeMap;

use arbitrary::Unstructured;
use serde::{Deserialize, Serialize};

use oracle::program::{MAX_OUTPUTS, MAX_THREADS};

/// The longest program body [`Config::sanitized`] lets through (instructions before the output
/// epilogue); longer requests are clamped. Chosen so one program stays well under ptxas's and
/// the interpreter's comfortable sizes while allowing long dataflow chains.
pub const MAX_LEN: u32 = 4096;

/// The most input words per thread [`Config::sanitized`] lets through.
pub const MAX_INPUT_WORDS: u32 = oracle::program::MAX_INPUTS;

/// The most shared-memory words per thread [`Config::sanitized`] lets through (48 KiB of
/// static shared memory at 1024 threads is 12 words; 64 words at 128 threads is 32 KiB).
pub const MAX_SHARED_WORDS: u32 = 64;

/// The deepest nesting of forward branches [`Config::sanitized`] lets through.
pub const MAX_DEPTH: u32 = 8;

/// Generator configuration (see the module documentation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    // ----- instruction families -----
    /// `cvt` (§9.7.9.21): every valid form the registers can express. Defaults to `true`.
    pub cvt: bool,
    /// `cvt.pack` (§9.7.9.22). Defaults to `true`.
    pub cvt_pack: bool,
    /// `prmt` (§9.7.9.7), generic and with modes. Defaults to `true`.
    pub prmt: bool,
    /// `shfl.sync` (§9.7.9.6), converged, full member mask. Defaults to `true`.
    pub shfl: bool,
    /// `mov` (§9.7.9.3, §9.7.9.4): copies, immediates, pack and unpack. Defaults to `true`.
    pub mov: bool,
    /// `ld.global` (§9.7.9.8) with its qualifiers as an instruction under test. When off, the
    /// program still loads its inputs, with unqualified scalar loads only. Defaults to `true`.
    pub ld: bool,
    /// `ld.global.nc` (§9.7.9.9). Defaults to `true`.
    pub ld_nc: bool,
    /// `st.global` (§9.7.9.11) with its qualifiers for the output stores. When off, outputs are
    /// stored with unqualified forms only. Defaults to `true`.
    pub st: bool,
    /// Shared-memory round trips: `st.shared` to the thread's own slot, `bar.sync`, and
    /// `ld.shared` from the own or the neighbour's slot. Defaults to `true`.
    pub shared: bool,
    /// `prefetch.global` hints (§9.7.9.15) on the thread's input and output words: no effect
    /// on values, so they test that the compiler keeps them harmless. Defaults to `true`.
    pub prefetch: bool,
    /// Optimizer-stressing chains (dense def-use chains through folds; see the `fold_*`
    /// ingredients). Defaults to `true`.
    pub folds: bool,

    // ----- fold ingredients (each a chain shape of the `folds` family) -----
    /// `and`/`or` with boundary masks and shifts by boundary amounts (§9.7.8.7–8). Defaults
    /// to `true`.
    pub fold_masks: bool,
    /// `setp` against a boundary, `selp` on it (§9.7.8.10) and an `@p`-guarded rewrite.
    /// Defaults to `true`.
    pub fold_selects: bool,
    /// A short forward branch on a data comparison around one or two rewrites (the shape
    /// if-conversion predicates). Defaults to `true`.
    pub fold_if_conversion: bool,
    /// `cvt.a.b` then `cvt.b.a` (§9.7.9.21): float round trips, widening then narrowing.
    /// Defaults to `true`.
    pub fold_round_trips: bool,
    /// 16- and 8-bit values through 16-bit arithmetic, widened by `cvt` (zero or sign
    /// extension) and shifted. Defaults to `true`.
    pub fold_sub_words: bool,
    /// One value reaching a consumer by two paths (`(v & m) op (v >> k)`). Defaults to `true`.
    pub fold_two_paths: bool,
    /// A 16-bit value (float `cvt` or 16-bit arithmetic) stored with an 8- or 16-bit
    /// `st.shared`, loaded back and added to itself (needs `shared`). Defaults to `true`.
    pub fold_narrow_stores: bool,
    /// Known-bits producers (boundary masks, shifts by constants, `cvt` sign or zero
    /// extension, `prmt` with an immediate selector in every mode, `bfe` with constant
    /// position and length) feeding a known-bits consumer (a mask, an extension, a comparison,
    /// a select, a narrow shared store, an integer conversion). Defaults to `true`.
    pub fold_known_bits: bool,
    /// If/else diamonds: `@p bra` to an else arm, a then arm ending in `bra` to the join, each
    /// arm writing the same registers with one or two instructions (the shape ptxas turns into
    /// selects or predication), then a consumer of the joined values. Defaults to `true`.
    pub fold_diamonds: bool,
    /// Short counted loops: a counter from an immediate, a body of one to four glue
    /// instructions updating loop-carried values, an increment and a backward `@p bra`,
    /// 1–8 trips, the same for every thread (top level only). Defaults to `true`.
    pub fold_loops: bool,

    // ----- glue ingredients (instructions beside the basic integer glue) -----
    /// `mul.hi`, `mul.wide`, `mad.lo`, `mad.hi`, `mad.wide` (§9.7.1.3–4). Defaults to `true`.
    pub glue_mul: bool,
    /// Bit manipulation: `bfe`, `bfi`, `lop3`, `shf`, `cnot`, `popc`, `clz`, `bfind`, `brev`
    /// (§9.7.1.14–20, §9.7.8.5–7). Defaults to `true`.
    pub glue_bits: bool,
    /// `set` (an integer mask or `1.0f`) and `slct` (§9.7.7.1, §9.7.7.4). Defaults to `true`.
    pub glue_select: bool,
    /// Carry chains: `add.cc` or `sub.cc` followed at once by one to three `addc`/`subc`
    /// (§9.7.2), unguarded. Defaults to `true`.
    pub glue_carry: bool,

    // ----- qualifier knobs (a form using a disabled knob is not chosen) -----
    /// Vector loads and stores (`.v2`, `.v4`, `.v8`). Defaults to `true`.
    pub vectors: bool,
    /// Memory-ordering qualifiers `.volatile`, `.relaxed`, `.acquire`, `.release` with their
    /// scopes, on loads and stores. Defaults to `true`.
    pub memory_ordering: bool,
    /// Cache operators (`.ca`, `.cg`, `.cs`, `.lu`, `.cv`, `.wb`, `.wt`; §9.7.9.1). Defaults to
    /// `true`.
    pub cache_operators: bool,
    /// Eviction priorities (`.L1::…`, `.L2::…`; §9.7.9.2). Defaults to `true`.
    pub eviction_priority: bool,
    /// `.level::prefetch_size` (`.L2::64B` …) on loads. Defaults to `true`.
    pub prefetch_size: bool,
    /// Shared accesses through the `.shared::cluster` window (a CTA's own `.shared::cta`
    /// address is valid there). Defaults to `true`.
    pub shared_cluster: bool,
    /// The sink `_` in vector destinations (mov unpack; 256-bit loads). Defaults to `true`.
    pub sinks: bool,
    /// `.rn/.rz/.rm/.rp` and `.rni/.rzi/.rmi/.rpi` other than the one a form requires: when
    /// off, conversions keep only `.rn`/`.rni` (and forms without rounding). Defaults to `true`.
    pub rounding_modes: bool,
    /// `.sat` on `cvt`. Defaults to `true`.
    pub saturate: bool,
    /// `.ftz` on `cvt`. Defaults to `true`.
    pub ftz: bool,
    /// `.relu` on `cvt`. Defaults to `true`.
    pub relu: bool,
    /// `.satfinite` where it is optional. Defaults to `true`.
    pub satfinite: bool,
    /// `.rs` stochastic rounding with `rbits` (sm_100a/sm_103a). Defaults to `true`.
    pub stochastic_rounding: bool,
    /// FP8/FP6/FP4 and UE8M0 conversions. Defaults to `true`.
    pub narrow_floats: bool,
    /// `.f16x2`/`.bf16x2`/`.tf32` conversions. Defaults to `true`.
    pub packed_halves: bool,
    /// `.f64` conversions, moves and memory types. Defaults to `true`.
    pub f64: bool,
    /// Integer `cvt` (to, from and between integer types). Defaults to `true`.
    pub int_conversions: bool,
    /// `prmt` modes (`.f4e` …); the generic form stays. Defaults to `true`.
    pub prmt_modes: bool,
    /// `shfl.sync` with the destination predicate (`d|p`). Defaults to `true`.
    pub shfl_predicate: bool,
    /// `.L2::cache_hint` global loads and stores with a policy from `createpolicy`
    /// (§9.7.9.18): hints that change no value. Defaults to `true`.
    pub cache_hint: bool,

    // ----- shape and rates -----
    /// Fewest instructions in the body before the output epilogue. Defaults to 8.
    pub min_len: u32,
    /// Most instructions in the body before the output epilogue (at most [`MAX_LEN`]).
    /// Defaults to 40.
    pub max_len: u32,
    /// Probability that a step emits an integer glue instruction rather than an instruction
    /// under test. Defaults to 0.35: enough mixing that values flow between the tested
    /// instructions, while two thirds of the steps still exercise the ISA model.
    pub glue_density: f64,
    /// Probability that an operand that may be an immediate is one, and that a fresh value
    /// comes from `mov` of an immediate rather than a load (so the optimizer can fold).
    /// Defaults to 0.25.
    pub immediate_rate: f64,
    /// Probability per step of opening a forward branch (`@p bra`) while the nesting depth
    /// allows. Defaults to 0.12: a few divergent regions per 40-instruction program (swarm
    /// draws scale it down).
    pub divergence_rate: f64,
    /// Probability that an instruction is guarded by `@p`/`@!p` (where it may be: not loads of
    /// fresh values, `shfl.sync`, shared stores, output stores). Defaults to 0.2.
    pub predication_rate: f64,
    /// Probability that a value (immediate or input word) comes from the edge-case pool of its
    /// format rather than random bits. Defaults to 0.5 (wasmtime's `biased_arbitrary_value`).
    pub edge_rate: f64,
    /// Deepest nesting of forward branches (at most [`MAX_DEPTH`]). Defaults to 3.
    pub max_depth: u32,
    /// CTA sizes to choose from (multiples of 32, at most 1024). Defaults to `[32, 64, 128]`.
    pub threads: Vec<u32>,
    /// Input words per thread to choose from (multiples of 4, 4..=256; 32-byte loads need a
    /// multiple of 8, `applypriority` and `discard` of a 128-byte line a multiple of 32).
    /// Defaults to `[8, 16, 64]`.
    pub input_words: Vec<u32>,
    /// Output words per thread to choose from (1, 2 or 4). Defaults to `[1, 2, 4]`.
    pub outputs: Vec<u32>,
    /// Shared-memory words per thread when [`Config::shared`] is on (a multiple of 4, at most
    /// [`MAX_SHARED_WORDS`]). Defaults to 8.
    pub shared_words: u32,
    /// Whether [`generate`](super::generate) draws a [`Config::swarm`] configuration per
    /// program. Defaults to `true`.
    pub swarm: bool,
    /// Per switch (a name of [`FAMILIES`] or [`KNOBS`]), the probability that a swarm draw
    /// keeps it on when the configuration enables it; a switch not named here stays on with
    /// probability 1/2. Adaptive campaigns set this between batches. Values are clamped to
    /// [`MIN_KEEP`]`..=`[`MAX_KEEP`] (a switch is never starved) and unknown names dropped
    /// ([`Config::sanitized`]). Defaults to empty.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub swarm_weights: BTreeMap<String, f64>,
}

/// The family switches of [`Config`], by field name, in swarm-draw order.
pub const FAMILIES: [&str; 11] =
    ["cvt", "cvt_pack", "prmt", "shfl", "mov", "ld", "ld_nc", "st", "shared", "prefetch", "folds"];

/// The knob switches of [`Config`] (qualifier knobs and fold ingredients), by field name, in
/// swarm-draw order.
pub const KNOBS: [&str; 34] = [
    "vectors",
    "memory_ordering",
    "cache_operators",
    "eviction_priority",
    "prefetch_size",
    "shared_cluster",
    "sinks",
    "rounding_modes",
    "saturate",
    "ftz",
    "relu",
    "satfinite",
    "stochastic_rounding",
    "narrow_floats",
    "packed_halves",
    "f64",
    "int_conversions",
    "prmt_modes",
    "shfl_predicate",
    "cache_hint",
    "fold_masks",
    "fold_selects",
    "fold_if_conversion",
    "fold_round_trips",
    "fold_sub_words",
    "fold_two_paths",
    "fold_narrow_stores",
    "fold_known_bits",
    "fold_diamonds",
    "fold_loops",
    "glue_mul",
    "glue_bits",
    "glue_select",
    "glue_carry",
];

/// The least keep probability of a weighted swarm switch.
pub const MIN_KEEP: f64 = 0.05;
/// The greatest keep probability of a weighted swarm switch.
pub const MAX_KEEP: f64 = 0.95;

impl Default for Config {
    fn default() -> Self {
        Config {
            cvt: true,
            cvt_pack: true,
            prmt: true,
            shfl: true,
            mov: true,
            ld: true,
            ld_nc: true,
            st: true,
            shared: true,
            prefetch: true,
            folds: true,
            fold_masks: true,
            fold_selects: true,
            fold_if_conversion: true,
            fold_round_trips: true,
            fold_sub_words: true,
            fold_two_paths: true,
            fold_narrow_stores: true,
            fold_known_bits: true,
            fold_diamonds: true,
            fold_loops: true,
            glue_mul: true,
            glue_bits: true,
            glue_select: true,
            glue_carry: true,
            vectors: true,
            memory_ordering: true,
            cache_operators: true,
            eviction_priority: true,
            prefetch_size: true,
            shared_cluster: true,
            sinks: true,
            rounding_modes: true,
            saturate: true,
            ftz: true,
            relu: true,
            satfinite: true,
            stochastic_rounding: true,
            narrow_floats: true,
            packed_halves: true,
            f64: true,
            int_conversions: true,
            prmt_modes: true,
            shfl_predicate: true,
            cache_hint: true,
            min_len: 8,
            max_len: 40,
            glue_density: 0.35,
            immediate_rate: 0.25,
            divergence_rate: 0.12,
            predication_rate: 0.2,
            edge_rate: 0.5,
            max_depth: 3,
            threads: vec![32, 64, 128],
            input_words: vec![8, 16, 64],
            outputs: vec![1, 2, 4],
            shared_words: 8,
            swarm: true,
            swarm_weights: BTreeMap::new(),
        }
    }
}

fn rate(x: f64) -> f64 {
    if x.is_nan() {
        0.0
    } else {
        x.clamp(0.0, 1.0)
    }
}

/// A rate as parts per thousand, for integer draws from the byte stream.
pub(crate) fn permille(x: f64) -> u32 {
    (rate(x) * 1000.0).round() as u32
}

impl Config {
    /// Applies every bound to the fields: rates into `0..=1`, lengths ordered and at most
    /// [`MAX_LEN`], choice lists filtered to legal values (an empty list falls back to its
    /// default), shared words rounded down to a multiple of 4.
    pub fn sanitized(&self) -> Config {
        let mut c = self.clone();
        c.max_len = c.max_len.clamp(1, MAX_LEN);
        c.min_len = c.min_len.clamp(1, c.max_len);
        c.glue_density = rate(c.glue_density);
        c.immediate_rate = rate(c.immediate_rate);
        c.divergence_rate = rate(c.divergence_rate);
        c.predication_rate = rate(c.predication_rate);
        c.edge_rate = rate(c.edge_rate);
        c.max_depth = c.max_depth.min(MAX_DEPTH);
        let keep = |v: &[u32], ok: &dyn Fn(u32) -> bool, default: Vec<u32>| {
            let mut k: Vec<u32> = v.iter().copied().filter(|&x| ok(x)).collect();
            k.sort_unstable();
            k.dedup();
            if k.is_empty() {
                default
            } else {
                k
            }
        };
        let d = Config::default();
        c.threads = keep(&c.threads, &|t| t > 0 && t.is_multiple_of(32) && t <= MAX_THREADS, d.threads);
        c.input_words = keep(&c.input_words, &|w| w > 0 && w.is_multiple_of(4) && w <= MAX_INPUT_WORDS, d.input_words);
        c.outputs = keep(&c.outputs, &|o| matches!(o, 1 | 2 | 4) && o <= MAX_OUTPUTS, d.outputs);
        c.shared_words = (c.shared_words.min(MAX_SHARED_WORDS) / 4) * 4;
        if c.shared_words == 0 {
            c.shared = false;
        }
        c.swarm_weights.retain(|k, _| FAMILIES.contains(&k.as_str()) || KNOBS.contains(&k.as_str()));
        for w in c.swarm_weights.values_mut() {
            *w = if w.is_nan() { 0.5 } else { w.clamp(MIN_KEEP, MAX_KEEP) };
        }
        c
    }

    /// Every family and knob switch by name ([`FAMILIES`] then [`KNOBS`]), for reading and
    /// writing them by name.
    pub fn switches_mut(&mut self) -> [(&'static str, &mut bool); 45] {
        [
            ("cvt", &mut self.cvt),
            ("cvt_pack", &mut self.cvt_pack),
            ("prmt", &mut self.prmt),
            ("shfl", &mut self.shfl),
            ("mov", &mut self.mov),
            ("ld", &mut self.ld),
            ("ld_nc", &mut self.ld_nc),
            ("st", &mut self.st),
            ("shared", &mut self.shared),
            ("prefetch", &mut self.prefetch),
            ("folds", &mut self.folds),
            ("vectors", &mut self.vectors),
            ("memory_ordering", &mut self.memory_ordering),
            ("cache_operators", &mut self.cache_operators),
            ("eviction_priority", &mut self.eviction_priority),
            ("prefetch_size", &mut self.prefetch_size),
            ("shared_cluster", &mut self.shared_cluster),
            ("sinks", &mut self.sinks),
            ("rounding_modes", &mut self.rounding_modes),
            ("saturate", &mut self.saturate),
            ("ftz", &mut self.ftz),
            ("relu", &mut self.relu),
            ("satfinite", &mut self.satfinite),
            ("stochastic_rounding", &mut self.stochastic_rounding),
            ("narrow_floats", &mut self.narrow_floats),
            ("packed_halves", &mut self.packed_halves),
            ("f64", &mut self.f64),
            ("int_conversions", &mut self.int_conversions),
            ("prmt_modes", &mut self.prmt_modes),
            ("shfl_predicate", &mut self.shfl_predicate),
            ("cache_hint", &mut self.cache_hint),
            ("fold_masks", &mut self.fold_masks),
            ("fold_selects", &mut self.fold_selects),
            ("fold_if_conversion", &mut self.fold_if_conversion),
            ("fold_round_trips", &mut self.fold_round_trips),
            ("fold_sub_words", &mut self.fold_sub_words),
            ("fold_two_paths", &mut self.fold_two_paths),
            ("fold_narrow_stores", &mut self.fold_narrow_stores),
            ("fold_known_bits", &mut self.fold_known_bits),
            ("fold_diamonds", &mut self.fold_diamonds),
            ("fold_loops", &mut self.fold_loops),
            ("glue_mul", &mut self.glue_mul),
            ("glue_bits", &mut self.glue_bits),
            ("glue_select", &mut self.glue_select),
            ("glue_carry", &mut self.glue_carry),
        ]
    }

    /// The switches that are on, by name ([`FAMILIES`] then [`KNOBS`] order).
    pub fn switches_on(&self) -> Vec<&'static str> {
        let mut c = self.clone();
        c.switches_mut().into_iter().filter(|(_, on)| **on).map(|(name, _)| name).collect()
    }

    /// Swarm testing: a configuration within the bounds of this one (sanitized first). Each
    /// enabled family and knob stays on with probability 1/2, or its
    /// [`Config::swarm_weights`] probability when it has one (at least one family under test
    /// stays on if any was); the length range is a random sub-range; each rate is scaled by a
    /// random factor in `[0, 1]`; the CTA size, input and output words are each narrowed to one
    /// of the allowed choices. Nothing disabled here is enabled in the result.
    pub fn swarm(&self, u: &mut Unstructured) -> arbitrary::Result<Config> {
        let mut c = self.sanitized();
        let weights = std::mem::take(&mut c.swarm_weights);
        // Whether an enabled switch stays on: a fair coin, or its adaptive weight.
        let keep = |name: &str, u: &mut Unstructured| -> arbitrary::Result<bool> {
            match weights.get(name) {
                None => u.arbitrary::<bool>(),
                Some(&w) => Ok(u.int_in_range(0..=999u32)? < permille(w)),
            }
        };
        let mut switches = c.switches_mut();
        let (families, knobs) = switches.split_at_mut(FAMILIES.len());
        let was_on: Vec<usize> = families.iter().enumerate().filter(|(_, (_, f))| **f).map(|(i, _)| i).collect();
        let mut kept = false;
        for (name, f) in families.iter_mut() {
            if **f {
                **f = keep(name, u)?;
                kept |= **f;
            }
        }
        if !kept && !was_on.is_empty() {
            // Keep one family on: a program of glue only tests nothing.
            let i = was_on[u.choose_index(was_on.len())?];
            *families[i].1 = true;
        }
        for (name, k) in knobs.iter_mut() {
            if **k {
                **k = keep(name, u)?;
            }
        }
        let lo = u.int_in_range(c.min_len..=c.max_len)?;
        let hi = u.int_in_range(lo..=c.max_len)?;
        c.min_len = lo;
        c.max_len = hi;
        for r in [
            &mut c.glue_density,
            &mut c.immediate_rate,
            &mut c.divergence_rate,
            &mut c.predication_rate,
            &mut c.edge_rate,
        ] {
            *r *= f64::from(u.int_in_range(0u8..=100)?) / 100.0;
        }
        c.max_depth = u.int_in_range(0..=c.max_depth)?;
        c.threads = vec![*u.choose(&c.threads)?];
        c.input_words = vec![*u.choose(&c.input_words)?];
        c.outputs = vec![*u.choose(&c.outputs)?];
        c.swarm = false;
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_names_only_what_it_changes_and_rejects_typos() {
        let c: Config = toml::from_str("cvt = false\nmax_len = 100\nthreads = [64]\n").unwrap();
        assert!(!c.cvt && c.prmt);
        assert_eq!((c.min_len, c.max_len, c.threads.as_slice()), (8, 100, &[64][..]));
        assert!(toml::from_str::<Config>("cvtt = false\n").is_err());
        let round: Config = toml::from_str(&toml::to_string(&Config::default()).unwrap()).unwrap();
        assert_eq!(round, Config::default());
        let w: Config = toml::from_str("fold_masks = false\n[swarm_weights]\ncvt = 0.9\nfolds = 0.0\n").unwrap();
        assert!(!w.fold_masks && w.fold_selects);
        let s = w.sanitized();
        assert_eq!((s.swarm_weights["cvt"], s.swarm_weights["folds"]), (0.9, MIN_KEEP));
        let round: Config = toml::from_str(&toml::to_string(&w).unwrap()).unwrap();
        assert_eq!(round, w);
    }

    #[test]
    fn sanitize_bounds_everything_and_is_idempotent() {
        let bad = Config {
            min_len: 50,
            max_len: 10,
            glue_density: -1.0,
            edge_rate: f64::NAN,
            threads: vec![33, 0, 2048],
            input_words: vec![6],
            outputs: vec![3],
            shared_words: 7,
            ..Config::default()
        };
        let s = bad.sanitized();
        assert_eq!((s.min_len, s.max_len), (10, 10));
        assert_eq!((s.glue_density, s.edge_rate), (0.0, 0.0));
        assert_eq!(s.threads, Config::default().threads);
        assert_eq!(s.input_words, Config::default().input_words);
        assert_eq!(s.outputs, Config::default().outputs);
        assert_eq!(s.shared_words, 4);
        assert_eq!(s.sanitized(), s);
    }

    #[test]
    fn swarm_only_turns_things_off_or_down() {
        let base =
            Config { cvt: false, max_len: 30, divergence_rate: 0.2, threads: vec![64, 128], ..Config::default() };
        for seed in 0..200u8 {
            let bytes: Vec<u8> = (0..256).map(|i| (i as u8).wrapping_mul(seed).wrapping_add(seed)).collect();
            let s = base.swarm(&mut Unstructured::new(&bytes)).unwrap();
            assert!(!s.cvt);
            assert!(
                s.cvt_pack || s.prmt || s.shfl || s.mov || s.ld || s.ld_nc || s.st || s.shared || s.prefetch || s.folds
            );
            assert!(s.min_len >= base.min_len && s.max_len <= 30 && s.min_len <= s.max_len);
            assert!(s.divergence_rate <= 0.2);
            assert!(s.threads.len() == 1 && base.threads.contains(&s.threads[0]));
            assert!(!s.swarm);
        }
        // Exhausted input still gives a configuration.
        assert!(base.swarm(&mut Unstructured::new(&[])).is_ok());
    }
}
