//! The search finds the first 40 Win-At-Chess combinations at a fixed depth. A fixed depth
//! (not time) keeps the test independent of the machine's speed; a search or evaluation change
//! that stops seeing these tactics fails it.

use std::path::PathBuf;
use tropa::rules::notation::move_from_san;
use tropa::rules::Game;
use tropa::search::{Engine, Limits, SearchControl, Silent};

#[test]
fn solves_the_first_forty_wac_positions_at_depth_eight() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/suites/wac.epd");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut engine = Engine::new(16, 1);
    let (mut solved, mut missed) = (0, Vec::new());
    for line in text.lines().take(40) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let fen = fields[..4].join(" ");
        let game = Game::from_uci(Some(&fen), &[], false).unwrap();
        let bm_at = fields.iter().position(|&f| f == "bm").unwrap();
        let best: Vec<_> = fields[bm_at + 1..]
            .iter()
            .take_while(|f| !f.starts_with("id"))
            .map(|san| move_from_san(game.board(), san.trim_end_matches(';')).unwrap())
            .collect();
        engine.clear();
        let result = engine.search(
            &game,
            &Limits {
                depth: Some(8),
                ..Default::default()
            },
            &SearchControl::new(),
            &mut Silent,
        );
        if result.best.is_some_and(|m| best.contains(&m)) {
            solved += 1;
        } else {
            missed.push(fields.last().copied().unwrap_or("?").to_string());
        }
    }
    assert!(solved >= 32, "solved {solved}/40; missed {missed:?}");
}
