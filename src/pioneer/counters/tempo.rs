//! Counters that gain a tempo on their way: the first move of the counter makes a threat the
//! attacker has to answer.
//!
//! PIONEER, diagram 54: White wins the pawn b7 in two moves (B b3–d5×b7) and Black needs two
//! moves to defend it, but "answering 1.Bd5 with 1…Bb5 they gain a tempo for the defence 2…Ba6
//! by attacking the knight e2"; and "in some cases this gain of a tempo can be taken into
//! account in advance, without a search".
//!
//! Design note: a counter whose best route is late is tried again along routes that begin with
//! a *threat*: a first move to an empty square where the piece is not lost (the exchange there
//! does not lose) after which the defender gives check, or wins a piece of the attacker by more
//! than the attack's target is worth and by more than before the move. The piece that moves may
//! attack it itself, uncover a line piece behind it (a discovered attack), or stand between the
//! victim and its defender (an interference): the exchange on every piece of the attacker,
//! before and after the move, sees all three. The attacker must answer instead of going on, so
//! the rest of the route has the counter's whole budget: the counter is in time when its route
//! needs at most one move more than the budget. Against a promotion or a mate no piece is worth
//! more than the goal, so there only a check gains the tempo. The threat must come before the
//! attacker arrives (a budget of at least one move), and one tempo at most is counted: what
//! follows a second threat is for the search, not for the static zone. The attacking piece
//! itself is not a victim: it moves on along its route.

use crate::pioneer::attacks::attack::{Attack, Goal};
use crate::pioneer::board::pieces::piece_letter;
use crate::pioneer::board::route::{best_route, piece_moves, Assessor, Finish, Route};
use crate::pioneer::board::trajectory::Mover;
use crate::rules::see::{attackers_to, exchange_after_move, exchange_on_square};
use crate::rules::{piece_value, BitBoard, Board, Move, Piece, Rank, Square};

/// How a counter's first move makes its threat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Means {
    /// The moved piece attacks the victim (or gives check) from its new square.
    Direct,
    /// Moving away opens the line of the defender's `piece` on `from` to the victim.
    Discovery {
        /// Where the uncovered line piece stands.
        from: Square,
        /// What it is.
        piece: Piece,
    },
    /// The moved piece stands between the victim and one of its defenders.
    Interference,
}

/// A threat made by a counter's first move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threat {
    /// Where the counter piece makes it.
    pub at: Square,
    /// The attacker's piece threatened (the king, for a check).
    pub victim: Square,
    /// What stands there.
    pub victim_piece: Piece,
    /// How the move makes it.
    pub means: Means,
}

impl Threat {
    /// In words: "attacking N e2 from b5", "with check from f4", "uncovering the attack of
    /// B h6 on N e3", "with a discovered check", "blocking the defence of N e3 on e4".
    pub fn words(&self) -> String {
        let letter = piece_letter;
        let victim = format!("{} {}", letter(self.victim_piece), self.victim);
        match (self.means, self.victim_piece) {
            (Means::Direct, Piece::King) => format!("with check from {}", self.at),
            (Means::Direct, _) => format!("attacking {victim} from {}", self.at),
            (Means::Discovery { .. }, Piece::King) => "with a discovered check".to_string(),
            (Means::Discovery { from, piece }, _) => {
                format!(
                    "uncovering the attack of {} {from} on {victim}",
                    letter(piece)
                )
            }
            (Means::Interference, _) => {
                format!("blocking the defence of {victim} on {}", self.at)
            }
        }
    }
}

/// How the move of the defender's piece to `to` (`before` → `after`) makes a threat on the
/// attacker's `victim`: the moved piece attacks it, or a piece of the defender attacks it that
/// did not before, or else the move cut a line of its defence.
fn means(before: &Board, after: &Board, to: Square, victim: Square) -> Means {
    let defender = after.color_on(to).unwrap_or(!after.side_to_move());
    let attackers = |board: &Board| attackers_to(board, victim, board.occupied());
    let now = attackers(after) & after.colors(defender);
    if now.has(to) {
        return Means::Direct;
    }
    match (now & !attackers(before)).into_iter().next() {
        Some(from) => Means::Discovery {
            from,
            piece: after.piece_on(from).unwrap_or(Piece::Queen),
        },
        None => Means::Interference,
    }
}

/// `board` with the defender of `attack` to move, passing the attacker's move if needed;
/// `None` when the attacker is in check and cannot pass.
fn defender_to_move(board: &Board, attack: &Attack) -> Option<Board> {
    if board.side_to_move() == attack.side {
        board.null_move()
    } else {
        Some(board.clone())
    }
}

/// The quiet first moves of the defender's piece on `from` that threaten, against `attack`, on
/// `board` (the reconnaissance board of `defence::pseudo_board`, the attacking piece standing on
/// `mover_square`): one threat per square, a check first.
pub fn threats(board: &Board, from: Square, attack: &Attack, mover_square: Square) -> Vec<Threat> {
    let (Some(piece), Some(color)) = (board.piece_on(from), board.color_on(from)) else {
        return Vec::new();
    };
    if color == attack.side {
        return Vec::new();
    }
    let Some(base) = defender_to_move(board, attack) else {
        return Vec::new();
    };
    // A threat must win more than the attack does; a promotion or a mate outweighs any piece.
    let threshold = match attack.goal {
        Goal::Capture { piece: target, .. } => Some(piece_value(target)),
        _ => None,
    };
    // What the defender wins on each of the attacker's pieces before the move (the attacking
    // piece moves on along its route and is no victim).
    let victims = base.colors(attack.side) & !base.pieces(Piece::King) & !mover_square.bitboard();
    let gains_before: Vec<(Square, i32)> = victims
        .into_iter()
        .map(|v| (v, exchange_on_square(&base, v, color)))
        .collect();
    let occupied = base.occupied();
    let last_rank = Rank::Eighth.relative_to(color);
    let mut out = Vec::new();
    for to in piece_moves(&base, from, occupied) & !occupied {
        let mv = Move {
            from,
            to,
            promotion: None,
        };
        if (piece == Piece::Pawn && to.rank() == last_rank)
            || !base.is_legal(mv)
            || exchange_after_move(&base, from, to, piece) < 0
        {
            continue;
        }
        let mut after = base.clone();
        after.play_unchecked(mv);
        if !after.checkers().is_empty() {
            let king = after.king(attack.side);
            out.push(Threat {
                at: to,
                victim: king,
                victim_piece: Piece::King,
                means: means(&base, &after, to, king),
            });
            continue;
        }
        let Some(threshold) = threshold else {
            continue;
        };
        let best = gains_before
            .iter()
            .map(|&(v, before)| (v, before, exchange_on_square(&after, v, color)))
            .filter(|&(_, before, gain)| gain > threshold && gain > before)
            .max_by_key(|&(_, _, gain)| gain)
            .map(|(v, _, gain)| (v, gain));
        if let Some((victim, _)) = best {
            out.push(Threat {
                at: to,
                victim,
                victim_piece: after.piece_on(victim).unwrap_or(Piece::Pawn),
                means: means(&base, &after, to, victim),
            });
        }
    }
    out
}

/// The route of the defender's piece on `from` to one of `squares` that begins with one of
/// `threats` and needs at most `budget` + 1 moves (the tempo the threat gains), with the threat;
/// `None` when no threat leads there in time or the budget leaves no move for the threat.
pub fn tempo_route(
    board: &Board,
    from: Square,
    attack: &Attack,
    threats: &[Threat],
    squares: BitBoard,
    budget: u8,
) -> Option<(Route, Threat)> {
    if budget == 0 || threats.is_empty() {
        return None;
    }
    let piece = board.piece_on(from)?;
    let color = board.color_on(from)?;
    let base = defender_to_move(board, attack)?;
    let assessor = Assessor::new(&base, from, Mover::new(piece, color), true)?;
    threats.iter().find_map(|&threat| {
        let mut after = base.clone();
        after.play_unchecked(Move {
            from,
            to: threat.at,
            promotion: None,
        });
        let rest = best_route(&after, threat.at, squares, budget)?;
        let mut stops = vec![from];
        stops.extend_from_slice(&rest.squares);
        let route = assessor.route(&stops, Finish::Arrive);
        (route.passable() && route.forecast() <= budget + 1).then_some((route, threat))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::attacks::attack::{attack_on, TrajectoryLimits};
    use crate::pioneer::counters::counter::CounterKind;
    use crate::pioneer::counters::defence::{counters, pseudo_board};
    use crate::rules::parse_fen;

    /// The idea of PIONEER's diagram 54: B b3–d5×b7 wins the pawn in two moves; the black
    /// bishop needs two to defend it (the knight e5 takes c6 and d7 from it), and its way
    /// through b5 attacks the knight e2.
    const DIAGRAM_54: &str = "4b2k/1p6/1P6/4N3/8/1B6/4N3/6K1 w - - 0 1";

    /// The counter of the defender's `piece` that defends the target of `a`.
    fn defence_by(
        board: &Board,
        a: &Attack,
        piece: Piece,
    ) -> crate::pioneer::counters::counter::Counter {
        counters(board, a, true)
            .into_iter()
            .find(|c| c.piece == piece && c.kind == CounterKind::DefendTarget)
            .expect("a counter that defends the target")
    }

    #[test]
    fn diagram_54_the_bishop_gains_a_tempo_by_attacking_the_knight() {
        let board = parse_fen(DIAGRAM_54, false).unwrap();
        let a = attack_on(&board, Square::B3, Square::B7, TrajectoryLimits::default()).unwrap();
        assert_eq!(a.forecast(), 2);
        let (pseudo, at) = pseudo_board(&board, &a);
        let found = threats(&pseudo, Square::E8, &a, at);
        assert!(
            found.contains(&Threat {
                at: Square::B5,
                victim: Square::E2,
                victim_piece: Piece::Knight,
                means: Means::Direct,
            }),
            "{found:?}"
        );
        let list = counters(&board, &a, true);
        let bishop = list
            .iter()
            .find(|c| c.piece == Piece::Bishop && c.kind == CounterKind::DefendTarget)
            .expect("the bishop defends b7");
        assert_eq!((bishop.needs(), bishop.budget), (2, 1));
        assert_eq!(bishop.route.squares[..2], [Square::E8, Square::B5]);
        assert!(bishop.threat.is_some() && bishop.in_time(), "{bishop:?}");
    }

    #[test]
    fn a_discovered_attack_gains_the_tempo() {
        // B b3–d5×b7 again; the knight g7 needs two moves to defend b7 (f5–d6 or e8–d6), and
        // leaving g7 opens the bishop h8 onto the undefended knight c3.
        let board = parse_fen("7b/1p4nk/1P6/8/8/1BN5/8/7K w - - 0 1", false).unwrap();
        let a = attack_on(&board, Square::B3, Square::B7, TrajectoryLimits::default()).unwrap();
        let (pseudo, at) = pseudo_board(&board, &a);
        let found = threats(&pseudo, Square::G7, &a, at);
        let opened = Means::Discovery {
            from: Square::H8,
            piece: Piece::Bishop,
        };
        assert!(
            found
                .iter()
                .any(|t| t.at == Square::F5 && t.victim == Square::C3 && t.means == opened),
            "{found:?}"
        );
        let knight = defence_by(&board, &a, Piece::Knight);
        assert_eq!((knight.needs(), knight.budget), (2, 1));
        let threat = knight.threat.expect("the knight gains a tempo");
        assert!(knight.in_time(), "{knight:?}");
        assert_eq!(threat.words(), "uncovering the attack of B h8 on N c3");
    }

    #[test]
    fn an_interference_gains_the_tempo() {
        // B b3–d5×b7 again; the knight e1 needs two moves to defend b7 (d3–c5), and d3 (held
        // by the pawn e4) cuts the rook h3 off the knight c3, which the bishop h8 attacks.
        let board = parse_fen("5k1b/1p6/1P6/8/4p3/1BN4R/8/4n2K w - - 0 1", false).unwrap();
        let a = attack_on(&board, Square::B3, Square::B7, TrajectoryLimits::default()).unwrap();
        let knight = defence_by(&board, &a, Piece::Knight);
        assert_eq!((knight.needs(), knight.budget), (2, 1));
        assert!(knight.in_time(), "{knight:?}");
        let threat = knight.threat.expect("the knight gains a tempo");
        assert_eq!(threat.means, Means::Interference);
        assert_eq!(threat.words(), "blocking the defence of N c3 on d3");
    }

    #[test]
    fn a_defended_knight_is_no_threat_and_the_bishop_is_late() {
        // The king on f1 defends the knight: attacking it wins nothing, no tempo.
        let board = parse_fen("4b2k/1p6/1P6/4N3/8/1B6/4N3/5K2 w - - 0 1", false).unwrap();
        let a = attack_on(&board, Square::B3, Square::B7, TrajectoryLimits::default()).unwrap();
        let list = counters(&board, &a, true);
        let bishop = list
            .iter()
            .find(|c| c.piece == Piece::Bishop && c.kind == CounterKind::DefendTarget)
            .expect("the bishop is a late counter");
        assert!(bishop.threat.is_none() && !bishop.in_time(), "{bishop:?}");
    }

    #[test]
    fn against_a_promotion_only_a_check_gains_a_tempo() {
        // White's pawn a6 runs in two moves; the black rook threatens the knight from c2 and
        // gives check from c1 or g3, but only a check counts against a queen.
        let board = parse_fen("6k1/8/P7/8/8/2r5/3N4/6K1 w - - 0 1", false).unwrap();
        let a = crate::pioneer::attacks::attack::promotion(
            &board,
            Square::A6,
            TrajectoryLimits::default(),
        )
        .unwrap();
        let (pseudo, at) = pseudo_board(&board, &a);
        let found = threats(&pseudo, Square::C3, &a, at);
        assert!(!found.is_empty(), "{found:?}");
        assert!(
            found.iter().all(|t| t.victim_piece == Piece::King),
            "{found:?}"
        );
    }
}
