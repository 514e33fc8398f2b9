//! Critical squares and linked zones: when a zone fails, the square where the hindering piece
//! can be stopped, and the trajectories of the attacker's other pieces that take it in time.
//!
//! PIONEER: "If the gain is not reached, its cause must be found: the object of the attack may
//! retreat, the opponent may manage to defend it or stop the attacking piece. In every case one
//! should try to find the critical square, acting on which strengthens the attack, the
//! trajectories of attack of one's pieces on it (with time taken into account) and form a zone of
//! the new trajectories added to the original one. Botvinnik calls it linked with the zone under
//! consideration and joins both into one — a composite zone." Its examples: the knight h1 runs
//! to g3, so g3 is critical and B d2–f4 attacks it (diagram 56); the queen defends by a6–c8–f8,
//! so c8 is critical and B g2–h3 attacks it (diagram 57); the knight goes to c5 to take the
//! bishop on its way, so c5 is critical and N c1–b3 attacks it (diagram 58).
//!
//! Design note: a zone fails at a square in two ways here — a counter that arrives in time passes
//! or reaches it (every stop of its route is a candidate), or the target of an attack rejected
//! only for its escape runs there. A linked trajectory is the shortest route (at most
//! `LINKED_MAX_FORECAST` moves) of another piece of the attacking side to a square from which it
//! controls the critical square against the hindering piece (PIONEER's control rules 1 and 2),
//! arriving before the hindering piece does. The composite zone is then judged statically on the
//! board with the linked piece moved there: the hindering piece is *stopped* when it no longer
//! has a way in time, and the composite *wins* when no counter at all arrives in time — both
//! with the tempi of the linked trajectory given to the opponent ("because of the loss of tempo
//! the main zone grows too"). The linked zone's own counters (the king coming to drive the
//! bishop off f4 in diagram 56) are left to the search that checks every plan (`explain`).
//! This file reads the zones (`zone`) and names the hindering piece's part by a `Hindrance`
//! (`hindrance`); the analysis gathers the linked zones and resolves it
//! (`Analysis::linked_attack`, `Analysis::hindering_counter`).

use super::hindrance::Hindrance;
use super::zone::{Zone, ZoneVerdict};
use crate::pioneer::attacks::attack::{Attack, Goal};
use crate::pioneer::board::arrival::relocated;
use crate::pioneer::board::control::would_control;
use crate::pioneer::board::pieces::{attack_squares, piece_letter};
use crate::pioneer::board::route::{best_route, Route};
use crate::pioneer::board::trajectory::Mover;
use crate::pioneer::counters::counter::{budget, Counter};
use crate::pioneer::rejection::escape::escape_squares;
use crate::pioneer::rejection::reject::Rejection;
use crate::rules::{Board, Color, Piece, Square};

/// Longest linked trajectory (forecast, in moves) that is looked for.
pub const LINKED_MAX_FORECAST: u8 = 2;

/// A square where a zone can be saved by stopping the piece that hinders it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CriticalSquare {
    /// The square.
    pub square: Square,
    /// What the hindering piece does there: runs its counter (`Hindrance::Counter`), or, as
    /// the target of an attack given up for its escape, runs there (`Hindrance::Rejected`).
    pub hindrance: Hindrance,
    /// Where the hindering piece stands.
    pub hinderer: Square,
    /// The hindering piece.
    pub piece: Piece,
    /// The hindering piece's own move at which it reaches the square.
    pub arrives: u8,
}

/// A linked zone: a trajectory of another piece of the attacking side to a square from which it
/// controls a critical square, with the static verdict on the composite zone it forms.
#[derive(Clone, Debug)]
pub struct LinkedZone {
    /// The critical square it takes.
    pub critical: CriticalSquare,
    /// The attacking side.
    pub side: Color,
    /// The linked piece.
    pub piece: Piece,
    /// Its route to the square it controls the critical square from.
    pub route: Route,
    /// Moves the attacking side has before the hindering piece gets there.
    pub budget: u8,
    /// With the linked piece there and its tempi spent, the hindering piece has no way in time.
    pub stops_hinderer: bool,
    /// With the linked piece there and its tempi spent, no counter arrives in time.
    pub wins: bool,
}

impl LinkedZone {
    /// Does the linked piece arrive before the hindering piece?
    pub fn in_time(&self) -> bool {
        self.route.forecast() <= self.budget
    }

    /// The linked trajectory in PIONEER's notation, e.g. `B d2–f4`.
    pub fn notation(&self) -> String {
        format!("{} {}", piece_letter(self.piece), self.route.squares_text())
    }

    /// The static verdict on the composite zone, in words.
    pub fn verdict_words(&self) -> &'static str {
        match (self.stops_hinderer, self.wins) {
            (_, true) => "the composite zone wins",
            (true, false) => "stops it, but other counters come in time",
            (false, false) => "it finds another way in time",
        }
    }
}

/// The critical squares of the zones `zones` and the rejected attacks `rejected` (as in
/// `Analysis`): the stops of every timely counter of a defended zone that has to move, and the
/// escape squares of every attack rejected only for its escape.
pub fn critical_squares(zones: &[Zone], rejected: &[Attack]) -> Vec<CriticalSquare> {
    let mut out = Vec::new();
    for (zone, z) in zones.iter().enumerate() {
        if z.verdict != ZoneVerdict::Defended {
            continue;
        }
        for (counter, c) in z.counters.iter().enumerate() {
            if !c.in_time() || c.route.is_empty() {
                continue;
            }
            for (i, &square) in c.route.squares.iter().enumerate().skip(1) {
                out.push(CriticalSquare {
                    square,
                    hindrance: Hindrance::Counter { zone, counter },
                    hinderer: c.square(),
                    piece: c.piece,
                    arrives: c.route.arrival[i],
                });
            }
        }
    }
    for (index, a) in rejected.iter().enumerate() {
        let (Goal::Capture { target, piece }, true) = (a.goal, a.only_escapes()) else {
            continue;
        };
        for r in &a.rejections {
            if let Rejection::TargetEscapes { squares } = r {
                for square in *squares {
                    out.push(CriticalSquare {
                        square,
                        hindrance: Hindrance::Rejected { rejected: index },
                        hinderer: target,
                        piece,
                        arrives: 1,
                    });
                }
            }
        }
    }
    out
}

/// The linked zones of the zones `zones` and the rejected attacks `rejected` of `board` (as in
/// `Analysis`, which holds them): for every critical square, the best linked trajectory of each
/// piece of the attacking side (the main attack's root excepted) that arrives in time, judged
/// as a composite zone. Winning composites first, then those that stop the hindering piece.
pub fn linked_zones(board: &Board, zones: &[Zone], rejected: &[Attack]) -> Vec<LinkedZone> {
    let mut out: Vec<LinkedZone> = Vec::new();
    for critical in critical_squares(zones, rejected) {
        let Some(attack) = critical.hindrance.attack(zones, rejected) else {
            continue;
        };
        let side = attack.side;
        let to_move = board.side_to_move() == side;
        let budget = budget(critical.arrives, !to_move);
        let occupied = board.occupied();
        let used = attack.route.used_squares() | attack.root().bitboard();
        for from in board.colors(side) & !attack.root().bitboard() {
            let Some(piece) = board.piece_on(from) else {
                continue;
            };
            // Only a piece that would control the square against the hinderer takes it.
            if would_control(
                board,
                piece,
                critical.square,
                critical.hinderer,
                critical.piece,
            )
            .is_none()
            {
                continue;
            }
            let mover = Mover::new(piece, side);
            let squares = attack_squares(mover, critical.square, occupied) & !used;
            if squares.has(from) {
                // It holds the square already: the counter goes elsewhere, nothing is linked.
                continue;
            }
            let limit = budget.min(LINKED_MAX_FORECAST);
            let Some(route) = best_route(board, from, squares, limit) else {
                continue;
            };
            if route.is_empty() || out.iter().any(|l| same_link(l, &critical, &route)) {
                continue;
            }
            let Some(after) = moved(board, from, route.end()) else {
                continue;
            };
            let Some((stops_hinderer, wins)) =
                composite(&after, attack, &critical, to_move, route.forecast())
            else {
                continue;
            };
            out.push(LinkedZone {
                critical,
                side,
                piece,
                route,
                budget,
                stops_hinderer,
                wins,
            });
        }
    }
    out.sort_by_key(|l| (!l.wins, !l.stops_hinderer, l.route.forecast()));
    out
}

/// The same piece already takes the same critical square of the same failure.
fn same_link(link: &LinkedZone, critical: &CriticalSquare, route: &Route) -> bool {
    link.critical.hindrance == critical.hindrance
        && link.critical.square == critical.square
        && link.route.start() == route.start()
}

/// `board` with the piece on `from` moved to `to` (the side to move unchanged), or `None` when
/// that position is not legal (the piece would give check out of turn).
fn moved(board: &Board, from: Square, to: Square) -> Option<Board> {
    relocated(board, &[(from, to)]).build().ok()
}

/// Judges the composite zone of `attack` on `after`, the board with the linked piece in place,
/// the opponent having `tempi` moves more: (the hindering piece is stopped, the composite
/// wins). For an attack given up for its target's escape, the target must have no escape left.
fn composite(
    after: &Board,
    attack: &Attack,
    critical: &CriticalSquare,
    attacker_to_move: bool,
    tempi: u8,
) -> Option<(bool, bool)> {
    match critical.hindrance {
        Hindrance::Counter { .. } => {
            let z = Zone::form(after, attack.clone(), attacker_to_move);
            Some(composite_verdict(&z.counters, critical.hinderer, tempi))
        }
        Hindrance::Rejected { .. } => {
            let Goal::Capture { target, .. } = attack.goal else {
                return None;
            };
            let escapes = escape_squares(after, &attack.route, target, attacker_to_move);
            let mut live = attack.clone();
            live.rejections.clear();
            let z = Zone::form(after, live, attacker_to_move);
            let (_, wins) = composite_verdict(&z.counters, critical.hinderer, tempi);
            Some((escapes.is_empty(), escapes.is_empty() && wins))
        }
        // A critical square comes from a counter or an escape only.
        Hindrance::Controls { .. } | Hindrance::InTheWay { .. } | Hindrance::Mate => None,
    }
}

/// Judges a composite zone from the main zone's counters on the board with the linked piece in
/// place, the opponent having `tempi` moves more: (the hindering piece on `hinderer` has no
/// counter in time, no counter at all is in time).
fn composite_verdict(counters: &[Counter], hinderer: Square, tempi: u8) -> (bool, bool) {
    let timely = |c: &&Counter| c.slack() + i32::from(tempi) >= 0;
    let stops = !counters
        .iter()
        .filter(timely)
        .any(|c| c.square() == hinderer);
    let wins = !counters.iter().any(|c| timely(&c));
    (stops, wins)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::attacks::attack::TrajectoryLimits;
    use crate::pioneer::zones::analysis::Analysis;
    use crate::rules::parse_fen;

    fn linked(fen: &str) -> (Analysis, Vec<LinkedZone>) {
        let board = parse_fen(fen, false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let links = analysis.linked.clone();
        (analysis, links)
    }

    fn find<'a>(
        analysis: &Analysis,
        links: &'a [LinkedZone],
        main: &str,
        linked: &str,
    ) -> &'a LinkedZone {
        links
            .iter()
            .find(|l| analysis.linked_attack(l).notation() == main && l.notation() == linked)
            .unwrap_or_else(|| panic!("no {linked} linked with {main}"))
    }

    #[test]
    fn the_escape_square_of_a_trapped_knight_is_critical() {
        // As in PIONEER's diagram 56: the king's attack on the knight h1 fails because the
        // knight runs to g3; B d2–f4 takes g3 first, and the attack revives.
        let fen = "8/3k4/8/8/8/8/3B4/4K2n w - - 0 1";
        let (analysis, links) = linked(fen);
        let l = find(&analysis, &links, "K e1–f1–g1×h1", "B d2–f4");
        assert_eq!(l.critical.square, Square::G3);
        assert_eq!(l.critical.hinderer, Square::H1);
        assert!(matches!(l.critical.hindrance, Hindrance::Rejected { .. }));
        assert!(l.in_time() && l.stops_hinderer && l.wins, "{l:?}");
        // With Black to move the knight runs before the bishop arrives: nothing is linked.
        let (analysis, links) = linked(&fen.replace(" w ", " b "));
        assert!(
            links
                .iter()
                .all(|l| analysis.linked_attack(l).notation() != "K e1–f1–g1×h1"),
            "{links:?}"
        );
    }

    #[test]
    fn a_square_on_the_defenders_way_is_critical_and_the_tempo_counts() {
        // R h1–h6×d6 and B c1–a3×d6 fail to K f8–e7. N f4–d5 takes e7. Against the rook it
        // wins: the rook on h6 then cuts the king off e6. Against the bishop, which leaves the
        // sixth rank open, the tempo spent lets the king come by f7–e6.
        let fen = "5k2/8/2Pp4/8/5N2/8/8/2B3KR w - - 0 1";
        let (analysis, links) = linked(fen);
        let rook = find(&analysis, &links, "R h1–h6×d6", "N f4–d5");
        assert_eq!(rook.critical.square, Square::E7);
        assert_eq!(rook.critical.piece, Piece::King);
        assert!(
            rook.in_time() && rook.stops_hinderer && rook.wins,
            "{rook:?}"
        );
        let bishop = find(&analysis, &links, "B c1–a3×d6", "N f4–d5");
        assert!(
            bishop.in_time() && !bishop.stops_hinderer && !bishop.wins,
            "{bishop:?}"
        );
        // The pawn's step d6–d5 against the knight's attack on d6 is stopped by a rook on the
        // fifth rank: a rook controls an undefended square against a pawn (rule 2).
        let pawn = find(&analysis, &links, "N f4–e2–c3–e4×d6", "R h1–h5");
        assert_eq!(pawn.critical.square, Square::D5);
        assert!(pawn.stops_hinderer, "{pawn:?}");
    }

    #[test]
    fn linked_steps_are_plans_of_the_side_to_move() {
        let board = parse_fen("8/3k4/8/8/8/8/3B4/4K2n w - - 0 1", false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let steps = crate::pioneer::play::moves::planned_steps(&board, &analysis, 3);
        assert!(steps.iter().any(|s| matches!(
            s.role,
            crate::pioneer::play::moves::StepRole::Linked { .. }
        ) && s.mv.to == Square::F4));
    }
}
