//! `tropa epd` on a small suite whose score is known: three records any search solves at depth 4
//! (a mate, a stalemate to avoid, a mate in one with STS points) and one whose `bm` is wrong on
//! purpose, so the score is exactly 3 of 4 and the miss is listed with `--verbose`.

mod common;

use common::tropa;

const SUITE: &str = r#"# a comment line
6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id "back rank"; c0 "Ra8=10, Kf2=3";
7k/8/5K2/8/8/8/8/6Q1 w - - 0 1 am Qg6; id "no stalemate";
r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4 bm Qxf7#; id "scholar";
6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Rb1; id "wrong on purpose";
"#;

#[test]
fn a_small_suite_scores_what_it_should() {
    let dir = std::env::temp_dir().join(format!("tropa-epd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let suite = dir.join("small.epd");
    std::fs::write(&suite, SUITE).unwrap();
    let path = suite.to_str().unwrap();
    let (ok, out, err) = tropa(&["epd", path, "--depth", "4", "--verbose"]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with("miss wrong on purpose (")
            && lines[0].ends_with("played Ra8#, bm Rb1"),
        "{out}"
    );
    assert!(
        lines[1].contains(": solved 3/4 (75.0%), 10/10 points (100.0%) in "),
        "{out}"
    );
    let (_, quiet, _) = tropa(&["epd", path, "--nodes", "2000"]);
    assert_eq!(
        quiet.lines().count(),
        1,
        "misses only with --verbose: {quiet}"
    );

    let bad = dir.join("bad.epd");
    std::fs::write(&bad, "8/8/8/8/8/8/8/K6k w - - bm Qh8;\n").unwrap();
    let (ok, _, err) = tropa(&["epd", bad.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("bad.epd:1: bm 'Qh8'"), "{err}");
    let (ok, _, err) = tropa(&["epd", "/nonexistent/suite.epd"]);
    assert!(!ok && err.contains("/nonexistent/suite.epd"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
