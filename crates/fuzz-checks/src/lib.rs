//! Entry points for fuzzing: each takes arbitrary bytes, feeds them to a parser that faces
//! untrusted input, and checks what must hold for any input. A panic (or failed check) is a
//! finding. `fuzz/` (cargo-fuzz, libFuzzer) calls these; `tests/corpus.rs` beside this crate
//! replays the committed corpora (`fuzz/corpus/`) through the same functions in every
//! `cargo test`, so a fixed crash stays fixed.
//!
//! Design note: a crate of its own, so the checks use only the engine's public surface and are
//! never compiled into the engine.

// `///` on every public item is a rule of the project; the compiler keeps it.
#![warn(missing_docs)]

mod book;
mod selfplay;

pub use book::{book_file, pgn};
pub use selfplay::selfplay_file;

use std::time::Instant;
use tropa::rules::notation::{move_from_san, move_from_uci, move_to_san, move_to_uci};
use tropa::rules::{parse_fen, write_fen, Game};
use tropa::search::time::TimeManager;
use tropa::uci::go::{parse_go, parse_position};
use tropa::uci::options::{declared, parse_setoption};

/// The FEN parser, standard and Chess960. An accepted position must print as a FEN that parses
/// back to the same position, its legal moves must survive UCI and SAN notation both ways, and
/// evaluation and the exchange model must run on it. A rejected one must say why, briefly.
pub fn fen(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for chess960 in [false, true] {
        match parse_fen(&text, chess960) {
            Ok(board) => {
                let written = write_fen(&board, chess960);
                let again = parse_fen(&written, chess960)
                    .unwrap_or_else(|e| panic!("own FEN {written} rejected: {e}"));
                assert_eq!(again.hash(), board.hash(), "{text} -> {written}");
                let game = Game::from_uci(Some(&text), &[], chess960)
                    .unwrap_or_else(|e| panic!("Game rejects a FEN parse_fen accepts: {e}"));
                assert_eq!(game.board().hash(), board.hash());
                let _ = tropa::eval::evaluate(&board);
                for (i, mv) in tropa::rules::legal_moves(&board).into_iter().enumerate() {
                    let uci = move_to_uci(&board, mv, chess960);
                    assert_eq!(
                        move_from_uci(&board, &uci, chess960),
                        Ok(mv),
                        "{uci} in {written}"
                    );
                    let _ = tropa::rules::see::see(&board, mv);
                    // SAN goes through shakmaty (slow): the first moves and every castling.
                    if i < 4 || tropa::rules::is_castling(&board, mv) {
                        let san = move_to_san(&board, mv);
                        assert_eq!(move_from_san(&board, &san), Ok(mv), "{san} in {written}");
                    }
                }
            }
            Err(e) => {
                assert!(!e.reason.is_empty(), "empty reason for {text:?}");
                assert!(
                    e.fen.chars().count() <= 101,
                    "error repeats a long FEN whole"
                );
            }
        }
    }
}

/// The UCI command parsers: `position` (FEN and move lists), `go` (every parameter, and the
/// time budget it leads to) and `setoption`, line by line, the position carrying over as in a
/// session. The first byte chooses Chess960.
pub fn uci(data: &[u8]) {
    let chess960 = data.first().is_some_and(|b| b & 1 == 1);
    let specs = declared();
    let mut game = Game::new();
    for line in data.split(|&b| b == b'\n') {
        let Ok(line) = std::str::from_utf8(line) else {
            continue;
        };
        let line = line.trim();
        let (command, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        match command {
            "position" => {
                if let Ok(g) = parse_position(args, chess960) {
                    assert_eq!(g.keys().len(), g.moves().len() + 1);
                    game = g;
                }
            }
            "go" => {
                let (limits, _problems) = parse_go(args, game.board(), chess960);
                assert!(limits.depth.is_none_or(|d| (1..=1000).contains(&d)));
                assert!(limits.nodes.is_none_or(|n| n >= 1));
                for mv in &limits.search_moves {
                    assert!(game.board().is_legal(*mv));
                }
                if let Some(clock) = limits.clock {
                    for overhead in [0, 50, 5_000] {
                        let tm = TimeManager::from_clock(Instant::now(), clock, overhead);
                        let _ = tm.may_start_iteration(2.0);
                    }
                }
                if let Some(ms) = limits.movetime {
                    let _ = TimeManager::fixed(Instant::now(), ms, 50).hard_expired();
                }
            }
            "setoption" => {
                if let Ok((name, _)) = parse_setoption(args, &specs) {
                    assert!(specs.iter().any(|s| s.name == name));
                }
            }
            _ => {}
        }
    }
}
