//! Quiescence search (Kornilov's): from the horizon on, only captures and promotions are
//! searched "to the end", with the static evaluation as a floor (the side to move may stand
//! pat); in check every evasion is searched, so a mate at the horizon is still seen. At the
//! first ply of quiescence, quiet checks that do not lose material are searched too: a checking
//! sacrifice or a mating net one ply past the horizon is otherwise invisible.
//!
//! Design note: losing captures (by the exchange model) and captures that cannot lift the score
//! to alpha even with `DELTA_MARGIN` on top are skipped; the table is probed and filled with
//! depth 0 so the main search can use what quiescence learned.

use super::{Shared, Worker};
use crate::bound::Bound;
use crate::eval::insufficient_material;
use crate::rules::see::see_ge;
use crate::rules::{quiet_checks, Board, Move};
use crate::search::movepick::{MovePicker, OrderContext};
use crate::search::params::DELTA_MARGIN;
use crate::search::{INFINITY, MATE, MAX_PLY};

/// The best score and move of a quiescence node so far, and its raised alpha.
struct Best {
    score: i32,
    alpha: i32,
    mv: Option<Move>,
}

impl Best {
    /// Takes in a move's score; true when it reaches `beta` (the node is cut).
    fn improve(&mut self, score: i32, mv: Move, beta: i32) -> bool {
        if score > self.score {
            self.score = score;
            if score > self.alpha {
                self.alpha = score;
                self.mv = Some(mv);
            }
        }
        score >= beta
    }
}

impl Worker {
    /// Quiescence search (Kornilov's): captures "to the end", the static eval as a floor; in check,
    /// all evasions; with `checks`, also quiet checks that the exchange model does not lose.
    pub(super) fn quiescence(
        &mut self,
        board: &Board,
        shared: &Shared,
        alpha: i32,
        beta: i32,
        ply: usize,
        checks: bool,
    ) -> i32 {
        self.nodes += 1;
        self.pv[ply].clear();
        if self.should_stop(shared) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = !board.checkers().is_empty();
        if ply >= MAX_PLY {
            return if in_check {
                0
            } else {
                self.evaluate(board, ply)
            };
        }
        if insufficient_material(board) {
            return self.draw_score(ply);
        }

        let key = board.hash();
        let tt_hit = shared.tt.probe(key, ply);
        if let Some(hit) = tt_hit {
            if beta - alpha == 1 && hit.bound.settles(hit.score, alpha, beta) {
                return hit.score;
            }
        }

        let (raw_eval, static_eval) = self.static_eval(board, ply, in_check, tt_hit);
        let mut best = Best {
            score: -INFINITY,
            alpha,
            mv: None,
        };
        if let Some(e) = static_eval {
            if e >= beta {
                return e;
            }
            best.score = e;
            best.alpha = alpha.max(e);
        }

        let prev = self.previous_moves(ply);
        let ctx = OrderContext {
            tt_move: tt_hit.and_then(|h| h.mv),
            last_to: prev[0].map(|p| p.to),
            prev,
            ..Default::default()
        };
        let buffer = std::mem::take(&mut self.move_buffers[ply]);
        let mut picker = if in_check {
            MovePicker::new(ctx, buffer)
        } else {
            MovePicker::noisy(ctx, buffer)
        };
        let mut any_move = false;
        while let Some(scored) = picker.next(board, &self.history) {
            let mv = scored.mv;
            any_move = true;
            if let Some(e) = static_eval {
                // Losing captures are left out; so are captures that cannot reach alpha.
                if MovePicker::is_bad_capture(scored.score) {
                    continue;
                }
                let victim = board.piece_on(mv.to).map_or(100, crate::rules::piece_value);
                if mv.promotion.is_none() && e + victim + DELTA_MARGIN.get() <= best.alpha {
                    continue;
                }
            }
            let alpha = best.alpha;
            let Some(score) = self.quiescence_child(board, shared, mv, alpha, beta, ply) else {
                return 0;
            };
            if best.improve(score, mv, beta) {
                break;
            }
        }
        self.move_buffers[ply] = picker.into_buffer();
        if in_check && !any_move {
            return -MATE + ply as i32;
        }

        if checks && !in_check && best.score < beta {
            let mut candidates = std::mem::take(&mut self.check_buffers[ply]);
            candidates.clear();
            quiet_checks(board, &mut candidates);
            for &mv in &candidates {
                if !see_ge(board, mv, 0) {
                    continue;
                }
                let alpha = best.alpha;
                let Some(score) = self.quiescence_child(board, shared, mv, alpha, beta, ply) else {
                    break;
                };
                if best.improve(score, mv, beta) {
                    break;
                }
            }
            self.check_buffers[ply] = candidates;
            if self.stopped {
                return 0;
            }
        }
        let bound = if best.score >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        shared.tt.store(
            key,
            ply,
            best.mv,
            best.score,
            raw_eval.unwrap_or(0),
            0,
            bound,
            tt_hit.is_some_and(|h| h.pv),
        );
        best.score
    }

    /// Plays `mv` and searches the child with quiescence (no quiet checks below the first ply).
    /// `None` when the search was stopped.
    fn quiescence_child(
        &mut self,
        board: &Board,
        shared: &Shared,
        mv: Move,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        let mut child = board.clone();
        child.play_unchecked(mv);
        shared.tt.prefetch(child.hash());
        self.push(&child, board, mv, ply);
        let score = -self.quiescence(&child, shared, -beta, -alpha, ply + 1, false);
        self.keys.pop();
        (!self.stopped).then_some(score)
    }
}
