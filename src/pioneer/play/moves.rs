//! Zone moves: the first steps of the live trajectories of the side to move.
//!
//! PIONEER: "the highest level directs a search in which only planned moves are admitted".
//! The planned moves of a side are the first moves of its attack trajectories, of its support
//! trajectories, of its counter-trajectories that arrive in time against the opponent's attacks,
//! and the escapes of its pieces that the opponent attacks. The zone search (`uses::study`) plays
//! only these; the main search uses them for ordering (`uses::guide`).
//!
//! A check is the opponent's attack on the king that has arrived: no trajectory is left to
//! counter in time, only the last step to answer. The answers are the counters PIONEER names —
//! take the attacking piece, block its line, or the object of the attack goes away — so in check
//! the planned steps are every legal move, each classified as one of them (`CheckAnswer`), one
//! move long and admitted whatever the moves left: the check must be answered now. The zone
//! search keeps every evasion in check as it always has (`zone_moves`).
//!
//! Design note: every trajectory is admitted only if it can be completed within the moves left
//! to the side before the horizon (`moves_left`). A move's score for ordering follows PIONEER:
//! material first (captures by exchange value, promotions), then the first step along the common
//! part of a fork trajectory ("moving along it wins a tempo"), then the attack's own next step
//! before counters and supports ("if the nearest square is not controlled, try the move to it at
//! once"), then the number of zones served, then the shortest trajectory.

use crate::pioneer::attacks::attack::Goal;
use crate::pioneer::counters::support::clearing_routes;
use crate::pioneer::rejection::reject::Rejection;
use crate::pioneer::zones::analysis::Analysis;
use crate::pioneer::zones::combination::Combination;
use crate::pioneer::zones::fork::forks;
use crate::pioneer::zones::hindrance::Hindrance;
use crate::pioneer::zones::zone::ZoneVerdict;
use crate::rules::see::see;
use crate::rules::{
    is_capture, is_en_passant, legal_moves, BitBoard, Board, Move, Piece, Rank, Square,
};
use cozy_chess::get_between_rays;

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
        /// What the hindering piece it stops does: counter a zone, or, as the target of an
        /// attack given up, escape.
        hindrance: Hindrance,
    },
    /// A combination: a move against a piece that hinders the side's play, at any material
    /// price (`zones::combination`).
    Combination(Combination),
    /// A move of the side in check that answers the check.
    AnswerCheck {
        /// The answering move (the step's own move).
        mv: Move,
        /// How it answers the check.
        answer: CheckAnswer,
    },
}

/// How a move answers a check: PIONEER's counters against an attack, applied to the attack on
/// the king that has arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckAnswer {
    /// The move takes the checking piece (by the king too, or en passant).
    CaptureChecker {
        /// The checking piece's square.
        checker: Square,
    },
    /// A piece other than the king steps between the checking piece and the king.
    Block {
        /// The checking piece's square.
        checker: Square,
        /// The square occupied on the line of the check.
        square: Square,
    },
    /// The king steps out of the check (in a double check the only answer).
    KingFlight {
        /// The king's new square.
        to: Square,
    },
}

impl CheckAnswer {
    /// Rank for listing: captures of the checking piece, then blocks, then flights.
    fn order(&self) -> u8 {
        match self {
            CheckAnswer::CaptureChecker { .. } => 0,
            CheckAnswer::Block { .. } => 1,
            CheckAnswer::KingFlight { .. } => 2,
        }
    }
}

/// How the legal move `mv` answers the check on the side to move of `board`; `None` when the
/// side to move is not in check or the move is no legal answer.
pub fn check_answer(board: &Board, mv: Move) -> Option<CheckAnswer> {
    let checkers = board.checkers();
    if checkers.is_empty() || !board.is_legal(mv) {
        return None;
    }
    let king = board.king(board.side_to_move());
    if let (Some(checker), 1) = (checkers.next_square(), checkers.len()) {
        let taken = if is_en_passant(board, mv) {
            Square::new(mv.to.file(), mv.from.rank())
        } else {
            mv.to
        };
        if taken == checker {
            return Some(CheckAnswer::CaptureChecker { checker });
        }
        if mv.from != king && get_between_rays(checker, king).has(mv.to) {
            return Some(CheckAnswer::Block {
                checker,
                square: mv.to,
            });
        }
    }
    (mv.from == king).then_some(CheckAnswer::KingFlight { to: mv.to })
}

impl StepRole {
    /// The zone the step serves (`None` for an escape or a linked trajectory that serves a
    /// rejected attack, and for an answer to a check).
    pub fn zone(&self) -> Option<usize> {
        match *self {
            StepRole::Attack { zone }
            | StepRole::Support { zone, .. }
            | StepRole::Counter { zone, .. }
            | StepRole::Deblock { zone, .. } => Some(zone),
            StepRole::Linked { hindrance, .. } => hindrance.zone(),
            StepRole::Escape { .. } | StepRole::Combination(_) | StepRole::AnswerCheck { .. } => {
                None
            }
        }
    }

    /// Rank for ordering: the main attack's own step first (PIONEER: "if the nearest square of
    /// the trajectory is not controlled, it is natural to try the move to it at once"), then
    /// counters and escapes, then supports.
    fn rank(&self) -> i32 {
        match self {
            StepRole::Support { .. } | StepRole::Linked { .. } => 0,
            StepRole::Counter { .. }
            | StepRole::Deblock { .. }
            | StepRole::Escape { .. }
            | StepRole::AnswerCheck { .. } => 1,
            StepRole::Attack { .. } | StepRole::Combination(_) => 2,
        }
    }

    /// A key telling the zones (and rejected attacks, and the check) served apart.
    fn served(&self, zones: usize) -> usize {
        match *self {
            StepRole::Escape { rejected, .. }
            | StepRole::Linked {
                hindrance: Hindrance::Rejected { rejected },
                ..
            } => zones + rejected,
            StepRole::AnswerCheck { .. } => usize::MAX,
            StepRole::Combination(_) => usize::MAX - 1,
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
/// In check, instead, every legal move as an answer to the check (`StepRole::AnswerCheck`, one
/// move long, whatever `moves_left`): captures of the checking piece, then blocks, then the
/// king's flights, each kind in the order of the move generator.
pub fn planned_steps(board: &Board, analysis: &Analysis, moves_left: u8) -> Vec<PlannedStep> {
    let us = board.side_to_move();
    if !board.checkers().is_empty() {
        return check_answers(board);
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
            if z.verdict != ZoneVerdict::Postponed {
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
                hindrance: l.critical.hindrance,
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
            if let (Goal::Capture { target, .. }, Some(Rejection::TargetEscapes { squares })) =
                (a.goal, a.rejections.first())
            {
                for to in *squares {
                    c.add(target, to.bitboard(), StepRole::Escape { rejected, to }, 1);
                }
            }
        }
    }
    c.out
}

/// Every legal move of the side in check with how it answers the check (see `planned_steps`).
fn check_answers(board: &Board) -> Vec<PlannedStep> {
    let mut answers: Vec<(Move, CheckAnswer)> = legal_moves(board)
        .into_iter()
        .filter_map(|mv| check_answer(board, mv).map(|answer| (mv, answer)))
        .collect();
    // Stable: each kind keeps the generator's order.
    answers.sort_by_key(|(_, answer)| answer.order());
    answers
        .into_iter()
        .map(|(mv, answer)| PlannedStep {
            mv,
            role: StepRole::AnswerCheck { mv, answer },
            length: 1,
        })
        .collect()
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
    use crate::pioneer::attacks::attack::TrajectoryLimits;
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
    fn the_king_escorts_a_pawn_the_enemy_king_holds_up() {
        // K+P v K with the defending king in front: 1.Kc6 defends d7 for the postponed
        // promotion (the winning move), and is planned.
        let planned = moves("2k5/8/1K1P4/8/8/8/8/8 w - - 0 1", 3);
        assert!(planned.contains(&"Kc6".to_string()), "{planned:?}");
    }

    #[test]
    fn the_defender_clears_its_own_defence_route() {
        // As in PIONEER's diagram 58: N c5–e6–f8 defends h7 against B h5–d1–c2×h7 in time
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

    /// The planned steps in check as (SAN, answer), checking that they are exactly the legal
    /// moves, each once, and that each is the step's own move.
    fn answers(fen: &str) -> Vec<(String, CheckAnswer)> {
        let board = parse_fen(fen, false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let steps = planned_steps(&board, &analysis, 3);
        let mut planned: Vec<Move> = steps.iter().map(|s| s.mv).collect();
        let mut legal = legal_moves(&board);
        planned.sort_by_key(|m| (m.from as u8, m.to as u8, m.promotion.map(|p| p as u8)));
        legal.sort_by_key(|m| (m.from as u8, m.to as u8, m.promotion.map(|p| p as u8)));
        assert_eq!(planned, legal, "every legal move once");
        steps
            .iter()
            .map(|s| match s.role {
                StepRole::AnswerCheck { mv, answer } => {
                    assert_eq!(mv, s.mv);
                    assert_eq!(s.length, 1);
                    assert_eq!(s.role.zone(), None);
                    (crate::rules::notation::move_to_san(&board, mv), answer)
                }
                other => panic!("not an answer to the check: {other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_lone_king_in_check_must_flee() {
        // The rook on a1 checks along the first rank and covers d1 and f1.
        let list = answers("4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
        let mut names: Vec<&str> = list.iter().map(|(m, _)| m.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, vec!["Kd2", "Ke2", "Kf2"], "{list:?}");
        for (_, answer) in &list {
            assert!(matches!(answer, CheckAnswer::KingFlight { .. }), "{list:?}");
        }
        assert!(list.contains(&(
            "Ke2".to_string(),
            CheckAnswer::KingFlight { to: Square::E2 }
        )));
    }

    #[test]
    fn a_bishop_blocks_the_queen_check() {
        let list = answers("4k3/8/8/8/1q6/8/8/2B1K3 w - - 0 1");
        let block = CheckAnswer::Block {
            checker: Square::B4,
            square: Square::D2,
        };
        assert!(list.contains(&("Bd2".to_string(), block)), "{list:?}");
        // Blocks come before the king's flights; no capture is possible.
        let kinds: Vec<u8> = list.iter().map(|(_, a)| a.order()).collect();
        assert!(kinds.windows(2).all(|w| w[0] <= w[1]), "{list:?}");
        assert!(list
            .iter()
            .all(|(m, a)| matches!(a, CheckAnswer::Block { .. }) == m.starts_with('B')));
    }

    #[test]
    fn the_checking_piece_is_taken() {
        // The knight takes the checking knight; the king's moves are flights.
        let list = answers("4k3/8/8/4n3/6K1/5N2/8/8 w - - 0 1");
        assert_eq!(
            list[0],
            (
                "Nxe5".to_string(),
                CheckAnswer::CaptureChecker {
                    checker: Square::E5
                }
            ),
            "{list:?}"
        );
        assert_eq!(
            list.len(),
            legal_moves(&parse_fen("4k3/8/8/4n3/6K1/5N2/8/8 w - - 0 1", false).unwrap()).len()
        );
        // The king taking an unguarded checking rook takes it too; en passant takes the
        // checking pawn on its own square.
        let rook = answers("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
        let taken = CheckAnswer::CaptureChecker {
            checker: Square::E2,
        };
        assert_eq!(rook[0], ("Kxe2".to_string(), taken), "{rook:?}");
        let pawn = answers("4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 1");
        let taken = CheckAnswer::CaptureChecker {
            checker: Square::D5,
        };
        assert!(pawn.contains(&("exd6".to_string(), taken)), "{pawn:?}");
        assert!(pawn.contains(&("Kxd5".to_string(), taken)), "{pawn:?}");
    }

    #[test]
    fn in_double_check_only_the_king_moves() {
        // The rook and the bishop both check; the knight could take the bishop in a single
        // check, but not now.
        let list = answers("4r1k1/8/8/8/1b6/3N4/8/4K3 w - - 0 1");
        assert!(!list.is_empty());
        for (m, answer) in &list {
            assert!(m.starts_with('K'), "{list:?}");
            assert!(matches!(answer, CheckAnswer::KingFlight { .. }), "{list:?}");
        }
    }

    #[test]
    fn no_answer_without_a_check() {
        let board = parse_fen(DIAGRAM_51, false).unwrap();
        assert!(legal_moves(&board)
            .into_iter()
            .all(|mv| check_answer(&board, mv).is_none()));
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        assert!(planned_steps(&board, &analysis, 3)
            .iter()
            .all(|s| !matches!(s.role, StepRole::AnswerCheck { .. })));
    }

    #[test]
    fn in_check_every_evasion() {
        let board = parse_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let list = zone_moves(&board, &analysis, 3);
        assert_eq!(list.len(), legal_moves(&board).len());
    }
}
