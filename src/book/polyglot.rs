//! Polyglot books in and out: so that users can bring their books to Tropa and take Tropa's to
//! other GUIs.
//!
//! Design note: a Polyglot book is a sorted array of 16-byte big-endian entries (position key,
//! move, weight, learn). Keys are computed with `shakmaty`'s Polyglot-compatible Zobrist hashing
//! (the en-passant file counts only when a pawn stands ready to take, as the format says),
//! converting the position by FEN; the tests check the published keys. Polyglot writes castling
//! as the king taking its own rook, which is the internal form in `rules` too.
//!
//! Export walks the tree and writes, for every node, its replies: the weight is the number of
//! games behind a reply when it is one of the best rated for the side to move (the replies Tropa
//! plays) and 0 otherwise (a reply GUIs will not play); a best reply of a book built from games
//! gets at least 1. A position reached by several move orders appears once per move, with the
//! largest weight. The learn field is written as 0.
//!
//! Import walks the Polyglot book from the start position up to `plies` plies and grows the tree
//! (transpositions become separate branches). Polyglot books carry no evaluation, so every
//! imported move is rated = (equal) and Tropa chooses among a position's moves of positive
//! weight in proportion to their weights, as Polyglot does; the weight is kept as the node's
//! count (the book is flagged so), so export gives it back. A move of weight 0 is kept with what follows it but never played and left out
//! of the minimax (`Book::excluded`). Entries never reached from the start position within the
//! depth, and illegal moves, are left out and counted.

use super::code::MoveCode;
use super::probe::best_replies;
use super::tree::FLAG_POLYGLOT_WEIGHTS;
use super::tree::{Book, ROOT};
use crate::rules::{Board, File, Move, Piece, Rank, Square};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use std::collections::HashMap;

/// One entry of a Polyglot book.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Entry {
    /// Position key.
    pub key: u64,
    /// Move: to file, to rank, from file, from rank (3 bits each), promotion piece (3 bits).
    pub mv: u16,
    /// Weight (relative frequency of choice).
    pub weight: u16,
    /// Learning data (Tropa writes 0).
    pub learn: u32,
}

/// The Polyglot key of a position.
pub fn key(board: &Board) -> u64 {
    let fen: shakmaty::fen::Fen = format!("{board:#}")
        .parse()
        .expect("a board's own FEN parses");
    let pos: Chess = fen
        .into_position(CastlingMode::Chess960)
        .expect("a legal board converts");
    let Zobrist64(k) = pos.zobrist_hash(EnPassantMode::PseudoLegal);
    k
}

/// A move in Polyglot's encoding (castling as king-takes-rook).
pub fn encode_move(mv: Move) -> u16 {
    let promotion = match mv.promotion {
        Some(Piece::Knight) => 1,
        Some(Piece::Bishop) => 2,
        Some(Piece::Rook) => 3,
        Some(Piece::Queen) => 4,
        _ => 0,
    };
    (mv.to.file() as u16)
        | (mv.to.rank() as u16) << 3
        | (mv.from.file() as u16) << 6
        | (mv.from.rank() as u16) << 9
        | promotion << 12
}

/// A Polyglot move, if it is legal in `board`.
pub fn decode_move(board: &Board, raw: u16) -> Option<Move> {
    let square = |bits: u16| {
        Square::new(
            File::index(usize::from(bits & 7)),
            Rank::index(usize::from((bits >> 3) & 7)),
        )
    };
    let promotion = match (raw >> 12) & 7 {
        0 => None,
        1 => Some(Piece::Knight),
        2 => Some(Piece::Bishop),
        3 => Some(Piece::Rook),
        4 => Some(Piece::Queen),
        _ => return None,
    };
    let mv = Move {
        from: square(raw >> 6),
        to: square(raw),
        promotion,
    };
    board.is_legal(mv).then_some(mv)
}

/// Reads the entries of a Polyglot book file image (`name` is used in errors).
pub fn read_entries(bytes: &[u8], name: &str) -> Result<Vec<Entry>, String> {
    if !bytes.len().is_multiple_of(16) {
        return Err(format!(
            "{name}: not a Polyglot book ({} bytes is not a whole number of 16-byte entries)",
            bytes.len()
        ));
    }
    Ok(bytes
        .chunks_exact(16)
        .map(|c| Entry {
            key: u64::from_be_bytes(c[0..8].try_into().unwrap()),
            mv: u16::from_be_bytes([c[8], c[9]]),
            weight: u16::from_be_bytes([c[10], c[11]]),
            learn: u32::from_be_bytes(c[12..16].try_into().unwrap()),
        })
        .collect())
}

/// The file image of entries, sorted by key (then weight, highest first, then move).
pub fn write_entries(entries: &[Entry]) -> Vec<u8> {
    let mut sorted = entries.to_vec();
    sorted.sort_by_key(|e| (e.key, std::cmp::Reverse(e.weight), e.mv, e.learn));
    let mut out = Vec::with_capacity(16 * sorted.len());
    for e in sorted {
        out.extend_from_slice(&e.key.to_be_bytes());
        out.extend_from_slice(&e.mv.to_be_bytes());
        out.extend_from_slice(&e.weight.to_be_bytes());
        out.extend_from_slice(&e.learn.to_be_bytes());
    }
    out
}

/// The Polyglot entries of a book (see the module note for the weights).
pub fn export(book: &Book) -> Vec<Entry> {
    let mut best: HashMap<(u64, u16), u16> = HashMap::new();
    let walked = book.walk_positions(|node, board| {
        if book.replies(node).next().is_none() {
            return Ok(());
        }
        let tied = best_replies(book, node, board.side_to_move())
            .map(|(_, tied)| tied)
            .unwrap_or_default();
        let k = key(board);
        for c in book.replies(node) {
            let weight = match (tied.contains(&c), book.counts_are_weights()) {
                (false, _) => 0,
                (true, true) => book.games(c).min(u32::from(u16::MAX)) as u16,
                (true, false) => book.games(c).clamp(1, u32::from(u16::MAX)) as u16,
            };
            let slot = best.entry((k, encode_move(book.mv(c)))).or_insert(weight);
            *slot = (*slot).max(weight);
        }
        Ok(())
    });
    debug_assert!(walked.is_ok(), "a checked book replays");
    best.into_iter()
        .map(|((key, mv), weight)| Entry {
            key,
            mv,
            weight,
            learn: 0,
        })
        .collect()
}

/// What an import kept and left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// Entries in the Polyglot book.
    pub entries: usize,
    /// Entries used at least once.
    pub used: usize,
    /// Entries with weight 0 (kept, never played).
    pub zero_weight: usize,
    /// Entries whose move is illegal in every position with their key.
    pub illegal: usize,
    /// Positions reached again by another move order, left unexpanded there.
    pub transpositions: usize,
    /// The node limit stopped the walk.
    pub truncated: bool,
}

/// Builds a book from Polyglot entries, up to `plies` plies and `max_nodes` nodes.
pub fn import(entries: &[Entry], plies: u16, max_nodes: usize) -> (Book, ImportReport) {
    let mut sorted = entries.to_vec();
    sorted.sort_by_key(|e| (e.key, std::cmp::Reverse(e.weight), e.mv));
    let mut report = ImportReport {
        entries: entries.len(),
        zero_weight: entries.iter().filter(|e| e.weight == 0).count(),
        ..Default::default()
    };
    let mut used = vec![false; sorted.len()];
    let mut illegal = vec![false; sorted.len()];
    let mut book = Book::new(plies);
    book.flags |= FLAG_POLYGLOT_WEIGHTS;
    // Depth first, so parents come before their replies and links point forward. Each position
    // is expanded once, where the walk first reaches it: a tree grown through every
    // transposition of a large book explodes long before its last ply.
    let mut stack = vec![(ROOT, Board::default(), 0u16)];
    let mut expanded = std::collections::HashSet::new();
    while let Some((node, board, depth)) = stack.pop() {
        if depth >= plies {
            continue;
        }
        let k = key(&board);
        if !expanded.insert(k) {
            report.transpositions += 1;
            continue;
        }
        let start = sorted.partition_point(|e| e.key < k);
        let mut children = Vec::new();
        for i in start..sorted.len() {
            let e = sorted[i];
            if e.key != k {
                break;
            }
            let Some(mv) = decode_move(&board, e.mv) else {
                illegal[i] = true;
                continue;
            };
            let code = MoveCode::encode(&board, mv);
            if book.reply(node, code).is_some() {
                continue;
            }
            if book.len() >= max_nodes {
                report.truncated = true;
                break;
            }
            used[i] = true;
            let child = book.add_reply(node, code);
            book.add_games(child, u32::from(e.weight), u32::from(e.weight));
            let mut next = board.clone();
            next.play_unchecked(mv);
            children.push((child, next, depth + 1));
        }
        stack.extend(children.into_iter().rev());
    }
    report.used = used.iter().filter(|&&u| u).count();
    report.illegal = (0..sorted.len())
        .filter(|&i| illegal[i] && !used[i])
        .count();
    book.minimax();
    (book, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::tree::tests::add_line;
    use crate::rules::Game;

    fn board_after(moves: &str) -> Board {
        let moves: Vec<&str> = moves.split_whitespace().collect();
        Game::from_uci(None, &moves, false).unwrap().board().clone()
    }

    #[test]
    fn keys_equal_the_published_ones() {
        // The test positions of the Polyglot book format description.
        for (moves, expected) in [
            ("", 0x463b96181691fc9c),
            ("e2e4", 0x823c9b50fd114196),
            ("e2e4 d7d5", 0x0756b94461c50fb0),
            ("e2e4 d7d5 e4e5", 0x662fafb965db29d4),
            ("e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78),
            ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1),
            ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9),
            ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637),
            ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560),
        ] {
            assert_eq!(key(&board_after(moves)), expected, "after '{moves}'");
        }
    }

    #[test]
    fn moves_round_trip() {
        let board = board_after("e2e4 e7e5 g1f3 b8c6 f1c4 f8c5");
        let castle: Move = "e1h1".parse().unwrap();
        assert_eq!(encode_move(castle), (7) | (4 << 6));
        assert_eq!(decode_move(&board, encode_move(castle)), Some(castle));
        let promo = crate::rules::parse_fen("1n5k/P7/8/8/8/8/8/K7 w - - 0 1", false).unwrap();
        for p in ["a7a8q", "a7b8n", "a7a8r", "a7b8b"] {
            let mv: Move = p.parse().unwrap();
            assert_eq!(decode_move(&promo, encode_move(mv)), Some(mv));
        }
        assert_eq!(decode_move(&promo, 7 << 12), None);
    }

    fn entry(moves: &str, mv: &str, weight: u16) -> Entry {
        Entry {
            key: key(&board_after(moves)),
            mv: encode_move(mv.parse().unwrap()),
            weight,
            learn: 0,
        }
    }

    #[test]
    fn import_then_export_preserves_a_polyglot_book() {
        let entries = vec![
            entry("", "e2e4", 40),
            entry("", "d2d4", 35),
            entry("", "g1f3", 3),
            entry("e2e4", "c7c5", 20),
            entry("e2e4", "e7e5", 18),
            entry("d2d4", "g8f6", 9),
            entry("e2e4 e7e5", "g1f3", 11),
            entry("e2e4 e7e5 g1f3", "b8c6", 7),
            entry("e2e4 e7e5 g1f3 b8c6", "f1c4", 2),
            entry("e2e4 e7e5 g1f3 b8c6 f1c4 f8c5", "e1h1", 1),
            entry("e2e4 e7e5 g1f3 b8c6 f1c4", "f8c5", 4),
        ];
        let original = write_entries(&entries);
        let (book, report) = import(&read_entries(&original, "in").unwrap(), 12, 1_000_000);
        assert_eq!((report.used, report.entries), (11, 11));
        book.check().unwrap();
        assert_eq!(write_entries(&export(&book)), original);
        // A book built by Tropa survives export → import → export.
        let mut own = Book::new(12);
        for (line, eval) in [
            ("e2e4 c7c5 g1f3 d7d6", 10),
            ("e2e4 e7e5", 60),
            ("d2d4 d7d5", 0),
        ] {
            let leaf = add_line(&mut own, line);
            own.set_eval(leaf, eval);
            own.add_games(leaf, 3, 3);
        }
        own.minimax();
        let first = write_entries(&export(&own));
        let (again, _) = import(&read_entries(&first, "x").unwrap(), 12, 1_000_000);
        assert_eq!(write_entries(&export(&again)), first);
    }

    #[test]
    fn lines_after_never_played_moves_survive_the_round_trip() {
        // Black's only book reply to 1.e4 has weight 0, yet the book goes on after it.
        let entries = vec![
            entry("", "e2e4", 5),
            entry("e2e4", "e7e5", 0),
            entry("e2e4 e7e5", "g1f3", 3),
        ];
        let original = write_entries(&entries);
        let (book, _) = import(&entries, 12, 1000);
        book.check().unwrap();
        assert_eq!(write_entries(&export(&book)), original);
    }

    /// A position reached by two move orders is expanded once: its moves are kept, the walk
    /// does not multiply (the transposition is counted).
    #[test]
    fn transpositions_are_expanded_once() {
        let entries = vec![
            entry("", "e2e4", 5),
            entry("", "g1f3", 5),
            entry("e2e4", "e7e5", 5),
            entry("g1f3", "e7e5", 5),
            entry("e2e4 e7e5", "g1f3", 5),
            entry("g1f3 e7e5", "e2e4", 5),
            entry("e2e4 e7e5 g1f3", "b8c6", 5),
        ];
        let (_, report) = import(&entries, 1000, 1_000_000);
        assert_eq!((report.used, report.transpositions), (7, 1));
    }

    #[test]
    fn import_reports_what_it_leaves_out() {
        let mut entries = vec![
            entry("", "e2e4", 5),
            entry("", "d2d4", 0),
            entry("e2e4", "e7e5", 5),
            entry("b2b3", "e7e5", 5), // never reached from the book's moves
        ];
        let mut bad = entry("", "e2e4", 5);
        bad.mv = encode_move("e2e5".parse().unwrap());
        entries.push(bad);
        let (book, report) = import(&entries, 12, 1_000_000);
        assert_eq!((report.used, report.zero_weight, report.illegal), (3, 1, 1));
        assert_eq!(book.len(), 4);
        // 1.d4 (weight 0) is in the tree but never chosen, and export gives its 0 back.
        let mut rng = crate::book::probe::Rng::seeded(5);
        for _ in 0..20 {
            let c = crate::book::probe::choose(&book, &Game::new(), 12, &mut rng).unwrap();
            assert_eq!(c.mv.to_string(), "e2e4");
        }
        let out = export(&book);
        assert!(out.contains(&entry("", "d2d4", 0)) && out.contains(&entry("", "e2e4", 5)));
        // The weights decide how often each move is played (Debian's gnuchess book: 1.e4
        // 12,135, 1.g4 4): 1.g4 about once in 3,000 probes, not once in two.
        let weighted = [entry("", "e2e4", 12_135), entry("", "g2g4", 4)];
        let (book, _) = import(&weighted, 12, 1_000);
        let g4 = (0..30_000)
            .filter(|_| {
                let c = crate::book::probe::choose(&book, &Game::new(), 12, &mut rng).unwrap();
                c.mv.to_string() == "g2g4"
            })
            .count();
        assert!((1..40).contains(&g4), "1.g4 chosen {g4} times in 30,000");
        let (_, limited) = import(&entries, 12, 2);
        assert!(limited.truncated);
        assert!(read_entries(&[0; 17], "odd.bin")
            .unwrap_err()
            .contains("odd.bin"));
    }
}
