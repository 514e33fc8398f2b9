//! `tropa-trainer DATA -o NET`: a net trained from the command line is written with a manifest
//! that records the engine's reading of it on the validation games next to the float net's.

mod common;

use common::{selfplay_file, trainer};
use std::path::Path;

fn json_number(manifest: &str, key: &str) -> Option<f64> {
    let at = manifest.find(&format!("\"{key}\": "))? + key.len() + 4;
    let rest = &manifest[at..];
    let end = rest.find([',', '\n', '}'])?;
    rest[..end].trim().parse().ok()
}

#[test]
fn a_trained_net_records_its_quantised_validation_loss() {
    let dir = tempfile::tempdir().unwrap();
    let data = selfplay_file(dir.path(), 7, 6);
    let net = dir.path().join("net.nnue");
    let out = trainer(&[
        data.to_str().unwrap(),
        "--hidden",
        "16",
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
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let manifest = std::fs::read_to_string(Path::new(&format!("{}.json", net.display()))).unwrap();
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
