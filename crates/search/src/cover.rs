//! Minimum repeat cover: the fewest options that cover every item **at least** once, by
//! Dancing Links with IDA*.
//!
//! # Repeat cover versus exact cover
//!
//! In an exact cover, choosing an option removes every other option that meets it: an item
//! is covered once. In a repeat cover, items may be covered many times, so choosing an
//! option removes only the *items* it covers from the list of items still to cover; the
//! other options through those items stay available (they may still cover other items).
//! The links say it: covering an item unlinks its nodes from their options' **horizontal**
//! rings (so the options no longer count that item) but leaves every vertical ring intact.
//!
//! | operation | effect | undone by |
//! | --- | --- | --- |
//! | `cover(x)` | every node of `x`'s item except `x`, the header included, leaves its horizontal ring: the item leaves the active list and every option forgets it | `uncover(x)`, in reverse order |
//! | `choose(x)` | `cover` on every node of `x`'s option still in its ring | `unchoose(x)` |
//! | `hide(o)` | every node of option `o` leaves its vertical ring (item sizes drop) | `unhide(o)` |
//!
//! All undo is strictly LIFO, as in Knuth's dancing links: a removed node keeps its own
//! links, which is what lets the restore find its place.
//!
//! # Search
//!
//! Each level picks the active item with the fewest options (Knuth's minimum remaining
//! values), and branches on the options through it: one of them is in every cover. The
//! `j`-th branch looks for covers that contain the `j`-th option **and none of the earlier
//! ones** (those were searched by earlier branches), so after a branch its option is hidden
//! for the rest of the level. This turns the search over sequences of options into a search
//! over sets, and an item whose options are all hidden ends the branch at once.
//!
//! The depth is bounded by IDA*: a node at depth `g` is cut off when `g + h > bound`, and the
//! next bound is the smallest `g + h` that exceeded the current one (the textbook's rule).
//! `h` is a greedy lower bound: take an active item, count 1, mark every item that shares an
//! option with it (any option covering it might cover those too), and repeat with an
//! unmarked item. The items counted pairwise share no option, so each needs its own option.
//!
//! ```
//! use dancecard_search::cover;
//!
//! // Items 0..5; the options {0,1,2}, {2,3}, {3,4}, {0,4}, {1,3}.
//! let options = vec![vec![0, 1, 2], vec![2, 3], vec![3, 4], vec![0, 4], vec![1, 3]];
//! let result = cover::min_cover(5, &options, &Default::default())?;
//! let chosen = result.options.expect("every item is in some option");
//! assert_eq!(chosen.len(), 2); // {0,1,2} and {3,4}
//! assert!(cover::covers(5, &options, &chosen));
//! # Ok::<(), cover::CoverError>(())
//! ```

use crate::stats::Bounds;
use std::time::Instant;

use crate::space::Cost;
use crate::stats::{Budget, Stats, Stop, POLL_MASK};

/// An error in the problem given to [`min_cover`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CoverError {
    /// An option names an item out of range.
    #[error("option {option} names item {item}, but there are {items} items")]
    ItemOutOfRange {
        /// The option.
        option: usize,
        /// The item.
        item: usize,
        /// The number of items.
        items: usize,
    },
    /// More nodes than `u32` indices can address.
    #[error("the problem is too large ({0} nodes)")]
    TooLarge(usize),
}

/// The result of [`min_cover`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoverResult {
    /// The options of a minimum cover (indices into the options given), in the order
    /// chosen; `None` when no cover exists or a limit stopped the search.
    pub options: Option<Vec<usize>>,
    /// [`Stop::Found`]; [`Stop::Exhausted`] when some item is in no option; or the limit.
    pub stop: Stop,
    /// Work counters: `expanded` search nodes, `generated` options tried, `iterations` of
    /// IDA*, `bound` the last bound.
    pub stats: Stats,
}

/// Whether `chosen` covers all `items` items.
pub fn covers(items: usize, options: &[Vec<usize>], chosen: &[usize]) -> bool {
    let mut covered = vec![false; items];
    for &o in chosen {
        for &i in options.get(o).map_or(&[][..], Vec::as_slice) {
            if let Some(c) = covered.get_mut(i) {
                *c = true;
            }
        }
    }
    covered.into_iter().all(|c| c)
}

/// The dancing-links arena of a repeat cover problem.
///
/// Index 0 is the root, `1..=items` the item headers, then each option's nodes in order.
struct Links {
    left: Vec<u32>,
    right: Vec<u32>,
    up: Vec<u32>,
    down: Vec<u32>,
    /// The header of a node's item (a header's own index for headers).
    item: Vec<u32>,
    /// The option of a node (unused for headers).
    option: Vec<u32>,
    /// Active options through each item (headers only).
    len: Vec<u32>,
    /// `nodes[first[o]..first[o + 1]]` are option `o`'s nodes.
    first: Vec<u32>,
    /// Marks for the heuristic (`stamp` values).
    mark: Vec<u32>,
    stamp: u32,
}

const ROOT: u32 = 0;

impl Links {
    fn new(items: usize, options: &[Vec<usize>]) -> Result<Links, CoverError> {
        let mut clean: Vec<Vec<u32>> = Vec::with_capacity(options.len());
        for (o, opt) in options.iter().enumerate() {
            let mut v = Vec::with_capacity(opt.len());
            for &i in opt {
                if i >= items {
                    return Err(CoverError::ItemOutOfRange { option: o, item: i, items });
                }
                v.push(i as u32 + 1);
            }
            v.sort_unstable();
            v.dedup();
            clean.push(v);
        }
        let total = 1 + items + clean.iter().map(Vec::len).sum::<usize>();
        if total >= u32::MAX as usize {
            return Err(CoverError::TooLarge(total));
        }
        let mut l = Links {
            left: Vec::with_capacity(total),
            right: Vec::with_capacity(total),
            up: Vec::with_capacity(total),
            down: Vec::with_capacity(total),
            item: Vec::with_capacity(total),
            option: Vec::with_capacity(total),
            len: vec![0; items + 1],
            first: Vec::with_capacity(options.len() + 1),
            mark: vec![0; items + 1],
            stamp: 0,
        };
        // The root and the headers form the active list.
        for h in 0..=items as u32 {
            l.left.push(if h == 0 { items as u32 } else { h - 1 });
            l.right.push(if h as usize == items { 0 } else { h + 1 });
            l.up.push(h);
            l.down.push(h);
            l.item.push(h);
            l.option.push(u32::MAX);
        }
        for (o, opt) in clean.iter().enumerate() {
            let start = l.item.len() as u32;
            l.first.push(start);
            let k = opt.len() as u32;
            for (j, &h) in opt.iter().enumerate() {
                let x = start + j as u32;
                l.left.push(if j == 0 { start + k - 1 } else { x - 1 });
                l.right.push(if j as u32 == k - 1 { start } else { x + 1 });
                // Append to the bottom of item h's vertical ring.
                let last = l.up[h as usize];
                l.up.push(last);
                l.down.push(h);
                l.down[last as usize] = x;
                l.up[h as usize] = x;
                l.item.push(h);
                l.option.push(o as u32);
                l.len[h as usize] += 1;
            }
        }
        l.first.push(l.item.len() as u32);
        Ok(l)
    }

    /// Unlinks every node of `x`'s item but `x` from its horizontal ring, top to bottom.
    #[inline]
    fn cover(&mut self, x: u32) {
        self.relink::<false>(x);
    }

    /// Undoes [`cover`](Links::cover): the nodes linked back, bottom to top.
    #[inline]
    fn uncover(&mut self, x: u32) {
        self.relink::<true>(x);
    }

    /// The nodes of `x`'s item but `x`, taken out of their horizontal rings down the item's
    /// list, or (`BACK`) put back up it in the reverse order.
    #[inline]
    fn relink<const BACK: bool>(&mut self, x: u32) {
        let next = |links: &Self, y: u32| {
            if BACK {
                links.up[y as usize]
            } else {
                links.down[y as usize]
            }
        };
        let mut y = next(self, x);
        while y != x {
            let (l, r) = (self.left[y as usize], self.right[y as usize]);
            self.right[l as usize] = if BACK { y } else { r };
            self.left[r as usize] = if BACK { y } else { l };
            y = next(self, y);
        }
    }

    /// Chooses the option of node `x`: its items leave the active list.
    fn choose(&mut self, x: u32) {
        self.cover(x);
        let mut y = self.right[x as usize];
        while y != x {
            self.cover(y);
            y = self.right[y as usize];
        }
    }

    /// Undoes [`choose`](Links::choose).
    fn unchoose(&mut self, x: u32) {
        let mut y = self.left[x as usize];
        while y != x {
            self.uncover(y);
            y = self.left[y as usize];
        }
        self.uncover(x);
    }

    /// Takes option `o` out of every vertical ring.
    fn hide(&mut self, o: u32) {
        for x in self.first[o as usize]..self.first[o as usize + 1] {
            let (u, d) = (self.up[x as usize], self.down[x as usize]);
            self.down[u as usize] = d;
            self.up[d as usize] = u;
            self.len[self.item[x as usize] as usize] -= 1;
        }
    }

    /// Undoes [`hide`](Links::hide).
    fn unhide(&mut self, o: u32) {
        for x in (self.first[o as usize]..self.first[o as usize + 1]).rev() {
            let (u, d) = (self.up[x as usize], self.down[x as usize]);
            self.down[u as usize] = x;
            self.up[d as usize] = x;
            self.len[self.item[x as usize] as usize] += 1;
        }
    }

    /// The greedy lower bound on the options still needed (see the module doc).
    fn lower_bound(&mut self) -> Cost {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        let mut count = 0;
        let mut c = self.right[ROOT as usize];
        while c != ROOT {
            if self.mark[c as usize] != stamp {
                count += 1;
                self.mark[c as usize] = stamp;
                let mut x = self.down[c as usize];
                while x != c {
                    let mut y = self.right[x as usize];
                    while y != x {
                        self.mark[self.item[y as usize] as usize] = stamp;
                        y = self.right[y as usize];
                    }
                    x = self.down[x as usize];
                }
            }
            c = self.right[c as usize];
        }
        count
    }

    /// The active item with the fewest active options (the first such).
    fn pick(&self) -> u32 {
        let mut best = self.right[ROOT as usize];
        let mut c = self.right[best as usize];
        while c != ROOT {
            if self.len[c as usize] < self.len[best as usize] {
                best = c;
            }
            c = self.right[c as usize];
        }
        best
    }
}

/// A level of the search: the item branched on and the node (option) being tried.
struct Frame {
    item: u32,
    /// The node of the current option, or `item` before the first.
    node: u32,
    /// `hidden.len()` when the level began.
    hidden_from: usize,
}

/// The fewest of `options` (lists of item indices `0..items`) covering every item at least
/// once. Duplicated items within an option are ignored.
pub fn min_cover(
    items: usize,
    options: &[Vec<usize>],
    limits: &Budget,
) -> Result<CoverResult, CoverError> {
    let started = Instant::now();
    let mut links = Links::new(items, options)?;
    let mut stats = Stats::default();
    let finish = |options: Option<Vec<usize>>, stop: Stop, mut stats: Stats| {
        stats.elapsed = started.elapsed();
        Ok(CoverResult { options, stop, stats })
    };
    if (1..=items).any(|h| links.len[h] == 0) {
        return finish(None, Stop::Exhausted, stats);
    }
    let node_budget = limits.node_budget();
    let max_cost = limits.cost_bound();
    let mut bound = links.lower_bound();
    let mut frames: Vec<Frame> = Vec::new();
    let mut chosen: Vec<u32> = Vec::new();
    let mut hidden: Vec<u32> = Vec::new();
    loop {
        if !stats.next_iteration(bound, max_cost) {
            return finish(None, Stop::CostLimit, stats);
        }
        let mut next_bound = Cost::MAX;
        // `true`: enter a new node; `false`: advance the top frame.
        let mut entering = true;
        loop {
            if entering {
                stats.expanded += 1;
                if stats.expanded & POLL_MASK == 0 {
                    if let Some(stop) = limits.interrupted(started) {
                        return finish(None, stop, stats);
                    }
                }
                if stats.generated >= node_budget {
                    return finish(None, Stop::NodeLimit, stats);
                }
                if links.right[ROOT as usize] == ROOT {
                    let found = chosen.iter().map(|&o| o as usize).collect();
                    stats.stored = stats.stored.max(frames.len());
                    return finish(Some(found), Stop::Found, stats);
                }
                let f = frames.len() as Cost + links.lower_bound();
                let item = links.pick();
                if f > bound {
                    next_bound = next_bound.min(f);
                } else if links.len[item as usize] > 0 {
                    frames.push(Frame { item, node: item, hidden_from: hidden.len() });
                    stats.stored = stats.stored.max(frames.len());
                }
                entering = false;
                continue;
            }
            let Some(top) = frames.last_mut() else {
                break; // the iteration is over
            };
            if top.node != top.item {
                // Undo the option tried, and exclude it from the rest of this level.
                links.unchoose(top.node);
                let _ = chosen.pop();
                let o = links.option[top.node as usize];
                links.hide(o);
                hidden.push(o);
            }
            top.node = links.down[top.node as usize];
            if top.node == top.item {
                let from = top.hidden_from;
                let _ = frames.pop();
                while hidden.len() > from {
                    if let Some(o) = hidden.pop() {
                        links.unhide(o);
                    }
                }
                continue;
            }
            links.choose(top.node);
            chosen.push(links.option[top.node as usize]);
            stats.generated += 1;
            entering = true;
        }
        if next_bound == Cost::MAX {
            // Every branch died on an item with no option left: impossible here, since
            // every item has an option at the root; kept for robustness.
            return finish(None, Stop::Exhausted, stats);
        }
        bound = next_bound;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The smallest cover by trying all subsets of options in order of size.
    fn brute(items: usize, options: &[Vec<usize>]) -> Option<usize> {
        let n = options.len();
        (0..=n).find(|&k| {
            (0u32..1 << n).filter(|m| m.count_ones() as usize == k).any(|m| {
                let chosen: Vec<usize> = (0..n).filter(|&o| m >> o & 1 == 1).collect();
                covers(items, options, &chosen)
            })
        })
    }

    proptest! {
        #[test]
        fn matches_brute_force(
            items in 1usize..=8,
            raw in proptest::collection::vec(proptest::collection::vec(0usize..8, 0..5), 0..=10),
        ) {
            let options: Vec<Vec<usize>> =
                raw.into_iter().map(|o| o.into_iter().filter(|&i| i < items).collect()).collect();
            let result = min_cover(items, &options, &Budget::new()).unwrap();
            let expected = brute(items, &options);
            prop_assert_eq!(result.options.as_ref().map(Vec::len), expected);
            if let Some(chosen) = &result.options {
                prop_assert!(covers(items, &options, chosen));
                prop_assert_eq!(result.stop, Stop::Found);
            } else {
                prop_assert_eq!(result.stop, Stop::Exhausted);
            }
        }
    }

    #[test]
    fn edge_cases() {
        let r = min_cover(0, &[], &Budget::new()).unwrap();
        assert_eq!(r.options, Some(vec![]));
        let r = min_cover(2, &[vec![0]], &Budget::new()).unwrap();
        assert_eq!((r.options, r.stop), (None, Stop::Exhausted));
        assert!(matches!(
            min_cover(2, &[vec![0, 2]], &Budget::new()),
            Err(CoverError::ItemOutOfRange { option: 0, item: 2, items: 2 })
        ));
        let r = min_cover(3, &[vec![0, 0, 1], vec![], vec![2]], &Budget::new()).unwrap();
        assert_eq!(r.options.map(|o| o.len()), Some(2));
        let r = min_cover(4, &[vec![0], vec![1], vec![2], vec![3]], &Budget::new().max_cost(3))
            .unwrap();
        assert_eq!(r.stop, Stop::CostLimit);
    }
}
