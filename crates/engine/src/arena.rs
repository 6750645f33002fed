//! The dancing-links arena: Knuth's toroidal doubly linked lists in flat arrays.
//!
//! # Problem and toy example
//!
//! Knuth's toy problem has seven primary items `a b c d e f g` and six options
//! `c e`, `a d g`, `b c f`, `a d f`, `b g`, `d e g`. Its only exact cover is
//! `a d f`, `b g`, `c e`:
//!
//! ```
//! use dancecard_engine::{ProblemBuilder, Solver};
//!
//! let mut b = ProblemBuilder::new();
//! for name in ["a", "b", "c", "d", "e", "f", "g"] {
//!     b.primary(name)?;
//! }
//! for option in ["c e", "a d g", "b c f", "a d f", "b g", "d e g"] {
//!     b.option_by_names(option.split(' '))?;
//! }
//! let problem = b.build();
//! let mut solver = Solver::new(&problem);
//! let all: Vec<Vec<String>> = solver
//!     .solutions()
//!     .map(|s| s.iter().map(|&o| problem.option_text(o)).collect())
//!     .collect();
//! assert_eq!(all, [["a d f", "b g", "c e"]]);
//! # Ok::<(), dancecard_engine::BuildError>(())
//! ```
//!
//! # Layout
//!
//! Items live in `items` (index 0 is the root of the active primary items; `1..=N1` are the
//! primary items in declaration order, `N1+1..=N` the secondary items, and `N+1` is the head of
//! the secondary items' own list, as in Knuth's DLX1 and DLX2). Nodes live in `nodes`: node `i`
//! for `1 <= i <= N` is item `i`'s header; then come the options, each a run of contiguous nodes
//! with a *spacer* node before the first option and after every option.
//!
//! | here | Knuth | meaning |
//! | --- | --- | --- |
//! | `items[i].prev` | `LLINK(i)` | previous item in its circular list |
//! | `items[i].next` | `RLINK(i)` | next item in its circular list |
//! | `nodes[x].up` | `ULINK(x)` | previous node in item `TOP(x)`'s vertical list |
//! | `nodes[x].down` | `DLINK(x)` | next node in that list |
//! | `nodes[x].top` | `TOP(x)` | the item of option node `x` (`>= 1`) |
//! | `nodes[i].top` | `LEN(i)` | in a header: how many options are active in item `i` |
//! | `nodes[s].top` | `TOP(s) <= 0` | in a spacer: `-k`, where option `k - 1` ends at `s` |
//! | `nodes[s].up` | `ULINK(s)` | in a spacer: the first node of the option before it |
//! | `nodes[s].down` | `DLINK(s)` | in a spacer: the last node of the option after it |
//! | `nodes[x].first` | (none) | in an option node: the first node of its option |
//! | `colors[x]` | `COLOR(x)` | `0` none, `c + 1` for color `c`, `-1` once purified |
//!
//! A "pointer" is a `u32` index, not a reference: half the cache space of a 64-bit pointer, and
//! a node (`up`, `down`, `top`, `first`) is exactly 16 bytes, four to a cache line. `first`
//! is not in Knuth's layout: `hide(p)` walks the option right of `p` to the spacer and the part
//! left of `p` as the range `first..p`, instead of wrapping around through the spacer, and
//! `first` lies in the cache line of `p`, which `cover` has just read. Colors are kept in their
//! own array, which problems without colors never allocate or read.
//!
//! # Invariants
//!
//! - **(I1)** The active primary items form a circular list through the root 0:
//!   `items[items[i].next].prev == i` for every item `i` in it. The secondary items form their
//!   own circular list through `N + 1`. A covered item keeps its own `prev` and `next`, so that
//!   uncovering relinks it in place.
//! - **(I2)** For every active item `i` (including secondary items that are not covered), the
//!   nodes of its still-active options form a circular list through header `i` along
//!   `up`/`down`, and `nodes[i].top` (its `LEN`) is the length of that list.
//! - **(I3)** The nodes of an option are contiguous between two spacers, and the `top` fields of
//!   option nodes and spacers never change after the arena is built; nor do the `first`
//!   fields, which name the first node of each option.
//! - **(I4)** A hidden node keeps its own `up` and `down`: undo must therefore be strictly last
//!   in, first out. ("The choreography is delicate indeed", DLX1.)
//! - **(I5)** When a search ends (exhausted, stopped or abandoned), the arena is equal to the
//!   arena it started from.
//!
//! [`Arena::check_invariants`] checks (I1)-(I3) by walking every list, like Knuth's `sanity()`;
//! with the `check-invariants` feature (and in this crate's tests) the solver calls it at every
//! node. Tests check (I5) by comparing the arena after a search with a freshly built one.
//!
//! # Cost model
//!
//! As in Knuth's DLX1: an *update* is one link removal, either an item unlinked from its
//! horizontal list by `cover` or a node unlinked from its vertical list by `hide`. Restoring
//! links is not counted. A *node* of the search tree is counted each time a level is entered
//! (the root included), plus one for each solution found.
//!
//! # Bibliography
//!
//! - Donald E. Knuth, "Dancing links", *Millennial Perspectives in Computer Science* (2000),
//!   187-214; arXiv:cs/0011047.
//! - Donald E. Knuth, *The Art of Computer Programming*, Volume 4B, §7.2.2.1 (2022):
//!   Algorithm X (pp. 68-70) and Algorithm C (exact covering with colors, pp. 87-91).
//! - Donald E. Knuth, DLX1 and DLX2 (CWEB programs, 2017-2020).

use crate::ids::{ItemId, OptionId};
use crate::problem::{ItemKind, Problem};

/// A horizontal link of the item lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Link {
    /// `LLINK`. See (I1).
    pub(crate) prev: u32,
    /// `RLINK`. See (I1).
    pub(crate) next: u32,
}

/// A node: an item header, an option node or a spacer (see the layout table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Node {
    /// `ULINK`. See (I2); in a spacer, the first node of the option before it.
    pub(crate) up: u32,
    /// `DLINK`. See (I2); in a spacer, the last node of the option after it.
    pub(crate) down: u32,
    /// `TOP` in option nodes (the item, `>= 1`) and spacers (`<= 0`), `LEN` in headers.
    /// See (I2), (I3).
    pub(crate) top: i32,
    /// In an option node, the first node of its option; 0 in headers and spacers. See (I3).
    ///
    /// Redundant with the spacers, but it lets `hide` walk the part of an option left of `p`
    /// as a plain range instead of going to the spacer on the right and back, and it lies in
    /// the cache line of `p`, which `cover` has just read.
    pub(crate) first: u32,
}

/// The dancing-links arena built from a [`Problem`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Arena {
    /// Item links: 0 is the root, `1..=n` the items, `n + 1` the secondary head.
    pub(crate) items: Vec<Link>,
    /// Headers, spacers and option nodes.
    pub(crate) nodes: Vec<Node>,
    /// `COLOR` of every node, or empty when the problem has no colors.
    pub(crate) colors: Vec<i32>,
    /// Number of items (`N`).
    pub(crate) n_items: u32,
    /// Number of primary items (`N1`).
    pub(crate) n_primary: u32,
    /// Arena item index -> the problem's item id.
    pub(crate) item_ids: Vec<ItemId>,
}

/// `Arena` methods that run the [`Links`] method of the same name on the arena's slices (see
/// [`Arena::links`]), with the item or node given; `<COLORED>` where the method has the
/// `COLORED` parameter.
macro_rules! on_links {
    ($($(#[$attr:meta])* fn $name:ident$(<$colored:ident>)?($arg:ident) $(-> $ret:ty)?;)*) => {$(
        $(#[$attr])*
        pub(crate) fn $name$(<const $colored: bool>)?(&mut self, $arg: u32) $(-> $ret)? {
            let mut links = self.links();
            links.$name$(::<$colored>)?($arg)
        }
    )*};
}

impl Arena {
    /// Builds the arena of `problem`, with every item and option active.
    pub(crate) fn new(problem: &Problem) -> Arena {
        let n = problem.item_count();
        // Arena order: primary items first, then secondary, each in declaration order.
        let mut arena_index = vec![0u32; n];
        let mut item_ids = vec![ItemId::default()];
        for kind in [ItemKind::Primary, ItemKind::Secondary] {
            for item in problem.items().filter(|&i| problem.item_kind(i) == kind) {
                arena_index[item.index()] = item_ids.len() as u32;
                item_ids.push(item);
            }
        }
        let n1 = problem.primary_count() as u32;
        let options = problem.options().map(|option| {
            problem
                .option(option)
                .iter()
                .map(|e| (arena_index[e.item.index()], e.color.map_or(0, |c| c.index() as i32 + 1)))
        });
        let sizes = (problem.option_count(), problem.entry_count());
        Arena::from_options(item_ids, n1, problem.has_colors(), sizes, options)
    }

    /// Builds an arena from its items (`item_ids[i]` for arena item `i`, primary items
    /// `1..=n1` first) and its options in order, each as its entries `(arena item, COLOR)`;
    /// `sizes` is the number of options and of entries. Option `k` of the iterator is option
    /// `k` of the arena (its spacers, (I3)).
    pub(crate) fn from_options<O, E>(
        item_ids: Vec<ItemId>,
        n1: u32,
        colored: bool,
        (option_count, entry_count): (usize, usize),
        options: O,
    ) -> Arena
    where
        O: Iterator<Item = E>,
        E: Iterator<Item = (u32, i32)>,
    {
        let n = item_ids.len() as u32 - 1;

        // (I1): the primary list through 0, the secondary list through n + 1.
        let mut items = vec![Link { prev: 0, next: 0 }; n as usize + 2];
        let mut link = |head: u32, members: std::ops::RangeInclusive<u32>| {
            let mut last = head;
            for i in members {
                items[last as usize].next = i;
                items[i as usize].prev = last;
                last = i;
            }
            items[last as usize].next = head;
            items[head as usize].prev = last;
        };
        link(0, 1..=n1);
        link(n + 1, n1 + 1..=n);

        let total = n as usize + 2 + option_count + entry_count;
        let mut nodes = Vec::with_capacity(total);
        nodes.push(Node { up: 0, down: 0, top: 0, first: 0 });
        for i in 1..=n {
            nodes.push(Node { up: i, down: i, top: 0, first: 0 });
        }
        let mut colors = if colored { vec![0i32; total] } else { Vec::new() };

        // The first spacer.
        let mut spacer = nodes.len();
        nodes.push(Node { up: 0, down: 0, top: 0, first: 0 });
        for (k, entries) in options.enumerate() {
            let first = nodes.len() as u32;
            for (i, color) in entries {
                let x = nodes.len() as u32;
                let last = nodes[i as usize].up;
                nodes.push(Node { up: last, down: i, top: i as i32, first });
                nodes[last as usize].down = x;
                nodes[i as usize].up = x;
                nodes[i as usize].top += 1;
                if color != 0 {
                    colors[x as usize] = color;
                }
            }
            let last = nodes.len() as u32 - 1;
            nodes[spacer].down = last;
            spacer = nodes.len();
            nodes.push(Node { up: first, down: 0, top: -(k as i32 + 1), first: 0 });
        }
        debug_assert_eq!(nodes.len(), total);
        Arena { items, nodes, colors, n_items: n, n_primary: n1, item_ids }
    }

    /// Node `x`, without a bounds check in release builds.
    ///
    /// Every link stored in the arena is an index into `nodes` or `items`: the constructor
    /// makes them so and every operation only copies links around ((I1)-(I3)), so the hot loops
    /// skip bounds checks. Debug builds (and so the tests) still check every access.
    #[inline(always)]
    pub(crate) fn node(&self, x: u32) -> &Node {
        debug_assert!((x as usize) < self.nodes.len(), "(I2) node {x} out of the arena");
        // SAFETY: `x` is a link read from the arena (or a header/spacer index computed from
        // one), hence in bounds by (I1)-(I3); debug builds check it above.
        unsafe { self.nodes.get_unchecked(x as usize) }
    }

    /// Item `i`'s links; see [`Arena::node`].
    #[inline(always)]
    pub(crate) fn item(&self, i: u32) -> &Link {
        debug_assert!((i as usize) < self.items.len(), "(I1) item {i} out of the arena");
        // SAFETY: `i` is an item link or a node's TOP, in bounds by (I1) and (I3).
        unsafe { self.items.get_unchecked(i as usize) }
    }

    /// `LEN(i)`.
    #[inline(always)]
    pub(crate) fn len(&self, i: u32) -> u32 {
        self.node(i).top as u32
    }

    /// The options in order, each as the range of its nodes in `nodes` (between two spacers,
    /// (I3)); the option of index `k` is the `k`-th.
    pub(crate) fn option_nodes(&self) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
        let mut start = self.n_items as usize + 2;
        (start..self.nodes.len()).filter(|&x| self.nodes[x].top <= 0).map(move |spacer| {
            let range = start..spacer;
            start = spacer + 1;
            range
        })
    }

    /// The option of option node `x`: the spacer before its option ends option `k - 1` and
    /// has `TOP = -k` (the first spacer has `TOP = 0`), (I3).
    #[inline]
    pub(crate) fn option_of(&self, x: u32) -> OptionId {
        let spacer = self.node(self.node(x).first - 1);
        debug_assert!(self.node(x).top > 0 && spacer.top <= 0, "(I3) node {x} is not in an option");
        OptionId::from_u32(spacer.top.unsigned_abs())
    }

    on_links! {
        /// Removes item `i` from its horizontal list and hides every option in its vertical list
        /// (Knuth's `cover(i)`; with colors, `cover'(i)` of Algorithm C). Returns the updates made.
        ///
        /// Requires: `i` active. Effect: `i` inactive, and no other active item's list holds a node
        /// of an option through `i`. Undone by [`Arena::uncover`].
        #[inline(always)]
        fn cover<COLORED>(i) -> u64;
        /// Undoes [`Arena::cover`] of `i` (Knuth's `uncover(i)`), unhiding bottom-up.
        #[inline(always)]
        fn uncover<COLORED>(i);
        /// Covers every item of `x`'s option except `x`'s own, left to right (step X5/C5):
        /// uncolored items are covered, colored ones purified, purified ones left alone.
        /// Returns the updates made. Undone by [`Arena::uncover_others`].
        #[inline(always)]
        fn cover_others<COLORED>(x) -> u64;
        /// Undoes [`Arena::cover_others`] of `x`, right to left (step X6/C6).
        #[inline(always)]
        fn uncover_others<COLORED>(x);
        /// Hides every node of `p`'s option except `p` (Knuth's `hide(p)`; with colors, purified
        /// nodes are skipped). Returns the updates made. Algorithm M's *tweak* of an item that
        /// stays active (see `solver/mcc.rs`). Undone by [`Arena::unhide`].
        #[inline(always)]
        fn hide<COLORED>(p) -> u64;
        /// Undoes [`Arena::hide`] of `p`.
        #[inline(always)]
        fn unhide<COLORED>(p);
        /// Knuth's `purify(p)` (Algorithm C): see `Links::purify`. Undone by [`Arena::unpurify`].
        fn purify(p) -> u64;
        /// Undoes [`Arena::purify`] of `p`.
        fn unpurify(p);
    }

    /// The arena's arrays as plain slices, for the hot loops.
    ///
    /// Through `&mut self` every store to a node could, as far as the compiler knows, change
    /// the `Vec`s' own pointers, which it then reloaded after each store; slices taken once
    /// hold their pointers in registers.
    #[inline(always)]
    fn links(&mut self) -> Links<'_> {
        Links { items: &mut self.items, nodes: &mut self.nodes, colors: &mut self.colors }
    }

    /// Removes option node `p` from its own item's list, keeping its links (I4); `LEN`
    /// decreases. The second half of Algorithm M's tweak.
    #[inline(always)]
    pub(crate) fn unlink_node(&mut self, p: u32) {
        let node = *self.node(p);
        let mut links = self.links();
        links.unlink(node);
    }

    /// Checks invariants (I1)-(I3) by walking every list (Knuth's `sanity()`).
    ///
    /// # Panics
    /// With a message naming the broken invariant.
    pub(crate) fn check_invariants(&self) {
        let n = self.n_items;
        let heads = [(0u32, 1..=self.n_primary), (n + 1, self.n_primary + 1..=n)];
        let mut active = vec![false; n as usize + 2];
        for (head, range) in heads {
            let mut i = self.items[head as usize].next;
            let mut prev = head;
            let mut steps = 0;
            while i != head {
                assert!(range.contains(&i), "(I1) item {i} is in the wrong list");
                assert_eq!(self.items[i as usize].prev, prev, "(I1) prev link of item {i}");
                active[i as usize] = true;
                prev = i;
                i = self.items[i as usize].next;
                steps += 1;
                assert!(steps <= n, "(I1) item list of {head} does not return to its head");
            }
            assert_eq!(self.items[head as usize].prev, prev, "(I1) prev link of head {head}");
        }
        for i in 1..=n {
            // Secondary items stay in their list; a covered one is still walked if active.
            if !active[i as usize] {
                continue;
            }
            let mut x = self.nodes[i as usize].down;
            let mut prev = i;
            let mut count = 0u32;
            while x != i {
                let node = self.nodes[x as usize];
                assert_eq!(node.top, i as i32, "(I2) node {x} in the list of item {i}");
                assert_eq!(node.up, prev, "(I2) up link of node {x}");
                prev = x;
                x = node.down;
                count += 1;
                assert!(count as usize <= self.nodes.len(), "(I2) list of {i} does not close");
            }
            assert_eq!(self.nodes[i as usize].up, prev, "(I2) up link of header {i}");
            assert_eq!(self.len(i), count, "(I2) LEN of item {i}");
        }
        // (I3): spacers delimit contiguous options.
        let mut s = n as usize + 1;
        let mut option = 0i32;
        assert!(self.nodes[s].top <= 0, "(I3) node {s} must be the first spacer");
        while s + 1 < self.nodes.len() {
            let first = s + 1;
            let mut end = first;
            while self.nodes[end].top > 0 {
                assert!(self.nodes[end].top as u32 <= n, "(I3) node {end} has a bad TOP");
                assert_eq!(self.nodes[end].first as usize, first, "(I3) FIRST of node {end}");
                end += 1;
            }
            option += 1;
            assert_eq!(self.nodes[end].top, -option, "(I3) spacer {end}");
            assert_eq!(self.nodes[end].up as usize, first, "(I3) ULINK of spacer {end}");
            assert_eq!(self.nodes[s].down as usize, end - 1, "(I3) DLINK of spacer {s}");
            s = end;
        }
    }
}

/// The arena's links as slices: the dancing itself (see [`Arena::links`]).
struct Links<'a> {
    items: &'a mut [Link],
    nodes: &'a mut [Node],
    /// Empty when the problem has no colors (then only `COLORED = false` code runs).
    colors: &'a mut [i32],
}

impl Links<'_> {
    /// Node `x`, without a bounds check in release builds.
    ///
    /// Every link stored in the arena is an index into `nodes` or `items`: the constructor
    /// makes them so and every operation only copies links around ((I1)-(I3)), so the hot loops
    /// skip bounds checks. Debug builds (and so the tests) still check every access.
    #[inline(always)]
    fn node(&self, x: u32) -> Node {
        debug_assert!((x as usize) < self.nodes.len(), "(I2) node {x} out of the arena");
        // SAFETY: `x` is a link read from the arena (or a header/spacer index computed from
        // one), hence in bounds by (I1)-(I3); debug builds check it above.
        unsafe { *self.nodes.get_unchecked(x as usize) }
    }

    /// Node `x`, mutably; see [`Links::node`].
    #[inline(always)]
    fn node_mut(&mut self, x: u32) -> &mut Node {
        debug_assert!((x as usize) < self.nodes.len(), "(I2) node {x} out of the arena");
        // SAFETY: as in `node`.
        unsafe { self.nodes.get_unchecked_mut(x as usize) }
    }

    /// Item `i`'s links, mutably; see [`Links::node`].
    #[inline(always)]
    fn item_mut(&mut self, i: u32) -> &mut Link {
        debug_assert!((i as usize) < self.items.len(), "(I1) item {i} out of the arena");
        // SAFETY: `i` is an item link or a node's TOP, in bounds by (I1) and (I3).
        unsafe { self.items.get_unchecked_mut(i as usize) }
    }

    /// `COLOR(x)`; only called when the problem has colors (then `colors` covers every node).
    #[inline(always)]
    fn color(&self, x: u32) -> i32 {
        self.colors[x as usize]
    }

    /// See [`Arena::cover`].
    #[inline(always)]
    fn cover<const COLORED: bool>(&mut self, i: u32) -> u64 {
        let Link { prev, next } = *self.item_mut(i);
        self.item_mut(prev).next = next;
        self.item_mut(next).prev = prev;
        let mut updates = 1;
        let mut p = self.node(i).down;
        while p != i {
            updates += self.hide::<COLORED>(p);
            p = self.node(p).down;
        }
        updates
    }

    /// See [`Arena::uncover`].
    #[inline(always)]
    fn uncover<const COLORED: bool>(&mut self, i: u32) {
        let mut p = self.node(i).up;
        while p != i {
            self.unhide::<COLORED>(p);
            p = self.node(p).up;
        }
        let Link { prev, next } = *self.item_mut(i);
        self.item_mut(prev).next = i;
        self.item_mut(next).prev = i;
    }

    /// Unlinks every node of `p`'s option except `p` from its vertical list (Knuth's
    /// `hide(p)`; with colors, `hide'(p)` skips purified nodes). Returns the updates made.
    ///
    /// Knuth walks the option rightwards from `p`, wrapping around at the spacer (I3); here the
    /// part right of `p` is walked to the spacer, and the part left of `p` as a plain range
    /// from `FIRST(p)`. The nodes of one option lie in distinct vertical lists, so the order
    /// within the option does not matter.
    ///
    /// Requires: `p` an option node. Undone by [`Links::unhide`] of the same `p`, (I4).
    #[inline(always)]
    fn hide<const COLORED: bool>(&mut self, p: u32) -> u64 {
        let first = self.node(p).first;
        let mut updates = 0;
        let mut q = p + 1;
        loop {
            let node = self.node(q);
            if node.top <= 0 {
                break;
            }
            if !COLORED || self.color(q) >= 0 {
                self.unlink(node);
                updates += 1;
            }
            q += 1;
        }
        let mut q = first;
        while q < p {
            let node = self.node(q);
            if !COLORED || self.color(q) >= 0 {
                self.unlink(node);
                updates += 1;
            }
            q += 1;
        }
        updates
    }

    /// Undoes [`Links::hide`] of `p`. (Within one option the order does not matter: its
    /// nodes lie in distinct vertical lists.)
    #[inline(always)]
    fn unhide<const COLORED: bool>(&mut self, p: u32) {
        let first = self.node(p).first;
        let mut q = p + 1;
        loop {
            let node = self.node(q);
            if node.top <= 0 {
                break;
            }
            if !COLORED || self.color(q) >= 0 {
                self.relink(q, node);
            }
            q += 1;
        }
        let mut q = first;
        while q < p {
            let node = self.node(q);
            if !COLORED || self.color(q) >= 0 {
                self.relink(q, node);
            }
            q += 1;
        }
    }

    /// Removes option node `node` from its vertical list; `LEN` decreases.
    #[inline(always)]
    fn unlink(&mut self, node: Node) {
        let Node { up, down, top, .. } = node;
        self.node_mut(up).down = down;
        self.node_mut(down).up = up;
        self.node_mut(top as u32).top -= 1;
    }

    /// Puts option node `q` (whose fields are `node`) back in its vertical list; `LEN`
    /// increases.
    #[inline(always)]
    fn relink(&mut self, q: u32, node: Node) {
        let Node { up, down, top, .. } = node;
        self.node_mut(up).down = q;
        self.node_mut(down).up = q;
        self.node_mut(top as u32).top += 1;
    }

    /// Keeps, in the list of secondary item `TOP(p)`, only the options that give it `p`'s
    /// color: their nodes are marked purified (`COLOR = -1`), all other options are hidden
    /// (Knuth's `purify(p)`, Algorithm C). Returns the updates made.
    ///
    /// Requires: `COLOR(p) > 0`. Undone by [`Links::unpurify`].
    fn purify(&mut self, p: u32) -> u64 {
        let c = self.color(p);
        let i = self.node(p).top as u32;
        self.colors[i as usize] = c;
        let mut updates = 0;
        let mut q = self.node(i).down;
        while q != i {
            if self.color(q) == c {
                // `p` itself is normally hidden already (its option is the one being tried);
                // if not, it keeps its color so that `unpurify(p)` can read it.
                if q != p {
                    self.colors[q as usize] = -1;
                }
            } else {
                updates += self.hide::<true>(q);
            }
            q = self.node(q).down;
        }
        updates
    }

    /// Undoes [`Links::purify`] of `p`, bottom-up.
    fn unpurify(&mut self, p: u32) {
        let i = self.node(p).top as u32;
        let c = self.color(i);
        let mut q = self.node(i).up;
        while q != i {
            if self.color(q) < 0 {
                self.colors[q as usize] = c;
            } else {
                self.unhide::<true>(q);
            }
            q = self.node(q).up;
        }
        self.colors[i as usize] = 0;
    }

    /// See [`Arena::cover_others`].
    #[inline(always)]
    fn cover_others<const COLORED: bool>(&mut self, x: u32) -> u64 {
        let mut updates = 0;
        let mut p = x + 1;
        while p != x {
            let Node { up, top, .. } = self.node(p);
            if top <= 0 {
                p = up;
                continue;
            }
            if COLORED {
                let c = self.color(p);
                if c == 0 {
                    updates += self.cover::<true>(top as u32);
                } else if c > 0 {
                    updates += self.purify(p);
                }
            } else {
                updates += self.cover::<false>(top as u32);
            }
            p += 1;
        }
        updates
    }

    /// See [`Arena::uncover_others`].
    #[inline(always)]
    fn uncover_others<const COLORED: bool>(&mut self, x: u32) {
        let mut p = x - 1;
        while p != x {
            let Node { down, top, .. } = self.node(p);
            if top <= 0 {
                p = down;
                continue;
            }
            if COLORED {
                let c = self.color(p);
                if c == 0 {
                    self.uncover::<true>(top as u32);
                } else if c > 0 {
                    self.unpurify(p);
                }
            } else {
                self.uncover::<false>(top as u32);
            }
            p -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ProblemBuilder;

    fn toy() -> Problem {
        let mut b = ProblemBuilder::new();
        for name in ["a", "b", "c", "d", "e", "f", "g"] {
            b.primary(name).unwrap();
        }
        b.secondary("x").unwrap();
        for option in ["c e x:1", "a d g", "b c f x:2", "a d f x:1", "b g", "d e g x"] {
            b.option_by_names(option.split(' ')).unwrap();
        }
        b.build()
    }

    #[test]
    fn layout_matches_knuth() {
        let arena = Arena::new(&toy());
        arena.check_invariants();
        assert_eq!(arena.n_items, 8);
        assert_eq!(arena.n_primary, 7);
        assert_eq!(arena.len(1), 2); // a
        assert_eq!(arena.len(4), 3); // d
        assert_eq!(arena.len(8), 4); // x
                                     // The first spacer follows the headers, and the first option is `c e x:1`.
        assert_eq!(arena.nodes[9].top, 0);
        assert_eq!(arena.nodes[10].top, 3);
        assert_eq!(arena.colors[12], 1);
        assert_eq!(arena.nodes[9].down, 12);
        assert_eq!(arena.nodes[13].up, 10);
        assert_eq!(arena.option_of(10).index(), 0);
    }

    /// Knuth's toy problem without colors or secondary items: the uncolored code paths (the
    /// search's hot loop).
    fn plain_toy() -> Problem {
        let mut b = ProblemBuilder::new();
        for name in ["a", "b", "c", "d", "e", "f", "g"] {
            b.primary(name).unwrap();
        }
        for option in ["c e", "a d g", "b c f", "a d f", "b g", "d e g"] {
            b.option_by_names(option.split(' ')).unwrap();
        }
        b.build()
    }

    /// For every option node `x`: covers its item and the option's other items, as the search
    /// does, checks the arena, undoes both, and compares with `fresh`.
    fn each_option_is_undone<const COLORED: bool>(arena: &mut Arena, fresh: &Arena) {
        let first_option = arena.n_items + 2;
        for x in first_option..arena.nodes.len() as u32 {
            if arena.nodes[x as usize].top <= 0 {
                continue;
            }
            // As in the search: the option's own item is covered first.
            let i = arena.nodes[x as usize].top as u32;
            let _ = arena.cover::<COLORED>(i);
            let _ = arena.cover_others::<COLORED>(x);
            arena.check_invariants();
            arena.uncover_others::<COLORED>(x);
            arena.uncover::<COLORED>(i);
            assert_eq!(*arena, *fresh, "cover_others({x})");
        }
    }

    #[test]
    fn every_uncolored_operation_is_undone() {
        let fresh = Arena::new(&plain_toy());
        assert!(fresh.colors.is_empty());
        let mut arena = fresh.clone();
        for i in 1..=7 {
            let updates = arena.cover::<false>(i);
            // The item itself, and each node of the other items of its options.
            let mut expected = 1;
            let mut p = fresh.nodes[i as usize].down;
            while p != i {
                let first = fresh.nodes[p as usize].first as usize;
                let end = (first..).find(|&q| fresh.nodes[q].top <= 0).unwrap();
                expected += (end - first - 1) as u64;
                p = fresh.nodes[p as usize].down;
            }
            assert_eq!(updates, expected, "cover({i})");
            arena.check_invariants();
            arena.uncover::<false>(i);
            assert_eq!(arena, fresh);
        }
        each_option_is_undone::<false>(&mut arena, &fresh);
    }

    #[test]
    fn every_operation_is_undone() {
        let fresh = Arena::new(&toy());
        let mut arena = fresh.clone();
        for i in 1..=8 {
            let u = arena.cover::<true>(i);
            assert!(u >= 1);
            arena.check_invariants();
            arena.uncover::<true>(i);
            assert_eq!(arena, fresh);
        }
        each_option_is_undone::<true>(&mut arena, &fresh);
        // Nested, strictly LIFO.
        let _ = arena.cover::<true>(1);
        let _ = arena.cover_others::<true>(arena.nodes[1].down);
        let _ = arena.cover::<true>(2);
        arena.check_invariants();
        arena.uncover::<true>(2);
        arena.uncover_others::<true>(arena.nodes[1].down);
        arena.uncover::<true>(1);
        assert_eq!(arena, fresh);
    }
}
