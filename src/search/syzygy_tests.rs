//! Tests on the 3–4-piece tables in `tests/data/syzygy` (the subset of the standard tables
//! that the tests probe; `tests/data/SOURCES.md`). Positions were chosen with python-chess's own
//! prober: a drawn position where most moves lose, long wins, clocks near the 50-move limit.

use super::*;
use crate::rules::{parse_fen, Game, GameStatus};
use crate::search::{Engine, Limits, SearchControl, Silent};
use crate::tablebases::{test_tables as tables, TEST_TABLES};

fn board(fen: &str) -> Board {
    parse_fen(fen, false).unwrap()
}

fn uci(board: &Board, mv: Move) -> String {
    crate::rules::notation::move_to_uci(board, mv, false)
}

#[test]
fn opens_the_test_tables() {
    let t = tables();
    assert_eq!((t.files(), t.max_pieces()), (24, 4));
    assert_eq!(
        t.probe_wdl(&board("1K6/8/5R2/8/3k4/8/8/8 w - - 0 1")),
        Some(Wdl::Win)
    );
    assert_eq!(
        t.probe_wdl(&board("1K6/8/5R2/8/3k4/8/8/8 b - - 0 1")),
        Some(Wdl::Loss)
    );
    assert_eq!(
        t.probe_wdl(&board("7K/8/6k1/8/r7/7R/8/8 w - - 0 1")),
        Some(Wdl::Draw)
    );
    // Five pieces: no table.
    assert_eq!(t.probe_wdl(&board("7K/8/6k1/8/r7/7R/P7/8 w - - 0 1")), None);
    let dtz = t
        .probe_dtz(&board("7K/4r3/4k3/Q7/8/8/8/8 w - - 0 1"))
        .unwrap();
    assert_eq!(dtz.map(|d| d.ignore_rounding().0), Some(57));
}

/// Drawn positions where most moves lose: the root keeps only the drawing ones (KRvKR, and
/// the bishop or knight against a pawn about to promote).
#[test]
fn draws_are_held() {
    let t = tables();
    let probe = Probe::new(&t, ProbeSettings::default()).unwrap();
    for (fen, drawing) in [
        ("7K/8/6k1/8/r7/7R/8/8 w - - 0 1", &["h3g3"][..]),
        ("K7/8/1k6/2R5/8/4r3/8/8 w - - 0 1", &["c5c8"]),
        ("1k6/8/8/8/8/p7/5K2/3B4 w - - 0 1", &["d1b3"]),
        ("8/8/8/8/8/K3Bk2/4p3/8 w - - 0 1", &["e3d2"]),
        ("1k6/8/5KB1/8/8/4p3/8/8 w - - 0 1", &["g6h5", "g6d3"]),
        ("8/8/7N/7k/8/8/1p6/3K4 w - - 0 1", &["d1c2"]),
    ] {
        let b = board(fen);
        let kept = probe
            .root_moves(&b, &crate::rules::legal_moves(&b))
            .unwrap()
            .unwrap();
        let mut kept: Vec<String> = kept.iter().map(|&m| uci(&b, m)).collect();
        kept.sort();
        let mut drawing: Vec<String> = drawing.iter().map(|s| s.to_string()).collect();
        drawing.sort();
        assert_eq!(kept, drawing, "{fen}");
        // And a short search plays one of them.
        let best = play_one(&Game::from_board(b.clone(), false), 2_000);
        assert!(drawing.contains(&uci(&b, best)), "{fen}");
    }
}

/// One move of a search limited to `nodes`, with the tables.
fn play_one(game: &Game, nodes: u64) -> Move {
    let mut engine = Engine::new(4, 1);
    engine.tablebases = Some(tables());
    let limits = Limits {
        nodes: Some(nodes),
        ..Default::default()
    };
    engine
        .search(game, &limits, &SearchControl::new(), &mut Silent)
        .best
        .expect("a legal move")
}

/// Plays the position out, both sides searching with the tables, and returns the game's end:
/// the number of plies and whether the side to move at the start mated.
fn play_out(fen: &str, rule50: bool, nodes: u64) -> (usize, GameStatus, Board) {
    let mut engine = Engine::new(8, 1);
    engine.tablebases = Some(tables());
    engine.options.syzygy.rule50 = rule50;
    let mut game = Game::from_uci(Some(fen), &[], false).unwrap();
    let limits = Limits {
        nodes: Some(nodes),
        ..Default::default()
    };
    for ply in 0..300 {
        let status = game.board().status();
        if status != GameStatus::Ongoing {
            return (ply, status, game.board().clone());
        }
        let best = engine
            .search(&game, &limits, &SearchControl::new(), &mut Silent)
            .best
            .unwrap();
        game.play(best);
    }
    (300, GameStatus::Ongoing, game.board().clone())
}

/// Won endings are mated before the 50-move rule can end them: the defender plays the longest
/// resistance the tables know, the attacker only moves that win in time.
#[test]
fn wins_are_converted_within_the_fifty_move_rule() {
    for (fen, name) in [
        ("1K6/8/5R2/8/3k4/8/8/8 w - - 0 1", "KRvK, DTZ 31"),
        ("7K/4r3/4k3/Q7/8/8/8/8 w - - 0 1", "KQvKR, DTZ about 60"),
        ("8/8/8/8/8/4P1k1/8/3K4 w - - 0 1", "KPvK, DTZ 15"),
        // The clock already at 60 of 100: only the fastest ways still win.
        (
            "1K6/8/5R2/8/3k4/8/8/8 w - - 60 40",
            "KRvK with 60 plies gone",
        ),
        (
            "7K/4r3/4k3/Q7/8/8/8/8 w - - 35 40",
            "KQvKR with 35 plies gone",
        ),
    ] {
        let (plies, status, end) = play_out(fen, true, 4_000);
        assert_eq!(status, GameStatus::Won, "{name}: {plies} plies, ends {end}");
        assert_eq!(plies % 2, 1, "{name}: the wrong side was mated");
        assert!(end.halfmove_clock() < 100, "{name}");
    }
}

/// With the 50-move rule, a win that cannot be completed in time is ranked below a win in time
/// and above a draw; without the rule it is a plain win.
#[test]
fn the_fifty_move_rule_is_respected() {
    let t = tables();
    let with_rule = Probe::new(&t, ProbeSettings::default()).unwrap();
    let without = Probe::new(
        &t,
        ProbeSettings {
            rule50: false,
            ..Default::default()
        },
    )
    .unwrap();
    // KQvKR, DTZ about 60: at clock 0 many moves win in time; as the clock runs, fewer; from
    // some clock on none does and the wins beyond the rule rank 1, above the draws.
    let ranks = |probe: &Probe, clock: u32| {
        let b = board(&format!("7K/4r3/4k3/Q7/8/8/8/8 w - - {clock} 40"));
        crate::rules::legal_moves(&b)
            .into_iter()
            .map(|m| probe.rank(&b, m).unwrap().unwrap().0)
            .collect::<Vec<i32>>()
    };
    let in_time = |r: &[i32]| r.iter().filter(|&&x| x == 2).count();
    let fresh = in_time(&ranks(&with_rule, 0));
    let last = (0..100)
        .rfind(|&c| in_time(&ranks(&with_rule, c)) > 0)
        .unwrap();
    assert!(
        (30..=45).contains(&last),
        "the win stops fitting at clock {last}"
    );
    assert!(in_time(&ranks(&with_rule, last)) < fresh);
    let too_late = ranks(&with_rule, last + 1);
    assert!(
        too_late.contains(&1) && !too_late.contains(&0),
        "{too_late:?}"
    );
    assert_eq!(in_time(&ranks(&without, last + 1)), fresh);
    // Scores: a cursed win is a hair above a draw with the rule, a win without it.
    assert_eq!(with_rule.score(Wdl::CursedWin, 3), 1);
    assert_eq!(without.score(Wdl::CursedWin, 3), TB_WIN - 3);
    assert_eq!(with_rule.score(Wdl::Loss, 4), -TB_WIN + 4);
}

/// The search counts its table hits and reports a tablebase win.
#[test]
fn search_probes_after_captures() {
    use crate::search::{Progress, Reporter};
    struct Last(u64, i32);
    impl Reporter for Last {
        fn progress(&mut self, p: &Progress) {
            self.0 = p.tbhits;
            if let crate::search::Score::Centipawns(cp) = p.score {
                self.1 = cp;
            }
        }
    }
    // KQvKR plus a pawn: after Qxe7 or a capture of the pawn the tables answer.
    let game = Game::from_uci(Some("7K/4r3/4k3/Q7/8/8/6P1/8 w - - 0 1"), &[], false).unwrap();
    let mut engine = Engine::new(8, 1);
    engine.tablebases = Some(tables());
    let mut last = Last(0, 0);
    let limits = Limits {
        depth: Some(8),
        ..Default::default()
    };
    engine.search(&game, &limits, &SearchControl::new(), &mut last);
    assert!(last.0 > 0, "no tbhits");
    // Without the tables the same search has none.
    engine.tablebases = None;
    let mut none = Last(0, 0);
    engine.search(&game, &limits, &SearchControl::new(), &mut none);
    assert_eq!(none.0, 0);
}

/// A file that is not a table (wrong magic, wrong size) is named when the path is set; a table
/// whose body is damaged answers nothing rather than a wrong result or a crash; a table missing
/// for a position gives no answer.
#[test]
fn bad_files_are_reported_and_never_crash() {
    let dir = std::env::temp_dir().join(format!("tropa-syzygy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let good = std::fs::read(std::path::Path::new(TEST_TABLES).join("KRvK.rtbw")).unwrap();
    // Wrong magic.
    let mut bad = good.clone();
    bad[0] ^= 0xff;
    std::fs::write(dir.join("KRvK.rtbw"), &bad).unwrap();
    let e = Tablebases::open(dir.to_str().unwrap()).err().unwrap();
    assert!(
        e.contains("KRvK.rtbw") && e.contains("not a Syzygy table"),
        "{e}"
    );
    // Truncated.
    std::fs::write(dir.join("KRvK.rtbw"), &good[..good.len() - 7]).unwrap();
    assert!(Tablebases::open(dir.to_str().unwrap()).is_err());
    // Right header, garbage body: probes may fail but must not panic.
    let mut garbage = good.clone();
    let mut x = 0x1234_5678u32;
    for byte in garbage.iter_mut().skip(16) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        *byte = x as u8;
    }
    std::fs::write(dir.join("KRvK.rtbw"), &garbage).unwrap();
    let t = Tablebases::open(dir.to_str().unwrap()).unwrap();
    for fen in [
        "1K6/8/5R2/8/3k4/8/8/8 w - - 0 1",
        "k7/8/8/8/8/8/3R4/2K5 b - - 0 1",
    ] {
        let b = board(fen);
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| t.probe_wdl(&b)));
        assert!(answer.is_ok(), "{fen}: the damaged table panicked");
    }
    // Only the WDL table: the root is not ranked (no DTZ), and the search still plays.
    std::fs::write(dir.join("KRvK.rtbw"), &good).unwrap();
    let t = Tablebases::open(dir.to_str().unwrap()).unwrap();
    let probe = Probe::new(&t, ProbeSettings::default()).unwrap();
    let b = board("1K6/8/5R2/8/3k4/8/8/8 w - - 0 1");
    assert_eq!(probe.node_score(&b, 1, 3), Some(TB_WIN - 3));
    assert_eq!(
        probe.root_moves(&b, &crate::rules::legal_moves(&b)),
        Ok(None)
    );
    let _ = std::fs::remove_dir_all(&dir);
    assert!(Tablebases::open("/nonexistent/syzygy").is_err());
}
