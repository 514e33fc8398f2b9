//! The search solves as many of the 300 Win-At-Chess combinations at a fixed depth as it did
//! when the floor was last set. A fixed depth (not time) keeps the test independent of the
//! machine's speed; a search or evaluation change that loses even one of them fails it, and one
//! that gains should raise `FLOOR` in the same commit. The engine is `Engine::new`'s, so this is
//! the hand-crafted evaluation (`tropa bench --hce`), not the built-in net.
//!
//! Data: `tests/data/wac.epd` (source in `tests/data/SOURCES.md`), read as EPD: four FEN
//! fields, `bm` with the best moves in SAN.

use std::path::PathBuf;
use tropa::rules::notation::move_from_san;
use tropa::rules::Game;
use tropa::search::{Engine, Limits, SearchControl, Silent};

/// Search depth of every position.
const DEPTH: i32 = 8;
/// Positions solved at `DEPTH` by the search of commit "Search: negamax … as its numbered steps"
/// (bench 2287916 with the hand-crafted evaluation, `tropa bench --hce`; 2287927 at 8eb7733).
const FLOOR: usize = 221;

#[test]
fn wac_at_depth_eight_solves_as_many_as_the_floor() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/wac.epd");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut engine = Engine::new(16, 1);
    let (mut solved, mut missed) = (0, Vec::new());
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let fen = fields[..4].join(" ");
        let game = Game::from_uci(Some(&fen), &[], false).unwrap();
        let bm_at = fields.iter().position(|&f| f == "bm").unwrap();
        // The bm operation runs to the first field that ends with ';' (other operations,
        // such as c0 comments, may follow it).
        let ends = fields[bm_at + 1..]
            .iter()
            .position(|f| f.ends_with(';'))
            .unwrap_or_else(|| panic!("bm without ';' in {line}"));
        let best: Vec<_> = fields[bm_at + 1..=bm_at + 1 + ends]
            .iter()
            .map(|san| {
                move_from_san(game.board(), san.trim_end_matches(';'))
                    .unwrap_or_else(|e| panic!("{san} in {line}: {e:?}"))
            })
            .collect();
        engine.clear();
        let result = engine.search(
            &game,
            &Limits {
                depth: Some(DEPTH),
                ..Default::default()
            },
            &SearchControl::new(),
            &mut Silent,
        );
        if result.best.is_some_and(|m| best.contains(&m)) {
            solved += 1;
        } else {
            missed.push(
                fields
                    .last()
                    .map_or("?", |id| id.trim_matches(['"', ';']))
                    .to_string(),
            );
        }
    }
    let total = solved + missed.len();
    eprintln!("solved {solved}/{total} at depth {DEPTH}; missed {missed:?}");
    assert!(
        solved >= FLOOR,
        "solved {solved}/{total} at depth {DEPTH}, below the floor of {FLOOR}; missed {missed:?}"
    );
}
