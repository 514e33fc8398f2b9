//! `tropa-trainer --rescale`: the net written again with another output scale, its manifest,
//! and a scale out of range refused without writing anything.

mod common;

use common::{default_net, trainer};
use tropa::eval::nnue::Network;
use tropa::rules::parse_fen;

#[test]
fn a_rescaled_net_scores_in_proportion_and_names_its_source() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("scaled.nnue");
    let source = default_net();
    let run = trainer(&[
        "--rescale",
        source.to_str().unwrap(),
        "--output-scale",
        "200",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let before = Network::load(&source).unwrap();
    let after = Network::load(&out).unwrap();
    assert_eq!(after.scale(), 200);
    let board = parse_fen(
        "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
        false,
    )
    .unwrap();
    let (full, scaled) = (before.evaluate_full(&board), after.evaluate_full(&board));
    let from = before.scale();
    // Both scores are truncated to whole centipawns.
    assert!(
        (scaled * from - full * 200).abs() <= 2 * from,
        "{full} at {from}, {scaled} at 200"
    );
    let manifest = std::fs::read_to_string(dir.path().join("scaled.nnue.json")).unwrap();
    assert!(manifest.contains("\"output_scale\": 200"), "{manifest}");
    assert!(manifest.contains("\"rescaled_from\""), "{manifest}");
}

#[test]
fn a_scale_out_of_range_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("scaled.nnue");
    let run = trainer(&[
        "--rescale",
        default_net().to_str().unwrap(),
        "--output-scale",
        "9999",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("outside 50..=2000"));
    assert!(!out.exists());
}
