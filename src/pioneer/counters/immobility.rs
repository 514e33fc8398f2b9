//! Removing the cause of immobility: the defender frees a target held by a pin or by its duty
//! to defend another piece or to guard a square, so that it can run.
//!
//! PIONEER: "The object of the attack may try to go away. If it is chained to its place by a
//! pin or by the need to defend some piece or square, one can try to remove the cause of the
//! immobility."
//!
//! Design note: a pinned target (`board::pins::pin_of`: to its king, or to a queen or rook the
//! pinning piece would win) runs only along the line of its pin, and a target with a duty
//! (`rejection::duty::duty_of`: the one defence of an own piece the opponent would win without
//! it, worth at least the target, or the one guard of a square on which the opponent would mate
//! in one without it) runs only to squares from which it still defends that piece or guards
//! that square (`rejection::escape::escape_squares`), so the attack on it is mostly judged
//! without its escape. The defender's counter is to remove the cause one move before the
//! capture, so that the target still has its own move to run: lift the pin (the shielded piece
//! steps off the line, or a piece steps in between the pinning piece and the target), or relieve
//! the duty (another piece comes to defend the charge or guard the square, or a charged piece
//! steps to a square where it is not lost). The counter's budget is one move less than the
//! capture's, and it is made only when the target, once free, has a square to run to
//! (`rejection::escape::flight_squares`).

use super::counter::{budget, Counter, CounterKind, NEAR_MISS};
use crate::pioneer::attacks::attack::{Attack, Goal};
use crate::pioneer::board::pieces::attack_squares;
use crate::pioneer::board::pins::pin_of;
use crate::pioneer::board::route::best_route;
use crate::pioneer::board::trajectory::Mover;
use crate::pioneer::rejection::duty::duty_of;
use crate::pioneer::rejection::escape::flight_squares;
use crate::rules::see::capture_gain_against;
use crate::rules::{BitBoard, Board, Color, Piece, Square};
use cozy_chess::{get_between_rays, get_king_moves, get_line_rays};

/// The target of `attack`, its side and the defender's budget for freeing it (one move less
/// than the capture's, so that the target still has its own move to run); `None` when the
/// attack is no capture, comes too soon, or the target once free would have nowhere to run.
fn freeing(board: &Board, attack: &Attack, attacker_to_move: bool) -> Option<(Square, Color, u8)> {
    let Goal::Capture { target, .. } = attack.goal else {
        return None;
    };
    let defender = board.color_on(target)?;
    let capture_budget = budget(attack.forecast(), attacker_to_move);
    if capture_budget < 1 || flight_squares(board, &attack.route, target).is_empty() {
        return None;
    }
    Some((target, defender, capture_budget - 1))
}

/// The counter of `kind` made by the piece on `from` going to the nearest of `squares`, within
/// `budget` or late by at most `NEAR_MISS`; `None` when it cannot or is already there.
fn freeing_counter(
    board: &Board,
    kind: CounterKind,
    budget: u8,
    piece: Piece,
    from: Square,
    squares: BitBoard,
) -> Option<Counter> {
    let route = best_route(board, from, squares, budget + NEAR_MISS)?;
    (!route.is_empty()).then_some(Counter {
        kind,
        piece,
        route,
        budget,
        threat: None,
    })
}

/// The defender's counters that lift the pin holding the target of `attack`: the best route of
/// the shielded piece off the pin's line (a king to a square next to it), and of each other
/// piece onto a square between the pinning piece and the target, within the budget (one move
/// less than the capture's) or late by at most `NEAR_MISS`. Empty when the target is not pinned,
/// or would have nowhere to run.
pub fn unpinning_counters(board: &Board, attack: &Attack, attacker_to_move: bool) -> Vec<Counter> {
    let Some((target, defender, budget)) = freeing(board, attack, attacker_to_move) else {
        return Vec::new();
    };
    let Some(pin) = pin_of(board, target) else {
        return Vec::new();
    };
    let own = board.colors(defender);
    let pinner = pin.pinner;
    let mut out = Vec::new();
    let mut add = |piece: Piece, from: Square, squares: BitBoard| {
        let kind = CounterKind::Unpin { pinner };
        out.extend(freeing_counter(board, kind, budget, piece, from, squares));
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

/// The defender's counters that relieve the target of `attack` of its duty (`duty_of`): the
/// best route of each other piece to a square from which it defends the charge, and of the
/// charge to an empty square where it is not lost, within the budget (one move less than the
/// capture's) or late by at most `NEAR_MISS`. Empty when the target has no duty, is pinned (the
/// pin is the cause to remove first) or would have nowhere to run.
pub fn relieving_counters(board: &Board, attack: &Attack, attacker_to_move: bool) -> Vec<Counter> {
    let Some((target, defender, budget)) = freeing(board, attack, attacker_to_move) else {
        return Vec::new();
    };
    if pin_of(board, target).is_some() {
        return Vec::new();
    }
    let Some(duty) = duty_of(board, target) else {
        return Vec::new();
    };
    let occupied = board.occupied();
    let charge = duty.charge;
    let mut out = Vec::new();
    let mut add = |piece: Piece, from: Square, squares: BitBoard| {
        let kind = CounterKind::Relieve {
            charge,
            guard: duty.mate,
        };
        out.extend(freeing_counter(board, kind, budget, piece, from, squares));
    };
    let others = board.colors(defender) & !target.bitboard() & !charge.bitboard();
    for from in others {
        if let Some(piece) = board.piece_on(from) {
            let defends = attack_squares(Mover::new(piece, defender), charge, occupied);
            add(piece, from, defends & !occupied);
        }
    }
    // A mating square is guarded, not carried to safety.
    if let Some(piece) = board.piece_on(charge).filter(|_| !duty.mate) {
        let safe = (!occupied)
            .into_iter()
            .filter(|&s| capture_gain_against(board, charge, s, piece).is_none_or(|g| g <= 0))
            .fold(BitBoard::EMPTY, |a, s| a | s.bitboard());
        add(piece, charge, safe);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::attacks::attack::{attack_on, TrajectoryLimits};
    use crate::pioneer::examples::{DUTY, GUARD};
    use crate::pioneer::rejection::escape::escape_squares;
    use crate::pioneer::zones::zone::{Zone, ZoneVerdict};
    use crate::rules::{parse_fen, Rank};

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

    #[test]
    fn a_rook_on_guard_runs_along_the_back_rank_until_it_is_relieved() {
        let board = parse_fen(GUARD, false).unwrap();
        // The rook runs only along the back rank, where it still guards e8 (its duty,
        // `rejection::duty`).
        let attack =
            attack_on(&board, Square::D3, Square::C8, TrajectoryLimits::default()).unwrap();
        let escapes = escape_squares(&board, &attack.route, Square::C8, true);
        assert!(!escapes.is_empty());
        assert!(
            escapes.into_iter().all(|s| s.rank() == Rank::Eighth),
            "{escapes:?}"
        );
        assert!(flight_squares(&board, &attack.route, Square::C8).has(Square::C5));
        // Relief: another piece comes to guard e8; the square itself is not carried away.
        let relief = relieving_counters(&board, &attack, true);
        assert!(
            !relief.is_empty()
                && relief.iter().all(|c| c.route.start() != Square::E8
                    && c.kind
                        == CounterKind::Relieve {
                            charge: Square::E8,
                            guard: true
                        }),
            "{relief:?}"
        );
    }

    #[test]
    fn a_knight_held_by_its_duty_cannot_run_until_it_is_relieved() {
        let board = parse_fen(DUTY, false).unwrap();
        let attack =
            attack_on(&board, Square::C1, Square::D6, TrajectoryLimits::default()).unwrap();
        // Every square the knight could run to gives up the bishop.
        assert!(escape_squares(&board, &attack.route, Square::D6, false).is_empty());
        assert!(!flight_squares(&board, &attack.route, Square::D6).is_empty());
        // But the king can take over the bishop's defence, or the bishop can leave, one move
        // before the capture.
        let relief = relieving_counters(&board, &attack, false);
        assert!(
            relief.iter().any(|c| c.piece == Piece::King && c.in_time()),
            "{relief:?}"
        );
        assert!(
            relief
                .iter()
                .any(|c| c.piece == Piece::Bishop && c.square() == Square::B7 && c.in_time()),
            "{relief:?}"
        );
        let z = zone(DUTY, Square::C1, Square::D6);
        assert!(z.counters.iter().any(|c| matches!(
            c.kind,
            CounterKind::Relieve {
                charge: Square::B7,
                guard: false
            }
        )));
        assert_ne!(z.verdict, ZoneVerdict::Wins);
    }
}
