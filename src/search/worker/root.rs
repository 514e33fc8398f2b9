//! The root of the search: every root move searched in turn (NegaScout after the first), the
//! results kept per move so MultiPV and the next iteration's ordering can use them.

use super::{Shared, Worker};
use crate::bound::Bound;
use crate::rules::Board;
use crate::search::params::CURRMOVE_AFTER_MS;
use crate::search::{Reporter, INFINITY};

impl Worker {
    /// Searches the root at `depth` within (alpha, beta), for root moves from `pv_index` on
    /// (MultiPV searches the best lines one after another). Returns the best score.
    #[allow(clippy::too_many_arguments)]
    pub fn root_search(
        &mut self,
        board: &Board,
        shared: &Shared,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        pv_index: usize,
        reporter: &mut dyn Reporter,
    ) -> i32 {
        self.root_depth = depth;
        let original_alpha = alpha;
        let mut best = -INFINITY;
        // The previous best first, the rest by their last scores (a stable sort keeps ties in order).
        for r in &mut self.root_moves[pv_index..] {
            r.previous_score = r.score;
            r.score = -INFINITY;
        }
        for i in pv_index..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            if self.id == 0 && shared.control.time().elapsed().as_millis() >= CURRMOVE_AFTER_MS {
                reporter.current_move(depth, mv, i + 1);
            }
            let nodes_before = self.nodes;
            let mut child = board.clone();
            child.play_unchecked(mv);
            self.push(&child, board, mv, 0);
            let new_depth = depth - 1 + i32::from(!child.checkers().is_empty());
            self.seldepth = self.seldepth.max(1);
            let score = if i == pv_index {
                -self.negamax(&child, shared, -beta, -alpha, new_depth, 1, false)
            } else {
                let mut s = -self.negamax(&child, shared, -alpha - 1, -alpha, new_depth, 1, true);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.negamax(&child, shared, -beta, -alpha, new_depth, 1, false);
                }
                s
            };
            self.keys.pop();
            let root_move = &mut self.root_moves[i];
            root_move.nodes += self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            if i == pv_index || score > alpha {
                root_move.score = score;
                root_move.seldepth = self.seldepth;
                root_move.pv.clear();
                root_move.pv.push(mv);
                root_move.pv.extend_from_slice(&self.pv[1]);
            }
            best = best.max(score);
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        self.root_moves[pv_index..].sort_by_key(|r| std::cmp::Reverse(r.score));
        if !self.stopped && pv_index == 0 {
            let bound = Bound::of(best, original_alpha, beta);
            shared.tt.store(
                board.hash(),
                0,
                Some(self.root_moves[0].mv),
                best,
                0,
                depth,
                bound,
                true,
            );
        }
        best
    }
}
