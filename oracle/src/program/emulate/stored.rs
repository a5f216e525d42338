//! The store hook of the register-program emulations ([`stored`], called by the interpreter
//! for every `st` while a program deviation is emulated): A's narrow store of a float `cvt`'s
//! register, 3301-N3's fold of that store's conversion with a float `cvt` of a set
//! (`emulate/set_byte_through_float_cvt_at_byte_store.rs`), M's dropped mask on the low half of a 16-bit vector store, and 3701-N-D's pack
//! built in place (`emulate/merge_c_in_place.rs`). Like every hook it changes only the values
//! the store writes, and only where the deviation's evidence names the producer.

use super::merge_c_in_place;
use super::origin::unmasked;
use super::set_byte_through_float_cvt_at_byte_store;
use super::set_f32_boolean_converted_at_a_byte_store;
use super::values::{anything, convert, cvt_form, float_dtype};
use crate::isa::operand::Operand;
use crate::isa::types::MemType;
use crate::isa::St;
use crate::program::exec::Machine;
use crate::semantics::{Deviation, Expected};

/// The values an 8-bit store writes for its element operands `elems` (whose spec values are
/// `values`) under the emulated deviations: A makes every element any byte when a float `cvt`
/// wrote one of them (a vector store converts each element, `F2I.U8.F16` per element). The byte
/// each names is the truncating conversion of its register read as `.f16`/`.f32` when a float
/// `cvt` wrote it (what -O0's `F2I.U8.F16.TRUNC` stores), its spec byte otherwise. A 16-bit
/// vector store that is 3701-N-D's pack built in place changes its later elements and the
/// registers of its live half (`emulate/merge_c_in_place.rs`).
pub(in crate::program) fn stored(
    m: &mut Machine<'_>,
    t: u32,
    st: &St,
    elems: &[&Operand],
    values: Vec<Expected>,
) -> Vec<Expected> {
    let mut values = merge_c_in_place::stored(m, t, st, values);
    // M: each even element of a `.v2`/`.v4` 16-bit store is the low half of a 32-bit word ptxas
    // packs (`PRMT R0, R0, 0x5410, RZ; PRMT R3, R0, 0x5410, R6`): its mask is dropped
    // (corpus/findings/fuzz-h200-4002/, e31f01ee, trace/T7C.md: element 0 of `st.v4.b16`).
    let halves = elems.len() >= 2 && matches!(st.ty, MemType::B16 | MemType::U16 | MemType::S16);
    for k in (0..elems.len()).step_by(2).filter(|_| halves) {
        if let (Some(v), Some(from)) = (unmasked(m, t, elems[k]), values.get(k).cloned()) {
            values[k] = m.fire(Deviation::F16MaskDropped, &from, v.field(0, 16));
        }
    }
    let narrow = matches!(st.ty, MemType::B8 | MemType::U8 | MemType::S8);
    let from_float = |m: &Machine<'_>, o: &Operand| {
        m.cvt_producer(t, Some(o)).is_some_and(|(c0, _)| float_dtype(c0.dtype))
            || m.reg_of(o).ok().and_then(|r| m.origins.get(t as usize)?.get(&r)).is_some_and(|o| o.float_merged)
    };
    // 3301-N3 with A's implicit conversion as the integer step: the byte of a float `cvt` of a
    // set is the set's own byte (`emulate/set_byte_through_float_cvt_at_byte_store.rs`).
    if m.allow.emulates(Deviation::SetRoundTripFolded) && narrow {
        for (k, o) in elems.iter().enumerate() {
            if let (Some(b), Some(from)) =
                (set_byte_through_float_cvt_at_byte_store::set_byte(m, t, o), values.get(k).cloned())
            {
                values[k] = m.fire(Deviation::SetRoundTripFolded, &from, b);
            }
        }
    }
    // C1-N2 with A's implicit conversion folded: the byte of a float `cvt` of a set.f32 is the
    // set's boolean (`emulate/set_f32_boolean_converted_at_a_byte_store.rs`).
    if m.allow.emulates(Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet) && narrow {
        for (k, o) in elems.iter().enumerate() {
            if let (Some(b), Some(from)) =
                (set_f32_boolean_converted_at_a_byte_store::boolean_byte(m, t, o), values.get(k).cloned())
            {
                values[k] = m.fire(Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet, &from, b);
            }
        }
    }
    if !m.allow.emulates(Deviation::NarrowStoreOfFloatCvt) || !narrow || !elems.iter().any(|o| from_float(m, o)) {
        return values;
    }
    let int = if st.ty == MemType::S8 { "s8" } else { "u8" };
    let mut out = Vec::with_capacity(values.len());
    for (o, v) in elems.iter().zip(values) {
        let named = m.reg_of(o).ok().filter(|_| from_float(m, o)).and_then(|reg| {
            let value = m.read(t, reg).ok().filter(Expected::is_exact)?;
            let bits = reg.class().bits();
            let f = match bits {
                16 => cvt_form(&format!("cvt.rzi.{int}.f16")),
                32 => cvt_form(&format!("cvt.rzi.{int}.f32")),
                _ => None,
            }?;
            convert(m, &f, value.bits & ((1u128 << bits) - 1))
        });
        let byte = named.map_or_else(|| v.clone(), |n| n.field(0, 8));
        out.push(m.fire(Deviation::NarrowStoreOfFloatCvt, &v, anything(byte)));
    }
    out
}
