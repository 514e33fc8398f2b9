//! King buckets: where a side's king stands chooses which copy of the input weights that
//! side's accumulator reads, and may mirror its board between the a- and h-files.
//!
//! Design note: a piece means one thing next to a castled king and another next to a king in the
//! centre of an endgame; with king buckets the net learns a set of input weights for each region
//! of the king's squares (seen from its own side, so that both perspectives share them). With
//! mirroring, a king on files e–h sees the board mirrored so that it stands on files a–d: chess
//! is symmetric between the files but for castling, which the net does not see, so the two halves
//! share their weights and the data trains each twice as often. A perspective's features change
//! only when its own king changes bucket or half: then its accumulator is computed again from the
//! board (`AccumulatorStack`), every other move updates it by the move's few features as before.
//! A net without king buckets (`KingBuckets::SINGLE`) has one copy and never mirrors: the nets
//! before format version 3.

use crate::rules::{Board, Color, Square};

/// Most king buckets a net may have.
pub const MAX_KING_BUCKETS: usize = 32;

/// How the king's square picks a perspective's input weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingBuckets {
    count: u8,
    /// Bucket of each square of the king, seen from its own side (White's squares for White,
    /// the ranks flipped for Black).
    table: [u8; 64],
    /// A king on files e–h sees the board mirrored between the a- and h-files.
    mirrored: bool,
}

/// What a perspective's king decides about its features: the bucket and whether the board is
/// mirrored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingView {
    /// The king bucket.
    pub bucket: usize,
    /// 7 when the board is mirrored (a square's file is its low three bits), else 0.
    pub file_flip: usize,
}

impl KingBuckets {
    /// One set of input weights, never mirrored.
    pub const SINGLE: KingBuckets = KingBuckets {
        count: 1,
        table: [0; 64],
        mirrored: false,
    };

    /// Four buckets, mirrored: the king on its back rank castled or towards a corner (files
    /// a–c, f–h), on its back rank at home (d, e), on its second rank, and further up (ranks
    /// 3–8, where it goes in an endgame).
    pub fn mirrored_four() -> KingBuckets {
        let mut table = [3; 64];
        for (square, bucket) in table.iter_mut().enumerate() {
            let (rank, file) = (square / 8, square % 8);
            *bucket = match (rank, file) {
                (0, 3 | 4) => 1,
                (0, _) => 0,
                (1, _) => 2,
                _ => 3,
            };
        }
        KingBuckets {
            count: 4,
            table,
            mirrored: true,
        }
    }

    /// The layouts the trainer offers, by their number of buckets: 1 (`SINGLE`) and 4
    /// (`mirrored_four`).
    pub fn by_count(count: usize) -> Option<KingBuckets> {
        match count {
            1 => Some(KingBuckets::SINGLE),
            4 => Some(KingBuckets::mirrored_four()),
            _ => None,
        }
    }

    /// A layout from a net file's fields, or why they do not make one: every entry of `table`
    /// below `count`, every bucket used.
    pub fn new(count: usize, table: [u8; 64], mirrored: bool) -> Result<KingBuckets, String> {
        if !(1..=MAX_KING_BUCKETS).contains(&count) {
            return Err(format!(
                "{count} king buckets, this Tropa reads 1..={MAX_KING_BUCKETS}"
            ));
        }
        if let Some(entry) = table.iter().find(|&&b| usize::from(b) >= count) {
            return Err(format!("king bucket table names bucket {entry} of {count}"));
        }
        if let Some(unused) = (0..count).find(|&b| !table.iter().any(|&e| usize::from(e) == b)) {
            return Err(format!("king bucket {unused} is never used"));
        }
        Ok(KingBuckets {
            count: count as u8,
            table,
            mirrored,
        })
    }

    /// Number of buckets (copies of the input weights).
    pub fn count(&self) -> usize {
        usize::from(self.count)
    }

    /// The bucket of each king square, seen from the king's own side.
    pub fn table(&self) -> &[u8; 64] {
        &self.table
    }

    /// Does a king on files e–h see the board mirrored?
    pub fn mirrored(&self) -> bool {
        self.mirrored
    }

    /// Is this the layout of the nets without king buckets? (One bucket's table is all zeros.)
    pub fn is_single(&self) -> bool {
        self.count == 1 && !self.mirrored
    }

    /// The view of `perspective` when its king stands on `king`.
    pub fn view_of(&self, perspective: Color, king: Square) -> KingView {
        let square = king.relative_to(perspective) as usize;
        KingView {
            bucket: usize::from(self.table[square]),
            file_flip: if self.mirrored && square % 8 >= 4 {
                7
            } else {
                0
            },
        }
    }

    /// The view of `perspective` on `board` (without king buckets the king is not looked up:
    /// the search asks at every evaluation).
    pub fn view(&self, board: &Board, perspective: Color) -> KingView {
        if self.is_single() {
            return KingView {
                bucket: 0,
                file_flip: 0,
            };
        }
        self.view_of(perspective, board.king(perspective))
    }

    /// Does `perspective`'s king going from `from` to `to` change its features?
    pub fn changes_view(&self, perspective: Color, from: Square, to: Square) -> bool {
        self.view_of(perspective, from) != self.view_of(perspective, to)
    }

    /// The layout in words, as the net's shape shows it: empty for `SINGLE`.
    pub fn describe(&self) -> String {
        match (self.count, self.mirrored) {
            (1, false) => String::new(),
            (1, true) => "mirrored".into(),
            (n, false) => format!("{n} king buckets"),
            (n, true) => format!("{n} king buckets, mirrored"),
        }
    }
}

impl Default for KingBuckets {
    /// `SINGLE`, the layout of the nets without king buckets.
    fn default() -> KingBuckets {
        KingBuckets::SINGLE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{File, Rank};

    #[test]
    fn the_four_buckets_share_their_weights_between_the_halves_and_the_colours() {
        let four = KingBuckets::mirrored_four();
        let at = |file, rank| Square::new(file, rank);
        let g1 = four.view_of(Color::White, at(File::G, Rank::First));
        let b1 = four.view_of(Color::White, at(File::B, Rank::First));
        assert_eq!((g1.bucket, b1.bucket), (0, 0));
        assert_eq!((g1.file_flip, b1.file_flip), (7, 0));
        // Black's king on g8 is White's on g1 seen from its own side.
        assert_eq!(four.view_of(Color::Black, at(File::G, Rank::Eighth)), g1);
        let e1 = four.view_of(Color::White, at(File::E, Rank::First));
        let d1 = four.view_of(Color::White, at(File::D, Rank::First));
        assert_eq!((e1.bucket, d1.bucket), (1, 1));
        assert_eq!(
            four.view_of(Color::White, at(File::H, Rank::Second)).bucket,
            2
        );
        assert_eq!(
            four.view_of(Color::Black, at(File::A, Rank::First)).bucket,
            3
        );
        // Castling short crosses into the other half; a king step on the back rank within a
        // half in the same bucket does not change the view.
        assert!(four.changes_view(
            Color::White,
            at(File::E, Rank::First),
            at(File::G, Rank::First)
        ));
        assert!(!four.changes_view(
            Color::White,
            at(File::G, Rank::First),
            at(File::H, Rank::First)
        ));
        assert!(four.changes_view(
            Color::White,
            at(File::D, Rank::First),
            at(File::E, Rank::First)
        ));
        assert_eq!(KingBuckets::new(4, *four.table(), true), Ok(four));
    }

    #[test]
    fn a_single_layout_never_changes_a_view() {
        let single = KingBuckets::SINGLE;
        assert!(single.is_single() && single.describe().is_empty());
        for from in Square::ALL {
            for to in [Square::A1, Square::H8, Square::E4] {
                assert!(!single.changes_view(Color::White, from, to));
                assert!(!single.changes_view(Color::Black, from, to));
            }
        }
        assert_eq!(KingBuckets::by_count(1), Some(single));
        assert_eq!(KingBuckets::by_count(3), None);
    }

    #[test]
    fn bad_tables_are_errors_that_say_why() {
        assert!(KingBuckets::new(0, [0; 64], false)
            .unwrap_err()
            .contains("0 king buckets"));
        assert!(KingBuckets::new(33, [0; 64], false)
            .unwrap_err()
            .contains("33 king"));
        let mut table = [0; 64];
        table[5] = 4;
        assert!(KingBuckets::new(4, table, false)
            .unwrap_err()
            .contains("names bucket 4"));
        table[5] = 1;
        assert!(KingBuckets::new(3, table, true)
            .unwrap_err()
            .contains("bucket 2 is never used"));
    }
}
