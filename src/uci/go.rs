//! Parsing of the `position` and `go` commands.

use crate::rules::notation::move_from_uci;
use crate::rules::{Board, Color, Game};
use crate::search::time::Clock;
use crate::search::Limits;

/// Parses the words after `position`: `startpos | fen <FEN>` then optionally `moves …`.
pub fn parse_position(args: &str, chess960: bool) -> Result<Game, String> {
    let words: Vec<&str> = args.split_whitespace().collect();
    let moves_at = words.iter().position(|&w| w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (&words[..], &[][..]),
    };
    let fen = match setup.first() {
        Some(&"startpos") if setup.len() == 1 => None,
        Some(&"startpos") => return Err(format!("unexpected '{}' after startpos", setup[1])),
        Some(&"fen") => Some(setup[1..].join(" ")),
        Some(other) => {
            return Err(format!(
                "position needs 'startpos' or 'fen', got '{}'",
                other.chars().take(40).collect::<String>()
            ))
        }
        None => return Err("position needs 'startpos' or 'fen'".into()),
    };
    Game::from_uci(fen.as_deref(), moves, chess960).map_err(|e| e.to_string())
}

/// Searched for when a `go` had an error and what was left of it sets no limit: the GUI
/// asked for a finite search and waits for its `bestmove`.
pub const FALLBACK_MOVETIME_MS: u64 = 1000;

/// Parses the words after `go`. Never fails: a GUI waits for the `bestmove` of every `go`, so
/// a bad word or value is reported (the second element: problems, and values that were
/// adjusted, such as negative times) and the valid rest of the command is searched.
pub fn parse_go(args: &str, board: &Board, chess960: bool) -> (Limits, Vec<String>) {
    let mut limits = Limits::default();
    let mut problems = Vec::new();
    let (mut wtime, mut btime, mut winc, mut binc) = (None, None, 0u64, 0u64);
    let mut moves_to_go = None;
    let mut words = args.split_whitespace().peekable();
    while let Some(word) = words.next() {
        // The value of a limit; a keyword is never taken as one (`go depth movetime 100`).
        let mut value = || words.next_if(|w| !is_keyword(w));
        let outcome = match word {
            "infinite" => {
                limits.infinite = true;
                Ok(())
            }
            "ponder" => {
                limits.ponder = true;
                Ok(())
            }
            "searchmoves" => {
                while let Some(text) = words.next_if(|w| !is_keyword(w)) {
                    match move_from_uci(board, text, chess960) {
                        Ok(mv) => limits.search_moves.push(mv),
                        Err(e) => problems
                            .push(format!("go: searchmoves '{}': {e}; ignored", shorten(text))),
                    }
                }
                Ok(())
            }
            "wtime" | "btime" | "winc" | "binc" | "movetime" => {
                milliseconds(word, value(), &mut problems).map(|ms| match word {
                    "wtime" => wtime = Some(ms),
                    "btime" => btime = Some(ms),
                    "winc" => winc = ms,
                    "binc" => binc = ms,
                    _ => limits.movetime = Some(ms),
                })
            }
            "movestogo" => {
                count(word, value()).map(|n| moves_to_go = Some(n.min(u32::MAX as u64) as u32))
            }
            "depth" => count(word, value()).map(|n| limits.depth = Some(n.clamp(1, 1000) as i32)),
            "nodes" => count(word, value()).map(|n| limits.nodes = Some(n.max(1))),
            "mate" => count(word, value()).map(|n| limits.mate = Some(n.clamp(1, 500) as u32)),
            other => Err(format!("go: unknown parameter '{}'", shorten(other))),
        };
        if let Err(e) = outcome {
            problems.push(format!("{e}; ignored"));
        }
    }
    let (time, increment) = match board.side_to_move() {
        Color::White => (wtime, winc),
        Color::Black => (btime, binc),
    };
    if let Some(time) = time {
        limits.clock = Some(Clock {
            time,
            increment,
            moves_to_go: moves_to_go.filter(|&m| m > 0),
        });
    }
    let unbounded = limits.depth.is_none()
        && limits.nodes.is_none()
        && limits.movetime.is_none()
        && limits.clock.is_none()
        && limits.mate.is_none()
        && !limits.infinite
        && !limits.ponder;
    if unbounded && !problems.is_empty() {
        limits.movetime = Some(FALLBACK_MOVETIME_MS);
        problems.push(format!(
            "go: nothing valid limits this search; searching for {FALLBACK_MOVETIME_MS} ms"
        ));
    }
    (limits, problems)
}

/// At most 40 characters of a word from the input, for an error message.
fn shorten(word: &str) -> String {
    word.chars().take(40).collect()
}

fn is_keyword(word: &str) -> bool {
    matches!(
        word,
        "infinite"
            | "ponder"
            | "searchmoves"
            | "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movetime"
            | "movestogo"
            | "depth"
            | "nodes"
            | "mate"
    )
}

/// A time in milliseconds; negative values become 0 with a warning (some GUIs send them after
/// a flag fall), values beyond 2^63 are an error.
fn milliseconds(
    name: &str,
    value: Option<&str>,
    warnings: &mut Vec<String>,
) -> Result<u64, String> {
    let value = value.ok_or_else(|| format!("go: '{name}' needs a value"))?;
    match value.parse::<i64>() {
        Ok(ms) if ms < 0 => {
            warnings.push(format!("go: {name} {ms} is negative; using 0"));
            Ok(0)
        }
        Ok(ms) => Ok(ms as u64),
        Err(_) => Err(format!(
            "go: '{name}' needs a number of milliseconds, got '{}'",
            shorten(value)
        )),
    }
}

fn count(name: &str, value: Option<&str>) -> Result<u64, String> {
    let value = value.ok_or_else(|| format!("go: '{name}' needs a value"))?;
    value.parse::<u64>().map_err(|_| {
        format!(
            "go: '{name}' needs a non-negative integer, got '{}'",
            shorten(value)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_forms() {
        assert!(parse_position("startpos", false).is_ok());
        assert_eq!(
            parse_position("startpos moves e2e4 e7e5", false)
                .unwrap()
                .moves()
                .len(),
            2
        );
        assert!(parse_position(
            "fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 moves e7e5",
            false
        )
        .is_ok());
        for bad in [
            "",
            "startpos extra",
            "fen",
            "fen 8/8 w",
            "foo",
            "startpos moves e2e4 e2e4",
            "startpos moves xyz",
        ] {
            assert!(parse_position(bad, false).is_err(), "{bad}");
        }
    }

    #[test]
    fn go_forms() {
        let board = Board::default();
        let (l, w) = parse_go(
            "wtime 1000 btime 2000 winc 10 binc 20 movestogo 5",
            &board,
            false,
        );
        let clock = l.clock.unwrap();
        assert_eq!(
            (clock.time, clock.increment, clock.moves_to_go),
            (1000, 10, Some(5))
        );
        assert!(w.is_empty());
        let (l, _) = parse_go("searchmoves e2e4 d2d4 depth 3", &board, false);
        assert_eq!((l.search_moves.len(), l.depth), (2, Some(3)));
        let (l, w) = parse_go("wtime -50 btime 10", &board, false);
        assert_eq!((l.clock.unwrap().time, w.len()), (0, 1));
    }

    /// Every bad `go` is reported and its valid part kept; a search that nothing valid limits
    /// gets the fallback time, so that its `bestmove` comes.
    #[test]
    fn bad_go_keeps_the_valid_part() {
        let board = Board::default();
        for bad in [
            "depth",
            "depth x",
            "nodes -1",
            "wtime 99999999999999999999999",
            "searchmoves e2e5",
            "bogus",
        ] {
            let (l, problems) = parse_go(bad, &board, false);
            assert!(!problems.is_empty(), "{bad}");
            assert_eq!(l.movetime, Some(FALLBACK_MOVETIME_MS), "{bad}");
        }
        let (l, problems) = parse_go("searchmoves e2e4 zz99 d2d4 depth 3", &board, false);
        assert_eq!(
            (l.search_moves.len(), l.depth, problems.len()),
            (2, Some(3), 1)
        );
        assert_eq!(l.movetime, None);
        let (l, problems) = parse_go("depth movetime 100", &board, false);
        assert_eq!((l.depth, l.movetime, problems.len()), (None, Some(100), 1));
        let (l, problems) = parse_go("depth 4 x", &board, false);
        assert_eq!((l.depth, problems.len()), (Some(4), 1));
        // A bare `go` is an unlimited search, as the protocol says: no fallback.
        let (l, problems) = parse_go("", &board, false);
        assert!(l.movetime.is_none() && problems.is_empty());
        let (l, _) = parse_go("infinite", &board, false);
        assert!(l.infinite && l.clock.is_none());
    }
}
