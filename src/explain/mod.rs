//! Explaining a position: PIONEER's plans checked by Tropa's own search.
//!
//! PIONEER lets the zone model propose and a search inside the zone check what the opponent can
//! answer. PIONEER alone judges a capture by who defends the target, never by what becomes of
//! the capturing piece afterwards, so some of its "wins" lose. Here every zone's first move gets
//! a bounded alpha-beta search of the position it is played in (the root, or the root after a
//! pass for the opponent's zones) at the same depth as the best move there: a plan whose first
//! move scores within `CONFIRM_MARGIN` of the best (`WIN_MARGIN` for a zone called a win), or
//! keeps a `DECISIVE` advantage, is *confirmed*; one that scores worse is *refuted*, with the search's line as the refutation. The search never invents a plan: every
//! checked move is the first step of a zone's trajectory, or, in check, one of PIONEER's answers
//! to the check (take the checking piece, block its line, the king's flight).
//!
//! Design note: a module above both PIONEER and the search (neither knows the other); the
//! command line and the UCI layer use it. The searches share one engine with a cleared table,
//! so a check is deterministic for a given position and depth.

pub mod json;
pub mod measure;
pub mod report;
mod searches;

pub use report::{check_text, checked_plan_lines, checked_report, distinct_plan_lines};

use searches::Searches;

use crate::pioneer::play::moves::{planned_steps, StepRole};
use crate::pioneer::zones::analysis::{Analysis, ZoneOutcome};
use crate::pioneer::zones::combination::combinations;
use crate::pioneer::zones::zone::ZoneVerdict;
use crate::rules::{Board, Color, Game, Move};
use crate::search::{Engine, Limits, SearchControl, Silent};

/// A first move scoring at most this many centipawns below the best move at the same depth
/// confirms its plan.
pub const CONFIRM_MARGIN: i32 = 100;
/// The first move of a zone called a win must score at most this far below the best move: the
/// zone claims material, and a capture the search finds half a pawn worse than the best move
/// has not won it.
pub const WIN_MARGIN: i32 = 50;
/// A first move that keeps at least this score confirms its plan even further below the best:
/// it wins too, only less quickly.
pub const DECISIVE: i32 = 300;
/// The longest support, counter or escape trajectory (in moves) whose first step is checked as
/// a plan of the side to move.
pub const PLAN_MOVES_LEFT: u8 = 3;
/// At most this many distinct first moves of supports, counters and escapes are checked, so that
/// a crowded middlegame stays within the time of a move. The answers to a check are all checked:
/// a check leaves few legal moves.
pub const MAX_OTHER_MOVES: usize = 16;

/// At most this many distinct first moves of combinations (`zones::combination`) are checked,
/// the most promising first: a crowded middlegame has dozens of sacrifices, and most give up
/// material for nothing.
pub const MAX_COMBINATION_MOVES: usize = 16;

/// A round two plies deeper costs about this many times the nodes of the round before (over
/// the bench positions, depth 10 against depth 8: 0.42 s against 0.11 s median).
pub const DEEPEN_COST: u64 = 4;

/// The zones called a win are checked up to this many plies deeper than the other plans, as
/// far as their own budget goes (`CheckLimits::claim_budget`, see `check_plans`).
pub const CLAIM_EXTRA_DEPTH: i32 = 4;

/// How deep and how wide each check searches. The plans are checked in rounds: first at
/// `depth`, then two plies deeper while the deeper round is expected to fit the node `budget`
/// of the whole check (the nodes spent so far and `DEEPEN_COST` times those of the last round,
/// at most every search's node limit) and `max_depth` allows; the last round's verdicts stand.
/// Node counts, not time, decide, so a check is deterministic.
#[derive(Clone, Copy, Debug)]
pub struct CheckLimits {
    /// Depth of every search of the first round (the best move's and each plan's).
    pub depth: i32,
    /// Node limit of each search, so a check always ends soon.
    pub nodes: u64,
    /// The deepest round.
    pub max_depth: i32,
    /// Nodes the rounds of the check may spend.
    pub budget: u64,
    /// Nodes the claimed wins' round, after the others, is expected to take at most.
    pub claim_budget: u64,
}

impl Default for CheckLimits {
    fn default() -> Self {
        CheckLimits {
            depth: 8,
            nodes: 150_000,
            max_depth: 10,
            budget: 600_000,
            claim_budget: 300_000,
        }
    }
}

impl CheckLimits {
    /// One round at `depth`.
    pub fn fixed(depth: i32) -> Self {
        CheckLimits {
            depth,
            max_depth: depth,
            ..CheckLimits::default()
        }
    }
}

/// What the search says of a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanStatus {
    /// The first move scores within `CONFIRM_MARGIN` (`WIN_MARGIN` for a claimed win) of the
    /// best move, or keeps a `DECISIVE` advantage.
    Confirmed,
    /// The first move of a zone called a win scores within `CONFIRM_MARGIN` of the best move
    /// but more than `WIN_MARGIN` below it: a playable move, not a win of what the zone aims
    /// at.
    NotAWin,
    /// The first move scores worse: the line shows why.
    Refuted,
    /// The first step cannot be played now (a pinned piece, a move that does not answer a check,
    /// or the opponent's zone while the side to move is in check).
    NotPlayable,
}

/// A plan's first move and what the search made of it.
#[derive(Clone, Debug)]
pub struct PlanCheck {
    /// The trajectory the move begins, and its zone.
    pub role: StepRole,
    /// The side whose plan it is.
    pub side: Color,
    /// The verdict.
    pub status: PlanStatus,
    /// The position the first move is played in (the root, or the root after a pass).
    pub position: Board,
    /// The plan's first move (when playable).
    pub first_move: Option<Move>,
    /// Its score in centipawns from the plan side's view (mate scores as the search gives them).
    pub score: i32,
    /// The search's line from the first move on.
    pub line: Vec<Move>,
    /// The best move in the same position at the same depth, and its score.
    pub best: Option<(Move, i32)>,
    /// The depth of the searches.
    pub depth: i32,
}

impl PlanCheck {
    /// The zone of the plan (`None` for an escape and for an answer to a check).
    pub fn zone(&self) -> Option<usize> {
        self.role.zone()
    }
}

/// Checks with the search the first move of every zone of `analysis` (of `board`), then the
/// other plans of the side to move: the first steps of its supports, of its counters against
/// the opponent's zones and of its attacked pieces' escapes (`planned_steps`, at most
/// `PLAN_MOVES_LEFT` moves long, at most `MAX_OTHER_MOVES` distinct moves) and its combinations
/// (`combinations`, at most `MAX_COMBINATION_MOVES` distinct moves); in check, every answer to
/// the check instead.
/// The rounds follow `limits` (see `CheckLimits`); then the zones called a win (`claims_win`),
/// and after them the combinations, get one round more each: their first moves and the best
/// moves they are measured against are searched as deep as `limits.claim_budget` is expected to
/// allow, at most `CLAIM_EXTRA_DEPTH` past the last round and past `limits.max_depth`. A claimed win is what a
/// reader acts on, a sacrifice's gain may lie deep, and a few searches go deeper than all of
/// them could. A combination is confirmed only where it scores at least as well as the best
/// other plan (`judge_combinations`).
pub fn check_plans(board: &Board, analysis: &Analysis, limits: CheckLimits) -> Vec<PlanCheck> {
    let mut engine = Engine::new(16, 1);
    let mut depth = limits.depth;
    let mut spent = 0;
    // A round `plies` deeper costs about `DEEPEN_COST` times the last one for every two plies,
    // and never more than its searches' node limits together.
    let expected = |last: u64, searches: usize, plies: i32| {
        let growth = DEEPEN_COST.saturating_pow((plies / 2) as u32);
        last.saturating_mul(growth)
            .min(searches as u64 * limits.nodes)
    };
    // The nodes behind the claimed wins and behind the combinations in the last round.
    let (mut checks, behind) = loop {
        let mut searches = Searches::new(&mut engine, CheckLimits { depth, ..limits });
        let checks = check_round(&mut searches, board, analysis);
        spent += searches.nodes;
        let deeper = spent + expected(searches.nodes, searches.count(), 2);
        if depth + 2 > limits.max_depth || deeper > limits.budget {
            let behind = [false, true].map(|combination| {
                let list = checks
                    .iter()
                    .filter(|c| deep_kind(analysis, board, c) == Some(combination));
                searches.nodes_behind(list)
            });
            break (checks, behind);
        }
        depth += 2;
    };
    // The claims, then the combinations, get one more round of their own, each as deep as its
    // budget lets it be: a claimed win is what a reader acts on, and its refutation may lie a
    // few plies deeper than every plan can be searched (a mate in 7 after a knight takes a rook
    // needs depth 12); a sacrifice pays at once for a gain that may lie as deep.
    for (combination, nodes) in [false, true].into_iter().zip(behind) {
        let (total, searches) = (nodes.iter().sum::<u64>(), nodes.len());
        let round_depth = (1..=CLAIM_EXTRA_DEPTH / 2)
            .map(|steps| depth + 2 * steps)
            .filter(|&d| d <= limits.max_depth + CLAIM_EXTRA_DEPTH)
            .take_while(|&d| expected(total, searches, d - depth) <= limits.claim_budget)
            .last();
        if let Some(depth) = round_depth.filter(|_| total > 0) {
            let mut searches = Searches::new(&mut engine, CheckLimits { depth, ..limits });
            for check in checks
                .iter_mut()
                .filter(|c| deep_kind(analysis, board, c) == Some(combination))
            {
                if let Some(mv) = check.first_move {
                    let position = check.position.clone();
                    *check = searches.check(check.role, check.side, &position, mv, WIN_MARGIN);
                }
            }
        }
    }
    judge_combinations(&mut checks);
    checks
}

/// Whether `check` is searched deeper after the rounds, and in which round: `Some(false)` for
/// a claimed win (`claims_win`), `Some(true)` for a combination, whose price is paid at once
/// and whose gain may lie deep; `None` for the other plans.
fn deep_kind(analysis: &Analysis, board: &Board, check: &PlanCheck) -> Option<bool> {
    if matches!(check.role, StepRole::Combination(_)) {
        Some(true)
    } else {
        claims_win(analysis, board, check).then_some(false)
    }
}

/// A combination gives material up for more: it is confirmed only where its score is at least
/// the best other plan's of its side (each score capped by the best move's, as `ranked` does);
/// one that scores less is playable at most (`PlanStatus::NotAWin`).
fn judge_combinations(checks: &mut [PlanCheck]) {
    let capped = |c: &PlanCheck| c.best.map_or(c.score, |(_, best)| c.score.min(best));
    let best_other = |side: Color, checks: &[PlanCheck]| {
        checks
            .iter()
            .filter(|c| c.side == side && !matches!(c.role, StepRole::Combination(_)))
            .filter(|c| matches!(c.status, PlanStatus::Confirmed | PlanStatus::NotAWin))
            .map(capped)
            .max()
    };
    let bars: Vec<Option<i32>> = [Color::White, Color::Black]
        .into_iter()
        .map(|side| best_other(side, checks))
        .collect();
    for c in checks.iter_mut() {
        let bar = bars[c.side as usize];
        let below = bar.is_some_and(|bar| capped(c) < bar);
        if matches!(c.role, StepRole::Combination(_)) && c.status == PlanStatus::Confirmed && below
        {
            c.status = PlanStatus::NotAWin;
        }
    }
}

/// Does `check` search the first move of a zone that wins by the zone model, the opponent's
/// compensation weighed (`Analysis::outcome` in `board`, the analysed position)? The report
/// calls it a win unless the search refutes it.
pub fn claims_win(analysis: &Analysis, board: &Board, check: &PlanCheck) -> bool {
    check.first_move.is_some()
        && matches!(check.role, StepRole::Attack { zone }
            if analysis.outcome(board, zone) == ZoneOutcome::Gains)
}

/// One round of `check_plans` at the depth of `searches`.
fn check_round(searches: &mut Searches, board: &Board, analysis: &Analysis) -> Vec<PlanCheck> {
    let depth = searches.limits.depth;
    let us = board.side_to_move();
    let passed = board.null_move();
    let mut out = Vec::new();
    for (index, zone) in analysis.zones.iter().enumerate() {
        let side = zone.side();
        let role = StepRole::Attack { zone: index };
        let position = if side == us {
            Some(board.clone())
        } else {
            passed.clone()
        };
        let playable = position
            .as_ref()
            .and_then(|p| zone.first_move(p).map(|mv| (p, mv)));
        match playable {
            Some((position, mv)) => {
                let margin = match zone.verdict {
                    ZoneVerdict::Wins => WIN_MARGIN,
                    _ => CONFIRM_MARGIN,
                };
                out.push(searches.check(role, side, position, mv, margin));
            }
            None => out.push(PlanCheck {
                role,
                side,
                status: PlanStatus::NotPlayable,
                position: position.unwrap_or_else(|| board.clone()),
                first_move: None,
                score: 0,
                line: Vec::new(),
                best: None,
                depth,
            }),
        }
    }
    let mut others: Vec<Move> = Vec::new();
    for step in planned_steps(board, analysis, PLAN_MOVES_LEFT) {
        let far = match step.role {
            StepRole::Attack { .. } => continue,
            // An attack that needs longer than the plans looked at needs no escape yet.
            StepRole::Escape { rejected, .. } => {
                analysis.rejected[rejected].forecast() > PLAN_MOVES_LEFT
            }
            StepRole::AnswerCheck { .. } => {
                out.push(searches.check(step.role, us, board, step.mv, CONFIRM_MARGIN));
                continue;
            }
            _ => false,
        };
        if far {
            continue;
        }
        if !others.contains(&step.mv) {
            if others.len() == MAX_OTHER_MOVES {
                continue;
            }
            others.push(step.mv);
        }
        out.push(searches.check(step.role, us, board, step.mv, CONFIRM_MARGIN));
    }
    if board.checkers().is_empty() {
        let mut moves: Vec<Move> = Vec::new();
        for combination in combinations(board, analysis) {
            if !moves.contains(&combination.mv) {
                if moves.len() == MAX_COMBINATION_MOVES {
                    continue;
                }
                moves.push(combination.mv);
            }
            let role = StepRole::Combination(combination);
            out.push(searches.check(role, us, board, combination.mv, WIN_MARGIN));
        }
    }
    out
}

/// A search of `position` at the check's depth, among `only` if given.
pub(crate) fn run(
    engine: &mut Engine,
    position: &Board,
    limits: CheckLimits,
    only: Option<Move>,
) -> crate::search::SearchResult {
    let game = Game::from_board(position.clone(), false);
    let limits = Limits {
        depth: Some(limits.depth),
        nodes: Some(limits.nodes),
        search_moves: only.into_iter().collect(),
        ..Default::default()
    };
    engine.search(&game, &limits, &SearchControl::new(), &mut Silent)
}

/// The checks best first: confirmed plans (and claimed wins that are no win but playable) by
/// their searched score, then those not checked,
/// then the refuted ones; among equal scores a confirmed combination comes first (it gives
/// material up for what the search confirms), then the higher score searched alone, then the
/// order of `check_plans` (zones in PIONEER's order, then the other plans of the side to move). A move searched alone may score above the best
/// move, which the search of all moves chose over it: it ranks as the best move's equal, and
/// after it.
pub fn ranked(checks: &[PlanCheck]) -> Vec<&PlanCheck> {
    let mut ranked: Vec<&PlanCheck> = checks.iter().collect();
    ranked.sort_by_key(|c| match c.status {
        PlanStatus::Confirmed | PlanStatus::NotAWin => {
            let (score, not_best) = match c.best {
                Some((best, best_score)) => (c.score.min(best_score), c.first_move != Some(best)),
                None => (c.score, true),
            };
            let plain =
                !(matches!(c.role, StepRole::Combination(_)) && c.status == PlanStatus::Confirmed);
            (0, -score, not_best, plain, -c.score)
        }
        PlanStatus::NotPlayable => (1, 0, true, true, 0),
        PlanStatus::Refuted => (2, 0, true, true, 0),
    });
    ranked
}

/// The zones of `checks` in the order of their best check (`ranked`), each once.
pub fn zone_order(checks: &[PlanCheck]) -> Vec<usize> {
    let mut order: Vec<usize> = Vec::new();
    for zone in ranked(checks).into_iter().filter_map(PlanCheck::zone) {
        if !order.contains(&zone) {
            order.push(zone);
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pioneer::attacks::attack::TrajectoryLimits;
    use crate::rules::parse_fen;

    fn checks(fen: &str) -> (Board, Vec<PlanCheck>) {
        let board = parse_fen(fen, false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let checks = check_plans(&board, &analysis, CheckLimits::default());
        (board, checks)
    }

    #[test]
    fn the_check_deepens_while_the_node_budget_allows() {
        let board = parse_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        // The depths of the claimed wins and of the other plans.
        let depths = |limits: CheckLimits| -> (Vec<i32>, Vec<i32>) {
            let (claims, others): (Vec<PlanCheck>, Vec<PlanCheck>) =
                check_plans(&board, &analysis, limits)
                    .into_iter()
                    .partition(|c| claims_win(&analysis, &board, c));
            let depth = |checks: Vec<PlanCheck>| checks.iter().map(|c| c.depth).collect();
            (depth(claims), depth(others))
        };
        // A small ending fits the default budget: every plan is checked at the deepest round,
        // and the promotion, a claimed win, deeper still.
        let deeper = |claims: &[i32], round: i32| {
            !claims.is_empty()
                && claims
                    .iter()
                    .all(|&d| d > round && d <= round + CLAIM_EXTRA_DEPTH)
        };
        let (claims, others) = depths(CheckLimits::default());
        assert!(others.iter().all(|&d| d == 10), "{others:?}");
        assert!(deeper(&claims, 10), "{claims:?}");
        // The claims' round has a budget of its own.
        let (claims, others) = depths(CheckLimits {
            budget: 0,
            ..CheckLimits::default()
        });
        assert!(others.iter().all(|&d| d == 8), "{others:?}");
        assert!(deeper(&claims, 8), "{claims:?}");
        let (claims, others) = depths(CheckLimits {
            budget: 0,
            claim_budget: 0,
            ..CheckLimits::default()
        });
        assert!(claims.iter().chain(&others).all(|&d| d == 8));
        let (claims, others) = depths(CheckLimits::fixed(6));
        assert!(others.iter().all(|&d| d == 6), "{others:?}");
        assert!(deeper(&claims, 6), "{claims:?}");
    }

    #[test]
    fn the_best_move_keeps_the_score_of_the_search_that_chose_it() {
        // Euwe–Rubinstein 1921, before 23.Rh3: the check's own search calls 23.Rh3 best, and
        // 23.Rh3 is also a plan (it controls g3 against the g-pawn). Searched again alone on
        // the filled table it scored 0.44 lower, below 23.Bd4, which then came first.
        let (board, checks) =
            checks("r1b2rk1/p5pp/1p2p3/5p1P/1PP3n1/2B3q1/P1QNK3/R4B1R w - - 0 23");
        let mut best_moves = checks.iter().filter(|c| {
            matches!(c.best, Some((best, _)) if c.first_move == Some(best) && c.position == board)
        });
        let rh3 = best_moves.next().expect("the best move is a plan");
        assert_eq!(rh3.first_move.unwrap().to_string(), "h1h3");
        // Every check of the best move, at whatever depth, keeps the score of the search of
        // its round that chose it.
        assert!(best_moves.all(|c| c.score == c.best.unwrap().1));
        assert_eq!(rh3.score, rh3.best.unwrap().1);
        assert_eq!(rh3.line.first(), rh3.first_move.as_ref());
        assert_eq!(rh3.status, PlanStatus::Confirmed);
    }

    #[test]
    fn a_claimed_win_must_score_near_the_best_move() {
        // Game 42 of the classics, before 15…Rxe8: the zone model sees 15…Nxe8 win the e8 rook
        // (as 15…Rxe8 does). At depth 8 the knight's capture scores between half a pawn and a
        // pawn below the best move: a playable move, but no win of material.
        let board = parse_fen(
            "4Rrk1/ppqn1ppp/2p2nb1/3p4/3P4/2PB1NP1/PPQN1PP1/R5K1 b - - 0 15",
            false,
        )
        .unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let one_round = CheckLimits {
            budget: 0,
            claim_budget: 0,
            ..CheckLimits::fixed(8)
        };
        let checks = check_plans(&board, &analysis, one_round);
        let nxe8 = move_from(&board, "f6e8");
        let claim = checks
            .iter()
            .find(|c| c.first_move == Some(nxe8) && claims_win(&analysis, &board, c))
            .expect("the capture is a claimed win");
        let behind = claim.best.unwrap().1 - claim.score;
        assert!((WIN_MARGIN..CONFIRM_MARGIN).contains(&behind), "{claim:?}");
        assert_eq!(claim.status, PlanStatus::NotAWin);
        // Listed as a playable move that wins nothing, not as a win and not as refuted.
        let report = checked_report(&board, &analysis, None, &checks);
        let line = line_under(&report, "Playable, but no win by the search:", "N f6×e8");
        assert!(line.contains("would win the e8 rook"), "{line}");
        assert!(
            !report.iter().any(|l| l.contains("N f6×e8 wins")),
            "{report:?}"
        );
    }

    /// The first line of `report` after the line `heading` that contains `text`.
    fn line_under<'r>(report: &'r [String], heading: &str, text: &str) -> &'r str {
        let section = report
            .iter()
            .position(|l| l == heading)
            .unwrap_or_else(|| panic!("no section {heading:?} in {report:?}"));
        report[section..]
            .iter()
            .find(|l| l.contains(text))
            .unwrap_or_else(|| panic!("no {text:?} under {heading:?} in {report:?}"))
    }

    #[test]
    fn a_capture_that_leaves_a_rook_undefended_is_refuted() {
        // Morphy–Harrwitz, Paris 1858, before 25…Rc8: the zone model sees 25…Qxa2 winning a
        // pawn; the queen stops defending a8 and 26.Nxa8 wins the rook.
        let (board, checks) = checks("r4bqk/1pN4p/p1bp2r1/4pN2/4P2R/7P/PPP1QRP1/6K1 b - - 0 25");
        let qxa2 = move_from(&board, "g8a2");
        let check = checks
            .iter()
            .find(|c| c.first_move == Some(qxa2))
            .expect("the capture is a zone");
        assert_eq!(check.status, PlanStatus::Refuted, "{check:?}");
        assert_eq!(check.line.first(), Some(&qxa2));
        let (best, best_score) = check.best.unwrap();
        assert_ne!(best, qxa2);
        assert!(check.score < best_score - CONFIRM_MARGIN);
        assert!(check_text(check).starts_with("search:  refuted — 25... Qxa2 "));
        // The report lists it as refuted and does not call it a win.
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let report = checked_report(&board, &analysis, None, &checks);
        let line = line_under(&report, "Refuted by the search:", "Q g8×a2");
        assert!(line.contains("would win the a2 pawn"), "{line}");
        assert!(
            !report.iter().any(|l| l.contains("Q g8×a2 wins")),
            "{report:?}"
        );
    }

    #[test]
    fn a_free_promotion_is_confirmed_with_the_queen() {
        let (board, checks) = checks("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        let promotion = checks
            .iter()
            .find(|c| c.side == Color::White)
            .expect("the pawn's zone");
        assert_eq!(promotion.status, PlanStatus::Confirmed);
        assert_eq!(promotion.first_move, Some(move_from(&board, "e7e8q")));
        assert!(promotion.score > 800);
    }

    #[test]
    fn a_pinned_piece_cannot_start_its_plan() {
        // The zone model sees Ne2×c3 win a pawn; the knight is pinned to its king.
        let (board, checks) = checks("4r1k1/8/8/8/8/2p5/4N3/4K3 w - - 0 1");
        let knight = checks
            .iter()
            .find(|c| c.side == Color::White)
            .expect("the knight's zone");
        assert_eq!(knight.status, PlanStatus::NotPlayable);
        assert_eq!(knight.first_move, None);
        assert!(check_text(knight).contains("not checked"));
        let pinned = Move {
            from: crate::rules::Square::E2,
            to: crate::rules::Square::C3,
            promotion: None,
        };
        assert!(!board.is_legal(pinned));
    }

    #[test]
    fn a_second_best_move_that_still_wins_is_confirmed() {
        // Black wins with b1=Q+; taking the knight first (…Rxe3+) wins too.
        let (board, checks) = checks("4r1k1/8/8/8/8/4N3/1p6/4K3 b - - 0 1");
        let take = checks
            .iter()
            .find(|c| c.first_move == Some(move_from(&board, "e8e3")))
            .expect("the rook's zone");
        assert!(take.score >= DECISIVE, "{take:?}");
        assert_eq!(take.status, PlanStatus::Confirmed);
    }

    #[test]
    fn the_defender_checks_its_counters_as_plans() {
        // Diagram 52 with Black to move: White's B h6–g5×f6 and R e3–f3×f6 are both met in
        // time by R e8–e6 (K g8–g7 is a counter too, but the bishop covers g7 now); the counters'
        // first steps are Black's plans, searched in the root itself.
        let (board, checks) = checks("4r1k1/3b1p1p/p4npB/4p2p/2P5/3BR2P/PP3PP1/6K1 b - - 0 1");
        let counters: Vec<&PlanCheck> = checks
            .iter()
            .filter(|c| matches!(c.role, StepRole::Counter { .. }))
            .collect();
        assert!(!counters.is_empty());
        for c in &counters {
            assert_eq!(c.side, Color::Black);
            assert_eq!(c.position, board);
            assert!(c.zone().is_some());
            assert_ne!(c.status, PlanStatus::NotPlayable);
            assert_eq!(c.line.first(), c.first_move.as_ref());
        }
        let moves: Vec<Move> = counters.iter().filter_map(|c| c.first_move).collect();
        assert!(moves.contains(&move_from(&board, "e8e6")), "{moves:?}");
        // Each distinct move is searched once: the same move serving two zones scores alike.
        let re6: Vec<i32> = counters
            .iter()
            .filter(|c| c.first_move == Some(move_from(&board, "e8e6")))
            .map(|c| c.score)
            .collect();
        assert!(
            re6.len() >= 2 && re6.iter().all(|&s| s == re6[0]),
            "{re6:?}"
        );
    }

    #[test]
    fn a_clearing_support_is_a_plan_of_its_own() {
        // Diagram 51: B b1–c2 clears the rook's way to a1; its step is checked as White's plan.
        let (board, checks) = checks(crate::pioneer::examples::DIAGRAM_51);
        let support = checks
            .iter()
            .find(|c| {
                matches!(c.role, StepRole::Support { .. })
                    && c.first_move == Some(move_from(&board, "b1c2"))
            })
            .expect("the clearing move is checked");
        assert_eq!(support.side, Color::White);
        assert_eq!(support.status, PlanStatus::Confirmed, "{support:?}");
        let order = zone_order(&checks);
        let mut unique = order.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(order.len(), unique.len());
    }

    #[test]
    fn the_defence_against_a_mate_threat_is_a_plan() {
        // White threatens R a1–a8#: Black's flights (…g6, …h6, …f6, …Kf8) are its plans, and
        // the best of them is confirmed by the search.
        let (board, checks) = checks("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1");
        let threat = checks
            .iter()
            .find(|c| c.side == Color::White)
            .expect("White's mate zone, after a pass");
        assert_eq!(threat.first_move, Some(move_from(&threat.position, "a1a8")));
        assert!(threat.score > 30_000, "a mate: {threat:?}");
        let top = ranked(&checks)
            .into_iter()
            .find(|c| c.side == Color::Black)
            .expect("Black's plans");
        assert_eq!(top.status, PlanStatus::Confirmed);
        assert!(matches!(top.role, StepRole::Counter { .. }), "{top:?}");
        let mv = top.first_move.unwrap();
        assert!(
            ["g7g6", "h7h6", "f7f6", "g8f8"]
                .iter()
                .any(|m| move_from(&board, m) == mv),
            "{mv}"
        );
    }

    #[test]
    fn a_move_scoring_above_the_best_move_ranks_after_it() {
        // Searched alone on a filled table, 16.Kd1 scored +0.01 where the search of all the
        // answers had chosen 16.Ke2 at -0.11.
        let board = parse_fen(
            "r1b2rk1/ppp3pp/3p4/q7/2PPnB2/4P3/P1Q2PPP/2R1KB1R w K - 3 16",
            false,
        )
        .unwrap();
        let (ke2, kd1) = (move_from(&board, "e1e2"), move_from(&board, "e1d1"));
        let check = |mv: Move, score: i32, status: PlanStatus| PlanCheck {
            role: StepRole::AnswerCheck {
                mv,
                answer: crate::pioneer::play::moves::CheckAnswer::KingFlight { to: mv.to },
            },
            side: Color::White,
            status,
            position: board.clone(),
            first_move: Some(mv),
            score,
            line: vec![mv],
            best: Some((ke2, -11)),
            depth: 8,
        };
        let checks = [
            check(kd1, 1, PlanStatus::Refuted),
            check(kd1, 1, PlanStatus::Confirmed),
            check(ke2, -11, PlanStatus::Confirmed),
        ];
        let order: Vec<(Move, PlanStatus)> = ranked(&checks)
            .iter()
            .map(|c| (c.first_move.unwrap(), c.status))
            .collect();
        assert_eq!(
            order,
            [
                (ke2, PlanStatus::Confirmed),
                (kd1, PlanStatus::Confirmed),
                (kd1, PlanStatus::Refuted)
            ]
        );
    }

    #[test]
    fn a_position_in_check_gets_its_answers_as_plans() {
        // Queen a5 checks along a5–e1: White's answers are the blocks Qd2 and Qc3 and the king's
        // flights; before the answers were plans it had no playable plan here.
        let fen = "r1b2rk1/ppp3pp/3p4/q7/2PPnB2/4P3/P1Q2PPP/2R1KB1R w K - 3 16";
        let (board, checks) = checks(fen);
        let answers: Vec<&PlanCheck> = checks
            .iter()
            .filter(|c| matches!(c.role, StepRole::AnswerCheck { .. }))
            .collect();
        assert_eq!(answers.len(), crate::rules::legal_moves(&board).len());
        for c in &answers {
            assert_eq!(c.side, Color::White);
            assert_eq!(c.position, board);
            assert_eq!(c.zone(), None);
            assert_eq!(c.line.first(), c.first_move.as_ref());
        }
        let top = ranked(&checks)
            .into_iter()
            .find(|c| c.side == Color::White)
            .expect("White's plans");
        assert_eq!(top.status, PlanStatus::Confirmed, "{top:?}");
        assert!(matches!(top.role, StepRole::AnswerCheck { .. }), "{top:?}");
        // The best answer is the search's own best move.
        assert_eq!(top.best.map(|b| b.0), top.first_move, "{top:?}");
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let report = checked_report(&board, &analysis, None, &checks);
        assert_eq!(
            report[1], "White is in check (Q a5); the answers, best first:",
            "{report:?}"
        );
        assert!(
            report.contains(&"    White: Q c2–d2 blocks the check of the Q a5".to_string()),
            "{report:?}"
        );
        assert!(!report.iter().any(|l| l == "Escapes of attacked pieces:"));
        let lines = checked_plan_lines(&board, CheckLimits::default(), 1);
        let (text, search) = lines[0].split_once("; ").unwrap();
        assert!(text.starts_with("White: "), "{lines:?}");
        assert!(text.ends_with(" the check of the Q a5") || text.ends_with(" leaves the check"));
        assert!(search.starts_with("search:  confirmed — 16. "), "{lines:?}");
    }

    #[test]
    fn a_sacrifice_that_mates_is_the_first_plan() {
        // Win at Chess 4: 1.Qxh7+ Kxh7 2.hxg6# — the queen removes the pawn h7, which keeps the
        // mate Q h6–h7 after h5–g6 off.
        let (board, checks) = checks("r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1");
        let qxh7 = move_from(&board, "h6h7");
        let top = ranked(&checks)[0];
        assert_eq!(top.first_move, Some(qxh7), "{top:?}");
        let StepRole::Combination(c) = top.role else {
            panic!("the first plan is the combination: {top:?}");
        };
        assert_eq!(c.defender.square, crate::rules::Square::H7);
        assert!(c.cost > 0, "a sacrifice: {c:?}");
        assert_eq!(top.status, PlanStatus::Confirmed);
        assert!(top.score > 30_000, "a mate: {top:?}");
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let report = checked_report(&board, &analysis, None, &checks);
        let line = line_under(
            &report,
            "Combinations (a hindering piece's function taken away at a price):",
            "Q h6×h7",
        );
        assert!(line.contains("removes the pawn on h7"), "{line}");
        // The confirmed combination is the best plan: its list comes before the zones.
        assert_eq!(
            report[1],
            "Combinations (a hindering piece's function taken away at a price):"
        );
    }

    #[test]
    fn a_combination_below_another_plan_is_no_win() {
        // A combination is confirmed only where it scores at least as well as the best other
        // plan of its side; a plain plan keeps its own verdict.
        let board = parse_fen("2r3k1/5ppp/8/8/8/8/2Q2PPP/4R1K1 w - - 0 1", false).unwrap();
        let analysis = Analysis::new(&board, TrajectoryLimits::default());
        let combination = crate::pioneer::zones::combination::combinations(&board, &analysis)[0];
        let plan = |role: StepRole, score: i32| PlanCheck {
            role,
            side: Color::White,
            status: PlanStatus::Confirmed,
            position: board.clone(),
            first_move: Some(combination.mv),
            score,
            line: vec![combination.mv],
            best: Some((combination.mv, 200)),
            depth: 8,
        };
        let mut checks = vec![
            plan(StepRole::Combination(combination), 120),
            plan(StepRole::Attack { zone: 0 }, 150),
        ];
        judge_combinations(&mut checks);
        assert_eq!(checks[0].status, PlanStatus::NotAWin);
        assert_eq!(checks[1].status, PlanStatus::Confirmed);
        checks[0] = plan(StepRole::Combination(combination), 150);
        judge_combinations(&mut checks);
        assert_eq!(checks[0].status, PlanStatus::Confirmed);
    }

    fn move_from(board: &Board, uci: &str) -> Move {
        crate::rules::notation::move_from_uci(board, uci, false).unwrap()
    }
}
