//! A game: a start position, the moves played from it and the keys of every position reached,
//! which the search needs to recognise repetitions (seed 002).

use super::notation::{move_from_uci, NotationError};
use super::{parse_fen, repetition_key, Board, FenError, Move, START_FEN};
use std::fmt;

/// Why a game could not be set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameError {
    /// The start position is not a valid FEN.
    Fen(FenError),
    /// A move is malformed or illegal; `index` counts from 1.
    Move {
        index: usize,
        text: String,
        reason: String,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Fen(e) => e.fmt(f),
            GameError::Move {
                index,
                text,
                reason,
            } => write!(f, "move {index} '{text}': {reason}"),
        }
    }
}

impl std::error::Error for GameError {}

impl From<FenError> for GameError {
    fn from(e: FenError) -> Self {
        GameError::Fen(e)
    }
}

/// A position with its history.
#[derive(Clone, Debug)]
pub struct Game {
    start: Board,
    board: Board,
    moves: Vec<Move>,
    keys: Vec<u64>,
    chess960: bool,
}

impl Game {
    /// A game from the standard starting position.
    pub fn new() -> Self {
        Self::from_board(Board::default(), false)
    }

    /// A game from a given board.
    pub fn from_board(board: Board, chess960: bool) -> Self {
        Game {
            keys: vec![repetition_key(&board)],
            start: board.clone(),
            board,
            moves: Vec::new(),
            chess960,
        }
    }

    /// Sets up a game from a FEN (or `startpos`) and a list of UCI moves, or explains what is wrong.
    pub fn from_uci(fen: Option<&str>, moves: &[&str], chess960: bool) -> Result<Self, GameError> {
        let board = parse_fen(fen.unwrap_or(START_FEN), chess960)?;
        let mut game = Game::from_board(board, chess960);
        for (i, text) in moves.iter().enumerate() {
            let mv = move_from_uci(&game.board, text, chess960).map_err(|e: NotationError| {
                GameError::Move {
                    index: i + 1,
                    text: text.to_string(),
                    reason: e.to_string(),
                }
            })?;
            game.play(mv);
        }
        Ok(game)
    }

    /// Plays a move known to be legal.
    pub fn play(&mut self, mv: Move) {
        self.board.play_unchecked(mv);
        self.moves.push(mv);
        self.keys.push(repetition_key(&self.board));
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The position the game started from.
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// The moves played from the start position.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Repetition keys of every position from the start to the current one (inclusive).
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// Whether castling moves are written king-takes-rook (Chess960).
    pub fn chess960(&self) -> bool {
        self.chess960
    }

    /// Does this game continue `earlier` (same start, `earlier`'s moves a prefix of ours)?
    pub fn continues(&self, earlier: &Game) -> bool {
        self.start.hash() == earlier.start.hash()
            && self.moves.len() >= earlier.moves.len()
            && self.moves[..earlier.moves.len()] == earlier.moves[..]
    }
}

impl Default for Game {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_repeat_after_knight_shuffle() {
        let game = Game::from_uci(None, &["g1f3", "g8f6", "f3g1", "f6g8"], false).unwrap();
        assert_eq!(game.keys().first(), game.keys().last());
    }

    #[test]
    fn double_push_without_capture_repeats() {
        // After 1.e4 no black pawn can take en passant, so the position equals a later one
        // reached without the en-passant right.
        let game = Game::from_uci(None, &["e2e4", "g8f6", "g1f3", "f6g8", "f3g1"], false).unwrap();
        assert_eq!(game.keys()[1], game.keys()[5]);
    }

    #[test]
    fn reports_illegal_move_with_index() {
        let err = Game::from_uci(None, &["e2e4", "e2e4"], false).unwrap_err();
        assert!(matches!(err, GameError::Move { index: 2, .. }), "{err}");
    }
}
