//! A game: a start position, the moves played from it and the keys of every position reached,
//! which the search needs to recognise repetitions (Kornilov, docs/sources.md#repetitions).

use super::notation::{move_from_text, move_from_uci, NotationError};
use super::{parse_fen, repetition_key, Board, FenError, Move, START_FEN};
use std::fmt;

/// Why a game could not be set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameError {
    /// The start position is not a valid FEN.
    Fen(FenError),
    /// A move is malformed or illegal.
    Move {
        /// Which move of the list, counting from 1.
        index: usize,
        /// The move as it was written.
        text: String,
        /// What is wrong with it.
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
        Self::from_moves(fen, moves, chess960, move_from_uci)
    }

    /// Sets up a game from a FEN and moves as people type them, each in SAN or UCI notation
    /// (`e4 e5 Nf3` or `e2e4 e7e5 g1f3`, mixed if need be).
    pub fn from_text(fen: Option<&str>, moves: &[&str], chess960: bool) -> Result<Self, GameError> {
        Self::from_moves(fen, moves, chess960, move_from_text)
    }

    fn from_moves(
        fen: Option<&str>,
        moves: &[&str],
        chess960: bool,
        read: fn(&Board, &str, bool) -> Result<Move, NotationError>,
    ) -> Result<Self, GameError> {
        let board = parse_fen(fen.unwrap_or(START_FEN), chess960)?;
        let mut game = Game::from_board(board, chess960);
        for (i, text) in moves.iter().enumerate() {
            let mv = read(&game.board, text, chess960).map_err(|e| GameError::Move {
                index: i + 1,
                text: text.to_string(),
                reason: e.to_string(),
            })?;
            game.play(mv);
        }
        Ok(game)
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        self.keys.pop();
        let mut board = self.start.clone();
        for &mv in &self.moves {
            board.play_unchecked(mv);
        }
        self.board = board;
        true
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

    #[test]
    fn people_type_san_or_uci_and_can_take_back() {
        let san = Game::from_text(None, &["e4", "e5", "Nf3", "Nc6", "Bb5"], false).unwrap();
        let uci = Game::from_uci(None, &["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"], false).unwrap();
        assert_eq!(san.board(), uci.board());
        let mixed = Game::from_text(None, &["e2e4", "e5", "g1f3"], false).unwrap();
        assert_eq!(mixed.moves(), &uci.moves()[..3]);
        let err = Game::from_text(None, &["e4", "Ke3"], false).unwrap_err();
        assert!(matches!(err, GameError::Move { index: 2, .. }), "{err}");
        assert!(
            Game::from_uci(None, &["e4"], false).is_err(),
            "UCI stays UCI"
        );
        let mut game = san.clone();
        assert!(game.undo() && game.undo());
        assert_eq!(
            game.board(),
            Game::from_text(None, &["e4", "e5", "Nf3"], false)
                .unwrap()
                .board()
        );
        assert_eq!(game.keys().len(), 4);
        let mut empty = Game::new();
        assert!(!empty.undo());
    }
}
