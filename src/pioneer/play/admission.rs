//! Which moves each side may play in a zone search or a proof (`uses::study`, `uses::proof`).
//!
//! PIONEER's study mode admits only zone moves, for both sides. A proof keeps that selectivity
//! for the attacker alone and gives the defender every legal move, since a tree proves nothing
//! while a defence is left out.
//!
//! Design note: more of the attacker's moves never make a proof unsound, so the attacker gets a
//! few kinds of move the zones do not propose where they were found to matter: every legal move
//! where it has no zone move (a position without zones is then not "proven" by default), its
//! checks at every node (a combination often ends in a check the zones do not propose: Win at
//! Chess no. 6, 1.Rb7 Rf5 2.Rb8+ Rf8 3.Rxf8#, where the zones see the interposed rook defend),
//! and at the root its captures and promotions as well (a key move is often a sacrifice the
//! zone model rejects, the capturing piece lost on its square). Captures past the root grew
//! the trees of the study set and proved no record more, so they stay at the root.

use super::moves::zone_moves;
use crate::pioneer::zones::analysis::Analysis;
use crate::rules::{is_capture, Board, CheckSquares, Color, Move};

/// Which moves each side may play in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    /// Both sides play zone moves only (Botvinnik's study mode).
    ZoneMoves,
    /// The attacker plays zone moves (every legal move where it has none), the other side every
    /// legal move, underpromotions included: a complete tree proves what the attacker gets.
    Proof {
        /// The side whose claim is proven.
        attacker: Color,
    },
}

impl Admission {
    /// The moves the side to move may play in `board`, in search order: its zone moves with
    /// `depth` plies left (best first); in a proof, the defender's every legal move (its zone
    /// moves, then captures, then the rest), and the attacker's zone moves followed by its
    /// checks, at the root (`ply` 0) by its captures and promotions too, or its every legal
    /// move where it has no zone move. `legal` holds the legal moves of `board`.
    pub fn moves(
        self,
        board: &Board,
        analysis: &Analysis,
        legal: Vec<Move>,
        depth: u32,
        ply: u32,
    ) -> Vec<Move> {
        let zone: Vec<Move> = zone_moves(board, analysis, depth.div_ceil(2) as u8)
            .iter()
            .map(|m| m.mv)
            .collect();
        match self {
            Admission::ZoneMoves => zone,
            Admission::Proof { attacker }
                if attacker == board.side_to_move() && !zone.is_empty() =>
            {
                let mut admitted = zone;
                let checks = CheckSquares::new(board);
                let forcing: Vec<Move> = legal
                    .into_iter()
                    .filter(|&m| {
                        !admitted.contains(&m)
                            && ((ply == 0 && (is_capture(board, m) || m.promotion.is_some()))
                                || gives_check(&checks, board, m))
                    })
                    .collect();
                admitted.extend(forcing);
                admitted
            }
            Admission::Proof { .. } => {
                let mut all = legal;
                all.sort_by_key(|&m| {
                    (
                        zone.iter().position(|&z| z == m).unwrap_or(usize::MAX),
                        !is_capture(board, m),
                    )
                });
                all
            }
        }
    }
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
