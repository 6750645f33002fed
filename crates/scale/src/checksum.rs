//! The checksum of a file's content, reading a sealed (checksummed) file, and `u128` counts
//! in JSON.

use std::fmt::Display;
use std::marker::PhantomData;
use std::str::FromStr;

use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde::{Serialize, Serializer};

use crate::FileError;

/// Canonical JSON of a value that serializes without fail (plain fields, string keys).
pub(crate) fn to_json<T: Serialize>(value: &T) -> String {
    // Serializing structs of strings, integers, finite floats and booleans cannot fail; a NaN
    // would be written as `null` and refused when read back, never silently accepted.
    serde_json::to_string(value).unwrap_or_default()
}

/// FNV-1a with 128 bits over `bytes`.
pub(crate) fn fnv1a128(bytes: &[u8]) -> u128 {
    const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
    const PRIME: u128 = 0x0000000001000000000000000000013b;
    bytes.iter().fold(OFFSET, |h, &b| (h ^ u128::from(b)).wrapping_mul(PRIME))
}

/// The checksum as written in a file: `fnv1a128:` and 32 hex digits.
pub(crate) fn checksum_text(bytes: &[u8]) -> String {
    format!("fnv1a128:{:032x}", fnv1a128(bytes))
}

/// A file sealed by a checksum of its content (a shard result, a checkpoint): its `kind` field
/// names what it is, its `checksum` field is [`checksum_text`] of the canonical JSON of every
/// other field.
pub(crate) trait Sealed: Clone + Serialize + DeserializeOwned {
    /// What the file is called in errors (`shard result`, `checkpoint`).
    const NAME: &'static str;
    /// The value of its `kind` field (`dancecard-shard`, ...).
    const KIND: &'static str;

    /// Its `kind` field.
    fn kind(&self) -> &str;

    /// Its `checksum` field.
    fn checksum_mut(&mut self) -> &mut String;

    /// The checksum of the content: every field but `checksum`, in canonical JSON.
    fn content_checksum(&self) -> String {
        let mut content = self.clone();
        content.checksum_mut().clear();
        checksum_text(to_json(&content).as_bytes())
    }
}

/// Implements [`Sealed`] for a struct with fields `kind` and `checksum` (both `String`): its
/// name in errors and the value of its `kind` field.
macro_rules! sealed {
    ($file:ty, $name:literal, $kind:expr) => {
        impl $crate::checksum::Sealed for $file {
            const NAME: &'static str = $name;
            const KIND: &'static str = $kind;

            fn kind(&self) -> &str {
                &self.kind
            }

            fn checksum_mut(&mut self) -> &mut String {
                &mut self.checksum
            }
        }
    };
}
pub(crate) use sealed;

/// Reads a sealed file: JSON of `T`, of kind [`Sealed::KIND`], whose checksum matches its
/// content. The checks of the fields themselves are the caller's.
pub(crate) fn read_sealed<T: Sealed>(bytes: &[u8]) -> Result<T, FileError> {
    let mut file: T = serde_json::from_slice(bytes)
        .map_err(|e| FileError::Json { kind: T::NAME, message: e.to_string() })?;
    if file.kind() != T::KIND {
        return Err(FileError::Kind { expected: T::NAME, found: file.kind().to_owned() });
    }
    let actual = file.content_checksum();
    if *file.checksum_mut() != actual {
        return Err(FileError::Checksum { stated: std::mem::take(file.checksum_mut()), actual });
    }
    Ok(file)
}

/// Serde for `u128` counts: a JSON number when it fits in `u64`, else a decimal string (JSON
/// numbers past 2^64 are not portable). Reading takes either form.
pub(crate) mod count {
    use serde::{Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(n: &u128, s: S) -> Result<S::Ok, S::Error> {
        super::write_count(u64::try_from(*n).ok(), n, s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        super::read_count(d)
    }
}

/// Serde for a [`Count`](dancecard_engine::Count) of any size: a JSON number when it fits
/// in `u64`, a decimal string otherwise (past `u128::MAX` too).
pub(crate) mod big_count {
    use dancecard_engine::Count;
    use serde::{Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(n: &Count, s: S) -> Result<S::Ok, S::Error> {
        super::write_count(n.to_u128().and_then(|n| u64::try_from(n).ok()), n, s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
        super::read_count(d)
    }
}

/// Writes the count `n`: a JSON number when it fits in `u64` (`small`, `n` converted by the
/// caller), else a decimal string.
fn write_count<S: Serializer>(
    small: Option<u64>,
    n: &impl Display,
    s: S,
) -> Result<S::Ok, S::Error> {
    match small {
        Some(n) => s.serialize_u64(n),
        None => s.serialize_str(&n.to_string()),
    }
}

/// Reads a count written by [`write_count`]: a JSON number, or a string of decimal digits
/// (and nothing else: `+1` or ` 1` are not what a writer writes) that `T` parses.
fn read_count<'de, T, D>(d: D) -> Result<T, D::Error>
where
    T: From<u64> + FromStr,
    D: Deserializer<'de>,
{
    struct Digits<T>(PhantomData<T>);
    impl<T: From<u64> + FromStr> Visitor<'_> for Digits<T> {
        type Value = T;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a non-negative integer count (a number, or a decimal string)")
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
            Ok(T::from(v))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
            if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
                return Err(E::invalid_value(de::Unexpected::Str(v), &self));
            }
            v.parse().map_err(|_| E::invalid_value(de::Unexpected::Str(v), &self))
        }
    }
    d.deserialize_any(Digits(PhantomData))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_of_known_strings() {
        // The FNV-1a 128 test vectors of the empty string and "a".
        assert_eq!(fnv1a128(b""), 0x6c62272e07bb014262b821756295c58d);
        assert_eq!(fnv1a128(b"a"), 0xd228cb696f1a8caf78912b704e4a8964);
        assert_eq!(checksum_text(b"").len(), "fnv1a128:".len() + 32);
    }
}
