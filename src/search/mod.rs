//! The search (Kornilov and a diploma thesis, docs/sources.md): iterative deepening that fills the
//! transposition table for the next iteration, aspiration windows, MultiPV, and Lazy SMP over
//! several threads.
//!
//! Design note: `Engine` owns what persists between searches (the table, one `Worker` per
//! thread with its history). A search runs the workers on scoped threads sharing the table;
//! worker 0 manages time and reports progress through a `Reporter`, the others search the same
//! tree with staggered depths and only feed the table. `SearchControl` is the handle the
//! protocol uses to stop a search or turn a ponder search into a normal one.

pub mod correction;
pub mod guide;
pub mod history;
mod iterate;
pub mod movepick;
pub mod params;
pub mod strength;
pub mod syzygy;
pub mod time;
pub mod tt;
pub mod tunable;
pub mod wdl;
mod worker;

use crate::bound::Bound;
use crate::eval::nnue::Network;
use crate::rules::{Game, Move};
use guide::Guide;
use iterate::iterate;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Instant;
use time::{Clock, TimeManager};
use tt::TranspositionTable;
pub use worker::{is_mate_score, RootMove};
use worker::{Shared, Worker};

/// Score of being mated at the root; a mate in n plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Larger than any score.
pub const INFINITY: i32 = 32_001;
/// Deepest ply the search can reach.
pub const MAX_PLY: usize = 128;

/// What a `go` command asks for.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<i32>,
    /// Maximum nodes (all threads together).
    pub nodes: Option<u64>,
    /// Fixed time for this move, in milliseconds.
    pub movetime: Option<u64>,
    /// The clock, if playing under a time control.
    pub clock: Option<Clock>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Start as a ponder search: no time limit until `ponderhit`.
    pub ponder: bool,
    /// Only consider these root moves.
    pub search_moves: Vec<Move>,
    /// Moves to try early in the first plies, worked out by the caller for this root
    /// (PIONEER's zone moves when `PioneerGuide` is on); none by default.
    pub guide: Guide,
}

/// A score as UCI shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's view.
    Centipawns(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl Score {
    /// Converts an internal score.
    pub fn from_internal(score: i32) -> Score {
        if score > tt::MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score < -tt::MATE_BOUND {
            Score::Mate(-(MATE + score) / 2)
        } else {
            Score::Centipawns(score)
        }
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Centipawns(cp) => write!(f, "cp {cp}"),
            Score::Mate(m) => write!(f, "mate {m}"),
        }
    }
}

/// One line of search progress.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Iteration depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// Line number, from 1 (MultiPV).
    pub multipv: usize,
    /// The score.
    pub score: Score,
    /// Exact or bound.
    pub bound: Bound,
    /// Nodes so far (all threads).
    pub nodes: u64,
    /// Milliseconds since the start.
    pub time_ms: u64,
    /// Table use in permille.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Tablebase probes that answered so far (all threads).
    pub tbhits: u64,
}

/// Receives search progress (the UCI layer prints it; `analyse` prints it in SAN).
pub trait Reporter {
    /// A completed iteration's line, or a bound when the aspiration window failed.
    fn progress(&mut self, progress: &Progress);

    /// The answer is known. Called on the main search thread right after the helpers were told
    /// to stop and before they are joined, so that a GUI can have its move without waiting for
    /// threads a busy machine has not scheduled yet. By default nothing happens here.
    fn finished(&mut self, _result: &SearchResult) {}

    /// The root move now being searched (`number` from 1), reported by the main thread once a
    /// search has run for a second. By default nothing is shown.
    fn current_move(&mut self, _depth: i32, _mv: Move, _number: usize) {}

    /// Something went wrong that the search worked around (a tablebase that cannot be read).
    /// By default nothing is shown.
    fn problem(&mut self, _text: &str) {}
}

/// A reporter that ignores everything (bench, tests).
pub struct Silent;

impl Reporter for Silent {
    fn progress(&mut self, _: &Progress) {}
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Best move (`None` only when there is no legal move).
    pub best: Option<Move>,
    /// Expected reply, for pondering.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: i32,
    /// Last completed depth.
    pub depth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// Shared handle to stop a running search or end its ponder phase.
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// A `ponderhit` has arrived (possibly before the search thread started).
    hit: AtomicBool,
    time: Mutex<TimeManager>,
}

impl SearchControl {
    /// A control for a search that starts now.
    pub fn new() -> Self {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            hit: AtomicBool::new(false),
            time: Mutex::new(TimeManager::unlimited(Instant::now())),
        }
    }

    /// Asks the search to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Has a stop been requested?
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the ponder search becomes a normal one and our
    /// clock starts now.
    pub fn ponderhit(&self) {
        // Under the time lock, so that a search starting at the same moment either sees the
        // hit or has its clock restarted here.
        let mut tm = self.time.lock().unwrap_or_else(|e| e.into_inner());
        tm.restart(Instant::now());
        self.hit.store(true, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// Is the search still in its ponder phase?
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    fn time(&self) -> TimeManager {
        *self.time.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn hard_time_expired(&self) -> bool {
        !self.pondering() && self.time().hard_expired()
    }
}

impl Default for SearchControl {
    fn default() -> Self {
        Self::new()
    }
}

/// Settings that shape a search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move for communication lag.
    pub move_overhead: u64,
    /// Draw score bias in centipawns (positive: avoid draws).
    pub contempt: i32,
    /// How the endgame tablebases are probed.
    pub syzygy: syzygy::ProbeSettings,
    /// `Skill Level`, `UCI_LimitStrength`, `UCI_Elo`.
    pub strength: strength::StrengthSettings,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            multipv: 1,
            move_overhead: 50,
            contempt: 0,
            syzygy: syzygy::ProbeSettings::default(),
            strength: strength::StrengthSettings::default(),
        }
    }
}

/// The search engine: the transposition table and the worker threads.
pub struct Engine {
    tt: TranspositionTable,
    workers: Vec<Worker>,
    node_counts: Vec<AtomicU64>,
    /// Search settings.
    pub options: SearchOptions,
    /// The endgame tablebases (`SyzygyPath`), if any.
    pub tablebases: Option<crate::tablebases::Tablebases>,
    /// The learned evaluation in use (`None`: the hand-crafted one).
    network: Option<Arc<Network>>,
}

impl Engine {
    /// An engine with a table of `hash_mb` megabytes and `threads` search threads, evaluating
    /// by hand until `set_network` gives it a net (the UCI engine and the command line give it
    /// the built-in one, `crate::eval::nnue::builtin`).
    pub fn new(hash_mb: usize, threads: usize) -> Self {
        let mut engine = Engine {
            tt: TranspositionTable::new(hash_mb),
            workers: Vec::new(),
            node_counts: Vec::new(),
            options: SearchOptions::default(),
            tablebases: None,
            network: None,
        };
        engine.set_threads(threads);
        engine
    }

    /// Changes the number of threads (at least one).
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.max(1);
        self.workers.truncate(threads);
        while self.workers.len() < threads {
            let mut worker = Worker::new(self.workers.len());
            worker.set_network(self.network.clone());
            self.workers.push(worker);
        }
        self.node_counts = (0..threads).map(|_| AtomicU64::new(0)).collect();
    }

    /// Evaluates with `net` from the next search on, or with the hand-crafted evaluation.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        for w in &mut self.workers {
            w.set_network(net.clone());
        }
        self.network = net;
    }

    /// The learned evaluation in use, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// Resizes the transposition table (its contents are lost).
    /// When the memory cannot be allocated the table keeps its size and an error is returned.
    pub fn set_hash(&mut self, megabytes: usize) -> Result<(), String> {
        self.tt.resize(megabytes)
    }

    /// Size of the transposition table in megabytes.
    pub fn hash_megabytes(&self) -> usize {
        self.tt.megabytes()
    }

    /// Forgets everything learned: table and histories (`ucinewgame`).
    pub fn clear(&mut self) {
        self.tt.clear();
        for w in &mut self.workers {
            w.history.clear();
            w.correction.clear();
        }
    }

    /// Searches the current position of `game`.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        let start = Instant::now();
        // Below full strength: fewer nodes, several lines, a choice among them (`strength`).
        let level = self.options.strength.level();
        let weakened = level.map(|l| strength::weaken(limits, &self.options, l));
        let limits = weakened.as_ref().map_or(limits, |(l, _)| l);
        let board = game.board().clone();
        let tm = if let Some(ms) = limits.movetime {
            TimeManager::fixed(start, ms, self.options.move_overhead)
        } else if let Some(clock) = limits.clock.filter(|_| !limits.infinite) {
            TimeManager::from_clock(start, clock, self.options.move_overhead)
        } else {
            TimeManager::unlimited(start)
        };
        {
            // A `ponderhit` that came before this thread got here must not be lost (the search
            // would then ponder forever): the ponder phase starts only if none has come.
            let mut time = control.time.lock().unwrap_or_else(|e| e.into_inner());
            *time = tm;
            let ponder = limits.ponder && !control.hit.load(Ordering::Relaxed);
            control.pondering.store(ponder, Ordering::Relaxed);
        }
        self.tt.new_search();
        for n in &self.node_counts {
            n.store(0, Ordering::Relaxed);
        }
        let tb_hits = AtomicU64::new(0);
        let shared = Shared {
            tt: &self.tt,
            control,
            node_counts: &self.node_counts,
            node_limit: limits.nodes,
            syzygy: self
                .tablebases
                .as_ref()
                .and_then(|t| syzygy::Probe::new(t, self.options.syzygy)),
            tb_hits: &tb_hits,
        };
        let root_moves =
            syzygy::restrict_root(shared.syzygy, &board, &limits.search_moves, reporter);
        for w in &mut self.workers {
            w.prepare(&board, game.keys(), &root_moves, self.options.contempt);
            w.guide = limits.guide;
        }
        if self.workers[0].root_moves.is_empty() {
            let result = SearchResult {
                best: None,
                ponder: None,
                score: 0,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            };
            reporter.finished(&result);
            return result;
        }
        let options = weakened
            .as_ref()
            .map_or_else(|| self.options.clone(), |(_, o)| o.clone());
        let (main, helpers) = self.workers.split_first_mut().expect("at least one worker");
        std::thread::scope(|scope| {
            for helper in helpers.iter_mut() {
                let board = &board;
                let shared = &shared;
                let options = &options;
                scope.spawn(move || iterate(helper, board, shared, limits, options, &mut Silent));
            }
            let mut result = iterate(main, &board, &shared, limits, &options, reporter);
            if let Some(level) = level {
                let seed = start.elapsed().as_nanos() as u64 ^ board.hash();
                strength::pick(&mut result, &main.root_moves, level, seed);
            }
            control.stop();
            reporter.finished(&result);
            result
        })
    }
}

#[cfg(test)]
mod tests;
