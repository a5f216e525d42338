//! Tests of the deviation table: names, classes, forms and evidence of every deviation.

use super::*;

#[test]
fn deviations_name_their_class_forms_and_evidence() {
    let d = Deviation::ReduceAddF32KeepsSubnormals;
    assert_eq!(d.input_class(), "f32-subnormal-add");
    assert!(d.concerns("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32"));
    assert!(d.concerns("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group"));
    assert!(!d.concerns("cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group"));
    assert!(!d.concerns("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32"));
    assert!(!d.concerns("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.f32"));
    for d in Deviation::ALL {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(d.evidence());
        assert!(path.is_file(), "{}", path.display());
        assert_eq!(Deviation::from_name(d.name()), Some(d));
        assert!(
            d.scope() == Scope::Memory || !d.concerns("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32")
        );
    }
    assert_eq!(Deviation::of(Scope::Memory).collect::<Vec<_>>(), vec![Deviation::ReduceAddF32KeepsSubnormals]);
    assert_eq!(Deviation::of(Scope::Program).count(), Deviation::ALL.len() - 1);
}
