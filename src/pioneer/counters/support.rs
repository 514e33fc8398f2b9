//! Support trajectories: the attacker's own pieces that help the attack along.
//!
//! PIONEER: "If a square of the trajectory is occupied by another own piece, or it blocks a
//! line of the trajectory, it must go away to support it (the move 1.Bc2 of diagram 51). If a
//! piece of the opponent hinders the movement, support is counteraction against the hindering
//! piece: an attack on its initial square or on those it will occupy on its way to the field of
//! battle, and the blockade of its trajectory … but only by one-move trajectories of other pieces
//! of the attacking side."
//!
//! Design note: four kinds of support are built. *Clearing* moves lead an own piece off the
//! route. *Capturing* a counter piece where it stands and *blocking* a line of its trajectory are
//! one-move trajectories, as PIONEER prescribes. *Defending* a contested stop — so that a more
//! valuable enemy piece no longer controls it (rule 2) — is a trajectory of up to `ESCORT_LEN`
//! moves; for a pawn's promotion it is the escort of the pawn by its king, and it is built for
//! every stop of the pawn's path, because a pawn may wait on a stop while its escort arrives.

use super::counter::{Counter, CounterKind};
use crate::pioneer::attacks::attack::{Attack, Goal};
use crate::pioneer::board::pieces::attack_squares;
use crate::pioneer::board::route::{piece_moves, Assessor, Finish, Route};
use crate::pioneer::board::trajectory::{distance, Mover};
use crate::rules::see::{attackers_to, see};
use crate::rules::{BitBoard, Board, Color, Move, Piece, Square};
use cozy_chess::get_between_rays;

/// Longest defending (escort) trajectory considered.
pub const ESCORT_LEN: u8 = 4;

/// What a support trajectory does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SupportKind {
    /// The move a mate needs first (`attacks::attack::Preparation`), counted in the attack's forecast.
    Prepare {
        /// Where the preparing piece goes.
        square: Square,
    },
    /// Leads an own piece standing on the route (square given) off it.
    Clear {
        /// Where the piece in the way stands.
        square: Square,
    },
    /// Defends a stop of the route (by index), so that it is no longer controlled.
    DefendStop {
        /// Index of the stop.
        step: u8,
        /// The stop.
        square: Square,
    },
    /// Captures the piece of counter `counter` where it stands.
    CaptureCounter {
        /// Index into the zone's counters.
        counter: usize,
    },
    /// Blocks a line of counter `counter` in one move.
    BlockCounter {
        /// Index into the zone's counters.
        counter: usize,
    },
}

/// One support trajectory.
#[derive(Clone, Debug)]
pub struct Support {
    /// What it does.
    pub kind: SupportKind,
    /// The supporting piece.
    pub piece: Piece,
    /// Its route; `route.first_steps` holds every useful first move.
    pub route: Route,
    /// Does it arrive no later than the counter it answers (always true for clearing moves)?
    pub in_time: bool,
}

fn one_move(board: &Board, from: Square, to: BitBoard, finish: Finish) -> Option<Route> {
    let piece = board.piece_on(from)?;
    let color = board.color_on(from)?;
    let first = to.next_square()?;
    let assessor = Assessor::new(board, from, Mover::new(piece, color), false)?;
    let mut route = assessor.route(&[from, first], finish);
    route.first_steps = to;
    Some(route)
}

/// Is the one-step move legal in the position (when it is that side's turn) or at least
/// pseudo-legal (when it is not)?
fn playable(board: &Board, from: Square, to: Square) -> bool {
    if board.color_on(from) == Some(board.side_to_move()) {
        board.is_legal(Move {
            from,
            to,
            promotion: None,
        })
    } else {
        piece_moves(board, from, board.occupied()).has(to)
    }
}

/// The supports of `attack` given its counters: a mate's preparation and clearing moves first,
/// then the answers to each counter in time (capturing it, blocking its line), then the defence
/// of contested stops.
pub fn supports(board: &Board, attack: &Attack, counters: &[Counter]) -> Vec<Support> {
    let mut out: Vec<Support> = preparation(board, attack).into_iter().collect();
    out.extend(clearing_moves(board, attack));
    let own = board.colors(attack.side) & !attack.route.start().bitboard();
    for (index, counter) in counters.iter().enumerate().filter(|(_, c)| c.in_time()) {
        out.extend(captures_of_counter(board, own, index, counter));
        out.extend(blocks_of_counter(board, own, index, counter));
    }
    let wanted = stops_to_defend(attack, counters);
    out.extend(defences_of_stops(board, attack, own, &wanted));
    out
}

/// The preparation of a prepared mate, as a one-move support.
fn preparation(board: &Board, attack: &Attack) -> Option<Support> {
    let Goal::Mate {
        prepared: Some(p), ..
    } = attack.goal
    else {
        return None;
    };
    let route = one_move(board, p.from, p.to.bitboard(), Finish::Arrive)?;
    Some(Support {
        kind: SupportKind::Prepare { square: p.to },
        piece: p.piece,
        route,
        in_time: true,
    })
}

/// Clearing moves: each own piece standing on the route (and able to leave) steps off it.
fn clearing_moves(board: &Board, attack: &Attack) -> Vec<Support> {
    clearing_routes(board, &attack.route)
        .into_iter()
        .map(|(square, piece, route)| Support {
            kind: SupportKind::Clear { square },
            piece,
            route,
            in_time: true,
        })
        .collect()
}

/// The one-move routes by which the pieces standing in the way of `route` (obstacles of its own
/// side that can step aside) leave it: (where the piece stands, the piece, its route with every
/// square off the way in `first_steps`). For an attack these are its clearing supports; for a
/// counter, the defender's deblocking of its own defence route.
pub fn clearing_routes(board: &Board, route: &Route) -> Vec<(Square, Piece, Route)> {
    let used = route.used_squares() | route.start().bitboard();
    let mut out = Vec::new();
    for o in route.obstacles.iter().filter(|o| o.removable()) {
        let to = playable_targets(
            board,
            o.square,
            piece_moves(board, o.square, board.occupied()) & !used,
        );
        if let Some(r) = one_move(board, o.square, to, Finish::Arrive) {
            let piece = board.piece_on(o.square).unwrap_or(Piece::Pawn);
            out.push((o.square, piece, r));
        }
    }
    out
}

/// Captures of the counter piece where it stands, by `own` pieces, where the exchange does not
/// lose.
fn captures_of_counter(
    board: &Board,
    own: BitBoard,
    index: usize,
    counter: &Counter,
) -> Vec<Support> {
    let x = counter.square();
    let takers = attackers_to(board, x, board.occupied()) & own;
    let mut out = Vec::new();
    for y in takers {
        let mv = Move {
            from: y,
            to: x,
            promotion: None,
        };
        if see(board, mv) < 0 {
            continue;
        }
        if let Some(r) = one_move(board, y, x.bitboard(), Finish::Capture) {
            out.push(Support {
                kind: SupportKind::CaptureCounter { counter: index },
                piece: board.piece_on(y).unwrap_or(Piece::Pawn),
                route: r,
                in_time: true,
            });
        }
    }
    out
}

/// One-move blocks of a sliding counter's line by `own` pieces.
fn blocks_of_counter(
    board: &Board,
    own: BitBoard,
    index: usize,
    counter: &Counter,
) -> Vec<Support> {
    if !counter.route.mover.slides() {
        return Vec::new();
    }
    let mut line = BitBoard::EMPTY;
    for w in counter.route.squares.windows(2) {
        line |= get_between_rays(w[0], w[1]);
    }
    let mut out = Vec::new();
    for y in own {
        let to = playable_targets(
            board,
            y,
            piece_moves(board, y, board.occupied()) & line & !board.occupied(),
        );
        if let Some(r) = one_move(board, y, to, Finish::Arrive) {
            out.push(Support {
                kind: SupportKind::BlockCounter { counter: index },
                piece: board.piece_on(y).unwrap_or(Piece::Pawn),
                route: r,
                in_time: true,
            });
        }
    }
    out
}

/// A stop of the route to defend: its index, the square, and the moves a defence has before
/// the control it answers arrives (`None`: no deadline, so never "in time").
type WantedStop = (u8, Square, Option<u8>);

/// The stops worth defending: those a more valuable enemy piece controls in time, those
/// controlled already (a postponed attack), and, for a pawn's promotion, every stop (an
/// escort), as soon as any counter, even a late one, exists. Each square once, first reason
/// first.
fn stops_to_defend(attack: &Attack, counters: &[Counter]) -> Vec<WantedStop> {
    let route = &attack.route;
    let mut wanted: Vec<WantedStop> = Vec::new();
    let want = |wanted: &mut Vec<WantedStop>, stop: WantedStop| {
        if !wanted.iter().any(|w| w.1 == stop.1) {
            wanted.push(stop);
        }
    };
    for c in counters {
        if let CounterKind::ControlStop { step, square } = c.kind {
            if c.in_time() {
                want(&mut wanted, (step, square, Some(c.needs())));
            }
        }
    }
    for (square, _) in attack.controlled_stops() {
        if let Some(i) = route.squares.iter().position(|&s| s == square) {
            want(&mut wanted, (i as u8, square, None));
        }
    }
    if matches!(attack.goal, Goal::Promote { .. }) && !counters.is_empty() {
        for i in 1..route.squares.len() {
            want(&mut wanted, (i as u8, route.squares[i], None));
        }
    }
    wanted
}

/// For every `own` piece (pawns excepted) and every wanted stop, the shortest passable route of
/// at most `ESCORT_LEN` moves to a square from which it defends the stop.
fn defences_of_stops(
    board: &Board,
    attack: &Attack,
    own: BitBoard,
    wanted: &[WantedStop],
) -> Vec<Support> {
    let side = attack.side;
    let root = attack.route.start();
    let mut out = Vec::new();
    for y in own {
        let Some(piece) = board.piece_on(y).filter(|&p| p != Piece::Pawn) else {
            continue;
        };
        let mover = Mover::new(piece, side);
        let Some(assessor) = Assessor::new(board, y, mover, true) else {
            continue;
        };
        for &(step, stop, deadline) in wanted {
            let squares = attack_squares(mover, stop, board.occupied() & !root.bitboard());
            if squares.has(y) {
                continue;
            }
            if let Some(r) = shortest_escort(board, &assessor, y, piece, side, squares) {
                let in_time = deadline.is_some_and(|d| r.forecast() <= d);
                out.push(Support {
                    kind: SupportKind::DefendStop { step, square: stop },
                    piece,
                    route: r,
                    in_time,
                });
            }
        }
    }
    out
}

/// The shortest passable route of at most `ESCORT_LEN` moves from `from` to an empty square of
/// `squares` (a king never to an attacked one).
fn shortest_escort(
    board: &Board,
    assessor: &Assessor,
    from: Square,
    piece: Piece,
    side: Color,
    squares: BitBoard,
) -> Option<Route> {
    let mover = Mover::new(piece, side);
    let mut best: Option<Route> = None;
    for s in squares & !board.occupied() {
        if distance(mover, from, s).is_none_or(|d| d > ESCORT_LEN) {
            continue;
        }
        if piece == Piece::King
            && !(attackers_to(board, s, board.occupied()) & board.colors(!side)).is_empty()
        {
            continue;
        }
        if let Some(r) = assessor.shortest(s, Finish::Arrive) {
            if r.passable()
                && r.forecast() <= ESCORT_LEN
                && best.as_ref().is_none_or(|b| r.forecast() < b.forecast())
            {
                best = Some(r);
            }
        }
    }
    best
}

/// The squares of `to` that the piece on `from` can actually move to (`playable`).
fn playable_targets(board: &Board, from: Square, to: BitBoard) -> BitBoard {
    to.iter()
        .filter(|&t| playable(board, from, t))
        .fold(BitBoard::EMPTY, |a, t| a | t.bitboard())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::attacks::attack::{attack_on, promotion, TrajectoryLimits};
    use crate::pioneer::counters::defence::counters;
    use crate::rules::parse_fen;

    #[test]
    fn diagram_51_bishop_b1_clears_the_first_rank() {
        let board = parse_fen(crate::pioneer::examples::DIAGRAM_51, false).unwrap();
        let a = attack_on(&board, Square::E1, Square::A7, TrajectoryLimits::default()).unwrap();
        let list = supports(&board, &a, &counters(&board, &a, true));
        let clear = list
            .iter()
            .find(|s| s.kind == SupportKind::Clear { square: Square::B1 })
            .expect("the bishop must clear the first rank");
        assert_eq!(clear.piece, Piece::Bishop);
        // c2, not a2: a2 lies on the rook's way up the a-file.
        assert_eq!(clear.route.first_steps, Square::C2.bitboard());
    }

    #[test]
    fn reti_king_escorts_the_c_pawn() {
        let board = parse_fen("7K/8/k1P5/7p/8/8/8/8 w - - 0 1", false).unwrap();
        let c = promotion(&board, Square::C6, TrajectoryLimits::default()).unwrap();
        let list = supports(&board, &c, &counters(&board, &c, true));
        let to_c7 = list
            .iter()
            .find(|s| {
                s.kind
                    == SupportKind::DefendStop {
                        step: 1,
                        square: Square::C7,
                    }
            })
            .expect("the king can come to defend c7");
        assert_eq!(to_c7.piece, Piece::King);
        assert_eq!(to_c7.route.forecast(), 4);
        assert!(to_c7.route.first_steps.has(Square::G7));
    }

    #[test]
    fn a_counter_piece_can_be_captured_or_its_line_blocked() {
        // R a1–b1×b7; the black bishop h3 defends b7 in one move (h3–c8), in time. White can
        // take it (g2×h3) or block its line with the knight (e3–f5 or e3–g4).
        let board = parse_fen("6k1/1p6/8/8/8/4N2b/6P1/R5K1 w - - 0 1", false).unwrap();
        let a = attack_on(&board, Square::A1, Square::B7, TrajectoryLimits::default()).unwrap();
        let cs = counters(&board, &a, true);
        assert!(
            cs.iter().any(|c| c.piece == Piece::Bishop && c.in_time()),
            "{cs:?}"
        );
        let list = supports(&board, &a, &cs);
        assert!(
            list.iter()
                .any(|s| matches!(s.kind, SupportKind::CaptureCounter { .. })
                    && s.piece == Piece::Pawn),
            "{list:?}"
        );
        assert!(
            list.iter()
                .any(|s| matches!(s.kind, SupportKind::BlockCounter { .. })
                    && s.piece == Piece::Knight
                    && s.route.first_steps.has(Square::F5)),
            "{list:?}"
        );
    }
}
