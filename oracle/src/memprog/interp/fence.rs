//! The fences (§9.7.13.4): `fence.proxy.async` (optionally restricted to a state space) goes to
//! [`crate::memory::Protocol`]; `fence.proxy.tensormap::generic` `.release` makes this thread's
//! `tensormap.replace`s releasable and `.acquire [addr], 128` lets its tensormap proxy use the
//! object once every replacement was released.
//!
//! Invariant: the other fences order memory between threads and proxies the model does not
//! distinguish (lockstep threads), so they have no effect here.

use super::Machine;
use crate::isa::operand::Operand;
use crate::memprog::{BufferSpace, MemError};

impl Machine<'_> {
    /// The fences (§9.7.13.4): `fence.proxy.async` orders the generic and async proxies,
    /// `fence.proxy.tensormap::generic` releases and acquires tensor-map objects.
    pub(super) fn fence(&mut self, t: u32, f: &crate::isa::Fence, ops: &[Operand]) -> Result<(), MemError> {
        use crate::isa::{AsyncProxySpace, FenceKind, ProxyKind};
        if let FenceKind::Proxy(ProxyKind::Async(space)) = f.kind {
            let want = space.map(|s| match s {
                AsyncProxySpace::Global => BufferSpace::Global,
                _ => BufferSpace::Shared,
            });
            let regions: Vec<usize> =
                (0..self.regions.len()).filter(|&r| want.is_none_or(|w| self.buffer(r).space == w)).collect();
            self.protocol.fence_proxy_async(t, want.map(|_| regions.as_slice()));
        }
        if f.kind == FenceKind::ProxyTensormap {
            self.fence_tensormap(t, f.sem, ops)?;
        }
        // Other fences order memory between threads and proxies the model does not
        // distinguish (lockstep threads, one CTA): no effect.
        Ok(())
    }

    /// `fence.proxy.tensormap::generic` (§9.7.13.4): `.release` makes this thread's
    /// replacements releasable, `.acquire [addr], 128` lets this thread's tensormap proxy use
    /// the object at `addr` once every replacement of it was released.
    fn fence_tensormap(
        &mut self,
        t: u32,
        sem: Option<crate::isa::types::OrderSem>,
        ops: &[Operand],
    ) -> Result<(), MemError> {
        use crate::isa::types::OrderSem;
        if matches!(sem, Some(OrderSem::Release | OrderSem::AcqRel)) {
            for obj in self.objects.values_mut() {
                obj.unreleased.remove(&t);
            }
        }
        if matches!(sem, Some(OrderSem::Acquire | OrderSem::AcqRel)) {
            let Some(addr) = ops.first() else { return Ok(()) };
            let (region, at) = self.address(t, addr, Some(BufferSpace::Global))?;
            let Some(obj) = self.objects.get_mut(&region).filter(|_| at == 0) else {
                return Err(MemError::Undefined(format!("`{addr}` is not the start of a tensor-map object")));
            };
            // An acquire before every replacement was released acquires nothing; a use without
            // a later acquire is undefined where it happens.
            if obj.unreleased.is_empty() {
                obj.acquired.insert(t);
            }
        }
        Ok(())
    }
}
