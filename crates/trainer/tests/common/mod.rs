//! What the command-line tests share: running the trainer, the built-in net, a small data file.

// Each test file is a crate of its own and uses only some of these.
#![allow(dead_code, unused_imports)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "../../src/selfplay_fixture.rs"]
mod selfplay_fixture;
pub use selfplay_fixture::selfplay_file;

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
