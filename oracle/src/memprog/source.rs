//! [`MemSource`]: a memory program as its author describes it — statements as text, buffers
//! and tensor maps by name, input registers by name — before [`parse`](super::parse) types
//! it. It is the one description every producer of memory programs shares: the `ptxdiff eval`
//! program-line parser builds one from JSON, generated cases and fuzz programs build one
//! directly, and the eval line of a case (its reproducer) is printed from one.
//!
//! Invariant: [`MemSource::build`] is the only way from a description to a [`MemProgram`]; it
//! resolves every name (buffers, tensor maps, `read`) or says which one is wrong, and never
//! panics on any description.

use std::collections::BTreeMap;

use super::{
    parse, Buffer, BufferSpace, MemError, MemProgram, StmtError, TensorMapDecl, TENSOR_MAP_ALIGN, TENSOR_MAP_BYTES,
};
use crate::isa::Target;
use crate::memory::tensor_map::TensorMap;
use crate::memory::Region;
use crate::program::RegClass;

/// The initial bytes of a buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Init {
    /// Hex byte pairs in address order (`??` for a byte that may be anything).
    Hex(String),
    /// `len` bytes, each `byte`; with `byte` absent, shared bytes are never written (any
    /// value) and global bytes are zero.
    Fill {
        /// The buffer's length.
        len: u64,
        /// The value of every byte.
        byte: Option<u8>,
    },
}

/// An input register as described: its value (the same in every thread) and, optionally, its
/// type. An untyped input register takes the class of its first use; a slot where the class
/// decides the meaning (the fourth operand of `cp.async`: `src-size` or `ignore-src`,
/// §9.7.9.25.3.1) needs a typed one, one written at full 32-bit width (`"0x00000003"`: a
/// 32-bit integer), or a register written by an earlier statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputReg {
    /// The value (its low bits for a narrower register; a predicate is true when non-zero).
    pub value: u64,
    /// The declared class, if given.
    pub class: Option<RegClass>,
    /// For an untyped register, the bits its hex literal was written with (4 per digit), if
    /// known: 32 makes it a 32-bit integer where the class decides the meaning.
    pub written_bits: Option<u32>,
}

impl InputReg {
    /// An input register of `class` holding `value`.
    pub fn typed(class: RegClass, value: u64) -> InputReg {
        InputReg { value, class: Some(class), written_bits: None }
    }

    /// An untyped input register holding `value`, written with `bits` bits of hex digits.
    pub fn written(value: u64, bits: u32) -> InputReg {
        InputReg { value, class: None, written_bits: Some(bits) }
    }
}

impl From<u64> for InputReg {
    /// An untyped input register (typed by its first use).
    fn from(value: u64) -> InputReg {
        InputReg { value, class: None, written_bits: None }
    }
}

/// A named buffer as described.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferSource {
    /// Its name (an address operand in the statements).
    pub name: String,
    /// Global or shared.
    pub space: BufferSpace,
    /// Its initial bytes.
    pub init: Init,
    /// Its base address is a multiple of this (a power of two).
    pub align: u64,
}

/// A named tensor map as described: the encode arguments over a global buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorMapSource {
    /// Its name (the map operand of tensor copies).
    pub name: String,
    /// The name of the global buffer holding the tensor.
    pub global: String,
    /// The tensor's byte offset in that buffer.
    pub global_offset: u64,
    /// The encode arguments (`global_address` is set by [`MemSource::build`]).
    pub map: TensorMap,
    /// The global buffer that holds a copy of the encoded map as a tensor-map object in
    /// global memory (its first 128 bytes, copied there before the statements run), which
    /// `tensormap.replace` may modify and tensor copies may name (§9.7.9.26).
    pub object: Option<String>,
}

/// A memory program as described (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemSource {
    /// The target.
    pub target: Target,
    /// Threads of each CTA.
    pub threads: u32,
    /// CTAs of the one cluster (1 ..= [`super::MAX_CLUSTER`]); each runs the statements over
    /// its own copy of the shared buffers.
    pub cluster: u32,
    /// The statements, one PTX statement each.
    pub statements: Vec<String>,
    /// Input registers by name, the same value in every thread.
    pub regs: BTreeMap<String, InputReg>,
    /// The buffers.
    pub buffers: Vec<BufferSource>,
    /// The tensor maps.
    pub tensor_maps: Vec<TensorMapSource>,
    /// Names of the buffers to read back, in order.
    pub read: Vec<String>,
}

impl Init {
    /// The region these bytes make for a buffer in `space`.
    pub fn region(&self, space: BufferSpace) -> Result<Region, MemError> {
        match self {
            Init::Hex(h) => Region::from_hex(h).map_err(MemError::from),
            Init::Fill { len, byte } => {
                let len = usize::try_from(*len).map_err(|_| MemError::Parse(format!("a length of {len} bytes")))?;
                Ok(match (byte, space) {
                    (Some(b), _) => Region::filled(len, *b),
                    (None, BufferSpace::Shared) => Region::unwritten(len),
                    (None, BufferSpace::Global) => Region::filled(len, 0),
                })
            }
        }
    }
}

/// The most bytes one program's buffers may hold together (global buffers once, shared buffers
/// once per CTA of the cluster), checked before any is made: 64 MiB, hundreds of times what a
/// conform case or a generated program uses.
pub const MAX_PROGRAM_BYTES: u64 = 64 << 20;

/// The most statements one program may run over all its threads (statements × threads per
/// CTA × CTAs): 131,072, e.g. 128 statements in 1,024 threads. The interpreter checks each
/// memory access against the operations in flight, so its work grows with this product times
/// [`crate::memory::protocol::MAX_TRACKED`].
pub const MAX_THREAD_STATEMENTS: u64 = 1 << 17;

impl BufferSource {
    /// Its length in bytes as described (`hex` by its length, without decoding it).
    pub fn described_len(&self) -> u64 {
        match &self.init {
            Init::Hex(h) => h.len() as u64 / 2,
            Init::Fill { len, .. } => *len,
        }
    }
}

impl MemSource {
    /// The bytes of the buffers as described, counted as [`MAX_PROGRAM_BYTES`] counts them.
    pub fn buffer_bytes(&self) -> u64 {
        self.buffers
            .iter()
            .map(|b| match b.space {
                BufferSpace::Shared => b.described_len().saturating_mul(u64::from(self.cluster.max(1))),
                BufferSpace::Global => b.described_len(),
            })
            .fold(0, u64::saturating_add)
    }

    /// Checks the limits of a program before anything is made from it: [`MAX_PROGRAM_BYTES`],
    /// the target's shared memory per CTA ([`Target::max_shared_per_cta`], with each shared
    /// buffer at its alignment) and [`MAX_THREAD_STATEMENTS`].
    pub fn check_limits(&self) -> Result<(), MemError> {
        let bytes = self.buffer_bytes();
        if bytes > MAX_PROGRAM_BYTES {
            return Err(MemError::Parse(format!(
                "the buffers hold {bytes} bytes together (shared ones once per CTA); a program may have at most {MAX_PROGRAM_BYTES} (64 MiB)"
            )));
        }
        let mut shared = 0u64;
        for b in self.buffers.iter().filter(|b| b.space == BufferSpace::Shared) {
            shared =
                shared.checked_next_multiple_of(b.align.max(1)).unwrap_or(u64::MAX).saturating_add(b.described_len());
        }
        let max = self.target.max_shared_per_cta();
        if shared > max {
            return Err(MemError::Parse(format!(
                "the shared buffers take {shared} bytes of each CTA (with their alignment); a CTA of {} may have at most {max} ({} KiB)",
                self.target.name(),
                max / 1024
            )));
        }
        let work = (self.statements.len() as u64)
            .saturating_mul(u64::from(self.threads))
            .saturating_mul(u64::from(self.cluster.max(1)));
        if work > MAX_THREAD_STATEMENTS {
            return Err(MemError::Parse(format!(
                "{} statements × {} threads × {} CTAs is {work} statements to run; a program may run at most {MAX_THREAD_STATEMENTS}",
                self.statements.len(),
                self.threads,
                self.cluster.max(1)
            )));
        }
        Ok(())
    }

    /// Checks the limits ([`MemSource::check_limits`]), resolves the names and parses the
    /// statements ([`parse`]).
    pub fn build(&self) -> Result<MemProgram, StmtError> {
        let whole = |error| StmtError { index: 0, text: "(declarations)".into(), error };
        self.check_limits().map_err(whole)?;
        let mut buffers = Vec::with_capacity(self.buffers.len());
        for name in self.regs.keys().chain(self.tensor_maps.iter().map(|t| &t.name)) {
            if !super::is_reg_name(name) {
                return Err(whole(MemError::Parse(format!(
                    "`{name}` is not a name a statement can use (a letter or `_`, then letters, digits or `_`)"
                ))));
            }
        }
        for (k, b) in self.buffers.iter().enumerate() {
            let bad = |m: String| whole(MemError::Parse(format!("buffer `{}`: {m}", b.name)));
            if !super::is_reg_name(&b.name) {
                return Err(
                    bad("not a name a statement can use (a letter or `_`, then letters, digits or `_`)".into()),
                );
            }
            if self.buffers[..k].iter().any(|x| x.name == b.name) {
                return Err(bad("the name is given twice".into()));
            }
            if self.regs.contains_key(&b.name) || self.tensor_maps.iter().any(|t| t.name == b.name) {
                return Err(bad("the name is also an input register or a tensor map".into()));
            }
            if !b.align.is_power_of_two() {
                return Err(bad(format!("align {} is not a power of two", b.align)));
            }
            let init = b.init.region(b.space).map_err(|e| bad(e.to_string()))?;
            buffers.push(Buffer { name: b.name.clone(), space: b.space, align: b.align, init });
        }
        let mut tensor_maps = Vec::with_capacity(self.tensor_maps.len());
        for (k, t) in self.tensor_maps.iter().enumerate() {
            if self.tensor_maps[..k].iter().any(|x| x.name == t.name) || self.regs.contains_key(&t.name) {
                return Err(whole(MemError::Parse(format!(
                    "tensor map `{}`: the name is given twice or is also an input register",
                    t.name
                ))));
            }
            let buffer = self
                .buffers
                .iter()
                .position(|b| b.name == t.global)
                .ok_or_else(|| whole(MemError::UnknownName(t.global.clone())))?;
            let object = match &t.object {
                None => None,
                Some(_) if self.target.sm < 90 => {
                    return Err(whole(MemError::Parse(format!(
                        "tensor map `{}`: tensor-map objects need sm_90 or later (fence.proxy.tensormap::generic, §9.7.13.4)",
                        t.name
                    ))))
                }
                Some(o) => {
                    let k = self
                        .buffers
                        .iter()
                        .position(|b| &b.name == o)
                        .ok_or_else(|| whole(MemError::UnknownName(o.clone())))?;
                    let b = &buffers[k];
                    let taken = tensor_maps.iter().any(|d: &TensorMapDecl| d.object == Some(k))
                        || self.tensor_maps.iter().any(|m| &m.global == o);
                    if b.space != BufferSpace::Global
                        || b.init.len() < TENSOR_MAP_BYTES
                        || b.align < TENSOR_MAP_ALIGN
                        || taken
                        || k == buffer
                    {
                        return Err(whole(MemError::Parse(format!(
                            "tensor map `{}`: object buffer `{o}` must be a global buffer of at least {TENSOR_MAP_BYTES} bytes aligned to {TENSOR_MAP_ALIGN}, no other map's object or tensor (§5.5.8: a tensor-map object is 128 bytes, 64-byte aligned)",
                            t.name
                        ))));
                    }
                    Some(k)
                }
            };
            tensor_maps.push(TensorMapDecl {
                name: t.name.clone(),
                buffer,
                global_offset: t.global_offset,
                map: t.map.clone(),
                object,
            });
        }
        let read = self
            .read
            .iter()
            .map(|n| {
                self.buffers.iter().position(|b| &b.name == n).ok_or_else(|| whole(MemError::UnknownName(n.clone())))
            })
            .collect::<Result<Vec<_>, _>>()?;
        parse(self.target, self.threads, buffers, tensor_maps, &self.regs, &self.statements, read)?
            .in_cluster(self.cluster)
            .map_err(whole)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn copy_source() -> MemSource {
        MemSource {
            target: Target::parse("sm_90").unwrap(),
            threads: 1,
            cluster: 1,
            statements: vec!["ld.global.u32 x, [src+4];".into(), "st.global.u32 [dst], x;".into()],
            regs: BTreeMap::new(),
            buffers: vec![
                BufferSource {
                    name: "src".into(),
                    space: BufferSpace::Global,
                    init: Init::Hex("0102030405060708".into()),
                    align: 16,
                },
                BufferSource {
                    name: "dst".into(),
                    space: BufferSpace::Global,
                    init: Init::Fill { len: 4, byte: None },
                    align: 16,
                },
            ],
            tensor_maps: Vec::new(),
            read: vec!["dst".into()],
        }
    }

    #[test]
    fn a_source_builds_the_program_it_describes() {
        let p = copy_source().build().unwrap();
        assert_eq!(p.buffers.len(), 2);
        assert_eq!(p.buffers[1].init, Region::filled(4, 0), "a global buffer given only a length starts zeroed");
        assert_eq!(p.read, vec![1]);
        let out = super::super::interp::run(&p, &crate::semantics::Allowances::all()).unwrap();
        assert_eq!(out[1].to_hex(), "05060708");
    }

    #[test]
    fn bad_names_are_errors() {
        let mut s = copy_source();
        s.read = vec!["nowhere".into()];
        assert!(s.build().unwrap_err().to_string().contains("nowhere"));
        let mut s = copy_source();
        s.buffers.push(s.buffers[0].clone());
        assert!(s.build().unwrap_err().to_string().contains("twice"));
        let mut s = copy_source();
        s.buffers[0].init = Init::Hex("0g".into());
        assert!(s.build().unwrap_err().to_string().contains("bad hex"));
        let mut s = copy_source();
        s.buffers[0].align = 3;
        assert!(s.build().unwrap_err().to_string().contains("power of two"));
    }

    #[test]
    fn an_unwritten_shared_buffer_is_unknown() {
        let r = Init::Fill { len: 3, byte: None }.region(BufferSpace::Shared).unwrap();
        assert_eq!(r.to_hex(), "??????");
        assert_eq!(Init::Fill { len: 2, byte: Some(0xa5) }.region(BufferSpace::Shared).unwrap().to_hex(), "a5a5");
    }
}
