//! An explicit address-space model for `cvta` (§9.7.9.20), `isspacep` (§9.7.9.19), `mapa`
//! (§9.7.9.23), `getctarank` (§9.7.9.24) and address-taking `mov` (§9.7.9.3).
//!
//! The spec fixes *relations*, not numbers:
//! - `cvta.to.X(cvta.X(a)) == a` for every address `a` in space X's window, and
//!   `isspacep.X(cvta.X(a))` is true;
//! - `isspacep.global` is true for kernel parameters ("the .param window is contained within
//!   the .global window"); `isspacep.shared::cluster` is true for every `shared::cta` address;
//! - `cvta.to.X` of a generic address outside X's window is undefined;
//! - `mapa(a, r)` is the address of the same offset in CTA `r`'s shared memory, and
//!   `getctarank(mapa(a, r)) == r`.
//!
//! Where each window lies is the implementation's choice. [`AddressModel`] places them at
//! fixed, documented bases so that generated programs can compute addresses; evaluation of a
//! single instruction on raw bits therefore reports the model's value as one member of a set
//! (allowance `address-window`), while the relations above are exact and tested.

/// A state space with a window in the generic address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// `.global` (generic addresses outside every other window, plus `.param` and `.const`).
    Global,
    /// The executing CTA's `.shared::cta`.
    SharedCta,
    /// `.shared::cluster`: the shared memory of every CTA of the cluster.
    SharedCluster,
    /// `.local`.
    Local,
    /// `.const`.
    Const,
    /// Kernel parameters (`.param::entry`).
    Param,
}

/// The model's placement of the windows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddressModel {
    /// Generic base of CTA rank 0's shared memory; rank `r` follows at `r × shared_size`.
    pub shared_base: u64,
    /// Bytes of shared memory per CTA window.
    pub shared_size: u64,
    /// CTAs per cluster.
    pub cluster_ctas: u32,
    /// The executing CTA's rank in its cluster.
    pub cta_rank: u32,
    /// Generic base and size of `.local`.
    pub local: (u64, u64),
    /// Generic base and size of `.const` (inside the global window).
    pub constant: (u64, u64),
    /// Generic base and size of the kernel parameters (inside the global window).
    pub param: (u64, u64),
}

impl Default for AddressModel {
    fn default() -> Self {
        AddressModel {
            shared_base: 0x0000_7000_0000_0000,
            shared_size: 1 << 24,
            cluster_ctas: 16,
            cta_rank: 0,
            local: (0x0000_7F00_0000_0000, 1 << 24),
            constant: (0x0000_5000_0000_0000, 1 << 20),
            param: (0x0000_4000_0000_0000, 1 << 12),
        }
    }
}

impl AddressModel {
    fn cluster_window(&self) -> (u64, u64) {
        (self.shared_base, self.shared_size * u64::from(self.cluster_ctas))
    }

    fn cta_window(&self, rank: u32) -> (u64, u64) {
        (self.shared_base + u64::from(rank) * self.shared_size, self.shared_size)
    }

    fn window(&self, w: Window) -> Option<(u64, u64)> {
        match w {
            Window::Global => None,
            Window::SharedCta => Some(self.cta_window(self.cta_rank)),
            Window::SharedCluster => Some(self.cluster_window()),
            Window::Local => Some(self.local),
            Window::Const => Some(self.constant),
            Window::Param => Some(self.param),
        }
    }

    fn in_window(g: u64, (base, size): (u64, u64)) -> bool {
        g >= base && g - base < size
    }

    /// `isspacep.X g`.
    pub fn isspacep(&self, w: Window, g: u64) -> bool {
        match w {
            // Everything that is not shared or local is in the global window (const and param
            // windows lie inside it).
            Window::Global => !Self::in_window(g, self.cluster_window()) && !Self::in_window(g, self.local),
            w => self.window(w).is_some_and(|win| Self::in_window(g, win)),
        }
    }

    /// `cvta.X a`: the generic address of `a` in space X (`None` if `a` is outside the window).
    pub fn to_generic(&self, w: Window, a: u64) -> Option<u64> {
        match self.window(w) {
            None => self.isspacep(Window::Global, a).then_some(a),
            Some((base, size)) => (a < size).then_some(base + a),
        }
    }

    /// `cvta.to.X g`: `None` (undefined) when `g` is outside X's window.
    pub fn from_generic(&self, w: Window, g: u64) -> Option<u64> {
        if !self.isspacep(w, g) {
            return None;
        }
        Some(match self.window(w) {
            None => g,
            Some((base, _)) => g - base,
        })
    }

    /// `mapa` of a `.shared::cluster` address to CTA `rank` (`None` if undefined).
    pub fn mapa_cluster(&self, a: u64, rank: u32) -> Option<u64> {
        let (_, size) = self.cluster_window();
        (a < size && rank < self.cluster_ctas).then(|| u64::from(rank) * self.shared_size + a % self.shared_size)
    }

    /// `mapa` of a generic shared address to CTA `rank`.
    pub fn mapa_generic(&self, g: u64, rank: u32) -> Option<u64> {
        let a = self.from_generic(Window::SharedCluster, g)?;
        Some(self.shared_base + self.mapa_cluster(a, rank)?)
    }

    /// `getctarank` of a `.shared::cluster` address.
    pub fn getctarank_cluster(&self, a: u64) -> Option<u32> {
        let (_, size) = self.cluster_window();
        (a < size).then(|| (a / self.shared_size) as u32)
    }

    /// The address `mov.type d, sym+offset` writes: the variable's address *in its own state
    /// space* (§9.7.9.3: "the non-generic address of the variable"), or a function's address.
    /// The model places the probe/program symbols ([`crate::isa::symbol_name`]) at fixed
    /// offsets: every space's first variable at offset 0, functions at `0x100`/`0x200` of a
    /// code window.
    pub fn symbol_address(&self, kind: crate::isa::operand::SymbolKind, offset: i64) -> u64 {
        use crate::isa::operand::SymbolKind;
        let base: u64 = match kind {
            // Global variables have no separate window: their address is a generic one.
            SymbolKind::GlobalVar => 0x0000_1000_0000_0000,
            SymbolKind::SharedVar | SymbolKind::ConstVar | SymbolKind::LocalVar | SymbolKind::ParamVar => 0,
            SymbolKind::Function => 0x0000_2000_0000_0100,
            SymbolKind::Kernel => 0x0000_2000_0000_0200,
        };
        base.wrapping_add(offset as u64)
    }

    /// `getctarank` of a generic shared address.
    pub fn getctarank_generic(&self, g: u64) -> Option<u32> {
        self.getctarank_cluster(self.from_generic(Window::SharedCluster, g)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPACES: [Window; 6] =
        [Window::Global, Window::SharedCta, Window::SharedCluster, Window::Local, Window::Const, Window::Param];

    #[test]
    fn the_relations_the_spec_fixes_hold() {
        let m = AddressModel { cta_rank: 3, ..AddressModel::default() };
        for w in SPACES {
            for a in [0u64, 8, 1000, 4095] {
                let g = m.to_generic(w, a).unwrap_or_else(|| panic!("{w:?} {a:#x}"));
                assert!(m.isspacep(w, g), "isspacep.{w:?}(cvta.{w:?} {a:#x})");
                assert_eq!(m.from_generic(w, g), Some(a), "cvta.to.{w:?}(cvta.{w:?} {a:#x})");
            }
        }
        let param = m.to_generic(Window::Param, 16).unwrap();
        assert!(m.isspacep(Window::Global, param), "the param window is inside the global window");
        let cta = m.to_generic(Window::SharedCta, 64).unwrap();
        assert!(m.isspacep(Window::SharedCluster, cta), "shared::cta addresses are shared::cluster addresses");
        assert!(!m.isspacep(Window::Global, cta) && !m.isspacep(Window::Local, cta));
        assert_eq!(m.from_generic(Window::Local, cta), None, "outside the window: undefined");
        for r in 0..16 {
            let g = m.mapa_generic(cta, r).unwrap();
            assert_eq!(m.getctarank_generic(g), Some(r));
            assert_eq!(m.getctarank_cluster(m.mapa_cluster(64, r).unwrap()), Some(r));
        }
        assert_eq!(m.getctarank_generic(cta), Some(3), "the executing CTA");
    }
}
