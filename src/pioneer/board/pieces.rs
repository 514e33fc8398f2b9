//! The pieces as the model names and moves them: the letter and the word for each, and the
//! squares from which a piece of each kind attacks a square.
//!
//! Design note: these small helpers are shared by every layer above — the notation of a
//! trajectory (`K h8–g7–f6`), the plan's words ("the a7 pawn"), the squares a counter piece must
//! reach to defend a target or control a stop — so they live at the bottom, with the
//! trajectories, and know nothing but the rules and `trajectory::Mover`.

use super::trajectory::Mover;
use crate::rules::{BitBoard, Piece, Square};
use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves,
};

/// Piece letter in English notation (pawn: "P").
pub fn piece_letter(piece: Piece) -> char {
    match piece {
        Piece::Pawn => 'P',
        Piece::Knight => 'N',
        Piece::Bishop => 'B',
        Piece::Rook => 'R',
        Piece::Queen => 'Q',
        Piece::King => 'K',
    }
}

/// Piece name in words.
pub fn piece_name(piece: Piece) -> &'static str {
    match piece {
        Piece::Pawn => "pawn",
        Piece::Knight => "knight",
        Piece::Bishop => "bishop",
        Piece::Rook => "rook",
        Piece::Queen => "queen",
        Piece::King => "king",
    }
}

/// Squares from which a piece of kind `mover` attacks `target` with the given occupancy.
pub fn attack_squares(mover: Mover, target: Square, occupied: BitBoard) -> BitBoard {
    match mover {
        Mover::Pawn(color) => get_pawn_attacks(target, !color),
        Mover::Knight => get_knight_moves(target),
        Mover::Bishop => get_bishop_moves(target, occupied),
        Mover::Rook => get_rook_moves(target, occupied),
        Mover::Queen => get_bishop_moves(target, occupied) | get_rook_moves(target, occupied),
        Mover::King => get_king_moves(target),
    }
}
