//! The engine itself: arbitrary small problems built through [`ProblemBuilder`], checked
//! against the brute-force oracle.

use dancecard_engine::{BuildError, ColorId, Entry, ItemId, ProblemBuilder};

use crate::bytes::Bytes;
use crate::oracle::{self, Knobs, ORACLE_OPTIONS};

/// The colors an option entry may give (two are enough to make colors clash).
const COLORS: usize = 2;

/// Arbitrary small problems, decoded by hand from the bytes, built through
/// [`ProblemBuilder`] and searched in every way the engine offers.
///
/// Layout of the input:
///
/// - byte 0: `1 + b % 8` primary items and `b / 8 % 5` secondary ones;
/// - byte 1: the node limit of the limited runs (`b % 64`) and the depth of the subtrees
///   (`b / 64`, 0 to 3);
/// - byte 2: flags: bit 1 declares the secondary items first, bit 2 declares the colors
///   before any option uses them;
/// - then options, each a length byte (`b % 6` entries, so possibly none) followed by that
///   many entry bytes: item `(b & 15) % items`, and color `c0` when bits 4-5 are `10`, `c1`
///   when `11`, none otherwise.
///
/// Checks: the builder accepts exactly the valid options (not empty, no repeated item, a
/// primary item, colors on secondary items only) and rejects the others with the matching
/// [`BuildError`], leaving itself unchanged; the problem survives the DLX round trip; and on
/// every kernel and heuristic the search finds the oracle's solutions, each verified, the
/// limited runs stop at the same node, the subtrees partition the solutions, and the arena is
/// restored (I5). With the `check-invariants` feature the arena's invariants are checked at
/// every node.
///
/// Searches with several threads (`dancecard_engine::parallel`) are left to the engine's own
/// tests: each builds a thread pool whose threads end after the search returns, which
/// LeakSanitizer reports as leaks (their thread-local destructors) and which makes libFuzzer
/// scan for leaks after every such input.
pub fn engine(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let (primary, secondary) = bytes.items(8, 5);
    let knobs_byte = bytes.byte().unwrap_or(0);
    let flags = bytes.byte().unwrap_or(0);
    let knobs =
        Knobs { max_nodes: u64::from(knobs_byte % 64), depth: usize::from(knobs_byte / 64) };

    let mut b = ProblemBuilder::new();
    let n = primary + secondary;
    let mut ids: Vec<Option<ItemId>> = vec![None; n];
    let order: Vec<usize> =
        if flags & 2 != 0 { (primary..n).chain(0..primary).collect() } else { (0..n).collect() };
    for k in order {
        let made = if k < primary {
            b.primary(&format!("p{k}"))
        } else {
            b.secondary(&format!("s{}", k - primary))
        };
        ids[k] = Some(made.unwrap_or_else(|e| panic!("item {k} refused: {e}")));
    }
    let ids: Vec<ItemId> = ids.into_iter().flatten().collect();
    let mut colors: Vec<Option<ColorId>> = vec![None; COLORS];
    if flags & 4 != 0 {
        for (c, slot) in colors.iter_mut().enumerate() {
            *slot = Some(b.color(&format!("c{c}")).unwrap_or_else(|e| panic!("color: {e}")));
        }
    }

    let mut accepted = 0;
    while accepted < ORACLE_OPTIONS {
        let Some(len) = bytes.byte() else { break };
        let mut entries: Vec<(usize, Option<usize>)> = Vec::new();
        for _ in 0..len % 6 {
            let Some(e) = bytes.byte() else { break };
            let item = usize::from(e & 15) % n;
            let color = match (e >> 4) & 3 {
                2 => Some(0),
                3 => Some(1),
                _ => None,
            };
            entries.push((item, color));
        }
        let mut option = Vec::with_capacity(entries.len());
        for &(item, color) in &entries {
            let color = color.map(|c| {
                *colors[c].get_or_insert_with(|| {
                    b.color(&format!("c{c}")).unwrap_or_else(|e| panic!("color: {e}"))
                })
            });
            option.push(Entry { item: ids[item], color });
        }
        let before = (b.option_count(), b.item_count());
        let valid = !entries.is_empty()
            && entries.iter().any(|&(i, _)| i < primary)
            && entries.iter().all(|&(i, c)| i >= primary || c.is_none())
            && entries.iter().enumerate().all(|(k, &(i, _))| entries[..k].iter().all(|e| e.0 != i));
        match b.option(option) {
            Ok(id) => {
                assert!(valid, "the builder accepts an invalid option {entries:?}");
                assert_eq!(id.index(), before.0, "options are numbered in order");
                accepted += 1;
            }
            Err(e) => {
                assert!(!valid, "the builder refuses a valid option {entries:?}: {e}");
                assert!(
                    matches!(
                        e,
                        BuildError::EmptyOption { .. }
                            | BuildError::NoPrimaryItem { .. }
                            | BuildError::RepeatedItem { .. }
                            | BuildError::ColorOnPrimary { .. }
                    ),
                    "unexpected error for {entries:?}: {e}"
                );
                assert_eq!((b.option_count(), b.item_count()), before, "a refusal changes nothing");
            }
        }
    }
    let problem = b.build();
    assert_eq!(problem.option_count(), accepted);
    assert_eq!(problem.primary_count(), primary);
    assert_eq!(problem.item_count(), n);
    oracle::check_round_trip(&problem);
    oracle::check_against_oracle(&problem, knobs);
}
