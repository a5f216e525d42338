//! The program generator's configuration: which instruction families and qualifier knobs are
//! enabled, how long programs are, and the rates of glue, immediates, divergence, predication
//! and edge values.
//!
//! One flat struct, TOML-loadable (`#[serde(default, deny_unknown_fields)]`: a file names only
//! what it changes, and a misspelt key is an error). Each knob is declared once, with its doc
//! and default, in the `define_config!` invocation below (`generator/src/define_config.rs`,
//! shared with the memory-program generator's configuration), which writes the struct, its
//! `Default`, the "Defaults to" line of each doc and the switch tables. The swarm reads the switches in
//! declaration order ([`Config::DRAWN`] is `0, 1, 2, …`).
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

use crate::define_config::define_config;

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

define_config! {
    /// Generator configuration (see the module documentation).
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct Config {
        switches {
            /// The instruction families under test, in swarm-draw order (a draw keeps at least
            /// one of those the configuration has on).
            FAMILIES {
                /// `cvt` (§9.7.9.21): every valid form the registers can express.
                cvt: bool = true, drawn 0;
                /// `cvt.pack` (§9.7.9.22).
                cvt_pack: bool = true, drawn 1;
                /// `prmt` (§9.7.9.7), generic and with modes.
                prmt: bool = true, drawn 2;
                /// `shfl.sync` (§9.7.9.6), converged, full member mask.
                shfl: bool = true, drawn 3;
                /// `mov` (§9.7.9.3, §9.7.9.4): copies, immediates, pack and unpack.
                mov: bool = true, drawn 4;
                /// `ld.global` (§9.7.9.8) with its qualifiers as an instruction under test. When
                /// off, the program still loads its inputs, with unqualified scalar loads only.
                ld: bool = true, drawn 5;
                /// `ld.global.nc` (§9.7.9.9).
                ld_nc: bool = true, drawn 6;
                /// `st.global` (§9.7.9.11) with its qualifiers for the output stores. When off,
                /// outputs are stored with unqualified forms only.
                st: bool = true, drawn 7;
                /// Shared-memory round trips: `st.shared` to the thread's own slot, `bar.sync`, and
                /// `ld.shared` from the own or the neighbour's slot.
                shared: bool = true, drawn 8;
                /// `prefetch.global` hints (§9.7.9.15) on the thread's input and output words: no
                /// effect on values, so they test that the compiler keeps them harmless.
                prefetch: bool = true, drawn 9;
                /// Optimizer-stressing chains (dense def-use chains through folds; see the `fold_*`
                /// ingredients).
                folds: bool = true, drawn 10;
            }
            /// The qualifier knobs, fold ingredients and glue ingredients, in swarm-draw order
            /// (a form using a knob that is off is not chosen).
            KNOBS {
                /// Vector loads and stores (`.v2`, `.v4`, `.v8`).
                vectors: bool = true, drawn 11;
                /// Memory-ordering qualifiers `.volatile`, `.relaxed`, `.acquire`, `.release` with
                /// their scopes, on loads and stores.
                memory_ordering: bool = true, drawn 12;
                /// Cache operators (`.ca`, `.cg`, `.cs`, `.lu`, `.cv`, `.wb`, `.wt`; §9.7.9.1).
                cache_operators: bool = true, drawn 13;
                /// Eviction priorities (`.L1::…`, `.L2::…`; §9.7.9.2).
                eviction_priority: bool = true, drawn 14;
                /// `.level::prefetch_size` (`.L2::64B` …) on loads.
                prefetch_size: bool = true, drawn 15;
                /// Shared accesses through the `.shared::cluster` window (a CTA's own
                /// `.shared::cta` address is valid there).
                shared_cluster: bool = true, drawn 16;
                /// The sink `_` in vector destinations (mov unpack; 256-bit loads).
                sinks: bool = true, drawn 17;
                /// `.rn/.rz/.rm/.rp` and `.rni/.rzi/.rmi/.rpi` other than the one a form requires:
                /// when off, conversions keep only `.rn`/`.rni` (and forms without rounding).
                rounding_modes: bool = true, drawn 18;
                /// `.sat` on `cvt`.
                saturate: bool = true, drawn 19;
                /// `.ftz` on `cvt`.
                ftz: bool = true, drawn 20;
                /// `.relu` on `cvt`.
                relu: bool = true, drawn 21;
                /// `.satfinite` where it is optional.
                satfinite: bool = true, drawn 22;
                /// `.rs` stochastic rounding with `rbits` (sm_100a/sm_103a).
                stochastic_rounding: bool = true, drawn 23;
                /// FP8/FP6/FP4 and UE8M0 conversions.
                narrow_floats: bool = true, drawn 24;
                /// `.f16x2`/`.bf16x2`/`.tf32` conversions.
                packed_halves: bool = true, drawn 25;
                /// `.f64` conversions, moves and memory types.
                f64: bool = true, drawn 26;
                /// Integer `cvt` (to, from and between integer types).
                int_conversions: bool = true, drawn 27;
                /// `prmt` modes (`.f4e` …); the generic form stays.
                prmt_modes: bool = true, drawn 28;
                /// `shfl.sync` with the destination predicate (`d|p`).
                shfl_predicate: bool = true, drawn 29;
                /// `.L2::cache_hint` global loads and stores with a policy from `createpolicy`
                /// (§9.7.9.18): hints that change no value.
                cache_hint: bool = true, drawn 30;
                /// `and`/`or` with boundary masks and shifts by boundary amounts (§9.7.8.7–8).
                fold_masks: bool = true, drawn 31;
                /// `setp` against a boundary, `selp` on it (§9.7.8.10) and an `@p`-guarded rewrite.
                fold_selects: bool = true, drawn 32;
                /// A short forward branch on a data comparison around one or two rewrites (the
                /// shape if-conversion predicates).
                fold_if_conversion: bool = true, drawn 33;
                /// `cvt.a.b` then `cvt.b.a` (§9.7.9.21): float round trips, widening then
                /// narrowing.
                fold_round_trips: bool = true, drawn 34;
                /// 16- and 8-bit values through 16-bit arithmetic, widened by `cvt` (zero or sign
                /// extension) and shifted.
                fold_sub_words: bool = true, drawn 35;
                /// One value reaching a consumer by two paths (`(v & m) op (v >> k)`).
                fold_two_paths: bool = true, drawn 36;
                /// A 16-bit value (float `cvt` or 16-bit arithmetic) stored with an 8- or 16-bit
                /// `st.shared`, loaded back and added to itself (needs `shared`).
                fold_narrow_stores: bool = true, drawn 37;
                /// Known-bits producers (boundary masks, shifts by constants, `cvt` sign or zero
                /// extension, `prmt` with an immediate selector in every mode, `bfe` with constant
                /// position and length) feeding a known-bits consumer (a mask, an extension, a
                /// comparison, a select, a narrow shared store, an integer conversion).
                fold_known_bits: bool = true, drawn 38;
                /// If/else diamonds: `@p bra` to an else arm, a then arm ending in `bra` to the
                /// join, each arm writing the same registers with one or two instructions (the
                /// shape ptxas turns into selects or predication), then a consumer of the joined
                /// values.
                fold_diamonds: bool = true, drawn 39;
                /// Short counted loops: a counter from an immediate, a body of one to four glue
                /// instructions updating loop-carried values, an increment and a backward `@p bra`,
                /// 1–8 trips, the same for every thread (top level only).
                fold_loops: bool = true, drawn 40;
                /// `mul.hi`, `mul.wide`, `mad.lo`, `mad.hi`, `mad.wide` (§9.7.1.3–4).
                glue_mul: bool = true, drawn 41;
                /// Bit manipulation: `bfe`, `bfi`, `lop3`, `shf`, `cnot`, `popc`, `clz`, `bfind`,
                /// `brev` (§9.7.1.14–20, §9.7.8.5–7).
                glue_bits: bool = true, drawn 42;
                /// `set` (an integer mask or `1.0f`) and `slct` (§9.7.7.1, §9.7.7.4).
                glue_select: bool = true, drawn 43;
                /// Carry chains: `add.cc` or `sub.cc` followed at once by one to three
                /// `addc`/`subc` (§9.7.2), unguarded.
                glue_carry: bool = true, drawn 44;
            }
        }
        /// Fewest instructions in the body before the output epilogue.
        min_len: u32 = 8;
        /// Most instructions in the body before the output epilogue (at most [`MAX_LEN`]).
        max_len: u32 = 40;
        /// Probability that a step emits an integer glue instruction rather than an instruction
        /// under test. 0.35 gives enough mixing that values flow between the tested instructions,
        /// while two thirds of the steps still exercise the ISA model.
        glue_density: f64 = 0.35;
        /// Probability that an operand that may be an immediate is one, and that a fresh value
        /// comes from `mov` of an immediate rather than a load (so the optimizer can fold).
        immediate_rate: f64 = 0.25;
        /// Probability per step of opening a forward branch (`@p bra`) while the nesting depth
        /// allows. 0.12 gives a few divergent regions per 40-instruction program (swarm draws scale
        /// it down).
        divergence_rate: f64 = 0.12;
        /// Probability that an instruction is guarded by `@p`/`@!p` (where it may be: not loads of
        /// fresh values, `shfl.sync`, shared stores, output stores).
        predication_rate: f64 = 0.2;
        /// Probability that a value (immediate or input word) comes from the edge-case pool of its
        /// format rather than random bits. As wasmtime's `biased_arbitrary_value`.
        edge_rate: f64 = 0.5;
        /// Deepest nesting of forward branches (at most [`MAX_DEPTH`]).
        max_depth: u32 = 3;
        /// CTA sizes to choose from (multiples of 32, at most 1024).
        threads: Vec<u32> = vec![32, 64, 128];
        /// Input words per thread to choose from (multiples of 4, 4..=256; 32-byte loads need a
        /// multiple of 8, `applypriority` and `discard` of a 128-byte line a multiple of 32).
        input_words: Vec<u32> = vec![8, 16, 64];
        /// Output words per thread to choose from (1, 2 or 4).
        outputs: Vec<u32> = vec![1, 2, 4];
        /// Shared-memory words per thread when [`Config::shared`] is on (a multiple of 4, at most
        /// [`MAX_SHARED_WORDS`]).
        shared_words: u32 = 8;
        /// Whether [`generate`](super::generate) draws a [`Config::swarm`] configuration per
        /// program.
        swarm: bool = true;
        /// Per switch (a name of [`FAMILIES`] or [`KNOBS`]), the probability that a swarm draw
        /// keeps it on when the configuration enables it; a switch not named here stays on with
        /// probability 1/2. Adaptive campaigns set this between batches. Values are clamped to
        /// [`MIN_KEEP`]`..=`[`MAX_KEEP`] (a switch is never starved) and unknown names dropped
        /// ([`Config::sanitized`]).
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        swarm_weights: BTreeMap<String, f64> = BTreeMap::new();
    }
}

/// The family switches of [`Config`], by field name, in swarm-draw order.
pub const FAMILIES: &[&str] = Config::FAMILIES;

/// The knob switches of [`Config`] (qualifier knobs and fold ingredients), by field name, in
/// swarm-draw order.
pub const KNOBS: &[&str] = Config::KNOBS;

/// The least keep probability of a weighted swarm switch.
pub const MIN_KEEP: f64 = 0.05;
/// The greatest keep probability of a weighted swarm switch.
pub const MAX_KEEP: f64 = 0.95;

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
    fn the_swarm_draws_the_switches_in_declaration_order() {
        assert_eq!(Config::DRAWN, (0..Config::SWITCHES.len()).collect::<Vec<_>>());
        assert_eq!(Config::SWITCHES, [FAMILIES, KNOBS].concat());
        assert_eq!((FAMILIES.len(), KNOBS.len()), (11, 34));
        let mut c = Config::default();
        assert!(c.switches_mut().into_iter().all(|(_, on)| *on), "every switch defaults to on");
    }

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
