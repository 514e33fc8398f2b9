//! `scripts/sprt_sum.py`, which adds up the runs of an SPRT stopped and continued: the two runs
//! of net 4's test against net 3 (their last lines, as the team's match runner printed them)
//! give the figure that runner printed for the sums, through the repository's own statistics
//! (`scripts/sprt_stats.py`); a log without a `games` line is refused.

mod common;

use std::ffi::OsStr;
use std::path::Path;

const FIRST: &str = "games 1158  W 317  D 609  L 232  score 53.7%  elo +25.5 [+11.8, +39.4]  \
LOS 100.0%  penta [21, 113, 234, 182, 29]  forfeits(time) A 0 B 0  failures A 0 B 0  \
min-clock net3 0.183s net4 0.258s  LLR +2.65 (continue)";
const SECOND: &str = "games 74  W 22  D 41  L 11  score 57.4%  elo +52.0 [+0.1, +106.4]  \
LOS 97.2%  penta [0, 6, 17, 11, 3]  forfeits(time) A 0 B 0  failures A 0 B 0  \
min-clock net3 0.984s net4 1.232s  LLR +0.43 (continue)";

fn summer(logs: &[&Path]) -> (bool, String) {
    let mut args = vec![OsStr::new("--sprt"), OsStr::new("0"), OsStr::new("5")];
    args.extend(logs.iter().map(|log| log.as_os_str()));
    common::script("sprt_sum.py", &args)
}

#[test]
fn two_runs_add_up_to_the_reported_sprt() {
    let dir = common::temp_dir("sprt-sum", "two-runs");
    let (first, second, bad) = (dir.join("a.log"), dir.join("b.log"), dir.join("c.log"));
    // Earlier lines of a log are superseded by its last.
    let earlier = "games 2  W 1  D 1  L 0  score 75.0%  elo +190.8 [-inf, +inf]  LOS 84.1%  \
penta [0, 0, 0, 1, 0]  forfeits(time) A 0 B 0  failures A 0 B 0  LLR +0.00 (continue)";
    std::fs::write(&first, format!("{earlier}\n{FIRST}\n")).unwrap();
    std::fs::write(&second, format!("{SECOND}\n")).unwrap();
    std::fs::write(&bad, "no match here\n").unwrap();

    let (ok, out) = summer(&[&first, &second]);
    assert!(ok, "{out}");
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with("games 1232  W 339  D 650  L 243"),
        "{last}"
    );
    assert!(last.contains("penta [21, 119, 251, 193, 32]"), "{last}");
    assert!(last.contains("min-clock net3 0.183s net4 0.258s"), "{last}");
    assert!(last.ends_with("LLR +3.03 (H1 accepted)"), "{last}");

    let (ok, out) = summer(&[&first, &bad]);
    assert!(!ok);
    assert!(out.contains("no 'games' line"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
