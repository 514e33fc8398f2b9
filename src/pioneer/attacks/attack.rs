//! Attack trajectories: from a root piece (Botvinnik's "комлевая фигура") to an enemy piece,
//! the target, or — for a pawn — to its promotion square.
//!
//! PIONEER: "Building a group of attack trajectories begins with the choice of a root piece and
//! a piece of the other side, the object of the goal. The shortest trajectories on the empty board
//! are taken from memory; then the duration of the movement along them is forecast." When every
//! shortest trajectory has to be lengthened, longer ones with fewer obstacles are built from two
//! fragments (`route::Assessor::longer`).
//!
//! Design note: the promotion of a pawn is treated as one more material goal (queen minus pawn),
//! because in the endgame — Réti's study above all — the struggle for material is the race of a
//! pawn to its last rank against the enemy king's trajectories to its path. A pawn's capturing
//! trajectory is its pushes to a square attacking the target plus the diagonal capture. Each
//! attack is judged at once for the four reasons of rejection (`rejection`); rejected attacks are
//! kept with their reasons, for the plan output. The goal of a mate (`Goal::Mate`, with the
//! `Preparation` a mate may need) is defined here with the others, so that the mate trajectories
//! (`mate`) build on this file and not the other way round; every attack of a side, mates
//! included, is listed by the analysis (`zones::analysis::attacks`).

use crate::pioneer::board::control::ControlRule;
use crate::pioneer::board::pieces::{piece_letter, piece_name};
use crate::pioneer::board::route::{Assessor, Finish, ObstacleKind, Route};
use crate::pioneer::board::trajectory::{bundle, Mover};
use crate::pioneer::rejection::escape::escape_squares;
use crate::pioneer::rejection::reject::{Rejection, Stuck};
use crate::pioneer::rejection::safety::{capture_move, capture_refutation, Refutation};
use crate::rules::see::{capture_gain_against, exchange_after_move};
use crate::rules::{piece_value, BitBoard, Board, Color, Move, Piece, Rank, Square};
use cozy_chess::get_pawn_attacks;

/// Longest attack (forecast) that is postponed rather than dropped when a stop is controlled.
pub const POSTPONE_MAX_FORECAST: u8 = 3;

/// What an attack trajectory is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Capture the enemy piece standing on `target`.
    Capture {
        /// The target's square.
        target: Square,
        /// The target piece.
        piece: Piece,
    },
    /// Promote the pawn on `square`.
    Promote {
        /// The promotion square.
        square: Square,
    },
    /// Mate the enemy king by arriving on `square` (`mate`).
    Mate {
        /// The mating square.
        square: Square,
        /// The move of another piece the mate needs first, counted in the forecast.
        prepared: Option<Preparation>,
    },
}

impl Goal {
    /// The square the trajectory ends on.
    pub fn square(&self) -> Square {
        match *self {
            Goal::Capture { target, .. } => target,
            Goal::Promote { square } | Goal::Mate { square, .. } => square,
        }
    }
}

/// The move of a second piece of the mating side that a mate needs first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preparation {
    /// The preparing piece.
    pub piece: Piece,
    /// Where it stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

impl Preparation {
    /// As a move (a pawn's preparation never promotes).
    pub fn as_move(&self) -> Move {
        Move {
            from: self.from,
            to: self.to,
            promotion: None,
        }
    }

    /// In notation: "N f3–g5".
    pub fn notation(&self) -> String {
        format!("{} {}–{}", piece_letter(self.piece), self.from, self.to)
    }
}

/// An attack trajectory with its judgement.
#[derive(Clone, Debug)]
pub struct Attack {
    /// The attacking side.
    pub side: Color,
    /// The root piece.
    pub piece: Piece,
    /// The goal.
    pub goal: Goal,
    /// The chosen path, its obstacles and timing.
    pub route: Route,
    /// Material the goal is worth in the exchange model, in centipawns.
    pub gain: i32,
    /// Why it was given up (empty: the attack is live).
    pub rejections: Vec<Rejection>,
}

impl Attack {
    /// Is the attack live (no reason to reject it)?
    pub fn live(&self) -> bool {
        self.rejections.is_empty()
    }

    /// Rejected only because the target would run away (its escape moves then matter).
    pub fn only_escapes(&self) -> bool {
        !self.rejections.is_empty()
            && self
                .rejections
                .iter()
                .all(|r| matches!(r, Rejection::TargetEscapes { .. }))
    }

    /// Rejected only because more valuable enemy pieces control stops of the route (rules 2 and
    /// 3): defending those squares lifts the control, so the attack is postponed rather than
    /// dropped — an auxiliary zone, the support trajectories to the controlled squares, comes
    /// first (PIONEER: "play in the main zone should be postponed for play in an auxiliary zone
    /// connected with removing the reason for the rejection").
    /// Only short attacks (`POSTPONE_MAX_FORECAST`) held up by a single piece are postponed: one
    /// cause to remove, however many stops it controls (a king in front of a pawn controls two).
    pub fn postponable(&self) -> bool {
        let stops = self.controlled_stops();
        !self.rejections.is_empty()
            && self.forecast() <= POSTPONE_MAX_FORECAST
            && stops
                .first()
                .is_some_and(|&(_, by)| stops.iter().all(|s| s.1 == by))
            && self.rejections.iter().all(|r| {
                matches!(
                    r,
                    Rejection::Controlled {
                        rule: ControlRule::Undefended | ControlRule::RookAgainstMinor,
                        ..
                    }
                )
            })
    }

    /// Stops the opponent controls (the causes of a postponement), with the controlling piece.
    pub fn controlled_stops(&self) -> Vec<(Square, Square)> {
        self.rejections
            .iter()
            .filter_map(|r| match *r {
                Rejection::Controlled { square, by, .. } => Some((square, by)),
                _ => None,
            })
            .collect()
    }

    /// Forecast duration in the attacker's moves.
    pub fn forecast(&self) -> u8 {
        self.route.forecast()
    }

    /// The root square.
    pub fn root(&self) -> Square {
        self.route.start()
    }

    /// PIONEER's notation: `R e1–a1×a7`, `P h5–h4–h3–h2–h1=Q`, `K a6–b7×c7`.
    pub fn notation(&self) -> String {
        route_notation(self.piece, &self.route, self.goal)
    }

    /// The goal in words: "the a7 pawn", "promotion on h1".
    pub fn goal_words(&self) -> String {
        match self.goal {
            Goal::Capture { target, piece } => format!("the {target} {}", piece_name(piece)),
            Goal::Promote { square } => format!("promotion on {square}"),
            Goal::Mate { square, .. } => format!("mate on {square}"),
        }
    }
}

/// Writes a route as `R e1–a1×a7` (capture), `K h8–g7–f6` (arrival), `P c6–c7–c8=Q`.
pub fn route_notation(piece: Piece, route: &Route, goal: Goal) -> String {
    let mut text = String::new();
    text.push(piece_letter(piece));
    text.push(' ');
    let n = route.squares.len();
    for (i, s) in route.squares.iter().enumerate() {
        if i > 0 {
            let capture = i == n - 1 && matches!(goal, Goal::Capture { .. });
            text.push(if capture { '×' } else { '–' });
        }
        text.push_str(&s.to_string());
    }
    match goal {
        Goal::Promote { .. } => text.push_str("=Q"),
        Goal::Mate { prepared, .. } => {
            text.push('#');
            if let Some(p) = prepared {
                text.push_str(&format!(" after {}", p.notation()));
            }
        }
        Goal::Capture { .. } => {}
    }
    text
}

/// How long the trajectories considered may be.
#[derive(Clone, Copy, Debug)]
pub struct TrajectoryLimits {
    /// Longest attack considered, in moves on the empty board.
    pub max_len: u8,
    /// Longest forecast duration considered.
    pub max_forecast: u8,
}

impl Default for TrajectoryLimits {
    fn default() -> Self {
        TrajectoryLimits {
            max_len: 4,
            max_forecast: 5,
        }
    }
}

/// Converts the obstacles of a route into rejections (reasons 3 and 4).
pub fn obstacle_rejections(route: &Route) -> Vec<Rejection> {
    route
        .hard_obstacles()
        .map(|o| match o.kind {
            ObstacleKind::Controlled(c) => Rejection::Controlled {
                square: c.square,
                by: c.by,
                piece: c.piece,
                rule: c.rule,
            },
            ObstacleKind::Enemy(piece) => Rejection::Blocked {
                square: o.square,
                piece,
            },
            ObstacleKind::OwnBlockedPawn => Rejection::OwnPieceStuck {
                square: o.square,
                piece: Piece::Pawn,
                why: Stuck::BlockedPawn,
            },
            ObstacleKind::OwnPinned(piece) => Rejection::OwnPieceStuck {
                square: o.square,
                piece,
                why: Stuck::Pinned,
            },
            ObstacleKind::OwnImmobile(piece) | ObstacleKind::OwnMovable(piece) => {
                Rejection::OwnPieceStuck {
                    square: o.square,
                    piece,
                    why: Stuck::NoSquare,
                }
            }
        })
        .collect()
}

/// The attack of the piece on `root` against the enemy piece on `target`, judged, or `None` when
/// there is no trajectory within the limits.
pub fn attack_on(
    board: &Board,
    root: Square,
    target: Square,
    limits: TrajectoryLimits,
) -> Option<Attack> {
    let side = board.color_on(root)?;
    let piece = board.piece_on(root)?;
    let victim = board.piece_on(target)?;
    if board.color_on(target) != Some(!side) || victim == Piece::King {
        return None;
    }
    let mover = Mover::new(piece, side);
    let assessor = Assessor::new(board, root, mover, true)?;
    let route = if piece == Piece::Pawn {
        pawn_capture_route(&assessor, root, target, side)?
    } else {
        let shortest = assessor.shortest(target, Finish::Capture)?;
        if shortest.passable() || shortest.len() > 2 {
            shortest
        } else {
            // All shortest trajectories lengthened: look at longer ones with fewer obstacles.
            assessor
                .longer(target, Finish::Capture)
                .into_iter()
                .next()
                .unwrap_or(shortest)
        }
    };
    if route.len() > limits.max_len || route.forecast() > limits.max_forecast {
        return None;
    }
    let gain = exchange_after_move(board, root, target, piece);
    let mut rejections = Vec::new();
    if gain <= 0 {
        rejections.push(Rejection::UnfavourableExchange { value: gain });
    } else if route.len() == 1 {
        if let Some(refutation) = immediate_capture_refutation(board, root, target) {
            rejections.push(Rejection::CaptureRefuted { piece, refutation });
        }
    }
    let attacker_to_move = board.side_to_move() == side;
    let mut route = route;
    let mut escapes = escape_squares(board, &route, target, attacker_to_move);
    // A two-move trajectory may choose its middle square: prefer one from which the target
    // stays hit wherever it runs (PIONEER: the target must not be mobile enough to escape).
    if !escapes.is_empty() && route.len() == 2 && piece != Piece::Pawn {
        if let Some(b) = bundle(mover, root, target) {
            let mut good = BitBoard::EMPTY;
            let mut best: Option<(u32, Route)> = None;
            for middle in b.step(1) {
                let r = assessor.route(&[root, middle, target], Finish::Capture);
                if !r.passable() || r.forecast() > route.forecast() {
                    continue;
                }
                let e = escape_squares(board, &r, target, attacker_to_move);
                if e.is_empty() {
                    good |= middle.bitboard();
                }
                if best.as_ref().is_none_or(|(n, _)| e.len() < *n) {
                    best = Some((e.len(), r));
                }
            }
            if let Some((_, r)) = best {
                escapes = escape_squares(board, &r, target, attacker_to_move);
                route = r;
                if !good.is_empty() {
                    route.first_steps = good;
                }
            }
        }
    }
    if !escapes.is_empty() {
        rejections.push(Rejection::TargetEscapes { squares: escapes });
    }
    rejections.extend(obstacle_rejections(&route));
    Some(Attack {
        side,
        piece,
        goal: Goal::Capture {
            target,
            piece: victim,
        },
        route,
        gain,
        rejections,
    })
}

/// Does the piece on `root` lose, itself or another piece, once it takes on `target` at once?
/// When the opponent is to move the capture is judged as if it were the attacker's turn (no
/// judgement when in check).
fn immediate_capture_refutation(board: &Board, root: Square, target: Square) -> Option<Refutation> {
    let side = board.color_on(root)?;
    let position = if board.side_to_move() == side {
        board.clone()
    } else {
        board.null_move()?
    };
    capture_refutation(&position, capture_move(&position, root, target))
}

fn pawn_capture_route(
    assessor: &Assessor,
    root: Square,
    target: Square,
    side: Color,
) -> Option<Route> {
    let mover = Mover::Pawn(side);
    let approach = (get_pawn_attacks(target, !side) & root.file().bitboard()).next_square()?;
    let mut stops = if approach == root {
        vec![root]
    } else {
        let b = bundle(mover, root, approach)?;
        b.paths(mover, 1).into_iter().next()?
    };
    stops.push(target);
    Some(assessor.route(&stops, Finish::Capture))
}

/// The promotion trajectory of the pawn on `pawn`, judged (`None` if it is not a pawn).
pub fn promotion(board: &Board, pawn: Square, limits: TrajectoryLimits) -> Option<Attack> {
    let side = board.color_on(pawn)?;
    if board.piece_on(pawn)? != Piece::Pawn {
        return None;
    }
    let square = Square::new(pawn.file(), Rank::Eighth.relative_to(side));
    let mover = Mover::Pawn(side);
    let assessor = Assessor::new(board, pawn, mover, true)?;
    let b = bundle(mover, pawn, square)?;
    let route = assessor.best_in_bundle(b, Finish::Arrive);
    if route.len() > limits.max_len + 1 {
        return None;
    }
    // The new queen must survive on its square.
    let lost = capture_gain_against(board, pawn, square, Piece::Queen).map_or(0, |g| g.max(0));
    let gain = piece_value(Piece::Queen) - piece_value(Piece::Pawn) - lost;
    let mut rejections = promotion_obstacles(board, &route);
    // When the promotion square is controlled by a more valuable piece (reason 3), the loss of
    // the new queen there is the same fact: it is not counted twice as reason 1, so that the
    // attack stays postponable (defending the square lifts both).
    let square_controlled = rejections
        .iter()
        .any(|r| matches!(r, Rejection::Controlled { square: s, .. } if *s == square));
    if gain <= 0 && !square_controlled {
        rejections.insert(0, Rejection::UnfavourableExchange { value: gain });
    }
    Some(Attack {
        side,
        piece: Piece::Pawn,
        goal: Goal::Promote { square },
        route,
        gain,
        rejections,
    })
}

/// For a pawn, control of a stop only counts where the pawn would be lost there; the route
/// obstacles already say that (rule 2 for pieces, rule 1 for pawns). Enemy pieces in front
/// block for good.
fn promotion_obstacles(_board: &Board, route: &Route) -> Vec<Rejection> {
    obstacle_rejections(route)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_fen;

    use crate::pioneer::examples::{DIAGRAM_51, DIAGRAM_52, FISCHER_SPASSKY_6};

    #[test]
    fn rook_manoeuvre_e1_a1_a7() {
        let board = parse_fen(DIAGRAM_51, false).unwrap();
        let a = attack_on(&board, Square::E1, Square::A7, TrajectoryLimits::default()).unwrap();
        assert!(a.live(), "{:?}", a.rejections);
        assert_eq!(a.notation(), "R e1–a1×a7");
        assert_eq!(a.forecast(), 3);
        assert_eq!(a.gain, 100);
        assert_eq!(a.goal_words(), "the a7 pawn");
    }

    #[test]
    fn bishop_manoeuvre_h6_g5_f6() {
        // PIONEER's diagram 52 (rebuilt): B h6–g5×f6 against the knight f6, which has no square to
        // run to (d5, g4 and e4 are controlled, d7, e8, g8, h5 and h7 taken by its own side).
        let board = parse_fen(DIAGRAM_52, false).unwrap();
        let a = attack_on(&board, Square::H6, Square::F6, TrajectoryLimits::default()).unwrap();
        assert_eq!(a.notation(), "B h6–g5×f6");
        assert_eq!(a.forecast(), 2);
        assert_eq!(a.gain, 320);
        assert!(a.live(), "{:?}", a.rejections);
        // Give the knight the square d7 and the attack is refuted: the target runs.
        let board = parse_fen(
            "4r1k1/5p1p/p4npB/4p2p/2P5/3BR2P/PP3PP1/6K1 w - - 0 1",
            false,
        )
        .unwrap();
        let a = attack_on(&board, Square::H6, Square::F6, TrajectoryLimits::default()).unwrap();
        assert_eq!(
            a.rejections,
            vec![Rejection::TargetEscapes {
                squares: Square::D7.bitboard()
            }]
        );
    }

    #[test]
    fn rejections_record_their_reasons() {
        // Reason 1: the rook would take a pawn defended by a pawn.
        let board = parse_fen("4k3/8/1p6/p7/8/8/8/R3K3 w - - 0 1", false).unwrap();
        let a = attack_on(&board, Square::A1, Square::A5, TrajectoryLimits::default()).unwrap();
        assert!(a.rejections.iter().any(|r| r.number() == 1));
        // Reason 3: the rook's way to a5 along the fifth rank is blocked, a2 controlled.
        let board = parse_fen(crate::pioneer::examples::DIAGRAM_53, false).unwrap();
        let a = attack_on(&board, Square::D2, Square::A5, TrajectoryLimits::default()).unwrap();
        // The two-fragment trajectory d2–d1–a1×a5 is found instead, and it is live.
        assert_eq!(a.notation(), "R d2–d1–a1×a5");
        assert_eq!(a.forecast(), 3);
        assert!(a.live(), "{:?}", a.rejections);
        // Reason 4: own blocked pawn on the file. The direct route is rejected; a longer one
        // round the pawn (three moves, from two fragments) takes its place.
        let board = parse_fen("3n2k1/8/3p4/3P4/8/8/8/3R2K1 w - - 0 1", false).unwrap();
        let assessor = Assessor::new(&board, Square::D1, Mover::Rook, true).unwrap();
        let direct = assessor.shortest(Square::D8, Finish::Capture).unwrap();
        let reasons = obstacle_rejections(&direct);
        assert!(reasons.iter().any(|r| r.number() == 4), "{reasons:?}");
        assert!(reasons.iter().any(|r| r.number() == 3), "{reasons:?}");
        let a = attack_on(&board, Square::D1, Square::D8, TrajectoryLimits::default()).unwrap();
        assert_eq!(a.route.len(), 3);
        assert!(a.route.passable());
        assert!(a.rejections.iter().all(|r| r.number() != 4));
        // Reason 2: a lone knight attacked from afar runs away.
        let board = parse_fen("4k3/8/8/3n4/8/8/8/R3K3 w - - 0 1", false).unwrap();
        let a = attack_on(&board, Square::A1, Square::D5, TrajectoryLimits::default()).unwrap();
        assert!(a.rejections.iter().any(|r| r.number() == 2));
        assert!(!a.live());
    }

    #[test]
    fn a_pawn_held_up_by_one_piece_is_postponed() {
        // The king on c8 controls d7 and d8: one cause to remove (1.Kc6 defends d7, the
        // escort), so the promotion waits for it instead of being dropped.
        let board = parse_fen("2k5/8/1K1P4/8/8/8/8/8 w - - 0 1", false).unwrap();
        let a = promotion(&board, Square::D6, TrajectoryLimits::default()).unwrap();
        assert_eq!(a.controlled_stops().len(), 2);
        assert!(!a.live() && a.postponable());
        // The rook on h7 controls d7 and the knight on b7 controls d8: two causes, dropped.
        let board = parse_fen("7k/1n5r/3P4/8/8/8/8/K7 w - - 0 1", false).unwrap();
        let a = promotion(&board, Square::D6, TrajectoryLimits::default()).unwrap();
        assert_eq!(a.controlled_stops().len(), 2);
        assert!(!a.live() && !a.postponable());
    }

    #[test]
    fn a_capture_that_traps_the_capturer_is_rejected() {
        // 20.Bxa6 wins the a6 pawn in the exchange on a6, but 20...Rc6 wins the bishop.
        let board = parse_fen(FISCHER_SPASSKY_6, false).unwrap();
        let a = attack_on(&board, Square::E2, Square::A6, TrajectoryLimits::default()).unwrap();
        assert_eq!(a.gain, 100);
        assert!(!a.live() && !a.postponable() && !a.only_escapes());
        assert!(
            a.rejections.iter().any(|r| matches!(
                r,
                Rejection::CaptureRefuted { piece: Piece::Bishop, refutation }
                    if refutation.reply == "c8c6".parse().unwrap()
            )),
            "{:?}",
            a.rejections
        );
        // The same capture judged with Black to move (as a threat) is rejected too.
        let board = board.null_move().unwrap();
        let a = attack_on(&board, Square::E2, Square::A6, TrajectoryLimits::default()).unwrap();
        assert!(a.rejections.iter().any(|r| r.number() == 1));
        // A bishop that can step back after taking stays live: 1.Bxa5 b6 2.Bb4.
        let board = parse_fen("6k1/1pp2ppp/8/p7/8/8/3B1PPP/6K1 w - - 0 1", false).unwrap();
        let a = attack_on(&board, Square::D2, Square::A5, TrajectoryLimits::default()).unwrap();
        assert!(a.live(), "{:?}", a.rejections);
    }

    #[test]
    fn pawn_trajectories() {
        let board = parse_fen("7K/8/k1P5/7p/8/8/8/8 w - - 0 1", false).unwrap();
        let h = promotion(&board, Square::H5, TrajectoryLimits::default()).unwrap();
        assert_eq!(h.notation(), "P h5–h4–h3–h2–h1=Q");
        assert_eq!(h.forecast(), 4);
        assert!(h.live());
        let c = promotion(&board, Square::C6, TrajectoryLimits::default()).unwrap();
        assert_eq!(c.notation(), "P c6–c7–c8=Q");
        // A pawn capture: pushes then the diagonal step.
        let board = parse_fen("4k3/8/8/3n4/8/8/2P5/4K3 w - - 0 1", false).unwrap();
        let a = attack_on(&board, Square::C2, Square::D5, TrajectoryLimits::default()).unwrap();
        assert_eq!(a.notation(), "P c2–c4×d5");
        assert_eq!(a.forecast(), 2);
    }
}
