//! The opening book in the protocol: the options OwnBook, BookFile, BookDepth, BookLearning and
//! BookSeed, answering `go` from the book, and learning after each game.
//!
//! Design note: the book answers a `go` at once (an `info string book …` line, then `bestmove`)
//! when the game started from the standard position, the engine is within `BookDepth` plies and
//! the book has a reply. It never answers when the GUI is analysing rather than playing: `go
//! infinite` and a bare `go` without any limit (both search until `stop`), `UCI_AnalyseMode` on
//! (python-chess and most GUIs set it for analysis) or `MultiPV` above 1 (several lines asked
//! for). Nor does it answer `go ponder` (the protocol wants the bestmove only after `ponderhit`
//! or `stop`), `go mate` or `go searchmoves` (a specific question for the search). All other
//! forms, the clock, `movetime`, `depth` and `nodes` included, are moves in a game and use the
//! book.
//!
//! `BookFile` may also name a Polyglot book (`.bin`, e.g. Debian's
//! `/usr/share/games/gnuchess/book.bin`): it is probed in place (`book::polyglot_book`), its
//! moves drawn in proportion to their weights within `BookDepth` plies, from any position its
//! keys cover; it is never written, so learning does not apply to it. `BookWeighted` makes the
//! choice among a Tropa book's best replies follow their games as well.
//!
//! A game ends at `ucinewgame`, at a `position` that does not continue the previous one, and at
//! `quit` (or the end of input). With `BookLearning` on and a `BookFile` set, its line and inferred
//! result (see `book::learn`) go into the book, which is then written atomically. A book file that
//! cannot be read is never written: the engine plays without a book and the file stays as it
//! was. A `BookFile` that does not exist yet is started from the built-in book when learning is
//! on, and created at the first write.

use super::options::OptionValue;
use super::Output;
use crate::book::learn::{infer, learn, EngineMove};
use crate::book::polyglot_book::PolyglotBook;
use crate::book::probe::{choose_by, starts_from_standard, Rng};
use crate::book::rating::rating_symbol;
use crate::book::{builtin, Book};
use crate::rules::notation::move_to_uci;
use crate::rules::{Game, Move};
use crate::search::Limits;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The option names this module handles.
pub const OPTIONS: [&str; 7] = [
    "OwnBook",
    "BookFile",
    "BookDepth",
    "BookLearning",
    "BookSeed",
    "BookWeighted",
    "UCI_AnalyseMode",
];

/// The moves the engine played in the current game, shared with the search thread.
pub type MoveLog = Arc<Mutex<Vec<EngineMove>>>;

/// The book's state in a protocol session.
pub struct BookSession {
    own_book: bool,
    analysing: bool,
    file: String,
    depth: usize,
    learning: bool,
    /// `BookWeighted`: a Tropa book's tied best replies drawn in proportion to their games.
    weighted: bool,
    book: Option<Book>,
    /// A Polyglot `BookFile`, probed in place (then `book` is `None`).
    polyglot: Option<PolyglotBook>,
    name: String,
    write_to: Option<PathBuf>,
    rng: Rng,
    game: Option<Game>,
    log: MoveLog,
}

impl BookSession {
    /// The defaults: the built-in book, 12 plies, no learning, choices seeded from the clock.
    pub fn new() -> BookSession {
        let mut session = BookSession {
            own_book: true,
            analysing: false,
            file: String::new(),
            depth: 12,
            learning: false,
            weighted: false,
            book: None,
            polyglot: None,
            name: String::new(),
            write_to: None,
            rng: Rng::from_clock(),
            game: None,
            log: Arc::new(Mutex::new(Vec::new())),
        };
        session.load(None);
        session
    }

    /// Does this module handle the option?
    pub fn handles(name: &str) -> bool {
        OPTIONS.contains(&name)
    }

    /// Applies a checked option value.
    pub fn set_option(&mut self, name: &str, value: OptionValue, out: &Output) {
        match (name, value) {
            ("OwnBook", OptionValue::Bool(on)) => self.own_book = on,
            ("UCI_AnalyseMode", OptionValue::Bool(on)) => self.analysing = on,
            ("BookWeighted", OptionValue::Bool(on)) => self.weighted = on,
            ("BookDepth", OptionValue::Int(plies)) => self.depth = plies.max(0) as usize,
            ("BookSeed", OptionValue::Int(seed)) => {
                self.rng = if seed == 0 {
                    Rng::from_clock()
                } else {
                    Rng::seeded(seed as u64)
                }
            }
            ("BookFile", OptionValue::Text(file)) => {
                self.file = file;
                self.load(Some(out));
            }
            ("BookLearning", OptionValue::Bool(on)) => {
                let was = self.learning;
                self.learning = on;
                if on != was {
                    self.load(Some(out));
                }
            }
            (other, _) => out.error(&format!("option '{other}' is not handled")),
        }
    }

    /// Loads the book the options name; problems are reported on `out`.
    fn load(&mut self, out: Option<&Output>) {
        let say = |text: String| {
            if let Some(out) = out {
                out.line(&format!("info string {text}"));
            }
        };
        self.book = None;
        self.polyglot = None;
        self.write_to = None;
        if self.file.is_empty() {
            match builtin() {
                Ok(book) => {
                    self.book = Some(book.clone());
                    self.name = "built-in".into();
                    if self.learning {
                        say("book learning needs a BookFile to write to; the built-in book is not changed".into());
                    }
                }
                Err(e) => say(format!("error: {e}; playing without a book")),
            }
            return;
        }
        let path = PathBuf::from(&self.file);
        self.name = path.display().to_string();
        match Book::load(&path) {
            Ok(book) => {
                say(format!(
                    "book {}: {} moves, {} variations",
                    self.name,
                    book.len() - 1,
                    book.variations()
                ));
                self.book = Some(book);
                self.write_to = Some(path);
            }
            Err(_) if !path.exists() && self.learning => match builtin() {
                Ok(book) => {
                    say(format!(
                        "book {} does not exist yet: learning starts from the built-in book and will create it",
                        self.name
                    ));
                    self.book = Some(book.clone());
                    self.write_to = Some(path);
                }
                Err(e) => say(format!("error: {e}; playing without a book")),
            },
            Err(e) if !path.exists() => say(format!(
                "error: {e}; playing without a book (the file is left untouched)"
            )),
            Err(e) => match std::fs::read(&path)
                .map_err(|e| e.to_string())
                .and_then(|bytes| PolyglotBook::from_bytes(&bytes, &self.name))
            {
                Ok(book) => {
                    say(format!(
                        "book {}: Polyglot, {} entries, probed in place; moves drawn by weight within BookDepth {} plies",
                        self.name,
                        book.len(),
                        self.depth
                    ));
                    if self.learning {
                        say("book learning does not write Polyglot books: this one is only read".into());
                    }
                    self.polyglot = Some(book);
                }
                Err(polyglot) => say(format!(
                    "error: {e}; nor a Polyglot book ({polyglot}). BookFile takes a Tropa book (.tbk, from \
                     'tropa book build' or 'tropa book import-polyglot') or a Polyglot book (.bin); \
                     playing without a book (the file is left untouched)"
                )),
            },
        }
    }

    /// The log the search thread adds its moves to.
    pub fn log(&self) -> MoveLog {
        Arc::clone(&self.log)
    }

    /// A new `position`: a game that does not continue the previous one ends it. A position
    /// that differs from the previous one only in its last move is a ponder miss (the opponent
    /// did not play the expected move), not a new game: the ponder search's move is forgotten.
    pub fn position(&mut self, game: &Game, out: &Output) {
        if let Some(previous) = self.game.as_ref().filter(|p| !game.continues(p)) {
            if ponder_miss(game, previous) {
                let diverged = previous.moves().len() - 1;
                self.log
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .retain(|m| m.ply < diverged);
            } else {
                self.end_game(out);
            }
        }
        self.game = Some(game.clone());
    }

    /// `ucinewgame`, `quit` or the end of input: the game is over.
    pub fn end_game(&mut self, out: &Output) {
        let engine: Vec<EngineMove> =
            std::mem::take(&mut *self.log.lock().unwrap_or_else(|e| e.into_inner()));
        let Some(game) = self.game.take() else {
            return;
        };
        if !self.learning || !starts_from_standard(&game) || engine.is_empty() {
            return;
        }
        let (Some(book), Some(path)) = (self.book.as_mut(), self.write_to.as_ref()) else {
            return;
        };
        let outcome = infer(&game, &engine);
        let learned = learn(book, &outcome, &engine, self.depth);
        if learned.added == 0 && learned.counted == 0 {
            return;
        }
        let result = outcome.result.map_or("unknown", |r| r.as_pgn());
        match book.save(path) {
            Ok(()) => out.line(&format!(
                "info string book learned: {} new moves, result {result} ({}), written to {}",
                learned.added,
                outcome.reason,
                path.display()
            )),
            Err(e) => out.error(&format!("{e} (what was learned is kept in memory)")),
        }
    }

    /// The book's answer to `go`, if it has one: the `info string` line and the move.
    /// `multipv` is the number of lines the search would show.
    pub fn go(
        &mut self,
        game: &Game,
        limits: &Limits,
        multipv: usize,
        chess960: bool,
    ) -> Option<(String, Move)> {
        let until_stop = limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.clock.is_none();
        if !self.own_book
            || self.analysing
            || multipv > 1
            || until_stop
            || limits.infinite
            || limits.ponder
            || limits.mate.is_some()
            || !limits.search_moves.is_empty()
        {
            return None;
        }
        let board = game.board();
        if let Some(polyglot) = &self.polyglot {
            let choice = polyglot.choose(game, self.depth, &mut self.rng)?;
            let info = format!(
                "info string book {} (weight {} of {}, {} moves; Polyglot book {})",
                move_to_uci(board, choice.mv, chess960),
                choice.weight,
                choice.total,
                choice.moves,
                self.name
            );
            return Some((info, choice.mv));
        }
        let book = self.book.as_ref()?;
        let weighted = self.weighted || book.counts_are_weights();
        let choice = choose_by(book, game, self.depth, &mut self.rng, weighted)?;
        let info = format!(
            "info string book {} {} (best of {} replies, {} tied; {} games; book {})",
            move_to_uci(board, choice.mv, chess960),
            rating_symbol(choice.rating),
            choice.replies,
            choice.tied,
            book.games(choice.node),
            self.name
        );
        self.log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(EngineMove {
                ply: game.moves().len(),
                mv: choice.mv,
                score: None,
            });
        Some((info, choice.mv))
    }
}

impl Default for BookSession {
    fn default() -> Self {
        Self::new()
    }
}

/// Does `game` continue `previous` with a different last move?
fn ponder_miss(game: &Game, previous: &Game) -> bool {
    let (new, old) = (game.moves(), previous.moves());
    !old.is_empty()
        && game.start() == previous.start()
        && new.len() >= old.len()
        && new[..old.len() - 1] == old[..old.len() - 1]
}

/// Records a searched move for learning (called by the search thread).
pub fn record_search(log: &MoveLog, game: &Game, best: Move, score: i32) {
    log.lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(EngineMove::searched(
            game.board(),
            game.moves().len(),
            best,
            score,
        ));
}

#[cfg(test)]
mod tests {
    use super::super::{Capture, Flow, Output, Uci};
    use crate::book::probe::encode_line;
    use crate::book::{builtin, Book};

    fn run(uci: &mut Uci, commands: &[&str]) {
        for c in commands {
            assert_eq!(uci.handle(c), Flow::Continue);
        }
        uci.wait_for_search();
    }

    fn bestmove(text: &str) -> String {
        let line = text.lines().find(|l| l.starts_with("bestmove")).unwrap();
        line.split_whitespace().nth(1).unwrap().to_string()
    }

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("tropa-uci-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn answers_from_the_book_only_when_playing() {
        let capture = Capture::default();
        let mut uci = Uci::new(Output::to(capture.clone()));
        run(
            &mut uci,
            &["position startpos", "go wtime 10000 btime 10000"],
        );
        let out = capture.take();
        assert!(out.contains("info string book"), "{out}");
        assert!(["e2e4", "d2d4", "c2c4", "g1f3", "g2g3"].contains(&bestmove(&out).as_str()));
        // Analysis (go infinite) always searches.
        assert_eq!(uci.handle("go infinite"), Flow::Continue);
        std::thread::sleep(std::time::Duration::from_millis(50));
        run(&mut uci, &["stop"]);
        let out = capture.take();
        assert!(
            !out.contains("info string book") && out.contains("info depth"),
            "{out}"
        );
        // As Black, a first move outside the five trees hands over at once.
        run(&mut uci, &["position startpos moves b2b3", "go depth 2"]);
        assert!(!capture.take().contains("info string book"));
        // OwnBook false: the search plays.
        run(
            &mut uci,
            &[
                "setoption name OwnBook value false",
                "position startpos",
                "go depth 2",
            ],
        );
        assert!(!capture.take().contains("info string book"));
    }

    #[test]
    fn a_broken_book_file_is_reported_and_left_alone() {
        let path = temp("broken.tbk");
        let mut bytes = builtin().unwrap().to_bytes();
        bytes.truncate(bytes.len() / 2);
        std::fs::write(&path, &bytes).unwrap();
        let capture = Capture::default();
        let mut uci = Uci::new(Output::to(capture.clone()));
        run(
            &mut uci,
            &[
                &format!("setoption name BookFile value {}", path.display()),
                "setoption name BookLearning value true",
                "position startpos moves e2e4 c7c5 a2a3",
                "go depth 2",
                "ucinewgame",
            ],
        );
        let out = capture.take();
        assert!(
            out.contains("info string error: book") && out.contains("broken.tbk"),
            "{out}"
        );
        assert!(out.contains("truncated"), "{out}");
        assert!(
            out.contains("bestmove") && !out.contains("learned"),
            "{out}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn learns_after_the_game_and_ignores_ponder_misses() {
        let path = temp("learn.tbk");
        let _ = std::fs::remove_file(&path);
        let capture = Capture::default();
        let mut uci = Uci::new(Output::to(capture.clone()));
        // The file does not exist yet: learning starts from the built-in book.
        run(
            &mut uci,
            &[
                &format!("setoption name BookFile value {}", path.display()),
                "setoption name BookLearning value true",
                "setoption name BookSeed value 3",
                "ucinewgame",
                // 1.e4 c5 2.a3 is not in the book: Black searches.
                "position startpos moves e2e4 c7c5 a2a3",
                "go depth 3",
            ],
        );
        let reply = bestmove(&capture.take());
        // A ponder search on an expected move the opponent does not play is no new game. The
        // line learned is 1.e4 c5 2.a3, the reply, 3.h3 and the engine's answer: 4 new moves.
        run(
            &mut uci,
            &[
                &format!("position startpos moves e2e4 c7c5 a2a3 {reply} b2b3"),
                "go ponder depth 2",
                "stop",
                &format!("position startpos moves e2e4 c7c5 a2a3 {reply} h2h3"),
                "go depth 2",
            ],
        );
        assert!(!capture.take().contains("learned"));
        assert!(!path.exists());
        run(&mut uci, &["ucinewgame"]);
        let out = capture.take();
        assert!(
            out.contains("info string book learned: 4 new moves"),
            "{out}"
        );
        let book = Book::load(&path).unwrap();
        let line =
            crate::rules::Game::from_uci(None, &["e2e4", "c7c5", "a2a3", &reply, "h2h3"], false)
                .unwrap();
        assert!(book.walk(&encode_line(line.moves())).is_some());
        let missed =
            crate::rules::Game::from_uci(None, &["e2e4", "c7c5", "a2a3", &reply, "b2b3"], false)
                .unwrap();
        assert!(book.walk(&encode_line(missed.moves())).is_none());
        assert_eq!(book.len(), builtin().unwrap().len() + 4);
        std::fs::remove_file(&path).unwrap();
    }
}
