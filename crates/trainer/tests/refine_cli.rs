//! `tropa-trainer DATA --refine NET -o OUT`: the refitted net and its manifest written, and bad
//! input (a net that cannot be read, a sampling of zero) refused with a message.

mod common;

use common::{default_net, selfplay_file, trainer};
use std::path::Path;
use tropa::eval::nnue::Network;

#[test]
fn a_refitted_net_keeps_its_shape_and_names_its_source() {
    let dir = tempfile::tempdir().unwrap();
    let data = selfplay_file(dir.path(), 9, 4);
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
