//! What a campaign batch holds: the seeds and sizes of its programs, the fresh programs the
//! generator draws for them (with the swarm switches of each), and the mutants of corpus
//! programs that take their share of the batch ([`generate_mixed`]). Pure functions of the
//! options, the batch number and the corpus view they are given, so a batch is the same
//! whoever prepares it and whenever.

use std::time::Instant;

use generator::program::{generate_seeded, Config};
use oracle::program::{Inputs, Program};

use super::{corpus, engine, Options};
use crate::findings::Source;

/// A batch's programs, fresh and mutants ([`generate_mixed`]).
pub struct Mixed {
    /// The programs, fresh ones first.
    pub programs: Vec<Program>,
    /// Their inputs.
    pub inputs: Vec<Inputs>,
    /// Where each came from.
    pub sources: Vec<Source>,
    /// The swarm switches each fresh program was generated with (empty for mutants).
    pub switches: Vec<Vec<&'static str>>,
    /// The edits of each mutant ([`generator::mutate::Kind::name`]).
    pub edits: Vec<Vec<&'static str>>,
    /// Mutants dropped (no valid edit within the draws): fresh programs took their places.
    pub dropped: u64,
    /// Wall and CPU time of generating the fresh programs.
    pub generation: engine::StageTime,
    /// Wall and CPU time of mutating (the oracle runs that check each mutant included).
    pub mutation: engine::StageTime,
}

/// The seed of program `k` of batch `b`.
pub fn program_seed(seed: u64, batch: u64, k: u64) -> u64 {
    generator::sweep::mix64(generator::sweep::mix64(seed, batch), k)
}

/// Programs of batch `b` in a session that started at batch `first`: `o.batch`, fewer for the
/// last batch under `--programs` (so `--programs 1` runs one program), 0 past it.
pub fn batch_size(o: &Options, first: u64, b: u64) -> usize {
    session_batch_size(o.batch, o.max_programs, first, b)
}

/// [`batch_size`] for batches of `batch` programs and a session of at most `max_programs`.
pub fn session_batch_size(batch: usize, max_programs: Option<u64>, first: u64, b: u64) -> usize {
    let full = batch as u64;
    let n = match max_programs {
        Some(m) => m.saturating_sub(b.saturating_sub(first).saturating_mul(full)).min(full),
        None => full,
    };
    n as usize
}

/// Generates the first `n` programs of the session's batch `b` (under a shard, the
/// campaign-wide batch it stands for).
pub fn generate_batch(o: &Options, b: u64, n: usize) -> (Vec<Program>, Vec<Inputs>) {
    generate_batch_with(o, &o.config, b, n)
}

/// [`generate_batch`] with the configuration `cfg` (the campaign's, with adapted weights).
pub fn generate_batch_with(o: &Options, cfg: &Config, b: u64, n: usize) -> (Vec<Program>, Vec<Inputs>) {
    let (ps, is, _) = generate_batch_timed(o, cfg, b, n);
    (ps, is)
}

/// [`generate_batch_with`], and the wall time and the generating threads' CPU time it took.
pub fn generate_batch_timed(
    o: &Options,
    cfg: &Config,
    b: u64,
    n: usize,
) -> (Vec<Program>, Vec<Inputs>, engine::StageTime) {
    use rayon::prelude::*;
    let b = o.shard.map_or(b, |s| s.global(b));
    let start = Instant::now();
    let (pairs, cpu): (Vec<(Program, Inputs)>, Vec<f64>) = (0..n as u64)
        .into_par_iter()
        .map(|k| {
            let (pi, t) =
                engine::measure(|| generate_seeded(program_seed(o.seed, b, k), cfg, &o.target, &format!("p{b}_{k}")));
            (pi, t.cpu_s)
        })
        .unzip();
    let (ps, is) = pairs.into_iter().unzip();
    (ps, is, engine::StageTime { wall_s: start.elapsed().as_secs_f64(), cpu_s: cpu.iter().sum() })
}

/// The switches each of the first `n` programs of the session's batch `b` is generated with
/// under `cfg` ([`generator::program::seeded_config`]).
fn batch_switches(o: &Options, cfg: &Config, b: u64, n: usize) -> Vec<Vec<&'static str>> {
    let b = o.shard.map_or(b, |s| s.global(b));
    (0..n as u64).map(|k| generator::program::seeded_config(program_seed(o.seed, b, k), cfg).switches_on()).collect()
}

/// Mutants in a batch of `n` programs with a corpus of `parents` and a mutate share of
/// `share`: `n · share` rounded, none without parents.
pub fn mutants_in(n: usize, share: f64, parents: usize) -> usize {
    if parents == 0 {
        return 0;
    }
    ((n as f64 * share.clamp(0.0, 1.0)).round() as usize).min(n)
}

/// The session's batch `b` of `n` programs under `cfg`: the first `n − m` generated fresh
/// (program `k` from [`program_seed`], as without mutation), the last `m` ([`mutants_in`]) 1
/// to 4 edits each of a program of `parents` ([`generator::mutate`]; program `k`'s seed picks
/// the parent and draws the edits; a mutant without a valid edit is dropped and the fresh
/// program `k` takes its place). Every program's name is `p<batch>_<k>`.
pub fn generate_mixed(o: &Options, cfg: &Config, b: u64, n: usize, parents: &[corpus::Parent]) -> Mixed {
    use rayon::prelude::*;
    let m = mutants_in(n, o.mutate_share, parents.len());
    let (mut programs, mut inputs, generation) = generate_batch_timed(o, cfg, b, n - m);
    let mut switches = batch_switches(o, cfg, b, n - m);
    let mut sources: Vec<Source> =
        switches.iter().map(|on| Source::Fresh { switches: on.iter().map(|s| s.to_string()).collect() }).collect();
    let gb = o.shard.map_or(b, |s| s.global(b));
    let start = Instant::now();
    let made: Vec<(Program, Inputs, Source, Vec<&'static str>, f64)> = ((n - m) as u64..n as u64)
        .into_par_iter()
        .map(|k| {
            let ((p, i, src, edit), t) = engine::measure(|| {
                let seed = program_seed(o.seed, gb, k);
                let parent = &parents[(generator::sweep::mix64(seed, 0x9a7e) % parents.len() as u64) as usize];
                let name = generator::program::entry_name(&format!("p{gb}_{k}"));
                match generator::mutate::mutate(
                    &parent.parsed.0,
                    &parent.parsed.1,
                    seed,
                    &o.allow,
                    generator::mutate::TRIES,
                ) {
                    Ok(mt) => {
                        let src = Source::Mutation { parent: parent.name.clone(), mutation: mt.what };
                        let kinds = mt.kinds.iter().map(|k| k.name()).collect();
                        (Program { name, ..mt.program }, mt.inputs, src, kinds)
                    }
                    Err(_) => {
                        let (p, i) = generate_seeded(seed, cfg, &o.target, &name);
                        let on = generator::program::seeded_config(seed, cfg).switches_on();
                        (p, i, Source::Fresh { switches: on.iter().map(|s| s.to_string()).collect() }, Vec::new())
                    }
                }
            });
            (p, i, src, edit, t.cpu_s)
        })
        .collect();
    let mut edits = Vec::new();
    let (mut dropped, mut cpu) = (0, 0.0);
    for (p, i, src, edit, t) in made {
        programs.push(p);
        inputs.push(i);
        sources.push(src);
        switches.push(Vec::new());
        if edit.is_empty() {
            dropped += 1;
        } else {
            edits.push(edit);
        }
        cpu += t;
    }
    let mutation = engine::StageTime { wall_s: start.elapsed().as_secs_f64(), cpu_s: cpu };
    Mixed { programs, inputs, sources, switches, edits, dropped, generation, mutation }
}
