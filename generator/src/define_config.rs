//! One declaration per generator knob, for both generators' configurations (the program
//! generator's [`crate::program::Config`] and the memory-program generator's
//! [`crate::memory::AsyncConfig`]), after wasm-smith's `define_config!`.
//!
//! [`define_config!`] takes a configuration's swarm switches in named groups (each switch with
//! its attributes, default and place in the swarm's draw order, `drawn N`) and its other fields
//! (attributes, type, default), and writes the struct (each field's doc ending with
//! "Defaults to …"), its `Default`, the name tables (`SWITCHES` in declaration order, one
//! associated constant per group) and the by-name accessors `switches`/`switches_mut`. A knob
//! added there is in the struct, the default, the TOML keys, the swarm and the adaptive
//! campaigns' statistics at once.
//!
//! Invariant: the `drawn` ranks of a configuration are a permutation of `0..SWITCHES.len()`
//! (each configuration's tests check it), so a swarm draw reads every switch exactly once and
//! in a fixed order: the order a seed's programs depend on.

/// Declares a configuration struct once (see the module documentation):
///
/// ```text
/// define_config! {
///     /// doc
///     #[derive(...)]
///     pub struct Name {
///         switches {
///             GROUP { /// doc
///                     knob: bool = true, drawn 0; … }
///             …
///         }
///         /// doc
///         field: Type = default;
///         …
///     }
/// }
/// ```
macro_rules! define_config {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            switches {
                $(
                    $(#[$gmeta:meta])*
                    $group:ident {
                        $(
                            $(#[$smeta:meta])*
                            $sw:ident: bool = $sdef:literal, drawn $rank:literal;
                        )*
                    }
                )*
            }
            $(
                $(#[$fmeta:meta])*
                $field:ident: $ty:ty = $def:expr;
            )*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $($(
                $(#[$smeta])*
                #[doc = ""]
                #[doc = concat!("Defaults to `", stringify!($sdef), "`.")]
                pub $sw: bool,
            )*)*
            $(
                $(#[$fmeta])*
                #[doc = ""]
                #[doc = concat!("Defaults to `", stringify!($def), "`.")]
                pub $field: $ty,
            )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $($($sw: $sdef,)*)* $($field: $def,)* }
            }
        }

        impl $name {
            /// The swarm switches by field name, in declaration order.
            pub const SWITCHES: &'static [&'static str] = &[$($(stringify!($sw),)*)*];

            $(
                $(#[$gmeta])*
                pub const $group: &'static [&'static str] = &[$(stringify!($sw)),*];
            )*

            /// Each switch's place (in [`Self::SWITCHES`] order) in the order a swarm draw
            /// draws them.
            pub const DRAWN: &'static [usize] = &[$($($rank,)*)*];

            /// Every switch by name ([`Self::SWITCHES`] order), for reading and writing them
            /// by name.
            pub fn switches_mut(&mut self) -> Vec<(&'static str, &mut bool)> {
                vec![$($((stringify!($sw), &mut self.$sw),)*)*]
            }

            /// Every switch by name and value ([`Self::SWITCHES`] order).
            pub fn switches(&self) -> Vec<(&'static str, bool)> {
                vec![$($((stringify!($sw), self.$sw),)*)*]
            }

            /// The switches that are on, by name ([`Self::SWITCHES`] order).
            pub fn switches_on(&self) -> Vec<&'static str> {
                self.switches().into_iter().filter_map(|(n, on)| on.then_some(n)).collect()
            }
        }
    };
}

pub(crate) use define_config;
