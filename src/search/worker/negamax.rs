//! The alpha-beta search proper (Kornilov's NegaScout), as numbered steps; the pruning, extension
//! and reduction decisions it takes are in `pruning.rs`, each a function named for what it decides.
//!
//! Design note: pruning is never applied at PV nodes, so the main line stays full-width where
//! Kornilov wants repetitions detected; a check is never pruned, and it is extended unless the
//! exchange model says the checking piece is simply lost.

use super::pruning::{refined_eval, CutProbe, NodeShape, Singular};
use super::tablebase::TablebaseAnswer;
use super::{Shared, Worker};
use crate::bound::Bound;
use crate::rules::see::see_ge;
use crate::rules::{is_capture, Board, CheckSquares, Piece};
use crate::search::guide::PlanMoves;
use crate::search::history::CaptureKey;
use crate::search::movepick::{MovePicker, OrderContext};
use crate::search::params::{CHECK_EXTENSION_PLY_FACTOR, GUIDE_PLIES, IIR_MIN_DEPTH};
use crate::search::tt::MATE_BOUND;
use crate::search::{INFINITY, MATE, MAX_PLY};

impl Worker {
    /// The alpha-beta search of `board` at `depth` within (alpha, beta). Returns a score from
    /// the side to move's view.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        board: &Board,
        shared: &Shared,
        mut alpha: i32,
        beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let excluded = self.frames[ply].excluded;
        self.pv[ply].clear();

        // Step 1. Quiescence at the horizon.
        let in_check = !board.checkers().is_empty();
        if depth <= 0 && !in_check {
            return self.quiescence(board, shared, alpha, beta, ply, true);
        }
        depth = depth.max(1);

        // Step 2. Stop conditions and draws.
        self.nodes += 1;
        if self.should_stop(shared) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return if in_check {
                0
            } else {
                self.evaluate(board, ply)
            };
        }
        if self.is_draw(board, in_check) {
            return self.draw_score(ply);
        }

        // Step 3. Mate distance pruning: no line can beat a mate already found nearer the root.
        let alpha_md = alpha.max(-MATE + ply as i32);
        let beta_md = beta.min(MATE - ply as i32 - 1);
        if alpha_md >= beta_md {
            return alpha_md;
        }

        // Step 4. Transposition table.
        let key = board.hash();
        let tt_hit = shared.tt.probe(key, ply);
        let tt_move = tt_hit.and_then(|h| h.mv);
        // A node that is or was on a principal variation keeps the PV's lighter reductions.
        let tt_pv = pv_node || tt_hit.is_some_and(|h| h.pv);
        if let Some(hit) = tt_hit.filter(|_| excluded.is_none()) {
            if !pv_node && hit.depth >= depth && hit.bound.settles(hit.score, alpha, beta) {
                return hit.score;
            }
        }

        // Step 4b. Endgame tablebases, after a capture or pawn move: a cut when they settle
        // the window; in a PV node, a win they know is a floor and a loss a ceiling.
        let (mut tb_floor, mut tb_ceiling) = (-INFINITY, INFINITY);
        if excluded.is_none() {
            match self.probe_tablebases(board, shared, alpha, beta, depth, ply) {
                Some(TablebaseAnswer::Cut(score)) => return score,
                Some(TablebaseAnswer::Floor(score)) if pv_node => tb_floor = score,
                Some(TablebaseAnswer::Ceiling(score)) if pv_node => tb_ceiling = score,
                _ => {}
            }
        }

        // Step 5. Static evaluation, corrected by what searches of similar positions found;
        // "improving" if better than two plies ago; a TT bound on the right side refines it.
        let (raw_eval, static_eval) = self.static_eval(board, ply, in_check, tt_hit);
        self.frames[ply].eval = static_eval;
        let improving = match (
            static_eval,
            ply.checked_sub(2).and_then(|p| self.frames[p].eval),
        ) {
            (Some(now), Some(before)) => now > before,
            _ => false,
        };
        let eval = refined_eval(static_eval, tt_hit);

        if !pv_node && !in_check && excluded.is_none() {
            // Step 6. Reverse futility pruning: far above beta with little depth left.
            if Self::reverse_futility(eval, beta, depth, improving) {
                return eval;
            }

            // Step 7. Cheaper searches that prove a cut: the null move, guarded against
            // zugzwang, then ProbCut, a good capture that clears beta by a margin when searched
            // shallower.
            let probe = CutProbe {
                eval,
                beta,
                depth,
                ply,
                cut_node,
            };
            if let Some(score) = self.null_move(board, shared, probe) {
                return score;
            }
            if let Some(score) = self.probcut(board, shared, probe, tt_hit) {
                return score;
            }
        }

        // Step 8. Internal iterative reduction: without a TT move the ordering is poor, so
        // search shallower and let the next iteration come back with a move.
        if depth >= IIR_MIN_DEPTH && tt_move.is_none() && excluded.is_none() {
            depth -= 1;
        }

        // Step 9. The move loop.
        let prev = self.previous_moves(ply);
        let ctx = OrderContext {
            tt_move,
            killers: self.history.killers(ply),
            counter: self.history.counter(prev[0]),
            last_to: prev[0].map(|p| p.to),
            prev,
            plan: if ply < GUIDE_PLIES {
                self.guide.plan(board.side_to_move())
            } else {
                PlanMoves::EMPTY
            },
        };
        let shape = NodeShape {
            depth,
            pv_node,
            tt_pv,
            cut_node,
            improving,
            tt_capture: tt_move.is_some_and(|mv| is_capture(board, mv)),
        };
        let mut picker = MovePicker::new(ctx, std::mem::take(&mut self.move_buffers[ply]));
        let mut best_score = tb_floor;
        let mut best_move = None;
        let mut moves_searched = 0;
        // Storage lent by the ply, so that a node allocates nothing (a search nested at the same
        // ply, the singular test's, finds it lent and allocates its own).
        let mut tried = std::mem::take(&mut self.tried_buffers[ply]);
        tried.quiets.clear();
        tried.captures.clear();
        let original_alpha = alpha;
        let us = board.side_to_move();
        // Moves are pruned only away from the PV and out of check.
        let prune_checks = (!pv_node && !in_check).then(|| CheckSquares::new(board));

        while let Some(scored) = picker.next(board, &self.history) {
            let mv = scored.mv;
            if Some(mv) == excluded {
                continue;
            }
            let capture = is_capture(board, mv);
            let quiet = !capture && mv.promotion.is_none();
            let piece = board.piece_on(mv.from).unwrap_or(Piece::Pawn);

            // Step 10. Move-level pruning, only once a move has been found not to lose by mate,
            // and never of a check (a quiet check is how most mating attacks begin). Whether a
            // move checks is read from the check squares where they tell, so that a pruned
            // move is not played at all.
            let prunable = prune_checks.is_some()
                && best_score > -MATE_BOUND
                && moves_searched > 0
                && Self::prune_move(
                    board,
                    scored,
                    quiet,
                    depth,
                    improving,
                    eval,
                    alpha,
                    moves_searched,
                );
            let known_check = prune_checks.and_then(|c| c.gives_check(board, mv));
            if prunable && known_check == Some(false) {
                continue;
            }
            let mut child = board.clone();
            child.play_unchecked(mv);
            // Ask for the child's table entry now: the singular test and the bookkeeping
            // below give the memory time to answer before the child probes it.
            shared.tt.prefetch(child.hash());
            let gives_check = known_check.unwrap_or_else(|| !child.checkers().is_empty());
            if prunable && !gives_check {
                continue;
            }

            // Step 11. Singular extension: if every other move falls well short of the TT
            // move's score, the TT move is forced and gets a ply more, or two away from the PV
            // when they fall far short (a few times per line, so that the tree stays finite).
            // If even the others reach beta, the node is cut ("multi-cut"); if only the TT
            // score does, the TT move is likely to cut anyway and gets a ply less.
            // Step 12. Check extension (Kornilov's): a check does not use up depth, unless the
            // exchange model says the checking piece is simply lost: such a check is still
            // searched and never pruned, but a spite check should not deepen the tree. The
            // exchange model runs last, only for a check that could still be extended.
            let extensible = ply < CHECK_EXTENSION_PLY_FACTOR * self.root_depth as usize;
            let extension =
                match self.singular(board, shared, mv, tt_hit, beta, depth, ply, cut_node) {
                    Singular::Extend(shortfall) => {
                        let plies =
                            Self::singular_extension(shortfall, pv_node, self.double_extensions);
                        plies * i32::from(extensible)
                    }
                    Singular::Reduce => -1,
                    Singular::No => i32::from(extensible && gives_check && see_ge(board, mv, 0)),
                    Singular::Cut(score) => return score,
                    Singular::Stopped => return 0,
                };

            self.push(&child, board, mv, ply);
            let new_depth = depth - 1 + extension;
            let doubled = usize::from(extension == 2);
            self.double_extensions += doubled;

            // Step 13. NegaScout with late-move reductions.
            let score = if moves_searched == 0 {
                -self.negamax(&child, shared, -beta, -alpha, new_depth, ply + 1, false)
            } else {
                let reduction = self.reduction(
                    &ctx,
                    shape,
                    scored,
                    quiet,
                    gives_check,
                    new_depth,
                    moves_searched,
                );
                let mut s = -self.negamax(
                    &child,
                    shared,
                    -alpha - 1,
                    -alpha,
                    new_depth - reduction,
                    ply + 1,
                    true,
                );
                if s > alpha && reduction > 0 {
                    s = -self.negamax(
                        &child,
                        shared,
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        ply + 1,
                        !cut_node,
                    );
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&child, shared, -beta, -alpha, new_depth, ply + 1, false);
                }
                s
            };
            self.keys.pop();
            self.double_extensions -= doubled;
            moves_searched += 1;
            if self.stopped {
                return 0;
            }
            let capture_key = capture.then(|| CaptureKey::new(piece, mv, board.piece_on(mv.to)));

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(mv);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if score >= beta {
                        // Step 14. A cut-off: teach the ordering.
                        if quiet {
                            self.history.add_killer(ply, mv);
                            self.history.set_counter(prev[0], mv);
                            self.history.update_quiets(
                                us,
                                (mv, piece),
                                &tried.quiets,
                                picker.threats(board),
                                prev,
                                depth,
                            );
                        }
                        self.history
                            .update_captures(capture_key, &tried.captures, depth);
                        break;
                    }
                }
            }
            if quiet {
                tried.quiets.push((mv, piece));
            } else if let Some(key) = capture_key {
                tried.captures.push(key);
            }
        }

        self.move_buffers[ply] = picker.into_buffer();
        self.tried_buffers[ply] = tried;

        // Step 15. No legal move: mated here, scored −MATE + ply (the nearer the root, the lower
        // for the mated side), or stalemate. Pruning skips moves only after one has been
        // searched, so none searched means none exist.
        if moves_searched == 0 {
            if excluded.is_some() {
                return alpha;
            }
            return if in_check {
                -MATE + ply as i32
            } else {
                self.draw_score(ply)
            };
        }

        // Step 16. Store the result (not for a search with a move left out).
        let best_score = best_score.min(tb_ceiling);
        if excluded.is_some() {
            return best_score;
        }
        let bound = Bound::of(best_score, original_alpha, beta);
        shared.tt.store(
            key,
            ply,
            best_move,
            best_score,
            raw_eval.unwrap_or(0),
            depth,
            bound,
            tt_pv,
        );

        // Step 17. Teach the correction history what the search found.
        if let (Some(raw), Some(corrected)) = (raw_eval, static_eval) {
            self.teach_correction(
                board, ply, best_move, best_score, bound, depth, raw, corrected,
            );
        }
        best_score
    }
}
