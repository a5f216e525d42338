//! The bulk asynchronous copies (§9.7.9.25.4): `cp.async.bulk` (16-byte aligned, a multiple of
//! 16 bytes; into another CTA's shared memory with `.shared::cluster`, to every CTA of a
//! `ctaMask` with `.multicast::cluster`, byte-masked with `.cp_mask`), `cp.reduce.async.bulk`
//! (`dst op src` computed at completion, §9.7.9.25.4.2), `cp.async.bulk.prefetch`, the bulk
//! groups, and `st.async` (§9.7.9.12), whose writes complete on the destination's mbarrier.
//!
//! A `cp.async.bulk` of a whole global tensor-map object to the start of a shared buffer
//! carries the object ([`Effect::Object`]); any other copy of an object's bytes is an error.
//!
//! Invariant: a multicast is one operation per destination CTA, each completing on the
//! mbarrier at the same offset in its CTA (§9.7.9.25.4.1), and another CTA's mbarrier is
//! signalled only once its initialisation was made visible to the cluster
//! ([`Machine::remote_ready`]).

use super::exec::unsupported;
use super::values::{data_shape, elements};
use super::{Effect, Machine};
use crate::isa::operand::{Operand, Role};
use crate::isa::{BulkSpace, Completion, Form};
use crate::memory::{AsyncOp, Byte, Proxy, Signal, Span};
use crate::memprog::{BufferSpace, MemError};

impl Machine<'_> {
    /// The bulk copies and reductions, their groups, and `st.async`.
    pub(super) fn bulk(&mut self, t: u32, form: &Form, ops: &[Operand]) -> Result<(), MemError> {
        match form {
            Form::CpAsyncBulkCommitGroup(_) => {
                self.protocol.commit_group(t, true);
                Ok(())
            }
            Form::CpAsyncBulkWaitGroup(w) => {
                let n = self.known(t, &ops[0])? as usize;
                let e = self.protocol.wait_group(t, true, n, w.read);
                self.apply(e)
            }
            Form::CpAsyncBulkPrefetch(_) => {
                let (b, off) = self.address(t, &ops[0], Some(BufferSpace::Global))?;
                let size = self.known(t, &ops[1])?;
                self.span(b, off, size, 16, "§9.7.9.25.4.3: 16-byte aligned")?;
                Ok(())
            }
            Form::CpAsyncBulk(c) => {
                let space = |s: BulkSpace| match s {
                    BulkSpace::Global => BufferSpace::Global,
                    _ => BufferSpace::Shared,
                };
                let rule = "§9.7.9.25.4.1: 16-byte aligned";
                let size = self.known(t, &ops[2])?;
                if size % 16 != 0 {
                    return Err(MemError::Undefined(format!("size {size} is not a multiple of 16 (§9.7.9.25.4.1)")));
                }
                let (db, doff) = if c.dst == BulkSpace::SharedCluster {
                    self.cluster_address(t, &ops[0], Some(space(c.dst)))?
                } else {
                    self.address(t, &ops[0], Some(space(c.dst)))?
                };
                let (sb, soff) = self.address(t, &ops[1], Some(space(c.src)))?;
                let dst = self.span(db, doff, size, 16, rule)?;
                let src = self.span(sb, soff, size, 16, rule)?;
                let mut extra = 3 + usize::from(c.completion == Completion::Mbarrier);
                let mut ctas = vec![(db / self.nbuf) as u32];
                if c.multicast {
                    ctas = self.cta_mask(t, &ops[extra])?;
                    extra += 1;
                }
                extra += usize::from(c.cache_hint);
                let byte_mask = if c.cp_mask { Some(self.known(t, &ops[extra])?) } else { None };
                let bytes: Vec<Option<Byte>> = self.regions[sb]
                    .read(src.start, size)?
                    .iter()
                    .enumerate()
                    .map(|(k, &b)| match byte_mask {
                        Some(m) if (m >> (k % 16)) & 1 == 0 => None,
                        _ => Some(b),
                    })
                    .collect();
                let object = self.object_copy(sb, src, db, dst)?;
                let bar = match c.completion {
                    Completion::BulkGroup => None,
                    Completion::Mbarrier => Some(self.dst_mbarrier(t, &ops[3], db)?),
                };
                // A multicast is one copy per destination CTA, each at the same offsets.
                for cta in ctas {
                    let region = self.in_cta(db, cta);
                    let signal = match bar {
                        None => Signal::BulkGroup,
                        Some(b) => {
                            let bar = Span { region: self.in_cta(b.region, cta), ..b };
                            self.remote_ready(t, bar)?;
                            Signal::Mbarrier { bar, bytes: size as i64 }
                        }
                    };
                    self.protocol.issue(AsyncOp {
                        thread: t,
                        proxy: Proxy::Async,
                        reads: vec![src],
                        writes: vec![Span { region, ..dst }],
                        reduction: false,
                        signal,
                        effect: match &object {
                            Some(object) => Effect::Object { region, object: object.clone() },
                            None => Effect::Write { region, start: dst.start, bytes: bytes.clone() },
                        },
                    })?;
                }
                Ok(())
            }
            Form::CpReduceAsyncBulk(c) => {
                let size = self.known(t, &ops[2])?;
                if size % 16 != 0 {
                    return Err(MemError::Undefined(format!("size {size} is not a multiple of 16 (§9.7.9.25.4.2)")));
                }
                let rule = "§9.7.9.25.4.2: 16-byte aligned";
                let (db, doff) = self.address(
                    t,
                    &ops[0],
                    Some(if c.dst == BulkSpace::Global { BufferSpace::Global } else { BufferSpace::Shared }),
                )?;
                let (sb, soff) = self.address(t, &ops[1], Some(BufferSpace::Shared))?;
                let dst = self.span(db, doff, size, 16, rule)?;
                let src = self.span(sb, soff, size, 16, rule)?;
                let signal = match c.completion {
                    Completion::BulkGroup => Signal::BulkGroup,
                    Completion::Mbarrier => Signal::Mbarrier { bar: self.bar(t, &ops[3])?, bytes: size as i64 },
                };
                let bytes = self.regions[sb].read(src.start, size)?.to_vec();
                self.protocol.issue(AsyncOp {
                    thread: t,
                    proxy: Proxy::Async,
                    reads: vec![src],
                    writes: vec![dst],
                    reduction: true,
                    signal,
                    effect: Effect::Reduce { region: db, start: dst.start, op: c.redop, ty: c.ty, src: bytes },
                })?;
                Ok(())
            }
            Form::StAsync(st) => {
                if !st.complete_tx || ops.len() < 3 {
                    return Err(MemError::Unsupported("st.async without its [mbar] (the .release line)".into()));
                }
                let (ty, n) = data_shape(form, Role::Src)?;
                let eb = u64::from(ty.bits() / 8).max(1);
                let (buffer, at) = self.cluster_address(t, &ops[0], Some(BufferSpace::Shared))?;
                let dst = self.span(buffer, at, eb * n, eb * n, "§9.7.9.12: naturally aligned")?;
                let mut bytes = Vec::new();
                for o in elements(&ops[1]) {
                    bytes.extend(Self::bytes_of(self.value(t, o)?, eb as usize).into_iter().map(Some));
                }
                let bar = self.dst_mbarrier(t, &ops[2], buffer)?;
                self.remote_ready(t, bar)?;
                self.protocol.issue(AsyncOp {
                    thread: t,
                    proxy: Proxy::Generic,
                    reads: Vec::new(),
                    writes: vec![dst],
                    reduction: false,
                    signal: Signal::Mbarrier { bar, bytes: (eb * n) as i64 },
                    effect: Effect::Write { region: buffer, start: dst.start, bytes },
                })?;
                Ok(())
            }
            f => Err(unsupported(f)),
        }
    }

    /// The CTAs a multicast's `ctaMask` names, in rank order: at least one, each in the cluster
    /// (§9.7.9.25.4.1: "each bit position in the 16-bit ctaMask operand corresponds to the
    /// %ctaid of the destination CTA").
    pub(super) fn cta_mask(&self, t: u32, o: &Operand) -> Result<Vec<u32>, MemError> {
        let mask = self.known(t, o)? & 0xffff;
        let ctas = self.p.cluster.max(1);
        if mask == 0 || mask >> ctas != 0 {
            return Err(MemError::Undefined(format!(
                "ctaMask {mask:#x} names no CTA or a CTA outside the cluster of {ctas} (§9.7.9.25.4.1)"
            )));
        }
        Ok((0..ctas).filter(|c| mask >> c & 1 == 1).collect())
    }
}

impl Machine<'_> {
    /// What a `cp.async.bulk` from `src` (region `sb`) to `dst` (region `db`) copies of a
    /// tensor-map object: `None` when its source holds none; the object, as it is now, when
    /// it copies a whole global object (all 128 bytes from its start) to the start of a
    /// shared buffer, which becomes a tensor-map object in shared memory (§9.7.9.26
    /// `.shared::cta`, §9.7.13.16); an error for any other copy of an object's bytes, whose
    /// encoding the model does not hold.
    fn object_copy(&self, sb: usize, src: Span, db: usize, dst: Span) -> Result<Option<super::MapObject>, MemError> {
        let bytes = crate::memprog::TENSOR_MAP_BYTES as u64;
        let Some(obj) = self.objects.get(&sb).filter(|_| src.start < bytes) else { return Ok(None) };
        let whole = src.start == 0 && src.len == bytes && dst.start == 0;
        if !whole || self.buffer(sb).space != BufferSpace::Global || self.buffer(db).space != BufferSpace::Shared {
            return Err(MemError::Unsupported(format!(
                "a copy of {} bytes at offset {} of a tensor-map object to offset {} of `{}`: the object's encoding is opaque; \
                 copy all {bytes} bytes of a global object to the start of a shared buffer (then tensormap.replace.*.shared::cta and tensormap.cp_fenceproxy)",
                src.len,
                src.start,
                dst.start,
                self.buffer(db).name
            )));
        }
        let object = super::MapObject { acquired: Default::default(), unreleased: Default::default(), ..obj.clone() };
        Ok(Some(object))
    }
}
