//! How a game has ended, in words: the tools say "checkmate" or "stalemate" rather than "no legal
//! move", and stop at once in a dead draw instead of searching a position with nothing to find.

use crate::eval::insufficient_material;
use crate::rules::{legal_moves, side_name, Color, Game};
use std::fmt;

/// Why no more play is needed in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The side to move is mated; `winner` is the other side.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side has the material to mate (K v K, K+minor v K, bishops on one colour).
    DeadDraw,
    /// A hundred half-moves without a capture or a pawn move.
    FiftyMoves,
    /// The same position for the third time.
    Repetition,
}

impl Ending {
    /// The result as PGN writes it.
    pub fn result(self) -> &'static str {
        match self {
            Ending::Checkmate {
                winner: Color::White,
            } => "1-0",
            Ending::Checkmate { .. } => "0-1",
            _ => "1/2-1/2",
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Checkmate { winner } => write!(f, "checkmate: {} wins", side_name(*winner)),
            Ending::Stalemate => f.write_str("stalemate: a draw"),
            Ending::DeadDraw => f.write_str("a dead draw: neither side has the material to mate"),
            Ending::FiftyMoves => f.write_str("a draw by the fifty-move rule"),
            Ending::Repetition => f.write_str("a draw by threefold repetition"),
        }
    }
}

/// How the game stands at its current position, if it is over.
pub fn ending(game: &Game) -> Option<Ending> {
    let board = game.board();
    if legal_moves(board).is_empty() {
        return Some(if board.checkers().is_empty() {
            Ending::Stalemate
        } else {
            Ending::Checkmate {
                winner: !board.side_to_move(),
            }
        });
    }
    if insufficient_material(board) {
        return Some(Ending::DeadDraw);
    }
    if board.halfmove_clock() >= 100 {
        return Some(Ending::FiftyMoves);
    }
    let keys = game.keys();
    let now = keys[keys.len() - 1];
    if keys.iter().filter(|&&k| k == now).count() >= 3 {
        return Some(Ending::Repetition);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(fen: &str) -> Option<Ending> {
        ending(&Game::from_uci(Some(fen), &[], false).unwrap())
    }

    #[test]
    fn endings_in_words() {
        let mate = at("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(mate.to_string(), "checkmate: White wins");
        assert_eq!(mate.result(), "1-0");
        let stalemate = at("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(stalemate, Ending::Stalemate);
        assert_eq!(at("8/8/8/4k3/8/8/8/4K3 w - - 0 1"), Some(Ending::DeadDraw));
        assert_eq!(
            at("8/8/8/4k3/8/8/8/2N1K3 w - - 0 1"),
            Some(Ending::DeadDraw)
        );
        assert_eq!(at("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"), None);
        let shuffle = [
            "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
        ];
        let game = Game::from_uci(None, &shuffle, false).unwrap();
        assert_eq!(ending(&game), Some(Ending::Repetition));
    }
}
