//! `tropa plan --combinations SET.epd`: does PIONEER propose the combinations of practical
//! games?
//!
//! Design note: each record of the set is a position where the winning move gives up material,
//! with the key move (`bm`) and, as the set's builder labelled them from a deep search's line,
//! the defender the move acts against (`c1 "defender Qe7"`) and the method (`c2 "deflection"`;
//! `scripts/combination_set.py`). A record counts as *found* when the key move is the first move
//! of one of the `TOP` best plans of the side to move that the search does not refute — each
//! idea and each first move once (`explain::distinct_ideas`), as `tropa analyse` lists them —
//! and as *proposed* when
//! PIONEER generates the key move as a combination at all; the method and the defender are
//! compared with the labels. The plans are checked as `tropa plan` checks them, so the set
//! measures what a user sees.
//!
//! A record may name its half in `c5` (`"tuning"` or `"validation"`, the larger set's split by
//! `scripts/combination_set.py`): the counts are then given per half, validation first. With
//! `control`, each record is also searched by Tropa's own search alone, on the engine the check
//! uses (16 MB table cleared, one thread, the hand-crafted evaluation) with MultiPV 3 and as many
//! nodes as the check of that record spent in all its rounds (`check_plans_counted`): is the key
//! move among the first moves of its 3 lines of the last iteration it completed? That is what
//! the plans add over the same effort spent on a plain search. Each record also says whether
//! the check's own best move (that of its deepest search) is the first move of a plan the
//! search does not refute: how often a reader who asks "why this move?" gets an answer.

use crate::bound::Bound;
use crate::cli::epd::{in_report_order, read_suite};
use crate::explain::{check_plans_counted, distinct_ideas, ranked, CheckLimits, PlanStatus};
use crate::pioneer::attacks::attack::TrajectoryLimits;
use crate::pioneer::play::moves::StepRole;
use crate::pioneer::zones::analysis::Analysis;
use crate::pioneer::zones::combination::combinations;
use crate::rules::notation::move_to_san;
use crate::rules::{Board, Game, Move};
use crate::search::{Engine, Limits, Progress, Reporter, SearchControl};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

/// The key move must begin one of this many best plans not refuted.
pub const TOP: usize = 3;

/// The lines of a search, as it reports them.
struct Lines(Vec<Progress>);

impl Reporter for Lines {
    fn progress(&mut self, progress: &Progress) {
        self.0.push(progress.clone());
    }
}

/// Tropa's own search of `board` within `nodes` nodes, MultiPV `TOP`, on the engine the check
/// uses: the first moves of the lines of the last iteration it completed.
fn control_moves(board: &Board, nodes: u64) -> Vec<Move> {
    let mut engine = Engine::new(16, 1);
    engine.options.multipv = TOP;
    let game = Game::from_board(board.clone(), false);
    let limits = Limits {
        nodes: Some(nodes.max(1)),
        ..Default::default()
    };
    let mut lines = Lines(Vec::new());
    let result = engine.search(&game, &limits, &SearchControl::new(), &mut lines);
    // A completed iteration reports its lines exact, in order, from line 1.
    let mut last = Vec::new();
    for p in lines.0.iter().filter(|p| p.bound == Bound::Exact) {
        if p.multipv == 1 {
            last.clear();
        }
        last.extend(p.pv.first().copied());
    }
    if last.is_empty() {
        last.extend(result.best);
    }
    last
}

/// Counts of one half of the set: records, key found among the plans, by the control, and the
/// check's best move explained by a plan.
#[derive(Default)]
struct Half {
    measured: usize,
    found: usize,
    control: usize,
    explained: usize,
}

/// Measures the first `positions` records of the combination set `path` with plans checked
/// within `check` (and with `control`, Tropa's own search at the same nodes); one line per
/// record, then the counts per half where the records name one, then the totals.
pub fn measure(
    path: &Path,
    positions: usize,
    check: CheckLimits,
    control: bool,
) -> Result<(), String> {
    let records = read_suite(path)?;
    let start = Instant::now();
    let (mut measured, mut found, mut proposed, mut method_right, mut defender_right) =
        (0, 0, 0, 0, 0);
    let mut seconds = Vec::new();
    let (mut halves, mut nodes_spent, mut control_found) = (BTreeMap::new(), Vec::new(), 0);
    let mut explained_count = 0;
    for record in records.iter().take(positions) {
        let board = record.game.board();
        let Some(&key) = record.best.first() else {
            return Err(format!("{}: no key move (bm)", record.place));
        };
        let method = record.operand("c2").unwrap_or_default();
        let defender = record
            .operand("c1")
            .and_then(|t| t.strip_prefix("defender "))
            .unwrap_or_default();
        let began = Instant::now();
        let analysis = Analysis::new(board, TrajectoryLimits::default());
        let (checks, nodes) = check_plans_counted(board, &analysis, check);
        seconds.push(began.elapsed().as_secs_f64());
        nodes_spent.push(nodes);
        let us = board.side_to_move();
        let ours = ranked(&checks)
            .into_iter()
            .filter(|c| c.side == us && c.first_move.is_some() && c.status != PlanStatus::Refuted);
        let top: Vec<Move> = distinct_ideas(ours)
            .take(TOP)
            .filter_map(|c| c.first_move)
            .collect();
        let rank = top.iter().position(|&mv| mv == key);
        let ours = combinations(board, &analysis)
            .into_iter()
            .find(|c| c.mv == key);
        let check_of_key = checks
            .iter()
            .find(|c| matches!(c.role, StepRole::Combination(k) if k.mv == key));
        // The search's own move (of its deepest check) and whether a plan not refuted begins
        // with it: the reading `tropa analyse` gives of the move it plays.
        let best = checks
            .iter()
            .filter(|c| c.side == us)
            .filter_map(|c| c.best.map(|(mv, _)| (c.depth, mv)))
            .max_by_key(|&(depth, _)| depth)
            .map(|(_, mv)| mv);
        let explained = best.is_some_and(|mv| {
            checks.iter().any(|c| {
                c.side == us
                    && c.first_move == Some(mv)
                    && matches!(c.status, PlanStatus::Confirmed | PlanStatus::NotAWin)
            })
        });
        explained_count += usize::from(explained);
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
        let control_rank = control
            .then(|| control_moves(board, nodes).iter().position(|&mv| mv == key))
            .flatten();
        control_found += usize::from(control_rank.is_some());
        let half: &mut Half = halves.entry(record.half().to_string()).or_default();
        half.measured += 1;
        half.found += usize::from(rank.is_some());
        half.control += usize::from(control_rank.is_some());
        half.explained += usize::from(explained);
        let control_text = match (control, control_rank) {
            (false, _) => String::new(),
            (true, Some(r)) => format!("; control: line {} ({nodes} nodes)", r + 1),
            (true, None) => format!("; control: not in its {TOP} lines ({nodes} nodes)"),
        };
        let best_text = best.map_or(String::new(), |mv| {
            let word = if explained {
                "explained"
            } else {
                "unexplained"
            };
            format!("; best {} {word}", move_to_san(board, mv))
        });
        say!(
            "{measured:3} {}: key {}{labelled}; {}; {as_combination}{best_text}{control_text}",
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
    nodes_spent.sort_unstable();
    let share = |n: usize, of: usize| format!("{n} of {of} ({:.0}%)", 100.0 * n as f64 / of as f64);
    if halves.keys().any(|h| !h.is_empty()) {
        for name in in_report_order(halves.keys()) {
            let h = &halves[name];
            let control_text = if control {
                format!(
                    "; control (Tropa's search, MultiPV {TOP}, the same nodes) in {}",
                    share(h.control, h.measured)
                )
            } else {
                String::new()
            };
            say!(
                "{}: key move among the top {TOP} plans not refuted in {}; the check's best move explained by a plan not refuted in {}{control_text}",
                if name.is_empty() { "no half" } else { name },
                share(h.found, h.measured),
                share(h.explained, h.measured)
            );
        }
    }
    let percent = |n: usize| 100.0 * n as f64 / measured as f64;
    let control_text = if control {
        format!(
            "; control: Tropa's search with MultiPV {TOP} at the nodes each check spent (median {}) has the key move among its {TOP} lines in {control_found} ({:.0}%)",
            nodes_spent[nodes_spent.len() / 2],
            percent(control_found)
        )
    } else {
        String::new()
    };
    say!(
        "{measured} positions: key move among the top {TOP} plans not refuted in {found} ({:.0}%); proposed as a combination in {proposed} ({:.0}%), the labelled method in {method_right}, the labelled defender in {defender_right}; the check's best move explained by a plan not refuted in {explained_count} ({:.0}%); median {:.2} s a position, {:.0} s in all{control_text}",
        percent(found),
        percent(proposed),
        percent(explained_count),
        seconds[seconds.len() / 2],
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
