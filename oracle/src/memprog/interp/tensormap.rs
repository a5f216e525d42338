//! Tensor maps as operands and tensor-map objects (§9.7.9.26): the map and coordinates a
//! `[tensorMap, {c0, …}]` operand names, `tensormap.replace` of an object's fields in global or
//! shared memory ([`crate::memory::tensor_map::TensorMap::replaced`], tile mode only),
//! `tensormap.cp_fenceproxy` of a shared object to global memory (§9.7.13.16), and the global
//! buffer byte at a model address ([`crate::memprog::global_base`]).
//!
//! Invariant: a thread's copy names a global object only after a release (a
//! `fence.proxy.tensormap::generic` release, or the `tensormap.cp_fenceproxy` that wrote it)
//! followed the last replacement and the thread's own acquire followed that (§9.7.13.4,
//! `fence.rs`), and only while the object is still a map the driver would encode; a copy never
//! names a shared object. `tensormap.replace` is a generic-proxy write of the object's bytes
//! ([`crate::memory::Protocol::generic_write`]), so an asynchronous copy of a replaced object
//! needs `fence.proxy.async` first. The release's and acquire's `.scope` are not
//! distinguished (lockstep threads, one cluster). A `tensormap.cp_fenceproxy` by a warp of
//! fewer than 32 threads is undefined under the allowance `cp-fenceproxy-whole-warp` (ptxas
//! copies a word per lane); with it off, the whole object is copied as §9.7.13.16 reads.

use super::{Machine, MapUse, Val};
use crate::isa::operand::Operand;
use crate::memprog::{BufferSpace, MemError};
use crate::semantics::Allowance;

impl Machine<'_> {
    /// The tensor map and coordinates of a `[tensorMap, {c0, …}]` operand: a tensor map
    /// parameter, or a tensor-map object in global memory (a buffer name or a register holding
    /// its address) as `tensormap.replace` left it, which this thread's tensormap proxy must
    /// have acquired and which must still be a map the driver would encode.
    pub(super) fn tensor_ref(&self, t: u32, o: &Operand) -> Result<(MapUse, Vec<i32>), MemError> {
        let Operand::TensorRef { map, coords } = o else {
            return Err(MemError::Unsupported(format!("tensor operand `{o}`")));
        };
        let name = match map.as_ref() {
            Operand::Name(n) => n,
            o => return Err(MemError::Unsupported(format!("tensor map operand `{o}`: name a tensor map"))),
        };
        let coords = coords.iter().map(|c| self.known(t, c).map(|v| v as u32 as i32)).collect::<Result<_, _>>()?;
        if let Some(d) = self.p.tensor_maps.iter().find(|m| &m.name == name) {
            return Ok((MapUse { name: d.name.clone(), map: d.map.clone(), buffer: d.buffer }, coords));
        }
        let Val::Addr { buffer: region, offset: 0, .. } = self.value(t, map)? else {
            return Err(MemError::Undefined(format!(
                "tensor map operand `{name}` is no tensor map and no tensor-map object"
            )));
        };
        let obj = self.objects.get(&region).ok_or_else(|| {
            MemError::Undefined(format!(
                "`{name}` is not a tensor-map object (a buffer a tensor map names as its \"object\")"
            ))
        })?;
        let label = format!("the tensor-map object of `{}`", self.p.tensor_maps[obj.decl].name);
        if self.buffer(region).space == BufferSpace::Shared {
            return Err(MemError::Undefined(format!(
                "{label} in shared memory (`{name}`) cannot be a copy's tensor map (§9.7.9.25.5.2: .param, .const or .global); \
                 tensormap.cp_fenceproxy it to global memory and acquire it there"
            )));
        }
        if !obj.acquired.contains(&t) {
            return Err(MemError::Undefined(format!(
                "§9.7.13.4: {label} is used after tensormap.replace without fence.proxy.tensormap::generic release, then this thread's acquire [object], 128"
            )));
        }
        obj.map
            .validate(&self.p.target)
            .map_err(|e| MemError::Undefined(format!("{label} after tensormap.replace: {e}")))?;
        let buffer = self.global_byte(obj.map.global_address).map(|(b, _)| b).ok_or_else(|| {
            MemError::Undefined(format!(
                "{label}: its global address {:#x} lies in no global buffer",
                obj.map.global_address
            ))
        })?;
        Ok((MapUse { name: label, map: obj.map.clone(), buffer }, coords))
    }

    /// `tensormap.replace` (§9.7.9.26) of a tensor-map object in global memory.
    pub(super) fn tensormap_replace(
        &mut self,
        t: u32,
        r: &crate::isa::TensormapReplace,
        ops: &[Operand],
    ) -> Result<(), MemError> {
        let space = match r.ss {
            Some(crate::isa::TensormapSs::SharedCta) => BufferSpace::Shared,
            _ => BufferSpace::Global,
        };
        let (region, at) = self.address(t, &ops[0], Some(space))?;
        if at != 0 || !self.objects.contains_key(&region) {
            return Err(MemError::Undefined(format!(
                "`{}` is not the start of a tensor-map object (a buffer a tensor map names as its \"object\", or a shared buffer a whole object was copied to and waited for)",
                ops[0]
            )));
        }
        let bytes = crate::memprog::TENSOR_MAP_BYTES as u64;
        self.protocol.generic_write(t, crate::memory::Span { region, start: 0, len: bytes })?;
        if self.objects.get(&region).is_some_and(|o| o.map.mode != crate::memory::tensor_map::MapMode::Tiled) {
            return Err(MemError::Undefined(
                "tensormap.replace.tile on an im2col tensor-map object (§9.7.9.26: .mode is the object's mode)".into(),
            ));
        }
        let ord = match r.field.has_ord() {
            true => Some(usize::try_from(self.known(t, &ops[1])?).unwrap_or(usize::MAX)),
            false => None,
        };
        let new_val = ops.last().ok_or_else(|| MemError::Unsupported("tensormap.replace without new_val".into()))?;
        let value = match self.value(t, new_val)? {
            Val::Addr { buffer, offset, .. }
                if r.field == crate::isa::TensormapField::GlobalAddress
                    && self.buffer(buffer).space == BufferSpace::Global =>
            {
                crate::memprog::global_base(buffer, self.buffer(buffer).align).wrapping_add_signed(offset)
            }
            _ => self.known(t, new_val)?,
        };
        let obj = self.objects.get_mut(&region).expect("checked above");
        obj.map = obj.map.replaced(r.field, ord, value).map_err(MemError::Unsupported)?;
        obj.unreleased.insert(t);
        obj.acquired.clear();
        Ok(())
    }

    /// `tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned
    /// [dst], [src], 128` (§9.7.13.16): the tensor-map object at the start of the shared buffer
    /// `src` (this CTA's) becomes the object at the start of the global buffer `dst` (128-byte
    /// aligned), released by this thread: a thread's copy may name `dst` after its own
    /// `fence.proxy.tensormap::generic.acquire [dst], 128` once every replacement of `src` was
    /// released (each replacing thread's own release or `cp_fenceproxy`).
    pub(super) fn tensormap_cp_fenceproxy(&mut self, t: u32, ops: &[Operand]) -> Result<(), MemError> {
        let bytes = crate::memprog::TENSOR_MAP_BYTES as u64;
        let rule = "§9.7.13.16: a 128-byte aligned tensor-map object";
        // The threads of `t`'s warp: a CTA's threads 32k … 32k + 31 that exist.
        let tid = t % self.p.threads;
        let lanes = (self.p.threads - tid / super::WARP * super::WARP).min(super::WARP);
        if lanes < super::WARP && self.allow.allows(Allowance::CpFenceproxyWholeWarp) {
            return Err(MemError::Undefined(format!(
                "tensormap.cp_fenceproxy by a warp of {lanes} threads: ptxas copies a 4-byte word per lane, so only {} of the {bytes} bytes (allowance {}; run a whole warp of 32 threads)",
                4 * lanes,
                Allowance::CpFenceproxyWholeWarp.name()
            )));
        }
        let (dst, at) = self.address(t, &ops[0], Some(BufferSpace::Global))?;
        if at != 0 {
            return Err(MemError::Unsupported(format!(
                "`{}` is {at} bytes into its buffer: tensor-map objects sit at the start of a buffer",
                ops[0]
            )));
        }
        let span = self.span(dst, at, bytes, bytes, rule)?;
        let (src, at) = self.address(t, &ops[1], Some(BufferSpace::Shared))?;
        let size = self.known(t, &ops[2])?;
        if size != bytes {
            return Err(MemError::Undefined(format!("size {size}: a tensor-map object is {bytes} bytes (§9.7.13.16)")));
        }
        let Some(obj) = self.objects.get_mut(&src).filter(|_| at == 0) else {
            return Err(MemError::Undefined(format!(
                "`{}` is not a tensor-map object in shared memory (cp.async.bulk all 128 bytes of a global object to the start of a shared buffer, and wait for it, first)",
                ops[1]
            )));
        };
        obj.unreleased.remove(&t);
        let object = super::MapObject { acquired: Default::default(), ..obj.clone() };
        self.protocol.generic_write(t, span)?;
        self.regions[dst].forget(0, bytes, crate::semantics::Allowance::Undefined)?;
        self.objects.insert(dst, object);
        Ok(())
    }

    /// The global buffer byte at a model address, if it lies in a global buffer.
    pub(super) fn global_byte(&self, addr: u64) -> Option<(usize, u64)> {
        self.p.buffers.iter().enumerate().find_map(|(k, b)| {
            let base = crate::memprog::global_base(k, b.align);
            (b.space == BufferSpace::Global && addr >= base && addr - base < b.init.len() as u64)
                .then(|| (k, addr - base))
        })
    }
}
