//! Using the library in play (Yudin's figure 19): follow the game's moves down the tree; on
//! the engine's turn pick among the replies with the best rating for its side, at random when
//! several tie; when a move is not in the tree or the variation ends, the search takes over.
//!
//! Design note: the walk replays the game from the start position, encoding each move and
//! looking it up among the replies of the previous one (SON, then BRAT after BRAT) — Yudin's
//! procedures E, F, H and K. It needs the game to start from the standard position; an opening
//! move outside the trees (as Black: 1.b3 when the trees are 1.e4, 1.d4, 1.c4, 1.g3, 1.Nf3)
//! finds no reply and hands over at once. The random choice is uniform (procedure J), or in
//! proportion to the replies' games when asked (`BookWeighted`) and always for a book imported
//! from Polyglot, whose counts are the Polyglot weights; from a small generator seeded from the
//! clock unless a seed is given.

use super::code::{MoveCode, Rating};
use super::tree::{Book, ROOT};
use crate::rules::{Board, Color, Game, Move};

/// A small, fast pseudo-random generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator with a fixed seed (reproducible choices).
    pub fn seeded(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A generator seeded from the clock, as Yudin's procedure J did.
    pub fn from_clock() -> Rng {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        Rng(nanos ^ (u64::from(std::process::id()) << 32))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// Does the game start from the standard start position?
pub fn starts_from_standard(game: &Game) -> bool {
    static START: std::sync::OnceLock<Board> = std::sync::OnceLock::new();
    !game.chess960() && game.start() == START.get_or_init(Board::default)
}

/// Just enough of a board to encode moves along a game quickly: what stands on each square
/// (0 empty, 1 pawn, 2 king, 3 other piece; +4 for Black).
#[derive(Clone)]
struct Mailbox([u8; 64]);

impl Mailbox {
    const PAWN: u8 = 1;
    const KING: u8 = 2;
    const OTHER: u8 = 3;
    const BLACK: u8 = 4;

    fn start() -> Mailbox {
        let mut squares = [0u8; 64];
        for (i, sq) in squares.iter_mut().enumerate() {
            let piece = match i / 8 {
                1 | 6 => Mailbox::PAWN,
                0 | 7 if i % 8 == 4 => Mailbox::KING,
                0 | 7 => Mailbox::OTHER,
                _ => 0,
            };
            *sq = piece | if i >= 48 { Mailbox::BLACK } else { 0 };
        }
        Mailbox(squares)
    }

    /// Encodes a legal move and plays it.
    #[inline]
    fn code_and_play(&mut self, mv: Move) -> MoveCode {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let piece = self.0[from];
        let target = self.0[to];
        let castling =
            piece & 3 == Mailbox::KING && target != 0 && (target ^ piece) & Mailbox::BLACK == 0;
        let en_passant = piece & 3 == Mailbox::PAWN && from % 8 != to % 8 && target == 0;
        self.0[from] = 0;
        if castling {
            let rank = from / 8 * 8;
            let (king, rook) = if to > from { (6, 5) } else { (2, 3) };
            self.0[to] = 0;
            self.0[rank + king] = piece;
            self.0[rank + rook] = Mailbox::OTHER | (piece & Mailbox::BLACK);
        } else {
            if en_passant {
                self.0[from / 8 * 8 + to % 8] = 0;
            }
            self.0[to] = if mv.promotion.is_some() {
                Mailbox::OTHER | (piece & Mailbox::BLACK)
            } else {
                piece
            };
        }
        MoveCode::encode_kind(mv, castling, en_passant)
    }
}

/// Encodes a line of legal moves played from the start position.
pub fn encode_line(moves: &[Move]) -> Vec<MoveCode> {
    let mut board = Mailbox::start();
    moves.iter().map(|&mv| board.code_and_play(mv)).collect()
}

/// The node of the game's current position, or `None` when the game has left the book (or
/// does not start from the standard position).
pub fn locate(book: &Book, game: &Game) -> Option<u32> {
    if !starts_from_standard(game) {
        return None;
    }
    let mut board = Mailbox::start();
    let mut node = ROOT;
    for &mv in game.moves() {
        node = book.reply(node, board.code_and_play(mv))?;
    }
    Some(node)
}

/// The best rating for `side` among the replies to `node`, and the replies that have it.
pub fn best_replies(book: &Book, node: u32, side: Color) -> Option<(Rating, Vec<u32>)> {
    let best = match side {
        Color::White => book.counted_replies(node).map(|c| book.rating(c)).max()?,
        Color::Black => book.counted_replies(node).map(|c| book.rating(c)).min()?,
    };
    let tied = book
        .counted_replies(node)
        .filter(|&c| book.rating(c) == best)
        .collect();
    Some((best, tied))
}

/// A move chosen from the book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookChoice {
    /// The move (castling as king-takes-rook).
    pub mv: Move,
    /// Its node.
    pub node: u32,
    /// Its rating.
    pub rating: Rating,
    /// How many replies shared the best rating.
    pub tied: usize,
    /// How many replies the book has in the position.
    pub replies: usize,
}

/// The engine's book move in the game's position (procedures G, I, J, L), or `None` when the
/// search must take over: out of book, end of the variation, or deeper than `max_plies`. The
/// choice among the best is uniform, or weighted for a book imported from Polyglot.
pub fn choose(book: &Book, game: &Game, max_plies: usize, rng: &mut Rng) -> Option<BookChoice> {
    choose_by(book, game, max_plies, rng, book.counts_are_weights())
}

/// As `choose`; with `weighted`, the replies sharing the best rating are drawn in proportion
/// to their games (uniformly when they have none).
pub fn choose_by(
    book: &Book,
    game: &Game,
    max_plies: usize,
    rng: &mut Rng,
    weighted: bool,
) -> Option<BookChoice> {
    if game.moves().len() >= max_plies {
        return None;
    }
    let node = locate(book, game)?;
    let side = game.board().side_to_move();
    let best = |c: u32| book.rating(c);
    let rating = match side {
        Color::White => book.counted_replies(node).map(best).max()?,
        Color::Black => book.counted_replies(node).map(best).min()?,
    };
    let tied: Vec<u32> = book
        .counted_replies(node)
        .filter(|&c| book.rating(c) == rating)
        .collect();
    let total: u64 = tied.iter().map(|&c| u64::from(book.games(c))).sum();
    let pick = if weighted && total > 0 {
        let mut ticket = rng.next_u64() % total;
        *tied.iter().find(|&&c| {
            let games = u64::from(book.games(c));
            if ticket < games {
                return true;
            }
            ticket -= games;
            false
        })?
    } else {
        *tied.get(rng.below(tied.len()))?
    };
    let mv = book.mv(pick);
    if !game.board().is_legal(mv) {
        return None;
    }
    Some(BookChoice {
        mv,
        node: pick,
        rating,
        tied: tied.len(),
        replies: book.replies(node).count(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::tree::tests::add_line;

    fn book() -> Book {
        let mut book = Book::new(12);
        // After 1.e4 Black has three replies: c5 and e5 equal, e6 good for White (+1).
        for (line, eval) in [
            ("e2e4 c7c5 g1f3", 10),
            ("e2e4 e7e5 g1f3", -5),
            ("e2e4 e7e6 d2d4", 80),
            ("d2d4 d7d5", 0),
        ] {
            let leaf = add_line(&mut book, line);
            book.set_eval(leaf, eval);
        }
        book.minimax();
        book
    }

    fn game(moves: &str) -> Game {
        let moves: Vec<&str> = moves.split_whitespace().collect();
        Game::from_uci(None, &moves, false).unwrap()
    }

    #[test]
    fn random_choice_only_among_the_best() {
        let book = book();
        let mut rng = Rng::seeded(7);
        let mut seen = std::collections::HashMap::new();
        for _ in 0..400 {
            let choice = choose(&book, &game("e2e4"), 12, &mut rng).unwrap();
            assert_eq!((choice.rating, choice.tied, choice.replies), (0, 2, 3));
            *seen.entry(choice.mv.to_string()).or_insert(0) += 1;
        }
        // Only c5 and e5, never the worse e6, and both about equally often.
        assert_eq!(seen.len(), 2, "{seen:?}");
        assert!(seen.values().all(|&k| k > 150), "{seen:?}");
        assert!(!seen.contains_key("e7e6"));
        // The same seed gives the same choices.
        let picks = |seed| {
            let mut rng = Rng::seeded(seed);
            (0..20)
                .map(|_| choose(&book, &game("e2e4"), 12, &mut rng).unwrap().mv)
                .collect::<Vec<_>>()
        };
        assert_eq!(picks(3), picks(3));
    }

    /// `BookWeighted`: replies that tie on rating come in proportion to their games.
    #[test]
    fn weighted_choice_follows_the_games() {
        let mut book = book();
        let c5 = locate(&book, &game("e2e4 c7c5")).unwrap();
        let e5 = locate(&book, &game("e2e4 e7e5")).unwrap();
        book.add_games(c5, 300, 300);
        book.add_games(e5, 100, 100);
        let mut rng = Rng::seeded(11);
        let draws = 20_000;
        let c5_share = (0..draws)
            .filter(|_| {
                let c = choose_by(&book, &game("e2e4"), 12, &mut rng, true).unwrap();
                c.node == c5
            })
            .count() as f64
            / draws as f64;
        assert!((c5_share - 0.75).abs() < 0.02, "{c5_share}");
        // Unweighted, the same book gives them equal chances.
        let c5_uniform = (0..draws)
            .filter(|_| choose(&book, &game("e2e4"), 12, &mut rng).unwrap().node == c5)
            .count() as f64
            / draws as f64;
        assert!((c5_uniform - 0.5).abs() < 0.02, "{c5_uniform}");
    }

    #[test]
    fn the_quick_encoder_agrees_with_the_board() {
        // Castling both ways, en passant, promotion with capture, captures by and of kings.
        for line in [
            "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1g1 g8f6 d2d3 d7d6 c1g5 c8g4 b1c3 d8d7 d1d2 e8c8",
            "e2e4 a7a6 e4e5 d7d5 e5d6 c7d6 a2a4 b7b5 a4b5 a6a5 b5b6 a5a4 b6b7 a4a3 b7a8q a3b2 a8b8 b2a1n",
            "e2e4 f7f5 e4f5 e8f7 f5f6 f7f6 d2d4 f6f7 d1h5 g7g6 h5g6 h7g6",
        ] {
            let moves: Vec<&str> = line.split_whitespace().collect();
            let g = Game::from_uci(None, &moves, false).unwrap();
            let mut board = Board::default();
            let slow: Vec<MoveCode> = g
                .moves()
                .iter()
                .map(|&mv| {
                    let c = MoveCode::encode(&board, mv);
                    board.play_unchecked(mv);
                    c
                })
                .collect();
            assert_eq!(encode_line(g.moves()), slow, "{line}");
        }
    }

    #[test]
    fn hands_over_when_the_opponent_leaves_the_book() {
        let book = book();
        let mut rng = Rng::seeded(1);
        // In book: White to move after 1.e4 c5.
        assert_eq!(
            choose(&book, &game("e2e4 c7c5"), 12, &mut rng)
                .unwrap()
                .mv
                .to_string(),
            "g1f3"
        );
        // The opponent plays 1...d6, not in the tree: the search takes over, also later.
        assert!(choose(&book, &game("e2e4 d7d6"), 12, &mut rng).is_none());
        assert!(choose(&book, &game("e2e4 d7d6 d2d4 g8f6"), 12, &mut rng).is_none());
        // As Black, a first move outside the trees hands over at once.
        assert!(choose(&book, &game("b2b3"), 12, &mut rng).is_none());
        // The variation ends after 1.e4 c5 2.Nf3.
        assert!(choose(&book, &game("e2e4 c7c5 g1f3"), 12, &mut rng).is_none());
        // Depth limit.
        assert!(choose(&book, &game("e2e4"), 1, &mut rng).is_none());
        // Not from the start position.
        let fen = Game::from_uci(
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
            &[],
            false,
        )
        .unwrap();
        assert!(choose(&book, &fen, 12, &mut rng).is_none());
        // White's first move: 1.e4 is rated 0 (Black answers c5 or e5), 1.d4 too: both tie.
        let first = choose(&book, &Game::new(), 12, &mut rng).unwrap();
        assert_eq!(first.tied, 2);
    }
}
