//! Tests of the sliding-tile solver: optimality against BFS, agreement of the algorithms,
//! incremental heuristics, Korf's instances, limits and errors.

use std::sync::{Arc, OnceLock};

use proptest::prelude::*;

use super::packed::Word;
use super::space::{Geometry, LinearConflict, Manhattan, State, TileHeuristic, TileSpace};
use super::*;
use crate::algorithms::bfs_explore;

const KORF: &str = include_str!("../../../../testdata/ground-truth/korf100_15puzzle.tsv");

/// The database of a side and goal, built once per test binary.
fn pdb(side: usize, goal: Goal) -> Arc<Pdb> {
    static PDBS: [OnceLock<Arc<Pdb>>; 6] = [const { OnceLock::new() }; 6];
    let slot = 2 * (side - 2) + usize::from(goal == Goal::BlankLast);
    PDBS[slot].get_or_init(|| Arc::new(Pdb::build(side, goal).unwrap())).clone()
}

/// The 8-puzzle's large database (6-2, ranked) of a goal, built once per test binary.
fn large_pdb(goal: Goal) -> Arc<Pdb> {
    static PDBS: [OnceLock<Arc<Pdb>>; 2] = [const { OnceLock::new() }; 2];
    PDBS[usize::from(goal == Goal::BlankLast)]
        .get_or_init(|| Arc::new(Pdb::build_in_memory(3, goal, Partition::Large, None).unwrap()))
        .clone()
}

fn board_of<W: Word>(side: usize, cells: W) -> Board {
    Board::new((0..side * side).map(|i| cells.get(i) as u8).collect()).unwrap()
}

fn options(goal: Goal, algorithm: Algorithm, heuristic: Heuristic) -> SolveOptions {
    let mut o = SolveOptions::new(goal).algorithm(algorithm).heuristic(heuristic);
    if heuristic == Heuristic::Pdb {
        let side = 3;
        o = o.pdb(pdb(side, goal));
    }
    o
}

/// A random walk of `steps` moves from the goal (a deterministic xorshift).
fn walk(side: usize, goal: Goal, steps: usize, seed: u64) -> Board {
    let mut board = Board::goal(side, goal);
    let mut rng = seed | 1;
    for _ in 0..steps {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let d = Dir::ALL[(rng % 4) as usize];
        board = board.apply(&[d]).unwrap_or(board);
    }
    board
}

#[test]
fn eight_puzzle_has_181440_states_and_every_depth_class_is_solved_optimally() {
    for goal in [Goal::BlankFirst, Goal::BlankLast] {
        let geo = Geometry::new(3, goal);
        let h = Manhattan::new(&geo);
        let space = TileSpace { geo: &geo, goal_cells: geo.goal_cells::<u64>(), heuristic: &h };
        let start = geo.pack::<u64, _>(&Board::goal(3, goal), &h);
        let mut by_depth: Vec<Vec<u64>> = Vec::new();
        let explored = bfs_explore(&space, start, &crate::Budget::new(), |s: &State<u64>, d| {
            let d = d as usize;
            if by_depth.len() <= d {
                by_depth.push(Vec::new());
            }
            by_depth[d].push(s.cells);
        });
        assert_eq!(explored.states(), 181_440);
        assert_eq!(explored.stop, crate::Stop::Exhausted);
        assert_eq!(explored.by_depth.len(), 32, "the 8-puzzle's diameter is 31");
        for (depth, class) in by_depth.iter().enumerate() {
            // Up to 6 states per class, spread over the class.
            let step = (class.len() / 6).max(1);
            for (k, &cells) in class.iter().step_by(step).enumerate() {
                let board = board_of(3, cells);
                for heuristic in [Heuristic::Manhattan, Heuristic::LinearConflict, Heuristic::Pdb] {
                    let s = solve(&board, &options(goal, Algorithm::IdaStar, heuristic)).unwrap();
                    assert_eq!(s.length, depth, "{heuristic:?} {board}");
                    assert_eq!(board.apply(&s.moves).unwrap(), Board::goal(3, goal));
                    assert!(s.initial_estimate as usize <= depth);
                }
                let large = SolveOptions::new(goal).heuristic(Heuristic::Pdb).pdb(large_pdb(goal));
                let s = solve(&board, &large).unwrap();
                assert_eq!(s.length, depth, "large pdb {board}");
                assert!(s.initial_estimate as usize <= depth);
                let algorithms: &[Algorithm] = if k == 0 && depth % 4 == 3 {
                    &[Algorithm::AStar, Algorithm::Bidirectional, Algorithm::Bfs]
                } else {
                    &[Algorithm::AStar, Algorithm::Bidirectional]
                };
                for &algorithm in algorithms {
                    let s = solve(&board, &options(goal, algorithm, Heuristic::LinearConflict))
                        .unwrap();
                    assert_eq!(s.length, depth, "{algorithm:?} {board}");
                    assert_eq!(board.apply(&s.moves).unwrap(), Board::goal(3, goal));
                }
            }
        }
        // IDDFS on the shallow classes.
        for class in &by_depth[..12] {
            let board = board_of(3, class[0]);
            let depth = by_depth.iter().position(|c| c.contains(&class[0])).unwrap();
            let s = solve(&board, &options(goal, Algorithm::Iddfs, Heuristic::Manhattan)).unwrap();
            assert_eq!(s.length, depth);
        }
    }
}

#[test]
fn korf_ten_known_lengths_with_the_pattern_database() {
    let options =
        SolveOptions::new(Goal::BlankFirst).heuristic(Heuristic::Pdb).pdb(pdb(4, Goal::BlankFirst));
    let mut checked = 0;
    for line in KORF.lines().filter(|l| !l.starts_with('#') && !l.starts_with("id")) {
        let fields: Vec<&str> = line.split('\t').collect();
        let Ok(length) = fields[1].parse::<usize>() else { continue };
        let board: Board = fields[2].parse().unwrap();
        let s = solve(&board, &options).unwrap();
        assert_eq!(s.length, length, "Korf #{}", fields[0]);
        assert_eq!(board.apply(&s.moves).unwrap(), Board::goal(4, Goal::BlankFirst));
        checked += 1;
    }
    assert_eq!(checked, 10);
}

#[test]
fn fifteen_puzzle_algorithms_agree_on_moderate_states() {
    for (i, steps) in [10, 20, 30, 40, 60].into_iter().enumerate() {
        let board = walk(4, Goal::BlankFirst, steps, 77 + i as u64);
        let lengths: Vec<usize> = [
            options(Goal::BlankFirst, Algorithm::IdaStar, Heuristic::Manhattan),
            options(Goal::BlankFirst, Algorithm::IdaStar, Heuristic::LinearConflict),
            SolveOptions::new(Goal::BlankFirst)
                .heuristic(Heuristic::Pdb)
                .pdb(pdb(4, Goal::BlankFirst)),
            options(Goal::BlankFirst, Algorithm::AStar, Heuristic::LinearConflict),
            options(Goal::BlankFirst, Algorithm::Bidirectional, Heuristic::Manhattan),
        ]
        .iter()
        .map(|o| solve(&board, o).unwrap().length)
        .collect();
        assert!(lengths.windows(2).all(|w| w[0] == w[1]), "{board}: {lengths:?}");
    }
}

#[test]
fn twenty_four_puzzle_solves_near_states() {
    let pdb5 = Arc::new(Pdb::build(5, Goal::BlankLast).unwrap());
    for seed in 1..4 {
        let board = walk(5, Goal::BlankLast, 40, seed);
        let a =
            solve(&board, &options(Goal::BlankLast, Algorithm::IdaStar, Heuristic::LinearConflict))
                .unwrap();
        let b = solve(
            &board,
            &SolveOptions::new(Goal::BlankLast).heuristic(Heuristic::Pdb).pdb(pdb5.clone()),
        )
        .unwrap();
        let c = solve(&board, &options(Goal::BlankLast, Algorithm::AStar, Heuristic::Manhattan))
            .unwrap();
        assert_eq!((a.length, b.length), (c.length, c.length), "{board}");
        assert_eq!(board.apply(&a.moves).unwrap(), Board::goal(5, Goal::BlankLast));
    }
}

#[test]
fn two_by_two_and_goal_itself() {
    for goal in [Goal::BlankFirst, Goal::BlankLast] {
        let g = Board::goal(2, goal);
        let s = solve(&g, &SolveOptions::new(goal)).unwrap();
        assert_eq!((s.length, s.moves.len()), (0, 0));
        let o = SolveOptions::new(goal).heuristic(Heuristic::Pdb).pdb(pdb(2, goal));
        let b = walk(2, goal, 7, 3);
        assert_eq!(
            solve(&b, &o).unwrap().length,
            solve(&b, &SolveOptions::new(goal).algorithm(Algorithm::Bfs)).unwrap().length
        );
    }
}

#[test]
fn errors_and_limits() {
    let korf1: Board = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3".parse().unwrap();
    let o = SolveOptions::new(Goal::BlankFirst).algorithm(Algorithm::Bfs);
    assert!(matches!(
        solve(&korf1, &o),
        Err(SlideError::TooMuchMemory { algorithm: Algorithm::Bfs, .. })
    ));
    // Manhattan distance says at least 41 moves: about 2 x 2.13^20.5 = 1.1e7 states.
    let o = SolveOptions::new(Goal::BlankFirst)
        .algorithm(Algorithm::Bidirectional)
        .limits(crate::Budget::new().max_states(1_000_000));
    assert!(matches!(solve(&korf1, &o), Err(SlideError::TooMuchMemory { .. })));
    let o = SolveOptions::new(Goal::BlankFirst)
        .algorithm(Algorithm::AStar)
        .limits(crate::Budget::new().max_states(10_000));
    let err = solve(&korf1, &o).unwrap_err();
    assert!(matches!(err, SlideError::Stopped { stop: crate::Stop::MemoryLimit, .. }), "{err}");
    assert!(err.to_string().contains("use IDA*"));
    let o = SolveOptions::new(Goal::BlankFirst).limits(crate::Budget::new().max_nodes(1000));
    assert!(matches!(
        solve(&korf1, &o),
        Err(SlideError::Stopped { stop: crate::Stop::NodeLimit, .. })
    ));
    let cancel = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let o = SolveOptions::new(Goal::BlankFirst).limits(crate::Budget::new().cancel(cancel));
    assert!(matches!(
        solve(&korf1, &o),
        Err(SlideError::Stopped { stop: crate::Stop::Cancelled, .. })
    ));
    let swapped: Board = "0 2 1 3 4 5 6 7 8".parse().unwrap();
    let err = solve(&swapped, &SolveOptions::new(Goal::BlankFirst)).unwrap_err();
    assert!(matches!(err, SlideError::Unsolvable { goal: Goal::BlankFirst }));
    let o = SolveOptions::new(Goal::BlankFirst).heuristic(Heuristic::Pdb);
    assert!(matches!(solve(&korf1, &o), Err(SlideError::PdbMissing)));
    let o = o.pdb(pdb(3, Goal::BlankFirst));
    assert!(matches!(solve(&korf1, &o), Err(SlideError::PdbMismatch { side: 3, .. })));
    assert!(matches!(estimate(&korf1, &SolveOptions::new(Goal::BlankFirst)), Ok(41)));
    for (side, partition) in
        [(2, Partition::Large), (5, Partition::Large), (6, Partition::Standard)]
    {
        let dir = std::env::temp_dir().join("never-written");
        let err = Pdb::build_resumable(
            side,
            Goal::BlankFirst,
            partition,
            &dir.join("x.bin"),
            None,
            std::time::Duration::from_secs(1),
            &mut |_| {},
        )
        .unwrap_err();
        match side {
            6 => assert!(matches!(err, SlideError::Size { side: 6 }), "{err}"),
            _ => assert!(matches!(err, SlideError::Partition { .. }), "{err}"),
        }
        assert!(!dir.exists());
    }
}

#[test]
fn the_resumable_build_saves_the_database_and_removes_its_work() {
    let dir = tempfile::tempdir().unwrap();
    for goal in [Goal::BlankFirst, Goal::BlankLast] {
        let path = dir.path().join(Pdb::file_name(3, goal, Partition::Large).unwrap());
        let mut reports = 0;
        let every = std::time::Duration::ZERO; // a checkpoint at every step
        let built = Pdb::build_resumable(3, goal, Partition::Large, &path, None, every, &mut |p| {
            assert!(p.done <= p.total && p.total == 60_480 + 72);
            reports += 1;
        })
        .unwrap();
        assert!(reports > 20);
        assert_eq!(built, *large_pdb(goal));
        assert_eq!(built.pattern_name(), "6-2");
        assert_eq!(Pdb::load(&path).unwrap(), built);
        let mut part = path.clone().into_os_string();
        part.push(".part");
        assert!(!std::path::Path::new(&part).exists());
    }
}

#[test]
fn pdb_files_round_trip_and_corruption_is_rejected() {
    let dir = std::env::temp_dir().join(format!("dancecard-pdb-test-{}", std::process::id()));
    let path = dir.join(Pdb::file_name(3, Goal::BlankFirst, Partition::Standard).unwrap());
    let p = pdb(3, Goal::BlankFirst);
    p.save(&path).unwrap();
    assert_eq!(Pdb::load(&path).unwrap(), *p);
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    assert!(matches!(Pdb::load(&path), Err(PdbError::Corrupt(_))));
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(matches!(Pdb::load(&path), Err(PdbError::Io { .. })));
    assert_eq!(
        Pdb::file_name(4, Goal::BlankFirst, Partition::Standard).unwrap(),
        "pdb-v2-4x4-blank-first-6-6-3.bin"
    );
    assert_eq!(
        Pdb::file_name(4, Goal::BlankLast, Partition::Large).unwrap(),
        "pdb-v2-4x4-blank-last-8-7.bin"
    );
    assert_eq!(Pdb::file_name(5, Goal::BlankFirst, Partition::Large), None);
}

/// Checks that a heuristic's incremental value equals its full value along a walk.
fn incremental_matches<H: TileHeuristic<W>, W: Word>(side: usize, goal: Goal, h: &H, dirs: &[u8]) {
    let geo = Geometry::new(side, goal);
    let space = TileSpace { geo: &geo, goal_cells: geo.goal_cells::<W>(), heuristic: h };
    let mut state: State<W> = geo.pack(&Board::goal(side, goal), h);
    let mut buf = Vec::new();
    for &d in dirs {
        buf.clear();
        crate::Space::successors(&space, &state, &mut buf);
        state = buf[usize::from(d) % buf.len()].state;
        assert_eq!(state.h, h.full(&geo, state.cells, state.pos));
        let board = board_of(side, state.cells);
        assert_eq!(geo.pack::<W, H>(&board, h).pos, state.pos);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn incremental_heuristics_equal_full_recomputation(
        dirs in proptest::collection::vec(0u8..4, 0..200),
        last in any::<bool>(),
    ) {
        let goal = if last { Goal::BlankLast } else { Goal::BlankFirst };
        for side in 2..=4 {
            let geo = Geometry::new(side, goal);
            incremental_matches::<_, u64>(side, goal, &Manhattan::new(&geo), &dirs);
            incremental_matches::<_, u64>(side, goal, &LinearConflict::new(&geo), &dirs);
        }
        let geo = Geometry::new(5, goal);
        incremental_matches::<_, u128>(5, goal, &Manhattan::new(&geo), &dirs);
        incremental_matches::<_, u128>(5, goal, &LinearConflict::new(&geo), &dirs);
        let p = pdb(3, goal);
        incremental_matches::<_, u64>(3, goal, &PdbHeuristic { pdb: &p }, &dirs);
        let p = large_pdb(goal);
        incremental_matches::<_, u64>(3, goal, &PdbHeuristic { pdb: &p }, &dirs);
    }

    #[test]
    fn solvability_is_reachability(tiles in Just((0u8..9).collect::<Vec<_>>()).prop_shuffle()) {
        // On the 8-puzzle, solvable states are exactly those BFS reaches (checked through
        // bidirectional search, which ends with a path or an exhausted side).
        let board = Board::new(tiles).unwrap();
        let o = SolveOptions::new(Goal::BlankFirst).algorithm(Algorithm::Bidirectional);
        match solve(&board, &o) {
            Ok(s) => {
                prop_assert!(board.is_solvable(Goal::BlankFirst));
                prop_assert_eq!(board.apply(&s.moves).unwrap(), Board::goal(3, Goal::BlankFirst));
            }
            Err(SlideError::Unsolvable { .. }) => prop_assert!(!board.is_solvable(Goal::BlankFirst)),
            Err(e) => prop_assert!(false, "{}", e),
        }
    }
}
