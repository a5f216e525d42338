//! What the async-group completion instructions with a single form share:
//! `cp.async.commit_group` (§9.7.9.25.3.2), `cp.async.wait_group` and `cp.async.wait_all`
//! (§9.7.9.25.3.3), and `cp.async.bulk.commit_group` (§9.7.9.25.6.1).

/// Implements [`FormSpec`](crate::isa::FormSpec) for the unit struct `$ty` whose one form is
/// the opcode `$text` (parsed token by token, in order), with the operands `$operands` and the
/// requirement `$req`.
macro_rules! single_form {
    ($ty:ident, $text:literal, $operands:expr, $req:expr) => {
        impl $crate::isa::FormSpec for $ty {
            fn candidates() -> Vec<Self> {
                vec![$ty]
            }

            fn opcode(&self) -> String {
                $text.into()
            }

            fn parse(
                bag: &mut $crate::isa::qualifier::TokenBag<'_>,
                _operands: &[$crate::isa::Operand],
            ) -> Result<Self, $crate::isa::ParseError> {
                for t in $text.split('.').skip(1) {
                    bag.expect(t)?;
                }
                Ok($ty)
            }

            fn operands(&self) -> Vec<$crate::isa::OperandSpec> {
                $operands
            }

            fn check(&self) -> Result<$crate::isa::Requirement, $crate::isa::Illegal> {
                Ok($req)
            }
        }
    };
}

pub(super) use single_form;
