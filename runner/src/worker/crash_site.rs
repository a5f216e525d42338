//! Where a worker faulted: a handler of the fault signals (`SIGSEGV`, `SIGBUS`, `SIGILL`,
//! `SIGFPE`) that tells the supervisor, before the process dies, the signal and the faulting
//! instruction as a module and an offset in it (`libnvidia-ptxjitcompiler.so.580.159.04+0x4f2a10`),
//! as a [`Reply::CrashSite`](super::protocol::Reply::CrashSite) line on stdout.
//!
//! Why: a crash finding's signature had `how = "worker crash"` whatever crashed, and its form is
//! the program's last instruction, so a known entry could name a crash of the driver's JIT only
//! by the keys of the programs seen (root cause T5A-1's JIT crash came back under a new key in
//! sessions 45 and 46). The faulting site is what syzkaller de-duplicates by: the same
//! instruction of the same library build faulting is the same bug, whatever program led there.
//! The supervisor puts the site into the crash's `how` (`worker crash at SIGSEGV in …`), so
//! crash keys only get finer; an entry can name a site by a glob over `how`.
//!
//! A fault in the C library (`memcpy`, `strlen`: leaf functions handed a bad pointer) names its
//! caller instead, through the return address the leaf's caller left: every JIT crash of seeds
//! 3802, 4202, 4501, 4603 and 4702 faulted at one instruction of libc (`libc.so.6+0x1a1efa` on
//! the H200 host, driver 580.159.04), whatever root cause led there.
//!
//! Invariants: installed once per process, after the GPU is opened (the driver may install
//! handlers of its own as it starts); the handler runs on its own stack (a stack overflow is
//! reported too), does only what a signal handler may — `alarm` (so that a handler stuck in
//! `dladdr`, which takes the loader's lock, is ended by `SIGALRM` within 2 s), `dladdr` (the
//! module, not strictly async-signal-safe: hence the alarm), formatting into a buffer on its
//! stack, one `write` to fd 1 — and then raises the signal again with its default action
//! restored, so the process dies of the same signal as without it. `SIGABRT` is not handled:
//! its site is always `raise` in libc, which would name every abort alike. The module is the
//! file name of the shared object (no directory); an address no object holds is `?` with the
//! absolute address.

use std::sync::Once;

/// The signals whose site is reported.
const SIGNALS: [libc::c_int; 4] = [libc::SIGSEGV, libc::SIGBUS, libc::SIGILL, libc::SIGFPE];

/// The size of the handler's own stack.
const ALT_STACK: usize = 64 * 1024;

static INSTALL: Once = Once::new();

/// Installs the handler for this process (once; later calls do nothing).
pub fn install() {
    INSTALL.call_once(|| {
        let stack: &'static mut [u8] = Box::leak(vec![0u8; ALT_STACK].into_boxed_slice());
        // SAFETY: the alternate stack lives as long as the process (leaked); the `sigaction`
        // structure is fully initialized (zeroed, then the handler, flags and an empty mask).
        unsafe {
            let ss = libc::stack_t { ss_sp: stack.as_mut_ptr().cast(), ss_flags: 0, ss_size: ALT_STACK };
            libc::sigaltstack(&ss, std::ptr::null_mut());
            for s in SIGNALS {
                let mut sa: libc::sigaction = std::mem::zeroed();
                sa.sa_sigaction = handler as extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void)
                    as libc::sighandler_t;
                sa.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK | libc::SA_RESETHAND;
                libc::sigemptyset(&mut sa.sa_mask);
                libc::sigaction(s, &sa, std::ptr::null_mut());
            }
        }
    });
}

/// The name of a fault signal as a crash's `how` ([`super::protocol::Failure::Crash`]) writes it.
pub fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        _ => "signal",
    }
}

/// The faulting instruction's address and the return address a leaf function's caller left
/// (x86-64: the word at the stack pointer; aarch64: the link register), in the signal's context.
///
/// # Safety
/// `ctx` is the `ucontext_t` the kernel passed to an `SA_SIGINFO` handler.
unsafe fn pc_and_return_of(ctx: *mut libc::c_void) -> (usize, usize) {
    if ctx.is_null() {
        return (0, 0);
    }
    let uc = ctx as *const libc::ucontext_t;
    #[cfg(target_arch = "x86_64")]
    {
        let regs = &(*uc).uc_mcontext.gregs;
        let sp = regs[libc::REG_RSP as usize] as usize;
        // A libc string function is a leaf: at its fault the stack pointer holds the return
        // address (the stack is mapped where the thread runs).
        let ret = if sp != 0 && sp.is_multiple_of(8) { *(sp as *const usize) } else { 0 };
        (regs[libc::REG_RIP as usize] as usize, ret)
    }
    #[cfg(target_arch = "aarch64")]
    {
        ((*uc).uc_mcontext.pc as usize, (*uc).uc_mcontext.regs[30] as usize)
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let _ = uc;
        (0, 0)
    }
}

/// The module (file name) holding `addr` and the offset in it, `None` where no object does.
///
/// # Safety
/// Calls `dladdr` (see the module docs).
unsafe fn module_of(addr: usize) -> Option<(&'static [u8], u64)> {
    let mut info: libc::Dl_info = std::mem::zeroed();
    if addr == 0 || libc::dladdr(addr as *const libc::c_void, &mut info) == 0 || info.dli_fname.is_null() {
        return None;
    }
    let path = std::ffi::CStr::from_ptr(info.dli_fname).to_bytes();
    let name = path.rsplit(|&b| b == b'/').next().unwrap_or(path);
    Some((name, addr.wrapping_sub(info.dli_fbase as usize) as u64))
}

/// Whether the faulting module is the C library, whose string and memory functions are where
/// a caller's bad pointer faults: the site is then the caller's.
fn is_libc(module: &[u8]) -> bool {
    module.starts_with(b"libc.so") || module.starts_with(b"libc-")
}

/// A line written into a fixed buffer, without allocating.
struct Line {
    buf: [u8; 512],
    len: usize,
}

impl Line {
    fn push(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.len < self.buf.len() {
                self.buf[self.len] = b;
                self.len += 1;
            }
        }
    }

    fn push_u64(&mut self, mut v: u64) {
        let mut digits = [0u8; 20];
        let mut n = 0;
        loop {
            digits[n] = b'0' + (v % 10) as u8;
            n += 1;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        for k in (0..n).rev() {
            self.push(&[digits[k]]);
        }
    }
}

/// The line the handler writes: `{"CrashSite":{"signal":S,"module":"M","offset":O}}` on a line
/// of its own (`module` keeps only characters a JSON string needs no escape for).
fn site_line(signal: i32, module: &[u8], offset: u64) -> Line {
    let mut line = Line { buf: [0; 512], len: 0 };
    line.push(b"\n{\"CrashSite\":{\"signal\":");
    line.push_u64(u64::try_from(signal).unwrap_or(0));
    line.push(b",\"module\":\"");
    for &b in module.iter().take(200) {
        if b.is_ascii_graphic() && b != b'"' && b != b'\\' {
            line.push(&[b]);
        }
    }
    line.push(b"\",\"offset\":");
    line.push_u64(offset);
    line.push(b"}}\n");
    line
}

extern "C" fn handler(signal: libc::c_int, _info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
    // SAFETY: only calls a signal handler may make (see the module docs; `dladdr` bounded by
    // the alarm), on pointers the kernel and the loader gave.
    unsafe {
        libc::alarm(2);
        let (pc, ret) = pc_and_return_of(ctx);
        let (module, offset) = match module_of(pc) {
            // In libc: the caller's site, where the return address lies in another object.
            Some((m, _)) if is_libc(m) => match module_of(ret) {
                Some((caller, at)) if !is_libc(caller) => (caller, at),
                _ => (m, module_of(pc).map_or(0, |x| x.1)),
            },
            Some(site) => site,
            None => (&b"?"[..], pc as u64),
        };
        let line = site_line(signal, module, offset);
        libc::write(1, line.buf.as_ptr().cast(), line.len);
        // The default action is back (SA_RESETHAND): the process dies of this signal.
        libc::raise(signal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worker::protocol::Reply;

    #[test]
    fn the_site_line_is_a_reply_the_supervisor_reads() {
        let line = site_line(libc::SIGSEGV, b"libnvidia-ptxjitcompiler.so.580.159.04", 0x4f2a10);
        let text = std::str::from_utf8(&line.buf[..line.len]).unwrap();
        assert!(text.starts_with('\n') && text.ends_with('\n'), "{text:?}");
        match serde_json::from_str::<Reply>(text.trim()).unwrap() {
            Reply::CrashSite { signal, module, offset } => {
                assert_eq!((signal, module.as_str(), offset), (11, "libnvidia-ptxjitcompiler.so.580.159.04", 0x4f2a10))
            }
            other => panic!("{other:?}"),
        }
        // A name with quotes or control characters cannot break the line.
        let odd = site_line(libc::SIGBUS, b"a\"b\\c\nd", 0);
        let text = std::str::from_utf8(&odd.buf[..odd.len]).unwrap();
        assert!(
            matches!(serde_json::from_str::<Reply>(text.trim()), Ok(Reply::CrashSite { ref module, .. }) if module == "abcd")
        );
        assert_eq!(signal_name(libc::SIGSEGV), "SIGSEGV");
    }
}
