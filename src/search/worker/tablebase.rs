//! The search's use of the endgame tablebases (`search::syzygy`): a node whose outcome the WDL
//! tables know is cut like a transposition-table hit, and the answer is stored in the table.

use super::{Shared, Worker};
use crate::bound::Bound;
use crate::eval::evaluate;
use crate::rules::Board;
use crate::search::syzygy::TB_WIN;
use crate::search::MAX_PLY;
use std::sync::atomic::Ordering;

/// Depth credited to a tablebase answer in the transposition table: it is exact however deep
/// the search would have gone.
const TB_DEPTH_BONUS: i32 = 6;

impl Worker {
    /// The node's score when the tables settle it within (`alpha`, `beta`); `None` when they
    /// do not cover the node or only bound it on the wrong side (then the search goes on).
    pub(super) fn probe_tablebases(
        &mut self,
        board: &Board,
        shared: &Shared,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
    ) -> Option<i32> {
        let score = shared.syzygy?.node_score(board, depth, ply)?;
        shared.tb_hits.fetch_add(1, Ordering::Relaxed);
        // A win is at least this good (a mate may be found nearer), a loss at most this bad.
        let bound = if score >= TB_WIN - MAX_PLY as i32 {
            Bound::Lower
        } else if score <= -TB_WIN + MAX_PLY as i32 {
            Bound::Upper
        } else {
            Bound::Exact
        };
        if !bound.settles(score, alpha, beta) {
            return None;
        }
        let eval = if board.checkers().is_empty() {
            evaluate(board)
        } else {
            0
        };
        let depth = (depth + TB_DEPTH_BONUS).min(MAX_PLY as i32 - 1);
        shared
            .tt
            .store(board.hash(), ply, None, score, eval, depth, bound);
        Some(score)
    }
}
