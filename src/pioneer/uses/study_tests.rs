//! Tests of `study.rs`: the zone search and the study of Réti's position.

use super::*;
use crate::pioneer::examples::RETI;
use crate::rules::notation::line_to_numbered_san;
use crate::rules::parse_fen;

#[test]
fn a_search_over_its_position_limit_stops_unfinished() {
    let board = parse_fen(RETI, false).unwrap();
    let mut search = ZoneSearch::new(TrajectoryLimits::default()).with_max_positions(5);
    let r = search.run(&board, 9);
    assert!(!r.complete);
    assert_eq!(r.positions, 5);
    let r = ZoneSearch::new(TrajectoryLimits::default()).run(&board, 9);
    assert!(r.complete);
}

#[test]
fn verdict_thresholds() {
    assert_eq!(StudyVerdict::of(WIN), StudyVerdict::WhiteWins);
    assert_eq!(StudyVerdict::of(WIN - 1), StudyVerdict::Draw);
    assert_eq!(StudyVerdict::of(-WIN), StudyVerdict::BlackWins);
}

#[test]
fn reti_zone_search_finds_kg7_and_the_draw() {
    let board = parse_fen(RETI, false).unwrap();
    let study = solve(
        &board,
        None,
        &StudySettings::default(),
        false,
        MAX_POSITIONS,
        true,
        &mut |_| {},
    );
    let text = line_to_numbered_san(&board, &study.root.line);
    assert!(text.starts_with("1. Kg7"), "{text}");
    assert_eq!(study.root.verdict, StudyVerdict::Draw, "{text}");
    // The root search (zone moves only) is itself within Botvinnik's 54.
    assert!(study.root.complete && study.root.positions <= 54);
    let kg7 = study
        .first_moves
        .iter()
        .find(|f| f.mv.to_string() == "h8g7")
        .unwrap();
    assert_eq!(kg7.result.verdict, StudyVerdict::Draw);
    assert!(
        kg7.result.positions <= 54,
        "{} positions",
        kg7.result.positions
    );
    for f in study
        .first_moves
        .iter()
        .filter(|f| f.mv.to_string() != "h8g7")
    {
        assert_eq!(f.result.verdict, StudyVerdict::BlackWins, "{}", f.mv);
    }
}
