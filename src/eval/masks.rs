//! Square sets the pawn-structure and king-safety terms need, computed at compile time.

use crate::rules::{BitBoard, Color, Square};

const fn file_mask(file: usize) -> u64 {
    0x0101_0101_0101_0101u64 << file
}

const fn adjacent_files(file: usize) -> u64 {
    let mut m = 0;
    if file > 0 {
        m |= file_mask(file - 1);
    }
    if file < 7 {
        m |= file_mask(file + 1);
    }
    m
}

/// Ranks strictly in front of `rank` for `white` (true) or black.
const fn ranks_ahead(rank: usize, white: bool) -> u64 {
    if white {
        if rank >= 7 {
            0
        } else {
            !0u64 << ((rank + 1) * 8)
        }
    } else if rank == 0 {
        0
    } else {
        !0u64 >> ((8 - rank) * 8)
    }
}

const fn build(kind: usize) -> [[u64; 64]; 2] {
    let mut out = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            let (file, rank) = (sq % 8, sq / 8);
            let ahead = ranks_ahead(rank, c == 0);
            out[c][sq] = match kind {
                0 => ahead & file_mask(file),
                1 => ahead & (file_mask(file) | adjacent_files(file)),
                // Own pawns that could still come level to support: adjacent files, this rank and behind.
                _ => !ahead & adjacent_files(file),
            };
            sq += 1;
        }
        c += 1;
    }
    out
}

static FORWARD_FILE: [[u64; 64]; 2] = build(0);
static PASSED_SPAN: [[u64; 64]; 2] = build(1);
static SUPPORT_SPAN: [[u64; 64]; 2] = build(2);

/// Squares strictly in front of `sq` on its file, from `color`'s side.
#[inline(always)]
pub fn forward_file(color: Color, sq: Square) -> BitBoard {
    BitBoard(FORWARD_FILE[color as usize][sq as usize])
}

/// Squares in front of `sq` on its own and the adjacent files: a pawn is passed when no enemy
/// pawn stands there.
#[inline(always)]
pub fn passed_span(color: Color, sq: Square) -> BitBoard {
    BitBoard(PASSED_SPAN[color as usize][sq as usize])
}

/// Squares on the adjacent files at the same rank or behind, where supporting pawns can be.
#[inline(always)]
pub fn support_span(color: Color, sq: Square) -> BitBoard {
    BitBoard(SUPPORT_SPAN[color as usize][sq as usize])
}

/// The files next to `sq`'s file.
#[inline(always)]
pub fn adjacent_file_mask(sq: Square) -> BitBoard {
    BitBoard(adjacent_files(sq as usize % 8))
}

/// King-move distance between two squares.
#[inline(always)]
pub fn distance(a: Square, b: Square) -> i32 {
    let df = (a as i32 % 8 - b as i32 % 8).abs();
    let dr = (a as i32 / 8 - b as i32 / 8).abs();
    df.max(dr)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans() {
        assert_eq!(forward_file(Color::White, Square::E2).len(), 6);
        assert_eq!(forward_file(Color::Black, Square::E2).len(), 1);
        assert_eq!(passed_span(Color::White, Square::A7).len(), 2);
        assert_eq!(support_span(Color::White, Square::E4).len(), 8);
        assert_eq!(distance(Square::A1, Square::H8), 7);
    }
}
