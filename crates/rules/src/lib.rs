//! The rules of chess: positions, games and notation (the `tropa-rules` crate).
//!
//! Design note: move generation, make-move and Zobrist keys come from the `cozy-chess` crate, which
//! is the fastest well-kept generator measured for this project (see the README's dependencies). This crate wraps it
//! with what the crate leaves to its users: FEN edge cases (X-FEN castling rights, four-field EPD),
//! UCI and SAN move notation, a game record with repetition keys, perft and the static exchange
//! model. It is a crate of its own so that the compiler, not a convention, keeps it from knowing
//! anything of search, evaluation or PIONEER: it depends on the two board crates only.

// `///` on every public item is a rule of the project; the compiler keeps it.
#![warn(missing_docs)]

mod attacks;
mod checks;
mod fen;
mod game;
pub mod notation;
pub mod perft;
pub mod see;

pub use attacks::{attacked_by, pawn_attacks};
pub use checks::{quiet_checks, CheckSquares};
pub use cozy_chess::{
    BitBoard, Board, BoardBuilder, Color, File, GameStatus, Move, Piece, Rank, Square,
};
pub use fen::{parse_fen, write_fen, FenError, START_FEN};
pub use game::{Game, GameError};

/// The key used to recognise repeated positions.
///
/// `cozy-chess` records an en-passant file after every double pawn push, even when no capture
/// is possible; by the rules such a position is the same as one without the right, so the file
/// only counts when a pawn of the side to move could actually take.
pub fn repetition_key(board: &Board) -> u64 {
    match board.en_passant() {
        Some(file) if en_passant_capture_possible(board, file) => board.hash(),
        Some(_) => board.hash_without_ep(),
        None => board.hash(),
    }
}

fn en_passant_capture_possible(board: &Board, file: File) -> bool {
    let us = board.side_to_move();
    let target = Square::new(file, Rank::Sixth.relative_to(us));
    let attackers =
        cozy_chess::get_pawn_attacks(target, !us) & board.colored_pieces(us, Piece::Pawn);
    !attackers.is_empty()
}

/// Is the move a capture (including en passant, excluding castling encoded as king-takes-rook)?
pub fn is_capture(board: &Board, mv: Move) -> bool {
    board.colors(!board.side_to_move()).has(mv.to) || is_en_passant(board, mv)
}

/// Is the move quiet: neither a capture nor a promotion?
pub fn is_quiet(board: &Board, mv: Move) -> bool {
    !is_capture(board, mv) && mv.promotion.is_none()
}

/// Is the move an en-passant capture?
pub fn is_en_passant(board: &Board, mv: Move) -> bool {
    board.piece_on(mv.from) == Some(Piece::Pawn)
        && mv.from.file() != mv.to.file()
        && board.piece_on(mv.to).is_none()
}

/// Is the move castling (the king moving onto its own rook)?
pub fn is_castling(board: &Board, mv: Move) -> bool {
    board.colors(board.side_to_move()).has(mv.to)
}

/// All legal moves of the side to move.
pub fn legal_moves(board: &Board) -> Vec<Move> {
    let mut moves = Vec::with_capacity(64);
    board.generate_moves(|piece_moves| {
        moves.extend(piece_moves);
        false
    });
    moves
}

/// Does the side have material other than king and pawns (the zugzwang guard of null-move)?
pub fn has_non_pawn_material(board: &Board, color: Color) -> bool {
    let pieces = board.colors(color) & !(board.pieces(Piece::Pawn) | board.pieces(Piece::King));
    !pieces.is_empty()
}

/// Conventional material values in centipawns, used where a fixed scale is needed (move ordering,
/// exchange model). The evaluation has its own tuned values.
pub const fn piece_value(piece: Piece) -> i32 {
    match piece {
        Piece::Pawn => 100,
        Piece::Knight => 320,
        Piece::Bishop => 330,
        Piece::Rook => 500,
        Piece::Queen => 950,
        Piece::King => 20_000,
    }
}

/// A side's name: "White" or "Black".
pub fn side_name(side: Color) -> &'static str {
    match side {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The FEN letter of a piece: upper case for White, lower case for Black.
pub fn piece_char(piece: Piece, color: Color) -> char {
    let letter = match piece {
        Piece::Pawn => 'p',
        Piece::Knight => 'n',
        Piece::Bishop => 'b',
        Piece::Rook => 'r',
        Piece::Queen => 'q',
        Piece::King => 'k',
    };
    match color {
        Color::White => letter.to_ascii_uppercase(),
        Color::Black => letter,
    }
}
