//! The zone moves that guide the main search (UCI `PioneerGuide`, `tropa bench
//! --pioneer-guide`).
//!
//! The first steps of the live trajectories of both sides — their zone moves — are worth trying
//! early and searching fully. At the start of a search the root position is analysed once; the
//! zone moves of the side to move, and those of the opponent (found after a pass), are handed
//! by the caller to the search (`search::guide`), which gives them a move-ordering bonus in the
//! first plies.
//!
//! Design note: the zones are formed once per search, never inside the tree. This module
//! returns plain moves, so PIONEER knows nothing of the search. The guide is off by default;
//! what it gains, and the variants tried, are in docs/pioneer.md.

use crate::pioneer::attacks::attack::TrajectoryLimits;
use crate::pioneer::play::moves::zone_moves;
use crate::pioneer::zones::analysis::Analysis;
use crate::rules::{Board, Color, Move};

/// Moves left for the trajectories admitted (the horizon of the root's plans).
pub const GUIDE_MOVES_LEFT: u8 = 3;

/// The zone moves of both sides at a root, first steps of the most promising trajectories first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RootZoneMoves {
    /// White's zone moves.
    pub white: Vec<Move>,
    /// Black's zone moves.
    pub black: Vec<Move>,
}

/// Analyses `root` (and, after a pass, the opponent's view of it) for the zone moves of both
/// sides.
pub fn root_zone_moves(root: &Board) -> RootZoneMoves {
    let limits = TrajectoryLimits {
        max_len: 3,
        max_forecast: 4,
    };
    let of = |board: &Board| -> Vec<Move> {
        let analysis = Analysis::new(board, limits);
        zone_moves(board, &analysis, GUIDE_MOVES_LEFT)
            .into_iter()
            .map(|zm| zm.mv)
            .collect()
    };
    let ours = of(root);
    let theirs = root
        .null_move()
        .map(|passed| of(&passed))
        .unwrap_or_default();
    match root.side_to_move() {
        Color::White => RootZoneMoves {
            white: ours,
            black: theirs,
        },
        Color::Black => RootZoneMoves {
            white: theirs,
            black: ours,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::examples::DIAGRAM_51;
    use crate::rules::{parse_fen, Square};

    #[test]
    fn diagram_51_has_zone_moves_for_both_sides() {
        let board = parse_fen(DIAGRAM_51, false).unwrap();
        let moves = root_zone_moves(&board);
        assert!(moves
            .white
            .iter()
            .any(|m| m.from == Square::B1 && m.to == Square::C2));
        assert!(!moves.black.is_empty());
        assert_eq!(root_zone_moves(&board), moves, "deterministic");
    }
}
