//! Correction history: what the search has learned about where the static evaluation errs.
//!
//! Design note: the evaluation misjudges whole families of positions the same way (a pawn
//! structure it scores too well, a piece placement it scores too badly, an imbalance of
//! material). After a node is searched, what its result says beyond the corrected static
//! evaluation is folded into several tables at once, each keyed by one feature of the position
//! and the side to move: the pawns, each side's other pieces, the material, and the move that
//! led to the position (a threat the evaluation does not see stays behind the same kind of
//! move, whatever the rest of the board). A later static
//! evaluation is corrected by the weighted sum of the entries of its features before the
//! pruning decisions use it. Every table learns the error that remains after all of them
//! (the residual), so features that explain the same error share it instead of each counting
//! it in full. Deeper results weigh more.

use crate::rules::{is_en_passant, Board, Color, Move, Piece};
use crate::search::history::PieceTo;
use crate::search::params::{
    CORRECTION_MATERIAL_WEIGHT, CORRECTION_MAX, CORRECTION_PAWNS_WEIGHT, CORRECTION_PIECES_WEIGHT,
    CORRECTION_PREVIOUS_MOVE_WEIGHT, CORRECTION_UPDATE_WEIGHT_MAX,
    CORRECTION_UPDATE_WEIGHT_PER_PLY,
};

/// Entries per side in each table (a power of two).
const SIZE: usize = 16_384;
/// Fixed-point scale of the stored averages.
const GRAIN: i32 = 256;

/// What a table keys positions by, beside the side to move.
#[derive(Clone, Copy, Debug)]
enum Feature {
    /// Both sides' pawns.
    Pawns,
    /// One side's pieces other than pawns, king included, on their squares.
    Pieces(Color),
    /// How many pieces of each kind each side has.
    Material,
    /// The opponent's last move, as (piece, destination); none at the root or after a null
    /// move, where this table takes no part.
    PreviousMove,
}

/// The tables and the weight of each in the correction, out of 256 (`params`).
const FEATURES: [(Feature, i32); 5] = [
    (Feature::Pawns, CORRECTION_PAWNS_WEIGHT),
    (Feature::Pieces(Color::White), CORRECTION_PIECES_WEIGHT),
    (Feature::Pieces(Color::Black), CORRECTION_PIECES_WEIGHT),
    (Feature::Material, CORRECTION_MATERIAL_WEIGHT),
    (Feature::PreviousMove, CORRECTION_PREVIOUS_MOVE_WEIGHT),
];

/// Multipliers that spread a bitboard or a count over the key (odd 64-bit constants).
const MIX: [u64; 6] = [
    0x9E37_79B9_7F4A_7C15,
    0xC2B2_AE3D_27D4_EB4F,
    0x1656_67B1_9E37_79F9,
    0x85EB_CA77_C2B2_AE63,
    0x27D4_EB2F_1656_67C5,
    0xFF51_AFD7_ED55_8CCD,
];

/// The kinds of piece, in the order the keys take them.
const PIECES: [Piece; 6] = [
    Piece::Pawn,
    Piece::Knight,
    Piece::Bishop,
    Piece::Rook,
    Piece::Queen,
    Piece::King,
];

/// How many pieces of each kind but the king each side has, four bits a count (a side has at
/// most fifteen pieces besides its king: `parse_fen` refuses more, and no move adds one),
/// White's pawns to queens in the high bits, then Black's: what the material table keys
/// positions by. Only captures and promotions change it, so the search carries it along the
/// path (`after`) rather than counting every node's pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Material(u64);

impl Material {
    /// The material of `board`, counted.
    pub fn of(board: &Board) -> Self {
        let counts = [Color::White, Color::Black].iter().flat_map(|&color| {
            PIECES[..5]
                .iter()
                .map(move |&piece| u64::from(board.colored_pieces(color, piece).len()))
        });
        Material(counts.fold(0, |packed, count| packed << 4 | count))
    }

    /// The material after `mv` is played on `board`, whose material this is.
    pub fn after(self, board: &Board, mv: Move) -> Self {
        let us = board.side_to_move();
        let mut packed = self.0;
        // One test for an ordinary capture; en passant, the rare other one, only when it fails.
        let victim = if board.colors(!us).has(mv.to) {
            board.piece_on(mv.to)
        } else {
            is_en_passant(board, mv).then_some(Piece::Pawn)
        };
        if let Some(victim) = victim {
            packed = packed.wrapping_sub(Self::one(!us, victim));
        }
        if let Some(promoted) = mv.promotion {
            packed = packed
                .wrapping_sub(Self::one(us, Piece::Pawn))
                .wrapping_add(Self::one(us, promoted));
        }
        Material(packed)
    }

    /// One piece of `color`'s `piece` in the packed counts.
    fn one(color: Color, piece: Piece) -> u64 {
        let field = color as u32 * 5 + piece as u32;
        1 << (4 * (9 - field))
    }
}

/// The key of the `feature` of a position (`board`, its `material`, reached by `previous`):
/// positions equal in that feature share it. `None` where the position lacks the feature (no
/// previous move).
fn key(
    feature: Feature,
    board: &Board,
    material: Material,
    previous: Option<PieceTo>,
) -> Option<u64> {
    Some(match feature {
        Feature::Pawns => {
            let white = board.colored_pieces(Color::White, Piece::Pawn).0;
            let black = board.colored_pieces(Color::Black, Piece::Pawn).0;
            white.wrapping_mul(MIX[0]) ^ black.wrapping_mul(MIX[1])
        }
        Feature::Pieces(color) => PIECES[1..].iter().zip(MIX).fold(0, |key, (&piece, mix)| {
            key ^ board.colored_pieces(color, piece).0.wrapping_mul(mix)
        }),
        Feature::Material => material.0.wrapping_mul(MIX[5]),
        Feature::PreviousMove => (previous?.index() as u64 + 1).wrapping_mul(MIX[2]),
    })
}

/// The slot of a position (`board`, its `material`, reached by `previous`) in the table of the
/// `table`-th feature; `None` where the position lacks that feature.
fn index(
    table: usize,
    board: &Board,
    material: Material,
    previous: Option<PieceTo>,
) -> Option<usize> {
    let slot = (key(FEATURES[table].0, board, material, previous)? >> 50) as usize & (SIZE - 1);
    Some((table * 2 + board.side_to_move() as usize) * SIZE + slot)
}

/// Per-thread tables of static-evaluation corrections, one per feature of `FEATURES`.
pub struct CorrectionHistory {
    entries: Vec<i32>,
}

impl CorrectionHistory {
    /// Empty tables (no corrections).
    pub fn new() -> Self {
        CorrectionHistory {
            entries: vec![0; FEATURES.len() * 2 * SIZE],
        }
    }

    /// Forgets everything (`ucinewgame`, bench).
    pub fn clear(&mut self) {
        self.entries.fill(0);
    }

    /// Where a position (`board`, its `material`, reached by `previous`) lies in each
    /// feature's table (`None` for a table that has no slot for it).
    fn slots(
        board: &Board,
        material: Material,
        previous: Option<PieceTo>,
    ) -> [Option<usize>; FEATURES.len()] {
        debug_assert_eq!(material, Material::of(board));
        std::array::from_fn(|table| index(table, board, material, previous))
    }

    /// The correction held at `slots`, in centipawns.
    fn correction(&self, slots: &[Option<usize>; FEATURES.len()]) -> i32 {
        let sum: i64 = slots
            .iter()
            .zip(FEATURES)
            .filter_map(|(&slot, (_, weight))| {
                Some(i64::from(self.entries[slot?]) * i64::from(weight))
            })
            .sum();
        ((sum / (256 * i64::from(GRAIN))) as i32).clamp(-CORRECTION_MAX, CORRECTION_MAX)
    }

    /// The static evaluation `raw` of `board` (of `material`), reached by the opponent's move
    /// `previous` (`None` at the root or after a null move), corrected.
    pub fn corrected(
        &self,
        board: &Board,
        material: Material,
        previous: Option<PieceTo>,
        raw: i32,
    ) -> i32 {
        raw + self.correction(&Self::slots(board, material, previous))
    }

    /// Folds in a search result: the node `board` (of `material`), reached by `previous`,
    /// searched at `depth`, scored `searched` where the uncorrected static evaluation said
    /// `raw`. Each table moves by a share of what the corrected evaluation still misses.
    pub fn update(
        &mut self,
        board: &Board,
        material: Material,
        previous: Option<PieceTo>,
        depth: i32,
        raw: i32,
        searched: i32,
    ) {
        // The keys are computed once, for the correction and for the tables it changes.
        let slots = Self::slots(board, material, previous);
        let missed = (searched - raw - self.correction(&slots))
            .clamp(-2 * CORRECTION_MAX, 2 * CORRECTION_MAX);
        let weight =
            (depth * CORRECTION_UPDATE_WEIGHT_PER_PLY).clamp(1, CORRECTION_UPDATE_WEIGHT_MAX);
        let bound = CORRECTION_MAX * GRAIN;
        for slot in slots.into_iter().flatten() {
            let entry = &mut self.entries[slot];
            *entry = (*entry + missed * GRAIN * weight / 256).clamp(-bound, bound);
        }
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
    use crate::rules::{parse_fen, Square};

    /// The correction of `table` for `board`, its material counted.
    fn corrected(
        table: &CorrectionHistory,
        board: &Board,
        previous: Option<PieceTo>,
        raw: i32,
    ) -> i32 {
        table.corrected(board, Material::of(board), previous, raw)
    }

    #[test]
    fn material_carried_along_a_game_equals_material_counted() {
        // Captures, en passant, promotions with and without a capture, castling: after every
        // move the carried material is the counted one.
        let games = [
            (
                crate::rules::START_FEN,
                "e2e4 d7d5 e4d5 c7c5 d5c6 b7b6 c6c7 d8d7 c7b8q g8f6 b8c8 d7c8 g1f3 h7h5 f1c4 h5h4 \
                 e1h1 h4h3 a2a3 h3g2 b2b3 g2f1q g1f1",
            ),
            ("4k3/P7/8/8/8/8/7p/4K3 w - - 0 1", "a7a8n h2h1r"),
        ];
        for (fen, moves) in games {
            let mut board = parse_fen(fen, false).unwrap();
            let mut material = Material::of(&board);
            for text in moves.split_whitespace() {
                let mv = crate::rules::legal_moves(&board)
                    .into_iter()
                    .find(|m| m.to_string() == text)
                    .unwrap_or_else(|| panic!("{text} is not legal"));
                material = material.after(&board, mv);
                board.play(mv);
                assert_eq!(material, Material::of(&board), "after {text}");
            }
        }
    }

    /// Folds the same result into `table` fifty times, from searches of depth 8.
    fn teach(
        table: &mut CorrectionHistory,
        board: &Board,
        previous: Option<PieceTo>,
        raw: i32,
        searched: i32,
    ) {
        for _ in 0..50 {
            table.update(board, Material::of(board), previous, 8, raw, searched);
        }
    }

    #[test]
    fn learns_towards_the_search_result_within_bounds() {
        let board = parse_fen(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            false,
        )
        .unwrap();
        let mut table = CorrectionHistory::new();
        assert_eq!(corrected(&table, &board, None, 10), 10);
        teach(&mut table, &board, None, 10, 40);
        let learned = corrected(&table, &board, None, 10);
        assert!((38..=40).contains(&learned), "{learned}");
        teach(&mut table, &board, None, 10, 10_000);
        // Capped: a huge search score moves the correction only up to the limit.
        let capped = corrected(&table, &board, None, 0);
        assert!(
            (CORRECTION_MAX - 2..=CORRECTION_MAX).contains(&capped),
            "{capped}"
        );
        // The other side to move, same pawns: a separate entry.
        let black = parse_fen(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3",
            false,
        )
        .unwrap();
        assert_eq!(corrected(&table, &black, None, 0), 0);
        table.clear();
        assert_eq!(corrected(&table, &board, None, 0), 0);
    }

    #[test]
    fn the_move_that_led_to_a_position_carries_part_of_its_correction() {
        let board = |fen| parse_fen(fen, false).unwrap();
        let learned = board("r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 4 4");
        // Nothing else in common: other pawns, pieces and material.
        let elsewhere = board("8/5pk1/6p1/8/3R4/6P1/5PK1/8 w - - 0 40");
        let knight = Some(PieceTo {
            piece: Piece::Knight,
            to: Square::F6,
        });
        let bishop = Some(PieceTo {
            piece: Piece::Bishop,
            to: Square::B4,
        });
        let mut table = CorrectionHistory::new();
        teach(&mut table, &learned, knight, 0, 40);
        let full = corrected(&table, &learned, knight, 0);
        assert!((38..=40).contains(&full), "{full}");
        let other_move = corrected(&table, &learned, bishop, 0);
        assert_eq!(other_move, corrected(&table, &learned, None, 0));
        assert!(other_move < full, "{other_move}");
        let same_move_only = corrected(&table, &elsewhere, knight, 0);
        assert!(
            0 < same_move_only && same_move_only < other_move,
            "{same_move_only}"
        );
        assert_eq!(corrected(&table, &elsewhere, bishop, 0), 0);
    }

    #[test]
    fn positions_that_share_features_share_part_of_a_correction() {
        let board = |fen| parse_fen(fen, false).unwrap();
        let learned = board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        // The same pieces, one pawn elsewhere: the pawn table knows nothing of it.
        let other_pawns = board("r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 3");
        // The same pawns, the knights elsewhere: the piece tables know nothing of it.
        let other_pieces =
            board("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 2 3");
        // Pawns and knights elsewhere: only the material is shared.
        let only_material =
            board("rnbqkb1r/pppp1ppp/5n2/4p3/3PP3/2N5/PPP2PPP/R1BQKBNR w KQkq - 0 3");
        let mut table = CorrectionHistory::new();
        teach(&mut table, &learned, None, 0, 40);
        let full = corrected(&table, &learned, None, 0);
        assert!((38..=40).contains(&full), "{full}");
        let material = corrected(&table, &only_material, None, 0);
        for partial in [&other_pawns, &other_pieces].map(|b| corrected(&table, b, None, 0)) {
            assert!(
                0 < material && material < partial && partial < full,
                "{material} {partial}"
            );
        }
    }
}
