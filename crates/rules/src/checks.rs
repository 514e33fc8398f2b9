//! Quiet checking moves, for the first ply of quiescence (a quiet check is how most mating
//! attacks and many winning sacrifices begin, and captures alone do not see them).
//!
//! Design note: a move checks when its piece attacks the enemy king from the target square
//! (direct check) or when the piece alone stands between one of our sliders and the enemy king
//! and leaves that line (discovered check). Both are read from attack tables, without playing
//! the move: this runs at every first ply of quiescence. The attack rays from the king are taken
//! with the moving piece still in place, which is exact: a slider whose own square blocks the
//! ray to its target would already be giving check. Only castling with check is not offered.

use super::{BitBoard, Board, Move, Piece};
use cozy_chess::{
    get_between_rays, get_bishop_moves, get_bishop_rays, get_knight_moves, get_line_rays,
    get_pawn_attacks, get_rook_moves, get_rook_rays,
};

/// Appends the legal moves that give check without capturing or promoting.
pub fn quiet_checks(board: &Board, out: &mut Vec<Move>) {
    let us = board.side_to_move();
    let them = !us;
    let king = board.king(them);
    let occupied = board.occupied();
    let ours = board.colors(us);

    let bishop_checks = get_bishop_moves(king, occupied);
    let rook_checks = get_rook_moves(king, occupied);
    let direct = |piece: Piece| -> BitBoard {
        match piece {
            Piece::Pawn => get_pawn_attacks(king, them),
            Piece::Knight => get_knight_moves(king),
            Piece::Bishop => bishop_checks,
            Piece::Rook => rook_checks,
            Piece::Queen => bishop_checks | rook_checks,
            Piece::King => BitBoard::EMPTY,
        }
    };

    // Our pieces that alone block one of our sliders from the enemy king.
    let diagonal = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let straight = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let sliders = ours & ((get_bishop_rays(king) & diagonal) | (get_rook_rays(king) & straight));
    let mut discoverers = BitBoard::EMPTY;
    for slider in sliders {
        let between = get_between_rays(slider, king) & occupied;
        if between.len() == 1 && !(between & ours).is_empty() {
            discoverers |= between;
        }
    }

    let empty = !occupied;
    board.generate_moves(|mut moves| {
        let mut targets = direct(moves.piece);
        if discoverers.has(moves.from) {
            // Leaving the line to the king uncovers the slider behind.
            targets |= !get_line_rays(moves.from, king);
        }
        moves.to &= empty & targets;
        for mv in moves {
            let en_passant = moves.piece == Piece::Pawn && mv.from.file() != mv.to.file();
            if mv.promotion.is_none() && !en_passant {
                out.push(mv);
            }
        }
        false
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{is_capture, legal_moves, parse_fen};

    /// Every quiet, non-promoting, non-castling legal move that checks, found the slow way.
    fn slow_quiet_checks(board: &Board) -> Vec<String> {
        let mut found: Vec<String> = legal_moves(board)
            .into_iter()
            .filter(|&mv| {
                let mut child = board.clone();
                child.play_unchecked(mv);
                !is_capture(board, mv)
                    && mv.promotion.is_none()
                    && !crate::is_castling(board, mv)
                    && !child.checkers().is_empty()
            })
            .map(|mv| mv.to_string())
            .collect();
        found.sort();
        found
    }

    #[test]
    fn finds_direct_and_discovered_checks_and_nothing_else() {
        for fen in [
            // Discovered checks by the bishop on b3 behind the knight on d5, direct knight checks.
            "6k1/5ppp/8/3N4/8/1B6/5PPP/6K1 w - - 0 1",
            // Rook, queen and pawn checks; a pinned piece of ours must not be offered.
            "3k4/3p4/2P5/8/8/8/3R4/Q3KB1r w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3",
            // A pawn pushed along the rook's file still blocks it; one pushed off the bishop's
            // diagonal uncovers it.
            "4k3/8/8/8/4P3/8/8/4R1K1 w - - 0 1",
            "7k/8/8/8/3P4/8/1B6/6K1 w - - 0 1",
        ] {
            let board = parse_fen(fen, false).unwrap();
            let mut fast = Vec::new();
            quiet_checks(&board, &mut fast);
            let mut fast: Vec<String> = fast.iter().map(|m| m.to_string()).collect();
            fast.sort();
            assert_eq!(fast, slow_quiet_checks(&board), "{fen}");
        }
    }
}
