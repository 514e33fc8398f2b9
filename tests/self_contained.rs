//! The repository stands on its own: no source or test file refers to the team's data folder
//! beside the repository, which a clone does not have. Everything a test reads lives in
//! `tests/data/` (sources in `tests/data/SOURCES.md`); the developers' tools in `scripts/` and
//! the docs may still name that folder, for matches against other engines and tuning data.
//! `.ci/run` proves the rest: it runs the tests in a copy of the repository with nothing beside it.

use std::path::{Path, PathBuf};

/// The folders whose files are sources or tests: the engine, its crates, the fuzz targets.
const CHECKED: &[&str] = &["src", "tests", "crates", "fuzz", ".ci"];

/// Folders that hold build output, not sources.
const SKIPPED: &[&str] = &["target", "artifacts", "corpus"];

/// The path of the team's folder as a file would name it, put together here so that this file
/// does not name it itself.
fn team_folder() -> String {
    ["..", "shared"].join("/")
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            if !SKIPPED.iter().any(|s| name == *s) {
                files(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

#[test]
fn no_source_or_test_refers_to_the_team_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    for dir in CHECKED {
        files(&root.join(dir), &mut all);
    }
    all.push(root.join("Makefile"));
    assert!(all.len() > 100, "only {} files found", all.len());
    let needle = team_folder();
    let offenders: Vec<String> = all
        .iter()
        .filter(|path| {
            // Binary files (tables, nets, books) are read as bytes and never match by chance.
            std::fs::read(path).is_ok_and(|bytes| {
                bytes
                    .windows(needle.len())
                    .any(|window| window == needle.as_bytes())
            })
        })
        .map(|path| {
            path.strip_prefix(root)
                .unwrap_or(path)
                .display()
                .to_string()
        })
        .collect();
    assert!(
        offenders.is_empty(),
        "these files refer to {needle}, which a clone of the repository does not have \
         (move the data into tests/data/): {offenders:?}"
    );
}
