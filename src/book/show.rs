//! Printing a position's book replies for people: SAN, Informator symbol, value, games and
//! variation counts, and which replies Tropa chooses from.

use super::code::Rating;
use super::probe::best_replies;
use super::rating::{rating_symbol, symbol};
use super::tree::{Book, ROOT};
use crate::rules::notation::{line_to_numbered_san, move_to_san};
use crate::rules::{repetition_key, Board, Color, Move};

/// Figures computed once per book for printing.
pub struct Overview {
    values: Vec<i32>,
    variations: Vec<u32>,
    depths: Vec<u16>,
}

impl Overview {
    /// Computes the values, variation counts and depths of every node.
    pub fn new(book: &Book) -> Overview {
        Overview {
            values: book.values(),
            variations: book.variation_counts(),
            depths: book.depths(),
        }
    }
}

/// One line describing the whole book.
pub fn summary(book: &Book, name: &str) -> String {
    let kind = if book.counts_are_weights() {
        ", imported from Polyglot"
    } else {
        ""
    };
    format!(
        "book {name}: {} moves, {} variations, {} plies{kind}",
        book.len() - 1,
        book.variations(),
        book.plies()
    )
}

fn white_share(book: &Book, node: u32) -> String {
    let games = book.games(node);
    if games == 0 || book.counts_are_weights() {
        return "-".into();
    }
    format!(
        "{:.0}%",
        50.0 * f64::from(book.points(node)) / f64::from(games)
    )
}

/// The replies to `node` (whose position is `board`) as a table; `*` marks the replies Tropa
/// chooses from.
pub fn replies(book: &Book, overview: &Overview, node: u32, board: &Board) -> Vec<String> {
    let side = board.side_to_move();
    let chosen = best_replies(book, node, side)
        .map(|(_, tied)| tied)
        .unwrap_or_default();
    let count = if book.counts_are_weights() {
        "weight"
    } else {
        "games"
    };
    let mut lines = vec![format!(
        "  {:<8} {:<3} {:>6} {:>7} {:>6} {:>10}",
        "move", "", "value", count, "White", "variations"
    )];
    for c in book.replies(node) {
        let value = overview.values[c as usize];
        let mark = if chosen.contains(&c) { " *" } else { "" };
        lines.push(format!(
            "  {:<8} {:<3} {:>+6.2} {:>7} {:>6} {:>10}{mark}",
            move_to_san(board, book.mv(c)),
            symbol(value),
            f64::from(value) / 100.0,
            book.games(c),
            white_share(book, c),
            overview.variations[c as usize],
        ));
    }
    if let Some((best, _)) = best_replies(book, node, side) {
        lines.push(format!(
            "  * = the replies Tropa chooses from at random: the best rating for {} ({})",
            if side == Color::White {
                "White"
            } else {
                "Black"
            },
            rating_name(best)
        ));
    }
    lines
}

fn rating_name(r: Rating) -> String {
    format!("{:+}, {}", r, rating_symbol(r)).replace("+0", "0")
}

/// The moves from the start position to a node.
pub fn line_to(book: &Book, node: u32) -> Vec<Move> {
    let mut parent = vec![u32::MAX; book.len()];
    for i in 0..book.len() as u32 {
        for c in book.replies(i) {
            parent[c as usize] = i;
        }
    }
    let mut line = Vec::new();
    let mut n = node;
    while n != ROOT {
        line.push(book.mv(n));
        n = parent[n as usize];
    }
    line.reverse();
    line
}

/// Every node whose position is `target` (a position can be reached by several move orders).
pub fn find_position(book: &Book, target: &Board) -> Vec<(u32, Board)> {
    let key = repetition_key(target);
    let mut found = Vec::new();
    let _ = book.walk_positions(|node, board| {
        if repetition_key(board) == key {
            found.push((node, board.clone()));
        }
        Ok(())
    });
    found
}

/// The text for a node: the line leading to it and its replies.
pub fn node_report(book: &Book, overview: &Overview, node: u32, board: &Board) -> Vec<String> {
    let line = line_to(book, node);
    let title = if line.is_empty() {
        "start position".to_string()
    } else {
        let value = overview.values[node as usize];
        format!(
            "after {} ({}, {:+.2})",
            line_to_numbered_san(&Board::default(), &line),
            symbol(value),
            f64::from(value) / 100.0
        )
    };
    let mut lines = vec![format!(
        "{title}, ply {}, {} to move:",
        overview.depths[node as usize],
        if board.side_to_move() == Color::White {
            "White"
        } else {
            "Black"
        }
    )];
    if book.replies(node).next().is_none() {
        lines.push("  the variation ends here: the search takes over".into());
    } else {
        lines.extend(replies(book, overview, node, board));
    }
    lines
}

/// The built-in book's replies for a position, for `tropa analyse`: the game's line is followed
/// from the start position; a position set up by FEN is looked up wherever it occurs in the tree.
pub fn for_analysis(game: &crate::rules::Game) -> Vec<String> {
    let book = match super::builtin() {
        Ok(book) => book,
        Err(e) => return vec![format!("{e}")],
    };
    let found = if super::probe::starts_from_standard(game) {
        super::probe::locate(book, game)
            .map(|node| (node, game.board().clone()))
            .into_iter()
            .collect()
    } else {
        find_position(book, game.board())
    };
    match found.first() {
        Some((node, board)) => {
            let mut lines = vec![format!(
                "book (built-in), {}",
                node_report(book, &Overview::new(book), *node, board).join("\n")
            )];
            lines.push(String::new());
            lines
        }
        None => vec![
            "book (built-in): the position is not in the book".into(),
            String::new(),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::tree::tests::add_line;

    #[test]
    fn shows_replies_and_finds_transpositions() {
        let mut book = Book::new(12);
        let a = add_line(&mut book, "d2d4 g8f6 c2c4 e7e6");
        let b = add_line(&mut book, "c2c4 e7e6 d2d4 g8f6");
        book.set_eval(a, 40);
        book.set_eval(b, 120);
        book.add_games(a, 2, 3);
        book.minimax();
        let overview = Overview::new(&book);
        let start = node_report(&book, &overview, ROOT, &Board::default()).join("\n");
        assert!(start.contains("d4") && start.contains("c4"), "{start}");
        assert!(start.contains("±") && start.contains("⩲"), "{start}");
        assert!(
            start.lines().any(|l| l.contains("c4") && l.ends_with('*')),
            "{start}"
        );
        assert!(
            start.contains("the best rating for White (+1, ±)"),
            "{start}"
        );
        let target = crate::rules::Game::from_uci(None, &["d2d4", "g8f6", "c2c4", "e7e6"], false)
            .unwrap()
            .board()
            .clone();
        let found = find_position(&book, &target);
        assert_eq!(found.len(), 2);
        let text = node_report(&book, &overview, found[0].0, &found[0].1).join("\n");
        assert!(
            text.contains("1. d4 Nf6 2. c4 e6") && text.contains("variation ends"),
            "{text}"
        );
        assert_eq!(line_to(&book, b).len(), 4);
    }

    #[test]
    fn analysis_shows_the_built_in_replies() {
        let game = crate::rules::Game::from_uci(None, &["e2e4"], false).unwrap();
        let text = for_analysis(&game).join("\n");
        assert!(
            text.starts_with("book (built-in), after 1. e4") && text.contains("c5"),
            "{text}"
        );
        let out = crate::rules::Game::from_uci(None, &["a2a3"], false).unwrap();
        assert!(for_analysis(&out)[0].contains("not in the book"));
    }
}
