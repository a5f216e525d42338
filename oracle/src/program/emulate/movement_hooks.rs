//! The data-movement hooks of [`super::isa`]: the emulations that apply at a `mov` (pack, unpack,
//! copy), a `cvt.pack`, an `ld` and a `cvt` ptxas makes a free move (a widening it reads as the
//! whole register), each a call of the module of its root cause, in triage order. Each hook gives
//! back `results` (the spec's destinations, or the `cvt` rules' results) changed where its deviation
//! applies.

use super::{
    b64_repack_in_an_arm_loads_new_word_over_old_low, fp8_pair_built_only_in_its_pack, fuzz3701, fuzz3702, fuzz3802,
    high_half_of_max_s32_rejoined_after_an_arm, j_packed_constant, mask_dropped_at_a_pack, merge_c_in_place,
    merge_c_pack_word_read_by_a_forwarded_load, merge_c_widened_byte_half_read_after_pack,
    pack_high_half_read_from_its_half_after_a_guarded_write, prmt_narrowed_at_a_store_forwarded_load,
    prmt_narrowed_per_zero_extending_reader, setp_one_of_f32_set_of_wide_source,
};
use crate::isa::{Cvt, CvtPack, Instruction, Ld, Mov};
use crate::program::exec::Machine;
use crate::program::Reg;
use crate::semantics::Expected;

/// The destinations of the `mov` `inst` (`mv`) being run in thread `t`.
pub(super) fn mov(
    m: &mut Machine<'_>,
    t: u32,
    mv: &Mov,
    inst: &Instruction,
    results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    // 59da91ec's pack of a pair built only there: `emulate/fp8_pair_built_only_in_its_pack.rs`.
    let results = fp8_pair_built_only_in_its_pack::packed(m, t, mv, results);
    let results = fp8_pair_built_only_in_its_pack::copied(m, t, mv, inst, results);
    // d88aeb3a's arm repack: `emulate/b64_repack_in_an_arm_loads_new_word_over_old_low.rs`.
    let results = b64_repack_in_an_arm_loads_new_word_over_old_low::repacked(m, t, mv, inst, results);
    // J's unpacked halves: `emulate/j_packed_constant.rs`.
    let results = j_packed_constant::unpacked(m, t, mv, inst, results);
    // 3702-N3's arm `mov` of an immediate: `emulate/fuzz3702.rs`.
    let results = fuzz3702::mov(m, t, inst, results);
    // G through a `mov.b32` unpack of a zero-extended half (e141eb0d): `emulate/fuzz3802.rs`.
    let results = fuzz3802::unpacked(m, t, mv, inst, results);
    // 3702-N5 at a `mov.b16` byte unpack reader: `emulate/prmt_narrowed_per_zero_extending_reader.rs`.
    let results = prmt_narrowed_per_zero_extending_reader::narrowed_prmt_unpack_reader(m, t, mv, inst, results);
    // bfed5396's high half of a joined 0x7fffffff: `emulate/high_half_of_max_s32_rejoined_after_an_arm.rs`.
    let results = high_half_of_max_s32_rejoined_after_an_arm::unpacked(m, t, mv, inst, results);
    // Its 64-bit constant's word unpacked and packed in an arm that rewrites it (7c4a3f02):
    // `emulate/high_half_of_max_s32_rejoined_after_an_arm/repacked_in_an_arm_rewriting_its_word.rs`.
    let results = high_half_of_max_s32_rejoined_after_an_arm::repacked_in_an_arm_rewriting_its_word::packed(
        m, t, mv, inst, results,
    );
    let results = mask_dropped_at_a_pack::packed(m, t, mv, inst, results);
    // 63f83d6e: `emulate/pack_high_half_read_from_its_half_after_a_guarded_write.rs`.
    let results = pack_high_half_read_from_its_half_after_a_guarded_write::unpacked(m, t, mv, inst, results);
    // 3e520b16 (63f83d6e mirrored: the arm rewrites the word, h's register takes the element):
    // `emulate/pack_high_half_read_from_its_half_after_a_guarded_write/word_rewritten_in_an_arm.rs`.
    let results = pack_high_half_read_from_its_half_after_a_guarded_write::word_rewritten_in_an_arm::unpacked(
        m, t, mv, inst, results,
    );
    // 5636968d: a copy of 6a4d050b's folded set in the arm its compare with 1 pins:
    // `emulate/setp_one_of_f32_set_of_wide_source/arm_copy_reads_the_pinned_one.rs`.
    let results = setp_one_of_f32_set_of_wide_source::arm_copy_reads_the_pinned_one::copied(m, t, mv, inst, results);
    // 3701-N-D's pack built in place: `emulate/merge_c_in_place.rs`.
    merge_c_in_place::isa(m, t, mv, inst, results)
}

/// The destinations of the `cvt.pack` `inst` (`p`) being run in thread `t`: 3701-N-A's `cvt.pack`
/// of `.u32` float conversions (`emulate/fuzz3701.rs`), J's narrowed `c`
/// (`emulate/j_packed_constant.rs`).
pub(super) fn cvt_pack(
    m: &mut Machine<'_>,
    t: u32,
    p: &CvtPack,
    inst: &Instruction,
    results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let results = fuzz3701::pack(m, t, p, inst, results);
    // 3802 T5A-1's `cvt.pack` of a constant NaN's conversion: `emulate/fuzz3802.rs`.
    let results = fuzz3802::pack(m, t, p, inst, results);
    j_packed_constant::pack_c(m, t, p, inst, results)
}

/// The destinations of the `ld` `inst` (`l`) being run in thread `t`: loads ptxas forwards from a
/// store (`emulate/store_forwarded_load.rs`): 3702-N5's narrowed prmt, 3701-N-D's pack word and
/// its pack store's halves.
pub(super) fn ld(
    m: &mut Machine<'_>,
    t: u32,
    l: &Ld,
    inst: &Instruction,
    results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    let results = prmt_narrowed_at_a_store_forwarded_load::loaded(m, t, l, results);
    let results = merge_c_pack_word_read_by_a_forwarded_load::loaded(m, t, l, inst, results);
    merge_c_pack_word_read_by_a_forwarded_load::loaded_from_the_pack_store(m, t, inst, results)
}

/// The destinations of the `cvt` `inst` (`c`) being run in thread `t`, after `emulate.rs`'s `cvt`
/// rules (`results`): 3701-N-D's widening of a byte half after the pack merged the pair into its
/// register (`emulate/merge_c_widened_byte_half_read_after_pack.rs`).
pub(super) fn cvt(
    m: &mut Machine<'_>,
    t: u32,
    c: Cvt,
    inst: &Instruction,
    results: Vec<(Reg, Expected)>,
) -> Vec<(Reg, Expected)> {
    merge_c_widened_byte_half_read_after_pack::widened_after_pack(m, t, c, inst, results)
}
