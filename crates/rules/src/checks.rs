//! Checking moves without playing them: the quiet checks of the first ply of quiescence (a quiet
//! check is how most mating attacks and many winning sacrifices begin, and captures alone do
//! not see them), and whether a move checks, for the search's pruning.
//!
//! Design note: a move checks when its piece attacks the enemy king from the target square
//! (direct check) or when the piece alone stands between one of our sliders and the enemy king
//! and leaves that line (discovered check). Both are read from attack tables, without playing
//! the move: this runs at every first ply of quiescence, and the search asks before it plays a
//! move it may prune. The attack rays from the king are taken with the moving piece still in
//! place, which is exact: a slider whose own square blocks the ray to its target would already
//! be giving check; a capture only empties its target square, the ray's end. Castling, en
//! passant and promotions (which empty or fill other squares) are left to playing the move.

use super::{BitBoard, Board, Move, Piece, Square};
use cozy_chess::{
    get_between_rays, get_bishop_moves, get_bishop_rays, get_knight_moves, get_line_rays,
    get_pawn_attacks, get_rook_moves, get_rook_rays,
};

/// Where the side to move's pieces give check from, computed once for a position: the squares
/// from which each kind of piece attacks the enemy king, and our pieces that uncover a check
/// by leaving their line to it.
#[derive(Clone, Copy, Debug)]
pub struct CheckSquares {
    king: Square,
    direct: [BitBoard; 6],
    discoverers: BitBoard,
}

impl CheckSquares {
    /// The check squares of the side to move in `board`.
    pub fn new(board: &Board) -> Self {
        let us = board.side_to_move();
        let them = !us;
        let king = board.king(them);
        let occupied = board.occupied();
        let ours = board.colors(us);
        let bishop_checks = get_bishop_moves(king, occupied);
        let rook_checks = get_rook_moves(king, occupied);
        // Indexed as `Piece` is ordered: pawn, knight, bishop, rook, queen, king.
        let direct = [
            get_pawn_attacks(king, them),
            get_knight_moves(king),
            bishop_checks,
            rook_checks,
            bishop_checks | rook_checks,
            BitBoard::EMPTY,
        ];
        // Our pieces that alone block one of our sliders from the enemy king.
        let diagonal = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
        let straight = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
        let sliders =
            ours & ((get_bishop_rays(king) & diagonal) | (get_rook_rays(king) & straight));
        let mut discoverers = BitBoard::EMPTY;
        for slider in sliders {
            let between = get_between_rays(slider, king) & occupied;
            if between.len() == 1 && !(between & ours).is_empty() {
                discoverers |= between;
            }
        }
        CheckSquares {
            king,
            direct,
            discoverers,
        }
    }

    /// The squares to which `piece` on `from` moves with check (castling, en passant and
    /// promotions aside).
    fn targets(&self, piece: Piece, from: Square) -> BitBoard {
        let mut targets = self.direct[piece as usize];
        if self.discoverers.has(from) {
            // Leaving the line to the king uncovers the slider behind.
            targets |= !get_line_rays(from, self.king);
        }
        targets
    }

    /// Does the legal move `mv` give check? `None` for castling, en passant and promotions,
    /// whose checks these squares do not tell (play the move to know).
    pub fn gives_check(&self, board: &Board, mv: Move) -> Option<bool> {
        let piece = board.piece_on(mv.from)?;
        let special = mv.promotion.is_some()
            || board.color_on(mv.to) == Some(board.side_to_move())
            || (piece == Piece::Pawn
                && mv.from.file() != mv.to.file()
                && !board.occupied().has(mv.to));
        (!special).then(|| self.targets(piece, mv.from).has(mv.to))
    }
}

/// Appends the legal moves that give check without capturing or promoting.
pub fn quiet_checks(board: &Board, out: &mut Vec<Move>) {
    let checks = CheckSquares::new(board);
    let empty = !board.occupied();
    board.generate_moves(|mut moves| {
        moves.to &= empty & checks.targets(moves.piece, moves.from);
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

    /// Over every legal move of positions rich in checks, pins, captures on lines to the king,
    /// castling, en passant and promotions, `gives_check` answers exactly as playing the move
    /// does, or leaves the move to playing (only castling, en passant and promotions).
    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        let mut told = 0;
        for fen in [
            "6k1/5ppp/8/3N4/8/1B6/5PPP/6K1 w - - 0 1",
            "3k4/3p4/2P5/8/8/8/3R4/Q3KB1r w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "4k3/8/8/2pP4/8/8/8/4K2R w K c6 0 1",
            "1k6/8/8/K1pP3r/8/8/8/8 w - c6 0 1",
            "3r2k1/1P2P3/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/3r4/8/8/3B4/8/3R4/3K4 w - - 0 1",
            "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",
            // Captures that uncover a check by leaving the line, and with a check of their own.
            "3k4/8/1p6/4p3/3B4/8/8/3RK3 w - - 0 1",
            "6k1/8/1p3p2/3N4/8/1B6/8/6K1 w - - 0 1",
        ] {
            let board = parse_fen(fen, false).unwrap();
            let checks = CheckSquares::new(&board);
            for mv in legal_moves(&board) {
                let mut child = board.clone();
                child.play_unchecked(mv);
                let checking = !child.checkers().is_empty();
                match checks.gives_check(&board, mv) {
                    Some(answer) => {
                        assert_eq!(answer, checking, "{fen} {mv}");
                        told += 1;
                    }
                    None => assert!(
                        mv.promotion.is_some()
                            || crate::is_castling(&board, mv)
                            || crate::is_en_passant(&board, mv),
                        "{fen} {mv}"
                    ),
                }
            }
        }
        assert!(told > 200, "{told}");
    }
}
