//! The grammar-aware program generator: whole test programs ([`oracle::program::Program`])
//! with real dataflow between the instructions under test, valid by construction for a target
//! and free of undefined behaviour, plus their input words.
//!
//! Everything is driven by an [`arbitrary::Unstructured`] byte stream ([`generate`]), so
//! libFuzzer's mutations steer the program's structure directly, and a seed drives the same
//! code through a fixed PRNG ([`generate_seeded`], SplitMix64 bytes), as wasm-smith does.
//!
//! A program is built in three parts:
//! 1. a body of [`Config`]-many steps ([`families`]): instructions under test chosen among the
//!    target's valid forms ([`tables`]), integer glue (the basic set and the `glue_*` groups),
//!    forward branches (nested, labels unique), fold chains (if/else diamonds and counted
//!    loops among them) and shared-memory round trips; each source operand is an existing register, `%tix`, an
//!    immediate, or a fresh value produced on the spot (a load of the thread's inputs, `mov` of
//!    an immediate, `setp`) — see [`builder`] for the register and region bookkeeping;
//! 2. an epilogue ([`epilogue`]) that folds every value not read yet into the output words and
//!    stores them, unguarded, with the CTA converged;
//! 3. input words ([`values`]) from edge-case pools of the formats each load's consumer reads.
//!
//! Runner assumptions (beyond the launch contract of `oracle::program`): the input buffer is
//! 32-byte aligned (32-byte `.v8.b32`/`.v4.b64` loads are generated when a thread's input
//! words are a multiple of 8), and it is not written during the launch (`ld.global.nc`).
//!
//! [`check_program`] validates the invariants on any program, independently of the builder.

mod builder;
pub mod check;
pub mod config;
mod epilogue;
mod families;
mod folds;
pub mod rng;
pub mod tables;
pub mod values;

use arbitrary::Unstructured;

use oracle::isa::Target;
use oracle::program::{Inputs, Launch, Program, Stmt};

pub use check::{check_program, policy_registers};
pub use config::Config;

use builder::{Builder, Shape};

/// Bytes of PRNG output behind one seeded program. A 40-instruction program reads about 1–2
/// KiB of decisions; the rest is slack for long configurations (an exhausted stream still
/// yields a valid program, only a less random one).
pub const SEEDED_BYTES: usize = 16 * 1024;

/// Loop guard: the body gives up after this many steps per requested instruction (a step that
/// closes a branch emits only a label; no step fails forever, this only bounds the worst case).
const STEPS_PER_INSTRUCTION: u32 = 4;

/// An identifier PTX accepts for the entry: `[A-Za-z_][A-Za-z0-9_]*` (other characters become
/// `_`; a leading digit or an empty name gets a `k` in front).
pub fn entry_name(name: &str) -> String {
    let mut s: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, 'k');
    }
    s
}

/// Generates one program and its inputs from the byte stream `u` (see the module
/// documentation). With `cfg.swarm` the configuration is first narrowed by [`Config::swarm`].
/// The program is valid for `target` and passes [`check_program`]; `name` is made a PTX
/// identifier ([`entry_name`]).
pub fn generate(
    u: &mut Unstructured,
    cfg: &Config,
    target: &Target,
    name: &str,
) -> arbitrary::Result<(Program, Inputs)> {
    let cfg = drawn_config(u, cfg)?;
    let tb = tables::tables(target);
    let shape = Shape {
        threads: *u.choose(&cfg.threads)?,
        inputs: *u.choose(&cfg.input_words)?,
        outputs: *u.choose(&cfg.outputs)?,
        shared: if cfg.shared { cfg.shared_words } else { 0 },
    };
    let len = u.int_in_range(cfg.min_len..=cfg.max_len)?;
    let edge_pm = config::permille(cfg.edge_rate);
    let mut b = Builder::new(u, cfg, &tb, shape);
    let mut steps = 0;
    while b.count < len && steps < len.saturating_mul(STEPS_PER_INSTRUCTION) + 16 {
        steps += 1;
        b.step()?;
    }
    b.epilogue()?;
    let body = std::mem::take(&mut b.body);
    let hints = std::mem::take(&mut b.hints);
    let seed = b.u.arbitrary::<u64>()?;
    let program = Program {
        name: entry_name(name),
        target: *target,
        launch: Launch::one_cta(shape.threads),
        inputs: shape.inputs,
        outputs: shape.outputs,
        shared: shape.shared,
        body,
    };
    let inputs = values::inputs(seed, shape.threads, shape.inputs, &hints, edge_pm);
    Ok((program, inputs))
}

/// The configuration a program is generated with: `cfg` sanitized, then narrowed by
/// [`Config::swarm`] (from the start of `u`) when `cfg.swarm` is on.
fn drawn_config(u: &mut Unstructured, cfg: &Config) -> arbitrary::Result<Config> {
    let base = cfg.sanitized();
    if base.swarm {
        base.swarm(u)
    } else {
        Ok(base)
    }
}

/// The configuration [`generate_seeded`] draws for `seed` (what the program may use: its
/// families and knobs, [`Config::switches_on`]). A seed whose generation fails falls back to
/// other configurations ([`generate_seeded`]); this still names the drawn one.
pub fn seeded_config(seed: u64, cfg: &Config) -> Config {
    let bytes = rng::SplitMix64::new(seed).bytes(SEEDED_BYTES);
    drawn_config(&mut Unstructured::new(&bytes), cfg).unwrap_or_else(|_| cfg.sanitized())
}

/// Generates one program from a seed: [`generate`] on [`SEEDED_BYTES`] bytes of SplitMix64
/// output, so the result is the same on every machine. Never panics: should generation fail,
/// it retries on an empty byte stream, and past that returns a minimal program.
pub fn generate_seeded(seed: u64, cfg: &Config, target: &Target, name: &str) -> (Program, Inputs) {
    let bytes = rng::SplitMix64::new(seed).bytes(SEEDED_BYTES);
    if let Ok(x) = generate(&mut Unstructured::new(&bytes), cfg, target, name) {
        return x;
    }
    let plain = Config { swarm: false, ..cfg.clone() };
    if let Ok(x) = generate(&mut Unstructured::new(&[]), &plain, target, name) {
        return x;
    }
    minimal(target, name)
}

/// The smallest valid program: one thread word in, one out.
fn minimal(target: &Target, name: &str) -> (Program, Inputs) {
    let body = ["ld.global.b32 %r0, [%in];", "st.global.b32 [%out], %r0;"]
        .iter()
        .enumerate()
        .filter_map(|(i, l)| oracle::program::text::parse_stmt(i + 1, l).ok())
        .collect::<Vec<Stmt>>();
    let p = Program {
        name: entry_name(name),
        target: *target,
        launch: Launch::one_cta(32),
        inputs: 4,
        outputs: 1,
        shared: 0,
        body,
    };
    (p, Inputs(vec![0; 32 * 4]))
}

/// The targets the fuzz entry point chooses among.
pub const FUZZ_TARGETS: [&str; 4] = ["sm_90a@8.7", "sm_100a@8.8", "sm_80", "sm_120a@8.7"];

/// The `generate` fuzz target's property for raw bytes: the first byte picks a target of
/// [`FUZZ_TARGETS`], the rest drives [`generate`] with the default (swarm) configuration; the
/// program must pass [`check_program`], have the inputs its shape says, and print and parse
/// back to itself as a case. `Err` describes the failure with the case text.
pub fn fuzz_one(data: &[u8]) -> Result<(), String> {
    let (first, rest) = data.split_first().unwrap_or((&0, &[]));
    let target: Target = FUZZ_TARGETS[usize::from(*first) % FUZZ_TARGETS.len()].parse().map_err(|e| format!("{e}"))?;
    let mut u = Unstructured::new(rest);
    let Ok((p, inputs)) = generate(&mut u, &Config::default(), &target, "fuzz") else {
        return Ok(());
    };
    let case = oracle::program::text::case(&p, &inputs);
    check_program(&p).map_err(|e| format!("{e}\n{case}"))?;
    if inputs.0.len() != (p.threads() * p.inputs) as usize {
        return Err(format!("{} input words for {} threads × {}", inputs.0.len(), p.threads(), p.inputs));
    }
    match oracle::program::text::parse_case(&case) {
        Ok(back) if back == (p.clone(), inputs.clone()) => Ok(()),
        Ok(_) => Err(format!("the case parses to another program\n{case}")),
        Err(e) => Err(format!("the case does not parse: {e}\n{case}")),
    }
}

#[cfg(test)]
mod tests;
