//! Counting subsets within a budget by meeting in the middle (Luogu P4799, CEOI 2015
//! "Ice Hockey World Championship"): how many subsets of N <= 40 prices cost at most M?
//!
//! # Method
//!
//! Enumerating 2^40 subsets is out of reach; instead the items are split into two halves,
//! the 2^20 subset sums of each half are listed **in increasing order**, and the pairs
//! `(x, y)` with `x + y <= M` are counted by one merge-like sweep: as `x` increases over the
//! first list, the largest admissible `y` only decreases, so a pointer walks the second list
//! backwards once. Each sorted list is built without sorting: adding an item to a sorted list
//! of sums `L` gives the merge of `L` and `L + price`, both sorted, so the list of `2^k` sums
//! costs `2^(k+1)` steps. Total work and memory are `O(2^(N/2))`.
//!
//! Sums are `u128`, so no total overflows whatever the prices.
//!
//! ```
//! use dancecard_search::subset;
//!
//! // Prices 100, 1500, 500, 500, 1000 and a budget of 1000: 8 subsets (P4799's sample).
//! assert_eq!(subset::count_within(&[100, 1500, 500, 500, 1000], 1000)?, 8);
//! # Ok::<(), subset::SubsetError>(())
//! ```

/// The most items: 2^24 sums per half (256 MB) is the memory ceiling.
pub const MAX_ITEMS: usize = 48;

/// An error of [`count_within`] or [`parse`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SubsetError {
    /// More than [`MAX_ITEMS`] items.
    #[error("{0} items: at most {MAX_ITEMS} are supported")]
    TooMany(usize),
    /// The input is not `N M` followed by N prices.
    #[error("{0}")]
    Parse(String),
}

/// The subset sums of `items`, in increasing order (with repeats).
pub fn sorted_sums(items: &[u64]) -> Vec<u128> {
    let mut sums = vec![0u128];
    let mut merged = Vec::with_capacity(1 << items.len());
    for &price in items {
        let price = u128::from(price);
        merged.clear();
        let (mut i, mut j) = (0, 0);
        while i < sums.len() || j < sums.len() {
            let take_left = j == sums.len() || (i < sums.len() && sums[i] <= sums[j] + price);
            if take_left {
                merged.push(sums[i]);
                i += 1;
            } else {
                merged.push(sums[j] + price);
                j += 1;
            }
        }
        std::mem::swap(&mut sums, &mut merged);
    }
    sums
}

/// The number of subsets of `prices` (the empty one included) whose total is at most
/// `budget`.
pub fn count_within(prices: &[u64], budget: u64) -> Result<u64, SubsetError> {
    if prices.len() > MAX_ITEMS {
        return Err(SubsetError::TooMany(prices.len()));
    }
    let (left, right) = prices.split_at(prices.len() / 2);
    let (left, right) = (sorted_sums(left), sorted_sums(right));
    let budget = u128::from(budget);
    let mut count = 0u64;
    let mut j = right.len();
    for &x in &left {
        while j > 0 && x + right[j - 1] > budget {
            j -= 1;
        }
        if j == 0 {
            break;
        }
        count += j as u64;
    }
    Ok(count)
}

/// Parses the puzzle's input: `N M`, then N prices (any whitespace).
pub fn parse(text: &str) -> Result<(Vec<u64>, u64), SubsetError> {
    let mut words = text.split_whitespace();
    let mut number = |what: &str| -> Result<u64, SubsetError> {
        let w = words.next().ok_or_else(|| SubsetError::Parse(format!("missing {what}")))?;
        w.parse()
            .map_err(|_| SubsetError::Parse(format!("{what}: not a non-negative integer: {w:?}")))
    };
    let n = number("N (the number of prices)")?;
    let budget = number("M (the budget)")?;
    if n > MAX_ITEMS as u64 {
        return Err(SubsetError::TooMany(n as usize));
    }
    let prices = (0..n).map(|i| number(&format!("price {}", i + 1))).collect::<Result<_, _>>()?;
    if let Some(extra) = words.next() {
        return Err(SubsetError::Parse(format!("unexpected {extra:?} after {n} prices")));
    }
    Ok((prices, budget))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn brute(prices: &[u64], budget: u64) -> u64 {
        (0u64..1 << prices.len())
            .filter(|mask| {
                let total: u128 = prices
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask >> i & 1 == 1)
                    .map(|(_, &p)| u128::from(p))
                    .sum();
                total <= u128::from(budget)
            })
            .count() as u64
    }

    proptest! {
        #[test]
        fn matches_brute_force(
            prices in proptest::collection::vec(0u64..1000, 0..=14),
            budget in 0u64..6000,
        ) {
            prop_assert_eq!(count_within(&prices, budget).unwrap(), brute(&prices, budget));
        }

        #[test]
        fn huge_prices_do_not_overflow(
            prices in proptest::collection::vec(u64::MAX - 100..=u64::MAX, 0..=8),
            budget in proptest::sample::select(vec![0, u64::MAX - 1, u64::MAX]),
        ) {
            prop_assert_eq!(count_within(&prices, budget).unwrap(), brute(&prices, budget));
        }
    }

    #[test]
    fn sample_and_parse() {
        let (prices, budget) = parse("5 1000\n100 1500 500 500 1000\n").unwrap();
        assert_eq!(count_within(&prices, budget).unwrap(), 8);
        assert!(parse("2 10 1").is_err());
        assert!(parse("1 10 1 2").is_err());
        assert!(parse("1 -3 1").is_err());
        assert!(matches!(parse("49 1"), Err(SubsetError::TooMany(49))));
        assert!(matches!(count_within(&[1; 49], 3), Err(SubsetError::TooMany(49))));
    }

    #[test]
    fn sorted_sums_are_sorted_and_complete() {
        let sums = sorted_sums(&[5, 1, 3]);
        assert_eq!(sums, [0, 1, 3, 4, 5, 6, 8, 9]);
    }

    #[test]
    fn forty_items_all_within_or_none() {
        let prices: Vec<u64> = (1..=40).map(|i| i * 1_000_000_007).collect();
        let total: u64 = prices.iter().sum();
        assert_eq!(count_within(&prices, total).unwrap(), 1 << 40);
        assert_eq!(count_within(&prices, 0).unwrap(), 1);
        // The total 821 is odd, so a subset or its complement (not both) is at most 410.
        let mut odd: Vec<u64> = (1..=39).collect();
        odd.push(41);
        assert_eq!(odd.iter().sum::<u64>(), 821);
        assert_eq!(count_within(&odd, 410).unwrap(), 1 << 39);
    }
}
