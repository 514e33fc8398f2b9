//! Whole games in PGN for the tools that read or write them (`annotate`, `play`, `serve`).
//!
//! Design note: reading keeps each game's tags in their order, its start position (a `FEN` tag)
//! and its main line; variations and comments are dropped, as the tools write their own. A game
//! with an illegal move, a bad `FEN` or another variant is skipped with a message naming file,
//! game and move; it does not cost the rest of the file. Writing wraps the movetext at 79
//! columns, as PGN's export format asks.

use crate::rules::notation::move_from_san;
use crate::rules::{parse_fen, Game};
use pgn_reader::{Outcome, RawTag, Reader, SanPlus, Skip, Visitor};
use std::ops::ControlFlow;

/// One game read from a PGN file.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// Its number in the file, from 1.
    pub number: usize,
    /// The tag pairs, in the file's order.
    pub tags: Vec<(String, String)>,
    /// The start position and the main line.
    pub game: Game,
    /// The result as written (`1-0`, `0-1`, `1/2-1/2` or `*`).
    pub result: String,
}

impl PgnGame {
    /// The value of a tag, if the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// "game 3 (White – Black)" for messages.
    pub fn title(&self) -> String {
        match (self.tag("White"), self.tag("Black")) {
            (Some(w), Some(b)) => format!("game {} ({w} – {b})", self.number),
            _ => format!("game {}", self.number),
        }
    }
}

struct Games {
    file: String,
    number: usize,
}

struct Moves {
    game: Result<PgnGame, String>,
}

impl Visitor for Games {
    type Tags = Vec<(String, String)>;
    type Movetext = Moves;
    type Output = Result<PgnGame, String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        self.number += 1;
        ControlFlow::Continue(Vec::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        tags.push((
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Moves> {
        let mut game = PgnGame {
            number: self.number,
            result: "*".into(),
            game: Game::new(),
            tags,
        };
        let place = format!("{} {}", self.file, game.title());
        if let Some(v) = game.tag("Variant") {
            if !matches!(v.to_ascii_lowercase().as_str(), "" | "standard" | "chess") {
                return ControlFlow::Break(Err(format!("{place}: variant {v} is not played")));
            }
        }
        if let Some(fen) = game.tag("FEN") {
            match parse_fen(fen, false) {
                Ok(board) => game.game = Game::from_board(board, false),
                Err(e) => return ControlFlow::Break(Err(format!("{place}: {e}"))),
            }
        }
        if let Some(r) = game.tag("Result") {
            game.result = r.to_string();
        }
        ControlFlow::Continue(Moves { game: Ok(game) })
    }

    fn san(&mut self, moves: &mut Moves, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        let Ok(g) = &mut moves.game else {
            return ControlFlow::Continue(());
        };
        let number = g.game.board().fullmove_number();
        let white = g.game.board().side_to_move() == crate::rules::Color::White;
        let text = san_plus.san.to_string();
        match move_from_san(g.game.board(), &text) {
            Ok(mv) => g.game.play(mv),
            Err(e) => {
                moves.game = Err(format!(
                    "{} {}: move {number}{} '{san_plus}': {e}",
                    self.file,
                    g.title(),
                    if white { "." } else { "..." },
                ));
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut Moves) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, moves: &mut Moves, outcome: Outcome) -> ControlFlow<Self::Output> {
        if let Ok(g) = &mut moves.game {
            g.result = outcome.to_string();
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, moves: Moves) -> Self::Output {
        moves.game
    }
}

/// Reads every game of a PGN text: the games, and a message for each game skipped. Text that
/// stops parsing ends the reading with a message; the games before it are kept.
pub fn read_games(bytes: &[u8], name: &str) -> (Vec<PgnGame>, Vec<String>) {
    let mut reader = Reader::new(std::io::Cursor::new(bytes));
    let mut visitor = Games {
        file: name.to_string(),
        number: 0,
    };
    let (mut games, mut skipped) = (Vec::new(), Vec::new());
    loop {
        match reader.read_game(&mut visitor) {
            Ok(None) => break,
            Ok(Some(Ok(game))) => games.push(game),
            Ok(Some(Err(e))) => skipped.push(e),
            Err(e) => {
                skipped.push(format!(
                    "{name}: cannot parse PGN after game {}: {e}",
                    visitor.number
                ));
                break;
            }
        }
    }
    (games, skipped)
}

/// Writes a tag pair, escaping quotes and backslashes.
pub fn tag_line(name: &str, value: &str) -> String {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{value}\"]")
}

/// Joins movetext tokens (moves, numbers, NAGs, `{ comments }`, parentheses) into lines of at
/// most 79 characters; a token longer than that gets a line of its own.
pub fn wrap(tokens: &[String]) -> String {
    let mut text = String::new();
    let mut width = 0;
    for token in tokens {
        if width > 0 && width + 1 + token.chars().count() > 79 {
            text.push('\n');
            width = 0;
        } else if width > 0 {
            text.push(' ');
            width += 1;
        }
        text.push_str(token);
        width += token.chars().count();
    }
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tags_start_positions_and_skips_bad_games_by_name() {
        let text = br#"[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 (1... c5 2. Nf3) 2. Qh5 {a comment} Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[White "C"]
[Black "D"]

1. e4 e5 2. Ke3 *

[FEN "7k/8/6K1/8/8/8/8/R7 w - - 0 40"]

40. Ra8# 1-0
"#;
        let (games, skipped) = read_games(text, "t.pgn");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].game.moves().len(), 7);
        assert_eq!(games[0].result, "1-0");
        assert_eq!(games[0].tag("White"), Some("A"));
        assert_eq!(games[1].number, 3);
        assert_eq!(games[1].game.moves().len(), 1);
        assert_eq!(
            skipped,
            ["t.pgn game 2 (C – D): move 2. 'Ke3': illegal move in this position"]
        );
    }

    #[test]
    fn wraps_at_seventy_nine_columns() {
        let tokens: Vec<String> = (0..40).map(|i| format!("{i}. Nf3")).collect();
        let text = wrap(&tokens);
        assert!(text.lines().all(|l| l.len() <= 79));
        assert_eq!(text.split_whitespace().count(), 80);
        assert_eq!(tag_line("Event", r#"say "hi""#), r#"[Event "say \"hi\""]"#);
    }
}
