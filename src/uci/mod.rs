//! The UCI protocol: the command loop, `position` and `go` parsing, options, and the search
//! thread that reports `info` lines and the `bestmove`.
//!
//! Design note: the main thread reads commands and is never blocked by a search, so `stop`,
//! `isready` and `ponderhit` are answered at once. A search runs on its own thread, which
//! borrows the engine for its duration; commands that need the engine (`setoption`,
//! `ucinewgame`) first end the running search. Bad input never changes the state: it gets an
//! `info string error: …` line and the engine goes on with what it had.

mod book;
mod eval_file;
pub mod go;
mod inspect;
pub mod options;
mod report;
mod tablebases;

use crate::rules::notation::move_to_uci;
use crate::rules::{Board, Game};
use crate::search::guide::Guide;
use crate::search::{Engine, SearchControl};
use options::{declared, parse_setoption, spin_default, OptionSpec, OptionValue};
use report::{Answer, UciReporter};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Longest accepted command line; longer lines are discarded with an error.
pub const MAX_LINE: usize = 1 << 20;

/// Most plans in each list of `ShowPlans` (the move's reading, other plans, threats).
pub const PLANS_SHOWN: usize = 4;

/// Where protocol output goes (stdout, or a buffer in tests). Lines are written whole.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Output to standard output.
    pub fn stdout() -> Self {
        Output(Arc::new(Mutex::new(Box::new(std::io::stdout()))))
    }

    /// Output to any writer.
    pub fn to(writer: impl Write + Send + 'static) -> Self {
        Output(Arc::new(Mutex::new(Box::new(writer))))
    }

    /// Writes one line and flushes. A closed pipe is ignored: the GUI is gone.
    pub fn line(&self, text: &str) {
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }

    /// Writes an `info string error: …` line. Control characters from the input that the
    /// message quotes (NUL, escape sequences) are shown escaped, never echoed to the GUI.
    pub fn error(&self, text: &str) {
        let mut shown = String::with_capacity(text.len());
        for c in text.chars() {
            if c.is_control() {
                shown.extend(c.escape_default());
            } else {
                shown.push(c);
            }
        }
        self.line(&format!("info string error: {shown}"));
    }
}

/// Whether the loop goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading commands.
    Continue,
    /// `quit` was received.
    Quit,
}

struct RunningSearch {
    control: Arc<SearchControl>,
    handle: JoinHandle<()>,
    /// Set by the search thread just before it writes its `bestmove`: from then on the search
    /// is over for the GUI, which may send the next `go` before the thread has exited.
    answered: Arc<AtomicBool>,
    /// Set by `stop`, `quit` and the like: an infinite or ponder search that has ended by
    /// itself (depth reached, mate found) holds its bestmove until then. (The search sets its
    /// own stop flag when it ends, so that flag cannot tell.)
    released: Arc<AtomicBool>,
    /// `go infinite`, or `go ponder` before its `ponderhit`: a search that does not end by
    /// itself, so a `go` that arrives during it stops it instead of waiting for it.
    open_ended: bool,
    /// `go infinite`: still open-ended after a `ponderhit`.
    infinite: bool,
}

impl RunningSearch {
    /// Stops the search and releases its bestmove.
    fn stop(&self) {
        self.released.store(true, Ordering::Release);
        self.control.stop();
    }
}

/// Protocol state.
pub struct Uci {
    out: Output,
    engine: Arc<Mutex<Engine>>,
    game: Game,
    specs: Vec<OptionSpec>,
    chess960: bool,
    search: Option<RunningSearch>,
    /// `ShowPlans`: PIONEER's plans for the root as `info string plan …` before each search.
    show_plans: bool,
    /// `PioneerGuide`: PIONEER's zone moves of the root are handed to the search as its guide.
    pioneer_guide: bool,
    /// `UCI_ShowWDL`: win/draw/loss chances in each `info` line.
    show_wdl: bool,
    book: book::BookSession,
    /// `EvalFile` and `UseNNUE`.
    evaluation: eval_file::EvalOptions,
}

/// PIONEER's zone moves of both sides at `root`, as the search's guide (`PioneerGuide`).
pub fn pioneer_search_guide(root: &Board) -> Guide {
    let zone_moves = crate::pioneer::uses::guide::root_zone_moves(root);
    Guide::new(&zone_moves.white, &zone_moves.black)
}

impl Uci {
    /// A protocol handler writing to `out`.
    pub fn new(out: Output) -> Self {
        let specs = declared();
        let mut engine = Engine::new(
            spin_default(&specs, "Hash") as usize,
            spin_default(&specs, "Threads") as usize,
        );
        engine.options.move_overhead = spin_default(&specs, "Move Overhead") as u64;
        let evaluation = eval_file::EvalOptions::default();
        engine.set_network(evaluation.network());
        Uci {
            out,
            engine: Arc::new(Mutex::new(engine)),
            game: Game::new(),
            specs,
            chess960: false,
            search: None,
            show_plans: false,
            pioneer_guide: false,
            show_wdl: false,
            book: book::BookSession::new(),
            evaluation,
        }
    }

    fn lock_engine(&self) -> std::sync::MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Handles one command line.
    pub fn handle(&mut self, line: &str) -> Flow {
        self.reap_finished_search();
        let line = line.trim();
        let (command, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let args = args.trim();
        match command {
            "" => {}
            "uci" => {
                self.out
                    .line(&format!("id name Tropa {}", env!("CARGO_PKG_VERSION")));
                self.out.line("id author the Tropa developers");
                for spec in &self.specs {
                    self.out.line(&spec.to_string());
                }
                self.out.line("uciok");
            }
            "isready" => self.out.line("readyok"),
            "debug" | "register" => {}
            "ucinewgame" => {
                self.finish_search();
                self.book.end_game(&self.out);
                self.lock_engine().clear();
                self.game = Game::from_board(Board::default(), self.chess960);
            }
            "position" => match go::parse_position(args, self.chess960) {
                Ok(game) => {
                    self.book.position(&game, &self.out);
                    self.game = game
                }
                Err(e) => self.out.error(&e),
            },
            "go" => self.go(args),
            "stop" => {
                if let Some(search) = &self.search {
                    search.stop();
                }
                self.finish_search();
            }
            "ponderhit" => {
                if let Some(search) = &mut self.search {
                    search.control.ponderhit();
                    search.open_ended = search.infinite;
                }
            }
            "setoption" => self.setoption(args),
            "quit" => {
                if let Some(search) = &self.search {
                    search.stop();
                }
                self.finish_search();
                self.book.end_game(&self.out);
                return Flow::Quit;
            }
            "d" => inspect::show_board(self.game.board(), self.chess960, &self.out),
            "eval" => {
                let net = self.evaluation.network();
                inspect::show_eval(self.game.board(), net.as_deref(), &self.out)
            }
            _ => {
                let shown: String = command.chars().take(40).collect();
                self.out.error(&format!("unknown command '{shown}'"));
            }
        }
        Flow::Continue
    }

    fn setoption(&mut self, args: &str) {
        let (name, value) = match parse_setoption(args, &self.specs) {
            Ok(v) => v,
            Err(e) => return self.out.error(&e),
        };
        self.finish_search();
        if book::BookSession::handles(name) {
            return self.book.set_option(name, value, &self.out);
        }
        // The field, not `lock_engine`: the evaluation options are changed beside the engine.
        let mut engine = self.engine.lock().unwrap_or_else(|e| e.into_inner());
        if tablebases::OPTIONS.contains(&name) {
            return tablebases::set_option(&mut engine, name, value, &self.out);
        }
        #[cfg(feature = "tune")]
        if let (Some(tunable), OptionValue::Int(v)) = (
            crate::search::params::TUNABLES
                .iter()
                .find(|t| t.name == name),
            &value,
        ) {
            // In range: `parse_setoption` checked it against the declaration.
            return tunable.set(*v as i32);
        }
        match (name, value) {
            ("Hash", OptionValue::Int(mb)) => {
                if let Err(e) = engine.set_hash(mb as usize) {
                    let kept = engine.hash_megabytes();
                    self.out.error(&format!("{e}; keeping {kept} MB"));
                }
            }
            ("Threads", OptionValue::Int(n)) => engine.set_threads(n as usize),
            ("MultiPV", OptionValue::Int(n)) => engine.options.multipv = n as usize,
            ("Move Overhead", OptionValue::Int(ms)) => engine.options.move_overhead = ms as u64,
            ("Contempt", OptionValue::Int(cp)) => engine.options.contempt = cp as i32,
            ("Skill Level", OptionValue::Int(level)) => engine.options.strength.skill = level,
            ("UCI_LimitStrength", OptionValue::Bool(on)) => engine.options.strength.limit = on,
            ("UCI_Elo", OptionValue::Int(elo)) => engine.options.strength.elo = elo,
            ("Clear Hash", _) => engine.clear(),
            ("EvalFile", OptionValue::Text(path)) => {
                self.evaluation.set_file(&mut engine, &path, &self.out)
            }
            ("UseNNUE", OptionValue::Bool(on)) => {
                self.evaluation.set_use_nnue(&mut engine, on, &self.out)
            }
            ("UCI_Chess960", OptionValue::Bool(on)) => {
                drop(engine);
                self.chess960 = on;
                self.game = Game::from_board(self.game.board().clone(), on);
            }
            ("ShowPlans", OptionValue::Bool(on)) => {
                drop(engine);
                self.show_plans = on;
            }
            ("UCI_ShowWDL", OptionValue::Bool(on)) => {
                drop(engine);
                self.show_wdl = on;
            }
            ("PioneerGuide", OptionValue::Bool(on)) => {
                drop(engine);
                self.pioneer_guide = on;
            }
            // Ponder only tells us the GUI may send `go ponder`; nothing to configure.
            ("Ponder", _) => {}
            (other, _) => self.out.error(&format!("option '{other}' is not handled")),
        }
    }

    fn go(&mut self, args: &str) {
        // Every `go` gets its `bestmove`, also one sent while a search runs (a script or a fast
        // GUI pipes its commands at once): the running search answers first, then this one
        // starts. A search that ends by itself is waited for, as Stockfish does; one that
        // would wait for `stop` forever (infinite, pondering) is stopped.
        if let Some(search) = &self.search {
            if search.open_ended && !search.answered.load(Ordering::Acquire) {
                self.out
                    .line("info string stopping the running search for the new go");
                search.stop();
            }
            self.wait_for_search();
        }
        if let Some(depth) = inspect::perft_depth(args) {
            return match depth {
                Ok(depth) => inspect::run_perft(self.game.board(), depth, self.chess960, &self.out),
                Err(e) => self.out.error(&e),
            };
        }
        let (mut limits, problems) = go::parse_go(args, self.game.board(), self.chess960);
        for problem in problems {
            self.out.error(&problem);
        }
        let multipv = self.lock_engine().options.multipv;
        if let Some((info, mv)) = self.book.go(&self.game, &limits, multipv, self.chess960) {
            let text = move_to_uci(self.game.board(), mv, self.chess960);
            self.out.line(&info);
            return self.out.line(&format!("bestmove {text}"));
        }
        let book_log = self.book.log();
        let (infinite, open_ended) = (limits.infinite, limits.infinite || limits.ponder);
        let control = Arc::new(SearchControl::new());
        let engine = Arc::clone(&self.engine);
        let game = self.game.clone();
        let out = self.out.clone();
        let chess960 = self.chess960;
        let show_plans = self.show_plans;
        let pioneer_guide = self.pioneer_guide;
        let wdl_material = self
            .show_wdl
            .then(|| crate::search::wdl::material(self.game.board()));
        let thread_control = Arc::clone(&control);
        let answered = Arc::new(AtomicBool::new(false));
        let thread_answered = Arc::clone(&answered);
        let released = Arc::new(AtomicBool::new(false));
        let thread_released = Arc::clone(&released);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                if show_plans {
                    for line in crate::explain::checked_plan_lines(
                        game.board(),
                        crate::explain::CheckLimits::default(),
                        PLANS_SHOWN,
                    ) {
                        out.line(&format!("info string plan {line}"));
                    }
                }
                if pioneer_guide {
                    limits.guide = pioneer_search_guide(game.board());
                }
                let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
                let mut reporter = UciReporter {
                    out,
                    root: game.board().clone(),
                    chess960,
                    wdl_material,
                    answer: Answer {
                        infinite: limits.infinite,
                        ponder: limits.ponder,
                        control: Arc::clone(&thread_control),
                        released: thread_released,
                        answered: thread_answered,
                        written: false,
                    },
                };
                let result = engine.search(&game, &limits, &thread_control, &mut reporter);
                drop(engine);
                if let (Some(best), false) = (result.best, limits.infinite) {
                    book::record_search(&book_log, &game, best, result.score);
                }
                // Normally written already (`Reporter::finished`); never left unwritten. The
                // next command joins this thread first, so the move above is logged by then.
                reporter.answer(&result);
            });
        match spawned {
            Ok(handle) => {
                self.search = Some(RunningSearch {
                    control,
                    handle,
                    answered,
                    released,
                    open_ended,
                    infinite,
                })
            }
            Err(e) => self
                .out
                .error(&format!("cannot start the search thread: {e}")),
        }
    }

    /// Waits for the running search (if any) to print its bestmove.
    fn finish_search(&mut self) {
        if let Some(search) = self.search.take() {
            search.stop();
            let _ = search.handle.join();
        }
    }

    fn reap_finished_search(&mut self) {
        if self
            .search
            .as_ref()
            .is_some_and(|s| s.handle.is_finished() || s.answered.load(Ordering::Acquire))
        {
            self.finish_search();
        }
    }

    /// Waits for a running search to end by itself (a finite one, or one already stopped).
    fn wait_for_search(&mut self) {
        if let Some(search) = self.search.take() {
            let _ = search.handle.join();
        }
    }
}

/// Reads one line of at most `MAX_LINE` bytes into `buf`. Returns `Ok(None)` at end of input,
/// `Ok(Some(false))` for a line that was too long (its rest is discarded).
fn read_line_capped(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    buf.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok(if any { Some(!too_long) } else { None });
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        if !too_long {
            if buf.len() + part.len() > MAX_LINE {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(part);
            }
        }
        let used = done.unwrap_or(chunk.len());
        reader.consume(used);
        if done.is_some() {
            return Ok(Some(!too_long));
        }
    }
}

/// Runs the protocol on `input` until `quit` or end of input; `fixed_level` plays the whole
/// session at that strength level (`tropa uci --level`), whatever the options say.
pub fn run(input: &mut impl BufRead, out: Output, fixed_level: Option<f64>) {
    let mut uci = Uci::new(out.clone());
    uci.engine
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .options
        .strength
        .fixed = fixed_level;
    let mut buf = Vec::new();
    loop {
        match read_line_capped(input, &mut buf) {
            Ok(None) => break,
            Ok(Some(false)) => out.error(&format!("line longer than {MAX_LINE} bytes ignored")),
            Ok(Some(true)) => match std::str::from_utf8(&buf) {
                Ok(line) => {
                    if uci.handle(line.trim_end_matches('\r')) == Flow::Quit {
                        return;
                    }
                }
                Err(_) => out.error("line is not valid UTF-8; ignored"),
            },
            Err(e) => {
                out.error(&format!("cannot read input: {e}"));
                break;
            }
        }
    }
    // End of input: let a finite search finish and print its move, but do not wait forever.
    if let Some(search) = &uci.search {
        if !search.handle.is_finished() {
            search.stop();
        }
    }
    uci.wait_for_search();
    uci.book.end_game(&out);
}

/// An output sink the tests read back (the UCI loop's and the book session's tests).
#[cfg(test)]
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

#[cfg(test)]
impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
impl Capture {
    /// Everything written since the last call.
    fn take(&self) -> String {
        String::from_utf8(std::mem::take(&mut *self.0.lock().unwrap())).unwrap()
    }
}

#[cfg(test)]
mod tests;
