//! One search thread: iterative deepening over a NegaScout (principal variation) alpha-beta
//! search with quiescence (after Kornilov and a diploma thesis, docs/sources.md).
//!
//! Design note: positions are copied, not unmade (a `cozy-chess` board is small and copy-make is
//! as fast as make/unmake). The keys of the game and of the current path sit in one stack so
//! repetitions are found across both (Kornilov's). Each node goes through the numbered steps of
//! `negamax` (`worker/negamax.rs`), whose decisions — pruning, extensions, reductions — are
//! named functions in `worker/pruning.rs`; the root is `worker/root.rs`, quiescence
//! `worker/qsearch.rs`.

use super::correction::{CorrectionHistory, Material};
use super::guide::Guide;
use super::history::{CaptureKey, History, PieceTo, PreviousMoves, CONTINUATION_PLIES};
use super::movepick::ScoredMove;
use super::params::*;
use super::tt::{TranspositionTable, TtHit};
use super::{SearchControl, INFINITY, MAX_PLY};
use crate::rules::{repetition_key, Board, Move, Piece};
use crate::search::tt::MATE_BOUND;
use std::sync::atomic::{AtomicU64, Ordering};

mod learned;
mod negamax;
mod pruning;
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
    /// The material of the node at this ply (the correction history's key).
    material: Material,
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
    /// Nodes this worker has spent under the move since the search began, over all iterations.
    pub nodes: u64,
}

/// The moves a node has searched without a cut-off: quiet ones with their pieces, captures as
/// capture history keys them.
#[derive(Default)]
struct TriedMoves {
    quiets: Vec<(Move, Piece)>,
    captures: Vec<CaptureKey>,
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
    /// Storage per ply for the moves a node has searched without a cut-off, which the
    /// history penalises at a cut-off.
    tried_buffers: Vec<TriedMoves>,
    lmr: Vec<[i32; 64]>,
    contempt: i32,
    root_depth: i32,
    stopped: bool,
    /// Singular moves extended by two plies on the path from the root to the current node.
    double_extensions: usize,
    /// Ply at which null moves are forbidden (a null-move verification search), if any.
    null_forbidden_ply: Option<usize>,
    /// The caller's guide moves of both sides at the root (`Limits::guide`).
    pub guide: Guide,
    /// The learned evaluation, when one is selected (`learned.rs`).
    learned: Option<learned::Learned>,
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

/// Late-move reductions by depth and move number (`LMR_BASE`, `LMR_DIVISOR`).
fn lmr_table() -> Vec<[i32; 64]> {
    let base = f64::from(LMR_BASE.get()) / 100.0;
    let divisor = f64::from(LMR_DIVISOR.get()) / 100.0;
    (0..=MAX_PLY)
        .map(|depth| {
            let mut row = [0; 64];
            for (moves, r) in row.iter_mut().enumerate().skip(1) {
                if depth > 0 {
                    *r = (base + (depth as f64).ln() * (moves as f64).ln() / divisor) as i32;
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
            double_extensions: 0,
            frames: vec![Frame::default(); MAX_PLY + 4],
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            move_buffers: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(256)).collect(),
            check_buffers: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(32)).collect(),
            tried_buffers: (0..MAX_PLY + 2).map(|_| TriedMoves::default()).collect(),
            lmr: lmr_table(),
            contempt: 0,
            root_depth: 0,
            stopped: false,
            null_forbidden_ply: None,
            guide: Guide::NONE,
            learned: None,
        }
    }

    /// Prepares a search of `root` reached through the positions whose keys are `game_keys`
    /// (the last key is the root's). `moves` restricts the root moves (UCI `searchmoves`).
    pub fn prepare(&mut self, root: &Board, game_keys: &[u64], moves: &[Move], contempt: i32) {
        // A tuning build may have changed the LMR constants since the last search.
        if cfg!(feature = "tune") {
            self.lmr = lmr_table();
        }
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
                nodes: 0,
            })
            .collect();
        self.nodes = 0;
        self.seldepth = 0;
        self.contempt = contempt;
        self.stopped = false;
        self.history.clear_killers();
        self.frames[0].material = Material::of(root);
        self.learned_new_root(root);
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

    /// Repetition (after Kornilov): a draw if the position occurred before, on the path or in
    /// the game, since the last irreversible move. A second occurrence counts, not only a third:
    /// a side that is ahead must not spend moves walking back into old positions, since the
    /// opponent (or an adjudicator) can then claim the third.
    fn is_repetition(&self, board: &Board) -> bool {
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let limit = (board.halfmove_clock() as usize).min(n - 1);
        (4..=limit)
            .step_by(2)
            .any(|distance| self.keys[n - 1 - distance] == key)
    }

    /// Pushes the child's key and material and remembers the move for continuation history.
    fn push(&mut self, child: &Board, parent: &Board, mv: Move, ply: usize) {
        self.keys.push(repetition_key(child));
        self.learned_move(parent, mv, ply);
        self.frames[ply + 1].material = self.frames[ply].material.after(parent, mv);
        self.frames[ply].moved = Some(PieceTo {
            piece: parent.piece_on(mv.from).unwrap_or(Piece::Pawn),
            to: mv.to,
        });
    }

    /// The static evaluation of a node (none in check) as computed or stored in the table, and
    /// the same corrected by the correction history; the table keeps the uncorrected one, since
    /// the correction goes on learning after it is stored.
    fn static_eval(
        &mut self,
        board: &Board,
        ply: usize,
        in_check: bool,
        tt_hit: Option<TtHit>,
    ) -> (Option<i32>, Option<i32>) {
        if in_check {
            return (None, None);
        }
        let raw = tt_hit.map_or_else(|| self.evaluate(board, ply), |h| h.eval);
        let previous = self.move_back(ply, 1);
        let material = self.frames[ply].material;
        (
            Some(raw),
            Some(self.correction.corrected(board, material, previous, raw)),
        )
    }

    /// The move played `back` plies before the node at `ply` (none before the root or for a
    /// null move); one ply back, the opponent's move that led to the node.
    fn move_back(&self, ply: usize, back: usize) -> Option<PieceTo> {
        ply.checked_sub(back).and_then(|p| self.frames[p].moved)
    }

    fn previous_moves(&self, ply: usize) -> PreviousMoves {
        CONTINUATION_PLIES.map(|back| self.move_back(ply, back))
    }
}
