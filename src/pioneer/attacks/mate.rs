//! Mate goals: the enemy king as the object of an attack trajectory.
//!
//! PIONEER goes past the struggle for material to attacks on the king: "On diagram 57 White
//! threatens mate (the trajectory Q d2–h6–g7), but Black defends in time (the trajectory
//! Q a6–c8–f8)". A mate trajectory is a piece's route to a *mating square*: a square from which,
//! standing there, it mates. The zone it generates is formed as for any attack — the defender's
//! counters take the stops and the mating square under control or block the lines — with one
//! kind of counter of its own, the flight: a king step, or the step of a pawn beside the king
//! that frees a square for it, after which the piece on the mating square no longer mates.
//!
//! Design note: whether a square mates is decided exactly, by the rules
//! (`board::arrival::mates_after`): the position with the piece moved there (capturing what
//! stands there) and the defender to move is checkmate. Only the arrival is modelled: the rest of
//! the board is as it is now, and a defence that interposes on the line of the check is seen only
//! if it is there already. A mate that needs one move of a second piece first — a *preparation*
//! (`attack::Preparation`, part of the goal): N f3–g5 before Q h5×h7, guarding the mating square,
//! or a piece taking the king's last flight squares — is found when the check on the mating
//! square can be answered only by king moves: each move of another piece that attacks one of
//! those squares, or that uncovers a line piece onto one, is tried, exactly again. The
//! preparation counts as one more move of the attack: the defender has one move more to stop the
//! mate. Knights, bishops, rooks and queens mate here; mates by a pawn or by a discovered check
//! are not generated. Routes are at most `MATE_MAX_FORECAST` moves long, the preparation
//! included: a king hunt is a sequence of such short threats, not one long trajectory. This file
//! builds on `attack` (a mate is one more goal of an `Attack`); the analysis adds its attacks to
//! the others (`zones::analysis::attacks`).

use super::attack::{obstacle_rejections, Attack, Goal, Preparation, TrajectoryLimits};
use crate::pioneer::board::arrival::{arrival, mates_after, relocated, MATE_GAIN};
use crate::pioneer::board::pieces::attack_squares;
use crate::pioneer::board::route::{piece_moves, Assessor, Finish, Route};
use crate::pioneer::board::trajectory::{distance, Mover};
use crate::rules::see::exchange_after_move;
use crate::rules::{piece_value, BitBoard, Board, Color, Move, Piece, Square};

/// Longest mate trajectory (forecast, in moves) that is generated.
pub const MATE_MAX_FORECAST: u8 = 2;
/// Most answers to the check (all king moves) a preparation is looked for against: one move of
/// one piece rarely takes more squares than that.
const PREPARE_MAX_ANSWERS: u32 = 3;

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
        let within = |s: Square, moves: u8| distance(mover, root, s).is_some_and(|d| d <= moves);
        let mut near: Vec<(Square, Option<Preparation>)> = squares
            .into_iter()
            .filter(|&s| within(s, MATE_MAX_FORECAST) && mates_after(board, root, s, &[]))
            .map(|s| (s, None))
            .collect();
        if near.is_empty() {
            near = squares
                .into_iter()
                .filter(|&s| within(s, MATE_MAX_FORECAST - 1))
                .filter_map(|s| preparation(board, root, s).map(|p| (s, Some(p))))
                .collect();
        }
        if near.is_empty() {
            continue;
        }
        let Some(assessor) = Assessor::new(board, root, mover, true) else {
            continue;
        };
        let mut best: Option<(Route, Option<Preparation>)> = None;
        for (square, prepared) in near {
            let finish = if board.color_on(square) == Some(!side) {
                Finish::Capture
            } else {
                Finish::Arrive
            };
            let Some(mut route) = assessor.shortest(square, finish) else {
                continue;
            };
            if prepared.is_some() {
                // The preparation is played before the mating move: one more move to the end.
                if let Some(last) = route.arrival.last_mut() {
                    *last += 1;
                }
            }
            if route.forecast() > MATE_MAX_FORECAST.min(limits.max_forecast)
                || route.len() > limits.max_len
            {
                continue;
            }
            let key = |r: &Route| (r.forecast(), r.hard_obstacles().count());
            if best.as_ref().is_none_or(|(b, _)| key(&route) < key(b)) {
                best = Some((route, prepared));
            }
        }
        if let Some((route, prepared)) = best {
            out.push(Attack {
                side,
                piece,
                goal: Goal::Mate {
                    square: route.end(),
                    prepared,
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
/// its pieces beside the king after which the piece on the mating square no longer mates, as
/// (the piece's square, the square it steps to, the flight square the king gains).
pub fn flights(board: &Board, attack: &Attack) -> Vec<(Square, Square, Square)> {
    let Goal::Mate { square, prepared } = attack.goal else {
        return Vec::new();
    };
    let first: Vec<(Square, Square)> = prepared.iter().map(|p| (p.from, p.to)).collect();
    let after = |step: (Square, Square)| [first.as_slice(), &[step]].concat();
    let defender = !attack.side;
    let Some(king) = (board.pieces(Piece::King) & board.colors(defender)).next_square() else {
        return Vec::new();
    };
    let root = attack.route.start();
    let mut out = Vec::new();
    let around = cozy_chess::get_king_moves(king);
    for to in around & !board.colors(defender) {
        if to != square && !mates_after(board, root, square, &after((king, to))) {
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
        if !mates_after(board, root, square, &after((pawn, to))) {
            out.push((pawn, to, pawn));
        }
    }
    // A piece beside the king that steps off its square (the first such move of each) after
    // which the king may step there out of the check.
    let pieces = around & board.colors(defender) & !board.pieces(Piece::Pawn);
    for from in pieces {
        let steps = piece_moves(board, from, board.occupied()) & !board.occupied();
        let frees = steps.into_iter().find(|&to| {
            to != square
                && arrival(board, root, square, &after((from, to))).is_some_and(|b| {
                    b.is_legal(Move {
                        from: king,
                        to: from,
                        promotion: None,
                    })
                })
        });
        if let Some(to) = frees {
            out.push((from, to, from));
        }
    }
    out
}

/// The preparation that makes the piece on `root`, arriving on `square`, mate: one move of
/// another piece of its side (not a pawn's promotion, not into a losing exchange) after which
/// the arrival mates; `None` when the check there can be answered by anything but a king move,
/// by more than `PREPARE_MAX_ANSWERS` of them, or no single move takes them all. The cheapest
/// preparing piece is chosen.
fn preparation(board: &Board, root: Square, square: Square) -> Option<Preparation> {
    let side = board.color_on(root)?;
    let piece = board.piece_on(root)?;
    // The check on `square`, the defender to move: its answers, all king moves.
    let mut checked = relocated(board, &[]);
    *checked.square_mut(root) = None;
    *checked.square_mut(square) = Some((piece, side));
    checked.side_to_move = !side;
    let checked = checked.build().ok()?;
    if checked.checkers().is_empty() {
        return None;
    }
    let mut answers = BitBoard::EMPTY;
    let mut count = 0;
    let mut only_king = true;
    checked.generate_moves(|moves| {
        only_king &= moves.piece == Piece::King;
        count += moves.to.len();
        answers |= moves.to;
        !only_king
    });
    if !only_king || count == 0 || count > PREPARE_MAX_ANSWERS {
        return None;
    }
    // The preparation is a move of the mating side: it must be one there.
    let own_turn = if board.side_to_move() == side {
        board.clone()
    } else {
        board.null_move()?
    };
    let last_rank = crate::rules::Rank::Eighth.relative_to(side);
    let masking = masking_pieces(&checked, side, answers);
    let mut best: Option<Preparation> = None;
    for from in own_turn.colors(side) & !root.bitboard() {
        let Some(mover) = own_turn.piece_on(from) else {
            continue;
        };
        if best.is_some_and(|b| piece_value(b.piece) <= piece_value(mover)) {
            continue;
        }
        let reach = piece_moves(&own_turn, from, own_turn.occupied()) & !square.bitboard();
        for to in reach {
            let mv = Move {
                from,
                to,
                promotion: None,
            };
            // Only a piece that uncovers a line to an answer's square, or a square from which
            // it attacks one, is worth the exact test.
            let useless = !masking.has(from)
                && (attack_squares_from(mover, side, to, &checked) & answers).is_empty();
            if useless
                || (mover == Piece::Pawn && to.rank() == last_rank)
                || !own_turn.is_legal(mv)
                || exchange_after_move(&own_turn, from, to, mover) < 0
                || !mates_after(board, root, square, &[(from, to)])
            {
                continue;
            }
            best = Some(Preparation {
                piece: mover,
                from,
                to,
            });
            break;
        }
    }
    best
}

/// The pieces of `side` in `checked` that alone stand between one of its line pieces and a
/// square of `answers`: moving one away uncovers that line (a discovered preparation).
fn masking_pieces(checked: &Board, side: Color, answers: BitBoard) -> BitBoard {
    let own = checked.colors(side);
    let diagonal = checked.pieces(Piece::Bishop) | checked.pieces(Piece::Queen);
    let straight = checked.pieces(Piece::Rook) | checked.pieces(Piece::Queen);
    let mut out = BitBoard::EMPTY;
    for slider in own & (diagonal | straight) {
        let mut rays = BitBoard::EMPTY;
        if diagonal.has(slider) {
            rays |= cozy_chess::get_bishop_rays(slider);
        }
        if straight.has(slider) {
            rays |= cozy_chess::get_rook_rays(slider);
        }
        for answer in answers & rays {
            let between = cozy_chess::get_between_rays(slider, answer) & checked.occupied();
            if between.len() == 1 && !(between & own).is_empty() {
                out |= between;
            }
        }
    }
    out
}

/// The squares a `piece` of `side` standing on `at` attacks in `board` (occupancy as there).
fn attack_squares_from(piece: Piece, side: Color, at: Square, board: &Board) -> BitBoard {
    let occupied = board.occupied();
    match piece {
        Piece::Pawn => cozy_chess::get_pawn_attacks(at, side),
        Piece::Knight => cozy_chess::get_knight_moves(at),
        Piece::Bishop => cozy_chess::get_bishop_moves(at, occupied),
        Piece::Rook => cozy_chess::get_rook_moves(at, occupied),
        Piece::Queen => {
            cozy_chess::get_bishop_moves(at, occupied) | cozy_chess::get_rook_moves(at, occupied)
        }
        Piece::King => cozy_chess::get_king_moves(at),
    }
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
        assert!(mates_after(&b, Square::A1, Square::A8, &[]));
        let attacks = mate_attacks(&b, Color::White, TrajectoryLimits::default());
        let rook = attacks
            .iter()
            .find(|a| a.goal.square() == Square::A8 && matches!(a.goal, Goal::Mate { .. }))
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
        assert!(!mates_after(&b, Square::A1, Square::A8, &[]));
        assert!(mate_attacks(&b, Color::White, TrajectoryLimits::default())
            .iter()
            .all(|a| a.goal.square() != Square::A8));
    }

    #[test]
    fn a_two_move_queen_mate_without_a_flight() {
        // Diagram 57's idea, Q d2–h6–g7, with the pawn f6 covering g7; the rook f8 shuts the
        // king in.
        let b = board("5rk1/5p1p/5Pp1/8/8/8/3Q2PP/6K1 w - - 0 1");
        let attacks = mate_attacks(&b, Color::White, TrajectoryLimits::default());
        let queen = attacks
            .iter()
            .find(|a| a.piece == Piece::Queen && a.goal.square() == Square::G7)
            .expect("Q d2–h6–g7");
        assert_eq!(queen.route.len(), 2);
        assert_eq!(queen.forecast(), 2);
        // …Kh8 and …h6 leave Qg7 mate (the queen covers h8 and h7): no flight.
        assert_eq!(flights(&b, queen), vec![]);
    }

    #[test]
    fn a_mate_prepared_by_a_second_piece() {
        // Q h5×h7 is answered by …Kxh7 alone; N f3–g5 guards h7 first, and then it mates.
        let b = board("5rk1/5ppp/8/7Q/8/5N2/5PPP/6K1 w - - 0 1");
        assert!(!mates_after(&b, Square::H5, Square::H7, &[]));
        let attacks = mate_attacks(&b, Color::White, TrajectoryLimits::default());
        let queen = attacks
            .iter()
            .find(|a| a.piece == Piece::Queen)
            .expect("the prepared queen mate");
        let knight = Preparation {
            piece: Piece::Knight,
            from: Square::F3,
            to: Square::G5,
        };
        assert_eq!(
            queen.goal,
            Goal::Mate {
                square: Square::H7,
                prepared: Some(knight),
            }
        );
        assert_eq!(
            queen.forecast(),
            2,
            "the preparation is one move of the attack"
        );
        assert_eq!(queen.notation(), "Q h5–h7# after N f3–g5");
        // The knight takes f7 too, the queen h8 and g7: only the rook's leaving f8 frees a
        // square for the king.
        let flights = flights(&b, queen);
        assert!(
            !flights.is_empty()
                && flights
                    .iter()
                    .all(|f| f.0 == Square::F8 && f.2 == Square::F8),
            "{flights:?}"
        );
        // The zone's first move is the preparation, and the preparation is its support.
        let zone = mate_zone("5rk1/5ppp/8/7Q/8/5N2/5PPP/6K1 w - - 0 1");
        assert_eq!(zone.first_move(&b), Some(knight.as_move()));
        // …h6 (and …f6) take g5 under control before the knight gets there, if Black is to move.
        use crate::pioneer::counters::counter::CounterKind;
        let denials = |zone: &crate::pioneer::zones::zone::Zone| -> Vec<(Vec<Square>, bool)> {
            zone.counters
                .iter()
                .filter(|c| c.kind == CounterKind::DenyPreparation { square: Square::G5 })
                .map(|c| (c.route.squares.clone(), c.in_time()))
                .collect()
        };
        assert!(denials(&zone).contains(&(vec![Square::H7, Square::H6], false)));
        let black = mate_zone("5rk1/5ppp/8/7Q/8/5N2/5PPP/6K1 b - - 0 1");
        assert!(denials(&black).contains(&(vec![Square::H7, Square::H6], true)));
        assert!(zone.supports.iter().any(|s| s.kind
            == crate::pioneer::counters::support::SupportKind::Prepare { square: Square::G5 }));
    }

    #[test]
    fn a_preparation_can_uncover_a_line() {
        // R e1–e8 leaves the king f7; the knight d5 masks the bishop b3 from f7, and any step
        // off the diagonal makes Re8 mate.
        let b = board("6k1/6pp/8/3N4/8/1B6/8/1K2R3 w - - 0 1");
        let rook = mate_attacks(&b, Color::White, TrajectoryLimits::default())
            .into_iter()
            .find(|a| a.piece == Piece::Rook)
            .expect("the prepared back-rank mate");
        let Goal::Mate {
            square,
            prepared: Some(p),
        } = rook.goal
        else {
            panic!("{:?}", rook.goal);
        };
        assert_eq!(square, Square::E8);
        assert_eq!((p.piece, p.from), (Piece::Knight, Square::D5));
        assert!(mates_after(&b, Square::E1, Square::E8, &[(p.from, p.to)]));
    }

    #[test]
    fn no_preparation_where_the_mating_piece_can_be_taken_by_another() {
        // The bishop d3 takes on h7: no single move of a white piece stops that.
        let b = board("5rk1/5ppp/8/7Q/8/3b1N2/5PPP/6K1 w - - 0 1");
        assert!(mate_attacks(&b, Color::White, TrajectoryLimits::default())
            .iter()
            .all(|a| a.goal.square() != Square::H7));
    }

    #[test]
    fn no_mate_without_a_king_to_mate_or_a_piece_to_mate_with() {
        let b = board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        assert!(mate_attacks(&b, Color::White, TrajectoryLimits::default()).is_empty());
    }

    fn mate_zone(fen: &str) -> crate::pioneer::zones::zone::Zone {
        let b = board(fen);
        let analysis =
            crate::pioneer::zones::analysis::Analysis::new(&b, TrajectoryLimits::default());
        analysis
            .zones
            .into_iter()
            .find(|z| matches!(z.attack.goal, Goal::Mate { .. }))
            .expect("a mate zone")
    }

    #[test]
    fn a_threatened_back_rank_mate_is_met_by_a_flight_in_time() {
        use crate::pioneer::counters::counter::CounterKind;
        use crate::pioneer::zones::zone::ZoneVerdict;
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
        use crate::pioneer::counters::counter::CounterKind;
        use crate::pioneer::zones::zone::ZoneVerdict;
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
