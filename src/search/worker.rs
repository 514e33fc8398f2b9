//! One search thread: iterative deepening over a NegaScout (principal variation) alpha-beta
//! search with quiescence (seeds 001–003).
//!
//! Design note: positions are copied, not unmade (a `cozy-chess` board is small and copy-make is
//! as fast as make/unmake). The keys of the game and of the current path sit in one stack so
//! repetitions are found across both (seed 002). Each node goes through the numbered steps of
//! `negamax`; pruning is never applied at PV nodes, so the main line stays full-width where the
//! seed wants repetitions detected.

use super::correction::CorrectionHistory;
use super::history::{History, PieceTo};
use super::movepick::{capture_key, MovePicker, OrderContext, ScoredMove};
use super::params::*;
use super::tt::{Bound, TranspositionTable, TtHit};
use super::{SearchControl, INFINITY, MATE, MAX_PLY};
use crate::eval::{evaluate, insufficient_material};
use crate::pioneer::guide::{Guide, PlanMoves, GUIDE_PLIES};
use crate::rules::see::see;
use crate::rules::{has_non_pawn_material, is_capture, repetition_key, Board, Move, Piece};
use crate::search::tt::MATE_BOUND;
use std::sync::atomic::{AtomicU64, Ordering};

mod qsearch;
mod root;
mod tablebase;

/// How often (in nodes) the stop conditions are checked.
const CHECK_INTERVAL: u64 = 1024;

/// Per-ply state of the current path.
#[derive(Clone, Copy, Default)]
struct Frame {
    /// Static evaluation (or `None` when in check).
    eval: Option<i32>,
    /// The move that led to the next ply, as (piece, to) for continuation history; `None` for a
    /// null move.
    moved: Option<PieceTo>,
    /// The move from this ply was a null move.
    null: bool,
    /// A move left out of this node's search (the singular-extension test).
    excluded: Option<Move>,
}

/// Result of one root move at the last completed iteration.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Score of the last completed search of this move (−INFINITY when it was not best).
    pub score: i32,
    /// Score at the previous iteration (for ordering).
    pub previous_score: i32,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
    /// Deepest ply reached while searching it.
    pub seldepth: usize,
}

/// Everything one thread needs while searching.
pub struct Worker {
    /// Thread index; 0 is the main thread, which manages time and reports.
    pub id: usize,
    /// Move-ordering statistics, kept between searches of a game.
    pub history: History,
    /// Static-evaluation corrections, kept between searches of a game.
    pub correction: CorrectionHistory,
    /// Root moves, best first after each iteration.
    pub root_moves: Vec<RootMove>,
    /// Nodes searched in the current search.
    pub nodes: u64,
    /// Deepest ply reached in the current iteration.
    pub seldepth: usize,
    keys: Vec<u64>,
    frames: Vec<Frame>,
    pv: Vec<Vec<Move>>,
    /// Move-list storage per ply, lent to each node's move picker.
    move_buffers: Vec<Vec<ScoredMove>>,
    /// Quiet-check storage per ply, for the first ply of quiescence.
    check_buffers: Vec<Vec<Move>>,
    lmr: Vec<[i32; 64]>,
    contempt: i32,
    root_depth: i32,
    stopped: bool,
    /// Ply at which null moves are forbidden (a null-move verification search), if any.
    null_forbidden_ply: Option<usize>,
    /// PIONEER's zone moves of both sides at the root (empty unless `PioneerGuide` is on).
    pub guide: Guide,
}

/// What a search thread may read from the others and from the protocol.
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// Stop flag, pondering state and the time budget.
    pub control: &'a SearchControl,
    /// Node counts published by every thread.
    pub node_counts: &'a [AtomicU64],
    /// Node limit for the whole search.
    pub node_limit: Option<u64>,
    /// The endgame tablebases, when `SyzygyPath` names some.
    pub syzygy: Option<super::syzygy::Probe<'a>>,
    /// Tablebase probes that answered, all threads together.
    pub tb_hits: &'a AtomicU64,
}

fn lmr_table() -> Vec<[i32; 64]> {
    (0..=MAX_PLY)
        .map(|depth| {
            let mut row = [0; 64];
            for (moves, r) in row.iter_mut().enumerate().skip(1) {
                if depth > 0 {
                    *r =
                        (LMR_BASE + (depth as f64).ln() * (moves as f64).ln() / LMR_DIVISOR) as i32;
                }
            }
            row
        })
        .collect()
}

/// Is this score a mate score?
pub fn is_mate_score(score: i32) -> bool {
    score.abs() > MATE_BOUND
}

impl Worker {
    /// A fresh worker.
    pub fn new(id: usize) -> Self {
        Worker {
            id,
            history: History::new(),
            correction: CorrectionHistory::new(),
            root_moves: Vec::new(),
            nodes: 0,
            seldepth: 0,
            keys: Vec::with_capacity(1024),
            frames: vec![Frame::default(); MAX_PLY + 4],
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            move_buffers: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(256)).collect(),
            check_buffers: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(32)).collect(),
            lmr: lmr_table(),
            contempt: 0,
            root_depth: 0,
            stopped: false,
            null_forbidden_ply: None,
            guide: Guide::NONE,
        }
    }

    /// Prepares a search of `root` reached through the positions whose keys are `game_keys`
    /// (the last key is the root's). `moves` restricts the root moves (UCI `searchmoves`).
    pub fn prepare(&mut self, root: &Board, game_keys: &[u64], moves: &[Move], contempt: i32) {
        self.keys.clear();
        self.keys.extend_from_slice(game_keys);
        if self.keys.last() != Some(&repetition_key(root)) {
            self.keys.push(repetition_key(root));
        }
        self.root_moves = crate::rules::legal_moves(root)
            .into_iter()
            .filter(|m| moves.is_empty() || moves.contains(m))
            .map(|mv| RootMove {
                mv,
                score: -INFINITY,
                previous_score: -INFINITY,
                pv: vec![mv],
                seldepth: 0,
            })
            .collect();
        self.nodes = 0;
        self.seldepth = 0;
        self.contempt = contempt;
        self.stopped = false;
        self.history.clear_killers();
    }

    /// Has this worker been told to stop (or run out of time) during the last search call?
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    fn draw_score(&self, ply: usize) -> i32 {
        // Contempt is from the root side's view: a draw is worth −contempt to it.
        if ply.is_multiple_of(2) {
            -self.contempt
        } else {
            self.contempt
        }
    }

    /// Stop conditions, checked every `CHECK_INTERVAL` nodes.
    fn should_stop(&mut self, shared: &Shared) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            shared.node_counts[self.id].store(self.nodes, Ordering::Relaxed);
            if self.id == 0 {
                let total: u64 = shared
                    .node_counts
                    .iter()
                    .map(|n| n.load(Ordering::Relaxed))
                    .sum();
                if shared.node_limit.is_some_and(|limit| total >= limit)
                    || shared.control.hard_time_expired()
                {
                    shared.control.stop();
                }
            }
            if shared.control.stopped() {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Repetition (seed 002): a draw if the position occurred once after the root, or twice
    /// before it. Only positions since the last irreversible move are compared.
    fn is_repetition(&self, board: &Board, ply: usize) -> bool {
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let root_index = n - 1 - ply;
        let limit = (board.halfmove_clock() as usize).min(n - 1);
        let mut earlier = 0;
        let mut distance = 4;
        while distance <= limit {
            let index = n - 1 - distance;
            if self.keys[index] == key {
                if index > root_index {
                    return true;
                }
                earlier += 1;
                if earlier >= 2 {
                    return true;
                }
            }
            distance += 2;
        }
        false
    }

    /// Pushes the child's key and remembers the move for continuation history.
    fn push(&mut self, child: &Board, parent: &Board, mv: Move, ply: usize) {
        self.keys.push(repetition_key(child));
        self.frames[ply].moved = Some(PieceTo {
            piece: parent.piece_on(mv.from).unwrap_or(Piece::Pawn),
            to: mv.to,
        });
    }

    /// The static evaluation of a node (none in check) as computed or stored in the table, and
    /// the same corrected by the correction history; the table keeps the uncorrected one, since
    /// the correction goes on learning after it is stored.
    fn static_eval(
        &self,
        board: &Board,
        in_check: bool,
        tt_hit: Option<TtHit>,
    ) -> (Option<i32>, Option<i32>) {
        if in_check {
            return (None, None);
        }
        let raw = tt_hit.map_or_else(|| evaluate(board), |h| h.eval);
        (Some(raw), Some(self.correction.corrected(board, raw)))
    }

    fn previous_moves(&self, ply: usize) -> [Option<PieceTo>; 2] {
        let one = if ply >= 1 {
            self.frames[ply - 1].moved
        } else {
            None
        };
        let two = if ply >= 2 {
            self.frames[ply - 2].moved
        } else {
            None
        };
        [one, two]
    }

    /// The alpha-beta search proper. Returns a score from the side to move's view.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
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
            return if in_check { 0 } else { evaluate(board) };
        }
        if self.is_repetition(board, ply) || insufficient_material(board) {
            return self.draw_score(ply);
        }
        if board.halfmove_clock() >= 100
            && (!in_check || !crate::rules::legal_moves(board).is_empty())
        {
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
        if let Some(hit) = tt_hit.filter(|_| excluded.is_none()) {
            if !pv_node && hit.depth >= depth && hit.bound.settles(hit.score, alpha, beta) {
                return hit.score;
            }
        }
        // Step 4b. Endgame tablebases, after a capture or pawn move.
        if excluded.is_none() {
            if let Some(score) = self.probe_tablebases(board, shared, alpha, beta, depth, ply) {
                return score;
            }
        }

        // Step 5. Static evaluation, corrected by what searches of similar positions found;
        // "improving" if better than two plies ago.
        let (raw_eval, static_eval) = self.static_eval(board, in_check, tt_hit);
        self.frames[ply].eval = static_eval;
        let improving = match (
            static_eval,
            ply.checked_sub(2).and_then(|p| self.frames[p].eval),
        ) {
            (Some(now), Some(before)) => now > before,
            _ => false,
        };
        // A TT score that bounds the true value on the right side is a better estimate.
        let eval = match (static_eval, tt_hit) {
            (Some(e), Some(h)) if !is_mate_score(h.score) => match h.bound {
                Bound::Lower if h.score > e => h.score,
                Bound::Upper if h.score < e => h.score,
                Bound::Exact => h.score,
                _ => e,
            },
            (Some(e), _) => e,
            (None, _) => -INFINITY,
        };

        if !pv_node && !in_check && excluded.is_none() {
            // Step 6. Reverse futility pruning: far above beta with little depth left.
            if depth <= RFP_MAX_DEPTH
                && eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
                && !is_mate_score(beta)
            {
                return eval;
            }

            // Step 7. Null-move pruning, guarded against zugzwang: never without pieces, never
            // twice in a row, and verified at high depth.
            let after_null = ply > 0 && self.frames[ply - 1].null;
            if depth >= NMP_MIN_DEPTH
                && eval >= beta
                && !after_null
                && self.null_forbidden_ply != Some(ply)
                && has_non_pawn_material(board, board.side_to_move())
                && !is_mate_score(beta)
            {
                if let Some(mut child) = board.null_move() {
                    // A null move is irreversible for repetition purposes.
                    child.set_halfmove_clock(0);
                    let r = NMP_BASE_REDUCTION + depth / 4 + ((eval - beta) / 200).min(3);
                    self.keys.push(repetition_key(&child));
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
                        return 0;
                    }
                    if score >= beta {
                        let score = if is_mate_score(score) { beta } else { score };
                        if depth < NMP_VERIFY_DEPTH {
                            return score;
                        }
                        let saved = self.null_forbidden_ply.replace(ply);
                        let verified =
                            self.negamax(board, shared, beta - 1, beta, depth - r, ply, false);
                        self.null_forbidden_ply = saved;
                        if verified >= beta {
                            return score;
                        }
                    }
                }
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
        let mut picker = MovePicker::new(ctx, std::mem::take(&mut self.move_buffers[ply]));
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut moves_searched = 0;
        let mut quiets_tried: Vec<(Move, Piece)> = Vec::new();
        let mut captures_tried = Vec::new();
        let original_alpha = alpha;
        let us = board.side_to_move();

        while let Some(scored) = picker.next(board, &self.history) {
            let mv = scored.mv;
            if Some(mv) == excluded {
                continue;
            }
            let capture = is_capture(board, mv);
            let quiet = !capture && mv.promotion.is_none();
            let piece = board.piece_on(mv.from).unwrap_or(Piece::Pawn);

            let mut child = board.clone();
            child.play_unchecked(mv);
            let gives_check = !child.checkers().is_empty();

            // Step 10. Move-level pruning, only once a move has been found not to lose by mate,
            // and never of a check (a quiet check is how most mating attacks begin).
            if !pv_node
                && !in_check
                && !gives_check
                && best_score > -MATE_BOUND
                && moves_searched > 0
            {
                if quiet {
                    let lmp_limit = (3 + depth * depth) / if improving { 1 } else { 2 };
                    if depth <= LMP_MAX_DEPTH && moves_searched as i32 >= lmp_limit {
                        continue;
                    }
                    if depth <= FUTILITY_MAX_DEPTH
                        && eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * depth <= alpha
                    {
                        continue;
                    }
                    if depth <= SEE_MAX_DEPTH && see(board, mv) < SEE_QUIET_MARGIN * depth {
                        continue;
                    }
                } else if depth <= SEE_MAX_DEPTH
                    && MovePicker::is_bad_capture(scored.score)
                    && see(board, mv) < SEE_CAPTURE_MARGIN * depth
                {
                    continue;
                }
            }

            // Step 11. Singular extension: if every other move falls well short of the TT
            // move's score, the TT move is forced and gets a ply more. If even the others
            // reach beta, the node is cut ("multi-cut").
            let mut singular = false;
            if let Some(hit) = tt_hit.filter(|h| {
                Some(mv) == tt_move
                    && ply > 0
                    && depth >= SE_MIN_DEPTH
                    && excluded.is_none()
                    && h.depth >= depth - 3
                    && h.bound != Bound::Upper
                    && !is_mate_score(h.score)
            }) {
                let singular_beta = hit.score - SE_MARGIN * depth;
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
                    return 0;
                }
                if score < singular_beta {
                    singular = true;
                } else if singular_beta >= beta {
                    return singular_beta;
                }
            }

            shared.tt.prefetch(child.hash());
            self.push(&child, board, mv, ply);

            // Step 12. Check extension (seed 001): a check does not use up depth.
            let extension =
                i32::from((gives_check || singular) && ply < 2 * self.root_depth as usize);
            let new_depth = depth - 1 + extension;

            // Step 13. NegaScout with late-move reductions.
            let score = if moves_searched == 0 {
                -self.negamax(&child, shared, -beta, -alpha, new_depth, ply + 1, false)
            } else {
                let mut reduction = 0;
                if depth >= LMR_MIN_DEPTH
                    && moves_searched > usize::from(pv_node)
                    && (quiet || MovePicker::is_bad_capture(scored.score))
                {
                    reduction =
                        self.lmr[depth.min(MAX_PLY as i32) as usize][moves_searched.min(63)];
                    reduction += i32::from(!pv_node) + i32::from(cut_node) - i32::from(improving);
                    reduction -= 2 * i32::from(gives_check);
                    if quiet {
                        reduction -= i32::from(
                            Some(mv) == ctx.killers[0]
                                || Some(mv) == ctx.killers[1]
                                || Some(mv) == ctx.counter,
                        );
                        reduction -= scored
                            .score
                            .clamp(-2 * LMR_HISTORY_DIVISOR, 2 * LMR_HISTORY_DIVISOR)
                            / LMR_HISTORY_DIVISOR;
                    }
                    reduction = reduction.min(new_depth - 1).max(0);
                }
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
            moves_searched += 1;
            if self.stopped {
                return 0;
            }

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
                            self.history
                                .update_quiets(us, (mv, piece), &quiets_tried, prev, depth);
                        }
                        let best_capture = capture_key(board, mv);
                        self.history
                            .update_captures(best_capture, &captures_tried, depth);
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push((mv, piece));
            } else if let Some(capture) = capture_key(board, mv) {
                captures_tried.push(capture);
            }
        }

        self.move_buffers[ply] = picker.into_buffer();

        // Step 15. No legal move: mate ("INFINITY − ply") or stalemate.
        // Pruning skips moves only after one has been searched, so none searched means none exist.
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
        );

        // Step 17. Teach the correction history, when the result is a quiet one that says more
        // than the static evaluation did (a bound on the wrong side of it says nothing).
        if let (Some(raw), Some(corrected)) = (raw_eval, static_eval) {
            let quiet_best =
                best_move.is_none_or(|mv| !is_capture(board, mv) && mv.promotion.is_none());
            let informative = match bound {
                Bound::Exact => true,
                Bound::Lower => best_score > corrected,
                Bound::Upper => best_score < corrected,
            };
            if quiet_best && informative && !is_mate_score(best_score) {
                self.correction.update(board, depth, raw, best_score);
            }
        }
        best_score
    }
}
