//! The book's leaf rater for `tropa book build`: Tropa's own search to a fixed depth.
//!
//! Design note: the book asks only for a `LeafRater` (`book::build`), so it never depends on the
//! search; this is where the two meet. Each rater owns an engine whose table and histories are
//! cleared before every position, which keeps the build reproducible whichever thread rates what.
//! It evaluates by hand (`Engine::new`), as when the committed book was built.

use crate::book::build::LeafRater;
use crate::rules::Game;
use crate::search::{Engine, Limits, SearchControl, Silent};

/// Rates a position by a search of `depth` plies on a cleared one-thread engine.
pub struct SearchRater {
    engine: Engine,
    depth: i32,
}

impl SearchRater {
    /// A rater searching to `depth` plies with a table of `hash_mb` megabytes.
    pub fn new(depth: i32, hash_mb: usize) -> Self {
        SearchRater {
            engine: Engine::new(hash_mb.max(1), 1),
            depth,
        }
    }
}

impl LeafRater for SearchRater {
    fn rate(&mut self, game: &Game) -> i32 {
        self.engine.clear();
        let limits = Limits {
            depth: Some(self.depth),
            ..Default::default()
        };
        let result = self
            .engine
            .search(game, &limits, &SearchControl::new(), &mut Silent);
        result.score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::build::{build, BuildConfig};
    use std::path::PathBuf;

    #[test]
    fn a_searched_book_is_reproducible_whatever_the_threads() {
        let dir = std::env::temp_dir().join(format!("tropa-leaf-search-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pgn: PathBuf = dir.join("games.pgn");
        std::fs::write(
            &pgn,
            "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n[Result \"0-1\"]\n\n1. e4 e5 2. Nf3 Nf6 0-1\n\n\
             [Result \"1/2-1/2\"]\n\n1. d4 d5 2. c4 e6 1/2-1/2\n\n[Result \"1-0\"]\n\n1. d4 d5 2. c4 c6 1-0\n\n",
        )
        .unwrap();
        let rater = || Box::new(SearchRater::new(4, 1)) as Box<dyn LeafRater>;
        let config = |threads| BuildConfig {
            files: vec![pgn.clone()],
            plies: 4,
            min_games: 1,
            threads,
        };
        let (one, report) = build(&config(1), &rater, &mut |_, _| {}, &mut |_| {}).unwrap();
        let (two, _) = build(&config(2), &rater, &mut |_, _| {}, &mut |_| {}).unwrap();
        assert_eq!(report.searched, 4);
        assert_eq!(one.to_bytes(), two.to_bytes());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
