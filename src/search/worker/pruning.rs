//! The decisions `negamax` takes at a node and for each move: reverse futility, the null move,
//! ProbCut, move-level pruning (late moves, futility, the exchange model), singular extension,
//! late-move reductions, draws, and what the correction history learns from the result.
//!
//! Design note: each decision is a function named for what it decides, with its margins in
//! `params.rs`, so that a step of `negamax` reads as one line and a tuning change touches one
//! place. None of them changes what the search does; they are the steps, taken out.

use super::{Shared, Worker};
use crate::bound::Bound;
use crate::eval::insufficient_material;
use crate::rules::see::see_ge;
use crate::rules::{has_non_pawn_material, is_quiet, legal_moves, repetition_key, Board, Move};
use crate::search::movepick::{MovePicker, OrderContext, ScoredMove};
use crate::search::params::*;
use crate::search::tt::TtHit;
use crate::search::{is_mate_score, INFINITY, MAX_PLY};

/// What the singular-extension test found for the TT move.
pub(super) enum Singular {
    /// The TT move is forced: extend it. Holds how far the best other move fell short of the
    /// bar, so that a move forced by a wide margin can be extended twice.
    Extend(i32),
    /// Not tested, or another move comes close and the TT score does not reach beta.
    No,
    /// Another move comes close, but the TT score alone reaches beta: the TT move is likely to
    /// cut anyway, so it is searched a ply shallower (a negative extension).
    Reduce,
    /// Even without the TT move the node reaches beta ("multi-cut"): return this.
    Cut(i32),
    /// The search was stopped during the test.
    Stopped,
}

/// The static evaluation refined by a TT score that bounds the true value on the right side
/// (−INFINITY in check, where there is none).
pub(super) fn refined_eval(static_eval: Option<i32>, tt_hit: Option<TtHit>) -> i32 {
    match (static_eval, tt_hit) {
        (Some(e), Some(h)) if !is_mate_score(h.score) => match h.bound {
            Bound::Lower if h.score > e => h.score,
            Bound::Upper if h.score < e => h.score,
            Bound::Exact => h.score,
            _ => e,
        },
        (Some(e), _) => e,
        (None, _) => -INFINITY,
    }
}

/// What a node's late-move reductions depend on besides the move, fixed before its move loop.
#[derive(Clone, Copy)]
pub(super) struct NodeShape {
    /// Depth left at the node.
    pub depth: i32,
    /// The window is open (a PV node).
    pub pv_node: bool,
    /// The node is or was on a principal variation (its TT entry's flag, or `pv_node`).
    pub tt_pv: bool,
    /// A cut-off is expected.
    pub cut_node: bool,
    /// The static evaluation is better than two plies ago.
    pub improving: bool,
    /// The TT move is a capture.
    pub tt_capture: bool,
}

/// What the cheaper cut tests of step 7 (the null move, ProbCut) read of their node.
#[derive(Clone, Copy)]
pub(super) struct CutProbe {
    /// The static evaluation, refined by the table.
    pub eval: i32,
    /// The node's beta.
    pub beta: i32,
    /// Depth left at the node.
    pub depth: i32,
    /// Distance from the root.
    pub ply: usize,
    /// A cut-off is expected.
    pub cut_node: bool,
}

/// Whether ProbCut is tried at a node of `depth` whose beta is raised to `raised`: deep
/// enough, no mate score in play, and no table entry from a search as deep as ProbCut's
/// saying the node stays below `raised`.
fn probcut_applies(depth: i32, beta: i32, raised: i32, tt_hit: Option<TtHit>) -> bool {
    let known_below = tt_hit.is_some_and(|h| {
        h.depth > depth - PROBCUT_REDUCTION && h.score < raised && h.bound != Bound::Lower
    });
    depth >= PROBCUT_MIN_DEPTH && !is_mate_score(beta) && !is_mate_score(raised) && !known_below
}

impl Worker {
    /// Is the node a draw by repetition (Kornilov's), insufficient material or the 50-move rule
    /// (unless the side to move is mated on the hundredth half-move)?
    pub(super) fn is_draw(&self, board: &Board, in_check: bool) -> bool {
        if self.is_repetition(board) || insufficient_material(board) {
            return true;
        }
        board.halfmove_clock() >= 100 && (!in_check || !legal_moves(board).is_empty())
    }

    /// Reverse futility: the evaluation beats beta by a margin per ply of depth left.
    pub(super) fn reverse_futility(eval: i32, beta: i32, depth: i32, improving: bool) -> bool {
        depth <= RFP_MAX_DEPTH.get()
            && eval - RFP_MARGIN.get() * (depth - i32::from(improving)) >= beta
            && !is_mate_score(beta)
    }

    /// Null-move pruning: let the opponent move twice; if a reduced search still reaches beta,
    /// so would a real move. Guarded against zugzwang: never without pieces, never twice in a
    /// row, and verified by a search without null moves at high depth. Returns the score to
    /// cut with (0 when the search was stopped), or `None` to search the moves.
    pub(super) fn null_move(
        &mut self,
        board: &Board,
        shared: &Shared,
        node: CutProbe,
    ) -> Option<i32> {
        let CutProbe {
            eval,
            beta,
            depth,
            ply,
            cut_node,
        } = node;
        let after_null = ply > 0 && self.frames[ply - 1].null;
        if depth < NMP_MIN_DEPTH
            || eval < beta
            || after_null
            || self.null_forbidden_ply == Some(ply)
            || !has_non_pawn_material(board, board.side_to_move())
            || is_mate_score(beta)
        {
            return None;
        }
        let mut child = board.null_move()?;
        // A null move is irreversible for repetition purposes.
        child.set_halfmove_clock(0);
        let r = NMP_BASE_REDUCTION.get()
            + depth / NMP_DEPTH_DIVISOR.get()
            + ((eval - beta) / NMP_EVAL_DIVISOR.get()).min(NMP_EVAL_MAX.get());
        self.keys.push(repetition_key(&child));
        self.learned_null_move(ply);
        self.frames[ply + 1].material = self.frames[ply].material;
        self.frames[ply].moved = None;
        self.frames[ply].null = true;
        let score = -self.negamax(
            &child,
            shared,
            -beta,
            -beta + 1,
            depth - r,
            ply + 1,
            !cut_node,
        );
        self.frames[ply].null = false;
        self.keys.pop();
        if self.stopped {
            return Some(0);
        }
        if score < beta {
            return None;
        }
        let score = if is_mate_score(score) { beta } else { score };
        if depth < NMP_VERIFY_DEPTH {
            return Some(score);
        }
        let saved = self.null_forbidden_ply.replace(ply);
        let verified = self.negamax(board, shared, beta - 1, beta, depth - r, ply, false);
        self.null_forbidden_ply = saved;
        (verified >= beta).then_some(score)
    }

    /// ProbCut: a capture (or promotion) that clears beta by `PROBCUT_MARGIN` in quiescence and
    /// then in a search `PROBCUT_REDUCTION` plies shallower would almost surely cut the full
    /// search too, so the node is cut with its score. Only moves the exchange model says gain
    /// at least the margin over the evaluation are tried, the TT move first. Returns the score
    /// to cut with (0 when the search was stopped), or `None` to search the moves.
    pub(super) fn probcut(
        &mut self,
        board: &Board,
        shared: &Shared,
        node: CutProbe,
        tt_hit: Option<TtHit>,
    ) -> Option<i32> {
        let ply = node.ply;
        let raised = node.beta + PROBCUT_MARGIN.get();
        if !probcut_applies(node.depth, node.beta, raised, tt_hit) {
            return None;
        }
        let ctx = OrderContext {
            tt_move: tt_hit.and_then(|h| h.mv),
            ..Default::default()
        };
        let buffer = std::mem::take(&mut self.move_buffers[ply]);
        let mut picker = MovePicker::noisy(ctx, buffer);
        let mut cut = None;
        while let Some(scored) = picker.next(board, &self.history) {
            let mv = scored.mv;
            if !see_ge(board, mv, raised - node.eval) {
                continue;
            }
            let mut child = board.clone();
            child.play_unchecked(mv);
            shared.tt.prefetch(child.hash());
            self.push(&child, board, mv, ply);
            let (lo, hi) = (-raised, -raised + 1);
            let mut score = -self.quiescence(&child, shared, lo, hi, ply + 1, false);
            if score >= raised && !self.stopped {
                let shallower = node.depth - PROBCUT_REDUCTION;
                score = -self.negamax(&child, shared, lo, hi, shallower, ply + 1, !node.cut_node);
            }
            self.keys.pop();
            if self.stopped || score >= raised {
                cut = Some(if self.stopped { 0 } else { score });
                break;
            }
        }
        self.move_buffers[ply] = picker.into_buffer();
        cut
    }

    /// Move-level pruning away from the principal variation: a quiet move late in the list,
    /// one that cannot lift the evaluation to alpha, or one the exchange model says loses
    /// too much; a capture the exchange model says loses too much.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn prune_move(
        board: &Board,
        scored: ScoredMove,
        quiet: bool,
        depth: i32,
        improving: bool,
        eval: i32,
        alpha: i32,
        moves_searched: usize,
    ) -> bool {
        let mv = scored.mv;
        if quiet {
            let lmp_limit = (LMP_BASE.get() + depth * depth) / if improving { 1 } else { 2 };
            (depth <= LMP_MAX_DEPTH && moves_searched as i32 >= lmp_limit)
                || (depth <= FUTILITY_MAX_DEPTH
                    && eval + FUTILITY_BASE.get() + FUTILITY_PER_DEPTH.get() * depth <= alpha)
                || (depth <= HISTORY_PRUNING_MAX_DEPTH.get()
                    && scored.score < -HISTORY_PRUNING_MARGIN.get() * depth)
                || (depth <= SEE_MAX_DEPTH && !see_ge(board, mv, SEE_QUIET_MARGIN.get() * depth))
        } else {
            depth <= SEE_MAX_DEPTH
                && MovePicker::is_bad_capture(scored.score)
                && !see_ge(board, mv, SEE_CAPTURE_MARGIN.get() * depth)
        }
    }

    /// Singular extension: searches the node without `mv` (the TT move) to a reduced depth
    /// against a bar a little below the TT score.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn singular(
        &mut self,
        board: &Board,
        shared: &Shared,
        mv: Move,
        tt_hit: Option<TtHit>,
        beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Singular {
        let Some(hit) = tt_hit.filter(|h| {
            Some(mv) == h.mv
                && ply > 0
                && depth >= SE_MIN_DEPTH
                && self.frames[ply].excluded.is_none()
                && h.depth >= depth - SE_TT_DEPTH_MARGIN
                && h.bound != Bound::Upper
                && !is_mate_score(h.score)
        }) else {
            return Singular::No;
        };
        let singular_beta = hit.score - SE_MARGIN.get() * depth;
        self.frames[ply].excluded = Some(mv);
        let score = self.negamax(
            board,
            shared,
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
            cut_node,
        );
        self.frames[ply].excluded = None;
        if self.stopped {
            Singular::Stopped
        } else if score < singular_beta {
            Singular::Extend(singular_beta - score)
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else if hit.score >= beta {
            Singular::Reduce
        } else {
            Singular::No
        }
    }

    /// How many plies a singular TT move is extended by: two away from the PV when every other
    /// move fell more than `DOUBLE_EXTENSION_MARGIN` short of the bar and the line has been
    /// extended twice fewer than `DOUBLE_EXTENSIONS_MAX` times, so that the tree stays finite;
    /// otherwise one.
    pub(super) fn singular_extension(
        shortfall: i32,
        pv_node: bool,
        double_extensions: usize,
    ) -> i32 {
        if !pv_node
            && shortfall > DOUBLE_EXTENSION_MARGIN.get()
            && double_extensions < DOUBLE_EXTENSIONS_MAX
        {
            2
        } else {
            1
        }
    }

    /// The late-move reduction of a move after the first: from the table by depth and move
    /// number, more at expected cut nodes, at nodes never on a PV (`tt_pv`) and for a quiet
    /// move where the TT move is a capture (the capture is likely to be the best move, the quiet
    /// ones refuted), less for checks, killers, the counter-move and quiet moves with a good
    /// history; never below zero or into quiescence.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn reduction(
        &self,
        ctx: &OrderContext,
        node: NodeShape,
        scored: ScoredMove,
        quiet: bool,
        gives_check: bool,
        new_depth: i32,
        moves_searched: usize,
    ) -> i32 {
        let depth = node.depth;
        if depth < LMR_MIN_DEPTH
            || moves_searched <= usize::from(node.pv_node)
            || !(quiet || MovePicker::is_bad_capture(scored.score))
        {
            return 0;
        }
        let mv = scored.mv;
        let mut reduction = self.lmr[depth.min(MAX_PLY as i32) as usize][moves_searched.min(63)];
        reduction += i32::from(!node.tt_pv) + i32::from(node.cut_node) - i32::from(node.improving);
        reduction -= 2 * i32::from(gives_check);
        if quiet {
            reduction += i32::from(node.tt_capture);
            reduction -= i32::from(
                Some(mv) == ctx.killers[0] || Some(mv) == ctx.killers[1] || Some(mv) == ctx.counter,
            );
            reduction -= scored.score.clamp(
                -2 * LMR_HISTORY_DIVISOR.get(),
                2 * LMR_HISTORY_DIVISOR.get(),
            ) / LMR_HISTORY_DIVISOR.get();
        }
        reduction.min(new_depth - 1).max(0)
    }

    /// Teaches the correction history the result of the node `board` at `ply`, when it is a
    /// quiet one that says more than the static evaluation did (a bound on the wrong side of
    /// it says nothing).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn teach_correction(
        &mut self,
        board: &Board,
        ply: usize,
        best_move: Option<Move>,
        best_score: i32,
        bound: Bound,
        depth: i32,
        raw_eval: i32,
        corrected_eval: i32,
    ) {
        let quiet_best = best_move.is_none_or(|mv| is_quiet(board, mv));
        let informative = match bound {
            Bound::Exact => true,
            Bound::Lower => best_score > corrected_eval,
            Bound::Upper => best_score < corrected_eval,
        };
        if quiet_best && informative && !is_mate_score(best_score) {
            let (material, previous) = (self.frames[ply].material, self.move_back(ply, 1));
            self.correction
                .update(board, material, previous, depth, raw_eval, best_score);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether a quiet developing move of the start position, ordered with `history`, is
    /// pruned at `depth` as the second move of a node whose evaluation equals alpha.
    fn pruned(history: i32, depth: i32) -> bool {
        let board = Board::default();
        let scored = ScoredMove {
            mv: "g1f3".parse().unwrap(),
            score: history,
        };
        Worker::prune_move(&board, scored, true, depth, true, 0, 0, 1)
    }

    #[test]
    fn singular_moves_forced_by_a_wide_margin_are_extended_twice_a_few_times_per_line() {
        let wide = DOUBLE_EXTENSION_MARGIN.get() + 1;
        assert_eq!(Worker::singular_extension(wide, false, 0), 2);
        assert_eq!(Worker::singular_extension(wide - 1, false, 0), 1);
        assert_eq!(Worker::singular_extension(wide, true, 0), 1);
        assert_eq!(
            Worker::singular_extension(wide, false, DOUBLE_EXTENSIONS_MAX - 1),
            2
        );
        assert_eq!(
            Worker::singular_extension(wide, false, DOUBLE_EXTENSIONS_MAX),
            1
        );
    }

    #[test]
    fn probcut_is_not_tried_where_the_table_says_the_node_stays_below() {
        let depth = PROBCUT_MIN_DEPTH + 2;
        let raised = 100 + PROBCUT_MARGIN.get();
        let hit = |depth, score, bound| {
            Some(TtHit {
                mv: None,
                score,
                eval: 0,
                depth,
                bound,
                pv: false,
            })
        };
        assert!(probcut_applies(depth, 100, raised, None));
        assert!(!probcut_applies(PROBCUT_MIN_DEPTH - 1, 100, raised, None));
        assert!(!probcut_applies(
            depth,
            100,
            raised,
            hit(depth, 150, Bound::Upper)
        ));
        assert!(!probcut_applies(
            depth,
            100,
            raised,
            hit(depth, 150, Bound::Exact)
        ));
        // A lower bound, a score above the raised beta or a shallow entry says nothing.
        assert!(probcut_applies(
            depth,
            100,
            raised,
            hit(depth, 150, Bound::Lower)
        ));
        assert!(probcut_applies(
            depth,
            100,
            raised,
            hit(depth, raised, Bound::Upper)
        ));
        let shallow = depth - PROBCUT_REDUCTION;
        assert!(probcut_applies(
            depth,
            100,
            raised,
            hit(shallow, 150, Bound::Upper)
        ));
        let mate = -crate::search::tt::MATE_BOUND - 1;
        assert!(!probcut_applies(
            depth,
            mate,
            mate + PROBCUT_MARGIN.get(),
            None
        ));
    }

    #[test]
    fn history_prunes_quiet_moves_that_keep_failing_near_the_horizon() {
        let limit = -HISTORY_PRUNING_MARGIN.get() * 2;
        assert!(!pruned(0, 2));
        assert!(!pruned(limit, 2));
        assert!(pruned(limit - 1, 2));
        let deeper = HISTORY_PRUNING_MAX_DEPTH.get() + 1;
        assert!(!pruned(-4 * HISTORY_PRUNING_MARGIN.get() * deeper, deeper));
    }
}
