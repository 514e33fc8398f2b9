//! The text of a checked plan: the search's verdict under each zone, the report with the
//! refuted plans and the answers to a check in lists of their own, and the reading of the
//! search's move that `tropa analyse` and UCI's `ShowPlans` give (that move's plans first,
//! then the side's other plans, then the opponent's threats, so that a reader who asks what the
//! side to move should do is answered for that side).

use super::{
    check_plans, distinct_ideas, ranked, zone_order, CheckLimits, PlanCheck, PlanStatus,
    CONFIRM_MARGIN, DECISIVE, WIN_MARGIN,
};
use crate::pioneer::attacks::attack::TrajectoryLimits;
use crate::pioneer::play::moves::StepRole;
use crate::pioneer::uses::plan::{
    checkers_text, fork_text, report_with, step_headline, zone_headline, Section,
};
use crate::pioneer::zones::analysis::Analysis;
use crate::pioneer::zones::fork::{forks, Fork};
use crate::rules::notation::{line_to_numbered_san, move_to_san};
use crate::rules::{side_name, Board, Color, Move};
use crate::search::{Score, SearchResult};

/// A score from the plan side's view in words: pawns with a sign, or a mate.
fn score_text(score: i32) -> String {
    match Score::from_internal(score) {
        Score::Centipawns(cp) => format!("{:+.2}", cp as f64 / 100.0),
        Score::Mate(n) if n > 0 => format!("mates in {n}"),
        Score::Mate(n) => format!("is mated in {}", -n),
    }
}

/// The line under a zone that says what the search made of its first move.
pub fn check_text(check: &PlanCheck) -> String {
    let verdict = match check.status {
        PlanStatus::Confirmed => "confirmed",
        PlanStatus::NotAWin => "playable, no win",
        PlanStatus::Refuted => "refuted",
        PlanStatus::NotPlayable => {
            return "search:  not checked — its first step cannot be played now".to_string()
        }
    };
    let best = match (check.best, check.first_move) {
        (Some((best, score)), Some(mv)) if best != mv => format!(
            "; best {} {}",
            move_to_san(&check.position, best),
            score_text(score)
        ),
        _ => "; the best move".to_string(),
    };
    format!(
        "search:  {verdict} — {}: {} for {} (depth {}{best})",
        line_to_numbered_san(&check.position, &check.line),
        score_text(check.score),
        side_name(check.side),
        check.depth
    )
}

/// What the search found against a zone called a win whose first move is `status`, in words
/// (`zone_headline`'s caveat); `None` when nothing.
fn caveat(status: PlanStatus) -> Option<String> {
    match status {
        PlanStatus::Refuted => Some("the search refutes it".to_string()),
        PlanStatus::NotAWin => Some(format!(
            "the search scores it more than {:.2} below the best move",
            WIN_MARGIN as f64 / 100.0
        )),
        PlanStatus::Confirmed | PlanStatus::NotPlayable => None,
    }
}

/// What a checked plan does, in one line (`step_headline`), except that a zone's attack the
/// search refuted or found no win is not called a win.
pub fn plan_headline(analysis: &Analysis, board: &Board, check: &PlanCheck) -> String {
    match (check.role, caveat(check.status)) {
        (StepRole::Attack { zone }, Some(caveat)) => {
            zone_headline(analysis, board, zone, Some(&caveat))
        }
        (role, _) => step_headline(analysis, board, role),
    }
}

/// The lines of UCI's `ShowPlans` (`info string plan …`), sent before the search: the reading
/// of the move the plan checks' search prefers (`read_move`), each plan prefixed `for SAN:`
/// (or one `no reading of SAN:` line), then `other:` and `threat:` plans, at most `max` in
/// each list, then one `fork:` line per fork trajectory.
pub fn checked_plan_lines(board: &Board, limits: CheckLimits, max: usize) -> Vec<String> {
    let analysis = Analysis::new(board, TrajectoryLimits::default());
    let reading = read_with(board, &analysis, None, limits, max);
    let mut out = Vec::new();
    if let Some(san) = &reading.san {
        if reading.reading.is_empty() {
            out.push(format!(
                "no reading of {san}: PIONEER has no plan that begins with it"
            ));
        }
        out.extend(reading.reading.iter().map(|l| format!("for {san}: {l}")));
    }
    out.extend(reading.others.iter().map(|l| format!("other: {l}")));
    out.extend(reading.threats.iter().map(|l| format!("threat: {l}")));
    out.extend(
        forks(board, &analysis, 2)
            .iter()
            .map(|f| fork_text(&analysis, f))
            .filter(|text| !reading.reading.contains(text))
            .map(|text| format!("fork: {text}")),
    );
    out
}

/// PIONEER's answer to "why this move?" for a position: its reading of the move the search
/// prefers, the side to move's other plans, and the opponent's threats, each a list of checked
/// plans in one line each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReading {
    /// The move read, in SAN (none in a position without moves).
    pub san: Option<String>,
    /// The side to move's plans that begin with that move, best first: the zones it serves,
    /// and for a combination the hindering piece it takes away and the play that frees. Empty
    /// where PIONEER has no reading of the move.
    pub reading: Vec<String>,
    /// The side to move's other plans the search does not refute, one per first move.
    pub others: Vec<String>,
    /// The opponent's plans the search does not refute, as if it could move now (checked after
    /// a pass), one per first move.
    pub threats: Vec<String>,
}

/// Reads `board` for a reader who asks why the search plays its move (`tropa analyse`, which
/// gives its search's result); `None`: the move that the plan checks' own search prefers
/// (`ShowPlans`, before the search runs). The plans that begin with the searched move take that
/// search's verdict, line and depth: the search that chose the move saw further than a plan's
/// check (a sacrifice whose gain lies deep is no "no win" at depth 8 when the search found it
/// at depth 20). At most `max` plans in each list.
pub fn read_move(
    board: &Board,
    searched: Option<&SearchResult>,
    limits: CheckLimits,
    max: usize,
) -> MoveReading {
    let analysis = Analysis::new(board, TrajectoryLimits::default());
    read_with(board, &analysis, searched, limits, max)
}

/// `read_move` on the analysis of `board` already made.
fn read_with(
    board: &Board,
    analysis: &Analysis,
    searched: Option<&SearchResult>,
    limits: CheckLimits,
    max: usize,
) -> MoveReading {
    let mut checks = check_plans(board, analysis, limits);
    let us = board.side_to_move();
    let best = searched.and_then(|r| r.best);
    if let (Some(result), Some(mv)) = (searched, best) {
        for c in checks
            .iter_mut()
            .filter(|c| c.side == us && c.first_move == Some(mv))
        {
            c.status = PlanStatus::Confirmed;
            c.score = result.score;
            c.line.clone_from(&result.pv);
            c.best = Some((mv, result.score));
            c.depth = result.depth;
        }
    }
    let best = best.or_else(|| {
        checks
            .iter()
            .find(|c| c.side == us && c.best.is_some())
            .and_then(|c| c.best.map(|(mv, _)| mv))
    });
    let kept = |c: &&PlanCheck| matches!(c.status, PlanStatus::Confirmed | PlanStatus::NotAWin);
    let ours = ranked(&checks).into_iter().filter(|c| c.side == us);
    let line = |c: &PlanCheck| plan_line(analysis, board, c);
    let reading = best.map_or_else(Vec::new, |mv| {
        reading(board, analysis, &checks, mv, max, &line)
    });
    let others = distinct_ideas(ours.filter(kept).filter(|c| c.first_move != best))
        .take(max)
        .map(|c| plan_line(analysis, board, c))
        .collect();
    let theirs = ranked(&checks).into_iter().filter(|c| c.side != us);
    let threats = distinct_ideas(theirs.filter(kept))
        .take(max)
        .map(|c| plan_line(analysis, board, c))
        .collect();
    MoveReading {
        san: best.map(|mv| move_to_san(board, mv)),
        reading,
        others,
        threats,
    }
}

/// PIONEER's reading of `mv`, a move of the side to move, at most `max` lines: the fork
/// trajectory it begins (the one route that serves two zones: Réti's king), then the side's
/// plans in `checks` that begin with it, best first, each written by `line`.
fn reading(
    board: &Board,
    analysis: &Analysis,
    checks: &[PlanCheck],
    mv: Move,
    max: usize,
    line: &dyn Fn(&PlanCheck) -> String,
) -> Vec<String> {
    let us = board.side_to_move();
    forks(board, analysis, 2)
        .iter()
        .filter(|f| begins_fork(board, f, mv))
        .map(|f| fork_text(analysis, f))
        .chain(
            ranked(checks)
                .into_iter()
                .filter(|c| c.side == us && c.first_move == Some(mv))
                .map(line),
        )
        .take(max)
        .collect()
}

/// PIONEER's reading of `mv`, a move of the side to move in `board` that a search has judged
/// (see `read_move`): the plans ranked as their checks within `limits` rank them, each by its
/// headline alone (the verdict is the caller's search's); at most `max` lines, none where
/// PIONEER has no reading of it.
pub fn reading_of_move(board: &Board, mv: Move, limits: CheckLimits, max: usize) -> Vec<String> {
    let analysis = Analysis::new(board, TrajectoryLimits::default());
    let checks = check_plans(board, &analysis, limits);
    let headline = |c: &PlanCheck| plan_headline(&analysis, board, c);
    reading(board, &analysis, &checks, mv, max, &headline)
}

/// Does `mv`, a move of the side to move, take the first step of fork trajectory `fork`?
fn begins_fork(board: &Board, fork: &Fork, mv: Move) -> bool {
    board.color_on(fork.square) == Some(board.side_to_move())
        && mv.from == fork.square
        && fork.common.first() == Some(&mv.to)
}

/// Is `mv`, a move of the side to move, explained by PIONEER: the first move of one of its
/// plans that the search does not refute (`checks`), or the first step of a fork trajectory?
pub fn explains(board: &Board, analysis: &Analysis, checks: &[PlanCheck], mv: Move) -> bool {
    checks.iter().any(|c| {
        c.side == board.side_to_move()
            && c.first_move == Some(mv)
            && matches!(c.status, PlanStatus::Confirmed | PlanStatus::NotAWin)
    }) || forks(board, analysis, 2)
        .iter()
        .any(|f| begins_fork(board, f, mv))
}

/// A checked plan in one line: what it does, then what the search made of its first move.
fn plan_line(analysis: &Analysis, board: &Board, check: &PlanCheck) -> String {
    format!(
        "{}; {}",
        plan_headline(analysis, board, check),
        check_text(check)
    )
}

/// Which list of the plans that serve no zone a check is shown in: 0 for a combination, 1 for
/// an escape, 2 for a linked zone that revives an attack given up.
fn list_of(c: &PlanCheck) -> Option<usize> {
    match c.role {
        StepRole::Combination(_) => Some(0),
        StepRole::Escape { .. } => Some(1),
        StepRole::Linked { .. } if c.zone().is_none() => Some(2),
        _ => None,
    }
}

/// PIONEER's report of `board` with every zone's check by the search (`checks`, made by
/// `check_plans`) under it, the plans best first and the refuted ones in a list of
/// their own: the zones numbered in the order of `ranked`.
pub fn checked_report(
    board: &Board,
    analysis: &Analysis,
    side: Option<Color>,
    checks: &[PlanCheck],
) -> Vec<String> {
    // Under a zone: its attack's check, then each other plan that serves or meets it (a
    // trajectory with several first steps once, with the check of every step).
    let notes = |zone: usize| -> Vec<String> {
        let zone_checks: Vec<&PlanCheck> = ranked(checks)
            .into_iter()
            .filter(|c| c.zone() == Some(zone))
            .collect();
        let mut roles: Vec<StepRole> = Vec::new();
        for c in &zone_checks {
            if !roles.contains(&c.role) {
                roles.push(c.role);
            }
        }
        roles.sort_by_key(|role| !matches!(role, StepRole::Attack { .. }));
        let mut lines = Vec::new();
        for role in roles {
            if !matches!(role, StepRole::Attack { .. }) {
                lines.push(format!("plan:    {}", step_headline(analysis, board, role)));
            }
            for c in zone_checks.iter().filter(|c| c.role == role) {
                lines.push(check_text(c));
            }
        }
        lines
    };
    let (kept, refuted): (Vec<usize>, Vec<usize>) =
        zone_order(checks).into_iter().partition(|&zone| {
            checks
                .iter()
                .any(|c| c.zone() == Some(zone) && c.status != PlanStatus::Refuted)
        });
    let no_win = |zone: usize| {
        checks
            .iter()
            .any(|c| c.role == StepRole::Attack { zone } && c.status == PlanStatus::NotAWin)
    };
    let (not_wins, kept): (Vec<usize>, Vec<usize>) = kept.into_iter().partition(|&z| no_win(z));
    let (not_a_win, refutes) = (caveat(PlanStatus::NotAWin), caveat(PlanStatus::Refuted));
    let sections = [
        Section {
            heading: None,
            zones: kept,
            caveat: None,
        },
        Section {
            heading: Some("Playable, but no win by the search:"),
            zones: not_wins,
            caveat: not_a_win.as_deref(),
        },
        Section {
            heading: Some("Refuted by the search:"),
            zones: refuted,
            caveat: refutes.as_deref(),
        },
    ];
    let mut out = report_with(board, analysis, side, &sections, &notes);
    // Where the lists that come before the zones go: after the first line, which counts them,
    // and after the answers to a check.
    let mut head = 1;
    let answers: Vec<&PlanCheck> = ranked(checks)
        .into_iter()
        .filter(|c| matches!(c.role, StepRole::AnswerCheck { .. }))
        .filter(|c| side.is_none_or(|s| s == c.side))
        .collect();
    if !answers.is_empty() {
        // The check comes first: nothing else can be played before it is answered.
        let mut lines = vec![format!(
            "{} is in check ({}); the answers, best first:",
            side_name(board.side_to_move()),
            checkers_text(board)
        )];
        for c in answers {
            lines.push(format!("    {}", step_headline(analysis, board, c.role)));
            lines.push(format!("      {}", check_text(c)));
        }
        head += lines.len();
        out.splice(1..1, lines);
    }
    // Plans that serve no zone: combinations, escapes, and linked zones that revive an attack
    // given up.
    let titles = [
        "Combinations (a hindering piece's function taken away at a price):",
        "Escapes of attacked pieces:",
        "Linked zones that revive an attack given up:",
    ];
    for (list, title) in titles.into_iter().enumerate() {
        let plans: Vec<&PlanCheck> = ranked(checks)
            .into_iter()
            .filter(|c| list_of(c) == Some(list))
            .filter(|c| side.is_none_or(|s| s == c.side))
            .collect();
        if plans.is_empty() {
            continue;
        }
        // A combination the search confirms is the best plan there is (it scores at least the
        // best other plan): its list comes first, after the answers to a check.
        let first = list == 0 && plans[0].status == PlanStatus::Confirmed;
        let mut lines = vec![title.to_string()];
        for c in plans {
            lines.push(format!("    {}", step_headline(analysis, board, c.role)));
            lines.push(format!("      {}", check_text(c)));
        }
        if first {
            out.splice(head..head, lines);
        } else {
            out.extend(lines);
        }
    }
    let (confirmed, refuted) = checks
        .iter()
        .filter(|c| side.is_none_or(|s| s == c.side))
        .fold((0, 0), |(c, r), check| match check.status {
            PlanStatus::Confirmed | PlanStatus::NotAWin => (c + 1, r),
            PlanStatus::Refuted => (c, r + 1),
            PlanStatus::NotPlayable => (c, r),
        });
    let depths = checks.iter().map(|c| c.depth);
    let (shallowest, deepest) = (depths.clone().min().unwrap_or(0), depths.max().unwrap_or(0));
    let depth = if shallowest == deepest {
        format!("{deepest}")
    } else {
        format!("{shallowest}, the claimed wins at {deepest}")
    };
    out.push(format!(
        "Checked by the search at depth {depth}: {confirmed} confirmed, {refuted} refuted (a first move more than {:.2} below the best is refuted unless it keeps {:+.2}; a claimed win more than {:.2} below is no win; the opponent's plans are played after a pass).",
        CONFIRM_MARGIN as f64 / 100.0,
        DECISIVE as f64 / 100.0,
        WIN_MARGIN as f64 / 100.0
    ));
    out
}
