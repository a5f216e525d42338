//! 3702-N5 (`prmt-sign-of-a-narrowed-reads-zero`) at a `mov.b16 {c0, c1}, h` byte unpack whose
//! two bytes are not narrowed together (session 47): ptxas 13.0.88 -O3 narrows each byte of the
//! unpack as its own reader, so where byte 1 of the `prmt` names a byte of a by index (a nibble
//! 0–3: no narrowed 2-byte copy, [`narrowed_prmt`](super::fuzz3702_conversions::narrowed_prmt))
//! c0 alone still gets a 1-byte narrowed copy `PRMT R0, RZ, 0xa, R2` (a dropped, the sign of a's
//! byte read from RZ: 0x00, where §9.7.9.7 replicates it) and c1 reads the whole `PRMT`.
//!
//! Evidence (13.0.88 -O3; 13.5 `PRMT R0, R2, 0x777a, RZ`, right): seed 4601's b6ac6d50
//! (corpus/findings/fuzz-h200-4601/trace/T17t2.md: `prmt 0x66a08d3a` of a loaded word, the low
//! half unpacked by `mov.b32 {h0, h1}`, c0 live, c1 dead); its variants `reduced` (0x8d3a),
//! `v2_sel_0x8b3a_orig_sel`, `v1_c1_live` (`PRMT R0, R2, 0x8d3a, R2` for c1 beside
//! `PRMT R7, RZ, 0xa, R2` for c0) and `s47/d1_byte1_index0` (0x8d0a: the same 1-byte copy). Right:
//! c1 alone live (`s47/d2_c1_only_right`: the whole `PRMT`, `SHF.R.U32.HI 8`), an index nibble in
//! byte 0 (`s47/d3_c0_index_right`, 0x8d32: `PRMT R0, R2, 0x7772, RZ`). Where both bytes narrow
//! together the 2-byte rule of `emulate/prmt_narrowed_per_zero_extending_reader.rs` applies (4001's 9e62a918).

use super::j_branch_known_values::observed;
use super::prmt_narrowed_per_zero_extending_reader::narrowed_source;
use crate::program::exec::Machine;
use crate::program::Reg;

/// The byte c0 of the `mov.b16 {c0, c1}, h` unpack being run reads where ptxas narrows it alone:
/// the low byte of the narrowed `prmt` reaching `h` (of thread `t`, holding `word`), as for any
/// 1-byte zero-extending reader; only where c0's value is observed (a dead c0 gets no copy,
/// `s47/d2_c1_only_right`).
pub(super) fn low_byte_narrowed_alone(m: &Machine<'_>, t: u32, h: Reg, c0: Option<Reg>, word: u32) -> Option<u32> {
    c0.filter(|&c| observed(m, m.stmt, c))?;
    narrowed_source(m, t, h, 1, word)
}
