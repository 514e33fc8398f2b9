//! `tropa plan --measure` on the master games of `tests/data/games/masters-1790-1858.pgn`: one line
//! per position, the totals, and a clear error for a file without usable games.

mod common;

use common::{temp_dir, tropa};

#[test]
fn measures_positions_and_totals() {
    let games = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/games/masters-1790-1858.pgn"
    );
    let (ok, out, err) = tropa(&[
        "plan",
        "--measure",
        games,
        "--positions",
        "2",
        "--check-depth",
        "4",
        "--referee-depth",
        "6",
    ]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("  1 game    1 ply 28: best "), "{out}");
    assert!(
        lines[..2]
            .iter()
            .all(|l| l.contains(" explained; ") || l.contains(" unexplained; ")),
        "{out}"
    );
    assert!(
        lines[2].contains("; the best move explained by a plan not refuted in "),
        "{out}"
    );
    assert!(
        lines[2].starts_with(
            "2 positions: top confirmed plan within 100 cp of the best move at depth 6 in "
        ),
        "{out}"
    );

    let dir = temp_dir("measure", "short");
    let short = dir.join("short.pgn");
    std::fs::write(&short, "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n").unwrap();
    let (ok, _, err) = tropa(&["plan", "--measure", short.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("no game reaches move 15"), "{err}");
    let (ok, _, err) = tropa(&["plan", "--measure", "/nonexistent.pgn"]);
    assert!(!ok && err.starts_with("tropa: /nonexistent.pgn"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
