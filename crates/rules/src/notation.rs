//! Move notation at the edges: UCI long algebraic (in and out) and SAN for people.
//!
//! Internally a castling move is the king taking its own rook (as in `cozy-chess`); in standard
//! chess UCI writes it as the king's two-square step. SAN is produced and read with `shakmaty`,
//! converting the position once by Shredder-FEN; it is only used for display and for files
//! (EPD `bm`, PGN), never in the search.

use super::{is_castling, legal_moves, Board, File, Move, Piece, Square};
use shakmaty::{san::San, san::SanPlus, CastlingMode, Chess};
use std::fmt;

/// Why a move text was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotationError {
    /// Not a move in the expected notation at all.
    Malformed,
    /// Well formed, but not a legal move in the position.
    Illegal,
    /// SAN that fits more than one legal move.
    Ambiguous,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotationError::Malformed => "malformed move",
            NotationError::Illegal => "illegal move in this position",
            NotationError::Ambiguous => "ambiguous move",
        })
    }
}

impl std::error::Error for NotationError {}

/// Writes a move in UCI notation; castling is king-takes-rook only in Chess960.
pub fn move_to_uci(board: &Board, mv: Move, chess960: bool) -> String {
    if !chess960 && is_castling(board, mv) {
        let file = if mv.to.file() > mv.from.file() {
            File::G
        } else {
            File::C
        };
        return Move {
            from: mv.from,
            to: Square::new(file, mv.from.rank()),
            promotion: None,
        }
        .to_string();
    }
    mv.to_string()
}

/// Reads a UCI move and checks that it is legal. In standard chess both the king's two-square
/// step and king-takes-rook are accepted for castling.
pub fn move_from_uci(board: &Board, text: &str, chess960: bool) -> Result<Move, NotationError> {
    if !(4..=5).contains(&text.len()) || !text.is_ascii() {
        return Err(NotationError::Malformed);
    }
    let mut mv: Move = text.parse().map_err(|_| NotationError::Malformed)?;
    if !chess960 && board.piece_on(mv.from) == Some(Piece::King) && mv.from.rank() == mv.to.rank() {
        let step = mv.to.file() as i32 - mv.from.file() as i32;
        if step.abs() == 2 {
            let rights = board.castle_rights(board.side_to_move());
            let rook = if step > 0 { rights.short } else { rights.long };
            if let Some(rook) = rook {
                mv.to = Square::new(rook, mv.from.rank());
            }
        }
    }
    if board.is_legal(mv) {
        Ok(mv)
    } else {
        Err(NotationError::Illegal)
    }
}

/// The same position for shakmaty. Positions `cozy-chess` plays in but shakmaty calls
/// impossible (more material than promotions allow, a check no last move could give) are
/// accepted too; without that, SAN fell back to UCI text for them (found by fuzzing).
fn to_shakmaty(board: &Board) -> Option<Chess> {
    let fen: shakmaty::fen::Fen = format!("{board:#}").parse().ok()?;
    fen.into_position(CastlingMode::Chess960)
        .or_else(shakmaty::PositionError::ignore_too_much_material)
        .or_else(shakmaty::PositionError::ignore_impossible_check)
        .ok()
}

fn shakmaty_to_move(board: &Board, m: &shakmaty::Move) -> Option<Move> {
    let text = m.to_uci(CastlingMode::Chess960).to_string();
    let mv: Move = text.parse().ok()?;
    board.is_legal(mv).then_some(mv)
}

/// Writes a move in SAN with check and mate suffixes (e.g. `Nf3`, `exd5`, `O-O`, `e8=Q#`).
pub fn move_to_san(board: &Board, mv: Move) -> String {
    let Some(pos) = to_shakmaty(board) else {
        return mv.to_string();
    };
    let uci = shakmaty::uci::UciMove::from_ascii(mv.to_string().as_bytes());
    match uci.ok().and_then(|u| u.to_move(&pos).ok()) {
        Some(m) => SanPlus::from_move(pos, m).to_string(),
        None => mv.to_string(),
    }
}

/// Reads a move in SAN (suffixes such as `+`, `#`, `!` are ignored).
pub fn move_from_san(board: &Board, text: &str) -> Result<Move, NotationError> {
    let trimmed = text.trim_end_matches(['+', '#', '!', '?']);
    let san = San::from_ascii(trimmed.as_bytes()).map_err(|_| NotationError::Malformed)?;
    let pos = to_shakmaty(board).ok_or(NotationError::Malformed)?;
    let m = san.to_move(&pos).map_err(|e| match e {
        shakmaty::san::SanError::AmbiguousSan => NotationError::Ambiguous,
        shakmaty::san::SanError::IllegalSan => NotationError::Illegal,
    })?;
    shakmaty_to_move(board, &m).ok_or(NotationError::Illegal)
}

/// Reads a move as a person types it: UCI notation (`g1f3`) or SAN (`Nf3`, `O-O`, `exd5`).
pub fn move_from_text(board: &Board, text: &str, chess960: bool) -> Result<Move, NotationError> {
    match move_from_uci(board, text, chess960) {
        Err(NotationError::Malformed) => move_from_san(board, text),
        uci => uci,
    }
}

/// Writes a line of moves in SAN, playing them from `board`; stops at the first illegal move.
pub fn line_to_san(board: &Board, line: &[Move]) -> Vec<String> {
    let mut board = board.clone();
    let mut out = Vec::with_capacity(line.len());
    for &mv in line {
        if !board.is_legal(mv) {
            break;
        }
        out.push(move_to_san(&board, mv));
        board.play_unchecked(mv);
    }
    out
}

/// Writes a line in SAN with move numbers: `12. Nf3 Nc6 13. Bb5` or `12... Nc6 13. Bb5`.
pub fn line_to_numbered_san(board: &Board, line: &[Move]) -> String {
    let mut text = String::new();
    let mut number = board.fullmove_number();
    let mut white = board.side_to_move() == super::Color::White;
    for (i, san) in line_to_san(board, line).into_iter().enumerate() {
        if white {
            text.push_str(&format!("{number}. "));
        } else if i == 0 {
            text.push_str(&format!("{number}... "));
        }
        text.push_str(&san);
        text.push(' ');
        if !white {
            number += 1;
        }
        white = !white;
    }
    text.trim_end().to_string()
}

/// All legal moves written in UCI notation, for error messages and tests.
pub fn legal_moves_uci(board: &Board, chess960: bool) -> Vec<String> {
    legal_moves(board)
        .into_iter()
        .map(|m| move_to_uci(board, m, chess960))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression (fuzzing): three bishops beside eight pawns is impossible material; SAN
    /// still works there.
    #[test]
    fn san_in_positions_with_impossible_material() {
        let board = crate::parse_fen(
            "rbb1kbnr/1p1ppppp/1q6/p1p5/2P2P2/8/PP1PPKPP/RNBQ1BNR w kq - 0 1",
            false,
        )
        .unwrap();
        for mv in crate::legal_moves(&board) {
            let san = move_to_san(&board, mv);
            assert_eq!(move_from_san(&board, &san), Ok(mv), "{san}");
        }
        let mv = move_from_uci(&board, "b1c3", false).unwrap();
        assert_eq!(move_to_san(&board, mv), "Nc3");
    }
    use crate::parse_fen;

    #[test]
    fn castling_round_trip_standard_and_960() {
        let board = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false).unwrap();
        let short = move_from_uci(&board, "e1g1", false).unwrap();
        assert_eq!(short.to, Square::H1);
        assert_eq!(move_to_uci(&board, short, false), "e1g1");
        assert_eq!(move_to_uci(&board, short, true), "e1h1");
        assert_eq!(move_to_san(&board, short), "O-O");
        assert_eq!(move_from_san(&board, "O-O-O").unwrap().to, Square::A1);
    }

    #[test]
    fn rejects_malformed_and_illegal() {
        let board = Board::default();
        assert_eq!(
            move_from_uci(&board, "e2e5", false),
            Err(NotationError::Illegal)
        );
        assert_eq!(
            move_from_uci(&board, "zz", false),
            Err(NotationError::Malformed)
        );
        assert_eq!(
            move_from_uci(&board, "e2e4qq", false),
            Err(NotationError::Malformed)
        );
        assert_eq!(
            move_from_uci(&board, "é2e4", false),
            Err(NotationError::Malformed)
        );
        assert_eq!(move_from_san(&board, "Nbd2"), Err(NotationError::Illegal));
    }

    #[test]
    fn san_with_numbers_and_mate() {
        let board = Board::default();
        let line: Vec<Move> = ["f2f3", "e7e5", "g2g4", "d8h4"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        assert_eq!(line_to_numbered_san(&board, &line), "1. f3 e5 2. g4 Qh4#");
    }
}
