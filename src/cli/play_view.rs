//! What `tropa play` shows and saves: the board with coordinates, the clocks, and the game as
//! PGN.

use crate::book::games::{tag_line, wrap};
use crate::rules::notation::line_to_numbered_san;
use crate::rules::{write_fen, Board, File, Game, Rank, Square, START_FEN};
use std::time::Duration;

/// The board as text, White at the bottom unless `black_below`, with files and ranks named.
pub fn board_text(board: &Board, black_below: bool) -> Vec<String> {
    let mut ranks: Vec<Rank> = Rank::ALL.iter().rev().copied().collect();
    let mut files: Vec<File> = File::ALL.to_vec();
    if black_below {
        ranks.reverse();
        files.reverse();
    }
    let letters: String = files
        .iter()
        .map(|f| format!(" {}", char::from(b'a' + *f as u8)))
        .collect();
    let mut lines = vec!["  +-----------------+".to_string()];
    for &rank in &ranks {
        let mut row = format!("{} |", rank as u8 + 1);
        for &file in &files {
            let square = Square::new(file, rank);
            row.push(' ');
            row.push(match (board.piece_on(square), board.color_on(square)) {
                (Some(piece), Some(color)) => crate::rules::piece_char(piece, color),
                _ => '.',
            });
        }
        row.push_str(" |");
        lines.push(row);
    }
    lines.push("  +-----------------+".into());
    lines.push(format!("   {letters}"));
    lines
}

/// A clock reading: `4:05`, or `0:09.3` in the last ten seconds.
pub fn clock_text(left: Duration) -> String {
    let s = left.as_secs_f64();
    if s < 10.0 {
        format!("0:{s:04.1}")
    } else {
        let whole = s as u64;
        format!("{}:{:02}", whole / 60, whole % 60)
    }
}

/// Today's date as PGN writes it (`2026.11.23`), from the system clock (UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + (m <= 2) as i64, m, d)
}

/// The game as PGN: the tags given (in order), `FEN`/`SetUp` for a set-up start, the moves.
pub fn game_pgn(game: &Game, tags: &[(&str, String)], result: &str) -> String {
    let mut text = String::new();
    for (name, value) in tags {
        text.push_str(&tag_line(name, value));
        text.push('\n');
    }
    text.push_str(&tag_line("Result", result));
    text.push('\n');
    let start = write_fen(game.start(), false);
    if start != START_FEN {
        text.push_str(&tag_line("SetUp", "1"));
        text.push('\n');
        text.push_str(&tag_line("FEN", &start));
        text.push('\n');
    }
    text.push('\n');
    let moves = line_to_numbered_san(game.start(), game.moves());
    let mut tokens: Vec<String> = Vec::new();
    // Keep each move number with its move.
    for word in moves.split_whitespace() {
        match tokens.last_mut() {
            Some(last) if last.ends_with('.') => {
                last.push(' ');
                last.push_str(word);
            }
            _ => tokens.push(word.to_string()),
        }
    }
    tokens.push(result.to_string());
    text.push_str(&wrap(&tokens));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_clock_date_and_pgn() {
        let board = Board::default();
        let white = board_text(&board, false);
        assert_eq!(white[1], "8 | r n b q k b n r |");
        assert_eq!(white[8], "1 | R N B Q K B N R |");
        assert_eq!(white[10], "    a b c d e f g h");
        let black = board_text(&board, true);
        assert_eq!(black[1], "1 | R N B K Q B N R |");
        assert_eq!(black[10], "    h g f e d c b a");
        assert_eq!(clock_text(Duration::from_millis(245_900)), "4:05");
        assert_eq!(clock_text(Duration::from_millis(9_340)), "0:09.3");
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_415), (2025, 11, 23));
        let game = Game::from_text(
            None,
            &["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"],
            false,
        )
        .unwrap();
        let pgn = game_pgn(&game, &[("White", "You".into())], "1-0");
        assert!(
            pgn.starts_with("[White \"You\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5"),
            "{pgn}"
        );
        assert!(pgn.ends_with("4. Qxf7# 1-0\n"), "{pgn}");
    }
}
