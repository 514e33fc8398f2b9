//! The squares a side attacks: every square one of its pieces could capture on, its own pieces'
//! squares included (a defended piece is attacked by its own side), pawns by their diagonal
//! captures only.
//!
//! Design note: the search asks this once per node, to tell moves that leave or enter a square
//! the opponent attacks (history is kept apart for them), so it is one pass over the side's
//! pieces by kind, with sliders seeing through nothing but empty squares.

use super::{BitBoard, Board, Color, Piece};
use cozy_chess::{get_bishop_moves, get_king_moves, get_knight_moves, get_rook_moves};

/// Squares attacked by the pawns in `pawns` of `color`, all at once by shifting the set.
#[inline(always)]
pub fn pawn_attacks(pawns: BitBoard, color: Color) -> BitBoard {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let p = pawns.0;
    BitBoard(match color {
        Color::White => ((p & NOT_A) << 7) | ((p & NOT_H) << 9),
        Color::Black => ((p & NOT_A) >> 9) | ((p & NOT_H) >> 7),
    })
}

/// Every square `side` attacks in `board`.
pub fn attacked_by(board: &Board, side: Color) -> BitBoard {
    let occupied = board.occupied();
    let ours = |piece| board.colored_pieces(side, piece);
    let mut attacked = pawn_attacks(ours(Piece::Pawn), side);
    for square in ours(Piece::Knight) {
        attacked |= get_knight_moves(square);
    }
    for square in ours(Piece::Bishop) | ours(Piece::Queen) {
        attacked |= get_bishop_moves(square, occupied);
    }
    for square in ours(Piece::Rook) | ours(Piece::Queen) {
        attacked |= get_rook_moves(square, occupied);
    }
    for square in ours(Piece::King) {
        attacked |= get_king_moves(square);
    }
    attacked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_fen, Square};

    #[test]
    fn start_position_attacks_its_own_three_ranks() {
        let board = Board::default();
        // White: all of rank 3 (pawns), rank 2 (defended by the back rank), and the back rank
        // but a1 and h1 (nothing defends the rooks).
        let white = attacked_by(&board, Color::White);
        assert_eq!(white.len(), 8 + 8 + 6);
        assert!(!white.has(Square::A1) && !white.has(Square::E4));
        let black = attacked_by(&board, Color::Black);
        assert!(black.has(Square::F6) && !black.has(Square::E5));
    }

    #[test]
    fn pawn_attacks_do_not_wrap_around_the_board() {
        assert_eq!(
            pawn_attacks(Square::A2.bitboard(), Color::White),
            Square::B3.bitboard()
        );
        assert_eq!(
            pawn_attacks(Square::H7.bitboard(), Color::Black),
            Square::G6.bitboard()
        );
    }

    #[test]
    fn sliders_stop_at_the_first_piece_pawns_take_diagonally() {
        let board = parse_fen("4k3/8/8/8/8/8/8/Q2n3K w - - 0 1", false).unwrap();
        let white = attacked_by(&board, Color::White);
        assert!(white.has(Square::A8) && white.has(Square::H8) && white.has(Square::D1));
        assert!(!white.has(Square::E1) && !white.has(Square::F1));
        let board = parse_fen("4k3/8/8/8/8/2p5/1p6/Q3K3 w - - 0 1", false).unwrap();
        let white = attacked_by(&board, Color::White);
        assert!(white.has(Square::B2) && !white.has(Square::C3));
        let black = attacked_by(&board, Color::Black);
        assert!(black.has(Square::A1) && black.has(Square::C1) && !black.has(Square::B1));
        assert!(black.has(Square::D2) && !black.has(Square::C2));
    }
}
