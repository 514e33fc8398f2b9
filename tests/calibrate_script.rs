//! `scripts/calibrate_levels.py --recalibrate`, driven by a stand-in match runner in which a
//! level's strength is known: level L plays at 1500 + 40·L on the anchor's scale, and the runner
//! scores each match by the logistic expectation of the Elo difference. The script must probe
//! each level of the table in force at that table's Elo, move the anchor by the probe, and print
//! a table close to the truth. `scripts/pool_level.py` must rate a level from several of its
//! match logs at once.

mod common;

use std::path::Path;

/// A match runner with the real one's arguments and final line.
const FAKE_RUNNER: &str = r#"
import argparse, re
ap = argparse.ArgumentParser(allow_abbrev=False)
ap.add_argument("--a")
ap.add_argument("--b-opt", action="append", default=[])
ap.add_argument("--games", type=int)
args, _ = ap.parse_known_args()
level = float(re.search(r"--level (\S+)", args.a).group(1))
anchor = int(dict(o.split("=", 1) for o in args.b_opt)["UCI_Elo"])
score = 1 / (1 + 10 ** ((anchor - (1500 + 40 * level)) / 400))
w = round(score * args.games)
l = args.games - w
penta = [l // 2, 0, 0, 0, w // 2]
print(f"FINAL games {args.games}  W {w}  D 0  L {l}  score 50.0%  elo +0.0 [-1.0, +1.0]  "
      f"LOS 50.0%  penta {penta}  forfeits(time) A 0 B 0  failures A 0 B 0")
"#;

fn recalibrate(dir: &Path, table: &str) -> (bool, String) {
    let (runner, openings) = common::stand_in_match_runner(dir, FAKE_RUNNER);
    let source = dir.join("strength.rs");
    std::fs::write(&source, table).unwrap();
    let out = dir.join("cal");
    let args = [
        env!("CARGO_BIN_EXE_tropa"),
        "--recalibrate",
        "--table",
        source.to_str().unwrap(),
        "--games",
        "200",
        "--probe-games",
        "40",
        "--stockfish",
        env!("CARGO_BIN_EXE_tropa"),
        "--match",
        runner.to_str().unwrap(),
        "--openings",
        openings.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    common::script("calibrate_levels.py", &args)
}

/// The anchor (`UCI_Elo`) a match log's command line gave the opponent.
fn anchor_of(log: &Path) -> i32 {
    let text = std::fs::read_to_string(log).unwrap();
    let setting = text
        .split("UCI_Elo=")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}"));
    setting
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap()
}

#[test]
fn recalibration_starts_from_the_table_in_force() {
    let dir = common::temp_dir("calibrate", "recalibrate");
    let table = "pub const ELO_BY_LEVEL: [(f64, f64); 2] = [\n    (0.0, 1400.0),\n    \
                 (10.0, 2000.0),\n];\n";
    let (ok, out) = recalibrate(&dir, table);
    assert!(ok, "{out}");
    // Each level is probed where the table put it.
    assert_eq!(anchor_of(&dir.join("cal/level0-probe.log")), 1400);
    assert_eq!(anchor_of(&dir.join("cal/level10-probe.log")), 2000);
    // The new table is close to the truth: 1500 and 1900.
    let measured: Vec<f64> = out
        .lines()
        .filter_map(|l| l.trim().strip_prefix('(')?.strip_suffix("),"))
        .filter_map(|pair| pair.split(", ").nth(1)?.parse().ok())
        .collect();
    assert_eq!(measured.len(), 2, "{out}");
    assert!((measured[0] - 1500.0).abs() <= 15.0, "{out}");
    assert!((measured[1] - 1900.0).abs() <= 15.0, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_source_without_the_table_is_refused() {
    let dir = common::temp_dir("calibrate", "no-table");
    let (ok, out) = recalibrate(&dir, "pub const OTHER: i32 = 1;\n");
    assert!(!ok && out.contains("no ELO_BY_LEVEL points"), "{out}");
    assert!(!dir.join("cal/level0-probe.log").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A match log as the runner leaves it: the command (with the opponent's `UCI_Elo`) and a final
/// line of `w`, `d` and `l`.
fn match_log(dir: &Path, name: &str, anchor: i32, (w, d, l): (u32, u32, u32)) -> String {
    let path = dir.join(name);
    let games = w + d + l;
    let text = format!(
        "python3 match.py --a tropa --b stockfish --b-opt UCI_LimitStrength=true \
         --b-opt UCI_Elo={anchor} --games {games}\n\
         FINAL games {games}  W {w}  D {d}  L {l}  score 50.0%  elo +0.0 [-1.0, +1.0]  \
         LOS 50.0%  penta [0, 0, 0, 0, 0]  forfeits(time) A 0 B 0  failures A 0 B 0\n"
    );
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// The rating and interval on the script's `pooled:` line.
fn pooled(out: &str) -> (f64, f64, f64) {
    let line = out.lines().find(|l| l.starts_with("pooled:")).expect(out);
    let numbers: Vec<f64> = line
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .filter_map(|n| n.parse().ok())
        .collect();
    // "pooled: G games: R [LOW, HIGH]"
    (numbers[1], numbers[2], numbers[3])
}

#[test]
fn pooled_level_lies_where_its_matches_agree() {
    let dir = common::temp_dir("calibrate", "pool");
    // One match: 75% against 1500 is 1500 + 191.
    let alone = match_log(&dir, "a.log", 1500, (60, 0, 20));
    let (ok, out) = common::script("pool_level.py", &[&alone]);
    assert!(ok, "{out}");
    let (rating, low, high) = pooled(&out);
    assert!((rating - 1691.0).abs() <= 1.0, "{out}");
    // Even against 1400 and against 1600: 1500, narrower than either match alone.
    let below = match_log(&dir, "b.log", 1400, (30, 20, 30));
    let above = match_log(&dir, "c.log", 1600, (30, 20, 30));
    let (ok, out) = common::script("pool_level.py", &[&below, &above]);
    assert!(ok, "{out}");
    let (rating, pooled_low, pooled_high) = pooled(&out);
    assert!((rating - 1500.0).abs() <= 1.0, "{out}");
    assert!(pooled_high - pooled_low < high - low, "{out}");
    // Every game won: no rating fits.
    let won = match_log(&dir, "won.log", 1500, (10, 0, 0));
    let (ok, out) = common::script("pool_level.py", &[&won]);
    assert!(!ok && out.contains("no rating fits"), "{out}");
    // A log without an anchor is refused.
    let bare = dir.join("bare.log");
    std::fs::write(&bare, "FINAL games 2  W 1  D 0  L 1\n").unwrap();
    let (ok, out) = common::script("pool_level.py", &[bare.to_str().unwrap()]);
    assert!(!ok && out.contains("UCI_Elo"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
