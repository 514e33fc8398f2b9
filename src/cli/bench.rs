//! `tropa bench`: a fixed-depth search over a fixed set of positions. The node count is the
//! engine's signature (OpenBench-style `Bench: N` in commit messages); it must not vary between
//! runs, so every position starts from an empty table and empty histories, on one thread.

use crate::eval::nnue::Network;
use crate::rules::Game;
use crate::search::guide::Guide;
use crate::search::{Engine, Limits, SearchControl, Silent};
use std::sync::Arc;
use std::time::Instant;

/// Default depth of `tropa bench`.
pub const DEFAULT_DEPTH: i32 = 11;

/// The bench positions: openings, middlegames with tactics, and endgames of several kinds,
/// taken from public test suites (start position, Kiwipete and other
/// perft positions, Bratko–Kopec, Win At Chess) plus textbook endgames.
pub const POSITIONS: [&str; 36] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "rnb2r1k/pp2p2p/2pp2p1/q2P1p2/8/1Pb2NP1/PB2PPBP/R2Q1RK1 w - - 0 1",
    "2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - - 0 1",
    "r1bqkb1r/4npp1/p1p4p/1p1pP1B1/8/1B6/PPPN1PPP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/1ppnbppp/p2p1nb1/3Pp3/2P1P1P1/2N2N1P/PPB1QP2/R1B2RK1 b - - 0 1",
    "r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - - 0 1",
    "3rr3/2pq2pk/p2p1pnp/8/2QBPP2/1P6/P5PP/4RRK1 b - - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
    "8/k1b5/P4p2/1Pp2p1p/K1P2P1P/8/3B4/8 w - - 0 1",
    "8/8/p1p5/1p5p/1P5p/8/PPP2K1p/4R1rk w - - 0 1",
    "7k/5K2/5P1p/3p4/6P1/3p4/8/8 w - - 0 1",
    "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
    "8/8/4k3/8/8/8/2B5/1N2K3 w - - 0 1",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
    "8/5k2/8/2P5/8/8/1K6/8 b - - 0 1",
    "7K/8/k1P5/7p/8/8/8/8 w - - 0 1",
];

/// Runs the bench at `depth`; prints one line per position and the total. Returns the node count.
pub fn run(depth: i32, hash_mb: usize) -> u64 {
    run_with(depth, hash_mb, 1, false, None)
}

/// The bench on `threads` search threads (Lazy SMP), with PIONEER's zone moves as the search's
/// guide if `pioneer_guide`, evaluating with `net` if one is given. Only the one-thread count
/// is deterministic; more threads exercise the shared table and the helpers (a stress test, not
/// a signature).
pub fn run_with(
    depth: i32,
    hash_mb: usize,
    threads: usize,
    pioneer_guide: bool,
    net: Option<Arc<Network>>,
) -> u64 {
    let mut total_nodes = 0;
    let start = Instant::now();
    let mut engine = Engine::new(hash_mb, threads.max(1));
    engine.set_network(net);
    for (i, fen) in POSITIONS.iter().enumerate() {
        engine.clear();
        let game = Game::from_uci(Some(fen), &[], false).expect("bench positions are valid");
        let guide = if pioneer_guide {
            crate::uci::pioneer_search_guide(game.board())
        } else {
            Guide::NONE
        };
        let limits = Limits {
            depth: Some(depth),
            guide,
            ..Default::default()
        };
        let t = Instant::now();
        let result = engine.search(&game, &limits, &SearchControl::new(), &mut Silent);
        let best = result.best.map_or("none".to_string(), |m| {
            crate::rules::notation::move_to_san(game.board(), m)
        });
        say!(
            "{:2}/{} {:>9} nodes {:>6} ms  best {:7} score {:>6}  {}",
            i + 1,
            POSITIONS.len(),
            result.nodes,
            t.elapsed().as_millis(),
            best,
            result.score,
            fen
        );
        total_nodes += result.nodes;
    }
    let elapsed = start.elapsed().as_secs_f64().max(1e-9);
    say!(
        "{} nodes {} nps",
        total_nodes,
        (total_nodes as f64 / elapsed) as u64
    );
    total_nodes
}

#[cfg(test)]
mod tests {
    #[test]
    fn node_count_is_deterministic() {
        let first = super::run(5, 4);
        assert!(first > 10_000);
        assert_eq!(first, super::run(5, 4));
    }
}
