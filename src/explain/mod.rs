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
//! so a check is deterministic for a given position and depth. `ending` says in words how a game
//! has ended, for every layer that shows a position (the tools, the web page); `review` judges a
//! game's moves (`tropa annotate`, the page's annotation).

pub mod ending;
pub mod json;
pub mod measure;
pub mod report;
pub mod review;
mod searches;

pub use report::{check_text, checked_plan_lines, checked_report, read_move, MoveReading};

use searches::Searches;

use crate::pioneer::play::moves::{planned_steps, StepRole};
use crate::pioneer::zones::analysis::{Analysis, ZoneOutcome};
use crate::pioneer::zones::combination::combinations;
use crate::pioneer::zones::zone::ZoneVerdict;
use crate::rules::{Board, Color, Game, Move, Square};
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
/// The combinations' deeper round searches with this many times each search's node limit and
/// the claims' budget (docs/pioneer.md has what it changed on the tuning half).
pub const COMBINATION_NODES_SCALE: u64 = 2;

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
    /// The depth the searches reached (the shallower of the move's and the best move's: a
    /// node limit can stop them short of the depth asked for); the depth asked for where the
    /// plan was not searched.
    pub depth: i32,
}

/// The idea a plan serves, so that a list of plans names each idea once: one zone (its attack
/// and supports, the counters against it, the linked zones that save it), one attacked piece's
/// escape, or the plan's own first move (a combination, an answer to a check).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Idea {
    /// The zone of that index in the analysis.
    Zone(usize),
    /// The escape of the piece on that square.
    Escape(Square),
    /// The plan's own move.
    Move(Option<Move>),
}

impl PlanCheck {
    /// The idea the plan serves.
    pub fn idea(&self) -> Idea {
        match (self.role.zone(), self.role) {
            (Some(zone), _) => Idea::Zone(zone),
            (None, StepRole::Escape { .. }) => self
                .first_move
                .map_or(Idea::Move(None), |mv| Idea::Escape(mv.from)),
            _ => Idea::Move(self.first_move),
        }
    }

    /// Its score capped by the best move's: a move searched alone may score above the move the
    /// search of all moves chose over it, and counts as its equal.
    pub fn capped_score(&self) -> i32 {
        self.best
            .map_or(self.score, |(_, best)| self.score.min(best))
    }

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
/// allow, at most `CLAIM_EXTRA_DEPTH` past the last round and past `limits.max_depth`. A
/// claimed win is what a reader acts on, a sacrifice's gain may lie deep, and a few searches go
/// deeper than all of them could. A combination is confirmed only where it scores at least as
/// well as the best other plan (`judge_combinations`).
pub fn check_plans(board: &Board, analysis: &Analysis, limits: CheckLimits) -> Vec<PlanCheck> {
    check_plans_counted(board, analysis, limits).0
}

/// `check_plans`, and the nodes its searches took in all (every round, the deeper ones
/// included): the budget a plain search is given to compare with (`tropa plan --combinations
/// --control`).
pub fn check_plans_counted(
    board: &Board,
    analysis: &Analysis,
    limits: CheckLimits,
) -> (Vec<PlanCheck>, u64) {
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
            let behind = DEEP_ROUNDS.map(|round| {
                let list = checks
                    .iter()
                    .filter(|c| deep_round(analysis, board, c) == Some(round));
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
    for (round, nodes) in DEEP_ROUNDS.into_iter().zip(behind) {
        // A sacrifice's refutation is checked with more nodes: a shallow look calls sound ones
        // refuted (each search's limit and the round's budget, not the cost expected of it).
        let scale = match round {
            DeepRound::Claims => 1,
            DeepRound::Combinations => COMBINATION_NODES_SCALE,
        };
        let limits = CheckLimits {
            nodes: limits.nodes * scale,
            claim_budget: limits.claim_budget * scale,
            ..limits
        };
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
                .filter(|c| deep_round(analysis, board, c) == Some(round))
            {
                if let Some(mv) = check.first_move {
                    let position = check.position.clone();
                    *check = searches.check(check.role, check.side, &position, mv, WIN_MARGIN);
                }
            }
            spent += searches.nodes;
        }
    }
    judge_combinations(&mut checks);
    (checks, spent)
}

/// The rounds after the common ones, each deeper for a few plans, in their order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DeepRound {
    /// The zones called a win (`claims_win`).
    Claims,
    /// The combinations, whose price is paid at once and whose gain may lie deep.
    Combinations,
}

/// The deeper rounds, claims first.
const DEEP_ROUNDS: [DeepRound; 2] = [DeepRound::Claims, DeepRound::Combinations];

/// The deeper round `check` is searched again in, if any.
fn deep_round(analysis: &Analysis, board: &Board, check: &PlanCheck) -> Option<DeepRound> {
    if matches!(check.role, StepRole::Combination(_)) {
        Some(DeepRound::Combinations)
    } else {
        claims_win(analysis, board, check).then_some(DeepRound::Claims)
    }
}

/// A combination gives material up for more: it is confirmed only where its score is at least
/// the best other plan's of its side (each score capped by the best move's, as `ranked` does);
/// one that scores less is playable at most (`PlanStatus::NotAWin`).
fn judge_combinations(checks: &mut [PlanCheck]) {
    let combination = |c: &PlanCheck| matches!(c.role, StepRole::Combination(_));
    let bar = |side: Color| {
        checks
            .iter()
            .filter(|c| c.side == side && !combination(c))
            .filter(|c| matches!(c.status, PlanStatus::Confirmed | PlanStatus::NotAWin))
            .map(PlanCheck::capped_score)
            .max()
    };
    let bars = [bar(Color::White), bar(Color::Black)];
    for c in checks.iter_mut() {
        let below = bars[c.side as usize].is_some_and(|bar| c.capped_score() < bar);
        if combination(c) && c.status == PlanStatus::Confirmed && below {
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
        // One combination a move, best first.
        for combination in combinations(board, analysis)
            .into_iter()
            .take(MAX_COMBINATION_MOVES)
        {
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
/// order of `check_plans` (zones in PIONEER's order, then the other plans of the side to
/// move). A move searched alone may score above the best move, which the search of all moves
/// chose over it: it ranks as the best move's equal (`PlanCheck::capped_score`), and after it.
pub fn ranked(checks: &[PlanCheck]) -> Vec<&PlanCheck> {
    let mut ranked: Vec<&PlanCheck> = checks.iter().collect();
    ranked.sort_by_key(|c| match c.status {
        PlanStatus::Confirmed | PlanStatus::NotAWin => {
            let not_best = c.best.is_none_or(|(best, _)| c.first_move != Some(best));
            let score = c.capped_score();
            let plain =
                !(matches!(c.role, StepRole::Combination(_)) && c.status == PlanStatus::Confirmed);
            (0, -score, not_best, plain, -c.score)
        }
        PlanStatus::NotPlayable => (1, 0, true, true, 0),
        PlanStatus::Refuted => (2, 0, true, true, 0),
    });
    ranked
}

/// The plans of `checks` (best first, as `ranked` gives them) that serve an idea (`Idea`) of
/// their side not served before and begin with a move not seen before: the best plan of each
/// idea, so that the top of the list is so many distinct ideas.
pub fn distinct_ideas<'a>(
    checks: impl Iterator<Item = &'a PlanCheck>,
) -> impl Iterator<Item = &'a PlanCheck> {
    let mut ideas = Vec::new();
    let mut moves = Vec::new();
    checks.filter(move |c| {
        let (idea, first) = ((c.side, c.idea()), (c.side, c.first_move));
        let new = !ideas.contains(&idea) && !moves.contains(&first);
        if new {
            ideas.push(idea);
            moves.push(first);
        }
        new
    })
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
mod tests;
