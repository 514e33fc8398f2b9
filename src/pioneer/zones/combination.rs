//! Combinations: moves that take a hindering enemy piece's function away, at any material price.
//!
//! PIONEER: "If the gain is not reached, its cause must be found" — and a cause is often one
//! enemy piece: it defends the target, controls a stop, blocks the line, or alone guards the
//! square of a mate. The seed's program "finds combinations that occurred in practical games":
//! it acts against that piece even at a material cost and searches the zone that opens.
//!
//! Design note: read off an analysis already made, like the change of goal. The side to move's
//! zones that do not win, and its attacks given up, name their *defenders* (`Defender`): the
//! counter pieces in time and the controllers of a postponed zone's stops; the defenders of a
//! target whose exchange fails, the controllers of a stop and the pieces blocking a line of an
//! attack given up; and the pieces that alone guard a square against a mate in one
//! (`rejection::duty`). Each defender is worth its *stake*: what the hindered play wins once it
//! is gone (the exchange on the target without it, the attack's gain, a mate). Six methods then
//! generate the legal moves against a defender (`Method`): take it, attack it with a threat it
//! must answer, offer it a piece whose capture pulls it off its square, stand between it and
//! what it guards, give it a second duty to fulfil, and — against our own piece in the way —
//! clear the line with a check, a capture or a sacrifice. A combination is kept only when its
//! stake exceeds what the move gives up by the exchange (`cost`); the search, not this file,
//! decides whether it works (`explain`).

use super::analysis::Analysis;
use super::hindrance::Hindrance;
use super::zone::ZoneVerdict;
use crate::pioneer::attacks::attack::{Attack, Goal};
use crate::pioneer::attacks::hunt::{hunt, offer, HuntLimits};
use crate::pioneer::board::arrival::{mating_move, threatens_mate, MATE_GAIN};
use crate::pioneer::board::route::ObstacleKind;
use crate::pioneer::counters::counter::CounterKind;
use crate::pioneer::rejection::duty::duty_of;
use crate::pioneer::rejection::reject::Rejection;
use crate::rules::see::{attackers_to, exchange_without, see};
use crate::rules::{is_capture, legal_moves, piece_value, Board, Move, Piece, Square};
use cozy_chess::get_between_rays;

/// How a combination takes the defender's function away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Method {
    /// The defender is captured, whatever the exchange.
    Removal,
    /// The defender is attacked by a less valuable piece (or left undefended): it must leave its
    /// post or be lost.
    Deflection,
    /// A piece is offered, with check or a capture, on a square the defender covers: taking it
    /// pulls the defender away from what it guards.
    Decoy,
    /// A piece stands between a long-range defender and the square it guards.
    Interference,
    /// Our own piece in the line of an attack leaves it with a check, a capture or a sacrifice.
    Clearance,
    /// The defender guards two things: the move strikes at one, so that the other falls.
    Overloading,
    /// The king defends its own square: a check, often a sacrifice, begins a forced line of
    /// checks that mates or wins more than it gives (`attacks::hunt`).
    KingHunt,
    /// A piece offered with a threat, and no check: ignored, the threat wins more than the
    /// piece; taken, the capture opens a line to the king, or lets a second sacrifice begin a
    /// king hunt that exists only after the first (`attacks::hunt::offer`).
    Offer,
}

impl Method {
    /// The method's name in the JSON and the docs: "deflection", "king_hunt".
    pub fn name(self) -> &'static str {
        match self {
            Method::Removal => "removal",
            Method::Deflection => "deflection",
            Method::Decoy => "decoy",
            Method::Interference => "interference",
            Method::Clearance => "clearance",
            Method::Overloading => "overloading",
            Method::KingHunt => "king_hunt",
            Method::Offer => "offer",
        }
    }

    /// The method's name in words: "deflection", "king hunt".
    pub fn words(self) -> &'static str {
        match self {
            Method::KingHunt => "king hunt",
            other => other.name(),
        }
    }
}

/// What a defender does on the square it guards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guard {
    /// It defends the target of the attack.
    DefendsTarget,
    /// It controls a stop of the attack.
    ControlsSquare,
    /// It stands on, or comes to, a square of the attack's line.
    BlocksSquare,
    /// It alone keeps the opponent from mating on the square.
    GuardsMate,
    /// Our own piece stands in the way of our attack (the defender of a clearance).
    InTheWay,
    /// The king, hunted by checks, defends its own square (the defender of a king hunt).
    OwnSquare,
    /// It takes the offered piece, and its capture opens the way (the defender of an offer).
    TakesOffer,
}

/// A piece that hinders the play of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defender {
    /// Where it stands.
    pub square: Square,
    /// The piece.
    pub piece: Piece,
    /// What it does.
    pub guard: Guard,
    /// The square it guards (the target, a stop, a square of the line, the mating square).
    pub guards: Square,
    /// The play it hinders, and how.
    pub hindrance: Hindrance,
    /// What that play wins once the defender is gone, in the exchange model's centipawns.
    pub stake: i32,
}

/// A move against a defender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Combination {
    /// How it acts.
    pub method: Method,
    /// The move.
    pub mv: Move,
    /// The defender it acts against.
    pub defender: Defender,
    /// For an overloading, the duty the move strikes at (the defender's other duty is
    /// `defender`).
    pub struck: Option<Defender>,
    /// What the move gives up by the exchange on its square, in centipawns (0 when nothing).
    pub cost: i32,
}

impl Combination {
    /// What the combination plays for: the defender's stake, or for an overloading the larger
    /// of its two duties'.
    pub fn stake(&self) -> i32 {
        self.struck
            .map_or(self.defender.stake, |s| s.stake.max(self.defender.stake))
    }

    /// Is the combination worth its price: does its stake exceed what it gives up? A king
    /// hunt that gives material up and only wins it back is kept too: the sacrifice keeps the
    /// initiative, and the search judges what it is worth (AVRO 1938: 31.Nh5+ g×h5 32.Qg5+).
    pub fn worth_its_price(&self) -> bool {
        let returned = self.method == Method::KingHunt && self.cost > 0;
        self.stake() > self.cost || (returned && self.stake() == self.cost)
    }

    /// The moves the hindered play takes once the defender is gone: its attack's forecast in
    /// `analysis` (the one the combination was read from), one for a mate in one.
    pub fn play_length(&self, analysis: &Analysis) -> u8 {
        analysis
            .hindered_attack(self.defender.hindrance)
            .map_or(1, Attack::forecast)
    }
}

/// The defenders against the side to move's play in `analysis` of `board`, each (piece, guarded
/// square, hindrance) once, largest stake first.
pub fn defenders(board: &Board, analysis: &Analysis) -> Vec<Defender> {
    let us = board.side_to_move();
    let mut out: Vec<Defender> = Vec::new();
    let mut add =
        |square: Square, guard: Guard, guards: Square, hindrance: Hindrance, stake: i32| {
            let Some(piece) = board.piece_on(square) else {
                return;
            };
            let own = board.color_on(square) == Some(us);
            // The target of the hindered attack defends itself by no duty: attacking it is the
            // attack itself.
            let target = analysis.hindered_attack(hindrance).map(|a| a.goal);
            let is_target =
                matches!(target, Some(Goal::Capture { target, .. }) if target == square);
            if stake <= 0 || is_target || own != (guard == Guard::InTheWay) {
                return;
            }
            let d = Defender {
                square,
                piece,
                guard,
                guards,
                hindrance,
                stake,
            };
            if !out.contains(&d) {
                out.push(d);
            }
        };
    for (zone, z) in analysis.zones_of(us) {
        let stake = z.attack.gain;
        match z.verdict {
            ZoneVerdict::Wins => continue,
            ZoneVerdict::Postponed => {
                for (stop, by) in z.attack.controlled_stops() {
                    let hindrance = Hindrance::Controls { zone, square: stop };
                    add(by, Guard::ControlsSquare, stop, hindrance, stake);
                }
            }
            ZoneVerdict::Defended | ZoneVerdict::Contested => {
                for (counter, c) in z.indexed_timely_counters() {
                    let (guard, guards) = match c.kind {
                        CounterKind::DefendTarget => (Guard::DefendsTarget, z.attack.goal.square()),
                        CounterKind::ControlStop { square, .. }
                        | CounterKind::DenyPreparation { square } => {
                            (Guard::ControlsSquare, square)
                        }
                        CounterKind::Block { square, .. } => (Guard::BlocksSquare, square),
                        _ => continue,
                    };
                    let hindrance = Hindrance::Counter { zone, counter };
                    add(c.square(), guard, guards, hindrance, stake);
                }
            }
        }
        own_obstacles(&z.attack, Hindrance::InTheWay { zone }, stake, &mut add);
    }
    for (index, a) in analysis.rejected.iter().enumerate() {
        if a.side != us {
            continue;
        }
        let hindrance = Hindrance::Rejected { rejected: index };
        for r in &a.rejections {
            match *r {
                Rejection::UnfavourableExchange { .. } | Rejection::CaptureRefuted { .. } => {
                    let Goal::Capture { target, .. } = a.goal else {
                        continue;
                    };
                    let guards = attackers_to(board, target, board.occupied()) & board.colors(!us);
                    for by in guards {
                        let stake = exchange_without(board, target, us, by);
                        add(by, Guard::DefendsTarget, target, hindrance, stake);
                    }
                }
                Rejection::Controlled { square, by, .. } => {
                    let stake = stake_without(board, a, by);
                    add(by, Guard::ControlsSquare, square, hindrance, stake);
                }
                Rejection::Blocked { square, .. } => {
                    let stake = stake_without(board, a, square);
                    add(square, Guard::BlocksSquare, square, hindrance, stake);
                }
                Rejection::TargetEscapes { .. } | Rejection::OwnPieceStuck { .. } => {}
            }
        }
        own_obstacles(a, hindrance, a.gain, &mut add);
    }
    for square in board.colors(!us) {
        if let Some(duty) = duty_of(board, square).filter(|d| d.mate) {
            add(
                square,
                Guard::GuardsMate,
                duty.charge,
                Hindrance::Mate,
                MATE_GAIN,
            );
        }
    }
    out.sort_by_key(|d| -d.stake);
    out
}

/// What `attack`, given up for a stop controlled or a line blocked, would win without the
/// enemy piece on `lifted`: the exchange on the target without it; for a promotion, the new
/// queen's worth when no other enemy piece stands on the pawn's path or guards its square.
fn stake_without(board: &Board, attack: &Attack, lifted: Square) -> i32 {
    let them = board.colors(!attack.side) & !lifted.bitboard();
    let without = match attack.goal {
        Goal::Capture { target, .. } => exchange_without(board, target, attack.side, lifted),
        Goal::Promote { square } => {
            let path = attack.route.used_squares() | square.bitboard();
            let occupied = board.occupied() & !lifted.bitboard();
            let guarded = !(attackers_to(board, square, occupied) & them).is_empty();
            let blocked = !(path & them).is_empty();
            if guarded || blocked {
                0
            } else {
                piece_value(Piece::Queen) - piece_value(Piece::Pawn)
            }
        }
        Goal::Mate { .. } => MATE_GAIN,
    };
    without.max(attack.gain)
}

/// Our own pieces on the route of `attack`, whose plan `hindrance` names (a clearance's
/// defenders).
fn own_obstacles(
    attack: &Attack,
    hindrance: Hindrance,
    stake: i32,
    add: &mut impl FnMut(Square, Guard, Square, Hindrance, i32),
) {
    for o in &attack.route.obstacles {
        if matches!(
            o.kind,
            ObstacleKind::OwnMovable(_) | ObstacleKind::OwnImmobile(_)
        ) {
            add(o.square, Guard::InTheWay, o.square, hindrance, stake);
        }
    }
}

/// The combinations of the side to move in `analysis` of `board` read off the analysis alone
/// (`defenders`): the legal moves against a defender by some method, kept when worth their
/// price, ordered as `combinations` orders them. Cheap enough for every node of a zone search
/// (`play::admission`), where the attacker's checks are searched anyway.
pub fn static_combinations(board: &Board, analysis: &Analysis) -> Vec<Combination> {
    let moves = played_moves(board);
    let out = against_defenders(board, analysis, &moves);
    ordered(board, &moves, out)
}

/// Every combination of the side to move in `analysis` of `board`: those against a defender
/// (`static_combinations`), then of the other moves the checks that hunt the king and the
/// offers whose capture lets a hunt begin (`attacks::hunt`), each kept when worth its price
/// (`worth_its_price`); best
/// first — checks, then captures, then the rest, each by the largest stake less cost, then the
/// smallest cost — and each move once, with its best reason.
pub fn combinations(board: &Board, analysis: &Analysis) -> Vec<Combination> {
    let moves = played_moves(board);
    let mut out = against_defenders(board, analysis, &moves);
    // A move against a defender is read as such: it names the hindering piece it acts on, and
    // no hunt's tree is grown for it.
    let others = moves
        .iter()
        .filter(|(mv, _)| !out.iter().any(|c| c.mv == *mv));
    let hunts = hunts(board, others);
    out.extend(hunts);
    ordered(board, &moves, out)
}

/// Each legal move of `board` with the position after it, played once for every use.
fn played_moves(board: &Board) -> Vec<(Move, Board)> {
    legal_moves(board)
        .into_iter()
        .map(|mv| (mv, played(board, mv)))
        .collect()
}

/// A combination of `mv` in `board`, if it is worth its price.
fn priced(
    board: &Board,
    method: Method,
    mv: Move,
    defender: Defender,
    struck: Option<Defender>,
) -> Option<Combination> {
    let c = Combination {
        method,
        mv,
        defender,
        struck,
        cost: (-see(board, mv)).max(0),
    };
    c.worth_its_price().then_some(c)
}

/// The combinations against the defenders of `analysis`, by every method but the hunts.
fn against_defenders(
    board: &Board,
    analysis: &Analysis,
    moves: &[(Move, Board)],
) -> Vec<Combination> {
    let defenders = defenders(board, analysis);
    let mut out = Vec::new();
    for d in &defenders {
        for (mv, after) in moves {
            if let Some(method) = method_against(board, *mv, after, d) {
                out.extend(priced(board, method, *mv, *d, None));
            }
        }
        // Overloading: the same piece with another duty, struck at on its square (the king
        // is only lured).
        let others = defenders.iter().filter(|o| {
            d.piece != Piece::King
                && o.square == d.square
                && o.guards != d.guards
                && o.guards != d.square
                && o != &d
        });
        for other in others {
            for (mv, _) in moves.iter().filter(|(mv, _)| mv.to == other.guards) {
                out.extend(priced(board, Method::Overloading, *mv, *d, Some(*other)));
            }
        }
    }
    out
}

/// The king as the defender of its own square: the checks that hunt it and the sacrifices
/// without check whose capture lets a hunt begin (`attacks::hunt`).
fn hunts<'a>(board: &Board, moves: impl Iterator<Item = &'a (Move, Board)>) -> Vec<Combination> {
    let us = board.side_to_move();
    let Some(king) = (board.pieces(Piece::King) & board.colors(!us)).next_square() else {
        return Vec::new();
    };
    let limits = HuntLimits::default();
    let mut out = Vec::new();
    for (mv, after) in moves {
        let cost = (-see(board, *mv)).max(0);
        let found = if !after.checkers().is_empty() {
            hunt(board, *mv, limits).map(|h| {
                let hunted = Defender {
                    square: king,
                    piece: Piece::King,
                    guard: Guard::OwnSquare,
                    guards: king,
                    hindrance: Hindrance::Mate,
                    stake: cost + h.net,
                };
                (Method::KingHunt, hunted)
            })
        } else if cost > 0 {
            offer(board, *mv, limits).and_then(|o| {
                let taker = Defender {
                    square: o.taker,
                    piece: board.piece_on(o.taker)?,
                    guard: Guard::TakesOffer,
                    guards: mv.to,
                    hindrance: Hindrance::Mate,
                    stake: cost + o.taken.net,
                };
                Some((Method::Offer, taker))
            })
        } else {
            None
        };
        if let Some((method, defender)) = found {
            out.extend(priced(board, method, *mv, defender, None));
        }
    }
    out
}

/// `found` best first (see `combinations`), each move once.
fn ordered(
    board: &Board,
    moves: &[(Move, Board)],
    mut found: Vec<Combination>,
) -> Vec<Combination> {
    // Checks first, then captures, as a combination's forcing moves are tried first: the
    // opponent must answer them, so the line stays short.
    let gives_check = |mv: Move| {
        moves
            .iter()
            .any(|(m, after)| *m == mv && !after.checkers().is_empty())
    };
    found.sort_by_cached_key(|c| {
        let forcing = if gives_check(c.mv) {
            0
        } else if is_capture(board, c.mv) {
            1
        } else {
            2
        };
        (forcing, -(c.stake() - c.cost), c.cost)
    });
    let mut seen: Vec<Move> = Vec::new();
    found.retain(|c| {
        let new = !seen.contains(&c.mv);
        seen.push(c.mv);
        new
    });
    found
}

/// The method by which `mv`, played in `board` to give `after`, acts against `d`, if any (the
/// first that applies, in the order of `Method`).
fn method_against(board: &Board, mv: Move, after: &Board, d: &Defender) -> Option<Method> {
    let us = board.side_to_move();
    if d.guard == Guard::InTheWay {
        if mv.from != d.square {
            return None;
        }
        let check = !after.checkers().is_empty();
        let tempo = check || is_capture(board, mv) || see(board, mv) < 0;
        return tempo.then_some(Method::Clearance);
    }
    // The king is neither taken nor chased off by a threat: it is only lured (a decoy).
    let king = d.piece == Piece::King;
    if mv.to == d.square && !king {
        return Some(Method::Removal);
    }
    let moved = after.piece_on(mv.to)?;
    let attackers = attackers_to(after, d.square, after.occupied());
    // Deflection: the moved piece now attacks the defender, which is worth more or undefended.
    let new_attack =
        attackers.has(mv.to) && !attackers_to(board, d.square, board.occupied()).has(mv.from);
    if new_attack && !king {
        let defended = !(attackers & after.colors(!us)).is_empty();
        if piece_value(d.piece) > piece_value(moved) || !defended {
            return Some(Method::Deflection);
        }
    }
    // Decoy: a check or a capture on a square the defender covers, whose capture by the
    // defender leaves what it guards. Against the guard of a mating square the offer may stand
    // on that square itself, and a threat of mate in one forces as well as a check: the guard
    // that takes there is then mated on it (WAC 1: Q g3–g6, f×g6, N e5×g6#).
    let forcing = !after.checkers().is_empty() || is_capture(board, mv);
    let take = Move {
        from: d.square,
        to: mv.to,
        promotion: None,
    };
    // The guard must be able to take the offer at all.
    let decoy = after.is_legal(take)
        && if mv.to != d.guards {
            forcing && {
                let taken = played(after, take);
                !attackers_to(&taken, d.guards, taken.occupied()).has(mv.to)
            }
        } else {
            d.guard == Guard::GuardsMate
                && (forcing || threatens_mate(after))
                && mating_move(&played(after, take)).is_some()
        };
    if decoy {
        return Some(Method::Decoy);
    }
    if king {
        return None;
    }
    // Interference: between a long-range defender and its square.
    let slides = matches!(d.piece, Piece::Bishop | Piece::Rook | Piece::Queen);
    let between = get_between_rays(d.square, d.guards);
    if slides && between.has(mv.to) && !between.has(mv.from) {
        let guarded = attackers_to(board, d.guards, board.occupied()).has(d.square);
        if guarded {
            return Some(Method::Interference);
        }
    }
    None
}

/// `board` with `mv` played.
fn played(board: &Board, mv: Move) -> Board {
    let mut after = board.clone();
    after.play_unchecked(mv);
    after
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::attacks::attack::TrajectoryLimits;
    use crate::pioneer::zones::combination_text::combination_text;
    use crate::rules::parse_fen;

    fn combos(fen: &str) -> (Board, Analysis, Vec<Combination>) {
        let board = parse_fen(fen, false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let combos = combinations(&board, &analysis);
        (board, analysis, combos)
    }

    fn uci(board: &Board, text: &str) -> Move {
        crate::rules::notation::move_from_uci(board, text, false).unwrap()
    }

    /// The combination of `found` whose move is `text` in `board`; fails with `why` if none.
    fn proposed<'a>(
        board: &Board,
        found: &'a [Combination],
        text: &str,
        why: &str,
    ) -> &'a Combination {
        let mv = uci(board, text);
        found.iter().find(|c| c.mv == mv).expect(why)
    }

    #[test]
    fn a_rook_that_alone_guards_the_back_rank_is_taken_or_deflected() {
        // The rook c8 alone keeps R e1–e8 from mating; White's queen can take it (a
        // sacrifice: the queen is lost to nothing, but the mate follows).
        let (board, analysis, combos) = combos("2r3k1/5ppp/8/8/8/8/2Q2PPP/4R1K1 w - - 0 1");
        let removal = proposed(&board, &combos, "c2c8", "Q c2×c8 removes the guard of e8");
        assert_eq!(removal.method, Method::Removal);
        assert_eq!(removal.defender.guard, Guard::GuardsMate);
        assert_eq!(removal.defender.guards, Square::E8);
        let text = combination_text(&analysis, &board, removal);
        assert!(
            text.starts_with("White: Q c2×c8 removes the rook on c8, which alone guards e8 against mate (removal"),
            "{text}"
        );
    }

    #[test]
    fn every_combination_is_legal_and_worth_its_price() {
        for fen in [
            "2r3k1/5ppp/8/8/8/8/2Q2PPP/4R1K1 w - - 0 1",
            crate::pioneer::examples::DIAGRAM_52,
            crate::pioneer::examples::DIAGRAM_51,
            "r2qk2r/pp1b1n1p/3b2p1/2nPp3/1B2P3/Q2B4/P3N1PP/2R2R1K w kq - 0 22",
        ] {
            let (board, _, combos) = combos(fen);
            for c in &combos {
                assert!(board.is_legal(c.mv), "{fen}: {c:?}");
                assert!(c.worth_its_price(), "{c:?}");
                assert_eq!(c.cost, (-see(&board, c.mv)).max(0));
                let enemy = board.color_on(c.defender.square) != Some(board.side_to_move());
                assert_eq!(enemy, c.method != Method::Clearance, "{c:?}");
            }
        }
    }

    #[test]
    fn a_bishop_attacking_the_blockading_queen_is_a_deflection() {
        // The queen e7 blockades the e-pawn; B b2–a3 attacks it with a less valuable piece.
        let (board, analysis, combos) = combos("6k1/4q3/4P3/8/8/8/1B6/6K1 w - - 0 1");
        let ba3 = proposed(&board, &combos, "b2a3", "B b2–a3 deflects the queen");
        assert_eq!(ba3.method, Method::Deflection);
        assert_eq!(ba3.defender.square, Square::E7);
        assert_eq!(ba3.cost, 330, "the queen takes the bishop, as 30…Qxa3 did");
        let text = combination_text(&analysis, &board, ba3);
        assert!(text.contains("attacks the queen on e7, which"), "{text}");
        assert!(
            text.ends_with("(deflection; the exchange gives up 3.30)"),
            "{text}"
        );
    }

    #[test]
    fn a_queen_offered_on_the_mating_square_is_a_decoy() {
        // Win at Chess no. 1: the pawn f7 alone keeps N e5–g6 from mating; Q g3–g6 threatens
        // Q×h7# and, taken by the pawn, leaves N e5×g6#.
        let (board, analysis, found) =
            combos("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
        let qg6 = proposed(&board, &found, "g3g6", "Q g3–g6 decoys the pawn f7");
        assert_eq!(qg6.method, Method::Decoy);
        assert_eq!(qg6.defender.square, Square::F7);
        assert_eq!(qg6.defender.guards, Square::G6);
        let text = combination_text(&analysis, &board, qg6);
        assert!(
            text.starts_with("White: Q g3–g6 offers the queen to the pawn on f7, which alone guards g6 against mate"),
            "{text}"
        );
        // A quiet offer that threatens nothing is no decoy: with the knight f6 gone, Q×h7 is no
        // mate and the queen on g6 threatens none.
        let (board, _, found) =
            combos("2rr3k/pp3pp1/1nnqb2p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
        assert!(!found
            .iter()
            .any(|c| c.mv == uci(&board, "g3g6") && c.method == Method::Decoy));
    }

    #[test]
    fn a_knight_between_the_back_rank_guard_and_its_square_interferes() {
        // The rook a8 alone guards e8 against R e1–e8#; N c6–d8 stands between them.
        let (board, analysis, combos) = combos("r5k1/5ppp/2N5/8/8/8/5PPP/4R1K1 w - - 0 1");
        let nd8 = proposed(&board, &combos, "c6d8", "N c6–d8 interferes");
        assert_eq!(nd8.method, Method::Interference);
        assert_eq!(nd8.defender.square, Square::A8);
        assert_eq!(
            combination_text(&analysis, &board, nd8),
            "White: N c6–d8 cuts off the rook on a8, which alone guards e8 against mate \
             (interference; the exchange gives up 3.20)"
        );
        for c in combos.iter().filter(|c| c.method == Method::Interference) {
            assert!(get_between_rays(c.defender.square, c.defender.guards).has(c.mv.to));
        }
    }

    #[test]
    fn avro_1938_two_sacrifices_in_a_row() {
        // 30.Ba3 is an offer: the queen that takes it lets 31.Nh5+ begin a hunt. After
        // 30…Q×a3, 31.Nh5+ is a king hunt. Neither is read off the analysis alone.
        let (board, analysis, found) =
            combos("8/p3q1kp/1p2Pnp1/3pQ3/2pP4/1nP3N1/1B4PP/6K1 w - - 0 30");
        let ba3 = proposed(&board, &found, "b2a3", "B b2–a3 is offered");
        assert_eq!(ba3.method, Method::Offer);
        assert_eq!(ba3.defender.square, Square::E7);
        assert_eq!(ba3.cost, 330);
        let text = combination_text(&analysis, &board, ba3);
        assert!(
            text.starts_with("White: B b2–a3 offers the bishop to the queen on e7, threatening 31. Bxe7: taken, 30... Qxa3 31. Nh5+ gxh5"),
            "{text}"
        );
        assert!(
            text.ends_with("(offer; the exchange gives up 3.30)"),
            "{text}"
        );
        let ba3 = uci(&board, "b2a3");
        assert!(!static_combinations(&board, &analysis)
            .iter()
            .any(|c| c.mv == ba3));
        let (board, analysis, found) = combos("8/p5kp/1p2Pnp1/3pQ3/2pP4/qnP3N1/6PP/6K1 w - - 0 31");
        let nh5 = proposed(&board, &found, "g3h5", "N g3–h5+ hunts the king");
        assert_eq!(nh5.method, Method::KingHunt);
        assert_eq!(
            (nh5.defender.square, nh5.defender.guard),
            (Square::G7, Guard::OwnSquare)
        );
        let text = combination_text(&analysis, &board, nh5);
        assert!(
            text.starts_with(
                "White: N g3–h5 hunts the king with checks: 31. Nh5+ gxh5 32. Qg5+ Kf8 33. Qxf6+"
            ),
            "{text}"
        );
        assert!(
            text.contains(", winning 1.00 (king hunt; the exchange gives up 2.20)"),
            "{text}"
        );
    }
}
