//! Fork trajectories ("вилочные траектории"): trajectories of one piece, serving different
//! zones, that begin with the same moves.
//!
//! PIONEER: "Then groups of fork trajectories are formed, i.e. trajectories beginning with the
//! same moves. Moving along the common part of fork trajectories gives the chance to win a
//! tempo." In Réti's study the white king's way to the squares that stop the h-pawn and its way
//! to the squares that escort the c-pawn share the part h8–g7–f6–e5: every step along it serves
//! both goals, which is the whole point of the study.
//!
//! Design note: for every piece that plays a part in two or more zones (as attacker, counter or
//! support, counters that are late included — a late counter may come in time once the opponent
//! spends tempi elsewhere), each part gives a set of *goal squares*: where the piece would do
//! its job (a square from which it controls a stop, defends a stop or the target, blocks, or the
//! target itself). The common part of two shortest trajectories is the longest chain of squares
//! lying at the same step in both bundles, one move apart; it is computed for every pair of goal
//! squares and the longest kept. Squares occupied or attacked by the opponent end the chain.

use super::analysis::Analysis;
use super::zone::Zone;
use crate::pioneer::attacks::attack::Goal;
use crate::pioneer::board::pieces::{attack_squares, piece_letter};
use crate::pioneer::board::trajectory::{bundle, distance, Mover};
use crate::pioneer::counters::counter::{budget, CounterKind, NEAR_MISS};
use crate::pioneer::counters::support::SupportKind;
use crate::rules::see::attackers_to;
use crate::rules::{BitBoard, Board, Piece, Square};
use cozy_chess::get_between_rays;

/// A piece's part in one zone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForkRole {
    /// Index of the zone.
    pub zone: usize,
    /// What the piece does there, in words ("stops P h5–h4–h3–h2–h1=Q").
    pub words: String,
    /// The goal square chosen for the common route.
    pub goal: Square,
}

/// Trajectories of one piece, in two zones, with a common beginning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fork {
    /// The piece.
    pub piece: Piece,
    /// Where it stands.
    pub square: Square,
    /// The common part, after the starting square.
    pub common: Vec<Square>,
    /// The two parts it serves.
    pub roles: [ForkRole; 2],
}

impl Fork {
    /// The common route in PIONEER's notation, e.g. `K h8–g7–f6–e5`.
    pub fn notation(&self) -> String {
        let mut text = format!("{} {}", piece_letter(self.piece), self.square);
        for s in &self.common {
            text.push('–');
            text.push_str(&s.to_string());
        }
        text
    }
}

/// "c-pawn" for a pawn on the c-file.
fn pawn_words(square: Square) -> String {
    format!("{}-pawn", square.file())
}

/// Where the piece on `square` would do its job in `zone`, what that job is, and its rank
/// (0 attack, 1 support, 2 counter: on equal common parts a piece's own plans come first).
fn parts(zone: &Zone, square: Square, occupied: BitBoard) -> Vec<(String, BitBoard, u8)> {
    let mut out = Vec::new();
    let attack = &zone.attack;
    let main = attack.notation();
    let piece = |p: Piece| Mover::new(p, zone.side());
    if attack.root() == square {
        out.push((
            format!("carries out {main}"),
            attack.goal.square().bitboard(),
            0,
        ));
    }
    let stops = &attack.route.squares;
    let arrival = &attack.route.arrival;
    for c in zone.counters.iter().filter(|c| c.square() == square) {
        let mover = Mover::new(c.piece, !zone.side());
        // Only squares the piece could reach within the counter's window (budget + near miss).
        let window = |i: usize, squares: BitBoard| {
            let limit = budget(arrival[i], zone.attacker_to_move) + NEAR_MISS;
            squares
                .iter()
                .filter(|&s| distance(mover, square, s).is_some_and(|d| d <= limit))
                .fold(BitBoard::EMPTY, |a, s| a | s.bitboard())
        };
        let n = stops.len() - 1;
        let goals = match c.kind {
            CounterKind::DefendTarget => {
                window(n, attack_squares(mover, attack.goal.square(), occupied))
            }
            CounterKind::ControlStop { .. } => (1..stops.len()).fold(BitBoard::EMPTY, |a, i| {
                a | window(i, attack_squares(mover, stops[i], occupied))
            }),
            CounterKind::Flight { .. }
            | CounterKind::DenyPreparation { .. }
            | CounterKind::Unpin { .. }
            | CounterKind::Relieve { .. }
            | CounterKind::TakeAttacker => window(n, c.route.end().bitboard()),
            CounterKind::Block { step, .. } => {
                let i = step as usize;
                window(
                    i,
                    stops[i].bitboard() | get_between_rays(stops[i - 1], stops[i]),
                )
            }
        };
        let what = match attack.goal {
            Goal::Promote { .. } => format!("stops the {} ({main})", pawn_words(attack.root())),
            Goal::Capture { .. } | Goal::Mate { .. } => format!("meets {main}"),
        };
        out.push((what, goals, 2));
    }
    for s in zone.supports.iter().filter(|s| s.route.start() == square) {
        let mover = piece(s.piece);
        let goals = match s.kind {
            SupportKind::DefendStop { .. } => stops[1..].iter().fold(BitBoard::EMPTY, |a, &st| {
                a | attack_squares(mover, st, occupied)
            }),
            _ => s.route.first_steps,
        };
        let what = match attack.goal {
            Goal::Promote { .. } => format!("escorts the {} ({main})", pawn_words(attack.root())),
            Goal::Capture { .. } | Goal::Mate { .. } => format!("supports {main}"),
        };
        out.push((what, goals, 1));
    }
    out
}

/// The longest common beginning of shortest trajectories of `mover` from `from` to any square of
/// `a` and to any square of `b`, with the chosen goal squares.
pub fn common_beginning(
    board: &Board,
    mover: Mover,
    from: Square,
    a: BitBoard,
    b: BitBoard,
) -> Option<(Vec<Square>, Square, Square)> {
    let color = board.color_on(from)?;
    let blocked = board.occupied() & !from.bitboard();
    let safe = |s: Square| {
        !blocked.has(s)
            && (mover != Mover::King
                || (attackers_to(board, s, board.occupied()) & board.colors(!color)).is_empty())
    };
    let mut best: Option<(Vec<Square>, Square, Square)> = None;
    for ta in a {
        let Some(ba) = bundle(mover, from, ta) else {
            continue;
        };
        for tb in b {
            if ta == tb {
                continue;
            }
            let Some(bb) = bundle(mover, from, tb) else {
                continue;
            };
            let mut chain = Vec::new();
            let mut current = from;
            let steps = ba.len.min(bb.len) as usize;
            for k in 1..=steps {
                let next = (ba.step(k) & bb.step(k) & mover.steps(current))
                    .iter()
                    .find(|&s| safe(s));
                match next {
                    Some(s) => {
                        chain.push(s);
                        current = s;
                    }
                    None => break,
                }
            }
            let better = best.as_ref().is_none_or(|(c, ga, gb)| {
                chain.len() > c.len()
                    || (chain.len() == c.len()
                        && ba.len + bb.len < distance_sum(mover, from, *ga, *gb))
            });
            if !chain.is_empty() && better {
                best = Some((chain, ta, tb));
            }
        }
    }
    best
}

fn distance_sum(mover: Mover, from: Square, a: Square, b: Square) -> u8 {
    let d = |t| bundle(mover, from, t).map_or(u8::MAX / 2, |b| b.len);
    d(a) + d(b)
}

/// The fork trajectories among the zones: for every piece with parts in two independent zones
/// (different composites), the pair of parts with the longest common beginning, at least
/// `min_common` moves; on equal length the shorter trajectories, then the piece's own plans
/// before its counters.
pub fn forks(board: &Board, analysis: &Analysis, min_common: usize) -> Vec<Fork> {
    let occupied = board.occupied();
    let zones = &analysis.zones;
    let mut out = Vec::new();
    for square in occupied {
        let (Some(piece), Some(color)) = (board.piece_on(square), board.color_on(square)) else {
            continue;
        };
        let mover = Mover::new(piece, color);
        let mut all: Vec<(usize, String, BitBoard, u8)> = Vec::new();
        for (i, z) in zones.iter().enumerate() {
            for (words, goals, rank) in parts(z, square, occupied) {
                all.push((i, words, goals, rank));
            }
        }
        let mut best: Option<(Fork, (usize, u8, u8))> = None;
        for (x, (za, wa, ga, ra)) in all.iter().enumerate() {
            for (zb, wb, gb, rb) in &all[x + 1..] {
                if !analysis.independent(*za, *zb) {
                    continue;
                }
                let Some((common, ta, tb)) = common_beginning(board, mover, square, *ga, *gb)
                else {
                    continue;
                };
                let key = (
                    common.len(),
                    u8::MAX - distance_sum(mover, square, ta, tb),
                    4 - ra - rb,
                );
                if common.len() >= min_common && best.as_ref().is_none_or(|(_, k)| key > *k) {
                    let fork = Fork {
                        piece,
                        square,
                        common,
                        roles: [
                            ForkRole {
                                zone: *za,
                                words: wa.clone(),
                                goal: ta,
                            },
                            ForkRole {
                                zone: *zb,
                                words: wb.clone(),
                                goal: tb,
                            },
                        ],
                    };
                    best = Some((fork, key));
                }
            }
        }
        out.extend(best.map(|(f, _)| f));
    }
    out.sort_by_key(|f| std::cmp::Reverse(f.common.len()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::attacks::attack::TrajectoryLimits;
    use crate::pioneer::examples::RETI;
    use crate::pioneer::zones::analysis::Analysis;
    use crate::rules::parse_fen;

    #[test]
    fn common_beginning_of_two_king_trajectories() {
        let board = parse_fen(RETI, false).unwrap();
        // Toward d6 (defending c7) and toward g3 (controlling h2).
        let (chain, a, b) = common_beginning(
            &board,
            Mover::King,
            Square::H8,
            Square::D6.bitboard(),
            Square::G3.bitboard(),
        )
        .unwrap();
        assert_eq!(chain, vec![Square::G7, Square::F6, Square::E5]);
        assert_eq!((a, b), (Square::D6, Square::G3));
        // Toward d7 the common part is only g7–f6.
        let (chain, _, _) = common_beginning(
            &board,
            Mover::King,
            Square::H8,
            Square::D7.bitboard(),
            Square::G3.bitboard(),
        )
        .unwrap();
        assert_eq!(chain, vec![Square::G7, Square::F6]);
    }

    #[test]
    fn reti_king_route_serves_both_pawns() {
        let board = parse_fen(RETI, false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let list = forks(&board, &analysis, 2);
        let king = list
            .iter()
            .find(|f| f.square == Square::H8)
            .expect("the white king has a fork trajectory");
        assert_eq!(king.notation(), "K h8–g7–f6–e5");
        let words: Vec<&str> = king.roles.iter().map(|r| r.words.as_str()).collect();
        assert!(
            words
                .iter()
                .any(|w| w.starts_with("stops the h-pawn (P h5–h4")),
            "{words:?}"
        );
        assert!(
            words
                .iter()
                .any(|w| w.starts_with("escorts the c-pawn (P c6–c7")),
            "{words:?}"
        );
    }
}
