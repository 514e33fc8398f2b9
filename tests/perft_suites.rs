//! Every perft count of the three suites in `tests/data/perft/`, up to the depths that fit in
//! CI's budget (the deep counts are checked by `make perft-deep`, see docs/testing.md).
//!
//! Data: a FEN, then `;D1 n ;D2 n …` counts per depth; sources in `tests/data/SOURCES.md`.

use std::path::PathBuf;
use tropa::rules::perft::{parse_suite_line, perft};

fn suite(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/perft")
        .join(name)
}

/// Checks every count of `file` whose depth is at most `max_depth` and whose expected value is
/// at most `max_nodes`; returns how many were checked.
fn check(file: &str, max_depth: u32, max_nodes: u128) -> usize {
    let path = suite(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut checked = 0;
    for (number, line) in text.lines().enumerate() {
        let Some(case) =
            parse_suite_line(line).unwrap_or_else(|e| panic!("{file}:{}: {e}", number + 1))
        else {
            continue;
        };
        for &(depth, expected) in &case.expected {
            if depth <= max_depth && expected <= max_nodes {
                assert_eq!(
                    perft(&case.board, depth) as u128,
                    expected,
                    "{file}:{} depth {depth}: {}",
                    number + 1,
                    case.fen
                );
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn perftsuite_epd() {
    assert!(check("perftsuite.epd", 5, 20_000_000) > 500);
}

#[test]
fn cpw_perft_positions() {
    assert!(check("cpw_perft_positions.epd", 5, 20_000_000) > 25);
}

#[test]
fn chess960_fischer() {
    assert!(check("chess960_fischer.epd", 4, 2_000_000) >= 960 * 3);
}
