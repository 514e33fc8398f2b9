//! A Polyglot book used as it is: the `.bin` file users have (Debian's gnuchess-book, books
//! from the web) set as `BookFile` and probed in place, without importing it.
//!
//! Design note: the file is read once into memory as its sorted array of entries (a few MB for
//! the largest common books) and each probe is a binary search for the position's key. The
//! move is drawn at random in proportion to the entries' weights, as Polyglot itself does, so
//! that a book's main lines are played as often as their authors meant; moves of weight 0 are
//! never played. The book answers in any position its keys cover (a game set up from a FEN
//! too), within `BookDepth` plies of the game's start.

use super::polyglot::{decode_move, key, read_entries, Entry};
use super::probe::Rng;
use crate::rules::{Game, Move};

/// A Polyglot book in memory, sorted by key.
pub struct PolyglotBook {
    entries: Vec<Entry>,
}

/// A move drawn from a Polyglot book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WeightedChoice {
    /// The move (castling as king-takes-rook).
    pub mv: Move,
    /// Its weight.
    pub weight: u32,
    /// The sum of the weights of the position's playable moves.
    pub total: u32,
    /// How many playable moves the position has.
    pub moves: usize,
}

impl PolyglotBook {
    /// Reads a book from a file image. The entries must be sorted by key, as the format
    /// requires (it is how a Polyglot file is told from other data of a suitable size).
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<PolyglotBook, String> {
        let entries = read_entries(bytes, name)?;
        if entries.is_empty() {
            return Err(format!("{name}: an empty file is not a Polyglot book"));
        }
        if entries.windows(2).any(|w| w[0].key > w[1].key) {
            return Err(format!(
                "{name}: not a Polyglot book (its entries are not sorted by key)"
            ));
        }
        Ok(PolyglotBook { entries })
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Is the book empty? (Never, once read.)
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The legal moves the book gives for the game's position with their weights (weight 0
    /// included), highest first.
    pub fn moves(&self, game: &Game) -> Vec<(Move, u32)> {
        let board = game.board();
        let k = key(board);
        let start = self.entries.partition_point(|e| e.key < k);
        let mut moves: Vec<(Move, u32)> = self.entries[start..]
            .iter()
            .take_while(|e| e.key == k)
            .filter_map(|e| decode_move(board, e.mv).map(|mv| (mv, u32::from(e.weight))))
            .collect();
        moves.sort_by_key(|&(_, w)| std::cmp::Reverse(w));
        moves
    }

    /// A move drawn in proportion to the weights, or `None` when the position is not in the
    /// book, has only moves of weight 0, or the game is `max_plies` plies long or longer.
    pub fn choose(&self, game: &Game, max_plies: usize, rng: &mut Rng) -> Option<WeightedChoice> {
        if game.moves().len() >= max_plies {
            return None;
        }
        let moves: Vec<(Move, u32)> = self
            .moves(game)
            .into_iter()
            .filter(|&(_, w)| w > 0)
            .collect();
        let total: u32 = moves.iter().map(|&(_, w)| w).sum();
        if total == 0 {
            return None;
        }
        let mut ticket = (rng.next_u64() % u64::from(total)) as u32;
        for &(mv, weight) in &moves {
            if ticket < weight {
                return Some(WeightedChoice {
                    mv,
                    weight,
                    total,
                    moves: moves.len(),
                });
            }
            ticket -= weight;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::polyglot::{encode_move, write_entries};
    use crate::rules::notation::move_from_uci;

    fn entry(game: &Game, mv: &str, weight: u16) -> Entry {
        Entry {
            key: key(game.board()),
            mv: encode_move(move_from_uci(game.board(), mv, false).unwrap()),
            weight,
            learn: 0,
        }
    }

    /// Over many seeded probes each move comes about as often as its weight says (Debian's
    /// gnuchess book: 1.e4 12,135, 1.g4 4), and a move of weight 0 never.
    #[test]
    fn moves_come_in_proportion_to_their_weights() {
        let start = Game::new();
        let bytes = write_entries(&[
            entry(&start, "e2e4", 12_135),
            entry(&start, "d2d4", 6_000),
            entry(&start, "g1f3", 1_000),
            entry(&start, "g2g4", 4),
            entry(&start, "h2h4", 0),
        ]);
        let book = PolyglotBook::from_bytes(&bytes, "test").unwrap();
        let mut rng = Rng::seeded(7);
        let draws = 200_000;
        let mut counts = std::collections::HashMap::new();
        for _ in 0..draws {
            let c = book.choose(&start, 12, &mut rng).unwrap();
            assert_eq!((c.total, c.moves), (19_139, 4));
            *counts.entry(c.mv.to_string()).or_insert(0u32) += 1;
        }
        let share = |mv: &str| f64::from(*counts.get(mv).unwrap_or(&0)) / f64::from(draws);
        for (mv, weight) in [("e2e4", 12_135.0), ("d2d4", 6_000.0), ("g1f3", 1_000.0)] {
            let expected = weight / 19_139.0;
            assert!(
                (share(mv) - expected).abs() < 0.01,
                "{mv}: {} vs {expected}",
                share(mv)
            );
        }
        // 1.g4: 4 in 19,139, about 42 of 200,000; uniform choice would give 50,000.
        assert!(
            (10..150).contains(counts.get("g2g4").unwrap_or(&0)),
            "{counts:?}"
        );
        assert!(!counts.contains_key("h2h4"));
        // BookDepth: no answer at the limit.
        assert!(book.choose(&start, 0, &mut rng).is_none());
    }

    #[test]
    fn bad_files_are_refused() {
        assert!(PolyglotBook::from_bytes(&[0; 15], "x").is_err());
        assert!(PolyglotBook::from_bytes(&[], "x").is_err());
        let start = Game::new();
        let mut unsorted = write_entries(&[entry(&start, "e2e4", 1)]);
        let mut other = unsorted.clone();
        other[0] = 0;
        unsorted.splice(
            0..0,
            [0xff; 8]
                .iter()
                .copied()
                .chain(other[8..16].iter().copied()),
        );
        assert!(PolyglotBook::from_bytes(&unsorted, "x").is_err());
    }
}
