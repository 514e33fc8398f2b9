//! The search's use of the endgame tablebases (`search::syzygy`): a node whose outcome the WDL
//! tables know is cut like a transposition-table hit, and the answer is stored in the table.
//! A win or loss that does not settle the window (a mate may still be found nearer, or a
//! slower loss) bounds the score of a PV node instead, so that the main line's score says
//! what the tables know.

use super::{Shared, Worker};
use crate::bound::Bound;
use crate::eval::evaluate;
use crate::rules::Board;
use crate::search::params::TB_DEPTH_BONUS;
use crate::search::syzygy::TB_WIN;
use crate::search::MAX_PLY;
use std::sync::atomic::Ordering;

/// What the tables say of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TablebaseAnswer {
    /// The score settles the window: the node is cut.
    Cut(i32),
    /// A win that does not reach beta: the node's score is at least this.
    Floor(i32),
    /// A loss that does not fall to alpha: the node's score is at most this.
    Ceiling(i32),
}

impl Worker {
    /// What the tables say of the node within (`alpha`, `beta`); `None` when they do not
    /// cover it.
    pub(super) fn probe_tablebases(
        &mut self,
        board: &Board,
        shared: &Shared,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
    ) -> Option<TablebaseAnswer> {
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
            return Some(match bound {
                Bound::Lower => TablebaseAnswer::Floor(score),
                _ => TablebaseAnswer::Ceiling(score),
            });
        }
        let eval = if board.checkers().is_empty() {
            evaluate(board)
        } else {
            0
        };
        let depth = (depth + TB_DEPTH_BONUS).min(MAX_PLY as i32 - 1);
        shared
            .tt
            .store(board.hash(), ply, None, score, eval, depth, bound, false);
        Some(TablebaseAnswer::Cut(score))
    }
}
