//! What the command-line tests share: running the built `tropa` and the repository's Python
//! scripts, a scratch folder per test.
//! Each test file is its own crate and uses only some of these, hence `allow(dead_code)`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `tropa ARGS` to the end.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tropa"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs `tropa ARGS`: success, standard output, standard error.
pub fn tropa(args: &[&str]) -> (bool, String, String) {
    let out = run(args);
    (out.status.success(), stdout(&out), stderr(&out))
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs `python3 scripts/SCRIPT ARGS` (`PYTHON` names another interpreter): success, and
/// standard output followed by standard error.
pub fn script<S: AsRef<std::ffi::OsStr>>(script: &str, args: &[S]) -> (bool, String) {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("scripts")
        .join(script);
    let out = Command::new(python)
        .arg(path)
        .args(args)
        .output()
        .expect("python3 runs");
    (out.status.success(), stdout(&out) + &stderr(&out))
}

/// A fresh folder of one test (the tests run side by side), named after `suite` and `test`.
pub fn temp_dir(suite: &str, test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tropa-{suite}-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A stand-in for the team's match runner in `dir`: the Python `source` as `runner.py`, and an
/// empty openings file beside it. Returns the two paths, for `--match` and `--openings`.
pub fn stand_in_match_runner(dir: &Path, source: &str) -> (PathBuf, PathBuf) {
    let runner = dir.join("runner.py");
    std::fs::write(&runner, source).unwrap();
    let openings = dir.join("openings.epd");
    std::fs::write(&openings, "").unwrap();
    (runner, openings)
}
