//! `scripts/spsa.py`, the SPSA tuner of the search constants, driven by a stand-in match runner
//! whose result depends on the values alone: the engine whose RFP_MARGIN is nearer 100 wins
//! every game. The tuner must walk from 75 towards 100, record every iteration, resume where
//! it stopped and refuse another run's state. `scripts/spsa_report.py` must tell that push
//! from the random walk of a constant the runner ignores.

mod common;

use std::path::Path;

/// A match runner with the real one's arguments and final line.
const FAKE_RUNNER: &str = r#"
import argparse, re
ap = argparse.ArgumentParser(allow_abbrev=False)
ap.add_argument("--a-opt", action="append", default=[])
ap.add_argument("--b-opt", action="append", default=[])
ap.add_argument("--games", type=int)
args, _ = ap.parse_known_args()
def margin(options):
    return int(dict(o.split("=", 1) for o in options)["RFP_MARGIN"])
a, b = abs(margin(args.a_opt) - 100), abs(margin(args.b_opt) - 100)
w, d, l = (args.games, 0, 0) if a < b else (0, 0, args.games) if a > b else (0, args.games, 0)
pairs = args.games // 2
penta = [pairs if l else 0, 0, pairs if d else 0, 0, pairs if w else 0]
print(f"FINAL games {args.games}  W {w}  D {d}  L {l}  score 50.0%  elo +0.0 [-1.0, +1.0]  "
      f"LOS 50.0%  penta {penta}  forfeits(time) A 0 B 0  failures A 0 B 0")
"#;

/// Runs `spsa.py` in `dir` on the SPSA input lines `params`, with the stand-in runner.
fn spsa_with(dir: &Path, params: &str, extra: &[&str]) -> (bool, String) {
    let (runner, openings) = common::stand_in_match_runner(dir, FAKE_RUNNER);
    let params_file = dir.join("params.txt");
    std::fs::write(&params_file, params).unwrap();
    let (engine, out) = (env!("CARGO_BIN_EXE_tropa"), dir.join("run"));
    let mut args = vec![
        engine,
        "--params",
        params_file.to_str().unwrap(),
        "--iterations",
        "60",
        "--out",
        out.to_str().unwrap(),
        "--match",
        runner.to_str().unwrap(),
        "--openings",
        openings.to_str().unwrap(),
    ];
    args.extend(extra);
    common::script("spsa.py", &args)
}

fn spsa(dir: &Path, extra: &[&str]) -> (bool, String) {
    spsa_with(dir, "RFP_MARGIN, int, 75, 30, 150, 6, 0.5\n", extra)
}

/// The push z of `name` in a report of `spsa_report.py`.
fn push_z(report: &str, name: &str) -> f64 {
    report
        .lines()
        .find_map(|l| l.strip_prefix(name))
        .and_then(|l| l.split_whitespace().last()?.parse().ok())
        .unwrap_or_else(|| panic!("{report}"))
}

#[test]
fn spsa_walks_towards_the_better_value_and_resumes() {
    let dir = common::temp_dir("spsa", "walk");
    let (ok, out) = spsa(&dir, &["--stop-after", "20"]);
    assert!(ok && out.contains("20 of 60 iterations"), "{out}");
    let (ok, out) = spsa(&dir, &[]);
    assert!(ok && out.contains("60 of 60 iterations"), "{out}");
    let value: i32 = out
        .lines()
        .find_map(|l| l.strip_prefix("RFP_MARGIN, "))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!((92..=108).contains(&value), "{out}");
    let log = std::fs::read_to_string(dir.join("run/iterations.tsv")).unwrap();
    assert_eq!(log.lines().count(), 61, "{log}");
    // Another run's state is not continued.
    let (ok, out) = spsa(&dir, &["--seed", "2"]);
    assert!(!ok && out.contains("belongs to another run"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn spsa_report_tells_a_steady_push_from_noise() {
    let dir = common::temp_dir("spsa", "report");
    // A rate so small that RFP_MARGIN stays far below 100 and every pair pushes it up;
    // LMP_BASE changes nothing in the stand-in's games.
    let params = "RFP_MARGIN, int, 75, 30, 150, 6, 0.0001\nLMP_BASE, int, 3, 1, 8, 0.5, 0.0001\n";
    let (ok, out) = spsa_with(&dir, params, &["--stop-after", "25"]);
    assert!(ok && out.contains("25 of 60 iterations"), "{out}");
    let (ok, report) = common::script("spsa_report.py", &[dir.join("run")]);
    assert!(ok && report.contains("25 of 60 iterations"), "{report}");
    assert!(push_z(&report, "RFP_MARGIN") > 3.0, "{report}");
    assert!(push_z(&report, "LMP_BASE").abs() < 3.0, "{report}");
    // A folder without a run is refused with a message.
    let (ok, out) = common::script("spsa_report.py", &[&dir]);
    assert!(!ok && out.contains("holds no readable SPSA run"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
