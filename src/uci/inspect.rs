//! Commands for a person at the console, outside the UCI standard but expected of an engine:
//! `d` (the board), `eval` (the evaluation by term) and `go perft N` (move-generator counts).
//! Everything is written as `info string` lines, so a GUI that sends them by mistake reads
//! nothing it cannot parse.

use super::Output;
use crate::eval::nnue::Network;
use crate::rules::notation::move_to_uci;
use crate::rules::perft::divide;
use crate::rules::{write_fen, Board, Square};
use std::time::Instant;

/// Deepest `go perft` accepted: the count runs on the protocol thread, and depth 7 from a
/// middlegame position already takes minutes.
pub const MAX_PERFT_DEPTH: u32 = 7;

/// `d`: the board drawn with White at the bottom, then FEN, key and checkers.
pub fn show_board(board: &Board, chess960: bool, out: &Output) {
    let rule = "  +---+---+---+---+---+---+---+---+";
    out.line(&format!("info string {rule}"));
    for rank in (0..8).rev() {
        let mut row = format!("{} |", rank + 1);
        for file in 0..8 {
            let square = Square::index(rank * 8 + file);
            row.push_str(&format!(" {} |", piece_letter(board, square)));
        }
        out.line(&format!("info string {row}"));
        out.line(&format!("info string {rule}"));
    }
    out.line("info string     a   b   c   d   e   f   g   h");
    let fen = write_fen(board, chess960);
    out.line(&format!("info string fen {fen}"));
    out.line(&format!("info string key {:016x}", board.hash()));
    let checkers: Vec<String> = board
        .checkers()
        .into_iter()
        .map(|s| s.to_string())
        .collect();
    out.line(&format!("info string checkers {}", checkers.join(" ")));
}

fn piece_letter(board: &Board, square: Square) -> char {
    match (board.piece_on(square), board.color_on(square)) {
        (Some(piece), Some(color)) => crate::rules::piece_char(piece, color),
        _ => ' ',
    }
}

/// `eval`: the hand-crafted evaluation's terms, phase, scaling and total, then the score of
/// `net` (the net in use, if any).
pub fn show_eval(board: &Board, net: Option<&Network>, out: &Output) {
    for line in crate::eval::report(board) {
        out.line(&format!("info string {line}"));
    }
    if let Some(net) = net {
        out.line(&format!("info string {}", net.report(board)));
    }
}

/// The depth of a `go perft` command (the words after `go`), if it is one.
pub fn perft_depth(args: &str) -> Option<Result<u32, String>> {
    let mut words = args.split_whitespace();
    if words.next() != Some("perft") {
        return None;
    }
    let depth = match (words.next(), words.next()) {
        (Some(d), None) => d
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=MAX_PERFT_DEPTH).contains(d)),
        _ => None,
    };
    Some(depth.ok_or_else(|| {
        format!("go perft needs one depth from 1 to {MAX_PERFT_DEPTH}, as in 'go perft 5'")
    }))
}

/// `go perft N`: the count after each root move, the total and the time.
pub fn run_perft(board: &Board, depth: u32, chess960: bool, out: &Output) {
    let start = Instant::now();
    let counts = divide(board, depth);
    for (mv, nodes) in &counts {
        out.line(&format!(
            "info string {}: {nodes}",
            move_to_uci(board, *mv, chess960)
        ));
    }
    let total: u64 = counts.iter().map(|(_, n)| n).sum();
    let seconds = start.elapsed().as_secs_f64();
    out.line(&format!(
        "info string Nodes searched: {total} in {:.0} ms ({:.0} nps)",
        seconds * 1000.0,
        total as f64 / seconds.max(1e-6)
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_commands() {
        assert_eq!(perft_depth("depth 3"), None);
        assert_eq!(perft_depth("perft 5"), Some(Ok(5)));
        for bad in ["perft", "perft 0", "perft 8", "perft x", "perft 3 4"] {
            assert!(matches!(perft_depth(bad), Some(Err(_))), "{bad}");
        }
    }
}
