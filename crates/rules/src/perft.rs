//! Perft: counting the leaf nodes of the legal move tree, the standard check of a move generator.
//!
//! Counts use bulk counting at the last ply (the number of legal moves is summed without making
//! them). Suites are EPD lines `FEN ;D1 20 ;D2 400 …` (both `;D1 n` and `; D1 n` forms).

use super::{parse_fen, Board, FenError, Move};

/// Number of leaf nodes `depth` plies below `board`.
pub fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
        return nodes;
    }
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += perft(&child, depth - 1);
        }
        false
    });
    nodes
}

/// Perft split by root move ("divide"), in generation order.
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    let mut out = Vec::new();
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            out.push((mv, perft(&child, depth.saturating_sub(1))));
        }
        false
    });
    out
}

/// One line of a perft suite: a position and the expected counts by depth.
#[derive(Clone, Debug)]
pub struct PerftCase {
    /// The position as written in the file.
    pub fen: String,
    /// The parsed position.
    pub board: Board,
    /// `(depth, expected leaf count)` pairs.
    pub expected: Vec<(u32, u128)>,
}

/// Parses one suite line; blank lines and `#` comments give `Ok(None)`.
pub fn parse_suite_line(line: &str) -> Result<Option<PerftCase>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut parts = line.split(';');
    let fen = parts.next().unwrap_or("").trim().to_string();
    let board = parse_fen(&fen, true).map_err(|e: FenError| e.to_string())?;
    let mut expected = Vec::new();
    for part in parts {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let (label, count) = part
            .split_once(char::is_whitespace)
            .ok_or_else(|| format!("bad field '{part}'"))?;
        let depth = label
            .strip_prefix('D')
            .and_then(|d| d.parse::<u32>().ok())
            .ok_or_else(|| format!("bad depth label '{label}'"))?;
        let count = count
            .trim()
            .parse::<u128>()
            .map_err(|_| format!("bad count '{count}'"))?;
        expected.push((depth, count));
    }
    Ok(Some(PerftCase {
        fen,
        board,
        expected,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_counts() {
        let board = Board::default();
        assert_eq!(perft(&board, 1), 20);
        assert_eq!(perft(&board, 3), 8902);
        assert_eq!(divide(&board, 2).iter().map(|(_, n)| n).sum::<u64>(), 400);
    }

    #[test]
    fn parses_both_suite_formats() {
        let a = parse_suite_line("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66")
            .unwrap()
            .unwrap();
        assert_eq!(a.expected, vec![(1, 15), (2, 66)]);
        let b = parse_suite_line("k7/6p1/8/8/8/8/7P/K7 b - - 0 1; D1 5; D2 25")
            .unwrap()
            .unwrap();
        assert_eq!(b.expected, vec![(1, 5), (2, 25)]);
        assert!(parse_suite_line("# comment").unwrap().is_none());
        assert!(parse_suite_line("bad fen ;D1 3").is_err());
    }
}
