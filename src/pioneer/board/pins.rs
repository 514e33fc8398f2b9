//! Pins: pieces held on a line by an enemy bishop, rook or queen.
//!
//! Design note: two layers ask about pins, and each needs a different answer. A route asks
//! which of a side's pieces are pinned to their king (`pinned`): such a piece cannot step
//! aside, so it is an obstacle the route cannot clear in one move (`route`). A target's escape
//! and the counters that free it ask what holds one piece (`pin_of`): a pin to its king, or to
//! a queen or rook worth more that the pinning piece would win (`rejection::escape`,
//! `counters::immobility`). Both read the board and the exchange values only.

use crate::rules::see::attackers_to;
use crate::rules::{piece_value, BitBoard, Board, Color, Piece, Square};
use cozy_chess::{get_between_rays, get_bishop_moves, get_rook_moves};

/// The enemy sliders of `color`'s pieces: (bishops and queens, rooks and queens).
fn enemy_sliders(board: &Board, color: Color) -> (BitBoard, BitBoard) {
    let enemy = board.colors(!color);
    let diagonal = (board.pieces(Piece::Bishop) | board.pieces(Piece::Queen)) & enemy;
    let straight = (board.pieces(Piece::Rook) | board.pieces(Piece::Queen)) & enemy;
    (diagonal, straight)
}

/// Pieces of `color` pinned to their own king.
pub fn pinned(board: &Board, color: Color) -> BitBoard {
    let king = board.king(color);
    let (diagonal, straight) = enemy_sliders(board, color);
    let enemy = board.colors(!color);
    let snipers =
        (get_bishop_moves(king, enemy) & diagonal) | (get_rook_moves(king, enemy) & straight);
    let mut out = BitBoard::EMPTY;
    for sniper in snipers {
        let between = get_between_rays(king, sniper) & board.occupied();
        if between.len() == 1 && !(between & board.colors(color)).is_empty() {
            out |= between;
        }
    }
    out
}

/// A pin: the piece on `pinned` shields `behind` from the enemy slider on `pinner`, and cannot
/// leave the line between them without losing more than it would save.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pin {
    /// The held piece.
    pub pinned: Square,
    /// The enemy bishop, rook or queen on the line.
    pub pinner: Square,
    /// What the held piece shields: its king, or a queen or rook.
    pub behind: Square,
}

/// The pin that holds the piece on `square`, if any: to its king (preferred when there are
/// two), or to a queen or rook worth more than the held piece that the pinning piece would win
/// — worth more than the pinning piece too, or undefended once the held piece has gone.
pub fn pin_of(board: &Board, square: Square) -> Option<Pin> {
    let color = board.color_on(square)?;
    let held = board.piece_on(square)?;
    if held == Piece::King {
        return None;
    }
    let (diagonal, straight) = enemy_sliders(board, color);
    let valuable =
        board.pieces(Piece::King) | board.pieces(Piece::Queen) | board.pieces(Piece::Rook);
    let occupied = board.occupied() & !square.bitboard();
    let mut found = None;
    for behind in valuable & board.colors(color) & !square.bitboard() {
        let snipers = (get_bishop_moves(behind, occupied) & diagonal)
            | (get_rook_moves(behind, occupied) & straight);
        for pinner in snipers {
            if !get_between_rays(behind, pinner).has(square) {
                continue;
            }
            let pin = Pin {
                pinned: square,
                pinner,
                behind,
            };
            let shielded = board.piece_on(behind)?;
            if shielded == Piece::King {
                return Some(pin);
            }
            let worth = piece_value(shielded);
            let undefended =
                (attackers_to(board, behind, occupied) & board.colors(color)).is_empty();
            let pinner_value = board.piece_on(pinner).map_or(0, piece_value);
            if worth > piece_value(held) && (worth > pinner_value || undefended) {
                found = Some(pin);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_fen;

    fn pin(fen: &str, square: Square) -> Option<Pin> {
        pin_of(&parse_fen(fen, false).unwrap(), square)
    }

    #[test]
    fn pins_to_the_king_and_to_what_the_pinning_piece_would_win() {
        let to_king = pin("4k3/8/2n5/1B6/8/8/8/4K3 w - - 0 1", Square::C6).unwrap();
        assert_eq!((to_king.pinner, to_king.behind), (Square::B5, Square::E8));
        assert_eq!(pin("3k4/8/2n5/1B6/8/8/8/4K3 w - - 0 1", Square::C6), None);
        // A bishop wins the rook behind the knight, defended or not.
        let to_rook = pin("4r1k1/8/2n5/1B6/8/8/8/4K3 w - - 0 1", Square::C6).unwrap();
        assert_eq!(to_rook.behind, Square::E8);
        // A queen only wins an undefended rook.
        assert_eq!(pin("4r3/5k2/2n5/8/Q7/8/8/4K3 w - - 0 1", Square::C6), None);
        assert!(pin("4r3/7k/2n5/8/Q7/8/8/4K3 w - - 0 1", Square::C6).is_some());
        // A bishop behind a knight, or a knight behind a rook, is not worth holding for.
        assert_eq!(pin("4b1k1/8/2n5/1B6/8/8/8/4K3 w - - 0 1", Square::C6), None);
        assert_eq!(pin("4n1k1/8/2r5/1B6/8/8/8/4K3 w - - 0 1", Square::C6), None);
    }

    #[test]
    fn only_a_lone_piece_between_king_and_slider_is_pinned() {
        // The knight e2 alone between the bishop b5 and the king f1 is pinned; with the bishop
        // on c3, off the king's diagonal, nothing is.
        let board = parse_fen("4k3/8/8/8/8/2b5/4N3/R4K2 w - - 0 1", false).unwrap();
        assert_eq!(pinned(&board, Color::White), BitBoard::EMPTY);
        let board = parse_fen("4k3/8/8/1b6/8/8/4N3/R2N1K2 w - - 0 1", false).unwrap();
        assert_eq!(pinned(&board, Color::White), Square::E2.bitboard());
        // Two pieces between them: neither is pinned.
        let board = parse_fen("4k3/8/8/1b6/8/3N4/4N3/5K2 w - - 0 1", false).unwrap();
        assert_eq!(pinned(&board, Color::White), BitBoard::EMPTY);
    }
}
