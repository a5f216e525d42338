//! Memory as the oracles see it.
//!
//! - The program oracle ([`crate::program`]): state spaces as byte-addressed images whose
//!   bytes are known or unknown ([`Image`]), and the CTA's shared memory with the barrier epoch
//!   of each byte's last store ([`Shared`]).
//! - Memory programs ([`crate::memprog`]): named buffers as plain byte arrays ([`Region`] of
//!   [`Byte`]s), mbarrier objects ([`Mbarrier`]) and the rules of asynchronous copies
//!   ([`Protocol`]: pending operations, completion mechanisms, proxies), and happens-before
//!   between the CTAs of a cluster ([`Order`]: which generic accesses race).
//! - Tensor maps as data: encode rules and the tile layout of tensor copies ([`tensor_map`]).
//!
//! Values go in and come out of an [`Image`] as [`Expected`](crate::semantics::Expected) of
//! `8 × n` bits for an access of `n` bytes: exact bits where the bytes are known, free fields
//! (with the allowance that made them free) where they are not. Constraints on free fields
//! ("any NaN") survive a store and a load as long as the field lies within one [`GRANULE`]; a
//! field that crosses a granule boundary is kept as "any value" on each side (the granularity
//! of the oracle's memory since its first version; programs move at most 32-bit fields that
//! carry a constraint).
//!
//! Invariants: an image or region never grows or shrinks after it is made; every access is
//! inside it (and, for an image, naturally aligned, to its size or to a granule when larger),
//! or it is an error ([`Misaccess`], [`RegionError`]), never a panic.

mod bytes;
mod image;
pub mod mbarrier;
mod occupancy;
pub mod order;
pub mod protocol;
mod shared;
pub mod tensor_map;

pub use bytes::{Byte, Region, RegionError};
pub use image::{Image, Misaccess, GRANULE};
pub use mbarrier::{Mbarrier, MbarrierError};
pub use order::{Order, OrderError};
pub use protocol::{AsyncOp, Protocol, ProtocolError, Proxy, Signal, Span, WaitOn};
pub use shared::Shared;
