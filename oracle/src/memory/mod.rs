//! Memory as the program oracle sees it: state spaces as byte-addressed images whose bytes are
//! known or unknown ([`Image`]), and the CTA's shared memory with the barrier epoch of each
//! byte's last store ([`Shared`]); and tensor maps as data: encode rules and the tile layout of
//! tensor copies ([`tensor_map`]).
//!
//! Values go in and come out as [`Expected`](crate::semantics::Expected) of `8 × n` bits for an
//! access of `n` bytes: exact bits where the bytes are known, free fields (with the allowance
//! that made them free) where they are not. Constraints on free fields ("any NaN") survive a
//! store and a load as long as the field lies within one [`GRANULE`]; a field that crosses a
//! granule boundary is kept as "any value" on each side (the granularity of the oracle's
//! memory since its first version; programs move at most 32-bit fields that carry a
//! constraint).
//!
//! Invariants: an image never grows or shrinks after it is made; every access is naturally
//! aligned (to its size, or to a granule when larger) and inside the image, or it is an
//! [`Misaccess`] error, never a panic.

mod image;
mod shared;
pub mod tensor_map;

pub use image::{Image, Misaccess, GRANULE};
pub use shared::Shared;
