//! Proofs of study claims: the zone search with the defender on every legal move.
//!
//! Design note: the zone search restricts both sides to zone moves, which keeps its tree small
//! but proves nothing. A proof keeps that selectivity for the attacker alone (its zone moves and
//! checks, and at the root its captures and promotions) and gives the defender every legal move
//! (`Admission::Proof`). A complete tree proves a win (at least `WIN` ahead, or mate) or a hold
//! (never more than `HOLD_MARGIN` behind), its leaves valued by the zone model and, with a judge
//! (`study::LeafJudge`), checked by the engine's search; a tree over its budget, or an attacker
//! that fails, proves nothing. Rounds grow the budget by `BUDGET_GROWTH` from `FIRST_BUDGET`
//! and the horizon by two plies, each asking "win?" then "hold?" with a null window, and the
//! deepest complete tree decides; a win is then asked whether it is a mate (`Question::Mate`),
//! and combinations get shorter horizons first. Figures: docs/pioneer.md.

use super::study::{
    Study, StudyResult, StudySettings, StudyVerdict, ZoneSearch, MATE, MAX_HORIZON, WIN,
};
use crate::pioneer::play::admission::Admission;
use crate::pioneer::zones::analysis::Analysis;
use crate::pioneer::zones::combination::static_combinations;
use crate::rules::{repetition_key, side_name, Board, Color, Move};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Positions of the first round of a proof.
pub const FIRST_BUDGET: usize = 500;
/// Factor by which each round's position budget grows.
pub const BUDGET_GROWTH: usize = 4;
/// The most an attacker may stand behind at the horizon and still be said to hold: a pawn
/// down is often a draw, a piece for a pawn is not (`WIN` would count a rook against a knight
/// as a hold).
pub const HOLD_MARGIN: i32 = 150;
/// A proof's combination horizons (`combination_horizons`) get this fraction of its budget
/// (1/N), besides it.
pub const COMBINATION_SHARE: usize = 4;
/// Default position budget of a proof.
pub const MAX_PROOF_POSITIONS: usize = 10_000;
/// Default depth of the engine's search that judges a proof's horizon leaves
/// (`study::LeafJudge`).
pub const LEAF_DEPTH: u32 = 6;
/// Depth of the engine's search that estimates the positions after a proof's moves, to try
/// the most promising first (`study::LeafJudge::estimate`): shallow, since a defender's node
/// asks it of every legal move.
pub const ESTIMATE_DEPTH: u32 = 2;

/// What a proof established, or why it established nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofOutcome {
    /// The attacker wins material decisively (or mates) against every defence.
    Wins,
    /// The attacker is never more than `HOLD_MARGIN` behind, whatever the defence: at least a
    /// draw.
    Holds,
    /// The attacker's zone moves do not hold against every defence; a move outside the zones
    /// might, so nothing is proven.
    AttackerFails,
    /// The tree outgrew the position budget.
    OutOfBudget,
}

/// One round of a proof, as reported while it runs.
#[derive(Clone, Copy, Debug)]
pub struct ProofRound {
    /// The horizon (plies) the round searches to.
    pub horizon: u32,
    /// Does the round ask for a mate (after a win was proven) instead of the claim?
    pub mate: bool,
    /// The round's position budget.
    pub budget: usize,
    /// Positions the round's trees held when it ended (the win question's and the hold's).
    pub positions: usize,
    /// Did the tree fit in the budget?
    pub complete: bool,
    /// Positions the proof's earlier horizons had taken of its budget before this round.
    pub spent: usize,
    /// The proof's whole position budget.
    pub max_positions: usize,
    /// Time since the proof began.
    pub elapsed: Duration,
}

impl ProofRound {
    /// The share of the proof's budget taken when the round ended, from 0 to 1: what a
    /// progress bar shows.
    pub fn progress(&self) -> f64 {
        ((self.spent + self.positions) as f64 / self.max_positions.max(1) as f64).min(1.0)
    }
}

/// A finished proof.
#[derive(Clone, Debug)]
pub struct Proof {
    /// The side whose claim was examined.
    pub attacker: Color,
    /// What was proven.
    pub outcome: ProofOutcome,
    /// The last round's search: value (White's view), main line (when the tree is incomplete,
    /// the best moves completed and the one under examination where it stopped), positions and
    /// horizon.
    pub result: StudyResult,
    /// Rounds played.
    pub rounds: usize,
    /// Time of all rounds.
    pub elapsed: Duration,
}

impl Proof {
    /// Is the claim proven?
    pub fn is_proven(&self) -> bool {
        matches!(self.outcome, ProofOutcome::Wins | ProofOutcome::Holds)
    }

    /// One sentence: what is proven, or why nothing is.
    pub fn summary(&self) -> String {
        let side = side_name(self.attacker);
        let plies = self.result.horizon;
        match self.outcome {
            ProofOutcome::Wins if mates(&self.result, self.attacker) => {
                format!("proven within {plies} plies: {side} mates")
            }
            ProofOutcome::Wins => format!("proven within {plies} plies: {side} wins"),
            ProofOutcome::Holds => format!("proven within {plies} plies: {side} at least draws"),
            ProofOutcome::AttackerFails => format!(
                "not proven: {side}'s zone moves do not hold against every defence \
                 (a move outside the zones may)"
            ),
            ProofOutcome::OutOfBudget => format!(
                "not proven: the tree outgrew {} positions (the line it stood on below)",
                self.result.positions
            ),
        }
    }
}

/// The side a proof should take up after `mover` played into a position the zone search
/// judged `verdict`: the winner when the move loses (to prove that it loses), the mover
/// otherwise (to prove that its move holds or wins).
pub fn attacker_for(verdict: StudyVerdict, mover: Color) -> Color {
    match (verdict, mover) {
        (StudyVerdict::WhiteWins, Color::Black) => Color::White,
        (StudyVerdict::BlackWins, Color::White) => Color::Black,
        _ => mover,
    }
}

/// Proves what `attacker` gets from `board` within `horizon` plies, then, while it does not
/// win, within two plies more at a time (up to `MAX_HORIZON`): a deeper hold says more, and a
/// win may lie just past the horizon the zones call for. Every horizon grows its budget in
/// rounds from `FIRST_BUDGET`, each round reported to `on_round`; the horizons' final trees
/// together hold at most `max_positions`. The deepest complete tree decides: a deeper horizon
/// that runs out of budget leaves it standing, and a deeper failure withdraws a shallower hold
/// (the defender found more with more plies). Where `attacker` is to move and has
/// combinations, their shorter horizons are asked first whether it wins
/// (`combination_horizons`), on a budget of `max_positions / COMBINATION_SHARE` besides, and a
/// win there ends the proof. `history` holds the repetition keys of the positions before
/// `board`, oldest first.
pub fn prove(
    board: &Board,
    attacker: Color,
    horizon: u32,
    settings: &StudySettings,
    history: &[u64],
    max_positions: usize,
    on_round: &mut dyn FnMut(&ProofRound),
) -> Proof {
    let start = Instant::now();
    let claim = Claim {
        board,
        attacker,
        settings,
        history,
    };
    let mut rounds = 0;
    // Each round's best moves order the next round's (deeper horizons' too). The combination
    // horizons keep theirs apart: a shallow tree that finds no win would put its best defence
    // first in the deeper trees, where a longer win lies elsewhere.
    let mut hints = HashMap::new();
    let mut shallow_hints = HashMap::new();
    // One horizon and one question: rounds of growing budget up to `max_positions`.
    let whole_budget = max_positions.max(1);
    // `spent`: positions taken by earlier horizons; `max_positions`: what this one may take.
    let mut within = |horizon: u32,
                      spent: usize,
                      max_positions: usize,
                      question: Question,
                      hints: &mut HashMap<u64, Move>| {
        let mut budget = FIRST_BUDGET.min(max_positions);
        loop {
            rounds += 1;
            let (outcome, result) = answer(claim, question, horizon, budget, hints);
            on_round(&ProofRound {
                horizon,
                mate: matches!(question, Question::Mate),
                budget,
                positions: result.positions,
                complete: result.complete,
                spent,
                max_positions: whole_budget,
                elapsed: start.elapsed(),
            });
            if result.complete || budget >= max_positions || settings.stopped() {
                return (outcome, result);
            }
            budget = budget.saturating_mul(BUDGET_GROWTH).min(max_positions);
        }
    };
    let max_positions = max_positions.max(1);
    let mut spent = 0;
    // The attacker's combinations ask for a win first within their own, shorter horizons, on
    // a budget of their own: a sacrifice that wins is proven soonest where its play ends.
    let mut shallow_budget = max_positions / COMBINATION_SHARE;
    let mut shallow_win = None;
    for shallow in combination_horizons(board, attacker, settings, horizon) {
        if shallow_budget == 0 {
            break;
        }
        let taken = max_positions / COMBINATION_SHARE - shallow_budget;
        let (outcome, result) = within(
            shallow,
            taken,
            shallow_budget,
            Question::Win,
            &mut shallow_hints,
        );
        shallow_budget = shallow_budget.saturating_sub(result.positions);
        if outcome == ProofOutcome::Wins {
            shallow_win = Some(result);
            hints = shallow_hints;
            break;
        }
    }
    let mut horizon = horizon;
    // The deepest horizon whose tree was complete, and what it showed.
    let mut deepest: Option<(ProofOutcome, StudyResult)> = None;
    let (outcome, result) = if let Some(win) = shallow_win {
        (ProofOutcome::Wins, win)
    } else {
        loop {
            let (outcome, result) = within(
                horizon,
                spent,
                max_positions - spent,
                Question::Claim,
                &mut hints,
            );
            spent += result.positions;
            let deeper = horizon + 2 <= MAX_HORIZON && spent < max_positions;
            break match outcome {
                // A hold says more deeper, and a failure may be the zone model's lead at the
                // horizon, gone (or become a mate) a few plies later: both are taken deeper.
                ProofOutcome::Holds | ProofOutcome::AttackerFails if deeper => {
                    deepest = Some((outcome, result));
                    horizon += 2;
                    continue;
                }
                // A deeper tree that outgrows the budget says nothing: the deepest complete one
                // stands (a failure there withdraws any shallower hold).
                ProofOutcome::OutOfBudget => deepest.take().unwrap_or((outcome, result)),
                _ => (outcome, result),
            };
        }
    };
    // A win is proven; a mate within the same horizon is the better proof and the quicker
    // solution, asked for with as many positions again as the win took (at least a first
    // round's): where the mate is not found that cheaply, the win stands.
    let mate_budget = result
        .positions
        .max(FIRST_BUDGET)
        .min(max_positions.saturating_sub(spent));
    let result = match outcome {
        ProofOutcome::Wins if mate_budget > 0 && !mates(&result, attacker) => {
            let (found, asked) = within(
                result.horizon,
                spent,
                mate_budget,
                Question::Mate,
                &mut hints,
            );
            let positions = result.positions + asked.positions;
            let shown = if found == ProofOutcome::Wins {
                asked
            } else {
                result
            };
            StudyResult { positions, ..shown }
        }
        _ => result,
    };
    Proof {
        attacker,
        outcome,
        result,
        rounds,
        elapsed: start.elapsed(),
    }
}

/// The horizons below `horizon` at which `attacker`'s combinations in `board` may already win
/// (none where the defender is to move or the attacker has no combination): from 3 plies, two
/// at a time. Not from the hindered play's length (`Combination::play_length`): the material
/// often comes back sooner, from the defender's answer to the threat (Win at Chess 227,
/// 1…d5 attacks the bishop that guards f7 and wins it at the third ply), and a shallow tree
/// that finds no win costs little.
fn combination_horizons(
    board: &Board,
    attacker: Color,
    settings: &StudySettings,
    horizon: u32,
) -> Vec<u32> {
    if board.side_to_move() != attacker || !board.checkers().is_empty() {
        return Vec::new();
    }
    let analysis = Analysis::new(board, settings.limits);
    if static_combinations(board, &analysis).is_empty() {
        return Vec::new();
    }
    (3..horizon).step_by(2).collect()
}

/// What a round of a proof asks.
#[derive(Clone, Copy)]
enum Question {
    /// Does the attacker win, or at least hold?
    Claim,
    /// Does the attacker win? (A combination's shallower horizon: a hold there says nothing.)
    Win,
    /// Does the attacker mate within the horizon?
    Mate,
}

/// The least value (the side to move's) of a mate inside a tree: the judge's and the tables'
/// wins stay below it (`TABLE_WIN`), so only a checkmate on the board reaches it.
const MATE_WITHIN_TREE: i32 = MATE - MAX_HORIZON as i32;

/// The value of `result` (White's view) for `attacker`.
fn attacker_value(result: &StudyResult, attacker: Color) -> i32 {
    match attacker {
        Color::White => result.value,
        Color::Black => -result.value,
    }
}

/// Does `result`, a proof's search for `attacker`, show a mate on the board within its tree?
fn mates(result: &StudyResult, attacker: Color) -> bool {
    attacker_value(result, attacker) >= MATE_WITHIN_TREE
}

/// What every search of one proof shares: the searched position, the side whose claim it is,
/// the settings and the repetition history before the position (oldest first).
#[derive(Clone, Copy)]
struct Claim<'a> {
    board: &'a Board,
    attacker: Color,
    settings: &'a StudySettings,
    history: &'a [u64],
}

/// "Is the attacker's value at least `threshold`?" within `horizon` and `budget` positions,
/// a search with a null window at `threshold` (the attacker's view): the answer and the search.
fn ask(
    claim: Claim,
    horizon: u32,
    budget: usize,
    threshold: i32,
    hints: &mut HashMap<u64, Move>,
) -> (bool, StudyResult) {
    let Claim {
        board,
        attacker,
        settings,
        history,
    } = claim;
    let (alpha, beta) = if board.side_to_move() == attacker {
        (threshold - 1, threshold)
    } else {
        (-threshold, -threshold + 1)
    };
    let mut search = ZoneSearch::with_settings(settings)
        .with_admission(Admission::Proof { attacker })
        .with_history(history)
        .with_max_positions(budget)
        .with_window(alpha, beta)
        .with_hints(std::mem::take(hints));
    let result = search.run(board, horizon);
    *hints = search.into_best_moves();
    (attacker_value(&result, attacker) >= threshold, result)
}

/// One round of a proof within `horizon` and `budget` positions. The claim: first "does
/// `attacker` win?", then, where it does not, "does it hold?", each a search with a null window at
/// its threshold (`WIN`, −`HOLD_MARGIN`), the second with what the first left of the budget; the
/// result is the deciding search's, with the positions of both trees. The mate: `Wins` where every
/// defence is mated on the board, `AttackerFails` where the complete tree shows no such mate.
/// `hints` order the moves and take the best moves of every search made.
fn answer(
    claim: Claim,
    question: Question,
    horizon: u32,
    budget: usize,
    hints: &mut HashMap<u64, Move>,
) -> (ProofOutcome, StudyResult) {
    match question {
        Question::Mate => {
            let asked = ask(claim, horizon, budget, MATE_WITHIN_TREE, hints);
            return decided(asked, ProofOutcome::Wins);
        }
        Question::Win => {
            return decided(ask(claim, horizon, budget, WIN, hints), ProofOutcome::Wins)
        }
        Question::Claim => {}
    }
    let mut spent = 0;
    let mut ask = |threshold: i32, hints: &mut HashMap<u64, Move>| {
        let (yes, mut result) = ask(claim, horizon, budget - spent, threshold, hints);
        spent += result.positions;
        result.positions = spent;
        (yes, result)
    };
    let (wins, result) = ask(WIN, hints);
    if !result.complete {
        return (ProofOutcome::OutOfBudget, result);
    }
    if wins {
        return (ProofOutcome::Wins, result);
    }
    if result.positions >= budget {
        return (
            ProofOutcome::OutOfBudget,
            StudyResult {
                complete: false,
                ..result
            },
        );
    }
    decided(ask(-HOLD_MARGIN, hints), ProofOutcome::Holds)
}

/// The outcome of a question's last search: `yes` where it answered yes, `AttackerFails` where
/// its complete tree answered no, `OutOfBudget` where the tree is incomplete.
fn decided(
    (answer, result): (bool, StudyResult),
    yes: ProofOutcome,
) -> (ProofOutcome, StudyResult) {
    match (result.complete, answer) {
        (false, _) => (ProofOutcome::OutOfBudget, result),
        (true, true) => (yes, result),
        (true, false) => (ProofOutcome::AttackerFails, result),
    }
}

/// The proofs of a study's verdicts.
#[derive(Clone, Debug)]
pub struct StudyProofs {
    /// What the side to move gets from the start position.
    pub root: Proof,
    /// For each first move of the study (same order): the proof of its zone-search verdict, or
    /// `None` when the proofs' budget was spent before it (or the study was stopped).
    pub first_moves: Vec<Option<Proof>>,
}

/// Proves the verdicts of `study` (solved from `board`): the side to move's claim from the start,
/// with at most `max_positions` positions, then every first move's verdict with a quarter of that
/// each, all first moves together at most `max_positions` (a middlegame's forty first moves would
/// otherwise take minutes). Every round is reported to `on_round` with the move it belongs to
/// (`None`: the start position).
pub fn prove_study(
    board: &Board,
    study: &Study,
    settings: &StudySettings,
    max_positions: usize,
    on_round: &mut dyn FnMut(Option<Move>, &ProofRound),
) -> StudyProofs {
    let mover = board.side_to_move();
    let root = prove(
        board,
        mover,
        study.root.horizon,
        settings,
        &[],
        max_positions,
        &mut |r| on_round(None, r),
    );
    let history = [repetition_key(board)];
    let mut budget = max_positions;
    let first_moves = study
        .first_moves
        .iter()
        .map(|first| {
            if budget == 0 || settings.stopped() {
                return None;
            }
            let mut child = board.clone();
            child.play_unchecked(first.mv);
            let proof = prove(
                &child,
                attacker_for(first.result.verdict, mover),
                first.result.horizon.max(1),
                settings,
                &history,
                (max_positions / 4).clamp(1, budget),
                &mut |r| on_round(Some(first.mv), r),
            );
            budget = budget.saturating_sub(proof.result.positions);
            Some(proof)
        })
        .collect();
    StudyProofs { root, first_moves }
}

#[cfg(test)]
#[path = "proof_tests.rs"]
mod tests;
