//! Guiding the main search with zone moves.
//!
//! The third use of PIONEER: the first steps of the live trajectories of both sides —
//! their zone moves — are worth trying early and searching fully. At the start of a search the
//! root position is analysed once; the zone moves of the side to move, and those of the opponent
//! (found after a pass), are kept as a small list of (from, to) pairs per side. In the first
//! `GUIDE_PLIES` plies the alpha-beta search adds a bonus to the history score of a quiet move on
//! its side's list (`movepick::PLAN_BONUS`). Exempting zone moves from late-move reductions, or
//! ordering them right after the counter-move, was measured too and lost (README, PIONEER).
//!
//! Design note: the hot path sees only `PlanMoves`, a fixed array of at most `PLAN_MOVES` pairs
//! with a bitboard of their from-squares as a quick filter, copied into the move-ordering
//! context. The zones themselves are formed once per search (a few milliseconds), never inside
//! the tree. Whether this gains is measured, not assumed (README, PIONEER section); the option
//! `PioneerGuide` switches it, off by default unless the measurements say otherwise.

use super::attack::Limits;
use super::moves::zone_moves;
use super::zone::Analysis;
use crate::rules::{BitBoard, Board, Color, Move, Square};

/// Most zone moves kept per side.
pub const PLAN_MOVES: usize = 12;
/// Plies from the root in which zone moves get the move-ordering bonus.
pub const GUIDE_PLIES: usize = 4;
/// Moves left for the trajectories admitted (the horizon of the root's plans).
pub const GUIDE_MOVES_LEFT: u8 = 3;

/// Zone moves of one side as the move ordering sees them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlanMoves {
    from: BitBoard,
    pairs: [(u8, u8); PLAN_MOVES],
    len: u8,
}

impl PlanMoves {
    /// No zone moves.
    pub const EMPTY: PlanMoves = PlanMoves {
        from: BitBoard::EMPTY,
        pairs: [(0, 0); PLAN_MOVES],
        len: 0,
    };

    /// Adds a move (ignored when full or already there).
    pub fn push(&mut self, from: Square, to: Square) {
        let pair = (from as u8, to as u8);
        if (self.len as usize) < PLAN_MOVES && !self.pairs[..self.len as usize].contains(&pair) {
            self.pairs[self.len as usize] = pair;
            self.len += 1;
            self.from |= from.bitboard();
        }
    }

    /// Is the move (by its from and to squares) a zone move?
    #[inline]
    pub fn contains(&self, mv: Move) -> bool {
        self.from.has(mv.from)
            && self.pairs[..self.len as usize].contains(&(mv.from as u8, mv.to as u8))
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// No moves?
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The zone moves of both sides at the root of a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Guide {
    plans: [PlanMoves; 2],
}

impl Guide {
    /// No guidance.
    pub const NONE: Guide = Guide {
        plans: [PlanMoves::EMPTY; 2],
    };

    /// Analyses `root` and keeps the best zone moves of both sides.
    pub fn new(root: &Board) -> Guide {
        let limits = Limits {
            max_len: 3,
            max_forecast: 4,
        };
        let mut guide = Guide::NONE;
        let us = root.side_to_move();
        let analysis = Analysis::new(root, limits);
        for zm in zone_moves(root, &analysis, GUIDE_MOVES_LEFT) {
            guide.plans[us as usize].push(zm.mv.from, zm.mv.to);
        }
        if let Some(passed) = root.null_move() {
            let analysis = Analysis::new(&passed, limits);
            for zm in zone_moves(&passed, &analysis, GUIDE_MOVES_LEFT) {
                guide.plans[!us as usize].push(zm.mv.from, zm.mv.to);
            }
        }
        guide
    }

    /// The zone moves of `side`.
    pub fn plan(&self, side: Color) -> PlanMoves {
        self.plans[side as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::examples::DIAGRAM_51;
    use crate::rules::parse_fen;

    #[test]
    fn plan_moves_hold_pairs() {
        let mut p = PlanMoves::EMPTY;
        assert!(p.is_empty());
        p.push(Square::B1, Square::C2);
        p.push(Square::B1, Square::C2);
        assert_eq!(p.len(), 1);
        let mv = |f, t| Move {
            from: f,
            to: t,
            promotion: None,
        };
        assert!(p.contains(mv(Square::B1, Square::C2)));
        assert!(!p.contains(mv(Square::B1, Square::A2)));
        assert!(!p.contains(mv(Square::E1, Square::C2)));
        for i in 0..PLAN_MOVES + 5 {
            p.push(Square::ALL[i], Square::H8);
        }
        assert_eq!(p.len(), PLAN_MOVES);
    }

    #[test]
    fn diagram_51_guide_has_both_sides_plans() {
        let board = parse_fen(DIAGRAM_51, false).unwrap();
        let guide = Guide::new(&board);
        let mv = |f, t| Move {
            from: f,
            to: t,
            promotion: None,
        };
        assert!(guide
            .plan(Color::White)
            .contains(mv(Square::B1, Square::C2)));
        assert!(!guide.plan(Color::Black).is_empty());
        assert_eq!(Guide::new(&board), guide, "deterministic");
    }
}
