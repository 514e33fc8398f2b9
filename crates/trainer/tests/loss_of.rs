//! `tropa-trainer DATA --loss-of NET…`: one line a net on the same held-back games, and bad
//! input (a net that cannot be read, a split that holds nothing back, a training option that
//! would do nothing) refused with a message.

mod common;

use common::{default_net, selfplay_file, trainer};

#[test]
fn each_net_gets_a_line_and_the_same_net_the_same_loss() {
    let dir = tempfile::tempdir().unwrap();
    let data = selfplay_file(dir.path(), 3, 4);
    let net = default_net();
    let net = net.to_str().unwrap();
    let run = trainer(&[
        data.to_str().unwrap(),
        "--validation-percent",
        "50",
        "--loss-of",
        net,
        "--loss-of",
        net,
    ]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(
        lines[0].contains("games held back (50 %, seed 1)"),
        "{stdout}"
    );
    let loss = |line: &str| -> f64 {
        let (loss, path) = line.split_once(' ').unwrap();
        assert_eq!(path, net);
        loss.parse().unwrap()
    };
    let (first, second) = (loss(lines[1]), loss(lines[2]));
    assert!(first > 0.0 && first < 0.25, "{stdout}");
    assert_eq!(first, second);
}

#[test]
fn a_net_that_cannot_be_read_or_nothing_held_back_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let data = selfplay_file(dir.path(), 3, 4);
    let data = data.to_str().unwrap();
    let missing = dir.path().join("missing.nnue");
    let run = trainer(&[data, "--loss-of", missing.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("missing.nnue"));
    let net = default_net();
    let run = trainer(&[
        data,
        "--validation-percent",
        "0",
        "--loss-of",
        net.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("holds back no positions"));
}

#[test]
fn a_training_option_with_loss_of_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let data = selfplay_file(dir.path(), 3, 4);
    let out = dir.path().join("net.nnue");
    let net = default_net();
    let run = trainer(&[
        data.to_str().unwrap(),
        "--loss-of",
        net.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("cannot be used with"));
    assert!(!out.exists());
}
