//! `tropa-trainer DATA --refine NET -o OUT`: the refitted net and its manifest written, and bad
//! input (a net that cannot be read, a sampling of zero) refused with a message.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use tropa::eval::nnue::Network;

fn trainer(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tropa-trainer"))
        .args(args)
        .output()
        .expect("run tropa-trainer")
}

fn default_net() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../src/eval/nnue/default.nnue")
}

#[test]
fn a_refitted_net_keeps_its_shape_and_names_its_source() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("games.dg");
    let run = tropa::datagen::RunSettings {
        play: tropa::datagen::play::PlaySettings {
            nodes: 300,
            random_plies: 8,
            openings: Vec::new(),
        },
        seed: 9,
        games: 4,
        threads: 1,
        hash_mb: 1,
        net: None,
    };
    tropa::datagen::run(&run, None, &data, &Default::default()).unwrap();
    let (data, net, out) = (
        data.to_str().unwrap().to_string(),
        default_net(),
        dir.path().join("refined.nnue"),
    );
    let (net, out_str) = (net.to_str().unwrap(), out.to_str().unwrap());
    let run = trainer(&[&data, "--refine", net, "--refine-every", "1", "-o", out_str]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let (before, after) = (
        Network::load(Path::new(net)).unwrap(),
        Network::load(&out).unwrap(),
    );
    assert_eq!(
        (after.hidden(), after.buckets(), after.scale()),
        (before.hidden(), before.buckets(), before.scale())
    );
    let manifest = std::fs::read_to_string(format!("{out_str}.json")).unwrap();
    assert!(manifest.contains("\"refined_from\""), "{manifest}");
    assert!(manifest.contains("\"one_position_in\": 1"), "{manifest}");
    assert!(manifest.contains("\"validation_percent\": 5"), "{manifest}");

    let missing = dir.path().join("missing.nnue");
    let run = trainer(&[&data, "--refine", missing.to_str().unwrap(), "-o", out_str]);
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("missing.nnue"));
    let run = trainer(&[&data, "--refine", net, "--refine-every", "0", "-o", out_str]);
    assert!(!run.status.success());
}
