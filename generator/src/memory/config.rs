//! The memory-program generator's configuration ([`AsyncConfig`]): which families of episodes
//! are on (the swarm switches) and the sizes, TOML-loadable (`#[serde(default,
//! deny_unknown_fields)]`: a file names only what it changes, and a misspelt key is an error).
//!
//! Each knob is declared once, in the `define_config!` invocation below (name, type, default,
//! doc; `generator/src/define_config.rs`, shared with the program generator's configuration):
//! the macro writes the struct, its `Default`, the "Defaults to" line of each doc and the switch
//! table ([`AsyncConfig::SWITCHES`], [`AsyncConfig::switches_mut`]).
//!
//! Invariants: a swarm draw ([`AsyncConfig::draw`]) only turns switches off, never on, and keeps
//! at least one kind of copy when the configuration has one; it draws the switches in their
//! `drawn` order (which predates the declaration order and is kept so that every seed gives the
//! program it gave before).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::define_config::define_config;
use crate::program::config::{permille, MAX_KEEP, MIN_KEEP};
use crate::program::rng::Rng;

define_config! {
    /// What programs to generate: the swarm knobs (each family of episodes on or off) and sizes.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    #[serde(default, deny_unknown_fields)]
    pub struct AsyncConfig {
        switches {
            /// The episode families a swarm draw may turn off.
            EPISODES {
                /// `cp.async` pipelines with several async-groups in flight.
                cp_async: bool = true, drawn 0;
                /// `cp.async.bulk` loads on the mbarrier and bulk stores back.
                bulk: bool = true, drawn 1;
                /// `cp.async.bulk.tensor` tile loads on the mbarrier, and tensor stores and reductions
                /// of the staging buffer back through a store map.
                tensor: bool = true, drawn 2;
                /// With `tensor`: the tensor map is an im2col map (rank 3–5) half the time, loaded in
                /// `.im2col` mode with drawn `im2colInfo` offsets (never at a start an H100 traps on,
                /// [`TensorMap::im2col_start_traps`](oracle::memory::tensor_map::TensorMap::im2col_start_traps)).
                im2col: bool = true, drawn 3;
                /// With `tensor`: a third of the tiled maps are interleaved (rank 3; 16B under any
                /// sm_90 swizzle or 32B under the 32B one; dimension 0 in 16- or 32-byte units, one
                /// box position along dimension 1, where an H100 traverses no more:
                /// [`TensorMap::interleave_skips_box`](oracle::memory::tensor_map::TensorMap::interleave_skips_box)).
                interleave: bool = true, drawn 4;
                /// `cp.reduce.async.bulk` reductions of the staged values into global memory.
                reduce: bool = true, drawn 5;
                /// `cvt` and `prmt` on the loaded values.
                convert: bool = true, drawn 6;
                /// With `tensor`, in one CTA: a tiled map's copy is a tensor-map object in global
                /// memory (`tobj`) that tensor loads name, and half the phases first re-shape it with
                /// `tensormap.replace` (a smaller global dimension, another box height or element
                /// stride, another swizzle or fill), then the tensormap-proxy release and acquire
                /// fences; such programs run on the target's arch-specific twin (sm_90a, §9.7.9.26).
                replace: bool = true, drawn 9;
                /// A cluster of 2 or 4 CTAs: every CTA runs the program over its own shared memory and
                /// its own part of the global outputs, and mbarrier phases may load through
                /// `.multicast::cluster` copies issued by one CTA.
                multicast: bool = true, drawn 7;
                /// A cluster of 2 or 4 CTAs that write each other's shared memory: some mbarrier
                /// phases are exchanges, where every CTA fills the window of a peer CTA (through
                /// `mapa`) with `st.async` stores of each thread's values and/or a
                /// `cp.async.bulk.shared::cluster.shared::cta` copy, completing on the peer's mbarrier.
                cluster: bool = true, drawn 8;
                /// `.L2::cache_hint` forms of `cp.async` and `cp.reduce.async.bulk` with a cache
                /// policy from `createpolicy` (fractional or range, every priority; §9.7.9.18) made
                /// once at the start of the program: the policy is opaque and only a hint.
                cache_hints: bool = true, drawn 10;
                /// A cluster of 2 or 4 CTAs that write each other's shared memory with generic
                /// stores: some mbarrier phases are remote exchanges, where every thread stores its
                /// values into a peer CTA's `rwin` with `st.shared::cluster` (address from `mapa`),
                /// the leader arrives on the peer's mbarrier with
                /// `mbarrier.arrive.release.cluster.shared::cluster` (§9.7.13.15.13) and the wait
                /// acquires at `.cluster` scope; half of them then, after `barrier.cluster`, load the
                /// peer's `rwin` with `ld.shared::cluster`. Never a data race (PTX ISA 9.0 §8.7.1).
                remote: bool = true, drawn 11;
                /// With `replace`: half the re-shapes of the tensor-map object happen on a copy in
                /// shared memory (`cp.async.bulk` of its 128 bytes, `tensormap.replace.*.shared::cta`,
                /// then `tensormap.cp_fenceproxy` back to `tobj`, the fused release, §9.7.13.16),
                /// before the leader's acquire. Only in programs of at least 32 threads: a warp of
                /// fewer copies only its lanes' words (allowance `cp-fenceproxy-whole-warp`).
                shared_tensormap: bool = true, drawn 12;
            }
        }
        /// Most phases of the mbarrier per program (1 or more).
        phases: u32 = 3;
        /// CTA sizes to choose from.
        threads: Vec<u32> = vec![1, 32, 64, 128];
        /// Swarm testing: each program turns each knob off with probability 1/2 (keeping at least
        /// one kind of copy).
        swarm: bool = true;
        /// Per switch (a name of [`AsyncConfig::SWITCHES`]), the probability that a swarm draw
        /// keeps it on when the configuration enables it; a switch not named here stays on with
        /// probability 1/2. Adaptive campaigns (`fuzz --async --adapt`) set this between
        /// batches, as for register programs ([`crate::program::Config::swarm_weights`]); a
        /// value is clamped to [`MIN_KEEP`]`..=`[`MAX_KEEP`] when drawn, an unknown name is
        /// ignored.
        swarm_weights: BTreeMap<String, f64> = BTreeMap::new();
    }
}

/// Swarm draws per program before the configuration is kept as it is (a seeded stream almost
/// never needs a second: each draw keeps some copy with probability ≥ 15/16).
const MAX_SWARM_DRAWS: usize = 64;

impl AsyncConfig {
    /// Whether some kind of copy is on.
    fn copies(&self) -> bool {
        self.cp_async || self.bulk || self.tensor || self.reduce
    }

    /// The configuration one program is generated with: under `swarm`, each knob kept with
    /// probability 1/2, or its [`AsyncConfig::swarm_weights`] probability when it has one (the
    /// same draws as before for a switch without one), (at least one kind of copy stays on; after [`MAX_SWARM_DRAWS`] draws
    /// without one, every knob as configured), drawn in `drawn` order; the phase
    /// count drawn in `1..=phases`; one thread count; and the CTAs of the cluster (2 or 4 with
    /// `multicast`, `cluster` or `remote`, else 1).
    pub(super) fn draw(&self, r: &mut impl Rng) -> (AsyncConfig, u32, u32) {
        let mut c = self.clone();
        if self.swarm {
            let on = self.switches();
            let mut order: Vec<usize> = (0..on.len()).collect();
            order.sort_by_key(|&i| Self::DRAWN[i]);
            // A stream that keeps turning every copy off (an exhausted fuzz input reads as
            // zeros) keeps the configuration's switches after a bounded number of draws.
            for _ in 0..MAX_SWARM_DRAWS {
                let mut k = c.clone();
                let mut knobs = k.switches_mut();
                for &i in &order {
                    let kept = match self.swarm_weights.get(on[i].0) {
                        None => r.below(2) == 1,
                        Some(&w) => {
                            let w = if w.is_nan() { 0.5 } else { w.clamp(MIN_KEEP, MAX_KEEP) };
                            r.below(1000) < u64::from(permille(w))
                        }
                    };
                    *knobs[i].1 = on[i].1 && kept;
                }
                if k.copies() || !self.copies() {
                    c = k;
                    break;
                }
            }
        }
        c.phases = 1 + r.below(u64::from(self.phases.max(1))) as u32;
        let threads = if self.threads.is_empty() { 1 } else { r.pick(&self.threads).clamp(1, 1024) };
        let ctas = if c.multicast || c.cluster || c.remote { r.pick(&[2, 4]) } else { 1 };
        (c, threads, ctas)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The draw order is a permutation of the switches: each drawn once.
    #[test]
    fn every_switch_is_drawn_once() {
        let mut drawn = AsyncConfig::DRAWN.to_vec();
        drawn.sort_unstable();
        assert_eq!(drawn, (0..AsyncConfig::SWITCHES.len()).collect::<Vec<_>>());
    }

    /// An exhausted fuzz input reads as zeros, which turn every switch off: the draw still
    /// ends, with the configured switches (found by the `memory_generate` fuzz target).
    #[test]
    fn a_stream_of_zeros_still_draws_a_configuration() {
        let mut zeros = arbitrary::Unstructured::new(&[]);
        let (c, threads, _) = AsyncConfig::default().draw(&mut zeros);
        assert!(c.copies(), "{c:?}");
        assert_eq!(threads, 1);
    }

    /// A weight steers how often a draw keeps its switch; switches without one keep the fair
    /// coin (and the draws of a configuration without weights are those of before).
    #[test]
    fn swarm_weights_steer_the_draw() {
        use crate::program::rng::SplitMix64;
        let kept = |c: &AsyncConfig, name: &str| {
            (0..2000u64).filter(|&s| c.draw(&mut SplitMix64::new(s)).0.switches_on().contains(&name)).count()
        };
        let fair = AsyncConfig::default();
        let mut steered = fair.clone();
        steered.swarm_weights.insert("convert".into(), 0.95);
        steered.swarm_weights.insert("reduce".into(), 0.0);
        let (c, r) = (kept(&steered, "convert"), kept(&steered, "reduce"));
        assert!(c > 1750 && r < 200, "convert kept {c}, reduce kept {r} of 2000");
        assert!((800..1200).contains(&kept(&fair, "convert")), "{}", kept(&fair, "convert"));
        // Without weights a seed draws what it drew before the weights existed.
        let mut none = fair.clone();
        none.swarm_weights.insert("no_such_switch".into(), 0.9);
        for s in 0..50 {
            assert_eq!(
                fair.draw(&mut SplitMix64::new(s)).0.switches_on(),
                none.draw(&mut SplitMix64::new(s)).0.switches_on()
            );
        }
    }

    #[test]
    fn toml_names_only_what_it_changes_and_rejects_typos() {
        let c: AsyncConfig = toml::from_str("tensor = false\nthreads = [32]\n").unwrap();
        assert!(!c.tensor && c.bulk && c.threads == [32] && c.phases == 3);
        assert!(toml::from_str::<AsyncConfig>("tensorr = false\n").is_err());
        let round: AsyncConfig = toml::from_str(&toml::to_string(&c).unwrap()).unwrap();
        assert_eq!(round, c);
        assert_eq!(c.switches_on().len(), AsyncConfig::SWITCHES.len() - 1);
    }
}
