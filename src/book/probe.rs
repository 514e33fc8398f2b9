//! Using the library in play (seed 000, figure 19): follow the game's moves down the tree; on
//! the engine's turn pick among the replies with the best rating for its side, at random when
//! several tie; when a move is not in the tree or the variation ends, the search takes over.
//!
//! Design note: the walk replays the game from the start position, encoding each move and
//! looking it up among the replies of the previous one (SON, then BRAT after BRAT) — the seed's
//! procedures E, F, H and K. It needs the game to start from the standard position; an opening
//! move outside the trees (as Black: 1.b3 when the trees are 1.e4, 1.d4, 1.c4, 1.g3, 1.Nf3)
//! finds no reply and hands over at once. The random choice is uniform (procedure J), from a
//! small generator seeded from the clock unless a seed is given.

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

    /// A generator seeded from the clock, as the seed's procedure J did.
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
    !game.chess960() && *game.start() == Board::default()
}

/// Encodes a line of moves played from the start position.
pub fn encode_line(moves: &[Move]) -> Vec<MoveCode> {
    let mut board = Board::default();
    let mut codes = Vec::with_capacity(moves.len());
    for &mv in moves {
        codes.push(MoveCode::encode(&board, mv));
        board.play_unchecked(mv);
    }
    codes
}

/// The node of the game's current position, or `None` when the game has left the book (or
/// does not start from the standard position).
pub fn locate(book: &Book, game: &Game) -> Option<u32> {
    if !starts_from_standard(game) {
        return None;
    }
    let mut board = Board::default();
    let mut node = ROOT;
    for &mv in game.moves() {
        node = book.reply(node, MoveCode::encode(&board, mv))?;
        board.play_unchecked(mv);
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
/// search must take over: out of book, end of the variation, or deeper than `max_plies`.
pub fn choose(book: &Book, game: &Game, max_plies: usize, rng: &mut Rng) -> Option<BookChoice> {
    if game.moves().len() >= max_plies {
        return None;
    }
    let node = locate(book, game)?;
    let side = game.board().side_to_move();
    let (rating, tied) = best_replies(book, node, side)?;
    let pick = tied[rng.below(tied.len())];
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
