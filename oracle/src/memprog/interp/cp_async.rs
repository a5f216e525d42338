//! `cp.async` (§9.7.9.25.3): a copy of 4, 8 or 16 bytes from global to shared memory (the
//! source read when issued, zero-filled past `src-size`, skipped with `ignore-src`), completed
//! by its group (`cp.async.commit_group`, `cp.async.wait_group`, `cp.async.wait_all`) or by
//! `cp.async.mbarrier.arrive`.
//!
//! Invariant: every copy goes through [`crate::memory::Protocol`], which decides when its
//! bytes land.

use super::exec::unsupported;
use super::{Effect, Machine};
use crate::isa::operand::Operand;
use crate::isa::{CpAsyncSrc, Form};
use crate::memory::{AsyncOp, Byte, Proxy, Signal, Span};
use crate::memprog::{BufferSpace, MemError};

impl Machine<'_> {
    /// `cp.async` and the instructions that complete it.
    pub(super) fn cp_async(&mut self, t: u32, form: &Form, ops: &[Operand]) -> Result<(), MemError> {
        match form {
            Form::CpAsync(c) => {
                let size = c.cp_size.bytes() as u64;
                let (db, doff) = self.address(t, &ops[0], Some(BufferSpace::Shared))?;
                let (sb, soff) = self.address(t, &ops[1], Some(BufferSpace::Global))?;
                let rule = "§9.7.9.25.3.1: aligned to cp-size";
                let dst = self.span(db, doff, size, size, rule)?;
                let read = match c.src {
                    CpAsyncSrc::Full => size,
                    CpAsyncSrc::SrcSize => {
                        let n = self.known(t, &ops[3])?;
                        if n > size {
                            return Err(MemError::Undefined(format!(
                                "src-size {n} exceeds cp-size {size} (§9.7.9.25.3.1)"
                            )));
                        }
                        n
                    }
                    CpAsyncSrc::IgnoreSrc => {
                        if self.known(t, &ops[3])? & 1 == 1 {
                            0
                        } else {
                            size
                        }
                    }
                };
                let src = self.span(sb, soff, size, size, rule)?;
                let src = Span { len: read, ..src };
                let mut bytes: Vec<Option<Byte>> =
                    self.regions[sb].read(src.start, read)?.iter().copied().map(Some).collect();
                bytes.resize(size as usize, Some(Byte::Known(0)));
                let reads = if read > 0 { vec![src] } else { vec![] };
                self.protocol.issue(AsyncOp {
                    thread: t,
                    proxy: Proxy::Generic,
                    reads,
                    writes: vec![dst],
                    reduction: false,
                    signal: Signal::CpAsyncGroup,
                    effect: Effect::Write { region: db, start: dst.start, bytes },
                })?;
                Ok(())
            }
            Form::CpAsyncCommitGroup(_) => {
                self.protocol.commit_group(t, false);
                Ok(())
            }
            Form::CpAsyncWaitGroup(_) => {
                let n = self.known(t, &ops[0])? as usize;
                let e = self.protocol.wait_group(t, false, n, false);
                self.apply(e)
            }
            Form::CpAsyncWaitAll(_) => {
                let e = self.protocol.wait_all(t);
                self.apply(e)
            }
            Form::CpAsyncMbarrierArrive(a) => {
                let bar = self.bar(t, &ops[0])?;
                self.protocol.cp_async_arrive(t, bar, a.noinc)?;
                Ok(())
            }
            f => Err(unsupported(f)),
        }
    }
}
