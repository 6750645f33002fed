//! The search loops, side by side. Each walks the same tree as Knuth's program for its
//! algorithm (the same nodes and updates), on its own data structure:
//!
//! | file | algorithm | data structure | used for |
//! | --- | --- | --- | --- |
//! | `links.rs` | X (DLX1), C with colors | dancing links (the [`Solver`](crate::Solver)'s arena) | every search |
//! | `bits.rs` | X | bit sets, `LEN` counted or kept | counts without colors, up to 8,192 options |
//! | `sliced.rs` | X | bit slices | counts of up to 64 primary items and 512 options |
//! | `mcc.rs`, `mcc_state.rs` | M (DLX3), multiplicities and colors | dancing links | every search with bounds |
//! | `mcc_bits.rs` | M | bit sets | counts with bounds, without colors |
//! | `cost.rs` | DLX5's branch and bound | the links, with costs | `min_cost` |
//! | `cost_bits.rs` | DLX5's branch and bound | bit sets | `min_cost` without colors |
//! | `cost_mcc.rs` | M with a cutoff | dancing links (`mcc.rs`'s loop) | `min_cost` with bounds |
//! | `relax.rs` | the taxes of both: DLX5's, the linear relaxation's | the options' items and costs | `min_cost` |
//! | `memo.rs` | X and C memoised (DLX6) | dancing links, a table of remaining problems | memo counts, the ZDD |
//! | `mcc_memo.rs` | M memoised | dancing links, a table | memo counts with bounds |
//!
//! The loops on the links are `impl Solver` blocks; the others take the arena (or a copy of
//! it) and a [`CountJob`](crate::plumbing::CountJob). All of them read the vocabulary of
//! `config.rs` and poll their limits through [`Limits`](crate::plumbing::Limits) every
//! [`Config::CHECK_INTERVAL`](crate::Config::CHECK_INTERVAL) nodes. The solver picks a kernel
//! (`Solver::pick_kernel`); no kernel imports another's loop.

pub(crate) mod bits;
pub(crate) mod cells;
pub(crate) mod cost;
pub(crate) mod cost_bits;
pub(crate) mod cost_mcc;
pub(crate) mod links;
pub(crate) mod mcc;
pub(crate) mod mcc_bits;
pub(crate) mod mcc_memo;
pub(crate) mod mcc_state;
pub(crate) mod memo;
pub(crate) mod relax;
pub(crate) mod sliced;
