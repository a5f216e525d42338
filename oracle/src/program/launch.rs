//! The launch of a [`Program`](super::Program): grid, block and cluster dimensions, dynamic
//! shared memory, and the kernel parameters with their PTX types (§5.1.6.1 Kernel Function
//! Parameters, §11.2.1 `.entry`).
//!
//! Everything that reads the launch shape reads it here: the printer ([`super::text`]) takes
//! the `.entry` signature and the names the prologue loads from [`Launch::params`] and the
//! `threads=` of the header from [`Launch::threads`]; the interpreter ([`super::interp`])
//! builds its global memory from the [`Buffer`] parameters and runs [`Launch::threads`]
//! threads.
//!
//! Invariant: the contract every program has today is [`Launch::one_cta`] — one CTA of a
//! one-dimensional block, no cluster, no dynamic shared memory, and the two global pointers
//! `p_in` ([`Buffer::Inputs`]) and `p_out` ([`Buffer::Outputs`]). [`Launch::check_one_cta`]
//! says whether a launch has that shape; the interpreter and the generator's checker reject
//! others, and the case-file header carries only `threads=`, so another launch shape is an
//! addition to those three places.

use std::fmt;

use crate::isa::types::RegType;

/// Three launch dimensions (`x`, `y`, `z`), as CUDA's `dim3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dim3 {
    /// `x`.
    pub x: u32,
    /// `y`.
    pub y: u32,
    /// `z`.
    pub z: u32,
}

impl Dim3 {
    /// `1 × 1 × 1`.
    pub const ONE: Dim3 = Dim3 { x: 1, y: 1, z: 1 };

    /// `x × 1 × 1`.
    pub fn x(x: u32) -> Dim3 {
        Dim3 { x, y: 1, z: 1 }
    }

    /// `x · y · z` (saturating, so an absurd shape cannot wrap to a small one).
    pub fn count(self) -> u32 {
        self.x.saturating_mul(self.y).saturating_mul(self.z)
    }
}

impl fmt::Display for Dim3 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}x{}", self.x, self.y, self.z)
    }
}

/// A global buffer of the program's memory layout (see [`super`]): the launcher allocates it,
/// and a [`ParamValue::Global`] parameter passes its address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Buffer {
    /// The input words, [`Program::inputs`](super::Program::inputs) per thread, thread 0
    /// first; the prologue points `%in` at the thread's words.
    Inputs,
    /// The output words, [`Program::outputs`](super::Program::outputs) per thread, zeroed
    /// before the launch; the prologue points `%out` at the thread's words.
    Outputs,
}

/// The PTX type of a kernel parameter: `.param {.align A} .type name{[len]}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParamType {
    /// The element type (`.u64` for a pointer, `.b8` for an opaque byte array).
    pub element: RegType,
    /// `Some(n)`: an array `name[n]` of elements; `None`: a scalar.
    pub len: Option<u32>,
    /// `Some(a)`: an explicit `.align a`; `None`: the element's natural alignment.
    pub align: Option<u32>,
}

impl ParamType {
    /// A `.u64` scalar: a global pointer.
    pub const POINTER: ParamType = ParamType { element: RegType::U64, len: None, align: None };

    /// Size in bytes.
    pub fn size(&self) -> u32 {
        (self.element.bits() / 8).saturating_mul(self.len.unwrap_or(1))
    }

    /// Alignment in bytes.
    pub fn align(&self) -> u32 {
        self.align.unwrap_or((self.element.bits() / 8).max(1))
    }
}

/// What a kernel parameter holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamValue {
    /// The device address of a global buffer, known once the launcher has allocated it.
    Global(Buffer),
}

/// One kernel parameter.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Param {
    /// Its name in the `.entry` signature (an identifier).
    pub name: String,
    /// Its PTX type.
    pub ty: ParamType,
    /// What it holds.
    pub value: ParamValue,
}

impl Param {
    /// The declaration in the `.entry` signature (`.param .u64 p_in`).
    pub fn declaration(&self) -> String {
        let align = self.ty.align.map(|a| format!(".align {a} ")).unwrap_or_default();
        let len = self.ty.len.map(|n| format!("[{n}]")).unwrap_or_default();
        format!(".param {align}.{} {}{len}", self.ty.element, self.name)
    }

    /// The parameter's bytes as the launch passes them (little endian), given the device
    /// address of each buffer.
    pub fn bytes(&self, address: impl Fn(Buffer) -> u64) -> Vec<u8> {
        match self.value {
            ParamValue::Global(b) => address(b).to_le_bytes().to_vec(),
        }
    }
}

/// How a program is launched.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Launch {
    /// CTAs of the grid.
    pub grid: Dim3,
    /// Threads of a CTA.
    pub block: Dim3,
    /// CTAs of a cluster (`1 × 1 × 1`: no cluster).
    pub cluster: Dim3,
    /// Bytes of dynamic shared memory per CTA.
    pub dynamic_shared: u32,
    /// The kernel parameters, in signature order.
    pub params: Vec<Param>,
}

/// The most shared memory a CTA may have on the targets programs use (sm_90: 227 KiB of
/// static and dynamic shared memory together, CUDA C Programming Guide, Table 21 "Maximum
/// amount of shared memory per thread block").
pub const MAX_SHARED_BYTES: u64 = 227 * 1024;

impl Launch {
    /// Today's contract: one CTA of `threads` threads (`threads × 1 × 1`), no cluster, no
    /// dynamic shared memory, parameters `p_in` ([`Buffer::Inputs`]) and `p_out`
    /// ([`Buffer::Outputs`]), both `.u64` global pointers.
    pub fn one_cta(threads: u32) -> Launch {
        let param = |name: &str, b| Param { name: name.into(), ty: ParamType::POINTER, value: ParamValue::Global(b) };
        Launch {
            grid: Dim3::ONE,
            block: Dim3::x(threads),
            cluster: Dim3::ONE,
            dynamic_shared: 0,
            params: vec![param("p_in", Buffer::Inputs), param("p_out", Buffer::Outputs)],
        }
    }

    /// Threads of one CTA.
    pub fn threads(&self) -> u32 {
        self.block.count()
    }

    /// The parameter that passes `buffer`'s address (the first, if several do).
    pub fn param_of(&self, buffer: Buffer) -> Option<&Param> {
        self.params.iter().find(|p| p.value == ParamValue::Global(buffer))
    }

    /// `Err` (the reason) unless this launch has the shape of [`Launch::one_cta`]: one CTA of
    /// a one-dimensional block, no cluster, no dynamic shared memory, and each [`Buffer`]
    /// passed by exactly one `.u64` parameter (names and order may differ).
    pub fn check_one_cta(&self) -> Result<(), String> {
        if self.grid != Dim3::ONE {
            return Err(format!("a grid of {} CTAs (programs launch one CTA)", self.grid));
        }
        if self.cluster != Dim3::ONE {
            return Err(format!("a cluster of {} CTAs (programs launch without a cluster)", self.cluster));
        }
        if self.block.y != 1 || self.block.z != 1 {
            return Err(format!("a block of {} threads (programs use a one-dimensional block)", self.block));
        }
        if self.dynamic_shared != 0 {
            return Err(format!("{} bytes of dynamic shared memory (programs use none)", self.dynamic_shared));
        }
        for b in [Buffer::Inputs, Buffer::Outputs] {
            let n = self.params.iter().filter(|p| p.value == ParamValue::Global(b)).count();
            if n != 1 {
                return Err(format!("{n} parameters pass the {b:?} buffer (programs pass it once)"));
            }
        }
        if let Some(p) = self.params.iter().find(|p| p.ty != ParamType::POINTER) {
            return Err(format!("parameter `{}` is not a .u64 pointer", p.name));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_launch_is_todays_contract() {
        let l = Launch::one_cta(64);
        assert_eq!(l.threads(), 64);
        assert_eq!(l.check_one_cta(), Ok(()));
        let decls: Vec<String> = l.params.iter().map(Param::declaration).collect();
        assert_eq!(decls, [".param .u64 p_in", ".param .u64 p_out"]);
        assert_eq!(l.param_of(Buffer::Outputs).map(|p| p.name.as_str()), Some("p_out"));
        let addr = |b| if b == Buffer::Inputs { 0x1122_3344_5566_7788 } else { 0 };
        assert_eq!(l.params[0].bytes(addr), [0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11]);
        assert_eq!(ParamType::POINTER.size(), 8);
        assert_eq!(ParamType::POINTER.align(), 8);
    }

    #[test]
    fn other_shapes_are_named_and_rejected() {
        type Edit = fn(&mut Launch);
        let cases: [(Edit, &str); 6] = [
            (|l| l.grid = Dim3::x(2), "grid of 2x1x1"),
            (|l| l.cluster = Dim3 { x: 1, y: 2, z: 1 }, "cluster of 1x2x1"),
            (|l| l.block = Dim3 { x: 32, y: 2, z: 1 }, "block of 32x2x1"),
            (|l| l.dynamic_shared = 16, "16 bytes of dynamic"),
            (|l| l.params.truncate(1), "0 parameters pass the Outputs"),
            (
                |l| l.params[0].ty = ParamType { element: RegType::B8, len: Some(128), align: Some(64) },
                "`p_in` is not a .u64",
            ),
        ];
        for (edit, why) in cases {
            let mut l = Launch::one_cta(32);
            edit(&mut l);
            let e = l.check_one_cta().unwrap_err();
            assert!(e.contains(why), "{e} (expected {why})");
        }
        let tmap = Param {
            name: "tmap".into(),
            ty: ParamType { element: RegType::B8, len: Some(128), align: Some(64) },
            value: ParamValue::Global(Buffer::Inputs),
        };
        assert_eq!(tmap.declaration(), ".param .align 64 .b8 tmap[128]");
        assert_eq!((tmap.ty.size(), tmap.ty.align()), (128, 64));
    }
}
