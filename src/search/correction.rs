//! Correction history: what the search has learned about where the static evaluation errs.
//!
//! Design note: the evaluation misjudges whole families of positions the same way (a pawn
//! structure it scores too well or too badly). After a node is searched, the difference between
//! the search's result and the static evaluation is folded into a running average kept per side
//! and per pawn structure; later static evaluations of positions with the same pawns are
//! corrected by that average before the pruning decisions use them. Deeper results weigh more.

use crate::rules::{Board, Color, Piece};

/// Entries per side (a power of two).
const SIZE: usize = 16_384;
/// Fixed-point scale of the stored averages.
const GRAIN: i32 = 256;
/// Largest correction, in centipawns.
const MAX_CORRECTION: i32 = 64;
/// Weight of one update out of 256, per ply of depth (capped at `MAX_WEIGHT`).
const WEIGHT_PER_PLY: i32 = 16;
/// See `WEIGHT_PER_PLY`.
const MAX_WEIGHT: i32 = 128;

/// Per-thread table of static-evaluation corrections, by side to move and pawn structure.
pub struct CorrectionHistory {
    entries: Vec<i32>,
}

fn index(board: &Board) -> usize {
    // Multiplicative hashing of both sides' pawn sets; the side to move picks the half.
    let white = board.colored_pieces(Color::White, Piece::Pawn).0;
    let black = board.colored_pieces(Color::Black, Piece::Pawn).0;
    let key = white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    let slot = (key >> 50) as usize & (SIZE - 1);
    board.side_to_move() as usize * SIZE + slot
}

impl CorrectionHistory {
    /// An empty table (no corrections).
    pub fn new() -> Self {
        CorrectionHistory {
            entries: vec![0; 2 * SIZE],
        }
    }

    /// Forgets everything (`ucinewgame`, bench).
    pub fn clear(&mut self) {
        self.entries.fill(0);
    }

    /// The static evaluation `raw` of `board`, corrected.
    pub fn corrected(&self, board: &Board, raw: i32) -> i32 {
        raw + self.entries[index(board)] / GRAIN
    }

    /// Folds in a search result: the node at `depth` scored `searched` where the uncorrected
    /// static evaluation said `raw`.
    pub fn update(&mut self, board: &Board, depth: i32, raw: i32, searched: i32) {
        let target = (searched - raw).clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        let weight = (depth * WEIGHT_PER_PLY).clamp(1, MAX_WEIGHT);
        let entry = &mut self.entries[index(board)];
        *entry = (*entry * (256 - weight) + target * weight) / 256;
    }
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_fen;

    #[test]
    fn learns_towards_the_search_result_within_bounds() {
        let board = parse_fen(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            false,
        )
        .unwrap();
        let mut table = CorrectionHistory::new();
        assert_eq!(table.corrected(&board, 10), 10);
        for _ in 0..50 {
            table.update(&board, 8, 10, 40);
        }
        let learned = table.corrected(&board, 10);
        assert!((38..=40).contains(&learned), "{learned}");
        for _ in 0..50 {
            table.update(&board, 8, 10, 10_000);
        }
        // Capped: a huge search score moves the correction only up to the limit.
        let capped = table.corrected(&board, 0);
        assert!(
            (MAX_CORRECTION - 2..=MAX_CORRECTION).contains(&capped),
            "{capped}"
        );
        // The other side to move, same pawns: a separate entry.
        let black = parse_fen(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3",
            false,
        )
        .unwrap();
        assert_eq!(table.corrected(&black, 0), 0);
        table.clear();
        assert_eq!(table.corrected(&board, 0), 0);
    }
}
