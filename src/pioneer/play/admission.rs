//! Which moves each side may play in a zone search or a proof (`uses::study`, `uses::proof`).
//!
//! PIONEER's study mode admits only zone moves, for both sides. A proof keeps that selectivity
//! for the attacker alone and gives the defender every legal move, since a tree proves nothing
//! while a defence is left out.
//!
//! Design note: more of the attacker's moves never make a proof unsound, so the attacker gets a
//! few kinds of move the zones do not propose: its combinations first (`zones::combination`:
//! the sacrifices against a piece that hinders one of its zones, whose hindered play can still
//! end before the horizon, which the zone model rejects for their price), every legal move
//! where it has no zone move, its checks at every node (a combination often ends in a check the
//! zones do not propose: Win at Chess no. 6, 1.Rb7 Rf5 2.Rb8+ Rf8 3.Rxf8#), and at the root its
//! captures and promotions as well (figures: docs/pioneer.md). The zone search admits each
//! side's combinations too, first: in study mode either side is the attacker of its own zones.
//! A side in check has no combinations: every evasion is already admitted.

use super::moves::zone_moves;
use crate::pioneer::zones::analysis::Analysis;
use crate::pioneer::zones::combination::static_combinations;
use crate::rules::{is_capture, Board, CheckSquares, Color, Move};

/// Which moves each side may play in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    /// Both sides play their combinations and zone moves only (Botvinnik's study mode).
    ZoneMoves,
    /// The attacker plays zone moves (every legal move where it has none), the other side every
    /// legal move, underpromotions included: a complete tree proves what the attacker gets.
    Proof {
        /// The side whose claim is proven.
        attacker: Color,
    },
}

impl Admission {
    /// The moves the side to move may play in `board`, in search order: in the zone search its
    /// combinations, then its zone moves with `depth` plies left (best first); in a proof, the
    /// defender's every legal move (its zone moves, then captures, then the rest), and the
    /// attacker's combinations and zone moves followed by its checks, at the root (`ply` 0) by
    /// its captures and promotions too, or its every legal move (combinations first) where it
    /// has no zone move. `legal` holds the legal moves of `board`.
    pub fn moves(
        self,
        board: &Board,
        analysis: &Analysis,
        legal: Vec<Move>,
        depth: u32,
        ply: u32,
    ) -> Vec<Move> {
        let moves_left = depth.div_ceil(2) as u8;
        let zone: Vec<Move> = zone_moves(board, analysis, moves_left)
            .iter()
            .map(|m| m.mv)
            .collect();
        let attacking = match self {
            Admission::ZoneMoves => true,
            Admission::Proof { attacker } => attacker == board.side_to_move(),
        };
        let has_zone_moves = !zone.is_empty();
        // Both lists hold each move once; a zone move that is a combination comes first as one.
        let mut planned = if attacking {
            let mut planned = combination_moves(board, analysis, moves_left);
            let others: Vec<Move> = zone.into_iter().filter(|m| !planned.contains(m)).collect();
            planned.extend(others);
            planned
        } else {
            zone
        };
        match self {
            Admission::ZoneMoves => planned,
            Admission::Proof { .. } if attacking && has_zone_moves => {
                let checks = CheckSquares::new(board);
                let forcing: Vec<Move> = legal
                    .into_iter()
                    .filter(|&m| {
                        !planned.contains(&m)
                            && ((ply == 0 && (is_capture(board, m) || m.promotion.is_some()))
                                || gives_check(&checks, board, m))
                    })
                    .collect();
                planned.extend(forcing);
                planned
            }
            Admission::Proof { .. } => {
                let mut all = legal;
                all.sort_by_key(|&m| {
                    (
                        planned.iter().position(|&z| z == m).unwrap_or(usize::MAX),
                        !is_capture(board, m),
                    )
                });
                all
            }
        }
    }
}

/// The combination moves of the side to move (`zones::combination`, those read off the analysis
/// alone, best first) whose hindered
/// play can end within `moves_left` own moves; none in check.
fn combination_moves(board: &Board, analysis: &Analysis, moves_left: u8) -> Vec<Move> {
    if !board.checkers().is_empty() {
        return Vec::new();
    }
    static_combinations(board, analysis)
        .into_iter()
        .filter(|c| c.play_length(analysis) <= moves_left)
        .map(|c| c.mv)
        .collect()
}

/// Does `mv` give check in `board`? Read from `checks` where they tell (most moves), else by
/// playing it.
fn gives_check(checks: &CheckSquares, board: &Board, mv: Move) -> bool {
    checks.gives_check(board, mv).unwrap_or_else(|| {
        let mut child = board.clone();
        child.play_unchecked(mv);
        !child.checkers().is_empty()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::attacks::attack::TrajectoryLimits;
    use crate::rules::{legal_moves, parse_fen};

    /// The queen e7 blockades the e-pawn; B b2–a3 attacks it (a deflection). The bishop's step
    /// is no zone move, no check and no capture: only as a combination is it admitted, first,
    /// and only for the side whose combination it is.
    #[test]
    fn the_attackers_combinations_come_first() {
        let board = parse_fen("6k1/4q3/4P3/8/8/8/1B6/6K1 w - - 0 1", false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let ba3 = crate::rules::notation::move_from_san(&board, "Ba3").unwrap();
        let depth = 5;
        let zone: Vec<Move> = zone_moves(&board, &analysis, 3)
            .iter()
            .map(|m| m.mv)
            .collect();
        assert!(!zone.contains(&ba3) && !zone.is_empty(), "{zone:?}");
        let combination = combination_moves(&board, &analysis, 3);
        assert!(combination.contains(&ba3), "{combination:?}");
        let admitted = |admission: Admission| {
            admission.moves(&board, &analysis, legal_moves(&board), depth, 1)
        };
        for admission in [
            Admission::ZoneMoves,
            Admission::Proof {
                attacker: Color::White,
            },
        ] {
            let moves = admitted(admission);
            assert_eq!(moves[..combination.len()], combination[..], "{admission:?}");
            assert!(zone.iter().all(|m| moves.contains(m)), "{admission:?}");
        }
        // White defending: every legal move, its zone moves first, the combination after them.
        let defending = admitted(Admission::Proof {
            attacker: Color::Black,
        });
        assert_eq!(defending.len(), legal_moves(&board).len());
        assert_eq!(defending[..zone.len()], zone[..]);
        // With fewer moves left than the blocked promotion needs, it is no combination.
        let short = combination_moves(&board, &analysis, 1);
        assert!(!short.contains(&ba3), "{short:?}");
    }
}
