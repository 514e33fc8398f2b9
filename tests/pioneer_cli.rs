//! `tropa plan` and `tropa study` from the command line: output and bad input.

mod common;

use common::tropa;

const RETI: &str = "7K/8/k1P5/7p/8/8/8/8 w - - 0 1";

#[test]
fn plan_names_the_reti_king_route_and_draws_it() {
    let dir = std::env::temp_dir().join(format!("tropa-plan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("reti.svg");
    let (ok, out, err) = tropa(&["plan", "--fen", RETI, "--svg", svg.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(
        out.contains("White: K h8–g7–f6–e5 serves two independent zones"),
        "{out}"
    );
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.contains("polyline"));
    assert_eq!(picture.matches("class=\"plan-number\"").count(), 3);
    assert!(out.contains("board with the first 3 plans' trajectories written to"));
    let (ok, _, err) = tropa(&[
        "plan",
        "--fen",
        RETI,
        "--no-check",
        "--top",
        "1",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(picture.matches("class=\"plan-number\"").count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
    let (ok, out, _) = tropa(&["plan", "--fen", RETI, "--side", "black"]);
    assert!(ok);
    assert!(
        out.contains("Black: P h5–h4–h3–h2–h1=Q") && !out.contains("White: P c6"),
        "{out}"
    );
}

#[test]
fn study_prints_verdict_line_and_tree_sizes() {
    let (ok, out, err) = tropa(&["study", "--fen", RETI]);
    assert!(ok, "{err}");
    assert!(out.contains("verdict: draw"), "{out}");
    assert!(out.contains("main line: 1. Kg7"), "{out}");
    assert!(out.contains("positions in the tree:"), "{out}");
    assert!(
        out.contains(
            "proof (White on combinations and zone moves, Black on every legal move), horizon 9 plies, \
             deeper while it only holds or fails"
        ),
        "{out}"
    );
    // How deep the hold is proven depends on the net the judge evaluates with (13 plies with
    // net 5, 15 with net 9); the 9- and 11-ply rounds must hold whatever the net.
    let plies: u32 = out
        .lines()
        .find_map(|l| {
            l.strip_prefix("proven within ")?
                .strip_suffix(" plies: White at least draws")
        })
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no proven draw for White: {out}"));
    assert!(plies >= 11, "{out}");
    // A line a round (standard error is no terminal here), each with the proof's bar.
    let rounds: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("proof of the start position ["))
        .collect();
    for plies in [9, 11] {
        let first = format!(": {plies} plies, budget 500, ");
        assert!(rounds.iter().any(|r| r.contains(&first)), "{err}");
    }
    assert!(
        rounds.iter().all(|r| r.contains("% of 10000 positions: ")),
        "{err}"
    );
    let kg7 = out
        .lines()
        .find(|l| l.trim_start().starts_with("1. Kg7 "))
        .unwrap();
    assert!(kg7.contains("draw"), "{kg7}");
    for other in ["1. Kh7 ", "1. Kg8 ", "1. c7 "] {
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with(other))
            .unwrap();
        assert!(line.contains("Black wins"), "{line}");
    }
}

#[test]
fn study_stops_at_the_position_limit_and_says_so() {
    let (ok, out, err) = tropa(&["study", "--fen", RETI, "--max-positions", "3"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("verdict: draw  (stopped at the position limit)"),
        "{out}"
    );
    assert!(out.contains("positions in the tree: 3 "), "{out}");
    assert!(
        out.contains("(not searched: the study's position budget is spent)"),
        "{out}"
    );
}

#[test]
fn a_proof_over_its_budget_is_not_proven_and_shows_its_rounds() {
    // The zone model alone: the judge's cutoffs would complete the first horizon's tree early.
    let (ok, out, err) = tropa(&[
        "study",
        "--fen",
        RETI,
        "--proof-positions",
        "700",
        "--leaf-depth",
        "0",
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("not proven: the tree outgrew 700 positions (the line it stood on below)"),
        "{out}"
    );
    let rounds: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("proof of the start position ["))
        .collect();
    assert_eq!(rounds.len(), 2, "{err}");
    // The last round took the whole budget: the bar is full.
    assert!(
        rounds[1].contains("[####################] 100% of 700 positions: 9 plies, budget 700, 700 in the tree, not complete"),
        "{err}"
    );
}

#[test]
fn bad_input_is_a_message_and_a_failure() {
    for args in [
        vec!["plan", "--fen", "8/8/8 w - - 0 1"],
        vec!["plan", "--side", "purple"],
        vec!["plan", "--fen", RETI, "--svg", "/nonexistent-dir/x/y.svg"],
        vec!["study", "--fen", "not a fen"],
        vec!["study", "--fen", RETI, "--depth", "0"],
        vec!["study", "--fen", RETI, "--max-positions", "0"],
        vec!["study", "--fen", RETI, "--proof-positions", "0"],
    ] {
        let (ok, _, err) = tropa(&args);
        assert!(!ok, "{args:?}");
        // Tropa's own message, or clap's for a number out of range.
        assert!(
            err.starts_with("tropa: ") || err.starts_with("error: invalid value"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}
