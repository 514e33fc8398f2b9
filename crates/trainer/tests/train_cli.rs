//! `tropa-trainer DATA -o NET`: a net trained from the command line is written with a manifest
//! that records the engine's reading of it on the validation games next to the float net's, and
//! with `--refine-every`, refitted first.

mod common;

use common::{selfplay_file, trainer};
use std::path::Path;

fn json_number(manifest: &str, key: &str) -> Option<f64> {
    let at = manifest.find(&format!("\"{key}\": "))? + key.len() + 4;
    let rest = &manifest[at..];
    let end = rest.find([',', '\n', '}'])?;
    rest[..end].trim().parse().ok()
}

/// Trains a small net on `data` into `net` (one thread: the same net each time), with `extra`
/// options; returns the manifest.
fn train_small(data: &Path, net: &Path, extra: &[&str]) -> String {
    let out = trainer(&small_run(data, net, extra));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(Path::new(&format!("{}.json", net.display()))).unwrap()
}

/// The arguments of `train_small`.
fn small_run<'a>(data: &'a Path, net: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        data.to_str().unwrap(),
        "--hidden",
        "16",
        "--buckets",
        "2",
        "--epochs",
        "3",
        "--batch",
        "64",
        "--threads",
        "1",
        "--validation-percent",
        "50",
        "-o",
        net.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn a_trained_net_records_its_quantised_validation_loss() {
    let dir = tempfile::tempdir().unwrap();
    let data = selfplay_file(dir.path(), 7, 6);
    let manifest = train_small(&data, &dir.path().join("net.nnue"), &[]);
    assert!(manifest.contains("\"refit\": null"), "{manifest}");
    let quantised = json_number(&manifest, "quantised_validation").expect(&manifest);
    let float = manifest
        .rsplit("\"validation\": ")
        .next()
        .and_then(|rest| rest.split('}').next())
        .and_then(|number| number.trim().parse::<f64>().ok())
        .expect(&manifest);
    // Quantisation moves each output by a few centipawns (measured here: 0.04 % of the loss).
    assert!(
        quantised > 0.0 && (quantised - float).abs() <= 0.01 * float,
        "quantised {quantised}, float {float}"
    );
}

#[test]
fn a_refit_after_training_changes_only_the_output_layer_and_records_the_loss_before() {
    let dir = tempfile::tempdir().unwrap();
    let data = selfplay_file(dir.path(), 7, 6);
    let (plain, refitted) = (dir.path().join("plain.nnue"), dir.path().join("refit.nnue"));
    let plain_manifest = train_small(&data, &plain, &[]);
    let manifest = train_small(&data, &refitted, &["--refine-every", "1"]);
    // The loss before the refit is the plain net's: the same training, the same rounding.
    let before = json_number(&manifest, "validation_before").expect(&manifest);
    let plain_loss = json_number(&plain_manifest, "quantised_validation").unwrap();
    assert_eq!(before, plain_loss, "{manifest}");
    assert_eq!(json_number(&manifest, "one_position_in"), Some(1.0));
    assert_eq!(
        json_number(&manifest, "positions"),
        json_number(&manifest, "train_positions")
    );
    assert!(
        json_number(&manifest, "changed").unwrap() > 0.0,
        "{manifest}"
    );
    // The feature layer is the same, the output layer is not.
    let plain = tropa::eval::nnue::Network::load(&plain).unwrap();
    let refitted = tropa::eval::nnue::Network::load(&refitted).unwrap();
    let (weights, biases) = refitted.output_layer();
    assert_eq!(
        plain
            .clone()
            .with_output_layer(weights.to_vec(), biases.to_vec())
            .to_bytes(),
        refitted.to_bytes()
    );
    assert_ne!(plain.output_layer(), refitted.output_layer());
}

#[test]
fn a_failed_refit_still_writes_the_trained_net_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let data = selfplay_file(dir.path(), 7, 6);
    let (plain, failed) = (
        dir.path().join("plain.nnue"),
        dir.path().join("failed.nnue"),
    );
    train_small(&data, &plain, &[]);
    // One position in four billion: the refit samples none of the fixture's and fails.
    let out = trainer(&small_run(
        &data,
        &failed,
        &["--refine-every", "4000000000"],
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("without the refit, which failed")
            && stderr.contains("no training positions"),
        "{stderr}"
    );
    // The net is the trained one as rounded, with its manifest, which records no refit.
    assert_eq!(
        std::fs::read(&plain).unwrap(),
        std::fs::read(&failed).unwrap()
    );
    let manifest = std::fs::read_to_string(format!("{}.json", failed.display())).unwrap();
    assert!(manifest.contains("\"refit\": null"), "{manifest}");
}

#[test]
fn a_refit_after_training_on_labelled_files_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let net = dir.path().join("net.nnue");
    let out = trainer(&[
        "--labelled",
        "x.epd",
        "--refine-every",
        "5",
        "-o",
        net.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--refine-every"));
    assert!(!net.exists());
}
