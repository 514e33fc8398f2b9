//! What the command-line tests share: running the trainer, the built-in net, a small data file.

// Each test file is a crate of its own and uses only some of these.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `tropa-trainer` run with `args`.
pub fn trainer(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tropa-trainer"))
        .args(args)
        .output()
        .expect("run tropa-trainer")
}

/// The engine's built-in net file.
pub fn default_net() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../src/eval/nnue/default.nnue")
}

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
