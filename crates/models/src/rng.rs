//! The seeded random numbers of the models (puzzle generation, shuffled orders): the same
//! seed gives the same numbers on every machine.

/// SplitMix64 (Steele, Lea and Flood, 2014): the engine's generator
/// ([`dancecard_engine::SplitMix64`]), with the draws the models make from it.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix64(dancecard_engine::SplitMix64);

impl SplitMix64 {
    /// The generator seeded with `seed`.
    pub(crate) fn new(seed: u64) -> SplitMix64 {
        SplitMix64(dancecard_engine::SplitMix64::new(seed))
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (`n > 0`; the tiny modulo bias does not matter here).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub(crate) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}
