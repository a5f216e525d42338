//! The `parse` target: arbitrary text never panics the instruction parser
//! (`Instruction::from_str`) nor the program parsers ([`parse_module`], [`parse_case`]), and
//! whatever parses prints canonically and parses back to the same value.
//!
//! Invariants checked, for every text `t`:
//! - `t.parse::<Instruction>() == Ok(i)` ⇒ `i.to_string()` parses to `i` and prints the same;
//! - `parse_module(t) == Ok(ps)` ⇒ `parse_module(&module(&ps)) == Ok(ps)` and printing that
//!   again gives the same text;
//! - `parse_case(t) == Ok((p, i))` ⇒ `parse_case(&case(&p, &i)) == Ok((p, i))`, likewise.

use oracle::isa::Instruction;
use oracle::program::text::{case, module, parse_case, parse_module};

/// The target's property for one input.
pub fn check(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        instruction_round_trips(text);
        program_round_trips(text);
    }
}

/// print∘parse is the identity on whatever parses as one instruction.
pub fn instruction_round_trips(text: &str) {
    if let Ok(i) = text.parse::<Instruction>() {
        let printed = i.to_string();
        let again: Instruction =
            printed.parse().unwrap_or_else(|e| panic!("`{printed}` (from `{text}`) does not parse: {e}"));
        assert_eq!(again, i, "`{text}` -> `{printed}`");
        assert_eq!(again.to_string(), printed);
    }
}

/// print∘parse is the identity on whatever parses as a module, and as a case.
pub fn program_round_trips(text: &str) {
    if let Ok(programs) = parse_module(text) {
        let printed = module(&programs);
        let again = parse_module(&printed)
            .unwrap_or_else(|e| panic!("the printed module does not parse: {e}\n{printed}\n(from)\n{text}"));
        assert_eq!(again, programs, "module changed through printing:\n{printed}\n(from)\n{text}");
        assert_eq!(module(&again), printed);
    }
    if let Ok((p, inputs)) = parse_case(text) {
        let printed = case(&p, &inputs);
        let again = parse_case(&printed)
            .unwrap_or_else(|e| panic!("the printed case does not parse: {e}\n{printed}\n(from)\n{text}"));
        assert_eq!(again, (p, inputs), "case changed through printing:\n{printed}\n(from)\n{text}");
        assert_eq!(case(&again.0, &again.1), printed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;
    use oracle::program::text::parse_stmt;
    use oracle::program::{Inputs, Launch, Program};

    const SEEDS: &[&str] = &[
        "cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2;",
        "@!%p1 ld.global.relaxed.gpu.v4.u32 {%r1, %r2, _, %r4}, [%rd1+-16];",
        "shfl.sync.bfly.b32 %r1|%p2, %r3, 0x1f, 31, 0xffffffff;",
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [sbuf], [%rd1, {%r1, %r2}], [mbar];",
        "mov.b64 {%r1, %r2}, %rd3;",
        "prmt.b32.f4e %r1, %r2, %r3, %r4;",
        "ld.global.f32 %f1, [%rd1].unified;",
        "cvta.to.global.u64 %rd1, %rd2;",
    ];

    /// A few hundred mutated inputs: byte flips, truncations and splices of valid seeds.
    #[test]
    fn instruction_smoke() {
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
        let mut parsed = 0;
        for i in 0..600 {
            let seed = SEEDS[i % SEEDS.len()].as_bytes();
            let mut bytes = seed.to_vec();
            match rng.next() % 4 {
                0 => {
                    let k = rng.below(bytes.len());
                    bytes[k] = (rng.next() % 128) as u8;
                }
                1 => bytes.truncate(rng.below(bytes.len())),
                2 => {
                    let other = SEEDS[rng.below(SEEDS.len())].as_bytes();
                    let k = rng.below(bytes.len().min(other.len()));
                    bytes.splice(k.., other[k..].iter().copied());
                }
                _ => {}
            }
            if std::str::from_utf8(&bytes).is_ok_and(|t| t.parse::<Instruction>().is_ok()) {
                parsed += 1;
            }
            check(&bytes);
        }
        assert!(parsed > 100, "only {parsed} inputs parsed");
    }

    /// Body lines of the seed programs: the oracle's example body (every statement kind) plus
    /// a glue instruction that reads a special register.
    fn body() -> Vec<&'static str> {
        let mut b = oracle::program::text::EXAMPLE_BODY.to_vec();
        b.insert(12, "setp.ge.u64 %p2, %in, 3;");
        b
    }

    fn seed_case(rng: &mut Rng) -> String {
        let inputs = 4 * rng.below(3) as u32;
        let p = Program {
            name: format!("k{}", rng.below(3)),
            target: ["sm_90a@8.7", "sm_80", "sm_100a@8.8"][rng.below(3)].parse().unwrap(),
            launch: Launch::one_cta(32),
            inputs,
            outputs: 2,
            shared: 4,
            body: body().iter().enumerate().map(|(i, l)| parse_stmt(i + 1, l).unwrap()).collect(),
        };
        let words = (0..32 * inputs).map(|_| rng.next() as u32).collect();
        case(&p, &Inputs(words))
    }

    /// A few hundred mutated cases and modules: lines deleted, duplicated, swapped, replaced by
    /// instruction seeds, bytes flipped, texts truncated and concatenated.
    #[test]
    fn program_smoke() {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        let (mut modules, mut cases) = (0, 0);
        for _ in 0..300 {
            let mut lines: Vec<String> = seed_case(&mut rng).lines().map(str::to_string).collect();
            for _ in 0..rng.below(3) {
                let k = rng.below(lines.len());
                match rng.below(7) {
                    0 => {
                        lines.remove(k);
                    }
                    1 => {
                        let l = lines[k].clone();
                        lines.insert(rng.below(lines.len()), l);
                    }
                    2 => {
                        let j = rng.below(lines.len());
                        lines.swap(k, j);
                    }
                    3 => lines[k] = SEEDS[rng.below(SEEDS.len())].to_string(),
                    4 if !lines[k].is_empty() => {
                        let mut b = lines[k].clone().into_bytes();
                        let j = rng.below(b.len());
                        b[j] = (rng.next() % 128) as u8;
                        lines[k] = String::from_utf8(b).unwrap();
                    }
                    5 => lines.extend(seed_case(&mut rng).lines().map(str::to_string)),
                    _ => lines.truncate(k),
                }
            }
            let text = lines.join("\n");
            modules += usize::from(parse_module(&text).is_ok_and(|ps| !ps.is_empty()));
            cases += usize::from(parse_case(&text).is_ok());
            check(text.as_bytes());
        }
        assert!(modules > 100 && cases > 50, "only {modules} modules and {cases} cases parsed");
    }

    /// Random bytes and random slices of a case never panic the parsers.
    #[test]
    fn random_bytes_smoke() {
        let mut rng = Rng::new(7);
        for _ in 0..300 {
            let n = rng.below(200);
            check(&rng.bytes(n));
            let text = seed_case(&mut rng);
            let (a, b) = (rng.below(text.len()), rng.below(text.len()));
            check(&text.as_bytes()[a.min(b)..a.max(b)]);
        }
    }
}
