//! Which bytes of a thread's output stores write from undefined bits: the link from a kernel's
//! read of a never-written register ([`super::Unwritten`]) to the output words the GPU shows
//! wrong because of it.
//!
//! A generated program's thread `t` writes its outputs at `%out = p_out + t · 4·outputs`
//! ([`oracle::program`]'s launch contract: one CTA, `p_out` the kernel's second parameter). A
//! global or generic store (`STG.E…`, `ST.E…`) is mapped only when its address is
//! proved to be that pointer: its base register pair ([`Operand::inner`](super::parse::Operand::inner) of the bracket,
//! `[R2.64+0x4]`, `desc[UR4][R2.64+0x4]`) holds, on every path to the store, the value ptxas
//! builds from the parameter and the thread index — `LDC.64 R2, c[0x0][0x218]` then `IMAD.WIDE.U32
//! R2, R5, 0x10, R2` with `S2R R5, SR_TID.X` (what ptxas 13.0.88 and 13.5 emit at -O3 for every
//! generated kernel in `corpus/findings/`), or the same with the constant as the addend
//! (`IMAD.WIDE.U32 R2, R5, 0x10, c[0x0][0x218]`), through `MOV`s. A small forward walk over the
//! kernel's control-flow graph ([`super::dataflow::edges`]) keeps, per general register, what
//! it holds of those values; a join of different values, a guarded write or any other write
//! forgets it. The store's bytes are then `offset + immediate ..` for the width its mnemonic
//! says (`.U8`/`.S8` 1, `.U16`/`.S16` 2, none 4, `.64` 8, `.128` 16). A store not proved to
//! write the output maps to nothing: its words stay unexplained (conservative).
//!
//! Of a proved store's bytes, those written from undefined bits, each for the flagged read they
//! come from:
//! - a store the check flags itself, for its own read, where what it reads never written is its
//!   data (role `source`: the bytes of the never-written data registers, `STG.E.64 [R2.64], R6`
//!   with R7 alone undefined: bytes 4..8) or its guard (role `guard`: all of them, written or
//!   not as the undefined predicate chose); one flagged for its address or descriptor maps
//!   nothing of its own;
//! - a store whose data registers or guard hold a value derived from a flagged read of any role
//!   ([`propagate`]: the check counts a flagged instruction's result as defined, so a store of
//!   it is not flagged; seed 4101's `@P0 LOP3.LUT R0, …` under a P0 made from a never-written
//!   half, then `STG.E.U8 [R4.64], R0`), for that read: the bytes of the derived data
//!   registers, all of them under a derived guard. Per register, not per bit; control
//!   dependence (a branch on a derived predicate) and values through memory are not followed.
//!
//! Bytes that another store proved to write the thread's output writes from defined bits are
//! left out: which of the two stores came last is not modelled. A store whose address is not
//! proved is not looked at for this (it could write the same bytes).
//!
//! The parameter offset is sm_90's constant-bank layout (kernel parameters from
//! `c[0x0][0x210]`, read off ptxas's listings); other targets map nothing.

use std::collections::{BTreeMap, BTreeSet};

use super::dataflow::edges::{return_sites, successors};
use super::parse::{File, Function, Instr, Reg};
use super::Unwritten;

mod propagate;

/// The constant-bank offset of a kernel's second parameter (`p_out`) on sm_90.
pub const OUTPUT_POINTER_SM90: u32 = 0x218;

/// The constant-bank offset of the output pointer for a target `sm_{sm}`, where it is known.
pub fn output_pointer(sm: u16) -> Option<u32> {
    (sm == 90).then_some(OUTPUT_POINTER_SM90)
}

/// One flagged store's bytes of the thread's output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UndefinedStore {
    /// Its index in the reads given to [`undefined_output_bytes`].
    pub read: usize,
    /// The byte offsets within the thread's output it writes from never-written registers.
    pub bytes: BTreeSet<u32>,
}

/// What a general register is known to hold on every path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    /// `%tid.x` (one CTA: the thread's index).
    Tid,
    /// An immediate.
    Imm(u32),
    /// The 32-bit word at `c[0x0][offset]`.
    Param(u32),
    /// The low (`high: false`) or high word of `c[0x0][param..+8] + tid.x · stride`.
    Slot { param: u32, stride: u32, high: bool },
}

type Env = BTreeMap<Reg, Value>;

/// The bytes of the thread's output that stores write from undefined bits, per flagged read of
/// `reads` they come from, for kernel `f` whose output pointer is `c[0x0][param]` and whose
/// threads own `stride` bytes of output each: a store the check flags (roles `source` and
/// `guard` alone) for its own read, and a store whose data or guard holds a value derived from a
/// flagged read ([`propagate`]) for that read. Flagged reads of other kernels, and stores not
/// proved to write the output, give nothing; the result is in store order, then read order.
pub fn undefined_output_bytes(f: &Function, reads: &[Unwritten], param: u32, stride: u32) -> Vec<UndefinedStore> {
    let envs = walk(f);
    let derived = propagate::undefined_derived(f, reads);
    // Every store proved to write the output: its instruction index and, per read, its bytes
    // from undefined bits; the bytes it writes from defined bits.
    let mut stores: Vec<(usize, BTreeMap<usize, BTreeSet<u32>>)> = Vec::new();
    let mut defined: Vec<(usize, BTreeSet<u32>)> = Vec::new();
    for (i, ins) in f.instrs.iter().enumerate() {
        let Some(env) = &envs[i] else { continue };
        let Some((at, width)) = output_bytes(ins, env, param, stride) else { continue };
        let by_read = undefined_bytes(f, ins, reads, derived[i].as_ref(), at, width);
        let undefined: BTreeSet<u32> = by_read.values().flatten().copied().collect();
        defined.push((i, (at..at + width).filter(|b| !undefined.contains(b)).collect()));
        stores.push((i, by_read));
    }
    let mut out = Vec::new();
    for (i, by_read) in stores {
        for (read, mut bytes) in by_read {
            // Bytes another store to the output writes from defined bits: which came last is not
            // modelled.
            for (j, other) in &defined {
                if *j != i {
                    bytes.retain(|b| !other.contains(b));
                }
            }
            if !bytes.is_empty() {
                out.push(UndefinedStore { read, bytes });
            }
        }
    }
    out
}

/// The bytes `at..at + width` of the output that store `ins` of `f` writes from undefined bits,
/// per flagged read they come from: for its own flag, all of them under a never-written guard
/// and those of the never-written data registers; for a guard derived from flagged reads
/// (`derived`: what it reads derived, [`propagate`]), all of them; for a derived data register,
/// its bytes. A store flagged for its address or descriptor maps nothing of its own.
fn undefined_bytes(
    f: &Function,
    ins: &Instr,
    reads: &[Unwritten],
    derived: Option<&propagate::Derived>,
    at: u32,
    width: u32,
) -> BTreeMap<usize, BTreeSet<u32>> {
    let all: BTreeSet<u32> = (at..at + width).collect();
    let data: Vec<Reg> = ins.operands.last().map(|o| o.regs.clone()).unwrap_or_default();
    let of_register = |k: usize| -> BTreeSet<u32> {
        let from = 4 * k as u32;
        (from..(from + 4).min(width)).map(|b| at + b).collect()
    };
    let mut out: BTreeMap<usize, BTreeSet<u32>> = BTreeMap::new();
    for (read, u) in reads.iter().enumerate() {
        let own = u.kernel == f.name && u.offset == ins.offset;
        if !own || u.roles.is_empty() || !u.roles.iter().all(|r| matches!(*r, "source" | "guard")) {
            continue;
        }
        let mut bytes = BTreeSet::new();
        if u.roles.contains(&"guard") {
            bytes.extend(all.iter().copied());
        }
        for (k, r) in data.iter().enumerate() {
            if u.registers.contains(&r.to_string()) {
                bytes.extend(of_register(k));
            }
        }
        out.entry(read).or_default().extend(bytes);
    }
    let Some(derived) = derived else { return out };
    let guard = ins.guard.map(|g| g.pred);
    for read in propagate::derived_from(derived, guard.iter()) {
        out.entry(read).or_default().extend(all.iter().copied());
    }
    for (k, r) in data.iter().enumerate() {
        for read in propagate::derived_from(derived, [r]) {
            out.entry(read).or_default().extend(of_register(k));
        }
    }
    out.retain(|_, bytes| !bytes.is_empty());
    out
}

/// The data width in bytes of a store mnemonic's modifiers.
fn store_width(ins: &Instr) -> u32 {
    let mut width = 4;
    for m in ins.modifiers() {
        match m {
            "U8" | "S8" => width = 1,
            "U16" | "S16" => width = 2,
            "64" => width = 8,
            "128" => width = 16,
            _ => {}
        }
    }
    width
}

/// The first byte and width within the thread's output that `ins` writes, if it is a global or
/// generic store whose address `env` proves to be the thread's output pointer plus an immediate
/// that stays inside the thread's `stride` bytes.
fn output_bytes(ins: &Instr, env: &Env, param: u32, stride: u32) -> Option<(u32, u32)> {
    if !matches!(ins.opcode(), "STG" | "ST") || !ins.modifiers().any(|m| m == "E") {
        return None;
    }
    let address = ins.operands.first()?;
    let base: Vec<Reg> = address.inner.iter().copied().filter(|r| !address.descriptor.contains(r)).collect();
    let [lo, hi] = base.as_slice() else { return None };
    let slot = |high| Value::Slot { param, stride, high };
    if env.get(lo) != Some(&slot(false)) || env.get(hi) != Some(&slot(true)) {
        return None;
    }
    // The last bracket: `R2.64+0x4`, `R2.64`, `R2+-0x4`.
    let inside = address.text.rsplit_once('[')?.1.trim_end_matches(']');
    let at = match inside.split_once('+') {
        None => 0,
        Some((_, imm)) => u32::from_str_radix(imm.trim().strip_prefix("0x")?, 16).ok()?,
    };
    let width = store_width(ins);
    (at.checked_add(width)? <= stride).then_some((at, width))
}

/// The constant-bank offset of a `c[0x0][0x218]` operand.
fn constant(text: &str) -> Option<u32> {
    let hex = text.strip_prefix("c[0x0][0x")?.strip_suffix(']')?;
    u32::from_str_radix(hex, 16).ok()
}

/// What each instruction's inputs are known to hold (`None`: no path reaches it).
fn walk(f: &Function) -> Vec<Option<Env>> {
    let n = f.instrs.len();
    let mut envs: Vec<Option<Env>> = vec![None; n];
    if n == 0 {
        return envs;
    }
    let sites = return_sites(f);
    envs[0] = Some(Env::new());
    let mut work: BTreeSet<usize> = BTreeSet::from([0]);
    while let Some(i) = work.pop_first() {
        let Some(env) = &envs[i] else { continue };
        let after = transfer(&f.instrs[i], env);
        let (succ, havoc) = successors(f, i, &sites);
        for s in succ {
            let incoming = if havoc { Env::new() } else { after.clone() };
            let joined = match &envs[s] {
                None => incoming,
                Some(old) => old.iter().filter(|(r, v)| incoming.get(r) == Some(v)).map(|(r, v)| (*r, *v)).collect(),
            };
            if envs[s].as_ref() != Some(&joined) {
                envs[s] = Some(joined);
                work.insert(s);
            }
        }
    }
    envs
}

/// `env` after `ins`: what it writes is forgotten unless it builds one of the tracked values.
fn transfer(ins: &Instr, env: &Env) -> Env {
    let mut out = env.clone();
    let written = if ins.guard.is_some() { Vec::new() } else { values(ins, env) };
    for r in &ins.defs {
        out.remove(r);
    }
    for (r, v) in written {
        out.insert(r, v);
    }
    out
}

/// The tracked values an unguarded `ins` writes.
fn values(ins: &Instr, env: &Env) -> Vec<(Reg, Value)> {
    let gen = |r: &Reg| r.file == File::R;
    let defs: Vec<Reg> = ins.defs.iter().copied().filter(gen).collect();
    let ops = &ins.operands;
    let value_of = |k: usize| -> Option<Value> {
        let o = ops.get(k)?;
        match o.regs.as_slice() {
            [r] => env.get(r).copied(),
            [] => o.imm.map(Value::Imm),
            _ => None,
        }
    };
    match (ins.mnemonic.as_str(), defs.as_slice()) {
        ("S2R", [d]) if ops.get(1).is_some_and(|o| o.text == "SR_TID.X") => vec![(*d, Value::Tid)],
        ("LDC", [d]) => {
            ops.get(1).and_then(|o| constant(&o.text)).map(|c| vec![(*d, Value::Param(c))]).unwrap_or_default()
        }
        ("LDC.64", [d0, d1]) => ops
            .get(1)
            .and_then(|o| constant(&o.text))
            .map(|c| vec![(*d0, Value::Param(c)), (*d1, Value::Param(c + 4))])
            .unwrap_or_default(),
        ("MOV", [d]) => value_of(1).map(|v| vec![(*d, v)]).unwrap_or_default(),
        ("IMAD.MOV.U32" | "IMAD.MOV", [d])
            if ops.get(1).is_some_and(|o| o.zero) && ops.get(2).is_some_and(|o| o.zero) =>
        {
            value_of(3).map(|v| vec![(*d, v)]).unwrap_or_default()
        }
        ("IMAD.WIDE.U32" | "IMAD.WIDE", [d0, d1]) => {
            let stride = match (value_of(1), value_of(2)) {
                (Some(Value::Tid), Some(Value::Imm(k))) | (Some(Value::Imm(k)), Some(Value::Tid)) => k,
                _ => return Vec::new(),
            };
            let addend = ops.get(3);
            let param = match addend.map(|o| o.regs.as_slice()) {
                Some([a0, a1]) => match (env.get(a0), env.get(a1)) {
                    (Some(&Value::Param(c)), Some(&Value::Param(c1))) if c1 == c + 4 => c,
                    _ => return Vec::new(),
                },
                _ => match addend.and_then(|o| constant(&o.text)) {
                    Some(c) => c,
                    None => return Vec::new(),
                },
            };
            vec![(*d0, Value::Slot { param, stride, high: false }), (*d1, Value::Slot { param, stride, high: true })]
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
#[path = "stores_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "stores/propagate_tests.rs"]
mod propagate_tests;
