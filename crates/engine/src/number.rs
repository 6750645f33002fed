//! Exact counts of any size: `u128` while they fit, a big integer past that.
//!
//! A memoised count adds whole subtrees at once, so it reaches numbers that no enumeration
//! could: the domino tilings of a 20 x 20 board number about 1.27 x 10^48, past
//! `u128::MAX` (about 3.4 x 10^38). [`Count`] keeps the common case as fast as plain `u128`
//! arithmetic (an addition that does not overflow is one `checked_add`) and moves to an
//! arbitrary-precision integer (`num_bigint::BigUint`) only when a sum passes `u128::MAX`.
//!
//! # Invariant
//!
//! - **(C1)** A `Count` is `Big` only when its value exceeds `u128::MAX`: every value has
//!   exactly one representation, so the derived equality and hash are those of the numbers.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

pub use num_bigint::BigUint;

/// An exact natural number: a count of solutions, nodes or tilings that never wraps.
///
/// ```
/// use dancecard_engine::Count;
///
/// let mut n = Count::from(u128::MAX);
/// n += &Count::from(2u128);
/// assert_eq!(n.to_string(), "340282366920938463463374607431768211457");
/// assert_eq!(n.to_u128(), None);
/// assert!(n > Count::from(u128::MAX));
/// assert_eq!("340282366920938463463374607431768211457".parse::<Count>(), Ok(n));
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Count(Repr);

#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    /// Every value up to `u128::MAX`.
    Small(u128),
    /// Values past `u128::MAX` only (C1).
    Big(Box<BigUint>),
}

impl Count {
    /// Zero.
    pub const ZERO: Count = Count(Repr::Small(0));

    /// One.
    pub const ONE: Count = Count(Repr::Small(1));

    /// The count `n`.
    pub const fn new(n: u128) -> Count {
        Count(Repr::Small(n))
    }

    /// The count as a `u128`, when it fits.
    pub fn to_u128(&self) -> Option<u128> {
        match &self.0 {
            Repr::Small(n) => Some(*n),
            Repr::Big(_) => None,
        }
    }

    /// Whether the count is 0.
    pub fn is_zero(&self) -> bool {
        matches!(self.0, Repr::Small(0))
    }

    /// The count as an arbitrary-precision integer.
    pub fn to_biguint(&self) -> BigUint {
        match &self.0 {
            Repr::Small(n) => BigUint::from(*n),
            Repr::Big(b) => (**b).clone(),
        }
    }

    /// The count as the nearest `f64` (`inf` past `f64::MAX`).
    pub fn to_f64(&self) -> f64 {
        match &self.0 {
            Repr::Small(n) => *n as f64,
            Repr::Big(b) => {
                // The leading 64 bits and the exponent: within one unit in the last place.
                let bits = b.bits();
                let shift = bits.saturating_sub(64);
                let top = (&**b >> shift).iter_u64_digits().next().unwrap_or(0);
                let exp = i32::try_from(shift).unwrap_or(i32::MAX);
                top as f64 * 2f64.powi(exp)
            }
        }
    }

    /// Adds `n`.
    #[inline]
    pub fn add_u128(&mut self, n: u128) {
        if let Repr::Small(a) = &mut self.0 {
            if let Some(sum) = a.checked_add(n) {
                *a = sum;
                return;
            }
        }
        self.add_slow(&Count::new(n));
    }

    /// The sum of `self` and `other`, past `u128` when it must.
    #[cold]
    fn add_slow(&mut self, other: &Count) {
        let sum = self.to_biguint() + other.to_biguint();
        *self = Count::from(sum);
    }

    /// `self * k`.
    pub fn mul_u64(&self, k: u64) -> Count {
        if let Repr::Small(a) = &self.0 {
            if let Some(p) = a.checked_mul(u128::from(k)) {
                return Count::new(p);
            }
        }
        Count::from(self.to_biguint() * BigUint::from(k))
    }

    /// `self - other`, or `None` when `other` is larger.
    pub fn checked_sub(&self, other: &Count) -> Option<Count> {
        match (&self.0, &other.0) {
            (Repr::Small(a), Repr::Small(b)) => a.checked_sub(*b).map(Count::new),
            _ if self < other => None,
            _ => Some(Count::from(self.to_biguint() - other.to_biguint())),
        }
    }
}

impl Default for Count {
    fn default() -> Count {
        Count::ZERO
    }
}

impl From<u128> for Count {
    fn from(n: u128) -> Count {
        Count::new(n)
    }
}

impl From<u64> for Count {
    fn from(n: u64) -> Count {
        Count::new(u128::from(n))
    }
}

impl From<&Count> for Count {
    fn from(n: &Count) -> Count {
        n.clone()
    }
}

impl From<BigUint> for Count {
    /// The count of a big integer, kept as `u128` when it fits (C1).
    fn from(b: BigUint) -> Count {
        match u128::try_from(&b) {
            Ok(n) => Count::new(n),
            Err(_) => Count(Repr::Big(Box::new(b))),
        }
    }
}

impl std::ops::AddAssign<&Count> for Count {
    #[inline]
    fn add_assign(&mut self, other: &Count) {
        match (&mut self.0, &other.0) {
            (Repr::Small(a), Repr::Small(b)) => match a.checked_add(*b) {
                Some(sum) => *a = sum,
                None => self.add_slow(other),
            },
            _ => self.add_slow(other),
        }
    }
}

impl std::ops::Add<&Count> for Count {
    type Output = Count;
    fn add(mut self, other: &Count) -> Count {
        self += other;
        self
    }
}

impl std::iter::Sum for Count {
    fn sum<I: Iterator<Item = Count>>(iter: I) -> Count {
        iter.fold(Count::ZERO, |acc, n| acc + &n)
    }
}

impl<'a> std::iter::Sum<&'a Count> for Count {
    fn sum<I: Iterator<Item = &'a Count>>(iter: I) -> Count {
        iter.fold(Count::ZERO, |acc, n| acc + n)
    }
}

impl PartialEq<u128> for Count {
    fn eq(&self, other: &u128) -> bool {
        self.to_u128() == Some(*other)
    }
}

impl PartialOrd<u128> for Count {
    fn partial_cmp(&self, other: &u128) -> Option<Ordering> {
        Some(match self.to_u128() {
            Some(n) => n.cmp(other),
            None => Ordering::Greater,
        })
    }
}

impl PartialOrd for Count {
    fn partial_cmp(&self, other: &Count) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Count {
    fn cmp(&self, other: &Count) -> Ordering {
        match (&self.0, &other.0) {
            (Repr::Small(a), Repr::Small(b)) => a.cmp(b),
            // (C1): a big count exceeds every small one.
            (Repr::Small(_), Repr::Big(_)) => Ordering::Less,
            (Repr::Big(_), Repr::Small(_)) => Ordering::Greater,
            (Repr::Big(a), Repr::Big(b)) => a.cmp(b),
        }
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Small(n) => fmt::Display::fmt(n, f),
            Repr::Big(b) => fmt::Display::fmt(b, f),
        }
    }
}

impl fmt::Debug for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A string that is not a count: empty, or holding something else than decimal digits.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a count (a natural number in decimal digits): `{0}`")]
pub struct ParseCountError(String);

impl FromStr for Count {
    type Err = ParseCountError;

    /// Decimal digits only (no sign, no spaces, no `_`): `0`, `92`, or any number of digits.
    fn from_str(s: &str) -> Result<Count, ParseCountError> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseCountError(s.chars().take(60).collect()));
        }
        if let Ok(n) = s.parse::<u128>() {
            return Ok(Count::new(n));
        }
        BigUint::from_str(s).map(Count::from).map_err(|_| ParseCountError(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_big_are_one_number_line() {
        let max = Count::from(u128::MAX);
        let big = max.clone() + &Count::ONE;
        assert_eq!(big.to_u128(), None);
        assert_eq!(big.to_string(), "340282366920938463463374607431768211456");
        assert!(big > max);
        assert!(max.cmp(&big) == Ordering::Less);
        // (C1): back below the line, a count is small again.
        assert_eq!(big.checked_sub(&Count::ONE), Some(max.clone()));
        assert_eq!(big.checked_sub(&big).map(|c| c.to_u128()), Some(Some(0)));
        assert_eq!(max.checked_sub(&big), None);
        assert_eq!(Count::from(BigUint::from(7u32)), 7u128);
        let mut n = Count::from(u128::MAX - 1);
        n.add_u128(1);
        assert_eq!(n, u128::MAX);
        n.add_u128(u128::MAX);
        assert_eq!(n.to_string(), "680564733841876926926749214863536422910");
        assert_eq!(Count::from(3u64).mul_u64(5), 15u128);
        assert_eq!(max.mul_u64(2), n);
        let f = n.to_f64();
        assert!((f / 6.805_647_338_418_77e38 - 1.0).abs() < 1e-12, "{f}");
        assert_eq!([Count::ONE, big.clone()].iter().sum::<Count>(), big.clone() + &Count::ONE);
    }

    #[test]
    fn parses_decimal_only() {
        for bad in ["", "-1", "1.0", " 1", "1e3", "0x10", "1_000"] {
            assert!(bad.parse::<Count>().is_err(), "{bad:?}");
        }
        assert_eq!("0".parse::<Count>(), Ok(Count::ZERO));
        let text = "1269984011256235834242602753102293934298576249856";
        assert_eq!(text.parse::<Count>().map(|c| c.to_string()), Ok(text.to_owned()));
    }
}
