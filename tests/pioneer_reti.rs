//! Réti's study (`tests/data/reti.epd`) solved by PIONEER's zone search, and the
//! zone search's claims checked against Tropa's full alpha-beta search (no tablebases offline).

use std::path::PathBuf;
use tropa::pioneer::uses::study::{solve, StudySettings, StudyVerdict, MAX_POSITIONS};
use tropa::rules::notation::move_to_uci;
use tropa::rules::{parse_fen, Game};
use tropa::search::{Engine, Limits, SearchControl, Silent};

fn reti_fen() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/reti.epd");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let fields: Vec<&str> = text.split_whitespace().take(4).collect();
    format!("{} 0 1", fields.join(" "))
}

/// The full search's score for the side to move after `first` (White's first move).
fn full_search_after(fen: &str, first: &str, depth: i32) -> i32 {
    let game = Game::from_uci(Some(fen), &[first], false).unwrap();
    let mut engine = Engine::new(16, 1);
    let result = engine.search(
        &game,
        &Limits {
            depth: Some(depth),
            ..Default::default()
        },
        &SearchControl::new(),
        &mut Silent,
    );
    result.score
}

/// The zone search's verdict on each of White's first moves (its line and tree size are
/// checked next to the code, in `study_tests.rs`) agrees with the full search at depth 20.
#[test]
fn the_full_search_agrees_with_the_zone_search_on_retis_first_moves() {
    let fen = reti_fen();
    let board = parse_fen(&fen, false).unwrap();
    let study = solve(
        &board,
        None,
        &StudySettings::default(),
        false,
        MAX_POSITIONS,
        true,
        &mut |_| {},
    );
    assert_eq!(study.first_moves.len(), 4);
    for f in &study.first_moves {
        let uci = move_to_uci(&board, f.mv, false);
        // Black's view after White's first move: about equal after Kg7, a queen up otherwise.
        let black = full_search_after(&fen, &uci, 20);
        assert!(f.result.complete && f.result.positions > 0, "{uci}");
        if uci == "h8g7" {
            assert_eq!(f.result.verdict, StudyVerdict::Draw);
            assert!(black.abs() < 100, "full search after Kg7: {black}");
        } else {
            assert_eq!(f.result.verdict, StudyVerdict::BlackWins, "{uci}");
            assert!(black > 500, "full search after {uci}: {black}");
        }
    }
}
