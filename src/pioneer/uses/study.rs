//! The zone search ("study mode"): a search in which only zone moves are admitted, for both
//! sides, the zones being formed anew in every position.
//!
//! PIONEER: "Starting from some group of trajectories, the positions of the game tree of the
//! chess model formed by the pseudo-search are searched. If a material gain is found there, the
//! program still looks whether the opponent can compensate it in the same time in one of the
//! zones of his attack."
//!
//! Design note: an alpha-beta search over zone moves (`play::moves`), each side's combinations
//! first (`play::admission`), to a horizon of twice the longest forecast of a live attack at the
//! root, plus one ply. A leaf is valued by the zone model alone (`play::model_value`; a known
//! draw is 0); a verdict is a win when one side is at least `WIN` ahead, otherwise a draw, so
//! the window (−WIN, +WIN) suffices and keeps the tree small. A transposition table keyed by the
//! position and the plies left avoids searching a position twice, and a tree stops at a limit
//! of distinct positions (`MAX_POSITIONS` unless asked otherwise): such a result is incomplete
//! and proves nothing. With `Admission::Proof` the same search is the proof of a verdict
//! (`proof`), searched with null windows (`with_window`), its moves ordered by the judge's
//! estimates where it has one (`LeafJudge::estimate`).

use crate::bound::Bound;
use crate::eval::known_draw;
use crate::pioneer::attacks::attack::TrajectoryLimits;
use crate::pioneer::play::admission::Admission;
use crate::pioneer::play::model_value::{standing_value, static_value};
use crate::pioneer::play::moves::zone_moves;
use crate::pioneer::zones::analysis::Analysis;
use crate::rules::{legal_moves, repetition_key, Board, Color, Move};
use crate::tablebases::{has_castling_rights, Tablebases};
use shakmaty_syzygy::Wdl;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Material lead (centipawns) that counts as a win.
pub const WIN: i32 = 300;
/// The most plies before a proof's horizon at which a position already won ends its line
/// (`ZoneSearch::early_win`): each costs a judge's search that many plies deeper.
pub const EARLY_WIN_PLIES: u32 = 4;
/// Value of being mated.
pub const MATE: i32 = 30_000;
/// Value of a position the endgame tables call won (less the plies to reach it): above every
/// material lead, below every mate.
pub const TABLE_WIN: i32 = MATE / 2;
/// Longest horizon the automatic choice takes.
pub const MAX_HORIZON: u32 = 15;
/// Default limit on the positions of one tree; a search that reaches it stops unfinished.
pub const MAX_POSITIONS: usize = 2_000;
/// All the trees of a study together hold at most this many times `max_positions`; first moves
/// left when it is spent are not searched.
pub const STUDY_BUDGET: usize = 4;

/// The outcome of a zone search, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StudyVerdict {
    /// White gains decisive material.
    WhiteWins,
    /// Neither side gains decisive material.
    Draw,
    /// Black gains decisive material.
    BlackWins,
}

impl StudyVerdict {
    /// The verdict of a value from White's point of view.
    pub fn of(white_value: i32) -> StudyVerdict {
        if white_value >= WIN {
            StudyVerdict::WhiteWins
        } else if white_value <= -WIN {
            StudyVerdict::BlackWins
        } else {
            StudyVerdict::Draw
        }
    }
}

impl std::fmt::Display for StudyVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StudyVerdict::WhiteWins => "White wins",
            StudyVerdict::Draw => "draw",
            StudyVerdict::BlackWins => "Black wins",
        })
    }
}

/// The result of one zone search.
#[derive(Clone, Debug)]
pub struct StudyResult {
    /// Value from White's point of view (a bound when outside the window).
    pub value: i32,
    /// The verdict.
    pub verdict: StudyVerdict,
    /// The main line.
    pub line: Vec<Move>,
    /// Distinct positions in the tree (the start position included).
    pub positions: usize,
    /// Positions visited, repetitions through the table included.
    pub nodes: u64,
    /// Positions valued by the endgame tables (each visit counted).
    pub table_leaves: u64,
    /// Horizon in plies.
    pub horizon: u32,
    /// Did the search finish within its position limit (otherwise nothing is proven)?
    pub complete: bool,
}

#[derive(Clone, Copy)]
struct Entry {
    value: i32,
    bound: Bound,
    best: Option<Move>,
}

/// One move of the searched tree, for printing it.
#[derive(Clone, Debug)]
pub struct TraceLine {
    /// Plies from the start of the search (0: a first move).
    pub ply: u32,
    /// The move in SAN.
    pub san: String,
    /// Its value for the side that made it (a bound when the window cut it off).
    pub value: i32,
}

/// A second opinion on the horizon leaves of a proof, given from outside PIONEER (which knows
/// no search): a bounded search of the engine, say.
pub trait LeafJudge: Send {
    /// The value of `board` for the side to move, in centipawns; a forced mate at least
    /// `TABLE_WIN` (it is not counted in the tree's plies). `extra_plies` lengthens the judge's
    /// look-ahead: a position that many plies before a proof's horizon is judged as far ahead
    /// as the horizon's leaves below it would be. A judge that cannot look that far within its
    /// means answers 0 (a draw confirms no win and vetoes nothing).
    fn value(&mut self, board: &Board, extra_plies: u32) -> i32;

    /// A quick value of `board` for the side to move (a shallow search, say), by which a
    /// proof orders its moves; a judge without one answers 0 everywhere and the zone order
    /// stands.
    fn estimate(&mut self, _board: &Board) -> i32 {
        0
    }
}

/// What every tree of a study is searched with.
#[derive(Clone, Default)]
pub struct StudySettings {
    /// Limits of the trajectories the zones are formed from.
    pub limits: TrajectoryLimits,
    /// Syzygy tables, if given: every position they cover (but the searched position itself)
    /// is a leaf valued by their verdict instead of the zone model.
    pub tables: Option<Arc<Tablebases>>,
    /// The judge of a proof's horizon leaves, if given: a leaf then counts as a win for the
    /// attacker only where the judge sees one too, and a leaf where the judge sees the attacker
    /// `WIN` behind is worth what the judge says, whatever the model's value (the zone model
    /// counts material and cannot see a pawn about to queen past a horizon, a piece about to be
    /// lost or a mate). The zone search proper (both sides on zone moves) stays the model's.
    pub judge: Option<Arc<Mutex<dyn LeafJudge>>>,
    /// A switch that ends every tree of the study as soon as it is on, each as if out of
    /// positions (incomplete, so proving nothing): a study whose reader went away.
    pub stop: Option<Arc<AtomicBool>>,
}

impl StudySettings {
    /// Has the study been told to stop?
    pub fn stopped(&self) -> bool {
        is_on(&self.stop)
    }
}

/// Is the stop switch, if any, on?
fn is_on(stop: &Option<Arc<AtomicBool>>) -> bool {
    stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
}

/// The zone search engine.
pub struct ZoneSearch {
    limits: TrajectoryLimits,
    tables: Option<Arc<Tablebases>>,
    judge: Option<Arc<Mutex<dyn LeafJudge>>>,
    stop: Option<Arc<AtomicBool>>,
    table_leaves: u64,
    admission: Admission,
    /// The tree, move by move in search order, when tracing is on.
    pub trace: Option<Vec<TraceLine>>,
    table: HashMap<(u64, u32), Entry>,
    positions: HashSet<u64>,
    nodes: u64,
    keys: Vec<u64>,
    history: Vec<u64>,
    max_positions: usize,
    aborted: bool,
    /// In a proof, what the attacker holds in the searched position by the zone model, before
    /// any capture (`standing_value`).
    root_lead: i32,
    /// Best moves found by earlier searches of the same position (`with_hints`), tried first
    /// where this tree has no move of its own.
    hints: HashMap<u64, Move>,
    /// The root's window, for the side to move (`with_window`).
    window: (i32, i32),
    /// Does the window ask for a mate on the board (`run`)? Then neither the judge's value of a
    /// leaf (which only ever lowers the model's, far below a mate) nor an early win (no mate)
    /// can change the answer, and neither is asked for.
    mate_question: bool,
}

impl ZoneSearch {
    /// A search with fresh tables.
    pub fn new(limits: TrajectoryLimits) -> Self {
        ZoneSearch {
            limits,
            tables: None,
            judge: None,
            stop: None,
            table_leaves: 0,
            admission: Admission::ZoneMoves,
            trace: None,
            table: HashMap::new(),
            positions: HashSet::new(),
            nodes: 0,
            keys: Vec::new(),
            history: Vec::new(),
            max_positions: MAX_POSITIONS,
            aborted: false,
            root_lead: 0,
            hints: HashMap::new(),
            window: (-WIN, WIN),
            mate_question: false,
        }
    }

    /// A search of `settings`: its trajectory limits and its tables.
    pub fn with_settings(settings: &StudySettings) -> Self {
        ZoneSearch {
            tables: settings.tables.clone(),
            judge: settings.judge.clone(),
            stop: settings.stop.clone(),
            ..ZoneSearch::new(settings.limits)
        }
    }

    /// Sets which moves the sides may play.
    pub fn with_admission(mut self, admission: Admission) -> Self {
        self.admission = admission;
        self
    }

    /// Starts the repetition history with the positions before the searched one (oldest first).
    pub fn with_history(mut self, keys: &[u64]) -> Self {
        self.history = keys.to_vec();
        self
    }

    /// Orders moves by `hints`, the best moves of earlier searches by position key
    /// (`into_best_moves`): a proof searches its tree again with a larger budget or a deeper
    /// horizon, and the move that won or refuted last time usually does again, so trying it first
    /// keeps the next tree small. A hint only orders moves; it never admits one.
    pub fn with_hints(mut self, hints: HashMap<u64, Move>) -> Self {
        self.hints = hints;
        self
    }

    /// The best move of every position this search stored, by position key (for the deepest
    /// horizon where a position stands at several), over the hints it was given: the hints of
    /// the next search (`with_hints`).
    pub fn into_best_moves(self) -> HashMap<u64, Move> {
        let mut stored: Vec<(u32, u64, Move)> = self
            .table
            .iter()
            .filter_map(|(&(hash, depth), entry)| entry.best.map(|mv| (depth, hash, mv)))
            .collect();
        // Shallowest first, so that a position's deepest entry is inserted last and stays.
        stored.sort_unstable_by_key(|&(depth, _, _)| depth);
        let mut moves = self.hints;
        moves.extend(stored.into_iter().map(|(_, hash, mv)| (hash, mv)));
        moves
    }

    /// Searches the root with the window (`alpha`, `beta`) for the side to move instead of
    /// (−`WIN`, `WIN`): a proof asks one question at a time ("does the attacker win?"), and a
    /// null window answers it with the smallest tree, at the price of a bound for a value.
    pub fn with_window(mut self, alpha: i32, beta: i32) -> Self {
        self.window = (alpha, beta);
        self
    }

    /// Sets the limit on distinct positions; reaching it stops the search unfinished.
    pub fn with_max_positions(mut self, max: usize) -> Self {
        self.max_positions = max.max(1);
        self
    }

    /// The horizon the zones of `board` call for: twice the longest forecast of a live attack,
    /// plus one ply, within [3, `MAX_HORIZON`].
    pub fn horizon(board: &Board, limits: TrajectoryLimits) -> u32 {
        let analysis = Analysis::new(board, limits);
        let longest = analysis
            .zones
            .iter()
            .map(|z| z.attack.forecast() as u32)
            .max()
            .unwrap_or(1);
        (2 * longest + 1).clamp(3, MAX_HORIZON)
    }

    /// Searches `board` to `horizon` plies.
    pub fn run(&mut self, board: &Board, horizon: u32) -> StudyResult {
        self.keys.clone_from(&self.history);
        self.keys.push(repetition_key(board));
        let (alpha, beta) = self.window;
        if let (Some(_), Some(sign)) = (&self.judge, self.attacker_sign(board)) {
            // Only a judged proof ends lines early, against this lead.
            self.root_lead = sign * standing_value(board, &Analysis::new(board, self.limits));
            let attacker_alpha = if sign == 1 { alpha } else { -beta };
            self.mate_question = attacker_alpha >= TABLE_WIN;
        }
        let value = self.zone_search(board, horizon, alpha, beta, 0);
        let line = self.line(board, horizon);
        let white = if board.side_to_move() == Color::White {
            value
        } else {
            -value
        };
        StudyResult {
            value: white,
            verdict: StudyVerdict::of(white),
            line,
            positions: self.positions.len(),
            nodes: self.nodes,
            table_leaves: self.table_leaves,
            horizon,
            complete: !self.aborted,
        }
    }

    /// The tables' value of `board`, `ply` plies into the tree, for the side to move: `None`
    /// where no table covers it (castling rights included: the tables know none). The
    /// position is read as if its halfmove clock were zero, so a win the 50-move rule would
    /// spoil from a later clock still counts; a win or loss the rule turns into a draw from
    /// zero is a draw.
    fn table_value(&mut self, board: &Board, ply: u32) -> Option<i32> {
        let tables = self.tables.as_ref()?;
        if board.occupied().len() as usize > tables.max_pieces() || has_castling_rights(board) {
            return None;
        }
        let value = match tables.probe_wdl(board)? {
            Wdl::Win => TABLE_WIN - ply as i32,
            Wdl::Loss => -TABLE_WIN + ply as i32,
            Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => 0,
        };
        self.table_leaves += 1;
        Some(value)
    }

    /// The value of a horizon leaf for the side to move: the zone model's, and in a proof with
    /// a judge no better for the attacker than the judge allows (`StudySettings::judge`).
    fn leaf_value(&mut self, board: &Board, analysis: &Analysis) -> i32 {
        let model = static_value(board, analysis);
        if self.mate_question {
            return model;
        }
        self.judged(board, model, 0)
    }

    /// A proof's position at most `EARLY_WIN_PLIES` before the horizon where the attacker has won a
    /// win's worth since the searched position (by the model, against what it held there before any
    /// capture) and the judge, looking as far past the horizon as its leaves below would be judged,
    /// sees a win too, is a leaf with that value: a win within the horizon. In a middlegame a piece
    /// won at the third ply of seven otherwise costs a tree of every defence for four plies more.
    /// (A judge looking only its usual distance from here called Kasparyan's drawn 1.Qe1 a win; and
    /// where the searched position is already won by the model, any first move that keeps the lead
    /// would end the proof at once and be taken for the solution.)
    fn early_win(&mut self, board: &Board, analysis: &Analysis, depth: u32) -> Option<i32> {
        let (Some(_), Some(sign)) = (&self.judge, self.attacker_sign(board)) else {
            return None;
        };
        if depth > EARLY_WIN_PLIES || self.mate_question {
            return None;
        }
        let model = static_value(board, analysis);
        if sign * model < WIN || sign * model - self.root_lead < WIN {
            return None;
        }
        let value = self.judged(board, model, depth);
        (sign * value >= WIN).then_some(value)
    }

    /// `model`, the zone model's value of `board` for the side to move, as a proof's judge
    /// bounds it, the judge looking `extra_plies` further than at the horizon.
    fn judged(&mut self, board: &Board, model: i32, extra_plies: u32) -> i32 {
        let (Some(judge), Some(sign)) = (&self.judge, self.attacker_sign(board)) else {
            return model;
        };
        // A judge that panicked once is not asked again: the model alone goes on.
        let Ok(mut judge) = judge.lock() else {
            return model;
        };
        let judged = sign * judge.value(board, extra_plies).clamp(-TABLE_WIN, TABLE_WIN);
        // Short of a decisive lead either way the judge confirms no win and vetoes no hold: a
        // search's score of a drawn ending a pawn or two down says little.
        let bound = if judged.abs() >= WIN { judged } else { WIN - 1 };
        sign * (sign * model).min(bound)
    }

    /// In a proof with a judge, orders `moves` best first for the side to move by the judge's
    /// estimate of the position after each (ties keep the zone order); at the root (`ply` 0)
    /// by the judge's value, a leaf's deeper search. A proof needs one move that works at each
    /// of the attacker's nodes and one refutation at each of the defender's; the zone model
    /// ranks by its own exchanges and timing, which misjudge tactics (WAC 68: the proof of
    /// 1.Qxe3 took 718 positions in the zones' order, 287 in this). The root's first move
    /// takes a whole tree before the next is tried, and a shallow estimate misses a mate in
    /// three (Anderssen–Zukertort, 31.Bh7+: 4,000 positions spent on 31.Rh3 first, 29 with
    /// the mate first); the root has few moves, so their deeper searches cost little.
    fn order_by_judge(&self, board: &Board, moves: &mut [Move], ply: u32) {
        let (Some(judge), Some(_)) = (&self.judge, self.attacker_sign(board)) else {
            return;
        };
        let Ok(mut judge) = judge.lock() else {
            return;
        };
        // The value is the opponent's, to move after the move: lowest first.
        moves.sort_by_cached_key(|&mv| {
            let mut child = board.clone();
            child.play_unchecked(mv);
            if ply == 0 {
                judge.value(&child, 0)
            } else {
                judge.estimate(&child)
            }
        });
    }

    /// In a proof, 1 where the attacker is to move in `board` and −1 where the defender is.
    fn attacker_sign(&self, board: &Board) -> Option<i32> {
        match self.admission {
            Admission::Proof { attacker } if board.side_to_move() == attacker => Some(1),
            Admission::Proof { .. } => Some(-1),
            Admission::ZoneMoves => None,
        }
    }

    fn line(&self, board: &Board, horizon: u32) -> Vec<Move> {
        let mut out = Vec::new();
        let mut board = board.clone();
        let mut depth = horizon;
        while depth > 0 {
            let Some(mv) = self.table.get(&(board.hash(), depth)).and_then(|e| e.best) else {
                break;
            };
            if !board.is_legal(mv) {
                break;
            }
            out.push(mv);
            board.play_unchecked(mv);
            depth -= 1;
        }
        out
    }

    fn is_repetition(&self) -> bool {
        let n = self.keys.len();
        let last = self.keys[n - 1];
        self.keys[..n - 1]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&k| k == last)
    }

    fn zone_search(
        &mut self,
        board: &Board,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        if self.aborted {
            return 0;
        }
        let hash = board.hash();
        if (!self.positions.contains(&hash) && self.positions.len() >= self.max_positions)
            || is_on(&self.stop)
        {
            self.aborted = true;
            return 0;
        }
        self.nodes += 1;
        self.positions.insert(hash);
        let legal = legal_moves(board);
        if legal.is_empty() {
            return if board.checkers().is_empty() {
                0
            } else {
                -MATE + ply as i32
            };
        }
        if known_draw(board) || self.is_repetition() {
            return 0;
        }
        if ply > 0 {
            if let Some(value) = self.table_value(board, ply) {
                return value;
            }
        }
        let key = (board.hash(), depth);
        let mut table_move = self.hints.get(&board.hash()).copied();
        if let Some(e) = self.table.get(&key) {
            table_move = e.best.or(table_move);
            if e.bound.settles(e.value, alpha, beta) {
                return e.value;
            }
        }
        let analysis = Analysis::new(board, self.limits);
        if depth == 0 {
            return self.leaf_value(board, &analysis);
        }
        if ply > 0 {
            if let Some(value) = self.early_win(board, &analysis, depth) {
                return value;
            }
        }
        let mut moves = self.admission.moves(board, &analysis, legal, depth, ply);
        if moves.is_empty() {
            return static_value(board, &analysis);
        }
        self.order_by_judge(board, &mut moves, ply);
        if let Some(i) = moves.iter().position(|&m| Some(m) == table_move) {
            let m = moves.remove(i);
            moves.insert(0, m);
        }
        let original_alpha = alpha;
        let mut best = -MATE - 1;
        let mut best_move = None;
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            self.keys.push(repetition_key(&child));
            let traced = self.trace.as_mut().map(|t| {
                t.push(TraceLine {
                    ply,
                    san: crate::rules::notation::move_to_san(board, mv),
                    value: 0,
                });
                t.len() - 1
            });
            let value = -self.zone_search(&child, depth - 1, -beta, -alpha, ply + 1);
            if let (Some(t), Some(i)) = (self.trace.as_mut(), traced) {
                t[i].value = value;
            }
            self.keys.pop();
            if self.aborted {
                // The tree ends here unfinished: keep the best move completed, or the one under
                // examination, so that the line of an unfinished search shows where it stood.
                self.table.entry(key).or_insert(Entry {
                    value: best,
                    bound: Bound::Upper,
                    best: best_move.or(Some(mv)),
                });
                return 0;
            }
            if value > best {
                best = value;
                best_move = Some(mv);
            }
            if value > alpha {
                alpha = value;
            }
            if alpha >= beta {
                break;
            }
        }
        let bound = Bound::of(best, original_alpha, beta);
        self.table.insert(
            key,
            Entry {
                value: best,
                bound,
                best: best_move,
            },
        );
        best
    }
}

/// One first move of a study and what the zone search says of it.
#[derive(Clone, Debug)]
pub struct FirstMove {
    /// The move.
    pub mv: Move,
    /// Is it a zone move of the start position?
    pub zone_move: bool,
    /// The search after it.
    pub result: StudyResult,
}

/// A study solved by the zone search.
#[derive(Clone, Debug)]
pub struct Study {
    /// The search from the start position (combinations and zone moves only).
    pub root: StudyResult,
    /// Every legal first move searched on its own, with its own tree.
    pub first_moves: Vec<FirstMove>,
    /// The root search's tree, move by move, when asked for.
    pub tree: Vec<TraceLine>,
}

/// Solves `board`: the zone search from it, then, with `first_moves`, every legal first move
/// on its own (zone moves of the start position first), each with a fresh tree of at most
/// `max_positions` positions, all trees together at most `STUDY_BUDGET` times that (later
/// first moves are then left unsearched: `positions == 0`, not complete, as they are once the
/// settings' `stop` is on). `horizon` defaults
/// to the zones' own. Each first move is passed to `on_first_move` as soon as it is searched.
pub fn solve(
    board: &Board,
    horizon: Option<u32>,
    settings: &StudySettings,
    trace: bool,
    max_positions: usize,
    first_moves: bool,
    on_first_move: &mut dyn FnMut(&FirstMove),
) -> Study {
    let limits = settings.limits;
    let horizon = horizon
        .unwrap_or_else(|| ZoneSearch::horizon(board, limits))
        .max(1);
    let mut search = ZoneSearch::with_settings(settings).with_max_positions(max_positions);
    if trace {
        search.trace = Some(Vec::new());
    }
    let root = search.run(board, horizon);
    let tree = search.trace.take().unwrap_or_default();
    if !first_moves {
        return Study {
            root,
            first_moves: Vec::new(),
            tree,
        };
    }
    let analysis = Analysis::new(board, limits);
    let zone: Vec<Move> = zone_moves(board, &analysis, horizon.div_ceil(2) as u8)
        .iter()
        .map(|m| m.mv)
        .collect();
    let mut searched = Vec::new();
    let mut all = legal_moves(board);
    all.sort_by_key(|m| zone.iter().position(|z| z == m).unwrap_or(usize::MAX));
    let mut budget = (STUDY_BUDGET * max_positions).saturating_sub(root.positions);
    for mv in all {
        let mut child = board.clone();
        child.play_unchecked(mv);
        let mut result = if budget == 0 || settings.stopped() {
            StudyResult {
                value: 0,
                verdict: StudyVerdict::Draw,
                line: Vec::new(),
                positions: 0,
                nodes: 0,
                table_leaves: 0,
                horizon: horizon - 1,
                complete: false,
            }
        } else {
            ZoneSearch::with_settings(settings)
                .with_max_positions(max_positions.min(budget))
                .with_history(&[repetition_key(board)])
                .run(&child, horizon - 1)
        };
        budget = budget.saturating_sub(result.positions);
        result.line.insert(0, mv);
        let first = FirstMove {
            mv,
            zone_move: zone.contains(&mv),
            result,
        };
        on_first_move(&first);
        searched.push(first);
    }
    Study {
        root,
        first_moves: searched,
        tree,
    }
}

#[cfg(test)]
#[path = "study_tests.rs"]
mod tests;
