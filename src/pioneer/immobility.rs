//! Removing the cause of immobility: the defender frees a pinned target so that it can run.
//!
//! Seed 004: "The object of the attack may try to go away. If it is chained to its place by a
//! pin or by the need to defend some piece or square, one can try to remove the cause of the
//! immobility."
//!
//! Design note: a pinned target (`route::pin_of`: to its king, or to a queen or rook the pinning
//! piece would win) runs only along the line of its pin (`attack::escape_squares`), so the
//! attack on it is mostly judged without its escape. The defender's counter is to lift the pin —
//! the shielded piece steps off the line, or a piece steps in between the pinning piece and the
//! target — one move before the capture, so that the target still has its own move to run: the
//! counter's budget is one move less than the capture's, and it is made only when the target,
//! once free, has a square to run to (`attack::flight_squares`). The duty of defending another
//! piece is not modelled: it holds a piece by what it would lose, which the exchange model
//! already weighs on the target square.

use super::attack::{flight_squares, Attack, Goal};
use super::counter::{best_route, budget, Counter, CounterKind, NEAR_MISS};
use super::route::pin_of;
use crate::rules::{BitBoard, Board, Piece, Square};
use cozy_chess::{get_between_rays, get_king_moves, get_line_rays};

/// The defender's counters that lift the pin holding the target of `attack`: the best route of
/// the shielded piece off the pin's line (a king to a square next to it), and of each other
/// piece onto a square between the pinning piece and the target, within the budget (one move
/// less than the capture's) or late by at most `NEAR_MISS`. Empty when the target is not pinned,
/// or would have nowhere to run.
pub fn unpinning_counters(board: &Board, attack: &Attack, attacker_to_move: bool) -> Vec<Counter> {
    let Goal::Capture { target, .. } = attack.goal else {
        return Vec::new();
    };
    let Some(pin) = pin_of(board, target) else {
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
    let own = board.colors(defender);
    let pinner = pin.pinner;
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
    let off_line = !get_line_rays(pinner, pin.behind) & !own;
    if let Some(shielded) = board.piece_on(pin.behind) {
        let reach = if shielded == Piece::King {
            get_king_moves(pin.behind)
        } else {
            !board.occupied()
        };
        add(shielded, pin.behind, reach & off_line);
    }
    let between = get_between_rays(pinner, target) & !board.occupied();
    if !between.is_empty() {
        for from in own & !pin.behind.bitboard() & !target.bitboard() {
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

    #[test]
    fn a_rook_behind_a_pinned_knight_steps_off_the_diagonal() {
        // B b5 pins the knight c6 to the rook e8; R h1–h6×c6 takes it in two moves, so the rook
        // e8 has one move to leave the diagonal and the knight one to run.
        let z = zone(
            "4r1k1/8/2n5/1B6/8/8/5K2/7R b - - 0 1",
            Square::H1,
            Square::C6,
        );
        let unpin = z
            .counters
            .iter()
            .find(|c| matches!(c.kind, CounterKind::Unpin { pinner: Square::B5 }))
            .unwrap_or_else(|| panic!("{:?}", z.counters));
        assert_eq!(unpin.piece, Piece::Rook);
        assert!(unpin.in_time());
        assert!(!get_line_rays(Square::B5, Square::E8).has(unpin.route.end()));
        assert_ne!(z.verdict, ZoneVerdict::Wins);
    }
}
