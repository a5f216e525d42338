//! `cp.async` (§9.7.9.25.3): a copy of 4, 8 or 16 bytes from global to shared memory (the
//! source read when issued, zero-filled past `src-size` — an immediate or a 32-bit register —,
//! skipped with `ignore-src`; a source that is no buffer address is fine when no byte of it
//! is read), completed
//! by its group (`cp.async.commit_group`, `cp.async.wait_group`, `cp.async.wait_all`) or by
//! `cp.async.mbarrier.arrive`.
//!
//! Invariant: every copy goes through [`crate::memory::Protocol`], which decides when its
//! bytes land.

use super::exec::unsupported;
use super::{Effect, Machine, Val};
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
                let rule = "§9.7.9.25.3.1: aligned to cp-size";
                let dst = self.span(db, doff, size, size, rule)?;
                let read = match c.src {
                    CpAsyncSrc::Full => size,
                    CpAsyncSrc::SrcSize | CpAsyncSrc::SrcSizeReg => {
                        // A register holds a 32-bit integer; an immediate is one.
                        let n = self.known(t, &ops[3])? & u64::from(u32::MAX);
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
                // No source byte is read when `read` is 0 (src-size 0 or ignore-src true): a
                // source that is no buffer address (a null pointer, as predicated tile loads
                // pass) is then fine.
                let src = match self.address(t, &ops[1], Some(BufferSpace::Global)) {
                    Ok((sb, soff)) => Some((sb, Span { len: read, ..self.span(sb, soff, size, size, rule)? })),
                    Err(_) if read == 0 && self.holds_number(t, &ops[1]) => None,
                    Err(e) => return Err(e),
                };
                let mut bytes: Vec<Option<Byte>> = match src {
                    Some((sb, span)) => self.regions[sb].read(span.start, read)?.iter().copied().map(Some).collect(),
                    None => Vec::new(),
                };
                bytes.resize(size as usize, Some(Byte::Known(0)));
                let reads = src.filter(|_| read > 0).map(|(_, span)| span).into_iter().collect();
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

    /// Whether an address operand's base is a register holding a number, not a buffer
    /// address (`[p]` with `p` = 0).
    fn holds_number(&self, t: u32, o: &Operand) -> bool {
        let Operand::Address { base: Some(base), .. } = o else { return false };
        self.buffer_index(base).is_none()
            && self.reg_index(base).is_ok_and(|r| matches!(self.regs[t as usize][r], Val::Bits(_)))
    }
}
