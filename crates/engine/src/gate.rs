//! Which method handles which kind of problem: the capability table, and the check every
//! method makes before it runs.
//!
//! A *method* is a way to search ([`Method`]); a *feature* is a kind of problem the DLX
//! format can write ([`Feature`]): secondary items, colors, multiplicities (bounds `a:b` on
//! primary items, Knuth's DLX3) and costs (DLX5). Every method either gives the exact answer
//! on every problem with a feature, or refuses every such problem with [`Unsupported`],
//! which names the method, the feature and the first item or option that has it. There is no
//! third way: a method never runs on a problem it was not written for (as regex's meta engine
//! never runs a fast engine on a pattern it cannot serve).
//!
//! | method | secondary items | colors | multiplicities | costs |
//! | --- | --- | --- | --- | --- |
//! | search | yes | yes | yes | yes (ignored) |
//! | memo | yes | yes | yes | yes (ignored) |
//! | auto | yes | yes | yes | yes (ignored) |
//! | zdd | yes | yes | yes | yes (ignored) |
//! | sample | yes | yes | yes | yes (ignored) |
//! | estimate | yes | yes | yes | yes (ignored) |
//! | threads | yes | yes | yes | yes (ignored) |
//! | shards | yes | yes | yes | yes (ignored) |
//! | pre | yes | yes | no | yes |
//! | min-cost | yes | yes | yes | yes |
//! | frontier | yes | no | no | yes (ignored) |
//!
//! "Ignored" means the answer does not depend on the costs: a count counts every solution
//! whatever it costs. The table is [`supports`]; `docs/capabilities.md` prints it, and a test
//! checks the two against each other.
//!
//! ```
//! use dancecard_engine::{gate, Method, Feature, ProblemBuilder};
//!
//! let mut b = ProblemBuilder::new();
//! let a = b.primary_with_bounds("a", 1, 2)?;
//! b.option([a])?;
//! let problem = b.build();
//! assert!(gate::check(&problem, Method::MinCost).is_ok());
//! let refused = gate::check(&problem, Method::Pre).unwrap_err();
//! assert_eq!(refused.feature, Feature::Multiplicities);
//! assert_eq!(
//!     refused.to_string(),
//!     "pre does not handle multiplicities (item `a` has bounds 1:2)"
//! );
//! # Ok::<(), dancecard_engine::BuildError>(())
//! ```

use crate::problem::{ItemKind, Problem};

/// A way to search a problem, as the capability table names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Method {
    /// The plain search (Algorithms X, C and M): the first solution, all of them, their count.
    Search,
    /// The memoised count (Knuth's DLX6; with multiplicities, `mcc_memo.rs`).
    Memo,
    /// The count by whichever of the plain and the memoised search pays.
    Auto,
    /// The ZDD of all solutions, built by the memoised count.
    Zdd,
    /// Uniform samples of the solutions, drawn from the ZDD.
    Sample,
    /// Knuth's Monte Carlo estimate of the plain search's tree.
    Estimate,
    /// The plain search on several threads.
    Threads,
    /// The plain search split into subtrees (shards, clusters), their counts merged.
    Shards,
    /// Preprocessing (Knuth's DLX-PRE): options no solution uses removed.
    Pre,
    /// The solutions of least total cost (Knuth's DLX5).
    MinCost,
    /// The count by stages from both ends (`frontier.rs`).
    Frontier,
}

impl Method {
    /// Every method, in the order of the capability table.
    pub const ALL: [Method; 11] = [
        Method::Search,
        Method::Memo,
        Method::Auto,
        Method::Zdd,
        Method::Sample,
        Method::Estimate,
        Method::Threads,
        Method::Shards,
        Method::Pre,
        Method::MinCost,
        Method::Frontier,
    ];

    /// The method's name in the table and in messages: `search`, `memo`, `auto`, `zdd`,
    /// `sample`, `estimate`, `threads`, `shards`, `pre`, `min-cost`, `frontier`.
    pub fn name(self) -> &'static str {
        match self {
            Method::Search => "search",
            Method::Memo => "memo",
            Method::Auto => "auto",
            Method::Zdd => "zdd",
            Method::Sample => "sample",
            Method::Estimate => "estimate",
            Method::Threads => "threads",
            Method::Shards => "shards",
            Method::Pre => "pre",
            Method::MinCost => "min-cost",
            Method::Frontier => "frontier",
        }
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A kind of problem a method may or may not handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Feature {
    /// Secondary items (covered at most once).
    Secondary,
    /// Colors on secondary items (Algorithm C).
    Colors,
    /// Bounds `a:b` on primary items (Algorithm M, Knuth's DLX3).
    Multiplicities,
    /// Costs on options (Knuth's DLX5).
    Costs,
}

impl Feature {
    /// Every feature, in the order of the capability table.
    pub const ALL: [Feature; 4] =
        [Feature::Secondary, Feature::Colors, Feature::Multiplicities, Feature::Costs];

    /// The feature's name in the table and in messages: `secondary items`, `colors`,
    /// `multiplicities`, `costs`.
    pub fn name(self) -> &'static str {
        match self {
            Feature::Secondary => "secondary items",
            Feature::Colors => "colors",
            Feature::Multiplicities => "multiplicities",
            Feature::Costs => "costs",
        }
    }

    /// Where `problem` has this feature: a phrase naming the first item or option that has
    /// it (`item `x` has bounds 1:2`), or `None` when it has not.
    pub fn find(self, problem: &Problem) -> Option<String> {
        match self {
            Feature::Secondary => problem
                .items()
                .find(|&i| problem.item_kind(i) == ItemKind::Secondary)
                .map(|i| format!("item `{}` is secondary", problem.item_name(i))),
            Feature::Colors => problem
                .options()
                .find(|&o| problem.option(o).iter().any(|e| e.color.is_some()))
                .map(|o| format!("option {} (`{}`) has colors", o.index(), problem.option_text(o))),
            Feature::Multiplicities => problem.items().find_map(|i| match problem.item_bounds(i) {
                Some((lo, hi)) if (lo, hi) != (1, 1) => {
                    Some(format!("item `{}` has bounds {lo}:{hi}", problem.item_name(i)))
                }
                _ => None,
            }),
            Feature::Costs => problem.options().find(|&o| problem.option_cost(o) > 0).map(|o| {
                format!(
                    "option {} (`{}`) costs {}",
                    o.index(),
                    problem.option_text(o),
                    problem.option_cost(o)
                )
            }),
        }
    }
}

impl std::fmt::Display for Feature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether `method` gives exact answers on problems with `feature` (the capability table of
/// the [module documentation](self)). `false` means it refuses them.
pub const fn supports(method: Method, feature: Feature) -> bool {
    !matches!(
        (method, feature),
        (Method::Pre, Feature::Multiplicities)
            | (Method::Frontier, Feature::Colors | Feature::Multiplicities)
    )
}

/// A method asked to run on a kind of problem it does not handle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{method} does not handle {feature} ({place})")]
pub struct Unsupported {
    /// The method.
    pub method: Method,
    /// The feature it does not handle.
    pub feature: Feature,
    /// Where the problem has it: the first item or option, in words.
    pub place: String,
}

/// Checks that `method` handles every feature of `problem`; the first one it does not is
/// the error.
pub fn check(problem: &Problem, method: Method) -> Result<(), Unsupported> {
    for feature in Feature::ALL {
        if supports(method, feature) {
            continue;
        }
        if let Some(place) = feature.find(problem) {
            return Err(Unsupported { method, feature, place });
        }
    }
    Ok(())
}

/// The features of one problem, with their places, for a solver to check its methods
/// against without the problem at hand.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Features {
    /// Per feature of [`Feature::ALL`], where the problem has it, if it does; only the
    /// features some method does not handle are looked for.
    places: [Option<String>; 4],
}

impl Features {
    /// The features of `problem` that some method does not handle.
    pub(crate) fn of(problem: &Problem) -> Features {
        let mut places: [Option<String>; 4] = Default::default();
        for (k, feature) in Feature::ALL.into_iter().enumerate() {
            if Method::ALL.iter().any(|&m| !supports(m, feature)) {
                places[k] = feature.find(problem);
            }
        }
        Features { places }
    }

    /// [`check`], from the features found.
    pub(crate) fn check(&self, method: Method) -> Result<(), Unsupported> {
        for (k, feature) in Feature::ALL.into_iter().enumerate() {
            if let (false, Some(place)) = (supports(method, feature), &self.places[k]) {
                return Err(Unsupported { method, feature, place: place.clone() });
            }
        }
        Ok(())
    }
}
