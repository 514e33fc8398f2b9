//! Removing the cause of immobility: the defender frees a pinned target so that it can run.
//!
//! Seed 004: "The object of the attack may try to go away. If it is chained to its place by a
//! pin or by the need to defend some piece or square, one can try to remove the cause of the
//! immobility."
//!
//! Design note: a target pinned to its king cannot run (`attack::escape_squares` is empty for
//! it), so the attack on it is judged without its escape. The defender's counter is to lift the
//! pin — the king steps off the line of the pin, or a piece steps in between the pinning piece
//! and the target — one move before the capture, so that the target still has its own move to
//! run: the counter's budget is one move less than the capture's, and it is made only when the
//! target, once free, has a square to run to (`attack::flight_squares`). Pins to a queen or a
//! rook, and the duty of defending another piece, are not modelled: they hold a piece by what it
//! would lose, which the exchange model already weighs on the target square.

use super::attack::{flight_squares, Attack, Goal};
use super::counter::{best_route, budget, Counter, CounterKind, NEAR_MISS};
use super::route::pins;
use crate::rules::{BitBoard, Board, Piece, Square};
use cozy_chess::{get_between_rays, get_king_moves, get_line_rays};

/// The enemy piece that pins the piece on `square` to its own king, if any.
pub fn pinner_of(board: &Board, square: Square) -> Option<Square> {
    let color = board.color_on(square)?;
    pins(board, color)
        .into_iter()
        .find_map(|(pinned, pinner)| (pinned == square).then_some(pinner))
}

/// The defender's counters that lift the pin holding the target of `attack`: the best route of
/// the king off the pin's line, and of each other piece onto a square between the pinning piece
/// and the target, within the budget (one move less than the capture's) or late by at most
/// `NEAR_MISS`. Empty when the target is not pinned, or would have nowhere to run.
pub fn unpinning_counters(board: &Board, attack: &Attack, attacker_to_move: bool) -> Vec<Counter> {
    let Goal::Capture { target, .. } = attack.goal else {
        return Vec::new();
    };
    let Some(pinner) = pinner_of(board, target) else {
        return Vec::new();
    };
    let Some(defender) = board.color_on(target) else {
        return Vec::new();
    };
    let capture_budget = budget(attack.forecast(), attacker_to_move);
    if capture_budget < 1 || flight_squares(board, &attack.route, target).is_empty() {
        return Vec::new();
    }
    let budget = capture_budget - 1;
    let limit = budget + NEAR_MISS;
    let king = board.king(defender);
    let own = board.colors(defender);
    let mut out = Vec::new();
    let mut add = |piece: Piece, from: Square, squares: BitBoard| {
        if let Some(route) = best_route(board, from, squares, limit) {
            if !route.is_empty() {
                out.push(Counter {
                    kind: CounterKind::Unpin { pinner },
                    piece,
                    route,
                    budget,
                });
            }
        }
    };
    add(
        Piece::King,
        king,
        get_king_moves(king) & !get_line_rays(king, pinner) & !own,
    );
    let between = get_between_rays(pinner, target) & !board.occupied();
    if !between.is_empty() {
        for from in own & !king.bitboard() & !target.bitboard() {
            if let Some(piece) = board.piece_on(from) {
                add(piece, from, between);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::attack::{attack_on, TrajectoryLimits};
    use crate::pioneer::zone::{Zone, ZoneVerdict};
    use crate::rules::parse_fen;

    fn zone(fen: &str, root: Square, target: Square) -> Zone {
        let board = parse_fen(fen, false).unwrap();
        let attack = attack_on(&board, root, target, TrajectoryLimits::default()).unwrap();
        let to_move = board.side_to_move() == attack.side;
        Zone::form(&board, attack, to_move)
    }

    #[test]
    fn the_pinning_piece_is_found() {
        let board = parse_fen("4k3/8/2n5/1B6/8/8/8/4K3 w - - 0 1", false).unwrap();
        assert_eq!(pinner_of(&board, Square::C6), Some(Square::B5));
        let board = parse_fen("3k4/8/2n5/1B6/8/8/8/4K3 w - - 0 1", false).unwrap();
        assert_eq!(pinner_of(&board, Square::C6), None);
    }

    #[test]
    fn the_king_steps_off_the_pin_in_time_and_the_knight_runs() {
        // The knight c6 is pinned by the bishop b5; the rook needs two moves to take it
        // (R h1–h6×c6), so Black has one move to unpin (K e8–d8 or K e8–f8 …) and one to run.
        let z = zone("4k3/8/2n5/1B6/8/8/8/4K2R b - - 0 1", Square::H1, Square::C6);
        let unpin: Vec<&Counter> = z
            .counters
            .iter()
            .filter(|c| matches!(c.kind, CounterKind::Unpin { pinner: Square::B5 }))
            .collect();
        assert!(
            unpin.iter().any(|c| c.piece == Piece::King && c.in_time()),
            "{:?}",
            z.counters
        );
        assert_ne!(z.verdict, ZoneVerdict::Wins);
    }

    #[test]
    fn no_time_to_unpin_when_the_capture_comes_at_once() {
        // White to move takes the pinned knight with the rook's next move but one: Black has
        // one move, which the knight would need for running itself.
        let z = zone("4k3/8/2n5/1B6/8/8/8/4K2R w - - 0 1", Square::H1, Square::C6);
        assert!(z
            .counters
            .iter()
            .filter(|c| matches!(c.kind, CounterKind::Unpin { .. }))
            .all(|c| !c.in_time()));
    }

    #[test]
    fn a_pawn_steps_between_the_pinning_bishop_and_the_knight() {
        // B a4 pins the knight c6; P b7–b5 (defended by a6) closes the diagonal.
        let board = parse_fen("4k3/1p6/p1n5/8/B7/8/8/4K2R b - - 0 1", false).unwrap();
        let attack =
            attack_on(&board, Square::H1, Square::C6, TrajectoryLimits::default()).unwrap();
        let list = unpinning_counters(&board, &attack, false);
        let pawn = list
            .iter()
            .find(|c| c.piece == Piece::Pawn)
            .unwrap_or_else(|| panic!("{list:?}"));
        assert_eq!(pawn.route.end(), Square::B5);
        assert!(pawn.in_time());
        // The king's step must leave the line: d7 lies on it.
        let king = list.iter().find(|c| c.piece == Piece::King).unwrap();
        assert_ne!(king.route.end(), Square::D7);
    }
}
