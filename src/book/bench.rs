//! Timing book probes (`tropa book bench`): speed is measured here, never in unit tests.
//!
//! Design note: two figures, each the median over batches of ns per probe. "walk" follows a
//! line of already encoded moves down the arrays (Yudin's probe proper: SON, then BRAT after
//! BRAT); "choose" is what `go` does: replay the game from the start position, encode every
//! move, walk, pick among the best replies with the random generator. The lines are every node's
//! line from the start, so the probes cover the whole book at every depth.

use super::probe::{choose, encode_line, Rng};
use super::tree::Book;
use crate::rules::{Game, Move};
use std::hint::black_box;
use std::time::Instant;

/// The result of a benchmark.
#[derive(Clone, Debug)]
pub struct BenchResult {
    /// Lines probed per batch.
    pub lines: usize,
    /// Mean length of the lines in plies.
    pub mean_plies: f64,
    /// Median ns per walk of an encoded line.
    pub walk_ns: f64,
    /// Median ns per full choice from a game.
    pub choose_ns: f64,
    /// Batches timed.
    pub batches: usize,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Times `batches` batches of probes over every line of the book.
pub fn bench(book: &Book, batches: usize) -> BenchResult {
    // Every node's line, parents first (links point forward).
    let mut lines: Vec<Vec<Move>> = vec![Vec::new(); book.len()];
    for n in 0..book.len() as u32 {
        for c in book.replies(n) {
            let mut l = lines[n as usize].clone();
            l.push(book.mv(c));
            lines[c as usize] = l;
        }
    }
    let all = lines.split_off(1);
    let parent_lines: Vec<&[Move]> = all.iter().map(|l| &l[..l.len() - 1]).collect();
    let codes: Vec<_> = all.iter().map(|l| encode_line(l)).collect();
    let games: Vec<Game> = parent_lines
        .iter()
        .map(|l| {
            let mut g = Game::new();
            for &m in *l {
                g.play(m);
            }
            g
        })
        .collect();
    let mut walk = Vec::new();
    let mut pick = Vec::new();
    let mut rng = Rng::seeded(1);
    for _ in 0..batches.max(1) {
        let start = Instant::now();
        let mut found = 0u64;
        for line in &codes {
            found += u64::from(black_box(book.walk(black_box(line))).is_some());
        }
        walk.push(start.elapsed().as_nanos() as f64 / codes.len() as f64);
        assert_eq!(found as usize, codes.len(), "every line is in the book");
        let start = Instant::now();
        for g in &games {
            black_box(choose(book, black_box(g), usize::MAX, &mut rng));
        }
        pick.push(start.elapsed().as_nanos() as f64 / games.len() as f64);
    }
    BenchResult {
        lines: codes.len(),
        mean_plies: all.iter().map(Vec::len).sum::<usize>() as f64 / all.len().max(1) as f64,
        walk_ns: median(walk),
        choose_ns: median(pick),
        batches: batches.max(1),
    }
}
