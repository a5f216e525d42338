//! Executable semantics: what each instruction must produce, as an [`Expected`] value that is
//! exact where the spec fixes the result and a set where it leaves freedom. Every freedom is a
//! named [`Allowance`] that can be switched off.

pub mod address;
mod allowance;
pub mod cvt;
pub mod cvt_fast;
pub mod cvt_fast_ir;
pub mod cvt_pack;
pub mod deviation;
mod expected;
pub mod mov;
pub mod operands;
pub mod prmt;
pub mod reduce;
pub mod shfl;

pub use allowance::{Allowance, AllowanceError, Allowances};
pub use deviation::{Deviation, Scope as DeviationScope};
pub use expected::{Constraint, Expected, Free};
