//! Duties: what chains a piece to its place besides a pin — the one defence of an own piece,
//! or the one guard of a square on which the opponent would mate.
//!
//! PIONEER: "The object of the attack may try to go away. If it is chained to its place by a
//! pin or by the need to defend some piece or square, one can try to remove the cause of the
//! immobility."
//!
//! Design note: a duty (`duty_of`) is the one defence of an own piece the opponent would win
//! without it, worth at least the held piece, or the one guard of a square on which the
//! opponent would mate in one without it (`guarded_mate`, decided exactly by
//! `board::arrival::mates_after`). It narrows the held piece's escape (`escape::escape_squares`:
//! only to squares from which it still defends its charge), which is why it lives with the
//! reasons of rejection; the counters that relieve a duty are `counters::immobility`'s. A pin,
//! the other chain, is `board::pins::pin_of`.

use crate::pioneer::board::arrival::{mates_after, relocated, MATE_GAIN};
use crate::pioneer::board::pieces::attack_squares;
use crate::pioneer::board::route::piece_moves;
use crate::pioneer::board::trajectory::Mover;
use crate::rules::see::{attackers_to, exchange_on_square, exchange_without};
use crate::rules::{piece_value, Board, Piece, Square};

/// A duty: the piece on `holder` is the defence of `charge` — its own piece there, which the
/// opponent would win (`loss` centipawns more) if the holder went away, or the square on which
/// the opponent would then mate (`mate`, the loss `MATE_GAIN`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Duty {
    /// The held piece.
    pub holder: Square,
    /// The piece it defends, or the square it guards against a mate.
    pub charge: Square,
    /// What leaving would cost, in the exchange model.
    pub loss: i32,
    /// Whether the charge is a square guarded against a mate (the duty to guard a square).
    pub mate: bool,
}

/// The duty that holds the piece on `square`, if any: the square it alone guards against a mate
/// in one (`guarded_mate`), else, of the own pieces it defends (its king and itself aside), the
/// one whose exchange the opponent would win by the most without it, when that loss is at least
/// the held piece's own worth (running would cost as much as being taken).
pub fn duty_of(board: &Board, square: Square) -> Option<Duty> {
    let color = board.color_on(square)?;
    let held = board.piece_on(square)?;
    if held == Piece::King {
        return None;
    }
    if let Some(charge) = guarded_mate(board, square) {
        return Some(Duty {
            holder: square,
            charge,
            loss: MATE_GAIN,
            mate: true,
        });
    }
    let mover = Mover::new(held, color);
    let occupied = board.occupied();
    let kings = board.pieces(Piece::King);
    let mut best: Option<Duty> = None;
    for charge in board.colors(color) & !kings & !square.bitboard() {
        if !attack_squares(mover, charge, occupied).has(square) {
            continue;
        }
        let loss = exchange_without(board, charge, !color, square)
            - exchange_on_square(board, charge, !color);
        if loss >= piece_value(held) && best.is_none_or(|d| loss > d.loss) {
            best = Some(Duty {
                holder: square,
                charge,
                loss,
                mate: false,
            });
        }
    }
    best
}

/// The square on which the opponent would mate in one move if the piece on `holder` were gone,
/// and does not mate now because it guards it (the duty to guard a square; PIONEER: "chained
/// to its place by the need to defend some piece or square"). Only checks by a piece that
/// already reaches the square are tried, so the search is short.
fn guarded_mate(board: &Board, holder: Square) -> Option<Square> {
    let color = board.color_on(holder)?;
    let king = board.king(color);
    let opponent = !color;
    let mut without = relocated(board, &[]);
    *without.square_mut(holder) = None;
    let without = without.build().ok()?;
    let occupied = without.occupied();
    let checkers = board.colors(opponent) & !board.pieces(Piece::King) & !board.pieces(Piece::Pawn);
    for from in checkers {
        let Some(piece) = board.piece_on(from) else {
            continue;
        };
        let mover = Mover::new(piece, opponent);
        let checks = attack_squares(mover, king, occupied & !from.bitboard());
        let reach = piece_moves(&without, from, occupied);
        for to in checks & reach {
            let guards = attackers_to(board, to, board.occupied()).has(holder);
            if guards && mates_after(&without, from, to, &[]) && !mates_after(board, from, to, &[])
            {
                return Some(to);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::examples::{DUTY, GUARD};
    use crate::rules::parse_fen;

    #[test]
    fn a_knight_that_alone_defends_a_bishop_has_a_duty() {
        let board = parse_fen(DUTY, false).unwrap();
        let duty = duty_of(&board, Square::D6).unwrap();
        assert_eq!(duty.charge, Square::B7);
        assert_eq!(duty.loss, piece_value(Piece::Bishop));
        // Without the rook nothing attacks the bishop, and the knight is free.
        let free = parse_fen("3k4/1b6/3n4/8/8/8/8/2B3K1 b - - 0 1", false).unwrap();
        assert_eq!(duty_of(&free, Square::D6), None);
        // A pawn's worth is no duty for a knight.
        let pawn = parse_fen("3k4/1p6/3n4/8/8/8/8/1RB3K1 b - - 0 1", false).unwrap();
        assert_eq!(duty_of(&pawn, Square::D6), None);
    }

    #[test]
    fn a_rook_that_alone_guards_a_mating_square_has_a_duty_to_guard_it() {
        let board = parse_fen(GUARD, false).unwrap();
        let duty = duty_of(&board, Square::C8).unwrap();
        assert_eq!((duty.charge, duty.mate), (Square::E8, true));
        // With luft on g7 (…g6) Re8+ is no mate, and the rook is free; …h6 would not do, the
        // bishop takes h7 from the king.
        let luft = parse_fen("2r3k1/5p1p/6p1/8/8/3B4/5PPP/4R1K1 w - - 0 1", false).unwrap();
        assert_eq!(duty_of(&luft, Square::C8), None);
    }
}
