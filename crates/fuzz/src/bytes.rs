//! The reading shared by the targets that decode a problem from the bytes by hand
//! ([`engine`](fn@crate::engine) and [`family_of`](crate::family_of)).

/// A fuzz input read one byte at a time.
pub(crate) struct Bytes<'a>(std::slice::Iter<'a, u8>);

impl<'a> Bytes<'a> {
    /// `data`, from its first byte.
    pub(crate) fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes(data.iter())
    }

    /// The next byte, `None` past the end.
    pub(crate) fn byte(&mut self) -> Option<u8> {
        self.0.next().copied()
    }

    /// The next byte `b` as the numbers of items: `1 + b % primary` primary items and
    /// `b / primary % secondary` secondary ones (`b` is 0 past the end).
    pub(crate) fn items(&mut self, primary: u8, secondary: u8) -> (usize, usize) {
        let b = self.byte().unwrap_or(0);
        (1 + usize::from(b % primary), usize::from(b / primary % secondary))
    }
}
