//! Reason 2 of rejection, the target's escape: the squares an attacked piece can run to before
//! the attacking piece arrives.
//!
//! PIONEER's second reason rejects an attack whose target can leave in time. Design note: a
//! flight square must be free of the attacker's control (`board::control`) and out of reach of the
//! attacking piece from its last stop; then what holds the target in place narrows the flights —
//! a pin (it runs only along the pin's line), a duty (only to squares from which it still
//! defends its charge, `duty::duty_of`) and a first step that checks (a fork of the king
//! and the target: the defender's one move must answer the check).

use super::duty::duty_of;
use crate::pioneer::board::control::control;
use crate::pioneer::board::pieces::attack_squares;
use crate::pioneer::board::pins::pin_of;
use crate::pioneer::board::route::{piece_moves, Route};
use crate::pioneer::board::trajectory::Mover;
use crate::rules::{BitBoard, Board, Square};
use cozy_chess::{get_between_rays, get_line_rays, get_pawn_attacks};

/// Reason 2: squares the target can run to before the attacker arrives, where it is neither
/// controlled by the attacker's side nor still hit by the attacker from its last stop. A pinned
/// target (`pins::pin_of`) runs only along the line of its pin, and one with a duty
/// (`duty::duty_of`) only to squares from which it still defends its charge. When the
/// defender's one move comes after a first step that checks (`check_on_arrival`: a fork of the
/// king and the target), that move must answer the check: the target runs only by taking the
/// checking piece or by stepping in between.
pub fn escape_squares(
    board: &Board,
    route: &Route,
    target: Square,
    attacker_to_move: bool,
) -> BitBoard {
    let budget = route.forecast() as i32 - 1 + i32::from(!attacker_to_move);
    if budget < 1 {
        return BitBoard::EMPTY;
    }
    let mut flights = flight_squares(board, route, target);
    if budget == 1 && attacker_to_move && route.len() == 2 {
        if let Some(king) = check_on_arrival(board, route) {
            let checker = route.squares[1];
            flights &= checker.bitboard() | get_between_rays(checker, king);
        }
    }
    if let Some(pin) = pin_of(board, target) {
        // Off the line of its pin the target would give up what it shields.
        return flights & get_line_rays(pin.pinner, pin.behind);
    }
    match (
        duty_of(board, target),
        board.piece_on(target),
        board.color_on(target),
    ) {
        // Where it no longer defends its charge the target would give the charge up.
        (Some(duty), Some(piece), Some(color)) => {
            let occupied = board.occupied() & !target.bitboard();
            flights
                .into_iter()
                .filter(|&s| {
                    attack_squares(
                        Mover::new(piece, color),
                        duty.charge,
                        occupied | s.bitboard(),
                    )
                    .has(s)
                })
                .fold(BitBoard::EMPTY, |a, s| a | s.bitboard())
        }
        _ => flights,
    }
}

/// The enemy king's square when the first step of `route`, a plain move to its second square,
/// gives check from there (direct checks only: a discovered one depends on what stays behind).
pub fn check_on_arrival(board: &Board, route: &Route) -> Option<Square> {
    let (&start, &arrival) = (route.squares.first()?, route.squares.get(1)?);
    let king = board.king(!route.side);
    let occupied = (board.occupied() & !start.bitboard()) | arrival.bitboard();
    hits_from(route.mover, arrival, occupied)
        .has(king)
        .then_some(king)
}

/// The squares `mover` attacks from `from` (`attack_squares` gives the squares from which it
/// attacks a square, which differ for a pawn).
fn hits_from(mover: Mover, from: Square, occupied: BitBoard) -> BitBoard {
    match mover {
        Mover::Pawn(color) => get_pawn_attacks(from, color),
        mover => attack_squares(mover, from, occupied),
    }
}

/// The squares the target could run to from the attack along `route` if it were free to move
/// (no pin, time enough): not controlled by the attacker's side, not hit from the last stop.
pub fn flight_squares(board: &Board, route: &Route, target: Square) -> BitBoard {
    let Some(piece) = board.piece_on(target) else {
        return BitBoard::EMPTY;
    };
    let occupied = board.occupied() & !route.start().bitboard() & !target.bitboard();
    let penultimate = route.squares[route.squares.len().saturating_sub(2)];
    let still_hit = hits_from(route.mover, penultimate, occupied);
    let mut out = BitBoard::EMPTY;
    for s in piece_moves(board, target, board.occupied()) & !still_hit {
        if control(board, s, target, piece).is_none() {
            out |= s.bitboard();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::attacks::attack::{attack_on, TrajectoryLimits};
    use crate::rules::parse_fen;

    #[test]
    fn a_target_pinned_to_its_queen_cannot_run() {
        // P d4–d5×c6: the knight could run, but not off the diagonal b5–e8 with its queen.
        let pinned = parse_fen("4q1k1/8/2n5/1B6/3P4/8/8/4K3 w - - 0 1", false).unwrap();
        let free = parse_fen("6k1/8/2n5/1B6/3P4/8/8/4K3 w - - 0 1", false).unwrap();
        for (board, runs) in [(pinned, false), (free, true)] {
            let a = attack_on(&board, Square::D4, Square::C6, TrajectoryLimits::default()).unwrap();
            let escapes = escape_squares(&board, &a.route, Square::C6, true);
            assert_eq!(escapes.is_empty(), !runs, "{escapes:?}");
            assert_eq!(a.rejections.iter().any(|r| r.number() == 2), runs);
        }
    }

    #[test]
    fn a_fork_with_check_leaves_the_target_no_move_to_run() {
        // N b5–c7 checks the king e8 and hits the queen a8: Black's one move answers the check.
        let fork = parse_fen("q3k3/8/8/1N6/8/8/PP6/4K3 w - - 0 1", false).unwrap();
        // The same without the check, and with Black to move first: the queen runs.
        let no_check = parse_fen("q6k/8/8/1N6/8/8/PP6/4K3 w - - 0 1", false).unwrap();
        let black_first = parse_fen("q3k3/8/8/1N6/8/8/PP6/4K3 b - - 0 1", false).unwrap();
        for (board, check, runs) in [(fork, true, false), (no_check, false, true)] {
            let a = attack_on(&board, Square::B5, Square::A8, TrajectoryLimits::default()).unwrap();
            assert_eq!(check_on_arrival(&board, &a.route).is_some(), check);
            assert_eq!(a.rejections.iter().any(|r| r.number() == 2), runs, "{a:?}");
        }
        let a = attack_on(
            &black_first,
            Square::B5,
            Square::A8,
            TrajectoryLimits::default(),
        );
        assert!(a.unwrap().rejections.iter().any(|r| r.number() == 2));
    }

    #[test]
    fn a_rook_pinned_on_a_file_runs_along_it() {
        // B b2 attacks the rook e5, pinned by R e1 to its king: only R×e1 is left to it.
        let board = parse_fen("4k3/8/8/4r3/8/8/1B6/4R1K1 b - - 0 1", false).unwrap();
        let a = attack_on(&board, Square::B2, Square::E5, TrajectoryLimits::default()).unwrap();
        let escapes = escape_squares(&board, &a.route, Square::E5, false);
        assert_eq!(escapes, Square::E1.bitboard());
    }
}
