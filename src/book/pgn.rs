//! Reading the opening moves of games from PGN files with the `pgn-reader` crate.
//!
//! Design note: `pgn-reader` parses the text and calls a visitor; the visitor keeps the first
//! `plies` moves of the main line (checking each one with `shakmaty`, then converting it to the
//! board type of `rules` by its UCI form) and the result. Games that start from another position
//! (a `FEN` tag) or are of another variant are skipped, and counted. An illegal or ambiguous move
//! is not fatal for the whole file: the game is reported by file and number, then skipped.
//! A file that cannot be read, or holds no game at all, is an error naming the file.

use crate::rules::Move;
use pgn_reader::{Outcome, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{CastlingMode, Chess, Color as SColor, KnownOutcome, Position};
use std::ops::ControlFlow;

/// A game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// 1-0.
    WhiteWins,
    /// ½-½.
    Draw,
    /// 0-1.
    BlackWins,
}

impl GameResult {
    /// White's half-points: 2, 1 or 0.
    pub fn white_points(self) -> u32 {
        match self {
            GameResult::WhiteWins => 2,
            GameResult::Draw => 1,
            GameResult::BlackWins => 0,
        }
    }

    /// The result written as in PGN.
    pub fn as_pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::Draw => "1/2-1/2",
            GameResult::BlackWins => "0-1",
        }
    }
}

/// The opening of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The game's number in its file, from 1.
    pub number: usize,
    /// The first moves (at most the requested number of plies), castling as king-takes-rook.
    pub moves: Vec<Move>,
    /// The result, if the game has one.
    pub result: Option<GameResult>,
}

/// What reading a file produced.
#[derive(Clone, Debug, Default)]
pub struct PgnFile {
    /// Games from the standard start position.
    pub openings: Vec<Opening>,
    /// Games skipped because they start from a set-up position or are another variant.
    pub other_start: usize,
    /// Games skipped because of an illegal or malformed move (their messages).
    pub rejected: Vec<String>,
    /// Games without a single move (also what a malformed tag line leaves behind).
    pub empty: usize,
}

struct Openings {
    plies: usize,
    number: usize,
    file: String,
}

struct Tags {
    fen: bool,
    variant: bool,
    result: Option<GameResult>,
    players: String,
}

struct Movetext {
    players: String,
    pos: Chess,
    moves: Vec<Move>,
    error: Option<String>,
    outcome: Option<GameResult>,
}

enum Read {
    Opening(Opening),
    OtherStart,
    Rejected(String),
}

fn result_from_text(text: &[u8]) -> Option<GameResult> {
    match text {
        b"1-0" => Some(GameResult::WhiteWins),
        b"0-1" => Some(GameResult::BlackWins),
        b"1/2-1/2" | b"\xc2\xbd-\xc2\xbd" => Some(GameResult::Draw),
        _ => None,
    }
}

impl Visitor for Openings {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = Read;

    fn begin_tags(&mut self) -> ControlFlow<Read, Tags> {
        self.number += 1;
        ControlFlow::Continue(Tags {
            fen: false,
            variant: false,
            result: None,
            players: String::new(),
        })
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Read> {
        match name {
            b"FEN" => {
                let standard = value.decode().as_ref() == crate::rules::START_FEN.as_bytes();
                tags.fen |= !standard;
            }
            b"Variant" => {
                let v = value.decode().to_ascii_lowercase();
                tags.variant |= !(v.is_empty() || v == b"standard" || v == b"chess");
            }
            b"Result" => tags.result = result_from_text(value.decode().as_ref()),
            b"White" | b"Black" => {
                let name: String = value.decode_utf8_lossy().chars().take(40).collect();
                if tags.players.is_empty() {
                    tags.players = name;
                } else {
                    tags.players = format!("{} – {name}", tags.players);
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Read, Movetext> {
        if tags.fen || tags.variant {
            return ControlFlow::Break(Read::OtherStart);
        }
        let players = if tags.players.is_empty() {
            String::new()
        } else {
            format!(" ({})", tags.players)
        };
        ControlFlow::Continue(Movetext {
            players,
            pos: Chess::default(),
            moves: Vec::new(),
            error: None,
            outcome: tags.result,
        })
    }

    fn san(&mut self, text: &mut Movetext, san_plus: SanPlus) -> ControlFlow<Read> {
        if text.moves.len() >= self.plies || text.error.is_some() {
            return ControlFlow::Continue(());
        }
        let ply = text.moves.len() + 1;
        let m = match san_plus.san.to_move(&text.pos) {
            Ok(m) => m,
            Err(e) => {
                text.error = Some(format!(
                    "{} game {}{}: move {}{} '{}': {e}",
                    self.file,
                    self.number,
                    text.players,
                    ply.div_ceil(2),
                    if ply % 2 == 1 { "." } else { "..." },
                    san_plus
                ));
                return ControlFlow::Continue(());
            }
        };
        let uci = m.to_uci(CastlingMode::Chess960).to_string();
        match uci.parse::<Move>() {
            Ok(mv) => text.moves.push(mv),
            Err(_) => {
                text.error = Some(format!("{} game {}: move '{uci}'", self.file, self.number))
            }
        }
        text.pos.play_unchecked(m);
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut Movetext) -> ControlFlow<Read, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, text: &mut Movetext, outcome: Outcome) -> ControlFlow<Read> {
        if let Outcome::Known(known) = outcome {
            text.outcome = Some(match known {
                KnownOutcome::Decisive {
                    winner: SColor::White,
                } => GameResult::WhiteWins,
                KnownOutcome::Decisive { .. } => GameResult::BlackWins,
                KnownOutcome::Draw => GameResult::Draw,
            });
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, text: Movetext) -> Read {
        match text.error {
            Some(e) => Read::Rejected(e),
            None => Read::Opening(Opening {
                number: self.number,
                moves: text.moves,
                result: text.outcome,
            }),
        }
    }
}

/// Reads the openings (first `plies` moves and results) of every game in a PGN text.
pub fn read_pgn(bytes: &[u8], name: &str, plies: usize) -> Result<PgnFile, String> {
    let mut reader = Reader::new(std::io::Cursor::new(bytes));
    let mut visitor = Openings {
        plies,
        number: 0,
        file: name.to_string(),
    };
    let mut file = PgnFile::default();
    loop {
        match reader.read_game(&mut visitor) {
            Ok(None) => break,
            Ok(Some(Read::Opening(o))) if o.moves.is_empty() => file.empty += 1,
            Ok(Some(Read::Opening(o))) => file.openings.push(o),
            Ok(Some(Read::OtherStart)) => file.other_start += 1,
            Ok(Some(Read::Rejected(e))) => file.rejected.push(e),
            Err(e) => {
                // Keep what was read; the rest of the file cannot be found again.
                file.rejected.push(format!(
                    "{name}: cannot parse PGN after game {}: {e}; the rest of the file is skipped",
                    visitor.number
                ));
                break;
            }
        }
    }
    if file.openings.is_empty() {
        // Name every rejected game and its move: they are all the file had.
        let reasons: String = file.rejected.iter().map(|r| format!("; {r}")).collect();
        return Err(format!(
            "{name}: no usable game found ({} read: {} rejected, {} from other positions, {} without moves){reasons}",
            visitor.number,
            file.rejected.len(),
            file.other_start,
            file.empty
        ));
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_moves_results_and_reports_bad_games() {
        let pgn = br#"[Event "a"]
[Result "1-0"]

1. e4 e5 2. Nf3 (2. f4 exf4) Nc6 3. Bb5 a6 4. O-O 1-0

[Event "b"]
[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]
[Result "*"]

1. Kb1 *

[Event "c"]
[White "Anna"]
[Black "Boris"]
[Result "0-1"]

1. d4 d5 2. Nxd5 0-1

{ a comment } 1. c4 e5 1/2-1/2
"#;
        let file = read_pgn(pgn, "t.pgn", 4).unwrap();
        assert_eq!(file.openings.len(), 2);
        let first = &file.openings[0];
        let uci: Vec<String> = first.moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(uci, ["e2e4", "e7e5", "g1f3", "b8c6"]);
        assert_eq!(first.result, Some(GameResult::WhiteWins));
        assert_eq!(file.other_start, 1);
        assert_eq!(file.rejected.len(), 1);
        assert!(
            file.rejected[0].starts_with("t.pgn game 3 (Anna – Boris): move 2. 'Nxd5'"),
            "{}",
            file.rejected[0]
        );
        assert_eq!(file.openings[1].number, 4);
        assert_eq!(file.openings[1].result, Some(GameResult::Draw));
        // A tag with unescaped quotes leaves an empty game behind; it is counted, not used.
        let broken = b"[Event \"It \"Bank\"\"]\n[Site \"x\"]\n\n1. e4 e5 1-0\n";
        let file = read_pgn(broken, "q.pgn", 12).unwrap();
        assert_eq!((file.openings.len(), file.rejected.len()), (1, 0));
    }

    #[test]
    fn castling_is_king_takes_rook() {
        let pgn = b"1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 *";
        let file = read_pgn(pgn, "t", 12).unwrap();
        assert_eq!(file.openings[0].moves[6].to_string(), "e1h1");
        assert_eq!(file.openings[0].result, None);
    }

    #[test]
    fn unreadable_input_names_the_file() {
        assert!(read_pgn(b"\x00\x01\x02 garbage", "junk.pgn", 12)
            .unwrap_err()
            .starts_with("junk.pgn"));
        assert!(read_pgn(b"", "empty.pgn", 12)
            .unwrap_err()
            .contains("empty.pgn"));
    }
}
