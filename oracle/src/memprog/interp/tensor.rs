//! Tensor copies and reductions (§9.7.9.25.5): `cp.async.bulk.tensor` loads (tile and im2col
//! modes, multicast) and stores (tile and `.im2col_no_offs`), and `cp.reduce.async.bulk.tensor`
//! (tile and `.im2col_no_offs`), with tiles laid out by [`crate::memory::tensor_map`]. The
//! swizzle follows the absolute shared address; a program's shared buffers start at multiples of
//! 1024 bytes, so the offset in the buffer decides it.
//!
//! Invariant: every global byte a tile reaches lies in the map's buffer, a store keeps the
//! §9.7.9.25.5.1 restriction, and the H100's write past dimension 0 (the chunk tail) is
//! modelled only under the allowance `tma-store-oob-chunk`.

use super::{Effect, Machine};
use crate::isa::operand::Operand;
use crate::isa::BulkSpace;
use crate::memory::{AsyncOp, Byte, Proxy, Signal, Span};
use crate::memprog::{BufferSpace, MemError};
use crate::semantics::Allowance;

impl Machine<'_> {
    /// `cp.async.bulk.tensor` loads and stores (§9.7.9.25.5.2) in tile and im2col modes.
    pub(super) fn tensor_copy(
        &mut self,
        t: u32,
        c: &crate::isa::CpAsyncBulkTensor,
        ops: &[Operand],
    ) -> Result<(), MemError> {
        use crate::isa::LoadMode;
        let mode = c.load_mode.unwrap_or(LoadMode::Tile);
        let load = c.dst != BulkSpace::Global;
        // A store in `.im2col_no_offs` mode writes the column an im2col load without offsets
        // reads (§9.7.9.25.5.2: "some dimensions of the source tensors are unrolled in a single
        // dimensional column"; the traversal is the load's, as an H100 writes it where it does
        // not trap: corpus/findings/tma-im2col-no-offs-corner-trap.md).
        let modelled = matches!(mode, LoadMode::Tile | LoadMode::Im2col) || (!load && mode == LoadMode::Im2colNoOffs);
        if !modelled || c.cta_group.is_some() {
            return Err(MemError::Unsupported(format!("tensor copies in .{mode} mode or with .cta_group")));
        }
        let (decl, coords) = self.tensor_ref(t, &ops[usize::from(load)])?;
        let map = &decl.map;
        check_map_mode(mode, map, &decl.name)?;
        let mut offsets = Vec::new();
        if load && mode == LoadMode::Im2col {
            let Some(Operand::Vector(items)) = ops.get(3) else {
                return Err(MemError::Unsupported("im2col without its im2colInfo vector".into()));
            };
            for o in items {
                offsets.push(self.known(t, o)? as u16);
            }
        }
        let tile_err =
            |e: crate::memory::tensor_map::TileError| MemError::Undefined(format!("tensor map `{}`: {e}", decl.name));
        // The swizzle follows the absolute shared address; a program's shared buffers start at
        // multiples of 1024 bytes (the PTX printer places them so beside swizzled maps), so the
        // offset in the buffer decides it.
        let (shared_buffer, shared_off) = if load {
            self.cluster_address(t, &ops[0], Some(BufferSpace::Shared))?
        } else {
            self.address(t, &ops[1], Some(BufferSpace::Shared))?
        };
        let at = u64::try_from(shared_off).unwrap_or(0);
        let elements = map.tile_at(at, &coords, &offsets).map_err(tile_err)?;
        let eb = map.tile_element_bytes();
        let mut global_spans = Vec::new();
        for e in &elements {
            if let Some(addr) = e.global {
                let (b, at) = self
                    .global_byte(addr)
                    .filter(|&(b, at)| b == decl.buffer && at + eb <= self.p.buffers[decl.buffer].init.len() as u64)
                    .ok_or_else(|| {
                        MemError::Undefined(format!(
                            "tensor map `{}` reaches global address {addr:#x}, outside buffer `{}`",
                            decl.name, self.p.buffers[decl.buffer].name
                        ))
                    })?;
                global_spans.push((e.smem_offset, Span { region: b, start: at, len: eb }));
            }
        }
        let size = map.tile_bytes();
        let rule = "§9.7.9.25.5.2: the shared-memory tile's alignment for this map";
        if load {
            let (db, doff) = (shared_buffer, shared_off);
            let dst = self.span(db, doff, size, map.smem_align(), rule)?;
            let global = |addr: u64| {
                let (b, at) = self.global_byte(addr)?;
                match self.regions[b].read(at, 1).ok()?[0] {
                    Byte::Known(v) => Some(v),
                    Byte::Unknown(_) => None,
                }
            };
            use crate::memory::tensor_map::LoadedByte;
            let bytes: Vec<Option<Byte>> = map
                .load_at(at, &coords, &offsets, &global)
                .map_err(tile_err)?
                .into_iter()
                .enumerate()
                .map(|(k, b)| {
                    Some(match b {
                        LoadedByte::Byte(Some(v)) => Byte::Known(v),
                        LoadedByte::Byte(None) => Byte::Unknown(Allowance::Undefined),
                        LoadedByte::Fill if self.allow.allows(Allowance::TmaOobNanFill) => {
                            Byte::Unknown(Allowance::TmaOobNanFill)
                        }
                        LoadedByte::Fill => Byte::Known(crate::memory::tensor_map::fill_byte(k as u64 % eb)),
                        LoadedByte::Unwritten => return None,
                    })
                })
                .collect();
            let bar = self.dst_mbarrier(t, &ops[2], db)?;
            let ctas = if c.multicast {
                self.cta_mask(t, &ops[ops.len() - 1 - usize::from(c.cache_hint)])?
            } else {
                vec![(db / self.nbuf) as u32]
            };
            // A multicast is one copy per destination CTA, each at the same offsets.
            for cta in ctas {
                let region = self.in_cta(db, cta);
                self.remote_ready(t, Span { region: self.in_cta(bar.region, cta), ..bar })?;
                self.protocol.issue(AsyncOp {
                    thread: t,
                    proxy: Proxy::Async,
                    reads: global_spans.iter().map(|(_, s)| *s).collect(),
                    writes: vec![Span { region, ..dst }],
                    reduction: false,
                    signal: Signal::Mbarrier {
                        bar: Span { region: self.in_cta(bar.region, cta), ..bar },
                        bytes: size as i64,
                    },
                    effect: Effect::Write { region, start: dst.start, bytes: bytes.clone() },
                })?;
            }
        } else {
            if let Some(why) = map.store_restriction(&coords) {
                return Err(MemError::Undefined(format!("{why} (tensor map `{}`)", decl.name)));
            }
            let (sb, soff) = (shared_buffer, shared_off);
            let src = self.span(sb, soff, size, map.smem_align(), rule)?;
            let mut effects = Vec::new();
            for (smem, g) in &global_spans {
                let bytes = self.regions[sb].read(src.start + smem, g.len)?.iter().copied().map(Some).collect();
                effects.push(Effect::Write { region: g.region, start: g.start, bytes });
            }
            if self.allow.allows(Allowance::TmaStoreOobChunk) {
                for (region, start, len) in self.store_chunk_tail(map, &coords, &elements, decl.buffer)? {
                    let bytes = vec![Some(Byte::Unknown(Allowance::TmaStoreOobChunk)); len as usize];
                    effects.push(Effect::Write { region, start, bytes });
                }
            }
            self.protocol.issue(AsyncOp {
                thread: t,
                proxy: Proxy::Async,
                reads: vec![src],
                writes: global_spans.iter().map(|(_, s)| *s).collect(),
                reduction: false,
                signal: Signal::BulkGroup,
                effect: Effect::Many(effects),
            })?;
        }
        Ok(())
    }

    /// The global bytes a tile store writes beyond the end of dimension 0 on the H100 (allowance
    /// [`Allowance::TmaStoreOobChunk`]): in each row with in-bounds elements, the out-of-bounds
    /// elements of the box that share the 16-byte chunk (counted from the row's start) of the
    /// row's last in-bounds element. `(region, start, len)` spans inside the map's buffer.
    fn store_chunk_tail(
        &self,
        map: &crate::memory::tensor_map::TensorMap,
        coords: &[i32],
        elements: &[crate::memory::tensor_map::TileElement],
        buffer: usize,
    ) -> Result<Vec<(usize, u64, u64)>, MemError> {
        // Interleaved rows are whole 16-byte chunks: a store skips exactly the units out of bounds.
        let Some(&box0) = map.box_dims.first().filter(|_| map.interleave.unit_bytes().is_none()) else {
            return Ok(Vec::new());
        };
        let eb = map.element_bytes();
        let dim0 = map.dims[0];
        let row_end = (dim0 * eb).next_multiple_of(16);
        let box_end = (i64::from(coords[0]) + i64::from(box0)).max(0) as u64 * eb;
        let tail_end = row_end.min(box_end);
        let mut spans = Vec::new();
        for row in elements.chunks(box0 as usize) {
            // The row's last in-bounds element is x = dims[0] - 1 when the box reaches past it.
            let Some(last) = row.iter().filter_map(|e| e.global).max() else { continue };
            let x_last = i64::from(coords[0]) + row.iter().rposition(|e| e.global.is_some()).unwrap_or(0) as i64;
            if x_last as u64 + 1 != dim0 || tail_end <= dim0 * eb {
                continue;
            }
            let Some((region, at)) = self.global_byte(last + eb) else { continue };
            let len = tail_end - dim0 * eb;
            if region == buffer && at + len <= self.p.buffers[buffer].init.len() as u64 {
                spans.push((region, at, len));
            }
        }
        Ok(spans)
    }

    /// `cp.reduce.async.bulk.tensor` (§9.7.9.25.5.3) in tile and `.im2col_no_offs` modes: each
    /// in-bounds element of the tile (or im2col column, as a store writes it) reduced into
    /// global memory; the element type is the map's.
    pub(super) fn tensor_reduce(
        &mut self,
        t: u32,
        c: &crate::isa::CpReduceAsyncBulkTensor,
        ops: &[Operand],
    ) -> Result<(), MemError> {
        use crate::isa::LoadMode;
        if c.load_mode.is_some_and(|m| !matches!(m, LoadMode::Tile | LoadMode::Im2colNoOffs)) {
            return Err(MemError::Unsupported("tensor reductions other than .tile and .im2col_no_offs".into()));
        }
        let (decl, coords) = self.tensor_ref(t, &ops[0])?;
        check_map_mode(c.load_mode.unwrap_or(LoadMode::Tile), &decl.map, &decl.name)?;
        let ty = decl
            .map
            .dtype
            .reduce_type(c.redop)
            .ok_or_else(|| MemError::Unsupported(format!("tensor reductions over {}", decl.map.dtype.name())))?;
        // The swizzle follows the shared address's offset in its buffer (as in `tensor_copy`).
        let (sb, soff) = self.address(t, &ops[1], Some(BufferSpace::Shared))?;
        let elements = decl
            .map
            .tile_at(u64::try_from(soff).unwrap_or(0), &coords, &[])
            .map_err(|e| MemError::Undefined(format!("tensor map `{}`: {e}", decl.name)))?;
        let eb = decl.map.tile_element_bytes();
        let size = decl.map.tile_bytes();
        let align = decl.map.smem_align();
        let src = self.span(sb, soff, size, align, "§9.7.9.25.5.3: the shared-memory tile's alignment for this map")?;
        let (mut effects, mut writes) = (Vec::new(), Vec::new());
        for e in &elements {
            let Some(addr) = e.global else { continue };
            let (b, at) = self
                .global_byte(addr)
                .filter(|&(b, at)| at + eb <= self.p.buffers[b].init.len() as u64)
                .ok_or_else(|| {
                    MemError::Undefined(format!(
                        "tensor map `{}` reaches global address {addr:#x}, outside its buffer",
                        decl.name
                    ))
                })?;
            let bytes = self.regions[sb].read(src.start + e.smem_offset, eb)?.to_vec();
            effects.push(Effect::Reduce { region: b, start: at, op: c.redop, ty, src: bytes });
            writes.push(Span { region: b, start: at, len: eb });
        }
        // The H100 reduces into the chunk tail past dimension 0 as a store writes it.
        if self.allow.allows(Allowance::TmaStoreOobChunk) {
            for (region, start, len) in self.store_chunk_tail(&decl.map, &coords, &elements, decl.buffer)? {
                let bytes = vec![Some(Byte::Unknown(Allowance::TmaStoreOobChunk)); len as usize];
                effects.push(Effect::Write { region, start, bytes });
            }
        }
        self.protocol.issue(AsyncOp {
            thread: t,
            proxy: Proxy::Async,
            reads: vec![src],
            writes,
            reduction: true,
            signal: Signal::BulkGroup,
            effect: Effect::Many(effects),
        })?;
        Ok(())
    }
}

/// A tensor copy or reduction in `mode` must use a map of that kind: the tile modes a tiled
/// map, the im2col modes an im2col map (§9.7.9.25.5.2; the two encoders of the tensor-map
/// section make different maps). Anything else is not modelled.
fn check_map_mode(
    mode: crate::isa::LoadMode,
    map: &crate::memory::tensor_map::TensorMap,
    name: &str,
) -> Result<(), MemError> {
    let im2col_map = matches!(map.mode, crate::memory::tensor_map::MapMode::Im2col { .. });
    if mode.is_im2col() == im2col_map {
        return Ok(());
    }
    let kind = if im2col_map { "an im2col" } else { "a tiled" };
    Err(MemError::Unsupported(format!("a .{mode} tensor copy or reduction over {kind} map (`{name}`)")))
}
