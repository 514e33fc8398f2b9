//! The defence against one attack: every counter-trajectory of the defender, of every kind, in
//! time or late by at most `counter::NEAR_MISS`.
//!
//! PIONEER: "The opponent's pieces can defend the object of the attack, take squares of the
//! trajectory under control, block its lines. The object of the attack can try to go away."
//!
//! Design note: counters are looked for on the board after a reconnaissance pseudo-move of the
//! attacker (`pseudo_board`; PIONEER: "a true move is preceded by an identical pseudo-move"), so
//! that a square the attacker uncovers by leaving — g7 after B h6–g5 in diagram 52 — counts as
//! free. Each defending piece looks for its best way to defend the target and, for every stop,
//! to control it and to block it; in time within the budget if it can be, else in time with the
//! tempo of a threat on its way (`tempo`), else late. `counters` adds the counters of other
//! kinds: against a prepared mate the denial of the preparing square, against a mate the king's
//! flights (`attacks::mate::flights`), against the capture of a pinned or charged target the
//! counters that free it (`immobility`), and the capture of the attacking piece where it stands.
//! This gathering is the top of the counters' layer: it calls the files the counter kinds live
//! in, none of which needs it.

use super::counter::{budget, Counter, CounterKind, NEAR_MISS};
use super::immobility::{relieving_counters, unpinning_counters};
use super::tempo::{tempo_route, threats, Threat};
use crate::pioneer::attacks::attack::{Attack, Goal, Preparation};
use crate::pioneer::attacks::mate::flights;
use crate::pioneer::board::control::would_control;
use crate::pioneer::board::pieces::attack_squares;
use crate::pioneer::board::route::{best_route, Assessor, Finish, Route};
use crate::pioneer::board::trajectory::Mover;
use crate::rules::see::{attackers_to, see};
use crate::rules::{piece_value, BitBoard, Board, Move, Piece, Rank, Square};
use cozy_chess::get_between_rays;

/// The board after the attack's first move played as a reconnaissance pseudo-move, and where
/// the attacking piece then stands. When that move cannot be played (an own piece must first
/// clear the way, the move is the capture itself, or the attacker cannot pass because the
/// opponent is in check) the board is returned as it is.
pub fn pseudo_board(board: &Board, attack: &Attack) -> (Board, Square) {
    let route = &attack.route;
    let root = route.start();
    if route.len() < 2 {
        return (board.clone(), root);
    }
    let mut base = board.clone();
    if board.side_to_move() != attack.side {
        match board.null_move() {
            Some(b) => base = b,
            None => return (board.clone(), root),
        }
    }
    let to = route.squares[1];
    let promotion = (attack.piece == Piece::Pawn
        && to.rank() == Rank::Eighth.relative_to(attack.side))
    .then_some(Piece::Queen);
    let mv = Move {
        from: root,
        to,
        promotion,
    };
    if base.color_on(to).is_none() && base.is_legal(mv) {
        base.play_unchecked(mv);
        (base, to)
    } else {
        (board.clone(), root)
    }
}

/// A defender's piece looking for its counters, with the threats its first moves make (found
/// when a counter of it is first late).
struct CounterPiece<'a> {
    board: &'a Board,
    attack: &'a Attack,
    mover_square: Square,
    from: Square,
    piece: Piece,
    threats: Option<Vec<Threat>>,
}

impl CounterPiece<'_> {
    /// The piece's counter to the nearest of `squares` (`kind` names it from its route): in
    /// time within `budget` if it can be, else in time with the tempo of a threat on its way
    /// (`tempo`), else late by at most `NEAR_MISS`.
    fn counter(
        &mut self,
        squares: BitBoard,
        budget: u8,
        kind: impl Fn(&Route) -> CounterKind,
    ) -> Option<Counter> {
        let plain = best_route(self.board, self.from, squares, budget + NEAR_MISS);
        let make = |route: Route, threat: Option<Threat>| Counter {
            kind: kind(&route),
            piece: self.piece,
            route,
            budget,
            threat,
        };
        if plain.as_ref().is_some_and(|r| r.forecast() <= budget) {
            return plain.map(|r| make(r, None));
        }
        let threats = self
            .threats
            .get_or_insert_with(|| threats(self.board, self.from, self.attack, self.mover_square));
        match tempo_route(self.board, self.from, self.attack, threats, squares, budget) {
            Some((route, threat)) => Some(make(route, Some(threat))),
            None => plain.map(|r| make(r, None)),
        }
    }
}

/// Every counter-trajectory of the defender against `attack`, in time (a threat on its way
/// included) or late by at most `NEAR_MISS`: per piece, the best way to defend the target and,
/// for every stop, the best way to control it and to block it. Best (most moves to spare)
/// first.
pub fn counters(board: &Board, attack: &Attack, attacker_to_move: bool) -> Vec<Counter> {
    let (pseudo, mover_square) = pseudo_board(board, attack);
    let route = &attack.route;
    let defender = !attack.side;
    let occupied = pseudo.occupied();
    let n = route.squares.len() - 1;
    // A promotion or a mate is also stopped on its last square; a capture is not.
    let to_the_end = matches!(attack.goal, Goal::Promote { .. } | Goal::Mate { .. });
    let mate = matches!(attack.goal, Goal::Mate { .. });
    let mut out = Vec::new();
    for x in pseudo.colors(defender) {
        let Some(piece) = pseudo.piece_on(x) else {
            continue;
        };
        let mover = Mover::new(piece, defender);
        let mut counter_piece = CounterPiece {
            board: &pseudo,
            attack,
            mover_square,
            from: x,
            piece,
            threats: None,
        };
        // (a) Defend the target: only helps when the attacker is worth at least the target.
        if let Goal::Capture {
            target,
            piece: victim,
        } = attack.goal
        {
            let useful = piece_value(victim) <= piece_value(attack.piece) && x != target;
            let squares = attack_squares(mover, target, occupied) & !x.bitboard();
            let b = budget(route.forecast(), attacker_to_move);
            if useful && !squares.is_empty() {
                out.extend(counter_piece.counter(squares, b, |_| CounterKind::DefendTarget));
            }
        }
        // (b) Control a stop; (c) block a stop or a line — the best of each per stop.
        let last = if to_the_end { n } else { n - 1 };
        for i in 1..=last {
            let stop = route.squares[i];
            let b = budget(route.arrival[i], attacker_to_move);
            // A new guard of the mating square stops the mate, whatever the exchange there; a
            // guard already there did not (the square mates), nor can the king, which may not
            // take a defended piece.
            let squares = attack_squares(mover, stop, occupied);
            let controls = if mate && i == n {
                piece != Piece::King && !squares.has(x)
            } else {
                would_control(&pseudo, piece, stop, mover_square, attack.piece).is_some()
            };
            let step = i as u8;
            if controls {
                out.extend(
                    counter_piece.counter(squares, b, |_| CounterKind::ControlStop {
                        step,
                        square: stop,
                    }),
                );
            }
            let mut block = if route.mover.slides() {
                get_between_rays(route.squares[i - 1], stop)
            } else if matches!(route.mover, Mover::Pawn(_)) {
                stop.bitboard()
            } else {
                BitBoard::EMPTY
            };
            block &= !occupied;
            if !block.is_empty() {
                out.extend(counter_piece.counter(block, b, |r| CounterKind::Block {
                    step,
                    square: r.end(),
                }));
            }
        }
    }
    // (d) Against a prepared mate: the preparing move's square, reached at the attacker's
    // first move (the mating move is the last).
    if let Goal::Mate {
        prepared: Some(p), ..
    } = attack.goal
    {
        out.extend(denials(&pseudo, attack, p, attacker_to_move));
    }
    // (e) Against a mate: the flights of the king.
    let b = budget(route.arrival[n], attacker_to_move);
    for (from, to, square) in flights(board, attack) {
        let Some(piece) = board.piece_on(from) else {
            continue;
        };
        if let Some(r) = best_route(board, from, to.bitboard(), b + NEAR_MISS) {
            out.push(Counter {
                kind: CounterKind::Flight { square },
                piece,
                route: r,
                budget: b,
                threat: None,
            });
        }
    }
    // (f) Against the capture of a pinned piece or one held by a duty: free it in time.
    out.extend(unpinning_counters(board, attack, attacker_to_move));
    out.extend(relieving_counters(board, attack, attacker_to_move));
    // (g) Take the attacker before it moves.
    out.extend(takers(board, attack, attacker_to_move));
    out.sort_by_key(|c| std::cmp::Reverse(c.slack()));
    out
}

/// The defender's captures of the attacking piece on its square, when the defender is to move
/// and the exchange there does not lose material (PIONEER: the opponent's pieces hinder the
/// attack; the simplest hindrance is to remove the piece that makes it).
fn takers(board: &Board, attack: &Attack, attacker_to_move: bool) -> Vec<Counter> {
    if attacker_to_move {
        return Vec::new();
    }
    let root = attack.root();
    let defender = !attack.side;
    let b = budget(1, attacker_to_move);
    let mut out = Vec::new();
    for x in attackers_to(board, root, board.occupied()) & board.colors(defender) {
        let Some(piece) = board.piece_on(x) else {
            continue;
        };
        let mv = Move {
            from: x,
            to: root,
            promotion: (piece == Piece::Pawn && root.rank() == Rank::Eighth.relative_to(defender))
                .then_some(Piece::Queen),
        };
        // Legal only with the defender really to move.
        if !board.is_legal(mv) || see(board, mv) < 0 {
            continue;
        }
        let Some(assessor) = Assessor::new(board, x, Mover::new(piece, defender), true) else {
            continue;
        };
        out.push(Counter {
            kind: CounterKind::TakeAttacker,
            piece,
            route: assessor.route(&[x, root], Finish::Capture),
            budget: b,
            threat: None,
        });
    }
    out
}

/// The defender's counters that take the square of a mate's preparation `p` under control
/// (the exchange rules of `would_control`, the preparing piece as the mover) before the
/// attacker's first move.
fn denials(
    pseudo: &Board,
    attack: &Attack,
    p: Preparation,
    attacker_to_move: bool,
) -> Vec<Counter> {
    let defender = !attack.side;
    let occupied = pseudo.occupied();
    let b = budget(1, attacker_to_move);
    let mut out = Vec::new();
    for x in pseudo.colors(defender) {
        let Some(piece) = pseudo.piece_on(x) else {
            continue;
        };
        if would_control(pseudo, piece, p.to, p.from, p.piece).is_none() {
            continue;
        }
        let squares = attack_squares(Mover::new(piece, defender), p.to, occupied);
        let mut counter_piece = CounterPiece {
            board: pseudo,
            attack,
            mover_square: attack.root(),
            from: x,
            piece,
            threats: None,
        };
        out.extend(
            counter_piece.counter(squares, b, |_| CounterKind::DenyPreparation {
                square: p.to,
            }),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::attacks::attack::{attack_on, promotion, TrajectoryLimits};
    use crate::rules::parse_fen;

    #[test]
    fn diagram_51_black_cannot_defend_a7_in_time() {
        let board = parse_fen(crate::pioneer::examples::DIAGRAM_51, false).unwrap();
        let a = attack_on(&board, Square::E1, Square::A7, TrajectoryLimits::default()).unwrap();
        let list = counters(&board, &a, true);
        assert!(list.iter().all(|c| !c.in_time()), "{list:?}");
        // The rook h5 is the nearest defender: it needs 3 moves (Kg7 first, then h5–h8–a8, or
        // two pawn moves off the seventh rank and Rh7) and has 2.
        let rook = list
            .iter()
            .find(|c| c.piece == Piece::Rook && c.kind == CounterKind::DefendTarget);
        assert!(
            rook.is_some_and(|c| c.budget == 2 && c.needs() == 3),
            "{list:?}"
        );
    }

    #[test]
    fn the_defender_to_move_takes_the_attacker_when_the_exchange_allows() {
        // Black's h4 pawn attacks g3; White to move takes it with the pawn (pawn for pawn).
        let board = parse_fen("8/8/8/8/6kp/6P1/6K1/8 w - - 0 1", false).unwrap();
        let a = attack_on(&board, Square::H4, Square::G3, TrajectoryLimits::default()).unwrap();
        let list = counters(&board, &a, false);
        let take = list
            .iter()
            .find(|c| c.kind == CounterKind::TakeAttacker)
            .expect("g3xh4 takes the attacker");
        assert_eq!(take.route.squares, vec![Square::G3, Square::H4]);
        assert!(take.in_time());
        // Black to move: the pawn takes before White can.
        let board = parse_fen("8/8/8/8/6kp/6P1/6K1/8 b - - 0 1", false).unwrap();
        let a = attack_on(&board, Square::H4, Square::G3, TrajectoryLimits::default()).unwrap();
        let list = counters(&board, &a, true);
        assert!(list.iter().all(|c| c.kind != CounterKind::TakeAttacker));
        // A rook that would be lost for the knight does not take it.
        let board = parse_fen("8/8/3p4/4n1k1/8/5P2/8/4R1K1 w - - 0 1", false).unwrap();
        let a = attack_on(&board, Square::E5, Square::F3, TrajectoryLimits::default()).unwrap();
        let list = counters(&board, &a, false);
        assert!(list.iter().all(|c| c.kind != CounterKind::TakeAttacker));
    }

    #[test]
    fn diagram_52_black_defends_in_time_with_the_king() {
        let board = parse_fen(crate::pioneer::examples::DIAGRAM_52, false).unwrap();
        let a = attack_on(&board, Square::H6, Square::F6, TrajectoryLimits::default()).unwrap();
        // The pseudo-move Bg5 frees g7 for the king.
        let (pseudo, at) = pseudo_board(&board, &a);
        assert_eq!(at, Square::G5);
        assert_eq!(pseudo.piece_on(Square::G5), Some(Piece::Bishop));
        let list = counters(&board, &a, true);
        let king = list
            .iter()
            .find(|c| c.piece == Piece::King && c.kind == CounterKind::DefendTarget)
            .expect("the king defends f6");
        assert_eq!(king.route.squares, vec![Square::G8, Square::G7]);
        assert!(king.in_time());
    }

    #[test]
    fn reti_king_is_late_for_the_h_pawn_and_black_king_in_time_for_c8() {
        let board = parse_fen("7K/8/k1P5/7p/8/8/8/8 w - - 0 1", false).unwrap();
        let h = promotion(&board, Square::H5, TrajectoryLimits::default()).unwrap();
        let list = counters(&board, &h, false);
        assert!(!list.is_empty());
        assert!(
            list.iter().all(|c| c.piece == Piece::King && !c.in_time()),
            "{list:?}"
        );
        let c = promotion(&board, Square::C6, TrajectoryLimits::default()).unwrap();
        let list = counters(&board, &c, true);
        let control = list
            .iter()
            .find(|c| {
                matches!(
                    c.kind,
                    CounterKind::ControlStop {
                        square: Square::C8,
                        ..
                    }
                )
            })
            .expect("the black king reaches b7 in time to control c8");
        assert!(control.in_time());
        assert_eq!(control.route.squares, vec![Square::A6, Square::B7]);
    }
}
