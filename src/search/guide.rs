//! Moves the caller wants tried early near the root: PIONEER's zone moves when `PioneerGuide`
//! is on (docs/pioneer.md), worked out by the protocol or command-line layer and handed to the
//! search as data, so the search never depends on PIONEER.
//!
//! Design note: the hot path sees only `PlanMoves`, a fixed array of at most `PLAN_MOVES`
//! (from, to) pairs with a bitboard of their from-squares as a quick filter, copied into the
//! move-ordering context. In the first `GUIDE_PLIES` plies a quiet move on its side's list gets
//! `PLAN_BONUS` on top of its history score (both in `params`).

use crate::rules::{BitBoard, Color, Move, Square};

/// Most moves kept per side.
pub const PLAN_MOVES: usize = 12;

/// The guide moves of one side as the move ordering sees them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlanMoves {
    from: BitBoard,
    pairs: [(u8, u8); PLAN_MOVES],
    len: u8,
}

impl PlanMoves {
    /// No moves.
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

    /// Is the move (by its from and to squares) on the list?
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

/// The guide moves of both sides at the root of a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Guide {
    plans: [PlanMoves; 2],
}

impl Guide {
    /// No guidance.
    pub const NONE: Guide = Guide {
        plans: [PlanMoves::EMPTY; 2],
    };

    /// A guide from the moves of each side (the first `PLAN_MOVES` of each are kept).
    pub fn new(white: &[Move], black: &[Move]) -> Guide {
        let mut guide = Guide::NONE;
        for (side, moves) in [(Color::White, white), (Color::Black, black)] {
            for mv in moves {
                guide.plans[side as usize].push(mv.from, mv.to);
            }
        }
        guide
    }

    /// The moves of `side`.
    pub fn plan(&self, side: Color) -> PlanMoves {
        self.plans[side as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            promotion: None,
        }
    }

    #[test]
    fn plan_moves_hold_pairs() {
        let mut p = PlanMoves::EMPTY;
        assert!(p.is_empty());
        p.push(Square::B1, Square::C2);
        p.push(Square::B1, Square::C2);
        assert_eq!(p.len(), 1);
        assert!(p.contains(mv(Square::B1, Square::C2)));
        assert!(!p.contains(mv(Square::B1, Square::A2)));
        assert!(!p.contains(mv(Square::E1, Square::C2)));
        for i in 0..PLAN_MOVES + 5 {
            p.push(Square::ALL[i], Square::H8);
        }
        assert_eq!(p.len(), PLAN_MOVES);
    }

    #[test]
    fn a_guide_keeps_each_sides_moves_apart() {
        let guide = Guide::new(&[mv(Square::B1, Square::C3)], &[mv(Square::G8, Square::F6)]);
        assert!(guide
            .plan(Color::White)
            .contains(mv(Square::B1, Square::C3)));
        assert!(!guide
            .plan(Color::White)
            .contains(mv(Square::G8, Square::F6)));
        assert!(guide
            .plan(Color::Black)
            .contains(mv(Square::G8, Square::F6)));
        assert_eq!(Guide::new(&[], &[]), Guide::NONE);
    }
}
