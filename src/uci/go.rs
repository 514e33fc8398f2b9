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

/// Parses the words after `go`. Returns the limits and warnings about values that were
/// adjusted (negative times); a malformed command is an error.
pub fn parse_go(
    args: &str,
    board: &Board,
    chess960: bool,
) -> Result<(Limits, Vec<String>), String> {
    let mut limits = Limits::default();
    let mut warnings = Vec::new();
    let (mut wtime, mut btime, mut winc, mut binc) = (None, None, 0u64, 0u64);
    let mut moves_to_go = None;
    let mut words = args.split_whitespace().peekable();
    while let Some(word) = words.next() {
        match word {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                while let Some(&text) = words.peek() {
                    match move_from_uci(board, text, chess960) {
                        Ok(mv) => {
                            limits.search_moves.push(mv);
                            words.next();
                        }
                        Err(_) if is_keyword(text) => break,
                        Err(e) => return Err(format!("searchmoves '{text}': {e}")),
                    }
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movetime" => {
                let ms = milliseconds(word, words.next(), &mut warnings)?;
                match word {
                    "wtime" => wtime = Some(ms),
                    "btime" => btime = Some(ms),
                    "winc" => winc = ms,
                    "binc" => binc = ms,
                    _ => limits.movetime = Some(ms),
                }
            }
            "movestogo" => {
                moves_to_go = Some(count(word, words.next())?.min(u32::MAX as u64) as u32)
            }
            "depth" => limits.depth = Some(count(word, words.next())?.clamp(1, 1000) as i32),
            "nodes" => limits.nodes = Some(count(word, words.next())?.max(1)),
            "mate" => limits.mate = Some(count(word, words.next())?.clamp(1, 500) as u32),
            other => {
                return Err(format!(
                    "go: unknown parameter '{}'",
                    other.chars().take(40).collect::<String>()
                ))
            }
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
    Ok((limits, warnings))
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
            value.chars().take(40).collect::<String>()
        )),
    }
}

fn count(name: &str, value: Option<&str>) -> Result<u64, String> {
    let value = value.ok_or_else(|| format!("go: '{name}' needs a value"))?;
    value.parse::<u64>().map_err(|_| {
        format!(
            "go: '{name}' needs a non-negative integer, got '{}'",
            value.chars().take(40).collect::<String>()
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
        )
        .unwrap();
        let clock = l.clock.unwrap();
        assert_eq!(
            (clock.time, clock.increment, clock.moves_to_go),
            (1000, 10, Some(5))
        );
        assert!(w.is_empty());
        let (l, _) = parse_go("searchmoves e2e4 d2d4 depth 3", &board, false).unwrap();
        assert_eq!((l.search_moves.len(), l.depth), (2, Some(3)));
        let (l, w) = parse_go("wtime -50 btime 10", &board, false).unwrap();
        assert_eq!((l.clock.unwrap().time, w.len()), (0, 1));
        for bad in [
            "depth",
            "depth x",
            "nodes -1",
            "wtime 99999999999999999999999",
            "searchmoves e2e5",
            "bogus",
        ] {
            assert!(parse_go(bad, &board, false).is_err(), "{bad}");
        }
        let (l, _) = parse_go("infinite", &board, false).unwrap();
        assert!(l.infinite && l.clock.is_none());
    }
}
