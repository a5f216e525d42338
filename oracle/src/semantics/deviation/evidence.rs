//! Where each [`Deviation`]'s evidence is written up (a finding's write-up or case, relative to
//! the repository): one path per deviation, kept apart from the list of deviations it documents.

use super::Deviation;

impl Deviation {
    /// The finding's write-up, relative to the repository.
    pub fn evidence(self) -> &'static str {
        match self {
            Deviation::ReduceAddF32KeepsSubnormals => "corpus/findings/reduce-add-f32-subnormals.md",
            Deviation::NarrowStoreOfFloatCvt
            | Deviation::F32ShiftAmount
            | Deviation::Tf32OfPackedHalf
            | Deviation::Bf16ReadAsF16
            | Deviation::NegationOverflow
            | Deviation::ShrS16By16ReadsSource => "corpus/findings/fuzz-h200/README.md",
            Deviation::DirectedRoundingFoldedIntoInt | Deviation::BranchConstantHighHalfIsItsLowHalf => {
                "corpus/findings/fuzz-h100/README.md"
            }
            Deviation::AddU16x2OfConstantsNarrowedDropsOne => "corpus/findings/fuzz-h100-b/README.md",
            Deviation::CvtS64U32SignExtends | Deviation::F16MaskDropped | Deviation::CvtU8S8OfF16Dropped => {
                "corpus/findings/fuzz-h100-b/README.md"
            }
            Deviation::BfeS32PastMsbAllOnes
            | Deviation::UnsignedBelowZeroOfSet
            | Deviation::SkippedSetSignExtends
            | Deviation::U8ExtensionOfE4m3x2Dropped => "corpus/findings/fuzz-h200-3201/README.md",
            Deviation::Shift16ImmediateLowHalf
            | Deviation::SubCcOfAbsZeroBorrows
            | Deviation::SetRoundTripFolded
            | Deviation::FloatSatOfIntSatDropped
            | Deviation::SatCvtOfByteBfeSigned => "corpus/findings/fuzz-h200-3301/README.md",
            Deviation::SlctS32ByMinImmediateSelectsA
            | Deviation::ShlChainFoldedIntoLea
            | Deviation::CnotOfSetCvtConvertedAsNumber => "corpus/findings/fuzz-h200-3501/README.md",
            Deviation::SubCcOfMulHiZeroBorrows
            | Deviation::IntSatOfNanCvtFolded
            | Deviation::Shift16ByCnotAmountUnwritten => "corpus/findings/fuzz-h200-3601/README.md",
            Deviation::XorOfBranchConstantDropsInversion
            | Deviation::NegOfSetF32HalvesReadAsBoolean
            | Deviation::SubcOfBranchConstantAddsIt
            | Deviation::S8RoundTripThrough64SignExtends32
            | Deviation::ShrS16ByU32CvtConvertsAsS16
            | Deviation::WidenedSetF32ComparedWithZeroIs0Or1
            | Deviation::UnsignedLoopExitTestCountedSigned => "corpus/findings/fuzz-h200-3602/README.md",
            // The stored case of each (corpus/findings/fuzz-h200-3701/; traces in `trace/`).
            Deviation::PackOfU32CvtFusedSigned => "corpus/findings/fuzz-h200-3701/cases/212b09c9a466937a.case",
            Deviation::BfiConstantLengthTakenMod32 => "corpus/findings/fuzz-h200-3701/cases/ca3fc161df899800.case",
            Deviation::ShlB64OfProductByConstantDropped => "corpus/findings/fuzz-h200-3701/cases/e50cc840f5b34706.case",
            Deviation::XorOfSetAndCnotGivesOneMinus => "corpus/findings/fuzz-h200-3701/cases/fc9c9c660991f847.case",
            Deviation::SetpEqOneOfSetTestsTheSet => "corpus/findings/fuzz-h200-3701/cases/5087e596f80fc658.case",
            Deviation::ShrS16ByCnotClampFolded => "corpus/findings/fuzz-h200-3701/cases/6b7f302ea9796aca.case",
            Deviation::CvtOfSetF32ConvertsOneBesideXorOfSet => {
                "corpus/findings/fuzz-h200-3701/cases/2dfe7c1c9f047a8e.case"
            }
            Deviation::SetpEqOfMinMaxReadsSelection => "corpus/findings/fuzz-h200-3702/cases/e1ce17448c056bed.case",
            Deviation::JoinOfMinusOneAndOneF32Merged => "corpus/findings/fuzz-h200-3702/cases/2a151aca6dac3941.case",
            Deviation::Lop3MergedIntoXorReadsX => "corpus/findings/fuzz-h200-3702/cases/2a3b3599610a90e8.case",
            Deviation::ByteOfVectorLoadU32CvtConvertsSigned => {
                "corpus/findings/fuzz-h200-3702/cases/30858a36ffb13dd0.case"
            }
            Deviation::PrmtSignOfANarrowedReadsZero => "corpus/findings/fuzz-h200-3702/cases/5bf2de8255287b52.case",
            Deviation::Shift16ByFtzU32CvtFlushDropped => "corpus/findings/fuzz-h200-3702/cases/3c1be158b0c0b503.case",
            Deviation::IntSatS16OfU32CvtFoldedSigned => "corpus/findings/fuzz-h200-3702/cases/f25dd895f01f0b1c.case",
            Deviation::MergeCInPlaceDestroysLiveHalf => "corpus/findings/fuzz-h200-3701/cases/c8681b2201eb593d.case",
            Deviation::SubOfShuffledImmediateReversedInMinMax => {
                "corpus/findings/fuzz-h200-3801/cases/06fd6dd5e80f0a74.case"
            }
            Deviation::PackOfNanCvtAndConstantDropped => "corpus/findings/fuzz-h200-3802/cases/f7406f82ecd46f4c.case",
            Deviation::Fp8UnpackOfZeroExtendedTopHalfImmediate => {
                "corpus/findings/fuzz-h200-3802/cases/6e4d6e419514ba1b.case"
            }
            Deviation::ZeroExtendedHighHalfReadAsTheValue => {
                "corpus/findings/fuzz-h200-3802/cases/e141eb0df1ec08cc.case"
            }
            Deviation::AddOfCnotFunnelShiftNegatedInLeaHi => {
                "corpus/findings/fuzz-h200-3903/cases/4483ae7220fc70a6.case"
            }
            Deviation::BitwiseOfCnotHalfCvtFoldedAsNumber => {
                "corpus/findings/fuzz-h200-3902/cases/fc25f5c686095211.case"
            }
            Deviation::ShlB64OfTwoConstantSelectMasked => "corpus/findings/fuzz-h200-4003/cases/0c35d33430f0d5f2.case",
            Deviation::JoinedMaxS32HighHalfReadAsAllOnes => {
                "corpus/findings/fuzz-h200-4103/cases/bfed5396d025f6f7.case"
            }
            Deviation::XorOfSetMaskHalvesTestedOverMergedHalf => {
                "corpus/findings/fuzz-h200-4101/cases/1e6e819c8fc9b5ae.case"
            }
            Deviation::SatCvtPairReadsGuardedOverwrite => "corpus/findings/fuzz-h200-3801/cases/04f2039afc4e7b7f.case",
            Deviation::SetpOneOfF32SetOfWideSourceTestsTheSet => {
                "corpus/findings/fuzz-h200-4203/cases/6a4d050b73ba971c.case"
            }
            Deviation::MulHiByOneOfLoadedHalfReadAsLowHalf => {
                "corpus/findings/fuzz-h200-4601/cases/1a937110475dd07b.case"
            }
            Deviation::U32RoundTripFoldedIntoLastConversion => {
                "corpus/findings/fuzz-h200-4503/cases/80274cbbbbabddb3.case"
            }
            Deviation::FtzCopiesDropF2iTruncation => "corpus/findings/fuzz-h200-4401/cases/0c8cc6d5154ea393.case",
            Deviation::SatS8S16OfCnotClampsNegatedMask => "corpus/findings/fuzz-h200-4402/cases/ba4f6f03a455cd8f.case",
            Deviation::LoopCarriedNegationOfMaxS32HeldInvariant => {
                "corpus/findings/fuzz-h200-4201/cases/17b3216231ef1f7e.case"
            }
            Deviation::ShuffleOfBflyPredicateChoiceDropped => {
                "corpus/findings/fuzz-h200-4601/cases/746b5bde532e9185.case"
            }
            Deviation::ZeroExtensionOfConvertedHalfDroppedAtPackedMinMax => {
                "corpus/findings/fuzz-h200-4701/cases/119d98cf8f03c408.case"
            }
            Deviation::CompareOfLoadedHalfAboveFp8PairOverStaleUpperHalf => {
                "corpus/findings/fuzz-h200-4501/cases/ace805b3ed891081.case"
            }
            Deviation::MadHiChainLosesRepeatedLinks => "corpus/findings/fuzz-h200-3801/cases/3a0d32f50f45c5e7.case",
            Deviation::MinS32OfMaxU32ByZeroFoldedToZero => "corpus/findings/fuzz-h200-4703/cases/c80aa91287a5c90c.case",
            Deviation::BfindOf64BranchFixedValueFoldedFromLowWord => {
                "corpus/findings/fuzz-h200-4602/cases/592cbe0bf873e2a1.case"
            }
            Deviation::MultiplierChainFoldedToItsLowWord => {
                "corpus/findings/fuzz-h200-4202/cases/d438d526442e0449.case"
            }
            Deviation::ChainedShrS32OfKnownOnesFoldedToZero => {
                "corpus/findings/fuzz-h200-4203/cases/1c2ac9432411b8a7.case"
            }
            Deviation::ArmSatF64LowWordClampedByZeroTest => {
                "corpus/findings/fuzz-h200-5003/cases/2b9b7b3e2baf0afd.case"
            }
            Deviation::Fp8PairBuiltOnlyInItsPack => "corpus/findings/fuzz-h200-4802/cases/59da91eced62a91c.case",
            Deviation::NegationOfMaxS32EvaluatedInAnArmDropped => {
                "corpus/findings/fuzz-h200-5001/cases/63aaaadcd4d4959a.case"
            }
            Deviation::CarryOfKnownZeroShlAndConstantSet => {
                "corpus/findings/fuzz-h200-5001/cases/c6d3ed97579aedd4.case"
            }
            Deviation::NegationInsideFusedMinMaxReadAsItsSource => {
                "corpus/findings/fuzz-h200-4803/cases/df7cd5e3b361248f.case"
            }
            Deviation::NegatedCarryOpFoldedKeepsItsCarryInAdded => {
                "corpus/findings/fuzz-h200-4803/cases/eb1853bf3f0bb8a4.case"
            }
            Deviation::F2iOfHalfBitsFusedWithFloatSource => {
                "corpus/findings/fuzz-h200-4203/cases/4b68821edd3420e7.case"
            }
            Deviation::B64RepackInAnArmLoadsNewWordOverOldLow => {
                "corpus/findings/fuzz-h200-5103/cases/d88aeb3af40acb01.case"
            }
            Deviation::PackHighHalfReadFromItsHalfAfterAGuardedWrite => {
                "corpus/findings/fuzz-h200-5402/cases/63f83d6e37afba17.case"
            }
            Deviation::PrmtByteNarrowedPastAGuardedWriteOfItsSource => {
                "corpus/findings/fuzz-h200-5403/cases/7a05c9050ed6a314.case"
            }
            Deviation::NegatedAbsS64BelowEveryNegativeConstant => {
                "corpus/findings/fuzz-h200-5403/cases/b33158de65035c43.case"
            }
        }
    }
}
