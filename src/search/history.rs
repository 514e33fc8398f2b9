//! What the search learns about moves while it runs: the history heuristic (by side, from and
//! to square, and whether the opponent attacks either: a move out of an attack and one into it
//! learn apart), continuation history (by the piece and square of the moves one, two and four
//! plies back: the opponent's last move and the side's own last two, a table for each of the
//! three and for each side to move, so that "after my knight went to f3" and "after the
//! opponent's knight went to f3" learn apart), killer moves per
//! ply and counter-moves order the quiet moves that Kornilov sorts into three lists; capture
//! history (by piece, square and victim) breaks ties among captures that MVV/LVA ranks alike.

use crate::rules::{BitBoard, Color, Move, Piece, Square};
use crate::search::params::{
    HISTORY_BONUS_LINEAR, HISTORY_BONUS_MAX, HISTORY_BONUS_QUADRATIC, HISTORY_MAX,
};
use crate::search::MAX_PLY;

/// How many plies back each move lies by which continuation history scores a quiet move.
pub const CONTINUATION_PLIES: [usize; 3] = [1, 2, 4];

/// The moves `CONTINUATION_PLIES` back from a node, where there are such moves (none before the
/// root or for a null move).
pub type PreviousMoves = [Option<PieceTo>; CONTINUATION_PLIES.len()];

/// A (piece, destination) pair: what continuation history is keyed by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo {
    /// The piece that moved (promotions count as the pawn).
    pub piece: Piece,
    /// Where it went.
    pub to: Square,
}

impl PieceTo {
    /// How many pairs there are.
    pub const COUNT: usize = 6 * 64;

    /// The pair of index 0.
    const FIRST: PieceTo = PieceTo {
        piece: Piece::Pawn,
        to: Square::A1,
    };

    /// A dense index of the pair, below `COUNT`.
    pub fn index(self) -> usize {
        self.piece as usize * 64 + self.to as usize
    }
}

/// A capture as capture history keys it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaptureKey {
    /// The capturing piece.
    pub piece: Piece,
    /// Where it captures.
    pub to: Square,
    /// The captured piece (a pawn for en passant).
    pub victim: Piece,
}

impl CaptureKey {
    /// The key of the capture `mv` by `piece` of `victim`, what stands on its target square
    /// (nothing for en passant, which takes a pawn).
    pub fn new(piece: Piece, mv: Move, victim: Option<Piece>) -> CaptureKey {
        CaptureKey {
            piece,
            to: mv.to,
            victim: victim.unwrap_or(Piece::Pawn),
        }
    }

    fn index(self) -> usize {
        (self.piece as usize * 64 + self.to as usize) * 6 + self.victim as usize
    }
}

/// The butterfly entries of one side: four threat patterns, from and to square.
const BUTTERFLY_SIDE: usize = 4 * 64 * 64;

/// Per-thread ordering statistics.
pub struct History {
    butterfly: Vec<i16>,
    captures: Vec<i16>,
    continuation: Vec<i16>,
    counters: Vec<Option<Move>>,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
}

fn gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let value = *entry as i32;
    *entry = (value + bonus - value * bonus.abs() / HISTORY_MAX) as i16;
}

/// History bonus for a move that caused a cut-off at `depth` (`params::HISTORY_BONUS_*`).
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * HISTORY_BONUS_QUADRATIC + depth * HISTORY_BONUS_LINEAR).min(HISTORY_BONUS_MAX)
}

impl History {
    /// Empty tables.
    pub fn new() -> Self {
        History {
            butterfly: vec![0; 2 * BUTTERFLY_SIDE],
            captures: vec![0; 6 * 64 * 6],
            continuation: vec![0; CONTINUATION_PLIES.len() * 2 * PieceTo::COUNT * PieceTo::COUNT],
            counters: vec![None; 6 * 64],
            killers: [[None; 2]; MAX_PLY + 1],
        }
    }

    /// Forgets everything (`ucinewgame`, bench).
    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.captures.fill(0);
        self.continuation.fill(0);
        self.counters.fill(None);
        self.killers = [[None; 2]; MAX_PLY + 1];
    }

    /// Forgets only the killers (they belong to one search's plies).
    pub fn clear_killers(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
    }

    /// The continuation entry of the move `this` by `color` after `before`, the move
    /// `CONTINUATION_PLIES[back]` plies earlier.
    fn continuation_index(color: Color, back: usize, before: PieceTo, this: PieceTo) -> usize {
        ((back * 2 + color as usize) * PieceTo::COUNT + before.index()) * PieceTo::COUNT
            + this.index()
    }

    /// The continuation entries of the move `this` by `color` after each of the moves `prev`
    /// that exist.
    fn continuation_entries(
        color: Color,
        prev: PreviousMoves,
        this: PieceTo,
    ) -> impl Iterator<Item = usize> {
        prev.into_iter()
            .enumerate()
            .filter_map(move |(back, before)| {
                Some(Self::continuation_index(color, back, before?, this))
            })
    }

    fn butterfly_index(color: Color, mv: Move, threats: BitBoard) -> usize {
        color as usize * BUTTERFLY_SIDE + Self::threatened_from_to(mv, threats)
    }

    /// The index of `mv` in one side's butterfly table: whether the opponent attacks its
    /// squares, then from and to.
    fn threatened_from_to(mv: Move, threats: BitBoard) -> usize {
        let threatened = usize::from(threats.has(mv.from)) * 2 + usize::from(threats.has(mv.to));
        (threatened * 64 + mv.from as usize) * 64 + mv.to as usize
    }

    /// The tables that score the quiet moves of `color` at a node where the opponent attacks
    /// `threats` after the moves `prev`: looked up once for all of the node's moves.
    pub fn quiet_scorer(
        &self,
        color: Color,
        threats: BitBoard,
        prev: PreviousMoves,
    ) -> QuietScorer<'_> {
        let continuations = std::array::from_fn(|back| {
            prev[back].map_or(&NO_CONTINUATION[..], |before| {
                let first = Self::continuation_index(color, back, before, PieceTo::FIRST);
                &self.continuation[first..first + PieceTo::COUNT]
            })
        });
        QuietScorer {
            butterfly: &self.butterfly[color as usize * BUTTERFLY_SIDE..][..BUTTERFLY_SIDE],
            threats,
            continuations,
        }
    }

    /// Rewards `best` and penalises the quiet moves tried before it at a cut-off in a node
    /// where the opponent attacks `threats`.
    pub fn update_quiets(
        &mut self,
        color: Color,
        best: (Move, Piece),
        tried: &[(Move, Piece)],
        threats: BitBoard,
        prev: PreviousMoves,
        depth: i32,
    ) {
        let b = bonus(depth);
        self.update_one(color, best.0, best.1, threats, prev, b);
        for &(mv, piece) in tried {
            if mv != best.0 {
                self.update_one(color, mv, piece, threats, prev, -b);
            }
        }
    }

    fn update_one(
        &mut self,
        color: Color,
        mv: Move,
        piece: Piece,
        threats: BitBoard,
        prev: PreviousMoves,
        bonus: i32,
    ) {
        gravity(
            &mut self.butterfly[Self::butterfly_index(color, mv, threats)],
            bonus,
        );
        let this = PieceTo { piece, to: mv.to };
        for entry in Self::continuation_entries(color, prev, this) {
            gravity(&mut self.continuation[entry], bonus);
        }
    }

    /// Capture-history score of a capture.
    pub fn capture_score(&self, capture: CaptureKey) -> i32 {
        self.captures[capture.index()] as i32
    }

    /// At a cut-off at `depth`: rewards the capture that caused it (if it was one) and
    /// penalises the captures tried before it.
    pub fn update_captures(&mut self, best: Option<CaptureKey>, tried: &[CaptureKey], depth: i32) {
        let b = bonus(depth);
        if let Some(best) = best {
            gravity(&mut self.captures[best.index()], b);
        }
        for &capture in tried.iter().filter(|&&c| Some(c) != best) {
            gravity(&mut self.captures[capture.index()], -b);
        }
    }

    /// The two killer moves of a ply.
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply.min(MAX_PLY)]
    }

    /// Records a quiet move that refuted a position at `ply`.
    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let slot = &mut self.killers[ply.min(MAX_PLY)];
        if slot[0] != Some(mv) {
            slot[1] = slot[0];
            slot[0] = Some(mv);
        }
    }

    /// The move that last refuted `prev`.
    pub fn counter(&self, prev: Option<PieceTo>) -> Option<Move> {
        prev.and_then(|p| self.counters[p.index()])
    }

    /// Records `mv` as the refutation of `prev`.
    pub fn set_counter(&mut self, prev: Option<PieceTo>, mv: Move) {
        if let Some(p) = prev {
            self.counters[p.index()] = Some(mv);
        }
    }
}

/// The continuation row of a move that does not exist (before the root, after a null move):
/// it adds nothing.
static NO_CONTINUATION: [i16; PieceTo::COUNT] = [0; PieceTo::COUNT];

/// Scores the quiet moves of one node (`History::quiet_scorer`): the node's side, threats and
/// previous moves are looked up once, so that each move costs four reads.
pub struct QuietScorer<'a> {
    /// The side to move's butterfly table.
    butterfly: &'a [i16],
    /// The squares the opponent attacks (a move out of or into an attack learns apart).
    threats: BitBoard,
    /// The continuation row after each previous move, by `PieceTo` index.
    continuations: [&'a [i16]; CONTINUATION_PLIES.len()],
}

impl QuietScorer<'_> {
    /// The ordering score of the quiet move `mv` of `piece`: its history (given the squares
    /// the opponent attacks) plus its continuation histories after the node's previous moves.
    pub fn score(&self, mv: Move, piece: Piece) -> i32 {
        let this = PieceTo { piece, to: mv.to }.index();
        let mut score = self.butterfly[History::threatened_from_to(mv, self.threats)] as i32;
        for row in self.continuations {
            score += row[this] as i32;
        }
        score
    }
}

impl Default for History {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewards_and_penalties_saturate() {
        let mut h = History::new();
        let good: Move = "g1f3".parse().unwrap();
        let bad: Move = "b1c3".parse().unwrap();
        for _ in 0..200 {
            h.update_quiets(
                Color::White,
                (good, Piece::Knight),
                &[(bad, Piece::Knight)],
                BitBoard::EMPTY,
                [None; 3],
                10,
            );
        }
        let score = |mv| {
            h.quiet_scorer(Color::White, BitBoard::EMPTY, [None; 3])
                .score(mv, Piece::Knight)
        };
        let (g, b) = (score(good), score(bad));
        assert!(
            g > 0 && g <= HISTORY_MAX && (-HISTORY_MAX..0).contains(&b),
            "{g} {b}"
        );
    }

    #[test]
    fn a_move_into_an_attack_learns_apart_from_the_same_move_elsewhere() {
        let mut h = History::new();
        let mv: Move = "g1f3".parse().unwrap();
        let attacked = Square::F3.bitboard();
        h.update_quiets(
            Color::White,
            (mv, Piece::Knight),
            &[],
            attacked,
            [None; 3],
            8,
        );
        let score = |threats| {
            h.quiet_scorer(Color::White, threats, [None; 3])
                .score(mv, Piece::Knight)
        };
        assert!(score(attacked) > 0);
        assert_eq!(score(BitBoard::EMPTY), 0);
        assert_eq!(score(Square::G1.bitboard()), 0);
    }

    #[test]
    fn continuation_learns_apart_by_distance_and_side() {
        let mut h = History::new();
        let mv: Move = "g1f3".parse().unwrap();
        let before = PieceTo {
            piece: Piece::Knight,
            to: Square::F6,
        };
        let one_back = [Some(before), None, None];
        h.update_quiets(
            Color::White,
            (mv, Piece::Knight),
            &[],
            BitBoard::EMPTY,
            one_back,
            8,
        );
        // The continuation part alone: the score less the same move's score after no move.
        let score = |color, prev| {
            h.quiet_scorer(color, BitBoard::EMPTY, prev)
                .score(mv, Piece::Knight)
                - h.quiet_scorer(color, BitBoard::EMPTY, [None; 3])
                    .score(mv, Piece::Knight)
        };
        assert!(score(Color::White, one_back) > 0);
        assert_eq!(score(Color::White, [None, Some(before), None]), 0);
        assert_eq!(score(Color::Black, one_back), 0);
    }

    #[test]
    fn capture_history_rewards_the_refutation_and_penalises_the_rest() {
        let mut h = History::new();
        let key = |piece, to, victim| CaptureKey { piece, to, victim };
        let good = key(Piece::Knight, Square::E5, Piece::Pawn);
        let bad = key(Piece::Queen, Square::E5, Piece::Pawn);
        h.update_captures(Some(good), &[bad, good], 6);
        assert!(h.capture_score(good) > 0);
        assert!(h.capture_score(bad) < 0);
        // A quiet cut-off penalises every capture tried.
        h.update_captures(None, &[good], 6);
        assert!(h.capture_score(good) < bonus(6));
    }

    #[test]
    fn killers_keep_two_distinct_moves() {
        let mut h = History::new();
        let a: Move = "a2a3".parse().unwrap();
        let b: Move = "b2b3".parse().unwrap();
        h.add_killer(3, a);
        h.add_killer(3, a);
        h.add_killer(3, b);
        assert_eq!(h.killers(3), [Some(b), Some(a)]);
    }
}
