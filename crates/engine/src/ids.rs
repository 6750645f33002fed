//! Small typed identifiers.
//!
//! Every index that crosses a module boundary is one of these `u32` newtypes, never a bare
//! `usize`. They are half the size of a `usize` (the arena is index-heavy, so this is cache
//! space), and their checked constructors make overflow a visible error instead of a silent
//! wrap.

use std::fmt;

macro_rules! typed_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        #[repr(transparent)]
        pub struct $name(u32);

        impl $name {
            /// The largest index this id can hold.
            pub const MAX: usize = u32::MAX as usize - 1;

            /// Makes an id from an index, or `None` if the index does not fit.
            #[inline]
            pub const fn new(index: usize) -> Option<Self> {
                if index <= Self::MAX {
                    Some(Self(index as u32))
                } else {
                    None
                }
            }

            /// The index this id stands for.
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// Makes an id from an index known to fit (internal use).
            #[inline]
            #[allow(dead_code, reason = "not every id type is built from raw indices")]
            pub(crate) const fn from_u32(raw: u32) -> Self {
                Self(raw)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!(stringify!($name), "({})"), self.0)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

typed_id! {
    /// An item of a [`Problem`](crate::Problem), numbered in the order items were declared.
    #[doc(alias = "column")]
    ItemId
}

typed_id! {
    /// An option of a [`Problem`](crate::Problem), numbered in the order options were added
    /// (0-based, so it is also the option's line number among the options of a DLX file).
    #[doc(alias = "row")]
    OptionId
}

typed_id! {
    /// A color of a [`Problem`](crate::Problem), numbered in order of first use.
    ColorId
}
