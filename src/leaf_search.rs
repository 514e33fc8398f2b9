//! Leaf searches: Tropa's own search to a fixed depth, as the book's leaf rater for `tropa book
//! build` and as the judge of a study proof's horizon leaves for `tropa study` and the study
//! mode of `tropa serve`.
//!
//! Design note: the book asks only for a `LeafRater` (`book::build`) and PIONEER only for a
//! `LeafJudge` (`pioneer::study`), so neither depends on the search; this is where they meet.
//! The book's rater clears its engine's table and histories before every position, which keeps
//! a book independent of the order its threads rate positions in; it evaluates by hand
//! (`Engine::new`), as when the committed book was built. A proof's judge keeps its table from
//! one position to the next: a proof asks about neighbouring positions, round after round, and
//! what one search stored shortens the next (docs/study.md has the figures). Its answers still
//! never change within a proof, as
//! it remembers every value it gave, and each study has a judge of its own, so a study's result
//! does not depend on what other studies ran beside it.

use crate::book::build::LeafRater;
use crate::eval::nnue::Network;
use crate::pioneer::uses::proof::ESTIMATE_DEPTH;
use crate::pioneer::uses::study::{LeafJudge, TABLE_WIN};
use crate::rules::{Board, Game};
use crate::search::{is_mate_score, Engine, Limits, SearchControl, Silent};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Rates a position by a search of `depth` plies on a one-thread engine.
pub struct SearchRater {
    engine: Engine,
    depth: i32,
    /// Whether the engine's table and histories are cleared before every position.
    fresh: bool,
}

impl SearchRater {
    /// A rater searching to `depth` plies with a table of `hash_mb` megabytes, cleared before
    /// every position.
    pub fn new(depth: i32, hash_mb: usize) -> Self {
        SearchRater {
            engine: Engine::new(hash_mb.max(1), 1),
            depth,
            fresh: true,
        }
    }

    /// The same rater keeping its table and histories from one position to the next.
    pub fn keeping_table(mut self) -> Self {
        self.fresh = false;
        self
    }

    /// The same rater evaluating with `network` (the hand-crafted evaluation with `None`).
    pub fn with_network(mut self, network: Option<Arc<Network>>) -> Self {
        self.engine.set_network(network);
        self
    }

    /// Nodes a search deeper than the rater's depth may take; one that does not reach its depth
    /// within them has no score (a middlegame full of checks can take minutes at depth 10).
    const DEEPER_NODES: u64 = 100_000;

    /// The score of a search of `game` `extra_plies` deeper than the rater's depth, or `None`
    /// when such a search (extra plies above 0) did not reach its depth within `DEEPER_NODES`.
    fn rate_deeper(&mut self, game: &Game, extra_plies: u32) -> Option<i32> {
        if self.fresh {
            self.engine.clear();
        }
        let depth = self.depth + extra_plies as i32;
        let limits = Limits {
            depth: Some(depth),
            nodes: (extra_plies > 0).then_some(Self::DEEPER_NODES),
            ..Default::default()
        };
        let result = self
            .engine
            .search(game, &limits, &SearchControl::new(), &mut Silent);
        (result.depth >= depth || extra_plies == 0).then_some(result.score)
    }
}

impl LeafRater for SearchRater {
    fn rate(&mut self, game: &Game) -> i32 {
        self.rate_deeper(game, 0).unwrap_or(0)
    }
}

/// Judges a proof's leaves with a `SearchRater` and estimates positions for its move order with
/// a shallower one, remembering every value: a proof searches its tree again in every round of a
/// growing budget and at every deeper horizon, so most positions are asked about many times,
/// and each time the first answer stands.
pub struct SearchJudge {
    rater: SearchRater,
    estimator: SearchRater,
    /// Values by position key, halfmove clock (the search sees the fifty-move rule) and the
    /// extra plies searched.
    known: HashMap<(u64, u8, u32), i32>,
    /// The estimator's values by position key and halfmove clock.
    estimates: HashMap<(u64, u8), i32>,
}

impl SearchJudge {
    /// Positions remembered at most; then the memory starts afresh.
    const MAX_KNOWN: usize = 1 << 20;

    /// A judge searching with `rater` and estimating with `estimator`.
    pub fn new(rater: SearchRater, estimator: SearchRater) -> Self {
        SearchJudge {
            rater,
            estimator,
            known: HashMap::new(),
            estimates: HashMap::new(),
        }
    }
}

/// The value `memory` holds for `key`, or `compute`'s, remembered (a full memory starts afresh,
/// after `SearchJudge::MAX_KNOWN` values).
fn remembered<K: std::hash::Hash + Eq>(
    memory: &mut HashMap<K, i32>,
    key: K,
    compute: impl FnOnce() -> i32,
) -> i32 {
    if let Some(&value) = memory.get(&key) {
        return value;
    }
    let value = compute();
    if memory.len() >= SearchJudge::MAX_KNOWN {
        memory.clear();
    }
    memory.insert(key, value);
    value
}

impl LeafJudge for SearchJudge {
    fn estimate(&mut self, board: &Board) -> i32 {
        let key = (board.hash(), board.halfmove_clock());
        remembered(&mut self.estimates, key, || {
            self.estimator.rate(&Game::from_board(board.clone(), false))
        })
    }

    fn value(&mut self, board: &Board, extra_plies: u32) -> i32 {
        let key = (board.hash(), board.halfmove_clock(), extra_plies);
        remembered(&mut self.known, key, || {
            let game = Game::from_board(board.clone(), false);
            // A deeper search that ran out of nodes says nothing: a draw confirms no win and
            // vetoes nothing.
            let score = self.rater.rate_deeper(&game, extra_plies).unwrap_or(0);
            if is_mate_score(score) {
                TABLE_WIN * score.signum()
            } else {
                score
            }
        })
    }
}

/// Table size (MB) of the search that judges a proof's leaves, kept from leaf to leaf.
const LEAF_HASH_MB: usize = 32;
/// Table size (MB) of the shallow search that orders a proof's moves.
const ESTIMATE_HASH_MB: usize = 1;

/// A judge of a proof's leaves searching to `depth` with `net` (the hand-crafted evaluation
/// without one), estimating positions for the proof's move order to `ESTIMATE_DEPTH` plies.
pub fn study_judge(depth: u32, net: Option<Arc<Network>>) -> Arc<Mutex<dyn LeafJudge>> {
    let rater = SearchRater::new(depth as i32, LEAF_HASH_MB)
        .with_network(net.clone())
        .keeping_table();
    let estimator = SearchRater::new(ESTIMATE_DEPTH as i32, ESTIMATE_HASH_MB)
        .with_network(net)
        .keeping_table();
    Arc::new(Mutex::new(SearchJudge::new(rater, estimator)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::build::{build, BuildConfig};
    use crate::rules::parse_fen;
    use std::path::PathBuf;

    /// As a proof's judge the search reports a mate it finds as a table win, for the side that
    /// mates, and a quiet position by its score; a position asked about again (for a value or an
    /// estimate) is not searched again.
    #[test]
    fn the_judge_reports_a_mate_as_a_table_win_and_remembers() {
        let net = Some(crate::eval::nnue::builtin());
        let rater = SearchRater::new(4, 1).with_network(net.clone());
        let mut judge = SearchJudge::new(rater, SearchRater::new(2, 1).with_network(net));
        let mates = parse_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", false).unwrap();
        assert_eq!(judge.value(&mates, 0), TABLE_WIN);
        let rook_down = parse_fen("6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", false).unwrap();
        let quiet = judge.value(&rook_down, 0);
        assert!(quiet.abs() < TABLE_WIN && quiet < 0, "{quiet}");
        assert_eq!(judge.known.len(), 2);
        assert_eq!(judge.value(&rook_down, 0), quiet);
        assert_eq!(judge.known.len(), 2);
        // The same pieces later in the fifty-move count are another position to the search.
        let later = parse_fen("6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 40 60", false).unwrap();
        judge.value(&later, 0);
        assert_eq!(judge.known.len(), 3);
        // The estimator, shallower, sees the rook too, and remembers as well.
        let estimate = judge.estimate(&rook_down);
        assert!(estimate < -300, "{estimate}");
        assert_eq!(judge.estimate(&rook_down), estimate);
        assert_eq!(judge.estimates.len(), 1);
    }

    #[test]
    fn a_searched_book_is_reproducible_whatever_the_threads() {
        let dir = std::env::temp_dir().join(format!("tropa-leaf-search-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pgn: PathBuf = dir.join("games.pgn");
        std::fs::write(
            &pgn,
            "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n[Result \"0-1\"]\n\n1. e4 e5 2. Nf3 Nf6 0-1\n\n\
             [Result \"1/2-1/2\"]\n\n1. d4 d5 2. c4 e6 1/2-1/2\n\n[Result \"1-0\"]\n\n1. d4 d5 2. c4 c6 1-0\n\n",
        )
        .unwrap();
        let rater = || Box::new(SearchRater::new(4, 1)) as Box<dyn LeafRater>;
        let config = |threads| BuildConfig {
            files: vec![pgn.clone()],
            plies: 4,
            min_games: 1,
            threads,
        };
        let (one, report) = build(&config(1), &rater, &mut |_, _| {}, &mut |_| {}).unwrap();
        let (two, _) = build(&config(2), &rater, &mut |_, _| {}, &mut |_| {}).unwrap();
        assert_eq!(report.searched, 4);
        assert_eq!(one.to_bytes(), two.to_bytes());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
