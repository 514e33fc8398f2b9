//! The small self-play file that the unit tests (`crate::tests`) and the command-line tests
//! (`tests/common`, which include this file by path) train and measure on: one source for both.

use std::path::{Path, PathBuf};

/// A `tropa datagen` file of `games` short self-play games (300 nodes a move, 8 random plies),
/// `games.dg` in `dir`.
pub fn selfplay_file(dir: &Path, seed: u64, games: u32) -> PathBuf {
    let path = dir.join("games.dg");
    let run = tropa::datagen::RunSettings {
        play: tropa::datagen::play::PlaySettings {
            nodes: 300,
            random_plies: 8,
            openings: Vec::new(),
        },
        seed,
        games,
        threads: 1,
        hash_mb: 1,
        net: None,
    };
    tropa::datagen::run(&run, None, &path, &Default::default()).unwrap();
    path
}
