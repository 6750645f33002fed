//! Boards packed in one machine word: a few bits per cell.
//!
//! A 15-puzzle position is 16 numbers below 16, so it fits in a `u64` at 4 bits a cell; a
//! 24-puzzle position fits in a `u128` at 5 bits a cell. A packed state is copied, compared
//! and hashed as one or two words, which is what makes 50 million nodes a second possible.
//!
//! A state keeps two packed words:
//! - `cells`: field `i` is the tile on cell `i` (0 for the blank), row-major;
//! - `pos`: field `t` is the cell of tile `t`, and field 0 the cell of the blank.
//!
//! Sliding tile `t` from cell `c` into the blank at cell `b` is four XORs: in `cells`, field
//! `c` goes from `t` to 0 and field `b` from 0 to `t`; in `pos`, field `t` goes from `c` to
//! `b` and field 0 from `b` to `c`. `pos` gives the blank in one shift, and a run of fields
//! of `pos` is the index of a pattern database (see [`super::pdb`]).

use std::fmt::Debug;
use std::hash::Hash;

/// A packed board: fields of [`Word::BITS`] bits.
pub(crate) trait Word: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// Bits per field.
    const BITS: u32;
    /// All fields 0.
    const ZERO: Self;

    /// Field `i`.
    fn get(self, i: usize) -> usize;

    /// The word with `v` XORed into field `i` (`v` must fit in a field).
    fn xor(self, i: usize, v: usize) -> Self;

    /// `count` consecutive fields starting at field `first`, as one number.
    fn fields(self, first: usize, count: usize) -> usize;

    /// A word from its fields.
    fn from_fields(fields: &[u8]) -> Self {
        fields.iter().enumerate().fold(Self::ZERO, |w, (i, &v)| w.xor(i, usize::from(v)))
    }
}

/// `impl Word for $word` at `$bits` bits a field (`$mask` is a field of ones).
macro_rules! impl_word {
    ($word:ty, $bits:literal, $mask:literal) => {
        impl Word for $word {
            const BITS: u32 = $bits;
            const ZERO: Self = 0;

            #[inline(always)]
            fn get(self, i: usize) -> usize {
                ((self >> ($bits * i)) & $mask) as usize
            }

            #[inline(always)]
            fn xor(self, i: usize, v: usize) -> Self {
                self ^ ((v as $word) << ($bits * i))
            }

            #[inline(always)]
            fn fields(self, first: usize, count: usize) -> usize {
                ((self >> ($bits * first)) & ((1 << ($bits * count)) - 1)) as usize
            }
        }
    };
}

impl_word!(u64, 4, 0xf);
impl_word!(u128, 5, 0x1f);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        let v: Vec<u8> = (0..16).rev().collect();
        let w = u64::from_fields(&v);
        for (i, &x) in v.iter().enumerate() {
            assert_eq!(w.get(i), usize::from(x));
        }
        assert_eq!(w.fields(1, 2), 14 | (13 << 4));
        let v: Vec<u8> = (0..25).collect();
        let w = u128::from_fields(&v);
        assert_eq!(w.get(24), 24);
        assert_eq!(w.fields(3, 2), 3 | (4 << 5));
        assert_eq!(w.xor(24, 24).get(24), 0);
    }
}
