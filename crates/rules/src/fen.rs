//! FEN parsing with clear error messages.
//!
//! Accepts standard FEN, Shredder-FEN and X-FEN castling fields (the last two for Chess960), and
//! EPD-style positions that omit the two clock fields. Everything `cozy-chess` checks (piece
//! counts, pawns on the back rank, the side not to move in check, castling rights without their
//! rook, impossible en-passant squares) is reported with the field that was wrong.

use super::{Board, Color, Piece};
use std::fmt;

/// The standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenError {
    /// The text that was given, shortened for display.
    pub fen: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FEN '{}': {}", self.fen, self.reason)
    }
}

impl std::error::Error for FenError {}

fn error(fen: &str, reason: impl Into<String>) -> FenError {
    let mut shown: String = fen.chars().take(100).collect();
    if fen.chars().count() > 100 {
        shown.push('…');
    }
    FenError {
        fen: shown,
        reason: reason.into(),
    }
}

/// Parses a FEN (6 fields) or an EPD position (4 fields, clocks default to `0 1`).
///
/// With `chess960` set, castling rights may be given as rook files (Shredder-FEN) or as `KQkq`
/// meaning the outermost rook on each side (X-FEN).
pub fn parse_fen(fen: &str, chess960: bool) -> Result<Board, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    match fields.len() {
        0 => return Err(error(fen, "empty")),
        1..=3 => {
            return Err(error(
                fen,
                format!("{} fields, expected 6 (or 4 without clocks)", fields.len()),
            ))
        }
        4..=6 => {}
        n => return Err(error(fen, format!("{n} fields, expected 6"))),
    }
    check_placement(fen, fields[0])?;
    let castling = castling_field(fen, fields[0], fields[1], fields[2], chess960)?;
    // A clock past 100 half-moves (a game that went on without a draw claim) is legal in a
    // FEN; it means the same as 100 to the 50-move rule, and `cozy-chess` stores at most that.
    let halfmove = match fields.get(4).copied().unwrap_or("0") {
        h if h.parse::<u64>().is_ok_and(|n| n > 100) => "100",
        h => h,
    };
    let fullmove = fields.get(5).copied().unwrap_or("1");
    let normalised = format!(
        "{} {} {} {} {} {}",
        fields[0], fields[1], castling, fields[3], halfmove, fullmove
    );
    let board =
        Board::from_fen(&normalised, true).map_err(|e| error(fen, explain(e, fields[0])))?;
    // `cozy-chess` does not count the king among the pieces giving check (found by fuzzing).
    let white = board.king(Color::White);
    let black = board.king(Color::Black);
    if (white.rank() as i32 - black.rank() as i32).abs() <= 1
        && (white.file() as i32 - black.file() as i32).abs() <= 1
    {
        return Err(error(fen, "the kings stand next to each other"));
    }
    Ok(board)
}

/// Writes a FEN that [`parse_fen`] reads back to the same position. In Chess960 the castling
/// field is Shredder-FEN (rook files): the `KQkq` form names the outermost rook, which is not
/// always the castling one (found by fuzzing: rooks on a8 and f8, king g8, right on f8).
pub fn write_fen(board: &Board, chess960: bool) -> String {
    if chess960 {
        format!("{board:#}")
    } else {
        board.to_string()
    }
}

/// One rank of a placement field read square by square, file a first: how many squares it
/// covers, and the piece letter on each of the first eight (`None` where empty; a digit 1–8
/// stands for that many empty squares). The error is the first character that is neither a
/// piece letter nor such a digit.
fn read_rank(rank: &str) -> Result<(usize, [Option<char>; 8]), char> {
    let mut squares = [None; 8];
    let mut files = 0;
    for c in rank.chars() {
        match c {
            '1'..='8' => files += c as usize - '0' as usize,
            'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => {
                if let Some(square) = squares.get_mut(files) {
                    *square = Some(c);
                }
                files += 1;
            }
            _ => return Err(c),
        }
    }
    Ok((files, squares))
}

/// Rank-by-rank check of the placement field, so the error names the rank at fault.
fn check_placement(fen: &str, placement: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(error(
            fen,
            format!("{} ranks in the placement, expected 8", ranks.len()),
        ));
    }
    for (i, rank) in ranks.iter().enumerate() {
        let (files, _) = read_rank(rank)
            .map_err(|c| error(fen, format!("bad piece letter '{c}' on rank {}", 8 - i)))?;
        if files != 8 {
            return Err(error(
                fen,
                format!("rank {} has {files} squares, expected 8", 8 - i),
            ));
        }
    }
    Ok(())
}

/// Rewrites the castling field as Shredder-FEN (rook files), which `cozy-chess` parses for both
/// standard chess and Chess960.
fn castling_field(
    fen: &str,
    placement: &str,
    side: &str,
    castling: &str,
    chess960: bool,
) -> Result<String, FenError> {
    if side != "w" && side != "b" {
        return Err(error(
            fen,
            format!("side to move '{side}' is not 'w' or 'b'"),
        ));
    }
    if castling == "-" {
        return Ok(castling.to_string());
    }
    let back_ranks = back_ranks(placement);
    let mut out = String::new();
    for c in castling.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = &back_ranks[color as usize];
        let king = rank.iter().position(|&p| p == Some(Piece::King));
        let rooks: Vec<usize> = (0..8).filter(|&f| rank[f] == Some(Piece::Rook)).collect();
        let file =
            match c.to_ascii_lowercase() {
                'k' | 'q' if !chess960 => {
                    // Standard chess: the king must still be on the e-file (read as Chess960,
                    // a king on f1 with rights would castle, to g1 or c1).
                    if king != Some(4) {
                        let square = if color == Color::White { "e1" } else { "e8" };
                        return Err(error(
                            fen,
                            format!("castling right '{c}' but the king is not on {square}"),
                        ));
                    }
                    if c.eq_ignore_ascii_case(&'k') {
                        7
                    } else {
                        0
                    }
                }
                'k' => match king {
                    Some(k) => *rooks.iter().rev().find(|&&r| r > k).ok_or_else(|| {
                        error(fen, format!("castling right '{c}' without a rook"))
                    })?,
                    None => {
                        return Err(error(
                            fen,
                            format!("castling right '{c}' but the king is not on its back rank"),
                        ))
                    }
                },
                'q' => match king {
                    Some(k) => *rooks.iter().find(|&&r| r < k).ok_or_else(|| {
                        error(fen, format!("castling right '{c}' without a rook"))
                    })?,
                    None => {
                        return Err(error(
                            fen,
                            format!("castling right '{c}' but the king is not on its back rank"),
                        ))
                    }
                },
                'a'..='h' => {
                    let file = c.to_ascii_lowercase() as usize - 'a' as usize;
                    // Shredder-FEN letters in standard chess must name the usual castling.
                    if !chess960 && (king != Some(4) || (file != 0 && file != 7)) {
                        return Err(error(
                            fen,
                            format!("castling right '{c}' is Chess960 castling (set UCI_Chess960)"),
                        ));
                    }
                    file
                }
                _ => return Err(error(fen, format!("bad castling letter '{c}'"))),
            };
        let letter = (b'a' + file as u8) as char;
        out.push(if color == Color::White {
            letter.to_ascii_uppercase()
        } else {
            letter
        });
    }
    Ok(out)
}

/// The pieces of each colour on its own back rank, by file (index 0 = White's first rank), from
/// a placement that passed `check_placement`.
fn back_ranks(placement: &str) -> [[Option<Piece>; 8]; 2] {
    let mut out = [[None; 8]; 2];
    let ranks: Vec<&str> = placement.split('/').collect();
    for (color, rank_text) in [(Color::White, ranks[7]), (Color::Black, ranks[0])] {
        let (_, squares) = read_rank(rank_text).unwrap_or_default();
        for (file, c) in squares.into_iter().enumerate() {
            if let Some(c) = c.filter(|c| c.is_ascii_uppercase() == (color == Color::White)) {
                out[color as usize][file] =
                    c.to_ascii_lowercase().to_string().parse::<Piece>().ok();
            }
        }
    }
    out
}

fn explain(e: cozy_chess::FenParseError, placement: &str) -> String {
    use cozy_chess::FenParseError::*;
    match e {
        InvalidBoard => explain_board(placement),
        InvalidSideToMove => "side to move is not 'w' or 'b'".into(),
        InvalidCastlingRights => {
            "castling rights without the king and rook on their squares".into()
        }
        InvalidEnPassant => "impossible en-passant square".into(),
        InvalidHalfMoveClock => "halfmove clock is not a number from 0 to 100".into(),
        InvalidFullmoveNumber => "fullmove number is not a positive number".into(),
        MissingField => "missing field".into(),
        TooManyFields => "too many fields".into(),
    }
}

/// Names the most likely reason `cozy-chess` rejected a placement that is well formed.
fn explain_board(placement: &str) -> String {
    let count = |c: char| placement.chars().filter(|&x| x == c).count();
    if count('K') != 1 || count('k') != 1 {
        return format!(
            "each side needs exactly one king (white {}, black {})",
            count('K'),
            count('k')
        );
    }
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks[0].contains(['p', 'P']) || ranks[7].contains(['p', 'P']) {
        return "pawns on the first or eighth rank".into();
    }
    if count('P') > 8 || count('p') > 8 {
        return "more than eight pawns of one colour".into();
    }
    let white = placement.chars().filter(|c| c.is_ascii_uppercase()).count();
    let black = placement.chars().filter(|c| c.is_ascii_lowercase()).count();
    if white > 16 || black > 16 {
        return "more than sixteen pieces of one colour".into();
    }
    "the side not to move is in check, or the side to move is checked by more than two pieces"
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_standard_shredder_xfen_and_epd() {
        assert!(parse_fen(START_FEN, false).is_ok());
        assert!(parse_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
            false
        )
        .is_ok());
        let shredder = parse_fen(
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            true,
        )
        .unwrap();
        let xfen = parse_fen(
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
            true,
        )
        .unwrap();
        assert_eq!(shredder.hash(), xfen.hash());
        // Regression (fuzzing): the castling rook is not the outermost one.
        let fen = "rqnb1rkr/pp3ppp/3ppn2/2p5/P7/P2P4/NQP1P1PP/BQ1BNRKR w HFf - 2 9";
        let board = parse_fen(fen, true).unwrap();
        let again = parse_fen(&write_fen(&board, true), true).unwrap();
        assert_eq!(again.hash(), board.hash());
        // Regression: a half-move clock past 100 was rejected, so the GUI's position was lost.
        let late = parse_fen("4k3/8/8/8/8/8/8/4K2R w K - 150 200", false).unwrap();
        assert_eq!(late.halfmove_clock(), 100);
        // The king off e1 without rights is fine; Black keeps its rights.
        assert!(parse_fen("r3k2r/8/8/8/8/8/8/R4K1R w kq - 0 1", false).is_ok());
        // Shredder-FEN of standard castling is fine in standard chess.
        let shredder = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", false).unwrap();
        let standard = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false).unwrap();
        assert_eq!(shredder.hash(), standard.hash());
    }

    #[test]
    fn a_rank_reads_square_by_square() {
        let (r, k, none) = (Some('r'), Some('k'), None);
        let back_rank = [r, none, none, none, k, none, none, Some('R')];
        assert_eq!(read_rank("r3k2R"), Ok((8, back_rank)));
        assert_eq!(read_rank("44"), Ok((8, [None; 8])));
        // Past the eighth file the squares are counted, not kept.
        assert_eq!(read_rank("r3k2Rpp1"), Ok((11, back_rank)));
        assert_eq!(read_rank("p9"), Err('9'));
        assert_eq!(read_rank("ppx"), Err('x'));
    }

    #[test]
    fn rejects_malformed_positions_with_reasons() {
        let cases = [
            ("", "empty"),
            ("8/8/8 w - - 0 1", "ranks"),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "ranks"),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
                "ranks",
            ),
            (
                "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "piece letter",
            ),
            (
                "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "squares",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                "side to move",
            ),
            (
                "rnbqkknr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
                "king",
            ),
            (
                "Pnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w - - 0 1",
                "pawns",
            ),
            ("4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1", "check"),
            // Found by fuzzing: adjacent kings were accepted.
            (
                "6b1/8/p1r1Qn2/7p/k4PP1/K1pB3N/8/3N2R1 w - - 1 1",
                "next to each other",
            ),
            ("8/8/8/3kK3/8/8/8/8 b - - 0 1", "next to each other"),
            ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling"),
            // Regression: accepted (as Chess960 castling) in standard chess.
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1KNR w KQkq - 0 1",
                "king is not on e1",
            ),
            ("r4k1r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "king is not on e8"),
            // Found by fuzzing: Shredder letters let Chess960 castling into standard chess,
            // and the FEN Tropa then wrote for the position was rejected.
            (
                "rn1qnbbr/pp2pppp/2ppk3/8/2PP4/3Q1N2/PP2PPPP/RNK2BBR w HA - 1 9",
                "Chess960",
            ),
            ("r3k2r/8/8/8/8/8/8/R3K2R w KB - 0 1", "Chess960"),
            ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "en-passant"),
            ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove"),
            ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove"),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "fullmove"),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", "fields"),
        ];
        for (fen, needle) in cases {
            let err = parse_fen(fen, false).expect_err(fen);
            assert!(err.reason.contains(needle), "{fen}: {}", err.reason);
        }
    }
}
