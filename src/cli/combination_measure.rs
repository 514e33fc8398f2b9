//! `tropa plan --combinations SET.epd`: does PIONEER propose the combinations of practical
//! games?
//!
//! Design note: each record of the set is a position where the winning move gives up material,
//! with the key move (`bm`) and, as the set's builder labelled them from a deep search's line,
//! the defender the move acts against (`c1 "defender Qe7"`) and the method (`c2 "deflection"`;
//! `scripts/combination_set.py`). A record counts as *found* when the key move is the first move
//! of one of the `TOP` best plans of the side to move that the search does not refute — plans
//! with the same first move count once, as `tropa analyse` lists them — and as *proposed* when
//! PIONEER generates the key move as a combination at all; the method and the defender are
//! compared with the labels. The plans are checked as `tropa plan` checks them, so the set
//! measures what a user sees.

use crate::explain::{check_plans, ranked, CheckLimits, PlanStatus};
use crate::pioneer::attacks::attack::TrajectoryLimits;
use crate::pioneer::play::moves::StepRole;
use crate::pioneer::zones::analysis::Analysis;
use crate::pioneer::zones::combination::combinations;
use crate::rules::notation::move_to_san;
use crate::rules::Move;
use std::path::Path;
use std::time::Instant;

/// The key move must begin one of this many best plans not refuted.
pub const TOP: usize = 3;

/// Measures the first `positions` records of the combination set `path` with plans checked
/// within `check`; one line per record, then the totals.
pub fn measure(path: &Path, positions: usize, check: CheckLimits) -> Result<(), String> {
    let records = crate::cli::epd::read_suite(path)?;
    let start = Instant::now();
    let (mut measured, mut found, mut proposed, mut method_right, mut defender_right) =
        (0, 0, 0, 0, 0);
    let mut seconds = Vec::new();
    for record in records.iter().take(positions) {
        let board = record.game.board();
        let Some(&key) = record.best.first() else {
            return Err(format!("{}: no key move (bm)", record.place));
        };
        let label = |code: &str| {
            record
                .other
                .iter()
                .find(|(c, _)| c == code)
                .map(|(_, text)| text.clone())
        };
        let method = label("c2").unwrap_or_default();
        let defender = label("c1")
            .and_then(|t| t.strip_prefix("defender ").map(str::to_string))
            .unwrap_or_default();
        let began = Instant::now();
        let analysis = Analysis::new(board, TrajectoryLimits::default());
        let checks = check_plans(board, &analysis, check);
        seconds.push(began.elapsed().as_secs_f64());
        let us = board.side_to_move();
        let mut top: Vec<Move> = Vec::new();
        for c in ranked(&checks) {
            if top.len() == TOP {
                break;
            }
            if let (Some(mv), true, false) =
                (c.first_move, c.side == us, c.status == PlanStatus::Refuted)
            {
                if !top.contains(&mv) {
                    top.push(mv);
                }
            }
        }
        let rank = top.iter().position(|&mv| mv == key);
        let ours = combinations(board, &analysis)
            .into_iter()
            .find(|c| c.mv == key);
        let check_of_key = checks
            .iter()
            .find(|c| matches!(c.role, StepRole::Combination(k) if k.mv == key));
        measured += 1;
        found += usize::from(rank.is_some());
        proposed += usize::from(ours.is_some());
        let mut as_combination = "not proposed".to_string();
        if let Some(c) = ours {
            let square = c.defender.square.to_string();
            method_right += usize::from(c.method.name() == method);
            defender_right += usize::from(defender.ends_with(&square));
            as_combination = format!(
                "proposed as {} of {square}{}",
                c.method.name(),
                check_of_key.map_or(String::new(), |k| format!(
                    ", {:?} at depth {}",
                    k.status, k.depth
                ))
            );
        }
        let labelled = if method.is_empty() {
            String::new()
        } else {
            format!(" ({method} of {defender})")
        };
        say!(
            "{measured:3} {}: key {}{labelled}; {}; {as_combination}",
            record.id,
            move_to_san(board, key),
            match rank {
                Some(r) => format!("plan {} of the top {TOP}", r + 1),
                None => format!("not in the top {TOP}"),
            }
        );
    }
    if measured == 0 {
        return Err(format!("{}: no record measured", path.display()));
    }
    seconds.sort_by(f64::total_cmp);
    let percent = |n: usize| 100.0 * n as f64 / measured as f64;
    say!(
        "{measured} positions: key move among the top {TOP} plans not refuted in {found} ({:.0}%); proposed as a combination in {proposed} ({:.0}%), the labelled method in {method_right}, the labelled defender in {defender_right}; median {:.2} s a position, {:.0} s in all",
        percent(found),
        percent(proposed),
        seconds[seconds.len() / 2],
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
