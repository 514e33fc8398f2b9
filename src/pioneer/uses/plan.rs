//! Plans in words: the zones of a position explained to a person.
//!
//! Each zone becomes one headline in PIONEER's manner — "White: R e1–a1×a7 wins the pawn on a7
//! in 3 moves; Black cannot defend in time (R h5–c5–c7 needs 3, has 2)" — followed by the
//! counter-trajectories (in time, and the nearest late ones) and the support trajectories under
//! it. Fork trajectories, which serve two independent zones at once, come next, then a few of
//! the rejected trajectories with their reasons. In check, the answers to the check are worded
//! as PIONEER's counters: "White: B c1–d2 blocks the check of the Q b4", "White: N f3×e5 takes
//! the checking knight", "Black: K g8–h8 leaves the check".
//!
//! Design note: the text is built from `Analysis` alone, so the CLI (`tropa plan`), the UCI
//! option `ShowPlans` (`info string plan …`) and the tests read the same sentences. Squares are
//! joined by an en dash and captures marked ×, as in the PIONEER chapter; letters are English.

use crate::pioneer::attacks::attack::{route_notation, Goal, TrajectoryLimits};
use crate::pioneer::board::pieces::{piece_letter, piece_name};
use crate::pioneer::counters::counter::{Counter, CounterKind};
use crate::pioneer::counters::support::{Support, SupportKind};
use crate::pioneer::play::moves::{CheckAnswer, StepRole};
use crate::pioneer::zones::analysis::{Analysis, Compensation, ZoneOutcome};
use crate::pioneer::zones::combination_text::combination_text;
use crate::pioneer::zones::fork::{forks, Fork};
use crate::pioneer::zones::goal_change::{goal_change_text, goal_changes};
use crate::pioneer::zones::zone::{Zone, ZoneVerdict};
use crate::rules::notation::move_to_san;
use crate::rules::{is_capture, side_name, Board, Color, GameStatus, Move, Piece};

/// How many rejected trajectories the full report lists.
pub const REJECTED_SHOWN: usize = 8;
/// How many late counters are listed under a zone.
pub const LATE_SHOWN: usize = 2;
/// How many timely counters and supports are listed under a zone.
pub const SHOWN: usize = 3;

/// A counter in PIONEER's notation with what it does: `K a6–b7 controls c8`.
pub fn counter_text(c: &Counter) -> String {
    let route = route_notation(
        c.piece,
        &c.route,
        Goal::Promote {
            square: c.route.end(),
        },
    );
    let route = route.trim_end_matches("=Q").to_string();
    let route = if c.route.is_empty() {
        format!("{route} (already there)")
    } else {
        route
    };
    match c.kind {
        CounterKind::DefendTarget => format!("{route} defends the target"),
        CounterKind::TakeAttacker => format!("{route} takes the attacker"),
        CounterKind::ControlStop { square, .. } => format!("{route} controls {square}"),
        CounterKind::Block { square, .. } => format!("{route} blocks on {square}"),
        CounterKind::Flight { square } if c.piece == Piece::King => {
            format!("{route} leaves the mating net (to {square})")
        }
        CounterKind::Flight { square } => format!("{route} frees {square} for the king"),
        CounterKind::DenyPreparation { square } => {
            format!("{route} controls {square} against the preparation")
        }
        CounterKind::Unpin { pinner } => format!("{route} lifts the pin by {pinner}"),
        CounterKind::Relieve {
            charge,
            guard: true,
        } => {
            format!("{route} guards {charge} against the mate, freeing the target")
        }
        CounterKind::Relieve { charge, .. } if c.route.start() == charge => {
            format!("{route} takes the piece the target defends to safety")
        }
        CounterKind::Relieve { charge, .. } => {
            format!("{route} takes over the defence of {charge}, freeing the target")
        }
    }
}

fn timing(c: &Counter) -> String {
    let tempo = c.threat.map_or(String::new(), |t| {
        format!(" and gains a tempo {}", t.words())
    });
    format!("needs {}, has {}{tempo}", c.needs(), c.budget)
}

fn with_timing(c: &Counter) -> String {
    format!("{}: {}", counter_text(c), timing(c))
}

/// A support in notation with what it does: `B b1–c2 clears the path`.
pub fn support_text(zone: &Zone, s: &Support) -> String {
    let mut route = format!("{} {}", piece_letter(s.piece), s.route.squares_text());
    let others: Vec<String> = (s.route.first_steps
        & !s.route
            .squares
            .get(1)
            .map_or(crate::rules::BitBoard::EMPTY, |q| q.bitboard()))
    .iter()
    .map(|q| q.to_string())
    .collect();
    if s.route.len() == 1 && !others.is_empty() {
        route.push_str(&format!(" (or to {})", others.join(", ")));
    }
    let what = match s.kind {
        SupportKind::Prepare { .. } => {
            format!("prepares the mate on {}", zone.attack.goal.square())
        }
        SupportKind::Clear { square } => format!("clears the path (leaves {square})"),
        SupportKind::DefendStop { square, .. } => format!("defends {square}"),
        SupportKind::CaptureCounter { counter } => {
            format!("takes the {}", piece_name(zone.counters[counter].piece))
        }
        SupportKind::BlockCounter { counter } => format!(
            "blocks the line of {}",
            route_notation(
                zone.counters[counter].piece,
                &zone.counters[counter].route,
                Goal::Promote {
                    square: zone.counters[counter].route.end()
                }
            )
            .trim_end_matches("=Q")
        ),
    };
    let n = s.route.forecast();
    let moves = format!("{n} move{}", if n == 1 { "" } else { "s" });
    let when = match (s.kind, s.in_time) {
        (SupportKind::Clear { .. } | SupportKind::Prepare { .. }, _) => String::new(),
        (_, true) => format!(", {moves}, in time"),
        (_, false) => format!(", {moves}"),
    };
    format!("{route} {what}{when}")
}

/// What outweighs winning zone `index`: "; but Black, given the tempo, gets R e2×e7 in
/// return", "; but White answers Bxg3 with Rxf2, which wins more", "; but Black wins more with
/// Rxd8 now".
fn compensation_text(analysis: &Analysis, board: &Board, index: usize, c: Compensation) -> String {
    let zone = &analysis.zones[index];
    let opp = side_name(!zone.side());
    let other = match c {
        Compensation::Forgone(capture) => {
            return format!(
                "; but {} wins more with {} now",
                side_name(zone.side()),
                move_to_san(board, capture)
            );
        }
        Compensation::Zone(j) => &analysis.zones[j].attack,
        Compensation::Rejected(k) => &analysis.rejected[k],
        Compensation::Reply(reply) => {
            let Some(first) = zone.first_move(board) else {
                return String::new();
            };
            let mut after = board.clone();
            after.play_unchecked(first);
            let mut next = after.clone();
            next.play_unchecked(reply);
            let what = match zone.attack.goal {
                // The mate speaks for itself: "Qg7#".
                _ if next.status() == GameStatus::Won => "",
                Goal::Mate { .. } => ", which stops the mate and wins material",
                _ => ", which wins more",
            };
            return format!(
                "; but {opp} answers {} with {}{what}",
                move_to_san(board, first),
                move_to_san(&after, reply)
            );
        }
    };
    format!(
        "; but {opp}, given the tempo, gets {} in return",
        other.notation()
    )
}

/// The headline of a zone: "White: R e1–a1×a7 wins the pawn on a7 in 3 moves; Black cannot
/// defend in time (R h5–c5–c7 needs 3, has 2)".
pub fn headline(analysis: &Analysis, board: &Board, index: usize) -> String {
    zone_headline(analysis, board, index, None)
}

/// The headline of a zone; a winning zone with a `caveat` (what a search found against it) is
/// not called a win ("would win … by the zone's timing, but {caveat}").
pub fn zone_headline(
    analysis: &Analysis,
    board: &Board,
    index: usize,
    caveat: Option<&str>,
) -> String {
    let zone = &analysis.zones[index];
    let a = &zone.attack;
    let side = side_name(a.side);
    let opp = side_name(!a.side);
    let moves = a.forecast();
    let plural = if moves == 1 { "move" } else { "moves" };
    let aim = format!("{} in {moves} {plural}", a.goal_words());
    let nearest_late = zone
        .counters
        .iter()
        .filter(|c| !c.in_time())
        .max_by_key(|c| c.slack());
    match zone.verdict {
        ZoneVerdict::Wins => {
            let verb = match (a.goal, caveat.is_some()) {
                (Goal::Capture { .. }, false) => "wins",
                (Goal::Promote { .. }, false) => "reaches",
                (Goal::Mate { .. }, false) => "gives",
                (Goal::Capture { .. }, true) => "would win",
                (Goal::Promote { .. }, true) => "would reach",
                (Goal::Mate { .. }, true) => "would give",
            };
            let mut text = format!("{side}: {} {verb} {aim}", a.notation());
            if let Some(caveat) = caveat {
                text.push_str(&format!(" by the zone's timing, but {caveat}"));
            }
            match nearest_late {
                Some(c) => {
                    let verb = match a.goal {
                        Goal::Capture { .. } => "defend",
                        Goal::Promote { .. } | Goal::Mate { .. } => "stop it",
                    };
                    text.push_str(&format!(
                        "; {opp} cannot {verb} in time ({})",
                        with_timing(c)
                    ))
                }
                None => text.push_str(&format!("; {opp} has no counter within reach")),
            }
            match analysis.outcome(board, index) {
                ZoneOutcome::Compensated(c) => {
                    text.push_str(&compensation_text(analysis, board, index, c))
                }
                ZoneOutcome::Gains => {
                    if analysis
                        .zones_of(!a.side)
                        .any(|(j, _)| analysis.independent(index, j))
                    {
                        text.push_str(&format!(
                            "; {opp}'s independent zones are held even with a tempo more"
                        ))
                    }
                }
                ZoneOutcome::NoGain => {}
            }
            text
        }
        ZoneVerdict::Contested => {
            let c = zone.timely_counters().next();
            format!(
                "{side}: {} aims at {aim}; {opp} answers in time{}, but the support meets it",
                a.notation(),
                c.map_or(String::new(), |c| format!(" ({})", with_timing(c)))
            )
        }
        ZoneVerdict::Postponed => {
            let reasons: Vec<String> = a.rejections.iter().map(|r| r.to_string()).collect();
            format!(
                "{side}: {} aims at {aim}, postponed: {}",
                a.notation(),
                reasons.join("; ")
            )
        }
        ZoneVerdict::Defended => {
            let c = zone.timely_counters().next();
            format!(
                "{side}: {} aims at {aim}; {opp} defends in time{}",
                a.notation(),
                c.map_or(String::new(), |c| format!(" ({})", with_timing(c)))
            )
        }
    }
}

/// The pieces giving check to the side to move of `board`, in notation: "Q b4", "R e8 and N f6"
/// (empty when there is no check).
pub fn checkers_text(board: &Board) -> String {
    let names: Vec<String> = board
        .checkers()
        .into_iter()
        .map(|sq| format!("{} {sq}", board.piece_on(sq).map_or('?', piece_letter)))
        .collect();
    names.join(" and ")
}

/// An answer to the check in `board` in words: "White: B c1–d2 blocks the check of the Q b4",
/// "White: N f3×e5 takes the checking knight", "Black: K g8–h8 leaves the check".
pub fn answer_text(board: &Board, mv: Move, answer: CheckAnswer) -> String {
    let piece = board.piece_on(mv.from).map_or('?', piece_letter);
    let joint = if is_capture(board, mv) { '×' } else { '–' };
    let promotion = mv
        .promotion
        .map_or(String::new(), |p| format!("={}", piece_letter(p)));
    let what = match answer {
        CheckAnswer::CaptureChecker { checker } => format!(
            "takes the checking {}",
            board.piece_on(checker).map_or("piece", piece_name)
        ),
        CheckAnswer::Block { checker, .. } => format!(
            "blocks the check of the {} {checker}",
            board.piece_on(checker).map_or('?', piece_letter)
        ),
        CheckAnswer::KingFlight { .. } if board.checkers().len() > 1 => {
            "leaves the double check".to_string()
        }
        CheckAnswer::KingFlight { .. } => "leaves the check".to_string(),
    };
    format!(
        "{}: {piece} {}{joint}{}{promotion} {what}",
        side_name(board.side_to_move()),
        mv.from,
        mv.to
    )
}

/// What a planned step does, in one line: the zone's headline for an attack's first step; for
/// a support, a counter or an escape, the trajectory with what it does and the attack it
/// serves or meets: "Black: N c6–d8 defends the target against B e2×a6"; for an answer to a
/// check, `answer_text`.
pub fn step_headline(analysis: &Analysis, board: &Board, role: StepRole) -> String {
    match role {
        StepRole::Attack { zone } => headline(analysis, board, zone),
        StepRole::Support { zone, support } => {
            let z = &analysis.zones[zone];
            format!(
                "{}: {} for {}",
                side_name(z.side()),
                support_text(z, &z.supports[support]),
                z.attack.notation()
            )
        }
        StepRole::Counter { zone, counter } => {
            let z = &analysis.zones[zone];
            format!(
                "{}: {} against {}",
                side_name(!z.side()),
                counter_text(&z.counters[counter]),
                z.attack.notation()
            )
        }
        StepRole::Deblock {
            zone,
            counter,
            square,
        } => {
            let z = &analysis.zones[zone];
            let piece = board.piece_on(square).map_or('?', piece_letter);
            format!(
                "{}: {piece} {square} clears the way of {} against {}",
                side_name(!z.side()),
                counter_text(&z.counters[counter]),
                z.attack.notation()
            )
        }
        StepRole::Linked { link, .. } => {
            let l = &analysis.linked[link];
            let square = l.critical.square;
            let what = match analysis.hindering_counter(l) {
                Some(c) => format!("takes {square} from {}", counter_text(c)),
                None => format!(
                    "takes {square}, the way out of the {} {}",
                    piece_name(l.critical.piece),
                    l.critical.hinderer
                ),
            };
            format!(
                "{}: {} {what}, linked with {}: {}",
                side_name(l.side),
                l.notation(),
                analysis.linked_attack(l).notation(),
                l.verdict_words()
            )
        }
        StepRole::Escape { rejected, to } => {
            let a = &analysis.rejected[rejected];
            let target = a.goal.square();
            let piece = board.piece_on(target).map_or('?', piece_letter);
            format!(
                "{}: {piece} {target}–{to} steps away from {}",
                side_name(!a.side),
                a.notation()
            )
        }
        StepRole::Combination(c) => combination_text(analysis, board, &c),
        StepRole::AnswerCheck { mv, answer } => answer_text(board, mv, answer),
    }
}

/// The lines under a zone's headline: counters in time, the nearest late ones, supports (at
/// most `SHOWN` of each, the rest counted).
pub fn details(zone: &Zone) -> Vec<String> {
    let mut out = Vec::new();
    let timely: Vec<&Counter> = zone.timely_counters().collect();
    for c in timely.iter().take(SHOWN) {
        out.push(format!("counter: {}", with_timing(c)));
    }
    if timely.len() > SHOWN {
        out.push(format!(
            "         and {} more counters in time",
            timely.len() - SHOWN
        ));
    }
    let mut late: Vec<&Counter> = zone.counters.iter().filter(|c| !c.in_time()).collect();
    late.sort_by_key(|c| std::cmp::Reverse(c.slack()));
    for c in late.into_iter().take(LATE_SHOWN) {
        out.push(format!("late:    {}", with_timing(c)));
    }
    for s in zone.supports.iter().take(SHOWN) {
        out.push(format!("support: {}", support_text(zone, s)));
    }
    if zone.supports.len() > SHOWN {
        out.push(format!(
            "         and {} more supports",
            zone.supports.len() - SHOWN
        ));
    }
    out
}

/// A fork trajectory in words.
pub fn fork_text(analysis: &Analysis, fork: &Fork) -> String {
    let [a, b] = &fork.roles;
    let side = analysis.zones[a.zone]
        .counters
        .iter()
        .find(|c| c.square() == fork.square)
        .map_or(analysis.zones[a.zone].side(), |_| {
            !analysis.zones[a.zone].side()
        });
    format!(
        "{}: {} serves two independent zones: it {} toward {} and {} toward {}; every step along it works for both",
        side_name(side),
        fork.notation(),
        a.words,
        a.goal,
        b.words,
        b.goal
    )
}

/// A list of zones in a report, numbered on from the list before it.
#[derive(Clone, Debug)]
pub struct Section<'a> {
    /// The heading printed above the list, if any.
    pub heading: Option<&'a str>,
    /// Indices of the zones, in the order shown.
    pub zones: Vec<usize>,
    /// What a search found against these zones, if anything: a winning one is then not called
    /// a win (`zone_headline`).
    pub caveat: Option<&'a str>,
}

/// The full report: every zone of the chosen side (or both), the forks and some rejections.
pub fn report(board: &Board, side: Option<Color>, limits: TrajectoryLimits) -> Vec<String> {
    let analysis = Analysis::new(board, limits);
    report_of(board, &analysis, side)
}

/// The report of an analysis already made.
pub fn report_of(board: &Board, analysis: &Analysis, side: Option<Color>) -> Vec<String> {
    let zones: Vec<usize> = (0..analysis.zones.len()).collect();
    let all = Section {
        heading: None,
        zones,
        caveat: None,
    };
    report_with(board, analysis, side, &[all], &|_| Vec::new())
}

/// The report of an analysis (its first line says who is to move and counts the zones) with
/// the zones listed in `sections` (`Section`: an optional heading, zone indices in the order
/// shown, numbered on through the sections) and the lines `notes(zone index)` gives under each
/// zone's own (what a caller learned of the zone elsewhere, such as a search's check of its
/// first move).
pub fn report_with(
    board: &Board,
    analysis: &Analysis,
    side: Option<Color>,
    sections: &[Section],
    notes: &dyn Fn(usize) -> Vec<String>,
) -> Vec<String> {
    let mut out = Vec::new();
    let count = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    out.push(format!(
        "{} to move. {} in {}; {} rejected.",
        side_name(board.side_to_move()),
        count(analysis.zones.len(), "zone"),
        count(analysis.composites.len(), "independent group"),
        count(analysis.rejected.len(), "trajectory").replace("trajectorys", "trajectories")
    ));
    let changes = goal_changes(analysis);
    let mut number = 0;
    for section in sections {
        let shown: Vec<usize> = section
            .zones
            .iter()
            .copied()
            .filter(|&i| side.is_none_or(|s| s == analysis.zones[i].side()))
            .collect();
        if let (Some(heading), false) = (section.heading, shown.is_empty()) {
            out.push(heading.to_string());
        }
        for i in shown {
            number += 1;
            out.push(format!(
                "{number:2}. {}",
                zone_headline(analysis, board, i, section.caveat)
            ));
            let changes = changes
                .iter()
                .filter(|g| g.zone() == i)
                .map(|g| format!("goal change: {}", goal_change_text(analysis, board, g)));
            for d in details(&analysis.zones[i])
                .into_iter()
                .chain(changes)
                .chain(notes(i))
            {
                out.push(format!("      {d}"));
            }
        }
    }
    let fork_list = forks(board, analysis, 1);
    if !fork_list.is_empty() {
        out.push("Fork trajectories:".to_string());
        for f in &fork_list {
            out.push(format!("    {}", fork_text(analysis, f)));
        }
    }
    let mut rejected: Vec<_> = analysis
        .rejected
        .iter()
        .filter(|a| side.is_none_or(|s| s == a.side))
        .collect();
    rejected.sort_by_key(|a| (a.forecast(), -a.gain));
    if !rejected.is_empty() {
        out.push(format!(
            "Rejected ({} shown of {}):",
            rejected.len().min(REJECTED_SHOWN),
            rejected.len()
        ));
        for a in rejected.into_iter().take(REJECTED_SHOWN) {
            let reasons: Vec<String> = a.rejections.iter().map(|r| r.to_string()).collect();
            out.push(format!(
                "    {}: {} — {}",
                side_name(a.side),
                a.notation(),
                reasons.join("; ")
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::examples::{DIAGRAM_51, DIAGRAM_52, RETI};
    use crate::rules::parse_fen;

    fn text(fen: &str, side: Option<Color>) -> String {
        let board = parse_fen(fen, false).unwrap();
        report(&board, side, TrajectoryLimits::default()).join("\n")
    }

    #[test]
    fn diagram_51_plan_in_words() {
        let t = text(DIAGRAM_51, Some(Color::White));
        assert!(
            t.contains(
                "White: R e1–a1×a7 wins the a7 pawn in 3 moves; Black cannot defend in time"
            ),
            "{t}"
        );
        assert!(
            t.contains("support: B b1–c2 clears the path (leaves b1)"),
            "{t}"
        );
        assert!(!t.contains("Black: "), "only White's zones: {t}");
    }

    #[test]
    fn diagram_52_plan_names_the_timely_defence() {
        let t = text(DIAGRAM_52, None);
        assert!(
            t.contains("White: B h6–g5×f6 aims at the f6 knight in 2 moves; Black defends in time"),
            "{t}"
        );
        assert!(
            t.contains("counter: K g8–g7 defends the target: needs 1, has 1"),
            "{t}"
        );
    }

    /// The headlines of the planned steps of the side in check.
    fn answer_lines(fen: &str) -> Vec<String> {
        let board = parse_fen(fen, false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        crate::pioneer::play::moves::planned_steps(&board, &analysis, 3)
            .iter()
            .map(|s| step_headline(&analysis, &board, s.role))
            .collect()
    }

    #[test]
    fn answers_to_a_check_in_words() {
        let block = answer_lines("4k3/8/8/8/1q6/8/8/2B1K3 w - - 0 1");
        assert!(
            block.contains(&"White: B c1–d2 blocks the check of the Q b4".to_string()),
            "{block:?}"
        );
        assert!(
            block.contains(&"White: K e1–f1 leaves the check".to_string()),
            "{block:?}"
        );
        let take = answer_lines("4k3/8/8/4n3/6K1/5N2/8/8 w - - 0 1");
        assert_eq!(
            take[0], "White: N f3×e5 takes the checking knight",
            "{take:?}"
        );
        let flight = answer_lines("6k1/8/8/8/8/8/8/4K1R1 b - - 0 1");
        assert!(
            flight.contains(&"Black: K g8–h8 leaves the check".to_string()),
            "{flight:?}"
        );
        let double = answer_lines("4r1k1/8/8/8/1b6/3N4/8/4K3 w - - 0 1");
        assert!(!double.is_empty());
        assert!(
            double
                .iter()
                .all(|l| l.ends_with("leaves the double check")),
            "{double:?}"
        );
        let board = parse_fen("4r1k1/8/8/8/1b6/3N4/8/4K3 w - - 0 1", false).unwrap();
        assert_eq!(checkers_text(&board), "B b4 and R e8");
    }

    #[test]
    fn reti_plan_names_the_double_purpose_king_route() {
        let t = text(RETI, None);
        assert!(
            t.contains("K h8–g7–f6–e5 serves two independent zones"),
            "{t}"
        );
        assert!(t.contains("stops the h-pawn (P h5–h4–h3–h2–h1=Q)"), "{t}");
        assert!(t.contains("escorts the c-pawn (P c6–c7–c8=Q)"), "{t}");
        assert!(t.contains("Black: P h5–h4–h3–h2–h1=Q reaches promotion on h1 in 4 moves; White cannot stop it in time"), "{t}");
    }
}
