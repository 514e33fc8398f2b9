//! Zone moves: the first steps of the live trajectories of the side to move.
//!
//! Seed 004: "the highest level directs a search in which only planned moves are admitted".
//! The planned moves of a side are the first moves of its attack trajectories, of its support
//! trajectories, of its counter-trajectories that arrive in time against the opponent's attacks,
//! and the escapes of its pieces that the opponent attacks. The zone search (`study.rs`) plays
//! only these; the main search uses them for ordering (`guide.rs`).
//!
//! Design note: every trajectory is admitted only if it can be completed within the moves left
//! to the side before the horizon (`moves_left`). A move's score for ordering follows the seed:
//! material first (captures by exchange value, promotions), then the first step along the common
//! part of a fork trajectory ("moving along it wins a tempo"), then the attack's own next step
//! before counters and supports ("if the nearest square is not controlled, try the move to it at
//! once"), then the number of zones served, then the shortest trajectory.

use super::attack::Goal;
use super::critical::Hindering;
use super::fork::forks;
use super::support::clearing_routes;
use super::zone::Analysis;
use crate::rules::see::see;
use crate::rules::{is_capture, legal_moves, BitBoard, Board, Move, Piece, Rank, Square};

/// A zone move with what it serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZoneMove {
    /// The move.
    pub mv: Move,
    /// Ordering score (higher first).
    pub score: i32,
    /// Number of distinct zones it serves.
    pub zones: u32,
}

/// What a zone move is to the plans of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepRole {
    /// The first step of the attack trajectory of zone `zone`.
    Attack {
        /// Index of the zone in the analysis.
        zone: usize,
    },
    /// The first step of support trajectory `support` of the side's own zone `zone`.
    Support {
        /// Index of the zone in the analysis.
        zone: usize,
        /// Index of the support in the zone.
        support: usize,
    },
    /// The first step of counter-trajectory `counter` against the opponent's zone `zone`.
    Counter {
        /// Index of the zone in the analysis.
        zone: usize,
        /// Index of the counter in the zone.
        counter: usize,
    },
    /// A step of the defender's piece on `square` off the way of its own counter-trajectory
    /// `counter` against the opponent's zone `zone` (deblocking the defence route).
    Deblock {
        /// Index of the zone in the analysis.
        zone: usize,
        /// Index of the counter in the zone.
        counter: usize,
        /// Where the piece in the way stands.
        square: Square,
    },
    /// A step of the target of the rejected attack `rejected` to the safe square `to`.
    Escape {
        /// Index of the attack in the analysis's rejected list.
        rejected: usize,
        /// The safe square.
        to: Square,
    },
    /// The first step of linked trajectory `link`, which takes a critical square of a failing
    /// zone or of an attack given up for its target's escape.
    Linked {
        /// Index of the linked zone in the analysis.
        link: usize,
        /// What the hindering piece it stops does: counter a zone, or let a target escape.
        hindering: Hindering,
    },
}

impl StepRole {
    /// The zone the step serves (`None` for an escape, or a linked trajectory, that serves a
    /// rejected attack).
    pub fn zone(&self) -> Option<usize> {
        match *self {
            StepRole::Attack { zone }
            | StepRole::Support { zone, .. }
            | StepRole::Counter { zone, .. }
            | StepRole::Deblock { zone, .. } => Some(zone),
            StepRole::Linked {
                hindering: Hindering::Counter { zone, .. },
                ..
            } => Some(zone),
            StepRole::Escape { .. } | StepRole::Linked { .. } => None,
        }
    }

    /// Rank for ordering: the main attack's own step first (seed: "if the nearest square of
    /// the trajectory is not controlled, it is natural to try the move to it at once"), then
    /// counters and escapes, then supports.
    fn rank(&self) -> i32 {
        match self {
            StepRole::Support { .. } | StepRole::Linked { .. } => 0,
            StepRole::Counter { .. } | StepRole::Deblock { .. } | StepRole::Escape { .. } => 1,
            StepRole::Attack { .. } => 2,
        }
    }

    /// A key telling the zones (and rejected attacks) served apart.
    fn served(&self, zones: usize) -> usize {
        match *self {
            StepRole::Escape { rejected, .. }
            | StepRole::Linked {
                hindering: Hindering::Escape { rejected },
                ..
            } => zones + rejected,
            other => other.zone().unwrap_or_default(),
        }
    }
}

/// A legal first step of a trajectory of the side to move, with what it serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlannedStep {
    /// The move.
    pub mv: Move,
    /// The trajectory it begins.
    pub role: StepRole,
    /// The trajectory's forecast duration in moves.
    pub length: u8,
}

struct Collector<'a> {
    board: &'a Board,
    legal: Vec<Move>,
    out: Vec<PlannedStep>,
}

impl Collector<'_> {
    fn add(&mut self, from: Square, to: BitBoard, role: StepRole, length: u8) {
        for t in to {
            let promotion = (self.board.piece_on(from) == Some(Piece::Pawn)
                && t.rank() == Rank::Eighth.relative_to(self.board.side_to_move()))
            .then_some(Piece::Queen);
            let mv = Move {
                from,
                to: t,
                promotion,
            };
            if self.legal.contains(&mv) {
                self.out.push(PlannedStep { mv, role, length });
            }
        }
    }
}

/// Every legal first step of the live trajectories of the side to move that can be completed
/// within `moves_left` own moves, once per trajectory, in the order of the zones: attacks and
/// supports of its own zones, counters against the opponent's, escapes of its attacked pieces.
/// Empty in check (the zones do not say how to answer a check).
pub fn planned_steps(board: &Board, analysis: &Analysis, moves_left: u8) -> Vec<PlannedStep> {
    let us = board.side_to_move();
    if !board.checkers().is_empty() {
        return Vec::new();
    }
    let mut c = Collector {
        board,
        legal: legal_moves(board),
        out: Vec::new(),
    };
    for (zone, z) in analysis.zones.iter().enumerate() {
        if z.side() == us {
            let a = &z.attack;
            if a.forecast() > moves_left {
                continue;
            }
            if z.verdict != super::zone::ZoneVerdict::Postponed {
                let role = StepRole::Attack { zone };
                c.add(a.root(), a.route.first_steps, role, a.forecast());
            }
            for (support, s) in z.supports.iter().enumerate() {
                if s.route.forecast() <= moves_left {
                    let role = StepRole::Support { zone, support };
                    c.add(
                        s.route.start(),
                        s.route.first_steps,
                        role,
                        s.route.forecast(),
                    );
                }
            }
        } else {
            for (counter, k) in z.counters.iter().enumerate() {
                if k.in_time() && k.needs() <= moves_left && !k.route.is_empty() {
                    let role = StepRole::Counter { zone, counter };
                    c.add(k.square(), k.route.first_steps, role, k.needs());
                    for (square, _, r) in clearing_routes(board, &k.route) {
                        let role = StepRole::Deblock {
                            zone,
                            counter,
                            square,
                        };
                        c.add(square, r.first_steps, role, k.needs());
                    }
                }
            }
        }
    }
    // Linked trajectories that stop a hindering piece in time.
    for (link, l) in analysis.linked.iter().enumerate() {
        if l.side == us && l.in_time() && l.stops_hinderer && l.route.forecast() <= moves_left {
            let role = StepRole::Linked {
                link,
                hindering: l.critical.hindering,
            };
            c.add(
                l.route.start(),
                l.route.first_steps,
                role,
                l.route.forecast(),
            );
        }
    }
    // Escapes of our pieces from attacks rejected only because the target would run.
    for (rejected, a) in analysis.rejected.iter().enumerate() {
        if a.side != us && a.only_escapes() {
            if let (
                Goal::Capture { target, .. },
                Some(super::reject::Rejection::TargetEscapes { squares }),
            ) = (a.goal, a.rejections.first())
            {
                for to in *squares {
                    c.add(target, to.bitboard(), StepRole::Escape { rejected, to }, 1);
                }
            }
        }
    }
    c.out
}

/// The zone moves of the side to move with at most `moves_left` own moves before the horizon,
/// best first. In check, every evasion is a zone move.
pub fn zone_moves(board: &Board, analysis: &Analysis, moves_left: u8) -> Vec<ZoneMove> {
    let us = board.side_to_move();
    if !board.checkers().is_empty() {
        return legal_moves(board)
            .into_iter()
            .map(|mv| ZoneMove {
                mv,
                score: order_material(board, mv),
                zones: 0,
            })
            .collect();
    }
    let steps = planned_steps(board, analysis, moves_left);
    // The first steps along the common part of fork trajectories of our pieces.
    let fork_steps: Vec<(Square, Square)> = forks(board, analysis, 2)
        .iter()
        .filter(|f| board.color_on(f.square) == Some(us))
        .map(|f| (f.square, f.common[0]))
        .collect();
    let mut moves: Vec<ZoneMove> = Vec::new();
    for step in &steps {
        let mv = step.mv;
        if moves.iter().any(|m| m.mv == mv) {
            continue;
        }
        let entries: Vec<&PlannedStep> = steps.iter().filter(|e| e.mv == mv).collect();
        let mut zones: Vec<usize> = entries
            .iter()
            .map(|e| e.role.served(analysis.zones.len()))
            .collect();
        zones.sort_unstable();
        zones.dedup();
        let shortest = entries.iter().map(|e| e.length).min().unwrap_or(0);
        let rank = entries.iter().map(|e| e.role.rank()).max().unwrap_or(0);
        let fork = fork_steps.contains(&(mv.from, mv.to));
        let score = order_material(board, mv) * 1000
            + i32::from(fork) * 400
            + rank * 100
            + zones.len() as i32 * 10
            - shortest as i32;
        moves.push(ZoneMove {
            mv,
            score,
            zones: zones.len() as u32,
        });
    }
    // Stable: equal scores keep the order of the zones.
    moves.sort_by_key(|m| std::cmp::Reverse(m.score));
    moves
}

/// Material the move gains at once in the exchange model (captures, promotions), else 0.
fn order_material(board: &Board, mv: Move) -> i32 {
    let mut value = 0;
    if is_capture(board, mv) {
        value += see(board, mv).max(0);
    }
    if mv.promotion == Some(Piece::Queen) {
        value += 800;
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::attack::TrajectoryLimits;
    use crate::pioneer::examples::{DIAGRAM_51, RETI};
    use crate::rules::{parse_fen, Color};

    fn moves(fen: &str, left: u8) -> Vec<String> {
        let board = parse_fen(fen, false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        zone_moves(&board, &analysis, left)
            .iter()
            .map(|m| crate::rules::notation::move_to_san(&board, m.mv))
            .collect()
    }

    #[test]
    fn the_defender_clears_its_own_defence_route() {
        // As in the seed's diagram 58: N c5–e6–f8 defends h7 against B h5–d1–c2×h7 in time
        // only if the bishop leaves f8 first; that step is a plan of its own.
        let board = parse_fen("k4b2/7p/7P/2n3PB/8/8/8/2N3K1 b - - 0 1", false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let steps = planned_steps(&board, &analysis, 3);
        let deblocks: Vec<&PlannedStep> = steps
            .iter()
            .filter(|s| matches!(s.role, StepRole::Deblock { .. }))
            .collect();
        assert!(!deblocks.is_empty(), "{steps:?}");
        for step in deblocks {
            let StepRole::Deblock {
                zone,
                counter,
                square,
            } = step.role
            else {
                unreachable!()
            };
            let route = &analysis.zones[zone].counters[counter].route;
            assert_eq!(step.mv.from, square);
            assert!(route
                .obstacles
                .iter()
                .any(|o| o.square == square && o.removable()));
            assert!(!route.used_squares().has(step.mv.to), "{step:?}");
        }
        assert!(steps.iter().any(|s| matches!(
            s.role,
            StepRole::Deblock {
                square: Square::F8,
                ..
            }
        )));
    }

    #[test]
    fn reti_white_plays_the_c_pawn_and_the_king_toward_it() {
        let list = moves(RETI, 5);
        assert!(list.contains(&"Kg7".to_string()), "{list:?}");
        assert!(list.contains(&"c7".to_string()), "{list:?}");
        // Kg7 lies on the fork trajectory: it serves more zones than Kg8 and comes first.
        let g7 = list.iter().position(|m| m == "Kg7").unwrap();
        if let Some(g8) = list.iter().position(|m| m == "Kg8") {
            assert!(g7 < g8, "{list:?}");
        }
        assert!(!list.contains(&"Kh7".to_string()), "{list:?}");
    }

    #[test]
    fn black_after_kg7_pushes_or_goes_for_the_c_pawn() {
        // Kb7 would control c8 in time, but b7 is attacked by the c6 pawn; Kb5 and Ka7 lie on
        // no trajectory that arrives in time.
        let list = moves("8/6K1/k1P5/7p/8/8/8/8 b - - 1 1", 4);
        let mut sorted = list.clone();
        sorted.sort();
        assert_eq!(sorted, vec!["Kb6", "h4"], "{list:?}");
    }

    #[test]
    fn diagram_51_starts_with_the_clearing_move() {
        let list = moves(DIAGRAM_51, 3);
        assert!(list.contains(&"Bc2".to_string()), "{list:?}");
        // Only trajectories that fit in the moves left: no move at all without one.
        assert!(moves(DIAGRAM_51, 0).is_empty());
    }

    #[test]
    fn planned_steps_say_what_each_move_serves() {
        let board = parse_fen(DIAGRAM_51, false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let steps = planned_steps(&board, &analysis, 3);
        let rook_zone = analysis
            .zones
            .iter()
            .position(|z| z.attack.notation() == "R e1–a1×a7")
            .expect("the rook's zone");
        let bc2 = steps
            .iter()
            .find(|s| s.mv.from == Square::B1 && s.mv.to == Square::C2)
            .expect("the clearing move");
        assert!(
            matches!(bc2.role, StepRole::Support { zone, .. } if zone == rook_zone),
            "{bc2:?}"
        );
        assert!(steps
            .iter()
            .filter(|s| matches!(s.role, StepRole::Counter { .. }))
            .all(|s| analysis.zones[s.role.zone().unwrap()].side() == Color::Black));
        // Every zone move is a planned step, and nothing else is.
        let mut zone: Vec<Move> = zone_moves(&board, &analysis, 3)
            .iter()
            .map(|m| m.mv)
            .collect();
        let mut planned: Vec<Move> = steps.iter().map(|s| s.mv).collect();
        zone.sort_by_key(|m| (m.from as u8, m.to as u8));
        planned.sort_by_key(|m| (m.from as u8, m.to as u8));
        planned.dedup();
        assert_eq!(zone, planned);
    }

    #[test]
    fn in_check_every_evasion() {
        let board = parse_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let list = zone_moves(&board, &analysis, 3);
        assert_eq!(list.len(), legal_moves(&board).len());
    }
}
