//! Mate goals: the enemy king as the object of an attack trajectory.
//!
//! Seed 004 goes past the struggle for material to attacks on the king: "On diagram 57 White
//! threatens mate (the trajectory Q d2–h6–g7), but Black defends in time (the trajectory
//! Q a6–c8–f8)". A mate trajectory is a piece's route to a *mating square*: a square from which,
//! standing there, it mates. The zone it generates is formed as for any attack — the defender's
//! counters take the stops and the mating square under control or block the lines — with one
//! kind of counter of its own, the flight: a king step, or the step of a pawn beside the king
//! that frees a square for it, after which the piece on the mating square no longer mates.
//!
//! Design note: whether a square mates is decided exactly, by the rules: the position with the
//! piece moved there (capturing what stands there) and the defender to move is checkmate. Only
//! the arrival is modelled: the rest of the board is as it is now, so a mate that needs a second
//! piece to move first is not seen, and a defence that interposes on the line of the check is
//! seen only if it is there already. Knights, bishops, rooks and queens mate here; mates by a
//! pawn or by a discovered check are not generated. Routes are at most `MATE_MAX_FORECAST`
//! moves long: a king hunt is a sequence of such short threats, not one long trajectory.

use super::attack::{attack_squares, obstacle_rejections, Attack, Goal, TrajectoryLimits};
use super::route::{Assessor, Finish, Route};
use super::trajectory::{distance, Mover};
use crate::rules::{Board, BoardBuilder, Color, GameStatus, Piece, Square};

/// Longest mate trajectory (forecast, in moves) that is generated.
pub const MATE_MAX_FORECAST: u8 = 2;
/// What a mate is worth in the zone model's material terms: more than any material, so that a
/// mate zone comes first and no material compensates it.
pub const MATE_GAIN: i32 = 10_000;

/// A builder of `board` with each piece of `moves` (from, to) set down on its new square, what
/// stood there removed; castling rights, en passant and the halfmove clock cleared, so that the
/// position builds whatever moved. The side to move is unchanged.
pub(crate) fn relocated(board: &Board, moves: &[(Square, Square)]) -> BoardBuilder {
    let mut builder = BoardBuilder::from_board(board);
    for color in [Color::White, Color::Black] {
        *builder.castle_rights_mut(color) = cozy_chess::CastleRights::EMPTY;
    }
    builder.en_passant = None;
    builder.halfmove_clock = 0;
    for &(from, to) in moves {
        let piece = builder.square(from);
        *builder.square_mut(from) = None;
        *builder.square_mut(to) = piece;
    }
    builder
}

/// Does the piece of `side` on `from`, standing on `to` (capturing what stands there), mate —
/// after the defender's piece on `step.0` has first moved to `step.1`, if `step` is given? The
/// rest of the board is as in `board`, the defender to move.
pub fn mates_after(
    board: &Board,
    from: Square,
    to: Square,
    step: Option<(Square, Square)>,
) -> bool {
    let Some((piece, side)) = board.piece_on(from).zip(board.color_on(from)) else {
        return false;
    };
    let mut builder = relocated(board, step.as_slice());
    if builder.square(to).is_some_and(|(_, color)| color == side) {
        return false;
    }
    *builder.square_mut(from) = None;
    *builder.square_mut(to) = Some((piece, side));
    builder.side_to_move = !side;
    // A position the rules refuse (the mating side's own king left in check) mates nothing.
    builder.build().is_ok_and(|b| b.status() == GameStatus::Won)
}

/// The mate trajectories of `side` within `MATE_MAX_FORECAST` moves (and `limits`), one per
/// root piece — as for material, a root piece and its object, the king, make one trajectory: the
/// quickest, then the one with the fewest obstacles — judged for the obstacles on its route
/// (reasons 3 and 4) like any attack.
pub fn mate_attacks(board: &Board, side: Color, limits: TrajectoryLimits) -> Vec<Attack> {
    let mut out = Vec::new();
    let Some(king) = (board.pieces(Piece::King) & board.colors(!side)).next_square() else {
        return out;
    };
    let mating = board.pieces(Piece::Knight)
        | board.pieces(Piece::Bishop)
        | board.pieces(Piece::Rook)
        | board.pieces(Piece::Queen);
    for root in mating & board.colors(side) {
        let Some(piece) = board.piece_on(root) else {
            continue;
        };
        let mover = Mover::new(piece, side);
        let occupied = board.occupied() & !root.bitboard();
        let squares = attack_squares(mover, king, occupied) & !board.colors(side);
        let near: Vec<Square> = squares
            .into_iter()
            .filter(|&s| distance(mover, root, s).is_some_and(|d| d <= MATE_MAX_FORECAST))
            .filter(|&s| mates_after(board, root, s, None))
            .collect();
        if near.is_empty() {
            continue;
        }
        let Some(assessor) = Assessor::new(board, root, mover, true) else {
            continue;
        };
        let mut best: Option<Route> = None;
        for square in near {
            let finish = if board.color_on(square) == Some(!side) {
                Finish::Capture
            } else {
                Finish::Arrive
            };
            let Some(route) = assessor.shortest(square, finish) else {
                continue;
            };
            if route.forecast() > MATE_MAX_FORECAST.min(limits.max_forecast)
                || route.len() > limits.max_len
            {
                continue;
            }
            let key = |r: &Route| (r.forecast(), r.hard_obstacles().count());
            if best.as_ref().is_none_or(|b| key(&route) < key(b)) {
                best = Some(route);
            }
        }
        if let Some(route) = best {
            out.push(Attack {
                side,
                piece,
                goal: Goal::Mate {
                    square: route.end(),
                },
                rejections: obstacle_rejections(&route),
                route,
                gain: MATE_GAIN,
            });
        }
    }
    out
}

/// The flights against the mate trajectory `attack`: the defender's king steps and the steps of
/// its pawns beside the king after which the piece on the mating square no longer mates, as
/// (the piece's square, the square it steps to, the flight square the king gains).
pub fn flights(board: &Board, attack: &Attack) -> Vec<(Square, Square, Square)> {
    let Goal::Mate { square } = attack.goal else {
        return Vec::new();
    };
    let defender = !attack.side;
    let Some(king) = (board.pieces(Piece::King) & board.colors(defender)).next_square() else {
        return Vec::new();
    };
    let root = attack.route.start();
    let mut out = Vec::new();
    let around = cozy_chess::get_king_moves(king);
    for to in around & !board.colors(defender) {
        if to != square && !mates_after(board, root, square, Some((king, to))) {
            out.push((king, to, to));
        }
    }
    for pawn in around & board.pieces(Piece::Pawn) & board.colors(defender) {
        let Some(to) = pawn_step(pawn, defender) else {
            continue;
        };
        if board.occupied().has(to) || to == square {
            continue;
        }
        if !mates_after(board, root, square, Some((pawn, to))) {
            out.push((pawn, to, pawn));
        }
    }
    out
}

/// The square one step ahead of the pawn of `color` on `pawn`.
fn pawn_step(pawn: Square, color: Color) -> Option<Square> {
    pawn.try_offset(0, if color == Color::White { 1 } else { -1 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_fen;

    fn board(fen: &str) -> Board {
        parse_fen(fen, false).unwrap()
    }

    #[test]
    fn the_back_rank_mate_is_a_mate_trajectory() {
        // R a1–a8 mates: the king is shut in by its own pawns.
        let b = board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert!(mates_after(&b, Square::A1, Square::A8, None));
        let attacks = mate_attacks(&b, Color::White, TrajectoryLimits::default());
        let rook = attacks
            .iter()
            .find(|a| a.goal == Goal::Mate { square: Square::A8 })
            .expect("the back-rank mate");
        assert_eq!(rook.route.squares, vec![Square::A1, Square::A8]);
        assert!(rook.live());
        assert_eq!(rook.notation(), "R a1–a8#");
        // Luft (…h6, …g6) breaks it, and so does …Kf8, which reaches e7 after Ra8+.
        let flights = flights(&b, rook);
        assert!(
            flights.contains(&(Square::G8, Square::F8, Square::F8)),
            "{flights:?}"
        );
        assert!(
            flights.contains(&(Square::H7, Square::H6, Square::H7)),
            "{flights:?}"
        );
        assert!(
            flights.contains(&(Square::G7, Square::G6, Square::G7)),
            "{flights:?}"
        );
    }

    #[test]
    fn a_defended_mating_square_does_not_mate() {
        // The rook on d8 covers a8: Ra8+ Rxa8.
        let b = board("3r2k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert!(!mates_after(&b, Square::A1, Square::A8, None));
        assert!(mate_attacks(&b, Color::White, TrajectoryLimits::default())
            .iter()
            .all(|a| a.goal != Goal::Mate { square: Square::A8 }));
    }

    #[test]
    fn a_two_move_queen_mate_without_a_flight() {
        // Diagram 57's idea, Q d2–h6–g7, with the pawn f6 covering g7; the rook f8 shuts the
        // king in.
        let b = board("5rk1/5p1p/5Pp1/8/8/8/3Q2PP/6K1 w - - 0 1");
        let attacks = mate_attacks(&b, Color::White, TrajectoryLimits::default());
        let queen = attacks
            .iter()
            .find(|a| a.piece == Piece::Queen && a.goal == Goal::Mate { square: Square::G7 })
            .expect("Q d2–h6–g7");
        assert_eq!(queen.route.len(), 2);
        assert_eq!(queen.forecast(), 2);
        // …Kh8 and …h6 leave Qg7 mate (the queen covers h8 and h7): no flight.
        assert_eq!(flights(&b, queen), vec![]);
    }

    #[test]
    fn no_mate_without_a_king_to_mate_or_a_piece_to_mate_with() {
        let b = board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        assert!(mate_attacks(&b, Color::White, TrajectoryLimits::default()).is_empty());
    }

    fn mate_zone(fen: &str) -> crate::pioneer::zone::Zone {
        let b = board(fen);
        let analysis = crate::pioneer::zone::Analysis::new(&b, TrajectoryLimits::default());
        analysis
            .zones
            .into_iter()
            .find(|z| matches!(z.attack.goal, Goal::Mate { .. }))
            .expect("a mate zone")
    }

    #[test]
    fn a_threatened_back_rank_mate_is_met_by_a_flight_in_time() {
        use crate::pioneer::counter::CounterKind;
        use crate::pioneer::zone::ZoneVerdict;
        // White to move mates at once: no counter has time.
        let zone = mate_zone("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert_eq!(zone.verdict, ZoneVerdict::Wins);
        // Black to move: …Kf8, …f6, …g6 and …h6 each give the king a flight in time.
        let zone = mate_zone("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1");
        assert_eq!(zone.verdict, ZoneVerdict::Defended);
        let flights: Vec<Square> = zone
            .timely_counters()
            .filter_map(|c| match c.kind {
                CounterKind::Flight { square } => Some(square),
                _ => None,
            })
            .collect();
        for square in [Square::F8, Square::F7, Square::G7, Square::H7] {
            assert!(flights.contains(&square), "{flights:?}");
        }
        assert!(zone.pieces.has(Square::G8), "the king takes part");
    }

    #[test]
    fn a_guard_that_comes_too_late_does_not_stop_the_mate() {
        use crate::pioneer::counter::CounterKind;
        use crate::pioneer::zone::ZoneVerdict;
        // Q d2–h6–g7#: the rook needs two moves to guard g7 (the king must leave g8 first).
        let zone = mate_zone("5rk1/5p1p/5Pp1/8/8/8/3Q2PP/6K1 w - - 0 1");
        assert_eq!(zone.verdict, ZoneVerdict::Wins);
        let rook = zone
            .counters
            .iter()
            .find(|c| c.piece == Piece::Rook)
            .expect("the rook's guard of g7");
        assert!(matches!(
            rook.kind,
            CounterKind::ControlStop {
                square: Square::G7,
                ..
            }
        ));
        assert_eq!((rook.needs(), rook.budget), (2, 1));
        // The king guards g7 already and still cannot stop a defended queen there.
        assert!(zone.counters.iter().all(|c| c.piece != Piece::King));
    }
}
